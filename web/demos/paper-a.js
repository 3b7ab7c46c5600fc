// The paper-A article's script: typesets the math with KaTeX (served from this site, no CDN) and
// lets the text drive the figures. A button with data-target="<figure id>" and
// data-set="name=value&…" sets those attributes on the figure (the figure parses them like any
// attribute); data-activation buttons set the exchange plane's activation.
import renderMathInElement from '../vendor/katex/contrib/auto-render.mjs';
import { keyboardScrollRegions } from './scroll-regions.js';
import { formatNumber } from '../components/base/format.js';
import { activationDisplayName } from '../components/base/labels.js';

renderMathInElement(document.querySelector('main'), {
  delimiters: [
    { left: '$$', right: '$$', display: true },
    { left: '\\(', right: '\\)', display: false },
  ],
  throwOnError: false,
});
keyboardScrollRegions(document.querySelector('main'));

const reduceMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

function show(figure) {
  figure.scrollIntoView({ block: 'nearest', behavior: reduceMotion() ? 'auto' : 'smooth' });
}

for (const button of document.querySelectorAll('button[data-target][data-set]')) {
  button.addEventListener('click', () => {
    const figure = document.getElementById(button.dataset.target);
    if (!figure) return;
    for (const [name, value] of new URLSearchParams(button.dataset.set)) figure.setAttribute(name, value);
    show(figure);
  });
}

const plane = document.getElementById('plane');
for (const button of document.querySelectorAll('[data-activation]')) {
  button.addEventListener('click', () => {
    plane.activation = button.dataset.activation;
    show(plane);
  });
}

// The language-model figure's caption names the models it trains, as the library names them.
const lm = document.getElementById('lm');
const nameModels = () => {
  const labels = lm.modelLabels;
  document.getElementById('lm-models').textContent = labels.length > 1
    ? `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}` : labels.join('');
};
customElements.whenDefined('gatelab-lm').then(() => {
  nameModels();
  new MutationObserver(nameModels).observe(lm, { attributes: true, attributeFilter: ['models'] });
});
lm.addEventListener('ready', nameModels);  // the library's names, once it has loaded

const log = document.getElementById('figure-events');
plane.addEventListener('computed', ({ detail }) => {
  const { gated, symmetric } = detail.gaps;
  log.textContent = `Event "computed": ${activationDisplayName(detail.state.activation)}, `
    + `gated gap ${formatNumber(gated)}, `
    + `symmetric gap ${formatNumber(symmetric)}.`;
});
