/* csr_ops — the products solvers need beyond y = alpha*A*x + beta*y, on CSR (the other
 * formats reach them through the handle, formats/any.h).
 *
 *   spmv_d_csr T;
 *   spmv_d_csr_transpose(&T, &A);                  // T = A^T, a new CSR (parallel)
 *   spmv_d_csr_mvt(&A, alpha, x, beta, y);         // y[ncols] = alpha*A^T*x[nrows] + beta*y
 *   spmv_d_csr_mm(&A, k, alpha, X, ldx, beta, Y, ldy, SPMV_ROW_MAJOR);  // Y = alpha*A*X + beta*Y
 *
 * Transpose product without A^T (csr_mvt). No atomics: each thread scatters its rows (the
 * nnz-balanced split of the forward product) into a private buffer that spans only the
 * columns its rows touch (found per call), then the buffers are summed per column in thread
 * order and y[j] = alpha*sum + beta*y[j] (y not read when beta == 0). The same bits for a
 * given thread count. Cost per call: the matrix once, x once, and the buffers written,
 * zeroed and read once each: about ncols values per thread on a matrix whose columns are
 * spread over all rows (a random graph), about ncols in all on a banded one. When the
 * buffers would exceed SPMV_MVT_BUF_RATIO times (nnz + ncols) values, fewer threads run.
 * Allocation failure: SPMV_ERR_ALLOC before y is touched.
 * The other way is csr_transpose once (about 1-3 products' time, the same bytes again) and
 * the forward kernel on A^T: faster per product on most matrices, the choice of a handle
 * built with opts.transpose (any.h).
 *
 * csr_transpose: per-thread column counts over the forward split, a prefix over (column,
 * thread), then each thread places its rows in order, so T's columns come out sorted and
 * the result does not depend on the thread count. T gets A's params (isa, algo).
 *
 * SpMM (csr_mm): k vectors at once; X is ncols x k, Y nrows x k, in the given layout:
 * SPMV_ROW_MAJOR (element (i, j) at X[i*ldx + j], ldx >= k) or SPMV_COL_MAJOR (X[j*ldx + i],
 * ldx >= ncols; ldy >= nrows). Row-major: each row's entries are read once per block of up
 * to 4 vectors of W values of the k (k <= 4W: the matrix is read once), the last vector of a
 * block masked, so no k is a cliff. Column-major: a block of up to 8 columns of X summed
 * per entry in scalars, the matrix read once per 8 vectors. Y written as alpha*sum +
 * beta*Y (Y not read when beta == 0). X and Y must not overlap (SPMV_ERR_ARG).
 *
 * csr_is_symmetric(&A): 1 when A is symmetric, values included (the test sss's converter
 * makes), 0 when not, a negative status for a malformed A. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_CSR_OPS_COMMON
#define SPMV_CSR_OPS_COMMON
typedef enum spmv_layout { SPMV_ROW_MAJOR = 0, SPMV_COL_MAJOR = 1 } spmv_layout;
#ifndef SPMV_MVT_BUF_RATIO
#define SPMV_MVT_BUF_RATIO 4
#endif
/* 1 when the dense k-vector blocks X (rows_x x k) and Y (rows_y x k) are bad: NULL where
 * needed, ld too small, or overlapping memory */
static inline int spmv__mm_args_bad(int64_t rows_x, int64_t rows_y, int64_t k, const void *X, int64_t ldx,
                                    const void *Y, int64_t ldy, spmv_layout lay, size_t tsize) {
    int64_t ex, ey;
    if (k < 1 || ((int)lay != SPMV_ROW_MAJOR && (int)lay != SPMV_COL_MAJOR)) return 1;
    if (lay == SPMV_ROW_MAJOR ? (ldx < k || ldy < k) : (ldx < (rows_x > 1 ? rows_x : 1) || ldy < (rows_y > 1 ? rows_y : 1)))
        return 1;
    if ((rows_y > 0 && !Y) || (rows_x > 0 && !X)) return 1;
    if (rows_x == 0 || rows_y == 0) return 0;
    /* the spans [first, last] in elements */
    ex = lay == SPMV_ROW_MAJOR ? (rows_x - 1) * ldx + k : (k - 1) * ldx + rows_x;
    ey = lay == SPMV_ROW_MAJOR ? (rows_y - 1) * ldy + k : (k - 1) * ldy + rows_y;
    return (uintptr_t)X < (uintptr_t)Y + (uintptr_t)ey * tsize && (uintptr_t)Y < (uintptr_t)X + (uintptr_t)ex * tsize;
}
#endif

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API uint64_t SPMV_NAME(csr_fingerprint)(const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_transpose)(SPMV_NAME(csr) *T, const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_mvt)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
/* y = alpha A^H x + beta y, the conjugate transpose (for a real tag, A^T: csr_mvt), and A^H as a CSR */
SPMV_API spmv_status SPMV_NAME(csr_mvh)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
        SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(csr_adjoint)(SPMV_NAME(csr) *T, const SPMV_NAME(csr) *A);
SPMV_API int SPMV_NAME(csr_is_symmetric)(const SPMV_NAME(csr) *A);
SPMV_API spmv_status SPMV_NAME(csr_mm)(const SPMV_NAME(csr) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X, int64_t ldx,
        SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
/* A fingerprint of A's structure (FNV-1a over the sizes, row_ptr and col_idx as 64-bit
 * values, so the index type does not change it): every entry (csr_fingerprint: the saved
 * choices of formats/auto.h), or only 64 sampled rows' starts and last columns (sample = 1:
 * any_update_values' check on each call, O(1)) */
static inline uint64_t SPMV_NAME(csr__print)(const SPMV_NAME(csr) *A, int sample) {
    uint64_t h = 1469598103934665603ull;
    int64_t i;
#define SPMV__FP(v) (h = (h ^ (uint64_t)(int64_t)(v)) * 1099511628211ull)
    SPMV__FP(A->nrows);
    SPMV__FP(A->ncols);
    SPMV__FP(A->nnz);
    if (sample) {
        for (i = 0; i < 64 && A->nrows > 0; i++) {
            const int64_t r = (int64_t)((double)A->nrows * (double)i / 64.0);
            SPMV__FP(A->row_ptr[r]);
            if (A->row_ptr[r] < A->row_ptr[r + 1]) SPMV__FP(A->col_idx[A->row_ptr[r + 1] - 1]);
        }
    } else {
        for (i = 0; i <= A->nrows && A->row_ptr; i++) SPMV__FP(A->row_ptr[i]);
        for (i = 0; i < A->nnz && A->col_idx; i++) SPMV__FP(A->col_idx[i]);
    }
#undef SPMV__FP
    return h;
}
SPMV_API uint64_t SPMV_NAME(csr_fingerprint)(const SPMV_NAME(csr) *A) { return SPMV_NAME(csr__print)(A, 0); }

/* rows [r0, r1) of thread t of n in the forward product's split */
static inline void SPMV_NAME(csr__rows_of)(const SPMV_NAME(csr) *A, int t, int n, SPMV_I *r0, SPMV_I *r1) {
    if (n <= 1) {
        *r0 = 0;
        *r1 = A->nrows;
    } else if (A->part_nt == n && A->part_rp == A->row_ptr && A->params.algo != SPMV_CSR_MERGE) {
        *r0 = A->part[t];
        *r1 = A->part[t + 1];
    } else {
        *r0 = SPMV_NAME(csr__split)(A->row_ptr, A->nrows, t, n);
        *r1 = SPMV_NAME(csr__split)(A->row_ptr, A->nrows, t + 1, n);
    }
}

/* T = A^T (a new CSR with A's params); on failure T is left empty */
SPMV_API spmv_status SPMV_NAME(csr_transpose)(SPMV_NAME(csr) *T, const SPMV_NAME(csr) *A) {
    int nt;
    SPMV_I *cnt = NULL;
    spmv_status st;
    if (!T) return SPMV_ERR_ARG;
    memset(T, 0, sizeof *T);
    if ((st = SPMV_NAME(csr_check)(A)) != SPMV_OK) return st;
    nt = SPMV_NAME(csr__threads)(A);
    /* the count arrays: nt * ncols indices, kept within a few times the matrix */
    if (nt > 1 && (int64_t)nt * A->ncols > (int64_t)SPMV_MVT_BUF_RATIO * ((int64_t)A->nnz + A->ncols))
        nt = (int)(SPMV_MVT_BUF_RATIO * ((int64_t)A->nnz + A->ncols) / (A->ncols > 0 ? A->ncols : 1));
    if (nt < 1) nt = 1;
    T->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->ncols + 1);
    T->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    T->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    cnt = SPMV_ALLOC_N(SPMV_I, (size_t)nt * (size_t)A->ncols + 1);
    if (!T->row_ptr || !T->col_idx || !T->val || !cnt) {
        spmv__free(cnt);
        SPMV_NAME(csr_free)(T);
        return SPMV_ERR_ALLOC;
    }
    {
        const SPMV_I nc = A->ncols;
        SPMV_I *rp = T->row_ptr;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
        {
            const int tid = spmv__tid(), n = spmv__nthr();
            SPMV_I r0, r1, r, k, j;
            SPMV_I *c = cnt + (size_t)tid * (size_t)nc;
            SPMV_NAME(csr__rows_of)(A, tid, n, &r0, &r1);
            memset(c, 0, sizeof(SPMV_I) * (size_t)nc);
            for (k = A->row_ptr[r0]; k < A->row_ptr[r1]; k++) c[A->col_idx[k]]++;
SPMV_OMP(barrier)
            /* per column: the counts become each thread's offset inside the column */
SPMV_OMP(for schedule(static))
            for (j = 0; j < nc; j++) {
                SPMV_I s = 0;
                int q;
                for (q = 0; q < n; q++) {
                    SPMV_I *p = cnt + (size_t)q * (size_t)nc + j, v = *p;
                    *p = s;
                    s += v;
                }
                rp[j + 1] = s;
            }
SPMV_OMP(single)
            {
                rp[0] = 0;
                for (j = 0; j < nc; j++) rp[j + 1] += rp[j];
            }
            for (r = r0; r < r1; r++)
                for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                    const SPMV_I col = A->col_idx[k], p = rp[col] + c[col]++;
                    T->col_idx[p] = r;
                    T->val[p] = A->val[k];
                }
        }
    }
    spmv__free(cnt);
    T->nrows = A->ncols;
    T->ncols = A->nrows;
    T->nnz = A->nnz;
    T->params = A->params;
    T->cols_sorted = 1; /* each thread placed its rows in order, threads in row order */
    SPMV_NAME(csr__plan)(T);
    return SPMV_OK;
}

/* y = alpha*A^T*x + beta*y: x has nrows values, y ncols (see the top of the file) */
/* A^T x, or with cj A^H x (each value conjugated) */
static inline spmv_status SPMV_NAME(csr__mvt_op)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                                 SPMV_Y *y, int cj) {
    enum { MAXT = 1024 };
    SPMV_I lo[MAXT], hi[MAXT];
    size_t off[MAXT + 1];
    SPMV_Y *buf = NULL;
    int nt, fail = 0;
    if (!A || spmv__mv_args_bad(A->ncols, A->nrows, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->ncols == 0) return SPMV_OK;
    nt = SPMV_NAME(csr__threads)(A);
    if (nt > MAXT) nt = MAXT;
    if (nt > 1 && (int64_t)nt * A->ncols > (int64_t)SPMV_MVT_BUF_RATIO * ((int64_t)A->nnz + A->ncols))
        nt = (int)(SPMV_MVT_BUF_RATIO * ((int64_t)A->nnz + A->ncols) / A->ncols);
    if (nt < 1) nt = 1;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        const int tid = spmv__tid(), n = spmv__nthr();
        const SPMV_I *SPMV_RESTRICT rp = A->row_ptr;
        const SPMV_I *SPMV_RESTRICT ci = A->col_idx;
        const SPMV_T *SPMV_RESTRICT va = A->val;
        SPMV_I r0, r1, r, k, j, a = A->ncols, b = -1;
        SPMV_NAME(csr__rows_of)(A, tid, n, &r0, &r1);
        /* the columns this thread's rows touch, its buffer's span: each row's first and last
         * entry when columns are known sorted (0.50x -> 0.57x mv's speed on a 27-point
         * stencil, 26M entries), else a pass over the thread's col_idx */
        if (A->cols_sorted) {
            for (r = r0; r < r1; r++)
                if (rp[r] < rp[r + 1]) {
                    const SPMV_I c0 = ci[rp[r]], c1 = ci[rp[r + 1] - 1];
                    a = c0 < a ? c0 : a;
                    b = c1 > b ? c1 : b;
                }
        } else {
            for (k = rp[r0]; k < rp[r1]; k++) {
                const SPMV_I c = ci[k];
                a = c < a ? c : a;
                b = c > b ? c : b;
            }
        }
        lo[tid] = a;
        hi[tid] = b;
SPMV_OMP(barrier)
SPMV_OMP(single)
        {
            int q;
            off[0] = 0;
            for (q = 0; q < n; q++) off[q + 1] = off[q] + (hi[q] >= lo[q] ? (size_t)(hi[q] - lo[q] + 1) : 0);
            buf = SPMV_ALLOC_N(SPMV_Y, off[n]);
            fail = !buf;
            nt = n;
        }
        if (!fail) {
            SPMV_Y *SPMV_RESTRICT bb = buf + off[tid];
            if (b >= a) memset(bb, 0, sizeof(SPMV_Y) * (off[tid + 1] - off[tid]));
            for (r = r0; r < r1; r++) {
                const SPMV_Y xr = x[r];
                if (SPMV__COMPLEX && cj)
                    for (k = rp[r]; k < rp[r + 1]; k++) bb[ci[k] - a] += SPMV__CONJ(SPMV_TV(va[k])) * xr;
                else
                    for (k = rp[r]; k < rp[r + 1]; k++) bb[ci[k] - a] += SPMV_TV(va[k]) * xr;
            }
SPMV_OMP(barrier)
            /* y[j] = alpha * (the threads' sums in thread order) + beta * y[j] */
SPMV_OMP(for schedule(static))
            for (j = 0; j < A->ncols; j++) {
                SPMV_Y s = 0;
                int q;
                for (q = 0; q < n; q++)
                    if (j >= lo[q] && j <= hi[q]) s += buf[off[q] + (size_t)(j - lo[q])];
                y[j] = beta == (SPMV_Y)0 ? alpha * s : alpha * s + beta * y[j];
            }
        }
    }
    spmv__free(buf);
    return fail ? SPMV_ERR_ALLOC : SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(csr_mvt)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    return SPMV_NAME(csr__mvt_op)(A, alpha, x, beta, y, 0);
}
SPMV_API spmv_status SPMV_NAME(csr_mvh)(const SPMV_NAME(csr) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                             SPMV_Y *y) {
    return SPMV_NAME(csr__mvt_op)(A, alpha, x, beta, y, 1);
}
SPMV_API spmv_status SPMV_NAME(csr_adjoint)(SPMV_NAME(csr) *T, const SPMV_NAME(csr) *A) {
    const spmv_status st = SPMV_NAME(csr_transpose)(T, A);
    int64_t k;
    for (k = 0; SPMV__COMPLEX && st == SPMV_OK && k < (int64_t)T->nnz; k++) T->val[k] = SPMV__CONJ(T->val[k]);
    return st;
}
/* position of column c in row r of a CSR with ascending columns, -1 when absent */
static inline SPMV_I SPMV_NAME(csr__find)(const SPMV_I *rp, const SPMV_I *ci, SPMV_I r, SPMV_I c) {
    SPMV_I lo = rp[r], hi = rp[r + 1];
    while (lo < hi) {
        SPMV_I m = lo + (hi - lo) / 2;
        if (ci[m] < c) lo = m + 1;
        else hi = m;
    }
    return lo < rp[r + 1] && ci[lo] == c ? lo : -1;
}

/* Is C (columns strictly ascending in every row) symmetric, values included (herm: hermitian,
 * a_ji = conj(a_ij) and a real diagonal; a complex tag)? 1 yes, 0 no. */
static inline int SPMV_NAME(csr__mirrored)(const SPMV_NAME(csr) *C, int herm) {
    int64_t up = 0, low = 0;
    int bad = 0;
    SPMV_I r;
    if (C->nrows != C->ncols) return 0;
SPMV_OMP(parallel for schedule(dynamic, 256) reduction(| : bad) reduction(+ : up, low) if (C->nnz >= SPMV_PAR_MIN_NNZ))
    for (r = 0; r < C->nrows; r++) {
        SPMV_I k;
        for (k = C->row_ptr[r]; k < C->row_ptr[r + 1] && !bad; k++) {
            const SPMV_I c = C->col_idx[k];
            SPMV_I m;
            if (c < r) {
                low++;
                continue;
            }
            if (c == r) {
                const SPMV_Y d = SPMV_TV(C->val[k]);
                if (herm && !(d == SPMV__CONJ(d) || d != d)) bad = 1;
                continue;
            }
            up++;
            m = SPMV_NAME(csr__find)(C->row_ptr, C->col_idx, c, r);
            if (m < 0) {
                bad = 1;
            } else {
                const SPMV_Y u = SPMV_TV(C->val[m]), w0 = SPMV_TV(C->val[k]), w = herm ? SPMV__CONJ(w0) : w0;
                if (!(u == w || (u != u && w != w))) bad = 1;
            }
        }
    }
    return !bad && up == low;
}
static inline int SPMV_NAME(csr__symmetric)(const SPMV_NAME(csr) *C) { return SPMV_NAME(csr__mirrored)(C, 0); }

/* Strictly ascending columns in every row (no duplicates)? */
static inline int SPMV_NAME(csr__canonical)(const SPMV_NAME(csr) *C) {
    SPMV_I r;
    int bad = 0;
    /* (a wrapped or hand-made CSR may repeat a column even when sorted) */
SPMV_OMP(parallel for schedule(static) reduction(| : bad) if (C->nnz >= SPMV_PAR_MIN_NNZ))
    for (r = 0; r < C->nrows; r++) {
        SPMV_I k;
        for (k = C->row_ptr[r] + 1; k < C->row_ptr[r + 1]; k++) bad |= C->col_idx[k] <= C->col_idx[k - 1];
    }
    return !bad;
}

/* Is A symmetric: square, and A(i,j) == A(j,i) for every entry, values included (NaN equals
 * NaN; repeated entries summed first)? 1 yes, 0 no; SPMV_ERR_ARG (negative) for a malformed
 * A, SPMV_ERR_ALLOC when the sorted copy an unsorted A needs cannot be had. O(nnz log(row)),
 * parallel; what the symmetric formats (sss) check before building. */
/* *C = a view of A with strictly ascending columns: A itself (*own = 0), or a sorted copy with
 * repeats summed (*own = 1, the caller frees it with csr_free). */
static inline spmv_status SPMV_NAME(csr__sorted_view)(const SPMV_NAME(csr) *A, SPMV_NAME(csr) *C, int *own) {
    SPMV_NAME(coo) S;
    spmv_coo_params cp = spmv_coo_params_default();
    spmv_csr_params rp = spmv_csr_params_default();
    spmv_status st;
    *C = *A;
    *own = 0;
    if (SPMV_NAME(csr__canonical)(A)) return SPMV_OK;
    cp.isa = rp.isa = SPMV_ISA_GENERIC;
    if ((st = SPMV_NAME(coo_from_csr)(&S, A, &cp, NULL)) != SPMV_OK) return st;
    st = SPMV_NAME(csr_from_coo)(C, &S, &rp);
    SPMV_NAME(coo_free)(&S);
    *own = st == SPMV_OK;
    return st;
}
SPMV_API int SPMV_NAME(csr_is_symmetric)(const SPMV_NAME(csr) *A) {
    SPMV_NAME(csr) C;
    spmv_status st;
    int r, own;
    if (SPMV_NAME(csr_check)(A) != SPMV_OK) return -(int)SPMV_ERR_ARG;
    if (A->nrows != A->ncols) return 0;
    if ((st = SPMV_NAME(csr__sorted_view)(A, &C, &own)) != SPMV_OK) return -(int)st;
    r = SPMV_NAME(csr__symmetric)(&C);
    if (own) SPMV_NAME(csr_free)(&C);
    return r;
}

#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* The row-major SpMM pieces every native kernel (csr here, the ELL family in formats/ell.h)
 * shares: NV vectors of W columns of X per pass, the last masked (NV a literal at every call,
 * so the accumulators stay in registers). */
/* acc[0..NV) += v * X's row xr (columns j0..) */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(mm__acc)(spmv_v *acc, SPMV_Y v, const SPMV_Y *xr, const int NV,
                                                         unsigned mlast) {
    const spmv_v vv = V_set1(v);
    int b;
    for (b = 0; b + 1 < NV; b++) acc[b] = V_fma(vv, V_loadu(xr + b * SPMV_W), acc[b]);
    acc[NV - 1] = V_fma(vv, V_mload(mlast, xr + (NV - 1) * SPMV_W), acc[NV - 1]);
}
/* yr[0..) = alpha*acc + beta*yr (yr not read when beta == 0) */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(mm__put)(SPMV_Y *yr, const spmv_v *acc, const int NV,
                                                         unsigned mlast, SPMV_Y alpha, SPMV_Y beta) {
    int b;
    for (b = 0; b < NV; b++) {
        const unsigned m = b + 1 < NV ? V_mask_first(SPMV_W) : mlast;
        spmv_v o = V_mul(V_set1(alpha), acc[b]);
        if (beta != (SPMV_Y)0) o = V_fma(V_set1(beta), V_mload(m, yr + b * SPMV_W), o);
        V_mstore(yr + b * SPMV_W, m, o);
    }
}
/* KERN(args..., j0, NV, mask) over the k columns in blocks of 4 vectors, the remainder (1-4
 * vectors, the last one masked) in one block */
#ifndef SPMV__MM_BLOCKS
#define SPMV__MM_BLOCKS(kk, KERN, ...)                                                                          \
    do {                                                                                                        \
        int64_t j0_;                                                                                            \
        for (j0_ = 0; j0_ < (kk);) {                                                                            \
            const int64_t left_ = (kk) - j0_;                                                                   \
            const int nv_ = left_ >= 4 * SPMV_W ? 4 : (int)((left_ + SPMV_W - 1) / SPMV_W);                     \
            const int64_t w_ = left_ >= 4 * SPMV_W ? 4 * SPMV_W : left_;                                        \
            const unsigned ml_ = V_mask_first((int)(w_ - (int64_t)(nv_ - 1) * SPMV_W));                        \
            switch (nv_) {                                                                                      \
            case 1: KERN(__VA_ARGS__, j0_, 1, ml_); break;                                                      \
            case 2: KERN(__VA_ARGS__, j0_, 2, ml_); break;                                                      \
            case 3: KERN(__VA_ARGS__, j0_, 3, ml_); break;                                                      \
            default: KERN(__VA_ARGS__, j0_, 4, ml_); break;                                                     \
            }                                                                                                   \
            j0_ += w_;                                                                                          \
        }                                                                                                       \
    } while (0)
#endif

/* Row-major SpMM, rows [r0, r1), the k-columns [j0, j0 + NV*W) */
SPMV_KTARGET static SPMV__ALWAYS_INLINE void SPMV_K(csr__mm_rm)(const SPMV_NAME(csr) *A, SPMV_I r0, SPMV_I r1,
                                                            const SPMV_Y *X, int64_t ldx, SPMV_Y *Y, int64_t ldy,
                                                            SPMV_Y alpha, SPMV_Y beta, int64_t j0, const int NV,
                                                            unsigned mlast) {
    const SPMV_I *SPMV_RESTRICT rp = A->row_ptr;
    const SPMV_I *SPMV_RESTRICT ci = A->col_idx;
    const SPMV_T *SPMV_RESTRICT va = A->val;
    SPMV_I r, k;
    int b;
    for (r = r0; r < r1; r++) {
        spmv_v acc[4];
        for (b = 0; b < NV; b++) acc[b] = V_zero();
        for (k = rp[r]; k < rp[r + 1]; k++) SPMV_K(mm__acc)(acc, V_tv(va[k]), X + (int64_t)ci[k] * ldx + j0, NV, mlast);
        SPMV_K(mm__put)(Y + (int64_t)r * ldy + j0, acc, NV, mlast, alpha, beta);
    }
}

/* Column-major SpMM, rows [r0, r1), columns [j0, j0 + nb) of X and Y, nb <= 8 */
SPMV_KTARGET static inline void SPMV_K(csr__mm_cm)(const SPMV_NAME(csr) *A, SPMV_I r0, SPMV_I r1, const SPMV_Y *X,
                                                   int64_t ldx, SPMV_Y *Y, int64_t ldy, int64_t j0, int nb,
                                                   SPMV_Y alpha, SPMV_Y beta) {
    const SPMV_I *SPMV_RESTRICT rp = A->row_ptr;
    const SPMV_I *SPMV_RESTRICT ci = A->col_idx;
    const SPMV_T *SPMV_RESTRICT va = A->val;
    const SPMV_Y *xc[8];
    SPMV_I r, k;
    int b;
    for (b = 0; b < nb; b++) xc[b] = X + (j0 + b) * ldx;
    for (r = r0; r < r1; r++) {
        SPMV_Y s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (k = rp[r]; k < rp[r + 1]; k++) {
            const SPMV_Y v = V_tv(va[k]);
            const SPMV_I c = ci[k];
            for (b = 0; b < nb; b++) s[b] += v * xc[b][c];
        }
        for (b = 0; b < nb; b++) {
            SPMV_Y *yp = Y + (j0 + b) * ldy + r;
            *yp = beta == (SPMV_Y)0 ? alpha * s[b] : alpha * s[b] + beta * *yp;
        }
    }
}

SPMV_KTARGET static inline void SPMV_K(csr__mm)(const SPMV_NAME(csr) *A, int64_t kk, SPMV_Y alpha, const SPMV_Y *X,
                                                int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    int nt = SPMV_NAME(csr__threads)(A);
    (void)nt; /* unused without OpenMP */
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        SPMV_I r0, r1;
        int64_t j0;
        SPMV_NAME(csr__rows_of)(A, spmv__tid(), spmv__nthr(), &r0, &r1);
        if (lay == SPMV_COL_MAJOR) {
            for (j0 = 0; j0 < kk; j0 += 8)
                SPMV_K(csr__mm_cm)(A, r0, r1, X, ldx, Y, ldy, j0, kk - j0 < 8 ? (int)(kk - j0) : 8, alpha, beta);
        } else {
            SPMV__MM_BLOCKS(kk, SPMV_K(csr__mm_rm), A, r0, r1, X, ldx, Y, ldy, alpha, beta);
        }
    }
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
/* Y = alpha*A*X + beta*Y with k vectors (see the top of the file). beta == 0: Y not read. */
SPMV_API spmv_status SPMV_NAME(csr_mm)(const SPMV_NAME(csr) *A, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                            int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay) {
    spmv_status st;
    if (!A || spmv__mm_args_bad(A->ncols, A->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV_DISPATCH(st, A->params.isa, 0, SPMV_NAME(csr__mm), (A, k, alpha, X, ldx, beta, Y, ldy, lay));
    return st;
}
#endif /* SPMV_PART_API */
