// The GP half of the API (sample, posterior, createSession) for a loaded GateLab: lab.gp once
// gatelab.js installs it, else installed here once per module instance.
import { installGp } from '../../lib/gp.js';

const installed = new WeakMap();

/** @param {import('../../../lib/gatelab.js').GateLab} lab */
export function gpApi(lab) {
  if (lab.gp && typeof lab.gp.createSession === 'function') return lab.gp;
  let api = installed.get(lab);
  if (!api) installed.set(lab, (api = installGp(lab)));
  return api;
}
