/* Anchor libraries for `spmv bench`: other people's SpMV on the same matrix, x and check.
 *
 * Index i in [0, spmv_anchor_count()):
 *   0 "loop"       the plain `#pragma omp parallel for schedule(static)` CSR row loop a user
 *                  writes, compiled with -O3 -march=native -fopenmp, on the caller's arrays;
 *   1 "eigen"      Eigen 3.4, a zero-copy Map of the caller's CSR as a row-major SparseMatrix,
 *                  y.noalias() = A * x with Eigen's own OpenMP;
 *   2 "graphblas"  SuiteSparse:GraphBLAS, GrB_mxv with the plus-times semiring;
 *   3 "librsb"     librsb, rsb_spmv on its recursive sparse blocks.
 * The last three exist only when their Debian packages were installed at build time
 * (bench/anchors.sh detects them; SPMV_ANCHORS=none builds none of them); otherwise
 * spmv_anchor_available(i) is 0 and spmv_anchor_info(i) says why. spmv_anchor_available(i)
 * also starts the library once per process (init, thread pools, a 2 x 2 product): call it
 * before timing a create, or the first create pays the start-up (~10 ms for librsb).
 *
 * Input to create: 0-based CSR with int32_t indices, row_ptr[nrows+1], col_idx[nnz] and
 * val[nnz] (nnz = row_ptr[nrows]), columns in range and sorted within each row, no
 * duplicates; only the sizes and row_ptr[0] are checked (a check of every entry would make
 * the borrowing anchors' O(1) create O(nnz)). The arrays must outlive the handle ("loop"
 * and "eigen" borrow them). nthreads is the OpenMP thread count every call of this handle
 * uses (<= 0: omp_get_max_threads() at create); the caller's OpenMP default is left as it
 * was. librsb can use at most max(CPUs, its first handle's count) threads (at most 128; the
 * first handle is spmv_anchor_available's, on the OpenMP default): a later handle asking for
 * more fails. create returns NULL and writes a message to err (if
 * err && errlen) on failure; nothing here prints or exits. create includes each library's
 * own preparation a performance-minded user would call (see bench/anchors.cc: none for
 * Eigen, GrB_wait for GraphBLAS, not librsb's autotuner, measured), so timing create times
 * the conversion. An empty matrix (no entries or a zero dimension) gets a handle whose mv
 * writes zeros without calling the library.
 *
 * mv computes y = A*x (y is only written, never read; x and y must not overlap) and
 * returns 0, or nonzero on failure (a handle of the other precision, a library error).
 * bytes: the anchor's own storage of the matrix (best estimate), 0 when it borrows the
 * caller's arrays.
 *
 * Linked only into build/spmv (never into spmv.h); the implementation is C++17
 * (bench/anchors.cc), the interface plain C. */
#ifndef SPMV_BENCH_ANCHORS_H
#define SPMV_BENCH_ANCHORS_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int spmv_anchor_count(void);
const char *spmv_anchor_name(int i);
const char *spmv_anchor_info(int i);
int spmv_anchor_available(int i);

void *spmv_anchor_create_d(int i, int32_t nrows, int32_t ncols, const int32_t *row_ptr, const int32_t *col_idx,
                           const double *val, int nthreads, char *err, size_t errlen);
int spmv_anchor_mv_d(int i, void *h, const double *x, double *y);
void *spmv_anchor_create_s(int i, int32_t nrows, int32_t ncols, const int32_t *row_ptr, const int32_t *col_idx,
                           const float *val, int nthreads, char *err, size_t errlen);
int spmv_anchor_mv_s(int i, void *h, const float *x, float *y);
/* op 1: y = A^T x (x nrows, y ncols); op 2: Y = A X with k vectors, X (ncols x k) and Y
 * (nrows x k) row-major with ld = k. Eigen: A.transpose() * x, A * X; librsb: rsb_spmv with
 * transA, rsb_spmm with k right-hand sides; GraphBLAS: GrB_mxv with GrB_INP0 = GrB_TRAN (op 1
 * only). Returns 0, -3 when the anchor does not offer the operation, other nonzero on failure. */
int spmv_anchor_op_d(int i, void *h, int op, int k, const double *x, double *y);
int spmv_anchor_op_s(int i, void *h, int op, int k, const float *x, float *y);
void spmv_anchor_free(int i, void *h);
size_t spmv_anchor_bytes(int i, void *h);

#ifdef __cplusplus
}
#endif
#endif
