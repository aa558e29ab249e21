/*
 * watch_cost.c — what a LoopHunter watchpoint (runtime/lh_watch.c) costs on this machine: the same
 * perf_event_open(2) breakpoint the preload arms on a suspect widget's size (read or write, 8
 * bytes, every access sampled into a ring of instruction addresses, no signal), timed here on a
 * word of this program.
 *
 *   cc -O1 -o watch_cost scripts/bench/watch_cost.c && ./watch_cost [ACCESSES]   (default 200000)
 *
 * Prints the time of one load of the word unwatched and watched (each watched load is a debug
 * trap), their ratio, and the time to arm a watch (perf_event_open, mmap of the ring, close) and to
 * give it back (munmap), each the median of 9. Exit 77 when the kernel refuses perf_event_open
 * (a container's seccomp profile, kernel.perf_event_paranoid > 2): nothing can be watched there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long word[2] __attribute__((aligned(8)));

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static size_t ring_bytes(void) { return 3 * (size_t)sysconf(_SC_PAGESIZE); }

/* The preload's watch: returns the ring (the descriptor closed), or NULL with errno. */
static void *arm(void) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_BREAKPOINT;
    a.size = sizeof a;
    a.bp_type = HW_BREAKPOINT_RW;
    a.bp_addr = (uintptr_t)&word[0];
    a.bp_len = HW_BREAKPOINT_LEN_8;
    a.sample_period = 1;
    a.sample_type = PERF_SAMPLE_IP;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return NULL;
    void *ring = mmap(NULL, ring_bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    errno = err;
    return ring == MAP_FAILED ? NULL : ring;
}

static double loads(long n, struct perf_event_mmap_page *ring) {
    long sum = 0;
    double t0 = now();
    for (long i = 0; i < n; i++) {
        sum += word[0];
        if (ring != NULL && (i & 127) == 0) /* emptied as the preload does at each iteration */
            ring->data_tail = __atomic_load_n(&ring->data_head, __ATOMIC_ACQUIRE);
    }
    double t = now() - t0;
    word[1] = sum;
    return t / (double)n;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 200000;
    if (n <= 0) {
        fprintf(stderr, "watch_cost: ACCESSES must be a positive number, not '%s'\n", argv[1]);
        return 2;
    }
    double first_arm = now();
    void *ring = arm();
    first_arm = now() - first_arm;
    if (ring == NULL) {
        printf("watch_cost: perf_event_open refused (%s): nothing can be watched here\n", strerror(errno));
        return 77;
    }
    munmap(ring, ring_bytes());
    double arms[9], backs[9];
    for (int i = 0; i < 9; i++) {
        double t0 = now();
        ring = arm();
        arms[i] = now() - t0;
        if (ring == NULL) return 1;
        t0 = now();
        munmap(ring, ring_bytes());
        backs[i] = now() - t0;
    }
    qsort(arms, 9, sizeof arms[0], cmp);
    qsort(backs, 9, sizeof backs[0], cmp);
    double plain = loads(n, NULL);
    ring = arm();
    if (ring == NULL) return 1;
    double watched = loads(n, ring);
    munmap(ring, ring_bytes());
    printf("load unwatched %.1f ns, watched %.1f ns (x%.0f); arm %.1f us (this process's first %.1f us), give back %.1f us\n",
           plain * 1e9, watched * 1e9, watched / plain, arms[4] * 1e6, first_arm * 1e6, backs[4] * 1e6);
    return 0;
}
