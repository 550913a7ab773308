#!/usr/bin/env bash
# Instructions executed per inference under qemu-user emulation (docs/arm.md):
# the engine's aarch64 build (tools/benchmark) on each configuration and ONNX
# Runtime's aarch64 build (onnxruntime-node under Debian's arm64 Node.js) on
# the same ONNX model and inputs (the model's reference/), for each emulated
# CPU. A proxy, not ARM speed: every instruction counts one, whatever its
# latency, vector width or cache behaviour.
#
#   tools/arm_insn_bench.sh [--models=a,b] [--cpus=cortex-a72,max] [--n=N]
#       [--config=NAME:TARGETS[:OPT_FLAGS]]... [--no_ort] [BAZEL_FLAGS...]
#
# Default configurations: arm:arm,host  npu:npu,host (the xnnpack driver)
# host:host, each run by the full predictor. OPT_FLAGS (space separated, e.g.
# "arm16:arm,host:--enable_fp16") run opt with those flags to a .nb first and
# count the light predictor on it. --config replaces the default list.
# --no_ort leaves ONNX Runtime out (its count takes the longest; for
# ratios between the engine's own configurations).
#
# Method: qemu-aarch64 (Debian's qemu-user, which loads TCG plugins) with
# tools/insn_count's plugin (mode=exact) counts each program twice, with 1
# and with N+1 inferences (no warm-up); (count(N+1) - count(1)) / N is the
# steady-state cost of one inference, without loading, graph optimization,
# weight packing or the first run's lazy set-up. The count is the main
# thread's (the plugin's vcpu0): both sides run 1 thread, so the inference
# runs there; Node.js's compiler and garbage-collector threads are left out.
# Prints a markdown table of million instructions per inference, and each
# configuration over ONNX Runtime.
set -euo pipefail
cd "$(dirname "$0")/.."
models=ppocr_det_en_PP-OCRv3,mobilenetv3_small_x0_35_3cls
cpus=cortex-a72,max
n=4
configs=()
flags=()
ort_on=1
for a in "$@"; do
  case "$a" in
    --models=*) models=${a#--models=} ;;
    --cpus=*) cpus=${a#--cpus=} ;;
    --n=*) n=${a#--n=} ;;
    --config=*) configs+=("${a#--config=}") ;;
    --no_ort) ort_on=0 ;;
    *) flags+=("$a") ;;
  esac
done
[ ${#configs[@]} -gt 0 ] || configs=(arm:arm,host npu:npu,host host:host)
[ "$n" -ge 1 ] || { echo "arm_insn_bench: --n must be >= 1" >&2; exit 1; }
shared=../shared/models
root=${PADDLE_LITE_PLUS_AARCH64:-$HOME/.cache/paddle_lite_plus_aarch64}
command -v qemu-aarch64 >/dev/null || { echo "arm_insn_bench: qemu-aarch64 missing: run tools/setup_aarch64.sh" >&2; exit 1; }
bash tools/setup_ort_aarch64.sh >/dev/null

bazel build --config=aarch64 "${flags[@]}" //tools:benchmark //tools:opt
abin=$(bazel info --config=aarch64 "${flags[@]}" bazel-bin 2>/dev/null)
bazel build //tools/insn_count:libinsn_count.so
plugin=$(bazel info bazel-bin 2>/dev/null)/tools/insn_count/libinsn_count.so
sysroot=$root/sysroot
prefix=$root/node/prefix
export NODE_PATH=$root/ort/node_modules
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {  # count PREFIX PROGRAM ARGS... -> main-thread instructions
  qemu-aarch64 -L "$1" -plugin "$plugin,out=$tmp/count,mode=exact" "${@:2}" >"$tmp/log" 2>&1 ||
    { echo "arm_insn_bench: failed: ${*:2}" >&2; tail -5 "$tmp/log" >&2; return 1; }
  awk '$1 == "vcpu0" { print $2 }' "$tmp/count"
}
per_inference() {  # per_inference ONE MANY -> million instructions per inference
  awk -v a="$1" -v b="$2" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }'
}

header="| model | CPU |"
rule="|---|---|"
for c in "${configs[@]}"; do header+=" ${c%%:*} |"; rule+="---|"; done
if [ "$ort_on" = 1 ]; then
  header+=" ORT |"
  rule+="---|"
  for c in "${configs[@]}"; do header+=" ${c%%:*} / ORT |"; rule+="---|"; done
fi
rows=()
for cpu in ${cpus//,/ }; do
  export QEMU_CPU=$cpu
  for m in ${models//,/ }; do
    dir=$shared/$m
    ref=$dir/reference
    row="| \`$m\` | $cpu |"
    values=()
    for c in "${configs[@]}"; do
      name=${c%%:*}
      rest=${c#*:}
      targets=${rest%%:*}
      opt_flags=
      [ "$rest" != "$targets" ] && opt_flags=${rest#*:}
      if [ -n "$opt_flags" ]; then
        # shellcheck disable=SC2086  # OPT_FLAGS is a space-separated list
        qemu-aarch64-static -L "$sysroot" "$abin/tools/opt" --model_dir="$dir" \
          --valid_targets="$targets" --optimize_out="$tmp/$name" $opt_flags >"$tmp/log" 2>&1 ||
          { echo "arm_insn_bench: opt failed for $m $name" >&2; tail -5 "$tmp/log" >&2; exit 1; }
        model=(--optimized_model="$tmp/$name.nb")
      else
        model=(--model_dir="$dir" --valid_targets="$targets")
      fi
      bench=("$abin/tools/benchmark" "${model[@]}" --reference="$ref" --threads=1 --warmup=0)
      one=$(count "$sysroot" "${bench[@]}" --repeats=1)
      many=$(count "$sysroot" "${bench[@]}" --repeats=$((n + 1)))
      values+=("$(per_inference "$one" "$many")")
      echo "arm_insn_bench: $cpu $m $name: ${values[-1]} M (counts $one, $many)" >&2
    done
    for v in "${values[@]}"; do row+=" $v |"; done
    if [ "$ort_on" = 1 ]; then
      ort=("$prefix/usr/bin/node" ../shared/bench/ort_latency.js "$ref/model.onnx" --inputs "$ref"
        --threads 1 --warmup 0)
      one=$(count "$prefix" "${ort[@]}" --runs 1)
      many=$(count "$prefix" "${ort[@]}" --runs $((n + 1)))
      o=$(per_inference "$one" "$many")
      echo "arm_insn_bench: $cpu $m ORT: $o M (counts $one, $many)" >&2
      row+=" $o |"
      for v in "${values[@]}"; do row+=" $(awk -v a="$v" -v b="$o" 'BEGIN { printf "%.2f", a / b }') |"; done
    fi
    rows+=("$row")
  done
done
echo "Million instructions per inference, main thread, (count(1+$n) - count(1)) / $n:"
echo "$header"
echo "$rule"
printf '%s\n' "${rows[@]}"
