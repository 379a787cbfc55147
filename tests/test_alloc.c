/* Allocation failure: for every k, make the k-th allocation of a conversion fail and
 * check the status is SPMV_ERR_ALLOC, the output is left empty and nothing leaks
 * (live-allocation count back to zero; the ASan build also runs LeakSanitizer). */
#include <stdlib.h>
#include <stddef.h>
static long alloc_count, alloc_fail_at = -1, alloc_live;
static void *test_alloc(size_t align, size_t size) {
    void *p;
    if (++alloc_count == alloc_fail_at) return NULL;
    p = aligned_alloc(align, size);
    if (p) alloc_live++;
    return p;
}
static void test_free(void *p) {
    if (p) alloc_live--;
    free(p);
}
#define SPMV_ALIGNED_ALLOC(a, s) test_alloc((a), (s))
#define SPMV_FREE(p) test_free(p)
#include "spmv.h"
#include "check.h"

static int all_zero(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (c[i]) return 0;
    return 1;
}

typedef spmv_status (*conv_fn)(void *out, const void *in);
static spmv_triplets g_trip;
static spmv_d_csr g_csr;
static spmv_d_coo g_coo_unsorted;

static spmv_status c_coo_trip(void *o, const void *i) { (void)i; return spmv_d_coo_from_triplets((spmv_d_coo *)o, &g_trip, NULL); }
static spmv_status c_csr_trip(void *o, const void *i) { (void)i; return spmv_d_csr_from_triplets((spmv_d_csr *)o, &g_trip, NULL); }
static spmv_status c_coo_csr(void *o, const void *i) { (void)i; return spmv_d_coo_from_csr((spmv_d_coo *)o, &g_csr, NULL); }
static spmv_status c_csr_coo(void *o, const void *i) { (void)i; return spmv_d_csr_from_coo((spmv_d_csr *)o, &g_coo_unsorted, NULL); }
static spmv_status c_any(void *o, const void *i) {
    return spmv_d_any_from_csr((spmv_d_any *)o, &g_csr, *(const spmv_format *)i, SPMV_ISA_AUTO);
}
static spmv_status c_gen(void *o, const void *i) { spmv_error e; return spmv_gen((const char *)i, (spmv_triplets *)o, &e); }

/* Runs conv with the k-th allocation failing, k = 1, 2, ... until it succeeds. */
static void sweep(const char *name, conv_fn conv, const void *in, void *out, size_t outsize, void (*release)(void *)) {
    long k, base = alloc_live;
    int ok = 0;
    for (k = 1; k < 1000; k++) {
        spmv_status st;
        memset(out, 0xAB, outsize);
        alloc_count = 0;
        alloc_fail_at = k;
        st = conv(out, in);
        alloc_fail_at = -1;
        if (st == SPMV_OK) {
            ok = 1;
            release(out);
            CHECK(alloc_live == base, "%s: leak after success (%ld live)", name, alloc_live - base);
            break;
        }
        CHECK(st == SPMV_ERR_ALLOC, "%s: failing allocation %ld gave %s", name, k, spmv_status_str(st));
        CHECK(alloc_live == base, "%s: failing allocation %ld leaked %ld blocks", name, k, alloc_live - base);
        CHECK(all_zero(out, outsize), "%s: failing allocation %ld left the output non-empty", name, k);
    }
    CHECK(ok, "%s: never succeeded", name);
    printf("%s: %ld allocation points checked\n", name, k - 1);
}

static void rel_coo(void *o) { spmv_d_coo_free((spmv_d_coo *)o); }
static void rel_csr(void *o) { spmv_d_csr_free((spmv_d_csr *)o); }
static void rel_any(void *o) { spmv_d_any_free((spmv_d_any *)o); }
static void rel_trip(void *o) { spmv_triplets_free((spmv_triplets *)o); }

int main(void) {
    spmv_error e;
    spmv_d_coo coo;
    spmv_d_csr csr;
    spmv_d_any any;
    spmv_triplets t;
    int f;
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
    sweep("coo_from_triplets", c_coo_trip, NULL, &coo, sizeof coo, rel_coo);
    sweep("csr_from_triplets", c_csr_trip, NULL, &csr, sizeof csr, rel_csr);
    sweep("coo_from_csr", c_coo_csr, NULL, &coo, sizeof coo, rel_coo);
    sweep("csr_from_coo (unsorted)", c_csr_coo, NULL, &csr, sizeof csr, rel_csr);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        char name[64];
        spmv_format fmt = (spmv_format)f;
        snprintf(name, sizeof name, "any_from_csr %s", spmv_format_name(fmt));
        sweep(name, c_any, &fmt, &any, sizeof any, rel_any);
    }
    sweep("gen rmat", c_gen, "rmat:scale=8,ef=4", &t, sizeof t, rel_trip);
    sweep("gen fem", c_gen, "fem:n=50,bs=2", &t, sizeof t, rel_trip);
    spmv_d_coo_free(&g_coo_unsorted);
    spmv_d_csr_free(&g_csr);
    spmv_triplets_free(&g_trip);
    CHECK(alloc_live == 0, "allocations still live at exit: %ld", alloc_live);
    return check_finish("test_alloc");
}
