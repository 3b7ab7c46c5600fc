// The tiny-lm experiment: the character vocabulary and split, the trivial baselines, a small
// model learning a repetitive text far below the unigram loss, determinism, and its JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "experiment_tinylm.hpp"

using namespace gatelab;

namespace {

// A text with strong sequential structure and a flat unigram distribution.
std::string patterned_text(int length) {
  const std::string words[] = {"the cat sat. ", "a dog ran! ", "we met them. ", "tea is hot? "};
  std::string s;
  for (int i = 0; int(s.size()) < length; ++i) s += words[(i * 7 + i / 3) % 4];
  return s.substr(0, length);
}

TinyLmExperimentConfig small_config() {
  TinyLmExperimentConfig c;
  c.train.context = 16;
  c.train.d = 16;
  c.train.hidden = 32;
  c.train.heads = 2;
  c.train.layers = 1;
  c.train.batch = 8;
  c.train.lr = 1e-2f;
  c.train.eta = 0.25f;
  c.train.warmup = 5;
  TinyLmModelSpec cem;
  cem.label = "cem T=2";
  cem.steps = 2;
  TinyLmModelSpec llama;
  llama.label = "llama";
  llama.family = CemFamily::standard;
  llama.diagonal = CemDiagonal::none;
  c.models = {cem, llama};
  c.seeds = 1;
  c.train_steps = 150;
  c.train.decay_steps = 150;
  c.curve_points = 2;
  c.curve_windows = 8;
  c.eval_windows = 40;
  c.sample_chars = 20;
  return c;
}

}  // namespace

TEST(TinyLmData, VocabularyAndSplit) {
  const CharVocab v = char_vocab("banana!");
  EXPECT_EQ(std::string(v.symbols.begin(), v.symbols.end()), "!abn");
  EXPECT_EQ(v.index['a'], 1);
  EXPECT_EQ(v.index['z'], -1);
  TinyLmExperimentConfig c = small_config();
  TinyLmData data;
  ASSERT_EQ(tinylm_prepare(c, patterned_text(5000), data), "");
  EXPECT_EQ(data.train.size(), 4500u);
  EXPECT_EQ(data.validation.size(), 500u);
  EXPECT_EQ(validate(c, data), "");
  EXPECT_NE(tinylm_prepare(c, "too short", data), "");
  c.max_chars = 2000;
  ASSERT_EQ(tinylm_prepare(c, patterned_text(5000), data), "");
  EXPECT_EQ(data.train.size() + data.validation.size(), 2000u);
}

TEST(TinyLmData, Baselines) {
  TinyLmData data;
  ASSERT_EQ(tinylm_prepare(small_config(), patterned_text(4000), data), "");
  const TinyLmBaselines b = tinylm_baselines(data);
  EXPECT_NEAR(b.uniform, std::log(double(data.vocab.size())), 1e-12);
  EXPECT_LT(b.unigram, b.uniform);
  EXPECT_GT(b.unigram, 1.0);
}

TEST(TinyLm, BothFamiliesLearnFarBelowTheUnigramLossAndRepeatExactly) {
  const TinyLmExperimentConfig c = small_config();
  TinyLmData data;
  ASSERT_EQ(tinylm_prepare(c, patterned_text(6000), data), "");
  const TinyLmBaselines base = tinylm_baselines(data);
  std::vector<TinyLmRunResult> runs;
  for (int m = 0; m < 2; ++m) {
    const TinyLmRunResult r = tinylm_run(c, m, 1, data);
    ASSERT_EQ(r.error, "") << r.label;
    EXPECT_FALSE(r.diverged);
    EXPECT_TRUE(std::isfinite(r.val_loss));
    EXPECT_LT(r.val_loss, 0.6 * base.unigram) << r.label << ": " << r.val_loss << " vs unigram " << base.unigram;
    EXPECT_NEAR(r.val_perplexity, std::exp(r.val_loss), 1e-9 * r.val_perplexity);
    EXPECT_EQ(r.sample.size(), 20u);
    EXPECT_EQ(r.curve_steps, (std::vector<int>{75, 150}));
    runs.push_back(r);
  }
  EXPECT_LT(runs[0].parameters, runs[1].parameters);  // tied layers are smaller
  const TinyLmRunResult again = tinylm_run(c, 0, 1, data);
  EXPECT_EQ(again.val_loss, runs[0].val_loss);
  EXPECT_EQ(again.sample, runs[0].sample);
  const std::string json = tinylm_experiment_json(c, data, base, runs, 1.0, 1);
  for (const char* key : {"\"valLoss\"", "\"valPerplexity\"", "\"unigram\"", "\"samplePrompt\"", "\"parameters\""}) {
    EXPECT_NE(json.find(key), std::string::npos) << key;
  }
}

TEST(TinyLm, DefaultsAreValidAndCompareEqualWidths) {
  for (bool quick : {false, true}) {
    const TinyLmExperimentConfig c = tinylm_experiment_defaults(quick);
    TinyLmData data;
    ASSERT_EQ(tinylm_prepare(c, patterned_text(60000), data), "");
    EXPECT_EQ(validate(c, data), "") << quick;
    EXPECT_EQ(c.models[0].family, CemFamily::standard);
    EXPECT_EQ(c.models[1].d, c.models[0].d);
  }
}
