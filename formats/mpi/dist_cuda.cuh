/* dist_dev — the distributed matrix's blocks on each rank's GPU (template header: included
 * once per tag by spmv_mpi.h when spmv_cuda.cuh came first; SPMV_NAME, SPMV_T, SPMV_Y, SPMV_I set).
 *
 * Built from a host spmv_<tag>_dist (its plan and its blocks, each converted back to CSR and
 * uploaded in the format of opts): the same ghost plan, device buffers for the values sent
 * and received, and host staging buffers for MPI. A product on stream s:
 *   gather the values to send on the device (a kernel), copy them to the host, wait for the
 *   stream (the copy must be complete before MPI reads it), post the receives and the sends,
 *   y = alpha*diag*x + beta*y on the device (queued on s: it runs while MPI moves the ghosts),
 *   wait for the receives, copy the ghosts to the device, y += alpha*offd*ghosts, wait for the
 *   sends. The call returns with the products queued on s (the caller synchronises as usual).
 * With a CUDA-aware MPI (G.aware, detected at build time of G on every rank and agreed: Open
 * MPI's MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support; the environment variable
 * SPMV_MPI_CUDA_AWARE=0 turns it off, =1 asserts it where the library cannot say) MPI reads
 * and writes the device buffers themselves: no host copies.
 * Errors: a CUDA failure on one rank is returned there (SPMV_ERR_CUDA); the builder agrees on
 * the status across ranks like the host builders. */

#ifndef SPMV_DIST_CUDA_COMMON
#define SPMV_DIST_CUDA_COMMON
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif
#endif
/* 1 when this process's MPI takes device pointers (see the header comment) */
static inline int spmv_mpi__cuda_aware_local(void) {
    const char *e = getenv("SPMV_MPI_CUDA_AWARE");
    if (e && (e[0] == '0' || e[0] == '1') && !e[1]) return e[0] == '1';
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    {
        int yes = 0;
        return MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS && yes == 1;
    }
#else
    return 0;
#endif
}
template <typename T, typename I>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK) spmv_cuda__dist_gather(int64_t n, const I *idx, const T *x, T *out) {
    for (int64_t k = spmv_cuda_gtid(); k < n; k += spmv_cuda_gsize()) out[k] = x[idx[k]];
}
#endif

typedef struct SPMV_NAME(dist_dev) {
    const SPMV_NAME(dist) *H; /* the host matrix: comm, ranges, plan (must outlive this) */
    SPMV_NAME(any_dev) diag, offd;
    SPMV_I *send_idx;         /* device */
    SPMV_Y *sendbuf, *ghost;  /* device */
    int aware;                /* 1: MPI moves the device buffers (CUDA-aware, on every rank) */
} SPMV_NAME(dist_dev);

static inline spmv_status SPMV_NAME(dist_dev_free)(SPMV_NAME(dist_dev) *G) {
    spmv_status st = SPMV_OK, s2;
    if (!G) return SPMV_OK;
    s2 = SPMV_NAME(any_dev_free)(&G->diag);
    if (s2 != SPMV_OK) st = s2;
    s2 = SPMV_NAME(any_dev_free)(&G->offd);
    if (s2 != SPMV_OK && st == SPMV_OK) st = s2;
    spmv_cuda_release(&G->send_idx, &st);
    spmv_cuda_release(&G->sendbuf, &st);
    spmv_cuda_release(&G->ghost, &st);
    memset(G, 0, sizeof *G);
    return st;
}

/* one host block to the device in opts' format (csr when the format refuses the block) */
static inline spmv_status SPMV_NAME(dist_dev__block)(SPMV_NAME(any_dev) *Dd, const SPMV_NAME(any) *Hb, const spmv_opts *o,
                                                     spmv_error *e, cudaStream_t s) {
    SPMV_NAME(csr) B;
    spmv_status st = SPMV_NAME(any_to_csr)(Hb, &B);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(any_dev_from_csr)(Dd, &B, o, e, s);
    if (st == SPMV_ERR_LIMIT || st == SPMV_ERR_ARG) {
        spmv_opts c = *o;
        c.format = SPMV_FMT_CSR_VECTOR; /* no atomics: deterministic too */
        c.params = NULL;
        st = SPMV_NAME(any_dev_from_csr)(Dd, &B, &c, e, s);
    }
    SPMV_NAME(csr_free)(&B);
    return st;
}

/* The device copy of H (collective: every rank returns the same status). o: the blocks'
 * device format (NULL: csr, the kernel chosen from the row lengths). H must outlive G. */
static inline spmv_status SPMV_NAME(dist_dev_from_dist)(SPMV_NAME(dist_dev) *G, const SPMV_NAME(dist) *H,
                                                        const spmv_opts *o, spmv_error *e, cudaStream_t s = 0) {
    const spmv_opts opts = o ? *o : spmv_opts_default();
    spmv_status st = SPMV_OK;
    spmv_error le;
    memset(&le, 0, sizeof le);
    if (e) {
        e->line = 0;
        e->msg[0] = 0;
    }
    if (!G) return SPMV_ERR_ARG;
    memset(G, 0, sizeof *G);
    if (!H || H->comm == MPI_COMM_NULL) {
        SPMV__ERR(e, "no distributed matrix (H is NULL or empty)");
        return SPMV_ERR_ARG; /* H is the same kind of argument on every rank */
    }
    G->H = H;
    st = SPMV_NAME(dist_dev__block)(&G->diag, &H->diag, &opts, &le, s);
    if (st == SPMV_OK) st = SPMV_NAME(dist_dev__block)(&G->offd, &H->offd, &opts, &le, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&G->send_idx, H->send_idx, (size_t)H->send_off[H->nsend], s);
    if (st == SPMV_OK) st = spmv_cuda_alloc(&G->sendbuf, (size_t)H->send_off[H->nsend] + 1);
    if (st == SPMV_OK) st = spmv_cuda_alloc(&G->ghost, (size_t)H->nghost + 1);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK && !le.msg[0])
        snprintf(le.msg, sizeof le.msg, "upload: %s%s%s", spmv_status_str(st), st == SPMV_ERR_CUDA ? ": " : "",
                 st == SPMV_ERR_CUDA ? cudaGetErrorString(spmv_cuda_last_error()) : "");
    st = SPMV_NAME(dist__agree)(H->comm, st, &le);
    if (st != SPMV_OK) {
        (void)SPMV_NAME(dist_dev_free)(G);
        if (e) *e = le;
        return st;
    }
    G->aware = spmv_mpi__cuda_aware_local(); /* one path for all: aware only if every rank is */
    if (MPI_Allreduce(MPI_IN_PLACE, &G->aware, 1, MPI_INT, MPI_MIN, H->comm) != MPI_SUCCESS) G->aware = 0;
    return st;
}

/* y_dev = alpha*A*x_dev + beta*y_dev on the owned parts, x_dev and y_dev in device memory
 * (D.ncloc and D.nloc entries). Collective. The products are queued on s when it returns. */
static inline spmv_status SPMV_NAME(dist_dev_mv)(SPMV_NAME(dist_dev) *G, SPMV_Y alpha, const SPMV_Y *x_dev, SPMV_Y beta,
                                                 SPMV_Y *y_dev, cudaStream_t s = 0) {
    const SPMV_NAME(dist) *H;
    spmv_status st = SPMV_OK, st2 = SPMV_OK;
    int ok = 1;
    int64_t ns;
    if (!G || !G->H) return SPMV_ERR_ARG;
    H = G->H;
    if ((H->ncloc > 0 && !x_dev) || (H->nloc > 0 && !y_dev)) return SPMV_ERR_ARG;
    ns = H->send_off[H->nsend];
    if (G->aware) { /* MPI reads G->sendbuf and writes G->ghost on the device */
        SPMV_Y *sb = G->sendbuf, *gh = G->ghost;
        if (ns > 0) {
            SPMV_CUDA_LAUNCH(spmv_cuda_grid(ns, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                             spmv_cuda__dist_gather<SPMV_Y, SPMV_I>)(ns, G->send_idx, x_dev, sb);
            st = spmv_cuda_status(cudaGetLastError());
            if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* sendbuf complete */
        }
        ok = SPMV_NAME(dist__post)(H, (SPMV__HY *)gh, H->recv_off, H->recv_rank, H->nrecv, H->req, (SPMV__HY *)sb, H->send_off,
                                   H->send_rank, H->nsend, H->req + H->nrecv, 8);
        if (st == SPMV_OK && H->nloc > 0) st = SPMV_NAME(any_dev_mv)(&G->diag, alpha, x_dev, beta, y_dev, s);
        if (H->nrecv > 0) ok &= MPI_Waitall(H->nrecv, H->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
        if (st == SPMV_OK && ok && H->nloc > 0 && H->nghost > 0) {
            st = SPMV_NAME(any_dev_mv)(&G->offd, alpha, gh, (SPMV_Y)1, y_dev, s);
            /* the next product's receives overwrite the ghosts: this one must have read them */
            if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
        }
        if (H->nsend > 0) ok &= MPI_Waitall(H->nsend, H->req + H->nrecv, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
        st2 = ok ? SPMV_OK : SPMV_ERR_MPI;
        return st != SPMV_OK ? st : st2;
    }
    if (ns > 0) {
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(ns, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__dist_gather<SPMV_Y, SPMV_I>)(
            ns, G->send_idx, x_dev, G->sendbuf);
        st = spmv_cuda_status(cudaGetLastError());
        if (st == SPMV_OK)
            st = spmv_cuda_status(cudaMemcpyAsync(H->sendbuf, G->sendbuf, sizeof(SPMV_Y) * (size_t)ns,
                                                  cudaMemcpyDeviceToHost, s));
        if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* MPI reads the host copy next */
    }
    /* the exchange runs even after a CUDA failure here, so that no neighbour waits for us */
    ok = SPMV_NAME(dist__post)(H, H->ghost, H->recv_off, H->recv_rank, H->nrecv, H->req, H->sendbuf, H->send_off,
                               H->send_rank, H->nsend, H->req + H->nrecv, 8);
    if (st == SPMV_OK && H->nloc > 0) st = SPMV_NAME(any_dev_mv)(&G->diag, alpha, x_dev, beta, y_dev, s);
    if (H->nrecv > 0) ok &= MPI_Waitall(H->nrecv, H->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    if (st == SPMV_OK && ok && H->nloc > 0 && H->nghost > 0) {
        st = spmv_cuda_status(cudaMemcpyAsync(G->ghost, H->ghost, sizeof(SPMV_Y) * (size_t)H->nghost,
                                              cudaMemcpyHostToDevice, s));
        if (st == SPMV_OK) st = SPMV_NAME(any_dev_mv)(&G->offd, alpha, G->ghost, (SPMV_Y)1, y_dev, s);
        /* the host ghost buffer is reused by the next product's receives: the copy must be done */
        if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    }
    if (H->nsend > 0) ok &= MPI_Waitall(H->nsend, H->req + H->nrecv, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
    st2 = ok ? SPMV_OK : SPMV_ERR_MPI;
    return st != SPMV_OK ? st : st2;
}
