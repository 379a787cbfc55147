/* The distributed layer with a matrix whose vectors have another type (spmv_mpi.h): tag ds (a
 * float matrix, double vectors; SPMV_ENABLE_DS) and, built with -DTM_HALF, tags h and b (binary16
 * and bfloat16 values, float vectors: their values travel as 16-bit words) under mpirun -np 1..3
 * (tests/mpi_check.sh): each rank checks its rows of dist_mv (and its columns of dist_mvt) against
 * the long-double product of the stored values with x, to (n + 4) u of |A||x| (u the vectors'
 * unit roundoff). For ds, x is not exact in float, so ghosts sent as floats (or a float sum) would
 * miss it by nine orders of magnitude. The blocks: csr, every host format the tag has, and the
 * selection per rank (dist_select). Built with -DTM_CPLX (build/tests/test_mpi_complex): tags z and
 * c (MPI's C complex types), complex values, x, alpha and beta, against the complex long-double
 * product. Ends with one RESULT line (rank 0). */
#ifndef TM_BODY
#define _GNU_SOURCE
#ifdef TM_HALF
#define SPMV_ENABLE_H
#define SPMV_ENABLE_B
#elif defined(TM_CPLX)
#define SPMV_ENABLE_Z
#define SPMV_ENABLE_C
#else
#define SPMV_ENABLE_DS
#endif
#include "../harness.h"
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include "../harness.h"
#include <float.h>
#include <math.h>

static int rank_, size_;

static double xval(int64_t j) { return 1.0 + (double)(j % 11) / 7.0 + 1e-9 * (double)(j % 13); }

/* the reference's type and magnitude; x_j and a coefficient as MV (complex: an imaginary part too) */
#ifdef TM_CPLX
#define RT long double _Complex
#define MWIDE 2 /* MV: two reals */
#define RABS(z) hypotl(__builtin_creall(z), __builtin_cimagl(z))
#define MX(j) MK(xval(j), 0.5 - xval((j) + 3) / 4)
#define MC(a) MK((a), (a) / 3)
#else
#define RT long double
#define MWIDE 1
#define RABS(z) fabsl(z)
#define MX(j) ((MV)xval(j))
#define MC(a) ((MV)(a))
#endif

#define TM_BODY 1
#ifdef TM_HALF
#define MT h
#define MV float
#define MTV(v) spmv_half_to_float(v)
#include "test_mpi_ds.c"
#undef MT
#undef MV
#undef MTV
#define MT b
#define MV float
#define MTV(v) spmv_bfloat16_to_float(v)
#include "test_mpi_ds.c"
#define TM_NAME "test_mpi_half"
#elif defined(TM_CPLX)
#define MT z
#define MV spmv_cdouble
#define MTV(v) ((RT)(v))
#define MK spmv_cdouble_make
#include "test_mpi_ds.c"
#undef MT
#undef MV
#undef MTV
#undef MK
#define MT c
#define MV spmv_cfloat
#define MTV(v) ((RT)(v))
#define MK spmv_cfloat_make
#include "test_mpi_ds.c"
#define TM_NAME "test_mpi_complex"
#else
#define MT ds
#define MV double
#define MTV(v) (v)
#include "test_mpi_ds.c"
#define TM_NAME "test_mpi_ds"
#endif

int main(int argc, char **argv) {
    int passed[3], sums[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    set_threads(1);
    static const char *specs[] = {"stencil2d:n=17", "random:rows=120,cols=90,nnzr=5,seed=3", "band:n=500,bw=4,seed=2",
                                  "stencil3d:n=12,pts=27", "stencil2d:n=1"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
#ifdef TM_HALF
        spmv_h_one(specs[i]);
        spmv_b_one(specs[i]);
#elif defined(TM_CPLX)
        spmv_z_one(specs[i]);
        spmv_c_one(specs[i]);
#else
        spmv_ds_one(specs[i]);
#endif
    }
    CHECK(th_alloc_live == 0, "rank %d: %ld allocations live at exit", rank_, th_alloc_live);
    passed[0] = check_passed_, passed[1] = check_failed_, passed[2] = check_skipped_;
    MPI_Reduce(passed, sums, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("RESULT " TM_NAME "_np%d passed=%d failed=%d skipped=%d\n", size_, sums[0], sums[1], sums[2]);
    MPI_Finalize();
    return 0;
}
#else /* TM_BODY: one tag's checks: MT, its vectors' type MV, MTV(v) a stored value as a number */
#define N(x) SPMV_CAT3(spmv_, MT, _##x)
#define TNAME SPMV_STR(MT)
/* the rows [r0, r0 + n) (or A^T's: columns) of alpha*A*x + beta*y0 in long double: worst error / bound */
static double N(worst)(const N(csr) *A, int trans, int64_t r0, int64_t n, MV alpha, MV beta, const MV *y0, const MV *y) {
    double w = 0;
    int64_t i, k, r;
    RT *s = calloc((size_t)(n + 1), sizeof(RT));
    long double *a = calloc((size_t)(n + 1), sizeof(long double));
    int32_t m = 0;
    if (!s || !a) abort();
    for (r = 0; r < A->nrows; r++) {
        m = A->row_ptr[r + 1] - A->row_ptr[r] > m ? A->row_ptr[r + 1] - A->row_ptr[r] : m;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const int64_t o = trans ? A->col_idx[k] : r, in = trans ? r : A->col_idx[k];
            const RT p = (RT)MTV(A->val[k]) * (RT)MX(in);
            if (o < r0 || o >= r0 + n) continue;
            s[o - r0] += p, a[o - r0] += RABS(p);
        }
    }
    for (i = 0; i < n; i++) {
        const RT want = (RT)alpha * s[i] + (beta == 0 ? 0 : (RT)beta * (RT)y0[i]);
        const long double sc = RABS((RT)alpha) * a[i] + (beta == 0 ? 0 : RABS((RT)beta * (RT)y0[i]));
        const double e = (double)(RABS((RT)y[i] - want) / (sc > 0 ? sc : 1));
        w = e > w || e != e ? e : w;
    }
    free(s), free(a);
    {
        const double u = sizeof(MV) == 8 * MWIDE ? DBL_EPSILON / 2 : FLT_EPSILON / 2;
        return trans ? w / (((double)A->nrows + 4) * u) : w / (((double)m + 4) * u);
    }
}

static void N(check)(N(dist) *D, const N(csr) *A, const char *what) {
    static const double ab[][2] = {{1, 0}, {-0.75, 2}, {-0.7000000001, 2.0000000003}}; /* the last not floats */
    MV *x = malloc(sizeof(MV) * (size_t)(D->ncloc + D->nloc + 1)), *y = malloc(sizeof(MV) * (size_t)(D->nloc + D->ncloc + 1));
    MV *y0 = malloc(sizeof(MV) * (size_t)(D->nloc + D->ncloc + 1));
    int64_t i;
    size_t j;
    if (!x || !y || !y0) abort();
    for (j = 0; j < sizeof ab / sizeof ab[0]; j++) {
        spmv_status st;
        double w;
        for (i = 0; i < D->ncloc; i++) x[i] = MX(D->col0 + i);
        for (i = 0; i < D->nloc; i++) y[i] = y0[i] = MC(0.5 - (double)((D->row0 + i) % 5) / 3.0);
        st = N(dist_mv)(D, MC(ab[j][0]), x, MC(ab[j][1]), y);
        w = st == SPMV_OK ? N(worst)(A, 0, D->row0, D->nloc, MC(ab[j][0]), MC(ab[j][1]), y0, y) : INFINITY;
        CHECK(st == SPMV_OK && w <= 1, "rank %d %s: " TNAME " dist_mv alpha %g: %s, error %.3g of the bound", rank_, what,
              ab[j][0], spmv_status_str(st), w);
        for (i = 0; i < D->nloc; i++) x[i] = MX(D->row0 + i);
        for (i = 0; i < D->ncloc; i++) y[i] = y0[i] = MC(0.25 + (double)((D->col0 + i) % 3));
        st = N(dist_mvt)(D, MC(ab[j][0]), x, MC(ab[j][1]), y);
        if (st == SPMV_ERR_UNSUPPORTED) continue; /* blocks without a transpose product (not csr) */
        w = st == SPMV_OK ? N(worst)(A, 1, D->col0, D->ncloc, MC(ab[j][0]), MC(ab[j][1]), y0, y) : INFINITY;
        CHECK(st == SPMV_OK && w <= 1, "rank %d %s: " TNAME " dist_mvt alpha %g: %s, error %.3g of the bound", rank_, what,
              ab[j][0], spmv_status_str(st), w);
    }
    free(x), free(y), free(y0);
}

#ifdef TM_CPLX
/* dist_from_mm of a complex file (written by rank 0 into a fresh directory) against t's product */
static void N(from_file)(const char *spec, const spmv_triplets *t) {
    char dir[64] = "/tmp/spmv_mpi_XXXXXX", path[96];
    int ok = rank_ != 0 || mkdtemp(dir) != NULL;
    N(csr) A;
    N(dist) D;
    spmv_error e;
    spmv_status st;
    MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "%s/a.mtx", dir);
    if (rank_ == 0 && ok) ok = spmv_mm_write(path, t, NULL) == SPMV_OK;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(ok, "rank %d %s: the complex file written", rank_, spec);
    if (ok && N(csr_from_triplets)(&A, t, NULL, NULL) == SPMV_OK) {
        st = N(dist_from_mm)(&D, MPI_COMM_WORLD, path, NULL, &e);
        CHECK(st == SPMV_OK, "rank %d %s: dist_from_mm of a complex file: %s (%s)", rank_, spec, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) N(check)(&D, &A, "from a complex file");
        if (st == SPMV_OK) N(dist_free)(&D);
        N(csr_free)(&A);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank_ == 0 && ok) remove(path), remove(dir);
}
#endif

static void N(one)(const char *spec) {
    spmv_triplets t;
    N(csr) A;
    int f;
    if (spmv_gen(spec, &t, NULL) != SPMV_OK) {
        CHECK(0, "rank %d: %s", rank_, spec);
        return;
    }
#ifdef TM_CPLX /* imaginary parts of both signs; the file path: rank 0 writes it, every rank reads its rows */
    if ((t.vim = (double *)spmv__calloc((size_t)t.nnz + 1, sizeof(double)))) {
        int64_t k;
        for (k = 0; k < t.nnz; k++) t.vim[k] = t.val[k] * (double)(k % 5 - 2) / 3.0;
    }
    N(from_file)(spec, &t);
#endif
    if (N(csr_from_triplets)(&A, &t, NULL, NULL) != SPMV_OK) {
        spmv_triplets_free(&t);
        CHECK(0, "rank %d: %s", rank_, spec);
        return;
    }
    spmv_triplets_free(&t);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        N(dist) D;
        spmv_error e;
        spmv_status st;
        char what[160];
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !N(any_has)((spmv_format)f) ||
            (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC))
            continue; /* (a rank's diagonal block of a symmetric matrix is symmetric, its off-diagonal one not) */
        o.format = (spmv_format)f;
        st = N(dist_from_root_csr)(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? &A : NULL, &o, &e);
        snprintf(what, sizeof what, "%s, %s blocks", spec, spmv_format_name((spmv_format)f));
        if (st == SPMV_ERR_LIMIT) continue; /* a format's size cap on some rank's block (every rank agrees) */
        CHECK(st == SPMV_OK, "rank %d %s: from_root_csr: %s (%s)", rank_, what, spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        N(check)(&D, &A, what);
        if (f == SPMV_FMT_CSR) {
            o = spmv_opts_default();
            st = N(dist_select)(&D, &o, &e);
            CHECK(st == SPMV_OK, "rank %d %s: dist_select: %s (%s)", rank_, spec, spmv_status_str(st), e.msg);
            snprintf(what, sizeof what, "%s, the selection's blocks", spec);
            if (st == SPMV_OK) N(check)(&D, &A, what);
        }
        N(dist_free)(&D);
    }
    N(csr_free)(&A);
}

#undef N
#undef TNAME
#endif /* TM_BODY */
