#!/usr/bin/env bash
# interleave_arm.sh: the arm target against the xnnpack driver (npu,host)
# and ONNX Runtime on one model, 1 thread, in one run: rounds rotate which
# of the three goes first so drift of a shared machine hits all alike
# (docs/arm.md, issue 43's x86 targets).
#
# usage: tools/interleave_arm.sh REF_DIR ROUNDS RUNS
#
# The engine: bazel-bin/tools/benchmark --reference=REF_DIR (full
# predictor) with --valid_targets arm,host and npu,host, 3 warm-up runs,
# RUNS timed runs. ONNX Runtime: ../shared/bench/ort_latency.js on
# REF_DIR/model.onnx with the same inputs (onnxruntime-node from NODE_PATH,
# default ~/ort-node/node_modules). Prints "round variant median_ms" lines,
# then one JSON line with the median of the round medians per variant and
# arm over each of the others.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,15p' "$0" >&2
  exit 2
fi
ref=$1 rounds=$2 runs=$3
bench=${BENCH:-bazel-bin/tools/benchmark}
ort_js=${ORT_JS:-$(dirname "$0")/../../shared/bench/ort_latency.js}
export NODE_PATH=${NODE_PATH:-$HOME/ort-node/node_modules}
source "$(dirname "$0")/interleave_lib.sh"
measure() {
  if [ "$1" = ort ]; then
    node "$ort_js" "$ref/model.onnx" --inputs "$ref" --threads 1 --warmup 3 --runs "$runs"
  else
    "$bench" --reference="$ref" --valid_targets="$1" --threads=1 --warmup=3 --repeats="$runs" \
      2>/dev/null
  fi | tail -n 1 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_many "$rounds" arm,host npu,host ort
a=${MEDIANS[arm,host]} x=${MEDIANS[npu,host]} o=${MEDIANS[ort]}
awk -v a="$a" -v x="$x" -v o="$o" 'BEGIN{printf "{\"arm_ms\":%s,\"npu_xnnpack_ms\":%s,\"ort_ms\":%s,\"arm_over_npu\":%.3f,\"arm_over_ort\":%.3f}\n", a, x, o, a/x, a/o}'
