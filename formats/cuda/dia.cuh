/* CUDA DIA family (dia, hdia) — the host hacked-DIA layout (formats/dia.h) copied to device
 * memory unchanged: hd, off, val, bits. Template header, included once per (SPMV_TAG,
 * SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh. No include guard.
 *
 * Kernel: one thread per row (grid-stride), the survey's DIA kernel: for each diagonal of its
 * hack, the slot val[hd[h]*H + dl*h_rows + i] (consecutive threads, consecutive addresses)
 * times x[row + off] (consecutive too), the slot's bit deciding whether it counts (padding is
 * never multiplied: 0*Inf). The offsets and bit words are the same for a warp's rows of a
 * hack (broadcast loads). Device defaults: hdia hs = 32 (a warp per hack). */

#ifndef SPMV_CUDA_DIA_COMMON
#define SPMV_CUDA_DIA_COMMON
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__dia(int64_t nrows, int64_t H, const I *__restrict__ hd, const I *__restrict__ off,
                   const A *__restrict__ val, const uint64_t *__restrict__ bits, T alpha, const T *__restrict__ x,
                   T beta, T *__restrict__ y) {
    const int64_t mw = (H + 63) / 64;
    for (int64_t r = spmv_cuda_gtid(); r < nrows; r += spmv_cuda_gsize()) {
        const int64_t h = r / H, r0 = h * H, i = r - r0, hr = nrows - r0 < H ? nrows - r0 : H;
        const int64_t d0 = (int64_t)hd[h], d1 = (int64_t)hd[h + 1];
        const A *pv = val + d0 * H + i;
        T sum = T(0);
        for (int64_t d = d0; d < d1; d++, pv += hr)
            if ((bits[d * mw + i / 64] >> (i % 64)) & 1u) sum += spmv_cuda_tv<T>(*pv) * x[r + (int64_t)off[d]];
        spmv_cuda_axpby(y + r, alpha, sum, beta);
    }
}
static inline spmv_dia_params spmv_dia_dev_params_default(void) {
    spmv_dia_params p = spmv_dia_params_default();
    p.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    return p;
}
static inline spmv_dia_params spmv_hdia_dev_params_default(void) {
    spmv_dia_params p = spmv_hdia_params_default();
    p.isa = SPMV_ISA_GENERIC;
    p.hs = 32;
    return p;
}
/* --tune: hdia's hack size (a warp and multiples) */
static inline int spmv_hdia_dev_candidate(int i, const spmv_dia_params *base, spmv_dia_params *out) {
    static const int hs[] = {32, 64, 256, 1024};
    if (i < 0 || i >= 4) return 0;
    *out = *base;
    out->hs = hs[i];
    return 1;
}
#endif /* SPMV_CUDA_DIA_COMMON */

typedef struct SPMV_NAME(dia_dev) {
    SPMV_I nrows, ncols, nnz, H, nhacks, ndiags;
    SPMV_I *hd, *off; /* device memory */
    SPMV_T *val;
    uint64_t *bits;
    size_t padded;
    spmv_dia_params params;
} SPMV_NAME(dia_dev);

static inline spmv_status SPMV_NAME(dia_dev_free)(SPMV_NAME(dia_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->hd, &st);
    spmv_cuda_release(&D->off, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->bits, &st);
    memset(D, 0, sizeof *D);
    return st;
}

static inline size_t SPMV_NAME(dia_dev_bytes)(const SPMV_NAME(dia_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nhacks + 1 + (size_t)D->ndiags) * sizeof(SPMV_I) + D->padded * sizeof(SPMV_T) +
           (size_t)D->ndiags * (((size_t)D->H + 63) / 64) * 8u;
}

/* Host CSR A -> host hacked DIA (the row's variant, device defaults) -> device. */
static inline spmv_status SPMV_NAME(dia__dev_from_csr)(SPMV_NAME(dia_dev) *D, const SPMV_NAME(csr) *A,
                                                       spmv_dia_params q, cudaStream_t s) {
    SPMV_NAME(dia) B;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    q.isa = SPMV_ISA_GENERIC;
    st = SPMV_NAME(dia__from_csr)(&B, A, q);
    if (st != SPMV_OK) return st;
    D->nrows = B.nrows;
    D->ncols = B.ncols;
    D->nnz = B.nnz;
    D->H = B.H;
    D->nhacks = B.nhacks;
    D->ndiags = B.ndiags;
    D->padded = (size_t)SPMV_NAME(dia__padded)(&B);
    D->params = B.params;
    st = spmv_cuda_upload(&D->hd, B.hd, (size_t)B.nhacks + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->off, B.off, (size_t)B.ndiags, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, B.val, D->padded, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->bits, B.bits, (size_t)B.ndiags * (size_t)SPMV_NAME(dia__mw)(&B), s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    SPMV_NAME(dia_free)(&B);
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(dia_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}
static inline spmv_status SPMV_NAME(dia_dev_from_csr)(SPMV_NAME(dia_dev) *D, const SPMV_NAME(csr) *A,
                                                      const spmv_dia_params *p, cudaStream_t s = 0) {
    spmv_dia_params q = p ? *p : spmv_dia_dev_params_default();
    q.variant = SPMV_DIA_PLAIN;
    return SPMV_NAME(dia__dev_from_csr)(D, A, q, s);
}
static inline spmv_status SPMV_NAME(hdia_dev_from_csr)(SPMV_NAME(dia_dev) *D, const SPMV_NAME(csr) *A,
                                                       const spmv_dia_params *p, cudaStream_t s = 0) {
    spmv_dia_params q = p ? *p : spmv_hdia_dev_params_default();
    q.variant = SPMV_DIA_HACKED;
    return SPMV_NAME(dia__dev_from_csr)(D, A, q, s);
}

/* y = alpha*D*x + beta*y on the device, ordered on s (asynchronous); beta == 0: y not read. */
static inline spmv_status SPMV_NAME(dia_dev_mv)(const SPMV_NAME(dia_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D || (D->nrows > 0 && (!y || !D->hd)) || (D->nnz > 0 && !x)) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__dia<SPMV_Y, SPMV_I, SPMV_T>)(
        (int64_t)D->nrows, (int64_t)D->H, D->hd, D->off, D->val, D->bits, alpha, x, beta, y);
    return spmv_cuda_status(cudaGetLastError());
}

static inline void SPMV_NAME(dia_dev_params_str)(const SPMV_NAME(dia_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    if (D->params.variant == SPMV_DIA_HACKED)
        snprintf(buf, len, "hs=%d,diags=%lld", D->params.hs, (long long)D->ndiags);
    else snprintf(buf, len, "diags=%lld", (long long)D->ndiags);
}
