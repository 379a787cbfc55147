/* CUDA BCSR — the host layout (formats/bcsr.h: column-major bs x bs blocks, block CSR,
 * presence bits) copied to device memory unchanged. Template header, included once per
 * (SPMV_TAG, SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh. No include guard.
 *
 * Kernels (Eberhardt & Hoemmen, seeds/002 III-D; NOTES.md "BCSR"), a warp per block row
 * (grid-stride over block rows, so every loop around a shuffle is warp-uniform):
 *   block   (Algorithm 2, bs <= 5): the warp covers nbw = 32/(bs*bs) whole blocks per step,
 *           lane = (j*bs + c)*bs + r: block j of the step, column c, row r; a lane's (c, r)
 *           never changes, so it steps by nbw blocks.
 *   column  (Algorithm 3, any bs, chosen for 6..16): the warp covers G = 32/bs whole
 *           columns per step, lane = g*bs + r; the step is G columns (the paper prints 32).
 *   row     (Algorithms 4/5, chosen above 16): lane r owns row r of the block row and walks
 *           its blocks' columns (val[b*bs*bs + c*bs + r]: coalesced across the lanes). The
 *           x block is loaded once per block, coalesced (lane c reads x[col*bs + c]), and
 *           handed to the lanes by a shuffle: the paper stages it in shared memory with two
 *           barriers per block, which it places inside `if (r < bs)` (NOTES.md); registers
 *           need no barrier at all.
 *   block and column reduce the lanes of equal r with shuffles, strides s*bs for s from
 *   next_pow2(ceil(G/2)) down to 1 (G groups of bs lanes; the paper's integer-division start
 *   misses a group for bs = 6, 9, 10: NOTES.md).
 * Columns past ncols (the last block column's fill) are never read from x; rows past nrows
 * are never written. Fill is multiplied like an entry (0*x = 0 for finite x); a row whose
 * sum is not finite is recomputed by its lane entry by entry from the bits, so 0*Inf never
 * reaches y. y = alpha*sum + beta*y (BLAS roles), never read when beta == 0.
 * Kernel choice: params.kern (auto: the paper's Kepler boundaries, by block up to 5, by
 * column up to 16, row above); spmv-cuda --tune times the four settings (auto, block,
 * column, row), i.e. both sides of each boundary. Device default bs: the host estimate. */

#ifndef SPMV_CUDA_BCSR_COMMON
#define SPMV_CUDA_BCSR_COMMON
/* Sum over the lanes of equal r (lane = g*bs + r, g < G); valid in lanes 0..bs-1. */
template <typename T> __device__ __forceinline__ T spmv_cuda__bcsr_reduce(T v, int bs, int G) {
    int s = 1;
    while (s < (G + 1) / 2) s <<= 1;
    for (; s >= 1; s >>= 1) {
        const T o = __shfl_down_sync(SPMV_CUDA_FULL_MASK, v, (unsigned)(s * bs));
        if ((int)spmv_cuda_lane() + s * bs < 32) v += o;
    }
    return v;
}
/* Row r of block row br, entry by entry (the exact path for a non-finite sum). */
template <typename T, typename I, typename A>
__device__ T spmv_cuda__bcsr_row_exact(int64_t br, int r, int bs, int64_t ncols, const I *__restrict__ rp,
                                       const I *__restrict__ ci, const A *__restrict__ val,
                                       const uint64_t *__restrict__ bits, const T *__restrict__ x) {
    const int64_t b2 = (int64_t)bs * bs, mw = (b2 + 63) / 64;
    T s = T(0);
    for (int64_t b = rp[br]; b < rp[br + 1]; b++) {
        const int64_t xb = (int64_t)ci[b] * bs;
        for (int c = 0; c < bs && xb + c < ncols; c++) {
            const int64_t p = (int64_t)c * bs + r;
            if ((bits[b * mw + p / 64] >> (p % 64)) & 1u) s += spmv_cuda_tv<T>(val[b * b2 + p]) * x[xb + c];
        }
    }
    return s;
}
/* kern: 1 by block, 2 by column, 3 row per thread (resolved on the host) */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__bcsr(int kern, int64_t nrows, int64_t ncols, int64_t nbrows, int bs, const I *__restrict__ rp,
                    const I *__restrict__ ci, const A *__restrict__ val, const uint64_t *__restrict__ bits, T alpha,
                    const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t b2 = (int64_t)bs * bs;
    const int64_t nw = spmv_cuda_gsize() / 32;
    for (int64_t br = spmv_cuda_gtid() / 32; br < nbrows; br += nw) {
        const int64_t b0 = rp[br], b1 = rp[br + 1], rb = br * bs;
        T v = T(0);
        int r;
        if (kern == 1) { /* whole blocks */
            const int nbw = 32 / (int)b2, G = nbw * bs, j = lane / (int)b2, p = lane % (int)b2;
            const int c = p / bs;
            r = p % bs;
            if (lane < nbw * (int)b2)
                for (int64_t b = b0 + j; b < b1; b += nbw) {
                    const int64_t col = (int64_t)ci[b] * bs + c;
                    if (col < ncols) v += spmv_cuda_tv<T>(val[b * b2 + p]) * x[col];
                }
            v = spmv_cuda__bcsr_reduce(v, bs, G);
        } else if (kern == 2) { /* whole columns */
            const int G = 32 / bs, g = lane / bs;
            r = lane % bs;
            if (g < G)
                for (int64_t tc = b0 * bs + g; tc < b1 * bs; tc += G) {
                    const int64_t b = tc / bs, c = tc % bs, col = (int64_t)ci[b] * bs + c;
                    if (col < ncols) v += spmv_cuda_tv<T>(val[b * b2 + c * bs + r]) * x[col];
                }
            v = spmv_cuda__bcsr_reduce(v, bs, G);
        } else { /* a row per lane, the x block broadcast from the lane that loaded it */
            r = lane;
            for (int64_t b = b0; b < b1; b++) {
                const int64_t xb = (int64_t)ci[b] * bs;
                const int ncx = ncols - xb < bs ? (int)(ncols - xb) : bs;
                const T xl = lane < ncx ? x[xb + lane] : T(0);
                const A *pv = val + b * b2 + r;
                for (int c = 0; c < ncx; c++) {
                    const T xc = __shfl_sync(SPMV_CUDA_FULL_MASK, xl, c);
                    if (r < bs) v += spmv_cuda_tv<T>(pv[(int64_t)c * bs]) * xc;
                }
            }
        }
        if (lane < bs && rb + lane < nrows) {
            if (!(v - v == T(0))) v = spmv_cuda__bcsr_row_exact<T, I, A>(br, lane, bs, ncols, rp, ci, val, bits, x);
            spmv_cuda_axpby(y + rb + lane, alpha, v, beta);
        }
    }
}
static inline spmv_bcsr_params spmv_bcsr_dev_params_default(void) {
    spmv_bcsr_params p = spmv_bcsr_params_default();
    p.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    return p;
}
/* --tune: the kernel, both sides of each boundary (auto, block, column, row) */
static inline int spmv_bcsr_dev_candidate(int i, const spmv_bcsr_params *base, spmv_bcsr_params *out) {
    if (i < 0 || i >= 4) return 0;
    *out = *base;
    out->kern = i;
    return 1;
}
/* the kernel params.kern selects for block size bs */
static inline int spmv__bcsr_dev_kernel(int kern, int bs) {
    if (kern == 0) return bs <= 5 ? 1 : bs <= 16 ? 2 : 3;
    if (kern == 1 && bs > 5) return 2; /* whole blocks need bs*bs <= 32 */
    return kern;
}
#endif /* SPMV_CUDA_BCSR_COMMON */

typedef struct SPMV_NAME(bcsr_dev) {
    SPMV_I nrows, ncols, nnz, bs, nbrows, nblocks;
    SPMV_I *row_ptr, *col_idx; /* device memory */
    SPMV_T *val;
    uint64_t *bits;
    spmv_bcsr_params params;
} SPMV_NAME(bcsr_dev);

static inline spmv_status SPMV_NAME(bcsr_dev_free)(SPMV_NAME(bcsr_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->col_idx, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->bits, &st);
    memset(D, 0, sizeof *D);
    return st;
}

static inline size_t SPMV_NAME(bcsr_dev_bytes)(const SPMV_NAME(bcsr_dev) *D) {
    const size_t nb = D ? (size_t)D->nblocks : 0, b2 = D ? (size_t)D->bs * (size_t)D->bs : 0;
    if (!D || !D->row_ptr) return 0;
    return ((size_t)D->nbrows + 1 + nb) * sizeof(SPMV_I) + nb * (b2 * sizeof(SPMV_T) + (size_t)spmv__bcsr_mw(D->bs) * 8u);
}

/* 1 when the device refuses A: the skew cap (core.cuh), a warp walks a whole block row */
static inline int SPMV_NAME(bcsr_dev_skewed)(const SPMV_NAME(csr) *A) {
    if (!A || SPMV_NAME(csr_check)(A) != SPMV_OK) return 0;
    return spmv_cuda__skewed<SPMV_I>((int64_t)A->nrows, A->row_ptr, SPMV_CUDA_SKEW_MIN_BCSR, SPMV_CUDA_SKEW_WARPS);
}
/* Host CSR A -> host BCSR (device defaults) -> device. */
static inline spmv_status SPMV_NAME(bcsr_dev_from_csr)(SPMV_NAME(bcsr_dev) *D, const SPMV_NAME(csr) *A,
                                                       const spmv_bcsr_params *p, cudaStream_t s = 0) {
    spmv_bcsr_params q = p ? *p : spmv_bcsr_dev_params_default();
    SPMV_NAME(bcsr) B;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    q.isa = SPMV_ISA_GENERIC;
    if (SPMV_NAME(bcsr_dev_skewed)(A)) return SPMV_ERR_LIMIT;
    st = SPMV_NAME(bcsr_from_csr)(&B, A, &q, NULL);
    if (st != SPMV_OK) return st;
    D->nrows = B.nrows;
    D->ncols = B.ncols;
    D->nnz = B.nnz;
    D->bs = B.bs;
    D->nbrows = B.nbrows;
    D->nblocks = B.nblocks;
    D->params = B.params;
    st = spmv_cuda_upload(&D->row_ptr, B.row_ptr, (size_t)B.nbrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col_idx, B.col_idx, (size_t)B.nblocks, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, B.val, (size_t)B.nblocks * (size_t)B.bs * (size_t)B.bs, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->bits, B.bits, (size_t)B.nblocks * (size_t)spmv__bcsr_mw(B.bs), s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    SPMV_NAME(bcsr_free)(&B);
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(bcsr_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device, ordered on s (asynchronous); beta == 0: y not read. */
static inline spmv_status SPMV_NAME(bcsr_dev_mv)(const SPMV_NAME(bcsr_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D || (D->nrows > 0 && (!y || !D->row_ptr)) || (D->nnz > 0 && !x)) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nbrows * 32, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     spmv_cuda__bcsr<SPMV_Y, SPMV_I, SPMV_T>)(spmv__bcsr_dev_kernel(D->params.kern, (int)D->bs),
                                                      (int64_t)D->nrows, (int64_t)D->ncols, (int64_t)D->nbrows,
                                                      (int)D->bs, D->row_ptr, D->col_idx, D->val, D->bits, alpha, x,
                                                      beta, y);
    return spmv_cuda_status(cudaGetLastError());
}

static inline void SPMV_NAME(bcsr_dev_params_str)(const SPMV_NAME(bcsr_dev) *D, char *buf, size_t len) {
    static const char *const kn[] = {"auto", "block", "column", "row"};
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    snprintf(buf, len, "bs=%d,kern=%s,fill=%.2f", (int)D->bs, kn[spmv__bcsr_dev_kernel(D->params.kern, (int)D->bs)],
             D->nnz > 0 ? (double)D->nblocks * (double)D->bs * (double)D->bs / (double)D->nnz : 0.0);
}
