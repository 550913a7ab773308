#!/usr/bin/env bash
# tools/nb_diff on ppocr_cls_mobile_v2.0 (../shared/models; skipped without
# it): an .nb against itself differs nowhere and lists every op output in
# program order ending with the model's output; against the --enable_fp16
# .nb (where the CPU has half arithmetic) the convs differ; two different
# programs are an error naming the first output where they part.
set -uo pipefail
EMU=${PADDLE_LITE_PLUS_RUN_AARCH64:-}
OPT=tools/opt
DIFF=tools/nb_diff
TMP=${TEST_TMPDIR:-$(mktemp -d)}/nb_diff
mkdir -p "$TMP"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

root=$(dirname "$(realpath lite/model_parser/test_models.cc)")/../..
models=${LITE_SHARED_MODELS:-$root/../shared/models}
M=$models/ppocr_cls_mobile_v2.0
if [ ! -d "$M" ]; then
  echo "nb_diff_test: $M not found; skipping"
  exit 0
fi
opt() { $EMU "$OPT" --model_dir="$M" --valid_targets=arm,host "$@" >"$TMP/opt.log" 2>&1; }
opt --optimize_out="$TMP/cls" || { cat "$TMP/opt.log"; exit 1; }

$EMU "$DIFF" --reference="$M/reference" --base="$TMP/cls.nb" --test="$TMP/cls.nb" >"$TMP/self" 2>&1 ||
  { fail "self comparison failed"; cat "$TMP/self"; }
# Columns: index, op, K, max|base|, max|diff|, rel_l2, nonfinite, var, shape.
awk 'NR > 1 && ($5 != 0 || $7 != 0) { print; bad = 1 } END { exit bad }' "$TMP/self" ||
  fail "an .nb differs from itself"
awk 'NR > 1 && $1 != NR - 2 { print "row " NR " numbered " $1; exit 1 }' "$TMP/self" ||
  fail "rows not numbered in program order"
[ "$(grep -c ' conv2d ' "$TMP/self")" -gt 0 ] || fail "no conv2d rows"
tail -n 1 "$TMP/self" | grep -q "softmax_0.tmp_0 \[1, 2\]" || fail "last row is not the output"

if opt --optimize_out="$TMP/cls_fp16" --enable_fp16; then
  $EMU "$DIFF" --reference="$M/reference" --base="$TMP/cls.nb" --test="$TMP/cls_fp16.nb" \
    >"$TMP/fp16" 2>&1 || { fail "fp16 comparison failed"; cat "$TMP/fp16"; }
  awk '$2 == "conv2d" && $5 > 0 { n++ } END { exit n == 0 }' "$TMP/fp16" ||
    fail "fp16 convs do not differ from fp32"
else
  grep -q "half-precision arithmetic" "$TMP/opt.log" || { fail "opt --enable_fp16"; cat "$TMP/opt.log"; }
fi

$EMU "$OPT" --model_dir="$models/mobilenetv3_small_x0_35_3cls" --valid_targets=arm,host \
  --optimize_out="$TMP/other" >/dev/null 2>&1 || fail "opt on mobilenetv3"
if $EMU "$DIFF" --reference="$M/reference" --base="$TMP/cls.nb" --test="$TMP/other.nb" \
  >"$TMP/err" 2>&1; then
  fail "different programs accepted"
fi
grep -q "^nb_diff: error: " "$TMP/err" || { fail "no one-line error"; cat "$TMP/err"; }

[ "$failures" -eq 0 ] && echo "PASS" || exit 1
