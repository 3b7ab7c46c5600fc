// The paper-B article's script: typesets the math with KaTeX (served from this site, no CDN) and
// lets the text drive the figures. A button with data-target="<figure id>" and
// data-set="name=value&…" sets those attributes on the figure (parsed like any attribute);
// data-action="reflect" asks the preconditioner figure to reflect the gradient.
import renderMathInElement from '../vendor/katex/contrib/auto-render.mjs';
import { keyboardScrollRegions } from './scroll-regions.js';
import { formatNumber } from '../components/base/format.js';

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

for (const button of document.querySelectorAll('button[data-target]')) {
  button.addEventListener('click', async () => {
    const figure = document.getElementById(button.dataset.target);
    if (!figure) return;
    show(figure);
    if (button.dataset.action === 'reflect') {
      await customElements.whenDefined(figure.localName);
      await figure.ready;
      figure.reflectGradient();
      return;
    }
    for (const [name, value] of new URLSearchParams(button.dataset.set)) figure.setAttribute(name, value);
  });
}

const energy = document.getElementById('energy');
const log = document.getElementById('energy-events');
energy?.addEventListener('computed', ({ detail }) => {
  const { energies, minEigenvalue } = detail.result;
  const falls = energies.every((e, t) => t === 0 || e < energies[t - 1]);
  log.textContent = `Event "computed": the query's energy goes from ${formatNumber(energies[0])} to `
    + `${formatNumber(energies.at(-1))} in ${energies.length - 1} step${energies.length > 2 ? 's' : ''}, `
    + `${falls ? 'falling at every step' : 'not always falling'}; `
    + `smallest eigenvalue of P ${formatNumber(minEigenvalue)}.`;
});
