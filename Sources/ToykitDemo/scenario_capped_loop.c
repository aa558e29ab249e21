/*
 * scenario_capped_loop.c — `capped-loop`: the Toolbar/StatusLabel bug of scenario_loop.c under the
 * CAPPED policy. The message is set once at start; from then on every frame makes its 4 passes
 * (4 layouts of 'toolbar' and 4 of 'status' per frame) and never converges. Runs exactly 150 frames
 * (~2.4 s at the 16 ms frame clock): loop_status_label_layout quits once tk_loop_stats().frames
 * reaches 150, and that frame still completes.
 */
#include <stdio.h>

#include "demo.h"

#define CAPPED_LOOP_FRAMES 150

int scenario_capped_loop(void) {
    LoopBug *bug = loop_bug_new(TK_LAYOUT_CAPPED, "main", "toolbar", "status");
    loop_bug_run_frames(bug, CAPPED_LOOP_FRAMES);
    TkLoopStats stats = tk_loop_stats(bug->loop);
    printf("capped-loop: frames=%lu\n", stats.frames);
    printf("capped-loop: layouts status=%lu toolbar=%lu (%d passes per frame)\n", bug->status_layouts,
           bug->toolbar_layouts, TK_CAPPED_PASSES);
    printf("capped-loop: toykit layouts=%lu\n", stats.layouts); /* ground truth for LoopHunter */
    printf("capped-loop: still needs layout: %s\n", tk_view_needs_layout(bug->toolbar) ? "yes" : "no");
    tk_view_dump(bug->window);
    int status = bug->finished && stats.frames == CAPPED_LOOP_FRAMES ? 0 : 1;
    loop_bug_free(bug);
    printf("scenario capped-loop: done\n");
    return status;
}
