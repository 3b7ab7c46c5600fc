// Registers every GateLab figure. Importing this module is all a page needs:
//   <script type="module" src=".../web/components/index.js"></script>
//   <gatelab-exchange-plane activation="gelu"></gatelab-exchange-plane>
// It also re-exports the framework for pages and figures built on it.
import { GateLabExchangePlane } from './paper-a/gatelab-exchange-plane.js';
import { GateLabExchange } from './paper-a/gatelab-exchange.js';
import { GateLabScaling } from './paper-a/gatelab-scaling.js';
import { GateLabRank } from './paper-a/gatelab-rank.js';
import { GateLabCensus } from './paper-a/gatelab-census.js';
import { GateLabRace } from './paper-a/race/gatelab-race.js';
import { GateLabInteractions } from './paper-a/gatelab-interactions.js';
import { GateLabLm } from './paper-a/lm/gatelab-lm.js';
import { GateLabTeleport } from './paper-a/orbit/gatelab-teleport.js';
import { GateLabConservation } from './paper-a/orbit/gatelab-conservation.js';
import { GateLabConditioning } from './paper-a/gatelab-conditioning.js';
import { GateLabEnergy } from './paper-b/gatelab-energy.js';
import { GateLabTying } from './paper-b/gatelab-tying.js';
import { GateLabPrecond } from './paper-b/gatelab-precond.js';
import { GateLabGp } from './paper-b/gatelab-gp.js';

export { GateLabFigure } from './base/gatelab-figure.js';
export { GateLabExchangePlane } from './paper-a/gatelab-exchange-plane.js';
export { GateLabExchange } from './paper-a/gatelab-exchange.js';
export { GateLabScaling } from './paper-a/gatelab-scaling.js';
export { GateLabRank } from './paper-a/gatelab-rank.js';
export { GateLabCensus } from './paper-a/gatelab-census.js';
export { GateLabRace } from './paper-a/race/gatelab-race.js';
export { GateLabInteractions } from './paper-a/gatelab-interactions.js';
export { GateLabLm } from './paper-a/lm/gatelab-lm.js';
export { GateLabTeleport } from './paper-a/orbit/gatelab-teleport.js';
export { GateLabConservation } from './paper-a/orbit/gatelab-conservation.js';
export { GateLabConditioning } from './paper-a/gatelab-conditioning.js';
export { GateLabEnergy } from './paper-b/gatelab-energy.js';
export { GateLabTying } from './paper-b/gatelab-tying.js';
export { GateLabPrecond } from './paper-b/gatelab-precond.js';
export { GateLabGp } from './paper-b/gatelab-gp.js';
export { configureSharedLab, sharedLab } from './base/shared-lab.js';
export { configureRunner, sharedRunner, LabRunner } from './runner/lab-runner.js';
export { mirrorStateToHash } from './base/url-state.js';
export { configureShare, pinnedSite, posterIndex, shareLinks } from './base/share-links.js';

export const FIGURES = {
  // Paper A
  'gatelab-exchange-plane': GateLabExchangePlane,
  'gatelab-exchange': GateLabExchange,
  'gatelab-scaling': GateLabScaling,
  'gatelab-rank': GateLabRank,
  'gatelab-census': GateLabCensus,
  'gatelab-race': GateLabRace,
  'gatelab-interactions': GateLabInteractions,
  'gatelab-lm': GateLabLm,
  'gatelab-teleport': GateLabTeleport,
  'gatelab-conservation': GateLabConservation,
  'gatelab-conditioning': GateLabConditioning,
  // Paper B
  'gatelab-energy': GateLabEnergy,
  'gatelab-tying': GateLabTying,
  'gatelab-precond': GateLabPrecond,
  'gatelab-gp': GateLabGp,
};

/** Defines every figure's tag (safe to call twice; a no-op where there is no DOM). */
export function defineFigures() {
  for (const [tag, figureClass] of Object.entries(FIGURES)) figureClass.define(tag);
}

defineFigures();
