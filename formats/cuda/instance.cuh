/* Instantiates the CUDA side of every format for one (value type, index type) pair,
 * after the host side (formats/instance.h) exists for that pair. spmv_cuda.cuh does
 * both; include this directly only to add the device side for a pair whose host side
 * you already instantiated with spmv.h:
 *   #define SPMV_TAG dl
 *   #define SPMV_VAL double
 *   #define SPMV_IDX int64_t
 *   #include "formats/cuda/instance.cuh"   -- spmv_dl_csr_dev, spmv_dl_csr_to_device, ...
 * (with SPMV_VEC beside them for a pair whose vectors have another type, as with spmv.h)
 * The parameters are #undef'd at the end, so it can be included again. */
#if !defined(SPMV_TAG) || !defined(SPMV_VAL) || !defined(SPMV_IDX)
#error "define SPMV_TAG, SPMV_VAL and SPMV_IDX before including formats/cuda/instance.cuh"
#endif
#include "core.cuh"

#define SPMV_T SPMV_VAL
#define SPMV_I SPMV_IDX
/* SPMV_VEC (tags ds, h, b: formats/instance.h): x, y, alpha, beta and the sums have that type,
 * the values SPMV_VAL (read through spmv_cuda_tv, formats/cuda/core.cuh); SPMV_Y is the
 * vectors' type either way. Such a tag instantiates the families the host side does. */
#if SPMV_CAT(SPMV__VCX_, SPMV_VAL) + 0 > 0
/* a complex tag (c, z): the device side's values, vectors and scalars are spmv_cuda_c /
 * spmv_cuda_z (formats/cuda/core.cuh; the layout of the host's spmv_cfloat / spmv_cdouble), the
 * families with SPMV__CPLX_<family> */
#define SPMV__CUDA_CPLX 1
#undef SPMV_T
#define SPMV_T SPMV_CAT(SPMV__DEVT_, SPMV_VAL)
#define SPMV_Y SPMV_T
#pragma push_macro("SPMV__USE")
#undef SPMV__USE
#define SPMV__USE(family) ((SPMV__ALL_FORMATS || SPMV_CAT(SPMV_WITH_, family) + 0) && SPMV_CAT(SPMV__CPLX_, family) + 0)
#elif defined(SPMV_VEC)
#define SPMV_Y SPMV_VEC
#pragma push_macro("SPMV__USE")
#undef SPMV__USE
#define SPMV__USE(family) ((SPMV__ALL_FORMATS || SPMV_CAT(SPMV_WITH_, family) + 0) && SPMV_CAT(SPMV__MIXED_, family) + 0)
#else
#define SPMV_Y SPMV_VAL
#endif
#define SPMV_NAME(x) SPMV_CAT(SPMV_CAT3(spmv_, SPMV_TAG, _), x)
#define SPMV_IMAX ((int64_t)(sizeof(SPMV_I) == 4 ? INT32_MAX : INT64_MAX))

/* the device header of every family of formats/registry.h, then the generated handle and
 * the automatic selection on top of it */
#define SPMV_FORMAT(...)
#define SPMV__HEADER(family) SPMV_STR(cuda/family.cuh)
#include "../registry.h"
#undef SPMV_FORMAT
#undef SPMV__HEADER
#include "any.cuh"
#include "auto.cuh"

#undef SPMV_IMAX
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_I
#undef SPMV_Y
#if defined(SPMV_VEC) || defined(SPMV__CUDA_CPLX)
#pragma pop_macro("SPMV__USE")
#endif
#undef SPMV_VEC
#undef SPMV__CUDA_CPLX
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_IDX
