#!/usr/bin/env bash
# tools/standin_to_onnx.py end to end on each stand-in at 1x3x64x64 (dqn at its 1x4x84x84 of
# 0..255 values): the ONNX twin runs under
# ONNX Runtime (tools/ort_outputs.js) and our engine (tools/accuracy, on host and, on x86-64,
# on x86,host) gives ORT's outputs within the reference's tolerance (1e-4 + 1e-3 relative);
# the face detector with its post-processing is refused naming prior_box. Skipped, saying
# so, without Debian's python3-onnx or onnxruntime-node (NODE_PATH, default
# ~/ort-node/node_modules; ../shared/bench/README.md).
set -uo pipefail
EMU=${PADDLE_LITE_PLUS_RUN_AARCH64:-}  # runs the aarch64 build's tools under emulation
TMP=${TEST_TMPDIR:-$(mktemp -d)}/standin_onnx
mkdir -p "$TMP"
home=$(getent passwd "$(id -un)" | cut -d: -f6)
export NODE_PATH=${NODE_PATH:-$home/ort-node/node_modules}
if ! /usr/bin/python3 -c "import onnx" 2>/dev/null; then
  echo "standin_onnx_test: python3-onnx not installed (tools/setup.sh --bench); skipping"
  exit 0
fi
if ! node -e "require('onnxruntime-node')" 2>/dev/null; then
  echo "standin_onnx_test: onnxruntime-node not found on NODE_PATH=$NODE_PATH; skipping"
  exit 0
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

$EMU tools/make_standin_models --out="$TMP" >/dev/null ||
  { echo "make_standin_models failed"; exit 1; }
targets=(host)
[ -z "$EMU" ] && [ "$(uname -m)" = x86_64 ] && targets+=(x86,host)
# NAME:SHAPE:HIGH (the input uniform in [0, HIGH); dqn takes 0..255 frames at its fixed size).
for spec in restoration:1,3,64,64:1 face_detector_heads:1,3,64,64:1 portrait_seg:1,3,64,64:1 \
            googlenet:1,3,64,64:1 dqn:1,4,84,84:255; do
  IFS=: read -r m shape high <<<"$spec"
  if ! /usr/bin/python3 tools/standin_to_onnx.py "$TMP/$m" --shape="$shape" --high="$high" \
         >"$TMP/$m.log" 2>&1 ||
     ! node tools/ort_outputs.js "$TMP/$m/reference" >>"$TMP/$m.log" 2>&1; then
    fail "$m: conversion or ORT run"; cat "$TMP/$m.log"; continue
  fi
  for t in "${targets[@]}"; do
    $EMU tools/accuracy --reference="$TMP/$m/reference" --valid_targets="$t" >"$TMP/acc.log" 2>&1 ||
      { fail "$m on $t differs from ORT"; cat "$TMP/acc.log"; }
  done
done
if /usr/bin/python3 tools/standin_to_onnx.py "$TMP/face_detector" >"$TMP/fd.log" 2>&1; then
  fail "face_detector (prior_box, box_coder, multiclass_nms3) converted"
elif ! grep -q "op 'prior_box'" "$TMP/fd.log"; then
  fail "the refusal does not name prior_box"; cat "$TMP/fd.log"
fi
[ "$failures" -eq 0 ] && echo PASS
exit $((failures > 0))
