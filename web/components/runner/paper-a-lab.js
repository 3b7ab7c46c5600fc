// The paper-A half of the API (datasets, trainers, race, census, rankApprox, interactions) for
// a loaded GateLab: the lab itself once gatelab.js installs it, else installed here once per
// module instance, so the figures work with either.
import { installPaperA } from '../../lib/paper-a.js';

const installed = new WeakMap();

/** @param {import('../../../lib/gatelab.js').GateLab} lab */
export function paperA(lab) {
  if (typeof lab.createTrainer === 'function' && typeof lab.census === 'function') return lab;
  let api = installed.get(lab);
  if (!api) installed.set(lab, (api = installPaperA(lab)));
  return api;
}
