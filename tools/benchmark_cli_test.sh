#!/usr/bin/env bash
# tools/benchmark on the generated default model: flags, the JSON last line,
# the profile tables (per op type and per op) summing to their totals, NPU
# placement, and one-line errors.
set -uo pipefail
# Under --config=aarch64 the test runs on the build machine and the aarch64
# programs through qemu (toolchains/aarch64/qemu.sh.in sets the variable).
EMU=${PADDLE_LITE_PLUS_RUN_AARCH64:-}
BENCH=tools/benchmark
MAKE=tools/make_default_model
TMP=${TEST_TMPDIR:-$(mktemp -d)}/bench_cli
mkdir -p "$TMP"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

$EMU "$MAKE" --out="$TMP/model" >/dev/null || { echo "cannot make the default model"; exit 1; }

$EMU "$BENCH" --model_dir="$TMP/model" --input_shape=2,3,32,32 --warmup=1 --repeats=5 --profile \
  --profile_ops >"$TMP/out" 2>&1 || { fail "benchmark failed"; cat "$TMP/out"; }
last=$(tail -n 1 "$TMP/out")
for key in median_ms min_ms mean_ms init_ms first_run_ms peak_rss_mb; do
  echo "$last" | grep -q "\"$key\":[0-9.]" || fail "JSON last line lacks $key: $last"
done
grep -q "input  x \[2, 3, 32, 32\]" "$TMP/out" || fail "--input_shape not used"
grep -q "^peak RSS: [0-9.]* MB" "$TMP/out" || fail "no peak RSS line"
# Profile rows (between the header and the total line) sum to the total.
awk '/^op type/{on=1; next} on && /^total/{total=$2; on=0} on{sum+=$(NF-3)} END{
  if (total <= 0) { print "no total"; exit 1 }
  d = sum - total; if (d < 0) d = -d;
  if (d > 0.01 + 0.001 * total) { printf "rows %.4f vs total %.4f\n", sum, total; exit 1 } }' \
  "$TMP/out" || fail "profile rows do not sum to the total"
grep -q "^conv2d .* [0-9.]\+  [^ ]\+$" "$TMP/out" || fail "no GFLOP/s for conv2d"
# Per-op rows: one per op of the per-type table (its ops column), in program
# order (indices 0, 1, ...), summing to their total; convs with GFLOP/s.
ops=$(awk '/^op type/{on=1; next} on && /^total/{on=0} on{n+=$(NF-4)} END{print n}' "$TMP/out")
awk -v ops="$ops" '/^profile by op/{on=1; getline; next} on && $1=="total"{total=$(NF-1); on=0}
  on{if ($1 != n) { print "row " n " numbered " $1; exit 1 } sum+=$(NF-3); n++} END{
  if (n != ops || n == 0) { printf "%d per-op rows for %d ops\n", n, ops; exit 1 }
  d = sum - total; if (d < 0) d = -d;
  if (d > 0.01 + 0.001 * total) { printf "rows %.4f vs total %.4f\n", sum, total; exit 1 } }' \
  "$TMP/out" || fail "per-op profile rows"
awk '/^profile by op/{on=1} on && $2=="conv2d" && $(NF-1) ~ /^[0-9.]+$/{ok=1} END{exit !ok}' \
  "$TMP/out" || fail "no GFLOP/s for a conv2d in the per-op profile"

$EMU "$BENCH" --model_dir="$TMP/model" --valid_targets=npu,host --npu_driver=reference --repeats=2 \
  >"$TMP/npu" 2>&1 || { fail "npu benchmark failed"; cat "$TMP/npu"; }
grep -q "^placement: npu/reference: 7 of 7 ops in 1 subgraph" "$TMP/npu" || fail "npu placement line"

$EMU "$BENCH" --model_dir="$TMP/missing" 2>"$TMP/err" >/dev/null && fail "missing model exited 0"
grep -q "^benchmark: error: " "$TMP/err" || fail "error line"
$EMU "$BENCH" --model_dir="$TMP/model" --npu_strict 2>"$TMP/err2" >/dev/null && fail "npu flag without npu exited 0"
grep -q "needs npu among --valid_targets" "$TMP/err2" || fail "inert npu flag not refused"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all benchmark CLI checks passed"
