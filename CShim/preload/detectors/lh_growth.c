/*
 * lh_growth.c — the heap-growth detector: the process's live heap grew in
 * LOOPHUNTER_GROWTH_ITERATIONS epochs in a row of a GUI thread, by LOOPHUNTER_GROWTH_BYTES or more
 * in all (the shape of a leak that ends in an out-of-memory kill). Epochs whose net change is
 * within the noise neither count nor break the run; one that shrank ends it. One report per run.
 *
 * Runs as each epoch of a thread with a record begins (its guard held), after the allocation
 * detector published the live heap (lh_proc.heap_live_bytes; its row comes first). Per-record
 * state, owner-only; no allocation, no lock.
 */
#include <string.h>

#include "lh_breach.h"

#define LH_GROWTH_NOISE 4096 /* an epoch whose live heap moved less than this is neutral */

typedef struct growth_thread {
    uint64_t run;        /* epochs in a row in which the live heap grew */
    uint64_t start_live; /* live bytes when the run began */
    uint64_t last_live;  /* live bytes at the last epoch's end */
    bool has_last;
    bool reported;       /* this run was reported */
} growth_thread;

static growth_thread threads[LH_THREAD_RECORDS] LH_LARGE_TABLE(growth_threads);

static void thread_start(lh_tls *t, size_t index) {
    (void)t;
    memset(&threads[index], 0, sizeof threads[index]);
}

/* A new epoch began on a thread: the live heap at the end of the one before is compared. */
static void epoch_begin(lh_tls *t) {
    if (t->rec == NULL) return;
    growth_thread *g = &threads[lh_record_index(t->rec)];
    uint64_t live = lh_load_relaxed(&lh_proc.heap_live_bytes);
    if (!g->has_last) {
        g->has_last = true;
        g->last_live = live;
        return;
    }
    int64_t delta = (int64_t)(live - g->last_live);
    g->last_live = live;
    if (delta > LH_GROWTH_NOISE) {
        if (g->run == 0) g->start_live = live - (uint64_t)delta;
        g->run++;
    } else if (delta < -LH_GROWTH_NOISE) {
        g->run = 0;
        g->reported = false;
    }
    if (g->run < lh_proc.cfg.growth_iterations || g->reported || live <= g->start_live ||
        live - g->start_live < lh_proc.cfg.growth_bytes)
        return;
    g->reported = true; /* once per run */
    lh_breach b = {
        .kind = LH_KIND_HEAP_GROWTH,
        .hook = LH_HOOK_malloc, /* the malloc family */
        .named_type = "(process heap)",
        .count = live - g->start_live,
        .threshold = lh_proc.cfg.growth_bytes,
        .count_unit = "bytes of heap growth",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
        .growth_iterations = g->run,
        .growth_start_live = g->start_live,
    };
    lh_breach_report(t, &b);
}

static void after_fork(void) { memset(threads, 0, sizeof threads); }

const lh_detector lh_detector_growth = {
    .name = "growth",
    .after_fork = after_fork,
    .thread_start = thread_start,
    .epoch_begin = epoch_begin,
};
