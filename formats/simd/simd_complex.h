/* The portable SIMD sets of complex lanes (tags z, c: formats/instance.h includes this at the
 * first complex tag, so that units without one do not parse them): 4, 8, 16 and 32 lanes of
 * double complex (spmv__g<W>z) and float complex (spmv__g<W>c), formats/simd/simd_generic.h with
 * the textbook product. */
#ifndef SPMV_SIMD_COMPLEX_H
#define SPMV_SIMD_COMPLEX_H
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GCR double
#define SPMV__GW 4
#define SPMV__GP spmv__g4z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GCR double
#define SPMV__GW 8
#define SPMV__GP spmv__g8z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GCR double
#define SPMV__GW 16
#define SPMV__GP spmv__g16z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GCR double
#define SPMV__GW 32
#define SPMV__GP spmv__g32z
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GCR float
#define SPMV__GW 4
#define SPMV__GP spmv__g4c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GCR float
#define SPMV__GW 8
#define SPMV__GP spmv__g8c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GCR float
#define SPMV__GW 16
#define SPMV__GP spmv__g16c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GCR float
#define SPMV__GW 32
#define SPMV__GP spmv__g32c
#include "simd_generic.h"
/* ---- the row sum's complex lanes on AVX2 and AVX-512 ----------------------------------------
 * P complex values interleaved (re, im) in one register: P = 2 (z) and 4 (c) on AVX2, 4 and 8 on
 * AVX-512 (sets spmv__cx<isa><z|c>, pointers to the values' real parts). The textbook product
 * a*x takes four multiplies and two sums a value; here re(a) broadcast over its pair times x goes
 * to one accumulator and im(a) times x to another, two FMAs an entry, and the row's sum is
 * formed once: with R = sum re(a)*x and J = sum im(a)*x (both pairs), sum a*x =
 * (R.re - J.im, R.im + J.re). The order of the sums differs from the scalar loop's (the tests'
 * bound allows any order).
 *   cv  zero(void), add(cv, cv)
 *   cv  gather_i32(const R *x, const int32_t *idx) / gather_i64: pair i = x's value idx[i]
 *   void mac(cv *r, cv *j, const R *a, cv x)   P values at a: *r += re(a)*x, *j += im(a)*x
 *   T   fold(cv r, cv j)                       the sum above
 * formats/simd/simd_use.h names them C_* with SPMV_CXW = P (0 where there are none: the portable
 * sets, whose row sums stay the scalar loop). */
#if SPMV_HAVE_AVX2
static inline SPMV_TARGET_AVX2 __m256d spmv__cxavx2z_zero(void) { return _mm256_setzero_pd(); }
static inline SPMV_TARGET_AVX2 __m256d spmv__cxavx2z_add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
static inline SPMV_TARGET_AVX2 __m256d spmv__cxavx2z_pair(const double *p0, const double *p1) {
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(p0)), _mm_loadu_pd(p1), 1);
}
#define SPMV__CXZ2(x, idx) spmv__cxavx2z_pair(x + 2 * (ptrdiff_t)idx[0], x + 2 * (ptrdiff_t)idx[1])
static inline SPMV_TARGET_AVX2 __m256d spmv__cxavx2z_gather_i32(const double *x, const int32_t *idx) { return SPMV__CXZ2(x, idx); }
static inline SPMV_TARGET_AVX2 __m256d spmv__cxavx2z_gather_i64(const double *x, const int64_t *idx) { return SPMV__CXZ2(x, idx); }
#undef SPMV__CXZ2
static inline SPMV_TARGET_AVX2 void spmv__cxavx2z_mac(__m256d *r, __m256d *j, const double *a, __m256d x) {
    const __m256d v = _mm256_loadu_pd(a);
    *r = _mm256_fmadd_pd(_mm256_movedup_pd(v), x, *r);
    *j = _mm256_fmadd_pd(_mm256_permute_pd(v, 0xF), x, *j);
}
/* (R.re - J.im, R.im + J.re) of one pair each: addsub of R and J swapped */
static inline SPMV_TARGET_AVX2 spmv_cdouble spmv__cxavx2z_fold2(__m128d r, __m128d j) {
    double o[2];
    _mm_storeu_pd(o, _mm_addsub_pd(r, _mm_shuffle_pd(j, j, 1)));
    return spmv_cdouble_make(o[0], o[1]);
}
static inline SPMV_TARGET_AVX2 spmv_cdouble spmv__cxavx2z_fold(__m256d r, __m256d j) {
    return spmv__cxavx2z_fold2(_mm_add_pd(_mm256_castpd256_pd128(r), _mm256_extractf128_pd(r, 1)),
                               _mm_add_pd(_mm256_castpd256_pd128(j), _mm256_extractf128_pd(j, 1)));
}
/* float complex: a pair of floats moved as one 64-bit lane */
static inline SPMV_TARGET_AVX2 __m256 spmv__cxavx2c_zero(void) { return _mm256_setzero_ps(); }
static inline SPMV_TARGET_AVX2 __m256 spmv__cxavx2c_add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
static inline SPMV_TARGET_AVX2 __m128 spmv__cxavx2c_two(const float *p0, const float *p1) {
    return _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)(const void *)p0), (const __m64 *)(const void *)p1);
}
#define SPMV__CXC4(x, idx)                                                                                         \
    _mm256_insertf128_ps(_mm256_castps128_ps256(spmv__cxavx2c_two(x + 2 * (ptrdiff_t)idx[0], x + 2 * (ptrdiff_t)idx[1])), \
                         spmv__cxavx2c_two(x + 2 * (ptrdiff_t)idx[2], x + 2 * (ptrdiff_t)idx[3]), 1)
static inline SPMV_TARGET_AVX2 __m256 spmv__cxavx2c_gather_i32(const float *x, const int32_t *idx) { return SPMV__CXC4(x, idx); }
static inline SPMV_TARGET_AVX2 __m256 spmv__cxavx2c_gather_i64(const float *x, const int64_t *idx) { return SPMV__CXC4(x, idx); }
#undef SPMV__CXC4
static inline SPMV_TARGET_AVX2 void spmv__cxavx2c_mac(__m256 *r, __m256 *j, const float *a, __m256 x) {
    const __m256 v = _mm256_loadu_ps(a);
    *r = _mm256_fmadd_ps(_mm256_moveldup_ps(v), x, *r);
    *j = _mm256_fmadd_ps(_mm256_movehdup_ps(v), x, *j);
}
static inline SPMV_TARGET_AVX2 spmv_cfloat spmv__cxavx2c_fold4(__m128 r, __m128 j) {
    float o[4];
    r = _mm_add_ps(r, _mm_movehl_ps(r, r)); /* lanes 0, 1: the sum of the two pairs */
    j = _mm_add_ps(j, _mm_movehl_ps(j, j));
    _mm_storeu_ps(o, _mm_addsub_ps(r, _mm_shuffle_ps(j, j, 0xB1)));
    return spmv_cfloat_make(o[0], o[1]);
}
static inline SPMV_TARGET_AVX2 spmv_cfloat spmv__cxavx2c_fold(__m256 r, __m256 j) {
    return spmv__cxavx2c_fold4(_mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1)),
                               _mm_add_ps(_mm256_castps256_ps128(j), _mm256_extractf128_ps(j, 1)));
}
#endif /* SPMV_HAVE_AVX2 */
/* The AVX-512 set spells its 128- and 256-bit steps through SPMV_MM128/SPMV_MM256 rather than
 * calling the AVX2 set's: the emulated build runs it on SIMDe, where the AVX2 functions' target
 * attribute would not inline into it. */
#if SPMV_HAVE_AVX512 /* native, or on SIMDe (its 512-bit unpack and shuffle stand for movedup) */
static inline SPMV__F512 SPMV_M512D spmv__cxavx512z_zero(void) { return SPMV_MM512(setzero_pd)(); }
static inline SPMV__F512 SPMV_M512D spmv__cxavx512z_add(SPMV_M512D a, SPMV_M512D b) { return SPMV_MM512(add_pd)(a, b); }
static inline SPMV__F512 SPMV_M256D spmv__cxavx512z_pair(const double *p0, const double *p1) {
    return SPMV_MM256(insertf128_pd)(SPMV_MM256(castpd128_pd256)(SPMV_MM128(loadu_pd)(p0)), SPMV_MM128(loadu_pd)(p1), 1);
}
#define SPMV__CXZ4(x, idx)                                                                                        \
    SPMV_MM512(insertf64x4)(SPMV_MM512(castpd256_pd512)(spmv__cxavx512z_pair(x + 2 * (ptrdiff_t)idx[0], x + 2 * (ptrdiff_t)idx[1])), \
                            spmv__cxavx512z_pair(x + 2 * (ptrdiff_t)idx[2], x + 2 * (ptrdiff_t)idx[3]), 1)
static inline SPMV__F512 SPMV_M512D spmv__cxavx512z_gather_i32(const double *x, const int32_t *idx) { return SPMV__CXZ4(x, idx); }
static inline SPMV__F512 SPMV_M512D spmv__cxavx512z_gather_i64(const double *x, const int64_t *idx) { return SPMV__CXZ4(x, idx); }
#undef SPMV__CXZ4
static inline SPMV__F512 void spmv__cxavx512z_mac(SPMV_M512D *r, SPMV_M512D *j, const double *a, SPMV_M512D x) {
    const SPMV_M512D v = SPMV_MM512(loadu_pd)(a);
    *r = SPMV_MM512(fmadd_pd)(SPMV_MM512(unpacklo_pd)(v, v), x, *r);
    *j = SPMV_MM512(fmadd_pd)(SPMV_MM512(unpackhi_pd)(v, v), x, *j);
}
static inline SPMV__F512 spmv_cdouble spmv__cxavx512z_fold(SPMV_M512D r, SPMV_M512D j) {
    double o[4];
    SPMV_M256D r4 = SPMV_MM256(add_pd)(SPMV_MM512(castpd512_pd256)(r), SPMV_MM512(extractf64x4_pd)(r, 1));
    SPMV_M256D j4 = SPMV_MM256(add_pd)(SPMV_MM512(castpd512_pd256)(j), SPMV_MM512(extractf64x4_pd)(j, 1));
    SPMV_M256D s = SPMV_MM256(addsub_pd)(r4, SPMV_MM256(permute_pd)(j4, 0x5)); /* two pairs' (R.re - J.im, R.im + J.re) */
    SPMV_MM256(storeu_pd)(o, s);
    return spmv_cdouble_make(o[0] + o[2], o[1] + o[3]);
}
static inline SPMV__F512 SPMV_M512 spmv__cxavx512c_zero(void) { return SPMV_MM512(setzero_ps)(); }
static inline SPMV__F512 SPMV_M512 spmv__cxavx512c_add(SPMV_M512 a, SPMV_M512 b) { return SPMV_MM512(add_ps)(a, b); }
/* four float complex values, a pair of floats moved as one 64-bit lane */
static inline SPMV__F512 SPMV_M128 spmv__cxavx512c_two(const float *p0, const float *p1) {
    return SPMV_MM128(loadh_pi)(SPMV_MM128(loadl_pi)(SPMV_MM128(setzero_ps)(), (const SPMV_M64 *)(const void *)p0),
                                (const SPMV_M64 *)(const void *)p1);
}
static inline SPMV__F512 SPMV_M256D spmv__cxavx512c_four(const float *x, ptrdiff_t i0, ptrdiff_t i1, ptrdiff_t i2, ptrdiff_t i3) {
    return SPMV_MM256(castps_pd)(SPMV_MM256(insertf128_ps)(SPMV_MM256(castps128_ps256)(spmv__cxavx512c_two(x + 2 * i0, x + 2 * i1)),
                                                           spmv__cxavx512c_two(x + 2 * i2, x + 2 * i3), 1));
}
#define SPMV__CXC8(x, idx)                                                                                           \
    SPMV_MM512(castpd_ps)(SPMV_MM512(insertf64x4)(SPMV_MM512(castpd256_pd512)(spmv__cxavx512c_four(x, idx[0], idx[1], idx[2], idx[3])), \
                                                  spmv__cxavx512c_four(x, idx[4], idx[5], idx[6], idx[7]), 1))
static inline SPMV__F512 SPMV_M512 spmv__cxavx512c_gather_i32(const float *x, const int32_t *idx) { return SPMV__CXC8(x, idx); }
static inline SPMV__F512 SPMV_M512 spmv__cxavx512c_gather_i64(const float *x, const int64_t *idx) { return SPMV__CXC8(x, idx); }
#undef SPMV__CXC8
static inline SPMV__F512 void spmv__cxavx512c_mac(SPMV_M512 *r, SPMV_M512 *j, const float *a, SPMV_M512 x) {
    const SPMV_M512 v = SPMV_MM512(loadu_ps)(a);
    *r = SPMV_MM512(fmadd_ps)(SPMV_MM512(shuffle_ps)(v, v, 0xA0), x, *r); /* lanes 0, 0, 2, 2: the real parts */
    *j = SPMV_MM512(fmadd_ps)(SPMV_MM512(shuffle_ps)(v, v, 0xF5), x, *j); /* 1, 1, 3, 3 */
}
static inline SPMV__F512 SPMV_M128 spmv__cxavx512c_half4(SPMV_M512 r) { /* the sum of its four 128-bit quarters */
    SPMV_M256 h = SPMV_MM256(add_ps)(SPMV_MM512(castps512_ps256)(r),
                                     SPMV_MM256(castpd_ps)(SPMV_MM512(extractf64x4_pd)(SPMV_MM512(castps_pd)(r), 1)));
    return SPMV_MM128(add_ps)(SPMV_MM256(castps256_ps128)(h), SPMV_MM256(extractf128_ps)(h, 1));
}
static inline SPMV__F512 spmv_cfloat spmv__cxavx512c_fold(SPMV_M512 r, SPMV_M512 j) {
    float o[4];
    SPMV_M128 r4 = spmv__cxavx512c_half4(r), j4 = spmv__cxavx512c_half4(j);
    r4 = SPMV_MM128(add_ps)(r4, SPMV_MM128(movehl_ps)(r4, r4)); /* lanes 0, 1: the sum of the two pairs */
    j4 = SPMV_MM128(add_ps)(j4, SPMV_MM128(movehl_ps)(j4, j4));
    SPMV_MM128(storeu_ps)(o, SPMV_MM128(addsub_ps)(r4, SPMV_MM128(shuffle_ps)(j4, j4, 0xB1)));
    return spmv_cfloat_make(o[0], o[1]);
}
#endif /* SPMV_HAVE_AVX512 */
#endif /* SPMV_SIMD_COMPLEX_H */
