//===- Repair.cpp - Peak repair for instances too large to search ---------===//

#include "PlannerImpl.h"

using namespace mplan;
using namespace mplan::detail;

bool mplan::detail::repairPeak(const Problem &p, Placement &placement,
                               Clock::time_point deadline, int64_t capacity) {
  (void)p;
  (void)placement;
  (void)deadline;
  (void)capacity;
  return false;
}
