// The character corpus and the language-model session: splits and fixed evaluation windows,
// learning on a patterned text, determinism and checkpoints (a restored session resumes bit
// for bit), paired variants (same windows, same embedding and attention), the initial output
// RMS, diagnostics (symgated has no antisymmetric part), and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>

#include "gatelab/base/rng.hpp"
#include "gatelab/train/lm.hpp"
#include "support/golden_hash.hpp"

using namespace gatelab;

namespace {

// A text with learnable structure: words from a small list, in a seeded order.
std::shared_ptr<CharCorpus> patterned_corpus(std::size_t chars = 20000) {
  const char* words[] = {"gate ", "unit ", "query ", "key ", "value ", "energy ", "step "};
  Pcg32 rng(3);
  std::string text;
  while (text.size() < chars) text += words[rng.below(7)];
  text.resize(chars);
  auto corpus = std::make_shared<CharCorpus>();
  EXPECT_EQ(make_char_corpus(text, 0.05, 0.05, *corpus), "");
  return corpus;
}

LmConfig small_config() {
  LmConfig c;
  c.model.family = CemFamily::standard;
  c.model.d = 16;
  c.model.layers = 1;
  cem_set_heads(c.model, 2);
  cem_set_hidden(c.model, 24);
  c.context = 16;
  c.batch = 4;
  c.warmup = 5;
  c.optimizer.learning_rate = 1e-2f;
  return c;
}

}  // namespace

TEST(CharCorpus, SplitsAreContiguousAndWindowsFixed) {
  auto corpus = patterned_corpus(10000);
  EXPECT_EQ(corpus->train.size() + corpus->dev.size() + corpus->validation.size(), 10000u);
  EXPECT_EQ(corpus->dev.size(), 500u);
  EXPECT_EQ(corpus->validation.size(), 500u);
  EXPECT_EQ(corpus->vocab.size(), 16);  // the 15 letters of the seven words and the space
  const auto all = evaluation_windows(500, 16, 0), some = evaluation_windows(500, 16, 5);
  EXPECT_EQ(all.size(), 31u);  // ⌊499/16⌋
  ASSERT_EQ(some.size(), 5u);
  EXPECT_EQ(some[1], 6u * 16);  // ⌊1·31/5⌋·16
  EXPECT_EQ(evaluation_windows(500, 16, 5), some);
  CharCorpus bad;
  // Each refusal names the field to change (the JS API names the argument from it).
  const Status short_text = make_char_corpus("short", 0.0, 0.1, bad);
  EXPECT_EQ(short_text.code, ErrorCode::out_of_range);
  EXPECT_EQ(short_text.field, "text");
  const Status shares = make_char_corpus(std::string(2000, 'a'), 0.3, 0.3, bad);
  EXPECT_EQ(shares.code, ErrorCode::invalid_value);
  EXPECT_EQ(shares.field, "validation_fraction");
  EXPECT_EQ(make_char_corpus(std::string(2000, 'a'), -0.1, 0.1, bad).field, "dev_fraction");
  const CorpusBaselines b = corpus_baselines(*corpus);
  EXPECT_NEAR(b.uniform, std::log(16.0), 1e-12);
  EXPECT_LT(b.unigram, b.uniform);
}

TEST(LmSession, LearnsAPatternedTextAndReplaysBitForBit) {
  auto corpus = patterned_corpus();
  LmSession a(small_config(), corpus), b(small_config(), corpus);
  ASSERT_EQ(a.error(), "");
  double before = 0, after = 0;
  ASSERT_EQ(a.evaluate(CorpusSplit::validation, 0, &before), "");
  ASSERT_EQ(a.train(150), "");
  ASSERT_EQ(a.evaluate(CorpusSplit::validation, 0, &after), "");
  EXPECT_LT(after, 0.7 * before) << before << " → " << after;
  EXPECT_LT(after, corpus_baselines(*corpus).unigram);
  ASSERT_EQ(b.train(150), "");
  ASSERT_EQ(a.train_losses().size(), 150u);
  EXPECT_EQ(std::memcmp(a.train_losses().data(), b.train_losses().data(), 150 * sizeof(double)), 0);
  std::string text;
  ASSERT_EQ(a.sample(40, 0.8f, 1, &text), "");
  EXPECT_EQ(text.size(), 40u);
}

TEST(LmSession, ACheckpointResumesBitForBit) {
  auto corpus = patterned_corpus();
  LmSession straight(small_config(), corpus), first(small_config(), corpus), resumed(small_config(), corpus);
  ASSERT_EQ(straight.train(40), "");
  ASSERT_EQ(first.train(25), "");
  const auto bytes = first.checkpoint();
  ASSERT_EQ(resumed.restore(bytes.data(), bytes.size()), "");
  EXPECT_EQ(resumed.steps_done(), 25);
  ASSERT_EQ(resumed.train(15), "");
  EXPECT_EQ(std::memcmp(straight.train_losses().data(), resumed.train_losses().data(), 40 * sizeof(double)), 0);
  EXPECT_NE(resumed.restore(bytes.data(), bytes.size() - 1), "");
  LmConfig wider = small_config();
  cem_set_hidden(wider.model, 32);
  LmSession other(wider, corpus);
  EXPECT_NE(other.restore(bytes.data(), bytes.size()), "");
}

TEST(LmSession, VariantsOfOneSeedShareWindowsEmbeddingAndAttention) {
  auto corpus = patterned_corpus();
  LmConfig gated = small_config(), ffn = small_config();
  ffn.model.std_mlp.kind = LayerKind::mlp;
  ffn.model.std_mlp.activation = {Activation::gelu, 1.0f};
  LmSession a(gated, corpus), b(ffn, corpus);
  const auto pa = a.model().parameters(), pb = b.model().parameters();
  for (const char* name : {"w_in", "block0.attn.wq", "block0.attn.wo", "w_out"}) {
    const auto* va = find_parameter(pa, name);
    const auto* vb = find_parameter(pb, name);
    ASSERT_TRUE(va && vb) << name;
    EXPECT_EQ(std::memcmp(va->value, vb->value, va->size * sizeof(float)), 0) << name;
  }
}

TEST(LmSession, InitialMlpOutputRmsIsTheTarget) {
  auto corpus = patterned_corpus();
  for (LayerKind kind : {LayerKind::gated, LayerKind::symmetric, LayerKind::mlp}) {
    LmConfig c = small_config();
    c.model.layers = 2;
    c.model.std_mlp.kind = kind;
    c.mlp_init_rms = 0.3f;
    LmSession s(c, corpus);
    ASSERT_EQ(s.error(), "");
    // The scaling probe is the first `batch` train windows: measure there again.
    const auto starts = evaluation_windows(corpus->train.size(), c.context, c.batch);
    std::vector<float> onehot(starts.size() * c.context * corpus->vocab.size()), out(onehot.size());
    for (std::size_t b = 0; b < starts.size(); ++b) {
      for (int i = 0; i < c.context; ++i) {
        onehot[(b * c.context + i) * corpus->vocab.size() + corpus->train[starts[b] + i]] = 1.0f;
      }
    }
    ASSERT_EQ(s.model().forward(onehot.data(), c.context, out.data(), int(starts.size())), "");
    for (int l = 0; l < 2; ++l) {
      const int rows = s.model().cached_rows();
      std::vector<float> y(std::size_t(rows) * c.model.d);
      ASSERT_TRUE(s.model().std_mlp(l)->forward(s.model().mlp_input(l), rows, y.data()).ok());
      double sum = 0;
      for (float v : y) sum += double(v) * v;
      EXPECT_NEAR(std::sqrt(sum / y.size()), 0.3, 1e-4) << layer_kind_name(kind) << " block " << l;
    }
  }
}

TEST(LmSession, DiagnosticsSeeNoAntisymmetricPartInSymgated) {
  auto corpus = patterned_corpus();
  LmConfig plain = small_config(), symgated = small_config();
  symgated.model.std_mlp.symmetrize = 1.0f;
  LmSession a(plain, corpus), b(symgated, corpus);
  ASSERT_EQ(a.train(20), "");
  ASSERT_EQ(b.train(20), "");
  std::vector<LmBlockDiagnostics> da, db;
  ASSERT_EQ(a.diagnostics(CorpusSplit::validation, 8, da), "");
  ASSERT_EQ(b.diagnostics(CorpusSplit::validation, 8, db), "");
  ASSERT_EQ(da.size(), 1u);
  EXPECT_GT(da[0].antisymmetric_share, 0.05);
  EXPECT_GT(da[0].exchange_gap, 1e-3);
  EXPECT_NEAR(db[0].antisymmetric_share, 0.0, 1e-12);
  EXPECT_LT(db[0].exchange_gap, 1e-6);
  EXPECT_NE(da[0].qk_drift, 0.0);  // Adam does not conserve ‖q‖² − ‖k‖²
  EXPECT_LT(da[0].preactivation_quantiles[0], da[0].preactivation_quantiles[4]);
}

// The conditioning readout of the study (§A24) measures without touching training: a run that
// measures it halfway has the losses of one that does not, bit for bit.
TEST(LmSession, MlpConditioningMeasuresWithoutChangingTraining) {
  auto corpus = patterned_corpus();
  LmSession measured(small_config(), corpus), plain(small_config(), corpus);
  std::vector<double> kappa;
  ASSERT_EQ(measured.mlp_conditioning(CorpusSplit::validation, 4, kappa), "");
  ASSERT_EQ(kappa.size(), 1u);
  EXPECT_TRUE(std::isfinite(kappa[0]) && kappa[0] >= 1.0) << kappa[0];
  ASSERT_EQ(measured.train(10), "");
  std::vector<double> later;
  ASSERT_EQ(measured.mlp_conditioning(CorpusSplit::validation, 4, later), "");
  EXPECT_NE(later[0], kappa[0]);  // training moved the layer
  ASSERT_EQ(measured.train(10), "");
  ASSERT_EQ(plain.train(20), "");
  EXPECT_EQ(std::memcmp(measured.train_losses().data(), plain.train_losses().data(), 20 * sizeof(double)), 0);
  for (int tokens : {0, 5}) {  // the batch is 4
    const Status e = measured.mlp_conditioning(CorpusSplit::validation, tokens, later);
    EXPECT_EQ(e.code, ErrorCode::out_of_range);
    EXPECT_EQ(e.field, "tokens");
  }
  LmConfig cem = small_config();
  cem.model.family = CemFamily::cem;
  LmSession energy(cem, corpus);
  ASSERT_EQ(energy.mlp_conditioning(CorpusSplit::validation, 2, later), "");
  EXPECT_TRUE(std::isnan(later[0]));  // no paper-A layer in a CEM block
}

TEST(LmSession, GaugeFixingKeepsQAtUnitNorm) {
  auto corpus = patterned_corpus();
  LmConfig c = small_config();
  c.model.std_mlp.activation = {Activation::relu, 1.0f};
  c.gauge_fix = true;
  LmSession s(c, corpus);
  ASSERT_EQ(s.error(), "");
  ASSERT_EQ(s.train(10), "");
  const auto& q = s.model().std_mlp(0)->params().q;
  for (std::size_t j = 0; j < q.shape()[0]; ++j) {
    double n2 = 0;
    for (std::size_t e = 0; e < q.shape()[2]; ++e) n2 += double(q(j, 0, e)) * q(j, 0, e);
    EXPECT_NEAR(n2, 1.0, 1e-5);
  }
  c.model.std_mlp.activation = {Activation::silu, 1.0f};
  const Status gauge = validate(c, *corpus);
  EXPECT_EQ(gauge.code, ErrorCode::out_of_range);
  EXPECT_EQ(gauge.field, "gauge_fix");
}

TEST(LmSession, RefusesBadConfigs) {
  auto corpus = patterned_corpus();
  LmConfig c = small_config();
  c.context = 1;
  EXPECT_NE(LmSession(c, corpus).error(), "");
  c = small_config();
  c.optimizer.learning_rate = 0;
  const Status rate = LmSession(c, corpus).error();
  EXPECT_EQ(rate.code, ErrorCode::out_of_range);
  EXPECT_EQ(rate.field, "optimizer.learning_rate");
  c = small_config();
  cem_set_heads(c.model, 3);
  const Status heads = LmSession(c, corpus).error();
  EXPECT_EQ(heads.code, ErrorCode::invalid_value);
  EXPECT_EQ(heads.field, "model.attention.heads");
  LmSession broken(c, corpus);
  EXPECT_EQ(broken.train(1), broken.error());
  EXPECT_NE(LmSession(small_config(), nullptr).error(), "");
}

TEST(LmSession, SameBitsNativelyAndInWasm) {
  // A few steps of several sessions (the figure's size, the benchmark's size, other MLP kinds),
  // hashed: losses, every parameter afterwards, a validation loss and a sample. The native and
  // the wasm build check the same constants; a speed change anywhere in the step keeps them.
  struct Case {
    int d, heads, hidden, context, batch, steps;
    LayerKind kind;
    Activation activation;
    int rank;
    float symmetrize;
  };
  const Case cases[] = {{32, 4, 64, 32, 8, 6, LayerKind::gated, Activation::silu, 1, 0.0f},
                        {64, 4, 128, 64, 16, 2, LayerKind::gated, Activation::silu, 1, 0.0f},
                        {16, 2, 24, 16, 4, 5, LayerKind::mlp, Activation::gelu, 1, 0.0f},
                        {16, 2, 8, 16, 4, 5, LayerKind::symmetric, Activation::relu, 2, 0.0f},
                        {16, 2, 12, 16, 4, 5, LayerKind::gated, Activation::silu, 1, 0.5f}};
  const std::uint64_t expected[] = {0x79d8d3159602e90dULL, 0xcc10e7fdb8bdba0aULL, 0xa01d2ec6d74e8c43ULL,
                                    0x64cb8cdda3eaaecfULL, 0x35419a863de95c22ULL};
  auto corpus = patterned_corpus();
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const Case& k = cases[i];
    LmConfig c = small_config();
    c.model.d = k.d;
    c.model.layers = 2;
    cem_set_heads(c.model, k.heads);
    cem_set_hidden(c.model, k.hidden);
    c.model.std_mlp.kind = k.kind;
    c.model.std_mlp.activation = {k.activation, 1.0f};
    c.model.std_mlp.rank = k.rank;
    c.model.std_mlp.symmetrize = k.symmetrize;
    c.context = k.context;
    c.batch = k.batch;
    c.optimizer.weight_decay = 0.1f;
    LmSession s(c, corpus);
    ASSERT_EQ(s.error(), "");
    ASSERT_EQ(s.train(k.steps), "");
    double loss = 0;
    ASSERT_EQ(s.evaluate(CorpusSplit::validation, 3, &loss), "");
    std::string text;
    ASSERT_EQ(s.sample(12, 0.8f, 2, &text), "");
    golden::Fnv1a fnv;
    fnv.add(s.train_losses());
    fnv.add(loss);
    for (const auto& v : s.model().parameters()) fnv.add(v.value, v.size);
    for (char ch : text) fnv.add(float(static_cast<unsigned char>(ch)));
    std::printf("case %zu: %016llx\n", i, (unsigned long long)fnv.hash);
    EXPECT_EQ(fnv.hash, expected[i]) << "case " << i;
  }
}
