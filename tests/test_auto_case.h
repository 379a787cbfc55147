/* Per-type body of tests/test_auto.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)
#define TOL (sizeof(TT_VAL) == 8 ? 1e-12 : 2e-5)

/* y = alpha*A*x + beta*y through the handle, against the reference; returns the error */
static double TF(_check_mv)(TN(auto) * M, const TN(csr) * A, TT_VAL alpha, TT_VAL beta, TT_VAL *yout) {
    int64_t i;
    TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->ncols + 1));
    TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
    TT_VAL *y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
    long double *ref = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    long double *scale = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    double err;
    spmv_status st;
    for (i = 0; i < A->ncols; i++) x[i] = (TT_VAL)(0.5 + (double)((i * 37) % 101) / 101.0);
    for (i = 0; i < A->nrows; i++) y[i] = y0[i] = (TT_VAL)(1.0 - (double)(i % 13) / 7.0);
    TN(csr_mv_ref)(A, alpha, x, beta, y0, ref, scale);
    st = TN(auto_mv)(M, alpha, x, beta, y);
    err = st == SPMV_OK ? TN(max_rel_err)(A->nrows, y, ref, scale) : INFINITY;
    if (yout) memcpy(yout, y, sizeof(TT_VAL) * (size_t)A->nrows);
    free(x); free(y); free(y0); free(ref); free(scale);
    return err;
}

/* timed selection, defaults: the product right, the report consistent, CSR an own copy */
static void TF(_timed)(const char *name, const TN(csr) * A, const spmv_opts *o) {
    const double tol = TOL;
    TN(auto) M;
    spmv_status st;
    double e1, e2;
    int i, found = 0;
    st = TN(auto_from_csr)(&M, A, o, NULL);
    CHECK(st == SPMV_OK, "%s %s: auto_from_csr: %s (%s)", STR(TT_TAG), name, spmv_status_str(st), M.rep.why);
    if (st != SPMV_OK) return;
    e1 = TF(_check_mv)(&M, A, (TT_VAL)1, (TT_VAL)0, NULL);
    e2 = TF(_check_mv)(&M, A, (TT_VAL)-2, (TT_VAL)0.5, NULL);
    CHECK(e1 <= tol && e2 <= tol, "%s %s: chosen %s: errors %.3g %.3g", STR(TT_TAG), name,
          spmv_format_name(M.rep.chosen), e1, e2);
    for (i = 0; i < M.rep.ncand; i++) found += M.rep.cand[i].fmt == M.rep.chosen;
    CHECK(found == 1 && M.h.fmt == M.rep.chosen && TN(auto_format)(&M) == M.rep.chosen,
          "%s %s: the chosen format %s is not the handle's or not on the shortlist", STR(TT_TAG), name,
          spmv_format_name(M.rep.chosen));
    CHECK(M.rep.cand[0].fmt == SPMV_FMT_CSR && (M.rep.trials >= (A->nnz > 0) || strstr(M.rep.why, "CSR un")) &&
              M.rep.select_s >= 0 && M.rep.why[0],
          "%s %s: report incomplete (cand[0] %s, %d trials, why '%s')", STR(TT_TAG), name,
          spmv_format_name(M.rep.cand[0].fmt), M.rep.trials, M.rep.why);
    CHECK(M.h.fmt != SPMV_FMT_CSR ||
              (M.h.u.csr.params.algo == SPMV_CSR_ROWS && !M.h.u.csr.borrowed && M.h.u.csr.val != A->val),
          "%s %s: CSR chosen, but its handle is not an own copy with the row kernel", STR(TT_TAG), name);
    if (!quiet_real || check_failed_)
        printf("%s %-28s %-10s %s\n", STR(TT_TAG), name, spmv_format_name(M.rep.chosen), M.rep.why);
    TN(auto_free)(&M);
}

/* deterministic: the same choice twice, bit-identical products, no atomics format */
static void TF(_deterministic)(const char *name, const TN(csr) * A, const spmv_opts *o) {
    const double tol = TOL;
    TN(auto) D1, D2;
    spmv_status st;
    double e1, e2;
    st = TN(auto_from_csr)(&D1, A, o, NULL);
    CHECK(st == SPMV_OK, "%s %s: deterministic: %s (%s)", STR(TT_TAG), name, spmv_status_str(st), D1.rep.why);
    if (st != SPMV_OK) return;
    st = TN(auto_from_csr)(&D2, A, o, NULL);
    CHECK(st == SPMV_OK && D2.rep.chosen == D1.rep.chosen && D1.rep.trials == 0,
          "%s %s: deterministic mode chose %s then %s (%d trials)", STR(TT_TAG), name, spmv_format_name(D1.rep.chosen),
          spmv_format_name(D2.rep.chosen), D1.rep.trials);
    if (st == SPMV_OK) {
        TT_VAL *ya = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
        TT_VAL *yb = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
        e1 = TF(_check_mv)(&D1, A, (TT_VAL)1, (TT_VAL)0, ya);
        e2 = TF(_check_mv)(&D2, A, (TT_VAL)1, (TT_VAL)0, yb);
        CHECK(e1 <= tol && e2 <= tol && !memcmp(ya, yb, sizeof(TT_VAL) * (size_t)A->nrows),
              "%s %s: deterministic %s: errors %.3g %.3g or products differ", STR(TT_TAG), name,
              spmv_format_name(D1.rep.chosen), e1, e2);
        free(ya);
        free(yb);
        TN(auto_free)(&D2);
    }
    TN(auto_free)(&D1);
}

/* one matrix (a th_real_matrices callback too): the timed selection, then the deterministic one */
static void TF(_one)(const char *name, const spmv_triplets *t, void *ctx) {
    TN(csr) A;
    spmv_opts o = spmv_opts_default();
    (void)ctx;
    if (TN(csr_from_triplets)(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s %s: csr_from_triplets", STR(TT_TAG), name);
        return;
    }
    TF(_timed)(name, &A, &o);
    o.deterministic = 1;
    TF(_deterministic)(name, &A, &o);
    TN(csr_free)(&A);
}
#undef TN
#undef TF
#undef TOL
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
