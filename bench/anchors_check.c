/* Checks the bench's anchor libraries (bench/anchors.h) against a long-double reference.
 *
 *   ninja build/anchors_check && build/anchors_check [--anchors LIST] [--threads LIST] [--reps N] [MATRIX ...]
 *
 * For every matrix (default: a random one, a 2-D stencil, an R-MAT graph with empty and long
 * rows, a single long row, an empty matrix), double and float, every available anchor at
 * each thread count (default 1,2): create (timed), y = A*x with y filled with NaN first
 * (y must never be read), then the error max over rows of |y - y_ref| / sum_j |a_ij x_j|
 * against 1e-12 (double) and 1e-5 (float), and the median time of N products (default 20).
 * Also: a handle of the other precision and a wrong anchor index are refused. Each line ends
 * with the process's OS threads (libgomp keeps its pool, so run one anchor and one thread count
 * per process, --anchors NAME --threads N, to see the threads that anchor started) and
 * the threads busy during the timed products (CPU ticks; with OMP_WAIT_POLICY=passive and
 * enough --reps to last a second, the threads really working) and omp_get_max_threads() (an
 * anchor must leave the caller's OpenMP default as it was). Prints one
 * line per run and `RESULT anchors_check passed=P failed=F skipped=S`; exit status 1 on a
 * failure. */
#include "spmv.h"
#include "bench/anchors.h"
#include <math.h>
#include <stdio.h>

static int passed, failed, skipped;
static const char *only; /* --anchors LIST: those alone */

/* OS threads of this process now (libgomp keeps its pool: the most any region used so far) */
static int os_threads(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    int n = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Threads:", 8)) n = atoi(line + 8);
    fclose(f);
    return n;
}
/* CPU ticks (utime + stime) of each of this process's threads, by thread id */
#include <dirent.h>
#define MAXT 256
static int ticks(long *tid, long *tk) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d)) && n < MAXT) {
        char path[300], buf[1024], *q;
        FILE *f;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        if (!(f = fopen(path, "r"))) continue;
        if (fgets(buf, sizeof buf, f) && (q = strrchr(buf, ')'))) {
            long ut = 0, st = 0;
            /* after ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
            if (sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st) == 2) {
                tid[n] = atol(e->d_name);
                tk[n++] = ut + st;
            }
        }
        fclose(f);
    }
    closedir(d);
    return n;
}
/* threads that ran at least a tenth of the busiest one's ticks between two snapshots (with
 * OMP_WAIT_POLICY=passive idle pool threads do not run) */
static int busy_threads(int n0, const long *tid0, const long *tk0, int n1, const long *tid1, const long *tk1) {
    long d[MAXT], mx = 0;
    int i, j, b = 0;
    for (i = 0; i < n1; i++) {
        d[i] = tk1[i];
        for (j = 0; j < n0; j++)
            if (tid0[j] == tid1[i]) d[i] -= tk0[j];
        if (d[i] > mx) mx = d[i];
    }
    for (i = 0; i < n1; i++) b += mx > 0 && d[i] * 10 >= mx;
    return b;
}
static int selected(const char *name) {
    char buf[128];
    const char *p = only;
    size_t n = strlen(name);
    if (!only) return 1;
    snprintf(buf, sizeof buf, ",%s,", only);
    for (p = buf; (p = strstr(p, name)); p++)
        if (p[-1] == ',' && p[n] == ',') return 1;
    return 0;
}

static int cmpd(const void *a, const void *b) {
    double u = *(const double *)a, v = *(const double *)b;
    return u < v ? -1 : u > v;
}

#define CHECK_TYPE(TAG, T, NAMEUP, TOL)                                                                                \
    static void check_##TAG(const char *mname, const spmv_triplets *t, const int *threads, int nthr, int reps) {     \
        spmv_##TAG##_csr A;                                                                                            \
        T *x, *y;                                                                                                      \
        long double *ref, *mag;                                                                                        \
        int32_t r, j;                                                                                                  \
        int i, ti;                                                                                                     \
        if (spmv_##TAG##_csr_from_triplets(&A, t, NULL, NULL) != SPMV_OK) {                                                  \
            printf("FAIL: %s: csr conversion\n", mname);                                                               \
            failed++;                                                                                                  \
            return;                                                                                                    \
        }                                                                                                              \
        x = (T *)malloc(sizeof(T) * (size_t)(A.ncols + 1));                                                            \
        y = (T *)malloc(sizeof(T) * (size_t)(A.nrows + 1));                                                            \
        ref = (long double *)calloc((size_t)A.nrows + 1, sizeof(long double));                                         \
        mag = (long double *)calloc((size_t)A.nrows + 1, sizeof(long double));                                         \
        for (j = 0; j < A.ncols; j++) x[j] = (T)(((j * 7919L) % 2001) / 1000.0 - 1.0) + (T)0.001;                   \
        for (r = 0; r < A.nrows; r++)                                                                                  \
            for (j = A.row_ptr[r]; j < A.row_ptr[r + 1]; j++) {                                                        \
                long double p = (long double)A.val[j] * (long double)x[A.col_idx[j]];                                 \
                ref[r] += p;                                                                                           \
                mag[r] += fabsl(p);                                                                                    \
            }                                                                                                          \
        for (i = 0; i < spmv_anchor_count(); i++) {                                                                    \
            if (!selected(spmv_anchor_name(i))) continue;                                                              \
            if (!spmv_anchor_available(i)) {                                                                           \
                printf("SKIP: %-9s %s\n", spmv_anchor_name(i), spmv_anchor_info(i));                                   \
                skipped++;                                                                                             \
                continue;                                                                                              \
            }                                                                                                          \
            if (strstr(spmv_anchor_name(i), "_sym") && spmv_##TAG##_csr_is_symmetric(&A) != 1) {                     \
                skipped++; /* the symmetric anchors take symmetric matrices only, as the bench gives them */   \
                continue;                                                                                              \
            }                                                                                                          \
            for (ti = 0; ti < nthr; ti++) {                                                                            \
                char err[256];                                                                                         \
                double t0 = spmv_wtime(), tc, err_max = 0, *ts;                                                        \
                void *h = spmv_anchor_create_##TAG(i, (int32_t)A.nrows, (int32_t)A.ncols, A.row_ptr, A.col_idx, A.val, \
                                                   threads[ti], err, sizeof err);                                      \
                int k, rc, bad = 0, n0, n1;                                                                            \
                long tid0[MAXT], tk0[MAXT], tid1[MAXT], tk1[MAXT];                                                     \
                tc = spmv_wtime() - t0;                                                                                \
                if (!h) {                                                                                              \
                    printf("FAIL: %s %s %s th=%d: create: %s\n", mname, #TAG, spmv_anchor_name(i), threads[ti], err);  \
                    failed++;                                                                                          \
                    continue;                                                                                          \
                }                                                                                                      \
                for (r = 0; r < A.nrows; r++) y[r] = (T)NAN;                                                           \
                rc = spmv_anchor_mv_##TAG(i, h, x, y);                                                                 \
                for (r = 0; r < A.nrows && !rc; r++) {                                                                 \
                    long double d = fabsl((long double)y[r] - ref[r]);                                                 \
                    double e = mag[r] > 0 ? (double)(d / mag[r]) : (double)d;                                          \
                    if (!(e <= err_max)) err_max = e; /* NaN sticks */                                                 \
                }                                                                                                      \
                ts = (double *)malloc(sizeof(double) * (size_t)reps);                                                  \
                n0 = ticks(tid0, tk0);                                                                                 \
                for (k = 0; k < reps && !rc; k++) {                                                                    \
                    double s0 = spmv_wtime();                                                                          \
                    rc = spmv_anchor_mv_##TAG(i, h, x, y);                                                             \
                    ts[k] = spmv_wtime() - s0;                                                                         \
                }                                                                                                      \
                n1 = ticks(tid1, tk1);                                                                                 \
                if (!rc && reps) qsort(ts, (size_t)reps, sizeof(double), cmpd);                                        \
                /* the other precision's mv and another anchor's index are refused */                                 \
                if (NAMEUP ? spmv_anchor_mv_d(i, h, (const double *)(const void *)x, (double *)(void *)y) == 0         \
                           : spmv_anchor_mv_s(i, h, (const float *)(const void *)x, (float *)(void *)y) == 0)          \
                    bad = 1;                                                                                           \
                if (spmv_anchor_mv_##TAG((i + 1) % spmv_anchor_count(), h, x, y) == 0) bad = 1;                        \
                if (rc || !(err_max <= TOL) || bad) failed++;                                                          \
                else passed++;                                                                                         \
                printf("%s%-22.22s %s %-9s th=%d create %9.3e s  mv %9.3e s %7.2f GFLOP/s  bytes %10zu  err %9.2e  os-threads " \
                       "%d busy %d  omp-max %d%s\n",                                                                          \
                       rc || !(err_max <= TOL) || bad ? "FAIL: " : "", mname, #TAG, spmv_anchor_name(i), threads[ti], \
                       tc, !rc && reps ? ts[reps / 2] : 0.0,                                                           \
                       !rc && reps && ts[reps / 2] > 0 ? 2.0 * (double)A.nnz / ts[reps / 2] * 1e-9 : 0.0,            \
                       spmv_anchor_bytes(i, h), err_max, os_threads(),                          \
                       busy_threads(n0, tid0, tk0, n1, tid1, tk1), omp_get_max_threads(), rc ? "  (mv failed)" : bad ? "  (wrong handle accepted)" : ""); \
                free(ts);                                                                                              \
                spmv_anchor_free(i, h);                                                                                \
            }                                                                                                          \
        }                                                                                                              \
        free(x);                                                                                                       \
        free(y);                                                                                                       \
        free(ref);                                                                                                     \
        free(mag);                                                                                                     \
        spmv_##TAG##_csr_free(&A);                                                                                     \
    }
CHECK_TYPE(d, double, 0, 1e-12)
CHECK_TYPE(s, float, 1, 1e-5)

int main(int argc, char **argv) {
    static const char *defaults[] = {"gen:random:rows=20000,nnzr=12", "gen:stencil2d:n=300",
                                     "gen:rmat:scale=16,ef=8", "gen:onerow:n=30000", "gen:random:rows=500,cols=700,nnzr=0"};
    const char **mats = defaults;
    int nmat = (int)(sizeof defaults / sizeof defaults[0]), threads[16] = {1, 2}, nthr = 2, reps = 20, a, m, i;
    for (a = 1; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "--threads") && a + 1 < argc) {
            char *s = argv[++a];
            nthr = 0;
            while (*s && nthr < 16) {
                threads[nthr++] = (int)strtol(s, &s, 10);
                if (*s == ',') s++;
            }
        } else if (!strcmp(argv[a], "--anchors") && a + 1 < argc) {
            only = argv[++a];
        } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
            reps = atoi(argv[++a]);
        } else {
            fprintf(stderr, "usage: anchors_check [--anchors LIST] [--threads LIST] [--reps N] [MATRIX ...]\n");
            return 2;
        }
    }
    if (a < argc) {
        mats = (const char **)(argv + a);
        nmat = argc - a;
    }
    for (i = 0; i < spmv_anchor_count(); i++)
        printf("# anchor %d %-9s available=%d  %s\n", i, spmv_anchor_name(i), spmv_anchor_available(i),
               spmv_anchor_info(i));
    {
        char err[128];
        if (spmv_anchor_create_d(spmv_anchor_count(), 1, 1, NULL, NULL, NULL, 1, err, sizeof err) || !err[0]) {
            printf("FAIL: a bad anchor index was accepted\n");
            failed++;
        } else passed++;
    }
    for (m = 0; m < nmat; m++) {
        spmv_triplets t;
        spmv_error e;
        if (spmv_load(mats[m], &t, &e) != SPMV_OK) {
            printf("FAIL: %s: %s\n", mats[m], e.msg);
            failed++;
            continue;
        }
        {
            const char *slash = strrchr(mats[m], '/');
            const char *name = slash ? slash + 1 : mats[m];
            check_d(name, &t, threads, nthr, reps);
            check_s(name, &t, threads, nthr, reps);
        }
        spmv_triplets_free(&t);
    }
    printf("RESULT anchors_check passed=%d failed=%d skipped=%d\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
