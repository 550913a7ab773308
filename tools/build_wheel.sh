#!/usr/bin/env bash
# Builds the paddlelite wheel for Debian's CPython (/usr/bin/python3) into
# DIR (default dist/): bazel builds the extension module
# //python:lite.so (engine linked in; Debian system libraries
# loaded from the system, see docs/python.md), then pip packs it with
# python/paddlelite/ offline (no index, no build isolation).
#
#   tools/build_wheel.sh [DIR [BAZEL_FLAGS...]]     prints the wheel's path last
#
# The module is built with the workspace's flags (-march=native: for this
# CPU); pass --config=portable after DIR for a wheel other x86-64 CPUs run.
set -euo pipefail
cd "$(dirname "$0")/.."
python=/usr/bin/python3
out=$(realpath -m "${1:-dist}")
shift $(( $# > 0 ? 1 : 0 ))

bazel build "$@" //python:lite.so
ext=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
version=$(sed -n 's/.*kEngineVersion = "\(.*\)";/\1/p' lite/base/version.h)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/paddlelite" "$out"
cp python/setup.py "$stage/"
cp python/paddlelite/*.py "$stage/paddlelite/"
cp bazel-bin/python/lite.so "$stage/paddlelite/lite$ext"
chmod u+w "$stage/paddlelite/lite$ext"

# The module must import with this interpreter (its headers built it).
PYTHONPATH="$stage" "$python" -c 'import paddlelite.lite' || {
  echo "build_wheel: the module does not import with $python" >&2; exit 1; }

rm -f "$out"/paddlelite-"$version"-*.whl
PADDLELITE_VERSION="$version" "$python" -m pip wheel --quiet --no-deps --no-index \
  --no-build-isolation --wheel-dir "$out" "$stage"
ls "$out"/paddlelite-"$version"-*.whl
