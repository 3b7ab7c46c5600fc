// The <gatelab-lm> figure's throughput in headless Chromium: characters trained per second
// (steps × batch × context), per model — its worker's time inside lab.lm's train() — and in
// total — every model's characters over the wall time the figure spent training, evaluations,
// diagnostics, samples and checkpoints included. It runs the figure as a page does (csp.html,
// one worker per model up to hardwareConcurrency − 1) and reads the figure's own `throughput`.
// A measurement, never a timed test (docs/BENCHMARKS.md).
//
//   node bench/lm-figure.mjs [--steps 1000] [--seeds 1] [--models swiglu,symgated-silu,ffn-gelu] [--cores K]
//     --cores K  pretend navigator.hardwareConcurrency = K (the figure then uses K − 1 workers)
import { startSession, openPage, figuresSettled } from '../tests/browser/harness.mjs';
import { settledAll } from '../tests/browser/paper-a/fixture.mjs';
import { LM_PRESET } from '../web/components/paper-a/lm/lm-preset.js';
import { availableParallelism, loadavg } from 'node:os';

function options(argv) {
  const o = { steps: 1000, seeds: 1, models: 'swiglu,symgated-silu,ffn-gelu', cores: null };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    if (!(name in o) || argv[i + 1] === undefined) {
      throw new Error(`unknown option ${argv[i]} (--steps, --seeds, --models, --cores)`);
    }
    o[name] = name === 'models' ? argv[i + 1] : Number(argv[i + 1]);
  }
  return o;
}

const o = options(process.argv.slice(2));
const { batch, context } = LM_PRESET.settings;
const fmt = (v) => Math.round(v).toLocaleString('en-US');
const session = await startSession();
try {
  const { page, context: browserContext, problems } = await openPage(session.browser);
  if (o.cores) {
    await browserContext.addInitScript(
      (n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }), o.cores);
  }
  await page.goto(session.server.url + 'demos/csp.html');
  await figuresSettled(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await page.evaluate((html) => {
    const template = document.createElement('template');
    template.innerHTML = html;
    document.querySelector('main').replaceChildren(template.content);
  }, `<gatelab-lm models="${o.models}" seeds="${o.seeds}" steps="${o.steps}"></gatelab-lm>`);
  await settledAll(page, 'gatelab-lm');
  const r = await page.locator('gatelab-lm').evaluate((el) => el.results);
  if (!r.finished) throw new Error('the figure did not finish');
  if (problems.length) throw new Error(`page problems: ${problems.join('; ')}`);
  const version = session.browser.version();
  console.log(`Chromium ${version}, navigator.hardwareConcurrency ${cores}, ${availableParallelism()} cores here, `
    + `load ${loadavg()[0].toFixed(2)}`);
  console.log(`${r.runs.length} runs × ${o.steps} steps of batch ${batch} × context ${context}; `
    + `${r.workers} worker(s) (${r.modes.join(', ')})`);
  for (const run of r.throughput.runs) {
    const steps = (run.charsPerSecond / (batch * context)).toFixed(0);
    console.log(`  ${run.key.padEnd(22)} ${fmt(run.charsPerSecond).padStart(8)} characters/s  (${steps} steps/s)`);
  }
  const perModel = r.throughput.runs.reduce((s, x) => s + x.charsPerSecond, 0) / r.throughput.runs.length;
  console.log(`  total                  ${fmt(r.throughput.charsPerSecond).padStart(8)} characters/s `
    + `over ${r.throughput.seconds.toFixed(1)} s of training`);
  console.log(`lm-figure: ${r.workers} worker(s), per model ${fmt(perModel)} characters/s (mean), `
    + `total ${fmt(r.throughput.charsPerSecond)} characters/s`);
  await browserContext.close();
} finally {
  await session.close();
}
