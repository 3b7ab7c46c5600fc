// GateLab's matrix product as a tiny wasm module for the JavaScript benchmark suite
// (bench/suite/matmul.mjs), so GateLab-wasm, TF.js and ONNX Runtime Web are timed by the same
// JS code in the same process, their batches interleaved (a busy machine then slows all of
// them alike). Built only in the wasm build (bench/CMakeLists.txt: bench_module), loaded in
// Node and in the browser benchmark page.
#include <emscripten/emscripten.h>

#include "gatelab/base/matmul.hpp"

extern "C" {

// C (m×n) = A (m×k) · B (k×n), all row-major in the module's heap.
EMSCRIPTEN_KEEPALIVE void gl_matmul_nn(const float* a, const float* b, float* c, int m, int k, int n) {
  gatelab::matmul_nn(a, b, c, m, k, n, false);
}

}  // extern "C"
