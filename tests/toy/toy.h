/* TOY — a test-only format that shows what adding a format takes (docs/DESIGN.md, "Adding a
 * format"): this header, tests/toy/cuda/toy.cuh, its row in formats/registry.h (compiled only
 * with SPMV_TEST_TOY) and its test, tests/test_toy.c. Nothing else in the library names it.
 * Layout: a CSR copy in arrays of its own (row_ptr[nrows+1], col[nnz], val[nnz]), entries
 * as A gives them (repeated entries kept apart, summed by the product).
 * Kernel: rows split statically over threads, one vector dot per row (the SIMD vocabulary, as
 * coo's runs). */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_TOY_COMMON
#define SPMV_TOY_COMMON
typedef struct spmv_toy_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has */
} spmv_toy_params;
static inline spmv_toy_params spmv_toy_params_default(void) {
    spmv_toy_params p;
    p.isa = SPMV_ISA_AUTO;
    return p;
}
static const spmv_param_key spmv__toy_keys[] = {{NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}}; /* isa only */
#endif
typedef struct SPMV_NAME(toy) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I *row_ptr, *col;
    SPMV_T *val;
    spmv_toy_params params; /* params.isa resolved at conversion */
} SPMV_NAME(toy);
#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(toy_free)(SPMV_NAME(toy) *A);
SPMV_API int64_t SPMV_NAME(toy_stored)(const SPMV_NAME(toy) *A);
SPMV_API size_t SPMV_NAME(toy_bytes)(const SPMV_NAME(toy) *A);
SPMV_API spmv_status SPMV_NAME(toy_from_csr)(SPMV_NAME(toy) *A, const SPMV_NAME(csr) *B, const spmv_toy_params *p,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(toy_to_csr)(const SPMV_NAME(toy) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(toy_mv)(const SPMV_NAME(toy) *A, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
        SPMV_T *y);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(toy_free)(SPMV_NAME(toy) *A) {
    if (!A) return;
    spmv__free(A->row_ptr);
    spmv__free(A->col);
    spmv__free(A->val);
    memset(A, 0, sizeof *A);
}
SPMV_API int64_t SPMV_NAME(toy_stored)(const SPMV_NAME(toy) *A) { return A->nnz; }
/* the value arrays (for _update_values' map, formats/any.h) */
static inline int SPMV_NAME(toy__values)(SPMV_NAME(toy) *A, SPMV_T **v, int64_t *n) {
    v[0] = A->val;
    n[0] = A->nnz;
    return 1;
}
SPMV_API size_t SPMV_NAME(toy_bytes)(const SPMV_NAME(toy) *A) {
    return ((size_t)A->nrows + 1) * sizeof(SPMV_I) + (size_t)A->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T));
}
static inline spmv_status SPMV_NAME(toy__build)(SPMV_NAME(toy) *A, const SPMV_NAME(csr) *B, const spmv_toy_params *p) {
    spmv_toy_params prm = p ? *p : spmv_toy_params_default();
    spmv_status st;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    if ((st = SPMV_NAME(csr_check)(B)) != SPMV_OK) return st;
    if ((st = SPMV_ISA_FOR(SPMV_FMT_TOY, prm.isa, &prm.isa)) != SPMV_OK) return st;
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows + 1);
    A->col = SPMV_ALLOC_N(SPMV_I, (size_t)B->nnz + 1);
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)B->nnz + 1);
    if (!A->row_ptr || !A->col || !A->val) {
        SPMV_NAME(toy_free)(A);
        return SPMV_ERR_ALLOC;
    }
    memcpy(A->row_ptr, B->row_ptr, ((size_t)B->nrows + 1) * sizeof(SPMV_I));
    if (B->nnz) {
        memcpy(A->col, B->col_idx, (size_t)B->nnz * sizeof(SPMV_I));
        memcpy(A->val, B->val, (size_t)B->nnz * sizeof(SPMV_T));
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->params = prm;
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(toy_from_csr)(SPMV_NAME(toy) *A, const SPMV_NAME(csr) *B, const spmv_toy_params *p,
        spmv_error *e) {
    return spmv__built(e, SPMV_NAME(toy__build)(A, B, p), "toy_from_csr", NULL);
}
/* back to CSR: a copy (entries as stored) */
SPMV_API spmv_status SPMV_NAME(toy_to_csr)(const SPMV_NAME(toy) *A, SPMV_NAME(csr) *B) {
    SPMV_NAME(csr) W;
    spmv_status st;
    if (!A || !B) {
        if (B) memset(B, 0, sizeof *B);
        return SPMV_ERR_ARG;
    }
    st = SPMV_NAME(csr_wrap)(&W, A->nrows, A->ncols, A->row_ptr, A->col, A->val, NULL, NULL);
    if (st == SPMV_OK) st = SPMV_NAME(csr_from_csr)(B, &W, NULL, NULL);
    if (st == SPMV_OK) SPMV_NAME(csr_free)(&W);
    return st;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* row r's sum of val[k]*x[col[k]] */
SPMV_KTARGET static inline SPMV_T SPMV_K(toy__row)(const SPMV_NAME(toy) *A, const SPMV_T *x, SPMV_I r) {
    const SPMV_I b = A->row_ptr[r], n = A->row_ptr[r + 1] - b;
    spmv_v acc = V_zero();
    SPMV_I k = 0;
    for (; k + SPMV_W <= n; k += SPMV_W) acc = V_fma(V_loadu(A->val + b + k), V_gather(x, A->col + b + k), acc);
    if (k < n) {
        unsigned m = V_mask_first((int)(n - k));
        acc = V_fma(V_mload(m, A->val + b + k), V_mgather(m, x, A->col + b + k), acc);
    }
    return V_hsum(acc);
}
SPMV_KTARGET static inline void SPMV_K(toy_mv)(const SPMV_NAME(toy) *A, SPMV_T alpha, const SPMV_T *x,
                                               SPMV_T beta, SPMV_T *y) {
    SPMV_I r;
SPMV_OMP(parallel for schedule(static) if (A->nnz >= SPMV_PAR_MIN_NNZ))
    for (r = 0; r < A->nrows; r++) {
        const SPMV_T s = alpha * SPMV_K(toy__row)(A, x, r);
        y[r] = beta == (SPMV_T)0 ? s : beta * y[r] + s; /* beta == 0 never reads y */
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
SPMV_API spmv_status SPMV_NAME(toy_mv)(const SPMV_NAME(toy) *A, SPMV_T alpha, const SPMV_T *x, SPMV_T beta,
                                            SPMV_T *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_T))) return SPMV_ERR_ARG;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(toy_mv), (A, alpha, x, beta, y));
    return st;
}
#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_TOY_RULES)
#define SPMV_TOY_RULES
/* What the selection knows about toy: nothing measured yet, so the defaults (formats/core/
 * rules.h): conversion priors of 10 and 11, no rule (predicted 1.0: tried when the budget
 * allows), its bytes one value and index per entry plus a row array, never a donor. */
static const spmv_format_rules spmv_rules_toy = {10, 11, NULL, NULL, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
