/* Instantiates the distributed layer (formats/mpi/dist.h, and formats/mpi/dist_cuda.cuh when
 * spmv_cuda.cuh came first and so instantiated the pair's device side) for one tag, with the
 * parameters of formats/instance.h: SPMV_TAG, SPMV_VAL, SPMV_IDX and, where the vectors have
 * another type, SPMV_VEC. spmv_mpi.h includes it for s, d and the enabled ds, h, b, z, c, and for your
 * pair; the parameters are #undef'd at the end, so it can be included again. */
#if !defined(SPMV_TAG) || !defined(SPMV_VAL) || !defined(SPMV_IDX)
#error "define SPMV_TAG, SPMV_VAL and SPMV_IDX before including formats/mpi/instance.h"
#endif
#define SPMV_T SPMV_VAL
#ifdef SPMV_VEC
#define SPMV_Y SPMV_VEC
#else
#define SPMV_Y SPMV_VAL
#endif
#define SPMV_I SPMV_IDX
#define SPMV__MPI_CPLX (SPMV_CAT(SPMV__VCX_, SPMV_VAL) + 0 > 0) /* c, z */
#define SPMV_NAME(x) SPMV_CAT(SPMV_CAT3(spmv_, SPMV_TAG, _), x)
#include "dist.h"
#ifdef SPMV_CUDA_CUH_INCLUDED
#ifdef SPMV_VEC /* the host layer's vector type (its buffers, dist__post) */
#define SPMV__HY SPMV_VEC
#else
#define SPMV__HY SPMV_VAL
#endif
#if SPMV__MPI_CPLX /* the device side's values and vectors: spmv_cuda_z / spmv_cuda_c (formats/cuda/core.cuh) */
#undef SPMV_T
#undef SPMV_Y
#define SPMV_T SPMV_CAT(SPMV__DEVT_, SPMV_VAL)
#define SPMV_Y SPMV_T
#endif
#include "dist_cuda.cuh"
#undef SPMV__HY
#endif
#undef SPMV__MPI_CPLX
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_Y
#undef SPMV_I
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_VEC
#undef SPMV_IDX
