/*
 * scenario_alloc_storm.c — `alloc-storm` (CAPPED, ~1.5 s): a memory bug, not a layout loop.
 *
 * TkWindow 'main' → "ListView" 'list' (alloc_storm_list_layout). A 60 Hz timer marks the list dirty
 * (its size unchanged), so it is laid out once per frame; each layout malloc()s a 256 KiB "row
 * cache", touches it and leaks it (only the latest is remembered, and only until the scenario
 * ends). The 90th layout quits (90 frames), leaving 90 x 256 KiB leaked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define ALLOC_STORM_LAYOUTS 90
#define ALLOC_STORM_CACHE_BYTES (256 * 1024)

typedef struct AllocStorm {
    TkLoop *loop;
    TkView *main, *list;
    unsigned char *row_cache; /* the latest cache (the store keeps the compiler from eliding it) */
    unsigned long list_layouts;
    bool finished;
} AllocStorm;

__attribute__((noinline)) void alloc_storm_list_layout(TkView *list);

static const TkViewClass alloc_storm_list_class = {"ListView", alloc_storm_list_layout};

/* THE BUG: a fresh row cache per layout, the old one dropped on the floor. */
__attribute__((noinline)) void alloc_storm_list_layout(TkView *list) {
    AllocStorm *s = tk_view_user_data(list);
    unsigned char *cache = malloc(ALLOC_STORM_CACHE_BYTES);
    if (!cache) abort();
    memset(cache, 0xA5, ALLOC_STORM_CACHE_BYTES);
    s->row_cache = cache; /* and never freed */
    if (++s->list_layouts >= ALLOC_STORM_LAYOUTS) {
        s->finished = true;
        tk_loop_quit(s->loop);
    }
    DEMO_NO_TAIL_CALL();
}

static bool alloc_storm_tick(void *data) {
    AllocStorm *s = data;
    tk_view_set_needs_layout(s->list);
    return true;
}

int scenario_alloc_storm(void) {
    AllocStorm s = {0};
    s.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    s.main = tk_view_new(&tk_window_class, "main");
    s.list = tk_view_new(&alloc_storm_list_class, "list");
    tk_view_set_user_data(s.list, &s);
    tk_view_set_frame(s.main, (TkRect){0, 0, 320, 240});
    tk_view_set_frame(s.list, (TkRect){0, 0, 320, 200});
    tk_view_add_child(s.main, s.list);
    tk_loop_add_root(s.loop, s.main);
    tk_loop_add_timer(s.loop, 16, alloc_storm_tick, &s);

    tk_loop_run(s.loop, DEMO_MAX_RUN_MS);

    printf("alloc-storm: list layouts=%lu, row cache %d KiB each\n", s.list_layouts, ALLOC_STORM_CACHE_BYTES / 1024);
    printf("alloc-storm: leaked %lu row caches (%lu KiB)\n", s.list_layouts,
           s.list_layouts * (ALLOC_STORM_CACHE_BYTES / 1024));
    tk_view_dump(s.main);
    int status = s.finished ? 0 : 1;
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario alloc-storm: done\n");
    return status;
}
