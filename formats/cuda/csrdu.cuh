/* CUDA CSRDU — the host csrdu (formats/csrdu.h: CSR's row_ptr, each row's column deltas as one
 * unit of one width, the values plain, as a byte into a table, or one value) copied to device
 * memory unchanged. Template header, included once per (SPMV_TAG, SPMV_VAL, SPMV_IDX) by
 * formats/cuda/instance.cuh. No include guard on purpose.
 *
 * Kernel: a warp per block of SPMV_CSRDU_G rows (grid-stride; ck gives the block's stream
 * offset), its rows one after another. A row's deltas all have the unit's width, so lane j
 * reads the row's j-th delta directly (32 at a time; the first negated when the width byte has
 * SPMV_CSRDU_NEG); an inclusive warp scan of the deltas,
 * plus the column before them (the previous row's first column for the first delta), gives
 * every lane its column: the decode is cooperative, with no per-entry escape. Each lane adds
 * value * x[column] into its partial sum; the row's sum is a shuffle reduction (a fixed
 * order: no atomics, the same y every run). The row's first column, broadcast from lane 0,
 * is the next row's base. Memory: cudaMalloc only. Everything runs on the current device. */

#ifndef SPMV_CUDA_CSRDU_COMMON
#define SPMV_CUDA_CSRDU_COMMON
/* the unsigned integer of N bytes (an index type's twin) */
template <int N> struct spmv_cuda__csrdu_uint { typedef uint64_t type; };
template <> struct spmv_cuda__csrdu_uint<4> { typedef uint32_t type; };
/* the delta of w bytes (0: sizeof(U), signed, added modulo U's range) at q, as U */
template <typename U> __device__ __forceinline__ U spmv_cuda__csrdu_delta(const unsigned char *q, int w) {
    if (w == 1) return (U)q[0];
    if (w == 2) return (U)q[0] | ((U)q[1] << 8);
    U v = 0;
    for (int i = 0; i < (int)sizeof(U); i++) v |= (U)q[i] << (8 * i);
    return v;
}
/* Lane j's column of a unit whose deltas (w bytes each, wb apart) start at q: its delta (the
 * first negated when neg, SPMV_CSRDU_NEG), an inclusive warp scan of the 32 lanes' deltas, plus
 * base (the column before them); lanes at or past n add 0. Every lane of the warp calls it. */
template <typename U>
__device__ __forceinline__ U spmv_cuda__csrdu_col(const unsigned char *q, int64_t j, int64_t n, int w, int wb, int neg,
                                                  int lane, U base) {
    U c = j < n ? spmv_cuda__csrdu_delta<U>(q + j * wb, w) : U(0);
    if (j == 0 && neg) c = U(0) - c;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const U t = __shfl_up_sync(SPMV_CUDA_FULL_MASK, c, o);
        if (lane >= o) c += t;
    }
    return c + base;
}
/* the value of entry k by the value mode VM (formats/csrdu.h: 0 plain, 1 table, 2 one) */
template <typename T, int VM, typename A>
__device__ __forceinline__ T spmv_cuda__csrdu_val(int64_t k, const A *val, const unsigned char *vi, const A *tab,
                                                  A v1) {
    return spmv_cuda_tv<T>(VM == 0 ? val[k] : VM == 1 ? tab[vi[k]] : v1);
}
/* U: the index type's unsigned twin (columns summed modulo its range, as the host decodes) */
template <typename T, typename I, typename U, int VM, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csrdu(int64_t nrows, const I *__restrict__ rp, const unsigned char *__restrict__ d,
                     const int64_t *__restrict__ ck, const A *__restrict__ val, const unsigned char *__restrict__ vi,
                     const A *__restrict__ tab, A v1, T alpha, const T *__restrict__ x, T beta, T *__restrict__ y) {
    const int lane = spmv_cuda_lane();
    const int64_t nb = (nrows + SPMV_CSRDU_G - 1) / SPMV_CSRDU_G, warps = spmv_cuda_gsize() / 32;
    /* every lane of a warp has the same block, row and row length: the shuffles see them all */
    for (int64_t b = spmv_cuda_gtid() / 32; b < nb; b += warps) {
        const int64_t r1 = (b + 1) * SPMV_CSRDU_G < nrows ? (b + 1) * SPMV_CSRDU_G : nrows;
        int64_t p = ck[b];
        U prev = 0;
        for (int64_t r = b * SPMV_CSRDU_G; r < r1; r++) {
            const int64_t k0 = (int64_t)rp[r], n = (int64_t)rp[r + 1] - k0;
            T sum = T(0);
            if (n > 0) {
                const int w = d[p] & 3, wb = w ? w : (int)sizeof(U), neg = d[p] >> 7;
                U base = prev;
                for (int64_t j0 = 0; j0 < n; j0 += 32) {
                    const int64_t j = j0 + lane;
                    const U c = spmv_cuda__csrdu_col<U>(d + p + 1, j, n, w, wb, neg, lane, base);
                    if (j < n) sum += spmv_cuda__csrdu_val<T, VM, A>(k0 + j, val, vi, tab, v1) * x[(I)c];
                    if (j0 == 0) prev = __shfl_sync(SPMV_CUDA_FULL_MASK, c, 0);
                    base = __shfl_sync(SPMV_CUDA_FULL_MASK, c, 31);
                }
                p += 1 + n * wb;
            }
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(SPMV_CUDA_FULL_MASK, sum, o);
            if (lane == 0) spmv_cuda_axpby(y + r, alpha, sum, beta);
        }
    }
}
/* Y = alpha*A*X + beta*Y with k vectors (X and Y row- or column-major): the mv kernel's warp
 * per block of G rows, each row's unit decoded 32 columns at a time as there, once per pass of up
 * to 32 vectors; for each vector of the pass the lanes' products are summed by a butterfly of
 * shuffles (every lane gets the same bits) and lane q keeps vector q's sum: a fixed order, no
 * atomics. */
template <typename T, typename I, typename U, int VM, typename A = T>
__global__ void __launch_bounds__(SPMV_CUDA_BLOCK)
    spmv_cuda__csrdu_mm(int64_t nrows, const I *__restrict__ rp, const unsigned char *__restrict__ d,
                        const int64_t *__restrict__ ck, const A *__restrict__ val, const unsigned char *__restrict__ vi,
                        const A *__restrict__ tab, A v1, int64_t k, T alpha, const T *__restrict__ X, int64_t ldx,
                        T beta, T *__restrict__ Y, int64_t ldy, int colmajor) {
    const int lane = spmv_cuda_lane();
    const int64_t nb = (nrows + SPMV_CSRDU_G - 1) / SPMV_CSRDU_G, warps = spmv_cuda_gsize() / 32;
    for (int64_t b = spmv_cuda_gtid() / 32; b < nb; b += warps) { /* warp-uniform */
        const int64_t r1 = (b + 1) * SPMV_CSRDU_G < nrows ? (b + 1) * SPMV_CSRDU_G : nrows;
        for (int64_t jb = 0; jb < k; jb += 32) {
            const int nj = k - jb < 32 ? (int)(k - jb) : 32;
            int64_t p = ck[b];
            U prev = 0;
            for (int64_t r = b * SPMV_CSRDU_G; r < r1; r++) {
                const int64_t k0 = (int64_t)rp[r], n = (int64_t)rp[r + 1] - k0;
                T acc = T(0); /* lane q: vector jb + q */
                if (n > 0) {
                    const int w = d[p] & 3, wb = w ? w : (int)sizeof(U), neg = d[p] >> 7;
                    U base = prev;
                    for (int64_t j0 = 0; j0 < n; j0 += 32) {
                        const int64_t j = j0 + lane;
                        const U c = spmv_cuda__csrdu_col<U>(d + p + 1, j, n, w, wb, neg, lane, base);
                        const T v = j < n ? spmv_cuda__csrdu_val<T, VM, A>(k0 + j, val, vi, tab, v1) : T(0);
                        const int64_t col = (int64_t)(I)c;
                        for (int q = 0; q < nj; q++) {
                            T t = j < n ? v * X[colmajor ? (jb + q) * ldx + col : col * ldx + jb + q] : T(0);
#pragma unroll
                            for (int o = 16; o > 0; o >>= 1) t += __shfl_xor_sync(SPMV_CUDA_FULL_MASK, t, o);
                            if (lane == q) acc += t;
                        }
                        if (j0 == 0) prev = __shfl_sync(SPMV_CUDA_FULL_MASK, c, 0);
                        base = __shfl_sync(SPMV_CUDA_FULL_MASK, c, 31);
                    }
                    p += 1 + n * wb;
                }
                if (lane < nj) spmv_cuda_axpby(colmajor ? Y + (jb + lane) * ldy + r : Y + r * ldy + jb + lane, alpha, acc, beta);
            }
        }
    }
}
static inline spmv_csrdu_params spmv_csrdu_dev_params_default(void) {
    spmv_csrdu_params p = spmv_csrdu_params_default();
    p.isa = SPMV_ISA_GENERIC; /* the host copy only feeds the upload */
    return p;
}
#endif /* SPMV_CUDA_CSRDU_COMMON */

typedef struct SPMV_NAME(csrdu_dev) {
    SPMV_I nrows, ncols, nnz;
    int64_t nd;            /* stream bytes (and 8 of padding uploaded after them) */
    int vmode, ntab;       /* as the host csrdu */
    SPMV_T v1;
    SPMV_I *row_ptr;       /* device memory */
    unsigned char *d, *vi; /* vi: table mode only */
    int64_t *ck;
    SPMV_T *val, *tab;     /* val: plain mode only; tab: table mode only */
} SPMV_NAME(csrdu_dev);

/* Frees the device arrays and zeroes *D; safe on a zeroed or freed D. */
static inline spmv_status SPMV_NAME(csrdu_dev_free)(SPMV_NAME(csrdu_dev) *D) {
    spmv_status st = SPMV_OK;
    if (!D) return SPMV_OK;
    spmv_cuda_release(&D->row_ptr, &st);
    spmv_cuda_release(&D->d, &st);
    spmv_cuda_release(&D->vi, &st);
    spmv_cuda_release(&D->ck, &st);
    spmv_cuda_release(&D->val, &st);
    spmv_cuda_release(&D->tab, &st);
    memset(D, 0, sizeof *D);
    return st;
}

/* Device bytes held by D (the host csrdu_bytes and the stream's padding). */
static inline size_t SPMV_NAME(csrdu_dev_bytes)(const SPMV_NAME(csrdu_dev) *D) {
    if (!D) return 0;
    return ((size_t)D->nrows + 1) * sizeof(SPMV_I) + (size_t)D->nd + 8 +
           ((size_t)D->nrows / SPMV_CSRDU_G + 2) * sizeof(int64_t) +
           (D->vmode == SPMV_CSRDU_PLAIN   ? (size_t)D->nnz * sizeof(SPMV_T)
            : D->vmode == SPMV_CSRDU_TABLE ? (size_t)D->nnz + (size_t)D->ntab * sizeof(SPMV_T)
                                           : 0);
}

/* Copies host csrdu A to the device (ordered on s, waits for the copies). On failure *D is
 * zeroed: SPMV_ERR_ARG, SPMV_ERR_NODEVICE, SPMV_ERR_CUDA. */
static inline spmv_status SPMV_NAME(csrdu_to_device)(SPMV_NAME(csrdu_dev) *D, const SPMV_NAME(csrdu) *A,
                                                     cudaStream_t s = 0) {
    const size_t nb = A ? (size_t)A->nrows / SPMV_CSRDU_G + 2 : 0;
    spmv_status st;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    if (!A || A->nrows < 0 || A->nnz < 0 || !A->row_ptr || !A->ck || !A->d) return SPMV_ERR_ARG;
    D->nrows = A->nrows, D->ncols = A->ncols, D->nnz = A->nnz, D->nd = A->nd;
    D->vmode = A->vmode, D->ntab = A->ntab, D->v1 = A->v1;
    st = spmv_cuda_upload(&D->row_ptr, A->row_ptr, (size_t)A->nrows + 1, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->d, A->d, (size_t)A->nd + 8, s);
    if (st == SPMV_OK) st = spmv_cuda_upload(&D->ck, A->ck, nb, s);
    if (st == SPMV_OK && A->vmode == SPMV_CSRDU_PLAIN) st = spmv_cuda_upload(&D->val, A->val, (size_t)A->nnz, s);
    if (st == SPMV_OK && A->vmode == SPMV_CSRDU_TABLE) st = spmv_cuda_upload(&D->vi, A->vi, (size_t)A->nnz, s);
    if (st == SPMV_OK && A->vmode == SPMV_CSRDU_TABLE) st = spmv_cuda_upload(&D->tab, A->tab, (size_t)A->ntab, s);
    if (st == SPMV_OK) st = spmv_cuda_status(cudaStreamSynchronize(s));
    if (st != SPMV_OK) {
        cudaError_t keep = spmv_cuda_last_error();
        (void)SPMV_NAME(csrdu_dev_free)(D);
        spmv_cuda__last_error_ref() = keep;
    }
    return st;
}

/* y = alpha*D*x + beta*y on the device, ordered on stream s (asynchronous); beta == 0: y not read. */
static inline spmv_status SPMV_NAME(csrdu_dev_mv)(const SPMV_NAME(csrdu_dev) *D, SPMV_Y alpha, const SPMV_Y *x,
                                                  SPMV_Y beta, SPMV_Y *y, cudaStream_t s = 0) {
    typedef typename spmv_cuda__csrdu_uint<sizeof(SPMV_I)>::type U;
    const int64_t nb = D ? ((int64_t)D->nrows + SPMV_CSRDU_G - 1) / SPMV_CSRDU_G : 0;
    const unsigned grid = spmv_cuda_grid(nb * 32, SPMV_CUDA_BLOCK);
    if (!D || (D->nrows > 0 && (!y || !D->row_ptr || !D->d || !D->ck)) || (D->nnz > 0 && !x)) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (D->vmode == SPMV_CSRDU_PLAIN)
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu<SPMV_Y, SPMV_I, U, 0, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, alpha, x, beta, y);
    else if (D->vmode == SPMV_CSRDU_TABLE)
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu<SPMV_Y, SPMV_I, U, 1, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, alpha, x, beta, y);
    else
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu<SPMV_Y, SPMV_I, U, 2, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, alpha, x, beta, y);
    return spmv_cuda_status(cudaGetLastError());
}

/* Y = alpha*D*X + beta*Y with k vectors on the device (device pointers, either layout; beta == 0:
 * Y not read), ordered on stream s: each row's unit decoded once per 32 vectors. */
static inline spmv_status SPMV_NAME(csrdu_dev_mm)(const SPMV_NAME(csrdu_dev) *D, int64_t k, SPMV_Y alpha, const SPMV_Y *X,
                                                  int64_t ldx, SPMV_Y beta, SPMV_Y *Y, int64_t ldy, spmv_layout lay,
                                                  cudaStream_t s = 0) {
    typedef typename spmv_cuda__csrdu_uint<sizeof(SPMV_I)>::type U;
    const int64_t nb = D ? ((int64_t)D->nrows + SPMV_CSRDU_G - 1) / SPMV_CSRDU_G : 0;
    const unsigned grid = spmv_cuda_grid(nb * 32, SPMV_CUDA_BLOCK);
    const int cm = lay == SPMV_COL_MAJOR;
    if (!D || spmv__mm_args_bad(D->ncols, D->nrows, k, X, ldx, Y, ldy, lay, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (D->nrows == 0) return SPMV_OK;
    if (!D->row_ptr || !D->d || !D->ck) return SPMV_ERR_ARG;
    if (D->vmode == SPMV_CSRDU_PLAIN)
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu_mm<SPMV_Y, SPMV_I, U, 0, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, k, alpha, X, ldx, beta, Y, ldy, cm);
    else if (D->vmode == SPMV_CSRDU_TABLE)
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu_mm<SPMV_Y, SPMV_I, U, 1, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, k, alpha, X, ldx, beta, Y, ldy, cm);
    else
        SPMV_CUDA_LAUNCH(grid, SPMV_CUDA_BLOCK, s, spmv_cuda__csrdu_mm<SPMV_Y, SPMV_I, U, 2, SPMV_T>)(
            (int64_t)D->nrows, D->row_ptr, D->d, D->ck, D->val, D->vi, D->tab, D->v1, k, alpha, X, ldx, beta, Y, ldy, cm);
    return spmv_cuda_status(cudaGetLastError());
}

/* ---- registry contract (row csrdu) ---- */
/* Host CSR A -> csrdu on the host -> device. */
static inline spmv_status SPMV_NAME(csrdu_dev_from_csr)(SPMV_NAME(csrdu_dev) *D, const SPMV_NAME(csr) *A,
                                                        const spmv_csrdu_params *p, cudaStream_t s = 0) {
    SPMV_NAME(csrdu) B;
    spmv_csrdu_params q = spmv_csrdu_dev_params_default();
    spmv_status st;
    (void)p;
    if (!D) return SPMV_ERR_ARG;
    memset(D, 0, sizeof *D);
    st = SPMV_NAME(csrdu_from_csr)(&B, A, &q, NULL);
    if (st != SPMV_OK) return st;
    st = SPMV_NAME(csrdu_to_device)(D, &B, s);
    SPMV_NAME(csrdu_free)(&B);
    return st;
}
static inline void SPMV_NAME(csrdu_dev_params_str)(const SPMV_NAME(csrdu_dev) *D, char *buf, size_t len) {
    if (!len) return;
    if (!D) {
        buf[0] = 0;
        return;
    }
    snprintf(buf, len, "values=%s",
             D->vmode == SPMV_CSRDU_PLAIN ? "plain" : D->vmode == SPMV_CSRDU_TABLE ? "table" : "one");
}
