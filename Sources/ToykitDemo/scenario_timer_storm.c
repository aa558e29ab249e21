/*
 * scenario_timer_storm.c — `timer-storm` (~2 s): timers created faster than they are destroyed.
 *
 * A list refreshes every 16 ms (timer_storm_refresh) and, for each of its 10 visible rows, adds
 * a 10 s "tooltip" timer (timer_storm_arm_tooltips) without removing the one the row had: 10
 * more live timers per refresh, ~600 after 60 refreshes (LoopHunter's defaults: 500 added over 60
 * growing iterations make a timer-storm). At the end one refresh queues 300 zero-delay row
 * updates sharing one callback (timer_storm_update_row), which all fire in the next iteration:
 * 300 one-shot sources that each fire once, which is no storm (GLib's GTask completions look the
 * same). It also starts a "sync" idle (timer_storm_poll_sync) that returns true again and again,
 * 300 times, so the loop never sleeps while it runs (the default limit is 200 fires of one source
 * in a row with the loop never sleeping): a second timer-storm, named by that idle.
 */
#include <stdio.h>

#include "demo.h"

#define ROWS 10
#define REFRESHES 90
#define BURST 300
#define SPINS 300

typedef struct TimerStorm {
    TkLoop *loop;
    TkView *main, *list;
    unsigned refreshes, tooltips, row_updates, sync_polls;
} TimerStorm;

static bool timer_storm_tooltip(void *data) {
    ((TimerStorm *)data)->tooltips++;
    return false;
}

__attribute__((noinline)) bool timer_storm_update_row(void *data) {
    ((TimerStorm *)data)->row_updates++;
    return false;
}

/* THE SECOND BUG: an idle that polls for a condition instead of waiting for it: it fires again in
 * every iteration, and the loop never sleeps while it runs. */
__attribute__((noinline)) bool timer_storm_poll_sync(void *data) {
    TimerStorm *s = data;
    return ++s->sync_polls < SPINS;
}

/* THE FIRST BUG: a new tooltip timer per row per refresh; the old one is never removed. */
__attribute__((noinline)) void timer_storm_arm_tooltips(TimerStorm *s) {
    for (int row = 0; row < ROWS; row++) tk_loop_add_timer(s->loop, 10000, timer_storm_tooltip, s);
    DEMO_NO_TAIL_CALL();
}

/* Not a bug: one zero-delay timer per row update, each firing once. */
__attribute__((noinline)) void timer_storm_queue_updates(TimerStorm *s) {
    for (int i = 0; i < BURST; i++) tk_loop_add_timer(s->loop, 0, timer_storm_update_row, s);
    DEMO_NO_TAIL_CALL();
}

__attribute__((noinline)) void timer_storm_start_sync(TimerStorm *s) {
    tk_loop_add_idle(s->loop, timer_storm_poll_sync, s);
    DEMO_NO_TAIL_CALL();
}

static bool timer_storm_finish(void *data) {
    tk_loop_quit(((TimerStorm *)data)->loop);
    return false;
}

static bool timer_storm_refresh(void *data) {
    TimerStorm *s = data;
    s->refreshes++;
    tk_view_set_needs_layout(s->list);
    if (s->refreshes < REFRESHES) {
        timer_storm_arm_tooltips(s);
        return true;
    }
    timer_storm_queue_updates(s);
    timer_storm_start_sync(s);
    tk_loop_add_timer(s->loop, 300, timer_storm_finish, s);
    return false;
}

int scenario_timer_storm(void) {
    TimerStorm s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    s.list = tk_view_new(&tk_box_class, "list");
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_view_add_child(s.main, s.list);
    tk_loop_add_root(s.loop, s.main);
    tk_loop_add_timer(s.loop, 16, timer_storm_refresh, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("timer-storm: %u refreshes, %u row updates, %u sync polls, %u tooltips shown\n", s.refreshes, s.row_updates,
           s.sync_polls, s.tooltips);
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario timer-storm: done\n");
    return s.refreshes == REFRESHES && s.row_updates == BURST && s.sync_polls == SPINS ? 0 : 1;
}
