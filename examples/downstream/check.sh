#!/usr/bin/env bash
# Installs an mplan build into a temporary prefix, builds the downstream
# example against the installed package and runs its lit test.
#
#   examples/downstream/check.sh BUILD_DIR        (e.g. build)
#
# Env: LLVM_DIR (default /usr/lib/llvm-22), JOBS (default 2), KEEP=1 keeps the
# temporary directory. Prints "N passed, N failed" and exits non-zero on failure.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$(cd "$1" && pwd)
LLVM_DIR=${LLVM_DIR:-/usr/lib/llvm-22}
JOBS=${JOBS:-2}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mplan-downstream.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
  trap 'rm -rf "$WORK"' EXIT
else
  echo "downstream: keeping $WORK"
fi

echo "downstream: installing $BUILD into $WORK/prefix"
cmake --install "$BUILD" --prefix "$WORK/prefix" > "$WORK/install.log" ||
  { cat "$WORK/install.log"; exit 1; }
test -f "$WORK/prefix/lib/cmake/mplan/MPlanConfig.cmake"
# The observer runtime the instrumented test program runs with, and its header.
test -f "$WORK/prefix/lib/libmplan_runtime.so"
test -f "$WORK/prefix/include/mplan/mplan_runtime.h"
# The installed plugin finds libMLIR.so by itself (its RUNPATH), also when a
# program without MLIR's library directory on its own RUNPATH loads it.
if [ -f "$WORK/prefix/lib/MPlanPlugin.so" ]; then
  env -u LD_LIBRARY_PATH /usr/bin/python3 -c \
    'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$WORK/prefix/lib/MPlanPlugin.so" ||
    { echo "downstream: the installed MPlanPlugin.so does not load on its own" >&2; exit 1; }
fi

echo "downstream: configuring against the installed package"
cmake -G Ninja -S "$HERE" -B "$WORK/build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$LLVM_DIR/bin/clang" -DCMAKE_CXX_COMPILER="$LLVM_DIR/bin/clang++" \
  -DLLVM_USE_LINKER=lld \
  -DMPlan_DIR="$WORK/prefix/lib/cmake/mplan" \
  -DLLVM_EXTERNAL_LIT="$LLVM_DIR/bin/lit" > "$WORK/configure.log" ||
  { cat "$WORK/configure.log"; exit 1; }

echo "downstream: building downstream-opt"
cmake --build "$WORK/build" -j "$JOBS" --target downstream-opt > "$WORK/build.log" ||
  { cat "$WORK/build.log"; exit 1; }

echo "downstream: running the lit tests"
set +e
"$LLVM_DIR/bin/lit" -v "$WORK/build/test" 2>&1 | tee "$WORK/lit.log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -c '^PASS: ' "$WORK/lit.log" || true)
failed=$(grep -cE '^(FAIL|XPASS|UNRESOLVED|TIMEOUT): ' "$WORK/lit.log" || true)
echo "$passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
