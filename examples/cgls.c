/* cgls — a sparse least-squares problem, min ||A x - b||_2, by CGLS (conjugate gradients on the
 * normal equations A^T A x = A^T b, without forming A^T A): each iteration one product with A
 * and one with A^T. A^T's product two ways: csr_mvt on A itself (no A^T stored, no atomics),
 * and a handle built from A^T in another format (opts.transpose = 1); both runs must agree.
 *   gcc -std=c11 -O2 -fopenmp -I. examples/cgls.c -o cgls -lm
 *   ./cgls [MATRIX]     (a Matrix Market file or gen:SPEC; default a 20000 x 4000 random matrix)
 * b = A * ones + a perturbation outside A's range, so the residual does not vanish. Stops when
 * ||A^T r|| <= 1e-10 ||A^T b||. Checked: that bound recomputed in long double from the final x,
 * and the two runs' solutions within 1e-8 of each other. Exit 0 on success, 1 otherwise. */
#include "spmv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    spmv_d_csr *A;
    spmv_d_any *At; /* NULL: csr_mvt on A */
} op;

static spmv_status apply_t(const op *o, const double *x, double *y) {
    return o->At ? spmv_d_any_mv(o->At, 1.0, x, 0.0, y) : spmv_d_csr_mvt(o->A, 1.0, x, 0.0, y);
}
static double dot(const double *a, const double *b, int64_t n) {
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* CGLS from x = 0; returns iterations, -1 on an error */
static int cgls(const op *o, const double *b, double *x, double tol, int maxit) {
    const int64_t m = o->A->nrows, n = o->A->ncols;
    double *r = malloc(sizeof(double) * (size_t)m), *q = malloc(sizeof(double) * (size_t)m);
    double *s = malloc(sizeof(double) * (size_t)n), *p = malloc(sizeof(double) * (size_t)n);
    double gamma, norm0;
    int it = -1;
    if (!r || !q || !s || !p) goto out;
    for (int64_t i = 0; i < n; i++) x[i] = 0;
    for (int64_t i = 0; i < m; i++) r[i] = b[i];
    if (apply_t(o, r, s) != SPMV_OK) goto out; /* s = A^T r */
    for (int64_t i = 0; i < n; i++) p[i] = s[i];
    gamma = dot(s, s, n);
    norm0 = sqrt(gamma);
    for (it = 0; it < maxit && sqrt(gamma) > tol * norm0; it++) {
        double alpha, gnew;
        if (spmv_d_csr_mv(o->A, 1.0, p, 0.0, q) != SPMV_OK) { it = -1; break; } /* q = A p */
        alpha = gamma / dot(q, q, m);
        for (int64_t i = 0; i < n; i++) x[i] += alpha * p[i];
        for (int64_t i = 0; i < m; i++) r[i] -= alpha * q[i];
        if (apply_t(o, r, s) != SPMV_OK) { it = -1; break; }
        gnew = dot(s, s, n);
        for (int64_t i = 0; i < n; i++) p[i] = s[i] + gnew / gamma * p[i];
        gamma = gnew;
    }
out:
    free(r), free(q), free(s), free(p);
    return it;
}

/* ||A^T (b - A x)|| / ||A^T b||, in long double without the library */
static double normal_residual(const spmv_d_csr *A, const double *b, const double *x) {
    const int64_t m = A->nrows, n = A->ncols;
    long double *r = calloc((size_t)m + 1, sizeof(long double)), *g = calloc((size_t)n + 1, sizeof(long double));
    long double *g0 = calloc((size_t)n + 1, sizeof(long double)), num = 0, den = 0;
    for (int64_t i = 0; i < m; i++) {
        long double s = b[i];
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) s -= (long double)A->val[k] * x[A->col_idx[k]];
        r[i] = s;
    }
    for (int64_t i = 0; i < m; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            g[A->col_idx[k]] += (long double)A->val[k] * r[i];
            g0[A->col_idx[k]] += (long double)A->val[k] * b[i];
        }
    for (int64_t j = 0; j < n; j++) num += g[j] * g[j], den += g0[j] * g0[j];
    free(r), free(g), free(g0);
    return den > 0 ? (double)sqrtl(num / den) : 0;
}

int main(int argc, char **argv) {
    const char *spec = argc > 1 ? argv[1] : "gen:random:rows=20000,cols=4000,nnzr=8,seed=3";
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_d_any At;
    spmv_opts o = spmv_opts_default();
    double *b, *x1, *x2, *ones, diff = 0, res;
    int it1, it2, ok;
    if (spmv_load(spec, &t, &e) != SPMV_OK || spmv_d_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) {
        fprintf(stderr, "%s: cannot load (%s)\n", spec, e.msg);
        return 1;
    }
    spmv_triplets_free(&t);
    b = malloc(sizeof(double) * (size_t)(A.nrows + 1));
    x1 = malloc(sizeof(double) * (size_t)(A.ncols + 1));
    x2 = malloc(sizeof(double) * (size_t)(A.ncols + 1));
    ones = malloc(sizeof(double) * (size_t)(A.ncols + 1));
    if (!b || !x1 || !x2 || !ones) return 1;
    for (int64_t j = 0; j < A.ncols; j++) ones[j] = 1;
    spmv_d_csr_mv(&A, 1.0, ones, 0.0, b);
    for (int64_t i = 0; i < A.nrows; i++) b[i] += 0.01 * (double)((i * 7919) % 101 - 50) / 50.0;
    o.format = SPMV_FMT_SELL;
    o.transpose = 1; /* At's products are A^T x */
    if (spmv_d_any_from_csr(&At, &A, &o, &e) != SPMV_OK) {
        fprintf(stderr, "A^T as sell: %s\n", e.msg);
        return 1;
    }
    {
        const op direct = {&A, NULL}, built = {&A, &At};
        it1 = cgls(&direct, b, x1, 1e-10, 10 * (int)A.ncols);
        it2 = cgls(&built, b, x2, 1e-10, 10 * (int)A.ncols);
    }
    for (int64_t j = 0; j < A.ncols; j++) diff = fmax(diff, fabs(x1[j] - x2[j]));
    res = normal_residual(&A, b, x1);
    ok = it1 >= 0 && it2 >= 0 && res <= 1e-9 && diff <= 1e-8;
    printf("%s: %lld x %lld, %lld entries\n", spec, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz);
    printf("cgls with csr_mvt: %d iterations; with A^T as sell: %d; ||A^T r|| / ||A^T b|| = %.3g (limit 1e-9); "
           "max |x1 - x2| = %.3g (limit 1e-8): %s\n",
           it1, it2, res, diff, ok ? "ok" : "FAILED");
    spmv_d_any_free(&At);
    spmv_d_csr_free(&A);
    free(b), free(x1), free(x2), free(ones);
    return !ok;
}
