/*
 * lh_probe.c — a host program for the preload's end-to-end tests of behaviours the toykit
 * scenarios do not show (Tests/LoopHunterEndToEndTests/IterationTests.swift). It uses toykit's exported
 * layout entry point like an application would, and the preload's public API through a weak
 * reference (so it runs without the preload too).
 *
 *   lh_probe foreign-poll        one toykit iteration in which a view is laid out 60 times with a
 *                                poll() made by this program (not by toykit) between layouts
 *   lh_probe marks N PER         N iterations marked with loophunter_iteration_mark(), PER layouts
 *                                of one view in each (no toykit event loop at all)
 *   lh_probe many-types N        N views of N distinct types, each laid out 101 times in its own
 *                                marked iteration (N distinct fingerprints)
 *   lh_probe repeat-storm MS     the same view laid out 101 times per marked iteration, one
 *                                iteration every 100 ms, for MS milliseconds
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "toykit.h"

#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

static void mark(void) {
    if (loophunter_iteration_mark) loophunter_iteration_mark();
}

static const TkViewClass probe_class = {"ProbeView", NULL};

typedef struct ForeignPoll {
    TkLoop *loop;
    TkView *view;
} ForeignPoll;

static bool foreign_poll_idle(void *data) {
    ForeignPoll *f = data;
    for (int i = 0; i < 60; i++) {
        tk_view_layout(f->view);
        poll(NULL, 0, 0); /* a wait in the middle of the iteration, like libxcb's */
    }
    tk_loop_quit(f->loop);
    return false;
}

static int foreign_poll(void) {
    ForeignPoll f = {tk_loop_new(TK_LAYOUT_UNCAPPED), tk_view_new(&probe_class, "probe")};
    tk_loop_add_idle(f.loop, foreign_poll_idle, &f);
    tk_loop_run(f.loop, 5000);
    printf("foreign-poll: done\n");
    tk_loop_free(f.loop);
    tk_view_free(f.view);
    return 0;
}

static int marks(int n, int per) {
    TkView *v = tk_view_new(&probe_class, "marked");
    for (int i = 0; i < n; i++) {
        mark();
        for (int k = 0; k < per; k++) tk_view_layout(v);
    }
    printf("marks: %d iterations of %d layouts\n", n, per);
    tk_view_free(v);
    return 0;
}

static int many_types(int n) {
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "ProbeType%d", k);
        classes[k].type_name = names[k];
        TkView *v = tk_view_new(&classes[k], "typed");
        mark();
        for (int c = 0; c < 101; c++) tk_view_layout(v);
    }
    printf("many-types: %d\n", n);
    return 0;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int repeat_storm(int ms) {
    TkView *v = tk_view_new(&probe_class, "stormy");
    double end = now_ms() + ms;
    while (now_ms() < end) {
        mark();
        for (int c = 0; c < 101; c++) tk_view_layout(v);
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    }
    printf("repeat-storm: done\n");
    tk_view_free(v);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "foreign-poll") == 0) return foreign_poll();
    if (argc == 4 && strcmp(argv[1], "marks") == 0) return marks(atoi(argv[2]), atoi(argv[3]));
    if (argc == 3 && strcmp(argv[1], "many-types") == 0) return many_types(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "repeat-storm") == 0) return repeat_storm(atoi(argv[2]));
    fprintf(stderr, "usage: lh_probe foreign-poll | marks N PER | many-types N | repeat-storm MS\n");
    return 2;
}
