/* 16-bit values with float vectors: tags h (binary16, spmv_half) and b (bfloat16, spmv_bfloat16),
 * formats/core/half.h and formats/instance.h. For each tag: every format it instantiates
 * (spmv_<tag>_any_has), every ISA, threads 1-3, csr's two row sums, transpose and SpMM, the
 * handle with new values and the selection, on edge cases, presets and the real matrices up to 80k
 * entries (a
 * matrix beyond binary16's range, refused with SPMV_ERR_OVERFLOW, is checked for that and then
 * scaled by a power of two). Two bounds, against long-double references:
 *   - the stored values (exact in float) with the float x: float sums,
 *     |y - ref| <= (n + 4) u_s * scale  (n the longest row, scale = |alpha| sum |a_ij x_j| + |beta y|);
 *   - the double values the matrix was built from: plus u_v * scale (u_v = 2^-11 for binary16,
 *     2^-8 for bfloat16: each value rounded once to nearest) and, for values below the 16-bit
 *     type's normal range, its absolute rounding step (binary16: 2^-25 |x_j| an entry).
 * Also the conversion itself: every 16-bit value round-trips, midpoints round to even, a finite
 * value beyond the range is refused, infinities and NaN are kept, and the vector loads (F16C,
 * AVX-512, the software conversion) give the same floats for every 16-bit pattern. */
#ifndef HALF_BODY
#define SPMV_ENABLE_H
#ifndef TH_ONLY_H
#define SPMV_ENABLE_B
#endif
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <float.h>
#include <math.h>

#define US (FLT_EPSILON / 2)
#define AL (-0.7f)
#define HN(tag, x) SPMV_CAT3(spmv_, tag, _##x)
#define TV_h(v) spmv_half_to_float(v)
#define TV_b(v) spmv_bfloat16_to_float(v)
#define SPMV_TV_OF(tag, v) SPMV_CAT(TV_, tag)(v)

/* the real matrices' largest magnitude (a matrix beyond binary16's range is scaled once) */
static double max_abs(const spmv_triplets *t) {
    double m = 0;
    int64_t k;
    for (k = 0; k < t->nnz; k++)
        if (isfinite(t->val[k]) && fabs(t->val[k]) > m) m = fabs(t->val[k]);
    return m;
}

#define HALF_BODY 1
#define HT h
#define HU (1.0 / 2048)
#define HTINY 0x1p-25
#define HMAX 65504.0
#include "test_half.c"
#undef HT
#undef HU
#undef HTINY
#undef HMAX
#ifndef TH_ONLY_H /* the sanitizer build: tag h alone (the compile time of one tag) */
#define HT b
#define HU (1.0 / 256)
#define HTINY 0x1p-134
#define HMAX 3.3895313892515355e38
#include "test_half.c"
#undef HT
#endif

/* every 16-bit pattern through the software conversion and back, and midpoints to even */
static void conversion_exhaustive(void) {
    long bad = 0, badb = 0, mid = 0;
    unsigned u;
    for (u = 0; u < 65536; u++) {
        spmv_half h, r;
        spmv_bfloat16 b, rb;
        float f, g;
        h.bits = (uint16_t)u, b.bits = (uint16_t)u;
        f = spmv_half_to_float(h), g = spmv_bfloat16_to_float(b);
        r = spmv_half_from_double(f), rb = spmv_bfloat16_from_double(g);
        if (isnan(f) ? !isnan(spmv_half_to_float(r)) : r.bits != u) bad++;
        if (isnan(g) ? !isnan(spmv_bfloat16_to_float(rb)) : rb.bits != u) badb++;
        if ((u & 0x7fffu) < 0x7bffu) { /* the midpoint to the next magnitude rounds to the even one */
            spmv_half n;
            double m;
            n.bits = (uint16_t)(u + 1);
            m = ((double)f + (double)spmv_half_to_float(n)) / 2;
            if (spmv_half_from_double(m).bits != ((u & 1u) ? u + 1 : u)) mid++;
            if (spmv_half_from_double(m + (signbit(f) ? -1 : 1) * fabs(m) * 1e-12).bits != u + 1) mid++;
        }
    }
    CHECK(bad == 0 && badb == 0 && mid == 0, "16-bit conversion: %ld binary16, %ld bfloat16 round trips wrong, %ld midpoints",
          bad, badb, mid);
    CHECK(spmv_half_from_double(65519.99).bits == 0x7bffu && spmv_half_from_double(65520.0).bits == 0x7c00u &&
              spmv_half_from_double(0x1p-25).bits == 0 && spmv_half_from_double(0x1.0001p-25).bits == 1 &&
              spmv_half_from_double(-0.0).bits == 0x8000u && spmv_bfloat16_from_double(1.0 / 3).bits == 0x3eabu &&
              isnan(spmv_half_to_float(spmv_half_from_double(NAN))) && isnan(spmv_bfloat16_to_float(spmv_bfloat16_from_double(NAN))),
          "16-bit conversion: the range's edges, -0, NaN");
}

int main(void) {
    set_threads(2);
    conversion_exhaustive();
    spmv_h_run();
#ifndef TH_ONLY_H
    spmv_b_run();
#endif
    return check_finish("test_half");
}

#else /* HALF_BODY: the tests of one tag (HT), its unit roundoff HU, underflow step HTINY, largest HMAX */
#define N(x) HN(HT, x)
#define TNAME SPMV_STR(HT)

static int32_t N(longest)(const N(csr) * A) {
    int32_t r, m = 0;
    for (r = 0; r < A->nrows; r++) m = A->row_ptr[r + 1] - A->row_ptr[r] > m ? A->row_ptr[r + 1] - A->row_ptr[r] : m;
    return m;
}


static int N(refused)(spmv_format f, const N(csr) * A, spmv_status st) {
    if (st == SPMV_ERR_LIMIT) return 1;
    return st == SPMV_ERR_ARG && (spmv_format_flags(f) & SPMV_FF_SYMMETRIC) && N(csr_is_symmetric)(A) != 1;
}

/* every kernel of every format the tag has: format (and csr's gather row sum) x ISA x threads x
 * (alpha, beta), and an infinity in x */
static void N(products)(const char *name, const N(csr) * A, int big) {
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    static const float ab[][2] = {{1, 0}, {-0.75f, 2}, {-0.7f, 1.3f}};
    const double bound = ((double)N(longest)(A) + 4) * US;
    float *x = malloc(sizeof(float) * (size_t)(A->ncols + 1)), *y0 = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    float *y = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    int32_t i;
    size_t ii, j;
    int th, f, kv;
    if (!x || !y0 || !y) abort();
    for (i = 0; i < A->ncols; i++) x[i] = (float)(1 + th_rval() * 0.5);
    for (i = 0; i < A->nrows; i++) y0[i] = (float)th_rval();
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !N(any_has)((spmv_format)f)) continue;
        for (kv = 0; kv < (f == SPMV_FMT_CSR ? 2 : 1); kv++)
            for (ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
                spmv_opts o = spmv_opts_default();
                N(any) M;
                spmv_error e;
                spmv_status st;
                if (!spmv_isa_supported(isas[ii])) continue;
                o.format = (spmv_format)f, o.isa = isas[ii], o.params = kv ? "dot=gather" : NULL;
                st = N(any_from_csr)(&M, A, &o, &e);
                if (N(refused)((spmv_format)f, A, st)) continue;
                CHECK(st == SPMV_OK, "%s: %s %s isa %d: %s (%s)", name, TNAME, spmv_format_name((spmv_format)f), (int)isas[ii],
                      spmv_status_str(st), e.msg);
                if (st != SPMV_OK) continue;
                for (th = 1; th <= 3; th++) {
                    if (big && th != 2) continue;
                    set_threads(th);
                    for (j = 0; j < sizeof ab / sizeof ab[0]; j++) {
                        double err;
                        memcpy(y, y0, sizeof(float) * (size_t)A->nrows);
                        st = N(any_mv)(&M, ab[j][0], x, ab[j][1], y);
                        err = N(csr_mv_err)(A, ab[j][0], x, ab[j][1], y0, y);
                        CHECK(st == SPMV_OK && err <= bound, "%s: %s %s%s isa %d, %d threads, alpha %g beta %g: error %.3g > %.3g",
                              name, TNAME, spmv_format_name((spmv_format)f), kv ? " (gather)" : "", (int)isas[ii], th,
                              ab[j][0], ab[j][1], err, bound);
                    }
                }
                set_threads(2);
                if (A->ncols > 0) {
                    const float keep = x[A->ncols / 2];
                    double err;
                    x[A->ncols / 2] = INFINITY;
                    st = N(any_mv)(&M, AL, x, 0.0f, y);
                    err = N(csr_mv_err)(A, AL, x, 0.0f, NULL, y);
                    CHECK(st == SPMV_OK && err <= bound, "%s: %s %s isa %d, an infinity in x: error %.3g > %.3g", name, TNAME,
                          spmv_format_name((spmv_format)f), (int)isas[ii], err, bound);
                    x[A->ncols / 2] = keep;
                }
                N(any_free)(&M);
            }
    }
    free(x);
    free(y0);
    free(y);
}

/* against the double matrix the 16-bit one was rounded from, row by row */
static void N(against_double)(const char *name, const spmv_triplets *t, const N(csr) * A) {
    spmv_d_csr D;
    float *x;
    double *xd, *yd;
    float *y;
    int32_t i, k;
    long worst_row = -1;
    double worst = 0;
    const double un = ((double)N(longest)(A) + 4) * US;
    if (spmv_d_csr_from_triplets(&D, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: d csr", name);
        return;
    }
    x = malloc(sizeof(float) * (size_t)(A->ncols + 1)), y = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    xd = malloc(sizeof(double) * (size_t)(A->ncols + 1)), yd = malloc(sizeof(double) * (size_t)(A->nrows + 1));
    if (!x || !y || !xd || !yd) abort();
    for (i = 0; i < A->ncols; i++) x[i] = (float)(1 + th_rval() * 0.5), xd[i] = x[i];
    CHECK(N(csr_mv)(A, 1.0f, x, 0.0f, y) == SPMV_OK, "%s: %s mv", name, TNAME);
    for (i = 0; i < D.nrows; i++) {
        long double s = 0, a = 0, tiny = 0, d;
        for (k = D.row_ptr[i]; k < D.row_ptr[i + 1]; k++) {
            const long double p = (long double)D.val[k] * xd[D.col_idx[k]];
            s += p, a += fabsl(p), tiny += HTINY * fabsl((long double)xd[D.col_idx[k]]);
        }
        if (!isfinite((double)s)) continue; /* the exact paths: test_half's products */
        d = fabsl((long double)y[i] - s) - tiny;
        if (d > (long double)(HU + un) * a && (double)(d / (a > 0 ? a : 1)) > worst)
            worst = (double)(d / (a > 0 ? a : 1)), worst_row = i;
    }
    CHECK(worst_row < 0, "%s: %s against the double matrix: row %ld error %.3g > %.3g", name, TNAME, worst_row, worst, HU + un);
    spmv_d_csr_free(&D);
    free(x), free(y), free(xd), free(yd);
}

/* SpMM both layouts and A^T x */
static void N(ops)(const char *name, const N(csr) * A) {
    enum { K = 3 };
    N(csr) T;
    const int32_t n = A->nrows, m = A->ncols;
    float *X = malloc(sizeof(float) * (size_t)(m * K + 1)), *Y = malloc(sizeof(float) * (size_t)(n * K + 1));
    float *xv = malloc(sizeof(float) * (size_t)(m > n ? m + 1 : n + 1)), *yv = malloc(sizeof(float) * (size_t)(m > n ? m + 1 : n + 1));
    int32_t i;
    int b, lay;
    if (!X || !Y || !xv || !yv) abort();
    for (i = 0; i < m * K; i++) X[i] = (float)(1 + th_rval() * 0.25);
    for (lay = 0; lay < 2; lay++) {
        const spmv_layout L = lay ? SPMV_COL_MAJOR : SPMV_ROW_MAJOR;
        const int64_t ldx = lay ? (m > 0 ? m : 1) : K, ldy = lay ? (n > 0 ? n : 1) : K;
        spmv_status st;
        memset(Y, 0, sizeof(float) * (size_t)(n * K + 1));
        st = N(csr_mm)(A, K, AL, X, ldx, 0.0f, Y, ldy, L);
        CHECK(st == SPMV_OK, "%s: %s csr_mm layout %d: %s", name, TNAME, lay, spmv_status_str(st));
        for (b = 0; b < K && st == SPMV_OK; b++) {
            double e;
            for (i = 0; i < m; i++) xv[i] = lay ? X[(int64_t)b * m + i] : X[(int64_t)i * K + b];
            for (i = 0; i < n; i++) yv[i] = lay ? Y[(int64_t)b * n + i] : Y[(int64_t)i * K + b];
            e = N(csr_mv_err)(A, AL, xv, 0.0f, NULL, yv);
            CHECK(e <= ((double)N(longest)(A) + 4) * US, "%s: %s csr_mm layout %d vector %d: error %.3g", name, TNAME, lay, b, e);
        }
    }
    if (N(csr_transpose)(&T, A) == SPMV_OK) {
        double e;
        for (i = 0; i < n; i++) xv[i] = (float)(1 + th_rval() * 0.25);
        CHECK(N(csr_mvt)(A, AL, xv, 0.0f, yv) == SPMV_OK, "%s: %s csr_mvt", name, TNAME);
        e = N(csr_mv_err)(&T, AL, xv, 0.0f, NULL, yv);
        CHECK(e <= ((double)N(longest)(&T) + 4) * US, "%s: %s csr_mvt: error %.3g", name, TNAME, e);
        N(csr_free)(&T);
    } else {
        CHECK(0, "%s: %s csr_transpose", name, TNAME);
    }
    free(X), free(Y), free(xv), free(yv);
}

/* the handle over every host format (new values, k vectors), the refusal of the others, the
 * selection */
static void N(handle)(const char *name, const N(csr) * A) {
    const double bound = ((double)N(longest)(A) + 4) * US;
    float *x = malloc(sizeof(float) * (size_t)(A->ncols + 1)), *y = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    int f, has = 0;
    if (!x || !y) abort();
    for (f = 0; f < A->ncols; f++) x[f] = (float)(1 + th_rval() * 0.5);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        N(any) M;
        spmv_error e;
        spmv_status st;
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        o.format = (spmv_format)f;
        st = N(any_from_csr)(&M, A, &o, &e);
        if (!N(any_has)((spmv_format)f)) {
            CHECK(st == SPMV_ERR_UNSUPPORTED && strstr(e.msg, "not instantiated") && th_all_zero(&M, sizeof M),
                  "%s: %s any %s: refused (%s: %s)", name, TNAME, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
            continue;
        }
        has++;
        if (N(refused)((spmv_format)f, A, st)) continue;
        CHECK(st == SPMV_OK, "%s: %s any %s: %s (%s)", name, TNAME, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        {
            enum { K = 3 };
            const int32_t n = A->nrows, m = A->ncols;
            float *X = malloc(sizeof(float) * (size_t)(m * K + 1)), *Y = malloc(sizeof(float) * (size_t)(n * K + 1));
            float *xv = malloc(sizeof(float) * (size_t)(m + 1)), *yv = malloc(sizeof(float) * (size_t)(n + 1));
            int lay, b, q;
            if (!X || !Y || !xv || !yv) abort();
            for (q = 0; q < m * K; q++) X[q] = (float)(1 + th_rval() * 0.25);
            for (lay = 0; lay < 2; lay++) {
                const int64_t ldx = lay ? (m > 0 ? m : 1) : K, ldy = lay ? (n > 0 ? n : 1) : K;
                const spmv_status sm = N(any_mm)(&M, K, AL, X, ldx, 0.0f, Y, ldy, lay ? SPMV_COL_MAJOR : SPMV_ROW_MAJOR);
                double worst = 0;
                for (b = 0; b < K && sm == SPMV_OK; b++) {
                    double err;
                    for (q = 0; q < m; q++) xv[q] = lay ? X[(int64_t)b * m + q] : X[(int64_t)q * K + b];
                    for (q = 0; q < n; q++) yv[q] = lay ? Y[(int64_t)b * n + q] : Y[(int64_t)q * K + b];
                    err = N(csr_mv_err)(A, AL, xv, 0.0f, NULL, yv);
                    worst = err > worst || err != err ? err : worst;
                }
                CHECK(sm == SPMV_OK && worst <= bound, "%s: %s any %s mm layout %d: %s, error %.3g", name, TNAME,
                      spmv_format_name((spmv_format)f), lay, spmv_status_str(sm), worst);
            }
            free(X), free(Y), free(xv), free(yv);
        }
        st = N(any_update_values)(&M, A);
        CHECK(st == SPMV_OK, "%s: %s any %s update_values: %s", name, TNAME, spmv_format_name((spmv_format)f), spmv_status_str(st));
        if (st == SPMV_OK) {
            st = N(any_mv)(&M, 1.0f, x, 0.0f, y);
            CHECK(st == SPMV_OK && N(csr_mv_err)(A, 1.0f, x, 0.0f, NULL, y) <= bound, "%s: %s any %s mv after new values", name,
                  TNAME, spmv_format_name((spmv_format)f));
        }
        N(any_free)(&M);
    }
    CHECK(has >= 3 && N(any_has)(SPMV_FMT_CSR) && N(any_has)(SPMV_FMT_AXC), "%s instantiates csr and axt (%d host formats)",
          TNAME, has);
    {
        spmv_opts o = spmv_opts_default();
        N(auto) Q;
        spmv_error e;
        spmv_status st = N(auto_from_csr)(&Q, A, &o, &e);
        CHECK(st == SPMV_OK && N(any_has)(N(auto_format)(&Q)), "%s: %s auto: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) {
            st = N(auto_mv)(&Q, 1.0f, x, 0.0f, y);
            CHECK(st == SPMV_OK && N(csr_mv_err)(A, 1.0f, x, 0.0f, NULL, y) <= bound, "%s: %s auto (%s) mv", name, TNAME,
                  spmv_format_name(N(auto_format)(&Q)));
            N(auto_free)(&Q);
        }
    }
    free(x), free(y);
}

/* csrdu's row sums are csr's: the same bits */
static void N(csrdu_bits)(const char *name, const N(csr) * A) {
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    float *x = malloc(sizeof(float) * (size_t)(A->ncols + 1)), *y1 = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    float *y2 = malloc(sizeof(float) * (size_t)(A->nrows + 1));
    size_t ii;
    int32_t i;
    if (!x || !y1 || !y2) abort();
    for (i = 0; i < A->ncols; i++) x[i] = (float)(1 + th_rval() * 0.5);
    for (ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
        spmv_opts o = spmv_opts_default();
        N(any) C, U;
        int ok;
        if (!spmv_isa_supported(isas[ii])) continue;
        o.isa = isas[ii];
        ok = N(any_from_csr)(&C, A, &o, NULL) == SPMV_OK;
        o.format = SPMV_FMT_CSRDU;
        ok = N(any_from_csr)(&U, A, &o, NULL) == SPMV_OK && ok;
        for (i = 0; i < A->nrows; i++) y1[i] = y2[i] = (float)i;
        ok = ok && N(any_mv)(&C, AL, x, 1.3f, y1) == SPMV_OK && N(any_mv)(&U, AL, x, 1.3f, y2) == SPMV_OK;
        CHECK(ok && !memcmp(y1, y2, sizeof(float) * (size_t)A->nrows), "%s: %s csrdu isa %d: csr's bits", name, TNAME, (int)isas[ii]);
        N(any_free)(&C);
        N(any_free)(&U);
    }
    free(x), free(y1), free(y2);
}

/* a matrix beyond the type's range is refused (SPMV_ERR_OVERFLOW) exactly when one of its summed
 * entries is; then the tests run on it scaled by a power of two (exact) into the range */
static void N(one)(const char *name, const spmv_triplets *t, void *ctx) {
    N(csr) A;
    spmv_error e;
    spmv_status st = N(csr_from_triplets)(&A, t, NULL, &e);
    spmv_triplets sc;
    (void)ctx;
    if (st == SPMV_ERR_OVERFLOW) {
        spmv_d_csr D;
        double m = 0;
        int32_t k;
        int big = 0;
        if (spmv_d_csr_from_triplets(&D, t, NULL, NULL) == SPMV_OK) {
            for (k = 0; k < D.nnz; k++) big |= isfinite(D.val[k]) && fabs(D.val[k]) > HMAX;
            spmv_d_csr_free(&D);
        }
        CHECK(big && strstr(e.msg, "range"), "%s: %s refused as beyond the range (%s) only when it is", name, TNAME, e.msg);
        m = max_abs(t);
        if (spmv_triplets_alloc(&sc, t->nrows, t->ncols, t->nnz) != SPMV_OK) abort();
        for (k = 0; k < t->nnz; k++)
            sc.row[k] = t->row[k], sc.col[k] = t->col[k], sc.val[k] = ldexp(t->val[k], -(int)ceil(log2(m / 1024)));
        N(one)(name, &sc, ctx);
        spmv_triplets_free(&sc);
        return;
    }
    CHECK(st == SPMV_OK, "%s: %s csr_from_triplets: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
    if (st != SPMV_OK) return;
    N(products)(name, &A, t->nnz > 60000);
    N(against_double)(name, t, &A);
    if (t->nnz <= 60000) N(ops)(name, &A);
    if (t->nnz <= 20000) N(handle)(name, &A);
    if (N(any_has)(SPMV_FMT_CSRDU)) N(csrdu_bits)(name, &A);
    N(csr_free)(&A);
}

/* the conversion's cases through a CSR: to nearest, the range, Inf and NaN kept, -0 in x */
static void N(conversion_cases)(void) {
    spmv_triplets t;
    N(csr) A;
    spmv_error e;
    spmv_status st;
    float x[3] = {1, 1, 1}, y[3];
    if (spmv_triplets_alloc(&t, 3, 3, 3) != SPMV_OK) abort();
    t.row[0] = 0, t.col[0] = 0, t.val[0] = 1 + HU;     /* halfway: to even, 1 */
    t.row[1] = 1, t.col[1] = 1, t.val[1] = 1 + 1.5 * HU; /* above halfway: 1 + 2u */
    t.row[2] = 2, t.col[2] = 2, t.val[2] = 1e-300;      /* below the range: 0 */
    st = N(csr_from_triplets)(&A, &t, NULL, NULL);
    CHECK(st == SPMV_OK && SPMV_CAT3(spmv_, HT, _csr_mv)(&A, 1.0f, x, 0.0f, y) == SPMV_OK && y[0] == 1.0f &&
              y[1] == (float)(1 + 2 * HU) && y[2] == 0.0f,
          "%s: rounding to nearest, ties to even (%s: %g %g %g)", TNAME, spmv_status_str(st), y[0], y[1], y[2]);
    if (st == SPMV_OK) N(csr_free)(&A);
    t.val[2] = HMAX * 1.003; /* beyond the midpoint to the next power of two */
    st = N(csr_from_triplets)(&A, &t, NULL, &e);
    CHECK(st == SPMV_ERR_OVERFLOW && strstr(e.msg, "range") && th_all_zero(&A, sizeof A),
          "%s: a finite value beyond the range is refused: %s (%s)", TNAME, spmv_status_str(st), e.msg);
    t.val[2] = HMAX;
    st = N(csr_from_triplets)(&A, &t, NULL, &e);
    CHECK(st == SPMV_OK, "%s: the largest finite value is kept (%s)", TNAME, spmv_status_str(st));
    if (st == SPMV_OK) N(csr_free)(&A);
    t.val[0] = 0.5, t.val[1] = INFINITY, t.val[2] = NAN;
    st = N(csr_from_triplets)(&A, &t, NULL, NULL);
    CHECK(st == SPMV_OK, "%s: infinity and NaN values are kept (%s)", TNAME, spmv_status_str(st));
    if (st == SPMV_OK) {
        CHECK(N(csr_mv)(&A, 1.0f, x, 0.0f, y) == SPMV_OK && y[0] == 0.5f && isinf(y[1]) && isnan(y[2]), "%s: their products: %g %g %g",
              TNAME, y[0], y[1], y[2]);
        x[0] = -0.0f;
        CHECK(N(csr_mv)(&A, 1.0f, x, 0.0f, y) == SPMV_OK && y[0] == 0.0f, "%s: x = -0.0", TNAME);
        N(csr_free)(&A);
    }
    t.row[1] = 0, t.col[1] = 0, t.val[0] = 1, t.val[1] = HU / 2, t.val[2] = 1; /* repeated: summed, then rounded */
    st = N(csr_from_triplets)(&A, &t, NULL, NULL);
    CHECK(st == SPMV_OK && A.nnz == 2 && SPMV_TV_OF(HT, A.val[0]) == 1.0f, "%s: repeated entries summed before rounding (%s)",
          TNAME, spmv_status_str(st));
    if (st == SPMV_OK) N(csr_free)(&A);
    spmv_triplets_free(&t);
}

/* every 16-bit pattern through each ISA's vector load equals the software conversion */
static void N(loads)(void) {
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    spmv_triplets t;
    N(csr) A;
    float *x, *y;
    int64_t k;
    size_t ii;
    long bad = 0;
    const int64_t n = 65536;
    if (spmv_triplets_alloc(&t, n, 1, n) != SPMV_OK) abort();
    for (k = 0; k < n; k++) t.row[k] = k, t.col[k] = 0, t.val[k] = 0;
    if (N(csr_from_triplets)(&A, &t, NULL, NULL) != SPMV_OK) abort();
    for (k = 0; k < n; k++) memcpy(&A.val[k], &(uint16_t){(uint16_t)k}, 2);
    x = malloc(sizeof(float) * 2), y = malloc(sizeof(float) * (size_t)n);
    if (!x || !y) abort();
    x[0] = 1.0f;
    for (ii = 0; ii < sizeof isas / sizeof isas[0]; ii++) {
        spmv_opts o = spmv_opts_default();
        N(any) M;
        int f;
        if (!spmv_isa_supported(isas[ii])) continue;
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {
            if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !N(any_has)((spmv_format)f)) continue;
            o.isa = isas[ii], o.format = (spmv_format)f;
            if (N(any_from_csr)(&M, &A, &o, NULL) != SPMV_OK) continue;
            if (N(any_mv)(&M, 1.0f, x, 0.0f, y) != SPMV_OK) bad++;
            for (k = 0; k < n; k++) {
                const float w = SPMV_TV_OF(HT, A.val[k]);
                if (isnan(w) ? !isnan(y[k]) : memcmp(&w, &y[k], 4) != 0 && !(w == 0 && y[k] == 0)) bad++;
            }
            N(any_free)(&M);
        }
    }
    CHECK(bad == 0, "%s: every 16-bit pattern as a value times 1, every format and ISA: %ld wrong", TNAME, bad);
    N(csr_free)(&A);
    spmv_triplets_free(&t);
    free(x), free(y);
}

static void N(run)(void) {
    static const char *specs[] = {"random:rows=300,cols=300,nnzr=6,seed=7", "stencil3d:n=12,pts=27", "band:n=500,bw=40",
                                  "random:rows=200,cols=90,nnzr=4,seed=2", "random:rows=90,cols=2000,nnzr=90,seed=3",
                                  "random:rows=0,cols=5,nnzr=1,seed=1", "random:rows=40,cols=40,nnzr=0,seed=1"};
    static const int64_t len[12] = {0, 1, 300, 0, 7, 64, 2, 0, 33, 1, 0, 15};
    spmv_triplets t;
    size_t i;
    N(conversion_cases)();
    N(loads)();
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_error e;
        if (spmv_gen(specs[i], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[i], e.msg);
            continue;
        }
        N(one)(specs[i], &t, NULL);
        spmv_triplets_free(&t);
    }
    th_make_rows(&t, 12, 400, len);
    N(one)("rows 0..300", &t, NULL);
    spmv_triplets_free(&t);
    th_real_matrices(N(one), NULL, 80000);
}
#undef N
#undef TNAME
#endif /* HALF_BODY */
