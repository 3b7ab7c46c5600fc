// The landing page's "use it" strip: the live figure's own three embed forms (script + tag,
// iframe, poster + link) for its current state, pinned to the package version, as its Share
// dialog builds them (components/base/share-links.js); they follow every change.
import { shareLinks } from '../dist/gatelab.embed.js';

const figure = document.getElementById('hero');
const show = () => {
  const links = shareLinks(figure, figure.lab.version);
  document.getElementById('use-script').textContent = links.script;
  document.getElementById('use-iframe').textContent = links.iframe;
  document.getElementById('use-poster').textContent = links.poster;
};
figure.addEventListener('ready', show);
figure.addEventListener('change', show);
