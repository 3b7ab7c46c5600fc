// The small causal transformer of the CEM experiments (CEM or standard blocks): validation,
// init, forward with cached activations, backward through every block, AdamW step. See
// gatelab/model/transformer.hpp for the architecture.
#include "gatelab/model/transformer.hpp"

#include <algorithm>
#include <cmath>

#include "cem/math.hpp"

namespace gatelab {

using namespace cem_detail;

namespace {

// The residual add of a block half: out = sub-layer(norm) + stream for the standard family;
// for CEM out holds the end point of the energy descent started at norm, and only the
// update (end − start) joins the stream: out ← out − norm + stream.
template <class S>
void add_residual(S* out, const S* norm, const S* stream, std::size_t count, bool standard) {
  if (standard) {
    for (std::size_t i = 0; i < count; ++i) out[i] += stream[i];
  } else {
    for (std::size_t i = 0; i < count; ++i) out[i] = (out[i] - norm[i]) + stream[i];
  }
}

// Every block half draws its initial weights from its own seed, derived from the model's:
// attention of block l from 2l + 1, its MLP from 2l + 2 (so no two halves share a stream).
enum class BlockHalf : unsigned { attention = 1u, mlp = 2u };

std::uint64_t block_seed(const CemTransformerConfig& c, int layer, BlockHalf half) {
  return c.seed * 1000003u + 2u * std::uint64_t(layer) + static_cast<unsigned>(half);
}

}  // namespace

CemAttentionConfig cem_transformer_attention_defaults() {
  CemAttentionConfig a;
  a.heads = 2;
  a.steps = 2;
  a.diagonal = CemDiagonal::shared;
  return a;
}

CemMlpConfig cem_transformer_mlp_defaults() {
  CemMlpConfig m;
  m.hidden = 32;
  m.steps = 2;
  m.activation = {Activation::silu, 1.0f};
  return m;
}

LayerConfig cem_transformer_std_mlp_defaults() {
  LayerConfig m;
  m.kind = LayerKind::gated;
  m.hidden = 32;
  m.activation = {Activation::silu, 1.0f};
  return m;
}

void cem_set_shared_descent(CemTransformerConfig& c, int steps, float eta, CemPrecond precond, int precond_rank) {
  c.attention.steps = c.mlp.steps = steps;
  c.attention.eta = c.mlp.eta = eta;
  c.attention.precond = c.mlp.precond = precond;
  c.attention.precond_rank = c.mlp.precond_rank = precond_rank;
}

void cem_set_heads(CemTransformerConfig& c, int heads) { c.attention.heads = c.std_attention.heads = heads; }

void cem_set_hidden(CemTransformerConfig& c, int hidden) { c.mlp.hidden = c.std_mlp.hidden = hidden; }

void cem_set_learn_eta(CemTransformerConfig& c, bool learn_eta) { c.attention.learn_eta = c.mlp.learn_eta = learn_eta; }

CemAttentionConfig cem_block_attention_config(const CemTransformerConfig& c, int layer) {
  CemAttentionConfig a = c.attention;
  a.d = c.d;
  a.seed = block_seed(c, layer, BlockHalf::attention);
  return a;
}

CemMlpConfig cem_block_mlp_config(const CemTransformerConfig& c, int layer) {
  CemMlpConfig m = c.mlp;
  m.d = c.d;
  m.seed = block_seed(c, layer, BlockHalf::mlp);
  return m;
}

CemStdAttentionConfig cem_block_std_attention_config(const CemTransformerConfig& c, int layer) {
  CemStdAttentionConfig a = c.std_attention;
  a.d = c.d;
  a.seed = block_seed(c, layer, BlockHalf::attention);
  return a;
}

LayerConfig cem_block_std_mlp_config(const CemTransformerConfig& c, int layer) {
  LayerConfig m = c.std_mlp;
  m.d_in = m.d_out = c.d;
  m.seed = block_seed(c, layer, BlockHalf::mlp);
  return m;
}

template <class S>
void cem_init_mlp_slot(LayerT<S>& layer) {
  const LayerConfig& c = layer.config();
  auto& p = layer.params();
  Pcg32 rng(c.seed);
  const double key_scale = 1.0 / std::sqrt(double(c.d_in)), value_scale = 1.0 / std::sqrt(double(c.hidden));
  for (auto* t : {&p.q, &p.k}) {
    for (auto& x : *t) x = static_cast<S>(rng.normal_double() * key_scale);
  }
  const std::size_t m = p.v.shape()[0], o = p.v.shape()[1];
  for (std::size_t c_out = 0; c_out < o; ++c_out) {
    for (std::size_t j = 0; j < m; ++j) p.v(j, c_out) = static_cast<S>(rng.normal_double() * value_scale);
  }
}

template void cem_init_mlp_slot<float>(LayerT<float>&);
template void cem_init_mlp_slot<double>(LayerT<double>&);

Status validate(const CemTransformerConfig& c) {
  const int family = static_cast<int>(c.family);
  if (family < 0 || family > 1) return invalid_value("family", "family must be cem or standard");
  if (c.d_in < 1 || c.d_in > cem_max_io)
    return out_of_range("d_in",
                        "d_in must be in 1…" + std::to_string(cem_max_io) + " (d_in = " + std::to_string(c.d_in) + ")");
  if (c.d_out < 1 || c.d_out > cem_max_io) {
    return out_of_range(
        "d_out", "d_out must be in 1…" + std::to_string(cem_max_io) + " (d_out = " + std::to_string(c.d_out) + ")");
  }
  if (c.layers < 1 || c.layers > cem_max_layers) {
    return out_of_range("layers", "layers must be in 1…" + std::to_string(cem_max_layers) +
                                      " (layers = " + std::to_string(c.layers) + ")");
  }
  if (!(c.norm_eps > 0.0f && c.norm_eps <= 1.0f))
    return out_of_range("norm_eps", "norm_eps must be in (0, 1] (norm_eps = " + std::to_string(c.norm_eps) + ")");
  if (c.family == CemFamily::cem) {
    if (Status e = validate(cem_block_attention_config(c, 0)); !e.ok()) return e.within("attention");
    if (Status e = validate(cem_block_mlp_config(c, 0)); !e.ok()) return e.within("mlp");
  } else {
    if (Status e = validate(cem_block_std_attention_config(c, 0)); !e.ok()) return e.within("attention");
    if (Status e = validate(cem_block_std_mlp_config(c, 0)); !e.ok()) return e.within("mlp");
  }
  return {};
}

template <class S>
CemTransformerT<S>::CemTransformerT(const CemTransformerConfig& config) : config_(config), error_(validate(config)) {
  if (!error_.ok()) return;
  const std::size_t d = config.d, d_in = config.d_in, d_out = config.d_out, layers = config.layers;
  Pcg32 rng(config.seed);
  w_in_ = xt::xtensor<S, 2>::from_shape({d, d_in});
  w_out_ = xt::xtensor<S, 2>::from_shape({d_out, d});
  for (auto& x : w_in_) x = static_cast<S>(rng.normal_double() / std::sqrt(double(d_in)));
  for (auto& x : w_out_) x = static_cast<S>(rng.normal_double() / std::sqrt(double(d)));
  grad_w_in_ = xt::zeros<S>({d, d_in});
  grad_w_out_ = xt::zeros<S>({d_out, d});
  gains_ = xt::ones<S>({2 * layers + 1, d});
  grad_gains_ = xt::zeros<S>({2 * layers + 1, d});
  for (int l = 0; l < config.layers; ++l) {
    if (config.family == CemFamily::cem) {
      cem_attn_.emplace_back(cem_block_attention_config(config, l));
      cem_mlp_.emplace_back(cem_block_mlp_config(config, l));
    } else {
      std_attn_.emplace_back(cem_block_std_attention_config(config, l));
      std_mlp_.emplace_back(cem_block_std_mlp_config(config, l));
      cem_init_mlp_slot(std_mlp_.back());
    }
  }
}

template <class S>
std::vector<ParamView<S>> CemTransformerT<S>::parameters() {
  std::vector<ParamView<S>> out;
  if (!error_.ok()) return out;
  const int d = config_.d;
  auto gain = [&](int row, const std::string& name) {  // norm gains are never weight-decayed
    out.push_back({name, gains_.data() + std::size_t(row) * d, grad_gains_.data() + std::size_t(row) * d,
                   std::size_t(d), 1, d, /*decay=*/false});
  };
  out.push_back({"w_in", w_in_.data(), grad_w_in_.data(), w_in_.size(), d, config_.d_in});
  for (int l = 0; l < config_.layers; ++l) {
    const std::string block = "block" + std::to_string(l) + ".";
    gain(2 * l, block + "norm1");
    append_views(out, config_.family == CemFamily::cem ? cem_attn_[l].parameters() : std_attn_[l].parameters(),
                 block + "attn.");
    gain(2 * l + 1, block + "norm2");
    append_views(out, config_.family == CemFamily::cem ? cem_mlp_[l].parameters() : std_mlp_[l].parameters(),
                 block + "mlp.");
  }
  gain(2 * config_.layers, "norm_final");
  out.push_back({"w_out", w_out_.data(), grad_w_out_.data(), w_out_.size(), config_.d_out, d});
  return out;
}

template <class S>
std::size_t CemTransformerT<S>::parameter_count() const {
  return count_parameters(const_cast<CemTransformerT*>(this)->parameters());
}

template <class S>
void CemTransformerT<S>::zero_grad() {
  for (const auto& v : parameters()) std::fill(v.grad, v.grad + v.size, S(0));
}

// Attention mixes the tokens of one sequence: it runs sequence by sequence (n tokens each).
template <class S>
Status CemTransformerT<S>::attention_forward(int l, const S* in, int n, S* out) {
  if (config_.family == CemFamily::standard) return std_attn_[l].forward_sequences(in, n, cached_sequences_, out);
  const std::size_t stride = std::size_t(n) * config_.d;
  for (int b = 0; b < cached_sequences_; ++b) {
    const S* x = in + b * stride;
    S* y = out + b * stride;
    if (Status e = cem_attn_[l].forward(x, n, y); !e.ok()) return e;
  }
  return {};
}

// The MLPs act on each token alone: one call over all rows of all sequences.
template <class S>
Status CemTransformerT<S>::mlp_forward(int l, const S* in, int rows, S* out) {
  if (config_.family == CemFamily::cem) return cem_mlp_[l].forward(in, rows, out);
  std_mlp_[l].forward_keep(in, rows, out);  // backward reads its hidden layer
  return {};
}

// Gradients accumulate sequence after sequence, in the order one long pass would add them.
template <class S>
Status CemTransformerT<S>::attention_backward(int l, const S* in, int n, const S* dout, S* din) {
  if (config_.family == CemFamily::standard)
    return std_attn_[l].backward_sequences(in, n, cached_sequences_, dout, din);
  const std::size_t stride = std::size_t(n) * config_.d;
  for (int b = 0; b < cached_sequences_; ++b) {
    const S *x = in + b * stride, *g = dout + b * stride;
    S* dx = din + b * stride;
    if (Status e = cem_attn_[l].backward(x, n, g, dx, true); !e.ok()) return e;
  }
  return {};
}

// The CEM MLP's T steps each add to dW, step by step: sequence by sequence keeps the order of
// one call per sequence. The paper-A layer's sums run row by row, so all rows go at once.
template <class S>
Status CemTransformerT<S>::mlp_backward(int l, const S* in, int rows, const S* dout, S* din) {
  if (config_.family == CemFamily::standard) {
    std_mlp_[l].backward_kept(in, rows, dout, din, /*accumulate=*/true);
    return {};
  }
  const int n = rows / cached_sequences_;
  const std::size_t stride = std::size_t(n) * config_.d;
  for (int b = 0; b < cached_sequences_; ++b) {
    if (Status e = cem_mlp_[l].backward(in + b * stride, n, dout + b * stride, din + b * stride, true); !e.ok()) {
      return e;
    }
  }
  return {};
}

template <class S>
Status CemTransformerT<S>::prepare_forward(int n, int sequences) {
  if (sequences < 1 || sequences > cem_max_rows) {
    return out_of_range("sequences", "sequences must be in 1…" + std::to_string(cem_max_rows) +
                                         " (sequences = " + std::to_string(sequences) + ")");
  }
  const int d = config_.d, layers = config_.layers;
  const std::size_t rows = std::size_t(n) * sequences, nd = rows * d, slots = 4 * std::size_t(layers) + 2;
  if (nd * slots > cem_max_tensor_floats || rows * std::max(config_.d_in, config_.d_out) > cem_max_tensor_floats) {
    return out_of_range("", "n·sequences·d·(4·layers + 2) must be at most " + std::to_string(cem_max_tensor_floats) +
                                " (n = " + std::to_string(n) + ", sequences = " + std::to_string(sequences) + ")");
  }
  if (!std_mlp_.empty() && rows > std::size_t(std_mlp_.front().max_rows())) {
    return out_of_range("", "n·sequences must be at most " + std::to_string(std_mlp_.front().max_rows()) +
                                " for this MLP width (" + std::to_string(rows) + ")");
  }
  cached_n_ = 0;
  cached_sequences_ = sequences;
  // Every slot and 1/rms row is written before it is read: no need to clear them.
  if (acts_.size() < slots * nd) acts_.resize(slots * nd);
  if (inv_rms_.size() < (2 * std::size_t(layers) + 1) * rows) inv_rms_.resize((2 * std::size_t(layers) + 1) * rows);
  return {};
}

template <class S>
Status CemTransformerT<S>::forward(const S* x, int n, S* out, int sequences) {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, x, out); !e.ok()) return e;
  if (Status e = prepare_forward(n, sequences); !e.ok()) return e;
  const std::size_t rows = std::size_t(n) * sequences;
  tokens_.clear();
  x_.assign(x, x + rows * config_.d_in);
  mm_nt(x, w_in_.data(), acts_.data(), static_cast<int>(rows), config_.d_in, config_.d);  // H⁰ = x W_inᵀ
  return run_blocks(n, out);
}

template <class S>
Status CemTransformerT<S>::forward_tokens(const std::int32_t* tokens, int n, S* out, int sequences) {
  if (!error_.ok()) return error_;
  if (Status e = cem_check_call(n, tokens, out); !e.ok()) return e;
  if (Status e = prepare_forward(n, sequences); !e.ok()) return e;
  const std::size_t rows = std::size_t(n) * sequences, d = config_.d, d_in = config_.d_in;
  for (std::size_t r = 0; r < rows; ++r) {
    if (tokens[r] < 0 || std::size_t(tokens[r]) >= d_in) {
      return out_of_range("tokens", "tokens must be in 0…d_in−1 (tokens[" + std::to_string(r) +
                                        "] = " + std::to_string(tokens[r]) + ")");
    }
  }
  x_.clear();
  tokens_.assign(tokens, tokens + rows);
  S* h = acts_.data();
  for (std::size_t r = 0; r < rows; ++r) {  // H⁰ row r = column tokens[r] of W_in
    const S* w = w_in_.data() + tokens[r];
    for (std::size_t j = 0; j < d; ++j) h[r * d + j] = S(0) + w[j * d_in];
  }
  return run_blocks(n, out);
}

template <class S>
Status CemTransformerT<S>::run_blocks(int tokens, S* out) {
  const int d = config_.d, layers = config_.layers, n = tokens * cached_sequences_;  // n counts rows
  const std::size_t nd = std::size_t(n) * d;
  auto slot = [&](std::size_t s) { return acts_.data() + s * nd; };
  auto norm = [&](int row, const S* in, S* y) {
    cem_rmsnorm_forward(in, gains_.data() + std::size_t(row) * d, n, d, S(config_.norm_eps), y,
                        inv_rms_.data() + std::size_t(row) * n);
  };
  const bool standard = config_.family == CemFamily::standard;
  for (int l = 0; l < layers; ++l) {
    S *h = slot(4 * l), *a1 = slot(4 * l + 1), *mid = slot(4 * l + 2), *a2 = slot(4 * l + 3), *next = slot(4 * l + 4);
    norm(2 * l, h, a1);
    if (Status e = attention_forward(l, a1, tokens, mid); !e.ok()) return e;
    add_residual(mid, a1, h, nd, standard);
    norm(2 * l + 1, mid, a2);
    if (Status e = mlp_forward(l, a2, n, next); !e.ok()) return e;
    add_residual(next, a2, mid, nd, standard);
  }
  norm(2 * layers, slot(4 * layers), slot(4 * layers + 1));
  mm_nt(slot(4 * layers + 1), w_out_.data(), out, n, d, config_.d_out);  // out = F W_outᵀ
  cached_n_ = n;
  cached_tokens_ = tokens;
  return {};
}

template <class S>
Status CemTransformerT<S>::backward(const S* grad_out, S* grad_x) {
  if (!error_.ok()) return error_;
  if (cached_n_ == 0) return invalid_state("", "backward needs a successful forward first");
  if (grad_out == nullptr) return invalid_value("grad_out", "grad_out must not be null");
  const int n = cached_n_, d = config_.d, layers = config_.layers;
  const std::size_t nd = std::size_t(n) * d;
  auto slot = [&](std::size_t s) { return acts_.data() + s * nd; };
  auto norm_back = [&](int row, const S* in, const S* dy, S* dx) {
    cem_rmsnorm_backward(in, gains_.data() + std::size_t(row) * d, inv_rms_.data() + std::size_t(row) * n, dy, n, d, dx,
                         grad_gains_.data() + std::size_t(row) * d);
  };
  if (grad_x != nullptr && !tokens_.empty())
    return unsupported("", "a forward_tokens input has no dL/dx (grad_x must be null)");
  for (auto* b : {&dh_, &da_, &dmid_, &tmp_}) b->resize(nd);
  std::vector<S>&dh = dh_, &da = da_, &dmid = dmid_, &tmp = tmp_;
  mm_tn(grad_out, slot(4 * layers + 1), grad_w_out_.data(), config_.d_out, n, d, true);  // dW_out += doutᵀ F
  mm_nn(grad_out, w_out_.data(), da.data(), n, config_.d_out, d);                        // dF = dout W_out
  norm_back(2 * layers, slot(4 * layers), da.data(), dh.data());
  const bool standard = config_.family == CemFamily::standard;
  for (int l = layers - 1; l >= 0; --l) {
    // dh holds dL/dH^{l+1}. H^{l+1} = H' + U(N') with U = mlp (standard) or mlp − identity
    // (cem), N' = RMSNorm(H'): dL/dN' = U'ᵀ dh, dL/dH' = dh + RMSNorm'ᵀ dL/dN'.
    if (Status e = mlp_backward(l, slot(4 * l + 3), n, dh.data(), da.data()); !e.ok()) return e;
    if (!standard)
      for (std::size_t i = 0; i < nd; ++i) da[i] -= dh[i];
    norm_back(2 * l + 1, slot(4 * l + 2), da.data(), dmid.data());
    for (std::size_t i = 0; i < nd; ++i) dmid[i] += dh[i];
    if (Status e = attention_backward(l, slot(4 * l + 1), cached_tokens_, dmid.data(), da.data()); !e.ok()) {
      return e;
    }
    if (!standard)
      for (std::size_t i = 0; i < nd; ++i) da[i] -= dmid[i];
    norm_back(2 * l, slot(4 * l), da.data(), tmp.data());
    for (std::size_t i = 0; i < nd; ++i) tmp[i] += dmid[i];
    dh.swap(tmp);
  }
  if (!tokens_.empty()) {  // dW_in += dHᵀ x for one-hot x: row r of dH into column tokens_[r]
    const std::size_t d_in = config_.d_in;
    for (int r = 0; r < n; ++r) {
      S* g = grad_w_in_.data() + tokens_[r];
      for (int j = 0; j < d; ++j) g[j * d_in] += dh[std::size_t(r) * d + j];
    }
    return {};
  }
  mm_tn(dh.data(), x_.data(), grad_w_in_.data(), d, n, config_.d_in, true);  // dW_in += dHᵀ x
  if (grad_x != nullptr) mm_nn(dh.data(), w_in_.data(), grad_x, n, d, config_.d_in);
  return {};
}

template <class S>
const S* CemTransformerT<S>::mlp_input(int l) const {
  if (cached_n_ == 0 || l < 0 || l >= config_.layers) return nullptr;
  return acts_.data() + (4 * std::size_t(l) + 3) * std::size_t(cached_n_) * config_.d;
}

template <class S>
const S* CemTransformerT<S>::attention_input(int l) const {
  if (cached_n_ == 0 || l < 0 || l >= config_.layers) return nullptr;
  return acts_.data() + (4 * std::size_t(l) + 1) * std::size_t(cached_n_) * config_.d;
}

template <class S>
Status CemTransformerT<S>::set_steps(int attn_steps, int mlp_steps) {
  if (!error_.ok()) return error_;
  if (config_.family != CemFamily::cem)
    return unsupported("", "set_steps needs the cem family (the standard blocks take no steps)");
  for (int steps : {attn_steps, mlp_steps}) {
    if (Status e = cem_validate_descent(steps, 1.0f); !e.ok()) return e;
  }
  // Both counts passed cem_validate_descent above, so the per-layer setters cannot fail.
  for (auto& a : cem_attn_) (void)a.set_steps(attn_steps);
  for (auto& m : cem_mlp_) (void)m.set_steps(mlp_steps);
  config_.attention.steps = attn_steps;
  config_.mlp.steps = mlp_steps;
  return {};
}

template <class S>
CemAttentionT<S>* CemTransformerT<S>::cem_attention(int l) {
  return l >= 0 && l < int(cem_attn_.size()) ? &cem_attn_[l] : nullptr;
}
template <class S>
CemMlpT<S>* CemTransformerT<S>::cem_mlp(int l) {
  return l >= 0 && l < int(cem_mlp_.size()) ? &cem_mlp_[l] : nullptr;
}
template <class S>
CemStdAttentionT<S>* CemTransformerT<S>::std_attention(int l) {
  return l >= 0 && l < int(std_attn_.size()) ? &std_attn_[l] : nullptr;
}
template <class S>
LayerT<S>* CemTransformerT<S>::std_mlp(int l) {
  return l >= 0 && l < int(std_mlp_.size()) ? &std_mlp_[l] : nullptr;
}

template class CemTransformerT<float>;
template class CemTransformerT<double>;

}  // namespace gatelab
