// The paper-A figures' long computations, as runner tasks (see lab-tasks.js, which merges
// them in): each is a generator (lab, args) making coarse library calls, yielding progress and
// returning structured-cloneable results. The race keeps its trainers in the worker between
// calls (a session per figure), so live training costs one message per chunk of steps.
import { normalArray } from '../base/seeded-random.js';

/** Positions of the scaling figure's α axis: p ∈ ±[1, 201], log10|α| = (|p| − 101) / 50. */
export function alphaAt(position) {
  return Math.sign(position) * 10 ** ((Math.abs(position) - 101) / 50);
}
export function positionOf(alpha) {
  return Math.sign(alpha) * (101 + 50 * Math.log10(Math.abs(alpha)));
}

/** The layers of the scaling figure: the same seed gives the same layers in a worker and on the page. */
export const SCALING_SHAPE = { dIn: 4, hidden: 8, dOut: 3, rows: 64 };
export function scalingLayers(lab, activation, seed) {
  const { dIn, hidden, dOut } = SCALING_SHAPE;
  return ['gated', 'symmetric'].map((kind) => lab.createLayer({ kind, activation, dIn, hidden, dOut, rank: 1, seed }));
}
export function scalingInputs(seed) {
  return normalArray(SCALING_SHAPE.rows * SCALING_SHAPE.dIn, (seed ^ 0x5bd1e995) >>> 0);
}

// Live race sessions: id -> { trainers: Trainer[][] (model × seed), options }.
const sessions = new Map();

function sessionLost(id) {
  const error = new Error(`race session ${id} is gone (the worker restarted)`);
  error.name = 'SessionLost';
  return error;
}

/** Everything the figure draws of one trainer after a chunk. */
function trainerSnapshot(trainer, from, gridSize, extent) {
  const h = trainer.history();
  const slice = (a) => a.slice(from);
  return {
    records: { step: slice(h.step), trainLoss: slice(h.trainLoss), testLoss: slice(h.testLoss),
      trainAccuracy: slice(h.trainAccuracy), testAccuracy: slice(h.testAccuracy) },
    total: h.step.length,
    stepsDone: trainer.stepsDone,
    divergence: trainer.divergence,
    grid: gridSize ? trainer.grid(gridSize, extent) : null,
  };
}

export const paperATasks = {
  /**
   * Scaling gaps (docs/MATH.md §A8) of random gated and symmetric layers for every activation at
   * every α of `positions` (see alphaAt).
   * @returns {{ alphas: Float32Array, positions: Float32Array, gated: object, symmetric: object }}
   */
  *scalingCurves(lab, { seed = 1, positions }) {
    const alphas = Float32Array.from(positions, alphaAt);
    const x = scalingInputs(seed);
    const gated = {};
    const symmetric = {};
    let done = 0;
    for (const activation of lab.activations) {
      const [g, s] = scalingLayers(lab, activation, seed);
      try {
        gated[activation] = Float32Array.from(alphas, (a) => lab.symmetry.scalingGap(g, x, SCALING_SHAPE.rows, a));
        symmetric[activation] = Float32Array.from(alphas, (a) => lab.symmetry.scalingGap(s, x, SCALING_SHAPE.rows, a));
      } finally {
        g.dispose();
        s.dispose();
      }
      yield ++done / lab.activations.length;
    }
    return { alphas, positions: Float32Array.from(positions), gated, symmetric };
  },

  /** lab.rankApprox as a task. */
  *rankApprox(lab, options) {
    yield 0;
    return lab.rankApprox(options);
  },

  /** lab.census, one kind at a time (so progress moves and cancellation is prompt). */
  *census(lab, { kinds = ['mlp', 'symmetric', 'gated'], ...options }) {
    const rows = [];
    for (let i = 0; i < kinds.length; i++) {
      yield i / kinds.length;
      rows.push(...lab.census({ ...options, kinds: [kinds[i]] }));
    }
    return rows;
  },

  /**
   * Trains one layer on a 2-D task and returns its weights, data and decision grid.
   * @returns {{ weights: object, data: object, history: object, grid: Float32Array, divergence }}
   */
  *trainLayer(lab, { options, steps, chunk = 100, gridSize = 48, extent = 1.5 }) {
    const trainer = lab.createTrainer(options);
    try {
      for (let done = 0; done < steps && !trainer.divergence;) {
        const n = Math.min(chunk, steps - done);
        trainer.step(n);
        done += n;
        yield done / steps;
      }
      return { weights: trainer.weights(), data: trainer.data(), history: trainer.history(),
        grid: trainer.grid(gridSize, extent), divergence: trainer.divergence };
    } finally {
      trainer.dispose();
    }
  },

  /**
   * Starts a race session: the widths of `models` under the race's rule (from the library's
   * own race, run for one step), then one trainer per model and seed with the options
   * lab.race gives that run (seed s: init seed + s, data seed + s; user points: the same data).
   * Returns the models, every run's options, each run's first snapshot and seed 0's data.
   */
  *raceStart(lab, { id, models, widthRule, budget, mlpHidden, seeds, train, data, gridSize, extent }) {
    paperATasks.raceStop(lab, { id }).next();
    const probe = lab.race({ ...train, data, models, widthRule, budget, mlpHidden, steps: 1, seeds: 1, evalEvery: 1 });
    const options = probe.models.map((m) => Array.from({ length: seeds }, (_, s) => ({
      ...train, kind: m.kind, activation: m.activation, symmetrize: m.symmetrize, hidden: m.hidden, rank: 1,
      seed: (train.seed ?? 0) + s,
      data: { ...data, seed: data.task === 'user' ? (data.seed ?? 0) : (data.seed ?? 0) + s },
    })));
    const trainers = [];
    const session = { trainers };
    sessions.set(id, session);
    for (const row of options) {
      trainers.push(row.map((o) => lab.createTrainer(o)));
      yield trainers.length / options.length;
    }
    return {
      models: probe.models.map(({ label, kind, activation, symmetrize, hidden, parameters }) =>
        ({ label, kind, activation, symmetrize, hidden, parameters })),
      options,
      snapshots: trainers.map((row) => row.map((t, s) => trainerSnapshot(t, 0, s === 0 ? gridSize : 0, extent))),
      data: trainers[0][0].data(),
    };
  },

  /**
   * Advances every trainer of a session by up to `steps` (never past `until`) and returns what
   * each added since `from[model][seed]` records, with seed 0's decision grid.
   */
  *raceStep(lab, { id, steps, until, from, gridSize, extent }) {
    const session = sessions.get(id);
    if (!session) throw sessionLost(id);
    const started = performance.now();
    const out = [];
    for (let m = 0; m < session.trainers.length; m++) {
      if (sessions.get(id) !== session) throw sessionLost(id);
      const row = session.trainers[m];
      out.push(row.map((trainer, s) => {
        const n = Math.min(steps, until - trainer.stepsDone);
        if (n > 0 && !trainer.divergence) trainer.step(n);
        return trainerSnapshot(trainer, from[m][s], s === 0 ? gridSize : 0, extent);
      }));
      yield (m + 1) / session.trainers.length;
    }
    return { snapshots: out, workerMs: performance.now() - started };
  },

  /** The weights of every trainer of a session, for export. */
  *raceWeights(lab, { id }) {
    yield 0;
    const session = sessions.get(id);
    if (!session) throw sessionLost(id);
    return session.trainers.map((row) => row.map((t) => t.weights()));
  },

  /** Disposes a session's trainers. */
  // eslint-disable-next-line require-yield -- every task is a generator (task-driver.js); this one is done in one slice
  *raceStop(lab, { id }) {
    const session = sessions.get(id);
    sessions.delete(id);
    for (const row of session?.trainers ?? []) for (const t of row) t.dispose();
    return true;
  },
};
