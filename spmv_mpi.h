/* spmv_mpi.h — the distributed layer: a matrix split by rows over MPI ranks, each rank's
 * rows held as a diagonal and an off-diagonal block in any registry format, and the product
 * y = alpha*A*x + beta*y with the ghost exchange overlapped by the diagonal block's product.
 * Header-only; include after spmv.h and mpi.h. Tags s and d (and ds, a float matrix with
 * double vectors, with SPMV_ENABLE_DS: x's ghosts travel as doubles; h and b, 16-bit values with
 * float vectors, with SPMV_ENABLE_H / _B: the values travel as 16-bit words); another tag: define
 * SPMV_TAG, SPMV_VAL, SPMV_IDX (SPMV_VEC) and include spmv.h, then define them again and include
 * spmv_mpi.h.
 *
 *   #include <mpi.h>
 *   #include "spmv.h"
 *   #include "spmv_mpi.h"
 *   spmv_d_dist D;  spmv_error err;
 *   spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, "A.mtx", NULL, &err);   // every rank reads its rows
 *   // or spmv_d_dist_from_root_csr(&D, comm, 0, &A, &opts, &err)     (A on rank 0, scattered)
 *   // or spmv_d_dist_from_local_csr(&D, comm, &myrows, row_start, &opts, &err)
 *   //   x_loc: D.ncloc entries (global columns D.col0 ...), y_loc: D.nloc (rows D.row0 ...)
 *   spmv_d_dist_mv(&D, 1.0, x_loc, 0.0, y_loc);
 *   spmv_d_dist_select(&D, &opts, &err);   // optional: the automatic selection per rank
 *   spmv_d_dist_free(&D);
 * opts (spmv_opts): the blocks' format (default csr), ISA and parameters, as for
 * any_from_csr. Every builder is collective and returns the same status on every rank (an
 * allreduce of the ranks' statuses; the message of the lowest failing rank in err);
 * SPMV_ERR_MPI when MPI itself fails. Compile with mpicc (Open MPI: `mpicc -fopenmp -I. ...`);
 * formats/mpi/dist.h holds the layout and the plan.
 * GPUs: include spmv_cuda.cuh first (a .cu file, nvcc with the MPI include path), then
 *   spmv_d_dist_dev G;  spmv_d_dist_dev_from_dist(&G, &D, &opts, &err, stream);  // blocks uploaded
 *   spmv_d_dist_dev_mv(&G, 1.0, x_dev, 0.0, y_dev, stream);  spmv_d_dist_dev_free(&G);
 * (formats/mpi/dist_cuda.cuh: the ghosts go through host buffers); the same for ds, h and b when
 * spmv_cuda.cuh instantiated them (SPMV_ENABLE_DS, _H, _B before it). */
#ifndef SPMV_MPI_H_INCLUDED
#define SPMV_MPI_H_INCLUDED
#include "spmv.h"
#include <mpi.h>

static int spmv__dist_cmp64(const void *a, const void *b) {
    const int64_t p = *(const int64_t *)a, q = *(const int64_t *)b;
    return p < q ? -1 : p > q;
}

#define SPMV_T float
#define SPMV_Y float
#define SPMV_I int32_t
#define SPMV_NAME(x) SPMV_CAT(spmv_s_, x)
#include "formats/mpi/dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#define SPMV_T double
#define SPMV_Y double
#define SPMV_I int32_t
#define SPMV_NAME(x) SPMV_CAT(spmv_d_, x)
#include "formats/mpi/dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#ifdef SPMV_ENABLE_DS /* a float matrix with double vectors (x's ghosts travel as doubles) */
#define SPMV_T float
#define SPMV_Y double
#define SPMV_I int32_t
#define SPMV_NAME(x) SPMV_CAT(spmv_ds_, x)
#include "formats/mpi/dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED /* spmv_cuda.cuh instantiated this tag's device side too */
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#endif
#ifdef SPMV_ENABLE_H /* binary16 values (sent as 16-bit words), float vectors */
#define SPMV_T spmv_half
#define SPMV_Y float
#define SPMV_I int32_t
#define SPMV_NAME(x) SPMV_CAT(spmv_h_, x)
#include "formats/mpi/dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED /* spmv_cuda.cuh instantiated this tag's device side too */
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#endif
#ifdef SPMV_ENABLE_B /* bfloat16 values, float vectors */
#define SPMV_T spmv_bfloat16
#define SPMV_Y float
#define SPMV_I int32_t
#define SPMV_NAME(x) SPMV_CAT(spmv_b_, x)
#include "formats/mpi/dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED /* spmv_cuda.cuh instantiated this tag's device side too */
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#endif
#endif /* SPMV_MPI_H_INCLUDED */

#if defined(SPMV_TAG) && defined(SPMV_VAL) && defined(SPMV_IDX) /* yours: include again after defining them */
#define SPMV_T SPMV_VAL
#ifdef SPMV_VEC
#define SPMV_Y SPMV_VEC
#else
#define SPMV_Y SPMV_VAL
#endif
#define SPMV_I SPMV_IDX
#define SPMV_NAME(x) SPMV_CAT(SPMV_CAT3(spmv_, SPMV_TAG, _), x)
#include "formats/mpi/dist.h"
#if defined(SPMV_CUDA_CUH_INCLUDED) /* the pair's device side (spmv_cuda.cuh with the same parameters) */
#include "formats/mpi/dist_cuda.cuh"
#endif
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_VEC
#undef SPMV_IDX
#endif
