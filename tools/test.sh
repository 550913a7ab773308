#!/usr/bin/env bash
# Every test: installs what is missing (tools/setup.sh), checks that every
# include points down the layers of docs/architecture.md (tools/check_layers.sh),
# runs the whole Bazel test suite, then the tests whose behaviour depends on
# the build flags again built portable (--config=portable: -march=x86-64,
# none of the AVX-512 kernels compiled in, as tools/build_wheel.sh
# --config=portable ships: the x86 and host kernels, the passes whose
# fusions need an own kernel, the real models on x86), then the aarch64 cross
# build's subset under qemu (docs/aarch64.md), then builds every libFuzzer
# target with clang (tools/fuzz.sh --build_only; running them is fuzz.sh's
# job) and runs the ASan + UBSan subset against the same objects (the
# robustness suite, the leak loop, the loaders' tests and the fuzz
# regressions, where hostile input meets the engine), then the Python tests
# (tools/python_test.sh: the wheel installed in a fresh venv, pytest).
# This is the README's test command and exactly what .ci/run runs.
set -uo pipefail
cd "$(dirname "$0")/.."

# Built portable: the tests whose results or kernel choices depend on the
# compiler flags (every fallback path and every kernel choice that depends on
# the build); the rest of the suite does not change with -march.
portable_subset=(
  //lite/kernels/x86/...
  //lite/backends/x86/...
  //lite/backends/host/...
  //lite/kernels/host/...
  //lite/optimizer/...
  //tests:x86_models_test
  //tests:fusion_models_test
  //tests:quant_intermediates_test
  //tests:pir_int8_test
)

# Hostile-input tests rebuilt with AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer included), with clang in the fuzz targets' output base and
# configuration (.bazelrc's asan_fuzz): the engine objects compiled for the
# fuzzers serve these tests too, so the engine is compiled once for both.
asan_subset=(
  //tests/robustness/...
  //tests:leak_loop_test
  //tests:variable_size_leak_test
  //lite/model_parser/...
  //tests/fuzz/...
  //lite/ocr/...
  # the xnnpack driver's own convs read input rows in place
  //lite/backends/npu/xnnpack:own_convs_test
)

# The aarch64 cross build (docs/aarch64.md), kept to a subset on a 2-core CI
# machine: the tests below under qemu with both emulated CPUs (the test
# binaries are compiled once; the second CPU only reruns them), and
# tools/accuracy on the small shared models (host, npu,host and arm,host,
# full and light predictor); the family stand-ins on host, npu,host (every
# driver, the sample plugin) and arm,host (tests:standin_mixes_test). The
# whole aarch64 suite: bazel test --config=aarch64
# //lite/... //tests/... //tools/... //python/... //examples/...
aarch64_subset=(
  //third_party:system_libraries_test
  //tools:opt_cli_test
  //lite/api:light_api_test
  //lite/utils:heap_room_test
  //lite/backends/npu/...
  //lite/kernels/arm/...
  //tests:standin_mixes_test
)
aarch64_models=mnist_mlp_fluid2018,ppocr_cls_mobile_v2.0,pplcnet_x0_25_textline_ori_pir,ppocr_cls_mobile_v2.0_slim_quant,textcnn_seqconv_lod

bash tools/setup.sh || exit 1
bash tools/check_layers.sh
layers_status=$?
bazel test //...
status=$?
# In an output base of its own, so the two configurations do not evict each
# other's outputs, without convenience links (//... would descend into the
# main base's).
echo "== portable build (--config=portable): ${portable_subset[*]}"
portable_base="$HOME/.cache/paddle_lite_plus_portable"
bazel --output_base="$portable_base" test --config=portable --symlink_prefix=/ \
  "${portable_subset[@]}"
portable_status=$?
bazel --output_base="$portable_base" shutdown
echo "== aarch64 cross build under qemu: ${aarch64_subset[*]}"
aarch64_status=0
for cpu in cortex-a72 max; do
  QEMU_CPU=$cpu bazel test --config=aarch64 "${aarch64_subset[@]}" || aarch64_status=1
done
bash tools/aarch64_accuracy.sh --models="$aarch64_models" --targets=host:npu,host:arm,host ||
  aarch64_status=1
echo "== fuzz targets (clang build only), then the ASan + UBSan subset on the same objects"
bash tools/fuzz.sh --build_only all
fuzz_status=$?
echo "== ASan + UBSan subset (clang, --config=asan_fuzz): ${asan_subset[*]}"
fuzz_base=${FUZZ_OUTPUT_BASE:-$HOME/.cache/bazel-fuzz}
bazel --output_base="$fuzz_base" test --config=asan_fuzz --symlink_prefix=/ "${asan_subset[@]}"
asan_status=$?
bazel --output_base="$fuzz_base" shutdown
echo "== Python: wheel in a fresh venv, pytest"
bash tools/python_test.sh
python_status=$?
for s in "$layers_status" "$status" "$portable_status" "$aarch64_status" "$asan_status" "$python_status"; do
  [ "$s" -ne 0 ] && exit "$s"
done
exit "$fuzz_status"
