/* CUDA "any format" handle: every device format behind one type, for code that picks
 * the format at run time (the spmv-cuda bench, the tests, a solver's setup).
 * Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh, after the per-format headers. No include guard.
 *
 *   spmv_d_any_dev D;
 *   spmv_d_any_dev_from_csr(&D, &A, SPMV_DEV_AXTCH1, NULL, stream);  // host convert + upload
 *   spmv_d_any_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, stream);           // AXC/AXT: x update + kernel
 *   spmv_d_any_dev_update_x(&D, x_dev, stream);                      // AXC/AXT only, else no-op
 *   spmv_d_any_dev_mv_kernel(&D, 1.0, NULL, 0.0, y_dev, stream);     // with the last x
 *   spmv_d_any_dev_free(&D);
 * D.csr / D.coo / D.axt are the per-format objects (only the one of D.fmt is set), so
 * e.g. D.csr.threads_per_row can be changed after the upload. */

#ifndef SPMV_CUDA_ANY_COMMON
#define SPMV_CUDA_ANY_COMMON
typedef enum spmv_dev_format {
    SPMV_DEV_CSR_SCALAR = 0,
    SPMV_DEV_CSR_VECTOR,
    SPMV_DEV_CSR_MERGE,
    SPMV_DEV_COO,
    SPMV_DEV_AXC,
    SPMV_DEV_AXTUH1,
    SPMV_DEV_AXTUH,
    SPMV_DEV_AXTCH1,
    SPMV_DEV_AXTCH,
    SPMV_DEV_FMT_COUNT_
} spmv_dev_format;

static inline const char *spmv_dev_format_name(spmv_dev_format f) {
    static const char *const names[SPMV_DEV_FMT_COUNT_] = {"csr_scalar", "csr_vector", "csr_merge",
                                                           "coo",        "axc",        "axtuh1",
                                                           "axtuh",      "axtch1",     "axtch"};
    return (int)f >= 0 && f < SPMV_DEV_FMT_COUNT_ ? names[f] : "?";
}
/* -1 when unknown */
static inline int spmv_dev_format_from_name(const char *s) {
    int f;
    for (f = 0; s && f < SPMV_DEV_FMT_COUNT_; f++)
        if (!strcmp(s, spmv_dev_format_name((spmv_dev_format)f))) return f;
    return -1;
}
static inline int spmv_dev_format_embeds_x(spmv_dev_format f) { return f >= SPMV_DEV_AXC && f <= SPMV_DEV_AXTCH; }
/* the AXC/AXT variant of an embedding format */
static inline spmv_axt_variant spmv_dev__variant(spmv_dev_format f) {
    return (spmv_axt_variant)((int)SPMV_AXC + ((int)f - (int)SPMV_DEV_AXC));
}
#endif /* SPMV_CUDA_ANY_COMMON */

typedef struct SPMV_NAME(any_dev) {
    spmv_dev_format fmt;
    SPMV_NAME(csr_dev) csr; /* CSR_SCALAR, CSR_VECTOR, CSR_MERGE */
    SPMV_NAME(coo_dev) coo; /* COO */
    SPMV_NAME(axt_dev) axt; /* AXC .. AXTCH */
} SPMV_NAME(any_dev);

static inline spmv_status SPMV_NAME(any_dev_free)(SPMV_NAME(any_dev) *D) {
    spmv_status st = SPMV_OK, s2;
    if (!D) return SPMV_OK;
    if ((s2 = SPMV_NAME(csr_dev_free)(&D->csr)) != SPMV_OK) st = s2;
    if ((s2 = SPMV_NAME(coo_dev_free)(&D->coo)) != SPMV_OK && st == SPMV_OK) st = s2;
    if ((s2 = SPMV_NAME(axt_dev_free)(&D->axt)) != SPMV_OK && st == SPMV_OK) st = s2;
    memset(D, 0, sizeof *D);
    return st;
}

/* Builds format f from host CSR A (converting on the host where the format needs it)
 * and uploads it; waits for the copies. p: AXC/AXT parameters (NULL: the GPU defaults,
 * spmv_axt_params_cuda_default), ignored by the other formats. On failure *D is zeroed
 * and nothing leaks; argument and parameter errors come before any CUDA call. */
static inline spmv_status SPMV_NAME(any_dev_from_csr)(SPMV_NAME(any_dev) *D, const SPMV_NAME(csr) *A,
                                                      spmv_dev_format f, const spmv_axt_params *p,
                                                      cudaStream_t s = 0) {
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || (int)f < 0 || f >= SPMV_DEV_FMT_COUNT_) return SPMV_ERR_ARG;
    D->fmt = f;
    switch (f) {
    case SPMV_DEV_CSR_SCALAR:
    case SPMV_DEV_CSR_VECTOR:
    case SPMV_DEV_CSR_MERGE:
        st = SPMV_NAME(csr_to_device)(&D->csr, A, s);
        if (st == SPMV_OK)
            D->csr.algo = f == SPMV_DEV_CSR_SCALAR   ? SPMV_CSR_DEV_SCALAR
                          : f == SPMV_DEV_CSR_MERGE ? SPMV_CSR_DEV_MERGE
                                                    : SPMV_CSR_DEV_VECTOR;
        break;
    case SPMV_DEV_COO: {
        SPMV_NAME(coo) B;
        st = SPMV_NAME(coo_from_csr)(&B, A, NULL);
        if (st == SPMV_OK) {
            st = SPMV_NAME(coo_to_device)(&D->coo, &B, s);
            SPMV_NAME(coo_free)(&B);
        }
        break;
    }
    default: st = SPMV_NAME(axt_dev_from_csr)(&D->axt, A, spmv_dev__variant(f), p, s); break;
    }
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(any_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

static inline int SPMV_NAME(any_dev_embeds_x)(const SPMV_NAME(any_dev) *D) {
    return D && spmv_dev_format_embeds_x(D->fmt);
}

/* AXC/AXT: scatter x into the device ax; other formats: nothing (SPMV_OK). */
static inline spmv_status SPMV_NAME(any_dev_update_x)(const SPMV_NAME(any_dev) *D, const SPMV_T *x,
                                                      cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    return spmv_dev_format_embeds_x(D->fmt) ? SPMV_NAME(axt_dev_update_x)(&D->axt, x, s) : SPMV_OK;
}

/* The product alone: AXC/AXT use the x of the last update (x may be NULL); the other
 * formats read x (same as _any_dev_mv). */
static inline spmv_status SPMV_NAME(any_dev_mv_kernel)(const SPMV_NAME(any_dev) *D, SPMV_T alpha, const SPMV_T *x,
                                                       SPMV_T beta, SPMV_T *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    switch (D->fmt) {
    case SPMV_DEV_CSR_SCALAR:
    case SPMV_DEV_CSR_VECTOR:
    case SPMV_DEV_CSR_MERGE: return SPMV_NAME(csr_dev_mv)(&D->csr, alpha, x, beta, y, s);
    case SPMV_DEV_COO: return SPMV_NAME(coo_dev_mv)(&D->coo, alpha, x, beta, y, s);
    default: return SPMV_NAME(axt_dev_mv_kernel)(&D->axt, alpha, beta, y, s);
    }
}

/* What a solver pays per product: AXC/AXT scatter x first. */
static inline spmv_status SPMV_NAME(any_dev_mv)(const SPMV_NAME(any_dev) *D, SPMV_T alpha, const SPMV_T *x,
                                                SPMV_T beta, SPMV_T *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    if (spmv_dev_format_embeds_x(D->fmt)) return SPMV_NAME(axt_dev_mv)(&D->axt, alpha, x, beta, y, s);
    return SPMV_NAME(any_dev_mv_kernel)(D, alpha, x, beta, y, s);
}

/* Device bytes of the matrix (AXC/AXT: with the x map; CSR: without the merge scratch). */
static inline size_t SPMV_NAME(any_dev_bytes)(const SPMV_NAME(any_dev) *D) {
    if (!D) return 0;
    switch (D->fmt) {
    case SPMV_DEV_CSR_SCALAR:
    case SPMV_DEV_CSR_VECTOR:
    case SPMV_DEV_CSR_MERGE: return SPMV_NAME(csr_dev_bytes)(&D->csr);
    case SPMV_DEV_COO: return SPMV_NAME(coo_dev_bytes)(&D->coo);
    default: return SPMV_NAME(axt_dev_bytes)(&D->axt);
    }
}
/* What _any_dev_mv_kernel streams of the matrix (AXC/AXT: ax + header; others: all). */
static inline size_t SPMV_NAME(any_dev_kernel_bytes)(const SPMV_NAME(any_dev) *D) {
    if (D && spmv_dev_format_embeds_x(D->fmt)) return SPMV_NAME(axt_dev_kernel_bytes)(&D->axt);
    return SPMV_NAME(any_dev_bytes)(D);
}

/* "tpr=32", "thw=32,th=8", "thw=32,bs=512", "ipt=8" ... */
static inline void SPMV_NAME(any_dev_params)(const SPMV_NAME(any_dev) *D, char *buf, size_t n) {
    if (!n) return;
    if (!D) {
        snprintf(buf, n, "-");
        return;
    }
    switch (D->fmt) {
    case SPMV_DEV_CSR_VECTOR:
        snprintf(buf, n, "tpr=%d", D->csr.threads_per_row ? D->csr.threads_per_row
                                                          : spmv_csr_dev_auto_tpr(D->csr.nrows, D->csr.nnz));
        break;
    case SPMV_DEV_CSR_SCALAR: snprintf(buf, n, "tpr=1"); break;
    case SPMV_DEV_CSR_MERGE: snprintf(buf, n, "tile=%d", SPMV_CUDA_MERGE_TILE); break;
    case SPMV_DEV_COO: snprintf(buf, n, "seg=%d", 32 * SPMV_CUDA_COO_STEPS); break;
    default:
        if (D->axt.variant == SPMV_AXTUH || D->axt.variant == SPMV_AXTCH)
            snprintf(buf, n, "thw=%d,th=%d", D->axt.params.thw, D->axt.params.th);
        else if (D->axt.variant == SPMV_AXTCH1) snprintf(buf, n, "thw=%d,bs=%d", D->axt.params.thw, D->axt.params.bs);
        else snprintf(buf, n, "thw=%d", D->axt.params.thw);
        break;
    }
}
