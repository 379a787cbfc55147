/* spmv-mpi — the distributed product from the command line (spmv_mpi.h), run under mpirun:
 *   mpirun -np N build/spmv-mpi mv [--format F] [--transpose] [--x X.mtx] [--out Y.mtx|-] A.mtx
 *       y = A x (or A^T x) with A's rows split over the ranks (each rank reads its rows of the
 *       file, dist_from_mm), x read by rank 0 (a Matrix Market array; default all ones)
 *       and scattered, y gathered and written once by rank 0 (Matrix Market array, to the file
 *       or, --out -, to standard output as `spmv mv` writes it; without --out: its size and
 *       2-norm on standard output).
 *   mpirun -np N build/spmv-mpi bench [--format F] [--samples S] [--csv FILE] MATRIX...
 *       MATRIX: a file or gen:SPEC (made on rank 0 and scattered). Per matrix: the median time
 *       of a product over S samples (default 30, each >= 20 ms), GFLOP/s, and per rank (the
 *       busiest): ghost bytes received, messages (receives + sends), and dist_mv's time split
 *       into packing/posting, the blocks' products and waiting. CSV columns as `spmv bench`'s
 *       where they mean the same (matrix, rows, cols, nnz, format, threads, precision,
 *       spmv_s, gflops) plus ranks, halo_bytes_max, msgs_max, pack_s, local_s, wait_s.
 * Every rank must be given the same arguments: they are parsed on each rank, then agreed
 * (mb_agree_args) before anything collective: an argument error on any rank, or arguments
 * that differ between ranks, end every rank with status 2 (the message printed once).
 * Exit status: 0, 1 a failure (the same on every rank), 2 usage. */
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "mpi_common.h"
#include "tool_out.h"

static int rank_, size_;

static const char usage_[] =
    "usage:\n"
    "  mpirun -np N spmv-mpi mv [--format F] [--transpose] [--x X.mtx] [--out Y.mtx|-] A.mtx\n"
    "  mpirun -np N spmv-mpi bench [--format F] [--samples S] [--csv FILE] MATRIX...\n"
    "(every rank with the same arguments)\n";

/* the parsed command lines; err_: what this rank's parse would print (mb_agree_args prints it once) */
typedef struct mv_args {
    const char *xpath, *out, *apath;
    spmv_opts o;
    int tr;
} mv_args;
typedef struct bench_args {
    const char *csvp;
    spmv_opts o;
    int ns;
} bench_args;
static char err_[1024];

/* usage: 2, err_ the text */
static int parse_fail(const char *cmd, const char *what, const char *arg) {
    if (what) snprintf(err_, sizeof err_, "spmv-mpi %s: %s '%s'\n%s", cmd, what, arg, usage_);
    else snprintf(err_, sizeof err_, "%s", usage_);
    return 2;
}

/* --format F: 0, or 2 with err_ */
static int parse_format(const char *cmd, const char *f, spmv_opts *o) {
    if (spmv_format_parse(f, &o->format) == SPMV_OK) return 0;
    snprintf(err_, sizeof err_, "spmv-mpi %s: unknown format '%s'\n", cmd, f);
    return 2;
}

static int parse_mv(int argc, char **argv, mv_args *A) {
    int i;
    memset(A, 0, sizeof *A);
    A->o = spmv_opts_default();
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (parse_format("mv", argv[++i], &A->o)) return 2;
        } else if (!strcmp(argv[i], "--transpose")) {
            A->tr = 1;
        } else if (!strcmp(argv[i], "--x") && i + 1 < argc) {
            A->xpath = argv[++i];
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            A->out = argv[++i];
        } else if (argv[i][0] != '-' && !A->apath) {
            A->apath = argv[i];
        } else {
            return parse_fail("mv", argv[i][0] == '-' ? "unknown option or missing value" : "a second matrix",
                              argv[i]);
        }
    }
    if (!A->apath) return parse_fail("mv", NULL, NULL);
    return 0;
}

static int parse_bench(int argc, char **argv, bench_args *B) {
    int i;
    memset(B, 0, sizeof *B);
    B->o = spmv_opts_default();
    B->ns = 30;
    for (i = 0; i < argc; i++) { /* the options; the rest are matrices */
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (parse_format("bench", argv[++i], &B->o)) return 2;
        } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            char *end;
            const long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 1 || v > 1000000) {
                snprintf(err_, sizeof err_, "spmv-mpi bench: --samples '%s': a whole number from 1 to 1000000\n",
                         argv[i]);
                return 2;
            }
            B->ns = (int)v;
        } else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            B->csvp = argv[++i];
        } else if (argv[i][0] == '-') {
            return parse_fail("bench", "unknown option or missing value", argv[i]);
        }
    }
    return 0;
}

/* every rank's flag: 1 when any rank has it */
static int any_rank(int bad) {
    int all = bad;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

/* y = A x: collective, after the arguments were agreed */
static int cmd_mv(const mv_args *A) {
    const char *xpath = A->xpath, *out = A->out, *apath = A->apath;
    const spmv_opts o = A->o;
    const int tr = A->tr;
    int i, bad = 0, *cnt = NULL, *dsp = NULL;
    spmv_d_dist D;
    spmv_error e;
    spmv_status st;
    double *x = NULL, *y = NULL, *xl = NULL, *yl = NULL;
    int64_t nx, ny, m = 0, n = 0;
    st = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, apath, &o, &e); /* collective: the same status everywhere */
    if (st != SPMV_OK) {
        if (rank_ == 0) fprintf(stderr, "spmv-mpi mv: %s: %s (%s)\n", apath, spmv_status_str(st), e.msg);
        return 1;
    }
    nx = tr ? D.nrows : D.ncols; /* x's global length, y's */
    ny = tr ? D.ncols : D.nrows;
    if (rank_ == 0) { /* x: the file's, or ones */
        if (xpath) {
            st = spmv_mm_read_array(xpath, &m, &n, &x, &e);
            if (st != SPMV_OK) fprintf(stderr, "spmv-mpi mv: %s: %s (%s)\n", xpath, spmv_status_str(st), e.msg), bad = 1;
            else if (m != nx || n != 1)
                fprintf(stderr, "spmv-mpi mv: %s is %lld x %lld; x must be %lld x 1\n", xpath, (long long)m,
                        (long long)n, (long long)nx), bad = 1;
        } else {
            x = (double *)malloc(sizeof(double) * (size_t)(nx + 1));
            if (!x) bad = 1, fprintf(stderr, "spmv-mpi mv: out of memory\n");
            for (i = 0; x && i < nx; i++) x[i] = 1;
        }
        y = (double *)malloc(sizeof(double) * (size_t)(ny + 1));
        cnt = (int *)malloc(sizeof(int) * (size_t)size_);
        dsp = (int *)malloc(sizeof(int) * (size_t)size_);
        if (!y || !cnt || !dsp) bad = 1, fprintf(stderr, "spmv-mpi mv: out of memory\n");
        if (nx > 2147483647 || ny > 2147483647) bad = 1, fprintf(stderr, "spmv-mpi mv: vectors above 2^31 entries\n");
    }
    {
        const int64_t lx = tr ? D.nloc : D.ncloc, ly = tr ? D.ncloc : D.nloc;
        xl = (double *)malloc(sizeof(double) * (size_t)(lx + 1));
        yl = (double *)malloc(sizeof(double) * (size_t)(ly + 1));
        if (!xl || !yl) bad = 1;
        if (any_rank(bad)) goto fail;
        if (rank_ == 0) /* x's parts: rows for A^T x, columns for A x */
            for (i = 0; i < size_; i++) {
                const int64_t *s = tr ? D.row_start : D.col_start;
                cnt[i] = (int)(s[i + 1] - s[i]);
                dsp[i] = (int)s[i];
            }
        MPI_Scatterv(x, cnt, dsp, MPI_DOUBLE, xl, (int)lx, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        st = tr ? spmv_d_dist_mvt(&D, 1.0, xl, 0.0, yl) : spmv_d_dist_mv(&D, 1.0, xl, 0.0, yl);
        if (any_rank(st != SPMV_OK)) {
            if (rank_ == 0) fprintf(stderr, "spmv-mpi mv: the product failed: %s\n", spmv_status_str(st));
            goto fail;
        }
        if (rank_ == 0)
            for (i = 0; i < size_; i++) {
                const int64_t *s = tr ? D.col_start : D.row_start;
                cnt[i] = (int)(s[i + 1] - s[i]);
                dsp[i] = (int)s[i];
            }
        MPI_Gatherv(yl, (int)ly, MPI_DOUBLE, y, cnt, dsp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    if (rank_ == 0) {
        if (out) { /* "-": standard output, the text `spmv mv --out -` writes; a file: beside it, renamed */
            const int to_stdout = !strcmp(out, "-");
            st = to_stdout ? spmv_mm_write_dense_fp(stdout, ny, y, &e) : spmv_mm_write_array(out, NULL, ny, 1, y, &e);
            if (st != SPMV_OK)
                fprintf(stderr, "spmv-mpi mv: %s: %s (%s)\n", to_stdout ? "standard output" : out, spmv_status_str(st),
                        e.msg),
                    bad = 1;
        } else {
            double s2 = 0;
            for (i = 0; i < ny; i++) s2 += y[i] * y[i];
            printf("y: %lld values on %d ranks, 2-norm %.17g\n", (long long)ny, size_, sqrt(s2));
        }
    }
    bad = any_rank(bad);
    free(x), free(y), free(xl), free(yl), free(cnt), free(dsp);
    spmv_d_dist_free(&D);
    return bad;
fail:
    free(x), free(y), free(xl), free(yl), free(cnt), free(dsp);
    spmv_d_dist_free(&D);
    return 1;
}


/* the bench: collective, after the arguments were agreed (argv: the matrices among the options) */
static int cmd_bench(const bench_args *B, int argc, char **argv) {
    const spmv_opts o = B->o;
    const char *csvp = B->csvp;
    FILE *csv = NULL;
    int i, ns = B->ns, fails = 0;
    if (rank_ == 0 && csvp) { /* rows to a temporary, the file written at the end (bench/tool_out.h) */
        char why[200];
        if (tool_out_check(csvp, why, sizeof why) != 0 || !(csv = tmpfile()))
            fprintf(stderr, "spmv-mpi bench: cannot write '%s': %s\n", csvp, csv ? why : strerror(errno));
        else
            fprintf(csv, "matrix,rows,cols,nnz,format,threads,precision,ranks,spmv_s,gflops,halo_bytes_max,msgs_max,"
                         "pack_s,local_s,wait_s\n");
    }
    if (any_rank(csvp && rank_ == 0 && !csv)) return 1;
    if (rank_ == 0)
        printf("# spmv-mpi bench: %d ranks x %d threads; per product: median time, and on the busiest rank the "
               "ghost bytes received, messages (receives + sends) and dist_mv's split (pack/post, products, wait)\n",
               size_, spmv_max_threads());
    for (i = 0; i < argc; i++) {
        spmv_d_csr A;
        spmv_d_dist D;
        spmv_error e;
        spmv_status st;
        mb_ctx m;
        double *x, *y, med, nnz, mine[5], mx[5];
        int64_t k;
        if (!strcmp(argv[i], "--format") || !strcmp(argv[i], "--samples") || !strcmp(argv[i], "--csv")) {
            i++;
            continue;
        }
        memset(&A, 0, sizeof A);
        if (!strncmp(argv[i], "gen:", 4)) {
            st = mb_root_matrix(argv[i], rank_, &A, &e);
            if (rank_ == 0 && st != SPMV_OK) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank_ == 0 && st == SPMV_OK ? &A : NULL, &o, &e);
            spmv_d_csr_free(&A);
        } else {
            st = spmv_d_dist_from_mm(&D, MPI_COMM_WORLD, argv[i], &o, &e);
        }
        if (st != SPMV_OK) {
            if (rank_ == 0) fprintf(stderr, "spmv-mpi bench: %s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            fails++;
            continue;
        }
        x = (double *)malloc(sizeof(double) * (size_t)(D.ncloc + 1));
        y = (double *)malloc(sizeof(double) * (size_t)(D.nloc + 1));
        if (any_rank(!x || !y)) {
            free(x), free(y);
            spmv_d_dist_free(&D);
            fails++;
            continue;
        }
        for (k = 0; k < D.ncloc; k++) x[k] = 1.0 + (double)(k % 7) / 8;
        m.D = &D, m.x = x, m.y = y;
        {
            const double loc = (double)D.nnzloc;
            MPI_Allreduce(&loc, &nnz, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        D.t_pack = D.t_local = D.t_wait = 0, D.nmv = 0;
        med = mb_median_time(mb_dist_mv, &m, ns);
        mine[0] = (double)D.nghost * sizeof(double);
        mine[1] = (double)(D.nrecv + D.nsend);
        mine[2] = D.nmv ? D.t_pack / (double)D.nmv : 0;
        mine[3] = D.nmv ? D.t_local / (double)D.nmv : 0;
        mine[4] = D.nmv ? D.t_wait / (double)D.nmv : 0;
        MPI_Reduce(mine, mx, 5, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank_ == 0) {
            printf("%s ranks=%d threads=%d format=%s rows=%lld cols=%lld nnz=%.0f spmv_s=%.6g gflops=%.3f "
                   "halo_bytes_max=%.0f msgs_max=%.0f pack_s=%.3g local_s=%.3g wait_s=%.3g\n",
                   argv[i], size_, spmv_max_threads(), spmv_format_name(o.format), (long long)D.nrows,
                   (long long)D.ncols, nnz, med, 2 * nnz / med * 1e-9, mx[0], mx[1], mx[2], mx[3], mx[4]);
            if (csv)
                fprintf(csv, "\"%s\",%lld,%lld,%.0f,%s,%d,double,%d,%.6g,%.4f,%.0f,%.0f,%.4g,%.4g,%.4g\n", argv[i],
                        (long long)D.nrows, (long long)D.ncols, nnz, spmv_format_name(o.format), spmv_max_threads(),
                        size_, med, 2 * nnz / med * 1e-9, mx[0], mx[1], mx[2], mx[3], mx[4]);
        }
        free(x), free(y);
        spmv_d_dist_free(&D);
    }
    if (csv) {
        spmv_error e;
        if (tool_out_finish(csv, csvp, &e) != SPMV_OK) {
            fprintf(stderr, "spmv-mpi bench: %s\n", e.msg);
            fails++;
        }
    }
    return any_rank(fails != 0) ? 1 : 0; /* the same status on every rank */
}

int main(int argc, char **argv) {
    int rc = 2, cmd = 0;
    mv_args ma;
    bench_args ba;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    /* each rank parses (no MPI), then the ranks agree on the verdict and the arguments before
       anything collective: no rank leaves while another waits in a collective */
    err_[0] = 0;
    if (argc >= 2 && !strcmp(argv[1], "mv")) cmd = 1, rc = parse_mv(argc - 2, argv + 2, &ma);
    else if (argc >= 2 && !strcmp(argv[1], "bench")) cmd = 2, rc = parse_bench(argc - 2, argv + 2, &ba);
    else rc = parse_fail(NULL, NULL, NULL);
    rc = mb_agree_args("spmv-mpi", rc, err_, argc - 1, argv + 1);
    if (rc == 0) rc = cmd == 1 ? cmd_mv(&ma) : cmd_bench(&ba, argc - 2, argv + 2);
    MPI_Finalize();
    return rc;
}
