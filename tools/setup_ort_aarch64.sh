#!/usr/bin/env bash
# ONNX Runtime's aarch64 build under qemu-user, the baseline of
# tools/arm_insn_bench.sh (docs/arm.md): Debian 12's arm64 Node.js (nodejs and
# the packages it depends on, downloaded with apt-get download into a private
# folder, unpacked with dpkg-deb -x, never installed) and the npm package
# onnxruntime-node (its bin/napi-v6/linux/arm64/libonnxruntime.so.1), the
# version ../shared/bench uses.
#
#   tools/setup_ort_aarch64.sh      idempotent: does only what is missing
#
# Makes, under PADDLE_LITE_PLUS_AARCH64 (default
# ~/.cache/paddle_lite_plus_aarch64; tools/setup_aarch64.sh must have run):
#   node/prefix/   qemu's -L prefix: the engine's sysroot (a tree of symlinks),
#                  Node.js unpacked over it, and proc/cpuinfo of a Cortex-A72.
#                  qemu-user 7.2 shows guests the build machine's x86
#                  /proc/cpuinfo, on which ONNX Runtime's CPU detection crashes
#                  at load; qemu looks every path up in the -L prefix first, so
#                  the guest reads this file instead.
#   ort/node_modules/onnxruntime-node
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/aarch64_apt.sh
root=${PADDLE_LITE_PLUS_AARCH64:-$HOME/.cache/paddle_lite_plus_aarch64}
ort_version=1.30.0
node_packages=(nodejs libnode108 libuv1 libbrotli1 libc-ares2 libicu72 libnghttp2-14
  node-acorn node-busboy node-cjs-module-lexer node-undici node-xtend)
if [ ! -f "$root/sysroot/.packages" ] || [ ! -d "$root/apt/lists" ]; then
  echo "setup_ort_aarch64: run tools/setup_aarch64.sh first" >&2
  exit 1
fi

prefix=$root/node/prefix
if [ ! -x "$prefix/usr/bin/node" ] || [ "$(cat "$prefix/.node_packages" 2>/dev/null)" != "${node_packages[*]}" ]; then
  aarch64_apt_opts "$root"
  rm -rf "$root/node"
  mkdir -p "$root/node/debs" "$prefix"
  (cd "$root/node/debs" && apt-get "${apt_opts[@]}" download -qq "${node_packages[@]}")
  cp -as "$root/sysroot/." "$prefix/"
  for deb in "$root"/node/debs/*.deb; do
    dpkg-deb -x "$deb" "$prefix"
  done
  mkdir -p "$prefix/proc"
  : > "$prefix/proc/cpuinfo"
  for i in $(seq 0 $(($(nproc) - 1))); do
    printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3\n\n' "$i" >> "$prefix/proc/cpuinfo"
  done
  echo "${node_packages[*]}" > "$prefix/.node_packages"
  echo "setup_ort_aarch64: Node.js prefix ready ($prefix)"
fi

if [ ! -f "$root/ort/node_modules/onnxruntime-node/bin/napi-v6/linux/arm64/libonnxruntime.so.1" ]; then
  mkdir -p "$root/ort"
  # --ignore-scripts: the postinstall step downloads CUDA parts; the CPU
  # libraries are in the package itself.
  (cd "$root/ort" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --ignore-scripts "onnxruntime-node@$ort_version")
fi
echo "setup_ort_aarch64: onnxruntime-node $ort_version ready ($root/ort)"
