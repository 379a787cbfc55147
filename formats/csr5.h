/* CSR5 — Liu & Vinter, ICS 2015: CSR cut into 2D tiles of omega x sigma nonzeros.
 * Layout (w = omega = vector width of the backend, s = sigma, T = w*s nonzeros per tile):
 *   row_ptr[nrows+1]     the CSR row pointer, unchanged.
 *   col_idx[nnz], val[nnz]  CSR order, except that each of the ntiles = nnz/T complete
 *                        tiles is transposed: element (lane i, step j) of tile t is CSR
 *                        nonzero t*T + i*s + j and is stored at t*T + j*w + i, so step j of
 *                        a tile is one contiguous vector. The nnz - ntiles*T trailing
 *                        nonzeros (the tail) stay in CSR order.
 *   tile_ptr[ntiles+1]   unsigned, index width: the row holding the tile's first nonzero
 *                        (entry ntiles: the tail's first row); the top bit flags a tile
 *                        whose segments are not consecutive rows (empty rows between them).
 *   tile_desc[ntiles*desc_words]  32-bit words per tile:
 *                        words [0, flag_words): bit_flag, w*s bits, bit j*w+i = 1 when
 *                          element (lane i, step j) starts a row; bit 0 is always set (the
 *                          tile's first segment is sealed from the top). Bits follow the
 *                          transposed element order, so a step's w flags are one lane mask.
 *                        then w/2 words of two 16-bit lane slots (lane 2k low, 2k+1 high):
 *                          y_offset (bits [0, ybits)): flags in the lanes before this one =
 *                          the tile-local segment number of the lane's first segment;
 *                          seg_offset (bits [ybits, ybits+log2 w)): how many lanes to the
 *                          right have no flag at all.
 *                        ybits = bits of (w-1)*s; conversion returns SPMV_ERR_LIMIT when
 *                        ybits + log2(w) > 16 (e.g. w=32 with s>66) or T > 4096.
 *   empty_ptr[ntiles+1], empty_offset[]  for flagged tiles, the row of each segment minus
 *                        the tile's row (segment k -> row tile_ptr + empty_offset[k]);
 *                        unflagged tiles have no entries (segment k is row tile_ptr + k).
 *   empty_rows[nempty]   the empty rows, for the y preparation.
 * Footprint: CSR + (ntiles+1)*2I + ntiles*desc_words*4 + (empty offsets + empty rows)*I.
 *
 * Kernel (per ISA and width; OpenMP over contiguous tile ranges, one thread below
 * SPMV_PAR_MIN_NNZ): a tile is s vector steps (load val, V_gather x, fma) in which a flag
 * restarts its lane's running sum; the sums before each step are logged (no data-dependent
 * branch in the vector loop). A pass over the tile's flags then files the logged sums: a
 * lane's first flag closes its "red" top part (a piece of a segment opened in an earlier
 * lane), each later flag a segment opened and closed inside the lane. The segment left open
 * at the bottom of lane i takes the red parts of lanes i+1 .. i+seg_offset[i]+1 (the fast
 * segmented sum), summed in one pass over the lanes from the right that restarts at each
 * flagged lane (the CPU kernel reads no seg_offset: the flags imply it). A
 * tile whose only flag is the forced one is a plain reduction. Rows are written
 * y[r] = alpha*sum + beta*y[r] (y not read when beta == 0) exactly once, by the thread
 * owning the row's first nonzero; a row continuing from the thread's previous tile is
 * carried in a register. Per-thread calibration: when a thread's first tile continues a
 * row begun by an earlier thread, all it computes for that row goes to the thread's
 * calibrator, added after the parallel region. The tail is a CSR loop after the region;
 * its first row adds when it began in a tile. y preparation: only the empty rows (beta*y,
 * or 0); every other row has one '=' writer, so no row is touched only by '+='.
 * A kernel keeps two tile-sized buffers on its stack: up to 64 KB (double) per thread.
 * Deviations from the paper, and why:
 *  - the paper's segmented sum, out[i] = scan[i + seg_offset[i]] - scan[i] + in[i] with an
 *    ordinary prefix scan, subtracts prefixes that include other rows' sums: NaN/Inf in one
 *    row then poison the following rows of the tile, and a small row next to a large one
 *    loses its digits to cancellation (measured: 17 of the 65 real test matrices up to 300k
 *    nonzeros then miss the 1e-5 float / 1e-12 double row-relative tolerance). The sum
 *    here is segmented (lanes only add within their own segment): lane i's total
 *    involves no other row.
 *  - the paper packs y_offset, seg_offset and the lane's bit_flag into one 32-bit word per
 *    lane (sigma <= 32 - ybits - sbits); here bit_flag is stored in step order (one lane
 *    mask per step, what a SIMD kernel consumes) and y_offset|seg_offset in 16-bit slots:
 *    the same w*s flag bits, sigma up to 256 within the slot and tile-size limits.
 *  - empty_offset keeps one entry per segment of a flagged tile (the paper's pseudocode
 *    indexes it by segment number), found through empty_ptr.
 *  - sigma is fixed per object, default 32, not the paper's 16: the paper's tile was
 *    4 x 16 (AVX2, double); at omega 8 (AVX-512) a tile's fixed work (lane descriptors,
 *    the pass over the lanes) is paid per 8*sigma entries, and sigma 32 ran 1.05-1.21x
 *    faster than 16 in cache on 6 matrices (stencil, FEM, circuit, mesh, two power-law
 *    graphs; 2026-11-26, AMD EPYC, 2 threads). spmv_<tag>_csr5_tune times a few values. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_CSR5_COMMON
#define SPMV_CSR5_COMMON
#define SPMV_CSR5_SIGMA_DEFAULT 32
#define SPMV_CSR5_SIGMA_MAX 256
#define SPMV_CSR5_TILE_MAX 4096 /* omega*sigma: bounds a kernel's per-tile stack buffer */
#define SPMV__CSR5U_int32_t uint32_t
#define SPMV__CSR5U_int64_t uint64_t
typedef struct spmv_csr5_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int omega;    /* tile width; 0: the backend's vector width (AVX2 4 d / 8 f, AVX-512 8 / 16,
                     generic 8 / 16). Generic accepts 4, 8, 16, 32; AVX ISAs only their own */
    int sigma;    /* tile height, 1..SPMV_CSR5_SIGMA_MAX; 0: SPMV_CSR5_SIGMA_DEFAULT (on the GPU:
                     the authors' nnz/row rule, formats/cuda/csr5.cuh) */
    int tpw;      /* GPU only (the CPU ignores it): tiles per warp; 0: from the tile count */
} spmv_csr5_params;
static inline spmv_csr5_params spmv_csr5_params_default(void) {
    spmv_csr5_params p;
    p.isa = SPMV_ISA_AUTO;
    p.omega = 0;
    p.sigma = SPMV_CSR5_SIGMA_DEFAULT;
    p.tpw = 0;
    return p;
}
static const spmv_param_key spmv__csr5_keys[] = {
    {"omega", offsetof(spmv_csr5_params, omega), SPMV_PK_POW2, 0, 32, NULL, "tile width = vector lanes (0: the ISA's)"},
    {"w", offsetof(spmv_csr5_params, omega), SPMV_PK_POW2, 0, 32, NULL, "same as omega"},
    {"sigma", offsetof(spmv_csr5_params, sigma), SPMV_PK_INT, 0, SPMV_CSR5_SIGMA_MAX, NULL,
     "tile height (0: 16 on the CPU, the nnz/row rule on the GPU)"},
    {"tpw", offsetof(spmv_csr5_params, tpw), SPMV_PK_INT, 0, 1 << 20, NULL,
     "GPU only: consecutive tiles per warp (0: from the tile count)"},
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
/* bit count (portable: __builtin_popcount is a library call without -mpopcnt) */
static inline int spmv__csr5_popc(uint32_t v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
/* index of the lowest set bit; v != 0 */
static inline int spmv__csr5_ctz(unsigned v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(v);
#else
    int n = 0;
    while (!(v & 1u)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}
static inline int spmv__csr5_ctz64(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(v);
#else
    return (uint32_t)v ? spmv__csr5_ctz((unsigned)(uint32_t)v) : 32 + spmv__csr5_ctz((unsigned)(v >> 32));
#endif
}
/* bits needed to store 0..v (at least 1) */
static inline int spmv__csr5_bits(uint64_t v) {
    int b = 1;
    while (b < 64 && (v >> b)) b++;
    return b;
}
#endif

typedef SPMV_CAT(SPMV__CSR5U_, SPMV_IDX) SPMV_NAME(csr5_uidx);

typedef struct SPMV_NAME(csr5) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I ntiles;     /* complete tiles, nnz / (omega*sigma) */
    SPMV_I nempty;     /* empty rows */
    int ybits;         /* y_offset field width in a lane slot (seg_offset above it) */
    int flag_words;    /* bit_flag words per tile: ceil(omega*sigma/32) */
    int desc_words;    /* flag_words + omega/2 */
    SPMV_I *row_ptr, *col_idx;
    SPMV_T *val;
    SPMV_NAME(csr5_uidx) *tile_ptr;
    uint32_t *tile_desc;
    SPMV_I *empty_ptr, *empty_offset, *empty_rows;
    spmv_csr5_params params; /* isa, omega, sigma resolved (never AUTO / 0) after conversion */
} SPMV_NAME(csr5);

#define SPMV__CSR5_TOP(U) ((U)1 << (sizeof(U) * 8 - 1))

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(csr5_free)(SPMV_NAME(csr5) *A);
SPMV_API int64_t SPMV_NAME(csr5_stored)(const SPMV_NAME(csr5) *A);
SPMV_API size_t SPMV_NAME(csr5_bytes)(const SPMV_NAME(csr5) *A);
SPMV_API spmv_status SPMV_NAME(csr5_from_csr)(SPMV_NAME(csr5) *A, const SPMV_NAME(csr) *B, const spmv_csr5_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(csr5_to_csr)(const SPMV_NAME(csr5) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(csr5_mv)(const SPMV_NAME(csr5) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(csr5_tune)(const SPMV_NAME(csr) *A, spmv_csr5_params *best, double *seconds_spent);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(csr5_free)(SPMV_NAME(csr5) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->col_idx);
    spmv__free(A->val);
    spmv__free(A->tile_ptr);
    spmv__free(A->tile_desc);
    spmv__free(A->empty_ptr);
    spmv__free(A->empty_offset);
    spmv__free(A->empty_rows);
    memset(A, 0, sizeof *A);
}

/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(csr5_stored)(const SPMV_NAME(csr5) *A) { return A->nnz; }
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(csr5__values)(SPMV_NAME(csr5) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->nnz;
    return 1;
}
SPMV_API size_t SPMV_NAME(csr5_bytes)(const SPMV_NAME(csr5) *A) {
    size_t neo = A->empty_ptr ? (size_t)A->empty_ptr[A->ntiles] : 0;
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           ((size_t)A->ntiles + 1) * (sizeof(SPMV_NAME(csr5_uidx)) + sizeof(SPMV_I)) +
           (size_t)A->ntiles * (size_t)A->desc_words * sizeof(uint32_t) + (neo + (size_t)A->nempty) * sizeof(SPMV_I);
}

/* The vector width of an AVX backend for this value type; 0 for generic (any width). */
static inline int SPMV_NAME(csr5__native_omega)(spmv_isa isa) {
    return isa == SPMV_ISA_AVX2 || isa == SPMV_ISA_AVX512 ? (int)SPMV__NATIVE_W(isa) : 0;
}

/* Tile t: transposes its values/columns, writes its descriptor, sets the tile_ptr flag.
 * Returns the number of empty_offset entries it needs (0 when not flagged). */
static inline SPMV_I SPMV_NAME(csr5__build_tile)(SPMV_NAME(csr5) *A, const SPMV_NAME(csr) *B, SPMV_I t) {
    const int w = A->params.omega, s = A->params.sigma;
    const SPMV_I T = (SPMV_I)w * s;
    const SPMV_I e0 = t * T, e1 = e0 + T;
    const SPMV_I *rp = B->row_ptr;
    uint32_t *d = A->tile_desc + (size_t)t * (size_t)A->desc_words;
    const SPMV_NAME(csr5_uidx) top = SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx));
    SPMV_I row0 = (SPMV_I)A->tile_ptr[t], r, nseg = 1;
    int cnt[32], i, j, flagged = 0;
    unsigned yo = 0, so = 0;
    for (i = 0; i < w; i++)
        for (j = 0; j < s; j++) {
            A->val[e0 + (SPMV_I)j * w + i] = B->val[e0 + (SPMV_I)i * s + j];
            A->col_idx[e0 + (SPMV_I)j * w + i] = B->col_idx[e0 + (SPMV_I)i * s + j];
        }
    memset(d, 0, (size_t)A->desc_words * sizeof(uint32_t));
    memset(cnt, 0, sizeof cnt);
    d[0] = 1u; /* (lane 0, step 0): the first segment is sealed from the top */
    cnt[0] = 1;
    for (r = row0 + 1; r < B->nrows && rp[r] < e1; r++) {
        SPMV_I loc;
        unsigned bit;
        if (rp[r + 1] == rp[r]) { /* an empty row between two segments of this tile */
            flagged = 1;
            continue;
        }
        loc = rp[r] - e0; /* > 0: row0 is the last row starting at or before e0 */
        i = (int)(loc / s);
        j = (int)(loc % s);
        bit = (unsigned)j * (unsigned)w + (unsigned)i;
        d[bit >> 5] |= 1u << (bit & 31u);
        cnt[i]++;
        nseg++;
    }
    /* lane slots: y_offset = flags in earlier lanes; seg_offset = flagless lanes to the right */
    for (i = 0; i < w; i++) {
        unsigned slot;
        int k;
        for (so = 0, k = i + 1; k < w && cnt[k] == 0; k++) so++;
        slot = yo | (so << A->ybits);
        d[A->flag_words + (i >> 1)] |= slot << ((i & 1) * 16);
        yo += (unsigned)cnt[i];
    }
    if (flagged) A->tile_ptr[t] |= top;
    return flagged ? nseg : 0;
}

/* segment k -> row offset, for a flagged tile */
static inline void SPMV_NAME(csr5__fill_empty)(SPMV_NAME(csr5) *A, const SPMV_NAME(csr) *B, SPMV_I t) {
    const SPMV_I T = (SPMV_I)A->params.omega * A->params.sigma, e1 = t * T + T;
    const SPMV_NAME(csr5_uidx) top = SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx));
    const SPMV_I *rp = B->row_ptr;
    SPMV_I row0 = (SPMV_I)(A->tile_ptr[t] & ~top), r, k = 0;
    SPMV_I *eo = A->empty_offset + A->empty_ptr[t];
    eo[k++] = 0;
    for (r = row0 + 1; r < B->nrows && rp[r] < e1; r++)
        if (rp[r + 1] > rp[r]) eo[k++] = r - row0;
}

/* From CSR (sorted columns not required; entries are kept in CSR order). Errors:
 * SPMV_ERR_ARG (bad omega/sigma for the ISA, inconsistent row_ptr), SPMV_ERR_ISA,
 * SPMV_ERR_LIMIT (the lane slot or the tile size overflows), SPMV_ERR_ALLOC. */
static inline spmv_status SPMV_NAME(csr5__build)(SPMV_NAME(csr5) *A, const SPMV_NAME(csr) *B,
                                                   const spmv_csr5_params *p) {
    spmv_csr5_params prm = p ? *p : spmv_csr5_params_default();
    const SPMV_NAME(csr5_uidx) top = SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx));
    spmv_status st;
    int nat, w, s, sbits, yb, fwords, dwords;
    SPMV_I T, ntiles, nempty = 0, r, t, k;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    st = SPMV_ISA_FOR(SPMV_FMT_CSR5, prm.isa, &prm.isa);
    if (st != SPMV_OK) return st;
    nat = SPMV_NAME(csr5__native_omega)(prm.isa);
    if (prm.omega == 0) prm.omega = nat ? nat : (int)SPMV__NATIVE_W(SPMV_ISA_GENERIC);
    if ((nat && prm.omega != nat) ||
        (prm.omega != 4 && prm.omega != 8 && prm.omega != 16 && prm.omega != 32))
        return SPMV_ERR_ARG;
    if (prm.sigma == 0) prm.sigma = SPMV_CSR5_SIGMA_DEFAULT;
    if (prm.sigma < 1 || prm.sigma > SPMV_CSR5_SIGMA_MAX) return SPMV_ERR_ARG;
    w = prm.omega;
    s = prm.sigma;
    T = (SPMV_I)w * s;
    for (sbits = 0; (1 << sbits) < w; sbits++) {
    }
    /* bit-field limits: y_offset (<= (w-1)*s) and seg_offset (<= w-1) share a 16-bit slot;
     * tile_ptr keeps its top bit for the flag, so rows must fit in the others */
    yb = spmv__csr5_bits((uint64_t)(w - 1) * (uint64_t)s);
    if (yb + sbits > 16 || T > SPMV_CSR5_TILE_MAX || (uint64_t)B->nrows >= (uint64_t)top) return SPMV_ERR_LIMIT;
    if (B->nrows > 0 && (B->row_ptr[0] != 0 || B->row_ptr[B->nrows] != B->nnz)) return SPMV_ERR_ARG;
    for (r = 0; r < B->nrows; r++) {
        if (B->row_ptr[r + 1] < B->row_ptr[r]) return SPMV_ERR_ARG;
        if (B->row_ptr[r + 1] == B->row_ptr[r]) nempty++;
    }
    ntiles = B->nnz / T;
    fwords = (int)((T + 31) / 32);
    dwords = fwords + w / 2;
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows + 1);
    A->col_idx = SPMV_ALLOC_N(SPMV_I, B->nnz);
    A->val = SPMV_ALLOC_N(SPMV_T, B->nnz);
    A->tile_ptr = SPMV_ALLOC_N(SPMV_NAME(csr5_uidx), (size_t)ntiles + 1);
    A->tile_desc = SPMV_ALLOC_N(uint32_t, (size_t)ntiles * (size_t)dwords);
    A->empty_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)ntiles + 1);
    A->empty_rows = SPMV_ALLOC_N(SPMV_I, nempty);
    if (!A->row_ptr || !A->col_idx || !A->val || !A->tile_ptr || !A->tile_desc || !A->empty_ptr || !A->empty_rows) {
        SPMV_NAME(csr5_free)(A);
        return SPMV_ERR_ALLOC;
    }
    A->ybits = yb;
    A->flag_words = fwords;
    A->desc_words = dwords;
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->ntiles = ntiles;
    A->nempty = nempty;
    A->params = prm;
    if (B->row_ptr) memcpy(A->row_ptr, B->row_ptr, ((size_t)B->nrows + 1) * sizeof(SPMV_I));
    else A->row_ptr[0] = 0;
    for (r = 0, k = 0; r < B->nrows; r++)
        if (B->row_ptr[r + 1] == B->row_ptr[r]) A->empty_rows[k++] = r;
    /* tile_ptr[t]: the last row whose row_ptr <= t*T, i.e. the row of nonzero t*T */
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (t = 0; t <= ntiles; t++) {
        SPMV_I lo = 0, hi = B->nrows > 0 ? B->nrows - 1 : 0, e = t * T;
        while (lo < hi) { /* largest r with row_ptr[r] <= e */
            SPMV_I mid = lo + (hi - lo + 1) / 2;
            if (B->row_ptr[mid] <= e) lo = mid;
            else hi = mid - 1;
        }
        A->tile_ptr[t] = (SPMV_NAME(csr5_uidx))lo;
    }
    A->empty_ptr[0] = 0;
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (t = 0; t < ntiles; t++) A->empty_ptr[t + 1] = SPMV_NAME(csr5__build_tile)(A, B, t);
    for (t = 0; t < ntiles; t++) A->empty_ptr[t + 1] += A->empty_ptr[t];
    A->empty_offset = SPMV_ALLOC_N(SPMV_I, A->empty_ptr[ntiles]);
    if (!A->empty_offset) {
        SPMV_NAME(csr5_free)(A);
        return SPMV_ERR_ALLOC;
    }
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (t = 0; t < ntiles; t++)
        if (A->tile_ptr[t] & top) SPMV_NAME(csr5__fill_empty)(A, B, t);
    /* the tail stays in CSR order */
    for (k = ntiles * T; k < B->nnz; k++) {
        A->col_idx[k] = B->col_idx[k];
        A->val[k] = B->val[k];
    }
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(csr5_from_csr)(SPMV_NAME(csr5) *A, const SPMV_NAME(csr) *B, const spmv_csr5_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(csr5__build)(A, B, p), "csr5_from_csr", NULL);
}

/* Back to CSR (exactly the input of csr5_from_csr); B gets A's ISA and default algo. */
SPMV_API spmv_status SPMV_NAME(csr5_to_csr)(const SPMV_NAME(csr5) *A, SPMV_NAME(csr) *B) {
    SPMV_I T, t, k;
    int w, s, i, j;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A || (A->nrows > 0 && !A->row_ptr)) return SPMV_ERR_ARG;
    B->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
    B->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!B->row_ptr || !B->col_idx || !B->val) {
        SPMV_NAME(csr_free)(B);
        return SPMV_ERR_ALLOC;
    }
    w = A->params.omega;
    s = A->params.sigma;
    T = (SPMV_I)w * s;
    if (A->row_ptr) memcpy(B->row_ptr, A->row_ptr, ((size_t)A->nrows + 1) * sizeof(SPMV_I));
    else B->row_ptr[0] = 0;
    for (t = 0; t < A->ntiles; t++)
        for (i = 0; i < w; i++)
            for (j = 0; j < s; j++) {
                B->val[t * T + (SPMV_I)i * s + j] = A->val[t * T + (SPMV_I)j * w + i];
                B->col_idx[t * T + (SPMV_I)i * s + j] = A->col_idx[t * T + (SPMV_I)j * w + i];
            }
    for (k = A->ntiles * T; k < A->nnz; k++) {
        B->val[k] = A->val[k];
        B->col_idx[k] = A->col_idx[k];
    }
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = A->params.isa;
    return SPMV_OK;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* sum val[k]*x[col[k]], k < n */
SPMV_KTARGET static inline SPMV_Y SPMV_K(csr5__dot)(const SPMV_T *val, const SPMV_I *col, const SPMV_Y *x, SPMV_I n) {
    spmv_v acc = V_zero();
    SPMV_I k = 0;
    for (; k + SPMV_W <= n; k += SPMV_W) acc = V_fma(V_loadt(val + k), V_gather(x, col + k), acc);
    if (k < n) {
        unsigned m = V_mask_first((int)(n - k));
        acc = V_fma(V_mloadt(m, val + k), V_mgather(m, x, col + k), acc);
    }
    return V_hsum(acc);
}

/* The carried (open) row of a thread: to the calibrator when it continues a row begun
 * by an earlier thread, else written once. */
SPMV_KTARGET static inline void SPMV_K(csr5__flush)(SPMV_Y *y, SPMV_Y alpha, SPMV_Y beta, SPMV_I *crow, SPMV_Y carry,
                                                    int *calib, SPMV_I *cal_row, SPMV_Y *cal_val) {
    SPMV_I r = *crow;
    if (r < 0) return;
    if (*calib) {
        *cal_row = r;
        *cal_val = alpha * carry;
        *calib = 0;
    } else {
        y[r] = beta == (SPMV_Y)0 ? alpha * carry : alpha * carry + beta * y[r];
    }
    *crow = -1;
}

/* Tiles [t0, t1) of one thread. */
SPMV_KTARGET static inline void SPMV_K(csr5__tiles)(const SPMV_NAME(csr5) *A, SPMV_Y alpha,
                                                    const SPMV_Y *SPMV_RESTRICT x, SPMV_Y beta,
                                                    SPMV_Y *SPMV_RESTRICT y, SPMV_I t0, SPMV_I t1, SPMV_I *cal_row,
                                                    SPMV_Y *cal_val) {
    const int s = A->params.sigma, fw = A->flag_words, dw = A->desc_words, yb = A->ybits;
    const SPMV_I T = (SPMV_I)SPMV_W * s;
    const unsigned ymask = (1u << yb) - 1u, lm = V_mask_first(SPMV_W);
    const SPMV_NAME(csr5_uidx) top = SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx));
    SPMV_Y seg[SPMV_CSR5_TILE_MAX + 1]; /* the tile's segment sums, in segment (= row) order; +1: spare */
    SPMV_Y ab[SPMV_CSR5_TILE_MAX];      /* running lane sums before each step */
    SPMV_Y lb[SPMV_W], la[SPMV_W];
    int sid[SPMV_W];
    SPMV_I crow = -1, t;
    SPMV_Y carry = 0;
    int calib = 0;
    *cal_row = -1;
    *cal_val = 0;
    if (t0 >= t1) return;
    memset(lb, 0, sizeof lb);
    {
        SPMV_I r = (SPMV_I)(A->tile_ptr[t0] & ~top);
        if (A->row_ptr[r] < t0 * T) { /* continues a row of an earlier thread */
            crow = r;
            calib = 1;
        }
    }
    for (t = t0; t < t1; t++) {
        const size_t base = (size_t)t * (size_t)T;
        const SPMV_T *tv = A->val + base;
        const SPMV_I *tc = A->col_idx + base;
        const uint32_t *d = A->tile_desc + (size_t)t * (size_t)dw;
        const SPMV_NAME(csr5_uidx) tp = A->tile_ptr[t];
        const SPMV_I row0 = (SPMV_I)(tp & ~top);
        const SPMV_I *eo = (tp & top) ? A->empty_offset + A->empty_ptr[t] : NULL;
        int nseg = 0, k, j;
        for (k = 0; k < fw; k++) nseg += spmv__csr5_popc(d[k]);
        if (nseg == 1) { /* the tile lies inside one row: a plain reduction */
            spmv_v a0 = V_zero(), a1 = V_zero();
            for (j = 0; j + 1 < s; j += 2) {
                a0 = V_fma(V_loadt(tv + (size_t)j * SPMV_W), V_gather(x, tc + (size_t)j * SPMV_W), a0);
                a1 = V_fma(V_loadt(tv + (size_t)(j + 1) * SPMV_W), V_gather(x, tc + (size_t)(j + 1) * SPMV_W), a1);
            }
            if (j < s) a0 = V_fma(V_loadt(tv + (size_t)j * SPMV_W), V_gather(x, tc + (size_t)j * SPMV_W), a0);
            seg[0] = V_hsum(V_add(a0, a1));
        } else {
            spmv_v acc = V_zero(), red;
            unsigned seen = 0;
            for (k = 0; k < SPMV_W; k++) {
                const unsigned slot = (d[fw + (k >> 1)] >> ((k & 1) * 16)) & 0xFFFFu;
                sid[k] = (int)(slot & ymask) - 1;
            }
            /* the vector loop has no data-dependent branch (a mispredicted flag test would
             * flush the gathers in flight): each step logs the lanes' running sums in ab
             * and a flag restarts its lane */
            for (j = 0; j < s; j++) {
                const unsigned bit = (unsigned)j * SPMV_W;
                const unsigned f = (unsigned)(d[bit >> 5] >> (bit & 31u)) & lm;
                const spmv_v pv = V_loadt(tv + (size_t)j * SPMV_W);
                const spmv_v px = V_gather(x, tc + (size_t)j * SPMV_W);
                V_storeu(ab + (size_t)j * SPMV_W, acc);
                seen |= f;
                acc = V_fma(pv, px, V_blend(f, acc, V_zero()));
            }
            /* the flags in element order: a lane's first flag closes its "red" top part (a
             * piece of a segment opened in an earlier lane), each later one a segment opened
             * and closed inside the lane; both sums are the ones logged at the flag */
            {
                /* 64 flags per loop: each loop exit is a mispredicted branch */
                unsigned done = 0;
                for (k = 0; k < fw; k += 2) {
                    uint64_t wd = (uint64_t)d[k] | (k + 1 < fw ? (uint64_t)d[k + 1] << 32 : 0);
                    while (wd) {
                        const int e = k * 32 + spmv__csr5_ctz64(wd), i = e & (SPMV_W - 1);
                        const unsigned li = 1u << i;
                        wd &= wd - 1;
                        *((done & li) ? &seg[sid[i]] : &lb[i]) = ab[e];
                        sid[i]++;
                        done |= li;
                    }
                }
            }
            /* lanes without a flag are middle parts of a segment: all of the lane is red */
            red = V_blend(seen, acc, V_loadu(lb));
            /* the segment left open at the bottom of lane i (its last one) takes the red
             * parts of lanes i+1 .. up to and including the next flagged lane's top part:
             * one pass from the right, a running sum that restarts at each flagged lane
             * (a select, not a product: no other row's NaN or Inf reaches it). Scalar, not
             * the paper's vector scan: 2W-2 flops per tile, fewer micro-ops than the scan's
             * log2 W shift-blend-add levels and the read-back by offset. */
            V_storeu(lb, red);
            V_storeu(la, acc);
            {
                SPMV_Y run = 0;
                for (k = SPMV_W - 1; k >= 0; k--) {
                    const int fl = (int)((seen >> k) & 1u);
                    seg[fl ? sid[k] : SPMV_CSR5_TILE_MAX] = la[k] + run; /* unflagged: a spare slot */
                    run = lb[k] + (fl ? (SPMV_Y)0 : run);
                }
            }
        }
        /* segment 0: continues the carried row, or closes it and opens a new one */
        if (row0 == crow) {
            carry += seg[0];
        } else {
            SPMV_K(csr5__flush)(y, alpha, beta, &crow, carry, &calib, cal_row, cal_val);
            crow = row0;
            carry = seg[0];
        }
        if (nseg > 1) {
            const SPMV_I n = nseg - 2;
            SPMV_K(csr5__flush)(y, alpha, beta, &crow, carry, &calib, cal_row, cal_val);
            if (!eo) { /* rows row0+1 .. row0+nseg-2, contiguous */
                SPMV_Y *yy = y + row0 + 1;
                const SPMV_Y *sv = seg + 1;
                const spmv_v va = V_set1(alpha), vb = V_set1(beta);
                SPMV_I q = 0;
                if (beta == (SPMV_Y)0) {
                    for (; q + SPMV_W <= n; q += SPMV_W) V_storeu(yy + q, V_mul(va, V_loadu(sv + q)));
                    if (q < n) {
                        const unsigned m = V_mask_first((int)(n - q));
                        V_mstore(yy + q, m, V_mul(va, V_mload(m, sv + q)));
                    }
                } else {
                    for (; q + SPMV_W <= n; q += SPMV_W)
                        V_storeu(yy + q, V_fma(vb, V_loadu(yy + q), V_mul(va, V_loadu(sv + q))));
                    if (q < n) {
                        const unsigned m = V_mask_first((int)(n - q));
                        V_mstore(yy + q, m, V_fma(vb, V_mload(m, yy + q), V_mul(va, V_mload(m, sv + q))));
                    }
                }
                crow = row0 + nseg - 1;
            } else {
                for (k = 1; k <= n; k++) {
                    const SPMV_I r = row0 + eo[k];
                    y[r] = beta == (SPMV_Y)0 ? alpha * seg[k] : alpha * seg[k] + beta * y[r];
                }
                crow = row0 + eo[nseg - 1];
            }
            carry = seg[nseg - 1];
        }
    }
    SPMV_K(csr5__flush)(y, alpha, beta, &crow, carry, &calib, cal_row, cal_val);
}

/* y = alpha*A*x + beta*y, complete: y preparation, tiles, calibration, tail. */
SPMV_KTARGET static inline void SPMV_K(csr5_run)(const SPMV_NAME(csr5) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                 SPMV_Y *y) {
    enum { MAXT = 1024 };
    SPMV_I cal_row[MAXT];
    SPMV_Y cal_val[MAXT];
    const SPMV_I T = (SPMV_I)SPMV_W * A->params.sigma;
    int nt = 1, t;
    if (A->nnz >= SPMV_PAR_MIN_NNZ) {
        nt = spmv_max_threads();
        if (nt > MAXT) nt = MAXT;
        if ((SPMV_I)nt > A->ntiles) nt = A->ntiles > 0 ? (int)A->ntiles : 1;
    }
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int tid = spmv__tid(), n = spmv__nthr();
        SPMV_I k;
        /* y preparation: the empty rows (no other write touches them) */
SPMV_OMP(for schedule(static) nowait)
        for (k = 0; k < A->nempty; k++) {
            const SPMV_I r = A->empty_rows[k];
            y[r] = beta == (SPMV_Y)0 ? (SPMV_Y)0 : beta * y[r];
        }
        SPMV_K(csr5__tiles)(A, alpha, x, beta, y, (SPMV_I)((int64_t)A->ntiles * tid / n),
                            (SPMV_I)((int64_t)A->ntiles * (tid + 1) / n), &cal_row[tid], &cal_val[tid]);
SPMV_OMP(single)
        nt = n;
    }
    for (t = 0; t < nt; t++)
        if (cal_row[t] >= 0) y[cal_row[t]] += cal_val[t];
    /* the tail: CSR order; its first row adds when it began in a tile */
    {
        const SPMV_I k0 = A->ntiles * T;
        const SPMV_I *rp = A->row_ptr;
        SPMV_I r;
        if (k0 < A->nnz)
            for (r = (SPMV_I)(A->tile_ptr[A->ntiles] & ~SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx)));
                 r < A->nrows && rp[r] < A->nnz; r++) {
                const SPMV_I b = rp[r] > k0 ? rp[r] : k0, e = rp[r + 1];
                SPMV_Y sum;
                if (b >= e) continue; /* empty: prepared above */
                sum = SPMV_K(csr5__dot)(A->val + b, A->col_idx + b, x, e - b);
                if (rp[r] < k0) y[r] += alpha * sum;
                else y[r] = beta == (SPMV_Y)0 ? alpha * sum : alpha * sum + beta * y[r];
            }
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y with the kernel of A's (isa, omega). beta == 0: y not read. */
SPMV_API spmv_status SPMV_NAME(csr5_mv)(const SPMV_NAME(csr5) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    {
        spmv_status st;
        SPMV_DISPATCH(st, A->params.isa, A->params.omega, SPMV_NAME(csr5_run), (A, alpha, x, beta, y));
        return st;
    }
}

/* the search: candidate value = sigma */
#define SPMV_TF_FAM csr5
#define SPMV_TF_PARAMS spmv_csr5_params
#define SPMV_TF_SET(p, key, v) ((void)(key), (p).sigma = (v))
#define SPMV_TF_CONVERT(M, A, p) SPMV_NAME(csr5_from_csr)(M, A, &(p), NULL)
#include "core/tune_family.h"

/* Picks sigma for A on this machine: converts with each of a few sigma values and times
 * real products (median of 5 samples, each long enough to be measured). *best gets the
 * fastest (isa and omega resolved); *seconds_spent (if not NULL) the time tuning took. A sigma
 * that does not fit the omega (SPMV_ERR_LIMIT) is skipped. */
SPMV_API spmv_status SPMV_NAME(csr5_tune)(const SPMV_NAME(csr) *A, spmv_csr5_params *best,
                                               double *seconds_spent) {
    static const int cand[] = {32, 16, 4, 8, 12, 24, 48, 64};
    spmv_csr5_params base;
    if (seconds_spent) *seconds_spent = 0;
    if (!A || !best) return SPMV_ERR_ARG;
    base = spmv_csr5_params_default(); /* in: the ISA (and omega); out: the fastest */
    base.isa = best->isa;
    base.omega = best->omega;
    *best = base;
    return SPMV_NAME(csr5__tune_search)(A, base, best, cand, (int)(sizeof cand / sizeof cand[0]), 0, 0, seconds_spent);
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_CSR5_RULES)
#define SPMV_CSR5_RULES
/* What the selection knows about csr5 (formats/core/rules.h): its tiles balance irregular
 * rows and cost more than they save on regular ones; on the device 0.48-0.94x csr (skewed
 * median 1.00x). */
static inline double spmv_csr5__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (F->row_cv < 1.0 && F->row_mean >= 4) return *why = "regular rows: CSR5's tiles cost more than they save", 0.0;
    return *why = "irregular rows: CSR5's tiles balance them", spmv_rule_l2(F) && F->row_cv >= 1 ? 1.05 : 0.95;
}
static inline double spmv_csr5__rule_dev(const spmv_auto_features *F, const char **why) {
    return *why = "CSR5 measured 0.48-0.94x csr (skewed median 1.00x)", spmv_rule_skewed(F) ? 1.0 : 0.5;
}
static const spmv_format_rules spmv_rules_csr5 = {9, 11, spmv_csr5__rule_host, spmv_csr5__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
