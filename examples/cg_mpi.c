/* cg_mpi — conjugate gradients on MPI ranks with spmv_mpi.h: the matrix read from a file by
 * every rank (its own rows) or generated on rank 0 and scattered; vectors split like the rows.
 *   mpicc -O2 -fopenmp -I. examples/cg_mpi.c -o cg_mpi -lm
 *   mpirun -np 4 ./cg_mpi [matrix.mtx]       (no argument: a 3-D Laplacian, 48^3 rows)
 * Checks the true residual ||b - A x|| / ||b|| with a fresh distributed product at the end;
 * exit status 0 when it is below the tolerance, the same on every rank. */
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double dot(const double *a, const double *b, int64_t n, MPI_Comm c) {
    double s = 0, t = 0;
    int64_t i;
    for (i = 0; i < n; i++) s += a[i] * b[i];
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, c); /* the same sum on every rank */
    return t;
}

int main(int argc, char **argv) {
    const double tol = 1e-8;
    spmv_d_dist D;
    spmv_error err;
    spmv_status st;
    int rank, size, it = 0, rc = 1;
    double *x, *b, *r, *p, *q, rr, bb, res;
    int64_t i, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) {
        st = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, argv[1], NULL, &err);
    } else { /* rank 0 makes the matrix (diagonal 6: SPD), the others receive their rows */
        spmv_d_csr A;
        spmv_triplets t;
        memset(&A, 0, sizeof A);
        if (rank == 0 && spmv_gen("stencil3d:n=48,pts=7", &t, &err) == SPMV_OK) {
            for (i = 0; i < t.nnz; i++)
                if (t.row[i] == t.col[i]) t.val[i] = 6;
            if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) memset(&A, 0, sizeof A);
            spmv_triplets_free(&t);
        }
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank == 0 && A.row_ptr ? &A : NULL, NULL, &err);
        if (rank == 0) spmv_d_csr_free(&A);
    }
    if (st != SPMV_OK) { /* the same status on every rank: all stop here */
        if (rank == 0) fprintf(stderr, "distributed matrix: %s (%s)\n", spmv_status_str(st), err.msg);
        MPI_Finalize();
        return 1;
    }
    if (D.nrows != D.ncols) {
        if (rank == 0) fprintf(stderr, "CG needs a square matrix\n");
        spmv_d_dist_free(&D);
        MPI_Finalize();
        return 1;
    }
    n = D.nloc;
    x = calloc((size_t)n + 1, sizeof *x), b = malloc(sizeof *b * ((size_t)n + 1)), r = malloc(sizeof *r * ((size_t)n + 1));
    p = malloc(sizeof *p * ((size_t)n + 1)), q = malloc(sizeof *q * ((size_t)n + 1));
    for (i = 0; i < n; i++) b[i] = 1.0 + (double)((D.row0 + i) % 3), r[i] = p[i] = b[i];
    rr = bb = dot(b, b, n, MPI_COMM_WORLD);
    for (it = 0; it < 2000 && rr > tol * tol * bb; it++) {
        double alpha, beta, pq, rr1;
        spmv_d_dist_mv(&D, 1.0, p, 0.0, q);
        pq = dot(p, q, n, MPI_COMM_WORLD);
        alpha = rr / pq;
        for (i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
        rr1 = dot(r, r, n, MPI_COMM_WORLD);
        beta = rr1 / rr;
        rr = rr1;
        for (i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    }
    spmv_d_dist_mv(&D, -1.0, x, 0.0, q); /* the true residual: b - A x */
    for (i = 0; i < n; i++) q[i] += b[i];
    res = sqrt(dot(q, q, n, MPI_COMM_WORLD) / bb);
    if (rank == 0)
        printf("cg on %d ranks: %lld rows, %d iterations, true relative residual %.3g (%s)\n", size,
               (long long)D.nrows, it, res, res <= 10 * tol ? "ok" : "NOT converged");
    rc = res <= 10 * tol ? 0 : 1;
    spmv_d_dist_free(&D);
    free(x), free(b), free(r), free(p), free(q);
    MPI_Finalize();
    return rc;
}
