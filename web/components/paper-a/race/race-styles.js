// The race figure's CSS, added to the shared look of figure-styles.js: the four canvases' grid
// (one column on a phone, two from 600 px), the fieldsets of race-controls.js, the point
// editor's line and the results table. A file of its own so the element holds no stylesheet.
export const RACE_STYLES = `
.plots canvas.data { aspect-ratio: 1.05; }
.plots canvas.loss { aspect-ratio: 0.95; }
.plots canvas.accuracy { aspect-ratio: 1.5; }
.plots canvas.boundaries { grid-column: 1 / -1; aspect-ratio: 2; }
@container (min-width: 600px) {
  .plots { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .plots canvas.data { aspect-ratio: 1; }
  .plots canvas.loss { aspect-ratio: 1; }
  .plots canvas.accuracy { grid-column: 1 / -1; aspect-ratio: 3.4; }
}
canvas.data:focus-visible { outline-offset: 0; }
.editor { margin: 6px 0 0; min-height: 1.45em; color: var(--gl-muted); }
.controls { align-items: stretch; }
.group { border: 1px solid var(--gl-grid); border-radius: 8px; padding: 4px 10px 8px; margin: 0;
  display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; align-content: flex-start;
  flex: 1 1 260px; min-width: 0; }
.group input[type=range] { width: 7.5em; }
.group legend { color: var(--gl-muted); font-size: 0.9em; padding: 0 4px; }
.checks { display: flex; flex-wrap: wrap; gap: 2px 12px; flex-basis: 100%; }
.check { display: inline-flex; align-items: center; gap: 5px; min-height: 30px; }
.check input { min-height: 0; width: 1.05em; height: 1.05em; accent-color: var(--gl-accent); }
.paste { flex-basis: 100%; }
.paste textarea { font: 0.9em ui-monospace, monospace; color: var(--gl-fg); background: var(--gl-bg);
  border: 1px solid var(--gl-muted); border-radius: 6px; width: 100%; min-width: 0; resize: vertical; }
.results { overflow-x: auto; margin-top: 10px; }
.results:focus-visible { outline: 2px solid var(--gl-accent); outline-offset: 2px; }
.results table { border-collapse: collapse; width: 100%; font-size: 0.9em; font-variant-numeric: tabular-nums; }
.results th, .results td {
  text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--gl-grid); white-space: nowrap;
}
.results .swatch {
  display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 6px; vertical-align: -0.05em;
}
.results .diverged { color: var(--gl-accent); white-space: normal; font-size: 0.95em; padding-left: 2em; }
`;
