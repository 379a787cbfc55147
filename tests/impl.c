/* A test flavour's implementation unit (build.ninja: one per flavour, compiled with that
 * flavour's flags): the bodies of s, d and the tests' user tag dl (double, int64_t indices),
 * allocating through the counting allocator that the flavour's programs share (TH_LINKED). */
#define TH_ALLOC_IMPL
#include "harness.h" /* phase 1: the allocator, and the flags every test build shares */
#define SPMV_IMPLEMENTATION
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#ifdef TH_WITH_SL /* the CUDA tests' second user tag: float with int64_t indices */
#define SPMV_TAG sl
#define SPMV_VAL float
#define SPMV_IDX int64_t
#include "spmv.h"
#endif
