/*
 * clock_app.c — a small healthy UI several scenarios reuse (threads: 'main-…', fork: 'parent-…'):
 * TkWindow PREFIXwindow → TkBox PREFIXtoolbar → TkLabel PREFIXclock, CAPPED policy, a 10 Hz timer
 * whose every tick changes the clock's text and width (one layout of each dirty view per frame).
 *
 * It stops on the timer's firing after the last tick, so the last tick's frame (at most 16 ms after
 * it) has run and the final geometry is settled whatever the timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

void demo_clock_text(int tick, char *buf, size_t size) {
    snprintf(buf, size, "12:00:%02d%s", tick % 60, tick % 2 ? " pm" : "");
}

static char *join(const char *prefix, const char *name, char *buf, size_t size) {
    snprintf(buf, size, "%s%s", prefix, name);
    return buf;
}

ClockApp *clock_app_new(const char *prefix) {
    ClockApp *app = calloc(1, sizeof *app);
    if (!app) abort();
    char name[64];
    app->loop = tk_loop_new(TK_LAYOUT_CAPPED);
    app->window = tk_view_new(&tk_window_class, join(prefix, "window", name, sizeof name));
    app->toolbar = tk_view_new(&tk_box_class, join(prefix, "toolbar", name, sizeof name));
    app->clock = tk_view_new(&tk_label_class, join(prefix, "clock", name, sizeof name));
    tk_view_set_frame(app->window, (TkRect){0, 0, 240, 80});
    tk_view_set_frame(app->toolbar, (TkRect){0, 0, 240, 24});
    tk_label_set_text(app->clock, "12:00:00");
    tk_view_add_child(app->window, app->toolbar);
    tk_view_add_child(app->toolbar, app->clock);
    tk_loop_add_root(app->loop, app->window);
    return app;
}

static bool clock_app_tick(void *data) {
    ClockApp *app = data;
    if (app->ticks < app->max_ticks) {
        char text[32];
        demo_clock_text(++app->ticks, text, sizeof text);
        tk_label_set_text(app->clock, text);
        return true;
    }
    app->finished = true;
    tk_loop_quit(app->loop);
    return false;
}

void clock_app_run(ClockApp *app, int ticks) {
    app->max_ticks = ticks;
    tk_loop_add_timer(app->loop, 100, clock_app_tick, app);
    tk_loop_run(app->loop, DEMO_MAX_RUN_MS);
}

void clock_app_free(ClockApp *app) {
    tk_loop_free(app->loop);
    tk_view_free(app->window);
    free(app);
}
