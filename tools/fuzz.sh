#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) and
# runs each for a bounded time on a corpus seeded from ../shared/models (and
# the generated default model):
#
#   bash tools/fuzz.sh [target|all] [seconds per target]     (all, 600)
#   bash tools/fuzz.sh --build_only [target|all]             (build, no run)
#
# Extra libFuzzer flags go in $FUZZ_ARGS (e.g. FUZZ_ARGS=-max_len=16384).
# Targets are every tests/fuzz/<t>_fuzzer.cc (each one a <t>_fuzzer binary in
# tests/fuzz/BUILD); a new target needs no change here: its corpus starts
# from tests/fuzz/regressions/<t>/, plus the seeds seed_corpus adds for it.
# tools/test.sh runs --build_only so the clang build cannot rot unnoticed.
# Clang builds in its own Bazel output base ($FUZZ_OUTPUT_BASE, default
# ~/.cache/bazel-fuzz) so it never mixes with the gcc build of
# `bazel test //...`; the seed tools (opt, make_default_model) come from the
# normal build (--symlink_prefix=/ keeps bazel-bin pointing at that one).
# The x86 kernels' OpenMP regions link clang's runtime (libomp) here, gcc's
# (libgomp) in the normal build: see //third_party:openmp.
# Work files go to $FUZZ_WORK (default out/fuzz): corpus/<t>/
# (seeds + what the fuzzer found), crashes/<t>/ (crash-*, leak-*, timeout-*),
# <t>.log. A crash makes the script exit 1 after the other targets ran;
# minimise it (<fuzzer> -minimize_crash=1 -runs=10000 crash-file), fix the
# engine, then keep the input in tests/fuzz/regressions/<t>/ so
# `bazel test //tests/fuzz:all` replays it.
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=0
if [ "${1:-}" = --build_only ]; then build_only=1; shift; fi
ALL_TARGETS=()
for f in tests/fuzz/*_fuzzer.cc; do
  f=${f##*/}
  ALL_TARGETS+=("${f%_fuzzer.cc}")
done
target=${1:-all}
seconds=${2:-600}
if [ "$target" = all ]; then targets=("${ALL_TARGETS[@]}"); else targets=("$target"); fi
for t in "${targets[@]}"; do
  case " ${ALL_TARGETS[*]} " in *" $t "*) ;; *)
    echo "fuzz: unknown target '$t' (one of: ${ALL_TARGETS[*]} all)" >&2; exit 2;;
  esac
done

# clang, its libFuzzer/sanitizer runtimes and its OpenMP runtime (Debian
# clang-14).
need=()
for p in clang-14 libclang-rt-14-dev libomp-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "fuzz: installing ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}"
fi

output_base=${FUZZ_OUTPUT_BASE:-$HOME/.cache/bazel-fuzz}
work=${FUZZ_WORK:-out/fuzz}
models=${LITE_SHARED_MODELS:-../shared/models}
mkdir -p "$work"

# clang, ASan + UBSan, coverage for libFuzzer (.bazelrc's asan_fuzz: the
# configuration tools/test.sh runs its ASan subset in, so both share objects).
fuzz_flags=(--config=asan_fuzz --symlink_prefix=/)
labels=()
for t in "${targets[@]}"; do labels+=("//tests/fuzz:${t}_fuzzer"); done
echo "== building ${labels[*]} with clang (output base $output_base)"
bazel --output_base="$output_base" build "${fuzz_flags[@]}" "${labels[@]}"
bin_dir=$(bazel --output_base="$output_base" info "${fuzz_flags[@]}" bazel-bin)
if [ $build_only = 1 ]; then
  echo "fuzz: built ${#labels[@]} target(s) in $bin_dir/tests/fuzz"
  exit 0
fi

echo "== building the seed tools (gcc)"
bazel build //tools:opt //tools:make_default_model
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
bazel-bin/tools/make_default_model --out="$seeds/default" >/dev/null
have_models=0
[ -d "$models" ] && have_models=1 || echo "fuzz: $models not found; seeding from the default model only"

# Optimized models: .nb, and combined protobuf (program + params) for the
# full predictor.
optimize() {  # name, opt model flags...
  local name=$1; shift
  bazel-bin/tools/opt "$@" --valid_targets=host --optimize_out="$seeds/$name" \
    --optimize_out_type=naive_buffer >/dev/null
  bazel-bin/tools/opt "$@" --valid_targets=host --optimize_out="$seeds/${name}_pb" \
    --optimize_out_type=protobuf >/dev/null
}
optimize default --model_dir="$seeds/default"
if [ $have_models = 1 ]; then
  optimize mnist --model_dir="$models/mnist_mlp_fluid2018"
fi

# Full-predictor seed: byte 0 even, u32 LE program size, program, params.
predictor_seed() {  # out, program file, params file
  { printf '\x00'
    python3 -c 'import os,struct,sys; sys.stdout.buffer.write(struct.pack("<I", os.path.getsize(sys.argv[1])))' "$2"
    cat "$2" "$3"; } > "$1"
}
# Light-predictor seed: byte 0 odd, then the .nb.
nb_seed() { { printf '\x01'; cat "$2"; } > "$1"; }

seed_corpus() {  # target -> fills $work/corpus/<target>
  local t=$1 dir=$work/corpus/$1
  mkdir -p "$dir"
  if [ -d "tests/fuzz/regressions/$t" ]; then
    cp tests/fuzz/regressions/"$t"/* "$dir/" 2>/dev/null || true
  fi
  case $t in
    program_desc)
      cp "$seeds/default/__model__" "$dir/default__model__"
      cp "$seeds/default_pb/__model__" "$dir/default_opt__model__"
      if [ $have_models = 1 ]; then
        # Every shared program under 200 KB (the 1.6 MB OCR ones slow it down).
        find "$models" -maxdepth 2 \( -name __model__ -o -name '*.pdmodel' \) -size -200k |
          while read -r f; do cp "$f" "$dir/$(basename "$(dirname "$f")")_$(basename "$f")"; done
      fi;;
    tensor_reader)
      cp "$seeds/default/__params__" "$dir/default__params__"
      if [ $have_models = 1 ]; then
        # Per-var records of the non-combined models, up to 16 KB each.
        for m in mnist_mlp_fluid2018 squeezenet_v1.1_caffe2fluid textcnn_seqconv_lod rna_bilstm_lod; do
          [ -d "$models/$m" ] || continue
          find "$models/$m" -maxdepth 1 -type f -size -16k ! -name '*.txt' ! -name '__model__' |
            while read -r f; do cp "$f" "$dir/${m}_$(basename "$f")"; done
        done
      fi;;
    nb_loader)
      for f in "$seeds"/*.nb; do cp "$f" "$dir/"; done;;
    pir_json)
      # Every shared Paddle 3 program.
      if [ $have_models = 1 ]; then
        find "$models" -maxdepth 2 -name '*.json' -path '*_pir*' |
          while read -r f; do cp "$f" "$dir/$(basename "$(dirname "$f")")_$(basename "$f")"; done
      fi;;
    predictor)
      predictor_seed "$dir/full_default" "$seeds/default/__model__" "$seeds/default/__params__"
      predictor_seed "$dir/full_default_opt" "$seeds/default_pb/__model__" "$seeds/default_pb/__params__"
      nb_seed "$dir/light_default" "$seeds/default.nb"
      if [ $have_models = 1 ]; then
        predictor_seed "$dir/full_mnist_opt" "$seeds/mnist_pb/__model__" "$seeds/mnist_pb/__params__"
        nb_seed "$dir/light_mnist" "$seeds/mnist.nb"
      fi;;
  esac
}

failed=()
summary=()
for t in "${targets[@]}"; do
  seed_corpus "$t"
  crashes=$work/crashes/$t
  mkdir -p "$crashes"
  log=$work/$t.log
  echo "== fuzzing $t for ${seconds}s (log $log)"
  start=$(date +%s)
  set +e
  # -rss_limit_mb bounds the process (tensors are capped at 64 MiB inside).
  "$bin_dir/tests/fuzz/${t}_fuzzer" "$work/corpus/$t" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$crashes/" ${FUZZ_ARGS:-} > "$log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  line="$t: ${execs:-?} execs in ${elapsed}s, corpus $(ls "$work/corpus/$t" | wc -l) files"
  if [ $rc -ne 0 ]; then
    line="$line, FAILED (exit $rc): $(ls "$crashes" | tr '\n' ' ')"
    failed+=("$t")
    grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error' "$log" || true
  fi
  summary+=("$line")
  echo "$line"
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]}; inputs under $work/crashes/" >&2
  exit 1
fi
