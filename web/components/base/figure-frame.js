// The DOM every figure shares, built once in its shadow root with createElement/textContent:
//   <figure part="figure">
//     <div part="plots">          the figure's canvases, under
//       <div part="poster"><slot name="poster">   until the first drawing: the element's
//                                  slot="poster" child (an image), else a text summary
//     <div part="controls">       the figure's controls, then the export and Share buttons
//     <p part="readout" role="status" aria-live="polite">   key numbers, for everyone
//     <figcaption part="caption"><slot>                       the element's light-DOM content
import { createButton } from './controls.js';
import { createShareDialog } from './share-dialog.js';

function element(tag, className, part) {
  const node = document.createElement(tag);
  node.className = className;
  node.setAttribute('part', part);
  return node;
}

/** What shows before the figure draws: the light DOM's slot="poster" child, or `summary`. */
function buildPoster(summary) {
  const poster = element('div', 'poster', 'poster');
  const slot = document.createElement('slot');
  slot.name = 'poster';
  const text = document.createElement('p');
  text.className = 'poster-summary';
  text.textContent = summary;
  slot.append(text);
  poster.append(slot);
  return poster;
}

/**
 * @param {ShadowRoot} root
 * @param {{ onPNG: () => void, onCSV: () => void, host: HTMLElement, summary: string,
 *   version: () => Promise<string> }} options
 * @returns {{ figure, plots, poster, controls, readout, caption, exportGroup, share }}
 */
export function buildFrame(root, { onPNG, onCSV, host, summary, version }) {
  const figure = element('figure', 'figure', 'figure');
  const plots = element('div', 'plots', 'plots');
  const poster = buildPoster(summary);
  plots.append(poster);
  const controls = element('div', 'controls', 'controls');
  const readout = element('p', 'readout', 'readout');
  readout.setAttribute('role', 'status');
  readout.setAttribute('aria-live', 'polite');
  readout.textContent = 'Loading…';

  const caption = element('figcaption', 'caption', 'caption');
  const slot = document.createElement('slot');
  caption.append(slot);
  caption.hidden = true;
  slot.addEventListener('slotchange', () => {
    caption.hidden = !slot.assignedNodes().some((n) => n.nodeType === Node.ELEMENT_NODE || n.textContent.trim());
  });

  const exportGroup = element('span', 'export', 'export');
  exportGroup.setAttribute('role', 'group');
  exportGroup.setAttribute('aria-label', 'Export');
  exportGroup.append(
    createButton({ text: 'PNG', title: 'Download the figure as a PNG image', part: 'button export-png',
      onClick: onPNG }),
    createButton({ text: 'CSV', title: 'Download the numbers behind the figure as CSV', part: 'button export-csv',
      onClick: onCSV }),
  );

  figure.append(plots, controls, readout, caption);
  root.append(figure);
  const share = createShareDialog(root, { figure: host, version });
  exportGroup.append(share.button);
  return { figure, plots, poster, controls, readout, caption, exportGroup, share };
}
