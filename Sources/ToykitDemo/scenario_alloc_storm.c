/*
 * scenario_alloc_storm.c — `alloc-storm` (CAPPED, ~0.5 s): a memory bug, not a layout loop.
 *
 * TkWindow 'main' → "ListView" 'list' (alloc_storm_list_layout). A 60 Hz timer marks the list dirty
 * (its size unchanged), so it is laid out once per frame; each layout rebuilds the list's row cache
 * from scratch: 1,536 rows of 48 KiB (72 MiB) allocated, the previous cache freed. Nothing leaks,
 * but every frame allocates 72 MiB (LoopHunter's default LOOPHUNTER_ALLOC_BYTES is 64 MiB). The
 * rows are not written to: only glibc's chunk headers touch memory. 30 frames, then it quits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "demo.h"

#define ALLOC_STORM_LAYOUTS 30
#define ALLOC_STORM_ROWS 1536
#define ALLOC_STORM_ROW_BYTES (48 * 1024)

typedef struct AllocStorm {
    TkLoop *loop;
    TkView *main, *list;
    void *rows[ALLOC_STORM_ROWS]; /* the current row cache */
    unsigned long list_layouts;
    bool finished;
} AllocStorm;

__attribute__((noinline)) void alloc_storm_list_layout(TkView *list);

static const TkViewClass alloc_storm_list_class = {"ListView", alloc_storm_list_layout};

/* THE BUG: the whole row cache rebuilt on every layout instead of when the rows change. */
__attribute__((noinline)) void alloc_storm_list_layout(TkView *list) {
    AllocStorm *s = tk_view_user_data(list);
    for (int i = 0; i < ALLOC_STORM_ROWS; i++) {
        free(s->rows[i]);
        s->rows[i] = malloc(ALLOC_STORM_ROW_BYTES);
        if (s->rows[i] == NULL) abort();
    }
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
    static AllocStorm s; /* 12 KiB of row pointers: not on the stack */
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

    printf("alloc-storm: list layouts=%lu, each rebuilt %d rows of %d KiB (%d MiB)\n", s.list_layouts,
           ALLOC_STORM_ROWS, ALLOC_STORM_ROW_BYTES / 1024, ALLOC_STORM_ROWS * (ALLOC_STORM_ROW_BYTES / 1024) / 1024);
    for (int i = 0; i < ALLOC_STORM_ROWS; i++) free(s.rows[i]);
    tk_view_dump(s.main);
    int status = s.finished ? 0 : 1;
    tk_loop_free(s.loop);
    tk_view_free(s.main);
    printf("scenario alloc-storm: done\n");
    return status;
}
