// The SiLU family's final analysis (24 seeds) of issue #23's pre-registered study: the committed
// verdict file is what the verdict code makes of the committed merges, and every number that
// docs/PAPER_A_LM_STUDY.md and the answer box of docs/PAPER_A_LM.md quote is recomputed here from
// those files (lab.stats is the real wasm module's) and found in the text.
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
const committed = json('docs/experiments/prereg/final-silu/verdict.json');
const flat = (text) => text.replace(/\s+/g, ' ').replace(/ > /g, ' ');
const study = read('docs/PAPER_A_LM_STUDY.md');
const section = flat(study.slice(study.indexOf('\n## The pre-registered study: the SiLU family\'s final')));
const answer = flat(read('docs/PAPER_A_LM.md')).match(/\*\*Answer, SiLU family[^]*?summary is \*neither\*\./)?.[0]
  ?? '';

const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const quoted = (text) => assert.ok(section.includes(text), `docs/PAPER_A_LM_STUDY.md, SiLU final, quotes: ${text}`);
const losses = (jobs, name) => jobs.filter((j) => j.variant === name && j.phase === 'main')
  .sort((a, b) => a.seed - b.seed).map((j) => j.loss);

test('the committed final analysis is the verdict code\'s answer for the committed merges', async () => {
  const lab = await loadGateLab();
  const out = sequentialVerdicts({ main: silu, referenceRate: h1p }, lab.stats);
  assert.deepEqual(JSON.parse(JSON.stringify(out.final)), committed.final);
  assert.deepEqual(out.verdicts, committed.verdicts);
  for (const name of ['ffn-silu', 'swiglu', 'symgated-silu', 'silu-silu']) {
    const jobs = silu.main.filter((j) => j.variant === name && j.phase === 'main');
    assert.deepEqual(jobs.map((j) => j.seed).sort((a, b) => a - b), Array.from({ length: 24 }, (_, i) => i + 1));
    assert.ok(jobs.every((j) => !j.diverged), name);
  }
  assert.equal(h1p.main.length, 24);
  // The stage-1 merges are the first half of the final ones: stage 2 added seeds and changed none.
  const look = json('docs/experiments/prereg/look-silu/silu.json');
  for (const j of look.main) {
    const same = silu.main.find((k) => k.variant === j.variant && k.seed === j.seed && k.phase === j.phase);
    assert.equal(same?.loss, j.loss, `${j.variant} seed ${j.seed}`);
  }
});

test('the SiLU family\'s final section quotes the committed files', async () => {
  const lab = await loadGateLab();
  const ci = (xs) => {
    const s = lab.stats.summary(xs);
    const half = lab.stats.tQuantile(0.975, xs.length - 1) * s.se;
    return `${s.mean.toFixed(4)} [${(s.mean - half).toFixed(4)}, ${(s.mean + half).toFixed(4)}] | ${s.sd.toFixed(4)} |`;
  };
  for (const name of ['ffn-silu', 'swiglu', 'symgated-silu', 'silu-silu']) {
    quoted(`(\`${name}\`) | ${silu.rates[name].lr} | ${ci(losses(silu.main, name))}`);
  }
  quoted(`(H1′) | ${h1p.rates['symgated-silu'].lr} | ${ci(losses(h1p.main, 'symgated-silu'))}`);
  const { final } = committed;
  assert.equal(final.seeds, 24);
  quoted(`two-sided α = ${final.alpha}`);
  const gain = final.preconditions.find((p) => p.id === 'P-SiLU').gain;
  quoted(`P-SiLU: FFN-SiLU − SwiGLU | ${signed(gain.mean)} | [${signed(gain.lo)}, ${signed(gain.hi)}] | | | met |`);
  assert.ok(answer.includes(`FFN-SiLU − SwiGLU ${signed(gain.mean)} nats/char`), 'the answer box quotes the gain');
  const holm = (p) => (p < 1e-4 ? '< 0.0001' : p.toFixed(4));
  const words = [];
  for (const h of final.hypotheses.filter((x) => x.complete)) {
    const { diff, rho } = h;
    quoted(`${h.id}: `);
    quoted(`| ${signed(diff.mean)} | [${signed(diff.lo)}, ${signed(diff.hi)}] | ${rho.rho.toFixed(3)} `
      + `[${rho.lo.toFixed(3)}, ${rho.hi.toFixed(3)}] | ${holm(h.holmBelowDelta)} | ${h.verdict} |`);
    words.push(h.verdict);
  }
  assert.deepEqual(words, ['against', 'against', 'against'], 'the family\'s word the text states');
  assert.ok(section.includes('**Verdict, SiLU family: against.**'));
  assert.ok(answer.includes('is **against**'), 'the answer box states the word');
  const open = committed.verdicts.filter((v) => v.verdict === 'not resolved at this scale').map((v) => v.id);
  assert.deepEqual(open, ['H2', 'H4'], 'the ReLU family, absent from this analysis');
  const h3 = final.hypotheses.find((h) => h.id === 'H3').diff;
  quoted(`Here it is ahead by ${(-h3.mean).toFixed(4)} [${(-h3.hi).toFixed(4)}, ${(-h3.lo).toFixed(4)}]`);
  const sd = (name) => lab.stats.summary(losses(silu.main, name)).sd.toFixed(4);
  quoted(`(SD ${sd('swiglu')} against ${sd('silu-silu')} for SiLU·SiLU)`);
});

test('the article\'s table of the pre-registered study quotes the committed files', async () => {
  const lab = await loadGateLab();
  const article = read('web/demos/paper-a.html');
  const start = article.indexOf('id="lm-study-results"');
  const table = article.slice(start, article.indexOf('</tbody>', start));  // the SiLU family's rows
  const cell = '\\s*<td>([^<]*)<\\/td>';
  const row = new RegExp(`<tr><th scope="row">([^<]+)<\\/th>${cell}${cell}${cell}${cell}\\s*<\\/tr>`, 'g');
  const rows = [...table.matchAll(row)];
  const three = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(3)}`;
  const ci = (xs) => {
    const s = lab.stats.summary(xs);
    const half = lab.stats.tQuantile(0.975, xs.length - 1) * s.se;
    return `${s.mean.toFixed(3)} [${(s.mean - half).toFixed(3)}, ${(s.mean + half).toFixed(3)}]`;
  };
  const { final } = committed;
  const hyp = (id) => final.hypotheses.find((h) => h.id === id);
  const gain = final.preconditions.find((p) => p.id === 'P-SiLU').gain;
  const paired = (d) => `${three(d.mean)} [${three(d.lo)}, ${three(d.hi)}]`;
  const expected = [
    ['FFN-SiLU', silu.rates['ffn-silu'].lr, ci(losses(silu.main, 'ffn-silu')), paired(gain), 'gating helps'],
    ['SwiGLU', silu.rates.swiglu.lr, ci(losses(silu.main, 'swiglu')), '—', ''],
    ['symgated SiLU', silu.rates['symgated-silu'].lr, ci(losses(silu.main, 'symgated-silu')),
      paired(hyp('H1').diff), hyp('H1').verdict],
    ['symgated SiLU at SwiGLU’s rate', h1p.rates['symgated-silu'].lr, ci(losses(h1p.main, 'symgated-silu')),
      paired(hyp('H1′').diff), hyp('H1′').verdict],
    ['SiLU·SiLU', silu.rates['silu-silu'].lr, ci(losses(silu.main, 'silu-silu')), paired(hyp('H3').diff),
      hyp('H3').verdict],
  ];
  assert.deepEqual(rows.map((m) => m.slice(1).map((x) => x.trim())), expected.map((r) => r.map(String)));
  assert.ok(gain.lo > 0, 'gating helps: the precondition resolves');
});
