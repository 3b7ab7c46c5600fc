// The DOM every figure shares, built once in its shadow root with createElement/textContent:
//   <figure part="figure">
//     <div part="plots">          the figure's canvases
//     <div part="controls">       the figure's controls, then the export buttons
//     <p part="readout" role="status" aria-live="polite">   key numbers, for everyone
//     <figcaption part="caption"><slot>                       the element's light-DOM content
import { createButton } from './controls.js';

function element(tag, className, part) {
  const node = document.createElement(tag);
  node.className = className;
  node.setAttribute('part', part);
  return node;
}

/**
 * @param {ShadowRoot} root
 * @param {{ onPNG: () => void, onCSV: () => void }} exports
 * @returns {{ figure, plots, controls, readout, caption, exportGroup }}
 */
export function buildFrame(root, { onPNG, onCSV }) {
  const figure = element('figure', 'figure', 'figure');
  const plots = element('div', 'plots', 'plots');
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
    createButton({ text: 'PNG', title: 'Download the figure as a PNG image', part: 'button export-png', onClick: onPNG }),
    createButton({ text: 'CSV', title: 'Download the numbers behind the figure as CSV', part: 'button export-csv', onClick: onCSV }),
  );

  figure.append(plots, controls, readout, caption);
  root.append(figure);
  return { figure, plots, controls, readout, caption, exportGroup };
}
