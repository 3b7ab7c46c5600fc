// A trainer handle (lab.createTrainer): one paper-A layer learning a 2-D task, stepped in
// coarse calls. Curves, grids, data and weights are copied out of wasm memory; a divergence
// is reported as an object with the core's explanation, never thrown (it is a result of
// training, not bad input).
import { throwCoreError } from '../core/errors.js';
import { handleOf, Owned } from '../core/handles.js';
import { defaultOf, fail, finiteNumber, floatArray, integer, oneOf, optionsOf, rangeOf } from '../core/validate.js';
import { NAMES } from '../catalogue.js';
import { Layer } from '../paper-a/layer.js';

const FIELDS = ['step', 'trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy', 'gradNorm'];

/** Rows of 6 floats → { step, trainLoss, … } of Float32Arrays. */
function columns(flat, count) {
  const out = {};
  FIELDS.forEach((name, f) => {
    out[name] = Float32Array.from({ length: count }, (_, i) => flat[i * FIELDS.length + f]);
  });
  return out;
}

export class Trainer extends Owned {
  #core;
  #divergence = null;

  constructor(core, handle, options) {
    super(core.tracker, handle, 'trainer');
    this.#core = core;
    /** The options the trainer was created with, defaults filled in. */
    this.options = Object.freeze(options);
  }

  /** Steps completed (after a divergence: the step the parameters were rolled back to). */
  get stepsDone() {
    return handleOf(this).stepsDone();
  }

  get parameterCount() {
    return handleOf(this).parameterCount();
  }

  /** null, or { step, rolledBackTo, cause: 'gradient' | 'overflow', message } after a divergence. */
  get divergence() {
    handleOf(this);  // throws when disposed
    return this.#divergence;
  }

  /**
   * Runs n minibatch steps (fewer if training diverges) and returns the records they added:
   * { done, records: { step, trainLoss, testLoss, trainAccuracy, testAccuracy, gradNorm }, divergence }.
   */
  step(n = 1) {
    const handle = handleOf(this);
    integer('n', n, { max: this.#core.module._maxStepsPerCall });
    const before = handle.historySize();
    const r = handle.step(n);
    throwCoreError(r.error, { argument: 'n', fields: [] });
    this.#divergence = r.diverged
      ? Object.freeze({ step: r.step, rolledBackTo: r.rolledBackTo, cause: r.cause, message: r.message })
      : null;
    // A rollback can drop records; report what was added since `before`, if anything.
    const after = handle.historySize();
    const from = Math.min(before, after);
    return { done: r.done, records: this.#records(from, after - from), divergence: this.#divergence };
  }

  /** Every record so far, in the same column form as step(). */
  history() {
    return this.#records(0, handleOf(this).historySize());
  }

  /** The raw output on a size × size grid of [−extent, extent]², row 0 at y = +extent. */
  grid(size = 64, extent = 1.5) {
    const handle = handleOf(this);
    integer('size', size, { min: 2, max: this.#core.module._maxGridSide });
    finiteNumber('extent', extent, { nonZero: true });
    if (extent < 0) fail('extent', 'positive', extent, 'out-of-range');
    const [error, out] = this.#core.heap.call([], [size * size], (p) => handle.grid(size, extent, p));
    throwCoreError(error, { argument: 'extent', fields: ['size', 'extent'] });
    return out;
  }

  /** A new learning rate; it also lifts a divergence stop, resuming from the rolled-back state. */
  setLearningRate(learningRate) {
    const handle = handleOf(this);
    finiteNumber('learningRate', learningRate);
    throwCoreError(handle.setLearningRate(learningRate), { argument: 'learningRate', fields: [] });
    this.#divergence = null;
  }

  /** ‖∇_θ L‖ of the training loss over the whole training split, now (docs/MATH.md §A21). */
  gradientNorm() {
    return handleOf(this).gradientNorm();
  }

  /**
   * Moves hidden unit j along its inverse-scaling orbit by factors[j] (a number: the same for every unit):
   * (q_j, k_j) → (c q_j, k_j / c), for 'mlp' input weights · c and output weights / c (docs/MATH.md §A21).
   * Returns { lossBefore, lossAfter, gradNormBefore, gradNormAfter } on the training split.
   */
  teleport(factors) {
    const handle = handleOf(this);
    const [r] = this.#core.heap.call([this.#factors(factors)], [], (p) => handle.teleport(p));
    throwCoreError(r.error, { argument: 'this', fields: ['factors'] });
    const { lossBefore, lossAfter, gradNormBefore, gradNormAfter } = r;
    return { lossBefore, lossAfter, gradNormBefore, gradNormAfter };
  }

  /** Per hidden unit ‖q_j‖² − ‖k_j‖² ('mlp': ‖w_in,j‖² − ‖w_out,j‖²) of the current weights (docs/MATH.md §A14). */
  balance() {
    const handle = handleOf(this);
    return this.#core.heap.call([], [this.options.hidden], (p) => handle.balance(p))[1];
  }

  /** RMS over units of balance() now minus balance() when the trainer was made (docs/MATH.md §A14). */
  balanceDrift() {
    return handleOf(this).balanceDrift();
  }

  /**
   * The layer moved by factors (as teleport takes them) but not kept: { loss, gradNorm, nextLoss }, nextLoss
   * the training loss after one plain gradient step of the trainer's learning rate (docs/MATH.md §A21).
   */
  probeOrbit(factors) {
    const handle = handleOf(this);
    const [r] = this.#core.heap.call([this.#factors(factors)], [], (p) => handle.probeOrbit(p));
    throwCoreError(r.error, { argument: 'this', fields: ['factors'] });
    return { loss: r.loss, gradNorm: r.gradNorm, nextLoss: r.nextLoss };
  }

  /**
   * One factor per unit from the grid c = reach^(2i/(points − 1) − 1): the smallest ‖∇L‖ (goal 'gradient')
   * or the lowest loss after the next plain gradient step (goal 'step'); 1 where nothing on the grid is better.
   */
  bestFactors(options = {}) {
    // Defaults are the core's TeleportSearch (web/lib/catalogue.js).
    const given = (name) => defaultOf('trainer.bestFactors', name);
    const { goal = given('goal'), points = given('points'), reach = given('reach') } = optionsOf('options', options,
      'trainer.bestFactors');
    const handle = handleOf(this);
    oneOf('options.goal', goal, NAMES.teleportGoals);
    integer('options.points', points, rangeOf('trainer.bestFactors', 'points'));
    finiteNumber('options.reach', reach);
    const [error, out] = this.#core.heap.call([], [this.options.hidden],
      (p) => handle.bestFactors(goal, points, reach, p));
    throwCoreError(error, { argument: 'this', prefix: 'options', fields: ['goal', 'points', 'reach'] });
    return out;
  }

  /** The data the trainer learns: { xTrain (n·2), yTrain (n, ±1), xTest, yTest }. */
  data() {
    const handle = handleOf(this);
    const train = handle.count(0), test = handle.count(1);
    const [, xTrain, yTrain, xTest, yTest] = this.#core.heap.call([], [2 * train, train, 2 * test, test],
      (a, b, c, d) => handle.getData(a, b, c, d));
    return { xTrain, yTrain, xTest, yTest };
  }

  /** A JSON-able snapshot: { options, stepsDone, Q, K, V } with plain number arrays (mlp: no Q). */
  weights() {
    const handle = handleOf(this);
    // The trainer's layer as a Layer (a copy in wasm memory), read by the one module face and freed.
    const layer = new Layer(this.#core, handle.layer());
    try {
      const { Q, K, V } = layer.getParams();
      const { kind, activation, beta, hidden, rank, symmetrize } = this.options;
      const shape = { kind, activation, beta, dIn: layer.dIn, hidden, dOut: 1, rank: kind === 'mlp' ? 1 : rank,
        symmetrize };
      const out = { options: this.options, layer: shape, stepsDone: handle.stepsDone(), K: Array.from(K),
        V: Array.from(V) };
      if (kind !== 'mlp') out.Q = Array.from(Q);
      return out;
    } finally {
      layer.dispose();
    }
  }

  /** factors as teleport takes them: a number for every unit, or one per unit. */
  #factors(factors) {
    const { hidden } = this.options;
    return typeof factors === 'number' ? new Float32Array(hidden).fill(finiteNumber('factors', factors))
      : floatArray('factors', factors, hidden, `hidden = ${hidden}`);
  }

  #records(from, count) {
    const handle = handleOf(this);
    const [error, flat] = this.#core.heap.call([], [count * FIELDS.length], (p) => handle.copyHistory(from, count, p));
    throwCoreError(error, { fields: [] });
    return columns(flat, count);
  }
}
