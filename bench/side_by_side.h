/* The helpers of the side-by-side precision benches (bench/mixed.c, bench/half.c, bench/complex.c):
 * the median of a sample, a matrix from a file or a generator, the common options. Include after spmv.h. */
#ifndef SPMV_BENCH_SIDE_BY_SIDE_H
#define SPMV_BENCH_SIDE_BY_SIDE_H
#include <stdio.h>
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
/* the options every side-by-side bench takes: --reps N (at least 1) and --csv FILE (opened, the
 * header written); 1 when argv[*i] was one (*i moved past its value), 0 when not, -1 when FILE
 * cannot be written (said on stderr under the program's name) */
static int sbs_common_arg(int argc, char **argv, int *i, int *reps, FILE **csv, const char *name, const char *header) {
    if (!strcmp(argv[*i], "--reps") && *i + 1 < argc) {
        *reps = atoi(argv[++*i]);
        if (*reps < 1) *reps = 1;
        return 1;
    }
    if (!strcmp(argv[*i], "--csv") && *i + 1 < argc) {
        if (!(*csv = fopen(argv[++*i], "w"))) {
            fprintf(stderr, "%s: cannot write %s\n", name, argv[*i]);
            return -1;
        }
        fprintf(*csv, "%s\n", header);
        return 1;
    }
    return 0;
}
#endif
