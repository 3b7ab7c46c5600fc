// The Share / Embed dialog every figure has: keyboard- and screen-reader-operable (a native
// modal dialog named by its heading; focus in, trapped, back to the button), links for the
// CURRENT state pinned to gatelab@<package.json version>; the iframe snippet's URL and the
// script snippet reproduce the same picture; the iframe page (frame.html) takes theme and
// controls=0, and posts its height, which the optional host script applies. The poster snippet is
// the site's sized PNG for a default state, else a named download to upload (and says so); pasted
// in a 320 px column, neither overflows.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSession, openPage, figuresSettled, canvasStats, root } from '../harness.mjs';

const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const TAG = 'gatelab-exchange-plane';
const STYLE = 'style="max-width:100%;height:auto"';
const routes = {};

/** Inside-the-shadow active element of the figure: [tag, part]. */
function focused(page) {
  return page.evaluate(() => {
    const inner = document.activeElement?.shadowRoot?.activeElement;
    const name = inner && (inner.id.replace(/^gatelab-share-\d+-/, '') || inner.title || inner.textContent);
    if (!inner) return [document.activeElement?.tagName.toLowerCase()];
    return [inner.tagName.toLowerCase(), name, !!inner.closest('dialog')];
  });
}

async function openShare(page) {
  const button = page.locator(`${TAG} button[part~="share"]`);
  await button.focus();
  await page.keyboard.press('Enter');
  await page.locator(`${TAG} dialog[open]`).waitFor();
  return page.locator(TAG).evaluate((el) => Object.fromEntries(
    [...el.shadowRoot.querySelectorAll('dialog textarea')]
      .map((t) => [t.id.replace(/^gatelab-share-\d+-/, ''), t.value])));
}

describe('Share / Embed', () => {
  let session;
  before(async () => {
    session = await startSession({ routes });
  });
  after(() => session?.close());

  it('is a keyboard-operable modal dialog whose links carry the current state and the version', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(page);
    await page.locator(`${TAG} select`).selectOption('tanh');
    await figuresSettled(page);
    const fields = await openShare(page);
    const dialog = await page.locator(TAG).evaluate((el) => {
      const d = el.shadowRoot.querySelector('dialog');
      return { modal: d.matches(':modal'),
        name: el.shadowRoot.getElementById(d.getAttribute('aria-labelledby'))?.textContent,
        labels: [...d.querySelectorAll('textarea')].map((t) => t.labels[0]?.textContent) };
    });
    assert.equal(dialog.modal, true);
    assert.match(dialog.name, /Share or embed/);
    assert.deepEqual(dialog.labels, ['Permalink', 'Script snippet', 'Iframe snippet', 'Poster']);
    assert.deepEqual((await focused(page)).slice(0, 2), ['textarea', 'permalink'], 'focus moved into the dialog');
    // The page behind is inert: Tab cycles through the dialog (and the browser's own UI, where
    // the document has no focused element), never to the page.
    const seen = new Set();
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      const [tag, part, inDialog] = await focused(page);
      assert.ok(inDialog === true || tag === 'body', `focus left the dialog for ${tag}`);
      if (inDialog) seen.add(part);
    }
    assert.ok(seen.has('Copy the iframe snippet') && seen.has('Close'), [...seen].join(', '));
    const pinned = `${session.server.url}gatelab@${VERSION}/`;
    assert.ok(fields.script.startsWith(`<script type="module" src="${pinned}dist/gatelab.embed.js"></script>`),
      fields.script);
    assert.match(fields.script, /<gatelab-exchange-plane activation="tanh" seed="3">/);
    const escaped = pinned.replace(/[.?]/g, '\\$&');
    assert.match(fields.iframe, new RegExp(`^<iframe src="${escaped}demos/frame\\.html`
      + '\\?figure=gatelab-exchange-plane&amp;activation=tanh&amp;seed=3"'));
    assert.match(fields.iframe, / title="GateLab: [^"]+" loading="lazy" width="100%"/);
    assert.match(fields.permalink, new RegExp(`^${pinned.replace(/[.?]/g, '\\$&')}demos/frame\\.html\\?figure=`));
    assert.match(fields.poster,
      /<a href="[^"]+frame\.html[^"]*"><img src="[^"]+" width="\d+" height="\d+" style="[^"]+" alt="[^"]*gated[^"]*">/);
    assert.match(fields.poster, / style="max-width:100%;height:auto" /);
    await page.keyboard.press('Escape');
    assert.equal(await page.locator(`${TAG} dialog[open]`).count(), 0);
    assert.deepEqual((await focused(page)).slice(0, 2), ['button', 'Share or embed this figure in its current state'],
      'focus is back on the Share button');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('the iframe URL and the script snippet reproduce the same picture', async () => {
    // A post with the one-file embed in a 600 px column, without the site's own theme.
    const post = (body) => ({ body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Post</title>
<link rel="icon" href="/demos/favicon.svg"></head><body style="margin:0">\
<div style="width:600px">${body}</div></body></html>` });
    routes['/post/original.html'] = post(
      `<script type="module" src="/dist/gatelab.embed.js"></script><${TAG} seed="3"></${TAG}>`);
    const viewport = { width: 600, height: 2000 };
    const { page, context, problems } = await openPage(session.browser, { viewport });
    await page.goto(session.server.url + 'post/original.html');
    await figuresSettled(page);
    await page.locator(TAG).evaluate((el) => {
      el.min = -2;
      el.n = 48;
      el.activation = 'relu';
    });
    await figuresSettled(page);
    const original = { stats: await canvasStats(page), gaps: await page.locator(TAG).evaluate((el) => el.gaps) };
    const fields = await openShare(page);
    const src = fields.iframe.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
    assert.match(src, /activation=relu&min=-2&n=48&seed=3$/);
    assert.deepEqual(problems, []);
    await context.close();

    // The iframe page alone, as wide as that column.
    const frame = await openPage(session.browser, { viewport });
    await frame.page.goto(src);
    await figuresSettled(frame.page, TAG);
    assert.deepEqual(await canvasStats(frame.page), original.stats, 'the same pixels');
    assert.deepEqual(await frame.page.locator(TAG).evaluate((el) => el.gaps), original.gaps, 'the same numbers');
    assert.deepEqual(frame.problems, []);
    await frame.context.close();

    // The script snippet pasted in another post.
    routes['/post/script.html'] = post(fields.script);
    const copy = await openPage(session.browser, { viewport });
    await copy.page.goto(session.server.url + 'post/script.html');
    await figuresSettled(copy.page, TAG);
    assert.deepEqual(await canvasStats(copy.page), original.stats, 'the same pixels from the script snippet');
    assert.deepEqual(copy.problems, []);
    await copy.context.close();
  });

  it('the poster: the site\'s, sized, by default; else a named download, upload note; both fit 320 px', async () => {
    const index = JSON.parse(readFileSync(join(root, 'web/dist/posters/index.json'), 'utf8'));
    const pinned = `${session.server.url}gatelab@${VERSION}/`;
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}demos/frame.html?figure=${TAG}`);
    await figuresSettled(page, TAG);
    const prebuilt = (await openShare(page)).poster;
    const { width, height } = index.figures[TAG].poster;
    assert.equal(prebuilt, `<a href="${pinned}demos/frame.html?figure=${TAG}&amp;seed=1">`
      + `<img src="${pinned}dist/posters/${TAG}.png" width="${width}" height="${height}" ${STYLE} `
      + `alt="${index.figures[TAG].alt}"></a>`);
    assert.equal(await page.locator(`${TAG} dialog a.share-open`, { hasText: 'Open the poster' }).getAttribute('href'),
      `${pinned}dist/posters/${TAG}.png`);
    await page.keyboard.press('Escape');

    await page.locator(TAG).evaluate((el) => (el.activation = 'gelu'));
    await figuresSettled(page, TAG);
    const own = (await openShare(page)).poster;
    const file = `${TAG}_activation-gelu_seed-1.png`;
    assert.match(own, new RegExp(`^<!-- This state has no poster on the GateLab site: download ${file} .*upload it`));
    assert.match(own, new RegExp(`<img src="${file}" width="\\d+" height="\\d+" ${STYLE} alt="[^"]+GELU`));
    assert.doesNotMatch(own, /Loading…/);
    assert.equal(await page.locator(`${TAG} dialog a.share-open`, { hasText: 'Open the poster' }).isVisible(), false);
    const hint = await page.locator(`${TAG} dialog .share-hint`).nth(3).textContent();
    assert.match(hint, /no poster on the GateLab site: download/);
    const [download] = await Promise.all([page.waitForEvent('download'),
      page.locator(`${TAG} dialog button[part~="share-png"]`).click()]);
    assert.equal(download.suggestedFilename(), file, 'the download is the file the snippet names');
    const png = readFileSync(await download.path());
    const size = own.match(/width="(\d+)" height="(\d+)"/).slice(1).map(Number);
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], size, 'sized as the downloaded picture (1× screen)');
    await context.close();

    // Both snippets pasted in a 320 px phone's column, the picture uploaded beside the post.
    routes[`/post/${file}`] = { body: png, type: 'image/png' };
    routes['/post/posters.html'] = { body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Post</title><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/demos/favicon.svg"></head>
<body style="margin:0"><main style="padding:0 16px">${prebuilt}\n${own}</main></body></html>` };
    const phone = await openPage(session.browser, { viewport: { width: 320, height: 640 } });
    await phone.page.goto(session.server.url + 'post/posters.html');
    const images = await phone.page.evaluate(() => Promise.all([...document.images].map(async (img) => {
      await img.decode();
      const box = img.getBoundingClientRect();
      return { natural: img.naturalWidth, right: box.right, width: box.width };
    })));
    assert.equal(images.length, 2);
    for (const img of images) assert.ok(img.natural > 250 && img.right <= 304.5, JSON.stringify(img));
    assert.equal(await phone.page.evaluate(() => document.documentElement.scrollWidth), 320);
    assert.deepEqual([...problems, ...phone.problems], []);
    await phone.context.close();
  });

  it('in an article, the permalink keeps the reader in the article and reproduces the state', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}demos/paper-a.html`);
    const scaling = page.locator('#scaling');
    await scaling.scrollIntoViewIfNeeded();
    await scaling.evaluate(async (el) => {
      await customElements.whenDefined(el.localName);
      await el.ready;
      el.alpha = 2.5;
      el.activation = 'gelu';
      await el.settled();
    });
    await scaling.locator('button[part~="share"]').click();
    // The dialog fills its fields when it opens (after the version and the poster index load).
    await scaling.locator('dialog[open]').waitFor();
    const permalink = await scaling.evaluate((el) => el.shadowRoot.querySelector('textarea[id$="-permalink"]').value);
    const pinned = `${session.server.url}gatelab@${VERSION}/`;
    assert.ok(permalink.startsWith(`${pinned}demos/paper-a.html#`), permalink);
    const hash = new URLSearchParams(new URL(permalink).hash.slice(1));
    assert.deepEqual([hash.get('scaling.alpha'), hash.get('scaling.activation'), hash.get('scaling.seed')],
      ['2.5', 'gelu', '1']);
    await context.close();
    const again = await openPage(session.browser);
    await again.page.goto(permalink);
    const figure = again.page.locator('#scaling');
    await figure.scrollIntoViewIfNeeded();
    assert.deepEqual(await figure.evaluate(async (el) => {
      await customElements.whenDefined(el.localName);
      await el.ready;
      return [el.alpha, el.activation];
    }), [2.5, 'gelu']);
    assert.deepEqual([...problems, ...again.problems], []);
    await again.context.close();
  });

  it('an iframe on a host page grows to the height the frame posts (frame-host.js)', async () => {
    const src = `${session.server.url}gatelab@${VERSION}/demos/frame.html?figure=${TAG}&activation=gelu&seed=2`;
    routes['/post/iframe.html'] = { body: `<!doctype html><html lang="en"><head><meta charset="utf-8">\
<title>Post</title>
<link rel="icon" href="/demos/favicon.svg"></head><body><h1>Iframe</h1>
<iframe src="${src}" title="GateLab" loading="lazy" width="100%" height="150" style="width: 100%; border: 0;"></iframe>
<script async src="${session.server.url}gatelab@${VERSION}/hosts/frame-host.js"></script></body></html>` };
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(session.server.url + 'post/iframe.html');
    const inner = page.frameLocator('iframe').locator(TAG);
    await inner.evaluate((el) => el.ready.then(() => el.settled()));
    await page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 400);
    const sizes = await page.evaluate(async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { frame: document.querySelector('iframe').getBoundingClientRect().height };
    });
    const content = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(Math.abs(sizes.frame - content) <= 1, `iframe ${sizes.frame} px for content ${content} px`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('frame.html takes theme=dark and controls=0, and names what it cannot show', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}demos/frame.html?figure=${TAG}&theme=dark&controls=0&seed=4&bogus=1`);
    await figuresSettled(page, TAG);
    const look = await page.locator(TAG).evaluate((el) => {
      const [r, g, b] = el.shadowRoot.querySelector('canvas').getContext('2d').getImageData(1, 1, 1, 1).data;
      return { luminance: 0.2126 * r + 0.7152 * g + 0.0722 * b,
        controls: el.shadowRoot.querySelector('.controls').checkVisibility(),
        seed: el.seed, bogus: el.hasAttribute('bogus'),
        oembed: document.querySelector('link[type="application/json+oembed"]')?.href ?? null };
    });
    assert.ok(look.luminance < 60, `dark background (${look.luminance})`);
    assert.deepEqual([look.controls, look.seed, look.bogus, look.oembed], [false, 4, false, null]);
    await page.goto(`${session.server.url}demos/frame.html?figure=${TAG}`);
    await figuresSettled(page, TAG);
    assert.match(await page.locator('link[type="application/json+oembed"]').getAttribute('href'),
      /\/dist\/oembed\/gatelab-exchange-plane\.json$/);
    await page.goto(`${session.server.url}demos/frame.html?figure=gatelab-nope`);
    assert.match(await page.locator('.frame-note').textContent(), /No GateLab figure is called "gatelab-nope"/);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
