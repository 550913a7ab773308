#!/usr/bin/env bash
# ab_builds.sh: two builds of the benchmark on one model in one run, rounds
# alternating which goes first so drift of a shared machine hits both: what a
# change that no flag turns off (a kernel, a rule of a pass) is worth. Keep a
# copy of bazel-bin/tools/benchmark from before the change as OLD.
#
# usage: tools/ab_builds.sh OLD NEW ROUNDS RUNS [benchmark flags...]
#   cp -L bazel-bin/tools/benchmark /tmp/bench_before   # then change, rebuild
#   tools/ab_builds.sh /tmp/bench_before bazel-bin/tools/benchmark 7 20 \
#       --model_file=m/inference.pdmodel --param_file=m/inference.pdiparams \
#       --input_shape=1,3,48,608 --threads=1 --valid_targets=x86,host
#
# Each measurement is one benchmark process (3 warm-up runs, RUNS timed runs);
# prints "round old|new median_ms" lines, then one JSON line with the median
# of the round medians per build and new/old.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
old=$1 new=$2 rounds=$3 runs=$4
shift 4
extra=("$@")
source "$(dirname "$0")/interleave_lib.sh"
measure() {
  local bin=$old
  [ "$1" = new ] && bin=$new
  "$bin" --warmup=3 --repeats="$runs" "${extra[@]}" 2>/dev/null | tail -n 1 |
    sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_rounds "$rounds" old new
awk -v o="$MEDIAN_A" -v n="$MEDIAN_B" \
  'BEGIN{printf "{\"old_ms\":%s,\"new_ms\":%s,\"new_over_old\":%.3f}\n", o, n, n/o}'
