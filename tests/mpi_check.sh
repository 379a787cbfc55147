#!/bin/sh
# The distributed layer's tests (tests/mpi/test_mpi.c; the device side in the CUDA emulation,
# tests/mpi/test_mpi_cuda.cu) under mpirun -np 1 and 3 (and 2 and 4 in the full suite) (Open MPI;
# --oversubscribe: 4 ranks on 2 cores; --allow-run-as-root: CI runs as root), each run under a
# time limit: a hang on any rank is a failure, not a wait. Ends with one RESULT line.
# `tests/mpi_check.sh --cuda`: the device side alone (the full suite's run.mpi_cuda_check edge).
prog=build/tests/test_mpi
pass=0; fail=0; skip=0
cuda_only=0; [ "${1:-}" = "--cuda" ] && cuda_only=1
full=${SPMV_TEST_FULL:-0} # 1: the full suite's rank counts (tests/run.sh --full)
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x "$prog" ]; then
    echo "SKIP: Open MPI (mpirun) or $prog missing: the distributed layer not tested"
    echo "RESULT mpi_check passed=0 failed=0 skipped=1"; exit 0
fi
# one test program under mpirun -np N: its RESULT line added up; no RESULT (a crash, or the
# timeout: a hang) or a failing exit with no failed check is a failure
run_np() { # label, program, ranks, log, extra environment
    label=$1; p_=$2; np=$3; out=$4; shift 4
    OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout -k 10 240 mpirun --oversubscribe --allow-run-as-root --bind-to none -np $np \
        env OMP_NUM_THREADS=1 "$@" "$p_" > "$out" 2>&1
    rc=$?
    res=$(grep '^RESULT' "$out" | tail -1)
    grep '^FAIL' "$out" | head -20
    if [ -z "$res" ]; then
        fail=$((fail + 1)); echo "FAIL: ${label}mpirun -np $np: no result (exit $rc$( [ $rc = 124 ] && echo ', timed out: a hang'))"; tail -5 "$out"
        return
    fi
    p=$(echo "$res" | sed 's/.*passed=\([0-9]*\).*/\1/'); f=$(echo "$res" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$res" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    [ "$rc" != 0 ] && [ "$f" = 0 ] && { f=1; echo "FAIL: ${label}mpirun -np $np exited $rc"; }
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    echo "${label}np $np: $res"
}
# the optional tags' and the device side's layers on 1 and 3 ranks (the full suite: on 2 too); the
# layer itself, tags s, d and dl, on 1 to 3 (and 4)
nps="1 3"; [ "$full" = 1 ] && nps="1 2 3"
# the device side in the CUDA emulation (tests/mpi/test_mpi_cuda.cu), the full suite's
if [ "$cuda_only" = 1 ]; then
    if [ -x build/tests-cuemu/test_mpi_cuda ]; then
        for np in $nps; do run_np "device side, " build/tests-cuemu/test_mpi_cuda $np build/logs/mpi.cuda.np$np.out; done
    else fail=$((fail + 1)); echo "FAIL: build/tests-cuemu/test_mpi_cuda missing"; fi
    echo "RESULT mpi_check passed=$pass failed=$fail skipped=$skip"
    [ "$fail" = 0 ]; exit $?
fi
for np in 1 3 $([ "$full" = 1 ] && echo 2 4); do run_np "" "$prog" $np build/logs/mpi.np$np.out OMP_WAIT_POLICY=passive; done
# a float matrix with double vectors (tests/mpi/test_mpi_ds.c) on 1 and 3 ranks (the full suite: 2 too)
if [ -x build/tests/test_mpi_ds ]; then
    for np in $nps; do run_np "ds, " build/tests/test_mpi_ds $np build/logs/mpi.ds.np$np.out OMP_WAIT_POLICY=passive; done
else
    fail=$((fail + 1)); echo "FAIL: build/tests/test_mpi_ds missing"
fi
# 16-bit values with float vectors (the same test built with -DTM_HALF: tags h and b) on 1-3 ranks
if [ -x build/tests/test_mpi_half ]; then
    for np in $nps; do run_np "h and b, " build/tests/test_mpi_half $np build/logs/mpi.half.np$np.out OMP_WAIT_POLICY=passive; done
else
    fail=$((fail + 1)); echo "FAIL: build/tests/test_mpi_half missing"
fi
# complex values and vectors (the same test built with -DTM_CPLX: tags z and c) on 1-3 ranks
if [ -x build/tests/test_mpi_complex ]; then
    for np in $nps; do run_np "z and c, " build/tests/test_mpi_complex $np build/logs/mpi.complex.np$np.out OMP_WAIT_POLICY=passive; done
else
    fail=$((fail + 1)); echo "FAIL: build/tests/test_mpi_complex missing"
fi
# the distributed CG example: its true residual checked on 3 ranks, 2 threads each
if [ -x build/examples/cg_mpi ]; then
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 240 mpirun --oversubscribe \
        --allow-run-as-root --bind-to none -np 3 env OMP_NUM_THREADS=2 build/examples/cg_mpi > build/logs/mpi.cg.out 2>&1 &&
        grep -q 'ok)$' build/logs/mpi.cg.out; then pass=$((pass + 1)); echo "cg_mpi: $(cat build/logs/mpi.cg.out)"
    else fail=$((fail + 1)); echo "FAIL: examples/cg_mpi on 3 ranks"; tail -3 build/logs/mpi.cg.out; fi
fi
# the tool: spmv-mpi mv on 2 and 3 ranks writes what the serial `spmv mv` writes (integer data: exact
# sums in any order), y = A x and A^T x; an unreadable matrix is exit 1 on every rank, no hang;
# bench writes its CSV row
if [ -x build/spmv-mpi ] && [ -x build/spmv ]; then
    T=$(mktemp -d /tmp/spmv_mpi_check.XXXXXX)
    printf '%%%%MatrixMarket matrix coordinate real general\n6 7 12\n1 1 2\n1 6 -1\n2 2 3\n2 1 1\n3 3 4\n3 5 2\n4 4 1\n4 2 -3\n5 5 5\n5 7 1\n6 6 2\n6 3 7\n' > "$T/a.mtx"
    printf '%%%%MatrixMarket matrix array real general\n7 1\n1\n2\n3\n-1\n4\n5\n-2\n' > "$T/x.mtx"
    printf '%%%%MatrixMarket matrix array real general\n6 1\n1\n-2\n3\n4\n0\n5\n' > "$T/xt.mtx"
    build/spmv mv "$T/a.mtx" --x "$T/x.mtx" --out "$T/ys.mtx" > /dev/null 2>&1
    build/spmv mv --transpose "$T/a.mtx" --x "$T/xt.mtx" --out "$T/yts.mtx" > /dev/null 2>&1
    for np in 2 3; do
        run="timeout -k 10 60 mpirun --oversubscribe --allow-run-as-root --bind-to none -np $np build/spmv-mpi"
        if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $run mv --x "$T/x.mtx" --out "$T/y.mtx" "$T/a.mtx" > /dev/null 2>&1 &&
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $run mv --transpose --x "$T/xt.mtx" --out "$T/yt.mtx" "$T/a.mtx" > /dev/null 2>&1 &&
            cmp -s "$T/y.mtx" "$T/ys.mtx" && cmp -s "$T/yt.mtx" "$T/yts.mtx"; then pass=$((pass + 1))
        else fail=$((fail + 1)); echo "FAIL: spmv-mpi mv on $np ranks differs from spmv mv"; fi
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $run mv "$T/none.mtx" > "$T/err" 2>&1
        rc=$?
        if [ $rc = 1 ] && grep -q 'cannot open' "$T/err"; then pass=$((pass + 1))
        else fail=$((fail + 1)); echo "FAIL: spmv-mpi mv on a missing file, $np ranks: exit $rc"; fi
    done
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 120 mpirun --oversubscribe --allow-run-as-root \
        --bind-to none -np 2 env OMP_NUM_THREADS=1 build/spmv-mpi bench --samples 2 --csv "$T/b.csv" gen:stencil3d:n=12,pts=7 > /dev/null 2>&1 &&
        grep -q '^"gen:stencil3d:n=12,pts=7",1728,1728,11232,csr,1,double,2,' "$T/b.csv"; then pass=$((pass + 1)); echo "spmv-mpi: mv, mvt, errors, bench: ok"
    else fail=$((fail + 1)); echo "FAIL: spmv-mpi bench"; cat "$T/b.csv" 2>/dev/null; fi
    rm -rf "$T"
fi
# the arguments, agreed before anything collective (bench/mpi_common.h, mb_agree_args): an argument
# error on one rank, or arguments that differ between ranks (Open MPI's MPMD form, -np 1 prog args :
# -np 1 prog otherargs), end every rank with exit 2 and the message once (before: a bogus format or
# --transpose on one rank, other --samples on one rank hung until the time limit, exit 124; another
# matrix on one rank ran to exit 0 with rows of both; mpi_bench ignored a bogus format, exit 0).
# A wrapper prints each rank's exit status and holds a
# nonzero one 2 s, so that mpirun's abort of the job after the first nonzero exit cuts no rank's line.
# And `spmv-mpi mv --out -` writes y to standard output as `spmv mv --out -` does, no file '-'.
if [ -x build/spmv-mpi ] && [ -x build/spmv ]; then
    T=$(mktemp -d /tmp/spmv_mpi_args.XXXXXX)
    printf '%%%%MatrixMarket matrix coordinate real general\n6 7 12\n1 1 2\n1 6 -1\n2 2 3\n2 1 1\n3 3 4\n3 5 2\n4 4 1\n4 2 -3\n5 5 5\n5 7 1\n6 6 2\n6 3 7\n' > "$T/a.mtx"
    printf '%%%%MatrixMarket matrix coordinate real general\n6 7 12\n1 1 2\n1 7 -1\n2 2 3\n2 1 1\n3 3 4\n3 5 2\n4 4 1\n4 2 -3\n5 5 5\n5 7 1\n6 6 2\n6 3 7\n' > "$T/b.mtx"
    printf '%%%%MatrixMarket matrix coordinate real general\n4 4 10\n1 1 2\n1 2 -1\n2 1 -1\n2 2 2\n2 3 -1\n3 2 -1\n3 3 2\n3 4 -1\n4 3 -1\n4 4 2\n' > "$T/c.mtx"
    printf '%%%%MatrixMarket matrix array real general\n7 1\n1\n2\n3\n-1\n4\n5\n-2\n' > "$T/x.mtx"
    printf '%s\n' 'export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive' '"$@"; rc=$?' \
        'echo "rank $OMPI_COMM_WORLD_RANK exit=$rc" >&2; [ $rc = 0 ] || sleep 2; exit $rc' > "$T/w.sh"
    # agreed WHAT RANKS MESSAGE MPIRUN-ARGS...: every one of RANKS ranks exits 2, MESSAGE once, no hang
    agreed() {
        what=$1; nr=$2; msg=$3; shift 3
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 60 mpirun --oversubscribe \
            --allow-run-as-root --bind-to none "$@" > "$T/out" 2>&1
        rc=$?
        n2=$(grep -c '^rank [0-9]* exit=2$' "$T/out"); nm=$(grep -c -F "$msg" "$T/out")
        if [ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 137 ] && [ "$n2" = "$nr" ] && [ "$nm" = 1 ]; then pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: $what: mpirun exit $rc$( [ $rc = 124 ] && echo ' (timed out: a hang)'), $n2 of $nr ranks exit 2, '$msg' $nm times (want 1)"
            tail -5 "$T/out"
        fi
    }
    R="sh $T/w.sh build/spmv-mpi"
    agreed "spmv-mpi mv, --format bogus on one rank" 2 "unknown format 'bogus'" \
        -np 1 $R mv --format csr "$T/a.mtx" : -np 1 $R mv --format bogus "$T/a.mtx"
    agreed "spmv-mpi mv, --format bogus on every rank" 3 "unknown format 'bogus'" -np 3 $R mv --format bogus "$T/a.mtx"
    agreed "spmv-mpi mv, --transpose on one rank" 2 "arguments differ between ranks: rank 1 has '--transpose'" \
        -np 1 $R mv "$T/c.mtx" : -np 1 $R mv --transpose "$T/c.mtx"
    agreed "spmv-mpi mv, another matrix on one rank" 3 "arguments differ between ranks: rank 2 has '$T/b.mtx'" \
        -np 2 $R mv "$T/a.mtx" : -np 1 $R mv "$T/b.mtx"
    agreed "spmv-mpi bench, other --samples on one rank" 2 "arguments differ between ranks: rank 1 has '3'" \
        -np 1 $R bench --samples 2 gen:stencil3d:n=8,pts=7 : -np 1 $R bench --samples 3 gen:stencil3d:n=8,pts=7
    if [ -x build/mpi_bench ]; then
        R="sh $T/w.sh build/mpi_bench"
        agreed "mpi_bench, other --samples on one rank" 2 "arguments differ between ranks: rank 1 has '3'" \
            -np 1 $R --samples 2 gen:stencil3d:n=8,pts=7 : -np 1 $R --samples 3 gen:stencil3d:n=8,pts=7
        agreed "mpi_bench, --format bogus" 2 "unknown format 'bogus'" -np 2 $R --format bogus gen:stencil3d:n=8,pts=7
    fi
    # --out -: the array on standard output (rank 0's), byte for byte the serial tool's; no file '-'
    build/spmv mv "$T/a.mtx" --x "$T/x.mtx" --out - > "$T/ys.mtx" 2> /dev/null
    top=$(pwd)
    (cd "$T" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 60 mpirun --oversubscribe \
        --allow-run-as-root --bind-to none -np 2 env OMP_NUM_THREADS=1 "$top/build/spmv-mpi" mv --x x.mtx --out - a.mtx > y.out 2> err)
    rc=$?
    if [ $rc = 0 ] && [ -s "$T/ys.mtx" ] && cmp -s "$T/y.out" "$T/ys.mtx" && [ ! -e "$T/-" ]; then pass=$((pass + 1)); echo "spmv-mpi: arguments agreed over the ranks, --out -: ok"
    else fail=$((fail + 1)); echo "FAIL: spmv-mpi mv --out -: exit $rc, $( [ -e "$T/-" ] && echo "a file '-' made, ")standard output:"; head -3 "$T/y.out"; tail -3 "$T/err"; fi
    rm -rf "$T"
fi
# the scaling model's plan on one process: a 10^3 7-point grid on 2 ranks has one plane (100
# values) of ghosts per rank and one receive; on 1 rank none
if [ -x build/mpi_bench ]; then
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 60 mpirun --allow-run-as-root -np 1 \
        build/mpi_bench --plan-only 1,2 gen:stencil3d:n=10,pts=7 > build/logs/mpi.plan.out 2>&1 &&
        grep -q 'ranks=1 .* ghosts_max=0 ghosts_sum=0 .* recv_max=0' build/logs/mpi.plan.out &&
        grep -q 'ranks=2 .* ghosts_max=100 ghosts_sum=200 halo_bytes_max=800 recv_max=1' build/logs/mpi.plan.out; then
        pass=$((pass + 1)); echo "mpi_bench --plan-only: ok"
    else fail=$((fail + 1)); echo "FAIL: mpi_bench --plan-only"; cat build/logs/mpi.plan.out; fi
fi
echo "RESULT mpi_check passed=$pass failed=$fail skipped=$skip"
