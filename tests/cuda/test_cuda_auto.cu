/* The device side of automatic format selection (formats/cuda/auto.cuh), tags s
 * (float/int32) and d (double/int32):
 *  - always (no GPU needed): bad options (expected_calls 0, budget -1, NaN, x_changes 2,
 *    threads -1, isa 99, deterministic 2, borrow 2, ...) give SPMV_ERR_ARG with the reason in
 *    rep.why and an empty handle; NULL arguments; a malformed CSR; the verbs on an empty handle;
 *    without a device, SPMV_ERR_NODEVICE with nothing allocated;
 *  - with a device (or the CPU emulation of CUDA): on edge cases (0 rows / 0 columns / no
 *    entries, empty rows, one long row among short ones, a dense row and column, a band, 3x3
 *    blocks, rows of equal length, NaN / Inf in A and in x) and the real matrices of
 *    $SPMV_MATRICES up to SPMV_TEST_MAX_NNZ nonzeros (default 3000): the chosen handle's
 *    product against the long-double reference for (alpha, beta) = (1, 0) with NaN in y and
 *    (2.5, -0.5), in the default mode (timed trials), with x fixed (x_changes 0: the embeds-x
 *    formats become candidates; a second x through _mv), in deterministic mode (two
 *    selections: the same format, bit-identical y, never an atomics format, no trials) and with
 *    budget 1 (CSR, no trials); the report's fields; nothing left on the device after _free;
 *    a symmetric-only candidate (sss) never chosen nor timed on a matrix that is not
 *    symmetric (refused, with that reason, when tried);
 *  - in the emulation: every cudaMalloc of a selection (every candidate tried, sss included:
 *    the matrix is made symmetric) failing in turn, and every host allocation: the status, an
 *    empty handle with the reason in rep.why, nothing leaked on the host or the device.
 * Without a device (nvcc build on a machine without a GPU) the device part is one SKIP. */
#ifndef SPMV_CUDA_MAX_GRID
#define SPMV_CUDA_MAX_GRID 37 /* grid-stride loops really loop on test sizes */
#endif
#include "../harness.h"
#include "spmv_cuda.cuh"
#include "../harness.h"
#include "cuda_harness.h"

static spmv_error g_err; /* the error channel of the last selection (sel) */
#include <float.h>
#include <time.h>
#include <vector>

/* One struct per tag, tests/cuda/test_cuda_auto_case.cuh: the tests below are written once, as
 * templates over it. */
#define TT_TAG s
#define TT_VAL float
#define TT_TOL 1e-5
#include "test_cuda_auto_case.cuh"
#define TT_TAG d
#define TT_VAL double
#define TT_TOL 1e-12
#include "test_cuda_auto_case.cuh"

static cudaStream_t stream; /* a non-default stream for every selection and product */
static int have_dev;

/* the handle is empty: no format, h all zero */
template <class G> static int handle_empty(const typename G::adev *D) {
    return G::fmt(D) == SPMV_FMT_COUNT_ && th_all_zero(&D->h, sizeof D->h);
}
static size_t dev_live(void) {
#ifdef SPMV_CUDA_EMULATE
    return spmv_emu_live_blocks();
#else
    return 0;
#endif
}

/* ---- no device needed --------------------------------------------------------------- */
template <class G> static void host_checks(void) {
    typename G::csr A;
    typename G::adev D;
    spmv_triplets t;
    spmv_status st;
    size_t i;
    const char *tg = G::name();
    typename G::T buf[4] = {0, 0, 0, 0};
    struct bad {
        const char *what;
        void (*set)(spmv_opts *);
    };
    static const bad bads[] = {
        {"expected_calls 0", [](spmv_opts *o) { o->expected_calls = 0; }},
        {"expected_calls NaN", [](spmv_opts *o) { o->expected_calls = NAN; }},
        {"budget -1", [](spmv_opts *o) { o->budget = -1; }},
        {"budget NaN", [](spmv_opts *o) { o->budget = NAN; }},
        {"budget Inf", [](spmv_opts *o) { o->budget = INFINITY; }},
        {"min_seconds -1", [](spmv_opts *o) { o->min_seconds = -1; }},
        {"min_seconds NaN", [](spmv_opts *o) { o->min_seconds = NAN; }},
        {"x_changes 2", [](spmv_opts *o) { o->x_changes = 2; }},
        {"x_changes -1", [](spmv_opts *o) { o->x_changes = -1; }},
        {"threads -1", [](spmv_opts *o) { o->threads = -1; }},
        {"isa 99", [](spmv_opts *o) { o->isa = (spmv_isa)99; }},
        {"deterministic 2", [](spmv_opts *o) { o->deterministic = 2; }},
        {"borrow 2", [](spmv_opts *o) { o->borrow = 2; }},
    };
    th_make_random(&t, 30, 20, 90);
    st = G::from_triplets(&A, &t);
    spmv_triplets_free(&t);
    CHECK(st == SPMV_OK, "%s: host csr: %s", tg, spmv_status_str(st));
    if (st != SPMV_OK) return;
    for (i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        spmv_opts o = spmv_opts_default();
        const long live = th_alloc_live;
        const size_t dl = dev_live();
        bads[i].set(&o);
        memset(&D, 0xab, sizeof D);
        st = G::sel(&D, &A, &o, stream);
        CHECK(st == SPMV_ERR_ARG && handle_empty<G>(&D) && !strncmp(D.rep.why, "bad options: ", 13) &&
                  strlen(D.rep.why) > 16 && th_alloc_live == live && dev_live() == dl && !strcmp(g_err.msg, D.rep.why),
              "%s: option %s: %s, handle %s, why \"%s\"", tg, bads[i].what, spmv_status_str(st),
              handle_empty<G>(&D) ? "empty" : "NOT empty", D.rep.why);
    }
    CHECK(G::sel(NULL, &A, NULL, 0) == SPMV_ERR_ARG, "%s: auto_dev_from_csr(D = NULL)", tg);
    memset(&D, 0xab, sizeof D);
    st = G::sel(&D, NULL, NULL, 0);
    CHECK(st == SPMV_ERR_ARG && handle_empty<G>(&D) && D.rep.why[0], "%s: auto_dev_from_csr(A = NULL): %s", tg,
          spmv_status_str(st));
    { /* a malformed CSR: the shared validator, before anything else */
        const int keep = (int)A.col_idx[0];
        A.col_idx[0] = A.ncols;
        memset(&D, 0xab, sizeof D);
        st = G::sel(&D, &A, NULL, 0);
        A.col_idx[0] = keep;
        CHECK(st == SPMV_ERR_ARG && handle_empty<G>(&D) && strstr(D.rep.why, "malformed"),
              "%s: a malformed CSR: %s (%s)", tg, spmv_status_str(st), D.rep.why);
    }
    /* empty handles */
    memset(&D, 0, sizeof D);
    CHECK(G::fmt(NULL) == SPMV_FMT_COUNT_ && G::fmt(&D) == SPMV_FMT_COUNT_, "%s: auto_dev_format of nothing", tg);
    CHECK(G::mv(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG && G::mv(&D, 1, buf, 0, buf, 0) == SPMV_ERR_ARG,
          "%s: auto_dev_mv on an empty handle", tg);
    CHECK(G::dfree(&D) == SPMV_OK && G::dfree(&D) == SPMV_OK && G::dfree(NULL) == SPMV_OK,
          "%s: auto_dev_free of an empty handle, twice, NULL", tg);
    if (!have_dev) {
        const long live = th_alloc_live;
        memset(&D, 0xab, sizeof D);
        st = G::sel(&D, &A, NULL, 0);
        CHECK(st == SPMV_ERR_NODEVICE && handle_empty<G>(&D) && th_alloc_live == live && strstr(D.rep.why, "no CUDA"),
              "%s: without a device: %s, handle %s, %ld host blocks, why \"%s\"", tg, spmv_status_str(st),
              handle_empty<G>(&D) ? "empty" : "NOT empty", th_alloc_live - live, D.rep.why);
    }
    G::csr_free(&A);
}

/* ---- with a device -------------------------------------------------------------------- */
#define NAB 2
static const double AB[NAB][2] = {{1, 0}, {2.5, -0.5}};

/* One matrix, one tag: host CSR, two x, y0, references ([NAB]: 1 * A * x2), per-row
 * tolerances, device x1, x2 and y. */
template <class G> struct ctx {
    typedef typename G::T T;
    const char *mname;
    typename G::csr A;
    size_t nr, nc;
    std::vector<T> x1, x2, y0, yh, yh2;
    std::vector<double> tol;
    std::vector<long double> ref[NAB + 1], scale[NAB + 1];
    T *xd1, *xd2, *yd;
};
template <class G> static void ctx_free(ctx<G> &c) {
    cudaFree(c.xd1);
    cudaFree(c.xd2);
    cudaFree(c.yd);
    G::csr_free(&c.A);
}
template <class G> static int ctx_init(ctx<G> &c, const char *mname, const spmv_triplets *t, int special) {
    typedef typename G::T T;
    size_t j, r;
    int a, ok;
    const spmv_status st = G::from_triplets(&c.A, t);
    c.mname = mname;
    c.xd1 = c.xd2 = c.yd = NULL;
    CHECK(st == SPMV_OK, "%s [%s]: host csr: %s", G::name(), mname, spmv_status_str(st));
    if (st != SPMV_OK) return 0;
    c.nr = (size_t)c.A.nrows;
    c.nc = (size_t)c.A.ncols;
    c.x1.resize(c.nc + 1);
    c.x2.resize(c.nc + 1);
    c.y0.resize(c.nr + 1);
    c.yh.resize(c.nr + 1);
    c.yh2.resize(c.nr + 1);
    c.tol.resize(c.nr + 1);
    for (j = 0; j < c.nc; j++) c.x1[j] = (T)th_rval(), c.x2[j] = (T)th_rval();
    if (special && c.nc > 2) c.x1[0] = (T)NAN, c.x1[c.nc / 2] = (T)INFINITY;
    for (r = 0; r < c.nr; r++) {
        c.y0[r] = (T)th_rval();
        c.tol[r] = th_row_tol(G::eps(), G::base_tol(), (int64_t)(c.A.row_ptr[r + 1] - c.A.row_ptr[r]));
    }
    for (a = 0; a <= NAB; a++) {
        c.ref[a].resize(c.nr + 1);
        c.scale[a].resize(c.nr + 1);
        if (a < NAB)
            G::ref(&c.A, (T)AB[a][0], c.x1.data(), (T)AB[a][1], AB[a][1] != 0 ? c.y0.data() : NULL, c.ref[a].data(),
                   c.scale[a].data());
        else G::ref(&c.A, (T)1, c.x2.data(), (T)0, NULL, c.ref[a].data(), c.scale[a].data());
    }
    ok = cuda_ok(cudaMalloc((void **)&c.xd1, (c.nc + 1) * sizeof(T)), "cudaMalloc x1") &&
         cuda_ok(cudaMalloc((void **)&c.xd2, (c.nc + 1) * sizeof(T)), "cudaMalloc x2") &&
         cuda_ok(cudaMalloc((void **)&c.yd, (c.nr + 1) * sizeof(T)), "cudaMalloc y") &&
         cuda_ok(cudaMemcpyAsync(c.xd1, c.x1.data(), c.nc * sizeof(T), cudaMemcpyHostToDevice, stream), "upload x1") &&
         cuda_ok(cudaMemcpyAsync(c.xd2, c.x2.data(), c.nc * sizeof(T), cudaMemcpyHostToDevice, stream), "upload x2") &&
         cuda_ok(cudaStreamSynchronize(stream), "sync after the x upload");
    if (!ok) ctx_free(c);
    return ok;
}

/* y := y0 (nan == 0) or NaN, then y = alpha A x + beta y through the handle, downloaded into
 * out. 1 when the product ran. */
template <class G> static int product(ctx<G> &c, const typename G::adev *D, int a, int x2, typename G::T *out,
                                      const char *what) {
    typedef typename G::T T;
    size_t r;
    spmv_status st;
    const int nan = AB[a][1] == 0;
    for (r = 0; r < c.nr; r++) out[r] = nan ? (T)NAN : c.y0[r];
    if (!cuda_ok(cudaMemcpyAsync(c.yd, out, c.nr * sizeof(T), cudaMemcpyHostToDevice, stream), "upload y"))
        return 0;
    st = G::mv(D, (T)AB[a][0], x2 ? c.xd2 : c.xd1, (T)AB[a][1], c.yd, stream);
    CHECK(st == SPMV_OK, "%s: auto_dev_mv: %s (%s)", what, spmv_status_str(st), cudaGetErrorString(spmv_cuda_last_error()));
    if (st != SPMV_OK) return 0;
    return cuda_ok(cudaMemcpyAsync(out, c.yd, c.nr * sizeof(T), cudaMemcpyDeviceToHost, stream), "download y") &&
           cuda_ok(cudaStreamSynchronize(stream), "sync after the product");
}

/* out against reference ri: one CHECK */
template <class G> static void verify(ctx<G> &c, const typename G::T *out, int ri, const char *what) {
    size_t r, bad = 0, wr = 0;
    for (r = 0; r < c.nr; r++)
        if (!th_ref_ok(out[r], c.ref[ri][r], c.scale[ri][r], c.tol[r]) && !bad++) wr = r;
    CHECK(!bad, "%s: %zu of %zu rows wrong; first row %zu: got %.17g, expected %.17Lg", what, bad, c.nr, wr,
          bad ? (double)out[wr] : 0.0, bad ? c.ref[ri][wr] : 0.0L);
}

/* the report of a successful selection */
template <class G> static void check_report(const typename G::adev *D, const typename G::csr *A, int timed,
                                            const char *what) {
    const spmv_auto_report *R = &D->rep;
    const spmv_format f = G::fmt(D);
    int i, ok = f != SPMV_FMT_COUNT_ && (spmv_format_flags(f) & SPMV_FF_CUDA) && R->device == 1 && R->chosen == f &&
                R->chosen_idx >= 0 && R->chosen_idx < R->ncand && R->cand[R->chosen_idx].fmt == f && R->why[0] &&
                R->feat.nnz == (int64_t)A->nnz && R->feat.nrows == (int64_t)A->nrows && R->features_s >= 0 &&
                R->select_s >= R->features_s && R->ncand >= 1 && R->ncand + R->nleft <= SPMV_FMT_COUNT_ + 1;
    const int sym = th_csr_symmetric(A);
    for (i = 0; i < R->ncand; i++) /* every shortlisted row is a device row; tried ones have times */
        ok = ok && (spmv_format_flags(R->cand[i].fmt) & SPMV_FF_CUDA) &&
             (R->cand[i].tried != 1 || (R->cand[i].spmv_s > 0 && R->cand[i].score_s > 0)) &&
             (R->cand[i].tried != 0 || R->cand[i].skip || i == R->chosen_idx || !timed);
    for (i = 0; i < R->ncand && !sym; i++) /* symmetric-only rows: refused here, never timed or chosen */
        if (th_sym(R->cand[i].fmt))
            CHECK(R->cand[i].tried != 1 && i != R->chosen_idx &&
                      (R->cand[i].tried != -1 || (R->cand[i].skip && strstr(R->cand[i].skip, "symmetric"))),
                  "%s: %s on a matrix that is not symmetric: tried %d, skip \"%s\"%s", what,
                  spmv_format_name(R->cand[i].fmt), R->cand[i].tried, R->cand[i].skip ? R->cand[i].skip : "",
                  i == R->chosen_idx ? ", chosen" : "");
    if (timed)
        ok = ok && R->trials >= 1 && R->cand[0].tried == 1 && R->cand[0].fmt == SPMV_FMT_CSR && R->csr_spmv_s > 0 &&
             R->budget_s >= R->opts.min_seconds && R->chosen_spmv_s > 0 && R->select_spmvs > 0 &&
             R->cand[R->chosen_idx].tried == 1;
    else ok = ok && R->trials == 0 && R->budget_s == 0;
    CHECK(ok, "%s: report: chosen %s (idx %d of %d), trials %d, budget_s %g, csr %g s, select %g s = %g SpMVs, why \"%s\"",
          what, f == SPMV_FMT_COUNT_ ? "none" : spmv_format_name(f), R->chosen_idx, R->ncand, R->trials, R->budget_s,
          R->csr_spmv_s, R->select_s, R->select_spmvs, R->why);
}

static int n_selections, n_noncsr;

/* Every mode on one matrix for one tag. */
template <class G> static void run_tag(const char *mname, const spmv_triplets *t, int special) {
    typedef typename G::T T;
    ctx<G> c{};
    typename G::adev D, D2;
    spmv_opts o;
    spmv_status st;
    char what[400];
    size_t live0;
    int a;
    if (gpu_dead || !ctx_init(c, mname, t, special)) return;
    live0 = dev_live(); /* with the context's x1, x2 and y */
    /* default options, then x fixed (x_changes 0: embeds-x formats are candidates) */
    for (int m = 0; m < 2 && !gpu_dead; m++) {
        o = spmv_opts_default();
        if (m == 1) {
            o.x_changes = 0;
            o.expected_calls = 1e6;
        }
        snprintf(what, sizeof what, "%s [%s %zux%zu nnz %lld] %s", G::name(), mname, c.nr, c.nc, (long long)c.A.nnz,
                 m ? "x fixed" : "defaults");
        st = G::sel(&D, &c.A, &o, stream);
        CHECK(st == SPMV_OK, "%s: selection: %s (%s)", what, spmv_status_str(st), D.rep.why);
        if (st != SPMV_OK) continue;
        n_selections++;
        n_noncsr += G::fmt(&D) != SPMV_FMT_CSR;
        snprintf(what + strlen(what), sizeof what - strlen(what), " -> %s", spmv_format_name(G::fmt(&D)));
        check_report<G>(&D, &c.A, c.A.nnz > 0, what);
        for (a = 0; a < NAB; a++)
            if (product<G>(c, &D, a, 0, c.yh.data(), what)) verify<G>(c, c.yh.data(), a, what);
        if (product<G>(c, &D, 0, 1, c.yh.data(), what)) verify<G>(c, c.yh.data(), NAB, what); /* a new x */
        CHECK(G::dfree(&D) == SPMV_OK && handle_empty<G>(&D) && dev_live() == live0, "%s: free: %zu blocks left", what,
              dev_live() - live0);
    }
    /* deterministic: twice, the same format, bit-identical products, no atomics, untimed */
    if (!gpu_dead) {
        o = spmv_opts_default();
        o.deterministic = 1;
        snprintf(what, sizeof what, "%s [%s] deterministic", G::name(), mname);
        st = G::sel(&D, &c.A, &o, stream);
        CHECK(st == SPMV_OK, "%s: selection: %s (%s)", what, spmv_status_str(st), D.rep.why);
        if (st == SPMV_OK) {
            st = G::sel(&D2, &c.A, &o, stream);
            CHECK(st == SPMV_OK, "%s: second selection: %s (%s)", what, spmv_status_str(st), D2.rep.why);
            if (st == SPMV_OK) {
                const spmv_format f = G::fmt(&D);
                snprintf(what + strlen(what), sizeof what - strlen(what), " -> %s", spmv_format_name(f));
                /* csr's split kernel has no atomics (the row's flag is for its merge kernel) */
                const int split = f == SPMV_FMT_CSR && D.h.u.csr.algo == SPMV_CSR_DEV_SPLIT;
                int64_t rmax = 0;
                for (int64_t r = 0; r < (int64_t)c.A.nrows; r++)
                    if ((int64_t)(c.A.row_ptr[r + 1] - c.A.row_ptr[r]) > rmax) rmax = (int64_t)(c.A.row_ptr[r + 1] - c.A.row_ptr[r]);
                const int skewed = c.A.nrows > 0 && (double)rmax > 8.0 * (double)c.A.nnz / (double)c.A.nrows + 100.0;
                CHECK(f == G::fmt(&D2) && (!(spmv_format_flags(f) & SPMV_FF_ATOMICS) || split) && D.rep.trials == 0,
                      "%s: formats %s and %s (atomics flag %u), %d trials", what, spmv_format_name(f),
                      spmv_format_name(G::fmt(&D2)), spmv_format_flags(f) & SPMV_FF_ATOMICS, D.rep.trials);
                /* what the skew cap would refuse is left out with its reason, not tried */
                const int capped = c.A.nrows > 0 && rmax >= SPMV_CUDA_SKEW_MIN_ELL &&
                                   (double)rmax * (double)c.A.nrows > (double)SPMV_CUDA_MAX_SKEW * (double)c.A.nnz;
                if (capped) {
                    int found = 0;
                    for (int q = 0; q < D.rep.nleft; q++)
                        if (D.rep.left[q] == SPMV_FMT_SELL && strstr(D.rep.left_why[q], "skew cap")) found = 1;
                    CHECK(found, "%s: sell left out by the skew cap (longest row %lld)", what, (long long)rmax);
                }
                /* rows far above the mean: not one lane group per row (0.00-0.04x cuSPARSE there) */
                CHECK(!skewed || (f != SPMV_FMT_CSR_VECTOR && f != SPMV_FMT_CSR_SCALAR && (f != SPMV_FMT_CSR || split)),
                      "%s: longest row %lld of mean %.1f: %s chosen", what, (long long)rmax,
                      c.A.nrows ? (double)c.A.nnz / (double)c.A.nrows : 0.0, spmv_format_name(f));
                check_report<G>(&D, &c.A, 0, what);
                for (a = 0; a < NAB; a++)
                    if (product<G>(c, &D, a, 0, c.yh.data(), what) && product<G>(c, &D2, a, 0, c.yh2.data(), what)) {
                        verify<G>(c, c.yh.data(), a, what);
                        CHECK(!memcmp(c.yh.data(), c.yh2.data(), c.nr * sizeof(T)), "%s: the two handles' products differ (alpha %g)",
                              what, AB[a][0]);
                    }
                if (product<G>(c, &D, 0, 0, c.yh2.data(), what)) /* the same handle twice */
                    CHECK(product<G>(c, &D, 0, 0, c.yh.data(), what) && !memcmp(c.yh.data(), c.yh2.data(), c.nr * sizeof(T)),
                          "%s: two products of one handle differ", what);
                G::dfree(&D2);
            }
            G::dfree(&D);
        }
    }
    /* budget 1: CSR without trials */
    if (!gpu_dead) {
        o = spmv_opts_default();
        o.budget = 1;
        snprintf(what, sizeof what, "%s [%s] budget 1", G::name(), mname);
        st = G::sel(&D, &c.A, &o, stream);
        CHECK(st == SPMV_OK && G::fmt(&D) == SPMV_FMT_CSR && D.rep.trials == 0, "%s: %s, %s, %d trials (%s)", what,
              spmv_status_str(st), spmv_format_name(G::fmt(&D)), D.rep.trials, D.rep.why);
        if (st == SPMV_OK) {
            check_report<G>(&D, &c.A, 0, what);
            if (product<G>(c, &D, 1, 0, c.yh.data(), what)) verify<G>(c, c.yh.data(), 1, what);
            G::dfree(&D);
        }
    }
    CHECK(dev_live() == live0, "%s [%s]: %zu device blocks left", G::name(), mname, dev_live() - live0);
    ctx_free(c);
}

static void run_all(const char *mname, const spmv_triplets *t, int special) {
    run_tag<tag_s>(mname, t, special);
    run_tag<tag_d>(mname, t, special);
}

static int64_t len_skew(int64_t r) { return r == 37 ? 600 : r % 5; }
static int64_t len_equal(int64_t r) { return 6 + 0 * r; }

static void edge_cases(void) {
    spmv_triplets t;
    int64_t r, k, p;
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 40, 40, 0); run_all("40x40 no entries", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = 0; t.col[0] = 0; t.val[0] = 3; run_all("1x1", &t, 0); spmv_triplets_free(&t);
    th_make_random(&t, 300, 200, 900); run_all("random 300x200, empty rows", &t, 1); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 400, 700, len_skew); run_all("one long row among short ones", &t, 0); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 500, 500, len_equal); run_all("rows of 6", &t, 0); spmv_triplets_free(&t);
    /* a band of 5 diagonals (the DIA rules) */
    spmv_triplets_alloc(&t, 600, 600, 5 * 600);
    for (r = 0, p = 0; r < 600; r++)
        for (k = -2; k <= 2; k++)
            if (r + k >= 0 && r + k < 600) t.row[p] = r, t.col[p] = r + k, t.val[p++] = th_rval();
    t.nnz = p;
    run_all("band of 5", &t, 0);
    spmv_triplets_free(&t);
    /* 3x3 blocks, 4 block columns per block row (the BCSR rules) */
    spmv_triplets_alloc(&t, 150, 150, 150 * 12);
    for (r = 0, p = 0; r < 150; r++)
        for (k = 0; k < 4; k++) {
            const int64_t bc = ((r / 3) * 7 + k * 11) % 50;
            int64_t q;
            for (q = 0; q < 3; q++) t.row[p] = r, t.col[p] = 3 * bc + q, t.val[p++] = th_rval();
        }
    run_all("3x3 blocks", &t, 0);
    spmv_triplets_free(&t);
    /* a dense row and a dense column, NaN and Inf in A */
    spmv_triplets_alloc(&t, 200, 200, 200 + 199 + 200);
    for (r = 0, p = 0; r < 200; r++) {
        t.row[p] = 5, t.col[p] = r, t.val[p++] = th_rval();
        if (r != 5) t.row[p] = r, t.col[p] = 9, t.val[p++] = th_rval();
        t.row[p] = r, t.col[p] = (r * 13) % 200, t.val[p++] = r == 50 ? NAN : r == 60 ? INFINITY : th_rval();
    }
    t.nnz = p;
    run_all("dense row and column, NaN/Inf in A", &t, 1);
    spmv_triplets_free(&t);
}

static void real_one(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    if (!gpu_dead) run_all(name, t, 0);
}

#ifdef SPMV_CUDA_EMULATE
static int64_t len_small(int64_t r) { return r == 37 ? 50 : r % 5; }

/* Every cudaMalloc (then every host allocation) of a selection failing in turn, in the
 * three paths: all candidates tried (budget without limit, x fixed: the embeds-x formats
 * too), deterministic, and CSR without trials. */
template <class G> static void alloc_failures(void) {
    typename G::csr A;
    typename G::adev D;
    spmv_triplets t;
    spmv_status st;
    int mode;
    th_make_rows_fn(&t, 64, 64, len_small);
    { /* A + A^T: symmetric, so that sss is a candidate too (row and column 37 long) */
        spmv_triplets u;
        st = SPMV_ERR_ALLOC;
        if (th_symmetrize(&t, &u)) {
            st = G::from_triplets(&A, &u);
            spmv_triplets_free(&u);
        }
    }
    spmv_triplets_free(&t);
    CHECK(st == SPMV_OK && th_csr_symmetric(&A), "%s: the allocation failures' symmetric matrix: %s", G::name(),
          spmv_status_str(st));
    if (st != SPMV_OK) return;
    for (mode = 0; mode < 3; mode++) {
        spmv_opts o = spmv_opts_default();
        const char *mn = mode == 0 ? "every candidate" : mode == 1 ? "deterministic" : "budget 0";
        const size_t live0 = dev_live();
        const long hlive0 = th_alloc_live;
        long k, fails = 0, dfails;
        int ok = 0, tried = 0;
        if (mode == 0) o.min_seconds = 1e5, o.expected_calls = 1e12, o.x_changes = 0;
        if (mode == 1) o.deterministic = 1;
        if (mode == 2) o.budget = 0;
        for (k = 0; k < 400; k++) { /* device */
            spmv_emu_fail_malloc_after(k);
            memset(&D, 0xab, sizeof D);
            st = G::sel(&D, &A, &o, 0);
            spmv_emu_fail_malloc_after(-1);
            if (st == SPMV_OK) {
                ok = 1;
                tried = D.rep.trials;
                G::dfree(&D);
                break;
            }
            fails++;
            CHECK(st == SPMV_ERR_CUDA && handle_empty<G>(&D) && dev_live() == live0 && th_alloc_live == hlive0 &&
                      strstr(D.rep.why, "selection failed") && D.rep.device == 1,
                  "%s %s: cudaMalloc %ld failing: %s, handle %s, %zu device / %ld host blocks left, why \"%s\"",
                  G::name(), mn, k + 1, spmv_status_str(st), handle_empty<G>(&D) ? "empty" : "NOT empty",
                  dev_live() - live0, th_alloc_live - hlive0, D.rep.why);
        }
        CHECK(ok && fails >= 1 && (mode != 0 || tried >= 10) && dev_live() == live0,
              "%s %s: %s after %ld device allocation failures (%d timed), %zu blocks left", G::name(), mn,
              ok ? "success" : "no success", fails, tried, dev_live() - live0);
        dfails = fails;
        ok = 0;
        fails = 0;
        for (k = 1; k < 4000; k++) { /* host */
            memset(&D, 0xab, sizeof D);
            th_alloc_count = 0;
            th_alloc_fail_at = k;
            st = G::sel(&D, &A, &o, 0);
            th_alloc_fail_at = -1;
            if (st == SPMV_OK && th_alloc_count < k) {
                ok = 1;
                G::dfree(&D);
                break;
            }
            if (st == SPMV_OK) { /* the failed allocation was not the selection's own (none are optional) */
                CHECK(0, "%s %s: host allocation %ld failing, yet SPMV_OK", G::name(), mn, k);
                G::dfree(&D);
                continue;
            }
            fails++;
            CHECK(st == SPMV_ERR_ALLOC && handle_empty<G>(&D) && dev_live() == live0 && th_alloc_live == hlive0 &&
                      D.rep.why[0],
                  "%s %s: host allocation %ld failing: %s, handle %s, %zu device / %ld host blocks left, why \"%s\"",
                  G::name(), mn, k, spmv_status_str(st), handle_empty<G>(&D) ? "empty" : "NOT empty",
                  dev_live() - live0, th_alloc_live - hlive0, D.rep.why);
        }
        CHECK(ok && fails >= 1, "%s %s: %s after %ld host allocation failures", G::name(), mn,
              ok ? "success" : "no success", fails);
        printf("%s %s: every allocation failing in turn: %ld device, %ld host (%d formats timed)\n", G::name(), mn,
               dfails, fails, tried);
    }
    G::csr_free(&A);
}
#endif

int main(void) {
    int ndev;
    time_t t0;
    ndev = spmv_cuda_device_count();
    have_dev = ndev > 0;
    printf("test_cuda_auto: CUDA devices: %d\n", ndev);
    host_checks<tag_s>();
    host_checks<tag_d>();
    if (th_cuda_no_device(ndev, "device tests of the automatic selection not run (products of the chosen "
                                "format, deterministic mode, budget 1, on edge cases and real matrices, tags s and d)"))
        return check_finish("test_cuda_auto");
    if (!cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate")) return check_finish("test_cuda_auto");
    t0 = time(NULL);
#ifdef SPMV_CUDA_EMULATE
    alloc_failures<tag_s>();
    alloc_failures<tag_d>();
#endif
    edge_cases();
    th_real_matrices(real_one, NULL, 3000);
    printf("selections: %d timed, %d chose a format other than CSR\n", n_selections, n_noncsr);
    printf("device part: %.0f s\n", difftime(time(NULL), t0));
    if (gpu_dead) check_skip("device tests stopped after a sticky CUDA error: the remaining cases were not run");
    else cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy");
    return check_finish("test_cuda_auto");
}
