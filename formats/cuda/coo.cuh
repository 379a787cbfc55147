/* CUDA COO — the host COO (formats/coo.h) copied to device memory: row[nnz], col[nnz],
 * val[nnz]. Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh. No include guard on purpose.
 *
 * Kernel: y is first scaled by beta (its own small kernel, part of the product: the
 * accumulation below only adds). Each warp then takes SPMV_CUDA_COO_STEPS chunks of 32
 * consecutive entries; per chunk a warp reduce-by-key (spmv_cuda_warp_seg_step) sums
 * runs of equal rows and adds each run to y with one atomic, the run at the chunk's end
 * being carried to the next chunk. The host converter sorts by (row, col), which gives
 * about one atomic per row and warp; entries in any other order (a COO filled by hand,
 * duplicates included) are still summed correctly, only with more atomics.
 * Memory: cudaMalloc only. Everything runs on the current device. */

#ifndef SPMV_CUDA_COO_COMMON
#define SPMV_CUDA_COO_COMMON
#ifndef SPMV_CUDA_COO_STEPS
#define SPMV_CUDA_COO_STEPS 8 /* chunks of 32 entries per warp: 256 entries */
#endif

template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__coo(int64_t nnz, const I *__restrict__ row, const I *__restrict__ col, const A *__restrict__ val,
                   T alpha, const T *__restrict__ x, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t per_warp = 32 * SPMV_CUDA_COO_STEPS;
    const int64_t nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = (spmv_cuda_gtid() >> 5) * per_warp; base < nnz; base += nwarps * per_warp) {
        int64_t ckey = -1;
        T cval = T(0);
        const int64_t end = base + per_warp < nnz ? base + per_warp : nnz;
        for (int64_t b = base; b < end; b += 32) { /* warp-uniform loop */
            const int64_t k = b + lane;
            int64_t key = -1;
            T v = T(0);
            if (k < end) {
                key = (int64_t)row[k];
                v = spmv_cuda_tv<T>(val[k]) * x[col[k]];
            }
            spmv_cuda_warp_seg_step(key, v, ckey, cval, alpha, y);
        }
        spmv_cuda_seg_flush(ckey, cval, alpha, y);
    }
}
#endif /* SPMV_CUDA_COO_COMMON */

typedef struct SPMV_NAME(coo_dev) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row, *col; /* device memory, nnz entries each (NULL when nnz == 0) */
    SPMV_T *val;
} SPMV_NAME(coo_dev);

/* Frees the device arrays and zeroes *D; safe on a zeroed or freed D. Returns the first
 * cudaFree error (D is zeroed anyway). */
static inline spmv_status SPMV_NAME(coo_dev_free)(SPMV_NAME(coo_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row, &st);
    spmv_cuda_release(&D->col, &st);
    spmv_cuda_release(&D->val, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes held by D (same as the host spmv_<tag>_coo_bytes). */
static inline size_t SPMV_NAME(coo_dev_bytes)(const SPMV_NAME(coo_dev) *D) {
    return D ? (size_t)D->nnz * (2 * sizeof(SPMV_I) + sizeof(SPMV_T)) : 0;
}

/* Copies host COO A to the device (ordered on s, waits for the copies). The entries
 * may be in any order; indices are checked (0 <= row < nrows, 0 <= col < ncols) on the
 * host first, since the kernel trusts them. On failure *D is zeroed, nothing leaks:
 * SPMV_ERR_ARG (NULL or inconsistent A), SPMV_ERR_NODEVICE, SPMV_ERR_CUDA. */
static inline spmv_status SPMV_NAME(coo_to_device)(SPMV_NAME(coo_dev) *D, const SPMV_NAME(coo) *A,
                                                   cudaStream_t s = 0) {
    spmv_status st;
    int64_t k;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || A->nrows < 0 || A->ncols < 0 || A->nnz < 0 || (A->nnz > 0 && (!A->row || !A->col || !A->val)))
        return SPMV_ERR_ARG;
    for (k = 0; k < (int64_t)A->nnz; k++)
        if (A->row[k] < 0 || A->row[k] >= A->nrows || A->col[k] < 0 || A->col[k] >= A->ncols) return SPMV_ERR_ARG;
    D->nrows = A->nrows;
    D->ncols = A->ncols;
    D->nnz = A->nnz;
    st = spmv_cuda_upload(&D->row, A->row, (size_t)A->nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col, A->col, (size_t)A->nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, A->val, (size_t)A->nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(coo_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device, ordered on stream s (asynchronous). x, y are
 * device pointers; beta == 0: y is not read. SPMV_ERR_ARG for NULL pointers. */
static inline spmv_status SPMV_NAME(coo_dev_mv)(const SPMV_NAME(coo_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    spmv_status st;
    if (!D || (D->nrows > 0 && !y) || (D->nnz > 0 && (!x || !D->row || !D->col || !D->val))) return SPMV_ERR_ARG;
    st = spmv_cuda_scale<SPMV_Y>((int64_t)D->nrows, beta, y, s);
    if (st != SPMV_OK || D->nnz == 0) return st;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nnz / SPMV_CUDA_COO_STEPS + 32, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__coo<SPMV_Y, SPMV_I, SPMV_T>)(
            (int64_t)D->nnz, D->row, D->col, D->val, alpha, x, y);
    return spmv_cuda_status(cudaGetLastError());
}

/* ---- registry contract (row coo) ---- */
#ifndef SPMV_CUDA_COO_REG
#define SPMV_CUDA_COO_REG
static inline spmv_coo_params spmv_coo_dev_params_default(void) { return spmv_coo_params_default(); }
#endif
/* Host CSR A -> sorted COO on the host -> device. p: nothing to set on the device (NULL). */
static inline spmv_status SPMV_NAME(coo_dev_from_csr)(SPMV_NAME(coo_dev) *D, const SPMV_NAME(csr) *A,
                                                      const spmv_coo_params *p, cudaStream_t s = 0) {
    SPMV_NAME(coo) B;
    spmv_coo_params q = spmv_coo_params_default();
    spmv_status st;
    (void)p;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    q.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    st = SPMV_NAME(coo_from_csr)(&B, A, &q, NULL);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(coo_to_device)(D, &B, s);
    SPMV_NAME(coo_free)(&B);
    return st;
}
static inline void SPMV_NAME(coo_dev_params_str)(const SPMV_NAME(coo_dev) *D, char *buf, size_t len) {
    (void)D;
    if (len) snprintf(buf, len, "seg=%d", 32 * SPMV_CUDA_COO_STEPS);
}
