/* spmv deterministic matrix generators and matrix statistics (non-generic part).
 *
 *   spmv_status spmv_gen(const char *spec, spmv_triplets *out, spmv_error *err);
 *       spec = "KIND" or "KIND:key=val,key=val,..." (a leading "gen:" is ignored). Keys are
 *       optional; integer values accept a k/m/g suffix (x1e3, x1e6, x1e9). Output is 0-based
 *       triplets, deterministic for a given spec (same seed -> same matrix on every platform:
 *       the generator is splitmix64, no rand()). Some kinds may emit duplicate coordinates
 *       (random, rmat, lp, circuit); the typed converters sum them.
 *       Unknown kind/key or a bad value -> SPMV_ERR_ARG; a size that overflows int64 ->
 *       SPMV_ERR_OVERFLOW; more than SPMV_GEN_MAX_NNZ entries -> SPMV_ERR_LIMIT.
 *
 *   spmv_status spmv_load(const char *spec, spmv_triplets *out, spmv_error *err);
 *       what the tools and tests take as MATRIX: "gen:KIND..." -> spmv_gen, anything else is
 *       a Matrix Market path -> spmv_mm_read (err as those set it).
 *
 *   Kinds (defaults in brackets):
 *     stencil2d  n                       5-point Laplacian on an n x n grid            [n=100]
 *     stencil3d  n,pts                   7- or 27-point stencil on an n^3 grid         [n=20,pts=7]
 *                (stencil values: diagonal = number of in-grid neighbours, off-diagonal -1)
 *     fem        n,bs,deg,dim,sym,seed   n block rows of dense bs x bs blocks, deg blocks per
 *                                        block row (incl. diagonal) chosen among near
 *                                        neighbours: dim=1 banded window, dim=3 3-D grid;
 *                                        sym=1: symmetric, (deg-1)/2 earlier blocks per block
 *                                        row placed with their transposes (about deg blocks
 *                                        per block row on average)   [n=1000,bs=3,deg=8,dim=1,sym=0]
 *     band       n,bw,seed               full band of half bandwidth bw  [n=1000000,bw=5]
 *     random     rows,cols,nnzr,seed     nnzr uniformly random columns per row
 *                                        [rows=10000,cols=rows,nnzr=10]
 *     rmat       scale,ef,a,b,c,seed     R-MAT power-law graph, 2^scale vertices, ef*2^scale
 *                                        edges, values in (0,1]   [scale=14,ef=8,a=.57,b=.19,c=.19]
 *     circuit    n,dense,seed            ~3-6 per row near the diagonal plus some random, and
 *                                        `dense` near-dense rows AND columns (~3n/4 entries
 *                                        each)                     [n=1000000,dense=2]
 *     lp         rows,cols,nnzr,seed     wide LP-like rectangle, heavy-tailed row lengths of
 *                                        mean ~nnzr; if rows is given without cols, cols=4*rows
 *                                        [rows=50000,cols=1000000,nnzr=100]
 *     dense      rows,cols,seed          fully dense                    [rows=1000,cols=rows]
 *     onerow     n,len,row,seed          n x n with a single non-empty row `row` holding len
 *                                        evenly spread entries      [n=100000,len=n,row=n/2]
 *     tile       k,kron,file             a Matrix Market file k times, values and locality kept:
 *                                        block-diagonal, or (kron=1) the Kronecker product with
 *                                        the k x k tridiagonal of ones (~3k times the entries);
 *                                        file=PATH is the last key (the rest of the spec)
 *                                        [k=8,kron=0]: gen:tile:k=16,file=bcsstk16.mtx.gz
 *     seed defaults to 1 everywhere.
 *   Presets (usable as the kind, keys of the underlying kind may override):
 *     fem3d      fem n=21000,bs=3,deg=21,dim=3     63000 rows, 3837510 nnz
 *     fem3d6     fem n=12000,bs=6,deg=21,dim=3     72000 rows, ~9.1M nnz (6x6 blocks)
 *     fem3dsym   fem3d with sym=1 (symmetric)      63000 rows, ~3.6M nnz
 *     stencil27  stencil3d n=60,pts=27             216000 rows, 5639752 nnz
 *     stencil7   stencil3d n=100,pts=7             1000000 rows, 6940000 nnz (= pde100)
 *     pde60/pde80/pde100  stencil3d pts=7 with n=60/80/100
 *     webgraph   rmat scale=20,ef=4                1048576 rows, 4194304 entries (4.13M distinct),
 *                                                  longest row ~17k, two thirds of the rows empty
 *     circuit5m  circuit n=1000000,dense=2         (same as plain `circuit`)
 *     band       n=1000000,bw=5 (the kind's defaults), 10999970 nnz
 *     lp         50000 x 1000000, ~4.94M nnz, rows 50..12k (the kind's defaults)
 *     circuit    1000000 rows, ~8.0M nnz, 2 rows and 2 columns with ~750k entries (defaults)
 *     dense2k    dense 2000 x 2000, 4000000 nnz
 *     stencil27big, fem3dbig, webgraphbig: the same kinds at 300 MB or more in CSR (10x a 32 MB
 *                last-level cache): stencil3d n=100,pts=27; fem n=150000 (3-D, 3x3 blocks);
 *                rmat scale=22,ef=7; fem3dsymbig: fem3dbig with sym=1
 *
 *   Listing for a CLI:
 *     int spmv_gen_count(void);                     number of kinds + presets
 *     const spmv_gen_entry *spmv_gen_entry_at(int i); name, base kind, defaults, description
 *     spmv_status spmv_gen_list(char *buf, size_t n); one line per entry ("name  description
 *         [defaults]\n"), NUL-terminated; SPMV_ERR_LIMIT if it had to be truncated.
 *
 *   PRNG used by the generators (public, handy for tests and benchmarks):
 *     spmv_rng_init(&r, seed, stream), spmv_rng_next (u64), spmv_rng_u01 [0,1),
 *     spmv_rng_val (0,1], spmv_rng_below(&r, n) [0,n).
 *
 *   spmv_status spmv_triplets_stats(const spmv_triplets *t, spmv_stats *s);
 *       Shape and structure statistics for `spmv info` (see spmv_stats). Counts are of the
 *       stored entries (duplicates counted as stored). O(nnz + rows + cols) per block size
 *       with per-row arrays when the dimensions are at most 4 nnz + 2^20; beyond that (a
 *       2^40 x 2^40 matrix with three entries) O(nnz log nnz) time by sorting and O(nnz)
 *       memory, so memory never follows the declared dimensions.
 *   Generator specs are parsed the same way whatever the C locale ("a=0.5"). */
#ifndef SPMV_GEN_H
#define SPMV_GEN_H

#include "../core/core.h"
#include "mm.h" /* spmv_load reads Matrix Market files; locale-free number parsing */
#include <stdio.h>
#include <stdarg.h>

#ifndef SPMV_GEN_MAX_NNZ
#define SPMV_GEN_MAX_NNZ ((int64_t)1 << 36)
#endif

/* ---- PRNG: splitmix64 ------------------------------------------------------- */
typedef struct spmv_rng {
    uint64_t s;
} spmv_rng;

static inline void spmv_rng_init(spmv_rng *r, uint64_t seed, uint64_t stream) {
    r->s = seed * 0x9E3779B97F4A7C15ull + (stream + 1u) * 0xD1B54A32D192ED03ull;
}
static inline uint64_t spmv_rng_next(spmv_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* uniform in [0,1) */
static inline double spmv_rng_u01(spmv_rng *r) {
    return (double)(spmv_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
/* uniform in (0,1] */
static inline double spmv_rng_val(spmv_rng *r) {
    return (double)((spmv_rng_next(r) >> 11) + 1u) * (1.0 / 9007199254740992.0);
}
/* uniform integer in [0, n), n > 0 */
static inline int64_t spmv_rng_below(spmv_rng *r, int64_t n) {
    return (int64_t)(spmv_rng_next(r) % (uint64_t)n);
}

/* ---- errors ---------------------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static inline spmv_status spmv__gen_err(spmv_error *err, spmv_status st, const char *fmt, ...) {
    if (err) {
        va_list ap;
        err->line = 0;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* a*b for a,b >= 0; 0 on overflow */
static inline int spmv__gen_mul(int64_t a, int64_t b, int64_t *r) {
    if (a < 0 || b < 0) return 0;
    if (a != 0 && b > INT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}
static inline int spmv__gen_add(int64_t a, int64_t b, int64_t *r) {
    if (a < 0 || b < 0 || a > INT64_MAX - b) return 0;
    *r = a + b;
    return 1;
}

/* ---- kind / preset table ------------------------------------------------------ */
typedef struct spmv_gen_entry {
    const char *name;     /* what goes before ':' in a spec */
    const char *base;     /* the generator kind it runs */
    const char *defaults; /* key=val defaults */
    const char *desc;     /* one line */
} spmv_gen_entry;

static inline const spmv_gen_entry *spmv__gen_table(int *count) {
    static const spmv_gen_entry tab[] = {
        {"stencil2d", "stencil2d", "n=100", "5-point 2-D Laplacian on an n x n grid"},
        {"stencil3d", "stencil3d", "n=20,pts=7", "7- or 27-point (pts=) stencil on an n^3 grid"},
        {"fem", "fem", "n=1000,bs=3,deg=8,dim=1,sym=0,seed=1",
         "FEM-like: n block rows of dense bs x bs blocks, deg blocks per block row near the diagonal (dim=1|3)"},
        {"band", "band", "n=1000000,bw=5,seed=1", "full band with half bandwidth bw"},
        {"random", "random", "rows=10000,nnzr=10,seed=1", "uniform random, nnzr entries per row (cols=rows by default)"},
        {"rmat", "rmat", "scale=14,ef=8,seed=1,a=0.57,b=0.19,c=0.19",
         "R-MAT power-law graph, 2^scale vertices, ef*2^scale edges"},
        {"circuit", "circuit", "n=1000000,dense=2,seed=1",
         "circuit-like: ~3-6 per row near the diagonal plus `dense` near-dense rows and columns"},
        {"lp", "lp", "rows=50000,cols=1000000,nnzr=100,seed=1",
         "wide LP-like rectangle, heavy-tailed row lengths (cols=4*rows if only rows is given)"},
        {"dense", "dense", "rows=1000,seed=1", "fully dense rows x cols (cols=rows by default)"},
        {"onerow", "onerow", "n=100000,seed=1",
         "n x n with one non-empty row (row=n/2) of len entries (len=n by default)"},
        {"tile", "tile", "k=8,kron=0",
         "a Matrix Market file tiled k times: block-diagonal, or kron=1 the Kronecker product with a "
         "k x k tridiagonal (file=PATH, the last key)"},
        {"fem3d", "fem", "n=21000,bs=3,deg=21,dim=3,seed=1", "preset: 3-D FEM, 3x3 blocks, 63000 rows, ~3.8M nnz"},
        {"fem3d6", "fem", "n=12000,bs=6,deg=21,dim=3,seed=1", "preset: 3-D FEM, 6x6 blocks, 72000 rows, ~9.1M nnz"},
        {"fem3dsym", "fem", "n=21000,bs=3,deg=21,dim=3,sym=1,seed=1", "preset: symmetric 3-D FEM, 3x3 blocks, 63000 rows"},
        {"stencil27", "stencil3d", "n=60,pts=27", "preset: 27-point 3-D stencil, 216000 rows, 5.6M nnz"},
        {"stencil7", "stencil3d", "n=100,pts=7", "preset: 7-point 3-D stencil, 1M rows, 6.9M nnz"},
        {"pde60", "stencil3d", "n=60,pts=7", "preset: 7-point 3-D PDE matrix, 216000 rows"},
        {"pde80", "stencil3d", "n=80,pts=7", "preset: 7-point 3-D PDE matrix, 512000 rows"},
        {"pde100", "stencil3d", "n=100,pts=7", "preset: 7-point 3-D PDE matrix, 1M rows"},
        {"webgraph", "rmat", "scale=20,ef=4,seed=1,a=0.57,b=0.19,c=0.19",
         "preset: power-law web graph, 1M rows, 4.2M entries (4.13M distinct), longest row ~17k"},
        {"circuit5m", "circuit", "n=1000000,dense=2,seed=1", "preset: 1M-row circuit with 2 near-dense rows/columns"},
        {"dense2k", "dense", "rows=2000,cols=2000,seed=1", "preset: dense 2000 x 2000"},
        /* 300 MB or more in CSR (double, int32): 10x a 32 MB last-level cache, for bandwidth claims */
        {"stencil27big", "stencil3d", "n=100,pts=27", "preset: 27-point 3-D stencil, 1M rows, 26.5M nnz (~322 MB CSR)"},
        {"fem3dbig", "fem", "n=150000,bs=3,deg=21,dim=3,seed=1",
         "preset: 3-D FEM, 3x3 blocks, 450000 rows, ~27M nnz (~330 MB CSR)"},
        {"fem3dsymbig", "fem", "n=150000,bs=3,deg=21,dim=3,sym=1,seed=1",
         "preset: symmetric 3-D FEM, 3x3 blocks, 450000 rows (~300 MB CSR)"},
        {"webgraphbig", "rmat", "scale=22,ef=7,seed=1,a=0.57,b=0.19,c=0.19",
         "preset: power-law web graph, 4.2M rows, ~28M entries (~360 MB CSR)"},
    };
    *count = (int)(sizeof tab / sizeof tab[0]);
    return tab;
}

static inline int spmv_gen_count(void) {
    int n;
    (void)spmv__gen_table(&n);
    return n;
}
static inline const spmv_gen_entry *spmv_gen_entry_at(int i) {
    int n;
    const spmv_gen_entry *t = spmv__gen_table(&n);
    return (i >= 0 && i < n) ? &t[i] : NULL;
}

static inline spmv_status spmv_gen_list(char *buf, size_t n) {
    int i, cnt;
    size_t used = 0;
    const spmv_gen_entry *t = spmv__gen_table(&cnt);
    if (!buf || n == 0) return SPMV_ERR_ARG;
    buf[0] = '\0';
    for (i = 0; i < cnt; i++) {
        int w = snprintf(buf + used, n - used, "%-10s %s [%s]\n", t[i].name, t[i].desc, t[i].defaults);
        if (w < 0 || (size_t)w >= n - used) {
            buf[n - 1] = '\0';
            return SPMV_ERR_LIMIT;
        }
        used += (size_t)w;
    }
    return SPMV_OK;
}

/* ---- spec parsing -------------------------------------------------------------- */
enum {
    SPMV__GK_N = 0, SPMV__GK_BS, SPMV__GK_DEG, SPMV__GK_DIM, SPMV__GK_BW, SPMV__GK_ROWS, SPMV__GK_COLS,
    SPMV__GK_NNZR, SPMV__GK_SCALE, SPMV__GK_EF, SPMV__GK_DENSE, SPMV__GK_LEN, SPMV__GK_ROW, SPMV__GK_PTS,
    SPMV__GK_SEED, SPMV__GK_A, SPMV__GK_B, SPMV__GK_C, SPMV__GK_SYM, SPMV__GK_COUNT
};

static inline const char *spmv__gen_keyname(int k) {
    static const char *const names[SPMV__GK_COUNT] = {"n",  "bs",  "deg",   "dim", "bw",  "rows",
                                                      "cols", "nnzr", "scale", "ef",  "dense", "len",
                                                      "row", "pts", "seed",  "a",   "b",   "c",
                                                      "sym"};
    return names[k];
}

typedef struct spmv__gen_params {
    int64_t iv[SPMV__GK_COUNT];
    double dv[SPMV__GK_COUNT];
    unsigned given; /* bit k: key k set by the user */
} spmv__gen_params;

static inline int spmv__gen_is_real_key(int k) { return k == SPMV__GK_A || k == SPMV__GK_B || k == SPMV__GK_C; }

/* Parses one value; 0 ok, 1 invalid, 2 overflow. */
static inline int spmv__gen_parse_val(const char *s, size_t len, int real, int64_t *iv, double *dv) {
    char tmp[64];
    if (len == 0 || len >= sizeof tmp) return 1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    if (real) {
        char *end = NULL;
        double v = spmv__mm_strtod_c(tmp, &end); /* '.' whatever the locale */
        if (end == tmp || *end != '\0' || v != v) return 1;
        *dv = v;
        return 0;
    } else {
        size_t i = 0;
        int neg = 0, ovf = 0;
        uint64_t v = 0, mul = 1;
        if (tmp[0] == '-' || tmp[0] == '+') {
            neg = tmp[0] == '-';
            i = 1;
        }
        if (!(tmp[i] >= '0' && tmp[i] <= '9')) return 1;
        for (; tmp[i] >= '0' && tmp[i] <= '9'; i++) {
            unsigned d = (unsigned)(tmp[i] - '0');
            if (v > (UINT64_MAX - d) / 10u) ovf = 1;
            else v = v * 10u + d;
        }
        if (tmp[i] == 'k' || tmp[i] == 'K') mul = 1000u, i++;
        else if (tmp[i] == 'm' || tmp[i] == 'M') mul = 1000000u, i++;
        else if (tmp[i] == 'g' || tmp[i] == 'G') mul = 1000000000u, i++;
        if (tmp[i] != '\0') return 1;
        if (ovf || v > (uint64_t)INT64_MAX / mul) return 2;
        v *= mul;
        *iv = neg ? -(int64_t)v : (int64_t)v;
        return 0;
    }
}

/* Applies "key=val,key=val" (length len) to p. user: mark keys as given. allowed: key mask. */
static inline spmv_status spmv__gen_apply(const char *s, size_t len, unsigned allowed, int user, const char *kind,
                                          spmv__gen_params *p, spmv_error *err) {
    size_t i = 0;
    while (i < len) {
        size_t ks = i, ke, vs, ve;
        int k, rc, found = -1;
        while (i < len && s[i] != '=' && s[i] != ',') i++;
        ke = i;
        if (ke == ks) {
            if (i < len && s[i] == ',') { /* tolerate empty items ("a=1,,b=2", trailing comma) */
                i++;
                continue;
            }
            return spmv__gen_err(err, SPMV_ERR_ARG, "generator '%s': empty key in '%.*s'", kind, (int)len, s);
        }
        if (i >= len || s[i] != '=')
            return spmv__gen_err(err, SPMV_ERR_ARG, "generator '%s': key '%.*s' has no '=value'", kind, (int)(ke - ks),
                                 s + ks);
        i++;
        vs = i;
        while (i < len && s[i] != ',') i++;
        ve = i;
        if (i < len) i++;
        for (k = 0; k < SPMV__GK_COUNT; k++) {
            const char *nm = spmv__gen_keyname(k);
            if (strlen(nm) == ke - ks && !memcmp(nm, s + ks, ke - ks)) {
                found = k;
                break;
            }
        }
        if (found < 0 || !((allowed >> found) & 1u)) {
            char valid[128];
            size_t u = 0;
            valid[0] = '\0';
            for (k = 0; k < SPMV__GK_COUNT; k++)
                if ((allowed >> k) & 1u) {
                    int w = snprintf(valid + u, sizeof valid - u, "%s%s", u ? ", " : "", spmv__gen_keyname(k));
                    if (w < 0 || (size_t)w >= sizeof valid - u) break;
                    u += (size_t)w;
                }
            return spmv__gen_err(err, SPMV_ERR_ARG, "generator '%s': unknown key '%.*s' (valid: %s)", kind,
                                 (int)(ke - ks), s + ks, valid);
        }
        rc = spmv__gen_parse_val(s + vs, ve - vs, spmv__gen_is_real_key(found), &p->iv[found], &p->dv[found]);
        if (rc == 2)
            return spmv__gen_err(err, SPMV_ERR_OVERFLOW, "generator '%s': value '%.*s' for key '%s' overflows 64 bits", kind,
                                 (int)(ve - vs), s + vs, spmv__gen_keyname(found));
        if (rc != 0)
            return spmv__gen_err(err, SPMV_ERR_ARG, "generator '%s': invalid value '%.*s' for key '%s'", kind,
                                 (int)(ve - vs), s + vs, spmv__gen_keyname(found));
        if (user) p->given |= 1u << found;
    }
    return SPMV_OK;
}

#define SPMV__GBIT(k) (1u << (k))

static inline unsigned spmv__gen_allowed(const char *base) {
    unsigned seed = SPMV__GBIT(SPMV__GK_SEED);
    if (!strcmp(base, "stencil2d")) return SPMV__GBIT(SPMV__GK_N);
    if (!strcmp(base, "stencil3d")) return SPMV__GBIT(SPMV__GK_N) | SPMV__GBIT(SPMV__GK_PTS);
    if (!strcmp(base, "fem"))
        return SPMV__GBIT(SPMV__GK_N) | SPMV__GBIT(SPMV__GK_BS) | SPMV__GBIT(SPMV__GK_DEG) | SPMV__GBIT(SPMV__GK_DIM) |
               SPMV__GBIT(SPMV__GK_SYM) | seed;
    if (!strcmp(base, "band")) return SPMV__GBIT(SPMV__GK_N) | SPMV__GBIT(SPMV__GK_BW) | seed;
    if (!strcmp(base, "random") || !strcmp(base, "lp"))
        return SPMV__GBIT(SPMV__GK_ROWS) | SPMV__GBIT(SPMV__GK_COLS) | SPMV__GBIT(SPMV__GK_NNZR) | seed;
    if (!strcmp(base, "rmat"))
        return SPMV__GBIT(SPMV__GK_SCALE) | SPMV__GBIT(SPMV__GK_EF) | SPMV__GBIT(SPMV__GK_A) | SPMV__GBIT(SPMV__GK_B) |
               SPMV__GBIT(SPMV__GK_C) | seed;
    if (!strcmp(base, "circuit")) return SPMV__GBIT(SPMV__GK_N) | SPMV__GBIT(SPMV__GK_DENSE) | seed;
    if (!strcmp(base, "dense")) return SPMV__GBIT(SPMV__GK_ROWS) | SPMV__GBIT(SPMV__GK_COLS) | seed;
    if (!strcmp(base, "onerow"))
        return SPMV__GBIT(SPMV__GK_N) | SPMV__GBIT(SPMV__GK_LEN) | SPMV__GBIT(SPMV__GK_ROW) | seed;
    return 0;
}

/* Allocates triplets with room for cap entries (nnz set to 0; the generator fills it in). */
static inline spmv_status spmv__gen_alloc(spmv_triplets *t, int64_t rows, int64_t cols, int64_t cap,
                                          spmv_error *err) {
    spmv_status st;
    if (cap > SPMV_GEN_MAX_NNZ)
        return spmv__gen_err(err, SPMV_ERR_LIMIT, "generator: %lld entries exceed the limit SPMV_GEN_MAX_NNZ (%lld)",
                             (long long)cap, (long long)SPMV_GEN_MAX_NNZ);
    st = spmv_triplets_alloc(t, rows, cols, cap);
    if (st != SPMV_OK)
        return spmv__gen_err(err, st, "generator: cannot allocate %lld x %lld with %lld entries", (long long)rows,
                             (long long)cols, (long long)cap);
    t->nnz = 0;
    return SPMV_OK;
}

#define SPMV__GEN_OVF(err, what) spmv__gen_err((err), SPMV_ERR_OVERFLOW, "generator: %s overflows 64-bit sizes", (what))

/* ---- generators ------------------------------------------------------------------ */
static inline spmv_status spmv__gen_stencil2d(int64_t n, spmv_triplets *t, spmv_error *err) {
    int64_t rows, cap, x, y, k = 0;
    spmv_status st;
    if (n < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "stencil2d: n must be >= 0");
    if (!spmv__gen_mul(n, n, &rows) || !spmv__gen_mul(rows, 5, &cap)) return SPMV__GEN_OVF(err, "stencil2d n^2*5");
    st = spmv__gen_alloc(t, rows, rows, cap, err);
    if (st != SPMV_OK) return st;
    for (y = 0; y < n; y++)
        for (x = 0; x < n; x++) {
            int64_t r = y * n + x, d;
            int cnt = 0;
#define SPMV__PUT(c) (t->row[k] = r, t->col[k] = (c), t->val[k] = -1.0, k++, cnt++)
            if (y > 0) SPMV__PUT(r - n);
            if (x > 0) SPMV__PUT(r - 1);
            d = k;
            t->row[k] = r;
            t->col[k] = r;
            k++;
            if (x + 1 < n) SPMV__PUT(r + 1);
            if (y + 1 < n) SPMV__PUT(r + n);
#undef SPMV__PUT
            t->val[d] = (double)cnt;
        }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_stencil3d(int64_t n, int64_t pts, spmv_triplets *t, spmv_error *err) {
    int64_t rows, cap, n2, x, y, z, k = 0;
    int off[27][3], noff = 0, dx, dy, dz, o;
    spmv_status st;
    if (n < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "stencil3d: n must be >= 0");
    if (pts != 7 && pts != 27) return spmv__gen_err(err, SPMV_ERR_ARG, "stencil3d: pts must be 7 or 27, got %lld", (long long)pts);
    if (!spmv__gen_mul(n, n, &n2) || !spmv__gen_mul(n2, n, &rows) || !spmv__gen_mul(rows, pts, &cap))
        return SPMV__GEN_OVF(err, "stencil3d n^3*pts");
    /* offsets in increasing column order */
    for (dz = -1; dz <= 1; dz++)
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int nz = (dx != 0) + (dy != 0) + (dz != 0);
                if (pts == 7 && nz > 1) continue;
                off[noff][0] = dz;
                off[noff][1] = dy;
                off[noff][2] = dx;
                noff++;
            }
    st = spmv__gen_alloc(t, rows, rows, cap, err);
    if (st != SPMV_OK) return st;
    for (z = 0; z < n; z++)
        for (y = 0; y < n; y++)
            for (x = 0; x < n; x++) {
                int64_t r = z * n2 + y * n + x, d = -1;
                int cnt = 0;
                for (o = 0; o < noff; o++) {
                    int64_t zz = z + off[o][0], yy = y + off[o][1], xx = x + off[o][2];
                    if (zz < 0 || zz >= n || yy < 0 || yy >= n || xx < 0 || xx >= n) continue;
                    t->row[k] = r;
                    t->col[k] = zz * n2 + yy * n + xx;
                    if (t->col[k] == r) d = k;
                    else {
                        t->val[k] = -1.0;
                        cnt++;
                    }
                    k++;
                }
                t->val[d] = (double)cnt;
            }
    t->nnz = k;
    return SPMV_OK;
}

static inline void spmv__gen_sort_i64(int64_t *a, int64_t n) { /* insertion sort, small n */
    int64_t i, j;
    for (i = 1; i < n; i++) {
        int64_t v = a[i];
        for (j = i; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

static inline spmv_status spmv__gen_fem(int64_t n, int64_t bs, int64_t deg, int64_t dim, int64_t sym, uint64_t seed,
                                        spmv_triplets *t, spmv_error *err) {
    int64_t rows, bb, cap, ncand_max, rad = 1, g = 1, bi_, k = 0;
    int64_t *cand = NULL;
    spmv_rng rng;
    spmv_status st;
    if (n < 0 || bs < 1 || deg < 1)
        return spmv__gen_err(err, SPMV_ERR_ARG, "fem: need n >= 0, bs >= 1, deg >= 1");
    if (dim != 1 && dim != 3) return spmv__gen_err(err, SPMV_ERR_ARG, "fem: dim must be 1 or 3");
    if (sym != 0 && sym != 1) return spmv__gen_err(err, SPMV_ERR_ARG, "fem: sym must be 0 or 1");
    if (n > 0 && deg > n) deg = n;
    if (!spmv__gen_mul(n, bs, &rows) || !spmv__gen_mul(bs, bs, &bb) || !spmv__gen_mul(n, deg, &cap) ||
        !spmv__gen_mul(cap, bb, &cap))
        return SPMV__GEN_OVF(err, "fem n*bs*bs*deg");
    st = spmv__gen_alloc(t, rows, rows, cap, err); /* bounds n and deg by SPMV_GEN_MAX_NNZ */
    if (st != SPMV_OK) return st;
    if (dim == 1) {
        ncand_max = 2 * deg;
    } else {
        while ((2 * rad + 1) * (2 * rad + 1) * (2 * rad + 1) - 1 < deg - 1) rad++;
        ncand_max = (2 * rad + 1) * (2 * rad + 1) * (2 * rad + 1);
        while (g * g * g < n) g++;
    }
    cand = SPMV_ALLOC_N(int64_t, ncand_max + 1);
    if (!cand) {
        spmv_triplets_free(t);
        return spmv__gen_err(err, SPMV_ERR_ALLOC, "fem: out of memory");
    }
    spmv_rng_init(&rng, seed, 11);
    for (bi_ = 0; bi_ < n; bi_++) {
        int64_t nc = 0, take, c, bi, bj;
        if (dim == 1) {
            int64_t o;
            for (o = 1; o <= deg; o++) {
                if (bi_ - o >= 0) cand[nc++] = bi_ - o;
                if (bi_ + o < n) cand[nc++] = bi_ + o;
            }
        } else {
            int64_t x = bi_ % g, y = (bi_ / g) % g, z = bi_ / (g * g), dx, dy, dz;
            for (dz = -rad; dz <= rad; dz++)
                for (dy = -rad; dy <= rad; dy++)
                    for (dx = -rad; dx <= rad; dx++) {
                        int64_t xx = x + dx, yy = y + dy, zz = z + dz, J;
                        if ((dx | dy | dz) == 0 || xx < 0 || yy < 0 || zz < 0 || xx >= g || yy >= g || zz >= g) continue;
                        J = (zz * g + yy) * g + xx;
                        if (J < n) cand[nc++] = J;
                    }
        }
        if (sym) { /* symmetric: (deg-1)/2 earlier blocks, each placed with its transpose */
            int64_t q = 0, a, b;
            for (c = 0; c < nc; c++)
                if (cand[c] < bi_) cand[q++] = cand[c];
            nc = q;
            take = (deg - 1) / 2 < nc ? (deg - 1) / 2 : nc;
            for (c = 0; c < take; c++) {
                int64_t j = c + spmv_rng_below(&rng, nc - c), tmp = cand[c];
                cand[c] = cand[j];
                cand[j] = tmp;
            }
            for (c = 0; c < take; c++)
                for (a = 0; a < bs; a++)
                    for (b = 0; b < bs; b++) {
                        const double v = 2.0 * spmv_rng_u01(&rng) - 1.0;
                        t->row[k] = bi_ * bs + a, t->col[k] = cand[c] * bs + b, t->val[k++] = v;
                        t->row[k] = cand[c] * bs + b, t->col[k] = bi_ * bs + a, t->val[k++] = v;
                    }
            for (a = 0; a < bs; a++) /* the diagonal block, symmetric */
                for (b = 0; b <= a; b++) {
                    const double v = a == b ? (double)(deg * bs) : 2.0 * spmv_rng_u01(&rng) - 1.0;
                    t->row[k] = bi_ * bs + a, t->col[k] = bi_ * bs + b, t->val[k++] = v;
                    if (a != b) t->row[k] = bi_ * bs + b, t->col[k] = bi_ * bs + a, t->val[k++] = v;
                }
            continue;
        }
        /* choose deg-1 of the candidates (partial Fisher-Yates), plus the diagonal block */
        take = deg - 1 < nc ? deg - 1 : nc;
        for (c = 0; c < take; c++) {
            int64_t j = c + spmv_rng_below(&rng, nc - c), tmp = cand[c];
            cand[c] = cand[j];
            cand[j] = tmp;
        }
        cand[take] = bi_;
        spmv__gen_sort_i64(cand, take + 1);
        for (bi = 0; bi < bs; bi++) {
            int64_t r = bi_ * bs + bi;
            for (c = 0; c <= take; c++)
                for (bj = 0; bj < bs; bj++) {
                    int64_t col = cand[c] * bs + bj;
                    t->row[k] = r;
                    t->col[k] = col;
                    t->val[k] = col == r ? (double)(deg * bs) : 2.0 * spmv_rng_u01(&rng) - 1.0;
                    k++;
                }
        }
    }
    spmv__free(cand);
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_band(int64_t n, int64_t bw, uint64_t seed, spmv_triplets *t, spmv_error *err) {
    int64_t w, cap, i, j, k = 0;
    spmv_rng rng;
    spmv_status st;
    if (n < 0 || bw < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "band: need n >= 0, bw >= 0");
    if (bw > n - 1) bw = n > 0 ? n - 1 : 0;
    if (!spmv__gen_mul(bw, 2, &w) || !spmv__gen_add(w, 1, &w) || !spmv__gen_mul(n, w, &cap))
        return SPMV__GEN_OVF(err, "band n*(2bw+1)");
    cap -= bw * (bw + 1); /* the corners are cut off; bw <= n-1 so this cannot underflow */
    st = spmv__gen_alloc(t, n, n, cap, err);
    if (st != SPMV_OK) return st;
    spmv_rng_init(&rng, seed, 12);
    for (i = 0; i < n; i++) {
        int64_t lo = i - bw < 0 ? 0 : i - bw, hi = i + bw > n - 1 ? n - 1 : i + bw;
        for (j = lo; j <= hi; j++) {
            t->row[k] = i;
            t->col[k] = j;
            t->val[k] = j == i ? (double)w : -spmv_rng_val(&rng);
            k++;
        }
    }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_random(int64_t rows, int64_t cols, int64_t nnzr, uint64_t seed, spmv_triplets *t,
                                           spmv_error *err) {
    int64_t cap, i, j, k = 0;
    spmv_rng rng;
    spmv_status st;
    if (rows < 0 || cols < 0 || nnzr < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "random: sizes must be >= 0");
    if (cols == 0) nnzr = 0;
    if (!spmv__gen_mul(rows, nnzr, &cap)) return SPMV__GEN_OVF(err, "random rows*nnzr");
    st = spmv__gen_alloc(t, rows, cols, cap, err);
    if (st != SPMV_OK) return st;
    spmv_rng_init(&rng, seed, 13);
    for (i = 0; i < rows; i++)
        for (j = 0; j < nnzr; j++) {
            t->row[k] = i;
            t->col[k] = spmv_rng_below(&rng, cols);
            t->val[k] = 2.0 * spmv_rng_u01(&rng) - 1.0;
            k++;
        }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_rmat(int64_t scale, int64_t ef, double a, double b, double c, uint64_t seed,
                                         spmv_triplets *t, spmv_error *err) {
    int64_t n, m, e, k = 0;
    int lev;
    double ab = a + b, abc = a + b + c;
    uint64_t ta, tab, tabc; /* quadrant thresholds on 16-bit uniforms (4 levels per draw) */
    spmv_rng rng;
    spmv_status st;
    if (scale < 0 || scale > 40 || ef < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "rmat: need 0 <= scale <= 40, ef >= 0");
    if (!(a >= 0 && b >= 0 && c >= 0 && abc <= 1.0 + 1e-12))
        return spmv__gen_err(err, SPMV_ERR_ARG, "rmat: need a, b, c >= 0 and a + b + c <= 1");
    n = (int64_t)1 << scale;
    if (!spmv__gen_mul(n, ef, &m)) return SPMV__GEN_OVF(err, "rmat ef*2^scale");
    st = spmv__gen_alloc(t, n, n, m, err);
    if (st != SPMV_OK) return st;
    ta = (uint64_t)(a * 65536.0 + 0.5);
    tab = (uint64_t)(ab * 65536.0 + 0.5);
    tabc = (uint64_t)(abc * 65536.0 + 0.5);
    spmv_rng_init(&rng, seed, 14);
    for (e = 0; e < m; e++) {
        int64_t r = 0, col = 0;
        uint64_t bits = 0;
        int left = 0;
        for (lev = (int)scale - 1; lev >= 0; lev--) {
            uint64_t u, q;
            if (left == 0) {
                bits = spmv_rng_next(&rng);
                left = 4;
            }
            u = bits & 0xFFFFu;
            bits >>= 16;
            left--;
            /* quadrant 0 (a): none, 1 (b): column bit, 2 (c): row bit, 3 (d): both */
            q = (uint64_t)(u >= ta) + (uint64_t)(u >= tab) + (uint64_t)(u >= tabc);
            col |= (int64_t)(q & 1u) << lev;
            r |= (int64_t)(q >> 1) << lev;
        }
        t->row[k] = r;
        t->col[k] = col;
        t->val[k] = spmv_rng_val(&rng);
        k++;
    }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_circuit(int64_t n, int64_t dense, uint64_t seed, spmv_triplets *t,
                                            spmv_error *err) {
    int64_t cap, extra, i, j, d, k = 0;
    int64_t *dix = NULL;
    spmv_rng rng;
    spmv_status st;
    if (n < 0 || dense < 0 || dense > n || dense > 1000)
        return spmv__gen_err(err, SPMV_ERR_ARG, "circuit: need n >= 0 and 0 <= dense <= min(n, 1000)");
    if (!spmv__gen_mul(n, 6, &cap) || !spmv__gen_mul(dense, 2, &extra) || !spmv__gen_mul(extra, n, &extra) ||
        !spmv__gen_add(cap, extra, &cap))
        return SPMV__GEN_OVF(err, "circuit n*(6+2*dense)");
    st = spmv__gen_alloc(t, n, n, cap, err);
    if (st != SPMV_OK) return st;
    dix = SPMV_ALLOC_N(int64_t, dense);
    if (!dix) {
        spmv_triplets_free(t);
        return spmv__gen_err(err, SPMV_ERR_ALLOC, "circuit: out of memory");
    }
    spmv_rng_init(&rng, seed, 15);
    /* sparse part: diagonal, i-1, i+1, then 1-3 more near (70%) or anywhere (30%) */
    for (i = 0; i < n; i++) {
        int64_t more = 1 + spmv_rng_below(&rng, 3), dpos, q;
        double sum = 0.0;
        dpos = k;
        t->row[k] = i;
        t->col[k] = i;
        k++;
        for (q = -1; q <= 1; q += 2)
            if (i + q >= 0 && i + q < n) {
                double v = spmv_rng_val(&rng);
                t->row[k] = i;
                t->col[k] = i + q;
                t->val[k] = -v;
                sum += v;
                k++;
            }
        for (q = 0; q < more && n > 1; q++) {
            int64_t c;
            double v = spmv_rng_val(&rng);
            if (spmv_rng_u01(&rng) < 0.7) {
                int64_t o = 1 + spmv_rng_below(&rng, 64);
                c = spmv_rng_next(&rng) & 1u ? i + o : i - o;
                if (c < 0 || c >= n) c = spmv_rng_below(&rng, n);
            } else {
                c = spmv_rng_below(&rng, n);
            }
            t->row[k] = i;
            t->col[k] = c;
            t->val[k] = -v;
            sum += v;
            k++;
        }
        t->val[dpos] = sum + 1.0;
    }
    /* near-dense rows and columns at distinct random positions */
    for (d = 0; d < dense; d++) {
        int64_t q, dup;
        do {
            dix[d] = spmv_rng_below(&rng, n);
            dup = 0;
            for (q = 0; q < d; q++)
                if (dix[q] == dix[d]) dup = 1;
        } while (dup);
        for (j = 0; j < n; j++)
            if (spmv_rng_u01(&rng) < 0.75) {
                t->row[k] = dix[d];
                t->col[k] = j;
                t->val[k] = -spmv_rng_val(&rng);
                k++;
            }
        for (i = 0; i < n; i++)
            if (spmv_rng_u01(&rng) < 0.75) {
                t->row[k] = i;
                t->col[k] = dix[d];
                t->val[k] = -spmv_rng_val(&rng);
                k++;
            }
    }
    spmv__free(dix);
    t->nnz = k;
    return SPMV_OK;
}

/* heavy-tailed row length with mean ~nnzr: Pareto(alpha=2, xm=0.5), clamped to [1, cols] */
static inline int64_t spmv__gen_lp_len(spmv_rng *r, int64_t nnzr, int64_t cols) {
    double x = 0.5 / sqrt(spmv_rng_val(r)) * (double)nnzr;
    int64_t L;
    if (x >= (double)cols) return cols;
    L = (int64_t)(x + 0.5);
    if (L < 1) L = 1;
    return L > cols ? cols : L;
}

static inline spmv_status spmv__gen_lp(int64_t rows, int64_t cols, int64_t nnzr, uint64_t seed, spmv_triplets *t,
                                       spmv_error *err) {
    int64_t cap = 0, i, j, k = 0;
    spmv_rng rl, rc;
    spmv_status st;
    if (rows < 0 || cols < 0 || nnzr < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "lp: sizes must be >= 0");
    if (cols == 0 || nnzr == 0) {
        st = spmv__gen_alloc(t, rows, cols, 0, err);
        return st;
    }
    spmv_rng_init(&rl, seed, 16);
    for (i = 0; i < rows; i++) {
        if (!spmv__gen_add(cap, spmv__gen_lp_len(&rl, nnzr, cols), &cap)) return SPMV__GEN_OVF(err, "lp nnz");
        if (cap > SPMV_GEN_MAX_NNZ) break; /* reported by the allocation below */
    }
    st = spmv__gen_alloc(t, rows, cols, cap, err);
    if (st != SPMV_OK) return st;
    spmv_rng_init(&rl, seed, 16);
    spmv_rng_init(&rc, seed, 17);
    for (i = 0; i < rows; i++) {
        int64_t L = spmv__gen_lp_len(&rl, nnzr, cols);
        for (j = 0; j < L; j++) {
            t->row[k] = i;
            t->col[k] = spmv_rng_below(&rc, cols);
            t->val[k] = 2.0 * spmv_rng_u01(&rc) - 1.0;
            k++;
        }
    }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_dense(int64_t rows, int64_t cols, uint64_t seed, spmv_triplets *t,
                                          spmv_error *err) {
    int64_t cap, i, j, k = 0;
    spmv_rng rng;
    spmv_status st;
    if (rows < 0 || cols < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "dense: sizes must be >= 0");
    if (!spmv__gen_mul(rows, cols, &cap)) return SPMV__GEN_OVF(err, "dense rows*cols");
    st = spmv__gen_alloc(t, rows, cols, cap, err);
    if (st != SPMV_OK) return st;
    spmv_rng_init(&rng, seed, 18);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            t->row[k] = i;
            t->col[k] = j;
            t->val[k] = 2.0 * spmv_rng_u01(&rng) - 1.0;
            k++;
        }
    t->nnz = k;
    return SPMV_OK;
}

static inline spmv_status spmv__gen_onerow(int64_t n, int64_t len, int64_t row, uint64_t seed, spmv_triplets *t,
                                           spmv_error *err) {
    int64_t j;
    spmv_rng rng;
    spmv_status st;
    if (n < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "onerow: n must be >= 0");
    if (len < 0) len = n;
    if (row < 0) row = n / 2;
    if (len > n) return spmv__gen_err(err, SPMV_ERR_ARG, "onerow: len (%lld) must be <= n (%lld)", (long long)len, (long long)n);
    if (len > 0 && row >= n) return spmv__gen_err(err, SPMV_ERR_ARG, "onerow: row must be < n");
    st = spmv__gen_alloc(t, n, n, len, err);
    if (st != SPMV_OK) return st;
    spmv_rng_init(&rng, seed, 19);
    for (j = 0; j < len; j++) {
        int64_t c;
        if (n <= INT64_MAX / (len ? len : 1)) c = j * n / len;
        else c = (int64_t)((double)j * ((double)n / (double)len));
        if (c >= n) c = n - 1;
        t->row[j] = row;
        t->col[j] = c;
        t->val[j] = spmv_rng_val(&rng);
    }
    t->nnz = len;
    return SPMV_OK;
}

/* ---- entry point --------------------------------------------------------------------- */
/* tile: A (a Matrix Market file) k times, its values and its rows' locality kept. kron=0:
 * block-diagonal (k m x k n, k nnz entries); kron=1: the Kronecker product T (x) A with T the
 * k x k tridiagonal of ones (block rows couple to their neighbours: about 3 k nnz entries). The
 * keys are "k=K,kron=0|1,file=PATH": file last, its value the rest of the spec (a path may hold
 * commas). */
static inline spmv_status spmv__gen_tile(const char *keys, spmv_triplets *t, spmv_error *err) {
    const char *f = strstr(keys, "file=");
    int64_t k = 8, kron = 0, m, n, nb, cap, b, c, q;
    spmv_triplets A;
    spmv_status st;
    size_t i = 0, len;
    if (!f || (f != keys && f[-1] != ','))
        return spmv__gen_err(err, SPMV_ERR_ARG, "tile: no file=PATH (the last key: tile:k=16,file=m.mtx)");
    len = (size_t)(f - keys);
    while (i < len) { /* k=..,kron=.. before file= */
        size_t ks = i, vs, ve;
        int64_t v = 0;
        while (i < len && keys[i] != '=' && keys[i] != ',') i++;
        if (i == ks) {
            i++;
            continue;
        }
        if (i >= len || keys[i] != '=')
            return spmv__gen_err(err, SPMV_ERR_ARG, "tile: key '%.*s' has no '=value'", (int)(i - ks), keys + ks);
        vs = ++i;
        while (i < len && keys[i] != ',') i++;
        ve = i;
        if (spmv__gen_parse_val(keys + vs, ve - vs, 0, &v, NULL) != 0)
            return spmv__gen_err(err, SPMV_ERR_ARG, "tile: invalid value '%.*s'", (int)(ve - vs), keys + vs);
        if (vs - ks == 2 && keys[ks] == 'k') k = v;
        else if (vs - ks == 5 && !memcmp(keys + ks, "kron", 4)) kron = v;
        else
            return spmv__gen_err(err, SPMV_ERR_ARG, "tile: unknown key '%.*s' (valid: k, kron, file)", (int)(vs - ks - 1),
                                 keys + ks);
    }
    if (k < 1 || (kron != 0 && kron != 1)) return spmv__gen_err(err, SPMV_ERR_ARG, "tile: k must be >= 1, kron 0 or 1");
    if ((st = spmv_mm_read(f + 5, &A, err)) != SPMV_OK) return st;
    nb = kron ? 3 * k - 2 : k; /* blocks */
    if (!spmv__gen_mul(k, A.nrows, &m) || !spmv__gen_mul(k, A.ncols, &n) || !spmv__gen_mul(nb, A.nnz, &cap)) {
        spmv_triplets_free(&A);
        return SPMV__GEN_OVF(err, "tile");
    }
    if ((st = spmv__gen_alloc(t, m, n, cap, err)) != SPMV_OK) {
        spmv_triplets_free(&A);
        return st;
    }
    for (b = 0; b < k; b++)
        for (c = kron ? (b > 0 ? b - 1 : 0) : b; c <= (kron ? (b + 1 < k ? b + 1 : b) : b); c++)
            for (q = 0; q < A.nnz; q++) {
                t->row[t->nnz] = b * A.nrows + A.row[q];
                t->col[t->nnz] = c * A.ncols + A.col[q];
                t->val[t->nnz++] = A.val[q];
            }
    spmv_triplets_free(&A);
    return SPMV_OK;
}

static inline spmv_status spmv_gen(const char *spec, spmv_triplets *out, spmv_error *err) {
    const char *s, *colon, *keys;
    size_t klen;
    int cnt, i;
    const spmv_gen_entry *tab = spmv__gen_table(&cnt), *e = NULL;
    spmv__gen_params p;
    unsigned allowed;
    spmv_status st;
    char kind[32];
    uint64_t seed;
    const int64_t *iv;

    if (err) {
        err->line = 0;
        err->msg[0] = '\0';
    }
    if (out) memset(out, 0, sizeof *out);
    if (!spec || !out) return spmv__gen_err(err, SPMV_ERR_ARG, "spmv_gen: NULL %s", spec ? "output" : "spec");
    s = spec;
    if (!strncmp(s, "gen:", 4)) s += 4;
    colon = strchr(s, ':');
    klen = colon ? (size_t)(colon - s) : strlen(s);
    keys = colon ? colon + 1 : s + klen;
    if (klen == 0 || klen >= sizeof kind)
        return spmv__gen_err(err, SPMV_ERR_ARG, "spmv_gen: missing or invalid generator kind in '%s'", spec);
    memcpy(kind, s, klen);
    kind[klen] = '\0';
    for (i = 0; i < cnt; i++)
        if (!strcmp(tab[i].name, kind)) {
            e = &tab[i];
            break;
        }
    if (!e) { /* the kinds by name: the message serves a command line as well as a program */
        char names[200];
        size_t at = 0;
        for (i = 0; i < cnt && at + strlen(tab[i].name) + 6 < sizeof names; i++)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", tab[i].name);
        if (i < cnt) snprintf(names + at, sizeof names - at, ", ...");
        return spmv__gen_err(err, SPMV_ERR_ARG, "spmv_gen: unknown generator kind '%s' (kinds: %s)", kind, names);
    }
    if (!strcmp(e->base, "tile")) {
        st = spmv__gen_tile(keys, out, err);
        if (st != SPMV_OK) spmv_triplets_free(out);
        return st;
    }
    allowed = spmv__gen_allowed(e->base);
    memset(&p, 0, sizeof p);
    p.iv[SPMV__GK_SEED] = 1;
    st = spmv__gen_apply(e->defaults, strlen(e->defaults), allowed, 0, kind, &p, err);
    if (st != SPMV_OK) return st;
    st = spmv__gen_apply(keys, strlen(keys), allowed, 1, kind, &p, err);
    if (st != SPMV_OK) return st;
    iv = p.iv;
    seed = (uint64_t)iv[SPMV__GK_SEED];

    if (!strcmp(e->base, "stencil2d")) st = spmv__gen_stencil2d(iv[SPMV__GK_N], out, err);
    else if (!strcmp(e->base, "stencil3d")) st = spmv__gen_stencil3d(iv[SPMV__GK_N], iv[SPMV__GK_PTS], out, err);
    else if (!strcmp(e->base, "fem"))
        st = spmv__gen_fem(iv[SPMV__GK_N], iv[SPMV__GK_BS], iv[SPMV__GK_DEG], iv[SPMV__GK_DIM], iv[SPMV__GK_SYM], seed,
                           out, err);
    else if (!strcmp(e->base, "band")) st = spmv__gen_band(iv[SPMV__GK_N], iv[SPMV__GK_BW], seed, out, err);
    else if (!strcmp(e->base, "random")) {
        int64_t cols = ((p.given >> SPMV__GK_COLS) & 1u) ? iv[SPMV__GK_COLS] : iv[SPMV__GK_ROWS];
        st = spmv__gen_random(iv[SPMV__GK_ROWS], cols, iv[SPMV__GK_NNZR], seed, out, err);
    } else if (!strcmp(e->base, "rmat"))
        st = spmv__gen_rmat(iv[SPMV__GK_SCALE], iv[SPMV__GK_EF], p.dv[SPMV__GK_A], p.dv[SPMV__GK_B], p.dv[SPMV__GK_C],
                            seed, out, err);
    else if (!strcmp(e->base, "circuit")) st = spmv__gen_circuit(iv[SPMV__GK_N], iv[SPMV__GK_DENSE], seed, out, err);
    else if (!strcmp(e->base, "lp")) {
        int64_t cols = iv[SPMV__GK_COLS];
        if (iv[SPMV__GK_ROWS] < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "lp: rows must be >= 0");
        if (((p.given >> SPMV__GK_ROWS) & 1u) && !((p.given >> SPMV__GK_COLS) & 1u)) {
            if (!spmv__gen_mul(iv[SPMV__GK_ROWS], 4, &cols)) return SPMV__GEN_OVF(err, "lp cols=4*rows");
        }
        st = spmv__gen_lp(iv[SPMV__GK_ROWS], cols, iv[SPMV__GK_NNZR], seed, out, err);
    } else if (!strcmp(e->base, "dense")) {
        int64_t cols = ((p.given >> SPMV__GK_COLS) & 1u) ? iv[SPMV__GK_COLS] : iv[SPMV__GK_ROWS];
        st = spmv__gen_dense(iv[SPMV__GK_ROWS], cols, seed, out, err);
    } else if (!strcmp(e->base, "onerow")) {
        int64_t len = ((p.given >> SPMV__GK_LEN) & 1u) ? iv[SPMV__GK_LEN] : -1; /* -1: n */
        int64_t row = ((p.given >> SPMV__GK_ROW) & 1u) ? iv[SPMV__GK_ROW] : -1; /* -1: n/2 */
        if (((p.given >> SPMV__GK_LEN) & 1u) && len < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "onerow: len must be >= 0");
        if (((p.given >> SPMV__GK_ROW) & 1u) && row < 0) return spmv__gen_err(err, SPMV_ERR_ARG, "onerow: row must be >= 0");
        st = spmv__gen_onerow(iv[SPMV__GK_N], len, row, seed, out, err);
    } else
        st = spmv__gen_err(err, SPMV_ERR_ARG, "spmv_gen: internal error: no generator for '%s'", e->base);
    if (st != SPMV_OK) spmv_triplets_free(out);
    return st;
}

/* ---- statistics -------------------------------------------------------------------- */
#define SPMV_STATS_NBS 5

typedef struct spmv_stats {
    int64_t nrows, ncols, nnz;   /* nnz as stored (duplicates counted) */
    int64_t row_min, row_max;    /* stored entries per row */
    double row_avg, row_sd;      /* mean and (population) standard deviation */
    int64_t empty_rows;
    int64_t ndiags;              /* distinct diagonals (col - row) holding an entry */
    int64_t bandwidth;           /* max |col - row|, 0 if empty */
    int64_t lower_bw, upper_bw;  /* max (row - col) and max (col - row), 0 if none */
    int block_bs[SPMV_STATS_NBS];         /* 2, 3, 4, 6, 8 */
    int64_t block_count[SPMV_STATS_NBS];  /* distinct bs x bs blocks touched (aligned grid) */
    double block_fill[SPMV_STATS_NBS];    /* nnz / (blocks * bs * bs) */
    int best_bs;                          /* bs with the highest fill (ties: larger bs) */
    double best_fill;
} spmv_stats;

/* ---- the sparse path: O(nnz) memory whatever the dimensions (a 2^40 x 2^40 matrix with three
 * entries is fine); sorts instead of per-row and per-column arrays ---- */
typedef struct spmv__stat_pair {
    int64_t r, c;
} spmv__stat_pair;
static inline int spmv__stat_cmp_pair(const void *a, const void *b) {
    const spmv__stat_pair *x = (const spmv__stat_pair *)a, *y = (const spmv__stat_pair *)b;
    if (x->r != y->r) return x->r < y->r ? -1 : 1;
    return x->c < y->c ? -1 : x->c > y->c;
}
static inline int spmv__stat_cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}
/* distinct values among v[0..n), sorting v */
static inline int64_t spmv__stat_distinct(int64_t *v, int64_t n) {
    int64_t i, d = 0;
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, spmv__stat_cmp_i64);
    for (i = 0; i < n; i++)
        if (i == 0 || v[i] != v[i - 1]) d++;
    return d;
}
static inline spmv_status spmv__triplets_stats_sparse(const spmv_triplets *t, spmv_stats *s, const int *bss) {
    spmv__stat_pair *e = NULL;
    int64_t *tmp = NULL, k, nonempty = 0;
    double sum2 = 0.0;
    int b;
    e = (spmv__stat_pair *)spmv__alloc((size_t)t->nnz, sizeof *e);
    tmp = SPMV_ALLOC_N(int64_t, t->nnz);
    if (!e || !tmp) {
        spmv__free(e);
        spmv__free(tmp);
        return SPMV_ERR_ALLOC;
    }
    for (k = 0; k < t->nnz; k++) {
        e[k].r = t->row[k];
        e[k].c = t->col[k];
    }
    if (t->nnz > 0) qsort(e, (size_t)t->nnz, sizeof *e, spmv__stat_cmp_pair);
    /* row lengths: runs of equal rows; the absent rows are empty */
    s->row_avg = t->nrows > 0 ? (double)t->nnz / (double)t->nrows : 0.0;
    s->row_min = INT64_MAX;
    for (k = 0; k < t->nnz;) {
        int64_t k1 = k + 1, len;
        double dlt;
        while (k1 < t->nnz && e[k1].r == e[k].r) k1++;
        len = k1 - k;
        if (len < s->row_min) s->row_min = len;
        if (len > s->row_max) s->row_max = len;
        dlt = (double)len - s->row_avg;
        sum2 += dlt * dlt;
        nonempty++;
        k = k1;
    }
    s->empty_rows = t->nrows - nonempty;
    if (s->empty_rows > 0 || nonempty == 0) s->row_min = 0;
    sum2 += (double)s->empty_rows * s->row_avg * s->row_avg;
    s->row_sd = t->nrows > 0 ? sqrt(sum2 / (double)t->nrows) : 0.0;
    /* diagonals and bandwidth */
    for (k = 0; k < t->nnz; k++) {
        int64_t off = e[k].c - e[k].r;
        if (off > 0 && off > s->upper_bw) s->upper_bw = off;
        if (off < 0 && -off > s->lower_bw) s->lower_bw = -off;
        tmp[k] = off;
    }
    s->ndiags = spmv__stat_distinct(tmp, t->nnz);
    s->bandwidth = s->lower_bw > s->upper_bw ? s->lower_bw : s->upper_bw;
    /* distinct aligned blocks: per block row (contiguous after the sort), distinct col / bs */
    for (b = 0; b < SPMV_STATS_NBS; b++) {
        int64_t bs = bss[b], nblk = 0;
        for (k = 0; k < t->nnz;) {
            int64_t k1 = k, br = e[k].r / bs, g = 0;
            while (k1 < t->nnz && e[k1].r / bs == br) tmp[g++] = e[k1++].c / bs;
            nblk += spmv__stat_distinct(tmp, g);
            k = k1;
        }
        s->block_count[b] = nblk;
        s->block_fill[b] = nblk > 0 ? (double)t->nnz / ((double)nblk * (double)(bs * bs)) : 0.0;
        if (b == 0 || s->block_fill[b] >= s->best_fill * (1.0 - 1e-12)) {
            s->best_fill = s->block_fill[b];
            s->best_bs = bss[b];
        }
    }
    spmv__free(e);
    spmv__free(tmp);
    return SPMV_OK;
}

/* how: 0 = choose (per-row arrays only when the dimensions are within a small multiple of
 * nnz, so memory stays O(nnz + 1M) whatever the declared sizes), 1 = per-row arrays,
 * 2 = sorting. Both give the same statistics (row_sd up to rounding). */
static inline spmv_status spmv__triplets_stats(const spmv_triplets *t, spmv_stats *s, int how) {
    static const int bss[SPMV_STATS_NBS] = {2, 3, 4, 6, 8};
    int64_t *ptr = NULL, *cols = NULL, *mark = NULL, i, k, nd;
    unsigned char *diag = NULL;
    double sum2 = 0.0;
    int b;
    if (!t || !s) return SPMV_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (t->nrows < 0 || t->ncols < 0 || t->nnz < 0 || (t->nnz > 0 && (!t->row || !t->col))) return SPMV_ERR_ARG;
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] < 0 || t->row[k] >= t->nrows || t->col[k] < 0 || t->col[k] >= t->ncols) return SPMV_ERR_ARG;
    s->nrows = t->nrows;
    s->ncols = t->ncols;
    s->nnz = t->nnz;
    for (b = 0; b < SPMV_STATS_NBS; b++) s->block_bs[b] = bss[b];
    if (how == 0) {
        int64_t lim = t->nnz < (INT64_MAX >> 4) ? 4 * t->nnz + ((int64_t)1 << 20) : INT64_MAX;
        how = t->nrows <= lim && t->ncols <= lim ? 1 : 2;
    }
    if (how == 2) {
        spmv_status st = spmv__triplets_stats_sparse(t, s, bss);
        if (st != SPMV_OK) {
            memset(s, 0, sizeof *s);
            for (b = 0; b < SPMV_STATS_NBS; b++) s->block_bs[b] = bss[b];
        }
        return st;
    }
    if (t->nrows > INT64_MAX - t->ncols) return SPMV_ERR_OVERFLOW;
    nd = t->nrows + t->ncols; /* offsets col-row + nrows in [1, nrows+ncols-1] */

    ptr = SPMV_ALLOC_N(int64_t, t->nrows + 1);
    cols = SPMV_ALLOC_N(int64_t, t->nnz);
    mark = SPMV_ALLOC_N(int64_t, t->ncols / 2 + 1);
    diag = (unsigned char *)spmv__calloc((size_t)(nd / 8 + 1), 1);
    if (!ptr || !cols || !mark || !diag) {
        spmv__free(ptr);
        spmv__free(cols);
        spmv__free(mark);
        spmv__free(diag);
        return SPMV_ERR_ALLOC;
    }
    /* row lengths and a row-grouped copy of the columns (counting sort) */
    memset(ptr, 0, sizeof(int64_t) * (size_t)(t->nrows + 1));
    for (k = 0; k < t->nnz; k++) ptr[t->row[k] + 1]++;
    s->row_min = t->nrows > 0 ? INT64_MAX : 0;
    for (i = 0; i < t->nrows; i++) {
        int64_t len = ptr[i + 1];
        if (len < s->row_min) s->row_min = len;
        if (len > s->row_max) s->row_max = len;
        if (len == 0) s->empty_rows++;
    }
    s->row_avg = t->nrows > 0 ? (double)t->nnz / (double)t->nrows : 0.0;
    for (i = 0; i < t->nrows; i++) {
        double dlt = (double)ptr[i + 1] - s->row_avg;
        sum2 += dlt * dlt;
    }
    s->row_sd = t->nrows > 0 ? sqrt(sum2 / (double)t->nrows) : 0.0;
    for (i = 0; i < t->nrows; i++) ptr[i + 1] += ptr[i];
    for (k = 0; k < t->nnz; k++) {
        int64_t r = t->row[k], c = t->col[k], off = c - r, o = off + t->nrows;
        cols[ptr[r]++] = c;
        if (off > 0 && off > s->upper_bw) s->upper_bw = off;
        if (off < 0 && -off > s->lower_bw) s->lower_bw = -off;
        if (!(diag[o >> 3] & (1u << (o & 7)))) {
            diag[o >> 3] = (unsigned char)(diag[o >> 3] | (1u << (o & 7)));
            s->ndiags++;
        }
    }
    for (i = t->nrows; i > 0; i--) ptr[i] = ptr[i - 1]; /* restore row starts */
    if (t->nrows >= 0) ptr[0] = 0;
    s->bandwidth = s->lower_bw > s->upper_bw ? s->lower_bw : s->upper_bw;

    /* distinct aligned blocks per block size, one block row at a time */
    for (b = 0; b < SPMV_STATS_NBS; b++) {
        int64_t bs = bss[b], nbc = (t->ncols + bs - 1) / bs, nbr = (t->nrows + bs - 1) / bs, bri, nblk = 0;
        for (i = 0; i < nbc; i++) mark[i] = -1;
        for (bri = 0; bri < nbr; bri++) {
            int64_t r0 = bri * bs, r1 = r0 + bs < t->nrows ? r0 + bs : t->nrows;
            for (k = ptr[r0]; k < ptr[r1]; k++) {
                int64_t bc = cols[k] / bs;
                if (mark[bc] != bri) {
                    mark[bc] = bri;
                    nblk++;
                }
            }
        }
        s->block_count[b] = nblk;
        s->block_fill[b] = nblk > 0 ? (double)t->nnz / ((double)nblk * (double)(bs * bs)) : 0.0;
        if (b == 0 || s->block_fill[b] >= s->best_fill * (1.0 - 1e-12)) {
            s->best_fill = s->block_fill[b];
            s->best_bs = bss[b];
        }
    }
    spmv__free(ptr);
    spmv__free(cols);
    spmv__free(mark);
    spmv__free(diag);
    return SPMV_OK;
}

static inline spmv_status spmv_triplets_stats(const spmv_triplets *t, spmv_stats *s) {
    return spmv__triplets_stats(t, s, 0);
}

/* "gen:SPEC" -> spmv_gen, otherwise a Matrix Market file (see the header comment) */
static inline spmv_status spmv_load(const char *spec, spmv_triplets *out, spmv_error *err) {
    if (!spec) return SPMV_ERR_ARG;
    if (!strncmp(spec, "gen:", 4)) return spmv_gen(spec + 4, out, err);
    return spmv_mm_read(spec, out, err);
}

#endif /* SPMV_GEN_H */
