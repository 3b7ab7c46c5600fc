// One training of <gatelab-lm>: every run (model × seed) as a lab.lm session in a worker of the
// pool (runner/lm-pool.js, tasks runner/lm-tasks.js), advanced one curve point at a time. After
// each point the run's sample is redrawn every SAMPLE_EVERY steps and its checkpoint taken every
// CHECKPOINT_EVERY steps (kept in memory and in IndexedDB, lm-store.js), so a reload, a pause or a
// worker that dies resumes from it bit for bit. Pausing is soft: the turns in flight finish their
// curve point, so every point is trained exactly as the native runner trains it.
import { poolSize } from '../../runner/lm-pool.js';
import { CHECKPOINT_EVERY, SAMPLE_EVERY, SETTINGS, nextCurveStep, runsOf } from './lm-schema.js';
import { lmStore } from './lm-store.js';

let nextId = 1;
const abortError = () => new DOMException('The training was stopped', 'AbortError');

export class LmTraining {
  /** Runs, model-major: { model, seedIndex, seed, variant, key, id, points, sample, stepsDone, … }. */
  runs;
  steps;
  /** { vocabulary, sizes, baselines } of the corpus, once the first session has started. */
  corpus = null;
  /** The lowest step a run was resumed at from storage (0: none was). */
  resumedAt = 0;
  resumed = false;

  #key;
  #text;
  #pool;
  #store;
  #onUpdate;
  #abort = new AbortController();
  #paused = false;
  #started = null;
  #activeMs = 0;
  #temperature;

  /**
   * @param {{ state: object, key: string, text: string, pool: import('../../runner/lm-pool.js').RunnerPool,
   *   onUpdate: (training: LmTraining) => void, store?: typeof lmStore }} options
   */
  constructor({ state, key, text, pool, onUpdate, store = lmStore }) {
    this.steps = state.steps;
    this.#temperature = state.temperature;
    this.#key = key;
    this.#text = text;
    this.#pool = pool;
    this.#store = store;
    this.#onUpdate = onUpdate;
    this.runs = runsOf(state).map((run) => ({ ...run, id: `lm-${nextId++}`, lane: 0, points: [], sample: null,
      stepsDone: 0, diverged: false, parameters: 0, initRms: 0, saved: null, trainedSteps: 0, trainSeconds: 0 }));
  }

  get finished() {
    return this.runs.every((r) => r.diverged || r.stepsDone >= this.steps);
  }

  /** The step every run has reached (a diverged run counts as done). */
  get commonStep() {
    return Math.min(...this.runs.map((r) => (r.diverged ? this.steps : r.stepsDone)));
  }

  get workers() {
    return this.#pool.size;
  }

  /** Each worker's mode ('worker', or 'main' where it fell back to the page). */
  get modes() {
    return this.#pool.modes;
  }

  /**
   * Characters per second trained in this page: per run (its worker's time inside train()) and
   * in all (every run's characters over the wall time spent training, evaluations included).
   */
  get throughput() {
    const perStep = SETTINGS.batch * SETTINGS.context;
    const runs = this.runs.map((r) => ({ key: r.key, steps: r.trainedSteps, seconds: r.trainSeconds,
      charsPerSecond: r.trainSeconds > 0 ? (r.trainedSteps * perStep) / r.trainSeconds : NaN }));
    const chars = runs.reduce((sum, r) => sum + r.steps * perStep, 0);
    const seconds = (this.#activeMs + (this.#started ? performance.now() - this.#started : 0)) / 1000;
    return { runs, workers: this.workers, seconds, charsPerSecond: seconds > 0 ? chars / seconds : NaN };
  }

  /** Starts every session, resumed from storage where a checkpoint of this state exists. */
  async start() {
    const saved = await this.#store.load(this.#key);
    this.#check();
    this.#pool.resize(poolSize(this.runs.length));
    this.runs.forEach((run, j) => (run.lane = j % this.#pool.size));
    await Promise.all(this.runs.map((run) => this.#startRun(run, saved.get(run.key) ?? null)));
    const resumed = this.runs.filter((r) => r.saved);
    this.resumed = resumed.length > 0;
    this.resumedAt = this.resumed ? Math.min(...resumed.map((r) => r.saved.step)) : 0;
    this.#onUpdate(this);
  }

  async #startRun(run, record) {
    const start = (bytes) => this.#call(run, 'lmStart', { id: run.id, options: run.options, reference: run.reference,
      checkpoint: bytes, corpus: { key: 'lm-text', text: this.#text, devFraction: SETTINGS.devFraction,
        validationFraction: SETTINGS.validationFraction } });
    let result;
    try {
      result = await start(record?.bytes ?? null);
    } catch (error) {
      // A stored checkpoint the library refuses (damaged storage): that run starts afresh.
      if (!record || error?.name !== 'GateLabError') throw error;
      console.warn(`gatelab-lm: the saved checkpoint of ${run.key} could not be restored (${error.message}); `
        + 'it trains from step 0');
      record = null;
      result = await start(null);
    }
    this.corpus ??= { vocabulary: result.vocabulary, sizes: result.sizes, baselines: result.baselines };
    Object.assign(run, { parameters: result.parameters, initRms: result.initRms, stepsDone: result.stepsDone });
    if (record) {
      Object.assign(run, { saved: { step: record.step, bytes: record.bytes },
        points: record.points.filter((p) => p.step <= record.step),
        sample: record.sample, diverged: record.points.some((p) => p.diverged) });
    }
  }

  /** Trains until every run is done or pause()/stop() is called; resolves when the turns in flight end. */
  async run() {
    this.#paused = false;
    if (this.finished) return;
    this.#started = performance.now();
    try {
      await this.#pool.drive(this.runs, {
        hasWork: (r) => !this.#paused && !r.diverged && r.stepsDone < this.steps,
        progress: (r) => r.stepsDone,
        turn: (r) => this.#turn(r),
        signal: this.#abort.signal,
      });
      this.#check();
      if (this.#paused) await this.#checkpointAll();
    } finally {
      this.#activeMs += performance.now() - this.#started;
      this.#started = null;
    }
  }

  /** Stops after the curve points in flight (their checkpoints are then saved). */
  pause() {
    this.#paused = true;
  }

  /** Ends the training at once and frees its sessions (the pool stays). */
  stop() {
    this.#abort.abort();
    const byLane = new Map();
    for (const r of this.runs) byLane.set(r.lane, [...(byLane.get(r.lane) ?? []), r.id]);
    for (const [lane, ids] of byLane) this.#pool.runners[lane]?.run('lmStop', { ids }).catch(() => {});
  }

  /** Forgets this state's stored checkpoints (a fresh start). */
  clearStored() {
    return this.#store.clear(this.#key);
  }

  /** New samples of every shown run (each model's first seed) at `temperature`. */
  async resample(temperature) {
    this.#temperature = temperature;
    await Promise.all(this.runs.filter((r) => r.seedIndex === 0 && r.stepsDone > 0).map((r) => this.#sample(r)));
    this.#onUpdate(this);
  }

  async #turn(run) {
    const until = nextCurveStep(run.stepsDone, this.steps);
    let r;
    try {
      r = await this.#call(run, 'lmTrain', { id: run.id, until, evalWindows: SETTINGS.evalWindows,
        diagnosticWindows: SETTINGS.diagnosticWindows });
    } catch (error) {
      if (error?.name !== 'SessionLost') throw error;
      // The worker died and its runner moved to the page: resume from the last checkpoint there.
      await this.#startRun(run, run.saved ? { ...run.saved, points: run.points, sample: run.sample } : null);
      if (!run.saved) Object.assign(run, { points: [], stepsDone: 0 });
      return;
    }
    run.trainedSteps += r.step - run.stepsDone;
    run.trainSeconds += r.seconds;
    run.stepsDone = r.step;
    run.diverged = r.diverged;
    run.points.push({ step: r.step, valLoss: r.valLoss, trainLoss: r.trainLoss, blocks: r.blocks,
      diverged: r.diverged });
    const last = r.diverged || r.step >= this.steps;
    if (run.seedIndex === 0 && !r.diverged && (r.step % SAMPLE_EVERY === 0 || last)) await this.#sample(run);
    if (r.step % CHECKPOINT_EVERY === 0 || last) await this.#checkpoint(run);
    this.#onUpdate(this);
  }

  async #sample(run) {
    const r = await this.#call(run, 'lmSample',
      { id: run.id, count: SETTINGS.sampleChars, temperature: this.#temperature, seed: run.seed });
    run.sample = { step: r.step, temperature: this.#temperature, text: r.text };
  }

  async #checkpoint(run) {
    const { step, bytes } = await this.#call(run, 'lmCheckpoint', { id: run.id });
    this.#check();  // stopped meanwhile (a new state, "Start over"): this training saves nothing more
    run.saved = { step, bytes };
    await this.#store.save(this.#key, run.key, { step, bytes, points: run.points, sample: run.sample });
  }

  #checkpointAll() {
    return Promise.all(this.runs.filter((r) => r.stepsDone > (r.saved?.step ?? 0)).map((r) => this.#checkpoint(r)));
  }

  #call(run, task, args) {
    this.#check();
    const runner = this.#pool.runners[run.lane];
    if (!runner) return Promise.reject(abortError());
    return runner.run(task, args, { signal: this.#abort.signal });
  }

  #check() {
    if (this.#abort.signal.aborted) throw abortError();
  }
}
