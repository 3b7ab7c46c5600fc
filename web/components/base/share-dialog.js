// The Share / Embed dialog every figure has (its "Share" button sits with the export buttons): a
// modal <dialog> in the figure's shadow root with the permalink, the script snippet, the iframe
// snippet and the poster for the figure's current state (share-links.js; a state without a
// prebuilt poster says the picture is to be downloaded, here, and uploaded). Keyboard and screen
// reader: a native modal dialog named by its heading; focus moves to the first field on open,
// Tab stays inside, Escape or "Close" closes it and focus returns to the Share button; each
// field is a labelled read-only text area with a Copy button whose result is said politely.
import { createButton } from './controls.js';
import { pinnedSite, posterIndex, shareLinks } from './share-links.js';

let nextId = 1;
const POSTER_HINT = 'For Medium and Substack: the picture linked to the live figure.';

function node(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'part' || key.startsWith('aria-') || key === 'role') element.setAttribute(key, value);
    else element[key] = value;
  }
  element.append(...children);
  return element;
}

async function copyText(text, field) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard access refused (an insecure page, a frame without permission): the selection
    // lets the reader copy by hand, and execCommand still works in most browsers.
    field.focus();
    field.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}

/**
 * Returns the Share button; the dialog is built in `root` when it is first opened (a figure's
 * shadow DOM holds no dialog fields until then).
 * @param {ShadowRoot} root
 * @param {{ figure: HTMLElement, version: () => Promise<string> }} options
 */
export function createShareDialog(root, options) {
  let built = null;
  const button = createButton({ text: 'Share', title: 'Share or embed this figure in its current state',
    part: 'button share',
    onClick: async () => {
      built ??= buildDialog(root, { ...options, button });
      await built.open();
    } });
  button.setAttribute('aria-haspopup', 'dialog');
  button.setAttribute('aria-expanded', 'false');
  return { button };
}

function buildDialog(root, { figure, version, button }) {
  const id = `gatelab-share-${nextId++}`;
  const status = node('p', { className: 'share-status', role: 'status', 'aria-live': 'polite' });
  const heading = node('h2',
    { id: `${id}-title`, className: 'share-title', textContent: 'Share or embed this figure' });
  const intro = node('p', { className: 'share-intro' });
  const dialog = node('dialog', { className: 'share', part: 'share-dialog', 'aria-labelledby': heading.id });
  const fields = {};

  const field = (key, label, hint, { rows = 3, extra = [] } = {}) => {
    const area = node('textarea',
      { id: `${id}-${key}`, className: 'share-field', readOnly: true, rows, spellcheck: false });
    area.setAttribute('part', 'share-field');
    const copy = createButton({ text: 'Copy', title: `Copy the ${label.toLowerCase()}`, part: 'button copy',
      onClick: async () => {
        const ok = await copyText(area.value, area);
        status.textContent = ok ? `${label} copied.` : `${label} selected: press Ctrl+C (⌘C) to copy.`;
      } });
    copy.setAttribute('aria-describedby', area.id);
    const item = node('div', { className: 'share-item' },
      node('label', { htmlFor: area.id, className: 'share-label', textContent: label }),
      node('p', { className: 'share-hint', id: `${id}-${key}-hint`, textContent: hint }),
      area, node('div', { className: 'share-actions' }, copy, ...extra));
    area.setAttribute('aria-describedby', `${id}-${key}-hint`);
    fields[key] = area;
    return item;
  };

  const openLink = node('a', { className: 'share-open', target: '_blank', rel: 'noopener', textContent: 'Open' });
  const posterLink = node('a',
    { className: 'share-open', target: '_blank', rel: 'noopener', textContent: 'Open the poster' });
  let posterFile;  // the file name the Poster field's snippet expects
  const download = createButton({ text: 'Download the poster',
    title: 'Download this state of the figure as a PNG image',
    part: 'button share-png', onClick: () => figure.downloadPNG(posterFile) });
  const close = createButton({ text: 'Close', part: 'button share-close', onClick: () => dialog.close() });
  dialog.append(heading, intro,
    field('permalink', 'Permalink', 'A link that opens this figure in this state.', { rows: 2, extra: [openLink] }),
    field('script', 'Script snippet',
      'For pages that take HTML with scripts (your site, Hugo, Jekyll, Astro, Ghost).', { rows: 5 }),
    field('iframe', 'Iframe snippet',
      'For hosts that take only iframes (WordPress, Notion): it sizes itself with the optional script line.',
      { rows: 4 }),
    field('poster', 'Poster', POSTER_HINT, { rows: 4, extra: [posterLink, download] }),
    status, node('div', { className: 'share-footer' }, close));
  root.append(dialog);
  const posterHint = dialog.querySelector(`[id="${id}-poster-hint"]`);

  const open = async () => {
    const v = await version();
    const links = shareLinks(figure, v, { index: await posterIndex(pinnedSite(v)) });
    posterFile = links.posterFile;
    fields.permalink.value = links.permalink;
    fields.script.value = links.script;
    fields.iframe.value = links.iframe;
    fields.poster.value = links.poster;
    openLink.href = links.permalink;
    posterLink.hidden = !links.posterUrl;
    if (links.posterUrl) posterLink.href = links.posterUrl;
    intro.textContent = `Pinned to gatelab@${links.version}: `
      + 'the links keep showing this state when the library moves on.';
    posterHint.textContent = `${POSTER_HINT} ${links.posterNote ?? 'It is hosted on the GateLab site.'}`;
    status.textContent = '';
    button.setAttribute('aria-expanded', 'true');
    dialog.showModal();
    fields.permalink.focus();
    fields.permalink.select();
  };
  dialog.addEventListener('close', () => {
    button.setAttribute('aria-expanded', 'false');
    button.focus();
  });
  return { open, dialog, fields };
}
