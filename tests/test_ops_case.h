/* Per-type body of tests/test_ops.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)
#define TOL (sizeof(TT_VAL) == 4 ? 1e-5L : 1e-12L)

/* y0 -> y against alpha*op(A)*x + beta*y0 in long double; op = A^T when tr. One CHECK. */
static void TF(_cmp)(const char *what, const TN(csr) * A, int tr, TT_VAL alpha, const TT_VAL *x, TT_VAL beta,
                     const TT_VAL *y0, const TT_VAL *y) {
    const int64_t no = tr ? A->ncols : A->nrows;
    long double *ref = (long double *)calloc((size_t)no + 1, sizeof(long double));
    long double *sc = (long double *)calloc((size_t)no + 1, sizeof(long double));
    int64_t r, k, bad = -1;
    for (r = 0; r < A->nrows; r++)
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const int64_t i = tr ? A->col_idx[k] : r, j = tr ? r : A->col_idx[k];
            const long double p = (long double)A->val[k] * (long double)x[j];
            ref[i] += p;
            sc[i] += p < 0 ? -p : p;
        }
    for (r = 0; r < no && bad < 0; r++) {
        long double want = (long double)alpha * ref[r] + (beta != 0 ? (long double)beta * y0[r] : 0.0L);
        long double got = y[r], lim = TOL * (fabsl((long double)alpha) * sc[r] + (beta != 0 ? fabsl((long double)beta * y0[r]) : 0)) + 1e-30L;
        if (isnan(want) ? !isnan(got) : isinf(want) ? got != want : !(fabsl(got - want) <= lim)) bad = r;
    }
    CHECK(bad < 0, "[%s] %s: %lld x %lld, row %lld wrong", STR(TT_TAG), what, (long long)A->nrows, (long long)A->ncols,
          (long long)bad);
    free(ref);
    free(sc);
}

/* a matrix of the edge-case list */
#ifndef TH_SYM_VAL
#define TH_SYM_VAL
/* a value that depends on the unordered pair (i, j): symmetric matrices */
static double th_sym_val(int64_t i, int64_t j) {
    const uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
    const uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
    return (double)(h >> 11) / 9007199254740992.0 * 2 - 1;
}
#endif
static int TF(_make)(int which, TN(csr) * A, const char **name) {
    spmv_triplets t;
    int64_t i;
    spmv_status st;
    switch (which) {
    case 0: *name = "0 x 0"; spmv_triplets_alloc(&t, 0, 0, 0); break;
    case 1: *name = "0 x 7"; spmv_triplets_alloc(&t, 0, 7, 0); break;
    case 2: *name = "7 x 0"; spmv_triplets_alloc(&t, 7, 0, 0); break;
    case 3: *name = "random 50 x 80"; th_make_random(&t, 50, 80, 400); break;
    case 4: *name = "random 80 x 50, empty rows"; th_make_random(&t, 80, 50, 60); break;
    case 5: /* a dense row and a dense column, an explicit zero */
        *name = "dense row + column";
        spmv_triplets_alloc(&t, 300, 200, 500);
        for (i = 0; i < 200; i++) t.row[i] = 5, t.col[i] = i, t.val[i] = th_rval();
        for (i = 0; i < 300; i++) t.row[200 + i] = i, t.col[200 + i] = 7, t.val[200 + i] = th_rval();
        t.val[3] = 0;
        t.nnz = 500;
        break;
    case 6: *name = "random 3000 x 2000 (threads)"; th_make_random(&t, 3000, 2000, 30000); break;
    case 8: /* symmetric (sss runs): a dense row and column, an explicit zero, empty rows */
        *name = "symmetric arrow";
        spmv_triplets_alloc(&t, 300, 300, 700);
        for (i = 0; i < 300; i++) t.row[i] = 5, t.col[i] = i, t.val[i] = th_sym_val(5, i);
        for (i = 0; i < 300; i++) t.row[300 + i] = i, t.col[300 + i] = 5, t.val[300 + i] = th_sym_val(5, i);
        for (i = 0; i < 100; i++) t.row[600 + i] = 3 * i, t.col[600 + i] = 3 * i, t.val[600 + i] = th_sym_val(3 * i, 3 * i);
        t.val[7] = t.val[307] = 0;
        break;
    case 9: /* symmetric band, threads (sss's buffers between parts: 24k stored entries) */
        *name = "symmetric band 6000";
        {
            int64_t n = 6000, m = 0, d;
            spmv_triplets_alloc(&t, n, n, n * 7);
            for (i = 0; i < n; i++)
                for (d = -3; d <= 3; d++)
                    if (i + d >= 0 && i + d < n) t.row[m] = i, t.col[m] = i + d, t.val[m] = th_sym_val(i, i + d), m++;
            t.nnz = m;
        }
        break;
    default:
        *name = "band 20000 x 20000";
        {
            int64_t n = 20000, m = 0, d;
            spmv_triplets_alloc(&t, n, n, n * 5);
            for (i = 0; i < n; i++)
                for (d = -2; d <= 2; d++)
                    if (i + d >= 0 && i + d < n) t.row[m] = i, t.col[m] = i + d, t.val[m] = th_rval(), m++;
            t.nnz = m;
        }
        break;
    }
    st = TN(csr_from_triplets)(A, &t, NULL, NULL);
    spmv_triplets_free(&t);
    CHECK(st == SPMV_OK, "[%s] %s: csr", STR(TT_TAG), *name);
    return st == SPMV_OK;
}

static void TF(_vec)(TT_VAL *v, int64_t n, int nonfinite) {
    int64_t i;
    for (i = 0; i < n; i++) v[i] = (TT_VAL)th_rval();
    if (nonfinite && n > 3) {
        v[1] = (TT_VAL)INFINITY;
        v[n - 2] = (TT_VAL)NAN;
    }
}

/* transpose, csr_mvt, any_mvt, the built-from-A^T handles of every format */
static void TF(_transpose)(const char *name, const TN(csr) * A, int formats) {
    static const TT_VAL ab[4][2] = {{1, 0}, {2, -0.5}, {-1, 1}, {-3, 0}};
    const int64_t m = A->nrows, n = A->ncols;
    TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TT_VAL *y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TT_VAL *y2 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TN(csr) T, TT;
    char what[256];
    int p, nf, f;
    spmv_status st = TN(csr_transpose)(&T, A);
    CHECK(st == SPMV_OK && T.nrows == n && T.ncols == m && T.nnz == A->nnz, "[%s] %s: transpose %s", STR(TT_TAG), name,
          spmv_status_str(st));
    if (st != SPMV_OK) goto out;
    CHECK(TN(csr_check)(&T) == SPMV_OK, "[%s] %s: A^T is a valid CSR (sorted columns)", STR(TT_TAG), name);
    st = TN(csr_transpose)(&TT, &T);
    /* bit for bit back when A's rows were sorted (A^T's always are) */
    CHECK(st == SPMV_OK && TT.cols_sorted && T.cols_sorted, "[%s] %s: transposes are sorted", STR(TT_TAG), name);
    if (A->cols_sorted) CHECK(st == SPMV_OK && !memcmp(TT.row_ptr, A->row_ptr, sizeof(TT_IDX) * (size_t)(m + 1)) &&
              (A->nnz == 0 || (!memcmp(TT.col_idx, A->col_idx, sizeof(TT_IDX) * (size_t)A->nnz) &&
                               !memcmp(TT.val, A->val, sizeof(TT_VAL) * (size_t)A->nnz))),
          "[%s] %s: (A^T)^T == A bit for bit", STR(TT_TAG), name);
    if (st == SPMV_OK) TN(csr_free)(&TT);
    for (nf = 0; nf < 2; nf++)
        for (p = 0; p < 4; p++) {
            const TT_VAL al = ab[p][0], be = ab[p][1];
            int64_t i;
            TF(_vec)(x, m, nf);
            TF(_vec)(y0, n, 0);
            for (i = 0; i < n; i++) y[i] = be == 0 ? (TT_VAL)NAN : y0[i]; /* beta 0: y not read */
            st = TN(csr_mvt)(A, al, x, be, y);
            snprintf(what, sizeof what, "%s: csr_mvt alpha %g beta %g%s", name, (double)al, (double)be, nf ? " Inf/NaN in x" : "");
            CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
            TF(_cmp)(what, A, 1, al, x, be, y0, y);
            /* the same bits again (fixed thread count), and A^T's forward product agrees */
            for (i = 0; i < n; i++) y2[i] = be == 0 ? (TT_VAL)NAN : y0[i];
            TN(csr_mvt)(A, al, x, be, y2);
            CHECK(n == 0 || !memcmp(y, y2, sizeof(TT_VAL) * (size_t)n), "[%s] %s: repeatable", STR(TT_TAG), what);
            if (!formats) continue;
            /* every host format built from A^T (opts.transpose): its own forward kernel */
            for (f = 0; f < SPMV_FMT_COUNT_; f++) {
                TN(any) M;
                spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
                spmv_error e;
                if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) || (p && f % 4 != p)) continue;
                o.transpose = 1;
                st = TN(any_from_csr)(&M, A, &o, &e);
                if (st == SPMV_ERR_LIMIT) continue; /* the format's own limits (tested with the format) */
                if ((spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && !TN(csr_is_symmetric)(A)) {
                    CHECK(st == SPMV_ERR_ARG, "[%s] %s: %s from a non-symmetric A^T: %s", STR(TT_TAG), name,
                          spmv_format_name((spmv_format)f), spmv_status_str(st));
                    if (st == SPMV_OK) TN(any_free)(&M);
                    continue;
                }
                CHECK(st == SPMV_OK && M.transposed && M.nrows == n && M.ncols == m, "[%s] %s: %s from A^T: %s",
                      STR(TT_TAG), name, spmv_format_name((spmv_format)f), e.msg);
                if (st != SPMV_OK) continue;
                for (i = 0; i < n; i++) y[i] = be == 0 ? (TT_VAL)NAN : y0[i];
                st = TN(any_mv)(&M, al, x, be, y);
                snprintf(what, sizeof what, "%s: %s built from A^T, alpha %g beta %g%s", name,
                         spmv_format_name((spmv_format)f), (double)al, (double)be, nf ? " Inf/NaN in x" : "");
                CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
                TF(_cmp)(what, A, 1, al, x, be, y0, y);
                /* any_mvt: native on the csr rows (B^T x with B = A^T: A x); the others refuse */
                st = TN(any_mvt)(&M, 1, y0, 0, y2);
                if (f == SPMV_FMT_CSR || f == SPMV_FMT_CSR_MERGE || (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC)) {
                    snprintf(what, sizeof what, "%s: any_mvt on %s built from A^T (= A x)", name, spmv_format_name((spmv_format)f));
                    CHECK(st == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
                    TF(_cmp)(what, A, 0, 1, y0, 0, y0, y2);
                } else {
                    CHECK(st == SPMV_ERR_UNSUPPORTED, "[%s] %s: any_mvt on %s: %s (want unsupported)", STR(TT_TAG), name,
                          spmv_format_name((spmv_format)f), spmv_status_str(st));
                }
                TN(any_free)(&M);
            }
        }
    /* bad arguments: x and y overlapping, NULLs */
    if (m > 0 && n > 0 && A->nnz > 0) {
        CHECK(TN(csr_mvt)(A, 1, x, 0, x) == SPMV_ERR_ARG, "[%s] %s: mvt with y on x refused", STR(TT_TAG), name);
        CHECK(TN(csr_mvt)(A, 1, NULL, 0, y) == SPMV_ERR_ARG && TN(csr_mvt)(NULL, 1, x, 0, y) == SPMV_ERR_ARG,
              "[%s] %s: mvt NULLs refused", STR(TT_TAG), name);
    }
    TN(csr_free)(&T);
out:
    free(x);
    free(y0);
    free(y);
    free(y2);
}

/* SpMM: csr native and the fallback of a few other formats, both layouts, k sweep */
static void TF(_mm)(const char *name, const TN(csr) * A, const int *ks, int nk, int others) {
    /* sss (the fallback, on symmetric A only: it refuses the others) */
    static const spmv_format fb[] = {SPMV_FMT_SELL, SPMV_FMT_COO, SPMV_FMT_JAD, SPMV_FMT_BCSR, SPMV_FMT_HYB, SPMV_FMT_HLL, SPMV_FMT_SSS};
    const int64_t m = A->nrows, n = A->ncols;
    int ik, lay, h;
    for (ik = 0; ik < nk; ik++)
        for (lay = 0; lay < 2; lay++)
            for (h = -1; h < (others ? 7 : 0); h++) {
                const int64_t k = ks[ik];
                if (others == 2 && h >= 0 && fb[h] != SPMV_FMT_SSS) continue; /* sss alone */
                const int64_t ldx = lay == SPMV_ROW_MAJOR ? k + 3 : n + 5, ldy = lay == SPMV_ROW_MAJOR ? k + 2 : m + 3;
                const size_t nx = (size_t)(lay == SPMV_ROW_MAJOR ? (n > 0 ? n : 1) * ldx : k * ldx);
                const size_t ny = (size_t)(lay == SPMV_ROW_MAJOR ? (m > 0 ? m : 1) * ldy : k * ldy);
                TT_VAL *X = (TT_VAL *)malloc(sizeof(TT_VAL) * nx), *Y = (TT_VAL *)malloc(sizeof(TT_VAL) * ny);
                TT_VAL *Y0 = (TT_VAL *)malloc(sizeof(TT_VAL) * ny);
                TT_VAL *xc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(n + 1));
                TT_VAL *yc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + 1));
                TT_VAL *y0c = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + 1));
                const TT_VAL al = h < 0 ? (TT_VAL)1.5 : (TT_VAL)1, be = (k % 2) ? (TT_VAL)0 : (TT_VAL)-0.25;
                TN(any) M;
                spmv_status st;
                int64_t i, j, bad = -1;
                size_t q;
                char what[256];
                for (q = 0; q < nx; q++) X[q] = (TT_VAL)th_rval();
                for (q = 0; q < ny; q++) Y0[q] = (TT_VAL)th_rval();
                for (q = 0; q < ny; q++) Y[q] = be == 0 ? (TT_VAL)NAN : Y0[q];
                if (h < 0) {
                    st = TN(csr_mm)(A, k, al, X, ldx, be, Y, ldy, (spmv_layout)lay);
                    snprintf(what, sizeof what, "%s: csr_mm k=%lld %s", name, (long long)k, lay ? "col-major" : "row-major");
                } else {
                    spmv_opts o = th_opts(fb[h], SPMV_ISA_AUTO, NULL);
                    st = TN(any_from_csr)(&M, A, &o, NULL);
                    if (st != SPMV_OK) goto next;
                    st = TN(any_mm)(&M, k, al, X, ldx, be, Y, ldy, (spmv_layout)lay);
                    TN(any_free)(&M);
                    snprintf(what, sizeof what, "%s: any_mm on %s k=%lld %s", name, spmv_format_name(fb[h]), (long long)k,
                             lay ? "col-major" : "row-major");
                }
                CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
                /* each column against the reference; the padding between rows untouched */
                for (j = 0; j < k && bad < 0; j++) {
                    int before = check_failed_;
                    for (i = 0; i < n; i++) xc[i] = X[lay == SPMV_ROW_MAJOR ? i * ldx + j : j * ldx + i];
                    for (i = 0; i < m; i++) {
                        const size_t at = (size_t)(lay == SPMV_ROW_MAJOR ? i * ldy + j : j * ldy + i);
                        yc[i] = Y[at];
                        y0c[i] = Y0[at];
                    }
                    TF(_cmp)(what, A, 0, al, xc, be, y0c, yc);
                    if (check_failed_ != before) bad = j;
                }
                if (lay == SPMV_ROW_MAJOR && k + 2 > k && m > 0)
                    for (i = 0; i < m && bad < 0; i++)
                        if (memcmp(&Y[i * ldy + k], &Y0[i * ldy + k], sizeof(TT_VAL) * 2) && be != 0) bad = i;
                CHECK(bad < 0, "[%s] %s: every column right, the gaps untouched", STR(TT_TAG), what);
            next:
                free(X);
                free(Y);
                free(Y0);
                free(xc);
                free(yc);
                free(y0c);
            }
}

/* the native row-major kernels of bcsr (padded blocks) and sell with Inf and NaN in X: a padded
 * zero must not turn an Inf into NaN (bcsr sums such rows again from its real entries) */
static void TF(_mm_nonfinite)(const char *name, const TN(csr) * A) {
    /* bcsr at block sizes with and without a literal kernel; k = 33 takes the row-by-row path
       of the large blocks (bs x vectors above 16 accumulators) */
    static const spmv_format fs[] = {SPMV_FMT_BCSR, SPMV_FMT_BCSR, SPMV_FMT_BCSR, SPMV_FMT_BCSR, SPMV_FMT_SELL};
    static const char *const ps[] = {"bs=2", "bs=3", "bs=5", "bs=8", NULL};
    static const int ks[] = {3, 9, 33};
    const int64_t m = A->nrows, n = A->ncols;
    int h, ik;
    if (n < 2) return;
    for (h = 0; h < 5; h++)
        for (ik = 0; ik < 3; ik++) {
            const int64_t k = ks[ik], ldx = k + 1, ldy = k;
            TT_VAL *X = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(n * ldx));
            TT_VAL *Y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m * ldy + 1));
            TT_VAL *xc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)n), *yc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + 1));
            spmv_opts o = th_opts(fs[h], SPMV_ISA_AUTO, ps[h]);
            TN(any) M;
            char what[200];
            int64_t i, j, q;
            for (q = 0; q < n * ldx; q++) X[q] = (TT_VAL)th_rval();
            for (j = 0; j < k; j++) X[j] = (TT_VAL)INFINITY; /* row 0 of X: every column */
            X[ldx] = (TT_VAL)NAN;                            /* row 1, column 0 */
            if (TN(any_from_csr)(&M, A, &o, NULL) == SPMV_OK) {
                const spmv_status st = TN(any_mm)(&M, k, (TT_VAL)1, X, ldx, (TT_VAL)0, Y, ldy, SPMV_ROW_MAJOR);
                snprintf(what, sizeof what, "%s: any_mm on %s %s k=%lld, Inf and NaN in X", name, spmv_format_name(fs[h]),
                         ps[h] ? ps[h] : "", (long long)k);
                CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
                for (j = 0; j < k && st == SPMV_OK; j++) {
                    for (i = 0; i < n; i++) xc[i] = X[i * ldx + j];
                    for (i = 0; i < m; i++) yc[i] = Y[i * ldy + j];
                    TF(_cmp)(what, A, 0, (TT_VAL)1, xc, (TT_VAL)0, yc, yc);
                }
                TN(any_free)(&M);
            }
            free(X), free(Y), free(xc), free(yc);
        }
}

static void TF(_mm_errors)(const TN(csr) * A) {
    TT_VAL *X = (TT_VAL *)calloc((size_t)(A->ncols + A->nrows + 1) * 8, sizeof(TT_VAL));
    TT_VAL *Y = (TT_VAL *)calloc((size_t)A->nrows * 8 + 1, sizeof(TT_VAL));
    TN(any) M;
    spmv_opts o = th_opts(SPMV_FMT_SELL, SPMV_ISA_AUTO, NULL);
    CHECK(TN(csr_mm)(A, 0, 1, X, 1, 0, Y, 1, SPMV_ROW_MAJOR) == SPMV_ERR_ARG, "[%s] mm k = 0 refused", STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 4, 1, X, 3, 0, Y, 4, SPMV_ROW_MAJOR) == SPMV_ERR_ARG, "[%s] mm ldx < k refused", STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 4, 1, X, 4, 0, Y, 3, SPMV_ROW_MAJOR) == SPMV_ERR_ARG, "[%s] mm ldy < k refused", STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 2, 1, X, A->ncols - 1, 0, Y, A->nrows, SPMV_COL_MAJOR) == SPMV_ERR_ARG,
          "[%s] mm col-major ldx < ncols refused", STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 2, 1, X, A->ncols, 0, Y, A->nrows, (spmv_layout)7) == SPMV_ERR_ARG, "[%s] mm bad layout refused",
          STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 2, 1, X, 2, 0, X + 1, 2, SPMV_ROW_MAJOR) == SPMV_ERR_ARG, "[%s] mm X and Y overlapping refused",
          STR(TT_TAG));
    CHECK(TN(csr_mm)(A, 2, 1, NULL, 2, 0, Y, 2, SPMV_ROW_MAJOR) == SPMV_ERR_ARG, "[%s] mm X NULL refused", STR(TT_TAG));
    if (TN(any_from_csr)(&M, A, &o, NULL) == SPMV_OK) {
        CHECK(TN(any_mm)(&M, 0, 1, X, 1, 0, Y, 1, SPMV_ROW_MAJOR) == SPMV_ERR_ARG &&
                  TN(any_mm)(&M, 2, 1, X, 2, 0, X + 1, 2, SPMV_ROW_MAJOR) == SPMV_ERR_ARG,
              "[%s] any_mm: k = 0 and overlap refused", STR(TT_TAG));
        { /* the row-major fallback's scratch (coo: no native SpMM) not there: SPMV_ERR_ALLOC, Y untouched */
            TN(any) Mc;
            spmv_opts oc = th_opts(SPMV_FMT_COO, SPMV_ISA_AUTO, NULL);
            int64_t q, same = 1;
            if (TN(any_from_csr)(&Mc, A, &oc, NULL) == SPMV_OK) {
                for (q = 0; q < A->nrows * 2; q++) Y[q] = 5;
                th_alloc_count = 0;
                th_alloc_fail_at = 2;
                CHECK(TN(any_mm)(&Mc, 2, 1, X, 2, 0, Y, 2, SPMV_ROW_MAJOR) == SPMV_ERR_ALLOC,
                      "[%s] any_mm: allocation failure reported", STR(TT_TAG));
                th_alloc_fail_at = -1;
                for (q = 0; q < A->nrows * 2; q++) same &= Y[q] == 5;
                CHECK(same, "[%s] any_mm: Y untouched after the allocation failure", STR(TT_TAG));
                TN(any_free)(&Mc);
            }
        }
        TN(any_free)(&M);
    }
    { /* the selection for SpMM: a format with a native SpMM, timed on calls of 8 vectors (every
         candidate: budget and expected calls large), its auto_mm right; mm_k out of range refused */
        static const spmv_format native[] = {SPMV_FMT_CSR, SPMV_FMT_ELL, SPMV_FMT_ELLR, SPMV_FMT_HLL,
                                             SPMV_FMT_SELL, SPMV_FMT_JAD, SPMV_FMT_BCSR};
        TN(auto) U;
        spmv_opts ao = spmv_opts_default();
        spmv_error e;
        int q, is_native = 0, lo = 1;
        ao.mm_k = 8;
        ao.budget = 1e9;
        ao.min_seconds = 100;
        ao.expected_calls = 1e9;
        if (TN(auto_from_csr)(&U, A, &ao, &e) == SPMV_OK) {
            for (q = 0; q < 7; q++) is_native |= U.rep.chosen == native[q];
            for (q = 0; q < U.rep.nleft; q++) /* every format without a native SpMM left out, saying so */
                if (U.rep.left[q] == SPMV_FMT_COO || U.rep.left[q] == SPMV_FMT_DIA || U.rep.left[q] == SPMV_FMT_CSR5)
                    lo &= strstr(U.rep.left_why[q], "SpMM") != NULL;
            for (q = 0; q < U.rep.ncand; q++) {
                int n2 = 0, z;
                for (z = 0; z < 7; z++) n2 |= U.rep.cand[q].fmt == native[z];
                lo &= n2;
            }
            CHECK(is_native && lo && (A->nnz == 0 || U.rep.trials >= 1),
                  "[%s] auto with mm_k = 8: %s chosen among native SpMM formats, %d timed (%s)", STR(TT_TAG),
                  spmv_format_name(U.rep.chosen), U.rep.trials, U.rep.why);
            if (A->nrows > 0 && A->ncols > 0) { /* the chosen handle's product with 8 vectors */
                TT_VAL *X = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A->ncols * 8);
                TT_VAL *Y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A->nrows * 8);
                TT_VAL *xc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A->ncols);
                TT_VAL *yc = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A->nrows);
                int64_t i;
                for (i = 0; i < A->ncols * 8; i++) X[i] = (TT_VAL)th_rval();
                CHECK(TN(auto_mm)(&U, 8, 1, X, 8, 0, Y, 8, SPMV_ROW_MAJOR) == SPMV_OK, "[%s] auto_mm", STR(TT_TAG));
                for (q = 0; q < 8; q += 7) {
                    for (i = 0; i < A->ncols; i++) xc[i] = X[i * 8 + q];
                    for (i = 0; i < A->nrows; i++) yc[i] = Y[i * 8 + q];
                    TF(_cmp)("auto_mm after the SpMM selection", A, 0, 1, xc, 0, yc, yc);
                }
                free(X), free(Y), free(xc), free(yc);
            }
            TN(auto_free)(&U);
        } else {
            CHECK(0, "[%s] auto with mm_k = 8: %s", STR(TT_TAG), U.rep.why);
        }
        ao = spmv_opts_default();
        ao.mm_k = 8;
        ao.deterministic = 1;
        CHECK(TN(auto_from_csr)(&U, A, &ao, &e) == SPMV_OK && U.rep.trials == 0,
              "[%s] auto deterministic with mm_k = 8: untimed", STR(TT_TAG));
        TN(auto_free)(&U);
        ao.mm_k = 4097;
        CHECK(TN(auto_from_csr)(&U, A, &ao, &e) == SPMV_ERR_ARG && strstr(e.msg, "mm_k"), "[%s] mm_k = 4097 refused: %s",
              STR(TT_TAG), e.msg);
    }
    { /* transpose = 2 (A^H) is A^T for a real tag, bit for bit; 3 is refused */
        spmv_opts ob = spmv_opts_default();
        spmv_error e;
        TN(any) M1, M2;
        ob.transpose = 3;
        CHECK(TN(any_from_csr)(&M, A, &ob, &e) == SPMV_ERR_ARG && strstr(e.msg, "transpose"),
              "[%s] opts.transpose = 3 refused: %s", STR(TT_TAG), e.msg);
        ob.format = SPMV_FMT_SELL;
        ob.transpose = 1;
        if (TN(any_from_csr)(&M1, A, &ob, &e) == SPMV_OK) {
            TT_VAL *xa = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + 1));
            TT_VAL *y1 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->ncols + 1));
            TT_VAL *y2 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->ncols + 1));
            int64_t i, same = 1;
            if (!xa || !y1 || !y2) abort();
            for (i = 0; i < A->nrows; i++) xa[i] = (TT_VAL)th_rval();
            ob.transpose = 2;
            CHECK(TN(any_from_csr)(&M2, A, &ob, &e) == SPMV_OK && M2.transposed == 2, "[%s] sell with transpose = 2: %s",
                  STR(TT_TAG), e.msg);
            if (M2.transposed == 2) {
                CHECK(TN(any_mv)(&M1, (TT_VAL)0.5, xa, 0, y1) == SPMV_OK && TN(any_mv)(&M2, (TT_VAL)0.5, xa, 0, y2) == SPMV_OK,
                      "[%s] transpose 1 and 2 products", STR(TT_TAG));
                for (i = 0; i < A->ncols; i++) same &= y1[i] == y2[i] || (y1[i] != y1[i] && y2[i] != y2[i]);
                CHECK(same, "[%s] transpose = 2 is transpose = 1 for real values, bit for bit", STR(TT_TAG));
                TN(any_free)(&M2);
            }
            TN(any_free)(&M1);
            free(xa), free(y1), free(y2);
        }
    }
    free(X);
    free(Y);
}

/* any_update_values on every host format (as built, and from A^T), and on the auto handle */
static void TF(_update)(const char *name, const TN(csr) * A, int every) {
    const int64_t m = A->nrows, n = A->ncols;
    TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(m + n + 1));
    TN(csr) B, C;
    int f, tr, round;
    spmv_status st;
    const int sym = TN(csr_is_symmetric)(A) == 1;
    if (TN(csr_from_csr)(&B, A, NULL, NULL) != SPMV_OK || TN(csr_from_csr)(&C, A, NULL, NULL) != SPMV_OK) {
        CHECK(0, "[%s] %s: copies", STR(TT_TAG), name);
        free(x);
        free(y);
        return;
    }
    TF(_vec)(x, m + n, 0);
    for (f = 0; f <= SPMV_FMT_COUNT_; f++)
        for (tr = 0; tr < 2; tr++) {
            TN(any) M;
            TN(auto) U;
            spmv_opts o = th_opts((spmv_format)(f < SPMV_FMT_COUNT_ ? f : 0), SPMV_ISA_AUTO, NULL);
            const int is_auto = f == SPMV_FMT_COUNT_;
            const char *fn = is_auto ? "auto" : spmv_format_name((spmv_format)f);
            char what[256];
            if (!is_auto && !(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
            if (!every && !is_auto && f != SPMV_FMT_CSR && f != SPMV_FMT_SELL && f != SPMV_FMT_HYB && f != SPMV_FMT_AXTUH &&
                f != SPMV_FMT_SSS)
                continue;
            o.transpose = tr;
            o.expected_calls = 5;
            st = is_auto ? TN(auto_from_csr)(&U, A, &o, NULL) : TN(any_from_csr)(&M, A, &o, NULL);
            if (st == SPMV_ERR_LIMIT) continue;
            if (!is_auto && (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && !sym) {
                CHECK(st == SPMV_ERR_ARG, "[%s] %s: %s of a non-symmetric A: %s", STR(TT_TAG), name, fn, spmv_status_str(st));
                if (st == SPMV_OK) TN(any_free)(&M);
                continue;
            }
            CHECK(st == SPMV_OK, "[%s] %s: %s build", STR(TT_TAG), name, fn);
            if (st != SPMV_OK) continue;
            for (round = 0; round < 2; round++) { /* the first update makes the map, the second reuses it */
                int64_t k, r;
                for (k = 0; k < B.nnz; k++) B.val[k] = (TT_VAL)th_rval();
                if (B.nnz > 2) B.val[1] = 0; /* an entry becoming zero keeps its slot */
                if (sym) /* new values, still symmetric (the handle may hold sss) */
                    for (r = 0; r < B.nrows; r++)
                        for (k = B.row_ptr[r]; k < B.row_ptr[r + 1]; k++)
                            B.val[k] = (TT_VAL)th_sym_val(r, B.col_idx[k]) * (TT_VAL)(round + 2);
                st = is_auto ? TN(auto_update_values)(&U, &B) : TN(any_update_values)(&M, &B);
                snprintf(what, sizeof what, "%s: %s%s after update %d", name, fn, tr ? " from A^T" : "", round + 1);
                CHECK(st == SPMV_OK, "[%s] %s: %s", STR(TT_TAG), what, spmv_status_str(st));
                st = is_auto ? TN(auto_mv)(&U, (TT_VAL)1.5, x, 0, y) : TN(any_mv)(&M, (TT_VAL)1.5, x, 0, y);
                CHECK(st == SPMV_OK, "[%s] %s: product %s", STR(TT_TAG), what, spmv_status_str(st));
                TF(_cmp)(what, &B, tr, (TT_VAL)1.5, x, 0, y, y);
            }
            if (sym && !is_auto && (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && B.nnz > 2) {
                /* new values that are not symmetric: refused, the handle keeps the last ones */
                int64_t r, q = -1, k;
                for (r = 0; r < B.nrows && q < 0; r++) /* an entry off the diagonal: one of a pair */
                    for (k = B.row_ptr[r]; k < B.row_ptr[r + 1] && q < 0; k++)
                        if (B.col_idx[k] != r) q = k;
                if (q >= 0) {
                    const TT_VAL keep = B.val[q];
                    B.val[q] += 1;
                    CHECK(TN(any_update_values)(&M, &B) == SPMV_ERR_ARG,
                          "[%s] %s: %s: non-symmetric new values refused", STR(TT_TAG), name, fn);
                    B.val[q] = keep;
                    st = TN(any_mv)(&M, (TT_VAL)1.5, x, 0, y);
                    TF(_cmp)("the values of the last accepted update kept", &B, tr, (TT_VAL)1.5, x, 0, y, y);
                }
            }
            if (!is_auto && f != SPMV_FMT_CSR && f != SPMV_FMT_CSR_MERGE && m > 64 && A->nnz > 64) {
                /* a matrix with other sizes, or another pattern, is refused; the values stay */
                TN(csr) W;
                TN(csr_wrap)(&W, m, n + 1, A->row_ptr, A->col_idx, A->val, NULL, NULL);
                CHECK(TN(any_update_values)(&M, &W) == SPMV_ERR_ARG, "[%s] %s: %s: other sizes refused", STR(TT_TAG), name, fn);
                TN(csr_free)(&W);
            }
            if (is_auto) TN(auto_free)(&U);
            else TN(any_free)(&M);
        }
    /* allocation failure while making the map: SPMV_ERR_ALLOC, the handle's values unchanged */
    {
        TN(any) M;
        spmv_opts o = th_opts(SPMV_FMT_SELL, SPMV_ISA_AUTO, NULL);
        if (TN(any_from_csr)(&M, A, &o, NULL) == SPMV_OK) {
            long k;
            int64_t q;
            for (q = 0; q < C.nnz; q++) C.val[q] = (TT_VAL)th_rval();
            for (k = 1; k < 6; k++) {
                th_alloc_count = 0;
                th_alloc_fail_at = k;
                st = TN(any_update_values)(&M, &C);
                th_alloc_fail_at = -1;
                if (st == SPMV_OK) break;
                CHECK(st == SPMV_ERR_ALLOC && !M.vmap[0], "[%s] %s: update with allocation %ld failing: %s", STR(TT_TAG),
                      name, k, spmv_status_str(st));
                TN(any_mv)(&M, 1, x, 0, y);
                TF(_cmp)("product after a failed update (the old values)", A, 0, 1, x, 0, y, y);
            }
            TN(any_free)(&M);
        }
    }
    TN(csr_free)(&B);
    TN(csr_free)(&C);
    free(x);
    free(y);
}

static spmv_status TF(_conv_tr)(void *out, const void *in) { return TN(csr_transpose)((TN(csr) *)out, (const TN(csr) *)in); }
static void TF(_rel_tr)(void *p) { TN(csr_free)((TN(csr) *)p); }

static void TF(_real)(const char *name, const spmv_triplets *t, void *ctx) {
    static const int ks[] = {8, 3};
    TN(csr) A;
    (void)ctx;
    if (TN(csr_from_triplets)(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "[%s] %s: csr", STR(TT_TAG), name);
        return;
    }
    TF(_transpose)(name, &A, 0);
    TF(_mm)(name, &A, ks, 2, 0);
    if (A.nnz <= 20000) TF(_update)(name, &A, 0);
    TN(csr_free)(&A);
}

static void TF(_all)(void) {
    static const int ks[] = {1, 2, 3, 7, 8, 9, 16, 17, 33};
    int w;
    for (w = 0; w < 10; w++) {
        TN(csr) A;
        const char *name;
        int th;
        if (!TF(_make)(w, &A, &name)) continue;
        if (w == 9) { /* sss built on 2 threads, products on 1, 2 and 3 (a split found per call) */
            TN(any) M;
            TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A.ncols), *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)A.nrows);
            spmv_opts o = th_opts(SPMV_FMT_SSS, SPMV_ISA_AUTO, NULL);
            set_threads(2);
            TF(_vec)(x, A.ncols, 0);
            if (TN(any_from_csr)(&M, &A, &o, NULL) == SPMV_OK) {
                for (th = 1; th <= 3; th++) {
                    char what[96];
                    set_threads(th);
                    TF(_vec)(y, A.nrows, 0);
                    snprintf(what, sizeof what, "%s: sss on %d threads", name, th);
                    CHECK(TN(any_mv)(&M, (TT_VAL)-0.5, x, 0, y) == SPMV_OK, "[%s] %s", STR(TT_TAG), what);
                    TF(_cmp)(what, &A, 0, (TT_VAL)-0.5, x, 0, y, y);
                }
                TN(any_free)(&M);
            } else {
                CHECK(0, "[%s] %s: sss build", STR(TT_TAG), name);
            }
            free(x);
            free(y);
            set_threads(2);
            TF(_transpose)(name, &A, 1);
            TF(_update)(name, &A, 0);
            TN(csr_free)(&A);
            continue;
        }
        for (th = 1; th <= 3; th++) {
            set_threads(th);
            TF(_transpose)(name, &A, th == 2);
            TF(_mm)(name, &A, ks, th == 2 ? 9 : 3, th != 2 || w == 7 ? 0 : w == 8 ? 2 : 1);
        }
        TF(_mm_nonfinite)(name, &A);
        set_threads(2);
        if (w < 8) { /* csr_mm's kernels of every ISA this build and CPU have (the emulated build: AVX-512) */
            static const spmv_isa isas[] = {SPMV_ISA_GENERIC, SPMV_ISA_AVX2, SPMV_ISA_AVX512};
            int q;
            for (q = 0; q < 3; q++) {
                TN(csr) B;
                spmv_csr_params cp = spmv_csr_params_default();
                char nm[128];
                cp.isa = isas[q];
                if (TN(csr_from_csr)(&B, &A, &cp, NULL) != SPMV_OK) continue;
                snprintf(nm, sizeof nm, "%s [%s]", name, spmv_isa_name(isas[q]));
                TF(_mm)(nm, &B, ks, 9, 0);
                TN(csr_free)(&B);
            }
        }
        if (w == 3) {
            TN(csr) T;
            TF(_mm_errors)(&A);
            th_alloc_sweep("csr_transpose", TF(_conv_tr), &A, &T, sizeof T, TF(_rel_tr));
            { /* csr_mvt: a failed buffer allocation is SPMV_ERR_ALLOC with y untouched */
                TT_VAL x[50], y[80];
                int i;
                for (i = 0; i < 50; i++) x[i] = 1;
                for (i = 0; i < 80; i++) y[i] = 7;
                th_alloc_count = 0;
                th_alloc_fail_at = 1;
                CHECK(TN(csr_mvt)(&A, 1, x, 0, y) == SPMV_ERR_ALLOC && y[0] == 7 && y[79] == 7,
                      "[%s] mvt: allocation failure reported, y untouched", STR(TT_TAG));
                th_alloc_fail_at = -1;
            }
        }
        if (w >= 3) TF(_update)(name, &A, w == 3 || w == 5 || w == 8);
        TN(csr_free)(&A);
    }
    { /* csr_wrap of rows with their columns in reverse order (allowed: not sorted) */
        TN(csr) A, W;
        const char *name;
        if (TF(_make)(6, &A, &name)) {
            TT_IDX *ci = (TT_IDX *)malloc(sizeof(TT_IDX) * (size_t)(A.nnz + 1));
            TT_VAL *va = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A.nnz + 1));
            int64_t r, k;
            for (r = 0; r < A.nrows; r++)
                for (k = A.row_ptr[r]; k < A.row_ptr[r + 1]; k++) {
                    const int64_t q = A.row_ptr[r + 1] - 1 - (k - A.row_ptr[r]);
                    ci[q] = A.col_idx[k];
                    va[q] = A.val[k];
                }
            CHECK(TN(csr_wrap)(&W, A.nrows, A.ncols, A.row_ptr, ci, va, NULL, NULL) == SPMV_OK && !W.cols_sorted,
                  "[%s] wrap of unsorted rows", STR(TT_TAG));
            TF(_transpose)("random 3000 x 2000, columns reversed (wrap)", &W, 0);
            TN(csr_free)(&W);
            free(ci);
            free(va);
            TN(csr_free)(&A);
        }
    }
    { /* repeated entries (a row listing one column two or three times, unsorted; csr_wrap
         * accepts them and every layout sums them): new values through every host format, as
         * built and from A^T (a slot takes its group's sum; the map once pointed at one entry's
         * position stamps added up: a wrong product, and a read past the values) */
        static const TT_IDX rp[] = {0, 2, 5, 6, 9, 12, 12, 15};
        static const TT_IDX ci[] = {0, 0, 3, 1, 3, 2, 4, 4, 1, 4, 0, 4, 5, 2, 5};
        TT_VAL va[15];
        TN(csr) W;
        int k;
        for (k = 0; k < 15; k++) va[k] = (TT_VAL)(k + 1);
        CHECK(TN(csr_wrap)(&W, 7, 6, rp, ci, va, NULL, NULL) == SPMV_OK, "[%s] wrap of repeated entries", STR(TT_TAG));
        TF(_update)("7 x 6 with repeated entries", &W, 1);
        TN(csr_free)(&W);
    }
    { /* a symmetric matrix whose rows repeat and disorder a column (A(0,1) = 1 + 2 = A(1,0)):
         every host format, sss included (its update once refused such rows), as built and
         from A^T, updated with values whose sums stay symmetric */
        static const TT_IDX rp[] = {0, 3, 5, 6};
        static const TT_IDX ci[] = {1, 0, 1, 0, 2, 1};
        TT_VAL v1[6] = {1, 5, 2, 3, 7, 7}, v2[6] = {10, 50, 20, 30, 70, 70}, x[3] = {1, 10, 100}, y[3];
        TN(csr) W1, W2;
        int f, tr;
        CHECK(TN(csr_wrap)(&W1, 3, 3, rp, ci, v1, NULL, NULL) == SPMV_OK && TN(csr_wrap)(&W2, 3, 3, rp, ci, v2, NULL, NULL) == SPMV_OK,
              "[%s] wrap of a symmetric matrix with repeats", STR(TT_TAG));
        for (f = 0; f < SPMV_FMT_COUNT_; f++)
            for (tr = 0; tr < 2; tr++) {
                TN(any) M;
                spmv_opts o = th_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
                spmv_status st;
                if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
                o.transpose = tr;
                if ((st = TN(any_from_csr)(&M, &W1, &o, NULL)) == SPMV_ERR_LIMIT) continue;
                CHECK(st == SPMV_OK, "[%s] symmetric with repeats: %s build", STR(TT_TAG), spmv_format_name((spmv_format)f));
                if (st != SPMV_OK) continue;
                st = TN(any_update_values)(&M, &W2);
                y[0] = y[1] = y[2] = -1;
                if (st == SPMV_OK) st = TN(any_mv)(&M, 1, x, 0, y);
                CHECK(st == SPMV_OK && y[0] == 350 && y[1] == 7030 && y[2] == 700,
                      "[%s] symmetric with repeats: %s%s updated: %s, y = %g %g %g (350 7030 700)", STR(TT_TAG),
                      spmv_format_name((spmv_format)f), tr ? " from A^T" : "", spmv_status_str(st), (double)y[0],
                      (double)y[1], (double)y[2]);
                TN(any_free)(&M);
            }
    }
    if (TT_IDX_REAL) th_real_matrices(TF(_real), NULL, 200000);
}

#undef TN
#undef TF
#undef TOL
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
#undef TT_IDX_REAL
