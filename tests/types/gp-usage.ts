// Compiled with tsc --noEmit (tests/js/gp/types.test.mjs): lab.gp as a user writes it.
import { loadGateLab, GateLabError, type Gp, type GpModelOptions, type GpPosterior, type GpSequence,
  type GpSession } from '../../web/lib/gatelab.js';

async function main(): Promise<void> {
  const lab = await loadGateLab();
  const gp: Gp = lab.gp;
  const lengthScale: number = gp.defaults.lengthScale;
  const family: 'cem' | 'standard' = gp.defaults.family;
  const seqs: GpSequence[] = gp.sample(
    { dx: 2, length: 8, lengthScale: 0.3, signalVar: 1, noiseStd: 0.1, inputs: 'normal' }, 5, 3);
  const one: GpSequence[] = gp.sample();
  const seq = seqs[0];
  const x: Float32Array = seq.x;
  const p = gp.posterior({ dx: 2, length: 8 }, seq);
  const mean: Float32Array = p.mean;
  const variance: Float32Array = p.variance;
  const contextMean: Float32Array = p.contextMean;
  const q: GpPosterior = gp.posteriorAt({ dx: 2, length: 8 }, seq, 4, new Float32Array(6));
  // The older spelling 'per_head' still compiles (and runs), so no caller breaks.
  const options: GpModelOptions = { dx: 2, length: 8, family: 'cem', steps: 2, diagonal: 'per_head', precond: 'psd',
    precondRank: 2, d: 16, layers: 2, heads: 2, hidden: 32, eta: 0.25, batch: 8, lr: 0.003, warmup: 20, clipNorm: 1,
    seed: 3 };
  const session: GpSession = gp.createSession(options);
  const standard: GpSession = gp.createSession({ family: 'standard' });
  const perHead: GpSession = gp.createSession({ diagonal: 'per-head' });
  const diagonal: 'none' | 'per-head' | 'shared' = perHead.options.diagonal;
  const defaults: GpSession = gp.createSession();
  const losses: Float32Array = session.train(10);
  session.train();
  const all: Float32Array = session.losses();
  const prediction: Float32Array = session.predict(seq);
  const at: Float32Array = session.predictAt(seq, 3, new Float32Array(4));
  const steps: number = session.stepsDone;
  const count: number = session.parameterCount;
  const diverged: boolean = session.diverged;
  const filled: number = session.options.eta;
  const learned: GpSession = gp.createSession({ steps: 1, eta: 0.125, learnEta: true });
  learned.setEvalSteps(4);
  const evalSteps: number = learned.evalSteps;
  const etas: Float32Array = learned.stepSizes();
  const learnEta: boolean = learned.options.learnEta;
  try {
    gp.createSession({ lengthScale: -1 });
  } catch (error) {
    if (error instanceof GateLabError && error.code === 'out-of-range') console.log(error.argument);
  }
  for (const s of [session, standard, defaults, perHead, learned]) s.dispose();
  const gone: boolean = session.disposed;
  console.log(lengthScale, family, one, x, mean, variance, contextMean, q, losses, all, prediction, at, steps, count,
    diverged, filled, gone, diagonal, evalSteps, etas, learnEta);
}
void main();
