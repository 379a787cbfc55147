/* What bench/mpi_bench.c, bench/spmv_mpi.c and bench/petsc_anchor.c share: the matrix made on rank 0, and the
 * timing (a warm-up product, then per sample a barrier, enough products for >= 20 ms on rank
 * 0's clock, a barrier; the median over the samples), so that spmv's and PETSc's rows are
 * measured alike. Include after spmv.h and mpi.h. */
#ifndef SPMV_BENCH_MPI_COMMON_H
#define SPMV_BENCH_MPI_COMMON_H
#include <stdlib.h>
#include <string.h>

/* rank 0: the matrix of spec (gen:SPEC or a Matrix Market file) into *A; other ranks: A zeroed */
static spmv_status mb_root_matrix(const char *spec, int rank, spmv_d_csr *A, spmv_error *e) {
    spmv_triplets t;
    spmv_status st;
    memset(A, 0, sizeof *A);
    if (rank != 0) return SPMV_OK;
    st = !strncmp(spec, "gen:", 4) ? spmv_gen(spec + 4, &t, e) : spmv_mm_read(spec, &t, e);
    if (st != SPMV_OK) return st;
    st = spmv_d_csr_from_triplets(A, &t, NULL, NULL);
    spmv_triplets_free(&t);
    return st;
}

/* one distributed product y = D x, the timed call of mpi_bench and spmv-mpi bench */
typedef struct mb_ctx {
    spmv_d_dist *D;
    const double *x;
    double *y;
} mb_ctx;
static inline void mb_dist_mv(void *c) {
    mb_ctx *m = (mb_ctx *)c;
    spmv_d_dist_mv(m->D, 1.0, m->x, 0.0, m->y);
}

static int mb_cmp(const void *a, const void *b) {
    const double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
}

/* median seconds per call of product(ctx) over ns samples (collective) */
static double mb_median_time(void (*product)(void *), void *ctx, int ns) {
    double *t = (double *)malloc(sizeof(double) * (size_t)ns), t0, dt, med;
    int reps, s, k;
    product(ctx); /* warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    product(ctx);
    dt = MPI_Wtime() - t0;
    reps = dt > 0 && dt < 0.02 ? (int)(0.02 / dt) + 1 : 1;
    MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD); /* rank 0 decides: every rank runs as many */
    for (s = 0; s < ns; s++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (k = 0; k < reps; k++) product(ctx);
        MPI_Barrier(MPI_COMM_WORLD);
        t[s] = (MPI_Wtime() - t0) / reps;
    }
    qsort(t, (size_t)ns, sizeof(double), mb_cmp);
    med = t[ns / 2];
    free(t);
    return med;
}
#endif
