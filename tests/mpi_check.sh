#!/bin/sh
# The distributed layer's tests (tests/mpi/test_mpi.c; the device side in the CUDA emulation,
# tests/mpi/test_mpi_cuda.cu) under mpirun -np 1, 2, 3, 4 (Open MPI;
# --oversubscribe: 4 ranks on 2 cores; --allow-run-as-root: CI runs as root), each run under a
# time limit: a hang on any rank is a failure, not a wait. Ends with one RESULT line.
prog=build/tests/test_mpi
pass=0; fail=0; skip=0
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x "$prog" ]; then
    echo "SKIP: Open MPI (mpirun) or $prog missing: the distributed layer not tested"
    echo "RESULT mpi_check passed=0 failed=0 skipped=1"; exit 0
fi
for np in 1 2 3 4; do
    out=build/logs/mpi.np$np.out
    OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout -k 10 240 mpirun --oversubscribe --allow-run-as-root --bind-to none -np $np \
        env OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive "$prog" > "$out" 2>&1
    rc=$?
    res=$(grep '^RESULT' "$out" | tail -1)
    grep '^FAIL' "$out" | head -20
    if [ -z "$res" ]; then
        fail=$((fail + 1)); echo "FAIL: mpirun -np $np: no result (exit $rc$( [ $rc = 124 ] && echo ', timed out: a hang'))"; tail -5 "$out"
        continue
    fi
    p=$(echo "$res" | sed 's/.*passed=\([0-9]*\).*/\1/'); f=$(echo "$res" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$res" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    [ "$rc" != 0 ] && [ "$f" = 0 ] && { f=1; echo "FAIL: mpirun -np $np exited $rc"; }
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    echo "np $np: $res"
done
# the device side in the CUDA emulation (tests/mpi/test_mpi_cuda.cu) on 1-3 ranks
for np in 1 2 3; do
    [ -x build/tests-cuemu/test_mpi_cuda ] || break
    out=build/logs/mpi.cuda.np$np.out
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 240 mpirun --oversubscribe \
        --allow-run-as-root --bind-to none -np $np env OMP_NUM_THREADS=1 build/tests-cuemu/test_mpi_cuda > "$out" 2>&1
    rc=$?
    res=$(grep '^RESULT' "$out" | tail -1)
    grep '^FAIL' "$out" | head -20
    if [ -z "$res" ]; then fail=$((fail + 1)); echo "FAIL: device side, mpirun -np $np: no result (exit $rc)"; tail -5 "$out"; continue; fi
    p=$(echo "$res" | sed 's/.*passed=\([0-9]*\).*/\1/'); f=$(echo "$res" | sed 's/.*failed=\([0-9]*\).*/\1/')
    s=$(echo "$res" | sed 's/.*skipped=\([0-9]*\).*/\1/')
    [ "$rc" != 0 ] && [ "$f" = 0 ] && { f=1; echo "FAIL: device side, mpirun -np $np exited $rc"; }
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    echo "device side, np $np: $res"
done
# the distributed CG example: its true residual checked on 3 ranks, 2 threads each
if [ -x build/examples/cg_mpi ]; then
    if OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout -k 10 240 mpirun --oversubscribe \
        --allow-run-as-root --bind-to none -np 3 env OMP_NUM_THREADS=2 build/examples/cg_mpi > build/logs/mpi.cg.out 2>&1 &&
        grep -q 'ok)$' build/logs/mpi.cg.out; then pass=$((pass + 1)); echo "cg_mpi: $(cat build/logs/mpi.cg.out)"
    else fail=$((fail + 1)); echo "FAIL: examples/cg_mpi on 3 ranks"; tail -3 build/logs/mpi.cg.out; fi
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
