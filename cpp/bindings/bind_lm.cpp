// Embind registrations of the character language-model sessions (train/lm.hpp) behind lab.lm:
// a corpus built once from a text, and sessions over it, stepped in coarse calls. Curves and
// checkpoints cross as JS arrays (small next to a step).
#include "bind_module.hpp"

#include <memory>

#include "gatelab/train/lm.hpp"

using namespace emscripten;
using namespace gatelab;
using namespace gatelab::bind;

namespace {

struct Corpus {
  std::shared_ptr<CharCorpus> corpus = std::make_shared<CharCorpus>();
  Status error;
  Corpus(const std::string& text, double dev, double val) : error(make_char_corpus(text, dev, val, *corpus)) {}
};

Status to_config(const val& j, LmConfig& c) {
  CemTransformerConfig& m = c.model;
  Status e = read_layer_fields(j["mlp"], m.std_mlp).within("mlp");
  if (e.ok()) e = parse_optimizer(get<std::string>(j, "optimizer"), c.optimizer.kind);
  if (e.ok()) e = seed_of(j, m.seed);
  const double data_seed = get<double>(j, "dataSeed");
  if (e.ok()) e = validate_seed(data_seed, "data_seed");
  if (!e.ok()) return e;
  m.family = CemFamily::standard;
  OptimizerOptions& o = c.optimizer;
  read_fields(j, "d", m.d, "layers", m.layers, "heads", m.std_attention.heads, "context", c.context, "batch", c.batch,
              "warmup", c.warmup, "decaySteps", c.decay_steps, "learningRate", o.learning_rate, "weightDecay",
              o.weight_decay, "clipNorm", o.clip_norm, "momentum", o.momentum, "mlpInitRms", c.mlp_init_rms, "gaugeFix",
              c.gauge_fix);
  c.data_seed = static_cast<std::uint64_t>(data_seed);
  return {};
}

Status validate_session(const val& j, const Corpus& corpus) {
  LmConfig c;
  Status e = to_config(j, c);
  return e.ok() ? validate(c, *corpus.corpus) : e;
}

LmSession* create_session(const val& j, const Corpus& corpus) {
  LmConfig c;
  (void)to_config(j, c);  // valid: web/lib called _lmValidateSession first
  return new LmSession(c, corpus.corpus);
}

}  // namespace

// Laid out by hand: clang-format 14 would put each `+[]` lambda on a line of its own.
// clang-format off
EMSCRIPTEN_BINDINGS(gatelab_lm) {
  class_<Corpus>("LmCorpus")
      .constructor<std::string, double, double>()
      .function("error", +[](const Corpus& c) { return c.error; })
      .function("vocabulary", +[](const Corpus& c) { return c.corpus->vocab.size(); })
      .function("size", +[](const Corpus& c, int s) { return double(c.corpus->split(CorpusSplit(s)).size()); })
      .function("symbols", +[](const Corpus& c) {
        return std::string(c.corpus->vocab.symbols.begin(), c.corpus->vocab.symbols.end());
      })
      .function("baselines", +[](const Corpus& c) {
        const CorpusBaselines b = corpus_baselines(*c.corpus);
        return object_of("uniform", b.uniform, "unigram", b.unigram);
      });
  function("_lmValidateSession", &validate_session);
  function("_lmCreateSession", &create_session, allow_raw_pointers());
  function("_lmHiddenForBudget", +[](const std::string& kind, int rank, int d, int budget) {
    return lm_mlp_hidden(parse_layer_kind(kind).value_or(LayerKind::gated), rank, d, budget);
  });
  constants({{"_lmMaxContext", max_lm_context}, {"_lmMaxBatch", max_lm_batch}});
  class_<LmSession>("LmSession")
      .function("error", &LmSession::error)
      .function("train", &LmSession::train)
      .function("stepsDone", &LmSession::steps_done)
      .function("diverged", &LmSession::diverged)
      .function("parameterCount", +[](const LmSession& s) { return double(s.parameter_count()); })
      .function("losses", +[](const LmSession& s, int from) {
        const auto& l = s.train_losses();
        const std::size_t start = std::min<std::size_t>(std::max(0, from), l.size());
        return float64_array(l.data() + start, l.size() - start);
      })
      .function("evaluate", +[](LmSession& s, int split, int windows) {
        return number_from([&](double* v) { return s.evaluate(CorpusSplit(split), windows, v); });
      })
      .function("sample", +[](LmSession& s, int count, float temperature, double seed) {
        std::string text;
        const Status e = s.sample(count, temperature, static_cast<std::uint64_t>(seed), &text);
        return object_of("error", e, "text", text);
      })
      .function("diagnostics", +[](LmSession& s, int split, int windows) {
        std::vector<double> flat;
        const Status e = lm_diagnostics_flat(s, CorpusSplit(split), windows, flat);
        return object_of("error", e, "values", float64_array(flat.data(), flat.size()));
      })
      .function("mlpOutputRms", &LmSession::mlp_output_rms)
      .function("checkpoint", +[](const LmSession& s) {
        const auto bytes = s.checkpoint();
        return val::global("Uint8Array").new_(typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
      })
      .function("restore", +[](LmSession& s, const val& bytes) {
        const auto data = vecFromJSArray<std::uint8_t>(bytes);
        return s.restore(data.data(), data.size());
      });
}
// clang-format on
