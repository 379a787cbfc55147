#!/bin/sh
# Builds and runs the whole test suite on a fresh machine: installs what is missing
# (Debian packages), builds with ninja (normal, AVX-512-emulated and sanitizer builds,
# strict examples, CUDA compile+link when nvcc is present), runs every test program
# and ends with the line "N passed, N failed, N skipped".
# `sh tests/run.sh --full` (or SPMV_TEST_FULL=1) runs the full suite: every program `ninja tests`
# builds (docs/TESTING.md, "Two lengths"); without it, the suite that fits 15 minutes on 2 cores.
set -u
full=${SPMV_TEST_FULL:-0}
[ "${1:-}" = "--full" ] && full=1
export SPMV_TEST_FULL=$full # the scripts the suite runs (build_modes, pkg_check, mpi_check) read it
cd "$(dirname "$0")/.."
need=""
command -v ninja >/dev/null 2>&1 || need="$need ninja-build"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
[ -f /usr/include/simde/x86/avx512.h ] || need="$need libsimde-dev"
# only to test the installed package (tests/pkg_check.sh)
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v pkg-config >/dev/null 2>&1 || need="$need pkgconf"
# the distributed layer (spmv_mpi.h, tests/mpi_check.sh)
command -v mpicc >/dev/null 2>&1 || need="$need libopenmpi-dev openmpi-bin"
if [ -n "$need" ]; then
    echo "installing:$need"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null || {
        echo "could not install:$need"; echo "0 passed, 1 failed"; exit 1; }
fi
passed=0; failed=0; skipped=0
# the per-format build lines must be the registry's (ninja regenerates them itself; this
# catches a stale checked-in copy)
mkdir -p build
if sh tests/gen_ninja.sh build/tests.ninja.check && cmp -s build/tests.ninja.check tests/tests.ninja; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: tests/tests.ninja is not what tests/gen_ninja.sh makes of formats/registry.h"
fi
export SPMV_MATRICES="${SPMV_MATRICES:-$(pwd)/../shared/matrices}"
# one ninja run builds and runs every test program (build/logs/*.log, tests/run_one.sh), so
# compiling and running overlap on the cores; with nvcc, the CUDA programs are built too
rm -rf build/logs; mkdir -p build/logs
# the emulated AVX-512 build's programs where this CPU has no AVX-512 (F and BW: the 16-bit loads
# need BW); where it has, the normal builds run the same kernels natively on every real matrix
if [ "$full" = 1 ]; then targets="check_full"
elif grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx512bw /proc/cpuinfo 2>/dev/null; then
    targets="check"; echo "the CPU has AVX-512: its kernels run natively; the emulated AVX-512 build is left to tests/run.sh --full"
else targets="check check_emu"; fi
if command -v nvcc >/dev/null 2>&1; then if [ "$full" = 1 ]; then targets="$targets cuda"; else targets="$targets cuda_check"; fi; fi
# the distributed layer's device side by nvcc (needs Open MPI's compiler flags)
if [ "$full" = 1 ] && command -v nvcc >/dev/null 2>&1 && command -v mpicxx >/dev/null 2>&1; then targets="$targets build/cuda/mpi_cuda_nvcc"; fi
start=$(date +%s)
ninja -k 0 -j "${SPMV_TEST_JOBS:-3}" $targets > build/ninja.log 2>&1
nrc=$?
grep -E '^FAILED|error:' build/ninja.log | head -20
echo "build and test programs: $(( $(date +%s) - start )) s (ninja exit $nrc)"
if [ "$nrc" != 0 ]; then failed=$((failed + 1)); echo "FAIL: ninja (build/ninja.log)"; fi
if command -v nvcc >/dev/null 2>&1; then
    cuda_tests=""
    nv="build/cuda/test_cuda_mixed build/cuda/test_cuda_complex build/cuda/test_cuda_suraa_rdc build/spmv-cuda"
    [ "$full" = 1 ] && nv="$nv build/cuda/cuda_any build/cuda/test_cuda_csr build/cuda/test_cuda_formats build/cuda/cuda_csr build/cuda/int64_nvcc build/cuda/cg_nvcc build/cuda/pagerank_nvcc"
    for b in $nv; do
        [ -x "$b" ] || { failed=$((failed + 1)); echo "FAIL: CUDA build: $b missing"; }
    done
    [ -x build/spmv-cuda ] && [ -x build/cuda/test_cuda_mixed ] && { passed=$((passed + 1)); echo "cuda: the tool compiled and linked for sm_75, sm_80, sm_90 (CUDA 13 has no sm_70), the examples and test programs for sm_90"; }
    cuda_tests=$(ls build/cuda/test_* 2>/dev/null)
else
    skipped=$((skipped + 1)); echo "SKIP: nvcc not found: CUDA code not compiled"
    cuda_tests=""
fi
add() { # name, log, exit status: adds its RESULT line
    name=$1; log=$2; rc=$3
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
}
# every log the build.ninja's check target names must be there
phonies="check format_checks"
case " $targets " in *" check_emu "*) phonies="$phonies check_emu format_checks_emu" ;; esac
[ "$full" = 1 ] && phonies="$phonies check_emu format_checks_emu check_full format_checks_full"
for log in $(for p in $phonies; do ninja -t query $p 2>/dev/null | sed -n 's/^ *\(build\/logs\/[^ ]*\.log\)$/\1/p'; done); do
    name=$(basename "$log" .log)
    if [ ! -f "$log" ]; then failed=$((failed + 1)); echo "FAIL: $name did not run (not built?)"; continue; fi
    rc=$(tail -1 "$log" | awk '{print $2}'); secs=$(tail -1 "$log" | awk '{print $3}')
    add "$name" "$log" "$rc"
    echo "$name: $(grep '^RESULT' "$log" | tail -1 | sed 's/^RESULT [^ ]* //') (${secs} s)"
done
run() { # name, env..., program
    name=$1; shift
    log=build/logs/run.$(echo "$name" | tr '/ ' '__').log
    t0=$(date +%s)
    env "$@" >"$log" 2>&1; rc=$?
    add "$name" "$log" "$rc"
    echo "$name: $(grep '^RESULT' "$log" | tail -1 | sed 's/^RESULT [^ ]* //') ($(( $(date +%s) - t0 )) s)"
}
# (spmv mv against pure Python, the Matrix Market conformance cases and the reader's fuzz
# target are ninja edges too: build.ninja's run.* logs, added up above)
for t in $cuda_tests; do
    run "cuda/$(basename $t)" $t
done
# a run that sees no GPU where nvidia-smi lists one must fail, not skip: a fake nvidia-smi
# listing a GPU on a machine without one must turn the native CUDA test into a failure
if [ -x build/cuda/test_cuda_mixed ] && ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    mkdir -p build/fake-smi
    printf '#!/bin/sh\necho "GPU 0: fake GPU for the harness check (UUID: GPU-0)"\n' > build/fake-smi/nvidia-smi
    chmod +x build/fake-smi/nvidia-smi
    if PATH="$(pwd)/build/fake-smi:$PATH" build/cuda/test_cuda_mixed > build/logs/fake-smi.log 2>&1; then
        failed=$((failed + 1)); echo "FAIL: test_cuda_mixed passed although nvidia-smi listed a GPU CUDA could not see"
    elif grep -q 'nvidia-smi lists 1 GPU' build/logs/fake-smi.log; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL: test_cuda_mixed under a fake nvidia-smi failed without saying why"; tail -3 build/logs/fake-smi.log
    fi
fi
# spmv-cuda on a machine without a GPU: exit 3 and a message saying so (not the CUDA runtime's
# "driver version is insufficient" alone)
if [ -x build/spmv-cuda ] && ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    build/spmv-cuda bench gen:stencil2d:n=10 > build/logs/spmv-cuda-nogpu.log 2>&1
    rc=$?
    if [ "$rc" = 3 ] && grep -q 'no CUDA device on this machine' build/logs/spmv-cuda-nogpu.log; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL: spmv-cuda without a GPU: exit $rc"; tail -2 build/logs/spmv-cuda-nogpu.log; fi
fi
# examples, compiled strictly (C11 -pedantic -Werror) by ninja; they must run (cg and
# pagerank check their own results: the true residual, a long-double PageRank reference; cgls
# its normal equations' residual in long double and its two transpose products' agreement;
# cg_mixed both solvers' true residuals in long double; helmholtz its true residual in long double
# complex and the adjoint identity of csr_mvh)
# (the five of tags s and d against build/libspmv.a, build/examples-lib/; --full: header-only too)
ex() { case $1 in quickstart|cg|pagerank|cgls|choose_format) echo build/examples-lib/$1 ;; *) echo build/examples/$1 ;; esac; }
for e in quickstart int64 cg pagerank cgls cg_mixed helmholtz choose_format; do
    for b in $(ex $e) $([ "$full" = 1 ] && [ "$(ex $e)" != build/examples/$e ] && echo build/examples/$e); do
        if OMP_NUM_THREADS=2 $b >build/logs/example.$e.log 2>&1; then passed=$((passed + 1)); else
            failed=$((failed + 1)); echo "FAIL: example $b"; tail -5 build/logs/example.$e.log; fi
    done
done
cf=$(ex choose_format)
# choose_format with other names: parameters taken, an unknown name or key refused (exit 2, a reason)
for a in "bcsr bs=2" "csr5" "dia isa=generic"; do
    if OMP_NUM_THREADS=2 $cf $a >build/logs/example.choose_format.log 2>&1 &&
        grep -q "^${a%% *} " build/logs/example.choose_format.log; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL: example choose_format $a"; tail -3 build/logs/example.choose_format.log; fi
done
for a in "nope" "sell bogus=1" "sell isa=avx-512"; do
    OMP_NUM_THREADS=2 $cf $a >build/logs/example.choose_format.log 2>&1
    rc=$?
    if [ "$rc" = 2 ] && [ -s build/logs/example.choose_format.log ]; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL: example choose_format $a: exit $rc (expected 2 and a reason)"; fi
done
if OMP_NUM_THREADS=2 build/tests-cuemu/cuda_any >build/logs/example.cuda_any_emu.log 2>&1 &&
    grep -q 'auto chose' build/logs/example.cuda_any_emu.log; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: example cuda_any (emulation)"; tail -5 build/logs/example.cuda_any_emu.log; fi
# the CUDA example in the CPU emulation of the CUDA model: its device product must match the CPU's
if OMP_NUM_THREADS=2 build/tests-cuemu/cuda_csr >build/logs/example.cuda_csr_emu.log 2>&1 &&
    grep -q 'max |GPU - CPU|' build/logs/example.cuda_csr_emu.log; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: example cuda_csr (emulation)"; tail -5 build/logs/example.cuda_csr_emu.log; fi
# (--full) the examples compiled by nvcc: cg, pagerank and int64 as -x cu, cuda_csr and cuda_any;
# without a GPU they run the host part (pagerank and the CUDA examples say the GPU part was
# skipped), with one they check the GPU too
if [ "$full" = 1 ] && command -v nvcc >/dev/null 2>&1; then
    nx="cg pagerank int64 cuda_csr cuda_any"
    for e in $nx; do
        case $e in cuda_*) b=build/cuda/$e ;; *) b=build/cuda/${e}_nvcc ;; esac
        if OMP_NUM_THREADS=2 $b >build/logs/example.${e}_nvcc.log 2>&1; then passed=$((passed + 1)); else
            failed=$((failed + 1)); echo "FAIL: example ${e}_nvcc"; tail -5 build/logs/example.${e}_nvcc.log; fi
    done
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
