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
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    const double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
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
        spmv_status st = SPMV_OK;
        double *x, *y, *t, med, gh = 0, ghs = 0;
        int k, reps = 1, s;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &o.format) != SPMV_OK && rank == 0) fprintf(stderr, "unknown format\n");
            continue;
        }
        if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            ns = atoi(argv[++i]);
            if (ns < 1) ns = 1;
            continue;
        }
        memset(&A, 0, sizeof A);
        if (rank == 0) {
            spmv_triplets tr;
            st = !strncmp(argv[i], "gen:", 4) ? spmv_gen(argv[i] + 4, &tr, &e) : spmv_mm_read(argv[i], &tr, &e);
            if (st == SPMV_OK) {
                st = spmv_d_csr_from_triplets(&A, &tr, NULL);
                spmv_triplets_free(&tr);
            }
        }
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank == 0 && st == SPMV_OK ? &A : NULL, &o, &e);
        if (rank == 0) spmv_d_csr_free(&A);
        if (st != SPMV_OK) {
            if (rank == 0) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            continue;
        }
        x = (double *)malloc(sizeof(double) * (size_t)(D.ncloc + 1));
        y = (double *)malloc(sizeof(double) * (size_t)(D.nloc + 1));
        t = (double *)malloc(sizeof(double) * (size_t)ns);
        for (k = 0; k < D.ncloc; k++) x[k] = 1.0 + (double)(k % 7) / 8;
        spmv_d_dist_mv(&D, 1.0, x, 0.0, y);
        { /* products per sample: >= 20 ms, decided on rank 0 */
            double t0, dt;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            spmv_d_dist_mv(&D, 1.0, x, 0.0, y);
            dt = MPI_Wtime() - t0;
            reps = dt > 0 && dt < 0.02 ? (int)(0.02 / dt) + 1 : 1;
            MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
        for (s = 0; s < ns; s++) {
            double t0;
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            for (k = 0; k < reps; k++) spmv_d_dist_mv(&D, 1.0, x, 0.0, y);
            MPI_Barrier(MPI_COMM_WORLD);
            t[s] = (MPI_Wtime() - t0) / reps;
        }
        qsort(t, (size_t)ns, sizeof(double), cmp);
        med = t[ns / 2];
        gh = (double)D.nghost;
        MPI_Reduce(&gh, &ghs, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        {
            double nnz_loc = (double)(D.diag.fmt == SPMV_FMT_CSR ? D.diag.u.csr.nnz + D.offd.u.csr.nnz : 0), nnz = 0;
            MPI_Reduce(&nnz_loc, &nnz, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0)
                printf("%s ranks=%d threads=%d format=%s rows=%lld nnz=%.0f spmv_s=%.6g gflops=%.3f ghosts=%.0f\n", argv[i],
                       size, spmv_max_threads(), spmv_format_name(o.format), (long long)D.nrows, nnz, med,
                       nnz > 0 ? 2 * nnz / med * 1e-9 : 0.0, ghs);
        }
        free(x), free(y), free(t);
        spmv_d_dist_free(&D);
    }
    MPI_Finalize();
    return 0;
}
