// Long computations a figure can hand to the worker runner. Each task is a generator
// (lab, args) that makes one coarse library call per step, yields its progress (0..1) and
// returns a structured-cloneable result. The same code runs inside the worker and, as the
// fallback, on the main thread in slices, so both paths give the same numbers.
import { queryKindNames } from '../base/labels.js';
import { normalArray } from '../base/seeded-random.js';
import { paperATasks } from './paper-a-tasks.js';
import { gpTasks } from './gp-tasks.js';
import { lmTasks } from './lm-tasks.js';
import { symmetryTasks } from './symmetry-tasks.js';
import { conditioningTasks } from './conditioning-tasks.js';

/** Seeds for trial t of a figure seed: one for the layer, one for its probe inputs. */
function trialSeeds(seed, trial) {
  const layerSeed = (seed + Math.imul(trial, 0x9e3779b1)) >>> 0;
  return { layerSeed, inputSeed: (layerSeed ^ 0x5bd1e995) >>> 0 };
}

function activationOptions(activation, beta) {
  return activation === 'swish' && beta !== undefined ? { activation, beta } : { activation };
}

export const tasks = {
  /**
   * The exchange gap (docs/MATH.md §A7) of random layers of each kind, averaged over `trials` layers,
   * each on `rows` standard-normal inputs. 'mlp' has no Q <-> K exchange: its gap is null. `symmetrize`
   * (λ, docs/MATH.md §A11) applies to the gated layers only.
   * @returns {{ gated: number, symmetric: number, mlp: null, rows: number, trials: number }}
   */
  *exchangeGaps(lab,
    { activation, beta, seed = 1, dIn = 4, hidden = 8, dOut = 3, rows = 64, trials = 1, symmetrize = 0 }) {
    const result = { rows, trials };
    const kinds = queryKindNames();
    let done = 0;
    for (const kind of kinds) {
      let sum = 0;
      for (let t = 0; t < trials; t++) {
        const { layerSeed, inputSeed } = trialSeeds(seed, t);
        const x = normalArray(rows * dIn, inputSeed);
        const layer = lab.createLayer({ kind, ...activationOptions(activation, beta), dIn, hidden, dOut, rank: 1,
          seed: layerSeed, ...(kind === 'gated' && symmetrize ? { symmetrize } : {}) });
        try {
          sum += lab.symmetry.exchangeGap(layer, x, rows);
        } finally {
          layer.dispose();
        }
        yield ++done / (kinds.length * trials);
      }
      result[kind] = sum / trials;
    }
    result.mlp = null;
    return result;
  },

  /** The module's wasm memory and live handles: where the work runs, what it holds. */
  *labMemory(lab) {
    yield 1;
    return { heapBytes: lab.heapBytes(), liveObjects: lab.liveObjects() };
  },

  /** lab.symmetry.exchangePlane as a task, for resolutions worth moving off the main thread. */
  *exchangePlane(lab, { activation, beta, min = -3, max = 3, n = 64, symmetrize = 0 }) {
    yield 0;
    return lab.symmetry.exchangePlane(activation,
      { min, max, n, symmetrize, ...(activation === 'swish' ? { beta } : {}) });
  },
};

// Paper A's figures: scaling curves, rank-r approximation, census, training and the
// race sessions; see paper-a-tasks.js.
Object.assign(tasks, paperATasks);
// <gatelab-gp>: live GP regression sessions; see gp-tasks.js.
Object.assign(tasks, gpTasks);
// <gatelab-lm>: live character language-model sessions; see lm-tasks.js.
Object.assign(tasks, lmTasks);
// <gatelab-teleport> and <gatelab-conservation>: the orbit, teleports and the balance; see symmetry-tasks.js.
Object.assign(tasks, symmetryTasks);
// <gatelab-conditioning>: NTK condition numbers over training; see conditioning-tasks.js.
Object.assign(tasks, conditioningTasks);
