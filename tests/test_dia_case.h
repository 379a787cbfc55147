/* Per-type body of tests/test_dia.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* the 4x5 matrix of the layout checks (an explicit zero at (2,3)):
 *   1 2 . . .
 *   3 4 . . 5
 *   . . 6 0 .
 *   . . 7 8 .      offsets -1, 0, 1, 3 */
static void TF(_small)(TN(csr) * A) {
    static const int64_t rr[] = {0, 0, 1, 1, 1, 2, 2, 3, 3};
    static const int64_t cc[] = {0, 1, 0, 1, 4, 2, 3, 2, 3};
    static const double vv[] = {1, 2, 3, 4, 5, 6, 0, 7, 8};
    spmv_triplets t;
    int k;
    spmv_triplets_alloc(&t, 4, 5, 9);
    for (k = 0; k < 9; k++) t.row[k] = rr[k], t.col[k] = cc[k], t.val[k] = vv[k];
    CHECK(TN(csr_from_triplets)(A, &t, NULL, NULL) == SPMV_OK && A->nnz == 9, "[%s] small matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
}

#define FC_FAM dia
#include "family_check.h"

static void TF(_layouts)(void) {
    TN(csr) A;
    TN(dia) D, H;
    spmv_dia_params p;
    /* DIA: 4 diagonals of 4 slots, val[d*4 + i] */
    static const int64_t doff[] = {-1, 0, 1, 3};
    static const double dval[] = {0, 3, 0, 7, /* 0 */ 1, 4, 6, 8, /* 1 */ 2, 0, 0, 0, /* 3 */ 0, 5, 0, 0};
    static const unsigned dbits[] = {0xA, 0xF, 0x5, 0x2};
    /* HDIA hs=2: hack 0 (rows 0,1) offsets -1,0,1,3; hack 1 (rows 2,3) -1,0,1 */
    static const int64_t hoff[] = {-1, 0, 1, 3, -1, 0, 1};
    static const double hval[] = {0, 3, 1, 4, 2, 0, 0, 5, /* hack 1 at 4*2 */ 0, 7, 6, 8, 0, 0};
    static const unsigned hbits[] = {2, 3, 1, 2, 2, 3, 1};
    TT_VAL x[5];
    int k, ok;
    TF(_small)(&A);
    CHECK(TN(dia_from_csr)(&D, &A, NULL, NULL) == SPMV_OK, "[%s] dia", STR(TT_TAG));
    ok = D.nhacks == 1 && D.H == 4 && D.ndiags == 4 && D.hd[0] == 0 && D.hd[1] == 4 && D.nnz == 9;
    for (k = 0; ok && k < 4; k++) ok = D.off[k] == doff[k] && D.bits[k] == dbits[k];
    for (k = 0; ok && k < 16; k++) ok = D.val[k] == (TT_VAL)dval[k];
    CHECK(ok, "[%s] dia layout: offsets ascending, diagonals of nrows slots, presence bits", STR(TT_TAG));
    CHECK(TN(dia_bytes)(&D) == (2 + 4) * sizeof(TT_IDX) + 16 * sizeof(TT_VAL) + 4 * 8, "[%s] dia footprint %zu",
          STR(TT_TAG), TN(dia_bytes)(&D));
    CHECK(TF(_roundtrip_ok)(&D, &A), "[%s] dia round trip (the explicit zero kept)", STR(TT_TAG));
    TF(_product_ok)(&D, &A, NULL, "dia small");
    /* x[1] = Inf: rows 0 and 1 hold column 1 (Inf), row 2's slot on diagonal -1 is column 1
     * but padding: must stay finite */
    for (k = 0; k < 5; k++) x[k] = (TT_VAL)(k + 1);
    x[1] = (TT_VAL)INFINITY;
    TF(_product_ok)(&D, &A, x, "dia, x[1] = Inf under a padded slot");
    {
        TT_VAL y[4];
        CHECK(TN(dia_mv)(&D, 1, x, 0, y) == SPMV_OK && isinf(y[0]) && isinf(y[1]) && y[2] == (TT_VAL)18 &&
                  y[3] == (TT_VAL)53,
              "[%s] dia with x[1] = Inf: %g %g %g %g (want inf inf 18 53)", STR(TT_TAG), (double)y[0], (double)y[1],
              (double)y[2], (double)y[3]);
    }
    TN(dia_free)(&D);
    p = spmv_hdia_params_default();
    p.hs = 2;
    CHECK(TN(hdia_from_csr)(&H, &A, &p, NULL) == SPMV_OK, "[%s] hdia hs=2", STR(TT_TAG));
    ok = H.nhacks == 2 && H.H == 2 && H.ndiags == 7 && H.hd[1] == 4 && H.hd[2] == 7;
    for (k = 0; ok && k < 7; k++) ok = H.off[k] == hoff[k] && H.bits[k] == hbits[k];
    for (k = 0; ok && k < 14; k++) ok = H.val[k] == (TT_VAL)hval[k];
    CHECK(ok, "[%s] hdia layout: each hack its own offsets, stacked", STR(TT_TAG));
    CHECK(TF(_roundtrip_ok)(&H, &A), "[%s] hdia round trip", STR(TT_TAG));
    TF(_product_ok)(&H, &A, NULL, "hdia small");
    TN(dia_free)(&H);
    TN(csr_free)(&A);
}

/* a wrapped CSR with a repeated column and unsorted rows: one slot, the sum */
static void TF(_duplicates)(void) {
    TT_IDX rp[3] = {0, 3, 4}, ci[4] = {2, 0, 2, 1};
    TT_VAL v[4] = {1, 2, 3, 4}, x[3] = {1, 10, 100}, y[2];
    TN(csr) W, B;
    TN(dia) D;
    CHECK(TN(csr_wrap)(&W, 2, 3, rp, ci, v, NULL, NULL) == SPMV_OK, "[%s] wrap with a duplicate", STR(TT_TAG));
    CHECK(TN(dia_from_csr)(&D, &W, NULL, NULL) == SPMV_OK && D.nnz == 3, "[%s] dia of duplicates: nnz %lld (want 3)",
          STR(TT_TAG), (long long)D.nnz);
    CHECK(TN(dia_mv)(&D, 1, x, 0, y) == SPMV_OK && y[0] == (TT_VAL)402 && y[1] == (TT_VAL)40,
          "[%s] dia of duplicates: y = %g %g (want 402 40)", STR(TT_TAG), (double)y[0], (double)y[1]);
    CHECK(TN(dia_to_csr)(&D, &B) == SPMV_OK && B.nnz == 3 && B.col_idx[0] == 0 && B.col_idx[1] == 2 &&
              B.val[1] == (TT_VAL)4 && B.row_ptr[1] == 2,
          "[%s] dia of duplicates back to CSR: sorted, summed", STR(TT_TAG));
    TN(csr_free)(&B);
    TN(dia_free)(&D);
    TN(csr_free)(&W);
}

/* row r of n: long row at 7, others empty */
static int64_t TF(_one_long)(int64_t r) { return r == 7 ? 2000 : 0; }

static void TF(_limits)(void) {
    spmv_triplets t;
    TN(csr) A;
    TN(dia) M;
    spmv_dia_params p;
    spmv_status st;
    /* 200 rows, one of 2000 entries on 2000 diagonals: 400000 slots > 10*2000 + 4096 */
    th_make_rows_fn(&t, 200, 5000, TF(_one_long));
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] long row matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
    p = spmv_dia_params_default();
    CHECK(TN(dia_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: 400000 slots > 24096", STR(TT_TAG));
    st = TN(dia_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT && th_all_zero(&M, sizeof M), "[%s] dia over the fill cap: %s", STR(TT_TAG),
          spmv_status_str(st));
    p.fill = 198; /* 198*2000 + 4096 = 400096 >= 400000 */
    CHECK(!TN(dia_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: fill=198 admits 400000", STR(TT_TAG));
    st = TN(dia_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_OK && M.ndiags == 2000, "[%s] dia with fill=198: %s", STR(TT_TAG), spmv_status_str(st));
    if (st == SPMV_OK) TF(_product_ok)(&M, &A, NULL, "dia, one long row, fill=198");
    TN(dia_free)(&M);
    p.fill = 197; /* 398096 < 400000 */
    CHECK(TN(dia_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_LIMIT, "[%s] dia with fill=197 refused", STR(TT_TAG));
    p = spmv_hdia_params_default(); /* hacks of 4 rows: one hack pays for the long row (8000 slots) */
    p.hs = 4;
    st = TN(hdia_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_OK && M.ndiags == 2000, "[%s] hdia hs=4 on the long row: %s", STR(TT_TAG), spmv_status_str(st));
    if (st == SPMV_OK) TF(_product_ok)(&M, &A, NULL, "hdia, one long row");
    TN(dia_free)(&M);
    TN(csr_free)(&A);
    { /* the index type (int32: > INT32_MAX slots) and the memory (int64: 10^12 slots) */
        const int64_t nr = sizeof(TT_IDX) == 4 ? 100000 : 1000000, len = sizeof(TT_IDX) == 4 ? 30000 : 1000000;
        TT_IDX *rp = (TT_IDX *)calloc((size_t)nr + 1, sizeof(TT_IDX)), *ci = (TT_IDX *)calloc((size_t)len, sizeof(TT_IDX));
        TT_VAL *v = (TT_VAL *)calloc((size_t)len, sizeof(TT_VAL));
        TN(csr) W;
        int64_t r, k;
        for (r = 1; r <= nr; r++) rp[r] = (TT_IDX)len; /* row 0 holds everything */
        for (k = 0; k < len; k++) ci[k] = (TT_IDX)k, v[k] = 1;
        CHECK(TN(csr_wrap)(&W, nr, len, rp, ci, v, NULL, NULL) == SPMV_OK, "[%s] wrap of the many-diagonal matrix", STR(TT_TAG));
        p = spmv_dia_params_default();
        p.fill = 1 << 20; /* the fill cap alone would admit it */
        st = TN(dia_from_csr)(&M, &W, &p, NULL);
        CHECK(st == SPMV_ERR_LIMIT && th_all_zero(&M, sizeof M),
              "[%s] dia of %lld x %lld slots: %s (want LIMIT, no layout allocated)", STR(TT_TAG), (long long)nr,
              (long long)len, spmv_status_str(st));
        CHECK(TN(dia_limited)(&W, &p, SPMV_ISA_AUTO), "[%s] predicate agrees", STR(TT_TAG));
        TN(csr_free)(&W);
        free(rp), free(ci), free(v);
    }
}

static void TF(_sweeps)(void) {
    static const int hs[] = {1, 3, 8, 64, 100, 1000};
    static const int thr[] = {1, 2, 3};
    static const char *const gens[] = {"stencil2d:n=37", "band:n=997,bw=4,seed=3", "stencil3d:n=9,pts=27"};
    size_t g, i, q;
    for (g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        spmv_triplets t;
        spmv_error e;
        TN(csr) A;
        TN(dia) M;
        spmv_dia_params p, b;
        char what[96];
        double spent = -1;
        CHECK(spmv_gen(gens[g], &t, &e) == SPMV_OK && TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] %s",
              STR(TT_TAG), gens[g]);
        spmv_triplets_free(&t);
        for (q = 0; q < sizeof thr / sizeof thr[0]; q++) {
            set_threads(thr[q]);
            CHECK(TN(dia_from_csr)(&M, &A, NULL, NULL) == SPMV_OK, "[%s] dia %s", STR(TT_TAG), gens[g]);
            snprintf(what, sizeof what, "dia %s threads=%d", gens[g], thr[q]);
            TF(_product_ok)(&M, &A, NULL, what);
            CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
            TN(dia_free)(&M);
            for (i = 0; i < sizeof hs / sizeof hs[0]; i++) {
                p = spmv_hdia_params_default();
                p.hs = hs[i];
                snprintf(what, sizeof what, "hdia %s hs=%d threads=%d", gens[g], hs[i], thr[q]);
                CHECK(TN(hdia_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
                TF(_product_ok)(&M, &A, NULL, what);
                CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
                TN(dia_free)(&M);
            }
        }
        set_threads(2);
        b = spmv_hdia_params_default();
        CHECK(TN(hdia_tune)(&A, &b, &spent) == SPMV_OK && b.hs > 0 && spent >= 0, "[%s] hdia_tune %s: hs=%d",
              STR(TT_TAG), gens[g], b.hs);
        TN(csr_free)(&A);
    }
}

/* dia's fast kernel (no presence bits, padding 0) against hdia's exact kernel, which weighs
 * every slot by its bit: the same sums in the same order, so the same bits wherever y is
 * finite; x = Inf or NaN under padded slots sends those groups to the exact path, whose
 * rows must then match too (a NaN for a NaN, an Inf of the same sign). Every ISA, 1 and 3
 * threads, beta 0 and 0.5, rows starting and ending inside a group. */
static void TF(_fast_exact)(void) {
    static const char *const gens[] = {"band:n=1003,bw=6,seed=11", "stencil3d:n=11,pts=27", "random:rows=300,cols=260,nnzr=3,seed=4"};
    size_t g;
    int isa, q, sp;
    for (g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        spmv_triplets t;
        spmv_error e;
        TN(csr) A;
        TN(dia) F, X;
        spmv_dia_params pf = spmv_dia_params_default(), px = spmv_hdia_params_default();
        TT_VAL *x, *y1, *y2;
        int64_t i, nr, nc;
        if (spmv_gen(gens[g], &t, &e) != SPMV_OK || TN(csr_from_triplets)(&A, &t, NULL, NULL) != SPMV_OK) {
            CHECK(0, "[%s] %s", STR(TT_TAG), gens[g]);
            continue;
        }
        spmv_triplets_free(&t);
        nr = A.nrows, nc = A.ncols;
        x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)nc);
        y1 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)nr);
        y2 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)nr);
        pf.fill = 1 << 20;
        px.fill = 1 << 20;
        px.hs = 64;
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            if (!spmv_isa_supported((spmv_isa)isa)) continue;
            pf.isa = px.isa = (spmv_isa)isa;
            if (TN(dia_from_csr)(&F, &A, &pf, NULL) != SPMV_OK || TN(hdia_from_csr)(&X, &A, &px, NULL) != SPMV_OK) {
                CHECK(0, "[%s] %s: build", STR(TT_TAG), gens[g]);
                TN(dia_free)(&F);
                continue;
            }
            for (q = 1; q <= 3; q += 2)
                for (sp = 0; sp < 3; sp++) {
                    const TT_VAL beta = sp == 1 ? (TT_VAL)0.5 : (TT_VAL)0;
                    int64_t diff = 0, first = -1;
                    set_threads(q);
                    for (i = 0; i < nc; i++) x[i] = (TT_VAL)th_rval();
                    if (sp == 2) { /* non-finite x: some under padded slots of dia, none in hdia's hacks */
                        x[nc / 2] = (TT_VAL)INFINITY;
                        x[nc / 3] = (TT_VAL)NAN;
                        x[nc - 1] = -(TT_VAL)INFINITY;
                    }
                    for (i = 0; i < nr; i++) y1[i] = y2[i] = (TT_VAL)th_rval();
                    CHECK(TN(dia_mv)(&F, (TT_VAL)1.25, x, beta, y1) == SPMV_OK &&
                              TN(dia_mv)(&X, (TT_VAL)1.25, x, beta, y2) == SPMV_OK, "[%s] %s: mv", STR(TT_TAG), gens[g]);
                    for (i = 0; i < nr; i++) {
                        const int same = (y1[i] != y1[i] && y2[i] != y2[i]) || !memcmp(&y1[i], &y2[i], sizeof y1[i]);
                        if (!same && first < 0) first = i;
                        diff += !same;
                    }
                    CHECK(diff == 0, "[%s] %s %s threads=%d beta=%g%s: %lld rows differ from the exact kernel (row %lld: "
                          "%.17g vs %.17g)", STR(TT_TAG), gens[g], spmv_isa_name((spmv_isa)isa), q, (double)beta,
                          sp == 2 ? " x Inf/NaN" : "", (long long)diff, (long long)first,
                          first >= 0 ? (double)y1[first] : 0.0, first >= 0 ? (double)y2[first] : 0.0);
                }
            TN(dia_free)(&F);
            TN(dia_free)(&X);
        }
        set_threads(2);
        free(x), free(y1), free(y2);
        TN(csr_free)(&A);
    }
}

static void TF(_all)(void) {
    TF(_layouts)();
    TF(_duplicates)();
    TF(_limits)();
    TF(_sweeps)();
    TF(_fast_exact)();
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
