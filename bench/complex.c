/* Complex products against oneMKL's, side by side:
 *   build/bench_complex [--reps N] [--csv FILE] [--format F] MATRIX...
 * (`ninja build/bench_complex` builds it without MKL: our rows only; with MKL, docs/PERFORMANCE.md
 * "Complex" gives the one-line build against bench/.mkl, SPMV_ANCHOR_MKL=1.)
 * MATRIX: a Matrix Market file (complex ones read with SPMV_MM_COMPLEX; a real one gets
 * imaginary parts drawn) or gen:SPEC (the same). For each, tag z (double complex) format F
 * (default csr) and tag c (float complex) csr, and MKL's mkl_sparse_z_mv and mkl_sparse_c_mv on a
 * plain handle (mkl) and after mkl_sparse_set_mv_hint + mkl_sparse_optimize (mkl_ie), the same x,
 * products alternating for N rounds (default 40) after a warm-up: the medians, GB/s of the matrix
 * and vectors, our speed over MKL's, and each result's error against z's. */
#define SPMV_ENABLE_Z
#define SPMV_ENABLE_C
#include "spmv.h"
#include "side_by_side.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <complex.h>
#ifndef SPMV_ANCHOR_MKL
#define SPMV_ANCHOR_MKL 0
#endif
#if SPMV_ANCHOR_MKL
#define MKL_Complex16 double _Complex
#define MKL_Complex8 float _Complex
#include <mkl.h>
#endif

static int load(const char *spec, spmv_triplets *t, spmv_error *e) {
    int64_t k;
    uint64_t s = 88172645463325252ull;
    if (!sbs_load(spec, t, SPMV_MM_COMPLEX, e)) return 0;
    if (!t->vim) { /* a real matrix: imaginary parts drawn in [-1, 1) */
        if (!(t->vim = SPMV_ALLOC_N(double, t->nnz > 0 ? t->nnz : 1))) return 0;
        for (k = 0; k < t->nnz; k++) s ^= s << 13, s ^= s >> 7, s ^= s << 17, t->vim[k] = (double)(s >> 11) / 4503599627370496.0 - 1;
    }
    return 1;
}
/* max over rows of |y - yz| / max |yz| */
static double err_z(int64_t n, const spmv_cdouble *yz, const spmv_cdouble *y, const spmv_cfloat *yc) {
    double w = 0, m = 0;
    int64_t r;
    for (r = 0; r < n; r++) m = fmax(m, cabs(yz[r]));
    for (r = 0; r < n; r++) w = fmax(w, cabs((y ? y[r] : (spmv_cdouble)yc[r]) - yz[r]));
    return m > 0 ? w / m : w;
}

enum { ZO, CO, ZM, ZMI, CM, CMI, NROW };
static const char *const rowname[NROW] = {"z", "c csr", "mkl_z", "mkl_ie_z", "mkl_c", "mkl_ie_c"};

static void run(const char *spec, spmv_opts o, int reps, FILE *csv) {
    spmv_triplets t;
    spmv_error e;
    spmv_z_csr Z;
    spmv_c_csr C;
    spmv_z_any HZ;
    spmv_cdouble *x, *y[NROW];
    spmv_cfloat *xc, *yc[NROW];
    double *tm[NROW], med[NROW], bytes[NROW];
    int have[NROW] = {1, 1, 0, 0, 0, 0}, i, r;
    int64_t k;
#if SPMV_ANCHOR_MKL
    sparse_matrix_t M[NROW];
    struct matrix_descr d;
    d.type = SPARSE_MATRIX_TYPE_GENERAL;
#endif
    if (!load(spec, &t, &e) || spmv_z_csr_from_triplets(&Z, &t, NULL, &e) != SPMV_OK ||
        spmv_c_csr_from_triplets(&C, &t, NULL, &e) != SPMV_OK || spmv_z_any_from_csr(&HZ, &Z, &o, &e) != SPMV_OK) {
        fprintf(stderr, "bench_complex: %s: %s\n", spec, e.msg);
        return;
    }
    spmv_triplets_free(&t);
#if SPMV_ANCHOR_MKL
    mkl_set_threading_layer(MKL_THREADING_GNU);
    mkl_set_num_threads(spmv_max_threads());
    for (i = ZM; i < NROW; i++) {
        const int zz = i == ZM || i == ZMI;
        sparse_status_t st = zz ? mkl_sparse_z_create_csr(&M[i], SPARSE_INDEX_BASE_ZERO, Z.nrows, Z.ncols, Z.row_ptr, Z.row_ptr + 1,
                                                          Z.col_idx, Z.val)
                                : mkl_sparse_c_create_csr(&M[i], SPARSE_INDEX_BASE_ZERO, C.nrows, C.ncols, C.row_ptr, C.row_ptr + 1,
                                                          C.col_idx, C.val);
        if (st == SPARSE_STATUS_SUCCESS && (i == ZMI || i == CMI)) {
            mkl_sparse_set_mv_hint(M[i], SPARSE_OPERATION_NON_TRANSPOSE, d, 1000);
            mkl_sparse_set_memory_hint(M[i], SPARSE_MEMORY_AGGRESSIVE);
            st = mkl_sparse_optimize(M[i]);
        }
        have[i] = st == SPARSE_STATUS_SUCCESS;
    }
#endif
    x = malloc(sizeof(spmv_cdouble) * (size_t)(Z.ncols + 1)), xc = malloc(sizeof(spmv_cfloat) * (size_t)(Z.ncols + 1));
    if (!x || !xc) abort();
    for (k = 0; k < Z.ncols; k++) xc[k] = spmv_cfloat_make((float)(1 + 1e-3 * (double)(k % 101)), (float)(0.5 - 1e-3 * (double)(k % 37))), x[k] = xc[k];
    for (i = 0; i < NROW; i++) {
        y[i] = malloc(sizeof(spmv_cdouble) * (size_t)(Z.nrows + 1)), yc[i] = malloc(sizeof(spmv_cfloat) * (size_t)(Z.nrows + 1));
        tm[i] = malloc(sizeof(double) * (size_t)reps);
        if (!y[i] || !yc[i] || !tm[i]) abort();
    }
    for (r = -3; r < reps; r++) /* three warm-up rounds */
        for (i = 0; i < NROW; i++) {
            double t0;
            if (!have[i]) continue;
            t0 = spmv_wtime();
            if (i == ZO) spmv_z_any_mv(&HZ, 1.0, x, 0.0, y[i]);
            else if (i == CO) spmv_c_csr_mv(&C, 1.0f, xc, 0.0f, yc[i]);
#if SPMV_ANCHOR_MKL
            else if (i == ZM || i == ZMI) mkl_sparse_z_mv(SPARSE_OPERATION_NON_TRANSPOSE, 1.0, M[i], d, x, 0.0, y[i]);
            else mkl_sparse_c_mv(SPARSE_OPERATION_NON_TRANSPOSE, 1.0f, M[i], d, xc, 0.0f, yc[i]);
#endif
            if (r >= 0) tm[i][r] = spmv_wtime() - t0;
        }
    for (i = 0; i < NROW; i++) {
        const int zz = i == ZO || i == ZM || i == ZMI;
        med[i] = have[i] ? sbs_median(tm[i], reps) : 0;
        bytes[i] = (double)(i == ZO ? spmv_z_any_bytes(&HZ) : zz ? spmv_z_csr_bytes(&Z) : spmv_c_csr_bytes(&C)) +
                   (zz ? 16.0 : 8.0) * (Z.nrows + Z.ncols);
    }
    printf("%-36s %-5s %9lld", spec, spmv_format_name(o.format), (long long)Z.nnz);
    for (i = 0; i < NROW; i++)
        if (have[i])
            printf(" | %s %.3f ms %.1f GB/s err %.0e", rowname[i], med[i] * 1e3, bytes[i] / med[i] * 1e-9,
                   i == ZO ? 0.0 : err_z(Z.nrows, y[ZO], (i == ZM || i == ZMI) ? y[i] : NULL, yc[i]));
    if (have[ZM]) printf(" | z/mkl %.2fx z/mkl_ie %.2fx c/mkl_c %.2fx c/mkl_ie_c %.2fx", med[ZM] / med[ZO], med[ZMI] / med[ZO],
                         med[CM] / med[CO], med[CMI] / med[CO]);
    printf("\n");
    if (csv)
        for (i = 0; i < NROW; i++)
            if (have[i])
                fprintf(csv, "\"%s\",%s,%lld,%d,%s,%.6g,%.6g\n", spec, spmv_format_name(o.format), (long long)Z.nnz, spmv_max_threads(),
                        rowname[i], med[i], bytes[i]);
#if SPMV_ANCHOR_MKL
    for (i = ZM; i < NROW; i++)
        if (have[i]) mkl_sparse_destroy(M[i]);
#endif
    for (i = 0; i < NROW; i++) free(y[i]), free(yc[i]), free(tm[i]);
    spmv_z_any_free(&HZ), spmv_z_csr_free(&Z), spmv_c_csr_free(&C);
    free(x), free(xc);
}

int main(int argc, char **argv) {
    int i, reps = 40;
    spmv_opts o = spmv_opts_default();
    FILE *csv = NULL;
    for (i = 1; i < argc; i++) {
        const int c = sbs_common_arg(argc, argv, &i, &reps, &csv, "bench_complex", "matrix,format,nnz,threads,row,median_s,bytes");
        if (c < 0) return 1;
        if (c > 0) continue;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &o.format) != SPMV_OK || !spmv_z_any_has(o.format)) {
                fprintf(stderr, "bench_complex: format %s: not one that tag z instantiates\n", argv[i]);
                return 1;
            }
        } else {
            run(argv[i], o, reps, csv);
        }
    }
    if (csv) fclose(csv);
    return 0;
}
