#!/bin/sh
# The GPU check in one call (for the lent GPU machine: nvcc, ninja and python3, no package
# registry; at most ~9 minutes). Usage:
#   sh tests/gpu_check.sh [OUTDIR]        (default build/gpu-check; on the device tool: "$OUT")
# Matrices: $SPMV_MATRICES, else carry/matrices (copy what the run needs there beforehand and
# name carry/ in the device tool's carry list: ../shared does not travel), else none (the
# real-matrix tests are then one SKIP).
# Phases, in priority order, each under its own time budget (seconds, overridable with
# SPMV_BUDGET_<PHASE>); a phase that runs out is a failure and the next one still runs:
#   device     nvidia-smi, driver, clocks, nvcc: what ran where
#   build      ninja cuda (rebuilt here when the binaries do not see the GPU); a failure stops
#   tests      test_cuda_csr, test_cuda_formats in groups of formats (SPMV_TEST_GROUPS; the
#              device rows of the registry not named in the three default groups form a fourth; every
#              format x s/d/dl/sl, edge cases, presets, real matrices), test_cuda_auto, test_cuda_ops,
#              test_cuda_mixed (tags ds, h, b), test_cuda_complex (z, c), test_cuda_suraa_rdc (SURAA with dynamic parallelism)
#   prodgrid   the quick test rebuilt with the production grid cap (65535 blocks; the tests
#              cap at 37 to make the grid-stride loops loop)
#   memcheck   compute-sanitizer memcheck on the quick test, per group of formats (probed first:
#              where the runtime refuses the sanitizer, that is recorded and the phase skipped)
#   racecheck  racecheck per family of kernels with shared memory, shuffles or barriers
#              (SPMV_RACE_GROUPS: csr_merge/csr_vector/coo, csr5, ellr/sell/hyb, bcsr,
#              suraa/axtch1/csrdu), then synccheck on all of them and racecheck on the DP suraa build
#   initcheck  initcheck on test_cuda_csr
#   bench      spmv-cuda bench, double (default set, then a 27-point stencil of ~430 MB) and
#              float (default set), CSVs (SPMV_GPU_BENCH_RUNS: which of d:default s:default d:big)
#   skew       circuit5m and webgraph, every row (the collapses of one-thread-per-row kernels)
#   real       every carried real matrix (complex ones left out), every row and auto: the
#              device oracle and the selection
#   presets    the three 300 MB presets
#   tune       both precisions with --tune
#   ops        --op mvt, --op mm:k=8 (column-major) and mm:k=8,row on the default set, double
# Each phase's budget: SPMV_BUDGET_<PHASE> (TESTS, MEMCHECK, RACECHECK, SYNCCHECK, INITCHECK,
# BENCH, ...), per program run. 15 minutes of device time do not hold them all: choose with
# SPMV_GPU_PHASES and SPMV_GPU_DEADLINE (the 2026-11-26 run: bench/results/2026-11-26-h200.md).
# Output in OUTDIR: gpu_check.log (everything), summary.csv (phase,status,seconds,passed,
# failed,skipped,note), bench-d.csv, bench-d-big.csv, bench-s.csv (and each phase's own log).
# Exit status 0 only when every phase passed.
set -u
cd "$(dirname "$0")/.."
out=${1:-build/gpu-check}
mkdir -p "$out"
log=$out/gpu_check.log
sum=$out/summary.csv
: > "$log"
echo "phase,status,seconds,passed,failed,skipped,note" > "$sum"
allok=1
if [ -z "${SPMV_MATRICES:-}" ]; then
    if [ -f carry/matrices/INDEX.tsv ]; then SPMV_MATRICES=$(pwd)/carry/matrices; else SPMV_MATRICES=$(pwd)/carry/none; fi
fi
export SPMV_MATRICES
say() { echo "$*" | tee -a "$log"; }
# the whole run ends inside SPMV_GPU_DEADLINE seconds (default 540: one device call is 600):
# each phase gets min(its budget, what is left); a phase with under 15 s left is not started
# and recorded as notrun (a failure). SPMV_GPU_PHASES (comma list, default all) selects
# phases, to split the check over two calls: device and build always run.
t_start=$(date +%s)
deadline=${SPMV_GPU_DEADLINE:-540}
phases=",${SPMV_GPU_PHASES:-tests,prodgrid,memcheck,racecheck,initcheck,bench,ops,skew,real,presets,tune},"
want() { case "$phases" in *",$1,"*) return 0 ;; esac; return 1; }
budget() { # phase default
    v=$(eval echo "\${SPMV_BUDGET_$1:-}")
    v=${v:-$2}
    l=$(( deadline - ($(date +%s) - t_start) ))
    [ "$l" -lt "$v" ] && v=$l
    echo "$v"
}
record() { # phase status seconds passed failed skipped note
    echo "$1,$2,$3,$4,$5,$6,\"$7\"" >> "$sum"
    say "== $1: $2 ($3 s) passed=$4 failed=$5 skipped=$6 $7"
    [ "$2" = ok ] || [ "$2" = skipped ] || allok=0
}
# runs a test program under a budget; adds its RESULT line to the phase
runtest() { # phase budget logname command...
    ph=$1; bud=$2; name=$3; shift 3
    if [ "$bud" -lt 15 ]; then record "$ph/$name" notrun 0 0 0 0 "the run's deadline came first"; return; fi
    t0=$(date +%s)
    timeout -k 10 "$bud" "$@" > "$out/$name.log" 2>&1
    rc=$?
    cat "$out/$name.log" >> "$log"
    res=$(grep '^RESULT' "$out/$name.log" | tail -1)
    p=$(echo "$res" | sed -n 's/.*passed=\([0-9]*\).*/\1/p'); f=$(echo "$res" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
    s=$(echo "$res" | sed -n 's/.*skipped=\([0-9]*\).*/\1/p')
    grep -E '^(FAIL|SKIP)|ERROR SUMMARY|========= (Invalid|Race|Error|Uninit)' "$out/$name.log" | head -20 | tee -a "$log"
    st=ok
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then st=timeout
    elif [ -z "$res" ] || [ "$rc" != 0 ] || [ "${f:-1}" != 0 ]; then st=fail; fi
    if grep -q 'ERROR SUMMARY: [1-9]' "$out/$name.log"; then st=fail; fi
    note="exit $rc"
    # racecheck refuses dynamic parallelism (H100, 2026-11-26: a warning, exit 99, nothing checked)
    if [ "$st" = fail ] && grep -q 'is not supported by the selected tool' "$out/$name.log"; then
        st=skipped; note="the sanitizer does not support this build: $(grep -m1 'is not supported by the selected tool' "$out/$name.log" | sed 's/^=* *//')"
    fi
    record "$ph/$name" "$st" $(( $(date +%s) - t0 )) "${p:-0}" "${f:-0}" "${s:-0}" "$note"
}

# ---- device ----
t0=$(date +%s)
{
    date -u
    nvidia-smi || echo "nvidia-smi failed"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit --format=csv || true
    nvcc --version || echo "nvcc missing"
    command -v compute-sanitizer || echo "compute-sanitizer not on PATH"
} >> "$log" 2>&1
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
record device ok $(( $(date +%s) - t0 )) 0 0 0 "nvidia-smi lists $gpus GPU(s); matrices: $SPMV_MATRICES"

# ---- build ----
t0=$(date +%s)
# SPMV_GPU_PREBUILT=1: binaries built on the developer's machine and carried (build/cuda,
# build/spmv-cuda) are used as they are when they run and see the GPU; else ninja builds here
prebuilt=0
if [ "${SPMV_GPU_PREBUILT:-0}" = 1 ] && [ -x build/cuda/test_cuda_formats ] && [ -x build/spmv-cuda ]; then prebuilt=1; fi
if [ $prebuilt = 1 ] || timeout -k 10 "$(budget BUILD 300)" ninja cuda_gpu >> "$log" 2>&1; then
    # binaries built elsewhere may lack this GPU's architecture or this machine's libraries:
    # the CSR test (a few seconds) decides
    probe=$(SPMV_TEST_QUICK=1 timeout 120 build/cuda/test_cuda_csr 2>&1)
    say "probe: $(echo "$probe" | grep -E '^(RESULT|SKIP|FAIL)' | head -3)"
    if [ "$gpus" -gt 0 ] && { echo "$probe" | grep -q '^SKIP: no CUDA device' || ! echo "$probe" | grep -q '^RESULT'; }; then
        say "binaries do not see the GPU: rebuilding here"
        rm -rf build/cuda build/spmv-cuda
        timeout -k 10 "$(budget BUILD 300)" ninja cuda_gpu >> "$log" 2>&1
    fi
    if [ -x build/cuda/test_cuda_formats ] && [ -x build/spmv-cuda ]; then
        record build ok $(( $(date +%s) - t0 )) 0 0 0 ""
    else
        record build fail $(( $(date +%s) - t0 )) 0 1 0 "binaries missing after the rebuild"
    fi
else
    record build fail $(( $(date +%s) - t0 )) 0 1 0 "ninja cuda failed (see gpu_check.log)"
fi
if [ "$allok" = 0 ]; then echo "gpu_check: the build failed; nothing else can run" | tee -a "$log"; exit 1; fi

tgroups_default="csr,csr_merge,csr_scalar,csr_vector,coo,csr5 axc,axtuh1,axtuh,axtch1,axtch ell,ellr,hll,sell,jad,hyb,dia,hdia,bcsr,suraa"
# every other device row of the registry (the product's rows: sss, csrdu, and any added later) in
# one more group, so that no format with device kernels is left out of the GPU tests
tgroups_rest=""
for f in $(sed '/TEST-ONLY ROWS/q' formats/registry.h |
           sed -n 's/^SPMV_FORMAT(\([a-z0-9_]*\), *[A-Za-z0-9_]*, *[a-z0-9_]*, *[01], *1,.*/\1/p'); do
    case ",$(echo "$tgroups_default" | tr ' ' ','),$tgroups_rest," in *",$f,"*) ;; *) tgroups_rest="$tgroups_rest,$f" ;; esac
done
[ -n "$tgroups_rest" ] && tgroups_default="$tgroups_default ${tgroups_rest#,}"
# ---- tests ----
if want tests; then
    runtest tests "$(budget TESTS 150)" test_cuda_csr build/cuda/test_cuda_csr
    # test_cuda_formats in groups of formats (SPMV_TEST_GROUPS, space-separated comma lists),
    # each under its own budget: one slow group cannot hide the others' results
    tgroups=${SPMV_TEST_GROUPS:-$tgroups_default}
    for g in $tgroups; do
        runtest tests "$(budget TESTS 200)" "test_cuda_formats_$(echo $g | cut -d, -f1)" \
            env SPMV_TEST_FORMATS=$g build/cuda/test_cuda_formats
    done
    runtest tests "$(budget TESTS 60)" test_cuda_auto build/cuda/test_cuda_auto
    # device handles from several host threads (the README's thread-safety list)
    runtest tests "$(budget TESTS 60)" test_cuda_threads build/cuda/test_cuda_threads
    # the device transpose products (csr_dev_mvt with atomics, every format from A^T)
    runtest tests "$(budget TESTS 60)" test_cuda_ops build/cuda/test_cuda_ops
    # the mixed-precision tags (ds, h, b) on every device row of their families, all real matrices
    runtest tests "$(budget TESTS 90)" test_cuda_mixed env SPMV_TEST_MAX_NNZ=-1 build/cuda/test_cuda_mixed
    # the complex tags (z, c) likewise
    runtest tests "$(budget TESTS 90)" test_cuda_complex env SPMV_TEST_MAX_NNZ=-1 build/cuda/test_cuda_complex
    # the distributed layer's device side on 2 ranks sharing the GPU (where Open MPI is there)
    if [ -x build/cuda/mpi_cuda_nvcc ] && command -v mpirun > /dev/null 2>&1; then
        runtest tests "$(budget TESTS 60)" test_mpi_cuda env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            mpirun --oversubscribe --allow-run-as-root -np 2 build/cuda/mpi_cuda_nvcc
    fi
    # SURAA with dynamic parallelism (nvcc -rdc=true -DSPMV_SURAA_DP; the default build's
    # suraa runs in test_cuda_formats)
    runtest tests "$(budget TESTS 60)" test_cuda_suraa_rdc build/cuda/test_cuda_suraa_rdc
    # the examples that use the GPU: they compare its product with the CPU's and exit 1 if not equal
    for e in cuda/cuda_csr cuda/cuda_any cuda/pagerank_nvcc; do
        t0=$(date +%s)
        if [ -x "build/$e" ] && timeout -k 5 60 "build/$e" > "$out/example_$(basename $e).log" 2>&1; then
            record "tests/example_$(basename $e)" ok $(( $(date +%s) - t0 )) 1 0 0 "$(tail -1 "$out/example_$(basename $e).log")"
        else
            record "tests/example_$(basename $e)" fail $(( $(date +%s) - t0 )) 0 1 0 "see example_$(basename $e).log"
        fi
    done
fi

# ---- production grid cap ----
if want prodgrid; then
    t0=$(date +%s)
    # carried prebuilt (ninja build/cuda/test_cuda_formats_prod) or compiled here
    if { [ $prebuilt = 1 ] && [ -x build/cuda/test_cuda_formats_prod ]; } ||
        timeout -k 10 "$(budget PRODBUILD 150)" nvcc -O3 -std=c++17 -I. -DSPMV_HAVE_ZLIB -DSPMV_CUDA_MAX_GRID=65535 \
            -Xcompiler -fopenmp -gencode arch=compute_90,code=sm_90 tests/cuda/test_cuda_formats.cu \
            -o build/cuda/test_cuda_formats_prod -lz -lm >> "$log" 2>&1; then
        runtest prodgrid "$(budget PRODGRID 90)" test_cuda_formats_prod env SPMV_TEST_QUICK=1 build/cuda/test_cuda_formats_prod
    else
        record prodgrid fail $(( $(date +%s) - t0 )) 0 1 0 "nvcc of the production-grid test failed"
    fi
fi

# ---- compute-sanitizer ----
cs=""
if want memcheck || want racecheck || want initcheck; then
    if command -v compute-sanitizer >/dev/null 2>&1; then
        # the probe asks only whether the sanitizer runs here (it prints its summary), not
        # whether the test passes: that is the tests phase's and the memcheck phase's job
        SPMV_TEST_QUICK=1 timeout 90 compute-sanitizer --tool memcheck build/cuda/test_cuda_csr > "$out/probe.log" 2>&1
        cat "$out/probe.log" >> "$log"
        if grep -q 'ERROR SUMMARY' "$out/probe.log"; then
            cs=compute-sanitizer
        else
            record memcheck skipped 0 0 0 1 "compute-sanitizer probe failed: the runtime refuses it here (see gpu_check.log)"
        fi
    else
        record memcheck skipped 0 0 0 1 "compute-sanitizer not found"
    fi
fi
if [ -n "$cs" ]; then
    if want memcheck; then
        for g in ${SPMV_MEM_GROUPS:-$tgroups_default}; do
            runtest memcheck "$(budget MEMCHECK 150)" "memcheck_$(echo $g | cut -d, -f1)" \
                env SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=${SPMV_MEM_NNZ:-20000} SPMV_TEST_TAGS=${SPMV_MEM_TAGS:-s,d,dl,sl} SPMV_TEST_FORMATS=$g \
                $cs --tool memcheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_formats
        done
        # the transpose, SpMM and new-values kernels
        runtest memcheck "$(budget MEMCHECK 150)" memcheck_ops env SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=${SPMV_MEM_NNZ:-20000} \
            $cs --tool memcheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_ops
    fi
    if want racecheck; then
        # racecheck is slow (~1000x): the kernels with shared memory, shuffles or barriers in
        # groups (SPMV_RACE_GROUPS, space-separated comma lists), each under its own budget, so
        # that one slow group does not hide the others; synccheck (fast) on all of them at once
        groups=${SPMV_RACE_GROUPS:-"csr_merge,csr_vector,coo csr5 ellr,sell,hyb bcsr suraa,axtch1,csrdu"}
        allg=$(echo $groups | tr ' ' ',')
        for g in $groups; do
            runtest racecheck "$(budget RACECHECK 60)" "racecheck_$(echo $g | tr ',' '_')" \
                env SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=${SPMV_RACE_NNZ:-600} SPMV_TEST_TAGS=${SPMV_RACE_TAGS:-d} SPMV_TEST_FORMATS=$g \
                $cs --tool racecheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_formats
        done
        runtest synccheck "$(budget SYNCCHECK 90)" synccheck_all \
            env SPMV_TEST_QUICK=1 SPMV_TEST_MAX_NNZ=${SPMV_RACE_NNZ:-600} SPMV_TEST_TAGS=d,s SPMV_TEST_FORMATS=$allg \
            $cs --tool synccheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_formats
        # SURAA's dynamic-parallelism build (child grids)
        runtest racecheck "$(budget RACECHECK 60)" racecheck_suraa_rdc env SPMV_TEST_QUICK=1 \
            $cs --tool racecheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_suraa_rdc
    fi
    want initcheck && runtest initcheck "$(budget INITCHECK 60)" initcheck_csr env SPMV_TEST_QUICK=1 \
        $cs --tool initcheck --error-exitcode 99 --print-limit 20 build/cuda/test_cuda_csr
fi

# ---- bench ----
# double: the default set, then a 27-point stencil of ~36M nonzeros (~430 MB in CSR); float;
# then (phase tune) both precisions with each tunable format's search
runs=""
want bench && runs="${SPMV_GPU_BENCH_RUNS:-d:default s:default d:big}"
want ops && runs="$runs d:mvt d:mm8 d:mm8row"
want real && runs="$runs d:real"
want skew && runs="$runs d:skew"
want presets && runs="$runs d:presets"
want tune && runs="$runs d:tune s:tune"
for run in $runs; do
    p=${run%%:*}; which=${run#*:}; t0=$(date +%s)
    args="--reps 30"; name=bench-$p
    [ $which = big ] && args="$args gen:stencil3d:n=110,pts=27" && name=bench-$p-big
    # the large presets (300 MB or more in CSR)
    [ $which = presets ] && args="$args gen:stencil27big gen:fem3dbig gen:webgraphbig" && name=bench-$p-presets
    # every carried real matrix, with auto: the device oracle is the fastest row of each
    # (small matrices: 20 timed calls and 0.02 s per row are enough for a median)
    [ $which = real ] && args="--reps 20 --min-time 0.02 $(awk -F'\t' -v d="$SPMV_MATRICES" 'NR > 1 && $9 != "complex" { printf "%s/%s.mtx.gz ", d, $1 }' "$SPMV_MATRICES/INDEX.tsv" 2>/dev/null)" && name=bench-$p-real
    # the two skewed presets of the default set, every row (the collapses and the skew cap)
    [ $which = skew ] && args="--reps 10 --min-time 0.05 gen:circuit5m gen:webgraph" && name=bench-$p-skew
    [ $which = tune ] && args="$args --tune" && name=bench-$p-tune
    # the operations beyond y = Ax on the default set: A^T x (every format from A^T, csr_dev_mvt,
    # cuSPARSE's transpose), SpMM with 8 vectors column-major (every format) and row-major (csr
    # and the ELL rows, and cusparseSpMM)
    [ $which = mvt ] && args="--reps 20 --min-time 0.05 --op mvt" && name=bench-$p-mvt
    [ $which = mm8 ] && args="--reps 20 --min-time 0.05 --op mm:k=8" && name=bench-$p-mm8
    [ $which = mm8row ] && args="--reps 20 --min-time 0.05 --op mm:k=8,row --formats cusparse,csr,sell,hll,csrdu" && name=bench-$p-mm8row
    bud=$(budget BENCH 150)
    if [ "$bud" -lt 15 ]; then record "$name" notrun 0 0 0 0 "the run's deadline came first"; continue; fi
    if timeout -k 10 "$bud" build/spmv-cuda bench --precision $p --csv "$out/$name.csv" $args \
            > "$out/$name.txt" 2>&1; then
        record "$name" ok $(( $(date +%s) - t0 )) 1 0 0 ""
    else
        record "$name" fail $(( $(date +%s) - t0 )) 0 1 0 "exit $? (see $name.txt)"
    fi
    cat "$out/$name.txt" >> "$log"
done
say "gpu_check: $( [ $allok = 1 ] && echo all phases passed || echo FAILED: see $sum )"
[ "$allok" = 1 ]
