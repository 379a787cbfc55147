/* choose_format — your own CSR arrays (float), the format chosen at run time from a string,
 * then the automatic selection; every product checked against a plain loop.
 *   gcc -std=c11 -O2 -fopenmp -I. examples/choose_format.c -lm
 *   ./choose_format [FORMAT [PARAMS]]        e.g.  ./choose_format sell c=8   ./choose_format bcsr bs=2
 * FORMAT: a name of `spmv formats` (default sell); PARAMS: its "key=value,..." (optional).
 * Exit status 0 when every product matched, 1 when one did not, 2 on a bad name or key. */
#include "spmv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64 /* a 2-D Laplacian on an N x N grid, built by hand as the caller's own arrays */

/* max |y - A x| / max |A x|, with A x summed in double by the plain loop */
static double check(const int32_t *rp, const int32_t *ci, const float *v, int32_t n, const float *x, const float *y) {
    double worst = 0, scale = 0;
    int32_t i, k;
    for (i = 0; i < n; i++) {
        double s = 0;
        for (k = rp[i]; k < rp[i + 1]; k++) s += (double)v[k] * x[ci[k]];
        if (fabs(s) > scale) scale = fabs(s);
        if (fabs(s - y[i]) > worst) worst = fabs(s - y[i]);
    }
    return scale > 0 ? worst / scale : worst;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "sell", *params = argc > 2 ? argv[2] : NULL;
    const int32_t n = N * N;
    int32_t *rp = malloc(sizeof *rp * (size_t)(n + 1)), *ci = malloc(sizeof *ci * (size_t)n * 5);
    float *v = malloc(sizeof *v * (size_t)n * 5), *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    spmv_opts o = spmv_opts_default();
    spmv_error err;
    spmv_status st;
    spmv_s_csr A;
    spmv_s_any M;
    spmv_s_auto U;
    double e1, e2;
    int32_t i, j, k = 0;
    if (!rp || !ci || !v || !x || !y) return 1;
    for (i = 0; i < N; i++) /* the caller's arrays: sorted columns in each row */
        for (j = 0; j < N; j++) {
            const int32_t r = i * N + j;
            rp[r] = k;
            if (i > 0) ci[k] = r - N, v[k++] = -1;
            if (j > 0) ci[k] = r - 1, v[k++] = -1;
            ci[k] = r, v[k++] = 4;
            if (j < N - 1) ci[k] = r + 1, v[k++] = -1;
            if (i < N - 1) ci[k] = r + N, v[k++] = -1;
        }
    rp[n] = k;
    for (i = 0; i < n; i++) x[i] = (float)(1 + i % 5);

    /* 1. wrap: no copy, the arrays stay yours (checked once, never freed by the library) */
    if ((st = spmv_s_csr_wrap(&A, n, n, rp, ci, v, NULL, NULL)) != SPMV_OK) {
        fprintf(stderr, "wrap: %s\n", spmv_status_str(st));
        return 1;
    }
    /* 2. the format from a string: an unknown name or key is refused, with the reason */
    if (spmv_format_parse(name, &o.format) != SPMV_OK) {
        fprintf(stderr, "unknown format '%s' (spmv formats lists them)\n", name);
        return 2;
    }
    o.params = params;
    if ((st = spmv_s_any_from_csr(&M, &A, &o, &err)) != SPMV_OK) {
        fprintf(stderr, "%s: %s: %s\n", name, spmv_status_str(st), err.msg);
        return st == SPMV_ERR_ARG ? 2 : 1;
    }
    {
        char p[128];
        spmv_s_any_params_str(&M, p, sizeof p);
        if ((st = spmv_s_any_mv(&M, 1.0f, x, 0.0f, y)) != SPMV_OK) return 1;
        e1 = check(rp, ci, v, n, x, y);
        printf("%s (%s, %s kernels): %lld x %lld, %lld entries, max rel. error %.2g\n", spmv_format_name(M.fmt), p,
               spmv_isa_name(spmv_s_any_isa(&M)), (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, e1);
    }
    spmv_s_any_free(&M);

    /* 3. or let the library choose, for the number of products you will run */
    o = spmv_opts_default();
    o.expected_calls = 200;
    o.borrow = 1; /* your arrays outlive the handle: a CSR choice uses them in place */
    if ((st = spmv_s_auto_from_csr(&U, &A, &o, &err)) != SPMV_OK) {
        fprintf(stderr, "auto: %s: %s\n", spmv_status_str(st), err.msg);
        return 1;
    }
    if ((st = spmv_s_auto_mv(&U, 1.0f, x, 0.0f, y)) != SPMV_OK) return 1;
    e2 = check(rp, ci, v, n, x, y);
    printf("auto chose %s: %s; max rel. error %.2g\n", spmv_format_name(U.rep.chosen), U.rep.why, e2);
    spmv_s_auto_free(&U);
    spmv_s_csr_free(&A); /* a wrapped matrix: frees nothing of yours */
    free(rp), free(ci), free(v), free(x), free(y);
    return e1 < 1e-5 && e2 < 1e-5 ? 0 : 1;
}
