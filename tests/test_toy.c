/* The test-only format toy (tests/toy/toy.h), as a new format joins the library: the generic
 * per-format test runs on it from its registry row (test_format_toy: every type, backend and
 * width on edge cases, presets, real matrices, round trip, params, malformed CSR, allocation
 * failure); this program checks what the registry and the selection give it without a line
 * naming it anywhere else: its name, family and flags, the run-time handle's verbs (product,
 * transpose build, SpMM by products, new values on repeated entries, back to CSR), and the
 * selection's defaults for a row with no measured rule (priors 10 and 11, predicted 1.0, tried
 * when the budget allows). Built with -DSPMV_TEST_TOY -Itests/toy (build.ninja). */
#include "test_preamble.h"

/* y = A x for the CSR A in long double, against y */
static double toy_err(const spmv_dl_csr *A, const double *x, const double *y, int transpose) {
    const int64_t m = transpose ? A->ncols : A->nrows;
    long double *r = (long double *)calloc((size_t)m + 1, sizeof(long double));
    double worst = 0;
    int64_t i, k;
    for (i = 0; i < A->nrows; i++)
        for (k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            if (transpose) r[A->col_idx[k]] += (long double)A->val[k] * x[i];
            else r[i] += (long double)A->val[k] * x[A->col_idx[k]];
        }
    for (i = 0; i < m; i++) {
        const double d = fabs((double)(r[i] - (long double)y[i])) / (1 + fabs((double)r[i]));
        if (d > worst) worst = d;
    }
    free(r);
    return worst;
}

static void registry_row(void) {
    spmv_format f = SPMV_FMT_COUNT_;
    CHECK(spmv_format_parse("toy", &f) == SPMV_OK && f == SPMV_FMT_TOY, "the row's name parses");
    CHECK(!strcmp(spmv_format_name(SPMV_FMT_TOY), "toy") && !strcmp(spmv_format_family(SPMV_FMT_TOY), "toy"),
          "name and family");
    CHECK(spmv_format_flags(SPMV_FMT_TOY) == SPMV_FF_HOST && spmv_format_compiled(SPMV_FMT_TOY), "flags: host only");
    CHECK(spmv_auto_convert_prior(SPMV_FMT_TOY, 0) == 10 && spmv_auto_convert_prior(SPMV_FMT_TOY, 1) == 11,
          "the default conversion priors");
}

static void handle_verbs(void) {
    /* 3 x 4 with a repeated entry in row 0 (columns 1, 1) and an empty row */
    static const int64_t rp[4] = {0, 3, 3, 5}, ci[5] = {1, 3, 1, 0, 2};
    double v[5] = {1, 2, 3, 4, 5}, v2[5] = {-1, 10, 20, 0.5, 7}, x[4] = {1, -2, 3, 0.25}, xt[3] = {2, 1, -1};
    double y[4], X[8], Y[6];
    spmv_dl_csr W, W2, B;
    spmv_dl_any M;
    spmv_error e;
    spmv_opts o = th_opts(SPMV_FMT_TOY, SPMV_ISA_AUTO, NULL);
    int j;
    CHECK(spmv_dl_csr_wrap(&W, 3, 4, rp, ci, v, NULL, NULL) == SPMV_OK &&
              spmv_dl_csr_wrap(&W2, 3, 4, rp, ci, v2, NULL, NULL) == SPMV_OK, "wrap");
    CHECK(spmv_dl_any_from_csr(&M, &W, &o, &e) == SPMV_OK, "any_from_csr: %s", e.msg);
    CHECK(spmv_dl_any_mv(&M, 1, x, 0, y) == SPMV_OK && toy_err(&W, x, y, 0) <= 1e-15, "product (repeats summed)");
    CHECK(spmv_dl_any_update_values(&M, &W2) == SPMV_OK && spmv_dl_any_mv(&M, 1, x, 0, y) == SPMV_OK &&
              toy_err(&W2, x, y, 0) <= 1e-15, "new values through the registry's value map");
    for (j = 0; j < 2; j++) memcpy(X + 4 * j, x, sizeof x);
    CHECK(spmv_dl_any_mm(&M, 2, 1, X, 4, 0, Y, 3, SPMV_COL_MAJOR) == SPMV_OK && toy_err(&W2, x, Y + 3, 0) <= 1e-15,
          "SpMM by products (no mm column)");
    CHECK(spmv_dl_any_to_csr(&M, &B) == SPMV_OK && B.nnz == 5, "back to CSR, entries as stored");
    if (B.nnz == 5) spmv_dl_csr_free(&B);
    CHECK(spmv_dl_any_mvt(&M, 1, xt, 0, y) == SPMV_ERR_UNSUPPORTED, "no mvt column: unsupported");
    spmv_dl_any_free(&M);
    o.transpose = 1;
    CHECK(spmv_dl_any_from_csr(&M, &W, &o, &e) == SPMV_OK && spmv_dl_any_mv(&M, 1, xt, 0, y) == SPMV_OK &&
              toy_err(&W, xt, y, 1) <= 1e-15, "built from A^T: A^T x");
    spmv_dl_any_free(&M);
    spmv_dl_csr_free(&W);
    spmv_dl_csr_free(&W2);
}

static void selection_defaults(void) {
    spmv_triplets t;
    spmv_dl_csr A;
    spmv_dl_auto M;
    spmv_error e;
    spmv_opts o = spmv_opts_default();
    const char *why = NULL;
    int i, seen = 0;
    CHECK(spmv_gen("stencil2d:n=200", &t, &e) == SPMV_OK && spmv_dl_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK,
          "a matrix");
    o.expected_calls = 1e6;
    o.calibration = 1;
    CHECK(spmv_dl_auto_from_csr(&M, &A, &o, &e) == SPMV_OK, "the selection: %s", e.msg);
    CHECK(spmv_auto_predict(&M.rep.feat, SPMV_FMT_TOY, 0, &o, &why) == 1.0 && strstr(why, "no rule"),
          "no measured rule: predicted 1.0 (%s)", why ? why : "");
    for (i = 0; i < M.rep.ncand; i++)
        if (M.rep.cand[i].fmt == SPMV_FMT_TOY) seen = 1 + (M.rep.cand[i].tried != 0);
    CHECK(seen > 0, "shortlisted by the registry (%s)", M.rep.why);
    spmv_dl_auto_free(&M);
    spmv_dl_csr_free(&A);
    spmv_triplets_free(&t);
}

int main(void) {
    registry_row();
    handle_verbs();
    selection_defaults();
    return check_finish("test_toy");
}
