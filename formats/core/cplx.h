/* Complex value types (tags c: float complex, z: double complex; docs/USAGE.md, "Complex"): C99's
 * _Complex types, whose layout is an array of two reals (re, im), as in Fortran, BLAS, oneMKL,
 * cuSPARSE's cuComplex and C++'s std::complex. A C++ unit (g++, clang++, nvcc's host side) gets
 * them as GNU C++'s _Complex extension: a std::complex<double> array is passed by a cast of its
 * pointer (the same layout). <complex.h> is not included: its macro `I` would take a common name
 * from the user's unit. */
#ifndef SPMV_CORE_CPLX_H
#define SPMV_CORE_CPLX_H
#include <string.h>
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#define SPMV__CEXT __extension__ /* _Complex is an extension in C++: no -Wpedantic message */
#else
#define SPMV__CEXT
#endif
SPMV__CEXT typedef float _Complex spmv_cfloat;
SPMV__CEXT typedef double _Complex spmv_cdouble;
static inline spmv_cdouble spmv_cdouble_make(double re, double im) {
    spmv_cdouble z;
    const double p[2] = {re, im};
    memcpy(&z, p, sizeof z);
    return z;
}
static inline spmv_cfloat spmv_cfloat_make(float re, float im) {
    spmv_cfloat z;
    const float p[2] = {re, im};
    memcpy(&z, p, sizeof z);
    return z;
}
static inline double spmv_cdouble_re(spmv_cdouble z) { return __builtin_creal(z); }
static inline double spmv_cdouble_im(spmv_cdouble z) { return __builtin_cimag(z); }
#endif /* SPMV_CORE_CPLX_H */
