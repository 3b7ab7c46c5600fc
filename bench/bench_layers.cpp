// The figure-sized work without the JS API in the way, natively and in wasm (run the .js with
// node): the forward of one figure frame (mlp, symmetric, gated and bilinear layers, hidden
// 16, over a 128×128 grid of (x, y, 1): Layer::forward on 16384 rows each) and training
// throughput of the same four models on 500 points of the circle task with Adam, full batch
// and batch 32 (Trainer::step(100), curves recorded every 100 steps: what lab.createTrainer
// runs underneath). bench/run.mjs prints these as "… core" rows next to the JS API's rows, so
// the table shows what the JS boundary costs. Each measurement repeats short calls after a
// warm-up and reports the median of the timed batches.
//   bench_layers [--json] [--quick]
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "gatelab/train/dataset.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/train/trainer.hpp"

using namespace gatelab;

namespace {

using bench::Timing;

struct Result {
  double median_ms, best_ms;
};

// Median and best milliseconds per call of fn.
template <class F>
Result time_calls(F&& fn, const Timing& t) {
  const bench::PerCall r = bench::time_per_call(fn, t);
  return {r.median_s * 1e3, r.best_s * 1e3};
}

constexpr int kMaxStepsPerTrainer = 20000;

struct Model {
  const char* name;
  LayerKind kind;
  Activation activation;
};
const Model kModels[] = {{"mlp", LayerKind::mlp, Activation::relu},
                         {"symmetric", LayerKind::symmetric, Activation::relu},
                         {"gated", LayerKind::gated, Activation::relu},
                         {"bilinear", LayerKind::gated, Activation::identity}};

bool g_first = true;
void row(bool json, const std::string& op, const std::string& shape, const char* unit, double value, double best) {
  if (json) {
    std::printf("%s\n  {\"op\": \"%s\", \"shape\": \"%s\", \"unit\": \"%s\", \"value\": %.6g, \"best\": %.6g}",
                g_first ? "" : ",", op.c_str(), shape.c_str(), unit, value, best);
    g_first = false;
  } else {
    std::printf("%-24s %-28s %10.4g %s (best %.4g)\n", op.c_str(), shape.c_str(), value, unit, best);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false, quick = false;
  if (!gatelab::bench::parse_flags(argc, argv, "bench_layers", {{"--json", &json}, {"--quick", &quick}})) return 2;
  const Timing timing = quick ? Timing{0.01, 0.002, 3} : Timing{0.6, 0.025, 11};
  const int side = quick ? 16 : 128, points = quick ? 50 : 500, hidden = 16, chunk = 100;
  if (json) std::printf("{\"bench\": \"layers\", \"rows\": [");

  // One figure frame: four layers over the grid.
  {
    std::vector<float> x(static_cast<std::size_t>(side) * side * 3);
    for (int i = 0; i < side; ++i) {
      for (int j = 0; j < side; ++j) {
        float* r = x.data() + 3 * (static_cast<std::size_t>(i) * side + j);
        r[0] = -1.5f + 3.0f * j / (side - 1);
        r[1] = 1.5f - 3.0f * i / (side - 1);
        r[2] = 1.0f;
      }
    }
    std::vector<Layer> layers;
    for (int i = 0; i < 4; ++i) {
      LayerConfig c;
      c.kind = kModels[i].kind;
      c.activation = ActivationSpec{kModels[i].activation, 1.0f};
      c.d_in = 3;
      c.hidden = hidden;
      c.d_out = 1;
      c.seed = 11 + i;
      layers.emplace_back(c);
    }
    std::vector<float> out(static_cast<std::size_t>(side) * side);
    const Result r = time_calls(
        [&] {
          for (const Layer& layer : layers) (void)layer.forward(x.data(), side * side, out.data());
        },
        timing);
    row(json, "frame_forward core", "4 models, " + std::to_string(side) + "x" + std::to_string(side) + " grid", "ms",
        r.median_ms, r.best_ms);
  }

  // Training throughput.
  for (const Model& model : kModels) {
    for (int batch : {0, 32}) {
      DatasetOptions d;
      d.task = Task::circle;
      d.count = 2 * points;
      d.noise = 0.1f;
      d.train_fraction = 0.5f;
      d.seed = 3;
      TrainerOptions o;
      o.layer.kind = model.kind;
      o.layer.activation = ActivationSpec{model.activation, 1.0f};
      o.layer.hidden = hidden;
      o.layer.rank = 1;
      o.layer.seed = 5;
      o.batch_size = batch;
      o.eval_every = chunk;
      if (const Status e = validate(o); !e.ok()) {
        std::fprintf(stderr, "bench_layers: %s\n", e.message.c_str());
        return 1;
      }
      // A fresh trainer every kMaxStepsPerTrainer steps (the race figure's longest run), as in
      // bench/suite/models.mjs: past ~150k batch-32 steps a collapsing unit of the bilinear
      // layer drives its weights through subnormal floats, ~100× slower on x86.
      const Dataset data = make_dataset(d);
      std::unique_ptr<Trainer> trainer = std::make_unique<Trainer>(o, data);
      int steps_on_trainer = 0;
      const Result r = time_calls(
          [&] {
            if (steps_on_trainer >= kMaxStepsPerTrainer) {
              trainer = std::make_unique<Trainer>(o, data);
              steps_on_trainer = 0;
            }
            trainer->step(chunk);
            steps_on_trainer += chunk;
          },
          timing);
      const std::string shape = std::to_string(points) + " pts, " + (batch ? "batch 32" : "full batch");
      row(json, std::string("train_") + model.name + " core", shape, "steps/s", 1000.0 * chunk / r.median_ms,
          1000.0 * chunk / r.best_ms);
    }
  }
  if (json) std::printf("\n]}\n");
  return 0;
}
