/* csrdu (formats/csrdu.h) against csr: the same bits in every product, for every ISA, threads
 * 1 to 3 and five (alpha, beta), tags s, d and dl, in each value mode (a table of distinct
 * values, one value, CSR's array; new values through the handle move between them, another
 * pattern is refused) (the generic checks against the long-double
 * reference run in test_format_csrdu). Inputs: every unit width at its boundaries (steps and
 * first columns of 255, 256, 65535, 65536 and beyond), unsorted rows (negative deltas)
 * and repeated columns (delta 0), first columns before the previous row's (by 1 to 65537: the
 * first delta subtracted), empty rows, one long row split at SPMV_CSR_LONG, rows split
 * across threads at every multiple of the checkpoint interval, x with NaN, Inf, -0.0 and a
 * denormal, values with -0.0 and denormals, presets, and the real matrices; columns near 2^31
 * (int32) and beyond 2^32 (int64) through the conversion and back (a product there would need an
 * x of 16 GiB or more). The stream's length equals the deltas' bytes.
 * The per-type body: tests/test_csrdu_case.h. */
#define SPMV_CSR_PAR_MIN 2000
#include "test_preamble.h"
#include <omp.h>

#define TT_CASE "test_csrdu_case.h"
#include "tt_tags.h"

static void all(const char *name, const spmv_triplets *t, int odd) {
    test_s_run(name, t, odd);
    test_d_run(name, t, odd);
    test_dl_run(name, t, odd);
}
static void real(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    all(name, t, 0);
}
/* one row per listed column set, cols columns */
static void rows_of(spmv_triplets *t, int64_t nr, int64_t nc, const int64_t *cols, const int64_t *start) {
    int64_t r, k, n = start[nr];
    spmv_triplets_alloc(t, nr, nc, n);
    for (r = 0; r < nr; r++)
        for (k = start[r]; k < start[r + 1]; k++) {
            t->row[k] = r;
            t->col[k] = cols[k];
            t->val[k] = k % 7 == 3 ? -0.0 : k % 7 == 5 ? 1e-310 : 1.0 + (double)(k % 11) / 3.0;
        }
}
/* the selection's rule (formats/csrdu.h) on features made by hand, and the features of two
 * presets: a stencil's columns are local (narrow units) and compress, a random graph's are not */
static void rule_cases(void) {
    spmv_auto_features F;
    spmv_opts o = spmv_opts_default();
    const char *why = NULL;
    spmv_triplets t;
    spmv_d_csr A;
    double p, mat;
    memset(&F, 0, sizeof F);
    F.nrows = F.ncols = 10000000, F.nnz = 270000000, F.value_bytes = 8, F.index_bytes = 4;
    mat = (double)F.nnz * 12 + (double)F.nrows * 4;
    F.csr_bytes = mat + (double)(F.nrows + F.ncols) * 8;
    F.llc_bytes = 32 << 20;
    F.du_bytes_ratio = 0.25, F.du_narrow = 1;
    p = spmv_rules_csrdu.host(&F, &o, &why);
    CHECK(p == SPMV_CSRDU_DECODE_CAP, "rule: a quarter of the bytes beyond the cache: the decode's cap (%g, %s)", p, why);
    F.du_bytes_ratio = 0.8;
    p = spmv_rules_csrdu.host(&F, &o, &why);
    CHECK(fabs(p - F.csr_bytes / (0.8 * mat + (double)(F.nrows + F.ncols) * 8)) < 1e-12 && p > 1 &&
              p < SPMV_CSRDU_DECODE_CAP,
          "rule: 0.8 of the bytes: csr's bytes over csrdu's (%g, %s)", p, why);
    F.du_narrow = 0.5;
    CHECK(spmv_rules_csrdu.host(&F, &o, &why) == 0, "rule: columns far apart: left out (%s)", why);
    F.du_narrow = 1, F.llc_bytes = 2 * F.csr_bytes;
    CHECK(spmv_rules_csrdu.host(&F, &o, &why) == 0, "rule: in cache: left out (%s)", why);
    F.llc_bytes = 32 << 20, o.mm_k = 4;
    CHECK(spmv_rules_csrdu.host(&F, &o, &why) == 0, "rule: SpMM: left out (%s)", why);
    o.mm_k = 1, o.deterministic = 1;
    CHECK(spmv_rules_csrdu.host(&F, &o, &why) == 0, "rule: the deterministic selection (no trials): left out (%s)", why);
    CHECK(spmv_rules_csrdu.dev(&F, &why) == 0, "rule: the device: left out until measured (%s)", why);
    if (spmv_gen("stencil3d:n=40,pts=27", &t, NULL) == SPMV_OK && spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
        int64_t k;
        int ok = spmv_d_auto_features(&A, &F) == SPMV_OK;
        const double table = F.du_bytes_ratio;
        CHECK(ok && F.du_bytes_ratio < 0.4 && F.du_narrow > 0.95,
              "features: a 27-point stencil compresses (its few values: a table; %.3f x csr, %.3f narrow)", F.du_bytes_ratio, F.du_narrow);
        for (k = 0; k < A.nnz; k++) A.val[k] = 1;
        ok = spmv_d_auto_features(&A, &F) == SPMV_OK;
        CHECK(ok && F.du_bytes_ratio < table - 0.05, "features: its pattern (one value) compresses further (%.3f x csr)",
              F.du_bytes_ratio);
        spmv_d_csr_free(&A);
        spmv_triplets_free(&t);
    }
    th_make_random(&t, 100000, 2000000, 800000); /* 8 random columns of 2M a row: gaps of ~250k */
    if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
        const int ok = spmv_d_auto_features(&A, &F) == SPMV_OK;
        CHECK(ok && F.du_narrow < 0.1, "features: random columns are far apart (%.3f narrow)", F.du_narrow);
        spmv_d_csr_free(&A);
    }
    spmv_triplets_free(&t);
}
int main(void) {
    spmv_triplets t;
    int64_t len[400], k;
    { /* delta widths at their boundaries: first columns and in-row steps of 253..65537 */
        static const int64_t steps[] = {0, 1, 255, 256, 257, 65535, 65536, 65537, 200000};
        int64_t cols[64], start[16], n = 0, r;
        for (r = 0; r < 9; r++) {
            start[r] = n;
            cols[n++] = steps[r];                        /* the row's first column */
            if (steps[r] + steps[r] < 400000) cols[n++] = steps[r] + steps[r]; /* a step of the same width */
            if (r % 3 == 0) cols[n++] = 400000;          /* a long step */
            if (r % 3 == 0) cols[n++] = 400000;          /* a repeat: delta 0 */
            if (r % 3 == 1) cols[n++] = steps[r] > 0 ? steps[r] - 1 : 0; /* backwards: negative */
        }
        start[9] = n;
        rows_of(&t, 9, 400001, cols, start);
        all("delta boundaries", &t, 1);
        spmv_triplets_free(&t);
    }
    { /* first columns going backwards by 1..65537 (narrow units, the delta subtracted), each row
         with a step of one byte and one of two */
        static const int64_t back[] = {0, 1, 255, 256, 65535, 65536, 65537, 2, 200000};
        int64_t cols[40], start[16], n = 0, r, c0 = 399000;
        for (r = 0; r < 9; r++) {
            start[r] = n;
            c0 -= back[r];
            cols[n++] = c0;
            cols[n++] = c0 + 7;
            if (r % 2) cols[n++] = c0 + 7 + 300;
        }
        start[9] = n;
        rows_of(&t, 9, 400001, cols, start);
        all("first columns backwards", &t, 1);
        spmv_triplets_free(&t);
    }
    th_make_random(&t, 300, 300, 900); /* serial */
    all("random 300^2", &t, 1);
    spmv_triplets_free(&t);
    th_make_random(&t, 5000, 70000, 60000); /* parallel, wide: 2- and 4-byte deltas */
    all("random 5000 x 70000", &t, 1);
    spmv_triplets_free(&t);
    for (k = 0; k < 400; k++) len[k] = k % 9 == 0 ? 0 : (k * 7) % 40; /* empty rows, lengths around 16 */
    th_make_rows(&t, 400, 3000, len);
    all("row lengths 0..39, empty rows", &t, 1);
    spmv_triplets_free(&t);
    {
        int64_t big[1000];
        for (k = 0; k < 1000; k++) big[k] = k == 500 ? 2900 : (k * 13) % 40;
        th_make_rows(&t, 1000, 3000, big); /* parallel: parts at multiples of SPMV_CSRDU_G */
        all("one long row among short ones", &t, 1);
        spmv_triplets_free(&t);
    }
    {
        static const char *const presets[] = {"stencil3d:n=20,pts=27", "fem:n=3000,bs=3", "rmat:scale=12,ef=8",
                                              "circuit:n=20000", "onerow:n=5000"};
        for (k = 0; k < 5; k++) {
            if (spmv_gen(presets[k], &t, NULL) != SPMV_OK) {
                CHECK(0, "gen %s", presets[k]);
                continue;
            }
            all(presets[k], &t, 0);
            spmv_triplets_free(&t);
        }
    }
    { /* the value modes: few distinct values (a stencil), one (a pattern), many (random) */
        if (spmv_gen("stencil3d:n=12,pts=27", &t, NULL) == SPMV_OK) {
            test_s_modes("stencil: a table", &t, SPMV_CSRDU_TABLE);
            test_d_modes("stencil: a table", &t, SPMV_CSRDU_TABLE);
            test_dl_modes("stencil: a table", &t, SPMV_CSRDU_TABLE);
            for (k = 0; k < t.nnz; k++) t.val[k] = 1;
            all("pattern", &t, 1);
            test_d_modes("pattern: one value", &t, SPMV_CSRDU_ONE);
            test_dl_modes("pattern: one value", &t, SPMV_CSRDU_ONE);
            spmv_triplets_free(&t);
        }
        th_make_random(&t, 2000, 2000, 20000);
        test_d_modes("random: plain", &t, SPMV_CSRDU_PLAIN);
        test_s_modes("random: plain", &t, SPMV_CSRDU_PLAIN);
        spmv_triplets_free(&t);
    }
    { /* columns near the index type's limit: 2^31 - 3 with int32 indices, beyond 2^32 with int64
         (unsorted rows: backward full-width deltas) */
        static const int64_t c32[] = {0, 5, 2147483644, 2147483645, 3, 2147483640, 7, 2147483645};
        static const int64_t s32[] = {0, 3, 5, 6, 8};
        static const int64_t c64[] = {0, 4294967301LL, 1099511627776LL, 9, 1099511627770LL, 2147483648LL, 17};
        static const int64_t s64[] = {0, 3, 5, 6, 7};
        test_d_far("columns near 2^31 (int32)", 4, 2147483646, c32, s32);
        test_s_far("columns near 2^31 (int32)", 4, 2147483646, c32, s32);
        test_dl_far("columns near 2^31 (int64)", 4, 2147483646, c32, s32);
        test_dl_far("columns beyond 2^32 (int64)", 4, 1099511627777LL, c64, s64);
    }
    rule_cases();
    th_real_matrices(real, NULL, 400000);
    return check_finish("test_csrdu");
}
