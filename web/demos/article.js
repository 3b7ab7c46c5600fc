// The article page's script: typesets the math with KaTeX (served from this site, no CDN) and
// lets the text drive the figure through its properties and events.
import renderMathInElement from '../vendor/katex/contrib/auto-render.mjs';
import { activationLabel, formatNumber } from '../components/format.js';

renderMathInElement(document.querySelector('main'), {
  delimiters: [
    { left: '$$', right: '$$', display: true },
    { left: '\\(', right: '\\)', display: false },
  ],
  throwOnError: false,
});

const figure = document.getElementById('plane');
for (const button of document.querySelectorAll('[data-activation]')) {
  button.addEventListener('click', () => {
    figure.activation = button.dataset.activation;
    figure.scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  });
}

const log = document.getElementById('figure-events');
figure.addEventListener('computed', ({ detail }) => {
  const { gated, symmetric } = detail.gaps;
  log.textContent = `Event "computed": ${activationLabel(detail.state.activation)}, gated gap ${formatNumber(gated)}, `
    + `symmetric gap ${formatNumber(symmetric)}.`;
});
