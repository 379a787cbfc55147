/* Portable C backend of the SIMD vocabulary: one template, instantiated by simd.h
 * for every (value type, width) pair. Not include-guarded on purpose.
 *
 * Parameters (all #undef'd at the end of this file):
 *   SPMV__GT   value type (double or float)
 *   SPMV__GW   width, a literal 4, 8, 16 or 32
 *   SPMV__GP   name base, e.g. spmv__g8d: functions are spmv__g8d_<op>, the vector
 *              type is spmv__g8dv
 *   SPMV__GCX  defined for a complex SPMV__GT (its product written out: mul, fma)
 *   SPMV__GCR  with SPMV__GCX: the real type of its parts
 *
 * The vector is a struct holding W values; masks are unsigned bitmasks (bit i = lane
 * i, bits at or above W ignored). Every op is a fixed-trip-count loop over the lanes
 * so that, once inlined into a kernel, the compiler can unroll and vectorize it.
 * Masked loads/stores/gathers only evaluate the memory access of on-lanes (a C
 * conditional), so off-lanes may point anywhere, e.g. past the end of an array.
 * fma is a*b+c as written: fused or not as the compiler's -ffp-contract decides. */
#if !defined(SPMV__GT) || !defined(SPMV__GW) || !defined(SPMV__GP)
#error "simd_generic.h: define SPMV__GT, SPMV__GW and SPMV__GP"
#endif

#define SPMV__GF(op) SPMV_CAT3(SPMV__GP, _, op)
#define SPMV__GV SPMV_CAT(SPMV__GP, v)
#define SPMV__GON(m, i) ((((unsigned)(m)) >> (i)) & 1u)
/* the complex sets are always inlined where the unit is optimised: GCC otherwise kept out-of-line
 * copies of the products and loads, which return their structs through memory; at -O0 inlining
 * them would only multiply unoptimised code */
#if defined(SPMV__GCX) && (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define SPMV__GA SPMV_GENERIC_ATTR __attribute__((always_inline))
#else
#define SPMV__GA SPMV_GENERIC_ATTR
#endif

typedef struct SPMV__GV {
    SPMV__GT v[SPMV__GW];
} SPMV__GV;

static inline SPMV__GA SPMV__GV SPMV__GF(zero)(void) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = (SPMV__GT)0;
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(set1)(SPMV__GT x) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = x;
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(loadu)(const SPMV__GT *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = p[i];
    return r;
}

/* W floats as lanes (V_loadt of a float matrix with double vectors; for float lanes a plain load) */
static inline SPMV__GA SPMV__GV SPMV__GF(loadw)(const float *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = (SPMV__GT)p[i];
    return r;
}
static inline SPMV__GA SPMV__GV SPMV__GF(mloadw)(unsigned m, const float *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? (SPMV__GT)p[i] : (SPMV__GT)0;
    return r;
}

/* W 16-bit values as lanes (V_loadt of tags h and b): converted in software, lane by lane (the
 * portable build has no conversion instruction: docs/USAGE.md, "Precision") */
static inline SPMV__GA SPMV__GV SPMV__GF(loadh)(const spmv_half *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = (SPMV__GT)spmv_half_to_float(p[i]);
    return r;
}
static inline SPMV__GA SPMV__GV SPMV__GF(mloadh)(unsigned m, const spmv_half *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? (SPMV__GT)spmv_half_to_float(p[i]) : (SPMV__GT)0;
    return r;
}
static inline SPMV__GA SPMV__GV SPMV__GF(loadb)(const spmv_bfloat16 *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = (SPMV__GT)spmv_bfloat16_to_float(p[i]);
    return r;
}
static inline SPMV__GA SPMV__GV SPMV__GF(mloadb)(unsigned m, const spmv_bfloat16 *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? (SPMV__GT)spmv_bfloat16_to_float(p[i]) : (SPMV__GT)0;
    return r;
}

static inline SPMV__GA void SPMV__GF(storeu)(SPMV__GT *p, SPMV__GV a) {
    int i;
    for (i = 0; i < SPMV__GW; i++) p[i] = a.v[i];
}

static inline SPMV__GA SPMV__GV SPMV__GF(mload)(unsigned m, const SPMV__GT *p) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? p[i] : (SPMV__GT)0;
    return r;
}

static inline SPMV__GA void SPMV__GF(mstore)(SPMV__GT *p, unsigned m, SPMV__GV a) {
    int i;
    for (i = 0; i < SPMV__GW; i++)
        if (SPMV__GON(m, i)) p[i] = a.v[i];
}

static inline SPMV__GA SPMV__GV SPMV__GF(add)(SPMV__GV a, SPMV__GV b) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = a.v[i] + b.v[i];
    return r;
}

#ifdef SPMV__GCX
/* complex lanes: the textbook product (ar br - ai bi, ar bi + ai br), as BLAS and oneMKL compute
 * it (C's own product calls a library function when both parts come out NaN), written on arrays
 * of the lanes' 2W parts (SPMV__GCR, copied in and out: a complex's layout is its two parts):
 * GCC's SLP vectoriser pairs the parts there (vaddsub, vpermil), where through __real__ and
 * __imag__ it left every part a scalar operation */
#define SPMV__GPROD(pr, pa, pb, i, acc_re, acc_im)                                                  \
    pr[2 * i] = (pa[2 * i] * pb[2 * i] - pa[2 * i + 1] * pb[2 * i + 1]) acc_re;                     \
    pr[2 * i + 1] = (pa[2 * i] * pb[2 * i + 1] + pa[2 * i + 1] * pb[2 * i]) acc_im
static inline SPMV__GA SPMV__GV SPMV__GF(mul)(SPMV__GV a, SPMV__GV b) {
    SPMV__GV r;
    SPMV__GCR pa[2 * SPMV__GW], pb[2 * SPMV__GW], pr[2 * SPMV__GW];
    int i;
    memcpy(pa, a.v, sizeof pa), memcpy(pb, b.v, sizeof pb);
    for (i = 0; i < SPMV__GW; i++) {
        SPMV__GPROD(pr, pa, pb, i, , );
    }
    memcpy(r.v, pr, sizeof pr);
    return r;
}
static inline SPMV__GA SPMV__GV SPMV__GF(fma)(SPMV__GV a, SPMV__GV b, SPMV__GV c) {
    SPMV__GV r;
    SPMV__GCR pa[2 * SPMV__GW], pb[2 * SPMV__GW], pc[2 * SPMV__GW], pr[2 * SPMV__GW];
    int i;
    memcpy(pa, a.v, sizeof pa), memcpy(pb, b.v, sizeof pb), memcpy(pc, c.v, sizeof pc);
    for (i = 0; i < SPMV__GW; i++) {
        SPMV__GPROD(pr, pa, pb, i, +pc[2 * i], +pc[2 * i + 1]);
    }
    memcpy(r.v, pr, sizeof pr);
    return r;
}
#undef SPMV__GPROD
#else
static inline SPMV__GA SPMV__GV SPMV__GF(mul)(SPMV__GV a, SPMV__GV b) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = a.v[i] * b.v[i];
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(fma)(SPMV__GV a, SPMV__GV b, SPMV__GV c) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = a.v[i] * b.v[i] + c.v[i];
    return r;
}
#endif

/* Pairwise (tree) sum: lanes i and i+h for h = W/2, W/4, ..., 1. */
static inline SPMV__GA SPMV__GT SPMV__GF(hsum)(SPMV__GV a) {
    int h, i;
    for (h = SPMV__GW / 2; h > 0; h /= 2)
        for (i = 0; i < h; i++) a.v[i] += a.v[i + h];
    return a.v[0];
}

/* Inclusive prefix sum, left to right. */
static inline SPMV__GA SPMV__GV SPMV__GF(scan)(SPMV__GV a) {
    int i;
    for (i = 1; i < SPMV__GW; i++) a.v[i] += a.v[i - 1];
    return a;
}

static inline SPMV__GA SPMV__GV SPMV__GF(gather_i32)(const SPMV__GT *base, const int32_t *idx) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = base[idx[i]];
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(gather_i64)(const SPMV__GT *base, const int64_t *idx) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = base[idx[i]];
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(mgather_i32)(unsigned m, const SPMV__GT *base, const int32_t *idx) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? base[idx[i]] : (SPMV__GT)0;
    return r;
}

static inline SPMV__GA SPMV__GV SPMV__GF(mgather_i64)(unsigned m, const SPMV__GT *base, const int64_t *idx) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? base[idx[i]] : (SPMV__GT)0;
    return r;
}

/* Low n bits set, n clamped to [0, W]. */
static inline SPMV__GA unsigned SPMV__GF(mask_first)(int n) {
    if (n <= 0) return 0u;
    if (n >= SPMV__GW) return 0xFFFFFFFFu >> (32 - SPMV__GW);
    return (1u << n) - 1u;
}

/* Lane i (taken modulo W). */
static inline SPMV__GA SPMV__GT SPMV__GF(lane)(SPMV__GV a, int i) {
    return a.v[i & (SPMV__GW - 1)];
}

/* Lane from b where the mask bit is set, else from a. */
static inline SPMV__GA SPMV__GV SPMV__GF(blend)(unsigned m, SPMV__GV a, SPMV__GV b) {
    SPMV__GV r;
    int i;
    for (i = 0; i < SPMV__GW; i++) r.v[i] = SPMV__GON(m, i) ? b.v[i] : a.v[i];
    return r;
}

/* Lanes move up by one: lane 0 = fill, lane i = a[i-1]. */
static inline SPMV__GA SPMV__GV SPMV__GF(shift_up)(SPMV__GV a, SPMV__GT fill) {
    SPMV__GV r;
    int i;
    r.v[0] = fill;
    for (i = 1; i < SPMV__GW; i++) r.v[i] = a.v[i - 1];
    return r;
}

#undef SPMV__GON
#undef SPMV__GV
#undef SPMV__GF
#undef SPMV__GT
#undef SPMV__GW
#undef SPMV__GP
#undef SPMV__GCX
#undef SPMV__GCR
#undef SPMV__GA
