/*
 * scenario_timer_dangling.c — `timer-dangling` (~1 s): a timer that outlives its target.
 *
 * A Download object (malloc'd) gets a 50 ms progress timer (timer_dangling_start: the timer's
 * data is the Download). At 400 ms the download "finishes" and timer_dangling_finish frees the
 * Download but forgets to remove the timer, which goes on firing with a dangling pointer — the C
 * form of a timer that keeps its dead target. LoopHunter reports it at the free() with both
 * stacks. (The demo's callback never dereferences its data, so the program itself stays
 * well-defined and prints the same with and without LoopHunter.)
 */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

typedef struct Download {
    char url[64];
    int percent;
} Download;

typedef struct Dangling {
    TkLoop *loop;
    TkView *main;
    unsigned ticks;
    Download *download;
} Dangling;

static Dangling *the_scenario; /* the callback's only state: it never reads its (dangling) data */

static bool timer_dangling_progress(void *data) {
    (void)data; /* a Download: freed at 400 ms, the bug */
    the_scenario->ticks++;
    return true;
}

__attribute__((noinline)) void timer_dangling_start(Dangling *s) {
    s->download = calloc(1, sizeof *s->download);
    if (s->download == NULL) abort();
    tk_loop_add_timer(s->loop, 50, timer_dangling_progress, s->download);
    DEMO_NO_TAIL_CALL();
}

/* THE BUG: the Download is freed, its progress timer is not removed. */
__attribute__((noinline)) void timer_dangling_finish(Dangling *s) {
    free(s->download);
    s->download = NULL;
    DEMO_NO_TAIL_CALL();
}

static bool timer_dangling_done(void *data) {
    timer_dangling_finish(data);
    return false;
}

static bool timer_dangling_end(void *data) {
    tk_loop_quit(((Dangling *)data)->loop);
    return false;
}

int scenario_timer_dangling(void) {
    Dangling s = {0};
    the_scenario = &s;
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_loop_add_root(s.loop, s.main);
    timer_dangling_start(&s);
    tk_loop_add_timer(s.loop, 400, timer_dangling_done, &s);
    tk_loop_add_timer(s.loop, 900, timer_dangling_end, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("timer-dangling: the progress timer fired %s after its download was freed\n", s.ticks > 8 ? "on" : "not");
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario timer-dangling: done\n");
    return 0;
}
