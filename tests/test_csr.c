/* CSR family (csr, csr_merge): the split stored in the object at conversion (part_nt, part[])
 * against the thread count of each call. Converted at 2 threads, called at 1, 2, 3 and 5 (the
 * stored split is used only at 2; every other count searches); a struct copy (same arrays: the
 * split still applies) and a copy whose arrays were replaced by another matrix's (the split
 * must not be used); the serial path below SPMV_CSR_PAR_MIN (lowered here so that the
 * matrices are small) and above it; rows of every length around SPMV_CSR_TINY and
 * SPMV_CSR_SHORT; both rows kernels (the ISA's and the portable one that short-row matrices get,
 * SPMV_CSR_SCALAR_MEAN) on every matrix. Against the long-double reference, tags s, d and dl. */
#define SPMV_CSR_PAR_MIN 2000
#include "harness.h"
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include "harness.h"
#include <omp.h>

#define TC(TAG, T)                                                                                                     \
    static int TAG##_ok(const spmv_##TAG##_csr *A, const spmv_##TAG##_csr *R, const T *x, T *y, double tol) {         \
        long double *ref = malloc(sizeof(long double) * (size_t)(R->nrows + 1));                                     \
        long double *sc = malloc(sizeof(long double) * (size_t)(R->nrows + 1));                                      \
        int64_t i;                                                                                                     \
        int ok;                                                                                                        \
        for (i = 0; i < R->nrows; i++) y[i] = (T)NAN;                                                                  \
        spmv_##TAG##_csr_mv_ref(R, 1, x, 0, NULL, ref, sc);                                                            \
        ok = spmv_##TAG##_csr_mv(A, 1, x, 0, y) == SPMV_OK && spmv_##TAG##_max_rel_err(R->nrows, y, ref, sc) <= tol;   \
        free(ref);                                                                                                     \
        free(sc);                                                                                                      \
        return ok;                                                                                                     \
    }                                                                                                                  \
    static void TAG##_run(const char *name, const spmv_triplets *t) {                                                  \
        const double tol = sizeof(T) == 8 ? 1e-12 : 1e-5;                                                              \
        int algo, nt;                                                                                                  \
        for (algo = 0; algo < 2; algo++) {                                                                             \
            spmv_csr_params p = spmv_csr_params_default();                                                             \
            spmv_##TAG##_csr A, B, C;                                                                                  \
            T *x, *y;                                                                                                  \
            int64_t i;                                                                                                 \
            p.algo = algo ? SPMV_CSR_MERGE : SPMV_CSR_ROWS;                                                           \
            omp_set_num_threads(2);                                                                                    \
            if (spmv_##TAG##_csr_from_triplets(&A, t, &p) != SPMV_OK) {                                               \
                CHECK(0, "%s %s: convert", #TAG, name);                                                                \
                continue;                                                                                              \
            }                                                                                                          \
            CHECK(A.part_nt == ((int64_t)A.nnz + A.nrows >= SPMV_CSR_PAR_MIN ? 2 : 0), "%s %s: split stored for %d",  \
                  #TAG, name, A.part_nt);                                                                              \
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
            B.scalar_rows = !A.scalar_rows; /* the other rows kernel (the ISA's or the portable one) */                 \
            CHECK(TAG##_ok(&B, &A, x, y, tol), "%s %s algo %d: scalar_rows %d", #TAG, name, algo, B.scalar_rows);      \
            /* a split found for other arrays (part_rp != row_ptr), here nonsense: must not be used */                 \
            if (spmv_##TAG##_csr_from_csr(&C, &A, &p) == SPMV_OK) {                                                    \
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
    th_make_random(&t, 1, 50000, 20000); /* one long row: merge splits it */
    all("one row", &t);
    spmv_triplets_free(&t);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_csr");
}
