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
/* The same, for a request made by a call that may lay the widget out at once before it asks (a Qt
 * setter resizes a widget below its new minimum, then posts its LayoutRequest): `layouts` is the
 * widget's count when that call began (lh_relayout_layouts then), so that layout follows it too. */
void lh_relayout_request_since(lh_tls *t, unsigned layout_hook, const void *widget, unsigned entry,
                               uint64_t layouts) LH_HIDDEN;
/* The widget's layouts counted under `layout_hook` so far (0: none yet; no slot is claimed). */
uint64_t lh_relayout_layouts(unsigned layout_hook, const void *widget) LH_HIDDEN;
/* A frame of `clock` has been laid out and painted: the requests made before its layout are
 * judged. `laid_out`: false when the frame laid nothing out (a repaint, known for Qt Quick): when
 * it also counted nothing, and the run's last frame was counted by an allocation that alternates,
 * it belongs to the frame in progress (at most RL_MERGED_MAX in a row), so a result loop whose
 * round takes a frame with layout and a repaint is laid out in every frame. */
void lh_relayout_frame_done(lh_tls *t, const void *clock, bool laid_out) LH_HIDDEN;
/* An iteration of the loop of a clock that has no frames of its own (Qt's widgets: its frames are
 * the iterations that lay out) is over; `wait_ms`: the loop is about to wait for something from
 * outside (input, a timer, I/O), not for a callback that layout scheduled, this long (-1: until
 * something comes; 0: it does not wait). An iteration that
 * counted nothing and did not sleep belongs to the frame in progress (at most RL_MERGED_MAX of them
 * in a row): a loop whose round takes two iterations (a queued call, then the layout it asked for;
 * two layout passes, then one) is laid out in every frame, back to back. A sleep ends the frame and
 * is an empty frame of its own: the steps of an animation, or the relayouts a timer's tick starts,
 * are never back to back, while a loop that sleeps only for its own callbacks keeps its run. A wait
 * of at most a display frame in a run counted by allocations that alternate (a result loop on a
 * 16 ms timer) is no empty frame. */
void lh_relayout_iteration_done(lh_tls *t, const void *clock, int32_t wait_ms) LH_HIDDEN;
/* An iteration of the loop is over in which a widget of `clock` (a clock that has frames) was laid
 * out at once by its request, outside the clock's frames (a Qt Quick item whose geometry a queued
 * call set): the iteration ends a frame of the clock, so a loop that closes in the event loop
 * faster than the window's frames (which it starves) counts each round, back to back. When that
 * frame counted, the clock's own frame that follows does not end an empty frame if nothing is
 * left to count in it. */
void lh_relayout_laid_out_between_frames(lh_tls *t, const void *clock) LH_HIDDEN;
/* The frame clock `widget`'s requests are judged by (its root's; NULL: none yet). The widget is
 * alive. */
const void *lh_relayout_clock_of(lh_tls *t, unsigned layout_hook, const void *widget) LH_HIDDEN;
/* `widget` is being finalized: it is forgotten (a new object at its address is another). */
void lh_relayout_forget(const void *widget) LH_HIDDEN;
/* `root` and every widget below it are being freed (through `tk`'s parents; they are alive). */
void lh_relayout_forget_subtree(const lh_toolkit *tk, const void *root) LH_HIDDEN;

#endif
