/* rules — what the automatic selection (formats/auto.h) knows about a format, kept with the
 * format: each registry row <name> has, in its family's header (the SPMV_PART_RULES part,
 * compiled with the bodies), one
 *     static const spmv_format_rules spmv_rules_<name> = { ... };
 * that auto.h reaches through the registry (spmv__format_rules): a row without one does not
 * compile. auto.h applies what holds for every format first (the baseline csr, SpMM without a
 * native kernel, atomics in deterministic mode, the symmetric-only rows, formats embedding x,
 * an empty matrix; formats/auto.h, spmv_auto_predict), then the row's rule. The numbers behind
 * each rule, and their history, are in docs/PERFORMANCE.md and bench/results/. */
#ifndef SPMV_CORE_RULES_H
#define SPMV_CORE_RULES_H
#include "auto_policy.h"

typedef struct spmv_format_rules {
    /* typical conversion cost from CSR: on the host in CSR products, on the device in units of
     * CSR's upload (which counts 5); before a conversion is tried the budget uses it, scaled
     * by what this matrix's conversions so far measured against it */
    double convert_host, convert_dev;
    /* predicted speedup over csr on the CPU and on the device (0: left out); *why, a static
     * string, says which rule gave it. NULL: 1.0, "no rule for this format" */
    double (*host)(const spmv_auto_features *F, const spmv_opts *o, const char **why);
    double (*dev)(const spmv_auto_features *F, const char **why);
    /* a format embedding x, on the CPU, when x changes at every call (its copy paid per
     * product): NULL, left out */
    double (*x_copied)(const spmv_auto_features *F, const char **why);
    /* bytes its conversion writes into new arrays (a floor under the conversion's cost, at the
     * measured cost of fresh pages). NULL: one value and one index per entry plus a row array */
    double (*new_bytes)(const spmv_auto_features *F);
    /* 1 when, should it lose its trial, its arrays will likely hold CSR's copy (auto__donor).
     * NULL: never */
    int (*donor)(const spmv_auto_features *F);
    /* the kind of matrix `spmv calibrate` times the row's ISAs on (spmv_calib_kind; 0: rows) */
    int calib_kind;
    /* 0: the row's own ISA (spmv_isa_for: calibrated per format); else 1 + the format whose ISA
     * it builds with, not calibrated itself (csrdu takes csr's: the same arithmetic, csr's bits) */
    int isa_as;
} spmv_format_rules;

/* The synthetic matrices of the ISA calibration (formats/calib.h, spmv_<tag>_calibrate_isa): a
 * row is timed on the kind it is good for, in cache and beyond the last-level cache */
typedef enum spmv_calib_kind {
    SPMV_CALIB_ROWS = 0,    /* rows of ~13 entries, neighbours on a 3-D grid (27 diagonals) */
    SPMV_CALIB_STENCIL7,    /* the 7-point stencil: 7 full diagonals */
    SPMV_CALIB_STENCIL27,   /* the 27-point stencil: 27 diagonals with gaps */
    SPMV_CALIB_BLOCKS3,     /* dense 3x3 blocks, 8 per block row */
    SPMV_CALIB_SYMMETRIC    /* the same blocks, symmetric */
} spmv_calib_kind;

/* the shared vocabulary of the rules */
#define SPMV_RULE_EMBEDS_X "embeds x, and x changes at every call (copy per product)"
/* CSR + x + y beyond the last-level cache: the product streams from memory, bytes decide */
static inline int spmv_rule_big(const spmv_auto_features *F) { return F->csr_bytes > F->llc_bytes; }
/* CSR + x + y within one core's L2 (1 MB here): the product is bound by latency, not bytes */
static inline int spmv_rule_l2(const spmv_auto_features *F) { return F->csr_bytes <= (double)(1 << 20); }
/* on the device: CSR beyond the L2 of an H100/H200 */
static inline int spmv_rule_dev_big(const spmv_auto_features *F) { return F->csr_bytes > 50e6; }
/* rows skewed enough for merge-path balancing (host and device rules) */
static inline int spmv_rule_skewed(const spmv_auto_features *F) {
    return F->row_cv >= 1.5 || (double)F->row_max >= 16 * F->row_mean + 64;
}
/* the device skew cap (formats/cuda/core.cuh) would refuse this matrix at upload */
static inline int spmv_rule_dev_capped(const spmv_auto_features *F, int64_t min_len, int64_t lanes) {
    return spmv__skew_capped(F->nrows, F->nnz, F->row_max, min_len, lanes);
}
/* the bytes of a layout storing fill slots per entry (a value and an index each) plus a row array */
static inline double spmv_rule_padded_bytes(const spmv_auto_features *F, double fill) {
    return (fill > 1 ? fill : 1) * (double)F->nnz * (F->value_bytes + F->index_bytes) +
           (double)F->nrows * F->index_bytes;
}
#endif
