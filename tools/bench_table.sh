#!/usr/bin/env bash
# bench_table.sh: the fp32 speed table of docs/performance.md. For every shared vision model it
# times ONNX Runtime (../shared/bench/ort_latency.js) and our benchmark on
# the targets host, x86,host and npu,host (xnnpack) in interleaved rounds
# (the order rotates each round, so drift of a shared machine hits all
# sides), then prints one markdown row per model: the median of the round
# medians per side, the best of our targets and its ratio to ORT, its
# GFLOP/s (FLOPs counted by the host profile: conv / fc / matmul, as direct
# arithmetic) and % of the measured AVX-512 FMA roof (tools/roof, 1 thread
# times THREADS), and peak RSS of ours (the
# process's VmHWM) and of ORT (/usr/bin/time %M of the node process, which
# includes Node itself, ~45 MB).
#
# usage: [MODELS=DIR] tools/bench_table.sh THREADS ROUNDS RUNS [MODEL...]
#   (defaults: every model of MODELS, ../shared/models unless set, with a
#   model.onnx reference; MODELS=out/standin for the stand-ins'
#   tools/standin_to_onnx.py references)
# needs: bazel build //tools:benchmark //tools:roof; node with
#   onnxruntime-node on NODE_PATH (default ~/ort-node/node_modules;
#   ../shared/bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
  sed -n '2,19p' "$0" >&2
  exit 2
fi
threads=$1 rounds=$2 runs=$3
shift 3
shared=${SHARED:-../shared}
models_root=${MODELS:-$shared/models}
bench=bazel-bin/tools/benchmark
export NODE_PATH=${NODE_PATH:-$HOME/ort-node/node_modules}
models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  for d in "$models_root"/*/reference/model.onnx; do
    m=$(basename "$(dirname "$(dirname "$d")")")
    case $m in rna_* | textcnn_*) continue ;; esac  # LoD sequence models: not vision
    models+=("$m")
  done
fi
roof=$(bazel-bin/tools/roof --threads=1 | tail -n 1 | sed -n 's/.*"avx512_1t":\([0-9.]*\).*/\1/p')
[ -n "$roof" ] || roof=$(bazel-bin/tools/roof --threads=1 | tail -n 1 | sed -n 's/.*"avx2_1t":\([0-9.]*\).*/\1/p')
sides=(ort host x86 npu)
target() { case $1 in host) echo host ;; x86) echo x86,host ;; npu) echo npu,host ;; esac; }
field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }

echo "roof: ${roof} GFLOP/s (1 thread); threads=${threads} rounds=${rounds} runs=${runs}"
echo "| model | input | host ms | x86 ms | npu (xnnpack) ms | ORT ms | best | best / ORT | GFLOP/s (% roof) | peak MB ours / ORT |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for m in "${models[@]}"; do
  ref=$models_root/$m/reference
  declare -A ms=() rss=()
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#sides[@]}; k++)); do
      side=${sides[$(((k + r) % ${#sides[@]}))]}
      if [ "$side" = ort ]; then
        out=$( { /usr/bin/time -f 'rss_kb=%M' node "$shared/bench/ort_latency.js" "$ref/model.onnx" \
                   --inputs "$ref" --threads "$threads" --runs "$runs" --warmup 3; } 2>&1) || {
          echo "ONNX Runtime failed on $m:" >&2; echo "$out" >&2; exit 1; }
        rss[ort]=$(echo "$out" | sed -n 's/^rss_kb=//p')
        line=$(echo "$out" | grep median_ms | tail -n 1)
      else
        line=$("$bench" --reference="$ref" --valid_targets="$(target "$side")" --threads="$threads" \
                 --warmup=3 --repeats="$runs" 2>/dev/null | tail -n 1)
        rss[$side]=$(echo "$line" | field peak_rss_mb)
      fi
      ms[$side]="${ms[$side]:-} $(echo "$line" | field median_ms)"
    done
  done
  declare -A med=()
  best=""
  for side in "${sides[@]}"; do
    med[$side]=$(echo "${ms[$side]}" | median)
    if [ "$side" != ort ] && { [ -z "$best" ] || awk -v a="${med[$side]}" -v b="${med[$best]}" 'BEGIN{exit !(a<b)}'; }; then
      best=$side
    fi
  done
  # FLOPs per run as the host profile counts them (conv / fc / matmul, direct
  # convolution arithmetic even where a Winograd kernel does less; npu
  # subgraphs are not broken down, hence host).
  gflop=$("$bench" --reference="$ref" --valid_targets=host --threads=1 --warmup=1 \
            --repeats=3 --profile 2>/dev/null |
          awk '$(NF-1) ~ /^[0-9.]+$/ && NF >= 7 && $1 != "total" {g += $(NF-3) * $(NF-1) / 1000} END{printf "%.4f", g}')
  input=$(python3 -c "import json,sys; d=json.load(open('$ref/meta.json')); print('x'.join(str(v) for v in d['inputs'][0]['shape']))" 2>/dev/null || echo "?")
  awk -v m="$m" -v shape="$input" -v h="${med[host]}" -v x="${med[x86]}" -v n="${med[npu]}" -v o="${med[ort]}" \
      -v best="$best" -v b="${med[$best]}" -v g="$gflop" -v roof="$roof" -v t="$threads" \
      -v ours="${rss[$best]}" -v ort_kb="${rss[ort]}" 'BEGIN{
        gf = (b > 0) ? g / (b / 1000) : 0;
        printf "| %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %.2f | %.0f (%.0f%%) | %.0f / %.0f |\n",
          m, shape, h, x, n, o, best, b / o, gf, 100 * gf / (roof * t), ours, ort_kb / 1024 }'
  unset ms rss med
done
