/* auto (device side) — picks the device format for one matrix and keeps it on the GPU.
 * Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh after any.cuh. No include guard. formats/auto.h is the host
 * side; this file reuses its tag-independent parts (spmv_opts and its check, the
 * report, the rules spmv_auto_predict with device = 1, the shortlist, the rules' choice,
 * the conversion priors) and the host features function spmv_<tag>_auto_features.
 *
 *   spmv_opts o = spmv_opts_default();              // o.expected_calls = ...
 *   spmv_d_auto_dev D;
 *   spmv_d_auto_dev_from_csr(&D, &A, &o, &err, stream); // A (host CSR) may be freed afterwards
 *   for (...) spmv_d_auto_dev_mv(&D, 1.0, x_dev, 0.0, y_dev, stream);
 *   printf("%s: %s\n", spmv_format_name(spmv_d_auto_dev_format(&D)), D.rep.why);
 *   spmv_d_auto_dev_free(&D);
 *
 * What it does:
 *  1. options checked (SPMV_ERR_ARG, the reason in err and D.rep.why), A checked (csr_check), a
 *     device present (SPMV_ERR_NODEVICE before anything is allocated);
 *  2. the features of A on the host (spmv_<tag>_auto_features) and the shortlist of the
 *     registry rows with cuda = 1, by spmv_auto_predict(device = 1);
 *  3. no timing when opts.deterministic (the rules' choice, spmv_auto__rule_choice; the
 *     atomics formats are already left out by the rules; the CSR baseline is then built as
 *     csr_vector, because the csr row may pick its merge kernel, whose carries are added
 *     with atomics: cand[0].fmt says so), when the budget is below 4 SpMVs or when A has no
 *     entries (CSR);
 *  4. otherwise CSR is uploaded and timed with CUDA events (two warm-up products, then 5
 *     samples of nb products each between an event pair, nb such that a sample lasts about
 *     50 us; the minimum per product. x_changes = 1: _any_dev_mv, which scatters x for the
 *     formats embedding it; 0: _any_dev_update_x once, then _any_dev_mv_kernel). Where the
 *     events read 0 (the CPU emulation of the tests, whose events do not time), the host
 *     clock around the synchronised sample is used;
 *  5. the budget: opts.budget products of the device CSR, at least opts.min_seconds. The
 *     first CSR upload (with the trial x and y) is what any GPU use of A pays: it is
 *     reported (cand[0].convert_s) but not charged against the budget, and CSR's score is
 *     expected_calls * spmv_s (its upload is sunk whatever wins). Everything else is
 *     charged: the inspection, every other conversion + upload, every trial. A candidate
 *     is tried, in shortlist order, when its predicted cost fits what is left and 1.25 times
 *     that cost is repaid by its gain over expected_calls products at its predicted speedup
 *     (at least 1.05x: a format measured behind CSR is tried only where a 5% surprise would
 *     pay; on a GPU a conversion and upload cost hundreds to thousands of products of a small
 *     matrix, bench/results/2026-11-26-h200-d-real.csv): its typical conversion,
 *     spmv_auto_convert_prior(f, 1) / spmv_auto_convert_prior(CSR, 1) times the measured CSR
 *     upload, plus its trial at CSR's time / its predicted speedup;
 *  6. when nothing beyond CSR could be timed (with the default budget of 30 device SpMVs
 *     and a large matrix, an upload costs more than the budget), the rules' pick
 *     (spmv_auto__rule_choice(R, 1)) is converted past the budget only if its predicted
 *     gain over expected_calls products pays its predicted conversion (as in 5); it is then
 *     timed like the others and kept only if it beats CSR. rep.why says which happened;
 *  7. the winner minimises convert_s + expected_calls * spmv_s; a loser is freed as soon as
 *     it loses (at most two device formats exist at once: the best so far and the
 *     candidate).
 * Options: as on the host (formats/auto.h) and checked the same way; on the device,
 * threads and isa are checked and otherwise unused, and borrow changes nothing (the device
 * handle always holds its own copy).
 * Failure: any CUDA error, a host allocation failure, no device: everything is freed, *D
 * is zeroed except D.rep (rep.why says what failed, rep.chosen = SPMV_FMT_COUNT_) and the
 * status is returned. A candidate's conversion refused (SPMV_ERR_LIMIT, SPMV_ERR_ARG,
 * SPMV_ERR_OVERFLOW: a size cap; SPMV_ERR_ARG from a symmetric-only format, sss, on a matrix
 * that is not symmetric) only removes that candidate (tried = -1).
 * Report (D.rep, spmv_auto_report): device = 1; trials counts the formats timed (CSR
 * included: 0 when nothing was timed); budget_s = 0 and select_spmvs = 0 when nothing was
 * timed. */

typedef struct SPMV_NAME(auto_dev) {
    SPMV_NAME(any_dev) h; /* the chosen format, on the device */
    spmv_auto_report rep; /* what was chosen and why */
} SPMV_NAME(auto_dev);

/* The chosen format; SPMV_FMT_COUNT_ when D holds none (NULL, zeroed, freed, failed). */
static inline spmv_format SPMV_NAME(auto_dev_format)(const SPMV_NAME(auto_dev) *D) {
    if (!D || D->rep.device != 1 || D->rep.chosen == SPMV_FMT_COUNT_) return SPMV_FMT_COUNT_;
    return D->h.fmt;
}

static inline spmv_status SPMV_NAME(auto_dev_free)(SPMV_NAME(auto_dev) *D) {
    spmv_status st;
    if (!D) return SPMV_OK;
    st = SPMV_NAME(auto_dev_format)(D) != SPMV_FMT_COUNT_ ? SPMV_NAME(any_dev_free)(&D->h) : SPMV_OK;
    memset(D, 0, sizeof *D);
    return st;
}

/* The product on the chosen format (what a solver pays: embeds-x formats scatter x). */
static inline spmv_status SPMV_NAME(auto_dev_mv)(const SPMV_NAME(auto_dev) *D, SPMV_Y alpha, const SPMV_Y *x_dev,
                                                 SPMV_Y beta, SPMV_Y *y_dev, cudaStream_t s = 0) {
    if (SPMV_NAME(auto_dev_format)(D) == SPMV_FMT_COUNT_) return SPMV_ERR_ARG;
    return SPMV_NAME(any_dev_mv)(&D->h, alpha, x_dev, beta, y_dev, s);
}

/* Trial time of one product on H (seconds per product in *sec): two warm-up products,
 * then reps samples of nb products between e0 and e1; the minimum. */
static inline spmv_status SPMV_NAME(auto_dev__time)(const SPMV_NAME(any_dev) *H, const SPMV_Y *x, SPMV_Y *y,
                                                    int x_changes, int reps, int nb, cudaEvent_t e0, cudaEvent_t e1,
                                                    cudaStream_t s, double *sec) {
    spmv_status st = SPMV_OK;
    double best = -1;
    int i, k;
#define SPMV__AUTO_DEV_ONE()                                                                                     \
    (x_changes ? SPMV_NAME(any_dev_mv)(H, (SPMV_Y)1, x, (SPMV_Y)0, y, s)                                         \
               : SPMV_NAME(any_dev_mv_kernel)(H, (SPMV_Y)1, x, (SPMV_Y)0, y, s))
    *sec = 0;
    if (!x_changes) st = SPMV_NAME(any_dev_update_x)(H, x, s);
    for (i = 0; i < 2 && st == SPMV_OK; i++) st = SPMV__AUTO_DEV_ONE();
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    for (i = 0; i < reps && st == SPMV_OK; i++) {
        const double w0 = spmv_wtime();
        float ms = 0;
        double dt;
        st = spmv_cuda_status(cudaEventRecord(e0, s));
        for (k = 0; k < nb && st == SPMV_OK; k++) st = SPMV__AUTO_DEV_ONE();
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventRecord(e1, s));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventSynchronize(e1));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaEventElapsedTime(&ms, e0, e1));
        if (st != SPMV_OK) break;
        dt = (ms > 0 ? 1e-3 * (double)ms : spmv_wtime() - w0) / (nb > 0 ? nb : 1);
        if (best < 0 || dt < best) best = dt;
    }
#undef SPMV__AUTO_DEV_ONE
    if (st == SPMV_OK) *sec = best > 0 ? best : 1e-9;
    return st;
}

/* the statuses that only remove a candidate (its size cap, a parameter A cannot have, a
 * symmetric-only format on a matrix that is not symmetric) */
static inline int SPMV_NAME(auto_dev__refused)(spmv_status st) {
    return st == SPMV_ERR_LIMIT || st == SPMV_ERR_ARG || st == SPMV_ERR_OVERFLOW || st == SPMV_ERR_UNSUPPORTED;
}
/* why candidate f refused A with st (the report's skip) */
static inline const char *SPMV_NAME(auto_dev__refusal)(spmv_format f, spmv_status st) {
    if (st == SPMV_ERR_ARG && (spmv_format_flags(f) & SPMV_FF_SYMMETRIC))
        return "conversion refused (the format needs a symmetric matrix)";
    return "conversion refused (a size cap of the format)";
}

/* The selection's working state (one call of auto_dev_from_csr). */
typedef struct SPMV_NAME(auto_dev__run) {
    const SPMV_NAME(csr) * A;
    spmv_auto_report *R;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    SPMV_Y *x, *y;          /* device trial vectors */
    SPMV_NAME(any_dev) best; /* the best so far */
    SPMV_NAME(any_dev) cand; /* the candidate being tried */
    int best_i, reps, nb;
    double best_score;
    double t0, setup_s; /* the call's start; the set-up's seconds (not charged to the budget) */
    double csr_s, unit; /* CSR's trial product; CSR's upload per unit of the conversion priors */
    const char *failed; /* what failed (for rep.why) */
} SPMV_NAME(auto_dev__run);

/* Converts, uploads and times candidate i; keeps it in W->best if it scores better, else
 * frees it. SPMV_OK also when the conversion was refused (cand tried = -1). */
static inline spmv_status SPMV_NAME(auto_dev__try)(SPMV_NAME(auto_dev__run) *W, int i) {
    spmv_auto_report *R = W->R;
    spmv_auto_cand *c = &R->cand[i];
    spmv_status st;
    const double c0 = spmv_wtime();
    st = SPMV_NAME(any_dev__build)(&W->cand, W->A, c->fmt, NULL, W->s);
    c->convert_s = spmv_wtime() - c0;
    c->st = st;
    if (st != SPMV_OK && SPMV_NAME(auto_dev__refused)(st)) {
        c->tried = -1;
        c->skip = SPMV_NAME(auto_dev__refusal)(c->fmt, st);
        return SPMV_OK;
    }
    if (st != SPMV_OK) {
        W->failed = "a candidate's conversion and upload";
        return st;
    }
    st = SPMV_NAME(auto_dev__time)(&W->cand, W->x, W->y, R->opts.x_changes, W->reps, W->nb, W->e0, W->e1, W->s,
                                   &c->spmv_s);
    if (st != SPMV_OK) {
        W->failed = "a candidate's trial products";
        return st; /* W->cand is freed by the caller */
    }
    c->tried = 1;
    c->score_s = c->convert_s + R->opts.expected_calls * c->spmv_s;
    R->trials++;
    if (c->score_s < W->best_score) {
        st = SPMV_NAME(any_dev_free)(&W->best);
        W->best = W->cand;
        W->best_score = c->score_s;
        W->best_i = i;
    } else {
        st = SPMV_NAME(any_dev_free)(&W->cand);
    }
    memset(&W->cand, 0, sizeof W->cand);
    if (st != SPMV_OK) W->failed = "freeing a loser";
    return st;
}

/* ---- the device selection in the host's phases (formats/auto.h, docs/DESIGN.md): the
 * inspection, the untimed choice or CSR's trial, the candidates, the rules' pick past the
 * budget (the device's duel: none, its trials are event-timed), the finish; W holds what
 * passes between them ---- */

/* D emptied but for the report, which says what failed; nothing left on the host or device */
static inline spmv_status SPMV_NAME(auto_dev__fail)(SPMV_NAME(auto_dev) *D, SPMV_NAME(auto_dev__run) *W,
                                                    spmv_status st) {
    spmv_status fs = SPMV_OK;
    const cudaError_t ce = spmv_cuda_last_error();
    spmv_auto_report keep;
    (void)SPMV_NAME(any_dev_free)(&W->cand);
    (void)SPMV_NAME(any_dev_free)(&W->best);
    (void)SPMV_NAME(any_dev_free)(&D->h);
    spmv_cuda_release(&W->x, &fs);
    spmv_cuda_release(&W->y, &fs);
    if (W->e0) (void)cudaEventDestroy(W->e0);
    if (W->e1) (void)cudaEventDestroy(W->e1);
    keep = D->rep;
    memset(D, 0, sizeof *D);
    D->rep = keep;
    D->rep.chosen = SPMV_FMT_COUNT_;
    D->rep.chosen_idx = -1;
    D->rep.select_s = spmv_wtime() - W->t0;
    if (st == SPMV_ERR_CUDA || st == SPMV_ERR_NODEVICE)
        snprintf(D->rep.why, sizeof D->rep.why, "selection failed in %s: %s (%s)", W->failed ? W->failed : "?",
                 spmv_status_str(st), cudaGetErrorString(ce));
    else
        snprintf(D->rep.why, sizeof D->rep.why, "selection failed in %s: %s", W->failed ? W->failed : "?",
                 spmv_status_str(st));
    spmv_cuda__last_error_ref() = ce;
    return st;
}

/* the untimed baseline: the csr row may pick its merge kernel (atomic carries), so
 * deterministic takes csr_vector, or on rows far above the mean (the merge rule: 8x + 100,
 * where one lane group per row collapses) csr's split kernel; 1 when that is split */
static inline int SPMV_NAME(auto_dev__baseline)(spmv_auto_report *R) {
    const int split = R->opts.deterministic && (double)R->feat.row_max > 8.0 * R->feat.row_mean + 100.0;
    int i;
    if (split) {
        R->cand[0].fmt = SPMV_FMT_CSR;
        R->cand[0].rule = "the baseline as csr algo=split: long rows in chunks summed in order, no atomics";
    } else if (R->opts.deterministic) {
        R->cand[0].fmt = SPMV_FMT_CSR_VECTOR;
        R->cand[0].rule = "the baseline as csr_vector: the csr row's merge kernel adds carries with atomics";
        for (i = 0; i < R->nleft; i++)
            if (R->left[i] == SPMV_FMT_CSR_VECTOR) {
                memmove(&R->left[i], &R->left[i + 1], sizeof R->left[0] * (size_t)(R->nleft - i - 1));
                memmove(&R->left_why[i], &R->left_why[i + 1], sizeof R->left_why[0] * (size_t)(R->nleft - i - 1));
                R->nleft--;
                break;
            }
    }
    return split;
}

/* 3a. no timing: the rules' choice (deterministic) or the baseline (no budget, no entries);
 *     a conversion refused for its size falls back to the baseline */
static inline spmv_status SPMV_NAME(auto_dev__untimed)(SPMV_NAME(auto_dev) *D, SPMV_NAME(auto_dev__run) *W) {
    spmv_auto_report *R = W->R;
    const int64_t nnz = W->A->nnz;
    const int split = SPMV_NAME(auto_dev__baseline)(R);
    int pick = R->opts.deterministic && nnz ? spmv_auto__rule_choice(R, 1) : 0;
    spmv_status st;
    for (;;) {
        const double c0 = spmv_wtime();
        if (pick == 0 && split) {
            spmv_any_params q;
            st = spmv_any_dev_params_init(SPMV_FMT_CSR, NULL, &q, NULL);
            q.csr.algo = SPMV_CSR_SPLIT;
            if (st == SPMV_OK) st = SPMV_NAME(any_dev__build)(&D->h, W->A, SPMV_FMT_CSR, &q, W->s);
        } else {
            st = SPMV_NAME(any_dev__build)(&D->h, W->A, R->cand[pick].fmt, NULL, W->s);
        }
        R->cand[pick].convert_s = spmv_wtime() - c0;
        R->cand[pick].st = st;
        if (st == SPMV_OK || pick == 0 || !SPMV_NAME(auto_dev__refused)(st)) break;
        R->cand[pick].tried = -1; /* refused (a size cap): the baseline */
        R->cand[pick].skip = SPMV_NAME(auto_dev__refusal)(R->cand[pick].fmt, st);
        pick = 0;
    }
    if (st != SPMV_OK) {
        W->failed = "the conversion and upload";
        return SPMV_NAME(auto_dev__fail)(D, W, st);
    }
    R->chosen_idx = pick;
    R->chosen = R->cand[pick].fmt;
    if (R->opts.deterministic && nnz)
        snprintf(R->why, sizeof R->why, "deterministic: the rules' choice (%s: %s), untimed",
                 spmv_format_name(R->chosen), R->cand[pick].rule);
    else if (nnz == 0) snprintf(R->why, sizeof R->why, "no entries: %s", spmv_format_name(R->chosen));
    else snprintf(R->why, sizeof R->why, "budget %.3g SpMVs is below one trial: CSR without trials", R->opts.budget);
    R->select_s = spmv_wtime() - W->t0;
    return SPMV_OK;
}

/* set-up, not charged: the trial vectors, the events and the CSR upload (what any GPU use
 * pays); W->failed says which part failed */
static inline spmv_status SPMV_NAME(auto_dev__setup)(SPMV_NAME(auto_dev__run) *W) {
    const SPMV_NAME(csr) *A = W->A;
    const double c0 = spmv_wtime();
    SPMV_Y *hx = SPMV_ALLOC_N(SPMV_Y, (size_t)A->ncols + 1);
    spmv_status st;
    double u0;
    int64_t i;
    if (!hx) {
        W->failed = "the host x of the trials";
        return SPMV_ERR_ALLOC;
    }
    for (i = 0; i < A->ncols; i++) hx[i] = (SPMV_Y)(1.0 + (double)(i % 7) / 8.0); /* exact in every type */
    st = spmv_cuda_alloc(&W->x, (size_t)A->ncols + 1);
    if (st == SPMV_OK) st = spmv_cuda_alloc(&W->y, (size_t)A->nrows + 1);
    if (st == SPMV_OK && A->ncols > 0)
        st = spmv_cuda_status(cudaMemcpyAsync(W->x, hx, sizeof(SPMV_Y) * (size_t)A->ncols, cudaMemcpyHostToDevice, W->s));
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(W->s));
    spmv__free(hx);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaEventCreate(&W->e0));
    if (st == SPMV_OK) st = spmv_cuda_status(cudaEventCreate(&W->e1));
    if (st != SPMV_OK) {
        W->failed = "the trial vectors";
        return st;
    }
    u0 = spmv_wtime();
    st = SPMV_NAME(any_dev__build)(&W->best, A, SPMV_FMT_CSR, NULL, W->s);
    W->R->cand[0].convert_s = spmv_wtime() - u0;
    W->R->cand[0].st = st;
    if (st != SPMV_OK) {
        W->failed = "the CSR upload";
        return st;
    }
    W->setup_s = spmv_wtime() - c0;
    return SPMV_OK;
}

/* 3b. CSR's trial: a first estimate sets nb (products per sample, ~50 us a sample), then 5
 *     samples; the budget, and the unit of the conversion priors (CSR's upload) */
static inline spmv_status SPMV_NAME(auto_dev__csr_trial)(SPMV_NAME(auto_dev__run) *W) {
    spmv_auto_report *R = W->R;
    const spmv_opts *o = &R->opts;
    double csr_s = 0;
    spmv_status st;
    if ((st = SPMV_NAME(auto_dev__setup)(W)) != SPMV_OK) return st;
    W->reps = 1;
    W->nb = 1;
    st = SPMV_NAME(auto_dev__time)(&W->best, W->x, W->y, o->x_changes, 1, 1, W->e0, W->e1, W->s, &csr_s);
    if (st == SPMV_OK) {
        W->nb = csr_s > 0 && csr_s < 50e-6 / 16 ? 16 : csr_s > 0 && csr_s < 25e-6 ? (int)(50e-6 / csr_s) : 1;
        W->reps = 5;
        st = SPMV_NAME(auto_dev__time)(&W->best, W->x, W->y, o->x_changes, W->reps, W->nb, W->e0, W->e1, W->s, &csr_s);
    }
    if (st != SPMV_OK) {
        W->failed = "CSR's trial products";
        return st;
    }
    W->csr_s = csr_s;
    R->cand[0].spmv_s = R->csr_spmv_s = csr_s;
    R->cand[0].tried = 1;
    R->cand[0].score_s = W->best_score = o->expected_calls * csr_s; /* its upload is sunk */
    R->trials = 1;
    R->budget_s = o->budget * csr_s;
    if (R->budget_s < o->min_seconds) R->budget_s = o->min_seconds;
    W->unit = R->cand[0].convert_s / spmv_auto_convert_prior(SPMV_FMT_CSR, 1);
    return SPMV_OK;
}

/* 4. the candidates within the budget; a trial is paid only for a gain that could repay it:
 *    its conversion and trial, with a margin of 1.25, against the products it saves at its
 *    prediction, or at 1.05x for a format predicted behind CSR (a surprise of 5%) */
static inline spmv_status SPMV_NAME(auto_dev__candidates)(SPMV_NAME(auto_dev__run) *W) {
    spmv_auto_report *R = W->R;
    const double csr_s = W->csr_s, n = R->opts.expected_calls;
    spmv_status st;
    int i;
    for (i = 1; i < R->ncand; i++) {
        spmv_auto_cand *c = &R->cand[i];
        const double conv = spmv_auto_convert_prior(c->fmt, 1) * W->unit;
        const double need = conv + (2.0 + W->reps * W->nb) * csr_s / c->predicted;
        const double spent = spmv_wtime() - W->t0 - W->setup_s;
        if (spent + need > R->budget_s) {
            c->skip = "budget: its typical conversion, upload and trial would not fit";
            continue;
        }
        if (1.25 * need >= n * csr_s * (1 - 1 / (c->predicted > 1.05 ? c->predicted : 1.05))) {
            c->skip = "its typical conversion and trial are more than it could save over the expected products";
            continue;
        }
        if ((st = SPMV_NAME(auto_dev__try)(W, i)) != SPMV_OK) return st;
    }
    return SPMV_OK;
}

/* 5. nothing beyond CSR fit: the rules' pick, converted past the budget if it pays its
 *    conversion; then why (set here for every timed outcome) */
static inline spmv_status SPMV_NAME(auto_dev__pick)(SPMV_NAME(auto_dev__run) *W) {
    spmv_auto_report *R = W->R;
    const double csr_s = W->csr_s, n = R->opts.expected_calls;
    const int pick = R->trials == 1 && R->ncand > 1 ? spmv_auto__rule_choice(R, 1) : 0;
    spmv_auto_cand *c = &R->cand[pick];
    const double conv = spmv_auto_convert_prior(c->fmt, 1) * W->unit;
    spmv_status st;
    if (pick > 0 && c->tried == 0 && n * csr_s * (1 - 1 / c->predicted) > conv) {
        if ((st = SPMV_NAME(auto_dev__try)(W, pick)) != SPMV_OK) return st;
        if (c->tried == 1) c->skip = NULL;
        if (W->best_i == pick)
            snprintf(R->why, sizeof R->why,
                     "%s: nothing else fit the budget; the rules' pick (%s) pays its predicted conversion over "
                     "%.0f products: converted past the budget, timed %.2fx CSR",
                     spmv_format_name(c->fmt), c->rule, n, csr_s / c->spmv_s);
        else if (c->tried == 1)
            snprintf(R->why, sizeof R->why,
                     "CSR: nothing else fit the budget; the rules' pick %s was converted past the budget "
                     "(predicted to pay) but did not beat CSR (%.2fx, conversion %.3g s)",
                     spmv_format_name(c->fmt), csr_s / c->spmv_s, c->convert_s);
        else
            snprintf(R->why, sizeof R->why,
                     "CSR: nothing else fit the budget; the rules' pick %s (predicted to pay) refused the matrix",
                     spmv_format_name(c->fmt));
    } else if (pick > 0 && c->tried == 0) {
        snprintf(R->why, sizeof R->why,
                 "CSR: nothing beyond CSR fit the budget of %.3g s, and the rules' pick %s would not pay its "
                 "predicted conversion (%.3g s) over %.0f products",
                 R->budget_s, spmv_format_name(c->fmt), conv, n);
    } else if (R->trials == 1) {
        snprintf(R->why, sizeof R->why, "CSR: nothing beyond CSR fit the budget of %.3g s, and no rule predicts a "
                 "gain that pays its conversion over %.0f products", R->budget_s, n);
    } else if (W->best_i == 0) {
        snprintf(R->why, sizeof R->why, "CSR: no candidate's conversion plus %.0f products beat it (%d timed)", n,
                 R->trials);
    } else {
        const spmv_auto_cand *b = &R->cand[W->best_i];
        snprintf(R->why, sizeof R->why,
                 "%s: %.2fx CSR's product in the trials (%s); pays its conversion back in %.0f products",
                 spmv_format_name(b->fmt), csr_s / b->spmv_s, b->rule,
                 csr_s > b->spmv_s ? b->convert_s / (csr_s - b->spmv_s) : 0.0);
    }
    return SPMV_OK;
}

/* 6. the finish: the trial vectors and events released, the winner into D */
static inline spmv_status SPMV_NAME(auto_dev__finish)(SPMV_NAME(auto_dev) *D, SPMV_NAME(auto_dev__run) *W) {
    spmv_auto_report *R = W->R;
    spmv_status fs = SPMV_OK;
    spmv_cuda_release(&W->x, &fs);
    spmv_cuda_release(&W->y, &fs);
    if (fs == SPMV_OK) fs = spmv_cuda_status(cudaEventDestroy(W->e0));
    else (void)cudaEventDestroy(W->e0);
    W->e0 = NULL;
    if (fs == SPMV_OK) fs = spmv_cuda_status(cudaEventDestroy(W->e1));
    else (void)cudaEventDestroy(W->e1);
    W->e1 = NULL;
    if (fs != SPMV_OK) {
        W->failed = "freeing the trial vectors";
        return fs;
    }
    D->h = W->best;
    R->chosen_idx = W->best_i;
    R->chosen = R->cand[W->best_i].fmt;
    R->chosen_spmv_s = R->cand[W->best_i].spmv_s;
    R->select_s = spmv_wtime() - W->t0;
    R->select_spmvs = R->chosen_spmv_s > 0 ? R->select_s / R->chosen_spmv_s : 0;
    return SPMV_OK;
}

static inline spmv_status SPMV_NAME(auto_dev__select)(SPMV_NAME(auto_dev) *D, const SPMV_NAME(csr) *A,
                                                        const spmv_opts *o, cudaStream_t s) {
    spmv_auto_report *R;
    spmv_opts opts = o ? *o : spmv_opts_default();
    SPMV_NAME(auto_dev__run) W;
    spmv_error e;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    memset(&W, 0, sizeof W);
    W.t0 = spmv_wtime();
    R = &D->rep;
    R->device = 1;
    R->chosen = SPMV_FMT_COUNT_;
    R->chosen_idx = -1;
    if (spmv_opts_check(&opts, &e) != SPMV_OK) {
        snprintf(R->why, sizeof R->why, "bad options: %.180s", e.msg);
        return SPMV_ERR_ARG;
    }
    R->opts = opts;
    if (!A) {
        snprintf(R->why, sizeof R->why, "no matrix (A is NULL)");
        return SPMV_ERR_ARG;
    }
    if ((st = SPMV_NAME(csr_check)(A)) != SPMV_OK) {
        snprintf(R->why, sizeof R->why, "the CSR matrix is malformed: %s", spmv_status_str(st));
        return st;
    }
    if (spmv_cuda_device_count() == 0) {
        snprintf(R->why, sizeof R->why, "no CUDA device (%s)", cudaGetErrorString(spmv_cuda_last_error()));
        return SPMV_ERR_NODEVICE;
    }
    /* 2. the inspection and the shortlist (the device has no gate: an upload costs more than looking) */
    if ((st = SPMV_NAME(auto_features)(A, &R->feat)) != SPMV_OK) {
        snprintf(R->why, sizeof R->why, "inspection of A failed: %s", spmv_status_str(st));
        return st;
    }
    R->features_s = spmv_wtime() - W.t0;
    spmv_auto__shortlist(R, 1, NULL);
    W.A = A;
    W.R = R;
    W.s = s;
    if (opts.deterministic || opts.budget < 4 || A->nnz == 0) return SPMV_NAME(auto_dev__untimed)(D, &W);
    st = SPMV_NAME(auto_dev__csr_trial)(&W);
    if (st == SPMV_OK) st = SPMV_NAME(auto_dev__candidates)(&W);
    if (st == SPMV_OK) st = SPMV_NAME(auto_dev__pick)(&W);
    if (st == SPMV_OK) st = SPMV_NAME(auto_dev__finish)(D, &W);
    return st == SPMV_OK ? st : SPMV_NAME(auto_dev__fail)(D, &W, st);
}

/* Inspects A, times the shortlist on the device within the budget and keeps the winner in
 * *D (see the top of this file). o: NULL for spmv_opts_default(). s: the stream of the
 * uploads and trials (the call waits for them). On failure *D is zeroed except D->rep,
 * nothing is left allocated on the host or the device, and e (may be NULL) says what
 * failed; D->rep.why explains the choice (or the failure). */
static inline spmv_status SPMV_NAME(auto_dev_from_csr)(SPMV_NAME(auto_dev) *D, const SPMV_NAME(csr) *A,
                                                       const spmv_opts *o, spmv_error *e, cudaStream_t s = 0) {
    spmv_status st;
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (o && o->mm_k > 1) {
        if (D) memset(D, 0, sizeof *D);
        SPMV__ERR(e, "mm_k = %d: the device has no SpMM kernel yet (0 or 1 on the device)", o->mm_k);
        return SPMV_ERR_UNSUPPORTED;
    }
    if (o && o->transpose == 1 && A && D) { /* choose for A^T, the matrix the handle will hold */
        SPMV_NAME(csr) At;
        spmv_opts o2 = *o;
        o2.transpose = 0;
        if ((st = SPMV_NAME(csr_transpose)(&At, A)) != SPMV_OK) {
            memset(D, 0, sizeof *D);
            SPMV__ERR(e, "transposing A: %s", spmv_status_str(st));
            return st;
        }
        st = SPMV_NAME(auto_dev__select)(D, &At, &o2, s);
        SPMV_NAME(csr_free)(&At);
    } else {
        st = SPMV_NAME(auto_dev__select)(D, A, o, s);
    }
    if (st != SPMV_OK) SPMV__ERR(e, "%s", D ? D->rep.why : "no handle (D is NULL)");
    return st;
}
