#!/usr/bin/env bash
# ab_passes.sh: what some passes are worth, measured in one run: the
# benchmark of one model with the default pipeline ("with") against the same
# build with those passes disabled ("without"), rounds alternating which
# goes first so drift of a shared machine hits both; prints "round with_ms
# without_ms with/without" per round (each a median of RUNS runs after 3
# warm-up runs) and the median of the per-round ratios.
#
# usage: tools/ab_passes.sh PASSES ROUNDS RUNS [benchmark flags...]
#   tools/ab_passes.sh conv_prescale_fuse_pass,scale_conv_fuse_pass 7 20 \
#       --model_file=m/inference.pdmodel --param_file=m/inference.pdiparams \
#       --input_shape=1,3,48,608 --threads=1 --valid_targets=npu,host --npu_driver=xnnpack
# Run from the repository root after `bazel build //tools:benchmark`.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '9,12p' "$0"; exit 2; }
passes=$1 rounds=$2 runs=$3
shift 3
median() {  # the benchmark's last line is its JSON summary
  bazel-bin/tools/benchmark --repeats="$runs" "$@" 2>/dev/null | tail -1 |
    python3 -c 'import sys, json; print(json.loads(sys.stdin.read())["median_ms"])'
}
ratios=()
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then
    a=$(median "$@"); b=$(median "$@" --disable_passes="$passes")
  else
    b=$(median "$@" --disable_passes="$passes"); a=$(median "$@")
  fi
  ratio=$(python3 -c "print(round($a / $b, 3))")
  ratios+=("$ratio")
  echo "$r $a $b $ratio"
done
python3 -c "import statistics, sys; print('median with/without:', statistics.median(map(float, sys.argv[1:])))" "${ratios[@]}"
