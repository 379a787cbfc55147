/* Test-only shims for AVX-512F intrinsics that SIMDe 0.7.4 lacks, used by the
 * emulated AVX-512 backend (-DSPMV_EMULATE_AVX512; formats/simd/simd.h includes this file
 * and spells these ops SPMV_MM512X(op) -> spmv_emu_mm512_op).
 *
 * Each shim follows the Intel definition of _mm512_<op>: same argument order and
 * types (SIMDe's), masked forms touch no memory for off lanes. They are plain scalar
 * loops over arrays moved in and out with SIMDe loads/stores: slow, but only tests
 * run them. Memory is accessed with memcpy, so any alignment and type is fine.
 *
 * Missing from SIMDe 0.7.4 and shimmed here:
 *   maskz_loadu_pd  maskz_loadu_ps  maskz_loadu_epi32  maskz_loadu_epi64
 *   mask_storeu_pd  mask_storeu_ps
 *   reduce_add_pd   reduce_add_ps
 *   cvtps_pd (eight floats to doubles: a float matrix's values as double lanes)
 *   cvtph_ps cvtepu16_epi32 maskz_loadu_epi16 (16-bit values as float lanes: tags h and b)
 *   mask_i32gather_pd  mask_i32gather_ps  mask_i64gather_pd  mask_i64gather_ps
 * (also missing but not used by the library, so not shimmed: the unmasked
 * i32gather/i64gather (simd.h builds unmasked gathers from scalar loads, or with
 * SPMV_HW_GATHER=1 as masked gathers with an all-on mask), mask_loadu_*,
 * mask_store_*, cvtepi32_epi64, alignr_epi32/epi64, i32logather_pd.) */
#ifndef SPMV_EMU_SIMDE_SHIMS_H
#define SPMV_EMU_SIMDE_SHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <simde/x86/avx512.h>
#include "../../formats/core/half.h"

/* always inlined, like SIMDe's own functions: 512-bit vectors passed by value out of
 * line, without -mavx512f, draw GCC -Wpsabi ABI warnings */
#define SPMV__EMU_FN static inline __attribute__((always_inline))
#define SPMV__EMU_ON(k, i) ((((unsigned)(k)) >> (i)) & 1u)
#define SPMV__EMU_AT(base, off) ((const void *)((const char *)(base) + (off)))

/* ---- conversion ---- */
SPMV__EMU_FN simde__m512d spmv_emu_mm512_cvtps_pd(simde__m256 a) {
    float f[8];
    double t[8];
    int i;
    simde_mm256_storeu_ps(f, a);
    for (i = 0; i < 8; i++) t[i] = (double)f[i];
    return simde_mm512_loadu_pd(t);
}

/* sixteen binary16 values to floats, exactly (formats/core/half.h's conversion) */
SPMV__EMU_FN simde__m512 spmv_emu_mm512_cvtph_ps(simde__m256i a) {
    spmv_half h[16];
    float t[16];
    int i;
    simde_mm256_storeu_si256((simde__m256i *)(void *)h, a);
    for (i = 0; i < 16; i++) t[i] = spmv_half_to_float(h[i]);
    return simde_mm512_loadu_ps(t);
}
/* sixteen unsigned 16-bit integers zero-extended to 32 bits */
SPMV__EMU_FN simde__m512i spmv_emu_mm512_cvtepu16_epi32(simde__m256i a) {
    uint16_t h[16];
    uint32_t t[16];
    int i;
    simde_mm256_storeu_si256((simde__m256i *)(void *)h, a);
    for (i = 0; i < 16; i++) t[i] = h[i];
    return simde_mm512_loadu_si512((const void *)t);
}

/* ---- masked loads (off lanes 0, their memory not read) ---- */
SPMV__EMU_FN simde__m512i spmv_emu_mm512_maskz_loadu_epi16(simde__mmask32 k, const void *p) {
    uint16_t t[32];
    int i;
    for (i = 0; i < 32; i++) {
        t[i] = 0;
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(p, 2 * i), 2);
    }
    return simde_mm512_loadu_si512((const void *)t);
}
SPMV__EMU_FN simde__m512d spmv_emu_mm512_maskz_loadu_pd(simde__mmask8 k, const void *p) {
    double t[8];
    int i;
    for (i = 0; i < 8; i++) {
        t[i] = 0.0;
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(p, 8 * i), 8);
    }
    return simde_mm512_loadu_pd(t);
}
SPMV__EMU_FN simde__m512 spmv_emu_mm512_maskz_loadu_ps(simde__mmask16 k, const void *p) {
    float t[16];
    int i;
    for (i = 0; i < 16; i++) {
        t[i] = 0.0f;
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(p, 4 * i), 4);
    }
    return simde_mm512_loadu_ps(t);
}
SPMV__EMU_FN simde__m512i spmv_emu_mm512_maskz_loadu_epi32(simde__mmask16 k, const void *p) {
    int32_t t[16];
    int i;
    for (i = 0; i < 16; i++) {
        t[i] = 0;
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(p, 4 * i), 4);
    }
    return simde_mm512_loadu_si512(t);
}
SPMV__EMU_FN simde__m512i spmv_emu_mm512_maskz_loadu_epi64(simde__mmask8 k, const void *p) {
    int64_t t[8];
    int i;
    for (i = 0; i < 8; i++) {
        t[i] = 0;
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(p, 8 * i), 8);
    }
    return simde_mm512_loadu_si512(t);
}

/* ---- masked stores (only on lanes written) ---- */
SPMV__EMU_FN void spmv_emu_mm512_mask_storeu_pd(void *p, simde__mmask8 k, simde__m512d a) {
    double t[8];
    int i;
    simde_mm512_storeu_pd(t, a);
    for (i = 0; i < 8; i++)
        if (SPMV__EMU_ON(k, i)) memcpy((char *)p + 8 * i, &t[i], 8);
}
SPMV__EMU_FN void spmv_emu_mm512_mask_storeu_ps(void *p, simde__mmask16 k, simde__m512 a) {
    float t[16];
    int i;
    simde_mm512_storeu_ps(t, a);
    for (i = 0; i < 16; i++)
        if (SPMV__EMU_ON(k, i)) memcpy((char *)p + 4 * i, &t[i], 4);
}

/* ---- horizontal sums: halves added pairwise (256, 128, 64[, 32] bits), the order
 * GCC's and clang's native sequences use ---- */
SPMV__EMU_FN double spmv_emu_mm512_reduce_add_pd(simde__m512d a) {
    double t[8];
    int h, i;
    simde_mm512_storeu_pd(t, a);
    for (h = 4; h > 0; h /= 2)
        for (i = 0; i < h; i++) t[i] += t[i + h];
    return t[0];
}
SPMV__EMU_FN float spmv_emu_mm512_reduce_add_ps(simde__m512 a) {
    float t[16];
    int h, i;
    simde_mm512_storeu_ps(t, a);
    for (h = 8; h > 0; h /= 2)
        for (i = 0; i < h; i++) t[i] += t[i + h];
    return t[0];
}

/* ---- masked gathers: lane i = *(T *)(base + idx[i] * scale) where bit i of k is
 * set; off lanes keep src and their addresses are not read ---- */
SPMV__EMU_FN simde__m512d spmv_emu_mm512_mask_i32gather_pd(simde__m512d src, simde__mmask8 k, simde__m256i vindex,
                                                            const void *base, int scale) {
    int32_t ix[8];
    double t[8];
    int i;
    simde_mm256_storeu_si256(ix, vindex);
    simde_mm512_storeu_pd(t, src);
    for (i = 0; i < 8; i++)
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(base, (ptrdiff_t)ix[i] * scale), 8);
    return simde_mm512_loadu_pd(t);
}
SPMV__EMU_FN simde__m512 spmv_emu_mm512_mask_i32gather_ps(simde__m512 src, simde__mmask16 k, simde__m512i vindex,
                                                           const void *base, int scale) {
    int32_t ix[16];
    float t[16];
    int i;
    simde_mm512_storeu_si512(ix, vindex);
    simde_mm512_storeu_ps(t, src);
    for (i = 0; i < 16; i++)
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(base, (ptrdiff_t)ix[i] * scale), 4);
    return simde_mm512_loadu_ps(t);
}
SPMV__EMU_FN simde__m512d spmv_emu_mm512_mask_i64gather_pd(simde__m512d src, simde__mmask8 k, simde__m512i vindex,
                                                            const void *base, int scale) {
    int64_t ix[8];
    double t[8];
    int i;
    simde_mm512_storeu_si512(ix, vindex);
    simde_mm512_storeu_pd(t, src);
    for (i = 0; i < 8; i++)
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(base, (ptrdiff_t)ix[i] * scale), 8);
    return simde_mm512_loadu_pd(t);
}
SPMV__EMU_FN simde__m256 spmv_emu_mm512_mask_i64gather_ps(simde__m256 src, simde__mmask8 k, simde__m512i vindex,
                                                           const void *base, int scale) {
    int64_t ix[8];
    float t[8];
    int i;
    simde_mm512_storeu_si512(ix, vindex);
    simde_mm256_storeu_ps(t, src);
    for (i = 0; i < 8; i++)
        if (SPMV__EMU_ON(k, i)) memcpy(&t[i], SPMV__EMU_AT(base, (ptrdiff_t)ix[i] * scale), 4);
    return simde_mm256_loadu_ps(t);
}

#undef SPMV__EMU_FN
#undef SPMV__EMU_ON
#undef SPMV__EMU_AT

#endif /* SPMV_EMU_SIMDE_SHIMS_H */
