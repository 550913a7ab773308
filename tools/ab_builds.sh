#!/usr/bin/env bash
# ab_builds.sh: two builds of the benchmark on one model in one run (a
# change against its base), rounds alternating which goes first so drift of
# a shared machine hits both.
#
# usage: tools/ab_builds.sh BENCH_A BENCH_B REF_DIR THREADS ROUNDS RUNS [extra benchmark flags]
#
# Runs each benchmark binary with --reference=REF_DIR --threads=THREADS
# --warmup=3 --repeats=RUNS once per round (default targets x86,host; pass
# --valid_targets=... to change), prints "round name median_ms" lines (a,
# b), then one JSON line with the median of the round medians per build and
# b/a. Build the base elsewhere, e.g.
#   git archive BASE | tar -x -C /tmp/base && (cd /tmp/base && bazel build //tools:benchmark)
set -euo pipefail
if [ $# -lt 6 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
bench_a=$1 bench_b=$2 ref=$3 threads=$4 rounds=$5 runs=$6
shift 6
extra=(--valid_targets=x86,host "$@")
source "$(dirname "$0")/interleave_lib.sh"
measure() {
  local bench=$bench_a
  [ "$1" = b ] && bench=$bench_b
  "$bench" --reference="$ref" --threads="$threads" --warmup=3 --repeats="$runs" "${extra[@]}" \
    2>/dev/null | tail -n 1 | sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_rounds "$rounds" a b
awk -v a="$MEDIAN_A" -v b="$MEDIAN_B" -v t="$threads" \
  'BEGIN{printf "{\"a_ms\":%s,\"b_ms\":%s,\"b_over_a\":%.3f,\"threads\":%d}\n", a, b, b/a, t}'
