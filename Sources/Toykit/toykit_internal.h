/*
 * toykit_internal.h — private to libtoykit.so: the view structure and the few hidden helpers that
 * toykit_view.c (the view tree and layout) and toykit_loop.c (the event loop) call in each other.
 * Nothing here is exported: every helper has hidden visibility, so calls to it are direct calls,
 * while tk_view_layout() (declared in toykit.h) keeps default visibility and is always called
 * through the PLT.
 */
#ifndef TOYKIT_INTERNAL_H
#define TOYKIT_INTERNAL_H

#include "toykit.h"

#define TK_HIDDEN __attribute__((visibility("hidden")))

/* Placed right after a function's last call, keeps gcc from turning that call into a jump (a
 * sibling call), which would take the function's frame off the stack: stacks taken inside a layout
 * must show every layout function and tk_view_layout() frame on the way. */
#define TK_NO_TAIL_CALL() __asm__ volatile("" ::: "memory")

struct TkView {
    const TkViewClass *cls;
    char *name;               /* owned copy, never NULL */
    TkView *parent;
    TkView **children;        /* dynamic array of child_count (capacity child_cap) */
    size_t child_count, child_cap;
    TkRect frame;             /* relative to the parent */
    bool dirty;               /* the view itself needs layout */
    bool dirty_descendant;    /* some view below it needs layout */
    void *user_data;
    char *text;               /* label text (owned; NULL means "") */
    TkLoop *loop;             /* roots only: the loop the root was added to (tk_loop_add_root) */
};

/* ---- toykit_view.c, for the loop ---- */

/* The loop a view belongs to: its root's loop, or NULL. Walks up the parents; no allocation. */
TK_HIDDEN TkLoop *tk__view_loop(const TkView *view);
/* True when the view or anything below it needs layout. */
TK_HIDDEN bool tk__view_has_dirt(const TkView *view);
/* Clears every dirty flag in the subtree (an abandoned uncapped pass). */
TK_HIDDEN void tk__view_clear_dirt(TkView *view);
/* One layout pass over one root: lays the root out if it is dirty, else descends and lays out the
 * top-most dirty views (each through tk_view_layout(), i.e. through the PLT). */
TK_HIDDEN void tk__layout_pass_root(TkView *root);

/* ---- toykit_loop.c, for the views ---- */

/* A view of this loop was marked as needing layout. */
TK_HIDDEN void tk__loop_note_layout_pending(TkLoop *loop);
/* tk_view_layout() ran on a view of this loop. */
TK_HIDDEN void tk__loop_count_layout(TkLoop *loop);
/* A root of this loop is being freed or attached under another view: forget it. */
TK_HIDDEN void tk__loop_forget_root(TkLoop *loop, TkView *root);

#endif
