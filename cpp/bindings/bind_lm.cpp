// Embind registrations of the character language-model session (train/lm.hpp) behind lab.lm:
// a corpus built once from a text, sessions over it (a batch of steps, an evaluation, a sample,
// the diagnostics, a checkpoint per call). Names arrive as catalogue indices that web/lib
// checked; numbers cross as plain values, curves and checkpoints as JS arrays.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "gatelab/paper_a/labels.hpp"
#include "gatelab/train/lm.hpp"

using namespace emscripten;
using namespace gatelab;

namespace {

struct LmCorpusHandle {
  std::shared_ptr<CharCorpus> corpus = std::make_shared<CharCorpus>();
  std::string error;
  LmCorpusHandle(const std::string& text, double dev, double validation)
      : error(make_char_corpus(text, dev, validation, *corpus)) {}
  int vocabulary() const { return corpus->vocab.size(); }
  double size(int split) const { return double(corpus->split(static_cast<CorpusSplit>(split)).size()); }
  std::string symbols() const { return std::string(corpus->vocab.symbols.begin(), corpus->vocab.symbols.end()); }
  double uniform() const { return corpus_baselines(*corpus).uniform; }
  double unigram() const { return corpus_baselines(*corpus).unigram; }
};

// Every field filled in by web/lib/train/lm.js (kinds, activations and optimizers as indices).
struct LmOptions {
  int d = 32, layers = 2, heads = 4, hidden = 64, kind = 2, activation = 6, rank = 1;
  float symmetrize = 0, beta = 1;
  int context = 32, batch = 8, optimizer = 3;
  float learningRate = 4e-3f, weightDecay = 0.1f, clipNorm = 1, momentum = 0.9f, mlpInitRms = 0;
  int warmup = 50, decaySteps = 0;
  double seed = 1, dataSeed = 1;
  bool gaugeFix = false;
};

LmConfig to_config(const LmOptions& o) {
  LmConfig c;
  c.model.family = CemFamily::standard;
  c.model.d = o.d;
  c.model.layers = o.layers;
  c.model.heads = o.heads;
  c.model.hidden = o.hidden;
  c.model.mlp_kind = layer_kind_by_index(o.kind);
  c.model.activation = {activation_by_index(o.activation), o.beta};
  c.model.mlp_rank = o.rank;
  c.model.mlp_symmetrize = o.symmetrize;
  c.model.seed = static_cast<std::uint64_t>(o.seed);
  c.context = o.context;
  c.batch = o.batch;
  c.optimizer = {static_cast<OptimizerKind>(o.optimizer), o.learningRate, o.momentum, 0.9f, 0.999f, 1e-8f,
                 o.weightDecay, o.clipNorm};
  c.warmup = o.warmup;
  c.decay_steps = o.decaySteps;
  c.data_seed = static_cast<std::uint64_t>(o.dataSeed);
  c.gauge_fix = o.gaugeFix;
  c.mlp_init_rms = o.mlpInitRms;
  return c;
}

std::string validate_options(const LmOptions& o, const LmCorpusHandle& corpus) {
  return validate(to_config(o), *corpus.corpus);
}

LmSession* create_session(const LmOptions& o, const LmCorpusHandle& corpus) {
  return new LmSession(to_config(o), corpus.corpus);
}

struct LmNumber {
  std::string error;
  double value = 0;
};

LmNumber evaluate(LmSession& s, int split, int windows) {
  LmNumber r;
  r.error = s.evaluate(static_cast<CorpusSplit>(split), windows, &r.value);
  return r;
}

val losses(const LmSession& s, int from) {
  val out = val::array();
  const auto& l = s.train_losses();
  for (std::size_t i = std::size_t(std::max(0, from)); i < l.size(); ++i) out.call<void>("push", l[i]);
  return out;
}

val sample(LmSession& s, int count, float temperature, double seed) {
  std::string text;
  const std::string error = s.sample(count, temperature, static_cast<std::uint64_t>(seed), &text);
  val out = val::object();
  out.set("error", error);
  out.set("text", text);
  return out;
}

// [error, then per block: share, gap, balance, drift, five quantiles].
val diagnostics(LmSession& s, int split, int windows) {
  std::vector<LmBlockDiagnostics> blocks;
  val out = val::array();
  out.call<void>("push", s.diagnostics(static_cast<CorpusSplit>(split), windows, blocks));
  for (const auto& b : blocks) {
    for (double v : {b.antisymmetric_share, b.exchange_gap, b.qk_balance, b.qk_drift}) out.call<void>("push", v);
    for (double q : b.preactivation_quantiles) out.call<void>("push", q);
  }
  return out;
}

val checkpoint(const LmSession& s) {
  const std::vector<std::uint8_t> bytes = s.checkpoint();
  return val::global("Uint8Array").new_(typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

std::string restore(LmSession& s, const val& bytes) {
  const std::vector<std::uint8_t> data = vecFromJSArray<std::uint8_t>(bytes);
  return s.restore(data.data(), data.size());
}

int hidden_for_budget(int kind, int rank, int d, int budget) {
  return lm_mlp_hidden(layer_kind_by_index(kind), rank, d, budget);
}

}  // namespace

EMSCRIPTEN_BINDINGS(lm) {
  class_<LmCorpusHandle>("_LmCorpus")
      .constructor<std::string, double, double>()
      .property("error", &LmCorpusHandle::error)
      .function("vocabulary", &LmCorpusHandle::vocabulary)
      .function("size", &LmCorpusHandle::size)
      .function("symbols", &LmCorpusHandle::symbols)
      .function("uniform", &LmCorpusHandle::uniform)
      .function("unigram", &LmCorpusHandle::unigram);
  value_object<LmOptions>("_LmOptions")
      .field("d", &LmOptions::d).field("layers", &LmOptions::layers).field("heads", &LmOptions::heads)
      .field("hidden", &LmOptions::hidden).field("kind", &LmOptions::kind).field("activation", &LmOptions::activation)
      .field("rank", &LmOptions::rank).field("symmetrize", &LmOptions::symmetrize).field("beta", &LmOptions::beta)
      .field("context", &LmOptions::context).field("batch", &LmOptions::batch)
      .field("optimizer", &LmOptions::optimizer).field("learningRate", &LmOptions::learningRate)
      .field("weightDecay", &LmOptions::weightDecay).field("clipNorm", &LmOptions::clipNorm)
      .field("momentum", &LmOptions::momentum).field("mlpInitRms", &LmOptions::mlpInitRms)
      .field("warmup", &LmOptions::warmup).field("decaySteps", &LmOptions::decaySteps)
      .field("seed", &LmOptions::seed).field("dataSeed", &LmOptions::dataSeed).field("gaugeFix", &LmOptions::gaugeFix);
  value_object<LmNumber>("_LmNumber").field("error", &LmNumber::error).field("value", &LmNumber::value);
  class_<LmSession>("_LmSession")
      .function("error", &LmSession::error)
      .function("train", &LmSession::train)
      .function("stepsDone", &LmSession::steps_done)
      .function("diverged", &LmSession::diverged)
      .function("parameterCount", optional_override([](const LmSession& s) { return double(s.parameter_count()); }))
      .function("losses", &losses)
      .function("evaluate", &evaluate)
      .function("sample", &sample)
      .function("diagnostics", &diagnostics)
      .function("mlpOutputRms", &LmSession::mlp_output_rms)
      .function("checkpoint", &checkpoint)
      .function("restore", &restore);
  function("_lmValidateOptions", &validate_options);
  function("_lmCreateSession", &create_session, allow_raw_pointers());
  function("_lmHiddenForBudget", &hidden_for_budget);
  function("_optimizerName", optional_override([](int i) { return std::string(optimizer_name(static_cast<OptimizerKind>(i))); }));
  constant("_optimizerCount", 4);
  constant("_lmMaxContext", max_lm_context);
  constant("_lmMaxBatch", max_lm_batch);
}
