#!/bin/sh
# Builds and runs the whole test suite on a fresh machine: installs what is missing
# (Debian packages), builds with ninja (normal, AVX-512-emulated and sanitizer builds,
# strict examples, CUDA compile+link when nvcc is present), runs every test program
# and ends with the line "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
need=""
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
[ -f /usr/include/simde/x86/avx512.h ] || need="$need libsimde-dev"
if [ -n "$need" ]; then
    echo "installing:$need"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null || {
        echo "could not install:$need"; echo "0 passed, 1 failed"; exit 1; }
fi
passed=0; failed=0; skipped=0
if ! ninja tests; then
    echo "build failed"; echo "0 passed, 1 failed"; exit 1
fi
if command -v nvcc >/dev/null 2>&1; then
    if ninja cuda; then passed=$((passed + 1)); echo "cuda: compiled and linked for sm_75, sm_80, sm_90 (CUDA 13 has no sm_70)"
    else failed=$((failed + 1)); echo "FAIL: CUDA build"; fi
    cuda_tests=$(ls build/cuda/test_* 2>/dev/null)
else
    skipped=$((skipped + 1)); echo "SKIP: nvcc not found: CUDA code not compiled"
    cuda_tests=""
fi
export SPMV_MATRICES="${SPMV_MATRICES:-$(pwd)/../shared/matrices}"
run() { # name, env..., program
    name=$1; shift
    log=build/log.$(echo "$name" | tr '/ ' '__')
    start=$(date +%s)
    env "$@" >"$log" 2>&1; rc=$?
    grep -E '^(FAIL|SKIP)' "$log" | head -40
    res=$(grep '^RESULT' "$log" | tail -1)
    if [ -z "$res" ]; then
        echo "FAIL: $name crashed or did not finish (exit $rc); last lines:"; tail -5 "$log"
        failed=$((failed + 1)); return
    fi
    p=$(echo "$res" | sed 's/.*passed=\([0-9]*\).*/\1/'); f=$(echo "$res" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$res" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "FAIL: $name exited $rc"; fi
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    echo "$name: $p passed, $f failed, $s skipped ($(( $(date +%s) - start )) s)"
}
# every test program the build produced (the per-format ones come from the registry)
for t in build/tests/test_*; do
    run "$(basename $t)" OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive $t
done
# emulated AVX-512: real matrices up to 1M nonzeros; the per-format programs run only the
# AVX-512 backend there (the portable and AVX2 ones are the normal build's)
for t in build/tests-emu/test_*; do
    run "emu/$(basename $t)" OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive SPMV_TEST_MAX_NNZ=1000000 SPMV_TEST_ISAS=avx512 $t
done
# sanitizers: real matrices up to 300k nonzeros (the normal builds run all of them)
for t in build/tests-asan/test_*; do
    run "asan/$(basename $t)" OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive SPMV_TEST_MAX_NNZ=300000 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $t
done
# CUDA kernels run on the CPU (tests/emu/cuda_emu.h): every format and type on the edge
# cases and the small real matrices; the emulation costs ~1000x a GPU, so the real matrices
# are capped (tests/run_gpu.sh runs all of them on a GPU)
run cuemu/test_cuda_csr OMP_NUM_THREADS=2 build/tests-cuemu/test_cuda_csr
run cuemu/test_cuda_formats OMP_NUM_THREADS=2 SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=${SPMV_CUEMU_MAX_NNZ:-5000} \
    build/tests-cuemu/test_cuda_formats
# with ASan (device arrays are host memory here: out-of-bounds kernel accesses are caught)
run cuemu-asan/test_cuda_formats OMP_NUM_THREADS=2 SPMV_TEST_TAGS=d,sl SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=2000 \
    ASAN_OPTIONS=detect_leaks=1 build/tests-cuemu-asan/test_cuda_formats
# spmv mv against an independent pure-Python reference on the real matrices
if [ -f "$SPMV_MATRICES/INDEX.tsv" ] && command -v python3 >/dev/null 2>&1; then
    run mv_check python3 tests/mv_check.py build/spmv "$SPMV_MATRICES" "${SPMV_MVCHECK_MAX_NNZ:-400000}"
else
    skipped=$((skipped + 1)); echo "SKIP: mv_check: no $SPMV_MATRICES/INDEX.tsv or no python3"
fi
for t in $cuda_tests; do
    run "cuda/$(basename $t)" $t
done
# issue 14: the Matrix Market conformance cases of scipy's and fast_matrix_market's test suites
# (../shared/mm_conformance; skipped with a notice when absent), then the reader's libFuzzer
# target for a fixed budget (SPMV_FUZZ_SECONDS, default 40; clang is installed when missing)
run mm_conformance sh tests/mm_conformance.sh build/spmv
run fuzz_mm sh tests/fuzz/run_fuzz.sh "${SPMV_FUZZ_SECONDS:-40}"
# examples, compiled strictly (C11 -pedantic -Werror) by ninja; they must run
for e in quickstart int64; do
    if build/examples/$e >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: example $e"; fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
