/* The one test harness: every test program includes it twice, before and after the
 * library header.
 *
 *   #define SPMV_TAG dl ...            // optional user instantiation
 *   #include "harness.h"               // phase 1: checks, counting allocator
 *   #include "spmv.h"                  // (or spmv_cuda.cuh)
 *   #include "harness.h"               // phase 2: matrices, real-matrix iterator, sweeps
 *
 * Phase 1 (no library needed): CHECK(cond, fmt, ...) counts one test; check_skip() a
 * skipped one (never a pass); check_finish() prints "RESULT name passed=N failed=N
 * skipped=N", which tests/run.sh adds up. The counting allocator (th_alloc_*) becomes
 * SPMV_ALIGNED_ALLOC / SPMV_FREE unless the program defined them or TH_NO_ALLOC_HOOKS.
 * A program built against a flavour's implementation unit (tests/impl.c: TH_LINKED and
 * SPMV_DECLARATIONS_ONLY, build.ninja) shares that unit's counting allocator (tests/th_alloc.h).
 * Phase 2: splitmix random numbers, random/row-length matrices, the INDEX.tsv iterator
 * (SPMV_MATRICES, SPMV_TEST_MAX_NNZ cap, complex files must be refused), and the
 * allocation-failure sweep. */
#ifndef TH_PHASE1
#define TH_PHASE1
/* -O0 sanitizer builds (their compile time is a fifth of -O1's): the portable SIMD set's
 * functions at -O2 all the same (still instrumented), or their struct copies dominate the
 * run (formats/simd/simd.h, SPMV_GENERIC_ATTR) */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__) && defined(__SANITIZE_ADDRESS__) && \
    !defined(SPMV_GENERIC_ATTR)
#define SPMV_GENERIC_ATTR __attribute__((optimize("O2")))
#endif
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

static int check_passed_, check_failed_, check_skipped_;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline void check_report_(int ok, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    if (ok) {
        check_passed_++;
        return;
    }
    check_failed_++;
    va_start(ap, fmt);
    fprintf(stdout, "FAIL %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}
/* CHECK(cond, printf-format, args...): one test; prints the message on failure. */
#define CHECK(cond, ...) check_report_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* a skipped test, with the reason printed (never counted as passed) */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static inline void check_skip(const char *fmt, ...) {
    va_list ap;
    check_skipped_++;
    va_start(ap, fmt);
    fputs("SKIP: ", stdout);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

static inline int check_finish(const char *name) {
    printf("RESULT %s passed=%d failed=%d skipped=%d\n", name, check_passed_, check_failed_, check_skipped_);
    return check_failed_ ? 1 : 0;
}

/* text written to a new file dir/name (the path into buf, n bytes); NULL when it cannot be made */
static inline const char *th_put_file(const char *dir, const char *name, const char *text, char *buf, size_t n) {
    FILE *f;
    snprintf(buf, n, "%s/%s", dir, name);
    f = fopen(buf, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return buf;
}
/* Does `nvidia-smi -L` (on PATH) list a GPU? A CUDA test that finds no device where the
 * system lists one must fail (a driver/runtime mismatch, a container without the device),
 * not skip: a run that did no GPU work cannot pass. */
static inline int th_gpu_listed(void) {
#if defined(__unix__)
    char line[256];
    int n = 0;
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!p) return 0;
    while (fgets(line, sizeof line, p))
        if (!strncmp(line, "GPU ", 4)) n++;
    pclose(p);
    return n;
#else
    return 0;
#endif
}

#include "th_alloc.h"

#endif /* phase 1 */

#if defined(SPMV_MM_H) && !defined(TH_PHASE2)
#define TH_PHASE2

/* OpenMP threads of the next parallel regions (nothing without OpenMP) */
static inline void set_threads(int n) {
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

#ifdef SPMV_ANY_COMMON
/* the builders' options for one format, ISA and parameter string (may be NULL) */
static inline spmv_opts th_opts(spmv_format f, spmv_isa isa, const char *params) {
    spmv_opts o = spmv_opts_default();
    o.format = f;
    o.isa = isa;
    o.params = params;
    return o;
}
#endif

/* ---- random matrices (splitmix64: the same sequence on every machine) ---- */
static uint64_t th_rng_state = 12345;
static inline uint64_t th_rnd(void) {
    uint64_t z = (th_rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* uniform in [-1, 1) */
static inline double th_rval(void) { return (double)(th_rnd() >> 11) / 9007199254740992.0 * 2 - 1; }

/* nnz entries at random positions (duplicates possible), values in [-1, 1) */
static inline void th_make_random(spmv_triplets *t, int64_t nr, int64_t nc, int64_t nnz) {
    int64_t k;
    if (spmv_triplets_alloc(t, nr, nc, nnz) != SPMV_OK) abort();
    for (k = 0; k < nnz; k++) {
        t->row[k] = (int64_t)(th_rnd() % (uint64_t)nr);
        t->col[k] = (int64_t)(th_rnd() % (uint64_t)nc);
        t->val[k] = th_rval();
    }
}
/* row r gets len[r] entries (len[r] <= nc): a run of distinct columns at a random start */
static inline void th_make_rows(spmv_triplets *t, int64_t nr, int64_t nc, const int64_t *len) {
    int64_t r, k, nnz = 0, p = 0;
    for (r = 0; r < nr; r++) nnz += len[r];
    if (spmv_triplets_alloc(t, nr, nc, nnz) != SPMV_OK) abort();
    for (r = 0; r < nr; r++) {
        int64_t c0 = len[r] < nc ? (int64_t)(th_rnd() % (uint64_t)(nc - len[r] + 1)) : 0;
        for (k = 0; k < len[r]; k++) {
            t->row[p] = r;
            t->col[p] = c0 + k;
            t->val[p] = th_rval();
            p++;
        }
    }
}
/* row r gets len(r) entries spread evenly over the columns (a random offset) */
static inline void th_make_rows_fn(spmv_triplets *t, int64_t nr, int64_t nc, int64_t (*len)(int64_t)) {
    int64_t r, k, total = 0, p = 0;
    int64_t *n = (int64_t *)malloc(((size_t)nr + 1) * sizeof(int64_t));
    if (!n) abort();
    for (r = 0; r < nr; r++) total += n[r] = len(r);
    if (spmv_triplets_alloc(t, nr, nc, total) != SPMV_OK) abort();
    for (r = 0; r < nr; r++) {
        int64_t step = n[r] > 0 ? nc / n[r] : 1, off = (int64_t)(th_rnd() % (uint64_t)step);
        for (k = 0; k < n[r]; k++) {
            t->row[p] = r;
            t->col[p] = off + k * step;
            t->val[p] = th_rval();
            p++;
        }
    }
    free(n);
}

/* ---- the real matrices: fn(name, triplets, ctx) for each in $SPMV_MATRICES/INDEX.tsv
 * (default ../shared/matrices) with at most cap expanded nonzeros (SPMV_TEST_MAX_NNZ
 * overrides cap; -1 = none). Complex matrices must be refused by the reader (a check).
 * SPMV_TEST_ONLY=substring keeps the matching names. Returns how many ran; a missing
 * folder is one skip with a notice. ---- */
typedef void (*th_matrix_fn)(const char *name, const spmv_triplets *t, void *ctx);
/* cplx: 0 the real, integer and pattern files (each complex one checked to be refused without
 * SPMV_MM_COMPLEX), 1 the complex files only, read with SPMV_MM_COMPLEX (th_complex_matrices) */
static inline int th_matrices_(th_matrix_fn fn, void *ctx, long long cap, int cplx);
static inline int th_real_matrices(th_matrix_fn fn, void *ctx, long long cap) { return th_matrices_(fn, ctx, cap, 0); }
static inline int th_complex_matrices(th_matrix_fn fn, void *ctx, long long cap) { return th_matrices_(fn, ctx, cap, 1); }
static inline int th_matrices_(th_matrix_fn fn, void *ctx, long long cap, int cplx) {
    const char *dir = getenv("SPMV_MATRICES");
    const char *maxs = getenv("SPMV_TEST_MAX_NNZ"), *only = getenv("SPMV_TEST_ONLY");
    long long maxnnz = maxs ? atoll(maxs) : cap;
    char path[4096], line[8192];
    FILE *idx;
    int count = 0, over = 0;
    if (!dir) dir = "../shared/matrices";
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    idx = fopen(path, "r");
    if (!idx) {
        check_skip("real matrices: %s not found (set SPMV_MATRICES); real-matrix tests not run", path);
        return 0;
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
            if (col == 0) snprintf(name, sizeof name, "%.511s", tok);
            if (col == 8) snprintf(field, sizeof field, "%.63s", tok);
            if (col == 11) nnzx = atoll(tok);
            col++;
            if (!tab) break;
            tok = tab + 1;
        }
        if (!name[0]) continue;
        if (only && *only && !strstr(name, only)) continue;
        if (cplx && strcmp(field, "complex")) continue;
        if (maxnnz >= 0 && nnzx > maxnnz) {
            over++;
            continue;
        }
        snprintf(path, sizeof path, "%.3000s/%.600s.mtx.gz", dir, name);
        st = cplx ? spmv_mm_read_opts(path, &t, SPMV_MM_COMPLEX, NULL, &e) : spmv_mm_read(path, &t, &e);
        if (!cplx && !strcmp(field, "complex")) {
            CHECK(st == SPMV_ERR_UNSUPPORTED, "%s: complex matrix should be unsupported, got %s", name,
                  spmv_status_str(st));
            if (st == SPMV_OK) spmv_triplets_free(&t);
            continue;
        }
        CHECK(st == SPMV_OK, "%s: read: %s (line %ld: %s)", name, spmv_status_str(st), e.line, e.msg);
        if (st != SPMV_OK) continue;
        fn(name, &t, ctx);
        spmv_triplets_free(&t);
        count++;
    }
    fclose(idx);
    printf("%s matrices: %d run\n", cplx ? "complex" : "real", count);
    if (over)
        check_skip("real matrices: %d with more than %lld nonzeros not run in this build (SPMV_TEST_MAX_NNZ)", over,
                   maxnnz);
    return count;
}

/* ---- allocation failure: conv(out, in) with the k-th allocation failing, k = 1, 2, ...
 * until it succeeds; each failure must give SPMV_ERR_ALLOC, leak nothing and leave *out
 * all zero. release(out) frees a success. ---- */
typedef spmv_status (*th_conv_fn)(void *out, const void *in);
static inline int th_all_zero(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        if (c[i]) return 0;
    return 1;
}
static inline void th_alloc_sweep(const char *name, th_conv_fn conv, const void *in, void *out, size_t outsize,
                           void (*release)(void *)) {
    long k, base = th_alloc_live;
    int ok = 0;
    for (k = 1; k < 1000; k++) {
        spmv_status st;
        memset(out, 0xAB, outsize);
        th_alloc_count = 0;
        th_alloc_fail_at = k;
        st = conv(out, in);
        th_alloc_fail_at = -1;
        if (st == SPMV_OK) {
            ok = 1;
            release(out);
            CHECK(th_alloc_live == base, "%s: leak after success (%ld live)", name, th_alloc_live - base);
            break;
        }
        CHECK(st == SPMV_ERR_ALLOC, "%s: failing allocation %ld gave %s", name, k, spmv_status_str(st));
        CHECK(th_alloc_live == base, "%s: failing allocation %ld leaked %ld blocks", name, k, th_alloc_live - base);
        CHECK(th_all_zero(out, outsize), "%s: failing allocation %ld left the output non-empty", name, k);
    }
    CHECK(ok, "%s: never succeeded", name);
}
#endif /* phase 2 */
