/* Tests for formats/io/mm.h (Matrix Market I/O) and formats/io/gen.h (generators, stats).
 * Build: gcc -std=c11 -O1 -Wall -Wextra -DSPMV_HAVE_ZLIB -I. tests/test_mm.c -lz -lm
 * Optional: SPMV_MATRICES=<dir> (default ../shared/matrices) with INDEX.tsv and *.mtx.gz. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <stdlib.h>
#include <stddef.h>
/* allocation hooks: make the k-th allocation fail, count live blocks (harness.h), and record
 * the largest single request (tm_max_alloc: memory must follow the input, not the declared
 * sizes) */
#define SPMV_ALIGNED_ALLOC(a, s) tm_alloc((a), (s))
#define SPMV_FREE(p) th_free(p)
#include "harness.h"
static size_t tm_max_alloc;
static void *tm_alloc(size_t a, size_t s) {
    if (s > tm_max_alloc) tm_max_alloc = s;
    return th_alloc(a, s);
}
#include "../formats/io/mm.h"
#include "../formats/io/gen.h"
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/resource.h>

/* ---- temp files ------------------------------------------------------------------- */
static char tmpdir_[256];
static char made_[256][320];
static int nmade_;

static const char *tpath(const char *name) {
    static char buf[8][320];
    static int slot;
    char *p = buf[slot++ & 7];
    int i;
    snprintf(p, 320, "%s/%s", tmpdir_, name);
    for (i = 0; i < nmade_; i++)
        if (!strcmp(made_[i], p)) return p;
    if (nmade_ < 256) snprintf(made_[nmade_++], 320, "%s", p);
    return p;
}

static const char *write_text(const char *name, const char *text) {
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    if (!f) {
        printf("cannot create %s\n", p);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return p;
}

static const char *write_gz(const char *name, const char *text) {
    const char *p = tpath(name);
    gzFile g = gzopen(p, "wb");
    if (!g) {
        printf("cannot create %s\n", p);
        exit(2);
    }
    gzputs(g, text);
    gzclose(g);
    return p;
}

/* exactly n bytes (NUL bytes included) */
static const char *write_bytes(const char *name, const char *data, size_t n) {
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, n, f) != n) {
        printf("cannot create %s\n", p);
        exit(2);
    }
    fclose(f);
    return p;
}

static char *read_all(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    char *b;
    long sz;
    *n = 0;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = (char *)malloc((size_t)sz + 1);
    if (b && fread(b, 1, (size_t)sz, f) == (size_t)sz) {
        b[sz] = '\0';
        *n = (size_t)sz;
    } else {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static void cleanup(void) {
    int i;
    char cmd[400];
    for (i = 0; i < nmade_; i++) remove(made_[i]);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/loc'", tmpdir_); /* a locale built by localedef */
    if (system(cmd) != 0) printf("(could not remove %s/loc)\n", tmpdir_);
    rmdir(tmpdir_);
}

static int has_entry(const spmv_triplets *t, int64_t r, int64_t c, double v) {
    int64_t k;
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] == r && t->col[k] == c && t->val[k] == v) return 1;
    return 0;
}

static int is_empty(const spmv_triplets *t) {
    return t->nrows == 0 && t->ncols == 0 && t->nnz == 0 && !t->row && !t->col && !t->val;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }
/* path read as an m x n array (cplx: (re, im) pairs) holds w's bits exactly */
static int arr_read_is(const char *path, int cplx, int64_t m, int64_t n, const double *w, spmv_error *e) {
    int64_t m2 = -1, n2 = -1, i;
    double *r = NULL;
    const spmv_status st = cplx ? spmv_mm_read_array_complex(path, &m2, &n2, &r, e) : spmv_mm_read_array(path, &m2, &n2, &r, e);
    int ok = st == SPMV_OK && m2 == m && n2 == n && r;
    for (i = 0; ok && i < m * n * (1 + cplx); i++) ok = same_bits(r[i], w[i]);
    spmv__free(r);
    return ok;
}

static int triplets_equal(const spmv_triplets *a, const spmv_triplets *b) {
    int64_t k;
    if (a->nrows != b->nrows || a->ncols != b->ncols || a->nnz != b->nnz) return 0;
    for (k = 0; k < a->nnz; k++)
        if (a->row[k] != b->row[k] || a->col[k] != b->col[k] || !same_bits(a->val[k], b->val[k])) return 0;
    return 1;
}

static int indices_in_range(const spmv_triplets *t) {
    int64_t k;
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] < 0 || t->row[k] >= t->nrows || t->col[k] < 0 || t->col[k] >= t->ncols) return 0;
    return 1;
}

/* ---- good files --------------------------------------------------------------------- */
static void test_good(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_status st;
    const char *p;

    /* real general with comments, blank lines, tabs, leading blanks, CRLF, no final newline */
    p = write_text("real.mtx",
                   "%%MatrixMarket matrix coordinate real general\n"
                   "% a comment\n"
                   "\n"
                   "%another\n"
                   "  3 4 5  \n"
                   "1 1 1.5\n"
                   "\n"
                   "% comment between entries\n"
                   "2\t3\t-2e-3\r\n"
                   "  3 4 7\n"
                   "3 4 1\n"
                   "1 2 .25");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK, "real general: %s (%s)", spmv_status_str(st), e.msg);
    CHECK(e.line == 0 && e.msg[0] == '\0', "err cleared on success");
    CHECK(t.nrows == 3 && t.ncols == 4 && t.nnz == 5, "real general shape %lld x %lld nnz %lld", (long long)t.nrows,
          (long long)t.ncols, (long long)t.nnz);
    CHECK(t.nnz == 5 && t.row[0] == 0 && t.col[0] == 0 && t.val[0] == 1.5, "entry 0");
    CHECK(t.nnz == 5 && t.row[1] == 1 && t.col[1] == 2 && t.val[1] == -2e-3, "entry 1 (tabs, CRLF)");
    CHECK(t.nnz == 5 && t.row[2] == 2 && t.col[2] == 3 && t.val[2] == 7.0, "entry 2 (leading blanks)");
    CHECK(t.nnz == 5 && t.row[3] == 2 && t.col[3] == 3 && t.val[3] == 1.0, "duplicate kept");
    CHECK(t.nnz == 5 && t.row[4] == 0 && t.col[4] == 1 && t.val[4] == 0.25, "last line without newline");
    spmv_triplets_free(&t);

    /* case-insensitive banner words, integer field */
    p = write_text("int.mtx", "%%matrixmarket MATRIX Coordinate INTEGER General\n2 2 2\n1 2 -7\n2 1 123456789\n");
    st = spmv_mm_read(p, &t, NULL);
    CHECK(st == SPMV_OK && t.nnz == 2 && has_entry(&t, 0, 1, -7.0) && has_entry(&t, 1, 0, 123456789.0),
          "integer field, case-insensitive banner");
    spmv_triplets_free(&t);

    /* pattern general */
    p = write_text("pat.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 3\n3 1\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 2 && has_entry(&t, 0, 2, 1.0) && has_entry(&t, 2, 0, 1.0), "pattern general: %s",
          e.msg);
    spmv_triplets_free(&t);

    /* symmetric: off-diagonals mirrored, diagonal once */
    p = write_text("sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n2 1 -1.5\n3 2 2\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 5, "symmetric expansion nnz %lld (%s)", (long long)t.nnz, e.msg);
    CHECK(has_entry(&t, 0, 0, 4) && has_entry(&t, 1, 0, -1.5) && has_entry(&t, 0, 1, -1.5) && has_entry(&t, 2, 1, 2) &&
              has_entry(&t, 1, 2, 2) && !has_entry(&t, 0, 0, 8),
          "symmetric expansion entries");
    spmv_triplets_free(&t);

    /* pattern symmetric */
    p = write_text("psym.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 3 && has_entry(&t, 0, 0, 1) && has_entry(&t, 1, 0, 1) && has_entry(&t, 0, 1, 1),
          "pattern symmetric expansion");
    spmv_triplets_free(&t);

    /* skew-symmetric: mirrored with the negated value */
    p = write_text("skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 4\n3 1 -0.5\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 4, "skew expansion nnz %lld (%s)", (long long)t.nnz, e.msg);
    CHECK(has_entry(&t, 1, 0, 4) && has_entry(&t, 0, 1, -4) && has_entry(&t, 2, 0, -0.5) && has_entry(&t, 0, 2, 0.5),
          "skew expansion entries");
    spmv_triplets_free(&t);

    /* nan and inf are real values */
    p = write_text("naninf.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 nan\n1 2 inf\n2 2 -Inf\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 3 && t.val[0] != t.val[0] && t.val[1] == HUGE_VAL && t.val[2] == -HUGE_VAL,
          "nan/inf values: %s", e.msg);
    spmv_triplets_free(&t);

    /* empty matrices */
    p = write_text("empty.mtx", "%%MatrixMarket matrix coordinate real general\n0 0 0\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 0 && t.ncols == 0 && t.nnz == 0 && t.row && t.col && t.val, "0x0 matrix");
    spmv_triplets_free(&t);
    p = write_text("empty2.mtx", "%%MatrixMarket matrix coordinate real general\n5 7 0\n% trailing comment\n\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 5 && t.ncols == 7 && t.nnz == 0, "5x7 without entries");
    spmv_triplets_free(&t);

    /* a comment line longer than the read buffer */
    {
        size_t n = (size_t)3 << 20, k;
        char *big = (char *)malloc(n + 200);
        strcpy(big, "%%MatrixMarket matrix coordinate real general\n%");
        k = strlen(big);
        memset(big + k, 'x', n);
        strcpy(big + k + n, "\n2 2 1\n2 2 3.5\n");
        p = write_text("longline.mtx", big);
        free(big);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_OK && t.nnz == 1 && has_entry(&t, 1, 1, 3.5), "3 MiB comment line: %s", e.msg);
        spmv_triplets_free(&t);
    }

    /* gzip: written with gzopen, read through zlib; gzip content under a plain name too */
    {
        const char *txt = "%%MatrixMarket matrix coordinate real symmetric\n% gz\n4 4 3\n1 1 2\n4 1 -3\n3 3 1e2\n";
        p = write_gz("m.mtx.gz", txt);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_OK && t.nrows == 4 && t.nnz == 4 && has_entry(&t, 3, 0, -3) && has_entry(&t, 0, 3, -3) &&
                  has_entry(&t, 2, 2, 100),
              ".gz read: %s", e.msg);
        spmv_triplets_free(&t);
        p = write_gz("gz_in_disguise.mtx", txt);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_OK && t.nnz == 4, "gzip content under a plain name: %s", e.msg);
        spmv_triplets_free(&t);
    }

    /* dense vectors */
    {
        double v[5] = {1.0, -0.0, 3.141592653589793, 1e-310, -1.7976931348623157e308};
        double *r = NULL;
        int64_t n = -1;
        int ok, i;
        p = tpath("vec.mtx");
        st = spmv_mm_write_dense(p, 5, v, &e);
        CHECK(st == SPMV_OK, "write_dense: %s", e.msg);
        st = spmv_mm_read_dense(p, &n, &r, &e);
        ok = st == SPMV_OK && n == 5 && r;
        for (i = 0; ok && i < 5; i++) ok = same_bits(r[i], v[i]);
        CHECK(ok, "dense round trip bit-exact: %s", e.msg);
        spmv__free(r);
        p = write_text("rowvec.mtx", "%%MatrixMarket matrix array real general\n% row vector\n1 3\n1\n\n2.5\n-3\n");
        st = spmv_mm_read_dense(p, &n, &r, &e);
        CHECK(st == SPMV_OK && n == 3 && r[0] == 1 && r[1] == 2.5 && r[2] == -3, "1 x n vector: %s", e.msg);
        spmv__free(r);
        p = write_text("intvec.mtx", "%%MatrixMarket matrix array integer general\n2 1\n7\n-8\n");
        st = spmv_mm_read_dense(p, &n, &r, &e);
        CHECK(st == SPMV_OK && n == 2 && r[0] == 7 && r[1] == -8, "integer m x 1 vector: %s", e.msg);
        spmv__free(r);
        p = write_text("emptyvec.mtx", "%%MatrixMarket matrix array real general\n0 1\n");
        st = spmv_mm_read_dense(p, &n, &r, &e);
        CHECK(st == SPMV_OK && n == 0 && r != NULL, "empty vector");
        spmv__free(r);
        p = tpath("vec.mtx.gz");
        st = spmv_mm_write_dense(p, 5, v, &e);
        r = NULL;
        if (st == SPMV_OK) st = spmv_mm_read_dense(p, &n, &r, &e);
        ok = st == SPMV_OK && n == 5;
        for (i = 0; ok && i < 5; i++) ok = same_bits(r[i], v[i]);
        CHECK(ok, "dense .gz round trip: %s", e.msg);
        spmv__free(r);
        { /* arrays of k columns (spmv mv --x): read column-major, written back bit for bit */
            int64_t m2 = -1, n2 = -1;
            double w[6] = {1, 2, 3, -4, 5e-300, 6.5};
            p = write_text("arr.mtx", "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n-4\n5e-300\n6.5\n");
            CHECK(arr_read_is(p, 0, 3, 2, w, &e), "3 x 2 array: %s", e.msg);
            st = spmv_mm_read_dense(p, &n, &r, &e);
            CHECK(st == SPMV_ERR_PARSE && strstr(e.msg, "expected a vector"), "read_dense refuses a 3 x 2 array: %s", e.msg);
            p = tpath("arr2.mtx");
            st = spmv_mm_write_array(p, NULL, 3, 2, w, &e);
            CHECK(st == SPMV_OK && arr_read_is(p, 0, 3, 2, w, &e), "array round trip bit-exact: %s", e.msg);
            r = NULL;
            p = write_text("arr_short.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n");
            st = spmv_mm_read_array(p, &m2, &n2, &r, &e);
            CHECK(st == SPMV_ERR_PARSE && r == NULL && m2 == 0 && n2 == 0, "array with a value missing refused: %s", e.msg);
            CHECK(spmv_mm_read_array(p, NULL, &n2, &r, &e) == SPMV_ERR_ARG, "read_array without m refused");
            CHECK(spmv_mm_write_array(NULL, NULL, 2, 2, w, &e) == SPMV_ERR_ARG, "write_array without a destination refused");
        }
        { /* complex arrays (spmv mv --precision z|c --x): (re, im) pairs, a real file's imaginary
             parts 0, the write's round trip bit for bit; a missing imaginary part refused */
            int64_t m2 = -1, n2 = -1;
            double wz[8] = {1, -2, 0.5, 0, -0.0, 3e-310, 7, -8.25};
            p = write_text("carr.mtx", "%%MatrixMarket matrix array complex general\n2 2\n1 -2\n0.5 0\n-0 3e-310\n7 -8.25\n");
            CHECK(arr_read_is(p, 1, 2, 2, wz, &e), "2 x 2 complex array as (re, im) pairs: %s", e.msg);
            r = NULL;
            st = spmv_mm_read_array(p, &m2, &n2, &r, &e);
            CHECK(st == SPMV_ERR_UNSUPPORTED && r == NULL && strstr(e.msg, "spmv_mm_read_array_complex"),
                  "the real reader refuses a complex array, naming the complex one: %s", e.msg);
            p = tpath("carr2.mtx");
            st = spmv_mm_write_array_complex(p, NULL, 2, 2, wz, &e);
            CHECK(st == SPMV_OK && arr_read_is(p, 1, 2, 2, wz, &e), "complex array round trip bit-exact: %s", e.msg);
            p = write_text("rarr.mtx", "%%MatrixMarket matrix array integer general\n3 1\n4\n-5\n6\n");
            st = spmv_mm_read_array_complex(p, &m2, &n2, &r, &e);
            ok = st == SPMV_OK && m2 == 3 && n2 == 1 && r[0] == 4 && r[1] == 0 && r[2] == -5 && r[3] == 0 && r[4] == 6 &&
                 r[5] == 0 && !signbit(r[1]);
            CHECK(ok, "an integer array read as complex: imaginary parts +0: %s", e.msg);
            spmv__free(r);
            r = NULL;
            p = write_text("carr_bad.mtx", "%%MatrixMarket matrix array complex general\n2 1\n1 2\n3\n");
            st = spmv_mm_read_array_complex(p, &m2, &n2, &r, &e);
            CHECK(st == SPMV_ERR_PARSE && r == NULL && strstr(e.msg, "imaginary"), "a missing imaginary part refused: %s",
                  e.msg);
            p = write_text("carr_long.mtx", "%%MatrixMarket matrix array complex general\n1 1\n1 2 3\n");
            st = spmv_mm_read_array_complex(p, &m2, &n2, &r, &e);
            CHECK(st == SPMV_ERR_PARSE && r == NULL, "three values on a complex line refused: %s", e.msg);
        }
    }

    /* write -> read round trip, exact to the bit, through a file larger than the buffer */
    {
        spmv_triplets g, back;
        static const double special[8] = {0.0, -0.0, 1e-310, 4.9406564584124654e-324, 1.7976931348623157e308,
                                          HUGE_VAL, -HUGE_VAL, 0.1};
        int i;
        st = spmv_gen("random:rows=6000,cols=3000,nnzr=10,seed=9", &g, &e);
        CHECK(st == SPMV_OK, "gen for round trip: %s", e.msg);
        for (i = 0; i < 8 && g.nnz > 8; i++) g.val[i] = special[i];
        for (i = 8; i < 1000 && i < g.nnz; i++) g.val[i] = (double)(i * 37 % 1001) - 500.0; /* integers */
        p = tpath("round.mtx");
        st = spmv_mm_write(p, &g, &e);
        CHECK(st == SPMV_OK, "mm_write: %s", e.msg);
        st = spmv_mm_read(p, &back, &e);
        CHECK(st == SPMV_OK && triplets_equal(&g, &back), "write/read round trip bit-exact: %s", e.msg);
        spmv_triplets_free(&back);
        p = tpath("round.mtx.gz");
        st = spmv_mm_write(p, &g, &e);
        CHECK(st == SPMV_OK, "mm_write .gz: %s", e.msg);
        st = spmv_mm_read(p, &back, &e);
        CHECK(st == SPMV_OK && triplets_equal(&g, &back), "write/read .gz round trip bit-exact: %s", e.msg);
        spmv_triplets_free(&back);
        /* the file really holds %.17g text */
        {
            FILE *f = fopen(tpath("round.mtx"), "rb");
            char line[128];
            int okl = f != NULL;
            if (f) {
                okl = fgets(line, sizeof line, f) && !strcmp(line, "%%MatrixMarket matrix coordinate real general\n");
                okl = okl && fgets(line, sizeof line, f) && !strcmp(line, "6000 3000 60000\n");
                fclose(f);
            }
            CHECK(okl, "written header and size line");
        }
        spmv_triplets_free(&g);
    }

    /* writer argument checks */
    {
        spmv_triplets bad;
        int64_t r = 5, c = 0;
        double v = 1;
        memset(&bad, 0, sizeof bad);
        bad.nrows = 3;
        bad.ncols = 3;
        bad.nnz = 1;
        bad.row = &r;
        bad.col = &c;
        bad.val = &v;
        st = spmv_mm_write(tpath("bad.mtx"), &bad, &e);
        CHECK(st == SPMV_ERR_ARG, "mm_write rejects out-of-range entries: %s", spmv_status_str(st));
        st = spmv_mm_write(tpath("nodir/x.mtx"), &t, &e);
        CHECK(st == SPMV_ERR_ARG || st == SPMV_ERR_IO, "mm_write into a missing folder");
        memset(&t, 0, sizeof t);
        st = spmv_mm_write(tmpdir_, &t, &e); /* a directory cannot be created as a file */
        CHECK(st == SPMV_ERR_IO && strstr(e.msg, "cannot create") != NULL, "mm_write to a directory: IO (%s)", e.msg);
    }
}

/* ---- bad files ------------------------------------------------------------------------ */
typedef struct bad_case {
    const char *name;
    const char *text;
    spmv_status st;
    long line;
    const char *substr;
} bad_case;

static void test_bad(void) {
    static const bad_case cases[] = {
        {"empty", "", SPMV_ERR_PARSE, 1, "banner"},
        {"no banner", "3 3 1\n1 1 1\n", SPMV_ERR_PARSE, 1, "banner"},
        {"misspelt banner", "%%MatrixMarkt matrix coordinate real general\n1 1 1\n1 1 1\n", SPMV_ERR_PARSE, 1, "banner"},
        {"short banner", "%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", SPMV_ERR_PARSE, 1, "banner"},
        {"extra banner word", "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n", SPMV_ERR_PARSE, 1, "extra"},
        {"unknown object", "%%MatrixMarket vector coordinate real general\n1 1 0\n", SPMV_ERR_PARSE, 1, "object"},
        {"unknown format", "%%MatrixMarket matrix sparse real general\n1 1 0\n", SPMV_ERR_PARSE, 1, "format"},
        {"unknown field", "%%MatrixMarket matrix coordinate double general\n1 1 0\n", SPMV_ERR_PARSE, 1, "field 'double'"},
        {"unknown symmetry", "%%MatrixMarket matrix coordinate real upper\n1 1 0\n", SPMV_ERR_PARSE, 1, "symmetry"},
        {"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", SPMV_ERR_UNSUPPORTED, 1, "complex"},
        {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", SPMV_ERR_UNSUPPORTED, 1, "hermitian"},
        {"complex hermitian", "%%MatrixMarket matrix coordinate complex hermitian\n1 1 0\n", SPMV_ERR_UNSUPPORTED, 1,
         "not supported"},
        {"array given to mm_read", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n", SPMV_ERR_PARSE, 1, "array"},
        {"size line 2 fields", "%%MatrixMarket matrix coordinate real general\n% c\n3 3\n1 1 1\n", SPMV_ERR_PARSE, 3,
         "size line"},
        {"size line 4 fields", "%%MatrixMarket matrix coordinate real general\n3 3 1 1\n1 1 1\n", SPMV_ERR_PARSE, 2,
         "size line"},
        {"size line text", "%%MatrixMarket matrix coordinate real general\n3 x 1\n1 1 1\n", SPMV_ERR_PARSE, 2, "columns"},
        {"size line float", "%%MatrixMarket matrix coordinate real general\n3 3 1.5\n1 1 1\n", SPMV_ERR_PARSE, 2,
         "not an integer"},
        {"negative size", "%%MatrixMarket matrix coordinate real general\n-3 3 1\n1 1 1\n", SPMV_ERR_PARSE, 2, "negative"},
        {"missing size line", "%%MatrixMarket matrix coordinate real general\n% only comments\n", SPMV_ERR_PARSE, 3,
         "size line"},
        {"row overflow", "%%MatrixMarket matrix coordinate real general\n99999999999999999999 3 1\n1 1 1\n",
         SPMV_ERR_OVERFLOW, 2, "64 bits"},
        {"nnz overflow", "%%MatrixMarket matrix coordinate real general\n3 3 123456789012345678901234\n1 1 1\n",
         SPMV_ERR_OVERFLOW, 2, "nonzeros"},
        {"symmetric expansion overflow", "%%MatrixMarket matrix coordinate real symmetric\n3 3 9000000000000000000\n",
         SPMV_ERR_OVERFLOW, 2, "expanded"},
        {"symmetric not square", "%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n", SPMV_ERR_PARSE, 2,
         "square"},
        {"fewer entries", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 2\n", SPMV_ERR_PARSE, 5,
         "fewer entries"},
        {"fewer entries, trailing comment", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n% c\n\n",
         SPMV_ERR_PARSE, 6, "fewer entries"},
        {"huge nnz announced", "%%MatrixMarket matrix coordinate real general\n3 3 4000000000000000000\n1 1 1\n",
         SPMV_ERR_PARSE, 4, "fewer entries"},
        {"more entries", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 2\n% ok\n3 3 3\n",
         SPMV_ERR_PARSE, 6, "more entries"},
        {"row index 0", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n0 2 2\n", SPMV_ERR_PARSE, 4,
         "row index 0 out of range"},
        {"column index 0", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n", SPMV_ERR_PARSE, 3,
         "column index 0 out of range"},
        {"negative index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n-1 1 1\n", SPMV_ERR_PARSE, 3,
         "row index -1"},
        {"row index too large", "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n", SPMV_ERR_PARSE, 3,
         "row index 4 out of range 1..3"},
        {"column index too large", "%%MatrixMarket matrix coordinate real general\n3 5 2\n1 1 1\n1 6 1\n", SPMV_ERR_PARSE,
         4, "column index 6 out of range 1..5"},
        {"index overflows int64", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 99999999999999999999 1\n",
         SPMV_ERR_PARSE, 3, "out of range"},
        {"non-numeric index", "%%MatrixMarket matrix coordinate real general\n3 3 1\nx 1 1\n", SPMV_ERR_PARSE, 3,
         "invalid row index 'x'"},
        {"non-numeric value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n\n2 2 abc\n", SPMV_ERR_PARSE, 5,
         "invalid real value 'abc'"},
        {"non-numeric integer", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 seven\n", SPMV_ERR_PARSE, 3,
         "invalid integer value"},
        {"garbage glued to value", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 2.5x\n", SPMV_ERR_PARSE, 3,
         "invalid real value '2.5x'"},
        {"trailing garbage", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2 2.5 junk\n", SPMV_ERR_PARSE,
         4, "trailing garbage 'junk'"},
        {"pattern with a value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", SPMV_ERR_PARSE, 3,
         "trailing garbage"},
        {"missing value", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n% x\n2 2\n", SPMV_ERR_PARSE, 5,
         "expected 3 fields (row col value), got 2"},
        {"missing column", "%%MatrixMarket matrix coordinate real general\n3 3 1\n2\n", SPMV_ERR_PARSE, 3,
         "expected 3 fields (row col value), got 1"},
        /* issue 14, defect 7: `integer` fields hold whole numbers within int64 */
        {"integer 1.5", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 1 1\n2 2 1.5\n", SPMV_ERR_PARSE, 4,
         "invalid integer value '1.5'"},
        {"integer nan", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 nan\n", SPMV_ERR_PARSE, 3,
         "invalid integer value 'nan'"},
        {"integer 1e3", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 1\n1 1 1e3\n", SPMV_ERR_PARSE, 3,
         "invalid integer value"},
        {"integer beyond int64", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 99999999999999999999999\n",
         SPMV_ERR_PARSE, 3, "outside the 64-bit range"},
        {"integer 2^63", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 9223372036854775808\n",
         SPMV_ERR_PARSE, 3, "outside the 64-bit range"},
        {"pattern skew", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n3 3 0\n", SPMV_ERR_PARSE, 1, "pattern"},
    };
    size_t i;
    char name[64];
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        const char *p;
        snprintf(name, sizeof name, "bad%02d.mtx", (int)i);
        p = write_text(name, c->text);
        memset(&e, 0x5a, sizeof e);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == c->st && e.line == c->line && strstr(e.msg, c->substr) != NULL,
              "%s: got %s line %ld '%s'; want %s line %ld containing '%s'", c->name, spmv_status_str(st), e.line, e.msg,
              spmv_status_str(c->st), c->line, c->substr);
        CHECK(is_empty(&t), "%s: output left empty", c->name);
        /* the message names the line */
        if (c->line > 0) {
            char pre[32];
            snprintf(pre, sizeof pre, "line %ld: ", c->line);
            CHECK(!strncmp(e.msg, pre, strlen(pre)), "%s: message '%s' starts with '%s'", c->name, e.msg, pre);
        }
        /* the same from a .gz file, and with err == NULL */
        snprintf(name, sizeof name, "bad%02d.mtx.gz", (int)i);
        p = write_gz(name, c->text);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == c->st && e.line == c->line, "%s (.gz): got %s line %ld '%s'", c->name, spmv_status_str(st), e.line,
              e.msg);
        CHECK(spmv_mm_read(p, &t, NULL) == c->st && is_empty(&t), "%s: err == NULL", c->name);
    }

    /* missing file */
    {
        spmv_triplets t;
        spmv_error e;
        spmv_status st = spmv_mm_read(tpath("does-not-exist.mtx"), &t, &e);
        CHECK(st == SPMV_ERR_IO && e.line == 0 && strstr(e.msg, "cannot open") && is_empty(&t), "missing file: %s %s",
              spmv_status_str(st), e.msg);
        st = spmv_mm_read(tpath("does-not-exist.mtx.gz"), &t, &e);
        CHECK(st == SPMV_ERR_IO && e.line == 0, "missing .gz file: %s %s", spmv_status_str(st), e.msg);
        st = spmv_mm_read(NULL, &t, &e);
        CHECK(st == SPMV_ERR_ARG, "NULL path");
        st = spmv_mm_read(tmpdir_, &t, &e);
        CHECK(st == SPMV_ERR_IO, "reading a directory: %s (%s)", spmv_status_str(st), e.msg);
    }

    /* truncated gzip stream */
    {
        spmv_triplets g, t;
        spmv_error e;
        spmv_status st;
        FILE *f;
        long sz;
        char *buf;
        const char *p = tpath("trunc.mtx.gz");
        spmv_gen("random:rows=2000,nnzr=10,seed=3", &g, NULL);
        spmv_mm_write(p, &g, NULL);
        spmv_triplets_free(&g);
        f = fopen(p, "rb");
        fseek(f, 0, SEEK_END);
        sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = (char *)malloc((size_t)sz);
        CHECK(fread(buf, 1, (size_t)sz, f) == (size_t)sz, "read gz bytes");
        fclose(f);
        f = fopen(p, "wb");
        fwrite(buf, 1, (size_t)sz / 2, f);
        fclose(f);
        free(buf);
        st = spmv_mm_read(p, &t, &e);
        CHECK((st == SPMV_ERR_IO || st == SPMV_ERR_PARSE) && is_empty(&t), "truncated .gz: %s (%s)", spmv_status_str(st),
              e.msg);
    }

    /* dense reader errors */
    {
        static const bad_case dcases[] = {
            {"coordinate given to read_dense", "%%MatrixMarket matrix coordinate real general\n2 1 1\n1 1 1\n",
             SPMV_ERR_PARSE, 1, "coordinate"},
            {"not a vector", "%%MatrixMarket matrix array real general\n3 2\n1\n2\n3\n4\n5\n6\n", SPMV_ERR_PARSE, 2,
             "expected a vector"},
            {"dense fewer values", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n", SPMV_ERR_PARSE, 5,
             "fewer entries"},
            {"dense more values", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", SPMV_ERR_PARSE, 5,
             "more entries"},
            {"dense bad value", "%%MatrixMarket matrix array real general\n2 1\n1\nfoo\n", SPMV_ERR_PARSE, 4,
             "invalid real value 'foo'"},
            {"dense two per line", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", SPMV_ERR_PARSE, 3,
             "trailing garbage"},
            {"dense size 3 fields", "%%MatrixMarket matrix array real general\n2 1 2\n1\n2\n", SPMV_ERR_PARSE, 2,
             "size line"},
            {"dense size overflow", "%%MatrixMarket matrix array real general\n1 99999999999999999999\n", SPMV_ERR_OVERFLOW,
             2, "64 bits"},
            {"dense complex", "%%MatrixMarket matrix array complex general\n1 1\n1 0\n", SPMV_ERR_UNSUPPORTED, 1,
             "complex"},
            {"dense pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", SPMV_ERR_PARSE, 1, "pattern"},
            {"dense integer 2.5", "%%MatrixMarket matrix array integer general\n2 1\n1\n2.5\n", SPMV_ERR_PARSE, 4,
             "invalid integer value '2.5'"},
            {"dense integer beyond int64", "%%MatrixMarket matrix array integer general\n1 1\n-99999999999999999999\n",
             SPMV_ERR_PARSE, 3, "outside the 64-bit range"},
        };
        for (i = 0; i < sizeof dcases / sizeof dcases[0]; i++) {
            const bad_case *c = &dcases[i];
            spmv_error e;
            spmv_status st;
            int64_t n = 77;
            double *v = (double *)&n; /* must be reset to NULL */
            snprintf(name, sizeof name, "dbad%02d.mtx", (int)i);
            st = spmv_mm_read_dense(write_text(name, c->text), &n, &v, &e);
            CHECK(st == c->st && e.line == c->line && strstr(e.msg, c->substr) != NULL && n == 0 && v == NULL,
                  "%s: got %s line %ld '%s'; want %s line %ld containing '%s'", c->name, spmv_status_str(st), e.line,
                  e.msg, spmv_status_str(c->st), c->line, c->substr);
        }
    }
}

/* ---- issue 14: hardening ---------------------------------------------------------------- */
/* Entries of the temp folder whose name starts with prefix (left-over temporaries). */
static int count_prefixed(const char *prefix) {
    DIR *d = opendir(tmpdir_);
    struct dirent *de;
    int n = 0;
    if (!d) return -1;
    while ((de = readdir(d)) != NULL)
        if (!strncmp(de->d_name, prefix, strlen(prefix))) n++;
    closedir(d);
    return n;
}

static int file_is(const char *path, const char *text) {
    size_t n;
    char *b = read_all(path, &n);
    int ok = b && n == strlen(text) && !memcmp(b, text, n);
    free(b);
    return ok;
}

/* Defects 1 and 2: a write error never removes anything but the writer's own temporary;
 * the stream writers write to the caller's stream. */
static void test_write_safety(void) {
    spmv_triplets g;
    spmv_error e;
    spmv_status st;
    struct stat sb;
    double v[3] = {1.5, -2, 0.25};
    const char *keep = tpath("keep.mtx"), *keepgz = tpath("keep.mtx.gz"), *fresh = tpath("fresh.mtx");
    struct rlimit old, lim;
    st = spmv_gen("random:rows=3000,nnzr=10,seed=5", &g, &e); /* ~ 1 MB of text */
    CHECK(st == SPMV_OK, "gen: %s", e.msg);
    if (st != SPMV_OK) return;

    /* a symbolic link to /dev/full: ENOSPC on the first write; the link is still there */
    if (access("/dev/full", W_OK) == 0) {
        const char *l = tpath("full_link.mtx");
        remove(l);
        if (symlink("/dev/full", l) == 0) {
            st = spmv_mm_write_dense(l, 3, v, &e);
            CHECK(st == SPMV_ERR_IO && strstr(e.msg, "No space left") != NULL, "write through a link to /dev/full: %s (%s)",
                  spmv_status_str(st), e.msg);
            CHECK(lstat(l, &sb) == 0 && S_ISLNK(sb.st_mode), "the symbolic link to /dev/full was not removed");
            st = spmv_mm_write(l, &g, &e);
            CHECK(st == SPMV_ERR_IO && lstat(l, &sb) == 0 && S_ISLNK(sb.st_mode), "mm_write to the link: %s, link kept",
                  spmv_status_str(st));
            CHECK(stat("/dev/full", &sb) == 0 && S_ISCHR(sb.st_mode), "/dev/full untouched");
        } else {
            check_skip("cannot create a symbolic link in %s", tmpdir_);
        }
    } else {
        check_skip("no writable /dev/full: the device write-error tests are not run");
    }

    /* a pre-existing file, with writes failing (file size limit): it keeps its content, and no
       temporary is left behind; the same for .gz and for a new file (which must not appear) */
    write_text("keep.mtx", "old content\n");
    write_text("keep.mtx.gz", "old gz content\n");
    if (getrlimit(RLIMIT_FSIZE, &old) == 0) {
        signal(SIGXFSZ, SIG_IGN);
        lim = old;
        lim.rlim_cur = 4096;
        if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
            spmv_status st1 = spmv_mm_write(keep, &g, &e);
            char m1[256];
            spmv_status st2, st3;
            snprintf(m1, sizeof m1, "%s", e.msg);
            st2 = spmv_mm_write(keepgz, &g, &e);
            st3 = spmv_mm_write(fresh, &g, &e);
            setrlimit(RLIMIT_FSIZE, &old);
            CHECK(st1 == SPMV_ERR_IO && strstr(m1, "keep.mtx") != NULL, "failing write: IO naming the file (%s)", m1);
            CHECK(file_is(keep, "old content\n"), "a failed mm_write left the existing file as it was");
            CHECK(st2 == SPMV_ERR_IO && file_is(keepgz, "old gz content\n"), "a failed .gz write left the existing file");
            CHECK(st3 == SPMV_ERR_IO && stat(fresh, &sb) != 0, "a failed write to a new path leaves no file there");
            CHECK(count_prefixed(".keep.mtx") == 0 && count_prefixed(".fresh.mtx") == 0,
                  "no temporary left behind after failed writes");
        } else {
            check_skip("setrlimit(RLIMIT_FSIZE) failed: failing-write tests on regular files not run");
        }
    }

    /* success replaces the content, keeps the permission bits, leaves no temporary */
    chmod(keep, 0640);
    st = spmv_mm_write_dense(keep, 3, v, &e);
    CHECK(st == SPMV_OK && file_is(keep, "%%MatrixMarket matrix array real general\n3 1\n1.5\n-2\n0.25\n"),
          "write replaces the file: %s", e.msg);
    CHECK(stat(keep, &sb) == 0 && (sb.st_mode & 07777) == 0640, "replaced file keeps mode 0640 (got %o)",
          (unsigned)(sb.st_mode & 07777));
    CHECK(count_prefixed(".keep.mtx") == 0, "no temporary left after a successful write");
    /* through a link to a regular file: the link stays a link, the file it names gets the text */
    {
        const char *l = tpath("keep_link.mtx");
        remove(l);
        if (symlink(keep, l) == 0) {
            double w[1] = {7};
            st = spmv_mm_write_dense(l, 1, w, &e);
            CHECK(st == SPMV_OK && lstat(l, &sb) == 0 && S_ISLNK(sb.st_mode) &&
                      file_is(keep, "%%MatrixMarket matrix array real general\n1 1\n7\n"),
                  "write through a link to a file: link kept, file replaced (%s)", e.msg);
        }
    }

    /* stream writers (defect 2): appended after what the stream already holds */
#ifdef SPMV_MM_HAVE_WRITE_FP
    {
        FILE *f;
        const char *ap = write_text("append.txt", "prev\n");
        f = fopen(ap, "a");
        st = f ? spmv_mm_write_dense_fp(f, 3, v, &e) : SPMV_ERR_IO;
        if (f) {
            fputs("footer\n", f);
            fclose(f);
        }
        CHECK(st == SPMV_OK && file_is(ap, "prev\n%%MatrixMarket matrix array real general\n3 1\n1.5\n-2\n0.25\nfooter\n"),
              "write_dense_fp appends to the caller's stream: %s", e.msg);
        f = fopen(ap, "w");
        st = f ? spmv_mm_write_fp(f, &g, &e) : SPMV_ERR_IO;
        if (f) fclose(f);
        {
            spmv_triplets back;
            spmv_status st2 = spmv_mm_read(ap, &back, &e);
            CHECK(st == SPMV_OK && st2 == SPMV_OK && triplets_equal(&g, &back), "write_fp round trip");
            if (st2 == SPMV_OK) spmv_triplets_free(&back);
        }
        f = fopen("/dev/full", "w");
        if (f) {
            st = spmv_mm_write_fp(f, &g, &e);
            fclose(f);
            CHECK(st == SPMV_ERR_IO && strstr(e.msg, "No space left") != NULL, "write_fp to /dev/full: %s (%s)",
                  spmv_status_str(st), e.msg);
            CHECK(stat("/dev/full", &sb) == 0, "/dev/full still there");
        }
        CHECK(spmv_mm_write_fp(NULL, &g, &e) == SPMV_ERR_ARG, "write_fp(NULL stream)");
        CHECK(spmv_mm_write("", &g, &e) == SPMV_ERR_ARG && spmv_mm_write_dense("", 3, v, &e) == SPMV_ERR_ARG,
              "empty path: ARG");
    }
#else
    CHECK(0, "spmv_mm_write_fp / spmv_mm_write_dense_fp (writing to an open stream) missing");
#endif
    spmv_triplets_free(&g);
}

/* A locale whose decimal point is ',' (de_DE.UTF-8; built with localedef into the temp
 * folder when not installed). 0 if none can be had. */
static int set_comma_locale(void) {
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "de_DE", NULL};
    char dir[400], cmd[600];
    int i;
    for (i = 0; names[i]; i++)
        if (setlocale(LC_ALL, names[i]) && !strcmp(localeconv()->decimal_point, ",")) return 1;
    snprintf(dir, sizeof dir, "%s/loc", tmpdir_);
    mkdir(dir, 0700);
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1", dir);
    if (system(cmd) == -1) return 0;
    setenv("LOCPATH", dir, 1);
    if (setlocale(LC_ALL, "de_DE.UTF-8") && !strcmp(localeconv()->decimal_point, ",")) return 1;
    unsetenv("LOCPATH");
    setlocale(LC_ALL, "C");
    return 0;
}

/* Defect 3: numbers are read and written the same way under any LC_NUMERIC. */
static void test_locale(void) {
    double v[4] = {1.5, 0.1, -2.5e-300, 3.0};
    spmv_triplets t, g, back;
    spmv_error e;
    spmv_status st;
    const char *p;
    char buf[16];
    if (!set_comma_locale()) {
        check_skip("no locale with a ',' decimal point (de_DE) could be set or built: locale tests not run");
        return;
    }
    snprintf(buf, sizeof buf, "%.1f", 1.5);
    printf("locale %s: printf gives '%s'\n", setlocale(LC_NUMERIC, NULL), buf);
    p = tpath("loc_vec.mtx");
    st = spmv_mm_write_dense(p, 4, v, &e);
    CHECK(st == SPMV_OK && file_is(p, "%%MatrixMarket matrix array real general\n4 1\n1.5\n0.10000000000000001\n"
                                      "-2.5e-300\n3\n"),
          "write_dense under a ',' locale writes '.' (%s)", e.msg);
    p = write_text("loc_read.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1.5e-30\n2 2 1.5\n"
                                   "3 3 0.1000000000000000000000001\n1 3 0x1.8p1\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 4 && t.val[0] == 1.5e-30 && t.val[1] == 1.5 && t.val[2] == 0.1 && t.val[3] == 3.0,
          "read under a ',' locale (strtod fallback and fast path): %s %s", spmv_status_str(st), e.msg);
    if (st == SPMV_OK) spmv_triplets_free(&t);
    p = write_text("loc_comma.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1,5\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_ERR_PARSE && e.line == 3, "'1,5' is not a number in any locale: %s %s", spmv_status_str(st), e.msg);
    st = spmv_gen("random:rows=500,cols=300,nnzr=7,seed=4", &g, &e);
    if (st == SPMV_OK) {
        int64_t k;
        for (k = 0; k < g.nnz; k += 3) g.val[k] *= 1e-7;
        p = tpath("loc_round.mtx");
        st = spmv_mm_write(p, &g, &e);
        CHECK(st == SPMV_OK && spmv_mm_read(p, &back, &e) == SPMV_OK && triplets_equal(&g, &back),
              "write/read round trip bit-exact under a ',' locale: %s", e.msg);
        spmv_triplets_free(&back);
        spmv_triplets_free(&g);
    }
    st = spmv_gen("rmat:scale=5,ef=2,a=0.5,b=0.2,c=0.2", &g, &e);
    CHECK(st == SPMV_OK, "generator real keys (a=0.5) under a ',' locale: %s", e.msg);
    if (st == SPMV_OK) spmv_triplets_free(&g);
    setlocale(LC_ALL, "C");
}

/* Defects 4 and 5: memory follows the input; over-long lines and NUL bytes are errors. */
static void test_memory_bounds(void) {
    spmv_triplets t;
    spmv_stats s;
    spmv_error e;
    spmv_status st;
    const char *p;
    size_t bound = (size_t)SPMV_MM_MAX_LINE + 65536;
    /* a data line longer than SPMV_MM_MAX_LINE (2 MiB of digits) */
    {
        size_t n = (size_t)2 << 20, k;
        char *big = (char *)malloc(n + 200);
        strcpy(big, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 ");
        k = strlen(big);
        memset(big + k, '1', n);
        strcpy(big + k + n, "\n");
        p = write_text("longdata.mtx", big);
        free(big);
        tm_max_alloc = 0;
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 3 && strstr(e.msg, "longer than") != NULL,
              "2 MiB data line: %s line %ld %s", spmv_status_str(st), e.line, e.msg);
        CHECK(tm_max_alloc <= bound, "2 MiB data line: largest allocation %zu bytes", tm_max_alloc);
    }
    /* 200000000 x 200000000 with one entry: read and statistics in kilobytes */
    p = write_text("huge_dims.mtx", "%%MatrixMarket matrix coordinate real general\n200000000 200000000 1\n1 1 1\n");
    tm_max_alloc = 0;
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 200000000 && t.nnz == 1 && tm_max_alloc <= bound,
          "200M x 200M, 1 entry: %s, largest allocation %zu", spmv_status_str(st), tm_max_alloc);
    if (st == SPMV_OK) {
        tm_max_alloc = 0;
        st = spmv_triplets_stats(&t, &s);
        CHECK(st == SPMV_OK && s.empty_rows == 199999999 && s.row_max == 1 && s.ndiags == 1 && tm_max_alloc <= 4096,
              "stats of 200M x 200M with 1 entry: %s, largest allocation %zu bytes", spmv_status_str(st), tm_max_alloc);
        spmv_triplets_free(&t);
    }
    /* 2^40 x 2^40 with 3 entries (fast_matrix_market's dim_over_32_bit) */
    p = write_text("dim40.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                "1099511627776 1099511627776 3\n1 1 1\n1099511627776 1099511627776 2\n5 1099511627776 3\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == ((int64_t)1 << 40) && t.nnz == 3, "2^40 x 2^40 read: %s %s", spmv_status_str(st),
          e.msg);
    if (st == SPMV_OK) {
        tm_max_alloc = 0;
        st = spmv_triplets_stats(&t, &s);
        CHECK(st == SPMV_OK && s.nrows == ((int64_t)1 << 40) && s.empty_rows == ((int64_t)1 << 40) - 3 && s.row_max == 1 &&
                  s.ndiags == 2 && s.upper_bw == ((int64_t)1 << 40) - 5 && s.block_count[0] == 3 &&
                  tm_max_alloc <= 4096,
              "stats of 2^40 x 2^40: %s (empty %lld, diags %lld, largest allocation %zu)", spmv_status_str(st),
              (long long)s.empty_rows, (long long)s.ndiags, tm_max_alloc);
        spmv_triplets_free(&t);
    }
    /* a pipe (length unknown) announcing 10^8 entries and holding one: storage grows with the data */
    {
        const char *fifo = tpath("fifo.mtx");
        remove(fifo);
        if (mkfifo(fifo, 0600) == 0) {
            pid_t pid = fork();
            if (pid == 0) {
                static const char txt[] = "%%MatrixMarket matrix coordinate real general\n1000 1000 100000000\n1 1 1\n";
                int fd = open(fifo, O_WRONLY);
                if (fd >= 0 && write(fd, txt, sizeof txt - 1) == (ssize_t)(sizeof txt - 1)) close(fd);
                _exit(0);
            }
            if (pid > 0) {
                int status = 0;
                tm_max_alloc = 0;
                st = spmv_mm_read(fifo, &t, &e);
                waitpid(pid, &status, 0);
                CHECK(st == SPMV_ERR_PARSE && strstr(e.msg, "fewer entries") != NULL && tm_max_alloc <= bound,
                      "pipe announcing 1e8 entries: %s (%s), largest allocation %zu", spmv_status_str(st), e.msg,
                      tm_max_alloc);
            }
        } else {
            check_skip("mkfifo failed: pipe test not run");
        }
    }
    /* a pipe with many entries: grown storage holds them all */
    {
        const char *fifo = tpath("fifo2.mtx");
        remove(fifo);
        if (mkfifo(fifo, 0600) == 0) {
            pid_t pid = fork();
            if (pid == 0) {
                FILE *f = fopen(fifo, "w");
                int i;
                if (f) {
                    fprintf(f, "%%%%MatrixMarket matrix coordinate real symmetric\n30000 30000 30000\n");
                    for (i = 0; i < 30000; i++) fprintf(f, "%d %d %d\n", i + 1, i / 2 + 1, i);
                    fclose(f);
                }
                _exit(0);
            }
            if (pid > 0) {
                int status = 0, ok;
                int64_t k;
                st = spmv_mm_read(fifo, &t, &e);
                waitpid(pid, &status, 0);
                ok = st == SPMV_OK && t.nnz == 30000 + 30000 - 1 && indices_in_range(&t);
                for (k = 0; ok && k < t.nnz; k++) ok = t.val[k] == (double)(t.row[k] >= t.col[k] ? t.row[k] : t.col[k]);
                CHECK(ok, "pipe with 30000 symmetric entries: %s %s nnz %lld", spmv_status_str(st), e.msg,
                      (long long)t.nnz);
                if (st == SPMV_OK) spmv_triplets_free(&t);
            }
        }
    }
    /* /dev/zero: NUL bytes on line 1, at once */
    if (access("/dev/zero", R_OK) == 0) {
        tm_max_alloc = 0;
        st = spmv_mm_read("/dev/zero", &t, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 1 && strstr(e.msg, "NUL") != NULL && tm_max_alloc <= bound,
              "/dev/zero: %s line %ld %s (largest allocation %zu)", spmv_status_str(st), e.line, e.msg, tm_max_alloc);
    }
    /* NUL bytes (defect 5): a parse error naming the line, plain and gzip, entry or comment */
    {
        static const char a[] = "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\0 2 2 2\n";
        static const char b[] = "%%MatrixMarket matrix coordinate real general\n% com\0ment\n3 3 1\n1 1 1\n";
        static const char c[] = "%%MatrixMarket matrix array real general\n2 1\n1\n2\0\n";
        int64_t n;
        double *v = NULL;
        gzFile gz;
        p = write_bytes("nul.mtx", a, sizeof a - 1);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 3 && strstr(e.msg, "NUL") && !strncmp(e.msg, "line 3: ", 8) &&
                  is_empty(&t),
              "NUL in an entry line: %s line %ld %s", spmv_status_str(st), e.line, e.msg);
        p = write_bytes("nul2.mtx", b, sizeof b - 1);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 2 && strstr(e.msg, "NUL"), "NUL in a comment: %s line %ld %s",
              spmv_status_str(st), e.line, e.msg);
        p = write_bytes("nul3.mtx", c, sizeof c - 1);
        st = spmv_mm_read_dense(p, &n, &v, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 4 && strstr(e.msg, "NUL") && v == NULL, "NUL in a dense file: %s line %ld %s",
              spmv_status_str(st), e.line, e.msg);
        p = tpath("nul.mtx.gz");
        gz = gzopen(p, "wb");
        gzwrite(gz, a, (unsigned)(sizeof a - 1));
        gzclose(gz);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_ERR_PARSE && e.line == 3 && strstr(e.msg, "NUL"), "NUL in a .gz file: %s line %ld %s",
              spmv_status_str(st), e.line, e.msg);
    }
}

/* Expected report for a truncated gzip file: inflate what can be decoded (independently of the
 * reader), count its lines; a partial last line is the line reached. */
static long gz_reached_line(const unsigned char *z, size_t n) {
    z_stream s;
    unsigned char out[65536];
    long nl = 0;
    int last = '\n', ret = Z_OK;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, 15 + 16) != Z_OK) return -1;
    s.next_in = (Bytef *)(uintptr_t)z;
    s.avail_in = (uInt)n;
    do {
        size_t i, got;
        s.next_out = out;
        s.avail_out = sizeof out;
        ret = inflate(&s, Z_NO_FLUSH);
        got = sizeof out - s.avail_out;
        for (i = 0; i < got; i++) nl += out[i] == '\n';
        if (got) last = out[got - 1];
        if (ret != Z_OK) break;
    } while (s.avail_out == 0 || s.avail_in > 0);
    inflateEnd(&s);
    return last == '\n' ? nl : nl + 1;
}

/* Defect 6: a truncated .gz reports the last line reached and says so. */
static void test_gz_truncated(void) {
    static const struct {
        const char *spec;
        double keep; /* fraction of the compressed bytes kept; < 0: all but the 8-byte trailer */
    } cases[] = {{"random:rows=40000,nnzr=10,seed=3", 0.5},
                 {"random:rows=40000,nnzr=10,seed=3", -1},
                 {"random:rows=400,nnzr=10,seed=3", 0.5},
                 {"random:rows=400,nnzr=10,seed=3", 0.93},
                 {"random:rows=400,nnzr=10,seed=3", -1}};
    size_t c;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        spmv_triplets g, t;
        spmv_error e;
        spmv_status st;
        size_t n, cut;
        char *z, name[64];
        const char *p;
        long want;
        snprintf(name, sizeof name, "trunc%d.mtx.gz", (int)c);
        p = tpath(name);
        spmv_gen(cases[c].spec, &g, NULL);
        spmv_mm_write(p, &g, NULL);
        spmv_triplets_free(&g);
        z = read_all(p, &n);
        if (!z) {
            CHECK(0, "cannot read back %s", p);
            continue;
        }
        cut = cases[c].keep < 0 ? n - 8 : (size_t)((double)n * cases[c].keep);
        want = gz_reached_line((const unsigned char *)z, cut);
        write_bytes(name, z, cut);
        free(z);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_ERR_IO && e.line == want && strstr(e.msg, "truncated gzip stream") != NULL && is_empty(&t),
              "%s cut to %zu of %zu bytes: %s line %ld '%s'; want IO at line %ld", cases[c].spec, cut, n,
              spmv_status_str(st), e.line, e.msg, want);
    }
    /* a corrupt member (bytes flipped in the middle) is an I/O error naming zlib's reason */
    {
        spmv_triplets g, t;
        spmv_error e;
        spmv_status st;
        size_t n, i;
        char *z;
        const char *p = tpath("corrupt.mtx.gz");
        spmv_gen("random:rows=400,nnzr=10,seed=3", &g, NULL);
        spmv_mm_write(p, &g, NULL);
        spmv_triplets_free(&g);
        z = read_all(p, &n);
        if (z) {
            for (i = n / 2; i < n / 2 + 64 && i < n; i++) z[i] = (char)(z[i] ^ 0x5a);
            write_bytes("corrupt.mtx.gz", z, n);
            free(z);
            st = spmv_mm_read(p, &t, &e);
            CHECK((st == SPMV_ERR_IO || st == SPMV_ERR_PARSE) && e.line > 0 && is_empty(&t), "corrupt .gz: %s line %ld %s",
                  spmv_status_str(st), e.line, e.msg);
        }
    }
    /* two concatenated members are one file (gzip semantics) */
    {
        const char *p = tpath("two.mtx.gz");
        gzFile gz = gzopen(p, "wb");
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        gzputs(gz, "%%MatrixMarket matrix coordinate real general\n2 2 2\n");
        gzclose(gz);
        gz = gzopen(p, "ab");
        gzputs(gz, "1 1 1\n2 2 2\n");
        gzclose(gz);
        st = spmv_mm_read(p, &t, &e);
        CHECK(st == SPMV_OK && t.nnz == 2, "two gzip members: %s %s", spmv_status_str(st), e.msg);
        if (st == SPMV_OK) spmv_triplets_free(&t);
    }
}

/* Defect 7 (good side) and the peers' files: integers up to int64 (rounded above 2^53), skew
 * diagonals, a one-percent banner. */
static void test_peer_rules(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_status st;
    const char *p;
    p = write_text("int64.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 4\n1 1 9007199254740993\n"
                                "1 2 -9223372036854775808\n2 1 9223372036854775807\n2 2 +7\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 4 && t.val[0] == 9007199254740992.0 && t.val[1] == -9223372036854775808.0 &&
              t.val[2] == 9223372036854775807.0 && t.val[3] == 7.0,
          "int64 integers (2^53 + 1 rounds to 2^53, documented): %s %s", spmv_status_str(st), e.msg);
    if (st == SPMV_OK) spmv_triplets_free(&t);
    p = write_text("skewdiag.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 3\n2 1 4\n2 2 5\n3 3 -1\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 4 && has_entry(&t, 1, 0, 4) && has_entry(&t, 0, 1, -4) && has_entry(&t, 1, 1, 5) &&
              has_entry(&t, 2, 2, -1),
          "skew-symmetric diagonal kept once (as scipy and fast_matrix_market): %s %s nnz %lld", spmv_status_str(st),
          e.msg, (long long)t.nnz);
    if (st == SPMV_OK) spmv_triplets_free(&t);
    p = write_text("onepct.mtx", "%MatrixMarket matrix coordinate real general\n% c\n2 2 1\n2 1 3\n");
    st = spmv_mm_read(p, &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 1 && has_entry(&t, 1, 0, 3), "'%%MatrixMarket' with one '%%': %s %s",
          spmv_status_str(st), e.msg);
    if (st == SPMV_OK) spmv_triplets_free(&t);
}

/* Both statistics paths (per-row arrays, sorting) agree. */
static void test_stats_paths(void) {
    static const char *specs[] = {"random:rows=700,cols=300,nnzr=5,seed=2", "band:n=500,bw=3", "rmat:scale=9,ef=4",
                                  "lp:rows=100,cols=2000,nnzr=20", "onerow:n=300,len=40", "fem:n=50,bs=3,deg=4"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_stats a, b;
        int ok, k;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        if (spmv_gen(specs[i], &t, NULL) != SPMV_OK) {
            CHECK(0, "gen %s", specs[i]);
            continue;
        }
        ok = spmv__triplets_stats(&t, &a, 1) == SPMV_OK && spmv__triplets_stats(&t, &b, 2) == SPMV_OK;
        ok = ok && a.nrows == b.nrows && a.ncols == b.ncols && a.nnz == b.nnz && a.row_min == b.row_min &&
             a.row_max == b.row_max && a.row_avg == b.row_avg && fabs(a.row_sd - b.row_sd) <= 1e-9 * (1 + a.row_sd) &&
             a.empty_rows == b.empty_rows && a.ndiags == b.ndiags && a.bandwidth == b.bandwidth &&
             a.lower_bw == b.lower_bw && a.upper_bw == b.upper_bw && a.best_bs == b.best_bs && a.best_fill == b.best_fill;
        for (k = 0; ok && k < SPMV_STATS_NBS; k++)
            ok = a.block_count[k] == b.block_count[k] && a.block_fill[k] == b.block_fill[k];
        CHECK(ok, "stats: per-row and sorting paths agree on %s (empty %lld/%lld diags %lld/%lld)", specs[i],
              (long long)a.empty_rows, (long long)b.empty_rows, (long long)a.ndiags, (long long)b.ndiags);
        spmv_triplets_free(&t);
    }
}

/* ---- generators ------------------------------------------------------------------------ */
static spmv_status gen(const char *spec, spmv_triplets *t, spmv_error *e) {
    spmv_status st = spmv_gen(spec, t, e);
    if (st != SPMV_OK) printf("  (gen '%s': %s: %s)\n", spec, spmv_status_str(st), e->msg);
    return st;
}

static int64_t max_row_len(const spmv_triplets *t) {
    spmv_stats s;
    memset(&s, 0, sizeof s);
    return spmv_triplets_stats(t, &s) == SPMV_OK ? s.row_max : -1;
}

static int64_t max_col_len(const spmv_triplets *t) {
    int64_t *c = (int64_t *)calloc((size_t)t->ncols + 1, sizeof(int64_t)), k, m = 0;
    for (k = 0; k < t->nnz; k++)
        if (++c[t->col[k]] > m) m = c[t->col[k]];
    free(c);
    return m;
}

static void test_gen(void) {
    spmv_triplets t, u;
    spmv_error e;
    spmv_status st;
    int64_t k;

    /* shapes and exact nnz of the structured kinds */
    st = gen("stencil2d:n=10", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 100 && t.ncols == 100 && t.nnz == 5 * 100 - 4 * 10 && indices_in_range(&t),
          "stencil2d n=10: nnz %lld", (long long)t.nnz);
    CHECK(has_entry(&t, 0, 0, 2.0) && has_entry(&t, 0, 1, -1.0) && has_entry(&t, 0, 10, -1.0) &&
              has_entry(&t, 55, 55, 4.0),
          "stencil2d values: diagonal = neighbour count");
    spmv_triplets_free(&t);
    st = gen("stencil3d:n=5,pts=7", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 125 && t.nnz == 7 * 125 - 6 * 25 && indices_in_range(&t), "stencil3d 7-point");
    CHECK(has_entry(&t, 0, 0, 3.0) && has_entry(&t, 62, 62, 6.0), "stencil3d 7-point diagonal");
    spmv_triplets_free(&t);
    st = gen("stencil3d:n=5,pts=27", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 125 && t.nnz == 13 * 13 * 13 && indices_in_range(&t) && has_entry(&t, 62, 62, 26.0),
          "stencil3d 27-point");
    spmv_triplets_free(&t);
    st = gen("band:n=100,bw=3", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 100 && t.nnz == 100 * 7 - 12 && indices_in_range(&t), "band n=100 bw=3");
    {
        spmv_stats s;
        memset(&s, 0, sizeof s);
        CHECK(spmv_triplets_stats(&t, &s) == SPMV_OK && s.bandwidth == 3 && s.ndiags == 7 && s.row_max == 7 &&
                  s.row_min == 4,
              "band stats");
    }
    spmv_triplets_free(&t);
    st = gen("band:n=4,bw=10", &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 16, "band wider than the matrix is dense");
    spmv_triplets_free(&t);
    st = gen("fem:n=50,bs=3,deg=5,seed=3", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 150 && t.ncols == 150 && t.nnz == 50 * 5 * 9 && indices_in_range(&t),
          "fem dim=1 nnz %lld", (long long)t.nnz);
    {
        spmv_stats s;
        memset(&s, 0, sizeof s);
        CHECK(spmv_triplets_stats(&t, &s) == SPMV_OK && s.best_bs == 3 && s.best_fill == 1.0 && s.row_min == 15 &&
                  s.row_max == 15 && s.bandwidth <= 3 * 5 + 2,
              "fem stats: 3x3 blocks fully dense, banded (best bs %d fill %g bw %lld)", s.best_bs, s.best_fill,
              (long long)s.bandwidth);
    }
    spmv_triplets_free(&t);
    st = gen("fem:n=125,bs=2,deg=10,dim=3", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 250 && t.nnz <= 125 * 10 * 4 && t.nnz >= 125 * 8 * 4 && indices_in_range(&t),
          "fem dim=3 nnz %lld", (long long)t.nnz);
    spmv_triplets_free(&t);
    st = gen("random:rows=100,cols=50,nnzr=7", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 100 && t.ncols == 50 && t.nnz == 700 && indices_in_range(&t), "random shape");
    spmv_triplets_free(&t);
    st = gen("random:rows=300", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 300 && t.ncols == 300 && t.nnz == 3000, "random cols default = rows");
    spmv_triplets_free(&t);
    st = gen("rmat:scale=10,ef=4", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 1024 && t.ncols == 1024 && t.nnz == 4096 && indices_in_range(&t), "rmat shape");
    CHECK(max_row_len(&t) > 40, "rmat is skewed: longest row %lld vs average 4", (long long)max_row_len(&t));
    for (k = 0; k < t.nnz && t.val[k] > 0 && t.val[k] <= 1; k++) {
    }
    CHECK(k == t.nnz, "rmat values in (0,1]");
    spmv_triplets_free(&t);
    st = gen("circuit:n=2000,dense=2,seed=4", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 2000 && t.ncols == 2000 && t.nnz > 2000 * 4 + 2 * 2 * 1000 &&
              t.nnz < 2000 * 7 + 2 * 2 * 2000 && indices_in_range(&t),
          "circuit shape, nnz %lld", (long long)t.nnz);
    CHECK(max_row_len(&t) >= 1000 && max_col_len(&t) >= 1000, "circuit near-dense row %lld and column %lld",
          (long long)max_row_len(&t), (long long)max_col_len(&t));
    spmv_triplets_free(&t);
    st = gen("circuit:n=2000,dense=0", &t, &e);
    CHECK(st == SPMV_OK && max_row_len(&t) <= 6 && t.nnz >= 2000 * 4 - 2, "circuit without dense rows: max row %lld",
          (long long)max_row_len(&t));
    spmv_triplets_free(&t);
    st = gen("lp:rows=100", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 100 && t.ncols == 400 && indices_in_range(&t), "lp cols = 4*rows");
    spmv_triplets_free(&t);
    st = gen("lp:rows=1000,cols=20000,nnzr=20,seed=2", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 1000 && t.ncols == 20000 && t.nnz > 1000 * 10 && t.nnz < 1000 * 40 &&
              indices_in_range(&t),
          "lp shape, nnz %lld", (long long)t.nnz);
    CHECK(max_row_len(&t) > 100, "lp heavy-tailed rows: longest %lld", (long long)max_row_len(&t));
    spmv_triplets_free(&t);
    st = gen("dense:rows=7,cols=5", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 7 && t.ncols == 5 && t.nnz == 35 && indices_in_range(&t), "dense 7x5");
    spmv_triplets_free(&t);
    st = gen("onerow:n=100,len=30", &t, &e);
    {
        int ok = st == SPMV_OK && t.nrows == 100 && t.nnz == 30 && indices_in_range(&t);
        for (k = 0; ok && k < t.nnz; k++) ok = t.row[k] == 50 && (k == 0 || t.col[k] > t.col[k - 1]);
        CHECK(ok, "onerow: one row of 30 distinct columns");
    }
    spmv_triplets_free(&t);
    st = gen("gen:onerow:n=10,row=0", &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 10 && t.row[9] == 0 && t.col[9] == 9, "gen: prefix, onerow full row 0");
    spmv_triplets_free(&t);
    st = gen("stencil2d:n=0", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 0 && t.nnz == 0, "empty stencil");
    spmv_triplets_free(&t);

    /* presets, shrunk through their keys */
    st = gen("stencil7:n=4", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 64 && t.nnz == 7 * 64 - 6 * 16, "stencil7 preset n=4");
    spmv_triplets_free(&t);
    st = gen("stencil27:n=3", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 27 && t.nnz == 343, "stencil27 preset n=3");
    spmv_triplets_free(&t);
    st = gen("pde60:n=3", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 27 && t.nnz == 7 * 27 - 6 * 9, "pde60 preset n=3");
    spmv_triplets_free(&t);
    st = gen("fem3d:n=200", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 600 && t.nnz > 200 * 9 * 8 && t.nnz <= 200 * 9 * 21 && indices_in_range(&t),
          "fem3d preset n=200, nnz %lld", (long long)t.nnz);
    spmv_triplets_free(&t);
    st = gen("webgraph:scale=9", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 512 && t.nnz == 2048 && indices_in_range(&t), "webgraph preset scale=9");
    spmv_triplets_free(&t);
    st = gen("circuit5m:n=300", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 300 && max_row_len(&t) >= 150, "circuit5m preset n=300");
    spmv_triplets_free(&t);
    st = gen("dense2k:rows=3,cols=4", &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 12, "dense2k preset shrunk");
    spmv_triplets_free(&t);
    st = gen("band:n=50", &t, &e);
    CHECK(st == SPMV_OK && t.nnz == 50 * 11 - 30, "band preset bw=5 kept");
    spmv_triplets_free(&t);
    st = gen("lp:rows=40,cols=1000", &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 40 && t.ncols == 1000, "lp preset shrunk");
    spmv_triplets_free(&t);
    /* every listed entry parses with a small override of its size key */
    {
        int i, n = spmv_gen_count(), ok = 1;
        char spec[96], list[8192], tiny[32];
        for (i = 0; i < n; i++) {
            const spmv_gen_entry *ge = spmv_gen_entry_at(i);
            const char *base = ge->base, *keys;
            if (!strcmp(base, "tile")) { /* its matrix from a file */
                static char tk[400];
                snprintf(tk, sizeof tk, "k=2,file=%s", write_text("tile_list.mtx", "%%MatrixMarket matrix coordinate "
                                                                  "real general\n2 3 2\n1 1 1.5\n2 3 -2\n"));
                keys = tk;
            } else if (!strcmp(base, "rmat")) keys = "scale=6";
            else if (!strcmp(base, "random") || !strcmp(base, "lp") || !strcmp(base, "dense")) keys = "rows=20,cols=30";
            else keys = "n=27";
            snprintf(spec, sizeof spec, "%s:%s", ge->name, keys);
            st = gen(spec, &t, &e);
            if (st != SPMV_OK || !indices_in_range(&t) || t.nnz == 0 || t.nrows == 0) {
                ok = 0;
                printf("  entry %s failed\n", spec);
            }
            spmv_triplets_free(&t);
        }
        CHECK(ok && n >= 18 && spmv_gen_entry_at(n) == NULL, "all %d kinds/presets generate", n);
        st = spmv_gen_list(list, sizeof list);
        CHECK(st == SPMV_OK && strstr(list, "stencil27") && strstr(list, "webgraph") && strstr(list, "fem3d") &&
                  strstr(list, "circuit") && strstr(list, "dense2k") && strstr(list, "onerow"),
              "spmv_gen_list names the presets");
        CHECK(spmv_gen_list(tiny, sizeof tiny) == SPMV_ERR_LIMIT && strlen(tiny) < sizeof tiny, "gen_list truncation");
    }

    /* determinism */
    {
        static const char *const specs[][2] = {
            {"random:rows=200,nnzr=5,seed=5", "random:rows=200,nnzr=5,seed=6"},
            {"rmat:scale=8,ef=4,seed=5", "rmat:scale=8,ef=4,seed=6"},
            {"fem:n=40,deg=4,seed=5", "fem:n=40,deg=4,seed=6"},
            {"circuit:n=500,seed=5", "circuit:n=500,seed=6"},
            {"lp:rows=50,seed=5", "lp:rows=50,seed=6"},
            {"band:n=30,seed=5", "band:n=30,seed=6"},
        };
        size_t i;
        for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
            spmv_triplets a, b, c;
            gen(specs[i][0], &a, &e);
            gen(specs[i][0], &b, &e);
            gen(specs[i][1], &c, &e);
            CHECK(a.nnz > 0 && triplets_equal(&a, &b), "%s: same seed, same matrix", specs[i][0]);
            CHECK(!triplets_equal(&a, &c), "%s: different seed, different matrix", specs[i][0]);
            spmv_triplets_free(&a);
            spmv_triplets_free(&b);
            spmv_triplets_free(&c);
        }
        /* a fixed value pins the generator across platforms and releases */
        gen("random:rows=3,cols=1000,nnzr=1,seed=1", &t, &e);
        gen("random:rows=3,cols=1000,nnzr=1", &u, &e);
        CHECK(t.nnz == 3 && triplets_equal(&t, &u), "seed defaults to 1");
        spmv_triplets_free(&t);
        spmv_triplets_free(&u);
    }

    /* spec errors */
    {
        static const struct {
            const char *spec;
            spmv_status st;
            const char *substr;
        } errs[] = {
            {"nosuchkind", SPMV_ERR_ARG, "unknown generator kind 'nosuchkind'"},
            {"", SPMV_ERR_ARG, "kind"},
            {"band:n=10,zz=3", SPMV_ERR_ARG, "unknown key 'zz'"},
            {"stencil2d:seed=3", SPMV_ERR_ARG, "unknown key 'seed'"},
            {"band:n=abc", SPMV_ERR_ARG, "invalid value 'abc'"},
            {"band:n", SPMV_ERR_ARG, "no '=value'"},
            {"band:n=", SPMV_ERR_ARG, "invalid value"},
            {"stencil3d:pts=9", SPMV_ERR_ARG, "pts"},
            {"stencil2d:n=-4", SPMV_ERR_ARG, "n must be"},
            {"stencil2d:n=99999999999999999999", SPMV_ERR_OVERFLOW, "overflows"},
            {"stencil3d:n=3000000", SPMV_ERR_OVERFLOW, "overflows"},
            {"dense:rows=4000000000,cols=4000000000", SPMV_ERR_OVERFLOW, "overflows"},
            {"random:rows=1g,nnzr=1000", SPMV_ERR_LIMIT, "SPMV_GEN_MAX_NNZ"},
            {"rmat:scale=63", SPMV_ERR_ARG, "scale"},
            {"rmat:scale=5,a=0.9,b=0.2", SPMV_ERR_ARG, "a + b + c"},
            {"rmat:scale=5,a=x", SPMV_ERR_ARG, "invalid value"},
            {"onerow:n=10,len=11", SPMV_ERR_ARG, "len"},
            {"circuit:n=10,dense=11", SPMV_ERR_ARG, "dense"},
            {"fem:dim=2", SPMV_ERR_ARG, "dim"},
            {"random:cols=-1", SPMV_ERR_ARG, ">= 0"},
        };
        size_t i;
        for (i = 0; i < sizeof errs / sizeof errs[0]; i++) {
            memset(&t, 0x33, sizeof t);
            st = spmv_gen(errs[i].spec, &t, &e);
            CHECK(st == errs[i].st && strstr(e.msg, errs[i].substr) != NULL && is_empty(&t),
                  "gen '%s': got %s '%s', want %s containing '%s'", errs[i].spec, spmv_status_str(st), e.msg,
                  spmv_status_str(errs[i].st), errs[i].substr);
        }
        CHECK(spmv_gen("band:n=5", NULL, NULL) == SPMV_ERR_ARG && spmv_gen(NULL, &t, NULL) == SPMV_ERR_ARG,
              "gen NULL arguments");
        st = spmv_gen("band:n=1k,bw=0", &t, NULL);
        CHECK(st == SPMV_OK && t.nrows == 1000 && t.nnz == 1000, "k suffix, err == NULL");
        spmv_triplets_free(&t);
    }
}

static void test_stats(void) {
    /* 5 x 6: a full 2x2 block at the origin, (2,4), (4,5), (4,0); row 3 empty */
    int64_t r[7] = {0, 0, 1, 1, 2, 4, 4}, c[7] = {0, 1, 0, 1, 4, 5, 0};
    double v[7] = {1, 2, 3, 4, 5, 6, 7};
    spmv_triplets t;
    spmv_stats s;
    spmv_status st;
    t.nrows = 5;
    t.ncols = 6;
    t.nnz = 7;
    t.row = r;
    t.col = c;
    t.val = v;
    st = spmv_triplets_stats(&t, &s);
    CHECK(st == SPMV_OK && s.nrows == 5 && s.ncols == 6 && s.nnz == 7, "stats shape");
    CHECK(s.row_min == 0 && s.row_max == 2 && s.empty_rows == 1 && fabs(s.row_avg - 1.4) < 1e-12 &&
              fabs(s.row_sd - 0.8) < 1e-12,
          "stats rows: min %lld max %lld empty %lld avg %g sd %g", (long long)s.row_min, (long long)s.row_max,
          (long long)s.empty_rows, s.row_avg, s.row_sd);
    CHECK(s.ndiags == 5 && s.bandwidth == 4 && s.lower_bw == 4 && s.upper_bw == 2, "stats diagonals %lld bandwidth %lld",
          (long long)s.ndiags, (long long)s.bandwidth);
    CHECK(s.block_bs[0] == 2 && s.block_count[0] == 4 && fabs(s.block_fill[0] - 7.0 / 16) < 1e-12, "stats bs=2");
    CHECK(s.block_bs[1] == 3 && s.block_count[1] == 4 && fabs(s.block_fill[1] - 7.0 / 36) < 1e-12, "stats bs=3");
    CHECK(s.block_bs[2] == 4 && s.block_count[2] == 4, "stats bs=4");
    CHECK(s.block_bs[3] == 6 && s.block_count[3] == 1 && s.block_bs[4] == 8 && s.block_count[4] == 1, "stats bs=6,8");
    CHECK(s.best_bs == 2 && fabs(s.best_fill - 7.0 / 16) < 1e-12, "stats best block size %d fill %g", s.best_bs,
          s.best_fill);
    r[6] = 5; /* out of range */
    CHECK(spmv_triplets_stats(&t, &s) == SPMV_ERR_ARG, "stats rejects out-of-range rows");
    t.nrows = 0;
    t.ncols = 0;
    t.nnz = 0;
    CHECK(spmv_triplets_stats(&t, &s) == SPMV_OK && s.row_max == 0 && s.best_fill == 0.0, "stats of an empty matrix");
}

/* ---- allocation failure: every allocation checked, nothing leaked, outputs empty ---------- */
static void test_allocfail(void) {
    const char *longline, *sym, *vec;
    char keep[3][320]; /* tpath's buffers rotate: the paths are kept here */
    spmv_triplets g;
    double dv[3] = {1, 2, 3};
    int op;
    {
        size_t n = (size_t)2 << 20, k;
        char *big = (char *)malloc(n + 200);
        strcpy(big, "%%MatrixMarket matrix coordinate real general\n%");
        k = strlen(big);
        memset(big + k, 'y', n);
        strcpy(big + k + n, "\n2 2 1\n2 2 3.5\n");
        snprintf(keep[0], sizeof keep[0], "%s", write_text("af_long.mtx", big));
        longline = keep[0];
        free(big);
    }
    snprintf(keep[1], sizeof keep[1], "%s",
             write_text("af_sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n3 1 2\n"));
    sym = keep[1];
    snprintf(keep[2], sizeof keep[2], "%s", write_text("af_vec.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n"));
    vec = keep[2];
    spmv_gen("band:n=20,bw=2", &g, NULL);
    for (op = 0; op < 12; op++) {
        long k;
        int ok = 1, done = 0;
        for (k = 1; k < 100 && !done; k++) {
            spmv_triplets t;
            spmv_stats s;
            spmv_error e;
            spmv_status st;
            int64_t n = 5;
            double *v = dv;
            int empty = 1;
            memset(&t, 0x11, sizeof t);
            th_alloc_count = 0;
            th_alloc_live = 0;
            th_alloc_fail_at = k;
            switch (op) {
            case 0: st = spmv_mm_read(longline, &t, &e); empty = is_empty(&t); break;
            case 1: st = spmv_mm_read(sym, &t, &e); empty = is_empty(&t); break;
            case 2: st = spmv_mm_read_dense(vec, &n, &v, &e); empty = n == 0 && v == NULL; break;
            case 3: st = spmv_mm_write(tpath("af_w.mtx"), &g, &e); break;
            case 4: st = spmv_mm_write_dense(tpath("af_wd.mtx"), 3, dv, &e); break;
            case 5: st = spmv_gen("fem:n=30,deg=4,dim=3", &t, &e); empty = is_empty(&t); break;
            case 6: st = spmv_gen("circuit:n=100,dense=2", &t, &e); empty = is_empty(&t); break;
            case 7: st = spmv_gen("lp:rows=30", &t, &e); empty = is_empty(&t); break;
            case 8: st = spmv_gen("rmat:scale=5", &t, &e); empty = is_empty(&t); break;
            case 9: st = spmv_triplets_stats(&g, &s); break;
            case 10: st = spmv_mm_read(longline, &t, NULL); empty = is_empty(&t); break;
            default: st = spmv_gen("stencil3d:n=3,pts=27", &t, NULL); empty = is_empty(&t); break;
            }
            th_alloc_fail_at = -1;
            if (st == SPMV_OK) {
                done = 1;
                if (op == 2) spmv__free(v);
                else if (op != 3 && op != 4 && op != 9) spmv_triplets_free(&t);
                if (th_alloc_live != 0) ok = 0;
            } else if (st != SPMV_ERR_ALLOC || th_alloc_live != 0 || !empty) {
                printf("  op %d, failing allocation %ld: %s, %ld blocks live, output %s\n", op, k, spmv_status_str(st),
                       th_alloc_live, empty ? "empty" : "NOT empty");
                ok = 0;
            }
        }
        CHECK(ok && done && k > 2, "allocation failures, operation %d: ALLOC, no leak, empty output (%ld allocations)", op,
              k - 1);
    }
    spmv_triplets_free(&g);
}

/* ---- the shared real-world matrices ---------------------------------------------------- */
static int tsv_col(char *header, const char *name) {
    int i = 0;
    char *p = header;
    for (;;) {
        size_t n = strcspn(p, "\t\r\n");
        if (strlen(name) == n && !strncmp(p, name, n)) return i;
        if (p[n] != '\t') return -1;
        p += n + 1;
        i++;
    }
}

/* Copies field i of a tab-separated line into out. */
static int tsv_field(const char *line, int i, char *out, size_t cap) {
    const char *p = line;
    size_t n;
    while (i-- > 0) {
        p = strchr(p, '\t');
        if (!p) return 0;
        p++;
    }
    n = strcspn(p, "\t\r\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

static void test_shared(void) {
    const char *dir = getenv("SPMV_MATRICES");
    char path[1024], line[4096], f[8][256];
    FILE *idx;
    int cname, crows, ccols, cnnzx, cfield, csym, cbytes, nfiles = 0;
    double best_bytes = -1;
    char best[1024] = "";
    if (!dir || !*dir) dir = "../shared/matrices";
    snprintf(path, sizeof path, "%s/INDEX.tsv", dir);
    idx = fopen(path, "r");
    if (!idx) {
        check_skip("shared matrices not found at %s (set SPMV_MATRICES): real-world files not read", path);
        return;
    }
    if (!fgets(line, sizeof line, idx)) {
        fclose(idx);
        CHECK(0, "INDEX.tsv is empty");
        return;
    }
    cname = tsv_col(line, "name");
    crows = tsv_col(line, "rows");
    ccols = tsv_col(line, "cols");
    cnnzx = tsv_col(line, "nnz_expanded");
    cfield = tsv_col(line, "field");
    csym = tsv_col(line, "symmetry");
    cbytes = tsv_col(line, "uncompressed_bytes");
    CHECK(cname >= 0 && crows >= 0 && ccols >= 0 && cnnzx >= 0 && cfield >= 0 && csym >= 0,
          "INDEX.tsv has the name/rows/cols/nnz_expanded/field/symmetry columns");
    if (cname < 0 || crows < 0 || ccols < 0 || cnnzx < 0 || cfield < 0 || csym < 0) {
        fclose(idx);
        return;
    }
    while (fgets(line, sizeof line, idx)) {
        spmv_triplets t;
        spmv_error e;
        spmv_status st;
        int unsupported;
        long long rows, cols, nnzx;
        if (line[0] == '\n' || line[0] == '\0') continue;
        if (!tsv_field(line, cname, f[0], sizeof f[0]) || !tsv_field(line, crows, f[1], sizeof f[1]) ||
            !tsv_field(line, ccols, f[2], sizeof f[2]) || !tsv_field(line, cnnzx, f[3], sizeof f[3]) ||
            !tsv_field(line, cfield, f[4], sizeof f[4]) || !tsv_field(line, csym, f[5], sizeof f[5])) {
            CHECK(0, "malformed INDEX.tsv line: %s", line);
            continue;
        }
        rows = atoll(f[1]);
        cols = atoll(f[2]);
        nnzx = atoll(f[3]);
        unsupported = !strcmp(f[4], "complex") || !strcmp(f[5], "hermitian");
        snprintf(path, sizeof path, "%s/%s.mtx.gz", dir, f[0]);
        st = spmv_mm_read(path, &t, &e);
        nfiles++;
        if (unsupported) {
            CHECK(st == SPMV_ERR_UNSUPPORTED && e.line == 1, "%s (%s %s): expected UNSUPPORTED, got %s: %s", f[0], f[4],
                  f[5], spmv_status_str(st), e.msg);
        } else {
            CHECK(st == SPMV_OK, "%s: %s: %s", f[0], spmv_status_str(st), e.msg);
            CHECK(st != SPMV_OK || (t.nrows == rows && t.ncols == cols && t.nnz == nnzx && indices_in_range(&t)),
                  "%s: got %lld x %lld nnz %lld, INDEX says %lld x %lld nnz_expanded %lld", f[0], (long long)t.nrows,
                  (long long)t.ncols, (long long)t.nnz, rows, cols, nnzx);
            if (cbytes >= 0 && tsv_field(line, cbytes, f[6], sizeof f[6]) && atof(f[6]) > best_bytes) {
                best_bytes = atof(f[6]);
                snprintf(best, sizeof best, "%s", path);
            }
        }
        spmv_triplets_free(&t);
    }
    fclose(idx);
    CHECK(nfiles > 0, "INDEX.tsv lists matrices");
    if (best[0]) { /* informational only */
        spmv_triplets t;
        double t0 = spmv_wtime(), dt;
        spmv_status st = spmv_mm_read(best, &t, NULL);
        dt = spmv_wtime() - t0;
        printf("parse of the largest (%s, %.1f MB uncompressed, %lld entries): %.3f s, %.0f MB/s%s\n", best,
               best_bytes / 1e6, (long long)t.nnz, dt, best_bytes / 1e6 / (dt > 0 ? dt : 1e-9),
               st == SPMV_OK ? "" : " (failed)");
        spmv_triplets_free(&t);
    }
}

/* gen:tile: a file's matrix k times, block-diagonal or as T (x) A (T tridiagonal), its values
 * kept bit for bit; the keys' errors */
static void test_tile(void) {
    spmv_triplets t, a;
    spmv_error e;
    spmv_status st;
    char spec[600];
    const char *f = write_text("tile,a.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 4\n1 1 0.1\n2 2 -0.0\n"
                                            "3 1 1e-310\n3 2 7\n");
    int64_t q, k = 4, b, c, ok = 1;
    CHECK(spmv_mm_read(f, &a, &e) == SPMV_OK, "tile: the source reads: %s", e.msg);
    snprintf(spec, sizeof spec, "tile:k=%lld,file=%s", (long long)k, f); /* a comma in the path */
    st = spmv_gen(spec, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 3 * k && t.ncols == 2 * k && t.nnz == 4 * k, "tile: block-diagonal sizes (%s)",
          e.msg);
    for (b = 0; st == SPMV_OK && b < k; b++)
        for (q = 0; q < a.nnz; q++)
            ok &= has_entry(&t, b * 3 + a.row[q], b * 2 + a.col[q], a.val[q]) &&
                  same_bits(t.val[b * a.nnz + q], a.val[q]);
    CHECK(ok, "tile: every block holds the source's entries, values bit for bit (-0.0, a denormal)");
    spmv_triplets_free(&t);
    snprintf(spec, sizeof spec, "gen:tile:kron=1,k=%lld,file=%s", (long long)k, f);
    st = spmv_load(spec, &t, &e);
    CHECK(st == SPMV_OK && t.nrows == 3 * k && t.ncols == 2 * k && t.nnz == (3 * k - 2) * 4, "tile kron=1: sizes (%s)",
          e.msg);
    for (b = 0, ok = st == SPMV_OK; ok && b < k; b++)
        for (c = 0; c < k; c++)
            for (q = 0; q < a.nnz; q++)
                ok &= has_entry(&t, b * 3 + a.row[q], c * 2 + a.col[q], a.val[q]) == (b - c <= 1 && c - b <= 1);
    CHECK(ok, "tile kron=1: the blocks of the tridiagonal, and no others");
    spmv_triplets_free(&t);
    snprintf(spec, sizeof spec, "tile:k=1,file=%s", f);
    CHECK(spmv_gen(spec, &t, &e) == SPMV_OK && triplets_equal(&t, &a), "tile k=1: the source itself");
    spmv_triplets_free(&t);
    CHECK(spmv_gen("tile:k=2", &t, &e) == SPMV_ERR_ARG && strstr(e.msg, "file=") && is_empty(&t), "tile: no file");
    snprintf(spec, sizeof spec, "tile:k=0,file=%s", f);
    CHECK(spmv_gen(spec, &t, &e) == SPMV_ERR_ARG && is_empty(&t), "tile: k=0 refused");
    snprintf(spec, sizeof spec, "tile:kron=2,file=%s", f);
    CHECK(spmv_gen(spec, &t, &e) == SPMV_ERR_ARG, "tile: kron=2 refused");
    snprintf(spec, sizeof spec, "tile:n=3,file=%s", f);
    CHECK(spmv_gen(spec, &t, &e) == SPMV_ERR_ARG && strstr(e.msg, "unknown key 'n'"), "tile: an unknown key named (%s)",
          e.msg);
    snprintf(spec, sizeof spec, "tile:k=x,file=%s", f);
    CHECK(spmv_gen(spec, &t, &e) == SPMV_ERR_ARG && strstr(e.msg, "invalid value"), "tile: a bad value");
    snprintf(spec, sizeof spec, "tile:k=4611686018427387904,file=%s", f);
    st = spmv_gen(spec, &t, &e);
    CHECK((st == SPMV_ERR_OVERFLOW || st == SPMV_ERR_LIMIT) && is_empty(&t), "tile: k beyond 64 bits: %s",
          spmv_status_str(st));
    snprintf(spec, sizeof spec, "tile:k=34359738368,file=%s", f); /* 4 x 2^35 entries */
    CHECK(spmv_gen(spec, &t, &e) == SPMV_ERR_LIMIT && is_empty(&t), "tile: beyond SPMV_GEN_MAX_NNZ: refused");
    CHECK(spmv_gen("tile:k=2,file=/nonexistent/x.mtx", &t, &e) == SPMV_ERR_IO && is_empty(&t), "tile: a missing file");
    spmv_triplets_free(&a);
}

int main(void) {
    snprintf(tmpdir_, sizeof tmpdir_, "%s", "/tmp/spmv_test_mm_XXXXXX");
    if (!mkdtemp(tmpdir_)) {
        printf("mkdtemp failed\n");
        return 2;
    }
    {
        double t0 = spmv_wtime(), t1, t2, t3, t4;
        test_good();
        t1 = spmv_wtime();
        test_bad();
        test_write_safety();
        test_locale();
        test_memory_bounds();
        test_gz_truncated();
        test_peer_rules();
        t2 = spmv_wtime();
        test_gen();
        test_tile();
        test_stats();
        test_stats_paths();
        test_allocfail();
        t3 = spmv_wtime();
        test_shared();
        t4 = spmv_wtime();
        printf("times: files %.2f s, bad inputs %.2f s, generators %.2f s, shared matrices %.2f s\n", t1 - t0, t2 - t1,
               t3 - t2, t4 - t3);
    }
    cleanup();
    return check_finish("test_mm");
}
