/* SSS — symmetric sparse storage: the lower triangle of a symmetric matrix, diagonal included,
 * row by row. Layout: row_ptr[n+1]; col[k], val[k] for the stored entries, columns ascending
 * within a row, so a row's diagonal entry (when present) is its last. Footprint
 * (n+1)*sizeof(I) + stored*(sizeof(I)+sizeof(T)) with stored = (nnz + diagonal entries) / 2:
 * about half of CSR's bytes. Explicit zeros are kept (and mirrored), like every format.
 *
 * Building: from a full CSR that is symmetric, checked exactly (square; A(i,j) and A(j,i)
 * both present or both absent, with equal values; NaN equals NaN), or for a complex tag
 * hermitian (A(j,i) = conj(A(i,j)), a real diagonal: herm = 1, each mirrored add conjugated);
 * anything else is SPMV_ERR_ARG; or, without ever expanding it, from the one triangle a symmetric Matrix Market
 * file holds (spmv_mm_read_opts with SPMV_MM_ONE_TRIANGLE, then sss_from_triangle).
 *
 * Kernel (y = alpha*A*x + beta*y): stored entry (i, j, v) with j < i adds v*x[j] to row i and
 * v*x[i] to row j. The rows are split into parts of equal nnz, one per thread. A part owns
 * y over its rows: its row sums and the mirrored adds landing in its rows go straight into y.
 * A mirrored add below the part's first row belongs to an earlier part, and goes to a buffer
 * private to the part, covering [lo, first row) where lo is the smallest column in its rows;
 * after a barrier each part adds, into its own rows, the buffers of the later parts that
 * overlap them, in part order. Race-free without atomics and the same bits for a given
 * thread count. Why buffers and not a colouring: a colouring needs the rows of one colour
 * to have no common column, which a FEM matrix allows only with many small colours, each a
 * pass over x and y; the buffers cost (first row - lo) values per part, a fraction of n on
 * banded (RCM-ordered) matrices. They are allocated at each product (a handle is read-only
 * while multiplying, so several threads may share it); if that allocation fails the product
 * runs on one thread, without buffers. The split for the build's thread count (up to
 * SPMV_SSS_PARTS) is found once at conversion, other counts at each call. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_SSS_COMMON
#define SPMV_SSS_COMMON
typedef struct spmv_sss_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
    int herm;     /* sss_from_triangle: the triangle is a hermitian matrix's (each mirror the conjugate;
                     spmv_mm_read_opts says 2 for such a file); sss_from_csr finds out itself */
} spmv_sss_params;
static inline spmv_sss_params spmv_sss_params_default(void) {
    spmv_sss_params p;
    p.isa = SPMV_ISA_AUTO;
    p.herm = 0;
    return p;
}
static const spmv_param_key spmv__sss_keys[] = {
    {"herm", offsetof(spmv_sss_params, herm), SPMV_PK_INT, 0, 1, NULL,
     "from one triangle (any_from_triangle): 1 when it is a hermitian matrix's (complex tags)"},
    {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}};
#ifndef SPMV_SSS_PARTS
#define SPMV_SSS_PARTS 64 /* thread counts up to this get their split stored in the object */
#endif
#endif

typedef struct SPMV_NAME(sss) {
    SPMV_I nrows, ncols, nnz; /* n, n, and the full matrix's entries (both triangles) */
    SPMV_I stored;            /* entries held: the lower triangle and the diagonal */
    SPMV_I *row_ptr, *col;
    SPMV_T *val;
    spmv_sss_params params; /* params.isa is resolved (never AUTO) after conversion */
    int herm;               /* 1: a hermitian matrix (complex tags): the mirror of (i, j, v) is conj(v) */
    /* the split for part_nt threads: part p has rows [part[p], part[p+1]), its smallest
     * column is lo[p] */
    int part_nt;
    SPMV_I part[SPMV_SSS_PARTS + 1], lo[SPMV_SSS_PARTS];
} SPMV_NAME(sss);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(sss_free)(SPMV_NAME(sss) *A);
SPMV_API int64_t SPMV_NAME(sss_stored)(const SPMV_NAME(sss) *A);
SPMV_API size_t SPMV_NAME(sss_bytes)(const SPMV_NAME(sss) *A);
SPMV_API spmv_status SPMV_NAME(sss_from_csr)(SPMV_NAME(sss) *A, const SPMV_NAME(csr) *B, const spmv_sss_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(sss_from_triangle)(SPMV_NAME(sss) *A, const spmv_triplets *t,
        const spmv_sss_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(sss_to_csr)(const SPMV_NAME(sss) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(sss_mv)(const SPMV_NAME(sss) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(sss_free)(SPMV_NAME(sss) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->col);
    spmv__free(A->val);
    memset(A, 0, sizeof *A);
}
SPMV_API int64_t SPMV_NAME(sss_stored)(const SPMV_NAME(sss) *A) { return A->stored; }
/* the value array (for _update_values' map: formats/any.h builds it with sss__vmap) */
static inline int SPMV_NAME(sss__values)(SPMV_NAME(sss) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->stored;
    return 1;
}
SPMV_API size_t SPMV_NAME(sss_bytes)(const SPMV_NAME(sss) *A) {
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->stored * (sizeof(SPMV_I) + sizeof(SPMV_T));
}

/* smallest column of rows [b, e) (columns ascend in a row: its first entry), e when none */
static inline SPMV_I SPMV_NAME(sss__lo)(const SPMV_NAME(sss) *A, SPMV_I b, SPMV_I e) {
    SPMV_I lo = e, r;
    for (r = b; r < e; r++)
        if (A->row_ptr[r + 1] > A->row_ptr[r] && A->col[A->row_ptr[r]] < lo) lo = A->col[A->row_ptr[r]];
    return lo;
}
/* the split over nt parts into part[nt+1], lo[nt] (rows weighted by stored entries + 1) */
static inline void SPMV_NAME(sss__split)(const SPMV_NAME(sss) *A, int nt, SPMV_I *part, SPMV_I *lo) {
    int t;
    for (t = 0; t <= nt; t++) part[t] = SPMV_NAME(csr__split)(A->row_ptr, A->nrows, t, nt);
SPMV_OMP(parallel for schedule(static) if (A->stored >= SPMV_PAR_MIN_NNZ && nt > 1))
    for (t = 0; t < nt; t++) lo[t] = SPMV_NAME(sss__lo)(A, part[t], part[t + 1]);
}
static inline int SPMV_NAME(sss__threads)(const SPMV_NAME(sss) *A) {
    int n = A->stored >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
#ifdef _OPENMP
    /* inside a parallel region that cannot nest, the product runs on the calling thread: one
       part, so that it gives the single-threaded product's bits */
    if (omp_get_active_level() >= omp_get_max_active_levels()) n = 1;
#endif
    return n < 1 ? 1 : n;
}
static inline void SPMV_NAME(sss__plan)(SPMV_NAME(sss) *A) {
    const int n = SPMV_NAME(sss__threads)(A);
    A->part_nt = 0;
    if (n < 2 || n > SPMV_SSS_PARTS) return;
    SPMV_NAME(sss__split)(A, n, A->part, A->lo);
    A->part_nt = n;
}

/* Allocates A's arrays for n rows and `stored` entries. */
static inline spmv_status SPMV_NAME(sss__alloc)(SPMV_NAME(sss) *A, SPMV_I n, int64_t stored) {
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)n + 1);
    A->col = SPMV_ALLOC_N(SPMV_I, stored);
    A->val = SPMV_ALLOC_N(SPMV_T, stored);
    if (!A->row_ptr || !A->col || !A->val) {
        SPMV_NAME(sss_free)(A);
        return SPMV_ERR_ALLOC;
    }
    A->nrows = A->ncols = n;
    A->stored = (SPMV_I)stored;
    return SPMV_OK;
}

/* From CSR B, which must be symmetric (exactly: see the top). Columns in any order and
 * repeated columns (summed) are accepted. SPMV_ERR_ARG for a malformed, rectangular or
 * non-symmetric B. */
static inline spmv_status SPMV_NAME(sss__build)(SPMV_NAME(sss) *A, const SPMV_NAME(csr) *B,
                                                  const spmv_sss_params *p) {
    spmv_sss_params prm = p ? *p : spmv_sss_params_default();
    SPMV_NAME(csr) C;
    spmv_status st;
    SPMV_I r;
    int own = 0, herm = 0;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if ((st = SPMV_NAME(csr_check)(B)) != SPMV_OK) return st;
    if (B->nrows != B->ncols) return SPMV_ERR_ARG;
    if ((st = SPMV_ISA_FOR(SPMV_FMT_SSS, prm.isa, &prm.isa)) != SPMV_OK) return st;
    if ((st = SPMV_NAME(csr__sorted_view)(B, &C, &own)) != SPMV_OK) return st; /* sorted, repeats summed */
    if (!SPMV_NAME(csr__symmetric)(&C) && !(SPMV__COMPLEX && (herm = SPMV_NAME(csr__mirrored)(&C, 1)))) {
        st = SPMV_ERR_ARG;
    } else {
        int64_t stored = 0;
SPMV_OMP(parallel for schedule(static) reduction(+ : stored) if (C.nnz >= SPMV_PAR_MIN_NNZ))
        for (r = 0; r < C.nrows; r++) {
            SPMV_I q; /* (private: declared in the loop) */
            for (q = C.row_ptr[r]; q < C.row_ptr[r + 1] && C.col_idx[q] <= r; q++) stored++;
        }
        st = SPMV_NAME(sss__alloc)(A, C.nrows, stored);
    }
    if (st == SPMV_OK) { /* row lengths, their prefix, then the rows copied in parallel */
        A->row_ptr[0] = 0;
SPMV_OMP(parallel for schedule(static) if (C.nnz >= SPMV_PAR_MIN_NNZ))
        for (r = 0; r < C.nrows; r++) {
            SPMV_I q = C.row_ptr[r];
            while (q < C.row_ptr[r + 1] && C.col_idx[q] <= r) q++;
            A->row_ptr[r + 1] = q - C.row_ptr[r];
        }
        for (r = 0; r < C.nrows; r++) A->row_ptr[r + 1] += A->row_ptr[r];
SPMV_OMP(parallel for schedule(static) if (C.nnz >= SPMV_PAR_MIN_NNZ))
        for (r = 0; r < C.nrows; r++) {
            const SPMV_I n = A->row_ptr[r + 1] - A->row_ptr[r];
            memcpy(A->col + A->row_ptr[r], C.col_idx + C.row_ptr[r], (size_t)n * sizeof(SPMV_I));
            memcpy(A->val + A->row_ptr[r], C.val + C.row_ptr[r], (size_t)n * sizeof(SPMV_T));
        }
        A->nnz = C.nnz;
        A->params = prm;
        A->herm = herm;
        SPMV_NAME(sss__plan)(A);
    }
    if (own) SPMV_NAME(csr_free)(&C);
    return st;
}
SPMV_API spmv_status SPMV_NAME(sss_from_csr)(SPMV_NAME(sss) *A, const SPMV_NAME(csr) *B, const spmv_sss_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(sss__build)(A, B, p), "sss_from_csr", NULL);
}

/* From triplets holding one triangle of a symmetric matrix (what spmv_mm_read_opts gives
 * with SPMV_MM_ONE_TRIANGLE): each (i, j, v) stands for both (i, j) and (j, i); the entries
 * lie in the lower or in the upper triangle (diagonal included; the upper one is mirrored
 * into the lower; with p->herm, a complex tag's hermitian triangle: an upper entry's mirror is its
 * conjugate, the diagonal must be real) and repeats are summed. The full matrix is never formed. SPMV_ERR_ARG when
 * t is not square, an index is out of range, or it has entries on both sides of the diagonal
 * (a full matrix, which mirroring would turn into another one: build sss from its CSR, which
 * checks symmetry); SPMV_ERR_OVERFLOW when a size does not fit the index type. */
SPMV_API spmv_status SPMV_NAME(sss_from_triangle)(SPMV_NAME(sss) *A, const spmv_triplets *t,
                                                  const spmv_sss_params *p, spmv_error *e) {
    spmv_sss_params prm = p ? *p : spmv_sss_params_default();
    spmv_coo_params cp = spmv_coo_params_default();
    spmv_triplets l;
    SPMV_NAME(coo) S;
    spmv_status st;
    int64_t k, full = 0;
    int below = 0, above = 0;
    const int herm = SPMV__COMPLEX && prm.herm; /* (a real hermitian matrix is a symmetric one) */
    if (!A) return spmv__built(e, SPMV_ERR_ARG, "sss_from_triangle", "no object");
    memset(A, 0, sizeof *A);
    if (!t || t->nrows != t->ncols || t->nnz < 0 || (t->nnz > 0 && (!t->row || !t->col || !t->val)))
        return spmv__built(e, SPMV_ERR_ARG, "sss_from_triangle", "not square, or NULL arrays with entries");
    if ((st = SPMV_ISA_FOR(SPMV_FMT_SSS, prm.isa, &prm.isa)) != SPMV_OK) return spmv__built(e, st, "sss_from_triangle", "params.isa");
    for (k = 0; k < t->nnz; k++) {
        below |= t->row[k] > t->col[k];
        above |= t->row[k] < t->col[k];
        if (herm && t->vim && t->row[k] == t->col[k] && t->vim[k] != 0)
            return spmv__built(e, SPMV_ERR_ARG, "sss_from_triangle", "a hermitian matrix's diagonal must be real");
    }
    if (below && above) /* what a full matrix looks like: mirroring it would make another matrix */
        return spmv__built(e, SPMV_ERR_ARG, "sss_from_triangle",
                           "entries on both sides of the diagonal: not one triangle (a full symmetric matrix: sss from CSR)");
    if ((st = spmv_triplets_alloc(&l, t->nrows, t->ncols, t->nnz)) != SPMV_OK) return spmv__built(e, st, "sss_from_triangle", NULL);
    if (t->vim && !(l.vim = SPMV_ALLOC_N(double, t->nnz > 0 ? t->nnz : 1))) { /* complex symmetric: a_ji = a_ij */
        spmv_triplets_free(&l);
        return spmv__built(e, SPMV_ERR_ALLOC, "sss_from_triangle", NULL);
    }
    for (k = 0; k < t->nnz; k++) {
        const int64_t i = t->row[k], j = t->col[k];
        l.row[k] = i > j ? i : j;
        l.col[k] = i > j ? j : i;
        l.val[k] = t->val[k];
        if (l.vim) l.vim[k] = herm && i < j ? -t->vim[k] : t->vim[k]; /* an upper entry's mirror */
    }
    cp.isa = SPMV_ISA_GENERIC;
    st = SPMV_NAME(coo_from_triplets)(&S, &l, &cp, e); /* checks the indices, sorts, sums repeats */
    spmv_triplets_free(&l);
    if (st != SPMV_OK) return st;
    for (k = 0; k < (int64_t)S.nnz; k++) full += S.row[k] == S.col[k] ? 1 : 2;
    if (full > SPMV_IMAX) st = SPMV_ERR_OVERFLOW;
    if (st == SPMV_OK) st = SPMV_NAME(sss__alloc)(A, S.nrows, S.nnz);
    if (st == SPMV_OK) {
        memset(A->row_ptr, 0, ((size_t)S.nrows + 1) * sizeof(SPMV_I));
        for (k = 0; k < (int64_t)S.nnz; k++) A->row_ptr[S.row[k] + 1]++;
        for (k = 0; k < (int64_t)S.nrows; k++) A->row_ptr[k + 1] += A->row_ptr[k];
        if (S.nnz) {
            memcpy(A->col, S.col, (size_t)S.nnz * sizeof(SPMV_I));
            memcpy(A->val, S.val, (size_t)S.nnz * sizeof(SPMV_T));
        }
        A->nnz = (SPMV_I)full;
        A->params = prm;
        A->herm = herm;
        SPMV_NAME(sss__plan)(A);
    }
    SPMV_NAME(coo_free)(&S);
    return spmv__built(e, st, "sss_from_triangle", st == SPMV_ERR_OVERFLOW ? "the full matrix's entries" : NULL);
}

/* Back to the full CSR (both triangles, columns ascending). */
SPMV_API spmv_status SPMV_NAME(sss_to_csr)(const SPMV_NAME(sss) *A, SPMV_NAME(csr) *B) {
    spmv_csr_params cp = spmv_csr_params_default();
    SPMV_NAME(coo) S;
    SPMV_I r, k, w = 0;
    spmv_status st;
    if (B) memset(B, 0, sizeof *B);
    if (!A || !B) return SPMV_ERR_ARG;
    memset(&S, 0, sizeof S);
    S.row = SPMV_ALLOC_N(SPMV_I, A->nnz);
    S.col = SPMV_ALLOC_N(SPMV_I, A->nnz);
    S.val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!S.row || !S.col || !S.val) {
        SPMV_NAME(coo_free)(&S);
        return SPMV_ERR_ALLOC;
    }
    for (r = 0; r < A->nrows; r++)
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            S.row[w] = r, S.col[w] = A->col[k], S.val[w++] = A->val[k];
            if (A->col[k] != r) S.row[w] = A->col[k], S.col[w] = r, S.val[w++] = A->herm ? SPMV__CONJ(A->val[k]) : A->val[k];
        }
    S.nrows = S.ncols = A->nrows;
    S.nnz = w;
    cp.isa = A->params.isa;
    st = SPMV_NAME(csr_from_coo)(B, &S, &cp); /* sorts the mirrored entries into place */
    SPMV_NAME(coo_free)(&S);
    return st;
}

/* The maps of _update_values (formats/any.h): map[s], for each stored slot, the position in
 * B (the full CSR the handle was built from, or one with its pattern) of its entry; mir[k],
 * for each position k of B, the position of its mirror (k itself on the diagonal), with
 * which the update checks that the new values are symmetric. SPMV_ERR_ARG when B is not
 * A's pattern (both triangles) or its columns are not strictly ascending in every row. */
static inline spmv_status SPMV_NAME(sss__vmap)(const SPMV_NAME(sss) *A, const SPMV_NAME(csr) *B, SPMV_I *map,
                                               SPMV_I *mir) {
    SPMV_I r, k, hit = 0;
    if (B->nrows != A->nrows || B->ncols != A->ncols || B->nnz != A->nnz || !SPMV_NAME(csr__canonical)(B))
        return SPMV_ERR_ARG;
    for (k = 0; k < A->stored; k++) map[k] = -1;
    for (r = 0; r < B->nrows; r++)
        for (k = B->row_ptr[r]; k < B->row_ptr[r + 1]; k++) {
            const SPMV_I c = B->col_idx[k];
            SPMV_I s;
            mir[k] = c == r ? k : SPMV_NAME(csr__find)(B->row_ptr, B->col_idx, c, r);
            if (mir[k] < 0) return SPMV_ERR_ARG;
            if (c > r) continue;
            s = SPMV_NAME(csr__find)(A->row_ptr, A->col, r, c);
            if (s < 0 || map[s] >= 0) return SPMV_ERR_ARG;
            map[s] = k;
            hit++;
        }
    return hit == A->stored ? SPMV_OK : SPMV_ERR_ARG;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* Phase 1 of part [b, e): y over its rows (scaled by beta first), mirrored adds below b into
 * w[j - lo]. */
SPMV_KTARGET static inline void SPMV_K(sss__part)(const SPMV_NAME(sss) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                  SPMV_Y beta, SPMV_Y *y, SPMV_I b, SPMV_I e, SPMV_Y *w,
                                                  SPMV_I lo) {
    const SPMV_I *rp = A->row_ptr, *col = A->col;
    const SPMV_T *val = A->val;
    SPMV_I i, k;
#if SPMV__COMPLEX /* the mirrored add: the value itself, or its conjugate for a hermitian matrix */
    const int herm = A->herm;
#define SPMV__MIR(v) (herm ? SPMV__CONJ(v) : (v))
#else
#define SPMV__MIR(v) (v)
#endif
    for (i = b; i < e; i++) y[i] = beta == (SPMV_Y)0 ? (SPMV_Y)0 : beta * y[i];
    for (k = 0; k < b - lo; k++) w[k] = 0;
    for (i = b; i < e; i++) {
        SPMV_I s = rp[i], f = rp[i + 1];
        const SPMV_Y xi = x[i], axi = alpha * xi;
        SPMV_Y sum = 0;
        if (f > s && col[f - 1] == i) sum = V_tv(val[--f]) * xi; /* the diagonal */
        if (w)
            for (; s < f && col[s] < b; s++) { /* mirrored into an earlier part's rows */
                const SPMV_Y v = V_tv(val[s]);
                sum += v * x[col[s]];
                w[col[s] - lo] += SPMV__MIR(v) * xi;
            }
        {
            SPMV_Y s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (k = s; k + 4 <= f; k += 4) {
                const SPMV_I c0 = col[k], c1 = col[k + 1], c2 = col[k + 2], c3 = col[k + 3];
                const SPMV_Y v0 = V_tv(val[k]), v1 = V_tv(val[k + 1]), v2 = V_tv(val[k + 2]), v3 = V_tv(val[k + 3]);
                s0 += v0 * x[c0];
                s1 += v1 * x[c1];
                s2 += v2 * x[c2];
                s3 += v3 * x[c3];
                y[c0] += axi * SPMV__MIR(v0);
                y[c1] += axi * SPMV__MIR(v1);
                y[c2] += axi * SPMV__MIR(v2);
                y[c3] += axi * SPMV__MIR(v3);
            }
            for (; k < f; k++) {
                const SPMV_I c = col[k];
                const SPMV_Y v = V_tv(val[k]);
                s0 += v * x[c];
                y[c] += axi * SPMV__MIR(v);
            }
            sum += (s0 + s1) + (s2 + s3);
        }
        y[i] += alpha * sum;
    }
#undef SPMV__MIR
}

/* np parts (part[], lo[]), their buffers at w + off[p]; ws NULL: one part, no buffer */
SPMV_KTARGET static inline void SPMV_K(sss_mv)(const SPMV_NAME(sss) *A, SPMV_Y alpha, const SPMV_Y *x,
                                               SPMV_Y beta, SPMV_Y *y, int np, const SPMV_I *part,
                                               const SPMV_I *lo, SPMV_Y *w, const int64_t *off) {
    if (np <= 1 || !w) {
        SPMV_K(sss__part)(A, alpha, x, beta, y, 0, A->nrows, NULL, 0);
        return;
    }
SPMV_OMP(parallel num_threads(np))
    {
        const int tid = spmv__tid(), nth = spmv__nthr();
        int p, q;
        for (p = tid; p < np; p += nth)
            SPMV_K(sss__part)(A, alpha, x, beta, y, part[p], part[p + 1], w + off[p], lo[p]);
SPMV_OMP(barrier)
        for (p = tid; p < np; p += nth) /* the later parts' buffers over this part's rows, in order */
            for (q = p + 1; q < np; q++) {
                const SPMV_I b = part[p] > lo[q] ? part[p] : lo[q], e = part[p + 1] < part[q] ? part[p + 1] : part[q];
                const SPMV_Y *wq = w + off[q];
                SPMV_I j;
                for (j = b; j < e; j++) y[j] += alpha * wq[j - lo[q]];
            }
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y (x and y of n values). beta == 0: y is written, never read. */
SPMV_API spmv_status SPMV_NAME(sss_mv)(const SPMV_NAME(sss) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    enum { MAXT = 1024 };
    spmv_status st;
    int np, p;
    const SPMV_I *part, *lo;
    SPMV_I *tmp = NULL;
    SPMV_Y *w = NULL;
    int64_t *off = NULL, need = 0;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    np = SPMV_NAME(sss__threads)(A);
    if (np > MAXT) np = MAXT;
    if (np > A->nrows) np = A->nrows > 0 ? (int)A->nrows : 1;
    part = A->part;
    lo = A->lo;
    if (np > 1 && np != A->part_nt) { /* a thread count the conversion did not plan for */
        tmp = SPMV_ALLOC_N(SPMV_I, 2 * (size_t)np + 1);
        if (tmp) {
            SPMV_NAME(sss__split)(A, np, tmp, tmp + np + 1);
            part = tmp;
            lo = tmp + np + 1;
        } else {
            np = 1;
        }
    }
    if (np > 1) off = (int64_t *)SPMV_ALLOC_N(int64_t, (size_t)np + 1);
    if (off) {
        for (p = 0; p < np; p++) {
            off[p] = need;
            need += part[p] > lo[p] ? part[p] - lo[p] : 0;
        }
        off[np] = need;
        w = SPMV_ALLOC_N(SPMV_Y, need > 0 ? (size_t)need : 1);
    }
    if (!w) np = 1; /* no room for the buffers: one thread, which needs none */
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(sss_mv), (A, alpha, x, beta, y, np, part, lo, w, off));
    spmv__free(w);
    spmv__free(off);
    spmv__free(tmp);
    return st;
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_SSS_RULES)
#define SPMV_SSS_RULES
/* What the selection knows about sss (formats/core/rules.h), on symmetric matrices only:
 * beyond the L3 half of CSR's bytes (1.28x CSR on the 27-point stencil, 1.60x on 3x3 FEM); in
 * cache each stored entry costs a row add and a mirrored add (0.56x on a 5-point stencil of
 * 17k entries). Not measured on the device: there it gets the numbers the selection gave
 * it before it had its own rule (1.05x skewed, 0.5x balanced), so that the trial decides. */
static inline double spmv_sss__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    return spmv_rule_big(F) ? (*why = "symmetric, beyond the cache: one triangle is half of CSR's bytes", 1.4)
                            : (*why = "symmetric, in cache: the mirrored adds cost more than the bytes save", 0.7);
}
static inline double spmv_sss__rule_dev(const spmv_auto_features *F, const char **why) {
    return *why = "one triangle on the device: not measured against csr", spmv_rule_skewed(F) ? 1.05 : 0.5;
}
static const spmv_format_rules spmv_rules_sss = {20, 12, spmv_sss__rule_host, spmv_sss__rule_dev, NULL, NULL, NULL, SPMV_CALIB_SYMMETRIC, 0};
#endif /* SPMV_PART_RULES */
