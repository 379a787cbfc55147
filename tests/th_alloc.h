/* The tests' counting allocator: th_alloc_fail_at = k makes the k-th allocation fail (the
 * counters are atomic: the thread tests allocate from several threads at once). It becomes
 * SPMV_ALIGNED_ALLOC / SPMV_FREE unless the program defined them or TH_NO_ALLOC_HOOKS.
 * Three ways to include it:
 *   default       static, in the test program itself (all-in-one builds)
 *   TH_LINKED     declarations: the program links a flavour's implementation unit, whose
 *                 allocations must be counted by the same counters (build.ninja, tests/impl.c)
 *   TH_ALLOC_IMPL the definitions with external linkage (tests/impl.c) */
#ifndef TH_ALLOC_H
#define TH_ALLOC_H
#include <stdlib.h>
#if defined(TH_LINKED) || defined(TH_ALLOC_IMPL)
#ifdef __cplusplus
#define TH_LINKAGE extern "C"
#else
#define TH_LINKAGE extern
#endif
TH_LINKAGE long th_alloc_count, th_alloc_fail_at, th_alloc_live;
TH_LINKAGE void *th_alloc(size_t align, size_t size);
TH_LINKAGE void th_free(void *p);
#define TH_VAR
#define TH_FN
#else
#define TH_VAR static
#define TH_FN static inline
#endif
#if !defined(TH_LINKED)
TH_VAR long th_alloc_count, th_alloc_fail_at = -1, th_alloc_live;
TH_FN void *th_alloc(size_t align, size_t size) {
    void *p;
    if (__atomic_add_fetch(&th_alloc_count, 1, __ATOMIC_RELAXED) == th_alloc_fail_at) return NULL;
    p = aligned_alloc(align, size);
    if (p) __atomic_add_fetch(&th_alloc_live, 1, __ATOMIC_RELAXED);
    return p;
}
TH_FN void th_free(void *p) {
    if (p) __atomic_sub_fetch(&th_alloc_live, 1, __ATOMIC_RELAXED);
    free(p);
}
#endif
#undef TH_VAR
#undef TH_FN
#if !defined(TH_NO_ALLOC_HOOKS) && !defined(SPMV_ALIGNED_ALLOC) && !defined(SPMV_FREE)
#define SPMV_ALIGNED_ALLOC(a, s) th_alloc((a), (s))
#define SPMV_FREE(p) th_free(p)
#endif
#endif /* TH_ALLOC_H */
