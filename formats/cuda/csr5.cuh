/* CUDA CSR5 — Liu & Vinter, ICS 2015, on the GPU: the host CSR5 (formats/csr5.h) built with
 * omega = 32 (one warp per tile, lane i = column i) and copied to device memory unchanged:
 * row_ptr, col_idx/val (complete tiles transposed: step j of tile t is the 32 contiguous
 * entries at t*T + j*32, T = 32*sigma; the tail in CSR order), tile_ptr (top bit: the tile
 * holds empty rows), tile_desc (sigma flag words, word j = the row-start mask of step j, then
 * 16 words of two 16-bit lane slots y_offset | seg_offset << ybits), empty_ptr/empty_offset
 * (segment -> row of the flagged tiles), empty_rows. Template header, included once per
 * (SPMV_TAG, SPMV_VAL, SPMV_IDX) by formats/cuda/instance.cuh. No include guard.
 *
 * sigma (params.sigma = 0): the authors' rule on the mean row length nnz/nrows (integer),
 * bounds (r, s, t, u) = (4, 32, 256, 6): <= 4 -> 4; <= 32 -> nnz/row; <= 256 -> 32; else 6
 * (spmv_csr5_dev_sigma). A given sigma is used as is (omega 32 holds sigma <= 66: the lane
 * slot's 16 bits; above, SPMV_ERR_LIMIT). --tune searches sigma (spmv_csr5_dev_candidate).
 * The tile descriptors are built by the host converter (the conversion cost, host
 * conversion + upload, is the bench's convert_s / convert_spmvs column).
 *
 * Product, two kernels on the stream (both part of the timed SpMV):
 *  1. spmv_cuda__csr5_tiles. y preparation first: the empty rows get beta*y (0 when beta == 0;
 *     no other write touches them). Then the tiles in ranges of tpw consecutive tiles, one warp
 *     per range (grid-stride over ranges). Per tile, lane i reads its column (step j at
 *     t*T + j*32 + i: each step one coalesced 32-entry load of val and col_idx) and keeps a
 *     running sum that a row-start flag restarts: at its first flag a lane keeps the sum so far
 *     as its "top" (a piece of a row opened in an earlier lane); at each later flag the sum is a
 *     whole row inside the lane, written at once. Then the fast segmented sum across lanes, with
 *     shuffles (full mask, every lane): an inclusive *segmented* scan of the lanes' bottom sums
 *     (a flagged lane's sum since its last flag, an unflagged lane's whole column), restarting
 *     at each flagged lane; a flagged lane adds its top to the scan value of the lane before it
 *     and so closes the row opened in the previous flagged lane, and lane 31's scan value is the
 *     tile's last (open) row. The scan never adds values of two rows, so a NaN/Inf stays in its
 *     row and a short row beside a long one keeps its digits (the paper's scan difference,
 *     scan[i + seg_offset] - scan[i], does neither; see formats/csr5.h). seg_offset is not
 *     needed by the scan form (the heads are the flagged lanes); lane 0's locates the closer of
 *     the tile's first row. Rows map to y through tile_ptr + segment (+ empty_offset in flagged
 *     tiles).
 *     The tile's first row (it may continue a row of the previous tile) and last row (it may
 *     go on in the next tile) go through the warp's carry (registers, the same in all lanes):
 *     a row running through consecutive tiles of the range is summed there and written once,
 *     y[r] = alpha*sum + beta*y[r], by the range holding its first nonzero.
 *  2. spmv_cuda__csr5_fix (only when needed: known at upload): the calibrator and the tail.
 *     A range whose first tile continues a row begun in an earlier range puts its part of that
 *     row in its calibrator slot (cal_val[range], written instead of y); this kernel adds the
 *     slots to y, warp segmented sums over the slots with one atomic per run of one row (a row
 *     of millions of entries spans many ranges). Decision: a per-range carry array + this
 *     second kernel rather than atomics in the tile kernel: every row keeps a single '=' writer
 *     (y needs no scaling pass, beta is applied once), the result is deterministic up to the
 *     order of the calibrator atomics of one row, and the '+=' is ordered after the '=' by the
 *     kernel boundary (kernel 1 has no inter-block order). The same kernel runs the tail (the
 *     nnz - ntiles*T trailing nonzeros, < T) as CSR, a warp per row; the tail's first row
 *     adds atomically when it began in a tile.
 * tpw (params.tpw, 0 = auto: ceil(ntiles / SPMV_CUDA_CSR5_RANGES), so about that many warps):
 * more tiles per warp = fewer calibrator slots and range starts, fewer warps. Not yet measured
 * on a GPU (written without one): the auto tpw and the sigma rule's fit to current GPUs are
 * open; only the CPU emulation (tests/emu/cuda_emu.h) has run these kernels so far.
 * Every row is written exactly once with '=' (or by the preparation), so beta == 0 never reads
 * y; the calibrator and tail '+=' come after, in kernel 2. One object must not run two
 * products at once (the calibrator slots). Memory: cudaMalloc only. */

#ifndef SPMV_CUDA_CSR5_COMMON
#define SPMV_CUDA_CSR5_COMMON
#ifndef SPMV_CUDA_CSR5_RANGES
#define SPMV_CUDA_CSR5_RANGES 32768 /* auto tpw: about this many tile ranges (warps of work) */
#endif
#ifndef SPMV_CUDA_CSR5_CAL_STEPS
#define SPMV_CUDA_CSR5_CAL_STEPS 8 /* calibrator slots per warp of the fix kernel: 32 x this */
#endif
#define SPMV_CUDA_CSR5_SIGMA_R 4
#define SPMV_CUDA_CSR5_SIGMA_S 32
#define SPMV_CUDA_CSR5_SIGMA_T 256
#define SPMV_CUDA_CSR5_SIGMA_U 6

/* The authors' GPU rule for sigma from the mean row length (integer nnz / nrows). */
static inline int spmv_csr5_dev_sigma(int64_t nrows, int64_t nnz) {
    const int64_t avg = nrows > 0 ? nnz / nrows : 0;
    if (avg <= SPMV_CUDA_CSR5_SIGMA_R) return SPMV_CUDA_CSR5_SIGMA_R;
    if (avg <= SPMV_CUDA_CSR5_SIGMA_S) return (int)avg;
    if (avg <= SPMV_CUDA_CSR5_SIGMA_T) return SPMV_CUDA_CSR5_SIGMA_S;
    return SPMV_CUDA_CSR5_SIGMA_U;
}
/* tiles per warp: params.tpw, or about SPMV_CUDA_CSR5_RANGES ranges */
static inline int64_t spmv_csr5_dev_tpw(int64_t ntiles, int tpw) {
    if (tpw > 0) return tpw;
    return ntiles > SPMV_CUDA_CSR5_RANGES ? (ntiles + SPMV_CUDA_CSR5_RANGES - 1) / SPMV_CUDA_CSR5_RANGES : 1;
}
static inline spmv_csr5_params spmv_csr5_dev_params_default(void) {
    spmv_csr5_params p = spmv_csr5_params_default();
    p.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    p.omega = 32;
    p.sigma = 0; /* the rule */
    p.tpw = 0;
    return p;
}
/* --tune: sigma = the rule, then fixed heights around it (those over omega 32's limit of 66
 * come back SPMV_ERR_LIMIT and are skipped by the tuner) */
static inline int spmv_csr5_dev_candidate(int i, const spmv_csr5_params *base, spmv_csr5_params *out) {
    static const int sg[] = {0, 4, 6, 8, 12, 16, 24, 32, 48, 64};
    if (i < 0 || i >= (int)(sizeof sg / sizeof sg[0])) return 0;
    *out = *base;
    out->sigma = sg[i];
    return 1;
}

/* lane 0 of the warp: y[r] = alpha*v + beta*y[r], or v into the range's calibrator slot */
template <typename T>
__device__ __forceinline__ void spmv_cuda__csr5_emit(int64_t r, T v, int cal, T *cal_slot, T alpha, T beta, T *y) {
    if (spmv_cuda_lane() != 0 || r < 0) return;
    if (cal) *cal_slot = v;
    else spmv_cuda_axpby(y + r, alpha, v, beta);
}

/* Kernel 1: y preparation of the empty rows, then the tiles (see the header comment). */
template <typename T, typename I, typename U, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr5_tiles(int64_t ntiles, int64_t tpw, int sigma, int ybits, int dw, const I *__restrict__ rp,
                          const I *__restrict__ ci, const A *__restrict__ val, const U *__restrict__ tile_ptr,
                          const uint32_t *__restrict__ desc, const I *__restrict__ eptr, const I *__restrict__ eoff,
                          int64_t nempty, const I *__restrict__ erows, T alpha, const T *__restrict__ x, T beta,
                          T *__restrict__ y, T *__restrict__ cal_val) {
    const int lane = spmv_cuda_lane();
    const int64_t TS = 32 * (int64_t)sigma, nranges = (ntiles + tpw - 1) / tpw;
    const U top = (U)((U)1 << (sizeof(U) * 8 - 1));
    const unsigned ymask = (1u << ybits) - 1u;
    for (int64_t k = spmv_cuda_gtid(); k < nempty; k += spmv_cuda_gsize()) {
        const int64_t r = (int64_t)erows[k];
        y[r] = beta == T(0) ? T(0) : beta * y[r];
    }
    for (int64_t g = spmv_cuda_gtid() >> 5; g < nranges; g += spmv_cuda_gsize() >> 5) { /* warp-uniform */
        const int64_t t0 = g * tpw, t1 = t0 + tpw < ntiles ? t0 + tpw : ntiles;
        int64_t crow = -1; /* the carried row (-1: none), its sum, and whether it goes to the calibrator */
        T carry = T(0);
        int calib = 0;
        for (int64_t t = t0; t < t1; t++) {
            const int64_t base = t * TS;
            const U tp = tile_ptr[t];
            const int64_t r0 = (int64_t)(tp & (U)~top);
            const I *eo = (tp & top) ? eoff + (int64_t)eptr[t] : NULL;
            const uint32_t *d = desc + t * (int64_t)dw;
            const unsigned slot = (d[sigma + (lane >> 1)] >> ((lane & 1) * 16)) & 0xFFFFu;
            const int yo = (int)(slot & ymask), so = (int)(slot >> ybits);
            const A *tv = val + base + lane;
            const I *tc = ci + base + lane;
            int sid = yo - 1, cnt = 0;
            T sum = T(0), topv = T(0), v0 = T(0);
            /* the lane's column: a flag restarts the running sum */
#pragma unroll 4
            for (int j = 0; j < sigma; j++) {
                const T p = spmv_cuda_tv<T>(tv[(int64_t)j * 32]) * x[tc[(int64_t)j * 32]];
                if ((d[j] >> lane) & 1u) {
                    if (cnt == 0) topv = sum;   /* the lane's top: a row opened in an earlier lane */
                    else if (sid == 0) v0 = sum; /* the tile's first row (lane 0): through the carry */
                    else spmv_cuda_axpby(y + r0 + (eo ? (int64_t)eo[sid] : (int64_t)sid), alpha, sum, beta);
                    sid++;
                    cnt++;
                    sum = T(0);
                }
                sum += p;
            }
            /* segmented inclusive scan of the bottom sums, heads at the flagged lanes (lane 0 is) */
            T S = sum;
            int h = cnt > 0;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const T pv = __shfl_up_sync(SPMV_CUDA_FULL_MASK, S, o);
                const int ph = __shfl_up_sync(SPMV_CUDA_FULL_MASK, h, o);
                if (lane >= o && !h) {
                    S += pv;
                    h = ph;
                }
            }
            {   /* a flagged lane closes the row open since the previous flagged lane: segment yo-1 */
                const T prev = __shfl_up_sync(SPMV_CUDA_FULL_MASK, S, 1);
                if (cnt > 0 && lane > 0) {
                    const T tot = prev + topv;
                    if (yo == 1) v0 = tot;
                    else spmv_cuda_axpby(y + r0 + (eo ? (int64_t)eo[yo - 1] : (int64_t)(yo - 1)), alpha, tot, beta);
                }
            }
            /* warp-uniform from here: segment count, the first row's sum (closed in lane 0 when it
               has a second flag, else in the next flagged lane 1 + seg_offset[0]), the last one's */
            const int nseg = __shfl_sync(SPMV_CUDA_FULL_MASK, yo + cnt, 31);
            const int c0 = __shfl_sync(SPMV_CUDA_FULL_MASK, cnt >= 2 ? 0 : (1 + so) & 31, 0);
            const T first = __shfl_sync(SPMV_CUDA_FULL_MASK, v0, c0);
            const T last = __shfl_sync(SPMV_CUDA_FULL_MASK, S, 31);
            if (nseg == 1) { /* the tile lies inside one row */
                if (crow == r0) carry += last;
                else {
                    spmv_cuda__csr5_emit(crow, carry, calib, cal_val + g, alpha, beta, y);
                    crow = r0;
                    carry = last;
                    calib = t == t0 && (int64_t)rp[r0] < base; /* begun in an earlier range */
                }
            } else {
                if (crow == r0) spmv_cuda__csr5_emit(crow, carry + first, calib, cal_val + g, alpha, beta, y);
                else {
                    spmv_cuda__csr5_emit(crow, carry, calib, cal_val + g, alpha, beta, y);
                    spmv_cuda__csr5_emit(r0, first, t == t0 && (int64_t)rp[r0] < base, cal_val + g, alpha, beta, y);
                }
                crow = r0 + (eo ? (int64_t)eo[nseg - 1] : (int64_t)(nseg - 1));
                carry = last;
                calib = 0;
            }
        }
        spmv_cuda__csr5_emit(crow, carry, calib, cal_val + g, alpha, beta, y);
    }
}

/* Kernel 2: warps [0, ncw) add the calibrator slots (cal_row[c] += alpha*cal_val[cal_range[c]],
 * reduce-by-key per warp), warps [ncw, ncw + ntail) the tail rows tail_r0 + ... as CSR. */
template <typename T, typename I, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csr5_fix(int64_t ncal, const int64_t *__restrict__ cal_row, const int64_t *__restrict__ cal_range,
                        const T *__restrict__ cal_val, int64_t tail_r0, int64_t ntail, int64_t k0,
                        const I *__restrict__ rp, const I *__restrict__ ci, const A *__restrict__ val, T alpha,
                        const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t per = 32 * SPMV_CUDA_CSR5_CAL_STEPS, ncw = (ncal + per - 1) / per;
    for (int64_t w = spmv_cuda_gtid() >> 5; w < ncw + ntail; w += spmv_cuda_gsize() >> 5) { /* warp-uniform */
        if (w < ncw) {
            const int64_t b0 = w * per, end = b0 + per < ncal ? b0 + per : ncal;
            int64_t ckey = -1;
            T cval = T(0);
            for (int64_t b = b0; b < end; b += 32) {
                const int64_t k = b + lane;
                int64_t key = -1;
                T v = T(0);
                if (k < end) {
                    key = cal_row[k];
                    v = cal_val[cal_range[k]];
                }
                spmv_cuda_warp_seg_step(key, v, ckey, cval, alpha, y);
            }
            spmv_cuda_seg_flush(ckey, cval, alpha, y);
        } else {
            const int64_t r = tail_r0 + (w - ncw), rb = (int64_t)rp[r], re = (int64_t)rp[r + 1];
            const int64_t b = rb > k0 ? rb : k0;
            T s = T(0);
            for (int64_t k = b + lane; k < re; k += 32) s += spmv_cuda_tv<T>(val[k]) * x[ci[k]];
            s = spmv_cuda_warp_sum<32>(s);
            if (lane == 0 && b < re) {
                if (rb < k0) atomicAdd(y + r, alpha * s); /* began in a tile: its '=' was kernel 1's */
                else spmv_cuda_axpby(y + r, alpha, s, beta);
            }
        }
    }
}
#endif /* SPMV_CUDA_CSR5_COMMON */

typedef struct SPMV_NAME(csr5_dev) {
    SPMV_I nrows, ncols, nnz;
    SPMV_I ntiles, nempty, neo; /* neo: empty_offset entries */
    int sigma, ybits, desc_words;
    int64_t tpw, nranges;  /* tiles per warp, ranges = ceil(ntiles / tpw) */
    int64_t ncal;          /* ranges whose first row began in an earlier range */
    int64_t tail_r0, ntail; /* the tail's rows: tail_r0 .. tail_r0 + ntail - 1 (0 rows: no tail) */
    SPMV_I *row_ptr, *col_idx; /* device memory from here on (NULL when empty) */
    SPMV_T *val;
    SPMV_NAME(csr5_uidx) * tile_ptr;
    uint32_t *tile_desc;
    SPMV_I *empty_ptr, *empty_offset, *empty_rows;
    int64_t *cal_row, *cal_range; /* ncal: the row and the range of each calibrator slot */
    SPMV_Y *cal_val;              /* nranges: written by the tile kernel (calibrating ranges only) */
    spmv_csr5_params params;      /* resolved: omega 32, sigma, tpw */
} SPMV_NAME(csr5_dev);

static inline spmv_status SPMV_NAME(csr5_dev_free)(SPMV_NAME(csr5_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->col_idx, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->tile_ptr, &st);
    spmv_cuda_release(&D->tile_desc, &st);
    spmv_cuda_release(&D->empty_ptr, &st);
    spmv_cuda_release(&D->empty_offset, &st);
    spmv_cuda_release(&D->empty_rows, &st);
    spmv_cuda_release(&D->cal_row, &st);
    spmv_cuda_release(&D->cal_range, &st);
    spmv_cuda_release(&D->cal_val, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes: the host formula (spmv_<tag>_csr5_bytes) + the calibrator arrays. */
static inline size_t SPMV_NAME(csr5_dev_bytes)(const SPMV_NAME(csr5_dev) *D) {
    if (!D || !D->row_ptr) return 0;
    return ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->nnz * (sizeof(SPMV_I) + sizeof(SPMV_T)) +
           ((size_t)D->ntiles + 1) * (sizeof(SPMV_NAME(csr5_uidx)) + sizeof(SPMV_I)) +
           (size_t)D->ntiles * (size_t)D->desc_words * sizeof(uint32_t) + (size_t)D->neo * sizeof(SPMV_I) +
           (size_t)D->nempty * sizeof(SPMV_I) +
           (size_t)D->ncal * 2 * sizeof(int64_t) + (size_t)D->nranges * sizeof(SPMV_Y);
}

/* Host CSR A -> host CSR5 (omega 32, sigma from p or the rule) -> device; waits for the copies.
 * Errors before any CUDA call: SPMV_ERR_ARG (omega not 0/32, tpw < 0, a malformed A: csr_check),
 * SPMV_ERR_LIMIT (sigma > 66), SPMV_ERR_ALLOC (host); then SPMV_ERR_NODEVICE / SPMV_ERR_CUDA.
 * On failure *D is zeroed and nothing is left allocated. */
static inline spmv_status SPMV_NAME(csr5_dev_from_csr)(SPMV_NAME(csr5_dev) *D, const SPMV_NAME(csr) *A,
                                                       const spmv_csr5_params *p, cudaStream_t s = 0) {
    spmv_csr5_params q = p ? *p : spmv_csr5_dev_params_default();
    const SPMV_NAME(csr5_uidx) top = SPMV__CSR5_TOP(SPMV_NAME(csr5_uidx));
    SPMV_NAME(csr5) H;
    int64_t *crow = NULL, *crange = NULL, g, TS, nc = 0;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if ((q.omega != 0 && q.omega != 32) || q.tpw < 0 || q.sigma < 0) return SPMV_ERR_ARG;
    st = SPMV_NAME(csr_check)(A);
    if (st != SPMV_OK) return st;
    q.isa = SPMV_ISA_GENERIC;
    q.omega = 32;
    if (q.sigma == 0) q.sigma = spmv_csr5_dev_sigma((int64_t)A->nrows, (int64_t)A->nnz);
    st = SPMV_NAME(csr5_from_csr)(&H, A, &q, NULL);
    if (st != SPMV_OK) return st;
    TS = 32 * (int64_t)H.params.sigma;
    D->nrows = H.nrows;
    D->ncols = H.ncols;
    D->nnz = H.nnz;
    D->ntiles = H.ntiles;
    D->nempty = H.nempty;
    D->neo = H.empty_ptr[H.ntiles];
    D->sigma = H.params.sigma;
    D->ybits = H.ybits;
    D->desc_words = H.desc_words;
    D->tpw = spmv_csr5_dev_tpw((int64_t)H.ntiles, q.tpw);
    D->nranges = ((int64_t)H.ntiles + D->tpw - 1) / D->tpw;
    D->params = H.params;
    D->params.tpw = (int)(D->tpw < INT32_MAX ? D->tpw : INT32_MAX);
    /* the calibrator slots: ranges whose first tile continues a row begun before the range */
    if (D->nranges > 1) {
        crow = SPMV_ALLOC_N(int64_t, (size_t)D->nranges);
        crange = SPMV_ALLOC_N(int64_t, (size_t)D->nranges);
        if (!crow || !crange) st = SPMV_ERR_ALLOC;
        for (g = 1; st == SPMV_OK && g < D->nranges; g++) {
            const int64_t t0 = g * D->tpw, r = (int64_t)(H.tile_ptr[t0] & (SPMV_NAME(csr5_uidx))~top);
            if ((int64_t)H.row_ptr[r] < t0 * TS) {
                crow[nc] = r;
                crange[nc] = g;
                nc++;
            }
        }
    }
    D->ncal = nc;
    /* the tail's rows: from the row of nonzero ntiles*T to the last row with an entry */
    if (st == SPMV_OK && (int64_t)H.ntiles * TS < (int64_t)H.nnz) {
        int64_t r1 = (int64_t)(H.tile_ptr[H.ntiles] & (SPMV_NAME(csr5_uidx))~top);
        D->tail_r0 = r1;
        while (r1 < (int64_t)H.nrows && H.row_ptr[r1] < H.nnz) r1++;
        D->ntail = r1 - D->tail_r0;
    }
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->row_ptr, H.row_ptr, (size_t)H.nrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->col_idx, H.col_idx, (size_t)H.nnz, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->val, H.val, (size_t)H.nnz, s);
    if (st == SPMV_OK && H.ntiles > 0) {
        st = spmv_cuda_upload(&D->tile_ptr, H.tile_ptr, (size_t)H.ntiles + 1, s);
        if (st == SPMV_OK)
            st = spmv_cuda_upload(&D->tile_desc, H.tile_desc, (size_t)H.ntiles * (size_t)H.desc_words, s);
        if (st == SPMV_OK) st = spmv_cuda_upload(&D->empty_ptr, H.empty_ptr, (size_t)H.ntiles + 1, s);
        if (st == SPMV_OK) st = spmv_cuda_upload(&D->empty_offset, H.empty_offset, (size_t)H.empty_ptr[H.ntiles], s);
        if (st == SPMV_OK) st = spmv_cuda_alloc(&D->cal_val, (size_t)D->nranges);
    }
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->empty_rows, H.empty_rows, (size_t)H.nempty, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->cal_row, crow, (size_t)nc, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->cal_range, crange, (size_t)nc, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s)); /* the host copies are freed next */
    spmv__free(crow);
    spmv__free(crange);
    SPMV_NAME(csr5_free)(&H);
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(csr5_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device, ordered on s (asynchronous); beta == 0: y not read. */
static inline spmv_status SPMV_NAME(csr5_dev_mv)(const SPMV_NAME(csr5_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                 SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    spmv_status st;
    if (!D || (D->nrows > 0 && (!y || !D->row_ptr)) || (D->nnz > 0 && (!x || !D->col_idx || !D->val)) ||
        (D->ntiles > 0 && (!D->tile_ptr || !D->tile_desc || !D->cal_val)) || (D->nempty > 0 && !D->empty_rows))
        return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (D->ntiles > 0 || D->nempty > 0) {
        const int64_t work = D->nranges * 32 > (int64_t)D->nempty ? D->nranges * 32 : (int64_t)D->nempty;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(work, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                         spmv_cuda__csr5_tiles<SPMV_Y, SPMV_I, SPMV_NAME(csr5_uidx), SPMV_T>)(
            (int64_t)D->ntiles, D->tpw > 0 ? D->tpw : 1, D->sigma, D->ybits, D->desc_words, D->row_ptr, D->col_idx,
            D->val, D->tile_ptr, D->tile_desc, D->empty_ptr, D->empty_offset, (int64_t)D->nempty, D->empty_rows,
            alpha, x, beta, y, D->cal_val);
        st = spmv_cuda_status(cudaGetLastError());
        if (st != SPMV_OK) return st;
    }
    if (D->ncal > 0 || D->ntail > 0) {
        const int64_t per = 32 * SPMV_CUDA_CSR5_CAL_STEPS, warps = (D->ncal + per - 1) / per + D->ntail;
        SPMV_CUDA_LAUNCH(spmv_cuda_grid(warps * 32, SPMV_CUDA_BLOCK), SPMV_CUDA_BLOCK, s,
                         spmv_cuda__csr5_fix<SPMV_Y, SPMV_I, SPMV_T>)(
            D->ncal, D->cal_row, D->cal_range, D->cal_val, D->tail_r0, D->ntail,
            (int64_t)D->ntiles * 32 * (int64_t)D->sigma, D->row_ptr, D->col_idx, D->val, alpha, x, beta, y);
        st = spmv_cuda_status(cudaGetLastError());
        if (st != SPMV_OK) return st;
    }
    return SPMV_OK;
}

/* "sigma=8,tpw=1,tiles=1234" */
static inline void SPMV_NAME(csr5_dev_params_str)(const SPMV_NAME(csr5_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    snprintf(buf, len, "sigma=%d,tpw=%lld,tiles=%lld", D->sigma, (long long)D->tpw, (long long)D->ntiles);
}
