// A dependency-free SVG of race curves: one panel per metric, each model's mean as a line
// and its min–max band over seeds as a translucent area. Deterministic output (fixed
// palette, fixed number formatting) so a rerun with the same seed gives the same file.
const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f',
  '#bcbd22', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173', '#3182bd'];

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const f = (v) => (Math.round(v * 10) / 10).toString();

function panel({ x0, y0, width, height, title, models, metric, steps, yMax, yMin }) {
  const sx = (s) => x0 + (s / steps[steps.length - 1]) * width;
  const sy = (v) => y0 + height - ((Math.min(Math.max(v, yMin), yMax) - yMin) / (yMax - yMin)) * height;
  const out = [`<rect x="${x0}" y="${y0}" width="${width}" height="${height}" fill="none" stroke="#999"/>`,
    `<text x="${x0 + width / 2}" y="${y0 - 8}" text-anchor="middle" font-size="13">${esc(title)}</text>`];
  for (let t = 0; t <= 4; t++) {
    const v = yMin + ((yMax - yMin) * t) / 4;
    out.push(`<text x="${x0 - 6}" y="${f(sy(v) + 4)}" text-anchor="end" font-size="10">${v.toFixed(2)}</text>`);
    out.push(`<line x1="${x0}" x2="${x0 + width}" y1="${f(sy(v))}" y2="${f(sy(v))}" stroke="#eee"/>`);
  }
  out.push(`<text x="${x0 + width}" y="${y0 + height + 14}" text-anchor="end" font-size="10">`
    + `step ${steps[steps.length - 1]}</text>`);
  models.forEach((m, i) => {
    const c = m.curves[metric], color = PALETTE[i % PALETTE.length];
    const upper = steps.map((s, k) => `${f(sx(s))},${f(sy(c.max[k]))}`);
    const lower = steps.map((s, k) => `${f(sx(s))},${f(sy(c.min[k]))}`).reverse();
    out.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${color}" fill-opacity="0.15" stroke="none"/>`);
    out.push(`<polyline points="${steps.map((s, k) => `${f(sx(s))},${f(sy(c.mean[k]))}`).join(' ')}" fill="none" `
      + `stroke="${color}" stroke-width="1.5"/>`);
  });
  return out.join('\n');
}

/** SVG text for one race result ({ models }) with a title. */
export function raceSvg(result, title) {
  const models = result.models;
  const steps = Array.from(models[0].curves.step);
  const lossMax = Math.max(...models.map((m) => Math.max(...m.curves.trainLoss.max.filter(Number.isFinite))), 0.1);
  const width = 360, height = 220, left = 50, top = 50, gap = 70;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + 2 * width + gap + 170}" `
      + `height="${top + height + 40}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="20" font-size="15">${esc(title)}</text>`,
    panel({ x0: left, y0: top, width, height, title: 'train loss (mean, min–max band over seeds)', models,
      metric: 'trainLoss', steps, yMin: 0, yMax: Math.min(lossMax, 2) }),
    panel({ x0: left + width + gap, y0: top, width, height, title: 'test accuracy', models, metric: 'testAccuracy',
      steps,
      yMin: 0.4, yMax: 1 }),
  ];
  models.forEach((m, i) => {
    const y = top + 14 + i * 18, x = left + 2 * width + gap + 16;
    parts.push(`<line x1="${x}" x2="${x + 18}" y1="${y - 4}" y2="${y - 4}" stroke="${PALETTE[i % PALETTE.length]}" `
      + 'stroke-width="3"/>');
    parts.push(`<text x="${x + 24}" y="${y}" font-size="11">${esc(`${m.label} (h=${m.hidden})`)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
