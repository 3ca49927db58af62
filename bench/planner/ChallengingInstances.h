//===- ChallengingInstances.h - Packed instances for the exact search
//-*-C++-*-=//
//
// Instances in the spirit of MiniMalloc's challenging suite: a perfect
// packing is built first (a time x capacity rectangle cut into buffers), then
// a few buffers may be dropped (a near-perfect packing) and the rows are
// shuffled. The capacity is always feasible; greedy orders usually land well
// above it.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_BENCH_PLANNER_CHALLENGINGINSTANCES_H
#define MPLAN_BENCH_PLANNER_CHALLENGINGINSTANCES_H

#include "mplan/Support/Planner.h"

#include <cstdint>
#include <vector>

namespace mplan::bench {

/// Cuts the rectangle [0, 2^20) (time) x [0, capacity) (bytes) into `n`
/// buffers by guillotine cuts: the cut rectangle is drawn with probability
/// proportional to its area, cut across time or across space (whichever
/// side is longer relative to its axis, randomized) at a random point of a
/// 1/64 grid of that side, with space in multiples of `unit` bytes. Every
/// time point is then covered exactly by `capacity` bytes, so the max-live
/// bound equals the capacity and the plan is optimal. Then `drop` buffers
/// are removed (a near-perfect packing: the bound falls below the capacity,
/// which stays feasible) and the rows are shuffled (ids 0..). Deterministic
/// in `seed`.
std::vector<Buffer> packedInstance(int64_t n, uint64_t seed,
                                   int64_t capacity = 1048576,
                                   int64_t unit = 1024, int64_t drop = 0);

/// Draws packed instances of `minBuffers`..`maxBuffers` buffers (about one
/// in four near-perfect) and keeps the first `count` whose greedy-by-size
/// arena is at least `minGreedyRatio` times the capacity ("challenging":
/// greedy placement clearly fails where a perfect packing exists).
/// Deterministic in `seed`.
std::vector<std::vector<Buffer>>
challengingInstances(int count, uint64_t seed, int64_t minBuffers = 100,
                     int64_t maxBuffers = 300, double minGreedyRatio = 1.15,
                     int64_t capacity = 1048576);

} // namespace mplan::bench

#endif
