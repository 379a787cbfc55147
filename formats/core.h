/* spmv core: status codes, allocation, ISA detection, threading helpers, triplets.
 * Non-generic part of the library, included once by spmv.h.
 * Everything here compiles as C11 and as C++ (nvcc compiles .cu files as C++),
 * so: explicit casts from void*, no designated initializers, no compound literals. */
#ifndef SPMV_CORE_H
#define SPMV_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include <time.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef __cplusplus
#define SPMV_RESTRICT __restrict
#else
#define SPMV_RESTRICT restrict
#endif

#define SPMV_CAT_(a, b) a##b
#define SPMV_CAT(a, b) SPMV_CAT_(a, b)
#define SPMV_CAT3(a, b, c) SPMV_CAT(SPMV_CAT(a, b), c)

/* ---- status ------------------------------------------------------------ */
typedef enum spmv_status {
    SPMV_OK = 0,
    SPMV_ERR_ARG,         /* invalid argument: NULL pointer, bad parameter value */
    SPMV_ERR_ALLOC,       /* a memory allocation failed (nothing leaked, output left empty) */
    SPMV_ERR_OVERFLOW,    /* dimensions or nnz do not fit the index type */
    SPMV_ERR_LIMIT,       /* matrix exceeds a format's header bit-field or size limit */
    SPMV_ERR_IO,          /* file could not be opened, read or written */
    SPMV_ERR_PARSE,       /* malformed Matrix Market input (see spmv_error for the line) */
    SPMV_ERR_UNSUPPORTED, /* well-formed input the library does not handle (complex, hermitian) */
    SPMV_ERR_ISA,         /* requested instruction set not compiled in or not supported by the CPU */
    SPMV_ERR_CUDA,        /* a CUDA runtime or cuSPARSE call failed */
    SPMV_ERR_NODEVICE,    /* no CUDA device present */
    SPMV_STATUS_COUNT_
} spmv_status;

static inline const char *spmv_status_str(spmv_status s) {
    switch (s) {
    case SPMV_OK: return "success";
    case SPMV_ERR_ARG: return "invalid argument";
    case SPMV_ERR_ALLOC: return "memory allocation failed";
    case SPMV_ERR_OVERFLOW: return "dimensions or nonzero count overflow the index type";
    case SPMV_ERR_LIMIT: return "matrix exceeds the format's header field or size limit";
    case SPMV_ERR_IO: return "I/O error";
    case SPMV_ERR_PARSE: return "malformed Matrix Market input";
    case SPMV_ERR_UNSUPPORTED: return "unsupported input or feature (e.g. complex matrices, .gz without zlib)";
    case SPMV_ERR_ISA: return "instruction set not available on this build or CPU";
    case SPMV_ERR_CUDA: return "CUDA error";
    case SPMV_ERR_NODEVICE: return "no CUDA device available";
    default: return "unknown status";
    }
}

/* Optional detail for errors from readers/parsers: the 1-based line and a message. */
typedef struct spmv_error {
    long line;      /* 0 when not tied to a line */
    char msg[256];
} spmv_error;

/* ---- allocation ----------------------------------------------------------
 * Every allocation goes through SPMV_ALIGNED_ALLOC / SPMV_FREE, which a user (or
 * the allocation-failure test) may define before including spmv.h. */
#ifndef SPMV_ALIGNED_ALLOC
#define SPMV_ALIGNED_ALLOC(align, size) aligned_alloc((align), (size))
#endif
#ifndef SPMV_FREE
#define SPMV_FREE(p) free(p)
#endif
#define SPMV_ALIGN 64

/* n elements of size elt, 64-byte aligned; NULL on overflow or failure.
 * Zero-sized requests still return a valid (minimal) block so NULL always means failure. */
static inline void *spmv__alloc(size_t n, size_t elt) {
    size_t bytes;
    if (elt && n > (SIZE_MAX - SPMV_ALIGN) / elt) return NULL;
    bytes = n * elt;
    bytes = (bytes + SPMV_ALIGN - 1) / SPMV_ALIGN * SPMV_ALIGN;
    if (bytes == 0) bytes = SPMV_ALIGN;
    return SPMV_ALIGNED_ALLOC(SPMV_ALIGN, bytes);
}
static inline void *spmv__calloc(size_t n, size_t elt) {
    void *p = spmv__alloc(n, elt);
    if (p) memset(p, 0, n * elt);
    return p;
}
static inline void spmv__free(void *p) {
    if (p) SPMV_FREE(p);
}
#define SPMV_ALLOC_N(type, n) ((type *)spmv__alloc((size_t)(n), sizeof(type)))

/* ---- threads ---------------------------------------------------------------
 * SPMV_OMP(...) is `#pragma omp ...` when compiled with OpenMP and nothing otherwise,
 * so users building without -fopenmp get no unknown-pragma warnings. */
#define SPMV_PRAGMA_(x) _Pragma(#x)
#ifdef _OPENMP
#define SPMV_OMP(...) SPMV_PRAGMA_(omp __VA_ARGS__)
#else
#define SPMV_OMP(...)
#endif
static inline int spmv_max_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
static inline int spmv__tid(void) {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}
static inline int spmv__nthr(void) {
#ifdef _OPENMP
    return omp_get_num_threads();
#else
    return 1;
#endif
}
/* Below this much work (nonzeros) kernels run on one thread: a parallel region costs
 * a few microseconds, more than a small SpMV. */
#ifndef SPMV_PAR_MIN_NNZ
#define SPMV_PAR_MIN_NNZ 20000
#endif

/* ---- instruction sets ----------------------------------------------------
 * Backends: portable C (any width), AVX2 (+FMA), AVX-512F. The AVX backends are
 * compiled with per-function target attributes, so one binary runs everywhere and
 * picks at run time. SPMV_EMULATE_AVX512 (test builds) maps the AVX-512 backend onto
 * SIMDe so it runs on CPUs without AVX-512. SPMV_NO_SIMD disables both. */
typedef enum spmv_isa {
    SPMV_ISA_AUTO = 0,
    SPMV_ISA_GENERIC = 1,
    SPMV_ISA_AVX2 = 2,
    SPMV_ISA_AVX512 = 3,
    SPMV_ISA_COUNT_ = 4
} spmv_isa;

#if !defined(SPMV_NO_SIMD) && (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
#define SPMV_HAVE_AVX2 1
#define SPMV_HAVE_AVX512 1
#else
#define SPMV_HAVE_AVX2 0
#define SPMV_HAVE_AVX512 0
#endif

static inline const char *spmv_isa_name(spmv_isa isa) {
    switch (isa) {
    case SPMV_ISA_AUTO: return "auto";
    case SPMV_ISA_GENERIC: return "generic";
    case SPMV_ISA_AVX2: return "avx2";
#ifdef SPMV_EMULATE_AVX512
    case SPMV_ISA_AVX512: return "avx512emu";
#else
    case SPMV_ISA_AVX512: return "avx512";
#endif
    default: return "?";
    }
}

/* Parses "generic", "avx2", "avx512" (also "avx512emu"); returns SPMV_ISA_AUTO if unknown. */
static inline spmv_isa spmv_isa_parse(const char *s) {
    if (!s) return SPMV_ISA_AUTO;
    if (!strcmp(s, "generic") || !strcmp(s, "portable") || !strcmp(s, "c")) return SPMV_ISA_GENERIC;
    if (!strcmp(s, "avx2")) return SPMV_ISA_AVX2;
    if (!strcmp(s, "avx512") || !strcmp(s, "avx512emu")) return SPMV_ISA_AVX512;
    return SPMV_ISA_AUTO;
}

/* Is the backend compiled in and usable on this CPU? */
static inline int spmv_isa_supported(spmv_isa isa) {
    switch (isa) {
    case SPMV_ISA_GENERIC: return 1;
#if SPMV_HAVE_AVX2
    case SPMV_ISA_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
#if SPMV_HAVE_AVX512
    case SPMV_ISA_AVX512:
#ifdef SPMV_EMULATE_AVX512
        return 1;
#else
        return __builtin_cpu_supports("avx512f");
#endif
#endif
    default: return 0;
    }
}

/* The ISA a kernel uses when asked for `req`: AUTO means the SPMV_ISA environment
 * variable if set (generic|avx2|avx512), else the best supported. */
static inline spmv_status spmv_isa_resolve(spmv_isa req, spmv_isa *out) {
    if (req == SPMV_ISA_AUTO) {
        const char *e = getenv("SPMV_ISA");
        if (e && *e) {
            req = spmv_isa_parse(e);
            if (req == SPMV_ISA_AUTO) return SPMV_ERR_ISA;
        }
    }
    if (req == SPMV_ISA_AUTO) {
        if (spmv_isa_supported(SPMV_ISA_AVX512)) req = SPMV_ISA_AVX512;
        else if (spmv_isa_supported(SPMV_ISA_AVX2)) req = SPMV_ISA_AVX2;
        else req = SPMV_ISA_GENERIC;
    }
    if ((int)req < 1 || (int)req >= (int)SPMV_ISA_COUNT_ || !spmv_isa_supported(req)) return SPMV_ERR_ISA;
    *out = req;
    return SPMV_OK;
}

/* ---- triplets: the type-independent interchange form ----------------------
 * Produced by the Matrix Market reader and the generators, consumed by the typed
 * converters (which check that everything fits the chosen index type).
 * 0-based indices, any order, duplicates allowed (summed on conversion). */
typedef struct spmv_triplets {
    int64_t nrows, ncols, nnz;
    int64_t *row, *col;
    double *val;
} spmv_triplets;

static inline void spmv_triplets_free(spmv_triplets *t) {
    if (!t) return;
    spmv__free(t->row);
    spmv__free(t->col);
    spmv__free(t->val);
    memset(t, 0, sizeof *t);
}

static inline spmv_status spmv_triplets_alloc(spmv_triplets *t, int64_t nrows, int64_t ncols, int64_t nnz) {
    if (!t) return SPMV_ERR_ARG;
    memset(t, 0, sizeof *t);
    if (nrows < 0 || ncols < 0 || nnz < 0) return SPMV_ERR_ARG;
    t->row = SPMV_ALLOC_N(int64_t, nnz);
    t->col = SPMV_ALLOC_N(int64_t, nnz);
    t->val = SPMV_ALLOC_N(double, nnz);
    if (!t->row || !t->col || !t->val) {
        spmv_triplets_free(t);
        return SPMV_ERR_ALLOC;
    }
    t->nrows = nrows;
    t->ncols = ncols;
    t->nnz = nnz;
    return SPMV_OK;
}

/* ---- small helpers --------------------------------------------------------- */
static inline double spmv_wtime(void) {
#ifdef _OPENMP
    return omp_get_wtime();
#else
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

#endif /* SPMV_CORE_H */
