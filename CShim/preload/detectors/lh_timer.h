/*
 * lh_timer.h — the timer detector's inputs (lh_timer.c): a toolkit's adapter tracks each timer
 * source it sees made (a record that lives as long as the source), counts its fires and its ends;
 * and the POSIX timer hooks' notes. Called with the guard held, on the thread of the event.
 */
#ifndef LH_TIMER_H
#define LH_TIMER_H

#include "lh_runtime.h"

#define LH_TIMERS 4096
#define LH_TIMER_PCS 24

/* One timer source being followed. */
enum { T_FREE = 0, T_LIVE = 1, T_ENDING = 2 };

typedef struct lh_timer_rec {
    _Atomic uint32_t state;      /* T_*: CAS FREE→LIVE by the creator; LIVE→ENDING by whoever ends it */
    unsigned hook;               /* the API it came from */
    uintptr_t func, data;        /* the program's callback and user data */
    void (*notify)(void *);      /* GLib: the program's destroy notify, or NULL */
    int64_t interval_ms;         /* -1: an idle */
    uint64_t created_ns;
    _Atomic uint64_t fires;
    const void *owner;           /* toykit: the TkLoop; POSIX: the timer_t */
    unsigned id;                 /* toykit: the source id */
    bool armed;                  /* POSIX: timer_settime gave it a time */
    bool dispatching;            /* its callback is running (the dispatching thread's) */
    bool freed_in_dispatch;      /* its data was freed by its own callback */
    bool reported;               /* a timer-outlives-target report was written for it */
    /* Fires in a row with its loop never sleeping between them (the dispatching thread's). */
    bool spin_reported;          /* a timer-storm "fires" report was written for it */
    uint32_t spin_run;           /* the fires of the current run */
    int32_t spin_tid;            /* the thread of the run */
    uint64_t spin_sleeps;        /* that thread's sleeping waits at the run's last fire */
    uint32_t pc_count;
    uintptr_t pcs[LH_TIMER_PCS]; /* where it was created */
} lh_timer_rec;

/* Whether the detector follows sources now: LoopHunter ready, the timer family on, its records
 * mapped. */
bool lh_timer_ready(void) LH_HIDDEN;
/* A new live record of a source made through `hook` (NULL when the pool is full or the detector
 * is off). `owner` and `id` (toykit: its loop and source id; POSIX: the timer) are set before the
 * record is published, so a thread looking records up by them never reads them half-written. */
lh_timer_rec *lh_timer_track(unsigned hook, uintptr_t func, uintptr_t data, void (*notify)(void *), int64_t interval_ms,
                             const void *owner, unsigned id) LH_HIDDEN;
/* The source ended (false: someone else ended it first); the record then goes back to the pool
 * (after its callback returned, when it ended inside it). */
bool lh_timer_untrack(lh_timer_rec *r) LH_HIDDEN;
void lh_timer_release(lh_timer_rec *r) LH_HIDDEN;
bool lh_timer_live(const lh_timer_rec *r) LH_HIDDEN;
/* Its callback runs now (a fire, counted for this source: the fires in a row with its thread's
 * loop never sleeping in between) / returned: `keep_running` the source goes on (its data freed by
 * its own callback while it goes on is the bug; a source that ends breaks its run). */
void lh_timer_fire(lh_tls *t, lh_timer_rec *r) LH_HIDDEN;
void lh_timer_dispatched(lh_tls *t, lh_timer_rec *r, bool keep_running) LH_HIDDEN;
/* The first live record `match`es (with `key`); by user data, through the data filter. */
lh_timer_rec *lh_timer_find(bool (*match)(const lh_timer_rec *r, const void *key), const void *key) LH_HIDDEN;
lh_timer_rec *lh_timer_find_data(const void *data, bool (*match)(const lh_timer_rec *r, const void *key),
                                 const void *key) LH_HIDDEN;
/* Ends every live record `match` accepts (a toykit loop freed with its sources). */
void lh_timer_end_all(bool (*match)(const lh_timer_rec *r, const void *key), const void *key) LH_HIDDEN;

/* The POSIX rows' notes (lh_hooks.def). */
void lh_timer_posix_created(unsigned hook, int result, clockid_t clock, struct sigevent *event, timer_t *timer) LH_HIDDEN;
void lh_timer_posix_armed(unsigned hook, int result, timer_t timer, int flags, const struct itimerspec *value,
                          struct itimerspec *old) LH_HIDDEN;
void lh_timer_posix_deleted(unsigned hook, timer_t timer) LH_HIDDEN;
void lh_timer_timerfd_armed(unsigned hook, int fd, int flags, const struct itimerspec *value,
                            struct itimerspec *old) LH_HIDDEN;

#endif
