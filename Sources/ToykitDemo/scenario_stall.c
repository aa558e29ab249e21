/*
 * scenario_stall.c — `stall` (~6 s): a UI that freezes twice, the way real ones do.
 *
 * TkWindow 'main' with a label; a 16 ms timer keeps the label ticking (healthy iterations). At
 * 300 ms a timer callback computes for 2.5 s without returning to the loop
 * (stall_rebuild_index: a thread that is *running*, so LoopHunter's watchdog interrupts it and
 * unwinds it there); at 3.2 s another callback waits 2.5 s for a "disk" with nanosleep()
 * (stall_wait_for_disk: a thread *blocked in a system call* a signal would cut short, so its
 * stack is read from outside instead). Each iteration is one stall of ~2.5 s (LoopHunter's
 * default LOOPHUNTER_STALL_MS is 2000); everything else stays healthy. The program's output is
 * the same with and without LoopHunter: the sleep is not cut short.
 */
#include <stdio.h>
#include <time.h>

#include "demo.h"

#define STALL_MS 2500

typedef struct Stall {
    TkLoop *loop;
    TkView *main, *label;
    unsigned ticks;
    volatile uint64_t index_sum; /* the "index" being rebuilt: volatile, so the work is done */
    int slept_ms;
} Stall;

/* THE FIRST BUG: a whole index rebuilt on the UI thread, 2.5 s without returning to the loop. */
__attribute__((noinline)) void stall_rebuild_index(Stall *s) {
    int64_t until = demo_now_ns() + (int64_t)STALL_MS * 1000000;
    while (demo_now_ns() < until)
        for (int i = 0; i < 100000; i++) s->index_sum += (uint64_t)i * 2654435761u;
    DEMO_NO_TAIL_CALL();
}

/* THE SECOND BUG: a synchronous wait on the UI thread. The whole sleep is waited out (a signal
 * landing on the thread would end nanosleep early: the remaining time is slept again, as any
 * careful program does; LoopHunter never sends one to a thread blocked here). */
__attribute__((noinline)) void stall_wait_for_disk(Stall *s) {
    int64_t start = demo_now_ns();
    struct timespec left = {STALL_MS / 1000, (STALL_MS % 1000) * 1000000L};
    while (nanosleep(&left, &left) != 0) {
    }
    s->slept_ms = (int)((demo_now_ns() - start) / 1000000);
    DEMO_NO_TAIL_CALL();
}

static bool stall_tick(void *data) {
    Stall *s = data;
    s->ticks++;
    tk_label_set_text(s->label, (s->ticks & 1) ? "tick" : "tock");
    return true;
}

static bool stall_first(void *data) {
    stall_rebuild_index(data);
    return false;
}

static bool stall_second(void *data) {
    stall_wait_for_disk(data);
    return false;
}

static bool stall_end(void *data) {
    Stall *s = data;
    tk_loop_quit(s->loop);
    return false;
}

int scenario_stall(void) {
    Stall s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    s.label = tk_view_new(&tk_label_class, "status");
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_view_add_child(s.main, s.label);
    tk_loop_add_root(s.loop, s.main);
    tk_loop_add_timer(s.loop, 16, stall_tick, &s);
    tk_loop_add_timer(s.loop, 300, stall_first, &s);
    tk_loop_add_timer(s.loop, 300 + STALL_MS + 400, stall_second, &s);
    tk_loop_add_timer(s.loop, 300 + 2 * STALL_MS + 800, stall_end, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("stall: slept %s\n", s.slept_ms >= STALL_MS ? "the whole wait" : "less than asked");
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario stall: done\n");
    return s.slept_ms >= STALL_MS ? 0 : 1;
}
