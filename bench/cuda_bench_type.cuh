/* Per-precision part of spmv-cuda; included by bench/spmv_cuda.cu once per (BT_TAG, BT_VAL),
 * after the tool's common part (tool_opts, tool_dev, tool_row, tool_time, tool_print_row). */
#define BN(x) SPMV_CAT(SPMV_CAT3(spmv_, BT_TAG, _), x)
#define BF(x) SPMV_CAT3(tool_, BT_TAG, x)

/* What every row of one matrix shares. */
typedef struct BF(_ctx) {
    const tool_opts *o;
    const tool_dev *d;
    const BN(csr) * A;        /* the operator: A, or A^T under --op mvt (sizes, reference, tolerances) */
    const BN(csr) * src;      /* the matrix as given: what the rows are built from */
    int64_t k;                /* vectors per call: 1, or N under --op mm:k=N */
    int64_t ny;               /* values of Y: A->nrows * k */
    int64_t ldx, ldy;         /* leading dimensions (column-major: A's ncols and nrows; row-major: k) */
    spmv_layout lay;
    BT_VAL *dx, *dy;          /* device X (ncols x k) and Y (nrows x k) */
    BT_VAL *hy;               /* host copy of Y for the check */
    long double *ref, *scale; /* long-double reference (csr_mv_ref per vector), in Y's layout */
    double *rtol;             /* per-row tolerance: the tests' max(base, 8 eps sqrt(len + 1)) */
} BF(_ctx);

/* The row of A that value i of Y belongs to. */
static inline int64_t BF(_yrow)(const BF(_ctx) * c, int64_t i) {
    return c->lay == SPMV_ROW_MAJOR ? i / c->k : i % (c->A->nrows ? c->A->nrows : 1);
}

/* cuSPARSE is given the int32 CSR arrays as they are. */
static_assert(sizeof(((BN(csr) *)0)->nrows) == 4, "spmv-cuda: cuSPARSE rows need 32-bit indices");

/* NaN in every entry of y (all bits set is a NaN for float and double): an entry the
 * kernel does not write then fails the check. */
static int BF(_poison)(const BF(_ctx) * c, char *msg, size_t n) {
    return tool_cuda(cudaMemsetAsync(c->dy, 0xff, sizeof(BT_VAL) * (size_t)c->ny, c->d->stream),
                     "cudaMemsetAsync(y)", msg, n);
}

/* Waits for the product, downloads y; *err = max relative error over the rows, *over = 1
 * when a row's error is above its tolerance (a sequential float sum over a long row loses
 * ~eps sqrt(length): one fixed tolerance would fail correct results). 0 or 1 (msg filled). */
static int BF(_check)(const BF(_ctx) * c, double *err, int *over, char *msg, size_t n) {
    int64_t i;
    double worst = 0;
    if (tool_cuda(cudaMemcpyAsync(c->hy, c->dy, sizeof(BT_VAL) * (size_t)c->ny, cudaMemcpyDeviceToHost,
                                  c->d->stream),
                  "download y", msg, n) ||
        tool_cuda(cudaStreamSynchronize(c->d->stream), "product", msg, n))
        return 1;
    for (i = 0; i < c->ny; i++) {
        long double e;
        const long double ref = c->ref[i];
        const BT_VAL y = c->hy[i];
        const int64_t r = BF(_yrow)(c, i);
        if (isnan(ref) || isinf(ref)) {
            if (isnan(ref) ? !isnan(y) : (long double)y != ref) worst = INFINITY;
            continue;
        }
        if (isnan(y) || isinf(y)) {
            worst = INFINITY;
            continue;
        }
        e = fabsl((long double)y - ref);
        if (c->scale[i] > 0) e /= c->scale[i];
        if ((double)e > worst) worst = (double)e;
        if ((double)e > c->rtol[r]) *over = 1;
    }
    if (!(worst < INFINITY)) *over = 1;
    *err = worst;
    return 0;
}

/* The row's call on a NaN-filled y, checked against the reference (*err, *over), then timed
 * into *t. 0, or 1 (r->msg filled). */
template <class F>
static int BF(_run)(const BF(_ctx) * c, F &&call, tool_row *r, double *err, int *over, double *t) {
    return BF(_poison)(c, r->msg, sizeof r->msg) || call() || BF(_check)(c, err, over, r->msg, sizeof r->msg) ||
           tool_time(c->d, c->o->reps, c->o->min_time, call, t, r->msg, sizeof r->msg);
}

/* Median of the product alone, x scattered in once before (what --tune compares). */
static int BF(_time_kernel)(const BF(_ctx) * c, const BN(any_dev) * D, int min_reps, double min_total, double *t,
                            char *msg, size_t n) {
    if (tool_st(BN(any_dev_update_x)(D, c->dx, c->d->stream), "update_x", msg, n)) return 1;
    return tool_time(
        c->d, min_reps, min_total,
        [&]() { return tool_st(BN(any_dev_mv_kernel)(D, (BT_VAL)1, c->dx, (BT_VAL)0, c->dy, c->d->stream), "mv_kernel", msg, n); },
        t, msg, n);
}

/* --tune compares candidates on shorter runs than the reported rows. */


/* One cuSPARSE row (generic API, CSR, int32 indices) on the device CSR C. convert =
 * descriptors + buffer allocation + preprocess; the CSR upload is not counted (a cuSPARSE
 * user already holds the CSR on the device). Every status checked; failure -> ROW_ERROR. */
static void BF(_cusparse)(const BF(_ctx) * c, const BN(csr_dev) * C, cusparseSpMVAlg_t alg, tool_row *r) {
    const BN(csr) *A = c->src; /* --op mvt: C holds A, the product is with A^T */
    const tool_dev *d = c->d;
    const cudaDataType vt = sizeof(BT_VAL) == 8 ? CUDA_R_64F : CUDA_R_32F;
    const int tr = c->o->op == 1;
    const cusparseOperation_t op = tr ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
    const BT_VAL one = 1, zero = 0;
    cusparseConstSpMatDescr_t mat = NULL;
    cusparseConstDnVecDescr_t vx = NULL;
    cusparseDnVecDescr_t vy = NULL;
    void *buf = NULL;
    size_t bsz = 0, n = sizeof r->msg;
    char *msg = r->msg;
    double t0 = spmv_wtime();
    int bad, over = 0;
    r->state = ROW_ERROR;
    snprintf(r->params, sizeof r->params, "%s%s", alg == CUSPARSE_SPMV_CSR_ALG2 ? "alg=csr_alg2" : "alg=default",
             tr ? ",transpose" : "");
    if (!d->sp) {
        snprintf(msg, n, "%s", d->sp_err);
        return;
    }
    bad = tool_sp(cusparseCreateConstCsr(&mat, A->nrows, A->ncols, A->nnz, C->row_ptr, C->col_idx, C->val,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt),
                  "cusparseCreateConstCsr", msg, n) ||
          tool_sp(cusparseCreateConstDnVec(&vx, tr ? A->nrows : A->ncols, c->dx, vt), "cusparseCreateConstDnVec", msg, n) ||
          tool_sp(cusparseCreateDnVec(&vy, tr ? A->ncols : A->nrows, c->dy, vt), "cusparseCreateDnVec", msg, n) ||
          tool_sp(cusparseSpMV_bufferSize(d->sp, op, &one, mat, vx, &zero, vy, vt, alg, &bsz),
                  "cusparseSpMV_bufferSize", msg, n) ||
          (bsz > 0 && tool_cuda(cudaMalloc(&buf, bsz), "cudaMalloc(cuSPARSE buffer)", msg, n));
#if CUSPARSE_VERSION >= 12400 /* cusparseSpMV_preprocess: cuSPARSE 12.4 on */
    bad = bad || tool_sp(cusparseSpMV_preprocess(d->sp, op, &one, mat, vx, &zero, vy, vt, alg, buf),
                         "cusparseSpMV_preprocess", msg, n);
#endif
    bad = bad || tool_cuda(cudaStreamSynchronize(d->stream), "cuSPARSE set-up", msg, n);
    r->conv = spmv_wtime() - t0;
    {
        auto call = [&]() {
            return tool_sp(cusparseSpMV(d->sp, op, &one, mat, vx, &zero, vy, vt, alg, buf), "cusparseSpMV", msg, n);
        };
        bad = bad || BF(_run)(c, call, r, &r->err, &over, &r->mv);
    }
    if (vy) cusparseDestroyDnVec(vy);
    if (vx) cusparseDestroyDnVec(vx);
    if (mat) cusparseDestroySpMat(mat);
    if (buf) cudaFree(buf);
    if (bad) return;
    r->kern = r->mv;
    r->fbytes = (double)BN(csr_bytes)(A);
    r->bytes = r->kbytes = r->fbytes + (double)sizeof(BT_VAL) * ((double)A->ncols + (double)A->nrows);
    r->state = !over ? ROW_OK : ROW_BADERR;
}

/* The cuSPARSE row under --op mm:k=N: cusparseSpMM (CSR, int32, ALG_DEFAULT) with X and Y dense in
 * the bench's layout; convert = descriptors + buffer + preprocess, as for SpMV. */
static void BF(_cusparse_mm)(const BF(_ctx) * c, const BN(csr_dev) * C, tool_row *r) {
    const BN(csr) *A = c->A;
    const tool_dev *d = c->d;
    const cudaDataType vt = sizeof(BT_VAL) == 8 ? CUDA_R_64F : CUDA_R_32F;
    const cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cusparseOrder_t ord = c->lay == SPMV_ROW_MAJOR ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    const cusparseSpMMAlg_t alg = CUSPARSE_SPMM_ALG_DEFAULT;
    const BT_VAL one = 1, zero = 0;
    cusparseConstSpMatDescr_t mat = NULL;
    cusparseConstDnMatDescr_t mx = NULL;
    cusparseDnMatDescr_t my = NULL;
    void *buf = NULL;
    size_t bsz = 0, n = sizeof r->msg;
    char *msg = r->msg;
    double t0 = spmv_wtime();
    int bad, over = 0;
    r->state = ROW_ERROR;
    snprintf(r->params, sizeof r->params, "spmm,k=%d,%s", (int)c->k, c->lay == SPMV_ROW_MAJOR ? "row" : "col");
    if (!d->sp) {
        snprintf(msg, n, "%s", d->sp_err);
        return;
    }
    bad = tool_sp(cusparseCreateConstCsr(&mat, A->nrows, A->ncols, A->nnz, C->row_ptr, C->col_idx, C->val,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt),
                  "cusparseCreateConstCsr", msg, n) ||
          tool_sp(cusparseCreateConstDnMat(&mx, A->ncols, c->k, c->ldx, c->dx, vt, ord), "cusparseCreateConstDnMat", msg, n) ||
          tool_sp(cusparseCreateDnMat(&my, A->nrows, c->k, c->ldy, c->dy, vt, ord), "cusparseCreateDnMat", msg, n) ||
          tool_sp(cusparseSpMM_bufferSize(d->sp, op, op, &one, mat, mx, &zero, my, vt, alg, &bsz),
                  "cusparseSpMM_bufferSize", msg, n) ||
          (bsz > 0 && tool_cuda(cudaMalloc(&buf, bsz), "cudaMalloc(cuSPARSE buffer)", msg, n)) ||
          tool_sp(cusparseSpMM_preprocess(d->sp, op, op, &one, mat, mx, &zero, my, vt, alg, buf),
                  "cusparseSpMM_preprocess", msg, n) ||
          tool_cuda(cudaStreamSynchronize(d->stream), "cuSPARSE set-up", msg, n);
    r->conv = spmv_wtime() - t0;
    {
        auto call = [&]() {
            return tool_sp(cusparseSpMM(d->sp, op, op, &one, mat, mx, &zero, my, vt, alg, buf), "cusparseSpMM", msg, n);
        };
        bad = bad || BF(_run)(c, call, r, &r->err, &over, &r->mv);
    }
    if (my) cusparseDestroyDnMat(my);
    if (mx) cusparseDestroyDnMat(mx);
    if (mat) cusparseDestroySpMat(mat);
    if (buf) cudaFree(buf);
    if (bad) return;
    r->kern = r->mv;
    r->fbytes = (double)BN(csr_bytes)(A);
    r->bytes = r->kbytes = r->fbytes + (double)sizeof(BT_VAL) * (double)c->k * ((double)A->ncols + (double)A->nrows);
    r->state = !over ? ROW_OK : ROW_BADERR;
}

/* cuSPARSE's BSR SpMV (legacy cusparse<t>bsrmv: the generic API's BSR SpMV is newer than some
 * toolkits) on bcsr's own device layout (column-major blocks = CUSPARSE_DIRECTION_COLUMN),
 * block size from bcsr's estimate. bsrmv reads x and writes y in whole blocks, so only
 * matrices whose dimensions are multiples of bs are run (the block FEM presets). convert = bcsr's host conversion + upload. */
static void BF(_cusparse_bsr)(const BF(_ctx) * c, tool_row *r) {
    const BN(csr) *A = c->A;
    const tool_dev *d = c->d;
    const BT_VAL one = 1, zero = 0;
    BN(bcsr_dev) D;
    spmv_bcsr_params p = spmv_bcsr_dev_params_default();
    cusparseMatDescr_t desc = NULL;
    size_t n = sizeof r->msg;
    char *msg = r->msg;
    double t0 = spmv_wtime();
    int bs = 2, bad, over = 0;
    spmv_status st;
    if (BN(bcsr_estimate)(A, &bs, NULL) != SPMV_OK || A->nrows % bs || A->ncols % bs)
        return; /* not applicable: no row */
    r->state = ROW_ERROR;
    snprintf(r->params, sizeof r->params, "bs=%d,bsrmv", bs);
    if (!d->sp) {
        snprintf(msg, n, "%s", d->sp_err);
        return;
    }
    p.bs = bs;
    st = BN(bcsr_dev_from_csr)(&D, A, &p, d->stream);
    if (st != SPMV_OK) {
        tool_st(st, "bcsr upload", msg, n);
        if (st == SPMV_ERR_LIMIT) r->state = ROW_SKIP;
        return;
    }
    bad = tool_sp(cusparseCreateMatDescr(&desc), "cusparseCreateMatDescr", msg, n) ||
          tool_cuda(cudaStreamSynchronize(d->stream), "cuSPARSE set-up", msg, n);
    r->conv = spmv_wtime() - t0;
    {
        auto call = [&]() {
            return tool_sp(SPMV_CAT3(cusparse, BT_BSRMV, bsrmv)(d->sp, CUSPARSE_DIRECTION_COLUMN,
                                                                CUSPARSE_OPERATION_NON_TRANSPOSE, (int)D.nbrows,
                                                                (int)((A->ncols + bs - 1) / bs), (int)D.nblocks, &one,
                                                                desc, D.val, (const int *)D.row_ptr,
                                                                (const int *)D.col_idx, bs, c->dx, &zero, c->dy),
                           "cusparse<t>bsrmv", msg, n);
        };
        bad = bad || BF(_run)(c, call, r, &r->err, &over, &r->mv);
    }
    if (desc) cusparseDestroyMatDescr(desc);
    r->fbytes = (double)BN(bcsr_dev_bytes)(&D);
    (void)BN(bcsr_dev_free)(&D);
    if (bad) return;
    r->kern = r->mv;
    r->bytes = r->kbytes = r->fbytes + (double)sizeof(BT_VAL) * ((double)A->ncols + (double)A->nrows);
    r->state = !over ? ROW_OK : ROW_BADERR;
}

/* Checks and times the device handle D for row r (spmv_s: _any_dev_mv, what a solver pays,
 * AXC/AXT scattering x first; kernel_s: the product alone after one update_x; both checked
 * on a NaN-filled y); fills the footprint columns. Does not free D. 0, or 1 (r->msg filled). */
static int BF(_measure)(const BF(_ctx) * c, const BN(any_dev) * D, tool_row *r, int *over) {
    const tool_dev *d = c->d;
    const double xb = (double)sizeof(BT_VAL) * (double)c->A->ncols * (double)c->k,
                 yb = (double)sizeof(BT_VAL) * (double)c->A->nrows * (double)c->k;
    size_t n = sizeof r->msg;
    char *msg = r->msg;
    double err2 = 0;
    int bad;
    const int mm = c->o->op == 2;
    const int embeds = !mm && BN(any_dev_embeds_x)(D); /* under mm the fallback scatters each vector */
    auto mv = [&]() {
        if (mm)
            return tool_st(BN(any_dev_mm)(D, c->k, (BT_VAL)1, c->dx, c->ldx, (BT_VAL)0, c->dy, c->ldy, c->lay, d->stream),
                           "mm", msg, n);
        return tool_st(BN(any_dev_mv)(D, (BT_VAL)1, c->dx, (BT_VAL)0, c->dy, d->stream), "mv", msg, n);
    };
    auto kern = [&]() {
        return tool_st(BN(any_dev_mv_kernel)(D, (BT_VAL)1, c->dx, (BT_VAL)0, c->dy, d->stream), "mv_kernel", msg, n);
    };
    bad = BF(_run)(c, mv, r, &r->err, over, &r->mv);
    if (!bad && embeds) {
        bad = BF(_poison)(c, msg, n) || tool_st(BN(any_dev_update_x)(D, c->dx, d->stream), "update_x", msg, n) ||
              kern() || BF(_check)(c, &err2, over, msg, n) || tool_time(d, c->o->reps, c->o->min_time, kern, &r->kern, msg, n);
        if (!bad && !(err2 <= r->err)) r->err = err2;
    } else if (!bad) {
        r->kern = r->mv; /* the same call for formats that read x directly */
    }
    r->fbytes = (double)BN(any_dev_bytes)(D);
    r->bytes = r->fbytes + xb + yb;
    r->kbytes = (double)BN(any_dev_kernel_bytes)(D) + yb + (embeds ? 0.0 : xb);
    return bad;
}

/* --op mvt's second csr row: csr_dev_mvt on A as given (no A^T; atomics). convert = the upload. */
static void BF(_csr_mvt)(const BF(_ctx) * c, tool_row *r) {
    const tool_dev *d = c->d;
    BN(any_dev) D;
    spmv_opts bo = spmv_opts_default();
    spmv_status st;
    int over = 0, bad;
    size_t n = sizeof r->msg;
    char *msg = r->msg;
    const double t0 = spmv_wtime();
    r->state = ROW_ERROR;
    bo.format = SPMV_FMT_CSR;
    st = BN(any_dev_from_csr)(&D, c->src, &bo, NULL, d->stream);
    r->conv = spmv_wtime() - t0;
    if (tool_st(st, "csr upload", msg, n)) return;
    BN(any_dev_params_str)(&D, r->params, sizeof r->params);
    snprintf(r->params + strlen(r->params), sizeof r->params - strlen(r->params), ",mvt");
    {
        auto call = [&]() {
            return tool_st(BN(any_dev_mvt)(&D, (BT_VAL)1, c->dx, (BT_VAL)0, c->dy, d->stream), "mvt", msg, n);
        };
        bad = BF(_run)(c, call, r, &r->err, &over, &r->mv);
    }
    r->kern = r->mv;
    r->fbytes = (double)BN(any_dev_bytes)(&D);
    r->bytes = r->kbytes = r->fbytes + (double)sizeof(BT_VAL) * ((double)c->A->ncols + (double)c->A->nrows);
    if (!bad) bad = tool_st(BN(any_dev_free)(&D), "free", msg, n);
    else (void)BN(any_dev_free)(&D);
    if (!bad) r->state = !over ? ROW_OK : ROW_BADERR;
}

/* One row of a device format through the any_dev handle. */
static void BF(_format)(const BF(_ctx) * c, spmv_format f, tool_row *r) {
    const tool_dev *d = c->d;
    BN(any_dev) D;
    spmv_opts bo = spmv_opts_default();
    spmv_error e;
    spmv_status st;
    int over = 0, bad;
    size_t n = sizeof r->msg;
    char *msg = r->msg;
    double t0;
    r->state = ROW_ERROR;
    if (c->o->op == 2 && c->lay == SPMV_ROW_MAJOR && !spmv__dev_mm_native(f)) {
        r->state = ROW_SKIP; /* any_dev_mm: row-major only for the native csr and ELL rows */
        snprintf(msg, n, "no device row-major product with k vectors for this format");
        return;
    }
    bo.format = f;         /* the format's device defaults */
    bo.tune = c->o->tune; /* the registry's search for the format (none: kept) */
    bo.transpose = c->o->op == 1; /* --op mvt: built from A^T (the transpose counted in convert) */
    t0 = spmv_wtime();
    st = BN(any_dev_from_csr)(&D, c->src, &bo, &e, d->stream); /* host conversion + upload, waits */
    r->tune = D.tune_s;
    r->conv = spmv_wtime() - t0 - r->tune;
    if (st != SPMV_OK) {
        snprintf(msg, n, "conversion: %s: %.150s", spmv_status_str(st), e.msg);
        if (st == SPMV_ERR_LIMIT) r->state = ROW_SKIP; /* the format cannot hold this matrix */
        if (st == SPMV_ERR_ARG && (spmv_format_flags(f) & SPMV_FF_SYMMETRIC) && BN(csr_check)(c->src) == SPMV_OK) {
            r->state = ROW_SKIP; /* sss: one triangle of a symmetric matrix; this one is not */
            snprintf(msg, n, "the matrix is not symmetric (%s holds symmetric matrices only)", spmv_format_name(f));
        }
        return;
    }
    BN(any_dev_params_str)(&D, r->params, sizeof r->params);
    if (c->o->op == 1) snprintf(r->params + strlen(r->params), sizeof r->params - strlen(r->params), ",A^T");
    if (c->o->tune && r->tune > 0) fprintf(stderr, "  tune %s: %s (%.2f s)\n", r->format, r->params, r->tune);
    bad = BF(_measure)(c, &D, r, &over);
    if (!bad) bad = tool_st(BN(any_dev_free)(&D), "free", msg, n);
    else (void)BN(any_dev_free)(&D);
    if (!bad) r->state = !over ? ROW_OK : ROW_BADERR;
}

/* The auto row: the automatic selection (formats/cuda/auto.cuh, default options) on the
 * host CSR; convert = the whole selection (inspection, uploads, trials, the chosen
 * format's conversion), params = "<chosen format>:<its parameters>"; then timed and
 * checked like the other rows. */
static void BF(_auto)(const BF(_ctx) * c, tool_row *r) {
    BN(auto_dev) D;
    spmv_status st;
    int over = 0, bad;
    size_t n = sizeof r->msg, l;
    char *msg = r->msg;
    const double t0 = spmv_wtime();
    spmv_error e;
    spmv_opts ao = spmv_opts_default();
    r->state = ROW_ERROR;
    ao.transpose = c->o->op == 1; /* --op mvt: the selection for A^T */
    st = BN(auto_dev_from_csr)(&D, c->src, &ao, &e, c->d->stream);
    r->conv = spmv_wtime() - t0;
    if (st != SPMV_OK) {
        snprintf(msg, n, "selection: %s: %.150s", spmv_status_str(st), e.msg);
        return;
    }
    snprintf(r->params, sizeof r->params, "%s:", spmv_format_name(BN(auto_dev_format)(&D)));
    l = strlen(r->params);
    BN(any_dev_params_str)(&D.h, r->params + l, sizeof r->params - l);
    fprintf(stderr, "  auto: %s (%.3g s, %d timed): %s\n", spmv_format_name(BN(auto_dev_format)(&D)), D.rep.select_s,
            D.rep.trials, D.rep.why);
    bad = BF(_measure)(c, &D.h, r, &over);
    if (!bad) bad = tool_st(BN(auto_dev_free)(&D), "free", msg, n);
    else (void)BN(auto_dev_free)(&D);
    if (!bad) r->state = !over ? ROW_OK : ROW_BADERR;
}

/* `spmv-cuda plan`: the selection on one matrix, its report printed. 0, or 1 when the
 * selection failed. */
static int BF(_plan)(const spmv_triplets *t, const spmv_opts *o, cudaStream_t s, const char *mname) {
    BN(csr) A;
    BN(auto_dev) D;
    spmv_status st;
    char params[96];
    st = BN(csr_from_triplets)(&A, t, NULL, NULL);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv-cuda plan: %s: %s\n", mname, spmv_status_str(st));
        return 1;
    }
    st = BN(auto_dev_from_csr)(&D, &A, o, NULL, s); /* the report says what failed */
    params[0] = 0;
    if (st == SPMV_OK) BN(any_dev_params_str)(&D.h, params, sizeof params);
    tool_print_plan(mname, STR(BT_VAL), &D.rep, st, params);
    if (st == SPMV_OK) st = BN(auto_dev_free)(&D);
    BN(csr_free)(&A);
    return st == SPMV_OK ? 0 : 1;
}

/* Every selected row on one matrix: cuSPARSE first (the x_cusparse baselines), then the
 * device formats; the rows are printed when all are measured. Returns the number of
 * failures; *fatal = 1 when the CUDA context is unusable (a sticky error). */
static int BF(_bench)(const tool_opts *o, const tool_dev *d, const char *mname, const spmv_triplets *trip, FILE *csv,
                      int *fatal) {
    BN(csr) A, At;
    BF(_ctx) c;
    tool_row rows[TOOL_NROWS];
    const int op = o->op;
    char opname[32];
    spmv_status st;
    int64_t i;
    int k, fails = 0;
    char msg[256];
    const int ir_naive = TOOL_FMT0 + SPMV_FMT_CSR_SCALAR;

    memset(&c, 0, sizeof c);
    memset(rows, 0, sizeof rows);
    for (k = 0; k < TOOL_NROWS; k++) {
        rows[k].state = -1; /* not selected */
        snprintf(rows[k].format, sizeof rows[k].format, "%s", row_name(k));
    }
    st = BN(csr_from_triplets)(&A, trip, NULL, NULL);
    if (st == SPMV_OK && op == 1 && (st = BN(csr_transpose)(&At, &A)) != SPMV_OK) BN(csr_free)(&A);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv-cuda: %s: %s\n", mname, spmv_status_str(st));
        return 1;
    }
    if (op == 2) snprintf(opname, sizeof opname, "mm:k=%d%s", o->mm_k, o->mm_row ? ",row" : "");
    else snprintf(opname, sizeof opname, "%s", op == 1 ? "mvt" : "mv");
    c.o = o;
    c.d = d;
    c.src = &A;
    c.A = op == 1 ? &At : &A; /* the operator: sizes, reference and tolerances */
    c.k = op == 2 ? o->mm_k : 1;
    c.lay = op == 2 && o->mm_row ? SPMV_ROW_MAJOR : SPMV_COL_MAJOR;
    c.ldx = c.lay == SPMV_ROW_MAJOR ? c.k : (c.A->ncols > 0 ? c.A->ncols : 1);
    c.ldy = c.lay == SPMV_ROW_MAJOR ? c.k : (c.A->nrows > 0 ? c.A->nrows : 1);
    c.ny = c.A->nrows * c.k;
    c.rtol = (double *)malloc(sizeof(double) * ((size_t)c.A->nrows + 1));
    if (c.rtol) {
        const double eps = sizeof(BT_VAL) == 8 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
        const double base = sizeof(BT_VAL) == 8 ? 1e-12 : 1e-5;
        for (i = 0; i < c.A->nrows; i++) {
            const double t = 8 * eps * sqrt((double)(c.A->row_ptr[i + 1] - c.A->row_ptr[i]) + 1);
            c.rtol[i] = t > base ? t : base;
        }
    }
    {
        const int64_t nx = c.A->ncols * c.k, m = c.A->nrows;
        BT_VAL *x = (BT_VAL *)malloc(sizeof(BT_VAL) * ((size_t)nx + 1));
        BT_VAL *xj = (BT_VAL *)malloc(sizeof(BT_VAL) * ((size_t)c.A->ncols + 1));
        long double *rj = (long double *)malloc(sizeof(long double) * 2 * ((size_t)m + 1));
        c.hy = (BT_VAL *)malloc(sizeof(BT_VAL) * ((size_t)c.ny + 1));
        c.ref = (long double *)malloc(sizeof(long double) * ((size_t)c.ny + 1));
        c.scale = (long double *)malloc(sizeof(long double) * ((size_t)c.ny + 1));
        if (x && xj && rj && c.hy && c.ref && c.scale && c.rtol) {
            int64_t j;
            /* vector j: the single-vector bench's x shifted by j (distinct columns, same range) */
            for (j = 0; j < c.k; j++) {
                for (i = 0; i < c.A->ncols; i++) {
                    xj[i] = (BT_VAL)(1.0 + (double)(((i + 131 * j) * 7919) % 1000) / 1000.0);
                    x[c.lay == SPMV_ROW_MAJOR ? i * c.k + j : j * c.A->ncols + i] = xj[i];
                }
                BN(csr_mv_ref)(c.A, (BT_VAL)1, xj, (BT_VAL)0, NULL, rj, rj + m + 1);
                for (i = 0; i < m; i++) {
                    const int64_t at = c.lay == SPMV_ROW_MAJOR ? i * c.k + j : j * m + i;
                    c.ref[at] = rj[i];
                    c.scale[at] = rj[m + 1 + i];
                }
            }
            /* +1: never a zero-size allocation */
            if (tool_cuda(cudaMalloc((void **)&c.dx, sizeof(BT_VAL) * ((size_t)nx + 1)), "cudaMalloc(x)", msg,
                          sizeof msg) ||
                tool_cuda(cudaMalloc((void **)&c.dy, sizeof(BT_VAL) * ((size_t)c.ny + 1)), "cudaMalloc(y)", msg,
                          sizeof msg) ||
                tool_cuda(cudaMemcpyAsync(c.dx, x, sizeof(BT_VAL) * (size_t)nx, cudaMemcpyHostToDevice,
                                          d->stream),
                          "upload x", msg, sizeof msg) ||
                tool_cuda(cudaStreamSynchronize(d->stream), "upload x", msg, sizeof msg)) {
                fprintf(stderr, "spmv-cuda: %s: %s\n", mname, msg);
                fails = 1;
            }
        } else {
            fprintf(stderr, "spmv-cuda: %s: out of host memory\n", mname);
            fails = 1;
        }
        free(x);
        free(xj);
        free(rj);
    }

    if (!fails && (o->formats[TOOL_CUSPARSE] || o->formats[TOOL_CUSPARSE_ALG2])) {
        BN(csr_dev) C;
        fprintf(stderr, "  %s cusparse...\r", mname);
        st = BN(csr_to_device)(&C, &A, d->stream);
        for (k = TOOL_CUSPARSE; k <= TOOL_CUSPARSE_ALG2; k++) {
            if (!o->formats[k]) continue;
            if (st != SPMV_OK) {
                rows[k].state = ROW_ERROR;
                tool_st(st, "CSR upload", rows[k].msg, sizeof rows[k].msg);
            } else if (op == 2) {
                if (k == TOOL_CUSPARSE) BF(_cusparse_mm)(&c, &C, &rows[k]); /* no second SpMM row */
                else rows[k].state = -1;
            } else if (op == 1 && k == TOOL_CUSPARSE_ALG2) {
                rows[k].state = -1; /* ALG2 is a non-transpose algorithm */
            } else {
                BF(_cusparse)(&c, &C, k == TOOL_CUSPARSE ? CUSPARSE_SPMV_ALG_DEFAULT : CUSPARSE_SPMV_CSR_ALG2, &rows[k]);
            }
        }
        (void)BN(csr_dev_free)(&C);
        for (k = TOOL_CUSPARSE; k <= TOOL_CUSPARSE_ALG2; k++)
            if (rows[k].state == ROW_ERROR && cudaDeviceSynchronize() != cudaSuccess) *fatal = 1;
    }
    if (!fails && !*fatal && o->formats[TOOL_CUSPARSE_BSR] && op == 0) {
        fprintf(stderr, "  %s cusparse_bsr...\r", mname);
        BF(_cusparse_bsr)(&c, &rows[TOOL_CUSPARSE_BSR]);
        if (rows[TOOL_CUSPARSE_BSR].state == ROW_ERROR && cudaDeviceSynchronize() != cudaSuccess) *fatal = 1;
    }
    for (k = TOOL_FMT0; k < TOOL_AUTO && !fails && !*fatal; k++) {
        if (!o->formats[k] || !(spmv_format_flags((spmv_format)(k - TOOL_FMT0)) & SPMV_FF_CUDA)) continue;
        fprintf(stderr, "  %s %s...%20s\r", mname, rows[k].format, "");
        BF(_format)(&c, (spmv_format)(k - TOOL_FMT0), &rows[k]);
        /* a kernel fault poisons the context: every later call would fail too */
        if (rows[k].state == ROW_ERROR && cudaDeviceSynchronize() != cudaSuccess) *fatal = 1;
    }
    if (!fails && !*fatal && o->formats[TOOL_CSR_MVT] && op == 1) {
        fprintf(stderr, "  %s csr mvt...%20s\r", mname, "");
        BF(_csr_mvt)(&c, &rows[TOOL_CSR_MVT]);
        if (rows[TOOL_CSR_MVT].state == ROW_ERROR && cudaDeviceSynchronize() != cudaSuccess) *fatal = 1;
    }
    if (!fails && !*fatal && o->formats[TOOL_AUTO] && op != 2) {
        fprintf(stderr, "  %s auto...%20s\r", mname, "");
        BF(_auto)(&c, &rows[TOOL_AUTO]);
        if (rows[TOOL_AUTO].state == ROW_ERROR && cudaDeviceSynchronize() != cudaSuccess) *fatal = 1;
    }
    fprintf(stderr, "%70s\r", "");

    for (k = 0; k < TOOL_NROWS; k++) {
        if (rows[k].state < 0) continue;
        if (rows[k].state == ROW_ERROR || rows[k].state == ROW_BADERR) fails++;
        if (rows[k].state == ROW_ERROR || rows[k].state == ROW_SKIP)
            fprintf(stderr, "spmv-cuda: %s: %s: %s\n", mname, rows[k].format, rows[k].msg);
        tool_print_row(d, mname, (long long)c.A->nrows, (long long)c.A->ncols, (long long)c.A->nnz, STR(BT_VAL),
                       &rows[k], rows[ir_naive].state == ROW_OK ? rows[ir_naive].mv : 0.0,
                       rows[TOOL_CUSPARSE].state == ROW_OK ? rows[TOOL_CUSPARSE].mv : 0.0,
                       rows[TOOL_CUSPARSE_ALG2].state == ROW_OK ? rows[TOOL_CUSPARSE_ALG2].mv : 0.0, opname,
                       (double)c.k, csv);
    }
    fflush(stdout);
    if (csv) fflush(csv);
    if (c.dx) cudaFree(c.dx);
    if (c.dy) cudaFree(c.dy);
    BN(csr_free)(&A);
    if (op == 1) BN(csr_free)(&At);
    free(c.hy);
    free(c.ref);
    free(c.scale);
    free(c.rtol);
    return fails;
}
#undef BN
#undef BF
#undef BT_TAG
#undef BT_VAL
#undef BT_BSRMV
