// The ReLU family's mechanism readout of issue #23 (protocol addendum 5) as committed:
// mechanism-relu.json and mechanism-relu.svg are what scripts/experiments/mlp-lm-mechanism.mjs
// --family relu makes of the committed jobs and replays (every replay equal to its job bit for
// bit), and every number the section "The mechanism, ReLU family" of docs/PAPER_A_LM_STUDY.md
// quotes is the JSON's. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { READOUT_RELU, readJobs, readout } from '../../../scripts/experiments/mlp-lm-mechanism.mjs';
import { mechanismCurves, mechanismSvg } from '../../../scripts/experiments/mlp-lm-mechanism-curves.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const root = new URL('../../../', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const read = (p) => readFileSync(path(p), 'utf8');
const committed = JSON.parse(read('docs/experiments/prereg/mechanism-relu.json'));
const study = read('docs/PAPER_A_LM_STUDY.md');
const start = study.indexOf('\n## The mechanism, ReLU family');
const section = study.slice(start, study.indexOf('\n## ', start + 1)).replace(/\s+/g, ' ');
const quoted = (text) => assert.ok(section.includes(text), `the ReLU mechanism section quotes: ${text}`);
const signed = (v, digits) => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;
const interval = (d, digits) => `${signed(d.mean, digits)} [${signed(d.lo, digits)}, ${signed(d.hi, digits)}]`;
const labels = { reglu: 'ReGLU', 'symgated-relu': 'symgated ReLU', 'ffn-relu2': 'ReLU²' };

test('the committed ReLU readout and SVG are the script\'s, on 48 replays equal to their jobs', async () => {
  const lab = await loadGateLab();
  const jobs = readJobs(path('docs/experiments/prereg/relu-jobs'));
  const replays = readJobs(path('docs/experiments/prereg/mech-relu-jobs'));
  const out = { ...readout(jobs, replays, lab.stats, { seeds: 12, design: READOUT_RELU }),
    curves: mechanismCurves(jobs, replays, { seeds: 12, baseline: 'ffn-relu' }) };
  assert.deepEqual(JSON.parse(JSON.stringify(out)), committed);
  assert.equal(replays.length, 48);
  assert.deepEqual(committed.mismatches, []);
  assert.equal(committed.rows.length, 48);
  assert.equal(mechanismSvg(out.curves, {}, { baselineTitle: 'FFN-ReLU' }),
    read('docs/experiments/prereg/mechanism-relu.svg'));
});

test('the ReLU mechanism section quotes the committed readout and its reading', () => {
  assert.ok(start > 0, 'the section exists');
  const at = (q, v) => committed.comparisons[q].find((r) => r.variant === v);
  for (const [v, label] of Object.entries(labels)) {
    const cells = ['kBar', 'k0', 'kEnd'].map((q) => interval(at(q, v).diff, 3));
    quoted(`| ${label} | ${cells.join(' | ')} | ${interval(at('loss', v).diff, 4)} |`);
  }
  const per = committed.perVariant;
  const k = (v) => ['kBar', 'k0', 'kEnd'].map((q) => per[v][q].toFixed(3)).join(' | ');
  quoted(`| FFN-ReLU | ${k('ffn-relu')} | — | 0 (no q, k pair) |`);
  quoted(`| ReGLU | ${k('reglu')} | ${per.reglu.share.toFixed(3)} | ${per.reglu.drift.toFixed(4)} |`);
  assert.equal(per['symgated-relu'].share, 0);
  quoted(`| symgated ReLU | ${k('symgated-relu')} | 0 | ${per['symgated-relu'].drift.toFixed(4)} |`);
  assert.equal(per['ffn-relu2'].drift, 0);
  quoted(`| ReLU² | ${k('ffn-relu2')} | — | 0 (q = k: no pair) |`);
  // What Holm resolves, as the bullets say it.
  const holm = (q, v) => at(q, v).holmP.toFixed(4);
  const worst = (q) => Math.max(...Object.keys(labels).map((v) => at(q, v).holmP)).toFixed(4);
  assert.ok(Object.keys(labels).every((v) => at('kBar', v).above && at('loss', v).below));
  quoted(`all three are resolved above 0 (largest Holm p ${worst('kBar')})`);
  quoted(`all three are resolved below FFN-ReLU (largest Holm p ${worst('loss')})`);
  assert.ok(at('k0', 'symgated-relu').above && at('k0', 'ffn-relu2').below && !at('k0', 'reglu').below
    && !at('k0', 'reglu').above);
  quoted(`ReGLU is not resolved (Holm p ${holm('k0', 'reglu')})`);
  assert.ok(at('kEnd', 'reglu').above && at('kEnd', 'ffn-relu2').above && !at('kEnd', 'symgated-relu').above);
  quoted(`Symgated ReLU is not resolved (Holm p ${holm('kEnd', 'symgated-relu')})`);
  quoted(`Reading, by the addendum's rules: conditioning *${committed.reading}*.`);
  quoted(`by ${at('kBar', 'reglu').diff.mean.toFixed(2)} decades on average over training, about `
    + `${(10 ** at('kBar', 'reglu').diff.mean).toFixed(1)} times`);
  quoted(`K₀ ${signed(at('k0', 'ffn-relu2').diff.mean, 3)} decades, about `
    + `${(10 ** at('k0', 'ffn-relu2').diff.mean).toFixed(2)} times`);
  quoted(`(K_end ${signed(at('kEnd', 'ffn-relu2').diff.mean, 3)})`);
  quoted(`the smallest loss gain (${signed(at('loss', 'ffn-relu2').diff.mean, 4)})`);
  quoted(`ReGLU − FFN-ReLU ${interval(at('drift', 'reglu').diff, 4)}`);
  // The loss-crossing bullets: where each form settles ahead of FFN-ReLU on the mean curves.
  const { curves } = committed;
  assert.deepEqual(curves.reglu.aheadFrom, { validation: 5600, train: 5600 });
  assert.ok(curves.reglu.gapValidation.slice(0, 6).every((g) => g < 0), 'behind until 4,800');
  quoted('behind FFN-ReLU (0.00566) on validation until step 4,800 and ahead from 5,600');
  for (const v of ['symgated-relu', 'ffn-relu2']) {
    assert.deepEqual(curves[v].aheadFrom, { validation: 800, train: 800 });
    assert.ok(curves[v].gapValidation.every((g) => g > 0), v);
  }
  const lead = curves['ffn-relu2'].gapValidation;
  const peak = Math.max(...lead);
  assert.equal(curves['ffn-relu2'].steps[1 + lead.indexOf(peak)], 2400);
  quoted(`ReLU²'s lead peaks at ${peak.toFixed(3)} at step 2,400 and shrinks to ${lead.at(-1).toFixed(3)} at 8,000`);
});

test('the answer box of docs/PAPER_A_LM.md and the article carry the ReLU reading', () => {
  const reglu = committed.comparisons.kBar.find((r) => r.variant === 'reglu').diff.mean;
  const box = read('docs/PAPER_A_LM.md').replace(/\s*>\s*/g, ' ').replace(/\s+/g, ' ');
  assert.ok(box.includes(`Conditioning is *${committed.reading}* here too (addendum 5, 48 replays)`));
  assert.ok(box.includes(`(${signed(reglu, 3)} decades)`));
  const article = read('web/demos/paper-a.html').replace(/\s+/g, ' ');
  assert.ok(reglu > 0 && article.includes('ReGLU’s is higher than FFN-ReLU’s too'), 'paper-a.html why-lm');
  assert.ok(article.includes(`conditioning is ${committed.reading} in both families`), 'paper-a.html why-lm');
});
