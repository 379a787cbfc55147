/* The device side of the mixed-precision tags (formats/cuda/core.cuh spmv_cuda_tv, SPMV_VEC in
 * formats/cuda/instance.cuh): ds (float values, double vectors and sums), h (binary16 values)
 * and b (bfloat16 values), both with float vectors and sums. For each tag, every device row its
 * families have (spmv_<tag>_any_dev_has: coo, the csr rows, csr5, csrdu, the ELL and DIA rows,
 * bcsr, sss, suraa: also with child=32 and child=0) through spmv_<tag>_any_dev, on edge cases (0
 * rows, empty rows, one long row that takes csr's merge and split paths, a case with suraa's three
 * groups, a dense row), three generator presets
 * and the real matrices up to TM_CAP expanded entries (SPMV_TEST_MAX_NNZ overrides):
 *   - _any_dev_mv with (alpha, beta) = (1, 0) over NaN in y, (-0.75, 2), (-0.7, 1.3); an
 *     infinity in x; _any_dev_mm with 3 vectors (column-major; row-major where the format has it
 *     natively) and _any_dev_mvt where the handle has it; the device selection (auto_dev);
 *   - against the host's long-double reference of the stored values (spmv_<tag>_csr_mv_ref):
 *     |y - ref| <= (n + 4) u * scale, u the vectors' unit roundoff, n the longest row (the
 *     standard bound of any summation order: the device kernels' trees, atomics and carries),
 *     scale = |alpha| sum |a_ij x_j| + |beta y_i|; a NaN or an infinity in the reference exactly.
 * Symmetric-only formats (sss) run on the symmetric cases and on A + A^T of the square ones.
 * A matrix beyond binary16's range (refused by the converter) is scaled by a power of two first.
 * Built with -DTM_CPLX (build/tests-cuemu/test_cuda_complex): the complex tags z and c, whose
 * device API takes spmv_cuda_z / spmv_cuda_c (the layout of the host's spmv_cdouble / spmv_cfloat),
 * with complex values (imaginary parts of both signs; sss on complex symmetric A + A^T) and x,
 * bound (n + 8) u (a complex product's own error is below sqrt(5) u |a||x|), u of the real parts.
 * At the end, per tag: suraa ran, and each of its groups G1, G2, G3 had rows on some case.
 * Built with tests/emu/cuda_emu.h (build/tests-cuemu/) the kernels run on the CPU; with nvcc
 * they run on the GPU, or the device part is one skip without one. */
#ifdef TM_CPLX
#define SPMV_ENABLE_Z
#define SPMV_ENABLE_C
#else
#define SPMV_ENABLE_DS
#define SPMV_ENABLE_H
#define SPMV_ENABLE_B
#endif
#ifndef SPMV_CUDA_MAX_GRID
#define SPMV_CUDA_MAX_GRID 37 /* the grid-stride loops loop on test sizes */
#endif
#include "spmv_cuda.cuh"
#include "../harness.h"
#include "cuda_harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TM_CAP
#define TM_CAP 8000
#endif

/* the device copies of a host vector, and back */
template <typename V> static V *tm_up(const V *h, int64_t n) {
    V *d = NULL;
    if (!cuda_ok(cudaMalloc((void **)&d, sizeof(V) * (size_t)(n > 0 ? n : 1)), "cudaMalloc")) return NULL;
    if (n > 0 && !cuda_ok(cudaMemcpy(d, h, sizeof(V) * (size_t)n, cudaMemcpyHostToDevice), "cudaMemcpy")) {
        cudaFree(d);
        return NULL;
    }
    return d;
}
template <typename V> static int tm_down(V *h, const V *d, int64_t n) {
    return n <= 0 || cuda_ok(cudaMemcpy(h, d, sizeof(V) * (size_t)n, cudaMemcpyDeviceToHost), "cudaMemcpy back");
}
/* the largest finite magnitude of the triplets' values */
static double tm_max_abs(const spmv_triplets *t) {
    double m = 0;
    for (int64_t k = 0; k < t->nnz; k++)
        if (std::isfinite(t->val[k]) && fabs(t->val[k]) > m) m = fabs(t->val[k]);
    return m;
}

#define TM_BODY 1
#ifdef TM_CPLX
/* unit roundoff of a vector type's real parts; x values (complex: an imaginary part too) */
#define TM_U(V) (sizeof(V) == 16 ? DBL_EPSILON / 2 : FLT_EPSILON / 2)
#define TM_SLACK 8
#define TM_XV(V) TM_MK(V)(1 + th_rval() * 0.5, th_rval() * 0.5)
#define TM_MK(V) SPMV_CAT(V, _make)
#define MT z
#define MV spmv_cdouble
#define MD spmv_cuda_z
#define MLIM 1e300
#include "test_cuda_mixed_case.cuh"
#undef MT
#undef MV
#undef MD
#undef MLIM
#define MT c
#define MV spmv_cfloat
#define MD spmv_cuda_c
#define MLIM 3.0e38
#include "test_cuda_mixed_case.cuh"
#define TM_NAME "test_cuda_complex"
static void tm_case(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    spmv_z_case(name, t);
    spmv_c_case(name, t);
}
static void tm_suraa_report(void) {
    spmv_z_suraa_report();
    spmv_c_suraa_report();
}
#else
#define TM_U(V) (sizeof(V) == 8 ? DBL_EPSILON / 2 : FLT_EPSILON / 2)
#define TM_SLACK 4
#define TM_XV(V) (V)(1 + th_rval() * 0.5)
#define MT ds
#define MV double
#define MD double
#define MLIM 3.0e38
#include "test_cuda_mixed_case.cuh"
#undef MT
#undef MV
#undef MD
#undef MLIM
#define MT h
#define MV float
#define MD float
#define MLIM 16384.0
#include "test_cuda_mixed_case.cuh"
#undef MT
#undef MV
#undef MD
#undef MLIM
#define MT b
#define MV float
#define MD float
#define MLIM 3.0e38
#include "test_cuda_mixed_case.cuh"
#define TM_NAME "test_cuda_mixed"

/* the edge cases and presets, through every tag */
static void tm_case(const char *name, const spmv_triplets *t, void *ctx) {
    (void)ctx;
    spmv_ds_case(name, t);
    spmv_h_case(name, t);
    spmv_b_case(name, t);
}
static void tm_suraa_report(void) {
    spmv_ds_suraa_report();
    spmv_h_suraa_report();
    spmv_b_suraa_report();
}
#endif

static void tm_edge_cases(void) {
    spmv_triplets t;
    spmv_error e;
    static const char *presets[] = {"stencil2d:n=30", "fem:n=120,bs=3,deg=6,sym=1", "rmat:scale=9,ef=6"};
    th_make_random(&t, 0, 5, 0);
    tm_case("0 x 5", &t, NULL);
    spmv_triplets_free(&t);
    {
        static const int64_t len[] = {0, 3, 0, 0, 1, 7, 0};
        th_make_rows(&t, 7, 9, len);
        tm_case("empty rows", &t, NULL);
        spmv_triplets_free(&t);
    }
    { /* one row far above the mean: csr's merge and split paths, csr5's tiles across it */
        int64_t len[300];
        for (int i = 0; i < 300; i++) len[i] = i == 17 ? 4000 : 1 + i % 3;
        th_make_rows(&t, 300, 4100, len);
        tm_case("one long row", &t, NULL);
        spmv_triplets_free(&t);
    }
    { /* suraa's three groups (with child=32): a row of two G1 chunks and 31 rows of 40 (G1), 32 more
         rows of 40 (G2: beyond the budget), the short rows (G3); the long rows scattered */
        int64_t len[321];
        for (int i = 0; i < 321; i++) len[i] = i == 200 ? 4000 : i % 5 == 1 ? 40 : 2;
        th_make_rows(&t, 321, 4100, len);
        tm_case("suraa groups", &t, NULL);
        spmv_triplets_free(&t);
    }
    {
        int64_t len[64];
        for (int i = 0; i < 64; i++) len[i] = i == 5 ? 64 : 2;
        th_make_rows(&t, 64, 64, len);
        tm_case("dense row", &t, NULL);
        spmv_triplets_free(&t);
    }
    th_make_random(&t, 200, 200, 1500);
    tm_case("random 200", &t, NULL);
    spmv_triplets_free(&t);
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        if (spmv_gen(presets[i], &t, &e) != SPMV_OK) {
            CHECK(0, "%s: %s", presets[i], e.msg);
            continue;
        }
        tm_case(presets[i], &t, NULL);
        spmv_triplets_free(&t);
    }
}

int main(void) {
    if (th_cuda_no_device(spmv_cuda_device_count(), "the mixed-precision and complex device products")) return check_finish(TM_NAME);
    tm_edge_cases();
    if (!gpu_dead) th_real_matrices(tm_case, NULL, TM_CAP);
    if (!gpu_dead) tm_suraa_report();
#if defined(SPMV_CUDA_EMULATE) && defined(SPMV_SURAA_DP) /* G1 by child grids (not a build of the suite's) */
    printf("suraa: %llu child grids launched from device code\n", spmv_emu_child_launches());
    CHECK(gpu_dead || spmv_emu_child_launches() > 0, "suraa with SPMV_SURAA_DP launched no child grid");
#endif
    return check_finish(TM_NAME);
}
