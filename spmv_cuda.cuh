/* spmv_cuda.cuh — the CUDA side of spmv: device copies of the formats and kernels for
 * y = alpha*A*x + beta*y on the GPU. Header-only building blocks in the style of CUB:
 * compiled by nvcc in your own translation unit (a .cu file, C++17).
 *
 * Usage (any format through one handle; the format is built on the host, then copied)
 *   #include "spmv_cuda.cuh"          // includes spmv.h; tags s (float/int32), d (double/int32)
 *   spmv_d_csr A;      ... build on the host as with spmv.h (or spmv_d_csr_wrap your arrays) ...
 *   if (spmv_cuda_device_count() == 0) ...                  // no GPU: stay on the host
 *   spmv_d_any_dev D;
 *   spmv_opts o = spmv_opts_default();                       // csr; o.format, o.params, ...
 *   spmv_d_any_dev_from_csr(&D, &A, &o, &err, stream);       // A may be freed after
 *   spmv_d_any_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, stream);  // device pointers, asynchronous
 *   spmv_d_any_dev_free(&D);
 * Formats: the rows of formats/registry.h with cuda = 1 (one enum spmv_format for host and
 * device): csr (the kernel chosen at upload from the row lengths), csr_scalar, csr_vector,
 * csr_merge (load-balanced, for irregular rows), coo, axc, axtuh1, axtuh, axtch1, axtch, the
 * ELL and DIA families, and suraa (GPU only; its long rows by dynamic parallelism when built
 * with -rdc=true -DSPMV_SURAA_DP ... -lcudadevrt, else by a grid-wide kernel: the compile
 * lines are in formats/cuda/suraa.cuh and docs/DESIGN.md). The
 * embeds-x ones (spmv_format_flags(f) & SPMV_FF_EMBEDS_X) hold x inside the matrix:
 * _any_dev_mv scatters x first (what a solver pays); to scatter once and multiply many times,
 * _any_dev_update_x(&D, x, s) then _any_dev_mv_kernel(&D, alpha, NULL, beta, y, s).
 * Options: the spmv_opts of the host builders (o.format, o.params = "bs=256" with the keys of
 * `spmv formats`, o.tune = the format's registry search timed on the device, o.deterministic
 * refuses formats adding with atomics); err (spmv_error, may be NULL) says what failed. Per-format
 * objects are public too: spmv_d_csr_dev (_csr_dev_from_csr, _csr_dev_mv), spmv_d_coo_dev,
 * spmv_d_axt_dev; D.u.<name> inside the handle.
 * Automatic format selection (formats/cuda/auto.cuh, the device side of formats/auto.h):
 *   spmv_d_auto_dev M; spmv_d_auto_dev_from_csr(&M, &A, NULL, &err, stream);  // inspect, time, keep the best
 *   spmv_d_auto_dev_mv(&M, 1.0, x_dev, 0.0, y_dev, stream); ... spmv_d_auto_dev_free(&M);
 *   (spmv_d_auto_dev_format(&M) and M.rep: the choice and why)
 * Every call returns spmv_status: SPMV_ERR_NODEVICE without a device or driver,
 * SPMV_ERR_CUDA when a CUDA call fails (spmv_cuda_last_error() gives the cudaError_t),
 * SPMV_ERR_ARG / SPMV_ERR_OVERFLOW for bad arguments, parameters or a malformed CSR (the
 * shared validator spmv_<tag>_csr_check, before any CUDA call). Nothing prints, nothing
 * exits, no managed memory. The stream argument is optional (0 = default).
 * One object must not run two products at once (the merge kernel's carries and the AXT
 * x slots live in the object).
 *
 * Other type pairs, in one step, as with spmv.h (host and device sides together):
 *   #define SPMV_TAG dl
 *   #define SPMV_VAL double
 *   #define SPMV_IDX int64_t
 *   #include "spmv_cuda.cuh"          // spmv_dl_csr ... and spmv_dl_csr_dev ...
 * (If you already instantiated the host side of that pair with spmv.h, define the three
 * macros again and include "formats/cuda/instance.cuh" instead.)
 * Other precisions (docs/USAGE.md, "Precision"): define SPMV_ENABLE_DS (a float matrix with
 * double vectors and sums: spmv_ds_any_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, s) with double x and
 * y), SPMV_ENABLE_H / SPMV_ENABLE_B (binary16 / bfloat16 values, float vectors and sums) or
 * SPMV_ENABLE_ALL_TYPES before the first include: spmv.h's host side and the device side of
 * the families that tag has (coo, csr, csr5, csrdu, the ELL and DIA families, bcsr, sss, the
 * AXT family with its values in the vectors' type, suraa). SPMV_ENABLE_Z / SPMV_ENABLE_C
 * (complex): the same families; the device functions take spmv_cuda_z / spmv_cuda_c
 * (formats/cuda/core.cuh: {re, im}, the layout of spmv_cdouble, cuDoubleComplex and
 * std::complex<double>) for the vectors and scalars, so a device array of the host's type is
 * passed by a cast: spmv_z_any_dev_mv(&D, alpha, (spmv_cuda_z *)x_dev, beta, (spmv_cuda_z *)y_dev, s)
 * (alpha, beta: spmv_cdouble or spmv_cuda_z).
 *
 * Build: nvcc -O3 -std=c++17 -Xcompiler -fopenmp -gencode arch=compute_90,code=sm_90 ...
 *        file.cu  [-DSPMV_HAVE_ZLIB ... -lz]
 * Options (define before the first include): SPMV_CUDA_BLOCK (threads per block, 256),
 * SPMV_CUDA_MAX_GRID (block cap, 65535; kernels grid-stride past it), plus spmv.h's.
 * Files: formats/cuda/core.cuh (status, warp reduce-by-key, y scaling, uploads), one
 * template header per format family (csr.cuh, coo.cuh, axt.cuh), included through
 * formats/registry.h, and any.cuh (generated from the registry); docs/DESIGN.md has the
 * kernel table and the device contract. */
#ifndef SPMV_CUDA_CUH_INCLUDED
#define SPMV_CUDA_CUH_INCLUDED

#ifdef SPMV_TAG /* the user's own parameters: keep them for after the defaults */
#pragma push_macro("SPMV_TAG")
#pragma push_macro("SPMV_VAL")
#pragma push_macro("SPMV_IDX")
#pragma push_macro("SPMV_VEC")
#undef SPMV_TAG
#undef SPMV_VAL
#undef SPMV_IDX
#undef SPMV_VEC
#define SPMV_CUDA__USER_PARAMS 1
#endif

#include "spmv.h" /* host side, default tags s and d */
#include "formats/cuda/core.cuh"

#define SPMV_TAG s
#define SPMV_VAL float
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"

#define SPMV_TAG d
#define SPMV_VAL double
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"

/* the optional tags spmv.h instantiated (SPMV_ENABLE_DS, _H, _B or SPMV_ENABLE_ALL_TYPES),
 * their device side too */
#ifdef SPMV_ENABLE_DS
#define SPMV_TAG ds
#define SPMV_VAL float
#define SPMV_VEC double
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"
#endif
#ifdef SPMV_ENABLE_H
#define SPMV_TAG h
#define SPMV_VAL spmv_half
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"
#endif
#ifdef SPMV_ENABLE_B
#define SPMV_TAG b
#define SPMV_VAL spmv_bfloat16
#define SPMV_VEC float
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"
#endif
#ifdef SPMV_ENABLE_Z /* device values and vectors: spmv_cuda_z */
#define SPMV_TAG z
#define SPMV_VAL spmv_cdouble
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"
#endif
#ifdef SPMV_ENABLE_C /* spmv_cuda_c */
#define SPMV_TAG c
#define SPMV_VAL spmv_cfloat
#define SPMV_IDX int32_t
#include "formats/cuda/instance.cuh"
#endif

#ifdef SPMV_CUDA__USER_PARAMS
#undef SPMV_CUDA__USER_PARAMS
#pragma pop_macro("SPMV_TAG")
#pragma pop_macro("SPMV_VAL")
#pragma pop_macro("SPMV_IDX")
#pragma pop_macro("SPMV_VEC")
#endif
#endif /* SPMV_CUDA_CUH_INCLUDED */

/* The user's pair: host side (spmv.h's instantiation step, which #undefs the
 * parameters), then the device side with the same parameters (which #undefs them). */
#ifdef SPMV_TAG
#pragma push_macro("SPMV_TAG")
#pragma push_macro("SPMV_VAL")
#pragma push_macro("SPMV_IDX")
#pragma push_macro("SPMV_VEC")
#include "spmv.h"
#pragma pop_macro("SPMV_TAG")
#pragma pop_macro("SPMV_VAL")
#pragma pop_macro("SPMV_IDX")
#pragma pop_macro("SPMV_VEC")
#include "formats/cuda/instance.cuh"
#endif
