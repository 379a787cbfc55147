/* CUDA CSR (spmv_cuda.cuh, formats/cuda/csr.cuh) for tags s, d and a user-instantiated
 * dl = double/int64_t.
 *  - Always (no GPU needed): status conversion, launch geometry, threads-per-row choice,
 *    argument checks that return before any CUDA call, freeing an empty handle, and,
 *    without a device, that _csr_to_device fails cleanly (SPMV_ERR_NODEVICE or
 *    SPMV_ERR_CUDA, *D zeroed).
 *  - With a GPU: scalar and vector kernels (every threads-per-row) on edge cases and
 *    generator presets against the long-double host reference spmv_<tag>_csr_mv_ref,
 *    several alpha/beta (beta = 0 with NaN in y), a guard zone after y, the uploaded
 *    arrays compared with the host ones.
 * The grid cap is lowered so that the grid-stride loops really loop on test sizes. */
#define SPMV_CUDA_MAX_GRID 37
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv_cuda.cuh"
#include "../harness.h"
#include <stdio.h>
#include <float.h>

/* the instance parameters must not leak out of spmv_cuda.cuh */
#if defined(SPMV_TAG) || defined(SPMV_VAL) || defined(SPMV_IDX) || defined(SPMV_NAME) || defined(SPMV_T) || \
    defined(SPMV_I)
#error "spmv_cuda.cuh left instance parameters defined"
#endif

/* One struct per tag, tests/cuda/test_cuda_csr_case.cuh: the tests below are written once, as
 * templates over it. */
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#define TT_TOL 1e-5
#include "test_cuda_csr_case.cuh"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#define TT_TOL 1e-12
#include "test_cuda_csr_case.cuh"
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#define TT_TOL 1e-12
#include "test_cuda_csr_case.cuh"


template <class D> static int dev_is_zero(const D *d) {
    static const unsigned char zero[sizeof(D)] = {0};
    return !memcmp(d, zero, sizeof(D));
}

/* ---- host-side checks (no GPU needed) -------------------------------------------- */
static void host_common(void) {
    CHECK(spmv_cuda_status(cudaSuccess) == SPMV_OK, "cudaSuccess -> OK");
    CHECK(spmv_cuda_status(cudaErrorNoDevice) == SPMV_ERR_NODEVICE, "cudaErrorNoDevice -> NODEVICE");
    CHECK(spmv_cuda_status(cudaErrorInsufficientDriver) == SPMV_ERR_NODEVICE, "InsufficientDriver -> NODEVICE");
    CHECK(spmv_cuda_status(cudaErrorMemoryAllocation) == SPMV_ERR_CUDA, "MemoryAllocation -> CUDA");
    CHECK(spmv_cuda_last_error() == cudaErrorMemoryAllocation, "last error recorded");
    CHECK(spmv_cuda_status(cudaErrorInvalidValue) == SPMV_ERR_CUDA, "InvalidValue -> CUDA");
    CHECK(spmv_cuda_status(cudaErrorLaunchFailure) == SPMV_ERR_CUDA, "LaunchFailure -> CUDA");
    CHECK(!strcmp(spmv_status_str(SPMV_ERR_NODEVICE), "no CUDA device available"), "status string");

    CHECK(spmv_cuda_grid(0, 256) == 1, "grid(0)");
    CHECK(spmv_cuda_grid(-5, 256) == 1, "grid(<0)");
    CHECK(spmv_cuda_grid(1, 256) == 1, "grid(1)");
    CHECK(spmv_cuda_grid(256, 256) == 1, "grid(256)");
    CHECK(spmv_cuda_grid(257, 256) == 2, "grid(257)");
    CHECK(spmv_cuda_grid(256LL * 37, 256) == 37, "grid at cap");
    CHECK(spmv_cuda_grid(256LL * 37 + 1, 256) == 37, "grid over cap");
    CHECK(spmv_cuda_grid(INT64_MAX, 256) == 37, "grid(INT64_MAX) capped, no overflow");
    CHECK(spmv_cuda_grid((int64_t)INT32_MAX * 32, 1024) == 37, "grid(2^36) capped");

    CHECK(spmv_csr_dev_auto_tpr(0, 0) == 2, "tpr 0 rows");
    CHECK(spmv_csr_dev_auto_tpr(10, 0) == 2, "tpr empty");
    CHECK(spmv_csr_dev_auto_tpr(10, 160) == 2, "tpr avg 16");
    CHECK(spmv_csr_dev_auto_tpr(10, 161) == 4, "tpr avg 16.1");
    CHECK(spmv_csr_dev_auto_tpr(10, 320) == 4, "tpr avg 32");
    CHECK(spmv_csr_dev_auto_tpr(10, 321) == 8, "tpr avg 32.1");
    CHECK(spmv_csr_dev_auto_tpr(10, 1280) == 16, "tpr avg 128");
    CHECK(spmv_csr_dev_auto_tpr(10, 1281) == 32, "tpr avg 128.1");
    CHECK(spmv_csr_dev_auto_tpr(1, 100000) == 32, "tpr avg 1e5");
    CHECK(spmv_csr_dev_auto_tpr((int64_t)INT32_MAX, (int64_t)INT32_MAX * 40) == 8, "tpr large counts (avg 40)");
    CHECK(spmv_csr_dev_auto_tpr((int64_t)INT32_MAX, (int64_t)INT32_MAX * 200) == 32, "tpr large counts (avg 200)");
}

template <class G> static void host_tag(int have_gpu) {
    typedef typename G::T T;
    typedef typename G::I I;
    typename G::dev D;
    typename G::csr A;
    spmv_triplets t;
    spmv_status st;
    T ybuf[4] = {0, 0, 0, 0}, xbuf[4] = {0, 0, 0, 0};
    const char *tg = G::name();

    /* argument checks that return before any CUDA call */
    CHECK(G::mv(NULL, 1, xbuf, 0, ybuf, 0) == SPMV_ERR_ARG, "%s: mv(NULL D)", tg);
    memset(&D, 0, sizeof D);
    CHECK(G::mv(&D, 1, NULL, 0, NULL, 0) == SPMV_OK, "%s: mv on an empty handle (0 rows, no launch)", tg);
    CHECK(G::mv_default_stream(&D, 1, NULL, 0, NULL) == SPMV_OK, "%s: mv default stream, 0 rows", tg);
    D.algo = (spmv_csr_dev_algo)7;
    CHECK(G::mv(&D, 1, NULL, 0, NULL, 0) == SPMV_ERR_ARG, "%s: bad algo", tg);
    D.algo = SPMV_CSR_DEV_VECTOR;
    D.threads_per_row = 3;
    CHECK(G::mv(&D, 1, NULL, 0, NULL, 0) == SPMV_ERR_ARG, "%s: threads_per_row 3", tg);
    D.threads_per_row = 64;
    CHECK(G::mv(&D, 1, NULL, 0, NULL, 0) == SPMV_ERR_ARG, "%s: threads_per_row 64", tg);
    D.algo = SPMV_CSR_DEV_SCALAR;
    CHECK(G::mv(&D, 1, NULL, 0, NULL, 0) == SPMV_OK, "%s: scalar ignores threads_per_row", tg);
    memset(&D, 0, sizeof D);
    D.nrows = 3;
    D.row_ptr = (I *)(void *)xbuf; /* never dereferenced: the checks fail first */
    CHECK(G::mv(&D, 1, xbuf, 0, NULL, 0) == SPMV_ERR_ARG, "%s: y NULL with rows", tg);
    D.nnz = 2;
    D.col_idx = (I *)(void *)xbuf;
    D.val = xbuf;
    CHECK(G::mv(&D, 1, NULL, 0, ybuf, 0) == SPMV_ERR_ARG, "%s: x NULL with entries", tg);
    D.val = NULL;
    CHECK(G::mv(&D, 1, xbuf, 0, ybuf, 0) == SPMV_ERR_ARG, "%s: val NULL with entries", tg);

    memset(&D, 0, sizeof D);
    CHECK(G::dev_free(&D) == SPMV_OK && dev_is_zero(&D), "%s: free an empty handle", tg);
    CHECK(G::dev_free(NULL) == SPMV_OK, "%s: free(NULL)", tg);
    D.nrows = 10;
    D.nnz = 7;
    CHECK(G::dev_bytes(&D) == 11 * sizeof(I) + 7 * (sizeof(I) + sizeof(T)), "%s: dev_bytes", tg);
    CHECK(G::dev_bytes(NULL) == 0, "%s: dev_bytes(NULL)", tg);

    /* to_device argument errors: *D zeroed */
    spmv_triplets_alloc(&t, 3, 4, 3);
    t.row[0] = 0; t.col[0] = 1; t.val[0] = 1;
    t.row[1] = 2; t.col[1] = 0; t.val[1] = 2;
    t.row[2] = 2; t.col[2] = 3; t.val[2] = 3;
    st = G::from_triplets(&A, &t);
    CHECK(st == SPMV_OK, "%s: host csr: %s", tg, spmv_status_str(st));
    memset(&D, 0xab, sizeof D);
    CHECK(G::to_device(&D, NULL, 0) == SPMV_ERR_ARG && dev_is_zero(&D), "%s: to_device(A=NULL)", tg);
    CHECK(G::to_device(NULL, &A, 0) == SPMV_ERR_ARG, "%s: to_device(D=NULL)", tg);
    if (st == SPMV_OK) {
        A.row_ptr[A.nrows] = A.nnz + 1; /* inconsistent */
        memset(&D, 0xab, sizeof D);
        CHECK(G::to_device(&D, &A, 0) == SPMV_ERR_ARG && dev_is_zero(&D), "%s: to_device(inconsistent A)", tg);
        A.row_ptr[A.nrows] = A.nnz;
        if (!have_gpu) { /* no device: a clean failure, nothing held */
            memset(&D, 0xab, sizeof D);
            st = G::to_device_default_stream(&D, &A);
            CHECK(st == SPMV_ERR_NODEVICE || st == SPMV_ERR_CUDA, "%s: to_device without a device: %s", tg,
                  spmv_status_str(st));
            CHECK(dev_is_zero(&D), "%s: D zeroed after a failed to_device", tg);
            CHECK(spmv_cuda_last_error() != cudaSuccess, "%s: CUDA code kept", tg);
            CHECK(G::mv(&D, 1, xbuf, 0, ybuf, 0) == SPMV_OK, "%s: mv on the zeroed handle", tg);
            CHECK(G::dev_free(&D) == SPMV_OK, "%s: free after failed to_device", tg);
        }
    }
    G::csr_free(&A);
    spmv_triplets_free(&t);
}

/* ---- GPU checks ------------------------------------------------------------------------ */
#define GUARD 64
#define SENTINEL 12345.0

static cudaStream_t stream;
/* a CUDA call of the test itself: only a failure is counted (as a failed check) */
static int cuda_ok(cudaError_t e, const char *what) {
    if (e != cudaSuccess) CHECK(0, "%s: %s", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

template <class G> static void gpu_case(const char *name, const spmv_triplets *t) {
    typedef typename G::T T;
    typedef typename G::I I;
    static const int cfg[][2] = {{SPMV_CSR_DEV_SCALAR, 0}, {SPMV_CSR_DEV_VECTOR, 0}, {SPMV_CSR_DEV_VECTOR, 2},
                                 {SPMV_CSR_DEV_VECTOR, 4}, {SPMV_CSR_DEV_VECTOR, 8},  {SPMV_CSR_DEV_VECTOR, 16},
                                 {SPMV_CSR_DEV_VECTOR, 32}, {SPMV_CSR_DEV_SPLIT, 0}, {SPMV_CSR_DEV_SPLIT, 4}};
    static const double ab[][3] = {/* alpha, beta, NaN in y */
                                   {1, 0, 1}, {2.5, 0, 1}, {0, 0, 1}, {1, 1, 0}, {-0.5, 2, 0}, {0, 3, 0}, {1.5, -1, 0}};
    const char *tg = G::name();
    typename G::csr A;
    typename G::dev D;
    spmv_status st;
    size_t c, a, nr, nc;
    T *x = NULL, *y0 = NULL, *y = NULL, *xd = NULL, *yd = NULL;
    long double *ref = NULL, *scale = NULL;

    st = G::from_triplets(&A, t);
    CHECK(st == SPMV_OK, "%s %s: host csr: %s", tg, name, spmv_status_str(st));
    if (st != SPMV_OK) return;
    nr = (size_t)A.nrows;
    nc = (size_t)A.ncols;
    st = G::to_device(&D, &A, stream);
    CHECK(st == SPMV_OK, "%s %s: to_device: %s (%s)", tg, name, spmv_status_str(st),
          cudaGetErrorString(spmv_cuda_last_error()));
    if (st != SPMV_OK) {
        G::csr_free(&A);
        return;
    }
    CHECK(D.nrows == A.nrows && D.ncols == A.ncols && D.nnz == A.nnz && D.algo == SPMV_CSR_DEV_VECTOR &&
              D.threads_per_row == spmv_csr_dev_auto_tpr(A.nrows, A.nnz) && G::dev_bytes(&D) == G::csr_bytes(&A),
          "%s %s: device handle fields", tg, name);
    { /* the uploaded arrays are the host arrays */
        I *rp = (I *)malloc((nr + 1) * sizeof(I)), *ci = (I *)malloc(((size_t)A.nnz + 1) * sizeof(I));
        T *v = (T *)malloc(((size_t)A.nnz + 1) * sizeof(T));
        int same = rp && ci && v && cuda_ok(cudaMemcpy(rp, D.row_ptr, (nr + 1) * sizeof(I), cudaMemcpyDeviceToHost), "dl rp");
        if (same && A.nnz > 0)
            same = cuda_ok(cudaMemcpy(ci, D.col_idx, (size_t)A.nnz * sizeof(I), cudaMemcpyDeviceToHost), "dl ci") &&
                   cuda_ok(cudaMemcpy(v, D.val, (size_t)A.nnz * sizeof(T), cudaMemcpyDeviceToHost), "dl val");
        if (same)
            same = !memcmp(rp, A.row_ptr, (nr + 1) * sizeof(I)) &&
                   (A.nnz == 0 || (!memcmp(ci, A.col_idx, (size_t)A.nnz * sizeof(I)) &&
                                   !memcmp(v, A.val, (size_t)A.nnz * sizeof(T))));
        CHECK(same, "%s %s: device arrays equal the host arrays", tg, name);
        free(rp); free(ci); free(v);
    }

    x = (T *)malloc((nc + 1) * sizeof(T));
    y0 = (T *)malloc((nr + GUARD) * sizeof(T));
    y = (T *)malloc((nr + GUARD) * sizeof(T));
    ref = (long double *)malloc((nr + 1) * sizeof(long double));
    scale = (long double *)malloc((nr + 1) * sizeof(long double));
    if (!x || !y0 || !y || !ref || !scale) {
        CHECK(0, "%s %s: host allocation", tg, name);
        goto done;
    }
    for (size_t j = 0; j < nc; j++) x[j] = (T)th_rval();
    if (!cuda_ok(cudaMalloc((void **)&xd, (nc + 1) * sizeof(T)), "cudaMalloc x") ||
        !cuda_ok(cudaMalloc((void **)&yd, (nr + GUARD) * sizeof(T)), "cudaMalloc y") ||
        !cuda_ok(cudaMemcpy(xd, x, nc * sizeof(T), cudaMemcpyHostToDevice), "upload x"))
        goto done;

    for (c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
        typename G::dev E = D;
        if (cfg[c][0] == SPMV_CSR_DEV_SPLIT && D.long_len == 0) continue; /* no long row: the vector kernel, run above */
        E.algo = (spmv_csr_dev_algo)cfg[c][0];
        E.threads_per_row = cfg[c][1];
        for (a = 0; a < sizeof ab / sizeof ab[0]; a++) {
            T alpha = (T)ab[a][0], beta = (T)ab[a][1];
            size_t r, bad = 0, worst_r = 0;
            double worst = 0;
            for (r = 0; r < nr; r++) y0[r] = ab[a][2] ? (T)NAN : (T)th_rval();
            for (r = nr; r < nr + GUARD; r++) y0[r] = (T)SENTINEL;
            if (!cuda_ok(cudaMemcpyAsync(yd, y0, (nr + GUARD) * sizeof(T), cudaMemcpyHostToDevice, stream), "upload y"))
                goto done;
            st = G::mv(&E, alpha, xd, beta, yd, stream);
            CHECK(st == SPMV_OK, "%s %s algo=%d tpr=%d: mv: %s", tg, name, cfg[c][0], cfg[c][1], spmv_status_str(st));
            if (!cuda_ok(cudaMemcpyAsync(y, yd, (nr + GUARD) * sizeof(T), cudaMemcpyDeviceToHost, stream), "download y") ||
                !cuda_ok(cudaStreamSynchronize(stream), "synchronize"))
                goto done;
            G::ref(&A, alpha, x, beta, y0, ref, scale);
            for (r = 0; r < nr; r++) {
                I len = A.row_ptr[r + 1] - A.row_ptr[r];
                double tol = 8 * G::eps() * sqrt((double)len + 1);
                long double err = fabsl((long double)y[r] - ref[r]);
                if (tol < G::base_tol()) tol = G::base_tol();
                if (!isfinite((double)y[r]) || err > (long double)tol * scale[r]) {
                    double rel = scale[r] > 0 ? (double)(err / scale[r]) : INFINITY;
                    if (!bad || !(rel <= worst)) { worst = rel; worst_r = r; }
                    bad++;
                }
            }
            for (r = nr; r < nr + GUARD; r++)
                if (y[r] != (T)SENTINEL) bad++;
            CHECK(!bad, "%s %s algo=%s tpr=%d alpha=%g beta=%g%s: %zu bad rows/guards, worst row %zu: got %.17g want %.17Lg (scale %.3Lg)",
                  tg, name, cfg[c][0] == SPMV_CSR_DEV_SCALAR ? "scalar" : cfg[c][0] == SPMV_CSR_DEV_SPLIT ? "split" : "vector",
                  cfg[c][1], ab[a][0], ab[a][1],
                  ab[a][2] ? " (y NaN)" : "", bad, worst_r, nr ? (double)y[worst_r] : 0.0, nr ? ref[worst_r] : 0.0L,
                  nr ? scale[worst_r] : 0.0L);
            if (cfg[c][0] == SPMV_CSR_DEV_SPLIT && a == 3 && nr) { /* split: the same bits again */
                T *y2 = (T *)malloc((nr + GUARD) * sizeof(T));
                int same = y2 && cuda_ok(cudaMemcpyAsync(yd, y0, (nr + GUARD) * sizeof(T), cudaMemcpyHostToDevice, stream), "upload y") &&
                           G::mv(&E, alpha, xd, beta, yd, stream) == SPMV_OK &&
                           cuda_ok(cudaMemcpyAsync(y2, yd, (nr + GUARD) * sizeof(T), cudaMemcpyDeviceToHost, stream), "download y") &&
                           cuda_ok(cudaStreamSynchronize(stream), "synchronize") && !memcmp(y, y2, nr * sizeof(T));
                CHECK(same, "%s %s algo=split: the same bits on a second product", tg, name);
                free(y2);
            }
        }
    }
    { /* the default stream works too */
        T one = 1, zero = 0;
        st = G::mv_default_stream(&D, one, xd, zero, yd);
        CHECK(st == SPMV_OK && cuda_ok(cudaDeviceSynchronize(), "sync default stream"), "%s %s: mv on stream 0", tg, name);
    }
done:
    cudaFree(xd);
    cudaFree(yd);
    free(x); free(y0); free(y); free(ref); free(scale);
    st = G::dev_free(&D);
    CHECK(st == SPMV_OK && dev_is_zero(&D), "%s %s: dev_free: %s", tg, name, spmv_status_str(st));
    G::csr_free(&A);
}

static void run_all(const char *name, const spmv_triplets *t) {
    gpu_case<tag_s>(name, t);
    gpu_case<tag_d>(name, t);
    gpu_case<tag_dl>(name, t);
}

static int64_t len_thirds(int64_t r) { return r % 3 == 0 ? 0 : 1 + (int64_t)(th_rnd() % 20); }
static int64_t len_huge_row(int64_t r) { return r == 777 ? 100000 : (int64_t)(th_rnd() % 6); }
static int64_t len_over_block(int64_t r) { return 257 + r * 120; }
static int64_t len_0_70(int64_t r) { return r; }
static int64_t len_mixed(int64_t r) { return r % 97 == 0 ? 3000 + r : (int64_t)(th_rnd() % 9); }

static void gpu_tests(void) {
    spmv_triplets t;
    if (!cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate")) return;
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 no entries", &t); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = 0; t.col[0] = 0; t.val[0] = -0.75; run_all("1x1", &t);
    spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 1, 1, 0); run_all("1x1 empty", &t); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 1000, 1000, len_thirds); run_all("every third row empty", &t); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 1, 200000, [](int64_t) -> int64_t { return 100000; }); run_all("one row of 100000", &t);
    spmv_triplets_free(&t);
    th_make_rows_fn(&t, 2000, 150000, len_huge_row); run_all("row 777 of 100000 among short rows", &t);
    spmv_triplets_free(&t);
    th_make_rows_fn(&t, 40, 20000, len_over_block); run_all("rows of 257..4937 (> a block)", &t); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 71, 200, len_0_70); run_all("row lengths 0..70", &t); spmv_triplets_free(&t);
    th_make_rows_fn(&t, 5000, 9000, len_mixed); run_all("mixed short and long rows", &t); spmv_triplets_free(&t);
    th_make_random(&t, 50, 3000, 20000); run_all("rectangular 50x3000", &t); spmv_triplets_free(&t);
    th_make_random(&t, 3000, 7, 9000); run_all("rectangular 3000x7 (duplicates)", &t); spmv_triplets_free(&t);
#ifdef SPMV_CUDA_EMULATE /* the CPU emulation costs ~1000x a GPU: a tenth of the size there */
    th_make_random(&t, 10000, 8000, 100000); run_all("random 10000x8000", &t); spmv_triplets_free(&t);
#else
    th_make_random(&t, 100000, 80000, 1000000); run_all("random 100000x80000", &t); spmv_triplets_free(&t);
#endif
    {
        static const char *specs[] = {"stencil3d:n=20,pts=7", "rmat:scale=12,ef=8", "circuit:n=6000",
                                      "lp:rows=300,cols=4000", "onerow:n=5000,len=5000", "fem:n=400,bs=3"};
        size_t i;
        for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
            spmv_error e;
            spmv_status st = spmv_gen(specs[i], &t, &e);
            CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), e.msg);
            if (st != SPMV_OK) continue;
            run_all(specs[i], &t);
            spmv_triplets_free(&t);
        }
    }
    cuda_ok(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

int main(void) {
    int ndev = spmv_cuda_device_count();
    printf("CUDA devices: %d\n", ndev);
    host_common();
    host_tag<tag_s>(ndev > 0);
    host_tag<tag_d>(ndev > 0);
    host_tag<tag_dl>(ndev > 0);
    if (ndev == 0) {
        int listed = th_gpu_listed(), n = 0;
        cudaError_t why = cudaGetDeviceCount(&n);
        CHECK(!listed, "nvidia-smi lists %d GPU(s) but CUDA sees none (%s): the GPU tests cannot run", listed,
              cudaGetErrorString(why));
        check_skip("no CUDA device: GPU tests not run");
    }
    else gpu_tests();
    return check_finish("test_cuda_csr");
}
