#!/usr/bin/env bash
# The same pipelines as utils/mplan_pipelines.py, in plain shell (for CI and benchmarks).
#   utils/mplan_pipelines.sh baseline FILE.mlir
#   utils/mplan_pipelines.sh planned  FILE.mlir [MPLAN_OPT] [ARENA]     (defaults: build/bin/mplan-opt, heap)
# Environment: LLVM_BIN (default /usr/lib/llvm-22/bin), PLAN_OPTIONS (extra options for
# --mplan-plan-pipeline, e.g. "strategy=best report=plan.json"), RAW=1 keeps printMemref addresses.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:?usage: $0 baseline|planned FILE [MPLAN_OPT] [ARENA]}"
src="${2:?missing input file}"
mplan_opt="${3:-$here/build/bin/mplan-opt}"
arena="${4:-heap}"
LLVM_BIN="${LLVM_BIN:-/usr/lib/llvm-22/bin}"
LLVM_LIB="$(dirname "$LLVM_BIN")/lib"
libs="$LLVM_LIB/libmlir_c_runner_utils.so,$LLVM_LIB/libmlir_runner_utils.so"
bufferize='--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map'
lower='--pass-pipeline=builtin.module(func.func(convert-linalg-to-loops),expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)'
normalize() { if [ "${RAW:-0}" = 1 ]; then cat; else sed -E 's/base@ = 0x[0-9a-fA-F]+/base@ = <addr>/'; fi; }
run() { "$LLVM_BIN/mlir-runner" -e main -entry-point-result=void -shared-libs="$libs"; }
case "$mode" in
  baseline)
    "$LLVM_BIN/mlir-opt" "$src" "$bufferize" --ownership-based-buffer-deallocation --canonicalize \
        --buffer-deallocation-simplification --bufferization-lower-deallocations \
        --convert-bufferization-to-memref \
      | "$LLVM_BIN/mlir-opt" "$lower" | run | normalize ;;
  planned)
    plan="--mplan-plan-pipeline"; [ -n "${PLAN_OPTIONS:-}" ] && plan="--mplan-plan-pipeline=$PLAN_OPTIONS"
    "$LLVM_BIN/mlir-opt" "$src" "$bufferize" \
      | "$mplan_opt" "$plan" "--convert-mplan-to-memref=arena=$arena" --mplan-to-llvm | run | normalize ;;
  *) echo "unknown mode $mode (baseline|planned)" >&2; exit 2 ;;
esac
