/* libFuzzer target for the Matrix Market reader (issue 14). Every input is written to a file
 * and read as a sparse matrix (spmv_mm_read) and as a dense vector (spmv_mm_read_dense).
 * A successful sparse parse is checked and then pushed through the rest of the library:
 *   - invariants: sizes >= 0, every index in range, nnz within what the bytes can hold
 *     (2 entries per 4 bytes at most), no NaN unless the input spells one ("nan");
 *   - statistics: the per-row-array and the sorting paths of spmv_triplets_stats agree;
 *   - write -> read round trip, bit-exact (NaN matched as NaN);
 *   - small enough matrices (dimensions <= 2048, nnz <= 8192): CSR, then every host format
 *     (`for (f = 0; f < SPMV_FMT_COUNT_; f++) if (spmv_format_flags(f) & SPMV_FF_HOST)`) with
 *     every supported ISA through spmv_d_any_from_csr (float: the automatic ISA), each
 *     multiplied and compared with the long-double reference when the values are moderate
 *     (1e-290 <= |a| <= 1e300 or 0: no overflow that long double would not see, no subnormal
 *     products, whose relative precision is below the 1e-12 tolerance).
 * Any violation aborts (a crash for libFuzzer); ASan/UBSan/LeakSanitizer catch the rest.
 * Built and run by tests/fuzz/run_fuzz.sh (clang -fsanitize=fuzzer,address,undefined).
 * SPMV_MM_MAX_LINE, the gzip input chunk and the write buffer are small here so that the
 * line-buffer refill, compaction, over-long-line and comment-skipping paths, the inflate
 * refills and the writer's flushes are reached with short inputs.
 * Speed: each input is multiplied with one ISA (generic, avx2 or avx512, picked by a hash of
 * the input, so every ISA sees a third of the inputs) and, for a quarter of them, in float. */
#ifndef SPMV_MM_MAX_LINE
#define SPMV_MM_MAX_LINE 300
#endif
#ifndef SPMV_MM_GZ_CHUNK
#define SPMV_MM_GZ_CHUNK 512
#endif
#ifndef SPMV_MM_WRITE_BUF
#define SPMV_MM_WRITE_BUF 2048
#endif
#include "spmv.h"
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

/* the builders' options for one format, ISA and parameter string (may be NULL) */
static spmv_opts fz_opts(spmv_format f, spmv_isa isa, const char *params) {
    spmv_opts o = spmv_opts_default();
    o.format = f;
    o.isa = isa;
    o.params = params;
    return o;
}

#define FZ_MAX_DIM (1 << 16)  /* the per-row statistics path */
#define FZ_MAX_PROD (1 << 11) /* products: dimensions and nnz (all formats x ISA cost O(rows) each) */

static char fz_dir[4096], fz_in[4200], fz_out[4200];

#define FZ_REQUIRE(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz_mm: invariant failed at line %d: %s: ", __LINE__, #cond);                            \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

static void fz_cleanup(void) { /* the scratch folder, at exit (a crash leaves it for inspection) */
    remove(fz_in);
    remove(fz_out);
    rmdir(fz_dir);
}

static void fz_setup(void) {
    const char *t = getenv("TMPDIR");
    if (fz_in[0]) return;
    snprintf(fz_dir, sizeof fz_dir, "%s/spmv_fuzz_XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(fz_dir)) {
        perror("mkdtemp");
        abort();
    }
    snprintf(fz_in, sizeof fz_in, "%s/in.mtx", fz_dir);
    snprintf(fz_out, sizeof fz_out, "%s/out.mtx", fz_dir);
    atexit(fz_cleanup);
}

static void fz_write_file(const char *path, const uint8_t *data, size_t size) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t done = 0;
    if (fd < 0) abort();
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) abort();
        done += (size_t)w;
    }
    close(fd);
}

/* Could the text hold "nan"? gzip input is not looked into (the check is for plain text). */
static int fz_mentions_nan(const uint8_t *d, size_t n) {
    size_t i;
    if (n >= 2 && d[0] == 0x1f && d[1] == 0x8b) return 1;
    for (i = 0; i + 2 < n; i++)
        if ((d[i] | 32) == 'n' && (d[i + 1] | 32) == 'a' && (d[i + 2] | 32) == 'n') return 1;
    return 0;
}

static int fz_same(double a, double b) {
    if (a != a) return b != b;
    return memcmp(&a, &b, sizeof a) == 0;
}

static void fz_products(const spmv_triplets *t, unsigned h) {
    spmv_d_csr A;
    spmv_status st;
    double *x, *y, *y0;
    long double *ref, *scale, *ref2, *scale2;
    int64_t i, k;
    int f, isa, moderate = 1;
    /* moderate: no overflow a long double would not see, and no subnormal products (their
       relative precision is below 1e-12); x is in [1, 2.5] */
    for (k = 0; k < t->nnz; k++)
        if (!(fabs(t->val[k]) <= 1e300 && (t->val[k] == 0.0 || fabs(t->val[k]) >= 1e-290))) moderate = 0;
    st = spmv_d_csr_from_triplets(&A, t, NULL, NULL);
    FZ_REQUIRE(st == SPMV_OK, "csr_from_triplets: %s", spmv_status_str(st));
    x = (double *)malloc(sizeof(double) * (size_t)(A.ncols + 1));
    y = (double *)malloc(sizeof(double) * (size_t)(A.nrows + 1));
    y0 = (double *)malloc(sizeof(double) * (size_t)(A.nrows + 1));
    ref = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    scale = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    ref2 = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    scale2 = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    if (!x || !y || !y0 || !ref || !scale || !ref2 || !scale2) abort();
    for (i = 0; i < A.ncols; i++) x[i] = 1.0 + (double)(i % 7) * 0.25;
    for (i = 0; i < A.nrows; i++) y0[i] = (double)(i % 5) - 2.0;
    spmv_d_csr_mv_ref(&A, 1.0, x, 0.0, NULL, ref, scale);
    spmv_d_csr_mv_ref(&A, 2.0, x, -0.5, y0, ref2, scale2);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            spmv_d_any M;
            double err;
            int pick = SPMV_ISA_GENERIC + (int)(h % 3u);
            if (!spmv_isa_supported((spmv_isa)pick)) pick = SPMV_ISA_GENERIC;
            if (isa != pick || !spmv_isa_supported((spmv_isa)isa)) continue;
            const spmv_opts o = fz_opts((spmv_format)f, (spmv_isa)isa, NULL);
            st = spmv_d_any_from_csr(&M, &A, &o, NULL);
            if (st == SPMV_ERR_LIMIT || st == SPMV_ERR_OVERFLOW) continue; /* a format's documented limits */
            if ((spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && spmv_d_csr_is_symmetric(&A) != 1) {
                FZ_REQUIRE(st == SPMV_ERR_ARG, "%s of a non-symmetric matrix: %s", spmv_format_name((spmv_format)f),
                           spmv_status_str(st));
                continue;
            }
            FZ_REQUIRE(st == SPMV_OK, "%s/%s from csr: %s", spmv_format_name((spmv_format)f),
                       spmv_isa_name((spmv_isa)isa), spmv_status_str(st));
            st = spmv_d_any_mv(&M, 1.0, x, 0.0, y);
            FZ_REQUIRE(st == SPMV_OK, "%s mv: %s", spmv_format_name((spmv_format)f), spmv_status_str(st));
            if (moderate) {
                err = spmv_d_max_rel_err(A.nrows, y, ref, scale);
                FZ_REQUIRE(err <= 1e-12, "%s/%s: y = A x off by %g", spmv_format_name((spmv_format)f),
                           spmv_isa_name((spmv_isa)isa), err);
            }
            memcpy(y, y0, sizeof(double) * (size_t)A.nrows);
            st = spmv_d_any_mv(&M, 2.0, x, -0.5, y);
            FZ_REQUIRE(st == SPMV_OK, "%s mv (beta): %s", spmv_format_name((spmv_format)f), spmv_status_str(st));
            if (moderate) {
                err = spmv_d_max_rel_err(A.nrows, y, ref2, scale2);
                FZ_REQUIRE(err <= 1e-12, "%s/%s: y = 2 A x - y/2 off by %g", spmv_format_name((spmv_format)f),
                           spmv_isa_name((spmv_isa)isa), err);
            }
            /* x and y overlapping must be refused (defect 8) */
            if (A.nrows > 0 && A.ncols > 0) {
                double *b = (double *)malloc(sizeof(double) * (size_t)(A.nrows + A.ncols));
                if (!b) abort();
                for (i = 0; i < A.nrows + A.ncols; i++) b[i] = 1;
                st = spmv_d_any_mv(&M, 1.0, b, 0.0, b);
                FZ_REQUIRE(st == SPMV_ERR_ARG, "%s: x == y accepted", spmv_format_name((spmv_format)f));
                free(b);
            }
            spmv_d_any_free(&M);
        }
    }
    free(x);
    free(y);
    free(y0);
    free(ref);
    free(scale);
    free(ref2);
    free(scale2);
    spmv_d_csr_free(&A);
    /* float: every host format with the automatic ISA, for a quarter of the inputs */
    if ((h >> 8) % 4u == 0) {
        spmv_s_csr B;
        float *xs, *ys;
        int big = 0; /* a finite value beyond float's range: refused (SPMV_ERR_OVERFLOW) */
        for (i = 0; i < t->nnz; i++) big |= isfinite(t->val[i]) && fabs(t->val[i]) > FLT_MAX;
        st = spmv_s_csr_from_triplets(&B, t, NULL, NULL);
        FZ_REQUIRE(big ? st == SPMV_ERR_OVERFLOW : st == SPMV_OK, "s csr_from_triplets: %s", spmv_status_str(st));
        if (big) return;
        xs = (float *)malloc(sizeof(float) * (size_t)(B.ncols + 1));
        ys = (float *)malloc(sizeof(float) * (size_t)(B.nrows + 1));
        if (!xs || !ys) abort();
        for (i = 0; i < B.ncols; i++) xs[i] = 1.0f;
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {
            spmv_s_any M;
            if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
            const spmv_opts o = fz_opts((spmv_format)f, SPMV_ISA_AUTO, NULL);
            st = spmv_s_any_from_csr(&M, &B, &o, NULL);
            if (st == SPMV_ERR_LIMIT || st == SPMV_ERR_OVERFLOW) continue;
            if (st == SPMV_ERR_ARG && (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) &&
                spmv_s_csr_is_symmetric(&B) != 1)
                continue; /* not symmetric in float */
            FZ_REQUIRE(st == SPMV_OK, "s %s from csr: %s", spmv_format_name((spmv_format)f), spmv_status_str(st));
            st = spmv_s_any_mv(&M, 1.0f, xs, 0.0f, ys);
            FZ_REQUIRE(st == SPMV_OK, "s %s mv: %s", spmv_format_name((spmv_format)f), spmv_status_str(st));
            spmv_s_any_free(&M);
        }
        free(xs);
        free(ys);
        spmv_s_csr_free(&B);
    }
}

static void fz_sparse(const uint8_t *data, size_t size) {
    spmv_triplets t, back;
    spmv_error e;
    spmv_stats s1, s2;
    spmv_status st;
    int64_t k;
    memset(&e, 0x5a, sizeof e);
    st = spmv_mm_read(fz_in, &t, &e);
    if (st != SPMV_OK) {
        FZ_REQUIRE(t.nrows == 0 && t.ncols == 0 && t.nnz == 0 && !t.row && !t.col && !t.val, "output not empty");
        FZ_REQUIRE(e.msg[0] != '\0' && memchr(e.msg, '\0', sizeof e.msg) != NULL && e.line >= 0, "no message");
        FZ_REQUIRE(st == SPMV_ERR_PARSE || st == SPMV_ERR_UNSUPPORTED || st == SPMV_ERR_OVERFLOW || st == SPMV_ERR_IO,
                   "unexpected status %s (%s)", spmv_status_str(st), e.msg);
        return;
    }
    FZ_REQUIRE(e.line == 0 && e.msg[0] == '\0', "err not cleared");
    FZ_REQUIRE(t.nrows >= 0 && t.ncols >= 0 && t.nnz >= 0, "negative sizes");
    {
        int gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
        int64_t text = gz ? (int64_t)size * 1032 + 4096 : (int64_t)size; /* deflate expands at most ~1032:1 */
        FZ_REQUIRE(t.nnz <= 2 * (text / 4 + 1), "nnz %lld from %zu bytes", (long long)t.nnz, size);
    }
    for (k = 0; k < t.nnz; k++) {
        FZ_REQUIRE(t.row[k] >= 0 && t.row[k] < t.nrows && t.col[k] >= 0 && t.col[k] < t.ncols, "index out of range");
        if (t.val[k] != t.val[k]) FZ_REQUIRE(fz_mentions_nan(data, size), "NaN from an input without \"nan\"");
    }
    /* statistics: both paths agree (the per-row one only for moderate dimensions) */
    st = spmv__triplets_stats(&t, &s2, 2);
    FZ_REQUIRE(st == SPMV_OK, "stats (sorting): %s", spmv_status_str(st));
    FZ_REQUIRE(s2.nnz == t.nnz && s2.empty_rows >= 0 && s2.empty_rows <= t.nrows && s2.row_max <= t.nnz, "stats values");
    if (t.nrows <= FZ_MAX_DIM && t.ncols <= FZ_MAX_DIM) {
        int b;
        st = spmv__triplets_stats(&t, &s1, 1);
        FZ_REQUIRE(st == SPMV_OK, "stats (rows): %s", spmv_status_str(st));
        FZ_REQUIRE(s1.row_min == s2.row_min && s1.row_max == s2.row_max && s1.empty_rows == s2.empty_rows &&
                       s1.ndiags == s2.ndiags && s1.bandwidth == s2.bandwidth && s1.lower_bw == s2.lower_bw &&
                       s1.upper_bw == s2.upper_bw && s1.best_bs == s2.best_bs,
                   "stats paths differ");
        for (b = 0; b < SPMV_STATS_NBS; b++) FZ_REQUIRE(s1.block_count[b] == s2.block_count[b], "block counts differ");
    }
    /* write -> read, bit-exact */
    st = spmv_mm_write(fz_out, &t, &e);
    FZ_REQUIRE(st == SPMV_OK, "write: %s (%s)", spmv_status_str(st), e.msg);
    st = spmv_mm_read(fz_out, &back, &e);
    FZ_REQUIRE(st == SPMV_OK, "read back: %s (%s)", spmv_status_str(st), e.msg);
    FZ_REQUIRE(back.nrows == t.nrows && back.ncols == t.ncols && back.nnz == t.nnz, "round trip shape");
    for (k = 0; k < t.nnz; k++)
        FZ_REQUIRE(back.row[k] == t.row[k] && back.col[k] == t.col[k] && fz_same(back.val[k], t.val[k]),
                   "round trip entry %lld: %.17g vs %.17g", (long long)k, t.val[k], back.val[k]);
    spmv_triplets_free(&back);
    if (t.nrows <= FZ_MAX_PROD && t.ncols <= FZ_MAX_PROD && t.nnz <= 4 * FZ_MAX_PROD) {
        unsigned h = 2166136261u; /* FNV-1a of the input: which ISA, whether float */
        size_t i;
        for (i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
        fz_products(&t, h);
    }
    spmv_triplets_free(&t);
}

static void fz_dense(const uint8_t *data, size_t size) {
    int64_t n = -1, k;
    double *v = NULL;
    spmv_error e;
    spmv_status st = spmv_mm_read_dense(fz_in, &n, &v, &e);
    if (st != SPMV_OK) {
        FZ_REQUIRE(n == 0 && v == NULL && e.msg[0] != '\0', "dense failure left output");
        return;
    }
    FZ_REQUIRE(n >= 0 && v != NULL && n <= (int64_t)size * 1032 + 4096, "dense size %lld", (long long)n);
    for (k = 0; k < n; k++)
        if (v[k] != v[k]) FZ_REQUIRE(fz_mentions_nan(data, size), "dense NaN from an input without \"nan\"");
    st = spmv_mm_write_dense(fz_out, n, v, &e);
    FZ_REQUIRE(st == SPMV_OK, "dense write: %s", e.msg);
    {
        int64_t m = -1;
        double *w = NULL;
        st = spmv_mm_read_dense(fz_out, &m, &w, &e);
        FZ_REQUIRE(st == SPMV_OK && m == n, "dense read back: %s", e.msg);
        for (k = 0; k < n; k++) FZ_REQUIRE(fz_same(v[k], w[k]), "dense round trip %lld", (long long)k);
        spmv__free(w);
    }
    spmv__free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_setup();
    fz_write_file(fz_in, data, size);
    fz_sparse(data, size);
    fz_dense(data, size);
    return 0;
}
