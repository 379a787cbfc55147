/* The test every format gets from the registry: built once per family (build.ninja,
 * generated from formats/registry.h: -DSPMV_FORMATS_ONLY -DSPMV_WITH_<family>=1
 * -DTEST_FAMILY=<family>), so each program compiles only the formats it tests. Every host
 * format of the family x type (s, d, and a user-instantiated dl = double/int64) x backend
 * (portable, at every width for width-dependent layouts; AVX2; AVX-512 native or
 * emulated) against the long-double reference on edge cases, generator presets and the
 * real matrices of ../shared/matrices; round trip to CSR; parameter strings; malformed CSR
 * (every converter must refuse it); the zero-copy csr_wrap; allocation failure at every
 * allocation of every converter. Format-specific tests live in tests/test_<family>.c. */
#ifndef TEST_FAMILY
#error "build with -DTEST_FAMILY=<family> (see build.ninja)"
#endif
#include "test_preamble.h"

static int test_rotate; /* the portable width of width-dependent formats on real matrices */
/* SPMV_TEST_GENERIC_MAX_NNZ: the portable (scalar-emulated vector) kernels run on the real
 * matrices up to this many nonzeros (the AVX2 and AVX-512 ones on all; edge cases and presets
 * always run portable too); -1: no cap */
static int64_t test_generic_cap = -1;
static long test_generic_skipped;
/* SPMV_TEST_AVX2_MAX_NNZ: where AVX-512 runs too, the AVX2 kernels (the same source at half the
 * width) run on the real matrices up to this many nonzeros; -1: no cap */
static int64_t test_avx2_cap = -1;
static long test_avx2_skipped;
#define SPMV_IMAX_OF(T) (sizeof(T) == 4 ? (int64_t)INT32_MAX : INT64_MAX)

static int test_in_family(spmv_format f) {
    return spmv_format_compiled(f) && (spmv_format_flags(f) & SPMV_FF_HOST) &&
           !strcmp(spmv_format_family(f), STR(TEST_FAMILY));
}
/* the emulated AVX-512 build exists for the AVX-512 kernels (SPMV_TEST_ISAS=avx512 there);
 * by default every backend the CPU has */
static int test_isa_on(spmv_isa isa) {
    const char *only = getenv("SPMV_TEST_ISAS");
    if (!spmv_isa_supported(isa)) return 0;
    return !only || strstr(only, spmv_isa_name(isa)) != NULL ||
           (isa == SPMV_ISA_AVX512 && strstr(only, "avx512") != NULL);
}

#define TT_CASE "format_case.h"
#include "tt_tags.h"

/* A family of symmetric-only formats (registry column sym) gets every matrix twice: as it
 * is, which the converter must refuse unless it is symmetric (the check here is the test's
 * own: the mirror of each entry looked up in a sorted copy), and, when square, made
 * symmetric as A + A^T (the same sum in both mirrors, so exactly symmetric), which runs
 * everything below. */
static int test_sym_family(void) {
    int f;
    for (f = 0; f < SPMV_FMT_COUNT_; f++)
        if (test_in_family((spmv_format)f) && (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC)) return 1;
    return 0;
}
static int test_is_symmetric(const spmv_dl_csr *R) {
    int64_t r, k;
    if (R->nrows != R->ncols) return 0;
    for (r = 0; r < R->nrows; r++)
        for (k = R->row_ptr[r]; k < R->row_ptr[r + 1]; k++) {
            const int64_t c = R->col_idx[k];
            int64_t m, found = -1;
            for (m = R->row_ptr[c]; m < R->row_ptr[c + 1]; m++)
                if (R->col_idx[m] == r) found = m;
            if (found < 0 || !(R->val[found] == R->val[k] || (isnan(R->val[found]) && isnan(R->val[k])))) return 0;
        }
    return 1;
}
/* the refusal of a non-symmetric t by every symmetric format of the family; 1: t symmetric */
static int test_sym_refusal(const char *name, const spmv_triplets *t) {
    spmv_dl_csr R;
    int f, sym;
    if (spmv_dl_csr_from_triplets(&R, t, NULL, NULL) != SPMV_OK) return 0;
    sym = test_is_symmetric(&R);
    for (f = 0; f < SPMV_FMT_COUNT_ && !sym; f++) {
        spmv_dl_any M;
        spmv_error e;
        spmv_status st;
        const spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
        if (!test_in_family((spmv_format)f) || !(spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC)) continue;
        st = spmv_dl_any_from_csr(&M, &R, &o, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "symmetric") && th_all_zero(&M, sizeof M),
              "%s [%s]: a non-symmetric matrix gave %s '%s'", name, spmv_format_name((spmv_format)f),
              spmv_status_str(st), e.msg);
        if (st == SPMV_OK) spmv_dl_any_free(&M);
    }
    spmv_dl_csr_free(&R);
    return sym;
}
/* A + A^T of a square t into u (1), 0 when t is not square. t's repeats are summed first, so
 * that each position of u sums two values, in either order the same. */
static int test_symmetrize(const spmv_triplets *t, spmv_triplets *u) {
    spmv_dl_csr R;
    int64_t r, k;
    if (t->nrows != t->ncols || spmv_dl_csr_from_triplets(&R, t, NULL, NULL) != SPMV_OK) return 0;
    if (spmv_triplets_alloc(u, t->nrows, t->ncols, 2 * (int64_t)R.nnz) != SPMV_OK) {
        spmv_dl_csr_free(&R);
        return 0;
    }
    for (r = 0; r < R.nrows; r++)
        for (k = R.row_ptr[r]; k < R.row_ptr[r + 1]; k++) {
            u->row[k] = r, u->col[k] = R.col_idx[k], u->val[k] = R.val[k];
            u->row[R.nnz + k] = R.col_idx[k], u->col[R.nnz + k] = r, u->val[R.nnz + k] = R.val[k];
        }
    spmv_dl_csr_free(&R);
    return 1;
}
static void run_types(const char *name, const spmv_triplets *t, int special, int all_widths) {
    spmv_triplets u;
    char nm[160];
    if (test_sym_family()) {
        if (test_sym_refusal(name, t)) {
            snprintf(nm, sizeof nm, "%s (symmetric)", name);
        } else {
            if (!test_symmetrize(t, &u)) return; /* not square: the refusal was the test */
            snprintf(nm, sizeof nm, "%s + its transpose", name);
            test_s_run(nm, &u, special, all_widths);
            test_d_run(nm, &u, special, all_widths);
            test_dl_run(nm, &u, special, all_widths);
            spmv_triplets_free(&u);
            return;
        }
        name = nm;
    }
    test_s_run(name, t, special, all_widths);
    test_d_run(name, t, special, all_widths);
    test_dl_run(name, t, special, all_widths);
}
static void run_all_w(const char *name, const spmv_triplets *t, int special, int all_widths) {
    run_types(name, t, special, all_widths);
}
static void run_all(const char *name, const spmv_triplets *t, int special) { run_all_w(name, t, special, 1); }
static void run_real(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    run_types(name, t, 0, 0);
}

/* sizes of the two large edge cases: a quarter under the sanitizers (still above the
 * kernels' multi-thread threshold), where they took most of the run */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_BIG 4
#else
#define TEST_BIG 1
#endif
static void edge_cases(void) {
    spmv_triplets t;
    int64_t k, n;
    /* empty shapes */
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 no entries", &t, 0); spmv_triplets_free(&t);
    /* 1x1 */
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = t.col[0] = 0; t.val[0] = 3; run_all("1x1", &t, 0); spmv_triplets_free(&t);
    /* empty rows between full ones */
    spmv_triplets_alloc(&t, 1000, 1000, 3000);
    for (k = 0; k < 3000; k++) { t.row[k] = (k % 300) * 3; t.col[k] = (int64_t)(th_rnd() % 1000); t.val[k] = th_rval(); }
    run_all("empty rows", &t, 0); spmv_triplets_free(&t);
    /* one dense row among short ones */
    n = 3000;
    spmv_triplets_alloc(&t, n, n, 2 * n);
    for (k = 0; k < n; k++) { t.row[k] = 17; t.col[k] = k; t.val[k] = th_rval(); }
    for (k = 0; k < n; k++) { t.row[n + k] = k; t.col[n + k] = k; t.val[n + k] = 1; }
    run_all("one dense row", &t, 0); spmv_triplets_free(&t);
    /* one huge row only: merge path must split it over threads */
    th_make_random(&t, 1, 300000, 400000 / TEST_BIG);
    for (k = 0; k < t.nnz; k++) t.row[k] = 0;
    run_all("one huge row", &t, 0); spmv_triplets_free(&t);
    /* tall and wide */
    th_make_random(&t, 5000, 3, 9000); run_all("tall 5000x3", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 3, 5000, 9000); run_all("wide 3x5000", &t, 0); spmv_triplets_free(&t);
    /* duplicates and unsorted input */
    spmv_triplets_alloc(&t, 10, 10, 40);
    for (k = 0; k < 40; k++) { t.row[k] = 9 - (k % 10); t.col[k] = (k * 3) % 4; t.val[k] = (double)k; }
    run_all("duplicates unsorted", &t, 0); spmv_triplets_free(&t);
    /* explicit zeros */
    th_make_random(&t, 300, 300, 2000);
    for (k = 0; k < t.nnz; k += 3) t.val[k] = 0;
    run_all("explicit zeros", &t, 0); spmv_triplets_free(&t);
    /* NaN / Inf in A; NaN / Inf in x */
    th_make_random(&t, 400, 400, 4000);
    t.val[5] = NAN; t.val[77] = INFINITY; t.val[1000] = -INFINITY;
    run_all("NaN/Inf in A", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 400, 400, 4000); run_all("NaN/Inf in x", &t, 1); spmv_triplets_free(&t);
    /* random shapes, row lengths around every vector width */
    for (k = 0; k < 12; k++) {
        char name[64];
        int64_t r = 1 + (int64_t)(th_rnd() % 900), c = 1 + (int64_t)(th_rnd() % 900);
        int64_t z = (int64_t)(th_rnd() % (uint64_t)(r * 40));
        th_make_random(&t, r, c, z);
        snprintf(name, sizeof name, "random %lldx%lld nnz %lld", (long long)r, (long long)c, (long long)z);
        run_all(name, &t, 0);
        spmv_triplets_free(&t);
    }
    /* all row lengths 0..70 */
    {
        int64_t len[71];
        for (k = 0; k < 71; k++) len[k] = k;
        th_make_rows(&t, 71, 200, len);
        run_all("row lengths 0..70", &t, 0);
        spmv_triplets_free(&t);
    }
    /* a large enough matrix that the kernels run multi-threaded */
    th_make_random(&t, 20000, 20000, 300000 / TEST_BIG); run_all("random 20000^2 (parallel)", &t, 0); spmv_triplets_free(&t);
}

static void generated(void) {
    static const char *specs[] = {"stencil2d:n=60", "stencil3d:n=14,pts=27", "stencil3d:n=20,pts=7",
                                  "fem:n=400,bs=3", "band:n=3000,bw=4", "random:rows=2000,cols=1500,nnzr=9",
                                  "rmat:scale=12,ef=8", "circuit:n=6000", "lp:rows=300,cols=4000",
                                  "dense:rows=80,cols=90", "onerow:n=5000,len=5000"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        spmv_status st = spmv_gen(specs[i], &t, &e);
        CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        /* under the sanitizers the presets take one portable width each, rotating, as the
         * real matrices do (the edge cases keep every width) */
        run_all_w(specs[i], &t, 0, TEST_BIG == 1);
        spmv_triplets_free(&t);
    }
}

/* The matrix of the params and allocation-failure tests for format f: R, or, when f's
 * documented size cap refuses R (DIA on a random matrix), the banded Rb; for a symmetric
 * format the symmetric Rs (band_matrix + its transpose). */
static spmv_d_csr test_Rs;
static const spmv_d_csr *fit_matrix(spmv_format f, const spmv_d_csr *R, const spmv_d_csr *Rb) {
    if (spmv_format_flags(f) & SPMV_FF_SYMMETRIC) return &test_Rs;
#if SPMV_CAT(SPMV_LIMITED_, TEST_FAMILY)
    return test_d_limited(R, f, "", SPMV_ISA_AUTO) ? Rb : R;
#else
    (void)f, (void)Rb;
    return R;
#endif
}
static int band_matrix(spmv_d_csr *Rb) {
    spmv_triplets t, u;
    spmv_error e;
    int ok;
    memset(&t, 0, sizeof t);
    ok = spmv_gen("band:n=300,bw=3,seed=2", &t, &e) == SPMV_OK && spmv_d_csr_from_triplets(Rb, &t, NULL, NULL) == SPMV_OK;
    if (ok && !test_Rs.row_ptr) {
        ok = test_symmetrize(&t, &u) && spmv_d_csr_from_triplets(&test_Rs, &u, NULL, NULL) == SPMV_OK;
        spmv_triplets_free(&u);
    }
    spmv_triplets_free(&t);
    return ok;
}

/* "key=value" strings: every key of every format parses, round-trips through the
 * object's params string, and a bad key or value is refused with its name in the message */
static void params(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr R0, Rb;
    int f;
    if (spmv_gen("random:rows=300,cols=300,nnzr=6,seed=5", &t, &e) != SPMV_OK || spmv_d_csr_from_triplets(&R0, &t, NULL, NULL) != SPMV_OK ||
        !band_matrix(&Rb)) {
        CHECK(0, "params: setup failed");
        return;
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        const spmv_d_csr *R = fit_matrix((spmv_format)f, &R0, &Rb);
        spmv_any_params p;
        spmv_d_any M;
        spmv_opts o;
        char buf[256], desc[1024];
        spmv_status st;
        const char *name = spmv_format_name((spmv_format)f);
        if (!test_in_family((spmv_format)f)) continue;
        st = spmv_any_params_init((spmv_format)f, "bogus=1", &p, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "bogus"), "[%s] unknown key: %s '%s'", name, spmv_status_str(st), e.msg);
        st = spmv_any_params_init((spmv_format)f, "isa=avx3", &p, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "isa"), "[%s] bad isa: %s '%s'", name, spmv_status_str(st), e.msg);
        st = spmv_any_params_init((spmv_format)f, "isa", &p, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "key=value"), "[%s] missing '=': %s '%s'", name, spmv_status_str(st), e.msg);
        st = spmv_any_params_init((spmv_format)f, "isa=generic,,", &p, &e);
        CHECK(st == SPMV_OK && p.isa == SPMV_ISA_GENERIC, "[%s] isa=generic: %s '%s'", name, spmv_status_str(st), e.msg);
        spmv_format_describe((spmv_format)f, desc, sizeof desc);
        CHECK(strstr(desc, "isa=") != NULL, "[%s] describe: '%s'", name, desc);
        /* the object's own string parses back into the same object */
        o = th_opts((spmv_format)f, SPMV_ISA_GENERIC, NULL);
        st = spmv_d_any_from_csr(&M, R, &o, &e);
        CHECK(st == SPMV_OK, "[%s] convert: %s", name, spmv_status_str(st));
        if (st != SPMV_OK) continue;
        spmv_d_any_params_str(&M, buf, sizeof buf);
        spmv_d_any_free(&M);
        o.params = buf;
        st = spmv_d_any_from_csr(&M, R, &o, &e);
        {
            char buf2[256];
            spmv_d_any_params_str(&M, buf2, sizeof buf2);
            CHECK(st == SPMV_OK && !strcmp(buf, buf2), "[%s] params '%s' -> '%s' (%s %s)", name, buf, buf2,
                  spmv_status_str(st), e.msg);
        }
        spmv_d_any_free(&M);
        if (spmv_format_flags((spmv_format)f) & SPMV_FF_WIDTH) {
            st = spmv_any_params_init((spmv_format)f, "w=3", &p, &e);
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "'w'"), "[%s] w=3: %s '%s'", name, spmv_status_str(st), e.msg);
            st = spmv_any_params_init((spmv_format)f, "w=x", &p, &e);
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "integer"), "[%s] w=x: %s '%s'", name, spmv_status_str(st), e.msg);
        }
        { /* tuning through the handle works for every format (a no-op when nothing to tune) */
            o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
            o.tune = 1;
            st = spmv_d_any_from_csr(&M, R, &o, &e);
            CHECK(st == SPMV_OK && M.tune_s >= 0 && M.fmt == (spmv_format)f, "[%s] tuned: %s %s", name,
                  spmv_status_str(st), e.msg);
            spmv_d_any_free(&M);
        }
    }
    spmv_d_csr_free(&R0);
    spmv_d_csr_free(&Rb);
    spmv_triplets_free(&t);
}

/* the names a user types, the options and the error channel of the builder */
static void names_and_options(void) {
    static const char *good[] = {"auto", "generic", "GENERIC", "portable", "c", "avx2", "AVX2", "avx512", "Avx512"};
    static const char *bad[] = {"avx-512", "avx", "avx5120", "", " avx2", "avx2 ", "sse"};
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr R;
    spmv_d_any M;
    spmv_opts o;
    spmv_isa isa;
    spmv_format f;
    spmv_status st;
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECK(spmv_isa_parse(good[i], &isa) == SPMV_OK, "isa_parse('%s') refused", good[i]);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        isa = SPMV_ISA_AVX2;
        CHECK(spmv_isa_parse(bad[i], &isa) == SPMV_ERR_ARG && isa == SPMV_ISA_AVX2, "isa_parse('%s') accepted", bad[i]);
    }
    CHECK(spmv_isa_parse(NULL, &isa) == SPMV_ERR_ARG, "isa_parse(NULL)");
    f = SPMV_FMT_COO;
    CHECK(spmv_format_parse("sell", &f) == SPMV_OK && f == SPMV_FMT_SELL, "format_parse(sell)");
    CHECK(spmv_format_parse("SELLx", &f) == SPMV_ERR_ARG && f == SPMV_FMT_SELL, "format_parse(unknown)");
    CHECK(spmv_format_parse(NULL, &f) == SPMV_ERR_ARG, "format_parse(NULL)");
    if (spmv_gen("random:rows=50,cols=40,nnzr=4,seed=9", &t, &e) != SPMV_OK ||
        spmv_d_csr_from_triplets(&R, &t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "names_and_options: setup failed");
        return;
    }
    spmv_triplets_free(&t);
    /* NULL options: csr with its defaults */
    st = spmv_d_any_from_csr(&M, &R, NULL, &e);
    CHECK(st == SPMV_OK && M.fmt == SPMV_FMT_CSR && !e.msg[0], "NULL options: %s '%s'", spmv_status_str(st), e.msg);
    spmv_d_any_free(&M);
    st = spmv_d_any_from_csr(&M, NULL, NULL, &e);
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "NULL") && th_all_zero(&M, sizeof M), "A = NULL: %s '%s'",
          spmv_status_str(st), e.msg);
    CHECK(spmv_d_any_from_csr(NULL, &R, NULL, NULL) == SPMV_ERR_ARG, "M = NULL");
    /* out-of-range options, each with its reason */
    {
        static const struct {
            const char *what, *word;
        } cases[] = {{"format -1", "format"}, {"format COUNT", "format"}, {"isa 99", "isa"}, {"tune 2", "tune"},
                     {"deterministic 3", "deterministic"}};
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            o = spmv_opts_default();
            if (i == 0) o.format = (spmv_format)-1;
            if (i == 1) o.format = SPMV_FMT_COUNT_;
            if (i == 2) o.isa = (spmv_isa)99;
            if (i == 3) o.tune = 2;
            if (i == 4) o.deterministic = 3;
            st = spmv_d_any_from_csr(&M, &R, &o, &e);
            CHECK(st == SPMV_ERR_ARG && strstr(e.msg, cases[i].word) && th_all_zero(&M, sizeof M), "%s: %s '%s'",
                  cases[i].what, spmv_status_str(st), e.msg);
        }
    }
    /* a format without CPU kernels */
    o = spmv_opts_default();
    o.format = SPMV_FMT_CSR_VECTOR;
    st = spmv_d_any_from_csr(&M, &R, &o, &e);
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "no CPU kernel"), "csr_vector on the host: %s '%s'", spmv_status_str(st),
          e.msg);
    /* SPMV_ISA: an unknown value is an argument error (also in the selection), a known one is used */
    {
        const char *keep = getenv("SPMV_ISA");
        char saved[64] = "";
        spmv_d_auto U;
        if (keep) snprintf(saved, sizeof saved, "%s", keep);
        setenv("SPMV_ISA", "avx-512", 1);
        st = spmv_d_any_from_csr(&M, &R, NULL, &e);
        CHECK(st == SPMV_ERR_ARG && th_all_zero(&M, sizeof M), "SPMV_ISA=avx-512: %s '%s'", spmv_status_str(st), e.msg);
        st = spmv_d_auto_from_csr(&U, &R, NULL, &e);
        CHECK(st == SPMV_ERR_ARG && e.msg[0], "SPMV_ISA=avx-512, auto: %s '%s'", spmv_status_str(st), e.msg);
        spmv_d_auto_free(&U);
        setenv("SPMV_ISA", "Generic", 1);
        st = spmv_d_any_from_csr(&M, &R, NULL, &e);
        CHECK(st == SPMV_OK && spmv_d_any_isa(&M) == SPMV_ISA_GENERIC, "SPMV_ISA=Generic: %s '%s'", spmv_status_str(st),
              e.msg);
        spmv_d_any_free(&M);
        if (keep) setenv("SPMV_ISA", saved, 1);
        else unsetenv("SPMV_ISA");
    }
    spmv_d_csr_free(&R);
}

/* allocation failure at every allocation of every converter of the family */
static spmv_d_csr g_csr, g_band;
static const spmv_d_csr *g_use; /* fit_matrix's choice, made outside the sweep (it allocates) */
static spmv_status conv_any(void *o, const void *in) {
    const spmv_opts op = th_opts(*(const spmv_format *)in, SPMV_ISA_AUTO, NULL);
    return spmv_d_any_from_csr((spmv_d_any *)o, g_use, &op, NULL);
}
static void rel_any(void *o) { spmv_d_any_free((spmv_d_any *)o); }
static void alloc_failures(void) {
    spmv_triplets t;
    spmv_error e;
    int f;
    spmv_d_any M;
    if (spmv_gen("random:rows=300,cols=200,nnzr=5,seed=3", &t, &e) != SPMV_OK ||
        spmv_d_csr_from_triplets(&g_csr, &t, NULL, NULL) != SPMV_OK || !band_matrix(&g_band)) {
        CHECK(0, "alloc_failures: setup failed");
        return;
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        char name[64];
        spmv_format fmt = (spmv_format)f;
        if (!test_in_family(fmt)) continue;
        snprintf(name, sizeof name, "any_from_csr %s", spmv_format_name(fmt));
        g_use = fit_matrix(fmt, &g_csr, &g_band);
        th_alloc_sweep(name, conv_any, &fmt, &M, sizeof M, rel_any);
    }
    spmv_d_csr_free(&g_csr);
    spmv_d_csr_free(&g_band);
    spmv_triplets_free(&t);
}

int main(void) {
    int i, n = 0;
    printf("test_format %s:", STR(TEST_FAMILY));
    for (i = 0; i < SPMV_FMT_COUNT_; i++)
        if (test_in_family((spmv_format)i)) {
            printf(" %s", spmv_format_name((spmv_format)i));
            n++;
        }
    printf("; ISAs:");
    for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
        if (test_isa_on((spmv_isa)i)) printf(" %s", spmv_isa_name((spmv_isa)i));
    printf("; threads %d\n", spmv_max_threads());
    CHECK(n > 0, "family %s has no host format compiled in", STR(TEST_FAMILY));
    if (!spmv_isa_supported(SPMV_ISA_AVX512)) check_skip("avx512: CPU lacks AVX-512F (the emulated build covers it)");
    if (!spmv_isa_supported(SPMV_ISA_AVX2)) check_skip("avx2: CPU lacks AVX2/FMA");
    if (getenv("SPMV_TEST_ISAS")) check_skip("backends limited to %s in this build (the others run in the normal build)", getenv("SPMV_TEST_ISAS"));
    test_s_malformed();
    test_d_malformed();
    test_dl_malformed();
    test_s_wrap();
    test_d_wrap();
    test_dl_wrap();
    params();
    names_and_options();
    alloc_failures();
    edge_cases();
    generated();
    if (getenv("SPMV_TEST_GENERIC_MAX_NNZ")) test_generic_cap = atoll(getenv("SPMV_TEST_GENERIC_MAX_NNZ"));
    if (getenv("SPMV_TEST_AVX2_MAX_NNZ")) test_avx2_cap = atoll(getenv("SPMV_TEST_AVX2_MAX_NNZ"));
    th_real_matrices(run_real, NULL, -1);
    if (test_avx2_skipped)
        check_skip("AVX2 kernels: %ld (format x type) runs on real matrices above %lld nonzeros not run in this "
                   "build (SPMV_TEST_AVX2_MAX_NNZ; the AVX-512 kernels, the same source, ran them)",
                   test_avx2_skipped, (long long)test_avx2_cap);
    if (test_generic_skipped)
        check_skip("portable kernels: %ld (format x type) runs on real matrices above %lld nonzeros not run in this "
                   "build (SPMV_TEST_GENERIC_MAX_NNZ; AVX2 and AVX-512 ran them)",
                   test_generic_skipped, (long long)test_generic_cap);
    spmv_d_csr_free(&test_Rs);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_format_" STR(TEST_FAMILY));
}
