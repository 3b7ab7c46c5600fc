// A small causal transformer built from CEM layers or from the standard baselines, for the
// experiments of MATH.md B7 (in-context GP regression, a tiny character model):
//   H⁰ = x W_inᵀ                                   x: (n, d_in), W_in: (d, d_in)
//   per block l (family cem):      H' = H + (CemAttention(N) − N),   N = RMSNorm(H)
//                                  H⁺ = H' + (CemMlp(N') − N'),      N' = RMSNorm(H')
//                                  (pre-norm residual: the descent starts at the normalised
//                                  token, and only its update joins the stream)
//   per block l (family standard): H' = H + Attention(RMSNorm(H)), H⁺ = H' + Mlp(RMSNorm(H'))
//                                  Mlp: any paper-A layer (paper_a/layer.hpp) — by default the
//                                  gated rank-1 SwiGLU with Q = W_gate, K = W_up, V = W_downᵀ
//   out = RMSNorm(H^L) W_outᵀ                       W_out: (d_out, d), out: (n, d_out)
// No biases. forward() keeps the activations; backward() adds dL/dθ of that forward to the
// grads (zero_grad() between batches); an optimizer (train/optimizer.hpp) steps parameters().
#pragma once

#include "gatelab/base/status.hpp"
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "gatelab/base/activations.hpp"
#include "gatelab/cem/attention.hpp"
#include "gatelab/model/baselines.hpp"
#include "gatelab/cem/common.hpp"
#include "gatelab/cem/mlp.hpp"
#include "gatelab/paper_a/layer.hpp"

namespace gatelab {

// The transformer's layer defaults: two heads, T = 2 and η = 1 with a shared diagonal for CEM
// attention; M = 32 with SiLU for either MLP (σ of the gated SwiGLU slot).
CemAttentionConfig cem_transformer_attention_defaults();
CemMlpConfig cem_transformer_mlp_defaults();
LayerConfig cem_transformer_std_mlp_defaults();

// Holds its layers' configs instead of copying their fields, so a field a layer gains reaches
// the transformer (and lab.lm, lab.gp) at once. Block l's layers are these configs with the
// transformer's d (d_in = d_out = d for the MLP slot) and a seed derived from seed and l
// (cem_block_*_config); every other field is used as given. Family cem uses attention and mlp,
// family standard std_attention and std_mlp (paper A's layer in the MLP slot).
struct CemTransformerConfig {
  CemFamily family = CemFamily::cem;
  int d_in = 1;
  int d = 16;
  int d_out = 1;
  int layers = 2;
  CemAttentionConfig attention = cem_transformer_attention_defaults();
  CemMlpConfig mlp = cem_transformer_mlp_defaults();
  CemStdAttentionConfig std_attention{};  // heads 2, β 0 (= 1/√d_h)
  LayerConfig std_mlp = cem_transformer_std_mlp_defaults();
  float norm_eps = 1e-5f;
  std::uint64_t seed = 0;
};

// ok when valid; checks the transformer's own fields, then those of its layers' configs.
Status validate(const CemTransformerConfig& config);

// Gives attention and MLP the same descent (T, η) and preconditioner, as the experiments'
// models (gp-recursion, tiny-lm) all do.
void cem_set_shared_descent(CemTransformerConfig& config, int steps, float eta, CemPrecond precond, int precond_rank);
// For callers that pick the family at run time: the heads of either attention, M of either MLP,
// and whether both CEM layers learn η.
void cem_set_heads(CemTransformerConfig& config, int heads);
void cem_set_hidden(CemTransformerConfig& config, int hidden);
void cem_set_learn_eta(CemTransformerConfig& config, bool learn_eta);

// The layer configs block l of a transformer uses (seeds derived from config.seed and l).
CemAttentionConfig cem_block_attention_config(const CemTransformerConfig& config, int layer);
CemMlpConfig cem_block_mlp_config(const CemTransformerConfig& config, int layer);
CemStdAttentionConfig cem_block_std_attention_config(const CemTransformerConfig& config, int layer);
LayerConfig cem_block_std_mlp_config(const CemTransformerConfig& config, int layer);

// The standard MLP slot's init, in the Llama layout: Q then K (those that exist) ~ N(0, 1/d)
// row by row, then V drawn column by column as W_down = Vᵀ (d_out × m) ~ N(0, 1/m), in double
// scaled and rounded once, from Pcg32(config.seed). A layer's own init (Q, K ~ N(0, 1/d_in),
// V ~ N(0, 1/m) in float) keeps paper A's golden numbers; this one keeps the transformer's.
template <class S>
void cem_init_mlp_slot(LayerT<S>& layer);

template <class S>
class CemTransformerT {
 public:
  // Never fails (see CemAttentionT). Init: W_in ~ N(0, 1/d_in), W_out ~ N(0, 1/d) from
  // Pcg32(seed); norm gains 1; each layer from its own derived seed.
  explicit CemTransformerT(const CemTransformerConfig& config);

  const Status& error() const { return error_; }
  const CemTransformerConfig& config() const { return config_; }
  // Names: "w_in", "block<l>.norm1", "block<l>.attn.<layer names>", "block<l>.norm2",
  // "block<l>.mlp.<layer names>", "norm_final", "w_out".
  std::vector<ParamView<S>> parameters();
  std::size_t parameter_count() const;
  void zero_grad();

  // x: (sequences·n, d_in), `sequences` causal sequences of n tokens one after the other →
  // out: (sequences·n, d_out); keeps the activations for backward(). Attention runs sequence
  // by sequence, everything else on all rows at once (the same bits as one call per sequence).
  Status forward(const S* x, int n, S* out, int sequences = 1);
  // The same for one-hot rows given as the index of each row's 1 (0 ≤ tokens[r] < d_in): row r
  // of H⁰ is column tokens[r] of W_in, and backward adds row r of dL/dH⁰ to that column of
  // dW_in, row after row. For every finite W_in these are the bits of forward() on the one-hot
  // matrix (0 + w_in, then sums that add only exact zeros), without its (rows × d_in) products.
  // After it, backward() writes no dL/dx (grad_x must be null).
  Status forward_tokens(const std::int32_t* tokens, int n, S* out, int sequences = 1);
  // Given dL/d(out) (rows, d_out) of the last forward: adds dL/dθ to the grads and writes dL/dx
  // (rows, d_in) when grad_x is not null.
  Status backward(const S* grad_out, S* grad_x);
  // Rows of the last forward (0: none) and block l's MLP input RMSNorm(H') there ((rows, d);
  // null when l is out of range or there was no forward): what the MLP diagnostics read.
  int cached_rows() const { return cached_n_; }
  const S* mlp_input(int l) const;
  // Block l's attention input RMSNorm(H) there, likewise.
  const S* attention_input(int l) const;
  // Sets T of every CEM attention and MLP (family cem only) for later calls: training at one
  // depth and evaluating at another is test-time recursion (docs/EXPERIMENTS.md). ok or a
  // message naming the argument.
  Status set_steps(int attn_steps, int mlp_steps);

  // The layers of block l (null when l is out of range or the family differs).
  CemAttentionT<S>* cem_attention(int l);
  CemMlpT<S>* cem_mlp(int l);
  CemStdAttentionT<S>* std_attention(int l);
  LayerT<S>* std_mlp(int l);

 private:
  // Checks a forward's sizes and sizes the activations; then the blocks from H⁰ in slot 0.
  Status prepare_forward(int n, int sequences);
  Status run_blocks(int tokens, S* out);
  Status attention_forward(int l, const S* in, int n, S* out);
  Status mlp_forward(int l, const S* in, int rows, S* out);
  Status attention_backward(int l, const S* in, int n, const S* dout, S* din);
  Status mlp_backward(int l, const S* in, int rows, const S* dout, S* din);

  CemTransformerConfig config_;
  Status error_;
  xt::xtensor<S, 2> w_in_, w_out_, grad_w_in_, grad_w_out_;
  xt::xtensor<S, 2> gains_, grad_gains_;  // (2L + 1, d): norm1, norm2 per block, then final
  std::vector<CemAttentionT<S>> cem_attn_;
  std::vector<CemMlpT<S>> cem_mlp_;
  std::vector<CemStdAttentionT<S>> std_attn_;
  std::vector<LayerT<S>> std_mlp_;
  // Activations of the last forward: per block H, RMSNorm(H), H', RMSNorm(H') (n×d each) and
  // the two 1/rms rows; then H^L, its norm and 1/rms.
  int cached_n_ = 0;  // rows of the last forward (0: none), its tokens per sequence and sequences
  int cached_tokens_ = 0, cached_sequences_ = 1;
  std::vector<S> x_, acts_, inv_rms_;
  std::vector<std::int32_t> tokens_;     // the input of forward_tokens (then x_ is empty)
  std::vector<S> dh_, da_, dmid_, tmp_;  // backward's scratch, kept between calls
};

using CemTransformer = CemTransformerT<float>;
using CemTransformer64 = CemTransformerT<double>;

}  // namespace gatelab
