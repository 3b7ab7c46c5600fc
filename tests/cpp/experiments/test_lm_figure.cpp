// The lm-figure experiment: the <gatelab-lm> figure's settings as a table of the native runner
// (equal MLP budgets, SwiGLU as the reference, a constant rate, a curve point every 50 steps),
// the curve steps of eval_every, and jobs that write their loss curves with every digit, so the
// figure's test can compare them bit for bit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "experiment_lm.hpp"
#include "gatelab/train/char_corpus.hpp"
#include "gatelab/train/lm.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;

namespace {

std::string patterned_text(int length) {
  const std::string words[] = {"the cat sat. ", "a dog ran! ", "we met them. ", "tea is hot? "};
  std::string s;
  for (int i = 0; int(s.size()) < length; ++i) s += words[(i * 7 + i / 3) % 4];
  return s.substr(0, length);
}

// The numbers of the JSON array after "key":[.
std::vector<double> array_after(const std::string& json, const std::string& key) {
  std::vector<double> out;
  std::size_t at = json.find("\"" + key + "\":[");
  EXPECT_NE(at, std::string::npos) << key;
  if (at == std::string::npos) return out;
  const char* p = json.c_str() + at + key.size() + 4;
  while (*p != ']') {
    char* end = nullptr;
    out.push_back(std::strtod(p, &end));
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

}  // namespace

TEST(LmFigure, TheFiguresTableSpendsOneBudgetAtAConstantRate) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("lm-figure", false, s, v), "");
  EXPECT_EQ(s.experiment, "lm-figure");
  EXPECT_EQ(s.d, 32);
  EXPECT_FALSE(s.decay);
  EXPECT_EQ(s.eval_every, 50);
  EXPECT_EQ(s.max_chars, 339181);  // the figure's text: data/lm/README.md
  ASSERT_GE(v.size(), 3u);
  EXPECT_EQ(v[0].name, "swiglu");
  EXPECT_EQ(v[1].name, "symgated-silu");
  EXPECT_EQ(v[1].symmetrize, 1.0f);
  EXPECT_EQ(v[2].name, "ffn-gelu");
  EXPECT_EQ(s.reference, v[0].name);
  for (const LmVariant& x : v) {
    const int per_unit = x.kind == LayerKind::mlp ? 2 : 2 * x.rank + 1;
    EXPECT_EQ(x.hidden * s.d * per_unit, s.budget) << x.name;
    ASSERT_EQ(x.learning_rates.size(), 1u) << x.name;
    EXPECT_EQ(lm_job_config(s, x, 1, x.learning_rates[0], s.steps).decay_steps, 0) << x.name;
  }
  EXPECT_NE(lm_experiment("lm-figure", true, s, v), "");  // no quick version: it is already small
}

TEST(LmFigure, CurveStepsFollowEvalEveryOrCurvePoints) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("lm-figure", false, s, v), "");
  EXPECT_EQ(lm_curve_steps(s, 100), (std::vector<int>{50, 100}));
  EXPECT_EQ(lm_curve_steps(s, 120), (std::vector<int>{50, 100, 120}));
  EXPECT_EQ(lm_curve_steps(s, 30), (std::vector<int>{30}));
  ASSERT_EQ(lm_experiment("mlp-lm", false, s, v), "");
  EXPECT_EQ(lm_curve_steps(s, 2000).size(), 10u);
  EXPECT_EQ(lm_curve_steps(s, 2000).front(), 200);
  EXPECT_EQ(lm_job_config(s, v[0], 1, 4e-3f, 2000).decay_steps, 2000);  // mlp-lm decays over its run
}

TEST(LmFigure, AJobWritesItsValidationCurveWithEveryDigit) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("lm-figure", false, s, v), "");
  s.d = 16;
  s.layers = 1;
  s.heads = 2;
  s.context = 16;
  s.batch = 4;
  s.budget = 768;
  s.max_chars = 0;
  s.eval_every = 20;
  s.eval_windows = 16;
  s.diagnostic_windows = 2;
  s.sample_chars = 10;
  s.steps = 40;
  for (LmVariant& x : v) x.hidden = lm_mlp_hidden(x.kind, x.rank, s.d, s.budget);
  const std::string text = patterned_text(8000);
  std::string json;
  ASSERT_EQ(lm_run_job(s, v, {"symgated-silu", "main", 3, 4e-3f}, text, &json), "");
  const std::vector<double> curve = array_after(json, "curveValLoss");
  ASSERT_EQ(curve.size(), 2u);

  // The same session by hand: the reference's initial RMS, then train and evaluate at 20 and 40.
  auto corpus = std::make_shared<CharCorpus>();
  ASSERT_OK(make_char_corpus(text, s.dev_fraction, s.validation_fraction, *corpus));
  LmSession probe(lm_job_config(s, v[0], 3, 4e-3f, s.steps), corpus);
  LmConfig config = lm_job_config(s, v[1], 3, 4e-3f, s.steps);
  config.mlp_init_rms = static_cast<float>(probe.mlp_output_rms(0));
  LmSession session(config, corpus);
  for (int k = 0; k < 2; ++k) {
    ASSERT_OK(session.train(20));
    double loss = 0;
    ASSERT_OK(session.evaluate(CorpusSplit::validation, s.eval_windows, &loss));
    EXPECT_EQ(curve[k], loss) << "point " << k << ": the JSON reads back bit for bit";
  }
}
