//===- SanitizerBuild.h - Whether the tests run sanitized -------*- C++ -*-===//
//
// Whether this is the sanitizer build (make sanitize), whose code runs several
// times slower: a timed search or a wall-clock limit means nothing there.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_UNITTESTS_SUPPORT_SANITIZERBUILD_H
#define MPLAN_UNITTESTS_SUPPORT_SANITIZERBUILD_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MPLAN_SANITIZER_BUILD 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MPLAN_SANITIZER_BUILD 1
#endif

namespace mplan {
/// How much slower the tests' code runs here than in a release build: a
/// wall-clock limit is multiplied by it.
#ifdef MPLAN_SANITIZER_BUILD
inline constexpr double kSanitizerSlowdown = 10.0;
#else
inline constexpr double kSanitizerSlowdown = 1.0;
#endif
} // namespace mplan

#endif // MPLAN_UNITTESTS_SUPPORT_SANITIZERBUILD_H
