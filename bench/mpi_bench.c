/* mpi_bench — the distributed product's time (spmv_mpi.h), for docs/SCALING.md.
 *   mpirun -np P build/mpi_bench [--format F] [--samples N] MATRIX...   (gen:SPEC or a file)
 *   build/mpi_bench --plan-only P1,P2,... MATRIX...   the plan the builders would make on P ranks,
 *       computed on one process (spmv_<tag>_dist_plan_stats: no ranks run): per P one line with
 *       the rows and entries of the largest and smallest rank, the ghost values received per
 *       product (most on one rank, all ranks, 8-byte values: bytes) and the receives per rank
 * Rank 0 makes or reads each matrix, the rows are scattered (balanced entries), then N samples
 * (default 30), each a barrier and then enough products for >= 20 ms on rank 0's clock; prints
 * one line per matrix: ranks, threads, the median time per product, GFLOP/s, and the exchange
 * (ghost values per product, all ranks). An option applies to the matrices after it. Every rank
 * must be given the same arguments: they are checked on each rank, then agreed (mb_agree_args)
 * before anything collective; an argument error on any rank, or arguments that differ between
 * ranks, end every rank with status 2 (the message printed once). */
#include <mpi.h>
#include "spmv.h"
#include "spmv_mpi.h"
#include <stdio.h>
#include "mpi_common.h"

static const char usage_[] = "usage: mpirun -np P mpi_bench [--format F] [--samples N] MATRIX...\n"
                             "       mpi_bench --plan-only P1,P2,... MATRIX...\n";

/* the options' check (no MPI): 0, or 2 with the message in err */
static int parse_args(int argc, char **argv, char *err, size_t nerr) {
    spmv_opts o = spmv_opts_default();
    int i;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            if (spmv_format_parse(argv[++i], &o.format) != SPMV_OK) {
                snprintf(err, nerr, "mpi_bench: unknown format '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            char *end;
            const long v = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end || v < 1 || v > 1000000) {
                snprintf(err, nerr, "mpi_bench: --samples '%s': a whole number from 1 to 1000000\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--plan-only") && i + 1 < argc) {
            const char *q = argv[++i];
            for (;;) {
                char *end;
                const long P = strtol(q, &end, 10);
                if (end == q || P < 1 || P > 1 << 20 || (*end && *end != ',')) {
                    snprintf(err, nerr,
                             "mpi_bench: --plan-only '%s': rank counts from 1 to 2^20, separated by commas\n", argv[i]);
                    return 2;
                }
                if (!*end) break;
                q = end + 1;
            }
        } else if (argv[i][0] == '-') {
            snprintf(err, nerr, "mpi_bench: unknown option or missing value '%s'\n%s", argv[i], usage_);
            return 2;
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    int rank, size, i, ns = 30, rc;
    const char *plan_only = NULL;
    spmv_opts o = spmv_opts_default();
    char err[1024] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* every rank checks its arguments, then the ranks agree on them before anything collective */
    rc = mb_agree_args("mpi_bench", parse_args(argc, argv, err, sizeof err), err, argc - 1, argv + 1);
    if (rc != 0) {
        MPI_Finalize();
        return rc;
    }
    for (i = 1; i < argc; i++) {
        spmv_d_csr A;
        spmv_d_dist D;
        spmv_error e;
        spmv_status st;
        mb_ctx m;
        double *x, *y, med, nnz = 0, gh, ghs = 0;
        int k;
        if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            spmv_format_parse(argv[++i], &o.format); /* checked above */
            continue;
        }
        if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            ns = atoi(argv[++i]); /* checked above: 1 to 10^6 */
            continue;
        }
        if (!strcmp(argv[i], "--plan-only") && i + 1 < argc) {
            plan_only = argv[++i];
            continue;
        }
        if (plan_only) { /* rank 0 alone: the model of the plan for each P */
            const char *q = plan_only;
            if (rank != 0) continue;
            if ((st = mb_root_matrix(argv[i], 0, &A, &e)) != SPMV_OK) {
                fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
                continue;
            }
            while (*q) {
                char *end;
                const long P = strtol(q, &end, 10);
                spmv_dist_plan_stats S;
                if (end == q || P < 1 || P > 1 << 20) {
                    fprintf(stderr, "--plan-only: bad rank count at '%s'\n", q);
                    break;
                }
                if ((st = spmv_d_dist_plan_stats(&A, (int)P, &S)) != SPMV_OK)
                    fprintf(stderr, "%s: plan for %ld ranks: %s\n", argv[i], P, spmv_status_str(st));
                else
                    printf("%s plan ranks=%ld rows=%lld nnz=%lld rank_rows_max=%lld rank_nnz_max=%lld rank_nnz_min=%lld "
                           "ghosts_max=%lld ghosts_sum=%lld halo_bytes_max=%lld recv_max=%lld recv_mean=%.2f\n",
                           argv[i], P, (long long)A.nrows, (long long)A.nnz, (long long)S.rows_max,
                           (long long)S.nnz_max, (long long)S.nnz_min, (long long)S.ghosts_max,
                           (long long)S.ghosts_sum, (long long)S.ghosts_max * 8, (long long)S.msgs_max,
                           (double)S.msgs_sum / (double)P);
                q = *end == ',' ? end + 1 : end;
                if (*end && *end != ',') break;
            }
            spmv_d_csr_free(&A);
            continue;
        }
        st = mb_root_matrix(argv[i], rank, &A, &e);
        nnz = (double)A.nnz; /* rank 0's count, the one printed */
        st = spmv_d_dist_from_root_csr(&D, MPI_COMM_WORLD, 0, rank == 0 && st == SPMV_OK ? &A : NULL, &o, &e);
        spmv_d_csr_free(&A);
        if (st != SPMV_OK) {
            if (rank == 0) fprintf(stderr, "%s: %s (%s)\n", argv[i], spmv_status_str(st), e.msg);
            continue;
        }
        x = (double *)malloc(sizeof(double) * (size_t)(D.ncloc + 1));
        y = (double *)malloc(sizeof(double) * (size_t)(D.nloc + 1));
        { /* every rank's buffers, agreed before the products (no rank may leave alone) */
            int bad = !x || !y, anybad = bad;
            MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (anybad) {
                if (rank == 0) fprintf(stderr, "%s: out of memory for x and y\n", argv[i]);
                free(x), free(y);
                spmv_d_dist_free(&D);
                continue;
            }
        }
        for (k = 0; k < D.ncloc; k++) x[k] = 1.0 + (double)(k % 7) / 8;
        m.D = &D, m.x = x, m.y = y;
        med = mb_median_time(mb_dist_mv, &m, ns);
        gh = (double)D.nghost;
        MPI_Reduce(&gh, &ghs, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%s ranks=%d threads=%d format=%s rows=%lld nnz=%.0f spmv_s=%.6g gflops=%.3f ghosts=%.0f\n", argv[i], size,
                   spmv_max_threads(), spmv_format_name(o.format), (long long)D.nrows, nnz, med, 2 * nnz / med * 1e-9, ghs);
        free(x), free(y);
        spmv_d_dist_free(&D);
    }
    MPI_Finalize();
    return 0;
}
