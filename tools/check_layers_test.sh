#!/usr/bin/env bash
# tools/check_layers.sh against small trees laid out by docs/architecture.md:
# downward includes, test code and own-component includes pass; an include
# into a higher layer or a sibling component fails naming the file and both
# layers; a checkout without the table is an error, not a pass.
set -uo pipefail
check=$(readlink -f "${TEST_SRCDIR}/${TEST_WORKSPACE}/tools/check_layers.sh")
table=$(readlink -f "${TEST_SRCDIR}/${TEST_WORKSPACE}/docs/architecture.md")
failures=0

# new_tree DIR: an empty checkout with the real layer table.
new_tree() {
  rm -rf "$1"
  mkdir -p "$1/docs"
  cp "$table" "$1/docs/architecture.md"
}
# add FILE INCLUDE: FILE (under the tree) includes INCLUDE.
add() {
  mkdir -p "$(dirname "$tree/$1")"
  printf '#include "%s"\n' "$2" >> "$tree/$1"
}
# expect CODE NAME [TEXT]: check_layers on $tree exits CODE (and prints TEXT).
expect() {
  local out code
  out=$(bash "$check" "$tree" 2>&1)
  code=$?
  if [ "$code" -ne "$1" ]; then
    echo "FAIL $2: exit $code, want $1; output:"; echo "$out"; failures=$((failures + 1))
  elif [ $# -ge 3 ] && ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL $2: output lacks '$3':"; echo "$out"; failures=$((failures + 1))
  else
    echo "ok   $2"
  fi
}

tree="$TEST_TMPDIR/clean"
new_tree "$tree"
add lite/base/tensor.h lite/utils/status.h
add lite/model_parser/tensor_io.h lite/base/tensor.h
add lite/core/op_lite.h lite/base/program_desc.h
add lite/operators/conv_op.h lite/core/op_lite.h
add lite/kernels/x86/conv.cc lite/backends/x86/dnnl_util.h
add lite/kernels/npu/bridges/conv.cc lite/kernels/npu/bridges/bridge.h
add lite/optimizer/passes/subgraph/pass.cc lite/optimizer/pass.h
add lite/api/paddle_api.cc lite/optimizer/pass.h
add tests/robustness/util.h tools/default_model.h
add lite/base/tensor_test.cc lite/api/paddle_api.h
add lite/kernels/x86/x86_test_util.h lite/api/paddle_api.h
printf '#pragma once\n' > "$tree/lite/base/no_includes.h"
expect 0 "downward, own-component and test includes pass" "every include points down"

tree="$TEST_TMPDIR/upward"
new_tree "$tree"
add lite/base/tensor.h lite/core/kernel.h
expect 1 "base including core fails" \
  "lite/base/tensor.h:1: includes lite/core/kernel.h: lite/base (layer 1) may not include lite/core (layer 3)"

tree="$TEST_TMPDIR/formats_up"
new_tree "$tree"
add lite/model_parser/naive_buffer/nb_writer.cc lite/api/version.h
expect 1 "a format including the API fails" "lite/model_parser (layer 2) may not include lite/api (layer 6)"

tree="$TEST_TMPDIR/sibling"
new_tree "$tree"
add lite/optimizer/passes/subgraph/npu_subgraph_pass.cc lite/kernels/npu/subgraph_converter.h
expect 1 "the graph layer including kernels fails" "lite/optimizer (layer 5) may not include lite/kernels (layer 5)"

tree="$TEST_TMPDIR/backend_up"
new_tree "$tree"
add lite/base/scope.h lite/utils/status.h
add lite/backends/x86/omp_ranges.h lite/core/kernel.h
expect 1 "a backend including core fails among clean files" "lite/backends/x86/omp_ranges.h:1:"

tree="$TEST_TMPDIR/no_table"
rm -rf "$tree"; mkdir -p "$tree/lite/core"
add lite/core/kernel.h lite/api/paddle_api.h
expect 2 "a checkout without the layer table is an error" "not found"

[ "$failures" -eq 0 ] || { echo "$failures case(s) failed"; exit 1; }
echo "all cases passed"
