/* Complex values and vectors: tags z (double complex, spmv_cdouble) and c (float complex,
 * spmv_cfloat), formats/core/cplx.h and formats/instance.h. For each tag: every format it
 * instantiates (spmv_<tag>_any_has), every ISA (the portable kernels at every width; AVX2 and
 * AVX-512: the portable complex set compiled for them, csr's row sum in the complex lanes of
 * formats/simd/simd_complex.h; build.ninja's emulated build: csr and sss alone), threads 1-3,
 * complex alpha and beta, A^T x, A^H x (csr_mvh, handles built with opts.transpose = 2 and the
 * selection with it), SpMM in both layouts, the handle with new values and the selection, on
 * generated matrices with complex values and the collection's complex matrices (read with
 * SPMV_MM_COMPLEX; hermitian ones mirrored with the conjugate). The bound, against a long double
 * complex reference with the stored values: |y - ref| <= (n + 8) u scale (n the longest row, scale
 * = |alpha| sum |a_ij||x_j| + |beta y|; a complex product's own error is below sqrt(5) u |a||x|);
 * c against the double values also u_s scale more. Also the reader and writer of complex files. */
#ifndef CPLX_BODY
#define SPMV_ENABLE_Z
#ifndef TC_ONLY_Z
#define SPMV_ENABLE_C
#endif
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <float.h>
#include <math.h>
#include <unistd.h>

#define CN(tag, x) SPMV_CAT3(spmv_, tag, _##x)

/* complex values for generated triplets: the real parts kept, imaginary parts drawn */
static void add_imag(spmv_triplets *t) {
    int64_t k;
    t->vim = SPMV_ALLOC_N(double, t->nnz > 0 ? t->nnz : 1);
    if (!t->vim) abort();
    for (k = 0; k < t->nnz; k++) t->vim[k] = th_rval();
}

#define CT z
#define CV spmv_cdouble
#define CR double
#define CU (DBL_EPSILON / 2)
#define CMAKE spmv_cdouble_make
#define CPLX_BODY 1
#include "test_complex.c"
#undef CPLX_BODY
#undef CT
#undef CV
#undef CR
#undef CU
#undef CMAKE
#ifndef TC_ONLY_Z /* the sanitizer build: tag z alone (the compile time of one tag) */
#define CT c
#define CV spmv_cfloat
#define CR float
#define CU (FLT_EPSILON / 2)
#define CMAKE spmv_cfloat_make
#define CPLX_BODY 1
#include "test_complex.c"
#undef CPLX_BODY
#undef CT
#undef CV
#undef CR
#undef CU
#undef CMAKE
#endif

/* the reader: complex general, symmetric, skew-symmetric, hermitian (the mirror conjugated);
 * refused without SPMV_MM_COMPLEX; the writer's complex file reads back exactly */
static void reader_cases(void) {
    static const char *f[] = {"%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 1 1.5 -2\n2 1 0 3e-1\n",
                              "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 4 0\n2 1 1 2\n",
                              "%%MatrixMarket matrix coordinate complex symmetric\n2 2 2\n1 1 4 1\n2 1 1 2\n",
                              "%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n2 1 1 2\n",
                              "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1.5\n",
                              "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 1 1\n"};
    static const int64_t want_nnz[] = {2, 3, 3, 2, -1, -1};
    static const double want[][4][2] = {{{1.5, -2}, {0, 0.3}},
                                        {{4, 0}, {1, 2}, {1, -2}},
                                        {{4, 1}, {1, 2}, {1, 2}},
                                        {{1, 2}, {-1, -2}}};
    char path[] = "/tmp/spmv_test_complex_XXXXXX";
    size_t i;
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temporary file");
    if (fd < 0) return;
    close(fd);
    for (i = 0; i < sizeof f / sizeof f[0]; i++) {
        FILE *fp = fopen(path, "w");
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        int64_t k;
        int ok = 1;
        if (!fp) abort();
        fputs(f[i], fp);
        fclose(fp);
        st = spmv_mm_read(path, &t, &e);
        CHECK(i >= 4 ? st == SPMV_ERR_PARSE || st == SPMV_ERR_UNSUPPORTED : st == SPMV_ERR_UNSUPPORTED && strstr(e.msg, "SPMV_MM_COMPLEX"),
              "complex file %zu without the flag: %s (%s)", i, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) spmv_triplets_free(&t);
        st = spmv_mm_read_opts(path, &t, SPMV_MM_COMPLEX, NULL, &e);
        if (want_nnz[i] < 0) {
            CHECK(st == (i == 4 ? SPMV_ERR_PARSE : SPMV_ERR_UNSUPPORTED), "bad complex file %zu refused: %s (%s)", i,
                  spmv_status_str(st), e.msg);
            if (st == SPMV_OK) spmv_triplets_free(&t);
            continue;
        }
        ok = st == SPMV_OK && t.nnz == want_nnz[i] && t.vim;
        for (k = 0; ok && k < t.nnz; k++) ok = t.val[k] == want[i][k][0] && t.vim[k] == want[i][k][1];
        CHECK(ok, "complex file %zu: %s (%s), %lld entries", i, spmv_status_str(st), e.msg, (long long)(st == SPMV_OK ? t.nnz : -1));
        if (st == SPMV_OK && i == 0) { /* written and read back */
            spmv_triplets u;
            ok = spmv_mm_write(path, &t, &e) == SPMV_OK && spmv_mm_read_opts(path, &u, SPMV_MM_COMPLEX, NULL, &e) == SPMV_OK;
            for (k = 0; ok && k < t.nnz; k++) ok = u.val[k] == t.val[k] && u.vim[k] == t.vim[k];
            CHECK(ok && u.nnz == t.nnz, "complex file written and read back (%s)", e.msg);
            if (ok) spmv_triplets_free(&u);
        }
        if (st == SPMV_OK && (i == 1 || i == 2)) { /* hermitian / symmetric kept as one triangle, into sss */
            spmv_triplets u;
            spmv_z_csr F, G;
            spmv_z_sss S;
            spmv_sss_params sp = spmv_sss_params_default();
            int tri = -1;
            sp.herm = i == 1;
            ok = spmv_mm_read_opts(path, &u, SPMV_MM_COMPLEX | SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK && tri == 2 - (i == 2) &&
                 u.nnz == 2 && spmv_z_sss_from_triangle(&S, &u, &sp, &e) == SPMV_OK && S.herm == (i == 1) &&
                 spmv_z_sss_to_csr(&S, &G) == SPMV_OK && spmv_z_csr_from_triplets(&F, &t, NULL, NULL) == SPMV_OK;
            for (k = 0; ok && k < F.nnz; k++) ok = G.col_idx[k] == F.col_idx[k] && G.val[k] == F.val[k];
            CHECK(ok && G.nnz == F.nnz, "complex file %zu as one triangle (%d) into sss: the matrix read expanded (%s)", i, tri,
                  e.msg);
            if (ok) spmv_z_sss_free(&S), spmv_z_csr_free(&F), spmv_z_csr_free(&G), spmv_triplets_free(&u);
        }
        if (st == SPMV_OK) {
            spmv_d_csr D;
            st = spmv_d_csr_from_triplets(&D, &t, NULL, &e);
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "complex"), "a real tag refuses complex triplets: %s (%s)", spmv_status_str(st),
                  e.msg);
            if (st == SPMV_OK) spmv_d_csr_free(&D);
            spmv_triplets_free(&t);
        }
    }
    remove(path);
}

int main(void) {
    set_threads(2);
    reader_cases();
    spmv_z_run();
#ifndef TC_ONLY_Z
    spmv_c_run();
#endif
    return check_finish("test_complex");
}
#else /* CPLX_BODY: the tests of one tag (CT), values CV of real part CR, unit roundoff CU */
#define N(x) CN(CT, x)
#define TNAME SPMV_STR(CT)

static int32_t N(longest)(const N(csr) * A) {
    int32_t r, m = 0;
    for (r = 0; r < A->nrows; r++) m = A->row_ptr[r + 1] - A->row_ptr[r] > m ? A->row_ptr[r + 1] - A->row_ptr[r] : m;
    return m;
}
static double N(bound)(const N(csr) * A) { return ((double)N(longest)(A) + 8) * CU; }
static int N(refused)(spmv_format f, const N(csr) * A, spmv_status st) {
    if (st == SPMV_ERR_LIMIT) return 1;
    return st == SPMV_ERR_ARG && (spmv_format_flags(f) & SPMV_FF_SYMMETRIC) && N(csr_is_symmetric)(A) != 1;
}
static CV N(rnd)(double s) { return CMAKE((CR)(s * (1 + th_rval() * 0.5)), (CR)(s * th_rval())); }

/* every format x ISA (the portable one at every width) x threads x (alpha, beta), an infinity in x */
static void N(products)(const char *name, const N(csr) * A, int big) {
    static const int widths[] = {4, 8, 16, 32};
    static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
    const CV ab[][2] = {{CMAKE(1, 0), CMAKE(0, 0)}, {CMAKE(-0.75f, 0.5f), CMAKE(2, -1)}, {CMAKE(0.3f, -1.1f), CMAKE(0, 1)}};
    const double bound = N(bound)(A);
    CV *x = (CV *)malloc(sizeof(CV) * (size_t)(A->ncols + 1)), *y0 = (CV *)malloc(sizeof(CV) * (size_t)(A->nrows + 1));
    CV *y = (CV *)malloc(sizeof(CV) * (size_t)(A->nrows + 1));
    int32_t i;
    size_t ii, j;
    int th, f;
    if (!x || !y0 || !y) abort();
    for (i = 0; i < A->ncols; i++) x[i] = N(rnd)(1);
    for (i = 0; i < A->nrows; i++) y0[i] = N(rnd)(1);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        N(any) M;
        spmv_error e;
        spmv_status st;
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || !N(any_has)((spmv_format)f)) continue;
        o.format = (spmv_format)f;
        for (ii = 0; ii < sizeof widths / sizeof widths[0] + 2; ii++) {
            char prm[32];
            const size_t nw = sizeof widths / sizeof widths[0];
            o.isa = isas[ii < nw ? 0 : ii - nw + 1];
            if (!spmv_isa_supported(o.isa)) continue;
            snprintf(prm, sizeof prm, "w=%d", ii < nw ? widths[ii] : 0);
            o.params = ii < nw && (spmv_format_flags((spmv_format)f) & SPMV_FF_WIDTH) ? prm : NULL;
            if (!o.params && ii > 0 && ii < nw) continue;
            st = N(any_from_csr)(&M, A, &o, &e);
            if (N(refused)((spmv_format)f, A, st)) break;
            CHECK(st == SPMV_OK && N(any_isa)(&M) == o.isa, "%s: %s %s isa %d %s: %s (%s)", name, TNAME,
                  spmv_format_name((spmv_format)f), (int)o.isa, o.params ? o.params : "", spmv_status_str(st), e.msg);
            if (st != SPMV_OK) continue;
            for (th = 1; th <= 3; th++) {
                if (big && th != 2) continue;
                set_threads(th);
                for (j = 0; j < sizeof ab / sizeof ab[0]; j++) {
                    double err;
                    memcpy(y, y0, sizeof(CV) * (size_t)A->nrows);
                    st = N(any_mv)(&M, ab[j][0], x, ab[j][1], y);
                    err = N(csr_mv_err)(A, ab[j][0], x, ab[j][1], y0, y);
                    CHECK(st == SPMV_OK && err <= bound, "%s: %s %s/%s %s, %d threads, pair %zu: error %.3g > %.3g", name, TNAME,
                          spmv_format_name((spmv_format)f), spmv_isa_name(o.isa), o.params ? o.params : "", th, j, err, bound);
                }
            }
            set_threads(2);
            if (A->ncols > 0) {
                const CV keep = x[A->ncols / 2];
                double err;
                x[A->ncols / 2] = CMAKE((CR)INFINITY, 0);
                st = N(any_mv)(&M, ab[1][0], x, CMAKE(0, 0), y);
                err = N(csr_mv_err)(A, ab[1][0], x, CMAKE(0, 0), NULL, y);
                CHECK(st == SPMV_OK && err <= bound, "%s: %s %s, an infinity in x: error %.3g > %.3g", name, TNAME,
                      spmv_format_name((spmv_format)f), err, bound);
                x[A->ncols / 2] = keep;
            }
            N(any_free)(&M);
        }
    }
    free(x), free(y0), free(y);
}

/* handles built with opts.transpose = 2 (from A^H: csr, which takes A^H's arrays, coo, sell, and
 * the selection) against the reference of H = A^H; xv holds A's nrows values */
static void N(adjoint_handles)(const char *name, const N(csr) * A, const N(csr) * H, const CV *xv, CV *yv) {
    static const spmv_format hf[] = {SPMV_FMT_CSR, SPMV_FMT_COO, SPMV_FMT_SELL};
    const CV al = CMAKE(0.25f, -1.5f);
    spmv_opts o = spmv_opts_default();
    spmv_error e;
    spmv_status st;
    size_t j;
    N(auto) Q;
    o.transpose = 2;
    for (j = 0; j < sizeof hf / sizeof hf[0]; j++) {
        N(any) M;
        if (!N(any_has)(hf[j])) continue; /* a build with a subset of the families */
        o.format = hf[j];
        st = N(any_from_csr)(&M, A, &o, &e);
        if (N(refused)(hf[j], A, st)) continue;
        CHECK(st == SPMV_OK && M.transposed == 2 && N(any_mv)(&M, al, xv, CMAKE(0, 0), yv) == SPMV_OK &&
                  N(csr_mv_err)(H, al, xv, CMAKE(0, 0), NULL, yv) <= N(bound)(H),
              "%s: %s any %s with transpose = 2 (A^H x): %s (%s)", name, TNAME, spmv_format_name(hf[j]), spmv_status_str(st),
              e.msg);
        if (st == SPMV_OK) N(any_free)(&M);
    }
    o.format = SPMV_FMT_CSR;
    st = N(auto_from_csr)(&Q, A, &o, &e);
    CHECK(st == SPMV_OK && N(auto_mv)(&Q, al, xv, CMAKE(0, 0), yv) == SPMV_OK &&
              N(csr_mv_err)(H, al, xv, CMAKE(0, 0), NULL, yv) <= N(bound)(H),
          "%s: %s auto with transpose = 2 (A^H x): %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) N(auto_free)(&Q);
}

/* A^T x, A^H x (csr_mvh, and csr on csr_adjoint), SpMM both layouts, against the reference */
static void N(ops)(const char *name, const N(csr) * A) {
    enum { K = 3 };
    N(csr) T, H;
    const int32_t n = A->nrows, m = A->ncols;
    const CV al = CMAKE(-0.5f, 0.75f);
    CV *X = (CV *)malloc(sizeof(CV) * (size_t)(m * K + 1)), *Y = (CV *)malloc(sizeof(CV) * (size_t)(n * K + 1));
    CV *xv = (CV *)malloc(sizeof(CV) * (size_t)(m > n ? m + 1 : n + 1)), *yv = (CV *)malloc(sizeof(CV) * (size_t)(m > n ? m + 1 : n + 1));
    int32_t i;
    int b, lay, ok;
    if (!X || !Y || !xv || !yv) abort();
    for (i = 0; i < m * K; i++) X[i] = N(rnd)(1);
    for (lay = 0; lay < 2; lay++) {
        const int64_t ldx = lay ? (m > 0 ? m : 1) : K, ldy = lay ? (n > 0 ? n : 1) : K;
        const spmv_status st = N(csr_mm)(A, K, al, X, ldx, CMAKE(0, 0), Y, ldy, lay ? SPMV_COL_MAJOR : SPMV_ROW_MAJOR);
        double worst = 0;
        for (b = 0; b < K && st == SPMV_OK; b++) {
            double e;
            for (i = 0; i < m; i++) xv[i] = lay ? X[(int64_t)b * m + i] : X[(int64_t)i * K + b];
            for (i = 0; i < n; i++) yv[i] = lay ? Y[(int64_t)b * n + i] : Y[(int64_t)i * K + b];
            e = N(csr_mv_err)(A, al, xv, CMAKE(0, 0), NULL, yv);
            worst = e > worst || e != e ? e : worst;
        }
        CHECK(st == SPMV_OK && worst <= N(bound)(A), "%s: %s csr_mm layout %d: error %.3g", name, TNAME, lay, worst);
    }
    ok = N(csr_transpose)(&T, A) == SPMV_OK;
    ok = N(csr_adjoint)(&H, A) == SPMV_OK && ok;
    CHECK(ok, "%s: %s transpose and adjoint", name, TNAME);
    if (ok) {
        int32_t k;
        int conj = 1;
        for (k = 0; k < T.nnz; k++) conj &= T.col_idx[k] == H.col_idx[k] && __builtin_creal(H.val[k]) == __builtin_creal(T.val[k]) &&
                                      __builtin_cimag(H.val[k]) == -__builtin_cimag(T.val[k]);
        CHECK(conj, "%s: %s csr_adjoint is the transpose conjugated", name, TNAME);
        for (i = 0; i < n; i++) xv[i] = N(rnd)(1);
        CHECK(N(csr_mvt)(A, al, xv, CMAKE(0, 0), yv) == SPMV_OK && N(csr_mv_err)(&T, al, xv, CMAKE(0, 0), NULL, yv) <= N(bound)(&T),
              "%s: %s csr_mvt", name, TNAME);
        CHECK(N(csr_mvh)(A, al, xv, CMAKE(0, 0), yv) == SPMV_OK && N(csr_mv_err)(&H, al, xv, CMAKE(0, 0), NULL, yv) <= N(bound)(&H),
              "%s: %s csr_mvh (A^H x)", name, TNAME);
        N(adjoint_handles)(name, A, &H, xv, yv);
        N(csr_free)(&T);
        N(csr_free)(&H);
    }
    free(X), free(Y), free(xv), free(yv);
}

/* the handle's new values on every format, the others refused, the selection */
static void N(handle)(const char *name, const N(csr) * A) {
    const double bound = N(bound)(A);
    CV *x = (CV *)malloc(sizeof(CV) * (size_t)(A->ncols + 1)), *y = (CV *)malloc(sizeof(CV) * (size_t)(A->nrows + 1));
    int f, has = 0;
    if (!x || !y) abort();
    for (f = 0; f < A->ncols; f++) x[f] = N(rnd)(1);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_opts o = spmv_opts_default();
        N(any) M;
        spmv_error e;
        spmv_status st;
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        o.format = (spmv_format)f;
        st = N(any_from_csr)(&M, A, &o, &e);
        if (!spmv_format_compiled((spmv_format)f)) { /* SPMV_FORMATS_ONLY: not in this unit at all */
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "not compiled in"), "%s: %s any %s: not compiled in (%s)", name, TNAME,
                  spmv_format_name((spmv_format)f), spmv_status_str(st));
            continue;
        }
        if (!N(any_has)((spmv_format)f)) {
            CHECK(st == SPMV_ERR_UNSUPPORTED && th_all_zero(&M, sizeof M), "%s: %s any %s refused (%s)", name, TNAME,
                  spmv_format_name((spmv_format)f), spmv_status_str(st));
            continue;
        }
        has++;
        if (N(refused)((spmv_format)f, A, st)) continue;
        CHECK(st == SPMV_OK, "%s: %s any %s: %s (%s)", name, TNAME, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        st = N(any_update_values)(&M, A);
        CHECK(st == SPMV_OK && N(any_mv)(&M, CMAKE(1, 0), x, CMAKE(0, 0), y) == SPMV_OK &&
                  N(csr_mv_err)(A, CMAKE(1, 0), x, CMAKE(0, 0), NULL, y) <= bound,
              "%s: %s any %s after new values (%s)", name, TNAME, spmv_format_name((spmv_format)f), spmv_status_str(st));
        N(any_free)(&M);
    }
    CHECK(has >= 3 && N(any_has)(SPMV_FMT_CSR), "%s instantiates csr (%d host formats)", TNAME, has);
    {
        spmv_opts o = spmv_opts_default();
        N(auto) Q;
        spmv_error e;
        spmv_status st = N(auto_from_csr)(&Q, A, &o, &e);
        CHECK(st == SPMV_OK && N(any_has)(N(auto_format)(&Q)), "%s: %s auto: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) {
            st = N(auto_mv)(&Q, CMAKE(1, 0), x, CMAKE(0, 0), y);
            CHECK(st == SPMV_OK && N(csr_mv_err)(A, CMAKE(1, 0), x, CMAKE(0, 0), NULL, y) <= bound, "%s: %s auto (%s) mv", name, TNAME,
                  spmv_format_name(N(auto_format)(&Q)));
            N(auto_free)(&Q);
        }
    }
    free(x), free(y);
}

/* c against the double complex values it was rounded from */
static void N(against_input)(const char *name, const spmv_triplets *t, const N(csr) * A) {
    spmv_z_csr Z;
    spmv_cdouble *xz, *yz;
    CV *x, *y;
    int32_t i;
    double worst = 0;
    if (spmv_z_csr_from_triplets(&Z, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: z csr", name);
        return;
    }
    x = (CV *)malloc(sizeof(CV) * (size_t)(A->ncols + 1)), y = (CV *)malloc(sizeof(CV) * (size_t)(A->nrows + 1));
    xz = (spmv_cdouble *)malloc(sizeof(spmv_cdouble) * (size_t)(A->ncols + 1)), yz = (spmv_cdouble *)malloc(sizeof(spmv_cdouble) * (size_t)(A->nrows + 1));
    if (!x || !y || !xz || !yz) abort();
    for (i = 0; i < A->ncols; i++) x[i] = N(rnd)(1), xz[i] = (spmv_cdouble)x[i];
    CHECK(N(csr_mv)(A, CMAKE(1, 0), x, CMAKE(0, 0), y) == SPMV_OK, "%s: %s mv", name, TNAME);
    for (i = 0; i < A->nrows; i++) yz[i] = (spmv_cdouble)y[i];
    {
        long double _Complex *ref = (long double _Complex *)malloc(sizeof(long double _Complex) * (size_t)(A->nrows + 1));
        long double *sc = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
        if (!ref || !sc) abort();
        spmv_z_csr_mv_ref(&Z, spmv_cdouble_make(1, 0), xz, spmv_cdouble_make(0, 0), NULL, ref, sc);
        worst = spmv_z_max_rel_err(Z.nrows, yz, ref, sc);
        free(ref), free(sc);
    }
    CHECK(worst <= (double)FLT_EPSILON + N(bound)(A), "%s: %s against the double complex values: error %.3g", name, TNAME, worst);
    spmv_z_csr_free(&Z);
    free(x), free(y), free(xz), free(yz);
}

static void N(one)(const char *name, const spmv_triplets *t, void *ctx) {
    N(csr) A;
    spmv_error e;
    const spmv_status st = N(csr_from_triplets)(&A, t, NULL, &e);
    (void)ctx;
    CHECK(st == SPMV_OK, "%s: %s csr_from_triplets: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
    if (st != SPMV_OK) return;
    N(products)(name, &A, t->nnz > 30000);
    if (t->nnz <= 60000) N(ops)(name, &A);
    if (t->nnz <= 20000) N(handle)(name, &A);
    if (sizeof(CR) == 4) N(against_input)(name, t, &A);
    N(csr_free)(&A);
}

/* t + t^H (square t): every entry and its mirror conjugated, the diagonal's imaginary parts
 * cancelling: a hermitian matrix, which sss stores as one triangle with conjugated mirrors */
static void N(hermitian)(const char *name, const spmv_triplets *t) {
    spmv_triplets u;
    int64_t k;
    if (spmv_triplets_alloc(&u, t->nrows, t->ncols, 2 * t->nnz) != SPMV_OK || !(u.vim = SPMV_ALLOC_N(double, 2 * t->nnz + 1)))
        abort();
    for (k = 0; k < t->nnz; k++) {
        u.row[k] = t->row[k], u.col[k] = t->col[k], u.val[k] = t->val[k], u.vim[k] = t->vim[k];
        u.row[t->nnz + k] = t->col[k], u.col[t->nnz + k] = t->row[k];
        u.val[t->nnz + k] = t->val[k], u.vim[t->nnz + k] = -t->vim[k];
    }
    N(one)(name, &u, NULL);
    { /* sss takes it (hermitian), products against the full CSR's reference */
        N(csr) A;
        N(sss) S;
        CV *x = (CV *)malloc(sizeof(CV) * (size_t)(u.ncols + 1)), *y = (CV *)malloc(sizeof(CV) * (size_t)(u.nrows + 1));
        if (!x || !y || N(csr_from_triplets)(&A, &u, NULL, NULL) != SPMV_OK) abort();
        for (k = 0; k < u.ncols; k++) x[k] = N(rnd)(1);
        CHECK(N(csr_is_symmetric)(&A) != 1 && N(sss_from_csr)(&S, &A, NULL, NULL) == SPMV_OK && S.herm == 1 &&
                  N(sss_mv)(&S, CMAKE(0.5f, -2), x, CMAKE(0, 0), y) == SPMV_OK &&
                  N(csr_mv_err)(&A, CMAKE(0.5f, -2), x, CMAKE(0, 0), NULL, y) <= N(bound)(&A),
              "%s: %s sss of a hermitian matrix (conjugated mirrors)", name, TNAME);
        if (S.herm == 1) N(sss_free)(&S);
        {
            spmv_auto_features F;
            memset(&F, 0, sizeof F);
            CHECK(N(auto_features)(&A, &F) == SPMV_OK && F.symmetric == 1,
                  "%s: %s the selection's features take a hermitian matrix as one sss stores", name, TNAME);
        }
        int32_t r, d = -1;
        for (r = 0; r < A.nrows && d < 0; r++) /* a diagonal entry given an imaginary part: no longer hermitian */
            for (k = A.row_ptr[r]; k < A.row_ptr[r + 1]; k++)
                if (A.col_idx[k] == r) d = (int32_t)k;
        if (d >= 0) {
            A.val[d] = CMAKE(1, 0.5f);
            CHECK(N(sss_from_csr)(&S, &A, NULL, NULL) == SPMV_ERR_ARG, "%s: %s sss refuses a complex diagonal", name, TNAME);
        } else {
            check_skip("%s: no diagonal entry to make complex", name);
        }
        N(csr_free)(&A);
        free(x), free(y);
    }
    spmv_triplets_free(&u);
}
/* one triangle of a complex symmetric matrix into sss directly (sss_from_triangle): the
 * imaginary parts kept, the mirror the value itself */
static void N(triangle)(void) {
    spmv_triplets t, f;
    N(sss) S;
    N(csr) A;
    spmv_error e;
    int64_t k, n = 0;
    CV *x, *y;
    th_make_random(&t, 60, 60, 400);
    add_imag(&t);
    for (k = 0; k < t.nnz; k++) /* the lower triangle only */
        if (t.row[k] >= t.col[k]) t.row[n] = t.row[k], t.col[n] = t.col[k], t.val[n] = t.val[k], t.vim[n++] = t.vim[k];
    t.nnz = n;
    if (spmv_triplets_alloc(&f, 60, 60, 2 * n) != SPMV_OK || !(f.vim = SPMV_ALLOC_N(double, 2 * n + 1))) abort();
    for (k = 0, f.nnz = 0; k < n; k++) {
        f.row[f.nnz] = t.row[k], f.col[f.nnz] = t.col[k], f.val[f.nnz] = t.val[k], f.vim[f.nnz++] = t.vim[k];
        if (t.row[k] != t.col[k]) f.row[f.nnz] = t.col[k], f.col[f.nnz] = t.row[k], f.val[f.nnz] = t.val[k], f.vim[f.nnz++] = t.vim[k];
    }
    x = (CV *)malloc(sizeof(CV) * 61), y = (CV *)malloc(sizeof(CV) * 61);
    if (!x || !y || N(csr_from_triplets)(&A, &f, NULL, NULL) != SPMV_OK) abort();
    for (k = 0; k < 60; k++) x[k] = N(rnd)(1);
    CHECK(N(sss_from_triangle)(&S, &t, NULL, &e) == SPMV_OK && N(sss_mv)(&S, CMAKE(1, 0), x, CMAKE(0, 0), y) == SPMV_OK &&
              N(csr_mv_err)(&A, CMAKE(1, 0), x, CMAKE(0, 0), NULL, y) <= N(bound)(&A),
          "%s sss_from_triangle of a complex symmetric triangle: the imaginary parts kept (%s)", TNAME, e.msg);
    N(sss_free)(&S);
    N(csr_free)(&A);
    spmv_triplets_free(&t);
    spmv_triplets_free(&f);
    free(x), free(y);
}

/* SPMV_ISA_AUTO follows this tag's own calibrated picks ("value <tag>" lines, formats/calib.h),
 * not another tag's */
static void N(calibrated)(void) {
    char dir[] = "/tmp/spmv-test-complex-XXXXXX", p[600], text[400], here[128], prev[600];
    const char *other = !strcmp(TNAME, "z") ? "c" : "z";
    spmv_triplets t;
    N(csr) A;
    N(any) M;
    spmv_opts o = spmv_opts_default();
    spmv_isa wide = SPMV_ISA_GENERIC;
    int k;
    snprintf(prev, sizeof prev, "%s", getenv("SPMV_CALIBRATION") ? getenv("SPMV_CALIBRATION") : "");
    unsetenv("SPMV_ISA");
    (void)spmv_isa_resolve(SPMV_ISA_AUTO, &wide);
    if (wide == SPMV_ISA_GENERIC || !mkdtemp(dir)) {
        printf("skipped: %s's calibrated ISA: one ISA here (or no temporary directory)\n", TNAME);
        return;
    }
    CHECK(spmv_gen("stencil3d:n=6", &t, NULL) == SPMV_OK && N(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "csr");
    spmv_calibration_machine(here, sizeof here);
    o.format = SPMV_FMT_CSR; /* (the emulated build has csr and sss alone) */
    for (k = 0; k < 2; k++) {
        snprintf(text, sizeof text, "%%%%spmv calibration 1\nisas machine %s | threads %d value %s index %d picks csr=generic\n",
                 here, spmv_max_threads(), k ? other : TNAME, (int)sizeof A.col_idx[0]);
        /* a new path each time: the picks' cache compares size and mtime, the same here */
        setenv("SPMV_CALIBRATION", th_put_file(dir, k ? "cal1" : "cal0", text, p, sizeof p), 1);
        if (N(any_from_csr)(&M, &A, &o, NULL) == SPMV_OK) {
            CHECK(N(any_isa)(&M) == (k ? wide : SPMV_ISA_GENERIC), "%s csr under a 'value %s' line: %s (want %s)",
                  TNAME, k ? other : TNAME, spmv_isa_name(N(any_isa)(&M)), spmv_isa_name(k ? wide : SPMV_ISA_GENERIC));
            N(any_free)(&M);
        } else {
            CHECK(0, "%s csr handle", TNAME);
        }
        remove(p);
    }
    if (prev[0]) setenv("SPMV_CALIBRATION", prev, 1);
    else unsetenv("SPMV_CALIBRATION");
    rmdir(dir);
    N(csr_free)(&A);
    spmv_triplets_free(&t);
}
static void N(run)(void) {
    static const char *specs[] = {"random:rows=300,cols=300,nnzr=6,seed=7", "stencil3d:n=10,pts=27", "band:n=400,bw=30",
                                  "random:rows=200,cols=90,nnzr=4,seed=2", "random:rows=90,cols=2000,nnzr=90,seed=3",
                                  "random:rows=0,cols=5,nnzr=1,seed=1", "random:rows=40,cols=40,nnzr=0,seed=1"};
    static const int64_t len[12] = {0, 1, 300, 0, 7, 64, 2, 0, 33, 1, 0, 15};
    spmv_triplets t;
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_error e;
        if (spmv_gen(specs[i], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[i], e.msg);
            continue;
        }
        add_imag(&t);
        N(one)(specs[i], &t, NULL);
        spmv_triplets_free(&t);
    }
    th_make_rows(&t, 12, 400, len);
    add_imag(&t);
    N(one)("rows 0..300", &t, NULL);
    spmv_triplets_free(&t);
    th_make_random(&t, 300, 300, 1800);
    add_imag(&t);
    N(hermitian)("hermitian random 300", &t);
    spmv_triplets_free(&t);
    N(triangle)();
    N(calibrated)();
    CHECK(th_complex_matrices(N(one), NULL, 100000) >= 0, "complex matrices");
}
#undef N
#undef TNAME
#endif /* CPLX_BODY */
