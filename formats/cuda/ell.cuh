/* CUDA ELL family (ell, ellr, hll, sell, jad, hyb) — the host layout (formats/ell.h) copied
 * to device memory unchanged: slice_ptr, col, val, rowlen, perm, jad's jd, hyb's tail.
 * Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh. No include guard.
 *
 * Kernel: one thread per stored row r (grid-stride); its slice s = r / C, local row
 * i = r - s*C, entry j at slice_ptr[s] + j*h_s + i, so the threads of a warp read consecutive
 * addresses at every j (coalesced: the reason for the column-major slices). ell, hll and
 * sell threads run to the slice width (the survey's ELL kernel: the padding is read and
 * selected away, so x = +-Inf in a padding column cannot give NaN); ellr threads stop at their
 * row's length (ELLPACK-R). y[perm[r]] for sell (no extra pass).
 * ellr and sell take the survey's ELLR-T choice: t threads per row (params.t, a power of two up
 * to 32; 0: 1 up to 8 entries per row on average, then doubling every doubling of the mean, as
 * the CSR vector kernel's lanes), thread k of a row taking its entries k, k+t, ... (t runs of
 * 32/t consecutive addresses per warp load) and a shuffle sum over the t lanes; sell's slices are
 * then padded to a multiple of t (SELL-P, formats/ell.h). D->tpr may be changed after the upload.
 * jad: a thread per stored row r, entry j at jd[j] + r (consecutive threads, consecutive
 * addresses), to the row's length, y[perm[r]]. hyb: the ELL kernel (C = nrows, width K),
 * then the tail through COO's kernel (warp segmented sums, one atomic per run of a row).
 * Device defaults: hll hs = 32 and sell C = 32 (a warp per slice), sigma = 32*C. */

#ifndef SPMV_CUDA_ELL_COMMON
#define SPMV_CUDA_ELL_COMMON
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__ell(int64_t nrows, int64_t C, int stop_at_len, const I *__restrict__ sp, const I *__restrict__ col,
                   const A *__restrict__ val, const I *__restrict__ rowlen, const I *__restrict__ perm, T alpha,
                   const T *__restrict__ x, T beta, T *__restrict__ y) {
    for (int64_t r = spmv_cuda_gtid(); r < nrows; r += spmv_cuda_gsize()) {
        const int64_t s = r / C, r0 = s * C, i = r - r0, h = nrows - r0 < C ? nrows - r0 : C;
        const int64_t off = (int64_t)sp[s], len = (int64_t)rowlen[r];
        const int64_t wd = stop_at_len ? len : ((int64_t)sp[s + 1] - off) / h;
        T sum = T(0);
        for (int64_t j = 0; j < wd; j++) {
            const int64_t q = off + j * h + i;
            const T v = spmv_cuda_tv<T>(val[q]) * x[col[q]];
            if (j < len) sum += v;
        }
        const int64_t o = perm ? (int64_t)perm[r] : r;
        y[o] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[o];
    }
}
/* ELLR-T / SELL-P: TPR threads per row (TPR > 1), a warp-uniform loop over groups of 32/TPR rows */
template <int TPR, typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__ellt(int64_t nrows, int64_t C, int stop_at_len, const I *__restrict__ sp, const I *__restrict__ col,
                    const A *__restrict__ val, const I *__restrict__ rowlen, const I *__restrict__ perm, T alpha,
                    const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane(), sub = lane % TPR;
    const int64_t per_warp = 32 / TPR, nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = (spmv_cuda_gtid() >> 5) * per_warp; base < nrows; base += nwarps * per_warp) {
        const int64_t r = base + lane / TPR;
        T sum = T(0);
        if (r < nrows) {
            const int64_t s = r / C, r0 = s * C, i = r - r0, h = nrows - r0 < C ? nrows - r0 : C;
            const int64_t off = (int64_t)sp[s], len = (int64_t)rowlen[r];
            const int64_t wd = stop_at_len ? len : ((int64_t)sp[s + 1] - off) / h;
            for (int64_t j = sub; j < wd; j += TPR) {
                const int64_t q = off + j * h + i;
                const T v = spmv_cuda_tv<T>(val[q]) * x[col[q]];
                if (j < len) sum += v;
            }
        }
        sum = spmv_cuda_warp_sum<TPR>(sum);
        if (sub == 0 && r < nrows) spmv_cuda_axpby(y + (perm ? (int64_t)perm[r] : r), alpha, sum, beta);
    }
}
/* ELLR-T's default: 1 thread per row up to 8 entries on average, then one more doubling per doubling */
static inline int spmv_ell_dev_auto_tpr(int64_t nrows, int64_t nnz) {
    int64_t avg = nrows > 0 ? nnz / nrows + (nnz % nrows != 0) : 0;
    int t = 1;
    while (t < 32 && 8 * (int64_t)t < avg) t <<= 1;
    return t;
}
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__jad(int64_t nrows, const I *__restrict__ jd, const I *__restrict__ col, const A *__restrict__ val,
                   const I *__restrict__ rowlen, const I *__restrict__ perm, T alpha, const T *__restrict__ x, T beta,
                   T *__restrict__ y) {
    for (int64_t r = spmv_cuda_gtid(); r < nrows; r += spmv_cuda_gsize()) {
        const int64_t len = (int64_t)rowlen[r];
        T sum = T(0);
        for (int64_t j = 0; j < len; j++) {
            const int64_t q = (int64_t)jd[j] + r;
            sum += spmv_cuda_tv<T>(val[q]) * x[col[q]];
        }
        spmv_cuda_axpby(y + (perm ? (int64_t)perm[r] : r), alpha, sum, beta);
    }
}
static inline spmv_ell_params spmv__ell_dev_params(int variant) {
    spmv_ell_params p = spmv__ell_params_of(variant);
    p.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    if (variant == SPMV_ELL_HLL || variant == SPMV_ELL_SELL) p.c = 32;
    if (variant == SPMV_ELL_SELL) p.sigma = 32 * 32; /* the host's 256*C rule is measured on CPUs only */
    return p;
}
static inline spmv_ell_params spmv_ell_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_PLAIN); }
static inline spmv_ell_params spmv_ellr_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_R); }
static inline spmv_ell_params spmv_hll_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_HLL); }
static inline spmv_ell_params spmv_sell_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_SELL); }
static inline spmv_ell_params spmv_jad_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_JAD); }
static inline spmv_ell_params spmv_hyb_dev_params_default(void) { return spmv__ell_dev_params(SPMV_ELL_HYB); }
/* --tune searches: hll the hack size (a warp and multiples), sell sigma, hyb K, ellr t (below) */
static inline int spmv_hll_dev_candidate(int i, const spmv_ell_params *base, spmv_ell_params *out) {
    static const int hs[] = {32, 64, 128, 256};
    if (i < 0 || i >= 4) return 0;
    *out = *base;
    out->c = hs[i];
    return 1;
}
static inline int spmv_sell_dev_candidate(int i, const spmv_ell_params *base, spmv_ell_params *out) {
    static const int sg[] = {0, 1, 256, 8192, 1 << 30};
    if (i < 0 || i >= 5) return 0;
    *out = *base;
    out->sigma = sg[i];
    return 1;
}
/* hyb: K = the survey's rule, then fixed widths (a width the fill cap refuses is skipped) */
static inline int spmv_hyb_dev_candidate(int i, const spmv_ell_params *base, spmv_ell_params *out) {
    static const int k[] = {0, 2, 4, 8, 16, 32};
    if (i < 0 || i >= 6) return 0;
    *out = *base;
    out->k = k[i];
    return 1;
}
/* ellr: threads per row (0: the rule) */
static inline int spmv_ellr_dev_candidate(int i, const spmv_ell_params *base, spmv_ell_params *out) {
    static const int t[] = {0, 1, 2, 4, 8, 32};
    if (i < 0 || i >= 6) return 0;
    *out = *base;
    out->t = t[i];
    return 1;
}
/* SpMM (layouts: formats/csr_ops.h): one thread per stored row and block of up to 8 vectors,
 * adjacent threads on adjacent rows of a slice (its column-major runs coalesced), the row's
 * entries read once per block of vectors, the padding skipped (rowlen); no atomics. */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__ell_mm(int64_t nrows, int64_t k, int64_t C, const I *__restrict__ sp, const I *__restrict__ col,
                      const A *__restrict__ val, const I *__restrict__ rowlen, const I *__restrict__ perm, T alpha,
                      const T *__restrict__ X, int64_t ldx, T beta, T *__restrict__ Y, int64_t ldy, int colmajor) {
    const int64_t nb = (k + 7) / 8;
    for (int64_t t = spmv_cuda_gtid(); t < nrows * nb; t += spmv_cuda_gsize()) {
        const int64_t g = t / nrows, r = t - g * nrows, v0 = g * 8, kb = k - v0 < 8 ? k - v0 : 8;
        const int64_t s = r / C, r0 = s * C, i = r - r0, h = nrows - r0 < C ? nrows - r0 : C;
        const int64_t off = (int64_t)sp[s], len = (int64_t)rowlen[r];
        T acc[8];
#pragma unroll
        for (int b = 0; b < 8; b++) acc[b] = T(0);
        for (int64_t j = 0; j < len; j++) {
            const int64_t q = off + j * h + i;
            const T a = spmv_cuda_tv<T>(val[q]);
            const int64_t c = (int64_t)col[q];
#pragma unroll
            for (int b = 0; b < 8; b++)
                if (b < kb) acc[b] += a * (colmajor ? X[(v0 + b) * ldx + c] : X[c * ldx + v0 + b]);
        }
        const int64_t o = perm ? (int64_t)perm[r] : r;
#pragma unroll
        for (int b = 0; b < 8; b++)
            if (b < kb) {
                T *yp = colmajor ? Y + (v0 + b) * ldy + o : Y + o * ldy + v0 + b;
                *yp = beta == T(0) ? alpha * acc[b] : alpha * acc[b] + beta * *yp;
            }
    }
}
#endif /* SPMV_CUDA_ELL_COMMON */

typedef struct SPMV_NAME(ell_dev) {
    SPMV_I nrows, ncols, nnz, C, nslices;
    SPMV_I *slice_ptr, *col, *rowlen, *perm; /* device memory (perm NULL: identity) */
    SPMV_T *val;
    SPMV_I *jd, width;           /* jad */
    SPMV_I ntail, *trow, *tcol;  /* hyb's tail */
    SPMV_T *tval;
    int tpr;                     /* ellr, sell: threads per row (1: the thread-per-row kernel) */
    size_t padded;
    spmv_ell_params params;
} SPMV_NAME(ell_dev);

static inline spmv_status SPMV_NAME(ell_dev_free)(SPMV_NAME(ell_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->slice_ptr, &st);
    spmv_cuda_release(&D->col, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->rowlen, &st);
    spmv_cuda_release(&D->perm, &st);
    spmv_cuda_release(&D->jd, &st);
    spmv_cuda_release(&D->trow, &st);
    spmv_cuda_release(&D->tcol, &st);
    spmv_cuda_release(&D->tval, &st);
    memset(D, 0, sizeof *D);
    return st;
}

static inline size_t SPMV_NAME(ell_dev_bytes)(const SPMV_NAME(ell_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nslices + 1) * sizeof(SPMV_I) + D->padded * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           (size_t)D->nrows * sizeof(SPMV_I) * (D->perm ? 2 : 1) + (D->jd ? ((size_t)D->width + 1) * sizeof(SPMV_I) : 0) +
           (size_t)D->ntail * (2 * sizeof(SPMV_I) + sizeof(SPMV_T));
}

/* 1 when the device refuses A for the variant: the skew cap (core.cuh) on every variant
 * but hyb, whose tail takes the long rows */
static inline int SPMV_NAME(ell_dev_skewed)(const SPMV_NAME(csr) *A, int variant) {
    if (!A || variant == SPMV_ELL_HYB || SPMV_NAME(csr_check)(A) != SPMV_OK) return 0;
    return spmv_cuda__skewed<SPMV_I>((int64_t)A->nrows, A->row_ptr, SPMV_CUDA_SKEW_MIN_ELL);
}
/* Host CSR A -> host sliced ELL (the row's variant, device defaults) -> device. */
static inline spmv_status SPMV_NAME(ell__dev_from_csr)(SPMV_NAME(ell_dev) *D, const SPMV_NAME(csr) *A,
                                                       spmv_ell_params q, cudaStream_t s) {
    SPMV_NAME(ell) B;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    q.isa = SPMV_ISA_GENERIC;
    if (SPMV_NAME(ell_dev_skewed)(A, q.variant)) return SPMV_ERR_LIMIT; /* the skew cap (core.cuh) */
    if ((q.variant == SPMV_ELL_R || q.variant == SPMV_ELL_SELL) && q.t == 0 && A && A->nrows >= 0)
        q.t = spmv_ell_dev_auto_tpr((int64_t)A->nrows, (int64_t)A->nnz); /* before the layout: SELL-P pads to it */
    st = SPMV_NAME(ell__from_csr)(&B, A, q);
    if (st != SPMV_OK) return st;
    D->nrows = B.nrows;
    D->ncols = B.ncols;
    D->nnz = B.nnz;
    D->C = B.C;
    D->nslices = B.nslices;
    D->padded = B.slice_ptr ? (size_t)B.slice_ptr[B.nslices] : 0;
    D->params = B.params;
    D->tpr = B.params.t > 1 ? B.params.t : 1;
    st = spmv_cuda_upload(&D->slice_ptr, B.slice_ptr, (size_t)B.nslices + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col, B.col, D->padded, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, B.val, D->padded, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->rowlen, B.rowlen, (size_t)B.nrows, s);
    if (st == SPMV_OK && B.perm) st = spmv_cuda_upload(&D->perm, B.perm, (size_t)B.nrows, s);
    if (st == SPMV_OK && B.jd) st = spmv_cuda_upload(&D->jd, B.jd, (size_t)B.width + 1, s);
    D->width = B.width;
    D->ntail = B.ntail;
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->trow, B.trow, (size_t)B.ntail, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->tcol, B.tcol, (size_t)B.ntail, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->tval, B.tval, (size_t)B.ntail, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    SPMV_NAME(ell_free)(&B);
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(ell_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}
/* spmv_<tag>_<row>_dev_from_csr(D, A, p, s): the row's variant, its device defaults when p is NULL */
#define SPMV__ELL_DEV_FROM(name, VAR)                                                                           \
    static inline spmv_status SPMV_NAME(SPMV_CAT(name, _dev_from_csr))(                                         \
        SPMV_NAME(ell_dev) * D, const SPMV_NAME(csr) * A, const spmv_ell_params *p, cudaStream_t s = 0) {       \
        spmv_ell_params q = p ? *p : SPMV_CAT3(spmv_, name, _dev_params_default)();                             \
        q.variant = VAR;                                                                                        \
        return SPMV_NAME(ell__dev_from_csr)(D, A, q, s);                                                        \
    }
SPMV__ELL_DEV_FROM(ell, SPMV_ELL_PLAIN)
SPMV__ELL_DEV_FROM(ellr, SPMV_ELL_R)
SPMV__ELL_DEV_FROM(hll, SPMV_ELL_HLL)
SPMV__ELL_DEV_FROM(sell, SPMV_ELL_SELL)
SPMV__ELL_DEV_FROM(jad, SPMV_ELL_JAD)
SPMV__ELL_DEV_FROM(hyb, SPMV_ELL_HYB)
#undef SPMV__ELL_DEV_FROM

/* y = alpha*D*x + beta*y on the device, ordered on s (asynchronous); beta == 0: y not read. */
static inline spmv_status SPMV_NAME(ell_dev_mv)(const SPMV_NAME(ell_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D || (D->nrows > 0 && (!y || !D->slice_ptr || !D->rowlen)) || (D->nnz > 0 && !x)) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (D->jd) {
        SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__jad<SPMV_Y, SPMV_I, SPMV_T>)(
            (int64_t)D->nrows, D->jd, D->col, D->val, D->rowlen, D->perm, alpha, x, beta, y);
        return spmv_cuda_status(cudaGetLastError());
    }
    if (D->tpr > 1) {
        const int64_t nth = (int64_t)D->nrows * D->tpr;
#define SPMV__ELLT(TPR)                                                                                          \
    case TPR:                                                                                                    \
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(nth, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__ellt<TPR, SPMV_Y, SPMV_I, SPMV_T>)( \
            (int64_t)D->nrows, (int64_t)D->C, D->params.variant == SPMV_ELL_R, D->slice_ptr, D->col, D->val,      \
            D->rowlen, D->perm, alpha, x, beta, y);                                                              \
        break;
        switch (D->tpr) {
            SPMV__ELLT(2)
            SPMV__ELLT(4)
            SPMV__ELLT(8)
            SPMV__ELLT(16)
            SPMV__ELLT(32)
        default: return SPMV_ERR_ARG;
        }
#undef SPMV__ELLT
        return spmv_cuda_status(cudaGetLastError());
    }
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__ell<SPMV_Y, SPMV_I, SPMV_T>)(
        (int64_t)D->nrows, (int64_t)D->C, D->params.variant == SPMV_ELL_R, D->slice_ptr, D->col, D->val, D->rowlen,
        D->perm, alpha, x, beta, y);
    if (D->ntail > 0) { /* hyb: after the ELL part, on the same stream */
        spmv_status st = spmv_cuda_status(cudaGetLastError());
        if (st != SPMV_OK) return st;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->ntail / SPMV_CUDA_COO_STEPS + 32, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                         spmv_cuda__coo<SPMV_Y, SPMV_I, SPMV_T>)((int64_t)D->ntail, D->trow, D->tcol, D->tval, alpha, x, y);
    }
    return spmv_cuda_status(cudaGetLastError());
}

/* Y = alpha*A*X + beta*Y with k vectors on the device, both layouts (formats/csr_ops.h):
 * native for ell, ellr, hll and sell (spmv_cuda__ell_mm); SPMV_ERR_UNSUPPORTED for jad and for
 * hyb with a tail, which any_dev_mm then runs vector by vector (column-major). */
static inline spmv_status SPMV_NAME(ell_dev_mm)(const SPMV_NAME(ell_dev) *D, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                                int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay,
                                                cudaStream_t s = 0) {
    if (!D || spmv__mm_args_bad(D->ncols, D->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (D->jd || D->ntail > 0) return SPMV_ERR_UNSUPPORTED;
    if (D->nrows == 0) return SPMV_OK;
    if (!D->slice_ptr || !D->rowlen) return SPMV_ERR_ARG;
    SPMV_CUDA_LAUNCH(spmv_cuda_grid((int64_t)D->nrows * ((k + 7) / 8), SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                     (spmv_cuda__ell_mm<SPMV_Y, SPMV_I, SPMV_T>))((int64_t)D->nrows, k, (int64_t)D->C, D->slice_ptr, D->col,
                                                          D->val, D->rowlen, D->perm, alpha, X, ldx, beta, Y, ldy,
                                                          lay == SPMV_COL_MAJOR);
    return spmv_cuda_status(cudaGetLastError());
}

static inline void SPMV_NAME(ell_dev_params_str)(const SPMV_NAME(ell_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    if (D->params.variant == SPMV_ELL_HLL) snprintf(buf, len, "hs=%d", D->params.c);
    else if (D->params.variant == SPMV_ELL_SELL)
        snprintf(buf, len, "c=%d,sigma=%d,t=%d", D->params.c, D->params.sigma, D->tpr);
    else if (D->params.variant == SPMV_ELL_R)
        snprintf(buf, len, "width=%lld,t=%d", D->nrows > 0 ? (long long)(D->padded / (size_t)D->nrows) : 0LL, D->tpr);
    else if (D->params.variant == SPMV_ELL_HYB) snprintf(buf, len, "k=%d,tail=%lld", D->params.k, (long long)D->ntail);
    else if (D->params.variant == SPMV_ELL_JAD) snprintf(buf, len, "width=%lld", (long long)D->width);
    else snprintf(buf, len, "width=%lld", D->nrows > 0 ? (long long)(D->padded / (size_t)D->nrows) : 0LL);
}
