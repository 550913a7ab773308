#!/usr/bin/env bash
# profile_vs_ort.sh: the engine's per-op-type profile and ONNX Runtime's
# (tools/ort_profile.js) of the same reference folder, interleaved round by
# round (odd rounds ORT first), so a shared machine's drift hits both; prints
# each side's median over the rounds of every op type's ms per run.
#
#   tools/profile_vs_ort.sh REF_DIR ROUNDS RUNS -- bazel-bin/tools/benchmark \
#       --model_file=... --param_file=... --reference=REF_DIR --threads=1 \
#       --valid_targets=x86,host
#
# The engine command gets --profile --repeats=RUNS appended; ORT runs 1
# thread, RUNS timed runs. Both profilers add a cost per op, ORT's more (it
# has about three times the nodes, unfused elementwise ops): compare op
# types, and take speed ratios from ../shared/bench/ab_interleave.sh.
set -euo pipefail
. "$(dirname "$0")/interleave_lib.sh"

if [ $# -lt 5 ] || [ "$4" != "--" ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
ref=$1 rounds=$2 runs=$3
shift 4
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

ours() {  # "op_type ms" per op type (places summed), then "run ms"
  "$@" --profile --repeats="$runs" 2>&1 | awk '
    /^profile \(ms per timed run\)/ { on = 1; next }
    on && $1 == "total" { on = 0 }
    on && NF >= 5 && $4 ~ /^[0-9.]+$/ { ms[$1] += $4 }
    /"median_ms"/ { match($0, /"median_ms":[0-9.]+/); run = substr($0, RSTART + 12, RLENGTH - 12) }
    END { for (k in ms) print k, ms[k]; print "run", run }'
}

ort() {
  node "$here/ort_profile.js" "$ref" --threads 1 --runs "$runs" | tail -n 1 |
    /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
for k, v in d["ops_ms"].items(): print(k, v)
print("run", d["median_ms"])'
}

for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 1)); then order="ort ours"; else order="ours ort"; fi
  for side in $order; do
    if [ "$side" = ours ]; then ours "$@" > "$log/ours.$r"; else ort > "$log/ort.$r"; fi
  done
  echo "round $r: ours $(awk '$1 == "run" {print $2}' "$log/ours.$r") ms," \
       "ORT $(awk '$1 == "run" {print $2}' "$log/ort.$r") ms (profiled runs)"
done

for side in ours ort; do
  echo "$side: median over $rounds rounds, ms per run"
  cat "$log/$side".* | awk '{print $1}' | sort -u | while read -r op; do
    echo "$op $(cat "$log/$side".* | awk -v op="$op" '$1 == op {printf "%s ", $2}' | median)"
  done | sort -k2 -g -r | awk '{printf "  %-26s %9.3f\n", $1, $2}'
done
