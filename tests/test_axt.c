/* AXC and the four AXT variants (formats/axt.h) against the long-double CSR reference:
 * every variant x backend (portable at widths 4/8/16/32, AVX2 and AVX-512 when the CPU
 * has them; the -DSPMV_EMULATE_AVX512 build runs AVX-512 anywhere) x type (s, d, and
 * dl = double/int64) on edge cases, generator specs and the real matrices in
 * $SPMV_MATRICES (default ../shared/matrices). Also: alpha/beta combinations (beta = 0
 * with NaN in y), a changed x (in place, and via update_x + mv_kernel), round trip to
 * CSR, parameter sweeps (TH, BS, thread counts), the head-word limit (SPMV_ERR_LIMIT),
 * the row-0 head word, allocation failures, and the tuner.
 * The per-type body: tests/test_axt_case.h. */
/* the kernels' single-thread threshold is a variable here: small matrices run
 * multi-threaded too (thread boundaries get tested), real ones at the default */
static long g_par_min = 20000;
#define SPMV_PAR_MIN_NNZ g_par_min
#include "test_preamble.h"

/* backends: portable at every width, then AVX2 and AVX-512 at their own */
typedef struct cfg {
    spmv_isa isa;
    int thw; /* 0: the ISA's width */
} cfg;
static cfg g_cfg[8];
static int g_ncfg;
/* -1: every portable width; 0..3: only portable width 4 << g_gw (rotated over the real
 * matrices and the huge row, which are many and big: AVX2 and AVX-512 always run) */
static int g_gw = -1;
#if defined(__SANITIZE_ADDRESS__)
#define AXT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AXT_ASAN 1
#endif
#endif
static void init_cfgs(void) {
    static const int widths[4] = {4, 8, 16, 32};
    int i;
    g_ncfg = 0;
#if defined(SPMV_EMULATE_AVX512) && !defined(AXT_ASAN)
    /* the emulated build exists for the AVX-512 kernels; its portable and AVX2 kernels
     * are the normal build's (the sanitizer build still runs everything) */
    g_cfg[g_ncfg].isa = SPMV_ISA_AVX512;
    g_cfg[g_ncfg++].thw = 0;
    check_skip("emulated build: portable and AVX2 backends run in the normal build only");
    (void)widths;
    (void)i;
    return;
#endif
    for (i = 0; i < 4; i++) {
        g_cfg[g_ncfg].isa = SPMV_ISA_GENERIC;
        g_cfg[g_ncfg++].thw = widths[i];
    }
    if (spmv_isa_supported(SPMV_ISA_AVX2)) {
        g_cfg[g_ncfg].isa = SPMV_ISA_AVX2;
        g_cfg[g_ncfg++].thw = 0;
    }
    if (spmv_isa_supported(SPMV_ISA_AVX512)) {
        g_cfg[g_ncfg].isa = SPMV_ISA_AVX512;
        g_cfg[g_ncfg++].thw = 0;
    }
}

/* how much a matrix is exercised */
enum { LVL_FULL = 0, LVL_REAL = 1 };
/* extra parameters of the sweep: TH for AXTUH / AXTCH, BS for AXTCH1 */
static const int sweep_th_uh[] = {1, 2, 3, 5, 8, 16, 64};
static const int sweep_th_ch[] = {1, 2, 4, 16, 128, 1024};
static const int sweep_bs[] = {0 /* = thw */, 64, 256, 4096};

#define TT_CASE "test_axt_case.h"
#include "tt_tags.h"

static int g_sweep; /* run the parameter sweep on the following matrices */

static void run_all(const char *name, const spmv_triplets *t, int special) {
    double t0 = spmv_wtime();
    test_s_run(name, t, special, LVL_FULL, g_sweep);
    test_d_run(name, t, special, LVL_FULL, g_sweep);
    test_dl_run(name, t, special, LVL_FULL, g_sweep);
    if (getenv("AXT_VERBOSE")) printf("  %s: %.2f s\n", name, spmv_wtime() - t0);
}

static void edge_cases(void) {
    spmv_triplets t;
    int64_t k, n;
    g_par_min = 20000;
    g_sweep = 1;
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 no entries", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = t.col[0] = 0; t.val[0] = 3; run_all("1x1", &t, 0); spmv_triplets_free(&t);
    /* row 0 has one entry at offset 0: the head word the paper encodes as 0 */
    spmv_triplets_alloc(&t, 40, 40, 40);
    for (k = 0; k < 40; k++) { t.row[k] = k == 0 ? 0 : 1 + k % 39; t.col[k] = (k * 7) % 40; t.val[k] = th_rval(); }
    run_all("row 0 single entry", &t, 0); spmv_triplets_free(&t);
    g_par_min = 1000; /* the next ones run multi-threaded although small */
    /* empty rows between full ones, and leading/trailing empty rows */
    spmv_triplets_alloc(&t, 1000, 1000, 3000);
    for (k = 0; k < 3000; k++) { t.row[k] = 5 + (k % 300) * 3; t.col[k] = (int64_t)(th_rnd() % 1000); t.val[k] = th_rval(); }
    run_all("empty rows", &t, 0); spmv_triplets_free(&t);
    /* one dense row among short ones */
    n = 3000;
    spmv_triplets_alloc(&t, n, n, 2 * n);
    for (k = 0; k < n; k++) { t.row[k] = 17; t.col[k] = k; t.val[k] = th_rval(); }
    for (k = 0; k < n; k++) { t.row[n + k] = k; t.col[n + k] = k; t.val[n + k] = 1; }
    run_all("one dense row", &t, 0); spmv_triplets_free(&t);
    /* rows much longer than a tile, a column (TH) and a block (BS) */
    spmv_triplets_alloc(&t, 7, 5000, 7 * 4000);
    for (k = 0; k < 7 * 4000; k++) { t.row[k] = k % 7; t.col[k] = (k / 7) + (k % 7) * 100; t.val[k] = th_rval(); }
    run_all("7 rows of 4000", &t, 0); spmv_triplets_free(&t);
    g_par_min = 20000;
    th_make_random(&t, 5000, 3, 9000); run_all("tall 5000x3", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 3, 5000, 9000); run_all("wide 3x5000", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 10, 10, 40);
    for (k = 0; k < 40; k++) { t.row[k] = 9 - (k % 10); t.col[k] = (k * 3) % 4; t.val[k] = (double)k; }
    run_all("duplicates unsorted", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 300, 300, 2000);
    for (k = 0; k < t.nnz; k += 3) t.val[k] = 0;
    run_all("explicit zeros", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 400, 400, 4000);
    t.val[5] = NAN; t.val[77] = INFINITY; t.val[1000] = -INFINITY;
    run_all("NaN/Inf in A", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 400, 400, 4000); run_all("NaN/Inf in x", &t, 1); spmv_triplets_free(&t);
    /* rows of very different scale next to each other in one tile/block: a scan
     * difference (the paper's fast segmented sum) would lose the small rows */
    spmv_triplets_alloc(&t, 200, 64, 200 * 5);
    for (k = 0; k < 200 * 5; k++) {
        t.row[k] = k / 5; t.col[k] = (k * 13) % 64;
        t.val[k] = th_rval() * ((k / 5) % 2 ? 1e-9 : 1e9);
    }
    run_all("alternating row scales 1e9/1e-9", &t, 0); spmv_triplets_free(&t);
    g_sweep = 0;
    for (k = 0; k < 12; k++) {
        char name[64];
        int64_t r = 1 + (int64_t)(th_rnd() % 900), c = 1 + (int64_t)(th_rnd() % 900);
        int64_t z = (int64_t)(th_rnd() % (uint64_t)(r * 40));
        th_make_random(&t, r, c, z);
        snprintf(name, sizeof name, "random %lldx%lld nnz %lld", (long long)r, (long long)c, (long long)z);
        g_sweep = k < 3;
        run_all(name, &t, 0);
        spmv_triplets_free(&t);
    }
    g_sweep = 1;
    g_par_min = 1000;
    {
        int64_t len, p = 0;
        spmv_triplets_alloc(&t, 71, 200, 71 * 35);
        for (len = 0; len < 71; len++)
            for (k = 0; k < len; k++) { t.row[p] = len; t.col[p] = (len * 13 + k * 7) % 200; t.val[p] = th_rval(); p++; }
        t.nnz = p;
        run_all("row lengths 0..70", &t, 0);
        spmv_triplets_free(&t);
    }
    g_sweep = 0;
    th_make_random(&t, 20000, 20000, 300000); run_all("random 20000^2 (parallel)", &t, 0); spmv_triplets_free(&t);
}

/* one row of 2M entries (fewer when SPMV_TEST_MAX_NNZ is lower): shared by all threads */
static void huge_row(void) {
    const char *maxs = getenv("SPMV_TEST_MAX_NNZ");
    int64_t n = 2000000, k;
    spmv_triplets t;
    char name[64];
    if (maxs && atoll(maxs) >= 0 && atoll(maxs) < n) n = atoll(maxs) < 100000 ? 100000 : atoll(maxs);
    if (spmv_triplets_alloc(&t, 3, n + n / 4 + 1, n) != SPMV_OK) abort();
    for (k = 0; k < n; k++) { t.row[k] = 1; t.col[k] = k + k / 4; t.val[k] = th_rval(); }
    snprintf(name, sizeof name, "one huge row of %lld", (long long)n);
    g_par_min = 20000;
    g_gw = 0;
    test_s_run(name, &t, 0, LVL_REAL, 0);
    g_gw = 1;
    test_d_run(name, &t, 0, LVL_REAL, 0);
    g_gw = -1;
    spmv_triplets_free(&t);
}

static void generated(void) {
    static const char *specs[] = {"stencil3d:n=14,pts=27", "rmat:scale=12,ef=8", "circuit:n=6000", "fem:n=400,bs=3",
                                  "band:n=3000,bw=4", "stencil2d:n=60", "random:rows=2000,cols=1500,nnzr=9",
                                  "lp:rows=300,cols=4000", "dense:rows=80,cols=90", "onerow:n=5000,len=5000"};
    size_t i;
    g_par_min = 20000;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        spmv_status st = spmv_gen(specs[i], &t, &e);
        CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        g_sweep = i < 2;
        run_all(specs[i], &t, 0);
        spmv_triplets_free(&t);
    }
    g_sweep = 0;
}

static void real_matrices(void) {
    g_par_min = 20000;
    /* the real matrices: tests/test_format.c (family axt) runs every variant x backend x
     * type s, d, dl on them, with the same checks (products, x changed in place, update_x +
     * mv_kernel, round trip, footprint) and the portable width rotating */
}

/* a row of different thread counts over matrices whose rows cross thread boundaries */
static void thread_counts(void) {
#ifdef _OPENMP
    static const int nts[] = {1, 3, 7};
    int saved = omp_get_max_threads();
    size_t i;
    g_par_min = 1000;
    spmv_triplets t;
    spmv_error e;
    for (i = 0; i < sizeof nts / sizeof nts[0]; i++) {
        char name[64];
        int64_t k;
        omp_set_num_threads(nts[i]);
        snprintf(name, sizeof name, "rmat:scale=11,ef=6 threads=%d", nts[i]);
        if (spmv_gen("rmat:scale=11,ef=6", &t, &e) == SPMV_OK) {
            test_d_run(name, &t, 0, LVL_FULL, 2);
            spmv_triplets_free(&t);
        }
        /* a few long rows and many empty ones: boundaries inside rows and inside gaps */
        spmv_triplets_alloc(&t, 500, 3000, 12000);
        for (k = 0; k < 12000; k++) {
            t.row[k] = k < 9000 ? 7 + (k % 3) * 200 : 499 - k % 40;
            t.col[k] = (k * 17) % 3000;
            t.val[k] = th_rval();
        }
        snprintf(name, sizeof name, "long rows and gaps threads=%d", nts[i]);
        test_s_run(name, &t, 0, LVL_FULL, 2);
        test_d_run(name, &t, 0, LVL_FULL, 2);
        spmv_triplets_free(&t);
    }
    omp_set_num_threads(saved);
#else
    check_skip("thread counts: built without OpenMP");
#endif
}

/* the allocation failure sweep: every allocation of every conversion may fail */
static void alloc_failures(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr R, B;
    spmv_d_axt A;
    int v, points = 0;
    if (spmv_gen("random:rows=300,cols=200,nnzr=5,seed=3", &t, &e) != SPMV_OK) abort();
    if (spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) abort();
    spmv_triplets_free(&t);
    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_; v++) {
        long k, base = th_alloc_live;
        int ok = 0, step;
        for (step = 0; step < 2; step++) { /* 0: from_csr, 1: to_csr */
            spmv_d_axt A2;
            if (step == 1 && spmv_d_axt_from_csr(&A2, &R, (spmv_axt_variant)v, NULL, NULL) != SPMV_OK) abort();
            base = th_alloc_live;
            ok = 0;
            for (k = 1; k < 100; k++) {
                spmv_status st;
                void *out = step == 0 ? (void *)&A : (void *)&B;
                size_t outsize = step == 0 ? sizeof A : sizeof B;
                memset(out, 0xAB, outsize);
                th_alloc_count = 0;
                th_alloc_fail_at = k;
                st = step == 0 ? spmv_d_axt_from_csr(&A, &R, (spmv_axt_variant)v, NULL, NULL) : spmv_d_axt_to_csr(&A2, &B);
                th_alloc_fail_at = -1;
                points++;
                if (st == SPMV_OK) {
                    ok = 1;
                    if (step == 0) spmv_d_axt_free(&A);
                    else spmv_d_csr_free(&B);
                    CHECK(th_alloc_live == base, "%s: leak after success", spmv_axt_variant_name((spmv_axt_variant)v));
                    break;
                }
                CHECK(st == SPMV_ERR_ALLOC, "%s step %d: failing allocation %ld gave %s",
                      spmv_axt_variant_name((spmv_axt_variant)v), step, k, spmv_status_str(st));
                CHECK(th_alloc_live == base, "%s step %d: failing allocation %ld leaked %ld blocks",
                      spmv_axt_variant_name((spmv_axt_variant)v), step, k, th_alloc_live - base);
                {
                    const unsigned char *c = (const unsigned char *)out;
                    size_t i, nz = 0;
                    for (i = 0; i < outsize; i++) nz += c[i] != 0;
                    CHECK(nz == 0, "%s step %d: failing allocation %ld left the output non-empty",
                          spmv_axt_variant_name((spmv_axt_variant)v), step, k);
                }
            }
            CHECK(ok, "%s step %d: never succeeded", spmv_axt_variant_name((spmv_axt_variant)v), step);
            if (step == 1) spmv_d_axt_free(&A2);
        }
    }
    spmv_d_csr_free(&R);
    printf("allocation failures: %d points checked\n", points);
}

/* csr with nrows rows and one entry (in the last row), built directly (no triplets) */
static int tall_csr(spmv_d_csr *R, int64_t nrows) {
    memset(R, 0, sizeof *R);
    R->row_ptr = (int32_t *)spmv__calloc((size_t)nrows + 1, sizeof(int32_t));
    R->col_idx = SPMV_ALLOC_N(int32_t, 1);
    R->val = SPMV_ALLOC_N(double, 1);
    if (!R->row_ptr || !R->col_idx || !R->val) return 0;
    R->row_ptr[nrows] = 1;
    R->col_idx[0] = 0;
    R->val[0] = 2.0;
    R->nrows = (int32_t)nrows;
    R->ncols = 1;
    R->nnz = 1;
    R->params = spmv_csr_params_default();
    R->params.isa = SPMV_ISA_GENERIC;
    return 1;
}

/* head-word limits: computed limit, SPMV_ERR_LIMIT just past it, a working object at it */
static void limits(void) {
    spmv_d_csr R;
    spmv_d_axt A;
    spmv_axt_params p = spmv_axt_params_default(), q = spmv_axt_params_default();
    spmv_status st;
    int64_t big = (int64_t)1 << 23;
    CHECK(spmv_d_axt_max_rows(SPMV_AXTCH1, 1, 512) == big - 1, "AXTCH1 bs=512: max rows %lld",
          (long long)spmv_d_axt_max_rows(SPMV_AXTCH1, 1, 512));
    CHECK(spmv_d_axt_max_rows(SPMV_AXTCH1, 1, 1024) == ((int64_t)1 << 22) - 1, "AXTCH1 bs=1024 limit");
    CHECK(spmv_d_axt_max_rows(SPMV_AXTCH, 64, 0) == ((int64_t)1 << 26) - 1, "AXTCH th=64 limit");
    CHECK(spmv_d_axt_max_rows(SPMV_AXTCH, 1, 0) == ((int64_t)1 << 32) - 1, "AXTCH th=1 limit");
    CHECK(spmv_dl_axt_max_rows(SPMV_AXTCH1, 1, 1 << 20) >= ((int64_t)1 << 43) - 1, "64-bit header limit");
    CHECK(spmv_d_axt_max_rows(SPMV_AXTUH, 4, 0) == INT32_MAX, "AXTUH: no header limit");
    CHECK(spmv_d_axt_max_rows(SPMV_AXTCH1, 1, 100) == -1, "bs not a power of two");
    /* 2^23 rows: BS=512 leaves 23 bits for row+1 -> LIMIT; automatic BS drops to 256 */
    if (!tall_csr(&R, big)) abort();
    p.isa = SPMV_ISA_GENERIC;
    p.bs = 512;
    st = spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH1, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT, "AXTCH1 2^23 rows bs=512: %s", spmv_status_str(st));
    p.bs = 0;
    st = spmv_d_axt_params_resolve(&R, SPMV_AXTCH1, &p, &q);
    CHECK(st == SPMV_OK && q.bs == 256, "AXTCH1 2^23 rows automatic bs: %s bs=%d", spmv_status_str(st), q.bs);
    p.bs = 0;
    p.th = 1 << 10; /* 22 bits */
    st = spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH, &p, NULL);
    CHECK(st == SPMV_ERR_LIMIT, "AXTCH 2^23 rows th=1024: %s", spmv_status_str(st));
    p.th = 0;
    st = spmv_d_axt_params_resolve(&R, SPMV_AXTCH, &p, &q);
    CHECK(st == SPMV_OK && q.th == 64, "AXTCH 2^23 rows automatic th: %s th=%d", spmv_status_str(st), q.th);
    spmv_d_csr_free(&R);
    /* a real object at the limit and one row past it: bs = 2^20 leaves 12 bits */
    {
        static const int64_t rows[2] = {4095, 4096};
        int i;
        for (i = 0; i < 2; i++) {
            double x = 3, *y = (double *)malloc(sizeof(double) * (size_t)rows[i]);
            int64_t r;
            if (!y || !tall_csr(&R, rows[i])) abort();
            p = spmv_axt_params_default();
            p.isa = SPMV_ISA_GENERIC;
            p.thw = 4;
            p.bs = 1 << 20;
            st = spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH1, &p, NULL);
            if (i == 0) {
                int ok = st == SPMV_OK;
                CHECK(ok, "AXTCH1 4095 rows bs=2^20: %s", spmv_status_str(st));
                if (ok) {
                    for (r = 0; r < rows[i]; r++) y[r] = 1;
                    spmv_d_axt_mv(&A, 1, &x, 0.5, y);
                    for (r = 0; r + 1 < rows[i]; r++) ok &= y[r] == 0.5;
                    ok &= y[rows[i] - 1] == 6.5;
                    CHECK(ok, "AXTCH1 4095 rows bs=2^20: wrong product");
                    spmv_d_axt_free(&A);
                }
            } else {
                CHECK(st == SPMV_ERR_LIMIT, "AXTCH1 4096 rows bs=2^20: %s", spmv_status_str(st));
            }
            spmv_d_csr_free(&R);
            free(y);
        }
        p.bs = 0;
        p.th = 1 << 16; /* 16 bits */
        if (!tall_csr(&R, 65536)) abort();
        st = spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH, &p, NULL);
        CHECK(st == SPMV_ERR_LIMIT, "AXTCH 65536 rows th=2^16: %s", spmv_status_str(st));
        spmv_d_csr_free(&R);
        if (!tall_csr(&R, 65535)) abort();
        st = spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH, &p, NULL);
        CHECK(st == SPMV_OK, "AXTCH 65535 rows th=2^16: %s", spmv_status_str(st));
        if (st == SPMV_OK) {
            double x = -1, *y = (double *)malloc(sizeof(double) * 65535);
            int64_t r;
            int ok = 1;
            if (!y) abort();
            spmv_d_axt_mv(&A, 2, &x, 0, y);
            for (r = 0; r < 65535; r++) ok &= y[r] == (r == 65534 ? -4.0 : 0.0);
            CHECK(ok, "AXTCH 65535 rows th=2^16: wrong product");
            free(y);
            spmv_d_axt_free(&A);
        }
        spmv_d_csr_free(&R);
    }
    /* invalid parameters */
    {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen("band:n=100,bw=2", &t, &e) != SPMV_OK || spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) abort();
        spmv_triplets_free(&t);
        p = spmv_axt_params_default();
        p.isa = SPMV_ISA_GENERIC;
        p.thw = 12;
        CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXC, &p, NULL) == SPMV_ERR_ARG, "thw=12 accepted");
        p.thw = 8;
        p.bs = 4;
        CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH1, &p, NULL) == SPMV_ERR_ARG, "bs < thw accepted");
        p.bs = 96;
        CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH1, &p, NULL) == SPMV_ERR_ARG, "bs=96 accepted");
        p.bs = 0;
        p.th = 12;
        CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXTCH, &p, NULL) == SPMV_ERR_ARG, "AXTCH th=12 accepted");
        CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXTUH, &p, NULL) == SPMV_OK, "AXTUH th=12 refused");
        spmv_d_axt_free(&A);
        if (spmv_isa_supported(SPMV_ISA_AVX512)) {
            p = spmv_axt_params_default();
            p.isa = SPMV_ISA_AVX512;
            p.thw = 4;
            CHECK(spmv_d_axt_from_csr(&A, &R, SPMV_AXC, &p, NULL) == SPMV_ERR_ARG, "avx512 with thw=4 accepted");
            p.isa = SPMV_ISA_AUTO;
            st = spmv_d_axt_from_csr(&A, &R, SPMV_AXC, &p, NULL);
            CHECK(st == SPMV_OK && A.params.thw == 4 && (getenv("SPMV_ISA") || A.params.isa == SPMV_ISA_GENERIC),
                  "auto isa with thw=4: %s isa %s thw %d", spmv_status_str(st), spmv_isa_name(A.params.isa), A.params.thw);
            spmv_d_axt_free(&A);
        }
        CHECK(spmv_d_axt_mv(NULL, 1, NULL, 0, NULL) == SPMV_ERR_ARG, "NULL object accepted");
        spmv_d_csr_free(&R);
    }
}

/* the head word of row 0 at offset 0 is not 0 */
static void row0_head(void) {
    spmv_triplets t;
    spmv_d_csr R;
    spmv_d_axt A;
    int v;
    spmv_triplets_alloc(&t, 3, 3, 3);
    t.row[0] = 0; t.col[0] = 2; t.val[0] = 5;
    t.row[1] = 1; t.col[1] = 0; t.val[1] = 1;
    t.row[2] = 2; t.col[2] = 1; t.val[2] = 1;
    if (spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) abort();
    for (v = SPMV_AXTCH1; v <= SPMV_AXTCH; v++) {
        double x[3] = {1, 1, 7}, y[3] = {NAN, NAN, NAN};
        if (spmv_d_axt_from_csr(&A, &R, (spmv_axt_variant)v, NULL, NULL) != SPMV_OK) abort();
        CHECK(A.hdr[0] != 0 && (A.hdr[0] & ((1u << A.lg) - 1)) == 0, "%s: row-0 head word %u",
              spmv_axt_variant_name((spmv_axt_variant)v), (unsigned)A.hdr[0]);
        spmv_d_axt_mv(&A, 1, x, 0, y);
        CHECK(y[0] == 35 && y[1] == 1 && y[2] == 1, "%s: row 0 dropped: y = %g %g %g",
              spmv_axt_variant_name((spmv_axt_variant)v), y[0], y[1], y[2]);
        spmv_d_axt_free(&A);
    }
    spmv_d_csr_free(&R);
    spmv_triplets_free(&t);
}

/* the tuner returns parameters that build and multiply correctly (no timing checked) */
static void tuner(void) {
    spmv_triplets t;
    spmv_error e;
    int v;
    if (spmv_gen("circuit:n=4000", &t, &e) != SPMV_OK) abort();
    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_; v++) {
        spmv_d_csr R;
        spmv_axt_params best;
        double secs = -1;
        spmv_status st;
        if (spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) abort();
        st = spmv_d_axt_tune(&R, (spmv_axt_variant)v, SPMV_ISA_AUTO, &best, &secs);
        CHECK(st == SPMV_OK && secs >= 0, "tune %s: %s", spmv_axt_variant_name((spmv_axt_variant)v), spmv_status_str(st));
        if (st == SPMV_OK) {
            spmv_d_axt A;
            st = spmv_d_axt_from_csr(&A, &R, (spmv_axt_variant)v, &best, NULL);
            CHECK(st == SPMV_OK, "tuned %s params do not build: %s", spmv_axt_variant_name((spmv_axt_variant)v),
                  spmv_status_str(st));
            if (st == SPMV_OK) {
                char buf[64];
                spmv_d_axt_params_str(&A, buf, sizeof buf);
                printf("tune %s: %s (%.3f s)\n", spmv_axt_variant_name((spmv_axt_variant)v), buf, secs);
                spmv_d_axt_free(&A);
            }
        }
        spmv_d_csr_free(&R);
    }
    spmv_triplets_free(&t);
}

int main(void) {
    int i;
    init_cfgs();
    printf("test_axt: backends:");
    for (i = 0; i < g_ncfg; i++)
        if (g_cfg[i].thw) printf(" %s%d", g_cfg[i].isa == SPMV_ISA_GENERIC ? "g" : spmv_isa_name(g_cfg[i].isa), g_cfg[i].thw);
        else printf(" %s", spmv_isa_name(g_cfg[i].isa));
    printf("; threads %d\n", spmv_max_threads());
    if (!spmv_isa_supported(SPMV_ISA_AVX512)) check_skip("avx512: CPU lacks AVX-512F (the emulated build covers it)");
    if (!spmv_isa_supported(SPMV_ISA_AVX2)) check_skip("avx2: CPU lacks AVX2/FMA");
    {
        static void (*const parts[])(void) = {row0_head, limits, alloc_failures, edge_cases, thread_counts,
                                              huge_row, generated, real_matrices, tuner};
        static const char *const names[] = {"row0_head", "limits", "alloc_failures", "edge_cases", "thread_counts",
                                            "huge_row", "generated", "real_matrices", "tuner"};
        for (i = 0; i < (int)(sizeof parts / sizeof parts[0]); i++) {
            double t0 = spmv_wtime();
            parts[i]();
            printf("%s: %.1f s\n", names[i], spmv_wtime() - t0);
            fflush(stdout);
        }
    }
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_axt");
}
