// Steps per second of the character language model's training step (train/lm.hpp): batch
// windows of `context` characters, forward + cross-entropy + backward + AdamW (global-norm
// clipping 1, decay 0.1, the JS API's defaults) of the pre-norm transformer with a SwiGLU MLP,
// at the size of the benchmark row (d = 64, 2 blocks, 4 heads, context 64, batch 16, m = 128)
// and at the <gatelab-lm> figure's size (d = 32, context 32, batch 8, m = 64). The text is
// synthetic: 87 symbols, as many as the State of the Union corpus has, so the model has the
// same parameter count as the JS row's (speed does not depend on what the text says).
// Built natively and as wasm, so the two columns show what wasm costs at each size.
//   bench_lm            a table
//   bench_lm --json     one JSON object with a row per size, for bench/run.mjs
//   bench_lm --quick    a tiny model and short timings (a smoke test)
//   bench_lm --parts    also the step's pieces (attention, MLP, norms, readout, loss)
//   bench_lm --cpu      time by this process's CPU time instead of the wall clock (a busy machine)
//   bench_lm --size S   only one size: row (the benchmark row's) or figure
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "gatelab/base/matmul.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/model/baselines.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/loss.hpp"
#include "gatelab/train/lm.hpp"

using namespace gatelab;

namespace {

struct Size {
  int d, heads, context, batch, hidden;
};

constexpr int kVocabulary = 87;

std::shared_ptr<CharCorpus> synthetic_corpus(std::size_t chars) {
  Pcg32 rng(5);
  std::string text(chars, ' ');
  for (auto& c : text) {
    const int s = static_cast<int>(rng.below(kVocabulary));
    c = static_cast<char>(s == 0 ? '\n' : 31 + s);  // newline and the 86 bytes 32…117
  }
  auto corpus = std::make_shared<CharCorpus>();
  (void)make_char_corpus(text, 0.05, 0.05, *corpus);  // a fixed text of 86 symbols builds
  return corpus;
}

LmConfig lm_config(const Size& s) {
  LmConfig c;
  c.model.family = CemFamily::standard;
  c.model.d = s.d;
  c.model.layers = 2;
  cem_set_heads(c.model, s.heads);
  cem_set_hidden(c.model, s.hidden);
  c.model.std_mlp.kind = LayerKind::gated;
  c.model.std_mlp.activation = {Activation::silu, 1.0f};
  c.model.seed = 1;
  c.context = s.context;
  c.batch = s.batch;
  c.optimizer = {OptimizerKind::adamw, 4e-3f, 0.9f, 0.9f, 0.999f, 1e-8f, 0.1f, 1.0f};
  c.warmup = 50;
  return c;
}

std::string shape_name(const Size& s, std::size_t parameters) {
  return "d" + std::to_string(s.d) + " L2 h" + std::to_string(s.heads) + " C" + std::to_string(s.context) + " B" +
         std::to_string(s.batch) + " m" + std::to_string(s.hidden) + ", " + std::to_string(parameters) + " params";
}

struct Row {
  std::string op, shape, unit;
  double value, best;
};

std::vector<float> randn(std::size_t n, std::uint64_t seed) {
  Pcg32 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = rng.normal();
  return v;
}

// The pieces of one step on their own, in ms per call, at the step's shapes.
void parts(const Size& s, const bench::Timing& t, double (*clock)(), const std::string& shape, std::vector<Row>& rows) {
  const int n = s.context, seqs = s.batch, r = n * seqs, d = s.d, v = kVocabulary;
  auto add = [&](const char* name, auto&& fn) {
    const bench::PerCall c = bench::time_per_call(fn, t, clock);
    rows.push_back({std::string("lm_part ") + name, shape, "ms", c.median_s * 1e3, c.best_s * 1e3});
  };
  const auto x = randn(std::size_t(r) * d, 1), g = randn(std::size_t(r) * d, 2);
  std::vector<float> y(x.size()), dx(x.size());
  // The parts' shapes are fixed and valid, so their statuses are not checked inside the timing.
  CemStdAttention attention({d, s.heads, 0.0f, 3});
  add("attention forward", [&] {
    for (int b = 0; b < seqs; ++b) (void)attention.forward(x.data() + b * n * d, n, y.data() + b * n * d);
  });
  add("attention backward", [&] {
    for (int b = 0; b < seqs; ++b) {
      (void)attention.backward(x.data() + b * n * d, n, g.data() + b * n * d, dx.data() + b * n * d, true);
    }
  });
  LayerConfig lc;
  lc.kind = LayerKind::gated;
  lc.activation = {Activation::silu, 1.0f};
  lc.d_in = d;
  lc.hidden = s.hidden;
  lc.d_out = d;
  lc.seed = 4;
  Layer mlp(lc);
  add("mlp forward", [&] { (void)mlp.forward(x.data(), r, y.data()); });
  add("mlp backward", [&] { (void)mlp.backward(x.data(), r, g.data(), dx.data(), true); });
  std::vector<float> gain(d, 1.0f), dgain(d), inv(r);
  add("rmsnorm forward+backward", [&] {
    cem_rmsnorm_forward(x.data(), gain.data(), r, d, 1e-5f, y.data(), inv.data());
    cem_rmsnorm_backward(x.data(), gain.data(), inv.data(), g.data(), r, d, dx.data(), dgain.data());
  });
  std::vector<float> onehot(std::size_t(r) * v, 0.0f), w_in = randn(std::size_t(d) * v, 5), dw(w_in.size());
  for (int i = 0; i < r; ++i) onehot[std::size_t(i) * v + (i * 7) % v] = 1.0f;
  std::vector<float> logits(std::size_t(r) * v), glogits = randn(logits.size(), 6);
  add("embedding + readout", [&] {
    matmul_nt(onehot.data(), w_in.data(), y.data(), r, v, d);       // H⁰ = x W_inᵀ
    matmul_nt(x.data(), w_in.data(), logits.data(), r, d, v);       // out = F W_outᵀ
    matmul_tn(glogits.data(), x.data(), dw.data(), v, r, d, true);  // dW_out
    matmul_nn(glogits.data(), w_in.data(), dx.data(), r, v, d);     // dF
    matmul_tn(g.data(), onehot.data(), dw.data(), d, r, v, true);   // dW_in
  });
  std::vector<std::int32_t> targets(r);
  for (int i = 0; i < r; ++i) targets[i] = (i * 11) % v;
  double loss = 0;
  add("cross-entropy", [&] { (void)cross_entropy_loss(logits.data(), targets.data(), r, v, &loss, glogits.data()); });
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false, with_parts = false;
  double (*clock)() = bench::now_seconds;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0)
      json = true;
    else if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strcmp(argv[i], "--parts") == 0)
      with_parts = true;
    else if (std::strcmp(argv[i], "--cpu") == 0)
      clock = bench::cpu_seconds;
    else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc)
      only = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_lm [--json] [--quick] [--parts] [--cpu] [--size row|figure]\n");
      return 2;
    }
  }
  const Size row{64, 4, 64, 16, 128}, figure{32, 4, 32, 8, 64};
  std::vector<Size> sizes = quick ? std::vector<Size>{{16, 2, 8, 2, 16}} : std::vector<Size>{row, figure};
  if (only == "row")
    sizes = {row};
  else if (only == "figure")
    sizes = {figure};
  else if (!only.empty()) {
    std::fprintf(stderr, "bench_lm: --size is row or figure\n");
    return 2;
  }
  const bench::Timing timing = quick ? bench::Timing{0.02, 0.005, 3} : bench::Timing{1.0, 0.1, 11};
  auto corpus = synthetic_corpus(quick ? 20000 : 400000);
  std::vector<Row> rows;
  for (const Size& s : sizes) {
    LmSession session(lm_config(s), corpus);
    if (!session.error().ok()) {
      std::fprintf(stderr, "bench_lm: %s\n", session.error().message.c_str());
      return 1;
    }
    const std::string shape = shape_name(s, session.parameter_count());
    if (Status e = session.train(1); !e.ok()) {
      std::fprintf(stderr, "bench_lm: %s\n", e.message.c_str());
      return 1;
    }
    const bench::PerCall c = bench::time_per_call([&] { (void)session.train(1); }, timing, clock);
    rows.push_back({"lm_train_step core", shape, "steps/s", 1.0 / c.median_s, 1.0 / c.best_s});
    if (with_parts) parts(s, timing, clock, shape, rows);
  }
  if (json) {
    std::printf("{\"bench\": \"lm\", \"platform\": \"%s\", \"rows\": [", bench::platform());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::printf("%s\n  {\"op\": \"%s\", \"shape\": \"%s\", \"unit\": \"%s\", \"value\": %.6g, \"best\": %.6g}",
                  i ? "," : "", rows[i].op.c_str(), rows[i].shape.c_str(), rows[i].unit.c_str(), rows[i].value,
                  rows[i].best);
    }
    std::printf("\n]}\n");
  } else {
    std::printf("LM training step (%s; median / best of %d batches)\n", bench::platform(), timing.repeats);
    for (const Row& r : rows) {
      std::printf("%-34s %-44s %10.3f / %10.3f %s\n", r.op.c_str(), r.shape.c_str(), r.value, r.best, r.unit.c_str());
    }
  }
  return 0;
}
