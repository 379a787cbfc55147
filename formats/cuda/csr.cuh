/* CUDA CSR — the host CSR (formats/csr.h) copied to device memory, same layout:
 * row_ptr[nrows+1], col_idx[nnz], val[nnz], columns sorted within a row.
 * Template header: included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh (through all.cuh). No include guard on purpose.
 *
 * Kernels (D->algo, set to the default SPMV_CSR_DEV_VECTOR by _csr_to_device):
 *  SPMV_CSR_DEV_SCALAR  one thread per row (grid-stride loop over rows). Good for very
 *                       short rows; uncoalesced on long ones.
 *  SPMV_CSR_DEV_VECTOR  D->threads_per_row (a power of two, 2..32) lanes per row: the
 *                       lanes stride through the row (coalesced loads of val/col_idx),
 *                       then a warp-shuffle reduction. _csr_to_device picks it from the
 *                       average row length (smallest power of two >= it, in 2..32);
 *                       set it after the upload to override, 0 = pick again at each mv.
 * Both write y[r] = alpha*dot + beta*y[r] and never read y when beta == 0; indices are
 * widened to 64 bits inside the kernels, so int32 counts near INT32_MAX do not wrap.
 * Memory: cudaMalloc only (never managed memory). Everything runs on the current device. */

#ifndef SPMV_CUDA_CSR_COMMON
#define SPMV_CUDA_CSR_COMMON
typedef enum spmv_csr_dev_algo { SPMV_CSR_DEV_VECTOR = 0, SPMV_CSR_DEV_SCALAR = 1 } spmv_csr_dev_algo;

/* Lanes per row for the vector kernel: the smallest power of two >= the average row
 * length, clamped to 2..32. */
static inline int spmv_csr_dev_auto_tpr(int64_t nrows, int64_t nnz) {
    int64_t avg = nrows > 0 ? nnz / nrows + (nnz % nrows != 0) : 0;
    int t = 2;
    while (t < 32 && t < avg) t <<= 1;
    return t;
}
static inline int spmv_csr_dev__tpr_ok(int t) { return t == 2 || t == 4 || t == 8 || t == 16 || t == 32; }

/* thread per row */
template <typename T, typename I>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_scalar(int64_t nrows, const I *__restrict__ rp, const I *__restrict__ ci,
                          const T *__restrict__ val, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y) {
    for (int64_t r = spmv_cuda_gtid(); r < nrows; r += spmv_cuda_gsize()) {
        const int64_t k1 = (int64_t)rp[r + 1];
        T s = T(0);
        for (int64_t k = (int64_t)rp[r]; k < k1; k++) s += val[k] * x[ci[k]];
        spmv_cuda_axpby(y + r, alpha, s, beta);
    }
}

/* TPR lanes per row, 32/TPR rows per warp per step. The row loop depends only on the
 * warp index, so all 32 lanes reach the shuffles together (full mask is correct). */
template <typename T, typename I, int TPR>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr_vector(int64_t nrows, const I *__restrict__ rp, const I *__restrict__ ci,
                          const T *__restrict__ val, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int sub = lane & (TPR - 1);
    const int64_t rows_per_warp = 32 / TPR;
    const int64_t warp = spmv_cuda_gtid() >> 5, nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = warp * rows_per_warp; base < nrows; base += nwarps * rows_per_warp) {
        const int64_t r = base + lane / TPR;
        T s = T(0);
        if (r < nrows) {
            const int64_t k1 = (int64_t)rp[r + 1];
            for (int64_t k = (int64_t)rp[r] + sub; k < k1; k += TPR) s += val[k] * x[ci[k]];
        }
        s = spmv_cuda_warp_sum<TPR>(s);
        if (sub == 0 && r < nrows) spmv_cuda_axpby(y + r, alpha, s, beta);
    }
}

template <typename T, typename I, int TPR>
static inline void spmv_cuda__csr_vector_launch(int64_t nrows, const I *rp, const I *ci, const T *val, T alpha,
                                                const T *x, T beta, T *y, cudaStream_t s) {
    const unsigned grid = spmv_cuda_grid(nrows * TPR, SPMV_CUDA_BLOCK);
    spmv_cuda__csr_vector<T, I, TPR><<<grid, SPMV_CUDA_BLOCK, 0, s>>>(nrows, rp, ci, val, alpha, x, beta, y);
}

/* Checks the arguments, launches the selected kernel, checks the launch. */
template <typename T, typename I>
static inline spmv_status spmv_cuda__csr_mv(int64_t nrows, int64_t nnz, const I *rp, const I *ci, const T *val,
                                            int algo, int tpr, T alpha, const T *x, T beta, T *y,
                                            cudaStream_t s) {
    if (nrows < 0 || nnz < 0 || (nrows > 0 && (!y || !rp)) || (nnz > 0 && (!x || !ci || !val)))
        return SPMV_ERR_ARG;
    if (algo != SPMV_CSR_DEV_VECTOR && algo != SPMV_CSR_DEV_SCALAR) return SPMV_ERR_ARG;
    if (algo == SPMV_CSR_DEV_VECTOR) {
        if (tpr == 0) tpr = spmv_csr_dev_auto_tpr(nrows, nnz);
        if (!spmv_csr_dev__tpr_ok(tpr)) return SPMV_ERR_ARG;
    }
    if (nrows == 0) return SPMV_OK; /* nothing to do, nothing launched */
    if (algo == SPMV_CSR_DEV_SCALAR) {
        spmv_cuda__csr_scalar<T, I><<<spmv_cuda_grid(nrows, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, 0, s>>>(
            nrows, rp, ci, val, alpha, x, beta, y);
    } else {
        switch (tpr) {
        case 2: spmv_cuda__csr_vector_launch<T, I, 2>(nrows, rp, ci, val, alpha, x, beta, y, s); break;
        case 4: spmv_cuda__csr_vector_launch<T, I, 4>(nrows, rp, ci, val, alpha, x, beta, y, s); break;
        case 8: spmv_cuda__csr_vector_launch<T, I, 8>(nrows, rp, ci, val, alpha, x, beta, y, s); break;
        case 16: spmv_cuda__csr_vector_launch<T, I, 16>(nrows, rp, ci, val, alpha, x, beta, y, s); break;
        default: spmv_cuda__csr_vector_launch<T, I, 32>(nrows, rp, ci, val, alpha, x, beta, y, s); break;
        }
    }
    return spmv_cuda_status(cudaGetLastError());
}
#endif /* SPMV_CUDA_CSR_COMMON */

typedef struct SPMV_NAME(csr_dev) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col_idx; /* device memory: nrows+1 and nnz entries (NULL when nnz == 0) */
    SPMV_T *val;               /* device memory: nnz entries */
    spmv_csr_dev_algo algo;    /* SPMV_CSR_DEV_VECTOR (default) or SPMV_CSR_DEV_SCALAR */
    int threads_per_row;       /* vector kernel: 2, 4, 8, 16 or 32; 0 = from the average row length */
} SPMV_NAME(csr_dev);

/* Frees the device arrays (cudaFree) and zeroes *D. Safe on a zeroed or freed D (then
 * no CUDA call is made). Returns the first cudaFree error (D is zeroed anyway). */
static inline spmv_status SPMV_NAME(csr_dev_free)(SPMV_NAME(csr_dev) *D) {
    spmv_status st = SPMV_OK, s2;
    if (!D) return SPMV_OK;
    if (D->row_ptr && (s2 = spmv_cuda_status(cudaFree(D->row_ptr))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->col_idx && (s2 = spmv_cuda_status(cudaFree(D->col_idx))) != SPMV_OK && st == SPMV_OK) st = s2;
    if (D->val && (s2 = spmv_cuda_status(cudaFree(D->val))) != SPMV_OK && st == SPMV_OK) st = s2;
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes held by D (same formula as the host spmv_<tag>_csr_bytes). */
static inline size_t SPMV_NAME(csr_dev_bytes)(const SPMV_NAME(csr_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T));
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
    if (!A || A->nrows < 0 || A->ncols < 0 || A->nnz < 0 || !A->row_ptr || (A->nnz > 0 && (!A->col_idx || !A->val)))
        return SPMV_ERR_ARG;
    if (A->row_ptr[0] != 0 || A->row_ptr[A->nrows] != A->nnz) return SPMV_ERR_ARG;
    nrp = (size_t)A->nrows + 1;
    nnz = (size_t)A->nnz;
    D->nrows = A->nrows;
    D->ncols = A->ncols;
    D->nnz = A->nnz;
    st = spmv_cuda_status(cudaMalloc((void **)&D->row_ptr, nrp * sizeof(SPMV_I)));
    if (st == SPMV_OK && nnz > 0) st = spmv_cuda_status(cudaMalloc((void **)&D->col_idx, nnz * sizeof(SPMV_I)));
    if (st == SPMV_OK && nnz > 0) st = spmv_cuda_status(cudaMalloc((void **)&D->val, nnz * sizeof(SPMV_T)));
    if (st == SPMV_OK)
        st = spmv_cuda_status(
            cudaMemcpyAsync(D->row_ptr, A->row_ptr, nrp * sizeof(SPMV_I), cudaMemcpyHostToDevice, s));
    if (st == SPMV_OK && nnz > 0)
        st = spmv_cuda_status(
            cudaMemcpyAsync(D->col_idx, A->col_idx, nnz * sizeof(SPMV_I), cudaMemcpyHostToDevice, s));
    if (st == SPMV_OK && nnz > 0)
        st = spmv_cuda_status(cudaMemcpyAsync(D->val, A->val, nnz * sizeof(SPMV_T), cudaMemcpyHostToDevice, s));
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

/* y = alpha*D*x + beta*y on the device, ordered on stream s (asynchronous: synchronize s
 * before reading y on the host). x (ncols) and y (nrows) are device pointers; beta == 0:
 * y is not read. nrows == 0: returns SPMV_OK without launching. SPMV_ERR_ARG for NULL
 * pointers, an unknown algo or threads_per_row not in {0,2,4,8,16,32}; SPMV_ERR_CUDA if
 * the launch failed. Errors inside the kernel surface at the next synchronization. */
static inline spmv_status SPMV_NAME(csr_dev_mv)(const SPMV_NAME(csr_dev) *D, SPMV_T alpha, const SPMV_T *x,
                                                SPMV_T beta, SPMV_T *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    return spmv_cuda__csr_mv<SPMV_T, SPMV_I>((int64_t)D->nrows, (int64_t)D->nnz, D->row_ptr, D->col_idx, D->val,
                                             (int)D->algo, D->threads_per_row, alpha, x, beta, y, s);
}
