// The race figure's controls, grouped in labelled fieldsets (Run, Data, Training, Models), all
// native and keyboard-operable. build() makes them once; sync(state, ui) shows the state.
import { createButton, createRange, createSelect } from '../../base/controls.js';
import { layerLabel } from '../../base/labels.js';

export const TASK_LABELS = { circle: 'circle', xor: 'xor', gaussians: 'two gaussians', spiral: 'spiral',
  checkerboard: 'checkerboard', teacher: 'teacher network', user: 'your points' };
export const MODEL_CATALOGUE = ['mlp:relu', 'mlp:gelu', 'symmetric:relu', 'symmetric:silu', 'gated:relu', 'gated:gelu',
  'gated:silu', 'gated:sigmoid', 'gated:identity', 'gated:relu:1', 'gated:silu:1'];
const TEACHERS = ['gated:relu', 'gated:silu', 'gated:identity', 'symmetric:relu', 'mlp:relu'];
const RATES = [0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30];
const STEPS = [100, 200, 500, 1000, 2000, 5000];
const BATCHES = [8, 16, 32, 64, 128, 0];
const BUDGETS = [32, 64, 128, 256, 512, 1024];
const MLP_WIDTHS = [4, 8, 16, 32, 64, 128];

function fieldset(legend) {
  const set = document.createElement('fieldset');
  set.className = 'group';
  const title = document.createElement('legend');
  title.textContent = legend;
  set.append(title);
  return set;
}

function checkbox(text, onChange) {
  const label = document.createElement('label');
  label.className = 'check';
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.addEventListener('change', () => onChange(input.checked));
  const span = document.createElement('span');
  span.textContent = text;
  label.append(input, span);
  return { element: label, input };
}

/** "gated:silu" → "SwiGLU". */
function modelLabel(key) {
  const [kind, activation, lambda] = key.split(':');
  return layerLabel({ kind, activation, symmetrize: lambda === undefined ? 0 : Number(lambda) });
}

const options = (values, text = String) => values.map((v) => ({ value: String(v), text: text(v) }));

/**
 * @param {HTMLElement} controls the figure's controls part
 * @param {{ set: (patch) => void, state: () => object, togglePause: () => void, restart: () => void,
 *   clearPoints: () => void, usePasted: (text: string) => void }} actions
 */
export function buildRaceControls(controls, actions) {
  const set = (patch) => actions.set(patch);
  const ui = {};

  const run = fieldset('Run');
  ui.pause = createButton({ text: 'Pause', part: 'button pause', onClick: actions.togglePause });
  ui.restart = createButton({ text: 'Train again', part: 'button restart',
    title: 'Train from step 0 with the same seed', onClick: actions.restart });
  ui.reseed = createButton({ text: 'New seed', part: 'button reseed',
    onClick: () => set({ seed: (actions.state().seed + 1) % 4294967296 }) });
  run.append(ui.pause, ui.restart, ui.reseed);

  const data = fieldset('Data');
  ui.task = createSelect({ label: 'Data set', value: 'xor',
    options: Object.entries(TASK_LABELS).map(([value, text]) => ({ value, text })),
    onChange: (value) => set({ task: value }) });
  ui.teacher = createSelect({ label: 'Teacher', value: 'gated:relu',
    options: TEACHERS.map((t) => ({ value: t, text: modelLabel(t) })),
    onChange: (value) => set({ teacher: value }) });
  ui.count = createRange({ label: 'Points', min: 20, max: 1000, step: 20, value: 200,
    onInput: (v) => set({ count: v }) });
  ui.noise = createRange({ label: 'Noise', min: 0, max: 1, step: 0.05, value: 0.1, format: (v) => v.toFixed(2),
    onInput: (v) => set({ noise: v }) });
  ui.split = createRange({ label: 'Train share', min: 0.1, max: 0.9, step: 0.05, value: 0.5,
    format: (v) => `${Math.round(100 * v)} %`, onInput: (v) => set({ split: v }) });
  ui.drawClass = createSelect({ label: 'Draw class', value: '1',
    options: [{ value: '1', text: '+1' }, { value: '-1', text: '−1' }],
    onChange: () => {} });
  ui.clear = createButton({ text: 'Clear points', part: 'button clear', onClick: actions.clearPoints });
  const paste = document.createElement('label');
  paste.className = 'control paste';
  const pasteCaption = document.createElement('span');
  pasteCaption.className = 'control-label';
  pasteCaption.textContent = 'Paste CSV rows x, y, label (±1)';
  ui.csv = document.createElement('textarea');
  ui.csv.rows = 3;
  ui.csv.spellcheck = false;
  ui.csv.placeholder = '0.5, -0.2, 1\n-0.4, 0.7, -1';
  paste.append(pasteCaption, ui.csv);
  ui.usePasted = createButton({ text: 'Use pasted points', part: 'button paste',
    onClick: () => actions.usePasted(ui.csv.value) });
  ui.userBits = [ui.drawClass.element, ui.clear, paste, ui.usePasted];
  data.append(ui.task.element, ui.teacher.element, ui.count.element, ui.noise.element, ui.split.element,
    ...ui.userBits);

  const training = fieldset('Training');
  ui.loss = createSelect({ label: 'Loss', value: 'cross_entropy',
    options: [{ value: 'cross_entropy', text: 'cross-entropy' }, { value: 'mse', text: 'mean squared' }],
    onChange: (v) => set({ loss: v }) });
  ui.optimizer = createSelect({ label: 'Optimizer', value: 'adam',
    options: [{ value: 'adam', text: 'Adam' }, { value: 'momentum', text: 'momentum' }, { value: 'sgd', text: 'SGD' }],
    onChange: (v) => set({ optimizer: v }) });
  ui.rate = createSelect({ label: 'Learning rate', value: '0.01', options: options(RATES),
    onChange: (v) => set({ learningRate: Number(v) }) });
  ui.batch = createSelect({ label: 'Batch', value: '32', options: options(BATCHES, (b) => (b ? String(b) : 'full')),
    onChange: (v) => set({ batch: Number(v) }) });
  ui.steps = createSelect({ label: 'Steps', value: '500', options: options(STEPS),
    onChange: (v) => set({ steps: Number(v) }) });
  ui.seeds = createRange({ label: 'Seeds', min: 1, max: 8, step: 1, value: 3, onInput: (v) => set({ seeds: v }) });
  training.append(ui.loss.element, ui.optimizer.element, ui.rate.element, ui.batch.element, ui.steps.element,
    ui.seeds.element);

  const models = fieldset('Models');
  ui.models = MODEL_CATALOGUE.map((key) => {
    const box = checkbox(modelLabel(key), (on) => {
      const list = actions.state().models.split(',').filter(Boolean);
      const next = on ? [...list, key] : list.filter((k) => k !== key);
      if (next.length) set({ models: [...new Set(next)].join(',') });
      else box.input.checked = true;  // keep at least one model
    });
    return { key, ...box };
  });
  ui.width = createSelect({ label: 'Width rule', value: 'budget',
    options: [{ value: 'budget', text: 'equal parameters' }, { value: 'shazeer', text: 'Shazeer ⅔ width' }],
    onChange: (v) => set({ width: v }) });
  ui.budget = createSelect({ label: 'Budget', value: '128', options: options(BUDGETS),
    onChange: (v) => set({ budget: Number(v) }) });
  ui.mlpHidden = createSelect({ label: 'MLP width', value: '32', options: options(MLP_WIDTHS),
    onChange: (v) => set({ mlpHidden: Number(v) }) });
  const boxes = document.createElement('div');
  boxes.className = 'checks';
  boxes.append(...ui.models.map((m) => m.element));
  models.append(boxes, ui.width.element, ui.budget.element, ui.mlpHidden.element);

  controls.append(run, data, training, models);
  return ui;
}

/** Adds the value to a select's options when it is not one of them (a custom attribute value). */
function ensureOption(select, value, text = value) {
  if (![...select.options].some((o) => o.value === value)) select.append(new Option(text, value));
  select.value = value;
}

export function syncRaceControls(ui, state, { paused, finished }) {
  ui.pause.textContent = finished ? 'Finished' : paused ? 'Resume' : 'Pause';
  ui.pause.disabled = finished;
  ui.reseed.title = `Seed ${state.seed}: draw new data and initial weights`;
  ui.task.select.value = state.task;
  ui.teacher.element.hidden = state.task !== 'teacher';
  ensureOption(ui.teacher.select, state.teacher, modelLabel(state.teacher));
  const user = state.task === 'user';
  ui.count.element.hidden = user;
  ui.count.set(state.count);
  ui.noise.set(state.noise);
  ui.split.set(state.split);
  for (const bit of ui.userBits) bit.hidden = !user;
  ui.loss.select.value = state.loss;
  ui.optimizer.select.value = state.optimizer;
  ensureOption(ui.rate.select, String(state.learningRate));
  ensureOption(ui.batch.select, String(state.batch), state.batch ? String(state.batch) : 'full');
  ensureOption(ui.steps.select, String(state.steps));
  ui.seeds.set(state.seeds);
  const chosen = new Set(state.models.split(','));
  for (const m of ui.models) m.input.checked = chosen.has(m.key);
  ui.width.select.value = state.width;
  ensureOption(ui.budget.select, String(state.budget));
  ensureOption(ui.mlpHidden.select, String(state.mlpHidden));
  ui.budget.element.hidden = state.width !== 'budget';
  ui.mlpHidden.element.hidden = state.width !== 'shazeer';
}
