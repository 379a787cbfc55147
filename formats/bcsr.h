/* BCSR — block compressed sparse rows (Eberhardt & Hoemmen, seeds/002; NOTES.md "BCSR"):
 * registry row bcsr. Layout, bs x bs blocks (2 <= bs <= 32):
 *   nbrows = ceil(nrows/bs) block rows, nbcols = ceil(ncols/bs) block columns; a block is
 *   stored when any entry of the matrix falls in it.
 *   row_ptr[nbrows+1], col_idx[nblocks]   CSR over blocks, in block units; a block row's
 *                                         blocks by ascending block column.
 *   val[b*bs*bs + c*bs + r]               block b column-major (the paper's choice: a
 *                                         column is bs contiguous values times one x).
 *   bits[b*mw + p/64] bit p%64, p = c*bs + r, mw = ceil(bs*bs/64): the slot holds an entry
 *                                         of the matrix (the rest is fill, stored as 0).
 * Rows and columns past the matrix's end (nrows, ncols not multiples of bs) exist only as
 * fill of the last block row / column: the kernels never read x past ncols (a block's
 * columns are cut at ncols) and never write y past nrows.
 * Fill is multiplied like an entry (the fast path, what BCSR is for), which is exact for
 * finite x (0*x = 0). 0*Inf or 0*NaN would put a NaN that the matrix does not have into
 * y: a block row whose sums are not all finite is recomputed from the bits, entry by entry,
 * so y is what the matrix gives (at the cost of that block row only, and only then).
 * Explicit zeros keep their bit and survive _to_csr; duplicates of a wrapped CSR are summed.
 * Block size: params.bs, or (bs = 0) spmv_<tag>_bcsr_estimate: for each candidate bs in
 * 2..8, 10, 12, 16, 32 the blocks of a sample of block rows (all of them up to 8k
 * entries, else evenly spaced ones holding about max(8k, nnz/512) entries: the same block
 * size as a 32k sample on all 78 real matrices, and the estimate fell from 3-41 to 1-10
 * CSR products on 9 FEM matrices) give the bytes
 * per entry (bs*bs*T + I per block + I per block row) / entries; the smallest wins (ties:
 * the larger bs). A matrix of dense 3x3 blocks gets 3 (8.4 B/entry in double), of 6x6
 * blocks 6 (8.1), and CSR's 12 is the comparison the user makes with the returned fill.
 * Conversion: the count and fill passes split block rows between threads (each with its
 * own stamps over the block columns) from SPMV_PAR_MIN_NNZ entries. With the smaller
 * sample: 18-31 CSR products on the FEM matrices of 290k-770k entries where BCSR wins, 21-54
 * on those of 50k-100k (were 32-53 and 51-116 serial; 2 threads, AMD EPYC, 2026-11-23).
 * Footprint: (nbrows+1 + nblocks)*I + nblocks*(bs*bs*T + mw*8).
 * Limit: SPMV_ERR_LIMIT, before the layout is allocated, when the stored values exceed
 * params.fill * nnz + 4096 (fill default 10), the index type, or half of the physical
 * memory (a 32x32 block per scattered entry would be 1024x the matrix).
 * CPU kernel (once against the SIMD vocabulary; on AVX2/AVX-512 bs = 2, 3, 4, 6, 8 are
 * instantiated with a constant bs, so the loops below unroll: 1.2-1.6x at those sizes): block rows split between threads by blocks + block rows
 * (one thread below SPMV_PAR_MIN_NNZ stored values).
 *   bs <= W: k = W/bs columns of a block per vector: a masked load of k*bs contiguous
 *            values, an x vector made of k broadcasts (blends), one FMA; a block row's
 *            accumulator lanes q*bs + r are summed into row r at the end;
 *   bs > W:  a column is ceil(bs/W) vectors (the last masked) times one broadcast of x.
 *   y = alpha*sum + beta*y once per row, never read when beta == 0.
 * BLAS roles for alpha and beta (the paper writes y = alpha*y + beta*A*x). */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_BCSR_COMMON
#define SPMV_BCSR_COMMON
#define SPMV_LIMITED_bcsr 1 /* the family has a documented size cap (tests/format_case.h) */
#define SPMV_BCSR_BS_MAX 32
typedef struct spmv_bcsr_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int bs;       /* block size 2..32; 0: estimated from the matrix */
    int fill;     /* SPMV_ERR_LIMIT above fill*nnz + 4096 stored values; 0: 10 */
    int kern;     /* device kernel: 0 by the block size (<= 5 block, <= 16 column, else row),
                     1 by block (a warp covers whole blocks: bs <= 5, else by column), 2 by
                     column, 3 row per thread; the CPU ignores it */
} spmv_bcsr_params;
static inline spmv_bcsr_params spmv_bcsr_params_default(void) {
    spmv_bcsr_params p;
    p.isa = SPMV_ISA_AUTO;
    p.bs = 0;
    p.fill = 0;
    p.kern = 0;
    return p;
}
static const spmv_param_key spmv__bcsr_keys[] = {
    {"bs", offsetof(spmv_bcsr_params, bs), SPMV_PK_INT, 0, SPMV_BCSR_BS_MAX, NULL,
     "block size 2..32 (0: estimated from the matrix)"},
    {"fill", offsetof(spmv_bcsr_params, fill), SPMV_PK_INT, 0, 1 << 20, NULL,
     "refuse (SPMV_ERR_LIMIT) above fill*nnz+4096 stored values (0: 10)"},
    {"kern", offsetof(spmv_bcsr_params, kern), SPMV_PK_ENUM, 0, 3, "auto|block|column|row",
     "GPU kernel (auto: by bs, the paper's boundaries 5 and 16)"},
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
static const int spmv__bcsr_cand[] SPMV__MAYBE_UNUSED = {2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 32};
#define SPMV__BCSR_NCAND ((int)(sizeof spmv__bcsr_cand / sizeof spmv__bcsr_cand[0]))
/* words of bits per block */
static inline int64_t spmv__bcsr_mw(int64_t bs) { return (bs * bs + 63) / 64; }
/* col / bs without a division per entry (the conversions' cost was the divisions): for
 * 32-bit col, q = high 64 bits of M*col with M = ceil(2^64 / bs) (Lemire, Kaser, Kurz 2019:
 * exact for every 32-bit numerator); otherwise a plain division. */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 spmv__bcsr_u128; /* (__extension__: -pedantic C11) */
#endif
typedef struct spmv__bcsr_divider {
    int64_t d;
    uint64_t m;
} spmv__bcsr_divider;
static inline spmv__bcsr_divider spmv__bcsr_divider_of(int64_t bs) {
    spmv__bcsr_divider v;
    v.d = bs;
    v.m = UINT64_MAX / (uint64_t)bs + 1;
    return v;
}
static inline int64_t spmv__bcsr_div(int64_t col, spmv__bcsr_divider v) {
#if defined(__SIZEOF_INT128__)
    if (col >= 0 && col <= (int64_t)UINT32_MAX) return (int64_t)(((spmv__bcsr_u128)v.m * (uint64_t)col) >> 64);
#endif
    return col / v.d;
}
static inline int spmv__bcsr_cmp64(const void *a, const void *b) {
    const int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    return p < q ? -1 : p > q;
}
#endif

typedef struct SPMV_NAME(bcsr) {
    SPMV_I nrows, ncols, nnz; /* nnz: distinct entries (duplicates summed) */
    SPMV_I bs, nbrows, nblocks;
    SPMV_I *row_ptr;          /* nbrows+1, in blocks */
    SPMV_I *col_idx;          /* nblocks: block columns */
    SPMV_T *val;              /* nblocks*bs*bs, column-major blocks */
    uint64_t *bits;           /* nblocks*mw: which slots hold entries */
    spmv_bcsr_params params;  /* isa, bs, fill resolved after conversion */
} SPMV_NAME(bcsr);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(bcsr_free)(SPMV_NAME(bcsr) *A);
SPMV_API size_t SPMV_NAME(bcsr_bytes)(const SPMV_NAME(bcsr) *A);
SPMV_API int64_t SPMV_NAME(bcsr_stored)(const SPMV_NAME(bcsr) *A);
SPMV_API double SPMV_NAME(bcsr_fill_ratio)(const SPMV_NAME(bcsr) *A);
SPMV_API spmv_status SPMV_NAME(bcsr_estimate)(const SPMV_NAME(csr) *B, int *bs_out, double *ratio_out);
SPMV_API spmv_status SPMV_NAME(bcsr_from_csr)(SPMV_NAME(bcsr) *A, const SPMV_NAME(csr) *B, const spmv_bcsr_params *p,
        spmv_error *e);
SPMV_API int SPMV_NAME(bcsr_limited)(const SPMV_NAME(csr) *B, const spmv_bcsr_params *p, spmv_isa isa);
SPMV_API spmv_status SPMV_NAME(bcsr_to_csr)(const SPMV_NAME(bcsr) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(bcsr_mv)(const SPMV_NAME(bcsr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(bcsr_mm)(const SPMV_NAME(bcsr) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
        int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
SPMV_API spmv_status SPMV_NAME(bcsr_tune)(const SPMV_NAME(csr) *A, spmv_bcsr_params *best, double *seconds_spent);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(bcsr_free)(SPMV_NAME(bcsr) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->col_idx);
    spmv__free(A->val);
    spmv__free(A->bits);
    memset(A, 0, sizeof *A);
}
SPMV_API size_t SPMV_NAME(bcsr_bytes)(const SPMV_NAME(bcsr) *A) {
    const size_t nb = (size_t)A->nblocks, b2 = (size_t)A->bs * (size_t)A->bs;
    if (!A->row_ptr) return 0;
    return ((size_t)A->nbrows + 1 + nb) * sizeof(SPMV_I) + nb * (b2 * sizeof(SPMV_T) + (size_t)spmv__bcsr_mw(A->bs) * 8u);
}
/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(bcsr_stored)(const SPMV_NAME(bcsr) *A) {
    return (int64_t)A->nblocks * A->bs * A->bs;
}
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(bcsr__values)(SPMV_NAME(bcsr) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = (int64_t)A->nblocks * A->bs * A->bs;
    return 1;
}
/* stored values per entry (1 = no fill); 0 for an empty matrix */
SPMV_API double SPMV_NAME(bcsr_fill_ratio)(const SPMV_NAME(bcsr) *A) {
    return A->nnz > 0 ? (double)A->nblocks * (double)A->bs * (double)A->bs / (double)A->nnz : 0.0;
}

/* Distinct block columns of block row br (rows [br*bs, min(nrows, br*bs+bs))): mark[] holds
 * stamps (>= 0 never equal to `stamp` before); optionally lists them in out[]. */
static inline int64_t SPMV_NAME(bcsr__count)(const SPMV_NAME(csr) *B, int64_t bs, int64_t br, SPMV_I *mark,
                                             SPMV_I stamp, int64_t *out) {
    const int64_t r1 = br * bs + bs < B->nrows ? br * bs + bs : B->nrows;
    const spmv__bcsr_divider dv = spmv__bcsr_divider_of(bs);
    int64_t r, k, n = 0;
    for (r = br * bs; r < r1; r++)
        for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
            const int64_t bc = spmv__bcsr_div((int64_t)B->col_idx[k], dv);
            if (mark[bc] != stamp) {
                mark[bc] = stamp;
                if (out) out[n] = bc;
                n++;
            }
        }
    return n;
}

/* threads for the conversion passes (each with its own stamps, nbc+1 of them) */
static inline int SPMV_NAME(bcsr__nt)(const SPMV_NAME(csr) *B) {
    return B->nnz >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
}

/* The block size the conversion takes for bs = 0 (see the header comment), and the fill
 * ratio (stored values per entry) it predicts. B must be a valid CSR. SPMV_ERR_ALLOC. */
SPMV_API spmv_status SPMV_NAME(bcsr_estimate)(const SPMV_NAME(csr) *B, int *bs_out, double *ratio_out) {
    const int64_t target = B->nnz / 512 > 8192 ? B->nnz / 512 : 8192;
    SPMV_I *mark, stamp = 0;
    int64_t i;
    double best = -1;
    int c, bestbs = 2;
    if (bs_out) *bs_out = 2;
    if (ratio_out) *ratio_out = 1;
    if (B->nnz == 0) return SPMV_OK;
    mark = SPMV_ALLOC_N(SPMV_I, ((size_t)B->ncols + 1) / 2 + 1);
    if (!mark) return SPMV_ERR_ALLOC;
    for (i = 0; i < ((int64_t)B->ncols + 1) / 2 + 1; i++) mark[i] = -1;
    for (c = 0; c < SPMV__BCSR_NCAND; c++) {
        const int64_t bs = spmv__bcsr_cand[c], nbr = ((int64_t)B->nrows + bs - 1) / bs;
        /* every step-th block row: about `target` entries, or all */
        const int64_t step = B->nnz <= target ? 1 : (int64_t)((double)B->nnz / (double)target + 0.5);
        int64_t br, blocks = 0, ent = 0, rows = 0;
        double bytes;
        if (bs > 2 * (int64_t)B->nrows && bs > 2 && c > 0) break; /* blocks far larger than the matrix */
        for (br = 0; br < nbr; br += step > 1 ? step : 1) {
            const int64_t r1 = br * bs + bs < B->nrows ? br * bs + bs : B->nrows;
            if (stamp == SPMV_IMAX) { /* stamps used up (only past ~10^8 rows with 32-bit I) */
                for (i = 0; i < ((int64_t)B->ncols + 1) / 2 + 1; i++) mark[i] = -1;
                stamp = 0;
            }
            blocks += SPMV_NAME(bcsr__count)(B, bs, br, mark, stamp++, NULL);
            ent += (int64_t)B->row_ptr[r1] - B->row_ptr[br * bs];
            rows++;
        }
        if (ent == 0) continue;
        bytes = ((double)blocks * (double)(bs * bs * (int64_t)sizeof(SPMV_T) + (int64_t)sizeof(SPMV_I)) +
                 (double)rows * (double)sizeof(SPMV_I)) /
                (double)ent;
        if (best < 0 || bytes <= best * (1 + 1e-9)) {
            best = bytes;
            bestbs = (int)bs;
            if (ratio_out) *ratio_out = (double)blocks * (double)(bs * bs) / (double)ent;
        }
    }
    spmv__free(mark);
    if (bs_out) *bs_out = bestbs;
    return SPMV_OK;
}

/* Resolves p (bs by the estimate when 0), counts the blocks of every block row into
 * *rp_out (nbrows+1 prefix sums; NULL: only the verdict). SPMV_ERR_LIMIT past the caps. */
static inline spmv_status SPMV_NAME(bcsr__plan)(const SPMV_NAME(csr) *B, spmv_bcsr_params *p, SPMV_I **rp_out) {
    spmv_status st = SPMV_ISA_FOR(SPMV_FMT_BCSR, p->isa, &p->isa);
    int64_t bs, nbr, nbc, br, nb = 0, cap, padded;
    int nt;
    SPMV_I *rp, *mark;
    if (rp_out) *rp_out = NULL;
    if (st != SPMV_OK) return st;
    if (p->bs < 0 || p->bs == 1 || p->bs > SPMV_BCSR_BS_MAX || p->fill < 0 || p->kern < 0 || p->kern > 3)
        return SPMV_ERR_ARG;
    if (p->bs == 0) {
        st = SPMV_NAME(bcsr_estimate)(B, &p->bs, NULL);
        if (st != SPMV_OK) return st;
    }
    if (p->fill == 0) p->fill = 10;
    bs = p->bs;
    nbr = ((int64_t)B->nrows + bs - 1) / bs;
    nbc = ((int64_t)B->ncols + bs - 1) / bs;
    nt = SPMV_NAME(bcsr__nt)(B);
    mark = SPMV_ALLOC_N(SPMV_I, (size_t)nt * (size_t)(nbc + 1));
    rp = SPMV_ALLOC_N(SPMV_I, (size_t)nbr + 1);
    if (!mark || !rp) {
        spmv__free(mark);
        spmv__free(rp);
        return SPMV_ERR_ALLOC;
    }
    /* a block row's count fits I (at most nbc); the sum is checked below in 64 bits */
    SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        SPMV_I *mk = mark + (size_t)spmv__tid() * (size_t)(nbc + 1);
        int64_t b;
        for (b = 0; b <= nbc; b++) mk[b] = -1;
        SPMV_OMP(for schedule(static))
        for (b = 0; b < nbr; b++) rp[b + 1] = (SPMV_I)SPMV_NAME(bcsr__count)(B, bs, b, mk, (SPMV_I)b, NULL);
    }
    spmv__free(mark);
    rp[0] = 0;
    for (br = 0; br < nbr; br++) {
        nb += rp[br + 1];
        if (nb >= SPMV_IMAX) break;
        rp[br + 1] = (SPMV_I)nb;
    }
    cap = (int64_t)p->fill * (int64_t)B->nnz + 4096;
    padded = nb <= INT64_MAX / (bs * bs) ? nb * bs * bs : INT64_MAX;
    if (padded > cap || padded >= SPMV_IMAX || nb >= SPMV_IMAX ||
        (uint64_t)padded > spmv__phys_bytes() / 2 / (sizeof(SPMV_T) + 1)) {
        spmv__free(rp);
        return SPMV_ERR_LIMIT;
    }
    if (rp_out) *rp_out = rp;
    else spmv__free(rp);
    return SPMV_OK;
}

/* From CSR (any column order; duplicates summed). Errors: SPMV_ERR_ARG (malformed CSR, bad
 * parameters), SPMV_ERR_OVERFLOW, SPMV_ERR_ISA, SPMV_ERR_LIMIT, SPMV_ERR_ALLOC. On failure
 * *A is left empty. */
static inline spmv_status SPMV_NAME(bcsr__build)(SPMV_NAME(bcsr) *A, const SPMV_NAME(csr) *B,
                                                   const spmv_bcsr_params *p) {
    spmv_bcsr_params prm = p ? *p : spmv_bcsr_params_default();
    spmv_status st;
    int64_t bs, b2, mw, nbr, nbc, nb, br, wmax = 0, nnz = 0;
    int nt;
    int64_t *list = NULL;
    SPMV_I *rp = NULL, *mark = NULL, *slot = NULL;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(bcsr__plan)(B, &prm, &rp);
    if (st != SPMV_OK) return st;
    bs = prm.bs, b2 = bs * bs, mw = spmv__bcsr_mw(bs);
    nbr = ((int64_t)B->nrows + bs - 1) / bs;
    nbc = ((int64_t)B->ncols + bs - 1) / bs;
    nb = rp[nbr];
    for (br = 0; br < nbr; br++)
        if (rp[br + 1] - rp[br] > wmax) wmax = rp[br + 1] - rp[br];
    nt = SPMV_NAME(bcsr__nt)(B);
    A->row_ptr = rp;
    A->col_idx = SPMV_ALLOC_N(SPMV_I, (size_t)nb);
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)(nb * b2));
    A->bits = SPMV_ALLOC_N(uint64_t, (size_t)(nb * mw));
    mark = SPMV_ALLOC_N(SPMV_I, (size_t)nt * (size_t)(nbc + 1));
    slot = SPMV_ALLOC_N(SPMV_I, (size_t)nt * (size_t)(nbc + 1));
    list = SPMV_ALLOC_N(int64_t, (size_t)nt * (size_t)(wmax + 1));
    if ((nb > 0 && (!A->col_idx || !A->val || !A->bits)) || !mark || !slot || !list) {
        spmv__free(mark);
        spmv__free(slot);
        spmv__free(list);
        SPMV_NAME(bcsr_free)(A);
        return SPMV_ERR_ALLOC;
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->bs = (SPMV_I)bs;
    A->nbrows = (SPMV_I)nbr;
    A->nblocks = (SPMV_I)nb;
    A->params = prm;
    /* block rows split between threads, each with its own stamps; a block row's values and
       bits are zeroed by the thread that fills them (fresh pages touched in parallel) */
    SPMV_OMP(parallel num_threads(nt) if (nt > 1) reduction(+ : nnz))
    {
        const size_t t = (size_t)spmv__tid();
        SPMV_I *mk = mark + t * (size_t)(nbc + 1), *sl = slot + t * (size_t)(nbc + 1);
        int64_t *ls = list + t * (size_t)(wmax + 1);
        const spmv__bcsr_divider dv = spmv__bcsr_divider_of(bs);
        int64_t q;
        for (q = 0; q <= nbc; q++) mk[q] = -1;
        SPMV_OMP(for schedule(static))
        for (q = 0; q < nbr; q++) {
            const int64_t b0 = rp[q], n = SPMV_NAME(bcsr__count)(B, bs, q, mk, (SPMV_I)q, ls);
            const int64_t r1 = q * bs + bs < B->nrows ? q * bs + bs : B->nrows;
            int64_t j, r, k;
            if (n > 32) qsort(ls, (size_t)n, sizeof(int64_t), spmv__bcsr_cmp64); /* ascending block columns */
            else /* a block row's few block columns: insertion sort, no call per comparison */
                for (j = 1; j < n; j++) {
                    const int64_t v = ls[j];
                    int64_t u = j;
                    for (; u > 0 && ls[u - 1] > v; u--) ls[u] = ls[u - 1];
                    ls[u] = v;
                }
            for (j = 0; j < n; j++) {
                A->col_idx[b0 + j] = (SPMV_I)ls[j];
                sl[ls[j]] = (SPMV_I)(b0 + j);
            }
            if (n > 0) {
                memset(A->val + b0 * b2, 0, sizeof(SPMV_T) * (size_t)(n * b2));
                memset(A->bits + b0 * mw, 0, sizeof(uint64_t) * (size_t)(n * mw));
            }
            for (r = q * bs; r < r1; r++)
                for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
                    const int64_t col = B->col_idx[k], bc = spmv__bcsr_div(col, dv), b = sl[bc];
                    const int64_t pos = (col - bc * bs) * bs + (r - q * bs), w = b * mw + pos / 64;
                    const uint64_t bit = (uint64_t)1 << (pos % 64);
                    if (A->bits[w] & bit) {
                        A->val[b * b2 + pos] = SPMV_VT(SPMV_TV(A->val[b * b2 + pos]) + SPMV_TV(B->val[k])); /* a duplicate column */
                    } else {
                        A->val[b * b2 + pos] = B->val[k];
                        A->bits[w] |= bit;
                        nnz++;
                    }
                }
        }
    }
    A->nnz = (SPMV_I)nnz;
    spmv__free(mark);
    spmv__free(slot);
    spmv__free(list);
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(bcsr_from_csr)(SPMV_NAME(bcsr) *A, const SPMV_NAME(csr) *B, const spmv_bcsr_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(bcsr__build)(A, B, p), "bcsr_from_csr", NULL);
}

/* 1 when converting B with p (defaults filled in) must give SPMV_ERR_LIMIT (tests). */
SPMV_API int SPMV_NAME(bcsr_limited)(const SPMV_NAME(csr) *B, const spmv_bcsr_params *p, spmv_isa isa) {
    spmv_bcsr_params q = *p;
    if (isa != SPMV_ISA_AUTO) q.isa = isa;
    return SPMV_NAME(csr_check)(B) == SPMV_OK && SPMV_NAME(bcsr__plan)(B, &q, NULL) == SPMV_ERR_LIMIT;
}

/* Back to CSR: each row's entries by ascending column. */
SPMV_API spmv_status SPMV_NAME(bcsr_to_csr)(const SPMV_NAME(bcsr) *A, SPMV_NAME(csr) *B) {
    int64_t br, bs, b2, mw;
    SPMV_I r, *cur;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A || (A->nrows > 0 && !A->row_ptr) || (A->nblocks > 0 && (!A->col_idx || !A->val || !A->bits)))
        return SPMV_ERR_ARG;
    bs = A->bs, b2 = bs * bs, mw = spmv__bcsr_mw(bs);
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
    for (br = 0; br < A->nbrows; br++) {
        int64_t b, p;
        for (b = A->row_ptr[br]; b < A->row_ptr[br + 1]; b++)
            for (p = 0; p < b2; p++)
                if ((A->bits[b * mw + p / 64] >> (p % 64)) & 1u) B->row_ptr[br * bs + p % bs + 1]++;
    }
    for (r = 0; r < A->nrows; r++) B->row_ptr[r + 1] += B->row_ptr[r];
    memcpy(cur, B->row_ptr, sizeof(SPMV_I) * ((size_t)A->nrows + 1));
    for (br = 0; br < A->nbrows; br++) { /* blocks ascending, then columns: rows ascending */
        int64_t b, c, i;
        for (b = A->row_ptr[br]; b < A->row_ptr[br + 1]; b++)
            for (c = 0; c < bs; c++)
                for (i = 0; i < bs; i++) {
                    const int64_t p = c * bs + i;
                    if ((A->bits[b * mw + p / 64] >> (p % 64)) & 1u) {
                        const SPMV_I q = cur[br * bs + i]++;
                        B->col_idx[q] = (SPMV_I)((int64_t)A->col_idx[b] * bs + c);
                        B->val[q] = A->val[b * b2 + p];
                    }
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

/* Sums of block row br, entry by entry from the bits (the exact path for non-finite sums). */
static inline void SPMV_NAME(bcsr__row_exact)(const SPMV_NAME(bcsr) *A, const SPMV_Y *x, int64_t br, SPMV_Y *s) {
    const int64_t bs = A->bs, b2 = bs * bs, mw = spmv__bcsr_mw(bs);
    int64_t b, c, r;
    for (r = 0; r < bs; r++) s[r] = 0;
    for (b = A->row_ptr[br]; b < A->row_ptr[br + 1]; b++) {
        const int64_t xb = (int64_t)A->col_idx[b] * bs;
        for (c = 0; c < bs && xb + c < A->ncols; c++)
            for (r = 0; r < bs; r++) {
                const int64_t p = c * bs + r;
                if ((A->bits[b * mw + p / 64] >> (p % 64)) & 1u) s[r] += SPMV_TV(A->val[b * b2 + p]) * x[xb + c];
            }
    }
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* Block rows [br0, br1) with block size bs (a constant where this is inlined with one). */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(bcsr__rows_bs)(const SPMV_NAME(bcsr) *A, SPMV_Y alpha,
                                                                 const SPMV_Y *SPMV_RESTRICT x, SPMV_Y beta,
                                                                 SPMV_Y *SPMV_RESTRICT y, int64_t br0, int64_t br1,
                                                                 const int bs) {
    const int64_t b2 = (int64_t)bs * bs, ncols = A->ncols, nrows = A->nrows;
    const SPMV_I *SPMV_RESTRICT rp = A->row_ptr, *SPMV_RESTRICT ci = A->col_idx;
    const SPMV_T *SPMV_RESTRICT val = A->val;
    SPMV_Y s[SPMV_BCSR_BS_MAX], lanes[SPMV_BCSR_BS_MAX > SPMV_W ? SPMV_BCSR_BS_MAX : SPMV_W];
    int64_t br;
    for (br = br0; br < br1; br++) {
        const int64_t rb = br * bs, nr = nrows - rb < bs ? nrows - rb : bs;
        int64_t b;
        int r, fin = 1;
        if (bs <= SPMV_W) {
            const int k = SPMV_W / bs; /* columns per vector */
            spmv_v acc0 = V_zero(), acc1 = V_zero();
            const int64_t be = rp[br + 1];
            b = rp[br];
            /* two blocks inside the matrix's columns at a time, one accumulator each: the
             * trip counts and masks are constants where bs is */
            for (; b + 1 < be && ((int64_t)ci[b + 1] + 1) * bs <= ncols; b += 2) {
                const int64_t xb0 = (int64_t)ci[b] * bs, xb1 = (int64_t)ci[b + 1] * bs;
                const SPMV_T *pv0 = val + b * b2, *pv1 = pv0 + b2;
                int c;
                for (c = 0; c < bs; c += k) {
                    const int nc = bs - c < k ? bs - c : k;
                    const unsigned m = V_mask_first(nc * bs);
                    spmv_v x0 = V_set1(x[xb0 + c]), x1 = V_set1(x[xb1 + c]);
                    int q;
                    for (q = 1; q < nc; q++) {
                        const unsigned mq = ~V_mask_first(q * bs);
                        x0 = V_blend(mq, x0, V_set1(x[xb0 + c + q]));
                        x1 = V_blend(mq, x1, V_set1(x[xb1 + c + q]));
                    }
                    acc0 = V_fma(V_mloadt(m, pv0 + c * bs), x0, acc0);
                    acc1 = V_fma(V_mloadt(m, pv1 + c * bs), x1, acc1);
                }
            }
            for (; b < be; b++) { /* the rest: maybe the last block column, cut at ncols */
                const int64_t xb = (int64_t)ci[b] * bs;
                const int ncx = ncols - xb < bs ? (int)(ncols - xb) : bs; /* columns inside the matrix */
                const SPMV_T *pv = val + b * b2;
                int c;
                for (c = 0; c < ncx; c += k) {
                    const int nc = ncx - c < k ? ncx - c : k;
                    spmv_v xv = V_set1(x[xb + c]);
                    int q;
                    for (q = 1; q < nc; q++) xv = V_blend(~V_mask_first(q * bs), xv, V_set1(x[xb + c + q]));
                    acc0 = V_fma(V_mloadt(V_mask_first(nc * bs), pv + c * bs), xv, acc0);
                }
            }
            V_storeu(lanes, V_add(acc0, acc1));
            for (r = 0; r < bs; r++) {
                SPMV_Y t = lanes[r];
                int q;
                for (q = 1; q < k; q++) t += lanes[q * bs + r];
                s[r] = t;
            }
        } else {
            enum { NCH = (SPMV_BCSR_BS_MAX + SPMV_W - 1) / SPMV_W };
            const int nch = (bs + SPMV_W - 1) / SPMV_W;
            const unsigned mlast = V_mask_first(bs - (nch - 1) * SPMV_W);
            spmv_v acc[NCH];
            int h;
            for (h = 0; h < nch; h++) acc[h] = V_zero();
            for (b = rp[br]; b < rp[br + 1]; b++) {
                const int64_t xb = (int64_t)ci[b] * bs;
                const int ncx = ncols - xb < bs ? (int)(ncols - xb) : bs;
                const SPMV_T *pv = val + b * b2;
                int c;
                for (c = 0; c < ncx; c++) {
                    const spmv_v xv = V_set1(x[xb + c]);
                    for (h = 0; h + 1 < nch; h++) acc[h] = V_fma(V_loadt(pv + c * bs + h * SPMV_W), xv, acc[h]);
                    acc[h] = V_fma(V_mloadt(mlast, pv + c * bs + h * SPMV_W), xv, acc[h]);
                }
            }
            for (h = 0; h < nch; h++) V_storeu(lanes + h * SPMV_W, acc[h]);
            for (r = 0; r < bs; r++) s[r] = lanes[r];
        }
        for (r = 0; r < nr; r++) fin &= s[r] - s[r] == 0; /* false for Inf and NaN */
        if (!fin) SPMV_NAME(bcsr__row_exact)(A, x, br, s);
        if (beta == (SPMV_Y)0)
            for (r = 0; r < nr; r++) y[rb + r] = alpha * s[r];
        else
            for (r = 0; r < nr; r++) y[rb + r] = alpha * s[r] + beta * y[rb + r];
    }
}

SPMV_KTARGET static inline void SPMV_K(bcsr__rows)(const SPMV_NAME(bcsr) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                   SPMV_Y beta, SPMV_Y *y, int64_t br0, int64_t br1) {
#if defined(SPMV_GW) /* the portable kernels: one body (they are the slowest anyway; compile time) */
    SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, (int)A->bs);
#else
    switch (A->bs) { /* the common small sizes with a constant bs: unrolled */
    case 2: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, 2); break;
    case 3: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, 3); break;
    case 4: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, 4); break;
    case 6: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, 6); break;
    case 8: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, 8); break;
    default: SPMV_K(bcsr__rows_bs)(A, alpha, x, beta, y, br0, br1, (int)A->bs); break;
    }
#endif
}

SPMV_KTARGET static inline void SPMV_K(bcsr_run)(const SPMV_NAME(bcsr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                 SPMV_Y *y) {
    const int64_t stored = (int64_t)A->nblocks * A->bs * A->bs;
    int nt = stored >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt; /* unused without OpenMP */
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int t = spmv__tid(), n = spmv__nthr();
        const SPMV_I b0 = SPMV_NAME(csr__split)(A->row_ptr, A->nbrows, t, n);
        const SPMV_I b1 = SPMV_NAME(csr__split)(A->row_ptr, A->nbrows, t + 1, n);
        if (b0 < b1) SPMV_K(bcsr__rows)(A, alpha, x, beta, y, b0, b1);
    }
}

/* SpMM, row-major X and Y (formats/csr_ops.h's pieces): each row of a block row walks the
 * block row's blocks once per block of NV vectors of W columns of X (the blocks' values read
 * once per pass, X's rows of the block columns from cache for the bs rows); a row whose sums
 * are not finite is summed again from its real entries only (the bits), as bcsr_mv does, so
 * a padded zero times an Inf in X gives what CSR gives. */
/* a row (ri of block row br) whose sums were not finite: again from its real entries */
SPMV_KTARGET static inline void SPMV_K(bcsr__mm_exact)(const SPMV_NAME(bcsr) *A, SPMV_I br, int64_t ri,
                                                       const SPMV_Y *X, int64_t ldx, SPMV_Y *yr, SPMV_Y alpha,
                                                       SPMV_Y beta, int64_t j0, int wc) {
    const int64_t bs = A->bs, b2 = bs * bs, mw = spmv__bcsr_mw((int)bs);
    int q;
    for (q = 0; q < wc; q++) {
        SPMV_Y sum = 0;
        SPMV_I k;
        for (k = A->row_ptr[br]; k < A->row_ptr[br + 1]; k++) {
            const int64_t xb = (int64_t)A->col_idx[k] * bs;
            int64_t c;
            for (c = 0; c < bs && xb + c < A->ncols; c++) {
                const int64_t p = c * bs + ri;
                if ((A->bits[(int64_t)k * mw + p / 64] >> (p % 64)) & 1u)
                    sum += V_tv(A->val[(int64_t)k * b2 + p]) * X[(xb + c) * ldx + j0 + q];
            }
        }
        yr[q] = beta == (SPMV_Y)0 ? alpha * sum : alpha * sum + beta * yr[q];
    }
}
/* Block rows [br0, br1), the k-columns [j0, j0 + NV*W), block size BS (a literal where bs is
 * one of the common sizes). With BS*NV <= 16 the block row's BS rows accumulate together: each
 * row of X under a block column is loaded once and used by the BS rows; else row by row. */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(bcsr__mm_bs)(const SPMV_NAME(bcsr) *A, SPMV_I br0, SPMV_I br1,
                                                             const SPMV_Y *X, int64_t ldx, SPMV_Y *Y, int64_t ldy,
                                                             SPMV_Y alpha, SPMV_Y beta, int64_t j0, const int NV,
                                                             unsigned mlast, const int BS) {
    const int64_t b2 = (int64_t)BS * BS, ncols = A->ncols, nrows = A->nrows;
    const SPMV_I *SPMV_RESTRICT rp = A->row_ptr, *SPMV_RESTRICT ci = A->col_idx;
    const SPMV_T *SPMV_RESTRICT val = A->val;
    const int wc = (NV - 1) * SPMV_W + __builtin_popcount(mlast); /* the columns of this pass */
    SPMV_Y lanes[4 * SPMV_W];
    SPMV_I br, k;
    int b, q, ri;
    for (br = br0; br < br1; br++) {
        const int64_t rb = (int64_t)br * BS, nr = nrows - rb < BS ? nrows - rb : BS;
        if (BS * NV <= 16) {
            spmv_v acc[16];
            for (b = 0; b < BS * NV; b++) acc[b] = V_zero();
            for (k = rp[br]; k < rp[br + 1]; k++) {
                const int64_t xb = (int64_t)ci[k] * BS, ncx = ncols - xb < BS ? ncols - xb : BS;
                const SPMV_T *pv = val + (int64_t)k * b2;
                int64_t c;
                for (c = 0; c < ncx; c++) {
                    const SPMV_Y *xr = X + (xb + c) * ldx + j0;
                    spmv_v xv[4];
                    for (b = 0; b + 1 < NV; b++) xv[b] = V_loadu(xr + b * SPMV_W);
                    xv[NV - 1] = V_mload(mlast, xr + (NV - 1) * SPMV_W);
                    for (ri = 0; ri < BS; ri++) { /* padded rows past nrows: zeros, never stored */
                        const spmv_v vv = V_set1(V_tv(pv[c * BS + ri]));
                        for (b = 0; b < NV; b++) acc[ri * NV + b] = V_fma(vv, xv[b], acc[ri * NV + b]);
                    }
                }
            }
            for (ri = 0; ri < nr; ri++) {
                int fin = 1;
                for (b = 0; b < NV; b++) V_storeu(lanes + b * SPMV_W, acc[ri * NV + b]);
                for (q = 0; q < wc; q++) fin &= lanes[q] - lanes[q] == 0; /* false for Inf and NaN */
                if (fin) SPMV_K(mm__put)(Y + (rb + ri) * ldy + j0, acc + ri * NV, NV, mlast, alpha, beta);
                else SPMV_K(bcsr__mm_exact)(A, br, ri, X, ldx, Y + (rb + ri) * ldy + j0, alpha, beta, j0, wc);
            }
            continue;
        }
        for (ri = 0; ri < nr; ri++) {
            spmv_v acc[4];
            int fin = 1;
            for (b = 0; b < NV; b++) acc[b] = V_zero();
            for (k = rp[br]; k < rp[br + 1]; k++) {
                const int64_t xb = (int64_t)ci[k] * BS, ncx = ncols - xb < BS ? ncols - xb : BS;
                const SPMV_T *pv = val + (int64_t)k * b2 + ri;
                int64_t c;
                for (c = 0; c < ncx; c++) SPMV_K(mm__acc)(acc, V_tv(pv[c * BS]), X + (xb + c) * ldx + j0, NV, mlast);
            }
            for (b = 0; b < NV; b++) V_storeu(lanes + b * SPMV_W, acc[b]);
            for (q = 0; q < wc; q++) fin &= lanes[q] - lanes[q] == 0;
            if (fin) SPMV_K(mm__put)(Y + (rb + ri) * ldy + j0, acc, NV, mlast, alpha, beta);
            else SPMV_K(bcsr__mm_exact)(A, br, ri, X, ldx, Y + (rb + ri) * ldy + j0, alpha, beta, j0, wc);
        }
    }
}
/* SpMM, row-major X and Y (formats/csr_ops.h's pieces): the blocks read once per block of NV
 * vectors of W columns of X; a row whose sums are not finite is summed again from its real
 * entries only (the bits), as bcsr_mv does, so a padded zero times an Inf in X gives what CSR
 * gives. */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(bcsr__mm_rows)(const SPMV_NAME(bcsr) *A, SPMV_I br0, SPMV_I br1,
                                                               const SPMV_Y *X, int64_t ldx, SPMV_Y *Y, int64_t ldy,
                                                               SPMV_Y alpha, SPMV_Y beta, int64_t j0, const int NV,
                                                               unsigned mlast) {
#if defined(SPMV_GW) /* the portable kernels: one body (compile time) */
    SPMV_K(bcsr__mm_bs)(A, br0, br1, X, ldx, Y, ldy, alpha, beta, j0, NV, mlast, (int)A->bs);
#else
    switch (A->bs) {
    case 2: SPMV_K(bcsr__mm_bs)(A, br0, br1, X, ldx, Y, ldy, alpha, beta, j0, NV, mlast, 2); break;
    case 3: SPMV_K(bcsr__mm_bs)(A, br0, br1, X, ldx, Y, ldy, alpha, beta, j0, NV, mlast, 3); break;
    case 4: SPMV_K(bcsr__mm_bs)(A, br0, br1, X, ldx, Y, ldy, alpha, beta, j0, NV, mlast, 4); break;
    default: SPMV_K(bcsr__mm_bs)(A, br0, br1, X, ldx, Y, ldy, alpha, beta, j0, NV, mlast, (int)A->bs); break;
    }
#endif
}
SPMV_KTARGET static inline void SPMV_K(bcsr__mm)(const SPMV_NAME(bcsr) *A, int64_t kk, SPMV_Y alpha, const SPMV_Y *X,
                                                 int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy) {
    const int64_t stored = (int64_t)A->nblocks * A->bs * A->bs;
    const int nt = stored >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
    (void)nt;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int t = spmv__tid(), n = spmv__nthr();
        const SPMV_I b0 = SPMV_NAME(csr__split)(A->row_ptr, A->nbrows, t, n);
        const SPMV_I b1 = SPMV_NAME(csr__split)(A->row_ptr, A->nbrows, t + 1, n);
        if (b0 < b1) SPMV__MM_BLOCKS(kk, SPMV_K(bcsr__mm_rows), A, b0, b1, X, ldx, Y, ldy, alpha, beta);
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y. beta == 0: y is written, never read. */
SPMV_API spmv_status SPMV_NAME(bcsr_mv)(const SPMV_NAME(bcsr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(bcsr_run), (A, alpha, x, beta, y));
    return st;
}

/* Y = alpha*A*X + beta*Y with k vectors, row-major (formats/csr_ops.h): native (the blocks
 * read once per block of vectors); SPMV_ERR_UNSUPPORTED column-major, which any_mm then runs
 * vector by vector. */
SPMV_API spmv_status SPMV_NAME(bcsr_mm)(const SPMV_NAME(bcsr) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                             int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    spmv_status st;
    if (!A || spmv__mm_args_bad(A->ncols, A->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (lay != SPMV_ROW_MAJOR) return SPMV_ERR_UNSUPPORTED;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(bcsr__mm), (A, k, alpha, X, ldx, beta, Y, ldy));
    return st;
}

/* the search: candidate value = block size */
#define SPMV_TF_FAM bcsr
#define SPMV_TF_PARAMS spmv_bcsr_params
#define SPMV_TF_SET(p, key, v) ((void)(key), (p).bs = (v))
#define SPMV_TF_CONVERT(M, A, p) SPMV_NAME(bcsr_from_csr)(M, A, &(p), NULL)
#include "core/tune_family.h"

/* The block size, timed: the estimate's choice first (it keeps its place unless another is
 * 5% faster), then its neighbours among 2..8 and the estimate's multiples (a 3x3-block
 * matrix may run faster as 6x6 when fill is low). *best's bs is replaced. */
SPMV_API spmv_status SPMV_NAME(bcsr_tune)(const SPMV_NAME(csr) *A, spmv_bcsr_params *best, double *seconds_spent) {
    spmv_status st;
    int e = 2, n = 0, cand[4];
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    st = SPMV_NAME(csr_check)(A);
    if (st == SPMV_OK) st = SPMV_NAME(bcsr_estimate)(A, &e, NULL);
    if (st != SPMV_OK) return st;
    cand[n++] = e;
    if (e > 2) cand[n++] = e - 1;
    if (e < SPMV_BCSR_BS_MAX) cand[n++] = e + 1;
    if (2 * e <= SPMV_BCSR_BS_MAX) cand[n++] = 2 * e;
    return SPMV_NAME(bcsr__tune_search)(A, *best, best, cand, n, 0, 1, seconds_spent);
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_BCSR_RULES)
#define SPMV_BCSR_RULES
/* What the selection knows about bcsr (formats/core/rules.h): a block structure saves bytes;
 * in cache the product is compute-bound and dense blocks with moderate fill vectorise. On
 * the device 0.95x csr on 3x3 FEM blocks, 0.84x median below the L2; the skew cap refuses
 * rows far above the mean or above the warps' share. */
static inline double spmv_bcsr__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->bcsr_bs && F->bcsr_bytes_ratio <= 0.85)
        return *why = "block structure: fewer bytes per entry", 0.9 / F->bcsr_bytes_ratio;
    if (F->bcsr_bs && !spmv_rule_big(F) && F->bcsr_fill <= 2.5 && F->row_mean >= 8)
        return *why = "in cache, blocks with moderate fill: dense block products", 1.15;
    return *why = "no block structure (BCSR bytes >= 0.85 CSR)", 0.0;
}
static inline double spmv_bcsr__rule_dev(const spmv_auto_features *F, const char **why) {
    if (spmv_rule_dev_capped(F, SPMV_CUDA_SKEW_MIN_BCSR, SPMV_CUDA_SKEW_WARPS))
        return *why = "the longest row is far above the mean or the warps' share: one warp per block row would walk it "
                      "(the skew cap)",
               0.0;
    if (F->bcsr_bs && F->bcsr_bytes_ratio <= 0.85) return *why = "block structure: fewer bytes per entry", 0.95;
    return *why = "no block structure (BCSR bytes >= 0.85 CSR)", 0.5;
}
static inline double spmv_bcsr__bytes(const spmv_auto_features *F) {
    if (F->bcsr_bytes_ratio > 0)
        return F->bcsr_bytes_ratio *
               ((double)F->nnz * (F->value_bytes + F->index_bytes) + (double)F->nrows * F->index_bytes);
    return spmv_rule_padded_bytes(F, 1);
}
static const spmv_format_rules spmv_rules_bcsr = {35, 27, spmv_bcsr__rule_host, spmv_bcsr__rule_dev, NULL,
                                                  spmv_bcsr__bytes, NULL, SPMV_CALIB_BLOCKS3, 0};
#endif /* SPMV_PART_RULES */
