// The shared look of every figure: theme properties with light and dark defaults, the frame
// (plots, controls, readout), native controls, focus rings, and layout that works from 320 px.
// Styles go in through constructable stylesheets (adoptedStyleSheets), which a strict
// Content-Security-Policy does not block; browsers without them get a <style> element built
// with textContent. Sheets are built lazily (on first use), once per class.

const BASE_CSS = `
:host {
  --gl-fg: var(--gatelab-fg, #1d1d1f);
  --gl-bg: var(--gatelab-bg, #ffffff);
  --gl-muted: var(--gatelab-muted, #5f6168);
  --gl-accent: var(--gatelab-accent, #c2410c);
  --gl-accent-2: var(--gatelab-accent-2, #1d5fd6);
  --gl-grid: var(--gatelab-grid, #e2e2e7);
  --gl-font: var(--gatelab-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  --gl-colormap: var(--gatelab-colormap, #2166ac, #92c5de, #f7f7f7, #f4a582, #b2182b);
  color-scheme: light;
  display: block;
  container-type: inline-size;
  box-sizing: border-box;
  max-width: 100%;
  min-width: 0;
  margin: 1.5em 0;
  padding: 12px;
  border: 1px solid var(--gl-grid);
  border-radius: 10px;
  color: var(--gl-fg);
  background: var(--gl-bg);
  font: 14px/1.45 var(--gl-font);
}
@media (prefers-color-scheme: dark) {
  :host {
    --gl-fg: var(--gatelab-fg, #e9e9ec);
    --gl-bg: var(--gatelab-bg, #17171a);
    --gl-muted: var(--gatelab-muted, #a3a3ab);
    --gl-accent: var(--gatelab-accent, #fb923c);
    --gl-accent-2: var(--gatelab-accent-2, #7cb1ff);
    --gl-grid: var(--gatelab-grid, #34343a);
    --gl-colormap: var(--gatelab-colormap, #5aa4e6, #26405c, #1c1c20, #66302a, #f0806a);
    color-scheme: dark;
  }
}
:host([hidden]) { display: none; }
[hidden] { display: none !important; }
*, *::before, *::after { box-sizing: inherit; }
.figure { margin: 0; min-width: 0; }
.plots { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; align-items: start; }
canvas { display: block; width: 100%; height: auto; border-radius: 4px; touch-action: pan-y; }
canvas:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible {
  outline: 2px solid var(--gl-accent);
  outline-offset: 2px;
}
.controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-top: 10px; }
:host([hide-controls]) .controls { display: none; }
.control { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 6px; min-height: 36px; }
.control-label { color: var(--gl-muted); }
.control-value { min-width: 3.5em; font-variant-numeric: tabular-nums; }
.control-note { color: var(--gl-muted); font-size: 0.9em; }
select, button, input {
  font: inherit;
  color: var(--gl-fg);
  background: var(--gl-bg);
  border: 1px solid var(--gl-muted);
  border-radius: 6px;
  min-height: 32px;
}
select, button { padding: 4px 10px; }
button { cursor: pointer; }
button:hover, select:hover { border-color: var(--gl-accent); }
input[type=range] { accent-color: var(--gl-accent); border: 0; background: transparent; width: min(11em, 60vw); }
input[type=checkbox] { accent-color: var(--gl-accent); min-height: 0; width: 1.05em; height: 1.05em; margin: 0; }
/* Not stretched to the height of the row when a figure's controls stretch (fieldsets of the race and LM). */
.export { display: inline-flex; gap: 6px; margin-left: auto; align-self: center; align-items: center; }
.readout {
  margin: 10px 0 0;
  min-height: 2.9em;
  color: var(--gl-fg);
  font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
}
.readout .busy { color: var(--gl-muted); }
.readout.error { color: var(--gl-accent); }
.caption { margin-top: 8px; color: var(--gl-muted); font-size: 0.93em; }
/* The line where a probe's reading is said (grid-probe.js createProbeLine). */
.probe { margin: 6px 0 0; min-height: 1.45em; color: var(--gl-muted); font-variant-numeric: tabular-nums; }
/* Until the first drawing the poster (slot="poster", or a text summary) covers the plots. */
.plots { position: relative; }
.poster {
  position: absolute; inset: 0; z-index: 1; display: flex; align-items: center; justify-content: center;
  overflow: hidden; background: var(--gl-bg); min-height: 120px;
}
.poster-summary { margin: 0; padding: 12px; color: var(--gl-muted); text-align: center; }
::slotted([slot="poster"]) { display: block; max-width: 100%; max-height: 100%; }
/* The Share / Embed dialog (share-dialog.js). */
dialog.share {
  width: min(40em, calc(100vw - 24px)); max-height: calc(100vh - 24px); padding: 16px 18px;
  color: var(--gl-fg); background: var(--gl-bg); border: 1px solid var(--gl-muted); border-radius: 10px;
  font: 14px/1.45 var(--gl-font);
}
dialog.share::backdrop { background: rgba(0, 0, 0, 0.45); }
.share-title { font-size: 1.1em; margin: 0 0 4px; }
.share-intro, .share-hint { margin: 0 0 6px; color: var(--gl-muted); font-size: 0.93em; }
.share-item { margin: 12px 0 0; }
.share-label { font-weight: 600; }
.share-field {
  display: block; width: 100%; margin: 2px 0 6px; padding: 6px 8px; resize: vertical;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color: var(--gl-fg); background: var(--gl-bg); border: 1px solid var(--gl-muted); border-radius: 6px;
}
.share-field:focus-visible, .share-open:focus-visible { outline: 2px solid var(--gl-accent); outline-offset: 2px; }
.share-actions, .share-footer { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.share-footer { justify-content: flex-end; margin-top: 12px; }
.share-open { color: var(--gl-accent-2); }
.share-status { min-height: 1.45em; margin: 8px 0 0; color: var(--gl-muted); }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;
}
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation: none !important; }
}
`;

const sheets = new Map();

function sheetFor(css) {
  let sheet = sheets.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    sheets.set(css, sheet);
  }
  return sheet;
}

/** Puts the base styles and the figure class's own `static styles` into its shadow root. */
export function adoptStyles(shadowRoot, figureClass) {
  const texts = [BASE_CSS, figureClass.styles ?? ''].filter(Boolean);
  const constructable = typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;
  if ('adoptedStyleSheets' in shadowRoot && constructable) {
    shadowRoot.adoptedStyleSheets = texts.map(sheetFor);
    return;
  }
  const style = document.createElement('style');
  style.textContent = texts.join('\n');
  shadowRoot.append(style);
}
