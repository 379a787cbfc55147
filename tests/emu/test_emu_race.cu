/* The CUDA emulator's concurrent mode finds races between blocks (tests/emu/race_check.sh builds
 * this with -DSPMV_EMU_CONCURRENT -fsanitize=thread): `racy`, whose threads all do y[0] += 1,
 * must be reported as a data race; `atomic`, the same with atomicAdd, must be clean and sum
 * exactly. usage: test_emu_race racy|atomic */
#include <stdio.h>
#include <string.h>

__global__ void racy(double *y) { y[0] += 1; }
__global__ void atomic_sum(double *y, unsigned long long *n) {
    atomicAdd(y, 1.0);
    atomicAdd(n, 1ull);
}

int main(int argc, char **argv) {
    double *y = NULL;
    unsigned long long *n = NULL;
    const int blocks = 16, threads = 64;
    if (argc != 2 || (strcmp(argv[1], "racy") && strcmp(argv[1], "atomic"))) {
        fprintf(stderr, "usage: test_emu_race racy|atomic\n");
        return 2;
    }
    if (cudaMalloc(&y, sizeof *y) != cudaSuccess || cudaMalloc(&n, sizeof *n) != cudaSuccess) return 2;
    *y = 0;
    *n = 0;
    if (!strcmp(argv[1], "racy")) SPMV_CUDA_LAUNCH(blocks, threads, 0, racy)(y);
    else SPMV_CUDA_LAUNCH(blocks, threads, 0, atomic_sum)(y, n);
    printf("%s: y = %.0f, n = %llu (%d threads)\n", argv[1], *y, *n, blocks * threads);
    if (!strcmp(argv[1], "atomic") && (*y != blocks * threads || *n != (unsigned long long)(blocks * threads))) {
        printf("FAIL: the atomic sums are not exact\n");
        return 1;
    }
    cudaFree(y);
    cudaFree(n);
    return 0;
}
