// Colour difference for the browser tests: sRGB (0–255) to CIELAB (D65) and the CIEDE2000
// difference ΔE00 (Sharma, Wu and Dalal 2005; tests/browser/base/colours.test.mjs checks it on their
// published test pairs).
// About 1 is a just-noticeable difference between two large patches; thin lines need far more.

/** '#rrggbb', 'rgb(r, g, b)' or 'rgba(r, g, b, a)' as [r, g, b, a] (a in 0–1). */
export function parseCssColour(text) {
  const t = text.trim();
  if (t.startsWith('#')) {
    const v = parseInt(t.slice(1, 7), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255, 1];
  }
  const [r, g, b, a = 1] = t.match(/[\d.]+/g).map(Number);
  return [r, g, b, a];
}

/** The colour seen when `rgb` is painted at opacity `alpha` over `background`. */
export function over([r, g, b], alpha, [br, bg, bb]) {
  return [r, g, b].map((c, k) => alpha * c + (1 - alpha) * [br, bg, bb][k]);
}

/** sRGB 0–255 → CIELAB (D65 white). */
export function rgbToLab([r, g, b]) {
  const linear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [R, G, B] = [linear(r), linear(g), linear(b)];
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const DEG = Math.PI / 180;
const hueOf = (b, a) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / DEG + 360) % 360);

/** CIEDE2000 ΔE between two CIELAB colours (kL = kC = kH = 1). */
export function deltaE2000([L1, a1, b1], [L2, a2, b2]) {
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + g) * a1, (1 + g) * a2];
  const [c1, c2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const [h1, h2] = [hueOf(b1, a1p), hueOf(b2, a2p)];
  let dh = 0;
  if (c1 * c2 !== 0) dh = h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 < -180 ? h2 - h1 + 360 : h2 - h1;
  const dL = L2 - L1;
  const dC = c2 - c1;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin((dh / 2) * DEG);
  const lBar = (L1 + L2) / 2;
  const cpBar = (c1 + c2) / 2;
  let hBar = h1 + h2;
  if (c1 * c2 !== 0) hBar = (Math.abs(h1 - h2) > 180 ? hBar + (hBar < 360 ? 360 : -360) : hBar) / 2;
  const t = 1 - 0.17 * Math.cos((hBar - 30) * DEG) + 0.24 * Math.cos(2 * hBar * DEG)
    + 0.32 * Math.cos((3 * hBar + 6) * DEG) - 0.2 * Math.cos((4 * hBar - 63) * DEG);
  const rotation = 30 * Math.exp(-(((hBar - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cpBar ** 7 / (cpBar ** 7 + 25 ** 7));
  const sL = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sC = 1 + 0.045 * cpBar;
  const sH = 1 + 0.015 * cpBar * t;
  const rT = -Math.sin(2 * rotation * DEG) * rc;
  return Math.sqrt((dL / sL) ** 2 + (dC / sC) ** 2 + (dH / sH) ** 2 + rT * (dC / sC) * (dH / sH));
}
