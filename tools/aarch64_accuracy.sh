#!/usr/bin/env bash
# tools/accuracy on the shared models (../shared/models) with the aarch64
# build under qemu (docs/aarch64.md): for every model, on each target list
# (host and npu,host unless --targets says otherwise; lists separated by
# ':'), through the full predictor and through opt -> .nb -> the light
# predictor, for each emulated CPU.
#
#   tools/aarch64_accuracy.sh [--cpus=cortex-a72,max] [--models=a,b]
#       [--targets=host:npu,host:arm,host] [BAZEL_FLAGS...]
#
# Builds what it runs (bazel build --config=aarch64). Prints one line per run
# and ends with "N passed, N failed"; exits 1 when any run failed. Without
# ../shared/models it says so and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
cpus=cortex-a72,max
models=
target_lists=host:npu,host
flags=()
for a in "$@"; do
  case "$a" in
    --cpus=*) cpus=${a#--cpus=} ;;
    --models=*) models=${a#--models=} ;;
    --targets=*) target_lists=${a#--targets=} ;;
    *) flags+=("$a") ;;
  esac
done
shared=../shared/models
if [ ! -d "$shared" ]; then
  echo "aarch64_accuracy: $shared not found; skipping"
  exit 0
fi
if [ -z "$models" ]; then
  models=$(cd "$shared" && for d in */; do [ -f "$d/reference/meta.json" ] && echo "${d%/}"; done | paste -sd,)
fi

bazel build --config=aarch64 "${flags[@]}" //tools:opt //tools:accuracy //toolchains/aarch64:qemu || exit 1
bin=$(bazel info --config=aarch64 "${flags[@]}" bazel-bin 2>/dev/null)
qemu=$bin/toolchains/aarch64/qemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Model files from meta.json (paths relative to the model folder).
meta() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m.get(sys.argv[2]) or "")' "$1" "$2"; }

passed=0
failed=0
run() {  # label, command...
  local label=$1; shift
  local start=$SECONDS
  if "$@" >"$tmp/log" 2>&1; then
    passed=$((passed + 1)); echo "PASS  $label ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); echo "FAIL  $label ($((SECONDS - start)) s)"; tail -5 "$tmp/log" | sed 's/^/      /'
  fi
}

for cpu in ${cpus//,/ }; do
  export QEMU_CPU=$cpu
  for m in ${models//,/ }; do
    dir=$shared/$m
    ref=$dir/reference
    case "$(meta "$ref/meta.json" format)" in
      non-combined) model=(--model_dir="$dir/$(meta "$ref/meta.json" model_dir)") ;;
      *) model=(--model_file="$dir/$(meta "$ref/meta.json" model_file)"
                --param_file="$dir/$(meta "$ref/meta.json" params_file)") ;;
    esac
    for targets in ${target_lists//:/ }; do
      run "$cpu $m $targets full" "$qemu" "$bin/tools/accuracy" --reference="$ref" --valid_targets="$targets"
      nb=$tmp/${m}_${targets/,/_}
      run "$cpu $m $targets .nb" bash -c '"$1" "$2" "${@:7}" --valid_targets="$3" --optimize_out="$4" &&
        "$1" "$5" --reference="$6" --optimized_model="$4.nb"' _ \
        "$qemu" "$bin/tools/opt" "$targets" "$nb" "$bin/tools/accuracy" "$ref" "${model[@]}"
    done
  done
done
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
