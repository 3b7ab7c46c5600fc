// <gatelab-teleport layer="reglu" unit="0" c="2" teleports="0" every="10" seed="1">
//
// Symmetry teleportation (docs/MATH.md §A21, Zhao et al. 2022) on a layer trained by full-batch
// gradient descent on a race task. The reader slides one unit's c along its inverse-scaling orbit
// (q_j, k_j) → (c q_j, k_j / c): the library's probe (trainer.probeOrbit) shows the loss flat while
// ‖∇L‖ and the loss after the next step move. "Teleport" moves every unit to the best factor on a
// bounded log grid (trainer.bestFactors, then trainer.teleport; the `teleports` attribute counts the
// moves, so a link reproduces the point). Below, plain descent races descent with a teleport every N
// steps, over seeds (bands: lab.stats). SwiGLU has no orbit: the library refuses, and the figure says why.
// The work runs in the worker (runner/symmetry-tasks.js); every task rebuilds its trainers from the state.
import { GateLabFigure } from '../../base/gatelab-figure.js';
import { createButton, createRange, createReseedButton, createSelect, setSelectOptions } from '../../base/controls.js';
import { formatNumber } from '../../base/format.js';
import { WorkerRun } from '../../runner/worker-run.js';
import { LAYER_NAMES, layerOptions, orbitLayerLabel, orbitWhy } from './orbit-kit.js';
import { drawGradient, drawOrbit, drawRace } from './teleport-charts.js';
import { ORBIT_LAYERS } from '../../runner/symmetry-tasks.js';

const STYLES = `
.plots canvas.orbit, .plots canvas.gradient { aspect-ratio: 1.35; }
.plots canvas.race { aspect-ratio: 1.7; }
.plots p.note { margin: 0; padding: 0.6em 0.8em; border-left: 3px solid var(--gl-accent); }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots canvas.race, .plots p.note { grid-column: 1 / -1; }
  .plots canvas.race { aspect-ratio: 2.4; }
}
`;

/** Slider positions −100 … 100 ⇄ c = 10^(p/100) on [0.1, 10]. */
const cAt = (p) => Number((10 ** (p / 100)).toPrecision(3));
const positionOfC = (c) => Math.round(100 * Math.log10(c));

export class GateLabTeleport extends GateLabFigure {
  static description = 'Teleporting along a symmetry orbit: the loss stays, the gradient and the next step change.';
  static events = { computed: 'detail: { orbit, race, state }' };
  static styles = STYLES;
  static schema = {
    layer: { type: 'enum', default: 'reglu', values: LAYER_NAMES },
    task: { type: 'enum', default: 'xor', values: (el) => el.lab?.datasets.tasks.filter((t) => t !== 'user') ?? null },
    hidden: { type: 'integer', default: 6, min: 2, max: 16 },
    unit: { type: 'integer', default: 0, min: 0, max: 15 },
    c: { type: 'number', default: 2, min: 0.1, max: 10 },
    trained: { type: 'integer', default: 40, min: 0, max: 2000 },
    learningRate: { type: 'number', default: 0.3, min: 0.001, max: 2 },
    goal: { type: 'enum', default: 'step', values: ['step', 'gradient'] },
    reach: { type: 'number', default: 1.5, min: 1.1, max: 10 },
    teleports: { type: 'integer', default: 0, min: 0, max: 8 },
    every: { type: 'integer', default: 25, min: 1, max: 200 },
    steps: { type: 'integer', default: 300, min: 10, max: 3000 },
    seeds: { type: 'integer', default: 3, min: 1, max: 8 },
    seed: { type: 'integer', default: 1, min: 0, max: 4294967295 },
  };

  /** The probed unit is one of the layer's. */
  static normalize(state) {
    return { ...state, unit: Math.min(state.unit, state.hidden - 1) };
  }

  #controls = null;
  #orbit = null;
  #race = null;
  #orbitRun = new WorkerRun(this);
  #raceRun = new WorkerRun(this);
  #note = null;

  /** { orbit, race }: the worker's results (orbit: teleportOrbit, race: teleportRace), or nulls. */
  get result() {
    return structuredClone({ orbit: this.#orbit, race: this.#race });
  }

  build({ plots, controls }) {
    this.#note = document.createElement('p');
    this.#note.className = 'note';
    this.#note.setAttribute('part', 'note');
    this.#note.hidden = true;
    plots.append(this.#note);
    this.createCanvas({ name: 'orbit', label: 'Training loss and the next step’s loss along one unit’s orbit' });
    this.createCanvas({ name: 'gradient', label: 'Gradient norm along one unit’s orbit' });
    this.createCanvas({ name: 'race', label: 'Training loss of plain gradient descent and of descent with teleports' });
    const set = (patch) => this.setState(patch, 'user');
    const layer = createSelect({ label: 'Layer', options: layerOptions(null), value: this.state.layer,
      onChange: (value) => set({ layer: value }) });
    const unit = createSelect({ label: 'Unit j', options: [], value: String(this.state.unit),
      onChange: (value) => set({ unit: Number(value) }) });
    const c = createRange({ label: 'c (log scale)', min: -100, max: 100, step: 1, value: positionOfC(this.state.c),
      format: () => formatNumber(this.state.c), exact: true, onInput: (p) => set({ c: cAt(p) }) });
    const goal = createSelect({ label: 'Teleport to', options: [
      { value: 'step', text: 'lowest next-step loss' }, { value: 'gradient', text: 'smallest ‖∇L‖' }],
    value: this.state.goal, onChange: (value) => set({ goal: value }) });
    const teleport = createButton({ text: 'Teleport', part: 'button teleport',
      title: 'Move every unit to its best c on the grid (the loss stays)',
      onClick: () => set({ teleports: Math.min(8, this.state.teleports + 1) }) });
    const back = createButton({ text: 'Back', part: 'button back', title: 'Return to the trained point (no teleports)',
      onClick: () => set({ teleports: 0 }) });
    const every = createRange({ label: 'Race: teleport every N steps', min: 1, max: 100, step: 1,
      value: this.state.every,
      format: (v) => String(v), onInput: (v) => set({ every: v }) });
    const reseed = createReseedButton(this, { text: 'New seeds' });
    controls.append(layer.element, unit.element, c.element, goal.element, teleport, back, every.element, reseed);
    this.#controls = { layer, unit, c, goal, teleport, back, every, reseed };
  }

  syncControls() {
    const { layer, unit, c, goal, teleport, back, every, reseed } = this.#controls;
    const s = this.state;
    const names = layerOptions(this.lab);
    if (layer.select.options[0]?.textContent !== names[0].text) setSelectOptions(layer.select, names, s.layer);
    layer.select.value = s.layer;
    if (unit.select.options.length !== s.hidden) {
      const units = Array.from({ length: s.hidden }, (_, j) => ({ value: String(j), text: String(j + 1) }));
      setSelectOptions(unit.select, units, String(s.unit));
    }
    unit.select.value = String(s.unit);
    c.set(positionOfC(s.c));
    goal.select.value = s.goal;
    every.set(s.every);
    const orbitless = s.layer === 'swiglu';
    for (const control of [unit.select, c.input, goal.select]) control.disabled = orbitless;
    teleport.disabled = orbitless || s.teleports >= 8;
    back.disabled = s.teleports === 0;
    teleport.textContent = s.teleports ? `Teleport (${s.teleports} so far)` : 'Teleport';
    reseed.title = `Seed ${s.seed}: new initial weights and data`;
  }

  async start() {
    this.#computeOrbit();
    this.#computeRace();
  }

  update(changed) {
    const raceKeys = ['layer', 'task', 'hidden', 'learningRate', 'goal', 'reach', 'every', 'steps', 'seeds', 'seed'];
    if ([...changed].some((k) => k !== 'every' && k !== 'steps' && k !== 'seeds')) this.#computeOrbit();
    if (raceKeys.some((k) => changed.has(k))) this.#computeRace();
    this.requestDraw();
  }

  /** The trainer options every task of this state starts from. */
  #trainerOptions() {
    const s = this.state;
    return { ...ORBIT_LAYERS[s.layer], hidden: s.hidden, seed: s.seed, loss: 'cross_entropy', optimizer: 'sgd',
      learningRate: s.learningRate, batchSize: 0, evalEvery: Math.max(1, Math.round(s.steps / 100)),
      data: { task: s.task, count: 200, noise: 0.1, seed: s.seed } };
  }

  #computeOrbit() {
    const s = this.state;
    const args = { options: this.#trainerOptions(), trained: s.trained, teleports: s.teleports, goal: s.goal,
      reach: s.reach, unit: s.unit, c: s.c };
    return this.#orbitRun.run('teleportOrbit', args, {
      progress: (f) => `Training and probing the orbit… ${Math.round(100 * f)} %`,
      onResult: (orbit) => {
        this.#orbit = orbit;
        this.#finish();
      },
    });
  }

  #computeRace() {
    const s = this.state;
    const args = { options: this.#trainerOptions(), steps: s.steps, every: s.every, goal: s.goal, reach: s.reach,
      seeds: s.seeds };
    return this.#raceRun.run('teleportRace', args, {
      progress: (f) => `Racing plain descent against descent with teleports… ${Math.round(100 * f)} %`,
      onResult: (race) => {
        this.#race = race;
        this.#finish();
      },
    });
  }

  #finish() {
    const orbitless = this.#orbit && !this.#orbit.supported;
    this.#note.hidden = !orbitless;
    if (orbitless) {
      this.#note.textContent = `${orbitWhy(this.state.layer, this.lab)} `
        + `The library refuses the move: “${this.#orbit.message}”`;
    }
    this.announce(this.#summary());
    this.requestDraw();
    this.dispatchEvent(new CustomEvent('computed', { detail: { ...this.result, state: { ...this.state } } }));
  }

  #summary() {
    const s = this.state;
    const o = this.#orbit;
    const n = formatNumber;
    const label = orbitLayerLabel(s.layer, this.lab);
    const parts = [];
    if (o && !o.supported) {
      parts.push(`${label}: no orbit to move along; ${orbitWhy(s.layer, this.lab)}`);
    } else if (o) {
      parts.push(`${label}, unit ${s.unit + 1} at c = ${n(s.c)}: `
        + `training loss ${n(o.at.loss)} (at c = 1: ${n(o.here.loss)}, `
        + `the same function); ‖∇L‖ ${n(o.at.gradNorm)} (at c = 1: ${n(o.here.gradNorm)}); loss after the next step `
        + `${n(o.at.nextLoss)} (at c = 1: ${n(o.here.nextLoss)}).`);
      const last = o.jumps.at(-1);
      if (last) {
        parts.push(`After ${o.jumps.length} teleport${o.jumps.length > 1 ? 's' : ''}: loss ${n(last.lossBefore)} → `
          + `${n(last.lossAfter)}, ‖∇L‖ ${n(last.gradNormBefore)} → ${n(last.gradNormAfter)}.`);
      }
    }
    const r = this.#race;
    if (r) {
      const plain = r.plain.mean.at(-1);
      const seeds = `${s.seeds} seed${s.seeds > 1 ? 's' : ''}`;
      if (r.teleported) {
        const blew = r.diverged.teleported
          ? ` (${r.diverged.teleported} of ${s.seeds} runs with teleports diverged)` : '';
        parts.push(`After ${s.steps} steps (mean of ${seeds}): plain descent ${n(plain)}, with a teleport every `
          + `${s.every} steps ${n(r.teleported.mean.at(-1))}${blew}.`);
      } else {
        parts.push(`After ${s.steps} steps (mean of ${seeds}): plain descent ${n(plain)}; `
          + 'no teleports without an orbit.');
      }
    }
    return parts.join(' ');
  }

  draw() {
    const [orbitCanvas, gradientCanvas, raceCanvas] = this.shadowRoot.querySelectorAll('canvas');
    const view = { theme: this.theme, state: this.state, lab: this.lab };
    const panels = [[orbitCanvas, drawOrbit, this.#orbit], [gradientCanvas, drawGradient, this.#orbit],
      [raceCanvas, drawRace, this.#race]];
    for (const [canvas, drawer, data] of panels) {
      const { ctx, width, height } = this.beginCanvas(canvas);
      drawer(ctx, { width, height, fontSize: this.fontSizeFor(width), data, ...view });
    }
  }

  csv() {
    const rows = [];
    const o = this.#orbit;
    if (o?.supported) {
      for (let i = 0; i < o.orbit.c.length; i++) {
        rows.push(['orbit', this.state.unit, o.orbit.c[i], o.orbit.loss[i], o.orbit.gradNorm[i], o.orbit.nextLoss[i]]);
      }
    }
    const r = this.#race;
    for (const [name, b] of [['plain', r?.plain], ['teleported', r?.teleported]]) {
      if (!b) continue;
      for (let i = 0; i < b.mean.length; i++) rows.push([`race_${name}`, r.step[i], b.mean[i], b.lo[i], b.hi[i], '']);
    }
    return { columns: ['series', 'unit_or_step', 'c_or_mean', 'loss_or_lo', 'grad_norm_or_hi', 'next_loss'], rows };
  }
}
