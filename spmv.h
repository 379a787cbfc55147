/* spmv.h — sparse matrix-vector products, y = alpha*A*x + beta*y, header-only.
 *
 * Usage
 *   #include "spmv.h"            // float/int32 (tag s) and double/int32 (tag d)
 *   spmv_triplets t;  spmv_error e;
 *   spmv_mm_read("A.mtx.gz", &t, &e);               // or spmv_gen("stencil3d:n=50", &t, &e)
 *   spmv_d_csr A;
 *   spmv_d_csr_from_triplets(&A, &t, NULL, NULL);          // NULL: default parameters
 *   spmv_d_csr_mv(&A, 1.0, x, 0.0, y);              // y = 1*A*x + 0*y
 *   spmv_d_csr_free(&A); spmv_triplets_free(&t);
 * Any format, chosen at run time (one options struct for every builder, host and device):
 *   spmv_opts o = spmv_opts_default();              // csr, ISA auto, its default parameters
 *   spmv_format_parse("sell", &o.format);            // or o.format = SPMV_FMT_SELL
 *   o.params = "c=8";                                // optional, the keys of `spmv formats`
 *   spmv_d_any M;  spmv_d_any_from_csr(&M, &A, &o, &e);  // or spmv_d_auto_from_csr: it chooses
 * Every function that can fail returns spmv_status; spmv_status_str() explains it, and the
 * builders also fill an optional spmv_error with the reason.
 *
 * Other type pairs, in one step (STC style: parameters, then the header again):
 *   #define SPMV_TAG dl
 *   #define SPMV_VAL double
 *   #define SPMV_IDX int64_t
 *   #include "spmv.h"                                // spmv_dl_csr, spmv_dl_csr_mv, ...
 * A float matrix with double vectors and sums (every host format): SPMV_VEC double beside
 * SPMV_VAL float, or SPMV_ENABLE_DS before the first include for tag ds (spmv_ds_csr_mv); 16-bit
 * values with float vectors and sums: SPMV_ENABLE_H (binary16, spmv_half: tag h), SPMV_ENABLE_B
 * (bfloat16, spmv_bfloat16: tag b); complex values and vectors: SPMV_ENABLE_Z (double
 * complex, spmv_cdouble), SPMV_ENABLE_C (float complex, spmv_cfloat), the portable kernels;
 * SPMV_ENABLE_ALL_TYPES for all of these.
 *
 * Build: gcc -std=c11 -O3 -fopenmp [-DSPMV_HAVE_ZLIB ... -lz] file.c -lm ; OpenMP optional.
 *
 * Build modes (define before the first include, the same in every unit of a program):
 *   (default)               everything in one include: the functions are static inline, each
 *                           unit compiles what it calls (a unit calling the automatic selection
 *                           compiles every format: seconds to tens of seconds at -O3)
 *   SPMV_DECLARATIONS_ONLY  types, constants and prototypes only (and one-line inline helpers:
 *                           parameter defaults and parsers, format names and flags): the unit
 *                           compiles in about a second and links the bodies from
 *   SPMV_IMPLEMENTATION     exactly one unit of the program: the bodies, with external linkage,
 *                           for s, d and every tag that unit instantiates (SPMV_TAG below); or
 *                           link libspmv.a (`ninja install`: s and d, libspmv_types.a the others; pkg-config spmv-compiled,
 *                           CMake spmv::compiled) instead of writing that unit.
 *   SPMV_IMPLEMENTATION_EXTRA  the same for the tags beyond s and d only (the functions every
 *                           tag shares weak): a unit of your own tags linked beside libspmv.a
 *   C++ units (g++, nvcc) see the external functions with C linkage. The Matrix Market reader,
 *   the generators and the small core helpers stay inline in every mode. spmv_cuda.cuh's device
 *   code is compiled in its nvcc unit in either mode. Both modes must see the same options
 *   below (SPMV_FORMATS_ONLY, SPMV_NO_SIMD, ...): they decide the layouts and the bodies.
 * Options (define before the first include):
 *   SPMV_ALIGNED_ALLOC(align, size) / SPMV_FREE(p)  custom allocator
 *   SPMV_NO_HUGEPAGES     no MADV_HUGEPAGE advice on arrays of 64 MiB and more (Linux, default
 *                         allocator; SPMV_HUGE_MIN sets the size in bytes)
 *   SPMV_NO_SIMD          portable kernels only
 *   SPMV_EMULATE_AVX512   AVX-512 backend on SIMDe (tests on CPUs without AVX-512)
 *   SPMV_HAVE_ZLIB        read .mtx.gz (link -lz)
 *   SPMV_FORMATS_ONLY     only the families with SPMV_WITH_<family> defined to 1 (coo and csr
 *                         always): a smaller header-only unit, without the selection's range
 *                         (the build modes above keep every format and compile in a second)
 * Run time: SPMV_ISA=generic|avx2|avx512 overrides the detected instruction set (another
 *   value makes the builders return SPMV_ERR_ARG).
 * CUDA: also include spmv_cuda.cuh in a .cu file (see that header).
 * docs/DESIGN.md explains the architecture. */
/* C11 (or gnu11) or C++: aligned_alloc, timespec_get/TIME_UTC and anonymous unions are C11;
 * an older C gets this one message and nothing else */
#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L)
#error "spmv.h needs C11: compile with -std=c11 or -std=gnu11 (or newer)"
#else
#ifndef SPMV_H_INCLUDED
#define SPMV_H_INCLUDED
#include "formats/core/core.h"
#include "formats/simd/simd.h"
#include "formats/io/mm.h"
#include "formats/io/gen.h"

#if defined(SPMV_VEC) && !defined(SPMV_TAG)
#error "spmv.h: SPMV_VEC needs SPMV_TAG, SPMV_VAL and SPMV_IDX beside it"
#endif
#ifdef SPMV_TAG /* the user's own parameters: keep them for after the defaults */
#pragma push_macro("SPMV_TAG")
#pragma push_macro("SPMV_VAL")
#pragma push_macro("SPMV_IDX")
#pragma push_macro("SPMV_VEC")
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_IDX
#undef SPMV_VEC
#define SPMV__USER_PARAMS 1
#endif

#ifdef SPMV_IMPLEMENTATION_EXTRA /* s and d declared only: their bodies are libspmv.a's */
#undef SPMV__BODIES
#define SPMV__BODIES 0
#endif
#define SPMV_TAG s
#define SPMV_VAL float
#define SPMV_IDX int32_t
#include "formats/instance.h"

#define SPMV_TAG d
#define SPMV_VAL double
#define SPMV_IDX int32_t
#include "formats/instance.h"
#ifdef SPMV_IMPLEMENTATION_EXTRA
#undef SPMV__BODIES
#define SPMV__BODIES 1
#endif

#ifdef SPMV_ENABLE_ALL_TYPES /* every optional tag below */
#ifndef SPMV_ENABLE_DS
#define SPMV_ENABLE_DS
#endif
#ifndef SPMV_ENABLE_H
#define SPMV_ENABLE_H
#endif
#ifndef SPMV_ENABLE_B
#define SPMV_ENABLE_B
#endif
#if !defined(SPMV_ENABLE_Z)
#define SPMV_ENABLE_Z
#endif
#if !defined(SPMV_ENABLE_C)
#define SPMV_ENABLE_C
#endif
#endif
#ifdef SPMV_ENABLE_DS /* a float matrix with double vectors (docs/USAGE.md, "Precision") */
#define SPMV_TAG ds
#define SPMV_VAL float
#define SPMV_VEC double
#define SPMV_IDX int32_t
#include "formats/instance.h"
#endif

#ifdef SPMV_ENABLE_H /* binary16 values, float vectors and sums */
#define SPMV_TAG h
#define SPMV_VAL spmv_half
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/instance.h"
#endif
#ifdef SPMV_ENABLE_B /* bfloat16 values, float vectors and sums */
#define SPMV_TAG b
#define SPMV_VAL spmv_bfloat16
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/instance.h"
#endif

#ifdef SPMV_ENABLE_Z /* double complex values and vectors (C; C++: GNU C++'s _Complex) */
#define SPMV_TAG z
#define SPMV_VAL spmv_cdouble
#define SPMV_IDX int32_t
#include "formats/instance.h"
#endif
#ifdef SPMV_ENABLE_C /* float complex values and vectors */
#define SPMV_TAG c
#define SPMV_VAL spmv_cfloat
#define SPMV_IDX int32_t
#include "formats/instance.h"
#endif

#ifdef SPMV__USER_PARAMS
#undef SPMV__USER_PARAMS
#pragma pop_macro("SPMV_TAG")
#pragma pop_macro("SPMV_VAL")
#pragma pop_macro("SPMV_IDX")
#pragma pop_macro("SPMV_VEC")
#endif
#endif /* SPMV_H_INCLUDED */

#ifdef SPMV_TAG
#include "formats/instance.h"
#endif
#endif /* C11 */
