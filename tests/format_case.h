/* Per-type body of tests/test_format.c, included once per (TT_TAG, TT_VAL, TT_IDX). Every
 * host format of the family under test x backend (portable at every width for
 * width-dependent layouts, AVX2, AVX-512 native or emulated) against the long-double
 * reference, for several (alpha, beta) including beta = 0 with NaN in y; round trip to CSR;
 * malformed CSR; the zero-copy wrap. */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

static const double TF(_ab)[][2] = {{1, 0}, {-0.5, 2}, {0, 1.5}, {2.5, 0}, {1, 1}};
#define TT_NAB 5
/* One matrix's inputs and its long-double references, computed once and shared by every
 * format x backend: [0..TT_NAB) the (alpha, beta) pairs with x; [TT_NAB] alpha 1.5, beta 0
 * with x2 (x changed in place); [TT_NAB+1] alpha -2, beta 0.5 with x. */
typedef struct TF(_case) {
    const TN(csr) * R;
    const TT_VAL *x, *x2, *y0;
    TT_VAL *y;
    long double *ref[TT_NAB + 2], *scale[TT_NAB + 2];
} TF(_case);

#if SPMV_CAT(SPMV_LIMITED_, TEST_FAMILY)
/* A family with a documented size cap (SPMV_LIMITED_<family>, e.g. ELL's padding) provides
 * spmv_<tag>_<family>_limited(csr, params, isa): 1 when the converter must refuse the matrix
 * with SPMV_ERR_LIMIT. The converter must refuse exactly then (tests/test_<family>.c checks
 * the predicate itself against hand-computed sizes). */
static int TF(_limited)(const TN(csr) * R, spmv_format f, const char *params, spmv_isa isa) {
    spmv_any_params ap;
    if (spmv_any_params_init(f, params, &ap, NULL) != SPMV_OK) return 0;
    return TN(SPMV_CAT(TEST_FAMILY, _limited))(R, (const void *)&ap, isa);
}
#endif

/* one format, one backend */
static void TF(_one)(const char *mname, const TF(_case) * k, spmv_format f, spmv_isa isa, int width) {
    const TN(csr) *R = k->R;
    const TT_VAL *x = k->x, *y0 = k->y0;
    TT_VAL *y = k->y;
    const int nab = TT_NAB;
    const double tol = sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5;
    const char *fname = spmv_format_name(f);
    char params[32], cfg[64];
    TN(any) M;
    spmv_error e;
    spmv_status st;
    double worst = 0;
    int bad_ab = -1, c;
    int64_t i, nr = R->nrows;
    params[0] = 0;
    if (width) snprintf(params, sizeof params, "w=%d", width);
    snprintf(cfg, sizeof cfg, "%s %s %s%s%s", STR(TT_TAG), fname, spmv_isa_name(isa), width ? " " : "", params);
    {
        const spmv_opts o = th_opts(f, isa, params);
        st = TN(any_from_csr)(&M, R, &o, &e);
    }
#if SPMV_CAT(SPMV_LIMITED_, TEST_FAMILY)
    if (TF(_limited)(R, f, params, isa)) {
        CHECK(st == SPMV_ERR_LIMIT, "%s [%s]: over the documented size cap, the conversion gave %s", mname, cfg,
              spmv_status_str(st));
        if (st == SPMV_OK) TN(any_free)(&M);
        return;
    }
#endif
    CHECK(st == SPMV_OK, "%s [%s]: convert: %s %s", mname, cfg, spmv_status_str(st), e.msg);
    if (st != SPMV_OK) return;
    for (c = 0; c < nab; c++) {
        TT_VAL alpha = (TT_VAL)TF(_ab)[c][0], beta = (TT_VAL)TF(_ab)[c][1];
        double err;
        for (i = 0; i < nr; i++) y[i] = beta == 0 ? (TT_VAL)NAN : y0[i];
        st = TN(any_mv)(&M, alpha, x, beta, y);
        if (st != SPMV_OK) {
            worst = INFINITY;
            bad_ab = c;
            break;
        }
        err = TN(max_rel_err)((TT_IDX)nr, y, k->ref[c], k->scale[c]);
        if (!(err <= worst)) {
            worst = err;
            if (!(err <= tol)) bad_ab = c;
        }
    }
    CHECK(worst <= tol, "%s [%s]: max rel err %.3g > %.1g (alpha=%g beta=%g)", mname, cfg, worst, tol,
          bad_ab >= 0 ? TF(_ab)[bad_ab][0] : 0.0, bad_ab >= 0 ? TF(_ab)[bad_ab][1] : 0.0);
    if (TN(any_embeds_x)(&M) && R->ncols > 0) { /* the copy of x inside the layout must follow x */
        double err;
        for (i = 0; i < nr; i++) y[i] = (TT_VAL)NAN;
        st = TN(any_mv)(&M, (TT_VAL)1.5, k->x2, (TT_VAL)0, y); /* x changed in place */
        err = st == SPMV_OK ? TN(max_rel_err)((TT_IDX)nr, y, k->ref[TT_NAB], k->scale[TT_NAB]) : INFINITY;
        CHECK(err <= tol, "%s [%s]: x changed in place: err %.3g", mname, cfg, err);
        st = TN(any_update_x)(&M, x); /* then products with that x alone */
        for (i = 0; i < nr; i++) y[i] = y0[i];
        if (st == SPMV_OK) st = TN(any_mv_kernel)(&M, (TT_VAL)-2, NULL, (TT_VAL)0.5, y);
        err = st == SPMV_OK ? TN(max_rel_err)((TT_IDX)nr, y, k->ref[TT_NAB + 1], k->scale[TT_NAB + 1]) : INFINITY;
        CHECK(err <= tol, "%s [%s]: update_x + mv_kernel: err %.3g", mname, cfg, err);
    }
    { /* a symmetric format holds about half of the entries: the lower triangle and the diagonal;
         csrdu may hold a table of distinct values (or one value) instead of a value per entry,
         and still a byte per entry for its columns */
        int64_t held = (int64_t)R->nnz, r, q;
        const size_t per = f == SPMV_FMT_CSRDU ? 1 : sizeof(TT_VAL);
        if (spmv_format_flags(f) & SPMV_FF_SYMMETRIC)
            for (held = 0, r = 0; r < nr; r++)
                for (q = R->row_ptr[r]; q < R->row_ptr[r + 1]; q++) held += R->col_idx[q] <= r;
        CHECK(TN(any_bytes)(&M) >= (size_t)held * per && TN(any_stored)(&M) >= held,
              "%s [%s]: footprint %zu, %lld slots for %lld entries held", mname, cfg, TN(any_bytes)(&M),
              (long long)TN(any_stored)(&M), (long long)held);
    }
    CHECK(TN(any_isa)(&M) == isa, "%s [%s]: kernel ISA %s", mname, cfg, spmv_isa_name(TN(any_isa)(&M)));
    { /* the layout round-trips: converting back reproduces the CSR matrix */
        TN(csr) B;
        int same = 0;
        if (TN(any_to_csr)(&M, &B) == SPMV_OK) {
            same = B.nrows == R->nrows && B.ncols == R->ncols && B.nnz == R->nnz &&
                   !memcmp(B.row_ptr, R->row_ptr, sizeof(TT_IDX) * (size_t)(R->nrows + 1)) &&
                   !memcmp(B.col_idx, R->col_idx, sizeof(TT_IDX) * (size_t)R->nnz) &&
                   !memcmp(B.val, R->val, sizeof(TT_VAL) * (size_t)R->nnz);
            TN(csr_free)(&B);
        }
        CHECK(same, "%s [%s]: converting back to CSR differs", mname, cfg);
    }
    TN(any_free)(&M);
}

/* Runs every format of the family x backend on triplets t; x gets NaN/Inf when special
 * is set; width-dependent formats run portable at every width when all_widths is set,
 * else at one width, rotating from call to call (the real matrices). */
static void TF(_run)(const char *mname, const spmv_triplets *t, int special, int all_widths) {
    static const int widths[] = {4, 8, 16, 32};
    TN(csr) R;
    TF(_case) k;
    int f, isa, w, c;
    spmv_status st;
    TT_VAL *x = NULL, *x2 = NULL, *y0 = NULL, *y = NULL;
    int64_t i, nr, nc;
    spmv_csr_params rp = spmv_csr_params_default();

    rp.isa = SPMV_ISA_GENERIC;
    st = TN(csr_from_triplets)(&R, t, &rp, NULL);
    if (st == SPMV_ERR_OVERFLOW && sizeof(TT_IDX) == 4) {
        CHECK(t->nrows >= INT32_MAX || t->ncols >= INT32_MAX || t->nnz > INT32_MAX, "%s: unexpected overflow", mname);
        return;
    }
    CHECK(st == SPMV_OK, "%s [%s]: csr_from_triplets: %s", mname, STR(TT_TAG), spmv_status_str(st));
    if (st != SPMV_OK) return;
    nr = R.nrows;
    nc = R.ncols;
    x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    x2 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nc + 1));
    y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(nr + 1));
    if (!x || !x2 || !y0 || !y) abort();
    for (i = 0; i < nc; i++) x[i] = (TT_VAL)(((i * 7919 + 13) % 2001) / 1000.0 - 1.0);
    if (special && nc > 2) {
        x[nc / 2] = (TT_VAL)NAN;
        x[nc / 3] = (TT_VAL)INFINITY;
    }
    for (i = 0; i < nc; i++) x2[i] = i % 3 ? x[i] : (TT_VAL)0.25 - x[i];
    for (i = 0; i < nr; i++) y0[i] = (TT_VAL)(((i * 104729 + 7) % 1999) / 999.0 - 1.0);
    k.R = &R;
    k.x = x;
    k.x2 = x2;
    k.y0 = y0;
    k.y = y;
    for (c = 0; c < TT_NAB + 2; c++) {
        TT_VAL alpha = c < TT_NAB ? (TT_VAL)TF(_ab)[c][0] : c == TT_NAB ? (TT_VAL)1.5 : (TT_VAL)-2;
        TT_VAL beta = c < TT_NAB ? (TT_VAL)TF(_ab)[c][1] : c == TT_NAB ? (TT_VAL)0 : (TT_VAL)0.5;
        k.ref[c] = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
        k.scale[c] = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));
        if (!k.ref[c] || !k.scale[c]) abort();
        TN(csr_mv_ref)(&R, alpha, c == TT_NAB ? x2 : x, beta, y0, k.ref[c], k.scale[c]);
    }

    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!test_in_family((spmv_format)f)) continue;
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            if (!test_isa_on((spmv_isa)isa)) continue;
            if (isa == SPMV_ISA_GENERIC && !all_widths && test_generic_cap >= 0 && (int64_t)R.nnz > test_generic_cap) {
                test_generic_skipped++; /* the portable kernels on the big real matrices: see the notice */
                continue;
            }
            if (isa == SPMV_ISA_AVX2 && test_avx2_cap >= 0 && (int64_t)R.nnz > test_avx2_cap &&
                test_isa_on(SPMV_ISA_AVX512)) {
                test_avx2_skipped++; /* AVX-512 runs the same kernel source on them: see the notice */
                continue;
            }
            if (isa == SPMV_ISA_GENERIC && (spmv_format_flags((spmv_format)f) & SPMV_FF_WIDTH)) {
                if (all_widths)
                    for (w = 0; w < 4; w++)
                        TF(_one)(mname, &k, (spmv_format)f, SPMV_ISA_GENERIC, widths[w]);
                else
                    TF(_one)(mname, &k, (spmv_format)f, SPMV_ISA_GENERIC, widths[test_rotate++ % 4]);
            } else {
                TF(_one)(mname, &k, (spmv_format)f, (spmv_isa)isa, 0);
            }
        }
    }
    TN(csr_free)(&R);
    for (c = 0; c < TT_NAB + 2; c++) {
        free(k.ref[c]);
        free(k.scale[c]);
    }
    free(x);
    free(x2);
    free(y0);
    free(y);
}

/* Malformed CSR arrays handed to every converter of the family and to csr_wrap: each
 * must come back SPMV_ERR_ARG or SPMV_ERR_OVERFLOW (and never touch memory it should not:
 * the sanitizer build runs this too). */
static void TF(_malformed)(void) {
    TT_IDX rp_ok[4] = {0, 2, 3, 5}, rp_dec[4] = {0, 3, 2, 5}, rp_start[4] = {1, 2, 3, 5}, rp_end[4] = {0, 2, 3, 4};
    TT_IDX ci_ok[5] = {0, 2, 1, 0, 3}, ci_big[5] = {0, 2, 1, 0, 4}, ci_neg[5] = {0, 2, -1, 0, 3};
    TT_VAL v[5] = {1, 2, 3, 4, 5};
    struct {
        const char *what;
        TT_IDX nrows, ncols, nnz;
        TT_IDX *rp, *ci;
        TT_VAL *val;
    } bad[] = {
        {"non-monotone row_ptr", 3, 4, 5, rp_dec, ci_ok, v},
        {"row_ptr[0] != 0", 3, 4, 5, rp_start, ci_ok, v},
        {"row_ptr[nrows] != nnz", 3, 4, 5, rp_end, ci_ok, v},
        {"column == ncols", 3, 4, 5, rp_ok, ci_big, v},
        {"negative column", 3, 4, 5, rp_ok, ci_neg, v},
        {"negative nrows", -3, 4, 5, rp_ok, ci_ok, v},
        {"negative ncols", 3, -4, 5, rp_ok, ci_ok, v},
        {"negative nnz", 3, 4, -5, rp_ok, ci_ok, v},
        {"NULL row_ptr", 3, 4, 5, NULL, ci_ok, v},
        {"NULL col_idx", 3, 4, 5, rp_ok, NULL, v},
        {"NULL val", 3, 4, 5, rp_ok, ci_ok, NULL},
        {"nrows = index max", (TT_IDX)SPMV_IMAX_OF(TT_IDX), 4, 5, rp_ok, ci_ok, v},
    };
    size_t b;
    int f;
    for (b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        TN(csr) A;
        memset(&A, 0, sizeof A);
        A.nrows = bad[b].nrows;
        A.ncols = bad[b].ncols;
        A.nnz = bad[b].nnz;
        A.row_ptr = bad[b].rp;
        A.col_idx = bad[b].ci;
        A.val = bad[b].val;
        A.params = spmv_csr_params_default();
        A.borrowed = 1;
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {
            TN(any) M;
            spmv_status st;
            if (!test_in_family((spmv_format)f)) continue;
            {
                const spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
                st = TN(any_from_csr)(&M, &A, &o, NULL);
            }
            CHECK(st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW, "[%s %s] malformed CSR (%s): got %s", STR(TT_TAG),
                  spmv_format_name((spmv_format)f), bad[b].what, spmv_status_str(st));
            CHECK(th_all_zero(&M, sizeof M), "[%s %s] malformed CSR (%s): handle not left empty", STR(TT_TAG),
                  spmv_format_name((spmv_format)f), bad[b].what);
        }
        if (bad[b].nrows >= 0 && bad[b].rp && bad[b].rp != rp_end) { /* wrap sees nnz = row_ptr[nrows] */
            TN(csr) W;
            spmv_status st = TN(csr_wrap)(&W, bad[b].nrows, bad[b].ncols, bad[b].rp, bad[b].ci, bad[b].val, NULL, NULL);
            if (bad[b].nnz < 0) continue; /* wrap takes nnz from row_ptr: nothing wrong to see */
            CHECK(st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW, "[%s] csr_wrap (%s): got %s", STR(TT_TAG),
                  bad[b].what, spmv_status_str(st));
            CHECK(th_all_zero(&W, sizeof W), "[%s] csr_wrap (%s): not left empty", STR(TT_TAG), bad[b].what);
        }
    }
    { /* sizes beyond the index type and negative sizes through the wrap's 64-bit arguments */
        TN(csr) W;
        /* nrows, ncols = the index type's max: no room for the +1 (int64: the largest int64) */
        spmv_status st = TN(csr_wrap)(&W, SPMV_IMAX_OF(TT_IDX), 4, rp_ok, ci_ok, v, NULL, NULL);
        CHECK(st == SPMV_ERR_OVERFLOW, "[%s] csr_wrap nrows = index max: %s", STR(TT_TAG), spmv_status_str(st));
        st = TN(csr_wrap)(&W, 3, SPMV_IMAX_OF(TT_IDX), rp_ok, ci_ok, v, NULL, NULL);
        CHECK(st == SPMV_ERR_OVERFLOW, "[%s] csr_wrap ncols = index max: %s", STR(TT_TAG), spmv_status_str(st));
        if (sizeof(TT_IDX) == 4) {
            st = TN(csr_wrap)(&W, (int64_t)INT32_MAX + 5, 4, rp_ok, ci_ok, v, NULL, NULL);
            CHECK(st == SPMV_ERR_OVERFLOW, "[%s] csr_wrap nrows > index max: %s", STR(TT_TAG), spmv_status_str(st));
        }
        st = TN(csr_wrap)(&W, -1, 4, rp_ok, ci_ok, v, NULL, NULL);
        CHECK(st == SPMV_ERR_ARG, "[%s] csr_wrap negative nrows: %s", STR(TT_TAG), spmv_status_str(st));
        st = TN(csr_wrap)(&W, 3, -1, rp_ok, ci_ok, v, NULL, NULL);
        CHECK(st == SPMV_ERR_ARG, "[%s] csr_wrap negative ncols: %s", STR(TT_TAG), spmv_status_str(st));
    }
    if (sizeof(TT_IDX) == 4) { /* nnz above the index type, through the triplets */
        spmv_triplets t;
        TN(csr) A;
        int64_t dummy = 0;
        double dv = 0;
        memset(&t, 0, sizeof t);
        t.nrows = 3;
        t.ncols = 3;
        t.nnz = (int64_t)INT32_MAX + 1;
        t.row = t.col = &dummy;
        t.val = &dv;
        CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_ERR_OVERFLOW, "[%s] nnz above the index type not refused",
              STR(TT_TAG));
    }
}

/* The zero-copy wrap: borrows (free leaves the caller's arrays), every format of the
 * family converts from it and multiplies right, unsorted columns included. */
static void TF(_wrap)(void) {
    TT_IDX *rp = (TT_IDX *)malloc(5 * sizeof(TT_IDX)), *ci = (TT_IDX *)malloc(7 * sizeof(TT_IDX));
    TT_VAL *v = (TT_VAL *)malloc(7 * sizeof(TT_VAL)), x[5] = {1, 2, 3, 4, 5}, y[4];
    static const TT_IDX rp0[5] = {0, 2, 2, 5, 7}, ci0[7] = {4, 0, 1, 3, 2, 0, 4}; /* unsorted rows */
    static const double v0[7] = {1, -2, 3, 0.5, 4, -1, 2}, yref[4] = {1 * 5 - 2 * 1, 0, 3 * 2 + 0.5 * 4 + 4 * 3, -1 + 2 * 5};
    TN(csr) W;
    long live;
    int f, i;
    spmv_status st;
    if (!rp || !ci || !v) abort();
    memcpy(rp, rp0, sizeof rp0);
    memcpy(ci, ci0, sizeof ci0);
    for (i = 0; i < 7; i++) v[i] = (TT_VAL)v0[i];
    live = th_alloc_live;
    st = TN(csr_wrap)(&W, 4, 5, rp, ci, v, NULL, NULL);
    CHECK(st == SPMV_OK && W.borrowed && W.row_ptr == rp && W.nnz == 7, "[%s] csr_wrap: %s", STR(TT_TAG),
          spmv_status_str(st));
    CHECK(th_alloc_live == live, "[%s] csr_wrap allocated", STR(TT_TAG));
    if (st != SPMV_OK) return;
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        TN(any) M;
        int ok = 1;
        if (!test_in_family((spmv_format)f)) continue;
        {
            const spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
            st = TN(any_from_csr)(&M, &W, &o, NULL);
        }
        if (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) { /* W is 4 x 5: refused; then a symmetric wrap */
            static const TT_IDX srp[5] = {0, 3, 5, 8, 10}, sci[10] = {3, 0, 1, 2, 0, 2, 1, 2, 3, 0};
            static const double sv[10] = {3, 2, 1, 4, 1, 2.5, 4, 2.5, 1, 3}, sref[4] = {16, 13, 23, 7};
            TT_VAL svv[10];
            TN(csr) S;
            CHECK(st == SPMV_ERR_ARG, "[%s %s] from a 4 x 5 wrapped CSR: %s", STR(TT_TAG), spmv_format_name((spmv_format)f),
                  spmv_status_str(st));
            if (st == SPMV_OK) TN(any_free)(&M);
            for (i = 0; i < 10; i++) svv[i] = (TT_VAL)sv[i];
            /* unsorted rows, (2,2) given twice (2.5 + 2.5) */
            st = TN(csr_wrap)(&S, 4, 4, srp, sci, svv, NULL, NULL);
            if (st == SPMV_OK) {
                const spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
                st = TN(any_from_csr)(&M, &S, &o, NULL);
            }
            if (st == SPMV_OK) {
                st = TN(any_mv)(&M, 1, x, 0, y);
                for (i = 0; i < 4; i++) ok = ok && fabs((double)y[i] - sref[i]) < 1e-5;
                TN(any_free)(&M);
            }
            CHECK(st == SPMV_OK && ok, "[%s %s] product from a wrapped symmetric CSR (unsorted, a repeat): %s",
                  STR(TT_TAG), spmv_format_name((spmv_format)f), spmv_status_str(st));
            TN(csr_free)(&S);
            continue;
        }
        CHECK(st == SPMV_OK, "[%s %s] from wrapped CSR: %s", STR(TT_TAG), spmv_format_name((spmv_format)f),
              spmv_status_str(st));
        if (st != SPMV_OK) continue;
        st = TN(any_mv)(&M, 1, x, 0, y);
        for (i = 0; i < 4; i++) ok = ok && fabs((double)y[i] - yref[i]) < 1e-5;
        CHECK(st == SPMV_OK && ok, "[%s %s] product from wrapped CSR wrong", STR(TT_TAG),
              spmv_format_name((spmv_format)f));
        TN(any_free)(&M);
    }
    TN(csr_free)(&W);
    CHECK(rp[4] == 7 && ci[0] == 4 && v[2] == (TT_VAL)3 && th_alloc_live == live,
          "[%s] csr_free of a wrap touched the caller's arrays", STR(TT_TAG));
    free(rp);
    free(ci);
    free(v);
}
#undef TT_NAB
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
