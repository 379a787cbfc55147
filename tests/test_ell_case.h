/* Per-type body of tests/test_ell.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* the 5x6 matrix of the layout checks: row lengths 2, 0, 3, 1, 3 */
static void TF(_small)(TN(csr) * A) {
    static const int64_t rr[] = {0, 0, 2, 2, 2, 3, 4, 4, 4};
    static const int64_t cc[] = {1, 4, 0, 3, 5, 2, 0, 1, 5};
    spmv_triplets t;
    int k;
    spmv_triplets_alloc(&t, 5, 6, 9);
    for (k = 0; k < 9; k++) t.row[k] = rr[k], t.col[k] = cc[k], t.val[k] = k + 1;
    CHECK(TN(csr_from_triplets)(A, &t, NULL, NULL) == SPMV_OK, "[%s] small matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
}

#define FC_FAM ell
#include "family_check.h"

static void TF(_layouts)(void) {
    TN(csr) A;
    TN(ell) E, H, S1, S4;
    spmv_ell_params p;
    /* ELL: one slice of 5 rows, width 3, val[j*5 + i] */
    static const int64_t ecol[] = {1, 0, 0, 2, 0, /* j=0 */ 4, 0, 3, 2, 1, /* j=1 */ 4, 0, 5, 2, 5};
    static const double eval[] = {1, 0, 3, 6, 7, 2, 0, 4, 0, 8, 0, 0, 5, 0, 9};
    int k, ok;
    TF(_small)(&A);
    CHECK(TN(ell_from_csr)(&E, &A, NULL, NULL) == SPMV_OK, "[%s] ell", STR(TT_TAG));
    ok = E.nslices == 1 && E.C == 5 && E.slice_ptr[1] == 15 && E.perm == NULL;
    for (k = 0; ok && k < 15; k++) ok = E.col[k] == ecol[k] && E.val[k] == (TT_VAL)eval[k];
    CHECK(ok, "[%s] ell layout: column-major, padding = the row's last column (0 when empty) and 0", STR(TT_TAG));
    CHECK(E.rowlen[0] == 2 && E.rowlen[1] == 0 && E.rowlen[2] == 3 && E.rowlen[3] == 1 && E.rowlen[4] == 3,
          "[%s] ell row lengths", STR(TT_TAG));
    CHECK(TN(ell_bytes)(&E) == 2 * sizeof(TT_IDX) + 15 * (sizeof(TT_IDX) + sizeof(TT_VAL)) + 5 * sizeof(TT_IDX),
          "[%s] ell footprint %zu", STR(TT_TAG), TN(ell_bytes)(&E));
    CHECK(TF(_roundtrip_ok)(&E, &A), "[%s] ell round trip", STR(TT_TAG));
    TF(_product_ok)(&E, &A, NULL, "ell small");
    TN(ell_free)(&E);
    /* HLL hs=2: slices {0,1} width 2, {2,3} width 3, {4} width 3 */
    p = spmv_hll_params_default();
    p.c = 2;
    CHECK(TN(hll_from_csr)(&H, &A, &p, NULL) == SPMV_OK, "[%s] hll hs=2", STR(TT_TAG));
    ok = H.nslices == 3 && H.slice_ptr[1] == 4 && H.slice_ptr[2] == 10 && H.slice_ptr[3] == 13;
    /* slice 1 (rows 2, 3): entry j of local row i at 4 + 2j + i */
    ok = ok && H.col[4] == 0 && H.col[5] == 2 && H.col[6] == 3 && H.col[7] == 2 && H.col[8] == 5 && H.col[9] == 2 &&
         H.val[7] == 0 && H.val[9] == 0;
    CHECK(ok, "[%s] hll layout (hacks of 2 rows, column-major inside)", STR(TT_TAG));
    CHECK(TF(_roundtrip_ok)(&H, &A), "[%s] hll round trip", STR(TT_TAG));
    TF(_product_ok)(&H, &A, NULL, "hll small");
    /* SELL sigma = 1: exactly hll's layout */
    p = spmv_sell_params_default();
    p.c = 2;
    p.sigma = 1;
    CHECK(TN(sell_from_csr)(&S1, &A, &p, NULL) == SPMV_OK, "[%s] sell c=2 sigma=1", STR(TT_TAG));
    CHECK(S1.perm == NULL && S1.nslices == H.nslices &&
              !memcmp(S1.slice_ptr, H.slice_ptr, sizeof(TT_IDX) * (size_t)(H.nslices + 1)) &&
              !memcmp(S1.col, H.col, sizeof(TT_IDX) * 13) && !memcmp(S1.val, H.val, sizeof(TT_VAL) * 13),
          "[%s] sell sigma=1 equals hll", STR(TT_TAG));
    /* SELL sigma = 4: rows 0..3 by length (2,0,3,1) -> 2,0,3,1; then row 4 */
    p.sigma = 4;
    CHECK(TN(sell_from_csr)(&S4, &A, &p, NULL) == SPMV_OK, "[%s] sell c=2 sigma=4", STR(TT_TAG));
    CHECK(S4.perm && S4.perm[0] == 2 && S4.perm[1] == 0 && S4.perm[2] == 3 && S4.perm[3] == 1 && S4.perm[4] == 4 &&
              S4.slice_ptr[1] == 6 && S4.slice_ptr[2] == 8 && S4.slice_ptr[3] == 11,
          "[%s] sell sigma=4: permutation and slice widths", STR(TT_TAG));
    CHECK(TF(_roundtrip_ok)(&S4, &A), "[%s] sell round trip", STR(TT_TAG));
    { /* SELL-P, t = 2: widths 3, 1 (rows 3, 1) and 3 padded to 4, 2, 4 */
        TN(ell) P;
        p.t = 2;
        CHECK(TN(sell_from_csr)(&P, &A, &p, NULL) == SPMV_OK && P.slice_ptr[1] == 8 && P.slice_ptr[2] == 12 &&
                  P.slice_ptr[3] == 16 && P.params.t == 2,
              "[%s] sell t=2: slice widths padded to a multiple of 2", STR(TT_TAG));
        CHECK(TF(_roundtrip_ok)(&P, &A), "[%s] sell t=2 round trip", STR(TT_TAG));
        TF(_product_ok)(&P, &A, NULL, "sell small sigma=4 t=2");
        TN(ell_free)(&P);
        p.t = 3;
        CHECK(TN(sell_from_csr)(&P, &A, &p, NULL) == SPMV_ERR_ARG, "[%s] sell t=3 refused", STR(TT_TAG));
        p.t = 0;
    }
    TF(_product_ok)(&S4, &A, NULL, "sell small sigma=4");
    TN(ell_free)(&H);
    TN(ell_free)(&S1);
    TN(ell_free)(&S4);
    TN(csr_free)(&A);
}

/* JAD and HYB on the small matrix, entry by entry */
static void TF(_jad_hyb_layouts)(void) {
    TN(csr) A;
    TN(ell) J, Y;
    spmv_ell_params p;
    /* JAD: lengths 2,0,3,1,3 -> stored rows 2,4,0,3,1; diagonals of 4, 3, 2 entries */
    static const int64_t jperm[] = {2, 4, 0, 3, 1}, jlen[] = {3, 3, 2, 1, 0}, jjd[] = {0, 4, 7, 9};
    static const int64_t jcol[] = {0, 0, 1, 2, /* j=1 */ 3, 1, 4, /* j=2 */ 5, 5};
    static const double jval[] = {3, 7, 1, 6, 4, 8, 2, 5, 9};
    /* HYB k=2: ELL rows 0..4 of width 2 (column-major), the tail (2,5)=5, (4,5)=9 */
    static const int64_t hcol[] = {1, 0, 0, 2, 0, /* j=1 */ 4, 0, 3, 2, 1};
    static const double hval[] = {1, 0, 3, 6, 7, 2, 0, 4, 0, 8};
    int k, ok;
    TF(_small)(&A);
    CHECK(TN(jad_from_csr)(&J, &A, NULL, NULL) == SPMV_OK, "[%s] jad", STR(TT_TAG));
    ok = J.perm && J.jd && J.rcum && J.width == 3 && J.nslices == 1 && J.slice_ptr[1] == 9;
    for (k = 0; ok && k < 5; k++) ok = J.perm[k] == jperm[k] && J.rowlen[k] == jlen[k];
    for (k = 0; ok && k < 4; k++) ok = J.jd[k] == jjd[k];
    for (k = 0; ok && k < 9; k++) ok = J.col[k] == jcol[k] && J.val[k] == (TT_VAL)jval[k];
    ok = ok && J.rcum[0] == 0 && J.rcum[1] == 9;
    CHECK(ok, "[%s] jad layout: rows by length, jagged diagonals contiguous, no padding", STR(TT_TAG));
    CHECK(TN(ell_bytes)(&J) == 2 * sizeof(TT_IDX) + 9 * (sizeof(TT_IDX) + sizeof(TT_VAL)) + 10 * sizeof(TT_IDX) +
                                   (4 + 2) * sizeof(TT_IDX),
          "[%s] jad footprint %zu", STR(TT_TAG), TN(ell_bytes)(&J));
    CHECK(TF(_roundtrip_ok)(&J, &A), "[%s] jad round trip", STR(TT_TAG));
    TF(_product_ok)(&J, &A, NULL, "jad small");
    TN(ell_free)(&J);
    /* HYB: the rule gives K = 3 here (2 of 5 rows reach 3: 3*2 >= 5), so no tail */
    CHECK(TN(hyb_from_csr)(&Y, &A, NULL, NULL) == SPMV_OK && Y.params.k == 3 && Y.ntail == 0 && Y.slice_ptr[1] == 15,
          "[%s] hyb: K = 3 by the rule, no tail", STR(TT_TAG));
    TN(ell_free)(&Y);
    p = spmv_hyb_params_default();
    p.k = 2;
    CHECK(TN(hyb_from_csr)(&Y, &A, &p, NULL) == SPMV_OK, "[%s] hyb k=2", STR(TT_TAG));
    ok = Y.params.k == 2 && Y.slice_ptr[1] == 10 && Y.ntail == 2;
    for (k = 0; ok && k < 10; k++) ok = Y.col[k] == hcol[k] && Y.val[k] == (TT_VAL)hval[k];
    ok = ok && Y.trow[0] == 2 && Y.tcol[0] == 5 && Y.tval[0] == (TT_VAL)5 && Y.trow[1] == 4 && Y.tcol[1] == 5 &&
         Y.tval[1] == (TT_VAL)9 && Y.rowlen[2] == 2 && Y.rowlen[4] == 2;
    CHECK(ok, "[%s] hyb k=2 layout: ELL of width 2 + the COO tail", STR(TT_TAG));
    CHECK(TF(_roundtrip_ok)(&Y, &A), "[%s] hyb round trip", STR(TT_TAG));
    TF(_product_ok)(&Y, &A, NULL, "hyb small k=2");
    TN(ell_free)(&Y);
    TN(csr_free)(&A);
}

static int64_t TF(_len_r)(int64_t r) { return r; }
static int64_t TF(_len_tail)(int64_t r) { return r < 6 ? 1 : 5; }

/* the survey's K: the largest k such that a third of the rows have >= k entries */
static void TF(_hyb_rule)(void) {
    spmv_triplets t;
    TN(csr) A;
    TN(ell) Y;
    /* 10 rows of lengths 0..9: 10-k rows reach k, 3*(10-k) >= 10 up to k = 6 */
    th_make_rows_fn(&t, 10, 20, TF(_len_r));
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] lengths 0..9", STR(TT_TAG));
    spmv_triplets_free(&t);
    CHECK(TN(hyb_from_csr)(&Y, &A, NULL, NULL) == SPMV_OK && Y.params.k == 6 && Y.ntail == 1 + 2 + 3,
          "[%s] hyb rule on lengths 0..9: K=%d tail=%lld (want 6, 6)", STR(TT_TAG), Y.params.k, (long long)Y.ntail);
    TF(_product_ok)(&Y, &A, NULL, "hyb lengths 0..9");
    TN(ell_free)(&Y);
    TN(csr_free)(&A);
    /* 6 rows of 1, 3 of 5: exactly a third reach 5 */
    th_make_rows_fn(&t, 9, 20, TF(_len_tail));
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] lengths 1x6, 5x3", STR(TT_TAG));
    spmv_triplets_free(&t);
    CHECK(TN(hyb_from_csr)(&Y, &A, NULL, NULL) == SPMV_OK && Y.params.k == 5 && Y.ntail == 0,
          "[%s] hyb rule on 1x6, 5x3: K=%d (want 5)", STR(TT_TAG), Y.params.k);
    TN(ell_free)(&Y);
    TN(csr_free)(&A);
}

static int64_t TF(_len_skew)(int64_t r) { return r % 8 == 0 ? 100 : 2; }  /* mean 14.25, cv > 1 */
static int64_t TF(_len_flat)(int64_t r) { return 12 + 0 * r; }             /* mean 12, cv 0 */
static int64_t TF(_len_short)(int64_t r) { return r % 8 == 0 ? 40 : 1; }   /* mean 5.9, cv > 1 */
/* sell's default window: 256*C on long skewed rows (mean >= 10, cv >= 1), else 32*C */
static void TF(_sigma_rule)(void) {
    int64_t (*len[3])(int64_t) = {TF(_len_skew), TF(_len_flat), TF(_len_short)};
    static const char *name[3] = {"long skewed rows", "equal rows", "short skewed rows"};
    static const int mult[3] = {256, 32, 32};
    int k;
    for (k = 0; k < 3; k++) {
        spmv_triplets t;
        TN(csr) A;
        TN(ell) S;
        spmv_status st;
        th_make_rows_fn(&t, 64, 200, len[k]);
        CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] %s", STR(TT_TAG), name[k]);
        spmv_triplets_free(&t);
        st = TN(sell_from_csr)(&S, &A, NULL, NULL);
        CHECK(st == SPMV_OK && S.params.sigma == mult[k] * S.params.c, "[%s] sell's default sigma on %s: %d = %d*c (c = %d)",
              STR(TT_TAG), name[k], S.params.sigma, mult[k], S.params.c);
        TF(_product_ok)(&S, &A, NULL, name[k]);
        TN(ell_free)(&S);
        TN(csr_free)(&A);
    }
}

/* row r of n: long row at 7, others empty */
static int64_t TF(_one_long)(int64_t r) { return r == 7 ? 2000 : 0; }

static void TF(_limits)(void) {
    spmv_triplets t;
    TN(csr) A;
    TN(ell) M;
    spmv_ell_params p;
    spmv_status st;
    /* 200 rows, one of 2000: ELL pads to 400000 > 10*2000 + 4096 */
    th_make_rows_fn(&t, 200, 5000, TF(_one_long));
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] long row matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
    p = spmv_ell_params_default();
    CHECK(TN(ell_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: 400000 padded > 24096", STR(TT_TAG));
    st = TN(ell_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT && th_all_zero(&M, sizeof M), "[%s] ell over the fill cap: %s", STR(TT_TAG),
          spmv_status_str(st));
    st = TN(ellr_from_csr)(&M, &A, NULL, NULL);
    CHECK(st == SPMV_ERR_LIMIT, "[%s] ellr over the fill cap: %s", STR(TT_TAG), spmv_status_str(st));
    p.fill = 198; /* 198*2000 + 4096 = 400096 >= 400000 */
    CHECK(!TN(ell_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: fill=198 admits 400000", STR(TT_TAG));
    st = TN(ell_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_OK && M.slice_ptr[1] == 400000, "[%s] ell with fill=198: %s", STR(TT_TAG), spmv_status_str(st));
    if (st == SPMV_OK) TF(_product_ok)(&M, &A, NULL, "ell, one long row, fill=198");
    TN(ell_free)(&M);
    p.fill = 197; /* 398096 < 400000 */
    CHECK(TN(ell_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_LIMIT, "[%s] ell with fill=197 refused", STR(TT_TAG));
    p = spmv_hll_params_default(); /* hacks of 4 rows: one hack pays for the long row (8000 padded) */
    p.c = 4;
    st = TN(hll_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_OK, "[%s] hll on the long row: %s", STR(TT_TAG), spmv_status_str(st));
    if (st == SPMV_OK) TF(_product_ok)(&M, &A, NULL, "hll, one long row");
    TN(ell_free)(&M);
    TN(csr_free)(&A);
    { /* the index type (int32: > INT32_MAX padded) and the memory (int64: 10^12 entries) */
        const int64_t nr = sizeof(TT_IDX) == 4 ? 100000 : 1000000, len = sizeof(TT_IDX) == 4 ? 30000 : 1000000;
        TT_IDX *rp = (TT_IDX *)calloc((size_t)nr + 1, sizeof(TT_IDX)), *ci = (TT_IDX *)calloc((size_t)len, sizeof(TT_IDX));
        TT_VAL *v = (TT_VAL *)calloc((size_t)len, sizeof(TT_VAL));
        TN(csr) W;
        int64_t r, k;
        for (r = 1; r <= nr; r++) rp[r] = (TT_IDX)len; /* row 0 holds everything */
        for (k = 0; k < len; k++) ci[k] = (TT_IDX)k, v[k] = 1;
        CHECK(TN(csr_wrap)(&W, nr, len, rp, ci, v, NULL, NULL) == SPMV_OK, "[%s] wrap of the huge-padding matrix", STR(TT_TAG));
        p = spmv_ell_params_default();
        p.fill = 1 << 20; /* the fill cap alone would admit it */
        st = TN(ell_from_csr)(&M, &W, &p, NULL);
        CHECK(st == SPMV_ERR_LIMIT && th_all_zero(&M, sizeof M), "[%s] ell of %lld x %lld padded entries: %s (want LIMIT, nothing allocated)",
              STR(TT_TAG), (long long)nr, (long long)len, spmv_status_str(st));
        CHECK(TN(ell_limited)(&W, &p, SPMV_ISA_AUTO), "[%s] predicate agrees", STR(TT_TAG));
        TN(csr_free)(&W);
        free(rp), free(ci), free(v);
    }
}

static int64_t TF(_len_var)(int64_t r) { return (r * 7919) % 23 == 0 ? 40 + r % 13 : (r * 31) % 9; }

static void TF(_sweeps)(void) {
    static const int hs[] = {1, 3, 4, 8, 32, 100};
    static const int cs[] = {1, 4, 16};
    static const int sg[] = {1, 2, 7, 64, 1 << 30};
    static const int thr[] = {1, 2, 3};
    static const int ks[] = {0, 1, 3, 9, 60};
    spmv_triplets t;
    TN(csr) A;
    TN(ell) M;
    spmv_ell_params p, b;
    char what[96];
    size_t i, j, q;
    double spent = -1;
    th_make_rows_fn(&t, 997, 700, TF(_len_var));
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] sweep matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
    for (q = 0; q < sizeof thr / sizeof thr[0]; q++) {
        set_threads(thr[q]);
        for (i = 0; i < sizeof hs / sizeof hs[0]; i++) {
            p = spmv_hll_params_default();
            p.c = hs[i];
            snprintf(what, sizeof what, "hll hs=%d threads=%d", hs[i], thr[q]);
            CHECK(TN(hll_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
            TF(_product_ok)(&M, &A, NULL, what);
            CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
            TN(ell_free)(&M);
        }
        for (i = 0; i < sizeof cs / sizeof cs[0]; i++)
            for (j = 0; j < sizeof sg / sizeof sg[0]; j++) {
                p = spmv_sell_params_default();
                p.c = cs[i];
                p.sigma = sg[j];
                p.t = (int)(1u << (j % 3)); /* SELL-P padding: 1, 2, 4 */
                snprintf(what, sizeof what, "sell c=%d sigma=%d threads=%d", cs[i], sg[j], thr[q]);
                CHECK(TN(sell_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
                TF(_product_ok)(&M, &A, NULL, what);
                CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
                TN(ell_free)(&M);
            }
        CHECK(TN(ellr_from_csr)(&M, &A, NULL, NULL) == SPMV_OK, "[%s] ellr", STR(TT_TAG));
        snprintf(what, sizeof what, "ellr threads=%d", thr[q]);
        TF(_product_ok)(&M, &A, NULL, what);
        TN(ell_free)(&M);
        CHECK(TN(jad_from_csr)(&M, &A, NULL, NULL) == SPMV_OK, "[%s] jad", STR(TT_TAG));
        snprintf(what, sizeof what, "jad threads=%d", thr[q]);
        TF(_product_ok)(&M, &A, NULL, what);
        CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
        TN(ell_free)(&M);
        for (i = 0; i < sizeof ks / sizeof ks[0]; i++) {
            p = spmv_hyb_params_default();
            p.k = ks[i];
            snprintf(what, sizeof what, "hyb k=%d threads=%d", ks[i], thr[q]);
            CHECK(TN(hyb_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
            TF(_product_ok)(&M, &A, NULL, what);
            CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
            TN(ell_free)(&M);
        }
    }
    set_threads(2);
    b = spmv_hll_params_default();
    CHECK(TN(hll_tune)(&A, &b, &spent) == SPMV_OK && b.c > 0 && b.isa != SPMV_ISA_AUTO && spent >= 0,
          "[%s] hll_tune: hs=%d", STR(TT_TAG), b.c);
    b = spmv_sell_params_default();
    CHECK(TN(sell_tune)(&A, &b, &spent) == SPMV_OK && b.c > 0 && b.sigma > 0 && spent >= 0,
          "[%s] sell_tune: c=%d sigma=%d", STR(TT_TAG), b.c, b.sigma);
    b = spmv_hyb_params_default();
    CHECK(TN(hyb_tune)(&A, &b, &spent) == SPMV_OK && b.k > 0 && spent >= 0, "[%s] hyb_tune: k=%d", STR(TT_TAG), b.k);
    TN(csr_free)(&A);
}

/* The fast kernel reads padding (value 0, the row's last column) and redoes a group whose
 * sums are not finite: a row whose own entry meets x = +Inf is +Inf, never NaN (0*Inf from
 * its padding), and the rows around it keep their values. Rows of lengths 1..9 (padding
 * everywhere), every variant but hll/sell with c = W (their own kernel), every ISA, 1 and 3
 * threads, matrices in cache and (SPMV_ELL_BIG lowered to 0 here) as the big ones run. */
static void TF(_padding_inf)(void) {
    static const int variants[] = {0, 1, 4, 5}; /* ell, ellr, jad, hyb */
    const int64_t n = 700;
    spmv_triplets t;
    TN(csr) A;
    int64_t i, k = 0, j;
    int isa, v, q;
    spmv_triplets_alloc(&t, n, n, 9 * n);
    for (i = 0; i < n; i++)
        for (j = 0; j < 1 + i % 9; j++) t.row[k] = i, t.col[k] = (i + 37 * j) % n, t.val[k++] = 1 + (double)(j % 3);
    t.nnz = k;
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] padding_inf matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
    for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
        if (!spmv_isa_supported((spmv_isa)isa)) continue;
        for (v = 0; v < 4; v++)
            for (q = 1; q <= 3; q += 2) {
                spmv_ell_params p = spmv_ell_params_default();
                TN(ell) E;
                TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)n), *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)n);
                const int64_t hot = 5 * 9 + 0; /* row 45 has 1 entry, column 45: x there = +Inf */
                int64_t wrong = 0, first = -1;
                p.isa = (spmv_isa)isa;
                p.variant = variants[v];
                if (variants[v] == 5) p.k = 4; /* hyb: padding in the ELL part, a tail beside */
                set_threads(q);
                if (TN(ell_from_csr)(&E, &A, &p, NULL) != SPMV_OK) {
                    CHECK(0, "[%s] padding_inf: build variant %d", STR(TT_TAG), variants[v]);
                    free(x), free(y);
                    continue;
                }
                for (i = 0; i < n; i++) x[i] = 1;
                x[hot] = (TT_VAL)INFINITY;
                CHECK(TN(ell_mv)(&E, 1, x, 0, y) == SPMV_OK, "[%s] padding_inf mv", STR(TT_TAG));
                for (i = 0; i < n; i++) { /* row i holds column 45 iff some j: (i + 37 j) % n == 45 */
                    int64_t jj, hits = 0;
                    long double want = 0;
                    for (jj = 0; jj < 1 + i % 9; jj++) {
                        if ((i + 37 * jj) % n == hot) hits = 1;
                        else want += 1 + (long double)(jj % 3);
                    }
                    if (hits ? !(isinf(y[i]) && y[i] > 0) : !(y[i] == (TT_VAL)want)) {
                        wrong++;
                        if (first < 0) first = i;
                    }
                }
                CHECK(wrong == 0, "[%s] padding_inf %s variant %d threads %d: %lld rows wrong (row %lld = %g)", STR(TT_TAG),
                      spmv_isa_name((spmv_isa)isa), variants[v], q, (long long)wrong, (long long)first,
                      first >= 0 ? (double)y[first] : 0.0);
                TN(ell_free)(&E);
                free(x), free(y);
            }
    }
    set_threads(2);
    TN(csr_free)(&A);
}

static void TF(_all)(void) {
    TF(_layouts)();
    TF(_jad_hyb_layouts)();
    TF(_hyb_rule)();
    TF(_sigma_rule)();
    TF(_limits)();
    TF(_sweeps)();
    TF(_padding_inf)();
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
