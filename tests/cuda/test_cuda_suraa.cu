/* SURAA (formats/suraa.h, formats/cuda/suraa.cuh), tags s (float/int32), d (double/int32),
 * dl (double/int64_t) and sl (float/int64_t):
 *  - host layout (no GPU needed): rows sorted by length descending, ties by first column; the
 *    CSR arrays permuted (each sorted row = original row perm[k]); the Freedman-Diaconis
 *    segment size recomputed from its definition; groups and runs (G1 leading segments with
 *    mean npr >= 32 within the child budget, G2 the other long ones, G3 the rest; lanes per
 *    row); round trip to CSR (exact); footprint; allocation failure at every allocation of the
 *    converter and of _to_csr; parameter and argument errors;
 *  - which groups each case must have: long + medium + short rows (G1, G2 and G3 with
 *    child=64; G1 and G3 with the defaults; G2 and G3 with child=0), only short rows (G3
 *    alone), a single huge row (G1 alone, several chunks), one huge row among short rows;
 *  - with a device (or the CPU emulation): every case x parameters x (alpha, beta) against
 *    the long-double reference, NaN in y where beta = 0, a guard zone after y, x never
 *    written; empty matrices and rows, a dense row and column; in the emulation, every device
 *    allocation failing in turn (nothing leaks, handle zeroed) and the host allocations of
 *    the upload failing in turn.
 * Built twice: without SPMV_SURAA_DP (G1 = the grid-wide long-row kernel) and with it (G1 =
 * dynamic parallelism: nvcc -rdc=true, or the emulation's child grids); the DP build also
 * checks that child grids were launched, and with a pending-launch pool of 3 (emulation) that
 * the parent threads' fallback gives the same products.
 * Environment: SPMV_TEST_QUICK=1 (smaller cases). */
#ifndef SPMV_CUDA_MAX_GRID
#define SPMV_CUDA_MAX_GRID 37 /* grid-stride loops really loop on test sizes */
#endif
#define SPMV_FORMATS_ONLY
#define SPMV_WITH_suraa 1
#include "../harness.h"
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv_cuda.cuh"
#define SPMV_TAG sl
#define SPMV_VAL float
#define SPMV_IDX int64_t
#include "spmv_cuda.cuh"
#include "../harness.h"
#include <float.h>
#include <cmath>

/* One struct per tag, tests/cuda/test_cuda_suraa_case.cuh: the tests below are written once, as
 * templates over it. */
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#define TT_TOL 1e-5
#include "test_cuda_suraa_case.cuh"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#define TT_TOL 1e-12
#include "test_cuda_suraa_case.cuh"
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#define TT_TOL 1e-12
#include "test_cuda_suraa_case.cuh"
#define TT_TAG sl
#define TT_VAL float
#define TT_IDX int64_t
#define TT_TOL 1e-5
#include "test_cuda_suraa_case.cuh"

static int opt_quick, have_gpu, gpu_dead;
static cudaStream_t stream;

template <class D> static int is_zero(const D *d) {
    static const unsigned char zero[sizeof(D)] = {0};
    return !memcmp(d, zero, sizeof(D));
}
static int cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return 1;
    CHECK(0, "%s: %s", what, cudaGetErrorString(e));
    (void)cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess) gpu_dead = 1;
    return 0;
}

/* ---- the cases: which groups each must have ------------------------------------------------ */
enum { WANT_ANY = -1 };
struct pcase {
    const char *params; /* "key=value,..." or NULL (defaults) */
    int g1, g2, g3;     /* 1: the group must have rows, 0: must be empty, WANT_ANY */
};
struct mcase {
    const char *name;
    spmv_triplets t;
    int npc;
    pcase pc[4];
};

/* ---- host layout --------------------------------------------------------------------------- */
template <class G> static void check_layout(const char *label, const typename G::csr &A, const typename G::host &H,
                                            const spmv_suraa_params &p) {
    typedef typename G::I I;
    const int64_t m = (int64_t)A.nrows;
    int64_t k, j, bad = 0;
    char *seen = (char *)calloc((size_t)m + 1, 1);
    CHECK(H.nrows == A.nrows && H.ncols == A.ncols && H.nnz == A.nnz && H.row_ptr && seen, "%s: sizes", label);
    if (!(H.nrows == A.nrows && H.row_ptr && seen)) {
        free(seen);
        return;
    }
    CHECK(H.row_ptr[0] == 0 && H.row_ptr[m] == A.nnz, "%s: row_ptr ends", label);
    for (k = 0; k < m; k++) { /* perm a permutation; each sorted row the original row, entry by entry */
        const int64_t r = (int64_t)H.perm[k];
        if (r < 0 || r >= m || seen[r]) {
            bad++;
            continue;
        }
        seen[r] = 1;
        const int64_t n = (int64_t)(H.row_ptr[k + 1] - H.row_ptr[k]);
        if (n != (int64_t)(A.row_ptr[r + 1] - A.row_ptr[r]) ||
            (n > 0 && (memcmp(H.col_idx + H.row_ptr[k], A.col_idx + A.row_ptr[r], (size_t)n * sizeof(I)) ||
                       memcmp(H.val + H.row_ptr[k], A.val + A.row_ptr[r], (size_t)n * sizeof(typename G::T)))))
            bad++;
    }
    CHECK(!bad, "%s: %lld sorted rows are not their original row (or perm is no permutation)", label, (long long)bad);
    for (k = 1, bad = 0; k < m; k++) { /* descending lengths, ties by first column */
        const int64_t a = (int64_t)(H.row_ptr[k] - H.row_ptr[k - 1]), b = (int64_t)(H.row_ptr[k + 1] - H.row_ptr[k]);
        if (a < b) bad++;
        else if (a == b && a > 0 && H.col_idx[H.row_ptr[k - 1]] > H.col_idx[H.row_ptr[k]]) bad++;
    }
    CHECK(!bad, "%s: %lld rows out of order (length descending, ties by first column)", label, (long long)bad);
    CHECK(G::host_bytes(&H) == ((size_t)m + 1) * sizeof(I) + (size_t)A.nnz * (sizeof(I) + sizeof(typename G::T)) +
                                   (size_t)m * sizeof(I),
          "%s: bytes %zu", label, G::host_bytes(&H));
    free(seen);
    if (m == 0) {
        CHECK(H.nrun == 0 && H.nseg == 0, "%s: 0 rows: %d runs, %lld segments", label, H.nrun, (long long)H.nseg);
        return;
    }
    { /* the segment size from its definition */
        const int64_t q3 = (int64_t)(H.row_ptr[m / 4 + 1] - H.row_ptr[m / 4]);
        const int64_t q1 = (int64_t)(H.row_ptr[3 * m / 4 + 1] - H.row_ptr[3 * m / 4]);
        const int64_t mx = (int64_t)(H.row_ptr[1] - H.row_ptr[0]), mn = (int64_t)(H.row_ptr[m] - H.row_ptr[m - 1]);
        const double h = 2.0 * (double)(q3 - q1) / cbrt((double)m), hw = h < 1 ? 1 : h;
        const double bins = floor((double)(mx - mn) / hw) + 1;
        int64_t want = (int64_t)ceil((double)m / bins);
        if (want < 32) want = 32;
        if (want > m) want = m;
        if (p.seg > 0) want = p.seg < m ? p.seg : m;
        CHECK((int64_t)H.seg_rows == want && (int64_t)H.nseg == (m + want - 1) / want && fabs(H.fd_width - h) < 1e-9,
              "%s: segment rows %lld (expected %lld), %lld segments, FD width %g (expected %g)", label,
              (long long)H.seg_rows, (long long)want, (long long)H.nseg, H.fd_width, h);
    }
    { /* runs cover the rows in order; groups 1, 2, 3 in that order; each segment where its mean says */
        int i, ok = H.nrun >= 1 && H.nrun <= SPMV_SURAA_MAX_RUNS && H.run_row[0] == 0 && H.run_row[H.nrun] == m;
        int64_t g1 = 0, g2 = 0;
        for (i = 0; ok && i < H.nrun; i++) {
            const int gr = H.run_group[i], L = H.run_lanes[i];
            ok = H.run_row[i] < H.run_row[i + 1] && gr >= 1 && gr <= 3 && (i == 0 || gr >= H.run_group[i - 1]) &&
                 (gr == 1 ? L == 0 : gr == 2 ? (L >= 32 && L <= 1024 && !(L & (L - 1))) : (L >= 1 && L <= 16 && !(L & (L - 1)))) &&
                 (int64_t)H.run_row[i] % H.seg_rows == 0 && (p.t3 == 0 || gr != 3 || L == p.t3);
            if (gr == 1) g1 = (int64_t)H.run_row[i + 1];
            if (gr <= 2) g2 = (int64_t)H.run_row[i + 1];
        }
        CHECK(ok && g1 == (int64_t)H.g1_end && g2 == (int64_t)H.g2_end && g1 <= p.child,
              "%s: runs (%d) do not match the groups (g1 %lld/%lld, g2 %lld/%lld, child %d)", label, H.nrun,
              (long long)g1, (long long)H.g1_end, (long long)g2, (long long)H.g2_end, p.child);
        for (j = 0, bad = 0; j < (int64_t)H.nseg; j++) {
            const int64_t r0 = j * H.seg_rows, r1 = r0 + H.seg_rows < m ? r0 + H.seg_rows : m;
            const double mean = (double)(H.row_ptr[r1] - H.row_ptr[r0]) / (double)(r1 - r0);
            const int64_t longest = (int64_t)(H.row_ptr[r0 + 1] - H.row_ptr[r0]);
            const int gr = r0 < (int64_t)H.g1_end ? 1 : r0 < (int64_t)H.g2_end ? 2 : 3;
            if ((gr <= 2) != (mean >= 32)) bad++;
            for (i = 0; i < H.nrun; i++) /* the segment's lanes */
                if (H.run_row[i] <= r0 && r0 < H.run_row[i + 1]) {
                    int want = gr == 1 ? 0 : gr == 2 ? spmv_suraa_g2_lanes(mean, longest) : p.t3 ? p.t3 : spmv_suraa_g3_lanes(mean, longest);
                    if (H.run_lanes[i] != want || H.run_row[i + 1] < r1) bad++;
                }
        }
        /* G1 is the longest prefix of long segments within the budget */
        if (H.g1_end < H.g2_end) {
            const int64_t r0 = (int64_t)H.g1_end, r1 = r0 + H.seg_rows < m ? r0 + H.seg_rows : m;
            if ((int64_t)H.g1_end + (r1 - r0) <= p.child) bad++;
        }
        CHECK(!bad, "%s: %lld segments in the wrong group or with the wrong lanes", label, (long long)bad);
    }
}

template <class G> static void host_case(const mcase &mc) {
    typename G::csr A, B;
    typename G::host H;
    spmv_status st;
    int i;
    if (G::from_triplets(&A, &mc.t) != SPMV_OK) {
        CHECK(0, "%s [%s]: host csr", G::name(), mc.name);
        return;
    }
    for (i = 0; i < mc.npc; i++) {
        spmv_suraa_params p = spmv_suraa_params_default();
        spmv_error e;
        char label[256];
        snprintf(label, sizeof label, "%s suraa(%s) [%s]", G::name(), mc.pc[i].params ? mc.pc[i].params : "defaults",
                 mc.name);
        st = spmv_suraa_params_parse(mc.pc[i].params, &p, &e);
        CHECK(st == SPMV_OK, "%s: params: %s", label, e.msg);
        st = G::from_csr(&H, &A, &p);
        CHECK(st == SPMV_OK, "%s: conversion: %s", label, spmv_status_str(st));
        if (st != SPMV_OK) continue;
        check_layout<G>(label, A, H, p);
        {
            const int has1 = H.g1_end > 0, has2 = H.g2_end > H.g1_end, has3 = H.nrows > H.g2_end;
            const pcase &w = mc.pc[i];
            CHECK((w.g1 == WANT_ANY || w.g1 == has1) && (w.g2 == WANT_ANY || w.g2 == has2) &&
                      (w.g3 == WANT_ANY || w.g3 == has3),
                  "%s: groups G1 %lld rows, G2 %lld, G3 %lld (expected %s%s%s)", label, (long long)H.g1_end,
                  (long long)(H.g2_end - H.g1_end), (long long)(H.nrows - H.g2_end),
                  w.g1 == 1 ? "G1 " : w.g1 == 0 ? "no G1 " : "", w.g2 == 1 ? "G2 " : w.g2 == 0 ? "no G2 " : "",
                  w.g3 == 1 ? "G3" : w.g3 == 0 ? "no G3" : "");
        }
        st = G::to_csr(&H, &B); /* round trip: exactly A */
        CHECK(st == SPMV_OK && B.nrows == A.nrows && B.ncols == A.ncols && B.nnz == A.nnz &&
                  !memcmp(B.row_ptr, A.row_ptr, ((size_t)A.nrows + 1) * sizeof(typename G::I)) &&
                  (A.nnz == 0 || (!memcmp(B.col_idx, A.col_idx, (size_t)A.nnz * sizeof(typename G::I)) &&
                                  !memcmp(B.val, A.val, (size_t)A.nnz * sizeof(typename G::T)))),
              "%s: round trip to CSR: %s", label, spmv_status_str(st));
        if (st == SPMV_OK) G::csr_free(&B);
        G::host_free(&H);
    }
    G::csr_free(&A);
}

/* allocation failure at every allocation: the converter, _to_csr, the upload's host part */
template <class G> struct conv_in {
    const typename G::csr *A;
    const typename G::host *H;
};
template <class G> static spmv_status conv_from(void *out, const void *in) {
    return G::from_csr((typename G::host *)out, ((const conv_in<G> *)in)->A, NULL);
}
template <class G> static spmv_status conv_to(void *out, const void *in) {
    return G::to_csr(((const conv_in<G> *)in)->H, (typename G::csr *)out);
}
template <class G> static void release_host(void *p) { G::host_free((typename G::host *)p); }
template <class G> static void release_csr(void *p) { G::csr_free((typename G::csr *)p); }
template <class G> static void alloc_sweeps(const mcase &mc) {
    typename G::csr A, B;
    typename G::host H;
    conv_in<G> in;
    char name[160];
    if (G::from_triplets(&A, &mc.t) != SPMV_OK) return;
    in.A = &A;
    in.H = NULL;
    snprintf(name, sizeof name, "%s suraa_from_csr [%s]", G::name(), mc.name);
    th_alloc_sweep(name, conv_from<G>, &in, &H, sizeof H, release_host<G>);
    if (G::from_csr(&H, &A, NULL) == SPMV_OK) {
        in.H = &H;
        snprintf(name, sizeof name, "%s suraa_to_csr [%s]", G::name(), mc.name);
        th_alloc_sweep(name, conv_to<G>, &in, &B, sizeof B, release_csr<G>);
        G::host_free(&H);
    }
    G::csr_free(&A);
}

/* arguments and parameters (no device needed: all refused before any CUDA call) */
template <class G> static void host_args(void) {
    typename G::csr A;
    typename G::host H;
    typename G::dev D;
    spmv_triplets t;
    spmv_status st;
    spmv_suraa_params p;
    typename G::T buf[4] = {0, 0, 0, 0};
    static const int bad[][3] = {{-1, 0, 0}, {(1 << 20) + 1, 0, 0}, {2048, -1, 0}, {2048, 0, 3}, {2048, 0, 32}, {2048, 0, -2}};
    size_t i;
    spmv_triplets_alloc(&t, 3, 4, 3);
    t.row[0] = 0; t.col[0] = 1; t.val[0] = 1;
    t.row[1] = 2; t.col[1] = 0; t.val[1] = 2;
    t.row[2] = 2; t.col[2] = 3; t.val[2] = 3;
    st = G::from_triplets(&A, &t);
    spmv_triplets_free(&t);
    if (st != SPMV_OK) return;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        p = spmv_suraa_params_default();
        p.child = bad[i][0];
        p.seg = bad[i][1];
        p.t3 = bad[i][2];
        memset(&H, 0xab, sizeof H);
        st = G::from_csr(&H, &A, &p);
        CHECK(st == SPMV_ERR_ARG && is_zero(&H), "%s: child=%d seg=%d t3=%d must be SPMV_ERR_ARG: %s", G::name(),
              p.child, p.seg, p.t3, spmv_status_str(st));
        memset(&D, 0xab, sizeof D);
        st = G::dev_from_csr(&D, &A, &p, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: device child=%d seg=%d t3=%d must be SPMV_ERR_ARG: %s", G::name(),
              p.child, p.seg, p.t3, spmv_status_str(st));
    }
    { /* malformed CSR: the shared validator, before any CUDA call */
        typename G::I keep = A.col_idx[0];
        A.col_idx[0] = A.ncols;
        memset(&D, 0xab, sizeof D);
        st = G::dev_from_csr(&D, &A, NULL, 0);
        CHECK(st == SPMV_ERR_ARG && is_zero(&D), "%s: malformed CSR: %s", G::name(), spmv_status_str(st));
        memset(&H, 0xab, sizeof H);
        st = G::from_csr(&H, &A, NULL);
        CHECK(st == SPMV_ERR_ARG && is_zero(&H), "%s: host, malformed CSR: %s", G::name(), spmv_status_str(st));
        A.col_idx[0] = keep;
    }
    CHECK(G::from_csr(NULL, &A, NULL) == SPMV_ERR_ARG, "%s: from_csr(NULL)", G::name());
    memset(&H, 0xab, sizeof H);
    CHECK(G::from_csr(&H, NULL, NULL) == SPMV_ERR_ARG && is_zero(&H), "%s: from_csr(A=NULL)", G::name());
    {
        typename G::csr B;
        memset(&B, 0xab, sizeof B);
        CHECK(G::to_csr(NULL, &B) == SPMV_ERR_ARG && is_zero(&B), "%s: to_csr(NULL)", G::name());
    }
    CHECK(G::dev_mv(NULL, 1, buf, 0, buf, 0) == SPMV_ERR_ARG, "%s: dev_mv(NULL)", G::name());
    memset(&D, 0xab, sizeof D);
    CHECK(G::to_device(&D, NULL, 0) == SPMV_ERR_ARG && is_zero(&D), "%s: to_device(H=NULL)", G::name());
    memset(&D, 0, sizeof D);
    CHECK(G::dev_mv(&D, 1, NULL, 0, NULL, 0) == SPMV_OK, "%s: dev_mv on a zeroed object (0 rows)", G::name());
    CHECK(G::dev_free(&D) == SPMV_OK && is_zero(&D) && G::dev_free(&D) == SPMV_OK, "%s: dev_free zeroed, twice",
          G::name());
    spmv_format g = SPMV_FMT_COUNT_;
    CHECK(spmv_format_parse("suraa", &g) == SPMV_OK && g == SPMV_FMT_SURAA &&
              spmv_format_flags(SPMV_FMT_SURAA) == (unsigned)(SPMV_FF_CUDA | SPMV_FF_ATOMICS),
          "suraa: registry flags %u (expected cuda and atomics only)", spmv_format_flags(SPMV_FMT_SURAA));
    G::csr_free(&A);
}

/* ---- device products ------------------------------------------------------------------------ */
#define GUARD 16
#define SENTINEL 12345.0
#define NAB 4
static const double AB[NAB][3] = {{1, 0, 1}, {2.5, -0.5, 0}, {-1, 1, 0}, {-3, 0, 1}};

template <class G> struct refs {
    typedef typename G::T T;
    size_t nr, nc;
    T *x, *y0, *yh, *xd, *yd;
    long double *ref[NAB], *sc[NAB];
    double *tol;
};
template <class G> static void refs_free(refs<G> &R) {
    int a;
    free(R.x); free(R.y0); free(R.yh); free(R.tol);
    for (a = 0; a < NAB; a++) { free(R.ref[a]); free(R.sc[a]); }
    if (R.xd) cudaFree(R.xd);
    if (R.yd) cudaFree(R.yd);
    memset(&R, 0, sizeof R);
}
template <class G> static int refs_init(refs<G> &R, const typename G::csr &A) {
    typedef typename G::T T;
    size_t i;
    int a, ok;
    memset(&R, 0, sizeof R);
    R.nr = (size_t)A.nrows;
    R.nc = (size_t)A.ncols;
    R.x = (T *)malloc((R.nc + 1) * sizeof(T));
    R.y0 = (T *)malloc((R.nr + 1) * sizeof(T));
    R.yh = (T *)malloc((R.nr + GUARD) * sizeof(T));
    R.tol = (double *)malloc((R.nr + 1) * sizeof(double));
    ok = R.x && R.y0 && R.yh && R.tol;
    for (a = 0; a < NAB; a++) {
        R.ref[a] = (long double *)malloc((R.nr + 1) * sizeof(long double));
        R.sc[a] = (long double *)malloc((R.nr + 1) * sizeof(long double));
        ok = ok && R.ref[a] && R.sc[a];
    }
    if (!ok) abort();
    for (i = 0; i < R.nc; i++) R.x[i] = (T)th_rval();
    for (i = 0; i < R.nr; i++) {
        const double n = (double)(A.row_ptr[i + 1] - A.row_ptr[i]);
        R.y0[i] = (T)th_rval();
        R.tol[i] = 8 * G::eps() * sqrt(n + 1);
        if (R.tol[i] < G::base_tol()) R.tol[i] = G::base_tol();
    }
    for (a = 0; a < NAB; a++) G::ref(&A, (T)AB[a][0], R.x, (T)AB[a][1], AB[a][1] != 0 ? R.y0 : NULL, R.ref[a], R.sc[a]);
    if (!have_gpu) return 1;
    return cuda_ok(cudaMalloc((void **)&R.xd, (R.nc + 1) * sizeof(T)), "cudaMalloc x") &&
           cuda_ok(cudaMalloc((void **)&R.yd, (R.nr + GUARD) * sizeof(T)), "cudaMalloc y") &&
           cuda_ok(cudaMemcpy(R.xd, R.x, R.nc * sizeof(T), cudaMemcpyHostToDevice), "upload x");
}

template <class G> static void run_products(refs<G> &R, const typename G::dev &D, const char *label) {
    typedef typename G::T T;
    int a;
    size_t r, bad, gbad;
    for (a = 0; a < NAB && !gpu_dead; a++) {
        spmv_status st;
        for (r = 0; r < R.nr + GUARD; r++) R.yh[r] = r >= R.nr ? (T)SENTINEL : AB[a][2] ? (T)NAN : R.y0[r];
        if (!cuda_ok(cudaMemcpy(R.yd, R.yh, (R.nr + GUARD) * sizeof(T), cudaMemcpyHostToDevice), "upload y")) return;
        st = G::dev_mv(&D, (T)AB[a][0], R.xd, (T)AB[a][1], R.yd, stream);
        CHECK(st == SPMV_OK, "%s: mv alpha=%g beta=%g: %s", label, AB[a][0], AB[a][1], spmv_status_str(st));
        if (!cuda_ok(cudaStreamSynchronize(stream), "sync after mv")) return;
        if (!cuda_ok(cudaMemcpy(R.yh, R.yd, (R.nr + GUARD) * sizeof(T), cudaMemcpyDeviceToHost), "download y")) return;
        for (r = 0, bad = 0, gbad = 0; r < R.nr; r++) {
            const long double rf = R.ref[a][r], v = (long double)R.yh[r];
            int ok;
            if (std::isnan(rf)) ok = std::isnan(v);
            else if (std::isinf(rf)) ok = v == rf;
            else ok = std::isfinite(v) && fabsl(v - rf) <= (long double)R.tol[r] * R.sc[a][r];
            if (!ok) {
                if (!bad)
                    printf("  row %zu: got %.17Lg expected %.17Lg (scale %.3Lg)\n", r, v, rf, R.sc[a][r]);
                bad++;
            }
        }
        for (r = R.nr; r < R.nr + GUARD; r++)
            if (!(R.yh[r] == (T)SENTINEL)) gbad++;
        CHECK(!bad && !gbad, "%s: mv alpha=%g beta=%g%s: %zu of %zu rows wrong, %zu guard entries written", label,
              AB[a][0], AB[a][1], AB[a][2] ? " (NaN in y)" : "", bad, R.nr, gbad);
    }
}

template <class G> static void device_case(const mcase &mc) {
    typedef typename G::T T;
    typename G::csr A;
    refs<G> R;
    int i;
    if (gpu_dead || G::from_triplets(&A, &mc.t) != SPMV_OK) return;
    if (!refs_init(R, A)) {
        refs_free(R);
        G::csr_free(&A);
        return;
    }
    for (i = 0; i < mc.npc && !gpu_dead; i++) {
        typename G::dev D;
        spmv_suraa_params p = spmv_suraa_params_default();
        spmv_status st;
        char label[300], pb[160];
#ifdef SPMV_CUDA_EMULATE
        const unsigned long long launches0 = spmv_emu_child_launches();
        const size_t live0 = spmv_emu_live_blocks();
#endif
        (void)spmv_suraa_params_parse(mc.pc[i].params, &p, NULL);
        st = G::dev_from_csr(&D, &A, &p, stream);
        snprintf(label, sizeof label, "%s suraa_dev(%s) [%s]", G::name(), mc.pc[i].params ? mc.pc[i].params : "defaults",
                 mc.name);
        if (!have_gpu) { /* without a device: the upload fails cleanly */
            CHECK((st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA) && is_zero(&D), "%s: upload without a device: %s",
                  label, spmv_status_str(st));
            continue;
        }
        CHECK(st == SPMV_OK, "%s: upload: %s", label, spmv_status_str(st));
        if (st != SPMV_OK) continue;
        G::dev_params(&D, pb, sizeof pb);
        snprintf(label, sizeof label, "%s suraa_dev(%s -> %s) [%s]", G::name(),
                 mc.pc[i].params ? mc.pc[i].params : "defaults", pb, mc.name);
        {
            typename G::host H;
            if (G::from_csr(&H, &A, &p) == SPMV_OK) {
                const size_t hb = G::host_bytes(&H), cp = SPMV_SURAA_HAS_DP || !H.g1_end ? 0 : ((size_t)H.g1_end + 1) * 8;
                CHECK(G::dev_bytes(&D) == hb + cp && D.g1_end == H.g1_end && D.g2_end == H.g2_end && D.nrun == H.nrun,
                      "%s: device bytes %zu (host %zu + %zu), groups %lld/%lld", label, G::dev_bytes(&D), hb, cp,
                      (long long)D.g1_end, (long long)D.g2_end);
                G::host_free(&H);
            }
        }
        run_products<G>(R, D, label);
#if defined(SPMV_CUDA_EMULATE) && SPMV_SURAA_HAS_DP
        { /* child grids: one per G1 row longer than SPMV_SURAA_SERIAL, 4 products */
            unsigned long long want = 0;
            int64_t r;
            typename G::host H;
            if (G::from_csr(&H, &A, &p) == SPMV_OK) {
                for (r = 0; r < (int64_t)H.g1_end; r++)
                    if (H.row_ptr[r + 1] - H.row_ptr[r] > SPMV_SURAA_SERIAL) want++;
                G::host_free(&H);
            }
            CHECK(spmv_emu_child_launches() - launches0 == want * NAB, "%s: %llu child grids launched (expected %llu)",
                  label, spmv_emu_child_launches() - launches0, want * NAB);
        }
        if (D.g1_end > 0) { /* a pending-launch pool of 3: the parent threads do the other rows */
            snprintf(label + strlen(label), sizeof label - strlen(label), " pending-launch pool 3");
            spmv_emu_set_pending_limit(3);
            run_products<G>(R, D, label);
            spmv_emu_set_pending_limit(2048);
        }
#elif defined(SPMV_CUDA_EMULATE)
        CHECK(spmv_emu_child_launches() == launches0, "%s: child grids launched without SPMV_SURAA_DP", label);
#endif
        { /* x is never written */
            T *xb = (T *)malloc((R.nc + 1) * sizeof(T));
            CHECK(xb && cuda_ok(cudaMemcpy(xb, R.xd, R.nc * sizeof(T), cudaMemcpyDeviceToHost), "download x") &&
                      !memcmp(xb, R.x, R.nc * sizeof(T)),
                  "%s: x changed", label);
            free(xb);
        }
        st = G::dev_free(&D);
        CHECK(st == SPMV_OK && is_zero(&D), "%s: free: %s", label, spmv_status_str(st));
#ifdef SPMV_CUDA_EMULATE
        CHECK(spmv_emu_live_blocks() == live0, "%s: %zu device blocks leaked", label, spmv_emu_live_blocks() - live0);
#endif
    }
    refs_free(R);
    G::csr_free(&A);
}

#ifdef SPMV_CUDA_EMULATE
/* every device allocation of the upload failing in turn, then the host ones */
template <class G> static void device_alloc_failures(const mcase &mc) {
    typename G::csr A;
    typename G::dev D;
    spmv_status st;
    long k;
    int ok = 0;
    if (G::from_triplets(&A, &mc.t) != SPMV_OK) return;
    for (k = 0; k < 64 && !ok; k++) {
        const size_t live0 = spmv_emu_live_blocks();
        memset(&D, 0xab, sizeof D);
        spmv_emu_fail_malloc_after(k);
        st = G::dev_from_csr(&D, &A, NULL, stream);
        spmv_emu_fail_malloc_after(-1);
        if (st == SPMV_OK) {
            ok = 1;
            CHECK(G::dev_free(&D) == SPMV_OK && spmv_emu_live_blocks() == live0, "%s [%s]: free after success",
                  G::name(), mc.name);
            break;
        }
        CHECK(st == SPMV_ERR_CUDA && is_zero(&D) && spmv_emu_live_blocks() == live0 &&
                  spmv_cuda_last_error() == cudaErrorMemoryAllocation,
              "%s [%s]: cudaMalloc %ld failing: %s, handle %s, %zu blocks leaked", G::name(), mc.name, k,
              spmv_status_str(st), is_zero(&D) ? "zeroed" : "NOT zeroed", spmv_emu_live_blocks() - live0);
    }
    CHECK(ok && k >= 4, "%s [%s]: upload never succeeded (or made %ld device allocations)", G::name(), mc.name, k);
    for (k = 1, ok = 0; k < 64 && !ok; k++) { /* host allocations (the layout, the chunk prefix) */
        const long live = th_alloc_live;
        memset(&D, 0xab, sizeof D);
        th_alloc_count = 0;
        th_alloc_fail_at = k;
        st = G::dev_from_csr(&D, &A, NULL, stream);
        th_alloc_fail_at = -1;
        if (st == SPMV_OK) {
            ok = 1;
            G::dev_free(&D);
            break;
        }
        CHECK(st == SPMV_ERR_ALLOC && is_zero(&D) && th_alloc_live == live, "%s [%s]: host allocation %ld failing: %s",
              G::name(), mc.name, k, spmv_status_str(st));
    }
    CHECK(ok, "%s [%s]: upload never succeeded under host allocation failures", G::name(), mc.name);
    G::csr_free(&A);
}
#endif

/* ---- the matrices ---------------------------------------------------------------------------- */
static int64_t *lens;
static void make_lens(spmv_triplets *t, int64_t nr, int64_t nc) { th_make_rows(t, nr, nc, lens); }
static int64_t rnd(int64_t lo, int64_t hi) { return lo + (int64_t)(th_rnd() % (uint64_t)(hi - lo + 1)); }

static int build_cases(mcase *mc) {
    int n = 0;
    int64_t r, nr;
    const int q = opt_quick;
    /* long, medium and short rows, shuffled */
    nr = q ? 1200 : 3000;
    lens = (int64_t *)malloc((size_t)nr * sizeof(int64_t));
    for (r = 0; r < nr; r++) lens[r] = r % 150 == 7 ? rnd(2100, q ? 4500 : 9000) : r % 5 == 1 ? rnd(40, 160) : rnd(0, 8);
    mc[n].name = "long, medium and short rows";
    make_lens(&mc[n].t, nr, 12000);
    mc[n].npc = 4;
    mc[n].pc[0] = {"child=64", 1, 1, 1};
    mc[n].pc[1] = {NULL, 1, 0, 1};
    mc[n].pc[2] = {"child=0", 0, 1, 1};
    mc[n].pc[3] = {"seg=40,t3=1", 1, WANT_ANY, 1};
    n++;
    free(lens);
    /* only short rows */
    nr = q ? 1500 : 4000;
    lens = (int64_t *)malloc((size_t)nr * sizeof(int64_t));
    for (r = 0; r < nr; r++) lens[r] = rnd(0, 24);
    mc[n].name = "only short rows";
    make_lens(&mc[n].t, nr, nr);
    mc[n].npc = 2;
    mc[n].pc[0] = {NULL, 0, 0, 1};
    mc[n].pc[1] = {"t3=8", 0, 0, 1};
    n++;
    free(lens);
    /* a single huge row */
    lens = (int64_t *)malloc(sizeof(int64_t));
    lens[0] = q ? 9000 : 40000;
    mc[n].name = "a single huge row";
    make_lens(&mc[n].t, 1, lens[0] + 100);
    mc[n].npc = 2;
    mc[n].pc[0] = {NULL, 1, 0, 0};
    mc[n].pc[1] = {"child=0", 0, 1, 0};
    n++;
    free(lens);
    /* one huge row among short rows */
    nr = q ? 800 : 2000;
    lens = (int64_t *)malloc((size_t)nr * sizeof(int64_t));
    for (r = 0; r < nr; r++) lens[r] = r == nr / 3 ? (q ? 7000 : 30000) : rnd(0, 5);
    mc[n].name = "one huge row among short rows";
    make_lens(&mc[n].t, nr, 40000);
    mc[n].npc = 1;
    mc[n].pc[0] = {NULL, 1, 0, 1};
    n++;
    free(lens);
    /* a dense row and a dense column, empty rows */
    nr = q ? 500 : 1500;
    spmv_triplets_alloc(&mc[n].t, nr, nr, 2 * nr);
    for (r = 0; r < nr; r++) {
        mc[n].t.row[r] = 11; mc[n].t.col[r] = r; mc[n].t.val[r] = th_rval();
        mc[n].t.row[nr + r] = (r * 7) % nr; mc[n].t.col[nr + r] = 5; mc[n].t.val[nr + r] = th_rval();
    }
    mc[n].name = "dense row 11, dense column 5";
    mc[n].npc = 2;
    mc[n].pc[0] = {NULL, WANT_ANY, 0, 1}; /* quick: the dense row's segment has a mean < 32 (G3, 16 lanes) */
    mc[n].pc[1] = {"seg=1", 1, 0, 1};
    n++;
    /* empty shapes */
    spmv_triplets_alloc(&mc[n].t, 0, 0, 0);
    mc[n].name = "0x0";
    mc[n].npc = 1;
    mc[n].pc[0] = {NULL, 0, 0, 0};
    n++;
    spmv_triplets_alloc(&mc[n].t, 7, 0, 0);
    mc[n].name = "7x0";
    mc[n].npc = 1;
    mc[n].pc[0] = {NULL, 0, 0, 1};
    n++;
    spmv_triplets_alloc(&mc[n].t, 100, 100, 0);
    mc[n].name = "100x100 all rows empty";
    mc[n].npc = 1;
    mc[n].pc[0] = {NULL, 0, 0, 1};
    n++;
    { /* presets: circuit and power-law rows with huge rows */
        spmv_error e;
        if (spmv_gen(q ? "circuit:n=3000,dense=2" : "circuit:n=20000,dense=2", &mc[n].t, &e) == SPMV_OK) {
            mc[n].name = "circuit preset";
            mc[n].npc = 1;
            mc[n].pc[0] = {NULL, 1, WANT_ANY, 1};
            n++;
        }
        if (spmv_gen(q ? "rmat:scale=10,ef=8" : "rmat:scale=13,ef=8", &mc[n].t, &e) == SPMV_OK) {
            mc[n].name = "rmat preset";
            mc[n].npc = 1;
            mc[n].pc[0] = {NULL, WANT_ANY, WANT_ANY, 1};
            n++;
        }
    }
    return n;
}

int main(void) {
    static mcase mc[16];
    int n, i;
    const char *qs = getenv("SPMV_TEST_QUICK");
    opt_quick = qs && *qs && strcmp(qs, "0") != 0;
    have_gpu = spmv_cuda_device_count() > 0;
    printf("test_cuda_suraa: %s, G1 by %s%s\n", have_gpu ? "device present" : "no CUDA device",
           SPMV_SURAA_HAS_DP ? "dynamic parallelism (SPMV_SURAA_DP)" : "the grid-wide long-row kernel",
           opt_quick ? " (SPMV_TEST_QUICK)" : "");
#ifdef SPMV_CUDA_EMULATE
    printf("device: CPU emulation (tests/emu/cuda_emu.h)\n");
#endif
    n = build_cases(mc);
    host_args<tag_s>();
    host_args<tag_d>();
    host_args<tag_dl>();
    host_args<tag_sl>();
    for (i = 0; i < n; i++) {
        printf("case %s: %lld x %lld, %lld entries\n", mc[i].name, (long long)mc[i].t.nrows, (long long)mc[i].t.ncols,
               (long long)mc[i].t.nnz);
        fflush(stdout);
        host_case<tag_s>(mc[i]);
        host_case<tag_d>(mc[i]);
        host_case<tag_dl>(mc[i]);
        host_case<tag_sl>(mc[i]);
    }
    alloc_sweeps<tag_d>(mc[0]);
    alloc_sweeps<tag_sl>(mc[4]);
    if (!have_gpu) {
        CHECK(!th_gpu_listed(), "nvidia-smi lists a GPU but CUDA sees none: the GPU tests cannot run");
        check_skip("no CUDA device: the SURAA products were not run (%s build)",
                   SPMV_SURAA_HAS_DP ? "dynamic-parallelism" : "grid-wide");
    } else if (cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate")) {
#ifdef SPMV_CUDA_EMULATE
        device_alloc_failures<tag_d>(mc[0]);
        device_alloc_failures<tag_sl>(mc[2]);
#endif
        for (i = 0; i < n && !gpu_dead; i++) {
            printf("products %s\n", mc[i].name);
            fflush(stdout);
            device_case<tag_s>(mc[i]);
            device_case<tag_d>(mc[i]);
            device_case<tag_dl>(mc[i]);
            device_case<tag_sl>(mc[i]);
        }
        if (!gpu_dead) cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy");
    }
    if (!have_gpu) /* the uploads fail cleanly */
        for (i = 0; i < n; i++) device_case<tag_d>(mc[i]);
    for (i = 0; i < n; i++) spmv_triplets_free(&mc[i].t);
    return check_finish(SPMV_SURAA_HAS_DP ? "test_cuda_suraa_dp" : "test_cuda_suraa");
}
