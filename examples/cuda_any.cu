/* cuda_any — any device format chosen at run time from a string, then the device's automatic
 * selection; both products compared with the CPU's.
 *   nvcc -O3 -std=c++17 -I. -gencode arch=compute_90,code=sm_90 examples/cuda_any.cu -o cuda_any
 *   ./cuda_any [FORMAT [PARAMS]]      e.g. ./cuda_any sell   ./cuda_any axtch1 bs=256
 * FORMAT: a device row of `spmv formats` (default hll); a symmetric-only one (sss) gets A + A^T,
 * which is symmetric. Exit status 0 when both products match the CPU's (or without a GPU, after
 * the host part), 1 when one does not, 2 on a bad name or key. */
#include "spmv_cuda.cuh"
#include <stdio.h>

#define TRY(call)                                                                              \
    do {                                                                                       \
        spmv_status st_ = (call);                                                              \
        if (st_ != SPMV_OK) {                                                                  \
            fprintf(stderr, "%s: %s\n", #call, spmv_status_str(st_));                          \
            if (st_ == SPMV_ERR_CUDA) fprintf(stderr, "  CUDA: %s\n", cudaGetErrorString(spmv_cuda_last_error())); \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

/* max |y - y_ref| / max |y_ref| */
static double rel_diff(const double *y, const double *ref, int64_t n) {
    double worst = 0, scale = 0;
    for (int64_t i = 0; i < n; i++) {
        if (fabs(ref[i]) > scale) scale = fabs(ref[i]);
        if (fabs(y[i] - ref[i]) > worst) worst = fabs(y[i] - ref[i]);
    }
    return scale > 0 ? worst / scale : worst;
}

int main(int argc, char **argv) {
    const char *name = argc > 1 ? argv[1] : "hll";
    spmv_opts o = spmv_opts_default();
    spmv_error err;
    spmv_triplets t;
    spmv_d_csr A;
    spmv_d_any_dev D;
    spmv_d_auto_dev U;
    double *x, *y, *y_host, *x_dev = NULL, *y_dev = NULL, e1, e2;
    char params[128];
    spmv_status st;
    int64_t i;

    if (spmv_format_parse(name, &o.format) != SPMV_OK || !(spmv_format_flags(o.format) & SPMV_FF_CUDA)) {
        fprintf(stderr, "'%s' is not a device format (spmv formats lists them)\n", name);
        return 2;
    }
    o.params = argc > 2 ? argv[2] : NULL;
    TRY(spmv_gen("random:rows=20000,cols=20000,nnzr=12,seed=7", &t, &err));
    TRY(spmv_d_csr_from_triplets(&A, &t, NULL, NULL));
    spmv_triplets_free(&t);
    if (spmv_format_flags(o.format) & SPMV_FF_SYMMETRIC) {
        /* sss stores one triangle of a symmetric matrix (any other is refused): A + A^T, each entry
           of A (its repeats summed) at (i, j) and at (j, i), so both mirrors sum the same values */
        TRY(spmv_triplets_alloc(&t, A.nrows, A.ncols, 2 * (int64_t)A.nnz));
        for (i = 0; i < A.nrows; i++)
            for (int64_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
                t.row[k] = t.col[A.nnz + k] = i;
                t.col[k] = t.row[A.nnz + k] = A.col_idx[k];
                t.val[k] = t.val[A.nnz + k] = A.val[k];
            }
        spmv_d_csr_free(&A);
        TRY(spmv_d_csr_from_triplets(&A, &t, NULL, NULL));
        spmv_triplets_free(&t);
    }
    x = (double *)malloc(((size_t)A.ncols + 1) * sizeof(double));
    y = (double *)malloc(((size_t)A.nrows + 1) * sizeof(double));
    y_host = (double *)malloc(((size_t)A.nrows + 1) * sizeof(double));
    if (!x || !y || !y_host) return 1;
    for (i = 0; i < A.ncols; i++) x[i] = 1.0 + (double)(i % 7) * 0.125;
    TRY(spmv_d_csr_mv(&A, 1.0, x, 0.0, y_host));
    if (spmv_cuda_device_count() == 0) {
        printf("no CUDA device: computed on the host only\n");
        spmv_d_csr_free(&A);
        free(x), free(y), free(y_host);
        return 0;
    }
    TRY(spmv_cuda_status(cudaMalloc((void **)&x_dev, ((size_t)A.ncols + 1) * sizeof(double))));
    TRY(spmv_cuda_status(cudaMalloc((void **)&y_dev, ((size_t)A.nrows + 1) * sizeof(double))));
    TRY(spmv_cuda_status(cudaMemcpy(x_dev, x, (size_t)A.ncols * sizeof(double), cudaMemcpyHostToDevice)));

    /* 1. the named format with its device defaults (and the PARAMS string, if given) */
    st = spmv_d_any_dev_from_csr(&D, &A, &o, &err, 0);
    if (st != SPMV_OK) {
        fprintf(stderr, "%s: %s: %s\n", name, spmv_status_str(st), err.msg);
        return st == SPMV_ERR_ARG ? 2 : 1;
    }
    spmv_d_any_dev_params_str(&D, params, sizeof params);
    TRY(spmv_d_any_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, 0)); /* embeds-x formats scatter x first */
    TRY(spmv_cuda_status(cudaMemcpy(y, y_dev, (size_t)A.nrows * sizeof(double), cudaMemcpyDeviceToHost)));
    e1 = rel_diff(y, y_host, A.nrows);
    printf("%s (%s): %zu bytes on the device, max rel. |GPU - CPU| %.2g\n", name, params, spmv_d_any_dev_bytes(&D), e1);
    TRY(spmv_d_any_dev_free(&D));

    /* 2. the device's automatic selection, for 500 products */
    o = spmv_opts_default();
    o.expected_calls = 500;
    if ((st = spmv_d_auto_dev_from_csr(&U, &A, &o, &err, 0)) != SPMV_OK) {
        fprintf(stderr, "auto: %s: %s\n", spmv_status_str(st), err.msg);
        return 1;
    }
    TRY(spmv_d_auto_dev_mv(&U, 1.0, x_dev, 0.0, y_dev, 0));
    TRY(spmv_cuda_status(cudaMemcpy(y, y_dev, (size_t)A.nrows * sizeof(double), cudaMemcpyDeviceToHost)));
    e2 = rel_diff(y, y_host, A.nrows);
    printf("auto chose %s: %s; max rel. |GPU - CPU| %.2g\n", spmv_format_name(spmv_d_auto_dev_format(&U)), U.rep.why, e2);
    TRY(spmv_d_auto_dev_free(&U));
    cudaFree(x_dev);
    cudaFree(y_dev);
    spmv_d_csr_free(&A);
    free(x), free(y), free(y_host);
    if (!(e1 <= 1e-12 && e2 <= 1e-12)) {
        fprintf(stderr, "a device product differs from the CPU's\n");
        return 1;
    }
    return 0;
}
