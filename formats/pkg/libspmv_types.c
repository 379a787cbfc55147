/* libspmv_types.a (linked before libspmv.a): the bodies of the optional tags with external linkage, beside
 * formats/pkg/libspmv.c's s and d (SPMV_IMPLEMENTATION_EXTRA: the functions every tag shares are
 * weak here, so the s/d object's win). Compiled twice (build.ninja), so that the two run side by
 * side: -DSPMV_PKG_MIXED ds, h, b (float, binary16, bfloat16 values with wider vectors) and
 * -DSPMV_PKG_COMPLEX z, c. A program that links libspmv.a uses them from units that include spmv.h
 * with SPMV_DECLARATIONS_ONLY and the tag's SPMV_ENABLE_<TAG> (or SPMV_ENABLE_ALL_TYPES). */
#define SPMV_IMPLEMENTATION_EXTRA
#if defined(SPMV_PKG_MIXED)
#define SPMV_ENABLE_DS
#define SPMV_ENABLE_H
#define SPMV_ENABLE_B
#elif defined(SPMV_PKG_COMPLEX)
#define SPMV_ENABLE_Z
#define SPMV_ENABLE_C
#else
#error "formats/pkg/libspmv_types.c: -DSPMV_PKG_MIXED or -DSPMV_PKG_COMPLEX"
#endif
#include "../../spmv.h"
