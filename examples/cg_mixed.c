/* cg_mixed — the double solver's residual from a float matrix: CG whose products use the matrix
 * in float with double vectors (tag ds), its residual replaced by the true one, b - A x with the
 * double matrix, every REPLACE iterations and before stopping.
 *   gcc -std=c11 -O2 -fopenmp -I. examples/cg_mixed.c -o cg_mixed -lm
 *   ./cg_mixed [n [tol]]        n^3 unknowns (default 40), tol the relative residual (1e-10)
 * A: a 7-point diffusion operator on an n^3 grid, Dirichlet boundaries, edge coefficients
 * 1 + sin(...) / 2 (not exact in float): symmetric positive definite. It solves A x = b (b = 1)
 * twice, with plain CG on the double matrix (tag d) and with the mixed CG, each until
 * ||b - A x|| <= tol ||b||, and prints iterations and seconds of each. Checked: both residuals,
 * recomputed in long double from the double matrix, below 10 tol. The float matrix reads 8 bytes
 * an entry where the double one reads 12: beyond the cache its products are up to 1.5x faster
 * (docs/PERFORMANCE.md, "Precision"); the replaced residuals keep the iteration on the double
 * matrix's solution. Exit 0 on success, 1 on an error or a failed check. */
#define SPMV_ENABLE_DS
#include "spmv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef REPLACE
#define REPLACE 50
#endif

#ifdef _OPENMP
#define OMP_FOR _Pragma("omp parallel for schedule(static) if (n > 32768)")
#define OMP_FOR_SUM _Pragma("omp parallel for schedule(static) reduction(+ : s) if (n > 32768)")
#else
#define OMP_FOR
#define OMP_FOR_SUM
#endif

static double dot(int64_t n, const double *a, const double *b) {
    double s = 0;
    int64_t i;
    OMP_FOR_SUM
    for (i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

/* edge coefficient between cells p < q */
static double coef(int64_t p, int64_t q) { return 1 + 0.5 * sin(0.37 * (double)p + 0.11 * (double)q); }

static int build(int64_t n, spmv_triplets *t) {
    const int64_t N = n * n * n;
    int64_t c, k = 0;
    if (spmv_triplets_alloc(t, N, N, 7 * N) != SPMV_OK) return 0;
    for (c = 0; c < N; c++) {
        const int64_t i = c % n, j = c / n % n, l = c / (n * n);
        const int64_t nb[6] = {i > 0 ? c - 1 : -1, i < n - 1 ? c + 1 : -1, j > 0 ? c - n : -1,
                               j < n - 1 ? c + n : -1, l > 0 ? c - n * n : -1, l < n - 1 ? c + n * n : -1};
        double diag = 0;
        int e;
        for (e = 0; e < 6; e++) {
            const double w = nb[e] < 0 ? 1.0 : coef(c < nb[e] ? c : nb[e], c < nb[e] ? nb[e] : c);
            diag += w; /* a missing neighbour: the Dirichlet boundary's edge */
            if (nb[e] < 0) continue;
            t->row[k] = c, t->col[k] = nb[e], t->val[k] = -w, k++;
        }
        t->row[k] = c, t->col[k] = c, t->val[k] = diag, k++;
    }
    t->nnz = k;
    return 1;
}

/* ||b - A x|| / ||b|| in long double from the double matrix */
static double true_residual(const spmv_d_csr *A, const double *b, const double *x) {
    long double rr = 0, bb = 0;
    int32_t r, k;
    for (r = 0; r < A->nrows; r++) {
        long double s = b[r];
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) s -= (long double)A->val[k] * x[A->col_idx[k]];
        rr += s * s;
        bb += (long double)b[r] * b[r];
    }
    return (double)sqrtl(rr / bb);
}

/* r = b - A x with the double matrix */
static int replace(const spmv_d_csr *A, const double *b, const double *x, double *r) {
    const int64_t n = A->nrows;
    int64_t i;
    OMP_FOR
    for (i = 0; i < n; i++) r[i] = b[i];
    return spmv_d_csr_mv(A, -1.0, x, 1.0, r) == SPMV_OK;
}

/* CG from x = 0 until ||r|| <= tol ||b||. M (may be NULL): the products with the float matrix,
 * and r replaced by the true residual every REPLACE iterations and before stopping (a true
 * residual still above tol restarts the directions). Returns the iterations, -1 on an error. */
static int cg(const spmv_d_csr *A, const spmv_ds_csr *M, const double *b, double *x, double tol, int maxit) {
    const int64_t n = A->nrows;
    double *r = malloc(sizeof(double) * (size_t)n), *p = malloc(sizeof(double) * (size_t)n);
    double *q = malloc(sizeof(double) * (size_t)n), rr, bb = dot(n, b, b);
    int it = -1, since = 0;
    int64_t i;
    if (!r || !p || !q) goto out;
    OMP_FOR
    for (i = 0; i < n; i++) x[i] = 0, r[i] = b[i], p[i] = b[i];
    rr = bb;
    for (it = 0; it < maxit; it++) {
        double alpha, beta, rr1;
        if (rr <= tol * tol * bb) {
            if (!M) break;
            if (!replace(A, b, x, r)) goto fail;
            rr = dot(n, r, r), since = 0;
            if (rr <= tol * tol * bb) break;
            OMP_FOR
            for (i = 0; i < n; i++) p[i] = r[i];
        }
        if ((M ? spmv_ds_csr_mv(M, 1.0, p, 0.0, q) : spmv_d_csr_mv(A, 1.0, p, 0.0, q)) != SPMV_OK) goto fail;
        alpha = rr / dot(n, p, q);
        OMP_FOR
        for (i = 0; i < n; i++) x[i] += alpha * p[i], r[i] -= alpha * q[i];
        if (M && ++since == REPLACE) {
            if (!replace(A, b, x, r)) goto fail;
            since = 0;
        }
        rr1 = dot(n, r, r);
        beta = rr1 / rr, rr = rr1;
        OMP_FOR
        for (i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    }
    goto out;
fail:
    it = -1;
out:
    free(r), free(p), free(q);
    return it;
}

int main(int argc, char **argv) {
    const int64_t n = argc > 1 ? atoll(argv[1]) : 40;
    const double tol = argc > 2 ? atof(argv[2]) : 1e-10;
    spmv_triplets t;
    spmv_d_csr A;
    spmv_ds_csr M;
    spmv_error e;
    double *b, *x, t0, td, tm, rd, rm;
    int64_t i;
    int itd, itm, ok;
    if (n < 2 || n > 400 || !(tol > 0) || !build(n, &t)) return fprintf(stderr, "cg_mixed: bad arguments\n"), 1;
    if (spmv_d_csr_from_triplets(&A, &t, NULL, &e) != SPMV_OK || spmv_ds_csr_from_triplets(&M, &t, NULL, &e) != SPMV_OK)
        return fprintf(stderr, "cg_mixed: %s\n", e.msg), 1;
    spmv_triplets_free(&t);
    b = malloc(sizeof(double) * (size_t)A.nrows), x = malloc(sizeof(double) * (size_t)A.nrows);
    if (!b || !x) return 1;
    for (i = 0; i < A.nrows; i++) b[i] = 1;
    t0 = spmv_wtime();
    itd = cg(&A, NULL, b, x, tol, 20000);
    td = spmv_wtime() - t0, rd = true_residual(&A, b, x);
    t0 = spmv_wtime();
    itm = cg(&A, &M, b, x, tol, 20000);
    tm = spmv_wtime() - t0, rm = true_residual(&A, b, x);
    printf("%lld unknowns, %lld entries, tol %g\n", (long long)A.nrows, (long long)A.nnz, tol);
    printf("double matrix (d):            %5d iterations, %.3f s, residual %.2e\n", itd, td, rd);
    printf("float matrix, double vectors: %5d iterations, %.3f s, residual %.2e (%.2fx the double solver's speed)\n",
           itm, tm, rm, td / tm);
    ok = itd >= 0 && itm >= 0 && rd <= 10 * tol && rm <= 10 * tol;
    if (!ok) printf("FAILED: a residual above 10 tol or an error\n");
    spmv_d_csr_free(&A), spmv_ds_csr_free(&M), free(b), free(x);
    return ok ? 0 : 1;
}
