/*
 * lh_relayout.c — layout requests with their causes, and `layout-loop`: a widget (or set of
 * widgets) relaid out by layout-caused requests in LOOPHUNTER_LOOP_FRAMES back-to-back frames of
 * its own frame clock (GTK: its toplevel's GdkFrameClock; toykit: its loop), whether or not any
 * size changes. docs/causes.md has the definitions and the measurements behind them.
 *
 * Inputs (lh_relayout.h): every request a toolkit's glue sees (GTK: gtk_widget_queue_resize,
 * _no_redraw, _queue_allocate, seen through the g_type_check_instance_is_a each of them makes;
 * toykit: tk_view_set_needs_layout), each frame's end, widgets finalized.
 *
 * A request's cause (the runtime's cause context, lh_cause.h): in layout (a measure/allocate of a
 * widget of the same window runs, or an application's "layout" handler of the widget's frame
 * clock), deferred (the running callback's first dispatch carries a record: added while layout ran,
 * or by such a callback), the result of layout (the running code read the widget's size since its
 * last layout), or outside. Outside requests never count.
 *
 * A frame of a clock counts when a layout-caused request on one of its widgets, W, was followed by a
 * layout of W (its table slot's count of layouts moved on; a request GTK swallows during an
 * allocation is not followed by one). For a result-caused request it counts only when W's
 * allocation then follows the layout's result rather than the clock: W's new allocation (position
 * and size) equals the one of one or two frames before (A,B,A,B, or no change at all); an
 * animation, moving or resizing W smoothly, is not counted. Stricter, the allocation must
 * alternate (equal the one of two frames before and differ from the last: A,B,A,B) for a result
 * cause in a toolkit whose windows paint only when something changed (Qt Quick: no idle frame
 * separates a slow timer's ticks), for one after a child's size was read (the child's allocation
 * is judged: a layout often keeps its own), and for a deferred request whose callback chain began
 * in a Qt Quick item's geometry change rather than in layout (an onWidthChanged handler's
 * Qt.callLater; an animation's steps fire those handlers too, slowly near the turns of its easing
 * curve). A frame in which W was laid out more than LOOPHUNTER_THRESHOLD times is a storm's, and is not counted (the layout-storm detector
 * reports uncapped loops). LOOPHUNTER_LOOP_FRAMES frames of the clock counted back to back make one
 * layout-loop report, naming the widget counted in most of them, of equals (give or take one) the
 * deepest (a set of widgets whose requests alternate, frame after frame, is one loop). A toolkit
 * without frames (Qt's widgets) ends its frames by its loop's iterations (lh_relayout_iteration_done).
 *
 * Runs on the toolkit's thread with the guard held. State per thread record, owner-only: the
 * clocks seen and the widgets with layout-caused requests (a small table each, the oldest entry
 * replaced); statistics in relaxed atomic counters. No allocation, no lock; stacks are captured
 * only for layout-caused requests of a widget whose run is about to be reported (or its first).
 */
#include <string.h>

#include "lh_breach.h"
#include "lh_relayout.h"
#include "lh_script.h"
#include "lh_watch.h"

#define RL_CLOCKS 16
#define RL_WIDGETS 64
#define RL_PCS 32
#define RL_MODULES 32
#define RL_MEMBERS 8
#define RL_ALL_PCS (RL_PCS + LH_REPORT_CAUSE_LINKS * (1 + LH_CAUSE_PCS))

typedef struct rl_clock {
    const void *clock;       /* NULL: free */
    uint64_t frames;         /* frames of this clock done (the frame in progress has this number) */
    uint64_t used;           /* the thread's request counter when last used (replacement) */
    /* The run: frames counted back to back (frame ids are frame numbers + 1; 0: none). */
    uint64_t last_frame;
    uint64_t run_start;
    uint32_t streak;
    bool reported;
    uint32_t merged;         /* frames or iterations merged into the frame in progress */
    bool between;            /* the last frame ended was an iteration's (lh_relayout_laid_out_between_frames) */
    bool followed;           /* the last frame counted was counted by an allocation that alternates */
} rl_clock;

/* Whether a layout-caused request counts only when the allocation follows the layout's result. */
typedef enum rl_follows {
    RL_ANY = 0,       /* counted whatever the allocation (in layout; deferred from layout) */
    RL_RESULT = 1,    /* A,B,A,B or unchanged (result-caused) */
    RL_ALTERNATE = 2, /* A,B,A,B only (the stricter cases of the header) */
} rl_follows;

typedef struct rl_widget {
    const void *widget;      /* NULL: free */
    const void *clock;
    unsigned layout_hook;
    lh_slot *slot;           /* (widget, layout_hook): its layouts and sizes */
    const void *sized;       /* whose allocation a follows rule judges: a child read (NULL: the widget) */
    uint64_t used;
    /* The last layout-caused request, until its widget is laid out (or the request lapses). */
    bool pending;
    rl_follows pending_follows; /* what its allocation must do for it to count (above) */
    uint64_t pending_layouts;
    uint64_t pending_frame;
    /* Its part in its clock's run: the frames it was counted in. */
    uint64_t last_frame;
    uint64_t run_start;      /* the run its run_frames belong to */
    uint32_t run_frames;
    uint64_t sized_frame;    /* follows: the frame whose size was last taken */
    uint64_t sizes[2];       /* follows: its size in the last two frames taken, newest first */
    /* The request kept for the report (captured with its stack). */
    lh_cause_kind kind;
    unsigned entry;
    lh_cause_ref ref;        /* deferred: the running callback's record (retained) */
    uint32_t pc_count;
    uintptr_t pcs[RL_PCS];
    lh_script_stack script; /* the Python or JavaScript functions running then (count 0: none) */
} rl_widget;

typedef struct rl_thread {
    bool used;               /* written since the record was last cleared (else still all zero) */
    uint64_t requests;       /* this thread's requests (the tables' clock) */
    bool gathering;          /* a report gathers its loop's widgets: no report meanwhile */
    rl_clock clocks[RL_CLOCKS];
    rl_widget widgets[RL_WIDGETS];
    lh_report_member members[RL_MEMBERS]; /* the rest of the loop, for the report being written */
    const rl_widget *reporting; /* the widget of the layout-loop report being written */
    /* The objects the run's widgets lay out (their descendants laid out in the run's frames, from
     * its second half on: note_laid_out), for the report's members. */
    const void *laid_clock;
    uint64_t laid_run;
    struct {
        const void *object;  /* NULL: free */
        unsigned hook;
        uint32_t frames;     /* frames of the run it was laid out in, since noting began */
        uint64_t last_frame; /* the last of them */
    } laid[RL_MEMBERS];
    /* The last widget's frame clock, remembered for the rest of the epoch: a loop requests the same
     * widget again and again, and a widget changes window only between frames. */
    struct {
        const void *widget, *clock;
        uint64_t epoch;
    } last_clock;
} rl_thread;

static rl_thread threads[LH_THREAD_RECORDS] LH_LARGE_TABLE(relayout_threads); /* zero pages until a thread records a request */
static __thread rl_thread *my __attribute__((tls_model("initial-exec"))); /* the only TLS of ours */

static uint32_t member_at; /* half of LOOPHUNTER_LOOP_FRAMES, at least 2 */

/* Statistics (relaxed counters). */
static _Atomic uint64_t by_kind[LH_CAUSE_KINDS], by_entry[LH_HOOK_COUNT], loops, frames_counted, lapsed;
static _Atomic uint64_t stacks_captured, widgets_replaced, longest_run;

/* ---- clocks and widgets ------------------------------------------------------------------------ */

static rl_clock *clock_entry(rl_thread *rt, const void *clock) {
    rl_clock *free_one = NULL, *oldest = &rt->clocks[0];
    for (size_t i = 0; i < RL_CLOCKS; i++) {
        rl_clock *c = &rt->clocks[i];
        if (c->clock == clock) {
            c->used = rt->requests;
            return c;
        }
        if (c->clock == NULL && free_one == NULL) free_one = c;
        if (c->used < oldest->used) oldest = c;
    }
    rl_clock *c = free_one != NULL ? free_one : oldest;
    memset(c, 0, sizeof *c);
    c->clock = clock;
    c->used = rt->requests;
    return c;
}

static rl_clock *find_clock(rl_thread *rt, const void *clock) {
    for (size_t i = 0; i < RL_CLOCKS; i++)
        if (rt->clocks[i].clock == clock) return &rt->clocks[i];
    return NULL;
}

static rl_widget *find_widget(rl_thread *rt, const void *widget) {
    for (size_t i = 0; i < RL_WIDGETS; i++)
        if (rt->widgets[i].widget == widget) return &rt->widgets[i];
    return NULL;
}

static void clear_widget(rl_widget *e) {
    if (e->ref != 0) lh_cause_release(e->ref);
    memset(e, 0, sizeof *e);
}

static rl_widget *widget_entry(rl_thread *rt, const void *widget, unsigned layout_hook, const void *clock) {
    rl_widget *e = find_widget(rt, widget);
    if (e != NULL && (e->layout_hook != layout_hook || e->clock != clock)) {
        clear_widget(e); /* moved to another window: a new run */
    } else if (e != NULL) {
        e->used = rt->requests;
        return e;
    }
    if (e == NULL) {
        rl_widget *oldest = &rt->widgets[0];
        for (size_t i = 0; i < RL_WIDGETS && e == NULL; i++) {
            if (rt->widgets[i].widget == NULL) e = &rt->widgets[i];
            else if (rt->widgets[i].used < oldest->used) oldest = &rt->widgets[i];
        }
        if (e == NULL) {
            e = oldest;
            lh_add_relaxed(&widgets_replaced, 1); /* stat */
        }
        clear_widget(e);
    }
    e->widget = widget;
    e->clock = clock;
    e->layout_hook = layout_hook;
    e->slot = lh_table_slot(&lh_proc.table, widget, layout_hook);
    e->used = rt->requests;
    e->sizes[0] = e->sizes[1] = LH_GEOMETRY_NONE;
    return e;
}

static rl_thread *thread_state(lh_tls *t) {
    if (LH_LIKELY(my != NULL)) return my;
    if (lh_thread_record(t) == NULL) return NULL; /* claims the record: thread_start sets `my` */
    return my;
}

/* ---- what a request is ----------------------------------------------------------------------- */

static const void *root_of(const lh_toolkit *tk, const void *object) {
    if (tk->parent_of == NULL) return object;
    const void *root = object;
    unsigned depth = 0;
    for (const void *p = tk->parent_of(object); p != NULL && depth < 64; p = tk->parent_of(p), depth++) root = p;
    return root;
}

static const void *clock_of_root(const lh_toolkit *tk, const void *root) {
    return tk->frame_clock_of != NULL ? tk->frame_clock_of(root) : NULL;
}

/* The widget's frame clock (its root's), through the thread's last one (rl_thread.last_clock). */
static const void *clock_of(const lh_tls *t, const lh_toolkit *tk, const void *widget, const void *root) {
    rl_thread *rt = my;
    if (rt != NULL && rt->last_clock.widget == widget && rt->last_clock.epoch == t->epoch && t->epoch != 0)
        return rt->last_clock.clock;
    const void *clock = clock_of_root(tk, root != NULL ? root : root_of(tk, widget));
    if (rt != NULL) {
        rt->last_clock.widget = widget;
        rt->last_clock.clock = clock;
        rt->last_clock.epoch = t->epoch;
    }
    return clock;
}

/* The cause of a request on `widget` (whose layouts so far are `layouts`); *clock receives the
 * widget's frame clock when the cause is not outside (NULL: it has none yet, a window not shown);
 * *child, for a result cause, the child of the widget whose size was read (NULL: the widget's). */
static lh_cause_kind classify(lh_tls *t, const lh_toolkit *tk, const void *widget, uint64_t layouts,
                              const void **clock, const void **child) {
    const lh_cause_tls *c = &lh_cause_tls_data;
    const void *root = NULL;
    lh_cause_kind kind = LH_CAUSE_OUTSIDE;
    lh_slot *owner = t->layout_owner;
    if (owner != NULL) {
        /* relaxed: the slot is this thread's object's, being laid out right now (alive). */
        uint64_t key = lh_load_relaxed(&owner->key);
        unsigned hook = (unsigned)(key >> 56) - 1;
        const void *object = (const void *)(uintptr_t)(key & ((UINT64_C(1) << 56) - 1));
        if (hook < LH_HOOK_COUNT && lh_hooks[hook].toolkit == tk) {
            root = root_of(tk, widget);
            if (root_of(tk, object) == root) kind = LH_CAUSE_IN_LAYOUT;
        }
    }
    if (kind == LH_CAUSE_OUTSIDE && c->phase_depth > 0) {
        *clock = clock_of(t, tk, widget, root);
        if (*clock != NULL && *clock == c->phase_clock) return LH_CAUSE_IN_LAYOUT;
    }
    /* A callback chain that has not passed through layout for more hops than a record keeps
     * (a blink started once by layout, each run starting the next) is the chain's own doing now:
     * a loop passes through layout (or a geometry change) every round, where its chain begins
     * again. */
    if (kind == LH_CAUSE_OUTSIDE && c->dispatch != 0 && lh_cause_depth(c->dispatch) <= LH_CAUSE_CHAIN)
        kind = LH_CAUSE_DEFERRED;
    /* A read of the widget's size no call showed (an inline getter), seen by a watch. */
    if (kind == LH_CAUSE_OUTSIDE && tk->size_field != NULL &&
        lh_watch_request(t, widget, layouts, tk->size_field, tk->libraries))
        lh_cause_note_read(t, widget, NULL, layouts);
    if (kind == LH_CAUSE_OUTSIDE && lh_cause_was_read(t, widget, layouts)) kind = LH_CAUSE_RESULT;
    if (kind == LH_CAUSE_OUTSIDE && (*child = lh_cause_child_read(t, widget)) != NULL) kind = LH_CAUSE_RESULT;
    if (kind != LH_CAUSE_OUTSIDE) *clock = clock_of(t, tk, widget, root);
    return kind;
}

/* ---- frames counted ------------------------------------------------------------------------------ */

static void report_loop(lh_tls *t, rl_thread *rt, rl_clock *c);

/* The allocation now of the widget (or of its child whose size was read), position and size (a
 * widget moved by an animation keeps its size but not its place), as one number; LH_GEOMETRY_NONE
 * unknown. The object is alive (finalized widgets, and children read, are forgotten). */
static uint64_t allocation_of(const rl_widget *e) {
    const lh_toolkit *tk = lh_hooks[e->layout_hook].toolkit;
    int r[4];
    if (tk->geometry != NULL && tk->geometry(e->sized != NULL ? e->sized : e->widget, r))
        return (uint64_t)(uint16_t)r[0] << 48 | (uint64_t)(uint16_t)r[1] << 32 | (uint64_t)(uint16_t)r[2] << 16 |
               (uint16_t)r[3];
    return e->slot != NULL && e->sized == NULL ? lh_load_relaxed(&e->slot->geometry) : LH_GEOMETRY_NONE;
}

/* Whether `object` lies under one of the widgets counted in `c`'s run (at most 4 levels down), and
 * is not one of them. */
static bool under_run(const rl_thread *rt, const rl_clock *c, const lh_toolkit *tk, const void *object) {
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        const rl_widget *o = &rt->widgets[i];
        if (o->widget == object) return false;
    }
    const void *p = tk->parent_of(object);
    for (unsigned depth = 0; p != NULL && depth < 4; p = tk->parent_of(p), depth++) {
        for (size_t i = 0; i < RL_WIDGETS; i++) {
            const rl_widget *o = &rt->widgets[i];
            if (o->widget == p && o->clock == c->clock && o->run_start == c->run_start &&
                lh_hooks[o->layout_hook].toolkit == tk)
                return true;
        }
    }
    return false;
}

/* The frame `id` of `c`'s run counted, in the run's second half: the objects laid out in this
 * iteration under the run's widgets are noted (a Quick layout whose polish a QML function requests
 * lays out the Text whose size closes the loop; a container its children). One pass over the
 * table's slots whose count is of this iteration (the objects alive and laid out now: a destroyed
 * object's slot is reset), only in a run about to be reported. */
static void note_laid_out(lh_tls *t, rl_thread *rt, rl_clock *c, uint64_t id) {
    if (rt->laid_clock != c->clock || rt->laid_run != c->run_start) {
        memset(rt->laid, 0, sizeof rt->laid);
        rt->laid_clock = c->clock;
        rt->laid_run = c->run_start;
    }
    lh_table *tb = &lh_proc.table;
    if (tb->slots == NULL) return;
    uint64_t tag = t->epoch & LH_EPOCH_MASK;
    for (uint64_t i = 0; i < tb->capacity; i++) {
        lh_slot *s = &tb->slots[i];
        /* relaxed: a slot of another thread's object never carries this thread's epoch. */
        uint64_t key = lh_load_relaxed(&s->key);
        if (key == 0 || (lh_load_relaxed(&s->count) >> LH_COUNT_BITS) != tag) continue;
        unsigned hook = lh_table_key_hook(key);
        const lh_toolkit *tk = hook < LH_HOOK_COUNT && lh_hook_counts_layouts(hook) ? lh_hooks[hook].toolkit : NULL;
        const void *object = lh_table_key_object(key);
        if (tk == NULL || tk->parent_of == NULL || !under_run(rt, c, tk, object)) continue;
        size_t k = 0, free_one = RL_MEMBERS;
        for (; k < RL_MEMBERS && rt->laid[k].object != object; k++)
            if (rt->laid[k].object == NULL && free_one == RL_MEMBERS) free_one = k;
        if (k == RL_MEMBERS) {
            if (free_one == RL_MEMBERS) continue; /* the first ones noted are kept */
            k = free_one;
            rt->laid[k].object = object;
            rt->laid[k].hook = hook;
        }
        if (rt->laid[k].last_frame == id) continue; /* laid out through another hook too */
        rt->laid[k].last_frame = id;
        rt->laid[k].frames++;
    }
}

/* A frame (id = frame number + 1) of clock `c` in which `e`'s layout-caused request was followed by
 * a layout of it; `follows`: what its allocation must do for the frame to count. */
static void count_frame(lh_tls *t, rl_thread *rt, rl_clock *c, rl_widget *e, uint64_t id, rl_follows follows) {
    if (e->last_frame == id) return; /* this frame counted already */
    lh_slot *s = e->slot;
    if (s != NULL) {
        /* A storm frame is the storm detector's (an uncapped toolkit loops inside one pass). */
        uint64_t w = lh_load_relaxed(&s->count);
        if ((w >> LH_COUNT_BITS) == (t->epoch & LH_EPOCH_MASK) && (w & LH_COUNT_MAX) > lh_proc.cfg.threshold) return;
    }
    if (follows != RL_ANY) {
        if (e->sized_frame == id) return; /* judged already in this frame, and not counted */
        e->sized_frame = id;
        uint64_t size = allocation_of(e);
        bool alternates = size == e->sizes[1] && size != e->sizes[0];
        bool unchanged = size == e->sizes[0];
        bool follows_result = size != LH_GEOMETRY_NONE && (alternates || (follows == RL_RESULT && unchanged));
        e->sizes[1] = e->sizes[0];
        e->sizes[0] = size;
        if (!follows_result) return; /* the size follows the clock (an animation): not counted */
    }
    c->followed = follows != RL_ANY;
    e->last_frame = id;
    if (c->last_frame != id) {
        bool continues = c->streak > 0 && c->last_frame + 1 == id;
        c->streak = continues ? c->streak + 1 : 1;
        if (!continues) {
            c->run_start = id;
            c->reported = false;
        }
        c->last_frame = id;
        lh_add_relaxed(&frames_counted, 1); /* stat */
        lh_max_relaxed(&longest_run, c->streak); /* stat */
        if (c->streak >= member_at && !c->reported) note_laid_out(t, rt, c, id);
    }
    if (e->run_start != c->run_start) {
        e->run_start = c->run_start;
        e->run_frames = 0;
    }
    e->run_frames++;
    if (c->streak >= lh_proc.cfg.loop_frames && lh_proc.cfg.loop_frames != 0 && !c->reported && !rt->gathering)
        report_loop(t, rt, c);
}

/* Was `e`'s pending request followed by a layout of its widget? `frame`: its clock's frame in
 * progress. */
static void judge(lh_tls *t, rl_thread *rt, rl_clock *c, rl_widget *e, uint64_t frame) {
    if (!e->pending) return;
    uint64_t layouts = e->slot != NULL ? lh_load_relaxed(&e->slot->total) : 0;
    if (layouts != e->pending_layouts) {
        e->pending = false;
        count_frame(t, rt, c, e, frame + 1, e->pending_follows);
    } else if (frame >= e->pending_frame + 2) { /* not laid out since (GTK swallowed it): lapsed */
        e->pending = false;
        lh_add_relaxed(&lapsed, 1); /* stat */
    }
}

/* The widget's slot under `layout_hook` (claimed if new; NULL: the table is full). */
static lh_slot *slot_of(const void *widget, unsigned layout_hook) {
    lh_slot *slot = lh_table_slot_home(&lh_proc.table, widget, layout_hook);
    return slot != NULL ? slot : lh_table_slot_probe(&lh_proc.table, lh_table_key(widget, layout_hook));
}

uint64_t lh_relayout_layouts(unsigned layout_hook, const void *widget) {
    lh_slot *slot = widget != NULL ? lh_table_find(&lh_proc.table, widget, layout_hook) : NULL;
    return slot != NULL ? lh_load_relaxed(&slot->total) : 0;
}

static void request(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry, const uint64_t *layouts_before);

void lh_relayout_request(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry) {
    request(t, layout_hook, widget, entry, NULL);
}

void lh_relayout_request_since(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry, uint64_t layouts) {
    request(t, layout_hook, widget, entry, &layouts);
}

static void request(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry, const uint64_t *layouts_before) {
    const lh_toolkit *tk = lh_hooks[layout_hook].toolkit;
    if (tk == NULL || widget == NULL) return;
    lh_add_relaxed(&by_entry[entry], 1); /* stat */
    /* From now on this toolkit's loops are judged here (LOOPHUNTER_LOOP_FRAMES=0: by the streak). */
    if (lh_proc.cfg.loop_frames != 0 && !lh_requests_recorded(tk)) lh_note_requests_recorded(tk);
    rl_thread *rt = thread_state(t);
    if (rt == NULL) return;
    rt->used = true;
    rt->requests++;
    lh_slot *slot = slot_of(widget, layout_hook);
    uint64_t layouts = layouts_before != NULL ? *layouts_before : slot != NULL ? lh_load_relaxed(&slot->total) : 0;
    const void *clock = NULL, *child = NULL;
    lh_cause_kind kind = classify(t, tk, widget, layouts, &clock, &child);
    lh_add_relaxed(&by_kind[kind], 1); /* stat */
    if (kind == LH_CAUSE_OUTSIDE || clock == NULL) return;

    rl_clock *c = clock_entry(rt, clock);
    rl_widget *e = widget_entry(rt, widget, layout_hook, clock);
    judge(t, rt, c, e, c->frames); /* the previous request, if its layout came since */
    e->pending = true;
    /* The stricter cases of the header: a child's size read (its allocation judged), frames on
     * demand, a chain from a geometry change. */
    e->pending_follows = kind == LH_CAUSE_RESULT ? (child != NULL || tk->frames_on_demand ? RL_ALTERNATE : RL_RESULT)
                         : kind == LH_CAUSE_DEFERRED && lh_cause_from_geometry_change(lh_cause_tls_data.dispatch)
                             ? RL_ALTERNATE
                             : RL_ANY;
    if (child != e->sized) {
        e->sized = child;
        e->sizes[0] = e->sizes[1] = LH_GEOMETRY_NONE; /* another object's sizes */
    }
    e->pending_layouts = layouts;
    e->pending_frame = c->frames;
    /* The request a report will show: its stack is taken for a widget's first layout-caused
     * request, and for each one once its run is halfway and until it is reported (the request
     * that closes the loop). */
    if (e->pc_count == 0 || (!c->reported && c->streak + 1 >= member_at)) {
        e->kind = kind;
        e->entry = entry;
        lh_cause_ref ref = kind == LH_CAUSE_DEFERRED ? lh_cause_tls_data.dispatch : 0;
        if (ref != e->ref) {
            if (e->ref != 0) lh_cause_release(e->ref);
            e->ref = ref != 0 && lh_cause_retain(ref) ? ref : 0;
        }
        e->pc_count = lh_cause_capture_stack(e->pcs, RL_PCS);
        lh_script_capture(&e->script);
        lh_add_relaxed(&stacks_captured, 1); /* stat */
    }
}

/* Judges the clock's pending requests at the end of its frame in progress; whether anything was
 * counted in it. */
static bool judge_frame(lh_tls *t, rl_thread *rt, rl_clock *c) {
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        rl_widget *e = &rt->widgets[i];
        if (e->widget != NULL && e->clock == c->clock) judge(t, rt, c, e, c->frames);
    }
    return c->last_frame == c->frames + 1;
}

/* At most this many frames (or iterations) that counted nothing are merged into the next one. */
#define RL_MERGED_MAX 2

void lh_relayout_frame_done(lh_tls *t, const void *clock, bool laid_out) {
    rl_thread *rt = my;
    if (rt == NULL || clock == NULL) return;
    rl_clock *c = find_clock(rt, clock);
    if (c == NULL) return; /* no layout-caused request for this clock yet */
    bool counted = judge_frame(t, rt, c);
    /* The clock's own frame right after an iteration that ended one (a loop in the event loop,
     * which starves the window's frames): nothing left to count in it is no empty frame. */
    if (c->between && !counted) {
        c->between = false;
        return;
    }
    c->between = false;
    /* A frame that laid nothing out (a repaint) belongs to the frame around it, in a run counted
     * by alternating allocations (a timer's result loop: a round is a frame with its layout and a
     * repaint). Not in other runs: an animation's repaints separate the relayouts a timer drives,
     * with an in-layout request in each (a ColumnLayout invalidated while it lays out). */
    if (!counted && !laid_out && c->followed && c->merged < RL_MERGED_MAX) {
        c->merged++;
        return;
    }
    c->merged = 0;
    c->frames++;
}

const void *lh_relayout_clock_of(lh_tls *t, unsigned layout_hook, const void *widget) {
    const lh_toolkit *tk = lh_hooks[layout_hook].toolkit;
    return tk != NULL && widget != NULL ? clock_of(t, tk, widget, NULL) : NULL;
}

void lh_relayout_laid_out_between_frames(lh_tls *t, const void *clock) {
    rl_thread *rt = my;
    if (rt == NULL || clock == NULL) return;
    rl_clock *c = find_clock(rt, clock);
    if (c == NULL) return;
    c->between = judge_frame(t, rt, c);
    c->frames++;
}

/* A wait no longer than a display's frame (60 Hz, with room for a timer's lateness). */
#define RL_DISPLAY_FRAME_MS 20

void lh_relayout_iteration_done(lh_tls *t, const void *clock, int32_t wait_ms) {
    rl_thread *rt = my;
    if (rt == NULL || clock == NULL) return;
    rl_clock *c = find_clock(rt, clock);
    if (c == NULL) return;
    bool slept = wait_ms != 0;
    /* In a run counted by allocations that alternate, a wait of at most a display frame is no
     * empty frame: a result loop on a frame-rate timer (16 ms, the usual) lays out again in every
     * frame a display shows, a round a frame. */
    if (slept && c->followed && wait_ms > 0 && wait_ms <= RL_DISPLAY_FRAME_MS) slept = false;
    if (!judge_frame(t, rt, c) && !slept && c->merged < RL_MERGED_MAX) {
        c->merged++; /* the frame goes on into the next iteration */
        return;
    }
    c->merged = 0;
    c->frames++;
    if (slept) c->frames++; /* the time the loop slept: a frame in which nothing is laid out */
}

void lh_relayout_forget(const void *widget) {
    lh_watch_forget(widget);
    rl_thread *rt = my;
    if (rt == NULL) return;
    if (rt->last_clock.widget == widget) rt->last_clock.widget = NULL;
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        rl_widget *e = &rt->widgets[i];
        if (e->widget == widget) clear_widget(e);
        if (e->sized == widget) e->sized = NULL; /* a child read, gone: not looked at again */
    }
}

void lh_relayout_forget_subtree(const lh_toolkit *tk, const void *root) {
    rl_thread *rt = my;
    if (rt == NULL || tk->parent_of == NULL) return;
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        rl_widget *e = &rt->widgets[i];
        if (e->widget == NULL || lh_hooks[e->layout_hook].toolkit != tk) continue;
        unsigned depth = 0;
        for (const void *p = e->widget; p != NULL && depth < 64; p = tk->parent_of(p), depth++) {
            if (p == root) {
                clear_widget(e);
                break;
            }
        }
    }
}

/* ---- the report ---------------------------------------------------------------------------------- */

/* Copies the type and name of `object` into `out` through its adapter. */
static void describe_member(lh_report_member *out, const void *object, unsigned hook, uint32_t count) {
    const lh_toolkit *tk = lh_hooks[hook].toolkit;
    memset(out, 0, sizeof *out);
    out->address = (uintptr_t)object;
    out->hook = lh_hooks[hook].name;
    const char *type = tk->type_name != NULL ? tk->type_name(object) : NULL;
    const char *name = tk->name_of != NULL ? tk->name_of(object) : NULL;
    if (type != NULL) memcpy(out->type, type, strnlen(type, sizeof out->type - 1));
    if (name != NULL) memcpy(out->name, name, strnlen(name, sizeof out->name - 1));
    out->count = count;
}

/* The objects the run's widgets laid out in its last frame (noted by note_laid_out, so alive now),
 * most frames first, into at most `room` members. */
static size_t laid_members(rl_thread *rt, const rl_clock *c, const rl_widget *chosen, lh_report_member *out, size_t room) {
    if (rt->laid_clock != c->clock || rt->laid_run != c->run_start) return 0;
    bool taken[RL_MEMBERS] = {false};
    size_t n = 0;
    while (n < room) {
        size_t best = RL_MEMBERS;
        for (size_t k = 0; k < RL_MEMBERS; k++) {
            if (taken[k] || rt->laid[k].object == NULL || rt->laid[k].object == chosen->widget ||
                rt->laid[k].last_frame != c->last_frame)
                continue;
            if (best == RL_MEMBERS || rt->laid[k].frames > rt->laid[best].frames) best = k;
        }
        if (best == RL_MEMBERS) break;
        taken[best] = true;
        describe_member(&out[n++], rt->laid[best].object, rt->laid[best].hook, rt->laid[best].frames);
    }
    return n;
}

/* The clock's run reached the limit: one report for the loop. It names the widget counted in most
 * frames of the run (of equals, the deepest: in a parent/child loop the inner widget's code is
 * usually what resizes the outer one) and lists the others counted in it lately. */
static void report_loop(lh_tls *t, rl_thread *rt, rl_clock *c) {
    /* The other widgets of this clock: their requests laid out since are counted first (without
     * reporting), so that a widget of the loop whose turn comes later in this frame is one of it. */
    rt->gathering = true;
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        rl_widget *o = &rt->widgets[i];
        if (o->widget != NULL && o->clock == c->clock && o->pending && o->pending_frame + 1 == c->last_frame)
            judge(t, rt, c, o, o->pending_frame);
    }
    rt->gathering = false;
    rl_widget *group[RL_WIDGETS];
    size_t n = 0;
    rl_widget *chosen = NULL;
    unsigned chosen_depth = 0;
    for (size_t i = 0; i < RL_WIDGETS; i++) {
        rl_widget *o = &rt->widgets[i];
        /* Counted in this run, in this frame or the one before. */
        if (o->widget == NULL || o->clock != c->clock || o->run_start != c->run_start || o->last_frame + 1 < c->last_frame)
            continue;
        group[n++] = o;
        if (o->pc_count == 0) continue;
        unsigned d = lh_toolkit_depth(lh_hooks[o->layout_hook].toolkit, o->widget);
        /* Of equals (counted in as many frames, give or take the run's first, in which one widget's
         * request may be judged a frame before another's), the deepest. */
        bool equal = chosen != NULL && o->run_frames + 1 >= chosen->run_frames && chosen->run_frames + 1 >= o->run_frames;
        bool better = chosen == NULL || (!equal && o->run_frames > chosen->run_frames) || (equal && d > chosen_depth);
        if (better)
            chosen = o, chosen_depth = d;
    }
    c->reported = true;
    if (chosen == NULL) return;
    lh_report_member *members = rt->members;
    size_t m = 0;
    for (size_t i = 0; i < n && m < RL_MEMBERS; i++) {
        rl_widget *o = group[i];
        if (o == chosen) continue;
        describe_member(&members[m++], o->widget, o->layout_hook, o->run_frames);
    }
    m += laid_members(rt, c, chosen, members + m, RL_MEMBERS - m);
    lh_add_relaxed(&loops, 1); /* stat */
    lh_breach b = {
        .kind = LH_KIND_LAYOUT_LOOP,
        .hook = chosen->layout_hook,
        .object = chosen->widget,
        .count = c->streak,
        .threshold = lh_proc.cfg.loop_frames,
        .count_unit = "frames in a row relaid out by layout-caused requests",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = chosen->slot != NULL ? lh_load_relaxed(&chosen->slot->geometry) : LH_GEOMETRY_NONE,
        .members = members,
        .member_count = m,
        .given_stack = true, /* the request that closed the loop: `where` is the code that re-requested */
        .pcs = chosen->pcs,
        .pc_count = chosen->pc_count,
    };
    rt->reporting = chosen;
    lh_breach_report(t, &b);
    rt->reporting = NULL;
}

/* What a report's cause section is made of, in the report's scratch (this detector's part). */
typedef struct rl_part {
    lh_report_cause cause;
    uintptr_t pcs[RL_ALL_PCS];
    lh_frame frames[RL_ALL_PCS];
    lh_module modules[RL_MODULES];
    lh_report_script_frame script[LH_SCRIPT_FRAMES];
    lh_object_desc desc;
    char type[LH_OBJECT_TEXT], name[LH_OBJECT_TEXT];
    char path[1024];
    char pool[8192];
} rl_part;
_Static_assert(sizeof(rl_part) <= LH_REPORT_SCRATCH, "the cause section fits the report scratch");

/* Every layout report of this thread gets the cause of its object's last layout-caused request
 * (the layout-loop report: of the request that closed the loop). */
static void report(lh_tls *t, const lh_breach *b, lh_report_data *r, void *scratch) {
    (void)t;
    if (b->thread != NULL || my == NULL) return;
    if (b->kind != LH_KIND_LAYOUT_LOOP && b->kind != LH_KIND_LAYOUT_STORM && b->kind != LH_KIND_LAYOUT_STREAK) return;
    const rl_widget *e = my->reporting;
    if (e == NULL) {
        e = find_widget(my, b->object);
        if (e == NULL || e->pc_count == 0 || !lh_hook_counts_layouts(b->hook) ||
            lh_hooks[e->layout_hook].toolkit != lh_hooks[b->hook].toolkit)
            return;
    }
    rl_part *p = scratch;
    memset(&p->cause, 0, sizeof p->cause);
    lh_report_cause *c = &p->cause;
    size_t n = 0;
    c->request_first = 0;
    for (uint32_t i = 0; i < e->pc_count && n < RL_PCS; i++) p->pcs[n++] = e->pcs[i];
    c->request_count = n;
    /* The chain of a deferred cause: each callback's record, nearest first; the nearest also says
     * where the chain began (kept by every record of it, while older ones are gone). */
    lh_cause_ref ref = e->ref;
    lh_cause_info info;
    size_t callbacks[LH_REPORT_CAUSE_LINKS];
    while (ref != 0 && c->link_count < LH_REPORT_CAUSE_LINKS) {
        if (!lh_cause_read(ref, &info)) {
            c->chain_truncated = true;
            break;
        }
        if (c->link_count == 0) c->began_in = info.from_geometry ? "geometry-change" : "layout";
        lh_report_cause_link *l = &c->links[c->link_count];
        l->kind = lh_cause_kind_names[info.kind];
        l->added_with = info.hook < LH_HOOK_COUNT ? lh_hooks[info.hook].name : NULL;
        l->has_callback = info.callback != 0;
        l->callback = n;
        callbacks[c->link_count] = info.callback != 0 ? n : SIZE_MAX;
        if (info.callback != 0) p->pcs[n++] = info.callback + 1; /* a function: resolved inside it */
        l->stack_first = n;
        for (uint32_t i = 0; i < info.pc_count; i++) p->pcs[n++] = info.pcs[i];
        l->stack_count = n - l->stack_first;
        c->link_count++;
        if (info.kind == LH_CAUSE_DEFERRED && info.parent == 0) c->chain_truncated = true; /* deeper than kept */
        ref = info.kind == LH_CAUSE_DEFERRED ? info.parent : 0;
    }
    size_t module_count = lh_modules_resolve(p->pcs, n, p->frames, p->modules, RL_MODULES, p->pool, sizeof p->pool,
                                             lh_proc.exe);
    (void)module_count;
    for (size_t i = 0; i < c->link_count; i++) { /* a callback's address: back from +1 */
        if (callbacks[i] == SIZE_MAX) continue;
        lh_frame *f = &p->frames[callbacks[i]];
        f->pc -= 1;
        if (f->module >= 0) f->offset -= 1;
        if (f->symbol != NULL) f->symbol_offset -= 1;
    }
    c->frames = p->frames;
    c->modules = p->modules;
    c->kind = lh_cause_kind_names[e->kind];
    c->entry = e->entry < LH_HOOK_COUNT ? lh_hooks[e->entry].name : NULL;
    /* The widget requested (alive: its loop ran in this frame; finalized widgets are forgotten). */
    const lh_toolkit *tk = lh_hooks[e->layout_hook].toolkit;
    c->widget_address = (uintptr_t)e->widget;
    memset(&p->desc, 0, sizeof p->desc);
    lh_toolkit_describe(tk, e->widget, &p->desc);
    memcpy(p->type, p->desc.node.type, sizeof p->type);
    memcpy(p->name, p->desc.node.name, sizeof p->name);
    lh_buf path;
    lh_buf_init(&path, p->path, sizeof p->path);
    lh_report_path_text(&path, &p->desc);
    c->widget_type = p->type[0] != '\0' ? p->type : NULL;
    c->widget_name = p->name[0] != '\0' ? p->name : NULL;
    c->widget_path = p->path;
    /* The script's own functions (Python, JavaScript) running when the request was made. */
    c->script_language = lh_script_language_name(e->script.language);
    for (size_t i = 0; i < e->script.count && c->script_language != NULL; i++) {
        p->script[i].function = e->script.text + e->script.frames[i].function;
        p->script[i].file = e->script.text + e->script.frames[i].file;
        p->script[i].line = e->script.frames[i].line;
        c->script_count++;
    }
    c->script = p->script;
    r->cause = c;
}

/* ---- the detector's row (lh_detectors.def) ------------------------------------------------------ */

static int init(void) {
    uint64_t k = lh_proc.cfg.loop_frames;
    member_at = k / 2 >= 2 ? (uint32_t)(k / 2) : 2;
    return 0;
}

/* Only records a thread wrote are cleared: the table is zero pages until used (56 KiB a thread). */
static void after_fork(void) {
    lh_watch_after_fork();
    for (size_t i = 0; i < LH_THREAD_RECORDS; i++)
        if (threads[i].used) memset(&threads[i], 0, sizeof threads[i]);
    my = NULL;
}

static void thread_start(lh_tls *t, size_t index) {
    (void)t;
    rl_thread *rt = &threads[index];
    if (rt->used) { /* the record is ours (claimed by CAS); a thread that never requested left it zero */
        for (size_t i = 0; i < RL_WIDGETS; i++)
            if (rt->widgets[i].ref != 0) lh_cause_release(rt->widgets[i].ref);
        memset(rt, 0, sizeof *rt);
    }
    my = rt;
}

static void thread_exit(lh_tls *t, size_t index) {
    (void)t;
    (void)index;
    lh_watch_stop();
    my = NULL;
}

/* The session ends (`loophunter attach`): the watches go when this is their thread (the loop's,
 * where a session ends); another thread's stay armed, and cost its toolkit's reads a trap each. */
static void detached(void) { lh_watch_stop(); }

static void summary(lh_json *j) {
    if (!lh_family_on(LH_FAMILY_LAYOUT)) {
        lh_json_null(j, "causes");
        return;
    }
    lh_json_begin_object(j, "causes");
    lh_json_begin_object(j, "requests");
    lh_json_u64(j, "outside", lh_load_relaxed(&by_kind[LH_CAUSE_OUTSIDE]));
    lh_json_u64(j, "in_layout", lh_load_relaxed(&by_kind[LH_CAUSE_IN_LAYOUT]));
    lh_json_u64(j, "deferred", lh_load_relaxed(&by_kind[LH_CAUSE_DEFERRED]));
    lh_json_u64(j, "result", lh_load_relaxed(&by_kind[LH_CAUSE_RESULT]));
    lh_json_end_object(j);
    lh_json_begin_array(j, "entries");
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++) {
        uint64_t n = lh_load_relaxed(&by_entry[h]);
        if (n == 0) continue;
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "entry", lh_hooks[h].name);
        lh_json_u64(j, "requests", n);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_u64(j, "frames_counted", lh_load_relaxed(&frames_counted));
    lh_json_u64(j, "longest_run", lh_load_relaxed(&longest_run));
    lh_json_u64(j, "requests_lapsed", lh_load_relaxed(&lapsed));
    lh_json_u64(j, "loops", lh_load_relaxed(&loops));
    lh_json_u64(j, "stacks_captured", lh_load_relaxed(&stacks_captured));
    lh_json_u64(j, "widgets_replaced", lh_load_relaxed(&widgets_replaced));
    lh_cause_summary(j);
    lh_watch_summary(j);
    lh_json_begin_object(j, "scripts");
    lh_script_summary(j);
    lh_json_end_object(j);
    lh_json_end_object(j);
}

const lh_detector lh_detector_relayout = {
    .name = "relayout",
    .init = init,
    .after_fork = after_fork,
    .thread_start = thread_start,
    .thread_exit = thread_exit,
    .detached = detached,
    .summary = summary,
    .report = report,
};
