/* Checks shared by the per-type bodies of a family's own test (tests/test_ell_case.h,
 * tests/test_dia_case.h): included with TN, TF, TT_TAG, TT_VAL, TT_IDX defined and FC_FAM the
 * family (its object spmv_<tag>_<FC_FAM>, _mv and _to_csr); undefines FC_FAM. */
/* y = alpha*A*x + beta*y through M against the long-double reference, every (alpha, beta);
 * x given (NULL: random) */
static int TF(_product_ok)(const TN(FC_FAM) * M, const TN(csr) * A, const TT_VAL *xin, const char *what) {
    static const double ab[][2] = {{1, 0}, {-0.5, 2}, {0, 1.5}, {1, 1}};
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->ncols + 1));
    TT_VAL *y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
    TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
    long double *ref = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    long double *sc = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    int64_t i;
    int c, ok = 1;
    for (i = 0; i < A->ncols; i++) x[i] = xin ? xin[i] : (TT_VAL)th_rval();
    for (i = 0; i < A->nrows; i++) y0[i] = (TT_VAL)th_rval();
    for (c = 0; c < 4; c++) {
        double err;
        spmv_status st;
        for (i = 0; i < A->nrows; i++) y[i] = ab[c][1] == 0 ? (TT_VAL)NAN : y0[i];
        st = TN(SPMV_CAT(FC_FAM, _mv))(M, (TT_VAL)ab[c][0], x, (TT_VAL)ab[c][1], y);
        TN(csr_mv_ref)(A, (TT_VAL)ab[c][0], x, (TT_VAL)ab[c][1], y0, ref, sc);
        err = st == SPMV_OK ? TN(max_rel_err)(A->nrows, y, ref, sc) : INFINITY;
        if (!(err <= tol)) ok = 0;
        CHECK(err <= tol, "[%s] %s: alpha=%g beta=%g: %s, err %.3g", STR(TT_TAG), what, ab[c][0], ab[c][1],
              spmv_status_str(st), err);
    }
    free(x), free(y0), free(y), free(ref), free(sc);
    return ok;
}

static int TF(_roundtrip_ok)(const TN(FC_FAM) * M, const TN(csr) * A) {
    TN(csr) B;
    int same = 0;
    if (TN(SPMV_CAT(FC_FAM, _to_csr))(M, &B) == SPMV_OK) {
        same = B.nrows == A->nrows && B.ncols == A->ncols && B.nnz == A->nnz &&
               !memcmp(B.row_ptr, A->row_ptr, sizeof(TT_IDX) * (size_t)(A->nrows + 1)) &&
               !memcmp(B.col_idx, A->col_idx, sizeof(TT_IDX) * (size_t)A->nnz) &&
               !memcmp(B.val, A->val, sizeof(TT_VAL) * (size_t)A->nnz);
        TN(csr_free)(&B);
    }
    return same;
}

#undef FC_FAM
