/*
 * scenario_leak.c — `leak` (CAPPED, ~1.5 s): a layout that leaks, the shape of an OOM kill.
 *
 * TkWindow 'main' → "ListView" 'list' (leak_list_layout). A 60 Hz timer marks the list dirty (its
 * size unchanged), so it is laid out once per frame; each layout malloc()s a 1 MiB "row cache" and
 * drops the previous one on the floor. 90 frames: 90 MiB leaked, growing in every frame
 * (LoopHunter's defaults: 60 growing iterations in a row and 64 MiB make a heap-growth). The caches
 * are not written to (glibc maps them; untouched, they are not resident).
 */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

#define LEAK_LAYOUTS 90
#define LEAK_CACHE_BYTES (1024 * 1024)

typedef struct Leak {
    TkLoop *loop;
    TkView *main, *list;
    void *row_cache; /* the latest cache (the store keeps the compiler from eliding it) */
    unsigned long list_layouts;
    bool finished;
} Leak;

__attribute__((noinline)) void leak_list_layout(TkView *list);

static const TkViewClass leak_list_class = {"ListView", leak_list_layout};

/* THE BUG: a fresh row cache per layout, the old one never freed. */
__attribute__((noinline)) void leak_list_layout(TkView *list) {
    Leak *s = tk_view_user_data(list);
    s->row_cache = malloc(LEAK_CACHE_BYTES);
    if (s->row_cache == NULL) abort();
    if (++s->list_layouts >= LEAK_LAYOUTS) {
        s->finished = true;
        tk_loop_quit(s->loop);
    }
    DEMO_NO_TAIL_CALL();
}

static bool leak_tick(void *data) {
    Leak *s = data;
    tk_view_set_needs_layout(s->list);
    return true;
}

int scenario_leak(void) {
    Leak s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    s.list = tk_view_new(&leak_list_class, "list");
    tk_view_set_user_data(s.list, &s);
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_view_set_frame(s.list, (TkRect){0, 0, 320, 200});
    tk_view_add_child(s.main, s.list);
    tk_loop_add_root(s.loop, s.main);
    tk_loop_add_timer(s.loop, 16, leak_tick, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("leak: list layouts=%lu, leaked %lu row caches of %d KiB\n", s.list_layouts, s.list_layouts,
           LEAK_CACHE_BYTES / 1024);
    tk_view_dump(s.main);
    int status = s.finished ? 0 : 1;
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario leak: done\n");
    return status;
}
