/* COO — coordinate format.
 * Layout: row[k], col[k], val[k] for k < nnz, sorted by (row, col), duplicates summed
 * (explicit zeros are kept). Footprint nnz*(2*sizeof(I)+sizeof(T)).
 * Kernel: nnz split evenly over threads; rows wholly inside a thread's range are
 * accumulated directly, the first and last (possibly shared) row of each range go to
 * per-thread carries that a serial pass adds afterwards, so no two threads write the
 * same y entry. y is scaled by beta first (that pass is part of the timed SpMV).
 * Verbs: _from_triplets, _to_triplets, _from_csr, _to_csr, _mv, _free, _bytes, _stored; what
 * the selection knows about it: spmv_rules_coo at the end (formats/core/rules.h). The model
 * to copy for a new format (docs/DESIGN.md, "Adding a format"). */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_COO_COMMON
#define SPMV_COO_COMMON
typedef struct spmv_coo_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
} spmv_coo_params;
static inline spmv_coo_params spmv_coo_params_default(void) {
    spmv_coo_params p;
    p.isa = SPMV_ISA_AUTO;
    return p;
}
static const spmv_param_key spmv__coo_keys[] = {{NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}}; /* isa only */
#endif

typedef struct SPMV_NAME(coo) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row, *col;
    SPMV_T *val;
    spmv_coo_params params; /* params.isa is resolved (never AUTO) after conversion */
} SPMV_NAME(coo);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(coo_free)(SPMV_NAME(coo) *A);
SPMV_API int64_t SPMV_NAME(coo_stored)(const SPMV_NAME(coo) *A);
SPMV_API size_t SPMV_NAME(coo_bytes)(const SPMV_NAME(coo) *A);
SPMV_API spmv_status SPMV_NAME(coo_from_triplets)(SPMV_NAME(coo) *A, const spmv_triplets *t,
        const spmv_coo_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(coo_to_triplets)(const SPMV_NAME(coo) *A, spmv_triplets *t);
SPMV_API spmv_status SPMV_NAME(coo_from_csr)(SPMV_NAME(coo) *B, const SPMV_NAME(csr) *A, const spmv_coo_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(coo_to_csr)(const SPMV_NAME(coo) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(coo_mv)(const SPMV_NAME(coo) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(coo_free)(SPMV_NAME(coo) *A) {
    if (!A) return;
    spmv__free(A->row);
    spmv__free(A->col);
    spmv__free(A->val);
    memset(A, 0, sizeof *A);
}

/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(coo_stored)(const SPMV_NAME(coo) *A) { return A->nnz; }
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
static inline int SPMV_NAME(coo__values)(SPMV_NAME(coo) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->nnz;
    return 1;
}
SPMV_API size_t SPMV_NAME(coo_bytes)(const SPMV_NAME(coo) *A) {
    return (size_t)A->nnz * (2 * sizeof(SPMV_I) + sizeof(SPMV_T));
}

/* Sorts A's entries by (row, col) with two stable counting passes (column, then
 * row: O(nnz + nrows + ncols)) and sums duplicates. With dval (the entries' values as doubles,
 * from triplets) those are moved and summed instead of A->val, which the caller then fills by
 * rounding each sum once; without, repeated entries are summed in the vectors' type and rounded
 * to the values'. On failure A is unchanged. */
static inline spmv_status SPMV_NAME(coo__sort_merge)(SPMV_NAME(coo) *A, SPMV__WIDE *dval) {
    SPMV_I n = A->nnz, k;
    SPMV_I nb = (A->nrows > A->ncols ? A->nrows : A->ncols) + 1;
    SPMV_I *cnt = SPMV_ALLOC_N(SPMV_I, (size_t)nb + 1);
    SPMV_I *r2 = SPMV_ALLOC_N(SPMV_I, n), *c2 = SPMV_ALLOC_N(SPMV_I, n);
    SPMV_T *v2 = dval ? NULL : SPMV_ALLOC_N(SPMV_T, n);
    SPMV__WIDE *w2 = dval ? SPMV_ALLOC_N(SPMV__WIDE, n) : NULL;
    SPMV_I pass;
    if (!cnt || !r2 || !c2 || (!v2 && !w2)) {
        spmv__free(cnt); spmv__free(r2); spmv__free(c2); spmv__free(v2); spmv__free(w2);
        return SPMV_ERR_ALLOC;
    }
    for (pass = 0; pass < 2; pass++) {
        /* pass 0 keys on col (A -> tmp), pass 1 keys on row (tmp -> A); both stable */
        SPMV_I *sr = pass == 0 ? A->row : r2, *sc = pass == 0 ? A->col : c2;
        SPMV_I *dr = pass == 0 ? r2 : A->row, *dc = pass == 0 ? c2 : A->col;
        SPMV_T *sv = pass == 0 ? A->val : v2, *dv = pass == 0 ? v2 : A->val;
        SPMV__WIDE *sw = pass == 0 ? dval : w2, *dw = pass == 0 ? w2 : dval;
        const SPMV_I *key = pass == 0 ? sc : sr;
        SPMV_I nk = pass == 0 ? A->ncols : A->nrows;
        memset(cnt, 0, ((size_t)nk + 1) * sizeof(SPMV_I));
        for (k = 0; k < n; k++) cnt[key[k] + 1]++;
        for (k = 0; k < nk; k++) cnt[k + 1] += cnt[k];
        for (k = 0; k < n; k++) {
            SPMV_I d = cnt[key[k]]++;
            dr[d] = sr[k];
            dc[d] = sc[k];
            if (dval) dw[d] = sw[k];
            else dv[d] = sv[k];
        }
    }
    /* merge duplicates in place */
    if (n > 0) {
        SPMV_I w = 0;
        for (k = 1; k < n; k++) {
            if (A->row[k] == A->row[w] && A->col[k] == A->col[w]) {
                if (dval) dval[w] += dval[k];
                else A->val[w] = SPMV_VT(SPMV_TV(A->val[w]) + SPMV_TV(A->val[k]));
            } else {
                w++;
                A->row[w] = A->row[k];
                A->col[w] = A->col[k];
                if (dval) dval[w] = dval[k];
                else A->val[w] = A->val[k];
            }
        }
        A->nnz = w + 1;
    }
    spmv__free(cnt); spmv__free(r2); spmv__free(c2); spmv__free(v2); spmv__free(w2);
    return SPMV_OK;
}

/* From the type-independent triplets (reader, generators): checks that sizes fit
 * the index type, sorts, sums duplicates. Imaginary parts (t->vim) are a complex tag's; a real
 * tag refuses them. */
static inline spmv_status SPMV_NAME(coo__from_triplets)(SPMV_NAME(coo) *A, const spmv_triplets *t,
                                                        const spmv_coo_params *p, const char **why) {
    spmv_status st;
    int64_t k;
    spmv_isa isa;
    SPMV__WIDE *dv;
    if (!A) return *why = "no object", SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if (!t || t->nrows < 0 || t->ncols < 0 || t->nnz < 0 || (t->nnz > 0 && (!t->row || !t->col || !t->val)))
        return *why = "negative sizes, or NULL arrays with entries", SPMV_ERR_ARG;
    if (t->vim && !SPMV__COMPLEX)
        return *why = "complex values (imaginary parts given): a complex tag (c, z) takes them", SPMV_ERR_ARG;
    /* nrows+1 and ncols+1 are used as counts, so keep one below the maximum */
    if (t->nrows >= SPMV_IMAX || t->ncols >= SPMV_IMAX || t->nnz > SPMV_IMAX)
        return *why = "sizes beyond the index type", SPMV_ERR_OVERFLOW;
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] < 0 || t->row[k] >= t->nrows || t->col[k] < 0 || t->col[k] >= t->ncols)
            return *why = "an entry outside the matrix", SPMV_ERR_ARG;
    st = SPMV_ISA_FOR(SPMV_FMT_COO, p ? p->isa : SPMV_ISA_AUTO, &isa);
    if (st != SPMV_OK) return st;
    A->row = SPMV_ALLOC_N(SPMV_I, t->nnz);
    A->col = SPMV_ALLOC_N(SPMV_I, t->nnz);
    A->val = SPMV_ALLOC_N(SPMV_T, t->nnz);
    dv = SPMV_ALLOC_N(SPMV__WIDE, t->nnz);
    if (!A->row || !A->col || !A->val || !dv) {
        SPMV_NAME(coo_free)(A);
        spmv__free(dv);
        return SPMV_ERR_ALLOC;
    }
    A->nrows = (SPMV_I)t->nrows;
    A->ncols = (SPMV_I)t->ncols;
    A->nnz = (SPMV_I)t->nnz;
    for (k = 0; k < t->nnz; k++) {
        A->row[k] = (SPMV_I)t->row[k];
        A->col[k] = (SPMV_I)t->col[k];
        dv[k] = SPMV__TRIP(t, k);
    }
    st = SPMV_NAME(coo__sort_merge)(A, dv); /* repeated entries summed in double */
    /* each sum rounded once to the values' type (to nearest); a finite one beyond its range would
       become an infinity: refused, not changed */
    for (k = 0; st == SPMV_OK && k < A->nnz; k++) {
        A->val[k] = SPMV_VT(dv[k]);
        if (SPMV__TO_INF(dv[k], A->val[k]))
            *why = "a finite value beyond the value type's range (it would round to infinity)", st = SPMV_ERR_OVERFLOW;
    }
    spmv__free(dv);
    if (st != SPMV_OK) {
        SPMV_NAME(coo_free)(A);
        return st;
    }
    A->params.isa = isa;
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(coo_from_triplets)(SPMV_NAME(coo) *A, const spmv_triplets *t,
                                                  const spmv_coo_params *p, spmv_error *e) {
    const char *why = NULL;
    const spmv_status st = SPMV_NAME(coo__from_triplets)(A, t, p, &why);
    return spmv__built(e, st, "from_triplets", why);
}

/* Back to triplets (for writing files and round-trip tests). */
SPMV_API spmv_status SPMV_NAME(coo_to_triplets)(const SPMV_NAME(coo) *A, spmv_triplets *t) {
    spmv_status st;
    SPMV_I k;
    if (!A || !t) return SPMV_ERR_ARG;
    st = spmv_triplets_alloc(t, A->nrows, A->ncols, A->nnz);
    if (st != SPMV_OK) return st;
#if SPMV__COMPLEX
    if (!(t->vim = SPMV_ALLOC_N(double, A->nnz > 0 ? A->nnz : 1))) {
        spmv_triplets_free(t);
        return SPMV_ERR_ALLOC;
    }
    for (k = 0; k < A->nnz; k++) t->vim[k] = __builtin_cimag(A->val[k]), t->val[k] = __builtin_creal(A->val[k]);
#else
    for (k = 0; k < A->nnz; k++) t->val[k] = SPMV_TV(A->val[k]);
#endif
    for (k = 0; k < A->nnz; k++) {
        t->row[k] = A->row[k];
        t->col[k] = A->col[k];
    }
    return SPMV_OK;
}
/* (CSR's struct and csr_check, csr_from_coo are declared by the earlier passes: formats/instance.h) */
/* CSR -> COO (sorted, as every converter expects). */
static inline spmv_status SPMV_NAME(coo__build)(SPMV_NAME(coo) *B, const SPMV_NAME(csr) *A,
                                                  const spmv_coo_params *p) {
    spmv_coo_params prm = p ? *p : spmv_coo_params_default();
    SPMV_I r, k;
    spmv_status st;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    st = SPMV_NAME(csr_check)(A);
    if (st != SPMV_OK) return st;
    st = SPMV_ISA_FOR(SPMV_FMT_COO, prm.isa, &prm.isa);
    if (st != SPMV_OK) return st;
    B->row = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->col = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!B->row || !B->col || !B->val) {
        SPMV_NAME(coo_free)(B);
        return SPMV_ERR_ALLOC;
    }
    for (r = 0; r < A->nrows; r++)
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) B->row[k] = r;
    if (A->nnz) {
        memcpy(B->col, A->col_idx, (size_t)A->nnz * sizeof(SPMV_I));
        memcpy(B->val, A->val, (size_t)A->nnz * sizeof(SPMV_T));
    }
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = prm;
    if (!B->nnz) return SPMV_OK;
    {   /* unsorted columns in a row (csr_wrap allows them): sort as COO requires */
        SPMV_I k;
        for (k = 1; k < B->nnz; k++)
            if (B->row[k] == B->row[k - 1] && B->col[k] <= B->col[k - 1]) break;
        if (k < B->nnz) {
            st = SPMV_NAME(coo__sort_merge)(B, NULL);
            if (st != SPMV_OK) {
                SPMV_NAME(coo_free)(B);
                return st;
            }
        }
    }
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(coo_from_csr)(SPMV_NAME(coo) *B, const SPMV_NAME(csr) *A, const spmv_coo_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(coo__build)(B, A, p), "coo_from_csr", NULL);
}

/* COO -> CSR (round trips). */
SPMV_API spmv_status SPMV_NAME(coo_to_csr)(const SPMV_NAME(coo) *A, SPMV_NAME(csr) *B) {
    spmv_csr_params p = spmv_csr_params_default();
    if (!A) {
        if (B) memset(B, 0, sizeof *B);
        return SPMV_ERR_ARG;
    }
    p.isa = A->params.isa;
    return SPMV_NAME(csr_from_coo)(B, A, &p);
}

#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* Sum of val[k]*x[col[k]] over one run of equal rows, vectorized. */
SPMV_KTARGET static inline SPMV_Y SPMV_K(coo__dot)(const SPMV_T *val, const SPMV_I *col, const SPMV_Y *x,
                                                   SPMV_I n) {
    spmv_v acc = V_zero();
    SPMV_I k = 0;
    for (; k + SPMV_W <= n; k += SPMV_W) acc = V_fma(V_loadt(val + k), V_gather(x, col + k), acc);
    if (k < n) {
        unsigned m = V_mask_first((int)(n - k));
        acc = V_fma(V_mloadt(m, val + k), V_mgather(m, x, col + k), acc);
    }
    return V_hsum(acc);
}

/* Entries [b, e) of A: interior rows are added to y, the first and last row runs
 * are returned in carry[0..1] (rows in crow[0..1], -1 when absent). */
SPMV_KTARGET static inline void SPMV_K(coo__range)(const SPMV_NAME(coo) *A, SPMV_Y alpha, const SPMV_Y *x,
                                                   SPMV_Y *y, SPMV_I b, SPMV_I e, SPMV_I crow[2],
                                                   SPMV_Y carry[2]) {
    const SPMV_I *row = A->row;
    SPMV_I k = b;
    crow[0] = crow[1] = -1;
    carry[0] = carry[1] = 0;
    while (k < e) {
        SPMV_I r = row[k], s = k;
        SPMV_Y sum;
        /* short rows end in the first scalar steps; then, rows being sorted, row[k+W-1] == r
           says the W entries from k are all r (one test per W entries of a long row) */
        while (k < e && row[k] == r && k - s < 8) k++;
        if (k - s == 8) {
            while (e - k >= SPMV_W && row[k + SPMV_W - 1] == r) k += SPMV_W;
            while (k < e && row[k] == r) k++;
        }
        sum = SPMV_K(coo__dot)(A->val + s, A->col + s, x, k - s);
        if (s == b) {
            crow[0] = r;
            carry[0] = sum;
        } else if (k == e) {
            crow[1] = r;
            carry[1] = sum;
        } else {
            y[r] += alpha * sum;
        }
    }
}

SPMV_KTARGET static inline void SPMV_K(coo_mv)(const SPMV_NAME(coo) *A, SPMV_Y alpha, const SPMV_Y *x,
                                               SPMV_Y beta, SPMV_Y *y) {
    enum { MAXT = 1024 };
    SPMV_I crow[MAXT][2];
    SPMV_Y carry[MAXT][2];
    int nt = 1, t;
    SPMV_I i, n = A->nrows;
    if (A->nnz >= SPMV_PAR_MIN_NNZ) nt = spmv_max_threads() < MAXT ? spmv_max_threads() : MAXT;
    (void)i;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        int tid = spmv__tid(), nth = spmv__nthr();
        SPMV_I b, e, r;
        /* y = beta*y, not reading y when beta == 0 */
SPMV_OMP(for schedule(static))
        for (r = 0; r < n; r++) y[r] = beta == (SPMV_Y)0 ? (SPMV_Y)0 : beta * y[r];
        b = (SPMV_I)((int64_t)A->nnz * tid / nth);
        e = (SPMV_I)((int64_t)A->nnz * (tid + 1) / nth);
        SPMV_K(coo__range)(A, alpha, x, y, b, e, crow[tid], carry[tid]);
SPMV_OMP(single)
        nt = nth;
    }
    for (t = 0; t < nt; t++) {
        if (crow[t][0] >= 0) y[crow[t][0]] += alpha * carry[t][0];
        if (crow[t][1] >= 0) y[crow[t][1]] += alpha * carry[t][1];
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* y = alpha*A*x + beta*y. beta == 0: y is written, never read. */
SPMV_API spmv_status SPMV_NAME(coo_mv)(const SPMV_NAME(coo) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(coo_mv), (A, alpha, x, beta, y));
    return st;
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_COO_RULES)
#define SPMV_COO_RULES
/* What the selection knows about coo (formats/core/rules.h). The CPU kernel reads a row index
 * per entry: never ahead of CSR. On the device the segmented sums balance skewed rows (the
 * webgraph preset 1.39x csr, real skewed matrices 1.06x median); on balanced rows 0.55-0.75x. */
static inline double spmv_coo__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)F, (void)o;
    return *why = "COO moves more bytes than CSR for the same work", 0.0;
}
static inline double spmv_coo__rule_dev(const spmv_auto_features *F, const char **why) {
    if (!spmv_rule_skewed(F)) return *why = "balanced rows: COO moves a third more bytes than CSR", 0.55;
    return *why = "skewed rows: COO's segmented sums balance them (atomics)", spmv_rule_dev_big(F) ? 1.3 : 1.05;
}
static inline double spmv_coo__new_bytes(const spmv_auto_features *F) {
    return (double)F->nnz * (F->value_bytes + 2.0 * F->index_bytes);
}
static const spmv_format_rules spmv_rules_coo = {6, 12, spmv_coo__rule_host, spmv_coo__rule_dev, NULL,
                                                 spmv_coo__new_bytes, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
