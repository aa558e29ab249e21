/*
 * lh_detectors.h — the detector interface: what a detector is (one row of lh_detectors.def) and
 * the runtime events it may receive. The runtime reaches detectors only through this table; a
 * detector receives its own family's events only; no detector calls another.
 *
 * Each callback runs on the thread that caused the event, with its guard held and errno kept by
 * the caller (except where said), under the same contracts as every hook: no malloc of the host's,
 * no lock, no stdio. Any callback may be NULL.
 */
#ifndef LH_DETECTORS_H
#define LH_DETECTORS_H

#include "lh_runtime.h"

typedef struct lh_breach lh_breach;

#define LH_REPORT_SCRATCH 32768

typedef struct lh_detector {
    const char *name;
    /* ---- lifetime ---- */
    /* Start-up (before LoopHunter is ready; the configuration is loaded): map memory. 0 or -errno
     * (then a start-up message says the detector is off in this process). */
    int (*init)(void);
    /* The end of start-up, on every row whatever its family: `ready` LoopHunter is on (the
     * allocation detector starts or stops counting here). */
    void (*started)(bool ready);
    /* In the child of fork(), single-threaded: forget what belongs to the parent. Also at the start
     * of a later `loophunter attach` session (other threads live on, none counting): forget the
     * last session's state. */
    void (*after_fork)(void);
    /* `loophunter attach`: a later session has begun (after after_fork), and a session ends (the
     * summary is written): a detector's own threads stop before `detached` returns, and may start
     * again after `attached`. */
    void (*attached)(void);
    void (*detached)(void);
    /* A thread got record `index` (reused records are cleared here), or its thread exits. */
    void (*thread_start)(lh_tls *t, size_t index);
    void (*thread_exit)(lh_tls *t, size_t index);
    /* At exit, before the summary: what is still going on is reported. */
    void (*flush)(lh_tls *t);
    /* ---- iterations ---- */
    /* The thread's epoch (iteration, or frame on a frame-driven thread) ends: `h` is its history
     * entry to complete (NULL on a thread without a record, and before its first epoch); t->epoch
     * is still the one ending (0: the thread had none yet). */
    void (*epoch_end)(lh_tls *t, lh_hist *h);
    /* The next epoch has begun (t->epoch, t->past_first_epoch are its own): per-epoch state starts
     * again. A report written here has the epoch that ended as the last one of its history. */
    void (*epoch_begin)(lh_tls *t);
    /* The running epoch's history entry so far, for a report written now. */
    void (*epoch_so_far)(const lh_tls *t, lh_hist *h);
    /* A loop thread woke up from its event loop's wait / goes back to wait. */
    void (*loop_busy)(lh_tls *t, unsigned hook, uint64_t now);
    void (*loop_wait)(lh_tls *t, uint64_t now);
    /* A loop thread left its event loop (the outermost GLib loop call returned): what it does until
     * its next wait (sleep on a condition variable, run a loop of its own) is no iteration. */
    void (*loop_left)(lh_tls *t, uint64_t now);
    /* ---- the process ---- */
    /* free(): a block goes back to the allocator (only a block the watched-block filter says may be
     * watched: lh_watch_block; not guarded: the callback takes the guard itself when it does
     * anything). */
    void (*block_freed)(void *block);
    /* A dlclose unloaded code and data: texts kept for the summary for which `gone` says true
     * must be forgotten (they would be read from memory mapped there since). */
    void (*module_unloaded)(bool (*gone)(const void *address));
    /* ---- output ---- */
    /* Its sections of the summary, and its fields in the summary's entry of thread record `index`
     * (`live`: the thread still runs). */
    void (*summary)(lh_json *j);
    void (*thread_summary)(lh_json *j, size_t index, bool live);
    /* Its part of every report written on this thread (`r` is being filled in); `scratch`:
     * LH_REPORT_SCRATCH bytes of the breach path's own memory for what `r` points to. */
    void (*report)(lh_tls *t, const lh_breach *b, lh_report_data *r, void *scratch);
} lh_detector;

#define LH_DETECTOR(name, family) extern const lh_detector lh_detector_##name LH_HIDDEN;
#include "lh_detectors.def"

/* The table, in row order, with each row's family. */
typedef struct lh_detector_row {
    const lh_detector *detector;
    unsigned family;
} lh_detector_row;
enum {
#define LH_DETECTOR(name, family) LH_DETECTOR_##name,
#include "lh_detectors.def"
    LH_DETECTOR_COUNT
};
extern const lh_detector_row lh_detector_rows[LH_DETECTOR_COUNT] LH_HIDDEN;

/* The runtime's events, each sent to the detectors switched on that take it. For each, the list
 * of their callbacks is made once at start-up (lh_detectors_init, when the families are known), so
 * that sending an event on a hot path (two per epoch) is a loop over the callbacks that exist. */
#define LH_DETECTOR_EVENTS(X)                                                                       \
    X(thread_start) X(thread_exit) X(flush) X(epoch_end) X(epoch_begin) X(epoch_so_far) X(loop_busy) \
    X(loop_wait) X(loop_left) X(block_freed) X(module_unloaded)

typedef struct lh_detector_events {
#define LH_EVENT_LIST(member)                                                                       \
    __typeof__(((lh_detector *)0)->member) member[LH_DETECTOR_COUNT];                               \
    uint8_t member##_count;
    LH_DETECTOR_EVENTS(LH_EVENT_LIST)
#undef LH_EVENT_LIST
} lh_detector_events;
extern lh_detector_events lh_events LH_HIDDEN;

/* Sends event `member` (with its arguments) to every detector switched on that takes it; call
 * only once LoopHunter is ready. LH_EVERY_DETECTOR calls `member` of every detector that has it,
 * whatever its family (start-up, fork, the summary, which says a detector was off). */
#define LH_EACH_DETECTOR(member, ...)                                                               \
    do {                                                                                            \
        for (size_t i_ = 0; i_ < lh_events.member##_count; i_++) lh_events.member[i_](__VA_ARGS__); \
    } while (0)
#define LH_EVERY_DETECTOR(member, ...)                                                              \
    do {                                                                                            \
        for (size_t i_ = 0; i_ < LH_DETECTOR_COUNT; i_++) {                                         \
            const lh_detector *d_ = lh_detector_rows[i_].detector;                                  \
            if (d_->member != NULL) d_->member(__VA_ARGS__);                                        \
        }                                                                                           \
    } while (0)

/* Start-up, once the configuration is loaded: each detector's init, in row order (one message for a
 * detector that cannot start), and the event lists. */
void lh_detectors_init(void) LH_HIDDEN;

#endif
