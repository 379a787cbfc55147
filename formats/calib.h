/* calib — what this machine's CSR product costs, measured once and cached, so that the
 * automatic selection (formats/auto.h) can predict a product before timing one.
 *
 *   spmv_calibration c;
 *   spmv_error e;
 *   spmv_d_calibrate(&c, 0, SPMV_ISA_AUTO, &e);       // ~0.1-0.3 s: three CSR matrices timed
 *   char path[512];
 *   if (spmv_calibration_default_path(path, sizeof path))
 *       spmv_calibration_save(path, &c, 1, &e);        // what `spmv calibrate` does
 *   double t = spmv_calibration_predict_csr(&c, nrows, ncols, nnz);   // seconds, a floor
 *
 * The model of one CSR product on n entries: fixed_s + max(bytes / bw, n * cache_s) with
 * two threads or more (one thread below SPMV_CSR_PAR_MIN entries + rows: n * cache_s *
 * threads, no fixed cost), where bytes is CSR + x + y (0 when they fit in the last-level
 * cache). Measured on banded matrices whose
 * rows vectorise and whose x stays in cache: real matrices are slower, rarely faster, so the
 * prediction is a floor; the selection spends its time in proportion to it.
 *
 * The cache file (one line per thread count, value and index size and ISA, of one machine):
 * $SPMV_CALIBRATION if set (the word `off`: no file is read or written), else
 * $XDG_CACHE_HOME/spmv/calibration, else $HOME/.cache/spmv/calibration. Loading refuses,
 * with a status and a message and nothing changed: an unreadable file, a directory, fifo or
 * device (SPMV_ERR_IO, before any read), a file that is not a calibration or has a value out
 * of range (SPMV_ERR_PARSE, the line in e), another machine's file or no line for this key
 * (SPMV_ERR_ARG). The selection then uses spmv_calibration_builtin's values: those of a fast
 * machine (60 GB/s, 0.25 ns an entry on two threads), so that the predictions stay floors.
 * Saving replaces only a calibration (its first line; any other file, a symbolic link or a
 * non-regular file is SPMV_ERR_IO and left alone), keeps every key of this machine, writes
 * beside the file and renames it into place, under an exclusive lock on PATH.lock beside it
 * (created once, never removed), so that concurrent writers merge their keys; it makes the
 * default path's missing directories below an existing $XDG_CACHE_HOME or $HOME only. No global
 * state: the file is read at each selection that needs it (a few hundred bytes). */

#if defined(SPMV_PART_TYPES) && !defined(SPMV_CALIB_TYPES)
#define SPMV_CALIB_TYPES
typedef struct spmv_calibration {
    char machine[128];     /* CPU brand, logical CPUs, last-level cache: whose numbers these are */
    int threads;           /* OpenMP threads of the products */
    int value_bytes, index_bytes;
    spmv_isa isa;          /* resolved */
    double bw;             /* CSR streaming from memory, bytes (matrix + x + y) per second */
    double cache_s;        /* CSR in cache, seconds per entry (all threads) */
    double fixed_s;        /* a parallel product's fixed cost (waking and joining the threads) */
    double fresh_s_per_mb; /* first touch of fresh memory, seconds per MiB */
    double feat_s;         /* the selection's inspection, seconds per row + sampled entry */
    double measure_s;      /* what the measurement took (0: built-in or loaded) */
    int measured;          /* 1: measured on this machine (now or loaded), 0: built-in values */
} spmv_calibration;

/* The value key of an ISA table: the value's bytes for tags s and d (4, 8), a code of its own for
 * each optional tag, whose kernels differ from s's and d's where the bytes are the same (c's 8
 * bytes are d's; ds stores s's floats): the low byte is the stored value's bytes. A file names
 * it "value 4", "value 8" or "value <tag>". */
#define SPMV_VKEY_DS 0x204
#define SPMV_VKEY_H 0x202
#define SPMV_VKEY_B 0x302
#define SPMV_VKEY_C 0x108
#define SPMV_VKEY_Z 0x110
/* The fastest ISA of every host format on this machine, for one thread count, value key and
 * index size (spmv_<tag>_calibrate_isa measures it; SPMV_ISA_AUTO follows it: spmv_isa_for) */
typedef struct spmv_isa_table {
    char machine[128];
    int threads, value_bytes, index_bytes; /* value_bytes: the value key (SPMV_VKEY_*, or 4, 8) */
    spmv_isa pick[SPMV_FMT_COUNT_]; /* SPMV_ISA_AUTO: not measured (the built-in order) */
    /* seconds of one product on the format's matrix in cache [0] and beyond the last-level
     * cache [1], per ISA (0: not run); a measurement fills them, a loaded table does not */
    double secs[SPMV_FMT_COUNT_][SPMV_ISA_COUNT_][2];
    double measure_s;
} spmv_isa_table;
#endif

#if defined(SPMV_PART_DECLS) && !defined(SPMV_CALIB_DECLS)
#define SPMV_CALIB_DECLS
SPMV_API void spmv_calibration_machine(char *buf, size_t n);
SPMV_API void spmv_calibration_builtin(spmv_calibration *c, int threads, int value_bytes, int index_bytes,
        spmv_isa isa);
SPMV_API double spmv_calibration_predict_csr(const spmv_calibration *c, int64_t nrows, int64_t ncols, int64_t nnz);
SPMV_API int spmv_calibration_default_path(char *buf, size_t n);
SPMV_API int spmv_calibration_off(void);
SPMV_API spmv_status spmv_calibration_load(const char *path, spmv_calibration *c, spmv_error *e);
SPMV_API spmv_status spmv_calibration_save(const char *path, const spmv_calibration *c, int make_dirs, spmv_error *e);
SPMV_API spmv_status spmv_isa_table_load(const char *path, spmv_isa_table *t, spmv_error *e);
SPMV_API spmv_status spmv_isa_table_save(const char *path, const spmv_isa_table *t, int make_dirs, spmv_error *e);
SPMV_API spmv_status spmv_isa_for(spmv_format f, int value_bytes, int index_bytes, spmv_isa req, spmv_isa *out,
                                  const char **why);
#endif
#if defined(SPMV_PART_DECLS)
SPMV_API spmv_status SPMV_NAME(calibrate)(spmv_calibration *c, int threads, spmv_isa isa, spmv_error *e);
SPMV_API spmv_status SPMV_NAME(calibrate_isa)(spmv_isa_table *t, int threads, const unsigned char *formats,
                                              spmv_error *e);
/* this tag's value key (4, 8, SPMV_VKEY_*): the value_bytes of its ISA table and of spmv_isa_for */
static inline int SPMV_NAME(isa_key)(void) { return SPMV__VKEY; }
#endif

#if defined(SPMV_PART_DEFS) && !defined(SPMV_CALIB_COMMON)
#define SPMV_CALIB_COMMON
#ifdef SPMV_IMPLEMENTATION_EXTRA /* the functions every tag shares: weak, libspmv.a's own ones win */
#pragma push_macro("SPMV_API")
#undef SPMV_API
#define SPMV_API extern __attribute__((weak))
#endif
#include <sys/stat.h>
#include "core/machine.h"
/* "brand, N CPUs, LLC K KiB" (formats/core/machine.h) */
SPMV_API void spmv_calibration_machine(char *buf, size_t n) { snprintf(buf, n, "%s", spmv_machine_get()->desc); }

/* a fast machine's values (a floor under every prediction), keyed as asked */
SPMV_API void spmv_calibration_builtin(spmv_calibration *c, int threads, int value_bytes, int index_bytes,
                                            spmv_isa isa) {
    const int t = threads > 0 ? threads : 1;
    memset(c, 0, sizeof *c);
    spmv_calibration_machine(c->machine, sizeof c->machine);
    c->threads = t;
    c->value_bytes = value_bytes;
    c->index_bytes = index_bytes;
    c->isa = isa;
    c->bw = 60e9;
    c->cache_s = 0.5e-9 / t;
    c->fixed_s = 1e-6;
    c->fresh_s_per_mb = 0.05e-3;
    c->feat_s = 1e-9;
}

/* CSR's predicted product time in seconds (a floor: see the top of this file) */
SPMV_API double spmv_calibration_predict_csr(const spmv_calibration *c, int64_t nrows, int64_t ncols, int64_t nnz) {
    const double bytes = (double)nnz * (c->value_bytes + c->index_bytes) + (double)(nrows + 1) * c->index_bytes +
                         (double)(nrows + ncols) * c->value_bytes;
    const double mem = bytes > (double)spmv_machine_get()->llc_bytes ? bytes / c->bw : 0, work = (double)nnz * c->cache_s;
    if ((double)nnz + (double)nrows < SPMV_CSR_PAR_MIN) return work * c->threads;
    return c->fixed_s + (mem > work ? mem : work);
}

/* The cache file: $SPMV_CALIBRATION, or under XDG_CACHE_HOME or HOME; 0 when there is none
 * ($SPMV_CALIBRATION=off, no home, or a path that does not fit in buf). */
SPMV_API int spmv_calibration_default_path(char *buf, size_t n) {
    const char *p = getenv("SPMV_CALIBRATION"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    int w;
    if (!buf || n == 0) return 0;
    buf[0] = 0;
    if (p && *p) {
        if (!strcmp(p, "off")) return 0;
        w = snprintf(buf, n, "%s", p);
    } else if (x && *x == '/') {
        w = snprintf(buf, n, "%s/spmv/calibration", x);
    } else if (h && *h) {
        w = snprintf(buf, n, "%s/.cache/spmv/calibration", h);
    } else {
        return 0;
    }
    if (w < 0 || (size_t)w >= n) {
        buf[0] = 0;
        return 0;
    }
    return 1;
}
/* whether $SPMV_CALIBRATION turns the cache off */
SPMV_API int spmv_calibration_off(void) {
    const char *p = getenv("SPMV_CALIBRATION");
    return p && !strcmp(p, "off");
}

#define SPMV__CAL_HEADER "%%spmv calibration 1"
/* one line of the file into c (the key fields and the numbers); 0 when it is not one */
static inline int spmv__cal_parse(const char *line, spmv_calibration *c) {
    char isa_s[32];
    int n = 0;
    const char *bar = strchr(line, '|');
    size_t ml;
    memset(c, 0, sizeof *c);
    if (strncmp(line, "machine ", 8) || !bar || bar < line + 8) return 0;
    ml = (size_t)(bar - (line + 8));
    while (ml > 0 && line[8 + ml - 1] == ' ') ml--;
    if (ml == 0 || ml >= sizeof c->machine) return 0;
    memcpy(c->machine, line + 8, ml);
    c->machine[ml] = 0;
    if (sscanf(bar + 1, " threads %d value %d index %d isa %31s bw %lf cache_s %lf fixed_s %lf fresh_s_per_mb %lf feat_s %lf%n",
               &c->threads, &c->value_bytes, &c->index_bytes, isa_s, &c->bw, &c->cache_s, &c->fixed_s,
               &c->fresh_s_per_mb, &c->feat_s, &n) != 9)
        return 0;
    if (bar[1 + n] && bar[1 + n] != '\n') return 0;
    if (spmv_isa_parse(isa_s, &c->isa) != SPMV_OK || c->isa == SPMV_ISA_AUTO) return 0;
    /* ranges a real machine stays in: anything else is a damaged or hand-made file */
    if (c->threads < 1 || c->threads > 4096 || (c->value_bytes != 4 && c->value_bytes != 8) ||
        (c->index_bytes != 4 && c->index_bytes != 8) || !(c->bw >= 1e8 && c->bw <= 1e13) ||
        !(c->cache_s >= 1e-14 && c->cache_s <= 1e-6) || !(c->fixed_s >= 0 && c->fixed_s <= 1e-2) ||
        !(c->fresh_s_per_mb >= 0 && c->fresh_s_per_mb <= 1) || !(c->feat_s >= 0 && c->feat_s <= 1e-5))
        return 0;
    c->measured = 1;
    return 1;
}
static inline int spmv__cal_same_key(const spmv_calibration *a, const spmv_calibration *b) {
    return a->threads == b->threads && a->value_bytes == b->value_bytes && a->index_bytes == b->index_bytes &&
           a->isa == b->isa;
}

/* a value key's name in a file ("4", "8", the optional tags') and back (0: none) */
static inline const char *spmv__vkey_name(int k) {
    switch (k) {
    case 4: return "4";
    case 8: return "8";
    case SPMV_VKEY_DS: return "ds";
    case SPMV_VKEY_H: return "h";
    case SPMV_VKEY_B: return "b";
    case SPMV_VKEY_C: return "c";
    case SPMV_VKEY_Z: return "z";
    default: return NULL;
    }
}
static inline int spmv__vkey_parse(const char *s) {
    static const int keys[] = {4, 8, SPMV_VKEY_DS, SPMV_VKEY_H, SPMV_VKEY_B, SPMV_VKEY_C, SPMV_VKEY_Z};
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(s, spmv__vkey_name(keys[i]))) return keys[i];
    return 0;
}
/* An "isas machine M | threads T value V index I picks NAME=ISA ..." line into t (the ISA
 * picks of spmv_<tag>_calibrate_isa); 0 when it is not one. A name this build has no row for
 * (another build's format) is skipped; an ISA name it does not know makes the line damaged. */
static inline int spmv__isa_parse(const char *line, spmv_isa_table *t) {
    const char *bar = strchr(line, '|'), *p;
    size_t ml;
    int n = 0;
    memset(t, 0, sizeof *t);
    if (strncmp(line, "isas machine ", 13) || !bar || bar < line + 13) return 0;
    ml = (size_t)(bar - (line + 13));
    while (ml > 0 && line[13 + ml - 1] == ' ') ml--;
    if (ml == 0 || ml >= sizeof t->machine) return 0;
    memcpy(t->machine, line + 13, ml);
    {
        char vk[8];
        if (sscanf(bar + 1, " threads %d value %7s index %d picks%n", &t->threads, vk, &t->index_bytes, &n) != 3 ||
            n == 0)
            return 0;
        t->value_bytes = spmv__vkey_parse(vk);
    }
    if (t->threads < 1 || t->threads > 4096 || !t->value_bytes || (t->index_bytes != 4 && t->index_bytes != 8))
        return 0;
    for (p = bar + 1 + n; *p;) {
        char name[32], isa_s[16];
        spmv_format f;
        spmv_isa i;
        int k = 0;
        if (*p == ' ') {
            p++;
            continue;
        }
        if (sscanf(p, "%31[a-z0-9_]=%15[a-z0-9]%n", name, isa_s, &k) != 2 || (p[k] && p[k] != ' ')) return 0;
        if (spmv_isa_parse(isa_s, &i) != SPMV_OK || i == SPMV_ISA_AUTO) return 0;
        if (spmv_format_parse(name, &f) == SPMV_OK) t->pick[f] = i;
        p += k;
    }
    return 1;
}
/* one line of the file: 1 a CSR calibration (into c), 2 ISA picks (into t), 0 neither */
static inline int spmv__cal_line(const char *line, spmv_calibration *c, spmv_isa_table *t) {
    if (spmv__cal_parse(line, c)) return 1;
    return spmv__isa_parse(line, t) ? 2 : 0;
}
#define SPMV__CAL_LINE 1024 /* longer lines are in no calibration */

/* The line of `kind` (1: *c's key, 2: *t's) from path into *c or *t. SPMV_OK: filled.
 * Otherwise they are unchanged and e says why (see the top of this file). */
static inline spmv_status spmv__cal_find(const char *path, int kind, spmv_calibration *c, spmv_isa_table *t,
                                         const char *what, spmv_error *e) {
    char line[SPMV__CAL_LINE], here[128];
    spmv_calibration lc;
    spmv_isa_table lt;
    int ln = 0, found = 0, k;
    FILE *f;
    if (spmv__file_regular(path, 1, what, e) != SPMV_OK) return SPMV_ERR_IO;
    if (!(f = fopen(path, "r"))) {
        SPMV__ERR(e, "cannot read the calibration '%.100s': %s", path, strerror(errno));
        return SPMV_ERR_IO;
    }
    spmv_calibration_machine(here, sizeof here);
    while (fgets(line, sizeof line, f)) {
        char *nl = strchr(line, '\n');
        ln++;
        if (!nl && !feof(f)) break; /* a line too long for any calibration */
        if (nl) *nl = 0;
        if (ln == 1) {
            if (strcmp(line, SPMV__CAL_HEADER)) break;
            continue;
        }
        if (!(k = spmv__cal_line(line, &lc, &lt))) break;
        if (strcmp(k == 1 ? lc.machine : lt.machine, here)) {
            fclose(f);
            SPMV__ERR(e, "the calibration '%.100s' is another machine's (%.50s; this is %.50s)", path,
                      k == 1 ? lc.machine : lt.machine, here);
            return SPMV_ERR_ARG;
        }
        if (k == 1 && kind == 1 && spmv__cal_same_key(&lc, c)) *c = lc, found = 1;
        if (k == 2 && kind == 2 && lt.threads == t->threads && lt.value_bytes == t->value_bytes &&
            lt.index_bytes == t->index_bytes)
            *t = lt, found = 1;
    }
    if (ferror(f) || (!feof(f))) {
        fclose(f);
        if (e) e->line = ln;
        SPMV__ERR(e, "'%.100s' is not a calibration of this version (line %d)", path, ln);
        return SPMV_ERR_PARSE;
    }
    fclose(f);
    if (ln == 0) {
        SPMV__ERR(e, "'%.100s' is empty: not a calibration", path);
        return SPMV_ERR_PARSE;
    }
    if (found) return SPMV_OK;
    if (kind == 1)
        SPMV__ERR(e, "the calibration '%.100s' has no line for %d threads, %d-byte values, %d-byte indices, %s", path,
                  c->threads, c->value_bytes, c->index_bytes, spmv_isa_name(c->isa));
    else
        SPMV__ERR(e, "the calibration '%.100s' has no ISA picks for %d threads, value %s, %d-byte indices", path,
                  t->threads, spmv__vkey_name(t->value_bytes) ? spmv__vkey_name(t->value_bytes) : "?", t->index_bytes);
    return SPMV_ERR_ARG;
}

/* c's line for c's key (threads, value and index size, isa: set by the caller) from path.
 * SPMV_OK: c filled. Otherwise c is unchanged and e says why (see the top of this file). */
SPMV_API spmv_status spmv_calibration_load(const char *path, spmv_calibration *c, spmv_error *e) {
    spmv_calibration got;
    spmv_status st;
    if (e) e->line = 0, e->msg[0] = 0;
    if (!path || !*path || !c) {
        SPMV__ERR(e, "calibration_load: no path or calibration");
        return SPMV_ERR_ARG;
    }
    got = *c;
    if ((st = spmv__cal_find(path, 1, &got, NULL, "calibration_load", e)) == SPMV_OK) *c = got;
    return st;
}
/* t's ISA picks for t's key (threads, value and index size: set by the caller) from path; the
 * seconds are not in the file (0). Statuses as spmv_calibration_load. */
SPMV_API spmv_status spmv_isa_table_load(const char *path, spmv_isa_table *t, spmv_error *e) {
    spmv_isa_table got;
    spmv_status st;
    if (e) e->line = 0, e->msg[0] = 0;
    if (!path || !*path || !t) {
        SPMV__ERR(e, "isa_table_load: no path or table");
        return SPMV_ERR_ARG;
    }
    got = *t;
    if ((st = spmv__cal_find(path, 2, NULL, &got, "isa_table_load", e)) == SPMV_OK) *t = got;
    return st;
}

/* The missing directories of a default path, below $XDG_CACHE_HOME or $HOME only (that base
 * must exist: the library never creates a home directory) */
static inline void spmv__cal_mkdirs(const char *path) {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME"), *base = NULL;
    char d[4096];
    size_t i, b, n = strlen(path);
    struct stat st;
    if (x && *x == '/' && !strncmp(path, x, strlen(x)) && path[strlen(x)] == '/') base = x;
    else if (h && *h && !strncmp(path, h, strlen(h)) && path[strlen(h)] == '/') base = h;
    if (!base || n >= sizeof d || stat(base, &st) != 0 || !S_ISDIR(st.st_mode)) return;
    memcpy(d, path, n + 1);
    for (b = strlen(base), i = b + 1; i < n; i++)
        if (d[i] == '/') {
            d[i] = 0;
            (void)mkdir(d, 0700);
            d[i] = '/';
        }
}

/* A new line (of `kind`, keyed as *c or *t) written into path: this machine's other lines
 * kept, another machine's dropped, a damaged file replaced; the file is replaced only when it
 * is a calibration (its first line). make_dirs: create the missing directories above it (the
 * default path). SPMV_ERR_IO with the reason when it cannot be written; the file is then as
 * it was. */
static inline spmv_status spmv__cal_save_locked(const char *path, int kind, const spmv_calibration *c,
                                                const spmv_isa_table *t, const char *newline, spmv_error *e);
static inline spmv_status spmv__cal_save(const char *path, int kind, const spmv_calibration *c,
                                         const spmv_isa_table *t, const char *newline, int make_dirs,
                                         const char *what, spmv_error *e) {
    spmv_status st;
    int lock;
    /* a user's file is refused before anything is made beside it (the lock) */
    if ((st = spmv__own_file(path, SPMV__CAL_HEADER, "a calibration file", what, e)) != SPMV_OK) return st;
    if (make_dirs) spmv__cal_mkdirs(path);
    if ((lock = spmv__lock_beside(path, what, e)) == -1) return SPMV_ERR_IO;
    st = spmv__cal_save_locked(path, kind, c, t, newline, e);
    spmv__unlock(lock);
    return st;
}
SPMV_API spmv_status spmv_calibration_save(const char *path, const spmv_calibration *c, int make_dirs,
                                           spmv_error *e) {
    char nl[SPMV__CAL_LINE];
    if (e) e->line = 0, e->msg[0] = 0;
    if (!path || !*path || !c || !c->measured) {
        SPMV__ERR(e, "calibration_save: no path, or no measured calibration");
        return SPMV_ERR_ARG;
    }
    snprintf(nl, sizeof nl,
             "machine %s | threads %d value %d index %d isa %s bw %.4g cache_s %.4g fixed_s %.4g "
             "fresh_s_per_mb %.4g feat_s %.4g",
             c->machine, c->threads, c->value_bytes, c->index_bytes, spmv_isa_name(c->isa), c->bw, c->cache_s,
             c->fixed_s, c->fresh_s_per_mb, c->feat_s);
    return spmv__cal_save(path, 1, c, NULL, nl, make_dirs, "calibration_save", e);
}
/* t's picks (those not SPMV_ISA_AUTO) as the line of its key, replacing that key's line */
SPMV_API spmv_status spmv_isa_table_save(const char *path, const spmv_isa_table *t, int make_dirs, spmv_error *e) {
    char nl[SPMV__CAL_LINE];
    int f, w, any = 0;
    if (e) e->line = 0, e->msg[0] = 0;
    if (!path || !*path || !t || !t->machine[0] || t->threads < 1 || t->threads > 4096 ||
        !spmv__vkey_name(t->value_bytes) || (t->index_bytes != 4 && t->index_bytes != 8)) {
        SPMV__ERR(e, "isa_table_save: no path, or a table without its machine, threads, value key and index size");
        return SPMV_ERR_ARG;
    }
    w = snprintf(nl, sizeof nl, "isas machine %s | threads %d value %s index %d picks", t->machine, t->threads,
                 spmv__vkey_name(t->value_bytes), t->index_bytes);
    for (f = 0; f < SPMV_FMT_COUNT_ && w > 0 && (size_t)w < sizeof nl; f++)
        if (t->pick[f] != SPMV_ISA_AUTO && (int)t->pick[f] < (int)SPMV_ISA_COUNT_) {
            w += snprintf(nl + w, sizeof nl - (size_t)w, " %s=%s", spmv_format_name((spmv_format)f),
                          spmv_isa_name(t->pick[f]));
            any = 1;
        }
    if (w <= 0 || (size_t)w >= sizeof nl || !any) {
        SPMV__ERR(e, "isa_table_save: %s", any ? "the line is too long" : "no format has a measured ISA");
        return SPMV_ERR_ARG;
    }
    return spmv__cal_save(path, 2, NULL, t, nl, make_dirs, "isa_table_save", e);
}
static inline spmv_status spmv__cal_save_locked(const char *path, int kind, const spmv_calibration *c,
                                                const spmv_isa_table *t, const char *newline, spmv_error *e) {
    char line[SPMV__CAL_LINE], *keep = NULL;
    const char *mine = kind == 1 ? c->machine : t->machine;
    int nkeep = 0, cap = 0, ln = 0, ours = 1, k;
    spmv_calibration lc;
    spmv_isa_table lt;
    spmv__mm_writer w;
    spmv_status st;
    FILE *f;
    if ((f = fopen(path, "r")) != NULL) {
        while (fgets(line, sizeof line, f)) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = 0;
            if (++ln == 1) {
                ours = !strcmp(line, SPMV__CAL_HEADER);
                if (!ours) break;
                continue;
            }
            if (!nl && !feof(f)) k = 0; /* a line too long: damaged */
            else k = spmv__cal_line(line, &lc, &lt);
            if (!k || strcmp(k == 1 ? lc.machine : lt.machine, mine)) {
                nkeep = 0; /* damaged or another machine's: replaced */
                break;
            }
            if (k == kind && (k == 1 ? spmv__cal_same_key(&lc, c)
                                     : lt.threads == t->threads && lt.value_bytes == t->value_bytes &&
                                           lt.index_bytes == t->index_bytes))
                continue;
            if (nkeep == cap) {
                char *k2 = (char *)realloc(keep, (size_t)(cap = cap ? 2 * cap : 16) * sizeof line);
                if (!k2) {
                    fclose(f);
                    free(keep);
                    SPMV__ERR(e, "calibration_save: out of memory");
                    return SPMV_ERR_ALLOC;
                }
                keep = k2;
            }
            memcpy(keep + (size_t)nkeep++ * sizeof line, line, sizeof line);
        }
        fclose(f);
        if (ln == 0) ours = 0; /* an empty file is not one of ours either */
        if (!ours) {
            free(keep);
            SPMV__ERR(e, "'%.100s' is not a calibration file: not replaced", path);
            return SPMV_ERR_IO;
        }
    }
    if ((st = spmv__mm_wopen(&w, path, e)) != SPMV_OK) {
        free(keep);
        return st;
    }
    spmv__mm_wprintf(&w, "%s\n", SPMV__CAL_HEADER);
    for (ln = 0; ln < nkeep; ln++) spmv__mm_wprintf(&w, "%s\n", keep + (size_t)ln * sizeof line);
    free(keep);
    spmv__mm_wprintf(&w, "%s\n", newline);
    return spmv__mm_wclose(&w, path, e);
}

/* ---- SPMV_ISA_AUTO per format: the calibrated picks, read once per version of the file ----
 * The builders resolve SPMV_ISA_AUTO through spmv_isa_for at every build; the picks of this
 * machine's file are kept per process (per translation unit in the header-only build) and read
 * again when the file is replaced (its inode, size or time change: a save renames a new file
 * into place), so a build costs a stat, not a read. A lock of atomic builtins guards them. */
#define SPMV__ISA_KEYS 32
typedef struct spmv__isa_cache {
    int lock, n;
    char path[512];
    long long dev, ino, size, mtime;
    struct {
        int threads, vb, ib;
        unsigned char pick[SPMV_FMT_COUNT_];
    } k[SPMV__ISA_KEYS];
} spmv__isa_cache;
/* the picks of path (this machine's "isas" lines, a damaged file: none) into C */
static inline void spmv__isa_cache_read(spmv__isa_cache *C, const char *path) {
    char line[SPMV__CAL_LINE], here[128];
    spmv_isa_table t;
    int ln = 0, f;
    FILE *fp = fopen(path, "r");
    C->n = 0;
    if (!fp) return;
    spmv_calibration_machine(here, sizeof here);
    while (C->n < SPMV__ISA_KEYS && fgets(line, sizeof line, fp)) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (++ln == 1 ? strcmp(line, SPMV__CAL_HEADER) != 0 : !nl && !feof(fp)) break;
        if (ln == 1 || !spmv__isa_parse(line, &t) || strcmp(t.machine, here)) continue;
        C->k[C->n].threads = t.threads, C->k[C->n].vb = t.value_bytes, C->k[C->n].ib = t.index_bytes;
        for (f = 0; f < SPMV_FMT_COUNT_; f++) C->k[C->n].pick[f] = (unsigned char)t.pick[f];
        C->n++;
    }
    fclose(fp);
}
/* the calibrated pick of f for these sizes at the current thread count (the nearest thread
 * count measured when this one was not); SPMV_ISA_AUTO when the file has none */
static inline spmv_isa spmv__isa_pick(spmv_format f, int vb, int ib) {
    static spmv__isa_cache C;
    char path[512];
    struct stat st;
    int i, best = -1, nt = spmv_max_threads(), have;
    spmv_isa r = SPMV_ISA_AUTO;
    if ((int)f < 0 || f >= SPMV_FMT_COUNT_) return r;
    have = spmv_calibration_default_path(path, sizeof path) && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    while (__atomic_exchange_n(&C.lock, 1, __ATOMIC_ACQUIRE)) {
    }
    if (!have) {
        C.n = 0, C.path[0] = 0;
    } else if (strcmp(C.path, path) || C.dev != (long long)st.st_dev || C.ino != (long long)st.st_ino ||
               C.size != (long long)st.st_size || C.mtime != (long long)st.st_mtime) {
        spmv__isa_cache_read(&C, path);
        snprintf(C.path, sizeof C.path, "%s", path);
        C.dev = (long long)st.st_dev, C.ino = (long long)st.st_ino, C.size = (long long)st.st_size;
        C.mtime = (long long)st.st_mtime;
    }
    for (i = 0; i < C.n; i++)
        if (C.k[i].vb == vb && C.k[i].ib == ib && C.k[i].pick[f] &&
            (best < 0 || abs(C.k[i].threads - nt) < abs(C.k[best].threads - nt)))
            best = i;
    if (best >= 0) r = (spmv_isa)C.k[best].pick[f];
    __atomic_store_n(&C.lock, 0, __ATOMIC_RELEASE);
    return r;
}
/* The ISA a build of format f (value key, index bytes) uses when asked for req: an explicit
 * ISA as spmv_isa_resolve; SPMV_ISA_AUTO is $SPMV_ISA when set, else the ISA this machine's
 * calibration measured fastest for f (`spmv calibrate`), else the built-in order (the widest the
 * CPU has); a row whose rules name another format's ISA (isa_as: csrdu) takes that format's.
 * *why (may be NULL): a static string naming which. */
static inline const spmv_format_rules *spmv__format_rules(spmv_format f); /* formats/auto.h */
SPMV_API spmv_status spmv_isa_for(spmv_format f, int value_bytes, int index_bytes, spmv_isa req, spmv_isa *out,
                                  const char **why) {
    const char *w = "asked for", *env = getenv("SPMV_ISA");
    const spmv_format_rules *r = spmv__format_rules(f);
    if (r && r->isa_as > 0) f = (spmv_format)(r->isa_as - 1); /* a row that builds with another's ISA */
    if (req == SPMV_ISA_AUTO && env && *env) {
        w = "SPMV_ISA";
    } else if (req == SPMV_ISA_AUTO) {
        const spmv_isa p = spmv__isa_pick(f, value_bytes, index_bytes);
        if (p != SPMV_ISA_AUTO && spmv_isa_supported(p)) req = p, w = "calibrated";
        else w = p != SPMV_ISA_AUTO ? "built-in order (the calibrated ISA is not here)" : "built-in order";
    }
    if (why) *why = w;
    {
        const spmv_isa asked = req;
        spmv_status st = spmv_isa_resolve(req, out);
        /* 16-bit values: the AVX2 kernels convert with F16C, the AVX-512 ones load with AVX-512BW */
        if (st == SPMV_OK && (value_bytes & 0xFF) == 2 && !spmv__isa_converts16(*out)) {
            if (asked != SPMV_ISA_AUTO || (env && *env)) return SPMV_ERR_ISA;
            *out = spmv__isa_converts16(SPMV_ISA_AVX2) ? SPMV_ISA_AVX2 : SPMV_ISA_GENERIC;
        }
        return st;
    }
}
#ifdef SPMV_IMPLEMENTATION_EXTRA
#pragma pop_macro("SPMV_API")
#endif
#endif /* SPMV_CALIB_COMMON */

#if defined(SPMV_PART_DEFS)
/* ---- the measurement (per value and index type; after formats/auto.h's bodies: it times
 * the selection's inspection too) ---- */
/* an n x n CSR with w entries in every row, a band around the diagonal (shifted at the edges),
 * its arrays first touched by the threads that will read them */
static inline spmv_status SPMV_NAME(cal__band)(SPMV_NAME(csr) *A, int64_t n, int w, spmv_isa isa) {
    int64_t r;
    memset(A, 0, sizeof *A);
    A->row_ptr = SPMV_ALLOC_N(SPMV_I, (size_t)n + 1);
    A->col_idx = SPMV_ALLOC_N(SPMV_I, (size_t)(n * w));
    A->val = SPMV_ALLOC_N(SPMV_T, (size_t)(n * w));
    if (!A->row_ptr || !A->col_idx || !A->val) {
        SPMV_NAME(csr_free)(A);
        return SPMV_ERR_ALLOC;
    }
SPMV_OMP(parallel for schedule(static))
    for (r = 0; r < n; r++) {
        int64_t s = r - w / 2, k;
        if (s < 0) s = 0;
        if (s + w > n) s = n - w;
        A->row_ptr[r] = (SPMV_I)(r * w);
        for (k = 0; k < w; k++) {
            A->col_idx[r * w + k] = (SPMV_I)(s + k);
            A->val[r * w + k] = SPMV_VT(1 + (double)((r + k) % 5) / 8);
        }
    }
    A->row_ptr[n] = (SPMV_I)(n * w);
    A->nrows = A->ncols = (SPMV_I)n;
    A->nnz = (SPMV_I)(n * w);
    A->params = spmv_csr_params_default();
    A->params.isa = isa;
    A->cols_sorted = 1;
    SPMV_NAME(csr__plan)(A);
    return SPMV_OK;
}
/* the median of reps products of A (after two warm-ups) */
static inline double SPMV_NAME(cal__time)(const SPMV_NAME(csr) *A, const SPMV_Y *x, SPMV_Y *y, int reps) {
    double s[101];
    int i;
    if (reps > 101) reps = 101;
    SPMV_NAME(csr_mv)(A, 1, x, 0, y);
    SPMV_NAME(csr_mv)(A, 1, x, 0, y);
    for (i = 0; i < reps; i++) {
        const double t0 = spmv_wtime();
        SPMV_NAME(csr_mv)(A, 1, x, 0, y);
        s[i] = spmv_wtime() - t0;
    }
    return spmv__median(s, reps);
}

/* ---- the ISA of every host format, measured (spmv calibrate; SPMV_ISA_AUTO follows it) ---- */
/* the calibration matrix of a kind (spmv_calib_kind, formats/core/rules.h), about nnz entries */
static inline spmv_status SPMV_NAME(cal__kind)(SPMV_NAME(csr) *A, int kind, int64_t nnz, spmv_error *e) {
    static const int pts[] = {13, 7, 27, 72, 72}; /* entries per grid point or block row */
    char spec[96];
    spmv_triplets t;
    spmv_status st;
    int64_t n = 1;
    const int k = kind >= 0 && kind <= (int)SPMV_CALIB_SYMMETRIC ? kind : 0;
    if (k == SPMV_CALIB_STENCIL7 || k == SPMV_CALIB_STENCIL27) {
        while ((n + 1) * (n + 1) * (n + 1) * pts[k] <= nnz) n++;
        snprintf(spec, sizeof spec, "stencil3d:n=%lld,pts=%d", (long long)n, pts[k]);
    } else {
        n = nnz / pts[k] > 64 ? nnz / pts[k] : 64;
        snprintf(spec, sizeof spec, k == SPMV_CALIB_ROWS ? "fem:n=%lld,bs=1,deg=13,dim=3" : "fem:n=%lld,bs=3%s",
                 (long long)n, k == SPMV_CALIB_SYMMETRIC ? ",sym=1" : "");
    }
    if ((st = spmv_gen(spec, &t, e)) != SPMV_OK) return st;
    st = SPMV_NAME(csr_from_triplets)(A, &t, NULL, e);
    spmv_triplets_free(&t);
    return st;
}
/* the median seconds of reps products of each of the n handles, interleaved (drift falls on
 * all alike), after two warm-ups each */
static inline void SPMV_NAME(cal__race)(SPMV_NAME(any) *M, int n, const SPMV_Y *x, SPMV_Y *y, int reps,
                                        double *out) {
    double s[SPMV_ISA_COUNT_][41];
    int i, r;
    if (reps > 41) reps = 41;
    for (i = 0; i < n; i++) {
        (void)SPMV_NAME(any_mv)(&M[i], 1, x, 0, y);
        (void)SPMV_NAME(any_mv)(&M[i], 1, x, 0, y);
    }
    for (r = 0; r < reps; r++)
        for (i = 0; i < n; i++) {
            const double t0 = spmv_wtime();
            (void)SPMV_NAME(any_mv)(&M[i], 1, x, 0, y);
            s[i][r] = spmv_wtime() - t0;
        }
    for (i = 0; i < n; i++) out[i] = spmv__median(s[i], reps);
}
/* every ISA of format f on A, timed into t->secs[f][isa][size] (0: the build failed) */
static inline spmv_status SPMV_NAME(cal__isas)(spmv_isa_table *t, spmv_format f, const SPMV_NAME(csr) *A,
                                              const SPMV_Y *x, SPMV_Y *y, int size) {
    SPMV_NAME(any) M[SPMV_ISA_COUNT_];
    int isa[SPMV_ISA_COUNT_], n = 0, i;
    double s[SPMV_ISA_COUNT_];
    spmv_status st = SPMV_OK;
    for (i = 1; i < (int)SPMV_ISA_COUNT_; i++) {
        spmv_opts o = spmv_opts_default();
        if (!spmv_isa_supported((spmv_isa)i)) continue;
        o.format = f;
        o.isa = (spmv_isa)i;
        st = SPMV_NAME(any_from_csr)(&M[n], A, &o, NULL);
        if (st == SPMV_ERR_ALLOC) break;
        if (st == SPMV_OK) isa[n++] = i;
        st = SPMV_OK;
    }
    if (st == SPMV_OK && n > 0) SPMV_NAME(cal__race)(M, n, x, y, size ? 7 : 31, s);
    for (i = 0; i < n; i++) {
        if (st == SPMV_OK) t->secs[f][isa[i]][size] = s[i];
        SPMV_NAME(any_free)(&M[i]);
    }
    return st;
}
/* Measures this machine's CSR product (threads: 0 the current OpenMP setting; isa: the
 * products' ISA) into c: a small and a medium band in cache give the fixed cost and the rate
 * per entry, a band of twice the last-level cache (at least 64 MiB) the bandwidth and the cost
 * of fresh pages, the inspection on it the selection's cost per row. About 0.1-0.3 s. On
 * failure (SPMV_ERR_ALLOC, or an ISA this CPU lacks) c holds the built-in values. */
/* A tag with its own vector type (SPMV_VEC) would share its value type's key for the CSR costs
 * (value and index bytes): its measurements would replace that tag's line, so its CSR costs are
 * not calibrated (yet; the selection uses the value type's). Its ISA picks have their own key
 * (SPMV_VKEY_DS, _H, _B): spmv_<tag>_calibrate_isa measures them. */
#if SPMV__MIXED
#define SPMV__CAL_MIXED(e)                                                                                      \
    do {                                                                                                        \
        SPMV__ERR(e, "calibration of a tag whose vectors' type differs from its values' is not supported yet"); \
        return SPMV_ERR_UNSUPPORTED;                                                                            \
    } while (0)
#else
#define SPMV__CAL_MIXED(e) ((void)0)
#endif
SPMV_API spmv_status SPMV_NAME(calibrate)(spmv_calibration *c, int threads, spmv_isa isa, spmv_error *e) {
    const double t_start = spmv_wtime();
    SPMV_NAME(csr) A;
    SPMV_Y *x = NULL, *y = NULL;
    spmv_status st;
    spmv_isa ri;
    int prev = 0, nt = 1;
    double t1, t2, t3, touch;
    int64_t n3, q;
    spmv_auto_features F;
    if (e) e->line = 0, e->msg[0] = 0;
    SPMV__CAL_MIXED(e);
    if (!c || threads < 0 || threads > 4096) {
        SPMV__ERR(e, "calibrate: no calibration, or threads out of 0..4096");
        return SPMV_ERR_ARG;
    }
#ifdef _OPENMP
    prev = omp_get_max_threads();
    if (threads > 0) omp_set_num_threads(threads);
    nt = omp_get_max_threads();
#endif
    if ((st = SPMV_ISA_FOR(SPMV_FMT_CSR, isa, &ri)) != SPMV_OK) {
        spmv_calibration_builtin(c, nt, (int)sizeof(SPMV_T), (int)sizeof(SPMV_I), SPMV_ISA_GENERIC);
        SPMV__ERR(e, "calibrate: the ISA %s is not available here", spmv_isa_name(isa));
        goto out;
    }
    spmv_calibration_builtin(c, nt, (int)sizeof(SPMV_T), (int)sizeof(SPMV_I), ri);
    {
        /* twice the last-level cache, 64 MiB to 1 GiB, in 16-entry rows */
        double bytes = 2.0 * (double)spmv_machine_get()->llc_bytes;
        if (bytes < 64.0 * 1048576) bytes = 64.0 * 1048576;
        if (bytes > 1024.0 * 1048576) bytes = 1024.0 * 1048576;
        n3 = (int64_t)(bytes / (16.0 * (sizeof(SPMV_T) + sizeof(SPMV_I)) + 3.0 * sizeof(SPMV_Y)));
        if ((double)n3 * 16 > (double)SPMV_IMAX) n3 = SPMV_IMAX / 16;
    }
    x = SPMV_ALLOC_N(SPMV_Y, (size_t)n3);
    y = SPMV_ALLOC_N(SPMV_Y, (size_t)n3);
    if (!x || !y) {
        st = SPMV_ERR_ALLOC;
        SPMV__ERR(e, "calibrate: out of memory");
        goto out;
    }
SPMV_OMP(parallel for schedule(static))
    for (q = 0; q < n3; q++) x[q] = (SPMV_Y)1 + (SPMV_Y)(q % 7) / (SPMV_Y)8, y[q] = 0;
    /* in cache: 8k and 262k entries (both above SPMV_CSR_PAR_MIN: parallel) */
    if ((st = SPMV_NAME(cal__band)(&A, 1024, 8, ri)) != SPMV_OK) goto oom;
    t1 = SPMV_NAME(cal__time)(&A, x, y, 101);
    SPMV_NAME(csr_free)(&A);
    if ((st = SPMV_NAME(cal__band)(&A, 32768, 8, ri)) != SPMV_OK) goto oom;
    t2 = SPMV_NAME(cal__time)(&A, x, y, 31);
    SPMV_NAME(csr_free)(&A);
    c->cache_s = (t2 - t1) / (262144.0 - 8192.0);
    if (!(c->cache_s > 1e-14)) c->cache_s = t2 / 262144.0; /* noise: t2 at or below t1 */
    c->fixed_s = t1 - 8192.0 * c->cache_s;
    if (c->fixed_s < 0) c->fixed_s = 0;
    /* from memory: first touch, then the products */
    touch = spmv_wtime();
    if ((st = SPMV_NAME(cal__band)(&A, n3, 16, ri)) != SPMV_OK) goto oom;
    touch = spmv_wtime() - touch;
    c->fresh_s_per_mb = touch / ((double)SPMV_NAME(csr_bytes)(&A) / 1048576.0);
    t3 = SPMV_NAME(cal__time)(&A, x, y, 7);
    {
        const double b = (double)n3 * 16 * (sizeof(SPMV_T) + sizeof(SPMV_I)) + (double)(n3 + 1) * sizeof(SPMV_I) +
                         2.0 * (double)n3 * sizeof(SPMV_Y);
        c->bw = b / (t3 > c->fixed_s ? t3 - c->fixed_s : t3);
    }
    {
        const double f0 = spmv_wtime();
        const int64_t nnz = n3 * 16, samp = nnz <= 32768 ? nnz : (nnz / 64 > 32768 ? nnz / 64 : 32768);
        st = SPMV_NAME(auto_features)(&A, &F);
        c->feat_s = (spmv_wtime() - f0) / (double)(n3 + samp + spmv_auto__slab(nnz)); /* + BCSR's slab */
    }
    SPMV_NAME(csr_free)(&A);
    if (st != SPMV_OK) goto oom;
    if (c->bw > 1e13) c->bw = 1e13; /* the file's ranges */
    if (c->bw < 1e8) c->bw = 1e8;
    if (c->cache_s > 1e-6) c->cache_s = 1e-6;
    if (c->fixed_s > 1e-2) c->fixed_s = 1e-2;
    if (c->fresh_s_per_mb > 1) c->fresh_s_per_mb = 1;
    if (c->feat_s > 1e-5) c->feat_s = 1e-5;
    c->measured = 1;
    c->measure_s = spmv_wtime() - t_start;
    goto out;
oom:
    spmv_calibration_builtin(c, nt, (int)sizeof(SPMV_T), (int)sizeof(SPMV_I), ri);
    SPMV__ERR(e, "calibrate: out of memory");
out:
    spmv__free(x);
    spmv__free(y);
#ifdef _OPENMP
    omp_set_num_threads(prev);
#endif
    (void)prev;
    return st;
}
/* every size of the ISA calibration of the kind's formats (those of `want`) */
static inline spmv_status SPMV_NAME(cal__kind_all)(spmv_isa_table *t, int kind, const unsigned char *want,
                                                  const int64_t *sizes, spmv_error *e) {
    SPMV_NAME(csr) A;
    SPMV_Y *x = NULL, *y = NULL;
    spmv_status st = SPMV_OK;
    int size, f;
    for (size = 0; size < 2 && st == SPMV_OK; size++) {
        if ((st = SPMV_NAME(cal__kind)(&A, kind, sizes[size], e)) != SPMV_OK) break;
        x = SPMV_ALLOC_N(SPMV_Y, (size_t)A.ncols + 1);
        y = SPMV_ALLOC_N(SPMV_Y, (size_t)A.nrows + 1);
        if (!x || !y) st = SPMV_ERR_ALLOC;
        for (f = 0; f < A.ncols && st == SPMV_OK; f++) x[f] = (SPMV_Y)1 + (SPMV_Y)(f % 7) / (SPMV_Y)8;
        for (f = 0; f < SPMV_FMT_COUNT_ && st == SPMV_OK; f++)
            if (want[f] && spmv__format_rules((spmv_format)f)->calib_kind == kind)
                st = SPMV_NAME(cal__isas)(t, (spmv_format)f, &A, x, y, size);
        spmv__free(x);
        spmv__free(y);
        x = y = NULL;
        SPMV_NAME(csr_free)(&A);
    }
    if (st == SPMV_ERR_ALLOC) SPMV__ERR(e, "calibrate_isa: out of memory");
    return st;
}
/* Measures, for every host format (formats: NULL, or SPMV_FMT_COUNT_ flags naming those to
 * measure), each ISA this CPU has on the format's kind of matrix (its rules' calib_kind) in
 * cache (~260k entries) and beyond the last-level cache (1.5 times it, 48-512 MiB), and picks
 * the ISA with the least product of the two times (t->pick; SPMV_ISA_AUTO where no ISA could
 * be built or timed). threads: 0 the current OpenMP setting. A few seconds per precision. */
SPMV_API spmv_status SPMV_NAME(calibrate_isa)(spmv_isa_table *t, int threads, const unsigned char *formats,
                                              spmv_error *e) {
    const double t0 = spmv_wtime();
    unsigned char want[SPMV_FMT_COUNT_];
    int64_t sizes[2];
    int prev = 0, f, i, kind, need[SPMV_CALIB_SYMMETRIC + 1] = {0};
    spmv_status st = SPMV_OK;
    double bytes = 1.5 * (double)spmv_machine_get()->llc_bytes;
    if (e) e->line = 0, e->msg[0] = 0;
    if (!t || threads < 0 || threads > 4096) {
        SPMV__ERR(e, "calibrate_isa: no table, or threads out of 0..4096");
        return SPMV_ERR_ARG;
    }
    memset(t, 0, sizeof *t);
#ifdef _OPENMP
    prev = omp_get_max_threads();
    if (threads > 0) omp_set_num_threads(threads);
#endif
    spmv_calibration_machine(t->machine, sizeof t->machine);
    t->threads = spmv_max_threads();
    t->value_bytes = SPMV__VKEY;
    t->index_bytes = (int)sizeof(SPMV_I);
    if (bytes < 48.0 * 1048576) bytes = 48.0 * 1048576;
    if (bytes > 512.0 * 1048576) bytes = 512.0 * 1048576;
    sizes[0] = 1 << 18;
    sizes[1] = (int64_t)(bytes / (double)(sizeof(SPMV_T) + sizeof(SPMV_I)));
    for (f = 0; f < SPMV_FMT_COUNT_; f++) {
        want[f] = (!formats || formats[f]) && (spmv_format_flags((spmv_format)f) & SPMV_FF_HOST) &&
                  spmv__format_rules((spmv_format)f) && !spmv__format_rules((spmv_format)f)->isa_as &&
                  SPMV_NAME(any_has)((spmv_format)f);
        if (want[f]) need[spmv__format_rules((spmv_format)f)->calib_kind] = 1;
    }
    for (kind = 0; kind <= (int)SPMV_CALIB_SYMMETRIC && st == SPMV_OK; kind++)
        if (need[kind]) st = SPMV_NAME(cal__kind_all)(t, kind, want, sizes, e);
    /* the widest ISA unless a narrower one is faster beyond the noise of a few percent (the
     * score multiplies two times: 0.96 is 2% on each) */
    for (f = 0; f < SPMV_FMT_COUNT_ && st == SPMV_OK; f++) {
        double best = 0;
        for (i = (int)SPMV_ISA_COUNT_ - 1; i >= 1; i--) {
            const double score = t->secs[f][i][0] * t->secs[f][i][1];
            if (score > 0 && (best == 0 || score < 0.96 * best)) best = score, t->pick[f] = (spmv_isa)i;
        }
    }
#ifdef _OPENMP
    omp_set_num_threads(prev);
#endif
    (void)prev;
    t->measure_s = spmv_wtime() - t0;
    return st;
}
#undef SPMV__CAL_MIXED
#endif /* SPMV_PART_DEFS */
