// Shared set-up for the browser tests: the demo server in-process on a free port, Debian's
// Chromium driven by playwright-core, and pages that record every console error, failed
// request, CSP violation and request to a host other than 127.0.0.1.
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const artifacts = join(root, 'test-artifacts');
mkdirSync(artifacts, { recursive: true });

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

/** The built site's posters (web/dist/posters, `npm run posters`; the landing page and the
 *  oEmbed answers show them): made once here when a tree has none yet. */
function ensurePosters() {
  if (existsSync(join(root, 'web/dist/posters/index.json'))) return;
  const run = spawnSync(process.execPath, [join(root, 'scripts/posters.mjs')], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run posters failed:\n${run.stdout}${run.stderr}`);
}

/** Starts the server (startServer's options: cors, routes) and the browser; returns them with
 *  a close() for after(). */
export async function startSession(serverOptions = {}) {
  ensurePosters();
  const server = await startServer({ ...serverOptions, port: 0 });
  // launch() gives Chromium a fresh temporary profile of its own.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * A fresh page (own context) that records problems. `problems` lists console errors, page
 * errors, failed or 4xx/5xx requests, CSP violations and off-host requests.
 * @param {import('playwright-core').Browser} browser
 * @param {{ viewport?: object, colorScheme?: 'light'|'dark', reducedMotion?: 'reduce'|'no-preference' }} [options]
 */
export async function openPage(browser, { viewport = { width: 1280, height: 900 }, colorScheme = 'light',
  reducedMotion = 'no-preference' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /Content.Security.Policy|Refused to/i.test(text)) {
      problems.push(`console ${message.type()}: ${text}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed',
    (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  const noteRequest = (url) => {
    requests.push(url);
    const { protocol, hostname } = new URL(url);
    if (!['data:', 'blob:'].includes(protocol) && hostname !== '127.0.0.1') problems.push(`off-host request: ${url}`);
  };
  page.on('request', (request) => noteRequest(request.url()));
  page.on('worker', (worker) => {
    noteRequest(worker.url());
    worker.on('console', (message) => {
      if (message.type() === 'error') problems.push(`worker console error: ${message.text()}`);
    });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return { page, context, problems, requests };
}

/** Scrolls each figure into view (they start lazily) and waits until all have drawn and
 *  finished computing. */
export async function figuresSettled(page, selector = 'gatelab-exchange-plane') {
  // One figure at a time: a figure pauses off screen and its settled() waits until it is
  // visible again, so each is scrolled into view and settled before the next.
  const figures = await page.locator(selector).all();
  for (const [index, figure] of figures.entries()) {
    await figure.scrollIntoViewIfNeeded();
    try {
      await page.waitForFunction(([sel, i]) => document.querySelectorAll(sel)[i]?.lab, [selector, index],
        { timeout: 60_000 });
    } catch (error) {
      const readouts = await page.evaluate((sel) => [...document.querySelectorAll(sel)]
        .map((el) => `${el.id || el.localName}: defined=${!!el.shadowRoot} visible=${el.visible} `
          + `readout=${el.readoutText}`), selector);
      error.message += `\nfigures: ${readouts.join('; ')}`;
      throw error;
    }
    // A figure that still makes progress is not stuck: its 60 s bound restarts at each `step`
    // event, so a slow machine that trains steadily passes and a hung figure still fails.
    await figure.evaluate((el) => new Promise((resolve, reject) => {
      let timer;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => done(new Error(`${el.localName} made no progress for 60 s`)), 60_000);
      };
      const done = (error) => {
        clearTimeout(timer);
        el.removeEventListener('step', arm);
        if (error) reject(error); else resolve();
      };
      el.addEventListener('step', arm);
      arm();
      el.settled().then(() => done(), done);
    }));
  }
}

/** Pixel statistics of the canvases of the index-th figure matching selector, read in the page. */
export function canvasStats(page, selector = 'gatelab-exchange-plane', index = 0) {
  return page.evaluate(([sel, i]) => {
    const figure = document.querySelectorAll(sel)[i];
    return [...figure.shadowRoot.querySelectorAll('canvas')].map((canvas) => {
      const ctx = canvas.getContext('2d');
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const colors = new Set();
      let hash = 0;
      for (let i = 0; i < data.length; i += 4) {
        const rgb = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
        if (i % 64 === 0) colors.add(rgb);
        hash = (Math.imul(hash, 31) + rgb) | 0;
      }
      return { width: canvas.width, height: canvas.height, distinctColors: colors.size, hash };
    });
  }, [selector, index]);
}

/**
 * How the page's math came out: display equations, KaTeX errors, the first text node of
 * <main> outside `skip` (CSS selector) that still matches `raw` (TeX left untypeset) or null,
 * and how many KaTeX fonts loaded.
 */
export function typesetMath(page, { skip = '.katex, code, pre', raw = /\\\(|\$\$|\\sigma/ } = {}) {
  return page.evaluate(([skipSel, rawSource]) => {
    const pattern = new RegExp(rawSource);
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    let rawText = null;
    for (let node = walker.nextNode(); node && rawText === null; node = walker.nextNode()) {
      if (!node.parentElement.closest(skipSel) && pattern.test(node.data)) rawText = node.data;
    }
    return {
      display: document.querySelectorAll('.katex-display').length,
      errors: document.querySelectorAll('.katex-error').length,
      raw: rawText,
      fonts: [...document.fonts].filter((f) => f.family.startsWith('KaTeX') && f.status === 'loaded').length,
    };
  }, [skip, raw.source]);
}

/**
 * The point at fractions (fx, fy) of a locator's box, relative to its top-left corner, for
 * `locator.click({ position })` and `locator.hover({ position })`. Only the size is measured:
 * the locator action scrolls the element into view and finds it on the page itself, so a
 * layout change between two actions (the page scrolled, a line of text above grew) cannot
 * send the pointer to where the element used to be.
 */
export async function positionIn(locator, fx, fy) {
  const { width, height } = await locator.boundingBox();
  return { x: width * fx, y: height * fy };
}

export function screenshotPath(name) {
  return join(artifacts, `${name}.png`);
}
