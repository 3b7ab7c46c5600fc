// The links a figure hands out for its current state (the Share / Embed dialog, share-dialog.js):
// a permalink, the script snippet, the iframe snippet and the poster. Every URL is pinned to
// the package version, a `gatelab@<version>` path segment, so a post keeps showing what its
// author saw when the library moves on. The site is the web root the figures were loaded from
// (the folder holding components/, dist/, demos/), pinned: its `gatelab@…` segment gets this
// version, or one is appended (the site publishes each release there, docs/EMBEDDING.md; the
// demo server does). configureShare({ site }) names another site; `{version}` in it is filled.
import { attributeName, formatValue } from './attributes.js';

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
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
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

/**
 * Every link of the Share dialog for the figure's current state.
 * @param {HTMLElement & { state: object, lab: object, readoutText: string }} figure
 * @param {string} version the package version (lab.version)
 */
export function shareLinks(figure, version) {
  const site = pinnedSite(version);
  const tag = figure.localName;
  const attributes = stateAttributes(figure);
  const title = `GateLab: ${figure.constructor.description ?? tag}`;
  const frame = frameUrl(site, tag, attributes);
  const alt = figure.readoutText.trim() || figure.constructor.description || tag;
  const posterUrl = isDefaultState(figure) ? `${site}dist/posters/${tag}.png` : null;
  const height = Math.max(320, Math.ceil(figure.getBoundingClientRect?.().height ?? 0) + 24);
  const poster = `<a href="${escapeHtml(frame)}"><img src="${escapeHtml(posterUrl ?? `${tag}.png`)}" alt="${escapeHtml(alt)}"></a>`;
  const fallback = posterUrl
    ? `\n  <a slot="poster" href="${escapeHtml(frame)}"><img src="${escapeHtml(posterUrl)}" alt="${escapeHtml(alt)}"></a>\n`
    : `\n  <a slot="poster" href="${escapeHtml(frame)}">${escapeHtml(title)} (live figure)</a>\n`;
  return {
    version,
    site,
    permalink: permalinkOf(figure, site, attributes, frame),
    frame,
    script: `<script type="module" src="${site}dist/gatelab.embed.js"></script>\n${elementMarkup(tag, attributes, fallback)}`,
    iframe: iframeSnippet(site, frame, { title, height }),
    posterUrl,
    poster,
    alt,
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
