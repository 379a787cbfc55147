/* Per-precision part of the spmv tool; included by spmv.c once per tag (--precision):
 *   BT_TAG     the library's tag (s, d, ds, h, b, z, c)
 *   BT_VAL     its values' type; BT_VEC its vectors' (x, y, the sums; default BT_VAL)
 *   BT_CPLX    1 for a complex tag (its reference in long double complex)
 *   BT_ANCHORS 1 where the anchor libraries (bench/anchors.h) have the tag (s, d)
 *   BT_PREC    the CSV's precision column (default: the value type's name) */
#define BN(x) SPMV_CAT(SPMV_CAT3(spmv_, BT_TAG, _), x)
#define BF(x) SPMV_CAT3(tool_, BT_TAG, x)
#ifndef BT_VEC
#define BT_VEC BT_VAL
#endif
#ifndef BT_CPLX
#define BT_CPLX 0
#endif
#ifndef BT_ANCHORS
#define BT_ANCHORS 0
#endif
#ifndef BT_PREC
#define BT_PREC STR(BT_VAL)
#endif
#ifndef BT_TV /* a stored value as a double (a 16-bit tag converts) */
#define BT_TV(v) ((double)(v))
#endif
#if BT_CPLX
#define BT_REFT long double _Complex
#define BT_WIDE 2 /* reals a vector entry holds */
#else
#define BT_REFT long double
#define BT_WIDE 1
#endif
/* a tolerance of the vectors' real type: double 1e-12, float 1e-5 */
#define BT_TOL (sizeof(BT_VEC) == 8 * BT_WIDE ? 1e-12 : 1e-5)

static int BF(_cmp)(const void *a, const void *b) {
    double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
}

/* One contender of a matrix's round robin: the plain loop or an anchor library (bench/anchors.h),
 * a format x ISA, or the auto handle. */
typedef struct BF(_ct) {
    int kind; /* 0: anchor (index 0 = the plain loop, the "naive" row), 1: format, 2: auto */
    int op, direct;  /* --op (tool_opts.op); direct: mvt by any_mvt on A (csr), not a build from A^T */
    int64_t mmk;     /* --op mm: vectors per call (row-major, ld = mmk) */
    int anchor, embeds, k;            /* k: calls per timed sample */
    void *ah;                         /* anchor handle */
    BN(any) M;                        /* kind 1 */
    BN(auto) AU;                      /* kind 2 */
    int e2e_q;                        /* kind 2: selected for BF(_e2e_n)[e2e_q] products */
    char fname[32], params[96], isa_s[16];
    size_t fbytes;
    double fill, t_conv, t_tune, err;
    double gf_cache; /* GFLOP/s on an in-cache slice of the matrix (BF(_cache_rate)); 0: none */
    double *smp, *ksmp; /* per-call times: y = A*x as a solver pays it; the kernel alone (embedded x) */
    int ns, nk, cap;
    double acc; /* seconds spent in timed samples */
} BF(_ct);

static void BF(_call)(BF(_ct) * c, const BT_VEC *x, BT_VEC *y, int kernel) {
#if BT_ANCHORS
    if (c->kind == 0 && c->op) SPMV_CAT(spmv_anchor_op_, BT_TAG)(c->anchor, c->ah, c->op, (int)c->mmk, x, y);
    else if (c->kind == 0) SPMV_CAT(spmv_anchor_mv_, BT_TAG)(c->anchor, c->ah, x, y);
    else
#endif
    if (c->op == 2 && c->kind == 2) BN(auto_mm)(&c->AU, c->mmk, 1, x, c->mmk, 0, y, c->mmk, SPMV_ROW_MAJOR);
    else if (c->op == 2) BN(any_mm)(&c->M, c->mmk, 1, x, c->mmk, 0, y, c->mmk, SPMV_ROW_MAJOR);
    else if (c->direct) BN(any_mvt)(&c->M, 1, x, 0, y);
    else if (c->kind == 2) BN(auto_mv)(&c->AU, 1, x, 0, y);
    else if (kernel) BN(any_mv_kernel)(&c->M, 1, x, 0, y);
    else BN(any_mv)(&c->M, 1, x, 0, y);
}
static void BF(_ct_free)(BF(_ct) * c) {
    if (c->kind == 0 && c->ah) spmv_anchor_free(c->anchor, c->ah);
    if (c->kind == 1) BN(any_free)(&c->M);
    if (c->kind == 2) BN(auto_free)(&c->AU);
    free(c->smp);
    free(c->ksmp);
    memset(c, 0, sizeof *c);
}
/* one timed sample: a warm call, then k calls back to back; the time per call */
static double BF(_sample)(BF(_ct) * c, const BT_VEC *x, BT_VEC *y, int kernel) {
    double t0;
    int j;
    BF(_call)(c, x, y, kernel);
    t0 = spmv_wtime();
    for (j = 0; j < c->k; j++) BF(_call)(c, x, y, kernel);
    return (spmv_wtime() - t0) / c->k;
}
static double BF(_median)(double *t, int n, double q) {
    double pos;
    int i;
    if (n <= 0) return 0;
    qsort(t, (size_t)n, sizeof(double), BF(_cmp));
    pos = q * (n - 1);
    i = (int)pos;
    return i + 1 < n ? t[i] + (pos - i) * (t[i + 1] - t[i]) : t[i];
}
/* Round robin over the live contenders: each round visits them all in a fresh random order
 * (fixed seed), so that no contender always follows the same one: a contender that leaves
 * OpenMP workers spinning or a cache full of its own arrays then weighs on all the others
 * alike (a rotation by one each round kept c[i] after c[i-1] in all but one round of n); each
 * sample warmed by one call; rounds go on until every contender has min_reps samples and
 * min_s seconds of timed calls (--min-time, default 0.2). */
static int BF(_round_robin)(BF(_ct) * c, int n, const BT_VEC *x, BT_VEC *y, int min_reps, double min_s) {
    int i, round, ord[512];
    double t_start;
    unsigned long long rng = 0x9E3779B97F4A7C15ull;
    if (n > 512) return 1;
    for (i = 0; i < n; i++) ord[i] = i;
    /* calls per sample: ~100 us worth, so that tiny products are not timer-bound. The first
     * estimate from at least 10 us of calls: a single call of a few-entry matrix can read 0
     * on the clock, and k = 1 then needed millions of rounds to reach 0.2 s (a hang of minutes,
     * seen on a 3 x 3 matrix) */
    for (i = 0; i < n; i++) {
        double t1;
        int k = 1;
        for (;;) {
            c[i].k = k;
            t1 = BF(_sample)(&c[i], x, y, 0);
            if (t1 * k >= 1e-5 || k >= (1 << 20)) break;
            k *= 4;
        }
        c[i].k = t1 <= 0 ? (1 << 20) : t1 < 1e-4 ? (int)(1e-4 / t1 < (1 << 24) ? 1e-4 / t1 + 1 : (1 << 24)) : 1;
    }
    t_start = spmv_wtime();
    for (round = 0; round < 10000000; round++) {
        int done = 1, reps_done = 1;
        for (i = 0; i < n; i++) {
            if (c[i].ns < min_reps || c[i].acc < min_s) done = 0;
            if (c[i].ns < min_reps) reps_done = 0;
        }
        /* min_s each, but never more than 5 s in all once every contender has its samples */
        if (done || (reps_done && spmv_wtime() - t_start > 5.0)) break;
        for (i = n - 1; i > 0; i--) { /* Fisher-Yates, xorshift64 */
            int j, t;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            j = (int)(rng % (unsigned long long)(i + 1));
            t = ord[i];
            ord[i] = ord[j];
            ord[j] = t;
        }
        for (i = 0; i < n; i++) {
            BF(_ct) *ci = &c[ord[i]];
            double dt;
            if (ci->ns == ci->cap) {
                int nc = ci->cap ? 2 * ci->cap : 256;
                double *a = (double *)realloc(ci->smp, sizeof(double) * (size_t)nc), *b;
                if (a) ci->smp = a;
                b = (double *)realloc(ci->ksmp, sizeof(double) * (size_t)nc);
                if (b) ci->ksmp = b;
                if (!a || !b) return 1;
                ci->cap = nc;
            }
            dt = BF(_sample)(ci, x, y, 0);
            ci->smp[ci->ns++] = dt;
            ci->acc += dt * ci->k;
            /* a first estimate taken while the machine was busy can leave k at 1 for a call of
             * nanoseconds: more calls per sample until one lasts ~100 us (dt is per call) */
            if (dt * ci->k < 2e-5 && ci->k < (1 << 24)) ci->k *= 2;
            if (ci->embeds) { /* the kernel alone, x already in place (the papers' timing) */
                ci->ksmp[ci->nk++] = BF(_sample)(ci, x, y, 1);
            }
        }
    }
    return 0;
}

/* The in-cache rate of a format row: a slice of A's rows from its middle (columns shifted to
 * the window they touch) sized so that the format's bytes plus x and y fill a quarter of the
 * last-level cache, built with the same format, ISA and parameters, then timed alone, back to
 * back (nothing else runs in between to evict it): the median of 15 samples of >= 2 ms. What
 * the kernel does per entry once memory is out of the way; 0 when the slice cannot be built. */
static double BF(_cache_rate)(const BN(csr) * A, BN(any) * M) {
    const long llc = spmv_llc_bytes();
    const double fit = llc > 0 && llc / 4 < (8L << 20) ? (double)(llc / 4) : (double)(8L << 20);
    const double per_row = A->nrows ? ((double)BN(any_bytes)(M) + 2.0 * sizeof(BT_VEC) * (double)A->nrows) /
                                          (double)A->nrows
                                    : 1;
    int64_t k = (int64_t)(fit / (per_row > 1 ? per_row : 1)), r0, i, cmin, cmax;
    BN(csr) S;
    BN(any) C;
    spmv_opts o = spmv_opts_default();
    spmv_triplets t;
    BT_VEC *x = NULL, *y = NULL;
    double smp[15], gf = 0;
    char prm[128];
    int s, reps = 1;
    if (A->nnz == 0) return 0;
    if (k > A->nrows) k = A->nrows;
    if (k < 1) k = 1;
    r0 = (A->nrows - k) / 2;
    cmin = A->ncols;
    cmax = -1;
    for (i = A->row_ptr[r0]; i < A->row_ptr[r0 + k]; i++) {
        if (A->col_idx[i] < cmin) cmin = A->col_idx[i];
        if (A->col_idx[i] > cmax) cmax = A->col_idx[i];
    }
    if (cmax < 0) return 0;
    if (spmv_triplets_alloc(&t, k, cmax - cmin + 1, (int64_t)(A->row_ptr[r0 + k] - A->row_ptr[r0])) != SPMV_OK) return 0;
#if BT_CPLX
    if (!(t.vim = SPMV_ALLOC_N(double, (size_t)t.nnz + 1))) {
        spmv_triplets_free(&t);
        return 0;
    }
#endif
    for (i = 0; i < t.nnz; i++) {
        const int64_t e = A->row_ptr[r0] + i;
        t.col[i] = A->col_idx[e] - cmin;
#if BT_CPLX
        t.val[i] = (double)__real__ A->val[e], t.vim[i] = (double)__imag__ A->val[e];
#else
        t.val[i] = BT_TV(A->val[e]);
#endif
    }
    for (i = 0; i < k; i++) {
        int64_t e;
        for (e = A->row_ptr[r0 + i]; e < A->row_ptr[r0 + i + 1]; e++) t.row[e - A->row_ptr[r0]] = i;
    }
    s = BN(csr_from_triplets)(&S, &t, NULL, NULL) != SPMV_OK;
    spmv_triplets_free(&t);
    if (s) return 0;
    o.format = M->fmt;
    BN(any_params_str)(M, prm, sizeof prm);
    o.params = prm;
    if (BN(any_from_csr)(&C, &S, &o, NULL) == SPMV_OK) {
        x = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(S.ncols + 1));
        y = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(S.nrows + 1));
        if (x && y) {
            double t0, dt;
            for (i = 0; i < S.ncols; i++) x[i] = (BT_VEC)1 + (BT_VEC)(i % 7) / (BT_VEC)8;
            BN(any_mv)(&C, 1, x, 0, y);
            t0 = spmv_wtime();
            BN(any_mv)(&C, 1, x, 0, y);
            dt = spmv_wtime() - t0;
            reps = dt > 0 && dt < 2e-3 ? (int)(2e-3 / dt) + 1 : 1;
            for (s = 0; s < 15; s++) {
                int j;
                t0 = spmv_wtime();
                for (j = 0; j < reps; j++) BN(any_mv)(&C, 1, x, 0, y);
                smp[s] = (spmv_wtime() - t0) / reps;
            }
            dt = BF(_median)(smp, 15, 0.5);
            if (dt > 0) gf = 2.0 * (double)S.nnz / dt * 1e-9;
        }
        BN(any_free)(&C);
    }
    free(x);
    free(y);
    BN(csr_free)(&S);
    return gf;
}

/* one table row (and CSV line) */
static void BF(_row)(const tool_opts *o, const char *mname, const BN(csr) * Ap, const BF(_ct) * c, double t_mv,
                     double t_kern, double t_min, double spread, double t_naive, double tol, FILE *csv) {
    const BN(csr) A = *Ap;
    const double kk = o->op == 2 ? (double)o->mm_k : 1.0;
    double bytes, gbs;
    /* bytes a kernel must move: the format once, x once, y written once (k vectors each for mm) */
    bytes = (double)c->fbytes + kk * (double)sizeof(BT_VEC) * ((double)A.ncols + (double)A.nrows);
    gbs = bytes / t_mv * 1e-9;
    {
        double nnz = kk * (double)A.nnz, bpn = A.nnz ? (double)c->fbytes / (double)A.nnz : 0.0;
        double pct = o->bw_read > 0 ? 100.0 * gbs / o->bw_read : 0.0;
        char xn[32] = "", xnc[32] = ""; /* "-" (CSV: empty) when the plain loop's row was not run */
        if (t_naive > 0) {
            snprintf(xn, sizeof xn, "%5.2fx", t_naive / t_mv);
            snprintf(xnc, sizeof xnc, "%.4f", t_naive / t_mv);
        } else snprintf(xn, sizeof xn, "%6s", "-");
        printf("%-24.24s %9lld %9lld %10lld %-9s %-16.16s %-9s %3d %8.4f %7.1f %7.3f %10.3e %10.3e %4.0f%% %7.2f "
               "%6.2f %6.2f %5.2f %5.0f%% %s %9.2e %7.2f%s\n",
               mname, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, c->fname, c->params, c->isa_s,
               spmv_max_threads(), c->t_conv, c->t_conv / t_mv, c->t_tune, t_mv, t_kern, 100 * spread,
               2.0 * nnz / t_mv * 1e-9, gbs, bpn, c->fill, pct, xn, c->err, c->gf_cache, c->err <= tol ? "" : "  FAIL");
        if (csv)
            fprintf(csv, "\"%s\",%lld,%lld,%lld,%s,\"%s\",%s,%d,%s,%.6g,%.4g,%.6g,%.6g,%.6g,%.4f,%.4f,%.4f,%.4f,%.2f,%s,%.3e,,,%.6g,"
                         "%.4f,%d,%.4f,%s\n",
                    mname, (long long)A.nrows, (long long)A.ncols, (long long)A.nnz, c->fname, c->params, c->isa_s,
                    spmv_max_threads(), BT_PREC, c->t_conv, c->t_conv / t_mv, c->t_tune, t_mv, t_kern,
                    2.0 * nnz / t_mv * 1e-9, gbs, bpn, c->fill, pct, xnc, c->err, t_min, spread, c->ns, c->gf_cache,
                    o->op == 0 ? "mv" : o->op == 1 ? "mvt" : "mm");
    }
}

/* The contenders' results after a round robin: rows printed in the order they were made; the
 * baselines (the plain loop and the anchors) stay alive across groups, the rest is freed. */
/* end to end over N products (N = 100, 1000, 10000): what a user pays, conversion (or the
 * selection) plus N products: CSR's (no conversion: the user holds it), the automatic
 * handle's, and the best of every format row (the oracle) */
static const double BF(_e2e_n)[3] = {100, 1000, 10000};
typedef struct BF(_res) {
    double t_naive, t_best, t_csr, t_auto, t_anchor;
    char anchor_name[32];
    char best_name[64];
    int fails;
    double e2e_csr[3], e2e_auto[3], e2e_best[3];
    double e2e_mkl[3]; /* mkl_ie: its optimize (the conversion column) + N products */
    char e2e_name[3][48];
} BF(_res);
static void BF(_report)(const tool_opts *o, const char *mname, const BN(csr) * A, BF(_ct) * c, int n, int final,
                        double tol, BF(_res) * R, FILE *csv) {
    int i;
    for (i = 0; i < n; i++) { /* the plain loop's time first: every row's xnaive */
        if (c[i].kind == 0 && c[i].anchor == 0 && c[i].ns) R->t_naive = BF(_median)(c[i].smp, c[i].ns, 0.5);
    }
    for (i = 0; i < n; i++) {
        BF(_ct) *ci = &c[i];
        double t_mv, t_kern, t_min, spread;
        int base = ci->kind == 0;
        if (base && !final) continue; /* baselines: their samples add up over the groups */
        if (!ci->ns) continue;
        t_mv = BF(_median)(ci->smp, ci->ns, 0.5);
        spread = t_mv > 0 ? (BF(_median)(ci->smp, ci->ns, 0.75) - BF(_median)(ci->smp, ci->ns, 0.25)) / t_mv : 0;
        t_min = ci->smp[0]; /* sorted by _median */
        t_kern = ci->nk ? BF(_median)(ci->ksmp, ci->nk, 0.5) : t_mv;
        if (o->op != 0) ci->gf_cache = 0; /* the in-cache slice times y = Ax only */
        else if (ci->kind == 1 && !o->no_cache) ci->gf_cache = BF(_cache_rate)(A, &ci->M);
        else if (ci->kind == 2 && !o->no_cache) ci->gf_cache = BF(_cache_rate)(A, &ci->AU.h);
        BF(_row)(o, mname, A, ci, t_mv, t_kern, t_min, spread, R->t_naive, tol, csv);
        if (base && ci->anchor > 0 && ci->err <= tol && !strcmp(ci->fname, "mkl_ie")) {
            int q;
            for (q = 0; q < 3; q++) R->e2e_mkl[q] = ci->t_conv + BF(_e2e_n)[q] * t_mv;
        }
        if (base && ci->anchor > 0 && ci->err <= tol && (R->t_anchor <= 0 || t_mv < R->t_anchor)) {
            R->t_anchor = t_mv; /* the fastest anchor library */
            snprintf(R->anchor_name, sizeof R->anchor_name, "%.31s", ci->fname);
        }
        if (ci->kind == 2) { /* each auto row was selected for its own N */
            if (ci->e2e_q == 1) R->t_auto = t_mv;
            R->e2e_auto[ci->e2e_q] = ci->AU.rep.select_s + BF(_e2e_n)[ci->e2e_q] * t_mv;
        }
        if (ci->kind == 1 && ci->err <= tol) {
            int q;
            for (q = 0; q < 3; q++) {
                /* csr: the user already holds it, so no conversion (the handle's copy is not counted) */
                const double e = (strcmp(ci->fname, "csr") ? ci->t_conv + ci->t_tune : 0) + BF(_e2e_n)[q] * t_mv;
                if (R->e2e_best[q] <= 0 || e < R->e2e_best[q]) {
                    R->e2e_best[q] = e;
                    snprintf(R->e2e_name[q], sizeof R->e2e_name[q], "%.20s/%.16s", ci->fname, ci->isa_s);
                }
                if (!strcmp(ci->fname, "csr") && (R->e2e_csr[q] <= 0 || e < R->e2e_csr[q])) R->e2e_csr[q] = e;
            }
        }
        if (ci->kind == 1 && ci->err <= tol && (R->t_best < 0 || t_mv < R->t_best)) {
            R->t_best = t_mv;
            snprintf(R->best_name, sizeof R->best_name, "%s/%s", ci->fname, ci->isa_s);
        }
        if (ci->kind == 1 && !strcmp(ci->fname, "csr") && ci->err <= tol && (R->t_csr < 0 || t_mv < R->t_csr))
            R->t_csr = t_mv;
        fflush(stdout);
    }
}

/* the relative error of y against the reference; --op mm: its first and last columns (column
 * j of X is x * (1 + j/8), so the reference scales) */
static double BF(_err)(const BN(csr) * A, const BT_VEC *y, const BT_REFT *ref, const long double *scale, int64_t kk) {
    BT_VEC *col;
    BT_REFT *r2;
    long double *s2;
    double e = 0, ej;
    int64_t i, j;
    if (kk == 1) return BN(max_rel_err)(A->nrows, y, ref, scale);
    col = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(A->nrows + 1));
    r2 = (BT_REFT *)malloc(sizeof(BT_REFT) * (size_t)(A->nrows + 1));
    s2 = (long double *)malloc(sizeof(long double) * (size_t)(A->nrows + 1));
    if (!col || !r2 || !s2) {
        fprintf(stderr, "spmv: out of memory\n");
        exit(2);
    }
    for (j = 0; j < kk; j += kk - 1) {
        const long double c = 1.0L + (long double)j / 8.0L;
        for (i = 0; i < A->nrows; i++) {
            col[i] = y[i * kk + j];
            r2[i] = ref[i] * c;
            s2[i] = scale[i] * c;
        }
        ej = BN(max_rel_err)(A->nrows, col, r2, s2);
        e = ej > e || ej != ej ? ej : e;
    }
    free(col);
    free(r2);
    free(s2);
    return e;
}

/* Benchmarks every selected format x ISA, the plain loop, the anchor libraries and the auto
 * handle on one matrix, timed side by side (BF(_round_robin)); returns the number of failures. */
static int BF(_bench)(const tool_opts *o, const char *mname, const spmv_triplets *trip, FILE *csv,
                      double mem_budget, tool_summary *sum) {
    BN(csr) A, A0;
    const BN(csr) *src = &A; /* what the contenders are built from (the given matrix) */
    const int64_t kk = o->op == 2 ? o->mm_k : 1;
    spmv_csr_params rp = spmv_csr_params_default();
    spmv_status st;
    BT_VEC *x, *y;
    BT_REFT *ref;
    long double *scale;
    int64_t i;
    int f, isa, a, n = 0, nbase = 0, fails = 0, nmax = 8 + (SPMV_FMT_COUNT_ + 1) * SPMV_ISA_COUNT_;
    const double tol = BT_TOL;
    double live = 0;
    BF(_ct) *c;
    BF(_res) R;
    const char *auto_why = NULL;

    memset(&R, 0, sizeof R);
    R.t_best = R.t_csr = -1;
    rp.isa = SPMV_ISA_GENERIC;
    st = BN(csr_from_triplets)(&A, trip, &rp, NULL);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv: %s: %s\n", mname, spmv_status_str(st));
        return 1;
    }
    if (o->op == 1) { /* --op mvt: the product is A^T x; the reference and the sizes are A^T's */
        A0 = A;
        st = BN(csr_transpose)(&A, &A0);
        if (st != SPMV_OK) {
            fprintf(stderr, "spmv: %s: transpose: %s\n", mname, spmv_status_str(st));
            BN(csr_free)(&A0);
            return 1;
        }
        src = &A0;
    }
    x = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(A.ncols * kk + 1));
    y = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(A.nrows * kk + 1));
    ref = (BT_REFT *)malloc(sizeof(BT_REFT) * (size_t)(A.nrows + 1));
    scale = (long double *)malloc(sizeof(long double) * (size_t)(A.nrows + 1));
    c = (BF(_ct) *)calloc((size_t)nmax, sizeof *c);
    if (!x || !y || !ref || !scale || !c) {
        fprintf(stderr, "spmv: out of memory\n");
        exit(2);
    }
    for (i = 0; i < A.ncols; i++) x[i] = (BT_VEC)(1.0 + (double)((i * 7919) % 1000) / 1000.0);
#if BT_CPLX /* imaginary parts too */
    for (i = 0; i < A.ncols; i++) __imag__ x[i] = (double)((i * 104729) % 1000) / 2000.0;
#endif
    BN(csr_mv_ref)(&A, 1, x, 0, NULL, ref, scale);
    if (kk > 1) { /* --op mm: X row-major, column j = x * (1 + j/8); its result is ref's multiple */
        for (i = A.ncols - 1; i >= 0; i--) {
            int64_t j;
            for (j = 0; j < kk; j++) x[i * kk + j] = x[i] * (BT_VEC)(1.0 + (double)j / 8.0);
        }
    }
    if (o->op != 0) printf("# %s: --op %s%s: the plain loop times y = Ax only (not run); the anchors run their own "
                           "%s\n", mname, o->op == 1 ? "mvt" : "mm", o->op == 1 ? " (y = A^T x)" : "",
                           o->op == 1 ? "transpose product" : "product with k vectors, where they have one");

    /* baselines: the plain loop (anchor 0, the "naive" row) and the anchor libraries present */
#if !BT_ANCHORS
    printf("# %s: precision %s: no anchor rows (the plain loop and the libraries are s and d)\n", mname, BT_PREC);
#else
    for (a = 0; a < spmv_anchor_count() && n < nmax; a++) {
        BF(_ct) *ci = &c[n];
        char err[256] = "";
        double t0;
        if (!o->formats[a == 0 ? 0 : TOOL_ANCHOR_FLAG(a)] || (o->op != 0 && a == 0)) continue;
        if (!spmv_anchor_available(a)) continue; /* the notice is in the header */
        if (strstr(spmv_anchor_name(a), "_sym") && (o->op != 0 || BN(csr_is_symmetric)(src) != 1))
            continue; /* the symmetric anchors: y = A x on symmetric matrices only (see the header) */
        ci->kind = 0;
        ci->anchor = a;
        snprintf(ci->fname, sizeof ci->fname, "%s", a == 0 ? "naive" : spmv_anchor_name(a));
        snprintf(ci->params, sizeof ci->params, "%s", spmv_anchor_info(a));
        snprintf(ci->isa_s, sizeof ci->isa_s, "%s", a == 0 ? "compiler" : "anchor");
        fprintf(stderr, "  %s %s...%s", mname, ci->fname, tool_cr());
        t0 = spmv_wtime();
        /* (--op mvt: on the given matrix, asked for its transpose product) */
        ci->ah = SPMV_CAT(spmv_anchor_create_, BT_TAG)(a, (int32_t)src->nrows, (int32_t)src->ncols, src->row_ptr,
                                                       src->col_idx, src->val, spmv_max_threads(), err, sizeof err);
        ci->t_conv = a == 0 ? 0 : spmv_wtime() - t0;
        if (!ci->ah) {
            fprintf(stderr, "spmv: %s: %s: %s\n", mname, ci->fname, err);
            fails++;
            memset(ci, 0, sizeof *ci);
            continue;
        }
        ci->fbytes = a == 0 ? BN(csr_bytes)(&A) : spmv_anchor_bytes(a, ci->ah);
        if (!ci->fbytes) ci->fbytes = BN(csr_bytes)(&A);
        ci->fill = 1;
        ci->op = o->op;
        ci->mmk = kk;
        if (o->op != 0 && SPMV_CAT(spmv_anchor_op_, BT_TAG)(a, ci->ah, o->op, (int)kk, x, y) == -3) {
            printf("# %s: %s has no %s: no row\n", mname, ci->fname, o->op == 1 ? "transpose product" : "SpMM");
            spmv_anchor_free(a, ci->ah);
            memset(ci, 0, sizeof *ci);
            continue;
        }
        for (i = 0; i < A.nrows * kk; i++) y[i] = (BT_VEC)NAN;
        BF(_call)(ci, x, y, 0);
        ci->err = BF(_err)(&A, y, ref, scale, kk);
        if (!(ci->err <= tol)) fails++;
        live += (double)ci->fbytes;
        n++;
    }
#endif
    nbase = n;
    /* the formats, in groups that fit in memory: a group is timed (with the baselines) and freed
     * when the next conversion could pass the budget */
    for (f = 0; f <= SPMV_FMT_COUNT_; f++) {
        int redo = 0; /* --op mvt: csr twice per ISA, built from A^T and then its own csr_mvt on A */
        for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {
            BF(_ct) *ci;
            double t0;
            int is_auto = f == SPMV_FMT_COUNT_, direct = redo;
            redo = 0;
            if (is_auto) {
                /* three rows, selected for 100, 1000 ("auto") and 10000 products */
                if (!o->formats[SPMV_FMT_COUNT_ + 1] || isa - SPMV_ISA_GENERIC > 2) break;
            } else {
                if (!o->formats[f + 1]) break;
                if (!(spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)) break; /* device only */
                if (!spmv_isa_supported((spmv_isa)isa)) continue;
                if (!o->isas[isa]) { /* --isa auto: the ISA the format builds with by default */
                    spmv_isa pick = SPMV_ISA_GENERIC;
                    if (!o->isas[SPMV_ISA_AUTO] ||
                        spmv_isa_for((spmv_format)f, BN(isa_key)(), 4, SPMV_ISA_AUTO, &pick, NULL) != SPMV_OK ||
                        (int)pick != isa)
                        continue;
                }
            }
            if (n > nbase && (n == nmax || (mem_budget > 0 && live + 3.0 * (double)BN(csr_bytes)(&A) > mem_budget))) {
                if (BF(_round_robin)(c, n, x, y, o->reps, o->min_time)) {
                    fprintf(stderr, "spmv: out of memory\n");
                    exit(2);
                }
                BF(_report)(o, mname, &A, c, n, 0, tol, &R, csv);
                while (n > nbase) {
                    live -= (double)c[n - 1].fbytes;
                    BF(_ct_free)(&c[--n]);
                }
            }
            ci = &c[n];
            memset(ci, 0, sizeof *ci);
            if (is_auto) {
                spmv_opts ao = spmv_opts_default();
                spmv_error ae;
                char p[80];
                const int q = isa - SPMV_ISA_GENERIC;
                if (o->threads) ao.threads = o->threads;
                /* the user holds A (csr's row pays no conversion either) */
                ao.borrow = 1;
                ao.expected_calls = BF(_e2e_n)[q];
                ao.calibration = o->no_calibration;
                ao.transpose = o->op == 1;
                ao.mm_k = o->op == 2 ? (int)kk : 0;
                fprintf(stderr, "  %s auto...%s", mname, tool_cr());
                st = BN(auto_from_csr)(&ci->AU, src, &ao, &ae);
                if (st != SPMV_OK) {
                    fprintf(stderr, "spmv: %s: auto: %s (%s)\n", mname, spmv_status_str(st), ae.msg);
                    fails++;
                    break;
                }
                ci->kind = 2;
                ci->e2e_q = q;
                snprintf(ci->fname, sizeof ci->fname, q == 1 ? "auto" : q == 0 ? "auto@100" : "auto@10000");
                BN(any_params_str)(&ci->AU.h, p, sizeof p);
                snprintf(ci->params, sizeof ci->params, "%s%s%s", spmv_format_name(ci->AU.rep.chosen), p[0] ? ":" : "", p);
                snprintf(ci->isa_s, sizeof ci->isa_s, "%s", spmv_isa_name(BN(any_isa)(&ci->AU.h)));
                ci->t_conv = ci->AU.rep.select_s;
                ci->fbytes = BN(any_bytes)(&ci->AU.h);
                ci->fill = A.nnz ? (double)BN(any_stored)(&ci->AU.h) / (double)A.nnz : 1.0;
                if (q == 1) auto_why = ci->AU.rep.why;
            } else {
                const char *fname = spmv_format_name((spmv_format)f);
                spmv_opts bo = spmv_opts_default();
                spmv_error be;
                bo.format = (spmv_format)f;
                bo.isa = (spmv_isa)isa;
                bo.tune = o->tune != 0;
                /* --op mvt: every format built from A^T; csr also by its own csr_mvt on A (direct) */
                ci->direct = o->op == 1 && direct;
                bo.transpose = o->op == 1 && !ci->direct;
                fprintf(stderr, "  %s %s %s...%s", mname, fname, spmv_isa_name((spmv_isa)isa), tool_cr());
                t0 = spmv_wtime();
                st = BN(any_from_csr)(&ci->M, src, &bo, &be);
                ci->t_tune = ci->M.tune_s;
                ci->t_conv = spmv_wtime() - t0 - ci->t_tune; /* the search is reported on its own */
                /* a row not run says why in the table itself (a comment line), not only on stderr */
                if (st == SPMV_ERR_LIMIT) { /* a documented size cap (ELL's padding): not a failure */
                    printf("# %s %s %s: not run: %s\n", mname, fname, spmv_isa_name((spmv_isa)isa), be.msg);
                    continue;
                }
                if (st == SPMV_ERR_ARG && (spmv_format_flags((spmv_format)f) & SPMV_FF_SYMMETRIC) &&
                    BN(csr_is_symmetric)(src) != 1) { /* sss: symmetric matrices only, not a failure */
                    printf("# %s %s: not run: the matrix is not symmetric\n", mname, fname);
                    break;
                }
                if (st != SPMV_OK) {
                    printf("# %s %s %s: FAILED: %s (%s)\n", mname, fname, spmv_isa_name((spmv_isa)isa),
                           spmv_status_str(st), be.msg);
                    fprintf(stderr, "spmv: %s: %s: %s: %s\n", mname, fname, spmv_status_str(st), be.msg);
                    fails++;
                    continue;
                }
                ci->kind = 1;
                snprintf(ci->fname, sizeof ci->fname, "%s", fname);
                snprintf(ci->isa_s, sizeof ci->isa_s, "%s", spmv_isa_name((spmv_isa)isa));
                ci->fbytes = BN(any_bytes)(&ci->M);
                ci->fill = A.nnz ? (double)BN(any_stored)(&ci->M) / (double)A.nnz : 1.0;
                BN(any_params_str)(&ci->M, ci->params, sizeof ci->params);
                if (ci->direct) snprintf(ci->params + strlen(ci->params), sizeof ci->params - strlen(ci->params), ",mvt");
                else if (o->op == 1) snprintf(ci->params + strlen(ci->params), sizeof ci->params - strlen(ci->params), ",A^T");
                ci->embeds = o->op != 2 && BN(any_embeds_x)(&ci->M);
            }
            ci->op = o->op;
            ci->mmk = kk;
            for (i = 0; i < A.nrows * kk; i++) y[i] = (BT_VEC)NAN;
            BF(_call)(ci, x, y, 0);
            ci->err = BF(_err)(&A, y, ref, scale, kk);
            if (ci->embeds) { /* the kernel alone must give the same y once x is in place */
                BN(any_update_x)(&ci->M, x);
                for (i = 0; i < A.nrows; i++) y[i] = (BT_VEC)NAN;
                BF(_call)(ci, x, y, 1);
                if (!(BN(max_rel_err)(A.nrows, y, ref, scale) <= tol)) ci->err = INFINITY;
            }
            if (!(ci->err <= tol)) fails++;
            live += (double)ci->fbytes;
            n++;
            if (o->op == 1 && f == SPMV_FMT_CSR && !direct) {
                redo = 1;
                isa--;
            }
        }
    }
    if (n > 0) {
        if (BF(_round_robin)(c, n, x, y, o->reps, o->min_time)) {
            fprintf(stderr, "spmv: out of memory\n");
            exit(2);
        }
        BF(_report)(o, mname, &A, c, n, 1, tol, &R, csv);
    }
    if (auto_why) {
        BF(_ct) *ca = NULL;
        for (a = 0; a < n; a++)
            if (c[a].kind == 2 && c[a].e2e_q == 1) ca = &c[a];
        if (ca)
            printf("# auto on %s: chose %s in %.3g s (%.1f SpMVs, %d timed): %s; oracle %s: auto/oracle time %.3f, "
                   "auto/csr %.3f\n",
                   mname, spmv_format_name(ca->AU.rep.chosen), ca->AU.rep.select_s,
                   R.t_auto > 0 ? ca->AU.rep.select_s / R.t_auto : 0.0, ca->AU.rep.trials, ca->AU.rep.why,
                   R.best_name[0] ? R.best_name : "-", R.t_best > 0 ? R.t_auto / R.t_best : 0.0,
                   R.t_csr > 0 ? R.t_auto / R.t_csr : 0.0);
        if (ca && R.e2e_csr[0] > 0 && R.e2e_best[0] > 0) {
            int q;
            printf("# end to end on %s (selection or conversion + N products):", mname);
            for (q = 0; q < 3; q++)
                printf(" N=%.0f: auto %.3fx csr, %.3fx the oracle (%s)%s", BF(_e2e_n)[q], R.e2e_auto[q] / R.e2e_csr[q],
                       R.e2e_auto[q] / R.e2e_best[q], R.e2e_name[q], q < 2 ? ";" : "\n");
        }
        if (ca && R.e2e_mkl[0] > 0 && R.e2e_auto[0] > 0) {
            int q;
            printf("# end to end on %s against mkl_ie (its optimize + N products; > 1: the selection ahead):", mname);
            for (q = 0; q < 3; q++)
                printf(" N=%.0f: %.3fx%s", BF(_e2e_n)[q], R.e2e_mkl[q] / R.e2e_auto[q], q < 2 ? ";" : "\n");
        }
    }
    if (sum) { /* the summary line of this matrix (cmd_bench prints them at the end) */
        memset(sum, 0, sizeof *sum);
        snprintf(sum->matrix, sizeof sum->matrix, "%.47s", mname);
        snprintf(sum->best, sizeof sum->best, "%.47s", R.best_name[0] ? R.best_name : "-");
        snprintf(sum->anchor, sizeof sum->anchor, "%.31s", R.anchor_name[0] ? R.anchor_name : "-");
        sum->t_best = R.t_best, sum->t_csr = R.t_csr, sum->t_naive = R.t_naive, sum->t_anchor = R.t_anchor;
        sum->e2e_auto = R.e2e_auto[1], sum->e2e_csr = R.e2e_csr[1], sum->e2e_mkl = R.e2e_mkl[1];
    }
    for (a = 0; a < n; a++) BF(_ct_free)(&c[a]);
    free(c);
    if (tool_tty()) fprintf(stderr, "%60s\r", "");
    BN(csr_free)(&A);
    if (o->op == 1) BN(csr_free)(&A0);
    free(x); free(y); free(ref); free(scale);
    return fails;
}

/* y = A*x with one format, for `spmv mv` (x and y in double; the double vectors' instantiations
 * use them directly, the float ones convert; a complex tag takes x and gives y as (re, im)
 * pairs: xin holds 2 * ncols * kk doubles, yout 2 * nrows * kk). */
static int BF(_mv)(const spmv_triplets *trip, const spmv_opts *bo, int tri, int64_t kk, const double *xin,
                   double *yout) {
    spmv_error e;
    BN(csr) A;
    BN(any) M;
    BN(auto) Au; /* bo NULL (--format auto): M is its handle */
    BT_VEC *x = NULL, *y = NULL;
    const int same = sizeof(BT_VEC) == sizeof(double) && !BT_CPLX, is_auto = !bo;
    int64_t i;
    spmv_status st;
    /* tri: trip holds one triangle of a symmetric file, bo a symmetric format: A stays empty */
    memset(&A, 0, sizeof A);
    st = tri ? SPMV_OK : BN(csr_from_triplets)(&A, trip, NULL, NULL);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv mv: %s\n", spmv_status_str(st));
        return 1;
    }
    if (tri) A.nrows = (int32_t)trip->nrows, A.ncols = (int32_t)trip->ncols;
    memset(&Au, 0, sizeof Au);
    if (tri) {
        st = BN(any_from_triangle)(&M, trip, bo, &e);
    } else if (is_auto) {
        st = BN(auto_from_csr)(&Au, &A, NULL, &e);
        if (st == SPMV_OK) {
            fprintf(stderr, "spmv mv: auto: %s (%s)\n", spmv_format_name(Au.rep.chosen), Au.rep.why);
            M = Au.h;
        }
    } else {
        st = BN(any_from_csr)(&M, &A, bo, &e);
    }
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv mv: %s: %s%s%s\n", is_auto ? "auto" : spmv_format_name(bo->format),
                spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
        BN(csr_free)(&A);
        return 1;
    }
    if (same) {
        x = (BT_VEC *)(void *)(uintptr_t)xin; /* only read */
        y = (BT_VEC *)(void *)yout;
    } else {
        x = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(A.ncols * kk + 1));
        y = (BT_VEC *)malloc(sizeof(BT_VEC) * (size_t)(A.nrows * kk + 1));
        if (!x || !y) {
            fprintf(stderr, "spmv mv: out of memory\n");
            free(x);
            free(y);
            if (is_auto) BN(auto_free)(&Au);
            else BN(any_free)(&M);
            BN(csr_free)(&A);
            return 1;
        }
#if BT_CPLX
        for (i = 0; i < A.ncols * kk; i++) __real__ x[i] = xin[2 * i], __imag__ x[i] = xin[2 * i + 1];
#else
        for (i = 0; i < A.ncols * kk; i++) x[i] = (BT_VEC)xin[i];
#endif
    }
    /* k vectors (column-major, as the file holds them): the handle's SpMM */
    st = kk == 1 ? BN(any_mv)(&M, 1, x, 0, y) : BN(any_mm)(&M, kk, 1, x, A.ncols, 0, y, A.nrows, SPMV_COL_MAJOR);
    if (!same) {
#if BT_CPLX
        for (i = 0; i < A.nrows * kk; i++) yout[2 * i] = (double)__real__ y[i], yout[2 * i + 1] = (double)__imag__ y[i];
#else
        for (i = 0; i < A.nrows * kk; i++) yout[i] = (double)y[i];
#endif
        free(x);
        free(y);
    }
    if (is_auto) BN(auto_free)(&Au);
    else BN(any_free)(&M);
    BN(csr_free)(&A);
    if (st != SPMV_OK) fprintf(stderr, "spmv mv: %s\n", spmv_status_str(st));
    return st != SPMV_OK;
}
/* `spmv plan`: the selection on one matrix; the report into *R (the handle is freed) */
static spmv_status BF(_plan)(const spmv_triplets *trip, const spmv_opts *ao, const char *save, const char *load,
                             spmv_auto_report *R, spmv_error *e, int *plan_err) {
    BN(csr) A;
    BN(auto) M;
    spmv_status st = BN(csr_from_triplets)(&A, trip, NULL, NULL);
    memset(R, 0, sizeof *R);
    if (st != SPMV_OK) {
        snprintf(R->why, sizeof R->why, "to CSR: %s", spmv_status_str(st));
        snprintf(e->msg, sizeof e->msg, "%s", R->why);
        return st;
    }
    st = load ? BN(auto_from_plan)(&M, &A, load, e) : BN(auto_from_csr)(&M, &A, ao, e);
    if (st == SPMV_OK && load && M.rep.opts.transpose != ao->transpose) { /* the handle would hold A^T, or A */
        snprintf(e->msg, sizeof e->msg, "the plan '%.100s' was made for --op %s; this run asks for --op %s", load,
                 M.rep.opts.transpose ? "mvt" : "mv", ao->transpose ? "mvt" : "mv");
        st = SPMV_ERR_ARG;
    }
    if (st != SPMV_OK && load) *plan_err = 1;
    if (st == SPMV_OK && save) {
        st = BN(auto_plan_save)(&M, &A, save, e);
        if (st != SPMV_OK) snprintf(M.rep.why, sizeof M.rep.why, "saving the plan: %.150s", e->msg);
        if (st != SPMV_OK) *plan_err = 1;
    }
    *R = M.rep;
    BN(auto_free)(&M);
    BN(csr_free)(&A);
    return st;
}
#undef BN
#undef BF
#undef BT_TAG
#undef BT_VAL
#undef BT_VEC
#undef BT_CPLX
#undef BT_ANCHORS
#undef BT_PREC
#undef BT_REFT
#undef BT_WIDE
#undef BT_TOL
#undef BT_TV
