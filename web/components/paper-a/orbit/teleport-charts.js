// The drawing of <gatelab-teleport> (no state): the loss and the next step's loss along one unit's
// orbit, ‖∇L‖ along it, and the race of plain descent against descent with teleports (mean and the
// 95 % interval over seeds). Each drawer takes (ctx, { width, height, fontSize, data, theme, state, lab })
// and draws empty axes until its data has come.
import { formatNumber } from '../../base/format.js';
import { extent } from '../../plot/axes.js';
import { drawChart } from '../../plot/chart.js';
import { drawMessage, logValueTicks, orbitLayerLabel } from './orbit-kit.js';

const C_TICKS = logValueTicks([0.1, 0.3, 1, 3, 10], (v) => formatNumber(v));
const log10 = (values) => Float64Array.from(values, Math.log10);

function orbitless(ctx, view, title) {
  const { width, height, theme, fontSize, state, lab } = view;
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, { xDomain: [-1, 1], yDomain: [0, 1], xTicks: C_TICKS, yTicks: [],
    theme, fontSize, xLabel: 'c', title, series: [] });
  drawMessage(ctx, width, height, `${orbitLayerLabel(state.layer, lab)}: no orbit (SiLU is not positively homogeneous)`,
    theme, fontSize);
}

/** Training loss and the loss after the next gradient step, against c (log axis). */
export function drawOrbit(ctx, view) {
  const { width, height, theme, fontSize, data, state } = view;
  const title = `Unit ${state.unit + 1}: (q, k) → (c·q, k/c)`;
  if (data && !data.supported) return orbitless(ctx, view, title);
  const o = data?.orbit;
  const x = o ? log10(o.c) : [];
  const best = data?.best?.[state.unit];
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [-1, 1], yDomain: o ? extent([o.loss, o.nextLoss], { pad: 0.12 }) : [0, 1], xTicks: C_TICKS,
    theme, fontSize, xLabel: 'c (log scale)', yLabel: 'training loss', title,
    series: o ? [{ x, y: o.loss, color: theme.accent, width: 2.5 },
      { x, y: o.nextLoss, color: theme.accent2, width: 2.5, dash: [7, 4] }] : [],
    vlines: [{ x: Math.log10(state.c), color: theme.fg, dash: [3, 3], width: 1 },
      ...(best && best !== 1 ? [{ x: Math.log10(best), color: theme.muted, dash: [1, 3], width: 1.5 }] : [])],
    dots: data?.at ? [{ x: Math.log10(state.c), y: data.at.loss, color: theme.accent },
      { x: Math.log10(state.c), y: data.at.nextLoss, color: theme.accent2 }] : [],
    legend: [{ label: 'loss now (flat: the same function)', color: theme.accent, width: 2.5 },
      { label: 'loss after the next step', color: theme.accent2, dash: [7, 4], width: 2.5 },
      ...(best && best !== 1 ? [{ label: 'teleport target', color: theme.muted, dash: [1, 3] }] : [])],
  });
}

/** ‖∇L‖ against c. */
export function drawGradient(ctx, view) {
  const { width, height, theme, fontSize, data, state } = view;
  const title = '‖∇L‖ along the same orbit';
  if (data && !data.supported) return orbitless(ctx, view, title);
  const o = data?.orbit;
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [-1, 1], yDomain: o ? extent([o.gradNorm], { include: [0], pad: 0.1 }) : [0, 1], xTicks: C_TICKS,
    theme, fontSize, xLabel: 'c (log scale)', yLabel: '‖∇L‖', title,
    series: o ? [{ x: log10(o.c), y: o.gradNorm, color: theme.accent, width: 2.5 }] : [],
    vlines: [{ x: Math.log10(state.c), color: theme.fg, dash: [3, 3], width: 1 }],
    dots: data?.at ? [{ x: 0, y: data.here.gradNorm, color: theme.muted },
      { x: Math.log10(state.c), y: data.at.gradNorm, color: theme.accent }] : [],
    legend: [{ label: `‖∇L‖ (c = ${formatNumber(state.c)}: ${data?.at ? formatNumber(data.at.gradNorm) : '…'})`,
      color: theme.accent, width: 2.5 }],
  });
}

/** Training loss against steps: plain descent and descent with a teleport every N steps. */
export function drawRace(ctx, view) {
  const { width, height, theme, fontSize, data, state } = view;
  const r = data;
  const curves = r ? [r.plain, r.teleported].filter(Boolean) : [];
  const band = (b, color) => ({ x: r.step, lo: b.lo, hi: b.hi, color, alpha: 0.2 });
  const seeds = `${state.seeds} seed${state.seeds > 1 ? 's' : ''}`;
  drawChart(ctx, { x: 0, y: 0, w: width, h: height }, {
    xDomain: [0, state.steps],
    // A run that blew up would flatten the rest: the axis stops at twice the starting loss.
    yDomain: r ? extent(curves.flatMap((b) => [b.lo, b.hi]), { include: [0], clip: [0, 2 * r.plain.mean[0]] }) : [0, 1],
    theme, fontSize, xLabel: 'gradient steps', yLabel: 'training loss',
    title: width < 520 ? `Plain vs a teleport every ${state.every} steps`
      : `Plain descent against a teleport every ${state.every} steps (${seeds}, 95 % interval)`,
    bands: r ? [band(r.plain, theme.accent), ...(r.teleported ? [band(r.teleported, theme.accent2)] : [])] : [],
    series: r ? [{ x: r.step, y: r.plain.mean, color: theme.accent, width: 2.5 },
      ...(r.teleported
        ? [{ x: r.step, y: r.teleported.mean, color: theme.accent2, width: 2.5, dash: [7, 4] }] : [])] : [],
    legend: [{ label: 'plain gradient descent', color: theme.accent, width: 2.5 },
      ...(r && !r.teleported ? [] : [{ label: `teleport every ${state.every} steps`, color: theme.accent2, dash: [7, 4],
        width: 2.5 }])],
  });
}
