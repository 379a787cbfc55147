// Anchor libraries for `spmv bench` (bench/anchors.h): the plain OpenMP row loop, Eigen,
// SuiteSparse:GraphBLAS and librsb behind one C interface. Built by bench/anchors.sh with
// g++ -std=c++17 -O3 -march=native -fopenmp and -DSPMV_ANCHOR_{EIGEN,GRAPHBLAS,RSB}=S,
// S = 1 built (the script also links the library), 0 package not installed, 2 left out by
// SPMV_ANCHORS, 3 compiling against the installed headers failed. A library is compiled in
// only when its macro is 1 and its header is found (__has_include), so the link flags the
// script writes always match. Nothing here prints or exits; errors go to the caller's buffer
// and C++ exceptions never cross the C interface.
#include "anchors.h"

#include <omp.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>
#include <vector>

#ifndef SPMV_ANCHOR_EIGEN
#define SPMV_ANCHOR_EIGEN 0
#endif
#ifndef SPMV_ANCHOR_GRAPHBLAS
#define SPMV_ANCHOR_GRAPHBLAS 0
#endif
#ifndef SPMV_ANCHOR_RSB
#define SPMV_ANCHOR_RSB 0
#endif
#ifndef SPMV_ANCHOR_MKL
#define SPMV_ANCHOR_MKL 0
#endif

#if SPMV_ANCHOR_EIGEN == 1 && __has_include(<Eigen/Sparse>)
#define HAVE_EIGEN 1
#include <Eigen/Sparse>
#else
#define HAVE_EIGEN 0
#endif
#if SPMV_ANCHOR_GRAPHBLAS == 1 && __has_include(<GraphBLAS.h>)
#define HAVE_GRAPHBLAS 1
#include <cmath>
#include <complex>
// GraphBLAS.h declares C functions without extern "C" of its own (its C++ parts are in
// extern "C++")
extern "C" {
#include <GraphBLAS.h>
}
#else
#define HAVE_GRAPHBLAS 0
#endif
#if SPMV_ANCHOR_RSB == 1 && __has_include(<rsb.h>)
#define HAVE_RSB 1
#include <rsb.h>
#else
#define HAVE_RSB 0
#endif
#if SPMV_ANCHOR_MKL == 1 && __has_include(<mkl_spblas.h>)
#define HAVE_MKL 1
#include <mkl_service.h>
#include <mkl_spblas.h>
#else
#define HAVE_MKL 0
#endif

// librsb's autotuner (rsb_tune_spmm, matrix instance only, the thread count kept) in create:
// off. Measured 2026-11-23 on this 2-core machine (Xeon, AVX-512; another job intermittently
// on the other core), double, untuned -> tuned, median SpMV at 1 / 2 threads:
//   stencil3d n=50 (875k nnz)   1.30 / 0.62 ms -> 1.32 / 1.25 ms, tuning 0.07-0.08 s
//   rmat scale=17 (1.0M nnz)    4.23 / 2.62 ms -> 4.32 / 3.09 ms, tuning 0.14-0.29 s
//   fem n=20000 bs=3 (1.1M nnz) 2.64 / 1.14 ms -> 2.77 / 1.40 ms, tuning 0.10 s
// (plain conversion 0.03-0.05 s): the tuner costs 60 to 230 products and found nothing
// faster (on a loaded run it picked slower instances), so a performance-minded user skips it.
// -DSPMV_ANCHOR_RSB_TUNE=1 puts it back.
#ifndef SPMV_ANCHOR_RSB_TUNE
#define SPMV_ANCHOR_RSB_TUNE 0
#endif

namespace {

enum { A_LOOP, A_EIGEN, A_GRAPHBLAS, A_RSB, A_EIGEN_SYM, A_RSB_SYM, A_MKL, A_MKL_IE, A_MKL_SYM, A_COUNT };
const char *const names[A_COUNT] = {"loop", "eigen", "graphblas", "librsb", "eigen_sym", "librsb_sym",
                                    "mkl", "mkl_ie", "mkl_sym"};
const int built[A_COUNT] = {1, HAVE_EIGEN, HAVE_GRAPHBLAS, HAVE_RSB, HAVE_EIGEN, HAVE_RSB, HAVE_MKL, HAVE_MKL, HAVE_MKL};

void set_err(char *err, size_t len, const char *fmt, ...) {
    if (!err || !len) return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

// why an anchor is absent, from the build's status value and the Debian package
[[maybe_unused]] std::string absent(int status, const char *pkg, const char *header) {
    switch (status) {
    case 0: return std::string("not built: ") + pkg + " not installed (sh bench/run.sh installs it)";
    case 2: return "not built: left out by SPMV_ANCHORS when build/spmv was built";
    case 3: return std::string("not built: compiling against the installed ") + pkg +
                   " failed (bench/anchors.sh; see ninja's output)";
    default: return std::string("not built: ") + header + " not found by the compiler";
    }
}

template <class T> struct prec;
template <> struct prec<double> { static const char tag = 'd'; };
template <> struct prec<float> { static const char tag = 's'; };

// Every handle: the caller's arrays and the library's object (impl).
struct handle {
    int anchor;
    char tag;  // 'd' or 's'
    int32_t nrows, ncols, nnz;
    const int32_t *rp, *ci;
    const void *val;
    int nthreads;
    bool empty;  // no entries or a zero dimension: y = 0 without the library
    void *impl;
    size_t bytes;
    struct tri_copy *tri;  // eigen_sym, librsb_sym: the lower triangle
};

// The symmetric anchors' copy of the lower triangle (diagonal included), made in create (its
// cost is their conversion): a CSR in tri_rp/tri_ci/tri_val. The caller gives the full
// symmetric matrix; a pattern whose strict lower and upper parts differ in size is refused
// ("not symmetric"), values are not compared (the bench checks the product).
struct tri_copy {
    std::vector<int32_t> rp, ci;
    std::vector<char> val;  // T values
};
template <class T> bool lower_copy(handle *h, char *err, size_t errlen) {
    tri_copy *c = new (std::nothrow) tri_copy();
    if (!c) return set_err(err, errlen, "%s: out of memory", names[h->anchor]), false;
    int64_t up = 0, low = 0;
    for (int32_t r = 0; r < h->nrows; r++)
        for (int32_t k = h->rp[r]; k < h->rp[r + 1]; k++) up += h->ci[k] > r, low += h->ci[k] < r;
    if (h->nrows != h->ncols || up != low) {
        delete c;
        set_err(err, errlen, "%s: not symmetric (no row)", names[h->anchor]);
        return false;
    }
    const T *v = static_cast<const T *>(h->val);
    c->rp.resize((size_t)h->nrows + 1);
    c->ci.reserve((size_t)(h->nnz - up));
    c->val.resize((size_t)(h->nnz - up) * sizeof(T));
    T *cv = reinterpret_cast<T *>(c->val.data());
    c->rp[0] = 0;
    for (int32_t r = 0; r < h->nrows; r++) {
        for (int32_t k = h->rp[r]; k < h->rp[r + 1]; k++)
            if (h->ci[k] <= r) cv[c->ci.size()] = v[k], c->ci.push_back(h->ci[k]);
        c->rp[(size_t)r + 1] = (int32_t)c->ci.size();
    }
    h->tri = c;
    h->bytes = c->rp.size() * 4 + c->ci.size() * (4 + sizeof(T));
    return true;
}

template <class T> void par_zero(T *y, int32_t n, int nt) {
#pragma omp parallel for schedule(static) num_threads(nt)
    for (int32_t r = 0; r < n; r++) y[r] = 0;
}

// ---------------------------------------------------------------------------------------------
// loop: exactly what a user writes (the accumulator in the matrix's precision, like the
// bench's `naive`), on the borrowed arrays. GCC 12 at -O3 -march=native does not vectorise
// this in-order sum (no -ffast-math): objdump shows one scalar vfmadd231sd per entry
// (2026-11-23; an earlier note here said it used gathers, which this build does not).
template <class T> int loop_mv(const handle *h, const T *x, T *y) {
    const int32_t n = h->nrows, *rp = h->rp, *ci = h->ci;
    const T *val = static_cast<const T *>(h->val);
#pragma omp parallel for schedule(static) num_threads(h->nthreads)
    for (int32_t r = 0; r < n; r++) {
        T s = 0;
        for (int32_t k = rp[r]; k < rp[r + 1]; k++) s += val[k] * x[ci[k]];
        y[r] = s;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Eigen: a Map of the caller's CSR (zero copy; already compressed, so there is nothing to
// prepare: create is O(1)), dense Maps of x and y. Eigen zeroes y and then adds each row's
// sum (its sparse*dense product is written as y += A*x).
// Eigen runs a row-major sparse * dense vector product on nbThreads() OpenMP threads when
// the matrix has more than 20000 entries (SparseDenseProduct.h); setNbThreads is a global
// of Eigen's, so it is set on every call.
#if HAVE_EIGEN
template <class T> int eigen_mv(const handle *h, const T *x, T *y) {
    using Sp = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;
    using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
    static_assert(sizeof(int) == sizeof(int32_t), "Eigen's StorageIndex int must be int32_t");
    Eigen::Map<const Sp> A(h->nrows, h->ncols, h->nnz, h->rp, h->ci, static_cast<const T *>(h->val));
    Eigen::Map<const Vec> xv(x, h->ncols);
    Eigen::Map<Vec> yv(y, h->nrows);
    Eigen::setNbThreads(h->nthreads);
    yv.noalias() = A * xv;
    return 0;
}
// y = A^T x; Y = A X with k vectors, X and Y row-major (ld = k)
template <class T> int eigen_op(const handle *h, int op, int k, const T *x, T *y) {
    using Sp = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;
    using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<const Sp> A(h->nrows, h->ncols, h->nnz, h->rp, h->ci, static_cast<const T *>(h->val));
    Eigen::setNbThreads(h->nthreads);
    if (op == 1) {
        Eigen::Map<const Vec> xv(x, h->nrows);
        Eigen::Map<Vec> yv(y, h->ncols);
        yv.noalias() = A.transpose() * xv;
    } else {
        Eigen::Map<const Mat> X(x, h->ncols, k);
        Eigen::Map<Mat> Y(y, h->nrows, k);
        Y.noalias() = A * X;
    }
    return 0;
}

// eigen_sym: the lower triangle as a row-major SparseMatrix Map, y = A.selfadjointView<Lower>() * x
// (Eigen's symmetric product, which it runs on one thread)
template <class T> int eigen_sym_mv(const handle *h, const T *x, T *y) {
    using Sp = Eigen::SparseMatrix<T, Eigen::RowMajor, int>;
    using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
    const tri_copy *c = h->tri;
    Eigen::Map<const Sp> L(h->nrows, h->ncols, (int)c->ci.size(), c->rp.data(), c->ci.data(),
                           reinterpret_cast<const T *>(c->val.data()));
    Eigen::Map<const Vec> xv(x, h->ncols);
    Eigen::Map<Vec> yv(y, h->nrows);
    Eigen::setNbThreads(h->nthreads);
    yv.noalias() = L.template selfadjointView<Eigen::Lower>() * xv;
    return 0;
}
#endif

// ---------------------------------------------------------------------------------------------
// SuiteSparse:GraphBLAS
#if HAVE_GRAPHBLAS
// x and y are lent to GraphBLAS vectors for the length of a call (GxB_Vector_pack_Full,
// O(1), then unpacked): no copy of either. y is zeroed and the product accumulated into it
// (accum = plus, the semiring's monoid), because GraphBLAS computes C += A*B in place when C
// is full (GB_mxm.c); without accum the result would be a new vector (with no entries for
// empty rows) and the lent y would be freed. In case a code path does free or reallocate a
// lent array anyway, GraphBLAS is started with free/realloc functions that leave lent arrays
// alone (realloc copies), and mv then copies GraphBLAS's own result into y.
std::mutex gb_mu;
std::atomic<int> gb_nlent{0};
struct gb_lent_t {
    void *p;
    size_t size;
};
gb_lent_t gb_lent[16];

bool gb_is_lent(void *p, size_t *size) {
    if (gb_nlent.load(std::memory_order_acquire) == 0) return false;
    std::lock_guard<std::mutex> g(gb_mu);
    for (auto &e : gb_lent)
        if (e.p == p) {
            if (size) *size = e.size;
            return true;
        }
    return false;
}
void gb_free(void *p) {
    if (p && gb_is_lent(p, nullptr)) return;
    std::free(p);
}
void *gb_realloc(void *p, size_t n) {
    size_t old = 0;
    if (p && gb_is_lent(p, &old)) {
        void *q = std::malloc(n ? n : 1);
        if (q) std::memcpy(q, p, old < n ? old : n);
        return q;
    }
    return std::realloc(p, n);
}
bool gb_lend(void *p, size_t size) {
    std::lock_guard<std::mutex> g(gb_mu);
    for (auto &e : gb_lent)
        if (!e.p) {
            e.p = p;
            e.size = size;
            gb_nlent.fetch_add(1, std::memory_order_release);
            return true;
        }
    return false;
}
void gb_unlend(void *p) {
    std::lock_guard<std::mutex> g(gb_mu);
    for (auto &e : gb_lent)
        if (e.p == p) {
            e.p = nullptr;
            gb_nlent.fetch_sub(1, std::memory_order_release);
            return;
        }
}

std::once_flag gb_once;
GrB_Info gb_init_info = GrB_PANIC;
void gb_init() {
    // non-blocking mode; the standard malloc/calloc, the guarded free/realloc above
    gb_init_info = GxB_init(GrB_NONBLOCKING, std::malloc, std::calloc, gb_realloc, gb_free);
#if GxB_IMPLEMENTATION_MAJOR < 8
    if (gb_init_info == GrB_SUCCESS) {
        // no free pool (GraphBLAS 5 to 7 keep freed power-of-two blocks for reuse): every
        // freed array goes through gb_free, which keeps lent ones
        int64_t pool[64] = {0};
        GxB_Global_Option_set_INT64_ARRAY(GxB_MEMORY_POOL, pool);
    }
#endif
}

template <class T> struct gb_types;
template <> struct gb_types<double> {
    static GrB_Type type() { return GrB_FP64; }
    static GrB_Semiring semiring() { return GrB_PLUS_TIMES_SEMIRING_FP64; }
    static GrB_BinaryOp plus() { return GrB_PLUS_FP64; }
};
template <> struct gb_types<float> {
    static GrB_Type type() { return GrB_FP32; }
    static GrB_Semiring semiring() { return GrB_PLUS_TIMES_SEMIRING_FP32; }
    static GrB_BinaryOp plus() { return GrB_PLUS_FP32; }
};

struct gb_impl {
    GrB_Matrix A = nullptr;
    GrB_Vector X = nullptr, Y = nullptr;
    GrB_Vector Xt = nullptr, Yt = nullptr; // y = A^T x: x of nrows, y of ncols
    GrB_Descriptor desc = nullptr, desct = nullptr; // desct: the same, transposing A
};

void gb_destroy(gb_impl *g) {
    if (!g) return;
    if (g->A) GrB_Matrix_free(&g->A);
    if (g->X) GrB_Vector_free(&g->X);
    if (g->Y) GrB_Vector_free(&g->Y);
    if (g->Xt) GrB_Vector_free(&g->Xt);
    if (g->Yt) GrB_Vector_free(&g->Yt);
    if (g->desc) GrB_Descriptor_free(&g->desc);
    if (g->desct) GrB_Descriptor_free(&g->desct);
    delete g;
}

// The conversion: GraphBLAS indices are 64-bit (GrB_Index), so row_ptr and col_idx are
// widened into new arrays and the values copied (GraphBLAS owns and frees what it is
// given), then moved in by GxB_Matrix_pack_CSR (O(1), no further copy): the cheapest
// documented way in. GrB_Matrix_wait finishes whatever GraphBLAS wants to do with it
// (GraphBLAS has no separate optimise step; its sparsity format is its own default choice).
// Each product then runs GraphBLAS's dot4 kernel, "C=A'*B, dot_product (dot4: F += S'*F)
// (C in place)" by GxB_BURBLE, on the lent y: no allocation and no copy per call.
template <class T> bool gb_create(handle *h, char *err, size_t errlen) {
    std::call_once(gb_once, gb_init);
    if (gb_init_info != GrB_SUCCESS) {
        set_err(err, errlen, "graphblas: GxB_init failed (GrB_Info %d)", (int)gb_init_info);
        return false;
    }
    const int nt = h->nthreads;
    const int64_t n = h->nrows, nnz = h->nnz;
    gb_impl *g = new (std::nothrow) gb_impl;
    if (!g) {
        set_err(err, errlen, "graphblas: out of memory");
        return false;
    }
    size_t ap_size = sizeof(GrB_Index) * (size_t)(n + 1), aj_size = sizeof(GrB_Index) * (size_t)nnz,
           ax_size = sizeof(T) * (size_t)nnz;
    GrB_Index *Ap = (GrB_Index *)std::malloc(ap_size), *Aj = (GrB_Index *)std::malloc(aj_size);
    void *Ax = std::malloc(ax_size);
    GrB_Info info = GrB_SUCCESS;
    const char *what = "";
    if (!Ap || !Aj || !Ax) {
        std::free(Ap);
        std::free(Aj);
        std::free(Ax);
        gb_destroy(g);
        set_err(err, errlen, "graphblas: out of memory for the 64-bit CSR copy (%zu bytes)",
                ap_size + aj_size + ax_size);
        return false;
    }
    {
        const int32_t *rp = h->rp, *ci = h->ci;
        const T *v = static_cast<const T *>(h->val);
        T *ax = static_cast<T *>(Ax);
#pragma omp parallel num_threads(nt)
        {
#pragma omp for schedule(static) nowait
            for (int64_t r = 0; r <= n; r++) Ap[r] = (GrB_Index)rp[r];
#pragma omp for schedule(static)
            for (int64_t k = 0; k < nnz; k++) {
                Aj[k] = (GrB_Index)ci[k];
                ax[k] = v[k];
            }
        }
    }
#define GB_TRY(call)                                                                                                   \
    do {                                                                                                               \
        info = (call);                                                                                                 \
        if (info != GrB_SUCCESS) {                                                                                     \
            what = #call;                                                                                              \
            goto fail;                                                                                                 \
        }                                                                                                              \
    } while (0)
    GB_TRY(GrB_Descriptor_new(&g->desc));
    GB_TRY(GxB_Desc_set_INT32(g->desc, (GrB_Desc_Field)GxB_NTHREADS, nt));
    GB_TRY(GrB_Matrix_new(&g->A, gb_types<T>::type(), (GrB_Index)n, (GrB_Index)h->ncols));
    GB_TRY(GxB_Matrix_pack_CSR(g->A, &Ap, &Aj, &Ax, ap_size, aj_size, ax_size, false, false, g->desc));
    GB_TRY(GrB_Matrix_wait(g->A, GrB_MATERIALIZE));
    GB_TRY(GrB_Vector_new(&g->X, gb_types<T>::type(), (GrB_Index)h->ncols));
    GB_TRY(GrB_Vector_new(&g->Y, gb_types<T>::type(), (GrB_Index)n));
    GB_TRY(GrB_Vector_new(&g->Xt, gb_types<T>::type(), (GrB_Index)n));
    GB_TRY(GrB_Vector_new(&g->Yt, gb_types<T>::type(), (GrB_Index)h->ncols));
    GB_TRY(GrB_Descriptor_new(&g->desct));
    GB_TRY(GxB_Desc_set_INT32(g->desct, (GrB_Desc_Field)GxB_NTHREADS, nt));
    GB_TRY(GrB_Descriptor_set(g->desct, GrB_INP0, GrB_TRAN));
#undef GB_TRY
    {
        size_t bytes = 0;
        if (GxB_Matrix_memoryUsage(&bytes, g->A) == GrB_SUCCESS) h->bytes = bytes;
        else h->bytes = ap_size + aj_size + ax_size;
    }
    h->impl = g;
    return true;
fail:
    std::free(Ap);  // NULL once packed
    std::free(Aj);
    std::free(Ax);
    gb_destroy(g);
    set_err(err, errlen, "graphblas: %s failed (GrB_Info %d)", what, (int)info);
    return false;
}

// tr: y = A^T x (GrB_mxv with GrB_INP0 = GrB_TRAN), x of nrows and y of ncols values
template <class T> int gb_mv(const handle *h, const T *x, T *y, bool tr = false) {
    gb_impl *g = static_cast<gb_impl *>(h->impl);
    const int32_t nx = tr ? h->nrows : h->ncols, ny = tr ? h->ncols : h->nrows;
    const size_t xs = sizeof(T) * (size_t)nx, ys = sizeof(T) * (size_t)ny;
    GrB_Vector X = tr ? g->Xt : g->X, Y = tr ? g->Yt : g->Y;
    GrB_Descriptor desc = tr ? g->desct : g->desc;
    void *px = const_cast<T *>(x), *py = y;
    int rc = 0;
    par_zero(y, ny, h->nthreads);
    if (!gb_lend(px, xs)) return -2;
    if (!gb_lend(py, ys)) {
        gb_unlend(px);
        return -2;
    }
    GrB_Info info = GxB_Vector_pack_Full(X, &px, xs, false, nullptr);
    if (info == GrB_SUCCESS) {
        info = GxB_Vector_pack_Full(Y, &py, ys, false, nullptr);
        if (info == GrB_SUCCESS) {
            info = GrB_mxv(Y, nullptr, gb_types<T>::plus(), gb_types<T>::semiring(), g->A, X, desc);
            if (info == GrB_SUCCESS) info = GrB_Vector_wait(Y, GrB_MATERIALIZE);
            GrB_Index size = 0;
            bool iso = false;
            void *out = nullptr;
            if (info == GrB_SUCCESS) info = GxB_Vector_unpack_Full(Y, &out, &size, &iso, nullptr);
            if (info == GrB_SUCCESS && out != y) {
                // not computed in place: GraphBLAS's own array holds the result
                if (iso) {
                    for (int32_t r = 0; r < ny; r++) y[r] = static_cast<T *>(out)[0];
                } else {
                    std::memcpy(y, out, ys);
                }
                std::free(out);
            }
            if (info != GrB_SUCCESS) {
                rc = (int)info;
                GrB_Vector_clear(Y);  // frees through gb_free: y itself is kept
            }
        } else {
            rc = (int)info;
        }
        void *back = nullptr;
        GrB_Index size = 0;
        bool iso = false;
        if (GxB_Vector_unpack_Full(X, &back, &size, &iso, nullptr) != GrB_SUCCESS) {
            GrB_Vector_clear(X);
            if (!rc) rc = -3;
        } else if (back != x) {
            std::free(back);
        }
    } else {
        rc = (int)info;
    }
    gb_unlend(const_cast<T *>(x));
    gb_unlend(y);
    return rc;
}

std::string gb_version() {
    char s[96];
    std::snprintf(s, sizeof s, "SuiteSparse:GraphBLAS %d.%d.%d", GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR,
                  GxB_IMPLEMENTATION_SUB);
    return s;
}
#endif

// ---------------------------------------------------------------------------------------------
// librsb
#if HAVE_RSB
// librsb runs on its own thread count (RSB_IO_WANT_EXECUTING_THREADS, a global of the
// library, which also sets its blocking: more threads, more leaves), but never on more
// threads than the OpenMP default had when rsb_lib_init ran (measured with per-thread CPU
// times: started under OMP_NUM_THREADS=1, 3 threads asked, one thread ran), nor (it seems) on
// more than the calling thread's OpenMP default; rsb_mtx_alloc_from_csr_const assembles on
// the OpenMP default. So librsb is started under a default of max(CPUs, the first handle's
// count: spmv_anchor_available's uses the OpenMP default), at most 128 (librsb's build limit: above it prints a warning), and both counts are
// set to the handle's around every call, the caller's default put back after.
struct omp_default_scope {
    int saved;
    explicit omp_default_scope(int nt) : saved(omp_get_max_threads()) {
        if (saved != nt) omp_set_num_threads(nt);
    }
    ~omp_default_scope() {
        if (omp_get_max_threads() != saved) omp_set_num_threads(saved);
    }
};
std::once_flag rsb_once;
rsb_err_t rsb_init_err = RSB_ERR_GENERIC_ERROR;
int rsb_cap = 1;           // the most threads librsb can use (see above)
int rsb_threads_now = -1;  // librsb's executing threads now
void rsb_init(int nt) {
    int cap = omp_get_num_procs();
    if (nt > cap) cap = nt;
    if (cap > 128) cap = 128;
    omp_default_scope scope(cap);
    rsb_init_err = rsb_lib_init(RSB_NULL_INIT_OPTIONS);
    rsb_cap = cap;
}
bool rsb_threads(int nt) {
    if (rsb_threads_now == nt) return true;
    rsb_int_t v = nt;
    if (rsb_lib_set_opt(RSB_IO_WANT_EXECUTING_THREADS, &v) != RSB_ERR_NO_ERROR) return false;
    rsb_threads_now = nt;
    return true;
}

template <class T> struct rsb_typecode;
template <> struct rsb_typecode<double> { static rsb_type_t code() { return RSB_NUMERICAL_TYPE_DOUBLE; } };
#ifdef RSB_NUMERICAL_TYPE_FLOAT
template <> struct rsb_typecode<float> { static rsb_type_t code() { return RSB_NUMERICAL_TYPE_FLOAT; } };
#endif

std::string rsb_errstr(rsb_err_t e) {
    char buf[256] = "";
    rsb_strerror_r(e, buf, sizeof buf);
    return buf;
}

template <class T> bool rsb_create(handle *h, char *err, size_t errlen) {
#ifndef RSB_NUMERICAL_TYPE_FLOAT
    if (prec<T>::tag == 's') {
        set_err(err, errlen, "librsb: this librsb was built without float");
        return false;
    }
#endif
    std::call_once(rsb_once, rsb_init, h->nthreads);
    if (rsb_init_err != RSB_ERR_NO_ERROR) {
        set_err(err, errlen, "librsb: rsb_lib_init failed: %s", rsb_errstr(rsb_init_err).c_str());
        return false;
    }
    if (h->nthreads > rsb_cap) {
        set_err(err, errlen,
                "librsb: started for at most %d threads (the CPUs, or the count of its first handle or of the OpenMP "
                "default at spmv_anchor_available), %d asked",
                rsb_cap, h->nthreads);
        return false;
    }
    omp_default_scope scope(h->nthreads);
    if (!rsb_threads(h->nthreads)) {
        set_err(err, errlen, "librsb: cannot set %d executing threads", h->nthreads);
        return false;
    }
    rsb_err_t e = RSB_ERR_NO_ERROR;
    // librsb_sym: the lower triangle with the symmetric flag (its symmetric kernels)
    const bool sym = h->anchor == A_RSB_SYM;
    if (sym && !lower_copy<T>(h, err, errlen)) return false;
    struct rsb_mtx_t *A =
        sym ? rsb_mtx_alloc_from_csr_const(h->tri->val.data(), h->tri->rp.data(), h->tri->ci.data(),
                                           (rsb_nnz_idx_t)h->tri->ci.size(), rsb_typecode<T>::code(), h->nrows, h->ncols,
                                           1, 1, RSB_FLAG_DEFAULT_RSB_MATRIX_FLAGS | RSB_FLAG_LOWER_SYMMETRIC, &e)
            : rsb_mtx_alloc_from_csr_const(h->val, h->rp, h->ci, h->nnz, rsb_typecode<T>::code(), h->nrows, h->ncols,
                                           1, 1, RSB_FLAG_DEFAULT_RSB_MATRIX_FLAGS, &e);
    if (!A || e != RSB_ERR_NO_ERROR) {
        if (A) rsb_mtx_free(A);
        set_err(err, errlen, "librsb: rsb_mtx_alloc_from_csr_const failed: %s", rsb_errstr(e).c_str());
        return false;
    }
#if SPMV_ANCHOR_RSB_TUNE
    {
        const T one = 1, zero = 0;
        rsb_real_t sf = 0;
        e = rsb_tune_spmm(&A, &sf, nullptr, 0, 0.0, RSB_TRANSPOSITION_N, &one, nullptr, 1,
                          RSB_FLAG_WANT_COLUMN_MAJOR_ORDER, nullptr, 0, &zero, nullptr, 0);
        if (e != RSB_ERR_NO_ERROR) {
            if (A) rsb_mtx_free(A);
            set_err(err, errlen, "librsb: rsb_tune_spmm failed: %s", rsb_errstr(e).c_str());
            return false;
        }
    }
#endif
    size_t bytes = 0;
    if (rsb_mtx_get_info(A, RSB_MIF_TOTAL_SIZE__TO__SIZE_T, &bytes) == RSB_ERR_NO_ERROR) h->bytes = bytes;
    delete h->tri;  // librsb copied it
    h->tri = nullptr;
    h->impl = A;
    return true;
}

template <class T> int rsb_mv(const handle *h, const T *x, T *y) {
    omp_default_scope scope(h->nthreads);
    if (!rsb_threads(h->nthreads)) return -2;
    const T one = 1, zero = 0;
    rsb_err_t e = rsb_spmv(RSB_TRANSPOSITION_N, &one, static_cast<const struct rsb_mtx_t *>(h->impl), x, 1, &zero, y, 1);
    return e == RSB_ERR_NO_ERROR ? 0 : -1;
}
// y = A^T x (transA); Y = A X with k right-hand sides, row-major (ld = k)
template <class T> int rsb_op(const handle *h, int op, int k, const T *x, T *y) {
    omp_default_scope scope(h->nthreads);
    if (!rsb_threads(h->nthreads)) return -2;
    const T one = 1, zero = 0;
    const struct rsb_mtx_t *A = static_cast<const struct rsb_mtx_t *>(h->impl);
    rsb_err_t e = op == 1 ? rsb_spmv(RSB_TRANSPOSITION_T, &one, A, x, 1, &zero, y, 1)
                          : rsb_spmm(RSB_TRANSPOSITION_N, &one, A, k, RSB_FLAG_WANT_ROW_MAJOR_ORDER, x, k, &zero, y, k);
    return e == RSB_ERR_NO_ERROR ? 0 : -1;
}

// the header's RSB_LIBRSB_VER_STRING has three parts (Debian's 1.3.0.2 says "1.3.0");
// bench/anchors.sh passes the package's version when dpkg knows it
std::string rsb_version() {
#ifdef SPMV_ANCHOR_RSB_VERSION
    return std::string("librsb ") + SPMV_ANCHOR_RSB_VERSION;
#else
    return std::string("librsb ") + RSB_LIBRSB_VER_STRING;
#endif
}
#endif


// ---------------------------------------------------------------------------------------------
// oneMKL's sparse BLAS (inspector-executor API), through libmkl_rt with the GNU OpenMP
// threading layer (the process's own OpenMP; set once, before any other MKL call):
//   mkl      mkl_sparse_?_create_csr on the caller's arrays (borrowed) and mkl_sparse_?_mv,
//            the plain handle a user writes first;
//   mkl_ie   the same, then the hints a performance-minded user gives (mkl_sparse_set_mv_hint
//            for MKL_IE_CALLS products, mkl_sparse_set_memory_hint aggressive) and
//            mkl_sparse_optimize, all in create (its cost is the conversion's);
//   mkl_sym  the lower triangle (copied in create) as SPARSE_MATRIX_TYPE_SYMMETRIC, with the
//            hints and mkl_sparse_optimize.
// The thread count of each call is mkl_set_num_threads_local's (the caller's default kept).
// mvt: SPARSE_OPERATION_TRANSPOSE; mm: mkl_sparse_?_mm, row-major X and Y (ld = k).
#if HAVE_MKL
#ifndef MKL_IE_CALLS
#define MKL_IE_CALLS 1000 // the bench's expected products (spmv bench's auto row)
#endif
struct mkl_impl {
    sparse_matrix_t A;
    struct matrix_descr d;
};
void mkl_start() {
    static std::once_flag once;
    std::call_once(once, [] { mkl_set_threading_layer(MKL_THREADING_GNU); });
}
sparse_status_t mkl_create_t(sparse_matrix_t *A, int32_t m, int32_t n, int32_t *rp, int32_t *ci, double *v) {
    return mkl_sparse_d_create_csr(A, SPARSE_INDEX_BASE_ZERO, m, n, rp, rp + 1, ci, v);
}
sparse_status_t mkl_create_t(sparse_matrix_t *A, int32_t m, int32_t n, int32_t *rp, int32_t *ci, float *v) {
    return mkl_sparse_s_create_csr(A, SPARSE_INDEX_BASE_ZERO, m, n, rp, rp + 1, ci, v);
}
template <class T> bool mkl_create(handle *h, char *err, size_t errlen) {
    mkl_start();
    mkl_impl *mi = new (std::nothrow) mkl_impl();
    if (!mi) return set_err(err, errlen, "%s: out of memory", names[h->anchor]), false;
    mi->d.type = SPARSE_MATRIX_TYPE_GENERAL;
    mi->d.mode = SPARSE_FILL_MODE_LOWER;
    mi->d.diag = SPARSE_DIAG_NON_UNIT;
    int32_t *rp = const_cast<int32_t *>(h->rp), *ci = const_cast<int32_t *>(h->ci);
    T *v = static_cast<T *>(const_cast<void *>(h->val));
    if (h->anchor == A_MKL_SYM) {
        if (!lower_copy<T>(h, err, errlen)) return delete mi, false;
        rp = h->tri->rp.data(), ci = h->tri->ci.data(), v = reinterpret_cast<T *>(h->tri->val.data());
        mi->d.type = SPARSE_MATRIX_TYPE_SYMMETRIC;
    }
    mkl_set_num_threads_local(h->nthreads);
    sparse_status_t st = mkl_create_t(&mi->A, h->nrows, h->ncols, rp, ci, v);
    if (st == SPARSE_STATUS_SUCCESS && h->anchor != A_MKL) {
        st = mkl_sparse_set_mv_hint(mi->A, SPARSE_OPERATION_NON_TRANSPOSE, mi->d, MKL_IE_CALLS);
        if (st == SPARSE_STATUS_SUCCESS || st == SPARSE_STATUS_NOT_SUPPORTED)
            st = mkl_sparse_set_memory_hint(mi->A, SPARSE_MEMORY_AGGRESSIVE);
        if (st == SPARSE_STATUS_SUCCESS || st == SPARSE_STATUS_NOT_SUPPORTED) st = mkl_sparse_optimize(mi->A);
    }
    mkl_set_num_threads_local(0);
    if (st != SPARSE_STATUS_SUCCESS) {
        mkl_sparse_destroy(mi->A);
        delete mi;
        return set_err(err, errlen, "%s: MKL status %d", names[h->anchor], (int)st), false;
    }
    h->impl = mi;
    return true;
}
sparse_status_t mkl_mv_t(sparse_operation_t op, const mkl_impl *mi, const double *x, double *y) {
    return mkl_sparse_d_mv(op, 1.0, mi->A, mi->d, x, 0.0, y);
}
sparse_status_t mkl_mv_t(sparse_operation_t op, const mkl_impl *mi, const float *x, float *y) {
    return mkl_sparse_s_mv(op, 1.0f, mi->A, mi->d, x, 0.0f, y);
}
sparse_status_t mkl_mm_t(const mkl_impl *mi, int k, const double *x, double *y) {
    return mkl_sparse_d_mm(SPARSE_OPERATION_NON_TRANSPOSE, 1.0, mi->A, mi->d, SPARSE_LAYOUT_ROW_MAJOR, x, k, k, 0.0, y, k);
}
sparse_status_t mkl_mm_t(const mkl_impl *mi, int k, const float *x, float *y) {
    return mkl_sparse_s_mm(SPARSE_OPERATION_NON_TRANSPOSE, 1.0f, mi->A, mi->d, SPARSE_LAYOUT_ROW_MAJOR, x, k, k, 0.0f, y, k);
}
// op 0: y = A x; 1: y = A^T x; 2: Y = A X with k vectors
template <class T> int mkl_run(const handle *h, int op, int k, const T *x, T *y) {
    const mkl_impl *mi = static_cast<const mkl_impl *>(h->impl);
    mkl_set_num_threads_local(h->nthreads);
    sparse_status_t st = op == 2 ? mkl_mm_t(mi, k, x, y)
                                 : mkl_mv_t(op == 1 ? SPARSE_OPERATION_TRANSPOSE : SPARSE_OPERATION_NON_TRANSPOSE, mi, x, y);
    mkl_set_num_threads_local(0);
    return st == SPARSE_STATUS_SUCCESS ? 0 : -1;
}
std::string mkl_version() {
    char v[198] = "";
    mkl_get_version_string(v, (int)sizeof v);
    return std::string(v[0] ? v : "oneMKL") + ", libmkl_rt with the GNU OpenMP threading layer";
}
#endif

// ---------------------------------------------------------------------------------------------
std::string info_of(int i) {
    switch (i) {
    case A_LOOP: return std::string("omp-for CSR row loop, g++ ") + __VERSION__ + " -O3 -march=native -fopenmp";
    case A_EIGEN:
#if HAVE_EIGEN
    {
        char s[64];
        std::snprintf(s, sizeof s, "Eigen %d.%d.%d", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
        return s;
    }
#else
        return absent(SPMV_ANCHOR_EIGEN, "libeigen3-dev", "<Eigen/Sparse>");
#endif
    case A_GRAPHBLAS:
#if HAVE_GRAPHBLAS
        return gb_version();
#else
        return absent(SPMV_ANCHOR_GRAPHBLAS, "libgraphblas-dev", "<GraphBLAS.h>");
#endif
    case A_RSB:
#if HAVE_RSB
        return rsb_version();
#else
        return absent(SPMV_ANCHOR_RSB, "librsb-dev", "<rsb.h>");
#endif
    case A_EIGEN_SYM: return info_of(A_EIGEN) + (HAVE_EIGEN ? ", selfadjointView<Lower> of the lower triangle (symmetric matrices)" : "");
    case A_RSB_SYM: return info_of(A_RSB) + (HAVE_RSB ? ", RSB_FLAG_LOWER_SYMMETRIC (symmetric matrices)" : "");
    case A_MKL:
    case A_MKL_IE:
    case A_MKL_SYM:
#if HAVE_MKL
        return mkl_version() + (i == A_MKL ? ", the plain handle"
                                : i == A_MKL_IE ? ", mv and memory hints, mkl_sparse_optimize"
                                                : ", the lower triangle as symmetric, hints, mkl_sparse_optimize");
#else
        return SPMV_ANCHOR_MKL == 0 ? std::string("not built: oneMKL not found (sh bench/run.sh installs it from the "
                                                  "Python package index into bench/.mkl; or set MKLROOT)")
                                    : absent(SPMV_ANCHOR_MKL, "oneMKL", "<mkl_spblas.h>");
#endif
    }
    return "no such anchor";
}

std::string infos[A_COUNT];
std::once_flag infos_once;

template <class T>
void *create(int i, int32_t nrows, int32_t ncols, const int32_t *row_ptr, const int32_t *col_idx, const T *val,
             int nthreads, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (i < 0 || i >= A_COUNT) {
        set_err(err, errlen, "no anchor %d (there are %d)", i, (int)A_COUNT);
        return nullptr;
    }
    if (!built[i]) {
        set_err(err, errlen, "%s: %s", names[i], spmv_anchor_info(i));
        return nullptr;
    }
    if (nrows < 0 || ncols < 0 || !row_ptr || (nrows > 0 && row_ptr[0] != 0) || row_ptr[nrows] < 0 ||
        (row_ptr[nrows] > 0 && (!col_idx || !val))) {
        set_err(err, errlen, "%s: bad CSR arguments", names[i]);
        return nullptr;
    }
    handle *h = new (std::nothrow) handle();
    if (!h) {
        set_err(err, errlen, "%s: out of memory", names[i]);
        return nullptr;
    }
    h->anchor = i;
    h->tag = prec<T>::tag;
    h->nrows = nrows;
    h->ncols = ncols;
    h->nnz = row_ptr[nrows];
    h->rp = row_ptr;
    h->ci = col_idx;
    h->val = val;
    h->nthreads = nthreads > 0 ? nthreads : omp_get_max_threads();
    h->empty = h->nnz == 0 || nrows == 0 || ncols == 0;
    h->impl = nullptr;
    h->bytes = 0;
    h->tri = nullptr;
    if (h->empty) return h;
    bool ok = true;
    try {
        switch (i) {
#if HAVE_GRAPHBLAS
        case A_GRAPHBLAS: ok = gb_create<T>(h, err, errlen); break;
#endif
#if HAVE_RSB
        case A_RSB:
        case A_RSB_SYM: ok = rsb_create<T>(h, err, errlen); break;
#endif
#if HAVE_EIGEN
        case A_EIGEN_SYM: ok = lower_copy<T>(h, err, errlen); break;
#endif
#if HAVE_MKL
        case A_MKL:
        case A_MKL_IE:
        case A_MKL_SYM: ok = mkl_create<T>(h, err, errlen); break;
#endif
        default: break;  // loop and eigen borrow the arrays: nothing to prepare
        }
    } catch (const std::exception &ex) {
        set_err(err, errlen, "%s: %s", names[i], ex.what());
        ok = false;
    } catch (...) {
        set_err(err, errlen, "%s: exception in create", names[i]);
        ok = false;
    }
    if (!ok) {
        delete h->tri;
        delete h;
        return nullptr;
    }
    return h;
}

template <class T> int mv(int i, void *hv, const T *x, T *y) {
    handle *h = static_cast<handle *>(hv);
    if (!h || h->anchor != i || h->tag != prec<T>::tag) return -1;
    if (h->nrows == 0) return 0;
    if (!y || (!x && h->ncols > 0)) return -1;
    if (h->empty) {
        par_zero(y, h->nrows, h->nthreads);
        return 0;
    }
    try {
        switch (i) {
        case A_LOOP: return loop_mv<T>(h, x, y);
#if HAVE_EIGEN
        case A_EIGEN: return eigen_mv<T>(h, x, y);
#endif
#if HAVE_GRAPHBLAS
        case A_GRAPHBLAS: return gb_mv<T>(h, x, y);
#endif
#if HAVE_RSB
        case A_RSB:
        case A_RSB_SYM: return rsb_mv<T>(h, x, y);
#endif
#if HAVE_EIGEN
        case A_EIGEN_SYM: return eigen_sym_mv<T>(h, x, y);
#endif
#if HAVE_MKL
        case A_MKL:
        case A_MKL_IE:
        case A_MKL_SYM: return mkl_run<T>(h, 0, 1, x, y);
#endif
        default: return -1;
        }
    } catch (...) {
        return -1;
    }
}

// op 1: y = A^T x; op 2: Y = A X, k vectors row-major. -3: the anchor does not offer it.
template <class T> int op_run(int i, void *hv, int op, int k, const T *x, T *y) {
    handle *h = static_cast<handle *>(hv);
    (void)x; // read only by the anchors this build has
    if (!h || h->anchor != i || h->tag != prec<T>::tag || (op != 1 && op != 2) || k < 1) return -1;
    const int32_t ny = op == 1 ? h->ncols : h->nrows;
    if (ny == 0) return 0;
    if (!y) return -1;
    if (h->empty) {
        par_zero(y, op == 2 ? ny * k : ny, h->nthreads);
        return 0;
    }
    try {
        switch (i) {
#if HAVE_EIGEN
        case A_EIGEN: return eigen_op<T>(h, op, k, x, y);
#endif
#if HAVE_GRAPHBLAS
        case A_GRAPHBLAS: return op == 1 ? gb_mv<T>(h, x, y, true) : -3;
#endif
#if HAVE_RSB
        case A_RSB: return rsb_op<T>(h, op, k, x, y);
#endif
#if HAVE_MKL
        case A_MKL:
        case A_MKL_IE: return mkl_run<T>(h, op, k, x, y);
#endif
        default: return -3;
        }
    } catch (...) {
        return -1;
    }
}

}  // namespace

extern "C" {

int spmv_anchor_op_d(int i, void *h, int op, int k, const double *x, double *y) { return op_run<double>(i, h, op, k, x, y); }
int spmv_anchor_op_s(int i, void *h, int op, int k, const float *x, float *y) { return op_run<float>(i, h, op, k, x, y); }

int spmv_anchor_count(void) { return A_COUNT; }

const char *spmv_anchor_name(int i) { return i >= 0 && i < A_COUNT ? names[i] : nullptr; }

const char *spmv_anchor_info(int i) {
    if (i < 0 || i >= A_COUNT) return nullptr;
    std::call_once(infos_once, [] {
        for (int k = 0; k < A_COUNT; k++) infos[k] = info_of(k);
    });
    return infos[i].c_str();
}

// available() also starts the library, once per process (GxB_init, rsb_lib_init, their
// thread pools and first allocations: 10 ms for librsb's first create against 0.5 ms for the
// next, measured), with a product on a 2 x 2 matrix in both precisions, so that timing a
// create times the conversion alone. A library that fails to start is not available, and
// its info says why.
int spmv_anchor_available(int i) {
    static std::once_flag once[A_COUNT];
    static int ok[A_COUNT];
    if (i < 0 || i >= A_COUNT || !built[i]) return 0;
    spmv_anchor_info(i);
    std::call_once(once[i], [i] {
        // [1 2; 0 3], or for the symmetric anchors [1 2; 2 1]: y = (3, 3) either way
        const bool sym = i == A_EIGEN_SYM || i == A_RSB_SYM || i == A_MKL_SYM;
        const int32_t rp[3] = {0, 2, sym ? 4 : 3}, ci[4] = {0, 1, sym ? 0 : 1, 1};
        const double vd[4] = {1, 2, sym ? 2.0 : 3.0, 1}, xd[2] = {1, 1};
        const float vs[4] = {1, 2, sym ? 2.0f : 3.0f, 1}, xs[2] = {1, 1};
        double yd[2];
        float ys[2];
        char err[256] = "";
        int nt = omp_get_max_threads();
        void *h = spmv_anchor_create_d(i, 2, 2, rp, ci, vd, nt, err, sizeof err);
        bool good = h && spmv_anchor_mv_d(i, h, xd, yd) == 0 && yd[0] == 3 && yd[1] == 3;
        if (h) spmv_anchor_free(i, h);
        if (good) {
            h = spmv_anchor_create_s(i, 2, 2, rp, ci, vs, nt, err, sizeof err);
            good = h && spmv_anchor_mv_s(i, h, xs, ys) == 0 && ys[0] == 3 && ys[1] == 3;
            if (h) spmv_anchor_free(i, h);
        }
        ok[i] = good;
        if (!good) infos[i] = std::string("built, but it does not start: ") + (err[0] ? err : "wrong product on 2 x 2");
    });
    return ok[i];
}

void *spmv_anchor_create_d(int i, int32_t nrows, int32_t ncols, const int32_t *row_ptr, const int32_t *col_idx,
                           const double *val, int nthreads, char *err, size_t errlen) {
    return create<double>(i, nrows, ncols, row_ptr, col_idx, val, nthreads, err, errlen);
}
void *spmv_anchor_create_s(int i, int32_t nrows, int32_t ncols, const int32_t *row_ptr, const int32_t *col_idx,
                           const float *val, int nthreads, char *err, size_t errlen) {
    return create<float>(i, nrows, ncols, row_ptr, col_idx, val, nthreads, err, errlen);
}
int spmv_anchor_mv_d(int i, void *h, const double *x, double *y) { return mv<double>(i, h, x, y); }
int spmv_anchor_mv_s(int i, void *h, const float *x, float *y) { return mv<float>(i, h, x, y); }

void spmv_anchor_free(int i, void *hv) {
    handle *h = static_cast<handle *>(hv);
    if (!h || h->anchor != i) return;
    if (h->impl) {
        switch (i) {
#if HAVE_GRAPHBLAS
        case A_GRAPHBLAS: gb_destroy(static_cast<gb_impl *>(h->impl)); break;
#endif
#if HAVE_RSB
        case A_RSB:
        case A_RSB_SYM: rsb_mtx_free(static_cast<struct rsb_mtx_t *>(h->impl)); break;
#endif
#if HAVE_MKL
        case A_MKL:
        case A_MKL_IE:
        case A_MKL_SYM:
            mkl_sparse_destroy(static_cast<mkl_impl *>(h->impl)->A);
            delete static_cast<mkl_impl *>(h->impl);
            break;
#endif
        default: break;
        }
    }
    delete h->tri;
    delete h;
}

size_t spmv_anchor_bytes(int i, void *hv) {
    handle *h = static_cast<handle *>(hv);
    return h && h->anchor == i ? h->bytes : 0;
}

}  // extern "C"
