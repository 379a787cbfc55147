/* What the CUDA test programs share, included after spmv_cuda.cuh and both phases of
 * tests/harness.h:
 *   cuda_ok(e, what)        a CUDA call of the test itself: a failure is a failed check, and
 *                           an error that stays (sticky: the context is lost) sets gpu_dead,
 *                           which stops the device part;
 *   th_cuda_no_device(skip) no device: a failed check when nvidia-smi lists a GPU anyway (a
 *                           run that did no GPU work cannot pass), then one SKIP with the
 *                           reason; returns 1. With a device (or the CPU emulation): says
 *                           which, returns 0;
 *   th_row_tol(eps, base, len)   a row's tolerance: max(base, 8 eps sqrt(len + 1));
 *   th_ref_ok(v, ref, scale, tol) v against the long-double reference (NaN, Inf: exactly);
 * Symmetric-only formats (registry column sym, SPMV_FF_SYMMETRIC: sss) refuse every matrix
 * that is not exactly symmetric with SPMV_ERR_ARG. The tests run them where the other formats
 * run: on a symmetric matrix as it is; on any other, the refusal, then the products on A + A^T
 * when A is square (as tests/test_format.c does on the host):
 *   th_sym(f)               f is a symmetric-only format;
 *   th_sym_dev_any()        some device row is (else there is nothing to symmetrize for);
 *   th_csr_symmetric(A)     a CSR of any tag is exactly symmetric (square, A(i,j) and A(j,i)
 *                           both present or both absent, equal values, NaN equal to NaN);
 *   th_triplets_symmetric(t) the same for triplets (their repeats summed, in double);
 *   th_symmetrize(t, u)     u = A + A^T of a square t (1; 0 when not square): t's repeats are
 *                           summed first, then each entry mirrored, so that both mirrors of a
 *                           position sum the same two values (exactly symmetric in any type).
 * The symmetrized runs draw random numbers (x, y): th_rng_save/th_rng_restore around them keep
 * the sequence, and so every later case, as it was without them. */
#ifndef TH_CUDA_HARNESS_H
#define TH_CUDA_HARNESS_H
#include <cmath>
#include <cfloat>

static int gpu_dead; /* a sticky CUDA error: the rest of the device part is not run */

static int cuda_ok(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return 1;
    CHECK(0, "%s: %s", what, cudaGetErrorString(e));
    (void)cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("sticky CUDA error (%s): stopping the GPU tests\n", cudaGetErrorString(e));
        gpu_dead = 1;
    }
    return 0;
}

static inline int th_cuda_no_device(int ndev, const char *skipped) {
    if (ndev == 0) {
        int listed = th_gpu_listed(), n = 0;
        cudaError_t why = cudaGetDeviceCount(&n);
        CHECK(!listed, "nvidia-smi lists %d GPU(s) but CUDA sees none (%s): the GPU tests cannot run", listed,
              cudaGetErrorString(why));
        check_skip("no CUDA device: %s", skipped);
        return 1;
    }
#ifdef SPMV_CUDA_EMULATE
    printf("device: CPU emulation (tests/emu/cuda_emu.h)\n");
#else
    {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
            printf("device 0: %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
    }
#endif
    return 0;
}

static inline double th_row_tol(double eps, double base, int64_t len) {
    const double tol = 8 * eps * sqrt((double)len + 1);
    return tol < base ? base : tol;
}

static inline int th_sym(int f) { return (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) != 0; }
static inline int th_sym_dev_any(void) {
    for (int f = 0; f < SPMV_FMT_COUNT_; f++)
        if (th_sym(f) && (spmv_format_flags((spmv_format)f) & SPMV_FF_CUDA)) return 1;
    return 0;
}
template <class C> static inline int th_csr_symmetric(const C *A) {
    if (A->nrows != A->ncols) return 0;
    for (int64_t r = 0; r < (int64_t)A->nrows; r++)
        for (int64_t k = (int64_t)A->row_ptr[r]; k < (int64_t)A->row_ptr[r + 1]; k++) {
            const int64_t c = (int64_t)A->col_idx[k];
            int64_t m, found = -1;
            for (m = (int64_t)A->row_ptr[c]; m < (int64_t)A->row_ptr[c + 1] && found < 0; m++)
                if ((int64_t)A->col_idx[m] == r) found = m;
            if (found < 0 || !(A->val[found] == A->val[k] || (std::isnan(A->val[found]) && std::isnan(A->val[k]))))
                return 0;
        }
    return 1;
}
static inline int th_triplets_symmetric(const spmv_triplets *t) {
    spmv_d_csr R;
    int sym;
    if (t->nrows != t->ncols || spmv_d_csr_from_triplets(&R, t, NULL, NULL) != SPMV_OK) return 0;
    sym = th_csr_symmetric(&R);
    spmv_d_csr_free(&R);
    return sym;
}
static inline int th_symmetrize(const spmv_triplets *t, spmv_triplets *u) {
    spmv_d_csr R;
    if (t->nrows != t->ncols || spmv_d_csr_from_triplets(&R, t, NULL, NULL) != SPMV_OK) return 0;
    if (spmv_triplets_alloc(u, t->nrows, t->ncols, 2 * (int64_t)R.nnz) != SPMV_OK) {
        spmv_d_csr_free(&R);
        return 0;
    }
    for (int64_t r = 0; r < (int64_t)R.nrows; r++)
        for (int64_t k = R.row_ptr[r]; k < R.row_ptr[r + 1]; k++) {
            u->row[k] = r, u->col[k] = R.col_idx[k], u->val[k] = R.val[k];
            u->row[R.nnz + k] = R.col_idx[k], u->col[R.nnz + k] = r, u->val[R.nnz + k] = R.val[k];
        }
    spmv_d_csr_free(&R);
    return 1;
}
static uint64_t th_rng_saved;
static inline void th_rng_save(void) { th_rng_saved = th_rng_state; }
static inline void th_rng_restore(void) { th_rng_state = th_rng_saved; }

template <typename T> static inline int th_ref_ok(T v, long double rf, long double sc, double tol) {
    if (std::isnan(rf)) return std::isnan(v);
    if (std::isinf(rf)) return (long double)v == rf;
    return std::isfinite(v) && fabsl((long double)v - rf) <= (long double)tol * sc;
}
#endif
