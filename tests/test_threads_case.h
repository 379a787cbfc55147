/* Per-type body of tests/test_threads.c, included once per (TT_TAG, TT_VAL, TT_IDX). */
#define TN(x) SPMV_CAT(SPMV_CAT3(spmv_, TT_TAG, _), x)
#define TF(x) SPMV_CAT3(test_, TT_TAG, x)

typedef struct {
    TN(any) * M;
    TN(auto) * Au;
    const TT_VAL *x, *want;
    int64_t n;
    int kernel, bad, err;
} TF(_job);
static void *TF(_worker)(void *arg) {
    TF(_job) *j = (TF(_job) *)arg;
    TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(j->n ? j->n : 1));
    int r;
    if (!y) {
        j->err = 1;
        return NULL;
    }
    for (r = 0; r < REPS; r++) {
        spmv_status st;
        memset(y, 0xff, sizeof(TT_VAL) * (size_t)j->n); /* NaN: beta = 0 must not read it */
        if (j->Au) st = TN(auto_mv)(j->Au, (TT_VAL)1.5, j->x, (TT_VAL)0, y);
        else if (j->kernel) st = TN(any_mv_kernel)(j->M, (TT_VAL)1.5, j->x, (TT_VAL)0, y);
        else st = TN(any_mv)(j->M, (TT_VAL)1.5, j->x, (TT_VAL)0, y);
        if (st != SPMV_OK) j->err = 1;
        else if (memcmp(y, j->want, sizeof(TT_VAL) * (size_t)j->n)) j->bad = 1;
    }
    free(y);
    return NULL;
}
/* NTH pthreads on one handle; 1 when every product was right */
static int TF(_concurrent)(TN(any) *M, TN(auto) *Au, const TT_VAL *x, const TT_VAL *want, int64_t n,
                            int kernel, const char *what) {
    pthread_t th[NTH];
    TF(_job) jb[NTH];
    int i, ok = 1, started = 0;
    for (i = 0; i < NTH; i++) {
        jb[i].M = M, jb[i].Au = Au, jb[i].x = x, jb[i].want = want, jb[i].n = n, jb[i].kernel = kernel;
        jb[i].bad = jb[i].err = 0;
        if (pthread_create(&th[i], NULL, TF(_worker), &jb[i]) == 0) started++;
        else break;
    }
    for (i = 0; i < started; i++) pthread_join(th[i], NULL);
    for (i = 0; i < started; i++) ok &= !jb[i].bad && !jb[i].err;
    CHECK(started == NTH && ok, STR(TT_TAG) " %s: %d threads on one handle: %s", what, started,
          ok ? "ok" : "a product differed from the single caller's or failed");
    return ok;
}

/* inside the caller's parallel region: each call runs on its own thread alone and must give the
 * single-threaded product's bits */
static void TF(_in_region)(TN(any) * M, const TT_VAL *x, TT_VAL *want1, int64_t n, const char *what) {
    int bad = 0, nt = 0;
    spmv_status st;
    omp_set_num_threads(1);
    st = TN(any_mv)(M, (TT_VAL)1.5, x, (TT_VAL)0, want1);
    omp_set_num_threads(2);
#pragma omp parallel num_threads(3) reduction(|: bad) reduction(+: nt)
    {
        TT_VAL *y = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(n + 1));
        nt += 1;
        if (!y || TN(any_mv)(M, (TT_VAL)1.5, x, (TT_VAL)0, y) != SPMV_OK ||
            memcmp(y, want1, sizeof(TT_VAL) * (size_t)n))
            bad |= 1;
        free(y);
    }
    CHECK(st == SPMV_OK && !bad && nt == 3,
          STR(TT_TAG) " %s: products inside the caller's parallel region (%d threads): %s", what, nt,
          bad ? "differ from the single-threaded product" : "ok");
}

/* format f on backend isa: concurrent pthreads on one handle, then calls inside a parallel region */
static void TF(_format)(const TN(csr) * A, const TT_VAL *x, TT_VAL *want, TT_VAL *want1, int f, int isa,
                        const char *mname) {
    const int64_t n = A->nrows;
    const unsigned fl = spmv_format_flags((spmv_format)f);
    TN(any) M;
    const int emb = (fl & SPMV_FF_EMBEDS_X) != 0;
    char what[160];
    spmv_status st;
    snprintf(what, sizeof what, "%s %s [%s]", spmv_format_name((spmv_format)f), spmv_isa_name((spmv_isa)isa), mname);
    const spmv_opts bo = th_opts((spmv_format)f, (spmv_isa)isa, NULL);
    st = TN(any_from_csr)(&M, A, &bo, NULL);
    if (st == SPMV_ERR_LIMIT) return; /* a size cap: the format's own tests cover it */
    if ((fl & SPMV_FF_SYMMETRIC) && !TN(csr_is_symmetric)(A)) { /* sss: on the stencil */
        CHECK(st == SPMV_ERR_ARG, STR(TT_TAG) " %s: not symmetric, gave %s", what, spmv_status_str(st));
        if (st == SPMV_OK) TN(any_free)(&M);
        return;
    }
    CHECK(st == SPMV_OK, STR(TT_TAG) " %s: build: %s", what, spmv_status_str(st));
    if (st != SPMV_OK) return;
    if (emb) CHECK(TN(any_update_x)(&M, x) == SPMV_OK, STR(TT_TAG) " %s: update_x", what);
    /* the single caller's product, with the threads the workers' calls get */
    st = emb ? TN(any_mv_kernel)(&M, (TT_VAL)1.5, x, (TT_VAL)0, want) : TN(any_mv)(&M, (TT_VAL)1.5, x, (TT_VAL)0, want);
    CHECK(st == SPMV_OK, STR(TT_TAG) " %s: product: %s", what, spmv_status_str(st));
    if (st == SPMV_OK) TF(_concurrent)(&M, NULL, x, want, n, emb, what);
    if (!emb) TF(_in_region)(&M, x, want1, n, what);
    TN(any_free)(&M);
}

/* the automatic selection's handle from several pthreads */
static void TF(_auto)(const TN(csr) * A, const TT_VAL *x, TT_VAL *want, const char *mname) {
    TN(auto) Au;
    spmv_opts o = spmv_opts_default();
    spmv_status st = TN(auto_from_csr)(&Au, A, &o, NULL);
    CHECK(st == SPMV_OK, STR(TT_TAG) " auto [%s]: %s", mname, spmv_status_str(st));
    if (st == SPMV_OK) {
        char what[160];
        snprintf(what, sizeof what, "auto (%s) [%s]", spmv_format_name(Au.rep.chosen), mname);
        if (TN(auto_mv)(&Au, (TT_VAL)1.5, x, (TT_VAL)0, want) == SPMV_OK)
            TF(_concurrent)(NULL, &Au, x, want, A->nrows, 0, what);
        TN(auto_free)(&Au);
    }
}

/* every host format on every ISA the CPU runs, then the auto handle */
static void TF(_run)(const TN(csr) * A, const char *mname) {
    const int64_t n = A->nrows;
    TT_VAL *x = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(A->ncols + 1));
    TT_VAL *want = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(n + 1));
    TT_VAL *want1 = (TT_VAL *)malloc(sizeof(TT_VAL) * (size_t)(n + 1));
    int64_t i;
    int f, isa;
    if (!x || !want || !want1) abort();
    for (i = 0; i < A->ncols; i++) x[i] = (TT_VAL)(0.25 + (double)(i % 13) / 7);
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) continue;
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++)
            if (spmv_isa_supported((spmv_isa)isa)) TF(_format)(A, x, want, want1, f, isa, mname);
    }
    TF(_auto)(A, x, want, mname);
    free(x);
    free(want);
    free(want1);
}
#undef TN
#undef TF
#undef TT_TAG
#undef TT_VAL
#undef TT_IDX
