/* CUDA SURAA — the host layout of formats/suraa.h (rows sorted by length descending, the CSR
 * arrays permuted, perm, Freedman-Diaconis segments, groups G1/G2/G3 and their launches)
 * copied to the device, and its three kernel groups. Template header, included once per
 * (SPMV_TAG, SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh. No include guard on purpose.
 * The kernels are templates over <T vectors, I index, V values>, like csr.cuh's: x, y, alpha,
 * beta, the sums and the shared-memory partials are of the vectors' type SPMV_Y, the permuted
 * values of the stored type SPMV_T, each read through spmv_cuda_tv<T> (exact: float to double for
 * tag ds, binary16 / bfloat16 to float for tags h, b); the complex tags z, c run them in
 * spmv_cuda_z / spmv_cuda_c (formats/cuda/core.cuh: its shuffles and atomicAdd part by part).
 *
 * The groups run on three streams: G3 on the caller's stream s, G2 and G1 on two streams of the
 * object (created non-blocking at upload) that first wait for an event recorded on s; s then
 * waits for events recorded at the end of G1 and G2, so the product is joined on s when
 * _suraa_dev_mv returns (asynchronous, like every product: synchronize s to read y). A matrix
 * with one non-empty group runs it on s alone (no events). Every kernel writes y[perm[k]] of
 * its sorted rows k: the groups' rows are disjoint, so the streams never touch the same y.
 *  G3 short rows   T lanes per row (T = 1: a thread per row, the paper's scalar kernel; T = 2, 4,
 *                  ... from the mean length: sub-warp shuffle sums), warp-uniform row loop.
 *  G2 vector       Y threads per row, Y = 32..1024 a multiple of 32 (formats/suraa.h's rule),
 *                  blocks of max(Y, 256) threads (256/Y rows per block when Y < 256): the lanes
 *                  stride through the row (coalesced), warp shuffle sums starting at 16 with the
 *                  full mask, then the Y/32 warp partials of a row added through shared memory
 *                  between two __syncthreads (the paper's Algorithm 6 corrected: NOTES.md).
 *  G1 long rows    two builds, chosen at compile time:
 *   - SPMV_SURAA_DP defined (dynamic parallelism; needs relocatable device code, see below):
 *     a parent kernel, a thread per G1 row, launches one child grid per row into the device
 *     runtime's fire-and-forget stream: ceil(len/2048) blocks of 256 threads (one block of
 *     32..256 threads for a row of <= 2048 entries), each block a chunk of 2048 entries with a
 *     block reduction (warp shuffles, then the warps' partials in shared memory); a one-chunk
 *     row is written directly (alpha*sum + beta*y, the row's own y, not y[0] as in the paper's
 *     Algorithm 4), a longer row's y is first set to beta*y by the parent thread (visible to the
 *     child: written before the launch) and its chunks add with atomics. Rows of <= 32 entries
 *     (the tail of a G1 segment) are done by the parent thread itself. If a launch fails (the
 *     pending-launch pool, 2048 by default, is full) the parent thread does the row alone, so
 *     the result never depends on the pool. A parent grid completes only when its children
 *     have: the event recorded after it on the G1 stream joins them.
 *   - default (no -rdc): the same chunks from the host: chunk c of the G1 rows (prefix counts
 *     cptr[g1_end+1], uploaded) is one block of 256 threads of one grid-wide kernel (grid-stride
 *     over the chunks, the row found by binary search in cptr); rows of several chunks have their
 *     y prepared by a small kernel first (same stream) and add with atomics.
 * Compile lines (docs/DESIGN.md "CUDA"):
 *   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 app.cu               G1 grid-wide
 *   nvcc -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -rdc=true -DSPMV_SURAA_DP app.cu -lcudadevrt
 *                                                                                 G1 by child grids
 *   (separate compilation: nvcc -rdc=true -DSPMV_SURAA_DP -c a.cu; nvcc -rdc=true a.o ... -lcudadevrt;
 *   every translation unit including spmv_cuda.cuh must agree on SPMV_SURAA_DP).
 * y is never read when beta == 0. Memory: cudaMalloc only; every CUDA call's error is a status;
 * one object must not run two products at once (its streams and events are its own). */

#ifndef SPMV_CUDA_SURAA_COMMON
#define SPMV_CUDA_SURAA_COMMON
#if defined(SPMV_SURAA_DP) && !defined(SPMV_CUDA_EMULATE) && !defined(__CUDACC_RDC__)
#error "SPMV_SURAA_DP (dynamic parallelism) needs relocatable device code: nvcc -rdc=true ... -lcudadevrt"
#endif
#define SPMV_SURAA_CHUNK 2048   /* entries per block of a G1 row */
#define SPMV_SURAA_LBLOCK 256   /* threads per block of a G1 chunk */
#define SPMV_SURAA_SERIAL 32    /* DP: G1 rows this short are done by the parent thread */
#if defined(SPMV_SURAA_DP)
#define SPMV_SURAA_HAS_DP 1
#else
#define SPMV_SURAA_HAS_DP 0
#endif

/* Sum of v over the block (every thread must call it; valid in thread 0). */
template <typename T> __device__ __forceinline__ T spmv_cuda__suraa_block_sum(T v) {
    __shared__ T part[32];
    const int lane = spmv_cuda_lane(), warp = (int)(threadIdx.x >> 5), nw = (int)((blockDim.x + 31) >> 5);
    T s = T(0);
    v = spmv_cuda_warp_sum<32>(v);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 0; w < nw; w++) s += part[w];
    __syncthreads(); /* part is reused by the next call */
    return s;
}

/* sum of row entries [k0, k1), threads of the block striding */
template <typename T, typename I, typename V = T>
__device__ __forceinline__ T spmv_cuda__suraa_chunk(int64_t k0, int64_t k1, const I *__restrict__ ci,
                                                    const V *__restrict__ val, const T *__restrict__ x) {
    T s0 = T(0), s1 = T(0);
    int64_t k = k0 + threadIdx.x;
    for (; k + blockDim.x < k1; k += 2 * (int64_t)blockDim.x) { /* two loads in flight per thread */
        s0 += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
        s1 += spmv_cuda_tv<T>(val[k + blockDim.x]) * x[ci[k + blockDim.x]];
    }
    if (k < k1) s0 += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
    return s0 + s1;
}

/* G3: L lanes per row (L = 1, 2, 4, 8, 16), sorted rows [r0, r1) */
template <typename T, typename I, typename V = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__suraa_short(int64_t r0, int64_t r1, int L, const I *__restrict__ rp, const I *__restrict__ ci,
                           const V *__restrict__ val, const I *__restrict__ perm, T alpha, const T *__restrict__ x,
                           T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane(), sub = lane & (L - 1);
    const int64_t rpw = 32 / L, nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = r0 + (spmv_cuda_gtid() >> 5) * rpw; base < r1; base += nwarps * rpw) { /* warp-uniform */
        const int64_t r = base + lane / L;
        T s = T(0);
        if (r < r1) {
            const int64_t k1 = (int64_t)rp[r + 1];
            for (int64_t k = (int64_t)rp[r] + sub; k < k1; k += L) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
        }
        for (int o = L >> 1; o > 0; o >>= 1) s += __shfl_down_sync(SPMV_CUDA_FULL_MASK, s, o, L);
        if (sub == 0 && r < r1) spmv_cuda_axpby(y + perm[r], alpha, s, beta);
    }
}

/* G2: Y threads per row (a multiple of 32 dividing the block), sorted rows [r0, r1) */
template <typename T, typename I, typename V = T>
__global__ void __launch_bounds__(1024)
    spmv_cuda__suraa_vector(int64_t r0, int64_t r1, int Y, const I *__restrict__ rp, const I *__restrict__ ci,
                            const V *__restrict__ val, const I *__restrict__ perm, T alpha, const T *__restrict__ x,
                            T beta, T *__restrict__ y) {
    __shared__ T part[32];
    const int tid = (int)threadIdx.x, lane = tid & 31, warp = tid >> 5, sub = tid % Y, grp = tid / Y;
    const int wpr = Y >> 5, rpb = (int)blockDim.x / Y;
    for (int64_t base = r0 + (int64_t)blockIdx.x * rpb; base < r1; base += (int64_t)gridDim.x * rpb) { /* block-uniform */
        const int64_t r = base + grp;
        T s0 = T(0), s1 = T(0);
        if (r < r1) {
            const int64_t k1 = (int64_t)rp[r + 1];
            int64_t k = (int64_t)rp[r] + sub;
            for (; k + Y < k1; k += 2 * (int64_t)Y) {
                s0 += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
                s1 += spmv_cuda_tv<T>(val[k + Y]) * x[ci[k + Y]];
            }
            if (k < k1) s0 += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
        }
        s0 = spmv_cuda_warp_sum<32>(s0 + s1);
        if (wpr == 1) {
            if (lane == 0 && r < r1) spmv_cuda_axpby(y + perm[r], alpha, s0, beta);
        } else {
            if (lane == 0) part[warp] = s0;
            __syncthreads();
            if (sub == 0 && r < r1) {
                T t = T(0);
                for (int w = 0; w < wpr; w++) t += part[grp * wpr + w];
                spmv_cuda_axpby(y + perm[r], alpha, t, beta);
            }
            __syncthreads();
        }
    }
}

/* G1 without dynamic parallelism: y = beta*y of the rows of several chunks */
template <typename T, typename I>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__suraa_long_prep(int64_t g1, const int64_t *__restrict__ cptr, const I *__restrict__ perm, T beta,
                               T *__restrict__ y) {
    for (int64_t r = spmv_cuda_gtid(); r < g1; r += spmv_cuda_gsize())
        if (cptr[r + 1] - cptr[r] > 1) y[perm[r]] = beta == T(0) ? T(0) : beta * y[perm[r]];
}
/* G1 without dynamic parallelism: a block per chunk of SPMV_SURAA_CHUNK entries */
template <typename T, typename I, typename V = T>
__global__ void __launch_bounds__(SPMV_SURAA_LBLOCK)
    spmv_cuda__suraa_long(int64_t g1, const int64_t *__restrict__ cptr, const I *__restrict__ rp,
                          const I *__restrict__ ci, const V *__restrict__ val, const I *__restrict__ perm, T alpha,
                          const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int64_t nchunk = cptr[g1];
    for (int64_t c = blockIdx.x; c < nchunk; c += gridDim.x) { /* block-uniform */
        int64_t lo = 0, hi = g1 - 1;
        while (lo < hi) { /* the row of chunk c: the last r with cptr[r] <= c */
            const int64_t mid = (lo + hi + 1) >> 1;
            if (cptr[mid] <= c) lo = mid;
            else hi = mid - 1;
        }
        const int64_t k0 = (int64_t)rp[lo] + (c - cptr[lo]) * SPMV_SURAA_CHUNK, ke = (int64_t)rp[lo + 1];
        const int64_t k1 = k0 + SPMV_SURAA_CHUNK < ke ? k0 + SPMV_SURAA_CHUNK : ke;
        const T s = spmv_cuda__suraa_block_sum(spmv_cuda__suraa_chunk(k0, k1, ci, val, x));
        if (threadIdx.x == 0) {
            if (cptr[lo + 1] - cptr[lo] == 1) spmv_cuda_axpby(y + perm[lo], alpha, s, beta);
            else atomicAdd(y + perm[lo], alpha * s);
        }
    }
}

#if defined(SPMV_SURAA_DP)
/* G1 child grid: the entries [k0, k1) of one row, chunks of SPMV_SURAA_CHUNK per block; yr is
 * the row's y (prepared to beta*y by the parent when add is set) */
template <typename T, typename I, typename V = T>
__global__ void __launch_bounds__(SPMV_SURAA_LBLOCK)
    spmv_cuda__suraa_child(int64_t k0, int64_t k1, const I *__restrict__ ci, const V *__restrict__ val, T alpha,
                           const T *__restrict__ x, T beta, T *yr, int add) {
    for (int64_t c0 = k0 + (int64_t)blockIdx.x * SPMV_SURAA_CHUNK; c0 < k1;
         c0 += (int64_t)gridDim.x * SPMV_SURAA_CHUNK) { /* block-uniform */
        const int64_t c1 = c0 + SPMV_SURAA_CHUNK < k1 ? c0 + SPMV_SURAA_CHUNK : k1;
        const T s = spmv_cuda__suraa_block_sum(spmv_cuda__suraa_chunk(c0, c1, ci, val, x));
        if (threadIdx.x == 0) {
            if (add) atomicAdd(yr, alpha * s);
            else spmv_cuda_axpby(yr, alpha, s, beta);
        }
    }
}
/* G1 parent: a thread per row, one child grid per row (fire-and-forget stream) */
template <typename T, typename I, typename V = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__suraa_parent(int64_t g1, const I *__restrict__ rp, const I *__restrict__ ci, const V *__restrict__ val,
                            const I *__restrict__ perm, T alpha, const T *__restrict__ x, T beta, T *y) {
    for (int64_t r = spmv_cuda_gtid(); r < g1; r += spmv_cuda_gsize()) { /* no shuffles, no barriers */
        const int64_t k0 = (int64_t)rp[r], k1 = (int64_t)rp[r + 1], len = k1 - k0;
        T *yr = y + perm[r];
        int launched = 0;
        if (len > SPMV_SURAA_SERIAL) {
            const int64_t nch = (len + SPMV_SURAA_CHUNK - 1) / SPMV_SURAA_CHUNK;
            const int64_t grid = nch < SPMV_CUDA_MAX_GRID ? nch : SPMV_CUDA_MAX_GRID;
            const int64_t want = ((len + 7) / 8 + 31) / 32 * 32; /* ~8 entries per thread */
            const int bs = nch > 1 || want > SPMV_SURAA_LBLOCK ? SPMV_SURAA_LBLOCK : (int)want;
            if (nch > 1) *yr = beta == T(0) ? T(0) : beta * *yr; /* before the launch: the child sees it */
            SPMV_CUDA_LAUNCH(grid, bs, cudaStreamFireAndForget, spmv_cuda__suraa_child<T, I, V>)(
                k0, k1, ci, val, alpha, x, beta, yr, nch > 1 ? 1 : 0);
            launched = cudaGetLastError() == cudaSuccess;
            if (!launched && nch > 1) { /* no child: the thread adds the row to the prepared y */
                T s = T(0);
                for (int64_t k = k0; k < k1; k++) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
                *yr += alpha * s;
                launched = 1;
            }
        }
        if (!launched) {
            T s = T(0);
            for (int64_t k = k0; k < k1; k++) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
            spmv_cuda_axpby(yr, alpha, s, beta);
        }
    }
}
#endif
#endif /* SPMV_CUDA_SURAA_COMMON */

typedef struct SPMV_NAME(suraa_dev) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col_idx, *perm; /* device: the permuted CSR and perm (NULL when empty) */
    SPMV_T *val;
    int64_t *cptr;                    /* device, g1_end+1: G1 chunk prefix (grid-wide build only) */
    SPMV_I seg_rows, nseg, g1_end, g2_end;
    int nrun;
    SPMV_I run_row[SPMV_SURAA_MAX_RUNS + 1];
    int run_group[SPMV_SURAA_MAX_RUNS];
    int run_lanes[SPMV_SURAA_MAX_RUNS];
    int64_t g1_chunks;                /* G1 chunks of the grid-wide kernel */
    int g1_multi;                     /* some G1 row has several chunks */
    double fd_width;
    cudaStream_t s1, s2;              /* G1, G2 streams (G3 runs on the caller's) */
    cudaEvent_t fork, join1, join2;
    spmv_suraa_params params;
} SPMV_NAME(suraa_dev);

/* Frees the device arrays, streams and events, zeroes *D (safe on a zeroed D). */
static inline spmv_status SPMV_NAME(suraa_dev_free)(SPMV_NAME(suraa_dev) *D) {
    spmv_status st = SPMV_OK, s2;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->col_idx, &st);
    spmv_cuda_release(&D->perm, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->cptr, &st);
    if (D->s1 && (s2 = spmv_cuda_status(cudaStreamDestroy(D->s1))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->s2 && (s2 = spmv_cuda_status(cudaStreamDestroy(D->s2))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->fork && (s2 = spmv_cuda_status(cudaEventDestroy(D->fork))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->join1 && (s2 = spmv_cuda_status(cudaEventDestroy(D->join1))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->join2 && (s2 = spmv_cuda_status(cudaEventDestroy(D->join2))) != SPMV_OK && st == SPMV_OK) st = s2;
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes of the matrix: the host layout's (spmv_<tag>_suraa_bytes) + the G1 chunk prefix. */
static inline size_t SPMV_NAME(suraa_dev_bytes)(const SPMV_NAME(suraa_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           (size_t)D->nrows * sizeof(SPMV_I) + (D->cptr ? ((size_t)D->g1_end + 1) * sizeof(int64_t) : 0);
}

/* Copies host SURAA H to the device (ordered on s, waits for the copies), creates the G1/G2
 * streams and the join events. On failure everything is released and *D zeroed. */
static inline spmv_status SPMV_NAME(suraa_to_device)(SPMV_NAME(suraa_dev) *D, const SPMV_NAME(suraa) *H,
                                                     cudaStream_t s = 0) {
    spmv_status st = SPMV_OK;
    int64_t *hc = NULL, r;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!H || H->nrows < 0 || H->nnz < 0 || (H->nrows > 0 && (!H->row_ptr || !H->perm)) ||
        (H->nnz > 0 && (!H->col_idx || !H->val)) || H->nrun < 0 || H->nrun > SPMV_SURAA_MAX_RUNS ||
        H->g1_end < 0 || H->g1_end > H->g2_end || H->g2_end > H->nrows)
        return SPMV_ERR_ARG;
    D->nrows = H->nrows;
    D->ncols = H->ncols;
    D->nnz = H->nnz;
    D->seg_rows = H->seg_rows;
    D->nseg = H->nseg;
    D->g1_end = H->g1_end;
    D->g2_end = H->g2_end;
    D->nrun = H->nrun;
    memcpy(D->run_row, H->run_row, sizeof D->run_row);
    memcpy(D->run_group, H->run_group, sizeof D->run_group);
    memcpy(D->run_lanes, H->run_lanes, sizeof D->run_lanes);
    D->fd_width = H->fd_width;
    D->params = H->params;
    if (!SPMV_SURAA_HAS_DP && H->g1_end > 0) { /* the G1 chunks of the grid-wide kernel */
        hc = SPMV_ALLOC_N(int64_t, (size_t)H->g1_end + 1);
        if (!hc) st = SPMV_ERR_ALLOC;
        else hc[0] = 0;
        for (r = 0; hc && r < (int64_t)H->g1_end; r++) {
            const int64_t len = (int64_t)(H->row_ptr[r + 1] - H->row_ptr[r]);
            const int64_t n = len > SPMV_SURAA_CHUNK ? (len + SPMV_SURAA_CHUNK - 1) / SPMV_SURAA_CHUNK : 1;
            hc[r + 1] = hc[r] + n;
            if (n > 1) D->g1_multi = 1;
        }
        if (hc) D->g1_chunks = hc[H->g1_end];
    }
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->row_ptr, H->row_ptr, (size_t)H->nrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col_idx, H->col_idx, (size_t)H->nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, H->val, (size_t)H->nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->perm, H->perm, (size_t)H->nrows, s);
    if (st == SPMV_OK && hc) st = spmv_cuda_upload(&D->cptr, hc, (size_t)H->g1_end + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* hc is freed next */
    spmv__free(hc);
    if (st == SPMV_OK && H->nrows > 0) { /* the groups' streams and the fork/join events */
        st = spmv_cuda_status(cudaStreamCreateWithFlags(&D->s1, cudaStreamNonBlocking));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamCreateWithFlags(&D->s2, cudaStreamNonBlocking));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventCreateWithFlags(&D->fork, cudaEventDisableTiming));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventCreateWithFlags(&D->join1, cudaEventDisableTiming));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventCreateWithFlags(&D->join2, cudaEventDisableTiming));
    }
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(suraa_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device (x, y device pointers), the three groups on their
 * streams, joined on s before returning; asynchronous with respect to the host. */
static inline spmv_status SPMV_NAME(suraa_dev_mv)(const SPMV_NAME(suraa_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                  SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    const int has1 = D && D->g1_end > 0, has2 = D && D->g2_end > D->g1_end, has3 = D && D->nrows > D->g2_end;
    const int split = has1 + has2 + has3 > 1;
    cudaStream_t st1 = s, st2 = s;
    spmv_status st = SPMV_OK;
    int i;
    if (!D || (D->nrows > 0 && (!y || !D->row_ptr || !D->perm)) || (D->nnz > 0 && (!x || !D->col_idx || !D->val)))
        return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (has1 && !SPMV_SURAA_HAS_DP && !D->cptr) return SPMV_ERR_ARG;
    if (split) { /* fork: the G1 and G2 streams start after what s holds so far */
        if (!D->s1 || !D->s2 || !D->fork || !D->join1 || !D->join2) return SPMV_ERR_ARG;
        st1 = D->s1;
        st2 = D->s2;
        st = spmv_cuda_status(cudaEventRecord(D->fork, s));
        if (st == SPMV_OK && has1) st = spmv_cuda_status(cudaStreamWaitEvent(st1, D->fork, 0));
        if (st == SPMV_OK && has2) st = spmv_cuda_status(cudaStreamWaitEvent(st2, D->fork, 0));
        if (st != SPMV_OK) return st;
    }
    for (i = 0; i < D->nrun && st == SPMV_OK; i++) { /* G1 first: the longest work starts first */
        const int64_t r0 = (int64_t)D->run_row[i], r1 = (int64_t)D->run_row[i + 1], n = r1 - r0;
        const int L = D->run_lanes[i];
        if (D->run_group[i] == 1) {
#if defined(SPMV_SURAA_DP)
            SPMV_CUDA_LAUNCH(spmv_cuda_grid(n, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, st1, spmv_cuda__suraa_parent<SPMV_Y, SPMV_I, SPMV_T>)(
                n, D->row_ptr, D->col_idx, D->val, D->perm, alpha, x, beta, y);
            st = spmv_cuda_status(cudaGetLastError());
#else
            if (D->g1_multi) {
                SPMV_CUDA_LAUNCH(spmv_cuda_grid(n, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, st1, spmv_cuda__suraa_long_prep<SPMV_Y, SPMV_I>)(
                    n, D->cptr, D->perm, beta, y);
                st = spmv_cuda_status(cudaGetLastError());
            }
            if (st == SPMV_OK) {
                SPMV_CUDA_LAUNCH(spmv_cuda_grid(D->g1_chunks, 1), SPMV_SURAA_LBLOCK, st1, spmv_cuda__suraa_long<SPMV_Y, SPMV_I, SPMV_T>)(
                    n, D->cptr, D->row_ptr, D->col_idx, D->val, D->perm, alpha, x, beta, y);
                st = spmv_cuda_status(cudaGetLastError());
            }
#endif
        } else if (D->run_group[i] == 2) {
            const int bs = L > 256 ? L : 256;
            if (L < 32 || L > 1024 || (L & (L - 1))) return SPMV_ERR_ARG;
            SPMV_CUDA_LAUNCH(spmv_cuda_grid(n * L, bs), bs, st2, spmv_cuda__suraa_vector<SPMV_Y, SPMV_I, SPMV_T>)(
                r0, r1, L, D->row_ptr, D->col_idx, D->val, D->perm, alpha, x, beta, y);
            st = spmv_cuda_status(cudaGetLastError());
        } else {
            if (L < 1 || L > 16 || (L & (L - 1))) return SPMV_ERR_ARG;
            SPMV_CUDA_LAUNCH(spmv_cuda_grid(n * L, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__suraa_short<SPMV_Y, SPMV_I, SPMV_T>)(
                r0, r1, L, D->row_ptr, D->col_idx, D->val, D->perm, alpha, x, beta, y);
            st = spmv_cuda_status(cudaGetLastError());
        }
    }
    if (split) { /* join: s continues after G1 and G2 */
        spmv_status js = SPMV_OK;
        if (has1) js = spmv_cuda_status(cudaEventRecord(D->join1, st1));
        if (js == SPMV_OK && has1) js = spmv_cuda_status(cudaStreamWaitEvent(s, D->join1, 0));
        if (js == SPMV_OK && has2) js = spmv_cuda_status(cudaEventRecord(D->join2, st2));
        if (js == SPMV_OK && has2) js = spmv_cuda_status(cudaStreamWaitEvent(s, D->join2, 0));
        if (st == SPMV_OK) st = js;
    }
    return st;
}

/* ---- registry contract (row suraa) ---- */
#ifndef SPMV_CUDA_SURAA_REG
#define SPMV_CUDA_SURAA_REG
static inline spmv_suraa_params spmv_suraa_dev_params_default(void) { return spmv_suraa_params_default(); }
#endif
/* Host CSR A -> SURAA layout on the host (csr_check first) -> device. p: NULL for the defaults. */
static inline spmv_status SPMV_NAME(suraa_dev_from_csr)(SPMV_NAME(suraa_dev) *D, const SPMV_NAME(csr) *A,
                                                        const spmv_suraa_params *p, cudaStream_t s = 0) {
    SPMV_NAME(suraa) H;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    st = SPMV_NAME(suraa_from_csr)(&H, A, p, NULL);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(suraa_to_device)(D, &H, s);
    SPMV_NAME(suraa_free)(&H);
    return st;
}
/* "seg=R,g1=a,g2=b,g3=c,dp=0|1": rows per segment and rows per group */
static inline void SPMV_NAME(suraa_dev_params_str)(const SPMV_NAME(suraa_dev) *D, char *buf, size_t len) {
    char tmp[160];
    if (!len) return;
    buf[0] = 0;
    if (!D) return;
    snprintf(tmp, sizeof tmp, "seg=%lld,g1=%lld,g2=%lld,g3=%lld,dp=%d", (long long)D->seg_rows, (long long)D->g1_end,
             (long long)(D->g2_end - D->g1_end), (long long)(D->nrows - D->g2_end), SPMV_SURAA_HAS_DP);
    {
        size_t n = strlen(tmp); /* truncated to len (a copy: no format-truncation warnings) */
        if (n >= len) n = len - 1;
        memcpy(buf, tmp, n);
        buf[n] = 0;
    }
}
