//===- PlannerBench.cpp - Planner benchmark (markdown tables) -------------===//
//
//   mplan-plan-bench [--minimalloc DIR] [--time-limit SECONDS] [--runs N]
//                    [--max-random N] [--capacity BYTES]
//   mplan-plan-bench --portfolio N [--runs R] [--strategy NAME] [--compare 0]
//
// Prints markdown tables: arena / lower bound and time per strategy on the
// MiniMalloc challenging instances, on DNN-shaped instances, and scaling of
// the heuristics on random instances (median of N runs). With --portfolio N
// it only plans the random instance of N buffers with `portfolio` (or
// --strategy) R times and prints arena / bound, greedy-by-size's arena / bound
// (unless --compare 0), and the best and the median wall and CPU (getrusage,
// all threads) time of the runs: the measurement behind the portfolio table in
// docs/benchmarks.md.
//
//===----------------------------------------------------------------------===//

#include "DnnInstances.h"

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <sys/resource.h>
#include <vector>

using namespace mplan;

namespace {
struct Result {
  int64_t arena = 0;
  double seconds = 0;
  bool ok = false;
};

Result run(const std::vector<Buffer> &buffers, const std::string &strategy,
           double limit, int64_t capacity = 0) {
  PlanOptions options;
  options.strategy = strategy;
  options.timeLimitSeconds = limit;
  options.capacity = capacity;
  Expected<Plan> plan = planBuffers(buffers, options);
  if (!plan)
    return {};
  if (std::optional<std::string> err =
          validatePlan(buffers, plan->offsets, plan->arenaSize)) {
    std::fprintf(stderr, "INVALID PLAN (%s): %s\n", strategy.c_str(),
                 err->c_str());
    std::exit(1);
  }
  return {plan->arenaSize, plan->seconds, true};
}

void table(const std::vector<std::pair<std::string, std::vector<Buffer>>> &set,
           double limit, const char *capacityNote, int64_t capacity = 0) {
  const std::vector<std::string> &names = strategyNames();
  std::printf("| instance | buffers | lower bound |");
  for (const std::string &n : names)
    std::printf(" %s |", n.c_str());
  std::printf("\n|---|---:|---:|");
  for (size_t i = 0; i < names.size(); ++i)
    std::printf("---:|");
  std::printf("\n");
  for (const auto &[name, buffers] : set) {
    int64_t lb = lowerBound(buffers).value_or(-1);
    std::printf("| %s | %zu | %lld |", name.c_str(), buffers.size(),
                static_cast<long long>(lb));
    for (const std::string &n : names) {
      Result r = run(buffers, n, limit, capacity);
      if (!r.ok) {
        std::printf(" error |");
        continue;
      }
      std::printf(" %.4f (%.3f s) |",
                  static_cast<double>(r.arena) / static_cast<double>(lb),
                  r.seconds);
    }
    std::printf("\n");
  }
  std::printf("\nCells: arena / lower bound (planning time). %s\n\n",
              capacityNote);
}

std::vector<Buffer> randomInstance(int64_t n, uint64_t seed) {
  // Lifetimes of 1-16 steps for most buffers and up to 256 for one in ten,
  // starts uniform over n steps (about 20 buffers live at a time, at most
  // about 50), sizes 64 B - 512 KiB (log-uniform-ish).
  std::mt19937_64 rng(seed);
  std::vector<Buffer> buffers;
  buffers.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(rng() % n);
    int64_t len = rng() % 10 == 0 ? 1 + static_cast<int64_t>(rng() % 256)
                                  : 1 + static_cast<int64_t>(rng() % 16);
    int64_t size = int64_t(64) << (rng() % 13);
    size += static_cast<int64_t>(rng() % size);
    buffers.push_back({i, start, start + len, size, 1});
  }
  return buffers;
}
double cpuSeconds() {
  rusage u;
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int portfolioOnly(int64_t n, int runs, const std::string &strategy,
                  bool compare) {
  std::vector<Buffer> buffers = randomInstance(n, 42 + n);
  double lb = static_cast<double>(lowerBound(buffers).value_or(1));
  PlanOptions options;
  options.strategy = strategy;
  options.timeLimitSeconds = 1.0;
  double bestWall = 1e30, bestCpu = 1e30;
  std::vector<double> walls, cpus;
  int64_t arena = 0;
  std::string winner;
  for (int k = 0; k < runs; ++k) {
    double cpu0 = cpuSeconds();
    Expected<Plan> plan = planBuffers(buffers, options);
    double cpu = cpuSeconds() - cpu0;
    if (!plan) {
      std::fprintf(stderr, "error: %s\n", plan.error().c_str());
      return 1;
    }
    bestWall = std::min(bestWall, plan->seconds);
    bestCpu = std::min(bestCpu, cpu);
    walls.push_back(plan->seconds);
    cpus.push_back(cpu);
    arena = plan->arenaSize;
    winner = plan->strategy;
    if (k == 0) {
      if (std::optional<std::string> err =
              validatePlan(buffers, plan->offsets, plan->arenaSize)) {
        std::fprintf(stderr, "INVALID PLAN: %s\n", err->c_str());
        return 1;
      }
    }
  }
  Result gbs;
  if (compare)
    gbs = run(buffers, "greedy-by-size", 1.0);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2]
                        : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  std::printf("n=%lld %s arena/LB=%.4f greedy-by-size=%.4f wall=%.4f "
              "cpu=%.4f median wall=%.4f cpu=%.4f\n",
              static_cast<long long>(n), winner.c_str(),
              static_cast<double>(arena) / lb,
              static_cast<double>(gbs.arena) / lb, bestWall, bestCpu,
              median(walls), median(cpus));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  std::string dir = "../shared/benchmarks/minimalloc";
  double limit = 10.0;
  int runs = 3;
  int64_t maxRandom = 1000000;
  int64_t capacity = 1048576; // the capacity MiniMalloc's instances come with
  int64_t portfolioN = 0;
  std::string strategy = "portfolio";
  bool compare = true;
  // Also accept --capacity=BYTES.
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--capacity=", 0) == 0) {
      args.push_back("--capacity");
      args.push_back(a.substr(11));
    } else {
      args.push_back(a);
    }
  }
  std::vector<char *> argvs;
  argvs.push_back(argv[0]);
  for (std::string &a : args)
    argvs.push_back(a.data());
  argc = static_cast<int>(argvs.size());
  argv = argvs.data();
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--minimalloc"))
      dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--time-limit"))
      limit = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs"))
      runs = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--max-random"))
      maxRandom = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--capacity"))
      capacity = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--portfolio"))
      portfolioN = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--strategy"))
      strategy = argv[i + 1];
    else if (!std::strcmp(argv[i], "--compare"))
      compare = std::atoi(argv[i + 1]) != 0;
  }
  if (portfolioN > 0)
    return portfolioOnly(portfolioN, runs, strategy, compare);

  std::printf("### MiniMalloc challenging instances (capacity %lld)\n\n",
              static_cast<long long>(capacity));
  std::vector<std::pair<std::string, std::vector<Buffer>>> mm;
  for (const char *name : {"A", "B", "C", "D", "E", "F"}) {
    std::string path = dir + "/" + name + ".1048576.csv";
    Expected<CsvTable> t = readBufferCsvFile(path);
    if (!t) {
      std::fprintf(stderr, "skipping %s\n", t.error().c_str());
      continue;
    }
    mm.emplace_back(name, t->buffers);
  }
  table(mm, limit,
        "`best` ran with the time limit given on the command line and "
        "`--capacity` (the instances' published capacity unless 0): it stops "
        "at the first plan that fits, as MiniMalloc does.",
        capacity);

  std::printf("### DNN-shaped instances (activations, batch 1, fp32)\n\n");
  std::vector<std::pair<std::string, std::vector<Buffer>>> dnn;
  for (bench::Instance &inst : bench::dnnInstances())
    dnn.emplace_back(inst.name, std::move(inst.buffers));
  table(dnn, limit, "");

  std::printf("### Random instances: scaling (median of %d runs)\n\n", runs);
  const char *heuristics[] = {"linear-scan", "greedy-by-size",
                              "greedy-by-breadth", "portfolio", "best"};
  std::printf("| buffers |");
  for (const char *h : heuristics)
    std::printf(" %s arena/LB | time (s) | t(n)/t(n/2) |", h);
  std::printf("\n|---:|");
  for (size_t i = 0; i < sizeof(heuristics) / sizeof(heuristics[0]); ++i)
    std::printf("---:|---:|---:|");
  std::printf("\n");
  std::vector<double> prev(sizeof(heuristics) / sizeof(heuristics[0]), 0);
  int64_t prevN = 0;
  for (int64_t n = 1000; n <= maxRandom; prevN = n, n *= (n % 3 == 1 ? 2 : 5)) {
    // 1k, 2k, 10k, 20k, 100k, 200k, 1M
    std::vector<Buffer> buffers = randomInstance(n, 42 + n);
    int64_t lb = lowerBound(buffers).value_or(1);
    std::printf("| %lld |", static_cast<long long>(n));
    for (size_t h = 0; h < prev.size(); ++h) {
      std::vector<double> times;
      Result r;
      for (int k = 0; k < runs; ++k) {
        r = run(buffers, heuristics[h], 1.0);
        times.push_back(r.seconds);
      }
      std::sort(times.begin(), times.end());
      double med = times[times.size() / 2];
      bool doubled = prev[h] > 0 && n == 2 * prevN;
      if (doubled)
        std::printf(" %.4f | %.4f | %.2f |",
                    static_cast<double>(r.arena) / static_cast<double>(lb), med,
                    med / prev[h]);
      else
        std::printf(" %.4f | %.4f | |",
                    static_cast<double>(r.arena) / static_cast<double>(lb),
                    med);
      prev[h] = med;
    }
    std::printf("\n");
  }
  return 0;
}
