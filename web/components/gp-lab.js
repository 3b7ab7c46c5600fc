// The GP half of the API (sample, posterior, createSession) for a loaded GateLab: lab.gp. Kept
// so that the figures' imports stay as they are; the library no longer exports an installer
// to fall back on.

/** @param {import('../lib/gatelab.js').GateLab} lab */
export function gpApi(lab) {
  return lab.gp;
}
