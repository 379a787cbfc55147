/* DIA family — the diagonal formats (the GPGPU survey, seeds/001: DIA, Algorithm 2.5, and
 * the hacked DIA "HDI"; NOTES.md "Classic formats"): registry rows dia, hdia. One layout,
 * hacked DIA:
 *   rows are cut into nhacks hacks of H consecutive rows (the last may be shorter:
 *   h_rows = min(H, nrows - h*H)); hack h is its own DIA matrix with its own diagonals
 *   off[hd[h] .. hd[h+1]) (column - row, ascending); diagonal dl of hack h stores the
 *   entries of its rows on that diagonal, dense, row by row:
 *       val[hd[h]*H + dl*h_rows + i]   = A(h*H + i, h*H + i + off[hd[h] + dl])
 *   (every hack before h has H rows, so hd[h]*H is where hack h starts: no pointer array);
 *   bits: bit i%64 of bits[(hd[h] + dl)*MW + i/64], MW = ceil(H/64) words per diagonal,
 *   says that the slot holds an entry of the matrix. Slots without one (fill inside the
 *   band, or a column outside the matrix at the ends of a diagonal) hold 0 and are never
 *   multiplied: 0*x[j] would be NaN for x[j] = +-Inf, and an explicit zero of the matrix
 *   (its bit set) must stay one through _to_csr.
 * The rows:
 *   dia   H = nrows: one hack, the survey's DIA (val[dl*nrows + i]).
 *   hdia  H = hs rows per hack (default 64: one word of bits per hack diagonal; the device
 *         default is a warp, 32); a diagonal that only a few rows touch costs only their
 *         hacks (the survey's remedy for DIA's fill, and for y's reuse across diagonals).
 * Footprint: (nhacks+1)*I + ndiags*I + padded*T + ndiags*MW*8 bytes, padded = sum over hacks
 *   of ndiags_h*h_rows; no column indices: ~8 bytes per entry in double on banded
 *   matrices instead of CSR's 12.
 * Duplicates (a wrapped CSR may repeat a column in a row) are summed into one slot, so nnz
 * and _to_csr count distinct entries; _to_csr gives each row's columns ascending.
 * Limit: SPMV_ERR_LIMIT, before the layout is allocated (the count needs two arrays of
 * nrows+ncols indices), when padded exceeds params.fill * nnz + 4096 slots (fill default 10,
 * as ELL's), the index type, or half of the physical memory: a matrix whose entries lie on
 * many diagonals (a dense row has ncols of them) is refused, not allocated.
 * CPU kernels (once against the SIMD vocabulary):
 *   dia: groups of 4 vectors of W rows, their sums in registers over every diagonal, plain
 *   loads of val and of x at row + offset (no indices, no gathers, no presence bits: padding
 *   holds 0, and a group whose sums are not all finite is redone by the exact kernel), the
 *   diagonals' next runs prefetched in software (dia__rows);
 *   hdia (and dia's exact path): blocks of up to 32 vectors of a hack, diagonal outer (a
 *   hack's diagonals are read front to back; the block's sums in L1), for each vector the W
 *   bits of the diagonal: all set, plain loads; none, skipped; else x's load masked (the
 *   masked lanes' memory is not touched, which is what keeps x's ends safe) and the values
 *   loaded whole, their padded slots' +0 meeting x's masked 0 (dia__rows_exact).
 *   y written once per vector: y = alpha*sum + beta*y, never read when beta == 0.
 * OpenMP: dia's one hack in equal row ranges (multiples of 64); hdia's hacks by equal
 * shares of the stored slots. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_DIA_COMMON
#define SPMV_DIA_COMMON
#define SPMV_LIMITED_dia 1 /* the family has a documented size cap (tests/format_case.h) */
typedef enum spmv_dia_variant { SPMV_DIA_PLAIN = 0, SPMV_DIA_HACKED = 1 } spmv_dia_variant;
typedef struct spmv_dia_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int variant;  /* spmv_dia_variant: set by the row's default */
    int hs;       /* hdia: rows per hack; 0: 64 */
    int fill;     /* SPMV_ERR_LIMIT above fill*nnz + 4096 stored slots; 0: 10 */
} spmv_dia_params;
typedef spmv_dia_params spmv_hdia_params;
static inline spmv_dia_params spmv__dia_params_of(int variant) {
    spmv_dia_params p;
    p.isa = SPMV_ISA_AUTO;
    p.variant = variant;
    p.hs = 0;
    p.fill = 0;
    return p;
}
static inline spmv_dia_params spmv_dia_params_default(void) { return spmv__dia_params_of(SPMV_DIA_PLAIN); }
static inline spmv_dia_params spmv_hdia_params_default(void) { return spmv__dia_params_of(SPMV_DIA_HACKED); }
#define SPMV__DIA_FILL_KEY                                                                                       \
    {"fill", offsetof(spmv_dia_params, fill), SPMV_PK_INT, 0, 1 << 20, NULL,                                     \
     "refuse (SPMV_ERR_LIMIT) above fill*nnz+4096 stored slots (0: 10)"}
static const spmv_param_key spmv__dia_keys[] = {SPMV__DIA_FILL_KEY, {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const spmv_param_key spmv__hdia_keys[] = {
    {"hs", offsetof(spmv_dia_params, hs), SPMV_PK_INT, 0, 1 << 20, NULL, "rows per hack (0: 64)"},
    SPMV__DIA_FILL_KEY,
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static inline int spmv__dia_cmp64(const void *a, const void *b) {
    const int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    return p < q ? -1 : p > q;
}
#endif

typedef struct SPMV_NAME(dia) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I H, nhacks, ndiags; /* rows per hack, hacks, diagonals over all hacks */
    SPMV_I *hd;               /* nhacks+1: hack h's diagonals are [hd[h], hd[h+1]) */
    SPMV_I *off;              /* ndiags: column - row, ascending within a hack */
    SPMV_T *val;              /* the stored slots */
    uint64_t *bits;           /* ndiags * MW words: which slots hold entries */
    spmv_dia_params params;   /* isa, hs, fill resolved after conversion */
} SPMV_NAME(dia);

/* words of bits per diagonal */
static inline int64_t SPMV_NAME(dia__mw)(const SPMV_NAME(dia) *A) { return ((int64_t)A->H + 63) / 64; }
/* stored slots */
static inline int64_t SPMV_NAME(dia__padded)(const SPMV_NAME(dia) *A) {
    int64_t last;
    if (!A->hd || A->nhacks == 0) return 0;
    last = (int64_t)A->nrows - (int64_t)(A->nhacks - 1) * A->H;
    return (int64_t)A->hd[A->nhacks - 1] * A->H + (int64_t)(A->hd[A->nhacks] - A->hd[A->nhacks - 1]) * last;
}
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(dia_free)(SPMV_NAME(dia) *A);
SPMV_API int64_t SPMV_NAME(dia_stored)(const SPMV_NAME(dia) *A);
SPMV_API size_t SPMV_NAME(dia_bytes)(const SPMV_NAME(dia) *A);
SPMV_API spmv_status SPMV_NAME(dia_from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, const spmv_dia_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(hdia_from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, const spmv_dia_params *p,
        spmv_error *e);
SPMV_API int SPMV_NAME(dia_limited)(const SPMV_NAME(csr) *B, const spmv_dia_params *p, spmv_isa isa);
SPMV_API spmv_status SPMV_NAME(dia_to_csr)(const SPMV_NAME(dia) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(dia_mv)(const SPMV_NAME(dia) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(hdia_tune)(const SPMV_NAME(csr) *A, spmv_dia_params *best, double *seconds_spent);
/* the family's builder with the variant in prm (the rows' converters, the device upload) */
SPMV_API spmv_status SPMV_NAME(dia__from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, spmv_dia_params prm);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(dia_free)(SPMV_NAME(dia) *A) {
    if (!A) return;
    spmv__free(A->hd);
    spmv__free(A->off);
    spmv__free(A->val);
    spmv__free(A->bits);
    memset(A, 0, sizeof *A);
}
/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(dia_stored)(const SPMV_NAME(dia) *A) { return SPMV_NAME(dia__padded)(A); }
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(dia__values)(SPMV_NAME(dia) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = SPMV_NAME(dia__padded)(A);
    return 1;
}
SPMV_API size_t SPMV_NAME(dia_bytes)(const SPMV_NAME(dia) *A) {
    return ((size_t)A->nhacks + 1 + (size_t)A->ndiags) * sizeof(SPMV_I) +
           (size_t)SPMV_NAME(dia__padded)(A) * sizeof(SPMV_T) + (size_t)A->ndiags * (size_t)SPMV_NAME(dia__mw)(A) * 8u;
}

/* Resolves p, counts the diagonals of every hack into *hd_out (nhacks+1 entries, prefix
 * sums; NULL wanted: only the verdict) and the stored slots. SPMV_ERR_LIMIT past the caps. */
static inline spmv_status SPMV_NAME(dia__plan)(const SPMV_NAME(csr) *B, spmv_dia_params *p, SPMV_I **hd_out,
                                               int64_t *padded_out) {
    const SPMV_I n = B->nrows, m = B->ncols;
    spmv_status st = SPMV_ISA_FOR(p->variant == SPMV_DIA_HACKED ? SPMV_FMT_HDIA : SPMV_FMT_DIA, p->isa, &p->isa);
    int64_t H, nh, h, padded = 0, nd = 0, cap, span;
    SPMV_I *hd = NULL, *mark;
    if (hd_out) *hd_out = NULL;
    if (st != SPMV_OK) return st;
    if (p->variant < SPMV_DIA_PLAIN || p->variant > SPMV_DIA_HACKED || p->hs < 0 || p->fill < 0) return SPMV_ERR_ARG;
    if (p->variant == SPMV_DIA_PLAIN) p->hs = 0;
    else if (p->hs == 0) p->hs = 64;
    if (p->fill == 0) p->fill = 10;
    H = p->variant == SPMV_DIA_PLAIN ? (n > 0 ? n : 1) : p->hs;
    nh = n > 0 ? ((int64_t)n + H - 1) / H : 0;
    span = (int64_t)n + m; /* offsets -(n-1) .. m-1, shifted by n-1 */
    mark = SPMV_ALLOC_N(SPMV_I, (size_t)span);
    hd = SPMV_ALLOC_N(SPMV_I, (size_t)nh + 1);
    if (!mark || !hd) {
        spmv__free(mark);
        spmv__free(hd);
        return SPMV_ERR_ALLOC;
    }
    for (h = 0; h < span; h++) mark[h] = -1;
    hd[0] = 0;
    for (h = 0; h < nh; h++) { /* distinct diagonals of hack h: mark[offset] = h */
        const int64_t r0 = h * H, r1 = r0 + H < n ? r0 + H : n;
        int64_t r, k, c = 0;
        for (r = r0; r < r1; r++)
            for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
                const int64_t o = (int64_t)B->col_idx[k] - r + n - 1;
                if (mark[o] != (SPMV_I)h) mark[o] = (SPMV_I)h, c++;
            }
        nd += c;
        padded += c * (r1 - r0);
        hd[h + 1] = (SPMV_I)nd;
    }
    spmv__free(mark);
    cap = (int64_t)p->fill * (int64_t)B->nnz + 4096;
    if (padded > cap || padded >= SPMV_IMAX ||
        (uint64_t)padded > spmv__phys_bytes() / 2 / (sizeof(SPMV_T) + 1)) {
        spmv__free(hd);
        return SPMV_ERR_LIMIT;
    }
    if (hd_out) *hd_out = hd;
    else spmv__free(hd);
    if (padded_out) *padded_out = padded;
    return SPMV_OK;
}

/* From CSR (any column order; duplicates summed). Errors: SPMV_ERR_ARG (malformed CSR, bad
 * parameters), SPMV_ERR_OVERFLOW, SPMV_ERR_ISA, SPMV_ERR_LIMIT, SPMV_ERR_ALLOC. On failure
 * *A is left empty. */
SPMV_API spmv_status SPMV_NAME(dia__from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, spmv_dia_params prm) {
    spmv_status st;
    int64_t padded = 0, H, nh, h, span, mw, nnz = 0;
    SPMV_I *hd = NULL, *mark = NULL, *slot = NULL;
    int64_t *tmp = NULL;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(dia__plan)(B, &prm, &hd, &padded);
    if (st != SPMV_OK) return st;
    H = prm.variant == SPMV_DIA_PLAIN ? (B->nrows > 0 ? B->nrows : 1) : prm.hs;
    nh = B->nrows > 0 ? ((int64_t)B->nrows + H - 1) / H : 0;
    mw = (H + 63) / 64;
    span = (int64_t)B->nrows + B->ncols;
    A->hd = hd;
    A->off = SPMV_ALLOC_N(SPMV_I, hd[nh]);
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)padded);
    A->bits = SPMV_ALLOC_N(uint64_t, (size_t)hd[nh] * (size_t)mw);
    mark = SPMV_ALLOC_N(SPMV_I, (size_t)span);
    slot = SPMV_ALLOC_N(SPMV_I, (size_t)span);
    tmp = SPMV_ALLOC_N(int64_t, (size_t)hd[nh]);
    if (!A->off || !A->val || !A->bits || !mark || !slot || !tmp) {
        spmv__free(mark);
        spmv__free(slot);
        spmv__free(tmp);
        SPMV_NAME(dia_free)(A);
        return SPMV_ERR_ALLOC;
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->H = (SPMV_I)H;
    A->nhacks = (SPMV_I)nh;
    A->ndiags = hd[nh];
    A->params = prm;
    memset(A->val, 0, sizeof(SPMV_T) * (size_t)padded);
    memset(A->bits, 0, sizeof(uint64_t) * (size_t)hd[nh] * (size_t)mw);
    for (h = 0; h < span; h++) mark[h] = -1;
    for (h = 0; h < nh; h++) {
        const int64_t r0 = h * H, r1 = r0 + H < B->nrows ? r0 + H : B->nrows, hr = r1 - r0, d0 = hd[h];
        const int64_t nd = hd[h + 1] - d0, vb = d0 * H;
        int64_t r, k, c = 0, dl;
        for (r = r0; r < r1; r++) /* the hack's diagonals, ascending */
            for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
                const int64_t o = (int64_t)B->col_idx[k] - r;
                if (mark[o + B->nrows - 1] != (SPMV_I)h) mark[o + B->nrows - 1] = (SPMV_I)h, tmp[d0 + c++] = o;
            }
        qsort(tmp + d0, (size_t)nd, sizeof(int64_t), spmv__dia_cmp64);
        for (dl = 0; dl < nd; dl++) {
            A->off[d0 + dl] = (SPMV_I)tmp[d0 + dl];
            slot[tmp[d0 + dl] + B->nrows - 1] = (SPMV_I)dl;
        }
        for (r = r0; r < r1; r++)
            for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
                const int64_t dl2 = slot[(int64_t)B->col_idx[k] - r + B->nrows - 1], i = r - r0;
                const int64_t q = vb + dl2 * hr + i, w = (d0 + dl2) * mw + i / 64;
                const uint64_t bit = (uint64_t)1 << (i % 64);
                if (A->bits[w] & bit) {
                    A->val[q] = SPMV_VT(SPMV_TV(A->val[q]) + SPMV_TV(B->val[k])); /* a duplicate column */
                } else {
                    A->val[q] = B->val[k];
                    A->bits[w] |= bit;
                    nnz++;
                }
            }
    }
    A->nnz = (SPMV_I)nnz;
    spmv__free(mark);
    spmv__free(slot);
    spmv__free(tmp);
    return SPMV_OK;
}
/* the rows' converters: the family's builder with the row's variant */
SPMV_API spmv_status SPMV_NAME(dia_from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, const spmv_dia_params *p,
                                             spmv_error *e) {
    spmv_dia_params q = p ? *p : spmv_dia_params_default();
    q.variant = SPMV_DIA_PLAIN;
    return spmv__built(e, SPMV_NAME(dia__from_csr)(A, B, q), "dia_from_csr", NULL);
}
SPMV_API spmv_status SPMV_NAME(hdia_from_csr)(SPMV_NAME(dia) *A, const SPMV_NAME(csr) *B, const spmv_dia_params *p,
                                              spmv_error *e) {
    spmv_dia_params q = p ? *p : spmv_hdia_params_default();
    q.variant = SPMV_DIA_HACKED;
    return spmv__built(e, SPMV_NAME(dia__from_csr)(A, B, q), "hdia_from_csr", NULL);
}

/* 1 when converting B with p (defaults filled in) must give SPMV_ERR_LIMIT (tests). */
SPMV_API int SPMV_NAME(dia_limited)(const SPMV_NAME(csr) *B, const spmv_dia_params *p, spmv_isa isa) {
    spmv_dia_params q = *p;
    if (isa != SPMV_ISA_AUTO) q.isa = isa;
    return SPMV_NAME(csr_check)(B) == SPMV_OK && SPMV_NAME(dia__plan)(B, &q, NULL, NULL) == SPMV_ERR_LIMIT;
}

/* Back to CSR: each row's entries by ascending column (the input's order when it was
 * sorted, as csr_from_triplets makes it). */
SPMV_API spmv_status SPMV_NAME(dia_to_csr)(const SPMV_NAME(dia) *A, SPMV_NAME(csr) *B) {
    int64_t h, mw;
    SPMV_I r, *cur;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A || (A->nrows > 0 && (!A->hd || !A->off || !A->val || !A->bits))) return SPMV_ERR_ARG;
    mw = SPMV_NAME(dia__mw)(A);
    B->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
    B->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    cur = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
    if (!B->row_ptr || !B->col_idx || !B->val || !cur) {
        spmv__free(cur);
        SPMV_NAME(csr_free)(B);
        return SPMV_ERR_ALLOC;
    }
    memset(B->row_ptr, 0, sizeof(SPMV_I) * ((size_t)A->nrows + 1));
    for (h = 0; h < A->nhacks; h++) {
        const int64_t r0 = h * A->H, hr = A->nrows - r0 < A->H ? A->nrows - r0 : A->H;
        int64_t d, i;
        for (d = A->hd[h]; d < A->hd[h + 1]; d++)
            for (i = 0; i < hr; i++)
                if ((A->bits[d * mw + i / 64] >> (i % 64)) & 1u) B->row_ptr[r0 + i + 1]++;
    }
    for (r = 0; r < A->nrows; r++) B->row_ptr[r + 1] += B->row_ptr[r];
    memcpy(cur, B->row_ptr, sizeof(SPMV_I) * ((size_t)A->nrows + 1));
    for (h = 0; h < A->nhacks; h++) { /* diagonals ascending: each row's columns ascending */
        const int64_t r0 = h * A->H, hr = A->nrows - r0 < A->H ? A->nrows - r0 : A->H, vb = (int64_t)A->hd[h] * A->H;
        int64_t d, i;
        for (d = A->hd[h]; d < A->hd[h + 1]; d++)
            for (i = 0; i < hr; i++)
                if ((A->bits[d * mw + i / 64] >> (i % 64)) & 1u) {
                    const SPMV_I q = cur[r0 + i]++;
                    B->col_idx[q] = (SPMV_I)(r0 + i + A->off[d]);
                    B->val[q] = A->val[vb + (d - A->hd[h]) * hr + i];
                }
    }
    spmv__free(cur);
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = A->params.isa;
    return SPMV_OK;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
#ifndef SPMV__DIA_RB
#define SPMV__DIA_RB 32
#endif
/* Rows [i0, i1) of hack h (i0 a multiple of W, so a vector's W bits lie in one word), every
 * slot weighed by its presence bit: hdia's kernel, and plain DIA's exact path for the groups
 * whose fast sums (below) were not finite. */
SPMV_KTARGET static inline void SPMV_K(dia__rows_exact)(const SPMV_NAME(dia) *A, SPMV_Y alpha, const SPMV_Y *SPMV_RESTRICT x,
                                                  SPMV_Y beta, SPMV_Y *SPMV_RESTRICT y, int64_t h, int64_t i0,
                                                  int64_t i1) {
    const int64_t H = A->H, r0 = h * H, hr = A->nrows - r0 < H ? A->nrows - r0 : H, d0 = A->hd[h];
    const int64_t nd = A->hd[h + 1] - d0, vb = d0 * H, mw = (H + 63) / 64;
    const spmv_v va = V_set1(alpha), vb_ = V_set1(beta);
    SPMV_Y accb[SPMV__DIA_RB * SPMV_W];
    int64_t b0;
    for (b0 = i0; b0 < i1; b0 += (int64_t)SPMV__DIA_RB * SPMV_W) {
        const int64_t b1 = i1 - b0 < (int64_t)SPMV__DIA_RB * SPMV_W ? i1 : b0 + (int64_t)SPMV__DIA_RB * SPMV_W;
        const int nv = (int)((b1 - b0 + SPMV_W - 1) / SPMV_W);
        int64_t dl;
        int v;
        for (v = 0; v < nv; v++) V_storeu(accb + v * SPMV_W, V_zero());
        for (dl = 0; dl < nd; dl++) {
            const int64_t o = A->off[d0 + dl];
            const SPMV_T *pv = A->val + vb + dl * hr;
            const SPMV_Y *px = x + (r0 + o);
            const uint64_t *pw = A->bits + (d0 + dl) * mw;
            int64_t w, full = 1;
            for (w = b0 / 64; full && w < (b1 + 63) / 64; w++) { /* b0 is a multiple of 64 */
                const int64_t nb = b1 - 64 * w < 64 ? b1 - 64 * w : 64;
                full = nb == 64 ? pw[w] == ~(uint64_t)0 : (pw[w] & (((uint64_t)1 << nb) - 1)) == ((uint64_t)1 << nb) - 1;
            }
            if (full && (b1 - b0) % SPMV_W == 0) { /* every slot of the block holds an entry */
                for (v = 0; v < nv; v++) {
                    const int64_t i = b0 + (int64_t)v * SPMV_W;
                    SPMV_Y *pa = accb + v * SPMV_W;
                    V_storeu(pa, V_fma(V_loadt(pv + i), V_loadu(px + i), V_loadu(pa)));
                }
            } else { /* x masked by the presence bits, without branches on them (a stencil's
                        boundaries change the mask often); a whole vector's values are loaded
                        unmasked: a padded slot holds +0, and its lane adds +0 * +0 either way */
                const int nf = (int)((b1 - b0) / SPMV_W); /* whole vectors; then at most one part */
                for (v = 0; v < nf; v++) {
                    const int64_t i = b0 + (int64_t)v * SPMV_W;
                    const unsigned m = (unsigned)(pw[i / 64] >> (i % 64)) & V_mask_first(SPMV_W);
                    SPMV_Y *pa = accb + v * SPMV_W; /* the masked lanes' x (maybe outside x) is not read */
                    V_storeu(pa, V_fma(V_loadt(pv + i), V_mload(m, px + i), V_loadu(pa)));
                }
                if (nf < nv) {
                    const int64_t i = b0 + (int64_t)nf * SPMV_W;
                    const unsigned m = (unsigned)(pw[i / 64] >> (i % 64)) & V_mask_first((int)(b1 - i));
                    SPMV_Y *pa = accb + nf * SPMV_W;
                    V_storeu(pa, V_fma(V_mloadt(m, pv + i), V_mload(m, px + i), V_loadu(pa)));
                }
            }
        }
        for (v = 0; v < nv; v++) {
            const int64_t i = b0 + (int64_t)v * SPMV_W;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            const spmv_v acc = V_loadu(accb + v * SPMV_W);
            SPMV_Y *py = y + r0 + i;
            if (n == SPMV_W) {
                V_storeu(py, beta == (SPMV_Y)0 ? V_mul(va, acc) : V_fma(vb_, V_loadu(py), V_mul(va, acc)));
            } else {
                const unsigned fm = V_mask_first(n);
                V_mstore(py, fm, beta == (SPMV_Y)0 ? V_mul(va, acc) : V_fma(vb_, V_mload(fm, py), V_mul(va, acc)));
            }
        }
    }
}

/* Rows [i0, i1) of hack h, the fast path: groups of SPMV__DIA_R vectors of W rows whose sums
 * stay in registers over all the hack's diagonals (two loads per FMA, nothing stored until y),
 * and no presence bits: a padded slot holds 0, and 0*x[j] adds an exact 0 (the sum never
 * becomes -0 from +0) unless x[j] is Inf or NaN. So a group whose sums are all finite has
 * exactly the bits of the exact path (same order, the same products of the entries); a group
 * with a non-finite sum is recomputed by dia__rows_exact before y is written (entries with
 * Inf or NaN, or x non-finite in a padded slot's column, cost that group the exact pass).
 * Masks only where a diagonal's columns leave [0, ncols) and on the last vector's rows.
 * Plain DIA streams one run per diagonal, more runs than the hardware prefetchers follow:
 * the group fetches each run's line SPMV__DIA_PF groups ahead itself. hdia keeps the
 * diagonal-outer kernel above: a hack's diagonals are one contiguous run, which that order
 * reads front to back (the group order here read it in two strided passes and lost 19-27%
 * beyond the cache, gen:stencil3d n=100/27 and n=150/7, AMD EPYC, 2 threads). */
#ifndef SPMV__DIA_R
#define SPMV__DIA_R 4
#endif
#ifndef SPMV__DIA_PF
#define SPMV__DIA_PF 8
#endif
SPMV_KTARGET static inline void SPMV_K(dia__rows)(const SPMV_NAME(dia) *A, SPMV_Y alpha, const SPMV_Y *SPMV_RESTRICT x,
                                                  SPMV_Y beta, SPMV_Y *SPMV_RESTRICT y, int64_t h, int64_t i0,
                                                  int64_t i1) {
    const int64_t H = A->H, r0 = h * H, hr = A->nrows - r0 < H ? A->nrows - r0 : H, d0 = A->hd[h];
    const int64_t nd = A->hd[h + 1] - d0, vb = d0 * H, nc = A->ncols, G = (int64_t)SPMV__DIA_R * SPMV_W;
    const spmv_v va = V_set1(alpha), vb_ = V_set1(beta), zero = V_zero();
    const SPMV_T *val = A->val + vb;
    const SPMV_I *off = A->off + d0;
    SPMV_Y chk[SPMV_W];
    int64_t b0;
    for (b0 = i0; b0 < i1; b0 += G) {
        const int64_t b1 = i1 - b0 < G ? i1 : b0 + G;
        const int nv = (int)((b1 - b0 + SPMV_W - 1) / SPMV_W);
        spmv_v acc[SPMV__DIA_R], poison = zero;
        int64_t dl;
        int v, l, bad = 0;
        for (v = 0; v < SPMV__DIA_R; v++) acc[v] = zero;
        for (dl = 0; dl < nd; dl++) {
            const SPMV_T *pv = val + dl * hr + b0;
            const int64_t c = r0 + b0 + off[dl]; /* x's column of row b0 on this diagonal */
            const SPMV_Y *px = x + c;
            for (v = 0; v < SPMV__DIA_R; v++) {
                SPMV_PREFETCH(pv + SPMV__DIA_PF * G + (int64_t)v * SPMV_W);
                SPMV_PREFETCH(px + SPMV__DIA_PF * G + (int64_t)v * SPMV_W);
            }
            if (nv == SPMV__DIA_R && b1 - b0 == G && c >= 0 && c + G <= nc) {
                for (v = 0; v < SPMV__DIA_R; v++)
                    acc[v] = V_fma(V_loadt(pv + v * SPMV_W), V_loadu(px + v * SPMV_W), acc[v]);
            } else { /* lanes past the hack's rows or outside x: not read */
                for (v = 0; v < nv; v++) {
                    const int64_t cv = c + (int64_t)v * SPMV_W, rows = b1 - b0 - (int64_t)v * SPMV_W;
                    const int64_t lo = cv < 0 ? -cv : 0, hi0 = nc - cv, hi1 = rows < SPMV_W ? rows : SPMV_W;
                    const int64_t hi = hi0 < hi1 ? hi0 : hi1;
                    unsigned m;
                    if (lo >= hi) continue;
                    m = V_mask_first((int)hi) & ~V_mask_first((int)lo);
                    acc[v] = V_fma(V_mloadt(m, pv + v * SPMV_W), V_mload(m, px + v * SPMV_W), acc[v]);
                }
            }
        }
        for (v = 0; v < nv; v++) poison = V_add(poison, V_mul(acc[v], zero)); /* NaN iff a sum is not finite */
        V_storeu(chk, poison);
        for (l = 0; l < SPMV_W; l++) bad |= chk[l] != (SPMV_Y)0;
        if (bad) {
            SPMV_K(dia__rows_exact)(A, alpha, x, beta, y, h, b0, b1);
            continue;
        }
        for (v = 0; v < nv; v++) {
            const int64_t i = b0 + (int64_t)v * SPMV_W;
            const int n = b1 - i < SPMV_W ? (int)(b1 - i) : SPMV_W;
            SPMV_Y *py = y + r0 + i;
            if (n == SPMV_W) {
                V_storeu(py, beta == (SPMV_Y)0 ? V_mul(va, acc[v]) : V_fma(vb_, V_loadu(py), V_mul(va, acc[v])));
            } else {
                const unsigned fm = V_mask_first(n);
                V_mstore(py, fm, beta == (SPMV_Y)0 ? V_mul(va, acc[v]) : V_fma(vb_, V_mload(fm, py), V_mul(va, acc[v])));
            }
        }
    }
}

SPMV_KTARGET static inline void SPMV_K(dia_run)(const SPMV_NAME(dia) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                SPMV_Y *y) {
    const int64_t nh = A->nhacks, np = SPMV_NAME(dia__padded)(A);
    int nt = np >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt; /* unused without OpenMP */
    if (nh == 0) return;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int tid = spmv__tid(), nth = spmv__nthr();
        if (nh == 1) { /* equal row ranges, in groups of 64 rows (one word of bits) */
            const int64_t n = A->nrows, ng = (n + 63) / 64;
            int64_t a = ng * tid / nth * 64, b = ng * (tid + 1) / nth * 64;
            if (b > n) b = n;
            if (a < b) SPMV_K(dia__rows)(A, alpha, x, beta, y, 0, a, b);
        } else { /* hacks by equal shares of the stored slots (hack h starts at hd[h]*H) */
            const int64_t e0 = np * tid / nth, e1 = np * (tid + 1) / nth, H = A->H;
            int64_t lo = 0, hi = nh, s, s1;
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                if ((int64_t)A->hd[mid] * H < e0) lo = mid + 1;
                else hi = mid;
            }
            s = tid == 0 ? 0 : lo;
            for (lo = s, hi = nh; lo < hi;) {
                int64_t mid = lo + (hi - lo) / 2;
                if ((int64_t)A->hd[mid] * H < e1) lo = mid + 1;
                else hi = mid;
            }
            s1 = tid == nth - 1 ? nh : lo;
            for (; s < s1; s++) {
                const int64_t hr = A->nrows - s * H < H ? A->nrows - s * H : H;
                SPMV_K(dia__rows_exact)(A, alpha, x, beta, y, s, 0, hr);
            }
        }
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y. beta == 0: y is written, never read. */
SPMV_API spmv_status SPMV_NAME(dia_mv)(const SPMV_NAME(dia) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(dia_run), (A, alpha, x, beta, y));
    return st;
}

/* the search: candidate value = hack size */
#define SPMV_TF_FAM dia
#define SPMV_TF_PARAMS spmv_dia_params
#define SPMV_TF_SET(p, key, v) ((void)(key), (p).hs = (v))
#define SPMV_TF_CONVERT(M, A, p) SPMV_NAME(dia__from_csr)(M, A, p)
#include "core/tune_family.h"

/* hdia: the hack size (64 first; it keeps its place unless another is 5% faster) */
SPMV_API spmv_status SPMV_NAME(hdia_tune)(const SPMV_NAME(csr) *A, spmv_dia_params *best, double *seconds_spent) {
    static const int cand[] = {64, 16, 32, 128, 512, 4096};
    spmv_dia_params base;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    base = *best;
    base.variant = SPMV_DIA_HACKED;
    return SPMV_NAME(dia__tune_search)(A, base, best, cand, (int)(sizeof cand / sizeof cand[0]), 0, 1, seconds_spent);
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_DIA_RULES)
#define SPMV_DIA_RULES
/* What the selection knows about dia and hdia (formats/core/rules.h): few dense diagonals
 * drop the column indices, so the gain is their bytes over the fill; on the device 1.15x
 * (dia) and 1.11-1.13x (hdia) at fill ~1 beyond the L2, 0.44x and 0.30x medians below it.
 * Their slots hold no index. */
/* Beyond the last-level cache DIA reads one stream per diagonal: with more than this many it
 * stays well below the read bandwidth, where hdia (one run per hack) does not; with a few, DIA
 * is the faster of the two (docs/PERFORMANCE.md, "CPU: against oneMKL") */
#ifndef SPMV_DIA_MANY_STREAMS
#define SPMV_DIA_MANY_STREAMS 16
#endif
static inline double spmv_dia__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->dia_fill > 2.0) return *why = "DIA fill above 2 stored slots per entry", 0.0;
    if (spmv_rule_big(F) && F->ndiags > SPMV_DIA_MANY_STREAMS)
        return *why = "many diagonals beyond the cache: more streams than the prefetchers follow", 1.2 / F->dia_fill;
    return *why = "few dense diagonals: DIA drops the column indices", 1.6 / F->dia_fill;
}
static inline double spmv_hdia__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->hdia_fill > 2.0) return *why = "HDIA fill above 2 stored slots per entry", 0.0;
    return *why = "diagonals dense per 64-row hack: HDIA drops the column indices", 1.5 / F->hdia_fill;
}
static inline double spmv_dia__rule_dev_at(const spmv_auto_features *F, double fill, double gain, const char **why) {
    if (fill > 1.3) return *why = "diagonal fill above 1.3 stored slots per entry", 0.0;
    return *why = "few dense diagonals: no column indices", spmv_rule_dev_big(F) ? gain / fill : 0.8;
}
static inline double spmv_dia__rule_dev(const spmv_auto_features *F, const char **why) {
    return spmv_dia__rule_dev_at(F, F->dia_fill, 1.15, why);
}
static inline double spmv_hdia__rule_dev(const spmv_auto_features *F, const char **why) {
    return spmv_dia__rule_dev_at(F, F->hdia_fill, 1.1, why);
}
/* a diagonal layout's slots hold values only */
static inline double spmv_dia__bytes_at(const spmv_auto_features *F, double fill) {
    return (fill > 1 ? fill : 1) * (double)F->nnz * F->value_bytes;
}
static inline double spmv_dia__bytes(const spmv_auto_features *F) { return spmv_dia__bytes_at(F, F->dia_fill); }
static inline double spmv_hdia__bytes(const spmv_auto_features *F) { return spmv_dia__bytes_at(F, F->hdia_fill); }
static const spmv_format_rules spmv_rules_dia = {39, 16, spmv_dia__rule_host, spmv_dia__rule_dev, NULL,
                                                 spmv_dia__bytes, NULL, SPMV_CALIB_STENCIL7, 0};
static const spmv_format_rules spmv_rules_hdia = {72, 25, spmv_hdia__rule_host, spmv_hdia__rule_dev, NULL,
                                                  spmv_hdia__bytes, NULL, SPMV_CALIB_STENCIL27, 0};
#endif /* SPMV_PART_RULES */
