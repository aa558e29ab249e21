/*
 * lh_report.h — the breach report: its data and its JSON form (schema in docs/report-schema.md).
 *
 * Composition runs on the breach path inside a hook: it only writes into the lh_buf it is given.
 */
#ifndef LH_REPORT_H
#define LH_REPORT_H

#include "lh_buf.h"
#include "lh_modules.h"

#define LH_OBJECT_TEXT 128
#define LH_OBJECT_MAX_ANCESTORS 24

/* One iteration of a thread's event loop, oldest first in a report's history. */
typedef struct lh_hist {
    uint64_t iteration;     /* the thread's iteration (or frame) number */
    uint64_t layout_iter;   /* the thread's layout-iteration number, 0 when nothing was laid out */
    uint64_t start_us;      /* since LoopHunter started in this process */
    uint64_t busy_us;       /* from the loop's wake-up to its next wait (or to the report) */
    uint32_t layout_calls;  /* layout calls counted on the thread in that iteration */
    int32_t wait_ms;        /* how long the loop then asked to sleep; -1: forever; -2: unknown */
    uint64_t alloc_calls;   /* allocations made by the thread in that iteration (alloc family on) */
    uint64_t alloc_bytes;   /* their usable bytes */
    uint64_t freed_bytes;   /* usable bytes the thread freed in that iteration */
} lh_hist;

typedef struct lh_view_name {
    char type[LH_OBJECT_TEXT];
    char name[LH_OBJECT_TEXT]; /* "" when the object has none */
} lh_view_name;

/* What a toolkit adapter can tell about an object (all copied: the object may die later). */
typedef struct lh_object_desc {
    uintptr_t address;
    lh_view_name node;                                   /* the object itself */
    size_t ancestor_count;                               /* root first */
    lh_view_name ancestors[LH_OBJECT_MAX_ANCESTORS];
    bool ancestors_truncated;
    bool has_geometry;
    int x, y, width, height;
} lh_object_desc;

/* A toolkit's own warning (a GLib log message about layout). */
typedef struct lh_report_warning {
    const char *domain;      /* "Gtk", "Gdk", or NULL */
    const char *level;       /* "warning", "critical", ... */
    const char *message;     /* as printed */
    const char *format;      /* the printf format it came from: stable across runs */
    /* Where the report's object comes from: "message" (the text names it), "layout" (the text names
     * none; the widget being laid out or measured on the thread when it was logged), or NULL (none:
     * the object is the domain). Schema 1.5. */
    const char *object_source;
} lh_report_warning;

/* Another object caught in the same loop: past half the limit in the same iteration(s). */
typedef struct lh_report_member {
    uintptr_t address;
    const char *hook;
    char type[64];
    char name[64];
    uint64_t count;          /* same unit as the report's count */
} lh_report_member;

/* An object whose layouts allocated: what was allocated while its layout ran (whole run). */
typedef struct lh_report_allocator {
    uintptr_t address;
    const char *hook;
    char type[64];
    char name[64];
    uint64_t bytes, calls;   /* allocated while its layout (through `hook`) ran */
    uint64_t layouts;        /* its layouts through `hook` */
} lh_report_allocator;

/* The memory side of a report (NULL when the alloc family is off). */
typedef struct lh_report_alloc {
    uint64_t iteration_calls, iteration_bytes, iteration_freed_bytes; /* the thread, this iteration */
    uint64_t live_bytes;             /* the process's live heap, as counted since LoopHunter started */
    bool has_object;                 /* the report's object was laid out: what its layouts allocated */
    uint64_t object_bytes, object_calls, object_layouts;
    uint64_t growth_iterations;      /* heap-growth: the length of the growth run; else 0 */
    uint64_t growth_start_live_bytes;
    const lh_report_allocator *top;  /* the objects whose layouts allocated most, most first */
    size_t top_count;
} lh_report_alloc;

/* A stall (see docs/report-schema.md). */
typedef struct lh_report_stall {
    uint64_t duration_ms;
    bool ongoing;
    bool has_sample;
    uint64_t sampled_after_ms;
    const char *method;      /* "signal", "scan", "none" */
    const char *syscall;     /* NULL: it was running */
    uint32_t samples;
} lh_report_stall;

/* One step on a window's way to its first frame: a signal emission (GTK) or a source's callback
 * (toykit), aggregated per (signal, object type, callback). */
typedef struct lh_report_step {
    char signal[64];
    char object_type[64];
    uintptr_t callback;      /* 0: none */
    uint64_t longest_us, count;
} lh_report_step;

/* A toplevel window's time to first frame. */
typedef struct lh_report_window {
    const char *title;       /* NULL: none */
    const char *since;       /* "creation" or "map" */
    uint64_t created_us, first_frame_us; /* since LoopHunter started; first_frame_us valid if painted */
    bool painted;
    uint64_t ttff_ms;
    const lh_report_step *steps; /* slowest first */
    size_t step_count;
} lh_report_window;

/* A timer source (timer kinds). */
typedef struct lh_report_timer {
    const char *source;      /* the API it came from */
    uintptr_t callback, data;
    int64_t interval_ms;     /* -1: none (idle) */
    uint64_t created_us, fires, live_sources;
    const char *storm_reason; /* NULL, "growth" or "fires" */
    /* growth: the run's iterations and the live sources at its start; fires: the source's fires in
     * a row, its loop never sleeping between them */
    uint64_t storm_iterations, storm_start_live, storm_fires;
    bool freed_during_dispatch;
} lh_report_timer;

/* Why the report's layouts were requested (docs/causes.md): the kind of cause of the request that
 * closed the loop, the widget requested, that request's stack and, for a deferred cause, the
 * callbacks that carried it from layout, nearest first. Its frames are resolved with modules of
 * its own (a section filled in by the relayout detector's report callback). */
#define LH_REPORT_CAUSE_LINKS 4
typedef struct lh_report_cause_link {
    const char *kind;        /* the context the callback was added in: "in-layout" or "deferred" */
    const char *added_with;  /* the entry point that added it (g_idle_add...), or NULL */
    bool has_callback;
    size_t callback;         /* index into the cause's frames */
    size_t stack_first, stack_count; /* where it was added, innermost first */
} lh_report_cause_link;

/* A frame of the script's own stack (Python, JavaScript) when the request was made. */
typedef struct lh_report_script_frame {
    const char *function, *file;
    uint32_t line;           /* 0: unknown */
} lh_report_script_frame;

typedef struct lh_report_cause {
    const char *kind;        /* "in-layout", "deferred", "result" */
    const char *entry;       /* the request's entry point (gtk_widget_queue_resize...), or NULL */
    uintptr_t widget_address;
    const char *widget_type, *widget_name, *widget_path; /* NULL: unknown */
    const lh_frame *frames;
    const lh_module *modules;
    size_t request_first, request_count;
    lh_report_cause_link links[LH_REPORT_CAUSE_LINKS];
    size_t link_count;
    bool chain_truncated;    /* older links were released before the report */
    /* Deferred: where the chain began (schema 1.10): "layout", or "geometry-change" (a Qt Quick
     * item's change handler); NULL: not deferred, or not known. Known even when the chain's older
     * links are gone. */
    const char *began_in;
    /* The interpreted stack of the request, innermost first (schema 1.7): the language ("python",
     * "javascript"; NULL: none) and its frames. */
    const char *script_language;
    const lh_report_script_frame *script;
    size_t script_count;
} lh_report_cause;

typedef struct lh_report_data {
    lh_kind kind;                /* LH_KIND_* (lh_shared.h) */
    const char *id;              /* unique: run tag, pid, sequence */
    uint64_t wall_ns;
    int pid, ppid;
    const char *executable;
    int tid;
    const char *thread_name;
    uint64_t iteration, layout_iteration;
    uint64_t frame;              /* toolkit frame number, 0 when frames do not drive the thread */
    const char *hook, *family, *toolkit;
    const lh_object_desc *object;
    uint64_t count, threshold;   /* storm: layouts this iteration / LOOPHUNTER_THRESHOLD;
                                    streak: hot iterations in a row / LOOPHUNTER_STREAK */
    const char *count_unit;
    /* streak only: the last hot iteration's layouts and the sizes around it */
    uint32_t last_iteration_layouts;
    uint64_t size_before, size_after; /* width << 32 | height, LH_GEOMETRY_NONE unknown */
    uint64_t streak_gap_ms;
    const lh_report_member *members;
    size_t member_count;
    const lh_hist *history;
    size_t history_count;
    const char *history_unit;     /* "iteration" or "frame" */
    const uint64_t *object_sizes; /* per history entry: the object's size then, LH_GEOMETRY_NONE unknown */
    const lh_report_warning *warning;
    const lh_report_alloc *alloc;
    const lh_report_stall *stall;
    const lh_report_window *window;
    const lh_report_timer *timer;
    const lh_report_cause *cause; /* NULL: no cause known (schema 1.6) */
    /* Frames (in `frames`) of the second stack (timer-outlives-target: where the timer was made),
     * and of the callbacks a window's steps and a timer name: frames[callback_frames + i] is step
     * i's (the timer's callback: the first). Both resolved with the report's modules. */
    size_t created_first, created_count;
    size_t callback_first, callback_count;
    const lh_frame *frames;
    size_t frame_count;
    bool frames_truncated;
    const lh_module *modules;
    size_t module_count;
    uint64_t fingerprint;
} lh_report_data;

/* Writes the report as one JSON object. Returns false when `out` overflowed. */
bool lh_report_compose(lh_buf *out, const lh_report_data *r) LH_HIDDEN;

/* A stable fingerprint (across runs and ASLR): kind, hook, object type, `extra` (NULL, or a text
 * that tells reports apart, like a warning's format), and the module file names and offsets of the
 * top `depth` frames. */
uint64_t lh_report_fingerprint(lh_kind kind, const char *hook, const char *type, const char *extra,
                               const lh_frame *frames, size_t frame_count, const lh_module *modules,
                               size_t depth) LH_HIDDEN;

/* "TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status'" */
void lh_report_path_text(lh_buf *out, const lh_object_desc *o) LH_HIDDEN;

#endif
