/* A float matrix with double vectors against the double and the float matrix, side by side:
 *   ninja build/bench_mixed && build/bench_mixed [--reps N] [--csv FILE] [--format F] MATRIX...
 * MATRIX: a Matrix Market file or gen:SPEC (formats/io/gen.h). For each, format F (default csr;
 * one that tag ds instantiates) of tag d (double matrix and vectors), ds (float matrix, double
 * vectors and sums) and s (float), the same x,
 * products alternating d, ds, s for N rounds (default 40) after a warm-up; the medians, GFLOP/s,
 * GB/s of the matrix and vectors, ds's time over d's, and the error of each against the
 * double product relative to |A||x| (ds: the values' one rounding, u_s; s: also float sums). */
#define SPMV_ENABLE_DS
#include "spmv.h"
#include "side_by_side.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>



/* max over rows of |y - yd| / (|A||x|)_r */
static double rel_err(const spmv_d_csr *D, const double *x, const double *yd, const double *y, const float *ys) {
    double w = 0;
    int32_t r, k;
    for (r = 0; r < D->nrows; r++) {
        double s = 0, d;
        for (k = D->row_ptr[r]; k < D->row_ptr[r + 1]; k++) s += fabs(D->val[k] * x[D->col_idx[k]]);
        d = fabs((y ? y[r] : (double)ys[r]) - yd[r]) / (s > 0 ? s : 1);
        w = d > w ? d : w;
    }
    return w;
}

static void run(const char *spec, spmv_format fmt, int reps, FILE *csv) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr D;
    spmv_ds_csr M0;
    spmv_s_csr S0;
    spmv_d_any HD;
    spmv_ds_any HM;
    spmv_s_any HS;
    spmv_opts o = spmv_opts_default();
    double *x, *yd, *ym, *td, *tm, *ts;
    float *xs, *ys;
    int32_t i;
    int r;
    o.format = fmt;
    if (!sbs_load(spec, &t, 0, &e) || spmv_d_csr_from_triplets(&D, &t, NULL, &e) != SPMV_OK ||
        spmv_ds_csr_from_triplets(&M0, &t, NULL, &e) != SPMV_OK || spmv_s_csr_from_triplets(&S0, &t, NULL, &e) != SPMV_OK ||
        spmv_d_any_from_csr(&HD, &D, &o, &e) != SPMV_OK || spmv_ds_any_from_csr(&HM, &M0, &o, &e) != SPMV_OK ||
        spmv_s_any_from_csr(&HS, &S0, &o, &e) != SPMV_OK) {
        fprintf(stderr, "bench_mixed: %s: %s\n", spec, e.msg);
        return;
    }
    spmv_triplets_free(&t);
    x = malloc(sizeof(double) * (size_t)D.ncols), yd = malloc(sizeof(double) * (size_t)D.nrows);
    ym = malloc(sizeof(double) * (size_t)D.nrows), xs = malloc(sizeof(float) * (size_t)D.ncols);
    ys = malloc(sizeof(float) * (size_t)D.nrows);
    td = malloc(sizeof(double) * (size_t)reps), tm = malloc(sizeof(double) * (size_t)reps);
    ts = malloc(sizeof(double) * (size_t)reps);
    if (!x || !yd || !ym || !xs || !ys || !td || !tm || !ts) abort();
    for (i = 0; i < D.ncols; i++) x[i] = 1 + 1e-3 * (double)(i % 101), xs[i] = (float)x[i];
    for (r = -3; r < reps; r++) { /* three warm-up rounds (first touch of y, the caches) */
        double t0 = spmv_wtime();
        spmv_d_any_mv(&HD, 1.0, x, 0.0, yd);
        double t1 = spmv_wtime();
        spmv_ds_any_mv(&HM, 1.0, x, 0.0, ym);
        double t2 = spmv_wtime();
        spmv_s_any_mv(&HS, 1.0f, xs, 0.0f, ys);
        double t3 = spmv_wtime();
        if (r >= 0) td[r] = t1 - t0, tm[r] = t2 - t1, ts[r] = t3 - t2;
    }
    {
        const double md = sbs_median(td, reps), mm = sbs_median(tm, reps), ms = sbs_median(ts, reps), f = 2.0 * (double)D.nnz;
        const double bd = (double)spmv_d_any_bytes(&HD) + 8.0 * (D.nrows + D.ncols);
        const double bm = (double)spmv_ds_any_bytes(&HM) + 8.0 * (D.nrows + D.ncols);
        const double bs = (double)spmv_s_any_bytes(&HS) + 4.0 * (D.nrows + D.ncols);
        const double em = rel_err(&D, x, yd, ym, NULL), es = rel_err(&D, x, yd, NULL, ys);
        printf("%-44s %-5s %9lld  d %8.3f ms %6.2f GF %6.1f GB/s | ds %8.3f ms %6.2f GF %6.1f GB/s | s %8.3f ms %6.2f GF | ds/d %.2fx  s/d %.2fx | err ds %.1e s %.1e\n",
               spec, spmv_format_name(fmt), (long long)D.nnz, md * 1e3, f / md * 1e-9, bd / md * 1e-9, mm * 1e3, f / mm * 1e-9, bm / mm * 1e-9,
               ms * 1e3, f / ms * 1e-9, md / mm, md / ms, em, es);
        if (csv)
            fprintf(csv, "\"%s\",%s,%lld,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.3e,%.3e\n", spec, spmv_format_name(fmt), (long long)D.nnz, spmv_max_threads(),
                    md, mm, ms, bd, bm, bs, em, es);
    }
    spmv_d_any_free(&HD), spmv_ds_any_free(&HM), spmv_s_any_free(&HS);
    spmv_d_csr_free(&D), spmv_ds_csr_free(&M0), spmv_s_csr_free(&S0);
    free(x), free(yd), free(ym), free(xs), free(ys), free(td), free(tm), free(ts);
}

int main(int argc, char **argv) {
    int i, reps = 40;
    spmv_format fmt = SPMV_FMT_CSR;
    FILE *csv = NULL;
    for (i = 1; i < argc; i++) {
        const int c = sbs_common_arg(argc, argv, &i, &reps, &csv, "bench_mixed", "matrix,format,nnz,threads,d_s,ds_s,s_s,d_bytes,ds_bytes,s_bytes,ds_err,s_err");
        if (c < 0) return 1;
        if (c > 0) continue;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &fmt) != SPMV_OK || !spmv_ds_any_has(fmt)) {
                fprintf(stderr, "bench_mixed: format %s: not one that tag ds instantiates\n", argv[i]);
                return 1;
            }
        } else {
            run(argv[i], fmt, reps, csv);
        }
    }
    if (csv) fclose(csv);
    return 0;
}
