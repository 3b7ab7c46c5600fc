// <gatelab-lm>'s controls, in labelled fieldsets, all native and keyboard-operable: the models
// (one menu per slot from the lm-figure table: two required, two optional), the run (seeds,
// steps, pause, start over, new seeds) and the samples' temperature.
import { createButton, createRange, createSelect, setSelectOptions } from '../../base/controls.js';
import { MAX_MODELS, MAX_SEEDS, VARIANTS } from './lm-schema.js';

const STEPS = [500, 1000, 2000, 4000, 8000];
const NONE = '';

function fieldset(legend) {
  const set = document.createElement('fieldset');
  set.className = 'group';
  const title = document.createElement('legend');
  title.textContent = legend;
  set.append(title);
  return set;
}

const variantOptions = (optional) => [...(optional ? [{ value: NONE, text: '(none)' }] : []),
  ...VARIANTS.map((v) => ({ value: v.name, text: v.label }))];

/**
 * @param {HTMLElement} controls the figure's controls part
 * @param {{ set: (patch: object) => void, state: () => object, togglePause: () => void, startOver: () => void }}
 *   actions
 */
export function buildLmControls(controls, actions) {
  const ui = { slots: [] };
  const models = fieldset('Models (equal MLP parameters)');
  for (let k = 0; k < MAX_MODELS; k++) {
    const optional = k >= 2;
    const slot = createSelect({ label: `Model ${k + 1}`, options: variantOptions(optional), value: NONE,
      onChange: (value) => actions.set({ models: withSlot(actions.state().models, k, value) }) });
    ui.slots.push(slot);
    models.append(slot.element);
  }
  const run = fieldset('Run');
  ui.seeds = createSelect({ label: 'Seeds', value: '1',
    options: Array.from({ length: MAX_SEEDS }, (_, i) => ({ value: String(i + 1), text: String(i + 1) })),
    onChange: (value) => actions.set({ seeds: Number(value) }) });
  ui.steps = createSelect({ label: 'Steps', value: '2000', options: [],
    onChange: (value) => actions.set({ steps: Number(value) }) });
  ui.pause = createButton({ text: 'Pause', part: 'button pause', onClick: actions.togglePause });
  ui.startOver = createButton({ text: 'Start over', part: 'button restart',
    title: 'Forget the saved checkpoints of these settings and train from step 0', onClick: actions.startOver });
  ui.reseed = createButton({ text: 'New seeds', part: 'button reseed',
    onClick: () => actions.set({ seed: (actions.state().seed + actions.state().seeds) % 4294967296 }) });
  run.append(ui.seeds.element, ui.steps.element, ui.pause, ui.startOver, ui.reseed);
  const samples = fieldset('Samples');
  ui.temperature = createRange({ label: 'Temperature', min: 0.05, max: 1.5, step: 0.05, value: 0.8,
    format: (v) => v.toFixed(2), onInput: (value) => actions.set({ temperature: value }) });
  samples.append(ui.temperature.element);
  controls.append(models, run, samples);
  return ui;
}

/**
 * The models list with slot k set to `value`: a model already in another slot swaps places with
 * the old one (no model twice), '(none)' removes an optional slot, a slot past the end appends.
 */
export function withSlot(models, k, value) {
  const names = models.split(',');
  if (value === NONE) return names.filter((_, i) => i !== k).join(',');
  const j = names.indexOf(value);
  if (j >= 0 && j !== k && k < names.length) names[j] = names[k];
  else if (j >= 0 && j !== k) names.splice(j, 1);
  if (k < names.length) names[k] = value;
  else names.push(value);
  return names.join(',');
}

/** Shows the state in the controls. */
export function syncLmControls(ui, state, { paused, finished }) {
  const names = state.models.split(',');
  ui.slots.forEach((slot, k) => (slot.select.value = names[k] ?? NONE));
  ui.seeds.select.value = String(state.seeds);
  const steps = [...new Set([...STEPS, state.steps])].sort((a, b) => a - b);
  const stepOptions = ui.steps.select.options;
  if (stepOptions.length !== steps.length || !steps.every((s, i) => stepOptions[i].value === String(s))) {
    setSelectOptions(ui.steps.select, steps.map((s) => ({ value: String(s), text: s.toLocaleString('en-US') })),
      String(state.steps));
  }
  ui.steps.select.value = String(state.steps);
  ui.temperature.set(state.temperature);
  ui.pause.textContent = paused ? 'Resume' : 'Pause';
  ui.pause.setAttribute('aria-pressed', String(paused));
  ui.pause.disabled = finished;
  ui.reseed.title = `Seeds ${state.seed}…${state.seed + state.seeds - 1} now: train on the next ${state.seeds}`;
}
