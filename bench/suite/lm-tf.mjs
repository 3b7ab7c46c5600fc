// The benchmark's language model written the natural way in TF.js (tfjs-core ops, gradients
// by tf.variableGrads, tf.train.adam): the same architecture as GateLab's lab.lm session
// (cpp/src/model/transformer.cpp; docs/MATH.md §B10) — characters one-hot through W_in, per
// block pre-norm RMSNorm → causal multi-head attention (β = 1/√d_h) → residual, RMSNorm →
// SwiGLU MLP (silu(x W_gate) ⊙ x W_up) W_down → residual, a final RMSNorm and the readout
// W_out, no biases; mean cross-entropy over every predicted character; AdamW (β = 0.9, 0.999,
// ε = 1e-8, decay applied decoupled as param ← param − lr·λ·param on the matrices, not on the
// norm gains) after clipping the gradient to global norm 1, with GateLab's warm-up schedule.
// One-hot rather than tf.gather for the input: the gather's gradient (UnsortedSegmentSum) has
// no kernel in TF.js's wasm backend; and cast from int32, since that backend's OneHot with
// dtype 'float32' writes the integer 1's bits (a subnormal 1.4e-45). Weights start from GateLab's
// own initial weights (read from a checkpoint), so the two can be checked against each other
// before timing.

/** GateLab's flat parameter vector, in its order: [name, rows, cols]. */
export function gatelabLayout({ d, layers, hidden, vocabulary }) {
  const out = [['w_in', d, vocabulary]];
  for (let l = 0; l < layers; l++) {
    out.push([`norm1.${l}`, 1, d], [`wq.${l}`, d, d], [`wk.${l}`, d, d], [`wv.${l}`, d, d], [`wo.${l}`, d, d],
      [`norm2.${l}`, 1, d], [`gate.${l}`, hidden, d], [`up.${l}`, hidden, d], [`down.${l}`, hidden, d]);
  }
  out.push(['norm_final', 1, d], ['w_out', vocabulary, d]);
  return out;
}

export const parameterCount = (shape) => gatelabLayout(shape).reduce((sum, [, r, c]) => sum + r * c, 0);

/** The parameters in a GateLab LM checkpoint (its first record: u32 magic, u64 count, floats). */
export function checkpointParameters(bytes, count) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(4, true));
  if (n !== count) throw new Error(`the checkpoint holds ${n} parameters, the TF.js model ${count}`);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(12 + 4 * i, true);
  return out;
}

function transposed(values, rows, cols) {
  const out = new Float32Array(values.length);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = values[i * cols + j];
  return out;
}

/** A deterministic uniform integer stream in [0, n) (an LCG; TF.js has no seeded integer draw). */
function integers(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}

/**
 * @param tf  TF.js with its backend set
 * @param shape { d, layers, heads, hidden, context, batch, vocabulary }
 * @param options { initial: Float32Array in GateLab's layout, train: Int32Array of symbol ids,
 *   learningRate, warmup, weightDecay, clipNorm, seed }
 * @returns {{ step(): number, loss(ids: Int32Array, windows: number): number, parameterCount: number, dispose() }}
 */
export function tfLm(tf, shape, { initial, train, learningRate, warmup, weightDecay, clipNorm, seed = 1 }) {
  const { d, layers, heads, context: T, batch, vocabulary: V } = shape;
  const dh = d / heads, eps = 1e-5;
  // GateLab stores y = x Wᵀ (W: out × in); TF.js's natural weight is in × out, so transpose.
  const w = {};
  let at = 0;
  for (const [name, rows, cols] of gatelabLayout(shape)) {
    const values = initial.slice(at, at + rows * cols);  // a copy: TF.js may read a view's whole buffer
    at += rows * cols;
    const natural = rows === 1 || name.startsWith('down') ? values : transposed(values, rows, cols);
    const dims = rows === 1 ? [cols] : name.startsWith('down') ? [rows, cols] : [cols, rows];
    w[name] = tf.variable(tf.tensor(natural, dims), true, `lm.${name}`);
  }
  const variables = Object.values(w);
  const decayed = Object.keys(w).filter((name) => !name.startsWith('norm')).map((name) => w[name]);
  const mask = tf.tidy(() => tf.mul(tf.sub(1, tf.linalg.bandPart(tf.ones([T, T]), -1, 0)), -1e9));
  const optimizer = tf.train.adam(learningRate, 0.9, 0.999, 1e-8);
  const draw = integers(seed);

  const rmsnorm = (x, g) => tf.mul(tf.mul(x, tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), eps))), g);
  const attention = (x, l, B) => {
    const split = (m) => tf.transpose(tf.reshape(tf.matMul(x, m), [B, T, heads, dh]), [0, 2, 1, 3]);
    const q = split(w[`wq.${l}`]), k = split(w[`wk.${l}`]), v = split(w[`wv.${l}`]);
    const scores = tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)), mask);
    const o = tf.transpose(tf.matMul(tf.softmax(scores), v), [0, 2, 1, 3]);
    return tf.matMul(tf.reshape(o, [B * T, d]), w[`wo.${l}`]);
  };
  const logits = (ids) => {
    const B = ids.shape[0] / T;
    let h = tf.matMul(tf.cast(tf.oneHot(ids, V), 'float32'), w.w_in);
    for (let l = 0; l < layers; l++) {
      h = tf.add(h, attention(rmsnorm(h, w[`norm1.${l}`]), l, B));
      const x = rmsnorm(h, w[`norm2.${l}`]);
      const z = tf.matMul(x, w[`gate.${l}`]);
      h = tf.add(h, tf.matMul(tf.mul(tf.mul(z, tf.sigmoid(z)), tf.matMul(x, w[`up.${l}`])), w[`down.${l}`]));
    }
    return tf.matMul(rmsnorm(h, w.norm_final), w.w_out);
  };
  const crossEntropy = (ids, targets) => tf.losses.softmaxCrossEntropy(tf.oneHot(targets, V), logits(ids));

  /** ids and next-character targets of windows starting at `starts` in `text`. */
  const windows = (text, starts) => {
    const ids = new Int32Array(starts.length * T), targets = new Int32Array(starts.length * T);
    starts.forEach((s, b) => {
      ids.set(text.subarray(s, s + T), b * T);
      targets.set(text.subarray(s + 1, s + T + 1), b * T);
    });
    return [ids, targets];
  };
  let steps = 0;
  return {
    parameterCount: variables.reduce((sum, v) => sum + v.size, 0),

    /** One training step on `batch` random windows of the train text; returns its loss. */
    step() {
      const starts = Array.from({ length: batch }, () => draw(train.length - T));
      const [ids, targets] = windows(train, starts);
      const lr = learningRate * Math.min(1, (steps + 1) / warmup);
      steps++;
      optimizer.learningRate = lr;
      return tf.tidy(() => {
        const idsT = tf.tensor1d(ids, 'int32'), targetsT = tf.tensor1d(targets, 'int32');
        const { value, grads } = tf.variableGrads(() => crossEntropy(idsT, targetsT), variables);
        const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
        const scale = tf.minimum(1, tf.div(clipNorm, norm));
        const clipped = Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, tf.mul(g, scale)]));
        for (const v of decayed) v.assign(tf.mul(v, 1 - lr * weightDecay));
        optimizer.applyGradients(clipped);
        return value.dataSync()[0];
      });
    },

    /** Mean cross-entropy on the windows of `text` starting at `starts` (no training). */
    loss(text, starts) {
      const [ids, targets] = windows(text, starts);
      return tf.tidy(() => crossEntropy(tf.tensor1d(ids, 'int32'), tf.tensor1d(targets, 'int32')).dataSync()[0]);
    },

    dispose() {
      optimizer.dispose();
      tf.dispose([...variables, mask]);
    },
  };
}
