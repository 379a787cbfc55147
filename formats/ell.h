/* ELL family — ELLPACK and its relatives (the GPGPU survey, seeds/001; NOTES.md "Classic
 * formats"): registry rows ell, ellr, hll, sell, jad, hyb. One layout, sliced ELL:
 *   stored rows are cut into nslices slices of C consecutive rows; slice s holds
 *   h_s = min(C, nrows - s*C) rows, is as wide as its longest row (width_s), and is
 *   column-major: entry j of the slice's local row i is at
 *       slice_ptr[s] + j*h_s + i        (j < width_s, i < h_s)
 *   so width_s = (slice_ptr[s+1] - slice_ptr[s]) / h_s. Padding (j >= the row's length): the
 *   row's last column (column 0 for an empty row) with value 0, so every gather is valid.
 *   rowlen[i]: entries of stored row i (every variant keeps it: _to_csr needs it to tell
 *   padding from explicit zeros; only ellr's kernels read it).
 *   perm[i]: the original row of stored row i (sell with sigma > 1, jad; NULL = identity).
 * The rows:
 *   ell   C = nrows, one slice: val[j*nrows + i], width = the longest row.
 *   ellr  ELLPACK-R: ell + the kernels stop at each row's length (per vector of rows on the
 *         CPU: the longest of its W rows; per thread on the GPU).
 *   hll   hacked ELL: C = hs rows per hack (default: the backend's vector width on the CPU,
 *         the warp on the GPU), no reordering.
 *   sell  SELL-C-sigma: C = c, rows sorted by length (descending, stable) inside windows of
 *         sigma rows (default 32*C, 256*C on long skewed rows: mean >= 10, cv >= 1; sigma = 1:
 *         no sorting, exactly hll's layout); y is
 *         written through perm (no extra pass over y). With t > 1 (the GPU's threads per row)
 *         each slice's width is padded to a multiple of t (SELL-P), so the t threads of a row
 *         run the same number of steps.
 *   jad   jagged diagonals (JDS): all rows sorted by length (descending, stable; a counting
 *         sort), one slice with no padding: jagged diagonal j holds entry j of every stored
 *         row longer than j, contiguously from jd[j] (jd[0] = 0, jd[width] = nnz); entry j of
 *         stored row i is at jd[j] + i. rcum[k] = entries of stored rows [0, 64k), the
 *         threads' split (the rows are sorted, so equal row ranges would not balance).
 *   hyb   ELL + COO (Bell and Garland): the first K entries of each row in ell's one slice
 *         (rowlen = min(length, K)), the rest in a COO tail sorted by row (trow, tcol, tval,
 *         ntail entries). K: the largest k such that at least a third of the rows have >= k
 *         entries (the survey's rule), or the k parameter.
 * Footprint: (nslices+1)*I + padded*(I+T) + nrows*I [+ nrows*I perm]
 *   [+ (width+1)*I jd + (nrows/64+2)*I rcum] [+ ntail*(2I+T) tail], padded = sum h_s*width_s
 *   (jad: nnz; hyb: nrows*K).
 * Limit: the conversion returns SPMV_ERR_LIMIT, before allocating anything, when padded
 * exceeds params.fill * nnz + 4096 entries (fill default 10: past that the format moves ten
 * times CSR's bytes and is the wrong choice; the survey could not store StocF-1465 in ELL at
 * all), the index type, or half of the physical memory. jad never pads; hyb's rule keeps
 * padded <= 3*nnz (an explicit k can pass the cap).
 * CPU kernel (written once against the SIMD vocabulary): vectors of W consecutive rows of a
 * slice, one V_loadu of W values + one gather of x per column j, no horizontal sums; y
 * stored W rows at a time (scattered through perm for sell and jad). Every variant stops
 * each vector at its longest row and masks the lanes past their own row's end (rowlen):
 * padding a kernel does not need is bandwidth for nothing, and multiplying it would turn
 * x = +-Inf into NaN (0*Inf). So on the CPU ell and ellr run the same kernel; on the GPU
 * (thread per row) ell, hll, sell and hyb threads run to the slice width (reading the
 * padding, selecting it away) and ellr threads stop at their row's length, the survey's
 * distinction. hyb: the ELL part, then (after a barrier) the tail, each thread a range of
 * tail entries cut at row boundaries, added to y.
 * OpenMP: one slice (ell, ellr, hyb) is split into equal row ranges, jad into equal shares
 * of entries (rcum); several slices by equal shares of padded entries. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_ELL_COMMON
#define SPMV_ELL_COMMON
#define SPMV_LIMITED_ell 1 /* the family has a documented size cap (tests/format_case.h) */
typedef enum spmv_ell_variant {
    SPMV_ELL_PLAIN = 0,
    SPMV_ELL_R = 1,
    SPMV_ELL_HLL = 2,
    SPMV_ELL_SELL = 3,
    SPMV_ELL_JAD = 4,
    SPMV_ELL_HYB = 5
} spmv_ell_variant;
/* the registry row of a variant (the rows ell..hyb are in the variants' order) */
#define spmv__ell_row(v) ((spmv_format)((int)SPMV_FMT_ELL + ((unsigned)(v) <= (unsigned)SPMV_ELL_HYB ? (int)(v) : 0)))
typedef struct spmv_ell_params {
    spmv_isa isa;   /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int variant;    /* spmv_ell_variant: set by the row's default */
    int c;          /* rows per slice (hll: hs, sell: C); 0: the backend's vector width */
    int sigma;      /* sell: sorting window in rows; 0: 32*c; 1: no sorting */
    int fill;       /* SPMV_ERR_LIMIT above fill*nnz + 4096 padded entries; 0: 10 */
    int k;          /* hyb: ELL width; 0: the survey's rule (a third of the rows reach it) */
    int t;          /* ellr, sell on the GPU: threads per row (ELLR-T; 1..32, a power of two; 0:
                       from the mean row length); sell pads each slice's width to a multiple of
                       it (SELL-P), on the CPU too when set */
} spmv_ell_params;
typedef spmv_ell_params spmv_ellr_params;
typedef spmv_ell_params spmv_hll_params;
typedef spmv_ell_params spmv_sell_params;
typedef spmv_ell_params spmv_jad_params;
typedef spmv_ell_params spmv_hyb_params;
static inline spmv_ell_params spmv__ell_params_of(int variant) {
    spmv_ell_params p;
    p.isa = SPMV_ISA_AUTO;
    p.variant = variant;
    p.c = 0;
    p.sigma = 0;
    p.fill = 0;
    p.k = 0;
    p.t = 0;
    return p;
}
static inline spmv_ell_params spmv_ell_params_default(void) { return spmv__ell_params_of(SPMV_ELL_PLAIN); }
static inline spmv_ell_params spmv_ellr_params_default(void) { return spmv__ell_params_of(SPMV_ELL_R); }
static inline spmv_ell_params spmv_hll_params_default(void) { return spmv__ell_params_of(SPMV_ELL_HLL); }
static inline spmv_ell_params spmv_sell_params_default(void) { return spmv__ell_params_of(SPMV_ELL_SELL); }
static inline spmv_ell_params spmv_jad_params_default(void) { return spmv__ell_params_of(SPMV_ELL_JAD); }
static inline spmv_ell_params spmv_hyb_params_default(void) { return spmv__ell_params_of(SPMV_ELL_HYB); }
#define SPMV__ELL_FILL_KEY                                                                                       \
    {"fill", offsetof(spmv_ell_params, fill), SPMV_PK_INT, 0, 1 << 20, NULL,                                     \
     "refuse (SPMV_ERR_LIMIT) above fill*nnz+4096 padded entries (0: 10)"}
#define SPMV__ELL_T_KEY                                                                                          \
    {"t", offsetof(spmv_ell_params, t), SPMV_PK_INT, 0, 32, NULL,                                                 \
     "GPU threads per row, 1..32, a power of two (0: from the mean row length)"}
static const spmv_param_key spmv__ell_keys[] = {SPMV__ELL_FILL_KEY, {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__ellr_keys[] = {SPMV__ELL_FILL_KEY, SPMV__ELL_T_KEY,
                                                 {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__hll_keys[] = {
    {"hs", offsetof(spmv_ell_params, c), SPMV_PK_INT, 0, 1 << 16, NULL, "rows per hack (0: the vector width)"},
    {"w", offsetof(spmv_ell_params, c), SPMV_PK_POW2, 0, 1 << 16, NULL, "hs as a vector width (a power of two)"},
    SPMV__ELL_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__sell_keys[] = {
    {"c", offsetof(spmv_ell_params, c), SPMV_PK_INT, 0, 1 << 16, NULL, "rows per chunk (0: the vector width)"},
    {"w", offsetof(spmv_ell_params, c), SPMV_PK_POW2, 0, 1 << 16, NULL, "c as a vector width (a power of two)"},
    {"sigma", offsetof(spmv_ell_params, sigma), SPMV_PK_INT, 0, 1 << 30, NULL,
     "sorting window in rows (0: 32*c, or 256*c where the mean row is >= 10 and its cv >= 1; 1: none)"},
    SPMV__ELL_T_KEY,
    SPMV__ELL_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__jad_keys[] = {{NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}}; /* nothing to set */
static const spmv_param_key spmv__hyb_keys[] = {
    {"k", offsetof(spmv_ell_params, k), SPMV_PK_INT, 0, 1 << 30, NULL,
     "ELL width, the rest of each row in COO (0: a third of the rows reach it)"},
    SPMV__ELL_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
#endif

typedef struct SPMV_NAME(ell) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I C, nslices;
    SPMV_I *slice_ptr; /* nslices+1 */
    SPMV_I *col;       /* slice_ptr[nslices] */
    SPMV_T *val;
    SPMV_I *rowlen;    /* nrows, stored order */
    SPMV_I *perm;      /* nrows or NULL */
    SPMV_I *jd, *rcum; /* jad: width+1 diagonal starts, nrows/64+2 entry counts (else NULL) */
    SPMV_I width;      /* jad: the longest row (jd's length - 1) */
    SPMV_I ntail;      /* hyb: the COO tail, sorted by row */
    SPMV_I *trow, *tcol;
    SPMV_T *tval;
    spmv_ell_params params; /* isa, c, sigma, fill, k resolved after conversion */
} SPMV_NAME(ell);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(ell_free)(SPMV_NAME(ell) *A);
SPMV_API int64_t SPMV_NAME(ell_stored)(const SPMV_NAME(ell) *A);
SPMV_API size_t SPMV_NAME(ell_bytes)(const SPMV_NAME(ell) *A);
SPMV_API int SPMV_NAME(ell_limited)(const SPMV_NAME(csr) *B, const spmv_ell_params *p, spmv_isa isa);
SPMV_API spmv_status SPMV_NAME(ell_to_csr)(const SPMV_NAME(ell) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(ell_mv)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(ell_mm)(const SPMV_NAME(ell) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
        SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
SPMV_API spmv_status SPMV_NAME(ellr_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent);
SPMV_API spmv_status SPMV_NAME(hll_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent);
SPMV_API spmv_status SPMV_NAME(sell_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent);
SPMV_API spmv_status SPMV_NAME(hyb_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent);
/* the rows' converters: spmv_<tag>_<row>_from_csr (the variant is the row's) */
#define SPMV__ELL_FROM_DECL(name)                                                                               \
    SPMV_API spmv_status SPMV_NAME(SPMV_CAT(name, _from_csr))(SPMV_NAME(ell) * A, const SPMV_NAME(csr) * B,    \
                                                            const spmv_ell_params *p, spmv_error *e);
SPMV__ELL_FROM_DECL(ell)
SPMV__ELL_FROM_DECL(ellr)
SPMV__ELL_FROM_DECL(hll)
SPMV__ELL_FROM_DECL(sell)
SPMV__ELL_FROM_DECL(jad)
SPMV__ELL_FROM_DECL(hyb)
#undef SPMV__ELL_FROM_DECL
/* the family's builder with the variant in prm (the rows' converters, the device upload) */
SPMV_API spmv_status SPMV_NAME(ell__from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, spmv_ell_params prm);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(ell_free)(SPMV_NAME(ell) *A) {
    if (!A) return;
    spmv__free(A->slice_ptr);
    spmv__free(A->col);
    spmv__free(A->val);
    spmv__free(A->rowlen);
    spmv__free(A->perm);
    spmv__free(A->jd);
    spmv__free(A->rcum);
    spmv__free(A->trow);
    spmv__free(A->tcol);
    spmv__free(A->tval);
    memset(A, 0, sizeof *A);
}

/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(ell_stored)(const SPMV_NAME(ell) *A) {
    return (A->slice_ptr ? (int64_t)A->slice_ptr[A->nslices] : 0) + (int64_t)A->ntail;
}
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(ell__values)(SPMV_NAME(ell) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->slice_ptr ? (int64_t)A->slice_ptr[A->nslices] : 0;
    v[1] = A->tval;
    n[1] = A->ntail;
    return 2;
}
SPMV_API size_t SPMV_NAME(ell_bytes)(const SPMV_NAME(ell) *A) {
    size_t np = A->slice_ptr ? (size_t)A->slice_ptr[A->nslices] : 0;
    return ((size_t)A->nslices + 1) * sizeof(SPMV_I) + np * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           (size_t)A->nrows * sizeof(SPMV_I) * (A->perm ? 2 : 1) +
           (A->jd ? ((size_t)A->width + 1 + (size_t)A->nrows / 64 + 2) * sizeof(SPMV_I) : 0) +
           (size_t)A->ntail * (2 * sizeof(SPMV_I) + sizeof(SPMV_T));
}

static int SPMV_NAME(ell__cmp)(const void *a, const void *b) {
    const SPMV_I *p = (const SPMV_I *)a, *q = (const SPMV_I *)b;
    if (p[0] != q[0]) return p[0] > q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

/* Rows [w0, w1) into perm[w0..w1) by length, longest first, ties by row: a stable counting
 * sort over the lengths lo..hi (cnt: hi - lo + 1 counters). jad sorts all rows with it, sell
 * each window. */
static inline void SPMV_NAME(ell__count_sort)(const SPMV_I *rp, SPMV_I w0, SPMV_I w1, SPMV_I lo, SPMV_I hi,
                                              SPMV_I *cnt, SPMV_I *perm) {
    SPMV_I c, r, at = w0;
    for (c = 0; c <= hi - lo; c++) cnt[c] = 0;
    for (r = w0; r < w1; r++) cnt[hi - (rp[r + 1] - rp[r])]++;
    for (c = 0; c <= hi - lo; c++) { /* rows of length hi - c start after every longer row */
        const SPMV_I k = cnt[c];
        cnt[c] = at;
        at += k;
    }
    for (r = w0; r < w1; r++) perm[cnt[hi - (rp[r + 1] - rp[r])]++] = r;
}

/* jad: the stored order, all rows by length (descending, ties by row). *perm_out NULL when
 * that is the identity. */
static inline spmv_status SPMV_NAME(ell__jad_order)(const SPMV_NAME(csr) *B, SPMV_I **perm_out) {
    const SPMV_I n = B->nrows, *rp = B->row_ptr;
    SPMV_I i, lo, hi, *cnt, *perm;
    *perm_out = NULL;
    if (n < 2) return SPMV_OK;
    lo = hi = rp[1] - rp[0];
    for (i = 1; i < n; i++) {
        lo = rp[i + 1] - rp[i] < lo ? rp[i + 1] - rp[i] : lo;
        hi = rp[i + 1] - rp[i] > hi ? rp[i + 1] - rp[i] : hi;
    }
    cnt = SPMV_ALLOC_N(SPMV_I, (size_t)(hi - lo) + 1);
    perm = SPMV_ALLOC_N(SPMV_I, n);
    if (!cnt || !perm) {
        spmv__free(cnt);
        spmv__free(perm);
        return SPMV_ERR_ALLOC;
    }
    SPMV_NAME(ell__count_sort)(rp, 0, n, lo, hi, cnt, perm);
    spmv__free(cnt);
    for (i = 0; i < n && perm[i] == i; i++) {
    }
    if (i == n) spmv__free(perm);
    else *perm_out = perm;
    return SPMV_OK;
}

/* hyb: the largest k such that at least a third of the rows have >= k entries (0 when
 * none). k <= 3*nnz/nrows, so a histogram capped there is enough. */
static inline spmv_status SPMV_NAME(ell__hyb_k)(const SPMV_NAME(csr) *B, int *k_out) {
    const SPMV_I n = B->nrows, *rp = B->row_ptr;
    int64_t cap, k, ge = 0;
    SPMV_I i, *hist;
    *k_out = 0;
    if (n == 0) return SPMV_OK;
    cap = 3 * (int64_t)B->nnz / n + 1;
    if (cap > (1 << 30)) cap = 1 << 30;
    hist = SPMV_ALLOC_N(SPMV_I, (size_t)cap + 1);
    if (!hist) return SPMV_ERR_ALLOC;
    memset(hist, 0, sizeof(SPMV_I) * ((size_t)cap + 1));
    for (i = 0; i < n; i++) {
        int64_t len = rp[i + 1] - rp[i];
        hist[len < cap ? len : cap]++;
    }
    for (k = cap; k >= 1; k--) {
        ge += hist[k];
        if (3 * ge >= (int64_t)n) break;
    }
    spmv__free(hist);
    *k_out = (int)(k > 0 ? k : 0);
    return SPMV_OK;
}

#ifndef SPMV__ELL_CS
#define SPMV__ELL_CS 256
#endif
/* Resolves p (isa, c, sigma, fill, k) for B and computes the stored order (perm, NULL when
 * the identity or not wanted) and the padded size. SPMV_ERR_LIMIT past the documented caps. */
static inline spmv_status SPMV_NAME(ell__plan)(const SPMV_NAME(csr) *B, spmv_ell_params *p, SPMV_I **perm_out,
                                               uint64_t *padded_out) {
    const SPMV_I n = B->nrows, *rp = B->row_ptr;
    spmv_status st = SPMV_ISA_FOR(spmv__ell_row(p->variant), p->isa, &p->isa);
    SPMV_I *perm = NULL, s, i, C;
    uint64_t padded = 0, cap;
    if (perm_out) *perm_out = NULL;
    if (st != SPMV_OK) return st;
    if (p->variant < SPMV_ELL_PLAIN || p->variant > SPMV_ELL_HYB || p->c < 0 || p->sigma < 0 || p->fill < 0 ||
        p->k < 0 || p->t < 0 || p->t > 32 || (p->t & (p->t - 1)))
        return SPMV_ERR_ARG;
    if (p->variant != SPMV_ELL_R && p->variant != SPMV_ELL_SELL) p->t = 0;
    if (p->variant <= SPMV_ELL_R || p->variant >= SPMV_ELL_JAD) p->c = 0, p->sigma = 1;
    else if (p->c == 0) p->c = (int)SPMV__NATIVE_W(p->isa);
    if (p->variant == SPMV_ELL_HLL) p->sigma = 1;
    if (p->sigma == 0) { /* 32*C; 256*C on long, skewed rows */
        /* mean >= 10 and cv >= 1: a window of 32*C such rows mixes
           lengths, and the slices pad. 256*C was faster on 10 of the 11 real matrices of that
           kind with >= 20k entries (cit-HepPh 1.14x, astro-ph 1.11x, ego-Twitter 1.10x,
           Groebner 1.08x; G38 0.90x at 23k entries), and mixed on short rows (nh2010 0.94x,
           ct2010 1.06x), so those keep 32*C (AMD EPYC VM, 2 threads, 2026-11-23) */
        int64_t mult = 32;
        if (p->variant == SPMV_ELL_SELL && (double)B->nnz >= 10.0 * (double)n && n > 0 &&
            SPMV_NAME(csr_row_cv)(B) >= 1)
            mult = 256;
        p->sigma = (int)(mult * (int64_t)p->c < (1 << 30) ? mult * p->c : 1 << 30);
    }
    if (p->fill == 0) p->fill = 10;
    if (p->variant != SPMV_ELL_HYB) p->k = 0;
    else if (p->k == 0 && (st = SPMV_NAME(ell__hyb_k)(B, &p->k)) != SPMV_OK) return st;
    C = p->c == 0 ? (n > 0 ? n : 1) : (SPMV_I)p->c;
    if (p->variant == SPMV_ELL_JAD) { /* no padding: nothing to cap */
        st = SPMV_NAME(ell__jad_order)(B, perm_out ? perm_out : &perm);
        spmv__free(perm);
        if (padded_out) *padded_out = (uint64_t)B->nnz;
        return st;
    }
    if (p->variant == SPMV_ELL_SELL && p->sigma > 1 && n > 1) { /* rows by length in each window */
        SPMV_I w0, *key = SPMV_ALLOC_N(SPMV_I, 2 * (size_t)n);
        perm = SPMV_ALLOC_N(SPMV_I, n);
        if (!perm || !key) {
            spmv__free(perm);
            spmv__free(key);
            return SPMV_ERR_ALLOC;
        }
        /* (length desc, row asc) in each window: a counting sort where the window's lengths
         * span fewer than SPMV__ELL_CS values (a qsort was 10-20 SpMVs on road graphs) */
SPMV_OMP(parallel for schedule(dynamic, 4) if ((int64_t)n >= 8 * (int64_t)p->sigma && n >= 4096))
        for (w0 = 0; w0 < n; w0 += (SPMV_I)p->sigma) {
            SPMV_I w1 = (int64_t)w0 + p->sigma < (int64_t)n ? w0 + (SPMV_I)p->sigma : n, lo, hi, r;
            SPMV_I cnt[SPMV__ELL_CS + 1];
            lo = hi = rp[w0 + 1] - rp[w0];
            for (r = w0 + 1; r < w1; r++) {
                const SPMV_I len = rp[r + 1] - rp[r];
                lo = len < lo ? len : lo;
                hi = len > hi ? len : hi;
            }
            if ((int64_t)hi - lo < SPMV__ELL_CS) {
                SPMV_NAME(ell__count_sort)(rp, w0, w1, lo, hi, cnt, perm);
            } else {
                for (r = w0; r < w1; r++) key[2 * r] = rp[r + 1] - rp[r], key[2 * r + 1] = r;
                qsort(key + 2 * w0, (size_t)(w1 - w0), 2 * sizeof(SPMV_I), SPMV_NAME(ell__cmp));
                for (r = w0; r < w1; r++) perm[r] = key[2 * r + 1];
            }
        }
        spmv__free(key);
        for (i = 0; i < n && perm[i] == i; i++) {
        }
        if (i == n) { /* already in order: no permutation */
            spmv__free(perm);
            perm = NULL;
        }
    }
    for (s = 0; (int64_t)s * C < n; s++) {
        SPMV_I r0 = s * C, h = n - r0 < C ? n - r0 : C, wmax = 0;
        for (i = r0; i < r0 + h; i++) {
            SPMV_I r = perm ? perm[i] : i, len = rp[r + 1] - rp[r];
            if (p->variant == SPMV_ELL_HYB && len > p->k) len = (SPMV_I)p->k;
            if (len > wmax) wmax = len;
        }
        if (p->variant == SPMV_ELL_SELL && p->t > 1) wmax = (wmax + p->t - 1) / p->t * p->t; /* SELL-P */
        padded += (uint64_t)h * (uint64_t)wmax;
    }
    cap = (uint64_t)p->fill * (uint64_t)B->nnz + 4096u;
    if (padded > cap || padded >= (uint64_t)SPMV_IMAX ||
        padded > spmv__phys_bytes() / 2 / (sizeof(SPMV_I) + sizeof(SPMV_T))) {
        spmv__free(perm);
        return SPMV_ERR_LIMIT;
    }
    if (perm_out) *perm_out = perm;
    else spmv__free(perm);
    if (padded_out) *padded_out = padded;
    return SPMV_OK;
}

/* jad's arrays: rowlen, jd, rcum, col, val (perm and slice_ptr set by the caller) */
static inline void SPMV_NAME(ell__jad_fill)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B) {
    const SPMV_I n = B->nrows;
    SPMV_I i, j, cnt;
    int64_t acc = 0;
    for (i = 0; i < n; i++) {
        const SPMV_I r = A->perm ? A->perm[i] : i;
        A->rowlen[i] = B->row_ptr[r + 1] - B->row_ptr[r];
    }
    A->jd[0] = 0;
    for (j = 0, cnt = n; j < A->width; j++) { /* diagonal j: the stored rows longer than j */
        while (cnt > 0 && A->rowlen[cnt - 1] <= j) cnt--;
        A->jd[j + 1] = A->jd[j] + cnt;
    }
    for (i = 0; i < n; i++) {
        if (i % 64 == 0) A->rcum[i / 64] = (SPMV_I)acc;
        acc += A->rowlen[i];
    }
    A->rcum[(n + 63) / 64] = (SPMV_I)acc;
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (i = 0; i < n; i++) {
        const SPMV_I r = A->perm ? A->perm[i] : i, b = B->row_ptr[r];
        SPMV_I jj;
        for (jj = 0; jj < A->rowlen[i]; jj++) {
            A->col[A->jd[jj] + i] = B->col_idx[b + jj];
            A->val[A->jd[jj] + i] = B->val[b + jj];
        }
    }
}

/* From CSR (columns in CSR order, unsorted allowed). Errors: SPMV_ERR_ARG (malformed CSR, bad
 * parameters), SPMV_ERR_OVERFLOW, SPMV_ERR_ISA, SPMV_ERR_LIMIT (the caps above),
 * SPMV_ERR_ALLOC. On failure *A is left empty. */
SPMV_API spmv_status SPMV_NAME(ell__from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, spmv_ell_params prm) {
    spmv_status st;
    uint64_t padded = 0;
    SPMV_I *perm = NULL, C, ns, s, i, K;
    int64_t ntail = 0;
    const int jad = prm.variant == SPMV_ELL_JAD, hyb = prm.variant == SPMV_ELL_HYB;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(ell__plan)(B, &prm, &perm, &padded);
    if (st != SPMV_OK) return st;
    C = prm.c == 0 ? (B->nrows > 0 ? B->nrows : 1) : (SPMV_I)prm.c;
    ns = B->nrows > 0 ? (SPMV_I)(((int64_t)B->nrows + C - 1) / C) : 0;
    K = hyb ? (SPMV_I)prm.k : 0;
    A->perm = perm;
    A->slice_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)ns + 1);
    A->col = SPMV_ALLOC_N(SPMV_I, (size_t)padded);
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)padded);
    A->rowlen = SPMV_ALLOC_N(SPMV_I, B->nrows);
    if (!A->slice_ptr || !A->col || !A->val || !A->rowlen) goto fail;
    if (jad) {
        for (i = 0; i < B->nrows; i++)
            if (B->row_ptr[i + 1] - B->row_ptr[i] > A->width) A->width = B->row_ptr[i + 1] - B->row_ptr[i];
        A->jd = SPMV_ALLOC_N(SPMV_I, (size_t)A->width + 1);
        A->rcum = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows / 64 + 2);
        if (!A->jd || !A->rcum) goto fail;
    }
    if (hyb) {
        for (i = 0; i < B->nrows; i++) {
            const SPMV_I len = B->row_ptr[i + 1] - B->row_ptr[i];
            if (len > K) ntail += len - K;
        }
        A->ntail = (SPMV_I)ntail;
        A->trow = SPMV_ALLOC_N(SPMV_I, (size_t)ntail);
        A->tcol = SPMV_ALLOC_N(SPMV_I, (size_t)ntail);
        A->tval = SPMV_ALLOC_N(SPMV_T, (size_t)ntail);
        if (!A->trow || !A->tcol || !A->tval) goto fail;
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->C = C;
    A->nslices = ns;
    A->params = prm;
    A->slice_ptr[0] = 0;
    if (jad) {
        if (ns) A->slice_ptr[1] = B->nnz;
        SPMV_NAME(ell__jad_fill)(A, B);
        return SPMV_OK;
    }
    for (s = 0; s < ns; s++) {
        SPMV_I r0 = s * C, h = B->nrows - r0 < C ? B->nrows - r0 : C, wmax = 0;
        for (i = r0; i < r0 + h; i++) {
            SPMV_I r = perm ? perm[i] : i, len = B->row_ptr[r + 1] - B->row_ptr[r];
            if (hyb && len > K) len = K;
            A->rowlen[i] = len;
            if (len > wmax) wmax = len;
        }
        if (prm.variant == SPMV_ELL_SELL && prm.t > 1) wmax = (wmax + prm.t - 1) / prm.t * prm.t; /* SELL-P */
        A->slice_ptr[s + 1] = A->slice_ptr[s] + h * wmax;
    }
SPMV_OMP(parallel for schedule(dynamic, 16) if (padded >= SPMV_PAR_MIN_NNZ))
    for (s = 0; s < ns; s++) {
        const SPMV_I r0 = s * C, h = B->nrows - r0 < C ? B->nrows - r0 : C, off = A->slice_ptr[s];
        const SPMV_I wd = h > 0 ? (A->slice_ptr[s + 1] - off) / h : 0;
        SPMV_I li, j;
        for (li = 0; li < h; li++) {
            const SPMV_I r = perm ? perm[r0 + li] : r0 + li, b = B->row_ptr[r], len = A->rowlen[r0 + li];
            const SPMV_I pad = len > 0 ? B->col_idx[b + len - 1] : 0;
            for (j = 0; j < wd; j++) {
                const SPMV_I q = off + j * h + li;
                A->col[q] = j < len ? B->col_idx[b + j] : pad;
                A->val[q] = j < len ? B->val[b + j] : SPMV_VT(0);
            }
        }
    }
    if (hyb) { /* the entries past K, row by row */
        SPMV_I t = 0, k;
        for (i = 0; i < B->nrows; i++)
            for (k = B->row_ptr[i] + K; k < B->row_ptr[i + 1]; k++) {
                A->trow[t] = i;
                A->tcol[t] = B->col_idx[k];
                A->tval[t++] = B->val[k];
            }
    }
    return SPMV_OK;
fail:
    SPMV_NAME(ell_free)(A);
    return SPMV_ERR_ALLOC;
}
#define SPMV__ELL_FROM(name, VAR)                                                                               \
    SPMV_API spmv_status SPMV_NAME(SPMV_CAT(name, _from_csr))(SPMV_NAME(ell) * A, const SPMV_NAME(csr) * B, \
                                                              const spmv_ell_params *p, spmv_error *e) {        \
        spmv_ell_params q = p ? *p : spmv__ell_params_of(VAR);                                                  \
        q.variant = VAR;                                                                                        \
        return spmv__built(e, SPMV_NAME(ell__from_csr)(A, B, q), SPMV_STR(name) "_from_csr", NULL);             \
    }
SPMV__ELL_FROM(ell, SPMV_ELL_PLAIN)
SPMV__ELL_FROM(ellr, SPMV_ELL_R)
SPMV__ELL_FROM(hll, SPMV_ELL_HLL)
SPMV__ELL_FROM(sell, SPMV_ELL_SELL)
SPMV__ELL_FROM(jad, SPMV_ELL_JAD)
SPMV__ELL_FROM(hyb, SPMV_ELL_HYB)
#undef SPMV__ELL_FROM

/* 1 when converting B to variant p (defaults filled in) must give SPMV_ERR_LIMIT (tests). */
SPMV_API int SPMV_NAME(ell_limited)(const SPMV_NAME(csr) *B, const spmv_ell_params *p, spmv_isa isa) {
    spmv_ell_params q = *p;
    if (isa != SPMV_ISA_AUTO) q.isa = isa;
    return SPMV_NAME(csr_check)(B) == SPMV_OK && SPMV_NAME(ell__plan)(B, &q, NULL, NULL) == SPMV_ERR_LIMIT;
}

/* Back to CSR, rows in their original order (exactly the input of the conversion). */
SPMV_API spmv_status SPMV_NAME(ell_to_csr)(const SPMV_NAME(ell) *A, SPMV_NAME(csr) *B) {
    SPMV_I s, i, r, k;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A || (A->nrows > 0 && (!A->rowlen || !A->slice_ptr))) return SPMV_ERR_ARG;
    B->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
    B->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!B->row_ptr || !B->col_idx || !B->val) {
        SPMV_NAME(csr_free)(B);
        return SPMV_ERR_ALLOC;
    }
    B->row_ptr[0] = 0;
    for (i = 0; i < A->nrows; i++) B->row_ptr[(A->perm ? A->perm[i] : i) + 1] = A->rowlen[i];
    for (k = 0; k < A->ntail; k++) B->row_ptr[A->trow[k] + 1]++;
    for (r = 0; r < A->nrows; r++) B->row_ptr[r + 1] += B->row_ptr[r];
    for (s = 0; s < A->nslices; s++) {
        const SPMV_I r0 = s * A->C, h = A->nrows - r0 < A->C ? A->nrows - r0 : A->C, off = A->slice_ptr[s];
        SPMV_I li, j;
        for (li = 0; li < h; li++) {
            const SPMV_I row = A->perm ? A->perm[r0 + li] : r0 + li, b = B->row_ptr[row];
            for (j = 0; j < A->rowlen[r0 + li]; j++) {
                const SPMV_I q = A->jd ? A->jd[j] + li : off + j * h + li;
                B->col_idx[b + j] = A->col[q];
                B->val[b + j] = A->val[q];
            }
        }
    }
    for (k = 0; k < A->ntail;) { /* hyb: each row's tail follows its first K entries */
        const SPMV_I row = A->trow[k];
        SPMV_I b = B->row_ptr[row] + A->rowlen[row];
        for (; k < A->ntail && A->trow[k] == row; k++, b++) {
            B->col_idx[b] = A->tcol[k];
            B->val[b] = A->tval[k];
        }
    }
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = A->params.isa;
    return SPMV_OK;
}
/* jad: the first stored row of the share of entries starting at e (a multiple of 64: rcum) */
static inline SPMV_I SPMV_NAME(ell__jad_split)(const SPMV_NAME(ell) *A, int64_t e) {
    SPMV_I lo = 0, hi = (A->nrows + 63) / 64;
    while (lo < hi) { /* first group of 64 rows whose entries start at or after e */
        SPMV_I mid = lo + (hi - lo) / 2;
        if ((int64_t)A->rcum[mid] < e) lo = mid + 1;
        else hi = mid;
    }
    return (int64_t)lo * 64 < (int64_t)A->nrows ? lo * 64 : A->nrows;
}

/* hyb's tail entries [k0, k1) (whole rows): y[r] += alpha * (row r's tail) */
static inline void SPMV_NAME(ell__tail)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *SPMV_RESTRICT x,
                                        SPMV_Y *SPMV_RESTRICT y, SPMV_I k0, SPMV_I k1) {
    const SPMV_I *tr = A->trow, *tc = A->tcol;
    const SPMV_T *tv = A->tval;
    SPMV_I k = k0;
    while (k < k1) {
        const SPMV_I r = tr[k];
        SPMV_Y sum = 0;
        for (; k < k1 && tr[k] == r; k++) sum += SPMV_TV(tv[k]) * x[tc[k]];
        y[r] += alpha * sum;
    }
}
/* the tail entry where the share starting at k begins: the start of a row */
static inline SPMV_I SPMV_NAME(ell__tail_cut)(const SPMV_NAME(ell) *A, SPMV_I k) {
    while (k > 0 && k < A->ntail && A->trow[k] == A->trow[k - 1]) k++;
    return k;
}

#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* Rows [i0, i1) of slice s (i0 a multiple of W), the exact path: in blocks of up to
 * SPMV__ELL_RB vectors of W rows: for each column j, every vector of the block (j outer: a slice as tall as ELL's,
 * where column j of a vector is nrows values after column j-1, would otherwise touch a new
 * page at every step; the block's accumulators stay in L1). Every lane runs to its own row's
 * length: unmasked up to the vector's shortest row, then masked, the mask recomputed only
 * where a lane's row ends (the padding is never multiplied: 0*x is NaN for x = Inf). Full
 * slices of exactly W rows (sell, hll) run SPMV_K(ell__slices_w) instead; the other rows run
 * SPMV_K(ell__rows) below, which comes here for a group whose sums are not finite. */
#ifndef SPMV__ELL_RB
#define SPMV__ELL_RB 32
#endif
/* where column j of the block starting at stored row b0 begins (jad: its jagged diagonal) */
#define SPMV__ELL_CB(j) ((jd ? jd[j] : off + (j) * h) + b0)
SPMV_KTARGET static inline void SPMV_K(ell__rows_exact)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *SPMV_RESTRICT x,
                                                  SPMV_Y beta, SPMV_Y *SPMV_RESTRICT y, SPMV_I s, SPMV_I i0, SPMV_I i1) {
    const SPMV_I r0 = s * A->C, h = A->nrows - r0 < A->C ? A->nrows - r0 : A->C, off = A->slice_ptr[s];
    const SPMV_I *jd = A->jd;
    const spmv_v va = V_set1(alpha), vb = V_set1(beta);
    SPMV_Y accb[SPMV__ELL_RB * SPMV_W];
    SPMV_I lmin[SPMV__ELL_RB], lmax[SPMV__ELL_RB], nextc[SPMV__ELL_RB];
    unsigned msk[SPMV__ELL_RB], full[SPMV__ELL_RB];
    SPMV_I b0;
    for (b0 = i0; b0 < i1; b0 += (SPMV_I)SPMV__ELL_RB * SPMV_W) {
        const SPMV_I b1 = i1 - b0 < (SPMV_I)SPMV__ELL_RB * SPMV_W ? i1 : b0 + (SPMV_I)SPMV__ELL_RB * SPMV_W;
        const int nv = (int)((b1 - b0 + SPMV_W - 1) / SPMV_W);
        SPMV_I j, L = 0;
        int v, l;
        for (v = 0; v < nv; v++) {
            const SPMV_I i = b0 + (SPMV_I)v * SPMV_W, *len = A->rowlen + r0 + i;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            lmin[v] = lmax[v] = len[0];
            for (l = 1; l < n; l++) {
                if (len[l] < lmin[v]) lmin[v] = len[l];
                if (len[l] > lmax[v]) lmax[v] = len[l];
            }
            full[v] = msk[v] = V_mask_first(n);
            nextc[v] = lmin[v];
            if (lmax[v] > L) L = lmax[v];
            V_storeu(accb + v * SPMV_W, V_zero());
        }
        for (j = 0; j < L; j++) {
            const SPMV_I cb = SPMV__ELL_CB(j);
            const SPMV_T *pv = A->val + cb;
            const SPMV_I *pc = A->col + cb;
            for (v = 0; v < nv; v++) {
                SPMV_Y *pa = accb + v * SPMV_W;
                if (j >= lmax[v]) continue;
                if (j < lmin[v] && full[v] == V_mask_first(SPMV_W)) {
                    V_storeu(pa, V_fma(V_loadt(pv + v * SPMV_W), V_gather(x, pc + v * SPMV_W), V_loadu(pa)));
                    continue;
                }
                if (j == nextc[v]) { /* a lane's row ended: the lanes still running */
                    const SPMV_I *len = A->rowlen + r0 + b0 + (SPMV_I)v * SPMV_W;
                    unsigned m = 0;
                    SPMV_I nc = lmax[v];
                    for (l = 0; l < SPMV_W; l++)
                        if (((full[v] >> l) & 1u) && len[l] > j) {
                            m |= 1u << l;
                            if (len[l] < nc) nc = len[l];
                        }
                    msk[v] = m;
                    nextc[v] = nc;
                }
                V_storeu(pa, V_fma(V_mloadt(msk[v], pv + v * SPMV_W), V_mgather(msk[v], x, pc + v * SPMV_W), V_loadu(pa)));
            }
        }
        for (v = 0; v < nv; v++) {
            const SPMV_I i = b0 + (SPMV_I)v * SPMV_W;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            const spmv_v acc = V_loadu(accb + v * SPMV_W);
            spmv_v out;
            if (!A->perm) {
                SPMV_Y *py = y + r0 + i;
                if (n == SPMV_W) {
                    out = beta == (SPMV_Y)0 ? V_mul(va, acc) : V_fma(vb, V_loadu(py), V_mul(va, acc));
                    V_storeu(py, out);
                } else {
                    out = beta == (SPMV_Y)0 ? V_mul(va, acc) : V_fma(vb, V_mload(full[v], py), V_mul(va, acc));
                    V_mstore(py, full[v], out);
                }
            } else { /* sell: scattered through the permutation */
                const SPMV_Y *t = accb + v * SPMV_W;
                for (l = 0; l < n; l++) {
                    const SPMV_I r = A->perm[r0 + i + l];
                    y[r] = beta == (SPMV_Y)0 ? alpha * t[l] : alpha * t[l] + beta * y[r];
                }
            }
        }
    }
}

/* Rows [i0, i1) of slice s (i0 a multiple of W), the fast path: groups of R vectors
 * of W rows whose sums stay in registers over the group's columns (nothing stored until y),
 * every lane run to the group's longest row without masks: a padded slot holds 0 and the
 * row's last column (a valid gather), and 0*x adds an exact 0 unless x there is Inf or NaN,
 * which the row's own entry in that column already makes its sum non-finite. So a group
 * whose sums are finite has the exact path's bits, and a group with a non-finite sum is
 * redone by ell__rows_exact before y is written. jad has no padding (a jagged diagonal holds
 * only the rows longer than it, sorted descending): its lanes past their row's end are
 * masked, a prefix of each vector. Each column's run is prefetched SPMV__ELL_PF groups
 * ahead (one run per column of a tall slice: more than the hardware prefetchers follow). */
#ifndef SPMV__ELL_PF
#define SPMV__ELL_PF 8
#endif
/* Groups of R vectors: R = 4 in cache, 8 beyond it (a matrix of more than SPMV_ELL_BIG bytes):
 * in cache 8 accumulators beside 8 gathers cost 12-15% (0.70-0.94x CSR against 0.82-1.09x on
 * gen:stencil3d n=24/27, fem n=8000/3, stencil3d n=40/7), beyond it runs of 4 vectors per
 * column were too short for the memory system (0.76-0.83x CSR against 0.93-1.01x with 8, on
 * stencil3d n=100/27 and fem n=300000/3; AMD EPYC, 2 threads, AVX-512, 2026-11-26). */
#ifndef SPMV_ELL_BIG
#define SPMV_ELL_BIG (16L << 20)
#endif
#ifndef SPMV__ELL_R
#define SPMV__ELL_R 8 /* the most accumulators */
#endif
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(ell__rows_r)(const SPMV_NAME(ell) *A, SPMV_Y alpha,
                                                               const SPMV_Y *SPMV_RESTRICT x, SPMV_Y beta,
                                                               SPMV_Y *SPMV_RESTRICT y, SPMV_I s, SPMV_I i0, SPMV_I i1,
                                                               const int R) {
    const SPMV_I r0 = s * A->C, h = A->nrows - r0 < A->C ? A->nrows - r0 : A->C, off = A->slice_ptr[s];
    const SPMV_I *jd = A->jd, G = (SPMV_I)R * SPMV_W;
    const spmv_v va = V_set1(alpha), vb = V_set1(beta), zero = V_zero();
    SPMV_Y chk[SPMV_W];
    SPMV_I b0;
    for (b0 = i0; b0 < i1; b0 += G) {
        const SPMV_I b1 = i1 - b0 < G ? i1 : b0 + G, *len = A->rowlen + r0 + b0;
        const int nv = (int)((b1 - b0 + SPMV_W - 1) / SPMV_W), nr = (int)(b1 - b0);
        spmv_v acc[SPMV__ELL_R], poison = zero;
        SPMV_I j, L = 0, Lmin;
        int v, l, bad = 0;
        for (l = 0; l < nr; l++) L = len[l] > L ? len[l] : L;
        /* columns below Lmin run unmasked: none in a partial group (its missing rows are not
           read), all of a full ELL group (padding is safe to read), jad's shortest row */
        Lmin = nr < G ? 0 : L;
        for (l = 0; jd && l < nr; l++) Lmin = len[l] < Lmin ? len[l] : Lmin;
        for (v = 0; v < R; v++) acc[v] = zero;
        for (j = 0; j < L; j++) {
            const SPMV_I cb = SPMV__ELL_CB(j);
            const SPMV_T *pv = A->val + cb;
            const SPMV_I *pc = A->col + cb;
            for (v = 0; v < R; v++) {
                SPMV_PREFETCH(pv + (SPMV_I)SPMV__ELL_PF * G + (SPMV_I)v * SPMV_W);
                SPMV_PREFETCH(pc + (SPMV_I)SPMV__ELL_PF * G + (SPMV_I)v * SPMV_W);
            }
            if (j < Lmin) {
                for (v = 0; v < R; v++)
                    acc[v] = V_fma(V_loadt(pv + v * SPMV_W), V_gather(x, pc + v * SPMV_W), acc[v]);
            } else {
                for (v = 0; v < nv; v++) {
                    const int n = nr - v * SPMV_W < SPMV_W ? nr - v * SPMV_W : SPMV_W;
                    int k = n;
                    unsigned m;
                    if (jd) /* rows sorted descending: the lanes still running are a prefix */
                        for (k = 0; k < n && len[v * SPMV_W + k] > j; k++) {
                        }
                    if (k == 0) continue;
                    m = V_mask_first(k);
                    acc[v] = V_fma(V_mloadt(m, pv + v * SPMV_W), V_mgather(m, x, pc + v * SPMV_W), acc[v]);
                }
            }
        }
        for (v = 0; v < nv; v++) poison = V_add(poison, V_mul(acc[v], zero)); /* NaN iff a sum is not finite */
        V_storeu(chk, poison);
        for (l = 0; l < SPMV_W; l++) bad |= chk[l] != (SPMV_Y)0;
        if (bad) {
            SPMV_K(ell__rows_exact)(A, alpha, x, beta, y, s, b0, b1);
            continue;
        }
        for (v = 0; v < nv; v++) {
            const SPMV_I i = b0 + (SPMV_I)v * SPMV_W;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            if (!A->perm) {
                SPMV_Y *py = y + r0 + i;
                if (n == SPMV_W) {
                    V_storeu(py, beta == (SPMV_Y)0 ? V_mul(va, acc[v]) : V_fma(vb, V_loadu(py), V_mul(va, acc[v])));
                } else {
                    const unsigned fm = V_mask_first(n);
                    V_mstore(py, fm, beta == (SPMV_Y)0 ? V_mul(va, acc[v]) : V_fma(vb, V_mload(fm, py), V_mul(va, acc[v])));
                }
            } else { /* sell, jad: scattered through the permutation */
                SPMV_Y t[SPMV_W];
                V_storeu(t, acc[v]);
                for (l = 0; l < n; l++) {
                    const SPMV_I r = A->perm[r0 + i + l];
                    y[r] = beta == (SPMV_Y)0 ? alpha * t[l] : alpha * t[l] + beta * y[r];
                }
            }
        }
    }
}
SPMV_KTARGET static inline void SPMV_K(ell__rows)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *SPMV_RESTRICT x,
                                                  SPMV_Y beta, SPMV_Y *SPMV_RESTRICT y, SPMV_I s, SPMV_I i0, SPMV_I i1) {
    const int64_t bytes = (int64_t)A->slice_ptr[A->nslices] * (int64_t)(sizeof(SPMV_T) + sizeof(SPMV_I));
    if (bytes > SPMV_ELL_BIG) SPMV_K(ell__rows_r)(A, alpha, x, beta, y, s, i0, i1, 8);
    else SPMV_K(ell__rows_r)(A, alpha, x, beta, y, s, i0, i1, 4);
}

/* Slices of exactly W rows (sell and hll with C = W), one vector each, with no branch that
 * depends on a lane: the row loop mispredicts at nearly every end of a short irregular row,
 * and each miss also throws away the x loads issued past it. Lanes run unmasked to the
 * slice's shortest row; the steps after that blend the finished lanes' products away. */
SPMV_KTARGET static SPMV__PINNED void SPMV_K(ell__slices_w)(const SPMV_NAME(ell) *A, SPMV_Y alpha,
                                                         const SPMV_Y *SPMV_RESTRICT x, SPMV_Y beta,
                                                         SPMV_Y *SPMV_RESTRICT y, SPMV_I s0, SPMV_I s1) {
    const spmv_v va = V_set1(alpha), vb = V_set1(beta);
    SPMV_Y t[SPMV_W];
    SPMV_I s;
    for (s = s0; s < s1; s++) {
        const SPMV_I r0 = s * (SPMV_I)SPMV_W, *len = A->rowlen + r0;
        const SPMV_T *pv = A->val + A->slice_ptr[s];
        const SPMV_I *pc = A->col + A->slice_ptr[s];
        SPMV_I lo = len[0], hi = len[0], j = 0;
        spmv_v a0 = V_zero(), a1 = V_zero(), acc;
        int l;
        for (l = 1; l < SPMV_W; l++) {
            lo = len[l] < lo ? len[l] : lo;
            hi = len[l] > hi ? len[l] : hi;
        }
        for (; j + 1 < lo; j += 2) {
            a0 = V_fma(V_loadt(pv + j * SPMV_W), V_gather(x, pc + j * SPMV_W), a0);
            a1 = V_fma(V_loadt(pv + (j + 1) * SPMV_W), V_gather(x, pc + (j + 1) * SPMV_W), a1);
        }
        if (j < lo) {
            a0 = V_fma(V_loadt(pv + j * SPMV_W), V_gather(x, pc + j * SPMV_W), a0);
            j++;
        }
        for (; j < hi; j++) { /* padding reads a valid column; its product (0*x, NaN for Inf) is dropped */
            unsigned m = 0;
            for (l = 0; l < SPMV_W; l++) m |= (unsigned)(len[l] > j) << l;
            a1 = V_add(a1, V_blend(m, V_zero(), V_mul(V_loadt(pv + j * SPMV_W), V_gather(x, pc + j * SPMV_W))));
        }
        acc = V_add(a0, a1);
        if (!A->perm) {
            SPMV_Y *py = y + r0;
            V_storeu(py, beta == (SPMV_Y)0 ? V_mul(va, acc) : V_fma(vb, V_loadu(py), V_mul(va, acc)));
        } else {
            const SPMV_I *pr = A->perm + r0;
            V_storeu(t, V_mul(va, acc));
            if (beta == (SPMV_Y)0)
                for (l = 0; l < SPMV_W; l++) y[pr[l]] = t[l];
            else
                for (l = 0; l < SPMV_W; l++) y[pr[l]] = t[l] + beta * y[pr[l]];
        }
    }
}

SPMV_KTARGET static inline void SPMV_K(ell_run)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                SPMV_Y *y) {
    const SPMV_I ns = A->nslices, np = A->slice_ptr[ns];
    int nt = (int64_t)np + A->ntail >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt; /* unused without OpenMP */
    if (ns == 0) return;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int tid = spmv__tid(), nth = spmv__nthr();
        if (ns == 1) { /* ell, ellr, hyb: equal row ranges, aligned to the vector; jad: entries */
            const SPMV_I h = A->nrows, nv = (h + SPMV_W - 1) / SPMV_W;
            SPMV_I a = (SPMV_I)((int64_t)nv * tid / nth) * SPMV_W, b = (SPMV_I)((int64_t)nv * (tid + 1) / nth) * SPMV_W;
            if (A->rcum) {
                a = tid == 0 ? 0 : SPMV_NAME(ell__jad_split)(A, (int64_t)np * tid / nth);
                b = tid == nth - 1 ? h : SPMV_NAME(ell__jad_split)(A, (int64_t)np * (tid + 1) / nth);
            }
            if (b > h) b = h;
            if (a < b) SPMV_K(ell__rows)(A, alpha, x, beta, y, 0, a, b);
            if (A->ntail > 0) { /* hyb: the tail, once every row's ELL part is in y */
                SPMV_I k0 = SPMV_NAME(ell__tail_cut)(A, (SPMV_I)((int64_t)A->ntail * tid / nth));
                SPMV_I k1 = SPMV_NAME(ell__tail_cut)(A, (SPMV_I)((int64_t)A->ntail * (tid + 1) / nth));
SPMV_OMP(barrier)
                SPMV_NAME(ell__tail)(A, alpha, x, y, k0, k1);
            }
        } else { /* slices by equal shares of the padded entries */
            const int64_t e0 = (int64_t)np * tid / nth, e1 = (int64_t)np * (tid + 1) / nth;
            SPMV_I lo = 0, hi = ns, s, s1;
            while (lo < hi) { /* first slice starting at or after e0 */
                SPMV_I mid = lo + (hi - lo) / 2;
                if ((int64_t)A->slice_ptr[mid] < e0) lo = mid + 1;
                else hi = mid;
            }
            s = tid == 0 ? 0 : lo;
            for (lo = s, hi = ns; lo < hi;) {
                SPMV_I mid = lo + (hi - lo) / 2;
                if ((int64_t)A->slice_ptr[mid] < e1) lo = mid + 1;
                else hi = mid;
            }
            s1 = tid == nth - 1 ? ns : lo;
            if (A->C == (SPMV_I)SPMV_W && !A->jd) { /* the full slices */
                const SPMV_I sf = s1 < A->nrows / (SPMV_I)SPMV_W ? s1 : A->nrows / (SPMV_I)SPMV_W;
                if (s < sf) SPMV_K(ell__slices_w)(A, alpha, x, beta, y, s, sf);
                if (s < sf) s = sf;
            }
            for (; s < s1; s++) {
                const SPMV_I h = A->nrows - s * A->C < A->C ? A->nrows - s * A->C : A->C;
                SPMV_K(ell__rows)(A, alpha, x, beta, y, s, 0, h);
            }
        }
    }
}

/* SpMM, row-major X and Y (formats/csr_ops.h's layout and pieces): each stored row's entries
 * (its slice's column-major run, or jad's diagonals) read once per block of NV vectors of W
 * columns of X, the padding skipped (rowlen), the row written through perm. */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(ell__mm_rows)(const SPMV_NAME(ell) *A, SPMV_I r0, SPMV_I r1,
                                                              const SPMV_Y *X, int64_t ldx, SPMV_Y *Y, int64_t ldy,
                                                              SPMV_Y alpha, SPMV_Y beta, int64_t j0, const int NV,
                                                              unsigned mlast) {
    const SPMV_I C = A->C;
    const SPMV_I *SPMV_RESTRICT ci = A->col;
    const SPMV_T *SPMV_RESTRICT va = A->val;
    SPMV_I r, j;
    int b;
    for (r = r0; r < r1; r++) {
        const SPMV_I s = r / C, i = r - s * C, h = A->nrows - s * C < C ? A->nrows - s * C : C;
        const SPMV_I len = A->rowlen[r];
        const int64_t base = A->jd ? (int64_t)r : (int64_t)A->slice_ptr[s] + i;
        spmv_v acc[4];
        for (b = 0; b < NV; b++) acc[b] = V_zero();
        for (j = 0; j < len; j++) {
            const int64_t p = A->jd ? (int64_t)A->jd[j] + base : base + (int64_t)j * h;
            SPMV_K(mm__acc)(acc, V_tv(va[p]), X + (int64_t)ci[p] * ldx + j0, NV, mlast);
        }
        SPMV_K(mm__put)(Y + (int64_t)(A->perm ? A->perm[r] : r) * ldy + j0, acc, NV, mlast, alpha, beta);
    }
}
SPMV_KTARGET static inline void SPMV_K(ell__mm)(const SPMV_NAME(ell) *A, int64_t kk, SPMV_Y alpha, const SPMV_Y *X,
                                                int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy) {
    const int nt = A->nnz >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int t = spmv__tid(), n = spmv__nthr();
        const SPMV_I r0 = (SPMV_I)((int64_t)A->nrows * t / n), r1 = (SPMV_I)((int64_t)A->nrows * (t + 1) / n);
        SPMV__MM_BLOCKS(kk, SPMV_K(ell__mm_rows), A, r0, r1, X, ldx, Y, ldy, alpha, beta);
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y. beta == 0: y is written, never read. */
SPMV_API spmv_status SPMV_NAME(ell_mv)(const SPMV_NAME(ell) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(ell_run), (A, alpha, x, beta, y));
    return st;
}

/* Y = alpha*A*X + beta*Y with k vectors, row-major (formats/csr_ops.h): ell, ellr, hll, sell
 * and jad natively (each row read once per block of vectors); SPMV_ERR_UNSUPPORTED for the
 * column-major layout and for hyb (its COO tail), which any_mm then runs vector by vector. */
SPMV_API spmv_status SPMV_NAME(ell_mm)(const SPMV_NAME(ell) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                            int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    spmv_status st;
    if (!A || spmv__mm_args_bad(A->ncols, A->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (lay != SPMV_ROW_MAJOR || A->ntail > 0) return SPMV_ERR_UNSUPPORTED;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(ell__mm), (A, k, alpha, X, ldx, beta, Y, ldy));
    return st;
}

/* the search: candidate value into key 0 c, 1 sigma, 2 k */
#define SPMV_TF_FAM ell
#define SPMV_TF_PARAMS spmv_ell_params
#define SPMV_TF_SET(p, key, v) ((key) == 1 ? ((p).sigma = (v)) : (key) == 2 ? ((p).k = (v)) : ((p).c = (v)))
#define SPMV_TF_CONVERT(M, A, p) SPMV_NAME(ell__from_csr)(M, A, p)
#include "core/tune_family.h"
/* Times products of the conversions of A with each candidate; *best gets the fastest
 * (the first candidate keeps its place unless another is 5% faster). */
static inline spmv_status SPMV_NAME(ell__tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, const int *cand,
                                               int ncand, int key, double *seconds_spent) {
    return SPMV_NAME(ell__tune_search)(A, *best, best, cand, ncand, key, 1, seconds_spent);
}
/* ellr: nothing to search on the CPU (its one parameter, t, is the GPU's threads per row;
 * spmv-cuda's --tune searches it) */
SPMV_API spmv_status SPMV_NAME(ellr_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    if (seconds_spent) *seconds_spent = 0;
    return A && best ? SPMV_OK : SPMV_ERR_ARG;
}
/* hll: the hack size (the vector width first, then multiples of it) */
SPMV_API spmv_status SPMV_NAME(hll_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    spmv_ell_params b = best ? *best : spmv_hll_params_default();
    int cand[5], w;
    spmv_status st;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    st = SPMV_ISA_FOR(SPMV_FMT_HLL, b.isa, &b.isa);
    if (st != SPMV_OK) return st;
    b.variant = SPMV_ELL_HLL;
    w = (int)SPMV__NATIVE_W(b.isa);
    cand[0] = w, cand[1] = 2 * w, cand[2] = 4 * w, cand[3] = 8 * w, cand[4] = 32 * w;
    *best = b;
    return SPMV_NAME(ell__tune)(A, best, cand, 5, 0, seconds_spent);
}
/* sell: sigma (C the vector width): none, a few chunks, many, the whole matrix */
SPMV_API spmv_status SPMV_NAME(sell_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    spmv_ell_params b = best ? *best : spmv_sell_params_default();
    int cand[5], c;
    spmv_status st;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    st = SPMV_ISA_FOR(SPMV_FMT_SELL, b.isa, &b.isa);
    if (st != SPMV_OK) return st;
    b.variant = SPMV_ELL_SELL;
    c = b.c ? b.c : (int)SPMV__NATIVE_W(b.isa);
    b.c = c;
    cand[0] = 32 * c, cand[1] = 1, cand[2] = 4 * c, cand[3] = 256 * c,
    cand[4] = A->nrows > 1 ? (int)(A->nrows < (1 << 30) ? A->nrows : (1 << 30)) : 1;
    *best = b;
    return SPMV_NAME(ell__tune)(A, best, cand, 5, 1, seconds_spent);
}
/* hyb: K (the survey's rule first, then half and twice it, the mean row length, the
 * longest row: no tail) */
SPMV_API spmv_status SPMV_NAME(hyb_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    spmv_ell_params b = best ? *best : spmv_hyb_params_default();
    int cand[5], k;
    SPMV_I i, maxlen = 0;
    spmv_status st;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best || SPMV_NAME(csr_check)(A) != SPMV_OK) return SPMV_ERR_ARG;
    st = SPMV_ISA_FOR(SPMV_FMT_HYB, b.isa, &b.isa);
    if (st == SPMV_OK) st = SPMV_NAME(ell__hyb_k)(A, &k);
    if (st != SPMV_OK) return st;
    b.variant = SPMV_ELL_HYB;
    for (i = 0; i < A->nrows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > maxlen) maxlen = A->row_ptr[i + 1] - A->row_ptr[i];
    cand[0] = k > 0 ? k : 1, cand[1] = k / 2 > 0 ? k / 2 : 1, cand[2] = 2 * k > 0 ? 2 * k : 1;
    cand[3] = A->nrows > 0 ? (int)((A->nnz + A->nrows - 1) / A->nrows < (1 << 30) ? (A->nnz + A->nrows - 1) / A->nrows : 1 << 30) : 1;
    cand[4] = maxlen < (1 << 30) ? (int)(maxlen > 0 ? maxlen : 1) : 1 << 30;
    *best = b;
    return SPMV_NAME(ell__tune)(A, best, cand, 5, 2, seconds_spent);
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_ELL_RULES)
#define SPMV_ELL_RULES
/* What the selection knows about the ELL rows (formats/core/rules.h). Host: the tall-slice
 * rows (ell, ellr, hyb, jad) run register-group kernels, 0.85-0.88x CSR beyond the L3 on the
 * 27-point stencil and 3x3 FEM, 1.0-1.1x on the 7-point stencil, 0.74-1.02x in cache (each
 * column of a row group on its own page; sell and hll keep a slice's columns together):
 * below CSR, tried where the budget is left over. sell sorts its windows (ego-Twitter: 3.01
 * slots per entry unsorted, 1.55 sorted, and 1.14x CSR) and, from 40k entries and 3 per row,
 * was ahead of CSR by >= 5% on 30 of 41 real matrices and behind by more than 5% on two;
 * below 40k entries one parallel region costs more than the work. jad: ahead only on small
 * irregular graphs (1.15-1.37x). Device: padded slices are not ahead of csr's vector kernel
 * (big balanced 0.93-1.07x, small 0.68-0.80x); jad 1.15-1.23x on big short rows; hyb 1.20x
 * on the webgraph. The device skew cap refuses ell, ellr, hll, sell and jad on rows far
 * above the mean. A slice row whose padding is low holds CSR's copy when it loses. */
static inline double spmv_ell__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->ell_fill > 1.3) return *why = "ELL padding above 1.3 slots per entry", 0.0;
    return *why = "rows of nearly equal length: ELL without padding", spmv_rule_big(F) && F->row_mean < 10 ? 1.0 : 0.9;
}
static inline double spmv_ellr__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->ell_fill > 2.0) return *why = "ELL padding above 2 slots per entry", 0.0;
    return *why = "ELL with row lengths: moderate padding", spmv_rule_big(F) && F->row_mean < 10 ? 0.95 : 0.85;
}
static inline double spmv_hll__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    const double mu = F->row_mean;
    (void)o;
    if (F->sell_fill > 3.0) return *why = "slice padding above 3 slots per entry", 0.0;
    if (mu < 3) return *why = "rows too short for slices of vector width", 0.0;
    return *why = "slices of equal-ish rows (HLL)", mu >= 8 ? (spmv_rule_big(F) ? 1.1 : 0.95) : 0.9;
}
static inline double spmv_sell__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->sell_sorted_fill > 3.0) return *why = "slice padding above 3 slots per entry", 0.0;
    if (F->row_mean < 3) return *why = "rows too short for slices of vector width", 0.0;
    if (F->nnz >= 40000)
        return *why = "rows of varying length sorted into slices: no row-end branch per row",
               F->row_cv >= 0.2 || F->row_mean >= 10 ? 1.2 : 1.0;
    return *why = "small or padded: SELL's slices cost more than they save", 0.9;
}
static inline double spmv_jad__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->row_mean > 40) return *why = "long rows: jagged diagonals gain nothing over CSR", 0.0;
    if (spmv_rule_l2(F) && F->row_mean <= 12 && F->row_cv >= 0.6)
        return *why = "small, short irregular rows: jagged diagonals", 1.1;
    return *why = "short rows: jagged diagonals vectorise across rows", 0.9;
}
static inline double spmv_hyb__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->row_mean > 24) return *why = "long rows: HYB's ELL part gains nothing", 0.0;
    return *why = "short rows of similar length plus a COO tail",
           spmv_rule_big(F) && F->row_mean < 10 ? (F->row_cv <= 1.0 ? 1.0 : 0.95) : 0.85;
}
/* the device skew cap, before each capped row's rule */
static inline int spmv_ell__dev_capped(const spmv_auto_features *F, const char **why) {
    if (!spmv_rule_dev_capped(F, SPMV_CUDA_SKEW_MIN_ELL, 0)) return 0;
    *why = "the longest row is far above the mean: one thread per row would walk it (the skew cap)";
    return 1;
}
static inline double spmv_ell__rule_dev_slices(const spmv_auto_features *F, const char **why) {
    if (spmv_ell__dev_capped(F, why)) return 0.0;
    return *why = "padded slices: not ahead of csr's vector kernel on a GPU", 0.9;
}
static inline double spmv_ellr__rule_dev(const spmv_auto_features *F, const char **why) {
    if (spmv_ell__dev_capped(F, why)) return 0.0;
    return *why = "padded slices: not ahead of csr's vector kernel on a GPU", spmv_rule_dev_big(F) ? 1.0 : 0.9;
}
static inline double spmv_jad__rule_dev(const spmv_auto_features *F, const char **why) {
    if (spmv_ell__dev_capped(F, why)) return 0.0;
    if (F->row_mean > 32) return *why = "long rows: jagged diagonals gain nothing over CSR", 0.7;
    return *why = "short rows: jagged diagonals, consecutive threads on consecutive rows", spmv_rule_dev_big(F) ? 1.15 : 0.9;
}
static inline double spmv_hyb__rule_dev(const spmv_auto_features *F, const char **why) {
    if (F->row_mean > 24) return *why = "long rows: HYB's ELL part gains nothing", 0.5;
    return *why = "short rows plus a COO tail for the long ones", spmv_rule_dev_big(F) && spmv_rule_skewed(F) ? 1.15 : 0.95;
}
static inline double spmv_ell__bytes(const spmv_auto_features *F) { return spmv_rule_padded_bytes(F, F->ell_fill); }
static inline double spmv_hll__bytes(const spmv_auto_features *F) { return spmv_rule_padded_bytes(F, F->sell_fill); }
static inline double spmv_sell__bytes(const spmv_auto_features *F) { return spmv_rule_padded_bytes(F, F->sell_sorted_fill); }
static inline int spmv_ell__donor(const spmv_auto_features *F) { return F->ell_fill <= spmv_auto__policy.donor_fill; }
static inline int spmv_hll__donor(const spmv_auto_features *F) { return F->sell_fill <= spmv_auto__policy.donor_fill; }
static inline int spmv_sell__donor(const spmv_auto_features *F) { return F->sell_sorted_fill <= spmv_auto__policy.donor_fill; }
static inline int spmv_jad__donor(const spmv_auto_features *F) { return (void)F, 1; }
static const spmv_format_rules spmv_rules_ell = {25, 15, spmv_ell__rule_host, spmv_ell__rule_dev_slices, NULL,
                                                 spmv_ell__bytes, spmv_ell__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_ellr = {26, 15, spmv_ellr__rule_host, spmv_ellr__rule_dev, NULL,
                                                  spmv_ell__bytes, spmv_ell__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_hll = {13, 11, spmv_hll__rule_host, spmv_ell__rule_dev_slices, NULL,
                                                 spmv_hll__bytes, spmv_hll__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_sell = {14, 10, spmv_sell__rule_host, spmv_ell__rule_dev_slices, NULL,
                                                  spmv_sell__bytes, spmv_sell__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_jad = {15, 9, spmv_jad__rule_host, spmv_jad__rule_dev, NULL, NULL,
                                                 spmv_jad__donor, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_hyb = {19, 14, spmv_hyb__rule_host, spmv_hyb__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
