/* spmv — the library's command-line tool: bench, stream, info, mv.
 * Run `spmv help` for usage. */
#ifdef SPMV_TOOL_ALL_TYPES /* build/spmv-all: --precision ds, h, b, z, c beside s and d (libspmv_types.a) */
#define SPMV_ENABLE_ALL_TYPES
#endif
#include "spmv.h"
#include "anchors.h"
#include "tool_out.h"
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* bench rows: [0] = naive (the plain loop, anchor 0), [1+f] = format f, [FMT_COUNT+1] = auto,
 * then the anchor libraries a >= 1 (bench/anchors.h) */
#define TOOL_MAX_ANCHORS 8
#define TOOL_NFLAGS (SPMV_FMT_COUNT_ + 2 + TOOL_MAX_ANCHORS)
#define TOOL_ANCHOR_FLAG(a) (SPMV_FMT_COUNT_ + 1 + (a))
typedef struct tool_opts {
    int formats[TOOL_NFLAGS];
    int isas[SPMV_ISA_COUNT_];
    const struct tool_prec *prec; /* --precision */
    int threads, reps, tune, no_cache, no_calibration;
    double min_time; /* --min-time: seconds of timed calls each contender gets at least */
    int op, mm_k; /* --op: 0 mv, 1 mvt (y = A^T x), 2 mm (k = mm_k vectors, row-major) */
    const char *csv;
    double bw_read, bw_triad; /* GB/s, from the stream measurement */
} tool_opts;

/* one matrix's line of the bench's closing summary (median product times; 0: not run) */
typedef struct tool_summary {
    char matrix[48], best[48], anchor[32];
    double t_best, t_csr, t_naive, t_anchor, e2e_auto, e2e_csr, e2e_mkl;
} tool_summary;

/* progress lines: rewritten in place on a terminal, one plain line per step in a log */
static int tool_tty(void) {
    static int t = -1;
    if (t < 0) t = isatty(2);
    return t;
}
static const char *tool_cr(void) { return tool_tty() ? "\r" : "\n"; }

#define BT_TAG s
#define BT_VAL float
#define BT_ANCHORS 1
#include "bench_type.h"
#define BT_TAG d
#define BT_VAL double
#define BT_ANCHORS 1
#include "bench_type.h"
#ifdef SPMV_TOOL_ALL_TYPES
#define BT_TAG ds
#define BT_VAL float
#define BT_VEC double
#define BT_PREC "float-double"
#include "bench_type.h"
#define BT_TAG h
#define BT_VAL spmv_half
#define BT_VEC float
#define BT_PREC "half-float"
#define BT_TV(v) ((double)spmv_half_to_float(v))
#include "bench_type.h"
#define BT_TAG b
#define BT_VAL spmv_bfloat16
#define BT_VEC float
#define BT_PREC "bfloat16-float"
#define BT_TV(v) ((double)spmv_bfloat16_to_float(v))
#include "bench_type.h"
#define BT_TAG z
#define BT_VAL spmv_cdouble
#define BT_CPLX 1
#define BT_PREC "complex-double"
#include "bench_type.h"
#define BT_TAG c
#define BT_VAL spmv_cfloat
#define BT_CPLX 1
#define BT_PREC "complex-float"
#include "bench_type.h"
#endif

static int arg_error(const char *cmd, const char *opt, const char *val, const char *allowed);
#define PREC_ALLOWED "d, s, ds, h, b, z or c (spmv help: the types)"
/* --precision: every tag the library instantiates (spmv formats says what each is) */
typedef struct tool_prec {
    const char *name, *desc;
    int vbytes, xbytes, cplx; /* a stored value's bytes, a vector entry's; complex values and vectors */
    int (*bench)(const tool_opts *, const char *, const spmv_triplets *, FILE *, double, tool_summary *);
    int (*mv)(const spmv_triplets *, const spmv_opts *, int, int64_t, const double *, double *);
    spmv_status (*plan)(const spmv_triplets *, const spmv_opts *, const char *, const char *, spmv_auto_report *,
                        spmv_error *, int *);
    /* spmv calibrate: its ISA per format, under its value key (spmv_<tag>_isa_key, formats/calib.h) */
    spmv_status (*calib_isa)(spmv_isa_table *, int, const unsigned char *, spmv_error *);
    int (*isa_key)(void);
} tool_prec;
#define TOOL_PREC(t, desc, vb, xb, cx)                                                                               \
    {#t, desc, vb, xb, cx, tool_##t##_bench, tool_##t##_mv, tool_##t##_plan, spmv_##t##_calibrate_isa, spmv_##t##_isa_key}
#ifdef SPMV_TOOL_ALL_TYPES
#define TOOL_PREC_X(t, desc, vb, xb, cx) TOOL_PREC(t, desc, vb, xb, cx)
#else /* named, not built in: build/spmv-all has them */
#define TOOL_PREC_X(t, desc, vb, xb, cx) {#t, desc, vb, xb, cx, NULL, NULL, NULL, NULL, NULL}
#endif
static const tool_prec tool_precs[] = {
    TOOL_PREC(d, "double", 8, 8, 0),
    TOOL_PREC(s, "float", 4, 4, 0),
    TOOL_PREC_X(ds, "float values, double vectors", 4, 8, 0),
    TOOL_PREC_X(h, "binary16 values, float vectors", 2, 4, 0),
    TOOL_PREC_X(b, "bfloat16 values, float vectors", 2, 4, 0),
    TOOL_PREC_X(z, "double complex", 16, 16, 1),
    TOOL_PREC_X(c, "float complex", 8, 8, 1),
};
/* --precision NAME: its row; NULL (a message on stderr naming what is allowed) for a missing or
 * unknown name or one this build of the tool does not have */
static const tool_prec *tool_prec_find(const char *cmd, const char *name, const char *allowed) {
    size_t i;
    for (i = 0; name && i < sizeof tool_precs / sizeof tool_precs[0]; i++)
        if (!strcmp(name, tool_precs[i].name)) {
            if (tool_precs[i].bench) return &tool_precs[i];
            fprintf(stderr, "spmv %s: --precision %s (%s): not in this build of the tool; build/spmv-all has every "
                            "precision (ninja build/spmv-all: the optional tags' library, libspmv_types.a)\n",
                    cmd, name, tool_precs[i].desc);
            return NULL;
        }
    arg_error(cmd, "--precision", name, allowed);
    return NULL;
}

/* each command's synopsis: `spmv help CMD` and `spmv CMD --help` print its own, `spmv help` all */
static const struct {
    const char *name, *text;
} commands[] = {
    {"bench", "  spmv bench [--formats LIST|all] [--isa LIST|all] [--precision P] [--threads N] [--reps N]\n"
              "             [--min-time S] [--tune] [--no-cache] [--no-calibration] [--op mv|mvt|mm:k=N] [--csv FILE]\n"
              "             [--full] [MATRIX ...]\n"
              "      times every format (and the anchors built in) on each MATRIX; with no MATRIX the quick\n"
              "      headline (three generated matrices, csr, the selection, the plain loop and the anchors,\n"
              "      ~2 minutes), --full: every format and ISA on the eight default matrices (~15 minutes)\n"},
    {"stream", "  spmv stream [--threads N]\n"
               "      this machine's read and copy bandwidth\n"},
    {"calibrate", "  spmv calibrate [--threads N] [--precision P|both] [--file PATH] [--isa-formats LIST|all|none]\n"
                  "                 [--show]\n"
                  "      this machine's fastest ISA per format (each timed on its kind of matrix, in cache and\n"
                  "      beyond; SPMV_ISA_AUTO follows it) and CSR costs for the automatic selection, cached;\n"
                  "      --precision: both (d and s, the default), or one tag: d, s, or (build/spmv-all) ds, h,\n"
                  "      b, z, c, whose ISA picks are their own (no CSR costs: the selection uses d's and s's);\n"
                  "      --isa-formats: the formats whose ISA is measured (none: the CSR costs only);\n"
                  "      --show: print the cached numbers only\n"},
    {"info", "  spmv info MATRIX\n"
             "      sizes, row lengths, diagonals, symmetry, each CPU format's bytes per entry\n"},
    {"plan", "  spmv plan [--expect N] [--budget B] [--deterministic] [--x-fixed] [--op mv|mvt|mm:k=N]\n"
             "            [--threads N] [--precision P] [--save PLAN] [--load PLAN] [--no-calibration] MATRIX\n"
             "      the automatic selection: features, shortlist, trials, choice (--save/--load: the choice,\n"
             "      reused on the same matrix without a selection)\n"},
    {"mv", "  spmv mv [--format F|auto] [--params KEY=VAL,...] [--precision P] [--threads N] [--transpose]\n"
           "          MATRIX [--x FILE] [--out FILE|-]\n"
           "      y = A x (--transpose: y = A^T x; an X of k columns: Y = A X, m x k) to standard output\n"
           "      unless --out names a file (written to a temporary beside it and renamed into place);\n"
           "      --precision z|c: a complex MATRIX (or a real one), x complex (or real), y an 'array complex' file\n"},
    {"formats", "  spmv formats\n"
                "      each format's flags and parameter keys\n"},
};
/* --precision P of bench, plan and mv (spmv help prints it after the commands) */
static const char *precision_help = "  --precision P: d (double, the default), s (float), ds (float values, double vectors),\n"
                                    "      h / b (binary16 / bfloat16 values, float vectors), z / c (double / float complex);\n"
                                    "      the anchor libraries time s and d only\n";
enum { NCOMMANDS = (int)(sizeof commands / sizeof commands[0]) };
static int command_index(const char *name) {
    int i;
    for (i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name)) return i;
    return -1;
}
static void command_list(FILE *f) {
    int i;
    for (i = 0; i < NCOMMANDS; i++) fprintf(f, "%s, ", commands[i].name);
    fprintf(f, "help, --version");
}
static const char matrix_help[] =
    "MATRIX: a Matrix Market file (.mtx or .mtx.gz) or a generator spec gen:KIND[:key=val,...],\n"
    "        e.g. gen:stencil27 or gen:rmat:scale=18,ef=16 (an unknown KIND lists the kinds;\n"
    "        formats/io/gen.h documents their keys).\n";

static void usage(FILE *f) {
    int i;
    fprintf(f, "usage:\n");
    for (i = 0; i < NCOMMANDS; i++) fputs(commands[i].text, f);
    fprintf(f, "  spmv help [COMMAND]   (or spmv COMMAND --help)\n%s%s", matrix_help, precision_help);
    fprintf(f, "Formats: naive (the plain omp-for row loop, baseline)");
    for (i = 0; i < SPMV_FMT_COUNT_; i++)
        if (spmv_format_flags((spmv_format)i) & SPMV_FF_HOST) fprintf(f, ", %s", spmv_format_name((spmv_format)i));
    fprintf(f, ", auto (the automatic selection)\nAnchor libraries (bench rows when built in, bench/anchors.h):");
    for (i = 1; i < spmv_anchor_count(); i++) fprintf(f, " %s (%s)", spmv_anchor_name(i), spmv_anchor_info(i));
    fprintf(f, "\nEnvironment: SPMV_ISA=generic|avx2|avx512 (any case) limits auto-detection; OMP_NUM_THREADS;\n"
               "SPMV_CALIBRATION=PATH|off (the calibration file; default $XDG_CACHE_HOME or ~/.cache/spmv/calibration).\n"
               "Exit status: 0 success, 1 failure (unreadable matrix, I/O error, ...), 2 bad arguments.\n");
}
/* one command's usage */
static void usage_of(FILE *f, int c) {
    fprintf(f, "usage:\n%s", commands[c].text);
    if (strstr(commands[c].text, "MATRIX")) fputs(matrix_help, f);
    if (strstr(commands[c].text, "--precision P")) fputs(precision_help, f);
}

/* ---- argument checking: every bad argument is named with what is allowed, exit status 2 ---- */
static int arg_error(const char *cmd, const char *opt, const char *val, const char *allowed) {
    if (val) fprintf(stderr, "spmv %s: %s: '%s' is not valid (allowed: %s)\n", cmd, opt, val, allowed);
    else fprintf(stderr, "spmv %s: %s needs a value (%s)\n", cmd, opt, allowed);
    return 2;
}

/* whole-string decimal integer in [lo, hi] */
static int parse_int(const char *s, long lo, long hi, int *out) {
    char *end = NULL;
    long v;
    if (!s || !*s) return 0;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* whole-string decimal number in [lo, hi] (NaN refused) */
static int parse_num(const char *s, double lo, double hi, double *out) {
    char *end = NULL;
    double v;
    if (!s || !*s) return 0;
    v = strtod(s, &end);
    if (*end || end == s || !(v >= lo && v <= hi)) return 0;
    *out = v;
    return 1;
}

/* SPMV_ISA, checked once by the tool: a bad value is an argument error naming it */
static int check_isa_env(void) {
    const char *e = getenv("SPMV_ISA");
    spmv_isa isa = SPMV_ISA_AUTO;
    int i;
    if (!e || !*e) return 0;
    if (spmv_isa_parse(e, &isa) != SPMV_OK) {
        fprintf(stderr,
                "spmv: environment variable SPMV_ISA='%s' is not valid (allowed: generic, avx2, avx512, in any case, or "
                "auto; unset it for auto-detection)\n",
                e);
        return 2;
    }
    if (isa != SPMV_ISA_AUTO && !spmv_isa_supported(isa)) {
        fprintf(stderr, "spmv: environment variable SPMV_ISA='%s': %s is not supported by this CPU or build (supported:", e,
                spmv_isa_name(isa));
        for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
            if (spmv_isa_supported((spmv_isa)i)) fprintf(stderr, " %s", spmv_isa_name((spmv_isa)i));
        fprintf(stderr, ")\n");
        return 2;
    }
    return 0;
}

/* Memory the machine can give now (bytes; 0 if unknown): MemAvailable, else free pages. */
static double available_memory(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    double kb = 0;
    if (f) {
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "MemAvailable:", 13)) {
                kb = atof(line + 13);
                break;
            }
        fclose(f);
    }
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PAGESIZE)
    if (kb <= 0) {
        long pg = sysconf(_SC_AVPHYS_PAGES), sz = sysconf(_SC_PAGESIZE);
        if (pg > 0 && sz > 0) kb = (double)pg * (double)sz / 1024.0;
    }
#endif
    { /* an address-space limit (ulimit -v) counts too */
        struct rlimit rl;
        if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            (kb <= 0 || (double)rl.rlim_cur / 1024.0 < kb))
            kb = (double)rl.rlim_cur / 1024.0;
    }
    return kb > 0 ? kb * 1024.0 : 0;
}

/* Before any per-row allocation: the tool's formats use int32_t indices (SPMV_ERR_OVERFLOW
 * beyond), and the product's arrays must fit in the memory available now. */
static int check_product_size(const char *cmd, const char *name, const spmv_triplets *t, const tool_prec *prec) {
    double vb = prec->vbytes, xb = prec->xbytes, need, avail;
    if (t->nrows > INT32_MAX || t->ncols > INT32_MAX || t->nnz > INT32_MAX) {
        fprintf(stderr,
                "spmv %s: %s: %s (SPMV_ERR_OVERFLOW): %lld x %lld with %lld entries; the tool's formats use int32_t "
                "indices (at most %ld rows, columns and entries)\n",
                cmd, name, spmv_status_str(SPMV_ERR_OVERFLOW), (long long)t->nrows, (long long)t->ncols,
                (long long)t->nnz, (long)INT32_MAX);
        return 1;
    }
    /* x and y in double and in the format's type, row pointers of CSR and its COO step, and
       about three copies of the entries (COO, CSR, the format) */
    need = (double)(t->nrows + t->ncols) * (8.0 * (1 + prec->cplx) + xb) + 3.0 * 8.0 * ((double)t->nrows + 1.0) +
           3.0 * (8.0 * (1 + prec->cplx) + vb) * (double)t->nnz;
    avail = available_memory();
    if (avail > 0 && need > avail) {
        fprintf(stderr,
                "spmv %s: %s: matrix too large for available memory: %lld x %lld needs about %.1f GB for the product, "
                "%.1f GB available\n",
                cmd, name, (long long)t->nrows, (long long)t->ncols, need * 1e-9, avail * 1e-9);
        return 1;
    }
    return 0;
}

static int load_matrix_as(const char *spec, spmv_triplets *t, int cplx) {
    spmv_error e;
    spmv_status st;
    memset(&e, 0, sizeof e);
    /* a complex precision reads a complex file (spmv_load refuses one) */
    st = cplx && strncmp(spec, "gen:", 4) ? spmv_mm_read_opts(spec, t, SPMV_MM_COMPLEX, NULL, &e) : spmv_load(spec, t, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv: %s: %s%s%s\n", spec, spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
        return 1;
    }
    return 0;
}
static int load_matrix(const char *spec, spmv_triplets *t) { return load_matrix_as(spec, t, 0); }

/* Memory bandwidth, all threads, arrays of 256 MiB each (8x a 32 MiB last-level cache), best
 * of 8 passes. "read" is the figure the bench's %bw divides by, since an SpMV mostly reads: the
 * best of summing one, two or three arrays at once, 256 MiB in all per pass (AVX2 loads into four
 * independent sums where the CPU has AVX2, else eight scalar partial sums, so that the loop waits
 * on memory, not on the adds or the loads). More than one array, because an SpMV reads several
 * streams at once (values, indices, row pointers, x) and one stream per core does not reach the
 * memory's rate: on the AMD EPYC VM (2026-11-23, 2 threads) one array read at 22-24 GB/s, two
 * or three at 30-35, and CSR on the 300 MB stencil preset reached 103% of the one-array figure.
 * With verbose, the rest for comparison: STREAM's four kernels with STREAM's byte counts (copy
 * a = b and scale a = s*b: 16 bytes per element; add a = b + c and triad a = b + s*c: 24;
 * write-allocate traffic not counted, as STREAM does) and memcpy (16 bytes per element, split
 * over the threads). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
/* the read kernel with AVX2 loads into four independent sums: the scalar sum reads ~30% low here
 * (its loads, not memory, were the limit: 6.0 vs 8.4 GB/s on one run, 2026-11-23) */
__attribute__((target("avx2"))) static double stream_sum_avx2(const double *const *p, int k, int64_t lo,
                                                               int64_t hi) {
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
    double t[4];
    int64_t i;
    int j;
    for (i = lo; i + 16 <= hi; i += 16)
        for (j = 0; j < k; j++) {
            const double *b = p[j];
            a0 = _mm256_add_pd(a0, _mm256_loadu_pd(b + i));
            a1 = _mm256_add_pd(a1, _mm256_loadu_pd(b + i + 4));
            a2 = _mm256_add_pd(a2, _mm256_loadu_pd(b + i + 8));
            a3 = _mm256_add_pd(a3, _mm256_loadu_pd(b + i + 12));
        }
    _mm256_storeu_pd(t, _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
    for (; i < hi; i++)
        for (j = 0; j < k; j++) t[0] += p[j][i];
    return t[0] + t[1] + t[2] + t[3];
}
#define STREAM_HAVE_AVX2 1
#endif
/* the sum of p[0..k)[lo..hi) */
static double stream_sum(const double *const *p, int k, int64_t lo, int64_t hi) {
    double s = 0;
    int64_t i;
    int j;
#ifdef STREAM_HAVE_AVX2
    if (spmv_isa_supported(SPMV_ISA_AVX2)) return stream_sum_avx2(p, k, lo, hi);
#endif
    for (i = lo; i + 8 <= hi; i += 8)
        for (j = 0; j < k; j++) {
            const double *b = p[j];
            const double s0 = b[i] + b[i + 4], s1 = b[i + 1] + b[i + 5], s2 = b[i + 2] + b[i + 6], s3 = b[i + 3] + b[i + 7];
            s += (s0 + s1) + (s2 + s3);
        }
    for (; i < hi; i++)
        for (j = 0; j < k; j++) s += p[j][i];
    return s;
}
static void measure_stream(double *bw_read, double *bw_triad, int verbose) {
    enum { NK = 8 };
    size_t n = (size_t)1 << 25; /* 32M doubles = 256 MiB per array */
    double *a = SPMV_ALLOC_N(double, n), *b = SPMV_ALLOC_N(double, n), *c = SPMV_ALLOC_N(double, n);
    double best[NK] = {0}, sink = 0;
    /* bytes per element of n */
    static const double bytes[NK] = {8, 8, 8, 16, 16, 24, 24, 16};
    static const char *names[NK] = {"read 1 array", "read 2 arrays", "read 3 arrays", "copy", "scale", "add",
                                    "triad", "memcpy"};
    int rep, k;
    int64_t i, nn = (int64_t)n;
    if (!a || !b || !c) {
        fprintf(stderr, "spmv stream: out of memory\n");
        *bw_read = *bw_triad = 0;
        spmv__free(a); spmv__free(b); spmv__free(c);
        return;
    }
#pragma omp parallel for schedule(static)
    for (i = 0; i < nn; i++) a[i] = 1, b[i] = 2, c[i] = 0.5;
    for (rep = 0; rep < 8; rep++) {
        for (k = 0; k < (verbose ? NK : NK - 1); k++) {
            double t0, dt, s = 0;
            if (!verbose && k >= 3 && k <= 5) continue; /* the bench needs read and triad only */
            t0 = spmv_wtime();
            switch (k) {
            case 0:
            case 1:
            case 2: { /* k + 1 arrays, n / (k + 1) elements of each: 256 MiB in all */
                const double *const p[3] = {b, c, a};
                const int na = k + 1;
                const int64_t m = nn / na;
#pragma omp parallel reduction(+ : s)
                {
                    int t = spmv__tid(), nt = spmv__nthr();
                    s += stream_sum(p, na, m * t / nt, m * (t + 1) / nt);
                }
                break;
            }
            case 3:
#pragma omp parallel for schedule(static)
                for (i = 0; i < nn; i++) a[i] = b[i];
                break;
            case 4:
#pragma omp parallel for schedule(static)
                for (i = 0; i < nn; i++) a[i] = 3.0 * b[i];
                break;
            case 5:
#pragma omp parallel for schedule(static)
                for (i = 0; i < nn; i++) a[i] = b[i] + c[i];
                break;
            case 6:
#pragma omp parallel for schedule(static)
                for (i = 0; i < nn; i++) a[i] = b[i] + 3.0 * c[i];
                break;
            default:
#pragma omp parallel
                {
                    int t = spmv__tid(), nt = spmv__nthr();
                    size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
                    memcpy(a + lo, c + lo, (hi - lo) * sizeof(double));
                }
                break;
            }
            dt = spmv_wtime() - t0;
            sink += s + a[rep];
            { /* the reads cover n / (k + 1) elements of each of k + 1 arrays */
                const double rate = bytes[k] * (double)(k <= 2 ? nn / (k + 1) * (k + 1) : nn) / dt;
                if (rate > best[k]) best[k] = rate;
            }
        }
    }
    *bw_read = best[0] > best[1] ? best[0] : best[1];
    if (best[2] > *bw_read) *bw_read = best[2];
    *bw_read *= 1e-9;
    *bw_triad = best[6] * 1e-9;
    if (verbose) {
        printf("stream: %d threads, arrays %zu MiB, best of 8 passes (GB/s = 1e9 bytes/s):\n", spmv_max_threads(),
               n * 8 >> 20);
        for (k = 0; k < NK; k++)
            printf("  %-13s %7.2f GB/s (%2.0f bytes per element)\n", names[k], best[k] * 1e-9, bytes[k]);
        printf("  read          %7.2f GB/s (the best of the three reads)  <- the bench's %%bw divides by this\n",
               *bw_read);
        if (sink == 42) printf(" \n");
    }
    spmv__free(a); spmv__free(b); spmv__free(c);
}

/* --formats / --isa LIST: comma-separated names or "all"; an empty list or name, or an unknown
 * name, is an error naming what is allowed. */
static int parse_list(const char *cmd, const char *opt, const char *s, int *flags, int n, const char *(*name)(int),
                      int first) {
    char allowed[1024];
    size_t used = 0;
    const char *p = s;
    int i;
    allowed[0] = '\0';
    for (i = first; i < n; i++)
        if (name(i)) {
            int w = snprintf(allowed + used, sizeof allowed - used, "%s, ", name(i));
            if (w > 0 && (size_t)w < sizeof allowed - used) used += (size_t)w;
        }
    snprintf(allowed + used, sizeof allowed - used, "or all; comma-separated");
    for (i = 0; i < n; i++) flags[i] = 0;
    if (!strcmp(s, "all")) {
        for (i = 0; i < n; i++) flags[i] = 1;
        return 0;
    }
    if (!*s) return arg_error(cmd, opt, s, allowed);
    for (;;) {
        size_t len = strcspn(p, ",");
        char tok[64];
        if (len == 0 || len >= sizeof tok) return arg_error(cmd, opt, s, allowed);
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (!strcmp(tok, "all")) { /* "all,auto": every row and the selection */
            for (i = 0; i < n; i++) flags[i] = 1;
            if (!p[len]) break;
            p += len + 1;
            continue;
        }
        for (i = first; i < n; i++)
            if (name(i) && !strcmp(tok, name(i))) break;
        if (i == n) {
            spmv_format f = SPMV_FMT_COUNT_;
            if (!strcmp(opt, "--formats") && spmv_format_parse(tok, &f) == SPMV_OK && !(spmv_format_flags(f) & SPMV_FF_HOST))
                fprintf(stderr, "spmv %s: %s: '%s' has no CPU kernel (it runs on the GPU: spmv-cuda; allowed here: %s)\n",
                        cmd, opt, tok, allowed);
            else
                fprintf(stderr, "spmv %s: %s: unknown name '%s' in '%s' (allowed: %s)\n", cmd, opt, tok, s, allowed);
            return 2;
        }
        flags[i] = 1;
        if (!p[len]) break;
        p += len + 1;
    }
    return 0;
}
/* host formats only (the device-only ones have no CPU kernel) */
static const char *fmt_name_or_naive(int i) {
    if (i == 0) return "naive";
    if (i == SPMV_FMT_COUNT_ + 1) return "auto";
    if (i > SPMV_FMT_COUNT_ + 1) {
        int a = i - SPMV_FMT_COUNT_ - 1;
        return a < spmv_anchor_count() ? spmv_anchor_name(a) : NULL;
    }
    return (spmv_format_flags((spmv_format)(i - 1)) & SPMV_FF_HOST) ? spmv_format_name((spmv_format)(i - 1)) : NULL;
}
/* --isa LIST: generic, avx2, avx512 (any case; avx512emu in emulated builds), auto (per format,
 * the ISA it builds with by default: isas[SPMV_ISA_AUTO]) or all; an ISA this CPU or build lacks
 * is an error too. */
static int parse_isas(const char *s, int *isas) {
    char allowed[256];
    const char *p = s;
    int i;
    snprintf(allowed, sizeof allowed, "generic, avx2, avx512, auto or all; comma-separated; this CPU supports:");
    for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
        if (spmv_isa_supported((spmv_isa)i)) {
            size_t u = strlen(allowed);
            snprintf(allowed + u, sizeof allowed - u, " %s", spmv_isa_name((spmv_isa)i));
        }
    for (i = 0; i < SPMV_ISA_COUNT_; i++) isas[i] = 0;
    if (!strcmp(s, "all")) {
        for (i = 0; i < SPMV_ISA_COUNT_; i++) isas[i] = 1;
        return 0;
    }
    if (!*s) return arg_error("bench", "--isa", s, allowed);
    for (;;) {
        size_t len = strcspn(p, ","), k;
        char tok[32];
        spmv_isa isa;
        if (len == 0 || len >= sizeof tok) return arg_error("bench", "--isa", s, allowed);
        for (k = 0; k < len; k++) tok[k] = (char)(p[k] >= 'A' && p[k] <= 'Z' ? p[k] - 'A' + 'a' : p[k]);
        tok[len] = '\0';
        if (spmv_isa_parse(tok, &isa) != SPMV_OK) {
            fprintf(stderr, "spmv bench: --isa: unknown ISA '%.*s' in '%s' (allowed: %s)\n", (int)len, p, s, allowed);
            return 2;
        }
        if (isa != SPMV_ISA_AUTO && !spmv_isa_supported(isa)) {
            fprintf(stderr, "spmv bench: --isa: %s is not supported by this CPU or build (allowed: %s)\n",
                    spmv_isa_name(isa), allowed);
            return 2;
        }
        isas[isa] = 1;
        if (!p[len]) break;
        p += len + 1;
    }
    return 0;
}

/* the embedded default: five small presets, then three of 300 MB or more in CSR (10x the last-
 * level cache of the machines we measure on; the bandwidth claims rest on these) */
static const char *default_set[] = {"gen:stencil3d:n=40,pts=27", "gen:fem:n=20000,bs=3", "gen:rmat:scale=16,ef=16",
                                    "gen:circuit:n=100000",      "gen:band:n=200000,bw=3", "gen:stencil27big",
                                    "gen:fem3dbig",              "gen:webgraphbig"};

#define THREADS_ALLOWED "an integer from 1 to 4096"
#define REPS_ALLOWED "an integer from 1 to 1000000000"

/* the closing summary, read at a glance: per matrix our fastest format against csr, the plain
 * loop and the fastest anchor library, and the selection end to end over 1000 products
 * (selection + products) against csr's 1000 products and against mkl_ie's (its optimize + 1000
 * products, where the row ran); ratios > 1: ours is faster */
static void print_summary(const tool_summary *s, int n) {
    int i;
    if (n == 0) return;
    printf("#\n# summary (speed-ups: the reference's time / ours, > 1 = ours faster)\n");
    printf("# %-24s %-22s %8s %8s %8s %-12s %13s %13s\n", "matrix", "our fastest", "vs csr", "vs loop", "vs anchor",
           "(anchor)", "auto e2e/csr", "auto e2e/mkl");
    for (i = 0; i < n; i++) {
        char r[5][16];
        const double v[5] = {s[i].t_best > 0 && s[i].t_csr > 0 ? s[i].t_csr / s[i].t_best : 0,
                             s[i].t_best > 0 && s[i].t_naive > 0 ? s[i].t_naive / s[i].t_best : 0,
                             s[i].t_best > 0 && s[i].t_anchor > 0 ? s[i].t_anchor / s[i].t_best : 0,
                             s[i].e2e_auto > 0 && s[i].e2e_csr > 0 ? s[i].e2e_csr / s[i].e2e_auto : 0,
                             s[i].e2e_auto > 0 && s[i].e2e_mkl > 0 ? s[i].e2e_mkl / s[i].e2e_auto : 0};
        int k;
        for (k = 0; k < 5; k++) {
            if (v[k] > 0) snprintf(r[k], sizeof r[k], "%.2fx", v[k]);
            else snprintf(r[k], sizeof r[k], "-");
        }
        printf("# %-24.24s %-22.22s %8s %8s %8s %-12.12s %13s %13s\n", s[i].matrix, s[i].best, r[0], r[1], r[2],
               s[i].anchor, r[3], r[4]);
    }
}

/* `spmv bench` without a matrix: the headline (bench/run.sh runs it too). Our main formats, the
 * selection, the plain loop and the anchors on five presets, one of them beyond the L3; the
 * caller's options come after these, so they win */
static const char *const headline_opts[] = {
    "--isa", "auto", "--formats",
    "naive,csr,csr_merge,sell,hll,jad,dia,hdia,bcsr,csr5,axtuh,auto,eigen,graphblas,librsb,mkl,mkl_ie"};
static const char *const headline_set[] = {"gen:stencil3d:n=40,pts=27", "gen:fem:n=20000,bs=3", "gen:rmat:scale=16,ef=16",
                                           "gen:circuit:n=100000", "gen:stencil27big"};
/* the ISA SPMV_ISA_AUTO gives each host format here (spmv_isa_for), a line per reason it
 * gives, in the order the reasons first appear */
static void print_isa_picks(int vkey) {
    const char *why[SPMV_FMT_COUNT_];
    spmv_isa isa[SPMV_FMT_COUNT_];
    int f, g, n;
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        why[f] = NULL;
        if ((spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) &&
            spmv_isa_for((spmv_format)f, vkey, 4, SPMV_ISA_AUTO, &isa[f], &why[f]) != SPMV_OK)
            why[f] = NULL;
    }
    for (g = 0; g < SPMV_FMT_COUNT_; g++) {
        if (!why[g]) continue;
        for (f = 0; f < g && !(why[f] && !strcmp(why[f], why[g])); f++) {
        }
        if (f < g) continue; /* its reason's line is printed */
        for (n = 0, f = g; f < SPMV_FMT_COUNT_; f++)
            if (why[f] && !strcmp(why[f], why[g]))
                printf("%s %s %s", n++ ? "," : "# isa auto:", spmv_format_name((spmv_format)f), spmv_isa_name(isa[f]));
        printf(" (%s)\n", why[g]);
    }
}
static int cmd_bench(int argc, char **argv);
static int bench_headline(int argc, char **argv) {
    const char *a[64];
    int n = 0, i;
    if (argc > 40) return 2;
    for (i = 0; i < (int)(sizeof headline_opts / sizeof *headline_opts); i++) a[n++] = headline_opts[i];
    for (i = 0; i < argc; i++) a[n++] = argv[i];
    for (i = 0; i < (int)(sizeof headline_set / sizeof *headline_set); i++) a[n++] = headline_set[i];
    fprintf(stderr, "spmv bench: no matrix given: the headline (spmv bench --full: every format and ISA on the "
                    "eight default matrices, about 15 minutes)\n");
    return cmd_bench(n, (char **)a);
}

static int cmd_bench(int argc, char **argv) {
    tool_opts o;
    const char *mats[4096];
    int nm = 0, i, fails = 0, full = 0, nsum = 0;
    tool_summary sums[64];
    FILE *csv = NULL;
    memset(&o, 0, sizeof o);
    o.prec = &tool_precs[0];
    o.reps = 20;
    o.min_time = 0.2;
    for (i = 0; i < TOOL_NFLAGS; i++) o.formats[i] = 1;
    for (i = 0; i < SPMV_ISA_COUNT_; i++) o.isas[i] = 1;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--formats")) {
            int rc;
            if (!v) return arg_error("bench", a, NULL, "a comma-separated list of formats (spmv help lists them) or all");
            /* "auto" alone: every format and the auto row beside them (its oracle) */
            rc = parse_list("bench", a, strcmp(v, "auto") ? v : "all", o.formats, TOOL_NFLAGS, fmt_name_or_naive, 0);
            if (rc) return rc;
            i++;
        } else if (!strcmp(a, "--isa")) {
            int rc;
            if (!v) return arg_error("bench", a, NULL, "generic, avx2, avx512, auto or all; comma-separated");
            rc = parse_isas(v, o.isas);
            if (rc) return rc;
            i++;
        } else if (!strcmp(a, "--precision")) {
            if (!(o.prec = tool_prec_find("bench", v, PREC_ALLOWED))) return 2;
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_int(v, 1, 4096, &o.threads)) return arg_error("bench", a, v, THREADS_ALLOWED);
            i++;
        } else if (!strcmp(a, "--reps")) {
            if (!parse_int(v, 1, 1000000000, &o.reps)) return arg_error("bench", a, v, REPS_ALLOWED);
            i++;
        } else if (!strcmp(a, "--min-time")) {
            if (!parse_num(v, 0, 3600, &o.min_time)) return arg_error("bench", a, v, "seconds from 0 to 3600 (default 0.2)");
            i++;
        } else if (!strcmp(a, "--tune")) {
            o.tune = 1;
        } else if (!strcmp(a, "--no-cache")) {
            o.no_cache = 1;
        } else if (!strcmp(a, "--full")) {
            full = 1;
        } else if (!strcmp(a, "--no-calibration")) {
            o.no_calibration = 1;
        } else if (!strcmp(a, "--op")) {
            if (v && !strcmp(v, "mv")) o.op = 0;
            else if (v && !strcmp(v, "mvt")) o.op = 1;
            else if (v && !strncmp(v, "mm:k=", 5) && parse_int(v + 5, 1, 4096, &o.mm_k)) o.op = 2;
            else return arg_error("bench", a, v, "mv, mvt or mm:k=N (N from 1 to 4096)");
            i++;
        } else if (!strcmp(a, "--csv")) {
            if (!v || !*v) return arg_error("bench", a, v, "a file name");
            o.csv = v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spmv bench: unknown option '%s' (options: --formats, --isa, --precision, --threads, --reps, "
                            "--tune, --no-cache, --no-calibration, --op, --csv, --full; spmv help bench)\n", a);
            return 2;
        } else if (!*a) {
            return arg_error("bench", "MATRIX", a, "a Matrix Market file or gen:SPEC");
        } else if (nm < 4096) {
            mats[nm++] = a;
        } else {
            fprintf(stderr, "spmv bench: more than 4096 matrices\n");
            return 2;
        }
    }
#ifdef _OPENMP
    if (o.threads) omp_set_num_threads(o.threads);
#endif
    if (nm == 0 && !full && o.prec != &tool_precs[0]) {
        fprintf(stderr, "spmv bench: --precision %s: name the matrices (or --full); the headline is double\n", o.prec->name);
        return 2;
    }
    if (nm == 0 && !full) return bench_headline(argc, argv);
    if (nm == 0) {
        for (i = 0; i < (int)(sizeof default_set / sizeof default_set[0]); i++) mats[nm++] = default_set[i];
        fprintf(stderr, "spmv bench: --full: the embedded default set, every format and ISA\n");
    }
    if (o.csv) { /* rows to a temporary, the file written at the end (bench/tool_out.h) */
        char why[200];
        if (tool_out_check(o.csv, why, sizeof why) != 0 || !(csv = tmpfile())) {
            fprintf(stderr, "spmv bench: cannot write '%s': %s\n", o.csv, csv ? why : strerror(errno));
            return 2;
        }
        fprintf(csv, "matrix,rows,cols,nnz,format,params,isa,threads,precision,convert_s,convert_spmvs,tune_s,spmv_s,"
                     "kernel_s,gflops,gbs,bytes_per_nnz,fill,pct_bw,x_naive,max_rel_err,x_cusparse,x_cusparse_alg2,spmv_min_s,"
                     "spread,samples,gflops_cache,op\n");
    }
    measure_stream(&o.bw_read, &o.bw_triad, 0);
    printf("# spmv bench: precision %s (%s), %d threads, ISAs:", o.prec->name, o.prec->desc, spmv_max_threads());
    for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
        if (spmv_isa_supported((spmv_isa)i)) printf(" %s", spmv_isa_name((spmv_isa)i));
    printf("; measured read bandwidth %.1f GB/s (triad %.1f)\n", o.bw_read, o.bw_triad);
    print_isa_picks(o.prec->isa_key());
    printf("# convert = from CSR, in seconds and in SpMVs of the format; tune = parameter search (--tune);\n"
           "# spmv_s = median time of one y = A*x as a solver pays it (formats embedding x, AXC/AXT, copy the\n"
           "# new x in first); kernel_s = the product alone (x already in place: the papers' timing);\n"
           "# GFLOP/s = 2 nnz / spmv_s; GB/s = (format bytes + x + y) / spmv_s; fill = stored values per entry\n"
           "# (padding, block fill); %%bw = GB/s / measured read\n"
           "# bandwidth; xnaive = naive time / spmv_s; err = max over rows of |y - y_ref| / sum|a_ij x_j|\n"
           "# against a long-double reference; cacheGF = GFLOP/s of the same format on a middle slice of the\n"
           "# rows that fits a quarter of the last-level cache, timed alone (the compute rate; --no-cache)\n"
           "# timing: per matrix, every row's object is built first, then they are timed side by side in\n"
           "# rounds (round robin, each round in a fresh random order, fixed seed); each sample is one warm-up call\n"
           "# then k calls back to back (k: about 100 us of calls), and a row gets samples until it has\n"
           "# --reps of them and 0.2 s; spmv_s and kernel_s are medians, iqr = (p75 - p25) / median\n"
           "# naive = the plain omp-for row loop built with -O3 -march=native (bench/anchors.cc)\n");
    for (i = 1; i < spmv_anchor_count(); i++)
        printf("# anchor %s: %s%s\n", spmv_anchor_name(i), spmv_anchor_available(i) ? "" : "no row: ",
               spmv_anchor_info(i));
    printf("%-24s %9s %9s %10s %-9s %-16s %-9s %3s %8s %7s %7s %10s %10s %5s %7s %6s %6s %5s %6s %6s %9s %7s\n", "matrix",
           "rows", "cols", "nnz", "format", "params", "isa", "thr", "convert", "conv_mv", "tune_s", "spmv_s",
           "kernel_s", "iqr", "GFLOP/s", "GB/s", "B/nnz", "fill", "%bw", "xnaive", "err", "cacheGF");
    for (i = 0; i < nm; i++) {
        spmv_triplets t;
        double t0 = spmv_wtime();
        /* the objects of a matrix's rows live together while timed: groups of them up to
         * half the memory available now */
        double mem_budget = 0.5 * available_memory();
        fprintf(stderr, "[%d/%d] %s: loading...%s", i + 1, nm, mats[i], tool_cr());
        if (load_matrix_as(mats[i], &t, o.prec->cplx)) {
            fails++;
            continue;
        }
        if (check_product_size("bench", mats[i], &t, o.prec)) {
            spmv_triplets_free(&t);
            fails++;
            continue;
        }
        fprintf(stderr, "[%d/%d] %s: %lld x %lld, %lld entries (%.1f s to load)\n", i + 1, nm, mats[i],
                (long long)t.nrows, (long long)t.ncols, (long long)t.nnz, spmv_wtime() - t0);
        {
            /* a file by its name; a generator by its spec (a tiled file: the spec with the file's name) */
            const char *slash = strrchr(mats[i], '/'), *f = strstr(mats[i], "file=");
            char base[256];
            if (!strncmp(mats[i], "gen:", 4) && f && slash)
                snprintf(base, sizeof base, "%.*s%s", (int)(f + 5 - mats[i]), mats[i], slash + 1);
            else
                snprintf(base, sizeof base, "%s", !strncmp(mats[i], "gen:", 4) || !slash ? mats[i] : slash + 1);
            fails += o.prec->bench(&o, base, &t, csv, mem_budget, &sums[nsum]);
            if (nsum < 63) nsum++;
        }
        spmv_triplets_free(&t);
    }
    if (csv) {
        spmv_error e;
        if (tool_out_finish(csv, o.csv, &e) != SPMV_OK) {
            fprintf(stderr, "spmv bench: %s\n", e.msg);
            fails++;
        }
    }
    print_summary(sums, nsum);
    if (fails) fprintf(stderr, "spmv bench: %d failure(s) (conversion errors or error above tolerance)\n", fails);
    return fails ? 1 : 0;
}

static void print_stats(const char *name, const spmv_stats *s) {
    int b;
    printf("matrix      %s\n", name);
    printf("rows        %lld\ncols        %lld\nnnz         %lld\n", (long long)s->nrows, (long long)s->ncols,
           (long long)s->nnz);
    printf("row length  min %lld  avg %.2f  max %lld  stddev %.2f\n", (long long)s->row_min, s->row_avg,
           (long long)s->row_max, s->row_sd);
    printf("empty rows  %lld\n", (long long)s->empty_rows);
    printf("diagonals   %lld\n", (long long)s->ndiags);
    printf("bandwidth   %lld (lower %lld, upper %lld)\n", (long long)s->bandwidth, (long long)s->lower_bw,
           (long long)s->upper_bw);
    printf("blocks      ");
    for (b = 0; b < SPMV_STATS_NBS; b++)
        printf("%dx%d density %.2f%s", s->block_bs[b], s->block_bs[b], s->block_fill[b],
               b + 1 < SPMV_STATS_NBS ? ", " : "\n");
    printf("best block  %dx%d (density %.2f: entries / stored values)\n", s->best_bs, s->best_bs, s->best_fill);
}

/* every host format's bytes per entry for A (double values, 32-bit indices, default
 * parameters; a format that refuses A is left out), as the layout built from it holds them */
static void print_format_bytes(const spmv_d_csr *A) {
    int f, n = 0;
    if (A->nnz <= 0) return;
    printf("bytes/entry");
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        spmv_d_any M;
        spmv_opts o = spmv_opts_default();
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        o.format = (spmv_format)f;
        if (spmv_d_any_from_csr(&M, A, &o, NULL) != SPMV_OK) continue;
        printf("%s %s %.2f", n++ ? "," : "", spmv_format_name((spmv_format)f),
               (double)spmv_d_any_bytes(&M) / (double)A->nnz);
        spmv_d_any_free(&M);
    }
    printf("\n");
}
static int cmd_info(int argc, char **argv) {
    spmv_triplets t;
    spmv_stats s;
    spmv_status st;
    int i;
    const char *mat = NULL;
    for (i = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "spmv info: unknown option '%s' (usage: spmv info MATRIX)\n", argv[i]);
            return 2;
        }
        if (mat) {
            fprintf(stderr, "spmv info: unexpected argument '%s' (one MATRIX only)\n", argv[i]);
            return 2;
        }
        mat = argv[i];
    }
    if (!mat || !*mat) return arg_error("info", "MATRIX", mat, "a Matrix Market file or gen:SPEC");
    if (load_matrix(mat, &t)) return 1;
    st = spmv_triplets_stats(&t, &s);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv info: %s: statistics: %s\n", mat, spmv_status_str(st));
        spmv_triplets_free(&t);
        return 1;
    }
    print_stats(mat, &s);
    if (t.nrows <= 4 * t.nnz + (1 << 20) && t.ncols <= 4 * t.nnz + (1 << 20)) { /* the dimensions fit in memory */
        spmv_d_csr A; /* bcsr's own choice (sampled, candidates up to 32): what bs=0 converts with */
        int bs = 0;
        double ratio = 0;
        if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
            if (spmv_d_bcsr_estimate(&A, &bs, &ratio) == SPMV_OK)
                printf("bcsr        bs=%d (estimate), fill ratio %.2f (stored values / entries)\n", bs, ratio);
            print_format_bytes(&A);
            spmv_d_csr_free(&A);
        }
    }
    spmv_triplets_free(&t);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "spmv info: error writing to standard output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

/* spmv plan: what the automatic selection (formats/auto.h) sees, tries and chooses */
static int cmd_plan(int argc, char **argv) {
    spmv_opts ao = spmv_opts_default();
    spmv_auto_report R;
    spmv_triplets t;
    spmv_error e;
    spmv_status st;
    const char *mat = NULL, *save = NULL, *load = NULL;
    const tool_prec *prec = &tool_precs[0];
    int i, threads = 0, plan_err = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--save") || !strcmp(a, "--load")) {
            if (!v || !*v) return arg_error("plan", a, v, "a file name");
            if (a[2] == 's') save = v;
            else load = v;
            i++;
            continue;
        }
        if (!strcmp(a, "--expect") || !strcmp(a, "--budget")) {
            double d;
            if (!parse_num(v, a[2] == 'e' ? 1 : 0, 1e18, &d))
                return arg_error("plan", a, v, a[2] == 'e' ? "a number of products >= 1" : "a number of SpMVs >= 0");
            if (a[2] == 'e') ao.expected_calls = d;
            else ao.budget = d;
            i++;
        } else if (!strcmp(a, "--deterministic")) {
            ao.deterministic = 1;
        } else if (!strcmp(a, "--no-calibration")) {
            ao.calibration = 1;
        } else if (!strcmp(a, "--x-fixed")) {
            ao.x_changes = 0;
        } else if (!strcmp(a, "--op")) { /* mvt: choose for A^T (opts.transpose); mm:k=N: opts.mm_k */
            if (v && !strcmp(v, "mv")) ao.transpose = 0, ao.mm_k = 0;
            else if (v && !strcmp(v, "mvt")) ao.transpose = 1;
            else if (v && !strncmp(v, "mm:k=", 5) && parse_int(v + 5, 1, 4096, &ao.mm_k)) ao.transpose = 0;
            else return arg_error("plan", a, v, "mv, mvt or mm:k=N (N from 1 to 4096)");
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_int(v, 1, 4096, &threads)) return arg_error("plan", a, v, THREADS_ALLOWED);
            i++;
        } else if (!strcmp(a, "--precision")) {
            if (!(prec = tool_prec_find("plan", v, PREC_ALLOWED))) return 2;
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spmv plan: unknown option '%s' (options: --expect, --budget, --deterministic, --x-fixed, "
                            "--op, --save, --load, --threads, --precision, --no-calibration)\n", a);
            return 2;
        } else if (mat) {
            fprintf(stderr, "spmv plan: unexpected argument '%s' (one MATRIX only)\n", a);
            return 2;
        } else {
            mat = a;
        }
    }
    if (!mat || !*mat) return arg_error("plan", "MATRIX", mat, "a Matrix Market file or gen:SPEC");
#ifdef _OPENMP
    if (threads) omp_set_num_threads(threads);
#endif
    if (spmv_opts_check(&ao, &e) != SPMV_OK) {
        fprintf(stderr, "spmv plan: %s\n", e.msg);
        return 2;
    }
    if (load_matrix_as(mat, &t, prec->cplx)) return 1;
    if (check_product_size("plan", mat, &t, prec)) {
        spmv_triplets_free(&t);
        return 1;
    }
    st = prec->plan(&t, &ao, save, load, &R, &e, &plan_err);
    spmv_triplets_free(&t);
    if (st != SPMV_OK && plan_err) { /* the plan file is at fault, not the matrix */
        fprintf(stderr, "spmv plan: %s\n", e.msg);
        return 1;
    }
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv plan: %s: %s (%s)\n", mat, spmv_status_str(st), e.msg);
        return 1;
    }
    {
        const spmv_auto_features *F = &R.feat;
        printf("matrix       %s (%s, %d threads)\n", mat, prec->desc, spmv_max_threads());
        printf("options      expect %.0f products, budget %.3g SpMVs (at least %.3g s), x %s%s\n", ao.expected_calls,
               ao.budget, ao.min_seconds, ao.x_changes ? "changes every call" : "fixed",
               ao.deterministic ? ", deterministic" : "");
        printf("features     %lld x %lld, %lld entries; rows: mean %.2f, cv %.2f, max %lld, %lld empty (%.3g s)\n",
               (long long)F->nrows, (long long)F->ncols, (long long)F->nnz, F->row_mean, F->row_cv,
               (long long)F->row_max, (long long)F->empty_rows, R.features_s);
        printf("             diagonals %lld (sampled): DIA fill %.2f, HDIA fill %.2f; ELL fill %.2f, slice fill %.2f (sorted %.2f)\n",
               (long long)F->ndiags, F->dia_fill, F->hdia_fill, F->ell_fill, F->sell_fill, F->sell_sorted_fill);
        if (F->bcsr_bs)
            printf("             BCSR estimate %dx%d, fill %.2f, bytes %.2f x CSR\n", F->bcsr_bs, F->bcsr_bs, F->bcsr_fill,
                   F->bcsr_bytes_ratio);
        else
            printf("             BCSR: no block structure (few neighbouring columns)\n");
        printf("             csrdu estimate: bytes %.2f x CSR, %.0f%% of the entries in 1- or 2-byte units\n",
               F->du_bytes_ratio, 100 * F->du_narrow);
        printf("             CSR + x + y %.1f MB, last-level cache %.1f MB\n", F->csr_bytes / 1e6, F->llc_bytes / 1e6);
        if (!load) {
            const spmv_calibration *C = &R.cal;
            printf("calibration  %s\n", R.cal_note);
            printf("             %s: CSR %.1f GB/s from memory, %.3g ns an entry in cache, %.2g us a product's fixed cost\n",
                   C->machine, C->bw / 1e9, C->cache_s * 1e9, C->fixed_s * 1e6);
            printf("predicted    CSR %.3g s a product (a floor); looking may cost %.3g s (%.0f%% of %.0f products, or a "
                   "tenth of the best predicted saving)\n",
                   R.csr_pred_s, R.risk_s, 100 * 0.02, ao.expected_calls);
        }
        if (R.fresh_s_per_mb > 0)
            printf("fresh pages  %.2f ms a MiB (x and y first touched): %.0f MB/s, the floor under a conversion's cost\n",
                   R.fresh_s_per_mb * 1e3, 1.048576 / R.fresh_s_per_mb);
        printf("shortlist    (predicted speedup over CSR, the rule; trial: conversion, product, score = conversion "
               "+ %.0f products)\n", ao.expected_calls);
        for (i = 0; i < R.ncand; i++) {
            const spmv_auto_cand *c = &R.cand[i];
            printf("  %c %-10s %5.2f  %-62.62s ", i == R.chosen_idx ? '*' : ' ', spmv_format_name(c->fmt), c->predicted,
                   c->rule);
            if (c->tried > 0)
                printf("conv %9.3e s  spmv %9.3e s  score %9.3e s\n", c->convert_s, c->spmv_s, c->score_s);
            else
                printf("%s\n", c->skip ? c->skip : "not timed");
        }
        printf("left out    ");
        for (i = 0; i < R.nleft; i++) printf(" %s (%s)%s", spmv_format_name(R.left[i]), R.left_why[i], i + 1 < R.nleft ? ";" : "");
        if (R.duel)
            printf("\nconfirm      %s against CSR, timed in turn (medians of %d each): %.3e s vs %.3e s: %s",
                   spmv_format_name(R.cand[R.duel_idx].fmt), R.duel_n, R.duel_chosen_s, R.duel_csr_s,
                   R.duel > 0 ? "kept" : "CSR instead");
        printf("\nchoice       %s: %s\n", spmv_format_name(R.chosen), R.why);
        printf("cost         %.3g s in all (%.3g s inspecting, budget %.3g s), %.1f products of %s, %d formats timed\n",
               R.select_s, R.features_s, R.budget_s, R.select_spmvs, spmv_format_name(R.chosen), R.trials);
        if (!load) { /* what the user pays over expected_calls */
            const double n = R.opts.expected_calls, tc = R.csr_spmv_s > 0 ? R.csr_spmv_s : R.csr_pred_s;
            const double tx = R.chosen_spmv_s > 0 ? R.chosen_spmv_s : tc, gain = tc - tx;
            const double mine = R.select_s + n * tx, plain = n * tc;
            const spmv_auto_cand *ch = &R.cand[R.chosen_idx];
            printf("end to end   %.0f products: selection + products %.3g s, plain CSR %.3g s%s (%.2fx)\n", n, mine, plain,
                   R.csr_spmv_s > 0 ? "" : " (predicted)", plain / mine);
            if (R.chosen != SPMV_FMT_CSR)
                printf("             predicted gain %.2fx (%s); measured %.2fx: %.3g s saved a product, %.3g s over %.0f "
                       "products; selection spent %.3g s (%.1f CSR products): break-even after %.0f products\n",
                       ch->predicted, ch->rule, tx > 0 ? tc / tx : 0, gain, n * gain, n, R.select_s, R.select_s / tc,
                       gain > 0 ? R.select_s / gain : INFINITY);
            else
                printf("             CSR kept: the selection spent %.3g s (%.1f CSR products, %.1f%% of the %.0f "
                       "products) looking\n",
                       R.select_s, R.select_s / tc, 100 * R.select_s / plain, n);
        }
        if (load) {
            char op[32];
            if (R.opts.transpose || R.opts.mm_k <= 0) snprintf(op, sizeof op, "%s", R.opts.transpose ? "mvt" : "mv");
            else snprintf(op, sizeof op, "mm:k=%d", R.opts.mm_k);
            printf("plan         loaded from %s, made for --op %s (no inspection, no trials: the lines above are empty)\n",
                   load, op);
        }
        if (save) printf("plan         saved to %s\n", save);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "spmv plan: error writing to standard output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

static int cmd_mv(int argc, char **argv) {
    const char *fmt_s = "csr", *xfile = NULL, *out = NULL, *mat = NULL, *params = NULL;
    const tool_prec *prec = &tool_precs[0];
    char herm_params[256];
    spmv_opts bo = spmv_opts_default(); /* the build of --format (not auto) */
    int is_auto, transpose = 0, tri = 0, threads = 0;
    spmv_triplets t;
    spmv_error e;
    double *x = NULL, *y = NULL;
    int i, rc;
    int64_t n, kk = 1;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--format")) {
            if (!v || !*v) return arg_error("mv", a, v, "a format name; spmv formats lists them");
            fmt_s = argv[++i];
        } else if (!strcmp(a, "--x")) {
            if (!v || !*v) return arg_error("mv", a, v, "a Matrix Market array file holding x (k columns: k vectors)");
            xfile = argv[++i];
        } else if (!strcmp(a, "--params")) {
            if (!v) return arg_error("mv", a, v, "KEY=VAL,... of the format; spmv formats lists the keys");
            params = argv[++i];
        } else if (!strcmp(a, "--transpose")) {
            transpose = 1;
        } else if (!strcmp(a, "--out")) {
            if (!v || !*v) return arg_error("mv", a, v, "a file name, or - for standard output");
            out = argv[++i];
        } else if (!strcmp(a, "--precision")) {
            if (!(prec = tool_prec_find("mv", v, PREC_ALLOWED))) return 2;
            i++;
        } else if (!strcmp(a, "--threads")) {
            if (!parse_int(v, 1, 4096, &threads)) return arg_error("mv", a, v, THREADS_ALLOWED);
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spmv mv: unknown option '%s' (options: --format, --params, --precision, --threads, --transpose, "
                    "--x, --out)\n", a);
            return 2;
        } else if (mat) {
            fprintf(stderr, "spmv mv: unexpected argument '%s' (one MATRIX only)\n", a);
            return 2;
        } else {
            mat = a;
        }
    }
    if (!mat || !*mat) return arg_error("mv", "MATRIX", mat, "a Matrix Market file or gen:SPEC");
#ifdef _OPENMP
    if (threads) omp_set_num_threads(threads);
#endif
    is_auto = !strcmp(fmt_s, "auto");
    bo.params = params;
    if (strcmp(fmt_s, "auto") && spmv_format_parse(fmt_s, &bo.format) != SPMV_OK) {
        fprintf(stderr, "spmv mv: --format: unknown format '%s' (spmv formats lists them, or auto)\n", fmt_s);
        return 2;
    }
    if (is_auto && params) {
        fprintf(stderr, "spmv mv: --params: not with --format auto (the selection sets them)\n");
        return 2;
    }
    if (!is_auto && !(spmv_format_flags(bo.format) & SPMV_FF_HOST)) {
        fprintf(stderr, "spmv mv: --format: '%s' has no CPU kernel (it runs on the GPU: spmv-cuda)\n", fmt_s);
        return 2;
    }
    if (!is_auto) {
        spmv_any_params p;
        spmv_error pe;
        memset(&pe, 0, sizeof pe);
        if (spmv_any_params_init(bo.format, params, &p, &pe) != SPMV_OK) {
            fprintf(stderr, "spmv mv: --params: %s\n", pe.msg);
            return 2;
        }
    }
    if (!is_auto && (spmv_format_flags(bo.format) & SPMV_FF_SYMMETRIC) && strncmp(mat, "gen:", 4)) {
        /* a symmetric file read as stored (one triangle) straight into the symmetric format */
        spmv_status st;
        memset(&e, 0, sizeof e);
        st = spmv_mm_read_opts(mat, &t, SPMV_MM_ONE_TRIANGLE | (prec->cplx ? SPMV_MM_COMPLEX : 0), &tri, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv: %s: %s%s%s\n", mat, spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
            return 1;
        }
        if (tri == 2) { /* a hermitian file's triangle: its mirrors are conjugates (sss's herm=1) */
            snprintf(herm_params, sizeof herm_params, "herm=1%s%.200s", params ? "," : "", params ? params : "");
            bo.params = herm_params;
        }
    } else if (load_matrix_as(mat, &t, prec->cplx)) {
        return 1;
    }
    if (transpose) { /* y = A^T x: the format is built from A^T (the library's opts.transpose) */
        int64_t *sw = t.row, d = t.nrows;
        t.row = t.col;
        t.col = sw;
        t.nrows = t.ncols;
        t.ncols = d;
    }
    if (check_product_size("mv", mat, &t, prec)) {
        spmv_triplets_free(&t);
        return 1;
    }
    memset(&e, 0, sizeof e);
    if (xfile) {
        int64_t xm = 0;
        spmv_status st = prec->cplx ? spmv_mm_read_array_complex(xfile, &xm, &n, &x, &e) /* (re, im) pairs */
                                    : spmv_mm_read_array(xfile, &xm, &n, &x, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv mv: %s: %s: %s\n", xfile, spmv_status_str(st), e.msg);
            spmv_triplets_free(&t);
            return 1;
        }
        /* an ncols x k array: k vectors (Y is nrows x k); a 1 x ncols row: one vector */
        if (xm == 1 && n == t.ncols && n != 1) {
            kk = 1;
        } else if (xm == t.ncols && n >= 1) {
            kk = n;
        } else {
            fprintf(stderr, "spmv mv: x has %lld entries (%lld x %lld), the matrix %lld columns\n", (long long)(xm * n),
                    (long long)xm, (long long)n, (long long)t.ncols);
            spmv__free(x);
            spmv_triplets_free(&t);
            return 1;
        }
    } else {
        x = SPMV_ALLOC_N(double, t.ncols * (1 + prec->cplx));
        if (x)
            for (n = 0; n < t.ncols * (1 + prec->cplx); n++) x[n] = prec->cplx && (n & 1) ? 0 : 1; /* 1 (+ 0i) */
    }
    y = SPMV_ALLOC_N(double, t.nrows * kk * (1 + prec->cplx)); /* complex: (re, im) pairs */
    if (!x || !y) {
        fprintf(stderr, "spmv mv: %s: out of memory for x and y (%lld + %lld values)\n", mat, (long long)t.ncols,
                (long long)t.nrows);
        spmv__free(x);
        spmv__free(y);
        spmv_triplets_free(&t);
        return 1;
    }
    rc = prec->mv(&t, is_auto ? NULL : &bo, tri, kk, x, y);
    if (!rc) {
        /* standard output is the process's stream (appending, pipes, sockets all work); a file
           is written beside its name and renamed into place; nothing is ever removed */
        int to_stdout = !out || !strcmp(out, "-");
        spmv_status st = prec->cplx ? spmv_mm_write_array_complex(to_stdout ? NULL : out, stdout, t.nrows, kk, y, &e)
                         : kk > 1    ? spmv_mm_write_array(to_stdout ? NULL : out, stdout, t.nrows, kk, y, &e)
                         : to_stdout ? spmv_mm_write_dense_fp(stdout, t.nrows, y, &e)
                                     : spmv_mm_write_dense(out, t.nrows, y, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv mv: %s: %s\n", to_stdout ? "standard output" : out, e.msg);
            rc = 1;
        }
    }
    spmv__free(x);
    spmv__free(y);
    spmv_triplets_free(&t);
    return rc;
}

/* host formats only, by registry index (calibrate --isa-formats) */
static const char *host_fmt_name(int i) {
    return (spmv_format_flags((spmv_format)i) & SPMV_FF_HOST) ? spmv_format_name((spmv_format)i) : NULL;
}
/* one format's ISA pick and its times (in cache us, beyond ms, per ISA) */
static void print_isa_pick(const spmv_isa_table *t, int f) {
    int i;
    printf("  %-10s %-9s", spmv_format_name((spmv_format)f), spmv_isa_name(t->pick[f]));
    for (i = 1; i < SPMV_ISA_COUNT_; i++)
        if (t->secs[f][i][0] > 0)
            printf("  %s %.1f us / %.2f ms", spmv_isa_name((spmv_isa)i), t->secs[f][i][0] * 1e6, t->secs[f][i][1] * 1e3);
    printf("\n");
}
/* calibrate's ISA picks for one precision: measured (want), merged over this key's cached
 * picks, saved; or, with show, the cached ones */
static int calibrate_isas(const tool_prec *p, const unsigned char *want, const char *path, int make_dirs, int show) {
    spmv_isa_table t, old;
    spmv_error e;
    spmv_status st;
    int f, n = 0;
    memset(&old, 0, sizeof old);
    spmv_calibration_machine(old.machine, sizeof old.machine);
    old.threads = spmv_max_threads(), old.value_bytes = p->isa_key(), old.index_bytes = 4;
    st = spmv_isa_table_load(path, &old, &e);
    if (show) {
        if (st != SPMV_OK) {
            printf("%-7s ISA per format: %s (the built-in order: the widest)\n", p->desc, e.msg);
            return 0;
        }
        printf("%-7s ISA per format (cached):\n", p->desc);
        for (f = 0; f < SPMV_FMT_COUNT_; f++)
            if (old.pick[f]) print_isa_pick(&old, f);
        return 0;
    }
    st = p->calib_isa(&t, 0, want, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv calibrate: %s\n", e.msg);
        return 1;
    }
    printf("%-7s ISA per format, %d threads (in cache / beyond the last-level cache, per product; measured in %.1f s):\n",
           p->desc, t.threads, t.measure_s);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (t.pick[f]) print_isa_pick(&t, f), n++;
        else if (old.threads == t.threads && old.pick[f]) t.pick[f] = old.pick[f]; /* kept */
    }
    if (!n) return 0;
    if (spmv_isa_table_save(path, &t, make_dirs, &e) != SPMV_OK) {
        fprintf(stderr, "spmv calibrate: %s\n", e.msg);
        return 1;
    }
    return 0;
}
/* calibrate's CSR costs for one precision: measured and saved, or, with show, the cached ones */
static int calibrate_csr(int vb, const char *path, int make_dirs, int show) {
    spmv_calibration c;
    spmv_error e;
    spmv_status st;
    if (show) {
        spmv_isa isa = SPMV_ISA_GENERIC;
        (void)spmv_isa_for(SPMV_FMT_CSR, vb, 4, SPMV_ISA_AUTO, &isa, NULL);
        spmv_calibration_builtin(&c, spmv_max_threads(), vb, 4, isa);
        if (spmv_calibration_load(path, &c, &e) != SPMV_OK) {
            printf("%s: %s (the selection uses built-in values)\n", vb == 8 ? "double" : "float", e.msg);
            return 0;
        }
    } else {
        st = vb == 8 ? spmv_d_calibrate(&c, 0, SPMV_ISA_AUTO, &e) : spmv_s_calibrate(&c, 0, SPMV_ISA_AUTO, &e);
        if (st == SPMV_OK) st = spmv_calibration_save(path, &c, make_dirs, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv calibrate: %s\n", e.msg);
            return 1;
        }
    }
    printf("%-7s %s, %d threads, %s: CSR %.1f GB/s from memory, %.3g ns an entry in cache, %.2g us fixed, fresh "
           "pages %.3g ms a MiB, inspection %.3g ns a row",
           vb == 8 ? "double" : "float", c.machine, c.threads, spmv_isa_name(c.isa), c.bw / 1e9, c.cache_s * 1e9,
           c.fixed_s * 1e6, c.fresh_s_per_mb * 1e3, c.feat_s * 1e9);
    if (show) printf(" (cached)\n");
    else printf(" (measured in %.2f s)\n", c.measure_s);
    return 0;
}
/* spmv calibrate: this machine's ISA per format and CSR costs for the selection, measured
 * and cached. The ISAs first: the CSR costs are measured with csr's pick. */
/* Can `path` be created or replaced? Its directory must exist and be writable and the path must
 * not be a directory: said before measuring (a measurement takes a minute or more), with the
 * error the save would meet; 0 and errno set if not. */
static int calib_target_ok(const char *path) {
    char dir[512];
    const char *slash = strrchr(path, '/');
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return 0;
    }
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return 0;
    }
    return access(dir, W_OK | X_OK) == 0;
}

static int cmd_calibrate(int argc, char **argv) {
    const char *file = NULL, *prec = "both";
    char path[512];
    int i, threads = 0, show = 0, rc = 0, make_dirs = 0, flags[SPMV_FMT_COUNT_], isas = 1;
    unsigned char want[SPMV_FMT_COUNT_];
    for (i = 0; i < SPMV_FMT_COUNT_; i++) flags[i] = 1;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--threads")) {
            if (!parse_int(v, 1, 4096, &threads)) return arg_error("calibrate", a, v, THREADS_ALLOWED);
            i++;
        } else if (!strcmp(a, "--precision")) {
            if ((!v || strcmp(v, "both")) && !tool_prec_find("calibrate", v, "both (d and s), " PREC_ALLOWED)) return 2;
            prec = v;
            i++;
        } else if (!strcmp(a, "--file")) {
            if (!v || !*v) return arg_error("calibrate", a, v, "a file name");
            file = v;
            i++;
        } else if (!strcmp(a, "--isa-formats")) {
            if (!v) return arg_error("calibrate", a, v, "format names, all or none");
            isas = strcmp(v, "none") != 0;
            if (isas && parse_list("calibrate", a, v, flags, SPMV_FMT_COUNT_, host_fmt_name, 0)) return 2;
            i++;
        } else if (!strcmp(a, "--show")) {
            show = 1;
        } else {
            fprintf(stderr, "spmv calibrate: unknown argument '%s' (options: --threads, --precision, --file, "
                            "--isa-formats, --show)\n", a);
            return 2;
        }
    }
    for (i = 0; i < SPMV_FMT_COUNT_; i++) want[i] = (unsigned char)(flags[i] != 0);
    if (file) {
        if (strlen(file) >= sizeof path) { /* never cut: the cut path would name another file */
            fprintf(stderr, "spmv calibrate: --file: the path is longer than %d characters\n", (int)sizeof path - 1);
            return 2;
        }
        snprintf(path, sizeof path, "%s", file);
        if (!show && !calib_target_ok(path)) {
            fprintf(stderr, "spmv calibrate: cannot create '%s': %s\n", path, strerror(errno));
            return 1;
        }
        setenv("SPMV_CALIBRATION", path, 1); /* the builders' ISA picks come from this file */
    } else if (!spmv_calibration_default_path(path, sizeof path)) {
        fprintf(stderr, "spmv calibrate: no calibration file: %s (name one with --file)\n",
                spmv_calibration_off() ? "SPMV_CALIBRATION=off" : "HOME is not set");
        return 1;
    } else {
        make_dirs = !getenv("SPMV_CALIBRATION");
    }
#ifdef _OPENMP
    if (threads) omp_set_num_threads(threads);
#endif
    if (!isas && strcmp(prec, "both") && strcmp(prec, "d") && strcmp(prec, "s")) {
        fprintf(stderr, "spmv calibrate: --precision %s with --isa-formats none: nothing to measure (the CSR costs "
                        "are d's and s's)\n", prec);
        return 2;
    }
    /* both: d and s; an optional tag: its ISA picks only (the selection's CSR costs are keyed
     * by the real types' sizes) */
    for (i = 0; i < (int)(sizeof tool_precs / sizeof tool_precs[0]); i++) {
        const tool_prec *p = &tool_precs[i];
        const int real = !p->cplx && p->vbytes == p->xbytes; /* d, s */
        if (strcmp(prec, p->name) && !(real && !strcmp(prec, "both"))) continue;
        if (isas && calibrate_isas(p, want, path, make_dirs, show)) rc = 1;
        else if (real && calibrate_csr(p->vbytes, path, make_dirs, show)) rc = 1;
    }
    if (!show && !rc) printf("saved to %s\n", path);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "spmv calibrate: error writing to standard output: %s\n", strerror(errno));
        return 1;
    }
    return rc;
}

static int cmd_stream(int argc, char **argv) {
    double r, t;
    int i, threads = 0;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--threads")) {
            if (!parse_int(i + 1 < argc ? argv[i + 1] : NULL, 1, 4096, &threads))
                return arg_error("stream", "--threads", i + 1 < argc ? argv[i + 1] : NULL, THREADS_ALLOWED);
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "spmv stream: unknown option '%s' (usage: spmv stream [--threads N])\n", argv[i]);
            return 2;
        } else {
            fprintf(stderr, "spmv stream: unexpected argument '%s' (usage: spmv stream [--threads N])\n", argv[i]);
            return 2;
        }
    }
#ifdef _OPENMP
    if (threads) omp_set_num_threads(threads);
#endif
    measure_stream(&r, &t, 1);
    return r > 0 ? 0 : 1;
}

/* `spmv formats`' last part: the value types a program can instantiate and how this CPU converts
 * the stored values of each (docs/USAGE.md, "Precision"); the tool itself multiplies s and d */
static void print_value_types(void) {
    const int a2 = spmv_isa_supported(SPMV_ISA_AVX2), a5 = spmv_isa_supported(SPMV_ISA_AVX512);
    const int h2 = spmv__isa_converts16(SPMV_ISA_AVX2), h5 = spmv__isa_converts16(SPMV_ISA_AVX512);
    printf("value types (tag: values/vectors and sums, the macro before including spmv.h; how this CPU reads "
           "the values):\n");
    printf("  s   float/float        (always)\n  d   double/double      (always)\n");
    printf("  ds  float/double       SPMV_ENABLE_DS  widened in the vector registers (vcvtps2pd)%s\n",
           a2 || a5 ? "" : "; no AVX2 here: the portable kernels' C conversion");
    printf("  h   binary16/float     SPMV_ENABLE_H   %s%s; the portable ISA converts in software, lane by lane "
           "(several instructions a value)\n",
           h5 ? "AVX-512 vcvtph2ps (with AVX-512BW for the masked loads)"
              : a5 ? "AVX-512 kernels not used (no AVX-512BW here)" : "",
           h2 ? (h5 ? ", AVX2 with F16C" : "AVX2 with F16C") : (h5 ? "" : "no conversion instruction here"));
    printf("  b   bfloat16/float     SPMV_ENABLE_B   shifted into float's upper half (an integer shift, every ISA)\n");
    printf("  SPMV_ENABLE_ALL_TYPES instantiates ds, h and b; a 16-bit tag has every host format (AXT: values widened)\n");
}

int main(int argc, char **argv) {
    int rc;
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc > 3 || (argc == 3 && command_index(argv[2]) < 0)) {
            fprintf(stderr, "spmv help: '%s' is not a command (commands: ", argv[2]);
            command_list(stderr);
            fprintf(stderr, ")\n");
            return 2;
        }
        if (argc == 3) usage_of(stdout, command_index(argv[2]));
        else usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (rc = 2; rc < argc; rc++)
        if ((!strcmp(argv[rc], "--help") || !strcmp(argv[rc], "-h")) && command_index(argv[1]) >= 0) {
            usage_of(stdout, command_index(argv[1])); /* every command answers --help with its own */
            return 0;
        }
    rc = check_isa_env();
    if (rc) return rc;
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("spmv %s\n", SPMV_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(argv[1], "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(argv[1], "plan")) return cmd_plan(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mv")) return cmd_mv(argc - 2, argv + 2);
    if (!strcmp(argv[1], "stream")) return cmd_stream(argc - 2, argv + 2);
    if (!strcmp(argv[1], "calibrate")) return cmd_calibrate(argc - 2, argv + 2);
    if (!strcmp(argv[1], "formats")) {
        int i;
        if (argc > 2) {
            fprintf(stderr, "spmv formats: unexpected argument '%s' (it takes none)\n", argv[2]);
            return 2;
        }
        for (i = 0; i < SPMV_FMT_COUNT_; i++) {
            unsigned fl = spmv_format_flags((spmv_format)i);
            char desc[2048];
            spmv_format_describe((spmv_format)i, desc, sizeof desc);
            printf("%s  [%s%s%s%s%s]\n%s", spmv_format_name((spmv_format)i), fl & SPMV_FF_HOST ? "cpu" : "gpu-only",
                   fl & SPMV_FF_CUDA ? ",cuda" : "", fl & SPMV_FF_EMBEDS_X ? ",embeds-x" : "",
                   fl & SPMV_FF_TUNABLE ? ",tunable" : "", fl & SPMV_FF_WIDTH ? ",width" : "", desc);
        }
        print_value_types();
        return 0;
    }
    fprintf(stderr, "spmv: unknown command '%s' (commands: ", argv[1]);
    command_list(stderr);
    fprintf(stderr, "; spmv help COMMAND for one)\n");
    return 2;
}
