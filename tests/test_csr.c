/* CSR family (csr, csr_merge): the split stored in the object at conversion (part_nt, part[])
 * against the thread count of each call. Converted at 2 threads, called at 1, 2, 3 and 5 (the
 * stored split is used only at 2; every other count searches); a struct copy (same arrays: the
 * split still applies) and a copy whose arrays were replaced by another matrix's (the split
 * must not be used); the serial path below SPMV_CSR_PAR_MIN (lowered here so that the
 * matrices are small) and above it; rows of every length around SPMV_CSR_TINY, SPMV_CSR_LONG
 * and SPMV_CSR_SHORT; every row sum (rows_kind plain, split, gather) on every matrix, and
 * dot=gather reaching the plan; every product at five (alpha, beta) pairs. Against the long-double
 * reference, tags s, d and dl.
 * The per-type body: tests/test_csr_case.h. */
#define SPMV_CSR_PAR_MIN 2000
#include "test_preamble.h"
#include <omp.h>

#define TT_CASE "test_csr_case.h"
#include "tt_tags.h"

static void all(const char *name, const spmv_triplets *t) {
    test_s_run(name, t);
    test_d_run(name, t);
    test_dl_run(name, t);
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
