#!/bin/bash
# Debian's cross compiler (crossbuild-essential-arm64, gcc 12) as the aarch64
# toolchain's gcc. The workspace's .bazelrc gives every build -march=native,
# which tunes for the x86-64 machine that builds; the cross compiler rejects it
# (there is no aarch64 CPU to detect), so it is left out here and the toolchain
# sets the aarch64 baseline itself (-march=armv8-a, see BUILD).
args=()
for a in "$@"; do
  [ "$a" = -march=native ] || args+=("$a")
done
exec /usr/bin/aarch64-linux-gnu-gcc "${args[@]}"
