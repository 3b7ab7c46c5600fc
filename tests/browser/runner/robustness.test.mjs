// The embed on real blog pages: two copies on one page (two posts of an index page, one from a
// CDN) do not clash; a page with every figure keeps its wasm memory bounded, stops all work
// (worker messages, animation frames) once the figures leave the DOM and frees the worker's
// sessions; figures put back resume (training goes on from the step it reached).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../../scripts/serve.mjs';
import { startSession, openPage, figuresSettled, canvasStats, artifacts } from '../harness.mjs';
import { FIGURES } from '../../../web/components/index.js';

const TAGS = Object.keys(FIGURES);
// The language-model figure trains for minutes by default; this page tests memory and quiet
// (not training), so it trains briefly and settles like the other figures do.
const SHORT = { 'gatelab-lm': ' steps="50" seeds="1"' };
const page = (body) => ({ body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Index</title>
<link rel="icon" href="/demos/favicon.svg"></head><body><main>${body}</main></body></html>` });

/** Counts the page's worker messages and animation frames (installed before any script). */
function counters() {
  window.__counts = { messages: 0, frames: 0 };
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => window.__counts.messages++);
    }
  };
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => {
    window.__counts.frames++;
    return raf(callback);
  };
}

describe('the embed on blog pages', () => {
  let session;
  let cdn;
  const routes = {};
  before(async () => {
    cdn = await startServer({ port: 0, cors: true });
    Object.assign(routes, {
      '/blog/two-copies.html': page(`<article><script type="module" src="/dist/gatelab.embed.js"></script>
<gatelab-exchange-plane id="a" seed="1"></gatelab-exchange-plane></article>
<article><script type="module" src="${cdn.url}dist/gatelab.embed.js"></script>
<gatelab-exchange-plane id="b" activation="gelu" seed="2"></gatelab-exchange-plane>\
<gatelab-energy id="c"></gatelab-energy></article>`),
      '/blog/every-figure.html': page(`<script type="module" src="/dist/gatelab.embed.js"></script>
${TAGS.map((tag) => `<div class="slot"><${tag}${SHORT[tag] ?? ''}></${tag}></div>`).join('\n')}`),
      '/blog/resume.html': page(`<script type="module" src="/dist/gatelab.embed.js"></script>
<div id="holder"><gatelab-race steps="20000" seeds="1" models="gated:silu,mlp:relu"></gatelab-race>
<gatelab-gp train-steps="5000"></gatelab-gp></div>`),
    });
    session = await startSession({ routes });
  });
  after(async () => {
    await session?.close();
    await cdn?.close();
  });

  it('two copies of the embed on one page do not clash', async () => {
    const { page: p, context, problems } = await openPage(session.browser);
    await p.goto(`${session.server.url}blog/two-copies.html`);
    await figuresSettled(p, '#a, #b, #c');
    for (const id of ['#a', '#b', '#c']) {
      assert.ok((await canvasStats(p, id)).every((c) => c.distinctColors > 8), `${id} drew`);
    }
    const copies = await p.evaluate(async (urls) => Promise.all(urls.map(async (url) => {
      const copy = await import(url);
      const runner = copy.sharedRunner();
      const gaps = await runner.run('exchangeGaps', { activation: 'relu', seed: 5 });
      return { mode: runner.mode, gated: gaps.gated,
        defines: copy.FIGURES['gatelab-exchange-plane'] === customElements.get('gatelab-exchange-plane') };
    })), ['/dist/gatelab.embed.js', `${cdn.url}dist/gatelab.embed.js`]);
    assert.deepEqual(copies.map((c) => c.mode), ['worker', 'worker']);
    assert.equal(copies[0].gated, copies[1].gated, 'both copies compute the same numbers');
    assert.equal(copies.filter((c) => c.defines).length, 1, 'one copy registered the elements, the other stood back');
    assert.deepEqual(await p.evaluate(() => [window.a.gaps.gated > 0, window.b.activation, window.c.result !== null]),
      [true, 'gelu', true]);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a page with every figure keeps its memory bounded and stops all work when they leave the DOM', async () => {
    const { page: p, context, problems } = await openPage(session.browser);
    await context.addInitScript(counters);
    await p.goto(`${session.server.url}blog/every-figure.html`);
    const memory = () => p.evaluate(async () => {
      const embed = await import('/dist/gatelab.embed.js');
      const lab = await embed.sharedLab();
      const worker = await embed.sharedRunner().run('labMemory');
      return { main: lab.heapBytes(), worker: worker.heapBytes, workerLive: worker.liveObjects };
    });
    await figuresSettled(p, TAGS.join(', '));
    const first = await memory();
    // Out of the DOM: once the chunks in flight have answered, no worker message and no frame;
    // then, after releaseDelay, freed. Both are waited for by what happens, not by a fixed time,
    // so a loaded machine (chunks answering late) passes and a figure that keeps working fails.
    await p.evaluate((tags) => {
      for (const tag of tags) customElements.get(tag).releaseDelay = 8000;
      window.__holders = [...document.querySelectorAll('.slot')].map((slot) => [slot, slot.firstElementChild]);
      for (const [, figure] of window.__holders) figure.remove();
    }, TAGS);
    const quiet = await p.evaluate(async () => {
      const wait = (ms) => new Promise((r) => setTimeout(r, ms));
      const start = performance.now();
      let seen = { ...window.__counts };
      let since = start;
      // In-flight chunks may still answer: wait for 700 ms without a message or a frame (within
      // 6 s of leaving, well before the release at 8 s), then watch 800 ms more.
      while (performance.now() - since < 700) {
        if (performance.now() - start > 6000) return { settled: false, ...window.__counts };
        await wait(50);
        const now = window.__counts;
        if (now.messages !== seen.messages || now.frames !== seen.frames) {
          [seen, since] = [{ ...now }, performance.now()];
        }
      }
      const before = { ...window.__counts };
      await wait(800);
      return { settled: true, messages: window.__counts.messages - before.messages,
        frames: window.__counts.frames - before.frames };
    });
    assert.deepEqual(quiet, { settled: true, messages: 0, frames: 0 }, 'no work while out of the DOM');
    let released = await memory();
    for (const end = Date.now() + 30_000; released.workerLive !== 0 && Date.now() < end;) {
      await p.waitForTimeout(250);
      released = await memory();
    }
    assert.equal(released.workerLive, 0, 'the worker freed every session');
    // Back in: everything computes again, in the memory it had.
    await p.evaluate(() => window.__holders.forEach(([slot, figure]) => slot.append(figure)));
    await figuresSettled(p, TAGS.join(', '));
    const second = await memory();
    const MiB = 1 << 20;
    writeFileSync(join(artifacts, 'embed-memory.json'),
      `${JSON.stringify({ figures: TAGS.length, first, released, second }, null, 2)}\n`);
    assert.ok(second.main <= first.main + MiB && second.worker <= first.worker + MiB,
      `no growth: main ${first.main} -> ${second.main}, worker ${first.worker} -> ${second.worker}`);
    assert.ok(first.main <= 64 * MiB && first.worker <= 64 * MiB,
      `bounded: main ${first.main / MiB} MiB, worker ${first.worker / MiB} MiB`);
    for (const tag of TAGS) {
      assert.ok((await canvasStats(p, tag)).every((c) => c.distinctColors > 8), `${tag} drew again`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('a figure removed and put back resumes where it was', async () => {
    // Tall enough for both figures to be on screen (figures start near the viewport).
    const { page: p, context, problems } = await openPage(session.browser, { viewport: { width: 1000, height: 4000 } });
    await p.goto(`${session.server.url}blog/resume.html`);
    const progress = () => p.evaluate(() => {
      return { race: window.__raceSteps ?? 0, gp: window.__gp.results?.stepsDone ?? 0 };
    });
    await p.evaluate(() => {
      window.__gp = document.querySelector('gatelab-gp');
      document.querySelector('gatelab-race').addEventListener('step', (e) => (window.__raceSteps = e.detail.stepsDone));
    });
    await p.waitForFunction(() => (window.__raceSteps ?? 0) > 50 && window.__gp.results?.stepsDone > 10,
      null, { timeout: 60_000 });
    await p.evaluate(() => {
      window.__holder = document.getElementById('holder');
      window.__holder.remove();
    });
    // The turns in flight finish (any length on a slow machine); then nothing may move.
    let paused = await progress();
    for (const end = Date.now() + 30_000; Date.now() < end;) {
      await p.waitForTimeout(500);
      const now = await progress();
      if (now.race === paused.race && now.gp === paused.gp) break;
      paused = now;
    }
    await p.waitForTimeout(800);
    assert.deepEqual(await progress(), paused, 'nothing trains out of the page');
    await p.evaluate(() => document.querySelector('main').append(window.__holder));
    await p.waitForFunction((at) => window.__raceSteps > at.race && window.__gp.results.stepsDone > at.gp,
      paused, { timeout: 60_000 });
    const resumed = await progress();
    assert.ok(resumed.race > paused.race && resumed.gp > paused.gp,
      `resumed ${JSON.stringify(resumed)} after ${JSON.stringify(paused)}`);
    assert.deepEqual(problems, []);
    await context.close();
  });
});
