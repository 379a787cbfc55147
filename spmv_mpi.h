/* spmv_mpi.h — the distributed layer: a matrix split by rows over MPI ranks, each rank's
 * rows held as a diagonal and an off-diagonal block in any registry format, and the product
 * y = alpha*A*x + beta*y with the ghost exchange overlapped by the diagonal block's product.
 * Header-only; include after spmv.h and mpi.h. Tags s and d (and ds, a float matrix with
 * double vectors, with SPMV_ENABLE_DS: x's ghosts travel as doubles; h and b, 16-bit values with
 * float vectors, with SPMV_ENABLE_H / _B: the values travel as 16-bit words; z and c, complex
 * values and vectors, with SPMV_ENABLE_Z / _C: MPI_C_DOUBLE_COMPLEX and
 * MPI_C_FLOAT_COMPLEX, dist_from_mm reading complex files); another tag: define
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

#define SPMV_TAG s
#define SPMV_VAL float
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#define SPMV_TAG d
#define SPMV_VAL double
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#ifdef SPMV_ENABLE_DS /* a float matrix with double vectors (x's ghosts travel as doubles) */
#define SPMV_TAG ds
#define SPMV_VAL float
#define SPMV_VEC double
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#endif
#ifdef SPMV_ENABLE_H /* binary16 values (sent as 16-bit words), float vectors */
#define SPMV_TAG h
#define SPMV_VAL spmv_half
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#endif
#ifdef SPMV_ENABLE_B /* bfloat16 values, float vectors */
#define SPMV_TAG b
#define SPMV_VAL spmv_bfloat16
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#endif
#if defined(SPMV_ENABLE_Z) /* double complex (MPI_C_DOUBLE_COMPLEX) */
#define SPMV_TAG z
#define SPMV_VAL spmv_cdouble
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#endif
#if defined(SPMV_ENABLE_C) /* float complex (MPI_C_FLOAT_COMPLEX) */
#define SPMV_TAG c
#define SPMV_VAL spmv_cfloat
#define SPMV_IDX int32_t
#include "formats/mpi/instance.h"
#endif
#endif /* SPMV_MPI_H_INCLUDED */

#if defined(SPMV_TAG) && defined(SPMV_VAL) && defined(SPMV_IDX) /* yours: include again after defining them */
#include "formats/mpi/instance.h"
#endif
