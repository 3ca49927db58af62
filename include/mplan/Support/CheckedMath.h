//===- CheckedMath.h - Overflow-checked integer arithmetic ------*- C++ -*-===//
//
// Small helpers for sizes and offsets: every operation reports overflow
// instead of wrapping. Sizes up to 2^63-1 are legal planner input, so all
// arithmetic on them goes through these helpers.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_CHECKEDMATH_H
#define MPLAN_SUPPORT_CHECKEDMATH_H

#include <cstdint>
#include <optional>

namespace mplan {

/// a + b, or std::nullopt on signed overflow.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a - b, or std::nullopt on signed overflow.
inline std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// a * b, or std::nullopt on signed overflow.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    return std::nullopt;
  return r;
}

/// In-place variants: return false (and leave `acc` unspecified) on overflow.
inline bool addInPlace(int64_t &acc, int64_t b) {
  return !__builtin_add_overflow(acc, b, &acc);
}
inline bool mulInPlace(int64_t &acc, int64_t b) {
  return !__builtin_mul_overflow(acc, b, &acc);
}

/// True if `x` is a positive power of two.
inline bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// Rounds a non-negative `value` up to a multiple of `alignment` (a power of
/// two), or std::nullopt if the result does not fit in int64_t or the inputs
/// are invalid.
inline std::optional<int64_t> alignTo(int64_t value, int64_t alignment) {
  if (value < 0 || !isPowerOf2(alignment))
    return std::nullopt;
  int64_t mask = alignment - 1;
  int64_t r;
  if (__builtin_add_overflow(value, mask, &r))
    return std::nullopt;
  return r & ~mask;
}

} // namespace mplan

#endif // MPLAN_SUPPORT_CHECKEDMATH_H
