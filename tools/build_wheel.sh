#!/usr/bin/env bash
# Builds the paddlelite wheel for Debian's CPython (/usr/bin/python3) into
# DIR (default dist/): bazel builds the extension module
# //python:lite.so (engine linked in; Debian system libraries
# loaded from the system, see docs/python.md), then pip packs it with
# python/paddlelite/ offline (no index, no build isolation).
#
#   tools/build_wheel.sh [DIR] [BAZEL_FLAGS...]     prints the wheel's path last
#
# The module is built with the workspace's flags (-march=native: for this
# CPU); pass --config=portable for a wheel other x86-64 CPUs run, or
# --config=aarch64 for a linux_aarch64 wheel for Debian 12's arm64 CPython
# 3.11 (docs/aarch64.md), import-checked under qemu with the sysroot's
# python3.11.
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
out=dist
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
out=$(realpath -m "$out")
aarch64=0
for f in "$@"; do [ "$f" = --config=aarch64 ] && aarch64=1; done

bazel build "$@" //python:lite.so
bin=$(bazel info "$@" bazel-bin 2>/dev/null)
if [ "$aarch64" = 1 ]; then
  ext=.cpython-311-aarch64-linux-gnu.so
  plat=linux_aarch64
else
  ext=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
  plat=
fi
version=$(sed -n 's/.*kEngineVersion = "\(.*\)";/\1/p' lite/base/version.h)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/paddlelite" "$out"
cp python/setup.py "$stage/"
cp python/paddlelite/*.py "$stage/paddlelite/"
cp "$bin/python/lite.so" "$stage/paddlelite/lite$ext"
chmod u+w "$stage/paddlelite/lite$ext"

# The module must import with this interpreter (its headers built it).
if [ "$aarch64" = 1 ]; then
  bazel build "$@" //toolchains/aarch64:qemu
  sysroot=$(sed -n 's/^sysroot=.*:-\(.*\)}$/\1/p' "$bin/toolchains/aarch64/qemu")
  if [ -x "$sysroot/usr/bin/python3.11" ]; then
    PYTHONPATH="$stage" "$bin/toolchains/aarch64/qemu" "$sysroot/usr/bin/python3.11" \
      -c 'import paddlelite.lite' || {
      echo "build_wheel: the module does not import with the arm64 python3.11 under qemu" >&2; exit 1; }
  else
    echo "build_wheel: no arm64 python3.11 in $sysroot: import not checked" >&2
  fi
else
  PYTHONPATH="$stage" "$python" -c 'import paddlelite.lite' || {
    echo "build_wheel: the module does not import with $python" >&2; exit 1; }
fi

rm -f "$out"/paddlelite-"$version"-*"${plat:-linux_x86_64}".whl
if [ -n "$plat" ]; then
  # pip would tag the wheel for this machine: bdist_wheel names the platform.
  (cd "$stage" && PADDLELITE_VERSION="$version" "$python" setup.py --quiet bdist_wheel \
    --plat-name "$plat" --dist-dir "$out" >/dev/null)
else
  PADDLELITE_VERSION="$version" "$python" -m pip wheel --quiet --no-deps --no-index \
    --no-build-isolation --wheel-dir "$out" "$stage"
fi
ls "$out"/paddlelite-"$version"-*"${plat:-linux_x86_64}".whl
