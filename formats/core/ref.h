/* The reference every test and the bench's error column use: the product in long double
 * and the error measure. Template header (no include guard), instantiated per tag by
 * formats/instance.h after the formats' types. */
#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(csr_mv_ref)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        const SPMV_Y *y0, long double *ref, long double *scale);
SPMV_API double SPMV_NAME(max_rel_err)(SPMV_I n, const SPMV_Y *y, const long double *ref, const long double *scale);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
/* Reference product in long double, for tests and the bench's error column:
 * ref[r] = alpha*sum a_rj x_j + beta*y0[r] and scale[r] = |alpha| sum |a_rj||x_j| + |beta||y0[r]|
 * (y0 not read when beta == 0). */
SPMV_API void SPMV_NAME(csr_mv_ref)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                         const SPMV_Y *y0, long double *ref, long double *scale) {
    SPMV_I r, k;
    for (r = 0; r < A->nrows; r++) {
        long double s = 0, a = 0;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            long double p = (long double)SPMV_TV(A->val[k]) * (long double)x[A->col_idx[k]];
            s += p;
            a += fabsl(p);
        }
        ref[r] = (long double)alpha * s;
        scale[r] = fabsl((long double)alpha) * a;
        if (beta != (SPMV_Y)0) {
            ref[r] += (long double)beta * (long double)y0[r];
            scale[r] += fabsl((long double)beta * (long double)y0[r]);
        }
    }
}

/* Max over rows of |y - ref| / scale (see csr_mv_ref). A NaN reference must be
 * matched by NaN, an infinite one by the same infinity; otherwise the row counts
 * as error +inf. Rows with scale 0 compare absolutely. */
SPMV_API double SPMV_NAME(max_rel_err)(SPMV_I n, const SPMV_Y *y, const long double *ref,
                                            const long double *scale) {
    double worst = 0;
    SPMV_I r;
    for (r = 0; r < n; r++) {
        long double e;
        if (isnan(ref[r]) || isinf(ref[r])) {
            int same = isnan(ref[r]) ? isnan(y[r]) : (long double)y[r] == ref[r];
            if (!same) return INFINITY;
            continue;
        }
        if (isnan(y[r]) || isinf(y[r])) return INFINITY;
        e = fabsl((long double)y[r] - ref[r]);
        if (scale[r] > 0) e /= scale[r];
        if ((double)e > worst) worst = (double)e;
    }
    return worst;
}
#endif /* SPMV_PART_DEFS */
