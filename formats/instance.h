/* Instantiates every format for one (value type, index type) pair.
 *
 *   #define SPMV_TAG dl        -- name tag: functions become spmv_dl_<format>_<verb>
 *   #define SPMV_VAL double    -- value type: float or double (a single token)
 *   #define SPMV_IDX int64_t   -- index type: int32_t or int64_t (signed)
 *   #include "spmv.h"          -- (after spmv.h has been included once, or first)
 *
 * Each format header is included in three parts, so that a format's layout,
 * converter, kernels and API stay in one file:
 *   SPMV_PART_TYPES    structs, converters, free, footprint (once)
 *   SPMV_PART_KERNELS  kernels written against the SIMD vocabulary (once per ISA;
 *                      formats/simd_use.h has defined V_*, SPMV_W, SPMV_KTARGET)
 *   SPMV_PART_API      the public _mv and friends, dispatching on the ISA (once)
 * The parameters are #undef'd at the end, so the header can be included again. */
#if !defined(SPMV_TAG) || !defined(SPMV_VAL) || !defined(SPMV_IDX)
#error "define SPMV_TAG, SPMV_VAL and SPMV_IDX before including formats/instance.h"
#endif

#define SPMV_T SPMV_VAL
#define SPMV_I SPMV_IDX
/* spmv_<tag>_<x> */
#define SPMV_NAME(x) SPMV_CAT(SPMV_CAT3(spmv_, SPMV_TAG, _), x)
/* spmv_<tag>_<x>_<isa>: a kernel instantiated for the ISA being emitted */
#define SPMV_K(x) SPMV_NAME(SPMV_CAT3(x, _, SPMV_ISA_SUFFIX))
/* Largest value of the index type (signed integer types only). */
#define SPMV_IMAX ((int64_t)(sizeof(SPMV_I) == 4 ? INT32_MAX : INT64_MAX))

/* Calls kern_<isa> args for the ISA `isa` (generic kernels use the default width). */
#if SPMV_HAVE_AVX512
#define SPMV__CASE512(kern, args) case SPMV_ISA_AVX512: SPMV_CAT(kern, _avx512) args; break;
#else
#define SPMV__CASE512(kern, args)
#endif
#if SPMV_HAVE_AVX2
#define SPMV__CASE2(kern, args) case SPMV_ISA_AVX2: SPMV_CAT(kern, _avx2) args; break;
#else
#define SPMV__CASE2(kern, args)
#endif
#define SPMV_DISPATCH(isa, kern, args)                                                          \
    do {                                                                                        \
        switch (isa) {                                                                          \
            SPMV__CASE512(kern, args)                                                           \
            SPMV__CASE2(kern, args)                                                             \
        default: SPMV_CAT3(kern, _, SPMV_CAT(SPMV__GSUF_, SPMV_VAL)) args; break;               \
        }                                                                                       \
    } while (0)
#define SPMV__GSUF_double g8
#define SPMV__GSUF_float g16

#define SPMV_PART_TYPES
#include "all.h"
#undef SPMV_PART_TYPES

#define SPMV_PART_KERNELS
#define SPMV_ISA_TOK generic
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_ISA_TOK
#if SPMV_HAVE_AVX2
#define SPMV_ISA_TOK avx2
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_ISA_TOK
#endif
#if SPMV_HAVE_AVX512
#define SPMV_ISA_TOK avx512
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_ISA_TOK
#endif
#undef SPMV_PART_KERNELS

/* Formats whose layout depends on the vector width (AXC/AXT, CSR5) also get portable
 * kernels at the other widths; they test SPMV_PART_KERNELS_XW as well. */
#define SPMV_PART_KERNELS_XW
#define SPMV_ISA_TOK generic
#define SPMV_GW 4
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_GW
#define SPMV_GW 32
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_GW
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 8
#define SPMV_GW 16
#else
#define SPMV_GW 8
#endif
#include "simd_use.h"
#include "all.h"
#include "simd_unuse.h"
#undef SPMV_GW
#undef SPMV_ISA_TOK
#undef SPMV_PART_KERNELS_XW

#define SPMV_PART_API
#include "all.h"
#undef SPMV_PART_API

#undef SPMV__CASE512
#undef SPMV__CASE2
#undef SPMV_DISPATCH
#undef SPMV__GSUF_double
#undef SPMV__GSUF_float
#undef SPMV_IMAX
#undef SPMV_K
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_I
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_IDX
