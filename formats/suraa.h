/* SURAA family — GPU only (seeds/004, Muhammed, Mehmood, Albeshri and Katib 2019; NOTES.md "SURAA"): registry row suraa
 * (host = 0: no CPU kernel; the device side is formats/cuda/suraa.cuh). This header holds the
 * layout, built on the host and uploaded as it is, its converter, _free, _bytes and _to_csr.
 *
 * Layout (m = nrows):
 *   rows sorted by length (nonzeros per row, npr) descending, ties by first column ascending
 *   (empty rows last), then by original row; sorted row k is original row perm[k];
 *   row_ptr[m+1], col_idx[nnz], val[nnz]: the CSR arrays physically permuted (row k's entries
 *   contiguous, columns in their original order), so the device kernels read them coalesced
 *   and write y[perm[k]] directly (no inverse permutation pass).
 *   Segments: consecutive runs of seg_rows sorted rows (the last may be shorter), nseg of them.
 *   Groups (contiguous in the sorted order, since the segments' mean npr never increases):
 *     G1 sorted rows [0, g1_end)       the leading segments with mean npr >= 32 while their
 *                                      rows fit the child budget params.child (the device
 *                                      runtime's pending-launch count, 2048): one child grid
 *                                      per row (dynamic parallelism) or the grid-wide
 *                                      long-row kernel;
 *     G2 sorted rows [g1_end, g2_end)  the other segments with mean npr >= 32: vector kernel,
 *                                      Y threads per row, Y a multiple of 32;
 *     G3 sorted rows [g2_end, m)       the rest: the short-row kernel, T lanes per row.
 *   runs: the launches, maximal ranges of consecutive segments with the same group and the
 *   same lanes per row: run i covers sorted rows [run_row[i], run_row[i+1]) of group
 *   run_group[i] with run_lanes[i] lanes per row (G1: 0). At most 1 + 6 + 5 runs.
 *
 * Segment size — the Freedman-Diaconis rule and its mapping (NOTES.md): the rule's bin width
 *   h = 2 * IQR(npr) / cbrt(m) is in nonzeros per row, not in rows (taken as a row count it is
 *   often < 1 or 0). It is read as what it is, the width of a histogram bin of the row lengths:
 *     h' = max(h, 1)                       (npr are integers: a narrower bin is meaningless,
 *                                           and IQR = 0, common on regular matrices, gives 0)
 *     k  = floor((max npr - min npr) / h') + 1        bins covering the lengths
 *     seg_rows = clamp(ceil(m / k), 32, m)            the m sorted rows in k equal segments
 *   so the row axis gets the histogram's resolution: a heavy tail (max far above the IQR:
 *   circuit, power-law) gives many small segments that isolate the long rows, a narrow
 *   distribution (stencils) a few large ones. At least 32 rows (a warp of G3 threads) per
 *   segment. params.seg > 0 sets seg_rows directly (tests, experiments).
 * Lanes per row (from the segment's mean npr, so that every lane has about 8 entries or more,
 *   the rule measured for csr_vector on an H200; the paper's Y = npr/2 leaves lanes with 2),
 *   raised by the segment's longest row (its first), so that one long row among short ones
 *   (the mean of 32 rows hides it) does not serialize its warp:
 *   G2: Y = the smallest of 32, 64, ..., 1024 with 8*Y >= mean and 64*Y >= longest;
 *   G3: T = 1 (thread per row: the paper's scalar kernel) for mean <= 4, 2 for mean <= 16,
 *   else 4, doubled (up to 16) while 32*T < longest; params.t3 > 0 forces T (t3=1: the
 *   paper's G3 exactly).
 * Footprint: (m+1)*I + nnz*(I+T) + m*I (perm).
 * Every tag (SPMV__MIXED_suraa, SPMV__CPLX_suraa): the layout only sorts rows by their lengths and
 *   copies the values as stored (SPMV_T: float for ds, spmv_half / spmv_bfloat16 for h, b,
 *   spmv_cdouble / spmv_cfloat for z, c), never reads or compares them; the vectors' type
 *   (SPMV_Y) is the device kernels' concern.
 * Limits: the index type (csr_check); params.child <= 2^20. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_SURAA_COMMON
#define SPMV_SURAA_COMMON
#define SPMV_SURAA_WARP_NPR 32  /* mean npr from which a segment is long (G1/G2): a warp */
#define SPMV_SURAA_MIN_SEG 32   /* fewest rows per Freedman-Diaconis segment */
#define SPMV_SURAA_MAX_RUNS 16  /* launches: 1 (G1) + 6 (G2: Y = 32..1024) + 5 (G3: T = 1..16) */
typedef struct spmv_suraa_params {
    spmv_isa isa; /* unused (no CPU kernel; the layout does not depend on it) */
    int child;    /* G1 budget: most rows in G1 (0: no G1); default 2048 */
    int seg;      /* rows per segment; 0: Freedman-Diaconis (default) */
    int t3;       /* G3 lanes per row (1, 2, 4, 8, 16); 0: from the segment's mean npr */
} spmv_suraa_params;
static inline spmv_suraa_params spmv_suraa_params_default(void) {
    spmv_suraa_params p;
    p.isa = SPMV_ISA_AUTO;
    p.child = 2048;
    p.seg = 0;
    p.t3 = 0;
    return p;
}
static const spmv_param_key spmv__suraa_keys[] = {
    {"child", offsetof(spmv_suraa_params, child), SPMV_PK_INT, 0, 1 << 20, NULL,
     "G1 budget: most rows of the leading long segments (one child grid each; 0: no G1)"},
    {"seg", offsetof(spmv_suraa_params, seg), SPMV_PK_INT, 0, 1 << 30, NULL,
     "rows per segment (0: Freedman-Diaconis)"},
    {"t3", offsetof(spmv_suraa_params, t3), SPMV_PK_POW2, 0, 16, NULL,
     "G3 lanes per row (1: thread per row; 0: from the mean row length)"},
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
/* sort key of a row: length descending, first column ascending, row ascending */
typedef struct spmv__suraa_key {
    int64_t len, first, row;
} spmv__suraa_key;
static inline int spmv__suraa_cmp(const void *a, const void *b) {
    const spmv__suraa_key *p = (const spmv__suraa_key *)a, *q = (const spmv__suraa_key *)b;
    if (p->len != q->len) return p->len > q->len ? -1 : 1;
    if (p->first != q->first) return p->first < q->first ? -1 : 1;
    return p->row < q->row ? -1 : p->row > q->row;
}
/* G2 threads per row for a segment of mean length mean (>= 32) whose longest row has longest
 * entries: >= 8 entries per thread on average, at most 64 on the longest row (up to 1024) */
static inline int spmv_suraa_g2_lanes(double mean, int64_t longest) {
    int y = 32;
    while (y < 1024 && (8.0 * y < mean || 64 * (int64_t)y < longest)) y <<= 1;
    return y;
}
/* G3 lanes per row for a segment of mean length mean (< 32): 1 (thread per row), 2 or 4 from the
 * mean, raised (up to 16) until the longest row needs at most 32 steps */
static inline int spmv_suraa_g3_lanes(double mean, int64_t longest) {
    int t = mean <= 4 ? 1 : mean <= 16 ? 2 : 4;
    while (t < 16 && 32 * (int64_t)t < longest) t <<= 1;
    return t;
}
/* Freedman-Diaconis segment size (rows) of m rows whose lengths, sorted descending, are
 * len(k) = rp[k+1] - rp[k]; *h gets the rule's bin width (npr units, before clamping). */
static inline int64_t spmv_suraa_fd_rows(int64_t m, int64_t len_max, int64_t len_min, int64_t q3, int64_t q1,
                                         double *h) {
    double w = m > 0 ? 2.0 * (double)(q3 - q1) / cbrt((double)m) : 0.0, bins;
    int64_t k, rows;
    if (h) *h = w;
    if (m <= 0) return 0;
    if (w < 1.0) w = 1.0;
    bins = floor((double)(len_max - len_min) / w) + 1.0;
    k = bins >= (double)m ? m : (int64_t)bins;
    rows = (m + k - 1) / k;
    if (rows < SPMV_SURAA_MIN_SEG) rows = SPMV_SURAA_MIN_SEG;
    return rows > m ? m : rows;
}
#endif

typedef struct SPMV_NAME(suraa) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col_idx; /* the permuted CSR: sorted row k = original row perm[k] */
    SPMV_T *val;
    SPMV_I *perm;              /* nrows */
    SPMV_I seg_rows, nseg;     /* rows per segment (the last may be shorter), segments */
    SPMV_I g1_end, g2_end;     /* G1 = [0, g1_end), G2 = [g1_end, g2_end), G3 = [g2_end, nrows) */
    double fd_width;           /* the Freedman-Diaconis bin width 2 IQR / cbrt(m) (npr units) */
    int nrun;                  /* launches */
    SPMV_I run_row[SPMV_SURAA_MAX_RUNS + 1];
    int run_group[SPMV_SURAA_MAX_RUNS]; /* 1, 2, 3 */
    int run_lanes[SPMV_SURAA_MAX_RUNS]; /* G2: Y, G3: T, G1: 0 */
    spmv_suraa_params params;
} SPMV_NAME(suraa);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(suraa_free)(SPMV_NAME(suraa) *A);
SPMV_API size_t SPMV_NAME(suraa_bytes)(const SPMV_NAME(suraa) *A);
SPMV_API spmv_status SPMV_NAME(suraa_from_csr)(SPMV_NAME(suraa) *A, const SPMV_NAME(csr) *B,
        const spmv_suraa_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(suraa_to_csr)(const SPMV_NAME(suraa) *A, SPMV_NAME(csr) *B);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(suraa_free)(SPMV_NAME(suraa) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->col_idx);
    spmv__free(A->val);
    spmv__free(A->perm);
    memset(A, 0, sizeof *A);
}

SPMV_API size_t SPMV_NAME(suraa_bytes)(const SPMV_NAME(suraa) *A) {
    if (!A) return 0;
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           (size_t)A->nrows * sizeof(SPMV_I);
}

/* segments, groups and runs of a sorted, permuted A (row_ptr set) */
static inline void SPMV_NAME(suraa__plan)(SPMV_NAME(suraa) *A) {
    const int64_t m = (int64_t)A->nrows;
    int64_t S, j, g1 = 0, rows_g1 = 0;
    int phase = 1; /* 1: G1 still open, 2: G2, 3: G3 */
    A->nrun = 0;
    A->run_row[0] = 0;
    if (m == 0) return;
    { /* quartiles of the lengths, sorted descending: upper at m/4, lower at 3m/4 */
        const int64_t q3 = (int64_t)(A->row_ptr[m / 4 + 1] - A->row_ptr[m / 4]);
        const int64_t q1 = (int64_t)(A->row_ptr[3 * m / 4 + 1] - A->row_ptr[3 * m / 4]);
        S = spmv_suraa_fd_rows(m, (int64_t)(A->row_ptr[1] - A->row_ptr[0]),
                               (int64_t)(A->row_ptr[m] - A->row_ptr[m - 1]), q3, q1, &A->fd_width);
        if (A->params.seg > 0) S = A->params.seg < m ? A->params.seg : m;
    }
    A->seg_rows = (SPMV_I)S;
    A->nseg = (SPMV_I)((m + S - 1) / S);
    A->g1_end = A->g2_end = 0;
    for (j = 0; j < (int64_t)A->nseg; j++) {
        const int64_t r0 = j * S, r1 = r0 + S < m ? r0 + S : m;
        const double mean = (double)(A->row_ptr[r1] - A->row_ptr[r0]) / (double)(r1 - r0);
        const int64_t longest = (int64_t)(A->row_ptr[r0 + 1] - A->row_ptr[r0]); /* sorted: the first */
        int group, lanes;
        if (phase == 1 && !(mean >= SPMV_SURAA_WARP_NPR && rows_g1 + (r1 - r0) <= A->params.child)) phase = 2;
        if (phase == 2 && !(mean >= SPMV_SURAA_WARP_NPR)) phase = 3;
        group = phase;
        if (group == 1) {
            lanes = 0;
            rows_g1 += r1 - r0;
            g1 = r1;
        } else if (group == 2) {
            lanes = spmv_suraa_g2_lanes(mean, longest);
        } else {
            lanes = A->params.t3 > 0 ? A->params.t3 : spmv_suraa_g3_lanes(mean, longest);
        }
        if (group <= 2) A->g2_end = (SPMV_I)r1;
        if (A->nrun > 0 && A->run_group[A->nrun - 1] == group && A->run_lanes[A->nrun - 1] == lanes) {
            A->run_row[A->nrun] = (SPMV_I)r1; /* extends the last run */
        } else {
            A->run_group[A->nrun] = group;
            A->run_lanes[A->nrun] = lanes;
            A->nrun++;
            A->run_row[A->nrun] = (SPMV_I)r1;
        }
    }
    A->g1_end = (SPMV_I)g1;
}

/* Host CSR B -> SURAA layout. p: NULL for the defaults. csr_check first (SPMV_ERR_ARG /
 * SPMV_ERR_OVERFLOW); SPMV_ERR_ARG for parameters out of range; SPMV_ERR_ALLOC (everything
 * freed, *A zeroed). */
static inline spmv_status SPMV_NAME(suraa__build)(SPMV_NAME(suraa) *A, const SPMV_NAME(csr) *B,
                                                    const spmv_suraa_params *p) {
    spmv_suraa_params prm = p ? *p : spmv_suraa_params_default();
    spmv__suraa_key *key;
    spmv_status st;
    int64_t m, k, pos = 0;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    if (prm.child < 0 || prm.child > (1 << 20) || prm.seg < 0 || prm.seg > (1 << 30) || prm.t3 < 0 || prm.t3 > 16 ||
        (prm.t3 & (prm.t3 - 1)))
        return SPMV_ERR_ARG;
    prm.isa = SPMV_ISA_GENERIC;
    m = (int64_t)B->nrows;
    key = SPMV_ALLOC_N(spmv__suraa_key, m);
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, m + 1);
    A->col_idx = SPMV_ALLOC_N(SPMV_I, B->nnz);
    A->val = SPMV_ALLOC_N(SPMV_T, B->nnz);
    A->perm = SPMV_ALLOC_N(SPMV_I, m);
    if (!key || !A->row_ptr || !A->col_idx || !A->val || !A->perm) {
        spmv__free(key);
        SPMV_NAME(suraa_free)(A);
        return SPMV_ERR_ALLOC;
    }
    for (k = 0; k < m; k++) {
        const int64_t a = (int64_t)B->row_ptr[k], b = (int64_t)B->row_ptr[k + 1];
        int64_t first = INT64_MAX, q;
        for (q = a; q < b; q++) /* the smallest column (a wrapped CSR need not be sorted) */
            if ((int64_t)B->col_idx[q] < first) first = (int64_t)B->col_idx[q];
        key[k].len = b - a;
        key[k].first = first;
        key[k].row = k;
    }
    if (m > 1) qsort(key, (size_t)m, sizeof *key, spmv__suraa_cmp);
    A->row_ptr[0] = 0;
    for (k = 0; k < m; k++) {
        const int64_t a = (int64_t)B->row_ptr[key[k].row];
        A->perm[k] = (SPMV_I)key[k].row;
        if (key[k].len) {
            memcpy(A->col_idx + pos, B->col_idx + a, (size_t)key[k].len * sizeof(SPMV_I));
            memcpy(A->val + pos, B->val + a, (size_t)key[k].len * sizeof(SPMV_T));
        }
        pos += key[k].len;
        A->row_ptr[k + 1] = (SPMV_I)pos;
    }
    spmv__free(key);
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->params = prm;
    SPMV_NAME(suraa__plan)(A);
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(suraa_from_csr)(SPMV_NAME(suraa) *A, const SPMV_NAME(csr) *B,
        const spmv_suraa_params *p, spmv_error *e) {
    return spmv__built(e, SPMV_NAME(suraa__build)(A, B, p), "suraa_from_csr", NULL);
}

/* Back to CSR (rows in the original order, each row's entries as stored). */
SPMV_API spmv_status SPMV_NAME(suraa_to_csr)(const SPMV_NAME(suraa) *A, SPMV_NAME(csr) *B) {
    int64_t k, m;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A || A->nrows < 0 || (A->nrows > 0 && (!A->row_ptr || !A->perm))) return SPMV_ERR_ARG;
    m = (int64_t)A->nrows;
    B->row_ptr = SPMV_ALLOC_N(SPMV_I, m + 1);
    B->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!B->row_ptr || !B->col_idx || !B->val) {
        SPMV_NAME(csr_free)(B);
        return SPMV_ERR_ALLOC;
    }
    memset(B->row_ptr, 0, ((size_t)m + 1) * sizeof(SPMV_I));
    for (k = 0; k < m; k++) B->row_ptr[A->perm[k] + 1] = A->row_ptr[k + 1] - A->row_ptr[k];
    for (k = 0; k < m; k++) B->row_ptr[k + 1] += B->row_ptr[k];
    for (k = 0; k < m; k++) {
        const int64_t n = (int64_t)(A->row_ptr[k + 1] - A->row_ptr[k]), dst = (int64_t)B->row_ptr[A->perm[k]];
        if (n) {
            memcpy(B->col_idx + dst, A->col_idx + A->row_ptr[k], (size_t)n * sizeof(SPMV_I));
            memcpy(B->val + dst, A->val + A->row_ptr[k], (size_t)n * sizeof(SPMV_T));
        }
    }
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = SPMV_ISA_GENERIC;
    return SPMV_OK;
}
#endif /* SPMV_PART_DEFS */
/* No SPMV_PART_KERNELS / SPMV_PART_API: the registry row has host = 0. */

#if defined(SPMV_PART_RULES) && !defined(SPMV_SURAA_RULES)
#define SPMV_SURAA_RULES
/* What the selection knows about suraa (formats/core/rules.h): segments by row length pay on
 * skewed rows (device median 1.04x), nothing to sort on regular ones. */
static inline double spmv_suraa__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->row_cv < 1.0) return *why = "regular rows: nothing to sort", 0.0;
    return *why = "skewed rows: segments by row length", 1.1;
}
static inline double spmv_suraa__rule_dev(const spmv_auto_features *F, const char **why) {
    if (!spmv_rule_skewed(F)) return *why = "balanced rows: nothing to sort", 0.6;
    return *why = "skewed rows: segments by row length (measured 1.04x median)", 1.0;
}
static const spmv_format_rules spmv_rules_suraa = {11, 23, spmv_suraa__rule_host, spmv_suraa__rule_dev, NULL, NULL,
                                                   NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
