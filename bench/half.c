/* 16-bit values with float vectors against the float matrix, side by side:
 *   ninja build/bench_half && build/bench_half [--reps N] [--csv FILE] [--format F] [--params P] [--isa I] MATRIX...
 * MATRIX: a Matrix Market file or gen:SPEC (formats/io/gen.h). For each, format F (default csr)
 * of tag s (float values and vectors), h (binary16 values) and b (bfloat16 values), the same float
 * x, products alternating s, h, b for N rounds (default 40) after a warm-up; the medians, GB/s of
 * the matrix and vectors, h's and b's speed over s's, and the error of each against the double
 * product relative to |A||x|. A matrix beyond binary16's range is scaled by a power of two (exact)
 * for all three, and the line says so. */
#define SPMV_ENABLE_H
#define SPMV_ENABLE_B
#include "spmv.h"
#include "side_by_side.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* max over rows of |y - yd| / (|A||x|)_r */
static double rel_err(const spmv_d_csr *D, const double *x, const double *yd, const float *y) {
    double w = 0;
    int32_t r, k;
    for (r = 0; r < D->nrows; r++) {
        double s = 0, d;
        for (k = D->row_ptr[r]; k < D->row_ptr[r + 1]; k++) s += fabs(D->val[k] * x[D->col_idx[k]]);
        d = fabs((double)y[r] - yd[r]) / (s > 0 ? s : 1);
        w = d > w ? d : w;
    }
    return w;
}
/* the triplets scaled by a power of two into binary16's range (1 when they fit); returns it */
static int fit_half(spmv_triplets *t) {
    double m = 0;
    int64_t k;
    int sh;
    for (k = 0; k < t->nnz; k++)
        if (isfinite(t->val[k]) && fabs(t->val[k]) > m) m = fabs(t->val[k]);
    if (m <= 16384) return 0;
    sh = (int)ceil(log2(m / 16384));
    for (k = 0; k < t->nnz; k++) t->val[k] = ldexp(t->val[k], -sh);
    return sh;
}

static void run(const char *spec, spmv_opts o, int reps, FILE *csv) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr D;
    spmv_s_csr S0;
    spmv_h_csr H0;
    spmv_b_csr B0;
    spmv_s_any HS;
    spmv_h_any HH;
    spmv_b_any HB;
    double *x, *yd, *ts, *th, *tb;
    float *xs, *ys, *yh, *yb;
    int32_t i;
    int r, sh;
    if (!sbs_load(spec, &t, 0, &e)) {
        fprintf(stderr, "bench_half: %s: %s\n", spec, e.msg);
        return;
    }
    sh = fit_half(&t);
    if (spmv_d_csr_from_triplets(&D, &t, NULL, &e) != SPMV_OK || spmv_s_csr_from_triplets(&S0, &t, NULL, &e) != SPMV_OK ||
        spmv_h_csr_from_triplets(&H0, &t, NULL, &e) != SPMV_OK || spmv_b_csr_from_triplets(&B0, &t, NULL, &e) != SPMV_OK ||
        spmv_s_any_from_csr(&HS, &S0, &o, &e) != SPMV_OK || spmv_h_any_from_csr(&HH, &H0, &o, &e) != SPMV_OK ||
        spmv_b_any_from_csr(&HB, &B0, &o, &e) != SPMV_OK) {
        fprintf(stderr, "bench_half: %s: %s\n", spec, e.msg);
        spmv_triplets_free(&t);
        return;
    }
    spmv_triplets_free(&t);
    x = malloc(sizeof(double) * (size_t)D.ncols), yd = malloc(sizeof(double) * (size_t)D.nrows);
    xs = malloc(sizeof(float) * (size_t)D.ncols), ys = malloc(sizeof(float) * (size_t)D.nrows);
    yh = malloc(sizeof(float) * (size_t)D.nrows), yb = malloc(sizeof(float) * (size_t)D.nrows);
    ts = malloc(sizeof(double) * (size_t)reps), th = malloc(sizeof(double) * (size_t)reps);
    tb = malloc(sizeof(double) * (size_t)reps);
    if (!x || !yd || !xs || !ys || !yh || !yb || !ts || !th || !tb) abort();
    for (i = 0; i < D.ncols; i++) xs[i] = (float)(1 + 1e-3 * (double)(i % 101)), x[i] = xs[i];
    spmv_d_csr_mv(&D, 1.0, x, 0.0, yd);
    for (r = -3; r < reps; r++) { /* three warm-up rounds (first touch of y, the caches) */
        double t0 = spmv_wtime(), t1, t2, t3;
        spmv_s_any_mv(&HS, 1.0f, xs, 0.0f, ys);
        t1 = spmv_wtime();
        spmv_h_any_mv(&HH, 1.0f, xs, 0.0f, yh);
        t2 = spmv_wtime();
        spmv_b_any_mv(&HB, 1.0f, xs, 0.0f, yb);
        t3 = spmv_wtime();
        if (r >= 0) ts[r] = t1 - t0, th[r] = t2 - t1, tb[r] = t3 - t2;
    }
    {
        const double ms = sbs_median(ts, reps), mh = sbs_median(th, reps), mb = sbs_median(tb, reps), v = 4.0 * (D.nrows + D.ncols);
        const double bs = (double)spmv_s_any_bytes(&HS) + v, bh = (double)spmv_h_any_bytes(&HH) + v;
        const double bb = (double)spmv_b_any_bytes(&HB) + v;
        const double es = rel_err(&D, x, yd, ys), eh = rel_err(&D, x, yd, yh), eb = rel_err(&D, x, yd, yb);
        printf("%-40s %-5s %9lld%s  s %8.3f ms %6.1f GB/s | h %8.3f ms %6.1f GB/s | b %8.3f ms %6.1f GB/s | s/h %.2fx s/b %.2fx | "
               "err s %.1e h %.1e b %.1e\n",
               spec, spmv_format_name(o.format), (long long)D.nnz, sh ? " (scaled)" : "", ms * 1e3, bs / ms * 1e-9, mh * 1e3,
               bh / mh * 1e-9, mb * 1e3, bb / mb * 1e-9, ms / mh, ms / mb, es, eh, eb);
        if (csv)
            fprintf(csv, "\"%s\",%s,%lld,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.3e,%.3e,%.3e\n", spec, spmv_format_name(o.format),
                    (long long)D.nnz, spmv_max_threads(), sh, ms, mh, mb, bs, bh, bb, es, eh, eb);
    }
    spmv_s_any_free(&HS), spmv_h_any_free(&HH), spmv_b_any_free(&HB);
    spmv_d_csr_free(&D), spmv_s_csr_free(&S0), spmv_h_csr_free(&H0), spmv_b_csr_free(&B0);
    free(x), free(yd), free(xs), free(ys), free(yh), free(yb), free(ts), free(th), free(tb);
}

int main(int argc, char **argv) {
    int i, reps = 40;
    spmv_opts o = spmv_opts_default();
    FILE *csv = NULL;
    for (i = 1; i < argc; i++) {
        const int c = sbs_common_arg(argc, argv, &i, &reps, &csv, "bench_half", "matrix,format,nnz,threads,scaled_by_2^-k,s_s,h_s,b_s,s_bytes,h_bytes,b_bytes,s_err,h_err,b_err");
        if (c < 0) return 1;
        if (c > 0) continue;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &o.format) != SPMV_OK || !spmv_h_any_has(o.format)) {
                fprintf(stderr, "bench_half: format %s: not one that tags h and b instantiate\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(argv[i], "--params") && i + 1 < argc) {
            o.params = argv[++i];
        } else if (!strcmp(argv[i], "--isa") && i + 1 < argc) {
            if (spmv_isa_parse(argv[++i], &o.isa) != SPMV_OK) {
                fprintf(stderr, "bench_half: isa %s: auto, generic, avx2 or avx512\n", argv[i]);
                return 1;
            }
        } else {
            run(argv[i], o, reps, csv);
        }
    }
    if (csv) fclose(csv);
    return 0;
}
