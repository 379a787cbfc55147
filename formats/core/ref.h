/* The reference every test and the bench's error column use: the product in long double
 * (long double complex for a complex tag: SPMV__REFT) and the error measure. Template header (no
 * include guard), instantiated per tag by formats/instance.h after the formats' types.
 * A complex product here is the textbook one, (ar br - ai bi, ar bi + ai br), as the kernels'
 * (formats/simd/simd_generic.h) and BLAS's; the magnitude |z| = hypot(re, im). */
#if SPMV__COMPLEX
#define SPMV__REFT long double _Complex
#define SPMV__REFMUL(a, b) spmv__ref_cmul((a), (b))
#define SPMV__REFABS(z) hypotl(__builtin_creall(z), __builtin_cimagl(z))
#define SPMV__REFFIN(z) (isfinite(__builtin_creall(z)) && isfinite(__builtin_cimagl(z)))
#define SPMV__REFSAME(y, r) spmv__ref_csame((long double _Complex)(y), (r))
#ifndef SPMV__REF_CPLX_HELPERS
#define SPMV__REF_CPLX_HELPERS 1
static inline long double _Complex spmv__ref_cmul(long double _Complex a, long double _Complex b) {
    long double _Complex r;
    __real__ r = __real__ a * __real__ b - __imag__ a * __imag__ b;
    __imag__ r = __real__ a * __imag__ b + __imag__ a * __real__ b;
    return r;
}
/* each part: a non-finite one matched by a non-finite one (NaN or an infinity: C's own complex
 * product, which the scalar steps alpha*s and beta*y use, keeps infinities where the textbook
 * formula gives NaN), a finite part by a finite one */
static inline int spmv__ref_csame1(long double y, long double r) {
    if (isnan(r) || isinf(r)) return isnan(y) || isinf(y);
    return isfinite(y);
}
static inline int spmv__ref_csame(long double _Complex y, long double _Complex r) {
    return spmv__ref_csame1(__builtin_creall(y), __builtin_creall(r)) && spmv__ref_csame1(__builtin_cimagl(y), __builtin_cimagl(r));
}
#endif
#else
#define SPMV__REFT long double
#define SPMV__REFMUL(a, b) ((a) * (b))
#define SPMV__REFABS(x) fabsl(x)
#define SPMV__REFFIN(x) (!isnan(x) && !isinf(x))
#define SPMV__REFSAME(y, r) (isnan(r) ? isnan(y) : (long double)(y) == (r))
#endif
#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(csr_mv_ref)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        const SPMV_Y *y0, SPMV__REFT *ref, long double *scale);
SPMV_API double SPMV_NAME(max_rel_err)(SPMV_I n, const SPMV_Y *y, const SPMV__REFT *ref, const long double *scale);
SPMV_API double SPMV_NAME(csr_mv_err)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        const SPMV_Y *y0, const SPMV_Y *y);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
/* Reference product in long double, for tests and the bench's error column:
 * ref[r] = alpha*sum a_rj x_j + beta*y0[r] and scale[r] = |alpha| sum |a_rj||x_j| + |beta||y0[r]|
 * (y0 not read when beta == 0). */
SPMV_API void SPMV_NAME(csr_mv_ref)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                         const SPMV_Y *y0, SPMV__REFT *ref, long double *scale) {
    SPMV_I r, k;
    for (r = 0; r < A->nrows; r++) {
        SPMV__REFT s = 0;
        long double a = 0;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            SPMV__REFT p = SPMV__REFMUL((SPMV__REFT)SPMV_TV(A->val[k]), (SPMV__REFT)x[A->col_idx[k]]);
            s += p;
            a += SPMV__REFABS(p);
        }
        ref[r] = SPMV__REFMUL((SPMV__REFT)alpha, s);
        scale[r] = SPMV__REFABS((SPMV__REFT)alpha) * a;
        if (beta != (SPMV_Y)0) {
            ref[r] += SPMV__REFMUL((SPMV__REFT)beta, (SPMV__REFT)y0[r]);
            scale[r] += SPMV__REFABS(SPMV__REFMUL((SPMV__REFT)beta, (SPMV__REFT)y0[r]));
        }
    }
}

/* Max over rows of |y - ref| / scale (see csr_mv_ref). A NaN reference must be
 * matched by NaN, an infinite one by the same infinity; otherwise the row counts
 * as error +inf. Rows with scale 0 compare absolutely. */
SPMV_API double SPMV_NAME(max_rel_err)(SPMV_I n, const SPMV_Y *y, const SPMV__REFT *ref,
                                            const long double *scale) {
    double worst = 0;
    SPMV_I r;
    for (r = 0; r < n; r++) {
        long double e;
        if (!SPMV__REFFIN(ref[r])) {
            if (!SPMV__REFSAME(y[r], ref[r])) return INFINITY;
            continue;
        }
        if (!SPMV__REFFIN(y[r])) return INFINITY;
        e = SPMV__REFABS((SPMV__REFT)y[r] - ref[r]);
        if (scale[r] > 0) e /= scale[r];
        if ((double)e > worst) worst = (double)e;
    }
    return worst;
}
/* Both in one: the error of y against the reference of y = alpha*A*x + beta*y0 (max_rel_err), or
 * INFINITY when the reference's scratch cannot be allocated (never an error that looks small). */
SPMV_API double SPMV_NAME(csr_mv_err)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                      const SPMV_Y *y0, const SPMV_Y *y) {
    SPMV__REFT *ref = SPMV_ALLOC_N(SPMV__REFT, (size_t)A->nrows + 1);
    long double *sc = SPMV_ALLOC_N(long double, (size_t)A->nrows + 1);
    double e = INFINITY;
    if (ref && sc) {
        SPMV_NAME(csr_mv_ref)(A, alpha, x, beta, y0, ref, sc);
        e = SPMV_NAME(max_rel_err)(A->nrows, y, ref, sc);
    }
    spmv__free(ref);
    spmv__free(sc);
    return e;
}
#endif /* SPMV_PART_DEFS */
#undef SPMV__REFT
#undef SPMV__REFMUL
#undef SPMV__REFABS
#undef SPMV__REFFIN
#undef SPMV__REFSAME
