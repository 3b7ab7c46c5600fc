// Registers every GateLab figure. Importing this module is all a page needs:
//   <script type="module" src=".../web/components/index.js"></script>
//   <gatelab-exchange-plane activation="gelu"></gatelab-exchange-plane>
// It also re-exports the framework for pages and figures built on it.
import { GateLabExchangePlane } from './gatelab-exchange-plane.js';

export { GateLabFigure } from './gatelab-figure.js';
export { GateLabExchangePlane } from './gatelab-exchange-plane.js';
export { configureSharedLab, sharedLab } from './shared-lab.js';
export { configureRunner, sharedRunner, LabRunner } from './lab-runner.js';
export { mirrorStateToHash } from './url-state.js';

export const FIGURES = {
  'gatelab-exchange-plane': GateLabExchangePlane,
};

/** Defines every figure's tag (safe to call twice; a no-op where there is no DOM). */
export function defineFigures() {
  for (const [tag, figureClass] of Object.entries(FIGURES)) figureClass.define(tag);
}

defineFigures();
