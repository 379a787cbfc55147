/* any — the run-time handle over every host format, generated from formats/registry.h
 * (nothing here names a format). Included by formats/instance.h once per tag.
 *
 *   spmv_d_any M;
 *   spmv_d_any_from_csr(&M, &A, SPMV_FMT_AXTUH, SPMV_ISA_AUTO);       // defaults
 *   spmv_d_any_from_csr_params(&M, &A, fmt, SPMV_ISA_AUTO, "th=8", 0, NULL, &err);
 *   spmv_d_any_mv(&M, 1.0, x, 0.0, y);
 *   spmv_d_any_free(&M);
 * Tag-independent part (once): enum spmv_format, spmv_format_name / _parse / _flags,
 * spmv_<name>_params_parse / _describe for every row. Per tag: the generated verbs of a
 * row (spmv_<tag>_<name>_isa, _params_str, and _tune for rows not marked tunable), then
 * the handle. */

#ifndef SPMV_ANY_COMMON
#define SPMV_ANY_COMMON
/* every row, also those of families a SPMV_FORMATS_ONLY build leaves out */
#pragma push_macro("SPMV__USE")
#undef SPMV__USE
#define SPMV__USE(family) 1
#define SPMV__HEADER(family) "core/empty.h"

typedef enum spmv_format {
#define SPMV_FORMAT(n, ID, ...) SPMV_CAT(SPMV_FMT_, ID),
#include "registry.h"
#undef SPMV_FORMAT
    SPMV_FMT_COUNT_
} spmv_format;

/* registry flags of a format */
enum {
    SPMV_FF_HOST = 1,     /* CPU kernels */
    SPMV_FF_CUDA = 2,     /* device kernels */
    SPMV_FF_EMBEDS_X = 4, /* layout holds x: _update_x, _mv_kernel */
    SPMV_FF_TUNABLE = 8,  /* _tune searches a parameter */
    SPMV_FF_WIDTH = 16,   /* layout depends on the vector width ("w" key) */
    SPMV_FF_ATOMICS = 32  /* a device kernel adds into y with atomics (order varies) */
};
static inline unsigned spmv_format_flags(spmv_format f) {
    static const unsigned flags[SPMV_FMT_COUNT_ + 1] = {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at)                                                     \
    (host) * 1u + (cuda) * 2u + (ex) * 4u + (tun) * 8u + (w) * 16u + (at) * 32u,
#include "registry.h"
#undef SPMV_FORMAT
        0};
    return (int)f >= 0 && f < SPMV_FMT_COUNT_ ? flags[f] : 0u;
}
/* lowercase names, as on the command line; "?" when out of range */
static inline const char *spmv_format_name(spmv_format f) {
    static const char *const names[SPMV_FMT_COUNT_ + 1] = {
#define SPMV_FORMAT(n, ...) #n,
#include "registry.h"
#undef SPMV_FORMAT
        "?"};
    return (int)f >= 0 && f < SPMV_FMT_COUNT_ ? names[f] : "?";
}
/* the family (header) a format belongs to */
static inline const char *spmv_format_family(spmv_format f) {
    static const char *const names[SPMV_FMT_COUNT_ + 1] = {
#define SPMV_FORMAT(n, ID, fam, ...) #fam,
#include "registry.h"
#undef SPMV_FORMAT
        "?"};
    return (int)f >= 0 && f < SPMV_FMT_COUNT_ ? names[f] : "?";
}
/* SPMV_FMT_COUNT_ when unknown (or NULL) */
static inline spmv_format spmv_format_parse(const char *s) {
    int f;
    for (f = 0; s && f < SPMV_FMT_COUNT_; f++)
        if (!strcmp(s, spmv_format_name((spmv_format)f))) return (spmv_format)f;
    return SPMV_FMT_COUNT_;
}
#undef SPMV__HEADER
#undef SPMV__USE
#pragma pop_macro("SPMV__USE")

/* Is the format compiled into this translation unit (SPMV_FORMATS_ONLY)? */
#define SPMV__HEADER(family) "core/empty.h"
static inline int spmv_format_compiled(spmv_format f) {
    switch (f) {
#define SPMV_FORMAT(n, ID, ...) case SPMV_CAT(SPMV_FMT_, ID): return 1;
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

/* spmv_<name>_params_parse(s, &p, &e): "key=value,..." into p (keys: the row's table and
 * isa); spmv_<name>_params_describe(buf, n): one line per key. */
#define SPMV_FORMAT(n, ...)                                                                                     \
    static inline spmv_status SPMV_CAT3(spmv_, n, _params_parse)(const char *s, SPMV_CAT3(spmv_, n, _params) * p, \
                                                                 spmv_error *e) {                               \
        return spmv_params_parse(SPMV_CAT3(spmv__, n, _keys), p, sizeof *p, s, e);                              \
    }                                                                                                           \
    static inline void SPMV_CAT3(spmv_, n, _params_describe)(char *buf, size_t len) {                           \
        spmv_params_describe(SPMV_CAT3(spmv__, n, _keys), buf, len);                                            \
    }
#include "registry.h"
#undef SPMV_FORMAT

/* The generic params of the handles: any row's struct fits (parsed into by name). */
typedef union spmv_any_params {
    spmv_isa isa; /* the first member of every params struct */
#define SPMV_FORMAT(n, ...) SPMV_CAT3(spmv_, n, _params) n;
#include "registry.h"
#undef SPMV_FORMAT
} spmv_any_params;

/* Defaults of format f (SPMV_ERR_ARG when f is not compiled in), then the string s. */
static inline spmv_status spmv_any_params_init(spmv_format f, const char *s, spmv_any_params *p, spmv_error *e) {
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!p) return SPMV_ERR_ARG;
    memset(p, 0, sizeof *p);
    switch (f) {
#define SPMV_FORMAT(n, ID, ...)                                                                                 \
    case SPMV_CAT(SPMV_FMT_, ID):                                                                               \
        p->n = SPMV_CAT3(spmv_, n, _params_default)();                                                          \
        return SPMV_CAT3(spmv_, n, _params_parse)(s, &p->n, e);
#include "registry.h"
#undef SPMV_FORMAT
    default:
        if (e) snprintf(e->msg, sizeof e->msg, "format %s is not compiled in", spmv_format_name(f));
        return SPMV_ERR_ARG;
    }
}
/* spmv_format_describe(f, buf, n): the parameter keys of format f */
static inline void spmv_format_describe(spmv_format f, char *buf, size_t len) {
    if (len) buf[0] = 0;
    switch (f) {
#define SPMV_FORMAT(n, ID, ...)                                                                                 \
    case SPMV_CAT(SPMV_FMT_, ID): SPMV_CAT3(spmv_, n, _params_describe)(buf, len); break;
#include "registry.h"
#undef SPMV_FORMAT
    default: break;
    }
}
#undef SPMV__HEADER
#endif /* SPMV_ANY_COMMON */

#define SPMV__HEADER(family) "core/empty.h"

/* ---- the generated verbs of each host row ---- */
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, ...)                                                       \
    SPMV__IF(host)(                                                                                             \
    /* the ISA the object's kernels run on */                                                                   \
    static inline spmv_isa SPMV_NAME(SPMV_CAT(n, _isa))(const SPMV_NAME(fam) *A) { return A->params.isa; }     \
    /* "key=value,..." of the object's (resolved) parameters */                                                 \
    static inline void SPMV_NAME(SPMV_CAT(n, _params_str))(const SPMV_NAME(fam) *A, char *buf, size_t len) {   \
        spmv_params_str(SPMV_CAT3(spmv__, n, _keys), &A->params, buf, len);                                     \
    }                                                                                                           \
    SPMV__IFNOT(tun)(                                                                                           \
    /* nothing to search: the parameters as given */                                                           \
    static inline spmv_status SPMV_NAME(SPMV_CAT(n, _tune))(const SPMV_NAME(csr) *B, SPMV_CAT3(spmv_, n, _params) *p, \
                                                           double *seconds) {                                   \
        if (seconds) *seconds = 0;                                                                              \
        return B && p ? SPMV_OK : SPMV_ERR_ARG;                                                                 \
    }))
#include "registry.h"
#undef SPMV_FORMAT

typedef struct SPMV_NAME(any) {
    spmv_format fmt;
    union {
        char none_;
#define SPMV_FORMAT(n, ID, fam, host, ...) SPMV__IF(host)(SPMV_NAME(fam) n;)
#include "registry.h"
#undef SPMV_FORMAT
    } u;
} SPMV_NAME(any);

/* Builds format fmt from CSR A: its defaults, isa (SPMV_ISA_AUTO: SPMV_ISA or the best),
 * then the "key=value,..." string params (may be NULL; its isa= wins), then, when tune
 * is set, the format's _tune on A (seconds in *tune_s). On failure *M is left empty and
 * e (may be NULL) says which parameter was wrong. */
static inline spmv_status SPMV_NAME(any_from_csr_params)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                         spmv_isa isa, const char *params, int tune, double *tune_s,
                                                         spmv_error *e) {
    spmv_any_params p;
    spmv_status st;
    double spent = 0;
    if (tune_s) *tune_s = 0;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A) return SPMV_ERR_ARG;
    if (!(spmv_format_flags(fmt) & SPMV_FF_HOST)) {
        if (e) snprintf(e->msg, sizeof e->msg, "format %s has no CPU kernel", spmv_format_name(fmt));
        return SPMV_ERR_ARG;
    }
    st = spmv_any_params_init(fmt, NULL, &p, e);
    if (st != SPMV_OK) return st;
    p.isa = isa;
    switch (fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) :                                                               \
        st = SPMV_CAT3(spmv_, n, _params_parse)(params, &p.n, e);                                               \
        if (st == SPMV_OK && tune) {                                                                            \
            st = SPMV_NAME(SPMV_CAT(n, _tune))(A, &p.n, &spent);                                                \
            if (tune_s) *tune_s = spent;                                                                        \
        }                                                                                                       \
        if (st == SPMV_OK) st = SPMV_NAME(SPMV_CAT(n, _from_csr))(&M->u.n, A, &p.n);                            \
        break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: st = SPMV_ERR_ARG; break;
    }
    if (st == SPMV_OK) M->fmt = fmt;
    else memset(M, 0, sizeof *M);
    return st;
}

/* format fmt with its defaults for isa */
static inline spmv_status SPMV_NAME(any_from_csr)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                  spmv_isa isa) {
    return SPMV_NAME(any_from_csr_params)(M, A, fmt, isa, NULL, 0, NULL, NULL);
}
/* like any_from_csr, with the format's parameters tuned on A (seconds spent in *tune_s) */
static inline spmv_status SPMV_NAME(any_from_csr_tuned)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, spmv_format fmt,
                                                        spmv_isa isa, double *tune_s) {
    return SPMV_NAME(any_from_csr_params)(M, A, fmt, isa, NULL, 1, tune_s, NULL);
}

/* y = alpha*A*x + beta*y for any x (formats embedding x copy it in first, so M is not const). */
static inline spmv_status SPMV_NAME(any_mv)(SPMV_NAME(any) *M, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                            SPMV_T *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _mv))(&M->u.n, alpha, x, beta, y);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

/* Does the format embed x? Then any_update_x + any_mv_kernel is the kernel-only path;
 * for the others any_update_x does nothing and any_mv_kernel is any_mv. */
static inline int SPMV_NAME(any_embeds_x)(const SPMV_NAME(any) *M) {
    return M && (spmv_format_flags(M->fmt) & SPMV_FF_EMBEDS_X);
}
static inline spmv_status SPMV_NAME(any_update_x)(SPMV_NAME(any) *M, const SPMV_T *x) {
    (void)x;
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, ...)                                                            \
    SPMV__IF(host)(SPMV__IF(ex)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _update_x))(&M->u.n, x);))
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_OK;
    }
}
static inline spmv_status SPMV_NAME(any_mv_kernel)(SPMV_NAME(any) *M, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                                   SPMV_T *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, ...)                                                            \
    SPMV__IF(host)(SPMV__IF(ex)(case SPMV_CAT(SPMV_FMT_, ID) :                                                  \
                                return SPMV_NAME(SPMV_CAT(fam, _mv_kernel))(&M->u.n, alpha, beta, y);))
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_NAME(any_mv)(M, alpha, x, beta, y);
    }
}

/* footprint of the matrix in bytes (0 for an empty handle) */
static inline size_t SPMV_NAME(any_bytes)(const SPMV_NAME(any) *M) {
    if (!M) return 0;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _bytes))(&M->u.n);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

/* stored value slots: entries plus padding or fill (fill ratio = stored / nnz) */
static inline int64_t SPMV_NAME(any_stored)(const SPMV_NAME(any) *M) {
    if (!M) return 0;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _stored))(&M->u.n);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

static inline spmv_isa SPMV_NAME(any_isa)(const SPMV_NAME(any) *M) {
    if (!M) return SPMV_ISA_AUTO;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(n, _isa))(&M->u.n);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ISA_AUTO;
    }
}

/* "key=value,..." of the parameters in use (empty when none) */
static inline void SPMV_NAME(any_params)(const SPMV_NAME(any) *M, char *buf, size_t len) {
    if (!len) return;
    buf[0] = 0;
    if (!M) return;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : SPMV_NAME(SPMV_CAT(n, _params_str))(&M->u.n, buf, len); break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: break;
    }
}

/* back to CSR (round trips) */
static inline spmv_status SPMV_NAME(any_to_csr)(const SPMV_NAME(any) *M, SPMV_NAME(csr) *B) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _to_csr))(&M->u.n, B);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

static inline void SPMV_NAME(any_free)(SPMV_NAME(any) *M) {
    if (!M) return;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : SPMV_NAME(SPMV_CAT(fam, _free))(&M->u.n); break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: break;
    }
    memset(M, 0, sizeof *M);
}
#undef SPMV__HEADER
