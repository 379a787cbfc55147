#!/bin/sh
# The GPU half of the tests, for a machine with an NVIDIA GPU (nvcc and ninja, nothing
# else needed; no package is installed). Builds the CUDA targets, runs the CUDA tests
# for real (every kernel x type on edge cases, presets and the real matrices), then again
# under compute-sanitizer (memcheck, racecheck) on a smaller set, and ends with the line
# "N passed, N failed, N skipped".
#   sh tests/run_gpu.sh                 # matrices from $SPMV_MATRICES or ../shared/matrices
#   SPMV_GPU_BENCH=1 sh tests/run_gpu.sh   # also build/spmv-cuda bench on the presets (CSV in build/)
# tests/run.sh (CI, no GPU) compiles the same programs and runs the kernels through the
# CPU emulation instead.
set -u
cd "$(dirname "$0")/.."
export SPMV_MATRICES="${SPMV_MATRICES:-$(pwd)/../shared/matrices}"
passed=0; failed=0; skipped=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if ! ninja cuda; then echo "FAIL: CUDA build"; echo "0 passed, 1 failed"; exit 1; fi
run() { # name, env..., program
    name=$1; shift
    log=build/log.gpu.$(echo "$name" | tr '/ ' '__')
    start=$(date +%s)
    env "$@" >"$log" 2>&1; rc=$?
    grep -E '^(FAIL|SKIP)|ERROR SUMMARY|========= (Invalid|Race|Error)' "$log" | head -40
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
for t in test_cuda_csr test_cuda_formats; do
    run "gpu/$t" build/cuda/$t
done
if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
        for t in test_cuda_csr test_cuda_formats; do
            run "$tool/$t" SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=20000 \
                compute-sanitizer --tool $tool --error-exitcode 99 --print-limit 20 build/cuda/$t
        done
    done
else
    skipped=$((skipped + 1)); echo "SKIP: compute-sanitizer not found"
fi
if [ "${SPMV_GPU_BENCH:-0}" = 1 ]; then
    for p in d s; do
        if build/spmv-cuda bench --precision $p --csv build/bench-cuda-$p.csv; then passed=$((passed + 1))
        else failed=$((failed + 1)); echo "FAIL: spmv-cuda bench --precision $p"; fi
    done
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
