//===- PlannerBench.cpp - Planner benchmark (markdown tables) -------------===//
//
//   mplan-plan-bench [--minimalloc DIR] [--time-limit SECONDS] [--runs N]
//                    [--max-random N] [--capacity BYTES]
//   mplan-plan-bench --portfolio N [--runs R] [--strategy NAME] [--compare 0]
//   mplan-plan-bench --scale heavy|lognormal|random [--sizes N,N,...]
//                    [--strategies S,S:LIMIT,...] [--runs R]
//                    [--mplan-plan PATH] [--timeout SECONDS]
//   mplan-plan-bench --write KIND:N[:SEED] > instance.csv
//   mplan-plan-bench --versus MINIMALLOC [--suite DIR] [--generated N]
//                    [--seed S] [--budget SECONDS] [--capacity BYTES]
//                    [--mplan-plan PATH]
//
// Prints markdown tables: arena / lower bound and time per strategy on the
// MiniMalloc challenging instances, on DNN-shaped instances, and scaling of
// the heuristics on random instances (median of N runs). With --portfolio N
// it only plans the random instance of N buffers with `portfolio` (or
// --strategy) R times and prints arena / bound, greedy-by-size's arena / bound
// (unless --compare 0), and the best and the median wall and CPU (getrusage,
// all threads) time of the runs: the measurement behind the portfolio table in
// docs/benchmarks.md. --scale runs `mplan-plan` as a child process (whole
// process, CSV included) on generated instances of each size, every
// strategy once per round, and prints median wall time, arena / bound and
// the portfolio's peak RSS: the scaling table of docs/benchmarks.md.
// Instances: `random` (bounded live set), `heavy` and `lognormal` (live set
// growing with n; see heavyInstance), `packed` (a perfect packing of the
// capacity 1 MiB, shuffled; see ChallengingInstances.h). --versus runs
// `best` and MiniMalloc (the binary at the given path, built from its public
// source) side by side on a suite directory and on generated challenging
// instances, validating every plan (see versusMiniMalloc).
//
//===----------------------------------------------------------------------===//

#include "ChallengingInstances.h"
#include "DnnInstances.h"

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
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
/// Heavy overlap (issue 13): the live set grows with n. Starts uniform over
/// 1.4 n steps, lifetimes 1 + exponential with mean 0.07 n steps (about
/// 0.05 n buffers live at a time: 5,000 at 100k, mean lifetime 7,000 steps).
/// Sizes: `heavy` 64 B - 1 MiB log-uniform; `lognormal` log-normal (median
/// 16 KiB, sigma 1.5, clipped to 64 B - 64 MiB: a few very large buffers among
/// many small ones).
std::vector<Buffer> heavyInstance(int64_t n, uint64_t seed, bool lognormal) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> life(1.0 / (0.07 * n));
  std::uniform_real_distribution<double> logUniform(std::log(64.0),
                                                    std::log(1048576.0));
  std::lognormal_distribution<double> logNormal(std::log(16384.0), 1.5);
  std::vector<Buffer> buffers;
  buffers.reserve(n);
  int64_t span = n + 2 * n / 5;
  for (int64_t i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(rng() % span);
    int64_t len = 1 + static_cast<int64_t>(life(rng));
    double size = lognormal ? std::clamp(logNormal(rng), 64.0, 64.0 * 1048576)
                            : std::exp(logUniform(rng));
    buffers.push_back({i, start, start + len, static_cast<int64_t>(size), 1});
  }
  return buffers;
}

std::vector<Buffer> makeInstance(const std::string &kind, int64_t n,
                                 uint64_t seed) {
  if (kind == "training")
    return bench::trainingStepInstance(n, seed);
  if (kind == "packed")
    return bench::packedInstance(n, seed);
  if (kind == "heavy" || kind == "lognormal")
    return heavyInstance(n, seed, kind == "lognormal");
  return randomInstance(n, seed);
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
/// One whole-process run of mplan-plan.
struct ChildRun {
  double wall = 0;
  double cpu = 0; ///< user + system, all threads
  long maxRssKb = 0;
  int64_t arena = -1;
  std::string strategy; ///< as mplan-plan reports it
  std::string err;      ///< the child's stderr
  int exitCode = -1;    ///< -1 when it did not exit normally
  bool timedOut = false;
};

/// Runs `binary` with `args` (stdout discarded), killing it after `timeout`
/// seconds; reads mplan-plan's summary line if there is one.
ChildRun runMplanPlan(const std::string &binary,
                      const std::vector<std::string> &args, double timeout) {
  ChildRun r;
  char errPath[] = "/tmp/mplan-bench-stderr-XXXXXX";
  int errFd = mkstemp(errPath);
  if (errFd < 0)
    return r;
  std::vector<std::string> argvStrings = {binary};
  argvStrings.insert(argvStrings.end(), args.begin(), args.end());
  std::vector<char *> argvC;
  for (std::string &a : argvStrings)
    argvC.push_back(a.data());
  argvC.push_back(nullptr);
  auto begin = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    dup2(errFd, 2);
    int devNull = open("/dev/null", O_WRONLY);
    dup2(devNull, 1);
    execv(binary.c_str(), argvC.data());
    _exit(127);
  }
  rusage usage{};
  int status = 0;
  while (true) {
    pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid)
      break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count() > timeout) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      r.timedOut = true;
      break;
    }
    usleep(500);
  }
  r.wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  r.maxRssKb = usage.ru_maxrss;
  r.cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
          1e-6 * static_cast<double>(usage.ru_utime.tv_usec +
                                     usage.ru_stime.tv_usec);
  std::string err;
  lseek(errFd, 0, SEEK_SET);
  char buf[4096];
  for (ssize_t k; (k = read(errFd, buf, sizeof(buf))) > 0;)
    err.append(buf, static_cast<size_t>(k));
  close(errFd);
  unlink(errPath);
  if (!r.timedOut && WIFEXITED(status))
    r.exitCode = WEXITSTATUS(status);
  r.err = err;
  if (size_t at = err.find(" arena="); at != std::string::npos)
    r.arena = std::atoll(err.c_str() + at + 7);
  if (size_t at = err.find("strategy="); at != std::string::npos)
    r.strategy = err.substr(at + 9, err.find(' ', at) - at - 9);
  return r;
}

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2]
                      : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// The scaling table of docs/benchmarks.md: for each size, writes the
/// instance as CSV and runs `mplan-plan` on it (whole process, CSV parsing
/// and writing included) per strategy, the strategies interleaved within
/// each of `runs` rounds; prints median wall and CPU time (user + system of
/// the child), arena / bound, and the
/// peak RSS of the portfolio run. A strategy that exceeds `timeout` on a size
/// is not run on larger sizes.
int scaleTable(const std::string &kind, const std::vector<int64_t> &sizes,
               int runs, const std::string &binary, double timeout,
               const std::vector<std::string> &strategies) {
  std::printf("| buffers | bound |");
  for (const std::string &s : strategies)
    std::printf(" %s wall / CPU s | arena/bound |", s.c_str());
  std::printf(" portfolio RSS (MiB) | portfolio winner |\n|---:|---:|");
  for (size_t k = 0; k < strategies.size(); ++k)
    std::printf("---:|---:|");
  std::printf("---:|---|\n");
  std::vector<char> gaveUp(strategies.size(), 0);
  for (int64_t n : sizes) {
    std::vector<Buffer> buffers = makeInstance(kind, n, 42 + n);
    int64_t lb = lowerBound(buffers).value_or(1);
    std::string path = "/tmp/mplan-bench-" + kind + "-" + std::to_string(n) +
                       "-" + std::to_string(getpid()) + ".csv";
    if (FILE *f = std::fopen(path.c_str(), "w")) {
      std::string text = writeBufferCsv(buffers);
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
    std::vector<std::vector<double>> walls(strategies.size()),
        cpus(strategies.size());
    std::vector<ChildRun> last(strategies.size());
    long rss = 0;
    std::string winner;
    for (int round = 0; round < runs; ++round) {
      for (size_t k = 0; k < strategies.size(); ++k) {
        if (gaveUp[k])
          continue;
        // "best:10" runs best with --time-limit=10.
        std::string name = strategies[k], limit = "10";
        if (size_t colon = name.find(':'); colon != std::string::npos) {
          limit = name.substr(colon + 1);
          name = name.substr(0, colon);
        }
        ChildRun r =
            runMplanPlan(binary,
                         {"--strategy=" + name, "--time-limit=" + limit, path,
                          "-o", "/dev/null"},
                         timeout);
        if (r.timedOut) {
          gaveUp[k] = 2;
          continue;
        }
        walls[k].push_back(r.wall);
        cpus[k].push_back(r.cpu);
        last[k] = r;
        if (name == "portfolio") {
          rss = std::max(rss, r.maxRssKb);
          winner = r.strategy;
        }
      }
    }
    std::printf("| %lld | %lld |", static_cast<long long>(n),
                static_cast<long long>(lb));
    for (size_t k = 0; k < strategies.size(); ++k) {
      if (walls[k].empty()) {
        std::printf(" > %.0f | |", timeout);
        gaveUp[k] = 1;
        continue;
      }
      std::printf(" %.3f / %.3f | %.4f |", medianOf(walls[k]),
                  medianOf(cpus[k]),
                  static_cast<double>(last[k].arena) / static_cast<double>(lb));
      if (gaveUp[k] == 2)
        gaveUp[k] = 1;
    }
    std::printf(" %.0f | %s |\n", static_cast<double>(rss) / 1024,
                winner.c_str());
    std::fflush(stdout);
    std::remove(path.c_str());
  }
  return 0;
}
} // namespace

/// The plan a solver wrote to `path` (a CSV with an `offset` column) for
/// `buffers`, checked by mplan's independent validator: its arena, or -1
/// (with a message on stderr) when the file is missing or the plan invalid.
int64_t checkedArena(const std::vector<Buffer> &buffers,
                     const std::string &path, const char *who) {
  Expected<CsvTable> t = readBufferCsvFile(path);
  if (!t)
    return -1;
  auto col = std::find(t->header.begin(), t->header.end(), "offset");
  if (col == t->header.end() || t->buffers.size() != buffers.size())
    return -1;
  size_t c = static_cast<size_t>(col - t->header.begin());
  std::vector<int64_t> offsets;
  int64_t arena = 0;
  for (size_t r = 0; r < t->numRows(); ++r) {
    // Rows come back in input order; match by id anyway.
    if (t->buffers[r].id != buffers[r].id)
      return -1;
    offsets.push_back(std::atoll(std::string(t->fields(r)[c]).c_str()));
    arena = std::max(arena, offsets.back() + buffers[r].size);
  }
  if (std::optional<std::string> err = validatePlan(buffers, offsets, arena)) {
    std::fprintf(stderr, "INVALID PLAN from %s (%s): %s\n", who, path.c_str(),
                 err->c_str());
    return -1;
  }
  return arena;
}

/// The seconds a solver reported after `key` in its stderr, or -1.
double reportedSeconds(const std::string &err, const char *key) {
  size_t at = err.find(key);
  return at == std::string::npos ? -1.0
                                 : std::atof(err.c_str() + at + strlen(key));
}

/// `best` against MiniMalloc (a binary built from its public source, given
/// by path; skipped when it is not executable) on every `*.csv` of `suite`
/// (sorted by name) and on `generated` challenging instances: each solver
/// runs as a child process per instance with the same budget and capacity,
/// every plan (ours and MiniMalloc's) is checked by validatePlan, and an
/// instance counts as solved when the plan fits the capacity within the
/// budget. Prints one row per instance and the solved counts, median times
/// (unsolved at the budget) and the median per-instance time ratio.
int versusMiniMalloc(const std::string &miniMalloc, const std::string &suite,
                     int generated, uint64_t seed, double budget,
                     int64_t capacity, const std::string &binary) {
  std::vector<std::pair<std::string, std::string>> inputs; // name, path
  if (!suite.empty()) {
    std::vector<std::string> names;
    if (DIR *d = opendir(suite.c_str())) {
      while (dirent *e = readdir(d)) {
        std::string n = e->d_name;
        if (n.size() > 4 && n.compare(n.size() - 4, 4, ".csv") == 0)
          names.push_back(n);
      }
      closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const std::string &n : names)
      inputs.emplace_back(n.substr(0, n.find('.')), suite + "/" + n);
  }
  char dirTemplate[] = "/tmp/mplan-versus-XXXXXX";
  std::string work = mkdtemp(dirTemplate) ? dirTemplate : "/tmp";
  std::vector<std::vector<Buffer>> gen =
      bench::challengingInstances(generated, seed);
  for (size_t k = 0; k < gen.size(); ++k) {
    std::string path = work + "/gen" + std::to_string(k) + ".csv";
    if (FILE *f = std::fopen(path.c_str(), "w")) {
      std::string text = writeBufferCsv(gen[k]);
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
    inputs.emplace_back("gen" + std::to_string(k), path);
  }
  bool haveMiniMalloc = access(miniMalloc.c_str(), X_OK) == 0;
  if (!haveMiniMalloc)
    std::fprintf(stderr, "MiniMalloc binary '%s' not executable: skipped\n",
                 miniMalloc.c_str());
  char budgetArg[64], capArg[64];
  std::snprintf(budgetArg, sizeof(budgetArg), "%g", budget);
  std::snprintf(capArg, sizeof(capArg), "%lld",
                static_cast<long long>(capacity));
  std::printf("| instance | buffers | bound | greedy-by-size / capacity | best "
              "arena | best wall / CPU / planner (s) | MiniMalloc arena | "
              "MiniMalloc wall / CPU / solver (s) | best / MiniMalloc wall | "
              "CPU |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int oursSolved = 0, theirsSolved = 0;
  std::vector<double> oursWall, theirsWall, ratios, oursCpu, theirsCpu,
      cpuRatios;
  PlanOptions greedy;
  greedy.strategy = "greedy-by-size";
  for (const auto &[name, path] : inputs) {
    Expected<CsvTable> t = readBufferCsvFile(path);
    if (!t) {
      std::fprintf(stderr, "skipping %s\n", t.error().c_str());
      continue;
    }
    const std::vector<Buffer> &buffers = t->buffers;
    Expected<Plan> g = planBuffers(buffers, greedy);
    std::string out = work + "/" + name + ".best.csv";
    unlink(out.c_str());
    ChildRun ours = runMplanPlan(
        binary,
        {"--strategy=best", std::string("--capacity=") + capArg,
         std::string("--time-limit=") + budgetArg, path, "-o", out},
        budget + 5);
    int64_t oursArena =
        ours.exitCode == 0 ? checkedArena(buffers, out, "best") : -1;
    bool oursOk =
        oursArena >= 0 && oursArena <= capacity && ours.wall <= budget;
    oursSolved += oursOk;
    oursWall.push_back(oursOk ? ours.wall : budget);
    oursCpu.push_back(oursOk ? ours.cpu : budget);
    std::printf("| %s | %zu | %lld | %.4f | %lld%s | %.3f / %.3f / %.3f |",
                name.c_str(), buffers.size(),
                static_cast<long long>(lowerBound(buffers).value_or(0)),
                g ? static_cast<double>(g->arenaSize) /
                        static_cast<double>(capacity)
                  : 0.0,
                static_cast<long long>(oursArena), oursOk ? "" : " (unsolved)",
                ours.wall, ours.cpu, reportedSeconds(ours.err, " time="));
    if (!haveMiniMalloc) {
      std::printf(" | | | |\n");
      continue;
    }
    std::string theirsOut = work + "/" + name + ".minimalloc.csv";
    unlink(theirsOut.c_str());
    ChildRun theirs = runMplanPlan(
        miniMalloc,
        {std::string("--capacity=") + capArg, "--input=" + path,
         "--output=" + theirsOut, std::string("--timeout=") + budgetArg + "s"},
        budget + 5);
    int64_t theirsArena = theirs.exitCode == 0
                              ? checkedArena(buffers, theirsOut, "MiniMalloc")
                              : -1;
    bool theirsOk =
        theirsArena >= 0 && theirsArena <= capacity && theirs.wall <= budget;
    theirsSolved += theirsOk;
    theirsWall.push_back(theirsOk ? theirs.wall : budget);
    theirsCpu.push_back(theirsOk ? theirs.cpu : budget);
    ratios.push_back(oursWall.back() / theirsWall.back());
    cpuRatios.push_back(oursCpu.back() / std::max(theirsCpu.back(), 1e-3));
    std::printf(" %lld%s | %.3f / %.3f / %.3f | %.3f | %.3f |\n",
                static_cast<long long>(theirsArena),
                theirsOk ? "" : " (unsolved)", theirs.wall, theirs.cpu,
                reportedSeconds(theirs.err, "Elapsed time "), ratios.back(),
                cpuRatios.back());
    std::fflush(stdout);
  }
  std::printf("\nInstances: %zu (generated ones and all plans in %s); "
              "budget %g s each; capacity %lld.\n"
              "best: %d solved, median wall %.3f s, CPU %.3f s.\n",
              oursWall.size(), work.c_str(), budget,
              static_cast<long long>(capacity), oursSolved,
              oursWall.empty() ? 0.0 : medianOf(oursWall),
              oursCpu.empty() ? 0.0 : medianOf(oursCpu));
  if (haveMiniMalloc && !theirsWall.empty())
    std::printf("MiniMalloc: %d solved, median wall %.3f s, CPU %.3f s.\n"
                "best / MiniMalloc: median of per-instance ratios %.3f (wall)"
                ", %.3f (CPU); ratio of medians %.3f (wall), %.3f (CPU).\n",
                theirsSolved, medianOf(theirsWall), medianOf(theirsCpu),
                medianOf(ratios), medianOf(cpuRatios),
                medianOf(oursWall) / medianOf(theirsWall),
                medianOf(oursCpu) / medianOf(theirsCpu));
  return oursSolved == static_cast<int>(oursWall.size()) ? 0 : 2;
}

/// The table of issue 34: per instance family (generated heavy, lognormal,
/// random and training-step instances of each size, MiniMalloc's A-F
/// without a capacity, the DNN-shaped ones), every strategy mplan-plan
/// offers by name beside `portfolio` and `best` at each time limit, in
/// process (planning time). A `portfolio` cell is marked `!` when it is
/// above greedy-by-size, greedy-by-breadth or time-best-fit while that
/// finished within the portfolio's budget; a `best` cell when it is above
/// any strategy by name (or `portfolio` at the same limit) that finished
/// within the limit. Then the portfolio's cost model against the measured
/// times of the members that ran (in the `best` runs at the largest limit).
int familiesTable(const std::string &dir, const std::vector<double> &limits,
                  const std::vector<int64_t> &sizes) {
  struct Row {
    std::string family, name;
    std::vector<Buffer> buffers;
  };
  std::vector<Row> rows;
  for (const char *kind : {"heavy", "lognormal", "random", "training"})
    for (int64_t n : sizes)
      rows.push_back({kind, std::to_string(n / 1000) + "k",
                      makeInstance(kind, n, 42 + n)});
  for (const char *name : {"A", "B", "C", "D", "E", "F"}) {
    Expected<CsvTable> t = readBufferCsvFile(dir + "/" + name + ".1048576.csv");
    if (!t) {
      std::fprintf(stderr, "skipping %s\n", t.error().c_str());
      continue;
    }
    rows.push_back({"MiniMalloc", name, t->buffers});
  }
  for (bench::Instance &inst : bench::dnnInstances())
    rows.push_back({"DNN", inst.name, std::move(inst.buffers)});

  const std::vector<std::string> named = {"naive", "linear-scan",
                                          "greedy-by-size", "greedy-by-breadth",
                                          "time-best-fit"};
  double maxLimit = *std::max_element(limits.begin(), limits.end());
  std::printf("| family | instance | buffers |");
  for (const std::string &n : named)
    std::printf(" %s |", n.c_str());
  for (const char *s : {"portfolio", "best"})
    for (double l : limits)
      std::printf(" %s %g s |", s, l);
  std::printf("\n|---|---|---:|");
  for (size_t k = 0; k < named.size() + 2 * limits.size(); ++k)
    std::printf("---:|");
  std::printf("\n");
  // Per row and member kind: measured / model seconds of the members that
  // ran in `best` at the largest limit.
  struct Calibration {
    std::string row;
    std::vector<std::pair<std::string, double>> ratios; // strategy, ratio
  };
  std::vector<Calibration> calibration;
  int marked = 0;
  for (Row &row : rows) {
    const std::vector<Buffer> &buffers = row.buffers;
    double lb = static_cast<double>(
        std::max<int64_t>(1, lowerBound(buffers).value_or(1)));
    auto plan = [&](const std::string &strategy, double seconds) {
      PlanOptions options;
      options.strategy = strategy;
      options.timeLimitSeconds = seconds;
      Expected<Plan> p = planBuffers(buffers, options);
      if (p) {
        if (std::optional<std::string> err =
                validatePlan(buffers, p->offsets, p->arenaSize)) {
          std::fprintf(stderr, "INVALID PLAN (%s): %s\n", strategy.c_str(),
                       err->c_str());
          std::exit(1);
        }
      }
      return p;
    };
    auto cell = [&](const Expected<Plan> &p, bool mark) {
      if (!p) {
        std::printf(" gave up |");
        return;
      }
      std::printf(" %s%.4f (%.2f s) |", mark ? "! " : "",
                  static_cast<double>(p->arenaSize) / lb, p->seconds);
    };
    std::printf("| %s | %s | %zu |", row.family.c_str(), row.name.c_str(),
                buffers.size());
    std::vector<Expected<Plan>> byName;
    for (const std::string &n : named) {
      byName.push_back(plan(n, maxLimit));
      cell(byName.back(), false);
    }
    // The smallest arena of the given strategies by name that finished
    // within `seconds`.
    auto bestWithin = [&](double seconds, bool portfolioMembers) {
      int64_t arena = std::numeric_limits<int64_t>::max();
      for (size_t k = 0; k < named.size(); ++k) {
        const Expected<Plan> &p = byName[k];
        bool member = named[k] == "greedy-by-size" ||
                      named[k] == "greedy-by-breadth" ||
                      named[k] == "time-best-fit";
        if (p && p->seconds <= seconds && (member || !portfolioMembers))
          arena = std::min(arena, p->arenaSize);
      }
      return arena;
    };
    std::vector<int64_t> portfolioArena;
    for (double l : limits) {
      Expected<Plan> p = plan("portfolio", l);
      bool mark = p && p->arenaSize > bestWithin(portfolioBudget(l), true);
      marked += mark;
      cell(p, mark);
      portfolioArena.push_back(p ? p->arenaSize
                                 : std::numeric_limits<int64_t>::max());
    }
    for (size_t k = 0; k < limits.size(); ++k) {
      Expected<Plan> p = plan("best", limits[k]);
      bool mark = p && (p->arenaSize > bestWithin(limits[k], false) ||
                        p->arenaSize > portfolioArena[k]);
      marked += mark;
      cell(p, mark);
      if (p && limits[k] == maxLimit) {
        Calibration c{row.family + " " + row.name, {}};
        for (const MemberRun &m : p->members)
          if (m.ran && m.finished && m.modelSeconds > 0)
            c.ratios.emplace_back(m.name, m.seconds / m.modelSeconds);
        calibration.push_back(std::move(c));
      }
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("\nCells: arena / max-live bound (planning time, in process). "
              "Strategies by name ran with the largest limit (they give up "
              "only past it). `!`: above a strategy that finished within the "
              "limit (for `portfolio`: greedy-by-size, greedy-by-breadth or "
              "time-best-fit within its budget); %d marked.\n\n",
              marked);
  std::printf("The portfolio's cost model: measured / estimated seconds of "
              "the members that ran in `best` at %g s (min / median / max "
              "over the members of a kind; 2 threads share the machine).\n\n"
              "| instance | sweeps | peak stacks | end-fit stacks | greedy |\n"
              "|---|---:|---:|---:|---:|\n",
              maxLimit);
  // The member kinds of the cost model, by member name.
  auto kindOf = [](const std::string &name) {
    if (name.rfind("start/", 0) == 0)
      return 0;
    if (name.rfind("peak-", 0) == 0)
      return name.find("/end-fit") == std::string::npos ? 1 : 2;
    return 3;
  };
  for (const Calibration &c : calibration) {
    std::printf("| %s |", c.row.c_str());
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<double> v;
      for (const auto &[name, ratio] : c.ratios)
        if (kindOf(name) == kind)
          v.push_back(ratio);
      if (v.empty()) {
        std::printf(" |");
        continue;
      }
      std::sort(v.begin(), v.end());
      std::printf(" %.2f / %.2f / %.2f |", v.front(), medianOf(v), v.back());
    }
    std::printf("\n");
  }
  return marked ? 2 : 0;
}

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("mplan-plan-bench options");
cl::opt<std::string> minimallocDir(
    "minimalloc", cl::init("../shared/benchmarks/minimalloc"),
    cl::desc("Directory of MiniMalloc's A-F instances (A.1048576.csv, ...)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<double> timeLimit("time-limit", cl::init(10.0),
                          cl::desc("Time limit of every strategy in the "
                                   "default tables (default 10)"),
                          cl::value_desc("seconds"), cl::cat(category));
cl::opt<int> runsOpt("runs", cl::init(3),
                     cl::desc("Runs per cell (medians; default 3)"),
                     cl::cat(category));
cl::opt<int64_t> maxRandom("max-random", cl::init(1000000),
                           cl::desc("Largest random instance of the default "
                                    "scaling table (default 1000000)"),
                           cl::cat(category));
cl::opt<int64_t> capacityOpt(
    "capacity", cl::init(1048576),
    cl::desc("Capacity given to best on MiniMalloc's instances and in "
             "--versus (default 1048576, theirs; 0: none)"),
    cl::value_desc("bytes"), cl::cat(category));
cl::opt<int64_t> portfolioN("portfolio", cl::init(0),
                            cl::desc("Only plan the random instance of N "
                                     "buffers with --strategy, --runs times"),
                            cl::value_desc("N"), cl::cat(category));
cl::opt<std::string> strategyOpt("strategy", cl::init("portfolio"),
                                 cl::desc("Strategy of --portfolio"),
                                 cl::cat(category));
cl::opt<bool> compareOpt("compare", cl::init(true),
                         cl::desc("--portfolio: also print greedy-by-size's "
                                  "arena (default true)"),
                         cl::cat(category));
cl::opt<std::string>
    scaleKind("scale",
              cl::desc("Whole-process scaling table of mplan-plan on "
                       "generated instances of this kind (heavy, lognormal, "
                       "random, training, packed)"),
              cl::value_desc("kind"), cl::cat(category));
cl::opt<std::string> sizesOpt("sizes", cl::init("10000,100000,200000,1000000"),
                              cl::desc("--scale: instance sizes"),
                              cl::value_desc("N,N,..."), cl::cat(category));
cl::opt<std::string> strategiesOpt(
    "strategies",
    cl::init("time-best-fit,linear-scan,greedy-by-size,greedy-by-breadth,"
             "portfolio,best:10"),
    cl::desc("--scale: strategies, each with an optional :LIMIT (seconds, "
             "default 10)"),
    cl::value_desc("S,S:LIMIT,..."), cl::cat(category));
cl::opt<std::string> binaryOpt("mplan-plan", cl::init("build/bin/mplan-plan"),
                               cl::desc("The mplan-plan binary of --scale "
                                        "and --versus"),
                               cl::value_desc("path"), cl::cat(category));
cl::opt<double> timeoutOpt("timeout", cl::init(30),
                           cl::desc("--scale: seconds after which a run is "
                                    "killed (default 30)"),
                           cl::cat(category));
cl::opt<std::string>
    versusOpt("versus",
              cl::desc("best against this MiniMalloc binary on --suite and "
                       "--generated instances"),
              cl::value_desc("path"), cl::cat(category));
cl::opt<std::string> suiteOpt("suite", cl::desc("--versus: directory of *.csv"),
                              cl::value_desc("dir"), cl::cat(category));
cl::opt<int> generatedOpt("generated", cl::init(0),
                          cl::desc("--versus: generated challenging "
                                   "instances"),
                          cl::cat(category));
cl::opt<uint64_t> seedOpt("seed", cl::init(1),
                          cl::desc("--versus: seed of the generated "
                                   "instances"),
                          cl::cat(category));
cl::opt<double> budgetOpt("budget", cl::init(10),
                          cl::desc("--versus: seconds per instance and "
                                   "solver (default 10)"),
                          cl::cat(category));
cl::opt<std::string> writeOpt(
    "write",
    cl::desc("Write the generated instance KIND:N[:SEED] (seed default 42) "
             "as CSV to stdout"),
    cl::value_desc("kind:n[:seed]"), cl::cat(category));
cl::opt<bool> familiesOpt(
    "families",
    cl::desc("Per instance family: every strategy by name, portfolio and "
             "best at each of --limits, and the portfolio's cost model "
             "against its members' measured times"),
    cl::cat(category));
cl::opt<std::string> limitsOpt("limits", cl::init("1,10"),
                               cl::desc("--families: time limits"),
                               cl::value_desc("S,S,..."), cl::cat(category));
cl::opt<std::string>
    familySizes("family-sizes", cl::init("10000,100000"),
                cl::desc("--families: sizes of the generated families (heavy, "
                         "lognormal, random, training)"),
                cl::value_desc("N,N,..."), cl::cat(category));

std::vector<std::string> splitList(const std::string &list) {
  std::vector<std::string> out;
  for (size_t from = 0; from <= list.size();) {
    size_t comma = list.find(',', from);
    if (comma == std::string::npos)
      comma = list.size();
    if (comma > from)
      out.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "mplan-plan-bench: planner benchmarks as markdown tables (see "
      "docs/benchmarks.md)\n");
  const std::string &dir = minimallocDir;
  double limit = timeLimit;
  int runs = std::max(1, runsOpt.getValue());
  int64_t capacity = capacityOpt;
  if (!writeOpt.empty()) {
    // --write KIND:N[:SEED] -> CSV on stdout.
    const std::string &spec = writeOpt;
    size_t a = spec.find(':'), b = spec.find(':', a + 1);
    if (a == std::string::npos) {
      llvm::WithColor::error(llvm::errs(), "mplan-plan-bench")
          << "--write: expected KIND:N[:SEED], got '" << spec << "'\n";
      return 1;
    }
    std::string text = writeBufferCsv(
        makeInstance(spec.substr(0, a), std::atoll(spec.c_str() + a + 1),
                     b == std::string::npos
                         ? 42
                         : std::strtoull(spec.c_str() + b + 1, nullptr, 10)));
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  if (!scaleKind.empty()) {
    std::vector<int64_t> sizes;
    for (const std::string &s : splitList(sizesOpt))
      sizes.push_back(std::atoll(s.c_str()));
    return scaleTable(scaleKind, sizes, runs, binaryOpt, timeoutOpt,
                      splitList(strategiesOpt));
  }
  if (portfolioN > 0)
    return portfolioOnly(portfolioN, runs, strategyOpt, compareOpt);
  if (!versusOpt.empty())
    return versusMiniMalloc(versusOpt, suiteOpt, generatedOpt, seedOpt,
                            budgetOpt, capacity, binaryOpt);
  if (familiesOpt) {
    std::vector<double> limits;
    for (const std::string &s : splitList(limitsOpt))
      limits.push_back(std::atof(s.c_str()));
    std::vector<int64_t> sizes;
    for (const std::string &s : splitList(familySizes))
      sizes.push_back(std::atoll(s.c_str()));
    return familiesTable(dir, limits, sizes);
  }

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
