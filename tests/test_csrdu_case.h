/* Per-type body of tests/test_csrdu.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* the stream's bytes the deltas need: a unit per non-empty row, its width byte and each delta in
 * 1, 2 or the index type's bytes (computed here from A, not by the converter's code): 1 or 2 when
 * no step goes backwards and the steps and the first delta's magnitude fit, else full width */
static int64_t TF(_stream)(const TN(csr) *A) {
    int64_t i, k, want = 0, prev = 0;
    for (i = 0; i < A->nrows; i++) {
        int64_t mx = 0, mn = 0, f, w;
        if (i % SPMV_CSRDU_G == 0) prev = 0;
        if (A->row_ptr[i] == A->row_ptr[i + 1]) continue;
        f = (int64_t)A->col_idx[A->row_ptr[i]] - prev;
        prev = A->col_idx[A->row_ptr[i]];
        for (k = A->row_ptr[i] + 1; k < A->row_ptr[i + 1]; k++) {
            const int64_t st = (int64_t)A->col_idx[k] - (int64_t)A->col_idx[k - 1];
            mx = st > mx ? st : mx;
            mn = st < mn ? st : mn;
        }
        f = f < 0 ? -f : f;
        w = mn < 0 ? 0 : (f > mx ? f : mx) < 256 ? 1 : (f > mx ? f : mx) < 65536 ? 2 : 0;
        want += 1 + (int64_t)(A->row_ptr[i + 1] - A->row_ptr[i]) * (w ? w : (int64_t)sizeof(TT_IDX));
    }
    return want;
}
/* columns too far apart for a product here (x would not fit in memory): nr rows of the columns
 * cols[start[r]..start[r+1]) wrapped as a CSR (csr_wrap: nothing allocated per column), the
 * conversion's stream and the columns back through csrdu_to_csr, exactly (full-width deltas
 * forwards and backwards across the index type's range) */
static void TF(_far)(const char *name, int64_t nr, int64_t nc, const int64_t *cols, const int64_t *start) {
    TT_IDX rp[16], ci[32];
    TT_VAL v[32];
    TN(csr) A, C;
    TN(csrdu) D;
    int64_t k;
    for (k = 0; k <= nr; k++) rp[k] = (TT_IDX)start[k];
    for (k = 0; k < start[nr]; k++) ci[k] = (TT_IDX)cols[k], v[k] = (TT_VAL)(k + 1);
    if (TN(csr_wrap)(&A, nr, nc, rp, ci, v, NULL, NULL) != SPMV_OK || TN(csrdu_from_csr)(&D, &A, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s %s: builds", STR(TT_TAG), name);
        return;
    }
    CHECK(D.nd == TF(_stream)(&A), "%s %s: the stream holds %lld bytes, the deltas need %lld", STR(TT_TAG), name,
          (long long)D.nd, (long long)TF(_stream)(&A));
    CHECK(TN(csrdu_to_csr)(&D, &C) == SPMV_OK && C.nnz == A.nnz &&
              !memcmp(C.col_idx, A.col_idx, sizeof(TT_IDX) * (size_t)A.nnz) &&
              !memcmp(C.row_ptr, A.row_ptr, sizeof(TT_IDX) * (size_t)(A.nrows + 1)),
          "%s %s: every column back exactly", STR(TT_TAG), name);
    TN(csr_free)(&C);
    TN(csrdu_free)(&D);
    TN(csr_free)(&A);
}
/* the selection's estimate (csrdu_estimate) against the build: on a matrix of at most 32k
 * entries every block is sampled, so its bytes ratio is the built stream's (the values as the
 * built mode: a byte per entry for a table) and its narrow share the entries in units of 1 or
 * 2 bytes; on a larger one both in [0, 1.5] */
static void TF(_estimate)(const char *name, const TN(csr) *A, int64_t stream) {
    TN(csrdu) D;
    double ratio = -1, narrow = -1, want_r, vbytes = (double)sizeof(TT_VAL), ibytes = (double)sizeof(TT_IDX);
    int64_t r, nar = 0, prev = 0, f = 0;
    if (TN(csrdu_from_csr)(&D, A, NULL, NULL) != SPMV_OK || TN(csrdu_estimate)(A, &ratio, &narrow) != SPMV_OK) {
        CHECK(0, "%s %s: estimate", STR(TT_TAG), name);
        return;
    }
    for (r = 0; r < A->nrows; r++) {
        int w;
        if (r % SPMV_CSRDU_G == 0) prev = 0;
        w = TN(csrdu__unit)(A, (TT_IDX)r, &prev, &f);
        if (w == 1 || w == 2) nar += A->row_ptr[r + 1] - A->row_ptr[r];
    }
    want_r = A->nnz == 0 ? 1
                         : ((double)stream + (D.vmode == SPMV_CSRDU_PLAIN ? vbytes : D.vmode == SPMV_CSRDU_TABLE ? 1 : 0) *
                                                 (double)A->nnz + (double)A->nrows * ibytes) /
                               ((double)A->nnz * (vbytes + ibytes) + (double)A->nrows * ibytes);
    if (A->nnz <= 32768)
        CHECK(fabs(ratio - want_r) < 1e-12 && fabs(narrow - (A->nnz ? (double)nar / (double)A->nnz : 1)) < 1e-12,
              "%s %s: estimate %.4f x csr, %.3f narrow; the build %.4f, %.3f", STR(TT_TAG), name, ratio, narrow, want_r,
              A->nnz ? (double)nar / (double)A->nnz : 1.0);
    else
        CHECK(ratio > 0 && ratio <= 1.5 && narrow >= 0 && narrow <= 1, "%s %s: estimate %.4f x csr, %.3f narrow",
              STR(TT_TAG), name, ratio, narrow);
    TN(csrdu_free)(&D);
}
/* csrdu's product against csr's, bit for bit, at every ISA here, threads 1, 2 and 3 and five
 * (alpha, beta); x holds NaN, Inf, -0.0 and a denormal when odd is set; the stream's bytes
 * against the deltas; back to CSR; 0 when the conversion was refused (st, e.g. for sizes) */
static void TF(_run)(const char *name, const spmv_triplets *t, int odd) {
    static const double ab[5][2] = {{1, 0}, {-0.75, 0}, {0, 1.5}, {1.5, 1}, {-2, -0.5}};
    TN(csr) A, B;
    TN(csrdu) D;
    TT_VAL *x, *y0, *yc, *yd;
    int64_t i, want;
    int isa, nt, q, same = 1, ran = 0, same_mm = 1;
    if (TN(csr_from_triplets)(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s %s: csr", STR(TT_TAG), name);
        return;
    }
    x = malloc(sizeof(TT_VAL) * (size_t)(A.ncols + 1));
    y0 = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
    yc = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
    yd = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
    for (i = 0; i < A.ncols; i++) x[i] = (TT_VAL)(1.0 + (double)(i % 13) / 7.0) * (i % 2 ? -1 : 1);
    if (odd && A.ncols > 4) x[1] = (TT_VAL)NAN, x[2] = (TT_VAL)INFINITY, x[3] = (TT_VAL)-0.0, x[4] = (TT_VAL)1e-310;
    for (i = 0; i < A.nrows; i++) y0[i] = (TT_VAL)(0.5 + (double)(i % 5));
    want = TF(_stream)(&A);
    for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
        spmv_csr_params cp = spmv_csr_params_default();
        spmv_csrdu_params dp = spmv_csrdu_params_default();
        if (!spmv_isa_supported((spmv_isa)isa)) continue;
        cp.isa = dp.isa = (spmv_isa)isa;
        if (TN(csr_from_csr)(&B, &A, &cp, NULL) != SPMV_OK || TN(csrdu_from_csr)(&D, &A, &dp, NULL) != SPMV_OK) {
            CHECK(0, "%s %s %s: conversions", STR(TT_TAG), name, spmv_isa_name((spmv_isa)isa));
            continue;
        }
        CHECK(D.nd == want, "%s %s: the stream holds %lld bytes, the deltas need %lld", STR(TT_TAG), name,
              (long long)D.nd, (long long)want);
        for (nt = 1; nt <= 3; nt++) {
            omp_set_num_threads(nt);
            for (q = 0; q < 5; q++) {
                const TT_VAL al = (TT_VAL)ab[q][0], be = (TT_VAL)ab[q][1];
                for (i = 0; i < A.nrows; i++) yc[i] = yd[i] = be == 0 ? (TT_VAL)NAN : y0[i];
                same &= TN(csr_mv)(&B, al, x, be, yc) == SPMV_OK && TN(csrdu_mv)(&D, al, x, be, yd) == SPMV_OK &&
                        (A.nrows == 0 || !memcmp(yc, yd, sizeof(TT_VAL) * (size_t)A.nrows));
                ran++;
            }
        }
        /* SpMM, row-major: csr_mm's bits; column-major: refused (any_mm's fallback). Above 50k
           entries only k = 9 with two threads (the blocks of vectors and the row split; k = 37,
           the remainder's case, on every smaller input) */
        for (nt = A.nnz > 50000 ? 2 : 1; nt <= 2; nt++) {
            static const int64_t ks[] = {9, 1, 3, 37};
            omp_set_num_threads(nt);
            for (q = 0; q < (A.nnz > 50000 ? 1 : 4); q++) {
                const int64_t kk = ks[q];
                TT_VAL *X = malloc(sizeof(TT_VAL) * (size_t)((A.ncols + 1) * kk));
                TT_VAL *Yc = malloc(sizeof(TT_VAL) * (size_t)((A.nrows + 1) * kk));
                TT_VAL *Yd = malloc(sizeof(TT_VAL) * (size_t)((A.nrows + 1) * kk));
                for (i = 0; i < A.ncols * kk; i++) X[i] = x[i % (A.ncols ? A.ncols : 1)] * (TT_VAL)(1 + i % 3);
                for (i = 0; i < A.nrows * kk; i++) Yc[i] = Yd[i] = (TT_VAL)(i % 7);
                same_mm &= TN(csr_mm)(&B, kk, (TT_VAL)1.5, X, kk, (TT_VAL)-0.5, Yc, kk, SPMV_ROW_MAJOR) == SPMV_OK &&
                           TN(csrdu_mm)(&D, kk, (TT_VAL)1.5, X, kk, (TT_VAL)-0.5, Yd, kk, SPMV_ROW_MAJOR) == SPMV_OK &&
                           (A.nrows == 0 || !memcmp(Yc, Yd, sizeof(TT_VAL) * (size_t)(A.nrows * kk)));
                same_mm &= TN(csrdu_mm)(&D, kk, 1, X, A.ncols ? A.ncols : 1, 0, Yd, A.nrows ? A.nrows : 1, SPMV_COL_MAJOR) ==
                           SPMV_ERR_UNSUPPORTED;
                free(X);
                free(Yc);
                free(Yd);
            }
        }
        omp_set_num_threads(2);
        {
            TN(csr) C;
            int back = TN(csrdu_to_csr)(&D, &C) == SPMV_OK && C.nnz == A.nnz &&
                       (A.nnz == 0 || (!memcmp(C.col_idx, A.col_idx, sizeof(TT_IDX) * (size_t)A.nnz) &&
                                       !memcmp(C.val, A.val, sizeof(TT_VAL) * (size_t)A.nnz)));
            CHECK(back, "%s %s %s: back to CSR, entries as stored", STR(TT_TAG), name, spmv_isa_name((spmv_isa)isa));
            TN(csr_free)(&C);
        }
        TN(csr_free)(&B);
        TN(csrdu_free)(&D);
    }
    CHECK(same && ran > 0, "%s %s: csrdu's products are csr's, bit for bit (%d products, every ISA, threads 1-3)",
          STR(TT_TAG), name, ran);
    CHECK(same_mm, "%s %s: csrdu_mm is csr_mm bit for bit (k 1, 3, 9, 37 and threads 1-2, or k 9 above 50k entries; row-major); column-major "
          "refused", STR(TT_TAG), name);
    TF(_estimate)(name, &A, want);
    free(x);
    free(y0);
    free(yc);
    free(yd);
    TN(csr_free)(&A);
}
/* the value mode chosen for t's values, and new values through the handle (a new build for
 * the table and one-value modes): products csr's bits after each; another pattern refused */
static void TF(_modes)(const char *name, const spmv_triplets *t, int want) {
    TN(csr) A, B, O;
    TN(csrdu) D;
    TN(any) M;
    spmv_opts o = spmv_opts_default();
    TT_VAL *x, *yc, *yd;
    int64_t i, k;
    int round, ok = 1;
    if (TN(csr_from_triplets)(&A, t, NULL, NULL) != SPMV_OK || TN(csrdu_from_csr)(&D, &A, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s %s: builds", STR(TT_TAG), name);
        return;
    }
    CHECK(D.vmode == want, "%s %s: value mode %d (want %d)", STR(TT_TAG), name, D.vmode, want);
    TN(csrdu_free)(&D);
    o.format = SPMV_FMT_CSRDU;
    x = malloc(sizeof(TT_VAL) * (size_t)(A.ncols + 1));
    yc = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
    yd = malloc(sizeof(TT_VAL) * (size_t)(A.nrows + 1));
    for (i = 0; i < A.ncols; i++) x[i] = (TT_VAL)(1.0 + (double)(i % 9) / 4.0);
    CHECK(TN(any_from_csr)(&M, &A, &o, NULL) == SPMV_OK && TN(csr_from_csr)(&B, &A, NULL, NULL) == SPMV_OK,
          "%s %s: handle", STR(TT_TAG), name);
    for (round = 0; round < 3; round++) { /* new values: many, then one, then a few */
        for (k = 0; k < B.nnz; k++)
            B.val[k] = (TT_VAL)(round == 0 ? 1.0 + (double)(k % 1000) / 7.0 : round == 1 ? 2.5 : (double)(k % 5) - 2.0);
        ok &= TN(any_update_values)(&M, &B) == SPMV_OK && TN(csr_mv)(&B, 1, x, 0, yc) == SPMV_OK &&
              TN(any_mv)(&M, 1, x, 0, yd) == SPMV_OK && (B.nrows == 0 || !memcmp(yc, yd, sizeof(TT_VAL) * (size_t)B.nrows));
    }
    CHECK(ok, "%s %s: new values (many, one, a few): csr's products bit for bit", STR(TT_TAG), name);
    if (A.nnz > 1 && A.row_ptr[1] > A.row_ptr[0]) { /* another pattern: refused, the handle kept */
        TN(csr_from_csr)(&O, &B, NULL, NULL);
        for (k = 0; k < O.nnz; k++) O.col_idx[k] = (TT_IDX)((O.col_idx[k] + 1) % O.ncols);
        CHECK(TN(any_update_values)(&M, &O) == SPMV_ERR_ARG && TN(any_mv)(&M, 1, x, 0, yd) == SPMV_OK &&
                  !memcmp(yc, yd, sizeof(TT_VAL) * (size_t)B.nrows),
              "%s %s: another pattern refused, the last values kept", STR(TT_TAG), name);
        TN(csr_free)(&O);
    }
    TN(any_free)(&M);
    TN(csr_free)(&B);
    TN(csr_free)(&A);
    free(x);
    free(yc);
    free(yd);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
