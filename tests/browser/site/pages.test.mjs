// Every demo page in real Chromium: loads with no console error, no failed request and no
// request off 127.0.0.1; its figures draw (non-blank canvases) and compute their numbers; the
// article's math is typeset. Screenshots go to test-artifacts/, with the time from navigation
// to the first drawn figure in test-artifacts/timings.json.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startSession, openPage, figuresSettled, canvasStats, screenshotPath, artifacts, typesetMath, root,
} from '../harness.mjs';
import { FIGURES } from '../../../web/components/index.js';

// The landing page (demos/index.html) has its own test below (a live figure first, measured).
const PAGES = ['demos/paper-a.html', 'demos/embed.html', 'demos/csp.html'];

describe('demo pages', () => {
  let session;
  const timings = {};
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    writeFileSync(join(artifacts, 'timings.json'), JSON.stringify(timings, null, 2) + '\n');
    await session?.close();
  });

  for (const path of PAGES) {
    it(`${path} loads cleanly and its figures draw`, async () => {
      const { page, context, problems, requests } = await openPage(session.browser);
      await page.goto(session.server.url + path, { waitUntil: 'load' });
      await figuresSettled(page);
      const figures = await page.locator('gatelab-exchange-plane').count();
      assert.ok(figures >= 1, 'the page has a figure');
      for (let i = 0; i < figures; i++) {
        const stats = await canvasStats(page, 'gatelab-exchange-plane', i);
        assert.equal(stats.length, 2, 'heatmap and curve');
        for (const canvas of stats) {
          assert.ok(canvas.width >= 100 && canvas.height >= 100, `canvas ${canvas.width}x${canvas.height}`);
          assert.ok(canvas.distinctColors > 10, `canvas is not blank (${canvas.distinctColors} colours)`);
        }
      }
      const readout = await page.locator('gatelab-exchange-plane').first().evaluate((el) => el.readoutText);
      assert.match(readout, /gated \S+, symmetric \S+, MLP n\/a/);
      await page.screenshot({ path: screenshotPath(path.replace(/\W+/g, '_')), fullPage: true });
      assert.ok(requests.length > 3);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }

  it('the root redirects to the demos', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url);
    await page.waitForURL(/\/demos\/$/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the article typesets its math with the local KaTeX', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/paper-a.html');
    await page.waitForSelector('.katex-display');
    const counts = await typesetMath(page, { skip: '.katex' });
    assert.ok(counts.display >= 6, `${counts.display} display equations`);
    assert.equal(counts.errors, 0);
    assert.equal(counts.raw, null, 'no raw TeX left');
    assert.ok(counts.fonts >= 1, 'KaTeX fonts loaded from /vendor/katex');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the first figure draws soon after navigation', async () => {
    const { page, context } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    const ready = await page.evaluate(() => new Promise((resolve) => {
      const figure = document.querySelector('gatelab-exchange-plane');
      figure.ready.then(
        () => resolve(performance.getEntriesByName('gatelab:ready:gatelab-exchange-plane')[0]?.startTime));
    }));
    timings.navigationToFirstFigureMs = Math.round(ready);
    assert.ok(ready > 0 && ready < 10_000, `first figure after ${ready} ms`);
    await context.close();
  });

  it('the landing page draws a live figure above the fold, shows a poster gallery and the embed forms',
    async () => {
    const version = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).version;
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/index.html');
    const ready = await page.evaluate(() => new Promise((resolve) => {
      const figure = document.getElementById('hero');
      customElements.whenDefined('gatelab-exchange-plane').then(() => figure.ready)
        .then(() => resolve(performance.getEntriesByName('gatelab:ready:gatelab-exchange-plane')[0]?.startTime));
    }));
    timings.landingFirstDrawMs = Math.round(ready);
    // The time is reported, not judged: a test must not depend on the machine's speed (a loaded
    // 2-core runner took 1.96 s). The bound only catches a figure that never draws.
    assert.ok(ready > 0 && ready < 10_000, `landing figure drawn after ${ready} ms`);
    const hero = await page.locator('#hero').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(hero < 900, `the figure starts ${hero} px down, above the fold`);
    await figuresSettled(page, '#hero');
    assert.ok((await canvasStats(page, '#hero')).every((c) => c.distinctColors > 10), 'the figure drew');
    // The gallery: a poster per figure, each linking to its section of an article (or, for a figure no
    // article holds yet, to its own frame page).
    const gallery = await page.evaluate(async () => Promise.all([...document.querySelectorAll('.gallery a')]
      .map(async (a) => {
      const img = a.querySelector('img');
      img.loading = 'eager';
      await img.decode();
      return { href: a.getAttribute('href'), width: img.naturalWidth, text: a.textContent.trim() };
    })));
    const shown = [];
    for (const item of gallery) {
      assert.ok(item.width > 300 && item.text.length > 5, JSON.stringify(item));
      if (item.href.startsWith('frame.html?')) {
        shown.push(new URLSearchParams(item.href.split('?')[1]).get('figure'));
        continue;
      }
      const [file, anchor] = item.href.split('#');
      const html = readFileSync(`${root}/web/demos/${file}`, 'utf8');
      const tag = html.match(new RegExp(`<(gatelab-[a-z-]+) id="${anchor}"`))?.[1];
      assert.ok(tag, `${item.href} is a figure of the article`);
      shown.push(tag);
    }
    assert.deepEqual(shown.sort(), Object.keys(FIGURES).sort(), 'the gallery shows every figure once');
    // The "use it" strip: the live figure's three embed forms, pinned, following its state. In
    // its default state the poster is the site's prebuilt one, absolute, sized, with its alt text.
    const pinned = `${session.server.url}gatelab@${version}/`;
    const index = JSON.parse(readFileSync(`${root}/web/dist/posters/index.json`, 'utf8'));
    const posters = index.figures['gatelab-exchange-plane'];
    const forms = () => page.evaluate(() => ['script', 'iframe', 'poster']
      .map((k) => document.getElementById(`use-${k}`).textContent));
    await page.waitForFunction((site) => document.getElementById('use-poster').textContent.includes(site), pinned);
    assert.equal((await forms())[2], `<a href="${pinned}demos/frame.html?figure=gatelab-exchange-plane&amp;`
      + `activation=silu&amp;seed=1"><img src="${pinned}dist/posters/gatelab-exchange-plane.png" `
      + `width="${posters.poster.width}" height="${posters.poster.height}" style="max-width:100%;height:auto" `
      + `alt="${posters.alt}"></a>`);
    assert.equal(await page.locator('#use-poster-note').isVisible(), false);
    await page.locator('#hero select').selectOption('gelu');
    await figuresSettled(page, '#hero');
    await page.waitForFunction(() => document.getElementById('use-poster').textContent.includes('gelu'));
    const [script, iframe, poster] = await forms();
    assert.match(script, new RegExp(`gatelab@${version}/dist/gatelab\\.embed\\.js`));
    assert.match(script, /<gatelab-exchange-plane activation="gelu" seed="1">/);
    assert.match(iframe, /<iframe src="[^"]+frame\.html\?figure=gatelab-exchange-plane&amp;activation=gelu&amp;seed=1/);
    // Another state: the picture to download (named as the snippet says) and upload, with a note.
    const file = 'gatelab-exchange-plane_activation-gelu_seed-1.png';
    assert.match(poster, new RegExp(`^<!-- This state has no poster on the GateLab site: download ${file}`));
    const site = pinned.replace(/[.?]/g, '\\$&');
    assert.match(poster, new RegExp(`<a href="${site}demos/frame\\.html\\?figure=gatelab-exchange-plane&amp;`
      + `activation=gelu&amp;seed=1"><img src="${file}" width="\\d+" height="\\d+" style="max-width:100%;height:auto" `
      + 'alt="[^"]*GEGLU[^"]*"></a>$'));
    assert.doesNotMatch(poster, /Loading…/);
    assert.match(await page.locator('#use-poster-note').textContent(), /upload it with your post/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#use-poster-download').click()]);
    assert.equal(download.suggestedFilename(), file);
    await page.screenshot({ path: screenshotPath('demos_index_html') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
