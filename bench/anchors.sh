#!/bin/sh
# bench/anchors.sh OUT_O OUT_LIBS: compiles bench/anchors.cc (the bench's anchor libraries,
# bench/anchors.h) into OUT_O with the libraries whose Debian packages are installed, and
# writes the link flags they need into OUT_LIBS (build/spmv links with $(cat OUT_LIBS)).
#   Eigen       libeigen3-dev     /usr/include/eigen3/Eigen/Sparse       (header-only)
#   GraphBLAS   libgraphblas-dev  /usr/include/suitesparse/GraphBLAS.h   -lgraphblas
#   librsb      librsb-dev        /usr/include/rsb.h                     -lrsb
#   oneMKL      pip's mkl-devel, mkl-include in $MKLROOT (default bench/.mkl, a virtual
#               environment bench/run.sh makes): include/mkl_spblas.h, lib/libmkl_rt.so*
#               (linked with its path in the binary's run path; a comparison row only)
# SPMV_ANCHORS=none builds only the plain loop; SPMV_ANCHORS=eigen,librsb (any of eigen,
# graphblas, librsb) only those; unset or "all": every one that is installed.
# ninja runs this on every build (restat = 1): the detection is cheap, and OUT_O and
# OUT_LIBS are rewritten only when the detection, the sources, the compiler or the CPU
# changed (OUT_O.stamp), so build/spmv is relinked only then. If compiling against the
# installed headers fails, the error is shown and the loop alone is built.
set -u
out_o=$1
out_libs=$2
cxx=${CXX:-g++}
src=bench/anchors.cc
cxxflags="-std=c++17 -O3 -march=native -fopenmp -Wa,-mbranches-within-32B-boundaries -Wall -Wextra -I." # the JCC-erratum mitigation as build/spmv (build.ninja)

sel=$(printf '%s' "${SPMV_ANCHORS:-all}" | tr 'A-Z ' 'a-z,')
for w in $(printf '%s' "$sel" | tr ',' ' '); do
    case $w in all | none | loop | eigen | graphblas | librsb | rsb | mkl) ;;
    *) echo "bench/anchors.sh: SPMV_ANCHORS='${SPMV_ANCHORS:-}': '$w' is not valid (allowed: all, none, or a comma list of eigen, graphblas, librsb, mkl)" >&2
       exit 1 ;;
    esac
done
wanted() { # NAME: 0 if SPMV_ANCHORS asks for it
    case ",$sel," in
    *,none,*) return 1 ;;
    *,all,* | ,,) return 0 ;;
    *",$1,"*) return 0 ;;
    esac
    [ "$1" = librsb ] && case ",$sel," in *,rsb,*) return 0 ;; esac
    return 1
}
have_lib() { # libNAME.so found by the compiler driver
    p=$($cxx -print-file-name="$1.so" 2>/dev/null)
    [ -n "$p" ] && [ "$p" != "$1.so" ] && [ -e "$p" ]
}

# status per library: 1 built, 0 not installed, 2 left out by SPMV_ANCHORS (bench/anchors.cc)
eigen=0; graphblas=0; rsb=0; inc=""; libs=""; headers=""
if [ -f /usr/include/eigen3/Eigen/Sparse ]; then
    if wanted eigen; then eigen=1; inc="$inc -isystem /usr/include/eigen3"; headers="$headers /usr/include/eigen3/Eigen/src/Core/util/Macros.h"; else eigen=2; fi
fi
gbh=""
for d in /usr/include/suitesparse /usr/include; do
    [ -f "$d/GraphBLAS.h" ] && { gbh=$d; break; }
done
if [ -n "$gbh" ] && have_lib libgraphblas; then
    if wanted graphblas; then graphblas=1; [ "$gbh" = /usr/include ] || inc="$inc -isystem $gbh"; libs="$libs -lgraphblas"; headers="$headers $gbh/GraphBLAS.h"; else graphblas=2; fi
fi
if [ -f /usr/include/rsb.h ] && have_lib librsb; then
    if wanted librsb; then rsb=1; libs="$libs -lrsb"; headers="$headers /usr/include/rsb.h"; else rsb=2; fi
fi
mkl=0
mklroot=${MKLROOT:-bench/.mkl}
mkllib=$(ls "$mklroot"/lib/libmkl_rt.so* 2>/dev/null | head -1)
if [ -f "$mklroot/include/mkl_spblas.h" ] && [ -n "$mkllib" ]; then
    if wanted mkl; then
        mkl=1; mklroot=$(cd "$mklroot" && pwd); mkllib=$(basename "$mkllib")
        inc="$inc -isystem $mklroot/include"; libs="$libs -L$mklroot/lib -l:$mkllib -Wl,-rpath,$mklroot/lib"
        headers="$headers $mklroot/include/mkl_spblas.h"
    else mkl=2; fi
fi
rsbver=""
if [ $rsb = 1 ]; then  # rsb.h's version string has three parts, the package's four
    v=$(dpkg-query -W -f='${Version}' librsb-dev 2>/dev/null | sed 's/[+~-].*//')
    case $v in [0-9]*) rsbver="-DSPMV_ANCHOR_RSB_VERSION=\"$v\"" ;; esac
fi
libs="${libs# }${libs:+ }-lstdc++"

# what the outputs depend on: the detection, the sources, this script, the compiler, the CPU
# (-march=native) and the library headers' dates (a package upgrade)
stamp=$(
    echo "eigen=$eigen graphblas=$graphblas rsb=$rsb mkl=$mkl $rsbver inc=$inc libs=$libs flags=$cxxflags cxx=$cxx"
    $cxx --version 2>/dev/null | head -1
    $cxx -march=native -Q --help=target 2>/dev/null | grep -E '^ +-march=' | head -1
    cat "$src" bench/anchors.h "$0" | cksum
    for h in $headers; do ls -l --time-style=+%s "$h" 2>/dev/null; done
)
if [ -f "$out_o" ] && [ -f "$out_libs" ] && [ -f "$out_o.stamp" ] && [ "$(cat "$out_o.stamp")" = "$stamp" ]; then
    exit 0
fi

mkdir -p "$(dirname "$out_o")" "$(dirname "$out_libs")"
rm -f "$out_o.stamp"
defs="-DSPMV_ANCHOR_EIGEN=$eigen -DSPMV_ANCHOR_GRAPHBLAS=$graphblas -DSPMV_ANCHOR_RSB=$rsb -DSPMV_ANCHOR_MKL=$mkl $rsbver"
# shellcheck disable=SC2086
if ! $cxx $cxxflags $defs $inc -c "$src" -o "$out_o.tmp" 2>"$out_o.log"; then
    cat "$out_o.log" >&2
    rm -f "$out_o.log"
    # fall back to the loop alone (status 3: "compiling against the installed ... failed")
    f() { [ "$1" = 1 ] && echo 3 || echo "$1"; }
    defs="-DSPMV_ANCHOR_EIGEN=$(f $eigen) -DSPMV_ANCHOR_GRAPHBLAS=$(f $graphblas) -DSPMV_ANCHOR_RSB=$(f $rsb) -DSPMV_ANCHOR_MKL=$(f $mkl)"
    libs="-lstdc++"
    echo "bench/anchors.sh: compiling the anchors failed (above); building the plain loop alone" >&2
    # shellcheck disable=SC2086
    $cxx $cxxflags $defs -c "$src" -o "$out_o.tmp" || exit 1
fi
if [ -s "$out_o.log" ]; then cat "$out_o.log" >&2; fi  # warnings
rm -f "$out_o.log"
mv -f "$out_o.tmp" "$out_o"
printf '%s\n' "$libs" > "$out_libs.tmp" && mv -f "$out_libs.tmp" "$out_libs"
printf '%s\n' "$stamp" > "$out_o.stamp"
