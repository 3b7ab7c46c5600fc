// <gatelab-lm>'s CSS, added to the shared look of figure-styles.js: the two canvases (stacked on
// a phone, side by side from 620 px), the control fieldsets, the results table and the samples.
export const LM_STYLES = `
.plots canvas.loss { aspect-ratio: 1.3; }
.plots canvas.antisymmetric-share { aspect-ratio: 1.7; }
@container (min-width: 620px) {
  .plots { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
  .plots canvas.loss { aspect-ratio: 1.45; }
  .plots canvas.antisymmetric-share { aspect-ratio: 0.97; }
}
.controls { align-items: stretch; }
.group { border: 1px solid var(--gl-grid); border-radius: 8px; padding: 4px 10px 8px; margin: 0;
  display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: center; align-content: flex-start;
  flex: 1 1 260px; min-width: 0; }
.group legend { color: var(--gl-muted); font-size: 0.9em; padding: 0 4px; }
.group select { max-width: 100%; min-width: 0; }
.group .control { min-width: 0; max-width: 100%; }
.group input[type=range] { width: 8em; }
.results { overflow-x: auto; margin-top: 10px; }
.results:focus-visible { outline: 2px solid var(--gl-accent); outline-offset: 2px; }
.results table { border-collapse: collapse; width: 100%; font-size: 0.9em; font-variant-numeric: tabular-nums; }
.results th, .results td {
  text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--gl-grid); white-space: nowrap;
}
.swatch {
  display: inline-block; width: 0.8em; height: 0.8em; border-radius: 2px; margin-right: 6px; vertical-align: -0.05em;
}
.results .diverged { color: var(--gl-accent); white-space: normal; font-size: 0.95em; padding-left: 2em; }
.samples { display: grid; gap: 8px; margin-top: 10px; }
@container (min-width: 620px) { .samples { grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); } }
.sample { min-width: 0; border: 1px solid var(--gl-grid); border-radius: 8px; padding: 6px 10px; }
.sample-title { margin: 0 0 4px; color: var(--gl-muted); font-size: 0.9em; }
.sample-text { margin: 0; font: 0.88em/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; color: var(--gl-fg); }
`;
