/* CUDA SSS — the host SSS (formats/sss.h: the lower triangle and the diagonal of a symmetric
 * matrix, row by row) copied to device memory. Template header, included once per (SPMV_TAG,
 * SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh. No include guard on purpose.
 *
 * Kernel: y is first scaled by beta (its own small kernel). Then a group of SPMV_CUDA_SSS_LANES
 * threads per row: the lanes stride over the row's stored entries, each adding v*x[j] to its
 * partial row sum and v*x[i] to y[j] with an atomic (the mirrored entry); the group's row sum
 * is reduced with shuffles and added to y[i] with one atomic, since other rows' mirrored
 * entries add into y[i] too. So the summation order varies from run to run (registry flag
 * atomics: the deterministic selection leaves it out).
 * Memory: cudaMalloc only. Everything runs on the current device. */

#ifndef SPMV_CUDA_SSS_COMMON
#define SPMV_CUDA_SSS_COMMON
#ifndef SPMV_CUDA_SSS_LANES
#define SPMV_CUDA_SSS_LANES 4 /* threads per row: FEM rows hold 10-40 stored entries */
#endif

template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__sss(int64_t n, const I *__restrict__ rp, const I *__restrict__ col, const A *__restrict__ val,
                   T alpha, const T *__restrict__ x, T *__restrict__ y) {
    const int L = SPMV_CUDA_SSS_LANES;
    const int sub = (int)(spmv_cuda_gtid() % L);
    const int64_t groups = spmv_cuda_gsize() / L;
    /* every lane of a warp runs the same number of iterations (the shuffles need them all) */
    const int64_t n_pad = (n + groups - 1) / groups * groups;
    for (int64_t i = spmv_cuda_gtid() / L; i < n_pad; i += groups) {
        T sum = T(0);
        if (i < n) {
            const T axi = alpha * x[i];
            for (int64_t k = (int64_t)rp[i] + sub; k < (int64_t)rp[i + 1]; k += L) {
                const int64_t j = (int64_t)col[k];
                const T v = spmv_cuda_tv<T>(val[k]);
                sum += v * x[j];
                if (j != i) atomicAdd(&y[j], axi * v);
            }
        }
        for (int o = L / 2; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o, L);
        if (i < n && sub == 0) atomicAdd(&y[i], alpha * sum);
    }
}
#endif /* SPMV_CUDA_SSS_COMMON */

typedef struct SPMV_NAME(sss_dev) {
    SPMV_I nrows, ncols, nnz, stored; /* as the host SSS */
    SPMV_I *row_ptr, *col;            /* device memory (col, val NULL when stored == 0) */
    SPMV_T *val;
} SPMV_NAME(sss_dev);

/* Frees the device arrays and zeroes *D; safe on a zeroed or freed D. */
static inline spmv_status SPMV_NAME(sss_dev_free)(SPMV_NAME(sss_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->col, &st);
    spmv_cuda_release(&D->val, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes held by D (the host sss_bytes). */
static inline size_t SPMV_NAME(sss_dev_bytes)(const SPMV_NAME(sss_dev) *D) {
    return D ? ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->stored * (sizeof(SPMV_I) + sizeof(SPMV_T)) : 0;
}

/* Copies host SSS A to the device (ordered on s, waits for the copies). On failure *D is
 * zeroed: SPMV_ERR_ARG, SPMV_ERR_NODEVICE, SPMV_ERR_CUDA. */
static inline spmv_status SPMV_NAME(sss_to_device)(SPMV_NAME(sss_dev) *D, const SPMV_NAME(sss) *A,
                                                   cudaStream_t s = 0) {
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || A->nrows < 0 || A->nrows != A->ncols || A->stored < 0 || !A->row_ptr ||
        (A->stored > 0 && (!A->col || !A->val)))
        return SPMV_ERR_ARG;
    D->nrows = A->nrows;
    D->ncols = A->ncols;
    D->nnz = A->nnz;
    D->stored = A->stored;
    st = spmv_cuda_upload(&D->row_ptr, A->row_ptr, (size_t)A->nrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col, A->col, (size_t)A->stored, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, A->val, (size_t)A->stored, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(sss_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device, ordered on stream s (asynchronous). */
static inline spmv_status SPMV_NAME(sss_dev_mv)(const SPMV_NAME(sss_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    spmv_status st;
    if (!D || (D->nrows > 0 && !y) || (D->stored > 0 && (!x || !D->row_ptr || !D->col || !D->val)))
        return SPMV_ERR_ARG;
    st = spmv_cuda_scale<SPMV_Y>((int64_t)D->nrows, beta, y, s);
    if (st != SPMV_OK || D->stored == 0) return st;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows * SPMV_CUDA_SSS_LANES, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     spmv_cuda__sss<SPMV_Y, SPMV_I, SPMV_T>)((int64_t)D->nrows, D->row_ptr, D->col, D->val, alpha, x, y);
    return spmv_cuda_status(cudaGetLastError());
}

/* ---- registry contract (row sss) ---- */
#ifndef SPMV_CUDA_SSS_REG
#define SPMV_CUDA_SSS_REG
static inline spmv_sss_params spmv_sss_dev_params_default(void) { return spmv_sss_params_default(); }
#endif
/* Host CSR A (symmetric: else SPMV_ERR_ARG) -> SSS on the host -> device. */
static inline spmv_status SPMV_NAME(sss_dev_from_csr)(SPMV_NAME(sss_dev) *D, const SPMV_NAME(csr) *A,
                                                      const spmv_sss_params *p, cudaStream_t s = 0) {
    SPMV_NAME(sss) B;
    spmv_sss_params q = spmv_sss_params_default();
    spmv_status st;
    (void)p;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    q.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    st = SPMV_NAME(sss_from_csr)(&B, A, &q, NULL);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(sss_to_device)(D, &B, s);
    SPMV_NAME(sss_free)(&B);
    return st;
}
static inline void SPMV_NAME(sss_dev_params_str)(const SPMV_NAME(sss_dev) *D, char *buf, size_t len) {
    (void)D;
    if (len) snprintf(buf, len, "lanes=%d", SPMV_CUDA_SSS_LANES);
}
