/* ELL family — ELLPACK and its sliced variants (the GPGPU survey, seeds/001; NOTES.md
 * "Classic formats"): registry rows ell, ellr, hll, sell. One layout, sliced ELL:
 *   stored rows are cut into nslices slices of C consecutive rows; slice s holds
 *   h_s = min(C, nrows - s*C) rows, is as wide as its longest row (width_s), and is
 *   column-major: entry j of the slice's local row i is at
 *       slice_ptr[s] + j*h_s + i        (j < width_s, i < h_s)
 *   so width_s = (slice_ptr[s+1] - slice_ptr[s]) / h_s. Padding (j >= the row's length): the
 *   row's last column (column 0 for an empty row) with value 0, so every gather is valid.
 *   rowlen[i]: entries of stored row i (every variant keeps it: _to_csr needs it to tell
 *   padding from explicit zeros; only ellr's kernels read it).
 *   perm[i]: the original row of stored row i (sell with sigma > 1; NULL = identity).
 * The rows:
 *   ell   C = nrows, one slice: val[j*nrows + i], width = the longest row.
 *   ellr  ELLPACK-R: ell + the kernels stop at each row's length (per vector of rows on the
 *         CPU: the longest of its W rows; per thread on the GPU).
 *   hll   hacked ELL: C = hs rows per hack (default: the backend's vector width on the CPU,
 *         the warp on the GPU), no reordering.
 *   sell  SELL-C-sigma: C = c, rows sorted by length (descending, stable) inside windows of
 *         sigma rows (default 32*C; sigma = 1: no sorting, exactly hll's layout); y is
 *         written through perm (no extra pass over y).
 * Footprint: (nslices+1)*I + padded*(I+T) + nrows*I [+ nrows*I perm], padded = sum h_s*width_s.
 * Limit: the conversion returns SPMV_ERR_LIMIT, before allocating anything, when padded
 * exceeds params.fill * nnz + 4096 entries (fill default 10: past that the format moves ten
 * times CSR's bytes and is the wrong choice; the survey could not store StocF-1465 in ELL at
 * all), the index type, or half of the physical memory.
 * CPU kernel (written once against the SIMD vocabulary): vectors of W consecutive rows of a
 * slice, one V_loadu of W values + one gather of x per column j, no horizontal sums; y
 * stored W rows at a time (scattered through perm for sell). Every variant stops each vector
 * at its longest row and masks the lanes past their own row's end (rowlen): padding a kernel
 * does not need is bandwidth for nothing, and multiplying it would turn x = +-Inf into NaN
 * (0*Inf). So on the CPU ell and ellr run the same kernel; on the GPU (thread per row) ell,
 * hll and sell threads run to the slice width (reading the padding, selecting it away) and
 * ellr threads stop at their row's length, the survey's distinction.
 * OpenMP: one slice (ell, ellr) is split into equal row ranges; several slices by equal
 * shares of padded entries. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_ELL_COMMON
#define SPMV_ELL_COMMON
#define SPMV_LIMITED_ell 1 /* the family has a documented size cap (tests/format_case.h) */
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h> /* sysconf: the physical memory, for the size cap */
#endif
typedef enum spmv_ell_variant { SPMV_ELL_PLAIN = 0, SPMV_ELL_R = 1, SPMV_ELL_HLL = 2, SPMV_ELL_SELL = 3 } spmv_ell_variant;
typedef struct spmv_ell_params {
    spmv_isa isa;   /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int variant;    /* spmv_ell_variant: set by the row's default */
    int c;          /* rows per slice (hll: hs, sell: C); 0: the backend's vector width */
    int sigma;      /* sell: sorting window in rows; 0: 32*c; 1: no sorting */
    int fill;       /* SPMV_ERR_LIMIT above fill*nnz + 4096 padded entries; 0: 10 */
} spmv_ell_params;
typedef spmv_ell_params spmv_ellr_params;
typedef spmv_ell_params spmv_hll_params;
typedef spmv_ell_params spmv_sell_params;
static inline spmv_ell_params spmv__ell_params_of(int variant) {
    spmv_ell_params p;
    p.isa = SPMV_ISA_AUTO;
    p.variant = variant;
    p.c = 0;
    p.sigma = 0;
    p.fill = 0;
    return p;
}
static inline spmv_ell_params spmv_ell_params_default(void) { return spmv__ell_params_of(SPMV_ELL_PLAIN); }
static inline spmv_ell_params spmv_ellr_params_default(void) { return spmv__ell_params_of(SPMV_ELL_R); }
static inline spmv_ell_params spmv_hll_params_default(void) { return spmv__ell_params_of(SPMV_ELL_HLL); }
static inline spmv_ell_params spmv_sell_params_default(void) { return spmv__ell_params_of(SPMV_ELL_SELL); }
#define SPMV__ELL_FILL_KEY                                                                                       \
    {"fill", offsetof(spmv_ell_params, fill), SPMV_PK_INT, 0, 1 << 20, NULL,                                     \
     "refuse (SPMV_ERR_LIMIT) above fill*nnz+4096 padded entries (0: 10)"}
static const spmv_param_key spmv__ell_keys[] = {SPMV__ELL_FILL_KEY, {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
#define spmv__ellr_keys spmv__ell_keys
static const spmv_param_key spmv__hll_keys[] = {
    {"hs", offsetof(spmv_ell_params, c), SPMV_PK_INT, 0, 1 << 16, NULL, "rows per hack (0: the vector width)"},
    {"w", offsetof(spmv_ell_params, c), SPMV_PK_POW2, 0, 1 << 16, NULL, "hs as a vector width (a power of two)"},
    SPMV__ELL_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__sell_keys[] = {
    {"c", offsetof(spmv_ell_params, c), SPMV_PK_INT, 0, 1 << 16, NULL, "rows per chunk (0: the vector width)"},
    {"w", offsetof(spmv_ell_params, c), SPMV_PK_POW2, 0, 1 << 16, NULL, "c as a vector width (a power of two)"},
    {"sigma", offsetof(spmv_ell_params, sigma), SPMV_PK_INT, 0, 1 << 30, NULL,
     "sorting window in rows (0: 32*c; 1: none)"},
    SPMV__ELL_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
/* the vector width (values) of a backend: AVX2 4 d / 8 f, AVX-512 8 / 16, portable 8 / 16 */
static inline int spmv__ell_native_c(spmv_isa isa, size_t tsize) {
    if (isa == SPMV_ISA_AVX2) return tsize == 8 ? 4 : 8;
    return tsize == 8 ? 8 : 16;
}
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
static inline uint64_t spmv__ell_phys_bytes(void) {
    long n = sysconf(_SC_PHYS_PAGES), s = sysconf(_SC_PAGESIZE);
    return n > 0 && s > 0 ? (uint64_t)n * (uint64_t)s : UINT64_MAX;
}
#else
static inline uint64_t spmv__ell_phys_bytes(void) { return UINT64_MAX; }
#endif
#endif

typedef struct SPMV_NAME(ell) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I C, nslices;
    SPMV_I *slice_ptr; /* nslices+1 */
    SPMV_I *col;       /* slice_ptr[nslices] */
    SPMV_T *val;
    SPMV_I *rowlen;    /* nrows, stored order */
    SPMV_I *perm;      /* nrows or NULL */
    spmv_ell_params params; /* isa, c, sigma, fill resolved after conversion */
} SPMV_NAME(ell);

static inline void SPMV_NAME(ell_free)(SPMV_NAME(ell) *A) {
    if (!A) return;
    spmv__free(A->slice_ptr);
    spmv__free(A->col);
    spmv__free(A->val);
    spmv__free(A->rowlen);
    spmv__free(A->perm);
    memset(A, 0, sizeof *A);
}

static inline size_t SPMV_NAME(ell_bytes)(const SPMV_NAME(ell) *A) {
    size_t np = A->slice_ptr ? (size_t)A->slice_ptr[A->nslices] : 0;
    return ((size_t)A->nslices + 1) * sizeof(SPMV_I) + np * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           (size_t)A->nrows * sizeof(SPMV_I) * (A->perm ? 2 : 1);
}

static int SPMV_NAME(ell__cmp)(const void *a, const void *b) {
    const SPMV_I *p = (const SPMV_I *)a, *q = (const SPMV_I *)b;
    if (p[0] != q[0]) return p[0] > q[0] ? -1 : 1;
    return p[1] < q[1] ? -1 : p[1] > q[1];
}

/* Resolves p (isa, c, sigma, fill) for B and computes the stored order (perm, NULL when the
 * identity or not wanted) and the padded size. SPMV_ERR_LIMIT past the documented caps. */
static inline spmv_status SPMV_NAME(ell__plan)(const SPMV_NAME(csr) *B, spmv_ell_params *p, SPMV_I **perm_out,
                                               uint64_t *padded_out) {
    const SPMV_I n = B->nrows, *rp = B->row_ptr;
    spmv_status st = spmv_isa_resolve(p->isa, &p->isa);
    SPMV_I *perm = NULL, s, i, C;
    uint64_t padded = 0, cap;
    if (perm_out) *perm_out = NULL;
    if (st != SPMV_OK) return st;
    if (p->variant < SPMV_ELL_PLAIN || p->variant > SPMV_ELL_SELL || p->c < 0 || p->sigma < 0 || p->fill < 0)
        return SPMV_ERR_ARG;
    if (p->variant <= SPMV_ELL_R) p->c = 0, p->sigma = 1;
    else if (p->c == 0) p->c = spmv__ell_native_c(p->isa, sizeof(SPMV_T));
    if (p->variant == SPMV_ELL_HLL) p->sigma = 1;
    if (p->sigma == 0) p->sigma = (int)(32 * (int64_t)p->c < (1 << 30) ? 32 * p->c : 1 << 30);
    if (p->fill == 0) p->fill = 10;
    C = p->variant <= SPMV_ELL_R ? (n > 0 ? n : 1) : (SPMV_I)p->c;
    if (p->variant == SPMV_ELL_SELL && p->sigma > 1 && n > 1) { /* rows by length in each window */
        SPMV_I w0, *key = SPMV_ALLOC_N(SPMV_I, 2 * (size_t)n);
        perm = SPMV_ALLOC_N(SPMV_I, n);
        if (!perm || !key) {
            spmv__free(perm);
            spmv__free(key);
            return SPMV_ERR_ALLOC;
        }
        for (i = 0; i < n; i++) key[2 * i] = rp[i + 1] - rp[i], key[2 * i + 1] = i;
        for (w0 = 0; w0 < n; w0 += (SPMV_I)p->sigma) { /* (length desc, row asc): a stable order */
            SPMV_I w1 = (int64_t)w0 + p->sigma < (int64_t)n ? w0 + (SPMV_I)p->sigma : n;
            qsort(key + 2 * w0, (size_t)(w1 - w0), 2 * sizeof(SPMV_I), SPMV_NAME(ell__cmp));
        }
        for (i = 0; i < n; i++) perm[i] = key[2 * i + 1];
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
            if (len > wmax) wmax = len;
        }
        padded += (uint64_t)h * (uint64_t)wmax;
    }
    cap = (uint64_t)p->fill * (uint64_t)B->nnz + 4096u;
    if (padded > cap || padded >= (uint64_t)SPMV_IMAX ||
        padded > spmv__ell_phys_bytes() / 2 / (sizeof(SPMV_I) + sizeof(SPMV_T))) {
        spmv__free(perm);
        return SPMV_ERR_LIMIT;
    }
    if (perm_out) *perm_out = perm;
    else spmv__free(perm);
    if (padded_out) *padded_out = padded;
    return SPMV_OK;
}

/* From CSR (columns in CSR order, unsorted allowed). Errors: SPMV_ERR_ARG (malformed CSR, bad
 * parameters), SPMV_ERR_OVERFLOW, SPMV_ERR_ISA, SPMV_ERR_LIMIT (the caps above),
 * SPMV_ERR_ALLOC. On failure *A is left empty. */
static inline spmv_status SPMV_NAME(ell__from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, spmv_ell_params prm) {
    spmv_status st;
    uint64_t padded = 0;
    SPMV_I *perm = NULL, C, ns, s, i;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(ell__plan)(B, &prm, &perm, &padded);
    if (st != SPMV_OK) return st;
    C = prm.variant <= SPMV_ELL_R ? (B->nrows > 0 ? B->nrows : 1) : (SPMV_I)prm.c;
    ns = B->nrows > 0 ? (SPMV_I)(((int64_t)B->nrows + C - 1) / C) : 0;
    A->perm = perm;
    A->slice_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)ns + 1);
    A->col = SPMV_ALLOC_N(SPMV_I, (size_t)padded);
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)padded);
    A->rowlen = SPMV_ALLOC_N(SPMV_I, B->nrows);
    if (!A->slice_ptr || !A->col || !A->val || !A->rowlen) {
        SPMV_NAME(ell_free)(A);
        return SPMV_ERR_ALLOC;
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->C = C;
    A->nslices = ns;
    A->params = prm;
    A->slice_ptr[0] = 0;
    for (s = 0; s < ns; s++) {
        SPMV_I r0 = s * C, h = B->nrows - r0 < C ? B->nrows - r0 : C, wmax = 0;
        for (i = r0; i < r0 + h; i++) {
            SPMV_I r = perm ? perm[i] : i, len = B->row_ptr[r + 1] - B->row_ptr[r];
            A->rowlen[i] = len;
            if (len > wmax) wmax = len;
        }
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
                A->val[q] = j < len ? B->val[b + j] : (SPMV_T)0;
            }
        }
    }
    return SPMV_OK;
}
static inline spmv_status SPMV_NAME(ell_from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, const spmv_ell_params *p) {
    spmv_ell_params q = p ? *p : spmv_ell_params_default();
    q.variant = SPMV_ELL_PLAIN;
    return SPMV_NAME(ell__from_csr)(A, B, q);
}
static inline spmv_status SPMV_NAME(ellr_from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, const spmv_ell_params *p) {
    spmv_ell_params q = p ? *p : spmv_ellr_params_default();
    q.variant = SPMV_ELL_R;
    return SPMV_NAME(ell__from_csr)(A, B, q);
}
static inline spmv_status SPMV_NAME(hll_from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, const spmv_ell_params *p) {
    spmv_ell_params q = p ? *p : spmv_hll_params_default();
    q.variant = SPMV_ELL_HLL;
    return SPMV_NAME(ell__from_csr)(A, B, q);
}
static inline spmv_status SPMV_NAME(sell_from_csr)(SPMV_NAME(ell) *A, const SPMV_NAME(csr) *B, const spmv_ell_params *p) {
    spmv_ell_params q = p ? *p : spmv_sell_params_default();
    q.variant = SPMV_ELL_SELL;
    return SPMV_NAME(ell__from_csr)(A, B, q);
}

/* 1 when converting B to variant p (defaults filled in) must give SPMV_ERR_LIMIT (tests). */
static inline int SPMV_NAME(ell_limited)(const SPMV_NAME(csr) *B, const spmv_ell_params *p, spmv_isa isa) {
    spmv_ell_params q = *p;
    if (isa != SPMV_ISA_AUTO) q.isa = isa;
    return SPMV_NAME(csr_check)(B) == SPMV_OK && SPMV_NAME(ell__plan)(B, &q, NULL, NULL) == SPMV_ERR_LIMIT;
}

/* Back to CSR, rows in their original order (exactly the input of the conversion). */
static inline spmv_status SPMV_NAME(ell_to_csr)(const SPMV_NAME(ell) *A, SPMV_NAME(csr) *B) {
    SPMV_I s, i, r;
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
    for (r = 0; r < A->nrows; r++) B->row_ptr[r + 1] += B->row_ptr[r];
    for (s = 0; s < A->nslices; s++) {
        const SPMV_I r0 = s * A->C, h = A->nrows - r0 < A->C ? A->nrows - r0 : A->C, off = A->slice_ptr[s];
        SPMV_I li, j;
        for (li = 0; li < h; li++) {
            const SPMV_I row = A->perm ? A->perm[r0 + li] : r0 + li, b = B->row_ptr[row];
            for (j = 0; j < A->rowlen[r0 + li]; j++) {
                B->col_idx[b + j] = A->col[off + j * h + li];
                B->val[b + j] = A->val[off + j * h + li];
            }
        }
    }
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = A->params.isa;
    return SPMV_OK;
}
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_KERNELS)
/* Rows [i0, i1) of slice s (i0 a multiple of W), in blocks of up to SPMV__ELL_RB vectors of
 * W rows: for each column j, every vector of the block (j outer: a slice as tall as ELL's,
 * where column j of a vector is nrows values after column j-1, would otherwise touch a new
 * page at every step; the block's accumulators stay in L1). Every lane runs to its own row's
 * length: unmasked up to the vector's shortest row, then masked, the mask recomputed only
 * where a lane's row ends (the padding is never multiplied: 0*x is NaN for x = Inf). */
#ifndef SPMV__ELL_RB
#define SPMV__ELL_RB 32
#endif
SPMV_KTARGET static inline void SPMV_K(ell__rows)(const SPMV_NAME(ell) *A, SPMV_T alpha, const SPMV_T *SPMV_RESTRICT x,
                                                  SPMV_T beta, SPMV_T *SPMV_RESTRICT y, SPMV_I s, SPMV_I i0, SPMV_I i1) {
    const SPMV_I r0 = s * A->C, h = A->nrows - r0 < A->C ? A->nrows - r0 : A->C, off = A->slice_ptr[s];
    const spmv_v va = V_set1(alpha), vb = V_set1(beta);
    SPMV_T accb[SPMV__ELL_RB * SPMV_W];
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
        if (nv == 1) { /* one vector (hll, sell with C = W): its sums stay in registers */
            const SPMV_T *pv = A->val + off + b0;
            const SPMV_I *pc = A->col + off + b0, *len = A->rowlen + r0 + b0;
            spmv_v a0 = V_zero(), a1 = V_zero();
            j = 0;
            if (full[0] == V_mask_first(SPMV_W)) {
                for (; j + 1 < lmin[0]; j += 2) {
                    a0 = V_fma(V_loadu(pv + j * h), V_gather(x, pc + j * h), a0);
                    a1 = V_fma(V_loadu(pv + (j + 1) * h), V_gather(x, pc + (j + 1) * h), a1);
                }
            }
            for (; j < lmax[0]; j++) {
                if (j >= nextc[0]) {
                    unsigned m = 0;
                    SPMV_I nc = lmax[0];
                    for (l = 0; l < SPMV_W; l++)
                        if (((full[0] >> l) & 1u) && len[l] > j) {
                            m |= 1u << l;
                            if (len[l] < nc) nc = len[l];
                        }
                    msk[0] = m;
                    nextc[0] = nc;
                }
                a0 = V_fma(V_mload(msk[0], pv + j * h), V_mgather(msk[0], x, pc + j * h), a0);
            }
            V_storeu(accb, V_add(a0, a1));
            L = 0; /* done */
        }
        for (j = 0; j < L; j++) {
            const SPMV_T *pv = A->val + off + j * h + b0;
            const SPMV_I *pc = A->col + off + j * h + b0;
            for (v = 0; v < nv; v++) {
                SPMV_T *pa = accb + v * SPMV_W;
                if (j >= lmax[v]) continue;
                if (j < lmin[v] && full[v] == V_mask_first(SPMV_W)) {
                    V_storeu(pa, V_fma(V_loadu(pv + v * SPMV_W), V_gather(x, pc + v * SPMV_W), V_loadu(pa)));
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
                V_storeu(pa, V_fma(V_mload(msk[v], pv + v * SPMV_W), V_mgather(msk[v], x, pc + v * SPMV_W), V_loadu(pa)));
            }
        }
        for (v = 0; v < nv; v++) {
            const SPMV_I i = b0 + (SPMV_I)v * SPMV_W;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            const spmv_v acc = V_loadu(accb + v * SPMV_W);
            spmv_v out;
            if (!A->perm) {
                SPMV_T *py = y + r0 + i;
                if (n == SPMV_W) {
                    out = beta == (SPMV_T)0 ? V_mul(va, acc) : V_fma(vb, V_loadu(py), V_mul(va, acc));
                    V_storeu(py, out);
                } else {
                    out = beta == (SPMV_T)0 ? V_mul(va, acc) : V_fma(vb, V_mload(full[v], py), V_mul(va, acc));
                    V_mstore(py, full[v], out);
                }
            } else { /* sell: scattered through the permutation */
                const SPMV_T *t = accb + v * SPMV_W;
                for (l = 0; l < n; l++) {
                    const SPMV_I r = A->perm[r0 + i + l];
                    y[r] = beta == (SPMV_T)0 ? alpha * t[l] : alpha * t[l] + beta * y[r];
                }
            }
        }
    }
}

SPMV_KTARGET static inline void SPMV_K(ell_run)(const SPMV_NAME(ell) *A, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                                SPMV_T *y) {
    const SPMV_I ns = A->nslices, np = A->slice_ptr[ns];
    int nt = np >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt; /* unused without OpenMP */
    if (ns == 0) return;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int tid = spmv__tid(), nth = spmv__nthr();
        if (ns == 1) { /* ell, ellr: equal row ranges, aligned to the vector */
            const SPMV_I h = A->nrows, nv = (h + SPMV_W - 1) / SPMV_W;
            SPMV_I a = (SPMV_I)((int64_t)nv * tid / nth) * SPMV_W, b = (SPMV_I)((int64_t)nv * (tid + 1) / nth) * SPMV_W;
            if (b > h) b = h;
            if (a < b) SPMV_K(ell__rows)(A, alpha, x, beta, y, 0, a, b);
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
            for (; s < s1; s++) {
                const SPMV_I h = A->nrows - s * A->C < A->C ? A->nrows - s * A->C : A->C;
                SPMV_K(ell__rows)(A, alpha, x, beta, y, s, 0, h);
            }
        }
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y. beta == 0: y is written, never read. */
static inline spmv_status SPMV_NAME(ell_mv)(const SPMV_NAME(ell) *A, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                            SPMV_T *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_T))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(ell_run), (A, alpha, x, beta, y));
    return st;
}

/* one product of the tuner's candidate (spmv__median_seconds' callback) */
typedef struct SPMV_NAME(ell__tune_ctx) {
    const SPMV_NAME(ell) * M;
    const SPMV_T *x;
    SPMV_T *y;
} SPMV_NAME(ell__tune_ctx);
static inline void SPMV_NAME(ell__tune_run)(void *c) {
    SPMV_NAME(ell__tune_ctx) *t = (SPMV_NAME(ell__tune_ctx) *)c;
    SPMV_NAME(ell_mv)(t->M, (SPMV_T)1, t->x, (SPMV_T)0, t->y);
}

/* Times products of the conversions of A with each candidate; *best gets the fastest
 * (the first candidate keeps its place unless another is 5% faster). */
static inline spmv_status SPMV_NAME(ell__tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, const int *cand,
                                               int ncand, int key_sigma, double *seconds_spent) {
    const double t_start = spmv_wtime();
    spmv_ell_params base = *best;
    double best_t = -1;
    SPMV_T *x, *y;
    SPMV_I i;
    int c;
    spmv_status st = SPMV_OK;
    x = SPMV_ALLOC_N(SPMV_T, A->ncols);
    y = SPMV_ALLOC_N(SPMV_T, A->nrows);
    if (!x || !y) {
        spmv__free(x);
        spmv__free(y);
        return SPMV_ERR_ALLOC;
    }
    for (i = 0; i < A->ncols; i++) x[i] = (SPMV_T)1 + (SPMV_T)(i % 7) * (SPMV_T)0.125;
    for (c = 0; c < ncand && (c == 0 || A->nnz > 0); c++) {
        SPMV_NAME(ell) M;
        spmv_ell_params p = base;
        SPMV_NAME(ell__tune_ctx) tc;
        double med;
        if (key_sigma) p.sigma = cand[c];
        else p.c = cand[c];
        st = SPMV_NAME(ell__from_csr)(&M, A, p);
        if (st == SPMV_ERR_LIMIT && c > 0) {
            st = SPMV_OK;
            continue;
        }
        if (st != SPMV_OK) break;
        tc.M = &M, tc.x = x, tc.y = y;
        med = spmv__median_seconds(SPMV_NAME(ell__tune_run), &tc, 2e-4);
        if (best_t < 0 || med < 0.95 * best_t) { /* the first keeps its place unless 5% slower */
            best_t = med;
            *best = M.params;
        }
        SPMV_NAME(ell_free)(&M);
    }
    spmv__free(x);
    spmv__free(y);
    if (seconds_spent) *seconds_spent = spmv_wtime() - t_start;
    return st;
}
/* hll: the hack size (the vector width first, then multiples of it) */
static inline spmv_status SPMV_NAME(hll_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    spmv_ell_params b = best ? *best : spmv_hll_params_default();
    int cand[5], w;
    spmv_status st;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    st = spmv_isa_resolve(b.isa, &b.isa);
    if (st != SPMV_OK) return st;
    b.variant = SPMV_ELL_HLL;
    w = spmv__ell_native_c(b.isa, sizeof(SPMV_T));
    cand[0] = w, cand[1] = 2 * w, cand[2] = 4 * w, cand[3] = 8 * w, cand[4] = 32 * w;
    *best = b;
    return SPMV_NAME(ell__tune)(A, best, cand, 5, 0, seconds_spent);
}
/* sell: sigma (C the vector width): none, a few chunks, many, the whole matrix */
static inline spmv_status SPMV_NAME(sell_tune)(const SPMV_NAME(csr) *A, spmv_ell_params *best, double *seconds_spent) {
    spmv_ell_params b = best ? *best : spmv_sell_params_default();
    int cand[5], c;
    spmv_status st;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    st = spmv_isa_resolve(b.isa, &b.isa);
    if (st != SPMV_OK) return st;
    b.variant = SPMV_ELL_SELL;
    c = b.c ? b.c : spmv__ell_native_c(b.isa, sizeof(SPMV_T));
    b.c = c;
    cand[0] = 32 * c, cand[1] = 1, cand[2] = 4 * c, cand[3] = 256 * c,
    cand[4] = A->nrows > 1 ? (int)(A->nrows < (1 << 30) ? A->nrows : (1 << 30)) : 1;
    *best = b;
    return SPMV_NAME(ell__tune)(A, best, cand, 5, 1, seconds_spent);
}
#endif /* SPMV_PART_API */
