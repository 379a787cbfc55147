/* The checks of tests/cuda/test_cuda_mixed.cu for one tag: MT (ds, h, b; z, c with TM_CPLX), its
 * vectors' type MV (the host's), MD the device API's (MV, or spmv_cuda_z / spmv_cuda_c for a complex
 * tag: the same layout), MLIM the magnitude its values are scaled below when the converter refuses
 * them as out of range. */
#define N(x) SPMV_CAT3(spmv_, MT, _##x)
#define TNAME SPMV_STR(MT)

static int64_t N(longest)(const N(csr) * A) {
    int64_t m = 0;
    for (int64_t r = 0; r < (int64_t)A->nrows; r++)
        if ((int64_t)(A->row_ptr[r + 1] - A->row_ptr[r]) > m) m = (int64_t)(A->row_ptr[r + 1] - A->row_ptr[r]);
    return m;
}

/* suraa's uploads on this tag, and those whose layout had rows in G1, G2, G3 (N(suraa_report)) */
static int64_t N(suraa_ups), N(suraa_grp)[3];

/* one product on the device: y = alpha*D*x + beta*y0 (mode 0), the transpose (1) */
static spmv_status N(dev_mv)(const N(any_dev) * D, int mode, MV alpha, const MV *x, int64_t nx, MV beta, const MV *y0,
                            MV *y, int64_t ny) {
    MV *dx = tm_up(x, nx), *dy = tm_up(y0, ny);
    spmv_status st = SPMV_ERR_CUDA;
    if (dx && dy) {
        st = mode ? N(any_dev_mvt)(D, (MD)alpha, (MD *)dx, (MD)beta, (MD *)dy, 0)
                  : N(any_dev_mv)(D, (MD)alpha, (MD *)dx, (MD)beta, (MD *)dy, 0);
        if (st == SPMV_OK && !(cuda_ok(cudaDeviceSynchronize(), "sync") && tm_down(y, dy, ny))) st = SPMV_ERR_CUDA;
    }
    cudaFree(dx);
    cudaFree(dy);
    return st;
}

/* Y = alpha*D*X + beta*Y0 with k vectors (lay), each column (or row) checked like one product */
static void N(dev_mm)(const char *name, const N(csr) * A, const N(any_dev) * D, spmv_format f, const char *fname,
                      spmv_layout lay, const MV *x, double bound) {
    const int64_t k = 3, nr = A->nrows, nc = A->ncols;
    MV *X = (MV *)malloc(sizeof(MV) * (size_t)(nc * k + 1)), *Y = (MV *)malloc(sizeof(MV) * (size_t)(nr * k + 1));
    MV *xj = (MV *)malloc(sizeof(MV) * (size_t)(nc + 1)), *yj = (MV *)malloc(sizeof(MV) * (size_t)(nr + 1));
    if (!X || !Y || !xj || !yj) abort();
    for (int64_t i = 0; i < nc * k; i++) X[i] = x[i % (nc > 0 ? nc : 1)] * (MV)(1 + (i / (nc > 0 ? nc : 1)));
    const int cm = lay == SPMV_COL_MAJOR;
    MV *dX = tm_up(X, nc * k), *dY = tm_up(Y, nr * k);
    spmv_status st = SPMV_ERR_CUDA;
    if (dX && dY) {
        st = N(any_dev_mm)(D, k, (MD)(MV)-0.7, (MD *)dX, cm ? (nc > 0 ? nc : 1) : k, (MD)(MV)0, (MD *)dY,
                           cm ? (nr > 0 ? nr : 1) : k, lay, 0);
        if (st == SPMV_OK && !(cuda_ok(cudaDeviceSynchronize(), "sync") && tm_down(Y, dY, nr * k))) st = SPMV_ERR_CUDA;
    }
    if (st == SPMV_ERR_UNSUPPORTED && !cm) { /* row-major where the format has no native SpMM */
        CHECK(!(spmv_format_flags(f) & SPMV_FF_DEV_MM), "%s: %s %s mm row-major refused", name,
              TNAME, fname);
    } else {
        double worst = 0;
        for (int64_t j = 0; st == SPMV_OK && j < k; j++) {
            for (int64_t i = 0; i < nc; i++) xj[i] = cm ? X[j * nc + i] : X[i * k + j];
            for (int64_t i = 0; i < nr; i++) yj[i] = cm ? Y[j * nr + i] : Y[i * k + j];
            const double e = N(csr_mv_err)(A, (MV)-0.7, xj, (MV)0, NULL, yj);
            worst = e > worst ? e : worst;
        }
        CHECK(st == SPMV_OK && worst <= bound, "%s: %s %s mm (%s): %s, error %.3g > %.3g", name, TNAME,
              fname, cm ? "column-major" : "row-major", spmv_status_str(st), worst, bound);
    }
    cudaFree(dX);
    cudaFree(dY);
    free(X), free(Y), free(xj), free(yj);
}

/* every device row of the tag on A: products, an infinity in x, SpMM, the transpose;
 * sym: the symmetric-only rows alone (A + A^T of a matrix the others ran on). suraa runs with
 * its defaults and with child=32 and child=0 (the G1 budget: G2 gets the long segments beyond
 * it), so that its three groups run on the cases that have long rows (N(suraa_report)) */
static void N(products)(const char *name, const N(csr) * A, int sym) {
    static const MV ab[][2] = {{1, 0}, {(MV)-0.75, 2}, {(MV)-0.7, (MV)1.3}};
    const double bound = ((double)N(longest)(A) + TM_SLACK) * TM_U(MV);
    const int64_t nr = A->nrows, nc = A->ncols;
    MV *x = (MV *)malloc(sizeof(MV) * (size_t)(nc + 1)), *y0 = (MV *)malloc(sizeof(MV) * (size_t)(nr + 1));
    MV *y = (MV *)malloc(sizeof(MV) * (size_t)(nr + nc + 1));
    if (!x || !y0 || !y) abort();
    for (int64_t i = 0; i < nc; i++) x[i] = TM_XV(MV);
    static const char *suraa_params[] = {NULL, "child=32", "child=0"};
    for (int fv = 0; fv < (SPMV_FMT_COUNT_ + 2) && !gpu_dead; fv++) {
        /* fv: the rows in registry order, suraa's two variants after them */
        const int f = fv < SPMV_FMT_COUNT_ ? fv : SPMV_FMT_SURAA, pv = fv < SPMV_FMT_COUNT_ ? 0 : fv - SPMV_FMT_COUNT_ + 1;
        const unsigned fl = spmv_format_flags((spmv_format)f);
        if (!(fl & SPMV_FF_CUDA) || !N(any_dev_has)((spmv_format)f) || (sym && !th_sym(f))) continue;
        spmv_opts o = spmv_opts_default();
        N(any_dev) D;
        spmv_error e;
        char fname[64];
        o.format = (spmv_format)f;
        o.params = f == SPMV_FMT_SURAA ? suraa_params[pv] : NULL;
        if (o.params) snprintf(fname, sizeof fname, "%s(%s)", spmv_format_name((spmv_format)f), o.params);
        else snprintf(fname, sizeof fname, "%s", spmv_format_name((spmv_format)f));
        spmv_status st = N(any_dev_from_csr)(&D, A, &o, &e, 0);
        if (th_sym(f) && N(csr_is_symmetric)(A) != 1) {
            CHECK(st == SPMV_ERR_ARG, "%s: %s %s refuses a matrix that is not symmetric: %s", name, TNAME,
                  fname, spmv_status_str(st));
            if (st == SPMV_OK) N(any_dev_free)(&D);
            continue;
        }
        if (st == SPMV_ERR_LIMIT) continue; /* the skew cap, bcsr/dia fill: refused with a reason */
        CHECK(st == SPMV_OK, "%s: %s %s upload: %s (%s)", name, TNAME, fname,
              spmv_status_str(st), e.msg);
        if (st != SPMV_OK) continue;
        if (f == SPMV_FMT_SURAA) { /* which of its groups this layout has */
            const N(suraa_dev) *U = &D.u.suraa;
            N(suraa_ups)++;
            N(suraa_grp)[0] += U->g1_end > 0;
            N(suraa_grp)[1] += U->g2_end > U->g1_end;
            N(suraa_grp)[2] += U->nrows > U->g2_end;
        }
        for (size_t j = 0; j < sizeof ab / sizeof ab[0]; j++) {
            for (int64_t i = 0; i < nr; i++) y0[i] = ab[j][1] == 0 ? (MV)NAN : (MV)th_rval();
            st = N(dev_mv)(&D, 0, ab[j][0], x, nc, ab[j][1], y0, y, nr);
            const double err = st == SPMV_OK ? N(csr_mv_err)(A, ab[j][0], x, ab[j][1], y0, y) : INFINITY;
            CHECK(st == SPMV_OK && err <= bound, "%s: %s %s alpha %g beta %g: %s, error %.3g > %.3g", name, TNAME,
                  fname, (double)__real__ ab[j][0], (double)__real__ ab[j][1], spmv_status_str(st), err, bound);
        }
        if (nc > 0) {
            const MV keep = x[nc / 2];
            x[nc / 2] = (MV)INFINITY;
            st = N(dev_mv)(&D, 0, (MV)-0.7, x, nc, 0, y0, y, nr);
            const double err = st == SPMV_OK ? N(csr_mv_err)(A, (MV)-0.7, x, 0, NULL, y) : INFINITY;
            CHECK(st == SPMV_OK && err <= bound, "%s: %s %s an infinity in x: %s, error %.3g > %.3g", name, TNAME,
                  fname, spmv_status_str(st), err, bound);
            x[nc / 2] = keep;
        }
        N(dev_mm)(name, A, &D, (spmv_format)f, fname, SPMV_COL_MAJOR, x, bound);
        N(dev_mm)(name, A, &D, (spmv_format)f, fname, SPMV_ROW_MAJOR, x, bound);
        { /* the transpose, against the reference of A^T */
            N(csr) At;
            MV *xt = (MV *)malloc(sizeof(MV) * (size_t)(nr + 1));
            if (!xt || N(csr_transpose)(&At, A) != SPMV_OK) abort();
            for (int64_t i = 0; i < nr; i++) xt[i] = TM_XV(MV);
            MV *yt0 = (MV *)calloc((size_t)nc + 1, sizeof(MV));
            if (!yt0) abort();
            for (int64_t i = 0; i < nc; i++) yt0[i] = (MV)th_rval();
            st = N(dev_mv)(&D, 1, (MV)1.5, xt, nr, (MV)-1, yt0, y, nc);
            if (st == SPMV_ERR_UNSUPPORTED) {
                CHECK(!(fl & SPMV_FF_CSR) && !th_sym(f), "%s: %s %s: no device transpose product (%s)", name, TNAME,
                      fname, spmv_status_str(st));
            } else {
                const double err = st == SPMV_OK ? N(csr_mv_err)(&At, (MV)1.5, xt, (MV)-1, yt0, y) : INFINITY;
                const double bt = ((double)N(longest)(&At) + TM_SLACK) * TM_U(MV);
                CHECK(st == SPMV_OK && err <= bt, "%s: %s %s transpose: %s, error %.3g > %.3g", name, TNAME,
                      fname, spmv_status_str(st), err, bt);
            }
            N(csr_free)(&At);
            free(xt);
            free(yt0);
        }
        N(any_dev_free)(&D);
    }
    if (!sym && !gpu_dead) { /* the device selection over the tag's rows */
        N(auto_dev) M;
        spmv_error e;
        spmv_status st = N(auto_dev_from_csr)(&M, A, NULL, &e, 0);
        CHECK(st == SPMV_OK, "%s: %s auto_dev: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
        if (st == SPMV_OK) {
            for (int64_t i = 0; i < nr; i++) y0[i] = (MV)th_rval();
            MV *dx = tm_up(x, nc), *dy = tm_up(y0, nr);
            st = dx && dy ? N(auto_dev_mv)(&M, (MD)(MV)-0.75, (MD *)dx, (MD)(MV)0, (MD *)dy, 0) : SPMV_ERR_CUDA;
            if (st == SPMV_OK && !(cuda_ok(cudaDeviceSynchronize(), "sync") && tm_down(y, dy, nr))) st = SPMV_ERR_CUDA;
            const double err = st == SPMV_OK ? N(csr_mv_err)(A, (MV)-0.75, x, 0, NULL, y) : INFINITY;
            CHECK(st == SPMV_OK && err <= bound, "%s: %s auto_dev (%s): %s, error %.3g > %.3g", name, TNAME,
                  spmv_format_name(N(auto_dev_format)(&M)), spmv_status_str(st), err, bound);
            cudaFree(dx);
            cudaFree(dy);
            N(auto_dev_free)(&M);
        }
    }
    free(x);
    free(y0);
    free(y);
}

/* a matrix as this tag (scaled by a power of two below MLIM when the converter refuses it as out of
 * range), its products, and those of the symmetric-only rows on A + A^T */
static void N(case)(const char *name, const spmv_triplets *t) {
    spmv_triplets u = *t;
    double *vals = NULL, *vim = NULL;
    N(csr) A;
    spmv_error e;
    spmv_status st;
#ifdef TM_CPLX /* imaginary parts of both signs (complex tags) */
    vim = (double *)malloc(sizeof(double) * (size_t)(t->nnz + 1));
    if (!vim) abort();
    for (int64_t k = 0; k < t->nnz; k++) vim[k] = t->val[k] * (double)(k % 5 - 2) / 3.0;
    u.vim = vim;
#endif
    st = N(csr_from_triplets)(&A, &u, NULL, &e);
    if (st == SPMV_ERR_OVERFLOW && tm_max_abs(t) > MLIM) {
        const double s = ldexp(1.0, -(int)ceil(log2(tm_max_abs(t) / MLIM)));
        vals = (double *)malloc(sizeof(double) * (size_t)(t->nnz + 1));
        if (!vals) abort();
        for (int64_t k = 0; k < t->nnz; k++) vals[k] = t->val[k] * s;
        for (int64_t k = 0; vim && k < t->nnz; k++) vim[k] *= s;
        u.val = vals;
        st = N(csr_from_triplets)(&A, &u, NULL, &e);
    }
    CHECK(st == SPMV_OK, "%s: %s csr_from_triplets: %s (%s)", name, TNAME, spmv_status_str(st), e.msg);
    if (st == SPMV_OK) {
        N(products)(name, &A, 0);
        if (th_sym_dev_any() && A.nrows == A.ncols && N(csr_is_symmetric)(&A) != 1) {
            spmv_triplets w, ur = u;
            ur.vim = NULL; /* the pattern and real parts; a complex tag's mirrored pairs share an imaginary part */
            th_rng_save();
            if (th_symmetrize(&ur, &w)) {
#ifdef TM_CPLX
                const int64_t half = w.nnz / 2; /* entry k and half + k mirror each other */
                w.vim = (double *)spmv__calloc((size_t)w.nnz + 1, sizeof(double));
                if (!w.vim) abort();
                for (int64_t k = 0; k < half; k++) w.vim[k] = w.vim[half + k] = w.val[k] * (double)(k % 3 - 1) / 4.0;
#endif
                N(csr) S;
                char nm[600];
                snprintf(nm, sizeof nm, "%s + its transpose", name);
                st = N(csr_from_triplets)(&S, &w, NULL, &e);
                CHECK(st == SPMV_OK, "%s: %s csr_from_triplets: %s (%s)", nm, TNAME, spmv_status_str(st), e.msg);
                if (st == SPMV_OK) N(products)(nm, &S, 1);
                if (st == SPMV_OK) N(csr_free)(&S);
                spmv_triplets_free(&w);
            }
            th_rng_restore();
        }
        N(csr_free)(&A);
    }
    free(vals);
    free(vim);
}
/* suraa ran on this tag (every device row of its families does), and each of its groups on some case */
static void N(suraa_report)(void) {
    printf("%s suraa: %lld uploads (defaults, child=32, child=0), with rows in G1 %lld, G2 %lld, G3 %lld\n", TNAME,
           (long long)N(suraa_ups), (long long)N(suraa_grp)[0], (long long)N(suraa_grp)[1], (long long)N(suraa_grp)[2]);
    CHECK(N(any_dev_has)(SPMV_FMT_SURAA) && N(suraa_ups) > 0, "%s: suraa never ran (%lld uploads)", TNAME,
          (long long)N(suraa_ups));
    for (int g = 0; g < 3; g++)
        CHECK(N(suraa_grp)[g] > 0, "%s: suraa's G%d ran on no case", TNAME, g + 1);
}
#undef N
#undef TNAME
