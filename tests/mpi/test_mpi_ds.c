/* The distributed layer with a float matrix and double vectors (tag ds, spmv_mpi.h with
 * SPMV_ENABLE_DS) under mpirun -np 1..3 (tests/mpi_check.sh): each rank checks its rows of
 * dist_mv (and its columns of dist_mvt) against the long-double product of the float values with
 * the double x, to (n + 4) u_d of |A||x|. x is not exact in float, so ghosts sent as floats (or a
 * float sum) would miss it by nine orders of magnitude. The blocks: csr, every host format the tag
 * has, and the selection per rank (dist_select). Ends with one RESULT line (rank 0). */
#define _GNU_SOURCE
#define SPMV_ENABLE_DS
#include "../harness.h"
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include "../harness.h"
#include <float.h>
#include <math.h>

static int rank_, size_;

static double xval(int64_t j) { return 1.0 + (double)(j % 11) / 7.0 + 1e-9 * (double)(j % 13); }

/* the rows [r0, r0 + n) (or A^T's: columns) of alpha*A*x + beta*y0 in long double: worst error / bound */
static double worst(const spmv_ds_csr *A, int trans, int64_t r0, int64_t n, double alpha, double beta, const double *y0,
                    const double *y) {
    double w = 0;
    int64_t i, k, r;
    long double *s = calloc((size_t)(n + 1), sizeof(long double)), *a = calloc((size_t)(n + 1), sizeof(long double));
    int32_t m = 0;
    if (!s || !a) abort();
    for (r = 0; r < A->nrows; r++) {
        m = A->row_ptr[r + 1] - A->row_ptr[r] > m ? A->row_ptr[r + 1] - A->row_ptr[r] : m;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const int64_t o = trans ? A->col_idx[k] : r, in = trans ? r : A->col_idx[k];
            const long double p = (long double)A->val[k] * xval(in);
            if (o < r0 || o >= r0 + n) continue;
            s[o - r0] += p, a[o - r0] += fabsl(p);
        }
    }
    for (i = 0; i < n; i++) {
        const long double want = (long double)alpha * s[i] + (beta == 0 ? 0 : (long double)beta * y0[i]);
        const long double sc = fabsl((long double)alpha) * a[i] + (beta == 0 ? 0 : fabsl((long double)beta * y0[i]));
        const double e = (double)(fabsl((long double)y[i] - want) / (sc > 0 ? sc : 1));
        w = e > w || e != e ? e : w;
    }
    free(s), free(a);
    return trans ? w / (((double)A->nrows + 4) * (DBL_EPSILON / 2)) : w / (((double)m + 4) * (DBL_EPSILON / 2));
}

static void check(spmv_ds_dist *D, const spmv_ds_csr *A, const char *what) {
    static const double ab[][2] = {{1, 0}, {-0.75, 2}, {-0.7000000001, 2.0000000003}}; /* the last not floats */
    double *x = malloc(sizeof(double) * (size_t)(D->ncloc + D->nloc + 1)), *y = malloc(sizeof(double) * (size_t)(D->nloc + D->ncloc + 1));
    double *y0 = malloc(sizeof(double) * (size_t)(D->nloc + D->ncloc + 1));
    int64_t i;
    size_t j;
    if (!x || !y || !y0) abort();
    for (j = 0; j < sizeof ab / sizeof ab[0]; j++) {
        spmv_status st;
        double w;
        for (i = 0; i < D->ncloc; i++) x[i] = xval(D->col0 + i);
        for (i = 0; i < D->nloc; i++) y[i] = y0[i] = 0.5 - (double)((D->row0 + i) % 5) / 3.0;
        st = spmv_ds_dist_mv(D, ab[j][0], x, ab[j][1], y);
        w = st == SPMV_OK ? worst(A, 0, D->row0, D->nloc, ab[j][0], ab[j][1], y0, y) : INFINITY;
        CHECK(st == SPMV_OK && w <= 1, "rank %d %s: ds dist_mv alpha %g: %s, error %.3g of the bound", rank_, what,
              ab[j][0], spmv_status_str(st), w);
        for (i = 0; i < D->nloc; i++) x[i] = xval(D->row0 + i);
        for (i = 0; i < D->ncloc; i++) y[i] = y0[i] = 0.25 + (double)((D->col0 + i) % 3);
        st = spmv_ds_dist_mvt(D, ab[j][0], x, ab[j][1], y);
        if (st == SPMV_ERR_UNSUPPORTED) continue; /* blocks without a transpose product (not csr) */
        w = st == SPMV_OK ? worst(A, 1, D->col0, D->ncloc, ab[j][0], ab[j][1], y0, y) : INFINITY;
        CHECK(st == SPMV_OK && w <= 1, "rank %d %s: ds dist_mvt alpha %g: %s, error %.3g of the bound", rank_, what,
              ab[j][0], spmv_status_str(st), w);
    }
    free(x), free(y), free(y0);
}

static void one(const char *spec) {
    spmv_triplets t;
    spmv_ds_csr A;
    int f;
    if (spmv_gen(spec, &t, NULL) != SPMV_OK || spmv_ds_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "rank %d: %s", rank_, spec);
        return;
    }
    spmv_triplets_free(&t);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        spmv_ds_dist D;
        spmv_error e;
        spmv_status st;
        char what[160];
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !spmv_ds_any_has((spmv_format)f) ||
            (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC))
            continue; /* (a rank's diagonal block of a symmetric matrix is symmetric, its off-diagonal one not) */
        o.format = (spmv_format)f;
        st = spmv_ds_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? &A : NULL, &o, &e);
        snprintf(what, sizeof what, "%s, %s blocks", spec, spmv_format_name((spmv_format)f));
        if (st == SPMV_ERR_LIMIT) continue; /* a format's size cap on some rank's block (every rank agrees) */
        CHECK(st == SPMV_OK, "rank %d %s: from_root_csr: %s (%s)", rank_, what, spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        check(&D, &A, what);
        if (f == SPMV_FMT_CSR) {
            o = spmv_opts_default();
            st = spmv_ds_dist_select(&D, &o, &e);
            CHECK(st == SPMV_OK, "rank %d %s: dist_select: %s (%s)", rank_, spec, spmv_status_str(st), e.msg);
            snprintf(what, sizeof what, "%s, the selection's blocks", spec);
            if (st == SPMV_OK) check(&D, &A, what);
        }
        spmv_ds_dist_free(&D);
    }
    spmv_ds_csr_free(&A);
}

int main(int argc, char **argv) {
    int passed[3], sums[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    set_threads(1);
    one("stencil2d:n=17");
    one("random:rows=120,cols=90,nnzr=5,seed=3");
    one("band:n=500,bw=4,seed=2");
    one("stencil3d:n=12,pts=27");
    one("stencil2d:n=1");
    CHECK(th_alloc_live == 0, "rank %d: %ld allocations live at exit", rank_, th_alloc_live);
    passed[0] = check_passed_, passed[1] = check_failed_, passed[2] = check_skipped_;
    MPI_Reduce(passed, sums, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("RESULT test_mpi_ds_np%d passed=%d failed=%d skipped=%d\n", size_, sums[0], sums[1], sums[2]);
    MPI_Finalize();
    return 0;
}
