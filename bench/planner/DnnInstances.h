//===- DnnInstances.h - DNN-shaped planning instances -----------*- C++ -*-===//
#ifndef MPLAN_BENCH_PLANNER_DNNINSTANCES_H
#define MPLAN_BENCH_PLANNER_DNNINSTANCES_H

#include "mplan/Support/Planner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mplan::bench {
struct Instance {
  std::string name;
  std::vector<Buffer> buffers;
};
/// Activation buffers (fp32, batch 1) of ResNet-50, MobileNetV2,
/// Inception-v3 (stem + representative blocks) and BERT-base (seq 128) in
/// program order; see docs/planner.md for the shape sources.
std::vector<Instance> dnnInstances();

/// The buffers of one training step of a deep layer stack, about `n` of
/// them (issue 34: traces like this come from training large language
/// models). One layer in four has a weight: it and its two optimizer states
/// (Adam's moments) live for the whole step (about 12 % of the buffers).
/// The forward pass makes each layer's activation, kept until that layer's
/// backward step, and a short temporary; the backward pass makes the
/// gradient of each activation (read by the layer below), weight gradients
/// kept until the optimizer step at the end, and temporaries; the optimizer
/// step then updates the weights one by one. Sizes log-uniform: weights
/// 4 KiB - 4 MiB, activations and their gradients 64 KiB - 8 MiB,
/// temporaries 1 KiB - 2 MiB. Deterministic for a seed.
std::vector<Buffer> trainingStepInstance(int64_t n, uint64_t seed);
} // namespace mplan::bench

#endif
