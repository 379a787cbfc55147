/* The distributed layer's device side (formats/mpi/dist_cuda.cuh) under mpirun -np 1..3
 * (tests/mpi_check.sh), in the CPU emulation of the CUDA model (natively where a GPU is): each
 * rank's blocks uploaded in several device formats, the product on device vectors against the
 * serial long-double product of the rank's rows, alpha/beta pairs with beta = 0, ranks without
 * rows; the builder's bad input answered alike on every rank; the mixed tags ds (float blocks,
 * double vectors) and h (binary16 blocks, float vectors) in csr and sell; z (complex values and
 * vectors) in csr and sell against the host layer's product of the same blocks (itself checked
 * against the long-double reference by tests/mpi/test_mpi_ds.c -DTM_CPLX). One RESULT line (rank 0). */
#define SPMV_ENABLE_DS /* the mixed tags' device blocks: a float matrix with double vectors, binary16 */
#define SPMV_ENABLE_H
#ifdef SPMV_CUDA_EMULATE /* and complex blocks (the device side in spmv_cuda_z; nvcc compiles that */
#define SPMV_ENABLE_Z     /* code in tests/cuda/test_cuda_mixed.cu -DTM_CPLX, so its build here is the emulation's) */
#endif
#include "../harness.h"
#include <mpi.h>
#include "spmv_cuda.cuh"
#include "spmv_mpi.h"
#include "../harness.h"
#include "../cuda/cuda_harness.h"

static int rank_, size_;

static int forced_; /* the CUDA-aware path asserted (SPMV_MPI_CUDA_AWARE=1: the emulation's device memory is host memory) */
/* each tag's calls under one name (the checks below are one template) */
#define TM_TAG(t, V)                                                                                              \
    static spmv_status tm_from_root(spmv_##t##_dist *D, const spmv_##t##_csr *A, spmv_error *e) {                  \
        return spmv_##t##_dist_from_root_csr(D, MPI_COMM_WORLD, 0, A, NULL, e);                                  \
    }                                                                                                             \
    static spmv_status tm_dev(spmv_##t##_dist_dev *G, const spmv_##t##_dist *D, const spmv_opts *o, spmv_error *e) { \
        return spmv_##t##_dist_dev_from_dist(G, D, o, e, 0);                                                     \
    }                                                                                                             \
    static spmv_status tm_mv(spmv_##t##_dist_dev *G, V al, const V *x, V be, V *y) {                             \
        return spmv_##t##_dist_dev_mv(G, al, x, be, y, 0);                                                       \
    }                                                                                                             \
    static spmv_status tm_free(spmv_##t##_dist_dev *G) { return spmv_##t##_dist_dev_free(G); }                  \
    static void tm_free(spmv_##t##_dist *D) { spmv_##t##_dist_free(D); }                                         \
    static long double tm_val(const spmv_##t##_csr *A, int64_t k) { return (long double)TM_TV_##t(A->val[k]); }
#define TM_TV_d(v) (v)
#define TM_TV_ds(v) (v)
#define TM_TV_h(v) spmv_half_to_float(v)
TM_TAG(d, double)
TM_TAG(ds, double)
TM_TAG(h, float)
/* rel: the vectors' unit roundoff times a row-length allowance (d, ds: double sums; h: float sums) */
template <typename Dist, typename Dev, typename Csr, typename V>
static void one_t(const char *name, const char *tag, const Csr *A, spmv_format f, double rel) {
    static const double ab[][2] = {{1, 0}, {1.5, 0.5}};
    Dist D;
    Dev G;
    spmv_opts o = spmv_opts_default();
    spmv_error e;
    spmv_status st;
    V *x = NULL, *y = NULL, *xd = NULL, *yd = NULL;
    int64_t i, k;
    st = tm_from_root(&D, rank_ == 0 ? A : NULL, &e);
    CHECK(st == SPMV_OK, "rank %d %s: host build: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
    if (st != SPMV_OK) return;
    o.format = f;
    st = tm_dev(&G, &D, &o, &e);
    CHECK(st == SPMV_OK, "rank %d %s %s %s: upload: %s (%s)", rank_, name, tag, spmv_format_name(f), spmv_status_str(st), e.msg);
    if (st == SPMV_OK && forced_) CHECK(G.aware == 1, "rank %d %s: the asserted CUDA-aware path taken", rank_, name);
    x = (V *)malloc(sizeof(V) * (size_t)(D.ncloc + 1));
    y = (V *)malloc(sizeof(V) * (size_t)(D.nloc + 1));
    for (i = 0; i < D.ncloc; i++) x[i] = (V)(1.0 + (double)((D.col0 + i) % 9) / 5.0);
    if (st == SPMV_OK) {
        cuda_ok(cudaMalloc((void **)&xd, sizeof(V) * (size_t)(D.ncloc + 1)), "cudaMalloc x");
        cuda_ok(cudaMalloc((void **)&yd, sizeof(V) * (size_t)(D.nloc + 1)), "cudaMalloc y");
        cuda_ok(cudaMemcpy(xd, x, sizeof(V) * (size_t)D.ncloc, cudaMemcpyHostToDevice), "copy x");
        for (int j = 0; j < 2; j++) {
            int64_t bad = 0;
            for (i = 0; i < D.nloc; i++) y[i] = (V)(0.25 * (double)((D.row0 + i) % 4));
            cuda_ok(cudaMemcpy(yd, y, sizeof(V) * (size_t)D.nloc, cudaMemcpyHostToDevice), "copy y");
            st = tm_mv(&G, (V)ab[j][0], xd, (V)ab[j][1], yd);
            cuda_ok(cudaMemcpy(y, yd, sizeof(V) * (size_t)D.nloc, cudaMemcpyDeviceToHost), "copy y back");
            for (i = 0; st == SPMV_OK && i < D.nloc; i++) {
                const int64_t r = D.row0 + i;
                long double s = 0, sa = 0, want;
                for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                    const long double p = tm_val(A, k) * (long double)(V)(1.0 + (double)(A->col_idx[k] % 9) / 5.0);
                    s += p, sa += fabsl(p);
                }
                want = ab[j][0] * s + (ab[j][1] == 0 ? 0 : ab[j][1] * 0.25L * (long double)(r % 4));
                if (!(fabsl((long double)y[i] - want) <= (long double)rel * (sa * fabsl((long double)ab[j][0]) + 1))) bad++;
            }
            CHECK(st == SPMV_OK && bad == 0, "rank %d %s %s %s%s alpha %g beta %g: %s, %lld rows wrong", rank_, name, tag,
                  spmv_format_name(f), G.aware ? " (CUDA-aware path)" : "", ab[j][0], ab[j][1], spmv_status_str(st),
                  (long long)bad);
        }
        cudaFree(xd), cudaFree(yd);
        CHECK(tm_free(&G) == SPMV_OK, "rank %d: dist_dev_free", rank_);
    }
    free(x), free(y);
    tm_free(&D);
}
#ifdef SPMV_ENABLE_Z
/* z: the device blocks' product against the host blocks' (the same D), complex alpha and beta */
static void one_z(const char *name, const spmv_triplets *t, spmv_format f) {
    spmv_z_csr A;
    spmv_z_dist D;
    spmv_z_dist_dev G;
    spmv_opts o = spmv_opts_default();
    spmv_error e;
    spmv_status st = spmv_z_csr_from_triplets(&A, t, NULL, &e);
    CHECK(st == SPMV_OK, "rank %d %s: z csr: %s", rank_, name, spmv_status_str(st));
    if (st != SPMV_OK) return;
    o.format = f;
    st = spmv_z_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 ? &A : NULL, &o, &e);
    const int built = st == SPMV_OK;
    CHECK(st == SPMV_OK, "rank %d %s: z host build: %s (%s)", rank_, name, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) st = spmv_z_dist_dev_from_dist(&G, &D, &o, &e, 0);
    CHECK(st == SPMV_OK, "rank %d %s z %s: upload: %s (%s)", rank_, name, spmv_format_name(f), spmv_status_str(st), e.msg);
    if (st == SPMV_OK) {
        const spmv_cdouble al = spmv_cdouble_make(1.5, -0.5), be = spmv_cdouble_make(0.25, 1);
        spmv_cdouble *x = (spmv_cdouble *)malloc(sizeof(spmv_cdouble) * (size_t)(D.ncloc + 1));
        spmv_cdouble *yh = (spmv_cdouble *)malloc(sizeof(spmv_cdouble) * (size_t)(D.nloc + 1));
        spmv_cdouble *yg = (spmv_cdouble *)malloc(sizeof(spmv_cdouble) * (size_t)(D.nloc + 1));
        spmv_cuda_z *xd = NULL, *yd = NULL;
        int64_t i, bad = 0;
        if (!x || !yh || !yg) abort();
        for (i = 0; i < D.ncloc; i++) x[i] = spmv_cdouble_make(1.0 + (double)((D.col0 + i) % 9) / 5.0, (double)((D.col0 + i) % 4) / 3.0);
        for (i = 0; i < D.nloc; i++) yh[i] = yg[i] = spmv_cdouble_make(0.25 * (double)((D.row0 + i) % 4), -0.5);
        cuda_ok(cudaMalloc((void **)&xd, sizeof(spmv_cuda_z) * (size_t)(D.ncloc + 1)), "cudaMalloc x");
        cuda_ok(cudaMalloc((void **)&yd, sizeof(spmv_cuda_z) * (size_t)(D.nloc + 1)), "cudaMalloc y");
        cuda_ok(cudaMemcpy(xd, x, sizeof(spmv_cuda_z) * (size_t)D.ncloc, cudaMemcpyHostToDevice), "copy x");
        cuda_ok(cudaMemcpy(yd, yg, sizeof(spmv_cuda_z) * (size_t)D.nloc, cudaMemcpyHostToDevice), "copy y");
        st = spmv_z_dist_mv(&D, al, x, be, yh);
        if (st == SPMV_OK) st = spmv_z_dist_dev_mv(&G, al, xd, be, yd, 0);
        cuda_ok(cudaMemcpy(yg, yd, sizeof(spmv_cuda_z) * (size_t)D.nloc, cudaMemcpyDeviceToHost), "copy y back");
        for (i = 0; st == SPMV_OK && i < D.nloc; i++) {
            const double d = hypot(__builtin_creal(yg[i]) - __builtin_creal(yh[i]), __builtin_cimag(yg[i]) - __builtin_cimag(yh[i]));
            if (!(d <= 1e-12 * (1 + hypot(__builtin_creal(yh[i]), __builtin_cimag(yh[i]))) * 64)) bad++;
        }
        CHECK(st == SPMV_OK && bad == 0, "rank %d %s z %s: device against host blocks: %s, %lld rows differ", rank_, name,
              spmv_format_name(f), spmv_status_str(st), (long long)bad);
        cudaFree(xd), cudaFree(yd);
        free(x), free(yh), free(yg);
        CHECK(spmv_z_dist_dev_free(&G) == SPMV_OK, "rank %d: z dist_dev_free", rank_);
    }
    if (built) spmv_z_dist_free(&D);
    spmv_z_csr_free(&A);
}
#endif
static void one(const char *name, const spmv_d_csr *A, spmv_format f) {
    one_t<spmv_d_dist, spmv_d_dist_dev, spmv_d_csr, double>(name, "d", A, f, 1e-12);
}

int main(int argc, char **argv) {
    static const char *gens[] = {"stencil2d:n=23", "random:rows=300,cols=300,nnzr=5,seed=8", "band:n=2000,bw=5,seed=4",
                                 "stencil2d:n=1"};
    static const spmv_format fs[] = {SPMV_FMT_CSR, SPMV_FMT_CSR_VECTOR, SPMV_FMT_COO, SPMV_FMT_SELL, SPMV_FMT_HYB,
                                     SPMV_FMT_AXTCH1};
    int sums[3], mine[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (spmv_cuda_device_count() == 0) {
        int listed = th_gpu_listed();
        CHECK(!listed, "nvidia-smi lists a GPU but CUDA sees none");
        check_skip("no CUDA device: the distributed device products were not run");
    } else {
        for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
            spmv_triplets t;
            spmv_error e;
            spmv_d_csr A;
            if (spmv_gen(gens[g], &t, &e) != SPMV_OK || spmv_d_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK) {
                CHECK(0, "gen %s", gens[g]);
                continue;
            }
            for (size_t f = 0; f < sizeof fs / sizeof fs[0]; f++) one(gens[g], &A, fs[f]);
            { /* the mixed tags' device blocks (csr and sell) */
                spmv_ds_csr As;
                spmv_h_csr Ah;
                if (spmv_ds_csr_from_triplets(&As, &t, NULL, NULL) == SPMV_OK && spmv_h_csr_from_triplets(&Ah, &t, NULL, NULL) == SPMV_OK) {
                    for (int q = 0; q < 2; q++) {
                        const spmv_format mf = q ? SPMV_FMT_SELL : SPMV_FMT_CSR;
                        one_t<spmv_ds_dist, spmv_ds_dist_dev, spmv_ds_csr, double>(gens[g], "ds", &As, mf, 1e-12);
                        one_t<spmv_h_dist, spmv_h_dist_dev, spmv_h_csr, float>(gens[g], "h", &Ah, mf, 1e-5);
                    }
                    spmv_ds_csr_free(&As);
                    spmv_h_csr_free(&Ah);
                } else {
                    CHECK(0, "gen %s: ds and h csr", gens[g]);
                }
            }
#ifdef SPMV_ENABLE_Z
            { /* complex blocks: the generator's values with imaginary parts */
                spmv_triplets tz = t;
                double *vim = (double *)spmv__calloc((size_t)t.nnz + 1, sizeof(double));
                if (!vim) abort();
                for (int64_t k = 0; k < t.nnz; k++) vim[k] = t.val[k] * (double)(k % 5 - 2) / 3.0;
                tz.vim = vim;
                one_z(gens[g], &tz, SPMV_FMT_CSR);
                one_z(gens[g], &tz, SPMV_FMT_SELL);
#ifdef SPMV_CUDA_EMULATE /* and through the CUDA-aware exchange (below) */
                setenv("SPMV_MPI_CUDA_AWARE", "1", 1);
                one_z(gens[g], &tz, SPMV_FMT_CSR);
                unsetenv("SPMV_MPI_CUDA_AWARE");
#endif
                spmv__free(vim);
            }
#endif
#ifdef SPMV_CUDA_EMULATE
            /* the CUDA-aware exchange (MPI on the device buffers) asserted: in the emulation
               device memory is host memory, so any MPI can take it */
            setenv("SPMV_MPI_CUDA_AWARE", "1", 1);
            forced_ = 1;
            one(gens[g], &A, SPMV_FMT_CSR);
            one(gens[g], &A, SPMV_FMT_SELL);
            forced_ = 0;
            unsetenv("SPMV_MPI_CUDA_AWARE");
#endif
            spmv_d_csr_free(&A);
            spmv_triplets_free(&t);
        }
        { /* a NULL host matrix: every rank the same status */
            spmv_d_dist_dev G;
            spmv_error e;
            const spmv_status st = spmv_d_dist_dev_from_dist(&G, NULL, NULL, &e, 0);
            CHECK(st == SPMV_ERR_ARG && e.msg[0], "rank %d: NULL host matrix: %s", rank_, spmv_status_str(st));
        }
    }
    mine[0] = check_passed_, mine[1] = check_failed_, mine[2] = check_skipped_;
    MPI_Reduce(mine, sums, 3, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank_ == 0) printf("RESULT test_mpi_cuda_np%d passed=%d failed=%d skipped=%d\n", size_, sums[0], sums[1], sums[2]);
    MPI_Finalize();
    return 0;
}
