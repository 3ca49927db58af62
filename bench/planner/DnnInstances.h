//===- DnnInstances.h - DNN-shaped planning instances -----------*- C++ -*-===//
#ifndef MPLAN_BENCH_PLANNER_DNNINSTANCES_H
#define MPLAN_BENCH_PLANNER_DNNINSTANCES_H

#include "mplan/Support/Planner.h"

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
} // namespace mplan::bench

#endif
