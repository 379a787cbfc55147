/* The transpose product and SpMM on the device (formats/cuda/csr.cuh, formats/cuda/any.cuh): every
 * device format built from A^T (opts.transpose) and the auto handle built that way, the csr
 * rows' own csr_dev_mvt (atomics, no A^T) and any_dev_mvt's refusal on the other formats; each
 * product against the long-double reference of A^T x, with alpha/beta pairs and NaN in y
 * where beta = 0, on rectangular and skewed matrices. Symmetric-only formats (sss): refused
 * (SPMV_ERR_ARG, an empty handle, the reason) on the matrices that are not symmetric, both
 * ways; on A + A^T of the square ones built from A^T, any_dev_mvt = the forward product, and
 * any_dev_mm's per-vector path (column-major; row-major refused). No device update_values
 * exists to test. Runs in the CUDA emulation in the suite and natively in tests/gpu_check.sh. */
/* long rows in several chunks on the test's small matrices */
#define SPMV_CUDA_LONG_CHUNK 256
#include "../harness.h"
#include "spmv_cuda.cuh"
#include "../harness.h"
#include "cuda_harness.h"

static const double AB[3][2] = {{1, 0}, {2.5, -0.5}, {-3, 0}};

/* max over the columns of |y - want| / (|want| + scale), want = alpha*A^T x + beta*y0 */
static double err_t(const spmv_d_csr *A, double alpha, const double *x, double beta, const double *y0, const double *y) {
    const int64_t n = A->ncols;
    long double *r = (long double *)calloc((size_t)n + 1, sizeof(long double));
    long double *s = (long double *)calloc((size_t)n + 1, sizeof(long double));
    double w = 0;
    for (int64_t i = 0; i < A->nrows; i++)
        for (int64_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            const long double p = (long double)A->val[k] * x[i];
            r[A->col_idx[k]] += p;
            s[A->col_idx[k]] += fabsl(p);
        }
    for (int64_t j = 0; j < n; j++) {
        const long double want = alpha * r[j] + (beta != 0 ? (long double)beta * y0[j] : 0.0L);
        const long double sc = fabsl((long double)alpha) * s[j] + (beta != 0 ? fabsl((long double)beta * y0[j]) : 0.0L);
        const double e = (double)(fabsl((long double)y[j] - want) / (fabsl(want) + sc + 1e-300L));
        if (!(e <= w)) w = e;
    }
    free(r);
    free(s);
    return w;
}

/* only_sym: the symmetric-only formats alone (on A + A^T), no auto handle */
static void one_matrix(const char *mname, const spmv_triplets *t, int only_sym) {
    spmv_d_csr A;
    int sym;
    const int64_t m = t->nrows, n = t->ncols;
    double *x = (double *)malloc(sizeof(double) * (size_t)(m + 1)), *y0 = (double *)malloc(sizeof(double) * (size_t)(n + 1));
    double *yh = (double *)malloc(sizeof(double) * (size_t)(n + 1)), *xd = NULL, *yd = NULL;
    if (spmv_d_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: to CSR", mname);
        goto out;
    }
    sym = th_csr_symmetric(&A);
    for (int64_t i = 0; i < m; i++) x[i] = th_rval();
    for (int64_t j = 0; j < n; j++) y0[j] = th_rval();
    if (!cuda_ok(cudaMalloc((void **)&xd, sizeof(double) * (size_t)(m + 1)), "cudaMalloc x") ||
        !cuda_ok(cudaMalloc((void **)&yd, sizeof(double) * (size_t)(n + 1)), "cudaMalloc y") ||
        !cuda_ok(cudaMemcpy(xd, x, sizeof(double) * (size_t)m, cudaMemcpyHostToDevice), "copy x"))
        goto out;
    for (int f = 0; f <= SPMV_FMT_COUNT_ && !gpu_dead; f++) { /* f == COUNT: the auto handle */
        const int is_auto = f == SPMV_FMT_COUNT_;
        spmv_opts o = spmv_opts_default();
        spmv_d_any_dev D;
        spmv_d_auto_dev U;
        spmv_error e;
        spmv_status st;
        const char *fn = is_auto ? "auto" : spmv_format_name((spmv_format)f);
        if (!is_auto && !(spmv_format_flags((spmv_format)f) & SPMV_FF_CUDA)) continue;
        if (only_sym && (is_auto || !th_sym(f))) continue;
        if (!is_auto && th_sym(f) && !sym) { /* refused from A^T and from A, before any CUDA call */
            for (int tr = 0; tr < 2; tr++) {
                o.transpose = tr;
                o.format = (spmv_format)f;
                memset(&D, 0xab, sizeof D);
                st = spmv_d_any_dev_from_csr(&D, &A, &o, &e, 0);
                CHECK(st == SPMV_ERR_ARG && th_all_zero(&D, sizeof D) && strstr(e.msg, "symmetric"),
                      "%s %s from %s (not symmetric): %s '%s'", mname, fn, tr ? "A^T" : "A", spmv_status_str(st),
                      e.msg);
                if (st == SPMV_OK) (void)spmv_d_any_dev_free(&D);
            }
            continue;
        }
        o.transpose = 1;
        if (is_auto) {
            o.expected_calls = 10;
            st = spmv_d_auto_dev_from_csr(&U, &A, &o, &e, 0);
        } else {
            o.format = (spmv_format)f;
            st = spmv_d_any_dev_from_csr(&D, &A, &o, &e, 0);
        }
        if (st == SPMV_ERR_LIMIT) continue; /* a size cap (a skewed or padded matrix) */
        CHECK(st == SPMV_OK, "%s %s from A^T: %s (%s)", mname, fn, spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        for (int p = 0; p < 3; p++) {
            for (int64_t j = 0; j < n; j++) yh[j] = AB[p][1] == 0 ? NAN : y0[j];
            cuda_ok(cudaMemcpy(yd, yh, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice), "copy y");
            st = is_auto ? spmv_d_auto_dev_mv(&U, AB[p][0], xd, AB[p][1], yd, 0)
                         : spmv_d_any_dev_mv(&D, AB[p][0], xd, AB[p][1], yd, 0);
            if (st == SPMV_OK) st = spmv_cuda_status(cudaMemcpy(yh, yd, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
            const double er = st == SPMV_OK ? err_t(&A, AB[p][0], x, AB[p][1], y0, yh) : 1;
            CHECK(st == SPMV_OK && er <= 1e-12, "%s %s from A^T, alpha %g beta %g: %s, error %.3g", mname, fn, AB[p][0],
                  AB[p][1], spmv_status_str(st), er);
        }
        if (is_auto) {
            spmv_d_auto_dev_free(&U);
            continue;
        }
        (void)spmv_d_any_dev_free(&D);
        /* the handle on A itself: any_dev_mvt, native on the csr rows */
        o.transpose = 0;
        if (spmv_d_any_dev_from_csr(&D, &A, &o, &e, 0) != SPMV_OK) continue;
        /* native: the csr rows; a symmetric-only format's forward product is its transpose's */
        const int native = f == SPMV_FMT_CSR || f == SPMV_FMT_CSR_MERGE || f == SPMV_FMT_CSR_SCALAR ||
                           f == SPMV_FMT_CSR_VECTOR || th_sym(f);
        for (int p = 0; p < 3 && native; p++) {
            for (int64_t j = 0; j < n; j++) yh[j] = AB[p][1] == 0 ? NAN : y0[j];
            cuda_ok(cudaMemcpy(yd, yh, sizeof(double) * (size_t)n, cudaMemcpyHostToDevice), "copy y");
            st = spmv_d_any_dev_mvt(&D, AB[p][0], xd, AB[p][1], yd, 0);
            if (st == SPMV_OK) st = spmv_cuda_status(cudaMemcpy(yh, yd, sizeof(double) * (size_t)n, cudaMemcpyDeviceToHost));
            const double er = st == SPMV_OK ? err_t(&A, AB[p][0], x, AB[p][1], y0, yh) : 1;
            CHECK(st == SPMV_OK && er <= 1e-12, "%s %s any_dev_mvt, alpha %g beta %g: %s, error %.3g", mname, fn, AB[p][0],
                  AB[p][1], spmv_status_str(st), er);
        }
        if (!native)
            CHECK(spmv_d_any_dev_mvt(&D, 1.0, xd, 0.0, yd, 0) == SPMV_ERR_UNSUPPORTED, "%s %s: any_dev_mvt refused", mname, fn);
        (void)spmv_d_any_dev_free(&D);
    }
out:
    if (xd) cudaFree(xd);
    if (yd) cudaFree(yd);
    free(x), free(y0), free(yh);
    spmv_d_csr_free(&A);
}

/* SpMM on the device: csr_dev_mm (every csr row), ell_dev_mm (sell, hll: both layouts),
 * csrdu_dev_mm (both layouts) and any_dev_mm's per-vector path (coo, jad, and sss on a symmetric matrix: column-major;
 * row-major refused) against the host reference, k = 1, 3, 8, 9, 33, ld > k. only_sym: sss
 * alone (on A + A^T). */
static void mm_matrix(const char *mname, const spmv_triplets *t, int only_sym) {
    static const int ks[] = {1, 3, 8, 9, 33};
    static const spmv_format fs[] = {SPMV_FMT_CSR, SPMV_FMT_CSR_VECTOR, SPMV_FMT_SELL, SPMV_FMT_HLL,
                                     SPMV_FMT_CSRDU, SPMV_FMT_COO, SPMV_FMT_JAD, SPMV_FMT_SSS};
    spmv_d_csr A;
    if (spmv_d_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: to CSR", mname);
        return;
    }
    const int64_t m = A.nrows, n = A.ncols;
    const int sym = th_csr_symmetric(&A);
    for (size_t fi = 0; fi < sizeof fs / sizeof fs[0] && !gpu_dead; fi++) {
        spmv_opts o = spmv_opts_default();
        spmv_d_any_dev D;
        spmv_error e;
        if (th_sym(fs[fi]) != only_sym || (th_sym(fs[fi]) && !sym)) continue; /* one_matrix checked the refusal */
        o.format = fs[fi];
        const spmv_status bst = spmv_d_any_dev_from_csr(&D, &A, &o, &e, 0);
        if (bst == SPMV_ERR_LIMIT) continue;
        CHECK(bst == SPMV_OK, "%s %s: build for SpMM: %s (%s)", mname, spmv_format_name(fs[fi]), spmv_status_str(bst),
              e.msg);
        if (bst != SPMV_OK) continue;
        const int native = spmv__dev_mm_native(fs[fi]); /* the registry's dmm column */
        for (int ik = 0; ik < 5; ik++)
            for (int lay = 0; lay < 2; lay++) {
                const int64_t k = ks[ik], ldx = lay ? n + 3 : k + 2, ldy = lay ? m + 1 : k + 1;
                const size_t nx = (size_t)(lay ? k * ldx : (n > 0 ? n : 1) * ldx), ny = (size_t)(lay ? k * ldy : (m > 0 ? m : 1) * ldy);
                double *X = (double *)malloc(sizeof(double) * nx), *Y = (double *)malloc(sizeof(double) * ny);
                double *Y0 = (double *)malloc(sizeof(double) * ny), *Xd = NULL, *Yd = NULL;
                const double al = 1.25, be = (k % 2) ? 0.0 : -0.5;
                for (size_t q = 0; q < nx; q++) X[q] = th_rval();
                for (size_t q = 0; q < ny; q++) Y0[q] = th_rval(), Y[q] = be == 0 ? NAN : Y0[q];
                cuda_ok(cudaMalloc((void **)&Xd, sizeof(double) * nx), "cudaMalloc X");
                cuda_ok(cudaMalloc((void **)&Yd, sizeof(double) * ny), "cudaMalloc Y");
                cuda_ok(cudaMemcpy(Xd, X, sizeof(double) * nx, cudaMemcpyHostToDevice), "copy X");
                cuda_ok(cudaMemcpy(Yd, Y, sizeof(double) * ny, cudaMemcpyHostToDevice), "copy Y");
                spmv_status st = spmv_d_any_dev_mm(&D, k, al, Xd, ldx, be, Yd, ldy, (spmv_layout)lay, 0);
                if (!native && lay == SPMV_ROW_MAJOR) {
                    CHECK(st == SPMV_ERR_UNSUPPORTED, "%s %s: device row-major SpMM refused: %s", mname,
                          spmv_format_name(fs[fi]), spmv_status_str(st));
                } else {
                    double worst = 0;
                    if (st == SPMV_OK) st = spmv_cuda_status(cudaMemcpy(Y, Yd, sizeof(double) * ny, cudaMemcpyDeviceToHost));
                    for (int64_t j = 0; st == SPMV_OK && j < k; j++)
                        for (int64_t i = 0; i < m; i++) {
                            long double sum = 0, sa = 0;
                            for (int64_t q = A.row_ptr[i]; q < A.row_ptr[i + 1]; q++) {
                                const long double p = (long double)A.val[q] * X[lay ? j * ldx + A.col_idx[q] : A.col_idx[q] * ldx + j];
                                sum += p;
                                sa += fabsl(p);
                            }
                            const size_t at = (size_t)(lay ? j * ldy + i : i * ldy + j);
                            const long double want = al * sum + (be != 0 ? (long double)be * Y0[at] : 0.0L);
                            const double er = (double)(fabsl((long double)Y[at] - want) /
                                                       (fabsl(want) + al * sa + fabsl((long double)be * Y0[at]) + 1e-300L));
                            if (!(er <= worst)) worst = er;
                        }
                    CHECK(st == SPMV_OK && worst <= 1e-12, "%s %s: device SpMM k=%lld %s: %s, error %.3g", mname,
                          spmv_format_name(fs[fi]), (long long)k, lay ? "col-major" : "row-major", spmv_status_str(st), worst);
                }
                cudaFree(Xd), cudaFree(Yd);
                free(X), free(Y), free(Y0);
            }
        (void)spmv_d_any_dev_free(&D);
    }
    spmv_d_csr_free(&A);
}

int main(void) {
    /* onerow and circuit: long rows (above 8 x the mean + 100), split into chunks of
       SPMV_CUDA_LONG_CHUNK (256 here) by csr_dev_mm and csr_dev_mvt */
    static const char *gens[] = {"random:rows=300,cols=500,nnzr=6,seed=2", "random:rows=700,cols=200,nnzr=3,seed=3",
                                 "onerow:n=2000,len=1500,row=7", "stencil2d:n=30", "circuit:n=3000"};
    if (th_cuda_no_device(spmv_cuda_device_count(), "the device transpose products were not run"))
        return check_finish("test_cuda_ops");
    { /* no device SpMM: the selection refuses mm_k > 1 with a reason */
        spmv_triplets t;
        spmv_error e;
        spmv_d_csr A;
        spmv_d_auto_dev U;
        spmv_opts o = spmv_opts_default();
        o.mm_k = 4;
        if (spmv_gen("stencil2d:n=10", &t, &e) == SPMV_OK && spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
            CHECK(spmv_d_auto_dev_from_csr(&U, &A, &o, &e, 0) == SPMV_ERR_UNSUPPORTED && strstr(e.msg, "SpMM"),
                  "auto_dev with mm_k = 4 refused: %s", e.msg);
            spmv_d_csr_free(&A);
            spmv_triplets_free(&t);
        }
    }
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_gen(gens[g], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s", gens[g]);
            continue;
        }
        one_matrix(gens[g], &t, 0);
        mm_matrix(gens[g], &t, 0);
        if (th_sym_dev_any() && !th_triplets_symmetric(&t)) { /* sss on A + A^T (square A only) */
            spmv_triplets u;
            char name[160];
            if (th_symmetrize(&t, &u)) {
                snprintf(name, sizeof name, "%s + its transpose", gens[g]);
                th_rng_save();
                one_matrix(name, &u, 1);
                mm_matrix(name, &u, 1);
                th_rng_restore();
                spmv_triplets_free(&u);
            }
        } else if (th_sym_dev_any()) { /* symmetric as given: sss ran with the others; its SpMM */
            th_rng_save();
            mm_matrix(gens[g], &t, 1);
            th_rng_restore();
        }
        spmv_triplets_free(&t);
    }
    { /* a pattern (every value 1: csrdu keeps no values) through the device SpMM */
        spmv_triplets t;
        if (spmv_gen("stencil2d:n=30", &t, NULL) == SPMV_OK) {
            for (int64_t q = 0; q < t.nnz; q++) t.val[q] = 1;
            mm_matrix("stencil2d:n=30, every value 1", &t, 0);
            spmv_triplets_free(&t);
        } else CHECK(0, "gen stencil2d:n=30");
    }
    return check_finish("test_cuda_ops");
}
