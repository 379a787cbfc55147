/* helmholtz — a damped Helmholtz problem in double complex (tag z): (-Laplace - k^2 + i eps) u = f
 * on an n^3 grid (7 points, Dirichlet boundaries), solved by COCG, the conjugate gradient method for
 * complex symmetric matrices (its inner products unconjugated).
 *   gcc -std=c11 -O2 -fopenmp -I. examples/helmholtz.c -o helmholtz -lm
 *   ./helmholtz [n [k2 [eps]]]      defaults 40, 60, 30
 * The matrix is built in-process as complex triplets (imaginary parts in t.vim) into a CSR (the
 * products: spmv_z_csr_mv; spmv_z_auto_from_csr would choose a format, at the cost of compiling
 * every format in this unit). Checked: the true residual, recomputed in long double complex, below
 * 1e-8 of ||f||; and the adjoint identity <A x, y> = <x, A^H y> with csr_mvh (A^H y without
 * forming A^H) to 1e-12. Exit 0 on success, 1 on an error or a failed check. */
#define SPMV_ENABLE_Z
#include "spmv.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef spmv_cdouble cplx;

/* sum a_i b_i, unconjugated (COCG's bilinear form), or with conj(a_i) (conj = 1) */
static cplx dotu(int64_t n, const cplx *a, const cplx *b, int conj) {
    double sr = 0, si = 0;
    int64_t i;
    for (i = 0; i < n; i++) {
        const double ar = __builtin_creal(a[i]), ai = conj ? -__builtin_cimag(a[i]) : __builtin_cimag(a[i]);
        sr += ar * __builtin_creal(b[i]) - ai * __builtin_cimag(b[i]);
        si += ar * __builtin_cimag(b[i]) + ai * __builtin_creal(b[i]);
    }
    return spmv_cdouble_make(sr, si);
}
static double nrm(int64_t n, const cplx *a) { return sqrt(__builtin_creal(dotu(n, a, a, 1))); }

/* the operator's triplets: (6/h^2 - k2 + i eps) on the diagonal, -1/h^2 to each neighbour */
static int helmholtz(int64_t n, double k2, double eps, spmv_triplets *t) {
    const double h2 = 1.0 / ((double)(n + 1) * (double)(n + 1));
    int64_t i, j, k, e = 0;
    if (spmv_triplets_alloc(t, n * n * n, n * n * n, 7 * n * n * n) != SPMV_OK) return 0;
    if (!(t->vim = SPMV_ALLOC_N(double, 7 * n * n * n))) return 0;
    for (k = 0; k < n; k++)
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                const int64_t p = (k * n + j) * n + i;
                const int64_t nb[6] = {i > 0 ? p - 1 : -1, i < n - 1 ? p + 1 : -1, j > 0 ? p - n : -1,
                                       j < n - 1 ? p + n : -1, k > 0 ? p - n * n : -1, k < n - 1 ? p + n * n : -1};
                int q;
                t->row[e] = p, t->col[e] = p, t->val[e] = 6 / h2 - k2, t->vim[e] = eps, e++;
                for (q = 0; q < 6; q++)
                    if (nb[q] >= 0) t->row[e] = p, t->col[e] = nb[q], t->val[e] = -1 / h2, t->vim[e] = 0, e++;
            }
    t->nnz = e;
    return 1;
}

/* ||f - A u|| / ||f|| in long double complex, from the CSR */
static double true_residual(const spmv_z_csr *A, const cplx *u, const cplx *f) {
    long double r2 = 0, f2 = 0;
    int32_t r, k;
    for (r = 0; r < A->nrows; r++) {
        long double sr = __builtin_creal(f[r]), si = __builtin_cimag(f[r]);
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
            const long double ar = __builtin_creal(A->val[k]), ai = __builtin_cimag(A->val[k]);
            const long double xr = __builtin_creal(u[A->col_idx[k]]), xi = __builtin_cimag(u[A->col_idx[k]]);
            sr -= ar * xr - ai * xi;
            si -= ar * xi + ai * xr;
        }
        r2 += sr * sr + si * si;
        f2 += (long double)__builtin_creal(f[r]) * __builtin_creal(f[r]) + (long double)__builtin_cimag(f[r]) * __builtin_cimag(f[r]);
    }
    return (double)sqrtl(r2 / f2);
}

int main(int argc, char **argv) {
    const int64_t n = argc > 1 ? atoll(argv[1]) : 40;
    const double k2 = argc > 2 ? atof(argv[2]) : 60, eps = argc > 3 ? atof(argv[3]) : 30;
    const cplx one = spmv_cdouble_make(1, 0), zero = spmv_cdouble_make(0, 0);
    spmv_triplets t;
    spmv_z_csr A;
    spmv_error e;
    cplx *u, *r, *p, *q, *f, rho;
    int64_t N, i;
    int it, ok = 1;
    double t0, res, adj;
    if (n < 2 || n > 400 || !helmholtz(n, k2, eps, &t) || spmv_z_csr_from_triplets(&A, &t, NULL, &e) != SPMV_OK) {
        fprintf(stderr, "helmholtz: n in 2..400; building the operator: %s\n", e.msg);
        return 1;
    }
    spmv_triplets_free(&t);
    N = A.nrows;
    u = malloc(sizeof(cplx) * (size_t)N), r = malloc(sizeof(cplx) * (size_t)N), p = malloc(sizeof(cplx) * (size_t)N);
    q = malloc(sizeof(cplx) * (size_t)N), f = malloc(sizeof(cplx) * (size_t)N);
    if (!u || !r || !p || !q || !f) return 1;
    for (i = 0; i < N; i++) f[i] = spmv_cdouble_make(1, (double)(i % 7) / 7), u[i] = zero, r[i] = f[i], p[i] = f[i];
    rho = dotu(N, r, r, 0);
    t0 = spmv_wtime();
    for (it = 0; it < 5000 && nrm(N, r) > 1e-10 * nrm(N, f); it++) { /* COCG */
        cplx alpha, beta, rho1;
        ok &= spmv_z_csr_mv(&A, one, p, zero, q) == SPMV_OK;
        alpha = rho / dotu(N, p, q, 0);
        for (i = 0; i < N; i++) u[i] += alpha * p[i], r[i] -= alpha * q[i];
        rho1 = dotu(N, r, r, 0);
        beta = rho1 / rho;
        rho = rho1;
        for (i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
    }
    res = true_residual(&A, u, f);
    printf("helmholtz: n=%lld (%lld unknowns, %lld entries), k^2=%g, eps=%g, csr (%s): COCG %d iterations, %.3f s, "
           "true residual %.2e\n",
           (long long)n, (long long)N, (long long)A.nnz, k2, eps, spmv_isa_name(A.params.isa), it, spmv_wtime() - t0, res);
    /* <A x, y> = <x, A^H y>: x = u, y = f */
    ok &= spmv_z_csr_mv(&A, one, u, zero, q) == SPMV_OK && spmv_z_csr_mvh(&A, one, f, zero, p) == SPMV_OK;
    {
        const cplx lhs = dotu(N, q, f, 1), rhs = dotu(N, u, p, 1);
        adj = __builtin_cabs(lhs - rhs) / __builtin_cabs(lhs);
    }
    printf("helmholtz: adjoint identity |<Ax,y> - <x,A^H y>| / |<Ax,y>| = %.2e\n", adj);
    ok &= res < 1e-8 && adj < 1e-12;
    spmv_z_csr_free(&A);
    free(u), free(r), free(p), free(q), free(f);
    if (!ok) fprintf(stderr, "helmholtz: a check failed\n");
    return ok ? 0 : 1;
}
