#!/usr/bin/env bash
# The aarch64 cross build's parts (docs/aarch64.md): Debian's cross compiler
# (crossbuild-essential-arm64, gcc 12) and user-mode emulators (qemu-user-static,
# and qemu-user for TCG plugins)
# installed on this machine, and a sysroot of Debian 12's arm64 packages of the
# libraries the engine links against, unpacked with dpkg-deb -x.
#
# The arm64 packages are never installed: `dpkg --add-architecture arm64` would
# make their -dev packages conflict with the amd64 ones the native build uses.
# apt runs with its own lists, cache and an empty dpkg status, so it resolves
# and downloads arm64 packages without touching this machine's apt state.
#
#   tools/setup_aarch64.sh          idempotent: does only what is missing
#
# PADDLE_LITE_PLUS_AARCH64 (default ~/.cache/paddle_lite_plus_aarch64) holds
# debs/ (the downloaded packages), apt/ (apt's lists and cache) and sysroot/
# (what toolchains/aarch64 and tools/qemu_aarch64.sh use); the workspace links
# it as toolchains/aarch64/sysroot.
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/aarch64_apt.sh

root=${PADDLE_LITE_PLUS_AARCH64:-$HOME/.cache/paddle_lite_plus_aarch64}
sysroot=$root/sysroot

# The arm64 packages. Development packages for headers and link-time .so
# links, their runtime libraries, the C and C++ runtimes (the sysroot is
# qemu's -L prefix, so the dynamic loader and libc come from it too), the
# header-only libraries the engine includes, and CPython 3.11's headers.
packages=(
  # C/C++ runtime (also the dynamic loader qemu runs)
  libc6 libgcc-s1 libstdc++6 libgomp1
  # protobuf (protoc itself runs on the build machine)
  libprotobuf-dev libprotobuf32 libprotobuf-lite32 zlib1g zlib1g-dev
  libgoogle-glog-dev libgoogle-glog0v6 libunwind8 liblzma5
  libgflags-dev libgflags2.2
  libgtest-dev libgmock-dev
  libbenchmark-dev libbenchmark1debian
  libxnnpack-dev libxnnpack0 libpthreadpool-dev libpthreadpool0
  libcpuinfo-dev libcpuinfo0
  nettle-dev libnettle8
  # header-only libraries (architecture all)
  rapidjson-dev nlohmann-json3-dev pybind11-dev libeigen3-dev
  # CPython 3.11 headers (pyconfig.h is per architecture) for python/
  libpython3.11-dev python3.11-dev
  # Debian's arm64 python3.11 and numpy, to import and run the aarch64 wheel
  # under qemu (tools/build_wheel.sh --config=aarch64)
  python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libpython3.11
  libexpat1 libffi8 libbz2-1.0 libssl3 libsqlite3-0 libncursesw6 libtinfo6
  libreadline8 libuuid1 libdb5.3 libgdbm6 libcrypt1 libnsl2 libtirpc3
  libgssapi-krb5-2 libkrb5-3 libk5crypto3 libcom-err2 libkrb5support0 libkeyutils1
  python3-numpy libblas3 liblapack3 libgfortran5
)

# --- host tools --------------------------------------------------------------
# qemu-user-static runs the tests (no binfmt_misc needed); qemu-user, its
# dynamically linked build (installed side by side: qemu-aarch64 next to
# qemu-aarch64-static), is the one that loads TCG plugins, for the
# instruction counts of tools/arm_insn_bench.sh.
host_packages=(crossbuild-essential-arm64 qemu-user-static qemu-user)
missing=()
for p in "${host_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup_aarch64: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
      echo "setup_aarch64: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- arm64 sysroot -------------------------------------------------------------
# A stamp names the package list the sysroot was made from: a changed list
# makes a new sysroot, an unchanged one costs nothing.
stamp_text="${packages[*]}"
if [ -f "$sysroot/.packages" ] && [ "$(cat "$sysroot/.packages")" = "$stamp_text" ]; then
  echo "setup_aarch64: sysroot up to date ($sysroot)"
else
  mkdir -p "$root/apt/lists/partial" "$root/apt/cache/archives/partial" \
    "$root/apt/sources.list.d" "$root/debs"
  # Debian's sources of this machine (the mirror it already uses), without any
  # "Architectures:" restriction; other vendors' sources are left out.
  rm -f "$root/apt/sources.list.d/"*
  for f in /etc/apt/sources.list.d/debian.sources; do
    [ -f "$f" ] && grep -v '^Architectures:' "$f" > "$root/apt/sources.list.d/debian.sources"
  done
  : > "$root/apt/sources.list"
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb .*debian' /etc/apt/sources.list | sed -E 's/\[arch=[^]]*\] ?//' \
      > "$root/apt/sources.list" || true
  fi
  if [ ! -s "$root/apt/sources.list" ] && [ ! -s "$root/apt/sources.list.d/debian.sources" ]; then
    echo "deb http://deb.debian.org/debian bookworm main" > "$root/apt/sources.list"
  fi
  : > "$root/apt/status"
  aarch64_apt_opts "$root"
  echo "setup_aarch64: arm64 package lists"
  apt-get "${apt_opts[@]}" update -qq
  echo "setup_aarch64: downloading ${#packages[@]} arm64 packages into $root/debs"
  (cd "$root/debs" && rm -f ./*.deb && apt-get "${apt_opts[@]}" download -qq "${packages[@]}")
  rm -rf "$sysroot.new"
  mkdir -p "$sysroot.new"
  for deb in "$root"/debs/*.deb; do
    dpkg-deb -x "$deb" "$sysroot.new"
  done
  # Absolute symlinks inside the packages (for example libfoo.so ->
  # /lib/aarch64-linux-gnu/libfoo.so.1) would point into this machine's own
  # tree: make them relative to the sysroot.
  find "$sysroot.new" -type l -lname '/*' | while IFS= read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$sysroot.new$target")" "$link"
  done
  # BLAS and LAPACK are found through links that update-alternatives makes
  # when the packages are installed (numpy links libblas.so.3, liblapack.so.3).
  for lib in blas lapack; do
    ln -sfn "$lib/lib$lib.so.3" "$sysroot.new/usr/lib/aarch64-linux-gnu/lib$lib.so.3"
  done
  ( cd "$root/debs" && ls ./*.deb | sed 's|^\./||' ) > "$sysroot.new/.debs"
  echo "$stamp_text" > "$sysroot.new/.packages"
  rm -rf "$sysroot"
  mv "$sysroot.new" "$sysroot"
  echo "setup_aarch64: sysroot ready ($sysroot)"
fi
