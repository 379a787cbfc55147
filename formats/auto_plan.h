/* auto_plan — a selection's choice saved to a small text file and reused on the same matrix
 * (formats/auto.h's handle; the file under the library's writing rules, formats/io/mm.h).
 * Parts: SPMV_PART_DECLS, SPMV_PART_DEFS (formats/instance.h includes it after auto.h). */

#if defined(SPMV_PART_DECLS)
SPMV_API spmv_status SPMV_NAME(auto_plan_save)(const SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const char *path,
        spmv_error *e);
SPMV_API spmv_status SPMV_NAME(auto_from_plan)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const char *path,
        spmv_error *e);
#endif /* SPMV_PART_DECLS */

#if defined(SPMV_PART_DEFS)
/* ---- saved choices ----
 * A choice can be written to a small text file and reused on the same matrix: the chosen
 * format, its parameters and ISA, the value type and operation it was made for (mv, mvt: the
 * format built from A^T, mm:k=N), and a fingerprint of A's structure (sizes, row_ptr and
 * col_idx, index-type independent), so a solver that runs again pays no selection:
 *   spmv_d_auto_plan_save(&M, &A, "A.plan", &err);    // after auto_from_csr
 *   spmv_d_auto_from_plan(&M2, &A, "A.plan", &err);   // later: the same format, untimed
 * Saving writes beside the file and renames it into place (as the Matrix Market writer does),
 * and replaces only a plan: another file, a symbolic link, a directory or a special file is
 * SPMV_ERR_IO and left alone. Loading: SPMV_ERR_IO when it cannot be read or is not a regular
 * file (never opened: a fifo would block), SPMV_ERR_PARSE when it is not a plan (the line in
 * err), SPMV_ERR_ARG when its fingerprint is not A's ("another matrix") or it was made for the
 * other value type (float/double: parameters such as axc's thw depend on it). The handle does
 * what the plan was made for: built from A^T (auto_mv gives A^T x) when its operation is mvt;
 * rep.opts.transpose and rep.opts.mm_k say which, and rep.why names it. A plan whose ISA this
 * CPU or build lacks (another machine's) is built with the best ISA here, said in rep.why. */
#ifndef SPMV__PLAN_FILE
#define SPMV__PLAN_FILE
#define SPMV__PLAN_HEADER "%%spmv plan"
typedef struct spmv__plan {
    char fmt[64], prm[512], isa[32], prec[16];
    unsigned long long fp;
    long long nr, nc, nz;
    int transpose, mm_k;
} spmv__plan;
/* the operation's word in a plan and in messages */
static inline void spmv__plan_op(char *buf, size_t n, int transpose, int mm_k) {
    if (transpose) snprintf(buf, n, transpose == 2 ? "mvh" : "mvt");
    else if (mm_k > 0) snprintf(buf, n, "mm:k=%d", mm_k);
    else snprintf(buf, n, "mv");
}
/* One plan line into P; the bit it sets in `have`, 0 when the line is not a plan's. */
static inline int spmv__plan_line(const char *line, int version, spmv__plan *P) {
    int tr = -1;
    char op[32];
    if (sscanf(line, "fingerprint %llx", &P->fp) == 1) return 2;
    if (sscanf(line, "size %lld %lld %lld", &P->nr, &P->nc, &P->nz) == 3) return 4;
    if (sscanf(line, "format %63s", P->fmt) == 1) return 8;
    if (!strncmp(line, "params ", 7) || !strcmp(line, "params")) {
        snprintf(P->prm, sizeof P->prm, "%.500s", line[6] ? line + 7 : "");
        return 16;
    }
    if (sscanf(line, "isa %31s", P->isa) == 1) return 32;
    if (version == 1 && sscanf(line, "transposed %d", &tr) == 1 && (tr == 0 || tr == 1)) return P->transpose = tr, 64;
    if (version >= 2 && sscanf(line, "op %31s", op) == 1) {
        if (!strcmp(op, "mv") || !strcmp(op, "mvt") || !strcmp(op, "mvh")) return P->transpose = op[2] == 't' ? 1 : op[2] == 'h' ? 2 : 0, 64;
        if (!strncmp(op, "mm:k=", 5) && sscanf(op + 5, "%d", &P->mm_k) == 1 && P->mm_k >= 1 && P->mm_k <= 4096) return 64;
        return 0;
    }
    if (version >= 2 && sscanf(line, "precision %15s", P->prec) == 1 && (!strcmp(P->prec, "double") || !strcmp(P->prec, "float")))
        return 128;
    return 0;
}
/* The plan at path read into P: SPMV_OK, or SPMV_ERR_IO / SPMV_ERR_PARSE with e naming the
 * file (and the line). Version 1 plans (no precision, `transposed`) are read too. */
static inline spmv_status spmv__plan_read(const char *path, spmv__plan *P, spmv_error *e) {
    char line[600];
    int have = 0, want = 127, ln = 0, version = 0, bit;
    FILE *f;
    memset(P, 0, sizeof *P);
    P->nr = P->nc = P->nz = -1;
    if (spmv__file_regular(path, 1, "auto_from_plan", e) != SPMV_OK) return SPMV_ERR_IO;
    if (!(f = fopen(path, "r")))
        return spmv__mm_err(e, 0, SPMV_ERR_IO, "cannot read the plan '%.100s': %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        char *nl = strchr(line, '\n');
        ln++;
        if (nl) *nl = 0;
        if (ln == 1) {
            if (!strcmp(line, SPMV__PLAN_HEADER " 1")) version = 1;
            else if (!strcmp(line, SPMV__PLAN_HEADER " 2")) version = 2, want = 255;
            else break;
            have |= 1;
        } else if ((bit = spmv__plan_line(line, version, P)) != 0) have |= bit;
        else break;
    }
    fclose(f);
    if (have != want) {
        if (e) e->line = ln;
        return spmv__mm_err(e, 0, SPMV_ERR_PARSE, "the plan '%.100s' is damaged or not a plan of this version (line %d)",
                            path, ln);
    }
    return SPMV_OK;
}
#endif
SPMV_API spmv_status SPMV_NAME(auto_plan_save)(const SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const char *path,
                                                    spmv_error *e) {
    spmv__mm_writer w;
    spmv_status st;
    char prm[160], op[32];
    if (e) e->line = 0, e->msg[0] = 0;
    if (!M || !A || !path || !*path || !spmv_format_compiled(M->h.fmt)) {
        SPMV__ERR(e, "auto_plan_save: no handle, matrix or path");
        return SPMV_ERR_ARG;
    }
    if ((st = spmv__own_file(path, SPMV__PLAN_HEADER " ", "a plan", "auto_plan_save", e)) != SPMV_OK) return st;
    SPMV_NAME(any_params_str)(&M->h, prm, sizeof prm);
    spmv__plan_op(op, sizeof op, M->h.transposed, M->h.transposed ? 0 : M->rep.opts.mm_k);
    if ((st = spmv__mm_wopen(&w, path, e)) != SPMV_OK) return st;
    spmv__mm_wprintf(&w, "%s 2\nfingerprint %016llx\nsize %lld %lld %lld\nformat %s\nparams %s\nisa %s\nop %s\nprecision %s\n",
                     SPMV__PLAN_HEADER, (unsigned long long)SPMV_NAME(csr_fingerprint)(A), (long long)A->nrows, (long long)A->ncols,
                     (long long)A->nnz, spmv_format_name(M->h.fmt), prm, spmv_isa_name(SPMV_NAME(any_isa)(&M->h)), op,
                     SPMV__PRECISION_NAME);
    return spmv__mm_wclose(&w, path, e);
}
SPMV_API spmv_status SPMV_NAME(auto_from_plan)(SPMV_NAME(auto) *M, const SPMV_NAME(csr) *A, const char *path,
                                                    spmv_error *e) {
    const double t0 = spmv_wtime();
    const char *here = SPMV__PRECISION_NAME; /* as saved */
    spmv_opts o = spmv_opts_default();
    spmv__plan P;
    spmv_status st;
    char op[32];
    if (e) e->line = 0, e->msg[0] = 0;
    if (!M) return SPMV_ERR_ARG;
    memset(M, 0, sizeof *M);
    if (!A || !path || SPMV_NAME(csr_check)(A) != SPMV_OK) {
        SPMV__ERR(e, "auto_from_plan: no matrix or path, or a malformed matrix");
        return SPMV_ERR_ARG;
    }
    if ((st = spmv__plan_read(path, &P, e)) != SPMV_OK) return st;
    if (spmv_format_parse(P.fmt, &o.format) != SPMV_OK || spmv_isa_parse(P.isa, &o.isa) != SPMV_OK) {
        SPMV__ERR(e, "the plan '%.100s' names a format or ISA this build does not know (%.30s, %.20s)", path, P.fmt, P.isa);
        return SPMV_ERR_PARSE;
    }
    if (P.nr != (long long)A->nrows || P.nc != (long long)A->ncols || P.nz != (long long)A->nnz ||
        P.fp != (unsigned long long)SPMV_NAME(csr_fingerprint)(A)) {
        SPMV__ERR(e, "the plan '%.100s' is for another matrix (%lld x %lld, %lld entries; fingerprint %016llx)", path,
                  P.nr, P.nc, P.nz, P.fp);
        return SPMV_ERR_ARG;
    }
    if (P.prec[0] && strcmp(P.prec, here)) {
        SPMV__ERR(e, "the plan '%.100s' was made for %s values; this is the %s API (save a plan with it)", path, P.prec,
                  here);
        return SPMV_ERR_ARG;
    }
    o.params = P.prm[0] ? P.prm : NULL;
    o.transpose = P.transpose;
    o.mm_k = P.mm_k;
    M->rep.opts = o;
    spmv__plan_op(op, sizeof op, P.transpose, P.mm_k);
    if (o.isa != SPMV_ISA_AUTO && !spmv_isa_supported(o.isa)) { /* another machine's ISA: the best one here */
        o.isa = SPMV_ISA_AUTO;
        st = SPMV_NAME(any_from_csr)(&M->h, A, &o, e);
        if (st != SPMV_OK) { /* its parameters may belong to that ISA's width */
            o.params = NULL;
            st = SPMV_NAME(any_from_csr)(&M->h, A, &o, e);
        }
        snprintf(M->rep.why, sizeof M->rep.why, "from the plan (%.20s for %.10s, made with %.20s, not available here: %s)",
                 P.fmt, op, P.isa, spmv_isa_name(SPMV_NAME(any_isa)(&M->h)));
    } else {
        st = SPMV_NAME(any_from_csr)(&M->h, A, &o, e);
        snprintf(M->rep.why, sizeof M->rep.why, "from the plan (%.20s %.100s %.20s, for %.10s), untimed", P.fmt, P.prm,
                 spmv_isa_name(SPMV_NAME(any_isa)(&M->h)), op);
    }
    if (st != SPMV_OK) {
        spmv_auto_report keep = M->rep;
        char why[sizeof e->msg];
        snprintf(why, sizeof why, "%s", e ? e->msg : "");
        SPMV__ERR(e, "the plan '%.80s' (%.20s %.30s) does not build here: %.80s", path, P.fmt, P.prm, why);
        memset(M, 0, sizeof *M);
        M->rep = keep;
        return st;
    }
    M->rep.chosen = M->h.fmt;
    M->rep.select_s = spmv_wtime() - t0;
    return SPMV_OK;
}
#endif /* SPMV_PART_DEFS */
