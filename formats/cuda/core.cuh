/* spmv CUDA core: the non-generic part of the CUDA side, included once by spmv_cuda.cuh.
 *
 *  - spmv_cuda_status(cudaError_t): every CUDA call the library makes goes through it.
 *    cudaSuccess -> SPMV_OK; no device / no usable driver -> SPMV_ERR_NODEVICE; any
 *    other error -> SPMV_ERR_CUDA. Nothing is printed and nothing exits; the CUDA code
 *    behind the most recent failure on this host thread is spmv_cuda_last_error().
 *  - spmv_cuda_device_count(): 0 when there is no device (or no driver).
 *  - Streams: every function that touches the device takes a cudaStream_t as its last
 *    argument, defaulting to 0 (the default stream).
 *  - Device building blocks (templates, so a kernel written against them is emitted
 *    once per program however many translation units include this header):
 *    spmv_cuda_warp_sum<W>(v) / spmv_cuda_warp_allsum<W>(v) — sums over aligned groups
 *    of W lanes (W a power of two <= 32) with __shfl_*_sync over the full warp mask, so
 *    every lane of the warp must call them (keep loops warp-uniform around them).
 *  - Launch geometry: spmv_cuda_grid(work_items, block) never overflows and is capped
 *    at SPMV_CUDA_MAX_GRID blocks; kernels use grid-stride loops for the rest.
 * Errors of kernels are checked with cudaGetLastError() right after the launch; since
 * that call also returns (and clears) an earlier unchecked error of the calling
 * thread, a stale error left by other code is reported by the next library call.
 * Only the current device is used (cudaSetDevice picks it). */
#ifndef SPMV_CUDA_CORE_CUH
#define SPMV_CUDA_CORE_CUH

#if defined(SPMV_CUDA_EMULATE)
/* tests only: the kernels run on the CPU through tests/emu/cuda_emu.h (included first),
 * which stands in for the CUDA runtime, the launch and the warp intrinsics */
#ifndef SPMV_CUDA_EMU_H
#error "SPMV_CUDA_EMULATE: include tests/emu/cuda_emu.h before spmv_cuda.cuh"
#endif
#else
#ifndef __CUDACC__
#error "spmv_cuda.cuh / formats/cuda/*.cuh must be compiled by nvcc (a .cu file, or -x cu)"
#endif
#include <cuda_runtime.h>
/* kernel<<<grid, block, 0, stream>>>, written as SPMV_CUDA_LAUNCH(grid, block, stream,
 * kernel<...>)(args) so that the test emulation can run the same kernels on the CPU */
#define SPMV_CUDA_LAUNCH(grid, block, stream, ...) __VA_ARGS__<<<(grid), (block), 0, (stream)>>>
#endif
#include <stdint.h>
#include <type_traits>
#include "../core/core.h"

/* Threads per block of the library's kernels (a multiple of 32). */
#ifndef SPMV_CUDA_BLOCK
#define SPMV_CUDA_BLOCK 256
#endif
/* Most blocks a launch uses; grid-stride loops cover the rest. 65535 x 256 threads is
 * far more than any current GPU keeps resident. */
#ifndef SPMV_CUDA_MAX_GRID
#define SPMV_CUDA_MAX_GRID 65535
#endif
#define SPMV_CUDA_FULL_MASK 0xffffffffu

static_assert(SPMV_CUDA_BLOCK % 32 == 0 && SPMV_CUDA_BLOCK > 0 && SPMV_CUDA_BLOCK <= 1024,
              "SPMV_CUDA_BLOCK must be a multiple of 32, at most 1024");

/* ---- status ---------------------------------------------------------------- */
/* The CUDA code behind the most recent SPMV_ERR_CUDA / SPMV_ERR_NODEVICE returned on
 * this host thread (cudaSuccess if none). One object per program (C++17 inline). */
inline cudaError_t &spmv_cuda__last_error_ref() {
    static thread_local cudaError_t e = cudaSuccess;
    return e;
}
static inline cudaError_t spmv_cuda_last_error(void) { return spmv_cuda__last_error_ref(); }

static inline spmv_status spmv_cuda_status(cudaError_t e) {
    if (e == cudaSuccess) return SPMV_OK;
    spmv_cuda__last_error_ref() = e;
    (void)cudaGetLastError(); /* consumed here: do not let it resurface in a later check */
    switch (e) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
#if defined(CUDART_VERSION) && CUDART_VERSION >= 11010
    case cudaErrorStubLibrary: /* linked against the driver stub: no real driver */
#endif
        return SPMV_ERR_NODEVICE;
    default: return SPMV_ERR_CUDA;
    }
}

/* Number of CUDA devices; 0 when there is none or no usable driver. */
static inline int spmv_cuda_device_count(void) {
    int n = 0;
    if (spmv_cuda_status(cudaGetDeviceCount(&n)) != SPMV_OK) return 0;
    return n < 0 ? 0 : n;
}

/* ---- row lengths at upload (host side) --------------------------------------- */
/* the longest row of a CSR row_ptr (csr's kernel choice, the skew cap) */
template <typename I> static inline int64_t spmv_cuda__longest_row(int64_t nrows, const I *row_ptr) {
    int64_t r, mx = 0;
    for (r = 0; r < nrows; r++)
        if ((int64_t)row_ptr[r + 1] - (int64_t)row_ptr[r] > mx) mx = (int64_t)row_ptr[r + 1] - (int64_t)row_ptr[r];
    return mx;
}
/* The skew cap. Kernels that give a whole row to one thread (ell, ellr, hll, sell, jad) or a
 * whole block row to one warp (bcsr) take as long as their longest row, whatever the rest.
 * Measured on an H200 (2026-11-26, 78 real matrices and the default set, double;
 * bench/results/2026-11-26-h200-d-real.csv): with the longest row above 16x the mean, sell
 * ran at 0.00-0.39x cuSPARSE (hll 0.00-0.38x, jad 0.00-0.45x) and bcsr with a longest row of
 * 200 or more at 0.02-0.60x; on gen:webgraph sell, hll and jad ran at 0.01-0.02x and bcsr at
 * 0.05x, and on gen:circuit5m (two rows of ~1M entries) one sell product took seconds. Such
 * uploads are refused with SPMV_ERR_LIMIT (hyb, csr, coo, csr5 and the AXT formats split
 * long rows and take them). Define SPMV_CUDA_MAX_SKEW 0 to lift the cap. */
/* SPMV_CUDA_MAX_SKEW, SPMV_CUDA_SKEW_MIN_ELL, _MIN_BCSR and _WARPS: formats/auto.h (the device
 * selection leaves out what the cap would refuse, by the same numbers) */
/* 1 when the longest row of the CSR row_ptr is >= min_len and above SPMV_CUDA_MAX_SKEW x the
 * mean, or (lanes > 0) above SPMV_CUDA_MAX_SKEW x the entries per lane when all entries are spread
 * over `lanes` workers: bcsr gives a whole block row to one warp, so a matrix of a few long rows
 * (one row of 200000 entries: one warp busy, every bs from 2 to 32 took over 11 s in
 * tests/gpu_check.sh on the H200) is as slow as its longest row even without skew */
template <typename I>
static inline int spmv_cuda__skewed(int64_t nrows, const I *row_ptr, int64_t min_len, int64_t lanes = 0) {
    if (SPMV_CUDA_MAX_SKEW <= 0 || nrows <= 0 || !row_ptr) return 0;
    return spmv__skew_capped(nrows, (int64_t)row_ptr[nrows] - (int64_t)row_ptr[0],
                             spmv_cuda__longest_row<I>(nrows, row_ptr), min_len, lanes);
}
/* ---- launch geometry --------------------------------------------------------- */
/* Blocks for `work` threads of `block` each: at least 1, at most SPMV_CUDA_MAX_GRID. */
static inline unsigned spmv_cuda_grid(int64_t work, int block) {
    int64_t g;
    if (work <= 0 || block <= 0) return 1u;
    g = work / block + (work % block != 0);
    return (unsigned)(g < SPMV_CUDA_MAX_GRID ? g : SPMV_CUDA_MAX_GRID);
}

/* ---- warp building blocks ------------------------------------------------------ */
/* Sum of v over each aligned group of W lanes; the result is valid in the group's
 * first lane. All 32 lanes of the warp must call it. */
template <int W, typename T> __device__ __forceinline__ T spmv_cuda_warp_sum(T v) {
    static_assert(W >= 1 && W <= 32 && (W & (W - 1)) == 0, "W: a power of two <= 32");
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_down_sync(SPMV_CUDA_FULL_MASK, v, o, W);
    return v;
}
/* Same, with the result in every lane of the group (butterfly). */
template <int W, typename T> __device__ __forceinline__ T spmv_cuda_warp_allsum(T v) {
    static_assert(W >= 1 && W <= 32 && (W & (W - 1)) == 0, "W: a power of two <= 32");
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(SPMV_CUDA_FULL_MASK, v, o, W);
    return v;
}
__device__ __forceinline__ int spmv_cuda_lane(void) { return (int)(threadIdx.x & 31u); }
/* Global thread index and grid size as 64-bit values (no overflow in grid-stride loops). */
__device__ __forceinline__ int64_t spmv_cuda_gtid(void) {
    return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t spmv_cuda_gsize(void) { return (int64_t)gridDim.x * blockDim.x; }

/* ---- complex lanes (tags z, c) ------------------------------------------------- *
 * spmv_cuda_cplx<R>: (re, im), the layout of spmv_cdouble / spmv_cfloat (C's _Complex),
 * cuDoubleComplex / cuComplex and std::complex, with the arithmetic the kernels use (the textbook
 * product, as the host's complex kernels and cuSPARSE compute it). The device side of a complex
 * tag is written in it (spmv_cuda_z, spmv_cuda_c): C's _Complex has no device code in nvcc (a
 * kernel using it compiles to an empty body), so spmv_cuda__no_host_complex<T> refuses it at
 * compile time in the kernels' building blocks. The warp shuffles and atomicAdd take it part by
 * part. */
template <typename R> struct spmv_cuda_cplx {
    R re, im;
    spmv_cuda_cplx() = default;
    __host__ __device__ constexpr spmv_cuda_cplx(R r, R i) : re(r), im(i) {}
    template <typename U, typename = typename std::enable_if<std::is_arithmetic<U>::value>::type>
    __host__ __device__ constexpr spmv_cuda_cplx(U r) : re((R)r), im(0) {}
    template <typename Q> __host__ __device__ explicit constexpr spmv_cuda_cplx(spmv_cuda_cplx<Q> z) : re((R)z.re), im((R)z.im) {}
    __host__ spmv_cuda_cplx(spmv_cdouble z) : re((R)__builtin_creal(z)), im((R)__builtin_cimag(z)) {}
    __host__ spmv_cuda_cplx(spmv_cfloat z) : re((R)__builtin_crealf(z)), im((R)__builtin_cimagf(z)) {}
};
typedef spmv_cuda_cplx<double> spmv_cuda_z;
typedef spmv_cuda_cplx<float> spmv_cuda_c;
#define SPMV__DEVT_spmv_cdouble spmv_cuda_z
#define SPMV__DEVT_spmv_cfloat spmv_cuda_c
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> operator+(spmv_cuda_cplx<R> a, spmv_cuda_cplx<R> b) {
    return spmv_cuda_cplx<R>(a.re + b.re, a.im + b.im);
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> operator-(spmv_cuda_cplx<R> a, spmv_cuda_cplx<R> b) {
    return spmv_cuda_cplx<R>(a.re - b.re, a.im - b.im);
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> operator-(spmv_cuda_cplx<R> a) {
    return spmv_cuda_cplx<R>(-a.re, -a.im);
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> operator*(spmv_cuda_cplx<R> a, spmv_cuda_cplx<R> b) {
    return spmv_cuda_cplx<R>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> &operator+=(spmv_cuda_cplx<R> &a, spmv_cuda_cplx<R> b) {
    return a = a + b;
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> &operator-=(spmv_cuda_cplx<R> &a, spmv_cuda_cplx<R> b) {
    return a = a - b;
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> &operator*=(spmv_cuda_cplx<R> &a, spmv_cuda_cplx<R> b) {
    return a = a * b;
}
template <typename R> __host__ __device__ __forceinline__ bool operator==(spmv_cuda_cplx<R> a, spmv_cuda_cplx<R> b) {
    return a.re == b.re && a.im == b.im;
}
template <typename R> __host__ __device__ __forceinline__ bool operator!=(spmv_cuda_cplx<R> a, spmv_cuda_cplx<R> b) {
    return !(a == b);
}
template <typename R> __host__ __device__ __forceinline__ spmv_cuda_cplx<R> spmv_cuda_conj(spmv_cuda_cplx<R> a) {
    return spmv_cuda_cplx<R>(a.re, -a.im);
}
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> __shfl_sync(unsigned m, spmv_cuda_cplx<R> v, int src, int w = 32) {
    return spmv_cuda_cplx<R>(__shfl_sync(m, v.re, src, w), __shfl_sync(m, v.im, src, w));
}
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> __shfl_up_sync(unsigned m, spmv_cuda_cplx<R> v, unsigned d, int w = 32) {
    return spmv_cuda_cplx<R>(__shfl_up_sync(m, v.re, d, w), __shfl_up_sync(m, v.im, d, w));
}
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> __shfl_down_sync(unsigned m, spmv_cuda_cplx<R> v, unsigned d, int w = 32) {
    return spmv_cuda_cplx<R>(__shfl_down_sync(m, v.re, d, w), __shfl_down_sync(m, v.im, d, w));
}
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> __shfl_xor_sync(unsigned m, spmv_cuda_cplx<R> v, int x, int w = 32) {
    return spmv_cuda_cplx<R>(__shfl_xor_sync(m, v.re, x, w), __shfl_xor_sync(m, v.im, x, w));
}
/* each part atomically (the pair is not one atomic: sums only add, so the order does not matter) */
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> atomicAdd(spmv_cuda_cplx<R> *p, spmv_cuda_cplx<R> v) {
    const R re = atomicAdd(&p->re, v.re), im = atomicAdd(&p->im, v.im);
    return spmv_cuda_cplx<R>(re, im);
}
template <typename T> struct spmv_cuda__no_host_complex {
    static constexpr bool value = true;
};
template <> struct spmv_cuda__no_host_complex<spmv_cdouble> {
    static constexpr bool value = false;
};
template <> struct spmv_cuda__no_host_complex<spmv_cfloat> {
    static constexpr bool value = false;
};

/* ---- stored values as the vectors' type ---------------------------------------- *
 * spmv_cuda_tv<V>(a): a matrix value a (the tag's SPMV_VAL: float, double, spmv_half,
 * spmv_bfloat16) as the vectors' and sums' type V, exactly (float to double, a 16-bit value to
 * float). Kernels take the values' type A beside the vectors' T and read every value through
 * it, so a float matrix multiplies double vectors with double sums (tag ds) and a 16-bit one
 * float vectors (tags h, b). binary16 widens with the hardware conversion (cvt.f32.f16, every
 * target from sm_53); bfloat16 is float's upper half, a shift. */
__device__ __forceinline__ float spmv_cuda__widen(float v) { return v; }
__device__ __forceinline__ double spmv_cuda__widen(double v) { return v; }
__device__ __forceinline__ float spmv_cuda__widen(spmv_half h) {
#if defined(SPMV_CUDA_EMULATE)
    return spmv_half_to_float(h);
#else
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
    return f;
#endif
}
__device__ __forceinline__ float spmv_cuda__widen(spmv_bfloat16 b) {
#if defined(SPMV_CUDA_EMULATE)
    return spmv_bfloat16_to_float(b);
#else
    return __uint_as_float((unsigned)b.bits << 16);
#endif
}
template <typename R> __device__ __forceinline__ spmv_cuda_cplx<R> spmv_cuda__widen(spmv_cuda_cplx<R> v) { return v; }
template <typename V, typename A> __device__ __forceinline__ V spmv_cuda_tv(A a) {
    static_assert(spmv_cuda__no_host_complex<V>::value && spmv_cuda__no_host_complex<A>::value,
                  "C's _Complex in device code: a complex tag's device side uses spmv_cuda_z / spmv_cuda_c");
    return (V)spmv_cuda__widen(a);
}

/* y_r = alpha*s + beta*y_r, y_r not read when beta == 0 (so NaN/garbage in y is ignored). */
template <typename T> __device__ __forceinline__ void spmv_cuda_axpby(T *y, T alpha, T s, T beta) {
    static_assert(spmv_cuda__no_host_complex<T>::value, "C's _Complex in device code: use spmv_cuda_z / spmv_cuda_c");
    if (beta == T(0)) *y = alpha * s;
    else *y = alpha * s + beta * *y;
}

/* ---- segmented reduction (reduce-by-key) over a warp --------------------------- *
 * Used by the kernels that accumulate into y with atomics (COO, AXTUH1, AXTUH): 32
 * (key, value) pairs per step, one atomic per run of equal keys instead of one per
 * lane, and the run reaching lane 31 carried into the next step of the same warp.
 * Keys need not be sorted (equal keys that are not adjacent just make two runs), so
 * COO in any order is handled. key < 0 = no entry (its value must be 0).
 * Every lane of the warp must call it (full-mask shuffles). ckey/cval: the carry, the
 * same in all lanes; start with ckey = -1, cval = 0, and call spmv_cuda_seg_flush at
 * the end. y must have been prepared (scaled by beta) before: this only adds. */
template <typename T>
__device__ __forceinline__ void spmv_cuda_warp_seg_step(int64_t key, T v, int64_t &ckey, T &cval, T alpha, T *y) {
    const int lane = spmv_cuda_lane();
    const int64_t prev = __shfl_up_sync(SPMV_CUDA_FULL_MASK, key, 1);
    const int64_t next = __shfl_down_sync(SPMV_CUDA_FULL_MASK, key, 1);
    int head = lane == 0 || prev != key; /* a run starts here */
    if (lane == 0) {
        if (key == ckey) v += cval; /* the carried run continues */
        else if (ckey >= 0) atomicAdd(y + ckey, alpha * cval);
    }
    /* inclusive segmented scan: a lane adds what lies before it until its run's head */
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, v, o);
        const int ph = __shfl_up_sync(SPMV_CUDA_FULL_MASK, head, o);
        if (lane >= o && !head) {
            v += pv;
            head = ph;
        }
    }
    if (lane < 31 && next != key && key >= 0) atomicAdd(y + key, alpha * v); /* a run ends here */
    ckey = __shfl_sync(SPMV_CUDA_FULL_MASK, key, 31);
    cval = __shfl_sync(SPMV_CUDA_FULL_MASK, v, 31);
}
template <typename T> __device__ __forceinline__ void spmv_cuda_seg_flush(int64_t ckey, T cval, T alpha, T *y) {
    if (spmv_cuda_lane() == 0 && ckey >= 0) atomicAdd(y + ckey, alpha * cval);
}

/* y = beta*y (0 when beta == 0, so NaN in y is dropped): the preparation of y for the
 * kernels that accumulate with atomics; part of their timed SpMV. */
template <typename T> __global__ void __launch_bounds__(SPMV_CUDA_BLOCK) spmv_cuda__scale(int64_t n, T beta, T *y) {
    for (int64_t i = spmv_cuda_gtid(); i < n; i += spmv_cuda_gsize()) y[i] = beta == T(0) ? T(0) : beta * y[i];
}
template <typename T> static inline spmv_status spmv_cuda_scale(int64_t n, T beta, T *y, cudaStream_t s) {
    if (n <= 0) return SPMV_OK;
    if (beta == T(1)) return SPMV_OK;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid(n, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__scale<T>)(n, beta, y);
    return spmv_cuda_status(cudaGetLastError());
}

/* ---- device copies --------------------------------------------------------------- *
 * *dst = cudaMalloc(n elements) + copy of src on stream s (nothing when n == 0: *dst
 * stays NULL). Used by the uploads, which free everything on the first failure. */
template <typename E> static inline spmv_status spmv_cuda_alloc(E **dst, size_t n) {
    void *p = NULL;
    spmv_status st;
    *dst = NULL;
    if (n == 0) return SPMV_OK;
    if (n > SIZE_MAX / sizeof(E)) return SPMV_ERR_OVERFLOW;
    st = spmv_cuda_status(cudaMalloc(&p, n * sizeof(E)));
    if (st == SPMV_OK) *dst = (E *)p;
    return st;
}
/* (src may be of another type of the same size: a complex tag's host values, spmv_cdouble,
 * uploaded as spmv_cuda_z) */
template <typename E, typename S> static inline spmv_status spmv_cuda_upload(E **dst, const S *src, size_t n, cudaStream_t s) {
    static_assert(sizeof(E) == sizeof(S), "spmv_cuda_upload: the same layout");
    spmv_status st;
    *dst = NULL;
    if (n == 0) return SPMV_OK;
    if (!src) return SPMV_ERR_ARG;
    st = spmv_cuda_alloc(dst, n);
    if (st != SPMV_OK) return st;
    return spmv_cuda_status(cudaMemcpyAsync(*dst, src, n * sizeof(E), cudaMemcpyHostToDevice, s));
}
/* cudaFree(*p) if set, *p = NULL; keeps the first error in *st. */
template <typename E> static inline void spmv_cuda_release(E **p, spmv_status *st) {
    if (*p) {
        spmv_status s2 = spmv_cuda_status(cudaFree((void *)*p));
        if (s2 != SPMV_OK && *st == SPMV_OK) *st = s2;
    }
    *p = NULL;
}

#endif /* SPMV_CUDA_CORE_CUH */
