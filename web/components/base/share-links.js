// The links a figure hands out for its current state (the Share / Embed dialog, share-dialog.js):
// a permalink, the script snippet, the iframe snippet and the poster (an absolute, sized <img>
// that fits any column; for a state without a prebuilt poster, the picture to download and
// upload, named after its attributes, with a note saying so). Every URL is pinned to
// the package version, a `gatelab@<version>` path segment, so a post keeps showing what its
// author saw when the library moves on. The site is the web root the figures were loaded from
// (the folder holding components/, dist/, demos/), pinned: its `gatelab@…` segment gets this
// version, or one is appended (the site publishes each release there, docs/EMBEDDING.md; the
// demo server does). configureShare({ site }) names another site; `{version}` in it is filled.
import { attributeName, formatValue } from './attributes.js';
import { pngLayout } from './export.js';

// In the repository layout this file is web/components/base/; the embed bundle tells its own.
let config = { webRoot: new URL('../../', import.meta.url).href, site: null };

/** @param {{ webRoot?: string | URL, site?: string }} options */
export function configureShare(options) {
  config = { ...config, ...options };
}

/** The site's pinned root URL for `version`, ending in a slash. */
export function pinnedSite(version) {
  if (config.site) return new URL(config.site.replaceAll('{version}', version), globalThis.location?.href).href;
  const root = new URL(config.webRoot, globalThis.location?.href);
  const segment = /\/gatelab@[^/]+\//;
  root.pathname = segment.test(root.pathname) ? root.pathname.replace(segment, `/gatelab@${version}/`)
    : `${root.pathname.replace(/\/?$/, '/')}gatelab@${version}/`;
  root.search = '';
  root.hash = '';
  return root.href;
}

/**
 * The figure's state as attributes: every entry that differs from its default or is set in the
 * markup, and the seed always, in schema order. Values are the attribute texts (booleans as
 * 'true' / 'false').
 * @returns {[string, string][]}
 */
export function stateAttributes(figure) {
  const schema = figure.constructor.schema;
  const out = [];
  for (const [name, spec] of Object.entries(schema)) {
    const value = figure.state[name];
    const attribute = attributeName(name);
    if (Object.is(value, spec.default) && !figure.hasAttribute(attribute) && name !== 'seed') continue;
    out.push([attribute, spec.type === 'boolean' ? String(!!value) : formatValue(spec, value)]);
  }
  return out;
}

/** True when every entry of the figure's state is its default (the prebuilt poster shows it). */
export function isDefaultState(figure) {
  return Object.entries(figure.constructor.schema).every(([name, spec]) => Object.is(figure.state[name], spec.default));
}

export function escapeHtml(text) {
  const entities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return String(text).replace(/[&<>"']/g, (c) => entities[c]);
}

/** frame.html's URL for a figure: ?figure=<tag>&<attribute>=<value>… (plus theme / controls). */
export function frameUrl(site, tag, attributes, { theme, controls = true } = {}) {
  const query = new URLSearchParams({ figure: tag });
  for (const [name, value] of attributes) query.append(name, value);
  if (theme && theme !== 'auto') query.set('theme', theme);
  if (!controls) query.set('controls', '0');
  return `${site}demos/frame.html?${query}`;
}

/** The markup of the figure's tag with its attributes (booleans by presence), around `inner`. */
export function elementMarkup(tag, attributes, inner = '') {
  const attrs = attributes.filter(([, value]) => value !== 'false')
    .map(([name, value]) => (value === 'true' ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`)).join('');
  return `<${tag}${attrs}>${inner}</${tag}>`;
}

/** The iframe snippet: titled, lazy, full width; the optional host script applies the height it posts. */
export function iframeSnippet(site, src, { title, height }) {
  return `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" loading="lazy" width="100%" height="${height}" `
    + `style="width: 100%; max-width: 100%; border: 0;"></iframe>\n`
    + `<script async src="${site}hosts/frame-host.js"></script>`;
}

/** The poster's image style: never wider than the column it is pasted into. */
export const POSTER_STYLE = 'max-width:100%;height:auto';

const posterIndexes = new Map();

/**
 * The site's posters index (dist/posters/index.json, written by `npm run posters`: each default
 * poster's size and alt text), fetched once per site; null where the site has none.
 */
export function posterIndex(site) {
  if (!posterIndexes.has(site)) {
    const index = fetch(`${site}dist/posters/index.json`).then((r) => (r.ok ? r.json() : null));
    posterIndexes.set(site, index.catch(() => null));
  }
  return posterIndexes.get(site);
}

/** The words behind a figure: its description and, once it has settled on a result, its readout. */
function altText(figure) {
  const description = figure.constructor.description ?? figure.localName;
  const readout = figure.readoutText.trim();
  const busy = !figure.lab || readout === 'Loading…'
    || figure.shadowRoot?.querySelector('[part~="readout"][aria-busy]');
  return busy || !readout ? description : `${description} ${readout}`;
}

/** The picture `figure.downloadPNG()` makes, in CSS pixels (the figure's canvases and its readout). */
function pictureSize(figure) {
  const canvases = [...(figure.shadowRoot?.querySelectorAll('canvas') ?? [])];
  if (!canvases.length || !globalThis.document) return null;
  const font = figure.theme?.font ?? getComputedStyle(figure).fontFamily;
  const { width, height } = pngLayout(canvases, { font, caption: figure.readoutText });
  return { width: Math.round(width), height: Math.round(height) };
}

/**
 * The poster: the prebuilt PNG of a default state on the pinned site (its size from the posters
 * index when given), or, for any other state, the picture of this state under a file name that
 * says what it shows, which the author downloads and uploads with the post (`posterNote` says so).
 */
function posterOf(figure, site, attributes, index) {
  const tag = figure.localName;
  if (isDefaultState(figure)) {
    const prebuilt = index?.figures?.[tag];
    const size = prebuilt?.poster ?? pictureSize(figure);
    const alt = prebuilt?.alt ?? altText(figure);
    return { url: `${site}dist/posters/${tag}.png`, file: `${tag}.png`, size, alt, note: null };
  }
  const name = [tag, ...attributes.map(([attribute, value]) => `${attribute}-${value}`)].join('_');
  const file = `${name.replace(/[^\w.-]+/g, '-').slice(0, 120)}.png`;
  const note = `This state has no poster on the GateLab site: download ${file} (Share → Download the poster), `
    + 'upload it with your post, and put its address in src.';
  return { url: null, file, size: pictureSize(figure), alt: altText(figure), note };
}

/** The poster's <img>: sized (its aspect ratio is known before it loads) and never wider than its column. */
function posterImg(poster) {
  const size = poster.size ? ` width="${poster.size.width}" height="${poster.size.height}"` : '';
  const src = escapeHtml(poster.url ?? poster.file);
  return `<img src="${src}"${size} style="${POSTER_STYLE}" alt="${escapeHtml(poster.alt)}">`;
}

/** The poster linked to the live figure, as HTML, after the upload note when there is one. */
function posterSnippet(frame, poster) {
  const note = poster.note ? `<!-- ${poster.note.replaceAll('--', '–')} -->\n` : '';
  return `${note}<a href="${escapeHtml(frame)}">${posterImg(poster)}</a>`;
}

/**
 * Every link of the Share dialog for the figure's current state.
 * @param {HTMLElement & { state: object, lab: object, readoutText: string }} figure
 * @param {string} version the package version (lab.version)
 * @param {{ index?: object | null }} [options] the site's posters index (posterIndex()), for the default posters' sizes
 */
export function shareLinks(figure, version, { index = null } = {}) {
  const site = pinnedSite(version);
  const tag = figure.localName;
  const attributes = stateAttributes(figure);
  const title = `GateLab: ${figure.constructor.description ?? tag}`;
  const frame = frameUrl(site, tag, attributes);
  const poster = posterOf(figure, site, attributes, index);
  const height = Math.max(320, Math.ceil(figure.getBoundingClientRect?.().height ?? 0) + 24);
  const fallback = poster.url ? `\n  <a slot="poster" href="${escapeHtml(frame)}">${posterImg(poster)}</a>\n`
    : `\n  <a slot="poster" href="${escapeHtml(frame)}">${escapeHtml(title)} (live figure)</a>\n`;
  return {
    version,
    site,
    permalink: permalinkOf(figure, site, attributes, frame),
    frame,
    script: `<script type="module" src="${site}dist/gatelab.embed.js"></script>\n`
      + elementMarkup(tag, attributes, fallback),
    iframe: iframeSnippet(site, frame, { title, height }),
    posterUrl: poster.url,
    posterFile: poster.file,
    posterNote: poster.note,
    poster: posterSnippet(frame, poster),
    alt: poster.alt,
  };
}

/** A page of the site that mirrors the figure in its hash keeps the reader in the article. */
function permalinkOf(figure, site, attributes, frame) {
  const here = globalThis.location;
  if (!here || !figure.id || !figure.hasAttribute('url-state')) return frame;
  const root = new URL(config.webRoot, here.href);
  const pinned = new URL(site);
  const path = here.pathname.startsWith(pinned.pathname) ? here.pathname.slice(pinned.pathname.length)
    : here.pathname.startsWith(root.pathname) ? here.pathname.slice(root.pathname.length) : null;
  if (path === null || here.origin !== root.origin) return frame;
  const hash = new URLSearchParams(attributes.map(([name, value]) => [`${figure.id}.${name}`, value]));
  return `${site}${path}#${hash}`;
}
