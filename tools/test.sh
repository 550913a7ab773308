#!/usr/bin/env bash
# Every test: installs what is missing (tools/setup.sh), runs the whole
# Bazel test suite, then the ASan + UBSan subset (the robustness suite, the
# leak loop, the loaders' tests and the fuzz regressions, where hostile input
# meets the engine), then builds every libFuzzer target with clang
# (tools/fuzz.sh --build_only; running them is tools/fuzz.sh's job).
# This is the README's test command and exactly what .ci/run runs.
set -uo pipefail
cd "$(dirname "$0")/.."

# Hostile-input tests rebuilt with AddressSanitizer + UndefinedBehaviorSanitizer
# (LeakSanitizer included): keep this list small, it builds the engine twice.
asan_subset=(
  //tests/robustness/...
  //tests:leak_loop_test
  //lite/model_parser/...
  //tests/fuzz/...
)

bash tools/setup.sh || exit 1
bazel test //...
status=$?
echo "== ASan + UBSan subset: ${asan_subset[*]}"
bazel test --config=asan "${asan_subset[@]}"
asan_status=$?
echo "== fuzz targets (clang build only)"
bash tools/fuzz.sh --build_only all
fuzz_status=$?
[ "$status" -ne 0 ] && exit "$status"
[ "$asan_status" -ne 0 ] && exit "$asan_status"
exit "$fuzz_status"
