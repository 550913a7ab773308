#!/usr/bin/env bash
# ab_builds.sh: two builds of tools/benchmark on one model in one run, rounds
# alternating which goes first so drift of a shared machine hits both; then
# one --profile run of each, summarised as the ops that ran on host (feed
# and fetch aside), the layout casts and their ms.
#
# usage: tools/ab_builds.sh BEFORE_BIN AFTER_BIN ROUNDS RUNS [benchmark flags...]
#   tools/ab_builds.sh /tmp/bench_before bazel-bin/tools/benchmark 7 10 \
#       --model_dir=out/standin/restoration --input_shape=1,3,256,256 \
#       --valid_targets=x86,host --threads=1
#
# Prints "round build median_ms" lines, a "profile" line per build and one
# JSON line: the median of the round medians per build and after/before.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
before=$1 after=$2 rounds=$3 runs=$4
shift 4
flags=("$@")
source "$(dirname "$0")/interleave_lib.sh"
bin_of() { if [ "$1" = before ]; then echo "$before"; else echo "$after"; fi; }
measure() {
  "$(bin_of "$1")" --warmup=3 --repeats="$runs" "${flags[@]}" 2>/dev/null | tail -n 1 |
    sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_rounds "$rounds" before after
b=$MEDIAN_A
a=$MEDIAN_B
for n in before after; do
  "$(bin_of "$n")" --warmup=3 --repeats="$runs" --profile "${flags[@]}" 2>/dev/null |
    awk -v n="$n" '
      $2 ~ /^host\// && $1 != "feed" && $1 != "fetch" { host += $3; hms += $4; types = types " " $1 }
      $1 == "layout" { casts += $3; cms += $4 }
      END { printf "profile %s: ops on host %d (%.3f ms:%s), layout casts %d (%.3f ms)\n",
            n, host, hms, types, casts, cms }'
done
awk -v b="$b" -v a="$a" \
  'BEGIN{printf "{\"before_ms\":%s,\"after_ms\":%s,\"after_over_before\":%.3f}\n", b, a, a/b}'
