/* The distributed layer (spmv_mpi.h) under mpirun -np 1..4 (tests/mpi_check.sh): every rank
 * builds the same matrices, so each checks its own rows of the distributed product against
 * the serial one (long-double reference):
 *  - the three builders (from the root, from each rank's rows with a row ownership of the
 *    caller's, from a Matrix Market file) on stencils, a band, a rectangular random matrix,
 *    an empty one, one with fewer rows than ranks (ranks without rows) and a block-diagonal
 *    one (ranks without neighbours); alpha/beta pairs with beta = 0 (y not read);
 *  - every host format of the registry as the blocks' engine on the small matrices;
 *  - the same bits twice (deterministic for a fixed rank and thread count);
 *  - the transpose product dist_mvt on csr blocks against the serial A^T x (and refused on
 *    every rank when dist_select put another format on one);
 *  - bad input answered by the same status on every rank: column counts that disagree, a
 *    row ownership that does not add up, a column beyond the global size on one rank, a
 *    NULL matrix on one rank, a bad root, a missing file on one rank, allocation failure at
 *    every allocation of one rank (nothing left allocated, no rank hangs: the script's
 *    timeout is the failure).
 * Ends with one RESULT line (rank 0) summing every rank's checks. */
#define _GNU_SOURCE
#include "../harness.h"
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include "../harness.h"
#include <unistd.h>
#include <math.h>

static int rank_, size_;

/* y_loc against the serial product's rows [row0, row0 + nloc) */
static int mv_ok(const spmv_d_dist *D, const spmv_d_csr *A, double alpha, double beta, const char *what) {
    double *x = NULL, *y = NULL, *y0 = NULL, worst = 0;
    int64_t i, k, bad = 0;
    int ok = 1;
    x = (double *)malloc(sizeof(double) * (size_t)(D->ncloc + 1));
    y = (double *)malloc(sizeof(double) * (size_t)(D->nloc + 1));
    y0 = (double *)malloc(sizeof(double) * (size_t)(D->nloc + 1));
    for (i = 0; i < D->ncloc; i++) x[i] = 1.0 + (double)((D->col0 + i) % 11) / 7.0;
    for (i = 0; i < D->nloc; i++) y[i] = y0[i] = beta == 0 ? NAN : 0.5 - (double)((D->row0 + i) % 5) / 3.0;
    if (spmv_d_dist_mv((spmv_d_dist *)D, alpha, x, beta, y) != SPMV_OK) {
        CHECK(0, "rank %d %s: dist_mv failed", rank_, what);
        ok = 0;
    }
    for (i = 0; ok && i < D->nloc; i++) {
        const int64_t r = D->row0 + i;
        long double s = 0, sa = 0, want;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const double xv = 1.0 + (double)(A->col_idx[k] % 11) / 7.0;
            s += (long double)A->val[k] * xv;
            sa += fabsl((long double)A->val[k] * xv);
        }
        want = (long double)alpha * s + (beta == 0 ? 0 : (long double)beta * y0[i]);
        if (!isfinite((double)want)) { /* Inf or NaN entries: the same class, the same sign */
            if (!(isnan((double)want) ? isnan(y[i]) : y[i] == (double)want)) bad++;
        } else {
            const double err = (double)fabsl((long double)y[i] - want) / (double)(fabsl(want) + sa * fabs(alpha) + 1e-300);
            if (!(err <= 1e-13)) bad++;
            if (err > worst || err != err) worst = err;
        }
    }
    CHECK(ok && bad == 0, "rank %d %s: %lld of %lld rows wrong (worst %.3g)", rank_, what, (long long)bad,
          (long long)D->nloc, worst);
    free(x), free(y), free(y0);
    return ok && bad == 0;
}

/* dist_mvt's y_loc (this rank's columns) against the serial A^T x, long double */
static int mvt_ok(spmv_d_dist *D, const spmv_d_csr *A, double alpha, double beta, const char *what) {
    double *x = (double *)malloc(sizeof(double) * (size_t)(D->nloc + 1));
    double *y = (double *)malloc(sizeof(double) * (size_t)(D->ncloc + 1));
    double *y0 = (double *)malloc(sizeof(double) * (size_t)(D->ncloc + 1));
    long double *s = (long double *)calloc((size_t)A->ncols + 1, sizeof(long double));
    long double *sa = (long double *)calloc((size_t)A->ncols + 1, sizeof(long double));
    int64_t i, k, bad = 0;
    spmv_status st;
    for (i = 0; i < D->nloc; i++) x[i] = 1.0 + (double)((D->row0 + i) % 13) / 9.0;
    for (i = 0; i < D->ncloc; i++) y[i] = y0[i] = beta == 0 ? NAN : 0.25 - (double)((D->col0 + i) % 7) / 5.0;
    st = spmv_d_dist_mvt(D, alpha, x, beta, y);
    for (i = 0; i < A->nrows; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            const long double p = (long double)A->val[k] * (1.0 + (double)(i % 13) / 9.0);
            s[A->col_idx[k]] += p;
            sa[A->col_idx[k]] += fabsl(p);
        }
    for (i = 0; st == SPMV_OK && i < D->ncloc; i++) {
        const int64_t c = D->col0 + i;
        const long double want = (long double)alpha * s[c] + (beta == 0 ? 0 : (long double)beta * y0[i]);
        if (!isfinite((double)want)) { /* Inf or NaN entries (skew_fp64_test): the same class, the same sign */
            if (!(isnan((double)want) ? isnan(y[i]) : y[i] == (double)want)) bad++;
        } else {
            const double err = (double)(fabsl((long double)y[i] - want) / (fabsl(want) + sa[c] * fabs(alpha) + 1e-300));
            if (!(err <= 1e-13)) bad++;
        }
    }
    CHECK(st == SPMV_OK && bad == 0, "rank %d %s: dist_mvt %s, %lld of %lld columns wrong", rank_, what,
          spmv_status_str(st), (long long)bad, (long long)D->ncloc);
    free(x), free(y), free(y0), free(s), free(sa);
    return st == SPMV_OK && bad == 0;
}

/* the product twice, bit for bit */
static void same_bits(spmv_d_dist *D, const char *what) {
    double *x = (double *)malloc(sizeof(double) * (size_t)(D->ncloc + 1));
    double *y1 = (double *)malloc(sizeof(double) * (size_t)(D->nloc + 1));
    double *y2 = (double *)malloc(sizeof(double) * (size_t)(D->nloc + 1));
    int64_t i;
    for (i = 0; i < D->ncloc; i++) x[i] = th_rval();
    spmv_d_dist_mv(D, 1.0, x, 0.0, y1);
    spmv_d_dist_mv(D, 1.0, x, 0.0, y2);
    CHECK(D->nloc == 0 || !memcmp(y1, y2, sizeof(double) * (size_t)D->nloc), "rank %d %s: two products differ", rank_,
          what);
    free(x), free(y1), free(y2);
}

/* the same status on every rank */
static void agreed(spmv_status st, const char *what) {
    int mine = (int)st, lo = 0, hi = 0;
    MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lo == hi, "rank %d %s: the ranks returned different statuses (%d..%d)", rank_, what, lo, hi);
}

static int gen(const char *spec, spmv_d_csr *A) {
    spmv_triplets t;
    spmv_error e;
    if (spmv_gen(spec, &t, &e) != SPMV_OK) return 0;
    if (spmv_d_csr_from_triplets(A, &t, NULL, NULL) != SPMV_OK) {
        spmv_triplets_free(&t);
        return 0;
    }
    spmv_triplets_free(&t);
    return 1;
}

/* an rows x cols matrix with no entries (rows < ranks: ranks without rows) */
static int empty(spmv_d_csr *A, int64_t rows, int64_t cols) {
    spmv_triplets t;
    if (spmv_triplets_alloc(&t, rows, cols, 0) != SPMV_OK) return 0;
    if (spmv_d_csr_from_triplets(A, &t, NULL, NULL) != SPMV_OK) return 0;
    spmv_triplets_free(&t);
    return 1;
}

/* block diagonal, one block per rank's share of a balanced split: no rank needs another's x */
static int blockdiag(spmv_d_csr *A, int64_t n) {
    spmv_triplets t;
    int64_t i, k = 0, b = (n + size_ - 1) / size_;
    if (spmv_triplets_alloc(&t, n, n, 3 * n) != SPMV_OK) return 0;
    for (i = 0; i < n; i++) {
        const int64_t lo = i / b * b, hi = lo + b < n ? lo + b : n;
        t.row[k] = i, t.col[k] = i, t.val[k++] = 4;
        if (i - 1 >= lo) t.row[k] = i, t.col[k] = i - 1, t.val[k++] = -1;
        if (i + 1 < hi) t.row[k] = i, t.col[k] = i + 1, t.val[k++] = -1;
    }
    t.nnz = k;
    if (spmv_d_csr_from_triplets(A, &t, NULL, NULL) != SPMV_OK) return 0;
    spmv_triplets_free(&t);
    return 1;
}

static void one_matrix(const char *name, const spmv_d_csr *A, int all_formats) {
    static const double ab[][2] = {{1, 0}, {1.5, 0.5}, {-2, 1}};
    spmv_d_dist D;
    spmv_error e;
    spmv_status st;
    char what[160];
    int f, j, sym = 0;
    /* from the root, csr */
    st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, size_ - 1, rank_ == size_ - 1 ? A : NULL, NULL, &e);
    agreed(st, name);
    CHECK(st == SPMV_OK, "rank %d %s: from_root_csr: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) {
        for (j = 0; j < 3; j++) {
            snprintf(what, sizeof what, "%s root csr alpha %g beta %g", name, ab[j][0], ab[j][1]);
            mv_ok(&D, A, ab[j][0], ab[j][1], what);
            mvt_ok(&D, A, ab[j][0], ab[j][1], what);
        }
        same_bits(&D, name);
        { /* the serial plan model (mpi_bench --plan-only) against the plan built on these ranks */
            spmv_dist_plan_stats S;
            int64_t mine[3] = {D.nghost, D.nrecv, D.nloc}, sum[3], mx[3];
            const spmv_status ps = spmv_d_dist_plan_stats(A, size_, &S);
            MPI_Allreduce(mine, sum, 3, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
            MPI_Allreduce(mine, mx, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
            CHECK(ps == SPMV_OK && S.ghosts_sum == sum[0] && S.ghosts_max == mx[0] && S.msgs_sum == sum[1] &&
                      S.msgs_max == mx[1] && S.rows_max == mx[2],
                  "rank %d %s: plan model on %d ranks: ghosts %lld/%lld (built %lld/%lld), receives %lld/%lld (built "
                  "%lld/%lld), rows %lld (built %lld)", rank_, name, size_, (long long)S.ghosts_sum, (long long)S.ghosts_max,
                  (long long)sum[0], (long long)mx[0], (long long)S.msgs_sum, (long long)S.msgs_max, (long long)sum[1],
                  (long long)mx[1], (long long)S.rows_max, (long long)mx[2]);
        }
        spmv_d_dist_free(&D);
    }
    /* from the ranks' own rows: rank 0 owns the first half, the last rank the rest, others none */
    {
        int64_t *rs = (int64_t *)malloc(sizeof(int64_t) * (size_t)(size_ + 1));
        spmv_d_csr L;
        int p;
        for (p = 0; p <= size_; p++) rs[p] = p == 0 ? 0 : p < size_ ? A->nrows / 2 : A->nrows;
        st = spmv_d_dist__rows(A, rs[rank_], rs[rank_ + 1], &L);
        CHECK(st == SPMV_OK, "rank %d %s: own rows", rank_, name);
        st = spmv_d_dist_from_local_csr(&D, MPI_COMM_WORLD, &L, rs, NULL, &e);
        agreed(st, name);
        CHECK(st == SPMV_OK, "rank %d %s: from_local_csr: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) {
            snprintf(what, sizeof what, "%s local rows, uneven", name);
            mv_ok(&D, A, 1.5, 0.5, what);
            mvt_ok(&D, A, 1.5, 0.5, what);
            spmv_d_dist_free(&D);
        }
        spmv_d_csr_free(&L);
        free(rs);
    }
    { /* the automatic selection on each rank's diagonal block */
        spmv_opts o = spmv_opts_default();
        o.expected_calls = 50;
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? A : NULL, NULL, &e);
        if (st == SPMV_OK) {
            st = spmv_d_dist_select(&D, &o, &e);
            agreed(st, name);
            CHECK(st == SPMV_OK, "rank %d %s: dist_select: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
            snprintf(what, sizeof what, "%s after dist_select (%s)", name, spmv_format_name(D.diag.fmt));
            if (st == SPMV_OK) mv_ok(&D, A, 1.5, 0.5, what);
            if (st == SPMV_OK) { /* the transpose product: on csr blocks, else refused on every rank */
                int csr_here = D.nloc == 0 || D.diag.fmt == SPMV_FMT_CSR || D.diag.fmt == SPMV_FMT_CSR_MERGE, all = 0;
                MPI_Allreduce(&csr_here, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
                if (all) mvt_ok(&D, A, 1.5, 0.5, what);
                else {
                    double *xx = (double *)calloc((size_t)D.nloc + 1, sizeof(double));
                    double *yy = (double *)calloc((size_t)D.ncloc + 1, sizeof(double));
                    st = spmv_d_dist_mvt(&D, 1.0, xx, 0.0, yy);
                    agreed(st, what);
                    CHECK(st == SPMV_ERR_UNSUPPORTED, "rank %d %s: dist_mvt on non-csr blocks: %s", rank_, what,
                          spmv_status_str(st));
                    free(xx), free(yy);
                }
            }
            spmv_d_dist_free(&D);
        }
    }
    if (!all_formats) return;
    { /* the root's matrix decides (the other ranks pass none) */
        int s1 = rank_ == 0 ? spmv_d_csr_is_symmetric(A) == 1 : 0;
        MPI_Bcast(&s1, 1, MPI_INT, 0, MPI_COMM_WORLD);
        sym = s1;
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) { /* every host format as the blocks' engine */
        spmv_opts o = spmv_opts_default();
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        o.format = (spmv_format)f;
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? A : NULL, &o, &e);
        agreed(st, name);
        if (st == SPMV_ERR_LIMIT) continue; /* a size cap of the format (DIA on a random matrix) */
        if ((spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && !sym) { /* sss: the diagonal blocks */
            CHECK(st == SPMV_ERR_ARG, "rank %d %s %s of a non-symmetric matrix: %s", rank_, name,
                  spmv_format_name((spmv_format)f), spmv_status_str(st));
            if (st == SPMV_OK) spmv_d_dist_free(&D);
            continue;
        }
        CHECK(st == SPMV_OK, "rank %d %s %s: %s (%s)", rank_, name, spmv_format_name((spmv_format)f),
              spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        snprintf(what, sizeof what, "%s %s", name, spmv_format_name((spmv_format)f));
        mv_ok(&D, A, 1.5, 0.5, what);
        mv_ok(&D, A, 1, 0, what);
        if (f == SPMV_FMT_CSR_MERGE) mvt_ok(&D, A, -1, 1, what);
        spmv_d_dist_free(&D);
    }
}

/* a real matrix: from the root and from its file (every rank reads its rows) */
static void real_one(const char *name, const spmv_triplets *t, void *ctx) {
    spmv_d_csr A;
    spmv_d_dist D;
    spmv_error e;
    spmv_status st;
    char path[4096], what[600];
    const char *dir = getenv("SPMV_MATRICES");
    (void)ctx;
    if (spmv_d_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) return; /* the serial tests cover refusals */
    one_matrix(name, &A, 0);
    snprintf(path, sizeof path, "%.3000s/%.600s.mtx.gz", dir ? dir : "../shared/matrices", name);
    st = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, path, NULL, &e);
    agreed(st, name);
    CHECK(st == SPMV_OK, "rank %d %s: from_mm: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) {
        snprintf(what, sizeof what, "%s from its file", name);
        mv_ok(&D, &A, 1.5, 0.5, what);
        spmv_d_dist_free(&D);
    }
    spmv_d_csr_free(&A);
}

static void bad_input(void) {
    spmv_d_csr A, L;
    spmv_d_dist D;
    spmv_error e;
    spmv_status st;
    int64_t *rs = (int64_t *)malloc(sizeof(int64_t) * (size_t)(size_ + 1));
    int p;
    if (!gen("stencil2d:n=12", &A)) {
        CHECK(0, "bad_input: setup");
        return;
    }
    for (p = 0; p <= size_; p++) rs[p] = A.nrows * p / size_;
    /* the ranks' column counts disagree */
    st = spmv_d_dist__rows(&A, rs[rank_], rs[rank_ + 1], &L);
    if (rank_ == size_ - 1) L.ncols += 1;
    st = spmv_d_dist_from_local_csr(&D, MPI_COMM_WORLD, &L, NULL, NULL, &e);
    agreed(st, "ncols disagree");
    CHECK(size_ == 1 ? st == SPMV_OK : st == SPMV_ERR_ARG, "rank %d ncols disagree: %s (%s)", rank_,
          spmv_status_str(st), e.msg);
    if (st == SPMV_OK) spmv_d_dist_free(&D);
    if (rank_ == size_ - 1) L.ncols -= 1;
    /* a row ownership that does not add up */
    rs[size_] += 1;
    st = spmv_d_dist_from_local_csr(&D, MPI_COMM_WORLD, &L, rs, NULL, &e);
    agreed(st, "row_start");
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "row_start"), "rank %d bad row_start: %s (%s)", rank_,
          spmv_status_str(st), e.msg);
    rs[size_] -= 1;
    /* a column beyond the global size on the last rank */
    if (rank_ == size_ - 1 && L.nnz > 0) L.col_idx[L.nnz - 1] = (int32_t)L.ncols;
    st = spmv_d_dist_from_local_csr(&D, MPI_COMM_WORLD, &L, rs, NULL, &e);
    agreed(st, "column beyond");
    CHECK(st != SPMV_OK && e.msg[0], "rank %d column beyond the size: %s (%s)", rank_, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) spmv_d_dist_free(&D);
    spmv_d_csr_free(&L);
    /* a NULL matrix on rank 0 */
    st = spmv_d_dist__rows(&A, rs[rank_], rs[rank_ + 1], &L);
    st = spmv_d_dist_from_local_csr(&D, MPI_COMM_WORLD, rank_ == 0 ? NULL : &L, rs, NULL, &e);
    agreed(st, "NULL L");
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "rank 0"), "rank %d NULL L on rank 0: %s (%s)", rank_,
          spmv_status_str(st), e.msg);
    spmv_d_csr_free(&L);
    /* a root that is not a rank; a NULL matrix on the root */
    st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, size_, &A, NULL, &e);
    agreed(st, "bad root");
    CHECK(st == SPMV_ERR_ARG, "rank %d bad root: %s", rank_, spmv_status_str(st));
    st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, NULL, NULL, &e);
    agreed(st, "NULL on root");
    CHECK(st == SPMV_ERR_ARG, "rank %d NULL on the root: %s (%s)", rank_, spmv_status_str(st), e.msg);
    /* a file that only some ranks can read */
    {
        char path[64];
        snprintf(path, sizeof path, "/tmp/spmv_test_mpi_%d_%d.mtx", (int)getppid(), rank_);
        if (rank_ != size_ - 1) {
            FILE *f = fopen(path, "w");
            if (f) {
                fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 2\n");
                fclose(f);
            }
        }
        st = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, path, NULL, &e);
        agreed(st, "file on some ranks");
        CHECK(size_ == 1 ? st == SPMV_ERR_IO : st == SPMV_ERR_IO, "rank %d file missing on the last rank: %s (%s)", rank_,
              spmv_status_str(st), e.msg);
        if (st == SPMV_OK) spmv_d_dist_free(&D);
        unlink(path);
    }
    /* allocation failure at every allocation of the last rank: every rank agrees, nothing leaks */
    {
        long k, live = th_alloc_live;
        int done = 0;
        for (k = 0; !done && k < 400; k++) {
            const int me = rank_ == size_ - 1;
            if (me) {
                th_alloc_count = 0;
                th_alloc_fail_at = k;
            }
            st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? &A : NULL, NULL, &e);
            if (me) th_alloc_fail_at = -1;
            agreed(st, "allocation failure");
            CHECK(st == SPMV_OK || st == SPMV_ERR_ALLOC, "rank %d allocation %ld failing: %s", rank_, k,
                  spmv_status_str(st));
            if (st == SPMV_OK) {
                done = 1; /* past the last allocation of the build */
                spmv_d_dist_free(&D);
            }
            CHECK(th_alloc_live == live, "rank %d allocation %ld failing: %ld blocks left", rank_, k,
                  th_alloc_live - live);
        }
        CHECK(done, "rank %d: the build never succeeded under failure injection", rank_);
    }
    spmv_d_csr_free(&A);
    free(rs);
}

int main(int argc, char **argv) {
    spmv_d_csr A;
    int passed[3], sums[3];
    (void)argc, (void)argv;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    set_threads(1);
    if (gen("stencil2d:n=17", &A)) one_matrix("stencil2d:n=17", &A, 1), spmv_d_csr_free(&A);
    if (gen("random:rows=120,cols=90,nnzr=5,seed=3", &A)) one_matrix("random 120x90", &A, 1), spmv_d_csr_free(&A);
    if (gen("band:n=500,bw=4,seed=2", &A)) one_matrix("band", &A, 1), spmv_d_csr_free(&A);
    if (gen("stencil3d:n=30,pts=27", &A)) one_matrix("stencil3d:n=30,pts=27", &A, 0), spmv_d_csr_free(&A);
    if (gen("fem:n=2000,bs=3", &A)) one_matrix("fem:n=2000,bs=3", &A, 0), spmv_d_csr_free(&A);
    if (empty(&A, 0, 0)) one_matrix("0 x 0", &A, 0), spmv_d_csr_free(&A);
    if (empty(&A, 10, 7)) one_matrix("10 x 7 without entries", &A, 0), spmv_d_csr_free(&A);
    if (gen("stencil2d:n=1", &A)) one_matrix("1 x 1 (ranks without rows)", &A, 1), spmv_d_csr_free(&A);
    if (blockdiag(&A, 40)) one_matrix("block diagonal (no neighbours)", &A, 0), spmv_d_csr_free(&A);
    set_threads(2);
    if (gen("stencil2d:n=40", &A)) one_matrix("stencil2d:n=40, 2 threads", &A, 0), spmv_d_csr_free(&A);
    set_threads(1);
    th_real_matrices(real_one, NULL, 100000); /* the real matrices up to 100k entries */
    bad_input();
    CHECK(th_alloc_live == 0, "rank %d: %ld allocations live at exit", rank_, th_alloc_live);
    passed[0] = check_passed_, passed[1] = check_failed_, passed[2] = check_skipped_;
    MPI_Reduce(passed, sums, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("RESULT test_mpi_np%d passed=%d failed=%d skipped=%d\n", size_, sums[0], sums[1], sums[2]);
    MPI_Finalize();
    return 0;
}
