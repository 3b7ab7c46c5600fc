// `npm run posters`: renders every figure's default state, and every figure of the articles in
// its article's state, in headless Chromium (demos/frame.html at 720 CSS px, light theme) and
// writes into the built site
//   web/dist/posters/<tag>.png, web/dist/posters/<page>/<id>.png   the plots, as PNG
//   web/dist/posters/index.json    per poster: alt text (the figure's description and its
//                                  readout), sizes, the frame's height; the site and version
//   web/dist/oembed/<tag>.json, web/dist/oembed/<page>/<id>.json, web/dist/oembed/<page>.json
//                                  static oEmbed answers (web/hosts/oembed.js)
// Absolute URLs point to the pinned site (share-links.js): --site URL or GATELAB_SITE, default
// http://127.0.0.1:8080/ (npm start). Options: --only tag,… (figures; no article anchors),
// --if-stale (do nothing when the index is newer than the bundle and the articles).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { FIGURES } from '../web/components/index.js';
import { attributeName, formatValue } from '../web/components/base/attributes.js';
import { configureShare, pinnedSite } from '../web/components/base/share-links.js';
import { oembedFor } from '../web/hosts/oembed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const WIDTH = 720;
const ARTICLES = ['paper-a', 'paper-b'];
export const POSTERS = join(root, 'web/dist/posters');
const OEMBED = join(root, 'web/dist/oembed');

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The figures of an article with their markup attributes (url-state dropped). */
export function articleAnchors(page) {
  const html = readFileSync(join(root, `web/demos/${page}.html`), 'utf8');
  return [...html.matchAll(/<(gatelab-[a-z-]+)\s+id="([\w-]+)"([^>]*)>/g)].map(([, tag, id, rest]) => ({
    tag, id, attributes: [...rest.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].filter(([, name]) => name !== 'url-state')
      .map(([, name, value]) => [name, value ?? 'true']),
  }));
}

/** True when the attributes only restate the figure's defaults (its default poster fits). */
function isDefault(tag, attributes) {
  // An article may name a figure that another branch registers: say which, rather than fail on undefined.
  if (!Object.hasOwn(FIGURES, tag)) throw new Error(`posters: <${tag}> in an article is not a registered figure`);
  const schema = FIGURES[tag].schema;
  return attributes.every(([name, value]) => {
    const [key, spec] = Object.entries(schema).find(([k]) => attributeName(k) === name) ?? [];
    return key && formatValue(spec, spec.default) === value;
  });
}

async function render(browser, serverUrl, tag, attributes, file) {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 1200 }, deviceScaleFactor: 1,
    colorScheme: 'light', reducedMotion: 'reduce' });
  const page = await context.newPage();
  const query = new URLSearchParams([['figure', tag], ...attributes, ['theme', 'light']]);
  await page.goto(`${serverUrl}demos/frame.html?${query}`);
  const figure = page.locator(tag);
  await figure.evaluate((el) => Promise.race([el.ready.then(() => el.settled()),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${el.localName} did not settle in 180 s`)),
      180_000))]));
  const { alt, height } = await figure.evaluate((el) => ({
    alt: `${el.constructor.description} ${el.readoutText.trim()}`.trim(),
    height: Math.ceil(document.documentElement.getBoundingClientRect().height),
  }));
  const plots = figure.locator('[part~="plots"]');
  mkdirSync(dirname(join(POSTERS, file)), { recursive: true });
  await plots.screenshot({ path: join(POSTERS, file) });
  const box = await plots.boundingBox();
  await context.close();
  return { alt, height, poster: { file, width: Math.round(box.width), height: Math.round(box.height) } };
}

function stale() {
  const index = join(POSTERS, 'index.json');
  if (!existsSync(index)) return true;
  const inputs = [join(root, 'web/dist/gatelab.embed.js'), ...ARTICLES.map((p) => join(root, `web/demos/${p}.html`))];
  return inputs.some((file) => statSync(file).mtimeMs > statSync(index).mtimeMs);
}

function writeJson(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export async function buildPosters({
  site = process.env.GATELAB_SITE ?? 'http://127.0.0.1:8080/', only = null, log = console.log,
} = {}) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  configureShare({ webRoot: site });
  const index = { version, site: pinnedSite(version), width: WIDTH, figures: {}, anchors: {} };
  // --only refreshes some figures of an existing index and keeps the rest.
  const previous = join(POSTERS, 'index.json');
  if (only && existsSync(previous)) {
    const kept = JSON.parse(readFileSync(previous, 'utf8'));
    Object.assign(index, { figures: kept.figures, anchors: kept.anchors });
  }
  const server = await startServer({ port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu'] });
  try {
    const tags = Object.keys(FIGURES).filter((tag) => !only || only.includes(tag));
    for (const tag of tags) {
      const started = Date.now();
      index.figures[tag] = { title: `GateLab: ${FIGURES[tag].description}`,
        ...await render(browser, server.url, tag, [], `${tag}.png`) };
      log(`posters: ${tag} (${Date.now() - started} ms)`);
    }
    for (const page of only ? [] : ARTICLES) {
      for (const { tag, id, attributes } of articleAnchors(page)) {
        // Every anchor has its own file (the landing page links them by name); one that only
        // restates the defaults is a copy of the figure's poster.
        const file = `${page}/${id}.png`;
        let shown;
        if (isDefault(tag, attributes)) {
          mkdirSync(join(POSTERS, page), { recursive: true });
          copyFileSync(join(POSTERS, index.figures[tag].poster.file), join(POSTERS, file));
          shown = { ...index.figures[tag], poster: { ...index.figures[tag].poster, file } };
        } else {
          shown = await render(browser, server.url, tag, attributes, file);
        }
        index.anchors[`${page}#${id}`] = { tag, attributes, section: `demos/${page}.html#${id}`,
          title: `GateLab: ${FIGURES[tag].description}`, alt: shown.alt, height: shown.height, poster: shown.poster };
        log(`posters: ${page}#${id}`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  writeJson(join(POSTERS, 'index.json'), index);
  for (const tag of Object.keys(index.figures)) {
    writeJson(join(OEMBED, `${tag}.json`), oembedFor(`${index.site}demos/frame.html?figure=${tag}`, index));
  }
  for (const key of Object.keys(index.anchors)) {
    const [page, id] = key.split('#');
    writeJson(join(OEMBED, page, `${id}.json`), oembedFor(`${index.site}demos/${page}.html#${id}`, index));
  }
  for (const page of ARTICLES) {
    const json = oembedFor(`${index.site}demos/${page}.html`, index);
    if (json) writeJson(join(OEMBED, `${page}.json`), json);
  }
  return index;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--if-stale') && !stale()) process.exit(0);
  const only = option('--only')?.split(',');
  const index = await buildPosters({ site: option('--site') ?? process.env.GATELAB_SITE, only });
  console.log(`posters: ${Object.keys(index.figures).length} figures, `
    + `${Object.keys(index.anchors).length} anchors in ${POSTERS}`);
}
