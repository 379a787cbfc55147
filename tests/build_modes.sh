#!/bin/sh
# The build modes of spmv.h (SPMV_DECLARATIONS_ONLY, SPMV_IMPLEMENTATION, libspmv.a) as a user
# builds them: tests/modes/user.c (declarations only, a user tag dl beside s and d) linked against
# tests/modes/impl.c (the bodies) by gcc, clang (C11), g++ (C++17), nvcc (the user unit as CUDA
# C++ against the C implementation), each with -Wall -Wextra -Wpedantic -Werror, and against
# build/libspmv.a; every product's bits must equal those of the same compiler's all-in-one build
# (TM_ALL_IN_ONE; both at -O0, the pairs' compile time). Also: every function libspmv.a exports is declared in declarations-only mode,
# a pre-C11 compiler gets one #error, a builder call in the old argument order does not compile.
# Usage: sh tests/build_modes.sh [build/libspmv.a]. Ends with a RESULT line.
set -u
cd "$(dirname "$0")/.."
lib=${1:-build/libspmv.a}
d=build/modes
rm -rf "$d"; mkdir -p "$d"
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
strict="-Wall -Wextra -Wpedantic -Werror"
# name, compile command for C units (without -o and sources)
check_pair() {
    name=$1; cc=$2
    link=${cc%% *}
    if ! $cc -O0 -DTM_ALL_IN_ONE tests/modes/user.c -o "$d/all-$name" -lm > "$d/$name.log" 2>&1; then
        bad "$name: the all-in-one build failed ($d/$name.log)"; tail -5 "$d/$name.log"; return; fi
    if ! $cc -O0 -c tests/modes/impl.c -o "$d/impl-$name.o" >> "$d/$name.log" 2>&1 ||
        ! $cc -O0 -c tests/modes/user.c -o "$d/user-$name.o" >> "$d/$name.log" 2>&1 ||
        ! $link -fopenmp "$d/user-$name.o" "$d/impl-$name.o" -o "$d/two-$name" -lm >> "$d/$name.log" 2>&1; then
        bad "$name: the two-unit build failed ($d/$name.log)"; tail -5 "$d/$name.log"; return; fi
    "$d/all-$name" > "$d/all-$name.out" 2>&1; "$d/two-$name" > "$d/two-$name.out" 2>&1
    if tail -1 "$d/all-$name.out" | grep -q '^done$' && cmp -s "$d/all-$name.out" "$d/two-$name.out"; then
        ok "$name: declarations + implementation units, the same bits as the all-in-one build ($(grep -c . "$d/two-$name.out") lines)"
    else bad "$name: the two-unit program's products differ from the all-in-one build's"; diff "$d/all-$name.out" "$d/two-$name.out" | head -5; fi
}
check_pair gcc "gcc -std=c11 -D_GNU_SOURCE $strict -fopenmp -I."
# (the full suite, SPMV_TEST_FULL=1, also builds the pair with clang and g++ and the nvcc unit
# below; the short one checks clang's warnings with clang++ -fsyntax-only, C++ with a g++ unit
# against the gcc implementation and nvcc through the CUDA builds)
full=${SPMV_TEST_FULL:-0}
if [ "$full" != 1 ]; then skip=$((skip + 1)); echo "SKIP: the clang pair (tests/run.sh --full)"
elif command -v clang > /dev/null 2>&1; then check_pair clang "clang -std=c11 -D_GNU_SOURCE $strict -fopenmp -I."
else skip=$((skip + 1)); echo "SKIP: clang not found"; fi
if [ "$full" = 1 ]; then check_pair gxx "g++ -x c++ -std=c++17 $strict -fopenmp -I."
else skip=$((skip + 1)); echo "SKIP: the g++ pair (tests/run.sh --full; a g++ unit against the gcc implementation below)"; fi
# the other public headers and compilers, strict, syntax only: clang++ (all-in-one and
# declarations-only), spmv_mpi.h with mpicc
for m in -DTM_ALL_IN_ONE ""; do
    if command -v clang++ > /dev/null 2>&1; then
        if clang++ -x c++ -std=c++17 $strict -fopenmp -I. -fsyntax-only $m tests/modes/user.c > "$d/clangxx.log" 2>&1; then
            ok "clang++ ${m:-declarations-only}: no warning"
        else bad "clang++ $m: warnings or errors ($d/clangxx.log)"; head -5 "$d/clangxx.log"; fi
    else skip=$((skip + 1)); echo "SKIP: clang++ not found"; fi
done
if command -v mpicc > /dev/null 2>&1; then
    printf '#include <mpi.h>\n#include "spmv.h"\n#include "spmv_mpi.h"\nint main(void) { return 0; }\n' > "$d/mpi.c"
    if mpicc -std=c11 -D_GNU_SOURCE $strict -fopenmp -I. -fsyntax-only "$d/mpi.c" > "$d/mpi.log" 2>&1; then
        ok "spmv_mpi.h with mpicc: no warning"
    else bad "spmv_mpi.h: warnings or errors ($d/mpi.log)"; head -5 "$d/mpi.log"; fi
else skip=$((skip + 1)); echo "SKIP: mpicc not found"; fi
# C++ unit against the C implementation (extern "C"): the user unit by g++, the bodies by gcc
if g++ -x c++ -std=c++17 $strict -fopenmp -I. -O2 -c tests/modes/user.c -o "$d/user-cxx.o" > "$d/mixed.log" 2>&1 &&
    g++ -fopenmp "$d/user-cxx.o" "$d/impl-gcc.o" -o "$d/two-mixed" -lm >> "$d/mixed.log" 2>&1 &&
    "$d/two-mixed" > "$d/two-mixed.out" 2>&1 && tail -1 "$d/two-mixed.out" | grep -q '^done$'; then
    ok "a C++ unit (g++) linked against the implementation compiled by gcc"
else bad "g++ unit + gcc implementation ($d/mixed.log)"; tail -5 "$d/mixed.log"; fi
if [ "$full" != 1 ]; then skip=$((skip + 1)); echo "SKIP: the nvcc unit against the gcc implementation (tests/run.sh --full)"
elif command -v nvcc > /dev/null 2>&1; then
    if nvcc -x cu -std=c++17 -O2 -I. -Xcompiler -fopenmp,-Wall,-Wextra,-Werror -gencode arch=compute_90,code=sm_90 \
        -c tests/modes/user.c -o "$d/user-nvcc.o" > "$d/nvcc.log" 2>&1 &&
        nvcc -Xcompiler -fopenmp "$d/user-nvcc.o" "$d/impl-gcc.o" -o "$d/two-nvcc" -lm >> "$d/nvcc.log" 2>&1 &&
        "$d/two-nvcc" > "$d/two-nvcc.out" 2>&1 && tail -1 "$d/two-nvcc.out" | grep -q '^done$'; then
        ok "nvcc: a declarations-only unit linked against the gcc implementation, run"
    else bad "nvcc two-unit program ($d/nvcc.log)"; tail -5 "$d/nvcc.log" "$d/two-nvcc.out" 2>/dev/null; fi
else skip=$((skip + 1)); echo "SKIP: nvcc not found"; fi
# libspmv.a (tags s and d, -O3) against gcc's header-only build above (-O0; ISO C: no contraction,
# no reassociation, so the optimisation level does not change a bit): the same bits
if [ -f "$lib" ]; then
    if gcc -std=c11 -D_GNU_SOURCE $strict -fopenmp -I. -O2 -DTM_NO_DL tests/modes/user.c -c -o "$d/user-lib.o" > "$d/lib.log" 2>&1 &&
        gcc -fopenmp "$d/user-lib.o" "$lib" -o "$d/two-lib" -lm >> "$d/lib.log" 2>&1; then
        "$d/all-gcc" stencil2d:n=60 nodl > "$d/all-nodl.out" 2>&1; "$d/two-lib" stencil2d:n=60 nodl > "$d/two-lib.out" 2>&1
        if tail -1 "$d/two-lib.out" | grep -q '^done$' && cmp -s "$d/all-nodl.out" "$d/two-lib.out"; then
            ok "linked against $lib: the same bits as the header-only build ($(grep -c . "$d/two-lib.out") lines)"
        else bad "libspmv.a's products differ from the header-only build's"; diff "$d/all-nodl.out" "$d/two-lib.out" | head -5; fi
    else bad "a declarations-only unit linked against $lib ($d/lib.log)"; tail -5 "$d/lib.log"; fi
    # every function the library exports is declared (the compiler refuses an undeclared one)
    syms=$(nm -g --defined-only "$lib" | awk '$2 == "T" {print $3}')
    { echo '#define SPMV_DECLARATIONS_ONLY'; echo '#define SPMV_ENABLE_ALL_TYPES'; echo '#include "spmv.h"'; echo 'int main(void) {';
      for s in $syms; do echo "    (void)&$s;"; done; echo '    return 0;'; echo '}'; } > "$d/declared.c"
    if gcc -std=c11 $strict -Werror=implicit-function-declaration -I. -c "$d/declared.c" -o "$d/declared.o" > "$d/declared.log" 2>&1; then
        ok "every one of the $(echo "$syms" | wc -w) functions $lib exports is declared in declarations-only mode"
    else bad "functions exported but not declared ($d/declared.log)"; grep error "$d/declared.log" | head -5; fi
else bad "$lib not built"; fi
# one argument order for every builder (inputs, options, then spmv_error * last): a call that
# puts the error where the options go no longer compiles (the old wrap and per-format builders)
n=0
for call in "spmv_d_csr_wrap(&A, 1, 1, rp, ci, v, e)" "spmv_d_csr_from_triplets(&A, t, e)" "spmv_d_ell_from_csr(&E, &A, e)" \
    "spmv_d_axc_from_csr(&X, &A, e)" "spmv_d_coo_from_triplets(&C, t, e)"; do
    printf '#define SPMV_DECLARATIONS_ONLY\n#include "spmv.h"\nint f(const spmv_triplets *t, spmv_error *e);\nint f(const spmv_triplets *t, spmv_error *e) {\n    int32_t rp[2] = {0, 0}, ci[1] = {0}; double v[1] = {0}; spmv_d_csr A; spmv_d_ell E; spmv_d_axt X; spmv_d_coo C;\n    (void)rp; (void)ci; (void)v; (void)E; (void)X; (void)C; (void)t;\n    return %s;\n}\n' "$call" > "$d/order.c"
    if gcc -std=c11 -I. -fsyntax-only "$d/order.c" > "$d/order.log" 2>&1; then bad "a builder call with the error in the options' place compiled: $call"
    elif grep -q 'too few arguments' "$d/order.log"; then n=$((n + 1)); else bad "$call: refused, but not for its arguments"; head -3 "$d/order.log"; fi
done
[ "$n" = 5 ] && ok "the old argument lists of five builders are compile errors (too few arguments)"
# a pre-C11 compiler: one clear #error, nothing else
gcc -std=c99 -I. -fsyntax-only tests/modes/impl.c > "$d/c99.log" 2>&1
if [ "$(grep -c 'error:' "$d/c99.log")" = 1 ] && grep -q 'needs C11' "$d/c99.log"; then ok "-std=c99: one #error naming C11"
else bad "-std=c99 did not give exactly one error naming C11"; head -5 "$d/c99.log"; fi
echo "RESULT build_modes passed=$pass failed=$fail skipped=$skip"
