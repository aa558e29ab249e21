/*
 * lh_window.h — the window detector's inputs (lh_window.c), called by the toolkits' adapters on
 * the host's GUI thread with the guard held: windows made, shown, painted, gone, and the steps
 * (callbacks, signal emissions) timed while a shown window waits for its first frame.
 */
#ifndef LH_WINDOW_H
#define LH_WINDOW_H

#include "lh_runtime.h"

/* Signal emissions shorter than this are not worth listing as steps. */
#define LH_WINDOW_STEP_MIN_US 1000

/* A toplevel window was created through `hook` (`loop`: its toykit loop, the clock that paints it;
 * NULL: ask the adapter for its frame clock; `mapped`: it is on screen now). */
void lh_window_created(const lh_toolkit *tk, unsigned hook, const void *object, const void *loop, bool mapped) LH_HIDDEN;
/* GTK 3 made a popup window (a menu's, a tooltip's): not followed, only counted. */
void lh_window_popup(void) LH_HIDDEN;
/* A window was shown, or mapped (on screen): the clock of its time to first frame starts (if it
 * was not yet). A window whose first frame comes without either having been seen is not timed. */
void lh_window_shown(const void *object) LH_HIDDEN;
void lh_window_mapped(const void *object) LH_HIDDEN;
/* A frame was painted by frame clock (or toykit loop) `loop_or_clock`. */
void lh_window_painted(lh_tls *t, const void *loop_or_clock) LH_HIDDEN;
/* A window (shown or not) has no frame yet: only then is lh_window_painted worth calling. */
bool lh_windows_unpainted(void) LH_HIDDEN;
/* A step on the way of the windows waiting for their first frame (`callback`: 0 when none). */
void lh_window_step(const char *signal, const char *object_type, uintptr_t callback, uint64_t us) LH_HIDDEN;
/* The window is gone (finalized), or every window of a toykit loop (freed). */
void lh_window_forget(const void *object) LH_HIDDEN;
void lh_window_forget_loop(const void *loop) LH_HIDDEN;

#endif
