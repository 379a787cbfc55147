/* any — one run-time handle over every format, for tools that pick a format by name
 * (spmv bench / spmv mv) and for tests that sweep all formats. New formats add a
 * name to spmv_format_names and a case to each switch below. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_ANY_COMMON
#define SPMV_ANY_COMMON
typedef enum spmv_format {
    SPMV_FMT_COO = 0,
    SPMV_FMT_CSR,
    SPMV_FMT_CSR_MERGE,
    SPMV_FMT_COUNT_
} spmv_format;
/* lowercase names, as in docs/DESIGN.md and on the command line */
static inline const char *spmv_format_name(spmv_format f) {
    static const char *const names[SPMV_FMT_COUNT_] = {"coo", "csr", "csr_merge"};
    return (int)f >= 0 && f < SPMV_FMT_COUNT_ ? names[f] : "?";
}
/* SPMV_FMT_COUNT_ when unknown */
static inline spmv_format spmv_format_parse(const char *s) {
    int f;
    for (f = 0; f < SPMV_FMT_COUNT_; f++)
        if (s && !strcmp(s, spmv_format_name((spmv_format)f))) return (spmv_format)f;
    return SPMV_FMT_COUNT_;
}
#endif

typedef struct SPMV_NAME(any) {
    spmv_format fmt;
    union {
        SPMV_NAME(coo) coo;
        SPMV_NAME(csr) csr;
    } u;
} SPMV_NAME(any);
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_API)
static inline spmv_status SPMV_NAME(any__build)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                spmv_isa isa) {
    switch (fmt) {
    case SPMV_FMT_COO: {
        spmv_coo_params p = spmv_coo_params_default();
        p.isa = isa;
        return SPMV_NAME(coo_from_csr)(&M->u.coo, A, &p);
    }
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: {
        spmv_csr_params p = spmv_csr_params_default();
        SPMV_NAME(coo) B;
        spmv_status st;
        p.isa = isa;
        p.algo = fmt == SPMV_FMT_CSR_MERGE ? SPMV_CSR_MERGE : SPMV_CSR_ROWS;
        /* a real conversion (not a copy of A), so its cost is what a user pays */
        st = SPMV_NAME(coo_from_csr)(&B, A, NULL);
        if (st != SPMV_OK) return st;
        st = SPMV_NAME(csr_from_coo)(&M->u.csr, &B, &p);
        SPMV_NAME(coo_free)(&B);
        return st;
    }
    default: return SPMV_ERR_ARG;
    }
}
/* Builds format `fmt` from CSR A with kernels for `isa` (SPMV_ISA_AUTO: detected).
 * On failure *M is left empty. */
static inline spmv_status SPMV_NAME(any_from_csr)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                  spmv_isa isa) {
    spmv_status st;
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A) return SPMV_ERR_ARG;
    st = SPMV_NAME(any__build)(M, A, fmt, isa);
    if (st == SPMV_OK) M->fmt = fmt;
    else memset(M, 0, sizeof *M);
    return st;
}

static inline spmv_status SPMV_NAME(any_mv)(const SPMV_NAME(any) *M, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                            SPMV_T *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
    case SPMV_FMT_COO: return SPMV_NAME(coo_mv)(&M->u.coo, alpha, x, beta, y);
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return SPMV_NAME(csr_mv)(&M->u.csr, alpha, x, beta, y);
    default: return SPMV_ERR_ARG;
    }
}

/* Formats that embed x (AXC/AXT) need it refreshed for a new x; others: no-op. */
static inline spmv_status SPMV_NAME(any_update_x)(SPMV_NAME(any) *M, const SPMV_T *x) {
    (void)x;
    return M ? SPMV_OK : SPMV_ERR_ARG;
}
static inline int SPMV_NAME(any_embeds_x)(const SPMV_NAME(any) *M) {
    (void)M;
    return 0;
}

static inline size_t SPMV_NAME(any_bytes)(const SPMV_NAME(any) *M) {
    switch (M->fmt) {
    case SPMV_FMT_COO: return SPMV_NAME(coo_bytes)(&M->u.coo);
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return SPMV_NAME(csr_bytes)(&M->u.csr);
    default: return 0;
    }
}

static inline spmv_isa SPMV_NAME(any_isa)(const SPMV_NAME(any) *M) {
    switch (M->fmt) {
    case SPMV_FMT_COO: return M->u.coo.params.isa;
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return M->u.csr.params.isa;
    default: return SPMV_ISA_AUTO;
    }
}

/* Human-readable parameters, e.g. "algo=merge" (empty when none). */
static inline void SPMV_NAME(any_params)(const SPMV_NAME(any) *M, char *buf, size_t n) {
    if (!n) return;
    buf[0] = 0;
    switch (M->fmt) {
    case SPMV_FMT_CSR: snprintf(buf, n, "algo=rows"); break;
    case SPMV_FMT_CSR_MERGE: snprintf(buf, n, "algo=merge"); break;
    default: break;
    }
}

static inline void SPMV_NAME(any_free)(SPMV_NAME(any) *M) {
    if (!M) return;
    switch (M->fmt) {
    case SPMV_FMT_COO: SPMV_NAME(coo_free)(&M->u.coo); break;
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: SPMV_NAME(csr_free)(&M->u.csr); break;
    default: break;
    }
    memset(M, 0, sizeof *M);
}
#endif /* SPMV_PART_API */
