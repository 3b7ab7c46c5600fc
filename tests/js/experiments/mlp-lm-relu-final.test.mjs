// The ReLU family's final analysis (24 seeds) of issue #23's pre-registered study: the committed
// verdict file is what the verdict code makes of the committed merges (the whole family of five), and
// every number that docs/PAPER_A_LM_STUDY.md, the answer box of docs/PAPER_A_LM.md and the article's
// ReLU table quote is recomputed here from those files (lab.stats is the real wasm module's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { sequentialVerdicts } from '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = (path) => JSON.parse(read(path));
const silu = json('docs/experiments/prereg/final-silu/silu.json');
const h1p = json('docs/experiments/prereg/final-silu/h1p.json');
const relu = json('docs/experiments/prereg/final-relu/relu.json');
const committed = json('docs/experiments/prereg/final-relu/verdict.json');
const flat = (text) => text.replace(/\s+/g, ' ');
const study = read('docs/PAPER_A_LM_STUDY.md');
const start = study.indexOf('\n## The pre-registered study: the ReLU family\'s final');
const section = flat(study.slice(start, study.indexOf('\n## ', start + 1)));
const answer = flat(read('docs/PAPER_A_LM.md')).match(/\*\*Answer, ReLU family[^]*?PAPER_A_LM_STUDY\.md`\./)?.[0]
  ?? '';
const VARIANTS = ['ffn-relu', 'reglu', 'symgated-relu', 'ffn-relu2'];

const signed = (v, digits = 4) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;
const range = (iv, digits = 4) => `[${signed(iv.lo, digits)}, ${signed(iv.hi, digits)}]`;
const quoted = (text) => assert.ok(section.includes(text), `docs/PAPER_A_LM_STUDY.md, ReLU final, quotes: ${text}`);
const losses = (name) => relu.main.filter((j) => j.variant === name && j.phase === 'main')
  .sort((a, b) => a.seed - b.seed).map((j) => j.loss);
const hyp = (id) => committed.final.hypotheses.find((h) => h.id === id);

test('the committed ReLU final is the verdict code\'s answer for the whole family', async () => {
  const lab = await loadGateLab();
  const out = sequentialVerdicts({ main: { main: [...silu.main, ...relu.main] }, referenceRate: h1p }, lab.stats);
  assert.deepEqual(JSON.parse(JSON.stringify(out.final)), committed.final);
  assert.deepEqual(out.verdicts, committed.verdicts);
  for (const name of VARIANTS) {
    const jobs = relu.main.filter((j) => j.variant === name && j.phase === 'main');
    assert.deepEqual(jobs.map((j) => j.seed).sort((a, b) => a - b), Array.from({ length: 24 }, (_, i) => i + 1));
    assert.ok(jobs.every((j) => !j.diverged), name);
  }
  // Stage 2 added seeds and changed none: the look's merge is the first half of this one.
  for (const j of json('docs/experiments/prereg/look-relu/relu.json').main) {
    const same = relu.main.find((k) => k.variant === j.variant && k.seed === j.seed && k.phase === j.phase);
    assert.equal(same?.loss, j.loss, `${j.variant} seed ${j.seed}`);
  }
  // The SiLU family's words are those of its own final analysis; H2 keeps the look's word.
  const siluWords = json('docs/experiments/prereg/final-silu/verdict.json').verdicts;
  for (const id of ['H1', 'H1′', 'H3']) {
    assert.equal(committed.verdicts.find((v) => v.id === id).verdict, siluWords.find((v) => v.id === id).verdict);
  }
  assert.deepEqual(committed.verdicts.find((v) => v.id === 'H2'), { id: 'H2', verdict: 'against', stage: 'look',
    why: 'resolved better' });
});

test('the ReLU final section and the answer box quote the committed files', async () => {
  const lab = await loadGateLab();
  for (const name of VARIANTS) {
    const xs = losses(name);
    const s = lab.stats.summary(xs);
    const half = lab.stats.tQuantile(0.975, xs.length - 1) * s.se;
    quoted(`(\`${name}\`) | ${relu.rates[name].lr} | ${s.mean.toFixed(4)} [${(s.mean - half).toFixed(4)}, `
      + `${(s.mean + half).toFixed(4)}] | ${s.sd.toFixed(4)} |`);
  }
  const { final } = committed;
  quoted(`two-sided α = ${final.alpha}`);
  const gain = final.preconditions.find((p) => p.id === 'P-ReLU').gain;
  quoted(`P-ReLU: FFN-ReLU − ReGLU | ${signed(gain.mean)} | ${range(gain)} | | | met |`);
  assert.ok(answer.includes(`FFN-ReLU − ReGLU ${signed(gain.mean)} nats/char`), 'the answer box quotes the gain');
  const rows = { H2: 'against (at the look)', H4: 'for' };
  for (const [id, word] of Object.entries(rows)) {
    const h = hyp(id);
    quoted(`${id}: `);
    quoted(`| ${signed(h.diff.mean)} | ${range(h.diff)} | ${h.rho.rho.toFixed(3)} [${h.rho.lo.toFixed(3)}, `
      + `${h.rho.hi.toFixed(3)}] | ${range(h.contrast)} | ${word} |`);
    assert.ok(answer.includes(`(${signed(h.diff.mean)}`), `the answer box quotes ${id}`);
  }
  assert.equal(hyp('H4').verdict, 'for');
  assert.ok(hyp('H4').contrast.lo > 0 && hyp('H4').holmDiff < 1e-4, 'H4: worse after Holm, E above 0');
  quoted('Holm p < 0.0001');
  quoted(`it keeps ρ ${hyp('H4').rho.rho.toFixed(2)}`);
  assert.ok(answer.includes(`keeps about ${hyp('H4').rho.rho.toFixed(2)} of the gain`));
  for (const [id, text] of [['H1', '0.0144'], ['H1′', '0.0108'], ['H3', '< 0.0001']]) {
    const p = hyp(id).holmBelowDelta;
    assert.equal(p < 1e-4 ? '< 0.0001' : p.toFixed(4), text, id);
  }
  quoted('become 0.0144, 0.0108 and < 0.0001');
  const [sym, gated, square] = [losses('symgated-relu'), losses('reglu'), losses('ffn-relu2')];
  quoted(`in ${sym.filter((v, i) => v < gated[i]).length} of 24 seeds`);
  quoted(`worse in ${square.filter((v, i) => v > gated[i]).length} of 24 seeds`);
  const sds = VARIANTS.map((name) => lab.stats.summary(losses(name)).sd);
  assert.equal(Math.max(...sds), sds[1], 'ReGLU is the least steady');
  quoted(`(seed SD ${sds[1].toFixed(4)}, about twice the others)`);
});

test('the ReLU final balance and the article\'s ReLU table are the committed files\'', async () => {
  const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
  const atEnd = (name, key) => mean(relu.main.filter((j) => j.variant === name && j.phase === 'main')
    .map((j) => mean(j.diagnostics.at(-1).map((b) => Math.abs(b[key])))));
  quoted(`drift ${atEnd('reglu', 'qkDrift').toFixed(3)} for ReGLU and ${atEnd('symgated-relu', 'qkDrift').toFixed(3)}`);
  quoted(`antisymmetric share ${atEnd('reglu', 'antisymmetricShare').toFixed(3)} for ReGLU`);
  const lab = await loadGateLab();
  const article = read('web/demos/paper-a.html');
  const at = article.indexOf('id="lm-study-relu"');
  const table = article.slice(at, article.indexOf('</table>', at));
  const cell = '\\s*<td>([^<]*)<\\/td>';
  const row = new RegExp(`<tr><th scope="row">([^<]+)<\\/th>${cell}${cell}${cell}${cell}\\s*<\\/tr>`, 'g');
  const ci = (xs) => {
    const s = lab.stats.summary(xs);
    const half = lab.stats.tQuantile(0.975, xs.length - 1) * s.se;
    return `${s.mean.toFixed(3)} [${(s.mean - half).toFixed(3)}, ${(s.mean + half).toFixed(3)}]`;
  };
  const paired = (d) => `${signed(d.mean, 3)} ${range(d, 3)}`;
  const gain = committed.final.preconditions.find((p) => p.id === 'P-ReLU').gain;
  const expected = [
    ['FFN-ReLU', relu.rates['ffn-relu'].lr, ci(losses('ffn-relu')), paired(gain), 'gating helps'],
    ['ReGLU', relu.rates.reglu.lr, ci(losses('reglu')), '—', ''],
    ['symgated ReLU', relu.rates['symgated-relu'].lr, ci(losses('symgated-relu')), paired(hyp('H2').diff), 'against'],
    ['ReLU²', relu.rates['ffn-relu2'].lr, ci(losses('ffn-relu2')), paired(hyp('H4').diff), 'for'],
  ];
  const prose = article.replace(/\s+/g, ' ');
  assert.ok(prose.includes(`keeps only about ${Math.round(100 * hyp('H4').rho.rho)} % of gating's gain`));
  const rows = [...table.matchAll(row)].map((m) => m.slice(1).map((x) => x.trim()));
  assert.deepEqual(rows, expected.map((r) => r.map(String)));
});
