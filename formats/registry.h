/* formats/registry.h — THE list of formats. Everything that iterates over formats (the
 * run-time handles spmv_<tag>_any and spmv_<tag>_any_dev, format names and flags, the
 * tools' --formats, the bench, the tuner, the tests and the build lines of the tests) is
 * generated from the rows below. No include guard: included once per use, with
 *   SPMV_FORMAT(name, ID, family, host, cuda, embeds_x, tunable, width, atomics, sym, mm, dmm, mvt, csr)
 *                                                                  a row
 *   SPMV__HEADER(family)                                           the header to include
 * defined by the includer (formats/instance.h, formats/any.h, formats/cuda/...).
 *
 * A row:
 *   name      command-line name and verb prefix: spmv_<tag>_<name>_from_csr, ...
 *   ID        enum constant SPMV_FMT_<ID> (one enum for host and device)
 *   family    the block's header; the object type spmv_<tag>_<family> and the verbs that do
 *             not depend on the variant (_mv, _free, _bytes, _to_csr, ...) are the family's;
 *             _from_csr, _tune and the params (spmv_<name>_params, _default, keys) are the row's
 *   host      1: CPU kernels (spmv.h); 0: device only
 *   cuda      1: device kernels (spmv_cuda.cuh)
 *   embeds_x  1: the layout holds a copy of x (_update_x, _mv_kernel, _kernel_bytes)
 *   tunable   1: _tune searches a parameter; 0: the generated _tune returns the defaults
 *   width     1: the layout depends on the vector width (the "w" parameter key)
 *   atomics   1: a device kernel adds into y with atomics, so its summation order (and the
 *             last bits of y) can vary from run to run; the CPU kernels of every row sum in a
 *             fixed order for a given thread count. The automatic selection's deterministic
 *             mode leaves these out on the device (formats/auto.h)
 *   sym       1: the layout stores one triangle of a symmetric matrix; its converter refuses
 *             any other matrix (SPMV_ERR_ARG), and everything iterating over the registry
 *             gives it symmetric matrices only (SPMV_FF_SYMMETRIC); its family has
 *             _from_triangle (any_from_triangle) and __vmap (the map of any_update_values)
 *   mm        1: native SpMM on the CPU, the matrix read once per block of vectors: the
 *             family's _mm (any_mm; 0: one product per vector) (SPMV_FF_MM)
 *   dmm       1: the same on the device (any_dev_mm) (SPMV_FF_DEV_MM)
 *   mvt       1: a native transpose product, the family's _mvt (any_mvt; 0: build with
 *             opts.transpose instead) (SPMV_FF_MVT)
 *   csr       1: the layout is A's CSR itself (values in A's order: an update copies them;
 *             built from A^T it takes A^T's arrays) (SPMV_FF_CSR)
 * A block per family: the family's host header formats/<family>.h and device header
 * formats/cuda/<family>.cuh hold the rows' code (docs/DESIGN.md, "Adding a format", lists
 * the verbs). SPMV_FORMATS_ONLY + SPMV_WITH_<family> 1 instantiates a subset (coo and csr
 * are always there: every converter starts from CSR). Order = enum order: append. */

/*          name        ID          fam   ho cu ex tu wi at sy mm dm mt cs
 *          ho host, cu cuda, ex embeds_x, tu tunable, wi width, at atomics, sy sym, mm, dm dmm, mt mvt,
 *          cs csr: the columns above */
#if SPMV__USE(coo)
#include SPMV__HEADER(coo)
SPMV_FORMAT(coo,        COO,        coo,  1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(csr)
#include SPMV__HEADER(csr)
SPMV_FORMAT(csr,        CSR,        csr,  1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1)
SPMV_FORMAT(csr_merge,  CSR_MERGE,  csr,  1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1)
SPMV_FORMAT(csr_scalar, CSR_SCALAR, csr,  0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0)
SPMV_FORMAT(csr_vector, CSR_VECTOR, csr,  0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0)
#endif

#if SPMV__USE(axt)
#include SPMV__HEADER(axt)
SPMV_FORMAT(axc,        AXC,        axt,  1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
SPMV_FORMAT(axtuh1,     AXTUH1,     axt,  1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
SPMV_FORMAT(axtuh,      AXTUH,      axt,  1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
SPMV_FORMAT(axtch1,     AXTCH1,     axt,  1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
SPMV_FORMAT(axtch,      AXTCH,      axt,  1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(csr5)
#include SPMV__HEADER(csr5)
SPMV_FORMAT(csr5,       CSR5,       csr5, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(ell)
#include SPMV__HEADER(ell)
SPMV_FORMAT(ell,        ELL,        ell,  1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0)
SPMV_FORMAT(ellr,       ELLR,       ell,  1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0)
SPMV_FORMAT(hll,        HLL,        ell,  1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0)
SPMV_FORMAT(sell,       SELL,       ell,  1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0)
SPMV_FORMAT(jad,        JAD,        ell,  1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0)
SPMV_FORMAT(hyb,        HYB,        ell,  1, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(dia)
#include SPMV__HEADER(dia)
SPMV_FORMAT(dia,        DIA,        dia,  1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
SPMV_FORMAT(hdia,       HDIA,       dia,  1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(bcsr)
#include SPMV__HEADER(bcsr)
SPMV_FORMAT(bcsr,       BCSR,       bcsr, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0)
#endif

#if SPMV__USE(suraa)
#include SPMV__HEADER(suraa)
SPMV_FORMAT(suraa,      SURAA,      suraa, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0)
#endif

#if SPMV__USE(sss)
#include SPMV__HEADER(sss)
SPMV_FORMAT(sss,        SSS,        sss,  1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0)
#endif

#if SPMV__USE(csrdu)
#include SPMV__HEADER(csrdu)
SPMV_FORMAT(csrdu,      CSRDU,      csrdu, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0)
#endif

/* ---- TEST-ONLY ROWS below: not the product's (the scripts that read this file as text,
   tests/gen_ninja.sh, tests/readme_check.py and tests/layout_check.sh, stop here).
   toy (tests/toy/toy.h, tests/test_toy.c) shows what adding a format takes; its header is
   found through -Itests/toy */
#if defined(SPMV_TEST_TOY) && SPMV__USE(toy)
#include SPMV__HEADER(toy)
SPMV_FORMAT(toy,        TOY,        toy,  1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#endif
