// tiny-lm's η rerun readout (scripts/experiments/tiny-lm-eta.mjs, docs/TINY_LM_ETA.md) on synthetic
// merged runs built to reach each word: T = 2 better, worse, not resolved, the Holm step, the
// "practically negligible" label and every summary word. lab.stats is the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { etaReadout, etaReport, SUMMARY, summaryWord, WORDS } from '../../../scripts/experiments/tiny-lm-eta.mjs';
import { uniforms } from '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();

/**
 * A merged run at η: T = 1 at 2.0 + noise, T = 2 offset by `gap` (+ its own noise) per seed, or by
 * the given per-seed differences.
 */
function run(eta, gap, { seeds = 4, noise = 0.002, seed = 1, diffs } = {}) {
  const next = uniforms(seed);
  const main = [];
  for (let s = 1; s <= seeds; s++) {
    const base = 2 + (next() - 0.5) * 0.05;
    const d = diffs ? diffs[s - 1] : gap + (next() - 0.5) * noise;
    main.push({ variant: 'cem-t1-d64', phase: 'main', seed: s, loss: base, diverged: false });
    main.push({ variant: 'cem-t2-d64', phase: 'main', seed: s, loss: base + d, diverged: false });
  }
  return { settings: { eta }, rates: { 'cem-t1-d64': { lr: 0.004 }, 'cem-t2-d64': { lr: 0.008, atEdge: true } }, main };
}

test('a resolved gap on each side gets its word; the summary follows the protocol', () => {
  const out = etaReadout([run(0.125, 0.03), run(0.0625, -0.03, { seed: 2 })], lab.stats);
  assert.deepEqual(out.comparisons.map((c) => c.eta), [0.0625, 0.125]);
  assert.deepEqual(out.comparisons.map((c) => c.word), [WORDS.better, WORDS.worse]);
  assert.equal(out.summary, SUMMARY.depends);
  const [low] = out.comparisons;
  assert.ok(low.diff.ci95[1] < 0 && low.holm >= low.diff.p && low.deeperWins === 4, JSON.stringify(low));
  const text = etaReport(out);
  assert.match(text, /\| 0\.0625 \| 0\.004 \| 0\.008 \(edge\) \| 4 \| −0\.03\d\d \[/);
  assert.match(text, /Recursion helps on text \(paper B\): depends on η\./);
});

test('worse at both step sizes is "against"; a gap inside the noise is not resolved', () => {
  assert.equal(etaReadout([run(0.0625, 0.02), run(0.125, 0.02, { seed: 3 })], lab.stats).summary, SUMMARY.against);
  const open = etaReadout([run(0.0625, 0, { noise: 0.05 }), run(0.125, 0.02, { seed: 4 })], lab.stats);
  assert.equal(open.comparisons[0].word, WORDS.open);
  assert.equal(open.comparisons[1].word, WORDS.worse);
  assert.equal(open.summary, SUMMARY.open);
});

test('Holm can undo a resolved interval, and a small resolved gap is practically negligible', () => {
  // One η resolves at p ≈ 0.04; the other does not, so Holm multiplies the first by 2 (> 0.05).
  const marginal = run(0.0625, 0, { diffs: [0.009, 0.004, 0.006, 0.002] });
  const alone = etaReadout([marginal], lab.stats).comparisons[0];
  const paired = etaReadout([marginal, run(0.125, 0, { noise: 0.05, seed: 5 })], lab.stats).comparisons[0];
  if (alone.diff.p < 0.05 && alone.diff.p * 2 >= 0.05) {
    assert.equal(alone.word, WORDS.worse);
    assert.equal(paired.word, WORDS.open);
  } else {
    assert.fail(`the synthetic run should resolve alone but not after Holm (p = ${alone.diff.p})`);
  }
  const small = etaReadout([run(0.0625, 0.005, { noise: 0.0005, seed: 6 })], lab.stats).comparisons[0];
  assert.equal(small.word, WORDS.worse);
  assert.equal(small.negligible, true);
});

test('summary words from the words per η', () => {
  assert.equal(summaryWord([WORDS.better, WORDS.open]), SUMMARY.for);
  assert.equal(summaryWord([WORDS.better, WORDS.better]), SUMMARY.for);
  assert.equal(summaryWord([WORDS.worse, WORDS.open]), SUMMARY.open);
  assert.equal(summaryWord([WORDS.open, WORDS.open]), SUMMARY.open);
});
