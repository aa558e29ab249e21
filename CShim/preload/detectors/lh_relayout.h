/*
 * lh_relayout.h — the relayout detector's inputs (lh_relayout.c): every layout request a toolkit's
 * glue sees, the end of each frame of a frame clock (GTK: a toplevel's GdkFrameClock; toykit: a
 * loop), and widgets that die. Called on the toolkit's thread with the guard held.
 */
#ifndef LH_RELAYOUT_H
#define LH_RELAYOUT_H

#include "lh_cause.h"

/* A layout request on `widget`, whose layouts are counted under `layout_hook` (gtk_allocate,
 * tk_view_layout) and described by that hook's adapter; `entry`: the hook id of the request's
 * entry point (for the summary). The widget is alive (the toolkit was just asked about it). */
void lh_relayout_request(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry) LH_HIDDEN;
/* A frame of `clock` has been laid out and painted: the requests made before its layout are
 * judged. */
void lh_relayout_frame_done(lh_tls *t, const void *clock) LH_HIDDEN;
/* An iteration of the loop of a clock that has no frames of its own (Qt's widgets: its frames are
 * the iterations that lay out) is over; `slept`: the loop is about to wait for something from
 * outside (input, a timer, I/O), not for a callback that layout scheduled. An iteration that
 * counted nothing and did not sleep belongs to the frame in progress (at most RL_MERGED_MAX of them
 * in a row): a loop whose round takes two iterations (a queued call, then the layout it asked for;
 * two layout passes, then one) is laid out in every frame, back to back. A sleep ends the frame and
 * is an empty frame of its own: the steps of an animation, or the relayouts a timer's tick starts,
 * are never back to back, while a loop that sleeps only for its own callbacks keeps its run. */
void lh_relayout_iteration_done(lh_tls *t, const void *clock, bool slept) LH_HIDDEN;
/* `widget` is being finalized: it is forgotten (a new object at its address is another). */
void lh_relayout_forget(const void *widget) LH_HIDDEN;
/* `root` and every widget below it are being freed (through `tk`'s parents; they are alive). */
void lh_relayout_forget_subtree(const lh_toolkit *tk, const void *root) LH_HIDDEN;

#endif
