/* CUDA AXC / AXT — the host object of formats/axt.h mirrored to the device, same layout
 * (read that header's comment first): ax = groups of W matrix values followed by their
 * W x values, plus brp (AXC), rwp (AXTUH1, AXTUH) or hdr (AXTCH1, AXTCH), and the x map
 * xcol/xmask used by the device x update. The host converter builds it (with the
 * portable kernels' widths: spmv_axt_params_cuda_default), _axt_to_device copies it.
 * Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh. No include guard on purpose.
 *
 * Device widths (W = params.thw; the paper's THW, HBR for AXC):
 *   AXC     W = 4, 8, 16 or 32 (paper: 32). One warp per row (Listing 2); the lanes take
 *           32/W bricks per step and the row's sum is one warp reduction at the end
 *           (the paper reduces every brick). y[r] = alpha*s + beta*y[r]: no atomics.
 *   AXTUH1  W = 4, 8, 16 or 32 (paper: 16, Listing 4). A warp takes 32/W tiles per step.
 *   AXTUH   W = 32 (Listing 6): a warp per tile, a lane per column, TH steps down it.
 *   AXTCH1  W = 32, BS = 32..1024 (Listing 9): one thread block of BS threads per block
 *           of BS elements.
 *   AXTCH   W = 32 (Listing 11): a warp per tile, a lane per column.
 * Fixes to the listings:
 *  - y preparation: the four AXT kernels add into y with atomics, so y is first set to
 *    beta*y (0 when beta == 0) by its own kernel; that is part of _mv_kernel and timed.
 *  - AXTUH1/AXTUH: instead of one atomicAdd per tile (Listing 4) or per column
 *    (Listing 6), a warp reduce-by-key over consecutive tiles / columns (rwp is sorted)
 *    adds each row's run once, and carries the run at a step's end to the next step.
 *  - AXTCH1: the paper's block scan followed by S[end] - S[head] + p[head] loses the
 *    digits of a small row after large ones and turns the rows after an Inf into NaN;
 *    here the block scan is a segmented scan (restarting at each head), and a head
 *    reads its segment's sum at head + offset directly.
 *  - AXTCH: a lane walks its column once; it reads a head word only where a segment
 *    starts (at the top and after each segment end) and stops at the first zero word
 *    (padding after the last element), where Listing 11 re-reads words and can run
 *    past the tile.
 *  - head words store row + 1 (the host layout), so row 0 with offset 0 is not lost.
 *  - every loop is bounded by the object's sizes; grids are capped and grid-strided.
 * x update (_axt_dev_update_x): one thread per value slot writes x[xcol[slot]] (0 for a
 * padding slot, from xmask, so Inf/NaN in x cannot leak into padding products).
 * _axt_dev_mv = update + kernel; _axt_dev_mv_kernel uses the x of the last update.
 * Both write D->ax: one object must not run two of them at once. */

#ifndef SPMV_CUDA_AXT_COMMON
#define SPMV_CUDA_AXT_COMMON
#ifndef SPMV_CUDA_AXT_STEPS
#define SPMV_CUDA_AXT_STEPS 8 /* AXTUH1: warp steps (of 32/W tiles) per warp chunk */
#endif

/* The GPU defaults: W = 32 (AXTUH1: 16, the paper's best), TH and BS automatic
 * (the host's choices: TH from the row lengths for AXTUH, 64 for AXTCH; BS 512). */
static inline spmv_axt_params spmv_axt_params_cuda_default(spmv_axt_variant v) {
    spmv_axt_params p = spmv_axt_params_default();
    p.isa = SPMV_ISA_GENERIC;
    p.thw = v == SPMV_AXTUH1 ? 16 : 32;
    return p;
}

/* Are (v, thw, bs) kernels that exist on the device? thw/bs as resolved (bs 0 = auto). */
static inline spmv_status spmv_axt_cuda_params_check(spmv_axt_variant v, int thw, int bs) {
    switch (v) {
    case SPMV_AXC:
    case SPMV_AXTUH1: return thw == 4 || thw == 8 || thw == 16 || thw == 32 ? SPMV_OK : SPMV_ERR_ARG;
    case SPMV_AXTUH:
    case SPMV_AXTCH: return thw == 32 ? SPMV_OK : SPMV_ERR_ARG;
    case SPMV_AXTCH1:
        if (thw != 32) return SPMV_ERR_ARG;
        return bs == 0 || (bs >= 32 && bs <= 1024 && (bs & (bs - 1)) == 0) ? SPMV_OK : SPMV_ERR_ARG;
    default: return SPMV_ERR_ARG;
    }
}

/* x update: slot -> its x value in ax (0 for padding). W = 2^lw. */
template <typename T, typename I>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__axt_update_x(int64_t nslots, int lw, const I *__restrict__ xcol, const uint32_t *__restrict__ xmask,
                            const T *__restrict__ x, T *__restrict__ ax) {
    const int64_t wm = ((int64_t)1 << lw) - 1;
    for (int64_t slot = spmv_cuda_gtid(); slot < nslots; slot += spmv_cuda_gsize()) {
        const int64_t g = slot >> lw, l = slot & wm;
        ax[(g << (lw + 1)) + wm + 1 + l] = (xmask[g] >> l) & 1u ? x[xcol[slot]] : T(0);
    }
}

/* AXC: a warp per row; brp in values; brick b of row r at brp[r] + 2*W*b. */
template <typename T, typename I, int W>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__axc(int64_t nrows, const T *__restrict__ ax, const I *__restrict__ brp, T alpha, T beta,
                   T *__restrict__ y) {
    const int lane = spmv_cuda_lane(), sub = lane & (W - 1), b0 = lane / W;
    const int64_t nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t r = spmv_cuda_gtid() >> 5; r < nrows; r += nwarps) { /* warp-uniform */
        const int64_t p0 = (int64_t)brp[r], nb = ((int64_t)brp[r + 1] - p0) / (2 * W);
        T acc = T(0);
        for (int64_t b = b0; b < nb; b += 32 / W) {
            const int64_t o = p0 + b * 2 * W + sub;
            acc += ax[o] * ax[o + W];
        }
        acc = spmv_cuda_warp_sum<32>(acc);
        if (lane == 0) spmv_cuda_axpby(y + r, alpha, acc, beta);
    }
}

/* AXTUH1: 32/W tiles per warp step, SPMV_CUDA_AXT_STEPS steps per warp chunk. */
template <typename T, typename I, int W>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__axtuh1(int64_t ntiles, const T *__restrict__ ax, const I *__restrict__ rwp, T alpha,
                      T *__restrict__ y) {
    constexpr int TPS = 32 / W;
    const int lane = spmv_cuda_lane();
    const int64_t per_warp = (int64_t)TPS * SPMV_CUDA_AXT_STEPS, nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = (spmv_cuda_gtid() >> 5) * per_warp; base < ntiles; base += nwarps * per_warp) {
        const int64_t end = base + per_warp < ntiles ? base + per_warp : ntiles;
        int64_t ckey = -1;
        T cval = T(0);
        for (int64_t t0 = base; t0 < end; t0 += TPS) { /* warp-uniform */
            const int64_t t = t0 + lane / W;
            int64_t key = -1;
            T v = T(0);
            if (t < end) {
                const int64_t o = t * 2 * W + (lane & (W - 1));
                v = ax[o] * ax[o + W];
                key = (int64_t)rwp[t];
            }
            spmv_cuda_warp_seg_step(key, v, ckey, cval, alpha, y);
        }
        spmv_cuda_seg_flush(ckey, cval, alpha, y);
    }
}

/* AXTUH (W = 32): TPW tiles per warp; lane = column; rwp[t*32 + lane] = its row. */
template <typename T, typename I>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__axtuh(int64_t ntiles, int64_t th, int64_t tpw, const T *__restrict__ ax, const I *__restrict__ rwp,
                     T alpha, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t nwarps = spmv_cuda_gsize() >> 5;
    for (int64_t base = (spmv_cuda_gtid() >> 5) * tpw; base < ntiles; base += nwarps * tpw) {
        const int64_t end = base + tpw < ntiles ? base + tpw : ntiles;
        int64_t ckey = -1;
        T cval = T(0);
        for (int64_t t = base; t < end; t++) {
            const T *p = ax + t * th * 64 + lane;
            T acc = T(0);
            for (int64_t s = 0; s < th; s++, p += 64) acc += p[0] * p[32];
            spmv_cuda_warp_seg_step((int64_t)rwp[t * 32 + lane], acc, ckey, cval, alpha, y);
        }
        spmv_cuda_seg_flush(ckey, cval, alpha, y);
    }
}

/* AXTCH1 (W = 32): a block of blockDim.x = BS threads per block of BS elements; element
 * e = blk*BS + tid is at ax[(e/32)*64 + e%32]; hdr[e] != 0 marks a segment head. */
template <typename T, typename H>
__global__ void __launch_bounds__(1024)
    spmv_cuda__axtch1(int64_t nblocks, int lg, const T *__restrict__ ax, const H *__restrict__ hdr, T alpha,
                      T *__restrict__ y) {
    __shared__ T s_scan[1024];
    __shared__ T s_wv[32];
    __shared__ int s_wf[32];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, bs = blockDim.x, nw = bs >> 5;
    const H omask = ((H)1 << lg) - 1;
    for (int64_t b = blockIdx.x; b < nblocks; b += gridDim.x) { /* block-uniform */
        const int64_t e = b * bs + tid;
        const H h = hdr[e];
        T v = ax[(e >> 5) * 64 + lane] * ax[(e >> 5) * 64 + lane + 32];
        int head = h != 0;
        /* segmented inclusive scan in the warp, restarting at heads */
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, v, o);
            const int ph = __shfl_up_sync(SPMV_CUDA_FULL_MASK, head, o);
            if (lane >= o && !head) {
                v += pv;
                head = ph;
            }
        }
        if (lane == 31) {
            s_wv[warp] = v;
            s_wf[warp] = head; /* a head somewhere in this warp */
        }
        __syncthreads();
        if (warp == 0) { /* the same scan over the warp totals */
            T wv = lane < nw ? s_wv[lane] : T(0);
            int wf = lane < nw ? s_wf[lane] : 1;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, wv, o);
                const int ph = __shfl_up_sync(SPMV_CUDA_FULL_MASK, wf, o);
                if (lane >= o && !wf) {
                    wv += pv;
                    wf = ph;
                }
            }
            if (lane < nw) s_wv[lane] = wv;
        }
        __syncthreads();
        if (warp > 0 && !head) v += s_wv[warp - 1]; /* the segment began in an earlier warp */
        s_scan[tid] = v;
        __syncthreads();
        if (h) atomicAdd(y + (int64_t)((h >> lg) - 1), alpha * s_scan[tid + (int)(h & omask)]);
        __syncthreads(); /* s_scan and s_wv are reused by the next block */
    }
}

/* AXTCH (W = 32): a warp per tile, lane = column, TH = 2^lg steps. */
template <typename T, typename H>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__axtch(int64_t ntiles, int lg, const T *__restrict__ ax, const H *__restrict__ hdr, T alpha,
                     T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t th = (int64_t)1 << lg, nwarps = spmv_cuda_gsize() >> 5;
    const H omask = ((H)1 << lg) - 1;
    for (int64_t t = spmv_cuda_gtid() >> 5; t < ntiles; t += nwarps) {
        const T *p = ax + t * th * 64 + lane;
        const H *hp = hdr + t * th * 32 + lane;
        int64_t row = -1, seg_end = -1;
        T acc = T(0);
        for (int64_t s = 0; s < th; s++, p += 64) { /* warp-uniform: loads stay coalesced */
            if (s == seg_end + 1) {                 /* a segment starts here */
                const H h = hp[s * 32];
                if (h == 0) { /* padding: nothing more in this column */
                    row = -1;
                    seg_end = th;
                } else {
                    row = (int64_t)(h >> lg) - 1;
                    seg_end = s + (int64_t)(h & omask);
                }
            }
            if (row >= 0) acc += p[0] * p[32];
            if (s == seg_end) {
                atomicAdd(y + row, alpha * acc);
                acc = T(0);
            }
        }
    }
}
#endif /* SPMV_CUDA_AXT_COMMON */

typedef struct SPMV_NAME(axt_dev) {
    SPMV_I nrows, ncols, nnz;
    spmv_axt_variant variant;
    spmv_axt_params params; /* as resolved on the host: thw, th, bs */
    int lg;                 /* head-word offset bits (AXTCH1: log2 bs, AXTCH: log2 th) */
    int64_t ngroups, nunits, ncolumns;
    SPMV_Y *ax;                       /* device: 2*thw*ngroups */
    SPMV_I *xcol;                     /* device: thw*ngroups */
    uint32_t *xmask;                  /* device: ngroups */
    SPMV_I *brp;                      /* AXC: nrows+1 */
    SPMV_I *rwp;                      /* AXTUH1: nunits; AXTUH: nunits*thw */
    SPMV_NAME(axt_word) *hdr;         /* AXTCH1, AXTCH: thw*ngroups */
} SPMV_NAME(axt_dev);

/* Frees the device arrays and zeroes *D; safe on a zeroed or freed D. */
static inline spmv_status SPMV_NAME(axt_dev_free)(SPMV_NAME(axt_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->ax, &st);
    spmv_cuda_release(&D->xcol, &st);
    spmv_cuda_release(&D->xmask, &st);
    spmv_cuda_release(&D->brp, &st);
    spmv_cuda_release(&D->rwp, &st);
    spmv_cuda_release(&D->hdr, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* What _axt_dev_mv_kernel streams: ax and the header (same as the host _kernel_bytes). */
static inline size_t SPMV_NAME(axt_dev_kernel_bytes)(const SPMV_NAME(axt_dev) *D) {
    size_t slots, b;
    if (!D) return 0;
    slots = (size_t)D->ngroups * (size_t)D->params.thw;
    b = 2 * slots * sizeof(SPMV_Y);
    if (D->brp) b += ((size_t)D->nrows + 1) * sizeof(SPMV_I);
    if (D->rwp) b += (size_t)D->nunits * (D->variant == SPMV_AXTUH ? (size_t)D->params.thw : 1) * sizeof(SPMV_I);
    if (D->hdr) b += slots * sizeof(SPMV_NAME(axt_word));
    return b;
}
/* Everything D holds on the device (adds the x map xcol, xmask). */
static inline size_t SPMV_NAME(axt_dev_bytes)(const SPMV_NAME(axt_dev) *D) {
    if (!D) return 0;
    return SPMV_NAME(axt_dev_kernel_bytes)(D) + (size_t)D->ngroups * (size_t)D->params.thw * sizeof(SPMV_I) +
           (size_t)D->ngroups * sizeof(uint32_t);
}

/* Copies host object H (built by spmv_<tag>_axt_from_csr with device widths, e.g.
 * spmv_axt_params_cuda_default) to the device, ordered on s, and waits. The device holds
 * x = whatever H->ax holds (0 after a fresh conversion). SPMV_ERR_ARG: NULL/inconsistent
 * H, or widths the device kernels do not have (checked before any CUDA call);
 * SPMV_ERR_NODEVICE, SPMV_ERR_CUDA. On failure *D is zeroed, nothing leaks. */
static inline spmv_status SPMV_NAME(axt_to_device)(SPMV_NAME(axt_dev) *D, const SPMV_NAME(axt) *H,
                                                   cudaStream_t s = 0) {
    spmv_status st;
    size_t slots, ng, nrw = 0;
    spmv_axt_variant v;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!H || H->nrows < 0 || H->ncols < 0 || H->nnz < 0 || H->ngroups < 0 || H->nunits < 0) return SPMV_ERR_ARG;
    v = H->variant;
    st = spmv_axt_cuda_params_check(v, H->params.thw, H->params.bs);
    if (st != SPMV_OK) return st;
    ng = (size_t)H->ngroups;
    slots = ng * (size_t)H->params.thw;
    if (v == SPMV_AXTUH1) nrw = (size_t)H->nunits;
    if (v == SPMV_AXTUH) nrw = (size_t)H->nunits * (size_t)H->params.thw;
    if ((ng > 0 && (!H->ax || !H->xcol || !H->xmask)) || (v == SPMV_AXC && !H->brp) || (nrw > 0 && !H->rwp) ||
        ((v == SPMV_AXTCH1 || v == SPMV_AXTCH) && ng > 0 && !H->hdr))
        return SPMV_ERR_ARG;
    if ((v == SPMV_AXTCH1 && (int64_t)H->params.bs * H->nunits != (int64_t)slots) ||
        ((v == SPMV_AXTUH || v == SPMV_AXTCH) && (int64_t)H->params.th * H->nunits != H->ngroups) ||
        ((v == SPMV_AXC || v == SPMV_AXTUH1) && H->nunits != H->ngroups))
        return SPMV_ERR_ARG;
    D->nrows = H->nrows;
    D->ncols = H->ncols;
    D->nnz = H->nnz;
    D->variant = v;
    D->params = H->params;
    D->lg = H->lg;
    D->ngroups = H->ngroups;
    D->nunits = H->nunits;
    D->ncolumns = H->ncolumns;
    st = spmv_cuda_upload(&D->ax, H->ax, 2 * slots, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->xcol, H->xcol, slots, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->xmask, H->xmask, ng, s);
    if (st == SPMV_OK && v == SPMV_AXC) st = spmv_cuda_upload(&D->brp, H->brp, (size_t)H->nrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->rwp, H->rwp, nrw, s);
    if (st == SPMV_OK && (v == SPMV_AXTCH1 || v == SPMV_AXTCH)) st = spmv_cuda_upload(&D->hdr, H->hdr, slots, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(axt_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* Host conversion (portable kernels' layout, device widths) + upload, in one call.
 * p NULL: spmv_axt_params_cuda_default(v); p->thw 0: that default's width; p->isa is
 * ignored. Errors of the conversion (SPMV_ERR_LIMIT, _ALLOC, ...) and of the upload. */
static inline spmv_status SPMV_NAME(axt_dev_from_csr)(SPMV_NAME(axt_dev) *D, const SPMV_NAME(csr) *A,
                                                      spmv_axt_variant v, const spmv_axt_params *p,
                                                      cudaStream_t s = 0) {
    spmv_axt_params q = spmv_axt_params_cuda_default(v);
    SPMV_NAME(axt) H;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || (int)v < 0 || v >= SPMV_AXT_VARIANT_COUNT_) return SPMV_ERR_ARG;
    if (p) {
        q.thw = p->thw ? p->thw : q.thw;
        q.th = p->th;
        q.bs = p->bs;
    }
    st = spmv_axt_cuda_params_check(v, q.thw, q.bs);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(axt_from_csr)(&H, A, v, &q, NULL);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(axt_to_device)(D, &H, s);
    SPMV_NAME(axt_free)(&H);
    return st;
}

/* Scatters x (device, ncols values) into the device ax. */
static inline spmv_status SPMV_NAME(axt_dev_update_x)(const SPMV_NAME(axt_dev) *D, const SPMV_Y *x,
                                                      cudaStream_t s = 0) {
    int64_t nslots;
    if (!D || (D->ngroups > 0 && (!D->ax || !D->xcol || !D->xmask))) return SPMV_ERR_ARG;
    nslots = D->ngroups * (int64_t)D->params.thw;
    if (D->nnz > 0 && !x) return SPMV_ERR_ARG;
    if (nslots == 0) return SPMV_OK;
    if (D->nnz == 0) x = NULL; /* every slot is padding: x is not read */
    SPMV_CUDA_LAUNCH(spmv_cuda_grid(nslots, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s, spmv_cuda__axt_update_x<SPMV_Y, SPMV_I>)(
        nslots, spmv__axt_log2(D->params.thw), D->xcol, D->xmask, x, D->ax);
    return spmv_cuda_status(cudaGetLastError());
}

/* y = alpha*A*x + beta*y with the x of the last update (the paper's kernel time, plus
 * the preparation of y that its atomics need). */
static inline spmv_status SPMV_NAME(axt_dev_mv_kernel)(const SPMV_NAME(axt_dev) *D, SPMV_Y alpha, SPMV_Y beta,
                                                       SPMV_Y *y, cudaStream_t s = 0) {
    spmv_status st;
    const int w = D ? D->params.thw : 0;
    const int B = SPMV_CUDA_BLOCK;
    if (!D || (D->nrows > 0 && !y) || (D->ngroups > 0 && !D->ax)) return SPMV_ERR_ARG;
    if (spmv_axt_cuda_params_check(D->variant, w, D->params.bs) != SPMV_OK) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (D->variant == SPMV_AXC) { /* a warp per row, plain stores */
        const unsigned g = spmv_cuda_grid((int64_t)D->nrows * 32, B);
        if (!D->brp) return SPMV_ERR_ARG;
        switch (w) {
        case 4: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axc<SPMV_Y, SPMV_I, 4>)(D->nrows, D->ax, D->brp, alpha, beta, y); break;
        case 8: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axc<SPMV_Y, SPMV_I, 8>)(D->nrows, D->ax, D->brp, alpha, beta, y); break;
        case 16: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axc<SPMV_Y, SPMV_I, 16>)(D->nrows, D->ax, D->brp, alpha, beta, y); break;
        default: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axc<SPMV_Y, SPMV_I, 32>)(D->nrows, D->ax, D->brp, alpha, beta, y); break;
        }
        return spmv_cuda_status(cudaGetLastError());
    }
    st = spmv_cuda_scale<SPMV_Y>((int64_t)D->nrows, beta, y, s); /* the atomics below only add */
    if (st != SPMV_OK || D->nunits == 0) return st;
    switch (D->variant) {
    case SPMV_AXTUH1: {
        const int64_t warps = (D->nunits + (int64_t)(32 / w) * SPMV_CUDA_AXT_STEPS - 1) /
                              ((int64_t)(32 / w) * SPMV_CUDA_AXT_STEPS);
        const unsigned g = spmv_cuda_grid(warps * 32, B);
        if (!D->rwp) return SPMV_ERR_ARG;
        switch (w) {
        case 4: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axtuh1<SPMV_Y, SPMV_I, 4>)(D->nunits, D->ax, D->rwp, alpha, y); break;
        case 8: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axtuh1<SPMV_Y, SPMV_I, 8>)(D->nunits, D->ax, D->rwp, alpha, y); break;
        case 16: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axtuh1<SPMV_Y, SPMV_I, 16>)(D->nunits, D->ax, D->rwp, alpha, y); break;
        default: SPMV_CUDA_LAUNCH(g, B, s, spmv_cuda__axtuh1<SPMV_Y, SPMV_I, 32>)(D->nunits, D->ax, D->rwp, alpha, y); break;
        }
        break;
    }
    case SPMV_AXTUH: {
        /* a few tiles per warp when tiles are short, so the carried runs save atomics */
        const int64_t tpw = D->params.th >= 8 ? 1 : 8 / D->params.th;
        if (!D->rwp) return SPMV_ERR_ARG;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid((D->nunits + tpw - 1) / tpw * 32, B), B, s, spmv_cuda__axtuh<SPMV_Y, SPMV_I>)(
            D->nunits, D->params.th, tpw, D->ax, D->rwp, alpha, y);
        break;
    }
    case SPMV_AXTCH1: {
        const int64_t nb = D->nunits;
        if (!D->hdr) return SPMV_ERR_ARG;
        SPMV_CUDA_LAUNCH((unsigned)(nb < SPMV_CUDA_MAX_GRID ? nb : SPMV_CUDA_MAX_GRID), D->params.bs, s, spmv_cuda__axtch1<SPMV_Y, SPMV_NAME(axt_word)>)(
                nb, D->lg, D->ax, D->hdr, alpha, y);
        break;
    }
    case SPMV_AXTCH:
        if (!D->hdr) return SPMV_ERR_ARG;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(D->nunits * 32, B), B, s, spmv_cuda__axtch<SPMV_Y, SPMV_NAME(axt_word)>)(
            D->nunits, D->lg, D->ax, D->hdr, alpha, y);
        break;
    default: return SPMV_ERR_ARG;
    }
    return spmv_cuda_status(cudaGetLastError());
}

/* What a solver pays per product: scatter x, then the kernel (both on stream s). */
static inline spmv_status SPMV_NAME(axt_dev_mv)(const SPMV_NAME(axt_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    spmv_status st = SPMV_NAME(axt_dev_update_x)(D, x, s);
    if (st != SPMV_OK) return st;
    return SPMV_NAME(axt_dev_mv_kernel)(D, alpha, beta, y, s);
}

/* ---- registry contract (rows axc, axtuh1, axtuh, axtch1, axtch) ---- */
#ifndef SPMV_CUDA_AXT_REG
#define SPMV_CUDA_AXT_REG
/* device defaults and the --tune search (candidate i of the variant's list; 0 past the end) */
#define SPMV__AXT_DEV_ROW(vn, V, FIELD, ...)                                                                     \
    static inline spmv_axt_params SPMV_CAT(vn, _dev_params_default)(void) { return spmv_axt_params_cuda_default(V); } \
    static inline int SPMV_CAT(vn, _dev_candidate)(int i, const spmv_axt_params *base, spmv_axt_params *out) {    \
        static const int list[] = {__VA_ARGS__};                                                                \
        if (i < 0 || i >= (int)(sizeof list / sizeof list[0])) return 0;                                       \
        *out = *base;                                                                                           \
        out->FIELD = list[i];                                                                                   \
        return 1;                                                                                               \
    }
SPMV__AXT_DEV_ROW(spmv_axc, SPMV_AXC, thw, 4, 8, 16, 32)
SPMV__AXT_DEV_ROW(spmv_axtuh1, SPMV_AXTUH1, thw, 4, 8, 16, 32)
SPMV__AXT_DEV_ROW(spmv_axtuh, SPMV_AXTUH, th, 1, 2, 3, 4, 6, 8, 12, 16)
SPMV__AXT_DEV_ROW(spmv_axtch1, SPMV_AXTCH1, bs, 32, 64, 128, 256, 512, 1024)
SPMV__AXT_DEV_ROW(spmv_axtch, SPMV_AXTCH, th, 4, 8, 16, 32, 64, 128, 256)
#undef SPMV__AXT_DEV_ROW
#endif
#define SPMV__AXT_DEV_ALIAS(vn, V)                                                                              \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _dev_from_csr))(SPMV_NAME(axt_dev) * D,                   \
                                                                     const SPMV_NAME(csr) * A,                  \
                                                                     const spmv_axt_params *p, cudaStream_t s = 0) { \
        return SPMV_NAME(axt_dev_from_csr)(D, A, V, p, s);                                                     \
    }
SPMV__AXT_DEV_ALIAS(axc, SPMV_AXC)
SPMV__AXT_DEV_ALIAS(axtuh1, SPMV_AXTUH1)
SPMV__AXT_DEV_ALIAS(axtuh, SPMV_AXTUH)
SPMV__AXT_DEV_ALIAS(axtch1, SPMV_AXTCH1)
SPMV__AXT_DEV_ALIAS(axtch, SPMV_AXTCH)
#undef SPMV__AXT_DEV_ALIAS
/* "thw=32,th=8", "thw=32,bs=512", "thw=16" */
static inline void SPMV_NAME(axt_dev_params_str)(const SPMV_NAME(axt_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    if (D->variant == SPMV_AXTUH || D->variant == SPMV_AXTCH)
        snprintf(buf, len, "thw=%d,th=%d", D->params.thw, D->params.th);
    else if (D->variant == SPMV_AXTCH1) snprintf(buf, len, "thw=%d,bs=%d", D->params.thw, D->params.bs);
    else snprintf(buf, len, "thw=%d", D->params.thw);
}
