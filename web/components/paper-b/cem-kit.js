// What the paper-B figures (<gatelab-energy>, <gatelab-precond>, <gatelab-tying>) share apart from
// drawing: tokens in the 2-D token space (the `tokens` attribute), the CEM attention layer a
// figure shows (its weights from the library's seeded initialisation, plus a diagonal and the
// preconditioner's factors drawn by the library from the same seed, since it starts them at 0
// and at P = I, which would show nothing). No DOM here: it also runs in Node.

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

/** The spread of the drawn diagonal and preconditioner factors U, V: 0.7·N(0, 1). */
const DRAWN_SCALE = 0.7;

/** The parameters a plane figure has the library draw: the diagonal and U, V (p keeps P's diagonal part at I). */
function drawnNames(att) {
  return att.parameterLayout.flatMap((param) => (param.name === 'diag' ? ['diag']
    : (param.parts ?? []).filter((part) => part.name !== 'p').map((part) => `precond.${part.name}`)));
}

/**
 * Sets the preconditioner's factors given ({ U, V }: arrays of d·r numbers) where
 * att.parameterLayout places them; p and the factors not given keep their values.
 */
export function setFactors(att, factors) {
  const { precond } = att.getParams();
  for (const part of att.parameterLayout.find((param) => param.name === 'precond').parts) {
    if (factors[part.name] !== undefined) precond.set(factors[part.name], part.offset);
  }
  att.setParams({ precond });
}

/**
 * A CEM attention of width 2 for the token-plane figures. options: heads, steps, eta, beta
 * (0 = the library's 1/√d_h), diagonal, precond, seed; factors ({ U, V }) replace the drawn ones.
 * The caller disposes it.
 */
export function createPlaneAttention(lab, { heads, steps, eta, beta, diagonal, precond, seed, factors }) {
  const rank = precond === 'none' ? 0 : 1;
  const att = lab.cem.createAttention({ d: 2, heads, steps, eta, beta: beta > 0 ? beta : undefined, diagonal, precond,
    precondRank: rank, seed });
  try {
    const names = drawnNames(att);
    if (names.length) att.drawParams(names, { seed, scale: DRAWN_SCALE });
    if (factors) setFactors(att, factors);
  } catch (error) {
    att.dispose();
    throw error;
  }
  return att;
}

/** −∇ε of token i at y⁰ = h_i (one plain step: P = I, η = 1), from the library's energyGradient. */
export function descentDirection(att, h, n, i) {
  const gradient = att.energyGradient(h, n, i, h.slice(i * att.d, (i + 1) * att.d));
  return Float64Array.from(gradient, (g) => -g);
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
