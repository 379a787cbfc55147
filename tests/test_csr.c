/* CSR family (csr, csr_merge): the split stored in the object at conversion (part_nt, part[])
 * against the thread count of each call. Converted at 2 threads, called at 1, 2, 3 and 5 (the
 * stored split is used only at 2; every other count searches); a struct copy (same arrays: the
 * split still applies) and a copy whose arrays were replaced by another matrix's (the split
 * must not be used); the serial path below SPMV_CSR_PAR_MIN (lowered here so that the
 * matrices are small) and above it; rows of every length around SPMV_CSR_TINY, SPMV_CSR_LONG
 * and SPMV_CSR_SHORT; every row sum (rows_kind plain, split, gather) on every matrix, and
 * dot=gather reaching the plan; every product at five (alpha, beta) pairs. Against the long-double
 * reference, tags s, d and dl. */
#define SPMV_CSR_PAR_MIN 2000
#include "harness.h"
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include "harness.h"
#include <omp.h>

#define TC(TAG, T)                                                                                                     \
    /* every product at five (alpha, beta): y = A*x; a negative alpha into y holding NaN (beta = 0 must \
       not read it); alpha = 0 (y = beta*y); beta = 1; both negative */                                            \
    static int TAG##_ok(const spmv_##TAG##_csr *A, const spmv_##TAG##_csr *R, const T *x, T *y, double tol) {         \
        static const double ab[5][2] = {{1, 0}, {-0.75, 0}, {0, 1.5}, {1.5, 1}, {-2, -0.5}};                           \
        long double *ref = malloc(sizeof(long double) * (size_t)(R->nrows + 1));                                     \
        long double *sc = malloc(sizeof(long double) * (size_t)(R->nrows + 1));                                      \
        T *y0 = malloc(sizeof(T) * (size_t)(R->nrows + 1));                                                            \
        int64_t i;                                                                                                     \
        int ok = 1, k;                                                                                                 \
        for (i = 0; i < R->nrows; i++) y0[i] = (T)(0.5 + (double)(i % 5));                                             \
        for (k = 0; k < 5; k++) {                                                                                      \
            const T al = (T)ab[k][0], be = (T)ab[k][1];                                                                \
            for (i = 0; i < R->nrows; i++) y[i] = be == 0 ? (T)NAN : y0[i];                                            \
            spmv_##TAG##_csr_mv_ref(R, al, x, be, y0, ref, sc);                                                        \
            ok &= spmv_##TAG##_csr_mv(A, al, x, be, y) == SPMV_OK && spmv_##TAG##_max_rel_err(R->nrows, y, ref, sc) <= tol; \
        }                                                                                                              \
        free(ref);                                                                                                     \
        free(sc);                                                                                                      \
        free(y0);                                                                                                      \
        return ok;                                                                                                     \
    }                                                                                                                  \
    static void TAG##_run(const char *name, const spmv_triplets *t) {                                                  \
        const double tol = sizeof(T) == 8 ? 1e-12 : 1e-5;                                                              \
        int algo, nt, rk;                                                                                              \
        for (algo = 0; algo < 2; algo++) {                                                                             \
            spmv_csr_params p = spmv_csr_params_default();                                                             \
            spmv_##TAG##_csr A, B, C;                                                                                  \
            T *x, *y;                                                                                                  \
            int64_t i;                                                                                                 \
            p.algo = algo ? SPMV_CSR_MERGE : SPMV_CSR_ROWS;                                                           \
            omp_set_num_threads(2);                                                                                    \
            if (spmv_##TAG##_csr_from_triplets(&A, t, &p, NULL) != SPMV_OK) {                                               \
                CHECK(0, "%s %s: convert", #TAG, name);                                                                \
                continue;                                                                                              \
            }                                                                                                          \
            CHECK(A.part_nt == ((int64_t)A.nnz + A.nrows >= SPMV_CSR_PAR_MIN ? 2 : 0), "%s %s: split stored for %d",  \
                  #TAG, name, A.part_nt);                                                                              \
            { /* the plan's row sum, from the row lengths (SPMV_CSR_LONG, SPMV_CSR_LONG_SHARE) */                   \
                int64_t lng = 0, fl = 0, r, m;                                                                         \
                for (r = 0; r < A.nrows; r++) {                                                                        \
                    if ((m = A.row_ptr[r + 1] - A.row_ptr[r]) >= SPMV_CSR_LONG) lng += m;                              \
                    if (r > 0 && (m >= SPMV_CSR_LONG) != (A.row_ptr[r] - A.row_ptr[r - 1] >= SPMV_CSR_LONG)) fl++;     \
                }                                                                                                      \
                if (A.nrows > 0 && A.row_ptr[1] >= SPMV_CSR_LONG) fl++; /* the first row against none */              \
                rk = lng > 0 && lng * SPMV_CSR_LONG_SHARE >= A.nnz &&                                                  \
                             !(fl * SPMV_CSR_FLIPS > A.nrows && A.ncols * (int64_t)sizeof(T) > SPMV_CSR_FLIPS_X)       \
                         ? SPMV_CSR_RK_SPLIT                                                                           \
                         : SPMV_CSR_RK_PLAIN;                                                                          \
                CHECK(A.rows_kind == rk, "%s %s: rows_kind %d, want %d", #TAG, name, A.rows_kind, rk);                 \
            }                                                                                                          \
            x = malloc(sizeof(T) * (size_t)(A.ncols + 1));                                                             \
            y = malloc(sizeof(T) * (size_t)(A.nrows + 1));                                                             \
            for (i = 0; i < A.ncols; i++) x[i] = (T)(1 + (i * 37) % 11) / 8;                                           \
            for (nt = 1; nt <= 5; nt++) {                                                                              \
                if (nt == 4) continue;                                                                                 \
                omp_set_num_threads(nt);                                                                               \
                CHECK(TAG##_ok(&A, &A, x, y, tol), "%s %s algo %d: %d threads", #TAG, name, algo, nt);                 \
            }                                                                                                          \
            omp_set_num_threads(2);                                                                                    \
            B = A; /* a copy: the same arrays, the split applies */                                                    \
            CHECK(TAG##_ok(&B, &A, x, y, tol), "%s %s algo %d: struct copy", #TAG, name, algo);                        \
            for (rk = 0; rk < 3; rk++) { /* every row sum: plain, split, gather */                                \
                B.rows_kind = rk;                                                                                      \
                CHECK(TAG##_ok(&B, &A, x, y, tol), "%s %s algo %d: rows_kind %d", #TAG, name, algo, rk);               \
            }                                                                                                          \
            B = A;                                                                                                     \
            B.params.dot = SPMV_CSR_DOT_GATHER; /* the parameter reaches the plan */                                   \
            spmv_##TAG##_csr__plan(&B);                                                                                \
            CHECK(B.rows_kind == SPMV_CSR_RK_GATHER, "%s %s: dot=gather planned %d", #TAG, name, B.rows_kind);         \
            /* a split found for other arrays (part_rp != row_ptr), here nonsense: must not be used */                 \
            if (spmv_##TAG##_csr_from_csr(&C, &A, &p, NULL) == SPMV_OK) {                                                    \
                spmv_##TAG##_csr D = C;                                                                                \
                for (i = 0; i <= SPMV_CSR_PARTS; i++) D.part[i] = 0;                              \
                D.part_nt = 2;                                                                                         \
                D.part_rp = A.row_ptr;                                                                                 \
                CHECK(TAG##_ok(&D, &C, x, y, tol), "%s %s algo %d: another matrix's split", #TAG, name, algo);         \
                spmv_##TAG##_csr_free(&C);                                                                             \
            } else {                                                                                                   \
                CHECK(0, "%s %s: copy", #TAG, name);                                                                   \
            }                                                                                                          \
            free(x);                                                                                                   \
            free(y);                                                                                                   \
            spmv_##TAG##_csr_free(&A);                                                                                 \
        }                                                                                                              \
    }
TC(s, float)
TC(d, double)
TC(dl, double)

static void all(const char *name, const spmv_triplets *t) {
    s_run(name, t);
    d_run(name, t);
    dl_run(name, t);
}
int main(void) {
    spmv_triplets t;
    int64_t len[80], k;
    th_make_random(&t, 300, 300, 900); /* below SPMV_CSR_PAR_MIN: serial */
    all("random 300^2 (serial)", &t);
    spmv_triplets_free(&t);
    th_make_random(&t, 3000, 2000, 30000);
    all("random 3000x2000", &t);
    spmv_triplets_free(&t);
    for (k = 0; k < 80; k++) len[k] = (k * 7) % 80; /* every length 0..79, shuffled */
    th_make_rows(&t, 80, 400, len);
    all("row lengths 0..79 (serial)", &t);
    spmv_triplets_free(&t);
    { /* the same lengths repeated until parallel */
        int64_t big[800];
        for (k = 0; k < 800; k++) big[k] = (k * 13) % 80;
        th_make_rows(&t, 800, 3000, big);
        all("row lengths 0..79 x10", &t);
        spmv_triplets_free(&t);
    }
    th_make_random(&t, 3000, 3000, 3000 * 20); /* about 20 a row: split */
    all("random 3000^2, 20 a row", &t);
    spmv_triplets_free(&t);
    { /* rows of 2 and 40 entries in turn: every row flips; x of 160 KB: plain, of 8 KB: split */
        static int64_t alt[2000];
        for (k = 0; k < 2000; k++) alt[k] = k % 2 ? 40 : 2;
        int nc;
        for (nc = 1000; nc <= 20000; nc += 19000) {
            spmv_d_csr A;
            th_make_rows(&t, 2000, nc, alt);
            all(nc > 1000 ? "rows of 2 and 40 in turn, 20000 columns" : "rows of 2 and 40 in turn, 1000 columns", &t);
            if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
                CHECK(A.rows_kind == (nc > 1000 ? SPMV_CSR_RK_PLAIN : SPMV_CSR_RK_SPLIT), "alternating rows, %d columns: rows_kind %d", nc, A.rows_kind);
                spmv_d_csr_free(&A);
            } else {
                CHECK(0, "alternating rows: convert");
            }
            spmv_triplets_free(&t);
        }
    }
    th_make_random(&t, 1, 50000, 20000); /* one long row: merge splits it */
    all("one row", &t);
    spmv_triplets_free(&t);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_csr");
}
