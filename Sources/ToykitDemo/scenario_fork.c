/*
 * scenario_fork.c — `fork`: the parent runs the healthy clock UI ('parent-window' → 'parent-toolbar'
 * → 'parent-clock', CAPPED) for 3 ticks at 10 Hz, then forks. The child runs the layout-loop bug
 * (UNCAPPED, 5 ticks, "Toolbar" 'child-toolbar' → "StatusLabel" 'child-status') and ends with
 * exit(0) — not _exit — so atexit handlers and destructors run in the child too. The parent waits
 * for it before printing anything more, so the output order is fixed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "demo.h"

#define FORK_CLOCK_TICKS 3
#define FORK_LOOP_TICKS 5

static void fork_child(ClockApp *inherited) {
    LoopBug *bug = loop_bug_new(TK_LAYOUT_UNCAPPED, "child-window", "child-toolbar", "child-status");
    loop_bug_run_ticks(bug, FORK_LOOP_TICKS);
    printf("fork: child ticks=%d abandoned layout passes=%lu\n", bug->ticks, tk_loop_stats(bug->loop).abandoned);
    tk_view_dump(bug->window);
    int status = bug->finished ? 0 : 1;
    loop_bug_free(bug);
    clock_app_free(inherited); /* the child's copy of the parent's UI */
    exit(status);
}

int scenario_fork(void) {
    ClockApp *app = clock_app_new("parent-");
    clock_app_run(app, FORK_CLOCK_TICKS);
    printf("fork: parent clock ticks=%d text='%s'\n", app->ticks, tk_label_text(app->clock));
    tk_view_dump(app->window);

    fflush(stdout); /* or the child would print the parent's buffered lines again */
    pid_t pid = fork();
    if (pid < 0) {
        perror("toykit-demo: fork");
        clock_app_free(app);
        return 1;
    }
    if (pid == 0) fork_child(app); /* does not return */

    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno == EINTR) continue;
        perror("toykit-demo: waitpid");
        clock_app_free(app);
        return 1;
    }
    int status = app->finished ? 0 : 1;
    if (WIFEXITED(wstatus)) {
        printf("fork: child exited %d\n", WEXITSTATUS(wstatus));
        if (WEXITSTATUS(wstatus) != 0) status = 1;
    } else {
        printf("fork: child died of signal %d\n", WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
        status = 1;
    }
    clock_app_free(app);
    printf("scenario fork: done\n");
    return status;
}
