/* Quick start: read (or generate) a matrix, convert to CSR, multiply, free.
 *   gcc -std=c11 -O3 -fopenmp -I. examples/quickstart.c -lm   (add -DSPMV_HAVE_ZLIB -lz for .gz)
 *   ./quickstart [matrix.mtx]                                  */
#include "spmv.h"
#include <stdio.h>

int main(int argc, char **argv) {
    spmv_triplets t;
    spmv_error err;
    spmv_d_csr A;
    spmv_status st;
    double *x, *y;
    int32_t i;

    st = argc > 1 ? spmv_mm_read(argv[1], &t, &err) : spmv_gen("stencil3d:n=30,pts=7", &t, &err);
    if (st != SPMV_OK) {
        fprintf(stderr, "%s (line %ld: %s)\n", spmv_status_str(st), err.line, err.msg);
        return 1;
    }
    st = spmv_d_csr_from_triplets(&A, &t, NULL, NULL); /* NULL: default parameters */
    spmv_triplets_free(&t);
    if (st != SPMV_OK) {
        fprintf(stderr, "convert: %s\n", spmv_status_str(st));
        return 1;
    }
    x = (double *)malloc(sizeof(double) * (size_t)(A.ncols + 1));
    y = (double *)malloc(sizeof(double) * (size_t)(A.nrows + 1));
    if (!x || !y) return 1;
    for (i = 0; i < A.ncols; i++) x[i] = 1.0;
    st = spmv_d_csr_mv(&A, 1.0, x, 0.0, y); /* y = A*x */
    if (st != SPMV_OK) {
        fprintf(stderr, "mv: %s\n", spmv_status_str(st));
        return 1;
    }
    printf("%ld x %ld, %ld nonzeros, isa %s, y[0] = %g\n", (long)A.nrows, (long)A.ncols, (long)A.nnz,
           spmv_isa_name(A.params.isa), A.nrows ? y[0] : 0.0);
    spmv_d_csr_free(&A);
    free(x);
    free(y);
    return 0;
}
