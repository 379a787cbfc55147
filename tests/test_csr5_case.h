/* Per-type body of tests/test_csr5.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* Structure of M against its CSR source R; returns 0, or a code naming the first mismatch. */
static int TF(_verify)(const TN(csr5) *M, const TN(csr) *R) {
    const int w = M->params.omega, s = M->params.sigma;
    const TT_IDX T = (TT_IDX)w * s;
    const TN(csr5_uidx) top = (TN(csr5_uidx))1 << (sizeof(TN(csr5_uidx)) * 8 - 1);
    TT_IDX *row_of, t, r, k, ne = 0, eo_total = 0;
    unsigned char *start;
    int code = 0, i, j;
    if (M->nrows != R->nrows || M->ncols != R->ncols || M->nnz != R->nnz) return 1;
    if (M->ntiles != R->nnz / T) return 2;
    if (memcmp(M->row_ptr, R->row_ptr, sizeof(TT_IDX) * (size_t)(R->nrows + 1))) return 3;
    row_of = (TT_IDX *)malloc(sizeof(TT_IDX) * (size_t)(R->nnz + 1));
    start = (unsigned char *)calloc((size_t)R->nnz + 1, 1);
    for (r = 0; r < R->nrows; r++) {
        for (k = R->row_ptr[r]; k < R->row_ptr[r + 1]; k++) row_of[k] = r;
        if (R->row_ptr[r + 1] > R->row_ptr[r]) start[R->row_ptr[r]] = 1;
        else if (ne < M->nempty && M->empty_rows[ne] == r) ne++;
        else code = code ? code : 4;
    }
    if (!code && ne != M->nempty) code = 5;
    for (t = 0; t < M->ntiles && !code; t++) {
        const uint32_t *d = M->tile_desc + (size_t)t * (size_t)M->desc_words;
        TT_IDX e0 = t * T, row0 = row_of[e0], nseg = 0, prev = -1, segs[4096];
        int cnt[32] = {0}, consecutive = 1;
        unsigned yo = 0;
        if ((TT_IDX)(M->tile_ptr[t] & ~top) != row0) { code = 10; break; }
        for (i = 0; i < w && !code; i++)
            for (j = 0; j < s; j++) {
                TT_IDX src = e0 + (TT_IDX)i * s + j, dst = e0 + (TT_IDX)j * w + i;
                unsigned bit = (unsigned)(j * w + i);
                int flag = (int)((d[bit >> 5] >> (bit & 31)) & 1u), want = src == e0 || start[src];
                if (memcmp(&M->val[dst], &R->val[src], sizeof(TT_VAL)) || M->col_idx[dst] != R->col_idx[src]) {
                    code = 11;
                    break;
                }
                if (flag != want) { code = 12; break; }
                if (flag) {
                    cnt[i]++;
                    segs[nseg++] = row_of[src];
                    if (prev >= 0 && row_of[src] != prev + 1) consecutive = 0;
                    prev = row_of[src];
                }
            }
        for (k = 0; k < M->flag_words * 32 && !code; k++) /* no stray bits past w*s */
            if (k >= T && ((d[k >> 5] >> (k & 31)) & 1u)) code = 13;
        for (i = 0; i < w && !code; i++) {
            unsigned slot = (d[M->flag_words + (i >> 1)] >> ((i & 1) * 16)) & 0xFFFFu, so = 0;
            int q;
            for (q = i + 1; q < w && cnt[q] == 0; q++) so++;
            if ((slot & ((1u << M->ybits) - 1u)) != yo || (slot >> M->ybits) != so) code = 14;
            yo += (unsigned)cnt[i];
        }
        if (code) break;
        if (consecutive != !(M->tile_ptr[t] & top)) { code = 15; break; }
        if (!consecutive) {
            if (M->empty_ptr[t] != eo_total || M->empty_ptr[t + 1] - M->empty_ptr[t] != nseg) { code = 16; break; }
            for (k = 0; k < nseg; k++)
                if (M->empty_offset[eo_total + k] != segs[k] - row0) code = 17;
            eo_total += nseg;
        } else if (M->empty_ptr[t + 1] != M->empty_ptr[t]) {
            code = 18;
        }
    }
    if (!code && M->nnz > M->ntiles * T && (TT_IDX)(M->tile_ptr[M->ntiles] & ~top) != row_of[M->ntiles * T]) code = 19;
    for (k = M->ntiles * T; k < M->nnz && !code; k++)
        if (memcmp(&M->val[k], &R->val[k], sizeof(TT_VAL)) || M->col_idx[k] != R->col_idx[k]) code = 20;
    free(row_of);
    free(start);
    return code;
}

/* round trip to CSR, exactly */
static void TF(_roundtrip)(const TN(csr5) * M, const TN(csr) * R, const char *mname, const char *cfg) {
    TN(csr) R2;
    int same = 0;
    if (TN(csr5_to_csr)(M, &R2) == SPMV_OK) {
        same = R2.nrows == R->nrows && R2.ncols == R->ncols && R2.nnz == R->nnz &&
               !memcmp(R2.row_ptr, R->row_ptr, sizeof(TT_IDX) * (size_t)(R->nrows + 1)) &&
               !memcmp(R2.col_idx, R->col_idx, sizeof(TT_IDX) * (size_t)R->nnz) &&
               !memcmp(R2.val, R->val, sizeof(TT_VAL) * (size_t)R->nnz) && R2.params.isa == M->params.isa;
        TN(csr_free)(&R2);
    }
    CHECK(same, "%s [%s]: CSR5 -> CSR round trip differs", mname, cfg);
}

/* M's products at every thread count x (alpha, beta) of o against ref/scale: one CHECK, the worst */
static void TF(_products)(const TN(csr5) * M, const case_opts *o, const TT_VAL *x, const TT_VAL *y0, TT_VAL *y,
                          int64_t nr, long double *const *ref, long double *const *scale, const char *mname,
                          const char *cfg) {
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    double worst = 0;
    int bad_c = -1, bad_t = 0, ti, c;
    int64_t i;
    for (ti = 0; ti < o->nthr; ti++) {
        const int nab = o->lite && o->thr[ti] == 1 ? 1 : o->nab;
        set_threads(o->thr[ti]);
        for (c = 0; c < nab; c++) {
            TT_VAL alpha = (TT_VAL)AB[c][0], beta = (TT_VAL)AB[c][1];
            spmv_status st;
            double e;
            for (i = 0; i < nr; i++) y[i] = beta == 0 ? (TT_VAL)NAN : y0[i];
            st = TN(csr5_mv)(M, alpha, x, beta, y);
            e = st == SPMV_OK ? TN(max_rel_err)((TT_IDX)nr, y, ref[c], scale[c]) : INFINITY;
            if (!(e <= worst)) {
                worst = e;
                if (!(e <= tol)) {
                    bad_c = c;
                    bad_t = o->thr[ti];
                }
            }
        }
    }
    set_threads(max_thr);
    CHECK(worst <= tol, "%s [%s]: max rel err %.3g > %.1g (alpha=%g beta=%g, %d threads)", mname, cfg, worst, tol,
          bad_c >= 0 ? AB[bad_c][0] : 0.0, bad_c >= 0 ? AB[bad_c][1] : 0.0, bad_t);
}

/* Every backend x sigma x threads x (alpha, beta) of o on triplets t. */
static void TF(_run)(const char *mname, const spmv_triplets *t, const case_opts *o) {
    TN(csr) R;
    spmv_status st;
    TT_VAL *x = NULL, *y0 = NULL, *y = NULL;
    long double *ref[5], *scale[5];
    int64_t i, nr, nc;
    int b, si, c;
    spmv_csr_params rp = spmv_csr_params_default();

    rp.isa = SPMV_ISA_GENERIC;
    st = TN(csr_from_triplets)(&R, t, &rp, NULL);
    CHECK(st == SPMV_OK, "%s [%s]: csr_from_triplets: %s", mname, STR(TT_TAG), spmv_status_str(st));
    if (st != SPMV_OK) return;
    nr = R.nrows;
    nc = R.ncols;
    x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    if (!x || !y0 || !y) abort();
    for (i = 0; i < nc; i++) x[i] = (TT_VAL)(((i * 7919 + 13) % 2001) / 1000.0 - 1.0);
    if (o->special && nc > 2) {
        x[nc / 2] = (TT_VAL)NAN;
        x[nc / 3] = (TT_VAL)INFINITY;
    }
    for (i = 0; i < nr; i++) y0[i] = (TT_VAL)(((i * 104729 + 7) % 1999) / 999.0 - 1.0);
    for (c = 0; c < o->nab; c++) {
        ref[c] = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
        scale[c] = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
        if (!ref[c] || !scale[c]) abort();
        TN(csr_mv_ref)(&R, (TT_VAL)AB[c][0], x, (TT_VAL)AB[c][1], y0, ref[c], scale[c]);
    }
    for (b = 0; b < nback; b++) {
        const int want_w = back_omega[b] ? back_omega[b]
                           : back_isa[b] == SPMV_ISA_AVX2 ? (sizeof(TT_VAL) == 8 ? 4 : 8)
                                                          : (sizeof(TT_VAL) == 8 ? 8 : 16);
        for (si = 0; si < o->nsig; si++) {
            TN(csr5) M;
            spmv_csr5_params p = spmv_csr5_params_default();
            char cfg[96];
            p.isa = back_isa[b];
            p.omega = back_omega[b];
            p.sigma = o->sig[si];
            snprintf(cfg, sizeof cfg, "%s %s w%d s%d", STR(TT_TAG), spmv_isa_name(back_isa[b]), want_w, p.sigma);
            st = TN(csr5_from_csr)(&M, &R, &p, NULL);
            if (st == SPMV_ERR_LIMIT && want_w == 32 && p.sigma > 66) continue; /* a real limit (tested apart) */
            CHECK(st == SPMV_OK, "%s [%s]: convert: %s", mname, cfg, spmv_status_str(st));
            if (st != SPMV_OK) continue;
            CHECK(M.params.isa == back_isa[b] && M.params.omega == want_w && M.params.sigma == o->sig[si],
                  "%s [%s]: object records isa %s omega %d sigma %d", mname, cfg, spmv_isa_name(M.params.isa),
                  M.params.omega, M.params.sigma);
            if (o->verify) {
                int code = TF(_verify)(&M, &R);
                CHECK(code == 0, "%s [%s]: layout check failed (code %d)", mname, cfg, code);
            }
            TF(_roundtrip)(&M, &R, mname, cfg);
            TF(_products)(&M, o, x, y0, y, nr, ref, scale, mname, cfg);
            TN(csr5_free)(&M);
        }
    }
    for (c = 0; c < o->nab; c++) {
        free(ref[c]);
        free(scale[c]);
    }
    TN(csr_free)(&R);
    free(x); free(y0); free(y);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
