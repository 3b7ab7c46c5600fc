// The matrix-product shapes of the comparison, m × k × n (C = A·B, A m×k, B k×n), spelled as
// bench_matmul.cpp spells them so rows line up. Keep the two lists equal.
export const MATMUL_SHAPES = [
  { m: 64, k: 64, n: 64, note: 'square (also a 64-token layer 64 → 64)' },
  { m: 128, k: 128, n: 128, note: 'square' },
  { m: 256, k: 256, n: 256, note: 'square' },
  { m: 512, k: 512, n: 512, note: 'square' },
  { m: 1024, k: 1024, n: 1024, note: 'square' },
  { m: 500, k: 2, n: 16, note: 'layer 2 → 16, 500 points' },
  { m: 500, k: 16, n: 1, note: 'layer 16 → 1, 500 points' },
  { m: 16384, k: 3, n: 16, note: 'first layer over a 128×128 grid' },
  { m: 64, k: 64, n: 256, note: 'layer 64 → 256, 64 tokens' },
  { m: 1024, k: 64, n: 128, note: 'LM: 1024 tokens, 64 → 128 (the MLP\'s first products)' },
  { m: 1024, k: 128, n: 64, note: 'LM: 1024 tokens, 128 → 64 (the MLP\'s output product)' },
  { m: 64, k: 16, n: 64, note: 'LM: one head\'s scores, 64 × 16 · 16 × 64' },
  { m: 64, k: 64, n: 16, note: 'LM: one head\'s weights times values, 64 × 64 · 64 × 16' },
];
export const QUICK_MATMUL_SHAPES = [
  { m: 16, k: 16, n: 16, note: 'square' },
  { m: 33, k: 17, n: 9, note: 'odd' },
  { m: 64, k: 64, n: 64, note: 'square' },
];
export const shapeName = ({ m, k, n }) => `${m}x${k}x${n}`;
