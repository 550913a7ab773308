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
declare -A all
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then order="host x86"; else order="x86 host"; fi
  for t in $order; do
    ms=$("$bench" --reference="$ref" --valid_targets="$t" --threads="$threads" --warmup=3 \
           --repeats="$runs" "$@" 2>/dev/null | tail -n 1 |
         sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p')
    echo "$r $t $ms"
    all[$t]="${all[$t]:-} $ms"
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }
h=$(echo "${all[host]}" | median)
x=$(echo "${all[x86]}" | median)
awk -v h="$h" -v x="$x" -v t="$threads" \
  'BEGIN{printf "{\"host_ms\":%s,\"x86_ms\":%s,\"x86_over_host\":%.3f,\"threads\":%d}\n", h, x, x/h, t}'
