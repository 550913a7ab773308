#!/usr/bin/env bash
# The instruction-counting plugin loads into qemu-aarch64 and counts: the
# same deterministic program counted twice gives the same count (within 1%),
# twice the work counts about twice (1.9x to 2.1x), the count is at least the
# loop's iterations, mode=exact agrees with the default inline mode and its
# main-thread count (vcpu0) is the whole count of this one-thread program.
set -euo pipefail
here=tools/insn_count
plugin=$PWD/$here/libinsn_count.so
for tool in qemu-aarch64 aarch64-linux-gnu-gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not installed (tools/setup_aarch64.sh installs it)"
    exit 0
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aarch64-linux-gnu-gcc -O1 -static -o "$tmp/work" "$here/work.c"

count() {  # count MODE ITERATIONS [LINE] -> instructions executed
  QEMU_CPU=cortex-a72 qemu-aarch64 -plugin "$plugin,out=$tmp/c,mode=$1" "$tmp/work" "$2"
  awk -v k="${3:-insns}" '$1 == k { print $2 }' "$tmp/c"
}
n=2000000
a=$(count inline $n)
b=$(count inline $n)
c=$(count inline $((2 * n)))
e=$(count exact $n)
m=$(count exact $n vcpu0)
echo "inline $n: $a and $b; inline $((2 * n)): $c; exact $n: $e, main thread $m"
awk -v a="$a" -v b="$b" -v c="$c" -v e="$e" -v m="$m" -v n="$n" 'BEGIN {
  fail = 0
  if (a < n) { print "FAIL: fewer instructions than iterations"; fail = 1 }
  d = a > b ? a - b : b - a
  if (d > 0.01 * a) { print "FAIL: two counts of one program differ by more than 1%"; fail = 1 }
  r = c / a
  if (r < 1.9 || r > 2.1) { printf "FAIL: twice the work counted %.3fx\n", r; fail = 1 }
  d = a > e ? a - e : e - a
  if (d > 0.01 * a) { print "FAIL: mode=exact and mode=inline disagree"; fail = 1 }
  if (m != e) { print "FAIL: the main thread count of a one-thread program differs from its total"; fail = 1 }
  exit fail
}'
# blocks=: per-block lines "INSNS FILE OFFSET SYMBOL".
QEMU_CPU=cortex-a72 qemu-aarch64 -plugin "$plugin,out=$tmp/c,blocks=$tmp/b" "$tmp/work" "$n"
total=$(awk '$1 == "insns" { print $2 }' "$tmp/c")
awk -v total="$total" -v exe="$tmp/work" -v n="$n" '
  { sum += $1; if ($4 == "main") in_main += $1; if ($2 == exe) in_exe += $1 }
  END {
    fail = 0
    if (sum != total) { printf "FAIL: blocks add up to %d, the total is %d\n", sum, total; fail = 1 }
    if (in_exe != sum) { print "FAIL: blocks of a static program outside its file"; fail = 1 }
    if (in_main < 0.9 * sum || in_main < n) { print "FAIL: the loop is not counted in main"; fail = 1 }
    exit fail
  }' "$tmp/b"
# An unknown argument refuses the load (no ignored option).
if QEMU_CPU=cortex-a72 qemu-aarch64 -plugin "$plugin,bogus=1" "$tmp/work" 1 2>/dev/null; then
  echo "FAIL: an unknown plugin argument was accepted"
  exit 1
fi
echo PASS
