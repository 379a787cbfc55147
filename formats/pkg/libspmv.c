/* The implementation unit of libspmv.a (`ninja install` builds and installs it): the bodies of
 * every public function for the standard tags s (float) and d (double), int32_t indices, with
 * external linkage. A program links it and includes spmv.h with SPMV_DECLARATIONS_ONLY in each
 * of its units (pkg-config spmv-compiled, CMake spmv::compiled). The optional tags are
 * libspmv_types.a's (formats/pkg/libspmv_types.c), linked before it. A program that instantiates its own
 * tags compiles its own implementation unit instead (this file plus its SPMV_TAG blocks), or
 * one with SPMV_IMPLEMENTATION_EXTRA linked beside libspmv.a. */
#define SPMV_IMPLEMENTATION
#include "../../spmv.h"
