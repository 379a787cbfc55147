/* spmv Matrix Market I/O (non-generic part of the library).
 *
 *   spmv_status spmv_mm_read(const char *path, spmv_triplets *out, spmv_error *err);
 *       Coordinate files: field real | integer | pattern (value 1.0), symmetry general |
 *       symmetric (mirrored: (j,i) added for i != j) | skew-symmetric (mirrored with the
 *       negated value; a diagonal entry is a parse error). Duplicates are kept (the typed
 *       converters sum them). complex / hermitian -> SPMV_ERR_UNSUPPORTED.
 *       The result is 0-based; out->nnz is the expanded count (storage is sized for 2*nnz
 *       for symmetric files, allocated once from the size line).
 *   spmv_status spmv_mm_read_dense(const char *path, int64_t *n, double **v, spmv_error *err);
 *       Array files (real | integer, general) holding an m x 1 or 1 x n vector, column-major.
 *       *v is allocated with SPMV_ALLOC_N; the caller frees it with spmv__free.
 *   spmv_status spmv_mm_write(const char *path, const spmv_triplets *t, spmv_error *err);
 *       Coordinate real general, 1-based, values printed with "%.17g" (exact round trip).
 *   spmv_status spmv_mm_write_dense(const char *path, int64_t n, const double *v, spmv_error *err);
 *       Array real general, n x 1, "%.17g".
 *
 * Paths ending in ".gz" are read and written through zlib when SPMV_HAVE_ZLIB is defined
 * (link with -lz); without it they give SPMV_ERR_UNSUPPORTED. A plain path whose content
 * is gzip-compressed is detected by its magic bytes and handled the same way.
 *
 * Errors: `err` may be NULL. When given it always receives err->line (1-based line of the
 * problem, 0 if none) and err->msg (a message that starts with "line N: " when tied to a
 * line). On any failure the outputs are left empty (zeroed triplets, *n = 0, *v = NULL)
 * and nothing is leaked.
 *   SPMV_ERR_PARSE       malformed banner/size line/entry, wrong entry count, bad index or value
 *   SPMV_ERR_UNSUPPORTED complex or hermitian; gzip input without zlib
 *   SPMV_ERR_OVERFLOW    a size does not fit int64 (or 2*nnz for symmetric expansion)
 *   SPMV_ERR_IO          cannot open, read or write the file
 *   SPMV_ERR_ALLOC       out of memory
 *   SPMV_ERR_ARG         NULL path/out or invalid triplets given to a writer
 *
 * Speed: the file is read in 1 MiB chunks and split into lines in place; indices use a
 * hand-written integer parser and values an exact fast path (<= 19 significant digits,
 * Clinger's exact-power-of-ten case) with strtod as the fallback for everything else. */
#ifndef SPMV_MM_H
#define SPMV_MM_H

#include "../core/core.h"
#include <stdio.h>
#include <stdarg.h>
#include <errno.h>
#include <float.h>
#ifdef SPMV_HAVE_ZLIB
#include <zlib.h>
#endif

/* ---- error reporting ------------------------------------------------------ */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static inline spmv_status spmv__mm_err(spmv_error *err, long line, spmv_status st, const char *fmt, ...) {
    if (err) {
        va_list ap;
        int off = 0;
        err->line = line;
        err->msg[0] = '\0';
        if (line > 0) {
            off = snprintf(err->msg, sizeof err->msg, "line %ld: ", line);
            if (off < 0 || (size_t)off >= sizeof err->msg) off = 0;
        }
        va_start(ap, fmt);
        vsnprintf(err->msg + off, sizeof err->msg - (size_t)off, fmt, ap);
        va_end(ap);
    }
    return st;
}

static inline void spmv__mm_err_clear(spmv_error *err) {
    if (err) {
        err->line = 0;
        err->msg[0] = '\0';
    }
}

/* ---- small character helpers (ASCII, locale independent) ------------------- */
static inline int spmv__mm_isspace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline int spmv__mm_isend(char c) { return c == '\0' || spmv__mm_isspace(c); }
static inline const char *spmv__mm_skipws(const char *p) {
    while (spmv__mm_isspace(*p)) p++;
    return p;
}
static inline char spmv__mm_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* Case-insensitive compare of the token [s, s+n) with the NUL-terminated word w. */
static inline int spmv__mm_tokeq(const char *s, size_t n, const char *w) {
    size_t i;
    for (i = 0; i < n; i++)
        if (w[i] == '\0' || spmv__mm_lower(s[i]) != spmv__mm_lower(w[i])) return 0;
    return w[n] == '\0';
}

static inline int spmv__mm_has_gz_suffix(const char *path) {
    size_t n = strlen(path);
    return n >= 3 && path[n - 3] == '.' && spmv__mm_lower(path[n - 2]) == 'g' && spmv__mm_lower(path[n - 1]) == 'z';
}

/* Number of whitespace-separated fields in a line. */
static inline int spmv__mm_count_fields(const char *p) {
    int n = 0;
    for (;;) {
        p = spmv__mm_skipws(p);
        if (*p == '\0') return n;
        n++;
        while (!spmv__mm_isend(*p)) p++;
    }
}

/* Copies the token at p (up to 40 chars, "..." appended if longer) for messages. */
static inline const char *spmv__mm_tok(const char *p, char *buf, size_t cap) {
    size_t i = 0;
    p = spmv__mm_skipws(p);
    while (!spmv__mm_isend(p[i]) && i + 4 < cap && i < 40) {
        buf[i] = p[i];
        i++;
    }
    if (!spmv__mm_isend(p[i])) {
        buf[i++] = '.';
        buf[i++] = '.';
        buf[i++] = '.';
    }
    buf[i] = '\0';
    return buf;
}

/* ---- number parsing ------------------------------------------------------- */
/* Parses a decimal integer token at *pp (optional sign). Returns 0 on success (and advances
 * *pp past it), 1 if the token is not an integer, 2 if it is an integer that overflows int64. */
static inline int spmv__mm_parse_i64(const char **pp, int64_t *out) {
    const char *p = *pp;
    int neg = 0, nd = 0, nz = 0;
    uint64_t v = 0, lim;
    if (*p == '+' || *p == '-') {
        neg = (*p == '-');
        p++;
    }
    while (*p == '0') { /* leading zeros do not count towards the 19-digit limit */
        p++;
        nz++;
    }
    while (*p >= '0' && *p <= '9') { /* 19 digits always fit in uint64; more overflow int64 */
        v = v * 10u + (unsigned)(*p - '0');
        p++;
        nd++;
    }
    if (nd + nz == 0 || !spmv__mm_isend(*p)) return 1;
    lim = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
    if (nd > 19 || v > lim) return 2;
    if (neg) *out = (v == (uint64_t)INT64_MAX + 1u) ? INT64_MIN : -(int64_t)v;
    else *out = (int64_t)v;
    *pp = p;
    return 0;
}

/* On x86-64 with the 80-bit long double, decimals of up to 19 significant digits and
 * |exponent| <= 27 are converted exactly: m and 10^e are exact in a 64-bit significand, one
 * rounding to 64 bits leaves the value within half a long-double ulp, and the second rounding
 * to double is then provably correct unless the 11 extra bits sit next to the halfway point
 * (0x3ff..0x401), in which case strtod decides. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(_WIN32) && !defined(__CUDA_ARCH__) && \
    defined(LDBL_MANT_DIG) && LDBL_MANT_DIG == 64 && defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define SPMV__MM_LD_FAST 1
#else
#define SPMV__MM_LD_FAST 0
#endif

/* Parses a real token at *pp: exact fast path for short decimals, strtod otherwise (which
 * also gives nan, inf, hex floats). Returns 0 on success (advancing *pp), 1 if not a number. */
static inline int spmv__mm_parse_f64(const char **pp, double *out) {
    const char *p = *pp;
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && DBL_MANT_DIG == 53
    {
        static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        const char *q = p;
        int neg = 0, nd = 0, ndig = 0, e = 0, ok = 1;
        uint64_t m = 0;
        if (*q == '+' || *q == '-') {
            neg = (*q == '-');
            q++;
        }
        while (*q >= '0' && *q <= '9') {
            unsigned d = (unsigned)(*q - '0');
            if (m || d) {
                if (++nd > 19) ok = 0;
                m = m * 10u + d;
            }
            ndig++;
            q++;
        }
        if (*q == '.') {
            q++;
            while (*q >= '0' && *q <= '9') {
                unsigned d = (unsigned)(*q - '0');
                if (m || d) {
                    if (++nd > 19) ok = 0;
                    m = m * 10u + d;
                }
                e--;
                ndig++;
                q++;
            }
        }
        if (ndig > 0 && (*q == 'e' || *q == 'E')) {
            int eneg = 0, ed = 0, ev = 0;
            q++;
            if (*q == '+' || *q == '-') {
                eneg = (*q == '-');
                q++;
            }
            while (*q >= '0' && *q <= '9') {
                if (ev < 100000) ev = ev * 10 + (*q - '0');
                ed++;
                q++;
            }
            if (ed == 0) ok = 0;
            e += eneg ? -ev : ev;
        }
        if (ok && ndig > 0 && spmv__mm_isend(*q)) {
            double v;
            int exact = 1;
            if (m == 0) v = 0.0;
            else if (m <= ((uint64_t)1 << 53) && e >= 0 && e <= 22) v = (double)m * p10[e];
            else if (m <= ((uint64_t)1 << 53) && e < 0 && e >= -22) v = (double)m / p10[-e];
#if SPMV__MM_LD_FAST
            else if (e >= -27 && e <= 27) {
                static const long double p10l[28] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                                     1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                                     1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
                                                     1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
                long double y = e >= 0 ? (long double)m * p10l[e] : (long double)m / p10l[-e];
                uint64_t sig;
                unsigned low;
                memcpy(&sig, &y, sizeof sig); /* x87 format: the first 8 bytes are the significand */
                low = (unsigned)(sig & 0x7FFu);
                if (low >= 0x3FFu && low <= 0x401u) exact = 0, v = 0.0;
                else v = (double)y;
            }
#endif
            else exact = 0, v = 0.0;
            if (exact) {
                *out = neg ? -v : v;
                *pp = q;
                return 0;
            }
        }
    }
#endif
    {
        char *end = NULL;
        double v = strtod(p, &end);
        if (end == p || end == NULL || !spmv__mm_isend(*end)) return 1;
        *out = v;
        *pp = end;
        return 0;
    }
}

/* ---- buffered line reader over stdio or zlib ------------------------------- */
typedef struct spmv__mm_reader {
    FILE *fp;
    void *gz;          /* gzFile when SPMV_HAVE_ZLIB */
    char *buf;
    size_t cap, pos, end;
    int eof, ioerr, allocerr;
    long line;         /* number of lines returned so far */
    int64_t max_bytes; /* upper bound on the uncompressed size, -1 if unknown */
} spmv__mm_reader;

static inline void spmv__mm_close(spmv__mm_reader *r) {
    if (r->fp) fclose(r->fp);
#ifdef SPMV_HAVE_ZLIB
    if (r->gz) gzclose((gzFile)r->gz);
#endif
    spmv__free(r->buf);
    r->fp = NULL;
    r->gz = NULL;
    r->buf = NULL;
}

static inline size_t spmv__mm_raw_read(spmv__mm_reader *r, char *dst, size_t n) {
#ifdef SPMV_HAVE_ZLIB
    if (r->gz) {
        gzFile g = (gzFile)r->gz;
        int got, errnum = Z_OK;
        if (n > (1u << 30)) n = (size_t)1 << 30;
        got = gzread(g, dst, (unsigned)n);
        if (got < 0) {
            r->ioerr = 1;
            return 0;
        }
        if ((size_t)got < n) {
            gzerror(g, &errnum);
            if (errnum != Z_OK && errnum != Z_STREAM_END) {
                r->ioerr = 1;
                return 0;
            }
        }
        return (size_t)got;
    }
#endif
    {
        size_t got = fread(dst, 1, n, r->fp);
        if (got < n && ferror(r->fp)) r->ioerr = 1;
        return got;
    }
}

/* Size of a plain file in bytes, or -1. */
static inline int64_t spmv__mm_file_size(FILE *f) {
    long sz;
    if (fseek(f, 0, SEEK_END) != 0) return -1;
    sz = ftell(f);
    if (fseek(f, 0, SEEK_SET) != 0) return -2;
    return sz < 0 ? -1 : (int64_t)sz;
}

static inline spmv_status spmv__mm_open(spmv__mm_reader *r, const char *path, spmv_error *err) {
    int want_gz;
    memset(r, 0, sizeof *r);
    r->max_bytes = -1;
    r->cap = (size_t)1 << 20;
    r->buf = (char *)spmv__alloc(r->cap, 1);
    if (!r->buf) return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the read buffer");
    want_gz = spmv__mm_has_gz_suffix(path);
    if (!want_gz) {
        FILE *f = fopen(path, "rb");
        int64_t sz;
        if (!f) {
            int e = errno;
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot open '%s': %s", path, strerror(e));
        }
        sz = spmv__mm_file_size(f);
        if (sz == -2) {
            fclose(f);
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot rewind '%s'", path);
        }
        r->fp = f;
        r->max_bytes = sz;
        /* look at the first bytes: gzip content under a plain name */
        r->end = spmv__mm_raw_read(r, r->buf, r->cap - 1);
        if (r->ioerr) {
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot read '%s'", path);
        }
        if (r->end >= 2 && (unsigned char)r->buf[0] == 0x1f && (unsigned char)r->buf[1] == 0x8b) {
            fclose(r->fp);
            r->fp = NULL;
            r->end = 0;
            want_gz = 1;
        } else {
            if (r->end == 0) r->eof = 1;
            return SPMV_OK;
        }
    }
#ifdef SPMV_HAVE_ZLIB
    {
        gzFile g;
        FILE *f = fopen(path, "rb");
        if (!f) {
            int e = errno;
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot open '%s': %s", path, strerror(e));
        }
        {
            int64_t sz = spmv__mm_file_size(f);
            /* deflate expands at most ~1032:1 */
            if (sz >= 0 && sz < INT64_MAX / 2048) r->max_bytes = sz * 1032 + 4096;
        }
        fclose(f);
        g = gzopen(path, "rb");
        if (!g) {
            int e = errno;
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot open '%s': %s", path, e ? strerror(e) : "gzopen failed");
        }
        gzbuffer(g, 1u << 18);
        r->gz = (void *)g;
        return SPMV_OK;
    }
#else
    (void)want_gz;
    spmv__mm_close(r);
    return spmv__mm_err(err, 0, SPMV_ERR_UNSUPPORTED,
                        "'%s' is gzip-compressed but zlib support is not compiled in (build with -DSPMV_HAVE_ZLIB -lz)",
                        path);
#endif
}

/* Next line, NUL-terminated, without its '\n' (and a trailing '\r'). NULL at end of file
 * or on error (r->ioerr / r->allocerr). Lines of any length are supported. */
static inline char *spmv__mm_getline(spmv__mm_reader *r) {
    for (;;) {
        char *s = r->buf + r->pos;
        size_t avail = r->end - r->pos;
        char *nl = avail ? (char *)memchr(s, '\n', avail) : NULL;
        if (nl || (r->eof && avail)) {
            size_t n;
            if (nl) {
                n = (size_t)(nl - s);
                r->pos += n + 1;
            } else {
                n = avail; /* last line without newline; end < cap so s[n] is inside */
                r->pos = r->end;
            }
            s[n] = '\0';
            if (n && s[n - 1] == '\r') s[n - 1] = '\0';
            r->line++;
            return s;
        }
        if (r->eof) return NULL;
        if (r->pos > 0) {
            if (avail) memmove(r->buf, s, avail);
            r->pos = 0;
            r->end = avail;
        }
        if (r->end + 1 >= r->cap) { /* one line longer than the buffer: grow it */
            size_t ncap = r->cap * 2;
            char *nb = (char *)spmv__alloc(ncap, 1);
            if (!nb || ncap < r->cap) {
                spmv__free(nb);
                r->allocerr = 1;
                return NULL;
            }
            memcpy(nb, r->buf, r->end);
            spmv__free(r->buf);
            r->buf = nb;
            r->cap = ncap;
        }
        {
            size_t got = spmv__mm_raw_read(r, r->buf + r->end, r->cap - 1 - r->end);
            if (r->ioerr) return NULL;
            if (got == 0) r->eof = 1;
            r->end += got;
        }
    }
}

/* Status for a NULL from spmv__mm_getline when more lines were required. */
static inline spmv_status spmv__mm_eof_status(spmv__mm_reader *r, spmv_error *err, const char *what) {
    if (r->ioerr) return spmv__mm_err(err, r->line + 1, SPMV_ERR_IO, "read error (corrupt or truncated file?)");
    if (r->allocerr) return spmv__mm_err(err, r->line + 1, SPMV_ERR_ALLOC, "out of memory (line too long)");
    return spmv__mm_err(err, r->line + 1, SPMV_ERR_PARSE, "unexpected end of file: %s", what);
}

/* Next line that is neither blank nor a '%' comment (leading whitespace skipped). */
static inline const char *spmv__mm_next_data(spmv__mm_reader *r) {
    for (;;) {
        const char *s = spmv__mm_getline(r);
        if (!s) return NULL;
        s = spmv__mm_skipws(s);
        if (*s != '\0' && *s != '%') return s;
    }
}

/* ---- header --------------------------------------------------------------- */
enum { SPMV__MM_REAL = 0, SPMV__MM_INTEGER, SPMV__MM_PATTERN, SPMV__MM_COMPLEX };
enum { SPMV__MM_GENERAL = 0, SPMV__MM_SYMMETRIC, SPMV__MM_SKEW, SPMV__MM_HERMITIAN };

typedef struct spmv__mm_header {
    int array; /* 0 coordinate, 1 array */
    int field;
    int sym;
} spmv__mm_header;

#define SPMV__MM_BANNER_HELP \
    "expected '%%%%MatrixMarket matrix coordinate|array real|integer|pattern general|symmetric|skew-symmetric'"

static inline spmv_status spmv__mm_read_banner(spmv__mm_reader *r, spmv__mm_header *h, spmv_error *err) {
    const char *tok[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    size_t len[6] = {0, 0, 0, 0, 0, 0};
    int nt = 0;
    char tb[48];
    const char *p = spmv__mm_getline(r);
    memset(h, 0, sizeof *h);
    if (!p) {
        if (r->ioerr || r->allocerr) return spmv__mm_eof_status(r, err, "");
        return spmv__mm_err(err, 1, SPMV_ERR_PARSE, "empty file: missing %%%%MatrixMarket banner");
    }
    for (;;) {
        p = spmv__mm_skipws(p);
        if (*p == '\0' || nt == 6) break;
        tok[nt] = p;
        while (!spmv__mm_isend(*p)) p++;
        len[nt] = (size_t)(p - tok[nt]);
        nt++;
    }
    if (nt == 0 || !spmv__mm_tokeq(tok[0], len[0], "%%MatrixMarket"))
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "missing or malformed %%%%MatrixMarket banner; " SPMV__MM_BANNER_HELP);
    if (nt < 5)
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "malformed banner: only %d of 5 words; " SPMV__MM_BANNER_HELP, nt);
    if (nt > 5)
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "malformed banner: unexpected extra word '%s'",
                            spmv__mm_tok(tok[5], tb, sizeof tb));
    if (!spmv__mm_tokeq(tok[1], len[1], "matrix"))
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "unknown object '%s' in banner (expected 'matrix')",
                            spmv__mm_tok(tok[1], tb, sizeof tb));
    if (spmv__mm_tokeq(tok[2], len[2], "coordinate")) h->array = 0;
    else if (spmv__mm_tokeq(tok[2], len[2], "array")) h->array = 1;
    else
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "unknown format '%s' in banner (expected 'coordinate' or 'array')",
                            spmv__mm_tok(tok[2], tb, sizeof tb));
    if (spmv__mm_tokeq(tok[3], len[3], "real")) h->field = SPMV__MM_REAL;
    else if (spmv__mm_tokeq(tok[3], len[3], "integer")) h->field = SPMV__MM_INTEGER;
    else if (spmv__mm_tokeq(tok[3], len[3], "pattern")) h->field = SPMV__MM_PATTERN;
    else if (spmv__mm_tokeq(tok[3], len[3], "complex")) h->field = SPMV__MM_COMPLEX;
    else
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE,
                            "unknown field '%s' in banner (expected real, integer, pattern or complex)",
                            spmv__mm_tok(tok[3], tb, sizeof tb));
    if (spmv__mm_tokeq(tok[4], len[4], "general")) h->sym = SPMV__MM_GENERAL;
    else if (spmv__mm_tokeq(tok[4], len[4], "symmetric")) h->sym = SPMV__MM_SYMMETRIC;
    else if (spmv__mm_tokeq(tok[4], len[4], "skew-symmetric")) h->sym = SPMV__MM_SKEW;
    else if (spmv__mm_tokeq(tok[4], len[4], "hermitian")) h->sym = SPMV__MM_HERMITIAN;
    else
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE,
                            "unknown symmetry '%s' in banner (expected general, symmetric, skew-symmetric or hermitian)",
                            spmv__mm_tok(tok[4], tb, sizeof tb));
    if (h->field == SPMV__MM_COMPLEX)
        return spmv__mm_err(err, r->line, SPMV_ERR_UNSUPPORTED, "complex matrices are not supported (field 'complex')");
    if (h->sym == SPMV__MM_HERMITIAN)
        return spmv__mm_err(err, r->line, SPMV_ERR_UNSUPPORTED, "hermitian matrices are not supported");
    if (h->field == SPMV__MM_PATTERN && h->array)
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "field 'pattern' is not valid with format 'array'");
    if (h->field == SPMV__MM_PATTERN && h->sym == SPMV__MM_SKEW)
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "field 'pattern' is not valid with symmetry 'skew-symmetric'");
    return SPMV_OK;
}

/* Parses the size line: `want` (2 or 3) non-negative integers. */
static inline spmv_status spmv__mm_read_size(spmv__mm_reader *r, int want, int64_t *sz, spmv_error *err) {
    static const char *const names[3] = {"rows", "columns", "nonzeros"};
    const char *line = spmv__mm_next_data(r);
    const char *p = line;
    const char *what = want == 3 ? "'rows cols nnz'" : "'rows cols'";
    int i, nf;
    char tb[48];
    if (!line) {
        if (r->ioerr || r->allocerr) return spmv__mm_eof_status(r, err, "");
        return spmv__mm_err(err, r->line + 1, SPMV_ERR_PARSE, "unexpected end of file: missing size line %s", what);
    }
    nf = spmv__mm_count_fields(line);
    if (nf != want)
        return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "malformed size line: expected %d fields %s, got %d", want,
                            what, nf);
    for (i = 0; i < want; i++) {
        int rc;
        p = spmv__mm_skipws(p);
        rc = spmv__mm_parse_i64(&p, &sz[i]);
        if (rc == 2)
            return spmv__mm_err(err, r->line, SPMV_ERR_OVERFLOW, "size line: number of %s '%s' does not fit in 64 bits",
                                names[i], spmv__mm_tok(p, tb, sizeof tb));
        if (rc != 0)
            return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "malformed size line: number of %s '%s' is not an integer",
                                names[i], spmv__mm_tok(p, tb, sizeof tb));
        if (sz[i] < 0)
            return spmv__mm_err(err, r->line, SPMV_ERR_PARSE, "malformed size line: negative number of %s (%lld)",
                                names[i], (long long)sz[i]);
    }
    return SPMV_OK;
}

/* ---- coordinate reader ------------------------------------------------------ */
static inline spmv_status spmv_mm_read(const char *path, spmv_triplets *out, spmv_error *err) {
    spmv__mm_reader rd;
    spmv__mm_header h;
    spmv_status st;
    int64_t sz[3], cap, k = 0, nread = 0, m, n, nnz;
    int64_t *ri = NULL, *ci = NULL;
    double *vv = NULL;
    int nfield;
    const char *fieldhelp;
    char tb[48];

    memset(&h, 0, sizeof h);
    memset(sz, 0, sizeof sz);
    spmv__mm_err_clear(err);
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out) return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_read: NULL %s", path ? "output" : "path");
    st = spmv__mm_open(&rd, path, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_read_banner(&rd, &h, err);
    if (st != SPMV_OK) goto fail;
    if (h.array) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE,
                          "dense 'array' format where a sparse 'coordinate' matrix was expected (use spmv_mm_read_dense for vectors)");
        goto fail;
    }
    st = spmv__mm_read_size(&rd, 3, sz, err);
    if (st != SPMV_OK) goto fail;
    m = sz[0];
    n = sz[1];
    nnz = sz[2];
    if (h.sym != SPMV__MM_GENERAL && m != n) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "%s matrix must be square, size line says %lld x %lld",
                          h.sym == SPMV__MM_SYMMETRIC ? "symmetric" : "skew-symmetric", (long long)m, (long long)n);
        goto fail;
    }
    cap = nnz;
    if (h.sym != SPMV__MM_GENERAL) {
        if (nnz > INT64_MAX / 2) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld nonzeros overflow 64 bits when the symmetric matrix is expanded",
                              (long long)nnz);
            goto fail;
        }
        cap = 2 * nnz;
    }
    /* a file cannot hold more entries than (bytes + 1) / 4 ("1 1\n" per entry) */
    if (rd.max_bytes >= 0) {
        int64_t fit = rd.max_bytes / 4 + 1;
        if (h.sym != SPMV__MM_GENERAL) fit *= 2;
        if (cap > fit) cap = fit;
    }
    if ((uint64_t)cap > (uint64_t)(SIZE_MAX / sizeof(int64_t) / 2)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld nonzeros do not fit in memory addressing", (long long)nnz);
        goto fail;
    }
    ri = SPMV_ALLOC_N(int64_t, cap);
    ci = SPMV_ALLOC_N(int64_t, cap);
    vv = SPMV_ALLOC_N(double, cap);
    if (!ri || !ci || !vv) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_ALLOC, "out of memory for %lld nonzeros", (long long)nnz);
        goto fail;
    }
    nfield = h.field == SPMV__MM_PATTERN ? 2 : 3;
    fieldhelp = nfield == 2 ? "(row col)" : "(row col value)";

    while (nread < nnz) {
        const char *line = spmv__mm_next_data(&rd);
        const char *p = line, *tokstart;
        int64_t i = 0, j = 0;
        double x = 1.0;
        int rc;
        if (!line) {
            if (rd.ioerr || rd.allocerr) {
                st = spmv__mm_eof_status(&rd, err, "");
            } else {
                st = spmv__mm_err(err, rd.line + 1, SPMV_ERR_PARSE,
                                  "fewer entries than announced: expected %lld, found %lld before end of file",
                                  (long long)nnz, (long long)nread);
            }
            goto fail;
        }
        /* row */
        tokstart = p;
        rc = spmv__mm_parse_i64(&p, &i);
        if (rc == 1) {
            int nf = spmv__mm_count_fields(line);
            if (nf < nfield)
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected %d fields %s, got %d", nfield, fieldhelp, nf);
            else
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "invalid row index '%s'", spmv__mm_tok(p, tb, sizeof tb));
            goto fail;
        }
        if (rc == 2 || i < 1 || i > m) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "row index %s out of range 1..%lld",
                              spmv__mm_tok(tokstart, tb, sizeof tb), (long long)m);
            goto fail;
        }
        p = spmv__mm_skipws(p);
        tokstart = p;
        rc = spmv__mm_parse_i64(&p, &j);
        if (rc == 1) {
            if (*p == '\0')
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected %d fields %s, got 1", nfield, fieldhelp);
            else
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "invalid column index '%s'", spmv__mm_tok(p, tb, sizeof tb));
            goto fail;
        }
        if (rc == 2 || j < 1 || j > n) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "column index %s out of range 1..%lld",
                              spmv__mm_tok(tokstart, tb, sizeof tb), (long long)n);
            goto fail;
        }
        p = spmv__mm_skipws(p);
        if (nfield == 3) {
            if (*p == '\0') {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected 3 fields (row col value), got 2: missing value");
                goto fail;
            }
            if (spmv__mm_parse_f64(&p, &x) != 0) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "invalid %s value '%s'",
                                  h.field == SPMV__MM_INTEGER ? "integer" : "real", spmv__mm_tok(p, tb, sizeof tb));
                goto fail;
            }
            p = spmv__mm_skipws(p);
        }
        if (*p != '\0') {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "trailing garbage '%s' after %d fields %s",
                              spmv__mm_tok(p, tb, sizeof tb), nfield, fieldhelp);
            goto fail;
        }
        if (h.sym == SPMV__MM_SKEW && i == j) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "diagonal entry (%lld,%lld) in a skew-symmetric matrix",
                              (long long)i, (long long)j);
            goto fail;
        }
        if (k >= cap) { /* unreachable given the size bound, kept as a guard */
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more entries than the file size allows");
            goto fail;
        }
        ri[k] = i - 1;
        ci[k] = j - 1;
        vv[k] = x;
        k++;
        if (h.sym != SPMV__MM_GENERAL && i != j) {
            if (k >= cap) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more entries than the file size allows");
                goto fail;
            }
            ri[k] = j - 1;
            ci[k] = i - 1;
            vv[k] = h.sym == SPMV__MM_SKEW ? -x : x;
            k++;
        }
        nread++;
    }
    /* nothing but blank lines and comments may follow */
    if (spmv__mm_next_data(&rd) != NULL) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more entries than announced (%lld) on the size line",
                          (long long)nnz);
        goto fail;
    }
    if (rd.ioerr || rd.allocerr) {
        st = spmv__mm_eof_status(&rd, err, "");
        goto fail;
    }
    spmv__mm_close(&rd);
    out->nrows = m;
    out->ncols = n;
    out->nnz = k;
    out->row = ri;
    out->col = ci;
    out->val = vv;
    return SPMV_OK;
fail:
    spmv__free(ri);
    spmv__free(ci);
    spmv__free(vv);
    spmv__mm_close(&rd);
    return st;
}

/* ---- dense (array) vector reader ------------------------------------------- */
static inline spmv_status spmv_mm_read_dense(const char *path, int64_t *n_out, double **v_out, spmv_error *err) {
    spmv__mm_reader rd;
    spmv__mm_header h;
    spmv_status st;
    int64_t sz[2], len, cap, k = 0;
    double *v = NULL;
    char tb[48];

    memset(&h, 0, sizeof h);
    memset(sz, 0, sizeof sz);
    spmv__mm_err_clear(err);
    if (n_out) *n_out = 0;
    if (v_out) *v_out = NULL;
    if (!path || !n_out || !v_out) return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_read_dense: NULL argument");
    st = spmv__mm_open(&rd, path, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_read_banner(&rd, &h, err);
    if (st != SPMV_OK) goto fail;
    if (!h.array) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE,
                          "sparse 'coordinate' format where a dense 'array' vector was expected (use spmv_mm_read for matrices)");
        goto fail;
    }
    if (h.sym != SPMV__MM_GENERAL) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_UNSUPPORTED, "only 'general' array vectors are supported");
        goto fail;
    }
    st = spmv__mm_read_size(&rd, 2, sz, err);
    if (st != SPMV_OK) goto fail;
    if (sz[0] != 1 && sz[1] != 1 && !(sz[0] == 0 || sz[1] == 0)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected a vector (m x 1 or 1 x n), got a %lld x %lld array",
                          (long long)sz[0], (long long)sz[1]);
        goto fail;
    }
    len = (sz[0] == 0 || sz[1] == 0) ? 0 : (sz[0] == 1 ? sz[1] : sz[0]);
    /* a file cannot hold more than (bytes + 1) / 2 values ("1\n" each): allocate no more */
    cap = len;
    if (rd.max_bytes >= 0 && cap > rd.max_bytes / 2 + 1) cap = rd.max_bytes / 2 + 1;
    if ((uint64_t)cap > (uint64_t)(SIZE_MAX / sizeof(double))) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld values do not fit in memory addressing", (long long)len);
        goto fail;
    }
    v = SPMV_ALLOC_N(double, cap);
    if (!v) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_ALLOC, "out of memory for %lld values", (long long)len);
        goto fail;
    }
    while (k < len) {
        const char *line = spmv__mm_next_data(&rd);
        const char *p = line;
        double x;
        if (!line) {
            if (rd.ioerr || rd.allocerr) st = spmv__mm_eof_status(&rd, err, "");
            else
                st = spmv__mm_err(err, rd.line + 1, SPMV_ERR_PARSE,
                                  "fewer entries than announced: expected %lld values, found %lld before end of file",
                                  (long long)len, (long long)k);
            goto fail;
        }
        if (spmv__mm_parse_f64(&p, &x) != 0) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "invalid value '%s'", spmv__mm_tok(p, tb, sizeof tb));
            goto fail;
        }
        p = spmv__mm_skipws(p);
        if (*p != '\0') {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "trailing garbage '%s' after the value (one value per line)",
                              spmv__mm_tok(p, tb, sizeof tb));
            goto fail;
        }
        if (k >= cap) { /* unreachable given the size bound, kept as a guard */
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more values than the file size allows");
            goto fail;
        }
        v[k++] = x;
    }
    if (spmv__mm_next_data(&rd) != NULL) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more entries than announced (%lld) on the size line",
                          (long long)len);
        goto fail;
    }
    if (rd.ioerr || rd.allocerr) {
        st = spmv__mm_eof_status(&rd, err, "");
        goto fail;
    }
    spmv__mm_close(&rd);
    *n_out = len;
    *v_out = v;
    return SPMV_OK;
fail:
    spmv__free(v);
    spmv__mm_close(&rd);
    return st;
}

/* ---- buffered writer over stdio or zlib ------------------------------------- */
typedef struct spmv__mm_writer {
    FILE *fp;
    void *gz;
    char *buf;
    size_t len, cap;
    int failed;
} spmv__mm_writer;

static inline spmv_status spmv__mm_wopen(spmv__mm_writer *w, const char *path, spmv_error *err) {
    memset(w, 0, sizeof *w);
    w->cap = (size_t)1 << 20;
    w->buf = (char *)spmv__alloc(w->cap, 1);
    if (!w->buf) return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the write buffer");
    if (spmv__mm_has_gz_suffix(path)) {
#ifdef SPMV_HAVE_ZLIB
        gzFile g = gzopen(path, "wb3");
        if (!g) {
            int e = errno;
            spmv__free(w->buf);
            w->buf = NULL;
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, e ? strerror(e) : "gzopen failed");
        }
        w->gz = (void *)g;
        return SPMV_OK;
#else
        spmv__free(w->buf);
        w->buf = NULL;
        return spmv__mm_err(err, 0, SPMV_ERR_UNSUPPORTED,
                            "cannot write '%s': zlib support is not compiled in (build with -DSPMV_HAVE_ZLIB -lz)", path);
#endif
    }
    w->fp = fopen(path, "wb");
    if (!w->fp) {
        int e = errno;
        spmv__free(w->buf);
        w->buf = NULL;
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    return SPMV_OK;
}

static inline void spmv__mm_wflush(spmv__mm_writer *w) {
    if (w->failed || w->len == 0) {
        w->len = 0;
        return;
    }
#ifdef SPMV_HAVE_ZLIB
    if (w->gz) {
        if (gzwrite((gzFile)w->gz, w->buf, (unsigned)w->len) != (int)w->len) w->failed = 1;
        w->len = 0;
        return;
    }
#endif
    if (fwrite(w->buf, 1, w->len, w->fp) != w->len) w->failed = 1;
    w->len = 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void spmv__mm_wprintf(spmv__mm_writer *w, const char *fmt, ...) {
    va_list ap;
    int n;
    if (w->cap - w->len < 256) spmv__mm_wflush(w);
    va_start(ap, fmt);
    n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= w->cap - w->len) w->failed = 1;
    else w->len += (size_t)n;
}

/* Appends the decimal form of v (no terminator); returns the new end. */
static inline char *spmv__mm_fmt_i64(char *d, int64_t v) {
    char tmp[24];
    int n = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v < 0) *d++ = '-';
    do {
        tmp[n++] = (char)('0' + (int)(u % 10u));
        u /= 10u;
    } while (u);
    while (n) *d++ = tmp[--n];
    return d;
}

/* Appends x exactly as printf("%.17g") would: integers below 2^53 directly (that is what
 * %.17g prints for them), everything else through snprintf. */
static inline char *spmv__mm_fmt_f64(char *d, double x, size_t room) {
    if (x == x && x >= -9007199254740992.0 && x <= 9007199254740992.0 && (double)(int64_t)x == x) {
        if (x == 0.0 && 1.0 / x < 0) {
            *d++ = '-';
            *d++ = '0';
            return d;
        }
        return spmv__mm_fmt_i64(d, (int64_t)x);
    } else {
        int n = snprintf(d, room, "%.17g", x);
        return d + (n > 0 && (size_t)n < room ? n : 0);
    }
}

/* One "row col value\n" line; 1-based indices given. */
static inline void spmv__mm_wentry(spmv__mm_writer *w, int64_t i, int64_t j, double x) {
    char *d, *d0;
    if (w->cap - w->len < 256) spmv__mm_wflush(w);
    d0 = d = w->buf + w->len;
    d = spmv__mm_fmt_i64(d, i);
    *d++ = ' ';
    d = spmv__mm_fmt_i64(d, j);
    *d++ = ' ';
    d = spmv__mm_fmt_f64(d, x, 64);
    *d++ = '\n';
    w->len += (size_t)(d - d0);
}

static inline void spmv__mm_wvalue(spmv__mm_writer *w, double x) {
    char *d, *d0;
    if (w->cap - w->len < 256) spmv__mm_wflush(w);
    d0 = d = w->buf + w->len;
    d = spmv__mm_fmt_f64(d, x, 64);
    *d++ = '\n';
    w->len += (size_t)(d - d0);
}

/* Flushes and closes; on failure the partial file is removed. */
static inline spmv_status spmv__mm_wclose(spmv__mm_writer *w, const char *path, spmv_error *err) {
    spmv__mm_wflush(w);
#ifdef SPMV_HAVE_ZLIB
    if (w->gz && gzclose((gzFile)w->gz) != Z_OK) w->failed = 1;
#endif
    if (w->fp && fclose(w->fp) != 0) w->failed = 1;
    w->gz = NULL;
    w->fp = NULL;
    spmv__free(w->buf);
    w->buf = NULL;
    if (w->failed) {
        remove(path);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "error writing '%s' (disk full?)", path);
    }
    return SPMV_OK;
}

static inline spmv_status spmv_mm_write(const char *path, const spmv_triplets *t, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    int64_t k;
    spmv__mm_err_clear(err);
    if (!path || !t) return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: NULL %s", path ? "matrix" : "path");
    if (t->nrows < 0 || t->ncols < 0 || t->nnz < 0 || (t->nnz > 0 && (!t->row || !t->col || !t->val)))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: invalid triplets (negative size or missing arrays)");
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] < 0 || t->row[k] >= t->nrows || t->col[k] < 0 || t->col[k] >= t->ncols)
            return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: entry %lld (%lld,%lld) outside the %lld x %lld matrix",
                                (long long)k, (long long)t->row[k], (long long)t->col[k], (long long)t->nrows,
                                (long long)t->ncols);
    st = spmv__mm_wopen(&w, path, err);
    if (st != SPMV_OK) return st;
    spmv__mm_wprintf(&w, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n", (long long)t->nrows,
                     (long long)t->ncols, (long long)t->nnz);
    for (k = 0; k < t->nnz && !w.failed; k++) spmv__mm_wentry(&w, t->row[k] + 1, t->col[k] + 1, t->val[k]);
    return spmv__mm_wclose(&w, path, err);
}

static inline spmv_status spmv_mm_write_dense(const char *path, int64_t n, const double *v, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    int64_t k;
    spmv__mm_err_clear(err);
    if (!path || n < 0 || (n > 0 && !v))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write_dense: NULL path/vector or negative length");
    st = spmv__mm_wopen(&w, path, err);
    if (st != SPMV_OK) return st;
    spmv__mm_wprintf(&w, "%%%%MatrixMarket matrix array real general\n%lld 1\n", (long long)n);
    for (k = 0; k < n && !w.failed; k++) spmv__mm_wvalue(&w, v[k]);
    return spmv__mm_wclose(&w, path, err);
}

#endif /* SPMV_MM_H */
