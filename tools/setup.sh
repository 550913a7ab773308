#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the tools need.
# Only missing packages are installed; running it twice is harmless. Then
# the aarch64 cross build's parts (tools/setup_aarch64.sh).
#
#   tools/setup.sh [--bench]
#
# --bench adds the packages only benchmark tools use: python3-onnx for
# tools/standin_to_onnx.py (the stand-ins' ONNX twins; the build and the
# tests work without it, tools:standin_onnx_test then skips).
set -euo pipefail
bench=0
for a in "$@"; do
  case $a in
    --bench) bench=1 ;;
    *) echo "setup: unknown argument '$a' (usage: tools/setup.sh [--bench])" >&2; exit 2 ;;
  esac
done

packages=(
  bazel-bootstrap protobuf-compiler libprotobuf-dev
  libgoogle-glog-dev libgflags-dev libgtest-dev libgmock-dev libbenchmark-dev
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev libdnnl-dev
  libeigen3-dev nlohmann-json3-dev rapidjson-dev graphviz g++ python3
  # SHA-256 of compiled-subgraph keys (lite/backends/npu/compiled_key.h)
  nettle-dev
  # the Python module, its wheel, tests and OCR example (python/)
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pil
  python3-setuptools python3-wheel python3-pip python3-venv fonts-dejavu-core
  # CJK glyphs for the recognizer's Chinese rendered lines (tools/text_lines.py)
  fonts-wqy-microhei
)
if [ "$bench" -eq 1 ]; then packages+=(python3-onnx); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
      echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "setup: done"
fi

# The aarch64 cross build's compiler, emulator and arm64 sysroot
# (docs/aarch64.md); does nothing when they are there.
bash "$(dirname "$0")/setup_aarch64.sh"
