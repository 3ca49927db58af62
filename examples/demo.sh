#!/usr/bin/env bash
# The main job on a bundled example: bufferize a residual CNN written in linalg
# on tensors with upstream One-Shot Bufferize, plan its memory with mplan, print
# the plan, then run the planned and the unplanned program natively and compare.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
MODEL=${2:-$ROOT/models/resnet_block.mlir}
LLVM=/usr/lib/llvm-22
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

echo "== mplan demo: $(basename "$MODEL")"
echo "-- 1. bufferize (upstream One-Shot Bufferize)"
"$LLVM/bin/mlir-opt" "$MODEL" \
  --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
  -o "$OUT/bufferized.mlir"

echo "-- 2. plan (mplan-opt --mplan-plan-pipeline) and verify"
"$BUILD/bin/mplan-opt" "$OUT/bufferized.mlir" \
  --mplan-plan-pipeline="strategy=best report=$OUT/plan.json" --mplan-verify-plan \
  -o "$OUT/planned.mlir"
/usr/bin/python3 "$ROOT/utils/print-plan.py" "$OUT/plan.json"

echo "-- 3. run natively: unplanned baseline vs planned (arena=heap)"
/usr/bin/python3 "$ROOT/utils/mplan_pipelines.py" baseline "$MODEL" > "$OUT/baseline.txt"
/usr/bin/python3 "$ROOT/utils/mplan_pipelines.py" planned "$MODEL" \
  --mplan-opt "$BUILD/bin/mplan-opt" > "$OUT/planned.txt"
head -n 6 "$OUT/planned.txt"
if cmp -s "$OUT/baseline.txt" "$OUT/planned.txt"; then
  echo "== output identical to the unplanned program ($(wc -l < "$OUT/planned.txt") lines)"
else
  echo "== OUTPUT DIFFERS from the unplanned program" >&2
  diff "$OUT/baseline.txt" "$OUT/planned.txt" | head -20 >&2
  exit 1
fi
