/* malloc_bench.c — the cost of one malloc+free pair: `malloc_bench THREADS PAIRS` runs PAIRS
 * malloc(size)/free pairs on each of THREADS threads (sizes cycle through 16..512 bytes, as a GUI's
 * small allocations do) and prints "ns_per_pair=<x>" (wall time of the slowest thread / PAIRS).
 * Run plain, under LoopHunter and under heaptrack, side by side (scripts/bench/run.sh).
 * LH_BENCH_WAIT_FILE=PATH (scripts/bench/attach.sh): first wait in a poll() loop (10 ms timeouts,
 * the wait `loophunter attach` catches a thread at) until PATH exists, then measure as usual. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long pairs;
static void *volatile sink;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *run(void *arg) {
    double *ns = arg;
    double start = now();
    for (long i = 0; i < pairs; i++) {
        void *p = malloc(16 + (size_t)(i & 31) * 16);
        sink = p;
        free(p);
    }
    *ns = now() - start;
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    pairs = argc > 2 ? atol(argv[2]) : 20000000;
    if (threads < 1 || threads > 64 || pairs < 1) {
        fprintf(stderr, "usage: malloc_bench THREADS(1..64) PAIRS\n");
        return 2;
    }
    const char *wait_file = getenv("LH_BENCH_WAIT_FILE");
    if (wait_file != NULL && *wait_file != '\0')
        while (access(wait_file, F_OK) != 0) poll(NULL, 0, 10);
    pthread_t t[64];
    double ns[64];
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, run, &ns[i]);
    double worst = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        if (ns[i] > worst) worst = ns[i];
    }
    printf("ns_per_pair=%.3f\n", worst / (double)pairs);
    return 0;
}
