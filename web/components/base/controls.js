// Native, labelled, keyboard-operable controls built with createElement/textContent only (no
// innerHTML: option texts may come from attributes or the library). Each control is wrapped in
// its <label>, which names it for screen readers without ids.
import { activationDisplayName } from './labels.js';

function labelled(text, control, extra) {
  const label = document.createElement('label');
  label.className = 'control';
  const caption = document.createElement('span');
  caption.className = 'control-label';
  caption.textContent = text;
  label.append(caption, control);
  if (extra) label.append(extra);
  return label;
}

/**
 * @param {{ label: string, options: { value: string, text: string }[], value: string,
 *   onChange: (value: string) => void }} spec
 */
export function createSelect({ label, options, value, onChange }) {
  const select = document.createElement('select');
  setSelectOptions(select, options, value);
  select.addEventListener('change', () => onChange(select.value));
  return { element: labelled(label, select), select };
}

export function setSelectOptions(select, options, value) {
  select.replaceChildren(...options.map((o) => {
    const option = document.createElement('option');
    option.value = o.value;
    option.textContent = o.text;
    return option;
  }));
  select.value = value;
}

/**
 * Shows the lab's activations in `select`, named as readers know them (labels.js), once the lab
 * is known (until then the current value alone), and selects `value`.
 */
export function syncActivationSelect(select, lab, value) {
  const names = lab?.activations ?? [value];
  if (select.options.length !== names.length) {
    setSelectOptions(select, names.map((n) => ({ value: n, text: activationDisplayName(n, lab) })), value);
  }
  select.value = value;
}

/**
 * A range slider with a visible <output> of its value. With `exact`, set(v) shows v itself even
 * when the slider can only sit at the nearest step (an attribute may hold any value in range).
 * @param {{ label: string, min: number, max: number, step: number, value: number,
 *   format?: (v: number) => string, exact?: boolean, onInput: (value: number) => void }} spec
 */
export function createRange({ label, min, max, step, value, format = String, exact = false, onInput }) {
  const input = document.createElement('input');
  input.type = 'range';
  Object.assign(input, { min: String(min), max: String(max), step: String(step) });
  const output = document.createElement('output');
  output.className = 'control-value';
  const show = (v) => {
    input.value = String(v);
    output.textContent = format(exact ? Number(v) : Number(input.value));
    input.setAttribute('aria-valuetext', output.textContent);
  };
  show(value);
  input.addEventListener('input', () => {
    show(input.value);
    onInput(Number(input.value));
  });
  return { element: labelled(label, input, output), input, output, set: show };
}

/**
 * A checkbox after its label text, like the other controls.
 * @param {{ label: string, checked: boolean, onChange: (checked: boolean) => void }} spec
 */
export function createCheckbox({ label, checked, onChange }) {
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  return { element: labelled(label, input), input };
}

/** @param {{ text: string, title?: string, part?: string, onClick: () => void }} spec */
export function createButton({ text, title, part, onClick }) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = text;
  if (title) button.title = title;
  if (part) button.setAttribute('part', part);
  button.addEventListener('click', onClick);
  return button;
}

/**
 * A button that moves `figure`'s seed (or another integer state entry, `name`) to the next value,
 * wrapping at 2³²: "New random layers", "New sequence".
 * @param {{ state: object, setState: Function }} figure
 * @param {{ text: string, title?: string, part?: string, name?: string }} spec
 */
export function createReseedButton(figure, { text, title, part = 'button reseed', name = 'seed' }) {
  const onClick = () => figure.setState({ [name]: (figure.state[name] + 1) % 4294967296 }, 'user');
  return createButton({ text, title, part, onClick });
}
