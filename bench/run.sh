#!/bin/sh
# Builds everything on a fresh machine (installing missing Debian packages) and runs
# `spmv bench` on the embedded default set. Extra arguments go to spmv bench.
set -eu
cd "$(dirname "$0")/.."
need=""
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
[ -f /usr/include/simde/x86/avx512.h ] || need="$need libsimde-dev"
if [ -n "$need" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
ninja build/spmv
exec build/spmv bench "$@"
