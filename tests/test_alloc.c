/* Allocation failure in the base converters (triplets, COO, CSR) and the generators: for
 * every k the k-th allocation fails; the status must be SPMV_ERR_ALLOC, the output empty,
 * nothing leaked (tests/harness.h's sweep; the ASan build also runs LeakSanitizer). Every
 * format's own converters: tests/test_format.c. */
/* SPMV_HUGE_MIN (default 64 MiB) lowered to 2 MiB so that small arrays take the huge path */
#define SPMV_HUGE_MIN ((size_t)2 << 20)
#ifdef TA_HUGE /* the default allocator's huge-page advice (build/tests/test_alloc_huge) */
#define TH_NO_ALLOC_HOOKS
#endif
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <stdint.h>

#ifdef TA_HUGE
/* Arrays of SPMV_HUGE_MIN bytes or more start on a 2 MiB boundary, and on Linux the whole
 * 2 MiB pieces inside them carry MADV_HUGEPAGE: the `hg` flag of their mapping in
 * /proc/self/smaps (a test may read it; the library never does). Whether the kernel then uses
 * huge pages is the system's setting, not checked. */
static int ta_flag_hg(uintptr_t a) {
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, hg = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) in = a >= lo && a < hi; /* a mapping's first line */
        else if (in && !strncmp(line, "VmFlags:", 8)) {
            hg = strstr(line, " hg") != NULL;
            break;
        }
    }
    fclose(f);
    return hg;
}
int main(void) {
    const size_t big = ((size_t)5 << 20) + 123, small = (size_t)1 << 20;
    unsigned char *p = (unsigned char *)spmv__alloc(big, 1), *q = (unsigned char *)spmv__alloc(small, 1);
    spmv_triplets t;
    spmv_d_csr A;
    spmv_error e;
    CHECK(p && q, "allocation of %zu and %zu bytes failed", big, small);
    if (!p || !q) return check_finish("test_alloc_huge");
    memset(p, 1, big);
    memset(q, 1, small);
    CHECK((uintptr_t)p % ((size_t)2 << 20) == 0, "a %zu-byte array at %p: not on a 2 MiB boundary", big, (void *)p);
    CHECK((uintptr_t)q % SPMV_ALIGN == 0, "a %zu-byte array at %p: not 64-byte aligned", small, (void *)q);
#if defined(__linux__) && defined(SPMV__MADV_HUGE)
    {
        int h0 = ta_flag_hg((uintptr_t)p), h1 = ta_flag_hg((uintptr_t)p + ((size_t)4 << 20) - 1),
            h2 = ta_flag_hg((uintptr_t)p + ((size_t)4 << 20));
        CHECK(h0 == 1 && h1 == 1, "the 2 MiB pieces of a 5 MiB array lack MADV_HUGEPAGE (smaps hg: %d %d)", h0, h1);
        CHECK(h2 == 0, "the partial last piece of a 5 MiB array carries MADV_HUGEPAGE (smaps hg: %d)", h2);
        CHECK(ta_flag_hg((uintptr_t)q) != 1, "a 1 MiB array carries MADV_HUGEPAGE");
    }
#else
    check_skip("huge-page advice: not Linux, or MADV_HUGEPAGE not visible in this build");
#endif
    spmv__free(p);
    spmv__free(q);
    /* a matrix whose arrays take the huge path still multiplies right (stencil, row sums known) */
    if (spmv_gen("stencil3d:n=48", &t, &e) == SPMV_OK && spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
        double *x = (double *)malloc(sizeof(double) * (size_t)A.ncols), *y = (double *)malloc(sizeof(double) * (size_t)A.nrows);
        long bad = 0;
        int64_t i;
        CHECK((uintptr_t)A.val % ((size_t)2 << 20) == 0 && (size_t)A.nnz * sizeof(double) >= SPMV_HUGE_MIN,
              "stencil3d:n=48's values (%lld entries) not on a 2 MiB boundary", (long long)A.nnz);
        for (i = 0; i < A.ncols; i++) x[i] = 1;
        spmv_d_csr_mv(&A, 1, x, 0, y);
        for (i = 0; i < A.nrows; i++) {
            long double s = 0;
            int64_t k;
            for (k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) s += (long double)A.val[k];
            if (fabsl(s - (long double)y[i]) > 1e-12L * (1 + fabsl(s))) bad++;
        }
        CHECK(bad == 0, "stencil3d:n=48: %ld rows differ from their row sums", bad);
        free(x);
        free(y);
        spmv_d_csr_free(&A);
        spmv_triplets_free(&t);
    } else
        CHECK(0, "stencil3d:n=48: %s", e.msg);
    return check_finish("test_alloc_huge");
}
#else

static spmv_triplets g_trip;
static spmv_d_csr g_csr;
static spmv_d_coo g_coo_unsorted;

static spmv_status c_coo_trip(void *o, const void *i) { (void)i; return spmv_d_coo_from_triplets((spmv_d_coo *)o, &g_trip, NULL, NULL); }
static spmv_status c_csr_trip(void *o, const void *i) { (void)i; return spmv_d_csr_from_triplets((spmv_d_csr *)o, &g_trip, NULL, NULL); }
static spmv_status c_coo_csr(void *o, const void *i) { (void)i; return spmv_d_coo_from_csr((spmv_d_coo *)o, &g_csr, NULL, NULL); }
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
    if (spmv_d_csr_from_triplets(&g_csr, &g_trip, NULL, NULL) != SPMV_OK) return 1;
    if (spmv_d_coo_from_csr(&g_coo_unsorted, &g_csr, NULL, NULL) != SPMV_OK) return 1;
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
    /* arrays past SPMV_HUGE_MIN (asked for with 2 MiB alignment) */
    spmv_triplets_free(&g_trip);
    if (spmv_gen("stencil3d:n=48", &g_trip, &e) != SPMV_OK) return 1;
    th_alloc_sweep("csr_from_triplets (arrays of 2 MiB and more)", c_csr_trip, NULL, &csr, sizeof csr, rel_csr);
    spmv_d_coo_free(&g_coo_unsorted);
    spmv_d_csr_free(&g_csr);
    spmv_triplets_free(&g_trip);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_alloc");
}
#endif
