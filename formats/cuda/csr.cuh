/* CUDA CSR — the host CSR (formats/csr.h) copied to device memory, same layout:
 * row_ptr[nrows+1], col_idx[nnz], val[nnz], columns sorted within a row.
 * Template header: included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh (through formats/registry.h). No include guard on purpose.
 *
 * Kernels (D->algo, set to the default SPMV_CSR_DEV_VECTOR by _csr_to_device):
 *  SPMV_CSR_DEV_SCALAR  one thread per row (grid-stride loop over rows). Good for very
 *                       short rows; uncoalesced on long ones.
 *  SPMV_CSR_DEV_VECTOR  D->threads_per_row (a power of two, 2..32) lanes per row: the
 *                       lanes stride through the row (coalesced loads of val/col_idx),
 *                       then a warp-shuffle reduction. _csr_to_device picks it from the
 *                       average row length (spmv_csr_dev_auto_tpr: about avg/8 lanes);
 *                       set it after the upload to override, 0 = pick again at each mv.
 *  SPMV_CSR_DEV_MERGE   merge-path load balancing (Merrill & Garland's idea): the rows'
 *                       ends and the nonzeros form one list of nrows+nnz items, cut into
 *                       tiles of SPMV_CUDA_MERGE_TILE items, one block per tile, so every
 *                       block does the same work whatever the row lengths (one row of
 *                       millions of entries is shared by hundreds of blocks). A block
 *                       finds its tile's start by binary search, stages the tile's
 *                       products x[col]*val (coalesced) and row ends in shared memory;
 *                       each thread walks SPMV_CUDA_MERGE_IPT items, writes the rows that
 *                       end in its part, and a block-wide reduce-by-key scan hands the
 *                       partial row sums from thread to thread. The partial sum of the
 *                       row still open at a tile's end goes to D->carry_*; a second
 *                       small kernel adds those (atomically: one long row gets many).
 *                       The carry arrays are allocated by _csr_to_device, so one object
 *                       must not run two merge products at once (two streams).
 *  SPMV_CSR_DEV_SPLIT   (params algo=split) no atomics on skewed rows: the vector kernel on
 *                       the rows up to D->long_len (8x the mean + 100; the long rows are
 *                       listed at upload), the long rows in chunks of SPMV_CUDA_LONG_CHUNK
 *                       entries, one block each writing its chunk's sum to D->long_part,
 *                       then one thread per long row adds them in chunk order: the same
 *                       bits every run (the deterministic selection's csr on skewed
 *                       matrices). Like merge, one product at a time per object.
 * All four write y[r] = alpha*dot + beta*y[r] and never read y when beta == 0; indices are
 * widened to 64 bits inside the kernels, so int32 counts near INT32_MAX do not wrap.
 * Memory: cudaMalloc only (never managed memory). Everything runs on the current device. */

#ifndef SPMV_CUDA_CSR_COMMON
#define SPMV_CUDA_CSR_COMMON
typedef enum spmv_csr_dev_algo {
    SPMV_CSR_DEV_VECTOR = 0,
    SPMV_CSR_DEV_SCALAR = 1,
    SPMV_CSR_DEV_MERGE = 2,
    SPMV_CSR_DEV_SPLIT = 3
} spmv_csr_dev_algo;

/* merge-path tiles: SPMV_CUDA_MERGE_THREADS threads x SPMV_CUDA_MERGE_IPT items */
#ifndef SPMV_CUDA_MERGE_THREADS
#define SPMV_CUDA_MERGE_THREADS 128
#endif
#ifndef SPMV_CUDA_MERGE_IPT
#define SPMV_CUDA_MERGE_IPT 8
#endif
#define SPMV_CUDA_MERGE_TILE (SPMV_CUDA_MERGE_THREADS * SPMV_CUDA_MERGE_IPT)
/* _mm and _mvt split the long rows (csr_dev.long_len) into chunks of this many entries, one
 * block each: one thread per row and vector took 0.23 s for 8 vectors on gen:circuit5m (H100,
 * 2026-11-26), two rows of ~1M entries walked by one thread each */
#ifndef SPMV_CUDA_LONG_CHUNK
#define SPMV_CUDA_LONG_CHUNK 4096
#endif
static_assert(SPMV_CUDA_MERGE_THREADS % 32 == 0 && SPMV_CUDA_MERGE_THREADS <= 1024,
              "SPMV_CUDA_MERGE_THREADS: a multiple of 32, at most 1024");

/* Tiles of the merge kernel for nrows + nnz items. */
static inline int64_t spmv_csr_dev_merge_tiles(int64_t nrows, int64_t nnz) {
    return (nrows + nnz + SPMV_CUDA_MERGE_TILE - 1) / SPMV_CUDA_MERGE_TILE;
}

/* Lanes per row for the vector kernel: the smallest power of two >= average row length / 8,
 * clamped to 2..32, so each lane has several loads in flight. Measured on an H200
 * (2026-11-22, double, --tune over 2..32): the search picked exactly this on the 27-point
 * stencil (avg 26 -> 4 lanes), pde100 and band (avg 7 -> 2) and fem3d (avg 61 -> 8); the
 * older rule (lanes >= avg: 32 on the stencil) ran 1.9x slower there, latency-bound. */
static inline int spmv_csr_dev_auto_tpr(int64_t nrows, int64_t nnz) {
    int64_t avg = nrows > 0 ? nnz / nrows + (nnz % nrows != 0) : 0;
    int t = 2;
    while (t < 32 && 8 * (int64_t)t < avg) t <<= 1;
    return t;
}
static inline int spmv_csr_dev__tpr_ok(int t) { return t == 2 || t == 4 || t == 8 || t == 16 || t == 32; }

/* thread per row */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_scalar(int64_t nrows, const I *__restrict__ rp, const I *__restrict__ ci,
                          const A *__restrict__ val, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y) {
    for (int64_t r = spmv_cuda_gtid(); r < nrows; r += spmv_cuda_gsize()) {
        const int64_t k1 = (int64_t)rp[r + 1];
        T s = T(0);
        for (int64_t k = (int64_t)rp[r]; k < k1; k++) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
        spmv_cuda_axpby(y + r, alpha, s, beta);
    }
}

/* TPR lanes per row, 32/TPR rows per warp per step. The row loop depends only on the
 * warp index, so all 32 lanes reach the shuffles together (full mask is correct). */
template <typename T, typename I, int TPR, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_vector(int64_t nrows, const I *__restrict__ rp, const I *__restrict__ ci,
                          const A *__restrict__ val, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y,
                          int64_t long_len) {
    const int lane = spmv_cuda_lane();
    const int sub = lane & (TPR - 1);
    const int64_t rows_per_warp = 32 / TPR;
    const int64_t warp = spmv_cuda_gtid() >> 5, nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = warp * rows_per_warp; base < nrows; base += nwarps * rows_per_warp) {
        const int64_t r = base + lane / TPR;
        T s = T(0);
        /* split: a long row (above long_len) is summed by _csr_long_part/_finish */
        const int skip = r < nrows && long_len > 0 && (int64_t)(rp[r + 1] - rp[r]) > long_len;
        if (r < nrows && !skip) {
            const int64_t k1 = (int64_t)rp[r + 1];
            /* unrolled: several independent col->x load pairs in flight per lane (the kernel
               is latency-bound on short rows otherwise) */
#pragma unroll 4
            for (int64_t k = (int64_t)rp[r] + sub; k < k1; k += TPR) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
        }
        s = spmv_cuda_warp_sum<TPR>(s);
        if (sub == 0 && r < nrows && !skip) spmv_cuda_axpby(y + r, alpha, s, beta);
    }
}


/* Merge-path search: the split of diagonal d between the list of row ends re[0..nr)
 * and the nonzeros 0..nk (nonzero j's value is j, relative to the same origin `base`):
 * returns i = row ends consumed, so d - i nonzeros consumed. A row end re[i] is taken
 * before nonzero j when re[i] - base <= j. */
template <typename I>
__device__ __forceinline__ int64_t spmv_cuda__merge_search(int64_t d, const I *re, int64_t base, int64_t nr,
                                                           int64_t nk) {
    int64_t lo = d - nk > 0 ? d - nk : 0, hi = d < nr ? d : nr;
    while (lo < hi) {
        const int64_t p = (lo + hi) >> 1;
        if ((int64_t)re[p] - base <= d - p - 1) lo = p + 1;
        else hi = p;
    }
    return lo;
}

/* One block per tile of SPMV_CUDA_MERGE_TILE merge items (see the header comment),
 * grid-strided over the tiles. */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_MERGE_THREADS)
    spmv_cuda__csr_merge(int64_t nrows, int64_t nnz, const I *__restrict__ rp, const I *__restrict__ ci,
                         const A *__restrict__ val, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y,
                         int64_t *__restrict__ carry_row, T *__restrict__ carry_val,
                         const int64_t *__restrict__ tile_row) {
    constexpr int NT = SPMV_CUDA_MERGE_THREADS, IPT = SPMV_CUDA_MERGE_IPT, TILE = NT * IPT, NW = NT / 32;
    __shared__ I s_re[TILE];  /* row ends of the rows ending in this tile */
    __shared__ T s_p[TILE];   /* products of the tile's nonzeros */
    __shared__ int64_t s_pt[4]; /* r0, k0, r1, k1 */
    __shared__ int64_t s_wk[NW];
    __shared__ T s_wv[NW];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int64_t total = nrows + nnz, ntiles = (total + TILE - 1) / TILE;
    for (int64_t tile = blockIdx.x; tile < ntiles; tile += gridDim.x) { /* block-uniform */
        if (tid < 2) { /* the tile's two ends on the merge path: precomputed at upload (tile_row),
                          else searched in global memory (~log2(nrows) dependent loads) */
            int64_t d = (tile + tid) * TILE;
            if (d > total) d = total;
            const int64_t i = tile_row ? tile_row[tile + tid] : spmv_cuda__merge_search<I>(d, rp + 1, 0, nrows, nnz);
            s_pt[2 * tid] = i;
            s_pt[2 * tid + 1] = d - i;
        }
        __syncthreads();
        const int64_t r0 = s_pt[0], k0 = s_pt[1], r1 = s_pt[2], k1 = s_pt[3];
        const int nr = (int)(r1 - r0), nk = (int)(k1 - k0);
        for (int k = tid; k < nk; k += NT) s_p[k] = spmv_cuda_tv<T>(val[k0 + k]) * x[ci[k0 + k]];
        for (int i = tid; i < nr; i += NT) s_re[i] = rp[r0 + i + 1];
        __syncthreads();

        /* this thread's part of the tile: items [d, d_end) */
        const int d = tid * IPT < nr + nk ? tid * IPT : nr + nk;
        const int d_end = d + IPT < nr + nk ? d + IPT : nr + nk;
        int i = (int)spmv_cuda__merge_search<I>(d, s_re, k0, nr, nk), j = d - i;
        const int64_t start_row = r0 + i;
        T acc = T(0), first = T(0);
        int has_end = 0;
        for (int it = d; it < d_end; it++) {
            if (i < nr && (int64_t)s_re[i] - k0 <= j) { /* row r0+i ends */
                if (!has_end) first = acc; /* may continue a row begun before: finished below */
                else spmv_cuda_axpby(y + r0 + i, alpha, acc, beta);
                has_end = 1;
                acc = T(0);
                i++;
            } else {
                acc += s_p[j++];
            }
        }
        /* reduce-by-key inclusive scan of (row still open at the thread's end, acc);
           keys never decrease from thread to thread, so equal keys form one run */
        int64_t key = r0 + i;
        T v = acc;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int64_t pk = __shfl_up_sync(SPMV_CUDA_FULL_MASK, key, o);
            const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, v, o);
            if (lane >= o && pk == key) v += pv;
        }
        if (lane == 31) {
            s_wk[warp] = key;
            s_wv[warp] = v;
        }
        __syncthreads();
        if (warp == 0) { /* scan the warp totals the same way */
            int64_t wk = lane < NW ? s_wk[lane] : INT64_MAX;
            T wv = lane < NW ? s_wv[lane] : T(0);
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const int64_t pk = __shfl_up_sync(SPMV_CUDA_FULL_MASK, wk, o);
                const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, wv, o);
                if (lane >= o && pk == wk) wv += pv;
            }
            if (lane < NW) s_wv[lane] = wv;
        }
        __syncthreads();
        if (warp > 0 && s_wk[warp - 1] == key) v += s_wv[warp - 1];
        /* what the threads before this one left for the row this thread started in */
        int64_t ck = __shfl_up_sync(SPMV_CUDA_FULL_MASK, key, 1);
        T cv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, v, 1);
        if (lane == 0) {
            ck = warp > 0 ? s_wk[warp - 1] : -1;
            cv = warp > 0 ? s_wv[warp - 1] : T(0);
        }
        if (has_end) {
            if (ck == start_row) first += cv;
            spmv_cuda_axpby(y + start_row, alpha, first, beta);
        }
        if (tid == NT - 1) { /* the row open at the tile's end: finished by a later tile */
            const int has_part = r1 < nrows && k1 > (int64_t)rp[r1];
            carry_row[tile] = has_part ? r1 : -1;
            carry_val[tile] = has_part ? v : T(0);
        }
        __syncthreads(); /* shared arrays are reused by the next tile */
    }
}

template <typename T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_merge_fix(int64_t ntiles, const int64_t *__restrict__ carry_row, const T *__restrict__ carry_val,
                             T alpha, T *__restrict__ y) {
    for (int64_t t = spmv_cuda_gtid(); t < ntiles; t += spmv_cuda_gsize())
        if (carry_row[t] >= 0) atomicAdd(y + carry_row[t], alpha * carry_val[t]);
}

template <typename T, typename I, int TPR, typename A>
static inline void spmv_cuda__csr_vector_launch(int64_t nrows, const I *rp, const I *ci, const A *val, T alpha,
                                                const T *x, T beta, T *y, cudaStream_t s, int64_t long_len = 0) {
    const unsigned grid = spmv_cuda_grid(nrows * TPR, SPMV_CUDA_BLOCK);
    SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csr_vector<T, I, TPR, A>)(nrows, rp, ci, val, alpha, x, beta, y,
                                                                                  long_len);
}

/* The rows longer than `len` (the merge rule's 8 x mean + 100), listed at upload, in chunks of
 * SPMV_CUDA_LONG_CHUNK entries: what the split kernel, SpMM and the transpose product hand to
 * their chunked kernels (len 0: none) */
template <typename T> struct spmv_cuda__long_rows {
    int64_t len, nlong, nchunks;
    const int64_t *rows, *chunk; /* device: the rows, the first chunk of each (nlong + 1) */
    T *part;                     /* device: the split kernel's chunk sums (nchunks) */
};
/* Chunk c of the long rows: its row and entries [*b, *e). */
template <typename I>
__device__ __forceinline__ int64_t spmv_cuda__long_chunk(int64_t c, const int64_t *__restrict__ lrow,
                                                        const int64_t *__restrict__ lch, int64_t nlong,
                                                        const I *__restrict__ rp, int64_t *b, int64_t *e) {
    int64_t lo = 0, hi = nlong - 1;
    while (lo < hi) { /* the last long row whose first chunk is <= c */
        const int64_t mid = (lo + hi + 1) >> 1;
        if (lch[mid] <= c) lo = mid;
        else hi = mid - 1;
    }
    const int64_t r = lrow[lo], end = (int64_t)rp[r + 1];
    *b = (int64_t)rp[r] + (c - lch[lo]) * SPMV_CUDA_LONG_CHUNK;
    *e = *b + SPMV_CUDA_LONG_CHUNK < end ? *b + SPMV_CUDA_LONG_CHUNK : end;
    return r;
}
/* The sum of s over the block, valid in thread 0 (s_w: blockDim/32 shared slots). Every thread
 * of the block calls it; it ends at a barrier, so s_w can be used again. */
template <typename T> __device__ __forceinline__ T spmv_cuda__block_sum(T s, T *s_w) {
    T t = 0;
    s = spmv_cuda_warp_sum<32>(s);
    if (spmv_cuda_lane() == 0) s_w[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 0; w < (int)(blockDim.x >> 5); w++) t += s_w[w];
    __syncthreads();
    return t;
}
/* split: the block sum of each chunk of the long rows into part[c] (no alpha) */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_long_part(int64_t nchunks, const int64_t *__restrict__ lrow, const int64_t *__restrict__ lch,
                             int64_t nlong, const I *__restrict__ rp, const I *__restrict__ ci,
                             const A *__restrict__ val, const T *__restrict__ x, T *__restrict__ part) {
    __shared__ T s_w[SPMV_CUDA_BLOCK / 32];
    for (int64_t c = blockIdx.x; c < nchunks; c += gridDim.x) { /* block-uniform */
        int64_t b, e;
        (void)spmv_cuda__long_chunk<I>(c, lrow, lch, nlong, rp, &b, &e);
        T s = 0;
        for (int64_t q = b + threadIdx.x; q < e; q += blockDim.x) s += spmv_cuda_tv<T>(val[q]) * x[ci[q]];
        s = spmv_cuda__block_sum<T>(s, s_w);
        if (threadIdx.x == 0) part[c] = s;
    }
}
/* split: each long row's chunk sums added in chunk order (the same bits every run) */
template <typename T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_long_finish(int64_t nlong, const int64_t *__restrict__ lrow, const int64_t *__restrict__ lch,
                               const T *__restrict__ part, T alpha, T beta, T *__restrict__ y) {
    for (int64_t l = spmv_cuda_gtid(); l < nlong; l += spmv_cuda_gsize()) {
        T s = 0;
        for (int64_t c = lch[l]; c < lch[l + 1]; c++) s += part[c];
        spmv_cuda_axpby(y + lrow[l], alpha, s, beta);
    }
}
/* Checks the arguments, launches the selected kernel, checks the launch. */
template <typename T, typename I, typename A>
static inline spmv_status spmv_cuda__csr_mv(int64_t nrows, int64_t nnz, const I *rp, const I *ci, const A *val,
                                            int algo, int tpr, int64_t *carry_row, T *carry_val,
                                            const int64_t *tile_row, const spmv_cuda__long_rows<T> &lg, T alpha,
                                            const T *x, T beta, T *y, cudaStream_t s) {
    const int split = algo == SPMV_CSR_DEV_SPLIT && lg.len > 0 && lg.nchunks > 0;
    if (nrows < 0 || nnz < 0 || (nrows > 0 && (!y || !rp)) || (nnz > 0 && (!x || !ci || !val)))
        return SPMV_ERR_ARG;
    if (algo != SPMV_CSR_DEV_VECTOR && algo != SPMV_CSR_DEV_SCALAR && algo != SPMV_CSR_DEV_MERGE &&
        algo != SPMV_CSR_DEV_SPLIT)
        return SPMV_ERR_ARG;
    if (split && (!lg.rows || !lg.chunk || !lg.part)) return SPMV_ERR_ARG;
    if (algo == SPMV_CSR_DEV_VECTOR || algo == SPMV_CSR_DEV_SPLIT) {
        if (tpr == 0) tpr = spmv_csr_dev_auto_tpr(nrows, nnz);
        if (!spmv_csr_dev__tpr_ok(tpr)) return SPMV_ERR_ARG;
    }
    if (algo == SPMV_CSR_DEV_MERGE && nrows > 0) {
        const int64_t nt = spmv_csr_dev_merge_tiles(nrows, nnz);
        if (!carry_row || !carry_val) return SPMV_ERR_ARG;
        SPMV_CUDA_LAUNCH((unsigned)(nt < SPMV_CUDA_MAX_GRID ? nt : SPMV_CUDA_MAX_GRID), SPMV_CUDA_MERGE_THREADS, s, spmv_cuda__csr_merge<T, I, A>)(
            nrows, nnz, rp, ci, val, alpha, x, beta, y, carry_row, carry_val, tile_row);
        spmv_status st = spmv_cuda_status(cudaGetLastError());
        if (st != SPMV_OK || nt == 1) return st;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(nt, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__csr_merge_fix<T>)(
            nt, carry_row, carry_val, alpha, y);
        return spmv_cuda_status(cudaGetLastError());
    }
    if (nrows == 0) return SPMV_OK; /* nothing to do, nothing launched */
    if (algo == SPMV_CSR_DEV_SCALAR) {
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(nrows, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__csr_scalar<T, I, A>)(
            nrows, rp, ci, val, alpha, x, beta, y);
    } else { /* vector; split: the vector kernel skips the long rows, then their chunks */
        const int64_t ll = split ? lg.len : 0;
        spmv_status st;
        switch (tpr) {
        case 2: spmv_cuda__csr_vector_launch<T, I, 2, A>(nrows, rp, ci, val, alpha, x, beta, y, s, ll); break;
        case 4: spmv_cuda__csr_vector_launch<T, I, 4, A>(nrows, rp, ci, val, alpha, x, beta, y, s, ll); break;
        case 8: spmv_cuda__csr_vector_launch<T, I, 8, A>(nrows, rp, ci, val, alpha, x, beta, y, s, ll); break;
        case 16: spmv_cuda__csr_vector_launch<T, I, 16, A>(nrows, rp, ci, val, alpha, x, beta, y, s, ll); break;
        default: spmv_cuda__csr_vector_launch<T, I, 32, A>(nrows, rp, ci, val, alpha, x, beta, y, s, ll); break;
        }
        if ((st = spmv_cuda_status(cudaGetLastError())) != SPMV_OK || !split) return st;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(lg.nchunks * SPMV_CUDA_BLOCK, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                         (spmv_cuda__csr_long_part<T, I, A>))(lg.nchunks, lg.rows, lg.chunk, lg.nlong, rp, ci, val, x,
                                                           lg.part);
        if ((st = spmv_cuda_status(cudaGetLastError())) != SPMV_OK) return st;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(lg.nlong, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                         (spmv_cuda__csr_long_finish<T>))(lg.nlong, lg.rows, lg.chunk, lg.part, alpha, beta, y);
    }
    return spmv_cuda_status(cudaGetLastError());
}
#endif /* SPMV_CUDA_CSR_COMMON */

typedef struct SPMV_NAME(csr_dev) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col_idx; /* device memory: nrows+1 and nnz entries (NULL when nnz == 0) */
    SPMV_T *val;               /* device memory: nnz entries */
    spmv_csr_dev_algo algo;    /* SPMV_CSR_DEV_VECTOR (default), _SCALAR or _MERGE */
    int threads_per_row;       /* vector kernel: 2, 4, 8, 16 or 32; 0 = from the average row length */
    int64_t *carry_row;        /* merge kernel scratch: one (row, partial sum) per tile */
    SPMV_Y *carry_val;
    int64_t *tile_row;         /* merge kernel: row where tile t starts on the merge path (ntiles+1),
                                  computed on the host at upload: no search at each tile's start */
    int64_t long_len;          /* rows longer than this (8 x the mean + 100) are long: the merge kernel's
                                  rule, and _mm/_mvt give them to chunked kernels; 0 = no long row */
    int64_t nlong, nlong_chunks; /* long rows, and their chunks of SPMV_CUDA_LONG_CHUNK entries */
    int64_t *long_rows;        /* device: the long rows, ascending (nlong; NULL when none) */
    int64_t *long_chunk;       /* device: first chunk of each long row (nlong + 1) */
    SPMV_Y *long_part;         /* device: split kernel's chunk sums (nlong_chunks) */
} SPMV_NAME(csr_dev);

/* Frees the device arrays (cudaFree) and zeroes *D. Safe on a zeroed or freed D (then
 * no CUDA call is made). Returns the first cudaFree error (D is zeroed anyway). */
static inline spmv_status SPMV_NAME(csr_dev_free)(SPMV_NAME(csr_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->col_idx, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->carry_row, &st);
    spmv_cuda_release(&D->carry_val, &st);
    spmv_cuda_release(&D->tile_row, &st);
    spmv_cuda_release(&D->long_rows, &st);
    spmv_cuda_release(&D->long_chunk, &st);
    spmv_cuda_release(&D->long_part, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* The matrix's device bytes (same formula as the host spmv_<tag>_csr_bytes: what a
 * product streams); the merge kernel's scratch, 16 bytes per 1024 items, is extra:
 * _csr_dev_scratch_bytes. */
static inline size_t SPMV_NAME(csr_dev_bytes)(const SPMV_NAME(csr_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T));
}
static inline size_t SPMV_NAME(csr_dev_scratch_bytes)(const SPMV_NAME(csr_dev) *D) {
    if (!D || !D->carry_row) return 0;
    return (size_t)spmv_csr_dev_merge_tiles((int64_t)D->nrows, (int64_t)D->nnz) * (2 * sizeof(int64_t) + sizeof(SPMV_Y)) +
           sizeof(int64_t);
}

/* Copies host CSR A to the current device, ordered on stream s, and waits for the copies
 * (A may be freed right after; D is usable from any stream). D->algo = VECTOR and
 * D->threads_per_row = spmv_csr_dev_auto_tpr(). On failure everything allocated is
 * freed and *D is zeroed: SPMV_ERR_ARG (NULL/inconsistent A), SPMV_ERR_NODEVICE,
 * SPMV_ERR_CUDA (allocation or copy failed; spmv_cuda_last_error() has the code). */
static inline spmv_status SPMV_NAME(csr_to_device)(SPMV_NAME(csr_dev) *D, const SPMV_NAME(csr) *A,
                                                   cudaStream_t s = 0) {
    spmv_status st;
    size_t nrp, nnz;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    st = SPMV_NAME(csr_check)(A); /* the shared validator: a malformed row_ptr would overrun a merge tile */
    if (st != SPMV_OK) return st;
    nrp = (size_t)A->nrows + 1;
    nnz = (size_t)A->nnz;
    D->nrows = A->nrows;
    D->ncols = A->ncols;
    D->nnz = A->nnz;
    st = spmv_cuda_upload(&D->row_ptr, A->row_ptr, nrp, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col_idx, A->col_idx, nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, A->val, nnz, s);
    if (st == SPMV_OK && A->nrows > 0) { /* merge scratch: small, allocated once here */
        size_t nt = (size_t)spmv_csr_dev_merge_tiles((int64_t)A->nrows, (int64_t)A->nnz), t;
        int64_t *tr = (int64_t *)malloc((nt + 1) * sizeof(int64_t));
        st = tr ? SPMV_OK : SPMV_ERR_ALLOC;
        for (t = 0; tr && t <= nt; t++) { /* the merge-path split of each tile start, as the kernel's search */
            const int64_t total = (int64_t)A->nrows + (int64_t)A->nnz;
            int64_t d = (int64_t)t * SPMV_CUDA_MERGE_TILE, lo, hi;
            if (d > total) d = total;
            lo = d - (int64_t)A->nnz > 0 ? d - (int64_t)A->nnz : 0;
            hi = d < (int64_t)A->nrows ? d : (int64_t)A->nrows;
            while (lo < hi) {
                const int64_t p = (lo + hi) >> 1;
                if ((int64_t)A->row_ptr[p + 1] <= d - p - 1) lo = p + 1;
                else hi = p;
            }
            tr[t] = lo;
        }
        if (st == SPMV_OK) st = spmv_cuda_alloc(&D->carry_row, nt);
        if (st == SPMV_OK) st = spmv_cuda_alloc(&D->carry_val, nt);
        if (st == SPMV_OK) st = spmv_cuda_upload(&D->tile_row, tr, nt + 1, s);
        if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* tr is freed next */
        free(tr);
    }
    if (st == SPMV_OK && A->nrows > 0) { /* the long rows (the merge rule's) and their chunks */
        const double lim = 8.0 * (double)A->nnz / (double)A->nrows + 100.0;
        const int64_t longest = spmv_cuda__longest_row<SPMV_I>((int64_t)A->nrows, A->row_ptr);
        if ((double)longest > lim) {
            int64_t r, nl = 0, *lr = NULL, *lc = NULL;
            D->long_len = (int64_t)lim;
            for (r = 0; r < A->nrows; r++) nl += (int64_t)(A->row_ptr[r + 1] - A->row_ptr[r]) > D->long_len;
            lr = (int64_t *)malloc(sizeof(int64_t) * (size_t)nl);
            lc = (int64_t *)malloc(sizeof(int64_t) * (size_t)(nl + 1));
            st = lr && lc ? SPMV_OK : SPMV_ERR_ALLOC;
            for (r = 0, nl = 0; st == SPMV_OK && r < A->nrows; r++) {
                const int64_t len = (int64_t)(A->row_ptr[r + 1] - A->row_ptr[r]);
                if (len <= D->long_len) continue;
                lc[nl + 1] = (nl ? lc[nl] : 0) + (len + SPMV_CUDA_LONG_CHUNK - 1) / SPMV_CUDA_LONG_CHUNK;
                lr[nl++] = r;
            }
            if (st == SPMV_OK) {
                lc[0] = 0;
                D->nlong = nl;
                D->nlong_chunks = lc[nl];
                st = spmv_cuda_upload(&D->long_rows, lr, (size_t)nl, s);
                if (st == SPMV_OK) st = spmv_cuda_upload(&D->long_chunk, lc, (size_t)nl + 1, s);
                if (st == SPMV_OK) st = spmv_cuda_alloc(&D->long_part, (size_t)lc[nl]);
                if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* lr, lc freed next */
            }
            free(lr);
            free(lc);
        }
    }
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(csr_dev_free)(D); /* zeroes D */
        spmv_cuda__last_error_ref() = keep;
        return st;
    }
    D->algo = SPMV_CSR_DEV_VECTOR;
    D->threads_per_row = spmv_csr_dev_auto_tpr(A->nrows, A->nnz);
    return SPMV_OK;
}

/* D's long rows as the kernels take them */
static inline spmv_cuda__long_rows<SPMV_Y> SPMV_NAME(csr_dev__long)(const SPMV_NAME(csr_dev) *D) {
    spmv_cuda__long_rows<SPMV_Y> lg;
    lg.len = D->long_len, lg.nlong = D->nlong, lg.nchunks = D->nlong_chunks;
    lg.rows = D->long_rows, lg.chunk = D->long_chunk, lg.part = D->long_part;
    return lg;
}

/* y = alpha*D*x + beta*y on the device, ordered on stream s (asynchronous: synchronize s
 * before reading y on the host). x (ncols) and y (nrows) are device pointers; beta == 0:
 * y is not read. nrows == 0: returns SPMV_OK without launching. SPMV_ERR_ARG for NULL
 * pointers, an unknown algo or threads_per_row not in {0,2,4,8,16,32}; SPMV_ERR_CUDA if
 * the launch failed. Errors inside the kernel surface at the next synchronization. */
static inline spmv_status SPMV_NAME(csr_dev_mv)(const SPMV_NAME(csr_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    return spmv_cuda__csr_mv<SPMV_Y, SPMV_I, SPMV_T>((int64_t)D->nrows, (int64_t)D->nnz, D->row_ptr, D->col_idx, D->val,
                                             (int)D->algo, D->threads_per_row, D->carry_row, D->carry_val,
                                             D->tile_row, SPMV_NAME(csr_dev__long)(D), alpha, x, beta, y, s);
}

/* y = alpha*A^T*x + beta*y on the device without A^T: y (ncols) scaled first, then TPR
 * threads per row (from the mean row length) add val*alpha*x[row] into y[col] with
 * atomics, so the last bits of y may vary from run to run (like the registry's atomics
 * rows; an exact alternative is a handle built with opts.transpose); the long rows
 * (csr_dev.long_len) one block per chunk. x has nrows values, y ncols, both device
 * pointers; asynchronous on s. */
#ifndef SPMV_CUDA_CSR_MVT
#define SPMV_CUDA_CSR_MVT
/* Y = alpha*A*X + beta*Y with k vectors on the device (layouts: formats/csr_ops.h): one
 * thread per (row, vector); the threads of a row are neighbours in a warp, so they share its
 * val/col loads and, row-major, read X's row of k values together; beta == 0: Y not read.
 * Without long rows no atomics (the same bits every run); the long rows (csr_dev.long_len,
 * the rule that picks the merge kernel) are left scaled by beta and summed by _mm_long, one
 * block per chunk, with atomics like the merge kernel's carries. */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_mm(int64_t nrows, int64_t k, const I *__restrict__ rp, const I *__restrict__ ci,
                      const A *__restrict__ val, T alpha, const T *__restrict__ X, int64_t ldx, T beta,
                      T *__restrict__ Y, int64_t ldy, int colmajor, int64_t long_len) {
    for (int64_t t = spmv_cuda_gtid(); t < nrows * k; t += spmv_cuda_gsize()) {
        const int64_t r = t / k, j = t - r * k;
        T *yp = colmajor ? Y + j * ldy + r : Y + r * ldy + j;
        if (long_len > 0 && (int64_t)(rp[r + 1] - rp[r]) > long_len) { /* summed by _mm_long */
            *yp = beta == T(0) ? T(0) : beta * *yp;
            continue;
        }
        T s = 0;
        for (I e = rp[r]; e < rp[r + 1]; e++) s += spmv_cuda_tv<T>(val[e]) * (colmajor ? X[j * ldx + ci[e]] : X[(int64_t)ci[e] * ldx + j]);
        *yp = beta == T(0) ? alpha * s : alpha * s + beta * *yp;
    }
}
/* The long rows of Y = alpha*A*X (+ what _mm left there): one block per chunk, a block sum per
 * vector added with one atomic per chunk and vector (a row's chunks add in any order, like the
 * merge kernel's carries). */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_mm_long(int64_t nchunks, const int64_t *__restrict__ lrow, const int64_t *__restrict__ lch,
                           int64_t nlong, const I *__restrict__ rp, const I *__restrict__ ci,
                           const A *__restrict__ val, int64_t k, T alpha, const T *__restrict__ X, int64_t ldx,
                           T *__restrict__ Y, int64_t ldy, int colmajor) {
    __shared__ T s_w[SPMV_CUDA_BLOCK / 32];
    for (int64_t c = blockIdx.x; c < nchunks; c += gridDim.x) { /* block-uniform */
        int64_t b, e;
        const int64_t r = spmv_cuda__long_chunk<I>(c, lrow, lch, nlong, rp, &b, &e);
        for (int64_t j = 0; j < k; j++) {
            T s = 0;
            for (int64_t q = b + threadIdx.x; q < e; q += blockDim.x)
                s += spmv_cuda_tv<T>(val[q]) * (colmajor ? X[j * ldx + ci[q]] : X[(int64_t)ci[q] * ldx + j]);
            s = spmv_cuda__block_sum<T>(s, s_w);
            if (threadIdx.x == 0) atomicAdd(colmajor ? Y + j * ldy + r : Y + r * ldy + j, alpha * s);
        }
    }
}
template <typename T, typename I, int TPR, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_mvt(int64_t nrows, const I *__restrict__ rp, const I *__restrict__ ci, const A *__restrict__ val,
                       T alpha, const T *__restrict__ x, T *__restrict__ y, int64_t long_len) {
    const int64_t nthr = spmv_cuda_gsize() / TPR;
    const int lane = (int)(spmv_cuda_gtid() % TPR);
    for (int64_t r = spmv_cuda_gtid() / TPR; r < nrows; r += nthr) {
        if (long_len > 0 && (int64_t)(rp[r + 1] - rp[r]) > long_len) continue; /* _mvt_long's */
        const T xr = alpha * x[r];
        for (I k = rp[r] + lane; k < rp[r + 1]; k += TPR) atomicAdd(y + ci[k], spmv_cuda_tv<T>(val[k]) * xr);
    }
}
/* The long rows of y += alpha*A^T*x: one block per chunk. */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_mvt_long(int64_t nchunks, const int64_t *__restrict__ lrow, const int64_t *__restrict__ lch,
                            int64_t nlong, const I *__restrict__ rp, const I *__restrict__ ci,
                            const A *__restrict__ val, T alpha, const T *__restrict__ x, T *__restrict__ y) {
    for (int64_t c = blockIdx.x; c < nchunks; c += gridDim.x) {
        int64_t b, e;
        const int64_t r = spmv_cuda__long_chunk<I>(c, lrow, lch, nlong, rp, &b, &e);
        const T xr = alpha * x[r];
        for (int64_t q = b + threadIdx.x; q < e; q += blockDim.x) atomicAdd(y + ci[q], spmv_cuda_tv<T>(val[q]) * xr);
    }
}
template <typename T, typename I, typename A>
static inline spmv_status spmv_cuda__csr_mvt_run(int64_t nrows, int64_t ncols, int64_t nnz, const I *rp, const I *ci,
                                                 const A *val, T alpha, const T *x, T beta, T *y,
                                                 const spmv_cuda__long_rows<T> &lg, cudaStream_t s) {
    const int64_t long_len = lg.len, nlong = lg.nlong, nchunks = lg.nchunks;
    const int64_t *lrow = lg.rows, *lch = lg.chunk;
    spmv_status st;
    if ((ncols > 0 && !y) || (nnz > 0 && (!x || !rp || !ci || !val))) return SPMV_ERR_ARG;
    if ((st = spmv_cuda_scale<T>(ncols, beta, y, s)) != SPMV_OK || nnz == 0) return st;
    {
        /* threads per row from the mean length; the long rows (if any) go to _mvt_long */
        const int tpr = spmv_csr_dev_auto_tpr(nrows, nnz);
        const unsigned grid = spmv_cuda_grid(nrows * tpr, SPMV_CUDA_BLOCK);
        switch (tpr) {
        case 2: SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, (spmv_cuda__csr_mvt<T, I, 2, A>))(nrows, rp, ci, val, alpha, x, y, long_len); break;
        case 4: SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, (spmv_cuda__csr_mvt<T, I, 4, A>))(nrows, rp, ci, val, alpha, x, y, long_len); break;
        case 8: SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, (spmv_cuda__csr_mvt<T, I, 8, A>))(nrows, rp, ci, val, alpha, x, y, long_len); break;
        case 16: SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, (spmv_cuda__csr_mvt<T, I, 16, A>))(nrows, rp, ci, val, alpha, x, y, long_len); break;
        default: SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, (spmv_cuda__csr_mvt<T, I, 32, A>))(nrows, rp, ci, val, alpha, x, y, long_len); break;
        }
    }
    if ((st = spmv_cuda_status(cudaGetLastError())) != SPMV_OK || long_len <= 0 || nchunks <= 0) return st;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid(nchunks * SPMV_CUDA_BLOCK, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     (spmv_cuda__csr_mvt_long<T, I, A>))(nchunks, lrow, lch, nlong, rp, ci, val, alpha, x, y);
    return spmv_cuda_status(cudaGetLastError());
}
#endif
static inline spmv_status SPMV_NAME(csr_dev_mm)(const SPMV_NAME(csr_dev) *D, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                                int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay,
                                                cudaStream_t s = 0) {
    if (!D || spmv__mm_args_bad(D->ncols, D->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows * k, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     (spmv_cuda__csr_mm<SPMV_Y, SPMV_I, SPMV_T>))((int64_t)D->nrows, k, D->row_ptr, D->col_idx, D->val, alpha, X,
                                                          ldx, beta, Y, ldy, lay == SPMV_COL_MAJOR, D->long_len);
    spmv_status st = spmv_cuda_status(cudaGetLastError());
    if (st != SPMV_OK || D->long_len <= 0 || D->nlong_chunks <= 0) return st;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid(D->nlong_chunks * SPMV_CUDA_BLOCK, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     (spmv_cuda__csr_mm_long<SPMV_Y, SPMV_I, SPMV_T>))(D->nlong_chunks, D->long_rows, D->long_chunk, D->nlong,
                                                               D->row_ptr, D->col_idx, D->val, k, alpha, X, ldx, Y,
                                                               ldy, lay == SPMV_COL_MAJOR);
    return spmv_cuda_status(cudaGetLastError());
}

static inline spmv_status SPMV_NAME(csr_dev_mvt)(const SPMV_NAME(csr_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    return spmv_cuda__csr_mvt_run<SPMV_Y, SPMV_I, SPMV_T>((int64_t)D->nrows, (int64_t)D->ncols, (int64_t)D->nnz, D->row_ptr,
                                                  D->col_idx, D->val, alpha, x, beta, y, SPMV_NAME(csr_dev__long)(D), s);
}

/* ---- registry contract (rows csr, csr_merge, csr_scalar, csr_vector) ----
 * One device object for the four rows; the row sets the kernel (params.algo):
 * csr = auto (vector with threads per row from the mean row length, merge-path when the
 * longest row is far above the mean: > 8 x mean + 100, measured on an H200 below),
 * csr_merge, csr_scalar, csr_vector (tpr 2..32, tunable). */
#ifndef SPMV_CUDA_CSR_REG
#define SPMV_CUDA_CSR_REG
static inline spmv_csr_params spmv_csr_dev_params_default(void) {
    spmv_csr_params p = spmv_csr_params_default();
    p.algo = SPMV_CSR_AUTO;
    return p;
}
#define spmv_csr_merge_dev_params_default spmv_csr_merge_params_default
#define spmv_csr_scalar_dev_params_default spmv_csr_scalar_params_default
#define spmv_csr_vector_dev_params_default spmv_csr_vector_params_default
/* the --tune search of csr_vector: candidate i (0 past the end) */
static inline int spmv_csr_vector_dev_candidate(int i, const spmv_csr_params *base, spmv_csr_params *out) {
    if (i < 0 || i >= 5) return 0;
    *out = *base;
    out->tpr = 2 << i;
    return 1;
}
#endif
static inline spmv_status SPMV_NAME(csr_dev_from_csr)(SPMV_NAME(csr_dev) *D, const SPMV_NAME(csr) *A,
                                                      const spmv_csr_params *p, cudaStream_t s = 0) {
    spmv_csr_params q = p ? *p : spmv_csr_dev_params_default();
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if ((int)q.algo < 0 || (int)q.algo > (int)SPMV_CSR_SPLIT || (q.tpr != 0 && !spmv_csr_dev__tpr_ok(q.tpr)))
        return SPMV_ERR_ARG;
    st = SPMV_NAME(csr_to_device)(D, A, s);
    if (st != SPMV_OK) return st;
    switch (q.algo) {
    case SPMV_CSR_SCALAR: D->algo = SPMV_CSR_DEV_SCALAR; break;
    case SPMV_CSR_MERGE: D->algo = SPMV_CSR_DEV_MERGE; break;
    case SPMV_CSR_SPLIT: D->algo = SPMV_CSR_DEV_SPLIT; break;
    case SPMV_CSR_VECTOR: D->algo = SPMV_CSR_DEV_VECTOR; break;
    default: /* rows (the host's default) and auto: choose from the row lengths */
        /* H200, 2026-11-26, the 34 real matrices with the longest row above 4x the mean
           (bench/results/2026-11-26-h200-d-real.csv): the merge path was ahead of the vector
           kernel (1.25-108x) on every one above 8x the mean + 100 and behind or even (0.55-1.0x)
           on every one below; the earlier 16x + 512 kept the vector kernel on ten where it ran
           1.25-2.23x slower (cit-HepPh, astro-ph, ego-Facebook, Groebner, G38, ...) */
        D->algo = D->long_len > 0 ? SPMV_CSR_DEV_MERGE : SPMV_CSR_DEV_VECTOR; /* longest > 8 x mean + 100 */
        break;
    }
    D->threads_per_row = q.tpr;
    return SPMV_OK;
}
static inline spmv_status SPMV_NAME(csr_merge_dev_from_csr)(SPMV_NAME(csr_dev) *D, const SPMV_NAME(csr) *A,
                                                            const spmv_csr_params *p, cudaStream_t s = 0) {
    spmv_csr_params q = p ? *p : spmv_csr_merge_params_default();
    return SPMV_NAME(csr_dev_from_csr)(D, A, &q, s);
}
static inline spmv_status SPMV_NAME(csr_scalar_dev_from_csr)(SPMV_NAME(csr_dev) *D, const SPMV_NAME(csr) *A,
                                                             const spmv_csr_params *p, cudaStream_t s = 0) {
    spmv_csr_params q = p ? *p : spmv_csr_scalar_params_default();
    return SPMV_NAME(csr_dev_from_csr)(D, A, &q, s);
}
static inline spmv_status SPMV_NAME(csr_vector_dev_from_csr)(SPMV_NAME(csr_dev) *D, const SPMV_NAME(csr) *A,
                                                             const spmv_csr_params *p, cudaStream_t s = 0) {
    spmv_csr_params q = p ? *p : spmv_csr_vector_params_default();
    return SPMV_NAME(csr_dev_from_csr)(D, A, &q, s);
}
/* "algo=vector,tpr=8", "algo=merge,tile=1024", "algo=scalar" */
static inline void SPMV_NAME(csr_dev_params_str)(const SPMV_NAME(csr_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    switch (D->algo) {
    case SPMV_CSR_DEV_SCALAR: snprintf(buf, len, "algo=scalar"); break;
    case SPMV_CSR_DEV_MERGE: snprintf(buf, len, "algo=merge,tile=%d", SPMV_CUDA_MERGE_TILE); break;
    case SPMV_CSR_DEV_SPLIT:
        snprintf(buf, len, "algo=split,tpr=%d,long>%lld",
                 D->threads_per_row ? D->threads_per_row : spmv_csr_dev_auto_tpr(D->nrows, D->nnz), (long long)D->long_len);
        break;
    default:
        snprintf(buf, len, "algo=vector,tpr=%d",
                 D->threads_per_row ? D->threads_per_row : spmv_csr_dev_auto_tpr(D->nrows, D->nnz));
        break;
    }
}
