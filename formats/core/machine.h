/* machine — what the library knows about the CPU it runs on, probed once: the brand string,
 * the logical CPUs, the last-level cache one core sees, and a one-line description that keys
 * the calibration cache (formats/calib.h). ISA support is the compiler's own probe
 * (spmv_isa_supported, formats/core/core.h: __builtin_cpu_supports, initialised by the runtime
 * before main).
 *
 * The last-level cache: the deterministic cache leaf of cpuid (Intel 4, AMD 0x8000001D: ways
 * * partitions * line * sets of the highest data or unified level), else sysconf, else 32
 * MiB. cpuid first: glibc's sysconf can report a whole package's L3 where a core shares a
 * part of it (docs/PERFORMANCE.md, "The machine probe").
 *
 * Probed once per process (per translation unit in the header-only build): a cpuid leaf traps
 * into the hypervisor on a VM, tens of microseconds. The first caller probes and publishes with
 * a release store; a caller that finds the probe under way waits for it (atomic builtins of
 * gcc, clang and nvcc's host compiler: safe between threads, in C and in C++). */
#ifndef SPMV_CORE_MACHINE_H
#define SPMV_CORE_MACHINE_H
#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__unix) || defined(__APPLE__)
#include <unistd.h>
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
#include <cpuid.h>
#define SPMV__HAVE_CPUID 1
#else
#define SPMV__HAVE_CPUID 0
#endif

typedef struct spmv_machine {
    char brand[49];  /* cpuid's brand string, trimmed ("unknown CPU" without one) */
    long cpus;       /* logical CPUs online */
    long llc_bytes;  /* the last-level cache one core sees */
    char desc[128];  /* "brand, N CPUs, LLC K KiB": the calibration cache's machine key */
} spmv_machine;

#if SPMV__HAVE_CPUID
/* the highest data or unified cache level of cpuid's deterministic leaf; 0 when there is none */
static inline long spmv__machine_llc_cpuid(void) {
    unsigned a, b, c, d, leaf = 4, i, best_lvl = 0;
    long best = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return 0;
    if (b == 0x68747541u || b == 0x6f677948u) { /* AuthenticAMD, HygonGenuine */
        if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x8000001Du) return 0;
        leaf = 0x8000001Du;
    } else if (a < 4) return 0;
    for (i = 0; i < 16; i++) {
        unsigned type, lvl;
        long sz;
        __cpuid_count(leaf, i, a, b, c, d);
        type = a & 31u;
        lvl = (a >> 5) & 7u;
        if (type == 0) break;
        if (type == 2) continue; /* instruction cache */
        sz = (long)((b >> 22) + 1) * (long)(((b >> 12) & 1023u) + 1) * (long)((b & 4095u) + 1) * ((long)c + 1);
        if (lvl > best_lvl || (lvl == best_lvl && sz > best)) best_lvl = lvl, best = sz;
    }
    return best;
}
/* cpuid's brand string into brand[49] (left as it is without one) */
static inline void spmv__machine_brand(char *brand) {
    unsigned r[12], i;
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000004u) return;
    for (i = 0; i < 3; i++) __cpuid(0x80000002u + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
    memcpy(brand, r, 48);
    brand[48] = 0;
}
#else
static inline long spmv__machine_llc_cpuid(void) { return 0; }
static inline void spmv__machine_brand(char *brand) { (void)brand; }
#endif

/* the probe itself: brand trimmed (spaces squeezed; '|' and control characters, the
 * calibration file's separators, dropped), CPUs, last-level cache, description */
static inline void spmv__machine_probe(spmv_machine *m) {
    char raw[49] = "unknown CPU";
    size_t i, k = 0;
    memset(m, 0, sizeof *m);
    spmv__machine_brand(raw);
    for (i = 0; raw[i] && k + 1 < sizeof m->brand; i++) {
        const char ch = raw[i];
        if ((unsigned char)ch < 32 || ch == '|' || ch == 127) continue;
        if (ch == ' ' && (k == 0 || m->brand[k - 1] == ' ')) continue;
        m->brand[k++] = ch;
    }
    while (k > 0 && m->brand[k - 1] == ' ') k--;
    m->brand[k] = 0;
    if (!k) snprintf(m->brand, sizeof m->brand, "unknown CPU");
    m->cpus = 1;
#ifdef _SC_NPROCESSORS_ONLN
    m->cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (m->cpus < 1) m->cpus = 1;
#endif
    m->llc_bytes = spmv__machine_llc_cpuid();
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (m->llc_bytes <= 0) m->llc_bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    if (m->llc_bytes <= 0) m->llc_bytes = 32L << 20;
    snprintf(m->desc, sizeof m->desc, "%s, %ld CPUs, LLC %ld KiB", m->brand, m->cpus, m->llc_bytes / 1024);
}

/* This machine, probed at the first call (0 none, 1 under way, 2 ready). */
static inline const spmv_machine *spmv_machine_get(void) {
    static spmv_machine cached;
    static int state = 0;
    int expect = 0;
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2) return &cached;
    if (__atomic_compare_exchange_n(&state, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        spmv__machine_probe(&cached);
        __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2) {
        }
    }
    return &cached;
}
#endif
