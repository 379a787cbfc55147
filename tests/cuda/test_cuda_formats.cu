/* Every CUDA device format (the registry rows with cuda = 1: csr_scalar, csr_vector, csr_merge,
 * coo, axc, axtuh1, axtuh, axtch1, axtch, the ELL, DIA, BCSR, CSR5 and SURAA rows, sss) x every
 * type: tags s (float/int32), d (double/int32) and the user-instantiated dl (double/int64_t)
 * and sl (float/int64_t), against the long-double host reference spmv_<tag>_csr_mv_ref.
 *  - Always (no GPU needed): format names, the AXT device defaults, argument and parameter
 *    errors that must come back SPMV_ERR_ARG before any CUDA call (axtuh thw 8, axtch1 bs 2048
 *    or 16, axc thw 64, ...), zeroed handles, freeing twice, and, without a device, that every
 *    upload fails cleanly (SPMV_ERR_NODEVICE / SPMV_ERR_CUDA, handle zeroed).
 *  - With a GPU: through the generic handle spmv_<tag>_any_dev, every device format with the
 *    CUDA defaults plus the AXT parameter sweeps (axc thw 4..32, axtuh1 thw 4..32, axtuh th
 *    1,2,3,8, axtch1 bs 32..1024, axtch th 1,2,8,64) and the vector CSR kernel with every
 *    threads_per_row (spmv_<tag>_csr_dev), on edge cases (0 rows / 0 columns, empty rows, one
 *    huge row, a dense row and column, rows longer than a block, nnz not a multiple of a tile,
 *    explicit zeros, NaN / Inf in A and in x), generator presets and every real matrix in
 *    $SPMV_MATRICES. alpha/beta (1,0) and (-3,0) with NaN in y, (2.5,-0.5), (-1,1); a guard
 *    zone after y; for AXC/AXT _mv with a second x, _update_x + _mv_kernel (x argument NULL or
 *    ignored); the footprint; a non-default stream for uploads and products. Hand-built COO
 *    objects in unsorted order with duplicates; the per-format AXT object directly.
 *  - CSR5 (csr5_cases, csr5_host_checks): the sigma rule at each bound (r,s,t,u) = (4,32,256,6),
 *    tile ranges of several tpw (rows carried inside a warp, calibrator slots between ranges),
 *    tiles holding empty rows (flagged tiles, empty_offset), rows crossing one and many tiles and
 *    ranges, the tail alone and a tail whose first row began in a tile, 0 rows / 0 nnz, NaN / Inf
 *    in x confined to their rows, parameter errors, the --tune search, and in the emulation every
 *    cudaMalloc of the upload failing in turn (CUDA error, handle zeroed, no block left).
 *  - Symmetric-only formats (SPMV_FF_SYMMETRIC: sss): on every matrix that is not exactly
 *    symmetric, the refusal (SPMV_ERR_ARG before any CUDA call, a zeroed handle, a message
 *    saying why); on every square one, the same checks as the other formats with their
 *    defaults on A + A^T ("<case> + its transpose", run after the case, the random sequence
 *    restored afterwards so that the other cases stay as they were); symmetric cases (1x1,
 *    the stencils, karate...) run as they are. The upload's allocation failures on A + A^T.
 * One CHECK per matrix x format x parameters x type x (alpha, beta) / operation.
 *
 * Environment: SPMV_MATRICES (default ../shared/matrices), SPMV_TEST_MAX_NNZ (real matrices with
 * more expanded nonzeros are skipped; default no cap), SPMV_TEST_QUICK=1 (small cases only, real
 * matrices capped at 5000 nonzeros unless SPMV_TEST_MAX_NNZ says otherwise: for
 * compute-sanitizer), SPMV_TEST_TAGS=s,d,dl,sl (GPU part for these tags only),
 * SPMV_TEST_ONLY=substring (GPU part for matrices whose name contains it),
 * SPMV_TEST_HOST_ONLY=1 (without a device: build every case and run the host conversions the
 * GPU part would make; a check of the test itself).
 * Built with tests/emu/cuda_emu.h (build/tests-cuemu/) the "GPU" part runs the kernels on the CPU.
 * The grid cap is lowered so that the grid-stride loops really loop on test sizes. */
#ifndef SPMV_CUDA_MAX_GRID
#define SPMV_CUDA_MAX_GRID 37
#endif
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv_cuda.cuh"
#define SPMV_TAG sl
#define SPMV_VAL float
#define SPMV_IDX int64_t
#include "spmv_cuda.cuh"
#include "../harness.h"
#include "cuda_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <time.h>
#include <cmath>

/* the instance parameters must not leak out of spmv_cuda.cuh */
#if defined(SPMV_TAG) || defined(SPMV_VAL) || defined(SPMV_IDX) || defined(SPMV_NAME) || defined(SPMV_T) || \
    defined(SPMV_I)
#error "spmv_cuda.cuh left instance parameters defined"
#endif

/* One struct per tag, tests/cuda/test_cuda_formats_case.cuh: the tests below are written once, as
 * templates over it. */
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#define TT_TOL 1e-5
#define TT_BIT 1
#include "test_cuda_formats_case.cuh"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#define TT_TOL 1e-12
#define TT_BIT 2
#include "test_cuda_formats_case.cuh"
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#define TT_TOL 1e-12
#define TT_BIT 4
#include "test_cuda_formats_case.cuh"
#define TT_TAG sl
#define TT_VAL float
#define TT_IDX int64_t
#define TT_TOL 1e-5
#define TT_BIT 8
#include "test_cuda_formats_case.cuh"

/* ---- options, helpers -------------------------------------------------------------- */
static int opt_quick;          /* SPMV_TEST_QUICK=1: small cases only */
static int opt_tags = 15;      /* SPMV_TEST_TAGS: bit mask of the tags the GPU part runs */
static const char *opt_only;   /* SPMV_TEST_ONLY: substring of the matrix names to run */
static cudaStream_t stream;    /* non-default stream for every upload and product */


template <class D> static int is_zero(const D *d) {
    static const unsigned char zero[sizeof(D)] = {0};
    return !memcmp(d, zero, sizeof(D));
}

static int is_axt(int f) { return f >= (int)SPMV_FMT_AXC && f <= (int)SPMV_FMT_AXTCH; }
static int is_csr(int f) {
    return f == (int)SPMV_FMT_CSR || f == (int)SPMV_FMT_CSR_SCALAR || f == (int)SPMV_FMT_CSR_VECTOR ||
           f == (int)SPMV_FMT_CSR_MERGE;
}
static spmv_axt_variant variant_of(int f) {
    switch (f) {
    case SPMV_FMT_AXC: return SPMV_AXC;
    case SPMV_FMT_AXTUH1: return SPMV_AXTUH1;
    case SPMV_FMT_AXTUH: return SPMV_AXTUH;
    case SPMV_FMT_AXTCH1: return SPMV_AXTCH1;
    default: return SPMV_AXTCH;
    }
}
static const char *fmt_name(int f) { return spmv_format_name((spmv_format)f); }
static int is_dev(int f) { return (spmv_format_flags((spmv_format)f) & SPMV_FF_CUDA) != 0; }

/* ---- host-side checks (no GPU needed) ------------------------------------------------ */
static void host_common(void) {
    /* the device formats of the first release must stay device formats of the registry */
    static const struct {
        const char *name;
        unsigned flags; /* the flags that must be set (cuda always), of host, embeds_x, symmetric */
    } firsts[] = {{"csr_scalar", 0}, {"csr_vector", 0}, {"csr_merge", SPMV_FF_HOST}, {"coo", SPMV_FF_HOST},
                  {"axc", SPMV_FF_HOST | SPMV_FF_EMBEDS_X}, {"axtuh1", SPMV_FF_HOST | SPMV_FF_EMBEDS_X},
                  {"axtuh", SPMV_FF_HOST | SPMV_FF_EMBEDS_X}, {"axtch1", SPMV_FF_HOST | SPMV_FF_EMBEDS_X},
                  {"axtch", SPMV_FF_HOST | SPMV_FF_EMBEDS_X},
                  /* symmetric matrices only: the tests give it A + A^T (and check the refusal of A) */
                  {"sss", SPMV_FF_HOST | SPMV_FF_SYMMETRIC}};
    const unsigned seen = SPMV_FF_HOST | SPMV_FF_EMBEDS_X | SPMV_FF_SYMMETRIC;
    size_t i;
    int f, v, ndev = 0, nsym = 0;
    for (i = 0; i < sizeof firsts / sizeof firsts[0]; i++) {
        spmv_format g = SPMV_FMT_COUNT_;
        const int known = spmv_format_parse(firsts[i].name, &g) == SPMV_OK;
        const unsigned fl = known ? spmv_format_flags(g) : 0u;
        CHECK(known && (fl & SPMV_FF_CUDA) && (fl & seen) == firsts[i].flags,
              "%s: %s, flags 0x%x (expected cuda and, of host | embeds_x | symmetric, 0x%x)", firsts[i].name,
              known ? "a registry row" : "unknown", fl, firsts[i].flags);
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) { /* every device row: its name parses back, its defaults exist */
        spmv_any_params p;
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_CUDA)) continue;
        ndev++;
        nsym += th_sym(f);
        spmv_format g = SPMV_FMT_COUNT_;
        CHECK(spmv_format_parse(spmv_format_name((spmv_format)f), &g) == SPMV_OK && g == f, "parse(name(%d))", f);
        CHECK(spmv_any_dev_params_init((spmv_format)f, NULL, &p, NULL) == SPMV_OK, "%s: device defaults",
              spmv_format_name((spmv_format)f));
    }
    CHECK(ndev >= 10 && nsym >= 1 && th_sym_dev_any(), "%d device formats, %d of them symmetric-only", ndev, nsym);
    {
        spmv_format g = SPMV_FMT_CSR;
        CHECK(spmv_format_parse("nope", &g) == SPMV_ERR_ARG && g == SPMV_FMT_CSR, "parse(unknown)");
        CHECK(spmv_format_parse("", &g) == SPMV_ERR_ARG && g == SPMV_FMT_CSR, "parse(\"\")");
        CHECK(spmv_format_parse(NULL, &g) == SPMV_ERR_ARG, "parse(NULL)");
    }
    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_; v++) {
        spmv_axt_params p = spmv_axt_params_cuda_default((spmv_axt_variant)v);
        int thw = v == SPMV_AXTUH1 ? 16 : 32;
        CHECK(p.isa == SPMV_ISA_GENERIC && p.thw == thw && p.th == 0 && p.bs == 0,
              "cuda default params of %s: isa %d thw %d th %d bs %d (expected generic, %d, 0, 0)",
              spmv_axt_variant_name((spmv_axt_variant)v), (int)p.isa, p.thw, p.th, p.bs, thw);
    }
}

struct bad_params {
    int f, thw, th, bs;
};
/* device parameters that must be refused (SPMV_ERR_ARG) before any CUDA call */
static const bad_params BAD[] = {
    {SPMV_FMT_AXTUH, 8, 0, 0},    {SPMV_FMT_AXTUH, 16, 4, 0},   {SPMV_FMT_AXTCH1, 32, 0, 2048},
    {SPMV_FMT_AXTCH1, 32, 0, 16}, {SPMV_FMT_AXTCH1, 32, 0, 48}, {SPMV_FMT_AXTCH1, 16, 0, 512},
    {SPMV_FMT_AXTCH, 16, 8, 0},   {SPMV_FMT_AXTCH, 32, 3, 0},   {SPMV_FMT_AXC, 64, 0, 0},
    {SPMV_FMT_AXC, 2, 0, 0},      {SPMV_FMT_AXTUH1, 64, 0, 0},  {SPMV_FMT_AXTUH1, 2, 0, 0},
};

template <class G> static void host_tag(int have_gpu) {
    typedef typename G::T T;
    typedef typename G::I I;
    const char *tg = G::name();
    typename G::csr A;
    typename G::coo C;
    typename G::axt H;
    typename G::any D;
    typename G::cood E;
    typename G::axtd X;
    spmv_triplets t;
    spmv_status st;
    T buf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t i;
    int f;

    spmv_triplets_alloc(&t, 3, 4, 3);
    t.row[0] = 0; t.col[0] = 1; t.val[0] = 1;
    t.row[1] = 2; t.col[1] = 0; t.val[1] = 2;
    t.row[2] = 2; t.col[2] = 3; t.val[2] = 3;
    st = G::from_triplets(&A, &t);
    spmv_triplets_free(&t);
    CHECK(st == SPMV_OK, "%s: host csr: %s", tg, spmv_status_str(st));
    if (st != SPMV_OK) return;
    { /* symmetric-only formats: a matrix that is not exactly symmetric is refused before any CUDA
         call, the 3x4 A and three 3x3 ones (each with (2,2) = 3 and a pair of entries) */
        static const char *why[3] = {"(0,1) = 1, (1,0) = 2", "(0,2) without (2,0)", "(1,2) = NaN, (2,1) = 1"};
        typename G::csr B;
        for (i = 0; i < 3; i++) {
            spmv_triplets_alloc(&t, 3, 3, 3);
            t.row[0] = 2; t.col[0] = 2; t.val[0] = 3;
            t.row[1] = i == 2 ? 1 : 0; t.col[1] = i == 0 ? 1 : 2; t.val[1] = i == 2 ? NAN : 1;
            t.row[2] = i == 0 ? 1 : i == 1 ? 1 : 2; t.col[2] = i == 0 ? 0 : 1; t.val[2] = i == 0 ? 2 : 1;
            st = G::from_triplets(&B, &t);
            spmv_triplets_free(&t);
            if (st != SPMV_OK) continue;
            for (f = 0; f < SPMV_FMT_COUNT_; f++) {
                spmv_opts o = spmv_opts_default();
                spmv_error e;
                if (!is_dev(f) || !th_sym(f)) continue;
                o.format = (spmv_format)f;
                memset(&D, 0xab, sizeof D);
                st = G::any_dev_opts(&D, &B, &o, &e);
                CHECK(st == SPMV_ERR_ARG && is_zero(&D) && strstr(e.msg, "symmetric") && !th_csr_symmetric(&B),
                      "%s: %s of a 3x3 matrix that is not symmetric (%s): %s '%s'", tg, fmt_name(f), why[i],
                      spmv_status_str(st), e.msg);
                if (i) continue;
                memset(&D, 0xab, sizeof D);
                st = G::any_dev_opts(&D, &A, &o, &e);
                CHECK(st == SPMV_ERR_ARG && is_zero(&D) && strstr(e.msg, "symmetric"),
                      "%s: %s of a 3x4 matrix: %s '%s'", tg, fmt_name(f), spmv_status_str(st), e.msg);
            }
            G::csr_free(&B);
        }
    }

    /* generic handle: arguments */
    CHECK(G::any_from_csr(NULL, &A, SPMV_FMT_CSR_VECTOR, NULL, 0) == SPMV_ERR_ARG, "%s: any_dev_from_csr(D=NULL)", tg);
    memset(&D, 0xab, sizeof D);
    st = G::any_from_csr(&D, NULL, SPMV_FMT_CSR_VECTOR, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: any_dev_from_csr(A=NULL): %s", tg, spmv_status_str(st));
    memset(&D, 0xab, sizeof D);
    st = G::any_from_csr(&D, &A, (spmv_format)-1, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: any_dev_from_csr(format -1): %s", tg, spmv_status_str(st));
    memset(&D, 0xab, sizeof D);
    st = G::any_from_csr(&D, &A, SPMV_FMT_COUNT_, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: any_dev_from_csr(format COUNT): %s", tg, spmv_status_str(st));
    { /* the options and the error channel, all answered before any CUDA call */
        spmv_opts o = spmv_opts_default();
        spmv_error e;
        o.params = "bogus=1";
        memset(&D, 0xab, sizeof D);
        st = G::any_dev_opts(&D, &A, &o, &e);
        CHECK(st == SPMV_ERR_ARG && is_zero(&D) && strstr(e.msg, "bogus"), "%s: unknown key: %s '%s'", tg,
              spmv_status_str(st), e.msg);
        o = spmv_opts_default();
        o.tune = 2;
        st = G::any_dev_opts(&D, &A, &o, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "tune"), "%s: tune = 2: %s '%s'", tg, spmv_status_str(st), e.msg);
        for (f = 0; f < SPMV_FMT_COUNT_; f++) { /* deterministic: the formats adding with atomics refused */
            if (!is_dev(f) || !(spmv_format_flags((spmv_format)f) & SPMV_FF_ATOMICS)) continue;
            o = spmv_opts_default();
            o.format = (spmv_format)f;
            o.deterministic = 1;
            memset(&D, 0xab, sizeof D);
            st = G::any_dev_opts(&D, &A, &o, &e);
            CHECK(st == SPMV_ERR_ARG && is_zero(&D) && strstr(e.msg, "atomics"), "%s: deterministic %s: %s '%s'", tg,
                  fmt_name(f), spmv_status_str(st), e.msg);
        }
        o = spmv_opts_default();
        o.format = SPMV_FMT_CSR_VECTOR; /* deterministic: one warp per row, no atomics */
        o.deterministic = 1;
        CHECK(!(spmv_format_flags(o.format) & SPMV_FF_ATOMICS), "csr_vector is flagged atomics");
        st = G::any_dev_opts(&D, NULL, &o, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "NULL"), "%s: A = NULL: %s '%s'", tg, spmv_status_str(st), e.msg);
    }
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        spmv_axt_params p = spmv_axt_params_cuda_default(variant_of(BAD[i].f));
        p.thw = BAD[i].thw;
        p.th = BAD[i].th;
        p.bs = BAD[i].bs;
        memset(&D, 0xab, sizeof D);
        st = G::any_from_csr(&D, &A, (spmv_format)BAD[i].f, &p, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: %s thw=%d th=%d bs=%d must be SPMV_ERR_ARG, got %s", tg,
              fmt_name(BAD[i].f), p.thw, p.th, p.bs, spmv_status_str(st));
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) { /* malformed CSR: every upload runs the shared validator */
        int m;
        if (!is_dev(f)) continue;
        for (m = 0; m < 3; m++) {
            typename G::I keep;
            const char *what = m == 0 ? "row_ptr[nrows] != nnz" : m == 1 ? "non-monotone row_ptr" : "column == ncols";
            if (m == 0) { keep = A.row_ptr[A.nrows]; A.row_ptr[A.nrows] = A.nnz + 1; }
            else if (m == 1) { keep = A.row_ptr[1]; A.row_ptr[1] = A.row_ptr[2] + 1; }
            else { keep = A.col_idx[0]; A.col_idx[0] = A.ncols; }
            memset(&D, 0xab, sizeof D);
            st = G::any_from_csr(&D, &A, (spmv_format)f, NULL, 0);
            if (m == 0) A.row_ptr[A.nrows] = keep;
            else if (m == 1) A.row_ptr[1] = keep;
            else A.col_idx[0] = keep;
            CHECK((st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW) && is_zero(&D), "%s: %s of a malformed CSR (%s): %s",
                  tg, fmt_name(f), what, spmv_status_str(st));
        }
    }
    CHECK(G::any_mv(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG, "%s: any_dev_mv(D=NULL)", tg);
    CHECK(G::any_update_x(NULL, buf, 0) == SPMV_ERR_ARG, "%s: any_dev_update_x(D=NULL)", tg);
    CHECK(G::any_mv_kernel(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG, "%s: any_dev_mv_kernel(D=NULL)", tg);
    CHECK(G::any_bytes(NULL) == 0 && G::any_kernel_bytes(NULL) == 0, "%s: any_dev_bytes(NULL) = 0", tg);
    /* a zeroed handle: inert (no launch), freeing it and freeing twice is fine */
    memset(&D, 0, sizeof D);
    st = G::any_mv(&D, 1, NULL, 0, NULL, 0);
    CHECK(st == SPMV_OK || st == SPMV_ERR_ARG, "%s: any_dev_mv on a zeroed handle: %s", tg, spmv_status_str(st));
    st = G::any_update_x(&D, NULL, 0);
    CHECK(st == SPMV_OK || st == SPMV_ERR_ARG, "%s: any_dev_update_x on a zeroed handle: %s", tg,
          spmv_status_str(st));
    CHECK(G::any_embeds_x(&D) == 0, "%s: zeroed handle embeds no x", tg);
    {
        char pb[16];
        volatile size_t n3 = 3; /* truncation on purpose (volatile: no -Wformat-truncation) */
        memset(pb, 'Z', sizeof pb);
        G::any_params(&D, pb, n3);
        CHECK(memchr(pb, 0, 3) != NULL && pb[3] == 'Z', "%s: any_dev_params respects n", tg);
    }
    st = G::any_free(&D);
    CHECK(st == SPMV_OK && is_zero(&D), "%s: any_dev_free(zeroed): %s", tg, spmv_status_str(st));
    st = G::any_free(&D);
    CHECK(st == SPMV_OK && is_zero(&D), "%s: any_dev_free twice: %s", tg, spmv_status_str(st));
    st = G::any_free(NULL);
    CHECK(st == SPMV_OK || st == SPMV_ERR_ARG, "%s: any_dev_free(NULL): %s", tg, spmv_status_str(st));

    /* per-format COO object */
    st = G::coo_from_csr(&C, &A);
    CHECK(st == SPMV_OK, "%s: host coo: %s", tg, spmv_status_str(st));
    CHECK(G::coo_to_device(NULL, &C, 0) == SPMV_ERR_ARG, "%s: coo_to_device(D=NULL)", tg);
    memset(&E, 0xab, sizeof E);
    st = G::coo_to_device(&E, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && is_zero(&E), "%s: coo_to_device(A=NULL): %s", tg, spmv_status_str(st));
    if (C.nnz > 0) {
        I keep = C.row[0];
        I *kr = C.row;
        C.row[0] = C.nrows; /* out of range: the kernel trusts the indices */
        memset(&E, 0xab, sizeof E);
        st = G::coo_to_device(&E, &C, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&E), "%s: coo_to_device(row index out of range): %s", tg,
              spmv_status_str(st));
        C.row[0] = keep;
        C.row = NULL;
        memset(&E, 0xab, sizeof E);
        st = G::coo_to_device(&E, &C, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&E), "%s: coo_to_device(row NULL): %s", tg, spmv_status_str(st));
        C.row = kr;
    }
    CHECK(G::coo_dev_mv(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG, "%s: coo_dev_mv(D=NULL)", tg);
    memset(&E, 0, sizeof E);
    st = G::coo_dev_free(&E);
    CHECK(st == SPMV_OK && is_zero(&E) && G::coo_dev_free(&E) == SPMV_OK, "%s: coo_dev_free(zeroed), twice", tg);

    /* per-format AXT object: device parameter checks on a host object */
    CHECK(G::axt_dev_mv(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG, "%s: axt_dev_mv(D=NULL)", tg);
    CHECK(G::axt_dev_update_x(NULL, buf, 0) == SPMV_ERR_ARG, "%s: axt_dev_update_x(D=NULL)", tg);
    CHECK(G::axt_dev_mv_kernel(NULL, 1, 0, buf, 0) == SPMV_ERR_ARG, "%s: axt_dev_mv_kernel(D=NULL)", tg);
    memset(&X, 0xab, sizeof X);
    st = G::axt_to_device(&X, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && is_zero(&X), "%s: axt_to_device(H=NULL): %s", tg, spmv_status_str(st));
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) { /* the ones the host converter accepts */
        spmv_axt_params p = spmv_axt_params_cuda_default(variant_of(BAD[i].f));
        p.thw = BAD[i].thw;
        p.th = BAD[i].th;
        p.bs = BAD[i].bs;
        if (G::axt_from_csr(&H, &A, variant_of(BAD[i].f), &p) != SPMV_OK) continue;
        CHECK(G::axt_to_device(NULL, &H, 0) == SPMV_ERR_ARG, "%s: axt_to_device(D=NULL)", tg);
        memset(&X, 0xab, sizeof X);
        st = G::axt_to_device(&X, &H, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&X), "%s: axt_to_device of a host %s thw=%d th=%d bs=%d: %s", tg,
              fmt_name(BAD[i].f), H.params.thw, H.params.th, H.params.bs, spmv_status_str(st));
        G::axt_free(&H);
    }
    memset(&X, 0, sizeof X);
    st = G::axt_dev_free(&X);
    CHECK(st == SPMV_OK && is_zero(&X) && G::axt_dev_free(&X) == SPMV_OK, "%s: axt_dev_free(zeroed), twice", tg);

    if (!have_gpu) { /* no device: every upload fails cleanly, nothing held */
        typename G::csr S; /* symmetric (an explicit zero on the diagonal): sss takes it up to the upload */
        int have_s;
        spmv_triplets_alloc(&t, 3, 3, 3);
        t.row[0] = 0; t.col[0] = 1; t.val[0] = 0.5;
        t.row[1] = 1; t.col[1] = 0; t.val[1] = 0.5;
        t.row[2] = 2; t.col[2] = 2; t.val[2] = 0;
        st = G::from_triplets(&S, &t);
        spmv_triplets_free(&t);
        have_s = st == SPMV_OK;
        CHECK(have_s && th_csr_symmetric(&S), "%s: host csr of a symmetric 3x3: %s", tg, spmv_status_str(st));
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {
            if (!is_dev(f) || (th_sym(f) && !have_s)) continue;
            memset(&D, 0xab, sizeof D);
            st = G::any_from_csr(&D, th_sym(f) ? &S : &A, (spmv_format)f, NULL, 0);
            CHECK((st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA) && is_zero(&D),
                  "%s: %s upload without a device: %s, handle %s", tg, fmt_name(f), spmv_status_str(st),
                  is_zero(&D) ? "zeroed" : "NOT zeroed");
            CHECK(G::any_free(&D) == SPMV_OK, "%s: %s free after a failed upload", tg, fmt_name(f));
        }
        if (have_s) G::csr_free(&S);
        memset(&E, 0xab, sizeof E);
        st = G::coo_to_device(&E, &C, 0);
        CHECK((st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA) && is_zero(&E), "%s: coo_to_device without a device: %s",
              tg, spmv_status_str(st));
        {
            spmv_axt_params p = spmv_axt_params_cuda_default(SPMV_AXTCH);
            st = G::axt_from_csr(&H, &A, SPMV_AXTCH, &p);
            CHECK(st == SPMV_OK, "%s: host axtch with the cuda defaults: %s", tg, spmv_status_str(st));
            if (st == SPMV_OK) {
                memset(&X, 0xab, sizeof X);
                st = G::axt_to_device(&X, &H, 0);
                CHECK((st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA) && is_zero(&X),
                      "%s: axt_to_device without a device: %s", tg, spmv_status_str(st));
                G::axt_free(&H);
            }
        }
    }
    G::coo_free(&C);
    G::csr_free(&A);
}

/* ---- GPU checks ----------------------------------------------------------------------- */
#define GUARD 64
#define SENTINEL 12345.0
#define NAB 4
#define REF_X2 NAB /* reference index of y = A*x2 */
static const double AB[NAB][3] = {/* alpha, beta, NaN in y */ {1, 0, 1}, {2.5, -0.5, 0}, {-1, 1, 0}, {-3, 0, 1}};

/* Everything one matrix needs for one tag: the host CSR, x1 (maybe with NaN/Inf), x2, y0,
 * references for every (alpha, beta) with x1 and for A*x2, per-row tolerances, device x/y. */
template <class G> struct ctx {
    typedef typename G::T T;
    const char *mname;
    typename G::csr A;
    size_t nr, nc, nnz;
    T *x1, *x2, *yb, *yn, *yh; /* yb: y0 + sentinels, yn: NaN + sentinels, yh: downloaded y */
    double *tol;
    long double *ref[NAB + 1], *scale[NAB + 1];
    int64_t *len; /* entries per row (for the messages) */
    int sym;      /* A is exactly symmetric (the symmetric-only formats take it) */
    T *xd1, *xd2, *yd;
};

template <class G> static void ctx_free(ctx<G> &c) {
    int a;
    cudaFree(c.xd1);
    cudaFree(c.xd2);
    cudaFree(c.yd);
    free(c.x1); free(c.x2); free(c.yb); free(c.yn); free(c.yh); free(c.tol); free(c.len);
    for (a = 0; a <= NAB; a++) { free(c.ref[a]); free(c.scale[a]); }
    G::csr_free(&c.A);
    memset(&c, 0, sizeof c);
}

template <class G> static double row_tol(int64_t len) { return th_row_tol(G::eps(), G::base_tol(), len); }

/* references from the CSR (duplicates summed) */
template <class G> static void ctx_refs_csr(ctx<G> &c) {
    typedef typename G::T T;
    int a;
    size_t r;
    for (r = 0; r < c.nr; r++) {
        c.len[r] = (int64_t)(c.A.row_ptr[r + 1] - c.A.row_ptr[r]);
        c.tol[r] = row_tol<G>(c.len[r]);
    }
    for (a = 0; a < NAB; a++)
        G::ref(&c.A, (T)AB[a][0], c.x1, (T)AB[a][1], AB[a][1] != 0 ? c.yb : NULL, c.ref[a], c.scale[a]);
    G::ref(&c.A, (T)1, c.x2, (T)0, NULL, c.ref[REF_X2], c.scale[REF_X2]);
}

template <class G> static int ctx_init(ctx<G> &c, const char *mname, const spmv_triplets *t, int special) {
    typedef typename G::T T;
    spmv_status st;
    size_t j, r;
    int a, ok;
    memset(&c, 0, sizeof c);
    c.mname = mname;
    st = G::from_triplets(&c.A, t);
    CHECK(st == SPMV_OK, "%s [%s]: host csr: %s", G::name(), mname, spmv_status_str(st));
    if (st != SPMV_OK) return 0;
    c.nr = (size_t)c.A.nrows;
    c.nc = (size_t)c.A.ncols;
    c.nnz = (size_t)c.A.nnz;
    c.sym = th_csr_symmetric(&c.A);
    c.x1 = (T *)malloc((c.nc + 1) * sizeof(T));
    c.x2 = (T *)malloc((c.nc + 1) * sizeof(T));
    c.yb = (T *)malloc((c.nr + GUARD) * sizeof(T));
    c.yn = (T *)malloc((c.nr + GUARD) * sizeof(T));
    c.yh = (T *)malloc((c.nr + GUARD) * sizeof(T));
    c.tol = (double *)malloc((c.nr + 1) * sizeof(double));
    c.len = (int64_t *)malloc((c.nr + 1) * sizeof(int64_t));
    ok = c.x1 && c.x2 && c.yb && c.yn && c.yh && c.tol && c.len;
    for (a = 0; a <= NAB; a++) {
        c.ref[a] = (long double *)malloc((c.nr + 1) * sizeof(long double));
        c.scale[a] = (long double *)malloc((c.nr + 1) * sizeof(long double));
        ok = ok && c.ref[a] && c.scale[a];
    }
    if (!ok) {
        CHECK(0, "%s [%s]: host allocation", G::name(), mname);
        ctx_free(c);
        return 0;
    }
    for (j = 0; j < c.nc; j++) {
        c.x1[j] = (T)th_rval();
        c.x2[j] = (T)th_rval();
    }
    if (special && c.nc > 2) { /* x[0] also sits behind the AXT padding slots */
        c.x1[0] = (T)NAN;
        c.x1[c.nc / 3] = (T)INFINITY;
        c.x1[c.nc / 2] = (T)-INFINITY;
    }
    for (r = 0; r < c.nr; r++) {
        c.yb[r] = (T)th_rval();
        c.yn[r] = (T)NAN;
    }
    for (r = c.nr; r < c.nr + GUARD; r++) c.yb[r] = c.yn[r] = (T)SENTINEL;
    ctx_refs_csr(c);
    /* x exactly ncols long (at least 1): memcheck sees any read past it */
    ok = cuda_ok(cudaMalloc((void **)&c.xd1, (c.nc ? c.nc : 1) * sizeof(T)), "cudaMalloc x1") &&
         cuda_ok(cudaMalloc((void **)&c.xd2, (c.nc ? c.nc : 1) * sizeof(T)), "cudaMalloc x2") &&
         cuda_ok(cudaMalloc((void **)&c.yd, (c.nr + GUARD) * sizeof(T)), "cudaMalloc y");
    if (ok && c.nc)
        ok = cuda_ok(cudaMemcpyAsync(c.xd1, c.x1, c.nc * sizeof(T), cudaMemcpyHostToDevice, stream), "upload x1") &&
             cuda_ok(cudaMemcpyAsync(c.xd2, c.x2, c.nc * sizeof(T), cudaMemcpyHostToDevice, stream), "upload x2");
    if (ok) ok = cuda_ok(cudaStreamSynchronize(stream), "sync after the x upload");
    if (!ok) ctx_free(c);
    return ok;
}

/* y on the device := y0 (nan == 0) or NaN (nan != 0), sentinels after it */
template <class G> static int put_y(ctx<G> &c, int nan) {
    return cuda_ok(cudaMemcpyAsync(c.yd, nan ? c.yn : c.yb, (c.nr + GUARD) * sizeof(typename G::T),
                                   cudaMemcpyHostToDevice, stream),
                   "upload y");
}

/* Downloads y and compares it with reference ri: one CHECK. st: what the product returned. */
template <class G> static void verify(ctx<G> &c, spmv_status st, int ri, const char *what) {
    typedef typename G::T T;
    size_t r, bad = 0, gbad = 0, wr = 0;
    double worst = -1;
    if (gpu_dead) return;
    if (st != SPMV_OK) {
        CHECK(0, "%s: returned %s (%s)", what, spmv_status_str(st), cudaGetErrorString(spmv_cuda_last_error()));
        (void)cuda_ok(cudaStreamSynchronize(stream), "sync after a failed product");
        return;
    }
    if (!cuda_ok(cudaMemcpyAsync(c.yh, c.yd, (c.nr + GUARD) * sizeof(T), cudaMemcpyDeviceToHost, stream), what) ||
        !cuda_ok(cudaStreamSynchronize(stream), what))
        return;
    for (r = 0; r < c.nr; r++) {
        const long double rf = c.ref[ri][r], sc = c.scale[ri][r];
        const T v = c.yh[r];
        double rel;
        if (th_ref_ok(v, rf, sc, c.tol[r])) continue;
        bad++;
        rel = !std::isfinite(rf) || !std::isfinite(v) || !(sc > 0) ? INFINITY
                                                                     : (double)(fabsl((long double)v - rf) / sc);
        if (rel > worst) {
            worst = rel;
            wr = r;
        }
    }
    for (r = c.nr; r < c.nr + GUARD; r++)
        if (!(c.yh[r] == (T)SENTINEL)) gbad++;
    if (bad)
        CHECK(0, "%s: %zu of %zu rows wrong (guard zone: %zu overwritten); worst row %zu (%lld entries): got %.17g, "
                 "expected %.17Lg (scale %.3Lg, rel err %.3g, tol %.2g)",
              what, bad, c.nr, gbad, wr, (long long)c.len[wr], (double)c.yh[wr], c.ref[ri][wr], c.scale[ri][wr], worst,
              c.tol[wr]);
    else
        CHECK(!gbad, "%s: %zu entries of the guard zone after y[%zu] overwritten", what, gbad, c.nr);
}

struct cfg {
    int f;
    int has_p;
    spmv_axt_params p;
};
/* SPMV_TEST_FORMATS=a,b: the GPU part runs only these formats (compute-sanitizer's racecheck
 * and synccheck on the kernels with shared memory or barriers: tests/gpu_check.sh) */
static int format_wanted(int f) {
    const char *only = getenv("SPMV_TEST_FORMATS");
    char buf[256], *tok, *save = NULL;
    if (!only || !*only) return 1;
    snprintf(buf, sizeof buf, "%s", only);
    for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        spmv_format g;
        if (spmv_format_parse(tok, &g) == SPMV_OK && g == (spmv_format)f) return 1;
    }
    return 0;
}
static int make_cfgs_all(cfg *out);
static int make_cfgs(cfg *out) {
    int n = make_cfgs_all(out), i, m = 0;
    for (i = 0; i < n; i++)
        if (format_wanted(out[i].f)) out[m++] = out[i];
    return m;
}
static int make_cfgs_all(cfg *out) {
#ifdef SPMV_CUDA_EMULATE /* the ends of each range (the emulation costs ~1000x a GPU; all on a GPU) */
    static const int thw[] = {4, 32, 4, 32}, uh_th[] = {1, 8, 1, 8}, ch1_bs[] = {32, 1024, 32, 1024, 32, 1024},
                     ch_th[] = {1, 64, 1, 64};
    const size_t nthw = 2, nuh = 2, nch1 = 2, nch = 2;
#else
    static const int thw[] = {4, 8, 16, 32}, uh_th[] = {1, 2, 3, 8}, ch1_bs[] = {32, 64, 128, 256, 512, 1024},
                     ch_th[] = {1, 2, 8, 64};
    const size_t nthw = 4, nuh = 4, nch1 = 6, nch = 4;
#endif
    int n = 0, f;
    size_t i;
    for (f = 0; f < SPMV_FMT_COUNT_; f++) { /* every format with its CUDA defaults (p = NULL) */
        if (!is_dev(f)) continue;
        out[n].f = f;
        out[n].has_p = 0;
        memset(&out[n].p, 0, sizeof out[n].p);
        n++;
    }
#define ADD_P(F, THW, TH, BS)                                                                                    \
    do {                                                                                                         \
        out[n].f = (F);                                                                                          \
        out[n].has_p = 1;                                                                                        \
        out[n].p = spmv_axt_params_cuda_default(variant_of(F));                                                  \
        out[n].p.thw = (THW);                                                                                    \
        out[n].p.th = (TH);                                                                                      \
        out[n].p.bs = (BS);                                                                                      \
        n++;                                                                                                     \
    } while (0)
    for (i = 0; i < nthw; i++) ADD_P(SPMV_FMT_AXC, thw[i], 0, 0);
    for (i = 0; i < nthw; i++) ADD_P(SPMV_FMT_AXTUH1, thw[i], 0, 0);
    for (i = 0; i < nuh; i++) ADD_P(SPMV_FMT_AXTUH, 32, uh_th[i], 0);
    for (i = 0; i < nch1; i++) ADD_P(SPMV_FMT_AXTCH1, 32, 0, ch1_bs[i]);
    for (i = 0; i < nch; i++) ADD_P(SPMV_FMT_AXTCH, 32, ch_th[i], 0);
#undef ADD_P
    return n;
}

/* One format with one parameter set through the generic handle: upload, footprint, every
 * (alpha, beta), a new x, _update_x + _mv_kernel, free. */
template <class G> static void run_any(ctx<G> &c, const cfg &k) {
    typedef typename G::T T;
    typename G::any D;
    spmv_status st, st2;
    char label[512], what[640], pbuf[64], req[64];
    size_t host_kb = 0;
    int a, have_host_kb = 0;
    const int emb = (spmv_format_flags((spmv_format)k.f) & SPMV_FF_EMBEDS_X) != 0;
    if (gpu_dead) return;
    if (k.has_p) snprintf(req, sizeof req, "thw=%d,th=%d,bs=%d", k.p.thw, k.p.th, k.p.bs);
    else snprintf(req, sizeof req, "defaults");
    snprintf(label, sizeof label, "%s %s(%s) [%s %zux%zu nnz %zu]", G::name(), fmt_name(k.f), req, c.mname, c.nr, c.nc,
             c.nnz);
    if (th_sym(k.f) && !c.sym) { /* symmetric-only: refused before any CUDA call, with the reason */
        spmv_opts o = spmv_opts_default();
        spmv_error e;
        o.format = (spmv_format)k.f;
        memset(&D, 0xab, sizeof D);
        st = G::any_dev_opts(&D, &c.A, &o, &e);
        CHECK(st == SPMV_ERR_ARG && is_zero(&D) && strstr(e.msg, "symmetric"),
              "%s: a matrix that is not symmetric: %s, handle %s, '%s'", label, spmv_status_str(st),
              is_zero(&D) ? "zeroed" : "NOT zeroed", e.msg);
        if (st == SPMV_OK) (void)G::any_free(&D);
        return;
    }
    st = G::any_from_csr(&D, &c.A, (spmv_format)k.f, k.has_p ? &k.p : NULL, stream);
    if (G::limited(&c.A, k.f)) { /* over the format's documented size cap */
        CHECK(st == SPMV_ERR_LIMIT && is_zero(&D), "%s: over the size cap, the upload gave %s", label,
              spmv_status_str(st));
        if (st == SPMV_OK) (void)G::any_free(&D);
        return;
    }
    CHECK(st == SPMV_OK, "%s: upload: %s (%s)", label, spmv_status_str(st), cudaGetErrorString(spmv_cuda_last_error()));
    if (st != SPMV_OK) {
        CHECK(is_zero(&D), "%s: handle zeroed after the failed upload", label);
        (void)cuda_ok(cudaDeviceSynchronize(), "sync after a failed upload");
        return;
    }
    pbuf[0] = 0;
    G::any_params(&D, pbuf, sizeof pbuf);
    snprintf(label, sizeof label, "%s %s(%s -> %s) [%s %zux%zu nnz %zu]", G::name(), fmt_name(k.f), req, pbuf,
             c.mname, c.nr, c.nc, c.nnz);
    if (k.has_p && is_axt(k.f) && c.nnz <= 300000) { /* the host layout for these parameters */
        typename G::axt H;
        if (G::axt_from_csr(&H, &c.A, variant_of(k.f), &k.p) == SPMV_OK) {
            host_kb = G::axt_kernel_bytes(&H);
            have_host_kb = 1;
            G::axt_free(&H);
        }
    }
    { /* the handle */
        const size_t b = G::any_bytes(&D), kb = G::any_kernel_bytes(&D), cb = G::csr_bytes(&c.A);
        const size_t scratch = c.nr ? (size_t)spmv_csr_dev_merge_tiles((int64_t)c.nr, (int64_t)c.nnz) *
                                          (sizeof(int64_t) + sizeof(T))
                                    : 0;
        int ok = (int)D.fmt == k.f && G::any_embeds_x(&D) == emb && (c.nnz == 0 || b > 0) && kb <= b &&
                 pbuf[0] != 0 && strlen(pbuf) < sizeof pbuf;
        /* CSR: the matrix is spmv_<tag>_csr_bytes (+ the merge kernel's scratch, if counted) */
        if (is_csr(k.f)) ok = ok && (b == cb || b == cb + scratch);
        if (have_host_kb) ok = ok && kb == host_kb;
        CHECK(ok,
              "%s: handle: fmt %d, embeds_x %d (expected %d), bytes %zu (csr bytes %zu, +merge scratch %zu), "
              "kernel_bytes %zu (host AXT kernel bytes %zu), params '%s'",
              label, (int)D.fmt, G::any_embeds_x(&D), emb, b, cb, scratch, kb, have_host_kb ? host_kb : (size_t)0,
              pbuf);
    }
    for (a = 0; a < NAB && !gpu_dead; a++) {
        snprintf(what, sizeof what, "%s: mv alpha=%g beta=%g%s", label, AB[a][0], AB[a][1],
                 AB[a][2] ? " (NaN in y)" : "");
        if (!put_y(c, (int)AB[a][2])) break;
        st = G::any_mv(&D, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream);
        verify(c, st, a, what);
    }
    if (!gpu_dead && put_y(c, 1)) { /* a new x: the result must follow it */
        snprintf(what, sizeof what, "%s: mv with a second x (alpha=1 beta=0)", label);
        st = G::any_mv(&D, (T)1, c.xd2, (T)0, c.yd, stream);
        verify(c, st, REF_X2, what);
    }
    if (emb) {
        if (!gpu_dead && put_y(c, 0)) {
            snprintf(what, sizeof what, "%s: update_x(x1) + mv_kernel(x=NULL) alpha=2.5 beta=-0.5", label);
            st = G::any_update_x(&D, c.xd1, stream);
            st2 = G::any_mv_kernel(&D, (T)2.5, NULL, (T)-0.5, c.yd, stream);
            verify(c, st != SPMV_OK ? st : st2, 1, what);
        }
        if (!gpu_dead && put_y(c, 1)) {
            snprintf(what, sizeof what, "%s: update_x(x2) + mv_kernel(x=x1, ignored) alpha=1 beta=0", label);
            st = G::any_update_x(&D, c.xd2, stream);
            st2 = G::any_mv_kernel(&D, (T)1, c.xd1, (T)0, c.yd, stream);
            verify(c, st != SPMV_OK ? st : st2, REF_X2, what);
        }
    } else if (!gpu_dead && put_y(c, 0)) {
        snprintf(what, sizeof what, "%s: update_x (no-op) + mv_kernel(x1) alpha=2.5 beta=-0.5", label);
        st = G::any_update_x(&D, c.xd2, stream);
        st2 = G::any_mv_kernel(&D, (T)2.5, c.xd1, (T)-0.5, c.yd, stream);
        verify(c, st != SPMV_OK ? st : st2, 1, what);
    }
    st = G::any_free(&D);
    st2 = G::any_free(&D);
    if (!gpu_dead)
        CHECK(st == SPMV_OK && is_zero(&D) && st2 == SPMV_OK, "%s: free: %s, then again: %s", label,
              spmv_status_str(st), spmv_status_str(st2));
}

/* The vector CSR kernel with every threads_per_row, through the per-format object. */
template <class G> static void run_csr_tpr(ctx<G> &c) {
    typedef typename G::T T;
    static const int tprs[] = {2, 4, 8, 16, 32};
    typename G::csrd E;
    spmv_status st;
    char what[512];
    size_t i;
    int a;
    if (gpu_dead || !format_wanted(SPMV_FMT_CSR_VECTOR)) return;
    st = G::csr_to_device(&E, &c.A, stream);
    CHECK(st == SPMV_OK && G::csr_dev_bytes(&E) == G::csr_bytes(&c.A), "%s csr_dev [%s]: upload: %s, bytes %zu vs %zu",
          G::name(), c.mname, spmv_status_str(st), st == SPMV_OK ? G::csr_dev_bytes(&E) : (size_t)0,
          G::csr_bytes(&c.A));
    if (st != SPMV_OK) return;
    for (i = 0; i < sizeof tprs / sizeof tprs[0] && !gpu_dead; i++) {
        E.algo = SPMV_CSR_DEV_VECTOR;
        E.threads_per_row = tprs[i];
        for (a = 0; a < NAB && !gpu_dead; a++) {
            snprintf(what, sizeof what, "%s csr_dev vector tpr=%d [%s %zux%zu nnz %zu]: mv alpha=%g beta=%g%s",
                     G::name(), tprs[i], c.mname, c.nr, c.nc, c.nnz, AB[a][0], AB[a][1],
                     AB[a][2] ? " (NaN in y)" : "");
            if (!put_y(c, (int)AB[a][2])) break;
            st = G::csr_dev_mv(&E, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream);
            verify(c, st, a, what);
        }
    }
    st = G::csr_dev_free(&E);
    CHECK(st == SPMV_OK && is_zero(&E), "%s csr_dev [%s]: free: %s", G::name(), c.mname, spmv_status_str(st));
}

/* ELLR-T and SELL-P: ellr and sell with t threads per row (t = 1: the thread-per-row kernel) */
template <class G> static void run_ell_tpr(ctx<G> &c) {
    typedef typename G::T T;
#ifdef SPMV_CUDA_EMULATE /* the ends (t = 1 is the default kernel, run by every format's defaults) */
    static const int ts[] = {2, 32};
#else
    static const int ts[] = {1, 2, 4, 8, 16, 32};
#endif
    typename G::elld E;
    spmv_status st;
    char what[512];
    size_t i;
    int a, sell;
    for (sell = 0; sell < 2 && !gpu_dead; sell++) {
        if (!format_wanted(sell ? SPMV_FMT_SELL : SPMV_FMT_ELLR)) continue;
        for (i = 0; i < sizeof ts / sizeof ts[0] && !gpu_dead; i++) {
            if (G::ell_limited(&c.A, sell, ts[i])) continue; /* the size cap: the generic run checks it */
            st = G::ellt_from_csr(&E, &c.A, sell, ts[i], stream);
            CHECK(st == SPMV_OK && E.tpr == ts[i], "%s %s t=%d [%s]: upload: %s, tpr %d", G::name(), sell ? "sell" : "ellr",
                  ts[i], c.mname, spmv_status_str(st), st == SPMV_OK ? E.tpr : -1);
            if (st != SPMV_OK) continue;
            for (a = 0; a < NAB && !gpu_dead; a++) {
                snprintf(what, sizeof what, "%s %s t=%d [%s %zux%zu nnz %zu]: mv alpha=%g beta=%g%s", G::name(),
                         sell ? "sell" : "ellr", ts[i], c.mname, c.nr, c.nc, c.nnz, AB[a][0], AB[a][1],
                         AB[a][2] ? " (NaN in y)" : "");
                if (!put_y(c, (int)AB[a][2])) break;
                st = G::ell_dev_mv(&E, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream);
                verify(c, st, a, what);
            }
            st = G::ell_dev_free(&E);
            CHECK(st == SPMV_OK && is_zero(&E), "%s ell_dev [%s]: free: %s", G::name(), c.mname, spmv_status_str(st));
        }
    }
}

/* BCSR: block sizes x the three kernels (the emulation: every bs from 2 to 32 on the matrices
 * of at most 64 nonzeros, the ends and both sides of the boundaries 5 and 16 on those up to
 * 1500; a GPU: every bs from 2 to 32 up to 200k nonzeros, the ends and boundaries above: the
 * whole sweep on the 1M-entry random case did not end within 70 s on an H100, 2026-11-26) */
template <class G> static void run_bcsr_kern(ctx<G> &c) {
    typedef typename G::T T;
    static const int all[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                              23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    static const int ends[] = {2, 5, 6, 16, 17, 32};
#ifdef SPMV_CUDA_EMULATE
    const size_t all_up_to = 64;
    if (c.nnz > 1500) return;
#else
    const size_t all_up_to = 200000;
#endif
    const int *bss = c.nnz <= all_up_to ? all : ends;
    const size_t nbs = c.nnz <= all_up_to ? sizeof all / sizeof all[0] : sizeof ends / sizeof ends[0];
    typename G::bcsrd E;
    spmv_status st;
    char what[512];
    size_t i;
    int a, kern;
    if (!format_wanted(SPMV_FMT_BCSR)) return;
    for (i = 0; i < nbs && !gpu_dead; i++)
        for (kern = 1; kern <= 3 && !gpu_dead; kern++) {
            if (kern == 1 && bss[i] > 5) continue; /* whole blocks: bs*bs <= 32 */
            if (G::bcsr_limited(&c.A, bss[i])) continue;
            st = G::bcsr_from_csr(&E, &c.A, bss[i], kern, stream);
            CHECK(st == SPMV_OK && E.bs == bss[i], "%s bcsr bs=%d kern=%d [%s]: upload: %s", G::name(), bss[i], kern,
                  c.mname, spmv_status_str(st));
            if (st != SPMV_OK) continue;
            for (a = 0; a < NAB && !gpu_dead; a++) {
                snprintf(what, sizeof what, "%s bcsr bs=%d kern=%d [%s %zux%zu nnz %zu]: mv alpha=%g beta=%g%s",
                         G::name(), bss[i], kern, c.mname, c.nr, c.nc, c.nnz, AB[a][0], AB[a][1],
                         AB[a][2] ? " (NaN in y)" : "");
                if (!put_y(c, (int)AB[a][2])) break;
                st = G::bcsr_dev_mv(&E, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream);
                verify(c, st, a, what);
            }
            st = G::bcsr_dev_free(&E);
            CHECK(st == SPMV_OK && is_zero(&E), "%s bcsr_dev [%s]: free: %s", G::name(), c.mname, spmv_status_str(st));
        }
}

/* The per-format AXT object directly, CUDA defaults; the host object is freed right after
 * the upload (the device copy must not depend on it). */
template <class G> static void run_axt_direct(ctx<G> &c) {
    typedef typename G::T T;
    int v;
    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_ && !gpu_dead; v++) {
        typename G::axt H;
        typename G::axtd X;
        spmv_axt_params p = spmv_axt_params_cuda_default((spmv_axt_variant)v);
        spmv_status st, st2;
        size_t hkb;
        char label[256], what[400];
        snprintf(label, sizeof label, "%s axt_dev %s(defaults) [%s %zux%zu nnz %zu]", G::name(),
                 spmv_axt_variant_name((spmv_axt_variant)v), c.mname, c.nr, c.nc, c.nnz);
        st = G::axt_from_csr(&H, &c.A, (spmv_axt_variant)v, &p);
        CHECK(st == SPMV_OK, "%s: host conversion: %s", label, spmv_status_str(st));
        if (st != SPMV_OK) continue;
        hkb = G::axt_kernel_bytes(&H);
        st = G::axt_to_device(&X, &H, stream);
        G::axt_free(&H);
        CHECK(st == SPMV_OK && G::axt_dev_kernel_bytes(&X) == hkb && G::axt_dev_bytes(&X) >= hkb,
              "%s: upload: %s, kernel_bytes %zu (host %zu), bytes %zu", label, spmv_status_str(st),
              st == SPMV_OK ? G::axt_dev_kernel_bytes(&X) : (size_t)0, hkb,
              st == SPMV_OK ? G::axt_dev_bytes(&X) : (size_t)0);
        if (st != SPMV_OK) continue;
        if (put_y(c, 0)) {
            snprintf(what, sizeof what, "%s: mv(x1) alpha=2.5 beta=-0.5", label);
            verify(c, G::axt_dev_mv(&X, (T)2.5, c.xd1, (T)-0.5, c.yd, stream), 1, what);
        }
        if (!gpu_dead && put_y(c, 1)) {
            snprintf(what, sizeof what, "%s: update_x(x2) + mv_kernel alpha=1 beta=0", label);
            st = G::axt_dev_update_x(&X, c.xd2, stream);
            st2 = G::axt_dev_mv_kernel(&X, (T)1, (T)0, c.yd, stream);
            verify(c, st != SPMV_OK ? st : st2, REF_X2, what);
        }
        st = G::axt_dev_free(&X);
        CHECK(st == SPMV_OK && is_zero(&X) && G::axt_dev_free(&X) == SPMV_OK, "%s: free (twice): %s", label,
              spmv_status_str(st));
    }
}

/* in the CPU emulation, the real matrices run each format with its defaults only: the
 * parameter sweeps and the per-format objects run on the edge cases and presets there (the
 * emulation costs ~1000x a GPU; on a GPU everything runs on everything) */
static int light;
/* only_sym: the symmetric-only formats alone (on A + A^T of a case that is not symmetric) */
template <class G> static void gpu_matrix(const char *mname, const spmv_triplets *t, int special, int only_sym) {
    typedef typename G::T T;
    static cfg cfgs[64];
    static int ncfg = 0;
    ctx<G> c;
    int i;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    if (!ncfg) ncfg = make_cfgs(cfgs);
    if (!ctx_init(c, mname, t, special)) return;
    for (i = 0; i < ncfg && !gpu_dead; i++)
        if ((!light || !cfgs[i].has_p) && (!only_sym || th_sym(cfgs[i].f))) run_any(c, cfgs[i]);
    if (!light && !only_sym) {
        run_csr_tpr(c);
        run_ell_tpr(c);
        run_bcsr_kern(c);
        run_axt_direct(c);
    }
    if (!gpu_dead && c.nc) { /* the products never write x */
        T *xb = (T *)malloc(c.nc * sizeof(T));
        int same = xb && cuda_ok(cudaMemcpy(xb, c.xd1, c.nc * sizeof(T), cudaMemcpyDeviceToHost), "download x1") &&
                   !memcmp(xb, c.x1, c.nc * sizeof(T));
        CHECK(same, "%s [%s]: x on the device changed by a product", G::name(), mname);
        free(xb);
    }
    ctx_free(c);
}

/* SPMV_TEST_HOST_ONLY=1 without a device: every case is built and goes through everything
 * the GPU part does before the first CUDA call: the host conversions (CSR, COO, AXC/AXT with
 * the device parameters) and the uploads' checks, which must accept them (the upload then
 * fails with SPMV_ERR_NODEVICE / SPMV_ERR_CUDA, never SPMV_ERR_ARG or a conversion error). */
static int opt_host_only;
static int no_device_status(spmv_status st) { return st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA || st == SPMV_OK; }
template <class G> static void host_matrix(const char *mname, const spmv_triplets *t, int only_sym) {
    static cfg cfgs[64];
    static int ncfg = 0;
    typename G::csr A;
    spmv_status st;
    int i, v, sym;
    if (!(opt_tags & G::bit())) return;
    if (!ncfg) ncfg = make_cfgs(cfgs);
    st = G::from_triplets(&A, t);
    CHECK(st == SPMV_OK, "%s [%s]: host csr: %s", G::name(), mname, spmv_status_str(st));
    if (st != SPMV_OK) return;
    sym = th_csr_symmetric(&A);
    for (i = 0; i < ncfg; i++) {
        typename G::any D;
        const int refused = th_sym(cfgs[i].f) && !sym; /* symmetric-only, A is not */
        if (only_sym && !th_sym(cfgs[i].f)) continue;
        st = G::any_from_csr(&D, &A, (spmv_format)cfgs[i].f, cfgs[i].has_p ? &cfgs[i].p : NULL, 0);
        CHECK(refused ? st == SPMV_ERR_ARG && is_zero(&D) : no_device_status(st) && (st == SPMV_OK || is_zero(&D)),
              "%s %s(thw=%d,th=%d,bs=%d) [%s]: upload without a device: %s (expected %s)", G::name(),
              fmt_name(cfgs[i].f), cfgs[i].p.thw, cfgs[i].p.th, cfgs[i].p.bs, mname, spmv_status_str(st),
              refused ? "a refusal: not symmetric" : "a CUDA error");
        G::any_free(&D);
    }
    for (v = 0; v < SPMV_AXT_VARIANT_COUNT_ && !only_sym; v++) {
        typename G::axt H;
        typename G::axtd X;
        spmv_axt_params p = spmv_axt_params_cuda_default((spmv_axt_variant)v);
        st = G::axt_from_csr(&H, &A, (spmv_axt_variant)v, &p);
        if (st == SPMV_OK) {
            st = G::axt_to_device(&X, &H, 0);
            G::axt_free(&H);
            G::axt_dev_free(&X);
        }
        CHECK(no_device_status(st), "%s axt_dev %s(defaults) [%s]: host conversion + upload without a device: %s",
              G::name(), spmv_axt_variant_name((spmv_axt_variant)v), mname, spmv_status_str(st));
    }
    G::csr_free(&A);
}

static int wanted(const char *name) { return !gpu_dead && (!opt_only || strstr(name, opt_only)); }
/* a symmetric-only device format runs (SPMV_TEST_FORMATS) */
static int sym_wanted(void) {
    for (int f = 0; f < SPMV_FMT_COUNT_; f++)
        if (is_dev(f) && th_sym(f) && format_wanted(f)) return 1;
    return 0;
}

static void run_all(const char *name, const spmv_triplets *t, int special) {
    if (!wanted(name)) return;
    printf("case %s: %lld x %lld, %lld entries%s\n", name, (long long)t->nrows, (long long)t->ncols,
           (long long)t->nnz, special ? ", NaN/Inf in x" : "");
    fflush(stdout);
    if (opt_host_only) {
        host_matrix<tag_s>(name, t, 0);
        host_matrix<tag_d>(name, t, 0);
        host_matrix<tag_dl>(name, t, 0);
        host_matrix<tag_sl>(name, t, 0);
    } else {
        gpu_matrix<tag_s>(name, t, special, 0);
        gpu_matrix<tag_d>(name, t, special, 0);
        gpu_matrix<tag_dl>(name, t, special, 0);
        gpu_matrix<tag_sl>(name, t, special, 0);
    }
    /* the symmetric-only formats refused t above (unless it is symmetric): they run on A + A^T */
    if (!gpu_dead && sym_wanted() && !th_triplets_symmetric(t)) {
        spmv_triplets u;
        char sname[300];
        if (!th_symmetrize(t, &u)) return; /* not square: the refusal was the test */
        snprintf(sname, sizeof sname, "%s + its transpose", name);
        printf("case %s: %lld x %lld, %lld entries (symmetric-only formats)\n", sname, (long long)u.nrows,
               (long long)u.ncols, (long long)u.nnz);
        fflush(stdout);
        th_rng_save(); /* x and y drawn here: the later cases stay what they were */
        if (opt_host_only) {
            host_matrix<tag_s>(sname, &u, 1);
            host_matrix<tag_d>(sname, &u, 1);
            host_matrix<tag_dl>(sname, &u, 1);
            host_matrix<tag_sl>(sname, &u, 1);
        } else {
            gpu_matrix<tag_s>(sname, &u, special, 1);
            gpu_matrix<tag_d>(sname, &u, special, 1);
            gpu_matrix<tag_dl>(sname, &u, special, 1);
            gpu_matrix<tag_sl>(sname, &u, special, 1);
        }
        th_rng_restore();
        spmv_triplets_free(&u);
    }
}

/* ---- hand-built COO objects: any order, duplicates ----------------------------------- */
/* The entries of t, in the order perm, uploaded as a COO object as they are (not sorted,
 * duplicates not summed); references computed from the raw entries. */
template <class G> static void gpu_coo(const char *mname, const spmv_triplets *t, const int64_t *perm) {
    typedef typename G::T T;
    typedef typename G::I I;
    ctx<G> c;
    typename G::coo C;
    typename G::cood E;
    spmv_status st;
    char label[256], what[400];
    size_t r;
    int64_t k, n = t->nnz;
    int a;
    long double *s1, *a1, *s2, *a2;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    if (!ctx_init(c, mname, t, 0)) return;
    /* raw references: every stored entry counts in the sum, the scale and the row length */
    s1 = (long double *)calloc(c.nr + 1, sizeof(long double));
    a1 = (long double *)calloc(c.nr + 1, sizeof(long double));
    s2 = (long double *)calloc(c.nr + 1, sizeof(long double));
    a2 = (long double *)calloc(c.nr + 1, sizeof(long double));
    memset(&C, 0, sizeof C);
    C.nrows = (I)t->nrows;
    C.ncols = (I)t->ncols;
    C.nnz = (I)n;
    C.row = (I *)malloc(((size_t)n + 1) * sizeof(I));
    C.col = (I *)malloc(((size_t)n + 1) * sizeof(I));
    C.val = (T *)malloc(((size_t)n + 1) * sizeof(T));
    C.params = spmv_coo_params_default();
    if (!s1 || !a1 || !s2 || !a2 || !C.row || !C.col || !C.val) {
        CHECK(0, "%s coo [%s]: host allocation", G::name(), mname);
        goto done;
    }
    for (r = 0; r < c.nr; r++) c.len[r] = 0;
    for (k = 0; k < n; k++) {
        const int64_t e = perm ? perm[k] : k, i = t->row[e], j = t->col[e];
        long double p1, p2;
        C.row[k] = (I)i;
        C.col[k] = (I)j;
        C.val[k] = (T)t->val[e];
        p1 = (long double)C.val[k] * (long double)c.x1[j];
        p2 = (long double)C.val[k] * (long double)c.x2[j];
        s1[i] += p1; a1[i] += fabsl(p1);
        s2[i] += p2; a2[i] += fabsl(p2);
        c.len[i]++;
    }
    for (r = 0; r < c.nr; r++) {
        c.tol[r] = row_tol<G>(c.len[r]);
        for (a = 0; a < NAB; a++) {
            const long double al = (long double)(T)AB[a][0], be = (long double)(T)AB[a][1];
            c.ref[a][r] = al * s1[r];
            c.scale[a][r] = fabsl(al) * a1[r];
            if (be != 0) {
                c.ref[a][r] += be * (long double)c.yb[r];
                c.scale[a][r] += fabsl(be * (long double)c.yb[r]);
            }
        }
        c.ref[REF_X2][r] = s2[r];
        c.scale[REF_X2][r] = a2[r];
    }
    st = G::coo_to_device(&E, &C, stream);
    free(C.row); free(C.col); free(C.val); /* the device copy must not depend on them */
    C.row = C.col = NULL;
    C.val = NULL;
    snprintf(label, sizeof label, "%s coo_dev hand-built [%s %zux%zu, %lld entries%s]", G::name(), mname, c.nr, c.nc,
             (long long)n, perm ? ", permuted" : "");
    CHECK(st == SPMV_OK && (n == 0 || G::coo_dev_bytes(&E) > 0), "%s: upload: %s (%s)", label, spmv_status_str(st),
          cudaGetErrorString(spmv_cuda_last_error()));
    if (st != SPMV_OK) goto done;
    for (a = 0; a < NAB && !gpu_dead; a++) {
        snprintf(what, sizeof what, "%s: mv alpha=%g beta=%g%s", label, AB[a][0], AB[a][1],
                 AB[a][2] ? " (NaN in y)" : "");
        if (!put_y(c, (int)AB[a][2])) break;
        verify(c, G::coo_dev_mv(&E, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream), a, what);
    }
    if (!gpu_dead && put_y(c, 1)) {
        snprintf(what, sizeof what, "%s: mv with a second x", label);
        verify(c, G::coo_dev_mv(&E, (T)1, c.xd2, (T)0, c.yd, stream), REF_X2, what);
    }
    st = G::coo_dev_free(&E);
    CHECK(st == SPMV_OK && is_zero(&E), "%s: free: %s", label, spmv_status_str(st));
done:
    free(C.row); free(C.col); free(C.val);
    free(s1); free(a1); free(s2); free(a2);
    ctx_free(c);
}

/* mode 0: as generated, 1: reversed, 2: shuffled */
static void coo_all(const char *name, const spmv_triplets *t, int mode) {
    int64_t *perm = NULL, k, n = t->nnz;
    if (!wanted(name) || opt_host_only) return;
    printf("case %s (hand-built COO, %s order): %lld x %lld, %lld entries\n", name,
           mode == 0 ? "generated" : mode == 1 ? "reversed" : "shuffled", (long long)t->nrows, (long long)t->ncols,
           (long long)n);
    fflush(stdout);
    if (mode) {
        perm = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
        if (!perm) abort();
        for (k = 0; k < n; k++) perm[k] = mode == 1 ? n - 1 - k : k;
        if (mode == 2)
            for (k = n - 1; k > 0; k--) {
                int64_t j = (int64_t)(th_rnd() % (uint64_t)(k + 1)), tmp = perm[k];
                perm[k] = perm[j];
                perm[j] = tmp;
            }
    }
    gpu_coo<tag_s>(name, t, perm);
    gpu_coo<tag_d>(name, t, perm);
    gpu_coo<tag_dl>(name, t, perm);
    gpu_coo<tag_sl>(name, t, perm);
    free(perm);
}

/* ---- matrices ---------------------------------------------------------------------------- */
static int64_t huge_len = 200000;
static int64_t len_thirds(int64_t r) { return r % 3 == 0 ? 0 : 1 + (int64_t)(th_rnd() % 20); }
static int64_t len_huge_row(int64_t r) { return r == 777 ? huge_len : (int64_t)(th_rnd() % 6); }
static int64_t len_one_huge(int64_t) { return huge_len; }
static int64_t len_0_70(int64_t r) { return r; }
static int64_t len_mixed(int64_t r) { return r % 97 == 0 ? 3000 + r : (int64_t)(th_rnd() % 9); }
static const int64_t block_lens[] = {1023, 1024, 1025, 2049, 0, 1, 31, 32, 33, 255, 256, 257, 4097, 0, 3};
static int64_t len_block(int64_t r) { return block_lens[r % (int64_t)(sizeof block_lens / sizeof block_lens[0])]; }
static int64_t len_over_block(int64_t r) { return 257 + r * 120; }

/* exactly n distinct entries over 37 rows (so the tiles and the rows do not line up) */
static void make_count(spmv_triplets *t, int64_t n) {
    int64_t k, nr = 37, nc = 3 * (n / nr + 1);
    if (spmv_triplets_alloc(t, nr, nc, n) != SPMV_OK) abort();
    for (k = 0; k < n; k++) {
        t->row[k] = k % nr;
        t->col[k] = (k / nr) * 3 + (k % 3);
        t->val[k] = th_rval();
    }
}

static void edge_cases(void) {
    spmv_triplets t;
    int64_t k, n;
    char name[128];
    huge_len = opt_quick ? 20000 : 200000;
    /* empty shapes, 1x1 */
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 all rows empty", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = 0; t.col[0] = 0; t.val[0] = -0.75; run_all("1x1", &t, 0);
    spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 0); run_all("1x1 empty", &t, 0); spmv_triplets_free(&t);
    /* empty rows mixed in */
    th_make_rows_fn(&t, 1000, 1000, len_thirds); run_all("every third row empty", &t, 0); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 71, 200, len_0_70); run_all("row lengths 0..70", &t, 0); spmv_triplets_free(&t);
    /* one huge row */
    snprintf(name, sizeof name, "row 777 of %lld among short rows", (long long)huge_len);
    th_make_rows_fn(&t, 2000, huge_len + 50000, len_huge_row); run_all(name, &t, 0); spmv_triplets_free(&t);
    snprintf(name, sizeof name, "one row of %lld", (long long)huge_len);
    th_make_rows_fn(&t, 1, huge_len + 50000, len_one_huge); run_all(name, &t, 0); spmv_triplets_free(&t);
    /* a dense row and a dense column (and the diagonal) */
    n = opt_quick ? 600 : 3000;
    spmv_triplets_alloc(&t, n, n, 3 * n);
    for (k = 0; k < n; k++) {
        t.row[k] = 17; t.col[k] = k; t.val[k] = th_rval();
        t.row[n + k] = k; t.col[n + k] = 23; t.val[n + k] = th_rval();
        t.row[2 * n + k] = k; t.col[2 * n + k] = k; t.val[2 * n + k] = 1;
    }
    run_all("dense row 17 and dense column 23", &t, 0); spmv_triplets_free(&t);
    /* rows longer than a block, row lengths around the tile sizes */
    th_make_rows_fn(&t, opt_quick ? 15 : 45, 8192, len_block); run_all("rows of 1023/1024/1025/2049/4097 and short", &t, 0);
    spmv_triplets_free(&t);
    th_make_rows_fn(&t, opt_quick ? 12 : 40, 20000, len_over_block); run_all("rows of 257+120r", &t, 0);
    spmv_triplets_free(&t);
    /* nnz 1 + multiples of 32, 1024 +- 1, ...: not a multiple of any tile */
    {
        static const int64_t counts[] = {1, 31, 33, 65, 32 * 7 + 1, 1023, 1025, 2047, 2049, 32 * 100 + 1, 5119, 5121};
        size_t i;
        for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            snprintf(name, sizeof name, "nnz %lld over 37 rows", (long long)counts[i]);
            make_count(&t, counts[i]);
            run_all(name, &t, 0);
            spmv_triplets_free(&t);
        }
    }
    /* tall and wide */
    th_make_random(&t, opt_quick ? 1500 : 20000, 5, opt_quick ? 2500 : 30000); run_all("tall (x5, duplicates)", &t, 0);
    spmv_triplets_free(&t);
    th_make_random(&t, 5, opt_quick ? 1500 : 20000, opt_quick ? 2500 : 30000); run_all("wide (5x)", &t, 0);
    spmv_triplets_free(&t);
    /* explicit zeros, a row of zeros only */
    th_make_random(&t, 300, 300, 2000);
    for (k = 0; k < t.nnz; k++)
        if (k % 3 == 0 || t.row[k] == 7) t.val[k] = 0;
    run_all("explicit zeros", &t, 0); spmv_triplets_free(&t);
    /* NaN / Inf in A (one row with +Inf and -Inf: NaN); NaN / Inf in x (x[0] NaN) */
    th_make_random(&t, 400, 400, 4002);
    t.val[5] = NAN; t.val[77] = INFINITY; t.val[1000] = -INFINITY;
    t.row[4000] = 3; t.col[4000] = 10; t.val[4000] = INFINITY;
    t.row[4001] = 3; t.col[4001] = 11; t.val[4001] = -INFINITY;
    run_all("NaN/Inf in A", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 400, 400, 4000); run_all("NaN/Inf in x", &t, 1); spmv_triplets_free(&t);
    /* duplicates in unsorted input */
    spmv_triplets_alloc(&t, 10, 10, 40);
    for (k = 0; k < 40; k++) { t.row[k] = 9 - (k % 10); t.col[k] = (k * 3) % 4; t.val[k] = (double)k / 7; }
    run_all("duplicates unsorted", &t, 0); spmv_triplets_free(&t);
    /* short and long rows mixed; a larger random matrix */
    th_make_rows_fn(&t, opt_quick ? 300 : 5000, 9000, len_mixed); run_all("mixed short and long rows", &t, 0);
    spmv_triplets_free(&t);
    if (!opt_quick) {
        th_make_random(&t, 100000, 80000, 1000000); run_all("random 100000x80000", &t, 0); spmv_triplets_free(&t);
    }
}

static void coo_cases(void) {
    spmv_triplets t;
    int64_t k;
    if (!format_wanted(SPMV_FMT_COO)) return;
    /* many duplicates (40 columns), random order */
    th_make_random(&t, 2000, 40, opt_quick ? 6000 : 30000);
    coo_all("coo: duplicates, random order", &t, 0);
    coo_all("coo: duplicates, random order", &t, 2);
    spmv_triplets_free(&t);
    /* long rows, the entries shuffled (every chunk sees many rows) and reversed */
    th_make_rows_fn(&t, opt_quick ? 12 : 40, 20000, len_over_block);
    coo_all("coo: rows of 257+120r", &t, 1);
    coo_all("coo: rows of 257+120r", &t, 2);
    spmv_triplets_free(&t);
    th_make_rows_fn(&t, 2000, huge_len + 50000, len_huge_row);
    coo_all("coo: one huge row among short rows", &t, 2);
    spmv_triplets_free(&t);
    /* every entry the same (row, col) */
    spmv_triplets_alloc(&t, 5, 5, 3000);
    for (k = 0; k < t.nnz; k++) { t.row[k] = 2; t.col[k] = 4; t.val[k] = th_rval(); }
    coo_all("coo: 3000 copies of one entry", &t, 0);
    spmv_triplets_free(&t);
    /* no entries, and no rows */
    spmv_triplets_alloc(&t, 10, 10, 0); coo_all("coo: 10x10 no entries", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 3, 0); coo_all("coo: 0x3", &t, 0); spmv_triplets_free(&t);
}

/* ---- CSR5 on the GPU (formats/cuda/csr5.cuh): the sigma rule at its bounds, tile ranges of
 * several tpw (rows carried from tile to tile inside a warp, calibrator slots between ranges),
 * tiles holding empty rows (flagged: the empty_offset path), rows crossing one and many tiles,
 * the tail alone and a tail whose first row began in a tile, NaN/Inf in x confined to their
 * rows, parameter errors, the --tune search and (emulation) every cudaMalloc failing. ------- */
template <class G> struct c5t; /* the host CSR5 type of a tag */
#define CSR5_TAG(TG)                                                                                             \
    static spmv_status csr5_up(spmv_##TG##_any_dev *D, const spmv_##TG##_csr *A, const spmv_csr5_params *p,      \
                               cudaStream_t s) {                                                                 \
        spmv_any_params u;                                                                                       \
        if (p) u.csr5 = *p;                                                                                      \
        return spmv_##TG##_any_dev__build(D, A, SPMV_FMT_CSR5, p ? &u : NULL, s);                                \
    }                                                                                                            \
    static spmv_status csr5_host(spmv_##TG##_csr5 *H, const spmv_##TG##_csr *A, const spmv_csr5_params *p) {     \
        return spmv_##TG##_csr5_from_csr(H, A, p, NULL);                                                               \
    }                                                                                                            \
    static void csr5_host_free(spmv_##TG##_csr5 *H) { spmv_##TG##_csr5_free(H); }                               \
    static spmv_status csr5_tune(const spmv_##TG##_csr *A, spmv_any_params *p, cudaStream_t s, double *sec) {    \
        return spmv_##TG##_any_dev__tune(A, SPMV_FMT_CSR5, p, 1, s, sec);                                        \
    }                                                                                                            \
    template <> struct c5t<tag_##TG> {                                                                           \
        typedef spmv_##TG##_csr5 host;                                                                           \
        typedef spmv_##TG##_csr5_uidx uidx;                                                                      \
    };
CSR5_TAG(s)
CSR5_TAG(d)
CSR5_TAG(dl)
CSR5_TAG(sl)
#undef CSR5_TAG

/* what a case must contain (checked on the host layout with the device's omega and sigma) */
enum { C5_FLAGGED = 1, C5_NO_TILES = 2, C5_TAIL = 4, C5_CAL = 8, C5_TAIL_CONT = 16, C5_MULTI_TILE_ROW = 32 };

/* One matrix, one (sigma, tpw): upload, the resolved parameters, every (alpha, beta), a second x. */
template <class G>
static void csr5_run(ctx<G> &c, int sigma, int tpw, int expect_sigma, int want, const char *mname) {
    typedef typename G::T T;
    typedef typename G::I I;
    typename G::any D;
    spmv_csr5_params p = spmv_csr5_dev_params_default();
    spmv_status st;
    char label[256], what[400], pb[64];
    int a;
    if (gpu_dead) return;
    p.sigma = sigma;
    p.tpw = tpw;
    st = csr5_up(&D, &c.A, &p, stream);
    snprintf(label, sizeof label, "%s csr5(sigma=%d,tpw=%d) [%s %zux%zu nnz %zu]", G::name(), sigma, tpw, mname, c.nr,
             c.nc, c.nnz);
    CHECK(st == SPMV_OK, "%s: upload: %s", label, spmv_status_str(st));
    if (st != SPMV_OK) return;
    {
        const auto *E = &D.u.csr5; /* resolved parameters, the layout's counts */
        const int rs = sigma ? sigma : spmv_csr5_dev_sigma((int64_t)c.nr, (int64_t)c.nnz);
        const int64_t TS = 32 * (int64_t)E->sigma;
        const int64_t ntiles = (int64_t)c.nnz / TS;
        int ok = E->sigma == rs && (expect_sigma == 0 || E->sigma == expect_sigma) && E->params.omega == 32 &&
                 (tpw == 0 || E->tpw == tpw) && (int64_t)E->ntiles == ntiles &&
                 E->nranges == (ntiles + E->tpw - 1) / E->tpw && (E->ntail > 0) == (ntiles * TS < (int64_t)c.nnz);
        G::any_params(&D, pb, sizeof pb);
        CHECK(ok, "%s: resolved sigma %d (rule %d, expected %d), tpw %lld, tiles %lld (expected %lld), ranges %lld, "
                  "tail rows %lld",
              label, E->sigma, rs, expect_sigma, (long long)E->tpw, (long long)E->ntiles, (long long)ntiles,
              (long long)E->nranges, (long long)E->ntail);
        if (want) { /* the case covers what it is meant to */
            typename c5t<G>::host H;
            spmv_csr5_params hp = E->params;
            int has = 0;
            if (csr5_host(&H, &c.A, &hp) == SPMV_OK) {
                const typename c5t<G>::uidx topb = (typename c5t<G>::uidx)1 << (sizeof(typename c5t<G>::uidx) * 8 - 1);
                int64_t t, r;
                for (t = 0; t < (int64_t)H.ntiles; t++)
                    if (H.tile_ptr[t] & topb) has |= C5_FLAGGED;
                if (H.ntiles == 0) has |= C5_NO_TILES;
                if (E->ntail > 0) has |= C5_TAIL;
                if (E->ncal > 0) has |= C5_CAL;
                if (E->ntail > 0 && H.ntiles > 0 && (int64_t)c.A.row_ptr[E->tail_r0] < ntiles * TS)
                    has |= C5_TAIL_CONT;
                for (r = 0; r < (int64_t)c.nr; r++) {
                    const I b = c.A.row_ptr[r], e = c.A.row_ptr[r + 1];
                    if (e > b && (int64_t)(e - 1) / TS > (int64_t)b / TS + 1 && (int64_t)(e - 1) < ntiles * TS)
                        has |= C5_MULTI_TILE_ROW;
                }
                csr5_host_free(&H);
            }
            CHECK((has & want) == want, "%s: the case lacks what it tests (has 0x%x, wants 0x%x)", label, has, want);
        }
    }
    snprintf(label, sizeof label, "%s csr5(sigma=%d,tpw=%d -> %s) [%s %zux%zu nnz %zu]", G::name(), sigma, tpw, pb,
             mname, c.nr, c.nc, c.nnz);
    for (a = 0; a < NAB && !gpu_dead; a++) {
        snprintf(what, sizeof what, "%s: mv alpha=%g beta=%g%s", label, AB[a][0], AB[a][1],
                 AB[a][2] ? " (NaN in y)" : "");
        if (!put_y(c, (int)AB[a][2])) break;
        verify(c, G::any_mv(&D, (T)AB[a][0], c.xd1, (T)AB[a][1], c.yd, stream), a, what);
    }
    if (!gpu_dead && put_y(c, 1)) {
        snprintf(what, sizeof what, "%s: mv with a second x", label);
        verify(c, G::any_mv(&D, (T)1, c.xd2, (T)0, c.yd, stream), REF_X2, what);
    }
    st = G::any_free(&D);
    CHECK(st == SPMV_OK && is_zero(&D), "%s: free: %s", label, spmv_status_str(st));
}

struct csr5_cfg {
    int sigma, tpw, expect_sigma, want;
};
template <class G>
static void csr5_matrix(const char *mname, const spmv_triplets *t, int special, const csr5_cfg *cf, int ncf) {
    ctx<G> c;
    int i;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    if (!ctx_init(c, mname, t, special)) return;
    for (i = 0; i < ncf && !gpu_dead; i++) csr5_run(c, cf[i].sigma, cf[i].tpw, cf[i].expect_sigma, cf[i].want, mname);
    ctx_free(c);
}
static void csr5_all(const char *mname, const spmv_triplets *t, int special, const csr5_cfg *cf, int ncf) {
    if (!wanted(mname)) return;
    printf("case csr5: %s: %lld x %lld, %lld entries%s\n", mname, (long long)t->nrows, (long long)t->ncols,
           (long long)t->nnz, special ? ", NaN/Inf in x" : "");
    fflush(stdout);
    csr5_matrix<tag_s>(mname, t, special, cf, ncf);
    csr5_matrix<tag_d>(mname, t, special, cf, ncf);
    csr5_matrix<tag_dl>(mname, t, special, cf, ncf);
    csr5_matrix<tag_sl>(mname, t, special, cf, ncf);
}
static void csr5_rows(spmv_triplets *t, int64_t nr, int64_t nc, const int64_t *cyc, size_t ncyc) {
    int64_t *len = (int64_t *)malloc(((size_t)nr + 1) * sizeof(int64_t)), r;
    if (!len) abort();
    for (r = 0; r < nr; r++) len[r] = cyc[(size_t)r % ncyc];
    th_make_rows(t, nr, nc, len);
    free(len);
}

/* host checks of the device parameters (no device needed) */
static void csr5_host_checks(void) {
    static const int64_t avg_sigma[][2] = {{0, 4}, {3, 4}, {4, 4}, {5, 5}, {17, 17}, {31, 31}, {32, 32},
                                           {33, 32}, {255, 32}, {256, 32}, {257, 6}, {5000, 6}};
    spmv_csr5_params p = spmv_csr5_dev_params_default(), q;
    size_t i;
    int n;
    for (i = 0; i < sizeof avg_sigma / sizeof avg_sigma[0]; i++) {
        const int s = spmv_csr5_dev_sigma(10, avg_sigma[i][0] * 10 + 9); /* integer mean: the +9 does not count */
        CHECK(s == (int)avg_sigma[i][1], "csr5 sigma rule: nnz/row %lld -> %d, expected %lld",
              (long long)avg_sigma[i][0], s, (long long)avg_sigma[i][1]);
    }
    CHECK(spmv_csr5_dev_sigma(0, 0) == 4 && spmv_csr5_dev_sigma(0, 100) == 4, "csr5 sigma rule without rows");
    CHECK(p.isa == SPMV_ISA_GENERIC && p.omega == 32 && p.sigma == 0 && p.tpw == 0,
          "csr5 device defaults: isa %d omega %d sigma %d tpw %d", (int)p.isa, p.omega, p.sigma, p.tpw);
    CHECK(spmv_csr5_dev_tpw(100, 0) == 1 && spmv_csr5_dev_tpw(100, 7) == 7 &&
              spmv_csr5_dev_tpw((int64_t)SPMV_CUDA_CSR5_RANGES * 3 + 1, 0) == 4,
          "csr5 tiles per warp");
    for (n = 0; spmv_csr5_dev_candidate(n, &p, &q); n++)
        CHECK(q.omega == 32 && q.sigma >= 0 && q.sigma <= 64, "csr5 --tune candidate %d: omega %d sigma %d", n, q.omega,
              q.sigma);
    CHECK(n >= 5 && spmv_csr5_dev_candidate(0, &p, &q) && q.sigma == 0, "csr5 --tune: %d candidates, the rule first", n);
}

/* the skew cap (formats/cuda/core.cuh): hand-made row lengths, expectations written out */
template <class G> static void skew_cap(void) {
    static const struct {
        int64_t nr, first, rest; /* rows; row 0's length, every other row's (1200 columns) */
        int ell_refused, bcsr_refused;
    } cases[] = {{2000, 1000, 2, 1, 1}, /* 1000 >= 64 and >= 200, > 16 x mean 2.5 */
                 {2000, 150, 2, 1, 0},  /* ELL family refused; bcsr's floor is 200 */
                 {2000, 63, 1, 0, 0},   /* below the ELL floor */
                 {2000, 100, 10, 0, 0}, /* 100 < 16 x mean 10 */
                 {1, 1100, 0, 0, 1},    /* one row: no skew, but one warp of 4096 busy (bcsr) */
                 {300, 250, 250, 0, 0}}; /* 250 < 16 x 75000/4096 */
    static const int fams[] = {SPMV_FMT_HLL, SPMV_FMT_SELL, SPMV_FMT_JAD, SPMV_FMT_BCSR, SPMV_FMT_HYB};
    size_t i, k;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    for (i = 0; i < sizeof cases / sizeof cases[0] && !gpu_dead; i++) {
        typename G::csr A;
        spmv_triplets t;
        int64_t len[2000], r;
        for (r = 0; r < cases[i].nr; r++) len[r] = r ? cases[i].rest : cases[i].first;
        th_make_rows(&t, cases[i].nr, 1200, len);
        spmv_status st = G::from_triplets(&A, &t);
        spmv_triplets_free(&t);
        CHECK(st == SPMV_OK, "%s skew cap case %zu: host CSR: %s", G::name(), i, spmv_status_str(st));
        if (st != SPMV_OK) continue;
        for (k = 0; k < sizeof fams / sizeof fams[0]; k++) {
            typename G::any D;
            const int f = fams[k];
            const int refused = f == SPMV_FMT_HYB ? 0 : f == SPMV_FMT_BCSR ? cases[i].bcsr_refused : cases[i].ell_refused;
            memset(&D, 0xab, sizeof D);
            st = G::any_from_csr(&D, &A, (spmv_format)f, NULL, stream);
            CHECK(refused ? st == SPMV_ERR_LIMIT && is_zero(&D) : st == SPMV_OK,
                  "%s %s skew cap, rows %lld/%lld: upload %s, expected %s", G::name(), fmt_name(f),
                  (long long)cases[i].first, (long long)cases[i].rest, spmv_status_str(st), refused ? "refusal" : "ok");
            if (st == SPMV_OK) (void)G::any_free(&D);
        }
        G::csr_free(&A);
    }
}

/* parameter errors before any CUDA call, the limit, the tuner, allocation failures (emulation) */
template <class G> static void csr5_errors(void) {
    typedef typename G::T T;
    typename G::csr A;
    typename G::any D;
    spmv_triplets t;
    spmv_csr5_params p;
    spmv_status st;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    {
        static const int64_t cyc[] = {3, 0, 200, 1, 0, 0, 5, 300, 2, 0, 7};
        csr5_rows(&t, 40, 400, cyc, sizeof cyc / sizeof cyc[0]);
    }
    st = G::from_triplets(&A, &t);
    spmv_triplets_free(&t);
    if (st != SPMV_OK) return;
    p = spmv_csr5_dev_params_default();
    p.omega = 16;
    memset(&D, 0xab, sizeof D);
    st = csr5_up(&D, &A, &p, stream);
    CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s csr5 omega 16 on the GPU: %s", G::name(), spmv_status_str(st));
    p = spmv_csr5_dev_params_default();
    p.tpw = -1;
    memset(&D, 0xab, sizeof D);
    st = csr5_up(&D, &A, &p, stream);
    CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s csr5 tpw -1: %s", G::name(), spmv_status_str(st));
    p = spmv_csr5_dev_params_default();
    p.sigma = 67; /* y_offset 12 bits + seg_offset 5 > 16 */
    memset(&D, 0xab, sizeof D);
    st = csr5_up(&D, &A, &p, stream);
    CHECK(st == SPMV_ERR_LIMIT && is_zero(&D), "%s csr5 sigma 67: %s", G::name(), spmv_status_str(st));
    p.sigma = 66;
    st = csr5_up(&D, &A, &p, stream);
    CHECK(st == SPMV_OK && D.u.csr5.sigma == 66, "%s csr5 sigma 66: %s", G::name(), spmv_status_str(st));
    if (st == SPMV_OK) G::any_free(&D);
    { /* the --tune search through the generic device tuner (one product per sample) */
        spmv_any_params u;
        double sec = -1;
        int i, in = 0;
        spmv_any_params cand;
        spmv_any_dev_params_init(SPMV_FMT_CSR5, NULL, &u, NULL);
        st = csr5_tune(&A, &u, stream, &sec);
        for (i = 0; spmv_any_dev_candidate(SPMV_FMT_CSR5, i, &u, &cand); i++) in |= cand.csr5.sigma == u.csr5.sigma;
        CHECK(st == SPMV_OK && in && sec >= 0, "%s csr5 --tune: %s, sigma %d", G::name(), spmv_status_str(st),
              u.csr5.sigma);
    }
#ifdef SPMV_CUDA_EMULATE
    { /* every cudaMalloc of the upload failing in turn: a CUDA error, D zeroed, nothing left */
        const size_t live0 = spmv_emu_live_blocks();
        long k;
        p = spmv_csr5_dev_params_default();
        p.sigma = 4;
        p.tpw = 1; /* tiles, flagged tiles, calibrator slots, a tail, empty rows: every array */
        for (k = 0; k < 64; k++) {
            spmv_emu_fail_malloc_after(k);
            memset(&D, 0xab, sizeof D);
            st = csr5_up(&D, &A, &p, stream);
            spmv_emu_fail_malloc_after(-1);
            if (st == SPMV_OK) break;
            CHECK(st == SPMV_ERR_CUDA && is_zero(&D) && spmv_emu_live_blocks() == live0,
                  "%s csr5: cudaMalloc %ld failing: %s, handle %s, %zu blocks left (before: %zu)", G::name(), k + 1,
                  spmv_status_str(st), is_zero(&D) ? "zeroed" : "NOT zeroed", spmv_emu_live_blocks(), live0);
        }
        CHECK(st == SPMV_OK && k >= 11 && D.u.csr5.ncal > 0 && D.u.csr5.ntail > 0,
              "%s csr5: upload after %ld allocation failures: %s (11 arrays expected)", G::name(), k, spmv_status_str(st));
        if (st == SPMV_OK) G::any_free(&D);
        CHECK(spmv_emu_live_blocks() == live0, "%s csr5: %zu device blocks leaked", G::name(),
              spmv_emu_live_blocks() - live0);
    }
#endif
    (void)sizeof(T);
    G::csr_free(&A);
}

#ifdef SPMV_CUDA_EMULATE
/* Every device format (defaults): each cudaMalloc of the upload failing in turn must give a
 * CUDA error, a zeroed handle and no device block left (the emulation's bookkeeping). The
 * symmetric-only formats on S = A_s + A_s^T, A_s square with empty rows. */
template <class G> static void dev_alloc_failures(void) {
    static const int64_t cyc[] = {3, 0, 200, 1, 0, 0, 5, 300, 2, 0, 7};
    typename G::csr A, S;
    typename G::any D;
    spmv_triplets t, u;
    spmv_status st;
    int f;
    if (gpu_dead || !(opt_tags & G::bit())) return;
    csr5_rows(&t, 40, 400, cyc, sizeof cyc / sizeof cyc[0]);
    st = G::from_triplets(&A, &t);
    spmv_triplets_free(&t);
    if (st != SPMV_OK) return;
    {
        static const int64_t scyc[] = {3, 0, 20, 1, 0, 0, 5};
        th_rng_save(); /* the later cases as they were */
        csr5_rows(&t, 40, 40, scyc, sizeof scyc / sizeof scyc[0]);
        th_rng_restore();
        st = SPMV_ERR_ALLOC;
        if (th_symmetrize(&t, &u)) {
            st = G::from_triplets(&S, &u);
            spmv_triplets_free(&u);
        }
        spmv_triplets_free(&t);
        CHECK(st == SPMV_OK && th_csr_symmetric(&S), "%s: a symmetric matrix for the allocation failures: %s",
              G::name(), spmv_status_str(st));
        if (st != SPMV_OK) {
            G::csr_free(&A);
            return;
        }
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        const size_t live0 = spmv_emu_live_blocks();
        long k;
        if (!is_dev(f) || !format_wanted(f)) continue;
        for (k = 0; k < 64; k++) {
            spmv_emu_fail_malloc_after(k);
            memset(&D, 0xab, sizeof D);
            st = G::any_from_csr(&D, th_sym(f) ? &S : &A, (spmv_format)f, NULL, stream);
            spmv_emu_fail_malloc_after(-1);
            if (st == SPMV_OK || st == SPMV_ERR_LIMIT) break;
            CHECK(st == SPMV_ERR_CUDA && is_zero(&D) && spmv_emu_live_blocks() == live0,
                  "%s %s: cudaMalloc %ld of the upload failing: %s, handle %s, %zu blocks left (before: %zu)",
                  G::name(), fmt_name(f), k + 1, spmv_status_str(st), is_zero(&D) ? "zeroed" : "NOT zeroed",
                  spmv_emu_live_blocks(), live0);
        }
        CHECK(st == SPMV_OK || st == SPMV_ERR_LIMIT, "%s %s: upload after %ld allocation failures: %s", G::name(),
              fmt_name(f), k, spmv_status_str(st));
        if (st == SPMV_OK) G::any_free(&D);
        CHECK(spmv_emu_live_blocks() == live0, "%s %s: %zu device blocks leaked", G::name(), fmt_name(f),
              spmv_emu_live_blocks() - live0);
    }
    G::csr_free(&A);
    G::csr_free(&S);
}
#endif

static void csr5_cases(void) {
    spmv_triplets t;
    char name[160];
    int64_t r, k;
    size_t i;
    if (opt_host_only) return;
#ifdef SPMV_CUDA_EMULATE
    dev_alloc_failures<tag_s>();
    dev_alloc_failures<tag_d>();
    dev_alloc_failures<tag_dl>();
    dev_alloc_failures<tag_sl>();
#endif
    if (!format_wanted(SPMV_FMT_CSR5)) return;
    skew_cap<tag_s>();
    skew_cap<tag_d>();
    skew_cap<tag_dl>();
    csr5_errors<tag_s>();
    csr5_errors<tag_d>();
    csr5_errors<tag_dl>();
    csr5_errors<tag_sl>();
    { /* the sigma rule at each bound, with the defaults: rows of exactly nnz/row entries */
        static const int avgs[][2] = {{4, 4}, {5, 5}, {32, 32}, {33, 32}, {256, 32}, {257, 6}};
        for (i = 0; i < sizeof avgs / sizeof avgs[0]; i++) {
            const int64_t cyc[1] = {avgs[i][0]};
            const csr5_cfg cf[1] = {{0, 0, avgs[i][1], 0}};
            snprintf(name, sizeof name, "sigma rule: 9 rows of %d", avgs[i][0]);
            csr5_rows(&t, 9, 600, cyc, 1);
            csr5_all(name, &t, 0, cf, 1);
            spmv_triplets_free(&t);
        }
    }
    { /* tiles holding empty rows (in the middle and at tile ends), several rows per lane */
        static const int64_t cyc[] = {3, 0, 0, 5, 0, 1, 0, 0, 0, 2, 7, 0, 128, 0, 0, 64, 64, 0, 1};
        const csr5_cfg cf[] = {{4, 1, 4, C5_FLAGGED | C5_CAL}, {4, 3, 4, C5_FLAGGED | C5_CAL}, {8, 2, 8, C5_FLAGGED},
                               {0, 0, 0, C5_FLAGGED}};
        csr5_rows(&t, 600, 700, cyc, sizeof cyc / sizeof cyc[0]);
        csr5_all("empty rows inside tiles", &t, 0, cf, (int)(sizeof cf / sizeof cf[0]));
        spmv_triplets_free(&t);
    }
    { /* rows crossing one tile and many (T = 128 at sigma 4), short rows between, a tail whose first
         row began in a tile */
        static const int64_t cyc[] = {127, 2, 128, 0, 129, 1, 261, 3, 0, 5120, 4, 1, 0, 130};
        const csr5_cfg cf[] = {{4, 1, 4, C5_CAL | C5_MULTI_TILE_ROW | C5_TAIL | C5_TAIL_CONT},
                               {4, 2, 4, C5_CAL | C5_MULTI_TILE_ROW},
                               {4, 5, 4, C5_CAL | C5_MULTI_TILE_ROW},
                               {4, 1000, 4, C5_MULTI_TILE_ROW},
                               {16, 3, 16, 0},
                               {0, 0, 0, 0}};
        csr5_rows(&t, 14, 6000, cyc, sizeof cyc / sizeof cyc[0]);
        csr5_all("rows crossing one and many tiles", &t, 0, cf, (int)(sizeof cf / sizeof cf[0]));
        spmv_triplets_free(&t);
    }
    { /* one huge row among short ones: it spans many tiles and many ranges */
        int64_t *len = (int64_t *)malloc(300 * sizeof(int64_t));
        const csr5_cfg cf[] = {{4, 1, 4, C5_CAL | C5_MULTI_TILE_ROW}, {4, 3, 4, C5_CAL | C5_MULTI_TILE_ROW},
                               {6, 7, 6, C5_CAL | C5_MULTI_TILE_ROW}, {0, 0, 0, 0}};
        if (!len) abort();
        for (r = 0; r < 300; r++) len[r] = r == 150 ? 9000 : (int64_t)(th_rnd() % 4);
        th_make_rows(&t, 300, 12000, len);
        free(len);
        csr5_all("one huge row of 9000", &t, 0, cf, (int)(sizeof cf / sizeof cf[0]));
        spmv_triplets_free(&t);
    }
    { /* the tail alone: nnz below one tile (sigma 32: T = 1024), and one row of 1000 */
        const csr5_cfg cf[] = {{32, 0, 32, C5_NO_TILES | C5_TAIL}, {0, 0, 0, 0}};
        make_count(&t, 700);
        csr5_all("nnz 700 over 37 rows (tail only)", &t, 0, cf, 2);
        spmv_triplets_free(&t);
        {
            static const int64_t cyc[] = {0, 1000, 0};
            csr5_rows(&t, 3, 1200, cyc, 3);
            csr5_all("rows 0, 1000, 0 (tail only)", &t, 0, cf, 2);
            spmv_triplets_free(&t);
        }
    }
    { /* no rows, no entries */
        const csr5_cfg cf[] = {{0, 0, 4, 0}, {4, 2, 4, 0}};
        spmv_triplets_alloc(&t, 0, 0, 0); csr5_all("0x0", &t, 0, cf, 2); spmv_triplets_free(&t);
        spmv_triplets_alloc(&t, 0, 9, 0); csr5_all("0x9", &t, 0, cf, 2); spmv_triplets_free(&t);
        spmv_triplets_alloc(&t, 9, 0, 0); csr5_all("9x0", &t, 0, cf, 2); spmv_triplets_free(&t);
        spmv_triplets_alloc(&t, 40, 40, 0); csr5_all("40x40 no entries", &t, 0, cf, 2); spmv_triplets_free(&t);
    }
    { /* NaN / Inf in x confined to their rows: every column belongs to one row (rows of 1..5), so
         x[0] = NaN, x[nc/3] = Inf and x[nc/2] = -Inf reach rows 0, 200 and 300 only */
        const int64_t nr = 600, nc = 5 * nr;
        const csr5_cfg cf[] = {{4, 1, 4, C5_CAL}, {8, 3, 8, 0}, {0, 0, 0, 0}};
        int64_t p = 0, n = 0;
        for (r = 0; r < nr; r++) n += r % 5 + 1;
        if (spmv_triplets_alloc(&t, nr, nc, n) != SPMV_OK) abort();
        for (r = 0; r < nr; r++)
            for (k = 0; k <= r % 5; k++) {
                t.row[p] = r;
                t.col[p] = 5 * r + k;
                t.val[p] = th_rval();
                p++;
            }
        csr5_all("NaN/Inf in x, one row per column", &t, 1, cf, (int)(sizeof cf / sizeof cf[0]));
        spmv_triplets_free(&t);
    }
}

static void presets(void) {
    static const char *full[] = {"stencil3d:n=30,pts=27", "fem:n=5000,bs=3",   "rmat:scale=14,ef=16",
                                 "circuit:n=50000,dense=2", "band:n=100000,bw=3", "lp:rows=2000,cols=8000,nnzr=60",
                                 "onerow:n=50000,len=50000"};
    static const char *quick[] = {"stencil3d:n=6,pts=27", "fem:n=60,bs=3", "rmat:scale=8,ef=8",
                                  "circuit:n=1500,dense=2", "band:n=2000,bw=3"};
    const char **specs = opt_quick ? quick : full;
    size_t i, n = opt_quick ? sizeof quick / sizeof quick[0] : sizeof full / sizeof full[0];
    for (i = 0; i < n; i++) {
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        if (!wanted(specs[i])) continue;
        st = spmv_gen(specs[i], &t, &e);
        CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        run_all(specs[i], &t, 0);
        spmv_triplets_free(&t);
    }
}

static void real_one(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    if (!gpu_dead) run_all(name, t, 0);
}
static void real_matrices(void) {
#ifdef SPMV_CUDA_EMULATE
    light = 1;
#endif
    th_real_matrices(real_one, NULL, opt_quick ? 5000 : -1);
    light = 0;
}

static void parse_env(void) {
    const char *q = getenv("SPMV_TEST_QUICK"), *tags = getenv("SPMV_TEST_TAGS");
    opt_quick = q && *q && strcmp(q, "0") != 0;
    opt_only = getenv("SPMV_TEST_ONLY");
    if (opt_only && !*opt_only) opt_only = NULL;
    if (tags && *tags) {
        char buf[64], *tok, *save = NULL;
        opt_tags = 0;
        snprintf(buf, sizeof buf, "%s", tags);
        for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            if (!strcmp(tok, "s")) opt_tags |= tag_s::bit();
            else if (!strcmp(tok, "d")) opt_tags |= tag_d::bit();
            else if (!strcmp(tok, "dl")) opt_tags |= tag_dl::bit();
            else if (!strcmp(tok, "sl")) opt_tags |= tag_sl::bit();
            else printf("SPMV_TEST_TAGS: unknown tag '%s' ignored\n", tok);
        }
    }
}

int main(void) {
    int ndev;
    time_t t0;
    parse_env();
    ndev = spmv_cuda_device_count();
    printf("test_cuda_formats: CUDA devices: %d%s\n", ndev, opt_quick ? " (SPMV_TEST_QUICK: small cases only)" : "");
    host_common();
    csr5_host_checks();
    host_tag<tag_s>(ndev > 0);
    host_tag<tag_d>(ndev > 0);
    host_tag<tag_dl>(ndev > 0);
    host_tag<tag_sl>(ndev > 0);
    if (th_cuda_no_device(ndev, "GPU tests not run (every device format x type s/d/dl/sl on edge cases, "
                                "hand-built COO, generator presets and the real matrices)")) {
        if (getenv("SPMV_TEST_HOST_ONLY") && atoi(getenv("SPMV_TEST_HOST_ONLY"))) {
            printf("SPMV_TEST_HOST_ONLY: building every case and running the host conversions only\n");
            opt_host_only = 1;
            edge_cases();
            coo_cases();
            presets();
            real_matrices();
        }
        return check_finish("test_cuda_formats");
    }
    if (opt_tags != 15) check_skip("SPMV_TEST_TAGS=%s: GPU tests of the other tags not run", getenv("SPMV_TEST_TAGS"));
    if (opt_only) check_skip("SPMV_TEST_ONLY=%s: GPU tests of the other matrices not run", opt_only);
    if (getenv("SPMV_TEST_FORMATS") && *getenv("SPMV_TEST_FORMATS"))
        check_skip("SPMV_TEST_FORMATS=%s: GPU tests of the other formats not run", getenv("SPMV_TEST_FORMATS"));
    if (!cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate")) return check_finish("test_cuda_formats");
    t0 = time(NULL);
    edge_cases();
    coo_cases();
    csr5_cases();
    presets();
    real_matrices();
    printf("GPU part: %.0f s\n", difftime(time(NULL), t0));
    if (gpu_dead) check_skip("GPU tests stopped after a sticky CUDA error: the remaining cases were not run");
    else cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy");
    return check_finish("test_cuda_formats");
}
