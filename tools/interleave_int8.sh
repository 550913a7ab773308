#!/usr/bin/env bash
# interleave_int8.sh: a quantized model's int8 kernels against its float32
# simulation (the same program with --disable_passes=quant_dequant_fuse_pass)
# on one target list, in one run, rounds alternating which goes first so
# drift of a shared machine hits both.
#
# usage: tools/interleave_int8.sh MODEL_DIR TARGETS INPUT_SHAPE THREADS ROUNDS RUNS
#
# Writes both .nb files with bazel-bin/tools/opt into a temporary folder,
# runs bazel-bin/tools/benchmark on each once per round (2 warm-up runs,
# RUNS timed runs), prints "round form median_ms" lines, then one JSON line
# with the median of the round medians per form and int8/simulation.
set -euo pipefail
if [ $# -lt 6 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
model=$1 targets=$2 shape=$3 threads=$4 rounds=$5 runs=$6
bin=${BIN:-bazel-bin/tools}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/opt" --model_dir="$model" --valid_targets="$targets" --optimize_out="$tmp/int8" >/dev/null
"$bin/opt" --model_dir="$model" --valid_targets="$targets" --optimize_out="$tmp/sim" \
  --disable_passes=quant_dequant_fuse_pass >/dev/null
source "$(dirname "$0")/interleave_lib.sh"
measure() {
  "$bin/benchmark" --optimized_model="$tmp/$1.nb" --input_shape="$shape" \
    --threads="$threads" --warmup=2 --repeats="$runs" 2>/dev/null | tail -n 1 |
    sed -n 's/.*"median_ms":\([0-9.]*\).*/\1/p'
}
interleave_rounds "$rounds" int8 sim
awk -v i="$MEDIAN_A" -v s="$MEDIAN_B" -v t="$threads" \
  'BEGIN{printf "{\"int8_ms\":%s,\"simulation_ms\":%s,\"int8_over_simulation\":%.3f,\"threads\":%d}\n", i, s, i/s, t}'
