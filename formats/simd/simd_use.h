/* Selects one set of the SIMD vocabulary (formats/simd/simd.h) and gives it the short
 * names kernels are written with. A template header: no include guard; include
 * formats/simd/simd_unuse.h before including it again with other parameters.
 *
 * Parameters (defined by the includer, left defined afterwards):
 *   SPMV_VAL      double | float        (a single token)
 *   SPMV_VEC      optional: double with SPMV_VAL float, float with SPMV_VAL spmv_half or
 *                 spmv_bfloat16 (the lanes' type; default SPMV_VAL)
 *   SPMV_IDX      int32_t | int64_t     (a single token)
 *   SPMV_ISA_TOK  generic | avx2 | avx512
 *   SPMV_GW       generic only, optional: a literal 4, 8, 16 or 32
 *                 (default 8 for double, 16 for float)
 *
 * Defines:
 *   SPMV_W             lanes, an integer literal (usable in #if)
 *   spmv_v             the vector type
 *   V_zero V_set1 V_loadu V_storeu V_mload V_mstore V_add V_mul V_fma V_hsum V_scan
 *   V_loadt V_mloadt   W of the matrix's values (SPMV_VAL) as lanes: V_loadu and V_mload,
 *                      or with SPMV_VEC given (double lanes, float values) converted
 *   V_mask_first V_lane V_blend V_shift_up      the ops of simd.h, same arguments
 *   V_gather(base, idx), V_mgather(m, base, idx)   idx is a const SPMV_IDX *
 *   V_gather_i32 V_gather_i64 V_mgather_i32 V_mgather_i64   explicit index width
 *   SPMV_KTARGET       attribute to put on kernels of this ISA (target("avx2,fma"),
 *                      target("avx512f"), or nothing: generic, emulated AVX-512; with
 *                      16-bit values also f16c, avx512bw)
 *   SPMV_ISA_ENUM      SPMV_ISA_GENERIC | SPMV_ISA_AVX2 | SPMV_ISA_AVX512
 *   SPMV_ISA_SUFFIX    name token: g4 g8 g16 g32 (generic, by width) | avx2 | avx512
 *   SPMV_ISA_COMPILED  1 if the backend is compiled in (SPMV_HAVE_AVX2/512), else 0:
 *                      then the names are defined but the functions do not exist,
 *                      so wrap kernels in #if SPMV_ISA_COMPILED
 * Masks are `unsigned` (bit i = lane i). */
#include "simd.h"

#ifdef SPMV__U_ACTIVE
#error "formats/simd/simd_use.h included twice: include formats/simd/simd_unuse.h in between"
#endif
#if !defined(SPMV_VAL) || !defined(SPMV_IDX) || !defined(SPMV_ISA_TOK)
#error "formats/simd/simd_use.h: define SPMV_VAL, SPMV_IDX and SPMV_ISA_TOK first"
#endif
#define SPMV__U_ACTIVE 1

/* lane type -> d | s: the vectors' type, SPMV_VEC where the includer gives one (a float
 * matrix with double vectors: double lanes, the matrix's values widened by V_loadt) */
#ifdef SPMV_VEC
#define SPMV__ULT SPMV_VEC
#else
#define SPMV__ULT SPMV_VAL
#endif
#if SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2
#define SPMV__UVK z
#define SPMV__UCX 1
#elif SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 1
#define SPMV__UVK c
#define SPMV__UCX 1
#elif SPMV_CAT(SPMV__VSZ_, SPMV__ULT) == 8
#define SPMV__UVK d
#elif SPMV_CAT(SPMV__VSZ_, SPMV__ULT) == 4
#define SPMV__UVK s
#else
#error "formats/simd/simd_use.h: SPMV_VAL (and SPMV_VEC) must be the token double or float"
#endif

/* index type -> i32 | i64 */
#if SPMV_CAT(SPMV__ISZ_, SPMV_IDX) == 4
#define SPMV__UIK i32
#elif SPMV_CAT(SPMV__ISZ_, SPMV_IDX) == 8
#define SPMV__UIK i64
#else
#error "formats/simd/simd_use.h: SPMV_IDX must be the token int32_t or int64_t"
#endif

#if SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) != 1 && defined(SPMV__UCX) /* ---- complex lanes, AVX2 / AVX-512 ----
 * the portable complex set compiled for the ISA's target (GCC then emits its FMA and vector
 * instructions): W complex values, 4 (z) or 8 (c) for AVX2 and twice that for AVX-512 */
#if SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2 && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define SPMV_W 4
#define SPMV__UKEY g4z
#elif SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2
#define SPMV_W 8
#define SPMV__UKEY g8z
#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define SPMV_W 8
#define SPMV__UKEY g8c
#else
#define SPMV_W 16
#define SPMV__UKEY g16c
#endif
#define SPMV_ISA_SUFFIX SPMV_ISA_TOK
#if SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define SPMV_ISA_ENUM SPMV_ISA_AVX2
#define SPMV_KTARGET SPMV_TARGET_AVX2
#define SPMV_ISA_COMPILED SPMV_HAVE_AVX2
#else
#define SPMV_ISA_ENUM SPMV_ISA_AVX512
#define SPMV_KTARGET SPMV_TARGET_AVX512
#define SPMV_ISA_COMPILED SPMV_HAVE_AVX512
#endif

#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 1 /* ---- generic ---- */
#if !defined(SPMV_GW)
#if SPMV_CAT(SPMV__VSZ_, SPMV__ULT) == 8 || defined(SPMV__UCX)
#define SPMV__UGW 8
#else
#define SPMV__UGW 16
#endif
#elif SPMV_GW == 4
#define SPMV__UGW 4
#elif SPMV_GW == 8
#define SPMV__UGW 8
#elif SPMV_GW == 16
#define SPMV__UGW 16
#elif SPMV_GW == 32
#define SPMV__UGW 32
#else
#error "formats/simd/simd_use.h: SPMV_GW must be 4, 8, 16 or 32"
#endif
#define SPMV_W SPMV__UGW
#define SPMV__UKEY SPMV_CAT3(g, SPMV__UGW, SPMV__UVK)
#define SPMV_ISA_SUFFIX SPMV_CAT(g, SPMV__UGW)
#define SPMV_ISA_ENUM SPMV_ISA_GENERIC
#define SPMV_KTARGET
#define SPMV_ISA_COMPILED 1

#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2 /* ---- AVX2 ---- */
#if SPMV_CAT(SPMV__VSZ_, SPMV__ULT) == 8
#define SPMV_W 4
#else
#define SPMV_W 8
#endif
#define SPMV__UKEY SPMV_CAT(avx2, SPMV__UVK)
#define SPMV_ISA_SUFFIX avx2
#define SPMV_ISA_ENUM SPMV_ISA_AVX2
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 2
#define SPMV_KTARGET SPMV_TARGET_AVX2_16
#else
#define SPMV_KTARGET SPMV_TARGET_AVX2
#endif
#if SPMV_HAVE_AVX2
#define SPMV_ISA_COMPILED 1
#else
#define SPMV_ISA_COMPILED 0
#endif

#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 3 /* ---- AVX-512 ---- */
#if SPMV_CAT(SPMV__VSZ_, SPMV__ULT) == 8
#define SPMV_W 8
#else
#define SPMV_W 16
#endif
#define SPMV__UKEY SPMV_CAT(avx512, SPMV__UVK)
#define SPMV_ISA_SUFFIX avx512
#define SPMV_ISA_ENUM SPMV_ISA_AVX512
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 2
#define SPMV_KTARGET SPMV_TARGET_AVX512_16
#else
#define SPMV_KTARGET SPMV_TARGET_AVX512
#endif
#if SPMV_HAVE_AVX512
#define SPMV_ISA_COMPILED 1
#else
#define SPMV_ISA_COMPILED 0
#endif

#else
#error "formats/simd/simd_use.h: SPMV_ISA_TOK must be generic, avx2 or avx512"
#endif

/* set base name, e.g. spmv__avx2d: functions spmv__avx2d_<op>, vector spmv__avx2dv */
#define SPMV__UB SPMV_CAT(spmv__, SPMV__UKEY)

#define spmv_v SPMV_CAT(SPMV__UB, v)
#define V_zero SPMV_CAT(SPMV__UB, _zero)
#define V_set1 SPMV_CAT(SPMV__UB, _set1)
#define V_loadu SPMV_CAT(SPMV__UB, _loadu)
#define V_storeu SPMV_CAT(SPMV__UB, _storeu)
#define V_mload SPMV_CAT(SPMV__UB, _mload)
#define V_mstore SPMV_CAT(SPMV__UB, _mstore)
#define V_add SPMV_CAT(SPMV__UB, _add)
#define V_mul SPMV_CAT(SPMV__UB, _mul)
#define V_fma SPMV_CAT(SPMV__UB, _fma)
#define V_hsum SPMV_CAT(SPMV__UB, _hsum)
#define V_scan SPMV_CAT(SPMV__UB, _scan)
#define V_mask_first SPMV_CAT(SPMV__UB, _mask_first)
#define V_lane SPMV_CAT(SPMV__UB, _lane)
#define V_blend SPMV_CAT(SPMV__UB, _blend)
#define V_shift_up SPMV_CAT(SPMV__UB, _shift_up)
#define V_gather_i32 SPMV_CAT(SPMV__UB, _gather_i32)
#define V_gather_i64 SPMV_CAT(SPMV__UB, _gather_i64)
#define V_mgather_i32 SPMV_CAT(SPMV__UB, _mgather_i32)
#define V_mgather_i64 SPMV_CAT(SPMV__UB, _mgather_i64)
#define V_gather SPMV_CAT3(SPMV__UB, _gather_, SPMV__UIK)
#define V_mgather SPMV_CAT3(SPMV__UB, _mgather_, SPMV__UIK)
/* the row sum's complex lanes (formats/simd/simd_complex.h): SPMV_CXW complex values a vector,
 * spmv_cv, C_zero C_add C_gather C_mac C_fold, SPMV_CXR the real type; SPMV_CXW 0 where the set
 * has none (the portable sets, real lanes) */
#if defined(SPMV__UCX) && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) != 1 && SPMV_ISA_COMPILED
#define SPMV__UCB SPMV_CAT3(spmv__cx, SPMV_ISA_TOK, SPMV__UVK)
#if SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2 && SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2
#define SPMV_CXW 2
#define spmv_cv __m256d
#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define SPMV_CXW 4
#define spmv_cv __m256
#elif SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2
#define SPMV_CXW 4
#define spmv_cv SPMV_M512D
#else
#define SPMV_CXW 8
#define spmv_cv SPMV_M512
#endif
#if SPMV_CAT(SPMV__VCX_, SPMV__ULT) + 0 == 2
#define SPMV_CXR double
#else
#define SPMV_CXR float
#endif
#define C_zero SPMV_CAT(SPMV__UCB, _zero)
#define C_add SPMV_CAT(SPMV__UCB, _add)
#define C_gather SPMV_CAT3(SPMV__UCB, _gather_, SPMV__UIK)
#define C_mac SPMV_CAT(SPMV__UCB, _mac)
#define C_fold SPMV_CAT(SPMV__UCB, _fold)
#else
#define SPMV_CXW 0
#endif
/* W of the matrix's values (SPMV_VAL) as lanes: V_loadu / V_mload, or with SPMV_VEC widened
 * (float to double: _loadw; binary16, bfloat16 to float: _loadh, _loadb) */
#ifdef SPMV_VEC
#define SPMV__ULD_float w
#define SPMV__ULD_spmv_half h
#define SPMV__ULD_spmv_bfloat16 b
#define V_loadt SPMV_CAT3(SPMV__UB, _load, SPMV_CAT(SPMV__ULD_, SPMV_VAL))
#define V_mloadt SPMV_CAT3(SPMV__UB, _mload, SPMV_CAT(SPMV__ULD_, SPMV_VAL))
#else
#define V_loadt V_loadu
#define V_mloadt V_mload
#endif
/* V_tv(v): one stored value as a lane (a kernel's scalar paths): SPMV_TV (formats/instance.h), or
 * binary16 and bfloat16 on AVX2 and AVX-512 by one vpinsrw (and F16C's conversion) */
#define SPMV__UISH_spmv_half 1
#define SPMV__UISH_spmv_bfloat16 2
#if SPMV_CAT(SPMV__UISH_, SPMV_VAL) + 0 == 1 && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define V_tv(v) spmv__avx2_h2f(v)
#elif SPMV_CAT(SPMV__UISH_, SPMV_VAL) + 0 == 1 && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 3
#define V_tv(v) spmv__avx512_h2f(v)
#elif SPMV_CAT(SPMV__UISH_, SPMV_VAL) + 0 == 2 && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define V_tv(v) spmv__avx2_b2f(v)
#elif SPMV_CAT(SPMV__UISH_, SPMV_VAL) + 0 == 2 && SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 3
#define V_tv(v) spmv__avx512_b2f(v)
#else
#define V_tv(v) SPMV_TV(v)
#endif
