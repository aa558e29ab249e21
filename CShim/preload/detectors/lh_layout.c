/*
 * lh_layout.c — counting layout calls per (object, hook) per iteration, and the two detectors.
 *
 * Runs inside every layout hook, on the host's thread, possibly inside a signal handler: no
 * allocation, no locks, no system call on the common path (one table lookup, one relaxed store).
 * That path is inline in every layout wrapper (lh_layout_count_inline in lh_layout.h) and calls
 * nothing, so it holds no guard; this file has the other cases (first layout of an iteration,
 * first layout of an object in an iteration, a count a detector looks at, a breach). Those that
 * call out hold the guard; errno is saved where what they call can change it (the adapters'
 * getters do not; the breach path keeps it itself).
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
 *     The streak is the fallback for toolkits whose layout requests are not recorded: once a
 *     toolkit's requests are (lh_requests_recorded), its loops are judged by cause instead
 *     (detectors/lh_relayout.c, layout-loop) and the streak reports nothing for it.
 */
#include <string.h>

#include "lh_breach.h"
#include "lh_layout.h"

__thread lh_layout_tls lh_layout_tls_data __attribute__((tls_model("initial-exec")));
lh_layout_limits lh_layout_limit;

/* Each thread record's state (by lh_record_index), kept after its thread ends for the summary. */
static lh_layout_thread threads[LH_THREAD_RECORDS] LH_LARGE_TABLE(layout_threads);

/* ---- loop members ----------------------------------------------------------------------------
 * Several objects take part in one loop (a label resizing its parent: both relaid out). An object
 * past half a detector's limit (lh_layout_limit.storm_member_at, streak_member_at) is remembered in
 * the thread's layout state; when one of them breaches, the others are listed in its report and their own
 * crossings join it instead of making reports of their own. Owner-thread data only. */

static lh_member *find_member(lh_layout_thread *r, int kind, const void *object, unsigned hook) {
    for (size_t i = 0; i < LH_MEMBERS; i++) {
        lh_member *m = &r->members[i];
        if (m->kind == kind && m->object == object && m->hook == hook) return m;
    }
    return NULL;
}

static LH_NOINLINE __attribute__((cold)) void note_member(lh_tls *t, int kind, lh_slot *s, unsigned hook, const void *object) {
    lh_layout_thread *r = lh_layout_tls_data.thread;
    if (r == NULL) return;
    LH_GUARD_ONLY(t); /* the adapter's getters below leave errno alone */
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
}

/* The member's current count (storm: layouts this iteration; streak: hot iterations in a row), or
 * 0 when it is no longer part of what the thread is doing now. */
static uint64_t member_count_now(const lh_tls *t, const lh_member *m) {
    /* relaxed: the slot belongs to objects of this thread (see lh_table.h). */
    if (m->kind == LH_LOOP_STORM) {
        uint64_t w = lh_load_relaxed(&m->slot->count);
        return lh_epoch_of(w) == (t->epoch & LH_EPOCH_MASK) ? lh_count_of(w) : 0;
    }
    uint64_t last = lh_load_relaxed(&m->slot->last_layout_iter);
    return last + 1 >= lh_layout_tls_data.iter ? lh_load_relaxed(&m->slot->streak) : 0;
}

/* For a breach of (object, hook): false when the object already joined this iteration's report.
 * Otherwise fills the record's report_members with the rest of the loop, marks them as joined
 * (storm: for this iteration; streak: for as long as their streak lasts) and returns true. */
static bool gather_members(lh_tls *t, int kind, const void *object, unsigned hook, lh_breach *b) {
    lh_layout_thread *r = lh_layout_tls_data.thread;
    b->members = NULL;
    b->member_count = 0;
    if (r == NULL) return true;
    lh_member *self = find_member(r, kind, object, hook);
    if (self != NULL && kind == LH_LOOP_STORM && self->joined_epoch == t->epoch) {
        lh_breach_joined();
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < LH_MEMBERS; i++) {
        lh_member *m = &r->members[i];
        if (m->kind != kind) continue;
        uint64_t count = member_count_now(t, m);
        if (count == 0) continue;
        m->joined_epoch = t->epoch;
        if (kind == LH_LOOP_STREAK) lh_store_relaxed(&m->slot->reported_streak, 1);
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
    const lh_layout_thread *r = lh_layout_tls_data.thread;
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

/* The first layout call of the thread's current epoch: is it back-to-back with the last? */
static LH_NOINLINE __attribute__((cold)) void begin_layout_iteration(lh_tls *t) {
    lh_layout_tls *l = &lh_layout_tls_data;
    const lh_config *cfg = &lh_proc.cfg;
    uint64_t start = t->epoch_start_ns;
    int32_t waited = lh_take_longest_wait(t);
    bool slept_little = waited >= 0 && (uint64_t)waited <= cfg->streak_gap_ms;
    bool started_soon = start - l->iter_start_ns <= cfg->streak_gap_ms * 1000000u;
    l->linked = l->iter > 0 && (slept_little || started_soon);
    l->iter++;
    l->iter_start_ns = start;
    l->epoch = t->epoch;
    l->calls = 0;
    if (lh_thread_record(t) != NULL && l->thread != NULL) lh_owner_add(&l->thread->layout_iterations, 1);
}

/* A streak reached the limit: report it, unless a deeper object of the loop will. */
static LH_NOINLINE __attribute__((cold)) void streak_reached(lh_tls *t, lh_slot *s, unsigned hook,
                                                             const void *object, uint32_t streak,
                                                             uint32_t calls, uint64_t size_then, uint64_t size_now) {
    LH_GUARDED(t);
    /* A toolkit whose layout requests are recorded has its loops judged by cause (the relayout
     * detector, layout-loop): a streak of sizes changing frame after frame is then not a loop by
     * itself (an animation is one too). */
    if (lh_requests_recorded(lh_hooks[hook].toolkit)) {
        lh_store_relaxed(&s->reported_streak, 1);
        return;
    }
    if (defer_to_deeper(t, object, hook)) return;
    lh_store_relaxed(&s->reported_streak, 1);
    lh_breach b = {
        .kind = LH_KIND_LAYOUT_STREAK,
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
}

/* The object's first layout in this iteration (`size_now`: its size now): judge its previous layout
 * iteration, in which it was laid out `calls` times. This is the per-frame path of every view (a
 * toolkit lays each one out once per frame), so it stays lean and calls nothing: it returns true
 * when the streak detector has more to do (the streak reached a member's count or the limit), which
 * streak_event does. Slot detector fields: relaxed (see lh_table.h); the thread laying the object
 * out owns them. `*size_then` receives the size of the previous layout iteration. */
static inline bool roll(lh_slot *s, uint32_t calls, uint64_t size_now, uint64_t *size_then_out) {
    const lh_layout_tls *l = &lh_layout_tls_data;
    uint64_t iter = l->iter;
    uint64_t last_iter = lh_load_relaxed(&s->last_layout_iter);
    uint64_t size_then = lh_load_relaxed(&s->geometry);
    *size_then_out = size_then;
    bool linked = lh_load_relaxed(&s->linked) != 0; /* last_iter's link */
    /* This iteration's link: back-to-back with the object's last one. (Without branches; a new
     * object's link is never read: its streak is 0.) */
    lh_store_relaxed(&s->linked, (uint32_t)(iter - last_iter == 1) & (uint32_t)l->linked);
    lh_store_relaxed(&s->last_layout_iter, iter);
    lh_store_relaxed(&s->geometry, size_now);
    lh_table_note_size(&lh_proc.table, s, iter, size_now);
    if (LH_UNLIKELY(last_iter == 0)) return false; /* a new object (or one new to this detector): nothing to judge */
    bool resized = LH_UNLIKELY(size_now != size_then) && size_now != LH_GEOMETRY_NONE && size_then != LH_GEOMETRY_NONE;
    uint32_t streak = lh_load_relaxed(&s->streak);
    if (LH_LIKELY(calls <= 1 && !resized)) { /* not hot: the streak ends */
        if (streak != 0) {
            lh_store_relaxed(&s->streak, 0);
            lh_store_relaxed(&s->reported_streak, 0);
        }
        return false;
    }
    streak = linked && streak > 0 ? streak + 1 : 1;
    lh_store_relaxed(&s->streak, streak);
    return streak == lh_layout_limit.streak_member_at ||
           (streak >= lh_proc.cfg.streak && lh_load_relaxed(&s->reported_streak) == 0);
}

/* ---- objects and classes tracked ----------------------------------------------------------------
 * How many distinct objects were laid out over the run (a destroyed one and a new one at its
 * address are two) and of how many classes, so that a user can see LoopHunter saw the program. Both
 * are counted when an object is first counted through a hook (lh_layout_named: the cold path of a
 * new or forgotten slot, never the per-call one): an object is new when no other layout hook has
 * counts for it; a class is new when its type name (static text of its toolkit: one pointer per
 * class) is not yet in `classes`, a set claimed by compare-and-swap (lock-free; when it is full,
 * classes_full says the count is a lower bound). Relaxed: counters and a set of pointers only. */
#define LH_CLASSES 2048
static _Atomic(const char *) classes[LH_CLASSES] LH_LARGE_TABLE(layout_classes);
static _Atomic uint64_t objects_seen, classes_seen, classes_full;

static bool other_hook_has(const void *object, unsigned hook) {
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++) {
        if (h == hook || !lh_hook_counts_layouts(h)) continue;
        const lh_slot *s = lh_table_find(&lh_proc.table, object, h);
        if (s != NULL && lh_load_relaxed(&s->total) != 0) return true;
    }
    return false;
}

static void note_class(const char *type) {
    if (type == NULL) return;
    uint64_t h = lh_table_hash((uint64_t)(uintptr_t)type);
    for (size_t n = 0; n < 64; n++) {
        _Atomic(const char *) *cell = &classes[(h + n) % LH_CLASSES];
        const char *seen = lh_load_relaxed(cell);
        if (seen == type) return;
        if (seen != NULL) continue;
        /* relaxed: the pointer is the whole entry. */
        if (lh_cas_relaxed(cell, &seen, type)) {
            lh_add_relaxed(&classes_seen, 1);
            return;
        }
        if (seen == type) return;
    }
    lh_store_relaxed(&classes_full, 1);
}

/* The type name of a newly seen object (static text of its toolkit), for the summary. */
void lh_layout_named(lh_tls *t, lh_slot *s, unsigned hook, const void *object) {
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    const char *type;
    {
        LH_GUARD_ONLY(t); /* the adapter's getters leave errno alone */
        type = tk != NULL && tk->type_name != NULL ? tk->type_name(object) : NULL;
    }
    lh_store_relaxed(&s->type, type); /* read at exit: relaxed */
    if (!other_hook_has(object, hook)) lh_add_relaxed(&objects_seen, 1);
    note_class(type);
}

static LH_NOINLINE __attribute__((cold)) void storm(lh_tls *t, unsigned hook, const void *object, uint32_t count) {
    lh_breach b = {
        .kind = LH_KIND_LAYOUT_STORM,
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
 * lh_layout_count's common path is inline in lh_layout.h (lh_layout_count_inline); these are its
 * other cases. */

uint64_t lh_layout_size_of(unsigned hook, const void *object) {
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    if (tk == NULL || tk->size_of == NULL) return LH_GEOMETRY_NONE;
    LH_GUARD_ONLY(&lh_tls_data); /* the adapter's getters leave errno alone */
    return tk->size_of(object);
}

/* What roll left to do: the object joins the loop's members, or its streak reached the limit. The
 * slot holds the new streak and size. Returns `s` (a tail call of lh_layout_rolled). */
static LH_NOINLINE __attribute__((cold)) lh_slot *streak_event(lh_tls *t, lh_slot *s, unsigned hook, const void *object,
                                                               uint32_t calls, uint64_t size_then) {
    uint32_t streak = lh_load_relaxed(&s->streak);
    if (streak == lh_layout_limit.streak_member_at) note_member(t, LH_LOOP_STREAK, s, hook, object);
    if (streak >= lh_proc.cfg.streak && lh_load_relaxed(&s->reported_streak) == 0)
        streak_reached(t, s, hook, object, streak, calls, size_then, lh_load_relaxed(&s->geometry));
    lh_layout_thread *r = lh_layout_tls_data.thread;
    if (r != NULL && lh_load_relaxed(&r->max_count) == 0) return lh_layout_noted(t, s, hook, object, 1);
    return s;
}

lh_slot *lh_layout_rolled(lh_slot *s, const void *object, uint64_t from, uint64_t size) {
    /* Calls nothing on its common path (and so needs no guard); the rest are tail calls. The
     * thread state and the hook (the slot key's) are found again there: with four arguments the
     * common path has registers enough for its own values (five callee-saved registers saved and
     * restored with six arguments, three with four). */
    uint64_t size_then;
    if (roll(s, lh_count_of(from), size, &size_then)) {
        unsigned hook = lh_table_key_hook(lh_load_relaxed(&s->key));
        return streak_event(&lh_tls_data, s, hook, object, lh_count_of(from), size_then);
    }
    return lh_layout_first_count(s, object);
}

lh_slot *lh_layout_noted(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint32_t count) {
    LH_GUARD_ONLY(t); /* the adapter's getters leave errno alone; the breach path keeps it itself */
    if (count == lh_layout_limit.storm_at)
        storm(t, hook, object, count);
    else if (count == lh_layout_limit.storm_member_at)
        note_member(t, LH_LOOP_STORM, s, hook, object);
    lh_layout_thread *r = lh_layout_tls_data.thread;
    if (r != NULL && count > lh_load_relaxed(&r->max_count)) lh_layout_note_max(t, r, s, hook, object, count);
    return s;
}

lh_slot *lh_layout_probed(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    lh_slot *s = lh_table_slot_probe(&lh_proc.table, lh_table_key(object, hook));
    return s != NULL ? lh_layout_count_in(t, s, hook, object, size) : NULL;
}

lh_slot *lh_layout_first_of_epoch(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    {
        LH_GUARDED(t);
        if (t->epoch == 0) lh_thread_new_iteration(t, true); /* laying out before any iteration */
        begin_layout_iteration(t);
    }
    return lh_layout_count(t, hook, object, size);
}

lh_slot *lh_layout_count_slot(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint64_t size) {
    lh_layout_note_call(t, &lh_layout_tls_data, hook);
    return lh_layout_count_in(t, s, hook, object, size);
}

/* Every case of counting, for callers that are not a layout wrapper (GTK's class-vfunc wrappers,
 * when lh_layout_count_common did not apply). */
lh_slot *lh_layout_count(lh_tls *t, unsigned hook, const void *object, uint64_t size) {
    return lh_layout_count_inline(t, hook, object, size);
}

/* ---- the detector's row (lh_detectors.def) ----------------------------------------------------- */

static uint32_t half_of(uint64_t limit) { return limit / 2 >= 2 ? (uint32_t)(limit / 2) : 2; }

static int init(void) {
    lh_layout_limit.storm_at = lh_proc.cfg.threshold + 1;
    lh_layout_limit.storm_member_at = half_of(lh_proc.cfg.threshold);
    lh_layout_limit.streak_member_at = half_of(lh_proc.cfg.streak);
    return 0;
}

static void after_fork(void) {
    /* Only the forking thread lives on, with a record claimed anew when it next needs one. The
     * child counts its own objects and classes (the table is cleared too). */
    memset(threads, 0, sizeof threads);
    memset(classes, 0, sizeof classes);
    lh_store_relaxed(&objects_seen, 0);
    lh_store_relaxed(&classes_seen, 0);
    lh_store_relaxed(&classes_full, 0);
    memset(&lh_layout_tls_data, 0, sizeof lh_layout_tls_data);
}

static void thread_start(lh_tls *t, size_t index) {
    (void)t;
    lh_layout_thread *lt = &threads[index];
    memset(lt, 0, sizeof *lt); /* the record is ours (claimed by CAS); nobody else writes it */
    lh_layout_tls_data.thread = lt;
}

static void thread_exit(lh_tls *t, size_t index) {
    (void)t;
    (void)index;
    lh_layout_tls_data.thread = NULL;
}

/* The epoch's layout iteration and calls (0 when it laid nothing out). */
static void fill_history(const lh_tls *t, lh_hist *h) {
    const lh_layout_tls *l = &lh_layout_tls_data;
    bool laid_out = l->epoch == t->epoch && t->epoch != 0;
    h->layout_iter = laid_out ? l->iter : 0;
    h->layout_calls = laid_out ? l->calls : 0;
}

static void epoch_end(lh_tls *t, lh_hist *h) {
    if (h != NULL) fill_history(t, h);
}

/* Layout calls of a record: the sum of its layout-counting hooks (the runtime counts every hook). */
static uint64_t record_layout_calls(const lh_thread_rec *r) {
    uint64_t sum = 0;
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++)
        if (lh_hook_counts_layouts(h)) sum += lh_load_relaxed(&r->hook_calls[h]);
    return sum;
}

static void thread_summary(lh_json *j, size_t index, bool live) {
    (void)live;
    const lh_layout_thread *lt = &threads[index];
    lh_json_u64(j, "layout_iterations", lh_load_relaxed(&lt->layout_iterations));
    lh_json_u64(j, "layout_calls", record_layout_calls(&lh_proc.records[index]));
    lh_json_u64(j, "max_count", lh_load_relaxed(&lt->max_count));
}

/* The highest per-iteration count of one object over all threads. */
static void max_json(lh_json *j) {
    size_t high = lh_load_acquire(&lh_proc.records_high), best = high;
    for (size_t i = 0; i < high; i++) {
        if (lh_load_acquire(&lh_proc.records[i].state) == LH_REC_FREE) continue;
        if (best == high || lh_load_relaxed(&threads[i].max_count) > lh_load_relaxed(&threads[best].max_count)) best = i;
    }
    if (best == high || lh_load_relaxed(&threads[best].max_count) == 0) {
        lh_json_null(j, "max");
        return;
    }
    const lh_layout_thread *lt = &threads[best];
    uint32_t hook = lh_load_relaxed(&lt->max_hook);
    lh_json_begin_object(j, "max");
    lh_json_u64(j, "count", lh_load_relaxed(&lt->max_count));
    lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
    lh_json_i64(j, "tid", lh_load_relaxed(&lh_proc.records[best].tid));
    lh_json_u64(j, "iteration", lh_load_relaxed(&lt->max_iteration));
    lh_json_begin_object(j, "object");
    lh_json_hex(j, "address", lh_load_relaxed(&lt->max_object));
    char type[LH_OBJECT_TEXT];
    lh_json_string(j, "type", lh_saved_text(lh_load_relaxed(&lt->max_type), type, sizeof type));
    lh_json_end_object(j);
    lh_json_end_object(j);
}

#define TOP_OBJECTS 64

/* The destroyed objects kept (lh_table.h), most first: at most LH_GONE_KEPT, each marked. Chosen
 * by selection (no copy of the list on the stack): each pass takes the highest rank below the last. */
static void gone_json(lh_json *j, const lh_gone_list *list, void (*entry)(lh_json *j, const lh_gone_copy *g)) {
    uint64_t last_rank = UINT64_MAX;
    size_t last_index = LH_GONE_KEPT;
    for (size_t emitted = 0; emitted < LH_GONE_KEPT; emitted++) {
        lh_gone_copy best = {0}, g;
        size_t best_index = LH_GONE_KEPT;
        for (size_t i = 0; i < LH_GONE_KEPT; i++) {
            if (!lh_gone_read(list, i, &g)) continue;
            /* strictly after (last_rank, last_index) in (rank desc, index asc) order */
            bool after = g.rank < last_rank || (g.rank == last_rank && i > last_index);
            if (!after) continue;
            if (best_index == LH_GONE_KEPT || g.rank > best.rank) {
                best = g;
                best_index = i;
            }
        }
        if (best_index == LH_GONE_KEPT) return;
        entry(j, &best);
        last_rank = best.rank;
        last_index = best_index;
    }
}

static void gone_object_json(lh_json *j, const lh_gone_copy *g) {
    unsigned hook = (unsigned)(g->key >> 56) - 1;
    lh_json_begin_object(j, NULL);
    lh_json_hex(j, "address", g->key & ((UINT64_C(1) << 56) - 1));
    char type[LH_OBJECT_TEXT];
    lh_json_string(j, "type", lh_saved_text(g->type, type, sizeof type));
    lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
    lh_json_u64(j, "calls", g->calls);
    lh_json_bool(j, "destroyed", true);
    lh_json_end_object(j);
}

/* The objects laid out most over the run (per hook), from the table: address, type, calls. */
static void objects_json(lh_json *j) {
    const lh_slot *top[TOP_OBJECTS];
    size_t n = 0;
    for (uint64_t i = 0; i < lh_proc.table.capacity && lh_proc.table.slots != NULL; i++) {
        const lh_slot *s = &lh_proc.table.slots[i];
        if (lh_load_acquire(&s->key) == 0) continue; /* acquire: pairs with the claiming CAS */
        uint64_t total = lh_load_relaxed(&s->total);
        if (total == 0) continue;
        if (n < TOP_OBJECTS) {
            top[n++] = s;
        } else if (total > lh_load_relaxed(&top[n - 1]->total)) {
            top[n - 1] = s;
        } else {
            continue;
        }
        for (size_t k = n - 1; k > 0 && lh_load_relaxed(&top[k]->total) > lh_load_relaxed(&top[k - 1]->total); k--) {
            const lh_slot *tmp = top[k];
            top[k] = top[k - 1];
            top[k - 1] = tmp;
        }
    }
    lh_json_begin_array(j, "top_objects");
    for (size_t k = 0; k < n; k++) {
        uint64_t key = lh_load_relaxed(&top[k]->key);
        unsigned hook = (unsigned)(key >> 56) - 1;
        lh_json_begin_object(j, NULL);
        lh_json_hex(j, "address", key & ((UINT64_C(1) << 56) - 1));
        char type[LH_OBJECT_TEXT];
        lh_json_string(j, "type", lh_saved_text(lh_load_relaxed(&top[k]->type), type, sizeof type));
        lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
        lh_json_u64(j, "calls", lh_load_relaxed(&top[k]->total));
        lh_json_bool(j, "destroyed", false);
        lh_json_end_object(j);
    }
    gone_json(j, &lh_proc.table.gone_laid_out, gone_object_json);
    lh_json_end_array(j);
}

static void summary(lh_json *j) {
    max_json(j);
    objects_json(j);
    lh_json_u64(j, "objects_destroyed", lh_load_relaxed(&lh_proc.table.destroyed));
    lh_json_u64(j, "objects_tracked", lh_load_relaxed(&objects_seen));
    lh_json_u64(j, "classes_tracked", lh_load_relaxed(&classes_seen));
    lh_json_bool(j, "classes_truncated", lh_load_relaxed(&classes_full) != 0);
}

/* Every report written on this thread names the thread's layout iteration. */
static void report(lh_tls *t, const lh_breach *b, lh_report_data *r, void *scratch) {
    (void)t;
    (void)scratch;
    if (b->thread == NULL) r->layout_iteration = lh_layout_tls_data.iter;
}

static const char unloaded_text[] = "(unloaded)";

/* The per-thread maximum's type name pointed into an unloaded module. */
static void module_unloaded(bool (*gone)(const void *address)) {
    /* Class names that pointed there stay counted; the cells are emptied of the stale pointers so
     * that a class at the same address later is another (relaxed: a set of pointers). */
    for (size_t i = 0; i < LH_CLASSES; i++) {
        const char *type = lh_load_relaxed(&classes[i]);
        if (type != NULL && gone(type)) lh_store_relaxed(&classes[i], (const char *)unloaded_text);
    }
    size_t high = lh_load_acquire(&lh_proc.records_high);
    for (size_t i = 0; i < high; i++) {
        /* relaxed: read at exit by the summary writer. */
        const char *type = lh_load_relaxed(&threads[i].max_type);
        if (type != NULL && gone(type)) lh_store_relaxed(&threads[i].max_type, unloaded_text);
    }
}

const lh_detector lh_detector_layout = {
    .name = "layout",
    .init = init,
    .after_fork = after_fork,
    .thread_start = thread_start,
    .thread_exit = thread_exit,
    .epoch_end = epoch_end,
    .epoch_so_far = fill_history,
    .module_unloaded = module_unloaded,
    .summary = summary,
    .thread_summary = thread_summary,
    .report = report,
};
