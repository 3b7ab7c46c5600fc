// The worker runner (web/components/runner/lab-runner.js): a task run in the module worker gives the
// same numbers as on the main thread, reports progress, can be cancelled, and falls back to
// the main thread when no worker can start. The embed bundle serves as its own worker.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage, figuresSettled } from '../harness.mjs';

describe('worker runner', () => {
  let session;
  before(async () => {
    session = await startSession();
  });
  after(() => session?.close());

  async function page(path = 'demos/csp.html') {
    const opened = await openPage(session.browser);
    await opened.page.goto(session.server.url + path);
    await figuresSettled(opened.page);
    return opened;
  }

  it('gives the same numbers in the worker and on the main thread, with progress', async () => {
    const { page: p, context, problems } = await page();
    const result = await p.evaluate(async () => {
      const { LabRunner } = await import('/components/runner/lab-runner.js');
      const args = { activation: 'gelu', seed: 11, rows: 128, trials: 6 };
      const worker = new LabRunner({ worker: true });
      const main = new LabRunner({ worker: false });
      const progress = [];
      const inWorker = await worker.run('exchangeGaps', args, { onProgress: (f) => progress.push(f) });
      const onMain = await main.run('exchangeGaps', args);
      const planeWorker = await worker.run('exchangePlane', { activation: 'silu', n: 96 });
      const planeMain = await main.run('exchangePlane', { activation: 'silu', n: 96 });
      const modes = [worker.mode, main.mode];
      worker.terminate();
      return { inWorker, onMain, progress, modes, planesEqual: planeWorker.length === 96 * 96
        && planeWorker.every((v, i) => Object.is(v, planeMain[i])) };
    });
    assert.deepEqual(result.modes, ['worker', 'main']);
    assert.deepEqual(result.inWorker, result.onMain, 'bit-identical gaps');
    assert.ok(result.inWorker.gated > 0.01 && result.inWorker.symmetric < 1e-5);
    assert.equal(result.planesEqual, true, 'bit-identical planes');
    assert.ok(result.progress.length >= 1 && result.progress.at(-1) === 1, `progress ${result.progress}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('cancels a running job (AbortSignal) and stays usable, on both paths', async () => {
    const { page: p, context, problems } = await page();
    const result = await p.evaluate(async () => {
      const { LabRunner } = await import('/components/runner/lab-runner.js');
      const out = {};
      for (const useWorker of [true, false]) {
        const runner = new LabRunner({ worker: useWorker });
        const abort = new AbortController();
        const job = runner.run('exchangeGaps', { activation: 'silu', rows: 4096, trials: 400 },
          { signal: abort.signal, onProgress: (f) => f > 0 && abort.abort() });
        const error = await job.then(() => null, (e) => e.name);
        const after = await runner.run('exchangeGaps', { activation: 'relu', trials: 1 });
        out[useWorker ? 'worker' : 'main'] = { error, after: after.gated > 0 };
        runner.terminate();
      }
      const { sharedLab } = await import('/components/base/shared-lab.js');
      out.live = (await sharedLab()).liveObjects();
      return out;
    });
    assert.deepEqual(result.worker, { error: 'AbortError', after: true });
    assert.deepEqual(result.main, { error: 'AbortError', after: true });
    assert.equal(result.live, 0, 'cancelled main-thread jobs disposed their layers');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('library errors come back as GateLabError from the worker', async () => {
    const { page: p, context } = await page();
    const error = await p.evaluate(async () => {
      const { LabRunner } = await import('/components/runner/lab-runner.js');
      const { GateLabError } = await import('/lib/gatelab.js');
      const runner = new LabRunner();
      const e = await runner.run('exchangeGaps', { activation: 'nope' }).catch((err) => err);
      runner.terminate();
      return { isGateLabError: e instanceof GateLabError, message: e.message, argument: e.argument };
    });
    assert.equal(error.isGateLabError, true);
    assert.match(error.message, /activation/);
    await context.close();
  });

  it('falls back to the main thread when the worker cannot load', async () => {
    const { page: p, context } = await openPage(session.browser);
    // A missing worker script is expected to fail here; the harness's problem list is not checked.
    await p.goto(session.server.url + 'demos/csp.html');
    await figuresSettled(p);
    const result = await p.evaluate(async () => {
      const { LabRunner } = await import('/components/runner/lab-runner.js');
      const runner = new LabRunner({ workerUrl: '/components/no-such-worker.js' });
      const gaps = await runner.run('exchangeGaps', { activation: 'silu', seed: 2 });
      const reference = await new LabRunner({ worker: false }).run('exchangeGaps', { activation: 'silu', seed: 2 });
      return { mode: runner.mode, same: JSON.stringify(gaps) === JSON.stringify(reference) };
    });
    assert.deepEqual(result, { mode: 'main', same: true });
    await context.close();
  });

  it('the embed bundle is its own worker and gives the same numbers', async () => {
    const { page: p, context, problems } = await page('demos/embed.html');
    const result = await p.evaluate(async () => {
      const embed = await import('/dist/gatelab.embed.js');
      const runner = embed.sharedRunner();
      const args = { activation: 'gelu_tanh', seed: 4, trials: 3 };
      const inWorker = await runner.run('exchangeGaps', args);
      const onMain = await new embed.LabRunner({ worker: false }).run('exchangeGaps', args);
      return { mode: runner.mode, same: JSON.stringify(inWorker) === JSON.stringify(onMain) };
    });
    assert.deepEqual(result, { mode: 'worker', same: true });
    assert.deepEqual(problems, []);
    await context.close();
  });
});
