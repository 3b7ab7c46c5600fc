// The landing page's "use it" strip: the live figure's own three embed forms (script + tag,
// iframe, poster + link) for its current state, pinned to the package version, as its Share
// dialog builds them (components/base/share-links.js); they follow every change, once the figure
// has settled (the poster's alt text is its readout). In its default state the hero's poster is
// the site's prebuilt one; in any other, the picture to download (the button) and upload, as the
// note says.
import { pinnedSite, posterIndex, shareLinks } from '../dist/gatelab.embed.js';

const figure = document.getElementById('hero');
let posterFile = null;
const show = async () => {
  await figure.settled();
  const version = figure.lab.version;
  const links = shareLinks(figure, version, { index: await posterIndex(pinnedSite(version)) });
  document.getElementById('use-script').textContent = links.script;
  document.getElementById('use-iframe').textContent = links.iframe;
  document.getElementById('use-poster').textContent = links.poster;
  const note = document.getElementById('use-poster-note');
  note.textContent = links.posterNote ?? '';
  note.hidden = !links.posterNote;
  posterFile = links.posterFile;
};
figure.addEventListener('ready', show);
figure.addEventListener('change', show);
document.getElementById('use-poster-download')
  .addEventListener('click', () => figure.downloadPNG(posterFile ?? undefined));
