/*
 * lh_layout.h — the layout detector's inputs: counting one layout of an object (inline, the
 * hottest path after malloc: it runs in every layout wrapper) and its per-thread state.
 *
 * Runs inside every layout hook, on the host's thread, possibly inside a signal handler: the
 * common path calls nothing, takes no guard, allocates nothing (one table lookup, relaxed stores);
 * the other cases are calls into lh_layout.c, which hold the guard while they call out.
 */
#ifndef LH_LAYOUT_H
#define LH_LAYOUT_H

#include "lh_runtime.h"

#define LH_MEMBERS 8

enum { LH_LOOP_STORM = 1, LH_LOOP_STREAK = 2 };

/* An object past half a detector's limit: if a breach follows on the same thread, it is part of the
 * same loop (listed in the report, and its own crossing joins that report instead of making one). */
typedef struct lh_member {
    int kind;                     /* 0 free, LH_LOOP_STORM, LH_LOOP_STREAK */
    lh_slot *slot;                /* its table slot: the live count / streak */
    const void *object;
    unsigned hook;
    uint64_t joined_epoch;        /* storm: the epoch whose report it joined */
    unsigned depth;               /* ancestors above it when noted */
    char type[64];
    char name[64];
} lh_member;

/* The detector's state of one thread record (kept after the thread ends, for the summary). The
 * counters are written by the thread, read by the summary writer: relaxed. */
typedef struct lh_layout_thread {
    _Atomic uint64_t layout_iterations;
    _Atomic uint32_t max_count;   /* highest per-iteration count of one object */
    _Atomic uint32_t max_hook;
    _Atomic uintptr_t max_object;
    _Atomic(const char *) max_type;
    _Atomic uint64_t max_iteration;
    uint32_t members_next;        /* owner-only: ring index */
    lh_member members[LH_MEMBERS]; /* owner-only */
    lh_report_member report_members[LH_MEMBERS]; /* owner-only: the members of the report being written */
} lh_layout_thread;

/* The thread's layout state (initial-exec TLS). */
typedef struct lh_layout_tls {
    uint64_t epoch;               /* the runtime epoch of the thread's last layout; 0: none */
    uint64_t iter;                /* the thread's layout iterations (epochs that laid something out) */
    uint64_t iter_start_ns;
    uint32_t calls;               /* layouts counted in `epoch` */
    bool linked;                  /* this layout iteration is back-to-back with the previous one */
    lh_layout_thread *thread;     /* the thread record's state; NULL without a record */
} lh_layout_tls;

extern __thread lh_layout_tls lh_layout_tls_data __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* Limits derived from the configuration at start-up: the count that is a storm
 * (LOOPHUNTER_THRESHOLD + 1), and the counts at which an object joins a loop's members (half of
 * each detector's limit, at least 2). */
typedef struct lh_layout_limits {
    uint64_t storm_at;
    uint32_t storm_member_at, streak_member_at;
} lh_layout_limits;
extern lh_layout_limits lh_layout_limit LH_HIDDEN;

/* Counts one layout of `object` through `hook`. `size`: the size being given to the object
 * (width << 32 | height), or LH_GEOMETRY_NONE to ask the hook's toolkit adapter when the streak
 * detector needs it. Returns the object's table slot (NULL when the table is full): allocations
 * made while the layout runs are charged to it. */
lh_slot *lh_layout_count(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;
/* The count once lh_layout_count_common found the object's home slot `s` in the thread's epoch but
 * left the count to the detectors. */
lh_slot *lh_layout_count_slot(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;

/* The cases of counting that leave its common path: the thread's first layout of an epoch, an
 * object not in its home slot, an object's first layout of an epoch (the streak detector's turn),
 * a count that a detector looks at. Each returns the object's slot. */
lh_slot *lh_layout_first_of_epoch(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;
lh_slot *lh_layout_probed(lh_tls *t, unsigned hook, const void *object, uint64_t size) LH_HIDDEN;
/* The object's first count of an iteration in slot `s`, through a hook the streak detector watches
 * (the slot's key names it): `from` the slot's count word before, `size` the object's size now. */
lh_slot *lh_layout_rolled(lh_slot *s, const void *object, uint64_t from, uint64_t size) LH_HIDDEN;
uint64_t lh_layout_size_of(unsigned hook, const void *object) LH_HIDDEN;
void lh_layout_named(lh_tls *t, lh_slot *s, unsigned hook, const void *object) LH_HIDDEN;
lh_slot *lh_layout_noted(lh_tls *t, lh_slot *s, unsigned hook, const void *object, uint32_t count) LH_HIDDEN;

/* A new highest per-iteration count of one object on this thread, for the summary. Inline and
 * without calls: in a storm every call is a new high. The type name is the one the slot keeps
 * (lh_layout_named stored it at the object's first count). Owner-only fields, read by the summary
 * writer: relaxed stores. */
static inline __attribute__((always_inline)) void lh_layout_note_max(const lh_tls *t, lh_layout_thread *lt, const lh_slot *s,
                                                                     unsigned hook, const void *object, uint32_t count) {
    lh_store_relaxed(&lt->max_count, count);
    lh_store_relaxed(&lt->max_hook, hook);
    lh_store_relaxed(&lt->max_object, (uintptr_t)object);
    lh_store_relaxed(&lt->max_type, lh_load_relaxed(&s->type));
    lh_store_relaxed(&lt->max_iteration, t->iteration);
}

/* One layout call of the thread's epoch: its history's count and its record's per-hook count. */
static inline __attribute__((always_inline)) void lh_layout_note_call(const lh_tls *t, lh_layout_tls *l, unsigned hook) {
    l->calls++;
    lh_thread_rec *r = t->rec;
    if (LH_LIKELY(r != NULL)) lh_owner_add(&r->hook_calls[hook], 1);
}

/* After an object's first count of an iteration: the thread's first counted layout ever is the
 * summary's first highest count. The hook is the slot key's, read only then (a caller without the
 * hook at hand then keeps no register for it). */
static inline __attribute__((always_inline)) lh_slot *lh_layout_first_count(lh_slot *s, const void *object) {
    lh_layout_thread *r = lh_layout_tls_data.thread;
    if (LH_LIKELY(r != NULL) && LH_UNLIKELY(lh_load_relaxed(&r->max_count) == 0))
        return lh_layout_noted(&lh_tls_data, s, lh_table_key_hook(lh_load_relaxed(&s->key)), object, 1);
    return s;
}

/* Counts the call in slot `s`; the detectors' cases are calls out. */
static inline __attribute__((always_inline)) lh_slot *lh_layout_count_in(lh_tls *t, lh_slot *s, unsigned hook,
                                                                         const void *object, uint64_t size) {
    bool rolled;
    uint64_t from = 0;
    uint32_t count = lh_slot_count(s, t->epoch, &rolled, &from);
    if (LH_UNLIKELY(rolled)) {
        /* The streak detector compares the size with the last iteration's (asked here, so that
         * lh_layout_rolled calls nothing on its common path). */
        if (LH_UNLIKELY(from == 0)) lh_layout_named(t, s, hook, object);
        if (!lh_hooks[hook].streak) return lh_layout_first_count(s, object); /* (GTK's measure hooks only count) */
        if (size == LH_GEOMETRY_NONE) size = lh_layout_size_of(hook, object);
        return lh_layout_rolled(s, object, from, size);
    }
    if (LH_UNLIKELY(count == lh_layout_limit.storm_at || count == lh_layout_limit.storm_member_at))
        return lh_layout_noted(t, s, hook, object, count);
    lh_layout_thread *lt = lh_layout_tls_data.thread; /* (NULL only on a thread without a record) */
    if (LH_LIKELY(lt != NULL) && LH_UNLIKELY(count > lh_load_relaxed(&lt->max_count)))
        lh_layout_note_max(t, lt, s, hook, object, count);
    return s;
}

/* The common case of counting, with no call and no guard (nothing it does can reach a hook): the
 * object was laid out before in the thread's current epoch, sits in its home slot, and this count
 * is not one a detector looks at. Every test comes before the first store: it returns the object's
 * slot, counted, or NULL having changed nothing; then the count is lh_layout_count_slot's when
 * *home was set (the thread's epoch, the object's home slot: its first count of the epoch, or a
 * count a detector looks at), else lh_layout_count's. A caller that needs nothing else can thus be
 * a leaf function on this path, with the rest a tail call. */
static inline __attribute__((always_inline)) lh_slot *lh_layout_count_common(lh_tls *t, unsigned hook, const void *object,
                                                                             lh_slot **home) {
    lh_layout_tls *l = &lh_layout_tls_data;
    uint64_t epoch = t->epoch;
    *home = NULL;
    if (LH_UNLIKELY(l->epoch != epoch || epoch == 0)) return NULL;
    lh_slot *s = lh_table_slot_home(&lh_proc.table, object, hook);
    if (LH_UNLIKELY(s == NULL)) return NULL;
    *home = s; /* in the thread's epoch, in its home slot: lh_layout_count_slot goes on from here */
    uint64_t tag = (epoch & LH_EPOCH_MASK) << LH_COUNT_BITS;
    /* relaxed: see lh_slot_count (the same word, the same race). */
    uint64_t w = lh_load_relaxed(&s->count);
    if (LH_UNLIKELY((w & ~(uint64_t)LH_COUNT_MAX) != tag)) return NULL; /* its first count of the epoch */
    uint32_t count = (uint32_t)(w & LH_COUNT_MAX);
    count += count < LH_COUNT_MAX;
    if (LH_UNLIKELY(count == lh_layout_limit.storm_at || count == lh_layout_limit.storm_member_at)) return NULL;
    lh_store_relaxed(&s->count, tag | count);
    lh_owner_add(&s->total, 1);
    lh_layout_note_call(t, l, hook);
    lh_layout_thread *lt = l->thread;
    if (LH_UNLIKELY(lt != NULL && count > lh_load_relaxed(&lt->max_count))) lh_layout_note_max(t, lt, s, hook, object, count);
    return s;
}

/* Counting, inline in each layout wrapper (the hook is then a constant), every case: the common one
 * calls nothing, an object's first count of the epoch (the frame pattern: every view once a frame)
 * calls only when a detector has work. (lh_layout_count_common, which splits the count so that the
 * wrapper keeps a frame only around the original and every other case is a tail call, measured
 * worse here: 137.7 and 235.4 instructions per repeat and frame call against 140.4 and 214.6 (the
 * second count's own frame costs more on every frame-pattern call than the first one saves).) */
static inline __attribute__((always_inline)) lh_slot *lh_layout_count_inline(lh_tls *t, unsigned hook,
                                                                             const void *object, uint64_t size) {
    lh_layout_tls *l = &lh_layout_tls_data;
    if (LH_UNLIKELY(l->epoch != t->epoch || t->epoch == 0)) return lh_layout_first_of_epoch(t, hook, object, size);
    lh_layout_note_call(t, l, hook);
    lh_slot *s = lh_table_slot_home(&lh_proc.table, object, hook);
    if (LH_UNLIKELY(s == NULL)) return lh_layout_probed(t, hook, object, size);
    return lh_layout_count_in(t, s, hook, object, size);
}

/* The layout wrappers' entry: skip at once when our own work is running on this thread, or when
 * LoopHunter or the layout family is off (the kill switch costs one TLS load and one load).
 * Returns the object's slot, or NULL when nothing was counted. */
static inline lh_slot *lh_layout_call(unsigned hook, const void *object) {
    lh_tls *t = &lh_tls_data;
    if (LH_UNLIKELY(t->guard != 0) || !lh_active(LH_FAMILY_LAYOUT)) return NULL;
    return lh_layout_count_inline(t, hook, object, LH_GEOMETRY_NONE);
}

#endif
