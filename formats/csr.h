/* CSR — compressed sparse rows (also the source of every other format's converter).
 * Layout: row_ptr[nrows+1], col_idx[nnz], val[nnz]; columns sorted within a row,
 * duplicates summed, explicit zeros kept. Footprint (nrows+1)*I + nnz*(I+T).
 * Kernels (params.algo):
 *  SPMV_CSR_ROWS  row-parallel; each thread gets a contiguous row range holding an
 *                 equal share of nnz+nrows (found once at conversion for the thread
 *                 count of that moment, searched per call for any other count), rows
 *                 done with a vectorized gather-dot.
 *  SPMV_CSR_MERGE merge-path (Merrill & Garland): threads split the path of
 *                 nrows row-ends + nnz entries evenly, so one huge row is shared by
 *                 all threads; the partial row at each split is carried and added
 *                 after the parallel region (no atomics, no race).
 * Both write y[r] = alpha*dot + beta*y[r], never reading y when beta == 0. Below
 * SPMV_CSR_PAR_MIN entries + rows both run serially, outside any OpenMP region. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_CSR_COMMON
#define SPMV_CSR_COMMON
/* rows, merge: CPU kernels; scalar (thread per row), vector (tpr threads per row),
 * auto (vector, or merge when the longest row is far above the mean), split (vector for the
 * rows up to 8x the mean + 100, the longer ones in chunks summed in a fixed order: no
 * atomics, the same bits every run): device kernels. The host runs scalar/vector/auto/split
 * as rows; the device runs rows as auto. */
typedef enum spmv_csr_algo {
    SPMV_CSR_ROWS = 0,
    SPMV_CSR_MERGE = 1,
    SPMV_CSR_SCALAR = 2,
    SPMV_CSR_VECTOR = 3,
    SPMV_CSR_AUTO = 4,
    SPMV_CSR_SPLIT = 5
} spmv_csr_algo;
/* How the CPU kernels sum a row: scalar loads of x (one accumulator on short rows, four on
 * long ones), or the ISA's gather instructions on rows from SPMV_CSR_SHORT entries. Scalar is
 * the default because it was faster on every matrix measured (2026-11-23, Xeon Skylake-SP
 * class, AVX-512, 1 thread, 78 matrices side by side with the plain loop: gathers 0.57-1.57x
 * the loop, scalar 0.79-2.19x); CPUs with fast gathers may prefer gather (`dot=gather`). */
typedef enum spmv_csr_dot { SPMV_CSR_DOT_SCALAR = 0, SPMV_CSR_DOT_GATHER = 1 } spmv_csr_dot;
/* the row sum a csr object runs (its rows_kind; see csr__plan) */
enum { SPMV_CSR_RK_PLAIN = 0, SPMV_CSR_RK_SPLIT = 1, SPMV_CSR_RK_GATHER = 2 };
typedef struct spmv_csr_params {
    spmv_isa isa;       /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    spmv_csr_algo algo; /* SPMV_CSR_ROWS (default) or SPMV_CSR_MERGE (and the device ones) */
    int tpr;            /* device vector kernel: threads per row 2..32 (0: from the mean row length) */
    spmv_csr_dot dot;   /* CPU kernels: SPMV_CSR_DOT_SCALAR (default) or SPMV_CSR_DOT_GATHER */
} spmv_csr_params;
static inline spmv_csr_params spmv_csr_params_default(void) {
    spmv_csr_params p;
    p.isa = SPMV_ISA_AUTO;
    p.algo = SPMV_CSR_ROWS;
    p.tpr = 0;
    p.dot = SPMV_CSR_DOT_SCALAR;
    return p;
}
static const spmv_param_key spmv__csr_keys[] = {
    {"algo", offsetof(spmv_csr_params, algo), SPMV_PK_ENUM, 0, 5, "rows|merge|scalar|vector|auto|split",
     "kernel (CPU: rows, merge; GPU: scalar, vector, merge, auto, split)"},
    {"tpr", offsetof(spmv_csr_params, tpr), SPMV_PK_POW2, 0, 32, NULL, "GPU vector kernel: threads per row (0: auto)"},
    {"dot", offsetof(spmv_csr_params, dot), SPMV_PK_ENUM, 0, 1, "scalar|gather",
     "CPU row sums: scalar loads of x, or gather instructions on long rows"},
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
/* the registry's variants of csr: the same object, another default kernel */
typedef spmv_csr_params spmv_csr_merge_params;
typedef spmv_csr_params spmv_csr_scalar_params;
typedef spmv_csr_params spmv_csr_vector_params;
static inline spmv_csr_params spmv_csr_merge_params_default(void) {
    spmv_csr_params p = spmv_csr_params_default();
    p.algo = SPMV_CSR_MERGE;
    return p;
}
static inline spmv_csr_params spmv_csr_scalar_params_default(void) {
    spmv_csr_params p = spmv_csr_params_default();
    p.algo = SPMV_CSR_SCALAR;
    return p;
}
static inline spmv_csr_params spmv_csr_vector_params_default(void) {
    spmv_csr_params p = spmv_csr_params_default();
    p.algo = SPMV_CSR_VECTOR;
    return p;
}
#define spmv__csr_merge_keys spmv__csr_keys
#define spmv__csr_scalar_keys spmv__csr_keys
#define spmv__csr_vector_keys spmv__csr_keys
#endif

#ifndef SPMV_CSR_PARTS
#define SPMV_CSR_PARTS 64 /* thread counts up to this get their split stored in the object */
#endif
typedef struct SPMV_NAME(csr) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col_idx;
    SPMV_T *val;
    spmv_csr_params params; /* params.isa is resolved (never AUTO) after conversion */
    int borrowed;           /* csr_wrap: the arrays are the caller's; _free leaves them */
    /* The kernel's split over part_nt threads, found once at conversion (csr__plan) instead of
     * at every call: rows, the first row of each part; merge, the rows finished where each
     * part's diagonal starts. Used only by a call with part_nt threads on the arrays it was
     * found for (part_rp); any other call searches as before. */
    int part_nt;
    const SPMV_I *part_rp;
    SPMV_I part[SPMV_CSR_PARTS + 1];
    int rows_kind; /* the row sum the kernels use (csr__plan): SPMV_CSR_RK_* */
    int cols_sorted; /* 1: columns ascend in every row (the library's converters); csr_wrap: 0 */
} SPMV_NAME(csr);
typedef SPMV_NAME(csr) SPMV_NAME(csr_merge);
typedef SPMV_NAME(csr) SPMV_NAME(csr_scalar);
typedef SPMV_NAME(csr) SPMV_NAME(csr_vector);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(csr_free)(SPMV_NAME(csr) *A);
SPMV_API double SPMV_NAME(csr_row_cv)(const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_check)(const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_wrap)(SPMV_NAME(csr) *A, int64_t nrows, int64_t ncols, const SPMV_I *row_ptr,
        const SPMV_I *col_idx, const SPMV_T *val, const spmv_csr_params *p, spmv_error *e);
SPMV_API int64_t SPMV_NAME(csr_stored)(const SPMV_NAME(csr) *A);
SPMV_API size_t SPMV_NAME(csr_bytes)(const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_from_coo)(SPMV_NAME(csr) *A, const SPMV_NAME(coo) *B, const spmv_csr_params *p);
SPMV_API spmv_status SPMV_NAME(csr_from_triplets)(SPMV_NAME(csr) *A, const spmv_triplets *t,
        const spmv_csr_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(csr_from_csr)(SPMV_NAME(csr) *A, const SPMV_NAME(csr) *B, const spmv_csr_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(csr_to_csr)(const SPMV_NAME(csr) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(csr_merge_from_csr)(SPMV_NAME(csr) *A, const SPMV_NAME(csr) *B,
        const spmv_csr_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(csr_mv)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
/* first row of part t of nt when rows are weighted by nnz + 1 */
static inline SPMV_I SPMV_NAME(csr__split)(const SPMV_I *row_ptr, SPMV_I nrows, int t, int nt) {
    int64_t target = ((int64_t)row_ptr[nrows] + nrows) * t / nt;
    SPMV_I lo = 0, hi = nrows;
    while (lo < hi) { /* smallest r with row_ptr[r] + r >= target */
        SPMV_I mid = lo + (hi - lo) / 2;
        if ((int64_t)row_ptr[mid] + mid < target) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
/* Merge-path coordinate on diagonal d: rows finished (i) and entries consumed (d - i). */
static inline SPMV_I SPMV_NAME(csr__merge_search)(const SPMV_I *row_ptr, SPMV_I nrows, SPMV_I nnz, int64_t d) {
    int64_t lo = d - nnz > 0 ? d - nnz : 0, hi = d < nrows ? d : nrows;
    while (lo < hi) { /* row ends are row_ptr[i+1]; entries are 0..nnz-1 */
        int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)row_ptr[mid + 1] <= d - mid - 1) lo = mid + 1;
        else hi = mid;
    }
    return (SPMV_I)lo;
}
/* Threads a product of A runs on: one below SPMV_CSR_PAR_MIN entries + rows, with no parallel
 * region at all. Re-measured on 2 threads after the row sums were pinned (2026-11-24, EPYC VM,
 * serial and two-thread CSR and the plain loop in turn in one process, medians of 2001, two
 * runs): serial 1.05x faster than two threads on jazz (5.7k entries + rows, long rows; one
 * run), level at 2.2-3.0k (494_bus, west0479, lp_e226); two threads 1.35-1.46x faster on
 * rajat19 (6.6k), gre_1107 (6.8k), qh1484 (7.6k), 1.26x on lp_ship04l (6.8k). The 2026-11-23
 * figure (7000) had gre_1107 serial. */
#ifndef SPMV_CSR_PAR_MIN
#define SPMV_CSR_PAR_MIN 6000
#endif
static inline int SPMV_NAME(csr__threads)(const SPMV_NAME(csr) *A) {
    return (int64_t)A->nnz + A->nrows >= SPMV_CSR_PAR_MIN ? spmv_max_threads() : 1;
}
/* The row sum (rows_kind), chosen once from the row lengths:
 *  PLAIN  one accumulator for every row: the plain loop's shape;
 *  SPLIT  one accumulator below SPMV_CSR_LONG entries, four from it;
 *  GATHER the ISA's gathers from SPMV_CSR_SHORT entries (params.dot = gather).
 * SPLIT when rows of SPMV_CSR_LONG entries or more hold at least 1/SPMV_CSR_LONG_SHARE of the
 * entries, else PLAIN. Measured with SPLIT's loops aligned (csr__rows_split; 2026-11-24, EPYC
 * VM, 2 threads, both kinds side by side on the 78 real matrices, medians of 201): SPLIT/PLAIN
 * 0.89-1.0x (median 0.95) where long rows hold under half of the entries (vsp_befref 1.09,
 * G38, cage11 the exceptions), 1.2-1.75x from 0.65 (lp_e226, lp_ship04l, mhd4800a, polblogs,
 * bcsstk*, Groebner, mbeacxc, ...): the row-length test costs a little on every row.
 * Also PLAIN when more than 1/SPMV_CSR_FLIPS of neighbouring rows fall on different sides of
 * SPMV_CSR_LONG and x is over SPMV_CSR_FLIPS_X bytes: there the mispredicted choice costs
 * more than the accumulators save (cit-HepPh, 276 KB of x, 30% flips: SPLIT 0.90x PLAIN;
 * astro-ph 1.03x; ego-Twitter 1.08x; polblogs, 12 KB, 46% flips: 1.48x). */
#ifndef SPMV_CSR_LONG
#define SPMV_CSR_LONG 16
#endif
#ifndef SPMV_CSR_LONG_SHARE
#define SPMV_CSR_LONG_SHARE 2
#endif
#ifndef SPMV_CSR_FLIPS
#define SPMV_CSR_FLIPS 5
#endif
#ifndef SPMV_CSR_FLIPS_X
#define SPMV_CSR_FLIPS_X 65536
#endif
/* the row sum, and the split for the current thread count, stored in A (see part_nt) */
static inline void SPMV_NAME(csr__plan)(SPMV_NAME(csr) *A) {
    int n = SPMV_NAME(csr__threads)(A), t;
    int64_t len = (int64_t)A->nrows + A->nnz;
    A->rows_kind = SPMV_CSR_RK_PLAIN;
    if (A->params.dot == SPMV_CSR_DOT_GATHER) A->rows_kind = SPMV_CSR_RK_GATHER;
    else if (A->row_ptr) {
        int64_t lng = 0, flips = 0;
        SPMV_I r;
        int was = 0;
        for (r = 0; r < A->nrows; r++) {
            SPMV_I m = A->row_ptr[r + 1] - A->row_ptr[r];
            if (m >= SPMV_CSR_LONG) lng += m;
            flips += (m >= SPMV_CSR_LONG) != was;
            was = m >= SPMV_CSR_LONG;
        }
        if (lng > 0 && lng * SPMV_CSR_LONG_SHARE >= (int64_t)A->nnz &&
            !(flips * SPMV_CSR_FLIPS > (int64_t)A->nrows && (int64_t)A->ncols * (int64_t)sizeof(SPMV_Y) > SPMV_CSR_FLIPS_X))
            A->rows_kind = SPMV_CSR_RK_SPLIT;
    }
    A->part_nt = 0;
    A->part_rp = NULL;
    if (n < 2 || n > SPMV_CSR_PARTS || !A->row_ptr) return;
    for (t = 0; t <= n; t++)
        A->part[t] = A->params.algo == SPMV_CSR_MERGE
                         ? SPMV_NAME(csr__merge_search)(A->row_ptr, A->nrows, A->nnz, len * t / n)
                         : SPMV_NAME(csr__split)(A->row_ptr, A->nrows, t, n);
    A->part_rp = A->row_ptr;
    A->part_nt = n;
}

SPMV_API void SPMV_NAME(csr_free)(SPMV_NAME(csr) *A) {
    if (!A) return;
    if (!A->borrowed) {
        spmv__free(A->row_ptr);
        spmv__free(A->col_idx);
        spmv__free(A->val);
    }
    memset(A, 0, sizeof *A);
}

/* The coefficient of variation of A's row lengths (standard deviation / mean; 0 for no rows
 * or entries): what the automatic selection's rules and sell's default window read. */
SPMV_API double SPMV_NAME(csr_row_cv)(const SPMV_NAME(csr) *A) {
    const double mean = A->nrows > 0 ? (double)A->nnz / (double)A->nrows : 0;
    double s2 = 0;
    SPMV_I r;
    if (mean <= 0) return 0;
    for (r = 0; r < A->nrows; r++) {
        const double d = (double)(A->row_ptr[r + 1] - A->row_ptr[r]) - mean;
        s2 += d * d;
    }
    return sqrt(s2 / (double)A->nrows) / mean;
}

/* The one CSR validator, run by every converter from CSR and every device upload:
 * SPMV_ERR_ARG for a NULL or negative anything, missing arrays, row_ptr[0] != 0, a
 * decreasing row_ptr, row_ptr[nrows] != nnz or a column outside [0, ncols);
 * SPMV_ERR_OVERFLOW when nrows or ncols leave no room for the +1 the layouts need.
 * O(nrows + nnz); columns need not be sorted within a row. */
SPMV_API spmv_status SPMV_NAME(csr_check)(const SPMV_NAME(csr) *A) {
    SPMV_I r, k;
    if (!A || A->nrows < 0 || A->ncols < 0 || A->nnz < 0) return SPMV_ERR_ARG;
    if ((int64_t)A->nrows >= SPMV_IMAX || (int64_t)A->ncols >= SPMV_IMAX) return SPMV_ERR_OVERFLOW;
    if (!A->row_ptr || (A->nnz > 0 && (!A->col_idx || !A->val))) return SPMV_ERR_ARG;
    if (A->row_ptr[0] != 0 || A->row_ptr[A->nrows] != A->nnz) return SPMV_ERR_ARG;
    {
        /* by all threads past 1M entries: every conversion starts here, and dblp-2010's
           serial scan cost more than half a product (EPYC VM) */
        int bad = 0;
SPMV_OMP(parallel for schedule(static) reduction(| : bad) if ((int64_t)A->nrows >= ((int64_t)1 << 20)))
        for (r = 0; r < A->nrows; r++) bad |= A->row_ptr[r + 1] < A->row_ptr[r];
        if (bad) return SPMV_ERR_ARG;
        /* one unsigned compare per entry (a negative index wraps above ncols): vectorised, and
           the automatic selection's cheapest path (CSR uninspected) is mostly this loop */
SPMV_OMP(parallel for schedule(static) reduction(| : bad) if ((int64_t)A->nnz >= ((int64_t)1 << 20)))
        for (k = 0; k < A->nnz; k++) bad |= (uint64_t)(int64_t)A->col_idx[k] >= (uint64_t)(int64_t)A->ncols;
        if (bad) return SPMV_ERR_ARG;
    }
    return SPMV_OK;
}

/* Zero-copy CSR over the caller's arrays (row_ptr[nrows+1], col_idx/val[row_ptr[nrows]],
 * 0-based), validated by csr_check; nothing is copied and _free does not free them (they
 * must outlive A; the library never writes them). Every format converts from it. On
 * error *A is zeroed: SPMV_ERR_OVERFLOW when nrows/ncols do not fit the index type,
 * SPMV_ERR_ARG for negative sizes or malformed arrays. */
/* (the checks of csr_wrap, with e's message) */
static inline spmv_status SPMV_NAME(csr__wrap)(SPMV_NAME(csr) *A, int64_t nrows, int64_t ncols, const SPMV_I *row_ptr,
                                               const SPMV_I *col_idx, const SPMV_T *val, const spmv_csr_params *p,
                                               const char **why) {
    spmv_csr_params prm = p ? *p : spmv_csr_params_default();
    spmv_status st;
    if (!A) return *why = "no CSR object", SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if (nrows < 0 || ncols < 0) return *why = "negative sizes", SPMV_ERR_ARG;
    if (!row_ptr) return *why = "row_ptr is NULL", SPMV_ERR_ARG;
    if (nrows >= SPMV_IMAX || ncols >= SPMV_IMAX) return *why = "sizes beyond the index type", SPMV_ERR_OVERFLOW;
    if (prm.algo != SPMV_CSR_ROWS && prm.algo != SPMV_CSR_MERGE) prm.algo = SPMV_CSR_ROWS;
    st = SPMV_ISA_FOR(prm.algo == SPMV_CSR_MERGE ? SPMV_FMT_CSR_MERGE : SPMV_FMT_CSR, prm.isa, &prm.isa);
    if (st != SPMV_OK) return *why = "params.isa", st;
    A->nrows = (SPMV_I)nrows;
    A->ncols = (SPMV_I)ncols;
    A->nnz = row_ptr[nrows];
    A->row_ptr = (SPMV_I *)row_ptr; /* borrowed, never written */
    A->col_idx = (SPMV_I *)col_idx;
    A->val = (SPMV_T *)val;
    A->params = prm;
    A->borrowed = 1;
    SPMV_NAME(csr__plan)(A);
    st = SPMV_NAME(csr_check)(A);
    if (st != SPMV_OK) {
        memset(A, 0, sizeof *A);
        *why = "row_ptr must start at 0 and not decrease, col_idx lie in [0, ncols), col_idx and val be "
               "non-NULL when there are entries";
    }
    return st;
}
SPMV_API spmv_status SPMV_NAME(csr_wrap)(SPMV_NAME(csr) *A, int64_t nrows, int64_t ncols, const SPMV_I *row_ptr,
                                         const SPMV_I *col_idx, const SPMV_T *val, const spmv_csr_params *p,
                                         spmv_error *e) {
    const char *why = NULL;
    const spmv_status st = SPMV_NAME(csr__wrap)(A, nrows, ncols, row_ptr, col_idx, val, p, &why);
    return spmv__built(e, st, "csr_wrap", why);
}

/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(csr_stored)(const SPMV_NAME(csr) *A) { return A->nnz; }
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(csr__values)(SPMV_NAME(csr) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->nnz;
    return 1;
}
SPMV_API size_t SPMV_NAME(csr_bytes)(const SPMV_NAME(csr) *A) {
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T));
}

/* From COO (any order; sorted and duplicate-free after the COO converters). */
SPMV_API spmv_status SPMV_NAME(csr_from_coo)(SPMV_NAME(csr) *A, const SPMV_NAME(coo) *B,
                                                  const spmv_csr_params *p) {
    spmv_csr_params prm = p ? *p : spmv_csr_params_default();
    SPMV_NAME(coo) S;
    SPMV_I k, sorted = 1;
    spmv_status st;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if (!B || B->nrows < 0 || B->ncols < 0 || B->nnz < 0) return SPMV_ERR_ARG;
    if (prm.algo != SPMV_CSR_ROWS && prm.algo != SPMV_CSR_MERGE) return SPMV_ERR_ARG;
    st = SPMV_ISA_FOR(prm.algo == SPMV_CSR_MERGE ? SPMV_FMT_CSR_MERGE : SPMV_FMT_CSR, prm.isa, &prm.isa);
    if (st != SPMV_OK) return st;
    if (B->nrows >= SPMV_IMAX) return SPMV_ERR_OVERFLOW;
    for (k = 0; k < B->nnz; k++) {
        if (B->row[k] < 0 || B->row[k] >= B->nrows || B->col[k] < 0 || B->col[k] >= B->ncols) return SPMV_ERR_ARG;
        if (k > 0 && (B->row[k] < B->row[k - 1] || (B->row[k] == B->row[k - 1] && B->col[k] <= B->col[k - 1])))
            sorted = 0;
    }
    /* S: a sorted, duplicate-free view of B (B itself when it already is) */
    S = *B;
    if (!sorted) {
        S.row = SPMV_ALLOC_N(SPMV_I, B->nnz);
        S.col = SPMV_ALLOC_N(SPMV_I, B->nnz);
        S.val = SPMV_ALLOC_N(SPMV_T, B->nnz);
        if (!S.row || !S.col || !S.val) {
            SPMV_NAME(coo_free)(&S);
            return SPMV_ERR_ALLOC;
        }
        memcpy(S.row, B->row, (size_t)B->nnz * sizeof(SPMV_I));
        memcpy(S.col, B->col, (size_t)B->nnz * sizeof(SPMV_I));
        memcpy(S.val, B->val, (size_t)B->nnz * sizeof(SPMV_T));
        st = SPMV_NAME(coo__sort_merge)(&S, NULL);
        if (st != SPMV_OK) {
            SPMV_NAME(coo_free)(&S);
            return st;
        }
    }
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)S.nrows + 1);
    A->col_idx = SPMV_ALLOC_N(SPMV_I, S.nnz);
    A->val = SPMV_ALLOC_N(SPMV_T, S.nnz);
    if (!A->row_ptr || !A->col_idx || !A->val) {
        SPMV_NAME(csr_free)(A);
        if (!sorted) SPMV_NAME(coo_free)(&S);
        return SPMV_ERR_ALLOC;
    }
    memset(A->row_ptr, 0, ((size_t)S.nrows + 1) * sizeof(SPMV_I));
    for (k = 0; k < S.nnz; k++) A->row_ptr[S.row[k] + 1]++;
    for (k = 0; k < S.nrows; k++) A->row_ptr[k + 1] += A->row_ptr[k];
    memcpy(A->col_idx, S.col, (size_t)S.nnz * sizeof(SPMV_I));
    memcpy(A->val, S.val, (size_t)S.nnz * sizeof(SPMV_T));
    A->nrows = S.nrows;
    A->ncols = S.ncols;
    A->nnz = S.nnz;
    A->params = prm;
    A->cols_sorted = 1;
    SPMV_NAME(csr__plan)(A);
    if (!sorted) SPMV_NAME(coo_free)(&S);
    return SPMV_OK;
}

SPMV_API spmv_status SPMV_NAME(csr_from_triplets)(SPMV_NAME(csr) *A, const spmv_triplets *t,
                                                  const spmv_csr_params *p, spmv_error *e) {
    SPMV_NAME(coo) B;
    spmv_coo_params cp = spmv_coo_params_default();
    spmv_status st;
    if (!A) return spmv__built(e, SPMV_ERR_ARG, "csr_from_triplets", "no CSR object");
    memset(A, 0, sizeof *A);
    if (p) cp.isa = p->isa;
    st = SPMV_NAME(coo_from_triplets)(&B, t, &cp, e);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(csr_from_coo)(A, &B, p);
    SPMV_NAME(coo_free)(&B);
    return spmv__built(e, st, "csr_from_triplets", st == SPMV_ERR_ARG ? "params" : NULL);
}

/* CSR -> CSR with params p: a validated copy that owns its arrays (columns kept in the
 * source's order). The host runs the device-only kernels (scalar, vector, auto) as rows. */
static inline spmv_status SPMV_NAME(csr__build)(SPMV_NAME(csr) *A, const SPMV_NAME(csr) *B,
                                                  const spmv_csr_params *p) {
    spmv_csr_params prm = p ? *p : spmv_csr_params_default();
    spmv_status st;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if ((int)prm.algo < 0 || (int)prm.algo > (int)SPMV_CSR_SPLIT) return SPMV_ERR_ARG;
    if (prm.algo != SPMV_CSR_MERGE) prm.algo = SPMV_CSR_ROWS;
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_ISA_FOR(prm.algo == SPMV_CSR_MERGE ? SPMV_FMT_CSR_MERGE : SPMV_FMT_CSR, prm.isa, &prm.isa);
    if (st != SPMV_OK) return st;
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows + 1);
    A->col_idx = SPMV_ALLOC_N(SPMV_I, B->nnz);
    A->val = SPMV_ALLOC_N(SPMV_T, B->nnz);
    if (!A->row_ptr || !A->col_idx || !A->val) {
        SPMV_NAME(csr_free)(A);
        return SPMV_ERR_ALLOC;
    }
    spmv__par_copy(A->row_ptr, B->row_ptr, ((size_t)B->nrows + 1) * sizeof(SPMV_I));
    spmv__par_copy(A->col_idx, B->col_idx, (size_t)B->nnz * sizeof(SPMV_I));
    spmv__par_copy(A->val, B->val, (size_t)B->nnz * sizeof(SPMV_T));
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->params = prm;
    A->cols_sorted = B->cols_sorted;
    SPMV_NAME(csr__plan)(A);
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(csr_from_csr)(SPMV_NAME(csr) *A, const SPMV_NAME(csr) *B, const spmv_csr_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(csr__build)(A, B, p), "csr_from_csr", NULL);
}
SPMV_API spmv_status SPMV_NAME(csr_to_csr)(const SPMV_NAME(csr) *A, SPMV_NAME(csr) *B) {
    spmv_csr_params p;
    if (!A) {
        if (B) memset(B, 0, sizeof *B);
        return SPMV_ERR_ARG;
    }
    p = A->params;
    return SPMV_NAME(csr_from_csr)(B, A, &p, NULL);
}
SPMV_API spmv_status SPMV_NAME(csr_merge_from_csr)(SPMV_NAME(csr) *A, const SPMV_NAME(csr) *B,
        const spmv_csr_params *p, spmv_error *e) {
    spmv_csr_params q = p ? *p : spmv_csr_merge_params_default();
    return spmv__built(e, SPMV_NAME(csr__build)(A, B, &q), "csr_merge_from_csr", NULL);
}

#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
#ifndef SPMV_CSR_SHORT
#define SPMV_CSR_SHORT 32
#endif
#ifndef SPMV_CSR_TINY
#define SPMV_CSR_TINY 8
#endif
/* Keeps GCC from vectorising a scalar sum (with -ffast-math it would use gathers, the thing
 * SPMV_CSR_DOT_SCALAR avoids): an empty asm that claims to change the accumulator. */
#undef SPMV__CSR_NOVEC
#if defined(__GNUC__) && defined(__x86_64__) && SPMV__COMPLEX /* each part in a register */
#define SPMV__CSR_NOVEC(s) __asm__("" : "+x"(__real__(s)), "+x"(__imag__(s)))
#elif defined(__GNUC__) && defined(__x86_64__)
#define SPMV__CSR_NOVEC(s) __asm__("" : "+x"(s))
#else
#define SPMV__CSR_NOVEC(s) ((void)0)
#endif
/* s += a*b, fused where the ISA has FMA (one instruction: the plain loop's shape when it is
 * built with -march=native, which contracts a*b + s; ISO C modes do not) */
#undef SPMV__CSR_MAC
#undef SPMV__CSR_MACY
#undef SPMV__CSR_FMA
/* SPMV__CSR_MACY(s, a, b): a already the vectors' type; SPMV__CSR_MAC: a stored value */
#if SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) >= 2 && !(SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 3 && defined(SPMV_EMULATE_AVX512))
#define SPMV__CSR_FMA 1
#else
#define SPMV__CSR_FMA 0
#endif
#if SPMV__COMPLEX && SPMV__CSR_FMA /* the textbook complex product, fused: four FMAs */
#define SPMV__CSR_FMA1_spmv_cdouble __builtin_fma
#define SPMV__CSR_FMA1_spmv_cfloat __builtin_fmaf
#define SPMV__CSR_FMA1 SPMV_CAT(SPMV__CSR_FMA1_, SPMV_VAL)
#define SPMV__CSR_MACY(s, a, b)                                                                                 \
    do {                                                                                                        \
        const SPMV_Y a_ = (a), b_ = (b);                                                                        \
        __real__(s) = SPMV__CSR_FMA1(__real__ a_, __real__ b_, SPMV__CSR_FMA1(-__imag__ a_, __imag__ b_, __real__(s))); \
        __imag__(s) = SPMV__CSR_FMA1(__real__ a_, __imag__ b_, SPMV__CSR_FMA1(__imag__ a_, __real__ b_, __imag__(s)));  \
    } while (0)
#elif SPMV__CSR_FMA
#if SPMV_CAT(SPMV__VSZ_, SPMV_Y) == 8 /* the sums' type (double for a float matrix with double vectors) */
#define SPMV__CSR_MACY(s, a, b) ((s) = __builtin_fma((a), (b), (s)))
#else
#define SPMV__CSR_MACY(s, a, b) ((s) = __builtin_fmaf((a), (b), (s)))
#endif
#elif SPMV__COMPLEX /* the textbook complex product, as the vector sets' (simd_generic.h) */
#define SPMV__CSR_MACY(s, a, b)                                                                                 \
    do {                                                                                                        \
        const SPMV_Y a_ = (a), b_ = (b);                                                                        \
        __real__(s) += __real__ a_ * __real__ b_ - __imag__ a_ * __imag__ b_;                                   \
        __imag__(s) += __real__ a_ * __imag__ b_ + __imag__ a_ * __real__ b_;                                   \
    } while (0)
#else
#define SPMV__CSR_MACY(s, a, b) ((s) += (a) * (b))
#endif
#define SPMV__CSR_MAC(s, a, b) SPMV__CSR_MACY(s, V_tv(a), b)
#if SPMV__COMPLEX && SPMV_CXW
/* n >= SPMV_CXW entries of a complex row in the complex lanes (formats/simd/simd_complex.h): two
 * FMAs an entry where the scalar product takes four and a subtraction; two accumulator pairs
 * while 2*SPMV_CXW entries remain (the FMAs' latency), the last n % SPMV_CXW entries scalar.
 * Always inlined: csr__rows_split's own optimize attribute (SPMV__PINNED_LOOPS) differs from the
 * options a complex tag's functions carry (formats/instance.h), which keeps GCC from inlining a
 * plain inline function there. */
SPMV_KTARGET static SPMV__ALWAYS_INLINE SPMV_Y SPMV_K(csr__dotc)(const SPMV_T *SPMV_RESTRICT val, const SPMV_I *SPMV_RESTRICT col,
                                                    const SPMV_Y *SPMV_RESTRICT x, SPMV_I n) {
    const SPMV_CXR *a = (const SPMV_CXR *)(const void *)val, *xr = (const SPMV_CXR *)(const void *)x;
    spmv_cv r0 = C_zero(), j0 = C_zero(), r1 = C_zero(), j1 = C_zero();
    SPMV_Y s = 0;
    SPMV_I k = 0;
    for (; k + 2 * SPMV_CXW <= n; k += 2 * SPMV_CXW) {
        C_mac(&r0, &j0, a + 2 * k, C_gather(xr, col + k));
        C_mac(&r1, &j1, a + 2 * (k + SPMV_CXW), C_gather(xr, col + k + SPMV_CXW));
    }
    if (k + SPMV_CXW <= n) {
        C_mac(&r0, &j0, a + 2 * k, C_gather(xr, col + k));
        k += SPMV_CXW;
    }
    for (; k < n; k++) SPMV__CSR_MAC(s, val[k], x[col[k]]);
    return C_fold(C_add(r0, r1), C_add(j0, j1)) + s;
}
#endif
/* Entries [k, e) of val/col: one accumulator (the plain loop's shape), or (SPLIT, rows of
 * SPMV_CSR_LONG or more) four first, scalar loads of x either way. Indices, not pointers
 * offset per row: GCC then emits the plain loop's ~15 instructions a row where the pointer
 * form took ~22 (callgrind, bcsstm39, one entry a row: 1.47x the instructions, 0.7x the speed). */
SPMV_KTARGET static SPMV__ALWAYS_INLINE SPMV_Y SPMV_K(csr__dots)(const SPMV_T *SPMV_RESTRICT val,
                                                             const SPMV_I *SPMV_RESTRICT col,
                                                             const SPMV_Y *SPMV_RESTRICT x, SPMV_I k, SPMV_I e,
                                                             int split) {
    SPMV_Y s0 = 0;
#if SPMV__COMPLEX && SPMV_CXW
    if (e - k >= SPMV_CXW) return SPMV_K(csr__dotc)(val + k, col + k, x, e - k);
#endif
    if (split && e - k >= SPMV_CSR_LONG) {
        SPMV_Y s1 = 0, s2 = 0, s3 = 0;
        for (; k + 4 <= e; k += 4) {
            SPMV__CSR_MAC(s0, val[k], x[col[k]]);
            SPMV__CSR_MAC(s1, val[k + 1], x[col[k + 1]]);
            SPMV__CSR_MAC(s2, val[k + 2], x[col[k + 2]]);
            SPMV__CSR_MAC(s3, val[k + 3], x[col[k + 3]]);
            SPMV__CSR_NOVEC(s0);
            SPMV__CSR_NOVEC(s1);
            SPMV__CSR_NOVEC(s2);
            SPMV__CSR_NOVEC(s3);
        }
        s0 = (s0 + s1) + (s2 + s3);
    }
    for (; k < e; k++) {
        SPMV__CSR_MAC(s0, val[k], x[col[k]]);
        SPMV__CSR_NOVEC(s0);
    }
    return s0;
}
/* SPMV_CSR_RK_GATHER: rows below SPMV_CSR_TINY one accumulator; below SPMV_CSR_SHORT scalar,
 * two accumulators (a gather of mostly-masked lanes costs more than it saves); longer rows
 * vector, two accumulators to hide the FMA latency and one masked step for the remainder. */
SPMV_KTARGET static inline SPMV_Y SPMV_K(csr__dotg)(const SPMV_T *SPMV_RESTRICT val, const SPMV_I *SPMV_RESTRICT col,
                                                    const SPMV_Y *SPMV_RESTRICT x, SPMV_I n) {
    spmv_v a0, a1;
    SPMV_I k = 0;
    if (n < SPMV_CSR_TINY) return SPMV_K(csr__dots)(val, col, x, 0, n, 0);
    if (n < SPMV_CSR_SHORT) {
        SPMV_Y s0 = 0, s1 = 0;
        for (; k + 1 < n; k += 2) {
            s0 += V_tv(val[k]) * x[col[k]];
            s1 += V_tv(val[k + 1]) * x[col[k + 1]];
        }
        if (k < n) s0 += V_tv(val[k]) * x[col[k]];
        return s0 + s1;
    }
    a0 = V_zero();
    a1 = V_zero();
    for (; k + 2 * SPMV_W <= n; k += 2 * SPMV_W) {
        a0 = V_fma(V_loadt(val + k), V_gather(x, col + k), a0);
        a1 = V_fma(V_loadt(val + k + SPMV_W), V_gather(x, col + k + SPMV_W), a1);
    }
    if (k + SPMV_W <= n) {
        a0 = V_fma(V_loadt(val + k), V_gather(x, col + k), a0);
        k += SPMV_W;
    }
    if (k < n) {
        unsigned m = V_mask_first((int)(n - k));
        a1 = V_fma(V_mloadt(m, val + k), V_mgather(m, x, col + k), a1);
    }
    return V_hsum(V_add(a0, a1));
}
/* alpha*s + beta*y as written, two products and one sum, whatever -ffp-contract says: GNU C's
 * default (fast) fuses a product into the sum, one way in one function and another way in the
 * next, and csrdu's rows (formats/csrdu.h) would lose csr's bits (with -std=gnu11 they did; ISO
 * modes do not contract) */
SPMV_KTARGET static SPMV__ALWAYS_INLINE SPMV_Y SPMV_K(csr__axpby)(SPMV_Y alpha, SPMV_Y s, SPMV_Y beta, SPMV_Y y) {
    SPMV_Y p = alpha * s, q = beta * y;
    SPMV__CSR_NOVEC(p);
    SPMV__CSR_NOVEC(q);
    return p + q;
}
/* entries [k, e) with the row sum of kind `rk` (a constant at every call site, so each kind
 * compiles apart) */
SPMV_KTARGET static SPMV__ALWAYS_INLINE SPMV_Y SPMV_K(csr__dot)(const SPMV_T *SPMV_RESTRICT val,
                                                            const SPMV_I *SPMV_RESTRICT col,
                                                            const SPMV_Y *SPMV_RESTRICT x, SPMV_I k, SPMV_I e, int rk) {
    if (rk == SPMV_CSR_RK_GATHER) return SPMV_K(csr__dotg)(val + k, col + k, x, e - k);
    return SPMV_K(csr__dots)(val, col, x, k, e, rk == SPMV_CSR_RK_SPLIT);
}

/* rows [r0, r1): y[r] = alpha*dot + beta*y[r]. Its own function with restrict locals, so that
 * inside an OpenMP region y and the arrays stay in registers (the outlined region reloaded
 * y from its shared-variable block after every store). */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(csr__rows_rk)(const SPMV_I *SPMV_RESTRICT rp,
                                                              const SPMV_I *SPMV_RESTRICT ci,
                                                              const SPMV_T *SPMV_RESTRICT val,
                                                              const SPMV_Y *SPMV_RESTRICT x, SPMV_Y *SPMV_RESTRICT y,
                                                              SPMV_I r0, SPMV_I r1, SPMV_Y alpha, SPMV_Y beta, int rk) {
    SPMV_I r;
    if (beta == (SPMV_Y)0 && alpha == (SPMV_Y)1) {
        for (r = r0; r < r1; r++) y[r] = SPMV_K(csr__dot)(val, ci, x, rp[r], rp[r + 1], rk);
    } else if (beta == (SPMV_Y)0) {
        for (r = r0; r < r1; r++) y[r] = alpha * SPMV_K(csr__dot)(val, ci, x, rp[r], rp[r + 1], rk);
    } else {
        for (r = r0; r < r1; r++)
            y[r] = SPMV_K(csr__axpby)(alpha, SPMV_K(csr__dot)(val, ci, x, rp[r], rp[r + 1], rk), beta, y[r]);
    }
}
/* SPLIT's and GATHER's short-row loops come after their long-row code and straddled a 64-byte
 * line unless aligned: SPLIT then ran short rows at 0.63-0.74x PLAIN's speed (fv2, crack,
 * hep-th_metis, lp_dfl001; EPYC VM, 2026-11-24), 0.93-1.0x aligned. PLAIN's loop lies in one
 * line without padding (which would run once per row: 0.81-1.0x), inline in csr__rows_part.
 * The dispatch below is part of that layout: folding the two wrappers into one function behind
 * `rk != PLAIN` moved PLAIN's loop to straddle a line (GCC 12, objdump); check it if this
 * function changes. */
SPMV_KTARGET static SPMV__PINNED_LOOPS void SPMV_K(csr__rows_split)(const SPMV_I *rp, const SPMV_I *ci,
                                                               const SPMV_T *val, const SPMV_Y *x, SPMV_Y *y,
                                                               SPMV_I r0, SPMV_I r1, SPMV_Y alpha, SPMV_Y beta) {
    SPMV_K(csr__rows_rk)(rp, ci, val, x, y, r0, r1, alpha, beta, SPMV_CSR_RK_SPLIT);
}
SPMV_KTARGET static SPMV__PINNED_LOOPS void SPMV_K(csr__rows_gather)(const SPMV_I *rp, const SPMV_I *ci,
                                                                const SPMV_T *val, const SPMV_Y *x, SPMV_Y *y,
                                                                SPMV_I r0, SPMV_I r1, SPMV_Y alpha, SPMV_Y beta) {
    SPMV_K(csr__rows_rk)(rp, ci, val, x, y, r0, r1, alpha, beta, SPMV_CSR_RK_GATHER);
}
SPMV_KTARGET static SPMV__PINNED void SPMV_K(csr__rows_part)(const SPMV_I *rp, const SPMV_I *ci, const SPMV_T *val,
                                                        const SPMV_Y *x, SPMV_Y *y, SPMV_I r0, SPMV_I r1, SPMV_Y alpha,
                                                        SPMV_Y beta, int rk) {
    if (rk == SPMV_CSR_RK_SPLIT) SPMV_K(csr__rows_split)(rp, ci, val, x, y, r0, r1, alpha, beta);
    else if (rk == SPMV_CSR_RK_GATHER) SPMV_K(csr__rows_gather)(rp, ci, val, x, y, r0, r1, alpha, beta);
    else SPMV_K(csr__rows_rk)(rp, ci, val, x, y, r0, r1, alpha, beta, SPMV_CSR_RK_PLAIN);
}
/* one row's partial sum (merge kernel), of kind rk */
SPMV_KTARGET static inline SPMV_Y SPMV_K(csr__dot_any)(const SPMV_T *val, const SPMV_I *col, const SPMV_Y *x, SPMV_I n,
                                                       int rk) {
    if (rk == SPMV_CSR_RK_GATHER) return SPMV_K(csr__dot)(val, col, x, 0, n, SPMV_CSR_RK_GATHER);
    if (rk == SPMV_CSR_RK_SPLIT) return SPMV_K(csr__dot)(val, col, x, 0, n, SPMV_CSR_RK_SPLIT);
    return SPMV_K(csr__dot)(val, col, x, 0, n, SPMV_CSR_RK_PLAIN);
}

SPMV_KTARGET static inline void SPMV_K(csr_rows)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y) {
    int nt = SPMV_NAME(csr__threads)(A);
    if (nt <= 1) { /* small products: no parallel region (its cost is microseconds here) */
        SPMV_K(csr__rows_part)(A->row_ptr, A->col_idx, A->val, x, y, 0, A->nrows, alpha, beta, A->rows_kind);
        return;
    }
SPMV_OMP(parallel num_threads(nt))
    {
        int t = spmv__tid(), n = spmv__nthr();
        const SPMV_I *rp = A->row_ptr;
        SPMV_I r0, r1;
        if (A->part_nt == n && A->part_rp == rp) {
            r0 = A->part[t];
            r1 = A->part[t + 1];
        } else {
            r0 = SPMV_NAME(csr__split)(rp, A->nrows, t, n);
            r1 = SPMV_NAME(csr__split)(rp, A->nrows, t + 1, n);
        }
        SPMV_K(csr__rows_part)(rp, A->col_idx, A->val, x, y, r0, r1, alpha, beta, A->rows_kind);
    }
}

SPMV_KTARGET static inline void SPMV_K(csr_merge)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                  SPMV_Y beta, SPMV_Y *y) {
    enum { MAXT = 1024 };
    SPMV_I carry_row[MAXT];
    SPMV_Y carry_val[MAXT];
    int nt = SPMV_NAME(csr__threads)(A), t;
    if (nt <= 1) {
        SPMV_K(csr__rows_part)(A->row_ptr, A->col_idx, A->val, x, y, 0, A->nrows, alpha, beta, A->rows_kind);
        return;
    }
    if (nt > MAXT) nt = MAXT;
SPMV_OMP(parallel num_threads(nt))
    {
        int tid = spmv__tid(), n = spmv__nthr();
        const SPMV_I *rp = A->row_ptr;
        int64_t len = (int64_t)A->nrows + A->nnz;
        int64_t d0 = len * tid / n, d1 = len * (tid + 1) / n;
        int have = A->part_nt == n && A->part_rp == rp;
        SPMV_I i0 = have ? A->part[tid] : SPMV_NAME(csr__merge_search)(rp, A->nrows, A->nnz, d0);
        SPMV_I i1 = have ? A->part[tid + 1] : SPMV_NAME(csr__merge_search)(rp, A->nrows, A->nnz, d1);
        SPMV_I k = (SPMV_I)(d0 - i0), kend = (SPMV_I)(d1 - i1);
        /* rows whose end lies in this part: the first may have started in an earlier part */
        if (i0 < i1) {
            SPMV_Y s = SPMV_K(csr__dot_any)(A->val + k, A->col_idx + k, x, rp[i0 + 1] - k, A->rows_kind);
            y[i0] = beta == (SPMV_Y)0 ? alpha * s : alpha * s + beta * y[i0];
            SPMV_K(csr__rows_part)(rp, A->col_idx, A->val, x, y, i0 + 1, i1, alpha, beta, A->rows_kind);
            k = rp[i1];
        }
        /* the unfinished row i1 (if any) gets entries [k, kend) from this part */
        carry_row[tid] = i1;
        carry_val[tid] = i1 < A->nrows ? SPMV_K(csr__dot_any)(A->val + k, A->col_idx + k, x, kend - k, A->rows_kind) : (SPMV_Y)0;
SPMV_OMP(single)
        nt = n;
    }
    for (t = 0; t < nt; t++)
        if (carry_row[t] < A->nrows) y[carry_row[t]] += alpha * carry_val[t];
}
/* SPMV__CSR_MAC stays defined for this backend: csrdu (formats/csrdu.h) sums its rows with it,
 * bit for bit as csr */
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y with the kernel in A->params.algo. beta == 0: y not read. */
SPMV_API spmv_status SPMV_NAME(csr_mv)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    if (A->params.algo == SPMV_CSR_MERGE) SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(csr_merge), (A, alpha, x, beta, y));
    else SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(csr_rows), (A, alpha, x, beta, y));
    return st;
}

/* The tuners' vectors for A: x (a fixed pattern of values near 1) and y, both or neither. */
static inline spmv_status SPMV_NAME(tune__xy)(const SPMV_NAME(csr) *A, SPMV_Y **x, SPMV_Y **y) {
    SPMV_I i;
    *x = SPMV_ALLOC_N(SPMV_Y, A->ncols);
    *y = SPMV_ALLOC_N(SPMV_Y, A->nrows);
    if (!*x || !*y) {
        spmv__free(*x);
        spmv__free(*y);
        *x = *y = NULL;
        return SPMV_ERR_ALLOC;
    }
    for (i = 0; i < A->ncols; i++) (*x)[i] = (SPMV_Y)1 + (SPMV_Y)(i % 7) * (SPMV_Y)0.125;
    return SPMV_OK;
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_CSR_RULES)
#define SPMV_CSR_RULES
/* What the selection knows about the csr rows (formats/core/rules.h). csr is the baseline
 * (formats/auto.h). csr_merge balances skewed rows by merge path; on SpMM it runs csr's
 * kernel; it holds CSR's copy when it loses (its arrays are CSR's). csr_scalar and
 * csr_vector are the device csr row's two kernels, which it already picks by row length. */
static inline double spmv_csr__rule_baseline(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)F, (void)o;
    return *why = "the baseline", 1.0;
}
static inline double spmv_csr_merge__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    if (o->mm_k > 1) return *why = "SpMM: the same kernel as csr", 0.0;
    if (!spmv_rule_skewed(F)) return *why = "rows balanced: nothing to merge", 0.0;
    return *why = "skewed rows: merge-path balancing", 1.1;
}
static inline double spmv_csr_merge__rule_dev(const spmv_auto_features *F, const char **why) {
    return *why = "the csr row already runs the merge path on skewed rows", spmv_rule_skewed(F) ? 1.0 : 0.56;
}
static inline int spmv_csr_merge__donor(const spmv_auto_features *F) { return (void)F, 1; }
static inline double spmv_csr_kernels__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)F, (void)o;
    return *why = "the device csr row already picks between these by row length", 0.0;
}
static inline double spmv_csr_kernels__rule_dev(const spmv_auto_features *F, const char **why) {
    (void)F;
    return *why = "the csr row already picks its kernel by row length", 0.0;
}
static const spmv_format_rules spmv_rules_csr = {5, 5, spmv_csr__rule_baseline, NULL, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_csr_merge = {6, 5, spmv_csr_merge__rule_host, spmv_csr_merge__rule_dev,
                                                       NULL, NULL, spmv_csr_merge__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_csr_scalar = {5, 5, spmv_csr_kernels__rule_host, spmv_csr_kernels__rule_dev,
                                                        NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_csr_vector = {5, 5, spmv_csr_kernels__rule_host, spmv_csr_kernels__rule_dev,
                                                        NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */

/* the transpose product, the transpose and SpMM: the same three parts */
#include "csr_ops.h"
