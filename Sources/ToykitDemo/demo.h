/*
 * demo.h — private to toykit-demo: the scenario entry points (one file each) and the two UI pieces
 * several scenarios share: the Toolbar/StatusLabel layout-loop bug (scenario_loop.c) and a small
 * healthy clock UI (clock_app.c).
 *
 * Every scenario exits by itself and prints only deterministic facts: counts that are bounded by
 * ticks, frames or events (never by time), and view trees whose geometry is settled.
 */
#ifndef TOYKIT_DEMO_H
#define TOYKIT_DEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "toykit.h"

/* Put right after the last call of every layout function: keeps gcc from making that call a
 * sibling call (a jump), which would take the layout function's frame off the stack — stacks taken
 * inside it (layouts, allocations) must show it. */
#define DEMO_NO_TAIL_CALL() __asm__ volatile("" ::: "memory")

/* A generous safety bound for every tk_loop_run(): scenarios end by themselves long before it. */
#define DEMO_MAX_RUN_MS 20000

/* Scenario entry points: return the process exit status. */
int scenario_healthy(void);
int scenario_loop(void);
int scenario_capped_loop(void);
int scenario_oscillate(void);
int scenario_alloc_storm(void);
int scenario_leak(void);
int scenario_threads(void);
int scenario_fork(void);
int scenario_stall(void);
int scenario_slow_window(void);
int scenario_timer_storm(void);
int scenario_timer_dangling(void);
int scenario_attach_target(void);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t demo_now_ns(void);

/* ---- The layout-loop bug (scenario_loop.c) --------------------------------------------------
 * TkWindow → "Toolbar" (layout loop_toolbar_layout: sizes its child to its width - 10, marks it
 * dirty and lays it out) → "StatusLabel" (layout loop_status_label_layout: once it shows a message, it
 * resizes its PARENT, flipping the toolbar's width between 200 and 201 — the bug). */
typedef struct LoopBug {
    TkLoop *loop;
    TkView *window, *toolbar, *status;
    bool armed;                  /* the status shows a message: its layout now resizes the toolbar */
    int ticks, max_ticks;        /* ticks of the 20 ms timer that sets the message */
    unsigned long max_frames;    /* quit once the loop has run this many frames (0: no bound) */
    bool finished;               /* the scenario's own end was reached (not the safety bound) */
    unsigned long toolbar_layouts, status_layouts;
} LoopBug;

LoopBug *loop_bug_new(TkLayoutPolicy policy, const char *window_name, const char *toolbar_name,
                      const char *status_name);
/* Uncapped use: a 20 ms timer sets the status message `ticks` times, quitting on the last tick
 * (whose layout still runs). */
void loop_bug_run_ticks(LoopBug *bug, int ticks);
/* Capped use: the message is set once at start; runs exactly `frames` frames. */
void loop_bug_run_frames(LoopBug *bug, unsigned long frames);
void loop_bug_free(LoopBug *bug);

/* ---- A small healthy clock UI (clock_app.c) -------------------------------------------------
 * TkWindow PREFIXwindow → TkBox PREFIXtoolbar → TkLabel PREFIXclock, a 10 Hz timer changing the
 * clock's text (and width) on each tick, CAPPED policy. */
typedef struct ClockApp {
    TkLoop *loop;
    TkView *window, *toolbar, *clock;
    int ticks, max_ticks;
    bool finished;
} ClockApp;

ClockApp *clock_app_new(const char *prefix);
/* Runs `ticks` text changes; quits on the timer's next firing, once the last change is laid out. */
void clock_app_run(ClockApp *app, int ticks);
void clock_app_free(ClockApp *app);
/* The clock text of tick n: "12:00:NN", with " pm" on odd ticks so the width changes every tick. */
void demo_clock_text(int tick, char *buf, size_t size);

#endif
