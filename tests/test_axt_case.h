/* Per-type body of tests/test_axt.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* the reference for (alpha, beta) from the plain sums s, a (alpha = 1, beta = 0) */
static double TF(_err)(int64_t nr, const TT_VAL *y, TT_VAL alpha, TT_VAL beta, const TT_VAL *y0, const long double *s,
                       const long double *a, long double *ref, long double *scale) {
    int64_t r;
    for (r = 0; r < nr; r++) {
        ref[r] = (long double)alpha * s[r];
        scale[r] = fabsl((long double)alpha) * a[r];
        if (beta != (TT_VAL)0) {
            ref[r] += (long double)beta * (long double)y0[r];
            scale[r] += fabsl((long double)beta * (long double)y0[r]);
        }
    }
    return TN(max_rel_err)((TT_IDX)nr, y, ref, scale);
}

/* builds variant v with params p and checks products (several alpha/beta, a changed x,
 * update_x + mv_kernel) and the round trip; returns 0 when the conversion failed */
static int TF(_one)(const char *mname, const TN(csr) * R, spmv_axt_variant v, spmv_axt_params p, int lvl,
                    TT_VAL *x, const TT_VAL *x1, const TT_VAL *x2, const TT_VAL *y0, TT_VAL *y, const long double *s1,
                    const long double *a1, const long double *s2, const long double *a2, long double *ref,
                    long double *scale) {
    static const double ab_full[][2] = {{1, 0}, {-0.5, 2}, {0, 1.5}, {2.5, 0}, {1, 1}};
    static const double ab_real[][2] = {{1, 0}, {-0.5, 2}};
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    const double(*ab)[2] = lvl == LVL_FULL ? ab_full : ab_real;
    const int nab = lvl == LVL_FULL ? 5 : 2;
    const int64_t nr = R->nrows, nc = R->ncols;
    const char *vn = spmv_axt_variant_name(v);
    char prm[64];
    TN(axt) A;
    spmv_status st;
    double worst = 0, e;
    int c, bad = -1, want_w;
    int64_t i;
    st = TN(axt_from_csr)(&A, R, v, &p, NULL);
    CHECK(st == SPMV_OK, "%s [%s %s %s thw=%d th=%d bs=%d]: convert: %s", mname, STR(TT_TAG), vn,
          spmv_isa_name(p.isa), p.thw, p.th, p.bs, spmv_status_str(st));
    if (st != SPMV_OK) return 0;
    TN(axt_params_str)(&A, prm, sizeof prm);
    want_w = p.thw ? p.thw : (int)((p.isa == SPMV_ISA_AVX512 ? 64 : 32) / sizeof(TT_VAL));
    CHECK(A.params.isa == p.isa && A.params.thw == want_w && A.variant == v, "%s [%s %s %s]: built for %s thw=%d",
          mname, STR(TT_TAG), vn, spmv_isa_name(p.isa), spmv_isa_name(A.params.isa), A.params.thw);
    /* products with x (copied into the caller's buffer x) */
    memcpy(x, x1, sizeof(TT_VAL) * (size_t)(nc + 1));
    for (c = 0; c < nab; c++) {
        TT_VAL alpha = (TT_VAL)ab[c][0], beta = (TT_VAL)ab[c][1];
        for (i = 0; i < nr; i++) y[i] = beta == 0 ? (TT_VAL)NAN : y0[i];
        st = TN(axt_mv)(&A, alpha, x, beta, y);
        e = st == SPMV_OK ? TF(_err)(nr, y, alpha, beta, y0, s1, a1, ref, scale) : INFINITY;
        if (!(e <= worst)) { worst = e; if (!(e <= tol)) bad = c; }
    }
    CHECK(worst <= tol, "%s [%s %s %s %s]: max rel err %.3g > %.1g (alpha=%g beta=%g)", mname, STR(TT_TAG), vn,
          spmv_isa_name(p.isa), prm, worst, tol, bad >= 0 ? ab[bad][0] : 0.0, bad >= 0 ? ab[bad][1] : 0.0);
    /* x changed in place: _mv must see it */
    memcpy(x, x2, sizeof(TT_VAL) * (size_t)(nc + 1));
    for (i = 0; i < nr; i++) y[i] = (TT_VAL)NAN;
    st = TN(axt_mv)(&A, (TT_VAL)1.5, x, (TT_VAL)0, y);
    e = st == SPMV_OK ? TF(_err)(nr, y, (TT_VAL)1.5, (TT_VAL)0, y0, s2, a2, ref, scale) : INFINITY;
    CHECK(e <= tol, "%s [%s %s %s %s]: x changed in place: err %.3g", mname, STR(TT_TAG), vn, spmv_isa_name(p.isa),
          prm, e);
    /* update_x with the first x, then kernel-only products */
    st = TN(axt_update_x)(&A, x1);
    memcpy(y, y0, sizeof(TT_VAL) * (size_t)nr);
    if (st == SPMV_OK) st = TN(axt_mv_kernel)(&A, (TT_VAL)-2, (TT_VAL)0.5, y);
    e = st == SPMV_OK ? TF(_err)(nr, y, (TT_VAL)-2, (TT_VAL)0.5, y0, s1, a1, ref, scale) : INFINITY;
    CHECK(e <= tol, "%s [%s %s %s %s]: update_x + mv_kernel: err %.3g", mname, STR(TT_TAG), vn,
          spmv_isa_name(p.isa), prm, e);
    /* round trip */
    {
        TN(csr) B;
        int same = 0;
        if (TN(axt_to_csr)(&A, &B) == SPMV_OK) {
            same = B.nrows == R->nrows && B.ncols == R->ncols && B.nnz == R->nnz &&
                   !memcmp(B.row_ptr, R->row_ptr, sizeof(TT_IDX) * (size_t)(R->nrows + 1)) &&
                   (R->nnz == 0 || (!memcmp(B.col_idx, R->col_idx, sizeof(TT_IDX) * (size_t)R->nnz) &&
                                    !memcmp(B.val, R->val, sizeof(TT_VAL) * (size_t)R->nnz)));
            TN(csr_free)(&B);
        }
        CHECK(same, "%s [%s %s %s %s]: round trip to CSR differs", mname, STR(TT_TAG), vn, spmv_isa_name(p.isa), prm);
    }
    CHECK(TN(axt_bytes)(&A) >= TN(axt_kernel_bytes)(&A) &&
              TN(axt_kernel_bytes)(&A) >= (size_t)R->nnz * 2 * sizeof(TT_VAL),
          "%s [%s %s]: footprint %zu / %zu", mname, STR(TT_TAG), vn, TN(axt_bytes)(&A), TN(axt_kernel_bytes)(&A));
    TN(axt_free)(&A);
    return 1;
}

/* the inputs of the products: x1, x2 (NaN and Inf in them when special) and y0 */
static void TF(_inputs)(TT_VAL *x1, TT_VAL *x2, TT_VAL *y0, int64_t nr, int64_t nc, int special) {
    int64_t i;
    for (i = 0; i < nc; i++) {
        x1[i] = (TT_VAL)(((i * 7919 + 13) % 2001) / 1000.0 - 1.0);
        x2[i] = (TT_VAL)(((i * 104723 + 5) % 1777) / 500.0 - 1.5);
    }
    x1[nc] = x2[nc] = 0;
    if (special && nc > 2) {
        x1[nc / 2] = (TT_VAL)NAN;
        x1[nc / 3] = (TT_VAL)INFINITY;
        x2[nc / 4] = (TT_VAL)-INFINITY;
        x2[0] = (TT_VAL)INFINITY; /* padding slots point at x[0]: the masked update path */
    }
    for (i = 0; i < nr; i++) y0[i] = (TT_VAL)(((i * 104729 + 7) % 1999) / 999.0 - 1.0);
}

static void TF(_run)(const char *mname, const spmv_triplets *t, int special, int lvl, int sweep) {
    TN(csr) R;
    spmv_status st;
    TT_VAL *x = NULL, *x1 = NULL, *x2 = NULL, *y0 = NULL, *y = NULL;
    long double *s1, *a1, *s2, *a2, *ref, *scale;
    int64_t nr, nc;
    int v, k;
    long saved_par = 0;
    spmv_csr_params rp = spmv_csr_params_default();
    rp.isa = SPMV_ISA_GENERIC;
    st = TN(csr_from_triplets)(&R, t, &rp, NULL);
    CHECK(st == SPMV_OK, "%s [%s]: csr_from_triplets: %s", mname, STR(TT_TAG), spmv_status_str(st));
    if (st != SPMV_OK) return;
    nr = R.nrows;
    nc = R.ncols;
    x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    x1 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    x2 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    s1 = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    a1 = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    s2 = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    a2 = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    ref = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    scale = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
    if (!x || !x1 || !x2 || !y0 || !y || !s1 || !a1 || !s2 || !a2 || !ref || !scale) abort();
    TF(_inputs)(x1, x2, y0, nr, nc, special);
    TN(csr_mv_ref)(&R, (TT_VAL)1, x1, (TT_VAL)0, y0, s1, a1);
    TN(csr_mv_ref)(&R, (TT_VAL)1, x2, (TT_VAL)0, y0, s2, a2);

    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_; v++) {
        for (k = 0; k < g_ncfg; k++) {
            spmv_axt_params p = spmv_axt_params_default();
            p.isa = g_cfg[k].isa;
            p.thw = g_cfg[k].thw;
            if (g_gw >= 0 && p.isa == SPMV_ISA_GENERIC && p.thw != 4 << g_gw) continue;
            TF(_one)(mname, &R, (spmv_axt_variant)v, p, lvl, x, x1, x2, y0, y, s1, a1, s2, a2, ref, scale);
        }
        if (!sweep) continue;
        /* parameter sweep on the portable width-4 kernels and the widest native ISA;
         * single-threaded unless sweep > 1 (fork/join costs dominate on a loaded box) */
        if (sweep < 2 && g_par_min < 20000) saved_par = g_par_min, g_par_min = 20000;
        for (k = 0; k < g_ncfg; k += g_ncfg - 1) {
            spmv_axt_params p = spmv_axt_params_default();
            size_t j;
            p.isa = g_cfg[k].isa;
            p.thw = g_cfg[k].thw;
            if (v == SPMV_AXTUH)
                for (j = 0; j < sizeof sweep_th_uh / sizeof sweep_th_uh[0]; j++) {
                    p.th = sweep_th_uh[j];
                    TF(_one)(mname, &R, (spmv_axt_variant)v, p, LVL_REAL, x, x1, x2, y0, y, s1, a1, s2, a2, ref, scale);
                }
            if (v == SPMV_AXTCH)
                for (j = 0; j < sizeof sweep_th_ch / sizeof sweep_th_ch[0]; j++) {
                    p.th = sweep_th_ch[j];
                    TF(_one)(mname, &R, (spmv_axt_variant)v, p, LVL_REAL, x, x1, x2, y0, y, s1, a1, s2, a2, ref, scale);
                }
            if (v == SPMV_AXTCH1)
                for (j = 0; j < sizeof sweep_bs / sizeof sweep_bs[0]; j++) {
                    int w = p.thw ? p.thw : (int)((p.isa == SPMV_ISA_AVX512 ? 64 : 32) / sizeof(TT_VAL));
                    p.bs = sweep_bs[j] ? sweep_bs[j] : w;
                    if (p.bs < w) continue;
                    TF(_one)(mname, &R, (spmv_axt_variant)v, p, LVL_REAL, x, x1, x2, y0, y, s1, a1, s2, a2, ref, scale);
                }
            if (g_ncfg == 1) break;
        }
        if (saved_par) g_par_min = saved_par, saved_par = 0;
    }
    TN(csr_free)(&R);
    free(x); free(x1); free(x2); free(y0); free(y);
    free(s1); free(a1); free(s2); free(a2); free(ref); free(scale);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
