#!/bin/sh
# Builds everything on a fresh machine (installing missing Debian packages) and runs `spmv bench`:
#   sh bench/run.sh            the headline in a few minutes: our main formats, the automatic
#                              selection, the plain loop and the anchors (Eigen, GraphBLAS,
#                              librsb, oneMKL) on five presets, one of them 300 MB (beyond the L3);
#                              the best ISA of this CPU
#   sh bench/run.sh --full     the embedded default set (eight presets, three of 300 MB), every
#                              format on every ISA (about 13 minutes on 2 cores; spmv bench --full)
#   sh bench/run.sh ARGS...    spmv bench ARGS (spmv help lists them)
set -eu
cd "$(dirname "$0")/.."
need=""
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
[ -f /usr/include/simde/x86/avx512.h ] || need="$need libsimde-dev"
# the anchor libraries the bench compares with (bench/anchors.h); SPMV_ANCHORS=none skips them
anchors=""
if [ "${SPMV_ANCHORS:-all}" != none ]; then
    [ -f /usr/include/eigen3/Eigen/Sparse ] || anchors="$anchors libeigen3-dev"
    [ -f /usr/include/suitesparse/GraphBLAS.h ] || [ -f /usr/include/GraphBLAS.h ] || anchors="$anchors libgraphblas-dev"
    [ -f /usr/include/rsb.h ] || anchors="$anchors librsb-dev"
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
if [ -n "$need$anchors" ]; then
    $SUDO apt-get update -qq || echo "bench/run.sh: apt-get update failed"
fi
if [ -n "$need" ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
if [ -n "$anchors" ]; then
    # not fatal: without them the bench runs and its anchor rows say why they are missing
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $anchors >/dev/null ||
        echo "bench/run.sh: could not install$anchors; the bench runs without them"
fi
# oneMKL, a comparison row only: from the Python package index into a virtual environment in
# bench/.mkl (git-ignored; bench/anchors.sh finds it there or through MKLROOT)
if [ "${SPMV_ANCHORS:-all}" != none ] && [ -z "${MKLROOT:-}" ] && ! ls bench/.mkl/lib/libmkl_rt.so* >/dev/null 2>&1; then
    { python3 -m venv bench/.mkl && bench/.mkl/bin/pip install -q mkl-devel mkl-include; } >/dev/null 2>&1 ||
        echo "bench/run.sh: could not install oneMKL from the Python package index; the bench runs without it"
fi
ninja build/spmv build/spmv-all
# with no argument `spmv bench` runs the headline (its set is in bench/spmv.c, headline_set);
# --full is the bench's own flag
exec build/spmv-all bench "$@" # (build/spmv with every --precision)
