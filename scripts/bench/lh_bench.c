/*
 * lh_bench.c — the host program of LoopHunter's benchmarks (scripts/bench/run.sh). It is linked to
 * libtoykit.so and calls tk_view_layout() through the PLT, exactly like toykit's own layout pass,
 * and measures itself with CLOCK_MONOTONIC. Run it plain, under the preload, and under peers; the
 * driver compares the numbers it prints.
 *
 *   lh_bench layout repeat N    one view laid out 40 times per iteration (the counting path)
 *   lh_bench layout frame N     1000 views laid out once each per iteration, as a toolkit lays out
 *                               every widget once per frame: every call is the object's first of
 *                               the iteration (the roll path: detector state, the view's size)
 *   lh_bench breach unique N    N iterations, each with a new view of a new type laid out 101
 *                               times: every 101st call writes a report (the whole breach path)
 *   lh_bench breach same N      the same with one type: every breach after the first is throttled
 *                               (capture, resolve, fingerprint, suppressed)
 *
 * Iterations are marked with loophunter_iteration_mark() when the preload is there (a weak
 * reference: without the preload the call is skipped, so the plain run measures the bare call).
 * Output: one line "ns_per_call=<x>" or "breach_us p50=<x> p99=<x> n=<n>".
 *
 * LH_BENCH_WAIT_FILE=PATH (scripts/bench/attach.sh): before anything else, wait in a poll() loop
 * (10 ms timeouts, the event-loop wait `loophunter attach` catches a thread at) until PATH exists,
 * then run as usual. The driver attaches meanwhile and creates PATH once the command said
 * "attached". A library loaded that way is not bound to the weak reference above, so after the
 * wait loophunter_iteration_mark is looked up in a loaded libloophunter.so (dlopen RTLD_NOLOAD).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "toykit.h"

#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* loophunter_iteration_mark of a libloophunter.so loaded after start-up (LH_BENCH_WAIT_FILE). */
static void (*attached_mark)(void);

static void mark(void) {
    if (loophunter_iteration_mark) loophunter_iteration_mark();
    else if (attached_mark) attached_mark();
}

static int find_loophunter(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    const char *slash = strrchr(info->dlpi_name, '/');
    if (strcmp(slash ? slash + 1 : info->dlpi_name, "libloophunter.so") != 0) return 0;
    void *handle = dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD);
    if (handle != NULL) *(void **)data = dlsym(handle, "loophunter_iteration_mark");
    return 1;
}

static void wait_for_file(void) {
    const char *path = getenv("LH_BENCH_WAIT_FILE");
    if (path == NULL || *path == '\0') return;
    while (access(path, F_OK) != 0) poll(NULL, 0, 10);
    void *found = NULL;
    if (!loophunter_iteration_mark) dl_iterate_phdr(find_loophunter, &found);
    attached_mark = (void (*)(void))found;
}

static const TkViewClass leaf_class = {"BenchLeaf", NULL};

static int layout(const char *pattern, long calls) {
    bool frame = strcmp(pattern, "frame") == 0;
    int views = frame ? 1000 : 1;
    int per_view = frame ? 1 : 40;
    TkView **v = calloc((size_t)views, sizeof *v);
    for (int i = 0; i < views; i++) {
        v[i] = tk_view_new(&leaf_class, "leaf");
        tk_view_set_frame(v[i], (TkRect){0, 0, 10 + i % 7, 10});
    }
    long per_iteration = (long)views * per_view, iterations = calls / per_iteration;
    /* Warm up: table slots claimed, pages touched, unwinder primed. */
    for (int w = 0; w < 3; w++) {
        mark();
        for (int r = 0; r < per_view; r++)
            for (int i = 0; i < views; i++) tk_view_layout(v[i]);
    }
    double start = now_ns();
    for (long it = 0; it < iterations; it++) {
        mark();
        for (int r = 0; r < per_view; r++)
            for (int i = 0; i < views; i++) tk_view_layout(v[i]);
    }
    double elapsed = now_ns() - start;
    printf("ns_per_call=%.3f calls=%ld\n", elapsed / (double)(iterations * per_iteration), iterations * per_iteration);
    return 0;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int breach(const char *mode, int n) {
    bool unique = strcmp(mode, "unique") == 0;
    double *samples = calloc((size_t)n, sizeof *samples);
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "BenchType%d", unique ? k : 0);
        classes[k].type_name = names[k];
        TkView *view = tk_view_new(&classes[k], "victim");
        mark();
        for (int c = 0; c < 100; c++) tk_view_layout(view);
        /* The 101st layout crosses the default threshold of 100. */
        double t0 = now_ns();
        tk_view_layout(view);
        double t1 = now_ns();
        tk_view_layout(view); /* a plain call after it, for the baseline below */
        double t2 = now_ns();
        samples[k] = ((t1 - t0) - (t2 - t1)) / 1000.0;
        /* Views are not freed: a new object at a reused address must not inherit counts. */
    }
    qsort(samples, (size_t)n, sizeof *samples, compare);
    printf("breach_us p50=%.1f p99=%.1f max=%.1f n=%d\n", samples[n / 2], samples[(n * 99) / 100],
           samples[n - 1], n);
    return 0;
}

int main(int argc, char **argv) {
    wait_for_file();
    if (argc == 4 && strcmp(argv[1], "layout") == 0) return layout(argv[2], atol(argv[3]));
    if (argc == 4 && strcmp(argv[1], "breach") == 0) return breach(argv[2], atoi(argv[3]));
    fprintf(stderr, "usage: lh_bench layout repeat|frame CALLS | lh_bench breach unique|same N\n");
    return 2;
}
