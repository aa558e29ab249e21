/*
 * toykit — a deliberately small GUI-style toolkit, the host program LoopHunter is tested on.
 *
 * It has what real toolkits have, in miniature, so that LoopHunter meets the same shapes there:
 *   - views in a tree (parent, children, frame, name, type name) with setNeedsLayout-style dirtying;
 *   - an exported per-view layout entry point, tk_view_layout(), that the layout pass and container
 *     layouts call through the PLT (libtoykit.so is built without -Bsymbolic and with semantic
 *     interposition), so an LD_PRELOAD library can interpose it exactly as it would a toolkit's;
 *   - an event loop built on poll(2) with timers, idle callbacks, a 60 Hz frame clock and a scripted
 *     input source (a pipe fed by a feeder thread, like events from a display server);
 *   - two layout-pass policies: TK_LAYOUT_UNCAPPED (keep laying out until clean within one
 *     iteration, like UIKit) and TK_LAYOUT_CAPPED (at most TK_CAPPED_PASSES passes per frame, the
 *     rest next frame, like GTK).
 *
 * Threading: a TkLoop and the views attached to it belong to the thread that runs the loop.
 * Several loops may run on several threads at once.
 */
#ifndef TOYKIT_H
#define TOYKIT_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_CAPPED_PASSES 4          /* layout passes per frame under TK_LAYOUT_CAPPED */
#define TK_UNCAPPED_PASS_LIMIT 1000 /* an uncapped pass gives up (and clears the dirt) after this many */
#define TK_FRAME_INTERVAL_MS 16     /* the frame clock: a frame at most every 16 ms when layout is pending */

typedef struct TkRect {
    int x, y, width, height;
} TkRect;

typedef struct TkView TkView;
typedef struct TkLoop TkLoop;

/* A view type. Instances point at their class; the class outlives them (static storage). */
typedef struct TkViewClass {
    const char *type_name;          /* e.g. "TkLabel", "Toolbar" */
    /* Lays the view out: may set its children's frames (tk_view_set_frame) and then lays out the
     * children that need it (tk_view_layout_children). NULL: a leaf with nothing to lay out. */
    void (*layout)(TkView *view);
} TkViewClass;

/* Classes the toolkit ships. */
extern const TkViewClass tk_window_class; /* "TkWindow": a root; lays its children out in a column */
extern const TkViewClass tk_box_class;    /* "TkBox": lays children out in a row */
extern const TkViewClass tk_label_class;  /* "TkLabel": a leaf whose width follows its text */

/* ---- Views ---------------------------------------------------------------------------------- */

TkView *tk_view_new(const TkViewClass *cls, const char *name);
/* Frees the view and its subtree (detaching it from its parent first). */
void tk_view_free(TkView *view);
void tk_view_add_child(TkView *parent, TkView *child);

TkView *tk_view_parent(const TkView *view);
size_t tk_view_child_count(const TkView *view);
TkView *tk_view_child_at(const TkView *view, size_t index);
const char *tk_view_type_name(const TkView *view);
const char *tk_view_name(const TkView *view);
/* The loop the view's root was added to (tk_loop_add_root), or NULL: the clock of its frames. */
TkLoop *tk_view_loop(const TkView *view);
void tk_view_get_frame(const TkView *view, TkRect *out);
void *tk_view_user_data(const TkView *view);
void tk_view_set_user_data(TkView *view, void *data);

/* Text of a label (copied). Setting a different text marks the label as needing layout, and its
 * parent too when the label's preferred width changed (the parent's layout sizes the label). */
void tk_label_set_text(TkView *label, const char *text);
const char *tk_label_text(const TkView *label);
/* Width a label's text wants: 7 px per byte plus 8 px padding. */
int tk_label_preferred_width(const TkView *label);

/* Sets the frame; a change of size marks the view as needing layout. */
void tk_view_set_frame(TkView *view, TkRect frame);
/* Marks the view dirty and tells its ancestors that a descendant needs layout. */
void tk_view_set_needs_layout(TkView *view);
bool tk_view_needs_layout(const TkView *view);

/* THE layout entry point (exported, interposable): clears the view's dirty flag, runs its class's
 * layout function, counts the layout. Containers call it for their children. */
void tk_view_layout(TkView *view);
/* For container layout functions: calls tk_view_layout() on every child that needs layout, and
 * descends into clean children that have dirty descendants. */
void tk_view_layout_children(TkView *view);

/* ---- Event loop ----------------------------------------------------------------------------- */

typedef enum TkLayoutPolicy {
    TK_LAYOUT_UNCAPPED = 0,
    TK_LAYOUT_CAPPED = 1,
} TkLayoutPolicy;

/* Returns true to keep the source, false to remove it. */
typedef bool (*TkSourceFunc)(void *data);
typedef void (*TkInputFunc)(const char *event, void *data);

/* One scripted input event: delivered `at_ms` after tk_loop_add_script() was called. */
typedef struct TkScriptEvent {
    int at_ms;
    const char *event; /* one line, no newline, e.g. "click reveal" or "key h" */
} TkScriptEvent;

typedef struct TkLoopStats {
    unsigned long iterations;      /* poll() returns */
    unsigned long frames;          /* layout frames run (capped) or iterations that laid out (uncapped) */
    unsigned long layout_passes;   /* passes over the roots */
    unsigned long layouts;         /* tk_view_layout() calls made on views of this loop */
    unsigned long abandoned;       /* uncapped passes given up at TK_UNCAPPED_PASS_LIMIT */
    unsigned long input_events;    /* scripted events delivered */
} TkLoopStats;

TkLoop *tk_loop_new(TkLayoutPolicy policy);
/* Stops and joins the feeder threads and frees the sources; the roots are detached, not freed. */
void tk_loop_free(TkLoop *loop);
TkLayoutPolicy tk_loop_policy(const TkLoop *loop);
void tk_loop_add_root(TkLoop *loop, TkView *root);
unsigned tk_loop_add_timer(TkLoop *loop, int interval_ms, TkSourceFunc func, void *data);
unsigned tk_loop_add_idle(TkLoop *loop, TkSourceFunc func, void *data);
void tk_loop_remove_source(TkLoop *loop, unsigned id);
/* Runs one timer or idle callback (the loop calls it for each; exported so that tools can time
 * callbacks and follow sources). Returns the callback's result. */
bool tk_source_dispatch(TkLoop *loop, unsigned id, TkSourceFunc func, void *data);
/* Called by the loop after each frame it laid out and "painted" (a marker, does nothing). */
void tk_loop_frame_done(TkLoop *loop, unsigned long frame);
/* Starts a feeder thread that writes the events, one line each, into a pipe the loop polls; the
 * loop calls `on_input` for each. `events` must stay valid until the loop is freed. Returns 0, or
 * -1 with errno set. */
int tk_loop_add_script(TkLoop *loop, const TkScriptEvent *events, size_t count, TkInputFunc on_input,
                       void *data);
/* Runs until tk_loop_quit() or `max_ms` elapsed (0: no limit). Returns the number of iterations.
 * tk_loop_quit() from a callback lets the current iteration finish (including its layout). */
unsigned long tk_loop_run(TkLoop *loop, int max_ms);
void tk_loop_quit(TkLoop *loop);
TkLoopStats tk_loop_stats(const TkLoop *loop);
/* Prints the view tree ("  Toolbar 'toolbar' 200x24" per line, indented) to stdout. */
void tk_view_dump(const TkView *root);

#ifdef __cplusplus
}
#endif
#endif
