/* sss's own tests (the generic ones run in test_format_sss on symmetrised inputs):
 *  - the reader keeps one triangle (SPMV_MM_ONE_TRIANGLE): every symmetric real matrix is read
 *    without expansion (as many entries as its file, none above the diagonal), built with
 *    sss_from_triangle into the same arrays as sss_from_csr of the expanded read, and its
 *    product matches the long-double reference of the expanded matrix; general and
 *    skew-symmetric files are read as spmv_mm_read reads them;
 *  - csr_is_symmetric on unsorted rows, repeats, NaN pairs, signed zeros, explicit zeros,
 *    rectangles; sss_from_triangle with entries of both triangles and repeats; bad input;
 *  - the product: the same bits on every call for a thread count, for any thread count at
 *    the call (the split found at conversion or per call), and inside a parallel region the
 *    single-threaded bits; allocation failure of the converters and of the product's buffers. */
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <unistd.h>

static char tmpdir[] = "/tmp/spmv-test-sss-XXXXXX";

static const char *put(const char *name, const char *text, char *buf, size_t n) {
    return th_put_file(tmpdir, name, text, buf, n);
}

/* y = alpha*A*x + beta*y0 in long double, A in triplets holding every entry */
static double ref_err(const spmv_triplets *t, const double *x, const double *y, double alpha) {
    long double *r = (long double *)calloc((size_t)t->nrows + 1, sizeof(long double));
    long double *s = (long double *)calloc((size_t)t->nrows + 1, sizeof(long double));
    double worst = 0;
    int64_t k;
    if (!r || !s) abort();
    for (k = 0; k < t->nnz; k++) {
        const long double p = (long double)t->val[k] * x[t->col[k]];
        r[t->row[k]] += p;
        s[t->row[k]] += p < 0 ? -p : p;
    }
    for (k = 0; k < t->nrows; k++) {
        const long double want = alpha * r[k], lim = fabsl((long double)alpha) * s[k] + 1e-300L;
        const double e = (double)(fabsl((long double)y[k] - want) / lim);
        if (isnan(y[k]) != isnan((double)want)) worst = INFINITY;
        else if (e > worst) worst = e;
    }
    free(r);
    free(s);
    return worst;
}

/* one symmetric real matrix: one triangle vs the expanded read */
static void real_one(const char *name, const spmv_triplets *full, void *ctx) {
    char path[4096];
    const char *dir = getenv("SPMV_MATRICES");
    spmv_triplets t;
    spmv_error e;
    spmv_dl_csr A;
    spmv_dl_sss S, F;
    int tri = -1;
    int64_t k, above = 0, diag = 0;
    (void)ctx;
    snprintf(path, sizeof path, "%.3000s/%.600s.mtx.gz", dir ? dir : "../shared/matrices", name);
    if (spmv_mm_read_opts(path, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) != SPMV_OK) {
        CHECK(0, "%s: read one triangle: %s", name, e.msg);
        return;
    }
    if (!tri) { /* general (or skew-symmetric): the expanded read itself */
        int same = t.nnz == full->nnz && !memcmp(t.row, full->row, sizeof(int64_t) * (size_t)t.nnz) &&
                   !memcmp(t.col, full->col, sizeof(int64_t) * (size_t)t.nnz);
        CHECK(same, "%s: a file that is not symmetric read differently with SPMV_MM_ONE_TRIANGLE", name);
        spmv_triplets_free(&t);
        return;
    }
    for (k = 0; k < t.nnz; k++) {
        above += t.col[k] > t.row[k];
        diag += t.col[k] == t.row[k];
    }
    CHECK(above == 0 && full->nnz == 2 * t.nnz - diag, "%s: one triangle: %lld entries (%lld above the diagonal), "
          "the expanded read %lld", name, (long long)t.nnz, (long long)above, (long long)full->nnz);
    if (spmv_dl_sss_from_triangle(&S, &t, NULL, NULL) != SPMV_OK || spmv_dl_csr_from_triplets(&A, full, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: sss from one triangle / csr", name);
        spmv_triplets_free(&t);
        return;
    }
    if (spmv_dl_sss_from_csr(&F, &A, NULL, NULL) == SPMV_OK) { /* the same layout either way */
        CHECK(F.stored == S.stored && F.nnz == S.nnz && !memcmp(F.row_ptr, S.row_ptr, sizeof(int64_t) * (size_t)(S.nrows + 1)) &&
              !memcmp(F.col, S.col, sizeof(int64_t) * (size_t)S.stored) && !memcmp(F.val, S.val, sizeof(double) * (size_t)S.stored),
              "%s: sss_from_triangle and sss_from_csr differ", name);
        CHECK(2 * (int64_t)S.stored == (int64_t)A.nnz + diag &&
                  spmv_dl_sss_bytes(&S) == (size_t)(A.nrows + 1) * 8 + (size_t)S.stored * 16,
              "%s: sss holds %lld entries in %zu bytes for %lld (%lld diagonal)", name, (long long)S.stored,
              spmv_dl_sss_bytes(&S), (long long)A.nnz, (long long)diag);
        spmv_dl_sss_free(&F);
    } else {
        CHECK(0, "%s: sss from the expanded csr refused", name);
    }
    {
        double *x = (double *)malloc(sizeof(double) * (size_t)(A.ncols + 1)), *y = (double *)malloc(sizeof(double) * (size_t)(A.nrows + 1));
        double err;
        if (!x || !y) abort();
        for (k = 0; k < A.ncols; k++) x[k] = 1.0 - (double)(k % 17) / 8;
        for (k = 0; k < A.nrows; k++) y[k] = NAN; /* beta 0: not read */
        CHECK(spmv_dl_sss_mv(&S, -1.5, x, 0, y) == SPMV_OK, "%s: product", name);
        err = ref_err(full, x, y, -1.5);
        CHECK(err <= 1e-12, "%s: sss from one triangle: error %.3g", name, err);
        free(x);
        free(y);
    }
    spmv_dl_sss_free(&S);
    spmv_dl_csr_free(&A);
    spmv_triplets_free(&t);
}

static void reader_files(void) {
    char buf[4200];
    const char *p;
    spmv_triplets t;
    spmv_error e;
    int tri = -1;
    memset(&t, 0, sizeof t);
    /* symmetric: 3 stored entries (one diagonal), general, skew */
    p = put("s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n2 1 -1\n3 2 2.5\n", buf, sizeof buf);
    CHECK(p && spmv_mm_read_opts(p, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK && tri == 1 && t.nnz == 3,
          "symmetric file, one triangle: tri %d nnz %lld", tri, (long long)t.nnz);
    if (p && tri == 1) {
        spmv_dl_sss S;
        double x[3] = {1, 2, 3}, y[3];
        CHECK(spmv_dl_sss_from_triangle(&S, &t, NULL, NULL) == SPMV_OK && S.nnz == 5 && S.stored == 3,
              "sss from a 3-entry triangle");
        spmv_dl_sss_mv(&S, 1, x, 0, y);
        CHECK(y[0] == 4 - 2 && y[1] == -1 + 7.5 && y[2] == 5, "sss product from the file: %g %g %g", y[0], y[1], y[2]);
        spmv_dl_sss_free(&S);
    }
    spmv_triplets_free(&t);
    CHECK(p && spmv_mm_read_opts(p, &t, 0, &tri, &e) == SPMV_OK && tri == 0 && t.nnz == 5, "symmetric file, no flag");
    spmv_triplets_free(&t);
    p = put("k.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 -1\n3 2 2.5\n", buf, sizeof buf);
    CHECK(p && spmv_mm_read_opts(p, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK && tri == 0 && t.nnz == 4,
          "skew-symmetric file: expanded (sss cannot hold it)");
    spmv_triplets_free(&t);
    p = put("g.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 3 1\n2 1 2\n", buf, sizeof buf);
    CHECK(p && spmv_mm_read_opts(p, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK && tri == 0 && t.nnz == 2,
          "general file: as stored");
    if (p) {
        spmv_dl_any M;
        spmv_opts o = th_opts(SPMV_FMT_SSS, SPMV_ISA_AUTO, NULL);
        CHECK(spmv_dl_any_from_triangle(&M, &t, &o, &e) == SPMV_ERR_ARG && th_all_zero(&M, sizeof M),
              "any_from_triangle of a 2 x 3: refused");
        o.format = SPMV_FMT_CSR;
        CHECK(spmv_dl_any_from_triangle(&M, &t, &o, &e) == SPMV_ERR_ARG && strstr(e.msg, "triangle"),
              "any_from_triangle with csr: '%s'", e.msg);
    }
    spmv_triplets_free(&t);
    /* a full, non-symmetric square matrix given as a triangle: refused (it was mirrored into
       another matrix: y = 1100 11 where A gives 500 6); one upper triangle alone is accepted */
    p = put("f.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 100\n1 2 4\n2 1 1\n", buf, sizeof buf);
    if (p && spmv_mm_read_opts(p, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK) {
        spmv_dl_any M;
        spmv_opts o = th_opts(SPMV_FMT_SSS, SPMV_ISA_AUTO, NULL);
        CHECK(spmv_dl_any_from_triangle(&M, &t, &o, &e) == SPMV_ERR_ARG && strstr(e.msg, "both sides") &&
                  th_all_zero(&M, sizeof M),
              "any_from_triangle of a full non-symmetric matrix: refused ('%s')", e.msg);
        spmv_triplets_free(&t);
    } else CHECK(0, "f.mtx");
    p = put("u.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 100\n1 2 4\n", buf, sizeof buf);
    if (p && spmv_mm_read_opts(p, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_OK) {
        spmv_dl_any M;
        spmv_opts o = th_opts(SPMV_FMT_SSS, SPMV_ISA_AUTO, NULL);
        double x[2] = {5, 1}, y[2] = {0, 0};
        CHECK(spmv_dl_any_from_triangle(&M, &t, &o, &e) == SPMV_OK && spmv_dl_any_mv(&M, 1, x, 0, y) == SPMV_OK &&
                  y[0] == 504 && y[1] == 20,
              "any_from_triangle of an upper triangle: y = %g %g (504 20) %s", y[0], y[1], e.msg);
        spmv_dl_any_free(&M);
        spmv_triplets_free(&t);
    } else CHECK(0, "u.mtx");
    CHECK(spmv_mm_read_opts(NULL, &t, SPMV_MM_ONE_TRIANGLE, &tri, &e) == SPMV_ERR_ARG && tri == 0, "NULL path");
    {
        static const char *const names[] = {"s.mtx", "k.mtx", "g.mtx", "f.mtx", "u.mtx"};
        int i;
        for (i = 0; i < 5; i++) {
            snprintf(buf, sizeof buf, "%s/%s", tmpdir, names[i]);
            remove(buf);
        }
        CHECK(rmdir(tmpdir) == 0, "temporary folder %s left behind", tmpdir);
    }
}

/* csr_is_symmetric and the converters on small hand-made matrices */
static int sym_of(int64_t n, const int64_t *rp, const int64_t *ci, const double *v) {
    spmv_dl_csr W;
    int r;
    if (spmv_dl_csr_wrap(&W, n, n, rp, ci, v, NULL, NULL) != SPMV_OK) return -99;
    r = spmv_dl_csr_is_symmetric(&W);
    spmv_dl_csr_free(&W);
    return r;
}
static void small_cases(void) {
    static const int64_t rp[4] = {0, 2, 4, 5}, ci[5] = {1, 0, 2, 0, 1}, ci_u[5] = {0, 1, 0, 2, 1};
    double v[5] = {2, 7, 3, 2, 3}, vz[5] = {2, 7, 3, 2, 3};
    /* rows: 0: (0,1)=2 (0,0)=7; 1: (1,2)=3 (1,0)=2; 2: (2,1)=3 */
    CHECK(sym_of(3, rp, ci, v) == 1, "unsorted symmetric rows: %d", sym_of(3, rp, ci, v));
    v[4] = 3.5;
    CHECK(sym_of(3, rp, ci, v) == 0, "a value differing from its mirror");
    v[4] = NAN, v[2] = NAN;
    CHECK(sym_of(3, rp, ci, v) == 1, "NaN pairs count as symmetric");
    vz[0] = -0.0, vz[3] = 0.0;
    CHECK(sym_of(3, rp, ci, vz) == 1, "-0 and +0 mirrors");
    CHECK(sym_of(3, rp, ci_u, v) == 0, "(0,1) = 7 against (1,0) = NaN: %d", sym_of(3, rp, ci_u, v));
    { /* repeats: (1,0) given as 1.5 + 0.5 */
        static const int64_t rp2[3] = {0, 1, 3}, ci2[3] = {1, 0, 0};
        double v2[3] = {2, 1.5, 0.5};
        CHECK(sym_of(2, rp2, ci2, v2) == 1, "repeats summed before the check");
        v2[2] = 0.25;
        CHECK(sym_of(2, rp2, ci2, v2) == 0, "repeats summing to another value");
    }
    { /* an explicit zero mirrored by nothing: not symmetric (the patterns differ) */
        static const int64_t rp3[3] = {0, 1, 1}, ci3[1] = {1};
        double v3[1] = {0};
        CHECK(sym_of(2, rp3, ci3, v3) == 0, "explicit zero without its mirror");
    }
    { /* rectangular, malformed */
        spmv_dl_csr W;
        static const int64_t rp4[3] = {0, 1, 1}, ci4[1] = {2};
        double v4[1] = {1};
        spmv_dl_csr_wrap(&W, 2, 3, rp4, ci4, v4, NULL, NULL);
        CHECK(spmv_dl_csr_is_symmetric(&W) == 0, "2 x 3");
        spmv_dl_csr_free(&W);
        memset(&W, 0, sizeof W);
        W.nrows = -1;
        CHECK(spmv_dl_csr_is_symmetric(&W) < 0 && spmv_dl_csr_is_symmetric(NULL) < 0, "malformed: negative status");
    }
    { /* sss_from_triangle: a repeat; entries of both triangles (a full matrix); bad input */
        spmv_triplets t;
        spmv_dl_sss S;
        spmv_error e;
        double x[3] = {1, -1, 2}, y[3];
        spmv_triplets_alloc(&t, 3, 3, 4);
        t.row[0] = 2, t.col[0] = 0, t.val[0] = 1;   /* stands for (0,2) too */
        t.row[1] = 2, t.col[1] = 0, t.val[1] = 0.5; /* a repeat: summed, 1.5 */
        t.row[2] = 1, t.col[2] = 1, t.val[2] = 4;
        t.row[3] = 2, t.col[3] = 1, t.val[3] = -2;
        CHECK(spmv_dl_sss_from_triangle(&S, &t, NULL, NULL) == SPMV_OK && S.stored == 3 && S.nnz == 5, "a repeat");
        spmv_dl_sss_mv(&S, 1, x, 0, y);
        CHECK(y[0] == 3 && y[1] == -4 + -4 && y[2] == 1.5 + 2, "product with a repeat: %g %g %g", y[0], y[1], y[2]);
        spmv_dl_sss_free(&S);
        t.row[0] = 0, t.col[0] = 2; /* now (0,2) and (2,0): both sides of the diagonal */
        CHECK(spmv_dl_sss_from_triangle(&S, &t, NULL, &e) == SPMV_ERR_ARG && strstr(e.msg, "both sides") &&
                  th_all_zero(&S, sizeof S),
              "both triangles: refused ('%s')", e.msg);
        t.row[0] = 2, t.col[0] = 0;
        t.col[3] = 3;
        CHECK(spmv_dl_sss_from_triangle(&S, &t, NULL, NULL) == SPMV_ERR_ARG && th_all_zero(&S, sizeof S), "index out of range");
        t.ncols = 4;
        CHECK(spmv_dl_sss_from_triangle(&S, &t, NULL, NULL) == SPMV_ERR_ARG, "3 x 4");
        CHECK(spmv_dl_sss_from_triangle(&S, NULL, NULL, NULL) == SPMV_ERR_ARG && spmv_dl_sss_from_triangle(NULL, &t, NULL, NULL) == SPMV_ERR_ARG,
              "NULLs");
        spmv_triplets_free(&t);
    }
}

/* the product's bits: fixed per thread count, any count at the call, one thread inside a
 * parallel region; the buffers' allocation failing (one part, still right) */
static spmv_dl_csr g_A;
static spmv_status conv_tri(void *o, const void *in) { return spmv_dl_sss_from_triangle((spmv_dl_sss *)o, (const spmv_triplets *)in, NULL, NULL); }
static spmv_status conv_csr(void *o, const void *in) { return spmv_dl_sss_from_csr((spmv_dl_sss *)o, (const spmv_dl_csr *)in, NULL, NULL); }
static void rel(void *o) { spmv_dl_sss_free((spmv_dl_sss *)o); }
static void threads_and_failures(void) {
    spmv_triplets t, l;
    spmv_error e;
    spmv_dl_sss S;
    double *x, *y1, *y2, *y3;
    int64_t k, n;
    int th;
    if (spmv_gen("fem:n=12000,bs=3,deg=9,dim=3,sym=1", &t, &e) != SPMV_OK || spmv_dl_csr_from_triplets(&g_A, &t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "symmetric fem: %s", e.msg);
        return;
    }
    n = g_A.nrows;
    x = (double *)malloc(sizeof(double) * (size_t)n), y1 = (double *)malloc(sizeof(double) * (size_t)n);
    y2 = (double *)malloc(sizeof(double) * (size_t)n), y3 = (double *)malloc(sizeof(double) * (size_t)n);
    if (!x || !y1 || !y2 || !y3) abort();
    for (k = 0; k < n; k++) x[k] = 0.5 - (double)(k % 11) / 10;
    set_threads(2);
    CHECK(spmv_dl_sss_from_csr(&S, &g_A, NULL, NULL) == SPMV_OK && S.part_nt == 2, "built on 2 threads: split stored (%d)", S.part_nt);
    for (th = 1; th <= 4; th++) {
        double err;
        set_threads(th);
        spmv_dl_sss_mv(&S, 1, x, 0, y1);
        spmv_dl_sss_mv(&S, 1, x, 0, y2);
        CHECK(!memcmp(y1, y2, sizeof(double) * (size_t)n), "%d threads: the same bits twice", th);
        err = ref_err(&t, x, y1, 1);
        CHECK(err <= 1e-12, "%d threads: error %.3g", th, err);
        if (th == 1) memcpy(y3, y1, sizeof(double) * (size_t)n);
    }
    set_threads(2);
    { /* inside a parallel region: the single-threaded bits */
        int bad = 0;
#pragma omp parallel num_threads(2) reduction(| : bad)
        {
            double *y = (double *)malloc(sizeof(double) * (size_t)n);
            bad |= !y || spmv_dl_sss_mv(&S, 1, x, 0, y) != SPMV_OK || memcmp(y, y3, sizeof(double) * (size_t)n);
            free(y);
        }
        CHECK(!bad, "inside a parallel region: the single-threaded product");
    }
    { /* the product's buffers cannot be had: one part (the single-threaded bits), still SPMV_OK */
        th_alloc_count = 0;
        th_alloc_fail_at = 1;
        CHECK(spmv_dl_sss_mv(&S, 1, x, 0, y1) == SPMV_OK && !memcmp(y1, y3, sizeof(double) * (size_t)n),
              "allocation failure in the product: one thread, right");
        th_alloc_fail_at = -1;
    }
    spmv_dl_sss_free(&S);
    /* allocation failure at every allocation of both converters */
    th_alloc_sweep("sss_from_csr", conv_csr, &g_A, &S, sizeof S, rel);
    spmv_triplets_alloc(&l, t.nrows, t.ncols, t.nnz);
    for (k = 0, l.nnz = 0; k < t.nnz; k++)
        if (t.col[k] <= t.row[k]) l.row[l.nnz] = t.row[k], l.col[l.nnz] = t.col[k], l.val[l.nnz++] = t.val[k];
    th_alloc_sweep("sss_from_triangle", conv_tri, &l, &S, sizeof S, rel);
    spmv_triplets_free(&l);
    spmv_dl_csr_free(&g_A);
    spmv_triplets_free(&t);
    free(x), free(y1), free(y2), free(y3);
}

int main(void) {
    printf("test_sss: threads %d\n", spmv_max_threads());
    small_cases();
    if (mkdtemp(tmpdir)) reader_files();
    else CHECK(0, "mkdtemp %s", tmpdir);
    threads_and_failures();
    th_real_matrices(real_one, NULL, 1000000);
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_sss");
}
