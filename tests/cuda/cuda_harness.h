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
 *   TH_TAG_HOST(TG, TT, BASE_TOL) the host members of a test's per-tag struct: T, csr, name,
 *                           base_tol, eps, from_triplets, csr_free, ref. */
#ifndef TH_CUDA_HARNESS_H
#define TH_CUDA_HARNESS_H
#include <cmath>
#include <cfloat>

#define TH_TAG_HOST(TG, TT, BASE_TOL)                                                                            \
    typedef TT T;                                                                                                \
    typedef spmv_##TG##_csr csr;                                                                                 \
    static const char *name() { return #TG; }                                                                    \
    static double base_tol() { return BASE_TOL; }                                                                \
    static double eps() { return sizeof(T) == 4 ? (double)FLT_EPSILON : DBL_EPSILON; }                           \
    static spmv_status from_triplets(csr *A, const spmv_triplets *t) {                                          \
        return spmv_##TG##_csr_from_triplets(A, t, NULL);                                                        \
    }                                                                                                            \
    static void csr_free(csr *A) { spmv_##TG##_csr_free(A); }                                                    \
    static void ref(const csr *A, T al, const T *x, T be, const T *y0, long double *r, long double *sc) {        \
        spmv_##TG##_csr_mv_ref(A, al, x, be, y0, r, sc);                                                         \
    }

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

template <typename T> static inline int th_ref_ok(T v, long double rf, long double sc, double tol) {
    if (std::isnan(rf)) return std::isnan(v);
    if (std::isinf(rf)) return (long double)v == rf;
    return std::isfinite(v) && fabsl((long double)v - rf) <= (long double)tol * sc;
}
#endif
