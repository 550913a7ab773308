#!/usr/bin/env bash
# interleave_targets.sh: host vs x86 latency of one model in one run, rounds
# alternating which target goes first so drift of a shared machine hits both.
#
# usage: tools/interleave_targets.sh REF_DIR THREADS ROUNDS RUNS [extra benchmark flags]
#
# Runs bazel-bin/tools/benchmark --reference=REF_DIR --valid_targets=T once per
# round and target (3 warm-up runs, RUNS timed runs, THREADS threads), prints
# "round target median_ms" lines, then one JSON line with the median of the
# round medians per target and x86/host.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
ref=$1 threads=$2 rounds=$3 runs=$4
shift 4
bench=${BENCH:-bazel-bin/tools/benchmark}
extra=("$@")
source "$(dirname "$0")/interleave_lib.sh"
measure() {
  "$bench" --reference="$ref" --valid_targets="$1" --threads="$threads" --warmup=3 \
    --repeats="$runs" "${extra[@]}" 2>/dev/null | tail -n 1 |
    sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_rounds "$rounds" host x86
h=$MEDIAN_A
x=$MEDIAN_B
awk -v h="$h" -v x="$x" -v t="$threads" \
  'BEGIN{printf "{\"host_ms\":%s,\"x86_ms\":%s,\"x86_over_host\":%.3f,\"threads\":%d}\n", h, x, x/h, t}'
