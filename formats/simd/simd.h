/* spmv SIMD vocabulary: the small set of vector operations every kernel is written
 * against, once, and instantiated per backend and width (see formats/simd/simd_use.h for
 * the short V_* names kernels use).
 *
 * Sets (T = value type, W = lanes; each set's functions are <base>_<op>, its vector
 * type is <base>v):
 *   spmv__g{4,8,16,32}{d,s}  portable C, any width       (vector: struct { T v[W]; })
 *   spmv__avx2d, spmv__avx2s  AVX2+FMA, 4 doubles / 8 floats (__m256d / __m256)
 *   spmv__avx512d, spmv__avx512s  AVX-512F, 8 doubles / 16 floats
 * (d = double, s = float.) The AVX sets are compiled with per-function target
 * attributes, so the translation unit needs no -mavx flags; call them only when
 * spmv_isa_supported() says so.
 *
 * Ops, with identical semantics in every set. Masks are `unsigned` bitmasks in the
 * API: bit i = lane i, bits at or above W are ignored.
 *   v zero(void)                          all lanes 0
 *   v set1(T x)                           all lanes x
 *   v loadu(const T *p)                   W values, any alignment
 *   void storeu(T *p, v a)
 *   v mload(unsigned m, const T *p)       on-lanes p[i], off-lanes 0; off-lane memory
 *                                         is never touched (may lie past an array end)
 *   void mstore(T *p, unsigned m, v a)    writes only the on-lanes
 *   v add(v a, v b), mul(v a, v b)
 *   v fma(v a, v b, v c)                  a*b+c (fused on AVX; generic: as compiled)
 *   T hsum(v a)                           sum of the lanes (order unspecified)
 *   v scan(v a)                           inclusive prefix sum: lane i = a0+...+ai
 *   v gather_i32(const T *base, const int32_t *idx)   lane i = base[idx[i]]
 *   v gather_i64(const T *base, const int64_t *idx)
 *   v mgather_i32(unsigned m, const T *base, const int32_t *idx)
 *   v mgather_i64(unsigned m, const T *base, const int64_t *idx)
 *                                         off-lanes 0; neither idx[i] nor base[...]
 *                                         is read for an off-lane
 *   unsigned mask_first(int n)            low n bits set (n clamped to [0, W])
 *   T lane(v a, int i)                    lane i (i taken modulo W; not fast)
 *   v blend(unsigned m, v a, v b)         lane from b where the bit is set, else a
 *   v shift_up(v a, T fill)               lane 0 = fill, lane i = a[i-1]
 *
 * Emulation (test builds): with -DSPMV_EMULATE_AVX512 the AVX-512 sets are built on
 * SIMDe (simde/x86/avx512.h, on the system include path) and run on any x86-64 CPU.
 * Every AVX-512 intrinsic is spelled SPMV_MM512(op) (present in SIMDe) or
 * SPMV_MM512X(op) (missing from SIMDe 0.7.4, provided by tests/emu/simde_shims.h),
 * its 256- and 128-bit helpers SPMV_MM256(op) and SPMV_MM128(op), types
 * SPMV_M512D/SPMV_M512/SPMV_M512I, SPMV_M256D/SPMV_M256/SPMV_M256I, SPMV_M128D/SPMV_M128 and
 * SPMV_MMASK8/SPMV_MMASK16.
 * Complex lanes (tags z, c) add a row sum's vocabulary on AVX2 and AVX-512:
 * formats/simd/simd_complex.h. */
#ifndef SPMV_SIMD_H
#define SPMV_SIMD_H
/* Unmasked gathers: SPMV_HW_GATHER=1 uses the gather instructions; the default builds
 * the vector from scalar loads, which measured faster on the Xeons we run on (their
 * microcode-mitigated gathers: 41 vs 24 ms AVX2, 28 vs 25 ms AVX-512 on a 16M-entry
 * gather-FMA loop). Masked gathers always use the instructions. */
#ifndef SPMV_HW_GATHER
#define SPMV_HW_GATHER 0
#endif

#include "../core/core.h"

/* SPMV_GENERIC_ATTR: an attribute for the portable set's functions (default none). The test
 * suite's -O0 sanitizer builds set it to __attribute__((optimize("O2"))) (tests/harness.h):
 * unoptimised, each one-line lane loop copies its vector structs and was 58% of those runs. */
#ifndef SPMV_GENERIC_ATTR
#define SPMV_GENERIC_ATTR
#endif

#if UINT_MAX < 0xFFFFFFFFu
#error "spmv: the SIMD masks need a 32-bit unsigned int"
#endif

#if SPMV_HAVE_AVX2 || SPMV_HAVE_AVX512
#include <immintrin.h>
#endif

/* ---- token maps used by simd_use.h ------------------------------------------ */
#define SPMV__VSZ_double 8
#define SPMV__VSZ_float 4
#define SPMV__VSZ_spmv_half 2
#define SPMV__VSZ_spmv_bfloat16 2
/* complex lane types: 2 double complex, 1 float complex (simd_use.h) */
#define SPMV__VCX_spmv_cdouble 2
#define SPMV__VCX_spmv_cfloat 1
#define SPMV__ISZ_int32_t 4
#define SPMV__ISZ_int64_t 8
#define SPMV__ISAID_generic 1
#define SPMV__ISAID_avx2 2
#define SPMV__ISAID_avx512 3

/* ---- portable C: 4, 8, 16, 32 lanes of double and float ---------------------- */
#define SPMV__GT double
#define SPMV__GW 4
#define SPMV__GP spmv__g4d
#include "simd_generic.h"
#define SPMV__GT double
#define SPMV__GW 8
#define SPMV__GP spmv__g8d
#include "simd_generic.h"
#define SPMV__GT double
#define SPMV__GW 16
#define SPMV__GP spmv__g16d
#include "simd_generic.h"
#define SPMV__GT double
#define SPMV__GW 32
#define SPMV__GP spmv__g32d
#include "simd_generic.h"
#define SPMV__GT float
#define SPMV__GW 4
#define SPMV__GP spmv__g4s
#include "simd_generic.h"
#define SPMV__GT float
#define SPMV__GW 8
#define SPMV__GP spmv__g8s
#include "simd_generic.h"
#define SPMV__GT float
#define SPMV__GW 16
#define SPMV__GP spmv__g16s
#include "simd_generic.h"
#define SPMV__GT float
#define SPMV__GW 32
#define SPMV__GP spmv__g32s
#include "simd_generic.h"

#if SPMV_HAVE_AVX512 && defined(SPMV_EMULATE_AVX512)
/* GCC and clang warn (-Wpsabi) at calls passing SIMDe's 256/512-bit vectors by value
 * without avx/avx512f; irrelevant between static functions of one translation unit,
 * so silenced for the rest of an emulation build (GCC still prints one "ABI ... has
 * changed in GCC 4.6" note from inside SIMDe that no pragma reaches; -Wno-psabi
 * silences it). */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpsabi"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#endif

/* GCC 12's intrinsic headers build "undefined" vectors as `__m256d __Y = __Y;`
 * (unmasked gathers, casts/extracts to 256 bits, permutexvar, ...), which g++ reports
 * as -Wuninitialized once inlined into a kernel (GCC bug 105593, fixed in 13). The
 * vocabulary avoids the worst offenders and silences the rest here; GCC 12 honours
 * these pragmas along the inlining chain, so kernels calling V_* stay quiet. */
#if defined(__GNUC__) && !defined(__clang__) && (SPMV_HAVE_AVX2 || SPMV_HAVE_AVX512)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define SPMV__DIAG_POP 1
#endif

/* ---- AVX2 + FMA --------------------------------------------------------------- */
#if SPMV_HAVE_AVX2
#define SPMV_TARGET_AVX2 __attribute__((target("avx2,fma")))
/* the kernels of the 16-bit tags (h, b) convert binary16 with F16C (every AVX2 CPU has it;
 * spmv_isa_for checks it for 2-byte values) */
#define SPMV_TARGET_AVX2_16 __attribute__((target("avx2,fma,f16c")))

/* -- 4 doubles -- */
typedef __m256d spmv__avx2dv;

/* bitmask -> all-ones 64-bit lanes */
static inline SPMV_TARGET_AVX2 __m256i spmv__avx2d_mvec_(unsigned m) {
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)(m & 0xFu)), bit), bit);
}
/* bitmask -> all-ones 32-bit lanes, 4 of them */
static inline SPMV_TARGET_AVX2 __m128i spmv__avx2d_mvec32_(unsigned m) {
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(m & 0xFu)), bit), bit);
}

static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_zero(void) { return _mm256_setzero_pd(); }
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_set1(double x) { return _mm256_set1_pd(x); }
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_loadu(const double *p) { return _mm256_loadu_pd(p); }
static inline SPMV_TARGET_AVX2 void spmv__avx2d_storeu(double *p, __m256d a) { _mm256_storeu_pd(p, a); }
/* vmaskmovpd costs more than a plain load on AMD Zen 4 (hdia's masked path: 1.9x the portable
 * kernel's time on stencils), and a kernel's masks are mostly full: those take the plain load */
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_mload(unsigned m, const double *p) {
    if ((m & 0xFu) == 0xFu) return _mm256_loadu_pd(p);
    return _mm256_maskload_pd(p, spmv__avx2d_mvec_(m));
}
/* four floats as doubles (a float matrix with double vectors: V_loadt); masked: off-lanes 0,
 * their memory not read */
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_loadw(const float *p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_mloadw(unsigned m, const float *p) {
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    if ((m & 0xFu) == 0xFu) return _mm256_cvtps_pd(_mm_loadu_ps(p));
    return _mm256_cvtps_pd(_mm_maskload_ps(p, _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(m & 0xFu)), bit), bit)));
}
static inline SPMV_TARGET_AVX2 void spmv__avx2d_mstore(double *p, unsigned m, __m256d a) {
    _mm256_maskstore_pd(p, spmv__avx2d_mvec_(m), a);
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_mul(__m256d a, __m256d b) { return _mm256_mul_pd(a, b); }
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_fma(__m256d a, __m256d b, __m256d c) {
    return _mm256_fmadd_pd(a, b, c);
}
static inline SPMV_TARGET_AVX2 double spmv__avx2d_hsum(__m256d a) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
    s = _mm_add_sd(s, _mm_unpackhi_pd(s, s));
    return _mm_cvtsd_f64(s);
}
/* log-step scan: add the vector shifted up by 1 lane, then by 2 lanes */
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_scan(__m256d a) {
    const __m256d z = _mm256_setzero_pd();
    a = _mm256_add_pd(a, _mm256_blend_pd(_mm256_permute4x64_pd(a, 0x90), z, 0x1)); /* 0,a0,a1,a2 */
    a = _mm256_add_pd(a, _mm256_blend_pd(_mm256_permute4x64_pd(a, 0x40), z, 0x3)); /* 0,0,a0,a1 */
    return a;
}
/* Unmasked gathers are spelled as masked ones with an all-on mask and a zero source:
 * the same instruction (it always takes a mask), a zeroed destination instead of an
 * undefined one, and no GCC 12 C++ -Wuninitialized false positive from the
 * _mm*_undefined_* inside the unmasked intrinsics. */
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_gather_i32(const double *base, const int32_t *idx) {
#if SPMV_HW_GATHER
    return _mm256_mask_i32gather_pd(_mm256_setzero_pd(), base, _mm_loadu_si128((const __m128i *)(const void *)idx),
                                    _mm256_castsi256_pd(_mm256_set1_epi64x(-1)), 8);
#else
    return _mm256_set_pd(base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_gather_i64(const double *base, const int64_t *idx) {
#if SPMV_HW_GATHER
    return _mm256_mask_i64gather_pd(_mm256_setzero_pd(), base, _mm256_loadu_si256((const __m256i *)(const void *)idx),
                                    _mm256_castsi256_pd(_mm256_set1_epi64x(-1)), 8);
#else
    return _mm256_set_pd(base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_mgather_i32(unsigned m, const double *base, const int32_t *idx) {
    __m128i vi = _mm_maskload_epi32((const int *)(const void *)idx, spmv__avx2d_mvec32_(m));
    return _mm256_mask_i32gather_pd(_mm256_setzero_pd(), base, vi, _mm256_castsi256_pd(spmv__avx2d_mvec_(m)), 8);
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_mgather_i64(unsigned m, const double *base, const int64_t *idx) {
    __m256i mv = spmv__avx2d_mvec_(m);
    __m256i vi = _mm256_maskload_epi64((const long long *)(const void *)idx, mv);
    return _mm256_mask_i64gather_pd(_mm256_setzero_pd(), base, vi, _mm256_castsi256_pd(mv), 8);
}
static inline SPMV_TARGET_AVX2 unsigned spmv__avx2d_mask_first(int n) {
    return n <= 0 ? 0u : n >= 4 ? 0xFu : (1u << n) - 1u;
}
static inline SPMV_TARGET_AVX2 double spmv__avx2d_lane(__m256d a, int i) {
    double t[4];
    _mm256_storeu_pd(t, a);
    return t[i & 3];
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_blend(unsigned m, __m256d a, __m256d b) {
    return _mm256_blendv_pd(a, b, _mm256_castsi256_pd(spmv__avx2d_mvec_(m)));
}
static inline SPMV_TARGET_AVX2 __m256d spmv__avx2d_shift_up(__m256d a, double fill) {
    return _mm256_blend_pd(_mm256_permute4x64_pd(a, 0x90), _mm256_set1_pd(fill), 0x1);
}

/* -- 8 floats -- */
typedef __m256 spmv__avx2sv;

static inline SPMV_TARGET_AVX2 __m256i spmv__avx2s_mvec_(unsigned m) {
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(m & 0xFFu)), bit), bit);
}

static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_zero(void) { return _mm256_setzero_ps(); }
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_set1(float x) { return _mm256_set1_ps(x); }
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline SPMV_TARGET_AVX2 void spmv__avx2s_storeu(float *p, __m256 a) { _mm256_storeu_ps(p, a); }
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_mload(unsigned m, const float *p) { /* as avx2d_mload */
    if ((m & 0xFFu) == 0xFFu) return _mm256_loadu_ps(p);
    return _mm256_maskload_ps(p, spmv__avx2s_mvec_(m));
}
/* eight 16-bit values as floats (V_loadt of tags h and b, whose kernels have SPMV_TARGET_AVX2_16):
 * binary16 by F16C's vcvtph2ps, bfloat16 widened and shifted into float's upper half. AVX2 has
 * no 16-bit masked load: a partial mask loads the 32-bit pairs whose two values are both on with
 * vpmaskmovd (off pairs not read) and inserts each remaining on-lane (vpinsrw); off-lanes 0, their
 * memory not read. (Not lanes stored to a stack array and reloaded as one vector: a 16-byte load
 * of 2-byte stores cannot take them by store forwarding and waits for them to retire, at every
 * partial mask: docs/PERFORMANCE.md, "16-bit values".) */
static inline SPMV_TARGET_AVX2 __m128i spmv__avx2_mload16_(unsigned m, const uint16_t *p) {
    const __m128i bit = _mm_setr_epi32(1, 4, 16, 64);
    unsigned pairs, lone;
    __m128i v;
    m &= 0xFFu;
    if (m == 0xFFu) return _mm_loadu_si128((const __m128i *)(const void *)p);
    pairs = m & (m >> 1) & 0x55u;    /* bit 2j: lanes 2j and 2j+1 both on */
    lone = m & ~(pairs | pairs << 1); /* on-lanes whose pair is not */
    v = pairs ? _mm_maskload_epi32((const int *)(const void *)p,
                                   _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)pairs), bit), bit))
              : _mm_setzero_si128();
#define SPMV__INS16(i) if ((lone >> (i)) & 1u) v = _mm_insert_epi16(v, p[i], i)
    if (lone) {
        SPMV__INS16(0); SPMV__INS16(1); SPMV__INS16(2); SPMV__INS16(3);
        SPMV__INS16(4); SPMV__INS16(5); SPMV__INS16(6); SPMV__INS16(7);
    }
#undef SPMV__INS16
    return v;
}
static inline SPMV_TARGET_AVX2_16 __m256 spmv__avx2s_loadh(const spmv_half *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline SPMV_TARGET_AVX2_16 __m256 spmv__avx2s_mloadh(unsigned m, const spmv_half *p) {
    return _mm256_cvtph_ps(spmv__avx2_mload16_(m, (const uint16_t *)(const void *)p));
}
/* one binary16 or bfloat16 value as a float (V_tv: a kernel's scalar paths): the 16 bits inserted
 * into a zeroed register (one vpinsrw, its load folded in), converted (binary16) or already
 * float's upper half (bfloat16) */
static inline SPMV_TARGET_AVX2_16 float spmv__avx2_h2f(spmv_half h) {
    return _mm_cvtss_f32(_mm_cvtph_ps(_mm_insert_epi16(_mm_setzero_si128(), h.bits, 0)));
}
static inline SPMV_TARGET_AVX2 float spmv__avx2_b2f(spmv_bfloat16 b) {
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_insert_epi16(_mm_setzero_si128(), b.bits, 1)));
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_loadb(const spmv_bfloat16 *p) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)), 16));
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_mloadb(unsigned m, const spmv_bfloat16 *p) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(spmv__avx2_mload16_(m, (const uint16_t *)(const void *)p)), 16));
}
static inline SPMV_TARGET_AVX2 void spmv__avx2s_mstore(float *p, unsigned m, __m256 a) {
    _mm256_maskstore_ps(p, spmv__avx2s_mvec_(m), a);
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_fma(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
static inline SPMV_TARGET_AVX2 float spmv__avx2s_hsum(__m256 a) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));        /* s0+s2, s1+s3 */
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 0x55)); /* + lane 1 */
    return _mm_cvtss_f32(s);
}
/* scan inside each 128-bit half (byte shifts by one and two floats), then add the
 * low half's total (its lane 3) to every lane of the high half */
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_scan(__m256 a) {
    __m256 t;
    a = _mm256_add_ps(a, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(a), 4)));
    a = _mm256_add_ps(a, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(a), 8)));
    t = _mm256_permute2f128_ps(a, a, 0x08); /* low half 0, high half = low half of a */
    t = _mm256_shuffle_ps(t, t, 0xFF);      /* broadcast lane 3 of each half */
    return _mm256_add_ps(a, t);
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_gather_i32(const float *base, const int32_t *idx) {
#if SPMV_HW_GATHER
    return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), base, _mm256_loadu_si256((const __m256i *)(const void *)idx),
                                    _mm256_castsi256_ps(_mm256_set1_epi32(-1)), 4);
#else
    return _mm256_set_ps(base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]], base[idx[2]],
                         base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_gather_i64(const float *base, const int64_t *idx) {
#if SPMV_HW_GATHER
    const __m128 on = _mm_castsi128_ps(_mm_set1_epi32(-1));
    __m128 lo = _mm256_mask_i64gather_ps(_mm_setzero_ps(), base, _mm256_loadu_si256((const __m256i *)(const void *)idx),
                                         on, 4);
    __m128 hi = _mm256_mask_i64gather_ps(_mm_setzero_ps(), base,
                                         _mm256_loadu_si256((const __m256i *)(const void *)(idx + 4)), on, 4);
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
#else
    return _mm256_set_ps(base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]], base[idx[2]],
                         base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_mgather_i32(unsigned m, const float *base, const int32_t *idx) {
    __m256i mv = spmv__avx2s_mvec_(m);
    __m256i vi = _mm256_maskload_epi32((const int *)(const void *)idx, mv);
    return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), base, vi, _mm256_castsi256_ps(mv), 4);
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_mgather_i64(unsigned m, const float *base, const int64_t *idx) {
    __m256i mv = spmv__avx2s_mvec_(m);
    __m256i ilo = _mm256_maskload_epi64((const long long *)(const void *)idx, spmv__avx2d_mvec_(m));
    __m256i ihi = _mm256_maskload_epi64((const long long *)(const void *)(idx + 4), spmv__avx2d_mvec_(m >> 4));
    __m128 lo = _mm256_mask_i64gather_ps(_mm_setzero_ps(), base, ilo, _mm_castsi128_ps(_mm256_castsi256_si128(mv)), 4);
    __m128 hi = _mm256_mask_i64gather_ps(_mm_setzero_ps(), base, ihi, _mm_castsi128_ps(_mm256_extracti128_si256(mv, 1)), 4);
    return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
}
static inline SPMV_TARGET_AVX2 unsigned spmv__avx2s_mask_first(int n) {
    return n <= 0 ? 0u : n >= 8 ? 0xFFu : (1u << n) - 1u;
}
static inline SPMV_TARGET_AVX2 float spmv__avx2s_lane(__m256 a, int i) {
    float t[8];
    _mm256_storeu_ps(t, a);
    return t[i & 7];
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_blend(unsigned m, __m256 a, __m256 b) {
    return _mm256_blendv_ps(a, b, _mm256_castsi256_ps(spmv__avx2s_mvec_(m)));
}
static inline SPMV_TARGET_AVX2 __m256 spmv__avx2s_shift_up(__m256 a, float fill) {
    const __m256i up = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
    return _mm256_blend_ps(_mm256_permutevar8x32_ps(a, up), _mm256_set1_ps(fill), 0x01);
}

#else
#define SPMV_TARGET_AVX2
#define SPMV_TARGET_AVX2_16
#endif /* SPMV_HAVE_AVX2 */

/* ---- AVX-512F (native, or SIMDe-emulated) --------------------------------------- */
#if SPMV_HAVE_AVX512

#ifdef SPMV_EMULATE_AVX512
#include "../../tests/emu/simde_shims.h" /* includes <simde/x86/avx512.h> */
#define SPMV_TARGET_AVX512
/* the vocabulary is always inlined in emulation: SIMDe's 512-bit types passed by
 * value out of line, without -mavx512f, draw GCC -Wpsabi ABI warnings */
#define SPMV__F512 __attribute__((always_inline))
#define SPMV_MM512(op) simde_mm512_##op
#define SPMV_MM512X(op) spmv_emu_mm512_##op
#define SPMV_MM256(op) simde_mm256_##op
#define SPMV_MM128(op) simde_mm_##op
#define SPMV_M128D simde__m128d
#define SPMV_M128 simde__m128
#define SPMV_M64 simde__m64
#define SPMV_M512D simde__m512d
#define SPMV_M512 simde__m512
#define SPMV_M512I simde__m512i
#define SPMV_M256D simde__m256d
#define SPMV_M256 simde__m256
#define SPMV_M256I simde__m256i
#define SPMV_MMASK8 simde__mmask8
#define SPMV_MMASK16 simde__mmask16
#define SPMV_MMASK32 simde__mmask32
#define SPMV_TARGET_AVX512_16
#define SPMV__F512_16 SPMV__F512
#else
#define SPMV_TARGET_AVX512 __attribute__((target("avx512f")))
#define SPMV__F512 SPMV_TARGET_AVX512
/* the kernels of the 16-bit tags (h, b): AVX-512BW for the 16-bit masked load, F16C for one value */
#define SPMV_TARGET_AVX512_16 __attribute__((target("avx512f,avx512bw,f16c")))
#define SPMV__F512_16 SPMV_TARGET_AVX512_16
#define SPMV_MMASK32 __mmask32
#define SPMV_MM512(op) _mm512_##op
#define SPMV_MM512X(op) _mm512_##op
#define SPMV_MM256(op) _mm256_##op
#define SPMV_MM128(op) _mm_##op
#define SPMV_M128D __m128d
#define SPMV_M128 __m128
#define SPMV_M64 __m64
#define SPMV_M512D __m512d
#define SPMV_M512 __m512
#define SPMV_M512I __m512i
#define SPMV_M256D __m256d
#define SPMV_M256 __m256
#define SPMV_M256I __m256i
#define SPMV_MMASK8 __mmask8
#define SPMV_MMASK16 __mmask16
#endif

/* -- 8 doubles -- */
typedef SPMV_M512D spmv__avx512dv;

static inline SPMV__F512 SPMV_M512D spmv__avx512d_zero(void) { return SPMV_MM512(setzero_pd)(); }
static inline SPMV__F512 SPMV_M512D spmv__avx512d_set1(double x) { return SPMV_MM512(set1_pd)(x); }
static inline SPMV__F512 SPMV_M512D spmv__avx512d_loadu(const double *p) { return SPMV_MM512(loadu_pd)(p); }
static inline SPMV__F512 void spmv__avx512d_storeu(double *p, SPMV_M512D a) { SPMV_MM512(storeu_pd)(p, a); }
static inline SPMV__F512 SPMV_M512D spmv__avx512d_mload(unsigned m, const double *p) {
    return SPMV_MM512X(maskz_loadu_pd)((SPMV_MMASK8)m, p);
}
/* eight floats as doubles (V_loadt); masked: a masked 16-lane load (AVX-512F, no VL needed), its
 * low half converted */
static inline SPMV__F512 SPMV_M512D spmv__avx512d_loadw(const float *p) {
    return SPMV_MM512X(cvtps_pd)(SPMV_MM256(loadu_ps)(p));
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_mloadw(unsigned m, const float *p) {
    return SPMV_MM512X(cvtps_pd)(SPMV_MM512(castps512_ps256)(SPMV_MM512X(maskz_loadu_ps)((SPMV_MMASK16)(m & 0xFFu), p)));
}
static inline SPMV__F512 void spmv__avx512d_mstore(double *p, unsigned m, SPMV_M512D a) {
    SPMV_MM512X(mask_storeu_pd)(p, (SPMV_MMASK8)m, a);
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_add(SPMV_M512D a, SPMV_M512D b) {
    return SPMV_MM512(add_pd)(a, b);
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_mul(SPMV_M512D a, SPMV_M512D b) {
    return SPMV_MM512(mul_pd)(a, b);
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_fma(SPMV_M512D a, SPMV_M512D b, SPMV_M512D c) {
    return SPMV_MM512(fmadd_pd)(a, b, c);
}
static inline SPMV__F512 double spmv__avx512d_hsum(SPMV_M512D a) { return SPMV_MM512X(reduce_add_pd)(a); }
/* Inclusive scan by permutexvar + mask_add, log-step (Hillis-Steele): add the vector
 * shifted up by 1, 2 and 4 lanes; the mask leaves the lanes that receive nothing. */
static inline SPMV__F512 SPMV_M512D spmv__avx512d_scan(SPMV_M512D a) {
    const SPMV_M512I up1 = SPMV_MM512(set_epi64)(6, 5, 4, 3, 2, 1, 0, 0);
    const SPMV_M512I up2 = SPMV_MM512(set_epi64)(5, 4, 3, 2, 1, 0, 0, 0);
    const SPMV_M512I up4 = SPMV_MM512(set_epi64)(3, 2, 1, 0, 0, 0, 0, 0);
    a = SPMV_MM512(mask_add_pd)(a, (SPMV_MMASK8)0xFE, a, SPMV_MM512(permutexvar_pd)(up1, a));
    a = SPMV_MM512(mask_add_pd)(a, (SPMV_MMASK8)0xFC, a, SPMV_MM512(permutexvar_pd)(up2, a));
    a = SPMV_MM512(mask_add_pd)(a, (SPMV_MMASK8)0xF0, a, SPMV_MM512(permutexvar_pd)(up4, a));
    return a;
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_gather_i32(const double *base, const int32_t *idx) {
#if SPMV_HW_GATHER
    SPMV_M256I vi = SPMV_MM256(loadu_si256)((const SPMV_M256I *)(const void *)idx);
    return SPMV_MM512X(mask_i32gather_pd)(SPMV_MM512(setzero_pd)(), (SPMV_MMASK8)0xFF, vi, (const void *)base, 8);
#else
    return SPMV_MM512(set_pd)(base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]], base[idx[2]],
                              base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_gather_i64(const double *base, const int64_t *idx) {
#if SPMV_HW_GATHER
    SPMV_M512I vi = SPMV_MM512(loadu_si512)((const void *)idx);
    return SPMV_MM512X(mask_i64gather_pd)(SPMV_MM512(setzero_pd)(), (SPMV_MMASK8)0xFF, vi, (const void *)base, 8);
#else
    return SPMV_MM512(set_pd)(base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]], base[idx[3]], base[idx[2]],
                              base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_mgather_i32(unsigned m, const double *base,
                                                                       const int32_t *idx) {
    /* 8 int32 indices, masked: a 512-bit masked load of the low 8 dwords (AVX-512F has
     * no 256-bit masked load without VL) */
    SPMV_M512I vi = SPMV_MM512X(maskz_loadu_epi32)((SPMV_MMASK16)(m & 0xFFu), (const void *)idx);
    return SPMV_MM512X(mask_i32gather_pd)(SPMV_MM512(setzero_pd)(), (SPMV_MMASK8)m, SPMV_MM512(castsi512_si256)(vi),
                                          (const void *)base, 8);
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_mgather_i64(unsigned m, const double *base,
                                                                       const int64_t *idx) {
    SPMV_M512I vi = SPMV_MM512X(maskz_loadu_epi64)((SPMV_MMASK8)m, (const void *)idx);
    return SPMV_MM512X(mask_i64gather_pd)(SPMV_MM512(setzero_pd)(), (SPMV_MMASK8)m, vi, (const void *)base, 8);
}
static inline SPMV__F512 unsigned spmv__avx512d_mask_first(int n) {
    return n <= 0 ? 0u : n >= 8 ? 0xFFu : (1u << n) - 1u;
}
static inline SPMV__F512 double spmv__avx512d_lane(SPMV_M512D a, int i) {
    double t[8];
    SPMV_MM512(storeu_pd)(t, a);
    return t[i & 7];
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_blend(unsigned m, SPMV_M512D a, SPMV_M512D b) {
    return SPMV_MM512(mask_blend_pd)((SPMV_MMASK8)m, a, b);
}
static inline SPMV__F512 SPMV_M512D spmv__avx512d_shift_up(SPMV_M512D a, double fill) {
    const SPMV_M512I up1 = SPMV_MM512(set_epi64)(6, 5, 4, 3, 2, 1, 0, 0);
    return SPMV_MM512(mask_permutexvar_pd)(SPMV_MM512(set1_pd)(fill), (SPMV_MMASK8)0xFE, up1, a);
}

/* -- 16 floats -- */
typedef SPMV_M512 spmv__avx512sv;

/* two 8-float halves -> one vector (AVX-512F has no insertf32x8: go through pd) */
static inline SPMV__F512 SPMV_M512 spmv__avx512s_join_(SPMV_M256 lo, SPMV_M256 hi) {
    /* the merge-masked form with an all-on mask: plain insertf64x4 goes through
     * _mm512_undefined_pd, which GCC 12 flags as uninitialized in C++ */
    SPMV_M512D l = SPMV_MM512(castps_pd)(SPMV_MM512(castps256_ps512)(lo));
    return SPMV_MM512(castpd_ps)(SPMV_MM512(mask_insertf64x4)(l, (SPMV_MMASK8)0xFF, l, SPMV_MM256(castps_pd)(hi), 1));
}

static inline SPMV__F512 SPMV_M512 spmv__avx512s_zero(void) { return SPMV_MM512(setzero_ps)(); }
static inline SPMV__F512 SPMV_M512 spmv__avx512s_set1(float x) { return SPMV_MM512(set1_ps)(x); }
static inline SPMV__F512 SPMV_M512 spmv__avx512s_loadu(const float *p) { return SPMV_MM512(loadu_ps)(p); }
static inline SPMV__F512 void spmv__avx512s_storeu(float *p, SPMV_M512 a) { SPMV_MM512(storeu_ps)(p, a); }
static inline SPMV__F512 SPMV_M512 spmv__avx512s_mload(unsigned m, const float *p) {
    return SPMV_MM512X(maskz_loadu_ps)((SPMV_MMASK16)m, p);
}
/* sixteen 16-bit values as floats (V_loadt of tags h and b, whose kernels have
 * SPMV_TARGET_AVX512_16: AVX-512BW for the 16-bit masked load; spmv_isa_for checks it for 2-byte
 * values): binary16 by vcvtph2ps, bfloat16 widened and shifted into float's upper half */
static inline SPMV__F512_16 SPMV_M256I spmv__avx512_mload16_(unsigned m, const void *p) {
    return SPMV_MM512(castsi512_si256)(SPMV_MM512X(maskz_loadu_epi16)((SPMV_MMASK32)(m & 0xFFFFu), p));
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_loadh(const spmv_half *p) {
    return SPMV_MM512X(cvtph_ps)(SPMV_MM256(loadu_si256)((const SPMV_M256I *)(const void *)p));
}
static inline SPMV__F512_16 SPMV_M512 spmv__avx512s_mloadh(unsigned m, const spmv_half *p) {
    return SPMV_MM512X(cvtph_ps)(spmv__avx512_mload16_(m, p));
}
/* one binary16 value as a float (V_tv: a kernel's scalar paths; the software conversion when emulated) */
static inline SPMV__F512_16 float spmv__avx512_h2f(spmv_half h) {
#ifdef SPMV_EMULATE_AVX512
    return spmv_half_to_float(h);
#else
    return _mm_cvtss_f32(_mm_cvtph_ps(_mm_insert_epi16(_mm_setzero_si128(), h.bits, 0)));
#endif
}
static inline SPMV__F512_16 float spmv__avx512_b2f(spmv_bfloat16 b) {
#ifdef SPMV_EMULATE_AVX512
    return spmv_bfloat16_to_float(b);
#else
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_insert_epi16(_mm_setzero_si128(), b.bits, 1)));
#endif
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_loadb(const spmv_bfloat16 *p) {
    return SPMV_MM512(castsi512_ps)(
        SPMV_MM512(slli_epi32)(SPMV_MM512X(cvtepu16_epi32)(SPMV_MM256(loadu_si256)((const SPMV_M256I *)(const void *)p)), 16));
}
static inline SPMV__F512_16 SPMV_M512 spmv__avx512s_mloadb(unsigned m, const spmv_bfloat16 *p) {
    return SPMV_MM512(castsi512_ps)(SPMV_MM512(slli_epi32)(SPMV_MM512X(cvtepu16_epi32)(spmv__avx512_mload16_(m, p)), 16));
}
static inline SPMV__F512 void spmv__avx512s_mstore(float *p, unsigned m, SPMV_M512 a) {
    SPMV_MM512X(mask_storeu_ps)(p, (SPMV_MMASK16)m, a);
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_add(SPMV_M512 a, SPMV_M512 b) { return SPMV_MM512(add_ps)(a, b); }
static inline SPMV__F512 SPMV_M512 spmv__avx512s_mul(SPMV_M512 a, SPMV_M512 b) { return SPMV_MM512(mul_ps)(a, b); }
static inline SPMV__F512 SPMV_M512 spmv__avx512s_fma(SPMV_M512 a, SPMV_M512 b, SPMV_M512 c) {
    return SPMV_MM512(fmadd_ps)(a, b, c);
}
static inline SPMV__F512 float spmv__avx512s_hsum(SPMV_M512 a) { return SPMV_MM512X(reduce_add_ps)(a); }
/* log-step scan as for doubles: shifts by 1, 2, 4 and 8 lanes */
static inline SPMV__F512 SPMV_M512 spmv__avx512s_scan(SPMV_M512 a) {
    const SPMV_M512I up1 = SPMV_MM512(set_epi32)(14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);
    const SPMV_M512I up2 = SPMV_MM512(set_epi32)(13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0);
    const SPMV_M512I up4 = SPMV_MM512(set_epi32)(11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0);
    const SPMV_M512I up8 = SPMV_MM512(set_epi32)(7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    a = SPMV_MM512(mask_add_ps)(a, (SPMV_MMASK16)0xFFFE, a, SPMV_MM512(permutexvar_ps)(up1, a));
    a = SPMV_MM512(mask_add_ps)(a, (SPMV_MMASK16)0xFFFC, a, SPMV_MM512(permutexvar_ps)(up2, a));
    a = SPMV_MM512(mask_add_ps)(a, (SPMV_MMASK16)0xFFF0, a, SPMV_MM512(permutexvar_ps)(up4, a));
    a = SPMV_MM512(mask_add_ps)(a, (SPMV_MMASK16)0xFF00, a, SPMV_MM512(permutexvar_ps)(up8, a));
    return a;
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_gather_i32(const float *base, const int32_t *idx) {
#if SPMV_HW_GATHER
    SPMV_M512I vi = SPMV_MM512(loadu_si512)((const void *)idx);
    return SPMV_MM512X(mask_i32gather_ps)(SPMV_MM512(setzero_ps)(), (SPMV_MMASK16)0xFFFF, vi, (const void *)base, 4);
#else
    return SPMV_MM512(set_ps)(base[idx[15]], base[idx[14]], base[idx[13]], base[idx[12]], base[idx[11]], base[idx[10]],
                              base[idx[9]], base[idx[8]], base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]],
                              base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_gather_i64(const float *base, const int64_t *idx) {
#if SPMV_HW_GATHER
    const SPMV_MMASK8 on = (SPMV_MMASK8)0xFF;
    SPMV_M256 lo = SPMV_MM512X(mask_i64gather_ps)(SPMV_MM256(setzero_ps)(), on, SPMV_MM512(loadu_si512)((const void *)idx),
                                                  (const void *)base, 4);
    SPMV_M256 hi = SPMV_MM512X(mask_i64gather_ps)(SPMV_MM256(setzero_ps)(), on,
                                                  SPMV_MM512(loadu_si512)((const void *)(idx + 8)), (const void *)base, 4);
    return spmv__avx512s_join_(lo, hi);
#else
    return SPMV_MM512(set_ps)(base[idx[15]], base[idx[14]], base[idx[13]], base[idx[12]], base[idx[11]], base[idx[10]],
                              base[idx[9]], base[idx[8]], base[idx[7]], base[idx[6]], base[idx[5]], base[idx[4]],
                              base[idx[3]], base[idx[2]], base[idx[1]], base[idx[0]]);
#endif
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_mgather_i32(unsigned m, const float *base, const int32_t *idx) {
    SPMV_M512I vi = SPMV_MM512X(maskz_loadu_epi32)((SPMV_MMASK16)m, (const void *)idx);
    return SPMV_MM512X(mask_i32gather_ps)(SPMV_MM512(setzero_ps)(), (SPMV_MMASK16)m, vi, (const void *)base, 4);
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_mgather_i64(unsigned m, const float *base, const int64_t *idx) {
    SPMV_MMASK8 mlo = (SPMV_MMASK8)(m & 0xFFu), mhi = (SPMV_MMASK8)((m >> 8) & 0xFFu);
    SPMV_M512I ilo = SPMV_MM512X(maskz_loadu_epi64)(mlo, (const void *)idx);
    SPMV_M512I ihi = SPMV_MM512X(maskz_loadu_epi64)(mhi, (const void *)(idx + 8));
    SPMV_M256 lo = SPMV_MM512X(mask_i64gather_ps)(SPMV_MM256(setzero_ps)(), mlo, ilo, (const void *)base, 4);
    SPMV_M256 hi = SPMV_MM512X(mask_i64gather_ps)(SPMV_MM256(setzero_ps)(), mhi, ihi, (const void *)base, 4);
    return spmv__avx512s_join_(lo, hi);
}
static inline SPMV__F512 unsigned spmv__avx512s_mask_first(int n) {
    return n <= 0 ? 0u : n >= 16 ? 0xFFFFu : (1u << n) - 1u;
}
static inline SPMV__F512 float spmv__avx512s_lane(SPMV_M512 a, int i) {
    float t[16];
    SPMV_MM512(storeu_ps)(t, a);
    return t[i & 15];
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_blend(unsigned m, SPMV_M512 a, SPMV_M512 b) {
    return SPMV_MM512(mask_blend_ps)((SPMV_MMASK16)m, a, b);
}
static inline SPMV__F512 SPMV_M512 spmv__avx512s_shift_up(SPMV_M512 a, float fill) {
    const SPMV_M512I up1 = SPMV_MM512(set_epi32)(14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0);
    return SPMV_MM512(mask_permutexvar_ps)(SPMV_MM512(set1_ps)(fill), (SPMV_MMASK16)0xFFFE, up1, a);
}

#else
#define SPMV_TARGET_AVX512
#define SPMV_TARGET_AVX512_16
#endif /* SPMV_HAVE_AVX512 */

#ifdef SPMV__DIAG_POP
#pragma GCC diagnostic pop
#undef SPMV__DIAG_POP
#endif

#endif /* SPMV_SIMD_H */
