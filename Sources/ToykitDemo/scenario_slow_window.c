/*
 * scenario_slow_window.c — `slow-window` (~3.5 s): a window that takes 2.7 s to its first frame.
 *
 * TkWindow 'main' is mapped (added as a root), but before its first frame can be painted three
 * callbacks of the first iteration do start-up work on the UI thread: slow_window_load_settings
 * (an idle, 300 ms), slow_window_build_rows (a timer due at once, 1.8 s) and
 * slow_window_apply_theme (another, 600 ms). LoopHunter's default LOOPHUNTER_WINDOW_MS is 2000:
 * a slow-window report listing those three steps, slowest first (and, the UI thread being stuck
 * for 2.7 s in one iteration, a stall). Then the window runs healthy for half a second.
 */
#include <stdio.h>

#include "demo.h"

typedef struct SlowWindow {
    TkLoop *loop;
    TkView *main, *label;
    unsigned steps_done;
} SlowWindow;

static void busy_ms(int ms) {
    int64_t until = demo_now_ns() + (int64_t)ms * 1000000;
    while (demo_now_ns() < until) {
    }
}

__attribute__((noinline)) bool slow_window_load_settings(void *data) {
    busy_ms(300);
    ((SlowWindow *)data)->steps_done++;
    return false;
}

__attribute__((noinline)) bool slow_window_build_rows(void *data) {
    busy_ms(1800);
    ((SlowWindow *)data)->steps_done++;
    return false;
}

__attribute__((noinline)) bool slow_window_apply_theme(void *data) {
    busy_ms(600);
    ((SlowWindow *)data)->steps_done++;
    return false;
}

static bool slow_window_end(void *data) {
    tk_loop_quit(((SlowWindow *)data)->loop);
    return false;
}

int scenario_slow_window(void) {
    SlowWindow s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    s.label = tk_view_new(&tk_label_class, "status");
    tk_label_set_text(s.label, "ready");
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_view_add_child(s.main, s.label);
    /* THE BUG: all of the start-up work queued on the UI thread ahead of the first frame. */
    tk_loop_add_idle(s.loop, slow_window_load_settings, &s);
    tk_loop_add_timer(s.loop, 0, slow_window_build_rows, &s);
    tk_loop_add_timer(s.loop, 0, slow_window_apply_theme, &s);
    tk_loop_add_root(s.loop, s.main);
    tk_loop_add_timer(s.loop, 3200, slow_window_end, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("slow-window: %u start-up steps done\n", s.steps_done);
    tk_view_dump(s.main);
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario slow-window: done\n");
    return s.steps_done == 3 ? 0 : 1;
}
