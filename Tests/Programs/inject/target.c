/*
 * target.c — the program scripts/test-inject.sh injects into: an event loop and two other threads.
 *
 *   target SECONDS [--busy-main | --spin-poll]
 *
 * Main thread: a poll() loop (50 ms timeout on a pipe nobody writes) printing "tick N" for each
 * second elapsed; with --busy-main it never waits (it spins, reading the vDSO clock), so an
 * injector must use another thread; with --spin-poll it spins 5 ms between polls of timeout 0,
 * so it is never blocked in a wait: an injector must catch it entering one (syscall-entry stop).
 * Thread 2 mallocs and frees flat out, checking each block's pattern before freeing it. Thread 3
 * is blocked in epoll_wait forever (on an eventfd nobody writes). At the end: one line with what
 * would differ if an injection disturbed the program (poll errors, epoll_wait returns, corrupted
 * blocks) and a checksum, exit status 0. The output does not depend on timing: a run never
 * injected prints the same.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop_malloc;           /* relaxed: a flag, nothing published through it */
static atomic_long corruptions;          /* relaxed: counters read after join / at exit */
static atomic_long epoll_returns, epoll_eintr;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *malloc_loop(void *arg) {
    (void)arg;
    enum { RING = 64 };
    unsigned char *blocks[RING] = {0};
    size_t sizes[RING] = {0};
    uint32_t x = 2463534242u;
    for (unsigned long n = 0; !atomic_load_explicit(&stop_malloc, memory_order_relaxed); n++) {
        unsigned slot = (unsigned)(n % RING);
        if (blocks[slot]) {
            unsigned char want = (unsigned char)(sizes[slot] * 31u);
            for (size_t i = 0; i < sizes[slot]; i++)
                if (blocks[slot][i] != want) {
                    atomic_fetch_add_explicit(&corruptions, 1, memory_order_relaxed);
                    break;
                }
            free(blocks[slot]);
        }
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        sizes[slot] = 16 + x % 4080;
        blocks[slot] = malloc(sizes[slot]);
        if (!blocks[slot]) abort();
        memset(blocks[slot], (unsigned char)(sizes[slot] * 31u), sizes[slot]);
    }
    for (unsigned i = 0; i < RING; i++) free(blocks[i]);
    return NULL;
}

static void *epoll_loop(void *arg) {
    (void)arg;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int ev = eventfd(0, EFD_CLOEXEC);
    struct epoll_event e = {.events = EPOLLIN, .data.fd = ev};
    epoll_ctl(ep, EPOLL_CTL_ADD, ev, &e);
    for (;;) {
        struct epoll_event got;
        int n = epoll_wait(ep, &got, 1, -1);
        atomic_fetch_add_explicit(&epoll_returns, 1, memory_order_relaxed);
        if (n < 0 && errno == EINTR) atomic_fetch_add_explicit(&epoll_eintr, 1, memory_order_relaxed);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: target SECONDS [--busy-main | --spin-poll]\n");
        return 2;
    }
    int seconds = atoi(argv[1]);
    int busy_main = argc > 2 && !strcmp(argv[2], "--busy-main");
    int spin_poll = argc > 2 && !strcmp(argv[2], "--spin-poll");
    setvbuf(stdout, NULL, _IOLBF, 0);
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pthread_t m, e;
    pthread_create(&m, NULL, malloc_loop, NULL);
    pthread_create(&e, NULL, epoll_loop, NULL);
    double start = now();
    int ticks = 0;
    long poll_errors = 0;
    uint64_t sum = 1469598103934665603ULL;
    while (ticks < seconds) {
        if (busy_main) {
            volatile unsigned spin = 0;
            while (spin < 100000) spin++;
        } else {
            if (spin_poll)
                for (double until = now() + 0.005; now() < until;) {}
            struct pollfd p = {.fd = fds[0], .events = POLLIN};
            int r = poll(&p, 1, spin_poll ? 0 : 50);
            if (r != 0) poll_errors++;
        }
        while (ticks < seconds && now() - start >= ticks + 1) {
            ticks++;
            char line[32];
            snprintf(line, sizeof line, "tick %d", ticks);
            for (const char *c = line; *c; c++) sum = (sum ^ (unsigned char)*c) * 1099511628211ULL;
            printf("%s\n", line);
        }
    }
    atomic_store_explicit(&stop_malloc, 1, memory_order_relaxed);
    pthread_join(m, NULL);
    long c = atomic_load(&corruptions), er = atomic_load(&epoll_returns), ei = atomic_load(&epoll_eintr);
    sum = (sum ^ (uint64_t)poll_errors) * 1099511628211ULL;
    sum = (sum ^ (uint64_t)c) * 1099511628211ULL;
    sum = (sum ^ (uint64_t)er) * 1099511628211ULL;
    printf("final: ticks=%d poll_errors=%ld epoll_returns=%ld epoll_eintr=%ld corruptions=%ld checksum=%016llx\n",
           ticks, poll_errors, er, ei, c, (unsigned long long)sum);
    return 0;
}
