/*
 * lh_burst.c — a host program for the report writer's end-to-end tests
 * (Tests/LoopHunterEndToEndTests/ReportWriterTests.swift): N event-loop iterations back to back,
 * each laying out a view of a new type 101 times (over the default threshold of 100), so that each
 * writes a layout-storm report of its own, as fast as the breach path allows; then it leaves in
 * the chosen way, at once, while reports may still be queued for LoopHunter's writer thread.
 *
 *   lh-burst exit N     exit(0)
 *   lh-burst _exit N    _exit(3)
 *   lh-burst exec N     execv("/bin/true") (true exits 0)
 *   lh-burst fork N     fork() right after the burst; the child makes N reports of its own
 *                       ("Child" types) and leaves with _exit(0); the parent waits for it and exit(0)s
 *   lh-burst fds N      after each report, as a program that manages its descriptors would: opens
 *                       /dev/null and checks it got the lowest free number (the one it got before
 *                       the burst), counts /proc/self/fd, and closes every descriptor above 2
 *                       (close_range, as closefrom); prints "fds moved=M counted=C" (how many
 *                       times the number or the count differed from the first), then exit(0)
 *
 * Iterations are marked with loophunter_iteration_mark() (a weak reference: skipped without the
 * preload). Prints "burst N" and, for fork, "child N" on stdout.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "descriptors.h"
#include "toykit.h"

#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

/* What `fds` mode checks after each report (see the top); `moved` and `counted` count differences. */
static int lowest = -1, first_count = -1, moved, counted;

static void check_descriptors(void) {
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd != lowest) moved++;
    if (fd >= 0) close(fd);
    if (open_descriptors() != first_count) counted++;
    syscall(SYS_close_range, 3u, ~0u, 0u);
}

static void burst(const char *prefix, int n, bool checking) {
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    if (classes == NULL || names == NULL) exit(2);
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "%s%d", prefix, k);
        classes[k].type_name = names[k];
        TkView *view = tk_view_new(&classes[k], "burst");
        if (loophunter_iteration_mark) loophunter_iteration_mark();
        for (int c = 0; c < 101; c++) tk_view_layout(view);
        if (checking) check_descriptors();
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: lh-burst exit|_exit|exec|fork|fds N\n");
        return 2;
    }
    const char *mode = argv[1];
    int n = atoi(argv[2]);
    bool checking = strcmp(mode, "fds") == 0;
    if (checking) {
        syscall(SYS_close_range, 3u, ~0u, 0u); /* what the parent left open does not count */
        lowest = open("/dev/null", O_RDONLY | O_CLOEXEC);
        close(lowest);
        first_count = open_descriptors();
    }
    burst("Burst", n, checking);
    printf("burst %d\n", n);
    fflush(stdout);
    if (checking) {
        printf("fds moved=%d counted=%d\n", moved, counted);
        exit(0);
    }
    if (strcmp(mode, "exit") == 0) exit(0);
    if (strcmp(mode, "_exit") == 0) _exit(3);
    if (strcmp(mode, "exec") == 0) {
        char *args[] = {"true", NULL};
        execv("/bin/true", args);
        perror("execv");
        return 1;
    }
    if (strcmp(mode, "fork") == 0) {
        pid_t child = fork();
        if (child < 0) return 1;
        if (child == 0) {
            burst("Child", n, false);
            printf("child %d\n", n);
            fflush(stdout);
            _exit(0);
        }
        int status = 0;
        if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
        exit(0);
    }
    fprintf(stderr, "lh-burst: unknown mode %s\n", mode);
    return 2;
}
