#include "PlannerImpl.h"
using namespace mplan;
using namespace mplan::detail;
bool mplan::detail::searchExact(const Problem &problem, Placement &incumbent,
                                Clock::time_point deadline) {
  return false;
}
