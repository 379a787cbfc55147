/* Automatic selection (formats/auto.h): the chosen handle's product against the long-double
 * reference on the edge cases and every real matrix (SPMV_TEST_MAX_NNZ caps them), tags s
 * and d; the deterministic mode's choice reproducible and its products bit-identical; the
 * budget (below one trial: CSR, nothing timed); the expected number of products (1: no
 * conversion can pay); bad options; the thread count restored; allocation failure at every
 * point of a selection leaks nothing. No timing is asserted.
 * The per-type body: tests/test_auto_case.h. */
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

/* format f with its defaults */
static spmv_status th_any(spmv_d_any *M, const spmv_d_csr *A, spmv_format f) {
    const spmv_opts o = th_opts(f, SPMV_ISA_AUTO, NULL);
    return spmv_d_any_from_csr(M, A, &o, NULL);
}

static int quiet_real; /* per-matrix lines only on failure */

#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#include "test_auto_case.h"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#include "test_auto_case.h"

/* options, budget, expected products, threads, borrow, NULL arguments (tag d) */
/* a losing slice format's pages take CSR's copy (auto__to_csr): the handle is CSR with A's
 * entries, bit for bit CSR's products; over 1.5 slots per entry it is refused */
static void donor_case(const spmv_d_csr *A) {
    static const spmv_format donors[] = {SPMV_FMT_SELL, SPMV_FMT_JAD, SPMV_FMT_HLL, SPMV_FMT_ELL};
    size_t di;
    double *xx = malloc(sizeof(double) * ((size_t)A->ncols + 1)), *y1 = malloc(sizeof(double) * ((size_t)A->nrows + 1)),
           *y2 = malloc(sizeof(double) * ((size_t)A->nrows + 1));
    CHECK(xx && y1 && y2, "malloc");
    for (di = 0; xx && y1 && y2 && di < sizeof donors / sizeof donors[0]; di++) {
        spmv_d_any H, C;
        int64_t q, slots;
        int ok;
        if (th_any(&H, A, donors[di]) != SPMV_OK) continue;
        if (th_any(&C, A, SPMV_FMT_CSR) != SPMV_OK) {
            spmv_d_any_free(&H);
            continue;
        }
        slots = spmv_d_ell_stored(spmv_d_auto__ell(&H));
        ok = slots <= A->nnz + A->nnz / 2;
        CHECK(spmv_d_auto__donor(&H, A) == ok, "donor %s: %lld slots for %lld entries, said %d",
              spmv_format_name(donors[di]), (long long)slots, (long long)A->nnz, !ok);
        if (ok) {
            const double *v0 = spmv_d_auto__ell(&H)->val;
            CHECK(spmv_d_auto__to_csr(&H, A) == SPMV_OK && H.fmt == SPMV_FMT_CSR && H.u.csr.val == v0 &&
                      !H.u.csr.borrowed && H.u.csr.params.isa == C.u.csr.params.isa &&
                      H.u.csr.rows_kind == C.u.csr.rows_kind && H.u.csr.nnz == A->nnz,
                  "to_csr from %s: fmt %s", spmv_format_name(donors[di]), spmv_format_name(H.fmt));
            CHECK(spmv_d_csr_check(&H.u.csr) == SPMV_OK &&
                      !memcmp(H.u.csr.col_idx, A->col_idx, sizeof(int32_t) * (size_t)A->nnz) &&
                      !memcmp(H.u.csr.row_ptr, A->row_ptr, sizeof(int32_t) * ((size_t)A->nrows + 1)),
                  "to_csr from %s: not A's arrays", spmv_format_name(donors[di]));
            for (q = 0; q < A->ncols; q++) xx[q] = 1.0 / (double)(q + 3);
            for (q = 0; q < A->nrows; q++) y1[q] = y2[q] = (double)q;
            spmv_d_any_mv(&H, 1.5, xx, 0.25, y1);
            spmv_d_any_mv(&C, 1.5, xx, 0.25, y2);
            CHECK(!memcmp(y1, y2, sizeof(double) * (size_t)A->nrows), "to_csr from %s: products differ from CSR's",
                  spmv_format_name(donors[di]));
        }
        spmv_d_any_free(&H);
        spmv_d_any_free(&C);
    }
    free(xx);
    free(y1);
    free(y2);
}

static void options(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_d_auto M;
    spmv_opts o, bad[9];
    const char *what[9] = {"expected_calls 0", "budget -1", "budget NaN", "x_changes 2", "threads -1",
                           "isa 99", "deterministic 2", "borrow 2", "min_seconds -1"};
    spmv_status st;
    int i;
    CHECK(spmv_gen("band:n=3000,bw=3", &t, &e) == SPMV_OK, "gen band");
    CHECK(spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "band to CSR");
    spmv_triplets_free(&t);
    for (i = 0; i < 9; i++) bad[i] = spmv_opts_default();
    bad[0].expected_calls = 0;
    bad[1].budget = -1;
    bad[2].budget = NAN;
    bad[3].x_changes = 2;
    bad[4].threads = -1;
    bad[5].isa = (spmv_isa)99;
    bad[6].deterministic = 2;
    bad[7].borrow = 2;
    bad[8].min_seconds = -1;
    for (i = 0; i < 9; i++) {
        st = spmv_d_auto_from_csr(&M, &A, &bad[i], &e);
        CHECK(st == SPMV_ERR_ARG && M.h.fmt == 0 && e.msg[0], "%s: got %s, error '%s'", what[i], spmv_status_str(st),
              e.msg);
        CHECK(spmv_opts_check(&bad[i], &e) == SPMV_ERR_ARG && e.msg[0], "%s: opts_check", what[i]);
        spmv_d_auto_free(&M);
    }
    CHECK(spmv_d_auto_from_csr(NULL, &A, NULL, NULL) == SPMV_ERR_ARG, "NULL handle");
    CHECK(spmv_d_auto_from_csr(&M, NULL, NULL, &e) == SPMV_ERR_ARG && strstr(e.msg, "NULL"), "NULL matrix: '%s'",
          e.msg);
    CHECK(spmv_d_auto_mv(NULL, 1, NULL, 0, NULL) == SPMV_ERR_ARG, "NULL handle mv");
    /* budget below one trial: CSR, nothing timed; with borrow the arrays are A's */
    o = spmv_opts_default();
    o.budget = 1;
    o.borrow = 1;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    CHECK(st == SPMV_OK && M.rep.chosen == SPMV_FMT_CSR && M.rep.trials == 0 && M.h.u.csr.val == A.val,
          "budget 1: %s, chose %s with %d trials (%s)", spmv_status_str(st), spmv_format_name(M.rep.chosen),
          M.rep.trials, M.rep.why);
    CHECK(test_d_check_mv(&M, &A, 1, 0, NULL) <= 1e-12, "budget 1: product");
    spmv_d_auto_free(&M);
    CHECK(A.val != NULL && A.val[0] == A.val[0], "borrowed arrays survive the handle's free");
    o.borrow = 0;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    CHECK(st == SPMV_OK && M.rep.chosen == SPMV_FMT_CSR && M.h.u.csr.val != A.val && !M.h.u.csr.borrowed,
          "budget 1 without borrow: a copy");
    spmv_d_auto_free(&M);
    /* a losing csr_merge kept as CSR's copy: the row kernel's handle on the same arrays, whose
       products are CSR's bit for bit */
    {
        spmv_d_any H, C;
        double *xx = malloc(sizeof(double) * ((size_t)A.ncols + 1)), *y1 = malloc(sizeof(double) * ((size_t)A.nrows + 1)),
               *y2 = malloc(sizeof(double) * ((size_t)A.nrows + 1));
        int64_t q;
        const double *v0;
        CHECK(xx && y1 && y2, "malloc");
        if (xx && y1 && y2 && th_any(&H, &A, SPMV_FMT_CSR_MERGE) == SPMV_OK &&
            th_any(&C, &A, SPMV_FMT_CSR) == SPMV_OK) {
            v0 = H.u.csr_merge.val;
            spmv_d_auto__merge_to_rows(&H);
            CHECK(H.fmt == SPMV_FMT_CSR && H.u.csr.params.algo == SPMV_CSR_ROWS && H.u.csr.val == v0 &&
                      H.u.csr.params.isa == C.u.csr.params.isa && H.u.csr.rows_kind == C.u.csr.rows_kind &&
                      H.u.csr.part_nt == C.u.csr.part_nt,
                  "merge_to_rows: fmt %s, algo %d, rows_kind %d against %d", spmv_format_name(H.fmt),
                  (int)H.u.csr.params.algo, H.u.csr.rows_kind, C.u.csr.rows_kind);
            for (q = 0; q < A.ncols; q++) xx[q] = 1.0 / (double)(q + 3);
            for (q = 0; q < A.nrows; q++) y1[q] = y2[q] = (double)q;
            spmv_d_any_mv(&H, 1.5, xx, 0.25, y1);
            spmv_d_any_mv(&C, 1.5, xx, 0.25, y2);
            CHECK(!memcmp(y1, y2, sizeof(double) * (size_t)A.nrows), "merge_to_rows: products differ from CSR's");
            spmv_d_any_free(&H);
            spmv_d_any_free(&C);
        }
        free(xx);
        free(y1);
        free(y2);
    }
    donor_case(&A);
    /* one expected product: by the rules nothing pays its conversion */
    o = spmv_opts_default();
    o.deterministic = 1;
    o.expected_calls = 1;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    CHECK(st == SPMV_OK && M.rep.chosen == SPMV_FMT_CSR, "expected_calls 1: chose %s", spmv_format_name(M.rep.chosen));
    spmv_d_auto_free(&M);
    /* many expected products on a band: the rules pick a diagonal format */
    o.expected_calls = 1e6;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    CHECK(st == SPMV_OK && !strcmp(spmv_format_family(M.rep.chosen), "dia"), "band, 1e6 products: chose %s (%s)",
          spmv_format_name(M.rep.chosen), M.rep.why);
    CHECK(test_d_check_mv(&M, &A, 1, 0, NULL) <= 1e-12, "band: product");
    spmv_d_auto_free(&M);
    /* a large budget (and products enough to pay any conversion, which a slow build's overrun
       scaling could otherwise rule out): every shortlisted format is converted and timed */
    o = spmv_opts_default();
    o.budget = 1e9;
    o.expected_calls = 1e9;
    o.min_seconds = 10;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    CHECK(st == SPMV_OK && M.rep.trials >= 2, "budget 1e9: %d of %d candidates timed", M.rep.trials, M.rep.ncand);
    for (i = 0; i < M.rep.ncand; i++)
        CHECK(M.rep.cand[i].tried != 0, "budget 1e9: %s not tried (%s)", spmv_format_name(M.rep.cand[i].fmt),
              M.rep.cand[i].skip ? M.rep.cand[i].skip : "");
    spmv_d_auto_free(&M);
    /* the cap counts products of the fastest format timed (CSR's at first), floored at min_seconds */
    o = spmv_opts_default();
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    {
        double fastest = M.rep.csr_spmv_s, want;
        for (i = 0; i < M.rep.ncand; i++)
            if (M.rep.cand[i].tried == 1 && M.rep.cand[i].spmv_s < fastest) fastest = M.rep.cand[i].spmv_s;
        want = o.budget * fastest < o.min_seconds ? o.min_seconds : o.budget * fastest;
        if (want > M.rep.risk_s) want = M.rep.risk_s; /* what looking may cost */
        CHECK(st == SPMV_OK && ((fastest > 0 && fabs(M.rep.budget_s - want) <= 1e-12 * want) ||
                                (M.rep.trials == 0 && strstr(M.rep.why, "CSR un"))),
              "budget: %.6g s in the report, %.6g s = min(max(min_seconds, %g x the fastest product %.6g s), "
              "what looking may cost %.6g s) (%s)", M.rep.budget_s, want, o.budget, fastest, M.rep.risk_s, M.rep.why);
    }
    spmv_d_auto_free(&M);
    /* x fixed: the AXT formats (which embed x) join the shortlist */
    o = spmv_opts_default();
    o.x_changes = 0;
    st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
    {
        int axt = 0;
        for (i = 0; i < M.rep.ncand; i++) axt += (spmv_format_flags(M.rep.cand[i].fmt) & SPMV_FF_EMBEDS_X) != 0;
        CHECK(st == SPMV_OK && axt > 0, "x_changes 0: no format embedding x on the shortlist");
        CHECK(test_d_check_mv(&M, &A, 1, 0, NULL) <= 1e-12, "x_changes 0: product with %s", spmv_format_name(M.rep.chosen));
    }
    spmv_d_auto_free(&M);
    /* thread count: trials at 1 thread, the caller's setting restored */
#ifdef _OPENMP
    {
        int before = omp_get_max_threads();
        o = spmv_opts_default();
        o.threads = 1;
        st = spmv_d_auto_from_csr(&M, &A, &o, NULL);
        CHECK(st == SPMV_OK && omp_get_max_threads() == before, "threads 1: setting %d not restored (%d)", before,
              omp_get_max_threads());
        spmv_d_auto_free(&M);
    }
#endif
    spmv_d_csr_free(&A);
}

/* allocation failure at every point of a selection (the deterministic one, and a timed one
 * with a budget large enough to convert every candidate): nothing leaks, the handle is
 * empty. The sweep's output is the handle part (the report keeps what went wrong). */
static spmv_opts sweep_opts;
static spmv_status sweep_conv(void *out, const void *in) {
    spmv_d_auto M;
    spmv_status st = spmv_d_auto_from_csr(&M, (const spmv_d_csr *)in, &sweep_opts, NULL);
    memcpy(out, &M.h, sizeof M.h);
    return st;
}
static void sweep_release(void *out) { spmv_d_any_free((spmv_d_any *)out); }
static void alloc_failure(void) {
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_d_any out;
    const char *gens[2] = {"band:n=2000,bw=2", "rmat:scale=9,ef=8"};
    int g;
    for (g = 0; g < 2; g++) {
        CHECK(spmv_gen(gens[g], &t, &e) == SPMV_OK, "gen %s", gens[g]);
        CHECK(spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "to CSR");
        spmv_triplets_free(&t);
        donor_case(&A); /* R-MAT: ELL's padding is refused */
        sweep_opts = spmv_opts_default();
        sweep_opts.deterministic = 1;
        sweep_opts.expected_calls = 1e6;
        th_alloc_sweep("auto deterministic", sweep_conv, &A, &out, sizeof out, sweep_release);
        sweep_opts.deterministic = 0;
        sweep_opts.budget = 1e9;
        sweep_opts.min_seconds = 10;
        th_alloc_sweep("auto timed", sweep_conv, &A, &out, sizeof out, sweep_release);
        spmv_d_csr_free(&A);
    }
}

/* the fresh-page floor under a conversion's expected cost: the larger of the typical cost
 * and the bytes the format writes at the measured cost of fresh pages; measured on x and y
 * from 2 MiB */
static void fresh_floor(void) {
    spmv_auto_report R;
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_d_auto M;
    spmv_opts o = spmv_opts_default();
    double csr_b;
    memset(&R, 0, sizeof R);
    R.feat.nnz = 1 << 20;
    R.feat.nrows = 1 << 16;
    R.feat.value_bytes = 8;
    R.feat.index_bytes = 4;
    R.feat.sell_fill = R.feat.sell_sorted_fill = R.feat.ell_fill = 1.25;
    R.feat.dia_fill = R.feat.hdia_fill = 0.5; /* below 1 (no estimate): one slot per entry */
    csr_b = 12.0 * (1 << 20) + 4.0 * (1 << 16);
    CHECK(spmv_auto__new_bytes(&R.feat, SPMV_FMT_CSR) == csr_b, "new bytes csr %.17g", spmv_auto__new_bytes(&R.feat, SPMV_FMT_CSR));
    CHECK(spmv_auto__new_bytes(&R.feat, SPMV_FMT_HLL) == 1.25 * 12.0 * (1 << 20) + 4.0 * (1 << 16), "new bytes hll");
    CHECK(spmv_auto__new_bytes(&R.feat, SPMV_FMT_DIA) == 8.0 * (1 << 20), "new bytes dia");
    CHECK(spmv_auto__new_bytes(&R.feat, SPMV_FMT_COO) == 16.0 * (1 << 20), "new bytes coo");
    R.csr_spmv_s = 1e-3;
    R.fresh_s_per_mb = 0; /* not measured: the typical cost */
    CHECK(spmv_auto__prior(&R, SPMV_FMT_HLL) == spmv_auto_convert_prior(SPMV_FMT_HLL, 0) * 1e-3, "prior unmeasured");
    R.fresh_s_per_mb = 5e-4; /* 2 GB/s: hll's 15.25 MiB take 7.6 ms, below its typical 13 */
    CHECK(spmv_auto__prior(&R, SPMV_FMT_HLL) == spmv_auto_convert_prior(SPMV_FMT_HLL, 0) * 1e-3, "prior typical");
    R.fresh_s_per_mb = 1e-2; /* 100 MB/s: the pages dominate */
    CHECK(fabs(spmv_auto__prior(&R, SPMV_FMT_HLL) - 1e-2 * spmv_auto__new_bytes(&R.feat, SPMV_FMT_HLL) / 1048576.0) < 1e-15,
          "prior pages %.6g", spmv_auto__prior(&R, SPMV_FMT_HLL));
    /* measured where x and y reach 2 MiB, not below */
    CHECK(spmv_gen("band:n=140000,bw=1", &t, &e) == SPMV_OK, "gen band 140k");
    CHECK(spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "band 140k to CSR");
    spmv_triplets_free(&t);
    CHECK(spmv_d_auto_from_csr(&M, &A, &o, NULL) == SPMV_OK && M.rep.fresh_s_per_mb > 0, "band 140k: fresh pages not measured");
    CHECK(test_d_check_mv(&M, &A, 1, 0, NULL) <= 1e-12, "band 140k: product");
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
    CHECK(spmv_gen("band:n=3000,bw=1", &t, &e) == SPMV_OK, "gen band 3k");
    CHECK(spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "band 3k to CSR");
    spmv_triplets_free(&t);
    CHECK(spmv_d_auto_from_csr(&M, &A, &o, NULL) == SPMV_OK && M.rep.fresh_s_per_mb == 0, "band 3k: fresh pages measured");
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
}

static void edge_cases(void) {
    spmv_triplets t;
    int64_t len[64];
    int i;
    th_make_random(&t, 0, 0, 0);
    test_s_one("0x0", &t, NULL); test_d_one("0x0", &t, NULL);
    spmv_triplets_free(&t);
    th_make_random(&t, 5, 7, 0);
    test_s_one("5x7 empty", &t, NULL); test_d_one("5x7 empty", &t, NULL);
    spmv_triplets_free(&t);
    th_make_random(&t, 1, 1, 1);
    test_s_one("1x1", &t, NULL); test_d_one("1x1", &t, NULL);
    spmv_triplets_free(&t);
    th_make_random(&t, 300, 200, 3000);
    test_s_one("random 300x200", &t, NULL); test_d_one("random 300x200", &t, NULL);
    spmv_triplets_free(&t);
    for (i = 0; i < 64; i++) len[i] = i == 3 ? 900 : i % 5; /* one long row among short ones */
    th_make_rows(&t, 64, 1000, len);
    test_s_one("skewed rows", &t, NULL); test_d_one("skewed rows", &t, NULL);
    spmv_triplets_free(&t);
}

static void real_one(const char *name, const spmv_triplets *t, void *ctx) {
    test_d_one(name, t, ctx);
    if (t->nnz <= 20000) test_s_one(name, t, ctx);
}

/* saved choices: a round trip gives the same format and parameters, untimed; another matrix,
 * a corrupt or missing file, an unwritable place and another machine's ISA each get a clear
 * status (never a crash); and few expected products: CSR without trials */
static void plans(void) {
    char dir[] = "/tmp/spmv_test_plan_XXXXXX", path[256], bad[256];
    spmv_triplets t, t2;
    spmv_error e;
    spmv_d_csr A, B;
    spmv_d_auto M, M2;
    spmv_opts o = spmv_opts_default();
    spmv_status st;
    FILE *f;
    if (!mkdtemp(dir)) {
        CHECK(0, "plans: mkdtemp");
        return;
    }
    snprintf(path, sizeof path, "%s/A.plan", dir);
    if (spmv_gen("stencil3d:n=40,pts=27", &t, &e) != SPMV_OK || spmv_d_csr_from_triplets(&A, &t, NULL, NULL) != SPMV_OK ||
        spmv_gen("stencil3d:n=40,pts=7", &t2, &e) != SPMV_OK || spmv_d_csr_from_triplets(&B, &t2, NULL, NULL) != SPMV_OK) {
        CHECK(0, "plans: matrices");
        return;
    }
    o.expected_calls = 2000;
    st = spmv_d_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK, "plans: auto: %s", e.msg);
    st = spmv_d_auto_plan_save(&M, &A, path, &e);
    CHECK(st == SPMV_OK, "plans: save: %s", e.msg);
    st = spmv_d_auto_from_plan(&M2, &A, path, &e);
    {
        char p1[200], p2[200];
        spmv_d_any_params_str(&M.h, p1, sizeof p1);
        spmv_d_any_params_str(&M2.h, p2, sizeof p2);
        CHECK(st == SPMV_OK && M2.h.fmt == M.h.fmt && !strcmp(p1, p2) && M2.rep.trials == 0 && strstr(M2.rep.why, "plan"),
              "plans: round trip %s %s -> %s %s (%s)", spmv_format_name(M.h.fmt), p1, spmv_format_name(M2.h.fmt), p2,
              st == SPMV_OK ? M2.rep.why : e.msg);
        if (st == SPMV_OK) CHECK(test_d_check_mv(&M2, &A, 1.0, 0.0, NULL) <= 1e-12, "plans: the loaded handle's product");
    }
    spmv_d_auto_free(&M2);
    st = spmv_d_auto_from_plan(&M2, &B, path, &e);
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "another matrix"), "plans: another matrix refused: %s", e.msg);
    snprintf(bad, sizeof bad, "%s/missing.plan", dir);
    CHECK(spmv_d_auto_from_plan(&M2, &A, bad, &e) == SPMV_ERR_IO, "plans: a missing file: %s", e.msg);
    snprintf(bad, sizeof bad, "%s/corrupt.plan", dir);
    if ((f = fopen(bad, "w"))) {
        fputs("%%spmv plan 1\nfingerprint zz\nformat\n", f);
        fclose(f);
    }
    CHECK(spmv_d_auto_from_plan(&M2, &A, bad, &e) == SPMV_ERR_PARSE, "plans: a corrupt file: %s", e.msg);
    if ((f = fopen(bad, "w"))) {
        fputs("\x1f\x8b binary", f);
        fclose(f);
    }
    CHECK(spmv_d_auto_from_plan(&M2, &A, bad, &e) == SPMV_ERR_PARSE, "plans: not a plan: %s", e.msg);
    snprintf(bad, sizeof bad, "%s/no/such/dir/A.plan", dir);
    CHECK(spmv_d_auto_plan_save(&M, &A, bad, &e) == SPMV_ERR_IO, "plans: an unwritable place: %s", e.msg);
    { /* another machine's plan: an ISA this build does not know becomes a parse error; one it
         knows but this CPU lacks is built with the best ISA here */
        char txt[512];
        snprintf(bad, sizeof bad, "%s/other.plan", dir);
        if ((f = fopen(path, "r"))) {
            size_t nr = fread(txt, 1, sizeof txt - 1, f);
            txt[nr] = 0;
            fclose(f);
            {
                char *i = strstr(txt, "isa ");
                if (i) memcpy(i, "isa neon\n", 9), i[9] = 0;
                if (i && (f = fopen(bad, "w"))) {
                    fputs(txt, f);
                    fputs("op mv\nprecision double\n", f);
                    fclose(f);
                }
            }
        }
        CHECK(spmv_d_auto_from_plan(&M2, &A, bad, &e) == SPMV_ERR_PARSE, "plans: an unknown ISA: %s", e.msg);
        if (!spmv_isa_supported(SPMV_ISA_AVX512)) { /* a plan made with AVX-512, here without it */
            char *i = strstr(txt, "isa ");
            if (i && (f = fopen(bad, "w"))) {
                memcpy(i, "isa avx512\n", 11), i[11] = 0;
                fputs(txt, f);
                fputs("op mv\nprecision double\n", f);
                fclose(f);
                st = spmv_d_auto_from_plan(&M2, &A, bad, &e);
                CHECK(st == SPMV_OK && strstr(M2.rep.why, "not available here"), "plans: an AVX-512 plan here: %s",
                      st == SPMV_OK ? M2.rep.why : e.msg);
                if (st == SPMV_OK) spmv_d_auto_free(&M2);
            }
        }
    }
    spmv_d_auto_free(&M);
    /* few expected products: no candidate can repay its conversion, nothing timed */
    o.expected_calls = 3;
    st = spmv_d_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && M.rep.chosen == SPMV_FMT_CSR && M.rep.trials == 0 && strstr(M.rep.why, "CSR un"),
          "plans: 3 expected products: CSR untimed (%s, %d trials)", M.rep.why, M.rep.trials);
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
    spmv_d_csr_free(&B);
    spmv_triplets_free(&t);
    spmv_triplets_free(&t2);
    remove(path);
    snprintf(bad, sizeof bad, "%s/corrupt.plan", dir);
    remove(bad);
    snprintf(bad, sizeof bad, "%s/other.plan", dir);
    remove(bad);
    rmdir(dir);
}

/* the plan's file: what it records (precision, operation) and what saving and loading refuse */
static int put_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fputs(text, f);
    return fclose(f) == 0;
}
static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}
static void plan_files(void) {
    static const char notes[] = "my precious notes\n";
    char dir[] = "/tmp/spmv_test_planf_XXXXXX", p[300], q[300], txt[1024];
    spmv_triplets t;
    spmv_error e;
    spmv_d_csr A;
    spmv_s_csr As;
    spmv_d_auto M, M2;
    spmv_s_auto Ms;
    spmv_opts o = spmv_opts_default();
    spmv_status st;
    size_t n;
    FILE *f;
    if (!mkdtemp(dir) || spmv_gen("stencil2d:n=30", &t, &e) != SPMV_OK) {
        CHECK(0, "plan files: setup");
        return;
    }
    CHECK(spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK && spmv_s_csr_from_triplets(&As, &t, NULL, NULL) == SPMV_OK,
          "plan files: csr");
    o.expected_calls = 3; /* CSR, untimed: quick */
    o.transpose = 1;
    CHECK(spmv_d_auto_from_csr(&M, &A, &o, &e) == SPMV_OK && M.h.transposed, "plan files: a handle for mvt: %s", e.msg);
    /* a user's file, a link, a directory: never replaced */
    snprintf(p, sizeof p, "%s/notes", dir);
    put_text(p, notes);
    st = spmv_d_auto_plan_save(&M, &A, p, &e);
    CHECK(st == SPMV_ERR_IO && strstr(e.msg, "not a plan") && file_size(p) == (long)strlen(notes),
          "plan save over a user's file: refused (%s)", e.msg);
    snprintf(q, sizeof q, "%s/link", dir);
    if (symlink(p, q) == 0) {
        st = spmv_d_auto_plan_save(&M, &A, q, &e);
        CHECK(st == SPMV_ERR_IO && strstr(e.msg, "symbolic link") && file_size(p) == (long)strlen(notes),
              "plan save through a link: refused (%s)", e.msg);
    } else check_skip("symlink: %s", strerror(errno));
    st = spmv_d_auto_plan_save(&M, &A, dir, &e);
    CHECK(st == SPMV_ERR_IO, "plan save onto a directory: %s (%s)", spmv_status_str(st), e.msg);
    st = spmv_d_auto_from_plan(&M2, &A, dir, &e);
    CHECK(st == SPMV_ERR_IO && strstr(e.msg, "directory"), "plan load of a directory: %s (%s)", spmv_status_str(st), e.msg);
    snprintf(q, sizeof q, "%s/fifo", dir);
    if (mkfifo(q, 0600) == 0) {
        alarm(30); /* a blocked open ends the run */
        st = spmv_d_auto_from_plan(&M2, &A, q, &e);
        CHECK(st == SPMV_ERR_IO, "plan load of a fifo: %s (%s)", spmv_status_str(st), e.msg);
        st = spmv_d_auto_plan_save(&M, &A, q, &e);
        CHECK(st == SPMV_ERR_IO, "plan save onto a fifo: %s (%s)", spmv_status_str(st), e.msg);
        alarm(0);
    } else check_skip("mkfifo: %s", strerror(errno));
    /* the operation and the precision recorded; a plan replaced by a plan */
    snprintf(p, sizeof p, "%s/A.plan", dir);
    CHECK(spmv_d_auto_plan_save(&M, &A, p, &e) == SPMV_OK && spmv_d_auto_plan_save(&M, &A, p, &e) == SPMV_OK,
          "plan saved twice: %s", e.msg);
    txt[0] = 0;
    if ((f = fopen(p, "r"))) {
        n = fread(txt, 1, sizeof txt - 1, f);
        txt[n] = 0;
        fclose(f);
    }
    CHECK(strstr(txt, "\nop mvt\n") && strstr(txt, "\nprecision double\n"), "the plan records mvt, double:\n%s", txt);
    st = spmv_d_auto_from_plan(&M2, &A, p, &e);
    CHECK(st == SPMV_OK && M2.h.transposed && M2.rep.opts.transpose && strstr(M2.rep.why, "mvt"),
          "a plan for mvt builds A^T and says so: %s", st == SPMV_OK ? M2.rep.why : e.msg);
    if (st == SPMV_OK) spmv_d_auto_free(&M2);
    st = spmv_s_auto_from_plan(&Ms, &As, p, &e);
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "double") && strstr(e.msg, "float") && strstr(e.msg, p),
          "a double plan in the float API: %s (%s)", spmv_status_str(st), e.msg);
    { /* a handle for A^H (opts.transpose = 2: the transpose for a real tag) records mvh */
        spmv_d_auto H;
        char hp[300], ht[4096];
        spmv_opts oh = o;
        oh.transpose = 2;
        snprintf(hp, sizeof hp, "%s/H.plan", dir);
        ht[0] = 0;
        st = spmv_d_auto_from_csr(&H, &A, &oh, &e);
        if (st == SPMV_OK && H.h.transposed == 2 && spmv_d_auto_plan_save(&H, &A, hp, &e) == SPMV_OK && (f = fopen(hp, "r"))) {
            n = fread(ht, 1, sizeof ht - 1, f);
            ht[n] = 0;
            fclose(f);
        }
        if (st == SPMV_OK) spmv_d_auto_free(&H);
        CHECK(strstr(ht, "\nop mvh\n") != NULL, "the plan of an A^H handle records mvh: %s (%s)", spmv_status_str(st), e.msg);
        st = spmv_d_auto_from_plan(&M2, &A, hp, &e);
        CHECK(st == SPMV_OK && M2.h.transposed == 2 && M2.rep.opts.transpose == 2 && strstr(M2.rep.why, "mvh"),
              "a plan for mvh builds A^H and says so: %s", st == SPMV_OK ? M2.rep.why : e.msg);
        if (st == SPMV_OK) spmv_d_auto_free(&M2);
        unlink(hp);
    }
    /* isa auto is this machine's best, not another machine's ISA */
    {
        char *i = strstr(txt, "\nisa "), *end = i ? strchr(i + 1, '\n') : NULL;
        if (i && end) {
            snprintf(q, sizeof q, "%s/auto.plan", dir);
            if ((f = fopen(q, "w"))) {
                fprintf(f, "%.*s\nisa auto%s", (int)(i - txt), txt, end);
                fclose(f);
            }
            st = spmv_d_auto_from_plan(&M2, &A, q, &e);
            CHECK(st == SPMV_OK && !strstr(M2.rep.why, "not available"), "a plan with isa auto: %s",
                  st == SPMV_OK ? M2.rep.why : e.msg);
            if (st == SPMV_OK) spmv_d_auto_free(&M2);
            remove(q);
        } else CHECK(0, "the plan's isa line");
    }
    /* a damaged plan: the message names the plan; a version 1 plan still loads */
    snprintf(q, sizeof q, "%s/v1.plan", dir);
    put_text(q, "%%spmv plan 2\nfingerprint zz\n");
    st = spmv_d_auto_from_plan(&M2, &A, q, &e);
    CHECK(st == SPMV_ERR_PARSE && strstr(e.msg, q) && strstr(e.msg, "plan"), "a damaged plan named: %s", e.msg);
    {
        char *i = strstr(txt, "\nop mvt\n");
        if (i) {
            *i = 0;
            if ((f = fopen(q, "w"))) {
                fprintf(f, "%%%%spmv plan 1%s\ntransposed 0\n", strchr(txt, '\n'));
                fclose(f);
            }
            st = spmv_d_auto_from_plan(&M2, &A, q, &e);
            CHECK(st == SPMV_OK && !M2.h.transposed, "a version 1 plan: %s", st == SPMV_OK ? M2.rep.why : e.msg);
            if (st == SPMV_OK) spmv_d_auto_free(&M2);
        }
    }
    remove(q);
    spmv_d_auto_free(&M);
    spmv_d_csr_free(&A);
    spmv_s_csr_free(&As);
    spmv_triplets_free(&t);
    snprintf(q, sizeof q, "%s/notes", dir), remove(q);
    snprintf(q, sizeof q, "%s/link", dir), remove(q);
    snprintf(q, sizeof q, "%s/fifo", dir), remove(q);
    remove(p);
    CHECK(rmdir(dir) == 0, "plan files: nothing left behind in %s", dir);
}

int main(void) {
    plans();
    plan_files();
    edge_cases();
    options();
    fresh_floor();
    alloc_failure();
    quiet_real = getenv("SPMV_TEST_VERBOSE") == NULL;
    th_real_matrices(real_one, NULL, -1);
    return check_finish("test_auto");
}
