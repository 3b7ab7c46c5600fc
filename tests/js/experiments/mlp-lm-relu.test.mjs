// The ReLU family of issue #23's pre-registered study: the committed look is what the verdict code
// makes of the committed merges (the whole family, addendum 2), and every number the ReLU sections of
// docs/PAPER_A_LM_STUDY.md quote is recomputed here from those files and found in the text.
// lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { sequentialVerdicts } from '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const json = (path) => JSON.parse(read(path));
const silu = json('docs/experiments/prereg/look-silu/silu.json');
const h1p = json('docs/experiments/prereg/look-silu/h1p.json');
const relu = json('docs/experiments/prereg/look-relu/relu.json');
const committed = json('docs/experiments/prereg/look-relu/verdict.json');
const doc = read('docs/PAPER_A_LM_STUDY.md');
const start = doc.indexOf('\n## The pre-registered study: the ReLU family\'s look');
const section = doc.slice(start, doc.indexOf('\n## ', start + 1)).replace(/\s+/g, ' ');
const VARIANTS = ['ffn-relu', 'reglu', 'symgated-relu', 'ffn-relu2'];

const signed = (v) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(4)}`;
const range = (iv) => `[${signed(iv.lo)}, ${signed(iv.hi)}]`;
const quoted = (text) => assert.ok(section.includes(text), `docs/PAPER_A_LM_STUDY.md, the ReLU look, quotes: ${text}`);
const losses = (name) => relu.main.filter((j) => j.variant === name && j.phase === 'main')
  .sort((a, b) => a.seed - b.seed).map((j) => j.loss);

test('the committed ReLU look is the verdict code\'s answer for the whole family', async () => {
  const lab = await loadGateLab();
  const out = sequentialVerdicts({ main: { main: [...silu.main, ...relu.main] }, referenceRate: h1p }, lab.stats);
  assert.deepEqual(JSON.parse(JSON.stringify(out.look)), committed.look);
  assert.deepEqual(out.verdicts, committed.verdicts);
  assert.equal(out.stage2Needed, true);
  for (const name of VARIANTS) {
    const jobs = relu.main.filter((j) => j.variant === name && j.phase === 'main');
    assert.deepEqual(jobs.map((j) => j.seed).sort((a, b) => a - b), Array.from({ length: 12 }, (_, i) => i + 1));
    assert.ok(jobs.every((j) => !j.diverged), name);
    assert.equal(relu.rates[name].atEdge, false, `${name}: an interior choice, no edge extension`);
  }
  // The SiLU hypotheses enter with their stage-1 numbers: the SiLU look's, unchanged.
  const siluLook = json('docs/experiments/prereg/look-silu/verdict.json').look;
  for (const id of ['H1', 'H1′', 'H3']) {
    const [a, b] = [siluLook, committed.look].map((x) => x.hypotheses.find((h) => h.id === id));
    assert.deepEqual(a.diff, b.diff, id);
  }
});

test('the ReLU look\'s section quotes the committed files', async () => {
  const lab = await loadGateLab();
  for (const name of VARIANTS) {
    const tried = relu.rates[name].tried.map((t) => t.devLoss.toFixed(4)).join(' | ');
    quoted(`(\`${name}\`) | ${tried} | ${relu.rates[name].lr} |`);
    const s = lab.stats.summary(losses(name));
    quoted(`(\`${name}\`) | ${relu.rates[name].lr} | ${s.mean.toFixed(4)} | ${s.sd.toFixed(4)} |`);
  }
  const { look } = committed;
  quoted(`two-sided α = ${look.alpha}`);
  const gain = look.preconditions.find((p) => p.id === 'P-ReLU').gain;
  quoted(`P-ReLU: FFN-ReLU − ReGLU | ${signed(gain.mean)} | ${range(gain)} | | | met |`);
  quoted(`${signed(gain.mean)} nats/char resolves`);
  const words = {};
  for (const id of ['H2', 'H4']) {
    const h = look.hypotheses.find((x) => x.id === id);
    quoted(`${id}: `);
    quoted(`| ${signed(h.diff.mean)} | ${range(h.diff)} | ${h.rho.rho.toFixed(3)} [${h.rho.lo.toFixed(3)}, `
      + `${h.rho.hi.toFixed(3)}] | ${range(h.contrast)} | ${h.verdict} |`);
    words[id] = h.verdict;
  }
  assert.deepEqual(words, { H2: 'against', H4: 'not resolved at this scale' });
  const h2 = look.hypotheses.find((x) => x.id === 'H2');
  const h4 = look.hypotheses.find((x) => x.id === 'H4');
  quoted(`Holm p ${h2.holmDiff.toFixed(4)}`);
  quoted(`(ρ ${h2.rho.rho.toFixed(2)})`);
  quoted(`(${signed(h4.diff.mean)}, resolved at the look's level, Holm p ${h4.holmDiff.toFixed(4)})`);
  quoted(`(ρ ${h4.rho.rho.toFixed(2)})`);
  quoted(`at the look it ends at ${signed(h4.contrast.lo)}`);
  assert.ok(h4.contrast.lo < 0 && h4.holmDiff <= look.alpha, 'H4: worse, E not yet above 0');
  const [sym, gated] = [losses('symgated-relu'), losses('reglu')];
  const better = sym.filter((v, i) => v < gated[i]).length;
  quoted(`in ${better} of ${sym.length} seeds`);
  // The dev sweep at equal rates: where symgated ReLU is ahead, and best against best.
  const dev = (name) => relu.rates[name].tried.map((t) => t.devLoss);
  const ahead = dev('symgated-relu').filter((v, i) => v < dev('reglu')[i]).length;
  assert.equal(ahead, 4);
  quoted('ahead at four of the six rates and behind at 0.002 and 0.004');
  const best = Math.min(...dev('reglu')) - Math.min(...dev('symgated-relu'));
  quoted(`best against best it is ahead by ${best.toFixed(3)}`);
  const sds = VARIANTS.map((name) => lab.stats.summary(losses(name)).sd);
  assert.equal(Math.max(...sds), sds[1], 'ReGLU has the largest seed SD');
  quoted(`ReGLU has the largest seed SD of the study (${sds[1].toFixed(4)}`);
});

test('the ReLU look\'s balance and share are the jobs\' end-of-training diagnostics', () => {
  const mean = (v) => v.reduce((a, b) => a + b, 0) / v.length;
  const atEnd = (name, key) => mean(relu.main.filter((j) => j.variant === name && j.phase === 'main')
    .map((j) => mean(j.diagnostics.at(-1).map((b) => Math.abs(b[key])))));
  const [reglu, sym] = [atEnd('reglu', 'qkDrift'), atEnd('symgated-relu', 'qkDrift')];
  quoted(`is ${reglu.toFixed(3)} for ReGLU and ${sym.toFixed(3)} for symgated ReLU`);
  quoted(`antisymmetric share of ${atEnd('reglu', 'antisymmetricShare').toFixed(3)}`);
  assert.equal(atEnd('symgated-relu', 'antisymmetricShare'), 0);
  const { perVariant } = json('docs/experiments/prereg/mechanism.json');
  quoted(`about a tenth of SwiGLU's ${perVariant.swiglu.drift.toFixed(3)}`);
  const symmetric = [perVariant['symgated-silu'].drift, perVariant['silu-silu'].drift];
  quoted(`symmetric forms (${Math.min(...symmetric).toFixed(3)}–${Math.max(...symmetric).toFixed(3)})`);
  assert.ok(reglu < perVariant.swiglu.drift / 5 && sym < perVariant.swiglu.drift / 5, 'about a tenth');
});
