/* Per-type body of tests/test_alias.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

/* x and y in one buffer: overlapping is refused, adjacent is fine and gives the right product */
static void TF(_overlaps)(TN(any) * M, const TN(csr) * A, const char *mname, const char *fn, const char *in) {
    int64_t n = A->nrows > A->ncols ? A->nrows : A->ncols, i;
    TT_VAL *buf = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->nrows + A->ncols + 2 * n + 8));
    spmv_status st;
    for (i = 0; i < A->nrows + A->ncols + 2 * n + 8; i++) buf[i] = (TT_VAL)1;
    /* y == x */
    st = TN(any_mv)(M, 1, buf, 0, buf);
    CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: any_mv(M, 1, v, 0, v) gave %s", STR(TT_TAG), mname, fn, in,
          spmv_status_str(st));
    /* partial overlaps, both ways */
    st = TN(any_mv)(M, 1, buf, 0, buf + 1);
    CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: y = x + 1 gave %s", STR(TT_TAG), mname, fn, in, spmv_status_str(st));
    st = TN(any_mv)(M, 1, buf + A->nrows - 1, 0.5, buf);
    CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: x = y + nrows - 1 gave %s", STR(TT_TAG), mname, fn, in,
          spmv_status_str(st));
    /* adjacent, not overlapping: fine, and right */
    st = TN(any_mv)(M, 1, buf, 0, buf + A->ncols);
    CHECK(st == SPMV_OK, "%s %s %s %s: y just after x gave %s", STR(TT_TAG), mname, fn, in, spmv_status_str(st));
    st = TN(any_mv)(M, 1, buf + A->nrows, 0, buf);
    CHECK(st == SPMV_OK, "%s %s %s %s: x just after y gave %s", STR(TT_TAG), mname, fn, in, spmv_status_str(st));
    {
        long double *ref = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
        long double *scale = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
        TT_VAL *x = buf + A->nrows;
        TN(csr_mv_ref)(A, 1, x, 0, NULL, ref, scale);
        CHECK(TN(max_rel_err)(A->nrows, buf, ref, scale) <= (sizeof(TT_VAL) == 8 ? 1e-12 : 1e-5),
              "%s %s %s %s: adjacent x, y: wrong product", STR(TT_TAG), mname, fn, in);
        free(ref);
        free(scale);
    }
    free(buf);
}

/* every host format on every ISA the CPU runs */
static void TF(_alias)(const spmv_triplets *trip, const char *mname) {
    TN(csr) A;
    int f, isa;
    if (TN(csr_from_triplets)(&A, trip, NULL, NULL) != SPMV_OK) {
        CHECK(0, "%s: csr_from_triplets", mname);
        return;
    }
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            TN(any) M;
            spmv_status st;
            const char *fn = spmv_format_name((spmv_format)f), *in = spmv_isa_name((spmv_isa)isa);
            if (!spmv_isa_supported((spmv_isa)isa)) continue;
            const spmv_opts o = th_opts((spmv_format)f, (spmv_isa)isa, NULL);
            st = TN(any_from_csr)(&M, &A, &o, NULL);
            if (st == SPMV_ERR_LIMIT && capped((spmv_format)f)) continue; /* DIA on a random matrix */
            if ((spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) && !TN(csr_is_symmetric)(&A)) {
                CHECK(st == SPMV_ERR_ARG, "%s %s %s %s: not symmetric, gave %s", STR(TT_TAG), mname, fn, in,
                      spmv_status_str(st));
                if (st == SPMV_OK) TN(any_free)(&M);
                continue; /* sss: the symmetric stencil below */
            }
            if (st != SPMV_OK) {
                CHECK(0, "%s %s %s %s: conversion: %s", STR(TT_TAG), mname, fn, in, spmv_status_str(st));
                continue;
            }
            TF(_overlaps)(&M, &A, mname, fn, in);
            TN(any_free)(&M);
        }
    }
    TN(csr_free)(&A);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
