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

#ifndef __CUDACC__
#error "spmv_cuda.cuh / formats/cuda/*.cuh must be compiled by nvcc (a .cu file, or -x cu)"
#endif

#include <cuda_runtime.h>
#include <stdint.h>
#include "../core.h"

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

/* y_r = alpha*s + beta*y_r, y_r not read when beta == 0 (so NaN/garbage in y is ignored). */
template <typename T> __device__ __forceinline__ void spmv_cuda_axpby(T *y, T alpha, T s, T beta) {
    if (beta == T(0)) *y = alpha * s;
    else *y = alpha * s + beta * *y;
}

#endif /* SPMV_CUDA_CORE_CUH */
