// The one-file embed carries its wasm as the base64 of its gzip (scripts/bundle.mjs) and unpacks it
// with DecompressionStream: the module it loads computes what the npm path's module computes, bit for
// bit, and a browser without DecompressionStream gets a GateLabError that says so, not a ReferenceError.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSession, openPage } from '../harness.mjs';

const BLANK = { body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blank</title>'
  + '<link rel="icon" href="/demos/favicon.svg"></head><body></body></html>' };

describe('the embed unpacks its wasm', () => {
  let session;
  before(async () => {
    session = await startSession({ routes: { '/blog/blank.html': BLANK } });
  });
  after(() => session?.close());

  it('loads the same module as the npm path', async () => {
    const { page, context, problems } = await openPage(session.browser);
    await page.goto(`${session.server.url}blog/blank.html`);
    const outputs = await page.evaluate(async () => {
      const options = { kind: 'gated', activation: 'silu', dIn: 4, hidden: 8, dOut: 3, rank: 1, seed: 7 };
      const x = Float32Array.from({ length: 20 }, (_, i) => Math.sin(i + 1));
      const run = async ({ loadGateLab }) => {
        const lab = await loadGateLab();
        const layer = lab.createLayer(options);
        const y = Array.from(layer.forward(x, 5));
        layer.dispose();
        return y;
      };
      const embed = await import('/dist/gatelab.embed.js');
      // Twice from the embed: the second instance reuses the bytes the first one unpacked.
      return Promise.all([run(embed), run(embed), run(await import('/lib/gatelab.js'))]);
    });
    assert.equal(outputs[0].length, 15);
    assert.ok(outputs[0].every(Number.isFinite));
    assert.deepEqual(outputs[1], outputs[0], 'a second embed instance gives the same bits');
    assert.deepEqual(outputs[2], outputs[0], 'the same bits from both modules');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('names what is missing in a browser without DecompressionStream', async () => {
    const { page, context } = await openPage(session.browser);
    await context.addInitScript(() => delete globalThis.DecompressionStream);
    await page.goto(`${session.server.url}blog/blank.html`);
    const failure = await page.evaluate(async () => {
      const embed = await import('/dist/gatelab.embed.js');
      try {
        await embed.loadGateLab();
        return null;
      } catch (error) {
        return { gateLab: error instanceof embed.GateLabError, argument: error.argument, code: error.code,
          message: error.message };
      }
    });
    assert.deepEqual({ ...failure, message: undefined },
      { gateLab: true, argument: 'DecompressionStream', code: 'unsupported', message: undefined });
    assert.match(failure.message, /DecompressionStream/);
    await context.close();
  });
});
