/* CUDA "any format" handle, generated from formats/registry.h (the rows with cuda = 1;
 * nothing here names a format): every device format behind one type, for code that picks
 * the format at run time (spmv-cuda bench, the tests, a solver's setup). Template header,
 * included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh, after the
 * per-format headers. No include guard.
 *
 *   spmv_d_any_dev D;
 *   spmv_opts o = spmv_opts_default();                                  // csr, device defaults
 *   o.format = SPMV_FMT_AXTCH1;
 *   o.params = "bs=256";                                                // optional
 *   spmv_d_any_dev_from_csr(&D, &A, &o, &err, stream);                  // err may be NULL
 *   spmv_d_any_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, stream);              // embeds-x: update + kernel
 *   spmv_d_any_dev_update_x(&D, x_dev, stream);                         // embeds-x only, else no-op
 *   spmv_d_any_dev_mv_kernel(&D, 1.0, NULL, 0.0, y_dev, stream);        // with the last x
 *   spmv_d_any_dev_free(&D);
 * The device contract of a row n of family f (formats/cuda/<f>.cuh): spmv_<n>_dev_params_default(),
 * <n>_dev_from_csr(D, A, const spmv_<n>_params *, s), and for tunable rows
 * spmv_<n>_dev_candidate(i, base, out); per family spmv_<tag>_<f>_dev, <f>_dev_mv(D, alpha, x,
 * beta, y, s), <f>_dev_free, <f>_dev_bytes, <f>_dev_params_str, and for embeds-x families
 * <f>_dev_update_x(D, x, s), <f>_dev_mv_kernel(D, alpha, beta, y, s), <f>_dev_kernel_bytes.
 * D.u.<name> is the per-format object (only the one of D.fmt is set). */

#define SPMV__HEADER(family) "core/empty.h" /* relative to formats/registry.h */

#ifndef SPMV_CUDA_ANY_COMMON
#define SPMV_CUDA_ANY_COMMON
/* Device defaults of format f (SPMV_ERR_ARG when f has no device kernel here), then the
 * "key=value,..." string s (may be NULL). */
static inline spmv_status spmv_any_dev_params_init(spmv_format f, const char *s, spmv_any_params *p, spmv_error *e) {
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!p) return SPMV_ERR_ARG;
    memset(p, 0, sizeof *p);
    switch (f) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) :                                                               \
        p->n = SPMV_CAT3(spmv_, n, _dev_params_default)();                                                      \
        return SPMV_CAT3(spmv_, n, _params_parse)(s, &p->n, e);)
#include "../registry.h"
#undef SPMV_FORMAT
    default:
        if (e) snprintf(e->msg, sizeof e->msg, "format %s has no device kernel", spmv_format_name(f));
        return SPMV_ERR_ARG;
    }
}
/* The --tune search of format f: candidate i (0 past the end, or when f is not tunable). */
static inline int spmv_any_dev_candidate(spmv_format f, int i, const spmv_any_params *base, spmv_any_params *out) {
    switch (f) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, ...)                                                       \
    SPMV__IF(cuda)(SPMV__IF(tun)(case SPMV_CAT(SPMV_FMT_, ID) :                                                 \
        *out = *base;                                                                                           \
        return SPMV_CAT3(spmv_, n, _dev_candidate)(i, &base->n, &out->n);))
#include "../registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}
#endif /* SPMV_CUDA_ANY_COMMON */

typedef struct SPMV_NAME(any_dev) {
    spmv_format fmt;
    double tune_s; /* seconds the build spent tuning (opts.tune) */
    union {
        char none_;
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...) SPMV__IF(cuda)(SPMV_NAME(SPMV_CAT(fam, _dev)) n;)
#include "../registry.h"
#undef SPMV_FORMAT
    } u;
} SPMV_NAME(any_dev);

/* 1 when this tag instantiates device format f (the rows with cuda = 1 of the families it has:
 * every one for s and d, those of SPMV__MIXED_<family> for a tag with its own vector type) */
static inline int SPMV_NAME(any_dev_has)(spmv_format f) {
    switch (f) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...) SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : return 1;)
#include "../registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

static inline spmv_status SPMV_NAME(any_dev_free)(SPMV_NAME(any_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : st = SPMV_NAME(SPMV_CAT(fam, _dev_free))(&D->u.n); break;)
#include "../registry.h"
#undef SPMV_FORMAT
    default: break;
    }
    memset(D, 0, sizeof *D);
    return st;
}

/* Builds format f from host CSR A with parsed parameters p (NULL: its device defaults) and
 * uploads it; waits for the copies. On failure *D is zeroed and nothing leaks; argument,
 * parameter and matrix errors (csr_check) come back before any CUDA call. */
static inline spmv_status SPMV_NAME(any_dev__build)(SPMV_NAME(any_dev) *D, const SPMV_NAME(csr) *A, spmv_format f,
                                                    const spmv_any_params *p, cudaStream_t s) {
    spmv_any_params q;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || !(spmv_format_flags(f) & SPMV_FF_CUDA)) return SPMV_ERR_ARG;
    if (p) q = *p;
    else if ((st = spmv_any_dev_params_init(f, NULL, &q, NULL)) != SPMV_OK) return st;
    switch (f) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : st = SPMV_NAME(SPMV_CAT(n, _dev_from_csr))(&D->u.n, A, &q.n, s); break;)
#include "../registry.h"
#undef SPMV_FORMAT
    default: st = SPMV_ERR_ARG; break;
    }
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        memset(D, 0, sizeof *D); /* the format's converter already freed what it made */
        spmv_cuda__last_error_ref() = keep;
        return st;
    }
    D->fmt = f;
    return SPMV_OK;
}

static inline int SPMV_NAME(any_dev_embeds_x)(const SPMV_NAME(any_dev) *D) {
    return D && (spmv_format_flags(D->fmt) & SPMV_FF_EMBEDS_X) && (spmv_format_flags(D->fmt) & SPMV_FF_CUDA);
}

/* embeds-x formats: scatter x into the device copy; other formats: nothing (SPMV_OK). */
static inline spmv_status SPMV_NAME(any_dev_update_x)(const SPMV_NAME(any_dev) *D, const SPMV_Y *x,
                                                      cudaStream_t s = 0) {
    (void)x;
    (void)s;
    if (!D) return SPMV_ERR_ARG;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, ...)                                                            \
    SPMV__IF(cuda)(SPMV__IF(ex)(case SPMV_CAT(SPMV_FMT_, ID) :                                                  \
                                return SPMV_NAME(SPMV_CAT(fam, _dev_update_x))(&D->u.n, x, s);))
#include "../registry.h"
#undef SPMV_FORMAT
    default: return SPMV_OK;
    }
}

/* The product alone: embeds-x formats use the x of the last update (x may be NULL); the
 * others read x (same as _any_dev_mv). */
static inline spmv_status SPMV_NAME(any_dev_mv_kernel)(const SPMV_NAME(any_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                       SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, ...)                                                            \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) :                                                               \
                   return SPMV__IF(ex)(SPMV_NAME(SPMV_CAT(fam, _dev_mv_kernel))(&D->u.n, alpha, beta, y, s))    \
                       SPMV__IFNOT(ex)(SPMV_NAME(SPMV_CAT(fam, _dev_mv))(&D->u.n, alpha, x, beta, y, s));)
#include "../registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

/* What a solver pays per product: embeds-x formats scatter x first. */
static inline spmv_status SPMV_NAME(any_dev_mv)(const SPMV_NAME(any_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _dev_mv))(&D->u.n, alpha, x, beta, y, s);)
#include "../registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

/* y = alpha*B^T*x + beta*y, B the matrix the handle holds: the csr rows natively (with atomics:
 * the last bits may vary from run to run), the symmetric-only rows (sss) by their forward
 * product (B^T = B); the others SPMV_ERR_UNSUPPORTED (build them with opts.transpose).
 * x: B's nrows values, y: its ncols. */
static inline spmv_status SPMV_NAME(any_dev_mvt)(const SPMV_NAME(any_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    if (!D) return SPMV_ERR_ARG;
    if (D->fmt == SPMV_FMT_CSR || D->fmt == SPMV_FMT_CSR_MERGE || D->fmt == SPMV_FMT_CSR_SCALAR ||
        D->fmt == SPMV_FMT_CSR_VECTOR)
        return SPMV_NAME(csr_dev_mvt)(&D->u.csr, alpha, x, beta, y, s);
    if ((int)D->fmt >= 0 && D->fmt < SPMV_FMT_COUNT_ && (spmv_format_flags(D->fmt) & SPMV_FF_SYMMETRIC) &&
        (spmv_format_flags(D->fmt) & SPMV_FF_CUDA))
        return SPMV_NAME(any_dev_mv)(D, alpha, x, beta, y, s); /* A^T = A */
    return (int)D->fmt >= 0 && D->fmt < SPMV_FMT_COUNT_ ? SPMV_ERR_UNSUPPORTED : SPMV_ERR_ARG;
}

/* Y = alpha*B*X + beta*Y with k vectors on the device (device pointers; layouts as on the
 * host): the csr rows natively (csr_dev_mm: atomics only for the long rows of a skewed
 * matrix), ell, ellr, hll and sell natively (ell_dev_mm, no atomics), csrdu natively (csrdu_dev_mm,
 * each row decoded once per 32 vectors, no atomics); the other formats (sss too) one
 * product per vector, column-major only (row-major gives SPMV_ERR_UNSUPPORTED: no device
 * transposes here). */
static inline spmv_status SPMV_NAME(any_dev_mm)(const SPMV_NAME(any_dev) *D, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                                int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay,
                                                cudaStream_t s = 0) {
    spmv_status st = SPMV_OK;
    if (!D || (int)D->fmt < 0 || D->fmt >= SPMV_FMT_COUNT_ || k < 1) return SPMV_ERR_ARG;
    if (D->fmt == SPMV_FMT_CSR || D->fmt == SPMV_FMT_CSR_MERGE || D->fmt == SPMV_FMT_CSR_SCALAR ||
        D->fmt == SPMV_FMT_CSR_VECTOR)
        return SPMV_NAME(csr_dev_mm)(&D->u.csr, k, alpha, X, ldx, beta, Y, ldy, lay, s);
#if SPMV__USE(csrdu)
    if (D->fmt == SPMV_FMT_CSRDU) return SPMV_NAME(csrdu_dev_mm)(&D->u.csrdu, k, alpha, X, ldx, beta, Y, ldy, lay, s);
#endif
#if SPMV__USE(ell)
    if (spmv__dev_mm_native(D->fmt)) { /* the ELL rows (the csr and csrdu ones returned above) */
        st = SPMV_NAME(ell_dev_mm)(&D->u.ell, k, alpha, X, ldx, beta, Y, ldy, lay, s);
        if (st != SPMV_ERR_UNSUPPORTED) return st;
        st = SPMV_OK;
    }
#endif
    if (lay != SPMV_COL_MAJOR) return (int)lay == SPMV_ROW_MAJOR ? SPMV_ERR_UNSUPPORTED : SPMV_ERR_ARG;
    if (!X || !Y || ldx < 1 || ldy < 1) return SPMV_ERR_ARG;
    for (int64_t j = 0; j < k && st == SPMV_OK; j++) st = SPMV_NAME(any_dev_mv)(D, alpha, X + j * ldx, beta, Y + j * ldy, s);
    return st;
}


/* Device bytes of the matrix (embeds-x: with the x map; CSR: without the merge scratch). */
static inline size_t SPMV_NAME(any_dev_bytes)(const SPMV_NAME(any_dev) *D) {
    if (!D) return 0;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _dev_bytes))(&D->u.n);)
#include "../registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}
/* What _any_dev_mv_kernel streams of the matrix (embeds-x: values + header; others: all). */
static inline size_t SPMV_NAME(any_dev_kernel_bytes)(const SPMV_NAME(any_dev) *D) {
    if (!D) return 0;
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, ...)                                                            \
    SPMV__IF(cuda)(SPMV__IF(ex)(case SPMV_CAT(SPMV_FMT_, ID) :                                                  \
                                return SPMV_NAME(SPMV_CAT(fam, _dev_kernel_bytes))(&D->u.n);))
#include "../registry.h"
#undef SPMV_FORMAT
    default: return SPMV_NAME(any_dev_bytes)(D);
    }
}

/* "algo=vector,tpr=32", "thw=32,th=8", "thw=32,bs=512", "seg=256" ... ("-" for NULL) */
static inline void SPMV_NAME(any_dev_params_str)(const SPMV_NAME(any_dev) *D, char *buf, size_t len) {
    if (!len) return;
    buf[0] = 0;
    if (!D) {
        snprintf(buf, len, "-");
        return;
    }
    switch (D->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ...)                                                                \
    SPMV__IF(cuda)(case SPMV_CAT(SPMV_FMT_, ID) : SPMV_NAME(SPMV_CAT(fam, _dev_params_str))(&D->u.n, buf, len); break;)
#include "../registry.h"
#undef SPMV_FORMAT
    default: break;
    }
}

/* Median device time (CUDA events, seconds) of the product alone on D: one warm-up, then
 * 5 samples of reps products each. */
static inline spmv_status SPMV_NAME(any_dev__time)(const SPMV_NAME(any_dev) *D, const SPMV_Y *x, SPMV_Y *y, int reps,
                                                   cudaStream_t s, double *sec) {
    cudaEvent_t e0, e1;
    double smp[5];
    spmv_status st;
    int i, k, r;
    if ((st = spmv_cuda_status(cudaEventCreate(&e0))) != SPMV_OK) return st;
    if ((st = spmv_cuda_status(cudaEventCreate(&e1))) != SPMV_OK) {
        cudaEventDestroy(e0);
        return st;
    }
    st = SPMV_NAME(any_dev_update_x)(D, x, s);
    if (st == SPMV_OK) st = SPMV_NAME(any_dev_mv_kernel)(D, (SPMV_Y)1, x, (SPMV_Y)0, y, s);
    for (i = 0; i < 5 && st == SPMV_OK; i++) {
        float ms = 0;
        st = spmv_cuda_status(cudaEventRecord(e0, s));
        for (r = 0; r < reps && st == SPMV_OK; r++) st = SPMV_NAME(any_dev_mv_kernel)(D, (SPMV_Y)1, x, (SPMV_Y)0, y, s);
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventRecord(e1, s));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventSynchronize(e1));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventElapsedTime(&ms, e0, e1));
        smp[i] = 1e-3 * (double)ms / (reps > 0 ? reps : 1);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (st != SPMV_OK) return st;
    for (i = 1; i < 5; i++) /* median */
        for (k = i; k > 0 && smp[k] < smp[k - 1]; k--) {
            double t = smp[k];
            smp[k] = smp[k - 1];
            smp[k - 1] = t;
        }
    *sec = smp[2];
    return SPMV_OK;
}

/* Tunes format f's parameters on A (in: *p, e.g. from spmv_any_dev_params_init; out: the
 * fastest candidate of the format's search, each converted, uploaded and timed with the
 * product alone). Formats without a search keep *p. *seconds (may be NULL): time spent. */
static inline spmv_status SPMV_NAME(any_dev__tune)(const SPMV_NAME(csr) *A, spmv_format f, spmv_any_params *p,
                                                  int reps, cudaStream_t s, double *seconds) {
    const double t0 = spmv_wtime();
    spmv_any_params base, cand;
    SPMV_Y *x = NULL, *y = NULL, *hx = NULL;
    double best_t = -1;
    spmv_status st = SPMV_OK;
    int i;
    if (seconds) *seconds = 0;
    if (!A || !p) return SPMV_ERR_ARG;
    base = *p;
    if (!spmv_any_dev_candidate(f, 0, &base, &cand)) return SPMV_OK; /* nothing to search */
    hx = (SPMV_Y *)malloc(sizeof(SPMV_Y) * ((size_t)A->ncols + 1));
    if (!hx) return SPMV_ERR_ALLOC;
    for (i = 0; i < A->ncols; i++) hx[i] = (SPMV_Y)(1.0 + (double)(i % 7) / 8.0); /* exact in every type */
    st = spmv_cuda_upload(&x, hx, (size_t)A->ncols, s);
    if (st == SPMV_OK) st = spmv_cuda_alloc(&y, (size_t)A->nrows);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    free(hx);
    for (i = 0; st == SPMV_OK && spmv_any_dev_candidate(f, i, &base, &cand); i++) {
        SPMV_NAME(any_dev) D;
        double t = 0;
        spmv_status cs = SPMV_NAME(any_dev__build)(&D, A, f, &cand, s);
        if (cs == SPMV_ERR_ARG || cs == SPMV_ERR_LIMIT) continue; /* this candidate does not fit A */
        if (cs != SPMV_OK) {
            st = cs;
            break;
        }
        cs = SPMV_NAME(any_dev__time)(&D, x, y, reps, s, &t);
        (void)SPMV_NAME(any_dev_free)(&D);
        if (cs != SPMV_OK) {
            st = cs;
            break;
        }
        if (best_t < 0 || t < best_t) {
            best_t = t;
            *p = cand;
        }
    }
    {
        spmv_status fs = SPMV_OK;
        spmv_cuda_release(&x, &fs);
        spmv_cuda_release(&y, &fs);
        if (st == SPMV_OK) st = fs;
    }
    if (seconds) *seconds = spmv_wtime() - t0;
    return st;
}

/* Builds o->format (NULL: spmv_opts_default(), csr) from host CSR A with its device
 * defaults, then the string o->params, tuned first on A when o->tune is set (seconds in
 * D->tune_s), and uploads it on stream s (the call waits). o->isa is not used here. With
 * o->deterministic a format whose kernels add with atomics is refused. On failure *D is
 * zeroed, nothing leaks, and e (may be NULL) says why. */
static inline spmv_status SPMV_NAME(any_dev_from_csr)(SPMV_NAME(any_dev) *D, const SPMV_NAME(csr) *A,
                                                      const spmv_opts *o, spmv_error *e, cudaStream_t s = 0) {
    const spmv_opts opts = o ? *o : spmv_opts_default();
    spmv_any_params p;
    spmv_status st;
    double tune_s = 0;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A) {
        SPMV__ERR(e, "no matrix (A is NULL)");
        return SPMV_ERR_ARG;
    }
    if ((st = spmv_opts_check(&opts, e)) != SPMV_OK) return st;
    if (opts.deterministic && (spmv_format_flags(opts.format) & SPMV_FF_ATOMICS)) {
        SPMV__ERR(e, "format %s may add into y with atomics (the bits vary run to run): not with deterministic = 1%s",
                  spmv_format_name(opts.format),
                  opts.format == SPMV_FMT_CSR || opts.format == SPMV_FMT_CSR_MERGE ? "; csr_vector is deterministic" : "");
        return SPMV_ERR_ARG;
    }
    if (opts.transpose) { /* the format is built from A^T (A^H: 2; transposed on the host) */
        SPMV_NAME(csr) At;
        spmv_opts o2 = opts;
        o2.transpose = 0;
        if ((st = opts.transpose == 2 ? SPMV_NAME(csr_adjoint)(&At, A) : SPMV_NAME(csr_transpose)(&At, A)) != SPMV_OK) {
            SPMV__ERR(e, "transposing A: %s", spmv_status_str(st));
            return st;
        }
        st = SPMV_NAME(any_dev_from_csr)(D, &At, &o2, e, s);
        SPMV_NAME(csr_free)(&At);
        return st;
    }
    st = spmv_any_dev_params_init(opts.format, opts.params, &p, e);
    if (st != SPMV_OK) return st;
    if (opts.tune) {
        st = SPMV_NAME(any_dev__tune)(A, opts.format, &p, 20, s, &tune_s);
        if (st != SPMV_OK) {
            SPMV__ERR(e, "tuning %s: %s", spmv_format_name(opts.format), spmv_status_str(st));
            return st;
        }
    }
    st = SPMV_NAME(any_dev__build)(D, A, opts.format, &p, s);
    if (st != SPMV_OK) {
        if (st == SPMV_ERR_ARG && (spmv_format_flags(opts.format) & SPMV_FF_SYMMETRIC) &&
            SPMV_NAME(csr_check)(A) == SPMV_OK) /* the matrix is well-formed: it is not symmetric */
            SPMV__ERR(e, "%s needs a symmetric matrix: square, with A(i,j) == A(j,i) for every entry (values included)",
                      spmv_format_name(opts.format));
        else
            SPMV__ERR(e, "%s to the device: %s", spmv_format_name(opts.format),
                      st == SPMV_ERR_CUDA ? cudaGetErrorString(spmv_cuda_last_error()) : spmv_status_str(st));
        return st;
    }
    D->tune_s = tune_s;
    return SPMV_OK;
}
#undef SPMV__HEADER
