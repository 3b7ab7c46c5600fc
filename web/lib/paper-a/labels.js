// The paper-A layer kinds in their canonical order (docs/MATH.md §A1, §A4, §A5).
export const KINDS = Object.freeze(['mlp', 'symmetric', 'gated']);
