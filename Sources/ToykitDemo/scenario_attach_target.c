/*
 * scenario_attach_target.c — a long-running program for `loophunter attach` (the `attach-target`
 * scenario): the Toolbar/StatusLabel window of scenario_loop.c, whose 20 ms timer marks the status
 * dirty on every tick for TOYKIT_RUN_MS milliseconds (default 20000), then quits. The bug is armed
 * from TOYKIT_LOOP_AFTER_MS on (default: never, a healthy program): from then on every tick's
 * layout loops (1000 passes, as in `loop`). The tick count, layouts and toykit's own count are
 * printed at the end; they depend on timing only through the number of ticks.
 */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

typedef struct attach_target {
    LoopBug *bug;
    int64_t start_ns, arm_ns, end_ns; /* arm_ns < 0: never */
    int ticks;
} attach_target;

static int64_t env_ms(const char *name, int64_t fallback) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return fallback;
    char *end;
    long long ms = strtoll(v, &end, 10);
    return *end == '\0' && ms >= 0 ? ms : fallback;
}

static bool attach_target_tick(void *data) {
    attach_target *a = data;
    int64_t now = demo_now_ns();
    a->ticks++;
    if (a->arm_ns >= 0 && now - a->start_ns >= a->arm_ns) a->bug->armed = true;
    tk_view_set_needs_layout(a->bug->status);
    if (now - a->start_ns < a->end_ns) return true;
    a->bug->finished = true;
    tk_loop_quit(a->bug->loop);
    return false;
}

int scenario_attach_target(void) {
    attach_target a = {0};
    a.bug = loop_bug_new(TK_LAYOUT_UNCAPPED, "main", "toolbar", "status");
    a.end_ns = env_ms("TOYKIT_RUN_MS", 20000) * 1000000;
    int64_t arm = env_ms("TOYKIT_LOOP_AFTER_MS", -1);
    a.arm_ns = arm >= 0 ? arm * 1000000 : -1;
    a.start_ns = demo_now_ns();
    tk_loop_add_timer(a.bug->loop, 20, attach_target_tick, &a);
    tk_loop_run(a.bug->loop, (int)(a.end_ns / 1000000) + 60000);
    printf("attach-target: armed=%s\n", a.bug->armed ? "yes" : "no");
    int status = a.bug->finished ? 0 : 1;
    loop_bug_free(a.bug);
    printf("scenario attach-target: done\n");
    return status;
}
