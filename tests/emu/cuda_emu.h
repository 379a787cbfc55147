/* cuda_emu.h — runs the library's CUDA kernels on the CPU, for the tests on machines
 * without a GPU (the CUDA counterpart of simde_shims.h). Not part of the library.
 *
 *   g++ -std=c++17 -x c++ -DSPMV_CUDA_EMULATE -include tests/emu/cuda_emu.h test.cu
 *
 * What it models, and why that is enough to test the kernels' logic:
 *  - every CUDA thread is a fiber (own stack, own context switch) ; the blocks of a
 *    launch run one after another, the threads of a block interleave cooperatively,
 *    switching only at __syncthreads and the warp shuffles. __shared__ variables are
 *    function statics, shared by the fibers of the running block, as on the device.
 *  - __shfl_*_sync exchange values among the 32 lanes of a warp and wait for all of
 *    them (full mask only); __syncthreads waits for the whole block. A lane that
 *    skips a shuffle or a barrier its warp/block reaches (divergence around a
 *    full-mask shuffle, an early return) is reported as a deadlock and aborts —
 *    undefined behaviour on a GPU, caught here.
 *  - atomicAdd is a plain add (one OS thread runs everything), or, in the concurrent mode,
 *    a real atomic operation.
 *  - SPMV_EMU_CONCURRENT (define it before this header): the blocks of a launch run on several
 *    OS threads at once (SPMV_EMU_THREADS, default 4; block b on thread b mod n; the threads of
 *    a block stay fibers of one OS thread), __shared__ variables are thread_local statics, and
 *    atomics are atomic. Built with -fsanitize=thread (the fibers are announced to
 *    ThreadSanitizer), two blocks writing the same address without an atomic are reported as
 *    a data race whatever the timing: tests/emu/test_emu_race.cu shows it. Its reports name the
 *    racing accesses exactly; their call stacks can be mixed up between the fibers of a block.
 *    Several host threads may launch at once: their grids run one after another (one pool of
 *    runners, as one stream), each host thread with its own error and allocation state.
 *  - cudaMalloc/cudaFree/cudaMemcpy* on host memory, with a table of live blocks:
 *    freeing an unknown pointer is an error, spmv_emu_live_blocks() finds leaks, and
 *    spmv_emu_fail_malloc_after(k) makes the (k+1)-th cudaMalloc fail, for the tests
 *    of allocation failure.
 *  - streams and events exist but everything is synchronous (cudaStreamWaitEvent: nothing
 *    to wait for).
 *  - dynamic parallelism: a launch from inside a kernel (SPMV_CUDA_LAUNCH in device code,
 *    any stream, cudaStreamFireAndForget included) is queued and the queued child grids run,
 *    in launch order, after the last block of the parent grid and before the launch that
 *    started it returns (children of children likewise): what CUDA guarantees (the child
 *    sees the parent's writes made before the launch; the parent grid completes only after
 *    its children). The device runtime's pending-launch pool is modelled: more queued
 *    children than spmv_emu_set_pending_limit(n) (default 2048, the CUDA default) fail with
 *    cudaErrorLaunchPendingCountExceeded, seen by the launching thread's cudaGetLastError().
 *    Not modelled: children running concurrently with their parent (a parent that waits for
 *    a child's result, or a child that races with its parent's later writes, is not caught),
 *    device-side streams and their ordering, the nesting-depth limit.
 * What it does not model: timing, memory coalescing, races between the threads of one block
 * (they interleave only at barriers and shuffles), races between blocks outside the
 * concurrent mode under ThreadSanitizer, warp-synchronous code without shuffles. The real
 * thing is run on a GPU (tests/cuda, compute-sanitizer). */
#ifndef SPMV_CUDA_EMU_H
#define SPMV_CUDA_EMU_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#include <atomic>
#include <functional>
#include <set>
#include <type_traits>
#include <vector>
#ifdef SPMV_EMU_CONCURRENT
#include <condition_variable>
#include <mutex>
#include <thread>
#endif
/* ThreadSanitizer sees the fibers of one OS thread as that thread (so the threads of a block
 * are ordered among themselves, as the cooperative switching orders them, and two blocks on
 * two OS threads are not), which is what finds races between blocks. Announcing every fiber
 * to it (SPMV_EMU_TSAN_FIBERS: correct call stacks in its reports) made every switch cost a
 * vector-clock exchange among thousands of fibers: the quick test_cuda_formats ran for more
 * than 10 minutes instead of seconds. */
#if defined(SPMV_EMU_TSAN_FIBERS)
#define SPMV_EMU_TSAN 1
#endif
#ifdef SPMV_EMU_TSAN
extern "C" {
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
}
#endif

#ifndef SPMV_CUDA_EMULATE
#define SPMV_CUDA_EMULATE 1
#endif

/* ---- qualifiers ----------------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#ifdef SPMV_EMU_CONCURRENT
#define __shared__ static thread_local /* one copy per OS thread: per running block */
#else
#define __shared__ static
#endif

/* ---- runtime types ---------------------------------------------------------------- */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorLaunchPendingCountExceeded = 69,
    cudaErrorStubLibrary = 34,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100,
    cudaErrorLaunchFailure = 719
} cudaError_t;
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
struct spmv_emu_stream_ {
    int id;
};
typedef spmv_emu_stream_ *cudaStream_t;
struct spmv_emu_event_ {
    int id;
};
typedef spmv_emu_event_ *cudaEvent_t;
#define cudaStreamNonBlocking 0x01u
#define cudaEventDisableTiming 0x02u
/* the device runtime's fire-and-forget stream (device code; child grids are queued anyway) */
#define cudaStreamFireAndForget ((cudaStream_t)0)
#define CUDART_VERSION 13000

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};

namespace spmv_emu {

/* Context switch. x86-64: a hand-written switch of the callee-saved registers, stack
 * pointer, MXCSR and x87 control word (swapcontext also saves the signal mask with a
 * system call per switch, 20x slower); elsewhere ucontext. */
#if defined(__x86_64__)
struct context {
    void *sp;
};
extern "C" void spmv_emu_switch(void **save_sp, void *new_sp);
__asm__(".text\n"
        ".globl spmv_emu_switch\n"
        ".type spmv_emu_switch,@function\n"
        "spmv_emu_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size spmv_emu_switch, .-spmv_emu_switch\n");
inline void ctx_switch(context *from, context *to) { spmv_emu_switch(&from->sp, to->sp); }
/* a fresh context that starts in fn() (which must never return) on [stack, stack+n) */
inline void ctx_make(context *c, char *stack, size_t n, void (*fn)()) {
    uint64_t *sp = (uint64_t *)(((uintptr_t)(stack + n)) & ~(uintptr_t)15);
    uint32_t csr[2];
    __asm__ volatile("stmxcsr %0\n fnstcw %1" : "=m"(csr[0]), "=m"(csr[1]));
    *--sp = 0;                       /* fn's frame sees rsp = 8 (mod 16), as after a call */
    *--sp = (uint64_t)(uintptr_t)fn; /* where the switch's ret goes */
    for (int i = 0; i < 6; i++) *--sp = 0; /* rbp rbx r12..r15 */
    --sp;
    memcpy(sp, csr, 8);
    c->sp = sp;
}
#else
struct context {
    ucontext_t uc;
};
inline void ctx_switch(context *from, context *to) { swapcontext(&from->uc, &to->uc); }
inline void ctx_make(context *c, char *stack, size_t n, void (*fn)()) {
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = stack;
    c->uc.uc_stack.ss_size = n;
    c->uc.uc_link = NULL;
    makecontext(&c->uc, fn, 0);
}
#endif

struct fiber {
    context ctx;
    char *stack;
    void *tsan; /* its ThreadSanitizer fiber (NULL without TSan) */
    dim3 tid;
    int done;
    unsigned wgen; /* warp exchanges this fiber has completed */
    unsigned bgen; /* block barriers this fiber has completed */
};
struct warp_state {
    int count[2];
    unsigned done_gen;
    uint64_t slot[2][32];
};
struct child_grid {
    unsigned grid, block;
    const char *name;
    std::function<void()> body;
};
struct state {
    std::vector<fiber> fib;
    std::vector<child_grid> children; /* launched from device code, run after the parent grid */
    size_t pending_limit;
    unsigned long long child_launches;
    std::vector<warp_state> warps;
    int count_b;
    unsigned done_b;
    int cur, nthreads;
    unsigned long long progress;
    context sched;
    std::function<void()> body;
    const char *kernel;
    dim3 block_idx, block_dim, grid_dim;
    cudaError_t last_error;
    std::set<void *> live;
    long fail_after; /* cudaMalloc calls left before one fails; < 0: never */
    int in_kernel;
    void *sched_tsan; /* the OS thread's own ThreadSanitizer fiber */
    state() : pending_limit(2048), child_launches(0), count_b(0), done_b(0), cur(0), nthreads(0), progress(0), kernel(""), last_error(cudaSuccess),
              fail_after(-1), in_kernel(0), sched_tsan(NULL) {
        fib.reserve(1024); /* a suspended fiber's context must never move */
    }
    ~state() {
        for (size_t i = 0; i < fib.size(); i++) {
            free(fib[i].stack);
#ifdef SPMV_EMU_TSAN
            if (fib[i].tsan) __tsan_destroy_fiber(fib[i].tsan);
#endif
        }
    }
};
#ifdef SPMV_EMU_CONCURRENT
inline state &g() {
    static thread_local state s; /* the host thread's, and each block runner's own */
    return s;
}
#else
inline state &g() {
    static state s;
    return s;
}
#endif
/* children queued by the device code of the current host launch (all runners together) */
inline std::atomic<size_t> &pending() {
    static std::atomic<size_t> n(0);
    return n;
}
inline void switch_to(context *from, context *to, void *to_tsan) {
#ifdef SPMV_EMU_TSAN
    __tsan_switch_to_fiber(to_tsan, 0); /* 0: the switch orders the two fibers */
#else
    (void)to_tsan;
#endif
    ctx_switch(from, to);
}
enum { STACK = 256 * 1024 };

inline void die(const char *what) {
    fprintf(stderr, "cuda_emu: %s (kernel %s, block %u, thread %u)\n", what, g().kernel, g().block_idx.x,
            g().nthreads ? g().fib[g().cur].tid.x : 0u);
    abort();
}
inline void yield() {
    state &s = g();
    switch_to(&s.fib[s.cur].ctx, &s.sched, s.sched_tsan);
}
/* a fiber runs the kernel body once per block it is given, for as long as the runner lives
 * (never a fresh context per block: its call stack stays balanced for ThreadSanitizer) */
inline void entry() {
    for (;;) {
        state &s = g();
        s.body();
        s.fib[s.cur].done = 1;
        s.progress++;
        switch_to(&s.fib[s.cur].ctx, &s.sched, s.sched_tsan);
    }
}

/* one exchange among the lanes of the calling fiber's warp: v in, all 32 values out */
inline const uint64_t *warp_exchange(uint64_t v) {
    state &s = g();
    fiber &f = s.fib[s.cur];
    const int w = (int)(f.tid.x >> 5), lane = (int)(f.tid.x & 31);
    int lanes = s.nthreads - 32 * w;
    warp_state &ws = s.warps[w];
    const unsigned gen = f.wgen, p = gen & 1u;
    if (!s.in_kernel) die("warp shuffle outside a kernel");
    if (lanes > 32) lanes = 32;
    if (lanes != 32) die("warp shuffle in a partial warp (blockDim not a multiple of 32)");
    ws.slot[p][lane] = v;
    if (++ws.count[p] == lanes) {
        ws.count[p] = 0;
        ws.done_gen = gen + 1;
        s.progress++;
    } else {
        while (ws.done_gen < gen + 1) yield();
    }
    f.wgen = gen + 1;
    return ws.slot[p];
}

template <typename T> inline uint64_t to_bits(T v) {
    static_assert(sizeof(T) <= 8, "shuffle of a type larger than 8 bytes");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <typename T> inline T from_bits(uint64_t b) {
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}
inline void check_mask(unsigned m, int width) {
    if (m != 0xffffffffu) die("shuffle with a partial mask (the library uses full masks only)");
    if (width < 1 || width > 32 || (width & (width - 1))) die("shuffle width not a power of two <= 32");
}
inline int lane() { return (int)(g().fib[g().cur].tid.x & 31); }

/* runs blocks b0, b0 + step, ... of a grid of grid x block threads on the calling OS thread */
inline void run_blocks(state &s, unsigned grid, unsigned block, const char *name, const std::function<void()> &body,
                       unsigned b0, unsigned step) {
    s.kernel = name;
    s.body = body;
    s.grid_dim = dim3(grid);
    s.block_dim = dim3(block);
    s.nthreads = (int)block;
#ifdef SPMV_EMU_TSAN
    s.sched_tsan = __tsan_get_current_fiber();
#endif
    if (s.fib.size() < block) {
        size_t old = s.fib.size();
        s.fib.resize(block); /* within the reserved capacity: nothing moves */
        for (size_t i = old; i < block; i++) {
            s.fib[i].stack = (char *)malloc(STACK);
            if (!s.fib[i].stack) die("out of memory for fiber stacks");
            ctx_make(&s.fib[i].ctx, s.fib[i].stack, STACK, entry);
#ifdef SPMV_EMU_TSAN
            s.fib[i].tsan = __tsan_create_fiber(0);
#else
            s.fib[i].tsan = NULL;
#endif
        }
    }
    s.warps.assign((block + 31) / 32, warp_state());
    s.in_kernel = 1;
    for (unsigned b = b0; b < grid; b += step) {
        int left = (int)block;
        s.block_idx = dim3(b);
        s.count_b = 0;
        s.done_b = 0;
        for (size_t w = 0; w < s.warps.size(); w++) memset(&s.warps[w], 0, sizeof(warp_state));
        for (unsigned t = 0; t < block; t++) {
            fiber &f = s.fib[t];
            f.tid = dim3(t);
            f.done = 0;
            f.wgen = f.bgen = 0;
        }
        while (left > 0) { /* round robin until every thread of the block has finished */
            const unsigned long long before = s.progress;
            for (unsigned t = 0; t < block; t++) {
                if (s.fib[t].done) continue;
                s.cur = (int)t;
                switch_to(&s.sched, &s.fib[t].ctx, s.fib[t].tsan);
                if (s.fib[t].done) left--;
            }
            if (left > 0 && s.progress == before)
                die("deadlock: threads wait at a __syncthreads or shuffle that others never reach");
        }
    }
    s.in_kernel = 0;
    s.nthreads = 0;
}

#ifdef SPMV_EMU_CONCURRENT
/* the block runners: OS threads made once (a thread per launch cost more in system time than
 * the kernels), each with its own fibers; a launch hands them its grid and waits for all. Each
 * runner has its own mutex and condition variable: a shared one would order the runners (one
 * finishing before another starts), and ThreadSanitizer would then miss their races. */
struct runners {
    struct result {
        std::vector<child_grid> children;
        unsigned long long launches;
        cudaError_t err;
    };
    struct runner {
        std::mutex m;
        std::condition_variable cv;
        unsigned long long posted, done;
        bool stop;
        result res;
        runner() : posted(0), done(0), stop(false) {}
    };
    std::vector<std::thread> th;
    std::vector<runner> rn;
    unsigned n, grid, block;
    size_t limit;
    const char *name;
    const std::function<void()> *body;
    runners() : n(0), grid(0), block(0), limit(0), name(""), body(NULL) {
        const char *e = getenv("SPMV_EMU_THREADS");
        n = e && atoi(e) > 0 ? (unsigned)atoi(e) : 4u;
        rn = std::vector<runner>(n);
        for (unsigned w = 0; w < n; w++) th.emplace_back([this, w]() { loop(w); });
    }
    ~runners() {
        for (unsigned w = 0; w < n; w++) {
            std::lock_guard<std::mutex> lk(rn[w].m);
            rn[w].stop = true;
            rn[w].posted++;
            rn[w].cv.notify_all();
        }
        for (size_t w = 0; w < th.size(); w++) th[w].join();
    }
    void loop(unsigned w) {
        runner &me = rn[w];
        unsigned long long seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lk(me.m);
                me.cv.wait(lk, [&]() { return me.posted != seen; });
                seen = me.posted;
                if (me.stop) return;
            }
            me.res = result{std::vector<child_grid>(), 0, cudaSuccess};
            if (w < grid) {
                state &s = g(); /* this runner's own fibers, warps and barriers */
                s.pending_limit = limit;
                run_blocks(s, grid, block, name, *body, w, n);
                me.res.children.swap(s.children);
                me.res.launches = s.child_launches;
                me.res.err = s.last_error;
                s.child_launches = 0;
                s.last_error = cudaSuccess;
            }
            std::lock_guard<std::mutex> lk(me.m);
            me.done = seen;
            me.cv.notify_all();
        }
    }
    void launch(state &h, unsigned gr, unsigned bl, const char *nm, const std::function<void()> &b) {
        unsigned w;
        grid = gr, block = bl, name = nm, body = &b, limit = h.pending_limit;
        for (w = 0; w < n; w++) {
            std::lock_guard<std::mutex> lk(rn[w].m);
            rn[w].posted++;
            rn[w].cv.notify_all();
        }
        for (w = 0; w < n; w++) { /* then what the blocks' device code launched or failed */
            std::unique_lock<std::mutex> lk(rn[w].m);
            rn[w].cv.wait(lk, [&]() { return rn[w].done == rn[w].posted; });
            h.children.insert(h.children.end(), rn[w].res.children.begin(), rn[w].res.children.end());
            h.child_launches += rn[w].res.launches;
            if (rn[w].res.err != cudaSuccess) h.last_error = rn[w].res.err;
        }
    }
};
inline runners &pool() {
    static runners r;
    return r;
}
#endif

/* runs body as one grid of grid x block threads: the blocks one after another, or in the
 * concurrent mode spread over the SPMV_EMU_THREADS block runners */
inline void run_grid(unsigned grid, unsigned block, const char *name, const std::function<void()> &body) {
    state &h = g();
#ifdef SPMV_EMU_CONCURRENT
    if (grid > 1) {
        pool().launch(h, grid, block, name, body);
        h.kernel = name;
        return;
    }
#endif
    run_blocks(h, grid, block, name, body, 0, 1);
}

/* one launch: from the host, the grid and then every child grid it (transitively) launched;
 * from device code, queued as a child grid (dynamic parallelism) */
inline void run(unsigned grid, unsigned block, const char *name, std::function<void()> body) {
    state &s = g();
    if (grid == 0 || block == 0 || block > 1024) {
        s.last_error = cudaErrorInvalidConfiguration;
        return;
    }
    if (s.in_kernel) {
        if (pending().fetch_add(1) >= s.pending_limit) {
            pending()--;
            s.last_error = cudaErrorLaunchPendingCountExceeded;
            return;
        }
        child_grid c;
        c.grid = grid;
        c.block = block;
        c.name = name;
        c.body = body;
        s.children.push_back(c);
        s.child_launches++;
        return;
    }
#ifdef SPMV_EMU_CONCURRENT
    /* launches from several host threads run one grid at a time (the runners are one pool), as
       on one stream; each host thread keeps its own state (errors, allocation table) */
    static std::mutex launch_mu;
    std::lock_guard<std::mutex> launch_lk(launch_mu);
#endif
    pending() = 0;
    run_grid(grid, block, name, body);
    for (size_t i = 0; i < s.children.size(); i++) { /* children may queue more children */
        child_grid c = s.children[i];
        run_grid(c.grid, c.block, c.name, c.body);
    }
    s.children.clear();
    pending() = 0;
}

template <typename... P> struct launch_t {
    unsigned grid, block;
    void (*k)(P...);
    const char *name;
    template <typename... A> void operator()(A... a) const {
        void (*kk)(P...) = k;
        run(grid, block, name, [=]() { kk(a...); }); /* by value: a child grid runs later */
    }
};
template <typename... P>
inline launch_t<P...> launcher(unsigned grid, unsigned block, cudaStream_t, void (*k)(P...), const char *name) {
    launch_t<P...> l;
    l.grid = grid;
    l.block = block;
    l.k = k;
    l.name = name;
    return l;
}
} // namespace spmv_emu

#define SPMV_CUDA_LAUNCH(grid, block, stream, ...)                                                               \
    spmv_emu::launcher((unsigned)(grid), (unsigned)(block), (stream), __VA_ARGS__, #__VA_ARGS__)

/* ---- built-in variables and device functions ---------------------------------------- */
#define threadIdx (spmv_emu::g().fib[spmv_emu::g().cur].tid)
#define blockIdx (spmv_emu::g().block_idx)
#define blockDim (spmv_emu::g().block_dim)
#define gridDim (spmv_emu::g().grid_dim)

inline void __syncthreads(void) {
    spmv_emu::state &s = spmv_emu::g();
    spmv_emu::fiber &f = s.fib[s.cur];
    const unsigned gen = f.bgen;
    if (!s.in_kernel) spmv_emu::die("__syncthreads outside a kernel");
    if (++s.count_b == s.nthreads) {
        s.count_b = 0;
        s.done_b = gen + 1;
        s.progress++;
    } else {
        while (s.done_b < gen + 1) spmv_emu::yield();
    }
    f.bgen = gen + 1;
}
template <typename T> inline T __shfl_sync(unsigned m, T v, int src, int width = 32) {
    spmv_emu::check_mask(m, width);
    const int l = spmv_emu::lane();
    const uint64_t *all = spmv_emu::warp_exchange(spmv_emu::to_bits(v));
    return spmv_emu::from_bits<T>(all[(l & ~(width - 1)) + (src & (width - 1))]);
}
template <typename T> inline T __shfl_up_sync(unsigned m, T v, unsigned d, int width = 32) {
    spmv_emu::check_mask(m, width);
    const int l = spmv_emu::lane();
    const uint64_t *all = spmv_emu::warp_exchange(spmv_emu::to_bits(v));
    return (l & (width - 1)) >= (int)d ? spmv_emu::from_bits<T>(all[l - (int)d]) : v;
}
template <typename T> inline T __shfl_down_sync(unsigned m, T v, unsigned d, int width = 32) {
    spmv_emu::check_mask(m, width);
    const int l = spmv_emu::lane();
    const uint64_t *all = spmv_emu::warp_exchange(spmv_emu::to_bits(v));
    return (l & (width - 1)) + (int)d < width ? spmv_emu::from_bits<T>(all[l + (int)d]) : v;
}
template <typename T> inline T __shfl_xor_sync(unsigned m, T v, int x, int width = 32) {
    spmv_emu::check_mask(m, width);
    const int l = spmv_emu::lane();
    const uint64_t *all = spmv_emu::warp_exchange(spmv_emu::to_bits(v));
    const int src = l ^ x;
    return (src & ~(width - 1)) == (l & ~(width - 1)) ? spmv_emu::from_bits<T>(all[src]) : v;
}
template <typename T> inline T atomicAdd(T *p, T v) {
#ifdef SPMV_EMU_CONCURRENT
    if constexpr (std::is_integral<T>::value) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    } else {
        typedef typename std::conditional<sizeof(T) == 8, uint64_t, uint32_t>::type U;
        static_assert(sizeof(T) == sizeof(U), "atomicAdd of a 4- or 8-byte type");
        U *q = (U *)(void *)p, cur = __atomic_load_n(q, __ATOMIC_RELAXED), nxt;
        T old;
        do { /* a compare-and-swap loop on the bits, as CUDA's own software fallback */
            memcpy(&old, &cur, sizeof old);
            const T sum = old + v;
            memcpy(&nxt, &sum, sizeof nxt);
        } while (!__atomic_compare_exchange_n(q, &cur, nxt, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        return old;
    }
#else
    T old = *p;
    *p = old + v;
    return old;
#endif
}

/* ---- runtime API (the subset the library, its tests and examples use) -------------- */
inline cudaError_t spmv_emu_set(cudaError_t e) {
    if (e != cudaSuccess) spmv_emu::g().last_error = e;
    return e;
}
inline cudaError_t cudaGetLastError(void) {
    cudaError_t e = spmv_emu::g().last_error;
    spmv_emu::g().last_error = cudaSuccess;
    return e;
}
inline cudaError_t cudaPeekAtLastError(void) { return spmv_emu::g().last_error; }
inline const char *cudaGetErrorString(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return "no error (emulated)";
    case cudaErrorMemoryAllocation: return "out of memory (emulated)";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument (emulated)";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer (emulated)";
    case cudaErrorInvalidValue: return "invalid argument (emulated)";
    default: return "error (emulated)";
    }
}
inline cudaError_t cudaGetDeviceCount(int *n) {
    *n = 1;
    return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : spmv_emu_set(cudaErrorInvalidValue); }
inline cudaError_t cudaGetDevice(int *d) {
    *d = 0;
    return cudaSuccess;
}
inline cudaError_t cudaMalloc(void **p, size_t n) {
    spmv_emu::state &s = spmv_emu::g();
    *p = NULL;
    if (s.fail_after == 0) {
        s.fail_after = -1;
        return spmv_emu_set(cudaErrorMemoryAllocation);
    }
    if (s.fail_after > 0) s.fail_after--;
    *p = malloc(n ? n : 1);
    if (!*p) return spmv_emu_set(cudaErrorMemoryAllocation);
    s.live.insert(*p);
    return cudaSuccess;
}
template <typename T> inline cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
inline cudaError_t cudaFree(void *p) {
    spmv_emu::state &s = spmv_emu::g();
    if (!p) return cudaSuccess;
    if (!s.live.erase(p)) return spmv_emu_set(cudaErrorInvalidDevicePointer);
    free(p);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *d, const void *src, size_t n, cudaMemcpyKind) {
    if (n && (!d || !src)) return spmv_emu_set(cudaErrorInvalidValue);
    if (n) memmove(d, src, n);
    return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *d, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t = 0) {
    return cudaMemcpy(d, src, n, k);
}
inline cudaError_t cudaMemset(void *d, int v, size_t n) {
    if (n && !d) return spmv_emu_set(cudaErrorInvalidValue);
    if (n) memset(d, v, n);
    return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t = 0) { return cudaMemset(d, v, n); }
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
    *s = new spmv_emu_stream_();
    return cudaSuccess;
}
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { return cudaStreamCreate(s); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned = 0) { return cudaSuccess; }
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
    delete s;
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
    *e = new spmv_emu_event_();
    return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
    delete e;
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0;
    return cudaSuccess;
}

/* test hooks */
inline size_t spmv_emu_live_blocks(void) { return spmv_emu::g().live.size(); }
inline void spmv_emu_fail_malloc_after(long k) { spmv_emu::g().fail_after = k; }
/* dynamic parallelism: child grids launched so far; the pending-launch pool's size */
inline unsigned long long spmv_emu_child_launches(void) { return spmv_emu::g().child_launches; }
inline void spmv_emu_set_pending_limit(size_t n) { spmv_emu::g().pending_limit = n; }

#endif /* SPMV_CUDA_EMU_H */
