#!/usr/bin/env bash
# Command-line behaviour of tools/opt (and run_model on its output): exit
# codes, the one-line "opt: error: <reason>" on failures, both output
# formats, --visualize_dir. Runs from the runfiles root (bazel test).
set -u  # no pipefail: `cmd | grep -q` may SIGPIPE cmd

# Under --config=aarch64 the test runs on the build machine and the aarch64
# programs through qemu (toolchains/aarch64/qemu.sh.in sets the variable).
EMU=${PADDLE_LITE_PLUS_RUN_AARCH64:-}
OPT=tools/opt
RUN=tools/run_model
MAKE=tools/make_default_model
TMP="${TEST_TMPDIR:-$(mktemp -d)}/opt_cli"
rm -rf "$TMP" && mkdir -p "$TMP"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_error <substring> <args...>: non-zero exit, exactly one stderr line
# starting with "opt: error: " that contains <substring>.
expect_error() {
  local needle="$1"; shift
  $EMU "$OPT" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  local lines; lines=$(wc -l <"$TMP/err")
  if [ "$rc" -eq 0 ]; then fail "opt $* exited 0"; fi
  if [ "$lines" -ne 1 ]; then fail "opt $*: $lines stderr lines:"; cat "$TMP/err"; fi
  if ! head -1 "$TMP/err" | grep -q "^opt: error: .*$needle"; then
    fail "opt $*: stderr lacks 'opt: error: ...$needle':"; cat "$TMP/err"
  else
    echo "ok: opt $* -> $(cat "$TMP/err")"
  fi
}

expect_error "$TMP/missing_model" --model_dir="$TMP/missing_model" --optimize_out="$TMP/x"
expect_error "bogus" --model_dir="$TMP/missing_model" --optimize_out="$TMP/x" \
  --optimize_out_type=bogus
expect_error "unknown target 'gpu'" --valid_targets=gpu --print_supported_ops
# The aarch64 build has no x86 target: x86 is refused, naming the build.
if [ -n "$EMU" ]; then
  expect_error "valid place x86 is not available in this build (aarch64: built without the x86 target); use arm,host or host" \
    --valid_targets=x86,host --print_supported_ops
fi
expect_error "no model" --optimize_out="$TMP/x"
expect_error "go together" --model_file="$TMP/m" --optimize_out="$TMP/x"

$EMU "$MAKE" --out="$TMP/default_model" >/dev/null || fail "make_default_model failed"

# naive_buffer + visualization
if $EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/model" \
    --visualize_dir="$TMP/vis" >"$TMP/opt.log" 2>&1; then
  [ -f "$TMP/model.nb" ] || fail "no $TMP/model.nb"
  [ "$(head -c 6 "$TMP/model.nb")" = "LITENB" ] || fail "model.nb lacks the magic"
  [ -f "$TMP/vis/00_loaded.dot" ] || fail "no 00_loaded.dot"
  ls "$TMP/vis" | grep -Eq '^[0-9][0-9]_.*_pass\.dot$' || fail "no NN_<pass>.dot"
  grep -q "static_kernel_pick_pass" "$TMP/opt.log" || fail "pass lines missing"
  grep -q "summary: ops 14 -> " "$TMP/opt.log" || fail "summary missing"
  echo "ok: naive_buffer + visualize"
else
  fail "opt naive_buffer failed:"; cat "$TMP/opt.log"
fi

# visualization after one named pass only
expect_error "--visualize_mode must be" --model_dir="$TMP/default_model" \
  --optimize_out="$TMP/x" --visualize_dir="$TMP/vis_bad" --visualize_mode=bogus
$EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/named" \
  --visualize_dir="$TMP/vis_named" --visualize_mode=conv_bn_fuse_pass >/dev/null 2>&1 ||
  fail "opt --visualize_mode=conv_bn_fuse_pass failed"
[ "$(ls "$TMP/vis_named" | grep -c '\.dot$')" = 2 ] || fail "named mode should write 2 DOT files"
ls "$TMP/vis_named" | grep -q '_conv_bn_fuse_pass\.dot$' || fail "no conv_bn_fuse_pass DOT"
echo "ok: named visualization"

# protobuf
if $EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/pb" \
    --optimize_out_type=protobuf --valid_targets=host >"$TMP/pb.log" 2>&1; then
  [ -f "$TMP/pb/__model__" ] && [ -f "$TMP/pb/__params__" ] || fail "protobuf files missing"
  echo "ok: protobuf"
else
  fail "opt protobuf failed:"; cat "$TMP/pb.log"
fi

# an option opt cannot honour is refused, not ignored
$EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/cc" --valid_targets=npu,host \
    --npu_cross_check 2>"$TMP/cc_err" >/dev/null && fail "opt --npu_cross_check exited 0"
grep -q "npu_cross_check compares outputs while running" "$TMP/cc_err" || fail "cross-check refusal"

# print-only modes exit 0
$EMU "$OPT" --print_all_ops | grep -q "^conv2d " || fail "--print_all_ops lacks conv2d"
$EMU "$OPT" --display_kernels | grep -q "^conv2d/" || fail "--display_kernels lacks conv2d"
$EMU "$OPT" --model_dir="$TMP/default_model" --print_model_ops | grep -q "all supported" \
  || fail "--print_model_ops"

# driver plugins: --print_drivers lists the sample plugin with its version
# and file; opt optimizes for it and run_model runs the .nb on it.
mkdir -p "$TMP/drivers" && cp examples/npu_plugin/sample_ref_npu_driver.so "$TMP/drivers/"
echo "notes" >"$TMP/drivers/notes.txt"
$EMU "$OPT" --print_drivers --npu_driver_paths="$TMP/drivers" >"$TMP/drivers.log" 2>&1 \
  || { fail "--print_drivers with a plugin"; cat "$TMP/drivers.log"; }
grep -q "^  sample_ref  abi 1.2  version 1.0.0  $TMP/drivers/sample_ref_npu_driver.so$" \
  "$TMP/drivers.log" || { fail "--print_drivers lacks the plugin line"; cat "$TMP/drivers.log"; }
grep -q "^  reference  api 1.3  built in$" "$TMP/drivers.log" || fail "--print_drivers built-in line"
grep -q "^  ignored: $TMP/drivers/notes.txt: not named" "$TMP/drivers.log" \
  || fail "--print_drivers lacks the ignored file"
LITE_NPU_DRIVER_PATH="$TMP/drivers" $EMU "$OPT" --print_drivers | grep -q "^  sample_ref " \
  || fail "LITE_NPU_DRIVER_PATH not scanned"
$EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/plugin" --valid_targets=npu,host \
    --npu_driver=sample_ref --npu_driver_paths="$TMP/drivers" --npu_strict >"$TMP/plugin.log" 2>&1 \
  || { fail "opt with the plugin driver"; cat "$TMP/plugin.log"; }
LITE_NPU_DRIVER_PATH="$TMP/drivers" $EMU "$RUN" --optimized_model="$TMP/plugin.nb" --npu_strict \
    --repeats=1 >"$TMP/run_plugin.log" 2>&1 || { fail "run_model on the plugin"; cat "$TMP/run_plugin.log"; }
grep -q "npu/sample_ref: .* no fallback" "$TMP/run_plugin.log" \
  || { fail "run_model did not run on sample_ref"; cat "$TMP/run_plugin.log"; }
expect_error "needs npu among --valid_targets" --model_dir="$TMP/default_model" \
  --optimize_out="$TMP/x" --npu_driver_paths="$TMP/drivers"
expect_error "is not a directory" --model_dir="$TMP/default_model" --optimize_out="$TMP/x" \
  --valid_targets=npu,host --npu_driver_paths="$TMP/no_such_dir"

# A failing model leaves no output: nothing appears under the output name
# (an earlier model there stays byte-identical) and no temporary file is left.
# Op type "softmax" patched in place to "softmaz" (same length, so the
# protobuf stays well-formed): an op no target supports.
mkdir -p "$TMP/unsupported"
cp "$TMP/default_model/__params__" "$TMP/unsupported/"
sed 's/softmax/softmaz/g' "$TMP/default_model/__model__" >"$TMP/unsupported/__model__"
$EMU "$OPT" --model_dir="$TMP/unsupported" --print_model_ops >"$TMP/ops.log" 2>"$TMP/err" \
  && fail "--print_model_ops on an unsupported op exited 0"
grep -q "^softmaz .* NO$" "$TMP/ops.log" || { fail "--print_model_ops table lacks softmaz"; cat "$TMP/ops.log"; }
grep -q "unsupported: softmaz x1 (closest supported: softmax)" "$TMP/ops.log" \
  || { fail "--print_model_ops footer"; cat "$TMP/ops.log"; }
grep -q "^opt: error: 1 op type(s) of the model have no kernel for host: softmaz x1 (closest supported: softmax)$" \
  "$TMP/err" || { fail "--print_model_ops error line"; cat "$TMP/err"; }
mkdir -p "$TMP/atomic"
expect_error "softmaz" --model_dir="$TMP/unsupported" --optimize_out="$TMP/atomic/model"
expect_error "softmaz" --model_dir="$TMP/unsupported" --optimize_out="$TMP/atomic/pb" \
  --optimize_out_type=protobuf
# A program the validator refuses: the first "fc.out" is its VarDesc (vars
# precede ops in a BlockDesc), renamed so the softmax reads an undeclared var.
mkdir -p "$TMP/invalid"
cp "$TMP/default_model/__params__" "$TMP/invalid/"
perl -0777 -pe 's/fc\.out/fc.ouX/' "$TMP/default_model/__model__" >"$TMP/invalid/__model__"
expect_error "reads var 'fc.out' (input X) that no block declares" --model_dir="$TMP/invalid" \
  --optimize_out="$TMP/atomic/model"
# Fails after writing, while loading the written model back (thread limit):
# an earlier output under the name survives unchanged.
cp "$TMP/model.nb" "$TMP/atomic/kept.nb"
expect_error "threads = 300" --model_dir="$TMP/default_model" --optimize_out="$TMP/atomic/kept" \
  --threads=300
cmp -s "$TMP/model.nb" "$TMP/atomic/kept.nb" || fail "a failing opt changed the existing kept.nb"
expect_error "threads = 300" --model_dir="$TMP/default_model" --optimize_out="$TMP/atomic/pb" \
  --optimize_out_type=protobuf --threads=300
[ "$(ls -A "$TMP/atomic")" = "kept.nb" ] \
  || { fail "failing runs left files: $(ls -A "$TMP/atomic" | tr '\n' ' ')"; }
echo "ok: failing models leave no output"

# --quantize=int8: calibration on generated .bin samples of the default model
# (x [1,3,32,32]); bad calibration input is one error line and no output file.
mkdir -p "$TMP/calib" "$TMP/calib_empty" "$TMP/calib_bad" "$TMP/quant"
for i in 0 1 2; do head -c $((3 * 32 * 32 * 4)) /dev/zero | tr '\0' '\076' >"$TMP/calib/s$i.bin"; done
head -c 100 /dev/zero >"$TMP/calib_bad/short.bin"
# int8 convs need an int8 conv kernel: the x86 target's, or on aarch64 (no
# x86 target) the XNNPACK driver's.
quant_targets=x86
[ -n "$EMU" ] && quant_targets=npu,host
Q=(--model_dir="$TMP/default_model" --valid_targets="$quant_targets")
expect_error "need --quantize=int8" "${Q[@]}" --optimize_out="$TMP/quant/m" --calibration_dir="$TMP/calib"
expect_error "--quantize must be int8" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int4 \
  --calibration_dir="$TMP/calib"
expect_error "needs --calibration_dir" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8
expect_error "needs --optimize_out" "${Q[@]}" --print_model_ops --quantize=int8 \
  --calibration_dir="$TMP/calib"
expect_error "$TMP/calib_missing" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8 \
  --calibration_dir="$TMP/calib_missing"
expect_error "$TMP/calib_empty" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8 \
  --calibration_dir="$TMP/calib_empty"
expect_error "$TMP/calib_bad/short.bin has 100 bytes" "${Q[@]}" --optimize_out="$TMP/quant/m" \
  --quantize=int8 --calibration_dir="$TMP/calib_bad"
expect_error "got 'entropy'" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8 \
  --calibration_dir="$TMP/calib" --calibration_method=entropy
expect_error "'fc'" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8 \
  --calibration_dir="$TMP/calib" --quantize_op_types=conv2d,fc
[ -z "$(ls -A "$TMP/quant")" ] || fail "failing --quantize runs left files: $(ls -A "$TMP/quant")"
if $EMU "$OPT" "${Q[@]}" --optimize_out="$TMP/quant/m" --quantize=int8 --calibration_dir="$TMP/calib" \
    --calibration_method=percentile >"$TMP/quant.log" 2>&1; then
  [ -f "$TMP/quant/m.nb" ] || fail "no $TMP/quant/m.nb"
  grep -q "calibrating (percentile) on 3 sample(s)" "$TMP/quant.log" || fail "calibration line"
  grep -q "quant_dequant_fuse_pass .*made_int8=2" "$TMP/quant.log" || fail "2 int8 convs expected"
  grep -q "^int8 ops: 2$" "$TMP/quant.log" || fail "int8 outcome line"
  grep -q "^  prob: max |int8 - fp32| " "$TMP/quant.log" || fail "accuracy line missing"
  echo "ok: --quantize=int8"
else
  fail "opt --quantize=int8"; cat "$TMP/quant.log"
fi

# run_model on both outputs gives the same printed output
$EMU "$RUN" --optimized_model="$TMP/model.nb" --repeats=2 >"$TMP/run_nb.log" 2>&1 \
  || { fail "run_model .nb"; cat "$TMP/run_nb.log"; }
$EMU "$RUN" --model_dir="$TMP/pb" --repeats=2 >"$TMP/run_pb.log" 2>&1 \
  || { fail "run_model protobuf"; cat "$TMP/run_pb.log"; }
grep -q "^output prob \[1, 10\]" "$TMP/run_nb.log" || fail "run_model output line"
# without --input_shape the inputs take the declared feed dims ([-1,3,32,32]), -1 read as 1
for log in run_nb run_pb; do
  grep -q "^input  x \[1, 3, 32, 32\] (generated" "$TMP/$log.log" || fail "$log: generated input line"
done
diff <(grep -A2 "^output" "$TMP/run_nb.log") <(grep -A2 "^output" "$TMP/run_pb.log") \
  || fail "light and full outputs differ"
$EMU "$RUN" --optimized_model="$TMP/missing.nb" 2>"$TMP/err" >/dev/null \
  && fail "run_model on a missing file exited 0"
grep -q "^run_model: error: .*missing.nb" "$TMP/err" || fail "run_model error line"

# compiled subgraphs in the .nb: stored by --npu_save_compiled, loaded by
# run_model only with --npu_trust_compiled_code (otherwise compiled again).
$EMU "$OPT" --model_dir="$TMP/default_model" --optimize_out="$TMP/compiled" --valid_targets=npu,host \
  --npu_driver=reference --npu_save_compiled >"$TMP/compiled.log" 2>&1 \
  || { fail "opt --npu_save_compiled"; cat "$TMP/compiled.log"; }
grep -q "^npu: 1 of 1 subgraph(s) compiled and stored in the model" "$TMP/compiled.log" \
  || { fail "--npu_save_compiled summary"; cat "$TMP/compiled.log"; }
$EMU "$RUN" --optimized_model="$TMP/compiled.nb" --repeats=1 --npu_trust_compiled_code \
  >"$TMP/trusted.log" 2>&1 || fail "run_model --npu_trust_compiled_code"
grep -q "compiled 0, loaded 1" "$TMP/trusted.log" || { fail "trusted load"; cat "$TMP/trusted.log"; }
$EMU "$RUN" --optimized_model="$TMP/compiled.nb" --repeats=1 >"$TMP/untrusted.log" 2>&1 \
  || fail "run_model without trust"
grep -q "not loaded without the trust_compiled_code option" "$TMP/untrusted.log" \
  || { fail "untrusted load line"; cat "$TMP/untrusted.log"; }
grep -q "compiled 1, loaded 0" "$TMP/untrusted.log" || fail "untrusted load compiles"
expect_error "--npu_save_compiled needs npu among --valid_targets" \
  --model_dir="$TMP/default_model" --optimize_out="$TMP/x" --npu_save_compiled

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all opt CLI checks passed"
