/* Instantiates the formats of formats/registry.h for one (value type, index type) pair.
 *
 *   #define SPMV_TAG dl        -- name tag: functions become spmv_dl_<format>_<verb>
 *   #define SPMV_VAL double    -- value type: float or double (a single token)
 *   #define SPMV_IDX int64_t   -- index type: int32_t or int64_t (signed)
 *   #include "spmv.h"          -- (after spmv.h has been included once, or first)
 *
 * Each format header is included in three parts, so that a format's layout,
 * converter, kernels and API stay in one file:
 *   SPMV_PART_TYPES    structs, params, converters, free, footprint (once)
 *   SPMV_PART_KERNELS  kernels written against the SIMD vocabulary, once per backend and
 *                      width: portable at 4, 8, 16 and 32 lanes, AVX2, AVX-512
 *                      (formats/simd/simd_use.h has defined V_*, SPMV_W, SPMV_KTARGET)
 *   SPMV_PART_API      the public _mv and friends, dispatching with SPMV_DISPATCH (once)
 * then formats/any.h generates the run-time handle from the registry rows and formats/auto.h
 * the automatic selection over them.
 * The parameters are #undef'd at the end, so the header can be included again. */
#if !defined(SPMV_TAG) || !defined(SPMV_VAL) || !defined(SPMV_IDX)
#error "define SPMV_TAG, SPMV_VAL and SPMV_IDX before including formats/instance.h"
#endif

#define SPMV_T SPMV_VAL
#define SPMV_I SPMV_IDX
/* SPMV_VEC (optional, only where it differs from SPMV_VAL): the type of x, y, alpha, beta and the
 * sums, the matrix's values staying SPMV_VAL (a float matrix with double vectors: tag ds, SPMV_VAL
 * float, SPMV_VEC double). SPMV_Y is that type in the format headers (SPMV_T where it is not
 * given). Such a "mixed" tag instantiates the families that support it (SPMV__MIXED_<family>,
 * formats/core/core.h), their verbs, the run-time handle and the selection over them
 * (docs/USAGE.md, "Precision"). */
/* a complex tag (SPMV_VAL spmv_cfloat or spmv_cdouble: tags c, z; C, or C++ with GNU C++'s _Complex), the families with
 * SPMV__CPLX_<family> (formats/core/core.h); its AVX2 and AVX-512 kernels are the portable complex
 * set compiled for those targets (formats/simd/simd_use.h) */
#if SPMV_CAT(SPMV__VCX_, SPMV_VAL) + 0 > 0
#ifdef SPMV_VEC
#error "formats/instance.h: a complex tag's vectors have its values' type (no SPMV_VEC)"
#endif
#define SPMV__COMPLEX 1
#include "simd/simd_complex.h"
/* GCC's loop vectoriser is kept from a complex tag's functions: it vectorised the loops over a
 * group's accumulator vectors (ell, jad, coo) across the portable complex set's parts, through
 * transposes and stores to the stack, where the SLP vectoriser pairs each product's parts in
 * registers (docs/PERFORMANCE.md, "Complex"). GCC 12 has no per-loop switch for it. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && !defined(__INTEL_COMPILER)
#define SPMV__CX_OPTS 1
#pragma GCC push_options
#pragma GCC optimize("no-tree-loop-vectorize")
#endif
#pragma push_macro("SPMV__USE")
#undef SPMV__USE
#define SPMV__USE(family) ((SPMV__ALL_FORMATS || SPMV_CAT(SPMV_WITH_, family) + 0) && SPMV_CAT(SPMV__CPLX_, family) + 0)
#else
#define SPMV__COMPLEX 0
#endif
#ifdef SPMV_VEC
#if !(SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 4 && SPMV_CAT(SPMV__VSZ_, SPMV_VEC) == 8) &&                               \
    !(SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 2 && SPMV_CAT(SPMV__VSZ_, SPMV_VEC) == 4)
#error "formats/instance.h: SPMV_VEC: SPMV_VAL float with SPMV_VEC double (tag ds), or SPMV_VAL spmv_half or spmv_bfloat16 with SPMV_VEC float (tags h, b)"
#endif
#define SPMV_Y SPMV_VEC
#define SPMV__MIXED 1
#pragma push_macro("SPMV__USE")
#undef SPMV__USE
#define SPMV__USE(family) ((SPMV__ALL_FORMATS || SPMV_CAT(SPMV_WITH_, family) + 0) && SPMV_CAT(SPMV__MIXED_, family) + 0)
#else
#define SPMV_Y SPMV_VAL
#define SPMV__MIXED 0
#endif
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 2
#ifndef SPMV_VEC
#error "formats/instance.h: a 16-bit SPMV_VAL needs SPMV_VEC float (its sums are float)"
#endif
#endif
/* SPMV_TV(v): a stored value as the vectors' type (exact); SPMV_VT(x): a double or vector value
 * rounded to the values' type (to nearest; a 16-bit type: formats/core/half.h) */
#define SPMV__TV_spmv_cfloat(v) ((SPMV_Y)(v))
#define SPMV__TV_spmv_cdouble(v) ((SPMV_Y)(v))
#define SPMV__VT_spmv_cfloat(x) ((spmv_cfloat)(x))
#define SPMV__VT_spmv_cdouble(x) ((spmv_cdouble)(x))
#define SPMV__PREC_spmv_cfloat "complex-float"
#define SPMV__PREC_spmv_cdouble "complex-double"
#define SPMV__TV_float(v) ((SPMV_Y)(v))
#define SPMV__TV_double(v) ((SPMV_Y)(v))
#define SPMV__TV_spmv_half(v) spmv_half_to_float(v)
#define SPMV__TV_spmv_bfloat16(v) spmv_bfloat16_to_float(v)
#define SPMV__VT_float(x) ((float)(x))
#define SPMV__VT_double(x) ((double)(x))
#define SPMV__VT_spmv_half(x) spmv_half_from_double((double)(x))
#define SPMV__VT_spmv_bfloat16(x) spmv_bfloat16_from_double((double)(x))
/* the precision a saved plan records: the values' type, then the vectors' where they differ */
#define SPMV__PREC_float "float"
#define SPMV__PREC_double "double"
#define SPMV__PREC_spmv_half "half"
#define SPMV__PREC_spmv_bfloat16 "bfloat16"
#if SPMV__MIXED
#define SPMV__PRECISION_NAME SPMV_CAT(SPMV__PREC_, SPMV_VAL) "-" SPMV_CAT(SPMV__PREC_, SPMV_VEC)
#else
#define SPMV__PRECISION_NAME SPMV_CAT(SPMV__PREC_, SPMV_VAL)
#endif
/* SPMV__VKEY: the tag's value key in the ISA calibration (formats/calib.h, SPMV_VKEY_*) */
#define SPMV__VKEYOF_float 4
#define SPMV__VKEYOF_double 8
#define SPMV__VKEYOF_spmv_half SPMV_VKEY_H
#define SPMV__VKEYOF_spmv_bfloat16 SPMV_VKEY_B
#define SPMV__VKEYOF_spmv_cfloat SPMV_VKEY_C
#define SPMV__VKEYOF_spmv_cdouble SPMV_VKEY_Z
#if SPMV__MIXED && SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 4
#define SPMV__VKEY SPMV_VKEY_DS
#else
#define SPMV__VKEY SPMV_CAT(SPMV__VKEYOF_, SPMV_VAL)
#endif
/* SPMV__WIDE: the type a conversion from triplets sums repeated entries in (double, or double
 * complex for a complex tag); SPMV__TRIP(t, k): entry k of triplets t as that type;
 * SPMV__TO_INF(w, v): w finite (each part) and v, w rounded to the values' type, infinite;
 * SPMV__ISFIN(v): a vector value finite (each part); SPMV__RE(v): its real part, SPMV__RSIZE the bytes
 * of a value's real part (the exact integers of the value map, formats/any.h) */
#if SPMV__COMPLEX
#define SPMV__WIDE spmv_cdouble
#define SPMV__TRIP(t, k) spmv_cdouble_make((t)->val[k], (t)->vim ? (t)->vim[k] : 0.0)
#define SPMV__TO_INF(w, v)                                                                                   \
    ((isfinite(__builtin_creal(w)) && isinf(__builtin_creal(v))) || (isfinite(__builtin_cimag(w)) && isinf(__builtin_cimag(v))))
#define SPMV__ISFIN(v) (isfinite(__builtin_creal(v)) && isfinite(__builtin_cimag(v)))
#define SPMV__RE(v) __builtin_creal(v)
#define SPMV__RSIZE (sizeof(SPMV_T) / 2)
#else
#define SPMV__ISFIN(v) isfinite(v)
#define SPMV__RE(v) (v)
#define SPMV__RSIZE sizeof(SPMV_T)
#define SPMV__WIDE double
#define SPMV__TRIP(t, k) ((t)->val[k])
#define SPMV__TO_INF(w, v) (isfinite(w) && isinf(SPMV_TV(v)))
#endif
/* SPMV__CONJ(v): the complex conjugate (a real value unchanged) */
#define SPMV__CONJ_spmv_cdouble(v) __builtin_conj(v)
#define SPMV__CONJ_spmv_cfloat(v) __builtin_conjf(v)
#if SPMV__COMPLEX
#define SPMV__CONJ(v) SPMV_CAT(SPMV__CONJ_, SPMV_VAL)(v)
#else
#define SPMV__CONJ(v) (v)
#endif
#define SPMV_TV(v) SPMV_CAT(SPMV__TV_, SPMV_VAL)(v)
#define SPMV_VT(x) SPMV_CAT(SPMV__VT_, SPMV_VAL)(x)
/* SPMV__NATIVE_W(isa): the lanes of this tag's kernels for an ISA (the layouts that follow the
 * vector width: csr5's omega, ell's c): AVX2 4 d / 8 s, AVX-512 and portable 8 / 16; complex
 * lanes (formats/simd/simd_use.h) AVX2 4 z / 8 c, AVX-512 8 / 16, portable 8 */
#if SPMV__COMPLEX
#define SPMV__NATIVE_W(isa) ((isa) == SPMV_ISA_AVX2 ? (sizeof(SPMV_Y) == 16 ? 4 : 8) : (isa) == SPMV_ISA_AVX512 ? (sizeof(SPMV_Y) == 16 ? 8 : 16) : 8)
#else
#define SPMV__NATIVE_W(isa) ((isa) == SPMV_ISA_AVX2 ? (sizeof(SPMV_Y) == 8 ? 4 : 8) : (sizeof(SPMV_Y) == 8 ? 8 : 16))
#endif
/* spmv_<tag>_<x> */
#define SPMV_NAME(x) SPMV_CAT(SPMV_CAT3(spmv_, SPMV_TAG, _), x)
/* spmv_<tag>_<x>_<isa>: a kernel instantiated for the backend being emitted */
#define SPMV_K(x) SPMV_NAME(SPMV_CAT3(x, _, SPMV_ISA_SUFFIX))
/* The ISA a build of a row uses (SPMV_ISA_AUTO: $SPMV_ISA, the calibrated pick, the widest;
 * formats/calib.h, spmv_isa_for) */
#define SPMV_ISA_FOR(fmt, req, out) spmv_isa_for((fmt), SPMV__VKEY, (int)sizeof(SPMV_I), (req), (out), NULL)
/* Largest value of the index type (signed integer types only). */
#define SPMV_IMAX ((int64_t)(sizeof(SPMV_I) == 4 ? INT32_MAX : INT64_MAX))

/* The one dispatch of every kernel: SPMV_DISPATCH(st, isa, width, kern, args) calls
 * kern_avx512 / kern_avx2 for those ISAs, and for SPMV_ISA_GENERIC the portable kernel of
 * `width` lanes (4, 8, 16 or 32; 0 = the type's default, 8 double / 16 float). The one
 * fallback: any other (isa, width) calls nothing and sets st = SPMV_ERR_ISA (converters
 * validate both, so a built object never gets there). st = SPMV_OK otherwise. */
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
#define SPMV_DISPATCH(st, isa, width, kern, args)                                                               \
    do {                                                                                                        \
        (st) = SPMV_OK;                                                                                         \
        switch (isa) {                                                                                          \
            SPMV__CASE512(kern, args)                                                                           \
            SPMV__CASE2(kern, args)                                                                             \
        case SPMV_ISA_GENERIC:                                                                                  \
            switch ((width) ? (width) : (sizeof(SPMV_Y) >= 8 ? 8 : 16)) {                                       \
            case 4: SPMV_CAT(kern, _g4) args; break;                                                            \
            case 8: SPMV_CAT(kern, _g8) args; break;                                                            \
            case 16: SPMV_CAT(kern, _g16) args; break;                                                          \
            case 32: SPMV_CAT(kern, _g32) args; break;                                                          \
            default: (st) = SPMV_ERR_ISA; break;                                                                \
            }                                                                                                   \
            break;                                                                                              \
        default: (st) = SPMV_ERR_ISA; break;                                                                    \
        }                                                                                                       \
    } while (0)

#define SPMV_FORMAT(...)
#define SPMV__HEADER(family) SPMV_STR(family.h)

/* 1. the types of every format, the handles and the selection (and the formats' one-line
 *    inline accessors: parameter defaults and parsers, names and flags) */
#define SPMV_PART_TYPES
#include "registry.h"
#undef SPMV__HEADER
#undef SPMV_FORMAT
#define SPMV__HEADER(family) "core/empty.h"
#include "any.h"
#include "calib.h"
#include "auto.h"
#undef SPMV__HEADER
#define SPMV_FORMAT(...)
#undef SPMV_PART_TYPES

/* 2. the prototypes of every public function, each in its format's header (SPMV_API: static
 *    inline, or external in the SPMV_DECLARATIONS_ONLY / SPMV_IMPLEMENTATION modes) */
#define SPMV__HEADER(family) SPMV_STR(family.h)
#define SPMV_PART_DECLS
#include "registry.h"
#include "core/ref.h"
#undef SPMV__HEADER
#undef SPMV_FORMAT
#define SPMV__HEADER(family) "core/empty.h"
#include "any.h"
#include "calib.h"
#include "auto.h"
#include "auto_plan.h"
#undef SPMV__HEADER
#define SPMV_FORMAT(...)
#undef SPMV_PART_DECLS

/* 3. the bodies, unless SPMV_DECLARATIONS_ONLY: converters, kernels per backend and width,
 *    the public products, the handle and the selection */
#if SPMV__BODIES
#define SPMV__HEADER(family) SPMV_STR(family.h)
#define SPMV_PART_DEFS
#include "registry.h"
#include "core/ref.h"
#undef SPMV_PART_DEFS

#define SPMV_PART_KERNELS
#define SPMV_ISA_TOK generic
#define SPMV_GW 4
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_GW
#define SPMV_GW 8
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_GW
#define SPMV_GW 16
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_GW
#define SPMV_GW 32
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_GW
#undef SPMV_ISA_TOK
#if SPMV_HAVE_AVX2
#define SPMV_ISA_TOK avx2
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_ISA_TOK
#endif
#if SPMV_HAVE_AVX512
#define SPMV_ISA_TOK avx512
#include "simd/simd_use.h"
#include "registry.h"
#include "simd/simd_unuse.h"
#undef SPMV_ISA_TOK
#endif
#undef SPMV_PART_KERNELS

#define SPMV_PART_API
#include "registry.h"
#undef SPMV_PART_API

/* what the selection knows about each format (formats/core/rules.h), once per unit */
#define SPMV_PART_RULES
#include "registry.h"
#undef SPMV_PART_RULES
#undef SPMV__HEADER
#undef SPMV_FORMAT

#define SPMV_PART_DEFS
#include "any.h"
#include "auto.h"
#include "calib.h" /* its measurement times the selection's inspection (auto.h) */
#include "auto_plan.h"
#undef SPMV_PART_DEFS
#else
#undef SPMV_FORMAT
#endif /* SPMV__BODIES */

#undef SPMV__CASE512
#undef SPMV__CASE2
#undef SPMV_DISPATCH
#undef SPMV_IMAX
#undef SPMV_TV
#undef SPMV__NATIVE_W
#undef SPMV__CONJ
#undef SPMV_ISA_FOR
#undef SPMV__WIDE
#undef SPMV__TRIP
#undef SPMV__TO_INF
#undef SPMV__ISFIN
#undef SPMV__RE
#undef SPMV__RSIZE
#undef SPMV__PRECISION_NAME
#undef SPMV_VT
#undef SPMV_K
#undef SPMV_NAME
#undef SPMV_T
#undef SPMV_I
#undef SPMV_Y
#if SPMV__MIXED || SPMV__COMPLEX
#pragma pop_macro("SPMV__USE")
#endif
#ifdef SPMV__CX_OPTS
#pragma GCC pop_options
#undef SPMV__CX_OPTS
#endif
#undef SPMV__MIXED
#undef SPMV__COMPLEX
#undef SPMV__VKEY
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_VEC
#undef SPMV_IDX
