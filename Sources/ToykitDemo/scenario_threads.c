/*
 * scenario_threads.c — `threads`: two event loops on two threads at once.
 *   thread "ui-main":   the healthy clock UI (CAPPED) 'main-window' → 'main-toolbar' → 'main-clock',
 *                       20 ticks at 10 Hz (~2.1 s);
 *   thread "ui-worker": the layout-loop bug (UNCAPPED) 'worker-window' → "Toolbar" 'worker-toolbar'
 *                       → "StatusLabel" 'worker-status', 5 ticks.
 * The main thread (which keeps the program's name) starts both, joins them, and only then prints,
 * so the output does not depend on how the threads interleave.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"

#define THREADS_CLOCK_TICKS 20
#define THREADS_LOOP_TICKS 5

static void *threads_ui_main(void *arg) {
    pthread_setname_np(pthread_self(), "ui-main");
    ClockApp *app = arg;
    clock_app_run(app, THREADS_CLOCK_TICKS);
    return NULL;
}

static void *threads_ui_worker(void *arg) {
    pthread_setname_np(pthread_self(), "ui-worker");
    LoopBug *bug = arg;
    loop_bug_run_ticks(bug, THREADS_LOOP_TICKS);
    return NULL;
}

int scenario_threads(void) {
    ClockApp *app = clock_app_new("main-");
    LoopBug *bug = loop_bug_new(TK_LAYOUT_UNCAPPED, "worker-window", "worker-toolbar", "worker-status");
    pthread_t main_thread, worker_thread;
    int err = pthread_create(&main_thread, NULL, threads_ui_main, app);
    if (err == 0) {
        err = pthread_create(&worker_thread, NULL, threads_ui_worker, bug);
        if (err != 0) pthread_join(main_thread, NULL);
    }
    if (err != 0) {
        fprintf(stderr, "toykit-demo: threads: pthread_create: %s\n", strerror(err));
        return 1;
    }
    pthread_join(main_thread, NULL);
    pthread_join(worker_thread, NULL);

    printf("threads: ui-main clock ticks=%d text='%s'\n", app->ticks, tk_label_text(app->clock));
    tk_view_dump(app->window);
    printf("threads: ui-worker ticks=%d abandoned layout passes=%lu\n", bug->ticks, tk_loop_stats(bug->loop).abandoned);
    tk_view_dump(bug->window);
    int status = app->finished && bug->finished ? 0 : 1;
    clock_app_free(app);
    loop_bug_free(bug);
    printf("scenario threads: done\n");
    return status;
}
