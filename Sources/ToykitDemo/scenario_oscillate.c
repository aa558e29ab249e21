/*
 * scenario_oscillate.c — `oscillate` (UNCAPPED): two sibling panes whose layouts fight across
 * iterations, A → B → A, without ever looping inside one iteration.
 *
 * TkWindow 'main' → "SplitView" 'split' (oscillate_split_layout)
 *                      → "Pane" 'left' (oscillate_left_layout)
 *                      → "Pane" 'right' (oscillate_right_layout)
 *
 * Laying out one pane schedules an idle (unless one is pending) that flips the OTHER pane's width
 * between 100 and 140, which marks it dirty and, as a size change does in real toolkits (GTK's
 * queue_resize), its parent too: the split view lays both panes out side by side. So every
 * iteration both idles run, the split view and both panes are laid out once each, the panes with a
 * width different from the previous iteration, and — an idle being pending — the loop never sleeps. Exactly 150 iterations lay the panes out (counted in
 * oscillate_left_layout, which quits on the 150th; the right pane's layout in that pass still runs).
 */
#include <stdio.h>

#include "demo.h"

#define OSCILLATE_ITERATIONS 150

typedef struct Oscillate {
    TkLoop *loop;
    TkView *main, *split, *left, *right;
    bool left_flip_pending, right_flip_pending;
    unsigned long left_layouts, right_layouts;
    bool finished;
} Oscillate;

__attribute__((noinline)) void oscillate_split_layout(TkView *split);
__attribute__((noinline)) void oscillate_left_layout(TkView *left);
__attribute__((noinline)) void oscillate_right_layout(TkView *right);

static const TkViewClass oscillate_split_class = {"SplitView", oscillate_split_layout};
static const TkViewClass oscillate_left_class = {"Pane", oscillate_left_layout};
static const TkViewClass oscillate_right_class = {"Pane", oscillate_right_layout};

__attribute__((noinline)) static void flip_width(TkView *pane) {
    TkRect frame;
    tk_view_get_frame(pane, &frame);
    frame.width = frame.width == 100 ? 140 : 100;
    tk_view_set_frame(pane, frame); /* a new size: marks the pane dirty */
    tk_view_set_needs_layout(tk_view_parent(pane)); /* and its parent, which arranges it */
}

/* The split view: the left pane at x = 0, the right pane right after it. */
__attribute__((noinline)) void oscillate_split_layout(TkView *split) {
    TkView *left = tk_view_child_at(split, 0), *right = tk_view_child_at(split, 1);
    TkRect l, r;
    tk_view_get_frame(left, &l);
    tk_view_get_frame(right, &r);
    r.x = l.x + l.width;
    tk_view_set_frame(right, r);
    tk_view_layout_children(split);
    DEMO_NO_TAIL_CALL();
}

static bool oscillate_flip_left(void *data) {
    Oscillate *o = data;
    o->left_flip_pending = false;
    flip_width(o->left);
    return false;
}

static bool oscillate_flip_right(void *data) {
    Oscillate *o = data;
    o->right_flip_pending = false;
    flip_width(o->right);
    return false;
}

/* The left pane, once laid out, wants the right pane to have the other width. */
__attribute__((noinline)) void oscillate_left_layout(TkView *left) {
    Oscillate *o = tk_view_user_data(left);
    if (++o->left_layouts >= OSCILLATE_ITERATIONS) {
        o->finished = true;
        tk_loop_quit(o->loop);
    }
    if (!o->right_flip_pending) {
        o->right_flip_pending = true;
        tk_loop_add_idle(o->loop, oscillate_flip_right, o);
    }
    DEMO_NO_TAIL_CALL();
}

/* ... and the right pane wants the same of the left one. */
__attribute__((noinline)) void oscillate_right_layout(TkView *right) {
    Oscillate *o = tk_view_user_data(right);
    o->right_layouts++;
    if (!o->left_flip_pending) {
        o->left_flip_pending = true;
        tk_loop_add_idle(o->loop, oscillate_flip_left, o);
    }
    DEMO_NO_TAIL_CALL();
}

int scenario_oscillate(void) {
    Oscillate o = {0};
    o.loop = tk_loop_new(TK_LAYOUT_UNCAPPED);
    o.main = tk_view_new(&tk_window_class, "main");
    o.split = tk_view_new(&oscillate_split_class, "split");
    o.left = tk_view_new(&oscillate_left_class, "left");
    o.right = tk_view_new(&oscillate_right_class, "right");
    tk_view_set_user_data(o.left, &o);
    tk_view_set_user_data(o.right, &o);
    tk_view_set_frame(o.main, (TkRect){0, 0, 320, 240});
    tk_view_set_frame(o.split, (TkRect){0, 0, 320, 200});
    tk_view_set_frame(o.left, (TkRect){0, 0, 100, 200});
    tk_view_set_frame(o.right, (TkRect){0, 0, 100, 200});
    tk_view_add_child(o.main, o.split);
    tk_view_add_child(o.split, o.left);
    tk_view_add_child(o.split, o.right);
    tk_loop_add_root(o.loop, o.main);

    tk_loop_run(o.loop, DEMO_MAX_RUN_MS);

    TkLoopStats stats = tk_loop_stats(o.loop);
    printf("oscillate: iterations with layouts=%lu\n", stats.frames);
    printf("oscillate: layouts left=%lu right=%lu\n", o.left_layouts, o.right_layouts);
    printf("oscillate: abandoned layout passes=%lu\n", stats.abandoned);
    printf("oscillate: toykit layouts=%lu\n", stats.layouts); /* ground truth for LoopHunter */
    tk_view_dump(o.main);
    int status = o.finished ? 0 : 1;
    tk_loop_free(o.loop);
    tk_view_free(o.main);
    printf("scenario oscillate: done\n");
    return status;
}
