/* 16-bit storage types: IEEE 754 binary16 (spmv_half, tag h) and bfloat16 (spmv_bfloat16, tag b),
 * the values of a matrix whose vectors and sums are float (docs/USAGE.md, "Precision").
 *
 * Each is a struct around its bits, so that C, C++ and nvcc units see the same layout and no
 * arithmetic on a stored value compiles by accident: a kernel reads a value through
 * SPMV_TV (formats/instance.h), which converts it here or, in the vector kernels, with the
 * CPU's conversion (F16C, AVX-512F's vcvtph2ps; bfloat16 is float's upper half, a shift).
 *
 * Rounding (spmv_half_from_double, spmv_bfloat16_from_double): from the double directly to the
 * nearest 16-bit value, ties to even (one rounding: going through float first would round twice);
 * below the smallest subnormal to a signed zero; beyond the largest finite value (65504 for
 * binary16, ~3.39e38 for bfloat16) to an infinity of that sign, which the converters refuse
 * (SPMV_ERR_OVERFLOW) for a finite input. NaN stays NaN (quiet), infinities stay. */
#ifndef SPMV_CORE_HALF_H
#define SPMV_CORE_HALF_H
#include <stdint.h>
#include <string.h>

typedef struct spmv_half {
    uint16_t bits;
} spmv_half;
typedef struct spmv_bfloat16 {
    uint16_t bits;
} spmv_bfloat16;

/* x rounded to a 16-bit format of mb stored mantissa bits and 15 - mb exponent bits of the
 * given bias (binary16: 10 and 15; bfloat16: 7 and 127) */
static inline uint16_t spmv__narrow16(double x, int mb, int bias) {
    uint64_t u, a, M, q, rest, half;
    uint32_t base = 0;
    uint16_t sign, inf;
    int e, s;
    memcpy(&u, &x, sizeof u);
    sign = (uint16_t)((u >> 48) & 0x8000u);
    a = u & 0x7fffffffffffffffull;
    inf = (uint16_t)(((1u << (15 - mb)) - 1u) << mb);
    if (a >= 0x7ff0000000000000ull) /* infinity, or NaN kept quiet with its leading payload bits */
        return (uint16_t)(sign | inf |
                          (a > 0x7ff0000000000000ull ? (1u << (mb - 1)) | (uint32_t)((a >> (52 - mb)) & ((1u << mb) - 1u)) : 0u));
    e = (int)(a >> 52) - 1023;
    if (e > bias) return (uint16_t)(sign | inf); /* |x| >= 2^(bias+1): beyond the largest finite */
    M = (a & 0xfffffffffffffull) | (1ull << 52);
    if (e >= 1 - bias) { /* a normal result: the implicit bit of q carries into the exponent field */
        s = 52 - mb;
        base = (uint32_t)(e + bias - 1) << mb;
    } else { /* subnormal or zero: units of 2^(1 - bias - mb) */
        s = 52 - mb + (1 - bias - e);
        if (s > 62) return sign;
    }
    q = M >> s, rest = M & ((1ull << s) - 1), half = 1ull << (s - 1);
    if (rest > half || (rest == half && (q & 1))) q++; /* to nearest, ties to even; may carry to inf */
    return (uint16_t)(sign | (base + (uint32_t)q));
}

static inline float spmv__f32_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}
/* binary16 to float, exactly: the 15 bits shifted into float's place and scaled by 2^112 (normal
 * and subnormal alike); the all-ones exponent (infinity, NaN) set to float's */
static inline float spmv_half_to_float(spmv_half h) {
    const uint32_t s = (uint32_t)(h.bits & 0x8000u) << 16, m = (uint32_t)(h.bits & 0x7fffu) << 13;
    if ((h.bits & 0x7c00u) == 0x7c00u) return spmv__f32_bits(s | 0x7f800000u | m);
    {
        const float v = spmv__f32_bits(m) * 0x1p112f;
        return s ? -v : v;
    }
}
static inline float spmv_bfloat16_to_float(spmv_bfloat16 b) { return spmv__f32_bits((uint32_t)b.bits << 16); }
static inline spmv_half spmv_half_from_double(double x) {
    spmv_half h;
    h.bits = spmv__narrow16(x, 10, 15);
    return h;
}
static inline spmv_bfloat16 spmv_bfloat16_from_double(double x) {
    spmv_bfloat16 b;
    b.bits = spmv__narrow16(x, 7, 127);
    return b;
}
#endif /* SPMV_CORE_HALF_H */
