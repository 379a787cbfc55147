/* libFuzzer target for the CSR wrap, every host converter, update_values and the parameter
 * strings: the bytes become a CSR matrix (sizes, row_ptr, col_idx, values), a format, an ISA,
 * a type and a "key=value,..." parameter string.
 *   byte 0: rows (bits 0-5: 0..63), bit 6: repeated entries in a repaired CSR, bit 7: the
 *   format built from A^T (opts.transpose); byte 1: columns (bits 0-5), bit 6: a repaired CSR's
 *   columns ascending in every row; byte 2: the host format; byte 3: bit 0-1 the ISA
 *   (generic, avx2, avx512 where the CPU has it, else generic), bit 6: arrays as given or
 *   repaired into a valid CSR (half the inputs: to reach the converters), bit 7: float;
 *   bytes 4-5: nnz (0..1023); then row_ptr (int16 each), col_idx (int16), values (int8 / 8);
 *   the rest, up to 63 bytes: the parameter string.
 * The repair: row lengths 0..5, columns in range; without byte 0's bit 6 distinct in each row
 * (rows no longer than ncols); with it a column whose bit 15 is set repeats an earlier column
 * of its row (bits 8-14 pick which) and the others may collide.
 * Inputs whose row_ptr[nrows] is outside the arrays given are skipped (the library cannot
 * check a caller's array lengths). Checked: spmv_<t>_csr_wrap accepts exactly the arrays that
 * are a valid CSR (row_ptr from 0, never decreasing; every column in range) and refuses the others with
 * SPMV_ERR_ARG or SPMV_ERR_OVERFLOW; a refused build leaves the handle empty; every status is
 * one of the library's; a built format multiplies (alpha, beta from the input) within 1e-12
 * (double) or 1e-5 (float) of the long-double reference (of A^T with opts.transpose; repeated
 * entries summed), _to_csr gives back the entries, and spmv_<t>_any_update_values with new
 * values on the same pattern (-3 v + 1), then the old ones again, gives the products of those
 * values within the same bounds (refused only where formats/any.h says: SPMV_ERR_ALLOC, sss
 * on new values whose sums are not symmetric, a csr handle borrowing A).
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

/* 1 when every row's columns strictly ascend */
static int fc_canonical(int64_t nr, const int32_t *rp, const int32_t *ci) {
    int64_t r, k;
    for (r = 0; r < nr; r++)
        for (k = rp[r] + 1; k < rp[r + 1]; k++)
            if (ci[k] <= ci[k - 1]) return 0;
    return 1;
}
/* 1 when the matrix of the values u (repeated entries summed) is symmetric: what sss's
   update_values checks (-3 v + 1 keeps a symmetric matrix symmetric unless repeats group its
   entries differently on the two sides). Sums of these values are exact in float and double */
static int fc_symmetric(int64_t nr, int64_t nc, const int32_t *rp, const int32_t *ci, const double *u) {
    double *d;
    int64_t r, k, ok = 1;
    if (nr != nc) return 0;
    if (!(d = (double *)calloc((size_t)(nr * nc + 1), sizeof(double)))) return 1;
    for (r = 0; r < nr; r++)
        for (k = rp[r]; k < rp[r + 1]; k++) d[r * nc + ci[k]] += u[k];
    for (r = 0; r < nr && ok; r++)
        for (k = 0; k < r && ok; k++) ok = d[r * nc + k] == d[k * nc + r];
    free(d);
    return (int)ok;
}

#define FC_CASE(TAG, T, TOL)                                                                                           \
    /* the long-double reference of A x (tr = 0: x has ncols values, y nrows) or A^T x (tr = 1: x has nrows values,    \
       y ncols): every stored entry counts (repeated entries summed) */                                                \
    static void fc_##TAG##_ref(const spmv_##TAG##_csr *A, int tr, T alpha, const T *x, T beta, const T *y0,            \
                               long double *ref, long double *sc) {                                                    \
        int64_t r, k, n = tr ? A->ncols : A->nrows;                                                                    \
        if (!tr) {                                                                                                     \
            spmv_##TAG##_csr_mv_ref(A, alpha, x, beta, y0, ref, sc);                                                   \
            return;                                                                                                    \
        }                                                                                                              \
        for (r = 0; r < n; r++) ref[r] = sc[r] = 0;                                                                    \
        for (r = 0; r < A->nrows; r++)                                                                                 \
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {                                                      \
                const long double p = (long double)A->val[k] * (long double)x[r];                                      \
                ref[A->col_idx[k]] += p;                                                                               \
                sc[A->col_idx[k]] += fabsl(p);                                                                         \
            }                                                                                                          \
        for (r = 0; r < n; r++) {                                                                                      \
            ref[r] *= (long double)alpha;                                                                              \
            sc[r] *= fabsl((long double)alpha);                                                                        \
            if (beta != (T)0) {                                                                                        \
                ref[r] += (long double)beta * (long double)y0[r];                                                      \
                sc[r] += fabsl((long double)beta * (long double)y0[r]);                                                \
            }                                                                                                          \
        }                                                                                                              \
    }                                                                                                                  \
    /* M's product against the reference of A (A^T when tr): the relative error, 1e300 for a failed product */         \
    static double fc_##TAG##_err(spmv_##TAG##_any *M, const spmv_##TAG##_csr *A, int tr, T alpha, const T *x, T beta, \
                                 const T *y0, T *y, long double *ref, long double *sc) {                               \
        const int64_t n = tr ? A->ncols : A->nrows;                                                                    \
        int64_t i;                                                                                                     \
        spmv_status st;                                                                                                \
        for (i = 0; i < n; i++) y[i] = beta == 0 ? (T)NAN : y0[i];                                                     \
        st = spmv_##TAG##_any_mv(M, alpha, x, beta, y);                                                                \
        fc_##TAG##_ref(A, tr, alpha, x, beta, y0, ref, sc);                                                            \
        return st == SPMV_OK ? spmv_##TAG##_max_rel_err(n, y, ref, sc) : 1e300;                                        \
    }                                                                                                                  \
    static void fc_##TAG(int64_t nr, int64_t nc, int64_t nnz, const int32_t *rp, const int32_t *ci, const double *vd,  \
                         int valid, spmv_format fmt, spmv_isa isa, const char *params, double alpha, double beta,      \
                         int tr) {                                                                                     \
        const int64_t nm = (nr > nc ? nr : nc) + 1;                                                                    \
        T *v = (T *)malloc(sizeof(T) * (size_t)(nnz + 1)), *v2 = (T *)malloc(sizeof(T) * (size_t)(nnz + 1));           \
        double *u2 = (double *)malloc(sizeof(double) * (size_t)(nnz + 1));                                             \
        T *x = (T *)malloc(sizeof(T) * (size_t)nm);                                                                    \
        T *y = (T *)malloc(sizeof(T) * (size_t)nm), *y0 = (T *)malloc(sizeof(T) * (size_t)nm);                         \
        long double *ref = (long double *)malloc(sizeof(long double) * (size_t)nm);                                    \
        long double *sc = (long double *)malloc(sizeof(long double) * (size_t)nm);                                     \
        spmv_##TAG##_csr A;                                                                                            \
        spmv_##TAG##_any M;                                                                                            \
        spmv_error e;                                                                                                  \
        spmv_status st;                                                                                                \
        int64_t i;                                                                                                     \
        FC_REQUIRE(v && v2 && u2 && x && y && y0 && ref && sc, "out of memory");                                       \
        for (i = 0; i < nnz; i++) v[i] = (T)vd[i];                                                                     \
        for (i = 0; i < nnz; i++) u2[i] = vd[i] * -3 + 1, v2[i] = (T)u2[i]; /* exact in float: a wrong slot shows */      \
        for (i = 0; i < nm; i++) x[i] = (T)(0.5 + (double)((i * 7) % 5) / 4 + (double)i / 256);                        \
        for (i = 0; i < nm; i++) y0[i] = (T)(1 - (double)(i % 3) / 2);                                                 \
        memset(&A, 0xab, sizeof A);                                                                                    \
        st = spmv_##TAG##_csr_wrap(&A, nr, nc, rp, ci, v, NULL, NULL);                                                 \
        FC_REQUIRE(fc_known(st), "wrap: status %d", (int)st);                                                          \
        FC_REQUIRE((st == SPMV_OK) == valid, "wrap: %s on %s arrays", spmv_status_str(st),                             \
                   valid ? "valid" : "invalid");                                                                       \
        if (st != SPMV_OK) {                                                                                           \
            FC_REQUIRE(st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW, "wrap refused with %s", spmv_status_str(st));    \
            goto out;                                                                                                  \
        }                                                                                                              \
        memset(&M, 0xab, sizeof M);                                                                                    \
        spmv_opts o = fz_opts(fmt, isa, params);                                                                       \
        o.transpose = tr;                                                                                              \
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
            spmv_##TAG##_csr B, A2;                                                                                    \
            double err;                                                                                                \
            int round;                                                                                                 \
            err = fc_##TAG##_err(&M, &A, tr, (T)alpha, x, (T)beta, y0, y, ref, sc);                                    \
            FC_REQUIRE(err <= TOL, "%s (%s, params '%s', transpose %d): product: error %.3g", spmv_format_name(fmt),   \
                       spmv_isa_name(isa), params, tr, err);                                                           \
            st = spmv_##TAG##_any_to_csr(&M, &B);                                                                      \
            FC_REQUIRE(st == SPMV_OK || st == SPMV_ERR_ALLOC, "%s: to_csr: %s", spmv_format_name(fmt),                 \
                       spmv_status_str(st));                                                                           \
            if (st == SPMV_OK) {                                                                                       \
                const int64_t br = tr ? A.ncols : A.nrows, bc = tr ? A.nrows : A.ncols;                                \
                FC_REQUIRE(B.nrows == br && B.ncols == bc && B.nnz <= A.nnz, "%s: to_csr gave %lld x %lld, "           \
                           "%lld entries, from %lld x %lld, %lld (transpose %d)", spmv_format_name(fmt),               \
                           (long long)B.nrows, (long long)B.ncols, (long long)B.nnz, (long long)A.nrows,               \
                           (long long)A.ncols, (long long)A.nnz, tr);                                                  \
                spmv_##TAG##_csr_free(&B);                                                                             \
            }                                                                                                          \
            /* update_values: new values on the same pattern (the map is made at the first call), then the old        \
               ones back (the map kept); each product against the reference of the values it holds. Refusals the    \
               library documents (formats/any.h): SPMV_ERR_ALLOC; sss on new values whose sums are not symmetric    \
               (M unchanged); a csr handle that borrows A's arrays (not transposed) */                                \
            for (round = 0; round < 2; round++) {                                                                      \
                st = spmv_##TAG##_csr_wrap(&A2, nr, nc, rp, ci, round ? v : v2, NULL, NULL);                           \
                FC_REQUIRE(st == SPMV_OK, "wrap of the new values: %s", spmv_status_str(st));                          \
                st = spmv_##TAG##_any_update_values(&M, &A2);                                                          \
                FC_REQUIRE(fc_known(st), "%s: update_values: status %d", spmv_format_name(fmt), (int)st);              \
                if (st != SPMV_OK) {                                                                                   \
                    const int sym = (spmv_format_flags(fmt) & SPMV_FF_SYMMETRIC) != 0;                                 \
                    const int csr = (fmt == SPMV_FMT_CSR || fmt == SPMV_FMT_CSR_MERGE) && !tr;                         \
                    FC_REQUIRE(st == SPMV_ERR_ALLOC ||                                                                 \
                                   (st == SPMV_ERR_ARG && ((sym && !fc_symmetric(nr, nc, rp, ci, round ? vd : u2)) ||  \
                                                           (csr && M.u.csr.borrowed))),                                \
                               "%s (%s, params '%s', transpose %d, %lld x %lld, %lld entries%s): update_values "       \
                               "(call %d) refused: %s", spmv_format_name(fmt), spmv_isa_name(isa), params, tr,         \
                               (long long)nr, (long long)nc, (long long)nnz,                                           \
                               fc_canonical(nr, rp, ci) ? "" : ", columns not strictly ascending", round + 1,          \
                               spmv_status_str(st));                                                                   \
                    spmv_##TAG##_csr_free(&A2); /* M unchanged: the next round checks it */                           \
                    continue;                                                                                          \
                }                                                                                                      \
                err = fc_##TAG##_err(&M, &A2, tr, (T)alpha, x, (T)beta, y0, y, ref, sc);                               \
                FC_REQUIRE(err <= TOL, "%s (%s, params '%s', transpose %d, %lld x %lld, %lld entries%s): product "     \
                           "after update_values (call %d): error %.3g", spmv_format_name(fmt), spmv_isa_name(isa),     \
                           params, tr, (long long)nr, (long long)nc, (long long)nnz,                                   \
                           fc_canonical(nr, rp, ci) ? "" : ", columns not strictly ascending", round + 1, err);        \
                spmv_##TAG##_csr_free(&A2);                                                                            \
            }                                                                                                          \
            spmv_##TAG##_any_free(&M);                                                                                 \
        }                                                                                                              \
        spmv_##TAG##_csr_free(&A);                                                                                     \
    out:                                                                                                               \
        free(v), free(v2), free(u2), free(x), free(y), free(y0), free(ref), free(sc);                                  \
    }
FC_CASE(d, double, 1e-12)
FC_CASE(s, float, 1e-5)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fc_in in = {data, size, 0};
    const int b0 = fc_byte(&in), b1 = fc_byte(&in);
    const int64_t nr = b0 % 64, nc = b1 % 64;
    const int rep = b0 >> 6 & 1, tr = b0 >> 7 & 1, sorted = b1 >> 6 & 1;
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
        for (r = 0; r < nr; r++) {
            int32_t len = (int32_t)((uint32_t)rp[r + 1] % 6);
            if (!rep && len > nc) len = (int32_t)nc; /* room for distinct columns */
            rp[r + 1] = rp[r] + len;
        }
        if (rp[nr] < nnz) nnz = rp[nr];
        for (r = 0; r < nr; r++)
            if (rp[r + 1] > nnz) rp[r + 1] = (int32_t)nnz;
        if (nc == 0) nnz = 0, memset(rp, 0, sizeof(int32_t) * (size_t)(nr + 1));
        for (r = 0; r < nr; r++) {
            const int32_t b = rp[r], e = rp[r + 1];
            int32_t j, q;
            for (j = b; j < e; j++) {
                const uint32_t u = (uint16_t)ci[j];
                int32_t c = (int32_t)((u & 0x7fff) % (uint32_t)nc);
                if (rep) { /* repeated entries: bit 15 repeats an earlier column of the row; others may collide */
                    if ((u & 0x8000) && j > b) c = ci[b + (int32_t)((u >> 8 & 0x7f) % (uint32_t)(j - b))];
                } else { /* distinct columns in the row (len <= nc: one is free) */
                    for (q = b; q < j; q++)
                        if (ci[q] == c) c = (int32_t)((c + 1) % nc), q = b - 1;
                }
                ci[j] = c;
            }
            if (sorted) /* ascending (by insertion: short rows) */
                for (j = b + 1; j < e; j++)
                    for (q = j; q > b && ci[q - 1] > ci[q]; q--) {
                        const int32_t t = ci[q];
                        ci[q] = ci[q - 1], ci[q - 1] = t;
                    }
        }
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
        if (flags & 128) fc_s(nr, nc, nnz, rp, ci, vd, valid, fmt, isa, params, alpha, beta, tr);
        else fc_d(nr, nc, nnz, rp, ci, vd, valid, fmt, isa, params, alpha, beta, tr);
    }
    free(rp), free(ci), free(vd);
    return 0;
}
