/* Allocation failure in the base converters (triplets, COO, CSR) and the generators: for
 * every k the k-th allocation fails; the status must be SPMV_ERR_ALLOC, the output empty,
 * nothing leaked (tests/harness.h's sweep; the ASan build also runs LeakSanitizer). Every
 * format's own converters: tests/test_format.c. */
#include "harness.h"
#include "spmv.h"
#include "harness.h"

static spmv_triplets g_trip;
static spmv_d_csr g_csr;
static spmv_d_coo g_coo_unsorted;

static spmv_status c_coo_trip(void *o, const void *i) { (void)i; return spmv_d_coo_from_triplets((spmv_d_coo *)o, &g_trip, NULL); }
static spmv_status c_csr_trip(void *o, const void *i) { (void)i; return spmv_d_csr_from_triplets((spmv_d_csr *)o, &g_trip, NULL); }
static spmv_status c_coo_csr(void *o, const void *i) { (void)i; return spmv_d_coo_from_csr((spmv_d_coo *)o, &g_csr, NULL); }
static spmv_status c_csr_coo(void *o, const void *i) { (void)i; return spmv_d_csr_from_coo((spmv_d_csr *)o, &g_coo_unsorted, NULL); }
static spmv_status c_gen(void *o, const void *i) { spmv_error e; return spmv_gen((const char *)i, (spmv_triplets *)o, &e); }

static void rel_coo(void *o) { spmv_d_coo_free((spmv_d_coo *)o); }
static void rel_csr(void *o) { spmv_d_csr_free((spmv_d_csr *)o); }
static void rel_trip(void *o) { spmv_triplets_free((spmv_triplets *)o); }

int main(void) {
    spmv_error e;
    spmv_d_coo coo;
    spmv_d_csr csr;
    spmv_triplets t;
    int64_t k;
    if (spmv_gen("random:rows=300,cols=200,nnzr=5,seed=3", &g_trip, &e) != SPMV_OK) return 1;
    if (spmv_d_csr_from_triplets(&g_csr, &g_trip, NULL) != SPMV_OK) return 1;
    if (spmv_d_coo_from_csr(&g_coo_unsorted, &g_csr, NULL) != SPMV_OK) return 1;
    for (k = 0; k + 1 < g_coo_unsorted.nnz; k += 2) { /* make it unsorted */
        int32_t r = g_coo_unsorted.row[k], c = g_coo_unsorted.col[k];
        double v = g_coo_unsorted.val[k];
        g_coo_unsorted.row[k] = g_coo_unsorted.row[k + 1]; g_coo_unsorted.col[k] = g_coo_unsorted.col[k + 1];
        g_coo_unsorted.val[k] = g_coo_unsorted.val[k + 1];
        g_coo_unsorted.row[k + 1] = r; g_coo_unsorted.col[k + 1] = c; g_coo_unsorted.val[k + 1] = v;
    }
    th_alloc_sweep("coo_from_triplets", c_coo_trip, NULL, &coo, sizeof coo, rel_coo);
    th_alloc_sweep("csr_from_triplets", c_csr_trip, NULL, &csr, sizeof csr, rel_csr);
    th_alloc_sweep("coo_from_csr", c_coo_csr, NULL, &coo, sizeof coo, rel_coo);
    th_alloc_sweep("csr_from_coo (unsorted)", c_csr_coo, NULL, &csr, sizeof csr, rel_csr);
    /* every format's converter: tests/test_format.c (per family) */
    th_alloc_sweep("gen rmat", c_gen, "rmat:scale=8,ef=4", &t, sizeof t, rel_trip);
    th_alloc_sweep("gen fem", c_gen, "fem:n=50,bs=2", &t, sizeof t, rel_trip);
    spmv_d_coo_free(&g_coo_unsorted);
    spmv_d_csr_free(&g_csr);
    spmv_triplets_free(&g_trip);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_alloc");
}
