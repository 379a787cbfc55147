/* dist — a matrix distributed by rows over MPI ranks (template header: included once per
 * tag by spmv_mpi.h, after formats/instance.h has defined SPMV_NAME, SPMV_T, SPMV_I).
 *
 * Layout (the model of PETSc's MATMPIAIJ and hypre's ParCSR): rank p owns rows
 * [row_start[p], row_start[p+1]) and the entries [col_start[p], col_start[p+1]) of x and y
 * (the same ranges for a square matrix, an even split of the columns otherwise). Its rows
 * are two blocks, each a registry format behind an spmv_<tag>_any handle:
 *   diag  its rows x its own columns (local column indices), multiplied while the ghosts travel;
 *   offd  its rows x the ghost columns, compressed to 0..nghost-1 in the order of `garray`
 *         (the sorted global columns it reads from other ranks, hence grouped by owner).
 * The plan, built once: from each owner q the ghosts in garray's run for q (recv), to each
 * rank that needs some of ours the local indices it reads (send). A product:
 *   post the receives, pack and post the sends, y = alpha*diag*x + beta*y, wait for the
 *   receives, y += alpha*offd*ghosts, wait for the sends.
 * Same bits for a fixed rank and thread count: the diag sum, then the offd sum, per row.
 * Errors are collective: every builder combines the ranks' statuses (an allreduce of the
 * worst) before it returns, so every rank returns the same status and none waits for a
 * rank that gave up; MPI errors come back as statuses on a duplicated communicator
 * (MPI_ERRORS_RETURN), never abort. */

typedef struct SPMV_NAME(dist) {
    MPI_Comm comm;                 /* duplicated from the caller's; MPI_COMM_NULL when empty */
    int rank, size;
    int64_t nrows, ncols;          /* global */
    int64_t *row_start, *col_start; /* size + 1 each */
    int64_t row0, col0, nloc, ncloc; /* this rank's first row and column, its rows and columns */
    int64_t nnzloc;                /* this rank's entries (both blocks) */
    SPMV_NAME(any) diag, offd;
    int64_t nghost;
    int64_t *garray;               /* nghost global columns, ascending */
    int nrecv, nsend;              /* neighbours */
    int *recv_rank, *send_rank;
    int64_t *recv_off, *send_off;  /* nrecv+1 / nsend+1 offsets into ghost / send_idx */
    SPMV_I *send_idx;              /* local indices of x to send, per neighbour in order */
    SPMV_Y *ghost, *sendbuf;
    MPI_Request *req;              /* nrecv + nsend */
    int mvt_ok;                    /* dist_mvt: 0 not asked yet, 1 every rank's blocks have a transpose
                                      product, 2 not (agreed over the ranks at the first call) */
    /* dist_mv's time on this rank, summed since the build (the caller may zero them): packing
       and posting the sends, the two blocks' products, waiting for receives and sends; nmv calls */
    double t_pack, t_local, t_wait;
    int64_t nmv;
} SPMV_NAME(dist);

/* a 16-bit value (tags h, b) travels as its bits, a complex one (c, z) as MPI's C complex type */
static inline MPI_Datatype SPMV_NAME(dist__mpi_t)(void) {
#if SPMV__MPI_CPLX
    return sizeof(SPMV_T) == 16 ? MPI_C_DOUBLE_COMPLEX : MPI_C_FLOAT_COMPLEX;
#else
    return sizeof(SPMV_T) == 2 ? MPI_UINT16_T : sizeof(SPMV_T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
#endif
}
/* the vectors' type (x's ghosts, the transpose product's partial sums): SPMV_Y, a float matrix's
 * double vectors (tag ds) included */
static inline MPI_Datatype SPMV_NAME(dist__mpi_y)(void) {
#if SPMV__MPI_CPLX
    return SPMV_NAME(dist__mpi_t)();
#else
    return sizeof(SPMV_Y) == 4 ? MPI_FLOAT : MPI_DOUBLE;
#endif
}
/* entry k of a block's triplets from a stored value: a complex one's imaginary part in vim */
static inline void SPMV_NAME(dist__put)(spmv_triplets *t, int64_t k, SPMV_T v) {
#if SPMV__MPI_CPLX
    t->val[k] = (double)__builtin_creal(v), t->vim[k] = (double)__builtin_cimag(v);
#else
    t->val[k] = (double)SPMV_CAT(SPMV__TV_, SPMV_T)(v);
#endif
}
static inline spmv_status SPMV_NAME(dist__trip_alloc)(spmv_triplets *t, int64_t m, int64_t n, int64_t nnz) {
    spmv_status st = spmv_triplets_alloc(t, m, n, nnz);
#if SPMV__MPI_CPLX
    if (st == SPMV_OK && !(t->vim = SPMV_ALLOC_N(double, (size_t)nnz + 1))) st = SPMV_ERR_ALLOC;
#endif
    return st;
}

static inline void SPMV_NAME(dist_free)(SPMV_NAME(dist) *D) {
    if (!D) return;
    SPMV_NAME(any_free)(&D->diag);
    SPMV_NAME(any_free)(&D->offd);
    spmv__free(D->row_start);
    spmv__free(D->col_start);
    spmv__free(D->garray);
    spmv__free(D->recv_rank);
    spmv__free(D->send_rank);
    spmv__free(D->recv_off);
    spmv__free(D->send_off);
    spmv__free(D->send_idx);
    spmv__free(D->ghost);
    spmv__free(D->sendbuf);
    spmv__free(D->req);
    if (D->comm != MPI_COMM_NULL && D->comm != 0) MPI_Comm_free(&D->comm);
    memset(D, 0, sizeof *D);
    D->comm = MPI_COMM_NULL;
}

/* the owner of global index g in starts[0..size] (starts ascending) */
static inline int SPMV_NAME(dist__owner)(const int64_t *starts, int size, int64_t g) {
    int lo = 0, hi = size - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (starts[mid] <= g) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* every rank's worst status (the enum's order: SPMV_OK is 0) and the message of the lowest
 * rank that failed, into e on every rank */
static inline spmv_status SPMV_NAME(dist__agree)(MPI_Comm comm, spmv_status st, spmv_error *e) {
    int mine = (int)st, worst = 0, rank = 0, who = 0, cand;
    char msg[sizeof e->msg];
    if (MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) return SPMV_ERR_MPI;
    if (worst == 0) return SPMV_OK;
    MPI_Comm_rank(comm, &rank);
    cand = mine != 0 ? rank : INT32_MAX;
    if (MPI_Allreduce(&cand, &who, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) return SPMV_ERR_MPI;
    memset(msg, 0, sizeof msg);
    if (rank == who) { /* one "rank N:" however many agreements the message went through */
        const char *m = e && e->msg[0] ? e->msg : spmv_status_str(st);
        if (!strncmp(m, "rank ", 5)) snprintf(msg, sizeof msg, "%.250s", m);
        else snprintf(msg, sizeof msg, "rank %d: %.230s", rank, m);
    }
    if (MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, who, comm) != MPI_SUCCESS) return SPMV_ERR_MPI;
    if (e) {
        e->line = 0;
        memcpy(e->msg, msg, sizeof msg);
        e->msg[sizeof e->msg - 1] = 0;
    }
    return (spmv_status)worst;
}

/* the builders' common start: e cleared, D empty, comm checked */
static inline spmv_status SPMV_NAME(dist__begin)(SPMV_NAME(dist) *D, MPI_Comm comm, spmv_error *e) {
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    D->comm = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL) {
        SPMV__ERR(e, "no communicator");
        return SPMV_ERR_ARG;
    }
    return SPMV_OK;
}

/* The rows of this rank (L: L->nrows local rows with global column indices, L->ncols the
 * global column count, the same on every rank) into D: the blocks and the plan. Collective.
 * row_start: size+1 global row offsets, the same on every rank (NULL: from the ranks'
 * L->nrows in rank order). o: the blocks' format and options (NULL: csr). */
static inline spmv_status SPMV_NAME(dist_from_local_csr)(SPMV_NAME(dist) *D, MPI_Comm comm, const SPMV_NAME(csr) *L,
                                                         const int64_t *row_start, const spmv_opts *o, spmv_error *e) {
    spmv_status st = SPMV_OK;
    spmv_error le;
    int rank = 0, size = 1, p;
    int64_t i, k, mine[2] = {0, 0};
    int64_t *all = NULL, *give = NULL;
    int *sc = NULL, *sd = NULL, *rc = NULL, *rd = NULL;
    spmv_triplets td, to;
    memset(&le, 0, sizeof le);
    memset(&td, 0, sizeof td);
    memset(&to, 0, sizeof to);
    if ((st = SPMV_NAME(dist__begin)(D, comm, e)) != SPMV_OK) return st;
    if (MPI_Comm_dup(comm, &D->comm) != MPI_SUCCESS) {
        D->comm = MPI_COMM_NULL;
        SPMV__ERR(e, "MPI_Comm_dup failed");
        return SPMV_ERR_MPI;
    }
    MPI_Comm_set_errhandler(D->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(D->comm, &rank);
    MPI_Comm_size(D->comm, &size);
    D->rank = rank;
    D->size = size;
    /* 1. sizes, agreed: every rank's (local rows, global columns) */
    if (!L) snprintf(le.msg, sizeof le.msg, "no local matrix (L is NULL)"), st = SPMV_ERR_ARG;
    else if ((st = SPMV_NAME(csr_check)(L)) != SPMV_OK) snprintf(le.msg, sizeof le.msg, "local CSR malformed: %s", spmv_status_str(st));
    if (st == SPMV_OK) mine[0] = L->nrows, mine[1] = L->ncols;
    all = SPMV_ALLOC_N(int64_t, 2 * (size_t)size + 2);
    D->row_start = SPMV_ALLOC_N(int64_t, (size_t)size + 1);
    D->col_start = SPMV_ALLOC_N(int64_t, (size_t)size + 1);
    if (st == SPMV_OK && (!all || !D->row_start || !D->col_start)) st = SPMV_ERR_ALLOC;
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
    if (st != SPMV_OK) goto done;
    if (MPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, D->comm) != MPI_SUCCESS) {
        st = SPMV_ERR_MPI;
        goto done;
    }
    D->row_start[0] = 0;
    for (p = 0; p < size; p++) D->row_start[p + 1] = D->row_start[p] + all[2 * p];
    for (p = 1; p < size && st == SPMV_OK; p++)
        if (all[2 * p + 1] != all[1]) {
            snprintf(le.msg, sizeof le.msg, "ranks disagree on the column count (%lld on rank 0, %lld on rank %d)",
                     (long long)all[1], (long long)all[2 * p + 1], p);
            st = SPMV_ERR_ARG;
        }
    if (st == SPMV_OK && row_start) {
        for (p = 0; p <= size && st == SPMV_OK; p++)
            if (row_start[p] != D->row_start[p]) {
                snprintf(le.msg, sizeof le.msg,
                         "row_start[%d] = %lld, but the ranks' local rows add up to %lld there", p,
                         (long long)row_start[p], (long long)D->row_start[p]);
                st = SPMV_ERR_ARG;
            }
    }
    st = SPMV_NAME(dist__agree)(D->comm, st, &le); /* the checks ran on every rank alike */
    if (st != SPMV_OK) goto done;
    D->nrows = D->row_start[size];
    D->ncols = all[1];
    if (D->nrows == D->ncols) memcpy(D->col_start, D->row_start, sizeof(int64_t) * ((size_t)size + 1));
    else
        for (p = 0; p <= size; p++) D->col_start[p] = D->ncols * p / size;
    D->row0 = D->row_start[rank];
    D->nloc = L->nrows;
    D->nnzloc = (int64_t)L->nnz;
    D->col0 = D->col_start[rank];
    D->ncloc = D->col_start[rank + 1] - D->col0;

    /* 2. the ghosts: the columns outside [col0, col0+ncloc), sorted and unique */
    {
        int64_t nout = 0, ng = 0;
        for (k = 0; k < L->nnz; k++) nout += L->col_idx[k] < D->col0 || L->col_idx[k] >= D->col0 + D->ncloc;
        D->garray = SPMV_ALLOC_N(int64_t, (size_t)nout + 1);
        if (!D->garray) st = SPMV_ERR_ALLOC;
        else {
            for (k = 0; k < L->nnz; k++)
                if (L->col_idx[k] < D->col0 || L->col_idx[k] >= D->col0 + D->ncloc) D->garray[ng++] = L->col_idx[k];
            qsort(D->garray, (size_t)ng, sizeof(int64_t), spmv__dist_cmp64);
            for (i = 0, nout = 0; i < ng; i++)
                if (i == 0 || D->garray[i] != D->garray[i - 1]) D->garray[nout++] = D->garray[i];
            D->nghost = nout;
        }
    }
    /* 3. the blocks, as triplets: local rows, local or compressed columns */
    if (st == SPMV_OK) {
        int64_t nd = 0, no = 0;
        for (k = 0; k < L->nnz; k++) {
            const int64_t c = L->col_idx[k];
            if (c >= D->col0 && c < D->col0 + D->ncloc) nd++;
            else no++;
        }
        if ((st = SPMV_NAME(dist__trip_alloc)(&td, D->nloc, D->ncloc, nd)) == SPMV_OK)
            st = SPMV_NAME(dist__trip_alloc)(&to, D->nloc, D->nghost, no);
        if (st == SPMV_OK) {
            nd = no = 0;
            for (i = 0; i < L->nrows; i++)
                for (k = L->row_ptr[i]; k < L->row_ptr[i + 1]; k++) {
                    const int64_t c = L->col_idx[k];
                    if (c >= D->col0 && c < D->col0 + D->ncloc) {
                        td.row[nd] = i, td.col[nd] = c - D->col0;
                        SPMV_NAME(dist__put)(&td, nd++, L->val[k]);
                    } else {
                        int64_t lo = 0, hi = D->nghost - 1; /* garray holds c */
                        while (lo < hi) {
                            int64_t mid = lo + (hi - lo) / 2;
                            if (D->garray[mid] < c) lo = mid + 1;
                            else hi = mid;
                        }
                        to.row[no] = i, to.col[no] = lo;
                        SPMV_NAME(dist__put)(&to, no++, L->val[k]);
                    }
                }
        }
    }
    if (st == SPMV_OK) {
        SPMV_NAME(csr) B;
        spmv_opts bo = o ? *o : spmv_opts_default();
        if ((st = SPMV_NAME(csr_from_triplets)(&B, &td, NULL, NULL)) == SPMV_OK) {
            st = SPMV_NAME(any_from_csr)(&D->diag, &B, &bo, &le);
            SPMV_NAME(csr_free)(&B);
        }
        if (st == SPMV_OK && (st = SPMV_NAME(csr_from_triplets)(&B, &to, NULL, NULL)) == SPMV_OK) {
            /* the ghost block: few entries per row; the caller's format where it can hold them
               (csr under a symmetric format, which holds the symmetric diagonal block: the
               ghost block is not symmetric, nor square) */
            st = (spmv_format_flags(bo.format) & SPMV_FF_SYMMETRIC) ? SPMV_ERR_LIMIT
                                                                     : SPMV_NAME(any_from_csr)(&D->offd, &B, &bo, &le);
            if (st == SPMV_ERR_LIMIT) {
                spmv_opts co = bo;
                co.format = SPMV_FMT_CSR;
                co.params = NULL;
                st = SPMV_NAME(any_from_csr)(&D->offd, &B, &co, &le);
            }
            SPMV_NAME(csr_free)(&B);
        }
    }
    spmv_triplets_free(&td);
    spmv_triplets_free(&to);
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
    if (st != SPMV_OK) goto done;

    /* 4. the plan: ghosts grouped by owner (garray is sorted), then the owners told what to send */
    sc = SPMV_ALLOC_N(int, (size_t)size);
    sd = SPMV_ALLOC_N(int, (size_t)size + 1);
    rc = SPMV_ALLOC_N(int, (size_t)size);
    rd = SPMV_ALLOC_N(int, (size_t)size + 1);
    if (!sc || !sd || !rc || !rd) st = SPMV_ERR_ALLOC;
    if (st == SPMV_OK) {
        for (p = 0; p < size; p++) rc[p] = 0;
        for (i = 0; i < D->nghost; i++) rc[SPMV_NAME(dist__owner)(D->col_start, size, D->garray[i])]++;
        D->nrecv = 0;
        for (p = 0; p < size; p++) D->nrecv += rc[p] > 0;
    }
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
    if (st != SPMV_OK) goto done;
    if (MPI_Alltoall(rc, 1, MPI_INT, sc, 1, MPI_INT, D->comm) != MPI_SUCCESS) st = SPMV_ERR_MPI;
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
    if (st != SPMV_OK) goto done;
    {
        int64_t ns = 0;
        rd[0] = sd[0] = 0;
        for (p = 0; p < size; p++) rd[p + 1] = rd[p] + rc[p], sd[p + 1] = sd[p] + sc[p];
        ns = sd[size];
        D->nsend = 0;
        for (p = 0; p < size; p++) D->nsend += sc[p] > 0;
        give = SPMV_ALLOC_N(int64_t, (size_t)ns + 1);
        D->recv_rank = SPMV_ALLOC_N(int, (size_t)D->nrecv + 1);
        D->send_rank = SPMV_ALLOC_N(int, (size_t)D->nsend + 1);
        D->recv_off = SPMV_ALLOC_N(int64_t, (size_t)D->nrecv + 1);
        D->send_off = SPMV_ALLOC_N(int64_t, (size_t)D->nsend + 1);
        D->send_idx = SPMV_ALLOC_N(SPMV_I, (size_t)ns + 1);
        D->ghost = SPMV_ALLOC_N(SPMV_Y, (size_t)D->nghost + 1);
        D->sendbuf = SPMV_ALLOC_N(SPMV_Y, (size_t)ns + 1);
        D->req = (MPI_Request *)spmv__alloc((size_t)(D->nrecv + D->nsend) + 1, sizeof(MPI_Request));
        if (!give || !D->recv_rank || !D->send_rank || !D->recv_off || !D->send_off || !D->send_idx || !D->ghost ||
            !D->sendbuf || !D->req)
            st = SPMV_ERR_ALLOC;
        st = SPMV_NAME(dist__agree)(D->comm, st, &le);
        if (st != SPMV_OK) goto done;
        /* the global columns each owner must send us: garray's runs, in owner order */
        if (MPI_Alltoallv(D->garray, rc, rd, MPI_INT64_T, give, sc, sd, MPI_INT64_T, D->comm) != MPI_SUCCESS)
            st = SPMV_ERR_MPI;
        st = SPMV_NAME(dist__agree)(D->comm, st, &le);
        if (st != SPMV_OK) goto done;
        for (k = 0; k < ns; k++) {
            if (give[k] < D->col0 || give[k] >= D->col0 + D->ncloc) { /* cannot happen with agreed starts */
                snprintf(le.msg, sizeof le.msg, "plan: column %lld requested from the wrong rank", (long long)give[k]);
                st = SPMV_ERR_ARG;
                break;
            }
            D->send_idx[k] = (SPMV_I)(give[k] - D->col0);
        }
        D->nrecv = D->nsend = 0;
        D->recv_off[0] = D->send_off[0] = 0;
        for (p = 0; p < size; p++) {
            if (rc[p] > 0) {
                D->recv_rank[D->nrecv] = p;
                D->recv_off[++D->nrecv] = rd[p + 1];
            }
            if (sc[p] > 0) {
                D->send_rank[D->nsend] = p;
                D->send_off[++D->nsend] = sd[p + 1];
            }
        }
    }
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
done:
    spmv__free(all);
    spmv__free(give);
    spmv__free(sc);
    spmv__free(sd);
    spmv__free(rc);
    spmv__free(rd);
    if (st != SPMV_OK) {
        SPMV_NAME(dist_free)(D);
        if (e) *e = le;
    }
    return st;
}

/* One exchange of the plan, either way: receive run q of rbuf (offsets roff) from rrank[q],
 * send run q of sbuf to srank[q]; returns 0 when an MPI call failed. */
static inline int SPMV_NAME(dist__post)(const SPMV_NAME(dist) *D, SPMV_Y *rbuf, const int64_t *roff, const int *rrank, int nr,
                                        MPI_Request *rreq, const SPMV_Y *sbuf, const int64_t *soff, const int *srank,
                                        int ns, MPI_Request *sreq, int tag) {
    const MPI_Datatype VT = SPMV_NAME(dist__mpi_y)();
    int q, ok = 1;
    for (q = 0; q < nr; q++)
        ok &= MPI_Irecv(rbuf + roff[q], (int)(roff[q + 1] - roff[q]), VT, rrank[q], tag, D->comm, &rreq[q]) == MPI_SUCCESS;
    for (q = 0; q < ns; q++)
        ok &= MPI_Isend(sbuf + soff[q], (int)(soff[q + 1] - soff[q]), VT, srank[q], tag, D->comm, &sreq[q]) == MPI_SUCCESS;
    return ok;
}

/* y = alpha*A*x + beta*y on the owned parts: x_loc holds this rank's ncloc entries of x,
 * y_loc its nloc entries of y (beta == 0: y is written, never read). Collective (the ghost
 * exchange); the diag product overlaps it. SPMV_ERR_MPI when a transfer fails. */
static inline spmv_status SPMV_NAME(dist_mv)(SPMV_NAME(dist) *D, SPMV_Y alpha, const SPMV_Y *x_loc, SPMV_Y beta,
                                             SPMV_Y *y_loc) {
    spmv_status st = SPMV_OK, st2;
    int ok;
    int64_t k;
    double t0, t1, t2, t3, t4;
    if (!D || D->comm == MPI_COMM_NULL) return SPMV_ERR_ARG;
    if ((D->ncloc > 0 && !x_loc) || (D->nloc > 0 && !y_loc)) return SPMV_ERR_ARG;
    t0 = spmv_wtime();
    for (k = 0; k < D->send_off[D->nsend]; k++) D->sendbuf[k] = x_loc[D->send_idx[k]];
    ok = SPMV_NAME(dist__post)(D, D->ghost, D->recv_off, D->recv_rank, D->nrecv, D->req, D->sendbuf, D->send_off,
                               D->send_rank, D->nsend, D->req + D->nrecv, 7);
    t1 = spmv_wtime();
    if (D->nloc > 0) st = SPMV_NAME(any_mv)(&D->diag, alpha, x_loc, beta, y_loc);
    t2 = spmv_wtime();
    if (D->nrecv > 0) ok &= MPI_Waitall(D->nrecv, D->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    t3 = spmv_wtime();
    if (D->nloc > 0 && D->nghost > 0 && st == SPMV_OK) st = SPMV_NAME(any_mv)(&D->offd, alpha, D->ghost, (SPMV_Y)1, y_loc);
    t4 = spmv_wtime();
    if (D->nsend > 0) ok &= MPI_Waitall(D->nsend, D->req + D->nrecv, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    D->t_pack += t1 - t0;
    D->t_local += (t2 - t1) + (t4 - t3);
    D->t_wait += (t3 - t2) + (spmv_wtime() - t4);
    D->nmv++;
    st2 = ok ? SPMV_OK : SPMV_ERR_MPI;
    return st != SPMV_OK ? st : st2;
}

/* y = alpha*A^T*x + beta*y on the owned parts: x_loc holds this rank's nloc entries of x (its
 * rows), y_loc its ncloc entries of y (its columns; beta == 0: written, never read). The ghost
 * exchange in reverse (hypre's and PETSc's transpose product): the off-diagonal block's
 * transpose product gives a partial sum for each ghost column, sent to its owner, while the
 * diagonal block's transpose product runs; the owner adds what it receives per neighbour in
 * rank order (the same bits for a fixed rank and thread count). A failure inside a block's
 * product (an allocation) is returned by that rank alone, as in dist_mv. The blocks' transpose
 * products need csr or csr_merge blocks (any_mvt): with another format on any rank (a
 * dist_select choice) every rank returns SPMV_ERR_UNSUPPORTED (agreed once, then cached).
 * Collective; SPMV_ERR_MPI when a transfer fails. */
static inline spmv_status SPMV_NAME(dist_mvt)(SPMV_NAME(dist) *D, SPMV_Y alpha, const SPMV_Y *x_loc, SPMV_Y beta,
                                              SPMV_Y *y_loc) {
    spmv_status st = SPMV_OK, st2;
    int ok;
    int64_t k;
    if (!D || D->comm == MPI_COMM_NULL) return SPMV_ERR_ARG;
    if ((D->nloc > 0 && !x_loc) || (D->ncloc > 0 && !y_loc)) return SPMV_ERR_ARG;
    if (D->mvt_ok == 0) { /* the same answer on every rank, before any transfer */
        const int csr_d = D->diag.fmt == SPMV_FMT_CSR || D->diag.fmt == SPMV_FMT_CSR_MERGE;
        const int csr_o = D->offd.fmt == SPMV_FMT_CSR || D->offd.fmt == SPMV_FMT_CSR_MERGE;
        int mine = (D->nloc == 0 || csr_d) && (D->nloc == 0 || D->nghost == 0 || csr_o), all = 0;
        if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, D->comm) != MPI_SUCCESS) return SPMV_ERR_MPI;
        D->mvt_ok = all ? 1 : 2;
    }
    if (D->mvt_ok != 1) return SPMV_ERR_UNSUPPORTED;
    /* the ghosts' partial sums first: they travel while the diagonal block runs */
    if (D->nghost > 0) {
        if (D->nloc > 0) st = SPMV_NAME(any_mvt)(&D->offd, alpha, x_loc, (SPMV_Y)0, D->ghost);
        else
            for (k = 0; k < D->nghost; k++) D->ghost[k] = 0;
    }
    /* the plan reversed: from the ranks that read our columns their sums for them, to the
       owners of our ghosts ours */
    ok = SPMV_NAME(dist__post)(D, D->sendbuf, D->send_off, D->send_rank, D->nsend, D->req + D->nrecv, D->ghost,
                               D->recv_off, D->recv_rank, D->nrecv, D->req, 8);
    if (D->ncloc > 0 && st == SPMV_OK) {
        if (D->nloc > 0) st = SPMV_NAME(any_mvt)(&D->diag, alpha, x_loc, beta, y_loc);
        else
            for (k = 0; k < D->ncloc; k++) y_loc[k] = beta == (SPMV_Y)0 ? (SPMV_Y)0 : beta * y_loc[k];
    }
    if (D->nsend > 0) ok &= MPI_Waitall(D->nsend, D->req + D->nrecv, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    if (ok && st == SPMV_OK)
        for (k = 0; k < D->send_off[D->nsend]; k++) y_loc[D->send_idx[k]] += D->sendbuf[k];
    if (D->nrecv > 0) ok &= MPI_Waitall(D->nrecv, D->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    st2 = ok ? SPMV_OK : SPMV_ERR_MPI;
    return st != SPMV_OK ? st : st2;
}

/* balanced row ranges: rank p gets the rows whose entries start in [p*nnz/size, (p+1)*nnz/size)
 * (rows with no entries go with the rows before them); starts[size+1] */
static inline void SPMV_NAME(dist__balance)(const SPMV_I *row_ptr, int64_t nrows, int size, int64_t *starts) {
    const int64_t nnz = nrows > 0 ? (int64_t)row_ptr[nrows] : 0;
    int64_t r = 0;
    int p;
    starts[0] = 0;
    for (p = 1; p < size; p++) {
        const int64_t want = nnz > 0 ? nnz * p / size : nrows * p / size;
        if (nnz > 0)
            while (r < nrows && (int64_t)row_ptr[r] < want) r++;
        else
            r = want;
        starts[p] = r;
    }
    starts[size] = nrows;
}

/* What the builders' plan would hold on `size` ranks, computed serially from the whole matrix
 * (no rank runs): rows split by balanced entries as dist_from_root_csr does, columns owned as
 * the builders own them (the rows' split for a square matrix, an even split otherwise); per
 * rank its ghosts (distinct columns owned by other ranks: the values it receives per product)
 * and its receives (their distinct owners; the sends mirror them). For the scaling model
 * (`mpi_bench --plan-only`, docs/SCALING.md). */
#ifndef SPMV_DIST_PLAN_STATS_T
#define SPMV_DIST_PLAN_STATS_T
typedef struct spmv_dist_plan_stats {
    int size;
    int64_t rows_max, nnz_max, nnz_min; /* per rank */
    int64_t ghosts_max, ghosts_sum;     /* values received per product: the most on one rank, all */
    int64_t msgs_max, msgs_sum;         /* receives per product: the most on one rank, all */
} spmv_dist_plan_stats;
#endif
static inline spmv_status SPMV_NAME(dist_plan_stats)(const SPMV_NAME(csr) *A, int size, spmv_dist_plan_stats *S) {
    int64_t *rs, *cs, r, k;
    int32_t *mark, *omark;
    int p;
    spmv_status st;
    if (!A || !S || size < 1) return SPMV_ERR_ARG;
    if ((st = SPMV_NAME(csr_check)(A)) != SPMV_OK) return st;
    memset(S, 0, sizeof *S);
    S->size = size;
    rs = (int64_t *)malloc(sizeof(int64_t) * ((size_t)size + 1));
    cs = (int64_t *)malloc(sizeof(int64_t) * ((size_t)size + 1));
    mark = (int32_t *)malloc(sizeof(int32_t) * ((size_t)A->ncols + 1));
    omark = (int32_t *)malloc(sizeof(int32_t) * ((size_t)size + 1));
    if (!rs || !cs || !mark || !omark) {
        free(rs), free(cs), free(mark), free(omark);
        return SPMV_ERR_ALLOC;
    }
    SPMV_NAME(dist__balance)(A->row_ptr, (int64_t)A->nrows, size, rs);
    for (p = 0; p <= size; p++) cs[p] = A->nrows == A->ncols ? rs[p] : (int64_t)A->ncols * p / size;
    for (k = 0; k < A->ncols; k++) mark[k] = -1;
    for (p = 0; p < size; p++) omark[p] = -1;
    S->nnz_min = INT64_MAX;
    for (p = 0; p < size; p++) {
        const int64_t nnz = (int64_t)A->row_ptr[rs[p + 1]] - (int64_t)A->row_ptr[rs[p]];
        int64_t ng = 0, nm = 0;
        for (r = rs[p]; r < rs[p + 1]; r++)
            for (k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                const int64_t c = (int64_t)A->col_idx[k];
                int q;
                if ((c >= cs[p] && c < cs[p + 1]) || mark[c] == p) continue;
                mark[c] = p;
                ng++;
                q = SPMV_NAME(dist__owner)(cs, size, c);
                if (omark[q] != p) omark[q] = p, nm++;
            }
        if (rs[p + 1] - rs[p] > S->rows_max) S->rows_max = rs[p + 1] - rs[p];
        if (nnz > S->nnz_max) S->nnz_max = nnz;
        if (nnz < S->nnz_min) S->nnz_min = nnz;
        if (ng > S->ghosts_max) S->ghosts_max = ng;
        if (nm > S->msgs_max) S->msgs_max = nm;
        S->ghosts_sum += ng;
        S->msgs_sum += nm;
    }
    free(rs), free(cs), free(mark), free(omark);
    return SPMV_OK;
}

/* The rows [r0, r1) of A as a CSR of their own (global columns kept) */
static inline spmv_status SPMV_NAME(dist__rows)(const SPMV_NAME(csr) *A, int64_t r0, int64_t r1, SPMV_NAME(csr) *L) {
    const int64_t n = r1 - r0, k0 = A->row_ptr[r0], nz = (int64_t)A->row_ptr[r1] - k0;
    SPMV_I *rp = SPMV_ALLOC_N(SPMV_I, (size_t)n + 1), *ci = SPMV_ALLOC_N(SPMV_I, (size_t)nz + 1);
    SPMV_T *v = SPMV_ALLOC_N(SPMV_T, (size_t)nz + 1);
    spmv_status st;
    int64_t i;
    if (!rp || !ci || !v) {
        spmv__free(rp), spmv__free(ci), spmv__free(v);
        return SPMV_ERR_ALLOC;
    }
    for (i = 0; i <= n; i++) rp[i] = (SPMV_I)(A->row_ptr[r0 + i] - k0);
    if (nz) memcpy(ci, A->col_idx + k0, sizeof(SPMV_I) * (size_t)nz), memcpy(v, A->val + k0, sizeof(SPMV_T) * (size_t)nz);
    st = SPMV_NAME(csr_wrap)(L, n, A->ncols, rp, ci, v, NULL, NULL);
    if (st != SPMV_OK) {
        spmv__free(rp), spmv__free(ci), spmv__free(v);
        return st;
    }
    L->borrowed = 0; /* the arrays are ours: csr_free frees them */
    return SPMV_OK;
}

/* From a matrix held by rank `root` (A ignored elsewhere): rows split by balanced entries,
 * each rank's rows sent to it, then dist_from_local_csr. Collective. */
static inline spmv_status SPMV_NAME(dist_from_root_csr)(SPMV_NAME(dist) *D, MPI_Comm comm, int root,
                                                        const SPMV_NAME(csr) *A, const spmv_opts *o, spmv_error *e) {
    const MPI_Datatype VT = SPMV_NAME(dist__mpi_t)(), IT = sizeof(SPMV_I) == 4 ? MPI_INT32_T : MPI_INT64_T;
    int rank = 0, size = 1, p, bad = 0;
    int64_t hdr[2] = {0, 0}, *starts = NULL;
    spmv_status st = SPMV_OK;
    spmv_error le;
    SPMV_NAME(csr) L;
    memset(&L, 0, sizeof L);
    memset(&le, 0, sizeof le);
    if ((st = SPMV_NAME(dist__begin)(D, comm, e)) != SPMV_OK) return st;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (root < 0 || root >= size) {
        SPMV__ERR(e, "root %d is not a rank of the communicator (size %d)", root, size);
        return SPMV_ERR_ARG; /* every rank sees the same root and size */
    }
    if (rank == root) {
        if (!A) snprintf(le.msg, sizeof le.msg, "no matrix on the root (A is NULL)"), st = SPMV_ERR_ARG;
        else if ((st = SPMV_NAME(csr_check)(A)) != SPMV_OK)
            snprintf(le.msg, sizeof le.msg, "the root's CSR is malformed: %s", spmv_status_str(st));
        if (st == SPMV_OK) hdr[0] = A->nrows, hdr[1] = A->ncols;
    }
    starts = SPMV_ALLOC_N(int64_t, (size_t)size + 1);
    if (!starts && st == SPMV_OK) st = SPMV_ERR_ALLOC;
    {   /* on a duplicate, so that no message of ours meets the caller's */
        MPI_Comm c2;
        SPMV_I *rp = NULL, *ci = NULL;
        SPMV_T *v = NULL;
        int64_t *nzs = SPMV_ALLOC_N(int64_t, (size_t)size + 1), n = 0, nz = 0, i;
        if (!nzs && st == SPMV_OK) st = SPMV_ERR_ALLOC;
        if (MPI_Comm_dup(comm, &c2) != MPI_SUCCESS) {
            spmv__free(nzs), spmv__free(starts);
            return SPMV_ERR_MPI;
        }
        MPI_Comm_set_errhandler(c2, MPI_ERRORS_RETURN);
        /* 1. the root's verdict, then the split and every rank's entry count */
        st = SPMV_NAME(dist__agree)(c2, st, &le);
        if (st == SPMV_OK) {
            if (rank == root) {
                SPMV_NAME(dist__balance)(A->row_ptr, A->nrows, size, starts);
                for (p = 0; p < size; p++) nzs[p] = (int64_t)A->row_ptr[starts[p + 1]] - A->row_ptr[starts[p]];
            }
            bad |= MPI_Bcast(hdr, 2, MPI_INT64_T, root, c2) != MPI_SUCCESS;
            bad |= MPI_Bcast(starts, size + 1, MPI_INT64_T, root, c2) != MPI_SUCCESS;
            bad |= MPI_Bcast(nzs, size, MPI_INT64_T, root, c2) != MPI_SUCCESS;
            if (bad) st = SPMV_ERR_MPI;
        }
        /* 2. every rank's arrays, allocated and agreed before anything is sent */
        if (st == SPMV_OK) {
            n = starts[rank + 1] - starts[rank];
            nz = nzs[rank];
            rp = SPMV_ALLOC_N(SPMV_I, (size_t)n + 1);
            ci = SPMV_ALLOC_N(SPMV_I, (size_t)nz + 1);
            v = SPMV_ALLOC_N(SPMV_T, (size_t)nz + 1);
            if (!rp || !ci || !v) st = SPMV_ERR_ALLOC;
        }
        st = SPMV_NAME(dist__agree)(c2, st, &le);
        /* 3. the rows: the root copies its own and sends the others theirs */
        if (st == SPMV_OK) {
            if (rank == root) {
                for (p = 0; p < size && !bad; p++) {
                    const int64_t r0 = starts[p], r1 = starts[p + 1], k0 = A->row_ptr[r0];
                    if (p == root) {
                        for (i = 0; i <= n; i++) rp[i] = A->row_ptr[r0 + i];
                        if (nz) memcpy(ci, A->col_idx + k0, sizeof(SPMV_I) * (size_t)nz);
                        if (nz) memcpy(v, A->val + k0, sizeof(SPMV_T) * (size_t)nz);
                        continue;
                    }
                    bad |= MPI_Send(A->row_ptr + r0, (int)(r1 - r0 + 1), IT, p, 11, c2) != MPI_SUCCESS;
                    bad |= MPI_Send(A->col_idx + k0, (int)nzs[p], IT, p, 12, c2) != MPI_SUCCESS;
                    bad |= MPI_Send(A->val + k0, (int)nzs[p], VT, p, 13, c2) != MPI_SUCCESS;
                }
            } else {
                bad |= MPI_Recv(rp, (int)(n + 1), IT, root, 11, c2, MPI_STATUS_IGNORE) != MPI_SUCCESS;
                bad |= MPI_Recv(ci, (int)nz, IT, root, 12, c2, MPI_STATUS_IGNORE) != MPI_SUCCESS;
                bad |= MPI_Recv(v, (int)nz, VT, root, 13, c2, MPI_STATUS_IGNORE) != MPI_SUCCESS;
            }
            if (bad) st = SPMV_ERR_MPI;
            if (st == SPMV_OK) {
                for (i = n; i >= 0; i--) rp[i] -= rp[0];
                st = SPMV_NAME(csr_wrap)(&L, n, hdr[1], rp, ci, v, NULL, NULL);
                if (st == SPMV_OK) L.borrowed = 0; /* ours now: csr_free frees them */
            }
        }
        if (st != SPMV_OK || !L.row_ptr) spmv__free(rp), spmv__free(ci), spmv__free(v);
        st = SPMV_NAME(dist__agree)(c2, st, &le);
        MPI_Comm_free(&c2);
        spmv__free(nzs);
    }
    if (st == SPMV_OK) st = SPMV_NAME(dist_from_local_csr)(D, comm, &L, starts, o, &le);
    if (L.row_ptr) SPMV_NAME(csr_free)(&L);
    spmv__free(starts);
    if (st != SPMV_OK && e) *e = le;
    return st;
}

/* From a Matrix Market file that every rank can read: each rank reads it and keeps its rows
 * (balanced by entries, the same split on every rank). Collective; a rank that cannot read
 * the file makes every rank return its status. */
static inline spmv_status SPMV_NAME(dist_from_mm)(SPMV_NAME(dist) *D, MPI_Comm comm, const char *path,
                                                  const spmv_opts *o, spmv_error *e) {
    spmv_triplets t;
    spmv_error le;
    spmv_status st;
    SPMV_NAME(csr) A, L;
    int64_t *starts = NULL;
    int rank = 0, size = 1;
    MPI_Comm c2;
    memset(&A, 0, sizeof A);
    memset(&L, 0, sizeof L);
    memset(&le, 0, sizeof le);
    if ((st = SPMV_NAME(dist__begin)(D, comm, e)) != SPMV_OK) return st;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
#if SPMV__MPI_CPLX
    st = path ? spmv_mm_read_opts(path, &t, SPMV_MM_COMPLEX, NULL, &le) : SPMV_ERR_ARG;
#else
    st = path ? spmv_mm_read(path, &t, &le) : SPMV_ERR_ARG;
#endif
    if (!path) snprintf(le.msg, sizeof le.msg, "no file name");
    if (st == SPMV_OK) {
        st = SPMV_NAME(csr_from_triplets)(&A, &t, NULL, NULL);
        spmv_triplets_free(&t);
    }
    if (st == SPMV_OK && !(starts = SPMV_ALLOC_N(int64_t, (size_t)size + 1))) st = SPMV_ERR_ALLOC;
    if (st == SPMV_OK) {
        SPMV_NAME(dist__balance)(A.row_ptr, A.nrows, size, starts);
        st = SPMV_NAME(dist__rows)(&A, starts[rank], starts[rank + 1], &L);
    }
    SPMV_NAME(csr_free)(&A);
    if (MPI_Comm_dup(comm, &c2) != MPI_SUCCESS) st = SPMV_ERR_MPI;
    else {
        MPI_Comm_set_errhandler(c2, MPI_ERRORS_RETURN);
        st = SPMV_NAME(dist__agree)(c2, st, &le);
        MPI_Comm_free(&c2);
    }
    if (st == SPMV_OK) st = SPMV_NAME(dist_from_local_csr)(D, comm, &L, starts, o, &le);
    if (L.row_ptr) SPMV_NAME(csr_free)(&L);
    spmv__free(starts);
    if (st != SPMV_OK && e) *e = le;
    return st;
}

/* The automatic selection (formats/auto.h) on each rank's diagonal block, the block that
 * carries most of the work: each rank keeps the format its own rows favour (ranks may differ);
 * the off-diagonal block keeps its format. o: the selection's options (NULL: the defaults;
 * expected_calls = the products the solver will run). Collective: every rank returns the same
 * status; on failure the blocks are unchanged. */
static inline spmv_status SPMV_NAME(dist_select)(SPMV_NAME(dist) *D, const spmv_opts *o, spmv_error *e) {
    spmv_status st;
    spmv_error le;
    SPMV_NAME(csr) B;
    SPMV_NAME(auto) M;
    memset(&le, 0, sizeof le);
    memset(&M, 0, sizeof M);
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!D || D->comm == MPI_COMM_NULL) return SPMV_ERR_ARG; /* the same on every rank */
    st = SPMV_NAME(any_to_csr)(&D->diag, &B);
    if (st == SPMV_OK) {
        st = SPMV_NAME(auto_from_csr)(&M, &B, o, &le);
        SPMV_NAME(csr_free)(&B);
    }
    st = SPMV_NAME(dist__agree)(D->comm, st, &le);
    if (st != SPMV_OK) {
        SPMV_NAME(auto_free)(&M);
        if (e) *e = le;
        return st;
    }
    SPMV_NAME(any_free)(&D->diag);
    D->diag = M.h; /* the chosen format's object moves into the block */
    D->mvt_ok = 0;  /* dist_mvt asks the ranks again */
    memset(&M.h, 0, sizeof M.h);
    SPMV_NAME(auto_free)(&M);
    return SPMV_OK;
}

