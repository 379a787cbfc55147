/* pagerank — PageRank by power iteration with the automatic format selection.
 *   gcc -std=c11 -O2 -fopenmp -I. examples/pagerank.c -o pagerank -lm
 *   nvcc -x cu -O3 -std=c++17 -I. -Xcompiler -fopenmp -gencode arch=compute_90,code=sm_90 examples/pagerank.c -o pagerank
 *   ./pagerank [graph.mtx]
 * The graph: an R-MAT power-law graph of 2^18 vertices and 2^21 edges (spmv_gen's rmat, the
 * generator behind the webgraph preset), or a Matrix Market file; every stored entry (i, j)
 * is an edge i -> j (values ignored, duplicates counted once). PageRank with damping
 * d = 0.85: x = d (P x + (dangling mass) / n) + (1 - d) / n, where P = A^T D^-1 is the
 * column-stochastic transition matrix (column i holds 1/outdegree(i) at i's successors), and
 * a dangling vertex (no out-edges) spreads its score evenly. The program keeps S = D^-1 A
 * (the adjacency's rows scaled by 1/outdegree) and never forms P: the handles are built with
 * opts.transpose = 1, so their product is S^T x = P x in whatever format suits S^T. From
 * x = 1/n, iterate until ||x_k - x_k-1||_1 < 1e-10; the iteration is a contraction by d in
 * the L1 norm, so the last iterate is within d/(1-d) * 1e-10 = 5.7e-10 of the fixed point
 * and at most 1 + ceil(log(1e-10 / 2) / log(d)) = 147 iterations are needed: that is the
 * expected_calls the auto handle (spmv_d_auto) plans for (the default graph, half of it
 * dangling, needs 29).
 * Built with nvcc, the same iteration also runs on the GPU through the device auto handle
 * (spmv_d_auto_dev; the vector update stays on the host, x and y cross the bus once per
 * iteration: simple, not fast) when one is present, and its scores are compared with the
 * CPU's; without a GPU that part is skipped with a notice.
 * Checked on every run: a second, small graph (an R-MAT graph of 256 vertices) against a
 * long-double reference computed without the library (the dense system
 * (I - d P - d/n 1 e_dangling^T) x = (1 - d)/n 1 solved by Gaussian elimination): max |diff|
 * below 1e-9; the scores of every run sum to 1 (within 1e-10). Exit 0 on success, 1 on any
 * error or failed check. */
#ifdef __CUDACC__
#include "spmv_cuda.cuh"
#else
#include "spmv.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DAMP 0.85
#define TOL 1e-10
#define REF_MAX 1024 /* the dense reference up to this many vertices */

typedef struct graph {
    int64_t n, edges, ndangling;
    spmv_d_csr S;            /* D^-1 A: S[i][j] = 1/outdeg(i) for each edge i -> j; P = S^T */
    unsigned char *dangling; /* 1: no out-edges */
} graph;

static void graph_free(graph *g) {
    spmv_d_csr_free(&g->S);
    free(g->dangling);
    memset(g, 0, sizeof *g);
}

/* S = D^-1 A from the adjacency triplets t; 0 on success, 1 (with a message) on error */
static int graph_build(const spmv_triplets *t, const char *name, graph *g) {
    spmv_status st;
    int64_t i, k;
    memset(g, 0, sizeof *g);
    if (t->nrows != t->ncols || t->nrows == 0) {
        fprintf(stderr, "%s: PageRank needs a square, non-empty adjacency matrix, this one is %lld x %lld\n", name,
                (long long)t->nrows, (long long)t->ncols);
        return 1;
    }
    /* CSR of the adjacency: duplicates merged, columns sorted; row length = out-degree */
    if ((st = spmv_d_csr_from_triplets(&g->S, t, NULL, NULL)) != SPMV_OK) {
        fprintf(stderr, "%s: adjacency to CSR: %s\n", name, spmv_status_str(st));
        return 1;
    }
    g->n = g->S.nrows;
    g->edges = g->S.nnz;
    g->dangling = (unsigned char *)calloc((size_t)g->n, 1);
    if (!g->dangling) {
        fprintf(stderr, "%s: out of memory\n", name);
        graph_free(g);
        return 1;
    }
    for (i = 0; i < g->n; i++) {
        const int64_t deg = g->S.row_ptr[i + 1] - g->S.row_ptr[i];
        if (deg == 0) {
            g->dangling[i] = 1;
            g->ndangling++;
        }
        for (k = g->S.row_ptr[i]; k < g->S.row_ptr[i + 1]; k++) g->S.val[k] = 1.0 / (double)deg;
    }
    return 0;
}

/* one product y = P x, by whatever backend */
typedef int (*mv_fn)(void *ctx, const double *x, double *y);

static int host_mv(void *ctx, const double *x, double *y) {
    const spmv_status st = spmv_d_auto_mv((spmv_d_auto *)ctx, 1.0, x, 0.0, y);
    if (st != SPMV_OK) fprintf(stderr, "product: %s\n", spmv_status_str(st));
    return st != SPMV_OK;
}

/* Power iteration from x = 1/n: y = P x by mv, then y = d y + (d * dangling mass + 1 - d) / n.
 * x (n values) receives the scores; 0 on convergence. */
static int power_iteration(const graph *g, mv_fn mv, void *ctx, int maxit, double *x, int *iters, double *secs) {
    const int64_t n = g->n;
    double *y = (double *)malloc((size_t)n * sizeof(double)), diff = 1;
    const double t0 = spmv_wtime();
    int64_t i;
    int it = 0;
    if (!y) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++) x[i] = 1.0 / (double)n;
    while (it < maxit && !(diff < TOL)) {
        double dmass = 0, c;
        for (i = 0; i < n; i++)
            if (g->dangling[i]) dmass += x[i];
        if (mv(ctx, x, y)) {
            free(y);
            return 1;
        }
        c = (DAMP * dmass + (1 - DAMP)) / (double)n;
        diff = 0;
        for (i = 0; i < n; i++) {
            const double v = DAMP * y[i] + c;
            diff += fabs(v - x[i]);
            x[i] = v;
        }
        it++;
    }
    *iters = it;
    *secs = spmv_wtime() - t0;
    free(y);
    if (!(diff < TOL)) {
        fprintf(stderr, "no convergence: L1 change %.3g after %d iterations\n", diff, it);
        return 1;
    }
    return 0;
}

/* the auto handle's options for this iteration */
static spmv_opts pr_opts(int *maxit) {
    spmv_opts o = spmv_opts_default();
    /* ||x_k+1 - x_k||_1 <= d^k ||x_1 - x_0||_1 <= 2 d^k */
    const int bound = 1 + (int)ceil(log(TOL / 2) / log(DAMP));
    o.expected_calls = bound;
    o.transpose = 1; /* the handle holds S^T = P, built from S */
    *maxit = bound + 20; /* rounding margin */
    return o;
}

/* PageRank on the host through the auto handle; 0 on success */
static int pagerank_host(const graph *g, double *x, int verbose) {
    spmv_d_auto M;
    int maxit, iters = 0, rc;
    double secs = 0;
    spmv_error err;
    const spmv_opts o = pr_opts(&maxit);
    spmv_status st = spmv_d_auto_from_csr(&M, &g->S, &o, &err);
    if (st != SPMV_OK) {
        fprintf(stderr, "format selection: %s (%s)\n", spmv_status_str(st), err.msg);
        return 1;
    }
    rc = power_iteration(g, host_mv, &M, maxit, x, &iters, &secs);
    if (verbose && !rc) {
        printf("cpu: format %s, because %s\n", spmv_format_name(M.rep.chosen), M.rep.why);
        printf("cpu: selection %.4f s (%.1f products), %d iterations, %.3f ms per iteration, %.3f s in all\n",
               M.rep.select_s, M.rep.select_spmvs, iters, 1e3 * secs / iters, secs);
    }
    spmv_d_auto_free(&M);
    return rc;
}

#ifdef __CUDACC__
typedef struct dev_ctx {
    spmv_d_auto_dev D;
    double *x_dev, *y_dev;
    int64_t n;
} dev_ctx;

static int dev_fail(const char *what, spmv_status st) {
    fprintf(stderr, "%s: %s\n", what, spmv_status_str(st));
    if (st == SPMV_ERR_CUDA) fprintf(stderr, "  CUDA: %s\n", cudaGetErrorString(spmv_cuda_last_error()));
    return 1;
}

/* x up, y = P x on the device, y down (cudaMemcpy synchronizes) */
static int dev_mv(void *ctx, const double *x, double *y) {
    dev_ctx *c = (dev_ctx *)ctx;
    const size_t bytes = (size_t)c->n * sizeof(double);
    spmv_status st;
    if ((st = spmv_cuda_status(cudaMemcpy(c->x_dev, x, bytes, cudaMemcpyHostToDevice))) != SPMV_OK)
        return dev_fail("copy x to the device", st);
    if ((st = spmv_d_auto_dev_mv(&c->D, 1.0, c->x_dev, 0.0, c->y_dev)) != SPMV_OK) return dev_fail("device product", st);
    if ((st = spmv_cuda_status(cudaMemcpy(y, c->y_dev, bytes, cudaMemcpyDeviceToHost))) != SPMV_OK)
        return dev_fail("copy y to the host", st);
    return 0;
}

/* PageRank with the product on the GPU (device auto handle); 0 on success */
static int pagerank_device(const graph *g, double *x, int verbose) {
    dev_ctx c;
    int maxit, iters = 0, rc = 1;
    double secs = 0;
    const spmv_opts o = pr_opts(&maxit);
    spmv_error err;
    spmv_status st;
    memset(&c, 0, sizeof c);
    c.n = g->n;
    if ((st = spmv_d_auto_dev_from_csr(&c.D, &g->S, &o, &err)) != SPMV_OK) {
        dev_fail("device format selection", st);
        fprintf(stderr, "  %s\n", err.msg);
        return 1;
    }
    if ((st = spmv_cuda_status(cudaMalloc((void **)&c.x_dev, (size_t)g->n * sizeof(double)))) != SPMV_OK ||
        (st = spmv_cuda_status(cudaMalloc((void **)&c.y_dev, (size_t)g->n * sizeof(double)))) != SPMV_OK) {
        dev_fail("cudaMalloc", st);
        goto out;
    }
    rc = power_iteration(g, dev_mv, &c, maxit, x, &iters, &secs);
    if (verbose && !rc) {
        printf("gpu: format %s, because %s\n", spmv_format_name(c.D.rep.chosen), c.D.rep.why);
        printf("gpu: selection %.4f s (%.1f products), %d iterations, %.3f ms per iteration with the copies, %.3f s in all\n",
               c.D.rep.select_s, c.D.rep.select_spmvs, iters, 1e3 * secs / iters, secs);
    }
out:
    spmv_d_auto_dev_free(&c.D);
    cudaFree(c.x_dev);
    cudaFree(c.y_dev);
    return rc;
}
#endif

/* The reference, without the library: the distinct edges of t in a dense long-double matrix,
 * (I - G) x = (1 - d)/n 1 with G = d P + d/n 1 e_dangling^T, by Gaussian elimination with
 * partial pivoting (I - G is column diagonally dominant). 0 on success. */
static int pagerank_reference(const spmv_triplets *t, long double *x) {
    const int64_t n = t->nrows;
    long double *a = (long double *)calloc((size_t)(n * n), sizeof(long double));
    unsigned char *edge = (unsigned char *)calloc((size_t)(n * n), 1);
    int64_t *deg = (int64_t *)calloc((size_t)n, sizeof(int64_t));
    int64_t i, j, k;
    if (!a || !edge || !deg) {
        free(a);
        free(edge);
        free(deg);
        fprintf(stderr, "reference: out of memory\n");
        return 1;
    }
    for (k = 0; k < t->nnz; k++) edge[t->row[k] * n + t->col[k]] = 1; /* i -> j */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) deg[i] += edge[i * n + j];
    /* a[j][i] = delta_ji - G[j][i] */
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            long double gji = 0;
            if (deg[i] == 0) gji = (long double)DAMP / n;
            else if (edge[i * n + j]) gji = (long double)DAMP / deg[i];
            a[j * n + i] = (i == j) - gji;
        }
    for (i = 0; i < n; i++) x[i] = (1 - (long double)DAMP) / n;
    for (k = 0; k < n; k++) {
        int64_t p = k;
        for (i = k + 1; i < n; i++)
            if (fabsl(a[i * n + k]) > fabsl(a[p * n + k])) p = i;
        if (p != k) {
            long double tmp;
            for (j = 0; j < n; j++) {
                tmp = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = tmp;
            }
            tmp = x[k];
            x[k] = x[p];
            x[p] = tmp;
        }
        for (i = k + 1; i < n; i++) {
            const long double f = a[i * n + k] / a[k * n + k];
            if (f == 0) continue;
            for (j = k; j < n; j++) a[i * n + j] -= f * a[k * n + j];
            x[i] -= f * x[k];
        }
    }
    for (i = n - 1; i >= 0; i--) {
        long double s = x[i];
        for (j = i + 1; j < n; j++) s -= a[i * n + j] * x[j];
        x[i] = s / a[i * n + i];
    }
    free(a);
    free(edge);
    free(deg);
    return 0;
}

/* |sum - 1| within 1e-10? (rounding: each product row sums up to its in-degree's terms, and
 * the iteration carries those errors along, ~3e-13 on the default graph) */
static int check_sum(const char *who, const double *x, int64_t n) {
    long double s = 0;
    int64_t i;
    int ok;
    for (i = 0; i < n; i++) s += x[i];
    ok = fabsl(s - 1) < 1e-10L;
    printf("check: %s scores: sum - 1 = %.3g (limit 1e-10): %s\n", who, (double)(s - 1), ok ? "ok" : "FAILED");
    return !ok;
}

/* the host scores (and the device ones, when there is a GPU) against the reference */
static int check_reference(const char *name, const spmv_triplets *t, const double *x) {
    long double *ref = (long double *)malloc((size_t)t->nrows * sizeof(long double));
    double md = 0;
    int64_t i;
    int ok;
    if (!ref || pagerank_reference(t, ref)) {
        free(ref);
        return 1;
    }
    for (i = 0; i < t->nrows; i++) {
        const double d = (double)fabsl((long double)x[i] - ref[i]);
        if (d > md || d != d) md = d;
    }
    free(ref);
    ok = md < 1e-9;
    printf("check: %s against the dense long-double reference: max |diff| = %.3g (limit 1e-9): %s\n", name, md,
           ok ? "ok" : "FAILED");
    return !ok;
}

/* one graph: host run (and device run), checks; 0 when everything passed */
static int run_graph(const spmv_triplets *t, const char *name, int verbose) {
    graph g;
    double *x = NULL;
    int64_t i;
    int bad = 0;
    if (graph_build(t, name, &g)) return 1;
    if (verbose)
        printf("graph: %s, %lld vertices, %lld edges, %lld dangling\n", name, (long long)g.n, (long long)g.edges,
               (long long)g.ndangling);
    x = (double *)malloc((size_t)g.n * sizeof(double));
    if (!x) {
        fprintf(stderr, "out of memory\n");
        graph_free(&g);
        return 1;
    }
    if (pagerank_host(&g, x, verbose)) {
        bad = 1;
        goto out;
    }
    if (verbose) { /* the five highest scores */
        int64_t top[5] = {-1, -1, -1, -1, -1};
        int r, q;
        for (i = 0; i < g.n; i++)
            for (r = 0; r < 5; r++)
                if (top[r] < 0 || x[i] > x[top[r]]) {
                    for (q = 4; q > r; q--) top[q] = top[q - 1];
                    top[r] = i;
                    break;
                }
        printf("top:");
        for (r = 0; r < 5 && top[r] >= 0; r++) printf(" %lld (%.6g)", (long long)top[r], x[top[r]]);
        printf("\n");
    }
    bad |= check_sum(name, x, g.n);
    if (g.n <= REF_MAX) bad |= check_reference(name, t, x);
#ifdef __CUDACC__
    if (spmv_cuda_device_count() > 0) {
        double *xg = (double *)malloc((size_t)g.n * sizeof(double)), l1 = 0;
        /* both iterates are within d/(1-d) TOL of the fixed point */
        const double lim = 2 * DAMP / (1 - DAMP) * TOL;
        if (!xg || pagerank_device(&g, xg, verbose)) {
            free(xg);
            bad = 1;
            goto out;
        }
        for (i = 0; i < g.n; i++) l1 += fabs(xg[i] - x[i]);
        printf("check: %s GPU against CPU: ||diff||_1 = %.3g (limit %.3g): %s\n", name, l1, lim,
               l1 <= lim ? "ok" : "FAILED");
        bad |= !(l1 <= lim);
        {
            char label[300];
            snprintf(label, sizeof label, "%s (GPU)", name);
            bad |= check_sum(label, xg, g.n);
            if (g.n <= REF_MAX) bad |= check_reference(label, t, xg);
        }
        free(xg);
    } else if (verbose) {
        printf("gpu: no CUDA device: the GPU part was skipped\n");
    }
#endif
out:
    free(x);
    graph_free(&g);
    return bad;
}

int main(int argc, char **argv) {
    const char *spec = "rmat:scale=18,ef=8", *small = "rmat:scale=8,ef=4,seed=7";
    const char *name = argc > 1 ? argv[1] : spec;
    spmv_triplets t, ts;
    spmv_error err;
    spmv_status st;
    int bad;

    /* 1. the graph (read first: a bad file fails before anything runs) */
    st = argc > 1 ? spmv_mm_read(argv[1], &t, &err) : spmv_gen(spec, &t, &err);
    if (st != SPMV_OK) {
        fprintf(stderr, "%s: %s (line %ld: %s)\n", name, spmv_status_str(st), err.line, err.msg);
        return 1;
    }
    if (t.nrows != t.ncols || t.nrows == 0) {
        fprintf(stderr, "%s: PageRank needs a square, non-empty adjacency matrix, this one is %lld x %lld\n", name,
                (long long)t.nrows, (long long)t.ncols);
        spmv_triplets_free(&t);
        return 1;
    }
    /* 2. the check graph, small enough for the dense reference */
    if ((st = spmv_gen(small, &ts, &err)) != SPMV_OK) {
        fprintf(stderr, "%s: %s (%s)\n", small, spmv_status_str(st), err.msg);
        spmv_triplets_free(&t);
        return 1;
    }
    bad = run_graph(&ts, small, 0);
    spmv_triplets_free(&ts);
    if (bad) {
        fprintf(stderr, "the check graph failed\n");
        spmv_triplets_free(&t);
        return 1;
    }
    /* 3. the graph's PageRank */
    bad = run_graph(&t, name, 1);
    spmv_triplets_free(&t);
    return bad;
}
