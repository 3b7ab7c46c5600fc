// H5's rules (scripts/experiments/mlp-lm-dial.mjs, protocol addendum 4) on synthetic jobs: the
// slope per seed, only jobs at the dial's rate count, each word reachable (for, against by margin,
// against by a resolved better dial, not resolved), the look then the end. lab.stats is the real
// wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readFileSync } from 'node:fs';

import { DIAL, POWER, dialPower, dialReport, dialVerdict, slope } from '../../../scripts/experiments/mlp-lm-dial.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const RATE = 0.00565999979;

/** Jobs of seeds 1…n: loss(λ) = 1.48 + b·λ + a seed's noise, FFN-SiLU `gain` above λ = 0. */
function jobs(n, b, { gain = 0.04, noise = 0.004, rate = RATE } = {}) {
  const out = [];
  for (let seed = 1; seed <= n; seed++) {
    const wiggle = (k) => noise * Math.sin(seed * 12.9898 + k * 78.233);
    for (const [k, p] of DIAL.points.entries()) {
      out.push({ variant: p.variant, phase: 'main', seed, lr: rate, diverged: false,
        loss: 1.48 + b * p.lambda + wiggle(k),
        diagnostics: [[{ antisymmetricShare: 0.5 * (1 - p.lambda) }, { antisymmetricShare: 0.3 * (1 - p.lambda) }]] });
    }
    out.push({ variant: 'ffn-silu', phase: 'main', seed, lr: rate, diverged: false, loss: 1.48 + gain + wiggle(9) });
  }
  return out;
}

test('the slope is the least-squares change from λ = 0 to 1', () => {
  assert.ok(Math.abs(slope([0, 0.25, 0.5, 0.75, 1], [1, 1.25, 1.5, 1.75, 2]) - 1) < 1e-12);
  assert.ok(Math.abs(slope([0, 0.25, 0.5, 0.75, 1], [3, 3, 3, 3, 3])) < 1e-12);
});

test('a dial that loses the whole gain is "for" at the look', () => {
  const out = dialVerdict(jobs(12, 0.04), lab.stats);
  assert.equal(out.verdict, 'for');
  assert.equal(out.stage, 'look');
  assert.equal(out.stage2Needed, false);
  assert.ok(Math.abs(out.look.slope.mean - 0.04) < 0.003);
  assert.deepEqual(out.points.map((p) => p.share.toFixed(2)), ['0.40', '0.30', '0.20', '0.10', '0.00']);
  assert.match(dialReport(out), /\*\*H5: for\*\* \(look: resolved worse, loses > ½ the gain\)/);
});

test('a flat dial is "against" by the margin, and needs stage 2 when the look cannot tell', () => {
  const look = dialVerdict(jobs(12, 0, { noise: 0.025 }), lab.stats);
  assert.equal(look.verdict, 'not resolved at this scale');
  assert.equal(look.stage2Needed, true);
  assert.match(look.why, /stage 2 not run yet/);
  const end = dialVerdict(jobs(24, 0, { noise: 0.025 }), lab.stats);
  assert.equal(end.stage, 'final');
  assert.ok(end.look.slope.hi > DIAL.delta, 'the same seeds 1–12 did not resolve at the look');
  assert.ok(end.final.slope.hi < DIAL.delta);
  assert.equal(end.verdict, 'against');
  assert.equal(end.why, 'interval below +δ');
});

test('a dial that resolves better is "against"; worse by less than half the gain is not resolved', () => {
  assert.equal(dialVerdict(jobs(12, -0.03), lab.stats).why, 'resolved better');
  const small = dialVerdict(jobs(24, 0.012, { noise: 0.002 }), lab.stats);
  assert.equal(small.verdict, 'not resolved at this scale');
  assert.match(small.why, /worse, but not by > ½ the gain/);
});

test('only jobs at the dial\'s rate count; a missing point leaves the word open', () => {
  const elsewhere = jobs(12, 0.04, { rate: 0.008 });
  const out = dialVerdict([...jobs(12, 0, { noise: 0.012 }), ...elsewhere], lab.stats);
  assert.ok(Math.abs(out.look.slope.mean) < 0.01, 'the 0.008 jobs are not read');
  const missing = jobs(12, 0.04).filter((j) => !(j.variant === 'dial-silu-0.5' && j.seed === 3));
  const open = dialVerdict(missing, lab.stats);
  assert.equal(open.verdict, 'not resolved at this scale');
  assert.match(open.why, /runs missing for seeds 1–12/);
});

test('the power table of protocol addendum 4 is the simulation\'s', () => {
  const protocol = readFileSync(new URL('../../../docs/PAPER_A_LM_PROTOCOL.md', import.meta.url), 'utf8');
  const addendum = protocol.slice(protocol.indexOf('### Addendum 4'));
  for (const b of POWER.slopes) {
    const p = dialPower(lab.stats, { ...POWER, slope: b });
    const row = [p.for, p.against, p.open, p.atLook].map((v) => v.toFixed(3)).join(' | ');
    assert.ok(addendum.includes(`| +${b.toFixed(4)} | ${row} |`), `b = ${b}: ${row}`);
  }
});
