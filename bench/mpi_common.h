/* What bench/mpi_bench.c, bench/spmv_mpi.c and bench/petsc_anchor.c share: the command line
 * agreed over the ranks (mb_agree_args), the matrix made on rank 0, and the timing (a warm-up
 * product, then per sample a barrier, enough products for >= 20 ms on rank 0's clock, a
 * barrier; the median over the samples), so that spmv's and PETSc's rows are measured alike.
 * Include after spmv.h and mpi.h. */
#ifndef SPMV_BENCH_MPI_COMMON_H
#define SPMV_BENCH_MPI_COMMON_H
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next byte of the arguments argv[0..argc) joined with NUL terminators (cursor *a, *c);
 * -1 past the end */
static inline int mb__arg_byte(int argc, char **argv, int *a, size_t *c) {
    char ch;
    if (*a >= argc) return -1;
    ch = argv[*a][*c];
    if (ch == 0) {
        ++*a, *c = 0;
        return 0;
    }
    ++*c;
    return (unsigned char)ch;
}

/* The command line, agreed on MPI_COMM_WORLD before any other collective call of a tool: a
 * rank that returned early on an argument error, or ran with arguments of its own, would
 * leave the others waiting in a collective for ever. Each rank has parsed its own arguments
 * without MPI: rc its verdict (0, or the exit status it would end with: 2 for usage), msg the
 * text it would print (NULL: none). Collective, in two steps:
 *   1. the worst verdict over the ranks: when any rank failed, the lowest failing rank prints
 *      its msg (once, to standard error) and every rank returns that status;
 *   2. the arguments argv[0..argc) (everything after the program name, which may differ:
 *      every option, value and operand must be the same, in the same order) compared byte for
 *      byte with rank 0's (broadcast in 4 KiB pieces): when any rank's differ, the lowest such
 *      rank prints "TOOL: arguments differ between ranks: ..." naming the first argument that
 *      differs, and every rank returns 2.
 * Returns 0 when every rank parsed the same arguments without error. */
static inline int mb_agree_args(const char *tool, int rc, const char *msg, int argc, char **argv) {
    enum { PIECE = 4096 };
    char piece[PIECE], first[PIECE];
    long long len = 0, len0, off;
    int rank = 0, worst = 0, who = INT_MAX, cand, diff = 0, i, a = 0;
    size_t c = 0, nfirst;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst != 0) {
        cand = rc != 0 ? rank : INT_MAX;
        MPI_Allreduce(&cand, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (rank == who && msg && *msg) fputs(msg, stderr), fflush(stderr);
        return worst;
    }
    for (i = 0; i < argc; i++) len += (long long)strlen(argv[i]) + 1;
    len0 = len;
    MPI_Bcast(&len0, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    diff = len != len0;
    nfirst = (size_t)(len0 < PIECE ? len0 : PIECE);
    for (off = 0; off < len0; off += PIECE) { /* rank 0's bytes, piece by piece */
        const int n = (int)(len0 - off < PIECE ? len0 - off : PIECE);
        int k;
        if (rank == 0)
            for (k = 0; k < n; k++) piece[k] = (char)mb__arg_byte(argc, argv, &a, &c);
        MPI_Bcast(piece, n, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (off == 0) memcpy(first, piece, (size_t)n);
        if (rank != 0)
            for (k = 0; k < n && !diff; k++) diff = mb__arg_byte(argc, argv, &a, &c) != (unsigned char)piece[k];
    }
    cand = diff ? rank : INT_MAX;
    MPI_Allreduce(&cand, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (who == INT_MAX) return 0;
    if (rank == who) { /* the first argument that differs from rank 0's (in its first 4 KiB) */
        size_t p = 0;
        int k = 0;
        while (k < argc && p < nfirst) {
            const size_t l = strnlen(first + p, nfirst - p);
            if (p + l == nfirst || strcmp(first + p, argv[k]) != 0) break;
            p += l + 1, k++;
        }
        if (p >= nfirst && k < argc && (long long)nfirst == len0)
            fprintf(stderr,
                    "%s: arguments differ between ranks: rank %d has the extra argument '%s' (argument %d after "
                    "the program name)\n",
                    tool, rank, argv[k], k + 1);
        else if (p < nfirst && k < argc && memchr(first + p, 0, nfirst - p))
            fprintf(stderr,
                    "%s: arguments differ between ranks: rank %d has '%s' where rank 0 has '%s' (argument %d after "
                    "the program name)\n",
                    tool, rank, argv[k], first + p, k + 1);
        else if (p < nfirst && k >= argc && memchr(first + p, 0, nfirst - p))
            fprintf(stderr,
                    "%s: arguments differ between ranks: rank %d lacks rank 0's argument '%s' (argument %d after "
                    "the program name)\n",
                    tool, rank, first + p, k + 1);
        else
            fprintf(stderr, "%s: arguments differ between ranks: rank %d's differ from rank 0's after %d arguments\n",
                    tool, rank, k);
        fprintf(stderr, "%s: every rank must be given the same arguments\n", tool);
        fflush(stderr);
    }
    return 2;
}

/* rank 0: the matrix of spec (gen:SPEC or a Matrix Market file) into *A; other ranks: A zeroed */
static spmv_status mb_root_matrix(const char *spec, int rank, spmv_d_csr *A, spmv_error *e) {
    spmv_triplets t;
    spmv_status st;
    memset(A, 0, sizeof *A);
    if (rank != 0) return SPMV_OK;
    st = !strncmp(spec, "gen:", 4) ? spmv_gen(spec + 4, &t, e) : spmv_mm_read(spec, &t, e);
    if (st != SPMV_OK) return st;
    st = spmv_d_csr_from_triplets(A, &t, NULL, NULL);
    spmv_triplets_free(&t);
    return st;
}

/* one distributed product y = D x, the timed call of mpi_bench and spmv-mpi bench */
typedef struct mb_ctx {
    spmv_d_dist *D;
    const double *x;
    double *y;
} mb_ctx;
static inline void mb_dist_mv(void *c) {
    mb_ctx *m = (mb_ctx *)c;
    spmv_d_dist_mv(m->D, 1.0, m->x, 0.0, m->y);
}

static int mb_cmp(const void *a, const void *b) {
    const double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
}

/* median seconds per call of product(ctx) over ns samples (collective; ns the same on every
 * rank: mb_agree_args). Without memory for the samples a rank still runs every one (the last
 * sample's time then), so that no rank waits at a barrier the others never reach. */
static double mb_median_time(void (*product)(void *), void *ctx, int ns) {
    double *t = (double *)malloc(sizeof(double) * (size_t)ns), t0, dt, med = 0;
    int reps, s, k;
    product(ctx); /* warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    product(ctx);
    dt = MPI_Wtime() - t0;
    reps = dt > 0 && dt < 0.02 ? (int)(0.02 / dt) + 1 : 1;
    MPI_Bcast(&reps, 1, MPI_INT, 0, MPI_COMM_WORLD); /* rank 0 decides: every rank runs as many */
    for (s = 0; s < ns; s++) {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (k = 0; k < reps; k++) product(ctx);
        MPI_Barrier(MPI_COMM_WORLD);
        med = (MPI_Wtime() - t0) / reps;
        if (t) t[s] = med;
    }
    if (!t) return med;
    qsort(t, (size_t)ns, sizeof(double), mb_cmp);
    med = t[ns / 2];
    free(t);
    return med;
}
#endif
