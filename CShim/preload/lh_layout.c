/*
 * lh_layout.c — counting layout calls per (object, hook) per iteration, and the two detectors.
 *
 * Runs inside every layout hook, on the host's thread, possibly inside a signal handler: no
 * allocation, no locks, no system call on the common path (one table lookup, one relaxed store).
 * That path is inline in every layout wrapper (lh_layout_count_inline in lh_preload.h) and calls
 * nothing, so it holds no guard; this file has the other cases (first layout of an iteration,
 * first layout of an object in an iteration, a count a detector looks at, a breach). Those that
 * call out hold the guard, and preserve errno.
 *
 * Detectors:
 *  1. layout-storm: an object laid out more than LOOPHUNTER_THRESHOLD times in one iteration
 *     (an uncapped toolkit looping inside one pass, as UIKit would).
 *  2. layout-streak: an object "hot" in LOOPHUNTER_STREAK back-to-back layout iterations of its
 *     thread (what a capped toolkit turns a loop into). Hot: laid out more than once in the
 *     iteration, or its size at the start of the next layout differs from the size at the start of
 *     this one. Back-to-back: consecutive layout iterations of the thread (iterations that laid out
 *     nothing do not count) with the loop never asking to sleep longer than LOOPHUNTER_STREAK_GAP_MS
 *     between them, or starting at most that far apart. A 10 Hz timer resizing a label is therefore
 *     never a streak (it sleeps 100 ms), a spinner re-laid out every frame at the same size is never
 *     hot, and a 250 ms animation is too short to reach the default streak of 60.
 */
#include <errno.h>
#include <string.h>

#include "lh_preload.h"

/* ---- loop members ----------------------------------------------------------------------------
 * Several objects take part in one loop (a label resizing its parent: both relaid out). An object
 * past half a detector's limit (lh_proc.storm_member_at, streak_member_at) is remembered in the
 * thread's record; when one of them breaches, the others are listed in its report and their own
 * crossings join it instead of making reports of their own. Owner-thread data only. */

static lh_member *find_member(lh_thread_rec *r, int kind, const void *object, unsigned hook) {
    for (size_t i = 0; i < LH_MEMBERS; i++) {
        lh_member *m = &r->members[i];
        if (m->kind == kind && m->object == object && m->hook == hook) return m;
    }
    return NULL;
}

static LH_NOINLINE __attribute__((cold)) void note_member(lh_tls *t, int kind, lh_slot *s, unsigned hook, const void *object) {
    lh_thread_rec *r = t->rec;
    if (r == NULL) return;
    t->guard++; /* the toolkit's getters below */
    lh_member *m = find_member(r, kind, object, hook);
    if (m == NULL) m = &r->members[r->members_next++ % LH_MEMBERS];
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    m->kind = kind;
    m->slot = s;
    m->object = object;
    m->hook = hook;
    m->joined_epoch = 0;
    /* The object is being laid out right now: alive, safe to ask its names and parents. */
    m->depth = lh_toolkit_depth(tk, object);
    const char *type = tk != NULL && tk->type_name != NULL ? tk->type_name(object) : NULL;
    const char *name = tk != NULL && tk->name_of != NULL ? tk->name_of(object) : NULL;
    size_t n = type != NULL ? strnlen(type, sizeof m->type - 1) : 0;
    memcpy(m->type, type != NULL ? type : "", n);
    m->type[n] = '\0';
    n = name != NULL ? strnlen(name, sizeof m->name - 1) : 0;
    memcpy(m->name, name != NULL ? name : "", n);
    m->name[n] = '\0';
    t->guard--;
}

/* The member's current count (storm: layouts this iteration; streak: hot iterations in a row), or
 * 0 when it is no longer part of what the thread is doing now. */
static uint64_t member_count_now(const lh_tls *t, const lh_member *m) {
    /* relaxed: the slot belongs to objects of this thread (see lh_table.h). */
    if (m->kind == LH_LOOP_STORM) {
        uint64_t w = atomic_load_explicit(&m->slot->count, memory_order_relaxed);
        return lh_epoch_of(w) == (t->epoch & LH_EPOCH_MASK) ? lh_count_of(w) : 0;
    }
    uint64_t last = atomic_load_explicit(&m->slot->last_layout_iter, memory_order_relaxed);
    return last + 1 >= t->layout_iter ? atomic_load_explicit(&m->slot->streak, memory_order_relaxed) : 0;
}

/* For a breach of (object, hook): false when the object already joined this iteration's report.
 * Otherwise fills the record's report_members with the rest of the loop, marks them as joined
 * (storm: for this iteration; streak: for as long as their streak lasts) and returns true. */
static bool gather_members(lh_tls *t, int kind, const void *object, unsigned hook, lh_breach *b) {
    lh_thread_rec *r = t->rec;
    b->members = NULL;
    b->member_count = 0;
    if (r == NULL) return true;
    lh_member *self = find_member(r, kind, object, hook);
    if (self != NULL && kind == LH_LOOP_STORM && self->joined_epoch == t->epoch) {
        atomic_fetch_add_explicit(&lh_proc.reports_joined, 1, memory_order_relaxed); /* stat */
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < LH_MEMBERS; i++) {
        lh_member *m = &r->members[i];
        if (m->kind != kind) continue;
        uint64_t count = member_count_now(t, m);
        if (count == 0) continue;
        m->joined_epoch = t->epoch;
        if (kind == LH_LOOP_STREAK) atomic_store_explicit(&m->slot->reported_streak, 1, memory_order_relaxed);
        if (m == self) continue;
        lh_report_member *out = &r->report_members[n++];
        out->address = (uintptr_t)m->object;
        out->hook = lh_hooks[m->hook].name;
        memcpy(out->type, m->type, sizeof out->type);
        memcpy(out->name, m->name, sizeof out->name);
        out->count = count;
    }
    b->members = r->report_members;
    b->member_count = n;
    return true;
}

/* A streak of `object` defers to a deeper object of the same loop that is still hot: in a
 * parent/child loop the inner view's layout is usually the app's code that resizes the outer one.
 * The deeper one reports when its own streak reaches the limit, listing this one; if it stops
 * being hot first, this one reports at its next layout iteration (the check is repeated). */
static bool defer_to_deeper(const lh_tls *t, const void *object, unsigned hook) {
    lh_thread_rec *r = t->rec;
    if (r == NULL) return false;
    unsigned depth = lh_toolkit_depth(lh_hooks[hook].toolkit, object);
    for (size_t i = 0; i < LH_MEMBERS; i++) {
        const lh_member *m = &r->members[i];
        if (m->kind == LH_LOOP_STREAK && m->depth > depth && !(m->object == object && m->hook == hook) &&
            member_count_now(t, m) > 0)
            return true;
    }
    return false;
}

/* The first layout call of the thread's current iteration: is it back-to-back with the last? */
static LH_NOINLINE __attribute__((cold)) void begin_layout_iteration(lh_tls *t) {
    const lh_config *cfg = &lh_proc.cfg;
    uint64_t start = t->iter_start_ns;
    bool slept_little = t->wait_since_layout_ms >= 0 && (uint64_t)t->wait_since_layout_ms <= cfg->streak_gap_ms;
    bool started_soon = start - t->layout_iter_start_ns <= cfg->streak_gap_ms * 1000000u;
    t->layout_linked = t->layout_iter > 0 && (slept_little || started_soon);
    t->layout_iter++;
    t->layout_iter_start_ns = start;
    t->layout_epoch = t->epoch;
    t->wait_since_layout_ms = 0;
    lh_thread_rec *r = lh_thread_record(t);
    if (r != NULL) lh_owner_add(&r->layout_iterations, 1);
}

/* A streak reached the limit: report it, unless a deeper object of the loop will. */
static LH_NOINLINE __attribute__((cold)) void streak_reached(lh_tls *t, lh_slot *s, unsigned hook,
                                                             const void *object, uint32_t streak,
                                                             uint32_t calls, uint64_t size_then, uint64_t size_now) {
    t->guard++;
    if (defer_to_deeper(t, object, hook)) {
        t->guard--;
        return;
    }
    atomic_store_explicit(&s->reported_streak, 1, memory_order_relaxed);
    lh_breach b = {
        .kind = "layout-streak",
        .hook = hook,
        .object = object,
        .count = streak,
        .threshold = lh_proc.cfg.streak,
        .count_unit = "hot layout iterations in a row",
        .last_iteration_layouts = calls,
        .size_before = size_then,
        .size_after = size_now,
    };
    if (gather_members(t, LH_LOOP_STREAK, object, hook, &b)) lh_breach_report(t, &b);
    t->guard--;
}

/* The object's first layout in this iteration (`size_now`: its size now): judge its previous layout
 * iteration, in which it was laid out `calls` times. This is the per-frame path of every view (a
 * toolkit lays each one out once per frame), so it stays lean and calls nothing: it returns true
 * when the streak detector has more to do (the streak reached a member's count or the limit), which
 * streak_event does. Slot detector fields: relaxed (see lh_table.h); the thread laying the object
 * out owns them. `*size_then` receives the size of the previous layout iteration. */
static inline bool roll(lh_tls *t, lh_slot *s, uint32_t calls, uint64_t size_now, uint64_t *size_then_out) {
    uint64_t iter = t->layout_iter;
    uint64_t last_iter = atomic_load_explicit(&s->last_layout_iter, memory_order_relaxed);
    uint64_t size_then = atomic_load_explicit(&s->geometry, memory_order_relaxed);
    *size_then_out = size_then;
    bool linked = atomic_load_explicit(&s->linked, memory_order_relaxed) != 0; /* last_iter's link */
    bool linked_now = last_iter != 0 && iter == last_iter + 1 && t->layout_linked;
    atomic_store_explicit(&s->linked, linked_now ? 1u : 0u, memory_order_relaxed);
    atomic_store_explicit(&s->last_layout_iter, iter, memory_order_relaxed);
    atomic_store_explicit(&s->geometry, size_now, memory_order_relaxed);
    lh_table_note_size(&lh_proc.table, s, iter, size_now);
    if (last_iter == 0) return false; /* a new object (or one new to this detector): nothing to judge */
    bool resized = size_now != LH_GEOMETRY_NONE && size_then != LH_GEOMETRY_NONE && size_now != size_then;
    uint32_t streak = atomic_load_explicit(&s->streak, memory_order_relaxed);
    if (calls <= 1 && !resized) { /* not hot: the streak ends */
        if (streak != 0) {
            atomic_store_explicit(&s->streak, 0, memory_order_relaxed);
            atomic_store_explicit(&s->reported_streak, 0, memory_order_relaxed);
        }
        return false;
    }
    streak = linked && streak > 0 ? streak + 1 : 1;
    atomic_store_explicit(&s->streak, streak, memory_order_relaxed);
    return streak == lh_proc.streak_member_at ||
           (streak >= lh_proc.cfg.streak && atomic_load_explicit(&s->reported_streak, memory_order_relaxed) == 0);
}

/* The type name of a newly seen object (static text of its toolkit), for the summary. */
void lh_layout_named(lh_tls *t, lh_slot *s, unsigned hook, const void *object) {
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    t->guard++; /* the toolkit's getter */
    const char *type = tk != NULL && tk->type_name != NULL ? tk->type_name(object) : NULL;
    t->guard--;
    atomic_store_explicit(&s->type, type, memory_order_relaxed); /* read at exit: relaxed */
}

static LH_NOINLINE __attribute__((cold)) void note_max(lh_tls *t, lh_thread_rec *r, unsigned hook, const void *object,
                                 uint32_t count) {
    /* Owner-only fields, read by the summary writer: relaxed stores. */
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    atomic_store_explicit(&r->max_count, count, memory_order_relaxed);
    atomic_store_explicit(&r->max_hook, hook, memory_order_relaxed);
    atomic_store_explicit(&r->max_object, (uintptr_t)object, memory_order_relaxed);
    atomic_store_explicit(&r->max_type, tk != NULL && tk->type_name != NULL ? tk->type_name(object) : NULL,
                          memory_order_relaxed);
    atomic_store_explicit(&r->max_iteration, t->iteration, memory_order_relaxed);
}

static LH_NOINLINE __attribute__((cold)) void storm(lh_tls *t, unsigned hook, const void *object, uint32_t count) {
    lh_breach b = {
        .kind = "layout-storm",
        .hook = hook,
        .object = object,
        .count = count,
        .threshold = lh_proc.cfg.threshold,
        .count_unit = "layouts in one iteration",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
    };
    if (gather_members(t, LH_LOOP_STORM, object, hook, &b)) lh_breach_report(t, &b);
}

/* ---- counting --------------------------------------------------------------------------------
 * lh_layout_count's common path is inline in lh_preload.h (lh_layout_count_inline); these are its
 * other cases. */

uint64_t lh_layout_size_of(unsigned hook, const void *object) {
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    if (tk == NULL || tk->size_of == NULL) return LH_GEOMETRY_NONE;
    lh_tls *t = &lh_tls_data;
    t->guard++;
    uint64_t size = tk->size_of(object); /* the adapter's getters leave errno alone */
    t->guard--;
    return size;
}

/* What roll left to do: the object joins the loop's members, or its streak reached the limit. The
 * slot holds the new streak and size. Returns `s` (a tail call of lh_layout_rolled). */
static LH_NOINLINE __attribute__((cold)) lh_slot *streak_event(lh_tls *t, lh_slot *s, unsigned hook, const void *object,
                                                               uint32_t calls, uint64_t size_then) {
    uint32_t streak = atomic_load_explicit(&s->streak, memory_order_relaxed);
    if (streak == lh_proc.streak_member_at) note_member(t, LH_LOOP_STREAK, s, hook, object);
    if (streak >= lh_proc.cfg.streak && atomic_load_explicit(&s->reported_streak, memory_order_relaxed) == 0)
        streak_reached(t, s, hook, object, streak, calls, size_then, atomic_load_explicit(&s->geometry, memory_order_relaxed));
    lh_thread_rec *r = t->rec;
    if (r != NULL && atomic_load_explicit(&r->max_count, memory_order_relaxed) == 0) return lh_layout_noted(t, s, hook, object, 1);
    return s;
}

lh_slot *lh_layout_rolled(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint64_t from, uint64_t size) {
    /* Calls nothing on its common path (and so needs no guard); the rest are tail calls. */
    uint64_t size_then;
    if (lh_hooks[hook].streak && roll(t, s, lh_count_of(from), size, &size_then)) /* (GTK's measure hooks only count) */
        return streak_event(t, s, hook, object, lh_count_of(from), size_then);
    lh_thread_rec *r = t->rec;
    if (LH_UNLIKELY(r != NULL && atomic_load_explicit(&r->max_count, memory_order_relaxed) == 0))
        return lh_layout_noted(t, s, hook, object, 1); /* the thread's first counted layout */
    return s;
}

lh_slot *lh_layout_noted(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint32_t count) {
    t->guard++;
    if (count == lh_proc.storm_at)
        storm(t, hook, object, count);
    else if (count == lh_proc.storm_member_at)
        note_member(t, LH_LOOP_STORM, s, hook, object);
    lh_thread_rec *r = t->rec;
    if (r != NULL && count > atomic_load_explicit(&r->max_count, memory_order_relaxed)) note_max(t, r, hook, object, count);
    t->guard--;
    return s;
}

lh_slot *lh_layout_probed(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    lh_slot *s = lh_table_slot_probe(&lh_proc.table, lh_table_key(object, hook));
    return s != NULL ? lh_layout_count_in(t, s, hook, object, size) : NULL;
}

lh_slot *lh_layout_first_of_iteration(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    int saved = errno;
    t->guard++;
    if (t->epoch == 0) lh_thread_new_iteration(t, true); /* laying out before any iteration */
    begin_layout_iteration(t);
    t->guard--;
    errno = saved;
    return lh_layout_count(t, hook, object, size);
}

/* For callers that are not a layout wrapper (GTK's class-vfunc wrappers). */
lh_slot *lh_layout_count(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    return lh_layout_count_inline(t, hook, object, size);
}
