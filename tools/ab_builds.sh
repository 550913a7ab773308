#!/usr/bin/env bash
# ab_builds.sh: two builds of the benchmark tool on one model, measured in
# one run: rounds alternate which binary goes first so drift of a shared
# machine hits both. Per round and binary it prints the median and the
# minimum of RUNS timed runs (after 3 warm-up runs), the ms per run of the
# layout casts and of each op type named in $OPS (comma separated, from
# --profile, summed over places), and the number of layout ops and of ops
# on host other than feed / fetch (from --profile); then the median of the
# per-round B/A ratios of the medians and of the minimums.
#
# usage: OPS=softmax,pad tools/ab_builds.sh BIN_A BIN_B ROUNDS RUNS [benchmark flags...]
#   cp bazel-bin/tools/benchmark /tmp/bench_before   # at the old commit
#   OPS=softmax tools/ab_builds.sh /tmp/bench_before bazel-bin/tools/benchmark 7 20 \
#       --model_dir=out/standin/portrait_seg --input_shape=1,3,256,256 \
#       --valid_targets=x86,host --threads=1
set -euo pipefail
[ $# -ge 4 ] || { sed -n '11,15p' "$0"; exit 2; }
bin_a=$1 bin_b=$2 rounds=$3 runs=$4
shift 4
ops=${OPS:-}
# measure BIN: "median min layout_ms layouts host_ops [op_ms...]" of one run.
measure() {
  "$1" --repeats="$runs" --warmup=3 --profile "${@:2}" 2>/dev/null |
    python3 -c '
import json, sys
ops = [o for o in sys.argv[1].split(",") if o]
lines = sys.stdin.read().splitlines()
summary = json.loads(lines[-1])
ms, count = {}, {}
host = 0
for line in lines:
    f = line.split()
    if len(f) >= 5 and "/" in f[1] and f[0] != "op":
        ms[f[0]] = ms.get(f[0], 0.0) + float(f[3])
        count[f[0]] = count.get(f[0], 0) + int(f[2])
        if f[1].startswith("host/") and f[0] not in ("feed", "fetch"):
            host += int(f[2])
row = [summary["median_ms"], summary["min_ms"], round(ms.get("layout", 0.0), 3),
       count.get("layout", 0), host] + [round(ms.get(o, 0.0), 3) for o in ops]
print(" ".join(str(v) for v in row))' "$ops"
}
echo "round binary median_ms min_ms layout_ms layout_ops host_ops${ops:+ ${ops//,/_ms }_ms}"
med=() mins=()
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then
    a=$(measure "$bin_a" "$@"); b=$(measure "$bin_b" "$@")
  else
    b=$(measure "$bin_b" "$@"); a=$(measure "$bin_a" "$@")
  fi
  echo "$r A $a"
  echo "$r B $b"
  read -r am an _ <<< "$a"
  read -r bm bn _ <<< "$b"
  med+=("$(python3 -c "print($bm / $am)")")
  mins+=("$(python3 -c "print($bn / $an)")")
done
python3 -c '
import statistics, sys
n = int(sys.argv[1]); v = list(map(float, sys.argv[2:]))
print("median B/A of the medians: %.3f, of the minimums: %.3f" %
      (statistics.median(v[:n]), statistics.median(v[n:])))' "$rounds" "${med[@]}" "${mins[@]}"
