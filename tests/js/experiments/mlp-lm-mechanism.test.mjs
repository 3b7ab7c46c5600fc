// The mechanism readout of issue #23 (scripts/experiments/mlp-lm-mechanism.mjs, protocol addendum 1)
// on synthetic jobs and replays built to reach each reading: conditioning favoured, disfavoured and
// not resolved; a replay whose curve is not its job's bit for bit is left out. lab.stats is the
// real wasm module's.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { READINGS, READOUT_RELU, measurements, mechanismReport, readout } from
  '../../../scripts/experiments/mlp-lm-mechanism.mjs';
import { mechanismCurves, mechanismSvg } from '../../../scripts/experiments/mlp-lm-mechanism-curves.mjs';
import { uniforms } from '../../../scripts/experiments/mlp-lm-verdict.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const lab = await loadGateLab();
const next = uniforms(20261205);
const jitter = (size) => (next() - 0.5) * 2 * size;

/**
 * A job and its replay per (variant, seed): spec[variant] = { loss, logK } offsets; every seed adds
 * small noise, so a 0.2-decade or 0.02-nat offset resolves over 8 seeds and a zero one does not.
 */
function study(spec, seeds = 8) {
  const jobs = [];
  const replays = [];
  for (const [variant, { loss, logK }] of Object.entries(spec)) {
    for (let seed = 1; seed <= seeds; seed++) {
      const l = 1.5 + loss + jitter(0.002);
      const curve = [2.0, 1.8, l];
      const gated = variant === 'swiglu' || variant === 'reglu';
      const block = () => ({ antisymmetricShare: gated ? 0.5 : null, qkDrift: jitter(0.1) });
      const job = { variant, phase: 'main', seed, lr: 0.004, loss: l, curveValLoss: curve,
        diagnostics: [[block(), block()], [block(), block()]] };
      const kappa = () => 10 ** (2 + logK + jitter(0.02));
      jobs.push(job);
      replays.push({ ...job, curveValLoss: [...curve], ntk: { tokens: 4,
        conditionNumber: [0, 1, 2].map(() => [kappa(), kappa()]) } });
    }
  }
  return { jobs, replays };
}

test('gating that conditions better, kept by the symmetric forms that keep the loss: favoured', () => {
  const { jobs, replays } = study({ 'ffn-silu': { loss: 0.04, logK: 0 }, swiglu: { loss: 0, logK: -0.3 },
    'symgated-silu': { loss: 0, logK: -0.3 }, 'silu-silu': { loss: 0.04, logK: 0 } });
  const out = readout(jobs, replays, lab.stats);
  assert.equal(out.reading, READINGS.favoured);
  const swiglu = out.comparisons.kBar.find((r) => r.variant === 'swiglu');
  assert.ok(swiglu.below && swiglu.diff.hi < 0 && Math.abs(swiglu.diff.mean + 0.3) < 0.02, JSON.stringify(swiglu));
  assert.equal(out.comparisons.loss.find((r) => r.variant === 'silu-silu').below, false);
  assert.match(mechanismReport(out), /Conditioning: favoured\./);
});

test('gating that conditions worse, or a loss gain with worse conditioning: disfavoured', () => {
  const worse = study({ 'ffn-silu': { loss: 0.04, logK: 0 }, swiglu: { loss: 0, logK: 0.3 },
    'symgated-silu': { loss: 0, logK: 0 }, 'silu-silu': { loss: 0, logK: 0 } });
  assert.equal(readout(worse.jobs, worse.replays, lab.stats).reading, READINGS.disfavoured);
  const symWorse = study({ 'ffn-silu': { loss: 0.04, logK: 0 }, swiglu: { loss: 0, logK: -0.3 },
    'symgated-silu': { loss: 0, logK: 0.3 }, 'silu-silu': { loss: 0.04, logK: 0 } });
  assert.equal(readout(symWorse.jobs, symWorse.replays, lab.stats).reading, READINGS.disfavoured);
});

test('no resolved difference in conditioning: not resolved at this scale', () => {
  const { jobs, replays } = study({ 'ffn-silu': { loss: 0.04, logK: 0 }, swiglu: { loss: 0, logK: 0 },
    'symgated-silu': { loss: 0, logK: 0 }, 'silu-silu': { loss: 0, logK: 0 } });
  assert.equal(readout(jobs, replays, lab.stats).reading, READINGS.open);
});

test('a replay that is not its job bit for bit is left out, and named', () => {
  const { jobs, replays } = study({ 'ffn-silu': { loss: 0, logK: 0 }, swiglu: { loss: 0, logK: 0 } }, 3);
  replays[1] = { ...replays[1], curveValLoss: [2.0, 1.8, replays[1].loss + 1e-12] };
  const { rows, mismatches } = measurements(jobs, replays);
  assert.equal(rows.length, 5);
  assert.deepEqual(mismatches.map((m) => [m.variant, m.seed, m.reason]), [['ffn-silu', 2, 'curve differs']]);
  const kBar = rows.find((r) => r.variant === 'swiglu' && r.seed === 1).kBar;
  assert.ok(Math.abs(kBar - 2) < 0.03, `K̄ is the mean log10 κ of the curve points (got ${kBar})`);
});

test('the curves: mean log10 κ per point, the gap to FFN-SiLU and where a form settles ahead', () => {
  const job = (variant, seed, val, train) => ({ variant, phase: 'main', seed, lr: 0.004, loss: val.at(-1),
    curveSteps: [100, 200, 300], curveValLoss: val, curveTrainLoss: train });
  const jobs = [job('ffn-silu', 1, [2.0, 1.8, 1.7], [2.1, 1.9, 1.8]),
    job('ffn-silu', 2, [2.2, 1.8, 1.7], [2.1, 1.9, 1.8]), job('swiglu', 1, [2.2, 1.7, 1.6], [2.2, 1.95, 1.7]),
    job('swiglu', 2, [2.2, 1.7, 1.6], [2.2, 1.95, 1.7])];
  const kappa = (k) => ({ tokens: 4, conditionNumber: [[k, k], [10 * k, k], [k, k], [k, 100 * k]] });
  const replays = [{ ...jobs[0], ntk: kappa(10) }, { ...jobs[1], ntk: kappa(1000) }, { ...jobs[2], ntk: kappa(10) },
    { ...jobs[3], curveValLoss: [2.2, 1.7, 1.6000001], ntk: kappa(10) }];
  const curves = mechanismCurves(jobs, replays);
  assert.deepEqual(curves.swiglu.seeds, [1], 'the replay that differs from its job is left out');
  assert.deepEqual(curves['ffn-silu'].steps, [0, 100, 200, 300]);
  assert.deepEqual(curves['ffn-silu'].logKappa.map((v) => +v.toFixed(6)), [2, 2.5, 2, 3]);
  assert.deepEqual(curves.swiglu.gapValidation.map((v) => +v.toFixed(6)), [-0.1, 0.1, 0.1]);
  assert.deepEqual(curves.swiglu.aheadFrom, { validation: 200, train: 300 });
  assert.match(mechanismSvg(curves), /^<svg[\s\S]*L\(FFN-SiLU\) − L\(variant\)[\s\S]*<\/svg>\n$/);
});

test('addendum 5: the ReLU family\'s readout has the same rules with FFN-ReLU and ReGLU', () => {
  const favoured = study({ 'ffn-relu': { loss: 0.04, logK: 0 }, reglu: { loss: 0, logK: -0.3 },
    'symgated-relu': { loss: 0, logK: -0.3 }, 'ffn-relu2': { loss: 0.04, logK: 0 } });
  const out = readout(favoured.jobs, favoured.replays, lab.stats, { design: READOUT_RELU });
  assert.equal(out.reading, READINGS.favoured);
  assert.deepEqual(out.comparisons.kBar.map((r) => r.variant), ['reglu', 'symgated-relu', 'ffn-relu2']);
  assert.match(mechanismReport(out), /^\| variant − FFN-ReLU \|/);
  // ReLU² gaining loss with a worse-conditioned NTK disfavours conditioning, as SiLU·SiLU did.
  const worse = study({ 'ffn-relu': { loss: 0.04, logK: 0 }, reglu: { loss: 0, logK: -0.3 },
    'symgated-relu': { loss: 0.04, logK: 0 }, 'ffn-relu2': { loss: 0, logK: 0.3 } });
  assert.equal(readout(worse.jobs, worse.replays, lab.stats, { design: READOUT_RELU }).reading, READINGS.disfavoured);
  const flat = study({ 'ffn-relu': { loss: 0, logK: 0 }, reglu: { loss: 0, logK: 0 },
    'symgated-relu': { loss: 0, logK: 0 }, 'ffn-relu2': { loss: 0, logK: 0 } });
  assert.equal(readout(flat.jobs, flat.replays, lab.stats, { design: READOUT_RELU }).reading, READINGS.open);
  assert.match(mechanismSvg(mechanismCurves(favoured.jobs.map((j) => ({ ...j, curveSteps: [1, 2, 3],
    curveTrainLoss: j.curveValLoss })), favoured.replays, { baseline: 'ffn-relu' }), {}, { baselineTitle: 'FFN-ReLU' }),
  /L\(FFN-ReLU\) − L\(variant\)/);
});
