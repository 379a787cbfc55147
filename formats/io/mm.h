/* spmv Matrix Market I/O (non-generic part of the library).
 *
 *   spmv_status spmv_mm_read(const char *path, spmv_triplets *out, spmv_error *err);
 *       Coordinate files: field real | integer | pattern (value 1.0), symmetry general |
 *       symmetric (mirrored: (j,i) added for i != j) | skew-symmetric (mirrored with the
 *       negated value; a diagonal entry is kept once, not mirrored, as scipy and
 *       fast_matrix_market read it). Duplicates are kept (the typed converters sum them).
 *       complex -> SPMV_ERR_UNSUPPORTED (read with the flag below). The result is 0-based;
 *       out->nnz is the expanded count; out->vim NULL.
 *   spmv_status spmv_mm_read_opts(const char *path, spmv_triplets *out, int flags, int *one_triangle,
 *                                 spmv_error *err);
 *       The same with flags: SPMV_MM_ONE_TRIANGLE keeps a `symmetric` file's entries as stored
 *       (one triangle, not mirrored: half the memory; build sss with sss_from_triangle) and
 *       sets *one_triangle (may be NULL) to 1 when it did so, 2 for a `hermitian` file kept so
 *       (with SPMV_MM_COMPLEX; sss_from_triangle with params.herm = 1), 0 for any other file
 *       (read as spmv_mm_read reads it, skew-symmetric ones mirrored). SPMV_MM_COMPLEX reads a `complex`
 *       file (general, symmetric, skew-symmetric, hermitian: the mirrored entry the conjugate)
 *       with the imaginary parts in out->vim (NULL for the other fields), for the complex
 *       tags' converters; a real tag's converter refuses triplets with imaginary parts.
 *   spmv_status spmv_mm_read_dense(const char *path, int64_t *n, double **v, spmv_error *err);
 *       Array files (real | integer, general) holding an m x 1 or 1 x n vector, column-major.
 *       *v is allocated by the library; the caller frees it with spmv_free(*v).
 *   spmv_status spmv_mm_read_array(const char *path, int64_t *m, int64_t *n, double **v, spmv_error *err);
 *       The same for an m x n array (k vectors side by side: n = k), column-major v[j*m + i].
 *   spmv_status spmv_mm_read_array_complex(path, m, n, v, err): the same, 'array complex general'
 *       too (a real or integer file: imaginary parts 0), v holding m*n (re, im) pairs.
 *   spmv_status spmv_mm_write_array(const char *path, FILE *f, int64_t m, int64_t n, const double *v,
 *                                   spmv_error *err);
 *       An m x n array, column-major, to path (beside it, renamed into place) or, path NULL, f.
 *   spmv_status spmv_mm_write_array_complex(path, f, m, n, v, err): the same, 'array complex
 *       general', v holding m*n (re, im) pairs (the layout of spmv_cdouble).
 *   spmv_status spmv_mm_write(const char *path, const spmv_triplets *t, spmv_error *err);
 *       Coordinate real general (complex general when t->vim is given), 1-based, values printed
 *       as "%.17g" would in the C locale (exact round trip).
 *   spmv_status spmv_mm_write_dense(const char *path, int64_t n, const double *v, spmv_error *err);
 *       Array real general, n x 1, same number format.
 *   spmv_status spmv_mm_write_fp(FILE *f, const spmv_triplets *t, spmv_error *err);
 *   spmv_status spmv_mm_write_dense_fp(FILE *f, int64_t n, const double *v, spmv_error *err);
 *       The same text written to an open stream (stdout, a pipe, a socket, a file opened for
 *       appending): nothing is opened, closed or removed; the stream is flushed and a write
 *       error (EPIPE, ENOSPC, ...) is reported as SPMV_ERR_IO. Plain text only (no gzip).
 *
 * Input rules (what a file may hold):
 *   - The banner is "%%MatrixMarket matrix ..." (words case-insensitive); a banner that
 *     starts with a single '%' ("%MatrixMarket") is accepted as well, as fast_matrix_market's
 *     permissive mode reads it.
 *   - `integer` values must be whole decimal numbers within int64 ("1.5", "nan", "1e3" and
 *     values beyond +-9223372036854775807 are parse errors); above 2^53 in magnitude they are
 *     rounded to the nearest double, since the triplets hold doubles (2^53 + 1 reads as 2^53).
 *   - `real` values: decimal or hexadecimal floating point, inf, nan; values beyond the double
 *     range read as +-inf, as strtod gives them.
 *   - Numbers are read and written the same way whatever the C locale (LC_NUMERIC) of the
 *     calling program: '.' is the decimal point, never ','.
 *   - A line (banner, size line, entry) may be at most SPMV_MM_MAX_LINE bytes (default 1 MiB);
 *     longer comment lines are skipped whatever their length. A NUL byte anywhere is a parse
 *     error naming its line (the file is binary, not Matrix Market text).
 *   - Memory is bounded by the input, not by the declared sizes: storage for the entries is
 *     sized from the file's length (or grows with the data when the length is unknown: a
 *     pipe), never from the declared row or column count, so a 74-byte file declaring
 *     2^40 x 2^40 reads in a few kilobytes.
 *
 * Output files (spmv_mm_write, spmv_mm_write_dense) on POSIX systems: the text goes to a new
 * temporary file beside the target (".NAME.spmv-*.tmp" in the same directory) that is renamed
 * onto the target only when everything was written and closed; on failure that temporary is
 * removed and the target is left as it was. A symbolic link to a regular file keeps the link
 * and replaces the file it names. A target that is not a regular file (a device such as
 * /dev/stdout or /dev/full, a FIFO, a socket) is written in place. Nothing but the temporary
 * is ever removed. An existing file the user cannot write is refused (SPMV_ERR_IO,
 * "Permission denied", as the shell's `>` refuses it) and left as it was. A replaced file
 * keeps its permission bits and, where the user may set it, its group; a file owned by
 * another user or with other hard links (and one whose directory forbids the rename, such as
 * another user's file in a sticky /tmp) gets the finished temporary copied into it, keeping
 * its owner, group and links (a failure during that copy leaves it partially written). When no
 * temporary can be created beside a writable file (a directory that takes no new files), the
 * file is written in place. Without POSIX (a strict ISO C build: no _GNU_SOURCE/_POSIX_C_SOURCE,
 * or SPMV_MM_POSIX defined to 0) the target is written in place and, on failure, left
 * partially written (never removed).
 *
 * gzip: input whose content starts with the gzip magic bytes is decompressed when
 * SPMV_HAVE_ZLIB is defined (link with -lz), whatever the file's name (SPMV_ERR_UNSUPPORTED
 * without zlib); concatenated members are read. Paths ending in ".gz" are written through
 * zlib. A stream that ends early reports SPMV_ERR_IO "truncated gzip stream" at the last line
 * it reached; the lines before it are checked as usual.
 *
 * Errors: `err` may be NULL. When given it always receives err->line (1-based line of the
 * problem, 0 if none) and err->msg (a message that starts with "line N: " when tied to a
 * line). On any failure the outputs are left empty (zeroed triplets, *n = 0, *v = NULL)
 * and nothing is leaked.
 *   SPMV_ERR_PARSE       malformed banner/size line/entry, wrong entry count, bad index or
 *                        value, NUL byte, over-long line
 *   SPMV_ERR_UNSUPPORTED complex without SPMV_MM_COMPLEX (complex arrays always); gzip input without zlib
 *   SPMV_ERR_OVERFLOW    a size does not fit int64 (or 2*nnz for symmetric expansion)
 *   SPMV_ERR_IO          cannot open, read or write the file; truncated or corrupt gzip stream
 *   SPMV_ERR_ALLOC       out of memory
 *   SPMV_ERR_ARG         NULL path/out or invalid triplets given to a writer
 *
 * Speed: the file is read in 1 MiB chunks and split into lines in place; indices use a
 * hand-written integer parser and values an exact fast path (<= 19 significant digits,
 * Clinger's exact-power-of-ten case) with strtod in the "C" locale as the fallback for
 * everything else. */
#ifndef SPMV_MM_H
#define SPMV_MM_H
#define SPMV_MM_HAVE_WRITE_FP 1 /* spmv_mm_write_fp, spmv_mm_write_dense_fp */

#include "../core/core.h"
#include <stdio.h>
#include <stdarg.h>
#include <errno.h>
#include <float.h>
#include <locale.h>
#ifdef SPMV_HAVE_ZLIB
#include <zlib.h>
#endif

/* POSIX file and locale functions (open, rename, realpath, newlocale, ...) are used when the
 * build makes them visible: _GNU_SOURCE, _DEFAULT_SOURCE, _POSIX_C_SOURCE >= 200809L, a
 * non-strict (gnu11) or C++ compilation on a Unix system. Define SPMV_MM_POSIX to 0 or 1 to
 * choose. */
#ifndef SPMV_MM_POSIX
#if !defined(_WIN32) && (defined(__unix__) || defined(__unix) || defined(__APPLE__)) &&                        \
    (defined(_GNU_SOURCE) || defined(_DEFAULT_SOURCE) || defined(_BSD_SOURCE) || defined(__cplusplus) ||       \
     !defined(__STRICT_ANSI__) || (defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L) ||                   \
     (defined(_XOPEN_SOURCE) && _XOPEN_SOURCE >= 700))
#define SPMV_MM_POSIX 1
#else
#define SPMV_MM_POSIX 0
#endif
#endif
#if SPMV_MM_POSIX
#include <unistd.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <time.h>
#else
#include <sys/stat.h> /* stat: the library's own files are checked for being regular */
#endif

/* Longest banner, size or entry line accepted (comment lines may be longer: they are skipped). */
#ifndef SPMV_MM_MAX_LINE
#define SPMV_MM_MAX_LINE ((size_t)1 << 20)
#endif
#define SPMV__MM_BUFSZ ((size_t)(SPMV_MM_MAX_LINE) + 2)
/* Compressed input chunk and write buffer (the fuzz target makes them small). */
#ifndef SPMV_MM_GZ_CHUNK
#define SPMV_MM_GZ_CHUNK ((size_t)1 << 18)
#endif
#ifndef SPMV_MM_WRITE_BUF
#define SPMV_MM_WRITE_BUF ((size_t)1 << 20)
#endif
#define SPMV__MM_ZIN ((size_t)(SPMV_MM_GZ_CHUNK) < 16 ? (size_t)16 : (size_t)(SPMV_MM_GZ_CHUNK))
#define SPMV__MM_WBUF ((size_t)(SPMV_MM_WRITE_BUF) < 1024 ? (size_t)1024 : (size_t)(SPMV_MM_WRITE_BUF))
#define SPMV__MM_NONE ((size_t)-1)
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

/* ---- locale-independent strtod --------------------------------------------- */
/* strtod as in the "C" locale whatever the program's LC_NUMERIC: with POSIX, strtod under a
 * thread-local "C" locale (uselocale); otherwise the token (ASCII number characters only) is
 * copied with its '.' replaced by the current locale's decimal point. */
static inline double spmv__mm_strtod_iso(const char *s, char **end) {
    char tmp[512];
    const char *dp = localeconv()->decimal_point;
    size_t dpl = dp && *dp ? strlen(dp) : 1, i, o = 0, dotat = SPMV__MM_NONE;
    char *e2 = NULL;
    double v;
    *end = (char *)s;
    for (i = 0;; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' ||
              c == '.' || c == '(' || c == ')' || c == '_'))
            break;
        if (o + dpl + 1 >= sizeof tmp) return 0.0; /* not converted: longer than any sensible number */
        if (c == '.' && dotat == SPMV__MM_NONE) {
            dotat = o;
            if (dp && *dp) memcpy(tmp + o, dp, dpl);
            else tmp[o] = '.';
            o += dpl;
        } else {
            tmp[o++] = c;
        }
    }
    tmp[o] = '\0';
    v = strtod(tmp, &e2);
    if (e2 == tmp) return 0.0;
    o = (size_t)(e2 - tmp);
    if (dotat != SPMV__MM_NONE && o > dotat) o -= o >= dotat + dpl ? dpl - 1 : o - dotat;
    *end = (char *)s + o;
    return v;
}

static inline double spmv__mm_strtod_c(const char *s, char **end) {
#if SPMV_MM_POSIX
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0); /* glibc, musl: a static object, no allocation */
    if (c != (locale_t)0) {
        locale_t old = uselocale(c);
        double v = strtod(s, end);
        uselocale(old);
        freelocale(c);
        return v;
    }
#endif
    return spmv__mm_strtod_iso(s, end);
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

/* Parses a real token at *pp: exact fast path for short decimals, strtod in the "C" locale
 * otherwise (which also gives nan, inf, hex floats). Returns 0 on success (advancing *pp), 1 if not a number. */
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
        double v = spmv__mm_strtod_c(p, &end);
        if (end == p || end == NULL || !spmv__mm_isend(*end)) return 1;
        *out = v;
        *pp = end;
        return 0;
    }
}

/* ---- buffered line reader over stdio, with gzip decoded by zlib's inflate ------- */
enum {
    SPMV__MM_F_NONE = 0,
    SPMV__MM_F_IO,      /* read error */
    SPMV__MM_F_NUL,     /* NUL byte in a line */
    SPMV__MM_F_LONG,    /* line longer than SPMV_MM_MAX_LINE */
    SPMV__MM_F_GZTRUNC, /* the gzip stream ends inside a member */
    SPMV__MM_F_GZDATA,  /* corrupt gzip data */
    SPMV__MM_F_ALLOC    /* zlib could not allocate its state */
};

typedef struct spmv__mm_reader {
    FILE *fp;
    char *buf;
    size_t cap, pos, end;
    size_t nul;        /* index in buf of the first NUL byte read, SPMV__MM_NONE if none */
    int eof;           /* no more data from the file */
    int rawerr;        /* SPMV__MM_F_*: the data stopped early for this reason (reported at its line) */
    int rawerrno;
    int skipping;      /* discarding the rest of an over-long comment line */
    int fail;          /* SPMV__MM_F_*: why spmv__mm_getline returned NULL (0: end of file) */
    long fail_line;
    long line;         /* number of lines returned (or skipped) so far */
    int64_t max_bytes; /* upper bound on the uncompressed size, -1 if unknown */
#ifdef SPMV_HAVE_ZLIB
    z_stream zs;
    unsigned char *zin; /* compressed input chunk; non-NULL in gzip mode */
    int zinit, zmember, zany, zdone;
    char zmsg[96];
#endif
} spmv__mm_reader;

static inline void spmv__mm_close(spmv__mm_reader *r) {
#ifdef SPMV_HAVE_ZLIB
    if (r->zinit) inflateEnd(&r->zs);
    r->zinit = 0;
    spmv__free(r->zin);
    r->zin = NULL;
#endif
    if (r->fp) fclose(r->fp);
    spmv__free(r->buf);
    r->fp = NULL;
    r->buf = NULL;
}

/* Up to n bytes of (decompressed) data; sets r->rawerr when the data stops early. */
static inline size_t spmv__mm_raw_read(spmv__mm_reader *r, char *dst, size_t n) {
    size_t got;
#ifdef SPMV_HAVE_ZLIB
    if (r->zin) {
        z_stream *s = &r->zs;
        if (n > ((size_t)1 << 30)) n = (size_t)1 << 30;
        s->next_out = (Bytef *)dst;
        s->avail_out = (uInt)n;
        while (s->avail_out > 0 && !r->zdone) {
            int ret;
            if (s->avail_in == 0) {
                size_t k = fread(r->zin, 1, SPMV__MM_ZIN, r->fp);
                if (k == 0) {
                    if (ferror(r->fp)) {
                        r->rawerr = SPMV__MM_F_IO;
                        r->rawerrno = errno;
                    } else if (r->zmember) {
                        r->rawerr = SPMV__MM_F_GZTRUNC;
                    }
                    r->zdone = 1;
                    break;
                }
                s->next_in = r->zin;
                s->avail_in = (uInt)k;
            }
            if (!r->zmember) { /* at a member boundary: another member, or bytes gzip ignores too */
                if (s->next_in[0] != 0x1f) {
                    r->zdone = 1;
                    break;
                }
                if (r->zany && inflateReset(s) != Z_OK) {
                    r->rawerr = SPMV__MM_F_GZDATA;
                    r->zdone = 1;
                    break;
                }
                r->zmember = 1;
            }
            ret = inflate(s, Z_NO_FLUSH);
            if (ret == Z_STREAM_END) {
                r->zmember = 0;
                r->zany = 1;
            } else if (ret == Z_MEM_ERROR) {
                r->rawerr = SPMV__MM_F_ALLOC;
                r->zdone = 1;
            } else if (ret != Z_OK && ret != Z_BUF_ERROR) { /* Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR */
                r->rawerr = SPMV__MM_F_GZDATA;
                snprintf(r->zmsg, sizeof r->zmsg, "%s", s->msg ? s->msg : "invalid data");
                r->zdone = 1;
            }
        }
        got = n - s->avail_out;
        s->next_out = NULL;
        s->avail_out = 0;
        return got;
    }
#endif
    got = fread(dst, 1, n, r->fp);
    if (got < n && ferror(r->fp)) {
        r->rawerr = SPMV__MM_F_IO;
        r->rawerrno = errno;
    }
    return got;
}

/* Reads more data into buf[end, cap-1); notes the first NUL byte; sets eof when none came. */
static inline void spmv__mm_fill(spmv__mm_reader *r) {
    size_t got;
    if (r->eof) return;
    got = r->rawerr ? 0 : spmv__mm_raw_read(r, r->buf + r->end, r->cap - 1 - r->end);
    if (got && r->nul == SPMV__MM_NONE) {
        const char *q = (const char *)memchr(r->buf + r->end, '\0', got);
        if (q) r->nul = (size_t)(q - r->buf);
    }
    r->end += got;
    if (got == 0) r->eof = 1;
}

static inline void spmv__mm_setfail(spmv__mm_reader *r, int kind, long line) {
    if (!r->fail) {
        r->fail = kind;
        r->fail_line = line > 0 ? line : 1;
    }
}

/* Size of a plain file in bytes, or -1 if unknown (pipe, device); -2: cannot rewind. */
static inline int64_t spmv__mm_file_size(FILE *f) {
#if SPMV_MM_POSIX
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    return (int64_t)st.st_size;
#else
    long sz;
    if (fseek(f, 0, SEEK_END) != 0) return -1;
    sz = ftell(f);
    if (fseek(f, 0, SEEK_SET) != 0) return -2;
    return sz <= 0 ? -1 : (int64_t)sz; /* 0: an empty file or a device that does not know */
#endif
}

static inline spmv_status spmv__mm_open(spmv__mm_reader *r, const char *path, spmv_error *err) {
    int64_t sz;
    size_t got, peek;
    memset(r, 0, sizeof *r);
    r->nul = SPMV__MM_NONE;
    r->max_bytes = -1;
    r->cap = SPMV__MM_BUFSZ;
    r->buf = (char *)spmv__alloc(r->cap, 1);
    if (!r->buf) return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the read buffer");
    r->fp = fopen(path, "rb");
    if (!r->fp) {
        int e = errno;
        spmv__mm_close(r);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot open '%s': %s", path, strerror(e));
    }
    sz = spmv__mm_file_size(r->fp);
    if (sz == -2) {
        spmv__mm_close(r);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot rewind '%s'", path);
    }
    /* the first bytes say whether the content is gzip-compressed (whatever the name) */
    peek = r->cap - 1 < SPMV__MM_ZIN ? r->cap - 1 : SPMV__MM_ZIN;
    got = fread(r->buf, 1, peek, r->fp);
    if (got < peek && ferror(r->fp)) {
        int e = errno;
        spmv__mm_close(r);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot read '%s': %s", path, strerror(e));
    }
    if (got >= 2 && (unsigned char)r->buf[0] == 0x1f && (unsigned char)r->buf[1] == 0x8b) {
#ifdef SPMV_HAVE_ZLIB
        r->zin = (unsigned char *)spmv__alloc(SPMV__MM_ZIN, 1);
        if (!r->zin) {
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the read buffer");
        }
        memset(&r->zs, 0, sizeof r->zs);
        if (inflateInit2(&r->zs, 15 + 16) != Z_OK) { /* 15-bit window, gzip wrapper */
            spmv__mm_close(r);
            return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "cannot initialise zlib for '%s'", path);
        }
        r->zinit = 1;
        memcpy(r->zin, r->buf, got);
        r->zs.next_in = r->zin;
        r->zs.avail_in = (uInt)got;
        /* deflate expands at most ~1032:1 */
        if (sz >= 0 && sz < INT64_MAX / 2048) r->max_bytes = sz * 1032 + 4096;
        return SPMV_OK;
#else
        spmv__mm_close(r);
        return spmv__mm_err(err, 0, SPMV_ERR_UNSUPPORTED,
                            "'%s' is gzip-compressed but zlib support is not compiled in (build with -DSPMV_HAVE_ZLIB -lz)",
                            path);
#endif
    }
    r->max_bytes = sz;
    if (got) {
        const char *q = (const char *)memchr(r->buf, '\0', got);
        if (q) r->nul = (size_t)(q - r->buf);
    }
    r->end = got;
    return SPMV_OK;
}

/* Next line, NUL-terminated, without its '\n' (and a trailing '\r'). NULL at the end of the
 * file or on error (r->fail says which, r->fail_line where). */
static inline char *spmv__mm_getline(spmv__mm_reader *r) {
    if (r->fail) return NULL;
    for (;;) {
        char *s = r->buf + r->pos;
        size_t avail = r->end - r->pos;
        char *nl = avail ? (char *)memchr(s, '\n', avail) : NULL;
        if (r->skipping) { /* the rest of an over-long comment line: discarded */
            size_t n = nl ? (size_t)(nl - s) : avail;
            if (r->nul != SPMV__MM_NONE && r->nul < r->pos + n) {
                spmv__mm_setfail(r, SPMV__MM_F_NUL, r->line + 1);
                return NULL;
            }
            if (nl) {
                r->pos += n + 1;
                r->skipping = 0;
                r->line++;
                continue;
            }
            r->pos = r->end = 0;
            if (r->eof) {
                r->skipping = 0;
                r->line++;
                if (r->rawerr) spmv__mm_setfail(r, r->rawerr, r->line);
                return NULL;
            }
            spmv__mm_fill(r);
            continue;
        }
        if (nl || (r->eof && avail)) {
            size_t n;
            if (!nl && r->rawerr) { /* a line the broken stream cut short: not parsed */
                spmv__mm_setfail(r, r->rawerr, r->line + 1);
                return NULL;
            }
            n = nl ? (size_t)(nl - s) : avail; /* last line without newline: end < cap so s[n] is inside */
            if (r->nul != SPMV__MM_NONE && r->nul < r->pos + n) {
                spmv__mm_setfail(r, SPMV__MM_F_NUL, r->line + 1);
                return NULL;
            }
            r->pos += nl ? n + 1 : n;
            s[n] = '\0';
            if (n && s[n - 1] == '\r') s[n - 1] = '\0';
            r->line++;
            return s;
        }
        if (r->eof) {
            if (r->rawerr) spmv__mm_setfail(r, r->rawerr, r->line);
            return NULL;
        }
        if (r->pos > 0) {
            if (avail) memmove(r->buf, s, avail);
            if (r->nul != SPMV__MM_NONE) r->nul -= r->pos;
            r->pos = 0;
            r->end = avail;
        }
        if (r->end + 1 >= r->cap) { /* no newline in SPMV_MM_MAX_LINE + 1 bytes */
            size_t i = 0;
            if (r->nul != SPMV__MM_NONE) { /* binary data (/dev/zero): say so rather than "too long" */
                spmv__mm_setfail(r, SPMV__MM_F_NUL, r->line + 1);
                return NULL;
            }
            while (i < r->end && spmv__mm_isspace(r->buf[i])) i++;
            if (r->line > 0 && i < r->end && r->buf[i] == '%') {
                r->skipping = 1;
                continue;
            }
            spmv__mm_setfail(r, SPMV__MM_F_LONG, r->line + 1);
            return NULL;
        }
        spmv__mm_fill(r);
    }
}

/* Status for a failed read (r->fail set). */
static inline spmv_status spmv__mm_fail_status(spmv__mm_reader *r, spmv_error *err) {
    long ln = r->fail_line;
    switch (r->fail) {
    case SPMV__MM_F_NUL:
        return spmv__mm_err(err, ln, SPMV_ERR_PARSE, "NUL byte in the line (binary data, not Matrix Market text)");
    case SPMV__MM_F_LONG:
        return spmv__mm_err(err, ln, SPMV_ERR_PARSE,
                            "line longer than %lu bytes (Matrix Market lines are short: is this a Matrix Market file?)",
                            (unsigned long)SPMV_MM_MAX_LINE);
    case SPMV__MM_F_GZTRUNC:
        return spmv__mm_err(err, ln, SPMV_ERR_IO, "truncated gzip stream: the compressed data ends %s line %ld",
                            ln > r->line ? "inside" : "after", ln);
#ifdef SPMV_HAVE_ZLIB
    case SPMV__MM_F_GZDATA:
        return spmv__mm_err(err, ln, SPMV_ERR_IO, "corrupt gzip stream after line %ld (zlib: %s)", r->line,
                            r->zmsg[0] ? r->zmsg : "invalid data");
#endif
    case SPMV__MM_F_ALLOC: return spmv__mm_err(err, ln, SPMV_ERR_ALLOC, "out of memory in zlib");
    default:
        return spmv__mm_err(err, ln, SPMV_ERR_IO, "read error after line %ld: %s", r->line,
                            r->rawerrno ? strerror(r->rawerrno) : "unknown error");
    }
}

/* Status for a NULL from spmv__mm_getline when more lines were required. */
static inline spmv_status spmv__mm_eof_status(spmv__mm_reader *r, spmv_error *err, const char *what) {
    if (r->fail) return spmv__mm_fail_status(r, err);
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
        if (r->fail) return spmv__mm_fail_status(r, err);
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
    /* "%MatrixMarket" (one '%') is read too, as fast_matrix_market's permissive mode does */
    if (nt == 0 || !(spmv__mm_tokeq(tok[0], len[0], "%%MatrixMarket") || spmv__mm_tokeq(tok[0], len[0], "%MatrixMarket")))
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
    if (h->sym == SPMV__MM_HERMITIAN && h->field != SPMV__MM_COMPLEX)
        return spmv__mm_err(err, r->line, SPMV_ERR_UNSUPPORTED,
                            "hermitian matrices with a real field are not supported (hermitian needs field 'complex')");
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
        if (r->fail) return spmv__mm_fail_status(r, err);
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

/* ---- entry storage ----------------------------------------------------------- */
/* Makes room for `need` entries (need <= limit) in the three arrays holding `used` entries:
 * doubles the allocation (at least 4096, at most limit). */
static inline spmv_status spmv__mm_reserve(int64_t **ri, int64_t **ci, double **vv, double **vi, int64_t used,
                                           int64_t *alloc, int64_t need, int64_t limit) {
    int64_t n = *alloc < 2048 ? 4096 : *alloc * 2;
    int64_t *r2, *c2;
    double *v2, *i2 = NULL;
    if (n > limit) n = limit;
    if (n < need) n = need;
    if ((uint64_t)n > (uint64_t)(SIZE_MAX / sizeof(int64_t) / 2)) return SPMV_ERR_OVERFLOW;
    r2 = SPMV_ALLOC_N(int64_t, n);
    c2 = SPMV_ALLOC_N(int64_t, n);
    v2 = SPMV_ALLOC_N(double, n);
    if (*vi) i2 = SPMV_ALLOC_N(double, n);
    if (!r2 || !c2 || !v2 || (*vi && !i2)) {
        spmv__free(r2);
        spmv__free(c2);
        spmv__free(v2);
        spmv__free(i2);
        return SPMV_ERR_ALLOC;
    }
    if (used > 0) {
        memcpy(r2, *ri, sizeof(int64_t) * (size_t)used);
        memcpy(c2, *ci, sizeof(int64_t) * (size_t)used);
        memcpy(v2, *vv, sizeof(double) * (size_t)used);
        if (i2) memcpy(i2, *vi, sizeof(double) * (size_t)used);
    }
    spmv__free(*ri);
    spmv__free(*ci);
    spmv__free(*vv);
    spmv__free(*vi);
    *ri = r2;
    *ci = c2;
    *vv = v2;
    *vi = i2;
    *alloc = n;
    return SPMV_OK;
}

/* Parses the value token at *pp for a field (real or integer); 0 on success. On failure
 * writes the message (without the line prefix) to msg. */
static inline int spmv__mm_parse_value(const char **pp, int field, double *x, char *msg, size_t msgcap) {
    char tb[48];
    if (field == SPMV__MM_INTEGER) {
        int64_t iv = 0;
        int rc = spmv__mm_parse_i64(pp, &iv);
        if (rc == 1) {
            snprintf(msg, msgcap, "invalid integer value '%s' (field 'integer' holds whole decimal numbers)",
                     spmv__mm_tok(*pp, tb, sizeof tb));
            return 1;
        }
        if (rc == 2) {
            snprintf(msg, msgcap, "integer value '%s' is outside the 64-bit range", spmv__mm_tok(*pp, tb, sizeof tb));
            return 1;
        }
        *x = (double)iv; /* rounded to the nearest double above 2^53 (documented) */
        return 0;
    }
    if (spmv__mm_parse_f64(pp, x) != 0) {
        snprintf(msg, msgcap, "invalid real value '%s'", spmv__mm_tok(*pp, tb, sizeof tb));
        return 1;
    }
    return 0;
}

/* ---- coordinate reader ------------------------------------------------------ */
/* flags of spmv_mm_read_opts */
#define SPMV_MM_ONE_TRIANGLE 1 /* a symmetric file's triangle as stored, not mirrored */
#define SPMV_MM_COMPLEX 2      /* complex files read (imaginary parts in out->vim; hermitian mirrored
                                  with the conjugate), not refused */
static inline spmv_status spmv_mm_read_opts(const char *path, spmv_triplets *out, int flags, int *one_triangle,
                                            spmv_error *err) {
    spmv__mm_reader rd;
    spmv__mm_header h;
    spmv_status st;
    int64_t sz[3], cap, alloc, k = 0, nread = 0, m, n, nnz;
    int64_t *ri = NULL, *ci = NULL;
    double *vv = NULL, *vi = NULL;
    int nfield;
    const char *fieldhelp;
    char tb[48], vmsg[160];

    memset(&h, 0, sizeof h);
    const int keep1 = (flags & SPMV_MM_ONE_TRIANGLE) != 0;
    memset(sz, 0, sizeof sz);
    spmv__mm_err_clear(err);
    if (out) memset(out, 0, sizeof *out);
    if (one_triangle) *one_triangle = 0;
    if (!path || !out) return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_read: NULL %s", path ? "output" : "path");
    st = spmv__mm_open(&rd, path, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_read_banner(&rd, &h, err);
    if (st != SPMV_OK) goto fail;
    if (h.field == SPMV__MM_COMPLEX && !(flags & SPMV_MM_COMPLEX)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_UNSUPPORTED,
                          "complex matrices are not supported by spmv_mm_read (field 'complex'): read them with "
                          "spmv_mm_read_opts(..., SPMV_MM_COMPLEX, ...) for a complex tag (c, z)");
        goto fail;
    }
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
                          h.sym == SPMV__MM_SYMMETRIC ? "symmetric" : h.sym == SPMV__MM_SKEW ? "skew-symmetric" : "hermitian",
                          (long long)m, (long long)n);
        goto fail;
    }
    cap = nnz; /* entries after the symmetric expansion, at most */
    if (h.sym != SPMV__MM_GENERAL && !(keep1 && (h.sym == SPMV__MM_SYMMETRIC || h.sym == SPMV__MM_HERMITIAN))) {
        if (nnz > INT64_MAX / 2) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld nonzeros overflow 64 bits when the symmetric matrix is expanded",
                              (long long)nnz);
            goto fail;
        }
        cap = 2 * nnz;
    }
    /* storage from what the file can hold, never from the declared sizes alone: a file holds at
       most (bytes + 1) / 4 entries ("1 1\n" each); of unknown length (a pipe), it grows */
    alloc = cap;
    if (rd.max_bytes >= 0) {
        int64_t fit = rd.max_bytes / 4 + 1;
        if (h.sym != SPMV__MM_GENERAL) fit *= 2;
        if (alloc > fit) alloc = fit;
    } else if (alloc > 4096) {
        alloc = 4096;
    }
    if ((uint64_t)alloc > (uint64_t)(SIZE_MAX / sizeof(int64_t) / 2)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld nonzeros do not fit in memory addressing", (long long)nnz);
        goto fail;
    }
    ri = SPMV_ALLOC_N(int64_t, alloc);
    ci = SPMV_ALLOC_N(int64_t, alloc);
    vv = SPMV_ALLOC_N(double, alloc);
    if (h.field == SPMV__MM_COMPLEX) vi = SPMV_ALLOC_N(double, alloc > 0 ? alloc : 1);
    if (!ri || !ci || !vv || (h.field == SPMV__MM_COMPLEX && !vi)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_ALLOC, "out of memory for %lld nonzeros", (long long)alloc);
        goto fail;
    }
    nfield = h.field == SPMV__MM_PATTERN ? 2 : h.field == SPMV__MM_COMPLEX ? 4 : 3;
    fieldhelp = nfield == 2 ? "(row col)" : nfield == 4 ? "(row col real imaginary)" : "(row col value)";

    while (nread < nnz) {
        const char *line = spmv__mm_next_data(&rd);
        const char *p = line, *tokstart;
        int64_t i = 0, j = 0;
        double x = 1.0, xi = 0.0;
        int rc;
        if (!line) {
            if (rd.fail) {
                st = spmv__mm_fail_status(&rd, err);
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
        if (nfield >= 3) {
            if (*p == '\0') {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected %d fields %s, got 2: missing value", nfield, fieldhelp);
                goto fail;
            }
            if (spmv__mm_parse_value(&p, h.field == SPMV__MM_COMPLEX ? SPMV__MM_REAL : h.field, &x, vmsg, sizeof vmsg) != 0) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "%s", vmsg);
                goto fail;
            }
            p = spmv__mm_skipws(p);
        }
        if (nfield == 4) { /* the imaginary part */
            if (*p == '\0') {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected 4 fields %s, got 3: missing imaginary part", fieldhelp);
                goto fail;
            }
            if (spmv__mm_parse_value(&p, SPMV__MM_REAL, &xi, vmsg, sizeof vmsg) != 0) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "%s (imaginary part)", vmsg);
                goto fail;
            }
            p = spmv__mm_skipws(p);
        }
        if (*p != '\0') {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "trailing garbage '%s' after %d fields %s",
                              spmv__mm_tok(p, tb, sizeof tb), nfield, fieldhelp);
            goto fail;
        }
        {
            int64_t need = k + (h.sym != SPMV__MM_GENERAL && i != j ? 2 : 1); /* <= cap: nread < nnz */
            if (need > alloc) {
                st = spmv__mm_reserve(&ri, &ci, &vv, &vi, k, &alloc, need, cap);
                if (st != SPMV_OK) {
                    st = spmv__mm_err(err, rd.line, st, "out of memory for %lld nonzeros", (long long)need);
                    goto fail;
                }
            }
        }
        ri[k] = i - 1;
        ci[k] = j - 1;
        vv[k] = x;
        if (vi) vi[k] = xi;
        k++;
        /* symmetric and skew-symmetric: (j,i) added; a diagonal entry is stored once; hermitian:
           the conjugate mirrored */
        if (h.sym != SPMV__MM_GENERAL && i != j && !(keep1 && (h.sym == SPMV__MM_SYMMETRIC || h.sym == SPMV__MM_HERMITIAN))) {
            ri[k] = j - 1;
            ci[k] = i - 1;
            vv[k] = h.sym == SPMV__MM_SKEW ? -x : x;
            if (vi) vi[k] = h.sym == SPMV__MM_SKEW || h.sym == SPMV__MM_HERMITIAN ? -xi : xi;
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
    if (rd.fail) {
        st = spmv__mm_fail_status(&rd, err);
        goto fail;
    }
    spmv__mm_close(&rd);
    if (one_triangle) *one_triangle = !keep1 ? 0 : h.sym == SPMV__MM_SYMMETRIC ? 1 : h.sym == SPMV__MM_HERMITIAN ? 2 : 0;
    out->nrows = m;
    out->ncols = n;
    out->nnz = k;
    out->row = ri;
    out->col = ci;
    out->val = vv;
    out->vim = vi;
    return SPMV_OK;
fail:
    spmv__free(ri);
    spmv__free(ci);
    spmv__free(vv);
    spmv__free(vi);
    spmv__mm_close(&rd);
    return st;
}

static inline spmv_status spmv_mm_read(const char *path, spmv_triplets *out, spmv_error *err) {
    return spmv_mm_read_opts(path, out, 0, NULL, err);
}

/* ---- dense (array) readers: a vector, or a rows x cols array (column-major, as the format
 * stores it) ---- */
static inline spmv_status spmv__mm_read_arr(const char *path, int vector, int cplx, int64_t *m_out, int64_t *n_out,
                                            double **v_out, spmv_error *err) {
    const int w = cplx ? 2 : 1; /* doubles per entry: (re, im) pairs for the complex reader */
    spmv__mm_reader rd;
    spmv__mm_header h;
    spmv_status st;
    int64_t sz[2], len, alloc, k = 0;
    double *v = NULL;
    char tb[48], vmsg[160];

    memset(&h, 0, sizeof h);
    memset(sz, 0, sizeof sz);
    spmv__mm_err_clear(err);
    if (n_out) *n_out = 0;
    if (m_out) *m_out = 0;
    if (v_out) *v_out = NULL;
    if (!path || !n_out || !v_out || (!vector && !m_out))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "%s: NULL argument", vector ? "spmv_mm_read_dense" : "spmv_mm_read_array");
    st = spmv__mm_open(&rd, path, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_read_banner(&rd, &h, err);
    if (st == SPMV_OK && h.field == SPMV__MM_COMPLEX && !cplx)
        st = spmv__mm_err(err, rd.line, SPMV_ERR_UNSUPPORTED,
                          "complex arrays are not supported here (field 'complex'; spmv_mm_read_array_complex reads them)");
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
    if (vector && sz[0] != 1 && sz[1] != 1 && !(sz[0] == 0 || sz[1] == 0)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "expected a vector (m x 1 or 1 x n), got a %lld x %lld array",
                          (long long)sz[0], (long long)sz[1]);
        goto fail;
    }
    if (!vector && sz[1] > 0 && sz[0] > INT64_MAX / sz[1]) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "a %lld x %lld array overflows", (long long)sz[0],
                          (long long)sz[1]);
        goto fail;
    }
    len = (sz[0] == 0 || sz[1] == 0) ? 0 : vector ? (sz[0] == 1 ? sz[1] : sz[0]) : sz[0] * sz[1];
    /* a file cannot hold more than (bytes + 1) / 2 values ("1\n" each): allocate no more;
       of unknown length (a pipe), the storage grows with the data */
    alloc = len;
    if (rd.max_bytes >= 0) {
        if (alloc > rd.max_bytes / 2 + 1) alloc = rd.max_bytes / 2 + 1;
    } else if (alloc > 4096) {
        alloc = 4096;
    }
    if ((uint64_t)alloc > (uint64_t)(SIZE_MAX / sizeof(double) / 2)) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_OVERFLOW, "%lld values do not fit in memory addressing", (long long)len);
        goto fail;
    }
    v = SPMV_ALLOC_N(double, alloc * w);
    if (!v) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_ALLOC, "out of memory for %lld values", (long long)alloc);
        goto fail;
    }
    while (k < len) {
        const char *line = spmv__mm_next_data(&rd);
        const char *p = line;
        double x = 0.0, xi = 0.0;
        if (!line) {
            if (rd.fail) st = spmv__mm_fail_status(&rd, err);
            else
                st = spmv__mm_err(err, rd.line + 1, SPMV_ERR_PARSE,
                                  "fewer entries than announced: expected %lld values, found %lld before end of file",
                                  (long long)len, (long long)k);
            goto fail;
        }
        if (spmv__mm_parse_value(&p, h.field == SPMV__MM_COMPLEX ? SPMV__MM_REAL : h.field, &x, vmsg, sizeof vmsg) != 0) {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "%s", vmsg);
            goto fail;
        }
        p = spmv__mm_skipws(p);
        if (h.field == SPMV__MM_COMPLEX) { /* the imaginary part */
            if (*p == '\0') {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "missing imaginary part (a complex array: two values per line)");
                goto fail;
            }
            if (spmv__mm_parse_value(&p, SPMV__MM_REAL, &xi, vmsg, sizeof vmsg) != 0) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "%s (imaginary part)", vmsg);
                goto fail;
            }
            p = spmv__mm_skipws(p);
        }
        if (*p != '\0') {
            st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "trailing garbage '%s' after the value (one entry per line)",
                              spmv__mm_tok(p, tb, sizeof tb));
            goto fail;
        }
        if (k >= alloc) {
            int64_t na = alloc < 2048 ? 4096 : alloc * 2;
            double *v2;
            if (na > len) na = len;
            v2 = (uint64_t)na > (uint64_t)(SIZE_MAX / sizeof(double) / 2) ? NULL : SPMV_ALLOC_N(double, na * w);
            if (!v2) {
                st = spmv__mm_err(err, rd.line, SPMV_ERR_ALLOC, "out of memory for %lld values", (long long)na);
                goto fail;
            }
            if (k) memcpy(v2, v, sizeof(double) * (size_t)(k * w));
            spmv__free(v);
            v = v2;
            alloc = na;
        }
        if (cplx) {
            v[2 * k] = x;
            v[2 * k + 1] = xi;
            k++;
        } else {
            v[k++] = x;
        }
    }
    if (spmv__mm_next_data(&rd) != NULL) {
        st = spmv__mm_err(err, rd.line, SPMV_ERR_PARSE, "more entries than announced (%lld) on the size line",
                          (long long)len);
        goto fail;
    }
    if (rd.fail) {
        st = spmv__mm_fail_status(&rd, err);
        goto fail;
    }
    spmv__mm_close(&rd);
    if (vector) {
        *n_out = len;
    } else {
        *m_out = sz[0];
        *n_out = sz[1];
    }
    *v_out = v;
    return SPMV_OK;
fail:
    spmv__free(v);
    spmv__mm_close(&rd);
    return st;
}
/* a vector (m x 1 or 1 x n 'array real general'): *n values in *v (spmv__free it) */
static inline spmv_status spmv_mm_read_dense(const char *path, int64_t *n_out, double **v_out, spmv_error *err) {
    return spmv__mm_read_arr(path, 1, 0, NULL, n_out, v_out, err);
}
/* an m x n 'array real general' (k vectors: n = k): column-major, element (i, j) at v[j*m + i] */
static inline spmv_status spmv_mm_read_array(const char *path, int64_t *m_out, int64_t *n_out, double **v_out,
                                             spmv_error *err) {
    return spmv__mm_read_arr(path, 0, 0, m_out, n_out, v_out, err);
}
/* the same for an 'array complex general' (or real, integer: imaginary parts 0): *v holds m*n
 * (re, im) pairs, column-major (the layout of spmv_cdouble; spmv_mm_write_array_complex's) */
static inline spmv_status spmv_mm_read_array_complex(const char *path, int64_t *m_out, int64_t *n_out, double **v_out,
                                                     spmv_error *err) {
    return spmv__mm_read_arr(path, 0, 1, m_out, n_out, v_out, err);
}

/* ---- buffered writer: a temporary file renamed into place, or a stream ---------- */
typedef struct spmv__mm_writer {
    FILE *fp;   /* stdio target: the caller's stream (own == 0) or, without POSIX, the file (own == 1) */
    int own;
    int fd;     /* POSIX: the file being written (the temporary, or the target in place); -1 if none */
    void *gz;   /* gzFile */
    char *buf;
    size_t len, cap;
    int failed, errnum;
    char *tmp;  /* POSIX: the temporary this writer created, renamed onto dest (or the path) on success */
    char *dest; /* the resolved target when the path is a symbolic link */
    int inplace; /* POSIX: the temporary is copied into the target (not renamed onto it) */
} spmv__mm_writer;

static inline void spmv__mm_wraw(spmv__mm_writer *w, const char *p, size_t n) {
    if (w->failed || n == 0) return;
#ifdef SPMV_HAVE_ZLIB
    if (w->gz) {
        while (n > 0) {
            unsigned k = n > ((size_t)1 << 30) ? 1u << 30 : (unsigned)n;
            int got = gzwrite((gzFile)w->gz, p, k), zerr = Z_OK;
            if (got <= 0) {
                int e = errno;
                gzerror((gzFile)w->gz, &zerr);
                w->failed = 1;
                w->errnum = zerr == Z_ERRNO ? e : 0;
                return;
            }
            p += got;
            n -= (size_t)got;
        }
        return;
    }
#endif
#if SPMV_MM_POSIX
    if (w->fd >= 0) {
        while (n > 0) {
            ssize_t got = write(w->fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                w->failed = 1;
                w->errnum = got < 0 ? errno : 0;
                return;
            }
            p += got;
            n -= (size_t)got;
        }
        return;
    }
#endif
    if (fwrite(p, 1, n, w->fp) != n) {
        w->failed = 1;
        w->errnum = errno;
    }
}

static inline void spmv__mm_wflush(spmv__mm_writer *w) {
    spmv__mm_wraw(w, w->buf, w->len);
    w->len = 0;
}

static inline void spmv__mm_wrelease(spmv__mm_writer *w) {
    spmv__free(w->buf);
    spmv__free(w->tmp);
    spmv__free(w->dest);
    w->buf = w->tmp = w->dest = NULL;
}

static inline char *spmv__mm_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = (char *)spmv__alloc(n, 1);
    if (d) memcpy(d, s, n);
    return d;
}

#if SPMV_MM_POSIX
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif
/* Creates ".NAME.spmv-PID-N.tmp" beside target with O_EXCL (never an existing file); the fd,
 * -1 with *e = errno, or -2 when out of memory. */
static inline int spmv__mm_open_tmp(spmv__mm_writer *w, const char *target, int *e) {
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dirlen;
    int blen = strlen(base) > 64 ? 64 : (int)strlen(base);
    size_t cap = dirlen + (size_t)blen + 64;
    unsigned attempt;
    char *t = (char *)spmv__alloc(cap, 1);
    if (!t) return -2;
    for (attempt = 0; attempt < 100; attempt++) {
        int fd;
        unsigned long salt = (unsigned long)(((uintptr_t)t >> 4) ^ ((uintptr_t)clock() << 8) ^ (uintptr_t)time(NULL)) +
                             attempt * 2654435761u;
        memcpy(t, target, dirlen);
        snprintf(t + dirlen, cap - dirlen, ".%.*s.spmv-%ld-%lx.tmp", blen, base, (long)getpid(), salt & 0xffffffffUL);
        fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd >= 0) {
            w->tmp = t;
            return fd;
        }
        if (errno != EEXIST) break;
    }
    *e = errno;
    spmv__free(t);
    return -1;
}
#endif

static inline spmv_status spmv__mm_wopen(spmv__mm_writer *w, const char *path, spmv_error *err) {
    int gz = spmv__mm_has_gz_suffix(path);
    memset(w, 0, sizeof *w);
    w->fd = -1;
#ifndef SPMV_HAVE_ZLIB
    if (gz)
        return spmv__mm_err(err, 0, SPMV_ERR_UNSUPPORTED,
                            "cannot write '%s': zlib support is not compiled in (build with -DSPMV_HAVE_ZLIB -lz)", path);
#endif
    w->cap = SPMV__MM_WBUF;
    w->buf = (char *)spmv__alloc(w->cap, 1);
    if (!w->buf) return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the write buffer");
#if SPMV_MM_POSIX
    {
        struct stat st, lst;
        int exists = stat(path, &st) == 0, e = 0;
        if (exists && S_ISDIR(st.st_mode)) {
            spmv__mm_wrelease(w);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, strerror(EISDIR));
        }
        if (exists && !S_ISREG(st.st_mode)) {
            /* a device (/dev/stdout, /dev/null), FIFO or socket: written in place, never replaced */
            w->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
            if (w->fd < 0) {
                e = errno;
                spmv__mm_wrelease(w);
                return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(e));
            }
        } else {
            const char *target = path;
            int direct = 0;
            if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
                /* a link to a regular file: the file it names is replaced, the link stays */
                char *rp = exists ? realpath(path, NULL) : NULL;
                if (rp) {
                    w->dest = spmv__mm_strdup(rp);
                    free(rp); /* realpath's own malloc */
                    if (!w->dest) {
                        spmv__mm_wrelease(w);
                        return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory");
                    }
                    target = w->dest;
                } else {
                    direct = 1; /* a dangling link: written through, as fopen would */
                }
            }
            if (exists && access(target, W_OK) != 0) {
                /* what the user could not write is never replaced (as the shell's `>` refuses it) */
                e = errno;
                spmv__mm_wrelease(w);
                return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot write '%s': %s", path, strerror(e));
            }
            /* another user's file, or one with other names (hard links): the temporary is copied into
               it at the end, so its owner, group and links stay (a rename would replace them) */
            w->inplace = exists && (st.st_uid != geteuid() || st.st_nlink > 1);
            if (!direct) {
                int fd = spmv__mm_open_tmp(w, target, &e);
                if (fd == -2) {
                    spmv__mm_wrelease(w);
                    return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory");
                }
                if (fd >= 0) {
                    w->fd = fd;
                    if (exists) { /* the replaced file's permissions and group (when the user may set it) */
                        (void)fchmod(fd, st.st_mode & 0777);
                        if (fchown(fd, (uid_t)-1, st.st_gid) != 0) errno = 0;
                    }
                } else if (exists && (e == EACCES || e == EPERM)) {
                    direct = 1; /* a writable file in a directory that takes no new files */
                } else {
                    spmv__mm_wrelease(w);
                    return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, strerror(e));
                }
            }
            if (direct) {
                w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0666);
                if (w->fd < 0) {
                    e = errno;
                    spmv__mm_wrelease(w);
                    return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, strerror(e));
                }
            }
        }
#ifdef SPMV_HAVE_ZLIB
        if (gz) {
            gzFile g = gzdopen(w->fd, "wb3");
            if (!g) {
                close(w->fd);
                w->fd = -1;
                if (w->tmp) unlink(w->tmp);
                spmv__mm_wrelease(w);
                return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "cannot start zlib for '%s'", path);
            }
            w->gz = (void *)g;
        }
#endif
        return SPMV_OK;
    }
#else
#ifdef SPMV_HAVE_ZLIB
    if (gz) {
        gzFile g = gzopen(path, "wb3");
        if (!g) {
            int e = errno;
            spmv__mm_wrelease(w);
            return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, e ? strerror(e) : "gzopen failed");
        }
        w->gz = (void *)g;
        return SPMV_OK;
    }
#endif
    (void)gz;
    w->fp = fopen(path, "wb");
    if (!w->fp) {
        int e = errno;
        spmv__mm_wrelease(w);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "cannot create '%s': %s", path, strerror(e));
    }
    w->own = 1;
    return SPMV_OK;
#endif
}

/* Writing to the caller's stream. */
static inline spmv_status spmv__mm_wopen_fp(spmv__mm_writer *w, FILE *f, spmv_error *err) {
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->fp = f;
    w->cap = SPMV__MM_WBUF;
    w->buf = (char *)spmv__alloc(w->cap, 1);
    if (!w->buf) return spmv__mm_err(err, 0, SPMV_ERR_ALLOC, "out of memory allocating the write buffer");
    return SPMV_OK;
}

#if SPMV_MM_POSIX
/* The finished temporary copied into the existing file `to` (opened for writing, truncated):
 * its inode, owner, group and links stay. A failure midway leaves `to` partially written. */
static inline void spmv__mm_copy_into(spmv__mm_writer *w, const char *to) {
    int in = open(w->tmp, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open(to, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
    if (in < 0 || out < 0) {
        w->failed = 1;
        w->errnum = errno;
    }
    while (!w->failed) {
        ssize_t got = read(in, w->buf, w->cap);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) w->failed = 1, w->errnum = errno;
        if (got <= 0) break;
        w->fd = out;
        spmv__mm_wraw(w, w->buf, (size_t)got);
        w->fd = -1;
    }
    if (in >= 0) close(in);
    if (out >= 0 && close(out) != 0 && !w->failed) w->failed = 1, w->errnum = errno;
}
#endif

/* Flushes and closes; renames the temporary into place on success, removes it (and nothing
 * else) on failure. path == NULL: the caller's stream (flushed, left open). */
static inline spmv_status spmv__mm_wclose(spmv__mm_writer *w, const char *path, spmv_error *err) {
    spmv__mm_wflush(w);
#ifdef SPMV_HAVE_ZLIB
    if (w->gz) {
        int rc = gzclose((gzFile)w->gz); /* closes the fd too */
        if (rc != Z_OK && !w->failed) {
            w->failed = 1;
            w->errnum = rc == Z_ERRNO ? errno : 0;
        }
        w->gz = NULL;
        w->fd = -1;
    }
#endif
#if SPMV_MM_POSIX
    if (w->fd >= 0) {
        if (close(w->fd) != 0 && !w->failed) {
            w->failed = 1;
            w->errnum = errno;
        }
        w->fd = -1;
    }
#endif
    if (w->fp) {
        if (w->own) {
            if (fclose(w->fp) != 0 && !w->failed) {
                w->failed = 1;
                w->errnum = errno;
            }
        } else if ((fflush(w->fp) != 0 || ferror(w->fp)) && !w->failed) {
            w->failed = 1;
            w->errnum = errno;
        }
        w->fp = NULL;
    }
#if SPMV_MM_POSIX
    if (w->tmp) {
        const char *to = w->dest ? w->dest : path;
        if (!w->failed && !w->inplace && rename(w->tmp, to) != 0) {
            /* a file the user may write but not replace (another's file in a sticky directory) */
            if (errno == EPERM || errno == EACCES || errno == EBUSY) w->inplace = 1;
            else w->failed = 1, w->errnum = errno;
        }
        if (!w->failed && w->inplace) spmv__mm_copy_into(w, to);
        if (w->failed || w->inplace) unlink(w->tmp); /* the temporary this writer created, nothing else */
    }
#endif
    spmv__mm_wrelease(w);
    if (w->failed) {
        const char *why = w->errnum ? strerror(w->errnum) : "write failed (disk full?)";
        if (!path) return spmv__mm_err(err, 0, SPMV_ERR_IO, "error writing to the output stream: %s", why);
        return spmv__mm_err(err, 0, SPMV_ERR_IO, "error writing '%s': %s", path, why);
    }
    return SPMV_OK;
}

/* ---- the library's own files (calibration, plans): what may be read and replaced ----
 * SPMV_OK when path is absent or a regular file (followed through a symbolic link when
 * follow), else SPMV_ERR_IO with why: a directory, fifo or device is never opened (a fifo
 * would block a reader), a symbolic link is never written through (follow == 0). */
static inline spmv_status spmv__file_regular(const char *path, int follow, const char *what, spmv_error *e) {
    struct stat st;
#if SPMV_MM_POSIX
    if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) return SPMV_OK;
    if (!follow && S_ISLNK(st.st_mode))
        return spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: '%.100s' is a symbolic link: not written through", what, path);
#else /* a strict ISO C build has no lstat: links are followed, as the writer does */
    (void)follow;
    if (stat(path, &st) != 0) return SPMV_OK;
#endif
    if (!S_ISREG(st.st_mode))
        return spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: '%.100s' is %s, not a regular file", what, path,
                            S_ISDIR(st.st_mode) ? "a directory" : "a special file (fifo, device or socket)");
    return SPMV_OK;
}

/* SPMV_OK when path may be replaced by a file of the kind whose first line starts with
 * header: absent, or a regular file (not a link) whose first line does; anything else is
 * SPMV_ERR_IO ("... is not KIND: not replaced") and is left alone. */
static inline spmv_status spmv__own_file(const char *path, const char *header, const char *kind, const char *what,
                                         spmv_error *e) {
    char line[128];
    const size_t n = strlen(header);
    int ours;
    FILE *f;
    spmv_status st = spmv__file_regular(path, 0, what, e);
    if (st != SPMV_OK) return st;
    if (!(f = fopen(path, "r"))) {
        if (errno == ENOENT || errno == ENOTDIR) return SPMV_OK; /* the writer says why it cannot create it */
        return spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: cannot read '%.100s': %s", what, path, strerror(errno));
    }
    ours = n < sizeof line && fgets(line, sizeof line, f) && !strncmp(line, header, n);
    fclose(f);
    if (!ours)
        return spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: '%.100s' exists and is not %s: not replaced", what, path, kind);
    return SPMV_OK;
}

#ifndef SPMV_LOCK_WAIT_S
#define SPMV_LOCK_WAIT_S 10 /* seconds a writer waits for another writer's lock */
#endif
/* An exclusive lock held while a read-modify-write of path runs, so that concurrent writers
 * (processes or threads) merge instead of losing updates: flock on "PATH.lock" beside it,
 * created if absent (never through a symbolic link, never written, never removed). Returns
 * the lock's descriptor (>= 0), -2 where the build has no POSIX (no lock), or -1 with
 * SPMV_ERR_IO in e (not obtainable, or held by another writer for SPMV_LOCK_WAIT_S). */
static inline int spmv__lock_beside(const char *path, const char *what, spmv_error *e) {
#if SPMV_MM_POSIX
    char lk[4096];
    int fd, i;
    if ((size_t)snprintf(lk, sizeof lk, "%s.lock", path) >= sizeof lk) {
        spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: the path '%.100s...' is too long", what, path);
        return -1;
    }
    fd = open(lk, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
    if (fd < 0) {
        spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: cannot create the lock '%.100s': %s", what, lk, strerror(errno));
        return -1;
    }
    for (i = 0; i < 100 * SPMV_LOCK_WAIT_S; i++) {
        struct timespec ts = {0, 10000000}; /* 10 ms */
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
        if (errno != EWOULDBLOCK && errno != EINTR) break;
        nanosleep(&ts, NULL);
    }
    spmv__mm_err(e, 0, SPMV_ERR_IO, "%s: cannot lock '%.100s': %s", what, lk,
                 errno == EWOULDBLOCK ? "held by another writer" : strerror(errno));
    close(fd);
    return -1;
#else
    (void)path, (void)what, (void)e;
    return -2;
#endif
}
static inline void spmv__unlock(int fd) {
#if SPMV_MM_POSIX
    if (fd >= 0) close(fd); /* releases the flock */
#else
    (void)fd;
#endif
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

/* Replaces the locale's decimal point (whatever bytes printf used: ",", a multibyte
 * separator) by '.': everything in a %g number but digits, letters and signs. Returns the
 * new length. */
static inline size_t spmv__mm_radix_fix(char *d, size_t n) {
    size_t i = 0, o = 0;
    while (i < n) {
        char c = d[i];
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-') {
            d[o++] = c;
            i++;
        } else {
            d[o++] = '.';
            while (i < n && !((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'z') ||
                              (d[i] >= 'A' && d[i] <= 'Z') || d[i] == '+' || d[i] == '-'))
                i++;
        }
    }
    return o;
}

/* Appends x exactly as printf("%.17g") would in the C locale: integers below 2^53 directly
 * (that is what %.17g prints for them), everything else through snprintf with the locale's
 * decimal point turned back into '.'. */
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
        if (n <= 0 || (size_t)n >= room) return d;
        return d + spmv__mm_radix_fix(d, (size_t)n);
    }
}

/* One "row col value\n" line; 1-based indices given. */
/* one entry: "i j x\n", or with an imaginary part (xi non-NULL) "i j x xi\n" */
static inline void spmv__mm_wentry(spmv__mm_writer *w, int64_t i, int64_t j, double x, const double *xi) {
    char *d, *d0;
    if (w->cap - w->len < 256) spmv__mm_wflush(w);
    d0 = d = w->buf + w->len;
    d = spmv__mm_fmt_i64(d, i);
    *d++ = ' ';
    d = spmv__mm_fmt_i64(d, j);
    *d++ = ' ';
    d = spmv__mm_fmt_f64(d, x, 64);
    if (xi) {
        *d++ = ' ';
        d = spmv__mm_fmt_f64(d, *xi, 64);
    }
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

static inline spmv_status spmv__mm_check_triplets(const spmv_triplets *t, spmv_error *err) {
    int64_t k;
    if (t->nrows < 0 || t->ncols < 0 || t->nnz < 0 || (t->nnz > 0 && (!t->row || !t->col || !t->val)))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: invalid triplets (negative size or missing arrays)");
    for (k = 0; k < t->nnz; k++)
        if (t->row[k] < 0 || t->row[k] >= t->nrows || t->col[k] < 0 || t->col[k] >= t->ncols)
            return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: entry %lld (%lld,%lld) outside the %lld x %lld matrix",
                                (long long)k, (long long)t->row[k], (long long)t->col[k], (long long)t->nrows,
                                (long long)t->ncols);
    return SPMV_OK;
}

static inline void spmv__mm_write_coo(spmv__mm_writer *w, const spmv_triplets *t) {
    int64_t k;
    spmv__mm_wprintf(w, "%%%%MatrixMarket matrix coordinate %s general\n%lld %lld %lld\n", t->vim ? "complex" : "real",
                     (long long)t->nrows, (long long)t->ncols, (long long)t->nnz);
    for (k = 0; k < t->nnz && !w->failed; k++)
        spmv__mm_wentry(w, t->row[k] + 1, t->col[k] + 1, t->val[k], t->vim ? &t->vim[k] : NULL);
}

static inline void spmv__mm_write_vec(spmv__mm_writer *w, int64_t n, const double *v) {
    int64_t k;
    spmv__mm_wprintf(w, "%%%%MatrixMarket matrix array real general\n%lld 1\n", (long long)n);
    for (k = 0; k < n && !w->failed; k++) spmv__mm_wvalue(w, v[k]);
}
static inline void spmv__mm_write_arr(spmv__mm_writer *w, int64_t m, int64_t n, const double *v) {
    int64_t k;
    spmv__mm_wprintf(w, "%%%%MatrixMarket matrix array real general\n%lld %lld\n", (long long)m, (long long)n);
    for (k = 0; k < m * n && !w->failed; k++) spmv__mm_wvalue(w, v[k]);
}
/* 'array complex general': v holds (re, im) pairs, column-major; one "re im" line each */
static inline void spmv__mm_write_arrc(spmv__mm_writer *w, int64_t m, int64_t n, const double *v) {
    int64_t k;
    spmv__mm_wprintf(w, "%%%%MatrixMarket matrix array complex general\n%lld %lld\n", (long long)m, (long long)n);
    for (k = 0; k < m * n && !w->failed; k++) {
        char *d, *d0;
        if (w->cap - w->len < 256) spmv__mm_wflush(w);
        d0 = d = w->buf + w->len;
        d = spmv__mm_fmt_f64(d, v[2 * k], 64);
        *d++ = ' ';
        d = spmv__mm_fmt_f64(d, v[2 * k + 1], 64);
        *d++ = '\n';
        w->len += (size_t)(d - d0);
    }
}

static inline spmv_status spmv_mm_write(const char *path, const spmv_triplets *t, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    spmv__mm_err_clear(err);
    if (!path || !*path || !t)
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write: %s", !t ? "NULL matrix" : "NULL or empty path");
    st = spmv__mm_check_triplets(t, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_wopen(&w, path, err);
    if (st != SPMV_OK) return st;
    spmv__mm_write_coo(&w, t);
    return spmv__mm_wclose(&w, path, err);
}

static inline spmv_status spmv_mm_write_fp(FILE *f, const spmv_triplets *t, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    spmv__mm_err_clear(err);
    if (!f || !t) return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write_fp: NULL %s", f ? "matrix" : "stream");
    st = spmv__mm_check_triplets(t, err);
    if (st != SPMV_OK) return st;
    st = spmv__mm_wopen_fp(&w, f, err);
    if (st != SPMV_OK) return st;
    spmv__mm_write_coo(&w, t);
    return spmv__mm_wclose(&w, NULL, err);
}

static inline spmv_status spmv_mm_write_dense(const char *path, int64_t n, const double *v, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    spmv__mm_err_clear(err);
    if (!path || !*path || n < 0 || (n > 0 && !v))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write_dense: NULL or empty path, NULL vector or negative length");
    st = spmv__mm_wopen(&w, path, err);
    if (st != SPMV_OK) return st;
    spmv__mm_write_vec(&w, n, v);
    return spmv__mm_wclose(&w, path, err);
}

/* an m x n array, column-major (v[j*m + i]), to a file (written beside it, renamed into place)
 * or a stream (path NULL: f) */
static inline spmv_status spmv__mm_write_array2(const char *path, FILE *f, int64_t m, int64_t n, const double *v,
                                                int cplx, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    spmv__mm_err_clear(err);
    if ((!path && !f) || (path && !*path) || m < 0 || n < 0 || (m > 0 && n > 0 && !v))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "%s: no destination, negative size or NULL values",
                            cplx ? "spmv_mm_write_array_complex" : "spmv_mm_write_array");
    st = path ? spmv__mm_wopen(&w, path, err) : spmv__mm_wopen_fp(&w, f, err);
    if (st != SPMV_OK) return st;
    if (cplx) spmv__mm_write_arrc(&w, m, n, v);
    else spmv__mm_write_arr(&w, m, n, v);
    return spmv__mm_wclose(&w, path, err);
}
static inline spmv_status spmv_mm_write_array(const char *path, FILE *f, int64_t m, int64_t n, const double *v,
                                              spmv_error *err) {
    return spmv__mm_write_array2(path, f, m, n, v, 0, err);
}
/* the same, 'array complex general': v holds m*n (re, im) pairs, column-major (a complex vector
 * or k of them: the layout of spmv_cdouble) */
static inline spmv_status spmv_mm_write_array_complex(const char *path, FILE *f, int64_t m, int64_t n, const double *v,
                                                      spmv_error *err) {
    return spmv__mm_write_array2(path, f, m, n, v, 1, err);
}

static inline spmv_status spmv_mm_write_dense_fp(FILE *f, int64_t n, const double *v, spmv_error *err) {
    spmv__mm_writer w;
    spmv_status st;
    spmv__mm_err_clear(err);
    if (!f || n < 0 || (n > 0 && !v))
        return spmv__mm_err(err, 0, SPMV_ERR_ARG, "spmv_mm_write_dense_fp: NULL stream/vector or negative length");
    st = spmv__mm_wopen_fp(&w, f, err);
    if (st != SPMV_OK) return st;
    spmv__mm_write_vec(&w, n, v);
    return spmv__mm_wclose(&w, NULL, err);
}

#endif /* SPMV_MM_H */
