// What the paper-B figures (<gatelab-energy>, <gatelab-precond>, <gatelab-tying>) share apart from
// drawing: tokens in the 2-D token space (the `tokens` attribute), the CEM attention layer a
// figure shows (its weights from the library's seeded initialisation, plus a diagonal and a
// preconditioner drawn from the same seed, since the library starts them at 0 and at P = I,
// which would show nothing). No DOM here: it also runs in Node.
import { normalArray } from '../base/seeded-random.js';

/** softplus⁻¹(1) = log(e − 1): p filled with it puts 1 on P's diagonal. */
export const SOFTPLUS_INV_ONE = Math.log(Math.E - 1);

/** Tokens are kept within ±TOKEN_LIMIT. */
export const TOKEN_LIMIT = 6;
export const MAX_TOKENS = 8;
const PAIR = String.raw`[+-]?(?:\d+\.?\d*|\.\d+),[+-]?(?:\d+\.?\d*|\.\d+)`;
/** 2 to 8 points "x,y", separated by spaces; the last one is the query token. */
export const TOKENS_PATTERN = new RegExp(String.raw`^\s*${PAIR}(?:\s+${PAIR}){1,${MAX_TOKENS - 1}}\s*$`);

/** The tokens the token-plane figures start from: three context tokens and the query. */
export const DEFAULT_TOKENS = '-1.6,1.1 1.4,1.5 0.9,-1.5 0.4,0.7';

/** Attribute text → Float32Array n·2 (each coordinate clamped to ±TOKEN_LIMIT), or null. */
export function parseTokens(text) {
  if (typeof text !== 'string' || !TOKENS_PATTERN.test(text)) return null;
  const values = text.trim().split(/[\s,]+/).map(Number);
  return Float32Array.from(values, (v) => Math.max(-TOKEN_LIMIT, Math.min(TOKEN_LIMIT, v)));
}

/** The tokens of a `tokens` attribute, or DEFAULT_TOKENS where it is not valid. */
export function tokensOf(text) {
  return parseTokens(text) ?? parseTokens(DEFAULT_TOKENS);
}

/** Float32Array n·2 → attribute text, two decimals, e.g. "-1.6,1.1 1.4,1.5". */
export function formatTokens(h) {
  const round = (v) => String(Math.round(v * 100) / 100).replace(/^-0$/, '0');
  const pairs = [];
  for (let i = 0; i + 1 < h.length; i += 2) pairs.push(`${round(h[i])},${round(h[i + 1])}`);
  return pairs.join(' ');
}

/** Seeds for the figure-drawn parameters, apart from the library's own stream. */
function extraSeed(seed, salt) {
  return (Math.imul(seed ^ 0x2545f491, 0x9e3779b1) + salt) >>> 0;
}

/**
 * The figure's diagonal and preconditioner for a layer of width d: diag ~ N(0, 0.7²) per row,
 * p = softplus⁻¹(1) (so P's diagonal part is I), U and V ~ N(0, 0.7²).
 */
export function figureExtras(seed, { d, heads, diagonal, precond, rank }) {
  const extras = {};
  if (diagonal !== 'none') {
    const rows = diagonal === 'shared' ? 1 : heads;
    extras.diag = normalArray(rows * d, extraSeed(seed, 1)).map((v) => 0.7 * v);
  }
  if (precond !== 'none') {
    const factors = precond === 'paper' ? 2 : 1;
    const flat = new Float32Array(d + factors * d * rank);
    flat.fill(SOFTPLUS_INV_ONE, 0, d);
    flat.set(normalArray(factors * d * rank, extraSeed(seed, 2)).map((v) => 0.7 * v), d);
    extras.precond = flat;
  }
  return extras;
}

/**
 * A CEM attention of width 2 for the token-plane figures. options: heads, steps, eta, beta
 * (0 = 1/√d_h), diagonal, precond, seed; precondParams replaces the drawn preconditioner.
 * The caller disposes it.
 */
export function createPlaneAttention(lab, { heads, steps, eta, beta, diagonal, precond, seed, precondParams }) {
  const rank = precond === 'none' ? 0 : 1;
  const att = lab.cem.createAttention({ d: 2, heads, steps, eta, beta: beta > 0 ? beta : undefined, diagonal, precond,
    precondRank: rank, seed });
  try {
    const extras = figureExtras(seed, { d: 2, heads, diagonal, precond, rank });
    if (precondParams) extras.precond = precondParams;
    if (Object.keys(extras).length) att.setParams(extras);
  } catch (error) {
    att.dispose();
    throw error;
  }
  return att;
}

/** −∇ε of token i at y⁰ = h_i: one plain step (P = I, η = 1) of a copy of the layer's weights. */
export function descentDirection(lab, att, h, n, i) {
  const { heads, beta, diagonal, seed } = att.options;
  const plain = lab.cem.createAttention({ d: att.d, heads, steps: 1, eta: 1, beta, diagonal, seed });
  try {
    const { WQ, WK, diag } = att.getParams();
    plain.setParams(diag ? { WQ, WK, diag } : { WQ, WK });
    const out = plain.forward(h, n);
    return Float64Array.from({ length: att.d }, (_, k) => out[i * att.d + k] - h[i * att.d + k]);
  } finally {
    plain.dispose();
  }
}

/** Row i of the trajectory (T+1)·n·d: the query's path y⁰ … y^T as [x0, y0, x1, y1, …]. */
export function pathOf(trajectory, n, d, i, steps) {
  const out = new Float32Array((steps + 1) * d);
  for (let t = 0; t <= steps; t++) out.set(trajectory.subarray((t * n + i) * d, (t * n + i + 1) * d), t * d);
  return out;
}

/** Energies of token i per step from energyTrace (n·(T+1)). */
export function traceOf(trace, i, steps) {
  return trace.slice(i * (steps + 1), (i + 1) * (steps + 1));
}

/** The first step t where the energy rose, or −1. */
export function firstRise(energies) {
  for (let t = 1; t < energies.length; t++) if (energies[t] > energies[t - 1]) return t;
  return -1;
}
