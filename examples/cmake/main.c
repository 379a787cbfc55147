/* The program of examples/cmake: a generated 2-D Laplacian, the automatic format choice,
 * one product checked against CSR's. Prints "ok: ..." and exits 0 when they agree. */
#include <spmv/spmv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    spmv_triplets t;
    spmv_error err;
    spmv_d_csr A;
    spmv_d_auto M;
    double *x, *y, *z, worst = 0;
    int64_t i;
    if (spmv_gen("stencil2d:n=200", &t, &err) != SPMV_OK || spmv_d_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) {
        fprintf(stderr, "setup: %s\n", err.msg);
        return 1;
    }
    spmv_triplets_free(&t);
    if (spmv_d_auto_from_csr(&M, &A, NULL, &err) != SPMV_OK) {
        fprintf(stderr, "auto: %s\n", err.msg);
        return 1;
    }
    x = malloc(sizeof *x * (size_t)A.ncols);
    y = malloc(sizeof *y * (size_t)A.nrows);
    z = malloc(sizeof *z * (size_t)A.nrows);
    if (!x || !y || !z) return 1;
    for (i = 0; i < A.ncols; i++) x[i] = 1.0 + (double)(i % 3);
    if (spmv_d_auto_mv(&M, 1.0, x, 0.0, y) != SPMV_OK || spmv_d_csr_mv(&A, 1.0, x, 0.0, z) != SPMV_OK) return 1;
    for (i = 0; i < A.nrows; i++)
        if (fabs(y[i] - z[i]) > worst) worst = fabs(y[i] - z[i]);
    printf("ok: spmv %s, auto chose %s, max |auto - csr| = %.2g\n", SPMV_VERSION_STRING,
           spmv_format_name(M.rep.chosen), worst);
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
    free(x), free(y), free(z);
    return worst <= 1e-12 ? 0 : 1;
}
