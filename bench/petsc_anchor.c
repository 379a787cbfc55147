/* petsc_anchor — PETSc's MatMult (MATMPIAIJ) on the same matrices and row split as
 * bench/mpi_bench.c, for the side-by-side rows of docs/SCALING.md. Built by bench/mpi_bench.sh
 * when PETSc is installed (pkg-config PETSc); an anchor, not part of the library.
 *   mpirun -np P build/petsc_anchor [--samples N] MATRIX...    (gen:SPEC or a Matrix Market file)
 * Rank 0 makes or reads each matrix with spmv's reader and generators, every rank gets its rows
 * (balanced entries, the split of spmv_d_dist_from_root_csr) and builds the MPIAIJ matrix from
 * them (MatCreateMPIAIJWithArrays); then N samples (default 30) of >= 20 ms of MatMult between
 * barriers; prints one line per matrix like mpi_bench. */
#include <petscmat.h>
#include "spmv.h"
#include "spmv_mpi.h"

#include "mpi_common.h"

typedef struct pa_ctx {
    Mat M;
    Vec x, y;
} pa_ctx;
static void pa_mult(void *c) {
    pa_ctx *p = (pa_ctx *)c;
    MatMult(p->M, p->x, p->y);
}

int main(int argc, char **argv) {
    int rank, size, i, ns = 30;
    PetscInitialize(&argc, &argv, NULL, NULL);
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    MPI_Comm_size(PETSC_COMM_WORLD, &size);
    for (i = 1; i < argc; i++) {
        spmv_d_csr A;
        spmv_d_dist D;
        spmv_error e;
        spmv_status st = SPMV_OK;
        Mat M;
        Vec x, y;
        PetscInt *rp, *ci, k, n, nz;
        pa_ctx c;
        double med;
        if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            ns = atoi(argv[++i]);
            if (ns < 1) ns = 1;
            continue;
        }
        st = mb_root_matrix(argv[i], rank, &A, &e);
        if (rank == 0 && st != SPMV_OK) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
        /* the same split as spmv's: its distributed matrix, whose blocks give back each rank's rows */
        st = spmv_d_dist_from_root_csr(&D, PETSC_COMM_WORLD, 0, rank == 0 && st == SPMV_OK ? &A : NULL, NULL, &e);
        spmv_d_csr_free(&A);
        if (st != SPMV_OK) {
            if (rank == 0) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            continue;
        }
        { /* this rank's rows with global columns, from the two blocks */
            const spmv_d_csr *Dg = &D.diag.u.csr, *Og = &D.offd.u.csr;
            double *v;
            n = (PetscInt)D.nloc;
            nz = (PetscInt)(Dg->nnz + Og->nnz);
            rp = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)(n + 1));
            ci = (PetscInt *)malloc(sizeof(PetscInt) * (size_t)(nz + 1));
            v = (double *)malloc(sizeof(double) * (size_t)(nz + 1));
            rp[0] = 0;
            for (k = 0; k < n; k++) {
                int64_t a, m = rp[k];
                for (a = Dg->row_ptr[k]; a < Dg->row_ptr[k + 1]; a++) ci[m] = (PetscInt)(Dg->col_idx[a] + D.col0), v[m++] = Dg->val[a];
                for (a = Og->row_ptr[k]; a < Og->row_ptr[k + 1]; a++) ci[m] = (PetscInt)D.garray[Og->col_idx[a]], v[m++] = Og->val[a];
                rp[k + 1] = (PetscInt)m;
                { /* columns ascending within the row, as MatCreateMPIAIJWithArrays wants */
                    PetscInt p, q;
                    for (p = rp[k] + 1; p < rp[k + 1]; p++)
                        for (q = p; q > rp[k] && ci[q - 1] > ci[q]; q--) {
                            PetscInt tc = ci[q];
                            double tv = v[q];
                            ci[q] = ci[q - 1], v[q] = v[q - 1];
                            ci[q - 1] = tc, v[q - 1] = tv;
                        }
                }
            }
            MatCreateMPIAIJWithArrays(PETSC_COMM_WORLD, n, (PetscInt)D.ncloc, (PetscInt)D.nrows, (PetscInt)D.ncols, rp, ci,
                                      v, &M);
            free(v);
        }
        MatCreateVecs(M, &x, &y);
        VecSet(x, 1.0);
        c.M = M, c.x = x, c.y = y;
        med = mb_median_time(pa_mult, &c, ns);
        {
            double nzl = (double)nz, nzs = 0;
            MPI_Reduce(&nzl, &nzs, 1, MPI_DOUBLE, MPI_SUM, 0, PETSC_COMM_WORLD);
            if (rank == 0)
                printf("%s ranks=%d petsc MatMult (MPIAIJ) rows=%lld nnz=%.0f spmv_s=%.6g gflops=%.3f\n", argv[i], size,
                       (long long)D.nrows, nzs, med, 2 * nzs / med * 1e-9);
        }
        free(rp), free(ci);
        VecDestroy(&x), VecDestroy(&y), MatDestroy(&M);
        spmv_d_dist_free(&D);
    }
    PetscFinalize();
    return 0;
}
