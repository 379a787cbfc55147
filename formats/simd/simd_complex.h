/* The portable SIMD sets of complex lanes (tags z, c: formats/instance.h includes this at the
 * first complex tag, so that units without one do not parse them): 4, 8, 16 and 32 lanes of
 * double complex (spmv__g<W>z) and float complex (spmv__g<W>c), formats/simd/simd_generic.h with
 * the textbook product. */
#ifndef SPMV_SIMD_COMPLEX_H
#define SPMV_SIMD_COMPLEX_H
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GW 4
#define SPMV__GP spmv__g4z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GW 8
#define SPMV__GP spmv__g8z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GW 16
#define SPMV__GP spmv__g16z
#include "simd_generic.h"
#define SPMV__GT spmv_cdouble
#define SPMV__GCX 1
#define SPMV__GW 32
#define SPMV__GP spmv__g32z
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GW 4
#define SPMV__GP spmv__g4c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GW 8
#define SPMV__GP spmv__g8c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GW 16
#define SPMV__GP spmv__g16c
#include "simd_generic.h"
#define SPMV__GT spmv_cfloat
#define SPMV__GCX 1
#define SPMV__GW 32
#define SPMV__GP spmv__g32c
#include "simd_generic.h"
#endif /* SPMV_SIMD_COMPLEX_H */
