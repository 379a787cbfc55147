/* any — the run-time handle over every host format, generated from formats/registry.h
 * (nothing here names a format). Included by formats/instance.h once per tag.
 *
 *   spmv_d_any M;
 *   spmv_opts o = spmv_opts_default();   // format csr, ISA auto, no parameters
 *   o.format = SPMV_FMT_AXTUH;
 *   o.params = "th=8";                    // optional: the format's keys
 *   spmv_d_any_from_csr(&M, &A, &o, &err); // err (may be NULL) says what was wrong
 *   spmv_d_any_mv(&M, 1.0, x, 0.0, y);
 *   spmv_d_any_free(&M);
 * Tag-independent part (once): enum spmv_format, spmv_format_name / _parse / _flags,
 * spmv_opts (the options of every builder, host and device),
 * spmv_<name>_params_parse / _describe for every row. Per tag: the generated verbs of a
 * row (spmv_<tag>_<name>_isa, _params_str, and _tune for rows not marked tunable), then
 * the handle. */

#if defined(SPMV_PART_TYPES)
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
    SPMV_FF_ATOMICS = 32, /* a device kernel adds into y with atomics (order varies) */
    SPMV_FF_SYMMETRIC = 64, /* symmetric matrices only (one triangle stored) */
    SPMV_FF_MM = 128,       /* native SpMM on the CPU (the family's _mm) */
    SPMV_FF_DEV_MM = 256,   /* native SpMM on the device */
    SPMV_FF_MVT = 512,      /* native transpose product (the family's _mvt) */
    SPMV_FF_CSR = 1024      /* the layout is A's CSR itself */
};
static inline unsigned spmv_format_flags(spmv_format f) {
    static const unsigned flags[SPMV_FMT_COUNT_ + 1] = {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at, sym, mm, dmm, mvt, csr)                             \
    (host) * 1u + (cuda) * 2u + (ex) * 4u + (tun) * 8u + (w) * 16u + (at) * 32u + (sym) * 64u + (mm) * 128u +      \
        (dmm) * 256u + (mvt) * 512u + (csr) * 1024u,
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
/* a format's name into *f; an unknown name (or NULL) is SPMV_ERR_ARG and leaves *f alone */
static inline spmv_status spmv_format_parse(const char *s, spmv_format *f) {
    int i;
    for (i = 0; s && i < SPMV_FMT_COUNT_; i++)
        if (!strcmp(s, spmv_format_name((spmv_format)i))) {
            if (f) *f = (spmv_format)i;
            return SPMV_OK;
        }
    return SPMV_ERR_ARG;
}

/* The options of every builder, host and device: any_from_csr, any_dev_from_csr,
 * auto_from_csr, auto_dev_from_csr. Start from spmv_opts_default() and set what you need;
 * a NULL options pointer means the defaults. Out-of-range values give SPMV_ERR_ARG. */
typedef struct spmv_opts {
    spmv_format format;   /* any_*: the format (default SPMV_FMT_CSR); auto_* chooses it */
    spmv_isa isa;         /* CPU kernels: SPMV_ISA_AUTO = $SPMV_ISA or the best; the device ignores it */
    const char *params;   /* any_*: the format's "key=value,..." (NULL: its defaults; an isa= key wins) */
    int tune;             /* any_*: 1 searches the format's parameters on A first (handle's tune_s) */
    int deterministic;    /* 1: same bits every run: device formats adding with atomics are refused
                           * (any_dev) or left out (auto), auto's choice is made without timing */
    int transpose;        /* any_*: 1 builds the format from A^T (a parallel transpose, counted in
                           * the build's time): the handle's products are then y = alpha*A^T*x + beta*y;
                           * 2 from A^H (csr_adjoint: the conjugate transpose, y = alpha*A^H*x + beta*y;
                           * the same as 1 for a real tag) */
    /* the automatic selection (auto_from_csr, auto_dev_from_csr) */
    double expected_calls; /* products the handle will run (>= 1) */
    double budget;         /* selection cost cap, in SpMVs of the fastest product timed (>= 0) */
    double min_seconds;    /* floor of the budget in seconds (>= 0) */
    int x_changes;         /* 0 or 1: x changes between products (formats embedding x pay a copy) */
    int threads;           /* 0..4096; 0: the current OpenMP setting */
    int borrow;            /* 0 or 1: A's arrays outlive the handle (CSR chosen: no copy) */
    int mm_k;              /* 0..4096: the products will be SpMMs of mm_k vectors (auto: > 1 times the
                            * formats with a native SpMM on mm_k vectors; 0 or 1: y = Ax) */
    int calibration;       /* auto: 0 this machine's cached calibration (formats/calib.h), measured
                            * and cached when enough is at stake; 1 off: built-in values, no file */
} spmv_opts;

static inline spmv_opts spmv_opts_default(void) {
    spmv_opts o;
    memset(&o, 0, sizeof o);
    o.format = SPMV_FMT_CSR;
    o.isa = SPMV_ISA_AUTO;
    o.expected_calls = 1000;
    o.budget = 30;
    o.min_seconds = 0.015;
    o.x_changes = 1;
    return o;
}

/* SPMV_OK, or SPMV_ERR_ARG with the reason in e (may be NULL; cleared on success) */
static inline spmv_status spmv_opts_check(const spmv_opts *o, spmv_error *e) {
    const char *bad = NULL;
    if (!o) bad = "no options";
    else if ((int)o->format < 0 || o->format >= SPMV_FMT_COUNT_) bad = "format out of range";
    else if ((int)o->isa < 0 || o->isa >= SPMV_ISA_COUNT_) bad = "isa out of range";
    else if (o->tune != 0 && o->tune != 1) bad = "tune must be 0 or 1";
    else if (o->deterministic != 0 && o->deterministic != 1) bad = "deterministic must be 0 or 1";
    else if (o->transpose < 0 || o->transpose > 2) bad = "transpose must be 0 (A), 1 (A^T) or 2 (A^H)";
    else if (!(o->expected_calls >= 1 && o->expected_calls < 1e18)) bad = "expected_calls must be a number >= 1";
    else if (!(o->budget >= 0 && o->budget < 1e18)) bad = "budget must be a number of SpMVs >= 0";
    else if (!(o->min_seconds >= 0 && o->min_seconds < 1e6)) bad = "min_seconds must be >= 0 (and finite)";
    else if (o->x_changes != 0 && o->x_changes != 1) bad = "x_changes must be 0 or 1";
    else if (o->borrow != 0 && o->borrow != 1) bad = "borrow must be 0 or 1";
    else if (o->threads < 0 || o->threads > 4096) bad = "threads must be 0..4096";
    else if (o->mm_k < 0 || o->mm_k > 4096) bad = "mm_k must be 0..4096";
    else if (o->calibration != 0 && o->calibration != 1) bad = "calibration must be 0 (cached) or 1 (off)";
    if (e) {
        e->line = 0;
        snprintf(e->msg, sizeof e->msg, "%s", bad ? bad : "");
    }
    return bad ? SPMV_ERR_ARG : SPMV_OK;
}
/* e's message (e may be NULL) */
#define SPMV__ERR(e, ...) ((e) ? (void)snprintf((e)->msg, sizeof (e)->msg, __VA_ARGS__) : (void)0)
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
/* Formats whose SpMM reads the matrix once per block of vectors (the registry's mm and dmm
 * columns): on the host any_mm, on the device any_dev_mm. The others run one product per
 * vector. */
static inline int spmv__mm_native(spmv_format f) { return (spmv_format_flags(f) & SPMV_FF_MM) != 0; }
static inline int spmv__dev_mm_native(spmv_format f) { return (spmv_format_flags(f) & SPMV_FF_DEV_MM) != 0; }

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
    double tune_s;        /* seconds the build spent tuning (opts.tune) */
    int64_t nrows, ncols; /* of the matrix the handle holds (A^T's with opts.transpose) */
    int transposed;       /* built with opts.transpose: 1 from A^T, 2 from A^H */
    /* any_update_values: for each slot of the format's value arrays the position of its
     * entry in A's CSR order (-1: padding), made at the first update; a sample of A's
     * pattern to refuse another matrix */
    SPMV_I *vmap[2];
    int64_t vmap_n[2];
    uint64_t vmap_print;
    /* A's repeated entries (a row listing one column more than once, which the layouts sum):
     * from the first position of such a group, the next one of the group (-1: the last);
     * NULL when A has none. A slot then takes the sum of its group, as the products do */
    SPMV_I *vdup;
    union {
        char none_;
#define SPMV_FORMAT(n, ID, fam, host, ...) SPMV__IF(host)(SPMV_NAME(fam) n;)
#include "registry.h"
#undef SPMV_FORMAT
    } u;
} SPMV_NAME(any);
/* 1 when this tag instantiates host format f: every compiled one for a tag whose vectors are
 * its values' type; for a tag with its own vector type (SPMV_VEC) the families of
 * SPMV__MIXED_<family> (formats/core/core.h) */
static inline int SPMV_NAME(any_has)(spmv_format f) {
    switch (f) {
#define SPMV_FORMAT(n, ID, fam, host, ...) SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return 1;)
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

#undef SPMV__HEADER
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API spmv_status SPMV_NAME(any_from_csr)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, const spmv_opts *o,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(any_from_triangle)(SPMV_NAME(any) *M, const spmv_triplets *t, const spmv_opts *o,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(any_mv)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(any_mvt)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(any_mm)(SPMV_NAME(any) *M, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
        SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
SPMV_API int SPMV_NAME(any_embeds_x)(const SPMV_NAME(any) *M);
SPMV_API spmv_status SPMV_NAME(any_update_x)(SPMV_NAME(any) *M, const SPMV_Y *x);
SPMV_API spmv_status SPMV_NAME(any_mv_kernel)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API size_t SPMV_NAME(any_bytes)(const SPMV_NAME(any) *M);
SPMV_API int64_t SPMV_NAME(any_stored)(const SPMV_NAME(any) *M);
SPMV_API spmv_isa SPMV_NAME(any_isa)(const SPMV_NAME(any) *M);
SPMV_API void SPMV_NAME(any_params_str)(const SPMV_NAME(any) *M, char *buf, size_t len);
SPMV_API spmv_status SPMV_NAME(any_to_csr)(const SPMV_NAME(any) *M, SPMV_NAME(csr) *B);
SPMV_API void SPMV_NAME(any_free)(SPMV_NAME(any) *M);
SPMV_API spmv_status SPMV_NAME(any_update_values)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
#define SPMV__HEADER(family) "core/empty.h"
/* Builds o->format from CSR A with o->isa, the parameter string o->params and, when
 * o->tune is set, the format's _tune on A first (seconds in M->tune_s). o: NULL for
 * spmv_opts_default() (csr). On failure *M is left empty and e (may be NULL) says why. */
SPMV_API spmv_status SPMV_NAME(any_from_csr)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, const spmv_opts *o,
                                                  spmv_error *e) {
    const spmv_opts opts = o ? *o : spmv_opts_default();
    const spmv_format fmt = opts.format;
    spmv_any_params p;
    spmv_status st;
    double spent = 0;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A) {
        SPMV__ERR(e, "no matrix (A is NULL)");
        return SPMV_ERR_ARG;
    }
    if ((st = spmv_opts_check(&opts, e)) != SPMV_OK) return st;
    if (!(spmv_format_flags(fmt) & SPMV_FF_HOST)) {
        SPMV__ERR(e, "format %s has no CPU kernel", spmv_format_name(fmt));
        return SPMV_ERR_ARG;
    }
    st = spmv_any_params_init(fmt, NULL, &p, e);
    if (st != SPMV_OK) return st;
    p.isa = opts.isa;
    if (opts.transpose) { /* the format is built from A^T (A^H: 2), which is then dropped */
        SPMV_NAME(csr) At;
        spmv_opts o2 = opts;
        if ((st = opts.transpose == 2 ? SPMV_NAME(csr_adjoint)(&At, A) : SPMV_NAME(csr_transpose)(&At, A)) != SPMV_OK) {
            SPMV__ERR(e, "transposing A: %s", spmv_status_str(st));
            return st;
        }
        o2.transpose = 0;
        if ((spmv_format_flags(fmt) & SPMV_FF_CSR) && !opts.tune) {
            /* a layout that is A's CSR: the handle takes A^T's arrays (no second copy of the matrix) */
            spmv_csr_params cp = p.csr;
            if ((st = spmv_csr_params_parse(opts.params, &cp, e)) == SPMV_OK) st = SPMV_ISA_FOR(fmt, cp.isa, &cp.isa);
            if (st == SPMV_OK && cp.algo != SPMV_CSR_ROWS && cp.algo != SPMV_CSR_MERGE) cp.algo = SPMV_CSR_ROWS;
            if (st != SPMV_OK) {
                SPMV_NAME(csr_free)(&At);
                if (e && !e->msg[0]) SPMV__ERR(e, "csr from A^T: %s", spmv_status_str(st));
                return st;
            }
            At.params = cp;
            SPMV_NAME(csr__plan)(&At);
            M->u.csr = At;
            M->fmt = fmt;
            M->nrows = At.nrows;
            M->ncols = At.ncols;
            M->transposed = opts.transpose;
            return SPMV_OK;
        }
        st = SPMV_NAME(any_from_csr)(M, &At, &o2, e);
        SPMV_NAME(csr_free)(&At);
        if (st == SPMV_OK) M->transposed = opts.transpose;
        return st;
    }
    switch (fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) :                                                               \
        st = SPMV_CAT3(spmv_, n, _params_parse)(opts.params, &p.n, e);                                          \
        if (st == SPMV_OK && opts.tune) st = SPMV_NAME(SPMV_CAT(n, _tune))(A, &p.n, &spent);                     \
        if (st == SPMV_OK) st = SPMV_NAME(SPMV_CAT(n, _from_csr))(&M->u.n, A, &p.n, NULL);                      \
        break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: /* compiled in, but not for this tag (any_has) */
        SPMV__ERR(e, "format %s is not instantiated for this tag (its vectors' type differs from its values')",
                  spmv_format_name(fmt));
        return SPMV_ERR_UNSUPPORTED;
    }
    if (st == SPMV_OK) {
        M->fmt = fmt;
        M->tune_s = spent;
        M->nrows = A->nrows;
        M->ncols = A->ncols;
    } else {
        memset(M, 0, sizeof *M);
        if (e && !e->msg[0] && st == SPMV_ERR_ARG && (spmv_format_flags(fmt) & SPMV_FF_SYMMETRIC) && !SPMV_NAME(csr_check)(A))
            SPMV__ERR(e, "%s needs a symmetric matrix: square, with A(i,j) == A(j,i) for every entry (values included)",
                      spmv_format_name(fmt));
        if (e && !e->msg[0])
            SPMV__ERR(e, "%s from CSR: %s", spmv_format_name(fmt),
                      st == SPMV_ERR_ISA ? "the ISA is not compiled in or not on this CPU" : spmv_status_str(st));
    }
    return st;
}

/* A symmetric format (o->format with the registry's sym flag: sss) straight from one triangle
 * of a symmetric matrix (t as spmv_mm_read_opts gives it with SPMV_MM_ONE_TRIANGLE; all in
 * the lower or all in the upper triangle, each standing for both), never forming the full
 * matrix; entries on both sides of the diagonal (a full matrix) are SPMV_ERR_ARG. o->transpose and o->tune
 * have nothing to do here (A^T = A; sss has no parameters beyond the ISA). SPMV_ERR_ARG for
 * a format that is not symmetric, a rectangular t or a bad index (e says why). */
SPMV_API spmv_status SPMV_NAME(any_from_triangle)(SPMV_NAME(any) *M, const spmv_triplets *t, const spmv_opts *o,
                                                       spmv_error *e) {
    const spmv_opts opts = o ? *o : spmv_opts_default();
    spmv_any_params p;
    spmv_status st;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if ((st = spmv_opts_check(&opts, e)) != SPMV_OK) return st;
    if (!(spmv_format_flags(opts.format) & SPMV_FF_SYMMETRIC) || !spmv_format_compiled(opts.format)) {
        SPMV__ERR(e, "format %s does not store one triangle (sss does)", spmv_format_name(opts.format));
        return SPMV_ERR_ARG;
    }
    if (!t || t->nrows != t->ncols) {
        SPMV__ERR(e, "one triangle of a square matrix expected");
        return SPMV_ERR_ARG;
    }
    if ((st = spmv_any_params_init(opts.format, opts.params, &p, e)) != SPMV_OK) return st;
    if (opts.isa != SPMV_ISA_AUTO) p.isa = opts.isa;
    switch (opts.format) { /* the symmetric rows: their <name>_from_triangle */
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at, sym, ...)                                               \
    SPMV__IF(sym)(case SPMV_CAT(SPMV_FMT_, ID): st = SPMV_NAME(SPMV_CAT(n, _from_triangle))(&M->u.n, t, &p.n, e); break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: st = SPMV_ERR_ARG; break;
    }
    if (st != SPMV_OK) {
        memset(M, 0, sizeof *M);
        return st;
    }
    M->fmt = opts.format;
    M->nrows = t->nrows;
    M->ncols = t->ncols;
    return SPMV_OK;
}

/* y = alpha*A*x + beta*y for any x (formats embedding x copy it in first, so M is not const). */
SPMV_API spmv_status SPMV_NAME(any_mv)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _mv))(&M->u.n, alpha, x, beta, y);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

/* y = alpha*B^T*x + beta*y where B is the matrix the handle holds (A, or A^T when built with
 * opts.transpose): x has B's nrows values, y its ncols. Native on the rows with the
 * registry's mvt column (csr and csr_merge: csr_mvt, no A^T, no atomics) and the symmetric
 * ones (A^T = A); the other formats give SPMV_ERR_UNSUPPORTED: build them with
 * opts.transpose instead, which runs their own forward kernel on A^T. */
SPMV_API spmv_status SPMV_NAME(any_mvt)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) { /* the rows with the registry's mvt column: their family's _mvt */
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at, sym, mm, dmm, mvt, ...)                               \
    SPMV__IF(mvt)(case SPMV_CAT(SPMV_FMT_, ID): return SPMV_NAME(SPMV_CAT(fam, _mvt))(&M->u.n, alpha, x, beta, y);)
#include "registry.h"
#undef SPMV_FORMAT
    default: break;
    }
    if (spmv_format_flags(M->fmt) & SPMV_FF_SYMMETRIC) return SPMV_NAME(any_mv)(M, alpha, x, beta, y); /* A^T = A */
    return spmv_format_compiled(M->fmt) ? SPMV_ERR_UNSUPPORTED : SPMV_ERR_ARG;
}

/* Y = alpha*B*X + beta*Y with k vectors (layouts and leading dimensions: formats/csr_ops.h).
 * Native on the rows with the registry's mm column (the matrix read once per block of
 * vectors: csr and csr_merge in both layouts, ell, ellr, hll, sell, jad, bcsr and csrdu row-major);
 * every other format (and layout) runs one product per vector: column-major vectors in place, row-major ones through
 * a column-major copy of X (and of Y when beta != 0) made once, k * (ncols + nrows) values of
 * scratch (SPMV_ERR_ALLOC when it cannot be had, Y untouched). */
SPMV_API spmv_status SPMV_NAME(any_mm)(SPMV_NAME(any) *M, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
                                            SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    SPMV_Y *xs = NULL, *ys = NULL;
    spmv_status st = SPMV_OK;
    int64_t j, i;
    const int64_t m = M ? M->nrows : 0, n = M ? M->ncols : 0;
    if (!M || !spmv_format_compiled(M->fmt)) return SPMV_ERR_ARG;
    if (spmv__mm_args_bad(n, m, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    switch (M->fmt) { /* the rows with the registry's mm column: their family's _mm (UNSUPPORTED for a
                         layout it does not take: the fallback below) */
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at, sym, mm, ...)                                          \
    SPMV__IF(mm)(case SPMV_CAT(SPMV_FMT_, ID):                                                                      \
                 st = SPMV_NAME(SPMV_CAT(fam, _mm))(&M->u.n, k, alpha, X, ldx, beta, Y, ldy, lay); break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: st = SPMV_ERR_UNSUPPORTED; break;
    }
    if (st != SPMV_ERR_UNSUPPORTED) return st;
    st = SPMV_OK;
    if (m == 0) return SPMV_OK;
    if (lay == SPMV_COL_MAJOR) {
        for (j = 0; j < k && st == SPMV_OK; j++) st = SPMV_NAME(any_mv)(M, alpha, X + j * ldx, beta, Y + j * ldy);
        return st;
    }
    xs = SPMV_ALLOC_N(SPMV_Y, (size_t)(n > 0 ? n : 1) * (size_t)k);
    ys = SPMV_ALLOC_N(SPMV_Y, (size_t)m * (size_t)k);
    if (!xs || !ys) {
        spmv__free(xs);
        spmv__free(ys);
        return SPMV_ERR_ALLOC;
    }
    /* (the inner index declared in the loop: private to each thread) */
SPMV_OMP(parallel for schedule(static) if (n * k >= 65536))
    for (i = 0; i < n; i++) {
        int64_t q;
        for (q = 0; q < k; q++) xs[q * n + i] = X[i * ldx + q];
    }
    if (beta != (SPMV_Y)0) {
SPMV_OMP(parallel for schedule(static) if (m * k >= 65536))
        for (i = 0; i < m; i++) {
            int64_t q;
            for (q = 0; q < k; q++) ys[q * m + i] = Y[i * ldy + q];
        }
    }
    for (j = 0; j < k && st == SPMV_OK; j++) st = SPMV_NAME(any_mv)(M, alpha, xs + j * n, beta, ys + j * m);
    if (st == SPMV_OK) {
SPMV_OMP(parallel for schedule(static) if (m * k >= 65536))
        for (i = 0; i < m; i++) {
            int64_t q;
            for (q = 0; q < k; q++) Y[i * ldy + q] = ys[q * m + i];
        }
    }
    spmv__free(xs);
    spmv__free(ys);
    return st;
}

/* Does the format embed x? Then any_update_x + any_mv_kernel is the kernel-only path;
 * for the others any_update_x does nothing and any_mv_kernel is any_mv. */
SPMV_API int SPMV_NAME(any_embeds_x)(const SPMV_NAME(any) *M) {
    return M && (spmv_format_flags(M->fmt) & SPMV_FF_EMBEDS_X);
}
SPMV_API spmv_status SPMV_NAME(any_update_x)(SPMV_NAME(any) *M, const SPMV_Y *x) {
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
SPMV_API spmv_status SPMV_NAME(any_mv_kernel)(SPMV_NAME(any) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                   SPMV_Y *y) {
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
SPMV_API size_t SPMV_NAME(any_bytes)(const SPMV_NAME(any) *M) {
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
SPMV_API int64_t SPMV_NAME(any_stored)(const SPMV_NAME(any) *M) {
    if (!M) return 0;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _stored))(&M->u.n);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}

SPMV_API spmv_isa SPMV_NAME(any_isa)(const SPMV_NAME(any) *M) {
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
SPMV_API void SPMV_NAME(any_params_str)(const SPMV_NAME(any) *M, char *buf, size_t len) {
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
SPMV_API spmv_status SPMV_NAME(any_to_csr)(const SPMV_NAME(any) *M, SPMV_NAME(csr) *B) {
    if (!M) return SPMV_ERR_ARG;
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, _to_csr))(&M->u.n, B);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return SPMV_ERR_ARG;
    }
}

SPMV_API void SPMV_NAME(any_free)(SPMV_NAME(any) *M) {
    if (!M) return;
    spmv__free(M->vmap[0]);
    spmv__free(M->vmap[1]);
    spmv__free(M->vdup);
    switch (M->fmt) {
#define SPMV_FORMAT(n, ID, fam, host, ...)                                                                      \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : SPMV_NAME(SPMV_CAT(fam, _free))(&M->u.n); break;)
#include "registry.h"
#undef SPMV_FORMAT
    default: break;
    }
    memset(M, 0, sizeof *M);
}
/* the value arrays of the handle's format (up to 2) */
static inline int SPMV_NAME(any__values)(SPMV_NAME(any) *M, SPMV_T **v, int64_t *n) {
    switch (M->fmt) {
#define SPMV_FORMAT(n_, ID, fam, host, ...)                                                                     \
    SPMV__IF(host)(case SPMV_CAT(SPMV_FMT_, ID) : return SPMV_NAME(SPMV_CAT(fam, __values))(&M->u.n_, v, n);)
#include "registry.h"
#undef SPMV_FORMAT
    default: return 0;
    }
}
/* A's repeated entries as chains (M->vdup): next[p] = the next position of p's row with p's
 * column (-1: none), dup[p] = 1 for every position but the first of its group. *next is NULL
 * when A has no repeated entry. One pass over the rows with a mark per column. */
static inline spmv_status SPMV_NAME(any__dups)(const SPMV_NAME(csr) *A, SPMV_I **next, unsigned char *dup) {
    SPMV_I *nx = NULL, *last = SPMV_ALLOC_N(SPMV_I, (size_t)A->ncols + 1);
    int64_t *mark = SPMV_ALLOC_N(int64_t, (size_t)A->ncols + 1), r, k, found = 0;
    *next = NULL;
    if (!last || !mark || !(nx = SPMV_ALLOC_N(SPMV_I, (size_t)A->nnz + 1))) {
        spmv__free(last), spmv__free(mark), spmv__free(nx);
        return SPMV_ERR_ALLOC;
    }
    for (k = 0; k < A->ncols; k++) mark[k] = -1;
    for (r = 0; r < A->nrows; r++)
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const SPMV_I c = A->col_idx[k];
            nx[k] = -1;
            dup[k] = mark[c] == r;
            if (dup[k]) nx[last[c]] = (SPMV_I)k, found = 1; /* appended to the group's chain */
            mark[c] = r;
            last[c] = (SPMV_I)k;
        }
    spmv__free(last), spmv__free(mark);
    if (found) *next = nx;
    else spmv__free(nx);
    return SPMV_OK;
}

/* One map of M's value slots to A's CSR positions: the same format built (same parameters,
 * ISA, transpose) from A's pattern with each entry's position + 1 as its value (only the
 * entries with keep[p] == want when keep is given; the others 0), read back from its value
 * arrays into map[a] (-1: nothing stamped there). Positions above the value type's exact
 * integers (2^24 for float, 2048 for binary16, 256 for bfloat16) are found in several builds,
 * one digit of B bits each, the last one holding the rest. */
static inline spmv_status SPMV_NAME(any__vmap_pass)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A, const unsigned char *keep,
                                                    int want, int na, const int64_t *mn, SPMV_I **map) {
#ifdef SPMV_VMAP_EXACT /* tests: the several-build path on small matrices */
    const int64_t exact = SPMV_VMAP_EXACT;
#else
    const int64_t exact = SPMV__RSIZE == 8 ? ((int64_t)1 << 52)
                          : SPMV__RSIZE == 4 ? ((int64_t)1 << 24) - 1
                                             : (int64_t)SPMV__RE(SPMV_TV(SPMV_VT(257))) == 257 ? 2048 : 256;
#endif
    int sh = 12, np = 1; /* digit bits and builds */
    if ((int64_t)A->nnz >= exact) {
        while (((int64_t)2 << sh) > exact) sh--; /* a digit + 1 stays exact */
        for (np = 2; (((int64_t)A->nnz - 1) >> (sh * (np - 1))) + 1 > exact;) np++;
    }
    SPMV_NAME(csr) Tg;
    SPMV_NAME(any) T;
    SPMV_T *tv[2] = {NULL, NULL};
    int64_t tn[2] = {0, 0}, k, s;
    int a, pass;
    char prm[160];
    spmv_opts o = spmv_opts_default();
    spmv_status st = SPMV_OK;
    memset(&Tg, 0, sizeof Tg);
    Tg.nrows = A->nrows;
    Tg.ncols = A->ncols;
    Tg.nnz = A->nnz;
    Tg.row_ptr = A->row_ptr;
    Tg.col_idx = A->col_idx;
    Tg.params = A->params;
    Tg.cols_sorted = A->cols_sorted;
    Tg.borrowed = 1;
    if (!(Tg.val = SPMV_ALLOC_N(SPMV_T, A->nnz))) return SPMV_ERR_ALLOC;
    SPMV_NAME(any_params_str)(M, prm, sizeof prm);
    o.format = M->fmt;
    o.isa = SPMV_NAME(any_isa)(M);
    o.params = prm;
    o.transpose = M->transposed;
    SPMV_NAME(csr__plan)(&Tg);
    for (pass = 0; pass < np && st == SPMV_OK; pass++) {
        for (k = 0; k < A->nnz; k++) {
            const int64_t d = pass == np - 1 ? k >> (sh * pass) : (k >> (sh * pass)) & (((int64_t)1 << sh) - 1);
            Tg.val[k] = SPMV_VT(keep && keep[k] != want ? 0 : d + 1);
        }
        if ((st = SPMV_NAME(any_from_csr)(&T, &Tg, &o, NULL)) != SPMV_OK) break;
        if (SPMV_NAME(any__values)(&T, tv, tn) != na || tn[0] != mn[0] || (na > 1 && tn[1] != mn[1])) {
            st = SPMV_ERR_ARG; /* not the layout of M: A is not the matrix M was built from */
        } else {
            for (a = 0; a < na; a++)
                for (s = 0; s < mn[a]; s++) {
                    const int64_t v = (int64_t)SPMV__RE(SPMV_TV(tv[a][s]));
                    if (!pass) map[a][s] = (SPMV_I)(v - 1);
                    else if (v > 0 && map[a][s] >= 0) map[a][s] = (SPMV_I)(map[a][s] | ((v - 1) << (sh * pass)));
                    else map[a][s] = -1;
                }
        }
        SPMV_NAME(any_free)(&T);
    }
    spmv__free(Tg.val);
    return st;
}

/* The map of M's value slots to A's CSR positions (M->vmap: a position, -1 padding). When A
 * repeats entries (M->vdup), two maps: one stamping the first entry of each group and the
 * entries that are not repeated, one stamping the repeats: a slot holding both is a group the
 * layout summed (mapped to -2 - its first position: the update writes the group's sum), a
 * slot holding one of them is that entry alone (layouts that keep repeats apart, csr from A^T). */
static inline spmv_status SPMV_NAME(any__vmap)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A) {
    SPMV_T *mv[2];
    SPMV_I *rep[2] = {NULL, NULL};
    int64_t mn[2] = {0, 0}, s;
    unsigned char *dup = NULL;
    int na, a;
    spmv_status st = SPMV_OK;
    na = SPMV_NAME(any__values)(M, mv, mn);
    if (spmv_format_flags(M->fmt) & SPMV_FF_SYMMETRIC) { /* positions as values would not be symmetric:
                                                             the family's __vmap gives the maps directly */
        M->vmap[0] = SPMV_ALLOC_N(SPMV_I, mn[0]);
        M->vmap[1] = SPMV_ALLOC_N(SPMV_I, A->nnz); /* each entry's mirror, for the symmetry check */
        st = M->vmap[0] && M->vmap[1] ? SPMV_ERR_ARG : SPMV_ERR_ALLOC;
        switch (st == SPMV_ERR_ARG ? M->fmt : SPMV_FMT_COUNT_) {
#define SPMV_FORMAT(n, ID, fam, host, cuda, ex, tun, w, at, sym, ...)                                               \
    SPMV__IF(sym)(case SPMV_CAT(SPMV_FMT_, ID):                                                                     \
                  st = SPMV_NAME(SPMV_CAT(fam, __vmap))(&M->u.n, A, M->vmap[0], M->vmap[1]); break;)
#include "registry.h"
#undef SPMV_FORMAT
        default: break;
        }
        if (st != SPMV_OK) {
            spmv__free(M->vmap[0]);
            spmv__free(M->vmap[1]);
            M->vmap[0] = M->vmap[1] = NULL;
            return st;
        }
        M->vmap_n[0] = mn[0];
        M->vmap_n[1] = A->nnz;
        M->vmap_print = SPMV_NAME(csr__print)(A, 1);
        return SPMV_OK;
    }
    dup = SPMV_ALLOC_N(unsigned char, (size_t)A->nnz + 1);
    for (a = 0; a < na; a++) M->vmap[a] = SPMV_ALLOC_N(SPMV_I, mn[a]);
    if (!dup || (na > 0 && !M->vmap[0]) || (na > 1 && !M->vmap[1])) st = SPMV_ERR_ALLOC;
    if (st == SPMV_OK) st = SPMV_NAME(any__dups)(A, &M->vdup, dup);
    if (st == SPMV_OK) st = SPMV_NAME(any__vmap_pass)(M, A, M->vdup ? dup : NULL, 0, na, mn, M->vmap);
    if (st == SPMV_OK && M->vdup) {
        for (a = 0; a < na && st == SPMV_OK; a++)
            if (!(rep[a] = SPMV_ALLOC_N(SPMV_I, mn[a]))) st = SPMV_ERR_ALLOC;
        if (st == SPMV_OK) st = SPMV_NAME(any__vmap_pass)(M, A, dup, 1, na, mn, rep);
        for (a = 0; a < na && st == SPMV_OK; a++)
            for (s = 0; s < mn[a]; s++)
                if (M->vmap[a][s] >= 0 && rep[a][s] >= 0) M->vmap[a][s] = -2 - M->vmap[a][s]; /* a summed group */
                else if (M->vmap[a][s] < 0) M->vmap[a][s] = rep[a][s];                       /* a repeat alone */
    }
    spmv__free(rep[0]);
    spmv__free(rep[1]);
    spmv__free(dup);
    if (st != SPMV_OK) {
        for (a = 0; a < 2; a++) {
            spmv__free(M->vmap[a]);
            M->vmap[a] = NULL;
        }
        spmv__free(M->vdup);
        M->vdup = NULL;
        return st;
    }
    for (a = 0; a < na; a++) M->vmap_n[a] = mn[a];
    M->vmap_print = SPMV_NAME(csr__print)(A, 1);
    return SPMV_OK;
}

/* New values on the same pattern: A is the matrix M was built from (the same row_ptr and
 * col_idx; for a handle built with opts.transpose, A itself, not A^T) holding the new
 * values. csr (not transposed) copies them; a layout that depends on the values (csrdu: a
 * table of distinct values) is built again from A; every other format, and a transposed csr,
 * scatters them through a map of its value slots made at the first call (one or two
 * conversions' time, SPMV_I per slot kept in M). SPMV_ERR_ARG when A's sizes or a sample
 * of its pattern differ from the first call's (a different matrix with the same sizes and
 * sampled rows is not detected); SPMV_ERR_ALLOC when the map cannot be made (M unchanged).
 * A symmetric format (sss) checks that the new values are symmetric (SPMV_ERR_ARG
 * otherwise, M unchanged): one more read of the values and an SPMV_I per entry for the map
 * of mirrors; an A whose rows repeat a column or are unsorted is first copied sorted, its
 * repeats summed (as the products sum them), at each call.
 * Not thread-safe with products on M. */
static inline spmv_status SPMV_NAME(any__update)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(any_update_values)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A) {
    SPMV_NAME(csr) C;
    int own = 0;
    spmv_status st;
    if (!M || !A || !spmv_format_compiled(M->fmt) || (A->nnz > 0 && (!A->val || !A->col_idx)) || !A->row_ptr)
        return SPMV_ERR_ARG;
    if ((M->transposed ? A->ncols : A->nrows) != M->nrows || (M->transposed ? A->nrows : A->ncols) != M->ncols)
        return SPMV_ERR_ARG;
    if (!(spmv_format_flags(M->fmt) & SPMV_FF_SYMMETRIC)) return SPMV_NAME(any__update)(M, A);
    if (SPMV_NAME(csr_check)(A) != SPMV_OK) return SPMV_ERR_ARG;
    if ((st = SPMV_NAME(csr__sorted_view)(A, &C, &own)) != SPMV_OK) return st;
    st = SPMV_NAME(any__update)(M, &C);
    if (own) SPMV_NAME(csr_free)(&C);
    return st;
}
/* A layout that depends on the values (a table of distinct values, one value for all: its
 * family's __values returns -1) takes new values by a new build from A with the
 * same format, ISA, parameters and transpose; M is replaced only when that build succeeds. The
 * first call trusts A to be M's matrix (sizes checked); later calls check a sample of its
 * pattern against the first's */
static inline spmv_status SPMV_NAME(any__rebuild)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A) {
    SPMV_NAME(any) T;
    char prm[160];
    spmv_opts o = spmv_opts_default();
    const uint64_t print = SPMV_NAME(csr__print)(A, 1);
    spmv_status st;
    if (M->vmap_print && print != M->vmap_print) return SPMV_ERR_ARG;
    SPMV_NAME(any_params_str)(M, prm, sizeof prm);
    o.format = M->fmt;
    o.isa = SPMV_NAME(any_isa)(M);
    o.params = prm;
    o.transpose = M->transposed;
    if ((st = SPMV_NAME(any_from_csr)(&T, A, &o, NULL)) != SPMV_OK) return st;
    if (T.nrows != M->nrows || T.ncols != M->ncols) {
        SPMV_NAME(any_free)(&T);
        return SPMV_ERR_ARG;
    }
    T.tune_s = M->tune_s;
    SPMV_NAME(any_free)(M);
    *M = T;
    M->vmap_print = print;
    return SPMV_OK;
}
/* any_update_values once A's sizes were checked (and, for sss, its rows made canonical) */
static inline spmv_status SPMV_NAME(any__update)(SPMV_NAME(any) *M, const SPMV_NAME(csr) *A) {
    SPMV_T *v[2];
    int64_t n[2], s;
    int na, a;
    spmv_status st;
    if ((spmv_format_flags(M->fmt) & SPMV_FF_CSR) && !M->transposed) { /* A's layout: the values copied */
        SPMV_NAME(csr) *C = &M->u.csr;
        if (C->nnz != A->nnz || C->borrowed) return SPMV_ERR_ARG; /* a borrowed CSR's values are the caller's */
        if (C->row_ptr[C->nrows] != A->row_ptr[A->nrows]) return SPMV_ERR_ARG;
        spmv__par_copy(C->val, A->val, (size_t)A->nnz * sizeof(SPMV_T));
        return SPMV_OK;
    }
    if (SPMV_NAME(any__values)(M, v, n) < 0) return SPMV_NAME(any__rebuild)(M, A);
    if (!M->vmap[0]) {
        if ((st = SPMV_NAME(any__vmap)(M, A)) != SPMV_OK) return st;
    } else if (SPMV_NAME(csr__print)(A, 1) != M->vmap_print) {
        return SPMV_ERR_ARG;
    }
    if (spmv_format_flags(M->fmt) & SPMV_FF_SYMMETRIC) { /* the new values must stay symmetric */
        const SPMV_I *mir = M->vmap[1];
        const SPMV_T *src = A->val;
        int bad = 0;
#if SPMV__USE(sss) && SPMV__COMPLEX /* or hermitian, as the matrix the handle was built from */
        const int herm = M->fmt == SPMV_FMT_SSS && M->u.sss.herm;
#else
        const int herm = 0;
#endif
        if (A->nnz != M->vmap_n[1]) return SPMV_ERR_ARG;
SPMV_OMP(parallel for schedule(static) reduction(| : bad) if (A->nnz >= SPMV_PAR_MIN_NNZ))
        for (s = 0; s < (int64_t)A->nnz; s++) {
            const SPMV_Y u = SPMV_TV(src[s]), w0 = SPMV_TV(src[mir[s]]);
            const SPMV_Y w = herm ? SPMV__CONJ(w0) : w0; /* hermitian: a_ji = conj(a_ij) */
            bad |= !(u == w || (u != u && w != w));
        }
        if (bad) return SPMV_ERR_ARG;
    }
    na = SPMV_NAME(any__values)(M, v, n);
    for (a = 0; a < na; a++) {
        const SPMV_I *mp = M->vmap[a], *nx = M->vdup;
        SPMV_T *dst = v[a];
        const SPMV_T *src = A->val;
SPMV_OMP(parallel for schedule(static) if (n[a] >= SPMV_PAR_MIN_NNZ))
        for (s = 0; s < n[a]; s++)
            if (mp[s] >= 0) dst[s] = src[mp[s]];
            else if (mp[s] <= -2 && nx) { /* a summed group of repeats: the sum in A's order */
                SPMV_Y x = SPMV_TV(src[-2 - mp[s]]);
                SPMV_I q;
                for (q = nx[-2 - mp[s]]; q >= 0; q = nx[q]) x = SPMV_TV(SPMV_VT(x + SPMV_TV(src[q])));
                dst[s] = SPMV_VT(x);
            }
    }
    return SPMV_OK;
}

#undef SPMV__HEADER
#endif /* SPMV_PART_DEFS */
