// The iframe page: builds the one figure its query names, with the same attributes an element
// would take (seed included; each is parsed by the figure like any untrusted attribute), hides
// the controls for controls=0, fixes the theme for theme=light|dark, links its oEmbed JSON,
// and posts { type: 'gatelab:resize', height } to its parent whenever its height changes
// (web/hosts/frame-host.js applies it on the host page).
import { FIGURES } from '../dist/gatelab.embed.js';

const params = new URLSearchParams(location.search);
const tag = params.get('figure') ?? '';
const main = document.getElementById('frame');
const RESERVED = new Set(['figure', 'theme', 'controls', 'url-state', 'hide-controls']);

function note(text) {
  const p = document.createElement('p');
  p.className = 'frame-note';
  p.textContent = text;
  main.replaceChildren(p);
}

const theme = params.get('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;

if (Object.hasOwn(FIGURES, tag)) {
  const figureClass = FIGURES[tag];
  const figure = document.createElement(tag);
  const observed = new Set(figureClass.observedAttributes);
  let plain = true;
  for (const [name, value] of params) {
    if (RESERVED.has(name) || !observed.has(name)) continue;
    figure.setAttribute(name, value);
    plain = false;
  }
  if (params.get('controls') === '0') figure.setAttribute('hide-controls', '');
  figure.id = 'figure';
  main.replaceChildren(figure);
  document.title = `${figureClass.description || tag} · GateLab`;
  // The default state of a figure has a static oEmbed JSON (built with the posters).
  if (plain) {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.type = 'application/json+oembed';
    link.href = new URL(`../dist/oembed/${tag}.json`, location.href).href;
    link.title = document.title;
    document.head.append(link);
  }
} else {
  note(`No GateLab figure is called "${tag.slice(0, 60)}". Known figures: ${Object.keys(FIGURES).join(', ')}.`);
}

let lastHeight = 0;
function postHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight || window.parent === window) return;
  lastHeight = height;
  window.parent.postMessage({ type: 'gatelab:resize', height }, '*');
}
new ResizeObserver(postHeight).observe(document.documentElement);
postHeight();
