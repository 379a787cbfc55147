/* A unit of a two-unit program (tests/build_modes.sh): spmv.h in declarations-only mode (unless
 * TM_ALL_IN_ONE), with a user tag dl (double, int64_t indices) beside s and d. It builds a few
 * formats and the deterministic automatic choice, and prints every product's bits (%a), so that
 * the script can compare the header-only build, this unit linked against tests/modes/impl.c
 * (compiled by gcc, g++, clang or nvcc) and against libspmv.a. */
#ifndef TM_ALL_IN_ONE
#define SPMV_DECLARATIONS_ONLY
#endif
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include <stdio.h>
#include <stdlib.h>

#define TM_PRODUCTS(tag, T)                                                                              \
    static int tm_##tag(const spmv_triplets *t) {                                                        \
        static const char *fmts[] = {"csr", "coo", "ell", "sell", "dia", "bcsr", "csr5", "axc"};         \
        spmv_##tag##_csr A;                                                                              \
        spmv_error e;                                                                                    \
        T *x, *y;                                                                                        \
        size_t f;                                                                                        \
        int64_t i;                                                                                       \
        if (spmv_##tag##_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) return 1;                           \
        x = (T *)malloc(sizeof(T) * (size_t)A.ncols);                                                    \
        y = (T *)malloc(sizeof(T) * (size_t)A.nrows);                                                    \
        if (!x || !y) return 1;                                                                          \
        for (i = 0; i < A.ncols; i++) x[i] = (T)1 / (T)(i % 7 + 1);                                      \
        for (f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {                                             \
            spmv_##tag##_any M;                                                                          \
            spmv_opts o = spmv_opts_default();                                                           \
            o.threads = 1;                                                                               \
            if (spmv_format_parse(fmts[f], &o.format) != SPMV_OK) return 1;                              \
            if (spmv_##tag##_any_from_csr(&M, &A, &o, &e) != SPMV_OK) {                                  \
                printf("%s %s: %s\n", #tag, fmts[f], e.msg);                                             \
                continue;                                                                                \
            }                                                                                            \
            spmv_##tag##_any_mv(&M, (T)1.5, x, (T)0, y);                                                 \
            printf("%s %s %a %a\n", #tag, fmts[f], (double)y[0], (double)y[A.nrows / 2]);               \
            spmv_##tag##_any_free(&M);                                                                   \
        }                                                                                                \
        {                                                                                                \
            spmv_##tag##_auto M;                                                                         \
            spmv_opts o = spmv_opts_default();                                                           \
            o.deterministic = 1;                                                                         \
            o.calibration = 1;                                                                           \
            if (spmv_##tag##_auto_from_csr(&M, &A, &o, &e) != SPMV_OK) return 1;                        \
            spmv_##tag##_auto_mv(&M, (T)1, x, (T)0, y);                                                  \
            printf("%s auto %s %a\n", #tag, spmv_format_name(spmv_##tag##_auto_format(&M)),              \
                   (double)y[A.nrows - 1]);                                                              \
            spmv_##tag##_auto_free(&M);                                                                  \
        }                                                                                                \
        spmv_##tag##_csr_free(&A);                                                                       \
        free(x);                                                                                         \
        free(y);                                                                                         \
        return 0;                                                                                        \
    }
TM_PRODUCTS(s, float)
TM_PRODUCTS(d, double)
#ifndef TM_NO_DL
TM_PRODUCTS(dl, double)
#endif

int main(int argc, char **argv) {
    spmv_triplets t;
    spmv_error e;
    int bad;
    if (spmv_gen(argc > 1 ? argv[1] : "stencil2d:n=60", &t, &e) != SPMV_OK) {
        printf("generator: %s\n", e.msg);
        return 1;
    }
    bad = tm_s(&t) | tm_d(&t);
#ifndef TM_NO_DL
    if (argc < 3) bad |= tm_dl(&t);
#endif
    spmv_triplets_free(&t);
    printf("%s\n", bad ? "FAIL" : "done");
    return bad;
}
