/* A float matrix with double vectors (tag ds: SPMV_VAL float, SPMV_VEC double, formats/instance.h):
 * every format the tag instantiates (spmv_ds_any_has), every ISA, threads 1-3, csr's two row sums,
 * transpose and SpMM, the handle and the selection, on edge cases, presets and the real matrices. Two bounds, against long-double references:
 *   - the stored (float) values with the double x: the sums are double, so
 *     |y - ref| <= (n + 2) u_d * scale  (n the longest row, scale = |alpha| sum |a_ij x_j| + |beta y|);
 *     float sums would miss it by nine orders of magnitude;
 *   - the double values the matrix was built from: plus u_s * scale (each value rounded once to
 *     nearest).
 * The conversion rounds to nearest (ties to even) and refuses a finite value beyond float's range
 * (SPMV_ERR_OVERFLOW, never an infinity). */
#define SPMV_ENABLE_DS
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <float.h>
#include <math.h>

#define UD (DBL_EPSILON / 2)
#define AL (-0.7000000001) /* an alpha that is not a float: one rounded to float would show */
#define US (FLT_EPSILON / 2)

static int32_t longest(const spmv_ds_csr *A) {
    int32_t r, m = 0;
    for (r = 0; r < A->nrows; r++) m = A->row_ptr[r + 1] - A->row_ptr[r] > m ? A->row_ptr[r + 1] - A->row_ptr[r] : m;
    return m;
}


/* a format's documented refusals, as for every tag: a size cap (dia's fill, ell's padding), or a
 * symmetric format given a matrix that is not */
static int refused(spmv_format f, const spmv_ds_csr *A, spmv_status st) {
    if (st == SPMV_ERR_LIMIT) return 1;
    return st == SPMV_ERR_ARG && (spmv_format_flags(f) & SPMV_FF_SYMMETRIC) && spmv_ds_csr_is_symmetric(A) != 1;
}

/* every kernel of every format the tag has on one matrix: format (and csr's gather row sum) x
 * ISA x threads x (alpha, beta) */
static void products(const char *name, const spmv_ds_csr *A, int big) {
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    static const double ab[][2] = {{1, 0}, {-0.75, 2}, {-0.7000000001, 2.0000000003}}; /* the last not floats */
    const double bound = ((double)longest(A) + 4) * UD;
    double *x = malloc(sizeof(double) * (size_t)(A->ncols + 1)), *y0 = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    double *y = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    int32_t i;
    size_t ii, j;
    int th, f, kv;
    if (!x || !y0 || !y) abort();
    for (i = 0; i < A->ncols; i++) x[i] = 1 + th_rval() * 0.5 + 1e-9 * (double)(i % 13); /* not floats */
    for (i = 0; i < A->nrows; i++) y0[i] = th_rval();
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !spmv_ds_any_has((spmv_format)f)) continue;
        for (kv = 0; kv < (f == SPMV_FMT_CSR ? 2 : 1); kv++)
            for (ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
                spmv_opts o = spmv_opts_default();
                spmv_ds_any M;
                spmv_error e;
                spmv_status st;
                if (!spmv_isa_supported(isas[ii])) continue;
                o.format = (spmv_format)f, o.isa = isas[ii], o.params = kv ? "dot=gather" : NULL;
                st = spmv_ds_any_from_csr(&M, A, &o, &e);
                if (refused((spmv_format)f, A, st)) continue;
                CHECK(st == SPMV_OK, "%s: ds %s isa %d: %s (%s)", name, spmv_format_name((spmv_format)f), (int)isas[ii],
                      spmv_status_str(st), e.msg);
                if (st != SPMV_OK) continue;
                for (th = 1; th <= 3; th++) {
                    if (big && th != 2) continue;
                    set_threads(th);
                    for (j = 0; j < sizeof ab / sizeof ab[0]; j++) {
                        double err;
                        memcpy(y, y0, sizeof(double) * (size_t)A->nrows);
                        st = spmv_ds_any_mv(&M, ab[j][0], x, ab[j][1], y);
                        err = spmv_ds_csr_mv_err(A, ab[j][0], x, ab[j][1], y0, y);
                        CHECK(st == SPMV_OK && err <= bound,
                              "%s: ds %s%s isa %d, %d threads, alpha %g beta %g: error %.3g > %.3g", name,
                              spmv_format_name((spmv_format)f), kv ? " (gather)" : "", (int)isas[ii], th, ab[j][0], ab[j][1],
                              err, bound);
                    }
                }
                set_threads(2);
                if (A->ncols > 0) { /* an infinity in x: the formats' exact paths for sums that are not finite */
                    const double keep = x[A->ncols / 2];
                    double err;
                    x[A->ncols / 2] = INFINITY;
                    st = spmv_ds_any_mv(&M, AL, x, 0.0, y);
                    err = spmv_ds_csr_mv_err(A, AL, x, 0.0, NULL, y);
                    CHECK(st == SPMV_OK && err <= bound, "%s: ds %s%s isa %d, an infinity in x: error %.3g > %.3g", name,
                          spmv_format_name((spmv_format)f), kv ? " (gather)" : "", (int)isas[ii], err, bound);
                    x[A->ncols / 2] = keep;
                }
                spmv_ds_any_free(&M);
            }
    }
    free(x);
    free(y0);
    free(y);
}

/* against the double matrix the float one was rounded from: one rounding an entry more */
static void against_double(const char *name, const spmv_triplets *t, const spmv_ds_csr *A) {
    spmv_d_csr D;
    double *x, *y;
    long double *ref, *sc;
    int32_t i;
    double e, bound = US + ((double)longest(A) + 4) * UD;
    if (spmv_d_csr_from_triplets(&D, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: d csr", name);
        return;
    }
    x = malloc(sizeof(double) * (size_t)(A->ncols + 1));
    y = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    ref = malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    sc = malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    if (!x || !y || !ref || !sc) abort();
    for (i = 0; i < A->ncols; i++) x[i] = 1 + th_rval() * 0.5;
    CHECK(spmv_ds_csr_mv(A, 1.0, x, 0.0, y) == SPMV_OK, "%s: ds mv", name);
    spmv_d_csr_mv_ref(&D, 1.0, x, 0.0, NULL, ref, sc);
    e = spmv_d_max_rel_err(D.nrows, y, ref, sc);
    CHECK(e <= bound, "%s: ds against the double matrix: error %.3g > %.3g", name, e, bound);
    spmv_d_csr_free(&D);
    free(x);
    free(y);
    free(ref);
    free(sc);
}

/* A^T x and k vectors in both layouts, each against the reference of its vectors */
static void ops(const char *name, const spmv_ds_csr *A) {
    enum { K = 3 };
    spmv_ds_csr T;
    const int32_t n = A->nrows, m = A->ncols;
    double *X = malloc(sizeof(double) * (size_t)(m * K + 1)), *Y = malloc(sizeof(double) * (size_t)(n * K + 1));
    double *xv = malloc(sizeof(double) * (size_t)(m > n ? m + 1 : n + 1)), *yv = malloc(sizeof(double) * (size_t)(m > n ? m + 1 : n + 1));
    int32_t i;
    int b, lay;
    if (!X || !Y || !xv || !yv) abort();
    for (i = 0; i < m * K; i++) X[i] = 1 + th_rval() * 0.25;
    for (lay = 0; lay < 2; lay++) {
        const spmv_layout L = lay ? SPMV_COL_MAJOR : SPMV_ROW_MAJOR;
        const int64_t ldx = lay ? (m > 0 ? m : 1) : K, ldy = lay ? (n > 0 ? n : 1) : K;
        spmv_status st;
        memset(Y, 0, sizeof(double) * (size_t)(n * K + 1));
        st = spmv_ds_csr_mm(A, K, AL, X, ldx, 0.0, Y, ldy, L);
        CHECK(st == SPMV_OK, "%s: ds csr_mm layout %d: %s", name, lay, spmv_status_str(st));
        for (b = 0; b < K && st == SPMV_OK; b++) {
            double e;
            for (i = 0; i < m; i++) xv[i] = lay ? X[(int64_t)b * m + i] : X[(int64_t)i * K + b];
            for (i = 0; i < n; i++) yv[i] = lay ? Y[(int64_t)b * n + i] : Y[(int64_t)i * K + b];
            e = spmv_ds_csr_mv_err(A, AL, xv, 0.0, NULL, yv);
            CHECK(e <= ((double)longest(A) + 4) * UD, "%s: ds csr_mm layout %d vector %d: error %.3g", name, lay, b, e);
        }
    }
    if (spmv_ds_csr_transpose(&T, A) == SPMV_OK) {
        double e;
        for (i = 0; i < n; i++) xv[i] = 1 + th_rval() * 0.25;
        CHECK(spmv_ds_csr_mvt(A, AL, xv, 0.0, yv) == SPMV_OK, "%s: ds csr_mvt", name);
        e = spmv_ds_csr_mv_err(&T, AL, xv, 0.0, NULL, yv);
        CHECK(e <= ((double)longest(&T) + 4) * UD, "%s: ds csr_mvt: error %.3g", name, e);
        spmv_ds_csr_free(&T);
    } else {
        CHECK(0, "%s: ds csr_transpose", name);
    }
    free(X);
    free(Y);
    free(xv);
    free(yv);
}

/* the handle over every host format: the ones this tag instantiates multiply within the bound
 * (and take new values); the others are refused with SPMV_ERR_UNSUPPORTED and a message */
static void handle(const char *name, const spmv_ds_csr *A) {
    const double bound = ((double)longest(A) + 4) * UD;
    double *x = malloc(sizeof(double) * (size_t)(A->ncols + 1)), *y = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    int f, has = 0;
    if (!x || !y) abort();
    for (f = 0; f < A->ncols; f++) x[f] = 1 + th_rval() * 0.5;
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        spmv_ds_any M;
        spmv_error e;
        spmv_status st;
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        o.format = (spmv_format)f;
        st = spmv_ds_any_from_csr(&M, A, &o, &e);
        if (!spmv_format_compiled((spmv_format)f)) { /* SPMV_FORMATS_ONLY: not in this unit at all */
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "not compiled in"), "%s: ds any %s: not compiled in (%s)", name,
                  spmv_format_name((spmv_format)f), spmv_status_str(st));
            continue;
        }
        if (!spmv_ds_any_has((spmv_format)f)) {
            CHECK(st == SPMV_ERR_UNSUPPORTED && strstr(e.msg, "not instantiated") && th_all_zero(&M, sizeof M),
                  "%s: ds any %s: refused (%s: %s)", name, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
            continue;
        }
        has++;
        if (refused((spmv_format)f, A, st)) continue;
        CHECK(st == SPMV_OK, "%s: ds any %s: %s (%s)", name, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        st = spmv_ds_any_mv(&M, 1.0, x, 0.0, y);
        CHECK(st == SPMV_OK && spmv_ds_csr_mv_err(A, 1.0, x, 0.0, NULL, y) <= bound, "%s: ds any %s mv", name,
              spmv_format_name((spmv_format)f));
        { /* k vectors (native SpMM or one product per vector), both layouts */
            enum { K = 3 };
            const int32_t n = A->nrows, m = A->ncols;
            double *X = malloc(sizeof(double) * (size_t)(m * K + 1)), *Y = malloc(sizeof(double) * (size_t)(n * K + 1));
            double *xv = malloc(sizeof(double) * (size_t)(m + 1)), *yv = malloc(sizeof(double) * (size_t)(n + 1));
            int lay, b, q;
            if (!X || !Y || !xv || !yv) abort();
            for (q = 0; q < m * K; q++) X[q] = 1 + th_rval() * 0.25;
            for (lay = 0; lay < 2; lay++) {
                const int64_t ldx = lay ? (m > 0 ? m : 1) : K, ldy = lay ? (n > 0 ? n : 1) : K;
                const spmv_status sm = spmv_ds_any_mm(&M, K, AL, X, ldx, 0.0, Y, ldy, lay ? SPMV_COL_MAJOR : SPMV_ROW_MAJOR);
                double worst = 0;
                for (b = 0; b < K && sm == SPMV_OK; b++) {
                    double err;
                    for (q = 0; q < m; q++) xv[q] = lay ? X[(int64_t)b * m + q] : X[(int64_t)q * K + b];
                    for (q = 0; q < n; q++) yv[q] = lay ? Y[(int64_t)b * n + q] : Y[(int64_t)q * K + b];
                    err = spmv_ds_csr_mv_err(A, AL, xv, 0.0, NULL, yv);
                    worst = err > worst || err != err ? err : worst;
                }
                CHECK(sm == SPMV_OK && worst <= bound, "%s: ds any %s mm layout %d: %s, error %.3g", name,
                      spmv_format_name((spmv_format)f), lay, spmv_status_str(sm), worst);
            }
            free(X), free(Y), free(xv), free(yv);
        }
        st = spmv_ds_any_update_values(&M, A);
        CHECK(st == SPMV_OK, "%s: ds any %s update_values: %s", name, spmv_format_name((spmv_format)f), spmv_status_str(st));
        if (st == SPMV_OK) {
            st = spmv_ds_any_mv(&M, 1.0, x, 0.0, y);
            CHECK(st == SPMV_OK && spmv_ds_csr_mv_err(A, 1.0, x, 0.0, NULL, y) <= bound, "%s: ds any %s mv after new values", name,
                  spmv_format_name((spmv_format)f));
        }
        spmv_ds_any_free(&M);
    }
    CHECK(has >= 3 && spmv_ds_any_has(SPMV_FMT_COO) && spmv_ds_any_has(SPMV_FMT_CSR) && spmv_ds_any_has(SPMV_FMT_CSR_MERGE),
          "ds instantiates coo, csr and csr_merge at least (%d host formats)", has);
    {
        spmv_opts o = spmv_opts_default();
        spmv_ds_auto Q;
        spmv_error e;
        spmv_status st = spmv_ds_auto_from_csr(&Q, A, &o, &e);
        CHECK(st == SPMV_OK && spmv_ds_any_has(spmv_ds_auto_format(&Q)), "%s: ds auto: %s (%s)", name, spmv_status_str(st),
              e.msg);
        if (st == SPMV_OK) {
            st = spmv_ds_auto_mv(&Q, 1.0, x, 0.0, y);
            CHECK(st == SPMV_OK && spmv_ds_csr_mv_err(A, 1.0, x, 0.0, NULL, y) <= bound, "%s: ds auto (%s) mv", name,
                  spmv_format_name(spmv_ds_auto_format(&Q)));
            spmv_ds_auto_free(&Q);
        }
    }
    free(x);
    free(y);
}

/* csrdu sums every row as csr does (issue: compression), with double sums here too: the same bits */
static void csrdu_bits(const char *name, const spmv_ds_csr *A) {
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    double *x = malloc(sizeof(double) * (size_t)(A->ncols + 1)), *y1 = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    double *y2 = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    size_t ii;
    int32_t i;
    if (!x || !y1 || !y2) abort();
    for (i = 0; i < A->ncols; i++) x[i] = 1 + th_rval() * 0.5;
    for (ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
        spmv_opts o = spmv_opts_default();
        spmv_ds_any C, U;
        int ok;
        if (!spmv_isa_supported(isas[ii])) continue;
        o.isa = isas[ii];
        ok = spmv_ds_any_from_csr(&C, A, &o, NULL) == SPMV_OK;
        o.format = SPMV_FMT_CSRDU;
        ok = spmv_ds_any_from_csr(&U, A, &o, NULL) == SPMV_OK && ok;
        for (i = 0; i < A->nrows; i++) y1[i] = y2[i] = (double)i;
        ok = ok && spmv_ds_any_mv(&C, AL, x, 2.0000000003, y1) == SPMV_OK && spmv_ds_any_mv(&U, AL, x, 2.0000000003, y2) == SPMV_OK;
        CHECK(ok && !memcmp(y1, y2, sizeof(double) * (size_t)A->nrows), "%s: ds csrdu isa %d: csr's bits", name,
              (int)isas[ii]);
        spmv_ds_any_free(&C);
        spmv_ds_any_free(&U);
    }
    free(x), free(y1), free(y2);
}

static void one(const char *name, const spmv_triplets *t, void *ctx) {
    spmv_ds_csr A;
    spmv_error e;
    const spmv_status st = spmv_ds_csr_from_triplets(&A, t, NULL, &e);
    (void)ctx;
    CHECK(st == SPMV_OK, "%s: ds csr_from_triplets: %s (%s)", name, spmv_status_str(st), e.msg);
    if (st != SPMV_OK) return;
    products(name, &A, t->nnz > 100000);
    against_double(name, t, &A);
    if (t->nnz <= 100000) ops(name, &A);
    if (t->nnz <= 20000) handle(name, &A);
    if (spmv_ds_any_has(SPMV_FMT_CSRDU)) csrdu_bits(name, &A);
    spmv_ds_csr_free(&A);
}

/* rounding and range: ties to even, values beyond float refused, infinities and NaN kept */
static void conversion_cases(void) {
    spmv_triplets t;
    spmv_ds_csr A;
    spmv_error e;
    spmv_status st;
    double x[3] = {1, 1, 1}, y[3];
    if (spmv_triplets_alloc(&t, 3, 3, 3) != SPMV_OK) abort();
    t.row[0] = 0, t.col[0] = 0, t.val[0] = 1 + ldexp(1, -24);     /* halfway: to even, 1 */
    t.row[1] = 1, t.col[1] = 1, t.val[1] = 1 + 3 * ldexp(1, -25); /* above halfway: 1 + 2^-23 */
    t.row[2] = 2, t.col[2] = 2, t.val[2] = 1e-50;                 /* below float's range: 0 */
    st = spmv_ds_csr_from_triplets(&A, &t, NULL, NULL);
    CHECK(st == SPMV_OK && A.val[0] == 1.0f && A.val[1] == 1.0f + FLT_EPSILON && A.val[2] == 0.0f,
          "rounding to nearest, ties to even (%s)", spmv_status_str(st));
    if (st == SPMV_OK) spmv_ds_csr_free(&A);
    t.val[2] = 1e39;
    st = spmv_ds_csr_from_triplets(&A, &t, NULL, &e);
    CHECK(st == SPMV_ERR_OVERFLOW && strstr(e.msg, "range") && th_all_zero(&A, sizeof A),
          "a finite value beyond float's range is refused: %s (%s)", spmv_status_str(st), e.msg);
    t.val[2] = -1e39;
    CHECK(spmv_s_csr_from_triplets((spmv_s_csr *)(void *)&A, &t, NULL, NULL) == SPMV_ERR_OVERFLOW,
          "the same for the float matrix of tag s");
    t.val[1] = INFINITY, t.val[2] = NAN;
    st = spmv_ds_csr_from_triplets(&A, &t, NULL, NULL);
    CHECK(st == SPMV_OK && isinf(A.val[1]) && isnan(A.val[2]), "infinity and NaN values are kept (%s)",
          spmv_status_str(st));
    if (st == SPMV_OK) {
        CHECK(spmv_ds_csr_mv(&A, 1.0, x, 0.0, y) == SPMV_OK && y[0] == 1.0 && isinf(y[1]) && isnan(y[2]),
              "their products: %g %g %g", y[0], y[1], y[2]);
        x[0] = -0.0;
        CHECK(spmv_ds_csr_mv(&A, 1.0, x, 0.0, y) == SPMV_OK && y[0] == 0.0, "x = -0.0");
        spmv_ds_csr_free(&A);
    }
    spmv_triplets_free(&t);
}

/* the argument checks count doubles: x and y next to each other pass, overlapping fail */
static void argument_cases(void) {
    spmv_calibration cal;
    spmv_error ce;
    CHECK(spmv_ds_calibrate(&cal, 1, SPMV_ISA_AUTO, &ce) == SPMV_ERR_UNSUPPORTED && ce.msg[0],
          "ds's CSR costs are not calibrated (they would share s's cache key): %s", ce.msg);
    { /* its ISA picks are, under a key of its own */
        spmv_isa_table it;
        unsigned char want[SPMV_FMT_COUNT_] = {0};
        want[SPMV_FMT_DIA] = 1;
        CHECK(spmv_ds_calibrate_isa(&it, 1, want, &ce) == SPMV_OK && it.value_bytes == SPMV_VKEY_DS &&
                  it.pick[SPMV_FMT_DIA] != SPMV_ISA_AUTO && it.pick[SPMV_FMT_CSR] == SPMV_ISA_AUTO,
              "ds's ISA per format: measured under its own key (%s)", ce.msg);
    }
    spmv_triplets t;
    spmv_ds_csr A;
    double buf[20];
    int i;
    if (spmv_gen("band:n=10,bw=1", &t, NULL) != SPMV_OK || spmv_ds_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "band matrix");
        return;
    }
    for (i = 0; i < 20; i++) buf[i] = 1;
    CHECK(spmv_ds_csr_mv(&A, 1.0, buf, 0.0, buf + 10) == SPMV_OK, "adjacent x and y");
    CHECK(spmv_ds_csr_mv(&A, 1.0, buf, 0.0, buf + 9) == SPMV_ERR_ARG, "overlapping x and y (one double)");
    CHECK(spmv_ds_csr_mv(&A, 1.0, NULL, 0.0, buf) == SPMV_ERR_ARG, "no x");
    spmv_ds_csr_free(&A);
    spmv_triplets_free(&t);
}

int main(void) {
    static const char *specs[] = {"random:rows=300,cols=300,nnzr=6,seed=7", "stencil3d:n=12,pts=27", "band:n=500,bw=40",
                                  "random:rows=200,cols=90,nnzr=4,seed=2", "random:rows=90,cols=2000,nnzr=90,seed=3",
                                  "random:rows=0,cols=5,nnzr=1,seed=1", "random:rows=40,cols=40,nnzr=0,seed=1"};
    size_t i;
    set_threads(2);
    conversion_cases();
    argument_cases();
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen(specs[i], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[i], e.msg);
            continue;
        }
        one(specs[i], &t, NULL);
        spmv_triplets_free(&t);
    }
    {
        /* rows of very different lengths, some empty */
        static const int64_t len[12] = {0, 1, 300, 0, 7, 64, 2, 0, 33, 1, 0, 15};
        spmv_triplets t;
        th_make_rows(&t, 12, 400, len);
        one("rows 0..300", &t, NULL);
        spmv_triplets_free(&t);
    }
    th_real_matrices(one, NULL, 400000);
    return check_finish("test_mixed");
}
