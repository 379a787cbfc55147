/* Per-precision part of the spmv tool; included by spmv.c once per (BT_TAG, BT_VAL). */
#define BN(x) SPMV_CAT(SPMV_CAT3(spmv_, BT_TAG, _), x)
#define BF(x) SPMV_CAT3(tool_, BT_TAG, x)

/* The row loop a user would write: the bench's baseline. */
static void BF(_naive)(const BN(csr) * A, const BT_VAL *x, BT_VAL *y) {
    int32_t r;
#pragma omp parallel for schedule(static)
    for (r = 0; r < A->nrows; r++) {
        BT_VAL s = 0;
        int32_t k;
        for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) s += A->val[k] * x[A->col_idx[k]];
        y[r] = s;
    }
}

static int BF(_cmp)(const void *a, const void *b) {
    double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
}

/* Median time of one SpMV: warm-up, then repetitions until min_reps and ~0.2 s. */
/* kernel: formats embedding x run their kernel only (x scattered beforehand). */
static void BF(_once)(BN(any) * M, const BN(csr) * A, const BT_VAL *x, BT_VAL *y, int kernel) {
    if (!M) BF(_naive)(A, x, y);
    else if (kernel) BN(any_mv_kernel)(M, 1, x, 0, y);
    else BN(any_mv)(M, 1, x, 0, y);
}
static double BF(_last_min); /* the fastest sample of the last BF(_time) */
static double BF(_time)(BN(any) * M, const BN(csr) * A, const BT_VAL *x, BT_VAL *y, int min_reps, int kernel) {
    double *t = NULL, total = 0, med;
    int n = 0, cap = 0, i;
    for (i = 0; i < 3; i++) BF(_once)(M, A, x, y, kernel);
    while (n < min_reps || (total < 0.2 && n < 1000000)) {
        double t0 = spmv_wtime(), dt;
        BF(_once)(M, A, x, y, kernel);
        dt = spmv_wtime() - t0;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            t = (double *)realloc(t, sizeof(double) * (size_t)cap);
            if (!t) return -1;
        }
        t[n++] = dt;
        total += dt;
    }
    qsort(t, (size_t)n, sizeof(double), BF(_cmp));
    med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    BF(_last_min) = t[0];
    free(t);
    return med;
}

/* one table row (and CSV line) */
static void BF(_row)(const tool_opts *o, const char *mname, const BN(csr) * Ap, const char *fname, const char *params,
                     const char *isa_s, size_t fbytes, double fill, double t_conv, double t_tune, double t_mv,
                     double t_kern, double t_min, double t_naive, double err, double tol, FILE *csv) {
    const BN(csr) A = *Ap;
    double bytes, gbs;
    /* bytes a kernel must move: the format once, x once, y written once */
    bytes = (double)fbytes + (double)sizeof(BT_VAL) * ((double)A.ncols + (double)A.nrows);
    gbs = bytes / t_mv * 1e-9;
    {
        double nnz = (double)A.nnz, bpn = A.nnz ? (double)fbytes / nnz : 0.0;
        double pct = o->bw_read > 0 ? 100.0 * gbs / o->bw_read : 0.0;
        printf("%-24.24s %9lld %9lld %10lld %-9s %-16.16s %-9s %3d %8.4f %7.1f %7.3f %10.3e %10.3e %7.2f %6.2f "
               "%6.2f %5.2f %5.0f%% %5.2fx %9.2e%s\n",
               mname, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, fname, params, isa_s,
               spmv_max_threads(), t_conv, t_conv / t_mv, t_tune, t_mv, t_kern, 2.0 * nnz / t_mv * 1e-9, gbs,
               bpn, fill, pct, t_naive > 0 ? t_naive / t_mv : 0.0, err, err <= tol ? "" : "  FAIL");
        if (csv)
            fprintf(csv, "\"%s\",%lld,%lld,%lld,%s,\"%s\",%s,%d,%s,%.6g,%.4g,%.6g,%.6g,%.6g,%.4f,%.4f,%.4f,%.4f,%.2f,%.4f,%.3e,,,%.6g\n",
                    mname, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, fname, params, isa_s,
                    spmv_max_threads(), STR(BT_VAL), t_conv, t_conv / t_mv, t_tune, t_mv, t_kern,
                    2.0 * nnz / t_mv * 1e-9, gbs, bpn, fill, pct, t_naive > 0 ? t_naive / t_mv : 0.0, err, t_min);
    }
}

/* The auto row: the automatic selection with its defaults (formats/auto.h), its whole cost in
 * the convert column, then the chosen handle timed like every row; a comment line puts it
 * beside the run's oracle (the fastest row of this matrix) and CSR. */
static int BF(_auto_row)(const tool_opts *o, const char *mname, const BN(csr) * A, const BT_VAL *x, BT_VAL *y,
                         const long double *ref, const long double *scale, double tol, double t_naive, double t_best,
                         const char *best_name, double t_csr, FILE *csv) {
    BN(auto) M;
    spmv_auto_opts ao = spmv_auto_opts_default();
    char params[96];
    double err, t_mv, t_kern;
    int64_t i;
    spmv_status st;
    if (o->threads) ao.threads = o->threads;
    fprintf(stderr, "  %s auto...\r", mname);
    st = BN(auto_from_csr)(&M, A, &ao);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv: %s: auto: %s (%s)\n", mname, spmv_status_str(st), M.rep.why);
        return 1;
    }
    {
        char p[80];
        BN(any_params)(&M.h, p, sizeof p);
        snprintf(params, sizeof params, "%s%s%s", spmv_format_name(M.rep.chosen), p[0] ? ":" : "", p);
    }
    for (i = 0; i < A->nrows; i++) y[i] = (BT_VAL)NAN;
    BN(auto_mv)(&M, 1, x, 0, y);
    err = BN(max_rel_err)(A->nrows, y, ref, scale);
    t_mv = t_kern = BF(_time)(&M.h, A, x, y, o->reps, 0);
    BF(_row)(o, mname, A, "auto", params, spmv_isa_name(BN(any_isa)(&M.h)), BN(any_bytes)(&M.h),
             A->nnz ? (double)BN(any_stored)(&M.h) / (double)A->nnz : 1.0, M.rep.select_s, 0, t_mv, t_kern,
             BF(_last_min), t_naive, err, tol, csv);
    printf("# auto on %s: chose %s in %.3g s (%.1f SpMVs, %d timed): %s; oracle %s: auto/oracle time %.3f, "
           "auto/csr %.3f\n",
           mname, spmv_format_name(M.rep.chosen), M.rep.select_s, t_mv > 0 ? M.rep.select_s / t_mv : 0.0, M.rep.trials,
           M.rep.why, best_name[0] ? best_name : "-", t_best > 0 ? t_mv / t_best : 0.0, t_csr > 0 ? t_mv / t_csr : 0.0);
    BN(auto_free)(&M);
    return !(err <= tol);
}

/* Benchmarks every selected format x ISA on one matrix; returns number of failures. */
static int BF(_bench)(const tool_opts *o, const char *mname, const spmv_triplets *trip, FILE *csv) {
    BN(csr) A;
    spmv_csr_params rp = spmv_csr_params_default();
    spmv_status st;
    BT_VAL *x, *y;
    long double *ref, *scale;
    int64_t i;
    int f, isa, fails = 0;
    const double tol = sizeof(BT_VAL) == 8 ? 1e-12 : 1e-5;
    double t_naive = 0, t_best = -1, t_csr = -1;
    char best_name[64] = "";

    rp.isa = SPMV_ISA_GENERIC;
    st = BN(csr_from_triplets)(&A, trip, &rp);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv: %s: %s\n", mname, spmv_status_str(st));
        return 1;
    }
    x = (BT_VAL *)malloc(sizeof(BT_VAL) * (size_t)(A.ncols + 1));
    y = (BT_VAL *)malloc(sizeof(BT_VAL) * (size_t)(A.nrows + 1));
    ref = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    scale = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    if (!x || !y || !ref || !scale) {
        fprintf(stderr, "spmv: out of memory\n");
        exit(2);
    }
    for (i = 0; i < A.ncols; i++) x[i] = (BT_VAL)(1.0 + (double)((i * 7919) % 1000) / 1000.0);
    BN(csr_mv_ref)(&A, 1, x, 0, NULL, ref, scale);

    for (f = -1; f < SPMV_FMT_COUNT_; f++) {
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            BN(any) M;
            double t0, t_conv, t_mv, t_kern = 0, t_tune = 0, err, t_min = 0;
            size_t fbytes;
            double fill = 1; /* stored value slots per entry (padding, fill) */
            char params[96];
            const char *fname = f < 0 ? "naive" : spmv_format_name((spmv_format)f);
            if (!o->formats[f + 1]) break;
            if (f >= 0 && !(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) break; /* device only */
            if (f < 0) {
                if (isa != SPMV_ISA_GENERIC) break; /* naive: the compiler's code, once */
            } else if (!o->isas[isa] || !spmv_isa_supported((spmv_isa)isa)) {
                continue;
            }
            fprintf(stderr, "  %s %s %s...\r", mname, fname, f < 0 ? "" : spmv_isa_name((spmv_isa)isa));
            if (f < 0) {
                t_conv = 0;
                fbytes = BN(csr_bytes)(&A);
                snprintf(params, sizeof params, "omp-for");
                for (i = 0; i < A.nrows; i++) y[i] = (BT_VAL)NAN;
                BF(_naive)(&A, x, y);
                t_mv = BF(_time)(NULL, &A, x, y, o->reps, 0);
                t_min = BF(_last_min);
                t_naive = t_kern = t_mv;
            } else {
                t0 = spmv_wtime();
                st = o->tune ? BN(any_from_csr_tuned)(&M, &A, (spmv_format)f, (spmv_isa)isa, &t_tune)
                             : BN(any_from_csr)(&M, &A, (spmv_format)f, (spmv_isa)isa);
                t_conv = spmv_wtime() - t0 - t_tune; /* the search is reported on its own */
                if (st == SPMV_ERR_LIMIT) { /* a documented size cap (ELL's padding): not a failure */
                    fprintf(stderr, "spmv: %s: %s: not run: %s\n", mname, fname, spmv_status_str(st));
                    continue;
                }
                if (st != SPMV_OK) {
                    fprintf(stderr, "spmv: %s: %s: %s\n", mname, fname, spmv_status_str(st));
                    fails++;
                    continue;
                }
                fbytes = BN(any_bytes)(&M);
                fill = A.nnz ? (double)BN(any_stored)(&M) / (double)A.nnz : 1.0;
                BN(any_params)(&M, params, sizeof params);
                for (i = 0; i < A.nrows; i++) y[i] = (BT_VAL)NAN;
                BN(any_mv)(&M, 1, x, 0, y);
                t_mv = -1;
            }
            err = BN(max_rel_err)(A.nrows, y, ref, scale);
            if (f >= 0) {
                /* spmv_s: what a solver pays per product (x copied in by formats embedding
                   it); kernel_s: the product alone */
                t_mv = BF(_time)(&M, &A, x, y, o->reps, 0);
                t_min = BF(_last_min);
                t_kern = t_mv;
                if (BN(any_embeds_x)(&M)) {
                    BN(any_update_x)(&M, x);
                    t_kern = BF(_time)(&M, &A, x, y, o->reps, 1);
                    if (!(BN(max_rel_err)(A.nrows, y, ref, scale) <= tol)) err = INFINITY;
                }
                BN(any_free)(&M);
            }
            if (!(err <= tol)) fails++;
            BF(_row)(o, mname, &A, fname, params, f < 0 ? "compiler" : spmv_isa_name((spmv_isa)isa), fbytes, fill,
                     t_conv, t_tune, t_mv, t_kern, t_min, t_naive, err, tol, csv);
            if (f >= 0 && err <= tol && (t_best < 0 || t_mv < t_best)) {
                t_best = t_mv;
                snprintf(best_name, sizeof best_name, "%s/%s", fname, spmv_isa_name((spmv_isa)isa));
            }
            if (f == SPMV_FMT_CSR && err <= tol && (t_csr < 0 || t_mv < t_csr)) t_csr = t_mv;
            fflush(stdout);
        }
    }
    if (o->formats[SPMV_FMT_COUNT_ + 1]) fails += BF(_auto_row)(o, mname, &A, x, y, ref, scale, tol, t_naive, t_best,
                                                               best_name, t_csr, csv);
    fprintf(stderr, "%60s\r", "");
    BN(csr_free)(&A);
    free(x); free(y); free(ref); free(scale);
    return fails;
}

/* y = A*x with one format, for `spmv mv` (x and y in double; the double instantiation uses
 * them directly, the float one converts). */
static int BF(_mv)(const spmv_triplets *trip, spmv_format fmt, const char *params, const double *xin, double *yout) {
    spmv_error e;
    BN(csr) A;
    BN(any) M;
    BT_VAL *x = NULL, *y = NULL;
    const int same = sizeof(BT_VAL) == sizeof(double);
    int64_t i;
    spmv_status st = BN(csr_from_triplets)(&A, trip, NULL);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv mv: %s\n", spmv_status_str(st));
        return 1;
    }
    memset(&e, 0, sizeof e);
    st = BN(any_from_csr_params)(&M, &A, fmt, SPMV_ISA_AUTO, params, 0, NULL, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv mv: %s: %s%s%s\n", spmv_format_name(fmt), spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
        BN(csr_free)(&A);
        return 1;
    }
    if (same) {
        x = (BT_VAL *)(void *)(uintptr_t)xin; /* only read */
        y = (BT_VAL *)(void *)yout;
    } else {
        x = (BT_VAL *)malloc(sizeof(BT_VAL) * (size_t)(A.ncols + 1));
        y = (BT_VAL *)malloc(sizeof(BT_VAL) * (size_t)(A.nrows + 1));
        if (!x || !y) {
            fprintf(stderr, "spmv mv: out of memory\n");
            free(x);
            free(y);
            BN(any_free)(&M);
            BN(csr_free)(&A);
            return 1;
        }
        for (i = 0; i < A.ncols; i++) x[i] = (BT_VAL)xin[i];
    }
    st = BN(any_mv)(&M, 1, x, 0, y);
    if (!same) {
        for (i = 0; i < A.nrows; i++) yout[i] = (double)y[i];
        free(x);
        free(y);
    }
    BN(any_free)(&M);
    BN(csr_free)(&A);
    if (st != SPMV_OK) fprintf(stderr, "spmv mv: %s\n", spmv_status_str(st));
    return st != SPMV_OK;
}
/* `spmv plan`: the selection on one matrix; the report into *R (the handle is freed) */
static spmv_status BF(_plan)(const spmv_triplets *trip, const spmv_auto_opts *ao, spmv_auto_report *R) {
    BN(csr) A;
    BN(auto) M;
    spmv_status st = BN(csr_from_triplets)(&A, trip, NULL);
    memset(R, 0, sizeof *R);
    if (st != SPMV_OK) {
        snprintf(R->why, sizeof R->why, "to CSR: %s", spmv_status_str(st));
        return st;
    }
    st = BN(auto_from_csr)(&M, &A, ao);
    *R = M.rep;
    BN(auto_free)(&M);
    BN(csr_free)(&A);
    return st;
}
#undef BN
#undef BF
#undef BT_TAG
#undef BT_VAL
