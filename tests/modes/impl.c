/* The implementation unit of tests/build_modes.sh's two-unit program: the bodies of s, d and
 * the user tag dl, with external linkage (SPMV_IMPLEMENTATION). */
#define SPMV_IMPLEMENTATION
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
