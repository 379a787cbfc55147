/* The helpers of the side-by-side precision benches (bench/mixed.c, bench/half.c, bench/complex.c):
 * the median of a sample and a matrix from a file or a generator. Include after spmv.h. */
#ifndef SPMV_BENCH_SIDE_BY_SIDE_H
#define SPMV_BENCH_SIDE_BY_SIDE_H
#include <stdlib.h>
#include <string.h>

static int sbs_cmpd(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
/* the median of v[0..n) (sorts v) */
static double sbs_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, sbs_cmpd);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
/* spec: gen:SPEC (formats/io/gen.h) or a Matrix Market file read with spmv_mm_read_opts' flags;
 * 1 on success */
static int sbs_load(const char *spec, spmv_triplets *t, int flags, spmv_error *e) {
    if (!strncmp(spec, "gen:", 4)) return spmv_gen(spec + 4, t, e) == SPMV_OK;
    return spmv_mm_read_opts(spec, t, flags, NULL, e) == SPMV_OK;
}
#endif
