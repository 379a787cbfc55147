/* cg — conjugate gradients with the automatic format selection (formats/auto.h).
 *   gcc -std=c11 -O2 -fopenmp -I. examples/cg.c -o cg -lm
 *   nvcc -x cu -O3 -std=c++17 -I. -Xcompiler -fopenmp examples/cg.c -o cg     (the same, host side)
 *   ./cg [matrix.mtx [tol [maxit]]]
 * Solves A x = b (b = all ones, x0 = 0) for a symmetric positive definite A: by default the
 * 7-point Laplacian on a 48^3 grid with Dirichlet boundaries (spmv_gen's stencil3d with its
 * diagonal set to 6: the generator's own diagonal is the neighbour count, a graph Laplacian,
 * singular), or a Matrix Market file. The product runs through the auto handle
 * (spmv_d_auto): told how many products to expect (the iteration cap) and that A outlives
 * it (borrow = 1: a CSR choice uses A's arrays), it picks the format that minimises
 * conversion + products. Printed: the format and why, iterations, time per iteration, the
 * selection's cost and the time it paid back. Checked: the true residual ||b - A x|| / ||b||,
 * recomputed in long double straight from the input entries (not by the library), must be
 * below 10 * tol. Exit 0 on success, 1 on any error or failed check. */
#include "spmv.h" /* also in the nvcc build of this file (-x cu): host code only, same program */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef _OPENMP /* the vector operations on the cores too (large vectors only) */
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

/* seconds per product: the fastest of 5 batches of `reps` products (after 2 warm-ups) */
static double time_csr(const spmv_d_csr *A, const double *x, double *y, int reps) {
    double best = 1e300;
    int b, i;
    for (i = 0; i < 2; i++) spmv_d_csr_mv(A, 1.0, x, 0.0, y);
    for (b = 0; b < 5; b++) {
        const double t0 = spmv_wtime();
        for (i = 0; i < reps; i++) spmv_d_csr_mv(A, 1.0, x, 0.0, y);
        if ((spmv_wtime() - t0) / reps < best) best = (spmv_wtime() - t0) / reps;
    }
    return best;
}
static double time_auto(spmv_d_auto *M, const double *x, double *y, int reps) {
    double best = 1e300;
    int b, i;
    for (i = 0; i < 2; i++) spmv_d_auto_mv(M, 1.0, x, 0.0, y);
    for (b = 0; b < 5; b++) {
        const double t0 = spmv_wtime();
        for (i = 0; i < reps; i++) spmv_d_auto_mv(M, 1.0, x, 0.0, y);
        if ((spmv_wtime() - t0) / reps < best) best = (spmv_wtime() - t0) / reps;
    }
    return best;
}

/* is A symmetric (|a_ij - a_ji| <= 1e-12 max(|a_ij|, |a_ji|))? Rows are sorted: binary
 * search for the mirror. Returns the first offending row, or -1. */
static int64_t asymmetric_row(const spmv_d_csr *A) {
    int64_t i, k;
    for (i = 0; i < A->nrows; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            const int64_t j = A->col_idx[k];
            int64_t lo = A->row_ptr[j], hi = A->row_ptr[j + 1];
            double v = A->val[k], w = 0;
            while (lo < hi) {
                const int64_t mid = lo + (hi - lo) / 2;
                if (A->col_idx[mid] < i) lo = mid + 1;
                else hi = mid;
            }
            if (lo < A->row_ptr[j + 1] && A->col_idx[lo] == i) w = A->val[lo];
            if (fabs(v - w) > 1e-12 * (fabs(v) > fabs(w) ? fabs(v) : fabs(w))) return i;
        }
    return -1;
}

int main(int argc, char **argv) {
    const char *spec = "stencil3d:n=48,pts=7";
    spmv_triplets t;
    spmv_error err;
    spmv_status st;
    spmv_d_csr A;
    spmv_d_auto M;
    spmv_opts o = spmv_opts_default();
    double tol = argc > 2 ? atof(argv[2]) : 1e-8, *x = NULL, *b = NULL, *r = NULL, *p = NULL, *q = NULL;
    double rr, bnorm, relres = 1, t_solve, t_mv = 0, csr_s, chosen_s, payback;
    long double res2 = 0, b2 = 0, *ax = NULL;
    int maxit = argc > 3 ? atoi(argv[3]) : 1000, it = 0, rc = 1, converged = 0;
    int64_t n, i, k;

    memset(&A, 0, sizeof A);
    memset(&M, 0, sizeof M);
    if (!(tol > 0 && tol < 1) || maxit < 1) {
        fprintf(stderr, "usage: %s [matrix.mtx [tol in (0,1) [maxit >= 1]]]\n", argv[0]);
        return 1;
    }
    /* 1. the matrix (the triplets stay for the independent check) */
    st = argc > 1 ? spmv_mm_read(argv[1], &t, &err) : spmv_gen(spec, &t, &err);
    if (st != SPMV_OK) {
        fprintf(stderr, "%s: %s (line %ld: %s)\n", argc > 1 ? argv[1] : spec, spmv_status_str(st), err.line, err.msg);
        return 1;
    }
    if (t.nrows != t.ncols || t.nrows == 0) {
        fprintf(stderr, "%s: CG needs a square, non-empty matrix, this one is %lld x %lld\n",
                argc > 1 ? argv[1] : spec, (long long)t.nrows, (long long)t.ncols);
        spmv_triplets_free(&t);
        return 1;
    }
    if (argc <= 1) /* Dirichlet boundaries: every diagonal 6 (SPD) */
        for (k = 0; k < t.nnz; k++)
            if (t.row[k] == t.col[k]) t.val[k] = 6.0;
    n = t.nrows;
    if ((st = spmv_d_csr_from_triplets(&A, &t, NULL, NULL)) != SPMV_OK) {
        fprintf(stderr, "CSR conversion: %s\n", spmv_status_str(st));
        goto out;
    }
    printf("matrix: %s%s, %lld x %lld, %lld nonzeros\n", argc > 1 ? argv[1] : spec,
           argc > 1 ? "" : " with diagonal 6 (Dirichlet Laplacian)", (long long)A.nrows, (long long)A.ncols,
           (long long)A.nnz);
    if ((i = asymmetric_row(&A)) >= 0) {
        fprintf(stderr, "the matrix is not symmetric (row %lld differs from its column): CG needs an SPD matrix\n",
                (long long)i);
        goto out;
    }

    /* 2. the auto handle: as many products as the iteration cap, A lives on */
    o.expected_calls = maxit;
    o.borrow = 1;
    if ((st = spmv_d_auto_from_csr(&M, &A, &o, &err)) != SPMV_OK) {
        fprintf(stderr, "format selection: %s (%s)\n", spmv_status_str(st), err.msg);
        goto out;
    }
    printf("format: %s, because %s\n", spmv_format_name(M.rep.chosen), M.rep.why);
    printf("selection: %.4f s = %.1f products of the chosen format (timed %d of the %d shortlisted formats)\n",
           M.rep.select_s, M.rep.select_spmvs, M.rep.trials, M.rep.ncand);

    x = (double *)calloc((size_t)n, sizeof(double));
    b = (double *)malloc((size_t)n * sizeof(double));
    r = (double *)malloc((size_t)n * sizeof(double));
    p = (double *)malloc((size_t)n * sizeof(double));
    q = (double *)malloc((size_t)n * sizeof(double));
    ax = (long double *)calloc((size_t)n, sizeof(long double));
    if (!x || !b || !r || !p || !q || !ax) {
        fprintf(stderr, "out of memory\n");
        goto out;
    }
    /* 3. CG: x0 = 0, r = p = b */
    for (i = 0; i < n; i++) b[i] = r[i] = p[i] = 1.0;
    rr = dot(n, r, r);
    bnorm = sqrt(rr);
    t_solve = spmv_wtime();
    while (it < maxit) {
        double pq, alpha, beta, rr1, t0 = spmv_wtime();
        if ((st = spmv_d_auto_mv(&M, 1.0, p, 0.0, q)) != SPMV_OK) { /* q = A p */
            fprintf(stderr, "product: %s\n", spmv_status_str(st));
            goto out;
        }
        t_mv += spmv_wtime() - t0;
        pq = dot(n, p, q);
        if (!(pq > 0)) {
            fprintf(stderr, "CG breakdown at iteration %d: p'Ap = %g <= 0: the matrix is not positive definite\n",
                    it + 1, pq);
            goto out;
        }
        alpha = rr / pq;
        {
            double s = 0;
            OMP_FOR_SUM
            for (i = 0; i < n; i++) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
                s += r[i] * r[i];
            }
            rr1 = s;
        }
        it++;
        relres = sqrt(rr1) / bnorm;
        if (relres < tol) {
            converged = 1;
            break;
        }
        beta = rr1 / rr;
        rr = rr1;
        OMP_FOR
        for (i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    }
    t_solve = spmv_wtime() - t_solve;
    if (!converged) {
        fprintf(stderr, "CG did not converge: relative residual %.3g after %d iterations (tol %g)\n", relres, it, tol);
        goto out;
    }
    printf("cg: converged in %d iterations to relative residual %.3g (tol %g), %.3f ms per iteration "
           "(%.3f ms of it the product), %.3f s in all\n",
           it, relres, tol, 1e3 * t_solve / it, 1e3 * t_mv / it, t_solve);

    /* 4. what the selection paid back: CSR's product against the chosen one, timed here */
    csr_s = time_csr(&A, p, q, 10);
    chosen_s = time_auto(&M, p, q, 10);
    payback = it * (csr_s - chosen_s) - M.rep.select_s;
    printf("products: CSR %.4f ms, %s %.4f ms (timed here; the selection's trials: %.4f and %.4f ms)\n", 1e3 * csr_s,
           spmv_format_name(M.rep.chosen), 1e3 * chosen_s, 1e3 * M.rep.csr_spmv_s, 1e3 * M.rep.chosen_spmv_s);
    printf("payback: %d x (%.4f - %.4f) ms - %.4f s selection = %+.4f s%s\n", it, 1e3 * csr_s, 1e3 * chosen_s,
           M.rep.select_s, payback,
           payback >= 0 ? " (the selection paid for itself)" : " (this solve was too short to pay the selection back)");

    /* 5. the independent check: b - A x from the input entries, in long double */
    for (k = 0; k < t.nnz; k++) ax[t.row[k]] += (long double)t.val[k] * (long double)x[t.col[k]];
    for (i = 0; i < n; i++) {
        const long double d = (long double)b[i] - ax[i];
        res2 += d * d;
        b2 += (long double)b[i] * b[i];
    }
    {
        const double true_res = (double)sqrtl(res2 / b2);
        const int ok = true_res < 10 * tol;
        printf("check: ||b - A x|| / ||b|| = %.3g (long double, from the input entries), limit %.3g: %s\n", true_res,
               10 * tol, ok ? "ok" : "FAILED");
        rc = ok ? 0 : 1;
    }
out:
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
    spmv_triplets_free(&t);
    free(x);
    free(b);
    free(r);
    free(p);
    free(q);
    free(ax);
    return rc;
}
