/*
 * scenario_loop.c — the layout feedback-loop bug, and the `loop` scenario (UNCAPPED) that shows it.
 *
 * TkWindow 'main' → "Toolbar" 'toolbar' → "StatusLabel" 'status'.
 *   loop_toolbar_layout       sizes the status to the toolbar's width - 10, marks it as needing
 *                             layout and lays it out (tk_view_layout_children);
 *   loop_status_label_layout  the bug: once the status shows a message, laying it out resizes its
 *                             PARENT (the toolbar's width flips between 200 and 201), which marks
 *                             the toolbar dirty, whose layout resizes and lays out the status, ...
 *
 * Each tick of a 20 ms timer sets a message, which marks only 'status' dirty. The uncapped pass
 * then lays out 'status' first (from the pass), which dirties the toolbar; every following pass
 * lays out the toolbar, which lays out the status again from inside loop_toolbar_layout, and so on
 * until the pass limit (1000) abandons it: per tick, 1000 layouts of 'status' (999 of them from
 * loop_toolbar_layout) and 999 of 'toolbar'.
 *
 * The bug is shared with capped-loop, threads ('worker-…') and fork ('child-…').
 */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

__attribute__((noinline)) void loop_toolbar_layout(TkView *toolbar);
__attribute__((noinline)) void loop_status_label_layout(TkView *status);

static const TkViewClass loop_toolbar_class = {"Toolbar", loop_toolbar_layout};
static const TkViewClass loop_status_label_class = {"StatusLabel", loop_status_label_layout};

/* The toolbar sizes its child(ren) to its own width minus a 5 px margin each side, and always lays
 * its items out again (as toolkits' allocate steps do), resized or not. */
__attribute__((noinline)) void loop_toolbar_layout(TkView *toolbar) {
    LoopBug *bug = tk_view_user_data(toolbar);
    bug->toolbar_layouts++;
    TkRect frame;
    tk_view_get_frame(toolbar, &frame);
    for (size_t i = 0; i < tk_view_child_count(toolbar); i++) {
        TkView *item = tk_view_child_at(toolbar, i);
        tk_view_set_frame(item, (TkRect){5, 0, frame.width - 10, frame.height});
        tk_view_set_needs_layout(item);
    }
    tk_view_layout_children(toolbar);
    DEMO_NO_TAIL_CALL();
}

/* THE BUG: a child's layout resizing its parent. */
__attribute__((noinline)) void loop_status_label_layout(TkView *status) {
    LoopBug *bug = tk_view_user_data(status);
    bug->status_layouts++;
    if (bug->max_frames && tk_loop_stats(bug->loop).frames >= bug->max_frames) {
        bug->finished = true; /* the frame still completes its passes */
        tk_loop_quit(bug->loop);
    }
    if (!bug->armed) return;
    TkView *parent = tk_view_parent(status);
    TkRect frame;
    tk_view_get_frame(parent, &frame);
    frame.width = frame.width == 200 ? 201 : 200; /* "make room for the message" */
    tk_view_set_frame(parent, frame);                /* marks the toolbar dirty */
    DEMO_NO_TAIL_CALL();
}

LoopBug *loop_bug_new(TkLayoutPolicy policy, const char *window_name, const char *toolbar_name,
                      const char *status_name) {
    LoopBug *bug = calloc(1, sizeof *bug);
    if (!bug) abort();
    bug->loop = tk_loop_new(policy);
    bug->window = tk_view_new(&tk_window_class, window_name);
    bug->toolbar = tk_view_new(&loop_toolbar_class, toolbar_name);
    bug->status = tk_view_new(&loop_status_label_class, status_name);
    tk_view_set_user_data(bug->toolbar, bug);
    tk_view_set_user_data(bug->status, bug);
    tk_view_set_frame(bug->window, (TkRect){0, 0, 200, 100});
    tk_view_set_frame(bug->toolbar, (TkRect){0, 0, 200, 24});
    tk_view_add_child(bug->window, bug->toolbar);
    tk_view_add_child(bug->toolbar, bug->status);
    tk_loop_add_root(bug->loop, bug->window);
    return bug;
}

/* Each tick shows a message in the status (only 'status' becomes dirty); the last tick quits, and
 * its iteration's layout still runs. */
static bool loop_status_tick(void *data) {
    LoopBug *bug = data;
    bug->ticks++;
    bug->armed = true;
    tk_view_set_needs_layout(bug->status);
    if (bug->ticks < bug->max_ticks) return true;
    bug->finished = true;
    tk_loop_quit(bug->loop);
    return false;
}

/* Starts the ticks from the loop's first iteration, which lays the window out after dispatching
 * this idle: the first tick always comes after that first layout, however late the process got
 * the CPU (a timer added before tk_loop_run could fall due first on a loaded machine and merge the
 * first layout into the first tick's, changing the counts printed). */
static bool loop_start_ticks(void *data) {
    LoopBug *bug = data;
    tk_loop_add_timer(bug->loop, 20, loop_status_tick, bug);
    return false;
}

void loop_bug_run_ticks(LoopBug *bug, int ticks) {
    bug->max_ticks = ticks;
    tk_loop_add_idle(bug->loop, loop_start_ticks, bug);
    tk_loop_run(bug->loop, DEMO_MAX_RUN_MS);
}

void loop_bug_run_frames(LoopBug *bug, unsigned long frames) {
    bug->max_frames = frames;
    bug->armed = true; /* triggered once, at start */
    tk_view_set_needs_layout(bug->status);
    tk_loop_run(bug->loop, DEMO_MAX_RUN_MS);
}

void loop_bug_free(LoopBug *bug) {
    tk_loop_free(bug->loop);
    tk_view_free(bug->window);
    free(bug);
}

int scenario_loop(void) {
    LoopBug *bug = loop_bug_new(TK_LAYOUT_UNCAPPED, "main", "toolbar", "status");
    loop_bug_run_ticks(bug, 5);
    TkLoopStats stats = tk_loop_stats(bug->loop);
    printf("loop: ticks=%d\n", bug->ticks);
    printf("loop: abandoned layout passes=%lu\n", stats.abandoned);
    printf("loop: layouts status=%lu toolbar=%lu\n", bug->status_layouts, bug->toolbar_layouts);
    /* toykit's own count of tk_view_layout() calls: the ground truth for LoopHunter's count. */
    printf("loop: toykit layouts=%lu\n", stats.layouts);
    tk_view_dump(bug->window);
    int status = bug->finished ? 0 : 1;
    loop_bug_free(bug);
    printf("scenario loop: done\n");
    return status;
}
