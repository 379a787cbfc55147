#!/bin/sh
# Installs spmv: `ninja install` runs this (PREFIX, default /usr/local, and DESTDIR taken from the
# environment: DESTDIR=/tmp/x PREFIX=/usr/local ninja install).
#   $DESTDIR$PREFIX/include/spmv/     spmv.h, spmv_cuda.cuh, spmv_mpi.h, formats/ (#include <spmv/spmv.h>)
#   $DESTDIR$PREFIX/bin/              spmv, and spmv-cuda where it was built
#   $DESTDIR$PREFIX/lib/pkgconfig/    spmv.pc (pkg-config --cflags spmv)
#   $DESTDIR$PREFIX/lib/cmake/spmv/   spmvConfig.cmake, spmvConfigVersion.cmake (find_package(spmv))
# Header-only: nothing is compiled for the library itself. Paths inside the package files are
# relative to where they are installed, so a tree copied elsewhere still works.
set -eu
cd "$(dirname "$0")/../.."
prefix=${PREFIX:-/usr/local}
case "$prefix" in /*) ;; *) echo "install: PREFIX must be an absolute path (got '$prefix')" >&2; exit 2 ;; esac
root=${DESTDIR:-}$prefix
v() { sed -n "s/^#define SPMV_VERSION_$1 \([0-9]*\).*/\1/p" formats/core/version.h; }
version=$(v MAJOR).$(v MINOR).$(v PATCH)
inc=$root/include/spmv
mkdir -p "$inc" "$root/bin" "$root/lib/pkgconfig" "$root/lib/cmake/spmv"
cp spmv.h spmv_cuda.cuh spmv_mpi.h "$inc/"
# the headers only (the packaging files stay behind)
find formats -type f \( -name '*.h' -o -name '*.cuh' \) | while read -r f; do
    mkdir -p "$inc/$(dirname "$f")"
    cp "$f" "$inc/$f"
done
for t in build/spmv build/spmv-cuda; do [ -x "$t" ] && cp "$t" "$root/bin/"; done
sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" formats/pkg/spmv.pc.in > "$root/lib/pkgconfig/spmv.pc"
cp formats/pkg/spmvConfig.cmake "$root/lib/cmake/spmv/spmvConfig.cmake"
sed -e "s|@VERSION@|$version|g" formats/pkg/spmvConfigVersion.cmake.in > "$root/lib/cmake/spmv/spmvConfigVersion.cmake"
echo "installed spmv $version into $root"
