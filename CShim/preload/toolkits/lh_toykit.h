/*
 * lh_toykit.h — the notes of toykit's glue (lh_toolkit_toykit.c), called by the hook table's
 * generated wrappers (lh_hooks.def) on toykit's thread with the guard held: windows mapped and
 * painted, timers and idles added, removed, freed with their loop.
 */
#ifndef LH_TOYKIT_H
#define LH_TOYKIT_H

#include "lh_base.h"

void lh_toykit_root_added(unsigned hook, void *loop, void *root) LH_HIDDEN;
void lh_toykit_frame_done(unsigned hook, void *loop, unsigned long frame) LH_HIDDEN;
void lh_toykit_timer_added(unsigned hook, unsigned id, void *loop, int interval_ms, void *func, void *data) LH_HIDDEN;
void lh_toykit_idle_added(unsigned hook, unsigned id, void *loop, void *func, void *data) LH_HIDDEN;
void lh_toykit_source_removed(unsigned hook, void *loop, unsigned id) LH_HIDDEN;
void lh_toykit_loop_freed(unsigned hook, void *loop) LH_HIDDEN;
/* Layout requests and their causes: a request (tk_view_set_needs_layout), the application reading a
 * view's frame, a view freed. */
void lh_toykit_layout_requested(unsigned hook, void *view) LH_HIDDEN;
void lh_toykit_frame_read(unsigned hook, const void *view, void *out) LH_HIDDEN;
void lh_toykit_view_freed(unsigned hook, void *view) LH_HIDDEN;

#endif
