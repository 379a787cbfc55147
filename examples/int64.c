/* Another type pair in one step: double values with int64_t indices (tag "dl").
 *   gcc -std=c11 -Wall -Wextra -Werror -pedantic -I. examples/int64.c -lm
 *   nvcc -x cu -I. examples/int64.c                                    */
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include <stdio.h>

int main(void) {
    spmv_triplets t;
    spmv_error err;
    spmv_dl_csr A;
    double *x, *y;
    int64_t i;
    spmv_status st = spmv_gen("band:n=1000,bw=2", &t, &err);
    if (st != SPMV_OK) return 1;
    st = spmv_dl_csr_from_triplets(&A, &t, NULL, NULL);
    spmv_triplets_free(&t);
    if (st != SPMV_OK) return 1;
    x = (double *)malloc(sizeof(double) * (size_t)A.ncols);
    y = (double *)malloc(sizeof(double) * (size_t)A.nrows);
    if (!x || !y) return 1;
    for (i = 0; i < A.ncols; i++) x[i] = 1.0;
    st = spmv_dl_csr_mv(&A, 2.0, x, 0.0, y);
    printf("status %s, nnz %lld, y[500] = %g\n", spmv_status_str(st), (long long)A.nnz, y[500]);
    spmv_dl_csr_free(&A);
    free(x);
    free(y);
    return st != SPMV_OK;
}
