/*
 * lh_leave.c — a host program for the summary's end-to-end tests
 * (Tests/LoopHunterEndToEndTests/SummaryStateTests.swift): a toykit window whose label changes on
 * a 20 ms timer (so every iteration lays it out), left after MS milliseconds in the chosen way.
 *
 *   lh-leave _exit MS        _exit(7)
 *   lh-leave _Exit MS        _Exit(7)
 *   lh-leave exit MS         exit(0)
 *   lh-leave exec MS         execv("/bin/true", ...) (true exits 0)
 *   lh-leave execl MS        execl("/bin/true", "true", NULL)
 *   lh-leave exec-fail MS    execv() of a path that does not exist, prints "exec failed", then runs on
 *                            until killed
 *   lh-leave vfork MS        a vfork() child that calls _exit(0) at once, then MS more of the loop,
 *                            then exit(0)
 *   lh-leave run MS          runs until killed (prints "running" after MS)
 * Prints one line per step on stdout (flushed).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "toykit.h"

static TkLoop *loop;
static TkView *label;
static const char *mode;
static int ticks;

static bool tick(void *data) {
    (void)data;
    char text[32];
    snprintf(text, sizeof text, "tick %d", ++ticks);
    tk_label_set_text(label, text);
    return true;
}

static bool leave(void *data) {
    (void)data;
    printf("leaving by %s after %d ticks\n", mode, ticks);
    fflush(stdout);
    if (strcmp(mode, "_exit") == 0) _exit(7);
    if (strcmp(mode, "_Exit") == 0) _Exit(7);
    if (strcmp(mode, "exit") == 0) exit(0);
    if (strcmp(mode, "exec") == 0) {
        char *argv[] = {"true", NULL};
        execv("/bin/true", argv);
    }
    if (strcmp(mode, "execl") == 0) execl("/bin/true", "true", (char *)NULL);
    if (strcmp(mode, "exec-fail") == 0) {
        char *argv[] = {"missing", NULL};
        execv("/nonexistent/lh-leave-missing", argv);
        printf("exec failed\n");
        fflush(stdout);
        return false; /* runs on */
    }
    if (strcmp(mode, "vfork") == 0) {
        pid_t child = vfork();
        if (child == 0) _exit(0);
        printf("vfork child %d done\n", (int)child);
        fflush(stdout);
        return false; /* the loop quits at its own time */
    }
    if (strcmp(mode, "run") == 0) {
        printf("running\n");
        fflush(stdout);
        return false;
    }
    return false;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: lh-leave _exit|_Exit|exit|exec|execl|exec-fail|vfork|run MS\n");
        return 2;
    }
    mode = argv[1];
    int ms = atoi(argv[2]);
    loop = tk_loop_new(TK_LAYOUT_UNCAPPED);
    TkView *window = tk_view_new(&tk_window_class, "main");
    label = tk_view_new(&tk_label_class, "status");
    tk_view_add_child(window, label);
    tk_loop_add_root(loop, window);
    tk_loop_add_timer(loop, 20, tick, NULL);
    tk_loop_add_timer(loop, ms, leave, NULL);
    bool forever = strcmp(mode, "exec-fail") == 0 || strcmp(mode, "run") == 0;
    tk_loop_run(loop, forever ? 0 : 2 * ms);
    printf("done after %d ticks\n", ticks);
    return 0;
}
