/* Device handles used from several host threads, as the README's thread-safety list says
 * they may be: four std::threads run products on one shared handle per format (each into its
 * own y, on the default stream), and four threads build their own handles from one shared host
 * CSR at once; every result against the long-double reference. The formats the README keeps
 * to one product at a time (csr and csr_merge with the merge kernel's carries, csr5, the AXT
 * formats whose x lives in the handle) are left out. Symmetric-only formats (sss) run on the
 * symmetric matrices (the stencil, and A + A^T of the others that are square); on the rest
 * their refusal is checked.
 * In the suite it runs in the CUDA emulation's concurrent mode under ThreadSanitizer: the host
 * side of the device verbs (argument checks, launch set-up, the error state) racing between
 * threads is reported and fails the run; the emulation runs the threads' grids one after
 * another (one stream), so concurrent kernels on one handle are not modelled there; natively
 * (tests/gpu_check.sh) they share the GPU's default stream. */
#include "../harness.h"
#include "spmv_cuda.cuh"
#include "../harness.h"
#include "cuda_harness.h"
#include <thread>
#include <vector>

enum { NT = 4, REPS = 5 };

static int shared_ok(spmv_format f) {
    const unsigned fl = spmv_format_flags(f);
    if (!(fl & SPMV_FF_CUDA)) return 0;
    if (fl & SPMV_FF_EMBEDS_X) return 0; /* x is written into the handle */
    return f != SPMV_FMT_CSR && f != SPMV_FMT_CSR_MERGE && f != SPMV_FMT_CSR5;
}

/* max over rows of |y - ref| / (|ref| + scale) */
static double rel_err(const double *y, const long double *ref, const long double *sc, int64_t n) {
    double w = 0;
    for (int64_t i = 0; i < n; i++) {
        const double e = (double)fabsl((long double)y[i] - ref[i]) / (double)(fabsl(ref[i]) + sc[i] + 1e-300);
        if (!(e <= w)) w = e;
    }
    return w;
}

/* only_sym: the symmetric-only formats alone (A + A^T of a matrix they refused) */
static void one_matrix(const char *mname, const spmv_triplets *t, int only_sym) {
    spmv_d_csr A;
    double *x = NULL, *xd = NULL;
    long double *ref = NULL, *sc = NULL;
    int64_t i, n, m;
    int sym;
    if (spmv_d_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: to CSR", mname);
        return;
    }
    sym = th_csr_symmetric(&A);
    n = A.nrows, m = A.ncols;
    x = (double *)malloc(sizeof(double) * (size_t)(m + 1));
    ref = (long double *)malloc(sizeof(long double) * (size_t)(n + 1));
    sc = (long double *)malloc(sizeof(long double) * (size_t)(n + 1));
    for (i = 0; i < m; i++) x[i] = 1.0 + (double)(i % 7) / 8;
    spmv_d_csr_mv_ref(&A, 1.0, x, 0.0, NULL, ref, sc);
    if (!cuda_ok(cudaMalloc((void **)&xd, sizeof(double) * (size_t)(m + 1)), "cudaMalloc x") ||
        !cuda_ok(cudaMemcpy(xd, x, sizeof(double) * (size_t)m, cudaMemcpyHostToDevice), "copy x"))
        goto out;
    for (int f = 0; f < SPMV_FMT_COUNT_ && !gpu_dead; f++) {
        spmv_opts o = spmv_opts_default();
        spmv_d_any_dev D;
        spmv_error e;
        spmv_status st;
        double *yd[NT] = {NULL}, *yh[NT] = {NULL};
        spmv_status tst[NT];
        if (!shared_ok((spmv_format)f) || (only_sym && !th_sym(f))) continue;
        o.format = (spmv_format)f;
        st = spmv_d_any_dev_from_csr(&D, &A, &o, &e, 0);
        if (th_sym(f) && !sym) { /* symmetric-only: refused (it runs on A + A^T) */
            CHECK(st == SPMV_ERR_ARG && th_all_zero(&D, sizeof D) && strstr(e.msg, "symmetric"),
                  "%s %s (not symmetric): %s '%s'", mname, spmv_format_name((spmv_format)f), spmv_status_str(st),
                  e.msg);
            if (st == SPMV_OK) (void)spmv_d_any_dev_free(&D);
            continue;
        }
        if (st == SPMV_ERR_LIMIT) continue; /* a size cap (a skewed or padded matrix) */
        CHECK(st == SPMV_OK, "%s %s: build: %s (%s)", mname, spmv_format_name((spmv_format)f), spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        for (int k = 0; k < NT; k++) {
            yh[k] = (double *)malloc(sizeof(double) * (size_t)(n + 1));
            cuda_ok(cudaMalloc((void **)&yd[k], sizeof(double) * (size_t)(n + 1)), "cudaMalloc y");
        }
        { /* one shared handle, NT threads, each its own y */
            std::vector<std::thread> th;
            for (int k = 0; k < NT; k++)
                th.emplace_back([&, k]() {
                    spmv_status s = SPMV_OK;
                    for (int r = 0; r < REPS && s == SPMV_OK; r++) s = spmv_d_any_dev_mv(&D, 1.0, xd, 0.0, yd[k], 0);
                    if (s == SPMV_OK) s = spmv_cuda_status(cudaMemcpy(yh[k], yd[k], sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
                    tst[k] = s;
                });
            for (auto &h : th) h.join();
        }
        for (int k = 0; k < NT; k++) {
            const double err = tst[k] == SPMV_OK ? rel_err(yh[k], ref, sc, n) : 1.0;
            CHECK(tst[k] == SPMV_OK && err <= 1e-12, "%s %s: thread %d of %d on one handle: %s, error %.3g", mname,
                  spmv_format_name((spmv_format)f), k, NT, spmv_status_str(tst[k]), err);
        }
        (void)spmv_d_any_dev_free(&D);
        for (int k = 0; k < NT; k++) cudaFree(yd[k]), free(yh[k]);
    }
    if (!only_sym) { /* NT threads building and using their own handles from one shared host CSR */
        std::vector<std::thread> th;
        int bad[NT] = {0};
        for (int k = 0; k < NT; k++)
            th.emplace_back([&, k]() {
                static const spmv_format fs[NT] = {SPMV_FMT_CSR_VECTOR, SPMV_FMT_COO, SPMV_FMT_HLL, SPMV_FMT_CSR_SCALAR};
                spmv_opts o = spmv_opts_default();
                spmv_d_any_dev D;
                double *yd = NULL, *yh = (double *)malloc(sizeof(double) * (size_t)(n + 1));
                spmv_status s;
                o.format = fs[k];
                s = spmv_d_any_dev_from_csr(&D, &A, &o, NULL, 0);
                if (s == SPMV_ERR_LIMIT) {
                    free(yh);
                    return;
                }
                if (s == SPMV_OK) s = spmv_cuda_status(cudaMalloc((void **)&yd, sizeof(double) * (size_t)(n + 1)));
                if (s == SPMV_OK) s = spmv_d_any_dev_mv(&D, 1.0, xd, 0.0, yd, 0);
                if (s == SPMV_OK) s = spmv_cuda_status(cudaMemcpy(yh, yd, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
                bad[k] = s != SPMV_OK ? 2 : rel_err(yh, ref, sc, n) > 1e-12;
                if (yd) cudaFree(yd);
                (void)spmv_d_any_dev_free(&D);
                free(yh);
            });
        for (auto &h : th) h.join();
        for (int k = 0; k < NT; k++) CHECK(!bad[k], "%s: thread %d building its own handle: %s", mname, k, bad[k] == 2 ? "failed" : "wrong");
    }
out:
    if (xd) cudaFree(xd);
    free(x), free(ref), free(sc);
    spmv_d_csr_free(&A);
}

int main(void) {
    static const char *gens[] = {"stencil2d:n=40", "random:rows=500,cols=400,nnzr=6,seed=2", "band:n=3000,bw=3,seed=1"};
    if (th_cuda_no_device(spmv_cuda_device_count(), "the products from several host threads were not run"))
        return check_finish("test_cuda_threads");
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen(gens[g], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s", gens[g]);
            continue;
        }
        one_matrix(gens[g], &t, 0);
        if (th_sym_dev_any() && !th_triplets_symmetric(&t)) {
            spmv_triplets u;
            char name[160];
            if (th_symmetrize(&t, &u)) {
                snprintf(name, sizeof name, "%s + its transpose", gens[g]);
                one_matrix(name, &u, 1);
                spmv_triplets_free(&u);
            }
        }
        spmv_triplets_free(&t);
    }
    return check_finish("test_cuda_threads");
}
