/* The thread-safety contract of the README ("API overview"), tested:
 *  - several pthreads multiply with the same handle at once (each its own y, x shared) for every
 *    host format whose _mv only reads its handle, and through an auto handle: every y equals,
 *    bit for bit, the product of one caller with the same OpenMP thread count;
 *  - the formats that embed x (AXC, AXT): _update_x once, then _mv_kernel from several pthreads;
 *  - products called from inside the caller's own OpenMP parallel region (nested parallelism
 *    off, the default): each thread's y equals the single-threaded product bit for bit.
 * Tags d and s; every ISA the CPU runs. */
#include "spmv.h"
#include "harness.h"
#include <pthread.h>

#define NTH 4
#define REPS 12

#define THREADS_CASE(TAG, T)                                                                                           \
    typedef struct {                                                                                                   \
        spmv_##TAG##_any *M;                                                                                           \
        spmv_##TAG##_auto *Au;                                                                                         \
        const T *x, *want;                                                                                             \
        int64_t n;                                                                                                     \
        int kernel, bad, err;                                                                                          \
    } job_##TAG;                                                                                                       \
    static void *worker_##TAG(void *arg) {                                                                             \
        job_##TAG *j = (job_##TAG *)arg;                                                                               \
        T *y = (T *)malloc(sizeof(T) * (size_t)(j->n ? j->n : 1));                                                     \
        int r;                                                                                                         \
        if (!y) {                                                                                                      \
            j->err = 1;                                                                                                \
            return NULL;                                                                                               \
        }                                                                                                              \
        for (r = 0; r < REPS; r++) {                                                                                   \
            spmv_status st;                                                                                            \
            memset(y, 0xff, sizeof(T) * (size_t)j->n); /* NaN: beta = 0 must not read it */                            \
            if (j->Au) st = spmv_##TAG##_auto_mv(j->Au, (T)1.5, j->x, (T)0, y);                                        \
            else if (j->kernel) st = spmv_##TAG##_any_mv_kernel(j->M, (T)1.5, j->x, (T)0, y);                          \
            else st = spmv_##TAG##_any_mv(j->M, (T)1.5, j->x, (T)0, y);                                                \
            if (st != SPMV_OK) j->err = 1;                                                                             \
            else if (memcmp(y, j->want, sizeof(T) * (size_t)j->n)) j->bad = 1;                                         \
        }                                                                                                              \
        free(y);                                                                                                       \
        return NULL;                                                                                                   \
    }                                                                                                                  \
    /* NTH pthreads on one handle; 1 when every product was right */                                                   \
    static int concurrent_##TAG(spmv_##TAG##_any *M, spmv_##TAG##_auto *Au, const T *x, const T *want, int64_t n,      \
                                int kernel, const char *what) {                                                        \
        pthread_t th[NTH];                                                                                             \
        job_##TAG jb[NTH];                                                                                             \
        int i, ok = 1, started = 0;                                                                                    \
        for (i = 0; i < NTH; i++) {                                                                                    \
            jb[i].M = M, jb[i].Au = Au, jb[i].x = x, jb[i].want = want, jb[i].n = n, jb[i].kernel = kernel;            \
            jb[i].bad = jb[i].err = 0;                                                                                 \
            if (pthread_create(&th[i], NULL, worker_##TAG, &jb[i]) == 0) started++;                                    \
            else break;                                                                                                \
        }                                                                                                              \
        for (i = 0; i < started; i++) pthread_join(th[i], NULL);                                                       \
        for (i = 0; i < started; i++) ok &= !jb[i].bad && !jb[i].err;                                                  \
        CHECK(started == NTH && ok, #TAG " %s: %d threads on one handle: %s", what, started,                           \
              ok ? "ok" : "a product differed from the single caller's or failed");                                    \
        return ok;                                                                                                     \
    }                                                                                                                  \
    static void run_##TAG(const spmv_##TAG##_csr *A, const char *mname) {                                              \
        const int64_t n = A->nrows;                                                                                    \
        T *x = (T *)malloc(sizeof(T) * (size_t)(A->ncols + 1)), *want = (T *)malloc(sizeof(T) * (size_t)(n + 1));      \
        T *want1 = (T *)malloc(sizeof(T) * (size_t)(n + 1));                                                           \
        int64_t i;                                                                                                     \
        int f, isa;                                                                                                    \
        if (!x || !want || !want1) abort();                                                                            \
        for (i = 0; i < A->ncols; i++) x[i] = (T)(0.25 + (double)(i % 13) / 7);                                        \
        for (f = 0; f < SPMV_FMT_COUNT_; f++) {                                                                        \
            const unsigned fl = spmv_format_flags((spmv_format)f);                                                     \
            if (!(fl & SPMV_FF_HOST)) continue;                                                                        \
            for (isa = SPMV_ISA_GENERIC; isa < SPMV_ISA_COUNT_; isa++) {                                               \
                spmv_##TAG##_any M;                                                                                    \
                const int emb = (fl & SPMV_FF_EMBEDS_X) != 0;                                                          \
                char what[160];                                                                                        \
                spmv_status st;                                                                                        \
                if (!spmv_isa_supported((spmv_isa)isa)) continue;                                                      \
                snprintf(what, sizeof what, "%s %s [%s]", spmv_format_name((spmv_format)f),                            \
                         spmv_isa_name((spmv_isa)isa), mname);                                                         \
                const spmv_opts bo = th_opts((spmv_format)f, (spmv_isa)isa, NULL);                                     \
                st = spmv_##TAG##_any_from_csr(&M, A, &bo, NULL);                                                      \
                if (st == SPMV_ERR_LIMIT) continue; /* a size cap: the format's own tests cover it */                  \
                if ((fl & SPMV_FF_SYMMETRIC) && !spmv_##TAG##_csr_is_symmetric(A)) { /* sss: on the stencil */         \
                    CHECK(st == SPMV_ERR_ARG, #TAG " %s: not symmetric, gave %s", what, spmv_status_str(st));          \
                    if (st == SPMV_OK) spmv_##TAG##_any_free(&M);                                                      \
                    continue;                                                                                          \
                }                                                                                                      \
                CHECK(st == SPMV_OK, #TAG " %s: build: %s", what, spmv_status_str(st));                                \
                if (st != SPMV_OK) continue;                                                                           \
                if (emb) CHECK(spmv_##TAG##_any_update_x(&M, x) == SPMV_OK, #TAG " %s: update_x", what);               \
                /* the single caller's product, with the threads the workers' calls get */                             \
                st = emb ? spmv_##TAG##_any_mv_kernel(&M, (T)1.5, x, (T)0, want)                                       \
                         : spmv_##TAG##_any_mv(&M, (T)1.5, x, (T)0, want);                                             \
                CHECK(st == SPMV_OK, #TAG " %s: product: %s", what, spmv_status_str(st));                              \
                if (st == SPMV_OK) concurrent_##TAG(&M, NULL, x, want, n, emb, what);                                  \
                /* inside the caller's parallel region: each call runs on its own thread alone */                      \
                if (!emb) {                                                                                            \
                    int bad = 0, nt = 0;                                                                               \
                    omp_set_num_threads(1);                                                                            \
                    st = spmv_##TAG##_any_mv(&M, (T)1.5, x, (T)0, want1);                                              \
                    omp_set_num_threads(2);                                                                            \
                    _Pragma("omp parallel num_threads(3) reduction(|: bad) reduction(+: nt)")                          \
                    {                                                                                                  \
                        T *y = (T *)malloc(sizeof(T) * (size_t)(n + 1));                                               \
                        nt += 1;                                                                                       \
                        if (!y || spmv_##TAG##_any_mv(&M, (T)1.5, x, (T)0, y) != SPMV_OK ||                            \
                            memcmp(y, want1, sizeof(T) * (size_t)n))                                                   \
                            bad |= 1;                                                                                  \
                        free(y);                                                                                       \
                    }                                                                                                  \
                    CHECK(st == SPMV_OK && !bad && nt == 3,                                                            \
                          #TAG " %s: products inside the caller's parallel region (%d threads): %s", what, nt,         \
                          bad ? "differ from the single-threaded product" : "ok");                                     \
                }                                                                                                      \
                spmv_##TAG##_any_free(&M);                                                                             \
            }                                                                                                          \
        }                                                                                                              \
        { /* the automatic selection's handle */                                                                       \
            spmv_##TAG##_auto Au;                                                                                      \
            spmv_opts o = spmv_opts_default();                                                                         \
            spmv_status st = spmv_##TAG##_auto_from_csr(&Au, A, &o, NULL);                                             \
            CHECK(st == SPMV_OK, #TAG " auto [%s]: %s", mname, spmv_status_str(st));                                   \
            if (st == SPMV_OK) {                                                                                       \
                char what[160];                                                                                        \
                snprintf(what, sizeof what, "auto (%s) [%s]", spmv_format_name(Au.rep.chosen), mname);                 \
                if (spmv_##TAG##_auto_mv(&Au, (T)1.5, x, (T)0, want) == SPMV_OK)                                       \
                    concurrent_##TAG(NULL, &Au, x, want, n, 0, what);                                                  \
                spmv_##TAG##_auto_free(&Au);                                                                           \
            }                                                                                                          \
        }                                                                                                              \
        free(x);                                                                                                       \
        free(want);                                                                                                    \
        free(want1);                                                                                                   \
    }

THREADS_CASE(d, double)
THREADS_CASE(s, float)

int main(void) {
    static const char *specs[] = {"stencil3d:n=20,pts=7", "rmat:scale=12,ef=8", "band:n=5000,bw=9"};
    size_t k;
#ifndef _OPENMP
    check_skip("built without OpenMP: the parallel-region checks need it");
    return check_finish("test_threads");
#else
    omp_set_num_threads(2);
    for (k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        spmv_triplets t;
        spmv_error e;
        spmv_d_csr A;
        spmv_s_csr B;
        if (spmv_gen(specs[k], &t, &e) != SPMV_OK) {
            CHECK(0, "gen %s: %s", specs[k], e.msg);
            continue;
        }
        if (spmv_d_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
            run_d(&A, specs[k]);
            spmv_d_csr_free(&A);
        }
        if (spmv_s_csr_from_triplets(&B, &t, NULL, NULL) == SPMV_OK) {
            run_s(&B, specs[k]);
            spmv_s_csr_free(&B);
        }
        spmv_triplets_free(&t);
    }
    return check_finish("test_threads");
#endif
}
