/* spmv-cuda — the GPU benchmark tool: every device format of spmv_cuda.cuh, and cuSPARSE
 * on the same matrices in the same run. Run `spmv-cuda help` for usage.
 * Options, output and CSV columns mirror `spmv bench` (bench/spmv.c); the per-precision
 * part is bench/cuda_bench_type.cuh, included once for float and once for double. */
#include "spmv_cuda.cuh"
#include <cusparse.h>
#include <stdio.h>
#include <errno.h>
#include "tool_out.h"
#include <vector>
#include <algorithm>

#define STR_(x) #x
#define STR(x) STR_(x)

/* Rows of the bench: three cuSPARSE rows, one per registry format (device ones run), then
 * the automatic selection (formats/cuda/auto.cuh). */
enum {
    TOOL_CUSPARSE = 0,
    TOOL_CUSPARSE_ALG2 = 1,
    TOOL_CUSPARSE_BSR = 2,
    TOOL_FMT0 = 3,
    TOOL_AUTO = 3 + SPMV_FMT_COUNT_,
    TOOL_CSR_MVT = 4 + SPMV_FMT_COUNT_, /* --op mvt: csr_dev_mvt on A (atomics), no A^T */
    TOOL_NROWS = 5 + SPMV_FMT_COUNT_
};
/* Calls timed per synchronization: each has its own event pair, and synchronizing only
 * once per batch keeps the GPU queue full, as in a solver's loop. */
#define TOOL_BATCH 64

typedef struct tool_opts {
    int formats[TOOL_NROWS]; /* [TOOL_CUSPARSE], [TOOL_CUSPARSE_ALG2], [TOOL_FMT0 + f] */
    char precision;          /* 'd' or 's' */
    int reps, tune;
    double min_time; /* --min-time: each row timed for at least this long (s) */
    const char *csv;
    int op;     /* --op: 0 mv (y = Ax), 1 mvt (y = A^T x), 2 mm (Y = AX, k vectors) */
    int mm_k;   /* --op mm:k=N */
    int mm_row; /* --op mm:k=N,row: X and Y row-major (default column-major) */
} tool_opts;

/* The device and what the bench measured of it; filled once by cmd_bench, read-only after. */
typedef struct tool_dev {
    char name[256];
    int sms;
    double l2_mb, mem_gib;
    double copy_gbs; /* device-to-device copy (read + write), the %bw baseline */
    double read_gbs; /* a read-only streaming kernel (SpMV traffic is read-mostly), the %rbw baseline */
    char driver[32];
    cudaStream_t stream;
    cusparseHandle_t sp; /* NULL when cusparseCreate failed: the cuSPARSE rows then fail */
    char sp_err[160];
    cudaEvent_t ev[2 * TOOL_BATCH];
} tool_dev;

enum { ROW_OK, ROW_BADERR, ROW_ERROR, ROW_SKIP };
/* One row of output. Rows are kept until the matrix is done, so that the ratio columns
 * (x_naive, x_cusparse) are filled for every row whatever the order of measurement. */
typedef struct tool_row {
    char format[32], params[96], msg[256];
    int state;       /* ROW_OK; ROW_BADERR (measured, error above tolerance); ROW_ERROR; ROW_SKIP */
    double conv, tune, mv, kern, err;
    double fbytes;   /* footprint of the format on the device (B/nnz) */
    double bytes;    /* footprint + x + y: what one product moves at least (GB/s, %bw) */
    double kbytes;   /* what the kernel alone streams (kpct) */
} tool_row;

/* ---- error plumbing: each returns 0 on success, else 1 with msg filled ------------ */
static int tool_cuda(cudaError_t e, const char *what, char *msg, size_t n) {
    if (e == cudaSuccess) return 0;
    snprintf(msg, n, "%s: %s", what, cudaGetErrorString(e));
    (void)cudaGetLastError(); /* a non-sticky error must not be reported again by the next call */
    return 1;
}
static int tool_st(spmv_status st, const char *what, char *msg, size_t n) {
    if (st == SPMV_OK) return 0;
    if (st == SPMV_ERR_CUDA || st == SPMV_ERR_NODEVICE)
        snprintf(msg, n, "%s: %s (%s)", what, spmv_status_str(st), cudaGetErrorString(spmv_cuda_last_error()));
    else
        snprintf(msg, n, "%s: %s", what, spmv_status_str(st));
    return 1;
}
static int tool_sp(cusparseStatus_t st, const char *what, char *msg, size_t n) {
    if (st == CUSPARSE_STATUS_SUCCESS) return 0;
    snprintf(msg, n, "%s: %s", what, cusparseGetErrorString(st));
    return 1;
}

/* Median GPU time in seconds of call() (which returns 0, or 1 with msg filled): 3 warm-up
 * calls, then batches of calls, each between its own pair of events, until at least
 * min_reps calls and min_total seconds in all. Returns 0 or 1 (msg filled). */
template <class F>
static int tool_time(const tool_dev *d, int min_reps, double min_total, F &&call, double *median, char *msg,
                     size_t n) {
    std::vector<double> t;
    double total = 0;
    int i;
    *median = -1;
    for (i = 0; i < 3; i++)
        if (call()) return 1;
    if (tool_cuda(cudaStreamSynchronize(d->stream), "warm-up", msg, n)) return 1;
    while ((int)t.size() < min_reps || (total < min_total && t.size() < 1000000)) {
        for (i = 0; i < TOOL_BATCH; i++) {
            if (tool_cuda(cudaEventRecord(d->ev[2 * i], d->stream), "cudaEventRecord", msg, n)) return 1;
            if (call()) return 1;
            if (tool_cuda(cudaEventRecord(d->ev[2 * i + 1], d->stream), "cudaEventRecord", msg, n)) return 1;
        }
        if (tool_cuda(cudaEventSynchronize(d->ev[2 * TOOL_BATCH - 1]), "timed calls", msg, n)) return 1;
        for (i = 0; i < TOOL_BATCH; i++) {
            float ms = 0;
            if (tool_cuda(cudaEventElapsedTime(&ms, d->ev[2 * i], d->ev[2 * i + 1]), "cudaEventElapsedTime", msg, n))
                return 1;
            t.push_back(1e-3 * (double)ms);
            total += 1e-3 * (double)ms;
        }
    }
    std::sort(t.begin(), t.end());
    *median = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    return 0;
}

static const char *row_name(int i) {
    if (i == TOOL_CUSPARSE) return "cusparse";
    if (i == TOOL_CUSPARSE_ALG2) return "cusparse_alg2";
    if (i == TOOL_CUSPARSE_BSR) return "cusparse_bsr";
    if (i == TOOL_AUTO) return "auto";
    if (i == TOOL_CSR_MVT) return "csr";
    return spmv_format_name((spmv_format)(i - TOOL_FMT0));
}

/* One row, as text (always) and CSV (measured rows only). t_naive, t_cusp, t_alg2: the
 * spmv_s of csr_scalar and the two cuSPARSE rows, 0 when not measured. */
static void tool_print_row(const tool_dev *d, const char *mname, long long nrows, long long ncols, long long nnz,
                           const char *prec, const tool_row *r, double t_naive, double t_cusp, double t_alg2,
                           const char *op, double kk, FILE *csv) {
    double gbs, pct, rpct, kpct, bpn;
    if (r->state == ROW_ERROR || r->state == ROW_SKIP) {
        printf("%-26.26s %9lld %9lld %10lld %-13s %s: %s\n", mname, nrows, ncols, nnz, r->format,
               r->state == ROW_SKIP ? "skipped" : "FAIL", r->msg);
        if (csv) /* in the CSV too, marked, without figures */
            fprintf(csv, "\"%s\",%lld,%lld,%lld,%s,\"%s\",cuda,%d,%s,,,,,,,,,,,,,,,%s,\"%s\",%.1f,%.1f,\"%s\",%s\n",
                    mname, nrows, ncols, nnz, r->format, r->params, d->sms, prec,
                    r->state == ROW_SKIP ? "skipped" : "error", d->name, d->copy_gbs, d->read_gbs, r->msg, op);
        return;
    }
    gbs = r->bytes / r->mv * 1e-9;
    pct = d->copy_gbs > 0 ? 100.0 * gbs / d->copy_gbs : 0.0;
    rpct = d->read_gbs > 0 ? 100.0 * gbs / d->read_gbs : 0.0;
    kpct = d->copy_gbs > 0 ? 100.0 * (r->kbytes / r->kern * 1e-9) / d->copy_gbs : 0.0;
    bpn = nnz ? r->fbytes / (double)nnz : 0.0;
    printf("%-26.26s %9lld %9lld %10lld %-13s %-16.16s %4d %8.4f %7.1f %7.3f %10.3e %10.3e %7.2f %7.1f %6.2f %5.0f%% "
           "%5.0f%% %6.2fx %5.2fx %5.2fx %9.2e%s\n",
           mname, nrows, ncols, nnz, r->format, r->params, d->sms, r->conv, r->conv / r->mv, r->tune, r->mv, r->kern,
           2.0 * kk * (double)nnz / r->mv * 1e-9, gbs, bpn, pct, kpct, t_naive > 0 ? t_naive / r->mv : 0.0,
           t_cusp > 0 ? t_cusp / r->mv : 0.0, t_alg2 > 0 ? t_alg2 / r->mv : 0.0, r->err,
           r->state == ROW_OK ? "" : "  FAIL");
    if (csv)
        fprintf(csv,
                "\"%s\",%lld,%lld,%lld,%s,\"%s\",cuda,%d,%s,%.6g,%.4g,%.6g,%.6g,%.6g,%.4f,%.4f,%.4f,%.2f,%.4f,%.3e,%.4f,"
                "%.4f,%.2f,%s,\"%s\",%.1f,%.1f,\"\",%s\n",
                mname, nrows, ncols, nnz, r->format, r->params, d->sms, prec, r->conv, r->conv / r->mv, r->tune,
                r->mv, r->kern, 2.0 * kk * (double)nnz / r->mv * 1e-9, gbs, bpn, pct, t_naive > 0 ? t_naive / r->mv : 0.0,
                r->err, t_cusp > 0 ? t_cusp / r->mv : 0.0, t_alg2 > 0 ? t_alg2 / r->mv : 0.0, rpct,
                r->state == ROW_OK ? "ok" : "bad_error", d->name, d->copy_gbs, d->read_gbs, op);
}

/* `spmv-cuda plan`: the report of one selection (spmv_auto_report, formats/auto.h). */
static void tool_print_plan(const char *mname, const char *prec, const spmv_auto_report *R, spmv_status st,
                            const char *params) {
    const spmv_auto_features *F = &R->feat;
    const spmv_opts *o = &R->opts;
    int i;
    printf("# spmv-cuda plan: %s, %s, %lld x %lld, %lld entries\n", mname, prec, (long long)F->nrows,
           (long long)F->ncols, (long long)F->nnz);
    printf("options: expected_calls %.0f, budget %.3g SpMVs (at least %.3g s), x_changes %d, deterministic %d\n",
           o->expected_calls, o->budget, o->min_seconds, o->x_changes, o->deterministic);
    printf("features (%.3g s): entries per row: mean %.2f, cv %.2f, longest %lld, empty rows %lld; diagonals %lld (sampled),\n"
           "  fill DIA %.2f, HDIA %.2f, ELL %.2f, HLL %.2f, SELL %.2f; BCSR bs %d (fill %.2f, bytes %.2f of CSR); CSR bytes %.3g\n",
           R->features_s, F->row_mean, F->row_cv, (long long)F->row_max, (long long)F->empty_rows, (long long)F->ndiags,
           F->dia_fill, F->hdia_fill, F->ell_fill, F->sell_fill, F->sell_sorted_fill, F->bcsr_bs, F->bcsr_fill, F->bcsr_bytes_ratio,
           F->csr_bytes);
    printf("shortlist (%d):\n  %-12s %9s %-6s %10s %10s %10s  %s\n", R->ncand, "format", "predicted", "tried",
           "convert_s", "spmv_s", "score_s", "rule / why not tried");
    for (i = 0; i < R->ncand; i++) {
        const spmv_auto_cand *c = &R->cand[i];
        const char *tried = c->tried == 1 ? "yes" : c->tried < 0 ? "refused" : "no";
        printf("  %-12s %8.2fx %-6s ", spmv_format_name(c->fmt), c->predicted, tried);
        if (c->convert_s > 0) printf("%10.3e ", c->convert_s);
        else printf("%10s ", "-");
        if (c->tried == 1) printf("%10.3e %10.3e", c->spmv_s, c->score_s);
        else printf("%10s %10s", "-", "-");
        printf("  %s%s%s%s\n", c->rule ? c->rule : "", c->skip ? " [" : "", c->skip ? c->skip : "", c->skip ? "]" : "");
    }
    printf("left out (%d):\n", R->nleft);
    for (i = 0; i < R->nleft; i++) printf("  %-12s %s\n", spmv_format_name(R->left[i]), R->left_why[i]);
    if (st != SPMV_OK) {
        printf("choice: none (%s)\nwhy: %s\n", spmv_status_str(st), R->why);
        return;
    }
    printf("choice: %s (%s)\nwhy: %s\n", spmv_format_name(R->chosen), params, R->why);
    printf("cost: %.3g s = %.3g SpMVs of the chosen format (%d timed, budget %.3g s; CSR's upload %.3g s, not charged); "
           "CSR %.3e s, chosen %.3e s per product\n",
           R->select_s, R->select_spmvs, R->trials, R->budget_s, R->cand[0].convert_s, R->csr_spmv_s, R->chosen_spmv_s);
}

#define BT_TAG s
#define BT_VAL float
#define BT_BSRMV S /* cusparseSbsrmv */
#include "cuda_bench_type.cuh"
#define BT_TAG d
#define BT_VAL double
#define BT_BSRMV D
#include "cuda_bench_type.cuh"

static void usage(FILE *f) {
    int i, k;
    fprintf(f,
            "usage:\n"
            "  spmv-cuda bench [--formats LIST|all] [--precision d|s] [--reps N] [--min-time S] [--tune]\n"
            "                  [--op mv|mvt|mm:k=N[,row]] [--csv FILE] [MATRIX ...]\n"
            "  spmv-cuda plan MATRIX [--expect N] [--budget B] [--deterministic] [--precision d|s]\n"
            "                        the automatic format selection on MATRIX (formats/cuda/auto.cuh): features,\n"
            "                        shortlist (prediction, rule, trials), formats left out, the choice, why, its cost;\n"
            "                        N products expected (default 1000), B the budget in SpMVs of CSR (default 30)\n"
            "  spmv-cuda copy        device-to-device copy bandwidth (the bench's 100%% for %%bw)\n"
            "  spmv-cuda help\n"
            "MATRIX: a Matrix Market file (.mtx or .mtx.gz) or a generator spec gen:KIND[:key=val,...]\n"
            "        (see formats/io/gen.h), e.g. gen:stencil27 or gen:rmat:scale=18,ef=16.\n"
            "With no MATRIX, bench runs an embedded set sized for the GPU (most larger than L2).\n"
            "--reps N: at least N timed calls per row (default 50) and at least S seconds (--min-time, default\n"
            "        0.2); the median is reported.\n"
            "--tune: each tunable format's search from the registry (csr_vector threads per row, AXC/AXTUH1\n"
            "        thw, AXTUH/AXTCH th, AXTCH1 bs, csr5 sigma, ...; fastest product alone); time in the tune_s\n"
            "        column.\n"
            "--op mvt: y = A^T x: every format built from A^T (opts.transpose; the host transpose counted in\n"
            "        convert), a second csr row with params ...,mvt: csr_dev_mvt on A itself (atomics: the last bits\n"
            "        may vary), cusparse with CUSPARSE_OPERATION_TRANSPOSE, auto choosing for A^T.\n"
            "--op mm:k=N: Y = A X with N vectors, column-major (,row: row-major; only the native formats run\n"
            "        it, the others are skipped); times per call of N vectors, GFLOP/s = 2 N nnz / time; cusparse =\n"
            "        cusparseSpMM (CSR, ALG_DEFAULT); native: the csr rows (csr_dev_mm), ell, ellr, hll, sell\n"
            "        (ell_dev_mm), csrdu (csrdu_dev_mm); the others one product per vector (any_dev_mm); no auto row.\n"
            "--isa and --threads are accepted and ignored (compatibility with `spmv bench`).\n"
            "Formats: cusparse (cusparseSpMV, CSR, ALG_DEFAULT), cusparse_alg2 (CUSPARSE_SPMV_CSR_ALG2),\n"
            "cusparse_bsr (cusparse<t>bsrmv on bcsr's layout, column-major blocks, the block size bcsr estimates;\n"
            "int32 tags, dimensions multiples of bs: the row is left out otherwise)");
    for (i = 0; i < SPMV_FMT_COUNT_; i++)
        if (spmv_format_flags((spmv_format)i) & SPMV_FF_CUDA) fprintf(f, ", %s", spmv_format_name((spmv_format)i));
    fprintf(f, ",\nauto (the automatic selection with its default options: params = the chosen format, convert = the\n"
               "whole selection: inspection, uploads, trials).\n"
               "Symmetric-only formats (");
    for (i = 0, k = 0; i < SPMV_FMT_COUNT_; i++)
        if ((spmv_format_flags((spmv_format)i) & (SPMV_FF_CUDA | SPMV_FF_SYMMETRIC)) ==
            (SPMV_FF_CUDA | SPMV_FF_SYMMETRIC))
            fprintf(f, "%s%s", k++ ? ", " : "", spmv_format_name((spmv_format)i));
    fprintf(f, ") run on exactly symmetric matrices only; on others their row says skipped.");
    fprintf(f, "\nExit status: 0 all rows correct, 1 a failure, 2 usage error, 3 no CUDA device.\n");
}

static int load_matrix(const char *spec, spmv_triplets *t) {
    spmv_error e;
    spmv_status st;
    memset(&e, 0, sizeof e);
    st = spmv_load(spec, t, &e);
    if (st != SPMV_OK) {
        fprintf(stderr, "spmv-cuda: %s: %s%s%s\n", spec, spmv_status_str(st), e.msg[0] ? ": " : "", e.msg);
        return 1;
    }
    return 0;
}

static int parse_formats(const char *s, int *flags) {
    char buf[1024], *tok, *save;
    int i;
    for (i = 0; i < TOOL_NROWS; i++) flags[i] = !strcmp(s, "all");
    if (!strcmp(s, "all")) return 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        for (i = 0; i < TOOL_NROWS; i++)
            if (!strcmp(tok, row_name(i))) break;
        if (i == TOOL_NROWS) {
            fprintf(stderr, "spmv-cuda: unknown format '%s'\n", tok);
            return 1;
        }
        flags[i] = 1;
    }
    return 0;
}

/* 0 when a device is usable; else prints why and returns 3 (the tool's exit status). */
static int need_device(void) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n <= 0) {
        /* no GPU and no driver reads "driver version is insufficient" from the runtime: say
           what it means first */
        if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice || e == cudaSuccess)
            fprintf(stderr, "spmv-cuda: no CUDA device on this machine (no NVIDIA GPU, or no driver for it%s%s%s); "
                            "the CPU tool is spmv\n",
                    e == cudaSuccess ? "" : ": the CUDA runtime says '", e == cudaSuccess ? "" : cudaGetErrorString(e),
                    e == cudaSuccess ? "" : "'");
        else
            fprintf(stderr, "spmv-cuda: the CUDA device cannot be used: %s (%s)\n", cudaGetErrorString(e),
                    cudaGetErrorName(e));
        (void)cudaGetLastError();
        return 3;
    }
    return 0;
}

/* Size of the arrays the bandwidth measurements stream: 1 GiB, or a quarter of the free
 * device memory if less (page-aligned). Returns 0 or 1 (msg filled). */
static int tool_stream_bytes(size_t *bytes, char *msg, size_t n) {
    size_t fr = 0, tot = 0;
    *bytes = (size_t)1 << 30;
    if (tool_cuda(cudaMemGetInfo(&fr, &tot), "cudaMemGetInfo", msg, n)) return 1;
    if (fr / 4 < *bytes) *bytes = (fr / 4) & ~(size_t)4095;
    if (*bytes == 0) {
        snprintf(msg, n, "no free device memory");
        return 1;
    }
    return 0;
}

/* Device-to-device copy bandwidth: 1 GiB (or a quarter of the free memory if less)
 * copied with cudaMemcpyAsync, best of 10; read + write = 2 * bytes per copy.
 * Returns 0 or 1 (msg filled); all memory freed on every path. */
static int measure_copy(cudaStream_t s, double *gbs, size_t *bytes_out, char *msg, size_t n) {
    size_t bytes = 0;
    void *a = NULL, *b = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float best = 0;
    int i, bad;
    *gbs = 0;
    bad = tool_stream_bytes(&bytes, msg, n);
    bad = bad || tool_cuda(cudaMalloc(&a, bytes), "cudaMalloc", msg, n);
    bad = bad || tool_cuda(cudaMalloc(&b, bytes), "cudaMalloc", msg, n);
    bad = bad || tool_cuda(cudaEventCreate(&e0), "cudaEventCreate", msg, n);
    bad = bad || tool_cuda(cudaEventCreate(&e1), "cudaEventCreate", msg, n);
    bad = bad || tool_cuda(cudaMemsetAsync(a, 1, bytes, s), "cudaMemsetAsync", msg, n);
    /* one untimed copy first: the first touch of b is not what a kernel sees later */
    bad = bad || tool_cuda(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync", msg, n);
    for (i = 0; i < 10 && !bad; i++) {
        float ms = 0;
        bad = tool_cuda(cudaEventRecord(e0, s), "cudaEventRecord", msg, n) ||
              tool_cuda(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync", msg, n) ||
              tool_cuda(cudaEventRecord(e1, s), "cudaEventRecord", msg, n) ||
              tool_cuda(cudaEventSynchronize(e1), "copy", msg, n) ||
              tool_cuda(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime", msg, n);
        if (!bad && ms > 0 && (best == 0 || ms < best)) best = ms;
    }
    if (!bad && best > 0) *gbs = 2.0 * (double)bytes / (1e-3 * (double)best) * 1e-9;
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    *bytes_out = bytes;
    return bad || best <= 0;
}

/* Read-only streaming: every thread sums its grid-strided share of a (16-byte loads), one
 * partial per thread written at the end (what keeps the loads alive; 1/10000 of the traffic). */
__global__ void tool_read_kernel(const double2 *__restrict__ a, size_t n, double *__restrict__ out) {
    double s = 0;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        const double2 v = a[i];
        s += v.x + v.y;
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
/* Read bandwidth: 1 GiB (or a quarter of the free memory) read by tool_read_kernel, best of
 * 10, bytes / time. Returns 0 or 1 (msg filled); all memory freed on every path. */
static int measure_read(cudaStream_t s, int sms, double *gbs, char *msg, size_t n) {
    size_t bytes = 0;
    const unsigned block = 256, grid = (unsigned)(sms > 0 ? 8 * sms : 1024);
    void *a = NULL;
    double *out = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    float best = 0;
    int i, bad;
    *gbs = 0;
    bad = tool_stream_bytes(&bytes, msg, n);
    bad = bad || tool_cuda(cudaMalloc(&a, bytes), "cudaMalloc", msg, n);
    bad = bad || tool_cuda(cudaMalloc((void **)&out, sizeof(double) * grid * block), "cudaMalloc", msg, n);
    bad = bad || tool_cuda(cudaEventCreate(&e0), "cudaEventCreate", msg, n);
    bad = bad || tool_cuda(cudaEventCreate(&e1), "cudaEventCreate", msg, n);
    bad = bad || tool_cuda(cudaMemsetAsync(a, 0, bytes, s), "cudaMemsetAsync", msg, n);
    for (i = 0; i < 11 && !bad; i++) { /* the first pass is a warm-up */
        float ms = 0;
        bad = tool_cuda(cudaEventRecord(e0, s), "cudaEventRecord", msg, n);
        if (!bad) {
            tool_read_kernel<<<grid, block, 0, s>>>((const double2 *)a, bytes / sizeof(double2), out);
            bad = tool_cuda(cudaGetLastError(), "read kernel", msg, n);
        }
        bad = bad || tool_cuda(cudaEventRecord(e1, s), "cudaEventRecord", msg, n) ||
              tool_cuda(cudaEventSynchronize(e1), "read", msg, n) ||
              tool_cuda(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime", msg, n);
        if (!bad && i > 0 && ms > 0 && (best == 0 || ms < best)) best = ms;
    }
    if (!bad && best > 0) *gbs = (double)bytes / (1e-3 * (double)best) * 1e-9;
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (a) cudaFree(a);
    if (out) cudaFree(out);
    return bad || best <= 0;
}

/* Device name, SMs, stream, events, copy and read bandwidth, cuSPARSE handle. Returns 0 or 1
 * (message printed); tool_dev_free releases what was made either way. */
static int tool_dev_init(tool_dev *d) {
    cudaDeviceProp p;
    char msg[256];
    size_t bytes = 0;
    int dev = 0, i, bad;
    cusparseStatus_t sst;
    memset(d, 0, sizeof *d);
    bad = tool_cuda(cudaGetDevice(&dev), "cudaGetDevice", msg, sizeof msg) ||
          tool_cuda(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties", msg, sizeof msg) ||
          tool_cuda(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking), "cudaStreamCreate", msg, sizeof msg);
    for (i = 0; i < 2 * TOOL_BATCH && !bad; i++)
        bad = tool_cuda(cudaEventCreate(&d->ev[i]), "cudaEventCreate", msg, sizeof msg);
    if (bad) {
        fprintf(stderr, "spmv-cuda: %s\n", msg);
        return 1;
    }
    snprintf(d->name, sizeof d->name, "%s", p.name);
    d->sms = p.multiProcessorCount;
    d->l2_mb = (double)p.l2CacheSize / (1 << 20);
    d->mem_gib = (double)p.totalGlobalMem / (1 << 30);
    if (measure_copy(d->stream, &d->copy_gbs, &bytes, msg, sizeof msg)) {
        fprintf(stderr, "spmv-cuda: copy bandwidth not measured (%s); %%bw columns will read 0\n", msg);
        d->copy_gbs = 0;
    }
    if (measure_read(d->stream, d->sms, &d->read_gbs, msg, sizeof msg)) {
        fprintf(stderr, "spmv-cuda: read bandwidth not measured (%s); %%rbw columns will read 0\n", msg);
        d->read_gbs = 0;
    }
    {
        int drv = 0;
        if (cudaDriverGetVersion(&drv) == cudaSuccess)
            snprintf(d->driver, sizeof d->driver, "%d.%d", drv / 1000, (drv % 1000) / 10);
    }
    sst = cusparseCreate(&d->sp);
    if (sst == CUSPARSE_STATUS_SUCCESS) sst = cusparseSetStream(d->sp, d->stream);
    if (sst != CUSPARSE_STATUS_SUCCESS) {
        snprintf(d->sp_err, sizeof d->sp_err, "cuSPARSE unavailable: %s", cusparseGetErrorString(sst));
        if (d->sp) cusparseDestroy(d->sp);
        d->sp = NULL;
    }
    return 0;
}

static void tool_dev_free(tool_dev *d) {
    int i;
    if (d->sp) cusparseDestroy(d->sp);
    for (i = 0; i < 2 * TOOL_BATCH; i++)
        if (d->ev[i]) cudaEventDestroy(d->ev[i]);
    if (d->stream) cudaStreamDestroy(d->stream);
    memset(d, 0, sizeof *d);
}

/* Aimed at the GPU: most are larger than the L2 cache (50 MB on an H100/H200), so the
 * numbers are about memory bandwidth, as a solver on a large matrix sees them. */
static const char *default_set[] = {"gen:stencil3d:n=80,pts=27", "gen:pde100",   "gen:fem3d",
                                    "gen:webgraph",              "gen:circuit5m", "gen:band:n=2000000,bw=3"};

static int cmd_bench(int argc, char **argv) {
    tool_opts o;
    tool_dev d;
    const char **mats;
    int nm = 0, i, fails = 0, fatal = 0, rc;
    FILE *csv = NULL;
    memset(&o, 0, sizeof o);
    o.precision = 'd';
    o.reps = 50;
    o.min_time = 0.2;
    for (i = 0; i < TOOL_NROWS; i++) o.formats[i] = 1;
    mats = (const char **)calloc((size_t)argc + sizeof default_set / sizeof default_set[0] + 1, sizeof *mats);
    if (!mats) {
        fprintf(stderr, "spmv-cuda: out of memory\n");
        return 2;
    }
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--formats") && v) {
            if (parse_formats(v, o.formats)) {
                free(mats);
                return 2;
            }
            i++;
        } else if ((!strcmp(a, "--isa") || !strcmp(a, "--threads")) && v) {
            i++; /* compatibility with `spmv bench`: the GPU has neither */
        } else if (!strcmp(a, "--precision") && v && (v[0] == 'd' || v[0] == 's') && !v[1]) {
            o.precision = v[0];
            i++;
        } else if (!strcmp(a, "--reps") && v && atoi(v) > 0) {
            o.reps = atoi(v);
            i++;
        } else if (!strcmp(a, "--min-time") && v && atof(v) >= 0) {
            o.min_time = atof(v);
            i++;
        } else if (!strcmp(a, "--tune")) {
            o.tune = 1;
        } else if (!strcmp(a, "--op") && v) {
            int k = 0, used = 0;
            if (!strcmp(v, "mv")) o.op = 0;
            else if (!strcmp(v, "mvt")) o.op = 1;
            else if (sscanf(v, "mm:k=%d%n", &k, &used) == 1 && k >= 1 && k <= 4096 &&
                     (!v[used] || !strcmp(v + used, ",row") || !strcmp(v + used, ",col"))) {
                o.op = 2;
                o.mm_k = k;
                o.mm_row = !strcmp(v + used, ",row");
            } else {
                fprintf(stderr, "spmv-cuda bench: --op %s: expected mv, mvt or mm:k=N[,row|,col] (N from 1 to 4096)\n", v);
                free(mats);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--csv") && v) {
            o.csv = v;
            i++;
        } else if (a[0] == '-') {
            fprintf(stderr, "spmv-cuda bench: bad option '%s'\n", a);
            usage(stderr);
            free(mats);
            return 2;
        } else {
            mats[nm++] = a;
        }
    }
    if ((rc = need_device()) != 0) {
        free(mats);
        return rc;
    }
    if (nm == 0) {
        for (i = 0; i < (int)(sizeof default_set / sizeof default_set[0]); i++) mats[nm++] = default_set[i];
        fprintf(stderr, "spmv-cuda bench: no matrix given, running the embedded default set\n");
    }
    if (tool_dev_init(&d)) {
        tool_dev_free(&d);
        free(mats);
        return 1;
    }
    if (o.csv) { /* rows to a temporary, the file written at the end (bench/tool_out.h) */
        char why[200];
        if (tool_out_check(o.csv, why, sizeof why) != 0 || !(csv = tmpfile())) {
            fprintf(stderr, "spmv-cuda bench: cannot write '%s': %s\n", o.csv, csv ? why : strerror(errno));
            tool_dev_free(&d);
            free(mats);
            return 2;
        }
        fprintf(csv, "matrix,rows,cols,nnz,format,params,isa,threads,precision,convert_s,convert_spmvs,tune_s,spmv_s,"
                     "kernel_s,gflops,gbs,bytes_per_nnz,pct_bw,x_naive,max_rel_err,x_cusparse,x_cusparse_alg2,"
                     "pct_read_bw,status,device,copy_gbs,read_gbs,message,op\n");
    }
    if (!d.sp) fprintf(stderr, "spmv-cuda: %s\n", d.sp_err);
    printf("# spmv-cuda bench: precision %s, %s (%d SMs, L2 %.0f MB, %.0f GiB, driver %s); device-to-device copy\n"
           "# bandwidth %.1f GB/s (read + write, cudaMemcpyAsync), read-only streaming kernel %.1f GB/s\n",
           o.precision == 'd' ? "double" : "float", d.name, d.sms, d.l2_mb, d.mem_gib, d.driver[0] ? d.driver : "?",
           d.copy_gbs, d.read_gbs);
    printf("# convert = from host CSR: host conversion + upload (cuSPARSE: descriptors + buffer + preprocess), in\n"
           "# seconds and in SpMVs of the format; tune = parameter search (--tune); spmv_s = median GPU time\n"
           "# (CUDA events) of one y = A*x as a solver pays it (AXC/AXT scatter the new x first); kernel_s = the\n"
           "# product alone (x already in place); GFLOP/s = 2 nnz / spmv_s; GB/s = (format bytes + x + y) /\n"
           "# spmv_s; %%bw = GB/s / copy bandwidth (the CSV also has pct_read_bw = GB/s / read bandwidth); kpct =\n"
           "# the same as %%bw for kernel_s and the bytes the kernel streams;\n"
           "# xnaive, xcusp, xalg2 = time of csr_scalar, cusparse, cusparse_alg2 / spmv_s; err = max over rows of\n"
           "# |y - y_ref| / sum|a_ij x_j| against a long-double reference\n");
    printf("%-26s %9s %9s %10s %-13s %-16s %4s %8s %7s %7s %10s %10s %7s %7s %6s %6s %6s %7s %6s %6s %9s\n", "matrix",
           "rows", "cols", "nnz", "format", "params", "SMs", "convert", "conv_mv", "tune_s", "spmv_s", "kernel_s",
           "GFLOP/s", "GB/s", "B/nnz", "%bw", "kpct", "xnaive", "xcusp", "xalg2", "err");
    if (o.op == 1)
        printf("# --op mvt: y = A^T x; rows, cols and nnz are A^T's; the formats are built from A^T (convert includes\n"
               "# the host transpose); the second csr row (params ...,mvt) is csr_dev_mvt on A (atomics)\n");
    if (o.op == 2)
        printf("# --op mm:k=%d: Y = A X with %d vectors, %s; spmv_s per call of %d vectors, GFLOP/s = 2 k nnz / spmv_s,\n"
               "# GB/s counts the matrix once and k x and y vectors\n",
               o.mm_k, o.mm_k, o.mm_row ? "row-major" : "column-major", o.mm_k);
    fflush(stdout);
    for (i = 0; i < nm && !fatal; i++) {
        spmv_triplets t;
        double t0 = spmv_wtime();
        fprintf(stderr, "[%d/%d] %s: loading...\r", i + 1, nm, mats[i]);
        if (load_matrix(mats[i], &t)) {
            fails++;
            continue;
        }
        fprintf(stderr, "[%d/%d] %s: %lld x %lld, %lld entries (%.1f s to load)\n", i + 1, nm, mats[i],
                (long long)t.nrows, (long long)t.ncols, (long long)t.nnz, spmv_wtime() - t0);
        {
            const char *base = strrchr(mats[i], '/');
            base = base ? base + 1 : mats[i];
            fails += o.precision == 'd' ? tool_d_bench(&o, &d, base, &t, csv, &fatal)
                                        : tool_s_bench(&o, &d, base, &t, csv, &fatal);
        }
        spmv_triplets_free(&t);
    }
    if (fatal) fprintf(stderr, "spmv-cuda bench: the CUDA context is unusable after an error; stopped\n");
    if (csv) {
        spmv_error e;
        if (tool_out_finish(csv, o.csv, &e) != SPMV_OK) {
            fprintf(stderr, "spmv-cuda bench: %s\n", e.msg);
            fails++;
        }
    }
    tool_dev_free(&d);
    free(mats);
    if (fails) fprintf(stderr, "spmv-cuda bench: %d failure(s) (CUDA/cuSPARSE errors or error above tolerance)\n", fails);
    return fails ? 1 : 0;
}

static int cmd_copy(void) {
    cudaStream_t s = NULL;
    cudaDeviceProp p;
    char msg[256];
    double gbs = 0;
    size_t bytes = 0;
    int dev = 0, rc = need_device();
    if (rc) return rc;
    if (tool_cuda(cudaGetDevice(&dev), "cudaGetDevice", msg, sizeof msg) ||
        tool_cuda(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties", msg, sizeof msg) ||
        tool_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate", msg, sizeof msg)) {
        fprintf(stderr, "spmv-cuda copy: %s\n", msg);
        return 1;
    }
    rc = measure_copy(s, &gbs, &bytes, msg, sizeof msg);
    cudaStreamDestroy(s);
    if (rc) {
        fprintf(stderr, "spmv-cuda copy: %s\n", msg);
        return 1;
    }
    printf("copy: %s, %zu MiB device-to-device (cudaMemcpyAsync): %.1f GB/s (read + write, best of 10)\n", p.name,
           bytes >> 20, gbs);
    return 0;
}

static int cmd_plan(int argc, char **argv) {
    spmv_opts o = spmv_opts_default();
    spmv_error e;
    spmv_triplets t;
    const char *mat = NULL, *base;
    char prec = 'd';
    cudaStream_t s = NULL;
    int i, rc;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--expect") && v) {
            o.expected_calls = strtod(v, &end);
            if (end == v || *end) o.expected_calls = -1; /* refused by the check below */
            i++;
        } else if (!strcmp(a, "--budget") && v) {
            o.budget = strtod(v, &end);
            if (end == v || *end) o.budget = -1;
            i++;
        } else if (!strcmp(a, "--deterministic")) {
            o.deterministic = 1;
        } else if (!strcmp(a, "--precision") && v && (v[0] == 'd' || v[0] == 's') && !v[1]) {
            prec = v[0];
            i++;
        } else if (a[0] == '-' || mat) {
            fprintf(stderr, "spmv-cuda plan: bad argument '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            mat = a;
        }
    }
    if (!mat) {
        fprintf(stderr, "spmv-cuda plan: no MATRIX\n");
        usage(stderr);
        return 2;
    }
    if (spmv_opts_check(&o, &e) != SPMV_OK) {
        fprintf(stderr, "spmv-cuda plan: %s\n", e.msg);
        return 2;
    }
    if ((rc = need_device()) != 0) return rc;
    if (load_matrix(mat, &t)) return 1;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        fprintf(stderr, "spmv-cuda plan: cudaStreamCreate: %s\n", cudaGetErrorString(cudaGetLastError()));
        spmv_triplets_free(&t);
        return 1;
    }
    base = strrchr(mat, '/');
    base = base ? base + 1 : mat;
    rc = prec == 'd' ? tool_d_plan(&t, &o, s, base) : tool_s_plan(&t, &o, s, base);
    cudaStreamDestroy(s);
    spmv_triplets_free(&t);
    return rc;
}

int main(int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        printf("spmv-cuda %s\n", SPMV_VERSION_STRING);
        return 0;
    }
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "bench")) return cmd_bench(argc - 2, argv + 2);
    if (!strcmp(argv[1], "plan")) return cmd_plan(argc - 2, argv + 2);
    if (!strcmp(argv[1], "copy")) {
        if (argc != 2) {
            usage(stderr);
            return 2;
        }
        return cmd_copy();
    }
    fprintf(stderr, "spmv-cuda: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
