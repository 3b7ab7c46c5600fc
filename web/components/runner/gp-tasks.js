// The <gatelab-gp> figure's long computations, as runner tasks (lab-tasks.js merges them in):
// a session of one GP model per recursion depth T, kept in the worker between calls, trained in
// chunks; each call returns what the figure draws — predictions on the shown sequence and the
// RMSE by position on a small held-out set, beside the exact GP posterior (lab.gp). The models
// can be evaluated at another T than they train at (test-time recursion, gpEvaluate); each
// evaluation carries a stamp, so the figure keeps the newest when gpStep and gpEvaluate cross.

const sessions = new Map();

function sessionLost(id) {
  const error = new Error(`GP session ${id} is gone (the worker restarted)`);
  error.name = 'SessionLost';
  return error;
}

/** RMSE by position and overall of predictions (one array per sequence) against the targets. */
export function rmseByPosition(predictions, seqs) {
  const n = seqs[0].y.length;
  const sum = new Float64Array(n);
  predictions.forEach((p, i) => {
    for (let t = 0; t < n; t++) sum[t] += (p[t] - seqs[i].y[t]) ** 2;
  });
  const byPosition = Float32Array.from(sum, (s) => Math.sqrt(s / seqs.length));
  const rmse = Math.sqrt(sum.reduce((a, b) => a + b, 0) / (seqs.length * n));
  return { byPosition, rmse };
}

function shown(api, options, seed) {
  const [seq] = api.sample(options, seed, 1);
  return { ...seq, ...api.posterior(options, seq), seed };
}

let stamps = 0;

/** One model's predictions on the shown sequence and RMSE on the held-out set, at its evalSteps. */
function evaluation(model, display, evalSet) {
  const { byPosition, rmse } = rmseByPosition(evalSet.map((s) => model.predict(s)), evalSet);
  return { evalSteps: model.evalSteps, stamp: ++stamps, prediction: model.predict(display), rmseByPosition: byPosition,
    rmse, stepSizes: model.stepSizes() };
}

function modelState(session, fromStep, display, evalSet) {
  const losses = session.model.losses();
  return { steps: session.steps, parameters: session.model.parameterCount, stepsDone: session.model.stepsDone,
    diverged: session.model.diverged, losses: losses.slice(fromStep), ...evaluation(session.model, display, evalSet) };
}

/**
 * What the figure draws before any model exists, from the exact GP alone (milliseconds, no
 * training; the page computes it itself while the worker builds the models): the shown sequence
 * (sequenceSeed) with its posterior, and the baselines' RMSE on `evalCount` held-out sequences.
 */
export function gpPreview(api, { options, sequenceSeed, evalSeed, evalCount }) {
  const evalSet = api.sample(options, evalSeed, evalCount);
  const post = evalSet.map((s) => api.posterior(options, s));
  const baselines = { posterior: rmseByPosition(post.map((p) => p.mean), evalSet),
    contextMean: rmseByPosition(post.map((p) => p.contextMean), evalSet) };
  return { display: shown(api, options, sequenceSeed), evalSet, baselines };
}

export const gpTasks = {
  /**
   * Starts a figure session: one model per T in `depths`, beside gpPreview's sequence and
   * baselines.
   */
  *gpStart(lab, { id, options, depths, sequenceSeed, evalSeed, evalCount, evalSteps = 0 }) {
    gpTasks.gpStop(lab, { id }).next();
    const api = lab.gp;
    const { display, evalSet, baselines } = gpPreview(api, { options, sequenceSeed, evalSeed, evalCount });
    const session = { models: [], options, display, evalSet };
    sessions.set(id, session);
    try {
      for (const steps of depths) {
        const model = api.createSession({ ...options, steps });
        session.models.push({ steps, model });
        model.setEvalSteps(evalSteps);
        yield session.models.length / (depths.length + 1);
      }
    } finally {
      // Cancelled, or stopped by gpStop while starting: nobody holds these models any more.
      if (sessions.get(id) !== session || session.models.length < depths.length) {
        if (sessions.get(id) === session) sessions.delete(id);
        for (const m of session.models) if (!m.model.disposed) m.model.dispose();
      }
    }
    return { display: session.display, baselines,
      models: session.models.map((m) => modelState(m, 0, session.display, session.evalSet)) };
  },

  /** Trains every model by up to `steps` (never past `until`); returns each model's new state. */
  *gpStep(lab, { id, steps, until, from }) {
    const session = sessions.get(id);
    if (!session) throw sessionLost(id);
    const out = [];
    for (let i = 0; i < session.models.length; i++) {
      const m = session.models[i];
      const n = Math.min(steps, until - m.model.stepsDone);
      if (n > 0 && !m.model.diverged) m.model.train(n);
      out.push(modelState(m, from[i], session.display, session.evalSet));
      yield (i + 1) / session.models.length;
    }
    return { models: out };
  },

  /**
   * Evaluates every model at evalSteps (0: as trained) from now on, without training: their
   * predictions and held-out RMSE. In one slice, so it sees every model at the same step.
   */
  // eslint-disable-next-line require-yield -- every task is a generator (task-driver.js); this one is done in one slice
  *gpEvaluate(lab, { id, evalSteps }) {
    const session = sessions.get(id);
    if (!session) throw sessionLost(id);
    for (const m of session.models) m.model.setEvalSteps(evalSteps);
    return { models: session.models.map((m) => evaluation(m.model, session.display, session.evalSet)) };
  },

  /** A new shown sequence: its posterior and every model's predictions on it. */
  *gpSequence(lab, { id, sequenceSeed }) {
    const session = sessions.get(id);
    if (!session) throw sessionLost(id);
    yield 0;
    session.display = shown(lab.gp, session.options, sequenceSeed);
    return { display: session.display, predictions: session.models.map((m) => m.model.predict(session.display)) };
  },

  /** Disposes a session's models. */
  // eslint-disable-next-line require-yield -- every task is a generator (task-driver.js); this one is done in one slice
  *gpStop(lab, { id }) {
    const session = sessions.get(id);
    sessions.delete(id);
    for (const m of session?.models ?? []) m.model.dispose();
    return true;
  },
};
