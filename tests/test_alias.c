/* x aliasing y (issue 14, defect 8): every host format's _mv (and any_mv) must refuse
 * overlapping x and y with SPMV_ERR_ARG instead of returning SPMV_OK with a wrong y, and must
 * accept x and y that merely sit next to each other in one array. Every host format, every
 * supported ISA, tags s and d.
 * The per-type body: tests/test_alias_case.h. */
#include "harness.h"
#include "spmv.h"
#include "harness.h"

/* families with a documented size cap (SPMV_ERR_LIMIT); the band matrix fits them all */
static int capped(spmv_format f) {
    return !strcmp(spmv_format_family(f), "ell") || !strcmp(spmv_format_family(f), "dia");
}

#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#include "test_alias_case.h"
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#include "test_alias_case.h"

int main(void) {
    static const char *specs[] = {"random:rows=300,cols=300,nnzr=6,seed=7", "band:n=64,bw=2", "stencil2d:n=12",
                                  "random:rows=200,cols=90,nnzr=4,seed=2", "random:rows=90,cols=200,nnzr=4,seed=3"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen(specs[i], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[i], e.msg);
            continue;
        }
        test_d_alias(&t, specs[i]);
        test_s_alias(&t, specs[i]);
        spmv_triplets_free(&t);
    }
    /* the typed _mv functions themselves (not only through any_mv) */
    {
        spmv_triplets t;
        spmv_d_csr A;
        spmv_d_coo C;
        double v[64];
        int k;
        for (k = 0; k < 64; k++) v[k] = 1;
        if (spmv_gen("band:n=16,bw=1", &t, NULL) == SPMV_OK && spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK &&
            spmv_d_coo_from_csr(&C, &A, NULL, NULL) == SPMV_OK) {
            CHECK(spmv_d_csr_mv(&A, 1, v, 0, v) == SPMV_ERR_ARG, "csr_mv(v, v)");
            {
                spmv_d_csr M;
                if (spmv_d_csr_merge_from_csr(&M, &A, NULL, NULL) == SPMV_OK) {
                    CHECK(spmv_d_csr_mv(&M, 1, v, 0, v + 8) == SPMV_ERR_ARG, "csr_mv (merge) overlapping");
                    spmv_d_csr_free(&M);
                } else {
                    CHECK(0, "csr_merge_from_csr");
                }
            }
            CHECK(spmv_d_coo_mv(&C, 1, v + 15, 0, v) == SPMV_ERR_ARG, "coo_mv overlapping by one");
            CHECK(spmv_d_coo_mv(&C, 1, v + 16, 0, v) == SPMV_OK, "coo_mv adjacent");
            spmv_d_coo_free(&C);
            spmv_d_csr_free(&A);
        } else {
            CHECK(0, "band:n=16 set-up");
        }
        spmv_triplets_free(&t);
    }
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_alias");
}
