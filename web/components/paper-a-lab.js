// The paper-A half of the API (datasets, trainers, race, census, rankApprox, interactions) for
// a loaded GateLab: the lab itself, which carries it. Kept so that the figures' imports stay
// as they are; the library no longer exports an installer to fall back on.

/** @param {import('../lib/gatelab.js').GateLab} lab */
export function paperA(lab) {
  return lab;
}
