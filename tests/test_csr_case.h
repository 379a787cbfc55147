/* Per-type body of tests/test_csr.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* every product at five (alpha, beta): y = A*x; a negative alpha into y holding NaN (beta = 0 must
   not read it); alpha = 0 (y = beta*y); beta = 1; both negative */
static int TF(_ok)(const TN(csr) * A, const TN(csr) * R, const TT_VAL *x, TT_VAL *y, double tol) {
    static const double ab[5][2] = {{1, 0}, {-0.75, 0}, {0, 1.5}, {1.5, 1}, {-2, -0.5}};
    long double *ref = malloc(sizeof(long double) * (size_t)(R->nrows + 1));
    long double *sc = malloc(sizeof(long double) * (size_t)(R->nrows + 1));
    TT_VAL *y0 = malloc(sizeof(TT_VAL) * (size_t)(R->nrows + 1));
    int64_t i;
    int ok = 1, k;
    for (i = 0; i < R->nrows; i++) y0[i] = (TT_VAL)(0.5 + (double)(i % 5));
    for (k = 0; k < 5; k++) {
        const TT_VAL al = (TT_VAL)ab[k][0], be = (TT_VAL)ab[k][1];
        for (i = 0; i < R->nrows; i++) y[i] = be == 0 ? (TT_VAL)NAN : y0[i];
        TN(csr_mv_ref)(R, al, x, be, y0, ref, sc);
        ok &= TN(csr_mv)(A, al, x, be, y) == SPMV_OK && TN(max_rel_err)(R->nrows, y, ref, sc) <= tol;
    }
    free(ref);
    free(sc);
    free(y0);
    return ok;
}

/* the plan's row sum, from the row lengths (SPMV_CSR_LONG, SPMV_CSR_LONG_SHARE) */
static int TF(_want_rows_kind)(const TN(csr) * A) {
    int64_t lng = 0, fl = 0, r, m;
    for (r = 0; r < A->nrows; r++) {
        if ((m = A->row_ptr[r + 1] - A->row_ptr[r]) >= SPMV_CSR_LONG) lng += m;
        if (r > 0 && (m >= SPMV_CSR_LONG) != (A->row_ptr[r] - A->row_ptr[r - 1] >= SPMV_CSR_LONG)) fl++;
    }
    if (A->nrows > 0 && A->row_ptr[1] >= SPMV_CSR_LONG) fl++; /* the first row against none */
    return lng > 0 && lng * SPMV_CSR_LONG_SHARE >= A->nnz &&
                   !(fl * SPMV_CSR_FLIPS > A->nrows && A->ncols * (int64_t)sizeof(TT_VAL) > SPMV_CSR_FLIPS_X)
               ? SPMV_CSR_RK_SPLIT
               : SPMV_CSR_RK_PLAIN;
}

/* copies of A (converted at 2 threads with p): a struct copy (the split applies), every row
 * sum, dot=gather reaching the plan, and a split found for other arrays (must not be used) */
static void TF(_copies)(const char *name, int algo, const TN(csr) * A, const spmv_csr_params *p, const TT_VAL *x,
                        TT_VAL *y, double tol) {
    TN(csr) B, C;
    int64_t i;
    int rk;
    omp_set_num_threads(2);
    B = *A; /* a copy: the same arrays, the split applies */
    CHECK(TF(_ok)(&B, A, x, y, tol), "%s %s algo %d: struct copy", STR(TT_TAG), name, algo);
    for (rk = 0; rk < 3; rk++) { /* every row sum: plain, split, gather */
        B.rows_kind = rk;
        CHECK(TF(_ok)(&B, A, x, y, tol), "%s %s algo %d: rows_kind %d", STR(TT_TAG), name, algo, rk);
    }
    B = *A;
    B.params.dot = SPMV_CSR_DOT_GATHER; /* the parameter reaches the plan */
    TN(csr__plan)(&B);
    CHECK(B.rows_kind == SPMV_CSR_RK_GATHER, "%s %s: dot=gather planned %d", STR(TT_TAG), name, B.rows_kind);
    /* a split found for other arrays (part_rp != row_ptr), here nonsense: must not be used */
    if (TN(csr_from_csr)(&C, A, p, NULL) == SPMV_OK) {
        TN(csr) D = C;
        for (i = 0; i <= SPMV_CSR_PARTS; i++) D.part[i] = 0;
        D.part_nt = 2;
        D.part_rp = A->row_ptr;
        CHECK(TF(_ok)(&D, &C, x, y, tol), "%s %s algo %d: another matrix's split", STR(TT_TAG), name, algo);
        TN(csr_free)(&C);
    } else {
        CHECK(0, "%s %s: copy", STR(TT_TAG), name);
    }
}

/* both algorithms: converted at 2 threads (the split stored), called at 1, 2, 3 and 5, then the copies */
static void TF(_run)(const char *name, const spmv_triplets *t) {
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    int algo, nt, rk;
    for (algo = 0; algo < 2; algo++) {
        spmv_csr_params p = spmv_csr_params_default();
        TN(csr) A;
        TT_VAL *x, *y;
        int64_t i;
        p.algo = algo ? SPMV_CSR_MERGE : SPMV_CSR_ROWS;
        omp_set_num_threads(2);
        if (TN(csr_from_triplets)(&A, t, &p, NULL) != SPMV_OK) {
            CHECK(0, "%s %s: convert", STR(TT_TAG), name);
            continue;
        }
        CHECK(A.part_nt == ((int64_t)A.nnz + A.nrows >= SPMV_CSR_PAR_MIN ? 2 : 0), "%s %s: split stored for %d",
              STR(TT_TAG), name, A.part_nt);
        rk = TF(_want_rows_kind)(&A);
        CHECK(A.rows_kind == rk, "%s %s: rows_kind %d, want %d", STR(TT_TAG), name, A.rows_kind, rk);
        x = malloc(sizeof(TT_VAL) * (size_t)(A.ncols + 1));
        y = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
        for (i = 0; i < A.ncols; i++) x[i] = (TT_VAL)(1 + (i * 37) % 11) / 8;
        for (nt = 1; nt <= 5; nt++) {
            if (nt == 4) continue;
            omp_set_num_threads(nt);
            CHECK(TF(_ok)(&A, &A, x, y, tol), "%s %s algo %d: %d threads", STR(TT_TAG), name, algo, nt);
        }
        TF(_copies)(name, algo, &A, &p, x, y, tol);
        free(x);
        free(y);
        TN(csr_free)(&A);
    }
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
