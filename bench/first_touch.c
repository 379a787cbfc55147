/* first_touch — what writing into fresh memory costs on this machine, the cost behind most
 * of a format conversion (formats/core/core.h, "huge pages"; README, "Huge pages for the
 * large arrays").
 *
 *   ninja build/first_touch && build/first_touch [MiB] [repeats]
 *
 * Maps MiB of anonymous memory (default 300), writes every byte once, unmaps it, and prints
 * the rate; with 4 KiB pages and with MADV_HUGEPAGE (2 MiB pages where the kernel has them),
 * each right after the previous unmap and after a pause of 0.5 s and 3 s. On a VM whose
 * balloon reports free memory to the host (virtio-balloon free page reporting, Linux: blocks
 * of 2 MiB free for about two seconds), memory freed and left alone comes back through the
 * host and costs far more to touch than memory the guest still holds. Linux only. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
    const double mib = argc > 1 ? atof(argv[1]) : 300;
    const int reps = argc > 2 ? atoi(argv[2]) : 4;
    const double pauses[] = {0, 0.5, 3};
    const size_t sz = (size_t)(mib * 1048576.0);
    int huge, p, k;
    if (!(mib >= 1 && mib <= 65536) || reps < 1 || reps > 100) {
        fprintf(stderr, "usage: first_touch [MiB 1-65536] [repeats 1-100]\n");
        return 2;
    }
    printf("pages,pause_s,repeat,seconds,GB_per_s\n");
    for (huge = 0; huge < 2; huge++)
        for (p = 0; p < 3; p++)
            for (k = 0; k < reps; k++) {
                char *m = (char *)mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                double t;
                if (m == MAP_FAILED) {
                    perror("first_touch: mmap");
                    return 1;
                }
#ifdef MADV_HUGEPAGE
                if (huge) madvise(m, sz, MADV_HUGEPAGE);
#endif
                t = now();
                memset(m, k + 1, sz);
                t = now() - t;
                printf("%s,%.1f,%d,%.4f,%.2f\n", huge ? "2M-advised" : "4K", pauses[p], k, t, (double)sz / t / 1e9);
                fflush(stdout);
                munmap(m, sz);
                usleep((useconds_t)(pauses[p] * 1e6));
            }
    return 0;
}
