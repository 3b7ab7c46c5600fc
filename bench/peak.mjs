// The wasm SIMD128 peak that bench/run.mjs divides by: 4 lanes × 4 flops per cycle (two
// multiply and two add pipes, since wasm has no portable FMA) × the core clock. The clock is
// the one native bench_peak / bench_matmul measured under load (a chain of dependent integer adds, one
// cycle each), or else /proc/cpuinfo "cpu MHz", which on VMs is often the base clock.
import { readFileSync } from 'node:fs';

export const LANES = 4;
export const FLOPS_PER_LANE_PER_CYCLE = 4;

function cpuinfoGhz() {
  try {
    const mhz = [...readFileSync('/proc/cpuinfo', 'utf8').matchAll(/^cpu MHz\s*:\s*([\d.]+)/gm)].map((m) => +m[1]);
    return mhz.length ? Math.max(...mhz) / 1000 : 0;
  } catch {
    return 0;
  }
}

// Returns { ghz, source, gflops } or null when no clock is known.
export function wasmPeak(measuredGhz) {
  let ghz = measuredGhz > 0 ? measuredGhz : 0;
  let source = 'measured under load by the native benchmarks (a chain of dependent integer adds)';
  if (!ghz) {
    ghz = cpuinfoGhz();
    source = '/proc/cpuinfo "cpu MHz" (not measured; may be the base clock)';
  }
  if (!ghz) return null;
  return { ghz, source, gflops: LANES * FLOPS_PER_LANE_PER_CYCLE * ghz };
}

/**
 * The native build's measured mul + add ceiling: bench_peak's row at the widest vector it
 * measured natively (f32x8 with AVX2, f32x16 with AVX-512; the width the native matrix products
 * use), as { op, gflops }, or null when the run has no native peak rows. Native %ceil divides by it.
 */
export function nativeCeiling(rows) {
  const widths = rows.filter((r) => r.column === 'native' && /^peak_f32x\d+_mul\+add$/.test(r.op))
    .map((r) => ({ op: r.op, lanes: Number(/x(\d+)_/.exec(r.op)[1]), gflops: r.value }));
  if (!widths.length) return null;
  const widest = widths.reduce((a, b) => (b.lanes > a.lanes ? b : a));
  return { op: widest.op, gflops: widest.gflops };
}
