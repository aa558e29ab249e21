/*
 * scenario_timer_storm.c — `timer-storm` (~2 s): timers created faster than they are destroyed.
 *
 * A list refreshes every 16 ms (timer_storm_refresh) and, for each of its 10 visible rows, adds
 * a 10 s "tooltip" timer (timer_storm_arm_tooltips) without removing the one the row had: 10
 * more live timers per refresh, ~600 after 60 refreshes (LoopHunter's defaults: 500 added over 60
 * growing iterations make a timer-storm). At the end one refresh queues 300 zero-delay row
 * updates sharing one callback (timer_storm_update_row), which all fire in the next iteration
 * (the default limit is 200 fires of one callback in one iteration): a second timer-storm.
 */
#include <stdio.h>

#include "demo.h"

#define ROWS 10
#define REFRESHES 90
#define BURST 300

typedef struct TimerStorm {
    TkLoop *loop;
    TkView *main, *list;
    unsigned refreshes, tooltips, row_updates;
} TimerStorm;

static bool timer_storm_tooltip(void *data) {
    ((TimerStorm *)data)->tooltips++;
    return false;
}

__attribute__((noinline)) bool timer_storm_update_row(void *data) {
    ((TimerStorm *)data)->row_updates++;
    return false;
}

/* THE FIRST BUG: a new tooltip timer per row per refresh; the old one is never removed. */
__attribute__((noinline)) void timer_storm_arm_tooltips(TimerStorm *s) {
    for (int row = 0; row < ROWS; row++) tk_loop_add_timer(s->loop, 10000, timer_storm_tooltip, s);
    DEMO_NO_TAIL_CALL();
}

/* THE SECOND BUG: one zero-delay timer per row update instead of one batched update. */
__attribute__((noinline)) void timer_storm_queue_updates(TimerStorm *s) {
    for (int i = 0; i < BURST; i++) tk_loop_add_timer(s->loop, 0, timer_storm_update_row, s);
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
    tk_loop_add_timer(s->loop, 100, timer_storm_finish, s);
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

    printf("timer-storm: %u refreshes, %u row updates, %u tooltips shown\n", s.refreshes, s.row_updates, s.tooltips);
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario timer-storm: done\n");
    return s.refreshes == REFRESHES && s.row_updates == BURST ? 0 : 1;
}
