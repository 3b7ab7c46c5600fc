// The width pilot's readout (scripts/experiments/mlp-lm-width.mjs, protocol addendum 3) on synthetic
// merged runs: G per width paired by seed, ΔG over the seeds both widths have, each description
// ("grows", "shrinks", not resolved), the seeds a study would need and the cost ratio. lab.stats is
// the real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { widthReadout, widthReport } from '../../../scripts/experiments/mlp-lm-width.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();

/** A merged run at width d whose per-seed gaps G are given; seconds per job set the cost. */
function run(d, gaps, secondsPerJob) {
  const main = gaps.flatMap((g, i) => [
    { variant: 'swiglu', phase: 'main', seed: i + 1, loss: 1.5, diverged: false },
    { variant: 'ffn-silu', phase: 'main', seed: i + 1, loss: 1.5 + g, diverged: false }]);
  return { settings: { d, steps: 4000 }, timing: { jobs: 10, jobSeconds: 10 * secondsPerJob },
    rates: { swiglu: { lr: 0.00566 }, 'ffn-silu': { lr: 0.0113, atEdge: true } }, main };
}

test('a gap that grows with width in every seed reads "grows", with its seed count and cost', () => {
  const out = widthReadout([run(128, [0.06, 0.065, 0.062], 160), run(64, [0.04, 0.041, 0.039], 40)], lab.stats);
  assert.deepEqual(out.widths.map((w) => w.d), [64, 128]);
  assert.ok(Math.abs(out.widths[0].gap.mean - 0.04) < 1e-9);
  assert.ok(Math.abs(out.growth.interval.mean - (0.187 - 0.12) / 3) < 1e-9);
  assert.equal(out.growth.reads, 'grows');
  assert.equal(out.widths[0].msPerStep, 10);
  assert.equal(out.growth.costRatio, 4);
  assert.ok(out.growth.seedsToResolve >= 3 && out.growth.seedsToResolve <= 6, String(out.growth.seedsToResolve));
  const text = widthReport(out);
  assert.match(text, /^PILOT \(no verdict\)/);
  assert.match(text, /\| 64 \| 4000 \| 0\.0113 \(edge\) \| 0\.00566 \| 1\.5400 \| 1\.5000 \| 3 \| \+0\.0400 \[/);
  assert.match(text, /, grows; seed SD/);
});

test('a shrinking gap reads "shrinks"; a noisy one is not resolved and needs more seeds', () => {
  const shrinks = widthReadout([run(64, [0.04, 0.041, 0.039], 40), run(128, [0.02, 0.022, 0.019], 160)], lab.stats);
  assert.equal(shrinks.growth.reads, 'shrinks');
  const noisy = widthReadout([run(64, [0.04, 0.03, 0.05], 40), run(128, [0.03, 0.06, 0.045], 160)], lab.stats);
  assert.equal(noisy.growth.reads, 'not resolved at this scale');
  assert.ok(noisy.growth.interval.lo < 0 && noisy.growth.interval.hi > 0);
  assert.ok(noisy.growth.seedsToResolve > 3, String(noisy.growth.seedsToResolve));
});
