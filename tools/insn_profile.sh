#!/usr/bin/env bash
# Where the instructions of an emulated aarch64 run go (docs/arm.md): runs a
# program under qemu-aarch64 with tools/insn_count's plugin in blocks= mode
# and prints the functions that executed the most guest instructions, with
# the file (executable or shared library) they are in.
#
#   tools/insn_profile.sh [--top=N] [--diff_repeats=A,B] -- PROGRAM ARGS...
#
# Symbols: the main executable's from qemu; a shared library's from its
# dynamic symbol table (aarch64-linux-gnu-nm -D), each block given to the
# nearest exported symbol at or below it, so a library's internal (hidden)
# functions are counted under the exported one that precedes them (shown as
# "SYMBOL+", a region, not a function). A block's offset in its file is
# taken as its address in the library: Debian's aarch64 libraries load
# their code segment from file offset 0 at address 0. --diff_repeats=A,B runs the program
# twice, appending --repeats=A and --repeats=B, and prints
# (count(B) - count(A)) / (B - A) per function: the steady-state cost of one
# repeat (tools/benchmark: one inference), without loading and set-up.
# QEMU_CPU picks the emulated CPU; the guest prefix (-L) is the sysroot of
# tools/setup_aarch64.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
top=30
diff=
while [ $# -gt 0 ]; do
  case "$1" in
    --top=*) top=${1#--top=} ;;
    --diff_repeats=*) diff=${1#--diff_repeats=} ;;
    --) shift; break ;;
    *) echo "insn_profile: unknown argument '$1'" >&2; exit 1 ;;
  esac
  shift
done
[ $# -ge 1 ] || { echo "insn_profile: no program after --" >&2; exit 1; }
root=${PADDLE_LITE_PLUS_AARCH64:-$HOME/.cache/paddle_lite_plus_aarch64}
bazel build //tools/insn_count:libinsn_count.so >/dev/null 2>&1
plugin=$(bazel info bazel-bin 2>/dev/null)/tools/insn_count/libinsn_count.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # run OUT ARGS... -> per-block lines in OUT, symbols resolved
  qemu-aarch64 -L "$root/sysroot" -plugin "$plugin,blocks=$tmp/raw,out=$tmp/c" "${@:2}" \
    >"$tmp/log" 2>&1 || { echo "insn_profile: failed: ${*:2}" >&2; tail -5 "$tmp/log" >&2; exit 1; }
  # Dynamic symbols of each library that ran, sorted by address.
  awk '$4 == "-" && $2 ~ /\.so/ { print $2 }' "$tmp/raw" | sort -u | while read -r lib; do
    aarch64-linux-gnu-nm -D --defined-only "$lib" 2>/dev/null |
      awk -v l="$lib" '$2 ~ /^[TtWi]$/ { print l, $1, $3 }'
  done | sort -k1,1 -k2,2 >"$tmp/syms"
  python3 - "$tmp/raw" "$tmp/syms" >"$1" <<'PY'
import bisect, collections, sys
syms = collections.defaultdict(list)
for line in open(sys.argv[2]):
    lib, addr, name = line.split()
    syms[lib].append((int(addr, 16), name))
for v in syms.values(): v.sort()
keys = {lib: [a for a, _ in v] for lib, v in syms.items()}
total = collections.Counter()
for line in open(sys.argv[1]):
    n, path, off, sym = line.split(" ", 3)
    sym = sym.strip()
    if sym == "-" and path in syms:
        i = bisect.bisect_right(keys[path], int(off, 16)) - 1
        sym = syms[path][i][1] + "+" if i >= 0 else "?"
    total[(path.rsplit("/", 1)[-1], sym)] += int(n)
for (f, s), n in total.items(): print(n, f, s)
PY
}

if [ -n "$diff" ]; then
  a=${diff%,*}
  b=${diff#*,}
  run "$tmp/a" "$@" --repeats="$a"
  run "$tmp/b" "$@" --repeats="$b"
  scale=$((b - a))
else
  : >"$tmp/a"
  run "$tmp/b" "$@"
  scale=1
fi
python3 - "$tmp/a" "$tmp/b" "$scale" "$top" <<'PY'
import collections, sys
def load(p):
    c = collections.Counter()
    for line in open(p):
        n, f, s = line.rstrip("\n").split(" ", 2)
        c[(f, s)] += int(n)
    return c
a, b = load(sys.argv[1]), load(sys.argv[2])
scale, top = int(sys.argv[3]), int(sys.argv[4])
d = {k: (b[k] - a.get(k, 0)) / scale for k in b}
total = sum(d.values())
print(f"total {total / 1e6:.2f} M instructions" + (" per repeat" if scale > 1 else ""))
print("| M instructions | % | file | function |")
print("|---|---|---|---|")
for (f, s), n in sorted(d.items(), key=lambda kv: -kv[1])[:top]:
    print(f"| {n / 1e6:.3f} | {100 * n / total:.1f} | {f} | `{s}` |")
PY
