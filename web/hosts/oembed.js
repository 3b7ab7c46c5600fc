// oEmbed for GateLab figures (https://oembed.com, type "rich"): the JSON a consumer (WordPress,
// Ghost, Notion, iframely, Embedly…) gets for a figure's URL. scripts/posters.mjs writes one
// static file per figure and per article anchor into dist/oembed/ with it; a host that wants to
// answer `?url=` queries itself calls oembedFor() with the posters' index (docs/EMBEDDING.md):
//   const index = await (await fetch(site + 'dist/posters/index.json')).json();
//   const json = oembedFor(requestedUrl, index);   // null: not a GateLab figure URL → 404
import { frameUrl, escapeHtml } from '../components/base/share-links.js';

/** The oEmbed object for one figure state. `poster`: { file, width, height } or null. */
export function oembedObject(index, { tag, attributes, title, poster, height }) {
  const site = index.site;
  const src = frameUrl(site, tag, attributes);
  const width = index.width;
  const json = {
    version: '1.0',
    type: 'rich',
    provider_name: 'GateLab',
    provider_url: `${site}demos/`,
    title,
    html: `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" loading="lazy" width="100%" `
      + `height="${height}" `
      + 'style="width: 100%; max-width: 100%; border: 0;"></iframe>',
    width,
    height,
    cache_age: 86400,
  };
  if (poster) {
    Object.assign(json, { thumbnail_url: `${site}dist/posters/${poster.file}`, thumbnail_width: poster.width,
      thumbnail_height: poster.height });
  }
  return json;
}

/**
 * The oEmbed object for a URL of the site, or null. Understood: frame.html?figure=<tag>&…
 * (any attributes), an article with an anchor (demos/paper-a.html#race), an article alone
 * (its first figure). URLs on the unpinned site are accepted too.
 * @param {string} url
 * @param {{ site: string, version: string, width: number, figures: object, anchors: object }} index
 */
export function oembedFor(url, index) {
  let target;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const site = new URL(index.site);
  const unpinned = site.pathname.replace(/gatelab@[^/]+\/$/, '');
  const path = target.origin !== site.origin ? null : target.pathname.startsWith(site.pathname)
    ? target.pathname.slice(site.pathname.length)
    : target.pathname.startsWith(unpinned) ? target.pathname.slice(unpinned.length) : null;
  if (path === 'demos/frame.html') {
    const tag = target.searchParams.get('figure');
    const figure = index.figures[tag];
    if (!figure) return null;
    const attributes = [...target.searchParams]
      .filter(([name]) => name !== 'figure' && name !== 'controls' && name !== 'theme');
    return oembedObject(index, { tag, attributes, title: figure.title, height: figure.height,
      poster: attributes.length ? null : figure.poster });
  }
  const page = path?.match(/^demos\/([\w-]+)\.html$/)?.[1];
  if (!page) return null;
  const anchors = Object.entries(index.anchors).filter(([key]) => key.startsWith(`${page}#`));
  const anchor = index.anchors[`${page}#${target.hash.slice(1)}`] ?? anchors[0]?.[1];
  return anchor ? oembedObject(index, anchor) : null;
}
