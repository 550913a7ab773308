#!/usr/bin/env bash
# Builds the deploy bundle for a 64-bit ARM board running Debian 12 (Raspberry
# Pi OS and the like): one .tar.gz a user copies onto the board, so the board
# needs no build of its own, only Debian's runtime packages (docs/aarch64.md).
#
#   tools/bundle_aarch64.sh [OUT.tar.gz] [BAZEL_FLAGS...]
#       default OUT: dist/paddle-lite-plus-VERSION-aarch64.tar.gz
#
# The bundle, one folder paddle-lite-plus-VERSION-aarch64/:
#   bin/        opt run_model benchmark accuracy model_info ocr (the engine
#               linked in; only Debian's libraries are loaded from the system)
#   lib/        libpaddle_lite_plus.so (the C++ API: both predictors, every
#               op, kernel and pass)
#   include/    lite/api/paddle_api.h and the headers it includes
#   python/     the linux_aarch64 wheel for Debian's python3.11
#   examples/   predict.cc (a program against include/ and lib/), test_page.ppm
#   debian-packages.txt   the arm64 packages the board installs, derived from
#               what bin/, lib/ and the wheel's module NEED (readelf -d)
#   README.txt  the commands on the board
#
# Builds with --config=aarch64 (tools/setup_aarch64.sh makes the sysroot),
# then checks the packed bundle under qemu: tools/bundle_aarch64_test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*kEngineVersion = "\(.*\)";/\1/p' lite/base/version.h)
name=paddle-lite-plus-$version-aarch64
out=dist/$name.tar.gz
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
out=$(realpath -m "$out")
flags=(--config=aarch64 "$@")

bash tools/setup_aarch64.sh
tools=(opt run_model benchmark accuracy model_info ocr)
labels=(//lite/api:libpaddle_lite_plus.so //toolchains/aarch64:qemu)
for t in "${tools[@]}"; do labels+=("//tools:$t"); done
bazel build "${flags[@]}" "${labels[@]}"
bin=$(bazel info "${flags[@]}" bazel-bin 2>/dev/null)
sysroot=$(sed -n 's/^sysroot=.*:-\(.*\)}$/\1/p' "$bin/toolchains/aarch64/qemu")
debs=$(dirname "$sysroot")/debs
[ -d "$sysroot" ] && [ -d "$debs" ] || { echo "bundle_aarch64: no sysroot at '$sysroot' (run tools/setup_aarch64.sh)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir=$stage/$name
mkdir -p "$dir/bin" "$dir/lib" "$dir/include" "$dir/python" "$dir/examples"
for t in "${tools[@]}"; do cp "$bin/tools/$t" "$dir/bin/"; done
cp "$bin/lite/api/libpaddle_lite_plus.so" "$dir/lib/"
chmod -R u+w "$dir/bin" "$dir/lib"
aarch64-linux-gnu-strip --strip-unneeded "$dir"/bin/* "$dir"/lib/*.so

# The public header and every workspace header it includes, recursively
# (none of them includes a third-party header).
todo=(lite/api/paddle_api.h)
while [ ${#todo[@]} -gt 0 ]; do
  h=${todo[0]}; todo=("${todo[@]:1}")
  [ -f "$dir/include/$h" ] && continue
  mkdir -p "$dir/include/$(dirname "$h")"
  cp "$h" "$dir/include/$h"
  while IFS= read -r inc; do
    [ -f "$inc" ] || { echo "bundle_aarch64: $h includes $inc, not in the workspace" >&2; exit 1; }
    todo+=("$inc")
  done < <(sed -n 's/^#include "\(.*\)".*/\1/p' "$h")
done

bash tools/build_wheel.sh "$stage/wheel" "${flags[@]}" >/dev/null
cp "$stage"/wheel/paddlelite-*-linux_aarch64.whl "$dir/python/"

cp examples/cpp/predict.cc "$dir/examples/"
# The OCR test page as binary PPM, the format tools/ocr reads.
/usr/bin/python3 -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).convert("RGB").save(sys.argv[2])' \
  examples/python/test_page.png "$dir/examples/test_page.ppm"

# debian-packages.txt: for every shared library the programs, the library
# and the Python module NEED, the arm64 package of the sysroot that ships
# it (runtime packages, not -dev); then python3.11 and python3-numpy (the
# wheel's interpreter and its one requirement).
declare -A pkg_of
for deb in "$debs"/*.deb; do
  p=$(dpkg-deb -f "$deb" Package)
  case $p in *-dev) continue ;; esac
  while IFS= read -r f; do pkg_of[${f##*/}]=$p; done < <(dpkg-deb -c "$deb" | awk '{print ($(NF-1) == "->") ? $(NF-2) : $NF}' | grep -E '\.so(\.[0-9.]+)?$')
done
unzip -q -o "$dir"/python/*.whl 'paddlelite/lite*.so' -d "$stage/module"
needed=$(for f in "$dir"/bin/* "$dir"/lib/*.so "$stage"/module/paddlelite/lite*.so; do
  aarch64-linux-gnu-readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
done | sort -u)
packages=()
for lib in $needed; do
  [ -n "${pkg_of[$lib]:-}" ] || { echo "bundle_aarch64: no sysroot package ships $lib (NEEDED)" >&2; exit 1; }
  packages+=("${pkg_of[$lib]}")
done
packages+=(python3.11 python3-numpy)
printf '%s\n' "${packages[@]}" | sort -u > "$dir/debian-packages.txt"

cat > "$dir/README.txt" <<EOF
paddle-lite-plus $version for 64-bit ARM Linux (Debian 12 arm64: Raspberry Pi OS
and other Debian 12 images), cross-built with Debian's aarch64-linux-gnu-gcc 12.

  sudo apt-get install \$(cat debian-packages.txt)      # the runtime libraries
  bin/opt --model_dir=MODEL --valid_targets=host --optimize_out=model   # -> model.nb
  bin/run_model --optimized_model=model.nb
  bin/ocr --image=examples/test_page.ppm --valid_targets=host \\
      --det_model=DET --cls_model=CLS --rec_model=REC       # PaddleOCR det -> cls -> rec

The tools take --valid_targets=host or npu,host (XNNPACK); there is no x86
target here (x86 is refused with an error). C++: include/ and lib/
(sudo apt-get install g++):
  g++ -std=c++17 examples/predict.cc -Iinclude -Llib -lpaddle_lite_plus \\
      -Wl,-rpath,'\$ORIGIN/../lib' -o predict && ./predict model.nb
Python (sudo apt-get install python3-venv):
  python3 -m venv --system-site-packages venv &&
  venv/bin/pip install --no-index --no-deps python/paddlelite-*.whl
Tested under qemu-user (cortex-a72 and max CPUs) on an x86-64 machine, not on
ARM hardware.
EOF

mkdir -p "$(dirname "$out")"
tar -C "$stage" -czf "$out" "$name"
bash tools/bundle_aarch64_test.sh "$out"
ls -l "$out"
