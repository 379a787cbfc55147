/* The installed CUDA header from a consumer's .cu file (nvcc, pkg-config's flags). Without a
 * GPU it says so and exits 0: this checks the compile and link. */
#include <spmv/spmv_cuda.cuh>
#include <stdio.h>

int main(void) {
    int32_t rp[] = {0, 2, 5, 7}, ci[] = {0, 1, 0, 1, 2, 1, 2};
    double v[] = {2, -1, -1, 2, -1, -1, 2};
    spmv_d_csr A;
    spmv_d_any_dev D;
    if (spmv_cuda_device_count() == 0) {
        printf("ok: CUDA consumer of spmv %s compiled and linked (no GPU here)\n", SPMV_VERSION_STRING);
        return 0;
    }
    if (spmv_d_csr_wrap(&A, 3, 3, rp, ci, v, NULL, NULL) != SPMV_OK ||
        spmv_d_any_dev_from_csr(&D, &A, NULL, NULL, 0) != SPMV_OK) {
        printf("FAIL: CUDA consumer: upload failed\n");
        return 1;
    }
    spmv_d_any_dev_free(&D);
    spmv_d_csr_free(&A);
    printf("ok: CUDA consumer of spmv %s ran on the GPU\n", SPMV_VERSION_STRING);
    return 0;
}
