// The standard layers the CEM experiments compare against (docs/MATH.md §B8, §B9), with
// backward passes:
//   RMSNorm      y = x / √(mean(x²) + ε) ⊙ g                         gain g: (d)
//   attention    untied causal multi-head: out = concat_k(softmax_causal(β Q_k K_kᵀ) V_k) W_Oᵀ,
//                Q_k = x W_Q^kᵀ etc.;   W_Q, W_K, W_V: (heads·d_h, d), W_O: (d, heads·d_h)
// The standard gated MLP is not here: it is the paper-A gated layer (paper_a/layer.hpp) with
// Q = W_gate, K = W_up, V = W_downᵀ. Neither layer adds the residual; the transformer does.
// With W_V = W_K, W_O = η W_Qᵀ, T = 1, no diagonal and P = I, CemAttention(h) = h + this
// attention(h) (tested).
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/common.hpp"

namespace gatelab {

// y (n×d) = x / rms ⊙ gain, rms = √(mean(x²) + eps); inv_rms (n) keeps 1/rms per row.
template <class S>
void cem_rmsnorm_forward(const S* x, const S* gain, int n, int d, S eps, S* y, S* inv_rms);
// Given dy (n×d): writes dx (n×d) and adds dL/d(gain) to dgain (d).
template <class S>
void cem_rmsnorm_backward(const S* x, const S* gain, const S* inv_rms, const S* dy, int n, int d, S* dx, S* dgain);

struct CemStdAttentionConfig {
  int d = 8;
  int heads = 2;      // must divide d
  float beta = 0.0f;  // 0 means 1/√d_h
  std::uint64_t seed = 0;
};
Status validate(const CemStdAttentionConfig& config);

template <class S>
struct CemStdAttentionParamsT {
  xt::xtensor<S, 2> wq, wk, wv;  // (heads·d_h, d): rows h·d_h … (h+1)·d_h − 1 belong to head h
  xt::xtensor<S, 2> wo;          // (d, heads·d_h): column block h belongs to head h
};

template <class S>
class CemStdAttentionT {
 public:
  // Init: W_Q, W_K, W_V ~ N(0, 1/d), W_O ~ N(0, 1/d), in that order, from Pcg32(seed).
  explicit CemStdAttentionT(const CemStdAttentionConfig& config);
  const Status& error() const { return error_; }
  const CemStdAttentionConfig& config() const { return config_; }
  S beta() const { return beta_; }
  CemStdAttentionParamsT<S>& params() { return params_; }
  const CemStdAttentionParamsT<S>& params() const { return params_; }
  CemStdAttentionParamsT<S>& grads() { return grads_; }
  void zero_grad();
  std::vector<ParamView<S>> parameters();  // "wq", "wk", "wv", "wo"
  std::size_t parameter_count() const;

  // x: (n, d) → out: (n, d), no residual.
  Status forward(const S* x, int n, S* out) const;
  // Sets (or adds to) grads(); writes dL/dx when grad_x is not null. Recomputes the forward.
  Status backward(const S* x, int n, const S* grad_out, S* grad_x, bool accumulate = false);

  // The transformer's path: x holds `sequences` causal sequences of n tokens one after the
  // other ((sequences·n) × d), each attending only to itself. The projections and the weight
  // gradients run over all rows at once, the scores of every sequence and head in one batched
  // causal product (base/matmul_causal.hpp);
  // forward_sequences keeps q, k, v, the head outputs and (when they fit) the attention
  // weights, and backward_sequences, given the same x, reads them instead of recomputing.
  // The bits are those of forward / backward(accumulate = true) called on each sequence in
  // turn. backward_sequences adds to grads().
  Status forward_sequences(const S* x, int n, int sequences, S* out);
  Status backward_sequences(const S* x, int n, int sequences, const S* grad_out, S* grad_x);

  // What one forward keeps for its backward, and the backward's scratch (reused between calls).
  struct Cache {
    const S* x = nullptr;  // the input these belong to (null: none)
    int n = 0, sequences = 0;
    bool alpha_kept = false;
    std::vector<S> q, k, v;  // per head, all rows: (heads, rows, d_h), i.e. heads·sequences problems
    std::vector<S> alpha;    // per head and sequence: (heads, sequences, n, n), when alpha_kept
    std::vector<S> o;        // the heads' outputs side by side: (rows, d)
    std::vector<S> rows_d, head, scores, dq, dk, dv, stacked, w_stacked;  // scratch
  };

 private:
  void forward_into(Cache& cache, const S* x, int n, int sequences, S* out) const;
  void backward_from(Cache& cache, const S* x, const S* grad_out, S* grad_x);

  CemStdAttentionConfig config_;
  Status error_;
  int dh_ = 0;
  S beta_ = 0;
  CemStdAttentionParamsT<S> params_, grads_;
  Cache cache_;
};

using CemStdAttention = CemStdAttentionT<float>;
using CemStdAttention64 = CemStdAttentionT<double>;

}  // namespace gatelab
