// What <gatelab-lm> says about its training: each model's validation curve over seeds (the mean
// and the min–max band), the plain-words summary of who is ahead and by how much (with the
// paired 95 % interval from lab.stats once there are 3 seeds or more), the per-model table with
// the antisymmetric share, and the samples. Every statistic is lab.stats's (the C++ core); this
// file only picks the values and words them.
import { palette } from '../../base/figure-extras.js';
import { curveSteps } from './lm-schema.js';

const fmt = (v, digits = 3) => (Number.isFinite(v) ? v.toFixed(digits).replace(/^-/, '−') : '—');
const count = (n) => n.toLocaleString('en-US');
export const MIN_SEEDS_FOR_INTERVAL = 3;

/** The runs of model i, seed by seed. */
function runsOfModel(training, i) {
  return training.runs.filter((r) => r.model === i);
}

/** The models of a training: [{ variant, runs }]. */
export function modelsOf(training) {
  const out = [];
  for (const r of training.runs) (out[r.model] ??= { variant: r.variant, runs: [] }).runs.push(r);
  return out;
}

/**
 * Model i's validation curve over its seeds at the steps every seed has reached:
 * { steps, mean, lo, hi } (mean from lab.stats.summary; lo, hi the lowest and highest seed).
 */
export function modelCurve(training, i, lab) {
  const runs = runsOfModel(training, i);
  const length = Math.min(...runs.map((r) => r.points.filter((p) => !p.diverged).length));
  const curve = { steps: [], mean: [], lo: [], hi: [] };
  for (let k = 0; k < length; k++) {
    const values = runs.map((r) => r.points[k].valLoss);
    curve.steps.push(runs[0].points[k].step);
    curve.mean.push(lab.stats.summary(values).mean);
    curve.lo.push(Math.min(...values));
    curve.hi.push(Math.max(...values));
  }
  return curve;
}

/** Each model's validation loss per seed at `step` (null where a seed has no point there). */
function lossesAt(training, step) {
  return modelsOf(training).map(
    (m) => m.runs.map((r) => r.points.find((p) => p.step === step && !p.diverged)?.valLoss ?? null));
}

/** The latest step every non-diverged run has a point at, or 0. */
export function comparisonStep(training) {
  const live = training.runs.filter((r) => !r.diverged);
  if (!live.length) return 0;
  return Math.min(...live.map((r) => r.points.at(-1)?.step ?? 0));
}

/**
 * Who is ahead at the comparison step: { step, seeds, models: [{ label, mean, values }], leader,
 * gaps: [{ label, mean, ci95 | null }] } (gap = that model − the leader, paired by seed), or null.
 */
export function standings(training, lab) {
  const step = comparisonStep(training);
  if (!step) return null;
  const models = modelsOf(training).map((m, i) => ({ label: m.variant.label, values: lossesAt(training, step)[i] }));
  const complete = models.filter((m) => m.values.every((v) => v !== null));
  if (complete.length < 2) return null;
  for (const m of complete) m.mean = lab.stats.summary(m.values).mean;
  const leader = complete.reduce((a, b) => (b.mean < a.mean ? b : a));
  const seeds = leader.values.length;
  const gaps = complete.filter((m) => m !== leader).map((m) => {
    const paired = lab.stats.paired(m.values, leader.values);
    return { label: m.label, mean: paired.mean, ci95: seeds >= MIN_SEEDS_FOR_INTERVAL ? paired.ci95 : null };
  });
  return { step, seeds, models: complete, leader, gaps };
}

/** The summary in words, e.g. "After 500 steps (3 seeds), SwiGLU is ahead: 0.012 nats per character below …". */
export function summaryText(training, lab, { paused = false } = {}) {
  const s = standings(training, lab);
  const seeds = runsOfModel(training, 0).length;
  const progress = `Step ${count(training.commonStep)} of ${count(training.steps)}`
    + ` (${seeds} seed${seeds === 1 ? '' : 's'} per model, `
    + `${training.workers} worker${training.workers === 1 ? '' : 's'})`
    + `${paused ? ', paused' : ''}.`;
  if (!s) return `${progress} The first validation point comes at step ${count(curveSteps(training.steps)[0])}.`;
  const losses = s.models.map((m) => `${m.label} ${fmt(m.mean)}`).join(', ');
  const gaps = s.gaps.map((g) => {
    const interval = g.ci95 ? ` (paired 95 % interval ${fmt(g.ci95[0])} to ${fmt(g.ci95[1])}`
      + `${g.ci95[0] <= 0 && g.ci95[1] >= 0 ? ', which includes 0: not resolved yet' : ''})` : '';
    return `${fmt(g.mean)} below ${g.label}${interval}`;
  });
  const seedNote = s.seeds >= MIN_SEEDS_FOR_INTERVAL ? ''
    : ` With ${s.seeds === 1 ? 'one seed' : `${s.seeds} seeds`} there is no interval yet: `
      + `run ${MIN_SEEDS_FOR_INTERVAL} or more to see one.`;
  return `${progress} Validation loss at step ${count(s.step)}, nats per character`
    + `${s.seeds > 1 ? `, mean of ${s.seeds} seeds` : ''}: ${losses}. `
    + `${s.leader.label} is ahead: ${gaps.join('; ')}.${seedNote}`;
}

/** Model i's antisymmetric share per block, mean over its seeds at their latest point (NaN: not a gated unit). */
export function antisymmetricShares(training, i, lab) {
  const runs = runsOfModel(training, i).filter((r) => r.points.length);
  if (!runs.length) return [];
  const blocks = runs[0].points.at(-1).blocks.length;
  return Array.from({ length: blocks }, (_, b) => {
    const values = runs.map((r) => r.points.at(-1).blocks[b]?.antisymmetricShare);
    return values.every(Number.isFinite) ? lab.stats.summary(values).mean : NaN;
  });
}

function cell(row, text, header = false) {
  const c = header ? document.createElement('th') : row.insertCell();
  if (header) {
    c.scope = 'col';
    row.append(c);
  }
  c.textContent = text;
  return c;
}

/** The table: per model its width, parameters, validation loss, gap to the leader, antisymmetric share, step. */
export function buildTable(training, theme, lab) {
  const models = modelsOf(training);
  const colors = palette(theme ?? { accent: '#c2410c', accent2: '#1d5fd6', bg: '#fff' }, models.length);
  const s = standings(training, lab);
  const table = document.createElement('table');
  const caption = table.createCaption();
  caption.className = 'visually-hidden';
  caption.textContent = 'Per model: validation loss at the latest common step and the antisymmetric share of its MLP';
  const head = table.createTHead().insertRow();
  for (const h of ['model', 'm or d_ff', 'parameters', `val. loss${s ? ` @ ${count(s.step)}` : ''}`, '− leader',
    'antisym. share (blocks)', 'step']) cell(head, h, true);
  const body = table.createTBody();
  models.forEach((m, i) => {
    const tr = body.insertRow();
    const name = tr.insertCell();
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colors[i];
    name.append(swatch, m.variant.label);
    const standing = s?.models.find((x) => x.label === m.variant.label);
    const gap = s && standing && standing !== s.leader
      ? s.gaps.find((g) => g.label === m.variant.label)?.mean : s && standing ? 0 : NaN;
    const shares = antisymmetricShares(training, i, lab);
    const shareText = shares.length && shares.every(Number.isFinite)
      ? shares.map((v) => fmt(v)).join(', ') : '— (not gated)';
    for (const text of [m.variant.hidden, count(m.runs[0].parameters), fmt(standing?.mean), fmt(gap), shareText,
      count(Math.min(...m.runs.map((r) => r.stepsDone)))]) tr.insertCell().textContent = String(text);
    if (m.runs.some((r) => r.diverged)) {
      const note = body.insertRow().insertCell();
      note.colSpan = 7;
      note.className = 'diverged';
      const diverged = m.runs.filter((r) => r.diverged).length;
      note.textContent = `${diverged} of ${m.runs.length} runs diverged; their curves stop there.`;
    }
  });
  return table;
}

/** The samples, one block per model (its first seed): label, step, temperature, then the text as it came. */
export function buildSamples(training, theme) {
  const models = modelsOf(training);
  const colors = palette(theme ?? { accent: '#c2410c', accent2: '#1d5fd6', bg: '#fff' }, models.length);
  const blocks = models.map((m, i) => {
    const shown = m.runs.find((r) => r.seedIndex === 0);
    const block = document.createElement('div');
    block.className = 'sample';
    const title = document.createElement('p');
    title.className = 'sample-title';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colors[i];
    const s = shown?.sample;
    title.append(swatch, s
      ? `${m.variant.label}, step ${count(s.step)}, temperature ${s.temperature.toFixed(2)}:`
      : `${m.variant.label}: no sample yet`);
    const text = document.createElement('pre');
    text.className = 'sample-text';
    text.textContent = s?.text ?? '';
    block.append(title, text);
    return block;
  });
  return blocks;
}
