// What the race says about its outcome: the results table under the plots (final values per
// model, mean ± std over seeds, a divergence in its own row) and the spoken summary of the live
// readout. Both read a RaceSession (race-session.js); kept apart from the element so the wording
// and the table's columns live in one place.
import { formatNumber } from '../../base/format.js';
import { palette } from '../../base/figure-extras.js';
import { layerLabel } from '../../base/labels.js';
import { TASK_LABELS } from './race-controls.js';

/** Three decimals for the table, or a short scientific form for a diverged run's huge values. */
export function fixed3(v) {
  return Math.abs(v) < 1000 ? v.toFixed(3) : formatNumber(v);
}

/**
 * The results table for a session with runs (theme: the figure's, or null before its first draw;
 * lab: the figure's, for the models' names).
 * @returns {HTMLTableElement}
 */
export function buildResultsTable(s, theme, lab) {
  const colors = palette(theme ?? { accent: '#c2410c', accent2: '#1d5fd6', bg: '#fff' }, s.models.length);
  const table = document.createElement('table');
  const caption = document.createElement('caption');
  caption.className = 'visually-hidden';
  caption.textContent = 'Final values per model, mean ± std over seeds';
  const head = table.createTHead().insertRow();
  for (const h of ['model', 'width', 'params', 'train loss', 'test loss', 'test accuracy']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  s.models.forEach((m, i) => {
    const c = s.curves(i);
    const tr = body.insertRow();
    const name = tr.insertCell();
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colors[i];
    name.append(swatch, layerLabel(m, lab));
    const pm = (band) => `${fixed3(band.mean.at(-1))} ± ${fixed3(band.std.at(-1))}`;
    for (const text of [m.hidden, m.parameters, pm(c.trainLoss), pm(c.testLoss), pm(c.testAccuracy)]) {
      tr.insertCell().textContent = String(text);
    }
    // A divergence gets its own row under the model, in words.
    const diverged = s.runs[i].filter((r) => r.divergence);
    if (diverged.length) {
      const note = body.insertRow().insertCell();
      note.colSpan = 6;
      note.className = 'diverged';
      note.textContent = `${diverged.length} of ${s.runs[i].length} runs diverged: ${diverged[0].divergence.message}`;
    }
  });
  table.prepend(caption);
  return table;
}

/** The finished race in one sentence or two: accuracies, the lowest test loss, divergences. */
export function raceSummary(s, st, lab) {
  const finals = s.models.map((m, i) => {
    const c = s.curves(i);
    return { label: layerLabel(m, lab), acc: c.testAccuracy.mean.at(-1), std: c.testAccuracy.std.at(-1),
      loss: c.testLoss.mean.at(-1) };
  });
  const best = finals.reduce((a, b) => (b.loss < a.loss ? b : a));
  const list = finals.map((f) => `${f.label} ${fixed3(f.acc)} ± ${fixed3(f.std)}`).join(', ');
  return `After ${s.stepsDone} steps on ${TASK_LABELS[st.task]} `
    + `(${st.seeds} seed${st.seeds > 1 ? 's' : ''}, seed ${st.seed}), `
    + `test accuracy (mean ± std): ${list}. Lowest test loss: ${best.label} (${formatNumber(best.loss)}).`
    + divergenceText(s, lab);
}

/** Every model with a diverged run, in words. */
function divergenceText(s, lab) {
  const parts = [];
  s.models.forEach((m, i) => {
    const diverged = s.runs[i].filter((r) => r.divergence);
    if (!diverged.length) return;
    parts.push(` ${layerLabel(m, lab)}: ${diverged.length} of ${s.runs[i].length} runs diverged `
      + `(${diverged[0].divergence.message}); `
      + 'the library rolled each back to its last good step, and its curves stop there.');
  });
  return parts.join('');
}

/** The live readout while training (announced at most once a second). */
export function progressText(s, st) {
  return `Training ${s.models.length} models × ${st.seeds} seeds on ${TASK_LABELS[st.task]}: `
    + `step ${s.stepsDone} of ${s.steps}.`;
}
