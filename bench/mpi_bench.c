/* mpi_bench — the distributed product's time (spmv_mpi.h), for docs/SCALING.md.
 *   mpirun -np P build/mpi_bench [--format F] [--samples N] MATRIX...   (gen:SPEC or a file)
 * Rank 0 makes or reads each matrix, the rows are scattered (balanced entries), then N samples
 * (default 30), each a barrier and then enough products for >= 20 ms on rank 0's clock; prints
 * one line per matrix: ranks, threads, the median time per product, GFLOP/s, and the exchange
 * (ghost values per product, all ranks). */
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include <stdio.h>
#include "mpi_common.h"

typedef struct mb_ctx {
    spmv_d_dist *D;
    const double *x;
    double *y;
} mb_ctx;
static void mb_dist_mv(void *c) {
    mb_ctx *m = (mb_ctx *)c;
    spmv_d_dist_mv(m->D, 1.0, m->x, 0.0, m->y);
}

int main(int argc, char **argv) {
    int rank, size, i, ns = 30;
    spmv_opts o = spmv_opts_default();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc; i++) {
        spmv_d_csr A;
        spmv_d_dist D;
        spmv_error e;
        spmv_status st;
        mb_ctx m;
        double *x, *y, med, nnz = 0, gh, ghs = 0;
        int k;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &o.format) != SPMV_OK && rank == 0) fprintf(stderr, "unknown format\n");
            continue;
        }
        if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            ns = atoi(argv[++i]);
            if (ns < 1) ns = 1;
            continue;
        }
        st = mb_root_matrix(argv[i], rank, &A, &e);
        nnz = (double)A.nnz; /* rank 0's count, the one printed */
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank == 0 && st == SPMV_OK ? &A : NULL, &o, &e);
        spmv_d_csr_free(&A);
        if (st != SPMV_OK) {
            if (rank == 0) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            continue;
        }
        x = (double *)malloc(sizeof(double) * (size_t)(D.ncloc + 1));
        y = (double *)malloc(sizeof(double) * (size_t)(D.nloc + 1));
        for (k = 0; k < D.ncloc; k++) x[k] = 1.0 + (double)(k % 7) / 8;
        m.D = &D, m.x = x, m.y = y;
        med = mb_median_time(mb_dist_mv, &m, ns);
        gh = (double)D.nghost;
        MPI_Reduce(&gh, &ghs, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s ranks=%d threads=%d format=%s rows=%lld nnz=%.0f spmv_s=%.6g gflops=%.3f ghosts=%.0f\n", argv[i], size,
                   spmv_max_threads(), spmv_format_name(o.format), (long long)D.nrows, nnz, med, 2 * nnz / med * 1e-9, ghs);
        free(x), free(y);
        spmv_d_dist_free(&D);
    }
    MPI_Finalize();
    return 0;
}
