/* auto — inspector-executor: picks the format for one matrix and keeps it.
 *
 *   spmv_opts o = spmv_opts_default();             // o.expected_calls = 1000 by default, ...
 *   spmv_d_auto M;
 *   spmv_error err;
 *   spmv_d_auto_from_csr(&M, &A, &o, &err);         // A may be freed afterwards
 *   for (...) spmv_d_auto_mv(&M, 1.0, x, 0.0, y);
 *   printf("%s: %s\n", spmv_format_name(M.rep.chosen), M.rep.why);
 *   spmv_d_auto_free(&M);
 *
 * What it does (host side; formats/cuda/auto.cuh is the device side, same report):
 *  0. what it may spend: CSR's product predicted from this machine's calibration
 *     (formats/calib.h: cached per machine, built-in values of a fast machine otherwise), and
 *     from it what looking may cost (the policy's risk, 2% of the expected products, or a tenth of
 *     the best saving the rules predict). If that is less than an inspection, CSR's trial and
 *     one conversion with its trial: CSR, uninspected (rep.why says so). After the
 *     inspection, if no candidate's conversion and trial would fit and be repaid at CSR's
 *     predicted time (twice the floor): CSR, untimed. Every later step stays inside it, but for
 *     a candidate predicted to save the policy's invest (4) times its conversion and trial, tried
 *     while CSR leads and then dueled;
 *  1. features of A in one pass: row-length statistics, the diagonals (DIA's and HDIA's
 *     fill), ELL/SELL padding, BCSR's block estimate, CSR's bytes against the last-level
 *     cache;
 *  2. a shortlist by cheap rules: every host row of formats/registry.h gets a predicted
 *     speedup over CSR and the rule that gave it (spmv_auto_predict), or is left out with a
 *     reason (padding past its cap, x embedded while x changes); rows no rule knows join
 *     with 1.0, so a new format is tried as soon as the budget allows;
 *  3. CSR converted and timed (the baseline, always a candidate), then the shortlist in
 *     order of prediction: each candidate converted once with its defaults and timed with a
 *     few real products (with its x copy when x changes), while the budget lasts (a
 *     candidate whose expected conversion would not fit is passed over, a cheaper one after
 *     it may still be tried; once a conversion overran its typical cost, the later ones
 *     are assumed to overrun as much; one predicted faster than CSR must fit the cap in
 *     its own predicted products, and, with CSR's copy, the current cap; the expected
 *     conversion is the format's typical cost in CSR products or, if more, the bytes it
 *     writes at the cost of fresh pages measured on the trials' x and y); a loser whose
 *     arrays can hold CSR's (csr_merge, a slice format with at most 1.5 slots per entry) is
 *     kept: CSR's copy, if CSR wins, goes onto its touched pages;
 *  4. the winner minimises convert_s + expected_calls * spmv_s (a conversion that costs
 *     more than it saves over the expected products loses); the others are freed as soon
 *     as they lose, so at most two formats exist at once;
 *  5. a winner other than CSR is timed against CSR again, the two in turn sample by sample,
 *     if the budget has room (rep.duel), and kept only if it still wins on the medians, by
 *     more than the policy's duel_margin (2%).
 * Options (spmv_opts, shared with the other builders; format, params and tune are theirs
 * and not used here; out-of-range values give SPMV_ERR_ARG, the reason in err):
 *   expected_calls  products the handle will run (>= 1; default 1000)
 *   budget          selection cost cap in SpMVs of the fastest product timed so far (CSR's
 *                   at first, so that the cost in SpMVs of the chosen format stays under it;
 *                   >= 0; default 30); below 4 nothing is tried: CSR, copied. The cap is
 *                   never above what looking may cost (step 0, rep.risk_s)
 *   min_seconds     the budget is at least this many seconds (default 0.015, below what a
 *                   user notices): on a matrix whose product takes 2 us, 30 products cannot
 *                   pay one conversion's allocations, and at 0.35 ms (ct2010, 336k entries)
 *                   inspection, CSR's trial and one conversion to SELL with its trial take
 *                   about 30. Above ~1M entries (a product of 0.5 ms or more) the 30 SpMVs
 *                   are the cap. The floor never exceeds what the best-predicted candidate
 *                   could save over expected_calls (expected_calls * (1 - 1/prediction)
 *                   CSR products); when no shortlisted candidate's typical conversion would
 *                   be repaid even at twice CSR's speed (few expected products), nothing is
 *                   timed: CSR
 *   mm_k            > 1: the products are SpMMs of mm_k row-major vectors: the candidates are the
 *                   formats with a native SpMM (csr, ell, ellr, hll, sell, jad, bcsr; csrdu's rule leaves it out), the trials
 *                   and the report's times are calls of mm_k vectors (the device refuses it)
 *   x_changes       1 (default): x differs at every call, formats embedding x pay the copy
 *   threads         trials run with this many OpenMP threads (0: the current setting,
 *                   restored afterwards); the products should run with the same count
 *   deterministic   1: the choice is made by the rules alone (no timing, so the same matrix
 *                   and options give the same format and bit-identical products every run)
 *                   and formats whose device kernels add with atomics are left out (on the
 *                   CPU every kernel sums in a fixed order for a given thread count)
 *   borrow          1: A's arrays stay valid and unchanged while the handle lives (as with
 *                   MKL's inspector-executor handles), so a CSR choice uses them in place;
 *                   0 (default): the handle copies CSR when CSR wins (A may then be freed)
 *   isa             SPMV_ISA_AUTO or an ISA for every candidate
 *   calibration     0 (default): this machine's cached calibration; when there is none (or
 *                   it is another machine's, or damaged) built-in values, and the calibration
 *                   is measured (~0.1 s) and cached only when looking may cost 0.3 s or more;
 *                   1: built-in values, no file read or written (also SPMV_CALIBRATION=off)
 * The handle (spmv_<tag>_auto) holds the chosen format (M.h, an spmv_<tag>_any) and the
 * report M.rep: the features, every shortlisted candidate with its prediction, rule,
 * conversion and trial times, the choice and why, and what the selection cost in seconds
 * and in products of the chosen format. Nothing is printed; `spmv plan` prints it.
 * Allocation failure anywhere returns SPMV_ERR_ALLOC with nothing left allocated. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_AUTO_COMMON
#define SPMV_AUTO_COMMON
#include <unistd.h>

typedef struct spmv_auto_features {
    int64_t nrows, ncols, nnz;
    int64_t row_max, empty_rows;
    double row_mean, row_cv; /* entries per row: mean, std/mean */
    int64_t ndiags;          /* distinct diagonals */
    double dia_fill;         /* DIA's stored slots per entry */
    double hdia_fill;        /* HDIA's (64-row hacks) */
    double ell_fill;         /* ELL's: rows * longest / nnz */
    double sell_fill;        /* 8-row slices padded to their longest row (no sorting: HLL) */
    double sell_sorted_fill; /* the same after sorting each 64-row hack by length (SELL's
                                windows are 32 slices: its fill is at most this) */
    int bcsr_bs;             /* BCSR's block-size estimate (0: not compiled in) */
    double bcsr_fill;        /* its stored values per entry */
    double bcsr_bytes_ratio; /* BCSR bytes / CSR bytes */
    double du_bytes_ratio;   /* csrdu's matrix bytes / CSR's (csrdu_estimate; 1: not compiled in) */
    double du_narrow;        /* share of entries in csrdu's 1- or 2-byte units (local columns) */
    double csr_bytes;        /* CSR + x + y */
    double llc_bytes;        /* last-level cache a core sees (cpuid, else sysconf, else 32 MiB) */
    int value_bytes, index_bytes;
    int vector_bytes; /* an entry of x or y: value_bytes, unless the tag has its own vector type (0: value_bytes) */
    int symmetric; /* 1: square, and the sampled rows' entries match their mirrors (values
                      included; a complex tag: or every mirror the conjugate, hermitian); the
                      symmetric formats' converters check every entry */
} spmv_auto_features;

/* one shortlisted format */
typedef struct spmv_auto_cand {
    spmv_format fmt;
    double predicted;   /* predicted speedup over CSR (the rules) */
    const char *rule;   /* why it is on the shortlist (a static string) */
    int tried;          /* 1 converted and timed; 0 not tried; -1 conversion refused */
    spmv_status st;     /* of the conversion */
    const char *skip;   /* why it was not tried (a static string), or NULL */
    double convert_s;   /* conversion (and upload on the device) */
    double spmv_s;      /* trial time of one product (min over the samples) */
    double score_s;     /* convert_s + expected_calls * spmv_s */
} spmv_auto_cand;

typedef struct spmv_auto_report {
    spmv_auto_features feat;
    spmv_opts opts;
    int device;                 /* 0 host, 1 device */
    int ncand;                  /* shortlisted (cand[0] is CSR) */
    spmv_auto_cand cand[SPMV_FMT_COUNT_ + 1];
    int nleft;                  /* left out by the rules */
    spmv_format left[SPMV_FMT_COUNT_ + 1];
    const char *left_why[SPMV_FMT_COUNT_ + 1];
    spmv_format chosen;
    int chosen_idx;             /* index into cand */
    int trials;                 /* candidates converted and timed */
    double features_s;          /* the inspection */
    double fresh_s_per_mb;      /* first touch of fresh memory, measured on the trials' x and y
                                   (seconds per MiB; 0: x and y under 2 MiB, not measured) */
    double budget_s;            /* the budget in seconds (0 when nothing could be timed) */
    double select_s;            /* everything auto_from_csr spent */
    double select_spmvs;        /* select_s in products of the chosen format */
    double chosen_spmv_s;       /* the chosen format's trial time (0: untimed) */
    double csr_spmv_s;          /* CSR's trial time (0: untimed; mm_k > 1: a call of mm_k vectors) */
    double csr_mv_s;            /* CSR's y = Ax, the unit of the conversion priors (0: csr_spmv_s) */
    int duel;                   /* the winner timed against CSR again, in turn: 1 kept, -1 CSR instead, 0 not run */
    int duel_idx;               /* the candidate so timed (index into cand) */
    double duel_csr_s, duel_chosen_s; /* those times (medians of duel_n samples each) */
    int duel_n;
    spmv_calibration cal;       /* the machine's numbers the predictions used */
    char cal_note[200];         /* where they came from (file, measured now, built-in and why) */
    double csr_pred_s;          /* CSR's product predicted from cal before any timing (a floor) */
    double risk_s;              /* what looking may cost: the policy's risk of the expected products
                                   at CSR's time (predicted, then timed), plus CSR's copy */
    char why[200];
} spmv_auto_report;

/* The device skew cap (formats/cuda/core.cuh, spmv_cuda__skewed): ell, ellr, hll, sell and jad
 * refuse a matrix whose longest row is >= SPMV_CUDA_SKEW_MIN_ELL and above SPMV_CUDA_MAX_SKEW x
 * the mean; bcsr one whose longest row is >= SPMV_CUDA_SKEW_MIN_BCSR and above that, or above
 * SPMV_CUDA_MAX_SKEW x the entries per warp of SPMV_CUDA_SKEW_WARPS warps. Here, so that the
 * device selection leaves those formats out by the same numbers instead of trying them. */
#ifndef SPMV_CUDA_MAX_SKEW
#define SPMV_CUDA_MAX_SKEW 16
#endif
#define SPMV_CUDA_SKEW_MIN_ELL 64   /* longest rows below this are never refused (ELL family) */
#define SPMV_CUDA_SKEW_MIN_BCSR 200 /* nor below this for bcsr (a warp per block row) */
#define SPMV_CUDA_SKEW_WARPS 4096   /* bcsr: warps a GPU keeps busy (132 SMs x 32 on an H200) */
/* the cap's test on a matrix of nrows rows, nnz entries, the longest row mx (in doubles:
 * mx * nrows can pass 2^63 with 64-bit indices) */
static inline int spmv__skew_capped(int64_t nrows, int64_t nnz, int64_t mx, int64_t min_len, int64_t lanes) {
    if (SPMV_CUDA_MAX_SKEW <= 0 || nrows <= 0 || mx < min_len) return 0;
    return (double)mx * (double)nrows > (double)SPMV_CUDA_MAX_SKEW * (double)nnz ||
           (lanes > 0 && (double)mx * (double)lanes > (double)SPMV_CUDA_MAX_SKEW * (double)nnz);
}
#include "core/rules.h"
#endif /* SPMV_AUTO_COMMON */

typedef struct SPMV_NAME(auto) {
    SPMV_NAME(any) h;     /* the chosen format */
    spmv_auto_report rep; /* what was chosen and why */
} SPMV_NAME(auto);
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
#ifndef SPMV_AUTO_COMMON_DECLS
#define SPMV_AUTO_COMMON_DECLS
/* internals of the selection that the device selection (formats/cuda/auto.cuh) shares */
SPMV_API void spmv_auto__shortlist(spmv_auto_report *R, int device, int (*has)(spmv_format));
SPMV_API int spmv_auto__rule_choice(const spmv_auto_report *R, int device);
SPMV_API long spmv_llc_bytes(void);
SPMV_API double spmv_auto_convert_prior(spmv_format f, int device);
SPMV_API double spmv_auto_predict(const spmv_auto_features *F, spmv_format f, int device, const spmv_opts *o,
        const char **why);
#endif
SPMV_API spmv_status SPMV_NAME(auto_features)(const SPMV_NAME(csr) *A, spmv_auto_features *F);
SPMV_API void SPMV_NAME(auto_free)(SPMV_NAME(auto) *M);
SPMV_API spmv_status SPMV_NAME(auto_from_csr)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const spmv_opts *o,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(auto_mv)(SPMV_NAME(auto) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(auto_mvt)(SPMV_NAME(auto) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(auto_mm)(SPMV_NAME(auto) *M, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
        SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
SPMV_API spmv_status SPMV_NAME(auto_update_values)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A);
SPMV_API spmv_format SPMV_NAME(auto_format)(const SPMV_NAME(auto) *M);
SPMV_API size_t SPMV_NAME(auto_bytes)(const SPMV_NAME(auto) *M);
SPMV_API spmv_status SPMV_NAME(auto_to_csr)(const SPMV_NAME(auto) *M, SPMV_NAME(csr) *B);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
#ifndef SPMV_AUTO_COMMON_DEFS
#define SPMV_AUTO_COMMON_DEFS
#ifdef SPMV_IMPLEMENTATION_EXTRA /* the functions every tag shares: weak, libspmv.a's own ones win */
#pragma push_macro("SPMV_API")
#undef SPMV_API
#define SPMV_API extern __attribute__((weak))
#endif
#include "core/machine.h"
/* what the registry row of f knows (formats/core/rules.h: each row's spmv_rules_<name>, in its
 * family's header); NULL for a row this unit does not compile (SPMV_FORMATS_ONLY) */
#define SPMV__HEADER(family) "core/empty.h"
static inline const spmv_format_rules *spmv__format_rules(spmv_format f) {
    switch (f) {
#define SPMV_FORMAT(n, ID, ...)                                                                                 \
    case SPMV_CAT(SPMV_FMT_, ID): return &SPMV_CAT(spmv_rules_, n);
#include "registry.h"
#undef SPMV_FORMAT
    default: return NULL;
    }
}
#undef SPMV__HEADER

/* Typical conversion cost from CSR (the row's convert_host, convert_dev: in CSR products on
 * the host, in units of CSR's upload on the device; 10 and 11 for a row not compiled here).
 * The budget check uses it before converting, scaled up by what the conversions already
 * made on this matrix measured against it; the report has the measured cost. Most of it is
 * first touching the new arrays (spmv_auto__prior_at). */
SPMV_API double spmv_auto_convert_prior(spmv_format f, int device) {
    const spmv_format_rules *r = spmv__format_rules(f);
    if (!r) return device ? 11 : 10;
    return device ? r->convert_dev : r->convert_host;
}

/* The rules: predicted speedup of format f over CSR on a matrix with features F (0: left
 * out, *why says why). First what holds for every format, then the row's own rule
 * (formats/core/rules.h), on the host or on the device (there over the device csr row, which
 * already runs the vector kernel on balanced rows and the merge path on skewed ones). */
SPMV_API double spmv_auto_predict(const spmv_auto_features *F, spmv_format f, int device,
                                       const spmv_opts *o, const char **why) {
    const spmv_format_rules *r = spmv__format_rules(f);
    const unsigned fl = spmv_format_flags(f);
    *why = "no rule for this format: tried when the budget allows";
    if (f == SPMV_FMT_CSR) return *why = "the baseline", 1.0;
    /* SpMM with mm_k vectors: only the formats whose kernel reads the matrix once per block of
       vectors (any_mm's native rows; the others run mm_k products) */
    if (o->mm_k > 1 && !device && !spmv__mm_native(f))
        return *why = "SpMM: no native kernel (it would run one product per vector)", 0.0;
    if (o->deterministic && device && (fl & SPMV_FF_ATOMICS))
        return *why = "deterministic: its device kernel adds with atomics", 0.0;
    if ((fl & SPMV_FF_SYMMETRIC) && !F->symmetric)
        return *why = SPMV__COMPLEX ? "stores one triangle: for symmetric or hermitian matrices (this one is neither, or its columns are unsorted)"
                                    : "stores one triangle: for symmetric matrices (this one is not, or its columns are unsorted)", 0.0;
    if ((fl & SPMV_FF_EMBEDS_X) && o->x_changes) {
        if (!device && r && r->x_copied && F->nnz > 0) return r->x_copied(F, why);
        return *why = SPMV_RULE_EMBEDS_X, 0.0;
    }
    if (F->nnz == 0) return *why = "no entries: CSR", 0.0;
    if (!r) return 1.0;
    if (device) return r->dev ? r->dev(F, why) : 1.0;
    return r->host ? r->host(F, o, why) : 1.0;
}

/* the last-level cache in bytes, as the selection sees it (cpuid, else sysconf, else 32 MiB) */
SPMV_API long spmv_llc_bytes(void) { return spmv_machine_get()->llc_bytes; }
/* entries of the slab BCSR's block size is estimated on: 64k, an eighth of a smaller matrix
 * (at least 16k): on 53k entries a 64k slab was the whole matrix, a third of the inspection */
static inline int64_t spmv_auto__slab(int64_t nnz) {
    const int64_t e = nnz / 8 > 16384 ? nnz / 8 : 16384;
    return e < 65536 ? (e < nnz ? e : nnz) : 65536;
}
/* the shortlist into R (cand[0] = CSR), sorted by prediction; the rest into R->left */
SPMV_API void spmv_auto__shortlist(spmv_auto_report *R, int device, int (*has)(spmv_format)) {
    int f, i, j;
    R->ncand = 0;
    R->nleft = 0;
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        const unsigned fl = spmv_format_flags((spmv_format)f);
        const char *why = NULL;
        double p;
        if (!spmv_format_compiled((spmv_format)f) || !(fl & (device ? SPMV_FF_CUDA : SPMV_FF_HOST))) continue;
        p = has && !has((spmv_format)f) ? (why = "not instantiated for this tag (a float matrix with double vectors)", 0)
                                       : spmv_auto_predict(&R->feat, (spmv_format)f, device, &R->opts, &why);
        if ((spmv_format)f == SPMV_FMT_CSR) p = 1e300; /* first */
        if (p <= 0) {
            R->left[R->nleft] = (spmv_format)f;
            R->left_why[R->nleft++] = why;
            continue;
        }
        memset(&R->cand[R->ncand], 0, sizeof R->cand[0]);
        R->cand[R->ncand].fmt = (spmv_format)f;
        R->cand[R->ncand].predicted = p;
        R->cand[R->ncand].rule = why;
        R->ncand++;
    }
    for (i = 1; i < R->ncand; i++) /* stable: by prediction, then the cheaper conversion */
        for (j = i; j > 0; j--) {
            spmv_auto_cand *a = &R->cand[j - 1], *b = &R->cand[j];
            int swap = b->predicted > a->predicted ||
                       (b->predicted == a->predicted &&
                        spmv_auto_convert_prior(b->fmt, device) < spmv_auto_convert_prior(a->fmt, device));
            if (!swap) break;
            {
                spmv_auto_cand t = *a;
                *a = *b;
                *b = t;
            }
        }
    R->cand[0].predicted = 1.0;
}

/* The rules' choice: the best prediction whose gain over the expected products pays its
 * typical conversion (CSR otherwise); on the host only predictions of at least the policy's
 * confident: the lower ones are hints for the trials, which won on a few matrices and lost
 * far on the others (docs/PERFORMANCE.md, "The selection's policy"). */
SPMV_API int spmv_auto__rule_choice(const spmv_auto_report *R, int device) {
    int i, best = 0;
    double best_cost = 1.5 + R->opts.expected_calls; /* in CSR products */
    for (i = 1; i < R->ncand; i++) {
        if (!device && R->cand[i].predicted < spmv_auto__policy.confident) continue;
        const double c = spmv_auto_convert_prior(R->cand[i].fmt, device) + R->opts.expected_calls / R->cand[i].predicted;
        if (c < best_cost) {
            best_cost = c;
            best = i;
        }
    }
    return best;
}

/* the budget in seconds: `budget` products of the fastest product timed so far, at least
 * min_seconds, but that floor never above what the best prediction could save over the
 * expected products (gain_s; a 15 ms floor was 550 products of a 27 us product) */
static inline double spmv_auto__budget_s(const spmv_opts *o, double fastest_s, double gain_s, double risk_s) {
    const double floor_s = o->min_seconds < gain_s ? o->min_seconds : gain_s;
    const double b = o->budget * fastest_s < floor_s ? floor_s : o->budget * fastest_s;
    return b < risk_s ? b : risk_s;
}
/* What looking may cost (the policy's risk and look, formats/core/auto_policy.h): at 1000
 * expected products 20-30 CSR products, an inspection, CSR's trial and one or two conversions
 * with their trials; at 100, 2-5: CSR uninspected. */
/* The most a shortlisted candidate is predicted to save over the expected products, in CSR
 * products (speedup p: expected_calls * (1 - 1/p); 0 when none is predicted faster), and
 * whether any candidate's typical conversion could be repaid even if it ran twice as fast as
 * CSR (the predictions are rough: a lower one still gets its trial while products are many) */
static inline double spmv_auto__max_gain(const spmv_auto_report *R, const spmv_opts *o, int device, int *pays) {
    double g = 0;
    int i;
    *pays = 0;
    for (i = 1; i < R->ncand; i++) {
        const double p = R->cand[i].predicted, po = p > spmv_auto__policy.optimistic ? p : spmv_auto__policy.optimistic;
        if (p > 1 && o->expected_calls * (1 - 1 / p) > g) g = o->expected_calls * (1 - 1 / p);
        if (spmv_auto_convert_prior(R->cand[i].fmt, device) < o->expected_calls * (1 - 1 / po)) *pays = 1;
    }
    return g;
}

/* CSR's score at product time t: its copy's typical cost (none with borrow) plus the
 * expected products */
/* t: CSR's product (a call of mm_k vectors for SpMM), mv: its y = Ax (the copy's unit) */
static inline double spmv_auto__csr_score(const spmv_opts *o, double t, double mv) {
    return (o->borrow ? 0 : spmv_auto_convert_prior(SPMV_FMT_CSR, 0) * mv) + o->expected_calls * t;
}

/* whether format f, should it lose its trial, will likely hold CSR's copy (auto__donor): the
 * row's donor rule, from the features' padding estimates */
static inline int spmv_auto__donor_likely(const spmv_auto_features *F, spmv_format f) {
    const spmv_format_rules *r = spmv__format_rules(f);
    return r && r->donor ? r->donor(F) : 0;
}

/* bytes a conversion to f writes into new arrays, from the features (the row's new_bytes;
 * else a value and an index per entry plus a row array). Times the measured cost of fresh
 * pages, a floor under its typical conversion cost. */
static inline double spmv_auto__new_bytes(const spmv_auto_features *F, spmv_format f) {
    const spmv_format_rules *r = spmv__format_rules(f);
    return r && r->new_bytes ? r->new_bytes(F) : spmv_rule_padded_bytes(F, 1);
}

/* A conversion's expected cost in seconds before it is tried: its typical cost in CSR
 * products, or, if more, the bytes it writes at the cost of fresh pages measured on x and y.
 * The typical costs were measured on matrices whose products stream from memory; on one whose
 * product runs from cache the same page faults are more products (gen:band, 1.4M entries,
 * 0.66 ms a product: hll's conversion took 19.7 CSR products, its typical cost is 13, and
 * the selection 40 products), and on a VM whose freed memory went back to the host they cost
 * more again ("Huge pages", README). */
static inline double spmv_auto__prior_at(const spmv_auto_report *R, spmv_format f, double csr_s, double fresh) {
    const double typical = spmv_auto_convert_prior(f, 0) * csr_s;
    const double pages = fresh * spmv_auto__new_bytes(&R->feat, f) / 1048576.0;
    return pages > typical ? pages : typical;
}
static inline double spmv_auto__prior(const spmv_auto_report *R, spmv_format f) {
    return spmv_auto__prior_at(R, f, R->csr_mv_s > 0 ? R->csr_mv_s : R->csr_spmv_s, R->fresh_s_per_mb);
}
/* what looking may cost, in CSR products: the larger of the policy's risk of the expected
 * products and its look of the best saving predicted at spread times the prediction */
static inline double spmv_auto__risk_products(const spmv_auto_report *R) {
    const double n = R->opts.expected_calls;
    double g = 0;
    int i;
    for (i = 1; i < R->ncand; i++) {
        const double po = R->cand[i].predicted * spmv_auto__policy.spread;
        const double gi = po > 1 ? n * (1 - 1 / po) - spmv_auto_convert_prior(R->cand[i].fmt, 0) : 0;
        if (gi > g) g = gi;
    }
    return spmv_auto__policy.risk * n > spmv_auto__policy.look * g ? spmv_auto__policy.risk * n : spmv_auto__policy.look * g;
}
/* Before CSR is timed, at CSR time t: whether some candidate predicted faster than CSR would
 * repay its conversion and trial over the expected products, with CSR's trial, its conversion
 * and its trial fitting, after `spent`, in what looking may cost (or one predicted level with
 * CSR or behind, fitting in half of it) */
static inline int spmv_auto__worth_looking(const spmv_auto_report *R, double t, double spent) {
    const double n = R->opts.expected_calls, trial = spmv_auto__policy.trial_products * t;
    const double risk = spmv_auto__risk_products(R) * t;
    int i;
    for (i = 1; i < R->ncand; i++) {
        const spmv_auto_cand *c = &R->cand[i];
        const double p = c->predicted, conv = spmv_auto_convert_prior(c->fmt, 0) * t;
        if (p > 1 && n * t * (1 - 1 / p) - conv >= spmv_auto__policy.invest * (conv + trial / p)) return 1;
        /* one predicted no faster than CSR is looked at only if its conversion and trial fit
           in half the share, and could be repaid at spmv_auto__policy.spread times its prediction */
        if (p <= 1 && (p * spmv_auto__policy.spread <= 1 || spent + trial + conv + trial / p > 0.5 * risk)) continue;
        if (p > 1 && n * t * (1 - 1 / p) <= conv + trial / p) continue;
        if (spent + trial + conv + trial / p <= risk) return 1;
    }
    return 0;
}

#ifdef SPMV_IMPLEMENTATION_EXTRA
#pragma pop_macro("SPMV_API")
#endif
#endif /* SPMV_AUTO_COMMON_DEFS */

/* The features of A: row lengths from row_ptr (all rows); the diagonals, slices and
 * adjacency from a sample of 64-row hacks spread evenly over the matrix (all of them up to
 * 32k entries, else about nnz/64 entries, at least 32k); BCSR's own estimate on a slab
 * of ~64k entries, only when neighbouring columns are common (a matrix without them has no
 * blocks). Costs about one product on a large matrix. */
SPMV_API spmv_status SPMV_NAME(auto_features)(const SPMV_NAME(csr) *A, spmv_auto_features *F) {
    const int64_t m = A ? A->nrows : 0, n = A ? A->ncols : 0, hack = 64;
    int64_t r, k, h, nh, step, ndiag = 0, rows_s = 0, nnz_s = 0, hdia_slots = 0, sell_slots = 0, sorted_slots = 0,
            adj = 0;
    unsigned char *seen = NULL;
    if (!A || !F) return SPMV_ERR_ARG;
    memset(F, 0, sizeof *F);
    F->nrows = m;
    F->ncols = n;
    F->nnz = A->nnz;
    F->value_bytes = (int)sizeof(SPMV_T);
    F->vector_bytes = (int)sizeof(SPMV_Y);
    F->index_bytes = (int)sizeof(SPMV_I);
    F->csr_bytes = (double)A->nnz * (double)(sizeof(SPMV_T) + sizeof(SPMV_I)) + (double)(m + 1) * sizeof(SPMV_I) +
                   (double)(m + n) * sizeof(SPMV_Y);
    F->llc_bytes = (double)spmv_machine_get()->llc_bytes;
    F->dia_fill = F->hdia_fill = F->ell_fill = F->sell_fill = F->sell_sorted_fill = F->bcsr_fill =
        F->bcsr_bytes_ratio = F->du_bytes_ratio = 1;
    if (m == 0 || A->nnz == 0) return SPMV_OK;
    F->row_mean = (double)A->nnz / (double)m;
    for (r = 0; r < m; r++) {
        const int64_t len = (int64_t)A->row_ptr[r + 1] - A->row_ptr[r];
        if (len > F->row_max) F->row_max = len;
        if (len == 0) F->empty_rows++;
    }
    F->row_cv = SPMV_NAME(csr_row_cv)(A);
    F->ell_fill = (double)F->row_max * (double)m / (double)A->nnz;
    /* diagonal d = c - r + m - 1 in [0, m + n - 1): bit 0 seen in the sample, bit 1 in this hack */
    seen = SPMV_ALLOC_N(unsigned char, (size_t)(m + n));
    if (!seen) return SPMV_ERR_ALLOC;
    memset(seen, 0, (size_t)(m + n));
    nh = (m + hack - 1) / hack;
    {
        /* 32k entries or 1/64 of them: each costs a random access to `seen` (dblp-2010: 128k
           sampled entries took 3 CSR products) */
        const int64_t want = A->nnz <= 32768 ? A->nnz : (A->nnz / 64 > 32768 ? A->nnz / 64 : 32768);
        step = (int64_t)((double)A->nnz / (double)want);
        if (step < 1) step = 1;
    }
    for (h = step / 2; h < nh; h += step) {
        const int64_t r0 = h * hack, r1 = r0 + hack < m ? r0 + hack : m;
        int64_t local = 0;
        for (r = r0; r < r1; r++)
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                const int64_t d = (int64_t)A->col_idx[k] - r + m - 1;
                if (!(seen[d] & 1)) ndiag++;
                if (!(seen[d] & 2)) local++;
                seen[d] |= 3;
                if (k > A->row_ptr[r] && A->col_idx[k] == A->col_idx[k - 1] + 1) adj++;
            }
        for (r = r0; r < r1; r++) /* clear this hack's bit 1 */
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) seen[(int64_t)A->col_idx[k] - r + m - 1] &= 1;
        for (r = r0; r < r1; r += 8) { /* 8-row slices */
            int64_t q, mx = 0;
            for (q = r; q < r + 8 && q < r1; q++)
                if ((int64_t)A->row_ptr[q + 1] - A->row_ptr[q] > mx) mx = (int64_t)A->row_ptr[q + 1] - A->row_ptr[q];
            sell_slots += mx * (q - r);
        }
        { /* the hack's lengths sorted (descending): 8-row slices of similar rows */
            int64_t len[64], q, j, c = r1 - r0;
            for (q = 0; q < c; q++) {
                const int64_t l = (int64_t)A->row_ptr[r0 + q + 1] - A->row_ptr[r0 + q];
                for (j = q; j > 0 && len[j - 1] < l; j--) len[j] = len[j - 1];
                len[j] = l;
            }
            for (q = 0; q < c; q += 8) sorted_slots += len[q] * (c - q < 8 ? c - q : 8);
        }
        hdia_slots += local * (r1 - r0);
        rows_s += r1 - r0;
        nnz_s += (int64_t)A->row_ptr[r1] - A->row_ptr[r0];
    }
    spmv__free(seen);
    F->ndiags = ndiag; /* of the sampled rows */
    if (nnz_s > 0) {
        F->dia_fill = (double)ndiag * (double)rows_s / (double)nnz_s;
        F->hdia_fill = (double)hdia_slots / (double)nnz_s;
        F->sell_fill = (double)sell_slots / (double)nnz_s;
        F->sell_sorted_fill = (double)sorted_slots / (double)nnz_s;
    }
#if SPMV__USE(bcsr)
    if (nnz_s > 0 && (double)adj >= 0.4 * (double)nnz_s) {
        /* on a slab of about 64k entries from the middle (rows from a multiple of 480, so
           that every candidate block size starts a block row there): row_ptr stays absolute */
        int bs = 0;
        double fill = 1;
        SPMV_NAME(csr) V = *A;
        spmv_status st;
        int64_t r0 = m / 2 / 480 * 480, r1 = r0;
        while (r1 < m && (int64_t)A->row_ptr[r1] - A->row_ptr[r0] < spmv_auto__slab(A->nnz)) r1++;
        V.row_ptr = A->row_ptr + r0;
        V.nrows = (SPMV_I)(r1 - r0);
        V.nnz = (SPMV_I)((int64_t)A->row_ptr[r1] - A->row_ptr[r0]);
        V.borrowed = 1;
        st = SPMV_NAME(bcsr_estimate)(&V, &bs, &fill);
        if (st != SPMV_OK) return st;
        F->bcsr_bs = bs;
        F->bcsr_fill = fill;
        F->bcsr_bytes_ratio = (fill * (double)sizeof(SPMV_T) + fill / ((double)bs * bs) * (double)sizeof(SPMV_I)) /
                              (double)(sizeof(SPMV_T) + sizeof(SPMV_I));
    }
#else
    (void)adj;
#endif
#if SPMV__USE(csrdu)
    {
        const spmv_status st = SPMV_NAME(csrdu_estimate)(A, &F->du_bytes_ratio, &F->du_narrow);
        if (st != SPMV_OK) return st;
    }
#endif
    if (m == n && A->cols_sorted) { /* 256 rows spread over A, each entry against its mirror */
        const int64_t st = m / 256 > 1 ? m / 256 : 1;
        int sym = 1, herm = SPMV__COMPLEX; /* a complex tag's hermitian matrix: sss stores it too */
        for (r = st / 2; r < m && (sym || herm); r += st)
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1] && (sym || herm); k++) {
                const SPMV_I c = A->col_idx[k];
                const SPMV_I q = c == (SPMV_I)r ? (SPMV_I)k : SPMV_NAME(csr__find)(A->row_ptr, A->col_idx, c, (SPMV_I)r);
                if (q < 0) {
                    sym = herm = 0;
                } else {
                    const SPMV_Y u = SPMV_TV(A->val[q]), w = SPMV_TV(A->val[k]);
                    const int nan = u != u && w != w;
                    sym = sym && (u == w || nan);
                    herm = herm && (u == SPMV__CONJ(w) || nan);
                }
            }
        F->symmetric = sym || herm;
    }
    return SPMV_OK;
}


/* Trial time of one product: warm_n warm-ups (at least warm_s), then reps samples; the
 * minimum (interference on a shared machine only ever adds time). x_changes: the full _mv (x copied in by formats
 * embedding it); else x placed once and the kernel alone. */
/* one timed operation: y = Ax (x_changes: with its scatter), or with k > 1 Y = AX of k
 * row-major vectors (x: ncols x k, y: nrows x k) */
static inline void SPMV_NAME(auto__op)(SPMV_NAME(any) *M, const SPMV_Y *x, SPMV_Y *y, int x_changes, int k) {
    if (k > 1) (void)SPMV_NAME(any_mm)(M, k, 1, x, k, 0, y, k, SPMV_ROW_MAJOR);
    else if (x_changes) SPMV_NAME(any_mv)(M, 1, x, 0, y);
    else SPMV_NAME(any_mv_kernel)(M, 1, x, 0, y);
}
/* cap_s > 0: samples stop once the trial has taken that long (at least one taken) */
static inline double SPMV_NAME(auto__time)(SPMV_NAME(any) *M, const SPMV_Y *x, SPMV_Y *y, int x_changes, int reps,
                                           int warm_n, double warm_s, int k, double cap_s) {
    double best = -1, w0 = spmv_wtime();
    int i;
    if (!x_changes && k <= 1) SPMV_NAME(any_update_x)(M, x);
    /* warm-up: warm_n products, and the first timing at least warm_s (sleeping OpenMP
       workers on a VM took milliseconds to wake, measured) */
    for (i = 0; i < warm_n || (spmv_wtime() - w0 < warm_s && i < 50); i++) SPMV_NAME(auto__op)(M, x, y, x_changes, k);
    for (i = 1; i <= reps; i++) {
        const double t0 = spmv_wtime();
        double dt;
        SPMV_NAME(auto__op)(M, x, y, x_changes, k);
        dt = spmv_wtime() - t0;
        if (best < 0 || dt < best) best = dt;
        if (cap_s > 0 && spmv_wtime() - w0 > cap_s) break; /* a runaway trial: it lost already */
    }
    return best;
}

/* a and b timed again sample by sample in turn (one warm-up each), n samples each (at most
 * SPMV_AUTO_DUEL_MAX), the median of each: trials made one after the other on a shared
 * machine can put a slower format ahead. Medians, not minima: a product repeated 1000 times
 * costs its typical time, and a parallel format on a few microseconds of work has a fast best
 * case and a slow median. The winner must then beat CSR by the policy's duel_margin, the
 * spread of CSR dueled against itself (docs/PERFORMANCE.md, "The selection's policy"). */
static inline void SPMV_NAME(auto__duel)(SPMV_NAME(any) *a, SPMV_NAME(any) *b, const SPMV_Y *x, SPMV_Y *y,
                                         int x_changes, int n, double *ta, double *tb, int k) {
    double sa[SPMV_AUTO_DUEL_MAX], sb[SPMV_AUTO_DUEL_MAX];
    int i, na = 0, nb = 0;
    if (n > SPMV_AUTO_DUEL_MAX) n = SPMV_AUTO_DUEL_MAX;
    if (n < 1) n = 1;
    if (!x_changes && k <= 1) {
        SPMV_NAME(any_update_x)(a, x);
        SPMV_NAME(any_update_x)(b, x);
    }
    for (i = -2; i < 2 * n; i++) { /* the order alternates by pairs: a b b a a b ... */
        const int is_a = (i + 2) % 4 == 0 || (i + 2) % 4 == 3;
        SPMV_NAME(any) *m = is_a ? a : b;
        const double t0 = spmv_wtime();
        double dt;
        SPMV_NAME(auto__op)(m, x, y, x_changes, k);
        dt = spmv_wtime() - t0;
        if (i < 0) continue;
        if (is_a) sa[na++] = dt;
        else sb[nb++] = dt;
    }
    *ta = spmv__median(sa, na);
    *tb = spmv__median(sb, nb);
}

/* a CSR handle on A's own arrays (A already checked) */
/* one candidate with its defaults */
static inline spmv_status SPMV_NAME(auto__build)(SPMV_NAME(any) *H, const SPMV_NAME(csr) *A, spmv_format f,
                                                 spmv_isa isa) {
    spmv_opts o = spmv_opts_default();
    o.format = f;
    o.isa = isa;
    return SPMV_NAME(any_from_csr)(H, A, &o, NULL);
}
static inline spmv_status SPMV_NAME(auto__borrow)(SPMV_NAME(any) *H, const SPMV_NAME(csr) *A, spmv_isa isa) {
    spmv_csr_params cp = spmv_csr_params_default();
    spmv_status st;
    memset(H, 0, sizeof *H);
    cp.isa = isa;
    if ((st = SPMV_ISA_FOR(SPMV_FMT_CSR, cp.isa, &cp.isa)) != SPMV_OK) return st;
    H->u.csr = *A;
    H->u.csr.params = cp;
    H->u.csr.borrowed = 1;
    H->fmt = SPMV_FMT_CSR;
    H->nrows = A->nrows;
    H->ncols = A->ncols;
    return SPMV_OK;
}

/* A csr_merge handle made into the CSR row kernel's handle on the same arrays: CSR's copy
 * without copying (csr_merge is CSR with another kernel; on ego-Twitter the second 29 MB
 * copy, at this VM's page-fault rate, took the selection from ~30 to 44.6 SpMVs) */
static inline void SPMV_NAME(auto__merge_to_rows)(SPMV_NAME(any) *H) {
    spmv_csr_params p = spmv_csr_params_default();
    p.isa = H->u.csr_merge.params.isa; /* resolved */
    H->u.csr = H->u.csr_merge;
    H->u.csr.params = p;
    H->fmt = SPMV_FMT_CSR;
    SPMV_NAME(csr__plan)(&H->u.csr);
}

#if SPMV__USE(ell)
/* the ell-family struct inside H (NULL for other formats) */
static inline SPMV_NAME(ell) *SPMV_NAME(auto__ell)(SPMV_NAME(any) *H) {
    switch (H->fmt) {
    case SPMV_FMT_ELL: return &H->u.ell;
    case SPMV_FMT_ELLR: return &H->u.ellr;
    case SPMV_FMT_HLL: return &H->u.hll;
    case SPMV_FMT_SELL: return &H->u.sell;
    case SPMV_FMT_JAD: return &H->u.jad;
    default: return NULL;
    }
}
#endif
/* 1 if H, a format that lost its trial, can hold CSR's copy: csr_merge's arrays are CSR's;
 * a slice format's col and val arrays take A's in place when they have between nnz and
 * 1.5 nnz slots and no tail (auto__to_csr; the handle's CSR then holds up to 1.5x CSR's
 * col and val bytes: borrow = 1 holds none). Either way the copy lands on pages the trial
 * already touched, far cheaper than fresh pages (the policy's warm_copy against a typical
 * copy of 5 CSR products; docs/PERFORMANCE.md). */
static inline int SPMV_NAME(auto__donor)(SPMV_NAME(any) *H, const SPMV_NAME(csr) *A) {
    if (H->fmt == SPMV_FMT_CSR_MERGE) return 1;
#if SPMV__USE(ell)
    {
        const SPMV_NAME(ell) *E = SPMV_NAME(auto__ell)(H);
        const int64_t slots = E ? SPMV_NAME(ell_stored)(E) : 0;
        return E && !E->ntail && slots >= (int64_t)A->nnz && (double)slots <= spmv_auto__policy.donor_fill * (double)A->nnz;
    }
#else
    (void)A;
    return 0;
#endif
}
/* H (auto__donor) becomes CSR holding A's entries (H's other arrays freed); on failure to
 * allocate row_ptr H is freed and SPMV_ERR_ALLOC returned */
static inline spmv_status SPMV_NAME(auto__to_csr)(SPMV_NAME(any) *H, const SPMV_NAME(csr) *A) {
    if (H->fmt == SPMV_FMT_CSR_MERGE) {
        SPMV_NAME(auto__merge_to_rows)(H);
        return SPMV_OK;
    }
#if SPMV__USE(ell)
    {
        SPMV_NAME(ell) *E = SPMV_NAME(auto__ell)(H);
        SPMV_NAME(csr) C;
        memset(&C, 0, sizeof C);
        C.row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
        if (!C.row_ptr) {
            SPMV_NAME(any_free)(H);
            return SPMV_ERR_ALLOC;
        }
        spmv__par_copy(C.row_ptr, A->row_ptr, ((size_t)A->nrows + 1) * sizeof(SPMV_I));
        spmv__par_copy(E->col, A->col_idx, (size_t)A->nnz * sizeof(SPMV_I));
        spmv__par_copy(E->val, A->val, (size_t)A->nnz * sizeof(SPMV_T));
        C.col_idx = E->col;
        C.val = E->val;
        C.nrows = A->nrows;
        C.ncols = A->ncols;
        C.nnz = A->nnz;
        C.params = spmv_csr_params_default();
        C.params.isa = E->params.isa; /* resolved */
        C.cols_sorted = A->cols_sorted;
        E->col = NULL;
        E->val = NULL;
        SPMV_NAME(any_free)(H);
        H->fmt = SPMV_FMT_CSR;
        H->nrows = A->nrows;
        H->ncols = A->ncols;
        H->u.csr = C;
        SPMV_NAME(csr__plan)(&H->u.csr);
        return SPMV_OK;
    }
#else
    (void)A;
    return SPMV_ERR_ARG;
#endif
}

SPMV_API void SPMV_NAME(auto_free)(SPMV_NAME(auto) *M) {
    if (!M) return;
    SPMV_NAME(any_free)(&M->h);
    memset(M, 0, sizeof *M);
}

/* R->cal for the selection's key (threads, types, ISA): the cached file, else built-in values;
 * measured now (and cached) when it costs at most a share of what looking may cost
 * (the policy's cal_cost against the risk share at the built-in CSR time). Then CSR's predicted
 * time and the risk share from it. Never fails: every problem is a note in R->cal_note. */
static inline void SPMV_NAME(auto__calibration)(spmv_auto_report *R, const SPMV_NAME(csr) *A) {
    const spmv_opts *o = &R->opts;
    char path[512];
    spmv_error e;
    spmv_isa isa = SPMV_ISA_GENERIC;
    int threads = o->threads > 0 ? o->threads : spmv_max_threads(), have_path = 0;
    if (SPMV_ISA_FOR(SPMV_FMT_CSR, o->isa, &isa) != SPMV_OK) isa = SPMV_ISA_GENERIC;
    spmv_calibration_builtin(&R->cal, threads, (int)sizeof(SPMV_T), (int)sizeof(SPMV_I), isa);
    if (o->calibration == 1 || spmv_calibration_off()) {
        snprintf(R->cal_note, sizeof R->cal_note, "built-in values: calibration off (%s)",
                 o->calibration == 1 ? "opts.calibration = 1" : "SPMV_CALIBRATION=off");
    } else if (spmv_auto__policy.risk * o->expected_calls * spmv_auto__policy.slow *
                   spmv_calibration_predict_csr(&R->cal, A->nrows, A->ncols, A->nnz) < spmv_auto__policy.read_cost) {
        /* so little at stake that reading the file (~6 us) would cost more than looking may */
        snprintf(R->cal_note, sizeof R->cal_note, "built-in values: too little at stake to read the calibration");
    } else if (!(have_path = spmv_calibration_default_path(path, sizeof path))) {
        snprintf(R->cal_note, sizeof R->cal_note, "built-in values: no calibration file (HOME unset, or the path too long)");
    } else {
        spmv_calibration c = R->cal;
        if (spmv_calibration_load(path, &c, &e) == SPMV_OK) {
            R->cal = c;
            snprintf(R->cal_note, sizeof R->cal_note, "this machine's calibration, %.160s", path);
        } else {
            snprintf(R->cal_note, sizeof R->cal_note, "built-in values: %.170s", e.msg);
        }
    }
    R->csr_pred_s = spmv_calibration_predict_csr(&R->cal, A->nrows, A->ncols, A->nnz);
    R->risk_s = spmv_auto__policy.risk * o->expected_calls * R->csr_pred_s;
    if (!R->cal.measured && have_path && !o->deterministic && spmv_auto__policy.cal_cost <= R->risk_s) {
        spmv_calibration c;
        if (SPMV_NAME(calibrate)(&c, threads, isa, &e) == SPMV_OK) {
            R->cal = c;
            if (spmv_calibration_save(path, &c, !getenv("SPMV_CALIBRATION"), &e) == SPMV_OK)
                snprintf(R->cal_note, sizeof R->cal_note, "measured now (%.2f s), cached in %.160s", c.measure_s, path);
            else
                snprintf(R->cal_note, sizeof R->cal_note, "measured now (%.2f s), not cached: %.150s", c.measure_s, e.msg);
            R->csr_pred_s = spmv_calibration_predict_csr(&R->cal, A->nrows, A->ncols, A->nnz);
            R->risk_s = spmv_auto__policy.risk * o->expected_calls * R->csr_pred_s;
        }
    }
}

/* ---- the selection in phases (docs/DESIGN.md, "The selection"): gate, inspection, the
 * untimed choice or CSR's trial, the candidates, the duel, the finish; S holds what passes
 * between them ---- */
typedef struct SPMV_NAME(auto__state) {
    SPMV_NAME(auto) *M;
    spmv_auto_report *R;
    const SPMV_NAME(csr) *A;
    spmv_opts opts;
    double t0;
    SPMV_NAME(any) best, cand, spare; /* spare (has_spare): a loser whose pages take CSR's copy */
    int has_spare;
    SPMV_Y *x, *y;  /* the trials' vectors (kk of each: SpMM times calls of kk row-major vectors) */
    int64_t kk;
    double best_score, reserve, overrun, fastest_s, gain;
    int best_i, reps, prev_threads, csr_again, few, blind, invested;
} SPMV_NAME(auto__state);

/* M emptied but for the report, which says why the selection failed */
static inline spmv_status SPMV_NAME(auto__failed)(SPMV_NAME(auto) *M, spmv_status st, const char *what) {
    spmv_auto_report keep = M->rep;
    memset(M, 0, sizeof *M);
    M->rep = keep;
    snprintf(M->rep.why, sizeof M->rep.why, "%s: %s", what, spmv_status_str(st));
    return st;
}

/* 1. the gate: CSR uninspected (S->blind) when CSR's trial and one conversion with its trial
 *    cost more products than looking may, whatever the machine (below ~360 products: no
 *    calibration read either), or more than looking may cost at the calibration's predicted
 *    time together with an inspection (its cost from the calibration, twice it: irregular rows
 *    cost up to that against the calibration's band, plus the fixed costs of a first
 *    inspection and trial) */
static inline void SPMV_NAME(auto__gate)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    const SPMV_NAME(csr) *A = S->A;
    const double n = S->opts.expected_calls;
    const double most = spmv_auto__policy.look * n / 2 > spmv_auto__policy.risk * n ? spmv_auto__policy.look * n / 2 : spmv_auto__policy.risk * n;
    const int can = !S->opts.deterministic && S->opts.budget >= 4 && A->nnz > 0;
    if (can && most < 3 * spmv_auto__policy.trial_products) {
        int threads = S->opts.threads > 0 ? S->opts.threads : spmv_max_threads();
        spmv_isa isa = SPMV_ISA_GENERIC;
        if (SPMV_ISA_FOR(SPMV_FMT_CSR, S->opts.isa, &isa) != SPMV_OK) isa = SPMV_ISA_GENERIC;
        spmv_calibration_builtin(&R->cal, threads, (int)sizeof(SPMV_T), (int)sizeof(SPMV_I), isa);
        snprintf(R->cal_note, sizeof R->cal_note, "built-in values: not needed for %.3g expected products", n);
        R->csr_pred_s = spmv_calibration_predict_csr(&R->cal, A->nrows, A->ncols, A->nnz);
        S->blind = 1;
    } else {
        const int64_t nz = A->nnz, samp = nz <= 32768 ? nz : (nz / 64 > 32768 ? nz / 64 : 32768);
        double feat_s;
        SPMV_NAME(auto__calibration)(R, A);
        feat_s = 2 * R->cal.feat_s * (double)(A->nrows + samp + spmv_auto__slab(nz)) + spmv_auto__policy.look_fixed;
        S->blind = can && most * R->csr_pred_s < feat_s + 3 * spmv_auto__policy.trial_products * R->csr_pred_s;
    }
    if (S->blind) R->risk_s = most * R->csr_pred_s;
}

/* blind: the shortlist is CSR alone, the features only what the sizes say */
static inline void SPMV_NAME(auto__sizes_only)(spmv_auto_report *R, const SPMV_NAME(csr) *A) {
    spmv_auto_features *F = &R->feat;
    memset(F, 0, sizeof *F);
    F->nrows = A->nrows;
    F->ncols = A->ncols;
    F->nnz = A->nnz;
    F->row_mean = A->nrows ? (double)A->nnz / (double)A->nrows : 0;
    F->value_bytes = (int)sizeof(SPMV_T);
    F->vector_bytes = (int)sizeof(SPMV_Y);
    F->index_bytes = (int)sizeof(SPMV_I);
    F->csr_bytes = (double)A->nnz * (double)(sizeof(SPMV_T) + sizeof(SPMV_I)) +
                   (double)(A->nrows + 1) * sizeof(SPMV_I) + (double)(A->nrows + A->ncols) * sizeof(SPMV_Y);
    F->llc_bytes = (double)spmv_machine_get()->llc_bytes;
    memset(&R->cand[0], 0, sizeof R->cand[0]);
    R->cand[0].fmt = SPMV_FMT_CSR;
    R->cand[0].predicted = 1;
    R->cand[0].rule = "the baseline";
    R->ncand = 1;
    R->nleft = 0;
}

/* 2. the inspection: the features and the shortlist; S->few when no trial can pay (no
 *    candidate's typical conversion is repaid, or none with its trial fits in what looking may
 *    cost at CSR's predicted time; deterministic: the first only, no clock) */
static inline spmv_status SPMV_NAME(auto__inspect)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    spmv_status st;
    int pays = 0;
    R->chosen_idx = 0;
    if (S->blind) {
        SPMV_NAME(auto__sizes_only)(R, S->A);
        return SPMV_OK;
    }
    if ((st = SPMV_NAME(auto_features)(S->A, &R->feat)) != SPMV_OK)
        return SPMV_NAME(auto__failed)(S->M, st, "inspection failed");
    R->features_s = spmv_wtime() - S->t0;
    spmv_auto__shortlist(R, 0, SPMV_NAME(any_has));
    S->gain = spmv_auto__max_gain(R, &S->opts, 0, &pays);
    S->few = !pays;
    if (!S->opts.deterministic && !S->few)
        S->few = !spmv_auto__worth_looking(R, spmv_auto__policy.pred_slack * R->csr_pred_s, spmv_wtime() - S->t0);
    return SPMV_OK;
}

/* 3a. no timing: the rules' choice (deterministic) or CSR (no budget, nothing to multiply,
 *     nothing that could pay); a conversion refused for its size falls back to CSR */
static inline spmv_status SPMV_NAME(auto__untimed)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    const spmv_opts *o = &S->opts;
    const int64_t nnz = S->A->nnz;
    int bi = o->deterministic && nnz && !S->few ? spmv_auto__rule_choice(R, 0) : 0;
    spmv_status st;
    for (;;) {
        const double c0 = spmv_wtime();
        if (bi == 0 && o->borrow) st = SPMV_NAME(auto__borrow)(&S->M->h, S->A, o->isa);
        else st = SPMV_NAME(auto__build)(&S->M->h, S->A, R->cand[bi].fmt, o->isa);
        R->cand[bi].convert_s = spmv_wtime() - c0;
        R->cand[bi].st = st;
        if (st == SPMV_OK || bi == 0 || st == SPMV_ERR_ALLOC) break;
        R->cand[bi].tried = -1; /* refused (a size cap): CSR */
        bi = 0;
    }
    if (st != SPMV_OK) return SPMV_NAME(auto__failed)(S->M, st, "conversion failed");
    R->chosen_idx = bi;
    R->chosen = R->cand[bi].fmt;
    if (o->deterministic && nnz)
        snprintf(R->why, sizeof R->why, "deterministic: the rules' choice (%s: %s), untimed",
                 spmv_format_name(R->chosen), R->cand[bi].rule);
    else if (nnz == 0) snprintf(R->why, sizeof R->why, "no entries: CSR");
    else if (o->budget < 4)
        snprintf(R->why, sizeof R->why, "budget %.3g SpMVs is below one trial: CSR without trials", o->budget);
    else if (S->blind)
        snprintf(R->why, sizeof R->why,
                 "CSR uninspected: over %.3g expected products (%.3g s each, predicted) looking may cost %.2g s, "
                 "less than an inspection and one trial", o->expected_calls, R->csr_pred_s, R->risk_s);
    else if (S->few)
        snprintf(R->why, sizeof R->why,
                 "CSR untimed: no candidate's conversion and trial would be repaid over %.3g expected products "
                 "within the %.2g s looking may cost", o->expected_calls, R->risk_s);
    R->select_s = spmv_wtime() - S->t0;
    return SPMV_OK;
}

/* the trials' x and y, first touched by both threads (serial, x and y of dblp-2010, 326k
 * rows, took 2.6 ms of page faults, more than one product); what fresh pages cost now (under
 * 2 MiB a thread's wake-up would dominate) */
static inline spmv_status SPMV_NAME(auto__vectors)(SPMV_NAME(auto__state) *S) {
    const SPMV_NAME(csr) *A = S->A;
    const double fresh0 = spmv_wtime();
    const int64_t nx = (int64_t)A->ncols * S->kk, ny = (int64_t)A->nrows * S->kk;
    double mb;
    int64_t q;
    S->x = SPMV_ALLOC_N(SPMV_Y, (size_t)A->ncols * (size_t)S->kk + 1);
    S->y = SPMV_ALLOC_N(SPMV_Y, (size_t)A->nrows * (size_t)S->kk + 1);
    if (!S->x || !S->y) return SPMV_ERR_ALLOC;
SPMV_OMP(parallel for schedule(static) if (nx >= 65536))
    for (q = 0; q < nx; q++) S->x[q] = (SPMV_Y)1 + (SPMV_Y)(q % 7) / (SPMV_Y)8;
SPMV_OMP(parallel for schedule(static) if (ny >= 65536))
    for (q = 0; q < ny; q++) S->y[q] = 0;
    mb = (double)((A->ncols + A->nrows) * S->kk + 2) * sizeof(SPMV_Y) / 1048576.0;
    if (mb >= 2) S->R->fresh_s_per_mb = (spmv_wtime() - fresh0) / mb;
    return SPMV_OK;
}

/* 3b. CSR's trial, on A's own arrays (no copy: it is made only if CSR wins): a first product
 *     says how many samples fit (about 1.2 ms of trial per candidate, 3 to 10, at most a sixth
 *     of what looking may cost), it was the first warm-up, and sleeping threads' wake-up is
 *     awaited for at most a quarter of what looking may cost; then the budget */
static inline spmv_status SPMV_NAME(auto__csr_trial)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    const int kk = (int)S->kk;
    double spent, warm, cap;
    spmv_status st;
    if ((st = SPMV_NAME(auto__vectors)(S)) != SPMV_OK) return st;
    if ((st = SPMV_NAME(auto__borrow)(&S->best, S->A, S->opts.isa)) != SPMV_OK) return st;
    spent = spmv_wtime();
    SPMV_NAME(auto__op)(&S->best, S->x, S->y, 1, kk);
    spent = spmv_wtime() - spent;
    S->reps = spent > 0 ? (int)(1.2e-3 / spent) : 10;
    S->reps = S->reps < 3 ? 3 : S->reps > 10 ? 10 : S->reps;
    cap = spmv_auto__risk_products(R) / spmv_auto__policy.trial_products;
    if (S->reps > cap) S->reps = cap < 3 ? 3 : (int)cap;
    warm = spent < 1e-3 ? 1e-3 - spent : 0;
    if (warm > 0.25 * R->risk_s) warm = 0.25 * R->risk_s;
    R->cand[0].spmv_s = R->csr_spmv_s = SPMV_NAME(auto__time)(&S->best, S->x, S->y, 1, S->reps, 1, warm, kk, 0);
    R->cand[0].tried = 1;
    /* SpMM: conversions cost what they cost in products of y = Ax, whatever k */
    R->csr_mv_s = kk > 1 ? SPMV_NAME(auto__time)(&S->best, S->x, S->y, 1, S->reps, 1, 0, 1, 0) : R->csr_spmv_s;
    /* CSR's copy is still to be made (none with borrow): its typical cost */
    R->cand[0].score_s = S->best_score = spmv_auto__csr_score(&S->opts, R->csr_spmv_s, R->csr_mv_s);
    R->trials = 1;
    S->fastest_s = R->csr_spmv_s;
    S->reserve = S->opts.borrow ? 0 : spmv_auto__prior(R, SPMV_FMT_CSR); /* kept back for copying CSR */
    /* the risk share at CSR's timed product (SpMM: its mm_k-vector call), plus the copy */
    R->risk_s = spmv_auto__risk_products(R) * R->csr_spmv_s + S->reserve;
    R->budget_s = spmv_auto__budget_s(&S->opts, S->fastest_s, S->gain * R->csr_spmv_s, R->risk_s);
    return SPMV_OK;
}

/* 4a. whether candidate c may be converted and timed: 1 yes (*prior its expected conversion,
 *     scaled by how much this matrix's conversions overran theirs), 0 skipped (c->skip says
 *     why). An investment, not a look: a candidate predicted to save the policy's invest times its
 *     conversion and trial over the expected products is tried beyond the budget while CSR
 *     leads. Should it win, the cap shrinks to budget products of its own, predicted faster,
 *     and CSR's copy is not made; should it lose, the cap stays and the copy (or its warm
 *     version onto this candidate's pages) is still to come. */
static inline int SPMV_NAME(auto__may_try)(SPMV_NAME(auto__state) *S, spmv_auto_cand *c, double *prior, int *invest) {
    spmv_auto_report *R = S->R;
    const spmv_opts *o = &S->opts;
    const double need = (*prior = spmv_auto__prior(R, c->fmt) * S->overrun) + (S->reps + 1) * R->csr_spmv_s / c->predicted;
    const double keep = !S->has_spare && !o->borrow && spmv_auto__donor_likely(&R->feat, c->fmt)
                            ? spmv_auto__policy.warm_copy * R->csr_mv_s
                            : S->reserve;
    const double spent = spmv_wtime() - S->t0;
    const double cap = c->predicted > 1
                           ? spmv_auto__budget_s(o, S->fastest_s / c->predicted, S->gain * R->csr_spmv_s, R->risk_s)
                           : R->budget_s;
    *invest = S->best_i == 0 && c->predicted > 1 &&
              o->expected_calls * R->csr_spmv_s * (1 - 1 / c->predicted) - *prior >= spmv_auto__policy.invest * need;
    if (!*invest && (spent + need > cap || spent + need + keep > R->budget_s)) {
        c->skip = "budget: its expected conversion and trial would not fit";
        return 0;
    }
    if (*prior >= o->expected_calls * R->csr_spmv_s * (1 - 1 / c->predicted) && c->predicted > 1) {
        c->skip = "its typical conversion is more than it could save over the expected products";
        return 0;
    }
    return 1;
}

/* A candidate twice as fast as CSR: CSR's trial may have met a slow phase of the machine; it
 * is timed once more and the faster time stands (with the scores and the budget it sets). */
static inline void SPMV_NAME(auto__csr_again)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    SPMV_NAME(any) base;
    double t;
    S->csr_again = 1;
    if (SPMV_NAME(auto__borrow)(&base, S->A, S->opts.isa) != SPMV_OK) return;
    t = SPMV_NAME(auto__time)(&base, S->x, S->y, 1, S->reps, 2, 0, (int)S->kk, 0);
    SPMV_NAME(any_free)(&base); /* borrowed: frees nothing of A */
    if (!(t > 0 && t < R->csr_spmv_s)) return;
    if (S->kk == 1) R->csr_mv_s = t;
    R->cand[0].spmv_s = R->csr_spmv_s = t;
    R->cand[0].score_s = spmv_auto__csr_score(&S->opts, t, R->csr_mv_s);
    if (S->best_i == 0) S->best_score = R->cand[0].score_s;
    if (t < S->fastest_s) S->fastest_s = t;
    R->risk_s = spmv_auto__risk_products(R) * t + S->reserve;
    R->budget_s = spmv_auto__budget_s(&S->opts, S->fastest_s, S->gain * R->csr_spmv_s, R->risk_s);
}

/* 4b. the timed candidate i: the best so far, or (CSR leading, borrowed) the pages that will
 *     take CSR's copy, or freed; two formats alive at most */
static inline void SPMV_NAME(auto__keep)(SPMV_NAME(auto__state) *S, int i) {
    spmv_auto_cand *c = &S->R->cand[i];
    if (c->score_s < S->best_score) {
        SPMV_NAME(any_free)(&S->best);
        SPMV_NAME(any_free)(&S->spare);
        S->has_spare = 0;
        S->best = S->cand;
        S->best_score = c->score_s;
        S->best_i = i;
    } else if (S->best_i == 0 && !S->opts.borrow && SPMV_NAME(auto__donor)(&S->cand, S->A) &&
               (!S->has_spare || ((spmv_format_flags(S->cand.fmt) & SPMV_FF_CSR) &&
                                  !(spmv_format_flags(S->spare.fmt) & SPMV_FF_CSR)))) {
        SPMV_NAME(any_free)(&S->spare);
        S->spare = S->cand;
        S->has_spare = 1;
        S->reserve = spmv_format_flags(S->spare.fmt) & SPMV_FF_CSR ? 0 : spmv_auto__policy.warm_copy * S->R->csr_mv_s;
    } else {
        SPMV_NAME(any_free)(&S->cand);
    }
    memset(&S->cand, 0, sizeof S->cand);
}

/* 4. the candidates in the shortlist's order, each converted and timed if it may be: a
 *    conversion that overran its prior says the next ones will too (the cost is mostly
 *    first-touching fresh pages, a property of the matrix and the machine); a trial taking 4x
 *    its expected time is cut short (another process sharing the cores) */
static inline spmv_status SPMV_NAME(auto__candidates)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    int i;
    for (i = 1; i < R->ncand; i++) {
        spmv_auto_cand *c = &R->cand[i];
        double prior, c0;
        int invest;
        spmv_status st;
        if (!SPMV_NAME(auto__may_try)(S, c, &prior, &invest)) continue;
        c0 = spmv_wtime();
        st = SPMV_NAME(auto__build)(&S->cand, S->A, c->fmt, S->opts.isa);
        c->convert_s = spmv_wtime() - c0;
        c->st = st;
        if (st == SPMV_OK && c->convert_s > prior) S->overrun = c->convert_s / prior * S->overrun;
        if (st == SPMV_ERR_ALLOC) return st;
        if (invest) S->invested = 1;
        if (st != SPMV_OK) { /* a size cap or a parameter this matrix cannot have */
            c->tried = -1;
            c->skip = "conversion refused";
            continue;
        }
        c->spmv_s = SPMV_NAME(auto__time)(&S->cand, S->x, S->y, S->opts.x_changes, S->reps, 1, 0, (int)S->kk,
                                          4.0 * (S->reps + 1) * R->csr_spmv_s * (c->predicted > 1 ? 1 / c->predicted : 1));
        c->tried = 1;
        c->score_s = c->convert_s + S->opts.expected_calls * c->spmv_s;
        if (c->spmv_s * 2 < R->csr_spmv_s && !S->csr_again) SPMV_NAME(auto__csr_again)(S);
        R->trials++;
        if (c->spmv_s < S->fastest_s) { /* the cap counts SpMVs of the fastest product seen (it only falls) */
            S->fastest_s = c->spmv_s;
            R->budget_s = spmv_auto__budget_s(&S->opts, S->fastest_s, S->gain * R->csr_spmv_s, R->risk_s);
        }
        SPMV_NAME(auto__keep)(S, i);
    }
    return SPMV_OK;
}

/* 5. the duel: the winner against CSR once more, in turn, if the budget has room (reps pairs
 *    at least; more, up to SPMV_AUTO_DUEL_MAX, in half the room left: on small matrices, where
 *    medians of a few samples flip between runs, they cost microseconds); it must be ahead by
 *    the policy's duel_margin, else CSR (the borrowed handle just timed) */
static inline void SPMV_NAME(auto__duel_phase)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    const spmv_auto_cand *c = &R->cand[S->best_i];
    SPMV_NAME(any) base;
    const double slower = R->csr_spmv_s > c->spmv_s ? R->csr_spmv_s : c->spmv_s;
    const double room = R->budget_s - (spmv_wtime() - S->t0) - S->reserve;
    const double fit = slower > 0 ? 0.5 * room / (2 * slower) - 1 : SPMV_AUTO_DUEL_MAX;
    const int pairs = fit < S->reps ? S->reps : fit > SPMV_AUTO_DUEL_MAX ? SPMV_AUTO_DUEL_MAX : (int)fit;
    double sc, sb;
    if (S->best_i == 0 || !((2.0 * S->reps + 2) * slower <= room || S->invested)) return;
    if (SPMV_NAME(auto__borrow)(&base, S->A, S->opts.isa) != SPMV_OK) return;
    SPMV_NAME(auto__duel)(&base, &S->best, S->x, S->y, S->opts.x_changes, pairs, &R->duel_csr_s, &R->duel_chosen_s,
                          (int)S->kk);
    R->duel_n = pairs;
    sb = spmv_auto__csr_score(&S->opts, R->duel_csr_s, R->csr_mv_s);
    sc = c->convert_s + S->opts.expected_calls * R->duel_chosen_s;
    R->duel = sc < sb * (1 - spmv_auto__policy.duel_margin) ? 1 : -1;
    R->duel_idx = S->best_i;
    if (R->duel > 0) {
        SPMV_NAME(any_free)(&base); /* borrowed: frees nothing of A */
        return;
    }
    if (!S->opts.borrow && !S->has_spare && SPMV_NAME(auto__donor)(&S->best, S->A)) { /* CSR's copy */
        S->spare = S->best;
        S->has_spare = 1;
    } else {
        SPMV_NAME(any_free)(&S->best);
    }
    S->best = base;
    S->best_i = 0;
}

/* 6. the finish: CSR's copy when CSR won (onto a loser's pages, if kept), the handle, why */
static inline spmv_status SPMV_NAME(auto__finish)(SPMV_NAME(auto__state) *S) {
    spmv_auto_report *R = S->R;
    const int bi = S->best_i;
    if (bi == 0 && !S->opts.borrow) {
        const double c0 = spmv_wtime();
        spmv_status st;
        SPMV_NAME(any_free)(&S->best);
        if (S->has_spare) {
            S->best = S->spare;
            memset(&S->spare, 0, sizeof S->spare);
            S->has_spare = 0;
            st = SPMV_NAME(auto__to_csr)(&S->best, S->A);
        } else {
            st = SPMV_NAME(auto__build)(&S->best, S->A, SPMV_FMT_CSR, S->opts.isa);
        }
        R->cand[0].convert_s = spmv_wtime() - c0;
        R->cand[0].st = st;
        if (st != SPMV_OK) return st;
    }
    S->M->h = S->best;
    memset(&S->best, 0, sizeof S->best);
    R->chosen_idx = bi;
    R->chosen = R->cand[bi].fmt;
    R->chosen_spmv_s = R->cand[bi].spmv_s;
    if (bi == 0 && R->duel < 0)
        snprintf(R->why, sizeof R->why,
                 "CSR: %s won the trials, but timed in turn with CSR it was %.2fx CSR's product (%d timed)",
                 spmv_format_name(R->cand[R->duel_idx].fmt), R->duel_chosen_s / R->duel_csr_s, R->trials);
    else if (bi == 0)
        snprintf(R->why, sizeof R->why, "CSR: no candidate's conversion plus %.0f products beat it (%d timed)",
                 S->opts.expected_calls, R->trials);
    else if (R->chosen_spmv_s < R->csr_spmv_s)
        snprintf(R->why, sizeof R->why, "%s: %.2fx CSR's product in the trials (%s); pays its conversion back in %.0f products",
                 spmv_format_name(R->chosen), R->csr_spmv_s / R->chosen_spmv_s, R->cand[bi].rule,
                 R->cand[bi].convert_s / (R->csr_spmv_s - R->chosen_spmv_s));
    else /* level with CSR in the trials, and its conversion cheaper than CSR's copy */
        snprintf(R->why, sizeof R->why, "%s: %.2fx CSR's product in the trials (%s), its conversion cheaper than copying CSR",
                 spmv_format_name(R->chosen), R->csr_spmv_s / R->chosen_spmv_s, R->cand[bi].rule);
    R->select_s = spmv_wtime() - S->t0;
    R->select_spmvs = R->chosen_spmv_s > 0 ? R->select_s / R->chosen_spmv_s : 0;
    return SPMV_OK;
}

/* the timed phases (3b-6), the trials' threads set and restored around them, everything they
 * hold freed on any outcome */
static inline spmv_status SPMV_NAME(auto__timed)(SPMV_NAME(auto__state) *S) {
    spmv_status st;
#ifdef _OPENMP
    S->prev_threads = omp_get_max_threads();
    if (S->opts.threads > 0) omp_set_num_threads(S->opts.threads);
#endif
    S->kk = S->opts.mm_k > 1 ? S->opts.mm_k : 1;
    st = SPMV_NAME(auto__csr_trial)(S);
    if (st == SPMV_OK) st = SPMV_NAME(auto__candidates)(S);
    if (st == SPMV_OK) SPMV_NAME(auto__duel_phase)(S);
    if (st == SPMV_OK) st = SPMV_NAME(auto__finish)(S);
    SPMV_NAME(any_free)(&S->best);
    SPMV_NAME(any_free)(&S->cand);
    SPMV_NAME(any_free)(&S->spare);
    spmv__free(S->x);
    spmv__free(S->y);
#ifdef _OPENMP
    omp_set_num_threads(S->prev_threads);
#endif
    return st == SPMV_OK ? st : SPMV_NAME(auto__failed)(S->M, st, "selection failed");
}

static inline spmv_status SPMV_NAME(auto__select)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A,
                                                    const spmv_opts *o) {
    SPMV_NAME(auto__state) S;
    spmv_error e;
    spmv_status st;
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    memset(&S, 0, sizeof S);
    S.t0 = spmv_wtime();
    S.M = M;
    S.R = &M->rep;
    S.A = A;
    S.opts = o ? *o : spmv_opts_default();
    S.overrun = 1;
    if (!A) {
        snprintf(M->rep.why, sizeof M->rep.why, "no matrix (A is NULL)");
        return SPMV_ERR_ARG;
    }
    if (spmv_opts_check(&S.opts, &e) != SPMV_OK) {
        snprintf(M->rep.why, sizeof M->rep.why, "bad options: %.150s", e.msg);
        return SPMV_ERR_ARG;
    }
    if ((st = SPMV_NAME(csr_check)(A)) != SPMV_OK) {
        snprintf(M->rep.why, sizeof M->rep.why, "the CSR matrix is malformed: %s", spmv_status_str(st));
        return st;
    }
    M->rep.opts = S.opts;
    SPMV_NAME(auto__gate)(&S);
    if ((st = SPMV_NAME(auto__inspect)(&S)) != SPMV_OK) return st;
    if (S.opts.deterministic || S.opts.budget < 4 || A->nnz == 0 || S.few || S.blind)
        return SPMV_NAME(auto__untimed)(&S);
    return SPMV_NAME(auto__timed)(&S);
}

/* Inspects A, times the shortlist within the budget and keeps the winner in *M (see the
 * top of this file). o: NULL for spmv_opts_default(). On failure *M is empty except
 * M->rep, nothing is left allocated, and e (may be NULL) says what went wrong; M->rep.why
 * explains the choice (or the failure). */
SPMV_API spmv_status SPMV_NAME(auto_from_csr)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const spmv_opts *o,
                                                   spmv_error *e) {
    spmv_status st;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (o && (o->transpose == 1 || o->transpose == 2) && A && M) { /* choose for A^T (A^H), the matrix the handle will hold */
        SPMV_NAME(csr) At;
        spmv_opts o2 = *o;
        o2.transpose = 0;
        o2.borrow = 0; /* A^T is dropped below: the handle must own its arrays */
        if ((st = o->transpose == 2 ? SPMV_NAME(csr_adjoint)(&At, A) : SPMV_NAME(csr_transpose)(&At, A)) != SPMV_OK) {
            memset(M, 0, sizeof *M);
            SPMV__ERR(e, "transposing A: %s", spmv_status_str(st));
            return st;
        }
        st = SPMV_NAME(auto__select)(M, &At, &o2);
        SPMV_NAME(csr_free)(&At);
        if (st == SPMV_OK) M->h.transposed = o->transpose;
    } else {
        st = SPMV_NAME(auto__select)(M, A, o);
    }
    if (st != SPMV_OK) SPMV__ERR(e, "%s", M ? M->rep.why : "no handle (M is NULL)");
    return st;
}

/* the ordinary verbs, on the chosen format */
SPMV_API spmv_status SPMV_NAME(auto_mv)(SPMV_NAME(auto) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    return M ? SPMV_NAME(any_mv)(&M->h, alpha, x, beta, y) : SPMV_ERR_ARG;
}
SPMV_API spmv_status SPMV_NAME(auto_mvt)(SPMV_NAME(auto) *M, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                              SPMV_Y *y) {
    return M ? SPMV_NAME(any_mvt)(&M->h, alpha, x, beta, y) : SPMV_ERR_ARG;
}
SPMV_API spmv_status SPMV_NAME(auto_mm)(SPMV_NAME(auto) *M, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
                                             SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    return M ? SPMV_NAME(any_mm)(&M->h, k, alpha, X, ldx, beta, Y, ldy, lay) : SPMV_ERR_ARG;
}
/* new values on the same pattern (any_update_values on the chosen format) */
SPMV_API spmv_status SPMV_NAME(auto_update_values)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A) {
    return M ? SPMV_NAME(any_update_values)(&M->h, A) : SPMV_ERR_ARG;
}
SPMV_API spmv_format SPMV_NAME(auto_format)(const SPMV_NAME(auto) *M) { return M ? M->h.fmt : SPMV_FMT_COUNT_; }
SPMV_API size_t SPMV_NAME(auto_bytes)(const SPMV_NAME(auto) *M) { return M ? SPMV_NAME(any_bytes)(&M->h) : 0; }
SPMV_API spmv_status SPMV_NAME(auto_to_csr)(const SPMV_NAME(auto) *M, SPMV_NAME(csr) *B) {
    return M ? SPMV_NAME(any_to_csr)(&M->h, B) : SPMV_ERR_ARG;
}
#endif /* SPMV_PART_DEFS */
