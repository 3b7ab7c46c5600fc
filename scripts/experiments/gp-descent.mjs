// `npm run experiment -- gp-descent --suite grid|diagonal|small-eta [--quick] [--seeds N] [--steps N]
//   [--threads K] [--out DIR] [--from FILE]`
// Paper B settled fairly (docs/EXPERIMENTS.md): step size against recursion, learned η, test-time
// recursion, preconditioners at T = 1 (suite grid), and the diagonal where heads are narrower
// than the input (suite diagonal). Runs the native runner (cpp/experiments/gp_descent_commands.cpp),
// keeping each job's JSON of a full run in build/experiments/gp-descent-<suite>-jobs/ so an
// interrupted run resumes; --from FILE analyses a run's JSON instead of running. Writes gp-descent-<suite>.json
// (the run and its analysis), .svg and .md (quick runs: *-quick.*) to build/experiments/
// (git-ignored) or to --out.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

import { loadGateLab } from '../../web/lib/gatelab.js';
import { analyseDiagonal, analyseGrid, analyseSmallEta, diagonalReport, gridReport, GRID_ETAS,
  smallEtaReport } from './gp-descent-analysis.mjs';
import { commonOptions, DEFAULT_OUT, runNative } from './native.mjs';
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';

function gridSvg(a, run) {
  const posterior = run.header.baselines[0].posterior;
  const w = 320;
  const h = 220;
  const top = 60;
  const byEta = GRID_ETAS.map((eta, i) => ({ label: `η = ${eta}`, color: PALETTE[i], marker: true, bars: true,
    points: a.cells.map((row) => ({ steps: row.steps, c: row.etas.find((e) => e.eta === eta) }))
      .filter((p) => p.c?.heldOut)
      .map(({ steps, c }) => ({ x: steps, y: c.heldOut.mean, lo: c.heldOut.ci95[0], hi: c.heldOut.ci95[1] })) }));
  byEta.push({ label: 'learned η', color: PALETTE[4], marker: true, dash: '4 2',
    points: a.learned.map((l) => ({ x: l.steps, y: l.heldOut.mean })) });
  const ref = { label: 'GP posterior', color: '#000', dash: '5 3', points: [1, 8].map((x) => ({ x, y: posterior })) };
  const tt = a.testTime.map((t, i) => ({ label: `trained at T = ${t.trained}`, color: PALETTE[i], marker: true,
    bars: true,
    points: t.rows.map((r) => ({ x: r.steps, y: r.rmse.mean, lo: r.rmse.ci95[0], hi: r.rmse.ci95[1] })) }));
  const last = (t) => t.rows.at(-1);
  const entropy = a.testTime.map((t, i) => ({ label: `trained at T = ${t.trained}`, color: PALETTE[i], marker: true,
    points: last(t).entropy.map((y, s) => ({ x: s + 1, y })) }));
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'held-out RMSE against T, per η (95 %)',
      xLabel: 'T (steps per layer)',
      yLabel: 'RMSE', xLog: true, xRange: [0, Math.log10(8)], xTicks: [1, 2, 4, 8], series: [ref, ...byEta] }),
    panel({ x0: 60 + w + 70, y0: top, width: w, height: h, title: 'test-time recursion: RMSE at T′ (95 %)',
      xLabel: 'T′ (steps at evaluation)', series: tt }),
    panel({ x0: 60 + 2 * (w + 70), y0: top, width: w, height: h,
      title: `attention entropy per step at T′ = ${last(a.testTime[0]).steps}`,
      xLabel: 'step', yLabel: 'nats', series: entropy }),
    legend(60, top + h + 50, [ref, ...byEta], { rows: 3, columnWidth: 150 }),
    legend(60 + w + 70, top + h + 50, tt),
  ].join('\n');
  return svgDocument(60 + 3 * w + 2 * 70 + 30, top + h + 50 + 17 * 4,
    'gp-descent: step size, recursion and test-time recursion', body);
}

function diagonalSvg(a) {
  const w = 320;
  const h = 220;
  const top = 60;
  const kinds = ['none', 'per_head', 'shared'];
  const series = kinds.map((k, i) => ({ label: `${k} diagonal`, color: PALETTE[i], marker: true, bars: true,
    points: a.rows.map((r) => ({ dx: r.dx, m: r.models.find((m) => m.diagonal === k) })).filter((p) => p.m?.heldOut)
      .map((p) => ({ x: p.dx, y: p.m.heldOut.mean - a.rows.find((r) => r.dx === p.dx).baseline.posterior,
        lo: p.m.heldOut.ci95[0] - a.rows.find((r) => r.dx === p.dx).baseline.posterior,
        hi: p.m.heldOut.ci95[1] - a.rows.find((r) => r.dx === p.dx).baseline.posterior })) }));
  const norms = kinds.filter((k) => k !== 'none').map((k, i) => ({ label: `‖d‖, ${k}`, color: PALETTE[i + 1],
    marker: true,
    points: a.rows.map((r) => ({ x: r.dx, y: r.models.find((m) => m.diagonal === k)?.diagNorm })) }))
    .concat([{ label: '‖W_QᵀW_K‖, shared', color: '#000', dash: '4 2', marker: true,
      points: a.rows.map((r) => ({ x: r.dx, y: r.models.find((m) => m.diagonal === 'shared')?.wqkNorm })) }]);
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'held-out RMSE − GP posterior (95 %)',
      xLabel: 'input width dx',
      yLabel: 'excess RMSE', xTicks: a.rows.map((r) => r.dx), series }),
    panel({ x0: 60 + w + 80, y0: top, width: w, height: h, title: 'size of the learned diagonal',
      xLabel: 'input width dx',
      xTicks: a.rows.map((r) => r.dx), series: norms }),
    legend(60, top + h + 50, series),
    legend(60 + w + 80, top + h + 50, norms),
  ].join('\n');
  return svgDocument(60 + 2 * w + 80 + 40, top + h + 50 + 17 * 4,
    'gp-descent: the diagonal against input width (head width 8)', body);
}

// The written run keeps every number the analysis reads: the per-position probes (energies and
// entropies at every T′, 5 significant digits) only for the models the test-time analysis uses,
// the test-time RMSE for every model. The full probes of every job stay in the jobs folder.
const round5 = (v) => (Number.isFinite(v) ? Number(v.toPrecision(5)) : v);
function slimGrid(run, analysis) {
  const kept = new Set(analysis.testTime.map((t) => t.name));
  const jobs = run.jobs.map((j) => {
    if (!j.testTime) return j;
    const testTime = kept.has(j.name)
      ? j.testTime.map((e) => ({ ...e, blocks: e.blocks.map((b) => ({ ...b,
        energyByPosition: b.energyByPosition.map(round5),
        entropyByPosition: b.entropyByPosition.map(round5) })) }))
      : j.testTime.map((e) => ({ steps: e.steps, rmse: e.rmse }));
    return { ...j, testTime };
  });
  return { ...run, jobs };
}

function smallEtaSvg(a) {
  const series = [['η = 1/32', 'small', PALETTE[0]], ['η = 1/16', 'edge', PALETTE[1]]].map(([label, key, color]) => ({
    label, color, marker: true, bars: true,
    points: a.rows.filter((r) => r[key].heldOut).map((r) => ({ x: r.steps, y: r[key].heldOut.mean,
      lo: r[key].heldOut.ci95[0], hi: r[key].heldOut.ci95[1] })) }));
  series.push({ label: 'T = 1 at η = 1/8', color: '#000', dash: '5 3',
    points: [2, 8].map((x) => ({ x, y: a.reference.mean })) });
  const body = [panel({ x0: 60, y0: 60, width: 320, height: 220, title: 'held-out RMSE against T (95 %)', xLabel: 'T',
    yLabel: 'RMSE', xLog: true, xTicks: a.rows.map((r) => r.steps), series }), legend(60, 330, series)].join('\n');
  return svgDocument(420, 390, 'gp-descent small-eta (exploratory): a smaller step for deep recursion', body);
}

const SUITES = { grid: { analyse: analyseGrid, report: gridReport, svg: gridSvg, slim: slimGrid },
  diagonal: { analyse: analyseDiagonal, report: diagonalReport, svg: diagonalSvg },
  'small-eta': { analyse: analyseSmallEta, report: smallEtaReport, svg: smallEtaSvg } };

/** Runs (or with --from, reads) a suite; resolves with { run, analysis, markdown, files }. */
export async function runGpDescent(argv, { quiet = false, write = true } = {}) {
  const rest = [...argv];
  const take = (flag) => {
    const i = rest.indexOf(flag);
    if (i < 0) return undefined;
    const [value] = rest.splice(i, 2).slice(1);
    if (value === undefined) throw new Error(`${flag} needs a value`);
    return value;
  };
  const suite = take('--suite');
  const from = take('--from');
  if (!SUITES[suite]) throw new Error("--suite must be 'grid', 'diagonal' or 'small-eta'");
  const o = commonOptions(rest);
  // Full runs keep their jobs to resume; quick runs (the tests) never read an earlier run's files.
  // small-eta shares the grid's folder: its references are grid jobs of the same names.
  const jobsDir = o.quick ? null : `${DEFAULT_OUT}gp-descent-${suite === 'small-eta' ? 'grid' : suite}-jobs`;
  if (jobsDir && !from) mkdirSync(jobsDir, { recursive: true });
  let run = from ? JSON.parse(readFileSync(from, 'utf8'))
    : await runNative('gp-descent', ['--suite', suite, ...(jobsDir ? ['--jobs-dir', jobsDir] : []), ...o.args],
      { quiet });
  const lab = await loadGateLab();
  const kit = SUITES[suite];
  let analysis = kit.analyse(run, lab.stats);
  // The analysis of the written file itself, so re-analysing it (--from) gives the same numbers.
  if (kit.slim) {
    run = kit.slim(run, analysis);
    analysis = kit.analyse(run, lab.stats);
  }
  const markdown = kit.report(analysis, run);
  const files = [];
  if (write) {
    const name = `${o.outDir}gp-descent-${suite}${o.quick ? '-quick' : ''}`;
    mkdirSync(o.outDir, { recursive: true });
    writeFileSync(`${name}.json`, `${JSON.stringify({ ...run, analysis })}\n`);
    writeFileSync(`${name}.svg`, kit.svg(analysis, run));
    writeFileSync(`${name}.md`, `${markdown}\n`);
    files.push(`${name}.json`, `${name}.svg`, `${name}.md`);
  }
  return { run, analysis, markdown, files };
}

/** CLI entry (scripts/experiment.mjs dispatches here); returns the exit code. */
export async function main(argv) {
  const { markdown, files } = await runGpDescent(argv);
  console.log(`${markdown}\nwrote ${files.join(', ')}`);
  return 0;
}
