/* Every format x type (s, d, and a user-instantiated dl = double/int64) x ISA
 * (generic, AVX2, AVX-512 native or emulated) against a long-double reference, on
 * generated edge cases, generator presets and the real matrices in ../shared/matrices. */
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include "check.h"
#include <stdio.h>

#define STR_(x) #x
#define STR(x) STR_(x)

#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#include "formats_case.h"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#include "formats_case.h"
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#include "formats_case.h"

static void run_all(const char *name, const spmv_triplets *t, int special) {
    test_s_run(name, t, special);
    test_d_run(name, t, special);
    test_dl_run(name, t, special);
}

static uint64_t rng_state = 12345;
static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double rval(void) { return (double)(rnd() >> 11) / 9007199254740992.0 * 2 - 1; }

/* builds triplets from a callback-free description: n entries with random positions */
static void make_random(spmv_triplets *t, int64_t nr, int64_t nc, int64_t nnz) {
    int64_t k;
    if (spmv_triplets_alloc(t, nr, nc, nnz) != SPMV_OK) abort();
    for (k = 0; k < nnz; k++) {
        t->row[k] = (int64_t)(rnd() % (uint64_t)nr);
        t->col[k] = (int64_t)(rnd() % (uint64_t)nc);
        t->val[k] = rval();
    }
}

static void edge_cases(void) {
    spmv_triplets t;
    int64_t k, n;
    /* empty shapes */
    spmv_triplets_alloc(&t, 0, 0, 0); run_all("0x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 0, 7, 0); run_all("0x7", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 7, 0, 0); run_all("7x0", &t, 0); spmv_triplets_free(&t);
    spmv_triplets_alloc(&t, 50, 50, 0); run_all("50x50 no entries", &t, 0); spmv_triplets_free(&t);
    /* 1x1 */
    spmv_triplets_alloc(&t, 1, 1, 1); t.row[0] = t.col[0] = 0; t.val[0] = 3; run_all("1x1", &t, 0); spmv_triplets_free(&t);
    /* empty rows between full ones */
    spmv_triplets_alloc(&t, 1000, 1000, 3000);
    for (k = 0; k < 3000; k++) { t.row[k] = (k % 300) * 3; t.col[k] = (int64_t)(rnd() % 1000); t.val[k] = rval(); }
    run_all("empty rows", &t, 0); spmv_triplets_free(&t);
    /* one dense row among short ones */
    n = 3000;
    spmv_triplets_alloc(&t, n, n, 2 * n);
    for (k = 0; k < n; k++) { t.row[k] = 17; t.col[k] = k; t.val[k] = rval(); }
    for (k = 0; k < n; k++) { t.row[n + k] = k; t.col[n + k] = k; t.val[n + k] = 1; }
    run_all("one dense row", &t, 0); spmv_triplets_free(&t);
    /* one huge row only: merge path must split it over threads */
    make_random(&t, 1, 300000, 400000);
    for (k = 0; k < t.nnz; k++) t.row[k] = 0;
    run_all("one huge row", &t, 0); spmv_triplets_free(&t);
    /* tall and wide */
    make_random(&t, 5000, 3, 9000); run_all("tall 5000x3", &t, 0); spmv_triplets_free(&t);
    make_random(&t, 3, 5000, 9000); run_all("wide 3x5000", &t, 0); spmv_triplets_free(&t);
    /* duplicates and unsorted input */
    spmv_triplets_alloc(&t, 10, 10, 40);
    for (k = 0; k < 40; k++) { t.row[k] = 9 - (k % 10); t.col[k] = (k * 3) % 4; t.val[k] = (double)k; }
    run_all("duplicates unsorted", &t, 0); spmv_triplets_free(&t);
    /* explicit zeros */
    make_random(&t, 300, 300, 2000);
    for (k = 0; k < t.nnz; k += 3) t.val[k] = 0;
    run_all("explicit zeros", &t, 0); spmv_triplets_free(&t);
    /* NaN / Inf in A; NaN / Inf in x */
    make_random(&t, 400, 400, 4000);
    t.val[5] = NAN; t.val[77] = INFINITY; t.val[1000] = -INFINITY;
    run_all("NaN/Inf in A", &t, 0); spmv_triplets_free(&t);
    make_random(&t, 400, 400, 4000); run_all("NaN/Inf in x", &t, 1); spmv_triplets_free(&t);
    /* random shapes, row lengths around every vector width */
    for (k = 0; k < 12; k++) {
        char name[64];
        int64_t r = 1 + (int64_t)(rnd() % 900), c = 1 + (int64_t)(rnd() % 900);
        int64_t z = (int64_t)(rnd() % (uint64_t)(r * 40));
        make_random(&t, r, c, z);
        snprintf(name, sizeof name, "random %lldx%lld nnz %lld", (long long)r, (long long)c, (long long)z);
        run_all(name, &t, 0);
        spmv_triplets_free(&t);
    }
    /* all row lengths 0..70 */
    {
        int64_t len, p = 0;
        spmv_triplets_alloc(&t, 71, 200, 71 * 35);
        for (len = 0; len < 71; len++)
            for (k = 0; k < len; k++) { t.row[p] = len; t.col[p] = (len * 13 + k * 7) % 200; t.val[p] = rval(); p++; }
        t.nnz = p;
        run_all("row lengths 0..70", &t, 0);
        spmv_triplets_free(&t);
    }
    /* a large enough matrix that the kernels run multi-threaded */
    make_random(&t, 20000, 20000, 300000); run_all("random 20000^2 (parallel)", &t, 0); spmv_triplets_free(&t);
}

static void generated(void) {
    static const char *specs[] = {"stencil2d:n=60", "stencil3d:n=14,pts=27", "stencil3d:n=20,pts=7",
                                  "fem:n=400,bs=3", "band:n=3000,bw=4", "random:rows=2000,cols=1500,nnzr=9",
                                  "rmat:scale=12,ef=8", "circuit:n=6000", "lp:rows=300,cols=4000",
                                  "dense:rows=80,cols=90", "onerow:n=5000,len=5000"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        spmv_status st = spmv_gen(specs[i], &t, &e);
        CHECK(st == SPMV_OK, "gen %s: %s %s", specs[i], spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        run_all(specs[i], &t, 0);
        spmv_triplets_free(&t);
    }
}

static void real_matrices(void) {
    const char *dir = getenv("SPMV_MATRICES");
    const char *maxs = getenv("SPMV_TEST_MAX_NNZ");
    long long maxnnz = maxs ? atoll(maxs) : -1;
    char path[4096], line[8192];
    FILE *idx;
    int count = 0, over = 0;
    if (!dir) dir = "../shared/matrices";
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    idx = fopen(path, "r");
    if (!idx) {
        check_skip("real matrices: %s not found (set SPMV_MATRICES); real-matrix tests not run", path);
        return;
    }
    if (!fgets(line, sizeof line, idx)) line[0] = 0; /* header */
    while (fgets(line, sizeof line, idx)) {
        char name[512], field[64];
        long long nnzx = 0;
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        int col = 0;
        char *tok = line, *tab;
        name[0] = field[0] = 0;
        for (;;) { /* columns: name ... field(8) ... nnz_expanded(11) */
            tab = strchr(tok, '\t');
            if (tab) *tab = 0;
            if (col == 0) snprintf(name, sizeof name, "%s", tok);
            if (col == 8) snprintf(field, sizeof field, "%s", tok);
            if (col == 11) nnzx = atoll(tok);
            col++;
            if (!tab) break;
            tok = tab + 1;
        }
        if (!name[0]) continue;
        if (maxnnz >= 0 && nnzx > maxnnz) { over++; continue; }
        snprintf(path, sizeof path, "%s/%s.mtx.gz", dir, name);
        st = spmv_mm_read(path, &t, &e);
        if (!strcmp(field, "complex")) {
            CHECK(st == SPMV_ERR_UNSUPPORTED, "%s: complex matrix should be unsupported, got %s", name, spmv_status_str(st));
            continue;
        }
        CHECK(st == SPMV_OK, "%s: read: %s (line %ld: %s)", name, spmv_status_str(st), e.line, e.msg);
        if (st != SPMV_OK) continue;
        run_all(name, &t, 0);
        spmv_triplets_free(&t);
        count++;
    }
    fclose(idx);
    printf("real matrices: %d run\n", count);
    if (over) check_skip("real matrices: %d with more than %lld nonzeros not run in this build (SPMV_TEST_MAX_NNZ)", over, maxnnz);
}

int main(void) {
    int i;
    printf("test_formats: ISAs:");
    for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
        if (spmv_isa_supported((spmv_isa)i)) printf(" %s", spmv_isa_name((spmv_isa)i));
    printf("; threads %d\n", spmv_max_threads());
    if (!spmv_isa_supported(SPMV_ISA_AVX512)) check_skip("avx512: CPU lacks AVX-512F (the emulated build covers it)");
    if (!spmv_isa_supported(SPMV_ISA_AVX2)) check_skip("avx2: CPU lacks AVX2/FMA");
    edge_cases();
    generated();
    real_matrices();
    return check_finish("test_formats");
}
