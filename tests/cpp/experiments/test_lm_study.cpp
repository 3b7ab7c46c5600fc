// A study of the language-model experiments from the command line (experiment_lm_study.cpp,
// lm_experiment with an LmStudy): the flags parse into one canonical order, mistakes are refused
// naming the flag, every flag reaches the settings or the table (the MLP budget following d²,
// §A20), --variants keeps the reference unlisted, and a job records its settings and flags.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "experiment_lm.hpp"

using namespace gatelab;

namespace {

using Flags = std::vector<std::pair<std::string, std::string>>;

LmStudy parsed(const Flags& flags) {
  LmStudy study;
  EXPECT_EQ(lm_parse_study(flags, study), "");
  return study;
}

std::string refused(const Flags& flags) {
  LmStudy study;
  return lm_parse_study(flags, study);
}

std::string table_error(const std::string& experiment, const Flags& flags, bool quick = false) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  return lm_experiment(experiment, quick, parsed(flags), s, v);
}

const LmVariant* named(const std::vector<LmVariant>& v, const std::string& name) {
  for (const auto& x : v) {
    if (x.name == name) return &x;
  }
  return nullptr;
}

}  // namespace

TEST(LmStudy, FlagsParseIntoOneCanonicalOrder) {
  const LmStudy st = parsed({{"rates", "swiglu=0.001,0.002"},
                             {"variants", "swiglu,ffn-gelu"},
                             {"text", "ignored.txt"},
                             {"seeds", "07"},
                             {"d", "32"},
                             {"rates", "0.002,0.004"},
                             {"sweep-seeds", "3"},
                             {"heads", "2"}});
  EXPECT_EQ(st.d, 32);
  EXPECT_EQ(st.heads, 2);
  EXPECT_EQ(st.seeds, 7);
  EXPECT_EQ(st.sweep_seeds, 3);
  EXPECT_EQ(st.variants, (std::vector<std::string>{"swiglu", "ffn-gelu"}));
  EXPECT_EQ(st.rates, (std::vector<float>{0.002f, 0.004f}));
  ASSERT_EQ(st.variant_rates.size(), 1u);
  EXPECT_EQ(st.variant_rates[0].first, "swiglu");
  EXPECT_EQ(st.args,
            (std::vector<std::string>{"--d", "32", "--heads", "2", "--seeds", "7", "--sweep-seeds", "3", "--variants",
                                      "swiglu,ffn-gelu", "--rates", "0.002,0.004", "--rates", "swiglu=0.001,0.002"}));
  EXPECT_TRUE(parsed({}).args.empty());
}

TEST(LmStudy, MistakesAreRefusedNamingTheFlag) {
  EXPECT_NE(refused({{"d", "0"}}).find("--d must be a positive integer"), std::string::npos);
  EXPECT_NE(refused({{"layers", "2.5"}}).find("--layers"), std::string::npos);
  EXPECT_NE(refused({{"batch", "-1"}}).find("--batch"), std::string::npos);
  EXPECT_NE(refused({{"d", "16"}, {"d", "32"}}).find("--d is given twice"), std::string::npos);
  EXPECT_NE(refused({{"eta", "1/16"}}).find("--eta"), std::string::npos);
  EXPECT_NE(refused({{"eta", "0"}}).find("--eta"), std::string::npos);
  EXPECT_NE(refused({{"variants", "swiglu,,glu"}}).find("--variants"), std::string::npos);
  EXPECT_NE(refused({{"variants", "glu,glu"}}).find("--variants"), std::string::npos);
  EXPECT_NE(refused({{"rates", "0.004,0.002"}}).find("--rates: the grid must increase"), std::string::npos);
  EXPECT_NE(refused({{"rates", "0.002,x"}}).find("--rates"), std::string::npos);
  EXPECT_NE(refused({{"rates", "0.002"}, {"rates", "0.004"}}).find("--rates"), std::string::npos);
  EXPECT_NE(refused({{"rates", "glu=0.1"}, {"rates", "glu=0.2"}}).find("glu's grid twice"), std::string::npos);
  EXPECT_NE(refused({{"rates", "=0.1"}}).find("--rates"), std::string::npos);

  EXPECT_NE(table_error("mlp-lm", {{"heads", "5"}}).find("--heads must divide"), std::string::npos);
  EXPECT_NE(table_error("tiny-lm", {{"heads", "32"}}).find("--heads must divide"), std::string::npos);  // d = 48, 80
  EXPECT_NE(table_error("tiny-lm", {{"d", "32"}}).find("--d: tiny-lm"), std::string::npos);
  EXPECT_NE(table_error("mlp-lm", {{"eta", "0.125"}}).find("--eta"), std::string::npos);
  EXPECT_NE(table_error("mlp-lm", {{"variants", "swiglu,nope"}}).find("--variants: no variant 'nope'"),
            std::string::npos);
  EXPECT_NE(table_error("mlp-lm", {{"variants", "glu"}, {"rates", "swiglu=0.1"}}).find("--rates: no variant 'swiglu'"),
            std::string::npos);
  EXPECT_NE(table_error("mlp-lm", {{"seeds", "101"}}).find("--seeds must be below 101"), std::string::npos);
  EXPECT_NE(table_error("mlp-lm", {{"steps", "5"}}).find("--steps"), std::string::npos);  // fewer than 10 points
  EXPECT_EQ(table_error("mlp-lm", {{"steps", "5"}}, true), "");                           // quick: 2 points
}

TEST(LmStudy, EveryFlagReachesTheSettingsAndTheBudgetFollowsD) {
  for (bool quick : {false, true}) {
    LmExperimentSettings base, s;
    std::vector<LmVariant> v0, v;
    ASSERT_EQ(lm_experiment("mlp-lm", quick, base, v0), "");
    const LmStudy st = parsed({{"d", "24"},
                               {"layers", "3"},
                               {"heads", "3"},
                               {"context", "8"},
                               {"batch", "2"},
                               {"steps", "20"},
                               {"seeds", "3"},
                               {"sweep-seeds", "2"}});
    ASSERT_EQ(lm_experiment("mlp-lm", quick, st, s, v), "");
    EXPECT_EQ(s.d, 24);
    EXPECT_EQ(s.layers, 3);
    EXPECT_EQ(s.heads, 3);
    EXPECT_EQ(s.context, 8);
    EXPECT_EQ(s.batch, 2);
    EXPECT_EQ(s.steps, 20);
    EXPECT_EQ(s.long_steps, 40);
    EXPECT_EQ(s.sweep_steps, 0);  // the sweep at the runs' length
    EXPECT_EQ(s.seeds, 3);
    EXPECT_EQ(s.sweep_seeds, 2);
    EXPECT_EQ(s.study_args, st.args);
    // The budget keeps its ratio to d²: 6d² (3d² quick), so m = 2d (d quick) and every variant has it.
    EXPECT_EQ(s.budget, base.budget * 24 * 24 / (base.d * base.d));
    EXPECT_EQ(s.budget, quick ? 3 * 24 * 24 : 6 * 24 * 24);
    ASSERT_EQ(v.size(), v0.size());
    for (const LmVariant& x : v) {
      const int per_unit = x.kind == LayerKind::mlp ? 2 : 2 * x.rank + 1;
      EXPECT_NEAR(double(x.hidden) * s.d * per_unit, s.budget, 0.03 * s.budget) << x.name;
      EXPECT_EQ(x.learning_rates, named(v0, x.name)->learning_rates) << "no --rates: the experiment's grid";
      const LmConfig c = lm_job_config(s, x, 1, 1e-3f, s.steps);
      EXPECT_EQ(c.model.d, 24);
      EXPECT_EQ(c.model.layers, 3);
      EXPECT_EQ(c.model.std_attention.heads, 3);
      EXPECT_EQ(c.context, 8);
      EXPECT_EQ(c.batch, 2);
      EXPECT_EQ(c.decay_steps, 20);
    }
    EXPECT_EQ(named(v, "swiglu")->hidden, quick ? 24 : 48);
    EXPECT_EQ(named(v, "ffn-gelu")->hidden, quick ? 36 : 72);
    const std::string json = lm_variants_json(s, v);
    EXPECT_NE(json.find("\"sweepSeeds\":2"), std::string::npos);
    EXPECT_EQ(lm_variants_json(base, v0).find("sweepSeeds"), std::string::npos)
        << "one sweep seed: the table as before";
  }
}

TEST(LmStudy, EtaReachesTheCemLayersOfTinyLm) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("tiny-lm", false, parsed({{"eta", "0.0625"}, {"variants", "cem-t1-d64,cem-t2-d64"}}), s, v),
            "");
  EXPECT_EQ(s.eta, 0.0625f);
  ASSERT_EQ(v.size(), 2u);
  for (const LmVariant& x : v) {
    const LmConfig c = lm_job_config(s, x, 1, 4e-3f, s.steps);
    EXPECT_EQ(c.model.attention.eta, 0.0625f) << x.name;
    EXPECT_EQ(c.model.mlp.eta, 0.0625f) << x.name;
    EXPECT_EQ(c.model.attention.steps, x.steps);
  }
}

TEST(LmStudy, VariantsSelectKeepingTheReferenceUnlistedAndRatesReachTheGrid) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  const LmStudy st = parsed({{"variants", "symgated-silu,ffn-gelu,swiglu-momentum"},
                             {"rates", "0.001,0.01"},
                             {"rates", "ffn-gelu=0.003,0.005,0.007,0.009"}});
  ASSERT_EQ(lm_experiment("mlp-lm", false, st, s, v), "");
  std::vector<std::string> listed;
  for (const LmVariant& x : v) {
    if (x.listed) listed.push_back(x.name);
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"ffn-gelu", "symgated-silu", "swiglu-momentum"})) << "the table's order";
  const LmVariant* reference = named(v, "swiglu");
  ASSERT_NE(reference, nullptr) << "kept for the initial MLP output RMS";
  EXPECT_FALSE(reference->listed);
  EXPECT_EQ(s.long_variants, (std::vector<std::string>{"symgated-silu"}));
  EXPECT_EQ(named(v, "symgated-silu")->learning_rates, (std::vector<float>{0.001f, 0.01f}));
  EXPECT_EQ(named(v, "swiglu-momentum")->learning_rates, (std::vector<float>{0.001f, 0.01f}));
  EXPECT_EQ(named(v, "ffn-gelu")->learning_rates, (std::vector<float>{0.003f, 0.005f, 0.007f, 0.009f}));
  const std::string json = lm_variants_json(s, v);
  EXPECT_EQ(json.find("\"name\":\"swiglu\""), std::string::npos) << "the unlisted reference is not in the table";
  EXPECT_NE(json.find("\"name\":\"ffn-gelu\""), std::string::npos);
  std::string out;
  EXPECT_NE(lm_run_job(s, v, {"swiglu", "main", 1, 4e-3f}, std::string(20000, 'a'), &out).find("--variants"),
            std::string::npos);
}

TEST(LmStudy, AJobRecordsItsSettingsAndTheStudyFlags) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  EXPECT_NE(table_error("mlp-lm", {{"variants", "ffn-relu"}}, true).find("no variant 'ffn-relu'"), std::string::npos)
      << "the quick table has no FFN-ReLU";
  ASSERT_EQ(lm_experiment(
                "mlp-lm", true,
                parsed({{"d", "8"}, {"heads", "2"}, {"context", "8"}, {"steps", "4"}, {"variants", "ffn-gelu"}}), s, v),
            "");
  s.eval_windows = 4;
  s.diagnostic_windows = 2;
  std::string text;
  for (int i = 0; text.size() < 20000; ++i) text += "the cat sat on the mat. "[i % 24];
  std::string json;
  ASSERT_EQ(lm_run_job(s, v, {"ffn-gelu", "main", 1, 4e-3f}, text, &json), "");
  EXPECT_NE(json.find("\"steps\":4,"), std::string::npos);
  EXPECT_NE(json.find("\"settings\":{\"experiment\":\"mlp-lm\",\"d\":8,\"layers\":1,\"heads\":2,\"context\":8,"),
            std::string::npos)
      << json.substr(json.find("\"settings\""), 200);
  EXPECT_NE(json.find("\"args\":[\"--d\",\"8\",\"--heads\",\"2\",\"--context\",\"8\",\"--steps\",\"4\",\"--variants\","
                      "\"ffn-gelu\"]"),
            std::string::npos);
}

// Issue #23's variants (docs/MATH.md §A23): by name only, so the experiment's own plan keeps the
// variants it had; at the one budget (24,576 MLP parameters per block at d = 64) with FFN d_ff = 3d
// and bigated m = 2d, and the kinds and activations the names say.
TEST(LmStudy, TheResolvingStudysVariantsRunByNameOnlyAtEqualMlpParameters) {
  LmExperimentSettings s;
  std::vector<LmVariant> v;
  ASSERT_EQ(lm_experiment("mlp-lm", false, LmStudy{}, s, v), "");
  for (const char* name : {"ffn-silu", "ffn-relu2", "silu-silu", "relu-relu"})
    EXPECT_EQ(named(v, name), nullptr) << name << " must not join the default plan";
  EXPECT_EQ(v.size(), 23u);
  ASSERT_EQ(
      lm_experiment("mlp-lm", false, parsed({{"variants", "ffn-silu,ffn-relu2,silu-silu,relu-relu,reglu"}}), s, v), "");
  const LmVariant *silu = named(v, "ffn-silu"), *relu2 = named(v, "ffn-relu2"), *bi = named(v, "silu-silu");
  ASSERT_TRUE(silu && relu2 && bi && named(v, "relu-relu") && named(v, "swiglu"));
  EXPECT_EQ(silu->kind, LayerKind::mlp);
  EXPECT_EQ(silu->activation.kind, Activation::silu);
  EXPECT_EQ(relu2->kind, LayerKind::mlp);
  EXPECT_EQ(relu2->activation.kind, Activation::relu2);
  EXPECT_EQ(bi->kind, LayerKind::bigated);
  EXPECT_EQ(bi->activation.kind, Activation::silu);
  EXPECT_EQ(bi->label, "SiLU·SiLU");
  EXPECT_FALSE(named(v, "swiglu")->listed);  // the reference of the initial RMS, unlisted
  for (const LmVariant* x : {silu, relu2, bi, named(v, "reglu")}) {
    const int per_unit = x->kind == LayerKind::mlp ? 2 * s.d : 3 * s.d;
    EXPECT_EQ(x->hidden * per_unit, 24576) << x->name;
  }
  EXPECT_EQ(silu->hidden, 192);
  EXPECT_EQ(bi->hidden, 128);
}
