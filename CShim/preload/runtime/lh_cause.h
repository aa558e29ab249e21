/*
 * lh_cause.h — why a layout is requested: each thread's cause context, and the records that carry a
 * cause across asynchronous hops (lh_cause.c). docs/causes.md tells the whole story.
 *
 * The context of a thread (initial-exec TLS, owner-only) says, at any moment:
 *   - whether layout runs: a widget's measure or allocate (t->layout_owner, set by the layout
 *     wrappers), or an application's frame-clock "layout" handler (phase_clock, set by its
 *     trampoline);
 *   - which callback runs, and the cause record it was born with (`dispatch`): an idle, a timeout,
 *     a tick callback or a toykit source added while layout ran, or added by such a callback;
 *   - which widgets' sizes the running code read (`reads`), since the last dispatch boundary (a
 *     wrapped callback beginning or ending, an event-loop iteration, a frame).
 * A layout request is then (lh_cause_of_request): in layout, deferred (from layout, through the
 * callback's record), the result of layout (the requested widget's size was read since its last
 * layout), or from outside.
 *
 * Cause records live in a pool mapped at start-up: claimed and released with compare-and-swap, each
 * reference carrying its record's generation, so a record recycled since is never read as the old
 * one (a reader copies the fields and checks the generation again, as a sequence lock). A record
 * holds: the kind of context it was added in, its parent record (when added by a deferred callback;
 * retained, up to LH_CAUSE_CHAIN), the callback, what added it (a hook id) and the adding stack.
 * Released when its source ends or after the source's first dispatch (later runs of a repeating
 * source are the source's own doing, not layout's); when the pool is full, the oldest is taken
 * over (its references then read as gone).
 *
 * Contracts: may run in any thread, inside hooks, with the guard held where it says so; no
 * allocation, no lock, no stdio; the stack capture is libunwind's primed local walk.
 */
#ifndef LH_CAUSE_H
#define LH_CAUSE_H

#include "lh_runtime.h"

/* The kind of a request's cause (and of the context a callback was added in). */
typedef enum lh_cause_kind {
    LH_CAUSE_OUTSIDE = 0,   /* input, time, I/O, start-up: nothing the layout produced */
    LH_CAUSE_IN_LAYOUT = 1, /* while a measure/allocate of the same window, or its frame clock's layout handler, ran */
    LH_CAUSE_DEFERRED = 2,  /* by a callback added while layout ran (transitively) */
    LH_CAUSE_RESULT = 3,    /* after reading the requested widget's size since its last layout */
    /* Only a context a callback is added in, never a request's cause: outside layout, while a Qt
     * Quick item's geometry-change handlers run (onWidthChanged...). A request such a callback
     * makes is deferred, and counts only when it follows the layout's result (lh_relayout.c). */
    LH_CAUSE_GEOMETRY_CHANGE = 4,
    LH_CAUSE_KINDS = 5
} lh_cause_kind;

/* The JSON names of the kinds ("outside", "in-layout", "deferred", "result", "geometry-change"). */
extern const char *const lh_cause_kind_names[LH_CAUSE_KINDS] LH_HIDDEN;

/* A reference to a cause record: index + 1 in the low 32 bits, the record's generation above;
 * 0: none. */
typedef uint64_t lh_cause_ref;

#define LH_CAUSE_PCS 16  /* frames of an adding stack */
#define LH_CAUSE_CHAIN 4 /* records followed up a chain (a record deeper than this keeps no parent) */
#define LH_CAUSE_READS 8 /* size reads remembered per thread */

/* A record's contents, as copied out (lh_cause_read). */
typedef struct lh_cause_info {
    lh_cause_kind kind;    /* the context it was added in: in-layout, deferred or geometry-change */
    lh_cause_ref parent;   /* deferred: the record of the callback that added it (0: not kept) */
    unsigned hook;         /* what added it (g_idle_add, gtk_widget_add_tick_callback, ...) */
    uint32_t depth;        /* 1: added in layout; 2: by a callback added in layout; ... */
    bool from_geometry;    /* the chain began in a geometry change, not in layout */
    uintptr_t callback;    /* the callback's address */
    uint32_t pc_count;
    uintptr_t pcs[LH_CAUSE_PCS]; /* where it was added, innermost first */
} lh_cause_info;

/* The thread's cause context (initial-exec TLS, 40 bytes; owner-only). The sizes it read are kept
 * per thread record (lh_cause.c), not in TLS. */
typedef struct lh_cause_tls {
    lh_cause_ref dispatch;    /* the record of the running callback's first dispatch (0: none) */
    uintptr_t running;        /* the innermost wrapped callback or layout handler running (0: none) */
    uint32_t serial;          /* dispatch boundaries passed (reads count within one) */
    uint32_t phase_depth;     /* application frame-clock "layout" handlers running */
    const void *phase_clock;  /* the clock of the innermost one */
    const void *changing;     /* the Qt Quick item whose geometry change is being delivered (NULL: none) */
} lh_cause_tls;

extern __thread lh_cause_tls lh_cause_tls_data __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* Start-up: maps the pool (0 or -errno). The child of a fork keeps the parent's records (its
 * sources are the parent's). */
int lh_cause_init(void) LH_HIDDEN;
/* Whether causes are followed: LoopHunter on, the layout family on, the pool mapped. */
bool lh_cause_ready(void) LH_HIDDEN;

/* ---- the context ---------------------------------------------------------------------------- */

/* A dispatch boundary (a callback begins or ends, an iteration or a frame begins): size reads made
 * before it no longer explain a request. */
static inline void lh_cause_boundary(void) { lh_cause_tls_data.serial++; }

/* What a trampoline gives back when its callback returns. */
typedef struct lh_cause_outer {
    lh_cause_ref dispatch;
    const void *phase_clock;
    uintptr_t running;
} lh_cause_outer;

/* A wrapped callback (`callback`) runs: `ref` is its record for this dispatch (0: none, the
 * callback is not from layout). Returns what to give back to lh_cause_dispatch_end. */
static inline lh_cause_outer lh_cause_dispatch_begin(lh_cause_ref ref, uintptr_t callback) {
    lh_cause_tls *c = &lh_cause_tls_data;
    lh_cause_outer outer = {c->dispatch, c->phase_clock, c->running};
    c->dispatch = ref;
    c->running = callback;
    c->serial++;
    return outer;
}
static inline void lh_cause_dispatch_end(lh_cause_outer outer) {
    lh_cause_tls *c = &lh_cause_tls_data;
    c->dispatch = outer.dispatch;
    c->running = outer.running;
    c->serial++;
}

/* An application's frame-clock "layout" handler (`handler`) runs / returned. */
static inline lh_cause_outer lh_cause_phase_begin(const void *clock, uintptr_t handler) {
    lh_cause_tls *c = &lh_cause_tls_data;
    lh_cause_outer outer = {c->dispatch, c->phase_clock, c->running};
    c->phase_clock = clock;
    c->running = handler;
    c->phase_depth++;
    return outer;
}
static inline void lh_cause_phase_end(lh_cause_outer outer) {
    lh_cause_tls *c = &lh_cause_tls_data;
    c->phase_clock = outer.phase_clock;
    c->running = outer.running;
    c->phase_depth--;
}

/* The running code read `widget`'s size; `layouts`: its layouts counted so far; `parent`: the
 * object that lays it out, when a request on that one may follow from the read (a Qt Quick layout
 * whose child's width QML read), else NULL. Kept in the thread's record (none: not kept). */
void lh_cause_note_read(const lh_tls *t, const void *widget, const void *parent, uint64_t layouts) LH_HIDDEN;
/* Whether `widget` was read since the last boundary, and not laid out since (`layouts` now). */
bool lh_cause_was_read(const lh_tls *t, const void *widget, uint64_t layouts) LH_HIDDEN;
/* A child of `widget` (noted with `widget` as its parent) read since the last boundary; NULL: none. */
const void *lh_cause_child_read(const lh_tls *t, const void *widget) LH_HIDDEN;

/* The context a callback being added now is born in: in layout (some layout runs on this thread),
 * a geometry change (an item's geometry-change handlers run, in a callback or not: a chain that
 * passes through a geometry change starts again there, as one through layout does), deferred (the
 * running callback is from layout), or outside. */
static inline lh_cause_kind lh_cause_context(const lh_tls *t) {
    const lh_cause_tls *c = &lh_cause_tls_data;
    if (t->layout_owner != NULL || c->phase_depth > 0) return LH_CAUSE_IN_LAYOUT;
    if (c->changing != NULL) return LH_CAUSE_GEOMETRY_CHANGE;
    if (c->dispatch != 0) return LH_CAUSE_DEFERRED;
    return LH_CAUSE_OUTSIDE;
}

/* ---- records -------------------------------------------------------------------------------- */

/* A record for a callback added now, when the context is layout-caused (0 otherwise, or when the
 * pool cannot give one): kind, parent (the running callback's record, retained), `hook`, `callback`
 * and the caller's stack. Guard held. */
lh_cause_ref lh_cause_born(lh_tls *t, unsigned hook, uintptr_t callback) LH_HIDDEN;
/* What a record born later needs of the context now: a call scheduled where the scheduling itself
 * is not seen (a queued connection of a signal emitted now: Qt posts its event inside QtCore) is
 * noted cheaply at the emission, and gets its record only if the call is delivered. */
typedef struct lh_cause_origin {
    lh_cause_kind kind;  /* the context (LH_CAUSE_OUTSIDE: nothing to carry) */
    lh_cause_ref parent; /* deferred: the running callback's record, retained (0: none kept) */
    uint32_t depth;
    bool from_geometry;
} lh_cause_origin;
/* The context now (its parent retained: give it to lh_cause_born_later or lh_cause_origin_drop). */
lh_cause_origin lh_cause_origin_now(const lh_tls *t) LH_HIDDEN;
void lh_cause_origin_drop(lh_cause_origin *o) LH_HIDDEN;
/* A record of an origin noted earlier (its parent reference goes to the record), with the adding
 * stack captured then (`pcs`, `pc_count`; NULL: none was, the code that added the call is no
 * longer running). 0 when none (outside, pool). Guard held. */
lh_cause_ref lh_cause_born_later(lh_cause_origin *o, unsigned hook, uintptr_t callback, const uintptr_t *pcs,
                                 uint32_t pc_count) LH_HIDDEN;
/* One more reference to the record `ref` names (false: it is gone). */
bool lh_cause_retain(lh_cause_ref ref) LH_HIDDEN;
/* Gives a reference back (its source ended, or its first dispatch is over); its parent goes with
 * it when this was the last reference. A reference to a record recycled since does nothing. */
void lh_cause_release(lh_cause_ref ref) LH_HIDDEN;
/* Copies the record `ref` names; false when it is gone (released and recycled, or taken over). */
bool lh_cause_read(lh_cause_ref ref, lh_cause_info *out) LH_HIDDEN;
/* The depth of the record `ref` names (1: added in layout or a geometry change; 2: by a callback
 * added there; ...); UINT32_MAX when it is gone. */
uint32_t lh_cause_depth(lh_cause_ref ref) LH_HIDDEN;
/* Whether the chain of the record `ref` names began in a geometry change rather than in layout
 * (false when it is gone). */
bool lh_cause_from_geometry_change(lh_cause_ref ref) LH_HIDDEN;

/* The caller's stack (as lh_capture_stack), where the frame of the trampoline that runs the
 * innermost wrapped callback is the callback itself (its address + 1, so that the usual "symbolize
 * at offset - 1" names it): a callback that ends with a tail call (gtk_label_set_text(...) as its
 * last statement) leaves no frame of its own, and the stack would not name it. Guard held. */
uint32_t lh_cause_capture_stack(uintptr_t *out, uint32_t max) LH_HIDDEN;

/* The summary's "causes" counters (records). */
void lh_cause_summary(lh_json *j) LH_HIDDEN;

#endif
