// Figure-sized models: training throughput and the forward pass of one figure frame.
//
// Training: each paper-A model of the figures (2 → 16 → 1 MLP, symmetric, gated and bilinear
// = gated with the identity; ReLU; inputs (x, y, 1)) learns the circle task on 500 training
// points with Adam (lr 0.01), full batch and minibatches of 32, cross-entropy on the logit.
// GateLab runs through its JS API, lab.createTrainer(...).step(100) with evalEvery 100 (how
// the race figure drives it: one coarse call per chunk, curves recorded each chunk). TF.js
// runs the same model written the natural way — tf.variable weights (initialised to
// GateLab's initial weights), tf.train.adam, optimizer.minimize(() => loss), minibatches by
// tf.gather of a shuffled index — one minimize per step, no evaluation (which flatters it).
// GateLab and TF.js-wasm are timed with their batches interleaved (same load on both); the
// cpu backend on its own afterwards (TF.js has one active backend at a time).
//
// Frame: a figure redraw evaluates four models (mlp, symmetric, gated, bilinear; hidden 16)
// over a 128×128 input grid: layer.forward(x, 16384) for each, results copied out to JS. The
// TF.js-wasm row runs the same four models (tf.tidy, dataSync) for comparison.
import { timeCalls, timeInterleaved } from './timing.mjs';

export const MODELS = [
  { name: 'mlp', kind: 'mlp', activation: 'relu' },
  { name: 'symmetric', kind: 'symmetric', activation: 'relu' },
  { name: 'gated', kind: 'gated', activation: 'relu' },
  { name: 'bilinear', kind: 'gated', activation: 'identity' },
];
const HIDDEN = 16;
const LEARNING_RATE = 0.01;
const STEPS_PER_CALL = 100;
// A trainer is replaced by a fresh one (same seed) after this many steps, the race figure's
// longest run. Left alone for ~150k batch-32 steps, a unit of the bilinear layer collapses
// towards 0 and its weights and intermediates pass through subnormal floats, which x86 cores
// process ~100× slower: the benchmark would time that collapse rather than training.
// (TF.js, ~1.5k steps/s, never gets near the cap within a measurement.)
export const MAX_STEPS_PER_TRAINER = 20000;

function trainerOptions(model, batchSize, evalEvery, { points }) {
  return { data: { task: 'circle', count: 2 * points, trainFraction: 0.5, noise: 0.1, seed: 3 },
    kind: model.kind, activation: model.activation, hidden: HIDDEN, rank: 1, seed: 5,
    loss: 'cross_entropy', optimizer: 'adam', learningRate: LEARNING_RATE, batchSize, evalEvery };
}

/** (n·2 points) → n·3 features (x, y, 1), the trainer's bias feature. */
function features(xy) {
  const n = xy.length / 2;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[3 * i] = xy[2 * i];
    out[3 * i + 1] = xy[2 * i + 1];
    out[3 * i + 2] = 1;
  }
  return out;
}

/** GateLab's rows [hidden][dIn] → TF.js's natural [dIn][hidden] layout. */
function transposed(w, hidden, dIn) {
  const out = new Float32Array(w.length);
  for (let j = 0; j < hidden; j++) for (let i = 0; i < dIn; i++) out[i * hidden + j] = w[j * dIn + i];
  return out;
}

/** f(x) of a model as TF.js ops on weights { Q, K, V } ([3,16], [3,16], [16,1]). */
export function tfModel(tf, model, w) {
  const act = model.activation === 'identity' ? (z) => z : (z) => tf.relu(z);
  switch (model.kind) {
    case 'mlp': return (x) => tf.matMul(act(tf.matMul(x, w.K)), w.V);
    case 'symmetric': return (x) => tf.matMul(act(tf.mul(tf.matMul(x, w.Q), tf.matMul(x, w.K))), w.V);
    default: return (x) => tf.matMul(tf.mul(act(tf.matMul(x, w.Q)), tf.matMul(x, w.K)), w.V);
  }
}

function tfWeights(tf, model, weights, make) {
  const w = { K: make(tf.tensor2d(transposed(Float32Array.from(weights.K), HIDDEN, 3), [3, HIDDEN])),
    V: make(tf.tensor2d(Float32Array.from(weights.V), [HIDDEN, 1])) };
  if (model.kind !== 'mlp') w.Q = make(tf.tensor2d(transposed(Float32Array.from(weights.Q), HIDDEN, 3), [3, HIDDEN]));
  return w;
}

/** A TF.js training loop on the trainer's own data and initial weights; returns step(). */
function tfTrainer(tf, model, data, weights, batchSize) {
  const n = data.yTrain.length;
  const X = tf.tensor2d(features(data.xTrain), [n, 3]);
  const T = tf.tensor2d(Float32Array.from(data.yTrain, (y) => (y + 1) / 2), [n, 1]);
  const w = tfWeights(tf, model, weights, (t) => {
    const v = tf.variable(t);
    t.dispose();
    return v;
  });
  const f = tfModel(tf, model, w);
  const optimizer = tf.train.adam(LEARNING_RATE, 0.9, 0.999, 1e-8);
  const order = new Int32Array(n).map((_, i) => i);
  let cursor = n;
  const full = batchSize <= 0 || batchSize >= n;
  return {
    step() {
      if (full) {
        optimizer.minimize(() => tf.losses.sigmoidCrossEntropy(T, f(X)));
        return;
      }
      if (cursor + batchSize > n) {
        tf.util.shuffle(order);
        cursor = 0;
      }
      const index = tf.tensor1d(order.subarray(cursor, cursor + batchSize), 'int32');
      cursor += batchSize;
      optimizer.minimize(() => tf.losses.sigmoidCrossEntropy(tf.gather(T, index), f(tf.gather(X, index))));
      index.dispose();
    },
    loss: () => tf.tidy(() => tf.losses.sigmoidCrossEntropy(T, f(X)).dataSync()[0]),
    dispose() {
      optimizer.dispose();
      tf.dispose([X, T, ...Object.values(w)]);
    },
  };
}

const batchLabel = (batch, points) => (batch ? `${points} pts, batch ${batch}` : `${points} pts, full batch`);

/**
 * Training rows: 'wasm' (GateLab), and for each TF.js backend in `tfBackends` its column.
 * Also returns a 'train_call' row: one trainer.step(1) with evaluation every step.
 */
export async function trainingRows({ lab, tf, tfBackends, quick, timing, log }) {
  const points = quick ? 50 : 500;
  const rows = [];
  for (const model of MODELS) {
    for (const batch of [0, 32]) {
      const shape = batchLabel(batch, points);
      const op = `train_${model.name}`;
      const options = trainerOptions(model, batch, STEPS_PER_CALL, { points });
      let trainer = lab.createTrainer(options);
      let stepsOnTrainer = 0;
      const data = trainer.data(), weights = trainer.weights();
      const loops = [];
      try {
        // GateLab and TF.js-wasm interleaved (same load on both); other backends on their own
        // (TF.js has one active backend at a time).
        let short = 0;
        const fns = { wasm: () => {
          if (stepsOnTrainer >= MAX_STEPS_PER_TRAINER) {
            trainer.dispose();
            trainer = lab.createTrainer(options);
            stepsOnTrainer = 0;
          }
          if (trainer.step(STEPS_PER_CALL).done !== STEPS_PER_CALL) short++;
          stepsOnTrainer += STEPS_PER_CALL;
        } };
        const perCall = { wasm: STEPS_PER_CALL };
        const first = tfBackends[0];
        if (first) {
          await tf.setBackend(first);
          const loop = tfTrainer(tf, model, data, weights, batch);
          loops.push({ backend: first, loop, before: loop.loss() });
          fns[`tfjs-${first}`] = () => loop.step();
          perCall[`tfjs-${first}`] = 1;
        }
        const times = await timeInterleaved(fns, timing);
        for (const backend of tfBackends.slice(1)) {
          await tf.setBackend(backend);
          const loop = tfTrainer(tf, model, data, weights, batch);
          loops.push({ backend, loop, before: loop.loss() });
          times[`tfjs-${backend}`] = await timeCalls(() => loop.step(), timing);
          perCall[`tfjs-${backend}`] = 1;
        }
        if (short) log(`warning: GateLab ${op} ${shape}: training stopped early (divergence)`);
        for (const { backend, loop, before } of loops) {
          await tf.setBackend(backend);
          const after = loop.loss();
          if (!(after < before)) {
            log(`warning: tfjs-${backend} ${op} ${shape}: loss did not fall (${before} → ${after})`);
          }
        }
        for (const [column, t] of Object.entries(times)) {
          const value = (1000 * perCall[column]) / t.median;
          rows.push({ column, bench: 'train', op, shape, unit: 'steps/s', value,
            best: (1000 * perCall[column]) / t.best });
        }
        const rates = Object.entries(times).map(([c, t]) => `${c} ${((1000 * perCall[c]) / t.median).toFixed(0)}`);
        log(`  ${op} ${shape}: ${rates.join(', ')} steps/s`);
      } finally {
        trainer.dispose();
        for (const { backend, loop } of loops) {
          await tf.setBackend(backend);
          loop.dispose();
        }
      }
    }
  }
  // Latency of one coarse call as a figure that steps once per animation frame makes it:
  // step(1) with the curves evaluated on both splits (1000 points) every step, record copied out.
  const trainer = lab.createTrainer(trainerOptions(MODELS[2], 0, 1, { points }));
  try {
    const t = await timeCalls(() => trainer.step(1), timing);
    rows.push({ column: 'wasm', bench: 'train', op: 'train_call gated step(1)+eval', shape: batchLabel(0, points),
      unit: 'ms', value: t.median, best: t.best });
  } finally {
    trainer.dispose();
  }
  return rows;
}

/** The 128×128 grid of a figure frame as rows (x, y, 1) on [−1.5, 1.5]². */
export function gridInputs(side) {
  const x = new Float32Array(side * side * 3);
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) {
      const r = 3 * (i * side + j);
      x[r] = -1.5 + (3 * j) / (side - 1);
      x[r + 1] = 1.5 - (3 * i) / (side - 1);
      x[r + 2] = 1;
    }
  }
  return x;
}

/** Frame rows: GateLab ('wasm') and, per TF.js backend given, the same four forwards. */
export async function frameRows({ lab, tf, tfBackends, quick, timing, log }) {
  const side = quick ? 16 : 128;
  const rowsIn = side * side;
  const x = gridInputs(side);
  const shape = `4 models, ${side}x${side} grid`;
  const rows = [];
  const layers = MODELS.map((model, i) => lab.createLayer({ kind: model.kind, activation: model.activation, dIn: 3,
    hidden: HIDDEN, dOut: 1, rank: 1, seed: 11 + i }));
  try {
    const gatelabFrame = () => {
      for (const layer of layers) layer.forward(x, rowsIn);
    };
    const fns = { wasm: gatelabFrame };
    let dispose = () => {};
    const backend = tfBackends[0];
    if (backend) {
      await tf.setBackend(backend);
      const X = tf.tensor2d(x, [rowsIn, 3]);
      const weights = layers.map((layer, i) => {
        const p = layer.getParams();
        return tfWeights(tf, MODELS[i], { Q: p.Q, K: p.K, V: p.V }, (v) => v);
      });
      dispose = () => tf.dispose([X, ...weights.flatMap((w) => Object.values(w))]);
      const models = MODELS.map((model, i) => tfModel(tf, model, weights[i]));
      // Same outputs as GateLab's (a sanity check of the TF.js transcription).
      const mine = layers[2].forward(x, rowsIn);
      const theirs = tf.tidy(() => models[2](X).dataSync());
      for (let r = 0; r < rowsIn; r += 97) {
        if (!(Math.abs(mine[r] - theirs[r]) <= 1e-4 * (1 + Math.abs(mine[r])))) {
          dispose();
          throw new Error(`TF.js gated output ${theirs[r]} differs from GateLab's ${mine[r]} at row ${r}`);
        }
      }
      fns[`tfjs-${backend}`] = () => tf.tidy(() => {
        for (const f of models) f(X).dataSync();
      });
    }
    try {
      const times = await timeInterleaved(fns, timing);
      for (const [column, t] of Object.entries(times)) {
        rows.push({ column, bench: 'frame', op: 'frame_forward', shape, unit: 'ms', value: t.median, best: t.best });
      }
      log(`  frame_forward: ${Object.entries(times).map(([c, t]) => `${c} ${t.median.toFixed(3)}`).join(', ')} ms`);
    } finally {
      dispose();
    }
  } finally {
    for (const layer of layers) layer.dispose();
  }
  return rows;
}
