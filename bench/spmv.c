/* spmv — the library's command-line tool: bench, stream, info, mv.
 * Run `spmv help` for usage. */
#include "spmv.h"
#include <stdio.h>
#include <errno.h>

#define STR_(x) #x
#define STR(x) STR_(x)

typedef struct tool_opts {
    int formats[SPMV_FMT_COUNT_ + 1]; /* [0] = naive, [1+f] = format f */
    int isas[SPMV_ISA_COUNT_];
    char precision; /* 'd' or 's' */
    int threads, reps, tune;
    const char *csv;
    double bw_read, bw_triad; /* GB/s, from the stream measurement */
} tool_opts;

#define BT_TAG s
#define BT_VAL float
#include "bench_type.h"
#define BT_TAG d
#define BT_VAL double
#include "bench_type.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage:\n"
            "  spmv bench [--formats LIST|all] [--isa LIST|all] [--precision d|s] [--threads N] [--reps N]\n"
            "             [--tune] [--csv FILE] [MATRIX ...]\n"
            "  spmv stream [--threads N]\n"
            "  spmv info MATRIX\n"
            "  spmv mv [--format F] [--params KEY=VAL,...] [--precision d|s] MATRIX [--x FILE] [--out FILE]\n"
            "  spmv formats      (each format's flags and parameter keys)\n"
            "MATRIX: a Matrix Market file (.mtx or .mtx.gz) or a generator spec gen:KIND[:key=val,...]\n"
            "        (see formats/gen.h), e.g. gen:stencil27 or gen:rmat:scale=18,ef=16.\n"
            "With no MATRIX, bench runs a small embedded set (generated in-process).\n"
            "Formats: naive (the plain omp-for row loop, baseline)");
    {
        int i;
        for (i = 0; i < SPMV_FMT_COUNT_; i++)
            if (spmv_format_flags((spmv_format)i) & SPMV_FF_HOST) fprintf(f, ", %s", spmv_format_name((spmv_format)i));
    }
    fprintf(f, "\nEnvironment: SPMV_ISA=generic|avx2|avx512 limits auto-detection; OMP_NUM_THREADS.\n");
}

static int load_matrix(const char *spec, spmv_triplets *t) {
    spmv_error e;
    spmv_status st;
    memset(&e, 0, sizeof e);
    st = spmv_load(spec, t, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv: %s: %s%s%s\n", spec, spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
        return 1;
    }
    return 0;
}

/* Memory bandwidth, all threads: read (sum of an array) and triad (a = b + s*c),
 * best of several passes over arrays far larger than the last-level cache. */
static void measure_stream(double *bw_read, double *bw_triad, int verbose) {
    size_t n = (size_t)1 << 25; /* 32M doubles = 256 MiB per array */
    double *a = SPMV_ALLOC_N(double, n), *b = SPMV_ALLOC_N(double, n), *c = SPMV_ALLOC_N(double, n);
    double best_r = 0, best_t = 0, sink = 0;
    int rep;
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
        double t0 = spmv_wtime(), s = 0, dt;
        /* eight independent sums, so the loop is limited by memory, not by the add latency */
#pragma omp parallel for schedule(static) reduction(+ : s)
        for (i = 0; i < nn; i += 8) {
            double s0 = b[i] + b[i + 4], s1 = b[i + 1] + b[i + 5], s2 = b[i + 2] + b[i + 6], s3 = b[i + 3] + b[i + 7];
            s += (s0 + s1) + (s2 + s3);
        }
        dt = spmv_wtime() - t0;
        sink += s;
        if (8.0 * (double)n / dt > best_r) best_r = 8.0 * (double)n / dt;
        t0 = spmv_wtime();
#pragma omp parallel for schedule(static)
        for (i = 0; i < nn; i++) a[i] = b[i] + 3.0 * c[i];
        dt = spmv_wtime() - t0;
        if (24.0 * (double)n / dt > best_t) best_t = 24.0 * (double)n / dt;
    }
    *bw_read = best_r * 1e-9;
    *bw_triad = best_t * 1e-9;
    if (verbose)
        printf("stream: %d threads, arrays %zu MiB: read %.2f GB/s, triad %.2f GB/s (best of 8)%s\n",
               spmv_max_threads(), n * 8 >> 20, *bw_read, *bw_triad, sink == 42 ? " " : "");
    spmv__free(a); spmv__free(b); spmv__free(c);
}

static int parse_list(const char *s, int *flags, int n, const char *(*name)(int), const char *what) {
    char buf[1024], *tok, *save;
    int i;
    for (i = 0; i < n; i++) flags[i] = 0;
    if (!strcmp(s, "all")) {
        for (i = 0; i < n; i++) flags[i] = 1;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        for (i = 0; i < n; i++)
            if (!strcmp(tok, name(i))) break;
        if (i == n) {
            fprintf(stderr, "spmv: unknown %s '%s'\n", what, tok);
            return 1;
        }
        flags[i] = 1;
    }
    return 0;
}
static const char *fmt_name_or_naive(int i) { return i == 0 ? "naive" : spmv_format_name((spmv_format)(i - 1)); }
static const char *isa_name_i(int i) { return i == 0 ? "auto" : spmv_isa_name((spmv_isa)i); }

static const char *default_set[] = {"gen:stencil3d:n=40,pts=27", "gen:fem:n=20000,bs=3", "gen:rmat:scale=16,ef=16",
                                    "gen:circuit:n=100000", "gen:band:n=200000,bw=3"};

static int cmd_bench(int argc, char **argv) {
    tool_opts o;
    const char *mats[4096];
    int nm = 0, i, fails = 0;
    FILE *csv = NULL;
    memset(&o, 0, sizeof o);
    o.precision = 'd';
    o.reps = 20;
    for (i = 0; i <= SPMV_FMT_COUNT_; i++) o.formats[i] = 1;
    for (i = 0; i < SPMV_ISA_COUNT_; i++) o.isas[i] = 1;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--formats") && v) {
            if (parse_list(v, o.formats, SPMV_FMT_COUNT_ + 1, fmt_name_or_naive, "format")) return 2;
            i++;
        } else if (!strcmp(a, "--isa") && v) {
            if (parse_list(v, o.isas, SPMV_ISA_COUNT_, isa_name_i, "isa")) return 2;
            if (!strcmp(v, "avx512")) o.isas[SPMV_ISA_AVX512] = 1;
            i++;
        } else if (!strcmp(a, "--precision") && v && (v[0] == 'd' || v[0] == 's') && !v[1]) {
            o.precision = v[0];
            i++;
        } else if (!strcmp(a, "--threads") && v && atoi(v) > 0) {
            o.threads = atoi(v);
            i++;
        } else if (!strcmp(a, "--reps") && v && atoi(v) > 0) {
            o.reps = atoi(v);
            i++;
        } else if (!strcmp(a, "--tune")) {
            o.tune = 1;
        } else if (!strcmp(a, "--csv") && v) {
            o.csv = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "spmv bench: bad option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (nm < 4096) {
            mats[nm++] = a;
        }
    }
#ifdef _OPENMP
    if (o.threads) omp_set_num_threads(o.threads);
#endif
    if (nm == 0) {
        for (i = 0; i < (int)(sizeof default_set / sizeof default_set[0]); i++) mats[nm++] = default_set[i];
        fprintf(stderr, "spmv bench: no matrix given, running the embedded default set\n");
    }
    if (o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            fprintf(stderr, "spmv bench: %s: %s\n", o.csv, strerror(errno));
            return 2;
        }
        fprintf(csv, "matrix,rows,cols,nnz,format,params,isa,threads,precision,convert_s,convert_spmvs,tune_s,spmv_s,"
                     "kernel_s,gflops,gbs,bytes_per_nnz,pct_bw,x_naive,max_rel_err,x_cusparse,x_cusparse_alg2\n");
    }
    measure_stream(&o.bw_read, &o.bw_triad, 0);
    printf("# spmv bench: precision %s, %d threads, ISAs:", o.precision == 'd' ? "double" : "float",
           spmv_max_threads());
    for (i = SPMV_ISA_GENERIC; i < SPMV_ISA_COUNT_; i++)
        if (spmv_isa_supported((spmv_isa)i)) printf(" %s", spmv_isa_name((spmv_isa)i));
    printf("; measured read bandwidth %.1f GB/s (triad %.1f)\n", o.bw_read, o.bw_triad);
    printf("# convert = from CSR, in seconds and in SpMVs of the format; tune = parameter search (--tune);\n"
           "# spmv_s = median time of one y = A*x as a solver pays it (formats embedding x, AXC/AXT, copy the\n"
           "# new x in first); kernel_s = the product alone (x already in place: the papers' timing);\n"
           "# GFLOP/s = 2 nnz / spmv_s; GB/s = (format bytes + x + y) / spmv_s; %%bw = GB/s / measured read\n"
           "# bandwidth; xnaive = naive time / spmv_s; err = max over rows of |y - y_ref| / sum|a_ij x_j|\n"
           "# against a long-double reference\n");
    printf("%-24s %9s %9s %10s %-9s %-16s %-9s %3s %8s %7s %7s %10s %10s %7s %6s %6s %6s %6s %9s\n", "matrix", "rows",
           "cols", "nnz", "format", "params", "isa", "thr", "convert", "conv_mv", "tune_s", "spmv_s", "kernel_s",
           "GFLOP/s", "GB/s", "B/nnz", "%bw", "xnaive", "err");
    for (i = 0; i < nm; i++) {
        spmv_triplets t;
        double t0 = spmv_wtime();
        fprintf(stderr, "[%d/%d] %s: loading...\r", i + 1, nm, mats[i]);
        if (load_matrix(mats[i], &t)) {
            fails++;
            continue;
        }
        fprintf(stderr, "[%d/%d] %s: %lld x %lld, %lld entries (%.1f s to load)\n", i + 1, nm, mats[i],
                (long long)t.nrows, (long long)t.ncols, (long long)t.nnz, spmv_wtime() - t0);
        {
            const char *base = strrchr(mats[i], '/');
            base = base ? base + 1 : mats[i];
            fails += o.precision == 'd' ? tool_d_bench(&o, base, &t, csv) : tool_s_bench(&o, base, &t, csv);
        }
        spmv_triplets_free(&t);
    }
    if (csv) fclose(csv);
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
        printf("%dx%d fill %.2f%s", s->block_bs[b], s->block_bs[b], s->block_fill[b], b + 1 < SPMV_STATS_NBS ? ", " : "\n");
    printf("best block  %dx%d (fill %.2f)\n", s->best_bs, s->best_bs, s->best_fill);
}

static int cmd_info(int argc, char **argv) {
    spmv_triplets t;
    spmv_stats s;
    spmv_status st;
    if (argc != 1) {
        usage(stderr);
        return 2;
    }
    if (load_matrix(argv[0], &t)) return 1;
    st = spmv_triplets_stats(&t, &s);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv info: %s\n", spmv_status_str(st));
        spmv_triplets_free(&t);
        return 1;
    }
    print_stats(argv[0], &s);
    spmv_triplets_free(&t);
    return 0;
}

static int cmd_mv(int argc, char **argv) {
    const char *fmt_s = "csr", *xfile = NULL, *out = NULL, *mat = NULL, *params = NULL;
    char prec = 'd';
    spmv_format fmt;
    spmv_triplets t;
    spmv_error e;
    double *x = NULL, *y = NULL;
    int i, rc;
    int64_t n;
    for (i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--format") && v) fmt_s = argv[++i];
        else if (!strcmp(argv[i], "--x") && v) xfile = argv[++i];
        else if (!strcmp(argv[i], "--params") && v) params = argv[++i];
        else if (!strcmp(argv[i], "--out") && v) out = argv[++i];
        else if (!strcmp(argv[i], "--precision") && v && (v[0] == 'd' || v[0] == 's')) prec = argv[++i][0];
        else if (argv[i][0] != '-' && !mat) mat = argv[i];
        else {
            usage(stderr);
            return 2;
        }
    }
    if (!mat) {
        usage(stderr);
        return 2;
    }
    fmt = spmv_format_parse(fmt_s);
    if (fmt == SPMV_FMT_COUNT_) {
        fprintf(stderr, "spmv mv: unknown format '%s' (spmv formats lists them)\n", fmt_s);
        return 2;
    }
    if (!(spmv_format_flags(fmt) & SPMV_FF_HOST)) {
        fprintf(stderr, "spmv mv: format '%s' has no CPU kernel (it runs on the GPU: spmv-cuda)\n", fmt_s);
        return 2;
    }
    {
        spmv_any_params p;
        spmv_error pe;
        if (spmv_any_params_init(fmt, params, &p, &pe) != SPMV_OK) {
            fprintf(stderr, "spmv mv: --params: %s\n", pe.msg);
            return 2;
        }
    }
    if (load_matrix(mat, &t)) return 1;
    if (xfile) {
        spmv_status st = spmv_mm_read_dense(xfile, &n, &x, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv mv: %s: %s: %s\n", xfile, spmv_status_str(st), e.msg);
            spmv_triplets_free(&t);
            return 1;
        }
        if (n != t.ncols) {
            fprintf(stderr, "spmv mv: x has %lld entries, the matrix %lld columns\n", (long long)n, (long long)t.ncols);
            spmv__free(x);
            spmv_triplets_free(&t);
            return 1;
        }
    } else {
        x = SPMV_ALLOC_N(double, t.ncols);
        if (x)
            for (n = 0; n < t.ncols; n++) x[n] = 1;
    }
    y = SPMV_ALLOC_N(double, t.nrows);
    if (!x || !y) {
        fprintf(stderr, "spmv mv: out of memory\n");
        return 1;
    }
    rc = prec == 'd' ? tool_d_mv(&t, fmt, params, x, y) : tool_s_mv(&t, fmt, params, x, y);
    if (!rc) {
        spmv_status st = spmv_mm_write_dense(out ? out : "/dev/stdout", t.nrows, y, &e);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv mv: %s: %s\n", out ? out : "stdout", e.msg);
            rc = 1;
        }
    }
    spmv__free(x);
    spmv__free(y);
    spmv_triplets_free(&t);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(argv[1], "info")) return cmd_info(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mv")) return cmd_mv(argc - 2, argv + 2);
    if (!strcmp(argv[1], "stream")) {
        double r, t;
        if (argc == 4 && !strcmp(argv[2], "--threads")) {
#ifdef _OPENMP
            omp_set_num_threads(atoi(argv[3]));
#endif
        }
        measure_stream(&r, &t, 1);
        return r > 0 ? 0 : 1;
    }
    if (!strcmp(argv[1], "formats")) {
        int i;
        for (i = 0; i < SPMV_FMT_COUNT_; i++) {
            unsigned fl = spmv_format_flags((spmv_format)i);
            char desc[2048];
            spmv_format_describe((spmv_format)i, desc, sizeof desc);
            printf("%s  [%s%s%s%s%s]\n%s", spmv_format_name((spmv_format)i), fl & SPMV_FF_HOST ? "cpu" : "gpu-only",
                   fl & SPMV_FF_CUDA ? ",cuda" : "", fl & SPMV_FF_EMBEDS_X ? ",embeds-x" : "",
                   fl & SPMV_FF_TUNABLE ? ",tunable" : "", fl & SPMV_FF_WIDTH ? ",width" : "", desc);
        }
        return 0;
    }
    fprintf(stderr, "spmv: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
