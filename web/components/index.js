// Registers every GateLab figure. Importing this module is all a page needs:
//   <script type="module" src=".../web/components/index.js"></script>
//   <gatelab-exchange-plane activation="gelu"></gatelab-exchange-plane>
// It also re-exports the framework for pages and figures built on it.
import { GateLabExchangePlane } from './gatelab-exchange-plane.js';
import { GateLabExchange } from './gatelab-exchange.js';
import { GateLabScaling } from './gatelab-scaling.js';
import { GateLabRank } from './gatelab-rank.js';
import { GateLabCensus } from './gatelab-census.js';
import { GateLabRace } from './gatelab-race.js';
import { GateLabInteractions } from './gatelab-interactions.js';
import { GateLabEnergy } from './gatelab-energy.js';
import { GateLabTying } from './gatelab-tying.js';
import { GateLabPrecond } from './gatelab-precond.js';
import { GateLabGp } from './gatelab-gp.js';

export { GateLabFigure } from './gatelab-figure.js';
export { GateLabExchangePlane } from './gatelab-exchange-plane.js';
export { GateLabExchange } from './gatelab-exchange.js';
export { GateLabScaling } from './gatelab-scaling.js';
export { GateLabRank } from './gatelab-rank.js';
export { GateLabCensus } from './gatelab-census.js';
export { GateLabRace } from './gatelab-race.js';
export { GateLabInteractions } from './gatelab-interactions.js';
export { GateLabEnergy } from './gatelab-energy.js';
export { GateLabTying } from './gatelab-tying.js';
export { GateLabPrecond } from './gatelab-precond.js';
export { GateLabGp } from './gatelab-gp.js';
export { configureSharedLab, sharedLab } from './shared-lab.js';
export { configureRunner, sharedRunner, LabRunner } from './lab-runner.js';
export { mirrorStateToHash } from './url-state.js';

export const FIGURES = {
  'gatelab-exchange-plane': GateLabExchangePlane,
  // Paper A (issue 4)
  'gatelab-exchange': GateLabExchange,
  'gatelab-scaling': GateLabScaling,
  'gatelab-rank': GateLabRank,
  'gatelab-census': GateLabCensus,
  'gatelab-race': GateLabRace,
  'gatelab-interactions': GateLabInteractions,
  // Paper B (issue 5)
  'gatelab-energy': GateLabEnergy,
  'gatelab-tying': GateLabTying,
  'gatelab-precond': GateLabPrecond,
  'gatelab-gp': GateLabGp,  // issue 6
};

/** Defines every figure's tag (safe to call twice; a no-op where there is no DOM). */
export function defineFigures() {
  for (const [tag, figureClass] of Object.entries(FIGURES)) figureClass.define(tag);
}

defineFigures();
