// <gatelab-lm>'s settings live in one place, the native runner's lm-figure table: the figure's
// generated copy (web/components/paper-a/lm/lm-preset.js) must equal what the runner prints, its
// widths must be the library's budget rule, and a run built from it with lab.lm in Node must give
// `gatelab_experiment lm-job --experiment lm-figure` bit for bit (the browser test checks the
// figure itself: tests/browser/paper-a/lm.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { PRESET_FILE, presetFromRunner, presetSource } from '../../../scripts/lm-figure-preset.mjs';
import { runNative } from '../../../scripts/experiments/native.mjs';
import { LM_PRESET } from '../../../web/components/paper-a/lm/lm-preset.js';
import { curveSteps, runsOf, LM_SCHEMA, DEFAULT_MODELS } from '../../../web/components/paper-a/lm/lm-schema.js';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const TEXT = 'data/lm/sotu-1790-1880.txt';

test('lm-preset.js is the runner\'s lm-figure table, regenerated unchanged', async () => {
  const preset = await presetFromRunner();
  assert.equal(readFileSync(PRESET_FILE, 'utf8'), presetSource(preset), 'run node scripts/lm-figure-preset.mjs');
  assert.deepEqual(JSON.parse(JSON.stringify(LM_PRESET)), preset);
  const { settings } = LM_PRESET;
  assert.equal(settings.decay, false, 'a constant rate after warm-up');
  assert.ok(settings.evalEvery > 0);
  assert.deepEqual(DEFAULT_MODELS, ['swiglu', 'symgated-silu', 'ffn-gelu']);
  assert.equal(LM_SCHEMA.steps.default, settings.steps);
  assert.equal(LM_SCHEMA.seeds.default, settings.seeds);
  assert.ok(LM_PRESET.variants.some((v) => v.name === settings.reference));
});

test('every variant spends the budget by the library\'s rule, and the sessions are valid', async () => {
  const lab = await loadGateLab();
  const { settings, variants } = LM_PRESET;
  const text = readFileSync(TEXT, 'latin1').slice(0, settings.maxChars);
  const corpus = lab.lm.createCorpus(text,
    { devFraction: settings.devFraction, validationFraction: settings.validationFraction });
  for (const v of variants) {
    const hidden = lab.lm.hiddenForBudget({ kind: v.kind, rank: v.rank, d: settings.d, budget: settings.budget });
    assert.equal(hidden, v.hidden, v.name);
    assert.equal(v.mlpParameters, settings.budget, `${v.name}: equal MLP parameters`);
  }
  const state = { models: variants.map((v) => v.name).slice(0, 4).join(','), seeds: 2, seed: 7, steps: 100 };
  for (const run of runsOf(state)) {
    const session = lab.lm.createSession({ ...run.options, corpus });
    assert.equal(session.options.decaySteps, 0);
    session.dispose();
  }
  corpus.dispose();
  assert.equal(lab.liveObjects(), 0);
});

// The figure's first model of `models` run in Node against the native lm-job, bit for bit.
async function sameAsNative(models) {
  const lab = await loadGateLab();
  const { settings } = LM_PRESET;
  const steps = 120;
  assert.deepEqual(curveSteps(steps), [50, 100, 120]);
  const [run] = runsOf({ models, seeds: 1, seed: 3, steps });
  const native = await runNative('lm-job', ['--experiment', 'lm-figure', '--text', TEXT, '--variant', run.variant.name,
    '--phase', 'main', '--seed', String(run.seed), '--lr', String(run.variant.learningRate),
    '--steps', String(steps)], { quiet: true });
  assert.deepEqual(native.curveSteps, curveSteps(steps));
  const text = readFileSync(TEXT, 'latin1').slice(0, settings.maxChars);
  const corpus = lab.lm.createCorpus(text,
    { devFraction: settings.devFraction, validationFraction: settings.validationFraction });
  const probe = lab.lm.createSession({ ...run.reference, corpus });
  const initRms = probe.mlpOutputRms(0);
  probe.dispose();
  const session = lab.lm.createSession({ ...run.options, corpus, mlpInitRms: initRms });
  const curve = [];
  for (const at of curveSteps(steps)) {
    session.train(at - session.stepsDone);
    curve.push(session.evaluate('validation', settings.evalWindows));
  }
  assert.deepEqual(curve, native.curveValLoss);
  assert.equal(Number(Math.fround(initRms).toPrecision(9)), native.initRms);
  assert.equal(session.parameterCount, native.parameters);
  assert.equal(session.sample({ count: settings.sampleChars, temperature: 0.8, seed: run.seed }), native.sample);
  session.dispose();
  corpus.dispose();
}

test('a run of the figure in Node equals lm-job --experiment lm-figure bit for bit',
  () => sameAsNative('symgated-silu,swiglu'));

// Issue #23's variants (docs/MATH.md §A23) through lab.lm: the bigated kind and the ReLU² FFN.
test('SiLU·SiLU and the ReLU² FFN in Node equal lm-job bit for bit', async () => {
  await sameAsNative('silu-silu,swiglu');
  await sameAsNative('ffn-relu2,swiglu');
});
