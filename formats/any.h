/* any — one run-time handle over every format, for tools that pick a format by name
 * (spmv bench / spmv mv) and for tests that sweep all formats. A new format adds a
 * name to spmv_format_name and a case to each switch below. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_ANY_COMMON
#define SPMV_ANY_COMMON
typedef enum spmv_format {
    SPMV_FMT_COO = 0,
    SPMV_FMT_CSR,
    SPMV_FMT_CSR_MERGE,
    SPMV_FMT_AXC,
    SPMV_FMT_AXTUH1,
    SPMV_FMT_AXTUH,
    SPMV_FMT_AXTCH1,
    SPMV_FMT_AXTCH,
    SPMV_FMT_CSR5,
    SPMV_FMT_COUNT_
} spmv_format;
/* lowercase names, as in docs/DESIGN.md and on the command line */
static inline const char *spmv_format_name(spmv_format f) {
    static const char *const names[SPMV_FMT_COUNT_] = {"coo",   "csr",    "csr_merge", "axc", "axtuh1",
                                                       "axtuh", "axtch1", "axtch",     "csr5"};
    return (int)f >= 0 && f < SPMV_FMT_COUNT_ ? names[f] : "?";
}
/* SPMV_FMT_COUNT_ when unknown */
static inline spmv_format spmv_format_parse(const char *s) {
    int f;
    for (f = 0; f < SPMV_FMT_COUNT_; f++)
        if (s && !strcmp(s, spmv_format_name((spmv_format)f))) return (spmv_format)f;
    return SPMV_FMT_COUNT_;
}
static inline int spmv__fmt_is_axt(spmv_format f) { return f >= SPMV_FMT_AXC && f <= SPMV_FMT_AXTCH; }
static inline spmv_axt_variant spmv__fmt_axt_variant(spmv_format f) {
    return (spmv_axt_variant)((int)f - (int)SPMV_FMT_AXC + (int)SPMV_AXC);
}
#endif

typedef struct SPMV_NAME(any) {
    spmv_format fmt;
    union {
        SPMV_NAME(coo) coo;
        SPMV_NAME(csr) csr;
        SPMV_NAME(axt) axt;
        SPMV_NAME(csr5) csr5;
    } u;
} SPMV_NAME(any);
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_API)
/* tune: search the format's parameters on A first (AXTUH/AXTCH TH, AXTCH1 BS, CSR5 sigma);
 * the search time is added to *tune_s when given. */
static inline spmv_status SPMV_NAME(any__build)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                spmv_isa isa, int tune, double *tune_s) {
    double spent = 0;
    spmv_status st;
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
        p.isa = isa;
        p.algo = fmt == SPMV_FMT_CSR_MERGE ? SPMV_CSR_MERGE : SPMV_CSR_ROWS;
        /* a real conversion (not a copy of A), so its cost is what a user pays */
        st = SPMV_NAME(coo_from_csr)(&B, A, NULL);
        if (st != SPMV_OK) return st;
        st = SPMV_NAME(csr_from_coo)(&M->u.csr, &B, &p);
        SPMV_NAME(coo_free)(&B);
        return st;
    }
    case SPMV_FMT_AXC:
    case SPMV_FMT_AXTUH1:
    case SPMV_FMT_AXTUH:
    case SPMV_FMT_AXTCH1:
    case SPMV_FMT_AXTCH: {
        spmv_axt_params p = spmv_axt_params_default();
        p.isa = isa;
        if (tune) {
            st = SPMV_NAME(axt_tune)(A, spmv__fmt_axt_variant(fmt), isa, &p, &spent);
            if (tune_s) *tune_s += spent;
            if (st != SPMV_OK) return st;
        }
        return SPMV_NAME(axt_from_csr)(&M->u.axt, A, spmv__fmt_axt_variant(fmt), &p);
    }
    case SPMV_FMT_CSR5: {
        spmv_csr5_params p = spmv_csr5_params_default();
        p.isa = isa;
        if (tune) {
            st = SPMV_NAME(csr5_tune)(A, isa, &p, &spent);
            if (tune_s) *tune_s += spent;
            if (st != SPMV_OK) return st;
        }
        return SPMV_NAME(csr5_from_csr)(&M->u.csr5, A, &p);
    }
    default: return SPMV_ERR_ARG;
    }
}

/* Builds format `fmt` from CSR A with kernels for `isa` (SPMV_ISA_AUTO: detected) and
 * default parameters. On failure *M is left empty. */
static inline spmv_status SPMV_NAME(any_from_csr)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                  spmv_isa isa) {
    spmv_status st;
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A) return SPMV_ERR_ARG;
    st = SPMV_NAME(any__build)(M, A, fmt, isa, 0, NULL);
    if (st == SPMV_OK) M->fmt = fmt;
    else memset(M, 0, sizeof *M);
    return st;
}

/* Like any_from_csr, with the format's parameters tuned on A (seconds spent in *tune_s). */
static inline spmv_status SPMV_NAME(any_from_csr_tuned)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                        spmv_isa isa, double *tune_s) {
    spmv_status st;
    if (tune_s) *tune_s = 0;
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A) return SPMV_ERR_ARG;
    st = SPMV_NAME(any__build)(M, A, fmt, isa, 1, tune_s);
    if (st == SPMV_OK) M->fmt = fmt;
    else memset(M, 0, sizeof *M);
    return st;
}

/* y = alpha*A*x + beta*y for any x (formats embedding x copy it in first, so M is not const). */
static inline spmv_status SPMV_NAME(any_mv)(SPMV_NAME(any) *M, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                            SPMV_T *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
    case SPMV_FMT_COO: return SPMV_NAME(coo_mv)(&M->u.coo, alpha, x, beta, y);
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return SPMV_NAME(csr_mv)(&M->u.csr, alpha, x, beta, y);
    case SPMV_FMT_CSR5: return SPMV_NAME(csr5_mv)(&M->u.csr5, alpha, x, beta, y);
    default:
        if (spmv__fmt_is_axt(M->fmt)) return SPMV_NAME(axt_mv)(&M->u.axt, alpha, x, beta, y);
        return SPMV_ERR_ARG;
    }
}

/* Does the format embed x (AXC/AXT)? Then any_update_x + any_mv_kernel is the
 * kernel-only path; for the others any_mv_kernel is any_mv. */
static inline int SPMV_NAME(any_embeds_x)(const SPMV_NAME(any) *M) { return M && spmv__fmt_is_axt(M->fmt); }
static inline spmv_status SPMV_NAME(any_update_x)(SPMV_NAME(any) *M, const SPMV_T *x) {
    if (!M) return SPMV_ERR_ARG;
    return spmv__fmt_is_axt(M->fmt) ? SPMV_NAME(axt_update_x)(&M->u.axt, x) : SPMV_OK;
}
static inline spmv_status SPMV_NAME(any_mv_kernel)(SPMV_NAME(any) *M, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                                   SPMV_T *y) {
    if (M && spmv__fmt_is_axt(M->fmt)) return SPMV_NAME(axt_mv_kernel)(&M->u.axt, alpha, beta, y);
    return SPMV_NAME(any_mv)(M, alpha, x, beta, y);
}

static inline size_t SPMV_NAME(any_bytes)(const SPMV_NAME(any) *M) {
    switch (M->fmt) {
    case SPMV_FMT_COO: return SPMV_NAME(coo_bytes)(&M->u.coo);
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return SPMV_NAME(csr_bytes)(&M->u.csr);
    case SPMV_FMT_CSR5: return SPMV_NAME(csr5_bytes)(&M->u.csr5);
    default: return spmv__fmt_is_axt(M->fmt) ? SPMV_NAME(axt_bytes)(&M->u.axt) : 0;
    }
}

static inline spmv_isa SPMV_NAME(any_isa)(const SPMV_NAME(any) *M) {
    switch (M->fmt) {
    case SPMV_FMT_COO: return M->u.coo.params.isa;
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: return M->u.csr.params.isa;
    case SPMV_FMT_CSR5: return M->u.csr5.params.isa;
    default: return spmv__fmt_is_axt(M->fmt) ? M->u.axt.params.isa : SPMV_ISA_AUTO;
    }
}

/* Human-readable parameters, e.g. "algo=merge" (empty when none). */
static inline void SPMV_NAME(any_params)(const SPMV_NAME(any) *M, char *buf, size_t n) {
    if (!n) return;
    buf[0] = 0;
    switch (M->fmt) {
    case SPMV_FMT_CSR: snprintf(buf, n, "algo=rows"); break;
    case SPMV_FMT_CSR_MERGE: snprintf(buf, n, "algo=merge"); break;
    case SPMV_FMT_CSR5: snprintf(buf, n, "omega=%d,sigma=%d", M->u.csr5.params.omega, M->u.csr5.params.sigma); break;
    default:
        if (spmv__fmt_is_axt(M->fmt)) SPMV_NAME(axt_params_str)(&M->u.axt, buf, n);
        break;
    }
}

/* Back to CSR (round-trip tests). */
static inline spmv_status SPMV_NAME(any_to_csr)(const SPMV_NAME(any) *M, SPMV_NAME(csr) *B) {
    switch (M->fmt) {
    case SPMV_FMT_COO: {
        spmv_triplets t;
        spmv_status st = SPMV_NAME(coo_to_triplets)(&M->u.coo, &t);
        if (st != SPMV_OK) return st;
        st = SPMV_NAME(csr_from_triplets)(B, &t, NULL);
        spmv_triplets_free(&t);
        return st;
    }
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: {
        spmv_status st;
        SPMV_NAME(coo) C;
        st = SPMV_NAME(coo_from_csr)(&C, &M->u.csr, NULL);
        if (st != SPMV_OK) return st;
        st = SPMV_NAME(csr_from_coo)(B, &C, NULL);
        SPMV_NAME(coo_free)(&C);
        return st;
    }
    case SPMV_FMT_CSR5: return SPMV_NAME(csr5_to_csr)(&M->u.csr5, B);
    default: return spmv__fmt_is_axt(M->fmt) ? SPMV_NAME(axt_to_csr)(&M->u.axt, B) : SPMV_ERR_ARG;
    }
}

static inline void SPMV_NAME(any_free)(SPMV_NAME(any) *M) {
    if (!M) return;
    switch (M->fmt) {
    case SPMV_FMT_COO: SPMV_NAME(coo_free)(&M->u.coo); break;
    case SPMV_FMT_CSR:
    case SPMV_FMT_CSR_MERGE: SPMV_NAME(csr_free)(&M->u.csr); break;
    case SPMV_FMT_CSR5: SPMV_NAME(csr5_free)(&M->u.csr5); break;
    default:
        if (spmv__fmt_is_axt(M->fmt)) SPMV_NAME(axt_free)(&M->u.axt);
        break;
    }
    memset(M, 0, sizeof *M);
}
#endif /* SPMV_PART_API */
