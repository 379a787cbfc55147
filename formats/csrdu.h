/* CSRDU — CSR with delta-compressed column indices (after Kourtis, Goumas and Koziris,
 * "Optimizing sparse matrix-vector multiplication using index and value compression", ACM
 * Computing Frontiers 2008: their CSR-DU units of one width, here one unit per row).
 * Layout: CSR's row_ptr; the values as CSR's array, or, when they hold at most 256 distinct
 * values (bit patterns), a byte per entry into a table of them, or nothing when they are all one
 * value (a graph's pattern); the column indices in a byte stream, row after
 * row, a non-empty row as a unit: a width byte w (1 or 2: unsigned deltas of that many bytes;
 * 0: signed deltas of the index type's size), then its first column as a delta from the first
 * column of the block's previous non-empty row (from 0 at a block's first), then each further
 * column as a delta from the one before, all in w bytes. w is the narrowest that holds them all
 * (rows whose columns go backwards take w = 0). A first column before the previous row's keeps
 * a narrow unit: with w 1 or 2 the width byte's SPMV_CSRDU_NEG bit says the first delta is
 * stored as its magnitude, to be subtracted (graphs' rows start anywhere: without it 40% of
 * delaunay_n16's rows took 4 bytes an index). ck[b] is the stream's offset at row
 * b * SPMV_CSRDU_G, so that a thread can start at any G-th row. Banded and stencil rows take 1
 * or 2 bytes an index instead of 4 or 8.
 * Kernel: rows split over threads at multiples of G (by entries and rows, as csr splits them),
 * each row's unit decoded in a loop of its one width (no per-entry branch) and summed as csr
 * sums it (the same row kind, accumulators and fused multiply-adds): the product is
 * bit-identical to csr's for the same ISA, whatever the thread count. */

#ifndef SPMV_CSRDU_G
#define SPMV_CSRDU_G 64
#endif

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_CSRDU_COMMON
#define SPMV_CSRDU_COMMON
typedef struct spmv_csrdu_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: csr's ($SPMV_ISA, else csr's calibrated pick, else the widest) */
} spmv_csrdu_params;
static inline spmv_csrdu_params spmv_csrdu_params_default(void) {
    spmv_csrdu_params p;
    p.isa = SPMV_ISA_AUTO;
    return p;
}
static const spmv_param_key spmv__csrdu_keys[] = {{NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}}; /* isa only */
enum { SPMV_CSRDU_PLAIN = 0, SPMV_CSRDU_TABLE = 1, SPMV_CSRDU_ONE = 2 };
/* the width byte's flag: the unit's first delta is stored as its magnitude, subtracted */
#define SPMV_CSRDU_NEG 0x80
/* a row unit's width: 1 or 2 when every step (cols[k] - cols[k-1]) is in [0, 256) or
 * [0, 65536) and so is the first delta f's magnitude, else 0 (the index type's size, signed) */
static inline int spmv__csrdu_width(int64_t f, int64_t maxstep, int64_t minstep) {
    const int64_t af = f < 0 ? -f : f, hi = af > maxstep ? af : maxstep;
    return minstep < 0 ? 0 : hi < 256 ? 1 : hi < 65536 ? 2 : 0;
}
#endif
typedef struct SPMV_NAME(csrdu) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr;   /* CSR's */
    unsigned char *d;  /* the column deltas, row after row */
    int64_t nd;        /* bytes in d */
    int64_t *ck;       /* d's offset at every SPMV_CSRDU_G-th row (nrows / G + 1 of them) */
    int vmode;         /* SPMV_CSRDU_PLAIN: val; _TABLE: tab[vi[k]]; _ONE: v1 for every entry */
    SPMV_T *val;       /* CSR's values, in its order (plain) */
    unsigned char *vi; /* each entry's index into tab (table) */
    SPMV_T *tab;       /* the distinct values, at most 256 (table) */
    int ntab;          /* how many */
    SPMV_T v1;         /* the one value (one) */
    int rows_kind;     /* csr's row sum for these row lengths (csr__plan) */
    spmv_csrdu_params params; /* params.isa resolved at conversion */
} SPMV_NAME(csrdu);
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(csrdu_free)(SPMV_NAME(csrdu) *A);
SPMV_API int64_t SPMV_NAME(csrdu_stored)(const SPMV_NAME(csrdu) *A);
SPMV_API size_t SPMV_NAME(csrdu_bytes)(const SPMV_NAME(csrdu) *A);
SPMV_API spmv_status SPMV_NAME(csrdu_from_csr)(SPMV_NAME(csrdu) *A, const SPMV_NAME(csr) *B,
        const spmv_csrdu_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(csrdu_to_csr)(const SPMV_NAME(csrdu) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(csrdu_mv)(const SPMV_NAME(csrdu) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(csrdu_mm)(const SPMV_NAME(csrdu) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
        int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
SPMV_API spmv_status SPMV_NAME(csrdu_estimate)(const SPMV_NAME(csr) *B, double *ratio, double *narrow);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(csrdu_free)(SPMV_NAME(csrdu) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->d);
    spmv__free(A->ck);
    spmv__free(A->val);
    spmv__free(A->vi);
    spmv__free(A->tab);
    memset(A, 0, sizeof *A);
}
SPMV_API int64_t SPMV_NAME(csrdu_stored)(const SPMV_NAME(csrdu) *A) { return A->nnz; }
/* the value arrays (for _update_values' map, formats/any.h) */
static inline int SPMV_NAME(csrdu__values)(SPMV_NAME(csrdu) *A, SPMV_T **v, int64_t *n) {
    (void)A, (void)v, (void)n;
    return -1; /* the layout depends on the values (their mode): new values rebuild it */
}
SPMV_API size_t SPMV_NAME(csrdu_bytes)(const SPMV_NAME(csrdu) *A) {
    const size_t vb = A->vmode == SPMV_CSRDU_PLAIN   ? (size_t)A->nnz * sizeof(SPMV_T)
                      : A->vmode == SPMV_CSRDU_TABLE ? (size_t)A->nnz + (size_t)A->ntab * sizeof(SPMV_T)
                                                     : 0;
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->nd +
           ((size_t)A->nrows / SPMV_CSRDU_G + 1) * sizeof(int64_t) + vb;
}
/* row r's unit: its width (spmv__csrdu_width) and first delta from *prev (its first column,
 * set there); -1 for an empty row */
static inline int SPMV_NAME(csrdu__unit)(const SPMV_NAME(csr) *B, SPMV_I r, int64_t *prev, int64_t *f) {
    const SPMV_I *rp = B->row_ptr, *ci = B->col_idx;
    int64_t mx = 0, mn = 0;
    SPMV_I k;
    if (rp[r] == rp[r + 1]) return -1;
    *f = (int64_t)ci[rp[r]] - *prev;
    *prev = ci[rp[r]];
    for (k = rp[r] + 1; k < rp[r + 1]; k++) {
        const int64_t st = (int64_t)ci[k] - (int64_t)ci[k - 1];
        mx = st > mx ? st : mx;
        mn = st < mn ? st : mn;
    }
    return spmv__csrdu_width(*f, mx, mn);
}
/* v in w bytes (0: the index type's) at d + p */
static inline void SPMV_NAME(csrdu__put)(unsigned char *d, int64_t p, int w, int64_t v) {
    if (w == 1) {
        d[p] = (unsigned char)v;
    } else if (w == 2) {
        d[p] = (unsigned char)(v & 255);
        d[p + 1] = (unsigned char)((v >> 8) & 255);
    } else {
        const SPMV_I x = (SPMV_I)v;
        memcpy(d + p, &x, sizeof x);
    }
}
/* block b's units into d from p (write) or only their bytes (d NULL); the bytes */
static inline int64_t SPMV_NAME(csrdu__block)(const SPMV_NAME(csr) *B, int64_t b, unsigned char *d, int64_t p) {
    const SPMV_I r0 = (SPMV_I)(b * SPMV_CSRDU_G), r1 = r0 + SPMV_CSRDU_G < B->nrows ? r0 + SPMV_CSRDU_G : B->nrows;
    const int64_t p0 = p;
    int64_t prev = 0, f = 0;
    SPMV_I r, k;
    for (r = r0; r < r1; r++) {
        const int w = SPMV_NAME(csrdu__unit)(B, r, &prev, &f), wb = w ? w : (int)sizeof(SPMV_I);
        if (w < 0) continue;
        if (d) {
            d[p] = (unsigned char)(w && f < 0 ? w | SPMV_CSRDU_NEG : w);
            SPMV_NAME(csrdu__put)(d, p + 1, w, w && f < 0 ? -f : f);
            for (k = B->row_ptr[r] + 1; k < B->row_ptr[r + 1]; k++)
                SPMV_NAME(csrdu__put)(d, p + 1 + (int64_t)(k - B->row_ptr[r]) * wb, w,
                                      (int64_t)B->col_idx[k] - (int64_t)B->col_idx[k - 1]);
        }
        p += 1 + (int64_t)(B->row_ptr[r + 1] - B->row_ptr[r]) * wb;
    }
    return p - p0;
}
/* the stream's bytes per block of G rows into ck (prefix sums), then the stream */
static inline spmv_status SPMV_NAME(csrdu__encode)(SPMV_NAME(csrdu) *A, const SPMV_NAME(csr) *B) {
    const int64_t nb = (int64_t)B->nrows / SPMV_CSRDU_G + 1;
    int64_t b;
    if (!(A->ck = SPMV_ALLOC_N(int64_t, (size_t)nb + 1))) return SPMV_ERR_ALLOC;
    A->ck[0] = 0;
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (b = 0; b < nb; b++) A->ck[b + 1] = SPMV_NAME(csrdu__block)(B, b, NULL, 0);
    for (b = 0; b < nb; b++) A->ck[b + 1] += A->ck[b];
    A->nd = A->ck[nb];
    if (!(A->d = SPMV_ALLOC_N(unsigned char, (size_t)A->nd + 8))) return SPMV_ERR_ALLOC;
    memset(A->d + A->nd, 0, 8); /* the kernel reads one delta past a row's unit (at most 8 bytes) */
SPMV_OMP(parallel for schedule(static) if (B->nnz >= SPMV_PAR_MIN_NNZ))
    for (b = 0; b < nb; b++) (void)SPMV_NAME(csrdu__block)(B, b, A->d, A->ck[b]);
    return SPMV_OK;
}
/* the distinct bit patterns of v into tab (at most 256; an open-addressing set of 512), each
 * entry's index into vi when vi is given; the count, or 257 when there are more */
static inline int SPMV_NAME(csrdu__distinct)(const SPMV_T *v, int64_t n, SPMV_T *tab, unsigned char *vi) {
    int16_t slot[512];
    int cnt = 0;
    int64_t k;
    memset(slot, -1, sizeof slot);
    for (k = 0; k < n; k++) {
        uint64_t w[2] = {0, 0}, h; /* the value's bits: 2 to 16 bytes (a double complex) */
        unsigned i;
        memcpy(w, &v[k], sizeof v[k]);
        h = (w[0] ^ (w[1] * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
        for (i = (unsigned)(h >> 55);; i = (i + 1) & 511u) {
            if (slot[i] < 0) {
                if (cnt == 256) return 257;
                slot[i] = (int16_t)cnt;
                tab[cnt++] = v[k];
                break;
            }
            if (!memcmp(&tab[slot[i]], &v[k], sizeof v[k])) break;
        }
        if (vi) vi[k] = (unsigned char)slot[i];
    }
    return cnt;
}
/* the values: one (all entries one bit pattern), a table (at most 256), else CSR's array */
static inline spmv_status SPMV_NAME(csrdu__vals)(SPMV_NAME(csrdu) *A, const SPMV_NAME(csr) *B) {
    SPMV_T tab[256];
    const int nd = B->nnz ? SPMV_NAME(csrdu__distinct)(B->val, B->nnz, tab, NULL) : 257;
    if (nd == 1) {
        A->vmode = SPMV_CSRDU_ONE;
        A->v1 = tab[0];
    } else if (nd <= 256) {
        A->vmode = SPMV_CSRDU_TABLE;
        A->vi = SPMV_ALLOC_N(unsigned char, (size_t)B->nnz);
        A->tab = SPMV_ALLOC_N(SPMV_T, (size_t)nd);
        if (!A->vi || !A->tab) return SPMV_ERR_ALLOC;
        A->ntab = SPMV_NAME(csrdu__distinct)(B->val, B->nnz, tab, A->vi); /* the same order as the count */
        memcpy(A->tab, tab, (size_t)A->ntab * sizeof(SPMV_T));
    } else {
        A->vmode = SPMV_CSRDU_PLAIN;
        if (!(A->val = SPMV_ALLOC_N(SPMV_T, (size_t)B->nnz + 1))) return SPMV_ERR_ALLOC;
        if (B->nnz) spmv__par_copy(A->val, B->val, (size_t)B->nnz * sizeof(SPMV_T));
    }
    return SPMV_OK;
}
static inline spmv_status SPMV_NAME(csrdu__build)(SPMV_NAME(csrdu) *A, const SPMV_NAME(csr) *B,
                                                  const spmv_csrdu_params *p) {
    spmv_csrdu_params prm = p ? *p : spmv_csrdu_params_default();
    SPMV_NAME(csr) K; /* csr's plan of these row lengths: its row kind */
    spmv_status st;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if ((st = SPMV_NAME(csr_check)(B)) != SPMV_OK) return st;
    if ((st = SPMV_ISA_FOR(SPMV_FMT_CSRDU, prm.isa, &prm.isa)) != SPMV_OK) return st; /* csr's (isa_as) */
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows + 1);
    if (!A->row_ptr || SPMV_NAME(csrdu__vals)(A, B) != SPMV_OK || SPMV_NAME(csrdu__encode)(A, B) != SPMV_OK) {
        SPMV_NAME(csrdu_free)(A);
        return SPMV_ERR_ALLOC;
    }
    spmv__par_copy(A->row_ptr, B->row_ptr, ((size_t)B->nrows + 1) * sizeof(SPMV_I));
    memset(&K, 0, sizeof K);
    K.nrows = B->nrows, K.ncols = B->ncols, K.nnz = B->nnz, K.row_ptr = A->row_ptr;
    K.params = spmv_csr_params_default();
    SPMV_NAME(csr__plan)(&K);
    A->rows_kind = K.rows_kind;
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->params = prm;
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(csrdu_from_csr)(SPMV_NAME(csrdu) *A, const SPMV_NAME(csr) *B,
                                               const spmv_csrdu_params *p, spmv_error *e) {
    return spmv__built(e, SPMV_NAME(csrdu__build)(A, B, p), "csrdu_from_csr", NULL);
}
/* csrdu's bytes against csr's (matrix arrays only) and the share of entries in units of 1 or 2
 * bytes, from a sample of G-row blocks spread evenly over B (all of them up to 32k entries, else
 * about nnz/64 entries, at least 32k): each block's stream as the converter writes it, the values
 * as the mode their sample's distinct values would take (the whole matrix may hold more). The
 * selection's estimate (formats/auto.h): it reads about 1/64 of the entries of a large matrix. */
SPMV_API spmv_status SPMV_NAME(csrdu_estimate)(const SPMV_NAME(csr) *B, double *ratio, double *narrow) {
    const int64_t nb = B ? ((int64_t)B->nrows + SPMV_CSRDU_G - 1) / SPMV_CSRDU_G : 0;
    const double ib = (double)sizeof(SPMV_I), vb_full = (double)sizeof(SPMV_T);
    int64_t b, step, want, nnz_s = 0, narrow_s = 0, rows_s = 0, bytes_s = 0, nv = 0;
    SPMV_T *vs, tab[256];
    double vb;
    if (!B || !ratio || !narrow) return SPMV_ERR_ARG;
    *ratio = *narrow = 1;
    if (B->nnz == 0) return SPMV_OK;
    want = B->nnz <= 32768 ? B->nnz : (B->nnz / 64 > 32768 ? B->nnz / 64 : 32768);
    step = (int64_t)((double)B->nnz / (double)want);
    if (step < 1) step = 1;
    if (!(vs = SPMV_ALLOC_N(SPMV_T, (size_t)want))) return SPMV_ERR_ALLOC;
    for (b = step / 2; b < nb; b += step) {
        const SPMV_I r0 = (SPMV_I)(b * SPMV_CSRDU_G), r1 = r0 + SPMV_CSRDU_G < B->nrows ? r0 + SPMV_CSRDU_G : B->nrows;
        int64_t prev = 0, f = 0, k;
        SPMV_I r;
        bytes_s += SPMV_NAME(csrdu__block)(B, b, NULL, 0);
        for (r = r0; r < r1; r++) {
            const int w = SPMV_NAME(csrdu__unit)(B, r, &prev, &f);
            if (w == 1 || w == 2) narrow_s += B->row_ptr[r + 1] - B->row_ptr[r];
        }
        for (k = B->row_ptr[r0]; k < B->row_ptr[r1] && nv < want; k++) vs[nv++] = B->val[k];
        nnz_s += B->row_ptr[r1] - B->row_ptr[r0];
        rows_s += r1 - r0;
    }
    if (nnz_s > 0) {
        const int nd = SPMV_NAME(csrdu__distinct)(vs, nv, tab, NULL); /* of the first `want` sampled */
        vb = nd == 1 ? 0 : nd <= 256 ? 1 : vb_full;
        *ratio = ((double)bytes_s + vb * (double)nnz_s + (double)rows_s * ib) /
                 ((double)nnz_s * (vb_full + ib) + (double)rows_s * ib);
        *narrow = (double)narrow_s / (double)nnz_s;
    }
    spmv__free(vs);
    return SPMV_OK;
}
/* the first row of thread t's part of n (nrows for t == n): csr's split of the rows by entries,
 * rounded down to a multiple of G (a checkpoint), so that csrdu_mv and csrdu_mm split alike */
static inline SPMV_I SPMV_NAME(csrdu__start)(const SPMV_NAME(csrdu) *A, int t, int n) {
    return t >= n ? A->nrows : SPMV_NAME(csr__split)(A->row_ptr, A->nrows, t, n) / SPMV_CSRDU_G * SPMV_CSRDU_G;
}
/* back to CSR: the columns decoded, entries as stored */
/* one value of w bytes (0: the index type's, signed) at *pd, pd advanced */
static SPMV__ALWAYS_INLINE int64_t SPMV_NAME(csrdu__get)(const unsigned char **pd, int w) {
    const unsigned char *q = *pd;
    if (w == 1) {
        *pd = q + 1;
        return q[0];
    }
    if (w == 2) {
        *pd = q + 2;
        return (int64_t)q[0] | ((int64_t)q[1] << 8);
    }
    {
        SPMV_I v;
        memcpy(&v, q, sizeof v);
        *pd = q + sizeof v;
        return (int64_t)v;
    }
}
/* a unit's first column: its width byte at *pd (w its width), the first delta added to prev
 * or (SPMV_CSRDU_NEG) subtracted from it; *pd left after the delta */
static SPMV__ALWAYS_INLINE uint64_t SPMV_NAME(csrdu__first)(const unsigned char **pd, int w, int64_t prev) {
    const int neg = **pd & SPMV_CSRDU_NEG;
    uint64_t f;
    ++*pd;
    f = (uint64_t)SPMV_NAME(csrdu__get)(pd, w);
    return neg ? (uint64_t)prev - f : (uint64_t)prev + f;
}
/* back to CSR: the columns decoded, entries as stored */
SPMV_API spmv_status SPMV_NAME(csrdu_to_csr)(const SPMV_NAME(csrdu) *A, SPMV_NAME(csr) *B) {
    SPMV_NAME(csr) W;
    SPMV_I *col, r, k;
    SPMV_T *val = NULL;
    const unsigned char *d;
    int64_t prev = 0;
    spmv_status st;
    if (!A || !B) {
        if (B) memset(B, 0, sizeof *B);
        return SPMV_ERR_ARG;
    }
    if (!(col = SPMV_ALLOC_N(SPMV_I, (size_t)A->nnz + 1))) {
        memset(B, 0, sizeof *B);
        return SPMV_ERR_ALLOC;
    }
    for (r = 0, d = A->d; r < A->nrows; r++) {
        int w;
        uint64_t c;
        if (r % SPMV_CSRDU_G == 0) prev = 0;
        if (A->row_ptr[r] == A->row_ptr[r + 1]) continue;
        w = *d & 3;
        c = SPMV_NAME(csrdu__first)(&d, w, prev);
        prev = (int64_t)c;
        col[A->row_ptr[r]] = (SPMV_I)c;
        for (k = A->row_ptr[r] + 1; k < A->row_ptr[r + 1]; k++) {
            c += (uint64_t)SPMV_NAME(csrdu__get)(&d, w);
            col[k] = (SPMV_I)c;
        }
    }
    if (A->vmode != SPMV_CSRDU_PLAIN && !(val = SPMV_ALLOC_N(SPMV_T, (size_t)A->nnz + 1))) {
        spmv__free(col);
        memset(B, 0, sizeof *B);
        return SPMV_ERR_ALLOC;
    }
    for (k = 0; val && k < A->nnz; k++) val[k] = A->vmode == SPMV_CSRDU_TABLE ? A->tab[A->vi[k]] : A->v1;
    st = SPMV_NAME(csr_wrap)(&W, A->nrows, A->ncols, A->row_ptr, col, val ? val : A->val, NULL, NULL);
    if (st == SPMV_OK) st = SPMV_NAME(csr_from_csr)(B, &W, NULL, NULL);
    if (st == SPMV_OK) SPMV_NAME(csr_free)(&W);
    spmv__free(col);
    spmv__free(val);
    return st;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* the next delta, of width w (a constant at each call) */
#define SPMV__CSRDU_D() ((uint64_t)SPMV_NAME(csrdu__get)(&pd, w))
/* entry k's value by the value mode vm (a constant at each call) */
#define SPMV__CSRDU_V(k) (vm == SPMV_CSRDU_PLAIN ? val[k] : vm == SPMV_CSRDU_TABLE ? tab[vi[k]] : v1)
/* entries k..k+3 into the accumulators a0..a3 (all four the same one: a single chain in order),
 * the next delta read after each */
#define SPMV__CSRDU_4(a0, a1, a2, a3)                                                                           \
    do {                                                                                                        \
        SPMV__CSR_MAC(a0, SPMV__CSRDU_V(k), x[(int64_t)c]);                                                     \
        c += SPMV__CSRDU_D();                                                                                   \
        SPMV__CSR_MAC(a1, SPMV__CSRDU_V(k + 1), x[(int64_t)c]);                                                 \
        c += SPMV__CSRDU_D();                                                                                   \
        SPMV__CSR_MAC(a2, SPMV__CSRDU_V(k + 2), x[(int64_t)c]);                                                 \
        c += SPMV__CSRDU_D();                                                                                   \
        SPMV__CSR_MAC(a3, SPMV__CSRDU_V(k + 3), x[(int64_t)c]);                                                 \
        c += SPMV__CSRDU_D();                                                                                   \
    } while (0)
/* Row r's sum as csr__dots makes it (one accumulator; four from SPMV_CSR_LONG entries when
 * split), its unit of width w (a constant at each call: one loop per width) read from *ppd
 * (left after it), its first column from *prev (set to it). c is the entry's column exactly
 * (the deltas are the columns' differences, full-width ones sign-extended), so it indexes x as
 * a 64-bit integer with no narrowing to SPMV_I (one instruction less an entry); the delta read
 * ahead after the last entry may make it anything, and it is not used then. The one-accumulator
 * loop takes four entries a step (the same chain of sums, fewer loop instructions). */
SPMV_KTARGET static SPMV__ALWAYS_INLINE SPMV_Y SPMV_K(csrdu__row)(const SPMV_NAME(csrdu) *SPMV_RESTRICT A,
                                                              const SPMV_Y *SPMV_RESTRICT x, SPMV_I r,
                                                              const unsigned char **ppd, int64_t *prev, int split,
                                                              int w, int vm) {
    const unsigned char *pd = *ppd, *vi = A->vi;
    const SPMV_T *val = A->val, *tab = A->tab, v1 = A->v1;
    SPMV_I k = A->row_ptr[r], e = A->row_ptr[r + 1];
    uint64_t c = SPMV_NAME(csrdu__first)(&pd, w, *prev);
    SPMV_Y s0 = 0;
    *prev = (int64_t)c;
    if (split && e - k >= SPMV_CSR_LONG) {
        SPMV_Y s1 = 0, s2 = 0, s3 = 0;
        for (; k + 4 <= e; k += 4) SPMV__CSRDU_4(s0, s1, s2, s3);
        s0 = (s0 + s1) + (s2 + s3);
    } else {
        for (; k + 4 <= e; k += 4) {
            SPMV__CSRDU_4(s0, s0, s0, s0);
            SPMV__CSR_NOVEC(s0);
        }
    }
    for (; k < e; k++) {
        SPMV__CSR_MAC(s0, SPMV__CSRDU_V(k), x[(int64_t)c]);
        SPMV__CSR_NOVEC(s0);
        c += SPMV__CSRDU_D();
    }
    /* the last delta read lies past the unit (the next unit's bytes or the stream's padding):
       unused, its bytes given back */
    *ppd = pd - (w ? w : (int)sizeof(SPMV_I));
    return s0;
}
/* rows [r0, r1), r0 a multiple of G: each row's width read once, its loop chosen by it */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(csrdu__rows)(const SPMV_NAME(csrdu) *SPMV_RESTRICT A,
                                                   const SPMV_Y *SPMV_RESTRICT x, SPMV_Y *SPMV_RESTRICT y,
                                                   SPMV_I r0, SPMV_I r1, SPMV_Y alpha, SPMV_Y beta, int split,
                                                   int vm) {
    const unsigned char *pd = A->d + A->ck[r0 / SPMV_CSRDU_G];
    int64_t prev = 0;
    SPMV_I r;
    for (r = r0; r < r1; r++) {
        SPMV_Y s = 0;
        if (r % SPMV_CSRDU_G == 0) prev = 0;
        if (A->row_ptr[r] < A->row_ptr[r + 1]) {
            const int w = *pd & 3;
            if (w == 1) s = SPMV_K(csrdu__row)(A, x, r, &pd, &prev, split, 1, vm);
            else if (w == 2) s = SPMV_K(csrdu__row)(A, x, r, &pd, &prev, split, 2, vm);
            else s = SPMV_K(csrdu__row)(A, x, r, &pd, &prev, split, 0, vm);
        }
        if (beta == (SPMV_Y)0 && alpha == (SPMV_Y)1) y[r] = s;
        else if (beta == (SPMV_Y)0) y[r] = alpha * s;
        else y[r] = SPMV_K(csr__axpby)(alpha, s, beta, y[r]); /* csr's rounding (formats/csr.h) */
    }
}
/* rows [r0, r1) with the row kind and value mode as constants (one loop per pair) */
SPMV_KTARGET static inline void SPMV_K(csrdu__part)(const SPMV_NAME(csrdu) *A, const SPMV_Y *x, SPMV_Y *y, SPMV_I r0,
                                                   SPMV_I r1, SPMV_Y alpha, SPMV_Y beta) {
    const int split = A->rows_kind == SPMV_CSR_RK_SPLIT;
    if (r0 >= r1) return;
    switch (A->vmode * 2 + split) {
    case 0: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 0, SPMV_CSRDU_PLAIN); break;
    case 1: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 1, SPMV_CSRDU_PLAIN); break;
    case 2: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 0, SPMV_CSRDU_TABLE); break;
    case 3: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 1, SPMV_CSRDU_TABLE); break;
    case 4: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 0, SPMV_CSRDU_ONE); break;
    default: SPMV_K(csrdu__rows)(A, x, y, r0, r1, alpha, beta, 1, SPMV_CSRDU_ONE); break;
    }
}
/* rows split as csr splits them, each part's start rounded down to a multiple of G */
SPMV_KTARGET static inline void SPMV_K(csrdu_mv)(const SPMV_NAME(csrdu) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y) {
    const int nt = (int64_t)A->nnz + A->nrows >= SPMV_CSR_PAR_MIN ? spmv_max_threads() : 1;
    if (nt <= 1) {
        SPMV_K(csrdu__part)(A, x, y, 0, A->nrows, alpha, beta);
        return;
    }
SPMV_OMP(parallel num_threads(nt))
    {
        const SPMV_I r0 = SPMV_NAME(csrdu__start)(A, spmv__tid(), spmv__nthr());
        const SPMV_I r1 = SPMV_NAME(csrdu__start)(A, spmv__tid() + 1, spmv__nthr());
        SPMV_K(csrdu__part)(A, x, y, r0, r1, alpha, beta);
    }
}
/* Row-major SpMM, rows [r0, r1) (r0 a multiple of G), X's columns [j0, j0 + NV*W): csr__mm_rm's
 * sums (formats/csr_ops.h), each row's unit decoded once for the NV vectors */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(csrdu__mm_rm)(const SPMV_NAME(csrdu) *A, SPMV_I r0, SPMV_I r1,
                                                              const SPMV_Y *X, int64_t ldx, SPMV_Y *Y, int64_t ldy,
                                                              SPMV_Y alpha, SPMV_Y beta, int64_t j0, const int NV,
                                                              unsigned mlast) {
    const unsigned char *pd = A->d + A->ck[r0 / SPMV_CSRDU_G];
    int64_t prev = 0;
    SPMV_I r, k;
    int b;
    for (r = r0; r < r1; r++) {
        spmv_v acc[4];
        for (b = 0; b < NV; b++) acc[b] = V_zero();
        if (r % SPMV_CSRDU_G == 0) prev = 0;
        if (A->row_ptr[r] < A->row_ptr[r + 1]) {
            const int w = *pd & 3;
            uint64_t c = SPMV_NAME(csrdu__first)(&pd, w, prev);
            prev = (int64_t)c;
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                const SPMV_Y v = V_tv(A->vmode == SPMV_CSRDU_PLAIN   ? A->val[k]
                                      : A->vmode == SPMV_CSRDU_TABLE ? A->tab[A->vi[k]]
                                                                     : A->v1);
                SPMV_K(mm__acc)(acc, v, X + (int64_t)(SPMV_I)c * ldx + j0, NV, mlast);
                if (k + 1 < A->row_ptr[r + 1]) c += (uint64_t)SPMV_NAME(csrdu__get)(&pd, w);
            }
        }
        SPMV_K(mm__put)(Y + (int64_t)r * ldy + j0, acc, NV, mlast, alpha, beta);
    }
}
/* rows split as csrdu_mv splits them */
SPMV_KTARGET static inline void SPMV_K(csrdu__mm)(const SPMV_NAME(csrdu) *A, int64_t kk, SPMV_Y alpha,
                                                  const SPMV_Y *X, int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy) {
    const int nt = (int64_t)A->nnz + A->nrows >= SPMV_CSR_PAR_MIN ? spmv_max_threads() : 1;
    (void)nt; /* unused without OpenMP */
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const SPMV_I r0 = SPMV_NAME(csrdu__start)(A, spmv__tid(), spmv__nthr());
        const SPMV_I r1 = SPMV_NAME(csrdu__start)(A, spmv__tid() + 1, spmv__nthr());
        if (r0 < r1) SPMV__MM_BLOCKS(kk, SPMV_K(csrdu__mm_rm), A, r0, r1, X, ldx, Y, ldy, alpha, beta);
    }
}
#undef SPMV__CSRDU_V
#undef SPMV__CSRDU_D
#undef SPMV__CSRDU_4
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
SPMV_API spmv_status SPMV_NAME(csrdu_mv)(const SPMV_NAME(csrdu) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                         SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(csrdu_mv), (A, alpha, x, beta, y));
    return st;
}
/* Y = alpha*A*X + beta*Y with k row-major vectors (formats/csr_ops.h's conventions), bit for bit
 * csr_mm's; column-major: SPMV_ERR_UNSUPPORTED (any_mm then runs one product per vector) */
SPMV_API spmv_status SPMV_NAME(csrdu_mm)(const SPMV_NAME(csrdu) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                         int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    spmv_status st;
    if (!A || spmv__mm_args_bad(A->ncols, A->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (lay != SPMV_ROW_MAJOR) return SPMV_ERR_UNSUPPORTED;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(csrdu__mm), (A, k, alpha, X, ldx, beta, Y, ldy));
    return st;
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_CSRDU_RULES)
#define SPMV_CSRDU_RULES
/* What the selection knows about csrdu (docs/PERFORMANCE.md, "csrdu"): its bytes are saved only
 * where the product streams them, beyond the last-level cache, and only where the columns are
 * near each other (units of 1 or 2 bytes): with columns far apart x's gathers, not the index
 * bytes, bound csr's product. There the prediction is CSR's bytes (with x and y) over csrdu's,
 * at most SPMV_CSRDU_DECODE_CAP: the decode costs 1.5-2x csr's instructions an entry, so that
 * on a CPU with slow cores for its bandwidth csrdu is bound by them, not by bytes, and gains
 * little; how much depends on the CPU, so only a trial can choose it (the deterministic
 * selection, rules alone, leaves it out). */
#ifndef SPMV_CSRDU_DECODE_CAP
#define SPMV_CSRDU_DECODE_CAP 1.25
#endif
#ifndef SPMV_CSRDU_NARROW_MIN
#define SPMV_CSRDU_NARROW_MIN 0.9
#endif
static inline double spmv_csrdu__bytes(const spmv_auto_features *F) {
    return F->du_bytes_ratio * ((double)F->nnz * (F->value_bytes + F->index_bytes) + (double)F->nrows * F->index_bytes);
}
static inline double spmv_csrdu__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    const double xy = (double)(F->nrows + F->ncols) * (F->vector_bytes ? F->vector_bytes : F->value_bytes),
                 du = spmv_csrdu__bytes(F) + xy;
    double p;
    if (o->mm_k > 1) return *why = "SpMM: x's rows, not the index bytes, are most of what it reads", 0.0;
    if (o->deterministic) return *why = "its gain depends on the CPU's decode speed: chosen by a trial only", 0.0;
    if (!spmv_rule_big(F)) return *why = "in cache: decoding costs more than the bytes it saves", 0.0;
    if (F->du_narrow < SPMV_CSRDU_NARROW_MIN)
        return *why = "columns far apart (wide units): x's gathers, not index bytes, bound the product", 0.0;
    p = du > 0 ? F->csr_bytes / du : 1;
    if (p >= SPMV_CSRDU_DECODE_CAP) return *why = "beyond the cache, local columns: bytes saved, up to the decode's cap",
                                    SPMV_CSRDU_DECODE_CAP;
    return *why = "beyond the cache, local columns: CSR's bytes over csrdu's", p;
}
/* on the device: not measured on a GPU yet (its kernel is checked in the CUDA emulation only) */
static inline double spmv_csrdu__rule_dev(const spmv_auto_features *F, const char **why) {
    (void)F;
    return *why = "not measured on a GPU yet", 0.0;
}
/* its ISA is csr's (isa_as): the same arithmetic, so that its products are csr's bit for bit */
static const spmv_format_rules spmv_rules_csrdu = {12,   12, spmv_csrdu__rule_host, spmv_csrdu__rule_dev, NULL, spmv_csrdu__bytes,
                                                   NULL, SPMV_CALIB_ROWS, 1 + SPMV_FMT_CSR};
#endif /* SPMV_PART_RULES */
