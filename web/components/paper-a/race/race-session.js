// One live training race, driven from the page and run in the worker (paper-a-tasks.js):
// raceStart makes one trainer per model and seed, then raceStep advances all of them by a
// chunk of steps at a time and sends back the records they added and seed 0's decision grid.
// The chunk grows or shrinks so each takes about CHUNK_MS of the worker's time. Curves over seeds
// are reduced as the library's race reduces them (race.cpp: a diverged run repeats its last
// record; mean, sample SD, min and max from lab.stats.bands, i.e. base/stats.cpp), so a finished
// live race equals lab.race().
const CHUNK_MS = 70;
const METRICS = ['trainLoss', 'testLoss', 'trainAccuracy', 'testAccuracy'];

let nextSession = 1;
const pageKey = Math.random().toString(36).slice(2, 8);

/**
 * Mean, std, min and max over seeds of one metric, record by record, from lab.stats.bands (the
 * core's seed_bands: mean and sample SD of base/stats, 0 for one seed, as race.cpp). A run that
 * stopped (diverged) repeats its last record; a run with no records yet is left out.
 * @param {{ bands: (runs: Float32Array[]) => Record<'mean' | 'sd' | 'min' | 'max', Float64Array> }} stats lab.stats
 * @param {Float32Array[]} runs one array of records per seed
 */
export function reduceSeeds(stats, runs, length) {
  const padded = runs.filter((run) => run.length).map((run) => Float32Array.from({ length },
    (_, i) => run[Math.min(i, run.length - 1)]));
  if (!padded.length || !length) {
    const empty = () => new Float32Array(length).fill(NaN);
    return { mean: empty(), std: empty(), min: empty(), max: empty() };
  }
  const bands = stats.bands(padded);
  return { mean: Float32Array.from(bands.mean), std: Float32Array.from(bands.sd), min: Float32Array.from(bands.min),
    max: Float32Array.from(bands.max) };
}

export class RaceSession {
  #curves = [];  // curves(m) of the records as they are now, until the next update

  /**
   * @param {{ runner: import('../../../../runner/lab-runner.js').LabRunner, request: object, steps: number,
   *   stats: object, onUpdate: (session: RaceSession) => void }} options (stats: the page's lab.stats)
   */
  constructor({ runner, request, steps, stats, onUpdate }) {
    this.runner = runner;
    this.stats = stats;
    this.request = request;
    this.steps = steps;
    this.onUpdate = onUpdate;
    this.id = `${pageKey}-${nextSession++}`;
    this.models = null;      // [{ label, kind, activation, symmetrize, hidden, parameters }]
    this.runs = null;        // [model][seed] { records: {step, trainLoss, …}, stepsDone, divergence }
    this.options = null;     // [model][seed] the createTrainer options of each run
    this.grids = null;       // [model] seed 0's decision grid
    this.data = null;        // seed 0's data { xTrain, yTrain, xTest, yTest }
    this.running = false;
    this.disposed = false;
    this.chunk = 10;
  }

  /** Steps reached by the runs still training (all of them move in step). */
  get stepsDone() {
    if (!this.runs) return 0;
    return Math.max(0, ...this.runs.flat().map((r) => r.stepsDone));
  }

  get finished() {
    return !!this.runs && this.runs.flat().every((r) => r.divergence || r.stepsDone >= this.steps);
  }

  async start(signal) {
    const first = await this.runner.run('raceStart', { ...this.request, id: this.id }, { signal });
    if (this.disposed) return;
    this.models = first.models;
    this.options = first.options;
    this.data = first.data;
    this.runs = first.snapshots.map((row) => row.map((s) => ({
      records: s.records, stepsDone: s.stepsDone, divergence: s.divergence })));
    this.grids = first.snapshots.map((row) => row[0].grid);
    this.#curves = [];
    this.onUpdate(this);
  }

  /** Trains until finished, paused or disposed. Called again while a loop still runs (a pause
   *  undone before its chunk came back), that loop goes on: there is never a second one. */
  run(signal) {
    this.running = true;
    this.looping ??= this.#loop(signal).finally(() => (this.looping = null));
    return this.looping;
  }

  async #loop(signal) {
    const { gridSize, extent } = this.request;
    while (this.running && !this.disposed && !this.finished) {
      const from = this.runs.map((row) => row.map((r) => r.records.step.length));
      const { snapshots, workerMs } = await this.runner.run('raceStep',
        { id: this.id, steps: this.chunk, until: this.steps, from, gridSize, extent }, { signal });
      if (this.disposed) return;
      // Size the next chunk by the worker's own time, so page rendering does not shrink it.
      const evalEvery = this.request.train.evalEvery;
      const scale = Math.min(2, CHUNK_MS / Math.max(1, workerMs));
      this.chunk = Math.max(evalEvery, Math.min(2000, Math.round(this.chunk * scale)));
      snapshots.forEach((row, m) => row.forEach((s, k) => {
        const run = this.runs[m][k];
        const keep = Math.min(from[m][k], s.total - s.records.step.length);
        for (const name of ['step', ...METRICS]) {
          const merged = new Float32Array(keep + s.records[name].length);
          merged.set(run.records[name].subarray(0, keep));
          merged.set(s.records[name], keep);
          run.records[name] = merged;
        }
        run.stepsDone = s.stepsDone;
        run.divergence = s.divergence;
        if (k === 0) this.grids[m] = s.grid;
      }));
      this.#curves = [];
      this.onUpdate(this);
    }
    this.running = false;
  }

  pause() {
    this.running = false;
  }

  /** Mean, std, min and max over seeds of every metric of model m, with the step axis. */
  curves(m) {
    if (this.#curves[m]) return this.#curves[m];
    const row = this.runs[m];
    const length = Math.max(...row.map((r) => r.records.step.length));
    const evalEvery = this.request.train.evalEvery;
    const out = { step: Float32Array.from({ length }, (_, i) => i * evalEvery) };
    for (const name of METRICS) out[name] = reduceSeeds(this.stats, row.map((r) => r.records[name]), length);
    this.#curves[m] = out;
    return out;
  }

  /** The weights of every run, fetched from the worker. */
  weights() {
    return this.runner.run('raceWeights', { id: this.id });
  }

  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.running = false;
    this.runner.run('raceStop', { id: this.id }).catch(() => {});
  }
}
