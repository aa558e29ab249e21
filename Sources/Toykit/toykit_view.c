/*
 * toykit_view.c — toykit's views: the view tree, dirtying (tk_view_set_needs_layout and
 * tk_view_set_frame), THE layout entry point tk_view_layout() with tk_view_layout_children(), the
 * per-root layout pass the event loop runs, the built-in classes (TkWindow, TkBox, TkLabel) and
 * tk_view_dump().
 *
 * Interposition: tk_view_layout() has default visibility and is neither static nor inlined, and
 * libtoykit.so is built with -fPIC (semantic interposition) and without -Bsymbolic, so every call
 * to it in this library — from the layout pass, from tk_view_layout_children() and hence from every
 * container's layout function — goes through the PLT, where an LD_PRELOAD library can interpose it.
 *
 * The accessors (tk_view_name, tk_view_type_name, tk_view_parent, tk_view_get_frame, ...) are plain
 * getters — no allocation, no locks, no I/O — because a preload calls them from inside its hooks.
 */
#include "toykit_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Small allocation helpers (the library never prints; out of memory aborts) ---- */

static void *tk_xrealloc(void *p, size_t size) {
    void *q = realloc(p, size);
    if (!q) abort();
    return q;
}

static char *tk_xstrdup(const char *s) {
    char *copy = strdup(s ? s : "");
    if (!copy) abort();
    return copy;
}

/* ---- Tree ---------------------------------------------------------------------------------- */

TkView *tk_view_new(const TkViewClass *cls, const char *name) {
    TkView *view = calloc(1, sizeof *view);
    if (!view) abort();
    view->cls = cls;
    view->name = tk_xstrdup(name);
    view->dirty = true; /* a new view has never been laid out */
    return view;
}

/* Removes `child` from its parent's children (keeping the order of the others). */
static void detach_from_parent(TkView *child) {
    TkView *parent = child->parent;
    if (!parent) return;
    for (size_t i = 0; i < parent->child_count; i++) {
        if (parent->children[i] == child) {
            memmove(&parent->children[i], &parent->children[i + 1],
                    (parent->child_count - i - 1) * sizeof parent->children[0]);
            parent->child_count--;
            break;
        }
    }
    child->parent = NULL;
}

static void free_subtree(TkView *view) {
    for (size_t i = 0; i < view->child_count; i++) {
        view->children[i]->parent = NULL;
        free_subtree(view->children[i]);
    }
    free(view->children);
    free(view->name);
    free(view->text);
    free(view);
}

void tk_view_free(TkView *view) {
    if (!view) return;
    if (view->parent) detach_from_parent(view);
    else if (view->loop) tk__loop_forget_root(view->loop, view);
    free_subtree(view);
}

/* Tells every ancestor of `view` that a descendant needs layout. */
static void mark_ancestors(TkView *view) {
    for (TkView *p = view->parent; p; p = p->parent) p->dirty_descendant = true;
}

void tk_view_add_child(TkView *parent, TkView *child) {
    if (!parent || !child || child == parent) return;
    if (child->parent) detach_from_parent(child);
    else if (child->loop) tk__loop_forget_root(child->loop, child);
    if (parent->child_count == parent->child_cap) {
        parent->child_cap = parent->child_cap ? parent->child_cap * 2 : 4;
        parent->children = tk_xrealloc(parent->children, parent->child_cap * sizeof parent->children[0]);
    }
    parent->children[parent->child_count++] = child;
    child->parent = parent;
    /* Dirt the child brought along now belongs to this tree. */
    if (child->dirty || child->dirty_descendant) {
        mark_ancestors(child);
        TkLoop *loop = tk__view_loop(parent);
        if (loop) tk__loop_note_layout_pending(loop);
    }
}

/* ---- Accessors (plain getters) ---- */

TkView *tk_view_parent(const TkView *view) { return view ? view->parent : NULL; }
size_t tk_view_child_count(const TkView *view) { return view ? view->child_count : 0; }

TkView *tk_view_child_at(const TkView *view, size_t index) {
    return view && index < view->child_count ? view->children[index] : NULL;
}

const char *tk_view_type_name(const TkView *view) {
    return view && view->cls ? view->cls->type_name : NULL;
}

const char *tk_view_name(const TkView *view) { return view ? view->name : NULL; }

void tk_view_get_frame(const TkView *view, TkRect *out) {
    if (!out) return;
    if (view) *out = view->frame;
    else *out = (TkRect){0, 0, 0, 0};
}

void *tk_view_user_data(const TkView *view) { return view ? view->user_data : NULL; }
void tk_view_set_user_data(TkView *view, void *data) {
    if (view) view->user_data = data;
}

bool tk_view_needs_layout(const TkView *view) { return view && view->dirty; }

TK_HIDDEN TkLoop *tk__view_loop(const TkView *view) {
    if (!view) return NULL;
    while (view->parent) view = view->parent;
    return view->loop;
}

TkLoop *tk_view_loop(const TkView *view) { return tk__view_loop(view); }

/* ---- Dirtying ------------------------------------------------------------------------------ */

void tk_view_set_needs_layout(TkView *view) {
    if (!view) return;
    view->dirty = true;
    mark_ancestors(view);
    TkLoop *loop = tk__view_loop(view);
    if (loop) tk__loop_note_layout_pending(loop);
}

void tk_view_set_frame(TkView *view, TkRect frame) {
    if (!view) return;
    bool resized = frame.width != view->frame.width || frame.height != view->frame.height;
    view->frame = frame;
    if (resized) tk_view_set_needs_layout(view); /* moving alone does not need a layout */
}

/* ---- Labels -------------------------------------------------------------------------------- */

const char *tk_label_text(const TkView *label) {
    return label && label->text ? label->text : "";
}

int tk_label_preferred_width(const TkView *label) {
    return 7 * (int)strlen(tk_label_text(label)) + 8;
}

void tk_label_set_text(TkView *label, const char *text) {
    if (!label) return;
    if (!text) text = "";
    if (strcmp(tk_label_text(label), text) == 0) return;
    int old_width = tk_label_preferred_width(label);
    free(label->text);
    label->text = tk_xstrdup(text);
    tk_view_set_needs_layout(label);
    /* A label's size is set by its parent's layout: if the width the text wants changed, the
     * parent has to lay it out again (what toolkits call queueing a resize). */
    if (label->parent && tk_label_preferred_width(label) != old_width)
        tk_view_set_needs_layout(label->parent);
}

/* ---- Layout -------------------------------------------------------------------------------- */

/* THE layout entry point. Exported with default visibility and never inlined, so calls to it from
 * inside libtoykit.so go through the PLT (see the top of the file). */
__attribute__((noinline)) void tk_view_layout(TkView *view) {
    if (!view) return;
    view->dirty = false; /* before the layout function, which may dirty the view again */
    TkLoop *loop = tk__view_loop(view);
    if (loop) tk__loop_count_layout(loop);
    if (view->cls && view->cls->layout) view->cls->layout(view);
    TK_NO_TAIL_CALL();
}

/* After a view's children were visited: does anything below it still (or again) need layout? */
static void recompute_dirty_descendant(TkView *view) {
    for (size_t i = 0; i < view->child_count; i++) {
        if (view->children[i]->dirty || view->children[i]->dirty_descendant) {
            view->dirty_descendant = true;
            return;
        }
    }
}

/* For container layout functions. The flag is cleared before the children are visited, so dirt
 * made while they are laid out (tk_view_set_needs_layout marks every ancestor) shows up again. */
void tk_view_layout_children(TkView *view) {
    if (!view) return;
    view->dirty_descendant = false;
    for (size_t i = 0; i < view->child_count; i++) {
        TkView *child = view->children[i];
        if (child->dirty) tk_view_layout(child);
        else if (child->dirty_descendant) tk_view_layout_children(child);
    }
    recompute_dirty_descendant(view);
}

/* The layout pass's descent through clean views to the top-most dirty ones. A separate function
 * from tk_view_layout_children() so that stacks tell pass-initiated layouts (called from here)
 * apart from container-initiated ones (called from tk_view_layout_children). */
static __attribute__((noinline)) void tk_layout_pass_descend(TkView *view) {
    view->dirty_descendant = false;
    for (size_t i = 0; i < view->child_count; i++) {
        TkView *child = view->children[i];
        if (child->dirty) tk_view_layout(child);
        else if (child->dirty_descendant) tk_layout_pass_descend(child);
    }
    recompute_dirty_descendant(view);
}

TK_HIDDEN void tk__layout_pass_root(TkView *root) {
    if (root->dirty) tk_view_layout(root);
    else if (root->dirty_descendant) tk_layout_pass_descend(root);
    TK_NO_TAIL_CALL();
}

TK_HIDDEN bool tk__view_has_dirt(const TkView *view) {
    return view->dirty || view->dirty_descendant;
}

TK_HIDDEN void tk__view_clear_dirt(TkView *view) {
    view->dirty = false;
    view->dirty_descendant = false;
    for (size_t i = 0; i < view->child_count; i++) tk__view_clear_dirt(view->children[i]);
}

/* ---- Built-in classes ---------------------------------------------------------------------- */

/* TkWindow: children in a column, each the full window width at its current height. */
static __attribute__((noinline)) void tk_window_layout(TkView *window) {
    int y = 0;
    for (size_t i = 0; i < window->child_count; i++) {
        TkView *child = window->children[i];
        tk_view_set_frame(child, (TkRect){0, y, window->frame.width, child->frame.height});
        y += child->frame.height;
    }
    tk_view_layout_children(window);
    TK_NO_TAIL_CALL();
}

/* TkBox: children in a row, each at its preferred width (labels: their text's; others: their
 * current width) and the box's height. */
static __attribute__((noinline)) void tk_box_layout(TkView *box) {
    int x = 0;
    for (size_t i = 0; i < box->child_count; i++) {
        TkView *child = box->children[i];
        int width = child->cls == &tk_label_class ? tk_label_preferred_width(child) : child->frame.width;
        tk_view_set_frame(child, (TkRect){x, 0, width, box->frame.height});
        x += width;
    }
    tk_view_layout_children(box);
    TK_NO_TAIL_CALL();
}

const TkViewClass tk_window_class = {"TkWindow", tk_window_layout};
const TkViewClass tk_box_class = {"TkBox", tk_box_layout};
const TkViewClass tk_label_class = {"TkLabel", NULL}; /* a leaf: its parent sizes it */

/* ---- Dump ---------------------------------------------------------------------------------- */

static void dump_view(const TkView *view, int depth) {
    const char *type = tk_view_type_name(view);
    printf("%*s%s '%s' %dx%d\n", depth * 2, "", type ? type : "?", view->name, view->frame.width,
           view->frame.height);
    for (size_t i = 0; i < view->child_count; i++) dump_view(view->children[i], depth + 1);
}

void tk_view_dump(const TkView *root) {
    if (root) dump_view(root, 0);
}
