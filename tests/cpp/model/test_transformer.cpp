// The small CEM / standard transformer: parameter counts, causality, backward against finite
// differences for both families, Adam lowering the loss on a tiny in-context task, the
// losses and the optimizer on their own, and validation.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "gatelab/model/transformer.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/optimizer.hpp"
#include "support/golden_hash.hpp"
#include "support/cem_support.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

CemTransformerConfig small_config(CemFamily family) {
  CemTransformerConfig c;
  c.family = family;
  c.d_in = 3;
  c.d = 4;
  c.d_out = 2;
  c.layers = 2;
  cem_set_heads(c, 2);
  cem_set_hidden(c, 6);
  c.attention.steps = 2;
  c.mlp.steps = 2;
  c.attention.eta = 0.5f;
  c.mlp.eta = 0.5f;
  c.attention.diagonal = CemDiagonal::shared;
  c.attention.precond = CemPrecond::paper;
  c.attention.precond_rank = 1;
  c.mlp.precond = CemPrecond::psd;
  c.mlp.precond_rank = 1;
  c.seed = 5;
  return c;
}

}  // namespace

TEST(CemTransformer, CountsParameters) {
  CemTransformerConfig c = small_config(CemFamily::cem);
  c.d = 16;
  cem_set_hidden(c, 40);
  c.attention.precond_rank = 2;
  c.mlp.precond_rank = 3;
  const std::size_t d = 16, m = 40, L = 2;
  const std::size_t attn = 2 * d * d + d + (d + 2 * d * 2), mlp = 2 * d * m + (d + d * 3);
  EXPECT_EQ(CemTransformer(c).parameter_count(), d * 3 + L * (2 * d + attn + mlp) + d + 2 * d);
  c.family = CemFamily::standard;
  EXPECT_EQ(CemTransformer(c).parameter_count(), d * 3 + L * (2 * d + 4 * d * d + 3 * d * m) + d + 2 * d);
}

TEST(CemTransformer, LaterTokensNeverChangeEarlierOutputs) {
  const int n = 7;
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    CemTransformerConfig c = small_config(family);
    c.d = 8;
    CemTransformer model(c);
    ASSERT_OK(model.error());
    auto x = cemtest::randn<float>(n * c.d_in, 1);
    std::vector<float> a(n * c.d_out), b(n * c.d_out);
    ASSERT_OK(model.forward(x.data(), n, a.data()));
    for (int k = 0; k < c.d_in; ++k) x[5 * c.d_in + k] += 1.0f;
    ASSERT_OK(model.forward(x.data(), n, b.data()));
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * 5 * c.d_out), 0) << cem_family_name(family);
    EXPECT_NE(std::memcmp(a.data() + 5 * c.d_out, b.data() + 5 * c.d_out, sizeof(float) * c.d_out), 0);
  }
}

TEST(CemTransformer, CemBlockAddsOnlyTheUpdateToTheStream) {
  // One block: H' = H + (CemAttention(N) − N), H⁺ = H' + (CemMlp(N') − N'), N = RMSNorm(H).
  CemTransformerConfig c = small_config(CemFamily::cem);
  c.layers = 1;
  CemTransformer64 model(c);
  cemtest::randomize(model.parameters(), 4, 0.5);
  const int n = 5, d = c.d;
  const auto x = cemtest::randn<double>(n * c.d_in, 6);
  std::vector<double> out(n * c.d_out);
  ASSERT_OK(model.forward(x.data(), n, out.data()));
  const auto views = model.parameters();
  auto gain = [&](const char* name) { return find_parameter(views, name)->value; };
  std::vector<double> h(n * d), nrm(n * d), inv(n), step(n * d), mid(n * d), top(n * d), fin(n * d),
      want(n * c.d_out, 0.0);
  const double* w_in = find_parameter(views, "w_in")->value;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < d; ++k)
      for (int j = 0; j < c.d_in; ++j) h[i * d + k] += x[i * c.d_in + j] * w_in[k * c.d_in + j];
  cem_rmsnorm_forward(h.data(), gain("block0.norm1"), n, d, double(c.norm_eps), nrm.data(), inv.data());
  ASSERT_OK(model.cem_attention(0)->forward(nrm.data(), n, step.data()));
  for (int i = 0; i < n * d; ++i) mid[i] = h[i] + (step[i] - nrm[i]);
  cem_rmsnorm_forward(mid.data(), gain("block0.norm2"), n, d, double(c.norm_eps), nrm.data(), inv.data());
  ASSERT_OK(model.cem_mlp(0)->forward(nrm.data(), n, step.data()));
  for (int i = 0; i < n * d; ++i) top[i] = mid[i] + (step[i] - nrm[i]);
  cem_rmsnorm_forward(top.data(), gain("norm_final"), n, d, double(c.norm_eps), fin.data(), inv.data());
  const double* w_out = find_parameter(views, "w_out")->value;
  for (int i = 0; i < n; ++i)
    for (int o = 0; o < c.d_out; ++o)
      for (int k = 0; k < d; ++k) want[i * c.d_out + o] += fin[i * d + k] * w_out[o * d + k];
  EXPECT_LE(cemtest::rel_error(out, want), 1e-12);
}

TEST(CemTransformer, BackwardMatchesFiniteDifferences) {
  const int n = 4;
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    SCOPED_TRACE(cem_family_name(family));
    const CemTransformerConfig c = small_config(family);
    CemTransformer64 model(c);
    cemtest::randomize(model.parameters(), 31, 0.6);
    auto x = cemtest::randn<double>(n * c.d_in, 2);
    const auto weights = cemtest::randn<double>(n * c.d_out, 3);
    std::vector<double> out(n * c.d_out), dx(n * c.d_in);
    auto loss = [&]() {
      EXPECT_OK(model.forward(x.data(), n, out.data()));
      return cemtest::weighted_sum(out, weights);
    };
    loss();
    model.zero_grad();
    ASSERT_OK(model.backward(weights.data(), dx.data()));
    // The MLPs' activations come from the float catalogue: wider step, looser bound.
    cemtest::expect_param_grads_match(model.parameters(), loss, 1e-3, 3e-3, 6);
    EXPECT_LE(cemtest::rel_error(dx, cemtest::numeric_gradient(x, loss, 1e-3)), 3e-3) << "grad_x";

    // Accumulation: a second backward of the same forward doubles the grads.
    loss();
    const auto views = model.parameters();
    const double before = views[1].grad[0];
    ASSERT_OK(model.backward(weights.data(), nullptr));
    EXPECT_NEAR(views[1].grad[0], 2 * before, 1e-12 * std::max(1.0, std::fabs(before)));
  }
}

TEST(CemTransformer, AdamLowersTheLossOfATinyInContextTask) {
  // Target: the running mean of the first input coordinate over the prefix (needs attention).
  const int n = 8, batch = 4, steps = 60;
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    CemTransformerConfig c = small_config(family);
    c.d_in = 2;
    c.d = 8;
    c.d_out = 1;
    cem_set_hidden(c, 16);
    CemTransformer model(c);
    ASSERT_OK(model.error());
    std::vector<std::vector<float>> xs, ys;
    for (int b = 0; b < batch; ++b) {
      auto u = cemtest::randn<float>(n, 100 + b);
      std::vector<float> x(n * 2), y(n);
      double sum = 0;
      for (int i = 0; i < n; ++i) {
        x[i * 2] = u[i];
        x[i * 2 + 1] = 1.0f;
        sum += u[i];
        y[i] = float(sum / (i + 1));
      }
      xs.push_back(x);
      ys.push_back(y);
    }
    OptimizerOptions options;
    options.kind = OptimizerKind::adamw;
    options.learning_rate = 1e-2f;
    options.clip_norm = 10.0f;
    Optimizer adam(options);
    auto epoch = [&](bool train) {
      double total = 0;
      if (train) model.zero_grad();
      for (int b = 0; b < batch; ++b) {
        std::vector<float> out(n), grad(n);
        EXPECT_OK(model.forward(xs[b].data(), n, out.data()));
        double loss = 0;
        EXPECT_OK(mse_loss(out.data(), ys[b].data(), n, &loss, grad.data()));
        total += loss / batch;
        if (train) {
          for (auto& g : grad) g /= batch;
          EXPECT_OK(model.backward(grad.data(), nullptr));
        }
      }
      if (train) EXPECT_OK(adam.step(model.parameters()));
      return total;
    };
    const double initial = epoch(false);
    for (int s = 0; s < steps; ++s) epoch(true);
    const double final_loss = epoch(false);
    EXPECT_EQ(adam.steps_taken(), steps);
    EXPECT_LT(final_loss, 0.5 * initial) << cem_family_name(family) << ": " << initial << " → " << final_loss;
  }
}

TEST(CemLosses, GradientsMatchFiniteDifferences) {
  const int n = 3, classes = 5;
  auto logits = cemtest::randn<double>(n * classes, 1, 2.0);
  const std::int32_t targets[n] = {4, 0, 2};
  std::vector<double> grad(n * classes);
  double loss = 0;
  ASSERT_OK(cross_entropy_loss(logits.data(), targets, n, classes, &loss, grad.data()));
  auto ce = [&]() {
    double l = 0;
    EXPECT_TRUE(cross_entropy_loss<double>(logits.data(), targets, n, classes, &l, nullptr).ok());
    return l;
  };
  EXPECT_LE(cemtest::rel_error(grad, cemtest::numeric_gradient(logits, ce, 1e-6)), 1e-8);
  const std::int32_t bad[n] = {0, 5, 1};
  EXPECT_ERROR(cross_entropy_loss<double>(logits.data(), bad, n, classes, &loss, nullptr), ErrorCode::out_of_range,
               "targets");

  auto pred = cemtest::randn<double>(6, 2);
  const auto target = cemtest::randn<double>(6, 3);
  std::vector<double> g(6);
  ASSERT_OK(mse_loss(pred.data(), target.data(), 6, &loss, g.data()));
  auto mse = [&]() {
    double l = 0;
    EXPECT_TRUE(mse_loss<double>(pred.data(), target.data(), 6, &l, nullptr).ok());
    return l;
  };
  EXPECT_LE(cemtest::rel_error(g, cemtest::numeric_gradient(pred, mse, 1e-6)), 1e-8);
}

TEST(CemTransformer, BlocksUseTheLayerConfigsItHolds) {
  // The transformer holds its layers' configs: every field but the sizes and the seed reaches
  // each block as given (so a field a layer gains arrives without a copy to forget).
  CemTransformerConfig c = small_config(CemFamily::standard);
  c.std_mlp.rank = 2;
  c.std_mlp.symmetrize = 0.25f;
  c.std_mlp.activation = {Activation::swish, 1.5f};
  c.std_attention.beta = 0.75f;
  c.attention.learn_eta = true;
  c.mlp.precond = CemPrecond::psd;
  for (int l = 0; l < 2; ++l) {
    LayerConfig m = cem_block_std_mlp_config(c, l);
    EXPECT_EQ(m.d_in, c.d);
    EXPECT_EQ(m.d_out, c.d);
    EXPECT_NE(m.seed, cem_block_std_mlp_config(c, 1 - l).seed);
    EXPECT_EQ(m.rank, 2);
    EXPECT_EQ(m.symmetrize, 0.25f);
    EXPECT_EQ(m.activation.kind, Activation::swish);
    EXPECT_EQ(m.activation.beta, 1.5f);
    EXPECT_EQ(cem_block_std_attention_config(c, l).beta, 0.75f);
    EXPECT_TRUE(cem_block_attention_config(c, l).learn_eta);
    EXPECT_EQ(cem_block_mlp_config(c, l).precond, CemPrecond::psd);
    EXPECT_EQ(cem_block_mlp_config(c, l).d, c.d);
  }
  CemTransformerConfig symmetric = c;
  symmetric.std_mlp.kind = LayerKind::symmetric;
  symmetric.std_mlp.symmetrize = 0.0f;
  EXPECT_TRUE(cem_block_std_mlp_config(symmetric, 1).kind == LayerKind::symmetric);
  CemTransformer model(c);
  ASSERT_OK(model.error());
  EXPECT_EQ(model.std_mlp(1)->config().rank, 2);
  EXPECT_EQ(model.std_mlp(1)->config().symmetrize, 0.25f);
  c.std_mlp.rank = 0;  // a layer's own check, named from the transformer
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "mlp.rank");
}

TEST(CemTransformer, ValidatesConfigsAndCalls) {
  CemTransformerConfig c = small_config(CemFamily::cem);
  c.layers = 0;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "layers");
  c = small_config(CemFamily::cem);
  cem_set_heads(c, 3);
  EXPECT_ERROR(validate(c), ErrorCode::invalid_value, "attention.heads");
  c = small_config(CemFamily::standard);
  cem_set_heads(c, 3);
  EXPECT_ERROR(validate(c), ErrorCode::invalid_value, "attention.heads");
  c = small_config(CemFamily::cem);
  c.mlp.steps = 99;
  EXPECT_ERROR(validate(c), ErrorCode::out_of_range, "mlp.steps");
  CemTransformer broken(c);
  std::vector<float> x(12), out(8);
  EXPECT_EQ(broken.forward(x.data(), 4, out.data()), broken.error());
  CemTransformer model(small_config(CemFamily::cem));
  EXPECT_ERROR(model.backward(out.data(), nullptr), ErrorCode::invalid_state, "");
  EXPECT_ERROR(model.forward(x.data(), 0, out.data()), ErrorCode::out_of_range, "n");
  EXPECT_NE(model.cem_attention(1), nullptr);
  EXPECT_EQ(model.std_attention(0), nullptr);
  EXPECT_EQ(model.cem_mlp(2), nullptr);
}

TEST(CemTransformer, SameBitsNativelyAndInWasm) {
  // Forward, backward, one Adam step and a second forward of both families, hashed. The
  // native and the wasm build check the same constants (they hold only while matmul,
  // fastmath and the activations keep their bits: a deliberate change there updates them).
  const std::uint64_t expected[2][2] = {{0x588c97f571c19902ULL, 0x647cc9687e4bc07dULL},
                                        {0xd20b68b5c69c7928ULL, 0x2c6a053dc5c27474ULL}};
  for (int f = 0; f < 2; ++f) {
    CemTransformerConfig c;
    c.family = f == 0 ? CemFamily::cem : CemFamily::standard;
    c.d_in = 3;
    c.d = 16;
    c.d_out = 2;
    cem_set_heads(c, 4);
    cem_set_hidden(c, 32);
    c.attention.precond = CemPrecond::paper;
    c.attention.precond_rank = 2;
    c.mlp.precond = CemPrecond::psd;
    c.mlp.precond_rank = 2;
    c.seed = 7;
    CemTransformer model(c);
    const int n = 20;
    const auto x = cemtest::randn<float>(n * c.d_in, 1);
    const auto g = cemtest::randn<float>(n * c.d_out, 2);
    std::vector<float> out(n * c.d_out), dx(n * c.d_in);
    ASSERT_OK(model.forward(x.data(), n, out.data()));
    ASSERT_OK(model.backward(g.data(), dx.data()));
    OptimizerOptions adamw;
    adamw.kind = OptimizerKind::adamw;
    adamw.learning_rate = 1e-3f;
    Optimizer adam(adamw);
    ASSERT_OK(adam.step(model.parameters()));
    ASSERT_OK(model.forward(x.data(), n, out.data()));
    std::printf("%s: out %016llx dx %016llx\n", cem_family_name(c.family), (unsigned long long)golden::fnv1a(out),
                (unsigned long long)golden::fnv1a(dx));
    EXPECT_EQ(golden::fnv1a(out), expected[f][0]) << cem_family_name(c.family);
    EXPECT_EQ(golden::fnv1a(dx), expected[f][1]) << cem_family_name(c.family);
  }
}

TEST(CemTransformer, SequencesInOneCallGiveTheBitsOfOneCallPerSequence) {
  for (CemFamily family : {CemFamily::cem, CemFamily::standard}) {
    CemTransformerConfig c;
    c.family = family;
    c.d_in = 3;
    c.d = 8;
    c.d_out = 2;
    cem_set_heads(c, 2);
    cem_set_hidden(c, 12);
    c.seed = 5;
    const int n = 6, sequences = 3;
    const auto x = cemtest::randn<float>(n * sequences * c.d_in, 8);
    const auto g = cemtest::randn<float>(n * sequences * c.d_out, 9);
    CemTransformer batched(c), single(c);
    std::vector<float> out(n * sequences * c.d_out), one(out.size()), dx(n * sequences * c.d_in), dx1(dx.size());
    ASSERT_OK(batched.forward(x.data(), n, out.data(), sequences));
    ASSERT_OK(batched.backward(g.data(), dx.data()));
    for (int b = 0; b < sequences; ++b) {
      ASSERT_OK(single.forward(x.data() + b * n * c.d_in, n, one.data() + b * n * c.d_out));
      ASSERT_OK(single.backward(g.data() + b * n * c.d_out, dx1.data() + b * n * c.d_in));
    }
    EXPECT_EQ(golden::fnv1a(out), golden::fnv1a(one)) << cem_family_name(family);
    EXPECT_EQ(golden::fnv1a(dx), golden::fnv1a(dx1)) << cem_family_name(family);
    const auto pb = batched.parameters(), ps = single.parameters();
    for (std::size_t v = 0; v < pb.size(); ++v) {
      EXPECT_EQ(std::memcmp(pb[v].grad, ps[v].grad, pb[v].size * sizeof(float)), 0) << pb[v].name;
    }
    EXPECT_ERROR(batched.forward(x.data(), n, out.data(), 0), ErrorCode::out_of_range, "sequences");
  }
}

TEST(CemTransformer, TokenInputGivesTheBitsOfOneHotRows) {
  // forward_tokens against forward on the one-hot matrix: outputs and every gradient bit for
  // bit, also with a W_in entry of −0 (one-hot sums give +0 there, and so does 0 + w).
  CemTransformerConfig c = small_config(CemFamily::standard);
  c.d_in = 7;
  c.d_out = 7;
  CemTransformer dense(c), sparse(c);
  for (CemTransformer* m : {&dense, &sparse}) find_parameter(m->parameters(), "w_in")->value[3] = -0.0f;
  const int n = 6, sequences = 2, rows = n * sequences;
  std::vector<std::int32_t> tokens(rows);
  for (int r = 0; r < rows; ++r) tokens[r] = (r * 5 + 3) % c.d_in;
  tokens[1] = 3;  // the −0 entry is W_in(0, 3)
  std::vector<float> onehot(std::size_t(rows) * c.d_in, 0.0f);
  for (int r = 0; r < rows; ++r) onehot[std::size_t(r) * c.d_in + tokens[r]] = 1.0f;
  const auto g = cemtest::randn<float>(std::size_t(rows) * c.d_out, 31);
  std::vector<float> out(g.size()), out1(g.size());
  ASSERT_OK(dense.forward(onehot.data(), n, out.data(), sequences));
  ASSERT_OK(dense.backward(g.data(), nullptr));
  ASSERT_OK(sparse.forward_tokens(tokens.data(), n, out1.data(), sequences));
  ASSERT_OK(sparse.backward(g.data(), nullptr));
  EXPECT_EQ(std::memcmp(out.data(), out1.data(), out.size() * sizeof(float)), 0);
  const auto a = dense.parameters(), b = sparse.parameters();
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::memcmp(a[i].grad, b[i].grad, a[i].size * sizeof(float)), 0) << a[i].name;
  }
  std::vector<float> dx(std::size_t(rows) * c.d_in);
  EXPECT_ERROR(sparse.backward(g.data(), dx.data()), ErrorCode::unsupported, "");  // a token input has no dL/dx
  tokens[0] = c.d_in;
  EXPECT_ERROR(sparse.forward_tokens(tokens.data(), n, out1.data(), sequences), ErrorCode::out_of_range, "tokens");
}
