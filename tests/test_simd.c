/* Tests of the SIMD vocabulary (formats/simd/simd.h through formats/simd/simd_use.h): every op
 * of every set against a scalar reference.
 *
 *   gcc -std=c11 -O2 -Wall -Wextra -I. tests/test_simd.c                       native
 *   gcc -std=c11 -O2 -Wall -Wextra -I. -DSPMV_EMULATE_AVX512 tests/test_simd.c  SIMDe
 * (also valid C++17: g++ -std=c++17 -x c++ ...; also with -fsanitize=address,undefined;
 * add -DSPMV_HW_GATHER=1 to test the gather-instruction form of the unmasked gathers)
 *
 * Sets: generic 4/8/16/32 x double/float; AVX2 double/float when the CPU has AVX2+FMA;
 * AVX-512 double/float when the CPU has AVX-512F, or always when emulated. A set the
 * CPU or the build lacks is reported as skipped.
 *
 * Masked loads/stores/gathers are run against arrays that end exactly at a PROT_NONE
 * guard page (and off-lane gather indices that point into one), so touching memory of
 * an off lane crashes; a SIGSEGV/SIGBUS handler names the test and exits 1.
 *
 * The file includes itself once per set (the part after #else is the per-set body,
 * instantiated through formats/simd/simd_use.h with the V_* names kernels use). */
#ifndef TS_BODY
/* ================================ driver ======================================== */
#if !defined(_DEFAULT_SOURCE) && !defined(__cplusplus)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS under -std=c11 */
#endif
#include "../formats/simd/simd.h"
#define TH_NO_ALLOC_HOOKS
#include "harness.h"
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define TS_HAVE_MMAP 1
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#else
#define TS_HAVE_MMAP 0
#endif

#define TS_STR_(x) #x
#define TS_STR(x) TS_STR_(x)

/* ---- deterministic random numbers (xorshift64*) ---- */
static uint64_t ts_rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t ts_u64(void) {
    ts_rng_state ^= ts_rng_state >> 12;
    ts_rng_state ^= ts_rng_state << 25;
    ts_rng_state ^= ts_rng_state >> 27;
    return ts_rng_state * 0x2545F4914F6CDD1Dull;
}
/* uniform in [-1, 1) */
static double ts_unif(void) { return (double)(ts_u64() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }
/* integer in [0, n) */
static int64_t ts_below(int64_t n) { return (int64_t)(ts_u64() % (uint64_t)n); }
/* small integer in [-8, 8]: sums of a few dozen are exact in any order */
static double ts_small(void) { return (double)(ts_below(17) - 8); }
/* value for a trial: small integers in exact trials, else uniform */
static double ts_val(int exact) { return exact ? ts_small() : ts_unif(); }

/* reference mask: the low n bits (n clamped to [0, w]) */
static unsigned ts_prefix(int n, int w) {
    if (n <= 0) return 0u;
    if (n > w) n = w;
    return (unsigned)((1ull << n) - 1ull);
}
static int ts_on(unsigned m, int i) { return (int)((m >> i) & 1u); }

/* ---- memory that ends at an inaccessible page ---- */
typedef struct ts_guard {
    void *map;
    size_t len;
} ts_guard;

/* `bytes` of writable memory whose last byte is just before a PROT_NONE page
 * (malloc'd, without the guard, where mmap is unavailable). */
static void *ts_guard_alloc(ts_guard *g, size_t bytes) {
#if TS_HAVE_MMAP
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t data = (bytes + pg - 1) / pg * pg;
    unsigned char *p;
    if (data == 0) data = pg;
    g->len = data + pg;
    g->map = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    p = (unsigned char *)g->map;
    if (mprotect(p + data, pg, PROT_NONE) != 0) {
        perror("mprotect");
        exit(2);
    }
    return p + data - bytes;
#else
    g->len = bytes;
    g->map = malloc(bytes ? bytes : 1);
    if (!g->map) exit(2);
    return g->map;
#endif
}
static void ts_guard_free(ts_guard *g) {
#if TS_HAVE_MMAP
    munmap(g->map, g->len);
#else
    free(g->map);
#endif
}

/* name of the guarded test running, for the crash handler */
static const char *volatile ts_where = "startup";
#if TS_HAVE_MMAP
/* async-signal-safe output of a string / a non-negative number */
static void ts_put(const char *s) {
    ssize_t r = write(1, s, strlen(s));
    (void)r;
}
static void ts_put_int(int v) {
    char b[16];
    int k = 15;
    b[k] = 0;
    do {
        b[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && k > 0);
    ts_put(b + k);
}
static void ts_on_fault(int sig) {
    (void)sig;
    ts_put("FAIL crash (off-lane memory touched?) in: ");
    ts_put(ts_where);
    ts_put("\nRESULT simd passed=");
    ts_put_int(check_passed_);
    ts_put(" failed=");
    ts_put_int(check_failed_ + 1);
    ts_put(" skipped=");
    ts_put_int(check_skipped_);
    ts_put("\n");
    _exit(1);
}
static void ts_install_fault_handler(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ts_on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}
#else
static void ts_install_fault_handler(void) {}
#endif

/* ---- comparisons ---- */
static int ts_same(const double *got, const double *ref, int n) {
    int i;
    for (i = 0; i < n; i++)
        if (!(got[i] == ref[i])) return 0;
    return 1;
}
/* |got - ref| <= tol[i] for every lane */
static int ts_close(const double *got, const double *ref, const double *tol, int n) {
    int i;
    for (i = 0; i < n; i++)
        if (!(fabs(got[i] - ref[i]) <= tol[i])) return 0;
    return 1;
}

/* ---- instantiate the body for every set ---- */
#define TS_BODY 1

#define SPMV_VAL double
#define SPMV_ISA_TOK generic
#define SPMV_GW 4
#define TS_TAG g4d
#define TS_EXPECT_W 4
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g4"
#include "test_simd.c"

#define SPMV_VAL double
#define SPMV_ISA_TOK generic /* SPMV_GW left out: the default for double is 8 */
#define TS_TAG g8d
#define TS_EXPECT_W 8
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g8"
#include "test_simd.c"

#define SPMV_VAL double
#define SPMV_ISA_TOK generic
#define SPMV_GW 16
#define TS_TAG g16d
#define TS_EXPECT_W 16
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g16"
#include "test_simd.c"

#define SPMV_VAL double
#define SPMV_ISA_TOK generic
#define SPMV_GW 32
#define TS_TAG g32d
#define TS_EXPECT_W 32
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g32"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK generic
#define SPMV_GW 4
#define TS_TAG g4s
#define TS_EXPECT_W 4
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g4"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK generic
#define SPMV_GW 8
#define TS_TAG g8s
#define TS_EXPECT_W 8
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g8"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK generic /* SPMV_GW left out: the default for float is 16 */
#define TS_TAG g16s
#define TS_EXPECT_W 16
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g16"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK generic
#define SPMV_GW 32
#define TS_TAG g32s
#define TS_EXPECT_W 32
#define TS_EXPECT_ENUM SPMV_ISA_GENERIC
#define TS_EXPECT_SFX "g32"
#include "test_simd.c"

#define SPMV_VAL double
#define SPMV_ISA_TOK avx2
#define TS_TAG avx2d
#define TS_EXPECT_W 4
#define TS_EXPECT_ENUM SPMV_ISA_AVX2
#define TS_EXPECT_SFX "avx2"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK avx2
#define TS_TAG avx2s
#define TS_EXPECT_W 8
#define TS_EXPECT_ENUM SPMV_ISA_AVX2
#define TS_EXPECT_SFX "avx2"
#include "test_simd.c"

#define SPMV_VAL double
#define SPMV_ISA_TOK avx512
#define TS_TAG avx512d
#define TS_EXPECT_W 8
#define TS_EXPECT_ENUM SPMV_ISA_AVX512
#define TS_EXPECT_SFX "avx512"
#include "test_simd.c"

#define SPMV_VAL float
#define SPMV_ISA_TOK avx512
#define TS_TAG avx512s
#define TS_EXPECT_W 16
#define TS_EXPECT_ENUM SPMV_ISA_AVX512
#define TS_EXPECT_SFX "avx512"
#include "test_simd.c"

int main(void) {
    ts_install_fault_handler();
#ifdef SPMV_EMULATE_AVX512
    printf("test_simd: AVX-512 sets emulated through SIMDe\n");
#endif
#ifdef SPMV_HW_GATHER
    printf("test_simd: unmasked AVX gathers from %s (SPMV_HW_GATHER=%d)\n",
           SPMV_HW_GATHER ? "gather instructions" : "scalar loads", (int)SPMV_HW_GATHER);
#endif
    ts_g4d_run();
    ts_g8d_run();
    ts_g16d_run();
    ts_g32d_run();
    ts_g4s_run();
    ts_g8s_run();
    ts_g16s_run();
    ts_g32s_run();
    ts_avx2d_run();
    ts_avx2s_run();
    ts_avx512d_run();
    ts_avx512s_run();
#ifdef SPMV_EMULATE_AVX512
    return check_finish("simd-emu");
#else
    return check_finish("simd");
#endif
}

#else /* TS_BODY */
/* ============================== per-set body ===================================== *
 * In: SPMV_VAL, SPMV_ISA_TOK, [SPMV_GW], TS_TAG, TS_EXPECT_W/_ENUM/_SFX. */
#define TS_FN(x) SPMV_CAT3(ts_, TS_TAG, x)
#define TS_NAME TS_STR(TS_TAG)
#define TS_T SPMV_VAL
#define TS_EPS (sizeof(TS_T) == 8 ? DBL_EPSILON : (double)FLT_EPSILON)

/* ------------- part 1: SPMV_IDX = int32_t: every op, explicit-width gathers ------- */
#define SPMV_IDX int32_t
#include "../formats/simd/simd_use.h"

#if SPMV_W != TS_EXPECT_W
#error "simd_use.h: unexpected SPMV_W"
#endif

#if SPMV_ISA_COMPILED
/* Lanes of a vector expression, as doubles (macros, not functions: no vector passed
 * by value out of line). TS_IS(expr, ref): the lanes equal ref exactly. */
#define TS_GET(expr, out)                                        \
    do {                                                         \
        TS_T t_[SPMV_W];                                         \
        int j_;                                                  \
        V_storeu(t_, (expr));                                    \
        for (j_ = 0; j_ < SPMV_W; j_++) (out)[j_] = (double)t_[j_]; \
    } while (0)
#define TS_IS(expr, ref, ...)                                    \
    do {                                                         \
        double g_[SPMV_W];                                       \
        TS_GET(expr, g_);                                        \
        CHECK(ts_same(g_, ref, SPMV_W), __VA_ARGS__);            \
    } while (0)

/* zero set1 loadu storeu lane mask_first */
SPMV_KTARGET static void TS_FN(_basic)(void) {
    TS_T buf[SPMV_W + 2], out[SPMV_W + 2];
    double ref[SPMV_W];
    const TS_T sent = (TS_T)12345;
    int i, n, ok, trial;
    for (trial = 0; trial < 4; trial++) {
        TS_T x = (TS_T)ts_val(trial & 1);
        spmv_v v;
        for (i = 0; i < SPMV_W; i++) ref[i] = 0.0;
        TS_IS(V_zero(), ref, "%s zero", TS_NAME);
        for (i = 0; i < SPMV_W; i++) ref[i] = (double)x;
        TS_IS(V_set1(x), ref, "%s set1", TS_NAME);

        for (i = 0; i < SPMV_W + 2; i++) buf[i] = (TS_T)ts_val(trial & 1);
        for (i = 0; i < SPMV_W; i++) ref[i] = (double)buf[1 + i];
        v = V_loadu(buf + 1); /* unaligned */
        TS_IS(v, ref, "%s loadu", TS_NAME);

        for (i = 0; i < SPMV_W + 2; i++) out[i] = sent;
        V_storeu(out + 1, v);
        ok = out[0] == sent && out[SPMV_W + 1] == sent;
        for (i = 0; i < SPMV_W; i++) ok &= out[1 + i] == buf[1 + i];
        CHECK(ok, "%s storeu", TS_NAME);

        ok = 1;
        for (i = 0; i < SPMV_W; i++) ok &= V_lane(v, i) == buf[1 + i];
        CHECK(ok, "%s lane", TS_NAME);
    }
    for (n = -1; n <= SPMV_W + 1; n++)
        CHECK(V_mask_first(n) == ts_prefix(n, SPMV_W), "%s mask_first(%d) = %#x", TS_NAME, n, V_mask_first(n));
}

/* add mul fma hsum scan: exact on small integers, within rounding on uniform data */
SPMV_KTARGET static void TS_FN(_arith)(void) {
    TS_T a[SPMV_W], b[SPMV_W], c[SPMV_W];
    double got[SPMV_W], ref[SPMV_W], tol[SPMV_W];
    int i, trial;
    for (trial = 0; trial < 40; trial++) {
        int exact = trial & 1;
        spmv_v va, vb, vc;
        double s = 0.0, sabs = 0.0;
        for (i = 0; i < SPMV_W; i++) {
            a[i] = (TS_T)ts_val(exact);
            b[i] = (TS_T)ts_val(exact);
            c[i] = (TS_T)ts_val(exact);
        }
        va = V_loadu(a);
        vb = V_loadu(b);
        vc = V_loadu(c);

        for (i = 0; i < SPMV_W; i++) ref[i] = (double)(TS_T)(a[i] + b[i]);
        TS_IS(V_add(va, vb), ref, "%s add", TS_NAME);
        for (i = 0; i < SPMV_W; i++) ref[i] = (double)(TS_T)(a[i] * b[i]);
        TS_IS(V_mul(va, vb), ref, "%s mul", TS_NAME);

        /* fused or not: within 2 rounding errors of the exact a*b+c */
        for (i = 0; i < SPMV_W; i++) {
            long double e = (long double)a[i] * (long double)b[i] + (long double)c[i];
            ref[i] = (double)e;
            tol[i] = exact ? 0.0 : 2.0 * TS_EPS * (fabs((double)a[i] * (double)b[i]) + fabs((double)c[i]));
        }
        TS_GET(V_fma(va, vb, vc), got);
        CHECK(ts_close(got, ref, tol, SPMV_W), "%s fma (%s data)", TS_NAME, exact ? "integer" : "uniform");

        /* hsum: any summation order */
        for (i = 0; i < SPMV_W; i++) {
            s += (double)a[i];
            sabs += fabs((double)a[i]);
        }
        {
            double h = (double)V_hsum(va);
            double t = exact ? 0.0 : SPMV_W * TS_EPS * sabs;
            CHECK(fabs(h - s) <= t, "%s hsum %.17g vs %.17g (%s data)", TS_NAME, h, s, exact ? "integer" : "uniform");
        }

        /* scan: lane i = a0 + ... + ai */
        s = 0.0;
        sabs = 0.0;
        for (i = 0; i < SPMV_W; i++) {
            s += (double)a[i];
            sabs += fabs((double)a[i]);
            ref[i] = s;
            tol[i] = exact ? 0.0 : SPMV_W * TS_EPS * sabs;
        }
        TS_GET(V_scan(va), got);
        CHECK(ts_close(got, ref, tol, SPMV_W), "%s scan (%s data)", TS_NAME, exact ? "integer" : "uniform");
    }
}

/* blend shift_up */
SPMV_KTARGET static void TS_FN(_lanes)(void) {
    TS_T a[SPMV_W], b[SPMV_W];
    double ref[SPMV_W];
    int i, n, trial;
    spmv_v va, vb;
    for (i = 0; i < SPMV_W; i++) {
        a[i] = (TS_T)ts_unif();
        b[i] = (TS_T)ts_unif();
    }
    va = V_loadu(a);
    vb = V_loadu(b);
    for (n = 0; n <= SPMV_W; n++) {
        unsigned m = V_mask_first(n);
        for (i = 0; i < SPMV_W; i++) ref[i] = (double)(i < n ? b[i] : a[i]);
        TS_IS(V_blend(m, va, vb), ref, "%s blend(first %d)", TS_NAME, n);
    }
    for (trial = 0; trial < 20; trial++) {
        unsigned m = (unsigned)ts_u64(); /* bits at or above W must be ignored */
        for (i = 0; i < SPMV_W; i++) ref[i] = (double)(ts_on(m, i) ? b[i] : a[i]);
        TS_IS(V_blend(m, va, vb), ref, "%s blend(%#x)", TS_NAME, m);
    }
    for (trial = 0; trial < 4; trial++) {
        TS_T fill = (TS_T)ts_unif();
        for (i = 0; i < SPMV_W; i++) a[i] = (TS_T)ts_unif();
        ref[0] = (double)fill;
        for (i = 1; i < SPMV_W; i++) ref[i] = (double)a[i - 1];
        TS_IS(V_shift_up(V_loadu(a), fill), ref, "%s shift_up", TS_NAME);
    }
}

/* mload mstore: prefix masks at the very end of an allocation, random masks inside */
SPMV_KTARGET static void TS_FN(_masked_mem)(void) {
    ts_guard g;
    TS_T *arr = (TS_T *)ts_guard_alloc(&g, SPMV_W * sizeof(TS_T));
    TS_T *end = arr + SPMV_W, src[SPMV_W];
    const TS_T sent = (TS_T)-777;
    double ref[SPMV_W];
    int i, n, ok, trial;
    spmv_v v;

    for (i = 0; i < SPMV_W; i++) {
        arr[i] = (TS_T)ts_unif();
        src[i] = (TS_T)ts_unif();
    }
    v = V_loadu(src);

    ts_where = TS_NAME " mload, last n elements before a guard page";
    for (n = 0; n <= SPMV_W; n++) {
        const TS_T *p = end - n;
        for (i = 0; i < SPMV_W; i++) ref[i] = i < n ? (double)p[i] : 0.0;
        TS_IS(V_mload(V_mask_first(n), p), ref, "%s mload(first %d) at end", TS_NAME, n);
    }
    ts_where = TS_NAME " mload, random masks";
    for (trial = 0; trial < 20; trial++) {
        unsigned m = (unsigned)ts_u64();
        for (i = 0; i < SPMV_W; i++) ref[i] = ts_on(m, i) ? (double)arr[i] : 0.0;
        TS_IS(V_mload(m, arr), ref, "%s mload(%#x)", TS_NAME, m);
    }

    ts_where = TS_NAME " mstore, last n elements before a guard page";
    for (n = 0; n <= SPMV_W; n++) {
        TS_T *p = end - n;
        for (i = 0; i < SPMV_W; i++) arr[i] = sent;
        V_mstore(p, V_mask_first(n), v);
        ok = 1;
        for (i = 0; i < SPMV_W - n; i++) ok &= arr[i] == sent;
        for (i = 0; i < n; i++) ok &= p[i] == src[i];
        CHECK(ok, "%s mstore(first %d) at end", TS_NAME, n);
    }
    ts_where = TS_NAME " mstore, random masks";
    for (trial = 0; trial < 20; trial++) {
        unsigned m = (unsigned)ts_u64();
        for (i = 0; i < SPMV_W; i++) arr[i] = sent;
        V_mstore(arr, m, v);
        ok = 1;
        for (i = 0; i < SPMV_W; i++) ok &= arr[i] == (ts_on(m, i) ? src[i] : sent);
        CHECK(ok, "%s mstore(%#x)", TS_NAME, m);
    }
    /* full mask = storeu */
    for (i = 0; i < SPMV_W; i++) arr[i] = sent;
    V_mstore(arr, V_mask_first(SPMV_W), v);
    ok = 1;
    for (i = 0; i < SPMV_W; i++) ok &= arr[i] == src[i];
    CHECK(ok, "%s mstore(all)", TS_NAME);
    ts_where = "?";
    ts_guard_free(&g);
}

/* gather_i32 gather_i64 mgather_i32 mgather_i64 */
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 8
/* loadw mloadw (V_loadt of a float matrix with double vectors): floats as double lanes, exact;
 * masked: off-lanes 0, their memory (past a guard page) not read */
SPMV_KTARGET static void TS_FN(_widen)(void) {
    ts_guard g;
    float *arr = (float *)ts_guard_alloc(&g, SPMV_W * sizeof(float));
    const float *end = arr + SPMV_W;
    double ref[SPMV_W];
    int i, n, trial;
    for (i = 0; i < SPMV_W; i++) arr[i] = (float)ts_unif() * (i % 3 == 2 ? 1e30f : 1.0f), ref[i] = (double)arr[i];
    ts_where = TS_NAME " loadw";
    TS_IS(SPMV_CAT(SPMV__UB, _loadw)(arr), ref, "%s loadw", TS_NAME);
    ts_where = TS_NAME " mloadw, last n floats before a guard page";
    for (n = 0; n <= SPMV_W; n++) {
        const float *p = end - n;
        for (i = 0; i < SPMV_W; i++) ref[i] = i < n ? (double)p[i] : 0.0;
        TS_IS(SPMV_CAT(SPMV__UB, _mloadw)(V_mask_first(n), p), ref, "%s mloadw(first %d) at end", TS_NAME, n);
    }
    ts_where = TS_NAME " mloadw, random masks";
    for (trial = 0; trial < 20; trial++) {
        unsigned m = (unsigned)ts_u64();
        for (i = 0; i < SPMV_W; i++) ref[i] = ts_on(m, i) ? (double)arr[i] : 0.0;
        TS_IS(SPMV_CAT(SPMV__UB, _mloadw)(m, arr), ref, "%s mloadw(%#x)", TS_NAME, m);
    }
    ts_where = "?";
    ts_guard_free(&g);
}
#endif

#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 4
/* loadh mloadh loadb mloadb (V_loadt of tags h and b): binary16 and bfloat16 as float lanes, as
 * formats/core/half.h converts them; masked: off-lanes 0, their memory (past a guard page) not
 * read. With the 16-bit tags' kernel target (F16C, AVX-512BW). */
#if SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 2
#define TS_KT16 SPMV_TARGET_AVX2_16
#elif SPMV_CAT(SPMV__ISAID_, SPMV_ISA_TOK) == 3
#define TS_KT16 SPMV_TARGET_AVX512_16
#else
#define TS_KT16
#endif
#define TS_CV16(kind, u) ((kind) ? (double)spmv_bfloat16_to_float((spmv_bfloat16){(u)}) : (double)spmv_half_to_float((spmv_half){(u)}))
#define TS_LD16(kind, p) ((kind) ? SPMV_CAT(SPMV__UB, _loadb)((const spmv_bfloat16 *)(const void *)(p)) : SPMV_CAT(SPMV__UB, _loadh)((const spmv_half *)(const void *)(p)))
#define TS_MLD16(kind, m, p) ((kind) ? SPMV_CAT(SPMV__UB, _mloadb)((m), (const spmv_bfloat16 *)(const void *)(p)) : SPMV_CAT(SPMV__UB, _mloadh)((m), (const spmv_half *)(const void *)(p)))
TS_KT16 static void TS_FN(_widen16)(void) {
    ts_guard g;
    uint16_t *arr = (uint16_t *)ts_guard_alloc(&g, SPMV_W * sizeof(uint16_t));
    const uint16_t *end = arr + SPMV_W;
    double ref[SPMV_W];
    int i, n, trial, kind;
    for (kind = 0; kind < 2; kind++) {
        const uint16_t ones = kind ? 0x7f80u : 0x7c00u; /* the exponent of Inf and NaN: left out (NaN != NaN) */
        for (i = 0; i < SPMV_W; i++) {
            arr[i] = (uint16_t)ts_u64();
            if ((arr[i] & ones) == ones) arr[i] = (uint16_t)(arr[i] & ~0x4000u);
            ref[i] = TS_CV16(kind, arr[i]);
        }
        ts_where = TS_NAME " loadh/loadb";
        TS_IS(TS_LD16(kind, arr), ref, "%s load%c", TS_NAME, kind ? 'b' : 'h');
        ts_where = TS_NAME " mloadh/mloadb, the last n values before a guard page";
        for (n = 0; n <= SPMV_W; n++) {
            const uint16_t *p = end - n;
            for (i = 0; i < SPMV_W; i++) ref[i] = i < n ? TS_CV16(kind, p[i]) : 0.0;
            TS_IS(TS_MLD16(kind, V_mask_first(n), p), ref, "%s mload%c(first %d) at end", TS_NAME, kind ? 'b' : 'h', n);
        }
        ts_where = TS_NAME " mloadh/mloadb, random masks";
        for (trial = 0; trial < 20; trial++) {
            unsigned m = (unsigned)ts_u64();
            for (i = 0; i < SPMV_W; i++) ref[i] = ts_on(m, i) ? TS_CV16(kind, arr[i]) : 0.0;
            TS_IS(TS_MLD16(kind, m, arr), ref, "%s mload%c(%#x)", TS_NAME, kind ? 'b' : 'h', m);
        }
    }
    ts_where = "?";
    ts_guard_free(&g);
}
#undef TS_KT16
#undef TS_CV16
#undef TS_LD16
#undef TS_MLD16
#endif

SPMV_KTARGET static void TS_FN(_gathers)(void) {
    enum { NB = 1000 };
    ts_guard gb, g32, g64;
    /* base[NB] is the first element of a guard page; values k+1 are exact and distinct */
    TS_T *base = (TS_T *)ts_guard_alloc(&gb, NB * sizeof(TS_T));
    int32_t *i32end = (int32_t *)ts_guard_alloc(&g32, SPMV_W * sizeof(int32_t)) + SPMV_W;
    int64_t *i64end = (int64_t *)ts_guard_alloc(&g64, SPMV_W * sizeof(int64_t)) + SPMV_W;
    int32_t ix32[SPMV_W];
    int64_t ix64[SPMV_W];
    double ref[SPMV_W];
    int i, n, trial;

    for (i = 0; i < NB; i++) base[i] = (TS_T)(i + 1);

    ts_where = TS_NAME " gather";
    for (trial = 0; trial < 20; trial++) {
        for (i = 0; i < SPMV_W; i++) {
            ix32[i] = (int32_t)(trial == 0 ? NB - 1 - i : ts_below(NB)); /* trial 0: the last elements */
            ix64[i] = ix32[i];
            ref[i] = (double)base[ix32[i]];
        }
        TS_IS(V_gather_i32(base, ix32), ref, "%s gather_i32", TS_NAME);
        TS_IS(V_gather_i64(base, ix64), ref, "%s gather_i64", TS_NAME);
        /* all-on masks read the same */
        TS_IS(V_mgather_i32(V_mask_first(SPMV_W), base, ix32), ref, "%s mgather_i32(all)", TS_NAME);
        TS_IS(V_mgather_i64(V_mask_first(SPMV_W), base, ix64), ref, "%s mgather_i64(all)", TS_NAME);
    }
    /* negative indices from a base pointer inside the array (sign extension) */
    for (trial = 0; trial < 4; trial++) {
        const TS_T *mid = base + NB / 2;
        for (i = 0; i < SPMV_W; i++) {
            ix32[i] = (int32_t)(ts_below(NB) - NB / 2);
            ix64[i] = ix32[i];
            ref[i] = (double)mid[ix32[i]];
        }
        TS_IS(V_gather_i32(mid, ix32), ref, "%s gather_i32 negative indices", TS_NAME);
        TS_IS(V_gather_i64(mid, ix64), ref, "%s gather_i64 negative indices", TS_NAME);
        TS_IS(V_mgather_i32(V_mask_first(SPMV_W), mid, ix32), ref, "%s mgather_i32 negative", TS_NAME);
        TS_IS(V_mgather_i64(V_mask_first(SPMV_W), mid, ix64), ref, "%s mgather_i64 negative", TS_NAME);
    }
    /* 64-bit indices above 2^32: base pointer 2^32 elements below the array */
    if (sizeof(void *) == 8) {
        const int64_t off = (int64_t)1 << 32;
        const TS_T *fake = (const TS_T *)(uintptr_t)((uintptr_t)base - (uintptr_t)off * sizeof(TS_T));
        for (i = 0; i < SPMV_W; i++) {
            int64_t k = ts_below(NB);
            ix64[i] = off + k;
            ref[i] = (double)base[k];
        }
        TS_IS(V_gather_i64(fake, ix64), ref, "%s gather_i64 index > 2^32", TS_NAME);
        TS_IS(V_mgather_i64(V_mask_first(SPMV_W), fake, ix64), ref, "%s mgather_i64 index > 2^32", TS_NAME);
    }

    /* prefix masks, index array ending at a guard page: off-lane indices unreadable */
    ts_where = TS_NAME " mgather, last n indices before a guard page";
    for (n = 0; n <= SPMV_W; n++) {
        int32_t *p32 = i32end - n;
        int64_t *p64 = i64end - n;
        for (i = 0; i < n; i++) {
            p32[i] = (int32_t)(i == 0 ? NB - 1 : ts_below(NB));
            p64[i] = p32[i];
        }
        for (i = 0; i < SPMV_W; i++) ref[i] = i < n ? (double)base[p32[i]] : 0.0;
        TS_IS(V_mgather_i32(V_mask_first(n), base, p32), ref, "%s mgather_i32(first %d) at end", TS_NAME, n);
        TS_IS(V_mgather_i64(V_mask_first(n), base, p64), ref, "%s mgather_i64(first %d) at end", TS_NAME, n);
    }
    /* random masks, off-lane indices point at base[NB], inside the guard page */
    ts_where = TS_NAME " mgather, random masks with off-lane indices into a guard page";
    for (trial = 0; trial < 20; trial++) {
        unsigned m = (unsigned)ts_u64();
        for (i = 0; i < SPMV_W; i++) {
            ix32[i] = ts_on(m, i) ? (int32_t)ts_below(NB) : (int32_t)NB;
            ix64[i] = ix32[i];
            ref[i] = ts_on(m, i) ? (double)base[ix32[i]] : 0.0;
        }
        TS_IS(V_mgather_i32(m, base, ix32), ref, "%s mgather_i32(%#x)", TS_NAME, m);
        TS_IS(V_mgather_i64(m, base, ix64), ref, "%s mgather_i64(%#x)", TS_NAME, m);
    }
    ts_where = "?";
    ts_guard_free(&gb);
    ts_guard_free(&g32);
    ts_guard_free(&g64);
}
#endif /* SPMV_ISA_COMPILED */

/* V_gather / V_mgather pick the index width from SPMV_IDX (compiled twice: i32, i64) */
#define TS_MAPTEST(ik)                                                                       \
    SPMV_KTARGET static void TS_FN(SPMV_CAT(_map_, ik))(void) {                              \
        TS_T base[64];                                                                       \
        SPMV_IDX ix[SPMV_W];                                                                 \
        double ref[SPMV_W];                                                                  \
        unsigned m = 0x5A5A5A5Au;                                                            \
        int i;                                                                               \
        for (i = 0; i < 64; i++) base[i] = (TS_T)(i + 1);                                    \
        for (i = 0; i < SPMV_W; i++) {                                                       \
            ix[i] = (SPMV_IDX)((i * 37 + 11) % 64);                                          \
            ref[i] = (double)base[ix[i]];                                                    \
        }                                                                                    \
        TS_IS(V_gather(base, ix), ref, "%s V_gather (%s)", TS_NAME, #ik);        \
        for (i = 0; i < SPMV_W; i++)                                                         \
            if (!ts_on(m, i)) ref[i] = 0.0;                                                  \
        TS_IS(V_mgather(m, base, ix), ref, "%s V_mgather (%s)", TS_NAME, #ik);   \
    }
#if SPMV_ISA_COMPILED
TS_MAPTEST(i32)
#endif
#include "../formats/simd/simd_unuse.h"
#undef SPMV_IDX

/* ------------- part 2: SPMV_IDX = int64_t: the V_gather mapping; the runner -------- */
#define SPMV_IDX int64_t
#include "../formats/simd/simd_use.h"
#if SPMV_ISA_COMPILED
TS_MAPTEST(i64)
#endif

static void TS_FN(_run)(void) {
#if SPMV_ISA_COMPILED
    if (!spmv_isa_supported(SPMV_ISA_ENUM)) {
        check_skip("simd %s: the CPU does not support %s", TS_NAME, spmv_isa_name(SPMV_ISA_ENUM));
        return;
    }
    CHECK(SPMV_ISA_ENUM == TS_EXPECT_ENUM, "%s SPMV_ISA_ENUM", TS_NAME);
    CHECK(strcmp(TS_STR(SPMV_ISA_SUFFIX), TS_EXPECT_SFX) == 0, "%s SPMV_ISA_SUFFIX is %s", TS_NAME,
          TS_STR(SPMV_ISA_SUFFIX));
    TS_FN(_basic)();
    TS_FN(_arith)();
    TS_FN(_lanes)();
    TS_FN(_masked_mem)();
#if SPMV_CAT(SPMV__VSZ_, SPMV_VAL) == 8
    TS_FN(_widen)();
#else
    TS_FN(_widen16)();
#endif
    TS_FN(_gathers)();
    TS_FN(_map_i32)();
    TS_FN(_map_i64)();
#else
    check_skip("simd %s: backend not compiled in (SPMV_NO_SIMD or not x86 GCC/clang)", TS_NAME);
#endif
}

#include "../formats/simd/simd_unuse.h"
#undef SPMV_IDX
#undef TS_MAPTEST
#undef TS_GET
#undef TS_IS
#undef TS_FN
#undef TS_NAME
#undef TS_T
#undef TS_EPS
#undef SPMV_VAL
#undef SPMV_ISA_TOK
#undef SPMV_GW
#undef TS_TAG
#undef TS_EXPECT_W
#undef TS_EXPECT_ENUM
#undef TS_EXPECT_SFX
#endif /* TS_BODY */
