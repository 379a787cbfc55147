/* cuda_csr — y = A*x on the GPU with spmv_cuda.cuh.
 *   nvcc -O3 -std=c++17 -I. -gencode arch=compute_80,code=sm_80 examples/cuda_csr.cu -o cuda_csr
 *   ./cuda_csr [matrix.mtx]        (no argument: a generated 3-D 7-point stencil)
 * Read or generate, convert on the host, upload, multiply, download, compare with the CPU, free.
 * Exits 1 when the GPU's y differs from the CPU's by more than 1e-12 relative. */
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

int main(int argc, char **argv) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_d_csr_dev D;
    double *x, *y, *y_host, *x_dev = NULL, *y_dev = NULL, maxdiff = 0;
    int32_t i;

    /* 1. the matrix, on the host */
    spmv_status st = argc > 1 ? spmv_mm_read(argv[1], &t, &e) : spmv_gen("stencil3d:n=50", &t, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "%s: %s (line %ld: %s)\n", argc > 1 ? argv[1] : "gen", spmv_status_str(st), e.line, e.msg);
        return 1;
    }
    TRY(spmv_d_csr_from_triplets(&A, &t, NULL, NULL));
    spmv_triplets_free(&t);
    printf("matrix %d x %d, %d nonzeros\n", (int)A.nrows, (int)A.ncols, (int)A.nnz);

    x = (double *)malloc(((size_t)A.ncols + 1) * sizeof(double));
    y = (double *)malloc(((size_t)A.nrows + 1) * sizeof(double));
    y_host = (double *)malloc(((size_t)A.nrows + 1) * sizeof(double));
    if (!x || !y || !y_host) return 1;
    for (i = 0; i < A.ncols; i++) x[i] = 1.0 + (i % 7) * 0.125;
    TRY(spmv_d_csr_mv(&A, 1.0, x, 0.0, y_host)); /* the same product on the CPU */

    if (spmv_cuda_device_count() == 0) {
        printf("no CUDA device: computed on the host only\n");
        spmv_d_csr_free(&A);
        free(x); free(y); free(y_host);
        return 0;
    }

    /* 2. upload (A could be freed right after), vectors in device memory */
    /* NULL: the device defaults, which pick the kernel from the row lengths (the vector kernel
       with lanes from the mean row, or the merge path when the longest row is far above it) */
    TRY(spmv_d_csr_dev_from_csr(&D, &A, NULL, 0));
    printf("device copy: %zu bytes, %s kernel\n", spmv_d_csr_dev_bytes(&D),
           D.algo == SPMV_CSR_DEV_MERGE ? "merge-path" : D.algo == SPMV_CSR_DEV_SCALAR ? "scalar" : "vector");
    TRY(spmv_cuda_status(cudaMalloc((void **)&x_dev, ((size_t)A.ncols + 1) * sizeof(double))));
    TRY(spmv_cuda_status(cudaMalloc((void **)&y_dev, ((size_t)A.nrows + 1) * sizeof(double))));
    TRY(spmv_cuda_status(cudaMemcpy(x_dev, x, (size_t)A.ncols * sizeof(double), cudaMemcpyHostToDevice)));

    /* 3. multiply (asynchronous on stream 0), download (synchronizes) */
    TRY(spmv_d_csr_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, 0));
    TRY(spmv_cuda_status(cudaMemcpy(y, y_dev, (size_t)A.nrows * sizeof(double), cudaMemcpyDeviceToHost)));
    for (i = 0; i < A.nrows; i++) {
        double d = fabs(y[i] - y_host[i]);
        if (d > maxdiff) maxdiff = d;
    }
    printf("y[0] = %g, max |GPU - CPU| = %.3g\n", A.nrows ? y[0] : 0.0, maxdiff);
    if (!(maxdiff <= 1e-12 * (1 + fabs(A.nrows ? y_host[0] : 0.0)) * 64)) {
        fprintf(stderr, "the GPU's product differs from the CPU's\n");
        return 1;
    }

    /* 4. free */
    TRY(spmv_d_csr_dev_free(&D));
    cudaFree(x_dev);
    cudaFree(y_dev);
    spmv_d_csr_free(&A);
    free(x); free(y); free(y_host);
    return 0;
}
