/*
 * lh_watch.h — size reads that leave no call to see (a toolkit getter inline in its headers:
 * Qt's QWidget::width()), seen with the CPU's debug registers (lh_watch.c).
 *
 * An object that keeps getting outside requests, each after a layout of it, is a suspect: the code
 * that asks again may have read what the layout gave it. LoopHunter then points a hardware
 * breakpoint (perf_event_open(2), counting every read and write of the object's size field into a
 * ring of instruction addresses, no signal) at the field its toolkit keeps the size in. At the
 * object's next outside request, a read in this iteration from code outside the toolkit's
 * libraries (and libc, the loader, LoopHunter) is a size read (lh_cause_note_read): the request is
 * result-caused, as when a getter call is seen.
 *
 * Contracts: called on one thread at a time per watch set (the first thread that arms one owns
 * them; Qt's widgets live on the GUI thread), guard held; no allocation (the ring is mmap'd from
 * the perf descriptor, which is closed at once: no descriptor is held); no lock; errno preserved by
 * the callers' guard. Never inside a seccomp sandbox. At most two objects watched (of the
 * four debug registers a thread has; a debugger may hold others: then nothing is watched).
 */
#ifndef LH_WATCH_H
#define LH_WATCH_H

#include "lh_json.h"
#include "lh_runtime.h"

/* Whether a watch is armed on the calling thread (initial-exec TLS, owner-only). */
extern __thread bool lh_watch_armed __attribute__((tls_model("initial-exec"))) LH_HIDDEN;

/* An outside request on `object`, whose layouts so far are `layouts` (its table slot's total).
 * `field` gives the address of the 8 bytes of its size the toolkit's inline getters read (NULL:
 * not known for this object); `libraries`, NULL-terminated file-name prefixes of the toolkit's
 * code. Returns whether code outside the toolkit read that field in this iteration (the object
 * watched). Guard held. */
bool lh_watch_request(lh_tls *t, const void *object, uint64_t layouts, const void *(*field)(const void *),
                      const char *const *libraries) LH_HIDDEN;

void lh_watch_iteration_slow(lh_tls *t) LH_HIDDEN;
/* An iteration of the thread's loop begins: reads made before it explain no request. */
static inline void lh_watch_iteration(lh_tls *t) {
    if (LH_UNLIKELY(lh_watch_armed)) lh_watch_iteration_slow(t);
}

/* `object` is being destroyed: its watch goes (its memory is another object's soon). */
void lh_watch_forget(const void *object) LH_HIDDEN;
/* The calling thread exits, or the session ends on it: its watches go. */
void lh_watch_stop(void) LH_HIDDEN;
/* In the child of fork: the rings were not inherited (MADV_DONTFORK); nothing is watched. */
void lh_watch_after_fork(void) LH_HIDDEN;
/* The summary's `inline_reads`. */
void lh_watch_summary(lh_json *j) LH_HIDDEN;

#endif
