// The built site's posters and oEmbed answers (npm run posters: scripts/posters.mjs): a PNG with
// alt text from the readout for every figure and article anchor; static oEmbed JSON (type rich,
// the iframe snippet, the poster as thumbnail) discovered from the articles; the ?url= resolver
// a host can run (web/hosts/oembed.js); and each element showing its poster, or a text summary,
// until it upgrades and draws.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSession, openPage, figuresSettled, canvasStats, root } from '../harness.mjs';
import { FIGURES } from '../../../web/components/index.js';
import { oembedFor } from '../../../web/hosts/oembed.js';

const TAG = 'gatelab-exchange-plane';
const routes = {
  '/post/no-script.html': { body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Feed</title>
<link rel="icon" href="/demos/favicon.svg"></head><body>
<${TAG} seed="1"><img slot="poster" src="/dist/posters/${TAG}.png" alt="The exchange plane"></${TAG}>
<div style="height: 4000px"></div><${TAG} id="far" seed="2"></${TAG}></body></html>` },
};

describe('posters and oEmbed', () => {
  let session;
  let index;
  before(async () => {
    session = await startSession({ routes });
    index = JSON.parse(readFileSync(join(root, 'web/dist/posters/index.json'), 'utf8'));
  });
  after(() => session?.close());

  it('every figure and article anchor has a PNG poster with alt text from its readout', () => {
    assert.deepEqual(Object.keys(index.figures).sort(), Object.keys(FIGURES).sort());
    const anchors = Object.keys(index.anchors);
    assert.ok(['paper-a#race', 'paper-a#lm', 'paper-b#gp'].every((a) => anchors.includes(a)), anchors.join());
    for (const entry of [...Object.values(index.figures), ...Object.values(index.anchors)]) {
      const png = readFileSync(join(root, 'web/dist/posters', entry.poster.file));
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', entry.poster.file);
      assert.equal(png.readUInt32BE(16), entry.poster.width, entry.poster.file);
      assert.ok(entry.poster.width >= 600 && entry.poster.height >= 150,
        `${entry.poster.file} ${entry.poster.width}×${entry.poster.height}`);
      assert.ok(entry.alt.length > 60 && !/Loading…|could not be computed/.test(entry.alt), entry.alt);
    }
    assert.match(index.figures['gatelab-race'].alt, /test accuracy/);
    // The language-model figure's poster shows its trained curves: its alt names the models' losses.
    assert.match(index.figures['gatelab-lm'].alt, /Validation loss at step [\d,]+, nats per character.*SwiGLU [\d.]+/);
    // The symmetry figures' posters are drawn from their results: the orbit's numbers, the drift's.
    assert.match(index.figures['gatelab-teleport'].alt,
      /unit 1 at c = 2: training loss [\d.]+ .*‖∇L‖ [\d.]+.*plain descent/);
    assert.match(index.figures['gatelab-conservation'].alt, /balance drift .*ReGLU .*SwiGLU/);
    // The conditioning figure's poster is drawn after its six runs: its alt gives each model's κ.
    assert.match(index.figures['gatelab-conditioning'].alt,
      /SwiGLU \(\d+ units, \d+ parameters\): κ [\d.]+(?: × 10\S+)? at step 0/);
  });

  it('static oEmbed JSON per figure and per anchor, discovered from the articles, opens the same figure', async () => {
    const { page, context, problems } = await openPage(session.browser);
    for (const article of ['paper-a', 'paper-b']) {
      await page.goto(`${session.server.url}demos/${article}.html`, { waitUntil: 'domcontentloaded' });
      const href = await page.locator('link[rel="alternate"][type="application/json+oembed"]').evaluate((l) => l.href);
      const json = await (await fetch(href)).json();
      assert.equal(json.type, 'rich');
    }
    assert.ok(index.figures['gatelab-lm'] && index.anchors['paper-a#lm'], 'the language-model figure has its posters');
    const files = [...Object.keys(index.figures).map((tag) => `${tag}.json`),
      ...Object.keys(index.anchors).map((key) => `${key.replace('#', '/')}.json`)];
    for (const file of files) {
      const response = await fetch(`${session.server.url}dist/oembed/${file}`);
      assert.equal(response.status, 200, file);
      const json = await response.json();
      assert.equal(json.version, '1.0');
      assert.equal(json.type, 'rich');
      assert.match(json.html,
        new RegExp(String.raw`^<iframe src="[^"]+demos\/frame\.html\?figure=gatelab-[a-z-]+[^"]*" `
          + String.raw`title="GateLab: [^"]+" loading="lazy" width="100%" height="\d+"`));
      assert.ok(Number.isInteger(json.width) && Number.isInteger(json.height), file);
      assert.ok(json.thumbnail_url.startsWith(`${index.site}dist/posters/`) && json.thumbnail_width > 0, file);
    }
    // The anchor's iframe, rebased from the site onto this server, shows that figure in that state.
    const race = JSON.parse(readFileSync(join(root, 'web/dist/oembed/paper-a/scaling.json'), 'utf8'));
    const src = race.html.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&')
      .replace(index.site, `${session.server.url}gatelab@${index.version}/`);
    await page.goto(src);
    await figuresSettled(page, 'gatelab-scaling');
    assert.deepEqual(await page.locator('gatelab-scaling').evaluate((el) => [el.alpha, el.activation]), [-0.5, 'relu']);
    assert.ok((await canvasStats(page, 'gatelab-scaling')).every((c) => c.distinctColors > 8));
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('answers ?url= queries from the posters index (web/hosts/oembed.js)', () => {
    const site = index.site;
    assert.equal(oembedFor(`${site}demos/paper-a.html#race`, index).title, index.anchors['paper-a#race'].title);
    assert.match(oembedFor(`${site}demos/paper-a.html#race`, index).html, /figure=gatelab-race&amp;task=xor/);
    assert.match(oembedFor(`${site}demos/paper-b.html`, index).html, /figure=gatelab-energy/);
    const custom = oembedFor(`${site}demos/frame.html?figure=${TAG}&activation=gelu&seed=9`, index);
    assert.match(custom.html, /activation=gelu&amp;seed=9/);
    assert.equal(custom.thumbnail_url, undefined, 'no prebuilt poster for a custom state');
    const unpinned = site.replace(/gatelab@[^/]+\/$/, '');
    assert.ok(oembedFor(`${unpinned}demos/frame.html?figure=${TAG}`, index).thumbnail_url);
    assert.equal(oembedFor(`${site}demos/frame.html?figure=gatelab-nope`, index), null);
    assert.equal(oembedFor('https://elsewhere.example/demos/paper-a.html', index), null);
    assert.equal(oembedFor('not a url', index), null);
  });

  it('an element shows its poster before it upgrades, a text summary before it draws, neither after', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}post/no-script.html`);
    const img = page.locator(`${TAG} > img[slot="poster"]`);
    await img.evaluate((el) => el.decode());
    assert.equal(await img.evaluate((el) => el.checkVisibility() && el.naturalWidth > 600), true,
      'no JavaScript: the poster shows');
    await page.addScriptTag({ type: 'module', url: '/dist/gatelab.embed.js' });
    await page.locator(TAG).first().evaluate((el) => customElements.whenDefined(el.localName).then(() => el.ready));
    const after = await page.evaluate(() => {
      const [near, far] = document.querySelectorAll('gatelab-exchange-plane');
      const poster = (el) => el.shadowRoot.querySelector('[part~="poster"]');
      return { nearPoster: poster(near).checkVisibility(), imgVisible: near.querySelector('img').checkVisibility(),
        farPoster: poster(far).checkVisibility({ visibilityProperty: true }) || !poster(far).hidden,
        farText: poster(far).textContent, farStarted: !!far.lab };
    });
    assert.equal(after.nearPoster, false, 'drawn: the poster is gone');
    assert.equal(after.imgVisible, false);
    assert.equal(after.farStarted, false, 'the far figure waits');
    assert.equal(after.farPoster, true);
    assert.match(after.farText, /exchange gap of random layers.*loads when it comes into view/);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
