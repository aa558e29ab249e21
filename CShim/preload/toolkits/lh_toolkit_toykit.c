/*
 * lh_toolkit_toykit.c — toykit (Sources/Toykit), the project's own host toolkit: its adapter
 * (naming views in reports) and its glue (what its loop does, told to the detectors):
 *   - a root added to a loop is a window mapped; the loop's tk_loop_frame_done paints it
 *     (window detector);
 *   - timers and idles added, removed, freed with their loop are followed; tk_source_dispatch runs
 *     every callback: a fire counted (timer detector), timed as a step while a window waits for
 *     its first frame (window detector), run as a dispatch with its cause (a source added while
 *     layout ran, or by a callback from layout: runtime/lh_cause.h);
 *   - layout requests (tk_view_set_needs_layout, through which every dirtying goes), views' frames
 *     read by the application, views freed, frames done: the relayout detector.
 *
 * The adapter's getters are called from layout hooks on the host's thread while the view is being
 * laid out; toykit's accessors are looked up on first use (lh_host_function: wherever libtoykit.so
 * was loaded; never linked), and are plain getters: no allocation, no locks, no I/O. The glue runs
 * in toykit's hooks on the loop's thread, with the guard held (the notes) or taking it (dispatch).
 */
#define _GNU_SOURCE
#include <errno.h>

#include "lh_cause.h"
#include "lh_relayout.h"
#include "lh_runtime.h"
#include "lh_symbols.h"
#include "lh_timer.h"
#include "lh_toykit.h"
#include "lh_window.h"

typedef struct tk_rect {
    int x, y, width, height; /* TkRect in toykit.h */
} tk_rect;

typedef struct toykit_api {
    const char *(*type_name)(const void *view);
    const char *(*name)(const void *view);
    const void *(*parent)(const void *view);
    void (*get_frame)(const void *view, tk_rect *out);
    const void *(*loop_of)(const void *view); /* NULL: an older libtoykit without tk_view_loop */
} toykit_api;

static toykit_api api;
static _Atomic int api_state; /* 0 unresolved, 2 being resolved, 1 resolved, -1 toykit absent */

static LH_NOINLINE __attribute__((cold)) bool resolve_slow(void) {
    int st = 0;
    /* acquire on failure: if another thread finished meanwhile, see its pointers. Only the thread
     * that moves 0 -> 2 resolves; the others treat the toolkit as not yet available. */
    if (!lh_cas_acquire_both(&api_state, &st, 2))
        return st == 1;
    int saved = errno; /* our callers rely on getters leaving it alone */
    toykit_api a = {
        .type_name = (const char *(*)(const void *))lh_host_function("tk_view_type_name"),
        .name = (const char *(*)(const void *))lh_host_function("tk_view_name"),
        .parent = (const void *(*)(const void *))lh_host_function("tk_view_parent"),
        .get_frame = (void (*)(const void *, tk_rect *))lh_host_function("tk_view_get_frame"),
        .loop_of = (const void *(*)(const void *))lh_host_function("tk_view_loop"),
    };
    bool ok = a.type_name != NULL && a.name != NULL && a.parent != NULL && a.get_frame != NULL;
    if (ok) api = a;
    /* release: publishes `api` to the acquire loads above. */
    lh_store_release(&api_state, ok ? 1 : -1);
    errno = saved;
    return ok;
}

/* Whether the getters are there (inline: size_of runs on every view's first layout of a frame). */
static inline bool resolve(void) {
    /* acquire: pairs with resolve_slow's release, so the pointers are seen filled in. */
    int st = lh_load_acquire(&api_state);
    if (LH_LIKELY(st == 1)) return true;
    return st == 0 ? resolve_slow() : false;
}

static uint64_t size_of(const void *view) {
    if (!resolve()) return LH_GEOMETRY_NONE;
    tk_rect r;
    api.get_frame(view, &r);
    return (uint64_t)(uint32_t)r.width << 32 | (uint32_t)r.height;
}

static const char *type_name(const void *view) { return resolve() ? api.type_name(view) : NULL; }

static const char *name_of(const void *view) { return resolve() ? api.name(view) : NULL; }

static const void *parent_of(const void *view) { return resolve() ? api.parent(view) : NULL; }

static bool geometry(const void *view, int rect[4]) {
    if (!resolve()) return false;
    tk_rect r;
    api.get_frame(view, &r);
    rect[0] = r.x, rect[1] = r.y, rect[2] = r.width, rect[3] = r.height;
    return true;
}

/* A view's frame clock: its loop (the loop's frames are the view's). */
static const void *frame_clock_of(const void *view) {
    return resolve() && api.loop_of != NULL ? api.loop_of(view) : NULL;
}

/* libtoykit.so was dlclosed: look its getters up again when it is back (maybe elsewhere). */
static void forget_unloaded(void) {
    /* acquire: see the pointers of a completed resolution. */
    if (lh_load_acquire(&api_state) != 1) return;
    if (lh_symbol_is_loaded((const void *)api.type_name)) return;
    /* release: a later resolution starts from scratch. */
    lh_store_release(&api_state, 0);
}

const lh_toolkit lh_toolkit_toykit = {
    .name = "toykit",
    .size_of = size_of,
    .type_name = type_name,
    .name_of = name_of,
    .parent_of = parent_of,
    .geometry = geometry,
    .frame_clock_of = frame_clock_of,
    .forget_unloaded = forget_unloaded,
};

/* ---- glue: windows (rows tk_loop_add_root, tk_loop_frame_done) ----------------------------------- */

void lh_toykit_root_added(unsigned hook, void *loop, void *root) {
    lh_window_created(&lh_toolkit_toykit, hook, root, loop, true);
}

void lh_toykit_frame_done(unsigned hook, void *loop, unsigned long frame) {
    (void)hook;
    (void)frame;
    if (lh_family_on(LH_FAMILY_WINDOW) && lh_windows_unpainted()) lh_window_painted(&lh_tls_data, loop);
    if (lh_family_on(LH_FAMILY_LAYOUT)) lh_relayout_frame_done(&lh_tls_data, loop, true);
}

/* ---- glue: layout requests (rows tk_view_set_needs_layout, tk_view_get_frame, tk_view_free) ------ */

void lh_toykit_layout_requested(unsigned hook, void *view) {
    if (view != NULL) lh_relayout_request(&lh_tls_data, LH_HOOK_tk_view_layout, view, hook);
}

void lh_toykit_frame_read(unsigned hook, const void *view, void *out) {
    (void)hook, (void)out;
    if (view == NULL) return;
    lh_slot *s = lh_table_slot(&lh_proc.table, view, LH_HOOK_tk_view_layout);
    lh_cause_note_read(&lh_tls_data, view, NULL, s != NULL ? lh_load_relaxed(&s->total) : 0);
}

void lh_toykit_view_freed(unsigned hook, void *view) {
    (void)hook;
    if (view != NULL) lh_relayout_forget_subtree(&lh_toolkit_toykit, view);
}

/* ---- glue: timers and idles (rows tk_loop_add_timer ... tk_source_dispatch) ------------------------ */

static bool is_toykit_source(const lh_timer_rec *r) {
    return r->hook == LH_HOOK_tk_loop_add_timer || r->hook == LH_HOOK_tk_loop_add_idle;
}

typedef struct source_key {
    const void *loop;
    unsigned id;
} source_key;

static bool is_source(const lh_timer_rec *r, const void *key) {
    const source_key *k = key;
    return is_toykit_source(r) && r->owner == k->loop && r->id == k->id;
}

static bool is_source_of_loop(const lh_timer_rec *r, const void *loop) { return is_toykit_source(r) && r->owner == loop; }

/* The causes of sources added while layout ran (or by a callback from layout), until their first
 * dispatch: (loop, id) -> cause record. Few are live at once (each leaves at its first dispatch);
 * entries are claimed with compare-and-swap on `loop` and read by the loop's thread. */
#define CAUSED_SOURCES 256
static struct caused_source {
    _Atomic(const void *) loop; /* NULL: free */
    unsigned id;
    lh_cause_ref ref;
} caused[CAUSED_SOURCES];
static _Atomic uint32_t caused_live; /* entries in use (relaxed: a hint that lets dispatch skip the scan) */

static void cause_added(unsigned hook, void *loop, unsigned id, void *func) {
    if (!lh_cause_ready()) return;
    lh_cause_ref ref = lh_cause_born(&lh_tls_data, hook, (uintptr_t)func);
    if (ref == 0) return;
    for (size_t i = 0; i < CAUSED_SOURCES; i++) {
        const void *expected = NULL;
        /* acquire: the previous user's reads of the entry are done (it released with NULL). */
        if (lh_load_relaxed(&caused[i].loop) != NULL || !lh_cas_acquire(&caused[i].loop, &expected, loop)) continue;
        caused[i].id = id;
        caused[i].ref = ref;
        lh_add_relaxed(&caused_live, 1);
        return;
    }
    lh_cause_release(ref); /* full: this source's cause is not followed */
}

/* Takes (loop, id)'s cause out of the table (0: none); `all`: every entry of the loop. */
static lh_cause_ref cause_taken(const void *loop, unsigned id, bool all) {
    if (lh_load_relaxed(&caused_live) == 0) return 0;
    lh_cause_ref found = 0;
    for (size_t i = 0; i < CAUSED_SOURCES; i++) {
        if (lh_load_relaxed(&caused[i].loop) != loop || (!all && caused[i].id != id)) continue;
        lh_cause_ref ref = caused[i].ref;
        lh_sub_relaxed(&caused_live, 1);
        /* release: our reads of the entry happen before the next claimer's writes. */
        lh_store_release(&caused[i].loop, NULL);
        if (!all) return ref;
        lh_cause_release(ref);
    }
    return found;
}

void lh_toykit_timer_added(unsigned hook, unsigned id, void *loop, int interval_ms, void *func, void *data) {
    if (id == 0) return;
    if (lh_timer_ready()) lh_timer_track(hook, (uintptr_t)func, (uintptr_t)data, NULL, interval_ms, loop, id);
    cause_added(hook, loop, id, func);
}

void lh_toykit_idle_added(unsigned hook, unsigned id, void *loop, void *func, void *data) {
    if (id == 0) return;
    if (lh_timer_ready()) lh_timer_track(hook, (uintptr_t)func, (uintptr_t)data, NULL, -1, loop, id);
    cause_added(hook, loop, id, func);
}

/* The source ended; one removed from inside its own callback is released by the dispatch wrapper
 * once the callback has returned (it still uses the record). */
static void end_source(lh_timer_rec *r) {
    if (lh_timer_untrack(r) && !r->dispatching) lh_timer_release(r);
}

void lh_toykit_source_removed(unsigned hook, void *loop, unsigned id) {
    (void)hook;
    source_key key = {loop, id};
    lh_timer_rec *r = lh_timer_ready() ? lh_timer_find(is_source, &key) : NULL;
    if (r != NULL) end_source(r);
    lh_cause_ref ref = cause_taken(loop, id, false);
    if (ref != 0) lh_cause_release(ref);
}

/* The loop is freed with its sources and its windows. */
void lh_toykit_loop_freed(unsigned hook, void *loop) {
    (void)hook;
    if (lh_timer_ready()) lh_timer_end_all(is_source_of_loop, loop);
    if (lh_family_on(LH_FAMILY_WINDOW)) lh_window_forget_loop(loop);
    cause_taken(loop, 0, true);
}

/* Every toykit timer and idle callback: a fire counted and judged (its data freed by itself while
 * it goes on), and timed as a step while a window waits for its first frame. When libtoykit is gone
 * (no original), the callback is called directly: the forward depends on no state of toykit's. */
LH_EXPORT int tk_source_dispatch(void *loop, unsigned id, lh_tk_source_fn func, void *data) {
    __typeof__(lh_real_tk_source_dispatch) real = LH_ORIGINAL(tk_source_dispatch);
    if (real == NULL) return func(data);
    lh_tls *t = &lh_tls_data;
    bool on = t->guard == 0 && lh_active(LH_FAMILY_TIMER | LH_FAMILY_WINDOW | LH_FAMILY_LAYOUT);
    lh_timer_rec *r = NULL;
    if (on && lh_timer_ready()) {
        LH_GUARDED(t);
        lh_count_hook_call(LH_HOOK_tk_source_dispatch);
        source_key key = {loop, id};
        r = lh_timer_find(is_source, &key);
        if (r != NULL) lh_timer_fire(t, r);
    }
    bool timed = on && lh_family_on(LH_FAMILY_WINDOW) && lh_steps_watched();
    uint64_t started = timed ? lh_now_ns() : 0;
    /* The first dispatch of a source from layout runs with its cause; every dispatch is a boundary. */
    lh_cause_ref ref = on ? cause_taken(loop, id, false) : 0;
    lh_cause_outer outer = lh_cause_dispatch_begin(ref, (uintptr_t)func);
    int keep = real(loop, id, func, data) & 0xff;
    lh_cause_dispatch_end(outer);
    if (ref != 0) lh_cause_release(ref);
    if ((timed || r != NULL) && t->guard == 0) {
        LH_GUARDED(t);
        if (timed) {
            uint64_t us = (lh_now_ns() - started) / 1000;
            lh_window_step(r != NULL && r->interval_ms < 0 ? "idle" : "timer", "(toykit source)", (uintptr_t)func, us);
        }
        if (r != NULL) {
            bool removed = !lh_timer_live(r);
            lh_timer_dispatched(t, r, keep != 0 && !removed);
            if (removed) {
                lh_timer_release(r); /* tk_loop_remove_source ran inside the callback */
            } else if (!keep) {
                end_source(r);
            }
        }
    }
    return keep;
}
