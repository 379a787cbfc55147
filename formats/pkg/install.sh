#!/bin/sh
# Installs spmv: `ninja install` runs this (PREFIX, default /usr/local, and DESTDIR taken from the
# environment: DESTDIR=$PWD/stage PREFIX=/usr/local ninja install stages a tree to copy or
# package; without DESTDIR it installs into PREFIX itself).
#   $DESTDIR$PREFIX/include/spmv/     spmv.h, spmv_cuda.cuh, spmv_mpi.h, formats/ (#include <spmv/spmv.h>)
#   $DESTDIR$PREFIX/lib/libspmv.a     the compiled bodies for the tags s and d (formats/pkg/libspmv.c),
#                                     when build/libspmv.a was built (`ninja install` builds it);
#                                     libspmv_types.a beside it: ds, h, b, z, c (formats/pkg/libspmv_types.c)
#   $DESTDIR$PREFIX/bin/              spmv, spmv-cuda: only those built before (`ninja install_tools`
#                                     builds the spmv tool first)
#   $DESTDIR$PREFIX/lib/pkgconfig/    spmv.pc (header-only), spmv-compiled.pc (libspmv.a)
#   $DESTDIR$PREFIX/lib/cmake/spmv/   spmvConfig.cmake, spmvConfigVersion.cmake (find_package(spmv))
# Paths inside the package files are relative to where they are installed (${pcfiledir}, the
# CMake file's own directory), so a tree copied elsewhere still works.
set -eu
cd "$(dirname "$0")/../.."
prefix=${PREFIX:-/usr/local}
case "$prefix" in /*) ;; *) echo "install: PREFIX must be an absolute path (got '$prefix')" >&2; exit 2 ;; esac
root=${DESTDIR:-}$prefix
v() { sed -n "s/^#define SPMV_VERSION_$1 \([0-9]*\).*/\1/p" formats/core/version.h; }
version=$(v MAJOR).$(v MINOR).$(v PATCH)
inc=$root/include/spmv
mkdir -p "$inc" "$root/lib/pkgconfig" "$root/lib/cmake/spmv"
cp spmv.h spmv_cuda.cuh spmv_mpi.h "$inc/"
# the headers only (the packaging files stay behind)
find formats -type f \( -name '*.h' -o -name '*.cuh' \) | while read -r f; do
    mkdir -p "$inc/$(dirname "$f")"
    cp "$f" "$inc/$f"
done
if [ "${SPMV_INSTALL_TOOLS:-0}" = 1 ]; then
    mkdir -p "$root/bin"
    for t in build/spmv build/spmv-all build/spmv-cuda; do if [ -x "$t" ]; then cp "$t" "$root/bin/"; fi; done
fi
if [ -f build/libspmv.a ]; then cp build/libspmv.a "$root/lib/"; fi
if [ -f build/libspmv_types.a ]; then cp build/libspmv_types.a "$root/lib/"; fi
for pc in spmv spmv-compiled; do
    sed -e "s|@VERSION@|$version|g" "formats/pkg/$pc.pc.in" > "$root/lib/pkgconfig/$pc.pc"
done
cp formats/pkg/spmvConfig.cmake "$root/lib/cmake/spmv/spmvConfig.cmake"
sed -e "s|@VERSION@|$version|g" formats/pkg/spmvConfigVersion.cmake.in > "$root/lib/cmake/spmv/spmvConfigVersion.cmake"
echo "installed spmv $version into $root"
