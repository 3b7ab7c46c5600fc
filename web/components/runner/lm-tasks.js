// Character language models as runner tasks (lab-tasks.js merges them in), for <gatelab-lm>:
// one lab.lm session per id, kept in the worker between calls and trained in short slices, so a
// pause or a cancellation lands within a few steps. The figure sends fully built session options;
// nothing here knows the figure. Every number comes from the library, and the calls are the
// native runner's (cpp/experiments/experiment_lm_job.cpp): the reference MLP's initial output
// RMS, then training, evaluation and diagnostics at the same steps, so the curves agree bit for bit.

const corpora = new Map();   // text key -> lab.lm corpus (one per text for the worker's lifetime)
const sessions = new Map();  // id -> { session, corpus }
const SLICE = 5;             // steps per library call: ~40 ms at the figure's size

function sessionLost(id) {
  const error = new Error(`LM session ${id} is gone (the worker restarted)`);
  error.name = 'SessionLost';
  return error;
}

function corpusFor(lab, { key, text, devFraction, validationFraction }) {
  const cacheKey = `${key}|${devFraction}|${validationFraction}`;
  let corpus = corpora.get(cacheKey);
  if (!corpus) {
    if (typeof text !== 'string') throw new TypeError('lmStart needs the text the first time');
    corpus = lab.lm.createCorpus(text, { devFraction, validationFraction });
    corpora.set(cacheKey, corpus);
  }
  return corpus;
}

function stop(id) {
  const entry = sessions.get(id);
  sessions.delete(id);
  if (entry && !entry.session.disposed) entry.session.dispose();
}

export const lmTasks = {
  /**
   * Creates session `id`. `reference` (session options or null): its block-0 MLP output RMS at
   * initialisation becomes this session's mlpInitRms, as the native runner does for every variant
   * of a seed. `checkpoint` (bytes or null) resumes an earlier session of the same options.
   * @returns {{ parameters, stepsDone, initRms, vocabulary, sizes, baselines }}
   */
  *lmStart(lab, { id, corpus: text, options, reference = null, checkpoint = null }) {
    stop(id);
    const corpus = corpusFor(lab, text);
    yield 0.2;
    let initRms = 0;
    if (reference) {
      const probe = lab.lm.createSession({ ...reference, corpus, mlpInitRms: 0 });
      try {
        initRms = probe.mlpOutputRms(0);
      } finally {
        probe.dispose();
      }
    }
    yield 0.5;
    const session = lab.lm.createSession({ ...options, corpus, mlpInitRms: initRms });
    try {
      if (checkpoint) session.restore(checkpoint);
    } catch (error) {
      session.dispose();
      throw error;
    }
    sessions.set(id, { session, corpus });
    return { parameters: session.parameterCount, stepsDone: session.stepsDone, initRms, vocabulary: corpus.vocabulary,
      sizes: corpus.sizes, baselines: corpus.baselines };
  },

  /**
   * Trains session `id` up to step `until`, then evaluates the validation loss on `evalWindows`
   * fixed windows and the MLP diagnostics on `diagnosticWindows` (docs/MATH.md §A12).
   * @returns {{ step, valLoss, trainLoss, blocks, diverged, seconds }} trainLoss: the mean train
   *   cross-entropy of the steps since the call's start; seconds: time spent training.
   */
  *lmTrain(lab, { id, until, evalWindows, diagnosticWindows }) {
    const entry = sessions.get(id);
    if (!entry) throw sessionLost(id);
    const { session } = entry;
    const before = session.stepsDone;
    let seconds = 0;
    let sum = 0;  // summed in step order, as the native runner sums its chunk's train losses
    while (session.stepsDone < until && !session.diverged) {
      const started = performance.now();
      for (const loss of session.train(Math.min(SLICE, until - session.stepsDone))) sum += loss;
      seconds += (performance.now() - started) / 1000;
      yield (session.stepsDone - before) / Math.max(1, until - before);
      if (sessions.get(id) !== entry) throw sessionLost(id);
    }
    const step = session.stepsDone;
    if (session.diverged) return { step, valLoss: NaN, trainLoss: NaN, blocks: [], diverged: true, seconds };
    return { step, valLoss: session.evaluate('validation', evalWindows), trainLoss: sum / Math.max(1, step - before),
      blocks: session.diagnostics('validation', diagnosticWindows), diverged: false, seconds };
  },

  /** `count` characters of session `id` at `temperature` (lab.lm's sample; training is untouched). */
  *lmSample(lab, { id, count, temperature, seed }) {
    const entry = sessions.get(id);
    if (!entry) throw sessionLost(id);
    yield 0;
    return { step: entry.session.stepsDone, text: entry.session.sample({ count, temperature, seed }) };
  },

  /** Session `id`'s checkpoint: restore() into a session of the same options resumes bit for bit. */
  *lmCheckpoint(lab, { id }) {
    const entry = sessions.get(id);
    if (!entry) throw sessionLost(id);
    yield 0;
    return { step: entry.session.stepsDone, bytes: entry.session.checkpoint() };
  },

  /** Disposes the sessions `ids`. */
  // eslint-disable-next-line require-yield -- every task is a generator (task-driver.js); this one is done in one slice
  *lmStop(lab, { ids }) {
    for (const id of ids) stop(id);
    return true;
  },
};
