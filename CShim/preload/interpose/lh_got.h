/*
 * lh_got.h — installing the hook table in a process already running (`loophunter attach`): the
 * modules' GOT entries that name a row are pointed at our wrappers, and given back (lh_got.c).
 * Called with the thread's guard held, never inside a hook of the malloc family or a signal handler.
 */
#ifndef LH_GOT_H
#define LH_GOT_H

#include "lh_base.h"

/* Redirects the entries of every loaded module not redirected yet (the first call, and again when
 * modules were loaded since). false: another thread is doing it now, or no memory for the list. */
bool lh_got_redirect(void) LH_HIDDEN;
/* Gives every redirected entry back (waits for a redirect in progress on another thread). */
void lh_got_restore(void) LH_HIDDEN;
/* Whether the last pass left a module for later (its read-only part not yet protected by the
 * loader: being relocated on another thread); the next iteration boundary passes again. */
bool lh_got_pending(void) LH_HIDDEN;

#endif
