//===- DnnInstances.cpp - DNN-shaped planning instances -------------------===//
//
// Each network is emitted as a sequence of ops; every op produces one
// activation tensor that lives from its producer to its last consumer
// (exclusive end = last use + 1). Shapes follow the published architectures:
// ResNet-50 (He et al. 2016, Table 1), MobileNetV2 (Sandler et al. 2018,
// Table 2), Inception-v3 (Szegedy et al. 2016, Table 1 and Figures 5-7),
// BERT-base (Devlin et al. 2019: L=12, H=768, A=12, FFN 3072), batch 1, fp32.
//
//===----------------------------------------------------------------------===//

#include "DnnInstances.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mplan;
using namespace mplan::bench;

namespace {
class Graph {
public:
  /// Adds an op producing `bytes` that reads `inputs`; returns its tensor.
  int op(int64_t bytes, std::vector<int> inputs) {
    int t = static_cast<int>(start.size());
    start.push_back(t);
    lastUse.push_back(t);
    size.push_back(bytes);
    for (int in : inputs)
      lastUse[in] = std::max<int64_t>(lastUse[in], t);
    return t;
  }
  std::vector<Buffer> buffers() const {
    std::vector<Buffer> out;
    for (size_t i = 0; i < start.size(); ++i)
      out.push_back(
          {static_cast<int64_t>(i), start[i], lastUse[i] + 1, size[i], 1});
    return out;
  }

private:
  std::vector<int64_t> start, lastUse, size;
};

int64_t act(int64_t c, int64_t h, int64_t w) { return c * h * w * 4; }

std::vector<Buffer> resnet50() {
  Graph g;
  int x = g.op(act(3, 224, 224), {});
  x = g.op(act(64, 112, 112), {x}); // conv1 7x7/2
  x = g.op(act(64, 56, 56), {x});   // maxpool
  struct Stage {
    int blocks;
    int64_t mid, out, hw;
  } stages[] = {{3, 64, 256, 56},
                {4, 128, 512, 28},
                {6, 256, 1024, 14},
                {3, 512, 2048, 7}};
  for (const Stage &s : stages) {
    for (int b = 0; b < s.blocks; ++b) {
      int a = g.op(act(s.mid, s.hw, s.hw), {x}); // 1x1
      a = g.op(act(s.mid, s.hw, s.hw), {a});     // 3x3
      a = g.op(act(s.out, s.hw, s.hw), {a});     // 1x1
      int shortcut = b == 0 ? g.op(act(s.out, s.hw, s.hw), {x}) : x;
      x = g.op(act(s.out, s.hw, s.hw), {a, shortcut}); // add + relu
    }
  }
  x = g.op(act(2048, 1, 1), {x});
  g.op(1000 * 4, {x});
  return g.buffers();
}

std::vector<Buffer> mobilenetV2() {
  Graph g;
  int x = g.op(act(3, 224, 224), {});
  x = g.op(act(32, 112, 112), {x});
  int64_t c = 32, hw = 112;
  // t, c, n, s from Table 2.
  int64_t cfg[][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2},
                      {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2},
                      {6, 320, 1, 1}};
  for (auto &row : cfg) {
    for (int64_t i = 0; i < row[2]; ++i) {
      int64_t stride = i == 0 ? row[3] : 1;
      int64_t outHw = hw / stride;
      int e = row[0] == 1 ? x : g.op(act(c * row[0], hw, hw), {x});
      int d = g.op(act(c * row[0], outHw, outHw), {e});
      int p = g.op(act(row[1], outHw, outHw), {d});
      if (stride == 1 && c == row[1])
        p = g.op(act(row[1], outHw, outHw), {p, x}); // residual add
      x = p;
      c = row[1];
      hw = outHw;
    }
  }
  x = g.op(act(1280, 7, 7), {x});
  x = g.op(act(1280, 1, 1), {x});
  g.op(1000 * 4, {x});
  return g.buffers();
}

std::vector<Buffer> inceptionV3() {
  Graph g;
  int x = g.op(act(3, 299, 299), {});
  int64_t stem[][3] = {{32, 149, 149}, {32, 147, 147}, {64, 147, 147},
                       {64, 73, 73},   {80, 73, 73},   {192, 71, 71},
                       {192, 35, 35}};
  for (auto &s : stem)
    x = g.op(act(s[0], s[1], s[2]), {x});
  // Figure 5 modules (35x35), 3x: branches 1x1 | 1x1-5x5 | 1x1-3x3-3x3 |
  // pool-1x1, concatenated.
  int64_t hw = 35;
  int64_t outC[] = {256, 288, 288};
  for (int64_t oc : outC) {
    int b1 = g.op(act(64, hw, hw), {x});
    int b2 = g.op(act(48, hw, hw), {x});
    b2 = g.op(act(64, hw, hw), {b2});
    int b3 = g.op(act(64, hw, hw), {x});
    b3 = g.op(act(96, hw, hw), {b3});
    b3 = g.op(act(96, hw, hw), {b3});
    int b4 = g.op(act(oc - 224, hw, hw), {x});
    b4 = g.op(act(oc - 224, hw, hw), {b4});
    x = g.op(act(oc, hw, hw), {b1, b2, b3, b4});
  }
  // Grid reduction to 17x17, then 4 Figure 6 modules (768 channels).
  {
    int b1 = g.op(act(384, 17, 17), {x});
    int b2 = g.op(act(64, hw, hw), {x});
    b2 = g.op(act(96, hw, hw), {b2});
    b2 = g.op(act(96, 17, 17), {b2});
    int b3 = g.op(act(288, 17, 17), {x});
    x = g.op(act(768, 17, 17), {b1, b2, b3});
  }
  hw = 17;
  for (int m = 0; m < 4; ++m) {
    int64_t c7 = m == 0 ? 128 : (m == 3 ? 192 : 160);
    int b1 = g.op(act(192, hw, hw), {x});
    int b2 = g.op(act(c7, hw, hw), {x});
    b2 = g.op(act(c7, hw, hw), {b2});
    b2 = g.op(act(192, hw, hw), {b2});
    int b3 = g.op(act(c7, hw, hw), {x});
    for (int k = 0; k < 3; ++k)
      b3 = g.op(act(c7, hw, hw), {b3});
    b3 = g.op(act(192, hw, hw), {b3});
    int b4 = g.op(act(768, hw, hw), {x});
    b4 = g.op(act(192, hw, hw), {b4});
    x = g.op(act(768, hw, hw), {b1, b2, b3, b4});
  }
  // Reduction to 8x8 and 2 Figure 7 modules (1280 -> 2048 channels).
  {
    int b1 = g.op(act(192, hw, hw), {x});
    b1 = g.op(act(320, 8, 8), {b1});
    int b2 = g.op(act(192, hw, hw), {x});
    b2 = g.op(act(192, 8, 8), {b2});
    int b3 = g.op(act(768, 8, 8), {x});
    x = g.op(act(1280, 8, 8), {b1, b2, b3});
  }
  hw = 8;
  for (int m = 0; m < 2; ++m) {
    int b1 = g.op(act(320, hw, hw), {x});
    int b2 = g.op(act(384, hw, hw), {x});
    int b2a = g.op(act(384, hw, hw), {b2});
    int b2b = g.op(act(384, hw, hw), {b2});
    int b3 = g.op(act(448, hw, hw), {x});
    b3 = g.op(act(384, hw, hw), {b3});
    int b3a = g.op(act(384, hw, hw), {b3});
    int b3b = g.op(act(384, hw, hw), {b3});
    int b4 = g.op(act(m == 0 ? 1280 : 2048, hw, hw), {x});
    b4 = g.op(act(192, hw, hw), {b4});
    x = g.op(act(2048, hw, hw), {b1, b2a, b2b, b3a, b3b, b4});
  }
  x = g.op(act(2048, 1, 1), {x});
  g.op(1000 * 4, {x});
  return g.buffers();
}

std::vector<Buffer> bertBase() {
  Graph g;
  const int64_t seq = 128, hidden = 768, heads = 12, ffn = 3072;
  int x = g.op(seq * hidden * 4, {}); // embeddings
  for (int layer = 0; layer < 12; ++layer) {
    int q = g.op(seq * hidden * 4, {x});
    int k = g.op(seq * hidden * 4, {x});
    int v = g.op(seq * hidden * 4, {x});
    int scores = g.op(heads * seq * seq * 4, {q, k});
    int probs = g.op(heads * seq * seq * 4, {scores});
    int ctx = g.op(seq * hidden * 4, {probs, v});
    int proj = g.op(seq * hidden * 4, {ctx});
    int ln1 = g.op(seq * hidden * 4, {proj, x}); // residual + layernorm
    int up = g.op(seq * ffn * 4, {ln1});
    int gelu = g.op(seq * ffn * 4, {up});
    int down = g.op(seq * hidden * 4, {gelu});
    x = g.op(seq * hidden * 4, {down, ln1}); // residual + layernorm
  }
  g.op(hidden * 4, {x}); // pooler
  return g.buffers();
}
} // namespace

std::vector<Instance> mplan::bench::dnnInstances() {
  return {{"ResNet-50", resnet50()},
          {"MobileNetV2", mobilenetV2()},
          {"Inception-v3", inceptionV3()},
          {"BERT-base (seq 128)", bertBase()}};
}

std::vector<Buffer> mplan::bench::trainingStepInstance(int64_t n,
                                                       uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto logUniform = [&](double lo, double hi) {
    std::uniform_real_distribution<double> u(std::log(lo), std::log(hi));
    return static_cast<int64_t>(std::exp(u(rng)));
  };
  // One layer in four has weights (a matmul among norms, activations,
  // dropouts): about 5.75 buffers per layer (below).
  int64_t layers = std::max<int64_t>(1, n * 4 / 23);
  std::vector<Buffer> out;
  auto add = [&](int64_t start, int64_t end, int64_t size) {
    out.push_back({static_cast<int64_t>(out.size()), start, end, size, 1});
  };
  // Times: the forward pass, 3 steps per layer, then the backward pass in
  // reverse layer order, then one optimizer step per weight.
  std::vector<char> hasWeight(layers);
  int64_t weights = 0;
  for (int64_t l = 0; l < layers; ++l)
    weights += hasWeight[l] = rng() % 4 == 0;
  int64_t optimizer = 1 + 6 * layers, end = optimizer + weights + 1;
  int64_t weight = 0;
  for (int64_t l = 0; l < layers; ++l) {
    int64_t forward = 1 + 3 * l,
            backward = 1 + 3 * layers + 3 * (layers - 1 - l);
    if (hasWeight[l]) {
      int64_t bytes = logUniform(4096, 4 << 20);
      for (int copy = 0; copy < 3; ++copy) // weight, Adam's two moments
        add(0, end, bytes);
      // Its gradient: from the layer's backward step to its update.
      add(backward + 1, optimizer + weight + 1, bytes);
      add(optimizer + weight, optimizer + weight + 1,
          logUniform(1024, 1 << 20));
      ++weight;
    }
    // The activation, kept for the backward step; a forward temporary.
    add(forward, backward + 1, logUniform(65536, 8 << 20));
    add(forward + 1, forward + 2 + static_cast<int64_t>(rng() % 3),
        logUniform(1024, 2 << 20));
    // The activation's gradient, read by the layer below's backward step;
    // backward temporaries.
    add(backward, backward + 4, logUniform(65536, 8 << 20));
    for (int k = static_cast<int>(rng() % 2); k < 2; ++k)
      add(backward + k, backward + k + 1 + static_cast<int64_t>(rng() % 3),
          logUniform(1024, 2 << 20));
  }
  return out;
}
