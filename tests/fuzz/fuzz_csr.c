/* libFuzzer target for the CSR wrap, every host converter and the parameter strings: the
 * bytes become a CSR matrix (sizes, row_ptr, col_idx, values), a format, an ISA, a type and a
 * "key=value,..." parameter string.
 *   byte 0, 1: rows and columns (0..63); byte 2: the host format; byte 3: bit 0-1 the ISA
 *   (generic, avx2, avx512 where the CPU has it, else generic), bit 6: arrays as given or
 *   repaired into a valid CSR (half the inputs: to reach the converters), bit 7: float;
 *   bytes 4-5: nnz (0..1023); then row_ptr (int16 each), col_idx (int16), values (int8 / 8);
 *   the rest, up to 63 bytes: the parameter string.
 * Inputs whose row_ptr[nrows] is outside the arrays given are skipped (the library cannot
 * check a caller's array lengths). Checked: spmv_<t>_csr_wrap accepts exactly the arrays that
 * are a valid CSR (row_ptr from 0, never decreasing; every column in range) and refuses the others with
 * SPMV_ERR_ARG or SPMV_ERR_OVERFLOW; a refused build leaves the handle empty; every status is
 * one of the library's; a built format multiplies (alpha, beta from the input) within 1e-12
 * (double) or 1e-5 (float) of the long-double reference, and _to_csr gives back the entries.
 * Any violation aborts; ASan, UBSan and LeakSanitizer catch the rest. Built and run by
 * tests/fuzz/run_fuzz.sh csr. */
#include "spmv.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the builders' options for one format, ISA and parameter string (may be NULL) */
static spmv_opts fz_opts(spmv_format f, spmv_isa isa, const char *params) {
    spmv_opts o = spmv_opts_default();
    o.format = f;
    o.isa = isa;
    o.params = params;
    return o;
}

#define FC_REQUIRE(cond, ...)                                                                                          \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz_csr: invariant failed at line %d: %s: ", __LINE__, #cond);                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

typedef struct {
    const uint8_t *p;
    size_t n, at;
} fc_in;
static int fc_byte(fc_in *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static int fc_i16(fc_in *in) {
    int lo = fc_byte(in), hi = fc_byte(in);
    return (int16_t)(uint16_t)(lo | hi << 8);
}

static int fc_known(spmv_status st) { return st >= SPMV_OK && st <= SPMV_ERR_NODEVICE; }

#define FC_CASE(TAG, T, TOL)                                                                                           \
    static void fc_##TAG(int64_t nr, int64_t nc, int64_t nnz, const int32_t *rp, const int32_t *ci, const double *vd,  \
                         int valid, spmv_format fmt, spmv_isa isa, const char *params, double alpha, double beta) {    \
        T *v = (T *)malloc(sizeof(T) * (size_t)(nnz + 1)), *x = (T *)malloc(sizeof(T) * (size_t)(nc + 1));             \
        T *y = (T *)malloc(sizeof(T) * (size_t)(nr + 1)), *y0 = (T *)malloc(sizeof(T) * (size_t)(nr + 1));             \
        long double *ref = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));                              \
        long double *sc = (long double *)malloc(sizeof(long double) * (size_t)(nr + 1));                               \
        spmv_##TAG##_csr A;                                                                                            \
        spmv_##TAG##_any M;                                                                                            \
        spmv_error e;                                                                                                  \
        spmv_status st;                                                                                                \
        int64_t i;                                                                                                     \
        FC_REQUIRE(v && x && y && y0 && ref && sc, "out of memory");                                                   \
        for (i = 0; i < nnz; i++) v[i] = (T)vd[i];                                                                     \
        for (i = 0; i < nc; i++) x[i] = (T)(0.5 + (double)((i * 7) % 5) / 4);                                          \
        for (i = 0; i < nr; i++) y0[i] = (T)(1 - (double)(i % 3) / 2);                                                 \
        memset(&A, 0xab, sizeof A);                                                                                    \
        st = spmv_##TAG##_csr_wrap(&A, nr, nc, rp, ci, v, NULL, NULL);                                                       \
        FC_REQUIRE(fc_known(st), "wrap: status %d", (int)st);                                                          \
        FC_REQUIRE((st == SPMV_OK) == valid, "wrap: %s on %s arrays", spmv_status_str(st),                             \
                   valid ? "valid" : "invalid");                                                                       \
        if (st != SPMV_OK) {                                                                                           \
            FC_REQUIRE(st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW, "wrap refused with %s", spmv_status_str(st));    \
            goto out;                                                                                                  \
        }                                                                                                              \
        memset(&M, 0xab, sizeof M);                                                                                    \
        const spmv_opts o = fz_opts(fmt, isa, params);                                                                 \
        st = spmv_##TAG##_any_from_csr(&M, &A, &o, &e);                                                                \
        FC_REQUIRE(fc_known(st), "%s: status %d", spmv_format_name(fmt), (int)st);                                     \
        if (spmv_format_flags(fmt) & SPMV_FF_SYMMETRIC) { /* sss: built exactly when A is symmetric */                 \
            spmv_any_params ap;                                                                                        \
            const int sy = spmv_##TAG##_csr_is_symmetric(&A);                                                         \
            const int pok = spmv_any_params_init(fmt, params, &ap, NULL) == SPMV_OK; /* else refused for that */      \
            FC_REQUIRE(st == SPMV_OK ? sy == 1 : (sy != 1 || !pok || st == SPMV_ERR_ALLOC || st == SPMV_ERR_ISA),     \
                       "%s: %s on a matrix csr_is_symmetric says %d of (params '%s')", spmv_format_name(fmt),          \
                       spmv_status_str(st), sy, params);                                                               \
        }                                                                                                              \
        if (st != SPMV_OK) {                                                                                           \
            static const unsigned char zero[sizeof M] = {0};                                                           \
            FC_REQUIRE(!memcmp(&M, zero, sizeof M), "%s: a refused build (%s) left the handle non-empty",              \
                       spmv_format_name(fmt), spmv_status_str(st));                                                    \
        } else {                                                                                                       \
            spmv_##TAG##_csr B;                                                                                        \
            double err;                                                                                                \
            for (i = 0; i < nr; i++) y[i] = beta == 0 ? (T)NAN : y0[i];                                                \
            st = spmv_##TAG##_any_mv(&M, (T)alpha, x, (T)beta, y);                                                     \
            spmv_##TAG##_csr_mv_ref(&A, (T)alpha, x, (T)beta, y0, ref, sc);                                            \
            err = st == SPMV_OK ? spmv_##TAG##_max_rel_err(A.nrows, y, ref, sc) : 1e300;                               \
            FC_REQUIRE(err <= TOL, "%s (%s, params '%s'): product: %s, error %.3g", spmv_format_name(fmt),             \
                       spmv_isa_name(isa), params, spmv_status_str(st), err);                                          \
            st = spmv_##TAG##_any_to_csr(&M, &B);                                                                      \
            FC_REQUIRE(st == SPMV_OK || st == SPMV_ERR_ALLOC, "%s: to_csr: %s", spmv_format_name(fmt),                 \
                       spmv_status_str(st));                                                                           \
            if (st == SPMV_OK) {                                                                                       \
                FC_REQUIRE(B.nrows == A.nrows && B.ncols == A.ncols && B.nnz <= A.nnz, "%s: to_csr gave %lld x %lld, " \
                           "%lld entries, from %lld x %lld, %lld", spmv_format_name(fmt), (long long)B.nrows,          \
                           (long long)B.ncols, (long long)B.nnz, (long long)A.nrows, (long long)A.ncols,               \
                           (long long)A.nnz);                                                                          \
                spmv_##TAG##_csr_free(&B);                                                                             \
            }                                                                                                          \
            spmv_##TAG##_any_free(&M);                                                                                 \
        }                                                                                                              \
        spmv_##TAG##_csr_free(&A);                                                                                     \
    out:                                                                                                               \
        free(v), free(x), free(y), free(y0), free(ref), free(sc);                                                      \
    }
FC_CASE(d, double, 1e-12)
FC_CASE(s, float, 1e-5)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fc_in in = {data, size, 0};
    const int64_t nr = fc_byte(&in) % 64, nc = fc_byte(&in) % 64;
    const int fsel = fc_byte(&in), flags = fc_byte(&in);
    int64_t nnz = (fc_i16(&in) & 0xffff) % 1024, i, r;
    int32_t *rp = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nr + 1));
    int32_t *ci = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nnz + 1));
    double *vd = (double *)malloc(sizeof(double) * (size_t)(nnz + 1));
    char params[64];
    int nh = 0, f, valid, k;
    spmv_format fmt = SPMV_FMT_CSR;
    spmv_isa isa = (spmv_isa)(SPMV_ISA_GENERIC + (flags & 3) % 3);
    size_t plen;
    FC_REQUIRE(rp && ci && vd, "out of memory");
    for (f = 0; f < SPMV_FMT_COUNT_; f++) nh += (spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) != 0;
    for (f = 0, k = fsel % nh; f < SPMV_FMT_COUNT_; f++)
        if ((spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) && k-- == 0) {
            fmt = (spmv_format)f;
            break;
        }
    if (!spmv_isa_supported(isa)) isa = SPMV_ISA_GENERIC;
    for (i = 0; i <= nr; i++) rp[i] = fc_i16(&in);
    for (i = 0; i < nnz; i++) ci[i] = fc_i16(&in);
    for (i = 0; i < nnz; i++) vd[i] = (double)(int8_t)fc_byte(&in) / 8;
    if (flags & 64) { /* repaired: short rows from the given values, columns in range */
        rp[0] = 0;
        for (r = 0; r < nr; r++) rp[r + 1] = rp[r] + (int32_t)((uint32_t)rp[r + 1] % 6);
        if (rp[nr] < nnz) nnz = rp[nr];
        for (r = 0; r < nr; r++)
            if (rp[r + 1] > nnz) rp[r + 1] = (int32_t)nnz;
        for (i = 0; i < nnz; i++) ci[i] = nc ? (int32_t)((uint32_t)ci[i] % (uint32_t)nc) : 0;
        if (nc == 0) nnz = 0, memset(rp, 0, sizeof(int32_t) * (size_t)(nr + 1));
    }
    /* the caller's side of the contract: col_idx and val hold row_ptr[nrows] entries (the
       library cannot check array lengths); inputs that break it are not passed */
    if (rp[nr] < 0 || rp[nr] > nnz) {
        free(rp), free(ci), free(vd);
        return 0;
    }
    nnz = rp[nr];
    /* the arrays are a valid CSR exactly when: */
    valid = rp[0] == 0;
    for (r = 0; valid && r < nr; r++) valid = rp[r + 1] >= rp[r];
    for (i = 0; valid && i < nnz; i++) valid = ci[i] >= 0 && ci[i] < nc;
    plen = size > in.at ? size - in.at : 0;
    if (plen > sizeof params - 1) plen = sizeof params - 1;
    memcpy(params, data + in.at, plen);
    params[plen] = 0;
    {
        const double alpha = (double)(int8_t)(flags * 37) / 16, beta = (flags >> 2) & 1 ? 0 : (double)(flags >> 3 & 3) - 1;
        if (flags & 128) fc_s(nr, nc, nnz, rp, ci, vd, valid, fmt, isa, params, alpha, beta);
        else fc_d(nr, nc, nnz, rp, ci, vd, valid, fmt, isa, params, alpha, beta);
    }
    free(rp), free(ci), free(vd);
    return 0;
}
