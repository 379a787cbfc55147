/* spmv core: status codes, allocation, ISA detection, threading helpers, triplets.
 * Non-generic part of the library, included once by spmv.h.
 * Everything here compiles as C11 and as C++ (nvcc compiles .cu files as C++),
 * so: explicit casts from void*, no designated initializers, no compound literals. */
#ifndef SPMV_CORE_H
#define SPMV_CORE_H
#include "version.h"
#include "half.h"
#include "cplx.h"


/* ---- build modes (spmv.h explains them) ------------------------------------
 * SPMV_API is the linkage of every function declared in formats/api.h:
 *   default                 static inline: one include gives everything, in every unit
 *   SPMV_DECLARATIONS_ONLY  types and prototypes only (external functions, no bodies)
 *   SPMV_IMPLEMENTATION     the bodies with external linkage: exactly one unit of a program
 *                           (or libspmv.a) defines it
 * C++ units (g++, nvcc) see the external functions with C linkage, so that they link against
 * an implementation compiled by a C compiler. SPMV__BODIES: function bodies are compiled.
 *   SPMV_IMPLEMENTATION_EXTRA  SPMV_IMPLEMENTATION for the tags beyond s and d only (their own
 *                           bodies; s and d declared, the shared functions weak): a unit linked
 *                           beside libspmv.a, which holds s and d (libspmv.a's second object is one) */
#if defined(SPMV_IMPLEMENTATION_EXTRA) && !defined(SPMV_IMPLEMENTATION)
#define SPMV_IMPLEMENTATION
#endif
#if defined(SPMV_DECLARATIONS_ONLY) && defined(SPMV_IMPLEMENTATION)
#error "define SPMV_DECLARATIONS_ONLY or SPMV_IMPLEMENTATION, not both"
#endif
#if defined(SPMV_DECLARATIONS_ONLY) || defined(SPMV_IMPLEMENTATION)
#ifdef __cplusplus
#define SPMV_API extern "C"
#else
#define SPMV_API extern
#endif
#else
#define SPMV_API static inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#define SPMV__MAYBE_UNUSED __attribute__((unused)) /* tables only the bodies read */
#else
#define SPMV__MAYBE_UNUSED
#endif
#ifdef SPMV_DECLARATIONS_ONLY
#define SPMV__BODIES 0
#else
#define SPMV__BODIES 1
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <limits.h>
#include <time.h>
#include <stdio.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h> /* sysconf: the physical memory, for the size caps */
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef __cplusplus
#define SPMV_RESTRICT __restrict
#else
#define SPMV_RESTRICT restrict
#endif

/* A read of p soon, into L2: layouts that stream many arrays at once (a column-major ELL
 * block reads one run per column, DIA one per diagonal) outnumber the streams a hardware
 * prefetcher follows; the kernels then fetch the next block's runs themselves. */
#if defined(__GNUC__) || defined(__clang__)
#define SPMV_PREFETCH(p) __builtin_prefetch((const void *)(p), 0, 2)
#else
#define SPMV_PREFETCH(p) ((void)(p))
#endif

/* kernels that must be inlined into their callers (so a constant argument specialises them) */
#if defined(__GNUC__) || defined(__clang__)
#define SPMV__ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define SPMV__ALWAYS_INLINE inline
#endif
/* A hot loop's one copy, at a fixed place within a 64-byte line: its speed then no longer
 * depends on where the user's link puts it (see SPMV_K(csr__rows_part)). SPMV__PINNED_LOOPS
 * also starts every loop inside on a 64-byte line (GCC; clang has no such attribute): for
 * bodies whose inner loops sit deep in the function, where the function's alignment alone
 * leaves them wherever the code before them ends. Not for every body: the padding before an
 * inner loop runs once per outer iteration (csr's PLAIN row sum, whose loop already lies in
 * one line: 0.81-1.0x with it on short-row matrices, EPYC VM 2026-11-24). GCC documents
 * `optimize` as meant for debugging; the one option given is a loop alignment, which GCC
 * appends to the command line's options. SPMV_NO_PIN turns both off. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(SPMV_NO_PIN)
#define SPMV__PINNED __attribute__((noinline, aligned(64)))
#if defined(__clang__) || defined(__INTEL_COMPILER)
#define SPMV__PINNED_LOOPS SPMV__PINNED
#else
#define SPMV__PINNED_LOOPS __attribute__((noinline, aligned(64), optimize("align-loops=64")))
#endif
#else
#define SPMV__PINNED
#define SPMV__PINNED_LOOPS
#endif

#define SPMV_CAT_(a, b) a##b
#define SPMV_CAT(a, b) SPMV_CAT_(a, b)
#define SPMV_CAT3(a, b, c) SPMV_CAT(SPMV_CAT(a, b), c)
#define SPMV_STR_(x) #x
#define SPMV_STR(x) SPMV_STR_(x)

/* ---- registry machinery (formats/registry.h) ------------------------------
 * SPMV__IF(flag)(code): code when the row's flag is 1, nothing when 0.
 * SPMV__USE(family): is the family instantiated? All of them unless SPMV_FORMATS_ONLY is
 * defined; then those with SPMV_WITH_<family> defined to 1 (coo and csr always). */
#define SPMV__IF_1(...) __VA_ARGS__
#define SPMV__IF_0(...)
#define SPMV__IF(flag) SPMV_CAT(SPMV__IF_, flag)
#define SPMV__IFNOT_0(...) __VA_ARGS__
#define SPMV__IFNOT_1(...)
#define SPMV__IFNOT(flag) SPMV_CAT(SPMV__IFNOT_, flag)
#ifdef SPMV_FORMATS_ONLY
#define SPMV__ALL_FORMATS 0
#else
#define SPMV__ALL_FORMATS 1
#endif
#define SPMV_WITH_coo 1
#define SPMV_WITH_csr 1
#define SPMV__USE(family) (SPMV__ALL_FORMATS || SPMV_CAT(SPMV_WITH_, family) + 0)
/* the families a tag with its own vector type (SPMV_VEC, formats/instance.h) instantiates */
#define SPMV__MIXED_coo 1
#define SPMV__MIXED_csr 1
#define SPMV__MIXED_dia 1
#define SPMV__MIXED_bcsr 1
#define SPMV__MIXED_ell 1
#define SPMV__MIXED_sss 1
#define SPMV__MIXED_csrdu 1
#define SPMV__MIXED_csr5 1
#define SPMV__MIXED_axt 1
#define SPMV__MIXED_suraa 1
/* the families a complex tag (c, z: formats/instance.h) instantiates */
#define SPMV__CPLX_coo 1
#define SPMV__CPLX_csr 1
#define SPMV__CPLX_dia 1
#define SPMV__CPLX_bcsr 1
#define SPMV__CPLX_ell 1
#define SPMV__CPLX_sss 1
#define SPMV__CPLX_csrdu 1
#define SPMV__CPLX_csr5 1
#define SPMV__CPLX_axt 1
#define SPMV__CPLX_suraa 1

/* ---- status ------------------------------------------------------------ */
typedef enum spmv_status {
    SPMV_OK = 0,
    SPMV_ERR_ARG,         /* invalid argument: NULL pointer, bad parameter value */
    SPMV_ERR_ALLOC,       /* a memory allocation failed (nothing leaked, output left empty) */
    SPMV_ERR_OVERFLOW,    /* dimensions or nnz do not fit the index type */
    SPMV_ERR_LIMIT,       /* matrix exceeds a format's header bit-field or size limit */
    SPMV_ERR_IO,          /* file could not be opened, read or written */
    SPMV_ERR_PARSE,       /* malformed input: a Matrix Market, plan or calibration file (spmv_error: which, the line) */
    SPMV_ERR_UNSUPPORTED, /* well-formed input the library does not handle (complex, hermitian) */
    SPMV_ERR_ISA,         /* requested instruction set not compiled in or not supported by the CPU */
    SPMV_ERR_CUDA,        /* a CUDA runtime or cuSPARSE call failed */
    SPMV_ERR_NODEVICE,    /* no CUDA device present */
    SPMV_ERR_MPI,         /* an MPI call failed (spmv_mpi.h; every rank returns it) */
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
    case SPMV_ERR_PARSE: return "malformed input file";
    case SPMV_ERR_UNSUPPORTED: return "unsupported input or feature (e.g. complex matrices, .gz without zlib)";
    case SPMV_ERR_ISA: return "instruction set not available on this build or CPU";
    case SPMV_ERR_CUDA: return "CUDA error";
    case SPMV_ERR_NODEVICE: return "no CUDA device available";
    case SPMV_ERR_MPI: return "an MPI call failed";
    default: return "unknown status";
    }
}

/* Optional detail for errors from readers/parsers: the 1-based line and a message. */
typedef struct spmv_error {
    long line;      /* 0 when not tied to a line */
    char msg[256];
} spmv_error;
/* a builder's outcome into e (may be NULL): cleared on success, "who: what (detail)" otherwise */
static inline spmv_status spmv__built(spmv_error *e, spmv_status st, const char *who, const char *detail) {
    if (e) {
        e->line = 0;
        if (st == SPMV_OK) e->msg[0] = 0;
        else snprintf(e->msg, sizeof e->msg, "%s: %s%s%s%s", who, spmv_status_str(st), detail ? " (" : "",
                      detail ? detail : "", detail ? ")" : "");
    }
    return st;
}

/* ---- allocation ----------------------------------------------------------
 * Every allocation goes through SPMV_ALIGNED_ALLOC / SPMV_FREE, which a user (or
 * the allocation-failure test) may define before including spmv.h.
 * Arrays of SPMV_HUGE_MIN bytes or more (default 64 MiB) start on a 2 MiB boundary and, with
 * the default allocator on Linux, are marked MADV_HUGEPAGE (transparent huge pages where the
 * system's setting is `madvise` or `always`; define SPMV_NO_HUGEPAGES to leave them out).
 * Why: most of a conversion is first touching fresh memory (a 4 KiB page fault costs 2.5-5 us
 * on the EPYC VM). In the bench (one process converting every format of every matrix in turn;
 * 2026-11-24) the 300 MB presets' CSR copies took 0.05-0.07 s instead of 0.17-0.79 s, but with
 * the advice from 2 MiB on, matrices of 0.2-2.7M entries (arrays of 2-21 MB) converted in a
 * median 1.82x the time of 4 KiB pages (cage11's CSR copy 1.0 -> 14.7 ms, ego-Twitter's
 * 22 -> 45 ms): hence 64 MiB. The cause, measured later (bench/first_touch.c): that VM
 * reports freed memory to its host, and a 2 MiB page freed seconds before took 0.32-0.71 GB/s
 * to touch again, 4 KiB pages 1.1-1.6 GB/s, a 2 MiB page freed just before 4.4-8.2 GB/s. */
#ifndef SPMV_ALIGNED_ALLOC
#define SPMV_ALIGNED_ALLOC(align, size) aligned_alloc((align), (size))
#if defined(__linux__) && !defined(SPMV_NO_HUGEPAGES)
#include <sys/mman.h>
#ifdef MADV_HUGEPAGE
#define SPMV__MADV_HUGE 1
#endif
#endif
#endif
#ifndef SPMV_HUGE_MIN
#define SPMV_HUGE_MIN ((size_t)64 << 20)
#endif
#define SPMV__HUGE_ALIGN ((size_t)2 << 20)
#ifndef SPMV_FREE
#define SPMV_FREE(p) free(p)
#endif
#define SPMV_ALIGN 64

/* n elements of size elt, 64-byte aligned; NULL on overflow or failure.
 * Zero-sized requests still return a valid (minimal) block so NULL always means failure. */
static inline void *spmv__alloc(size_t n, size_t elt) {
    size_t bytes;
    if (elt && n > ((size_t)PTRDIFF_MAX - SPMV_ALIGN) / elt) return NULL; /* no object can be larger */
    bytes = n * elt;
    bytes = (bytes + SPMV_ALIGN - 1) / SPMV_ALIGN * SPMV_ALIGN;
    if (bytes == 0) bytes = SPMV_ALIGN;
    if (bytes >= SPMV_HUGE_MIN) {
        /* the size is a whole number of huge pages for aligned_alloc; the last one is backed
           by 4 KiB pages (only what the advice covers, whole 2 MiB pieces, is huge) */
        const size_t whole = (bytes + SPMV__HUGE_ALIGN - 1) / SPMV__HUGE_ALIGN * SPMV__HUGE_ALIGN;
        void *p = SPMV_ALIGNED_ALLOC(SPMV__HUGE_ALIGN, whole);
#ifdef SPMV__MADV_HUGE
        if (p && bytes / SPMV__HUGE_ALIGN) (void)madvise(p, bytes / SPMV__HUGE_ALIGN * SPMV__HUGE_ALIGN, MADV_HUGEPAGE);
#endif
        return p;
    }
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
/* frees an array the library allocated for the caller (spmv_mm_read_dense's values, ...) */
static inline void spmv_free(void *p) { spmv__free(p); }
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
/* memcpy by all threads in 256 KiB pieces from 512 KiB up: a fresh array's pages are first
 * touched in parallel (a serial copy into new memory runs at the page-fault rate: ct2010's
 * 4 MB CSR took 3.8 ms serially, 1.9 ms this way, on the EPYC VM) */
static inline void spmv__par_copy(void *dst, const void *src, size_t bytes) {
    const int64_t piece = (int64_t)1 << 18, n = (int64_t)((bytes + (size_t)piece - 1) / (size_t)piece);
    int64_t i;
    if (bytes < ((size_t)1 << 19)) {
        if (bytes) memcpy(dst, src, bytes);
        return;
    }
    SPMV_OMP(parallel for schedule(static))
    for (i = 0; i < n; i++) {
        const size_t off = (size_t)(i * piece), len = bytes - off < (size_t)piece ? bytes - off : (size_t)piece;
        memcpy((char *)dst + off, (const char *)src + off, len);
    }
}
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
#include <cpuid.h>
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

/* "auto", "generic" (also "portable", "c"), "avx2", "avx512" (also "avx512emu"), in any
 * case, into *isa; anything else (also NULL) is SPMV_ERR_ARG and leaves *isa alone. */
static inline spmv_status spmv_isa_parse(const char *s, spmv_isa *isa) {
    static const struct { const char *name; spmv_isa isa; } names[] = {
        {"auto", SPMV_ISA_AUTO}, {"generic", SPMV_ISA_GENERIC}, {"portable", SPMV_ISA_GENERIC},
        {"c", SPMV_ISA_GENERIC}, {"avx2", SPMV_ISA_AVX2},       {"avx512", SPMV_ISA_AVX512},
        {"avx512emu", SPMV_ISA_AVX512}};
    size_t i, k;
    for (i = 0; s && i < sizeof names / sizeof names[0]; i++) {
        for (k = 0; names[i].name[k] && (s[k] >= 'A' && s[k] <= 'Z' ? s[k] + 32 : s[k]) == names[i].name[k]; k++) {
        }
        if (!names[i].name[k] && !s[k]) {
            if (isa) *isa = names[i].isa;
            return SPMV_OK;
        }
    }
    return SPMV_ERR_ARG;
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

/* Can the kernels of 16-bit values (tags h, b) run with this ISA here? AVX2 needs F16C, AVX-512
 * needs AVX-512BW beside F (formats/simd/simd.h, SPMV_TARGET_AVX2_16 and SPMV_TARGET_AVX512_16). */
static inline int spmv__isa_converts16(spmv_isa isa) {
    if (!spmv_isa_supported(isa)) return 0;
#if SPMV_HAVE_AVX2
    if (isa == SPMV_ISA_AVX2) { /* cpuid 1, ecx bit 29 (GCC 12's __builtin_cpu_supports("f16c") says 0) */
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1u);
    }
#endif
#if SPMV_HAVE_AVX512 && !defined(SPMV_EMULATE_AVX512)
    if (isa == SPMV_ISA_AVX512) return __builtin_cpu_supports("avx512bw");
#endif
    return 1;
}

/* The ISA a kernel uses when asked for `req`: AUTO means the SPMV_ISA environment
 * variable if set (auto|generic|avx2|avx512; another value is SPMV_ERR_ARG), else the best
 * supported. SPMV_ERR_ISA: the ISA is not compiled in or not on this CPU. */
static inline spmv_status spmv_isa_resolve(spmv_isa req, spmv_isa *out) {
    if (req == SPMV_ISA_AUTO) {
        const char *e = getenv("SPMV_ISA");
        if (e && *e && spmv_isa_parse(e, &req) != SPMV_OK) return SPMV_ERR_ARG;
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
    double *vim; /* imaginary parts (a complex file read with SPMV_MM_COMPLEX), NULL for real values:
                    a struct filled by hand starts zeroed (= {0}, memset) */
} spmv_triplets;

static inline void spmv_triplets_free(spmv_triplets *t) {
    if (!t) return;
    spmv__free(t->row);
    spmv__free(t->col);
    spmv__free(t->val);
    spmv__free(t->vim);
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

/* ---- format parameters as "key=value,..." ----------------------------------
 * Every format's parameter struct starts with `spmv_isa isa` and describes its other
 * fields with a table of spmv_param_key, ended by a {NULL} row. The generic functions
 * below give every format the same string form (tools: --params "th=8,isa=avx2"), the
 * same errors (naming the bad key or value) and the same description. "isa" is a key of
 * every format (auto|generic|avx2|avx512). */
typedef enum spmv_param_kind {
    SPMV_PK_INT = 0, /* int in [lo, hi] */
    SPMV_PK_POW2,    /* int in [lo, hi], 0 or a power of two */
    SPMV_PK_ENUM     /* int, one of names[] ("a|b|c", value = position) */
} spmv_param_kind;
typedef struct spmv_param_key {
    const char *key;
    size_t offset; /* of the int (or int-sized enum) field in the params struct */
    spmv_param_kind kind;
    long lo, hi;
    const char *names; /* SPMV_PK_ENUM: "rows|merge" */
    const char *help;
} spmv_param_key;

/* position of word w (length n) in "a|b|c", -1 if absent */
static inline int spmv__enum_find(const char *names, const char *w, size_t n) {
    int i = 0;
    while (names && *names) {
        const char *bar = strchr(names, '|');
        size_t len = bar ? (size_t)(bar - names) : strlen(names);
        if (len == n && !strncmp(names, w, n)) return i;
        if (!bar) break;
        names = bar + 1;
        i++;
    }
    return -1;
}
static inline void spmv__enum_word(const char *names, int v, char *buf, size_t n) {
    int i;
    for (i = 0; names && i < v; i++) {
        names = strchr(names, '|');
        if (names) names++;
    }
    if (!names || !n) {
        if (n) snprintf(buf, n, "%d", v);
        return;
    }
    {
        const char *bar = strchr(names, '|');
        size_t len = bar ? (size_t)(bar - names) : strlen(names);
        snprintf(buf, n, "%.*s", (int)len, names);
    }
}

/* Parses "key=value,key=value" into *params (fields not named keep their values).
 * SPMV_ERR_ARG with e->msg naming the key (unknown key, missing '=', bad or out-of-range
 * value); *params is unchanged on error. NULL or "" is no change. */
static inline spmv_status spmv_params_parse(const spmv_param_key *keys, void *params, size_t size, const char *s,
                                            spmv_error *e) {
    unsigned char tmp[512];
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!keys || !params || size > sizeof tmp) return SPMV_ERR_ARG;
    if (!s) return SPMV_OK;
    memcpy(tmp, params, size);
    while (*s) {
        const char *eq, *end = strchr(s, ','), *v;
        size_t klen, vlen;
        const spmv_param_key *k;
        long val = 0;
        if (!end) end = s + strlen(s);
        eq = (const char *)memchr(s, '=', (size_t)(end - s));
        if (end == s) { /* empty item (",,") */
            s = *end ? end + 1 : end;
            continue;
        }
        if (!eq) {
            if (e) snprintf(e->msg, sizeof e->msg, "parameter '%.*s': expected key=value", (int)(end - s), s);
            return SPMV_ERR_ARG;
        }
        klen = (size_t)(eq - s);
        v = eq + 1;
        vlen = (size_t)(end - v);
        if (klen == 3 && !strncmp(s, "isa", 3)) {
            char w[16];
            spmv_isa isa = SPMV_ISA_AUTO;
            snprintf(w, sizeof w, "%.*s", (int)(vlen < 15 ? vlen : 15), v);
            if (vlen >= 15 || spmv_isa_parse(w, &isa) != SPMV_OK) {
                if (e) snprintf(e->msg, sizeof e->msg, "parameter 'isa': '%.*s' is not auto|generic|avx2|avx512", (int)vlen, v);
                return SPMV_ERR_ARG;
            }
            memcpy(tmp, &isa, sizeof isa); /* isa is the first member of every params struct */
            s = *end ? end + 1 : end;
            continue;
        }
        for (k = keys; k->key; k++)
            if (strlen(k->key) == klen && !strncmp(k->key, s, klen)) break;
        if (!k->key) {
            if (e) {
                int n = snprintf(e->msg, sizeof e->msg, "unknown parameter '%.*s' (known: isa", (int)klen, s);
                const spmv_param_key *q;
                for (q = keys; q->key && n > 0 && (size_t)n < sizeof e->msg; q++)
                    n += snprintf(e->msg + n, sizeof e->msg - (size_t)n, ", %s", q->key);
                if (n > 0 && (size_t)n < sizeof e->msg) snprintf(e->msg + n, sizeof e->msg - (size_t)n, ")");
            }
            return SPMV_ERR_ARG;
        }
        if (k->kind == SPMV_PK_ENUM) {
            int pos = spmv__enum_find(k->names, v, vlen);
            if (pos < 0) {
                if (e) snprintf(e->msg, sizeof e->msg, "parameter '%s': '%.*s' is not one of %s", k->key, (int)vlen, v, k->names);
                return SPMV_ERR_ARG;
            }
            val = pos;
        } else {
            char num[32], *stop;
            if (vlen == 0 || vlen >= sizeof num) {
                if (e) snprintf(e->msg, sizeof e->msg, "parameter '%s': '%.*s' is not an integer", k->key, (int)vlen, v);
                return SPMV_ERR_ARG;
            }
            memcpy(num, v, vlen);
            num[vlen] = 0;
            val = strtol(num, &stop, 10);
            if (*stop || stop == num) {
                if (e) snprintf(e->msg, sizeof e->msg, "parameter '%s': '%s' is not an integer", k->key, num);
                return SPMV_ERR_ARG;
            }
            if (val < k->lo || val > k->hi || (k->kind == SPMV_PK_POW2 && val != 0 && (val & (val - 1)))) {
                if (e)
                    snprintf(e->msg, sizeof e->msg, "parameter '%s': %ld is out of range (%s%ld..%ld)", k->key, val,
                             k->kind == SPMV_PK_POW2 ? "0 or a power of two, " : "", k->lo, k->hi);
                return SPMV_ERR_ARG;
            }
        }
        {
            int iv = (int)val;
            memcpy(tmp + k->offset, &iv, sizeof iv);
        }
        s = *end ? end + 1 : end;
    }
    memcpy(params, tmp, size);
    return SPMV_OK;
}

/* "thw=8,th=4": the values of the keys (keys whose name repeats an earlier offset, i.e.
 * aliases, are left out). */
static inline void spmv_params_str(const spmv_param_key *keys, const void *params, char *buf, size_t n) {
    const spmv_param_key *k, *q;
    size_t used = 0;
    if (!n) return;
    buf[0] = 0;
    for (k = keys; k && k->key; k++) {
        int v, alias = 0, w;
        char word[32];
        for (q = keys; q != k; q++)
            if (q->offset == k->offset) alias = 1;
        if (alias) continue;
        memcpy(&v, (const unsigned char *)params + k->offset, sizeof v);
        if (k->kind == SPMV_PK_ENUM) spmv__enum_word(k->names, v, word, sizeof word);
        else snprintf(word, sizeof word, "%d", v);
        w = snprintf(buf + used, n - used, "%s%s=%s", used ? "," : "", k->key, word);
        if (w < 0 || (size_t)w >= n - used) break;
        used += (size_t)w;
    }
}

/* One line per key: "  th  1..65536  tile height (0 = from the row lengths)". */
static inline void spmv_params_describe(const spmv_param_key *keys, char *buf, size_t n) {
    const spmv_param_key *k;
    size_t used = 0;
    int w;
    if (!n) return;
    buf[0] = 0;
    w = snprintf(buf, n, "  isa=auto|generic|avx2|avx512  instruction set (auto: SPMV_ISA, else the best)\n");
    if (w < 0 || (size_t)w >= n) return;
    used = (size_t)w;
    for (k = keys; k && k->key; k++) {
        if (k->kind == SPMV_PK_ENUM) w = snprintf(buf + used, n - used, "  %s=%s  %s\n", k->key, k->names, k->help);
        else
            w = snprintf(buf + used, n - used, "  %s=%ld..%ld%s  %s\n", k->key, k->lo, k->hi,
                         k->kind == SPMV_PK_POW2 ? " (power of two)" : "", k->help);
        if (w < 0 || (size_t)w >= n - used) break;
        used += (size_t)w;
    }
}

/* ---- small helpers --------------------------------------------------------- */
/* The argument check every host _mv shares: y needed when there are rows, x when there are
 * entries, and x (ncols values) and y (nrows values) must not overlap: y would be written while
 * x is still read. 1 = refuse with SPMV_ERR_ARG. */
static inline int spmv__mv_args_bad(int64_t nrows, int64_t ncols, int64_t nnz, const void *x, const void *y,
                                    size_t tsize) {
    if ((nrows > 0 && !y) || (nnz > 0 && !x)) return 1;
    return x && y && nrows > 0 && ncols > 0 && (uintptr_t)x < (uintptr_t)y + (uintptr_t)nrows * tsize &&
           (uintptr_t)y < (uintptr_t)x + (uintptr_t)ncols * tsize;
}
static inline double spmv_wtime(void) {
#ifdef _OPENMP
    return omp_get_wtime();
#else
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}
/* The median of v[0..n) (sorted in place; n >= 1; the mean of the middle two for even n). */
static inline double spmv__median(double *v, int n) {
    int s, q;
    for (s = 1; s < n; s++) /* insertion sort: n is a few dozen at most */
        for (q = s; q > 0 && v[q] < v[q - 1]; q--) {
            const double tmp = v[q];
            v[q] = v[q - 1];
            v[q - 1] = tmp;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
/* Seconds per call of run(ctx), as the tuners measure it: one warm-up call, one timed call,
 * then 5 samples of enough calls (1..1000) to last about sample_s each; the median. */
static inline double spmv__median_seconds(void (*run)(void *), void *ctx, double sample_s) {
    double samp[5], t0, t1;
    long reps, r;
    int s;
    run(ctx);
    t0 = spmv_wtime();
    run(ctx);
    t1 = spmv_wtime() - t0;
    reps = t1 > 0 ? (long)(sample_s / t1) + 1 : 1000;
    if (reps > 1000) reps = 1000;
    for (s = 0; s < 5; s++) {
        t0 = spmv_wtime();
        for (r = 0; r < reps; r++) run(ctx);
        samp[s] = (spmv_wtime() - t0) / (double)reps;
    }
    return spmv__median(samp, 5);
}

/* Physical memory in bytes (UINT64_MAX when unknown): the size caps refuse layouts above
 * half of it before allocating (formats/ell.h, formats/dia.h). */
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
static inline uint64_t spmv__phys_bytes(void) {
    long n = sysconf(_SC_PHYS_PAGES), s = sysconf(_SC_PAGESIZE);
    return n > 0 && s > 0 ? (uint64_t)n * (uint64_t)s : UINT64_MAX;
}
#else
static inline uint64_t spmv__phys_bytes(void) { return UINT64_MAX; }
#endif

/* The tuners' search over ncand candidates: build(ctx, c) converts candidate c into the
 * tuner's object (SPMV_ERR_LIMIT: c does not fit and is skipped, except c = 0 when
 * first_limit_fails), run(ctx) is one product of it, timed by spmv__median_seconds; keep(ctx)
 * records it as the best when it is the first or 5% faster than the best so far (the first
 * candidate, the default, keeps its place otherwise); drop(ctx) frees it. Stops at the first
 * other error and returns it. */
static inline spmv_status spmv__tune_search(int ncand, int first_limit_fails, spmv_status (*build)(void *, int),
                                            void (*run)(void *), void (*keep)(void *), void (*drop)(void *),
                                            void *ctx) {
    double best_t = -1;
    int c;
    for (c = 0; c < ncand; c++) {
        double med;
        spmv_status st = build(ctx, c);
        if (st == SPMV_ERR_LIMIT && (c > 0 || !first_limit_fails)) continue;
        if (st != SPMV_OK) return st;
        med = spmv__median_seconds(run, ctx, 2e-4);
        if (best_t < 0 || med < 0.95 * best_t) {
            best_t = med;
            keep(ctx);
        }
        drop(ctx);
    }
    return SPMV_OK;
}

#endif /* SPMV_CORE_H */
