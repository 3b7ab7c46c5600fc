// Bit-identical replay: golden FNV-1a hashes of the output bits of a forward pass,
// a backward pass and a 100-step training run. The same constants are checked by the native
// build and the wasm build, so any divergence between them (libm, FMA contraction, reduction
// order) fails one of the two. If a deliberate change to a kernel alters the bits, update the
// constants from the native run and check the wasm run agrees.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gatelab/train/dataset.hpp"
#include "gatelab/paper_a/layer.hpp"
#include "gatelab/base/rng.hpp"
#include "gatelab/train/trainer.hpp"
#include "support/golden_hash.hpp"
#include "support/status_checks.hpp"

using namespace gatelab;
using golden::Fnv1a;

namespace {

LayerConfig config(LayerKind kind, Activation act) {
  LayerConfig c;
  c.kind = kind;
  c.activation = {act, 1.0f};
  c.d_in = 5;
  c.hidden = 16;
  c.d_out = 3;
  c.rank = kind == LayerKind::mlp ? 1 : 2;
  c.seed = 2026;
  return c;
}

std::uint64_t forward_backward_hash() {
  Pcg32 rng(17);
  const int rows = 33;
  std::vector<float> x(rows * 5), g(rows * 3), out(rows * 3), dx(rows * 5);
  for (float& v : x) v = rng.normal();
  for (float& v : g) v = rng.normal();
  Fnv1a fnv;
  for (LayerKind kind : {LayerKind::mlp, LayerKind::symmetric, LayerKind::gated}) {
    for (Activation act : {Activation::relu, Activation::gelu, Activation::silu, Activation::softplus}) {
      Layer layer(config(kind, act));
      EXPECT_OK(layer.forward(x.data(), rows, out.data()));
      fnv.add(out.data(), out.size());
      EXPECT_OK(layer.backward(x.data(), rows, g.data(), dx.data()));
      const LayerParams& grads = layer.grads();
      fnv.add(dx.data(), dx.size());
      fnv.add(grads.q);
      fnv.add(grads.k);
      fnv.add(grads.v);
    }
  }
  return fnv.hash;
}

std::uint64_t training_hash(LayerKind kind, Activation act) {
  DatasetOptions data;
  data.task = Task::spiral;
  data.count = 200;
  data.seed = 3;
  TrainerOptions options;
  options.layer.kind = kind;
  options.layer.activation = {act, 1.0f};
  options.layer.hidden = 12;
  options.layer.seed = 9;
  options.batch_size = 16;
  EXPECT_OK(validate(options));
  Trainer trainer(options, make_dataset(data));
  EXPECT_EQ(trainer.step(100), 100);
  Fnv1a fnv;
  for (const TrainRecord& r : trainer.history()) {
    const float row[] = {r.train_loss, r.test_loss, r.train_accuracy, r.test_accuracy, r.grad_norm};
    fnv.add(row, 5);
  }
  fnv.add(trainer.layer().params().q);
  fnv.add(trainer.layer().params().k);
  fnv.add(trainer.layer().params().v);
  return fnv.hash;
}

}  // namespace

TEST(Determinism, ForwardAndBackwardBitsAreGolden) { EXPECT_EQ(forward_backward_hash(), 1380921447913015584ULL); }

TEST(Determinism, HundredStepTrainingRunsAreGolden) {
  EXPECT_EQ(training_hash(LayerKind::mlp, Activation::relu), 5472085370953665432ULL);
  EXPECT_EQ(training_hash(LayerKind::symmetric, Activation::gelu), 14165442013194496859ULL);
  EXPECT_EQ(training_hash(LayerKind::gated, Activation::silu), 13039343643769959913ULL);
}

TEST(Determinism, ReplayInOneProcessIsIdentical) {
  EXPECT_EQ(forward_backward_hash(), forward_backward_hash());
  EXPECT_EQ(training_hash(LayerKind::gated, Activation::gelu), training_hash(LayerKind::gated, Activation::gelu));
}
