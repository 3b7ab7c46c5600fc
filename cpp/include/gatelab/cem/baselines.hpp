// The standard layers the CEM experiments compare against (MATH.md B7), with backward passes:
//   RMSNorm      y = x / √(mean(x²) + ε) ⊙ g                         gain g: (d)
//   attention    untied causal multi-head: out = concat_k(softmax_causal(β Q_k K_kᵀ) V_k) W_Oᵀ,
//                Q_k = x W_Q^kᵀ etc.;   W_Q, W_K, W_V: (heads·d_h, d), W_O: (d, heads·d_h)
//   gated MLP    out = (σ(x W_gateᵀ) ⊙ x W_upᵀ) W_downᵀ, σ = SiLU by default (SwiGLU);
//                W_gate, W_up: (M, d), W_down: (d, M)
// Neither layer adds the residual; the transformer does. With W_V = W_K, W_O = η W_Qᵀ, T = 1,
// no diagonal and P = I, CemAttention(h) = h + this attention(h) (tested).
#pragma once

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
std::string validate(const CemStdAttentionConfig& config);

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
  const std::string& error() const { return error_; }
  const CemStdAttentionConfig& config() const { return config_; }
  S beta() const { return beta_; }
  CemStdAttentionParamsT<S>& params() { return params_; }
  const CemStdAttentionParamsT<S>& params() const { return params_; }
  CemStdAttentionParamsT<S>& grads() { return grads_; }
  void zero_grad();
  std::vector<CemParamView<S>> parameters();  // "wq", "wk", "wv", "wo"
  std::size_t parameter_count() const;

  // x: (n, d) → out: (n, d), no residual.
  std::string forward(const S* x, int n, S* out) const;
  // Sets (or adds to) grads(); writes dL/dx when grad_x is not null. Recomputes the forward.
  std::string backward(const S* x, int n, const S* grad_out, S* grad_x, bool accumulate = false);

 private:
  CemStdAttentionConfig config_;
  std::string error_;
  int dh_ = 0;
  S beta_ = 0;
  CemStdAttentionParamsT<S> params_, grads_;
};

struct CemSwiGluConfig {
  int d = 8;
  int hidden = 16;  // M
  ActivationSpec activation{Activation::silu, 1.0f};
  std::uint64_t seed = 0;
};
std::string validate(const CemSwiGluConfig& config);

template <class S>
struct CemSwiGluParamsT {
  xt::xtensor<S, 2> w_gate, w_up;  // (M, d)
  xt::xtensor<S, 2> w_down;        // (d, M)
};

template <class S>
class CemSwiGluT {
 public:
  // Init: W_gate, W_up ~ N(0, 1/d), W_down ~ N(0, 1/M), in that order, from Pcg32(seed).
  explicit CemSwiGluT(const CemSwiGluConfig& config);
  const std::string& error() const { return error_; }
  const CemSwiGluConfig& config() const { return config_; }
  CemSwiGluParamsT<S>& params() { return params_; }
  const CemSwiGluParamsT<S>& params() const { return params_; }
  CemSwiGluParamsT<S>& grads() { return grads_; }
  void zero_grad();
  std::vector<CemParamView<S>> parameters();  // "w_gate", "w_up", "w_down"
  std::size_t parameter_count() const;

  std::string forward(const S* x, int n, S* out) const;
  std::string backward(const S* x, int n, const S* grad_out, S* grad_x, bool accumulate = false);

 private:
  std::string check(int n, const void* in, const void* out) const;
  CemSwiGluConfig config_;
  std::string error_;
  CemSwiGluParamsT<S> params_, grads_;
};

using CemStdAttention = CemStdAttentionT<float>;
using CemStdAttention64 = CemStdAttentionT<double>;
using CemSwiGlu = CemSwiGluT<float>;
using CemSwiGlu64 = CemSwiGluT<double>;

}  // namespace gatelab
