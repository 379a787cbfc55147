/* x aliasing y (issue 14, defect 8): every host format's _mv (and any_mv) must refuse
 * overlapping x and y with SPMV_ERR_ARG instead of returning SPMV_OK with a wrong y, and must
 * accept x and y that merely sit next to each other in one array. Every host format, every
 * supported ISA, tags s and d. */
#include "harness.h"
#include "spmv.h"
#include "harness.h"

/* families with a documented size cap (SPMV_ERR_LIMIT); the band matrix fits them all */
static int capped(spmv_format f) {
    return !strcmp(spmv_format_family(f), "ell") || !strcmp(spmv_format_family(f), "dia");
}

#define ALIAS_CASE(TAG, T)                                                                                             \
    static void alias_##TAG(const spmv_triplets *trip, const char *mname) {                                            \
        spmv_##TAG##_csr A;                                                                                            \
        int f, isa;                                                                                                    \
        if (spmv_##TAG##_csr_from_triplets(&A, trip, NULL, NULL) != SPMV_OK) {                                               \
            CHECK(0, "%s: csr_from_triplets", mname);                                                                  \
            return;                                                                                                    \
        }                                                                                                              \
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {                                                                        \
            if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;                                         \
            for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {                                               \
                spmv_##TAG##_any M;                                                                                    \
                int64_t n = A.nrows > A.ncols ? A.nrows : A.ncols, i;                                                  \
                T *buf;                                                                                                \
                spmv_status st;                                                                                        \
                const char *fn = spmv_format_name((spmv_format)f), *in = spmv_isa_name((spmv_isa)isa);                 \
                if (!spmv_isa_supported((spmv_isa)isa)) continue;                                                      \
                const spmv_opts o = th_opts((spmv_format)f, (spmv_isa)isa, NULL);                                      \
                st = spmv_##TAG##_any_from_csr(&M, &A, &o, NULL);                                                      \
                if (st == SPMV_ERR_LIMIT && capped((spmv_format)f)) continue; /* DIA on a random matrix */             \
                if ((spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && !spmv_##TAG##_csr_is_symmetric(&A)) {  \
                    CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: not symmetric, gave %s", #TAG, mname, fn, in,             \
                          spmv_status_str(st));                                                                        \
                    if (st == SPMV_OK) spmv_##TAG##_any_free(&M);                                                      \
                    continue; /* sss: the symmetric stencil below */                                                   \
                }                                                                                                      \
                if (st != SPMV_OK) {                                                                                   \
                    CHECK(0, "%s %s %s %s: conversion: %s", #TAG, mname, fn, in, spmv_status_str(st));                 \
                    continue;                                                                                          \
                }                                                                                                      \
                buf = (T *)malloc(sizeof(T) * (size_t)(A.nrows + A.ncols + 2 * n + 8));                                \
                for (i = 0; i < A.nrows + A.ncols + 2 * n + 8; i++) buf[i] = (T)1;                                     \
                /* y == x */                                                                                           \
                st = spmv_##TAG##_any_mv(&M, 1, buf, 0, buf);                                                          \
                CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: any_mv(M, 1, v, 0, v) gave %s", #TAG, mname, fn, in,           \
                      spmv_status_str(st));                                                                            \
                /* partial overlaps, both ways */                                                                      \
                st = spmv_##TAG##_any_mv(&M, 1, buf, 0, buf + 1);                                                      \
                CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: y = x + 1 gave %s", #TAG, mname, fn, in,                       \
                      spmv_status_str(st));                                                                            \
                st = spmv_##TAG##_any_mv(&M, 1, buf + A.nrows - 1, 0.5, buf);                                          \
                CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: x = y + nrows - 1 gave %s", #TAG, mname, fn, in,               \
                      spmv_status_str(st));                                                                            \
                /* adjacent, not overlapping: fine, and right */                                                       \
                st = spmv_##TAG##_any_mv(&M, 1, buf, 0, buf + A.ncols);                                                \
                CHECK(st == SPMV_OK, "%s %s %s %s: y just after x gave %s", #TAG, mname, fn, in, spmv_status_str(st)); \
                st = spmv_##TAG##_any_mv(&M, 1, buf + A.nrows, 0, buf);                                                \
                CHECK(st == SPMV_OK, "%s %s %s %s: x just after y gave %s", #TAG, mname, fn, in, spmv_status_str(st)); \
                {                                                                                                      \
                    long double *ref = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));             \
                    long double *scale = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));           \
                    T *x = buf + A.nrows;                                                                              \
                    spmv_##TAG##_csr_mv_ref(&A, 1, x, 0, NULL, ref, scale);                                            \
                    CHECK(spmv_##TAG##_max_rel_err(A.nrows, buf, ref, scale) <= (sizeof(T) == 8 ? 1e-12 : 1e-5),       \
                          "%s %s %s %s: adjacent x, y: wrong product", #TAG, mname, fn, in);                           \
                    free(ref);                                                                                         \
                    free(scale);                                                                                       \
                }                                                                                                      \
                free(buf);                                                                                             \
                spmv_##TAG##_any_free(&M);                                                                             \
            }                                                                                                          \
        }                                                                                                              \
        spmv_##TAG##_csr_free(&A);                                                                                     \
    }
ALIAS_CASE(d, double)
ALIAS_CASE(s, float)

int main(void) {
    static const char *specs[] = {"random:rows=300,cols=300,nnzr=6,seed=7", "band:n=64,bw=2", "stencil2d:n=12",
                                  "random:rows=200,cols=90,nnzr=4,seed=2", "random:rows=90,cols=200,nnzr=4,seed=3"};
    size_t i;
    for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen(specs[i], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[i], e.msg);
            continue;
        }
        alias_d(&t, specs[i]);
        alias_s(&t, specs[i]);
        spmv_triplets_free(&t);
    }
    /* the typed _mv functions themselves (not only through any_mv) */
    {
        spmv_triplets t;
        spmv_d_csr A;
        spmv_d_coo C;
        double v[64];
        int k;
        for (k = 0; k < 64; k++) v[k] = 1;
        if (spmv_gen("band:n=16,bw=1", &t, NULL) == SPMV_OK && spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK &&
            spmv_d_coo_from_csr(&C, &A, NULL, NULL) == SPMV_OK) {
            CHECK(spmv_d_csr_mv(&A, 1, v, 0, v) == SPMV_ERR_ARG, "csr_mv(v, v)");
            {
                spmv_d_csr M;
                if (spmv_d_csr_merge_from_csr(&M, &A, NULL, NULL) == SPMV_OK) {
                    CHECK(spmv_d_csr_mv(&M, 1, v, 0, v + 8) == SPMV_ERR_ARG, "csr_mv (merge) overlapping");
                    spmv_d_csr_free(&M);
                } else {
                    CHECK(0, "csr_merge_from_csr");
                }
            }
            CHECK(spmv_d_coo_mv(&C, 1, v + 15, 0, v) == SPMV_ERR_ARG, "coo_mv overlapping by one");
            CHECK(spmv_d_coo_mv(&C, 1, v + 16, 0, v) == SPMV_OK, "coo_mv adjacent");
            spmv_d_coo_free(&C);
            spmv_d_csr_free(&A);
        } else {
            CHECK(0, "band:n=16 set-up");
        }
        spmv_triplets_free(&t);
    }
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_alias");
}
