// <gatelab-conditioning>'s computation as a runner task (lab-tasks.js merges it in): one model of the
// comparison at a time, so the figure can draw each model as it arrives. The model gets its width
// for the parameter budget from the library's own race rule (docs/MATH.md §T6), trains with
// lab.createTrainer, and at every checkpoint its current weights go into a layer whose empirical NTK
// on the first `rows` training inputs the library computes (lab.symmetry.ntk, §A22). Nothing here
// is a formula: the task only moves the library's numbers.

// Points per task, half of them for training (the trainer's default split).
const DATA_COUNT = 200;

/**
 * The models the figure compares (issue "Symmetry you can touch"): the FFN, the gated family (Bilinear,
 * ReGLU, SwiGLU), the symmetrised SwiGLU (symgated, §A11) and the symmetric form σ(ab) (§A4) with the
 * same σ. The labels are the library's (lab.layerLabel).
 */
export const CONDITIONING_MODELS = Object.freeze([
  { kind: 'mlp', activation: 'relu' },
  { kind: 'gated', activation: 'identity' },
  { kind: 'gated', activation: 'relu' },
  { kind: 'gated', activation: 'silu' },
  { kind: 'gated', activation: 'silu', symmetrize: 1 },
  { kind: 'symmetric', activation: 'silu' },
]);

/**
 * The NTK's inputs: the first `rows` training points as the trainer feeds them, (x, y) and, when the
 * layer has dIn = 3, the constant bias feature 1 (§T5). Exported so a test builds the same batch.
 * @returns {{ x: Float32Array, rows: number }}
 */
export function conditioningInputs(data, dIn, rows) {
  const n = Math.min(rows, data.yTrain.length);
  const x = new Float32Array(n * dIn);
  for (let i = 0; i < n; i++) {
    x[i * dIn] = data.xTrain[2 * i];
    x[i * dIn + 1] = data.xTrain[2 * i + 1];
    if (dIn === 3) x[i * dIn + 2] = 1;
  }
  return { x, rows: n };
}

/** The trainer options of one model of the comparison (also what a test needs to reproduce it). */
export function conditioningTrainOptions(model, hidden, { task, seed, optimizer, learningRate, batchSize, evalEvery }) {
  return { ...model, hidden, rank: 1, seed, optimizer, learningRate, batchSize, evalEvery,
    data: { task, seed, count: DATA_COUNT } };
}

export const conditioningTasks = {
  /**
   * Trains `model` at the width the race gives it for `budget` parameters, and records the NTK's
   * condition number at step 0 and every `every` steps, with the train loss of every eval.
   * @returns {{ label, hidden, parameters, options, ntkRows, kappa: { step, value, largest },
   *   loss: { step, trainLoss }, divergence }}
   */
  *conditioningModel(lab, { model, budget, task, seed, steps, every, rows, optimizer, learningRate, batchSize }) {
    const evalEvery = Math.max(1, Math.round(every / 4));
    const settings = { task, seed, optimizer, learningRate, batchSize, evalEvery };
    // The width for the budget, by the library's race rule (one step of a one-model race).
    const probe = lab.race({ models: [model], widthRule: 'budget', budget, steps: 1, seeds: 1, evalEvery: 1,
      seed, optimizer, learningRate, batchSize, data: { task, seed, count: DATA_COUNT } });
    const { hidden, parameters } = probe.models[0];
    const label = lab.layerLabel(model);
    yield 0;
    const options = conditioningTrainOptions(model, hidden, settings);
    const trainer = lab.createTrainer(options);
    let layer = null;
    try {
      const weights = trainer.weights();
      layer = lab.createLayer({ ...weights.layer, seed: 0 });
      const { x, rows: n } = conditioningInputs(trainer.data(), weights.layer.dIn, rows);
      const kappa = { step: [], value: [], largest: [] };
      const record = () => {
        const w = trainer.weights();
        const K = Float32Array.from(w.K), V = Float32Array.from(w.V);
        layer.setParams(w.Q ? { Q: Float32Array.from(w.Q), K, V } : { K, V });
        const k = lab.symmetry.ntk(layer, x, n);
        kappa.step.push(trainer.stepsDone);
        kappa.value.push(k.conditionNumber);
        kappa.largest.push(k.eigenvalues[0]);
      };
      record();
      while (trainer.stepsDone < steps && !trainer.divergence) {
        trainer.step(Math.min(every, steps - trainer.stepsDone));
        record();
        yield trainer.stepsDone / steps;
      }
      const h = trainer.history();
      return { label, hidden, parameters, options, ntkRows: n, kappa,
        loss: { step: h.step, trainLoss: h.trainLoss }, divergence: trainer.divergence };
    } finally {
      trainer.dispose();
      layer?.dispose();
    }
  },
};
