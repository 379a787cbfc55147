#!/bin/sh
# The distributed product side by side (docs/SCALING.md): spmv's dist_mv with 1 rank x 2 threads,
# 1 rank x 1 thread and 2 ranks x 1 thread, and PETSc's MatMult (MATMPIAIJ) on 1 and 2 ranks where PETSc is
# installed (petsc-dev: the anchor only), alternating, R rounds (default 2).
#   sh bench/mpi_bench.sh [MATRIX ...]      (default: three presets 3-10x a 32 MB L3)
set -u
cd "$(dirname "$0")/.."
R=${SPMV_ROUNDS:-2}
M=${*:-"gen:stencil3d:n=100,pts=27 gen:stencil3d:n=150,pts=7 gen:fem:n=300000,bs=3"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ninja build/mpi_bench > /dev/null || exit 1
petsc=""
if pkg-config --exists PETSc 2>/dev/null; then
    mpicc -O3 -fopenmp -I. -DSPMV_HAVE_ZLIB $(pkg-config --cflags PETSc) bench/petsc_anchor.c -o build/petsc_anchor \
        $(pkg-config --libs PETSc) -lz -lm && petsc=build/petsc_anchor
else
    echo "# PETSc not found (apt-get install petsc-dev): no PETSc rows"
fi
echo "# $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), commit $(git rev-parse --short HEAD 2>/dev/null)"
for r in $(seq 1 "$R"); do
    mpirun --allow-run-as-root --bind-to none -np 1 -x OMP_NUM_THREADS=2 build/mpi_bench $M
    mpirun --allow-run-as-root --bind-to none -np 1 -x OMP_NUM_THREADS=1 build/mpi_bench $M
    mpirun --allow-run-as-root --bind-to core -np 2 -x OMP_NUM_THREADS=1 build/mpi_bench $M
    if [ -n "$petsc" ]; then
        mpirun --allow-run-as-root --bind-to none -np 1 -x OMP_NUM_THREADS=1 $petsc $M
        mpirun --allow-run-as-root --bind-to core -np 2 -x OMP_NUM_THREADS=1 $petsc $M
    fi
done
