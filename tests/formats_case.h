/* Per-type test body, included once per (TT_TAG, TT_VAL, TT_IDX) by test_formats.c.
 * Every format x ISA runs against the long-double CSR reference on one matrix, for
 * several (alpha, beta), including beta = 0 with NaN in y. */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* Runs every format x ISA on triplets t; x gets NaN/Inf when special is set. */
static void TF(_run)(const char *mname, const spmv_triplets *t, int special) {
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    static const double ab[][2] = {{1, 0}, {-0.5, 2}, {0, 1.5}, {2.5, 0}, {1, 1}};
    const int nab = (int)(sizeof ab / sizeof ab[0]);
    TN(csr) R;
    TN(any) M;
    int f, isa, c;
    spmv_status st;
    TT_VAL *x = NULL, *y0 = NULL, *y = NULL;
    long double *ref = NULL, *scale = NULL;
    int64_t i, nr, nc;
    spmv_csr_params rp = spmv_csr_params_default();

    rp.isa = SPMV_ISA_GENERIC;
    st = TN(csr_from_triplets)(&R, t, &rp);
    if (st == SPMV_ERR_OVERFLOW && sizeof(TT_IDX) == 4) {
        CHECK(t->nrows >= INT32_MAX || t->ncols >= INT32_MAX || t->nnz > INT32_MAX, "%s: unexpected overflow", mname);
        return;
    }
    CHECK(st == SPMV_OK, "%s [%s]: csr_from_triplets: %s", mname, STR(TT_TAG), spmv_status_str(st));
    if (st != SPMV_OK) return;
    nr = R.nrows;
    nc = R.ncols;
    x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    ref = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    scale = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    if (!x || !y0 || !y || !ref || !scale) abort();
    for (i = 0; i < nc; i++) x[i] = (TT_VAL)(((i * 7919 + 13) % 2001) / 1000.0 - 1.0);
    if (special && nc > 2) {
        x[nc / 2] = (TT_VAL)NAN;
        x[nc / 3] = (TT_VAL)INFINITY;
    }
    for (i = 0; i < nr; i++) y0[i] = (TT_VAL)(((i * 104729 + 7) % 1999) / 999.0 - 1.0);

    for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
        if (!spmv_isa_supported((spmv_isa)isa)) continue;
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {
            const char *fname = spmv_format_name((spmv_format)f);
            double worst = 0;
            int bad_ab = -1;
            st = TN(any_from_csr)(&M, &R, (spmv_format)f, (spmv_isa)isa);
            CHECK(st == SPMV_OK, "%s [%s %s %s]: convert: %s", mname, STR(TT_TAG), fname,
                  spmv_isa_name((spmv_isa)isa), spmv_status_str(st));
            if (st != SPMV_OK) continue;
            for (c = 0; c < nab; c++) {
                TT_VAL alpha = (TT_VAL)ab[c][0], beta = (TT_VAL)ab[c][1];
                double e;
                for (i = 0; i < nr; i++) y[i] = beta == 0 ? (TT_VAL)NAN : y0[i];
                st = TN(any_mv)(&M, alpha, x, beta, y);
                if (st != SPMV_OK) { worst = INFINITY; bad_ab = c; break; }
                TN(csr_mv_ref)(&R, alpha, x, beta, y0, ref, scale);
                e = TN(max_rel_err)((TT_IDX)nr, y, ref, scale);
                if (!(e <= worst)) { worst = e; if (!(e <= tol)) bad_ab = c; }
            }
            CHECK(worst <= tol, "%s [%s %s %s]: max rel err %.3g > %.1g (alpha=%g beta=%g)", mname, STR(TT_TAG),
                  fname, spmv_isa_name((spmv_isa)isa), worst, tol, bad_ab >= 0 ? ab[bad_ab][0] : 0.0,
                  bad_ab >= 0 ? ab[bad_ab][1] : 0.0);
            CHECK(TN(any_isa)(&M) == (spmv_isa)isa, "%s [%s %s]: kernel ISA %s, asked %s", mname, STR(TT_TAG), fname,
                  spmv_isa_name(TN(any_isa)(&M)), spmv_isa_name((spmv_isa)isa));
            { /* the layout round-trips: converting back reproduces the CSR matrix */
                TN(csr) B;
                int same = 0;
                if (TN(any_to_csr)(&M, &B) == SPMV_OK) {
                    same = B.nrows == R.nrows && B.ncols == R.ncols && B.nnz == R.nnz &&
                           !memcmp(B.row_ptr, R.row_ptr, sizeof(TT_IDX) * (size_t)(R.nrows + 1)) &&
                           !memcmp(B.col_idx, R.col_idx, sizeof(TT_IDX) * (size_t)R.nnz) &&
                           !memcmp(B.val, R.val, sizeof(TT_VAL) * (size_t)R.nnz);
                    TN(csr_free)(&B);
                }
                CHECK(same, "%s [%s %s %s]: converting back to CSR differs", mname, STR(TT_TAG), fname,
                      spmv_isa_name((spmv_isa)isa));
            }
            TN(any_free)(&M);
        }
    }
    /* round trip: CSR -> COO -> triplets -> CSR reproduces R exactly */
    {
        TN(coo) B;
        spmv_triplets t2;
        TN(csr) R2;
        int same = 0;
        memset(&t2, 0, sizeof t2);
        if (TN(coo_from_csr)(&B, &R, NULL) == SPMV_OK && TN(coo_to_triplets)(&B, &t2) == SPMV_OK &&
            TN(csr_from_triplets)(&R2, &t2, NULL) == SPMV_OK) {
            same = R2.nrows == R.nrows && R2.ncols == R.ncols && R2.nnz == R.nnz &&
                   !memcmp(R2.row_ptr, R.row_ptr, sizeof(TT_IDX) * (size_t)(R.nrows + 1)) &&
                   !memcmp(R2.col_idx, R.col_idx, sizeof(TT_IDX) * (size_t)R.nnz) &&
                   !memcmp(R2.val, R.val, sizeof(TT_VAL) * (size_t)R.nnz);
            TN(csr_free)(&R2);
        }
        TN(coo_free)(&B);
        spmv_triplets_free(&t2);
        CHECK(same, "%s [%s]: CSR->COO->CSR round trip differs", mname, STR(TT_TAG));
    }
    TN(csr_free)(&R);
    free(x); free(y0); free(y); free(ref); free(scale);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
