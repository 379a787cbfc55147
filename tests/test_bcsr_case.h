/* Per-type body of tests/test_bcsr.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* the 5x5 matrix of the layout checks (an explicit zero at (2,3)), bs = 2:
 *   1 2 . . .
 *   3 . . . 5        block row 0: blocks (0,0) and (0,2)
 *   . . . 0 .        block row 1: block (1,1) (rows 2,3, columns 2,3)
 *   . . 7 8 .
 *   . 9 . . .        block row 2 (one row): block (2,0) */
static void TF(_small)(TN(csr) * A) {
    static const int64_t rr[] = {0, 0, 1, 1, 2, 3, 3, 4};
    static const int64_t cc[] = {0, 1, 0, 4, 3, 2, 3, 1};
    static const double vv[] = {1, 2, 3, 5, 0, 7, 8, 9};
    spmv_triplets t;
    int k;
    spmv_triplets_alloc(&t, 5, 5, 8);
    for (k = 0; k < 8; k++) t.row[k] = rr[k], t.col[k] = cc[k], t.val[k] = vv[k];
    CHECK(TN(csr_from_triplets)(A, &t, NULL, NULL) == SPMV_OK && A->nnz == 8, "[%s] small matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
}

#define FC_FAM bcsr
#include "family_check.h"

static void TF(_layout)(void) {
    TN(csr) A;
    TN(bcsr) M;
    spmv_bcsr_params p = spmv_bcsr_params_default();
    /* blocks column-major: val[b*4 + c*2 + r] */
    static const int64_t rp[] = {0, 2, 3, 4}, ci[] = {0, 2, 1, 0};
    static const double val[] = {1, 3, 2, 0, /* (0,2): col 4 row 1 */ 0, 5, 0, 0, /* (1,1) */ 0, 7, 0, 8,
                                 /* (2,0): row 4 col 1 */ 0, 0, 9, 0};
    static const unsigned bits[] = {0x7, 0x2, 0xE, 0x4};
    TT_VAL x[5];
    TT_VAL y[5];
    int k, ok;
    TF(_small)(&A);
    p.bs = 2;
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] bcsr bs=2", STR(TT_TAG));
    ok = M.bs == 2 && M.nbrows == 3 && M.nblocks == 4 && M.nnz == 8;
    for (k = 0; ok && k < 4; k++) ok = M.row_ptr[k] == rp[k];
    for (k = 0; ok && k < 4; k++) ok = M.col_idx[k] == ci[k] && M.bits[k] == bits[k];
    for (k = 0; ok && k < 16; k++) ok = M.val[k] == (TT_VAL)val[k];
    CHECK(ok, "[%s] bcsr layout: block CSR, column-major blocks, presence bits", STR(TT_TAG));
    CHECK(TN(bcsr_bytes)(&M) == (4 + 4) * sizeof(TT_IDX) + 4 * (4 * sizeof(TT_VAL) + 8), "[%s] bcsr footprint %zu",
          STR(TT_TAG), TN(bcsr_bytes)(&M));
    CHECK(TN(bcsr_fill_ratio)(&M) == 2.0, "[%s] fill ratio %g (want 16/8)", STR(TT_TAG), TN(bcsr_fill_ratio)(&M));
    CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] bcsr round trip (the explicit zero kept)", STR(TT_TAG));
    TF(_product_ok)(&M, &A, NULL, "bcsr small");
    /* x[1] = Inf: rows 0 and 4 hold column 1; rows 1 (block (0,0)) and none else have it as
     * fill; x[3] = -Inf: row 2's explicit zero at (2,3) gives NaN, row 3 holds it (-Inf) */
    for (k = 0; k < 5; k++) x[k] = (TT_VAL)(k + 1);
    x[1] = (TT_VAL)INFINITY;
    TF(_product_ok)(&M, &A, x, "bcsr, x[1] = Inf under fill");
    CHECK(TN(bcsr_mv)(&M, 1, x, 0, y) == SPMV_OK && isinf(y[0]) && y[1] == (TT_VAL)28 && y[2] == 0 &&
              y[3] == (TT_VAL)53 && isinf(y[4]),
          "[%s] bcsr with x[1] = Inf: %g %g %g %g %g (want inf 28 0 53 inf)", STR(TT_TAG), (double)y[0], (double)y[1],
          (double)y[2], (double)y[3], (double)y[4]);
    x[1] = 2;
    x[3] = (TT_VAL)-INFINITY;
    TF(_product_ok)(&M, &A, x, "bcsr, x[3] = -Inf on an explicit zero");
    TN(bcsr_free)(&M);
    /* bs = 3: one block row of 3 rows and one of 2, block columns of 3 and 2 */
    p.bs = 3;
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_OK && M.nbrows == 2 && M.nblocks == 4, "[%s] bcsr bs=3: %lld blocks",
          STR(TT_TAG), (long long)M.nblocks);
    CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] bcsr bs=3 round trip", STR(TT_TAG));
    for (k = 0; k < 5; k++) x[k] = (TT_VAL)(k + 1);
    TF(_product_ok)(&M, &A, x, "bcsr bs=3 small");
    TN(bcsr_free)(&M);
    /* bad parameters */
    p.bs = 1;
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_ARG && th_all_zero(&M, sizeof M), "[%s] bs=1 refused", STR(TT_TAG));
    p.bs = 33;
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_ARG, "[%s] bs=33 refused", STR(TT_TAG));
    p.bs = 2, p.kern = 4;
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_ARG, "[%s] kern=4 refused", STR(TT_TAG));
    TN(csr_free)(&A);
}

static void TF(_duplicates)(void) {
    TT_IDX rp[3] = {0, 3, 4}, ci[4] = {2, 0, 2, 1};
    TT_VAL v[4] = {1, 2, 3, 4}, x[3] = {1, 10, 100}, y[2];
    TN(csr) W, B;
    TN(bcsr) M;
    spmv_bcsr_params p = spmv_bcsr_params_default();
    p.bs = 2;
    CHECK(TN(csr_wrap)(&W, 2, 3, rp, ci, v, NULL, NULL) == SPMV_OK, "[%s] wrap with a duplicate", STR(TT_TAG));
    CHECK(TN(bcsr_from_csr)(&M, &W, &p, NULL) == SPMV_OK && M.nnz == 3, "[%s] bcsr of duplicates: nnz %lld (want 3)",
          STR(TT_TAG), (long long)M.nnz);
    CHECK(TN(bcsr_mv)(&M, 1, x, 0, y) == SPMV_OK && y[0] == (TT_VAL)402 && y[1] == (TT_VAL)40,
          "[%s] bcsr of duplicates: y = %g %g (want 402 40)", STR(TT_TAG), (double)y[0], (double)y[1]);
    CHECK(TN(bcsr_to_csr)(&M, &B) == SPMV_OK && B.nnz == 3 && B.col_idx[0] == 0 && B.col_idx[1] == 2 &&
              B.val[1] == (TT_VAL)4 && B.row_ptr[1] == 2,
          "[%s] bcsr of duplicates back to CSR: sorted, summed", STR(TT_TAG));
    TN(csr_free)(&B);
    TN(bcsr_free)(&M);
    TN(csr_free)(&W);
}

static void TF(_limits)(void) {
    spmv_triplets t;
    TN(csr) A;
    TN(bcsr) M;
    spmv_bcsr_params p = spmv_bcsr_params_default();
    spmv_status st;
    /* 3000 scattered entries in 4000 x 4000 (none share a 32x32 block: one per block row of
     * 32 rows at distinct block columns): bs=32 stores 1024 values per entry */
    int64_t k;
    spmv_triplets_alloc(&t, 4000, 4000, 125);
    for (k = 0; k < 125; k++) t.row[k] = 32 * k, t.col[k] = (32 * k * 7) % 4000, t.val[k] = 1;
    CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] scattered matrix", STR(TT_TAG));
    spmv_triplets_free(&t);
    p.bs = 32; /* 125*1024 = 128000 > 10*125 + 4096 */
    CHECK(TN(bcsr_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: 128000 values > 5346", STR(TT_TAG));
    st = TN(bcsr_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT && th_all_zero(&M, sizeof M), "[%s] bcsr bs=32 over the fill cap: %s", STR(TT_TAG),
          spmv_status_str(st));
    p.fill = 991; /* 991*125 + 4096 = 127971 < 128000 */
    CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_ERR_LIMIT, "[%s] fill=991 refused", STR(TT_TAG));
    p.fill = 992; /* 128096 >= 128000 */
    CHECK(!TN(bcsr_limited)(&A, &p, SPMV_ISA_AUTO), "[%s] predicate: fill=992 admits", STR(TT_TAG));
    st = TN(bcsr_from_csr)(&M, &A, &p, NULL);
    CHECK(st == SPMV_OK && M.nblocks == 125, "[%s] bcsr bs=32 fill=992: %s", STR(TT_TAG), spmv_status_str(st));
    if (st == SPMV_OK) TF(_product_ok)(&M, &A, NULL, "bcsr bs=32 scattered");
    TN(bcsr_free)(&M);
    TN(csr_free)(&A);
}

/* every bs x backend x threads on matrices with what a block layout has to get right:
 * dimensions not multiples of bs, empty block rows, a dense row, a dense column, 0 rows */
static void TF(_sweeps)(void) {
    static const int thr[] = {1, 2, 3};
    static const char *const gens[] = {"fem:n=13,bs=3,deg=4,dim=1,seed=2", "random:rows=61,cols=47,nnzr=4,seed=5",
                                       "stencil2d:n=9"};
    size_t g, q;
    int bs, isa;
    for (g = 0; g < sizeof gens / sizeof gens[0] + 2; g++) {
        spmv_triplets t;
        spmv_error e;
        TN(csr) A;
        char what[128];
        if (g < sizeof gens / sizeof gens[0]) {
            CHECK(spmv_gen(gens[g], &t, &e) == SPMV_OK, "[%s] %s", STR(TT_TAG), gens[g]);
            if (g == 1) { /* rows 20..39 empty, row 5 dense, column 46 dense */
                int64_t k, j = 0;
                for (k = 0; k < t.nnz; k++)
                    if (t.row[k] < 20 || t.row[k] >= 40) t.row[j] = t.row[k], t.col[j] = t.col[k], t.val[j++] = t.val[k];
                t.nnz = j;
            }
        } else if (g == 3) {
            int64_t k;
            spmv_triplets_alloc(&t, 37, 53, 53 + 37);
            for (k = 0; k < 53; k++) t.row[k] = 5, t.col[k] = k, t.val[k] = th_rval();
            for (k = 0; k < 37; k++) t.row[53 + k] = k, t.col[53 + k] = 46, t.val[53 + k] = th_rval();
        } else {
            spmv_triplets_alloc(&t, 0, 7, 0);
        }
        CHECK(TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] sweep matrix %d", STR(TT_TAG), (int)g);
        spmv_triplets_free(&t);
        for (bs = 2; bs <= 32; bs++)
            for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
                if (!spmv_isa_supported((spmv_isa)isa)) continue;
                for (q = 0; q < sizeof thr / sizeof thr[0]; q++) {
                    spmv_bcsr_params p = spmv_bcsr_params_default();
                    TN(bcsr) M;
                    spmv_status st;
                    if (q > 0 && bs > 8 && bs % 8) continue; /* threads: the unrolled sizes and the multiples of 8 */
                    set_threads(thr[q]);
                    p.bs = bs;
                    p.fill = 1 << 20;
                    p.isa = (spmv_isa)isa;
                    snprintf(what, sizeof what, "bcsr matrix %d bs=%d %s threads=%d", (int)g, bs,
                             spmv_isa_name((spmv_isa)isa), thr[q]);
                    st = TN(bcsr_from_csr)(&M, &A, &p, NULL);
                    CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
                    if (st != SPMV_OK) continue;
                    TF(_product_ok)(&M, &A, NULL, what);
                    CHECK(TF(_roundtrip_ok)(&M, &A), "[%s] %s round trip", STR(TT_TAG), what);
                    TN(bcsr_free)(&M);
                }
            }
        set_threads(2);
        TN(csr_free)(&A);
    }
}

/* the estimate finds the block size of block-structured matrices (dense bs x bs blocks,
 * 3-D neighbours), and the tuner keeps a working size */
static void TF(_estimate)(void) {
    static const char *const gens[] = {"fem:n=3000,bs=2,deg=21,dim=3", "fem:n=3000,bs=3,deg=21,dim=3",
                                       "fem:n=2000,bs=4,deg=21,dim=3", "fem:n=1000,bs=6,deg=21,dim=3",
                                       "fem:n=800,bs=8,deg=21,dim=3"};
    static const int want[] = {2, 3, 4, 6, 8};
    size_t g;
    for (g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        spmv_triplets t;
        spmv_error e;
        TN(csr) A;
        TN(bcsr) M;
        spmv_bcsr_params p = spmv_bcsr_params_default();
        double ratio = 0, spent = -1;
        int bs = 0;
        CHECK(spmv_gen(gens[g], &t, &e) == SPMV_OK && TN(csr_from_triplets)(&A, &t, NULL, NULL) == SPMV_OK, "[%s] %s",
              STR(TT_TAG), gens[g]);
        spmv_triplets_free(&t);
        CHECK(TN(bcsr_estimate)(&A, &bs, &ratio) == SPMV_OK && bs == want[g] && ratio == 1.0,
              "[%s] estimate on %s: bs=%d ratio %g (want %d, 1)", STR(TT_TAG), gens[g], bs, ratio, want[g]);
        CHECK(TN(bcsr_from_csr)(&M, &A, NULL, NULL) == SPMV_OK && M.bs == want[g] && M.params.bs == want[g] &&
                  TN(bcsr_fill_ratio)(&M) == 1.0,
              "[%s] default conversion of %s: bs=%d", STR(TT_TAG), gens[g], (int)M.bs);
        TF(_product_ok)(&M, &A, NULL, gens[g]);
        TN(bcsr_free)(&M);
        if (g == 1) {
            CHECK(TN(bcsr_tune)(&A, &p, &spent) == SPMV_OK && p.bs >= 2 && spent >= 0, "[%s] bcsr_tune %s: bs=%d",
                  STR(TT_TAG), gens[g], p.bs);
            CHECK(TN(bcsr_from_csr)(&M, &A, &p, NULL) == SPMV_OK, "[%s] tuned parameters convert", STR(TT_TAG));
            TN(bcsr_free)(&M);
        }
        TN(csr_free)(&A);
    }
}

static void TF(_all)(void) {
    TF(_layout)();
    TF(_duplicates)();
    TF(_limits)();
    TF(_sweeps)();
    TF(_estimate)();
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
