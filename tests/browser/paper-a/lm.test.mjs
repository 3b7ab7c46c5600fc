// <gatelab-lm> in real Chromium under the strict CSP: its models train one per worker (the pool
// takes hardwareConcurrency − 1 workers) and every run's validation curve equals the native
// runner's `lm-job --experiment lm-figure` bit for bit, with the same train losses, initial MLP
// output RMS, antisymmetric shares and final sample; three seeds give a band and the paired
// interval of lab.stats; a reload resumes from the IndexedDB checkpoints and still matches the
// native run; "Start over" and a changed setting start afresh; keyboard controls, temperature resampling, pause
// off screen and in a hidden tab; 320 px, dark mode, PNG / CSV / JSON export.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled, canvasStats, screenshotPath } from '../harness.mjs';
import { cornerLuminance, exportAll, overflow, settled, settledAll } from './fixture.mjs';
import { runNative } from '../../../scripts/experiments/native.mjs';
import { loadGateLab } from '../../../web/lib/gatelab.js';

const TAG = 'gatelab-lm';
const TEXT = 'data/lm/sotu-1790-1880.txt';
const nine = (v) => (Number.isFinite(v) ? Number(v.toPrecision(9)) : null);  // as the runner's JSON writes it

/** The native runner's job for one of the figure's runs (`steps` steps). */
function nativeJob(run, steps) {
  return runNative('lm-job', ['--experiment', 'lm-figure', '--text', TEXT, '--variant', run.model, '--phase', 'main',
    '--seed', String(run.seed), '--lr', String(run.learningRate), '--steps', String(steps)], { quiet: true });
}

/** Every run of the figure equals its native job: curve, train losses, RMS, shares, sample. */
async function assertNative(results) {
  for (const run of results.runs) {
    const job = await nativeJob(run, results.steps);
    const name = `${run.model} seed ${run.seed}`;
    assert.deepEqual(run.curveSteps, job.curveSteps, name);
    assert.deepEqual(run.curveValLoss, job.curveValLoss, `${name}: validation curve bit for bit`);
    assert.deepEqual(run.curveTrainLoss.map(nine), job.curveTrainLoss, `${name}: train losses`);
    assert.equal(nine(Math.fround(run.initRms)), job.initRms,
      `${name}: initial MLP output RMS (a float in the session)`);
    assert.equal(run.parameters, job.parameters);
    assert.deepEqual(run.diagnostics.map((blocks) => blocks.map((b) => nine(b.antisymmetricShare))),
      job.diagnostics.map((blocks) => blocks.map((b) => b.antisymmetricShare)), `${name}: antisymmetric shares`);
    if (run.sample?.temperature === 0.8 && run.sample.step === results.steps) {
      assert.equal(run.sample.text, job.sample, `${name}: sample`);
    }
  }
}

function results(page) {
  return page.locator(TAG).evaluate((el) => el.results);
}

describe('<gatelab-lm>', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  /**
   * csp.html with its <main> replaced by `markup`; `cores` fakes navigator.hardwareConcurrency;
   * `reload` reloads the page of an earlier lmPage() instead of opening one.
   */
  async function lmPage(markup, { cores = null, wait = true, reload = null, url = 'demos/csp.html', noWorker = false,
    ...options } = {}) {
    const opened = reload ?? await openPage(session.browser, options);
    if (cores && !reload) {
      await opened.context.addInitScript(
        (n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), cores);
    }
    if (noWorker && !reload) await opened.context.addInitScript(() => delete globalThis.Worker);
    if (reload) await opened.page.reload();
    else await opened.page.goto(session.server.url + url);
    await figuresSettled(opened.page);
    await opened.page.evaluate((html) => {
      const template = document.createElement('template');
      template.innerHTML = html;  // fixed test strings
      document.querySelector('main').replaceChildren(template.content);
    }, markup);
    if (wait) await settledAll(opened.page, TAG);
    return opened;
  }

  it('trains one model per worker and every curve equals the native runner\'s bit for bit', async () => {
    const markup = `<${TAG} models="swiglu,symgated-silu,ffn-gelu" seeds="2" seed="2" steps="150"></${TAG}>`;
    const { page, context, problems } = await lmPage(markup, { cores: 4 });
    const r = await results(page);
    assert.equal(r.finished, true);
    assert.equal(r.stepsDone, 150);
    assert.equal(r.workers, 3, 'hardwareConcurrency 4: three workers, one core for the page');
    assert.deepEqual(r.modes, ['worker', 'worker', 'worker']);
    assert.deepEqual(r.runs.map((x) => `${x.model}:${x.seed}`),
      ['swiglu:2', 'swiglu:3', 'symgated-silu:2', 'symgated-silu:3', 'ffn-gelu:2', 'ffn-gelu:3']);
    assert.ok(r.runs.every((x) => x.initRms === r.runs.find((y) => y.seed === x.seed && y.model === 'swiglu').initRms),
      'every variant of a seed starts from SwiGLU\'s MLP output RMS');
    await assertNative(r);
    for (const x of r.runs) {
      assert.ok(x.curveValLoss.at(-1) < r.corpus.baselines.unigram, `${x.model} learns below the unigram`);
    }
    assert.ok(r.throughput.charsPerSecond > 0 && r.throughput.runs.every((x) => x.charsPerSecond > 0));
    assert.match(await page.locator(TAG).evaluate((el) => el.readoutText),
      new RegExp(String.raw`^Step 150 of 150 \(2 seeds per model, 3 workers\)\. `
        + String.raw`Validation loss at step 150, nats per character, mean of 2 seeds: `
        + String.raw`SwiGLU 2\.\d{3}, symgated \(SiLU\) 2\.\d{3}, MLP \(GELU\) 2\.\d{3}\. .+ is ahead: `));
    for (const canvas of await canvasStats(page, TAG)) assert.ok(canvas.distinctColors > 8, 'every canvas drew');
    assert.equal(await page.locator(`${TAG} .sample`).count(), 3);
    await page.locator(TAG).screenshot({ path: screenshotPath('gatelab-lm') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('three seeds: a band over seeds and the paired 95 % interval of lab.stats; CSV, JSON and PNG', async () => {
    const lab = await loadGateLab();
    const markup = `<${TAG} models="swiglu,ffn-gelu" seeds="3" steps="100"></${TAG}>`;
    const { page, context, problems } = await lmPage(markup);
    const r = await results(page);
    assert.equal(r.workers, 1, 'two cores here: one worker, the runs take turns');
    assert.equal(r.standings.seeds, 3);
    assert.equal(r.standings.step, 100);
    const values = (label) => r.standings.models.find((m) => m.label === label).values;
    for (const m of r.standings.models) {
      assert.deepEqual(m.values, r.runs.filter((x) => x.label === m.label).map((x) => x.curveValLoss.at(-1)));
      assert.equal(m.mean, lab.stats.summary(m.values).mean);
    }
    const [gap] = r.standings.gaps;
    const paired = lab.stats.paired(values(gap.label), values(r.standings.leader));
    assert.equal(gap.mean, paired.mean);
    assert.deepEqual(gap.ci95, paired.ci95);
    const readout = await page.locator(TAG).evaluate((el) => el.readoutText);
    const leader = r.standings.leader.replace(/[()]/g, '\\$&');
    assert.match(readout, new RegExp(`${leader} is ahead: \\d\\.\\d{3} below .+ `
      + '\\(paired 95 % interval −?\\d\\.\\d{3} to −?\\d\\.\\d{3}'));
    const files = await exportAll(page, TAG, { json: true });
    const lines = files.csv.trim().split('\r\n');
    assert.equal(lines[0], 'model,label,seed,step,val_loss,train_loss,antisymmetric_share_block1,'
      + 'antisymmetric_share_block2,exchange_gap_block1,exchange_gap_block2');
    assert.equal(lines.length, 1 + 6 * 2, 'a row per run and curve point');
    assert.equal(files.json.runs.length, 6);
    assert.deepEqual(files.json.runs.map((x) => x.curveValLoss), r.runs.map((x) => x.curveValLoss));
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('resumes from its checkpoints after a reload, bit for bit; a changed setting starts afresh', async () => {
    const markup = `<${TAG} models="swiglu,symgated-silu" seeds="1" seed="4" steps="300"></${TAG}>`;
    const opened = await lmPage(markup, { wait: false });
    const { page, context, problems } = opened;
    const figure = page.locator(TAG);
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction((tag) => document.querySelector(tag).results?.stepsDone >= 100, TAG,
      { timeout: 60_000 });
    await figure.locator('button', { hasText: /^Pause$/ }).click();
    await settled(page, TAG);
    const before = await results(page);
    assert.equal(await figure.getAttribute('paused'), '');
    assert.match(await figure.evaluate((el) => el.readoutText), /paused\./);
    const pausedAt = Math.min(...before.runs.map((x) => x.stepsDone));
    assert.ok(pausedAt >= 100 && pausedAt < 300, `paused at ${pausedAt}`);
    await page.waitForTimeout(400);
    assert.deepEqual((await results(page)).runs.map((x) => x.stepsDone), before.runs.map((x) => x.stepsDone),
      'no step while paused');

    await lmPage(markup, { reload: opened });
    const resumed = await results(page);
    assert.equal(resumed.resumedAt, pausedAt);
    assert.equal(resumed.finished, true);
    assert.match(await figure.evaluate((el) => el.readoutText),
      new RegExp(`^Resumed from the checkpoint at step ${pausedAt} saved in this browser\\.`));
    assert.ok(resumed.runs.every((x, i) => x.curveSteps.slice(0, before.runs[i].curveSteps.length).join()
      === before.runs[i].curveSteps.join()));
    await assertNative(resumed);

    await figure.locator('button', { hasText: /^Start over$/ }).click();
    await settled(page, TAG);
    const again = await results(page);
    assert.equal(again.resumedAt, 0, '"Start over" forgets the checkpoints');
    assert.deepEqual(again.runs.map((x) => x.curveValLoss), resumed.runs.map((x) => x.curveValLoss),
      'and trains the same curves');

    await figure.evaluate((el) => el.setAttribute('seed', '5'));
    await settled(page, TAG);
    const fresh = await results(page);
    assert.equal(fresh.resumedAt, 0, 'another seed: nothing stored, from step 0');
    assert.equal(fresh.runs[0].seed, 5);
    assert.equal(fresh.stepsDone, 300);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('keyboard controls, temperature, pause off screen and in a hidden tab', async () => {
    const markup = `<${TAG} models="swiglu,ffn-gelu" seeds="1" steps="50"></${TAG}><div class="spacer"></div>`;
    const { page, context, problems } = await lmPage(markup);
    const figure = page.locator(TAG);
    const model2 = page.locator(`${TAG} label:has-text("Model 2") select`);
    await model2.focus();
    await page.keyboard.press('ArrowDown');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('models'), 'swiglu,ffn-relu');
    assert.equal((await results(page)).runs[1].model, 'ffn-relu');
    const sampleBefore = await page.locator(`${TAG} .sample-text`).first().textContent();
    await page.locator(`${TAG} input[type=range]`).focus();
    await page.keyboard.press('ArrowRight');
    await settled(page, TAG);
    assert.equal(await figure.getAttribute('temperature'), '0.85');
    assert.match(await page.locator(`${TAG} .sample-title`).first().textContent(), /step 50, temperature 0\.85:$/);
    assert.notEqual(await page.locator(`${TAG} .sample-text`).first().textContent(), sampleBefore, 'a new sample');

    // A long run: it trains on screen, stops off screen and in a hidden tab, and goes on after.
    await figure.evaluate((el) => el.setAttribute('steps', '4000'));
    // The new length restarts the training (after a debounce): wait for the 4,000-step one.
    const progressed = (from) => page.waitForFunction(([tag, s]) => {
      const r = document.querySelector(tag).results;
      return r?.steps === 4000 && r.stepsDone > s;
    }, [TAG, from], { timeout: 60_000 });
    // Unseen, the figure finishes the turns in flight (any length on a slow machine), then rests: wait for
    // the rest, then check that nothing moves.
    const stillAfter = async () => {
      await page.waitForFunction((tag) => document.querySelector(tag).training === false, TAG, { timeout: 60_000 });
      const a = (await results(page)).runs.map((x) => x.stepsDone);
      await page.waitForTimeout(600);
      assert.deepEqual((await results(page)).runs.map((x) => x.stepsDone), a, 'no training while unseen');
      return Math.min(...a);
    };
    await progressed(0);
    await page.evaluate(() => {
      document.querySelector('.spacer').style.height = '3000px';
      window.scrollTo(0, document.body.scrollHeight);
    });
    let at = await stillAfter();
    await figure.scrollIntoViewIfNeeded();
    await progressed(at);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    at = await stillAfter();
    await page.evaluate(() => {
      delete document.visibilityState;
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await progressed(at);
    await page.locator(`${TAG} button[part~="pause"]`).focus();
    await page.keyboard.press('Enter');
    await settled(page, TAG);
    assert.equal(await figure.evaluate((el) => el.paused), true);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('works from the one-tag embed (its own worker) and without workers (on the page), with the same curves',
    async () => {
    const markup = `<${TAG} models="symgated-relu,ffn-relu" seeds="1" seed="9" steps="50"></${TAG}>`;
    for (const [url, noWorker, mode] of [['demos/embed.html', false, 'worker'], ['demos/csp.html', true, 'main']]) {
      const { page, context, problems, requests } = await lmPage(markup, { url, noWorker });
      const r = await results(page);
      assert.deepEqual(r.modes, [mode], url);
      assert.equal(r.finished, true);
      await assertNative(r);
      assert.equal(requests.filter((u) => u.endsWith('/dist/lm-text.txt')).length, 1,
        'the text, once, from beside the module');
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  it('fits 320 px and follows dark mode', async () => {
    const markup = `<${TAG} models="swiglu,symgated-silu,ffn-gelu,glu" seeds="1" steps="50"></${TAG}>`;
    const { page, context, problems } = await lmPage(markup,
      { viewport: { width: 320, height: 700 }, colorScheme: 'dark' });
    const o = await overflow(page, TAG);
    assert.deepEqual([o.page, o.figure, o.parts], [0, 0, 0], JSON.stringify(o));
    assert.ok(await cornerLuminance(page, TAG) < 60, 'dark background');
    assert.equal((await results(page)).runs.length, 4);
    await page.locator(TAG).screenshot({ path: screenshotPath('gatelab-lm-320-dark') });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
