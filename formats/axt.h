/* AXC and AXT — the matrix values with their x values beside them in one array `ax`
 * (Coronado-Barrientos, Antonioletti, Garcia-Loureiro 2021), five variants in one header.
 *
 * Terms. W = THW ("tile half width") = the vector width, in values, of the backend the
 * object is built for: AVX-512 8 d / 16 f, AVX2 4 d / 8 f, portable kernels any of
 * 4, 8, 16, 32 (params.thw; default 8 d / 16 f). A *group* is 2W consecutive values of
 * ax: W matrix values, then the W matching x values (x[col] of each value). Every
 * variant's ax is a sequence of whole groups; a padding slot holds the value 0 (and
 * x[0], see below).
 * The stream of a matrix is its nonzeros in CSR order (rows ascending, columns
 * ascending within a row, duplicates summed, explicit zeros kept).
 *
 *  AXC     Each row is cut into ceil(n_r/W) bricks (= groups), the last one zero-padded.
 *          brp[nrows+1]: brp[r] = offset in ax (in values) of row r's first brick;
 *          brp[nrows] = length of ax. Empty rows have no bricks.
 *  AXTUH1  (UNC, TH = 1) ax identical to AXC (tiles = bricks); rwp[tile] = its row.
 *  AXTUH   (UNC, TH > 1) row r occupies ceil(n_r/TH) consecutive *columns* of height TH,
 *          numbered globally (column c = tile c/W, lane c%W); the row's j-th entry is
 *          in column c_r + j/TH at step j%TH; the last column of a row is zero-padded.
 *          Tile t is TH groups: step s of tile t = group t*TH + s, i.e. the value is at
 *          ax[t*TH*2W + s*2W + lane], its x at +W. rwp[t*W + lane] = the column's row.
 *          Columns past the last real one (end of the last tile) hold padding and
 *          rwp = the last non-empty row (so rwp stays sorted; the paper writes 0).
 *  AXTCH1  (COM, TH = 1) the stream unpadded: stream element k is in group k/W, lane k%W.
 *          ax is padded to whole blocks of BS elements (BS a power of two, a multiple
 *          of W). Segments = maximal runs of one row inside one block.
 *          hdr[k] (one word per element) = 0 except at a segment head:
 *              ((row + 1) << log2 BS) | (offset from the head to the segment's last element)
 *          row + 1, not row: the paper's (row << ...) | 0 for row 0 with offset 0 is 0,
 *          indistinguishable from "no head" (the paper's `if (ro != 0)` dropped it).
 *          Every block starts with a head, so blocks are independent work units.
 *  AXTCH   (COM, TH > 1, TH a power of two) the stream poured down columns of height TH:
 *          stream element k is in column c = k/TH at step s = k%TH, stored like AXTUH
 *          (group (c/W)*TH + s, lane c%W). Segments are runs of one row inside one
 *          column; every column top is a head. hdr has one word per slot, laid out like
 *          the value slots (hdr[(t*TH + s)*W + lane]):
 *              ((row + 1) << log2 TH) | (steps from the head to the segment's last element)
 *          ax is padded to whole tiles of TH*W elements.
 *  Header words are uint32_t when SPMV_IDX is int32_t and uint64_t when it is int64_t.
 *  The row field therefore holds rows + 1 < 2^(32 - log2 BS) (AXTCH1) or
 *  2^(32 - log2 TH) (AXTCH); a taller matrix is SPMV_ERR_LIMIT (never truncated) —
 *  spmv_<tag>_axt_max_rows() gives the limit. With th/bs left 0 (automatic) the
 *  converter picks a smaller BS/TH when the default does not fit.
 *
 * Value types. ax is one array of the vectors' type (SPMV_Y): a tag whose values are narrower
 * than its vectors (ds: float values, double vectors; h, b: 16-bit values, float vectors) widens
 * each value once when it converts (exactly), so the embedded x keeps its precision and the
 * kernels are those of the vectors' type; such an object moves 2 * sizeof(SPMV_Y) bytes per
 * slot, twice what the same layout would in the values' type, and the selection's rules say so
 * (spmv_axt__widened). _to_csr rounds back exactly; new values rebuild it (no value map).
 * Complex tags (c, z) store complex values and x copies, lane for lane, in the same layout.
 *
 * x is embedded. Besides the paper's arrays the object keeps the map that scatters a
 * new x into ax: xcol[slot], the column of every value slot (W*ngroups indices), and
 * xmask[group], the lanes that hold entries (bit l = lane l). Padding slots have
 * column 0, so the scatter is a plain vector gather: a padding product is 0*x[0] = 0,
 * unless x[0] is Inf/NaN, which one test per call catches (then the padding is
 * zeroed through xmask).
 * Decision: `_mv(A, alpha, x, beta, y)` ALWAYS scatters this x into ax, so it is
 * correct for any x, including one the caller modified in place (no pointer or
 * checksum caching). The scatter is fused with the kernel: each thread updates about
 * SPMV_AXT_CHUNK_BYTES (256 KB) of its own part of ax and multiplies it while it is in
 * cache (one parallel region; measured ~25% faster than scatter, then multiply).
 * Callers that keep x fixed, or scatter it once for several products, call
 * `_update_x(A, x)` and then `_mv_kernel(A, alpha, beta, y)` per product (kernel only:
 * the paper's timing). `_mv` and `_update_x` write A->ax: one object must not run two
 * of them at once. A freshly converted object holds x = 0.
 *
 * Kernels (y = alpha*A*x + beta*y; beta == 0 never reads y):
 *  AXC     bricks split evenly over threads; a thread writes y[r] = alpha*s + beta*y[r]
 *          for the rows that end in its range, and the partial sum of the row running
 *          past its end becomes a carry added after the parallel region (so one row
 *          of millions of entries is shared by all threads, without atomics).
 *  AXTUH1  tiles split evenly; per tile a vector product and a horizontal sum added to
 *          y[rwp[t]]. AXTUH: per tile TH vector FMAs down the columns, then W sums
 *          added to y[rwp[...]] (the paper's Listing 5, which races across threads).
 *  AXTCH1  blocks split evenly; per segment (found from the head words' offsets) a
 *          masked vector sum of its products. AXTCH: tiles split evenly; vector
 *          accumulation down the columns, a lane emits and restarts where the head
 *          words mark a new segment.
 *  For the four AXT variants each thread owns the rows that finish in its range:
 *  it first sets those y to beta*y (0 when beta == 0) and then adds to them; the one
 *  row that continues past its range goes to a carry, added after the region. No two
 *  threads write the same y entry, no atomics.
 *  Compacted segment sums are direct masked sums, not the paper's scan differences
 *  S[e] - S[s] + p[s] ("fast segmented sum", Eq. 1): those lose every digit of a small
 *  row that follows large values in the same block, and an Inf in one row turns the
 *  later rows of its block into NaN (Inf - Inf).
 *  Below SPMV_PAR_MIN_NNZ nonzeros everything runs on one thread.
 *
 * Footprint: `_bytes` = ax + header (brp/rwp/hdr) + xcol + xmask, everything the
 * object holds; `_kernel_bytes` = ax + header, what `_mv_kernel` streams (the paper's
 * figure).
 *
 * API (tag d shown; the object type is one struct, spmv_d_axt, with five aliases):
 *   spmv_axt_params spmv_axt_params_default(void);
 *   spmv_status spmv_d_axt_from_csr(spmv_d_axt *A, const spmv_d_csr *B, spmv_axt_variant v,
 *                                   const spmv_axt_params *p, NULL);     // p NULL: defaults
 *   spmv_status spmv_d_axt_update_x(spmv_d_axt *A, const double *x);
 *   spmv_status spmv_d_axt_mv_kernel(const spmv_d_axt *A, double alpha, double beta, double *y);
 *   spmv_status spmv_d_axt_mv(spmv_d_axt *A, double alpha, const double *x, double beta, double *y);
 *   spmv_status spmv_d_axt_to_csr(const spmv_d_axt *A, spmv_d_csr *B);
 *   void spmv_d_axt_free(spmv_d_axt *A);
 *   size_t spmv_d_axt_bytes(const spmv_d_axt *A), spmv_d_axt_kernel_bytes(...);
 *   int64_t spmv_d_axt_max_rows(spmv_axt_variant v, int th, int bs);
 *   spmv_status spmv_d_axt_params_resolve(const spmv_d_csr *B, spmv_axt_variant v,
 *                                         const spmv_axt_params *p, spmv_axt_params *out);
 *   void spmv_d_axt_params_str(const spmv_d_axt *A, char *buf, size_t n);  // "thw=8,th=4"
 *   spmv_status spmv_d_axt_tune(const spmv_d_csr *B, spmv_axt_variant v, spmv_isa isa,
 *                               spmv_axt_params *best, double *seconds_spent);
 *   const char *spmv_axt_variant_name(spmv_axt_variant v);
 *   per variant V in axc, axtuh1, axtuh, axtch1, axtch: spmv_d_V (= spmv_d_axt),
 *   spmv_d_V_from_csr(A, B, p), spmv_d_V_mv, _mv_kernel, _update_x, _to_csr, _free, _bytes. */

#if defined(SPMV_PART_TYPES)
#ifndef SPMV_AXT_COMMON
#define SPMV_AXT_COMMON
typedef enum spmv_axt_variant {
    SPMV_AXC = 0,
    SPMV_AXTUH1,
    SPMV_AXTUH,
    SPMV_AXTCH1,
    SPMV_AXTCH,
    SPMV_AXT_VARIANT_COUNT_
} spmv_axt_variant;

static inline const char *spmv_axt_variant_name(spmv_axt_variant v) {
    static const char *const names[SPMV_AXT_VARIANT_COUNT_] = {"axc", "axtuh1", "axtuh", "axtch1", "axtch"};
    return (int)v >= 0 && v < SPMV_AXT_VARIANT_COUNT_ ? names[v] : "?";
}

typedef struct spmv_axt_params {
    spmv_isa isa; /* SPMV_ISA_AUTO: SPMV_ISA env, else the best the CPU has. With AUTO and a
                     thw that is not that ISA's width, the portable kernels are used. */
    int thw;      /* tile half width = vector lanes. 0: the ISA's width (portable: 8 d / 16 f).
                     Portable: 4, 8, 16 or 32; AVX2 / AVX-512: only their own width. */
    int th;       /* tile height. AXTUH: 1..65536, 0 = from the row lengths (1..16).
                     AXTCH: a power of two 1..65536, 0 = 64 (smaller if the rows need the bits).
                     Ignored (resolved to 1) by AXC, AXTUH1, AXTCH1. */
    int bs;       /* AXTCH1 block size: a power of two, a multiple of thw, at most 2^20.
                     0 = 512 (smaller if the rows need the bits). Ignored (0) by the others. */
} spmv_axt_params;

static inline spmv_axt_params spmv_axt_params_default(void) {
    spmv_axt_params p;
    p.isa = SPMV_ISA_AUTO;
    p.thw = 0;
    p.th = 0;
    p.bs = 0;
    return p;
}

/* the registry's rows: one params type (with its own defaults and keys) per variant */
typedef spmv_axt_params spmv_axc_params;
typedef spmv_axt_params spmv_axtuh1_params;
typedef spmv_axt_params spmv_axtuh_params;
typedef spmv_axt_params spmv_axtch1_params;
typedef spmv_axt_params spmv_axtch_params;
#define spmv_axc_params_default spmv_axt_params_default
#define spmv_axtuh1_params_default spmv_axt_params_default
#define spmv_axtuh_params_default spmv_axt_params_default
#define spmv_axtch1_params_default spmv_axt_params_default
#define spmv_axtch_params_default spmv_axt_params_default
#define SPMV__AXT_KEY_THW                                                                                      \
    {"thw", offsetof(spmv_axt_params, thw), SPMV_PK_POW2, 0, 32, NULL, "tile half width = vector lanes (0: the ISA's)"}, \
    {"w", offsetof(spmv_axt_params, thw), SPMV_PK_POW2, 0, 32, NULL, "same as thw"}
#define SPMV__AXT_KEY_END {NULL, 0, SPMV_PK_INT, 0, 0, NULL, NULL}
static const spmv_param_key spmv__axc_keys[] = {SPMV__AXT_KEY_THW, SPMV__AXT_KEY_END};
static const spmv_param_key spmv__axtuh1_keys[] = {SPMV__AXT_KEY_THW, SPMV__AXT_KEY_END};
static const spmv_param_key spmv__axtuh_keys[] = {
    SPMV__AXT_KEY_THW,
    {"th", offsetof(spmv_axt_params, th), SPMV_PK_INT, 0, 65536, NULL, "tile height (0: from the row lengths)"},
    SPMV__AXT_KEY_END};
static const spmv_param_key spmv__axtch1_keys[] = {
    SPMV__AXT_KEY_THW,
    {"bs", offsetof(spmv_axt_params, bs), SPMV_PK_POW2, 0, 1 << 20, NULL, "block size, a multiple of thw (0: 512)"},
    SPMV__AXT_KEY_END};
static const spmv_param_key spmv__axtch_keys[] = {
    SPMV__AXT_KEY_THW,
    {"th", offsetof(spmv_axt_params, th), SPMV_PK_POW2, 0, 65536, NULL, "tile height (0: 64)"},
    SPMV__AXT_KEY_END};
#undef SPMV__AXT_KEY_THW
#undef SPMV__AXT_KEY_END

/* log2(v) when v is a power of two >= 1, else -1 */
static inline int spmv__axt_log2(int64_t v) {
    int l = 0;
    if (v <= 0 || (v & (v - 1))) return -1;
    while (((int64_t)1 << l) < v) l++;
    return l;
}

static inline int spmv__axt_ctz(unsigned m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m & 1u)) { m >>= 1; i++; }
    return i;
#endif
}

#endif /* SPMV_AXT_COMMON */

/* head word: as wide as the index type */
#if SPMV_CAT(SPMV__ISZ_, SPMV_IDX) == 8
typedef uint64_t SPMV_NAME(axt_word);
#else
typedef uint32_t SPMV_NAME(axt_word);
#endif

typedef struct SPMV_NAME(axt) {
    SPMV_I nrows, ncols, nnz;
    spmv_axt_variant variant;
    spmv_axt_params params; /* resolved: isa never AUTO, thw the width, th (1 unless AXTUH/AXTCH),
                               bs (0 unless AXTCH1) */
    int lg;                 /* offset bits of a head word: log2 bs (AXTCH1), log2 th (AXTCH) */
    int64_t ngroups;        /* ax = ngroups groups of 2*thw values */
    int64_t nunits;         /* work units: bricks (AXC, AXTUH1), tiles (AXTUH, AXTCH), blocks (AXTCH1) */
    int64_t ncolumns;       /* AXTUH, AXTCH: tile columns holding data (the rest is padding) */
    SPMV_Y *ax;
    SPMV_I *xcol;                /* ngroups*thw: column of each value slot (padding: 0) */
    uint32_t *xmask;             /* ngroups: bit l set when lane l of the group holds an entry */
    SPMV_I *brp;                 /* AXC: nrows+1 offsets into ax, in values */
    SPMV_I *rwp;                 /* AXTUH1: row per tile; AXTUH: row per column (nunits*thw) */
    SPMV_NAME(axt_word) *hdr;    /* AXTCH1, AXTCH: ngroups*thw words */
} SPMV_NAME(axt);

typedef SPMV_NAME(axt) SPMV_NAME(axc);
typedef SPMV_NAME(axt) SPMV_NAME(axtuh1);
typedef SPMV_NAME(axt) SPMV_NAME(axtuh);
typedef SPMV_NAME(axt) SPMV_NAME(axtch1);
typedef SPMV_NAME(axt) SPMV_NAME(axtch);

#endif /* SPMV_PART_TYPES */

#if defined(SPMV_PART_DECLS)
SPMV_API void SPMV_NAME(axt_free)(SPMV_NAME(axt) *A);
SPMV_API int64_t SPMV_NAME(axt_stored)(const SPMV_NAME(axt) *A);
SPMV_API size_t SPMV_NAME(axt_kernel_bytes)(const SPMV_NAME(axt) *A);
SPMV_API size_t SPMV_NAME(axt_bytes)(const SPMV_NAME(axt) *A);
SPMV_API int64_t SPMV_NAME(axt_max_rows)(spmv_axt_variant v, int th, int bs);
SPMV_API spmv_status SPMV_NAME(axt_params_resolve)(const SPMV_NAME(csr) *B, spmv_axt_variant v,
        const spmv_axt_params *p, spmv_axt_params *out);
SPMV_API void SPMV_NAME(axt_params_str)(const SPMV_NAME(axt) *A, char *buf, size_t n);
SPMV_API spmv_status SPMV_NAME(axt_from_csr)(SPMV_NAME(axt) *A, const SPMV_NAME(csr) *B, spmv_axt_variant v,
        const spmv_axt_params *p, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(axt_to_csr)(const SPMV_NAME(axt) *A, SPMV_NAME(csr) *B);
SPMV_API spmv_status SPMV_NAME(axt_update_x)(SPMV_NAME(axt) *A, const SPMV_Y *x);
SPMV_API spmv_status SPMV_NAME(axt_mv_kernel)(const SPMV_NAME(axt) *A, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(axt_mv)(SPMV_NAME(axt) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta, SPMV_Y *y);
SPMV_API spmv_status SPMV_NAME(axt_tune)(const SPMV_NAME(csr) *B, spmv_axt_variant v, spmv_isa isa,
        spmv_axt_params *best, double *seconds_spent);
/* per-variant names: spmv_<tag>_<variant>_<verb>; the object's variant decides */
#define SPMV__AXT_ALIAS(vn, V)                                                                                   \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _from_csr))(SPMV_NAME(axt) * A, const SPMV_NAME(csr) * B,  \
                                                                 const spmv_axt_params *p, spmv_error *e) {    \
        return SPMV_NAME(axt_from_csr)(A, B, V, p, e);                                                         \
    }                                                                                                          \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _mv))(SPMV_NAME(axt) * A, SPMV_Y alpha, const SPMV_Y *x,  \
                                                           SPMV_Y beta, SPMV_Y *y) {                           \
        return SPMV_NAME(axt_mv)(A, alpha, x, beta, y);                                                        \
    }                                                                                                          \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _mv_kernel))(const SPMV_NAME(axt) * A, SPMV_Y alpha,      \
                                                                  SPMV_Y beta, SPMV_Y *y) {                    \
        return SPMV_NAME(axt_mv_kernel)(A, alpha, beta, y);                                                    \
    }                                                                                                          \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _update_x))(SPMV_NAME(axt) * A, const SPMV_Y *x) {        \
        return SPMV_NAME(axt_update_x)(A, x);                                                                  \
    }                                                                                                          \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _to_csr))(const SPMV_NAME(axt) * A, SPMV_NAME(csr) * B) { \
        return SPMV_NAME(axt_to_csr)(A, B);                                                                    \
    }                                                                                                          \
    static inline void SPMV_NAME(SPMV_CAT(vn, _free))(SPMV_NAME(axt) * A) { SPMV_NAME(axt_free)(A); }         \
    static inline size_t SPMV_NAME(SPMV_CAT(vn, _bytes))(const SPMV_NAME(axt) * A) {                           \
        return SPMV_NAME(axt_bytes)(A);                                                                        \
    }                                                                                                          \
    /* the registry's _tune: p in (isa), out (the fastest parameters) */                                       \
    static inline spmv_status SPMV_NAME(SPMV_CAT(vn, _tune))(const SPMV_NAME(csr) * B, spmv_axt_params * p,    \
                                                             double *seconds) {                                \
        if (!p) return SPMV_ERR_ARG;                                                                           \
        return SPMV_NAME(axt_tune)(B, V, p->isa, p, seconds);                                                  \
    }
SPMV__AXT_ALIAS(axc, SPMV_AXC)
SPMV__AXT_ALIAS(axtuh1, SPMV_AXTUH1)
SPMV__AXT_ALIAS(axtuh, SPMV_AXTUH)
SPMV__AXT_ALIAS(axtch1, SPMV_AXTCH1)
SPMV__AXT_ALIAS(axtch, SPMV_AXTCH)
#undef SPMV__AXT_ALIAS
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
SPMV_API void SPMV_NAME(axt_free)(SPMV_NAME(axt) *A) {
    if (!A) return;
    spmv__free(A->ax);
    spmv__free(A->xcol);
    spmv__free(A->xmask);
    spmv__free(A->brp);
    spmv__free(A->rwp);
    spmv__free(A->hdr);
    memset(A, 0, sizeof *A);
}

/* what _mv_kernel streams: ax and the header */
/* stored value slots (entries + padding or fill): the bench's fill = stored / nnz */
SPMV_API int64_t SPMV_NAME(axt_stored)(const SPMV_NAME(axt) *A) { return A->ngroups * A->params.thw; }
/* the value arrays (for _update_values' map, formats/any.h): up to 2, their lengths in slots */
/* (ax interleaves the x copies: their slots map to no entry) */
/* (a mixed tag's ax holds its values in the vectors' type: -1, new values rebuild the object) */
static inline int SPMV_NAME(axt__values)(SPMV_NAME(axt) *A, SPMV_T **v, int64_t *n) {
#if SPMV__MIXED
    (void)A, (void)v, (void)n;
    return -1;
#else
    v[0] = A->ax;
    n[0] = A->ngroups * 2 * (int64_t)A->params.thw;
    return 1;
#endif
}
SPMV_API size_t SPMV_NAME(axt_kernel_bytes)(const SPMV_NAME(axt) *A) {
    size_t slots = (size_t)A->ngroups * (size_t)A->params.thw, b = 2 * slots * sizeof(SPMV_Y);
    if (A->brp) b += ((size_t)A->nrows + 1) * sizeof(SPMV_I);
    if (A->rwp) b += (size_t)A->nunits * (A->variant == SPMV_AXTUH ? (size_t)A->params.thw : 1) * sizeof(SPMV_I);
    if (A->hdr) b += slots * sizeof(SPMV_NAME(axt_word));
    return b;
}

/* everything the object holds (adds the x-update map xcol, xmask) */
SPMV_API size_t SPMV_NAME(axt_bytes)(const SPMV_NAME(axt) *A) {
    return SPMV_NAME(axt_kernel_bytes)(A) + (size_t)A->ngroups * (size_t)A->params.thw * sizeof(SPMV_I) +
           (size_t)A->ngroups * sizeof(uint32_t);
}

/* Largest nrows the variant's head word can hold for this th / bs (AXC, AXTUH1, AXTUH:
 * no header limit, the index type's maximum). -1 for an invalid th / bs. */
SPMV_API int64_t SPMV_NAME(axt_max_rows)(spmv_axt_variant v, int th, int bs) {
    int lg, bits;
    if (v == SPMV_AXTCH1) lg = spmv__axt_log2(bs);
    else if (v == SPMV_AXTCH) lg = spmv__axt_log2(th);
    else return SPMV_IMAX;
    if (lg < 0) return -1;
    bits = 8 * (int)sizeof(SPMV_NAME(axt_word)) - lg; /* row + 1 must fit in `bits` bits */
    if (bits >= 63) return SPMV_IMAX;
    return ((int64_t)1 << bits) - 1;
}

/* columns sum ceil(n_r / th) */
static inline int64_t SPMV_NAME(axt__columns)(const SPMV_NAME(csr) *B, int64_t th) {
    int64_t c = 0;
    SPMV_I r;
    for (r = 0; r < B->nrows; r++) c += ((int64_t)(B->row_ptr[r + 1] - B->row_ptr[r]) + th - 1) / th;
    return c;
}

/* AXTUH default TH: a cost model in bytes-equivalent per row: the padded values (value +
 * x) streamed plus, per column, its rwp entry and one scattered y update (~16 bytes). */
static inline int SPMV_NAME(axt__auto_th)(const SPMV_NAME(csr) *B) {
    int th, best = 4;
    double bestc = -1;
    for (th = 1; th <= 16; th *= 2) {
        int64_t cols = SPMV_NAME(axt__columns)(B, th);
        double c = (double)cols * ((double)th * 2.0 * (double)sizeof(SPMV_Y) + (double)sizeof(SPMV_I) + 16.0);
        if (bestc < 0 || c < bestc) {
            bestc = c;
            best = th;
        }
    }
    return best;
}

/* The parameters axt_from_csr would use for B: ISA resolved, width, th, bs (automatic
 * choices made). SPMV_ERR_ARG for invalid values, SPMV_ERR_ISA, SPMV_ERR_LIMIT when the
 * head word cannot hold B's rows. */
SPMV_API spmv_status SPMV_NAME(axt_params_resolve)(const SPMV_NAME(csr) *B, spmv_axt_variant v,
                                                        const spmv_axt_params *p, spmv_axt_params *out) {
    spmv_axt_params q = p ? *p : spmv_axt_params_default();
    spmv_status st;
    int nw;
    if (!B || !out || (int)v < 0 || v >= SPMV_AXT_VARIANT_COUNT_) return SPMV_ERR_ARG;
    if (q.thw != 0 && q.thw != 4 && q.thw != 8 && q.thw != 16 && q.thw != 32) return SPMV_ERR_ARG;
    st = SPMV_ISA_FOR((spmv_format)(SPMV_FMT_AXC + (int)v), q.isa, &q.isa);
    if (st != SPMV_OK) return st;
    nw = q.isa == SPMV_ISA_GENERIC ? 0 : SPMV__NATIVE_W(q.isa); /* the portable kernels: any width */
    if (nw) { /* AVX backends have one width */
        if (q.thw == 0) q.thw = nw;
        else if (q.thw != nw) {
            if (p && p->isa != SPMV_ISA_AUTO) return SPMV_ERR_ARG;
            q.isa = SPMV_ISA_GENERIC;
        }
    }
    if (q.thw == 0) q.thw = sizeof(SPMV_Y) == 8 ? 8 : 16;
    switch (v) {
    case SPMV_AXC:
    case SPMV_AXTUH1:
        q.th = 1;
        q.bs = 0;
        break;
    case SPMV_AXTUH:
        if (q.th < 0 || q.th > 65536) return SPMV_ERR_ARG;
        if (q.th == 0) q.th = SPMV_NAME(axt__auto_th)(B);
        q.bs = 0;
        break;
    case SPMV_AXTCH1:
        q.th = 1;
        if (q.bs == 0) {
            q.bs = 512;
            while (q.bs > q.thw && (int64_t)B->nrows > SPMV_NAME(axt_max_rows)(v, 1, q.bs)) q.bs /= 2;
        }
        if (spmv__axt_log2(q.bs) < 0 || q.bs % q.thw || q.bs > (1 << 20)) return SPMV_ERR_ARG;
        if ((int64_t)B->nrows > SPMV_NAME(axt_max_rows)(v, 1, q.bs)) return SPMV_ERR_LIMIT;
        break;
    case SPMV_AXTCH:
        q.bs = 0;
        if (q.th == 0) {
            q.th = 64;
            while (q.th > 1 && (int64_t)B->nrows > SPMV_NAME(axt_max_rows)(v, q.th, 0)) q.th /= 2;
        }
        if (spmv__axt_log2(q.th) < 0 || q.th > 65536) return SPMV_ERR_ARG;
        if ((int64_t)B->nrows > SPMV_NAME(axt_max_rows)(v, q.th, 0)) return SPMV_ERR_LIMIT;
        break;
    default: return SPMV_ERR_ARG;
    }
    *out = q;
    return SPMV_OK;
}

/* "thw=8,th=4" style description of the parameters in use */
SPMV_API void SPMV_NAME(axt_params_str)(const SPMV_NAME(axt) *A, char *buf, size_t n) {
    if (!n) return;
    switch (A->variant) {
    case SPMV_AXTUH:
    case SPMV_AXTCH: snprintf(buf, n, "thw=%d,th=%d", A->params.thw, A->params.th); break;
    case SPMV_AXTCH1: snprintf(buf, n, "thw=%d,bs=%d", A->params.thw, A->params.bs); break;
    default: snprintf(buf, n, "thw=%d", A->params.thw); break;
    }
}

/* value slot of column c, step s (AXTUH, AXTCH), for w = 2^lw lanes */
static inline int64_t SPMV_NAME(axt__cslot)(int64_t c, int64_t s, int64_t th, int lw) {
    return (((c >> lw) * th + s) << lw) | (c & (((int64_t)1 << lw) - 1));
}
/* ax index of the value in slot `slot` (its x is at + w) */
static inline int64_t SPMV_NAME(axt__vpos)(int64_t slot, int lw) {
    return ((slot >> lw) << (lw + 1)) | (slot & (((int64_t)1 << lw) - 1));
}

/* CSR -> AXC/AXT. On failure A is left empty (zeroed) and nothing is leaked.
 * SPMV_ERR_ARG: bad B or parameters; SPMV_ERR_ISA; SPMV_ERR_LIMIT: rows do not fit the
 * head word; SPMV_ERR_OVERFLOW: ax offsets do not fit the index type (AXC's brp);
 * SPMV_ERR_ALLOC. */
static inline spmv_status SPMV_NAME(axt__build)(SPMV_NAME(axt) *A, const SPMV_NAME(csr) *B, spmv_axt_variant v,
                                                  const spmv_axt_params *p) {
    spmv_axt_params q;
    spmv_status st;
    int64_t w, th, ng = 0, nu = 0, ncolumns = 0, k, g, c;
    int lw;
    SPMV_I r, rlast = 0;
    const SPMV_I *rp;
    if (!A) return SPMV_ERR_ARG;
    memset(A, 0, sizeof *A);
    st = SPMV_NAME(csr_check)(B);
    if (st != SPMV_OK) return st;
    rp = B->row_ptr;
    st = SPMV_NAME(axt_params_resolve)(B, v, p, &q);
    if (st != SPMV_OK) return st;
    w = q.thw;
    lw = spmv__axt_log2(w);
    th = q.th;
    for (r = 0; r < B->nrows; r++)
        if (rp[r + 1] > rp[r]) rlast = r;
    /* sizes */
    switch (v) {
    case SPMV_AXC:
    case SPMV_AXTUH1: ng = nu = SPMV_NAME(axt__columns)(B, w); break;
    case SPMV_AXTUH:
        ncolumns = SPMV_NAME(axt__columns)(B, th);
        nu = (ncolumns + w - 1) / w;
        ng = nu * th;
        break;
    case SPMV_AXTCH1:
        nu = ((int64_t)B->nnz + q.bs - 1) / q.bs;
        ng = nu * (q.bs / w);
        break;
    case SPMV_AXTCH:
        ncolumns = ((int64_t)B->nnz + th - 1) / th;
        nu = (ncolumns + w - 1) / w;
        ng = nu * th;
        break;
    default: return SPMV_ERR_ARG;
    }
    if (ng > (int64_t)(SIZE_MAX / 4 / sizeof(SPMV_Y)) / w) return SPMV_ERR_OVERFLOW;
    if (v == SPMV_AXC && 2 * w * ng > SPMV_IMAX) return SPMV_ERR_OVERFLOW;
    A->ax = (SPMV_Y *)spmv__calloc((size_t)(2 * w * ng), sizeof(SPMV_Y));
    A->xcol = (SPMV_I *)spmv__calloc((size_t)(w * ng), sizeof(SPMV_I)); /* padding: column 0 */
    A->xmask = (uint32_t *)spmv__calloc((size_t)ng, sizeof(uint32_t));
    if (v == SPMV_AXC) A->brp = SPMV_ALLOC_N(SPMV_I, (size_t)B->nrows + 1);
    if (v == SPMV_AXTUH1) A->rwp = SPMV_ALLOC_N(SPMV_I, nu);
    if (v == SPMV_AXTUH) A->rwp = SPMV_ALLOC_N(SPMV_I, nu * w);
    if (v == SPMV_AXTCH1 || v == SPMV_AXTCH)
        A->hdr = (SPMV_NAME(axt_word) *)spmv__calloc((size_t)(w * ng), sizeof(SPMV_NAME(axt_word)));
    if (!A->ax || !A->xcol || !A->xmask || (v == SPMV_AXC && !A->brp) ||
        ((v == SPMV_AXTUH1 || v == SPMV_AXTUH) && !A->rwp) || ((v == SPMV_AXTCH1 || v == SPMV_AXTCH) && !A->hdr)) {
        SPMV_NAME(axt_free)(A);
        return SPMV_ERR_ALLOC;
    }
    /* place the values */
    switch (v) {
    case SPMV_AXC:
    case SPMV_AXTUH1: /* row r's j-th entry: brick g_r + j/W, lane j%W */
        for (r = 0, g = 0; r < B->nrows; r++) {
            int64_t n = rp[r + 1] - rp[r], nb = (n + w - 1) / w, j;
            if (v == SPMV_AXC) A->brp[r] = (SPMV_I)(g * 2 * w);
            else
                for (j = 0; j < nb; j++) A->rwp[g + j] = r;
            for (j = 0; j < n; j++) {
                int64_t slot = g * w + j;
                A->ax[SPMV_NAME(axt__vpos)(slot, lw)] = SPMV_TV(B->val[rp[r] + j]);
                A->xcol[slot] = B->col_idx[rp[r] + j];
                A->xmask[slot >> lw] |= (uint32_t)1 << (slot & (w - 1));
            }
            g += nb;
        }
        if (v == SPMV_AXC) A->brp[B->nrows] = (SPMV_I)(g * 2 * w);
        break;
    case SPMV_AXTUH: /* row r's j-th entry: column c_r + j/TH, step j%TH */
        for (r = 0, c = 0; r < B->nrows; r++) {
            int64_t j = rp[r], e = rp[r + 1];
            for (; j < e; c++) {
                int64_t s, slot = SPMV_NAME(axt__cslot)(c, 0, th, lw);
                A->rwp[c] = r;
                for (s = 0; s < th && j < e; s++, j++, slot += w) {
                    A->ax[SPMV_NAME(axt__vpos)(slot, lw)] = SPMV_TV(B->val[j]);
                    A->xcol[slot] = B->col_idx[j];
                    A->xmask[slot >> lw] |= (uint32_t)1 << (slot & (w - 1));
                }
            }
        }
        for (; c < nu * w; c++) A->rwp[c] = rlast;
        break;
    case SPMV_AXTCH1:
    case SPMV_AXTCH: {
        /* stream element k -> slot; segments cut at block (AXTCH1) or column (AXTCH) ends */
        int64_t cut = v == SPMV_AXTCH1 ? q.bs : th;
        int lg = spmv__axt_log2(cut);
        A->lg = lg;
        for (k = 0; k < B->nnz; k++) {
            int64_t slot = v == SPMV_AXTCH1 ? k : SPMV_NAME(axt__cslot)(k >> lg, k & (th - 1), th, lw);
            A->ax[SPMV_NAME(axt__vpos)(slot, lw)] = SPMV_TV(B->val[k]);
            A->xcol[slot] = B->col_idx[k];
            A->xmask[slot >> lw] |= (uint32_t)1 << (slot & (w - 1));
        }
        for (r = 0; r < B->nrows; r++) {
            int64_t a = rp[r], e = rp[r + 1];
            while (a < e) {
                int64_t b = ((a >> lg) + 1) << lg; /* end of the block / column holding a */
                int64_t slot = v == SPMV_AXTCH1 ? a : SPMV_NAME(axt__cslot)(a >> lg, a & (th - 1), th, lw);
                if (b > e) b = e;
                A->hdr[slot] = ((SPMV_NAME(axt_word))r + 1) << lg | (SPMV_NAME(axt_word))(b - 1 - a);
                a = b;
            }
        }
        break;
    }
    default: break;
    }
    A->nrows = B->nrows;
    A->ncols = B->ncols;
    A->nnz = B->nnz;
    A->variant = v;
    A->params = q;
    A->ngroups = ng;
    A->nunits = nu;
    A->ncolumns = ncolumns;
    return SPMV_OK;
}
SPMV_API spmv_status SPMV_NAME(axt_from_csr)(SPMV_NAME(axt) *A, const SPMV_NAME(csr) *B, spmv_axt_variant v,
        const spmv_axt_params *p, spmv_error *e) {
    return spmv__built(e, SPMV_NAME(axt__build)(A, B, v, p), "axt_from_csr", NULL);
}

/* AXC/AXT -> CSR, exactly the CSR it was built from (entries, order, explicit zeros).
 * B gets A's ISA and the default CSR kernel. */
SPMV_API spmv_status SPMV_NAME(axt_to_csr)(const SPMV_NAME(axt) *A, SPMV_NAME(csr) *B) {
    int64_t w, th, k, n = 0, c, s, t, l;
    int lw;
    SPMV_I r, cur = -1;
    if (!B) return SPMV_ERR_ARG;
    memset(B, 0, sizeof *B);
    if (!A) return SPMV_ERR_ARG;
    w = A->params.thw;
    th = A->params.th;
    lw = spmv__axt_log2(w);
    B->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)A->nrows + 1);
    B->col_idx = SPMV_ALLOC_N(SPMV_I, A->nnz);
    B->val = SPMV_ALLOC_N(SPMV_T, A->nnz);
    if (!B->row_ptr || !B->col_idx || !B->val) {
        SPMV_NAME(csr_free)(B);
        return SPMV_ERR_ALLOC;
    }
    memset(B->row_ptr, 0, ((size_t)A->nrows + 1) * sizeof(SPMV_I));
    /* emits slot `sl` of row `rr` when it is not padding; rows must not decrease */
#define SPMV__AXT_EMIT(rr, sl)                                                                                   \
    do {                                                                                                       \
        int64_t sl_ = (sl);                                                                                    \
        if ((A->xmask[sl_ >> lw] >> (sl_ & (w - 1))) & 1u) {                                                   \
            if (n >= A->nnz || (rr) < cur || (rr) < 0 || (rr) >= A->nrows) goto bad;                           \
            cur = (rr);                                                                                        \
            B->col_idx[n] = A->xcol[sl_];                                                                      \
            B->val[n] = SPMV_VT(A->ax[SPMV_NAME(axt__vpos)(sl_, lw)]);                                         \
            B->row_ptr[cur + 1]++;                                                                             \
            n++;                                                                                               \
        }                                                                                                      \
    } while (0)
    switch (A->variant) {
    case SPMV_AXC:
        for (r = 0; r < A->nrows; r++)
            for (k = A->brp[r] / 2; k < A->brp[r + 1] / 2; k++) SPMV__AXT_EMIT(r, k);
        break;
    case SPMV_AXTUH1:
        for (t = 0; t < A->nunits; t++)
            for (l = 0; l < w; l++) SPMV__AXT_EMIT(A->rwp[t], t * w + l);
        break;
    case SPMV_AXTUH:
        for (c = 0; c < A->ncolumns; c++) {
            int64_t sl = SPMV_NAME(axt__cslot)(c, 0, th, lw);
            for (s = 0; s < th; s++, sl += w) SPMV__AXT_EMIT(A->rwp[c], sl);
        }
        break;
    case SPMV_AXTCH1:
    case SPMV_AXTCH:
        for (k = 0, r = -1; k < A->nnz; k++) { /* r: the row of the last head */
            int64_t sl = A->variant == SPMV_AXTCH1 ? k : SPMV_NAME(axt__cslot)(k >> A->lg, k & (th - 1), th, lw);
            SPMV_NAME(axt_word) hw = A->hdr[sl];
            if (hw) r = (SPMV_I)((hw >> A->lg) - 1);
            SPMV__AXT_EMIT(r, sl);
        }
        break;
    default: goto bad;
    }
#undef SPMV__AXT_EMIT
    if (n != A->nnz) goto bad;
    for (r = 0; r < A->nrows; r++) B->row_ptr[r + 1] += B->row_ptr[r];
    B->nrows = A->nrows;
    B->ncols = A->ncols;
    B->nnz = A->nnz;
    B->params = spmv_csr_params_default();
    B->params.isa = A->params.isa;
    return SPMV_OK;
bad: /* not a valid object */
    SPMV_NAME(csr_free)(B);
    return SPMV_ERR_ARG;
}

/* ---- pieces of the kernels that do not depend on the ISA ---- */
static inline int SPMV_NAME(axt__threads)(const SPMV_NAME(axt) *A) {
    return A->nnz >= SPMV_PAR_MIN_NNZ ? spmv_max_threads() : 1;
}

/* Rows finished before work unit u (all of whose entries lie in units < u); 0 for
 * u = 0 (the first thread owns leading empty rows), nrows for u = nunits. */
static inline SPMV_I SPMV_NAME(axt__fin)(const SPMV_NAME(axt) *A, int64_t u) {
    const int64_t w = A->params.thw;
    if (u <= 0) return 0;
    if (u >= A->nunits) return A->nrows;
    switch (A->variant) {
    case SPMV_AXC: { /* the row holding brick u: first r with brp[r+1] > u*2W */
        int64_t off = u * 2 * w;
        SPMV_I lo = 0, hi = A->nrows - 1;
        while (lo < hi) {
            SPMV_I mid = lo + (hi - lo) / 2;
            if ((int64_t)A->brp[mid + 1] > off) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }
    case SPMV_AXTUH1: return A->rwp[u];
    case SPMV_AXTUH: return A->rwp[u * w];
    case SPMV_AXTCH1: return (SPMV_I)((A->hdr[u * A->params.bs] >> A->lg) - 1);
    case SPMV_AXTCH: return (SPMV_I)((A->hdr[u * A->params.th * w] >> A->lg) - 1);
    default: return 0;
    }
}

/* y[r0..r1) = beta*y (0 when beta == 0, without reading y) */
static inline void SPMV_NAME(axt__prep)(SPMV_Y *y, SPMV_I r0, SPMV_I r1, SPMV_Y beta) {
    SPMV_I r;
    if (beta == (SPMV_Y)0)
        for (r = r0; r < r1; r++) y[r] = 0;
    else if (beta != (SPMV_Y)1)
        for (r = r0; r < r1; r++) y[r] *= beta;
}
#endif /* SPMV_PART_DEFS */

#if defined(SPMV_PART_KERNELS)
/* lanes holding a segment head */
SPMV_KTARGET static inline unsigned SPMV_K(axt__hmask)(const SPMV_NAME(axt_word) *h) {
    unsigned m = 0;
    int l;
    for (l = 0; l < SPMV_W; l++) m |= (unsigned)(h[l] != 0) << l;
    return m;
}

/* ax's x halves of groups [g0, g1) = x[xcol]. Padding slots point at column 0 (their
 * value is 0): a plain gather when x[0] is finite (0*x[0] adds nothing), else the
 * padding is zeroed with the group's lane mask (0*Inf would be NaN). */
SPMV_KTARGET static inline void SPMV_K(axt__upd)(const SPMV_NAME(axt) *A, const SPMV_Y *x, int64_t g0, int64_t g1) {
    const SPMV_I *c = A->xcol + g0 * SPMV_W;
    SPMV_Y *p = A->ax + g0 * 2 * SPMV_W + SPMV_W;
    int64_t g;
    if (SPMV__ISFIN(x[0])) {
        for (g = g0; g < g1; g++, c += SPMV_W, p += 2 * SPMV_W) V_storeu(p, V_gather(x, c));
    } else {
        for (g = g0; g < g1; g++, c += SPMV_W, p += 2 * SPMV_W)
            V_storeu(p, V_blend(A->xmask[g], V_zero(), V_gather(x, c)));
    }
}

SPMV_KTARGET static inline void SPMV_K(axt__update_x)(const SPMV_NAME(axt) *A, const SPMV_Y *x) {
    int nt = SPMV_NAME(axt__threads)(A);
    (void)nt; /* unused without OpenMP */
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        int tid = spmv__tid(), n = spmv__nthr();
        SPMV_K(axt__upd)(A, x, A->ngroups * tid / n, A->ngroups * (tid + 1) / n);
    }
}

/* acc + the products of n whole groups starting at p (two accumulators) */
SPMV_KTARGET static inline spmv_v SPMV_K(axt__groups)(const SPMV_Y *p, int64_t n, spmv_v acc) {
    spmv_v a1 = V_zero();
    int64_t i = 0;
    for (; i + 1 < n; i += 2, p += 4 * SPMV_W) {
        acc = V_fma(V_loadu(p), V_loadu(p + SPMV_W), acc);
        a1 = V_fma(V_loadu(p + 2 * SPMV_W), V_loadu(p + 3 * SPMV_W), a1);
    }
    if (i < n) acc = V_fma(V_loadu(p), V_loadu(p + SPMV_W), acc);
    return V_add(acc, a1);
}

/* products of stream elements k0..k1 (inclusive) of a compacted (row-major) stream.
 * Lanes of other rows are masked after the multiplication, so their Inf/NaN stay out. */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axt__range)(const SPMV_Y *ax, int64_t k0, int64_t k1) {
    const int64_t g0 = k0 / SPMV_W, g1 = k1 / SPMV_W;
    const unsigned lo = ~V_mask_first((int)(k0 % SPMV_W)), hi = V_mask_first((int)(k1 % SPMV_W) + 1);
    const SPMV_Y *p = ax + g0 * 2 * SPMV_W;
    spmv_v a;
    if (g0 == g1) return V_hsum(V_blend(lo & hi, V_zero(), V_mul(V_loadu(p), V_loadu(p + SPMV_W))));
    a = V_blend(lo, V_zero(), V_mul(V_loadu(p), V_loadu(p + SPMV_W)));
    p += 2 * SPMV_W;
    a = SPMV_K(axt__groups)(p, g1 - g0 - 1, a);
    p += (g1 - g0 - 1) * 2 * SPMV_W;
    a = V_add(a, V_blend(hi, V_zero(), V_mul(V_loadu(p), V_loadu(p + SPMV_W))));
    return V_hsum(a);
}

/* Each *_part runs work units [u0, u1) for one thread that owns rows [f0, f1) and
 * returns the (alpha-scaled) partial sum of row f1, which continues past its range. */

/* AXC: rows finishing in the range are written directly (no y preparation needed) */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axc__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                    SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    const int64_t G = 2 * SPMV_W;
    SPMV_I r;
    int64_t b;
    for (r = f0; r < f1; r++) {
        SPMV_Y s;
        b = A->brp[r] / G;
        if (b < u0) b = u0;
        s = V_hsum(SPMV_K(axt__groups)(A->ax + b * G, A->brp[r + 1] / G - b, V_zero()));
        y[r] = beta == (SPMV_Y)0 ? alpha * s : alpha * s + beta * y[r];
    }
    if (f1 >= A->nrows) return 0;
    b = A->brp[f1] / G;
    if (b < u0) b = u0;
    return b < u1 ? alpha * V_hsum(SPMV_K(axt__groups)(A->ax + b * G, u1 - b, V_zero())) : (SPMV_Y)0;
}

/* AXTUH1: one horizontal sum per tile, added to its row */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axtuh1__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                       SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    const SPMV_Y *p = A->ax + u0 * 2 * SPMV_W;
    const SPMV_I *rw = A->rwp;
    SPMV_Y carry = 0;
    int64_t t;
    SPMV_NAME(axt__prep)(y, f0, f1, beta);
    for (t = u0; t < u1; t++, p += 2 * SPMV_W) {
        SPMV_Y s = V_hsum(V_mul(V_loadu(p), V_loadu(p + SPMV_W)));
        SPMV_I r = rw[t];
        SPMV_Y *d = r < f1 ? y + r : &carry;
        *d += alpha * s;
    }
    return carry;
}

/* AXTUH: TH FMAs down the W columns of a tile, then each column's sum to its row */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axtuh__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                      SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    const int64_t th = A->params.th, G = 2 * SPMV_W;
    const spmv_v va = V_set1(alpha);
    SPMV_Y carry = 0, tmp[SPMV_W];
    int64_t t;
    SPMV_NAME(axt__prep)(y, f0, f1, beta);
    for (t = u0; t < u1; t++) {
        const SPMV_Y *p = A->ax + t * th * G;
        const SPMV_I *rw = A->rwp + t * SPMV_W;
        int64_t nl = A->ncolumns - t * SPMV_W, s;
        int l;
        spmv_v a0 = V_zero(), a1 = V_zero();
        for (s = 0; s + 1 < th; s += 2, p += 2 * G) {
            a0 = V_fma(V_loadu(p), V_loadu(p + SPMV_W), a0);
            a1 = V_fma(V_loadu(p + G), V_loadu(p + G + SPMV_W), a1);
        }
        if (s < th) a0 = V_fma(V_loadu(p), V_loadu(p + SPMV_W), a0);
        V_storeu(tmp, V_mul(V_add(a0, a1), va));
        if (nl >= SPMV_W) {
            for (l = 0; l < SPMV_W; l++) {
                SPMV_I r = rw[l];
                SPMV_Y *d = r < f1 ? y + r : &carry;
                *d += tmp[l];
            }
        } else { /* the last tile: columns past ncolumns are padding */
            for (l = 0; l < (int)nl; l++) {
                SPMV_I r = rw[l];
                SPMV_Y *d = r < f1 ? y + r : &carry;
                *d += tmp[l];
            }
        }
    }
    return carry;
}

/* AXTCH1: walk the segments of each block by their head words' offsets */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axtch1__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                       SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    const int64_t bs = A->params.bs;
    const int lg = A->lg;
    const SPMV_NAME(axt_word) om = (SPMV_NAME(axt_word))(bs - 1);
    const SPMV_NAME(axt_word) *hdr = A->hdr;
    SPMV_Y carry = 0;
    int64_t b;
    SPMV_NAME(axt__prep)(y, f0, f1, beta);
    for (b = u0; b < u1; b++) {
        int64_t k = b * bs, end = k + bs;
        while (k < end) {
            SPMV_NAME(axt_word) hw = hdr[k];
            int64_t e;
            SPMV_I r;
            SPMV_Y *d;
            if (!hw) break; /* padding after the last segment */
            r = (SPMV_I)((hw >> lg) - 1);
            e = k + (int64_t)(hw & om);
            d = r < f1 ? y + r : &carry;
            *d += alpha * SPMV_K(axt__range)(A->ax, k, e);
            k = e + 1;
        }
    }
    return carry;
}

/* AXTCH: accumulate down the columns; where a lane meets a head, its finished
 * segment goes to its row and the lane restarts */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axtch__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                      SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    const int64_t th = A->params.th, G = 2 * SPMV_W;
    const int lg = A->lg;
    const spmv_v va = V_set1(alpha);
    SPMV_Y carry = 0, tmp[SPMV_W];
    SPMV_I lrow[SPMV_W];
    int64_t t;
    SPMV_NAME(axt__prep)(y, f0, f1, beta);
    for (t = u0; t < u1; t++) {
        const SPMV_Y *p = A->ax + t * th * G;
        const SPMV_NAME(axt_word) *h = A->hdr + t * th * SPMV_W;
        int64_t nl = A->ncolumns - t * SPMV_W, s;
        int l;
        spmv_v a;
        if (nl > SPMV_W) nl = SPMV_W;
        for (l = 0; l < SPMV_W; l++) lrow[l] = (SPMV_I)((h[l] >> lg) - 1); /* column tops: heads */
        a = V_mul(V_loadu(p), V_loadu(p + SPMV_W));
        for (s = 1; s < th; s++) {
            unsigned m;
            p += G;
            h += SPMV_W;
            m = SPMV_K(axt__hmask)(h);
            if (m) {
                V_storeu(tmp, V_mul(a, va));
                a = V_blend(m, a, V_zero());
                do {
                    SPMV_I r;
                    SPMV_Y *d;
                    l = spmv__axt_ctz(m);
                    m &= m - 1;
                    r = lrow[l];
                    d = r < f1 ? y + r : &carry;
                    *d += tmp[l];
                    lrow[l] = (SPMV_I)((h[l] >> lg) - 1);
                } while (m);
            }
            a = V_fma(V_loadu(p), V_loadu(p + SPMV_W), a);
        }
        V_storeu(tmp, V_mul(a, va));
        for (l = 0; l < (int)nl; l++) {
            SPMV_I r = lrow[l];
            SPMV_Y *d = r < f1 ? y + r : &carry;
            *d += tmp[l];
        }
    }
    return carry;
}

/* units [u0, u1) owning rows [f0, f1): the variant's part; returns the carry */
SPMV_KTARGET static inline SPMV_Y SPMV_K(axt__part)(const SPMV_NAME(axt) *A, int64_t u0, int64_t u1, SPMV_I f0,
                                                    SPMV_I f1, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    switch (A->variant) {
    case SPMV_AXC: return SPMV_K(axc__part)(A, u0, u1, f0, f1, alpha, beta, y);
    case SPMV_AXTUH1: return SPMV_K(axtuh1__part)(A, u0, u1, f0, f1, alpha, beta, y);
    case SPMV_AXTUH: return SPMV_K(axtuh__part)(A, u0, u1, f0, f1, alpha, beta, y);
    case SPMV_AXTCH1: return SPMV_K(axtch1__part)(A, u0, u1, f0, f1, alpha, beta, y);
    case SPMV_AXTCH: return SPMV_K(axtch__part)(A, u0, u1, f0, f1, alpha, beta, y);
    default: return 0;
    }
}

#ifndef SPMV_AXT_CHUNK_BYTES
#define SPMV_AXT_CHUNK_BYTES (256 * 1024) /* of ax per x-update + kernel step in _mv */
#endif

/* y = alpha*A*x + beta*y. x NULL: the x already in ax (kernel only). Otherwise x is
 * scattered into ax on the fly: each thread updates a chunk of its own range (about
 * SPMV_AXT_CHUNK_BYTES of ax) and runs the kernel on it while it is in cache, so one
 * parallel region, no barrier. Units are split evenly over threads; each thread's
 * carry (the row running past its range) is added after the region. Chunks inside a
 * thread chain their carries the same way. */
SPMV_KTARGET static inline void SPMV_K(axt__mv)(const SPMV_NAME(axt) *A, const SPMV_Y *x, SPMV_Y alpha, SPMV_Y beta,
                                                SPMV_Y *y) {
    enum { MAXT = 1024 };
    SPMV_I crow[MAXT];
    SPMV_Y cval[MAXT];
    int nt = SPMV_NAME(axt__threads)(A), t;
    const int64_t gpu = A->ngroups / (A->nunits > 0 ? A->nunits : 1); /* groups per unit */
    int64_t cu = (int64_t)SPMV_AXT_CHUNK_BYTES / (int64_t)(2 * SPMV_W * sizeof(SPMV_Y)) / (gpu > 0 ? gpu : 1);
    if (A->nunits == 0) {
        SPMV_NAME(axt__prep)(y, 0, A->nrows, beta);
        return;
    }
    if (cu < 1) cu = 1;
    if (!x) cu = A->nunits; /* nothing to keep in cache: one step */
    if (nt > MAXT) nt = MAXT;
SPMV_OMP(parallel num_threads(nt) if (nt > 1))
    {
        int tid = spmv__tid(), n = spmv__nthr();
        int64_t u0 = A->nunits * tid / n, u1 = A->nunits * (tid + 1) / n, a, b;
        SPMV_I f1 = SPMV_NAME(axt__fin)(A, u1), fa = SPMV_NAME(axt__fin)(A, u0), fb;
        SPMV_Y pend = 0; /* partial sum of row fa from earlier chunks */
        for (a = u0; a < u1; a = b, fa = fb) {
            SPMV_Y c;
            b = a + cu < u1 ? a + cu : u1;
            fb = b == u1 ? f1 : SPMV_NAME(axt__fin)(A, b);
            if (x) SPMV_K(axt__upd)(A, x, a * gpu, b * gpu);
            c = SPMV_K(axt__part)(A, a, b, fa, fb, alpha, beta, y);
            if (fa < fb) { /* row fa was set (and finished) by this chunk */
                if (a > u0) y[fa] += pend;
                pend = c;
            } else {
                pend += c;
            }
        }
        crow[tid] = u0 < u1 ? f1 : A->nrows;
        cval[tid] = pend;
SPMV_OMP(single)
        nt = n;
    }
    for (t = 0; t < nt; t++)
        if (crow[t] < A->nrows) y[crow[t]] += cval[t];
}
#endif /* SPMV_PART_KERNELS */

#if defined(SPMV_PART_API)
#define SPMV__AXT_CALL(st, A, fn, args) SPMV_DISPATCH(st, (A)->params.isa, (A)->params.thw, SPMV_NAME(fn), args)

/* Scatters x into ax (x[ncols]; may be NULL when A has no entries). */
SPMV_API spmv_status SPMV_NAME(axt_update_x)(SPMV_NAME(axt) *A, const SPMV_Y *x) {
    spmv_status st;
    if (!A || (A->nnz > 0 && !x)) return SPMV_ERR_ARG;
    if (A->ngroups == 0) return SPMV_OK;
    SPMV__AXT_CALL(st, A, axt__update_x, (A, x));
    return st;
}

/* y = alpha*A*x + beta*y for the x last scattered into A (kernel only). */
SPMV_API spmv_status SPMV_NAME(axt_mv_kernel)(const SPMV_NAME(axt) *A, SPMV_Y alpha, SPMV_Y beta, SPMV_Y *y) {
    spmv_status st;
    if (!A || (A->nrows > 0 && !y)) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    SPMV__AXT_CALL(st, A, axt__mv, (A, (const SPMV_Y *)NULL, alpha, beta, y));
    return st;
}

/* y = alpha*A*x + beta*y for this x: scatters x into ax (chunk by chunk, fused with
 * the kernel), so any x is right, also one modified in place since the last call. */
SPMV_API spmv_status SPMV_NAME(axt_mv)(SPMV_NAME(axt) *A, SPMV_Y alpha, const SPMV_Y *x, SPMV_Y beta,
                                            SPMV_Y *y) {
    spmv_status st;
    if (!A || spmv__mv_args_bad(A->nrows, A->ncols, A->nnz, x, y, sizeof(SPMV_Y))) return SPMV_ERR_ARG;
    if (A->nrows == 0) return SPMV_OK;
    if (A->ngroups == 0) x = NULL;
    SPMV__AXT_CALL(st, A, axt__mv, (A, x, alpha, beta, y));
    return st;
}

#undef SPMV__AXT_CALL

/* one kernel-only product of the tuner's candidate (spmv__median_seconds' callback) */
typedef struct SPMV_NAME(axt__tune_ctx) {
    const SPMV_NAME(axt) * A;
    SPMV_Y *y;
} SPMV_NAME(axt__tune_ctx);
static inline void SPMV_NAME(axt__tune_run)(void *c) {
    SPMV_NAME(axt__tune_ctx) *t = (SPMV_NAME(axt__tune_ctx) *)c;
    SPMV_NAME(axt_mv_kernel)(t->A, 1, 0, t->y);
}

/* Times candidate parameters for variant v on B with real products (kernel only, x
 * already scattered: median of 5 samples) and returns the fastest in *best; AXC and
 * AXTUH1 have nothing to tune (defaults). TH in {1..128} (AXTUH; candidates whose
 * padding exceeds 3x nnz are skipped), {2..128} (AXTCH); BS in {thw..1024} (AXTCH1),
 * powers of two, as far as the head word allows. *seconds_spent (may be NULL): the
 * time taken. Uses all threads, like the products it measures. */
SPMV_API spmv_status SPMV_NAME(axt_tune)(const SPMV_NAME(csr) *B, spmv_axt_variant v, spmv_isa isa,
                                              spmv_axt_params *best, double *seconds_spent) {
    const double t_start = spmv_wtime();
    spmv_axt_params base = spmv_axt_params_default(), cand[16];
    int nc = 0, i, found = 0;
    double best_t = 0;
    SPMV_Y *x = NULL, *y = NULL;
    spmv_status st;
    SPMV_I j;
    if (seconds_spent) *seconds_spent = 0;
    if (!B || !best) return SPMV_ERR_ARG;
    base.isa = isa;
    st = SPMV_NAME(axt_params_resolve)(B, v, &base, &base);
    if (st != SPMV_OK) return st;
    base.isa = isa == SPMV_ISA_AUTO ? base.isa : isa;
    if (v == SPMV_AXTUH) {
        int th;
        for (th = 1; th <= 128; th *= 2) /* skip layouts that are mostly padding */
            if (th == 1 || SPMV_NAME(axt__columns)(B, th) * th <= 4 * (int64_t)B->nnz + 64) {
                cand[nc] = base;
                cand[nc++].th = th;
            }
    } else if (v == SPMV_AXTCH) {
        int th;
        for (th = 2; th <= 128; th *= 2)
            if ((int64_t)B->nrows <= SPMV_NAME(axt_max_rows)(v, th, 0)) {
                cand[nc] = base;
                cand[nc++].th = th;
            }
    } else if (v == SPMV_AXTCH1) {
        int bs;
        for (bs = base.thw; bs <= 1024; bs *= 2)
            if ((int64_t)B->nrows <= SPMV_NAME(axt_max_rows)(v, 1, bs)) {
                cand[nc] = base;
                cand[nc++].bs = bs;
            }
    }
    if (nc == 0) { /* nothing to choose (or nothing fits: keep the automatic choice) */
        *best = base;
        if (seconds_spent) *seconds_spent = spmv_wtime() - t_start;
        return SPMV_OK;
    }
    x = SPMV_ALLOC_N(SPMV_Y, (size_t)B->ncols + 1);
    y = SPMV_ALLOC_N(SPMV_Y, (size_t)B->nrows + 1);
    if (!x || !y) {
        spmv__free(x);
        spmv__free(y);
        return SPMV_ERR_ALLOC;
    }
    for (j = 0; j < B->ncols; j++) x[j] = (SPMV_Y)1 + (SPMV_Y)(j % 7) / (SPMV_Y)8;
    for (i = 0; i < nc; i++) {
        SPMV_NAME(axt) A;
        double med;
        if (SPMV_NAME(axt_from_csr)(&A, B, v, &cand[i], NULL) != SPMV_OK) continue;
        SPMV_NAME(axt_update_x)(&A, x);
        {
            SPMV_NAME(axt__tune_ctx) tc;
            tc.A = &A, tc.y = y;
            med = spmv__median_seconds(SPMV_NAME(axt__tune_run), &tc, 2e-3); /* samples of ~2 ms */
        }
        if (!found || med < best_t) {
            found = 1;
            best_t = med;
            *best = A.params;
        }
        SPMV_NAME(axt_free)(&A);
    }
    spmv__free(x);
    spmv__free(y);
    if (seconds_spent) *seconds_spent = spmv_wtime() - t_start;
    return found ? SPMV_OK : SPMV_ERR_LIMIT;
}

#endif /* SPMV_PART_API */

#if defined(SPMV_PART_RULES) && !defined(SPMV_AXT_RULES)
#define SPMV_AXT_RULES
/* What the selection knows about the AXT rows (formats/core/rules.h). With x fixed
 * (opts.x_changes = 0) the layouts read x with the matrix; when x changes, its copy is paid
 * per product and only axtuh, in one corner (CSR + x + y within L2, mean row <= 12, >= 10k
 * entries), beat CSR (1.07-1.75x on 9 of the 21 such real matrices, none outside it): the
 * trial, which pays the copy, decides. Device, x fixed: skewed small matrices 1.05-1.08x
 * median, balanced 0.17-0.61x. */
/* A tag whose vectors are wider than its values (ds, h, b) keeps ax in the vectors' type: the
 * stream per entry grows by vector_bytes / value_bytes over the same layout in the values' type,
 * and the prediction shrinks by as much. */
static inline double spmv_axt__widened(const spmv_auto_features *F) {
    return F->vector_bytes > F->value_bytes ? (double)F->value_bytes / (double)F->vector_bytes : 1.0;
}
static inline double spmv_axt__rule_host(const spmv_auto_features *F, const spmv_opts *o, const char **why) {
    (void)o;
    if (spmv_axt__widened(F) < 1.0)
        return *why = "x fixed, but ax holds the values in the vectors' type", spmv_axt__widened(F);
    return *why = "x fixed: the AXT layouts read x with the matrix", 1.0;
}
static inline double spmv_axt__rule_dev(const spmv_auto_features *F, const char **why) {
    return *why = "x fixed: the AXT layouts read x with the matrix", (spmv_rule_skewed(F) ? 1.05 : 0.5) * spmv_axt__widened(F);
}
static inline double spmv_axtuh__x_copied(const spmv_auto_features *F, const char **why) {
    if (spmv_rule_l2(F) && F->row_mean <= 12 && F->nnz >= 10000)
        return *why = "small, short rows: the embedded x reads in order (its copy paid per product)",
               (F->row_cv >= 1 ? 1.15 : 1.05) * spmv_axt__widened(F);
    return *why = SPMV_RULE_EMBEDS_X, 0.0;
}
static const spmv_format_rules spmv_rules_axc = {23, 30, spmv_axt__rule_host, spmv_axt__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_axtuh1 = {24, 20, spmv_axt__rule_host, spmv_axt__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_axtuh = {31, 18, spmv_axt__rule_host, spmv_axt__rule_dev,
                                                   spmv_axtuh__x_copied, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_axtch1 = {20, 13, spmv_axt__rule_host, spmv_axt__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
static const spmv_format_rules spmv_rules_axtch = {24, 15, spmv_axt__rule_host, spmv_axt__rule_dev, NULL, NULL, NULL, SPMV_CALIB_ROWS, 0};
#endif /* SPMV_PART_RULES */
