/* CSR5: every backend (generic at widths 4/8/16/32, AVX2, AVX-512 native or emulated)
 * x types s, d, dl (double/int64) x several sigma x thread counts against the long-double
 * CSR reference, on edge cases, generator presets and the real matrices in
 * $SPMV_MATRICES; plus structure checks of the layout, the exact round trip to CSR, the
 * bit-field limit, argument errors and the sigma tuner.
 * The per-type body: tests/test_csr5_case.h. */
/* every product of the test may run on several threads, so that small matrices also
 * split their tiles across threads and exercise the calibration */
#define SPMV_PAR_MIN_NNZ 1
/* counting allocator: the k-th allocation can be made to fail (allocation-failure sweep) */
#include "test_preamble.h"
#include <stdio.h>
#if defined(_OPENMP) && defined(__linux__)
#include <unistd.h> /* execv */
#endif



/* what one matrix is run with */
typedef struct case_opts {
    const int *sig;
    int nsig;
    const int *thr;
    int nthr;
    int nab;     /* the first nab (alpha, beta) pairs of AB */
    int verify;  /* structure check against the CSR source */
    int special; /* NaN / Inf in x */
    int lite;    /* single-threaded runs only with the first (alpha, beta) pair */
} case_opts;

static const double AB[][2] = {{1, 0}, {-0.5, 2}, {0, 1.5}, {2.5, 0}, {1, 1}};
/* backends: (isa, omega); omega 0 = the ISA's own width */
static int nback;
static spmv_isa back_isa[8];
static int back_omega[8];
static int max_thr = 2;

#define TT_CASE "test_csr5_case.h"
#include "tt_tags.h"

static void run_all(const char *name, const spmv_triplets *t, const case_opts *o) {
    test_s_run(name, t, o);
    test_d_run(name, t, o);
    test_dl_run(name, t, o);
}

static const int SIG_EDGE[] = {1, 3, 16, 64};
static const int SIG_GEN[] = {5, 16, 48};
static const int SIG_BIG[] = {16, 7};
static const int THR_EDGE[] = {1, 2, 5}; /* 5: rows spanning 3+ threads */
static const int THR_REAL[] = {2, 1};

static case_opts opts(const int *sig, int nsig, const int *thr, int nthr, int nab, int verify) {
    case_opts o;
    o.sig = sig;
    o.nsig = nsig;
    o.thr = thr;
    o.nthr = nthr;
    o.nab = nab;
    o.verify = verify;
    o.special = 0;
    o.lite = 0;
    return o;
}

static int64_t max_nnz_env(void) {
    const char *s = getenv("SPMV_TEST_MAX_NNZ");
    return s ? atoll(s) : -1;
}

static void edge_cases(void) {
    const case_opts e = opts(SIG_EDGE, 4, THR_EDGE, 3, 5, 1);
    const case_opts big = opts(SIG_BIG, 2, THR_EDGE, 3, 2, 0);
    spmv_triplets t;
    int64_t k, r, n, *len;
    int64_t maxnnz = max_nnz_env();
    /* empty shapes, 1x1, fewer nonzeros than one tile */
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, &e); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, &e); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, &e); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 no entries", &t, &e); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = t.col[0] = 0; t.val[0] = 3; run_all("1x1", &t, &e); spmv_triplets_free(&t);
    th_make_random(&t, 10, 10, 7); run_all("10x10 nnz 7 (< one tile)", &t, &e); spmv_triplets_free(&t);
    /* empty rows: leading, trailing, and runs of them inside tiles */
    n = 3000;
    len = (int64_t *)calloc((size_t)n, sizeof *len);
    for (r = 0; r < n; r++) {
        int z = r < 17 || r >= n - 23 || (r % 11) >= 6 || (r % 97) < 30;
        len[r] = z ? 0 : (int64_t)(th_rnd() % 9);
    }
    th_make_rows(&t, n, 400, len); run_all("empty rows: leading, trailing, runs", &t, &e); spmv_triplets_free(&t);
    for (r = 0; r < n; r++) len[r] = (r % 3 == 1) ? 1 + (int64_t)(th_rnd() % 3) : 0; /* empty every other row */
    th_make_rows(&t, n, 400, len); run_all("empty rows between short rows", &t, &e); spmv_triplets_free(&t);
    /* rows longer than a whole tile, among short ones */
    for (r = 0; r < n; r++) len[r] = (r % 50 == 7) ? 700 + (int64_t)(th_rnd() % 3000) : (int64_t)(th_rnd() % 12);
    th_make_rows(&t, n, 5000, len); run_all("rows longer than a tile", &t, &e); spmv_triplets_free(&t);
    /* row lengths 0..300 ascending, then descending: every split of a row over lanes and tiles */
    for (r = 0; r < 602 && r < n; r++) len[r] = r < 301 ? r : 601 - r;
    th_make_rows(&t, 602, 1000, len); run_all("row lengths 0..300..0", &t, &e); spmv_triplets_free(&t);
    /* random shapes: nnz not a multiple of the tile */
    for (k = 0; k < 6; k++) {
        char name[96];
        int64_t nr = 1 + (int64_t)(th_rnd() % 700), nc = 1 + (int64_t)(th_rnd() % 700);
        int64_t z = (int64_t)(th_rnd() % (uint64_t)(nr * 30));
        th_make_random(&t, nr, nc, z);
        snprintf(name, sizeof name, "random %lldx%lld nnz %lld", (long long)nr, (long long)nc, (long long)z);
        run_all(name, &t, &e);
        spmv_triplets_free(&t);
    }
    /* rows of very different magnitude side by side, short and multi-lane: a segmented sum
     * that mixes rows loses the small ones */
    for (r = 0; r < n; r++) len[r] = 1 + (int64_t)(th_rnd() % 40);
    th_make_rows(&t, n, 2000, len);
    for (k = 0; k < t.nnz; k++) t.val[k] *= (t.row[k] % 2) ? 1e6 : 1e-6;
    run_all("mixed magnitudes 1e6 / 1e-6", &t, &e); spmv_triplets_free(&t);
    /* NaN / Inf in A and in x must stay in their rows */
    th_make_random(&t, 400, 400, 5000);
    t.val[5] = NAN; t.val[77] = INFINITY; t.val[1000] = -INFINITY; t.val[3001] = NAN;
    run_all("NaN/Inf in A", &t, &e); spmv_triplets_free(&t);
    {
        case_opts sp = e;
        sp.special = 1;
        th_make_random(&t, 400, 400, 5000); run_all("NaN/Inf in x", &t, &sp); spmv_triplets_free(&t);
    }
    free(len);
    /* one huge row in the middle of short ones: shared by every thread (calibration) */
    n = 2001;
    len = (int64_t *)calloc((size_t)n, sizeof *len);
    for (r = 0; r < n; r++) len[r] = r == 1000 ? 300000 : (int64_t)(th_rnd() % 6);
    th_make_rows(&t, n, 400000, len); run_all("huge row among short rows", &t, &big); spmv_triplets_free(&t);
    free(len);
    /* a matrix of one huge row: millions of nonzeros */
    n = 2000000;
    if (maxnnz >= 0 && maxnnz < n) n = maxnnz > 200000 ? maxnnz : 200000;
    {
        char name[64];
        if (spmv_triplets_alloc(&t, 1, n, n) != SPMV_OK) abort();
        for (k = 0; k < n; k++) {
            t.row[k] = 0;
            t.col[k] = k;
            t.val[k] = th_rval();
        }
        snprintf(name, sizeof name, "one huge row (1 x %lld)", (long long)n);
        run_all(name, &t, &big);
        spmv_triplets_free(&t);
    }
}

static void generated(void) {
    static const char *specs[] = {"stencil3d:n=14,pts=27", "rmat:scale=12,ef=8", "circuit:n=6000",
                                  "fem:n=400,bs=3", "lp:rows=300,cols=4000", "onerow:n=5000,len=5000"};
    const case_opts g = opts(SIG_GEN, 3, THR_REAL, 2, 5, 1);
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error er;
        spmv_status st = spmv_gen(specs[i], &t, &er);
        CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), er.msg);
        if (st != SPMV_OK) continue;
        run_all(specs[i], &t, &g);
        spmv_triplets_free(&t);
    }
}

static void real_one(const char *name, const spmv_triplets *t, void *ctx) {
    static int sig[2] = {16, 0};
    static const int vary[] = {4, 7, 16, 64, 12};
    int *count = (int *)ctx;
    case_opts o;
    /* the default sigma and one other, varying over the matrices (one only above 200k nonzeros, where
     * test_format_csr5 runs the default too); 3 (alpha, beta) pairs. The sanitizer build takes
     * one of the two, alternating. */
    sig[0] = SPMV_CSR5_SIGMA_DEFAULT;
    sig[1] = vary[*count % 5];
#ifdef __SANITIZE_ADDRESS__
    if (*count % 2) sig[0] = sig[1];
    o = opts(sig, 1, THR_REAL, 2, 3, t->nnz <= 200000);
#else
    if (t->nnz > 200000) sig[0] = sig[1];
    o = opts(sig, t->nnz <= 200000 ? 2 : 1, THR_REAL, 2, 3, t->nnz <= 200000);
#endif
    o.lite = 1;
    run_all(name, t, &o);
    (*count)++;
}
static void real_matrices(void) {
    int count = 0;
    th_real_matrices(real_one, &count, -1);
}

/* bit-field and parameter limits, argument errors */
static void limits(void) {
    spmv_triplets t;
    spmv_d_csr R;
    spmv_d_csr5 M;
    spmv_s_csr Rs;
    spmv_s_csr5 Ms;
    spmv_csr5_params p = spmv_csr5_params_default();
    spmv_status st;
    static const unsigned char zero[sizeof(spmv_d_csr5)] = {0};
    double *x, *y;
    long double *ref, *scale;
    int64_t i;
    th_make_random(&t, 3000, 3000, 60000);
    CHECK(spmv_d_csr_from_triplets(&R, &t, NULL, NULL) == SPMV_OK, "limits: csr");
    CHECK(spmv_s_csr_from_triplets(&Rs, &t, NULL, NULL) == SPMV_OK, "limits: csr s");
    x = (double *)malloc(sizeof(double) * 3000);
    y = (double *)malloc(sizeof(double) * 3000);
    ref = (long double *)malloc(sizeof(long double) * 3000);
    scale = (long double *)malloc(sizeof(long double) * 3000);
    for (i = 0; i < 3000; i++) x[i] = th_rval();
    CHECK(p.isa == SPMV_ISA_AUTO && p.omega == 0 && p.sigma == 32, "params_default: %d %d %d", (int)p.isa, p.omega,
          p.sigma);
    /* omega 32: y_offset needs bits((32-1)*sigma), seg_offset 5: 16 bits hold sigma <= 66 */
    p.isa = SPMV_ISA_GENERIC;
    p.omega = 32;
    p.sigma = 66;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_OK && M.ybits == 11, "omega 32 sigma 66: %s (ybits %d)", spmv_status_str(st), M.ybits);
    if (st == SPMV_OK) {
        spmv_d_csr5_mv(&M, 1.0, x, 0.0, y);
        spmv_d_csr_mv_ref(&R, 1.0, x, 0.0, NULL, ref, scale);
        CHECK(spmv_d_max_rel_err(3000, y, ref, scale) <= 1e-12, "omega 32 sigma 66: wrong product");
        spmv_d_csr5_free(&M);
    }
    p.sigma = 67;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT, "omega 32 sigma 67: expected LIMIT, got %s", spmv_status_str(st));
    CHECK(!memcmp(&M, zero, sizeof M), "LIMIT left the object non-empty");
    p.sigma = 256;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT, "omega 32 sigma 256: expected LIMIT, got %s", spmv_status_str(st));
    /* omega 16, sigma 256: 12 + 4 bits, exactly full; tiles of 4096 */
    p.omega = 16;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_OK, "omega 16 sigma 256: %s", spmv_status_str(st));
    if (st == SPMV_OK) {
        spmv_d_csr5_mv(&M, 1.0, x, 0.0, y);
        spmv_d_csr_mv_ref(&R, 1.0, x, 0.0, NULL, ref, scale);
        CHECK(spmv_d_max_rel_err(3000, y, ref, scale) <= 1e-12, "omega 16 sigma 256: wrong product");
        spmv_d_csr5_free(&M);
    }
    p.sigma = 257;
    CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_ERR_ARG, "sigma 257 accepted");
    p.sigma = -1;
    CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_ERR_ARG, "sigma -1 accepted");
    p.sigma = 0; /* default */
    p.omega = 0;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_OK && M.params.sigma == 32 && M.params.omega == 8, "generic d defaults: %s omega %d sigma %d",
          spmv_status_str(st), M.params.omega, M.params.sigma);
    spmv_d_csr5_free(&M);
    st = spmv_s_csr5_from_csr(&Ms, &Rs, &p, NULL);
    CHECK(st == SPMV_OK && Ms.params.omega == 16, "generic s default omega: %s %d", spmv_status_str(st),
          Ms.params.omega);
    spmv_s_csr5_free(&Ms);
    p.omega = 5;
    CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_ERR_ARG, "omega 5 accepted");
    p.omega = 64;
    CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_ERR_ARG, "omega 64 accepted");
    if (spmv_isa_supported(SPMV_ISA_AVX2)) {
        p.isa = SPMV_ISA_AVX2;
        p.omega = 8; /* AVX2 double is 4 wide */
        CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_ERR_ARG, "avx2 d with omega 8 accepted");
        p.omega = 4;
        st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
        CHECK(st == SPMV_OK && M.params.isa == SPMV_ISA_AVX2, "avx2 d omega 4: %s", spmv_status_str(st));
        spmv_d_csr5_free(&M);
        p.omega = 8;
        st = spmv_s_csr5_from_csr(&Ms, &Rs, &p, NULL);
        CHECK(st == SPMV_OK && Ms.params.omega == 8, "avx2 s omega 8: %s", spmv_status_str(st));
        spmv_s_csr5_free(&Ms);
    }
    if (spmv_isa_supported(SPMV_ISA_AVX512)) {
        p.isa = SPMV_ISA_AVX512;
        p.omega = 16;
        p.sigma = 256; /* float AVX-512: omega 16, sigma 256 fills the slot exactly */
        st = spmv_s_csr5_from_csr(&Ms, &Rs, &p, NULL);
        CHECK(st == SPMV_OK, "avx512 s sigma 256: %s", spmv_status_str(st));
        spmv_s_csr5_free(&Ms);
        p.omega = 0;
        p.sigma = 16;
        st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
        CHECK(st == SPMV_OK && M.params.omega == 8, "avx512 d: %s omega %d", spmv_status_str(st), M.params.omega);
        spmv_d_csr5_free(&M);
    }
    /* argument errors */
    p = spmv_csr5_params_default();
    { /* an inconsistent row_ptr is refused, the object left empty */
        spmv_d_csr Bad = R;
        int32_t *save = (int32_t *)malloc(sizeof(int32_t) * 3001);
        memcpy(save, R.row_ptr, sizeof(int32_t) * 3001);
        Bad.row_ptr[1500] = Bad.row_ptr[1502] + 1; /* decreasing */
        memset(&M, 0xAB, sizeof M);
        CHECK(spmv_d_csr5_from_csr(&M, &Bad, &p, NULL) == SPMV_ERR_ARG && !memcmp(&M, zero, sizeof M),
              "decreasing row_ptr accepted");
        memcpy(R.row_ptr, save, sizeof(int32_t) * 3001);
        Bad.nnz = R.nnz - 1; /* row_ptr[nrows] != nnz */
        CHECK(spmv_d_csr5_from_csr(&M, &Bad, &p, NULL) == SPMV_ERR_ARG, "row_ptr[nrows] != nnz accepted");
        free(save);
    }
    CHECK(spmv_d_csr5_from_csr(NULL, &R, &p, NULL) == SPMV_ERR_ARG, "from_csr(NULL, ...)");
    CHECK(spmv_d_csr5_from_csr(&M, NULL, &p, NULL) == SPMV_ERR_ARG, "from_csr(..., NULL)");
    CHECK(spmv_d_csr5_mv(NULL, 1.0, x, 0.0, y) == SPMV_ERR_ARG, "mv(NULL)");
    st = spmv_d_csr5_from_csr(&M, &R, NULL, NULL);
    CHECK(st == SPMV_OK, "from_csr with NULL params: %s", spmv_status_str(st));
    CHECK(spmv_d_csr5_mv(&M, 1.0, NULL, 0.0, y) == SPMV_ERR_ARG, "mv with x NULL");
    CHECK(spmv_d_csr5_mv(&M, 1.0, x, 0.0, NULL) == SPMV_ERR_ARG, "mv with y NULL");
    CHECK(spmv_d_csr5_bytes(&M) > spmv_d_csr_bytes(&R), "bytes: %zu <= CSR %zu", spmv_d_csr5_bytes(&M),
          spmv_d_csr_bytes(&R));
    spmv_d_csr5_free(&M);
    spmv_d_csr5_free(&M); /* a freed object frees again harmlessly */
    spmv_d_csr5_free(NULL);
    free(x); free(y); free(ref); free(scale);
    spmv_d_csr_free(&R);
    spmv_s_csr_free(&Rs);
    spmv_triplets_free(&t);
}

/* the flag of tile_ptr and empty_offset on a hand-made matrix (omega 4, sigma 2: tiles of
 * 8): rows 0:3 1:0 2:2 3:0 4:0 5:3 6:8 -> tile 0 = rows 0,2,5 with empty 1,3,4 between,
 * tile 1 = row 6 */
static void hand_made(void) {
    static const int64_t len[] = {3, 0, 2, 0, 0, 3, 8};
    spmv_triplets t;
    spmv_d_csr R;
    spmv_d_csr5 M;
    spmv_csr5_params p = spmv_csr5_params_default();
    spmv_status st;
    th_make_rows(&t, 7, 20, len);
    CHECK(spmv_d_csr_from_triplets(&R, &t, NULL, NULL) == SPMV_OK, "hand-made: csr");
    p.isa = SPMV_ISA_GENERIC;
    p.omega = 4;
    p.sigma = 2;
    st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
    CHECK(st == SPMV_OK, "hand-made: %s", spmv_status_str(st));
    if (st == SPMV_OK) {
        const uint32_t top = 0x80000000u;
        /* 16 nonzeros: tile 0 = 0..7 (rows 0, 2, 5), tile 1 = 8..15 (row 6); no tail */
        CHECK(M.ntiles == 2, "hand-made: ntiles %lld", (long long)M.ntiles);
        CHECK(M.tile_ptr[0] == (top | 0u), "hand-made: tile_ptr[0] = %#x", (unsigned)M.tile_ptr[0]);
        CHECK(M.tile_ptr[1] == 6u, "hand-made: tile_ptr[1] = %#x", (unsigned)M.tile_ptr[1]);
        CHECK(M.empty_ptr[0] == 0 && M.empty_ptr[1] == 3 && M.empty_ptr[2] == 3, "hand-made: empty_ptr");
        CHECK(M.empty_offset[0] == 0 && M.empty_offset[1] == 2 && M.empty_offset[2] == 5, "hand-made: empty_offset");
        /* starts at 0 (lane 0 step 0), 3 (lane 1 step 1), 5 (lane 2 step 1): bits 0, 5, 6 */
        CHECK(M.tile_desc[0] == ((1u << 0) | (1u << 5) | (1u << 6)), "hand-made: bit_flag %#x", M.tile_desc[0]);
        /* y_offset 0,1,2,3 ; seg_offset lane0 0, lane1 0, lane2 1, lane3 0; ybits = bits(6) = 3 */
        CHECK(M.ybits == 3, "hand-made: ybits %d", M.ybits);
        CHECK(M.tile_desc[1] == (0u | ((1u | (0u << 3)) << 16)), "hand-made: slots 0/1 %#x", M.tile_desc[1]);
        CHECK(M.tile_desc[2] == ((2u | (1u << 3)) | ((3u | (0u << 3)) << 16)), "hand-made: slots 2/3 %#x",
              M.tile_desc[2]);
        CHECK(M.nempty == 3 && M.empty_rows[0] == 1 && M.empty_rows[1] == 3 && M.empty_rows[2] == 4,
              "hand-made: empty rows");
        spmv_d_csr5_free(&M);
    }
    spmv_d_csr_free(&R);
    spmv_triplets_free(&t);
}

/* every allocation of csr5_from_csr and csr5_to_csr made to fail in turn: SPMV_ERR_ALLOC,
 * nothing leaked, the output left empty */
static void alloc_failures(void) {
    static const int64_t len[] = {3, 0, 2, 0, 0, 3, 8, 0, 1, 5, 0, 0, 7, 2};
    spmv_triplets t;
    spmv_d_csr R, B;
    spmv_d_csr5 M;
    spmv_csr5_params p = spmv_csr5_params_default();
    long k, base;
    int ok;
    th_make_rows(&t, 14, 30, len);
    CHECK(spmv_d_csr_from_triplets(&R, &t, NULL, NULL) == SPMV_OK, "alloc: csr");
    p.isa = SPMV_ISA_GENERIC;
    p.omega = 4;
    p.sigma = 2; /* several tiles, flagged ones among them: every allocation is reached */
    base = th_alloc_live;
    for (ok = 0, k = 1; k < 100 && !ok; k++) {
        spmv_status st;
        memset(&M, 0xAB, sizeof M);
        th_alloc_count = 0;
        th_alloc_fail_at = k;
        st = spmv_d_csr5_from_csr(&M, &R, &p, NULL);
        th_alloc_fail_at = -1;
        if (st == SPMV_OK) {
            ok = 1;
            CHECK(M.empty_ptr[M.ntiles] > 0, "alloc: no flagged tile, empty_offset not exercised");
            spmv_d_csr5_free(&M);
            CHECK(th_alloc_live == base, "alloc: from_csr leaks after success");
            break;
        }
        CHECK(st == SPMV_ERR_ALLOC, "alloc: from_csr, failing allocation %ld gave %s", k, spmv_status_str(st));
        CHECK(th_alloc_live == base, "alloc: from_csr, failing allocation %ld leaked %ld", k, th_alloc_live - base);
        CHECK(th_all_zero(&M, sizeof M), "alloc: from_csr, failing allocation %ld left the object non-empty", k);
    }
    CHECK(ok && k > 8, "alloc: from_csr never succeeded or too few allocation points (%ld)", k);
    CHECK(spmv_d_csr5_from_csr(&M, &R, &p, NULL) == SPMV_OK, "alloc: from_csr");
    base = th_alloc_live;
    for (ok = 0, k = 1; k < 100 && !ok; k++) {
        spmv_status st;
        memset(&B, 0xAB, sizeof B);
        th_alloc_count = 0;
        th_alloc_fail_at = k;
        st = spmv_d_csr5_to_csr(&M, &B);
        th_alloc_fail_at = -1;
        if (st == SPMV_OK) {
            ok = 1;
            spmv_d_csr_free(&B);
            CHECK(th_alloc_live == base, "alloc: to_csr leaks after success");
            break;
        }
        CHECK(st == SPMV_ERR_ALLOC, "alloc: to_csr, failing allocation %ld gave %s", k, spmv_status_str(st));
        CHECK(th_alloc_live == base, "alloc: to_csr, failing allocation %ld leaked", k);
        CHECK(th_all_zero(&B, sizeof B), "alloc: to_csr, failing allocation %ld left the output non-empty", k);
    }
    CHECK(ok, "alloc: to_csr never succeeded");
    spmv_d_csr5_free(&M);
    spmv_d_csr_free(&R);
    spmv_triplets_free(&t);
    CHECK(th_alloc_live == 0, "alloc: %ld blocks live at the end of the sweep", th_alloc_live);
}

static void tune(void) {
    static const char *specs[] = {"stencil3d:n=14,pts=27", "onerow:n=5000,len=5000"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error er;
        spmv_d_csr R;
        spmv_d_csr5 M;
        spmv_csr5_params best;
        double secs = -1;
        spmv_status st;
        int ok_sig;
        if (spmv_gen(specs[i], &t, &er) != SPMV_OK || spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) {
            CHECK(0, "tune: %s: set-up failed", specs[i]);
            continue;
        }
        st = (best = spmv_csr5_params_default(), spmv_d_csr5_tune(&R, &best, &secs));
        ok_sig = best.sigma == 4 || best.sigma == 8 || best.sigma == 12 || best.sigma == 16 || best.sigma == 24 ||
                 best.sigma == 32 || best.sigma == 48 || best.sigma == 64;
        CHECK(st == SPMV_OK && ok_sig && best.isa != SPMV_ISA_AUTO && best.omega > 0 && secs > 0,
              "tune %s: %s sigma %d omega %d isa %s %.3fs", specs[i], spmv_status_str(st), best.sigma, best.omega,
              spmv_isa_name(best.isa), secs);
        printf("tune %s: sigma %d (omega %d, %s) in %.3f s\n", specs[i], best.sigma, best.omega,
               spmv_isa_name(best.isa), secs);
        st = spmv_d_csr5_from_csr(&M, &R, &best, NULL);
        CHECK(st == SPMV_OK, "tune %s: tuned params rejected: %s", specs[i], spmv_status_str(st));
        if (st == SPMV_OK) {
            double *x = (double *)malloc(sizeof(double) * (size_t)R.ncols);
            double *y = (double *)malloc(sizeof(double) * (size_t)R.nrows);
            long double *ref = (long double *)malloc(sizeof(long double) * (size_t)R.nrows);
            long double *scale = (long double *)malloc(sizeof(long double) * (size_t)R.nrows);
            int64_t k;
            for (k = 0; k < R.ncols; k++) x[k] = th_rval();
            spmv_d_csr5_mv(&M, 1.0, x, 0.0, y);
            spmv_d_csr_mv_ref(&R, 1.0, x, 0.0, NULL, ref, scale);
            CHECK(spmv_d_max_rel_err(R.nrows, y, ref, scale) <= 1e-12, "tune %s: tuned product wrong", specs[i]);
            free(x); free(y); free(ref); free(scale);
            spmv_d_csr5_free(&M);
        }
        spmv_d_csr_free(&R);
        spmv_triplets_free(&t);
    }
    { /* an empty matrix tunes to the defaults */
        spmv_d_csr R;
        spmv_triplets t;
        spmv_csr5_params best = spmv_csr5_params_default();
        double secs;
        best.sigma = -1;
        spmv_status st;
        spmv_triplets_alloc(&t, 0, 0, 0);
        CHECK(spmv_d_csr_from_triplets(&R, &t, NULL, NULL) == SPMV_OK, "tune 0x0: csr");
        st = (best = spmv_csr5_params_default(), best.isa = SPMV_ISA_GENERIC, spmv_d_csr5_tune(&R, &best, &secs));
        CHECK(st == SPMV_OK && best.sigma == 32 && best.omega == 8 && best.isa == SPMV_ISA_GENERIC,
              "tune 0x0: %s sigma %d omega %d", spmv_status_str(st), best.sigma, best.omega);
        spmv_d_csr_free(&R);
        spmv_triplets_free(&t);
    }
}

int main(int argc, char **argv) {
    int i;
    static const int gw[] = {4, 8, 16, 32};
#if defined(_OPENMP) && defined(__linux__)
    /* Thousands of short parallel regions: with OpenMP's default (spinning) wait policy a
     * thread that waits at a barrier for a descheduled peer burns its time slice, which on
     * busy shared cores made this test ten times slower. The policy is read when the
     * runtime starts, so restart once with it set (unless the caller chose one). */
    if (argc > 0 && !getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv); /* returns only on failure: then carry on as we are */
    }
#else
    (void)argc;
    (void)argv;
#endif
    max_thr = spmv_max_threads();
    for (i = 0; i < 4; i++) {
        back_isa[nback] = SPMV_ISA_GENERIC;
        back_omega[nback++] = gw[i];
    }
    if (spmv_isa_supported(SPMV_ISA_AVX2)) {
        back_isa[nback] = SPMV_ISA_AVX2;
        back_omega[nback++] = 0;
    } else {
        check_skip("avx2: CPU lacks AVX2/FMA");
    }
    if (spmv_isa_supported(SPMV_ISA_AVX512)) {
        back_isa[nback] = SPMV_ISA_AVX512;
        back_omega[nback++] = 0;
    } else {
        check_skip("avx512: CPU lacks AVX-512F (the emulated build covers it)");
    }
    printf("test_csr5: backends:");
    for (i = 0; i < nback; i++) printf(" %s/%d", spmv_isa_name(back_isa[i]), back_omega[i]);
    printf("; threads %d\n", max_thr);
    {
        static const char *names[] = {"hand-made", "limits", "allocation failures", "edge cases", "generated",
                                      "tune", "real matrices"};
        void (*parts[])(void) = {hand_made, limits, alloc_failures, edge_cases, generated, tune, real_matrices};
        for (i = 0; i < 7; i++) {
            double t0 = spmv_wtime(), c0 = (double)clock() / CLOCKS_PER_SEC;
            parts[i]();
            printf("%s: %.1f s (cpu %.1f s)\n", names[i], spmv_wtime() - t0, (double)clock() / CLOCKS_PER_SEC - c0);
        }
    }
    set_threads(max_thr);
    return check_finish("test_csr5");
}
