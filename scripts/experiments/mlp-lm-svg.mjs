// The mlp-lm plots: validation loss while training (mean over seeds) for the main variants, the
// final loss of every variant with its 95 % interval, and the λ dial. Deterministic text: the
// same results give the same file.
import { legend, PALETTE, panel, svgDocument } from './svg-plot.mjs';
import { DIAL } from './mlp-lm-report.mjs';

function meanCurve(results, name) {
  const runs = results.main.filter((j) => j.phase === 'main' && j.variant === name && !j.diverged);
  if (!runs.length) return [];
  return runs[0].curveSteps.map((step, k) => ({ x: step,
    y: runs.reduce((s, r) => s + r.curveValLoss[k], 0) / runs.length }));
}

export function mlpLmSvg(results, a) {
  const main = a.perVariant.filter((v) => v.group === 'main');
  const curves = main.map((v, i) => ({ label: v.label, color: PALETTE[i % PALETTE.length],
    points: meanCurve(results, v.name),
    dash: v.kind === 'symmetric' ? '4 3' : v.symmetrize > 0 ? '1 2' : undefined }));
  const ordered = a.perVariant.filter((v) => v.loss);
  const finals = [{ label: 'final validation loss, 95 % CI', color: PALETTE[0], marker: true, bars: true, noLine: true,
    points: ordered.map((v, i) => ({ x: i + 1, y: v.loss.mean, lo: v.loss.ci95[0], hi: v.loss.ci95[1] })) }];
  const dial = [{ label: 'SiLU dial (λ = 0 SwiGLU, λ = 1 symgated)', color: PALETTE[1], marker: true, bars: true,
    points: DIAL.map(([name, x]) => ({ v: a.perVariant.find((p) => p.name === name), x }))
      .filter((p) => p.v?.loss).map(({ v, x }) => ({ x, y: v.loss.mean, lo: v.loss.ci95[0], hi: v.loss.ci95[1] })) }];
  const w = 380, h = 240, top = 60;
  const index = ordered.map((v, i) => `${i + 1} ${v.label}`);
  const body = [
    panel({ x0: 60, y0: top, width: w, height: h, title: 'validation loss while training (mean over seeds)',
      xLabel: 'step', yLabel: 'nats per character', series: curves }),
    panel({ x0: 60 + w + 80, y0: top, width: w, height: h, title: 'final validation loss by variant',
      xLabel: 'variant (numbered below)', series: finals, xTicks: ordered.map((_, i) => i + 1) }),
    panel({ x0: 60 + 2 * (w + 80), y0: top, width: w * 0.7, height: h, title: 'the λ dial',
      xLabel: 'symmetrize λ', series: dial, xTicks: [0, 0.25, 0.5, 0.75, 1] }),
    legend(60, top + h + 55, curves),
    `<text x="${60 + w + 80}" y="${top + h + 55}" font-size="10">`
      + index.map((t, i) => `<tspan x="${60 + w + 80}" dy="${i ? 13 : 0}">${t.replace(/[&<>]/g, '')}</tspan>`).join('')
      + '</text>',
  ].join('\n');
  const rows = Math.max(curves.length * 17, index.length * 13);
  return svgDocument(60 + 2 * (w + 80) + w * 0.7 + 30, top + h + 55 + rows + 10,
    `mlp-lm: ${results.settings.steps} steps, ${results.settings.seeds} seeds, `
      + `MLP budget ${results.settings.budget} per block`, body);
}
