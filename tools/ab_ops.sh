#!/usr/bin/env bash
# ab_ops.sh: what a change does to the ops it touches, measured in one run:
# two builds of the benchmark on one model with --profile_ops, rounds
# alternating which goes first; the ops whose implementation in build B
# matches IMPL (e.g. lite:depthwise_nhwc) are timed in both (the same op,
# by its place in program order), so the rest of the model, and its noise,
# stays out. Prints per op the median over the rounds of its ms in A and B,
# then the sums and B/A.
#
# usage: tools/ab_ops.sh BENCH_A BENCH_B IMPL REF_DIR THREADS ROUNDS RUNS [extra benchmark flags]
set -euo pipefail
if [ $# -lt 7 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
bench_a=$1 bench_b=$2 impl=$3 ref=$4 threads=$5 rounds=$6 runs=$7
shift 7
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # run NAME BENCH ROUND [extra flags]: the per-op profile lines
  local name=$1 bench=$2 round=$3
  shift 3
  "$bench" --reference="$ref" --threads="$threads" --warmup=3 --repeats="$runs" \
    --valid_targets=x86,host --profile_ops "$@" 2>/dev/null >"$out/$name.$round"
}
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then
    run a "$bench_a" "$r" "$@"; run b "$bench_b" "$r" "$@"
  else
    run b "$bench_b" "$r" "$@"; run a "$bench_a" "$r" "$@"
  fi
done
python3 - "$out" "$rounds" "$impl" <<'PY'
import statistics, sys
out, rounds, impl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def ops(path):  # program index -> (op, output, ms, impl)
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 7 and f[0].isdigit() and "/" in f[3]:
            rows[int(f[0])] = (f[1], f[2], float(f[4]), f[-1])
    return rows
a = [ops(f"{out}/a.{r}") for r in range(rounds)]
b = [ops(f"{out}/b.{r}") for r in range(rounds)]
picked = [i for i, v in sorted(b[0].items()) if v[3] == impl]
sa = sb = 0.0
for i in picked:
    ma = statistics.median(x[i][2] for x in a)
    mb = statistics.median(x[i][2] for x in b)
    sa += ma
    sb += mb
    print(f"{i:4d} {b[0][i][0]:18s} {b[0][i][1]:28s} A {ma:8.4f} ({a[0][i][3]})  B {mb:8.4f}")
if picked:
    print(f"sum over {len(picked)} ops: A {sa:.4f} ms  B {sb:.4f} ms  B/A {sb / sa:.3f}")
else:
    print(f"no op runs {impl} in B")
PY
