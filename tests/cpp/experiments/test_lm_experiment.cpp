// The language-model experiments: the character vocabulary and split, the trivial baselines,
// small models of both families learning a repetitive text far below the unigram loss,
// determinism of a job, its JSON, and the variant tables (equal MLP budgets in mlp-lm).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "experiment_lm.hpp"
#include "gatelab/train/char_corpus.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

// A text with strong sequential structure and a flat unigram distribution.
std::string patterned_text(int length) {
  const std::string words[] = {"the cat sat. ", "a dog ran! ", "we met them. ", "tea is hot? "};
  std::string s;
  for (int i = 0; int(s.size()) < length; ++i) s += words[(i * 7 + i / 3) % 4];
  return s.substr(0, length);
}

LmExperimentSettings small_settings() {
  LmExperimentSettings s;
  s.experiment = "tiny-lm";
  s.d = 16;
  s.layers = 1;
  s.heads = 2;
  s.context = 16;
  s.batch = 8;
  s.warmup = 5;
  s.steps = 150;
  s.curve_points = 2;
  s.eval_windows = 40;
  s.diagnostic_windows = 4;
  s.sample_chars = 20;
  s.dev_fraction = 0.05;
  s.validation_fraction = 0.1;
  s.weight_decay = 0.0f;
  return s;
}

std::vector<LmVariant> two_families() {
  LmVariant cem;
  cem.name = "cem-t2";
  cem.family = CemFamily::cem;
  cem.steps = 2;
  cem.hidden = 32;
  cem.learning_rates = {1e-2f};
  LmVariant llama;
  llama.name = "llama";
  llama.family = CemFamily::standard;
  llama.diagonal = CemDiagonal::none;
  llama.hidden = 32;
  llama.learning_rates = {1e-2f};
  return {cem, llama};
}

double number_after(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  EXPECT_NE(at, std::string::npos) << key;
  return at == std::string::npos ? NAN : std::strtod(json.c_str() + at + key.size() + 3, nullptr);
}

}  // namespace

TEST(LmExperimentData, VocabularyAndSplit) {
  const CharVocab v = char_vocab("banana!");
  EXPECT_EQ(std::string(v.symbols.begin(), v.symbols.end()), "!abn");
  EXPECT_EQ(v.index['a'], 1);
  EXPECT_EQ(v.index['z'], -1);
  CharCorpus corpus;
  ASSERT_OK(make_char_corpus(patterned_text(5000), 0.0, 0.1, corpus));
  EXPECT_EQ(corpus.train.size(), 4500u);
  EXPECT_EQ(corpus.validation.size(), 500u);
  EXPECT_NE(make_char_corpus("too short", 0.0, 0.1, corpus), "");
  ASSERT_OK(make_char_corpus(patterned_text(2000), 0.0, 0.1, corpus));
  EXPECT_EQ(corpus.train.size() + corpus.validation.size(), 2000u);
}

TEST(LmExperimentData, Baselines) {
  CharCorpus corpus;
  ASSERT_OK(make_char_corpus(patterned_text(4000), 0.0, 0.1, corpus));
  const CorpusBaselines b = corpus_baselines(corpus);
  EXPECT_NEAR(b.uniform, std::log(double(corpus.vocab.size())), 1e-12);
  EXPECT_LT(b.unigram, b.uniform);
  EXPECT_GT(b.unigram, 1.0);
}

TEST(LmExperiment, BothFamiliesLearnFarBelowTheUnigramLossAndRepeatExactly) {
  const LmExperimentSettings s = small_settings();
  const auto variants = two_families();
  const std::string text = patterned_text(6000);
  CharCorpus corpus;
  ASSERT_OK(make_char_corpus(text, s.dev_fraction, s.validation_fraction, corpus));
  const double unigram = corpus_baselines(corpus).unigram;
  std::string json[2];
  for (int m = 0; m < 2; ++m) {
    ASSERT_EQ(lm_run_job(s, variants, {variants[m].name, "main", 1, 1e-2f}, text, &json[m]), "") << variants[m].name;
    const double loss = number_after(json[m], "loss");
    EXPECT_TRUE(std::isfinite(loss));
    EXPECT_LT(loss, 0.6 * unigram) << variants[m].name << ": " << loss << " vs unigram " << unigram;
    EXPECT_NE(json[m].find("\"curveSteps\":[75,150]"), std::string::npos) << json[m].substr(0, 300);
    EXPECT_NE(json[m].find("\"diverged\":false"), std::string::npos);
    const std::size_t sample = json[m].find("\"sample\":\"");
    ASSERT_NE(sample, std::string::npos);
    EXPECT_EQ(json[m].find('"', sample + 10) - (sample + 10), 20u);  // 20 plain characters
  }
  EXPECT_LT(number_after(json[0], "parameters"), number_after(json[1], "parameters"));  // tied layers are smaller
  std::string again;
  ASSERT_EQ(lm_run_job(s, variants, {"cem-t2", "main", 1, 1e-2f}, text, &again), "");
  EXPECT_EQ(again.substr(0, again.find("\"timing\"")), json[0].substr(0, json[0].find("\"timing\"")));
  std::string sweep;
  ASSERT_EQ(lm_run_job(s, variants, {"llama", "sweep", 101, 1e-2f}, text, &sweep), "");
  EXPECT_NE(sweep.find("\"split\":\"dev\""), std::string::npos);
  EXPECT_NE(lm_run_job(s, variants, {"nope", "main", 1, 1e-2f}, text, &again), "");
}

TEST(LmExperiment, DefaultsAreValidAndCompareEqualWidthsAndBudgets) {
  for (bool quick : {false, true}) {
    LmExperimentSettings s;
    std::vector<LmVariant> v;
    ASSERT_EQ(lm_experiment("tiny-lm", quick, s, v), "");
    EXPECT_EQ(v[0].family, CemFamily::standard);
    EXPECT_EQ(v[1].d, v[0].d);
    ASSERT_EQ(lm_experiment("mlp-lm", quick, s, v), "");
    for (const LmVariant& x : v) {
      ASSERT_GE(x.learning_rates.size(), 3u) << x.name;
      const int per_unit = x.kind == LayerKind::mlp ? 2 : 2 * x.rank + 1;
      EXPECT_NEAR(double(x.hidden) * s.d * per_unit, s.budget, 0.02 * s.budget) << x.name;
    }
  }
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("mlp-lm", false, s, v), "");
  EXPECT_EQ(v.size(), 23u);
  EXPECT_EQ(v[0].hidden, 192);  // FFN d_ff at 24,576 per block and d = 64
  EXPECT_EQ(v[5].hidden, 128);  // SwiGLU m
  EXPECT_NE(lm_experiment("nope", false, s, v), "");
}
