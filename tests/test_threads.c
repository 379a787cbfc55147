/* The thread-safety contract of the README ("API overview"), tested:
 *  - several pthreads multiply with the same handle at once (each its own y, x shared) for every
 *    host format whose _mv only reads its handle, and through an auto handle: every y equals,
 *    bit for bit, the product of one caller with the same OpenMP thread count;
 *  - the formats that embed x (AXC, AXT): _update_x once, then _mv_kernel from several pthreads;
 *  - products called from inside the caller's own OpenMP parallel region (nested parallelism
 *    off, the default): each thread's y equals the single-threaded product bit for bit.
 * Tags d and s; every ISA the CPU runs.
 * The per-type body: tests/test_threads_case.h. */
#include "spmv.h"
#include "harness.h"
#include <pthread.h>

#define NTH 4
#define REPS 12

#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#include "test_threads_case.h"
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#include "test_threads_case.h"

int main(void) {
    static const char *specs[] = {"stencil3d:n=20,pts=7", "rmat:scale=12,ef=8", "band:n=5000,bw=9"};
    size_t k;
#ifndef _OPENMP
    check_skip("built without OpenMP: the parallel-region checks need it");
    return check_finish("test_threads");
#else
    omp_set_num_threads(2);
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        spmv_triplets t;
        spmv_error e;
        spmv_d_csr A;
        spmv_s_csr B;
        if (spmv_gen(specs[k], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[k], e.msg);
            continue;
        }
        if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
            test_d_run(&A, specs[k]);
            spmv_d_csr_free(&A);
        }
        if (spmv_s_csr_from_triplets(&B, &t, NULL, NULL) == SPMV_OK) {
            test_s_run(&B, specs[k]);
            spmv_s_csr_free(&B);
        }
        spmv_triplets_free(&t);
    }
    return check_finish("test_threads");
#endif
}
