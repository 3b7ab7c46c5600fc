// The language-model rows: one training step (batch windows × context characters, forward +
// backward + AdamW with global-norm clipping) of the tiny character transformer, GateLab's
// lab.lm session (session.train(1) per call) against the same model in TF.js with the wasm
// backend (bench/suite/lm-tf.mjs), timed with their batches interleaved. Two sizes: the row of
// the benchmark (d = 64, 2 blocks, 4 heads, context 64, batch 16, SwiGLU m = 128) and the
// <gatelab-lm> figure's (d = 32, context 32, batch 8, m = 64). Before timing, the TF.js model
// starts from GateLab's initial weights and must give GateLab's validation loss on the same
// windows (the two are one model), and both must have the same parameter count.
import { checkpointParameters, parameterCount, tfLm } from './lm-tf.mjs';
import { timeInterleaved } from './timing.mjs';

export const LM_SIZES = [
  { name: 'row', d: 64, layers: 2, heads: 4, context: 64, batch: 16, hidden: 128 },
  { name: 'figure', d: 32, layers: 2, heads: 4, context: 32, batch: 8, hidden: 64 },
];
export const QUICK_LM_SIZES = [{ name: 'row', d: 16, layers: 2, heads: 2, context: 8, batch: 2, hidden: 16 }];
const TRAINING = { learningRate: 4e-3, warmup: 50, weightDecay: 0.1, clipNorm: 1 };
const CHECK_WINDOWS = 8;

/** The shape column of an LM row (bench_lm.cpp spells it the same way). */
export const lmShape = (s, parameters) =>
  `d${s.d} L${s.layers} h${s.heads} C${s.context} B${s.batch} m${s.hidden}, ${parameters} params`;

/** The text's bytes as symbol ids of GateLab's vocabulary (the distinct bytes, ascending). */
function symbolIds(text) {
  const bytes = new TextEncoder().encode(text);
  const seen = new Uint8Array(256);
  for (const b of bytes) seen[b] = 1;
  const index = new Int32Array(256).fill(-1);
  let vocabulary = 0;
  for (let b = 0; b < 256; b++) if (seen[b]) index[b] = vocabulary++;
  return { ids: Int32Array.from(bytes, (b) => index[b]), vocabulary };
}

/** The window starts of GateLab's evaluate(split, limit) (train/char_corpus.cpp). */
function evaluationStarts(size, context, limit) {
  const windows = Math.floor((size - 1) / context), used = Math.min(limit, windows);
  return Array.from({ length: used }, (_, i) => Math.floor((i * windows) / used) * context);
}

const timingFor = (quick) => (quick ? { warmupMs: 5, batchMs: 2, repeats: 3, maxMs: 300 }
  : { warmupMs: 2000, batchMs: 250, repeats: 15, maxMs: 8000 });

/**
 * Rows 'lm_train_step' (steps/s) for GateLab ('wasm') and, with tf, TF.js-wasm ('tfjs-wasm').
 * @param {{ lab: object, tf?: object, text: string, quick: boolean, log: (s: string) => void }} env
 *   tf with its wasm backend registered; text: the corpus (data/lm/sotu-1790-1880.txt).
 */
export async function lmRows({ lab, tf, text, quick, log }) {
  if (typeof text !== 'string' || !text.length) throw new Error('no corpus text for the LM rows');
  const corpus = lab.lm.createCorpus(text);
  const { ids, vocabulary } = symbolIds(text);
  const sizes = corpus.sizes;
  const trainIds = ids.subarray(0, sizes.train), validationIds = ids.subarray(sizes.train + sizes.dev);
  if (tf) await tf.setBackend('wasm');
  const rows = [];
  try {
    for (const size of quick ? QUICK_LM_SIZES : LM_SIZES) {
      const shape = { ...size, vocabulary };
      const session = lab.lm.createSession({ corpus, d: size.d, layers: size.layers, heads: size.heads,
        context: size.context, batch: size.batch, mlp: { kind: 'gated', activation: 'silu', hidden: size.hidden },
        ...TRAINING, seed: 1 });
      let model = null;
      try {
        const count = session.parameterCount;
        if (count !== parameterCount(shape)) {
          throw new Error(`GateLab has ${count} parameters, the layout ${parameterCount(shape)}`);
        }
        const fns = { wasm: () => session.train(1) };
        if (tf) {
          model = tfLm(tf, shape,
            { ...TRAINING, initial: checkpointParameters(session.checkpoint(), count), train: trainIds });
          if (model.parameterCount !== count) {
            throw new Error(`TF.js has ${model.parameterCount} parameters, GateLab ${count}`);
          }
          // One model: the same validation loss from the same weights on the same windows.
          const starts = evaluationStarts(validationIds.length, size.context, CHECK_WINDOWS);
          const ours = session.evaluate('validation', CHECK_WINDOWS), theirs = model.loss(validationIds, starts);
          if (!(Math.abs(ours - theirs) <= 1e-4 * Math.max(1, ours))) {
            throw new Error(`TF.js validation loss ${theirs} differs from GateLab's ${ours} (${size.name} size)`);
          }
          fns['tfjs-wasm'] = () => model.step();
        }
        const times = await timeInterleaved(fns, timingFor(quick));
        const label = lmShape(size, count);
        for (const [column, t] of Object.entries(times)) {
          rows.push({ column, bench: 'lm', op: 'lm_train_step', shape: label, unit: 'steps/s', value: 1000 / t.median,
            best: 1000 / t.best, size: size.name });
        }
        const rates = Object.entries(times).map(([c, t]) => `${c} ${(1000 / t.median).toFixed(1)}`).join(', ');
        log(`  lm ${label}: ${rates} steps/s`);
        if (model) {
          const before = model.loss(validationIds, evaluationStarts(validationIds.length, size.context, CHECK_WINDOWS));
          if (!quick && !(before < Math.log(vocabulary))) {
            log(`warning: TF.js LM (${size.name}): the loss did not fall`);
          }
        }
      } finally {
        model?.dispose();
        session.dispose();
      }
    }
  } finally {
    corpus.dispose();
  }
  return rows;
}

/** The closing line of `--only lm`: the benchmark row's GateLab and TF.js-wasm rates. */
export function lmLine(rows) {
  const shape = rows.find((r) => r.op === 'lm_train_step' && r.size === 'row')?.shape
    ?? rows.find((r) => r.op === 'lm_train_step')?.shape;
  const value = (column) => rows.find((r) => r.op === 'lm_train_step' && r.shape === shape && r.column === column)
    ?.value;
  const ours = value('wasm'), theirs = value('tfjs-wasm');
  if (!(ours > 0)) return null;
  const f = (v) => (v > 0 ? v.toFixed(v >= 100 ? 0 : 1) : '—');
  const line = `lm: GateLab ${f(ours)} steps/s, TF.js-wasm ${f(theirs)} steps/s, `
    + `ratio ${theirs > 0 ? (ours / theirs).toFixed(2) : '—'}`;
  // The C++ core's own step (bench_lm) natively and in wasm at the row size, when measured.
  const core = rows.filter((r) => r.op === 'lm_train_step core');
  const coreShape = core.find((r) => r.column === 'native')?.shape;
  const coreValue = (column) => core.find((r) => r.shape === coreShape && r.column === column)?.value;
  const native = coreValue('native'), wasm = coreValue('wasm');
  if (!(native > 0 && wasm > 0)) return line;
  // The run's last line stays the lm line (tests and scripts read it there).
  return `lm core step (${coreShape}): native ${f(native)} steps/s, wasm ${f(wasm)} steps/s, ` +
    `native ${(native / wasm).toFixed(2)}× wasm\n${line}`;
}
