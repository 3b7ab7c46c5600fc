// The mechanism readout of issue #23 (protocol addendum 1) as committed: mechanism.json and
// mechanism.svg are what scripts/experiments/mlp-lm-mechanism.mjs makes of the committed jobs and
// replays (every replay equal to its job bit for bit), and every number that the mechanism section
// of docs/PAPER_A_LM_STUDY.md quotes is the JSON's. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { readJobs, readout } from '../../../scripts/experiments/mlp-lm-mechanism.mjs';
import { mechanismCurves, mechanismSvg } from '../../../scripts/experiments/mlp-lm-mechanism-curves.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const read = (p) => readFileSync(path(p), 'utf8');
const committed = JSON.parse(read('docs/experiments/prereg/mechanism.json'));
const study = read('docs/PAPER_A_LM_STUDY.md');
const section = study.slice(study.indexOf('\n## The mechanism: conditioning beside the symmetry')).replace(/\s+/g, ' ');
const quoted = (text) => assert.ok(section.includes(text), `the mechanism section quotes: ${text}`);
const signed = (v, digits) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;
const interval = (d, digits) => `${signed(d.mean, digits)} [${signed(d.lo, digits)}, ${signed(d.hi, digits)}]`;

test('the committed readout and SVG are the script\'s, on 48 replays equal to their jobs', async () => {
  const lab = await loadGateLab();
  const jobs = readJobs(path('docs/experiments/prereg/silu-jobs'));
  const replays = readJobs(path('docs/experiments/prereg/mech-jobs'));
  const out = { ...readout(jobs, replays, lab.stats, { seeds: 12 }), curves: mechanismCurves(jobs, replays,
    { seeds: 12 }) };
  assert.deepEqual(JSON.parse(JSON.stringify(out)), committed);
  assert.equal(replays.length, 48);
  assert.deepEqual(committed.mismatches, []);
  assert.equal(committed.rows.length, 48);
  assert.equal(mechanismSvg(out.curves), read('docs/experiments/prereg/mechanism.svg'));
});

test('the mechanism section quotes the committed readout', () => {
  const at = (q, v) => committed.comparisons[q].find((r) => r.variant === v);
  const labels = { swiglu: 'SwiGLU', 'symgated-silu': 'symgated SiLU', 'silu-silu': 'SiLU·SiLU' };
  let worstHolm = 0;
  for (const [v, label] of Object.entries(labels)) {
    const cells = ['kBar', 'k0', 'kEnd'].map((q) => interval(at(q, v).diff, 3));
    quoted(`| ${label} | ${cells.join(' | ')} | ${interval(at('loss', v).diff, 4)} |`);
    for (const q of ['kBar', 'k0', 'kEnd', 'loss']) {
      assert.ok(at(q, v).holmP <= 0.05 && (q === 'loss' ? at(q, v).below : at(q, v).above), `${v} ${q}`);
      worstHolm = Math.max(worstHolm, at(q, v).holmP);
    }
  }
  quoted(`largest Holm p ${worstHolm.toFixed(4)}`);
  const per = committed.perVariant;
  const k = (v) => ['kBar', 'k0', 'kEnd'].map((q) => per[v][q].toFixed(3)).join(' | ');
  quoted(`| FFN-SiLU | ${k('ffn-silu')} | — |`);
  quoted(`| SwiGLU | ${k('swiglu')} | ${per.swiglu.share.toFixed(3)} | ${per.swiglu.drift.toFixed(4)} |`);
  quoted(`| symgated SiLU | ${k('symgated-silu')} | 0 | ${per['symgated-silu'].drift.toFixed(4)} |`);
  quoted(`| SiLU·SiLU | ${k('silu-silu')} | — | ${per['silu-silu'].drift.toFixed(4)} |`);
  assert.equal(per['symgated-silu'].share, 0);
  quoted(`Reading, by the addendum's rules: conditioning *${committed.reading}*.`);
  quoted(`by ${at('kBar', 'swiglu').diff.mean.toFixed(2)} decades on average`);
  quoted(`about ${(10 ** at('kBar', 'swiglu').diff.mean).toFixed(1)} times`);
  quoted(`lower by ${Math.abs(at('loss', 'swiglu').diff.mean).toFixed(3)}`);
  quoted(`SiLU·SiLU: ${signed(at('kBar', 'silu-silu').diff.mean, 2)} decades, `
    + `${signed(at('loss', 'silu-silu').diff.mean, 3)} nats/char`);
  quoted(`q, k pair: ${interval(at('drift', 'swiglu').diff, 4)}`);
  quoted(`SwiGLU's is ${per.swiglu.drift.toFixed(3)}, the exchange-symmetric forms' `
    + `${per['symgated-silu'].drift.toFixed(3)}–${per['silu-silu'].drift.toFixed(3)}`);
  quoted(`${Math.round(100 * per.swiglu.share)} % of its output`);
  // The loss-crossing sentences: where each form settles ahead of FFN-SiLU on the mean curves.
  const { curves } = committed;
  assert.deepEqual(curves.swiglu.aheadFrom, { validation: 800, train: 3200 });
  assert.ok(curves.swiglu.gapValidation.every((g) => g >= 0));
  assert.ok(curves.swiglu.gapTrain.slice(0, 3).every((g) => Math.abs(g) < 0.008));
  quoted('before that the two are within 0.008 of each other on train');
  assert.deepEqual(curves['silu-silu'].aheadFrom, { validation: 3200, train: 3200 });
  assert.ok(curves['silu-silu'].gapValidation.slice(1, 3).every((g) => g < 0), 'behind at 1,600–2,400');
  assert.deepEqual(curves['symgated-silu'].aheadFrom, { validation: 4000, train: 4000 });
  quoted('SiLU·SiLU is behind at steps 1,600–2,400 and ahead from 3,200');
  quoted('is behind until 3,200 and ahead from 4,000');
});

test('the answer box of docs/PAPER_A_LM.md and the article carry the reading', () => {
  const swiglu = committed.comparisons.kBar.find((r) => r.variant === 'swiglu').diff.mean;
  const box = read('docs/PAPER_A_LM.md').replace(/\s*>\s*/g, ' ').replace(/\s+/g, ' ');
  assert.ok(box.includes(`conditioning, is *${committed.reading}*`));
  assert.ok(box.includes(`(SwiGLU ${signed(swiglu, 3)} decades)`));
  const article = read('web/demos/paper-a.html').replace(/\s+/g, ' ');
  assert.ok(article.includes(`conditioning, is ${committed.reading} here`), 'paper-a.html why-lm');
  assert.ok(article.includes(`about ${(10 ** swiglu).toFixed(1)} times`), 'paper-a.html why-lm');
});
