/* spmv version (semantic versioning: the API may still change while MAJOR is 0). The CMake
 * package (formats/pkg) reads these three lines. */
#ifndef SPMV_VERSION_H
#define SPMV_VERSION_H
#define SPMV_VERSION_MAJOR 0
#define SPMV_VERSION_MINOR 1
#define SPMV_VERSION_PATCH 0
/* one comparable number: MAJOR * 10000 + MINOR * 100 + PATCH */
#define SPMV_VERSION (SPMV_VERSION_MAJOR * 10000 + SPMV_VERSION_MINOR * 100 + SPMV_VERSION_PATCH)
#define SPMV__STR2(x) #x
#define SPMV__STR(x) SPMV__STR2(x)
#define SPMV_VERSION_STRING                                                                            \
    SPMV__STR(SPMV_VERSION_MAJOR) "." SPMV__STR(SPMV_VERSION_MINOR) "." SPMV__STR(SPMV_VERSION_PATCH)
#endif
