/*
 * lh_breach.h — the report layer: a breach becomes a report file (lh_breach.c: stack, throttle,
 * description of the object, each detector's section, the file), and the summary at exit
 * (lh_summary.c). Detectors call lh_breach_report with the guard held; the runtime calls the
 * report layer's start-up, fork and exit functions.
 */
#ifndef LH_BREACH_H
#define LH_BREACH_H

#include "lh_detectors.h"
#include "lh_runtime.h"

/* What a detector found, for the report writer. */
struct lh_breach {
    lh_kind kind;
    unsigned hook;
    const void *object;
    uint64_t count, threshold;
    const char *count_unit;
    uint32_t last_iteration_layouts;
    uint64_t size_before, size_after;
    const lh_report_member *members;  /* the rest of the loop */
    size_t member_count;
    /* When set, the object's type as a text names it, instead of asking the hook's adapter (a
     * toolkit warning names an object in its text: it must not be dereferenced). */
    const char *named_type;
    const char *named_name;           /* with named_type: the object's name, or NULL */
    const lh_report_warning *warning; /* toolkit-warning only */
    const char *fingerprint_text;     /* added to the fingerprint (a warning's format) */
    /* The object being laid out, described by its slot's hook (not b->hook, which is the
     * allocation entry point of an alloc-storm, the logging function of a toolkit warning); NULL:
     * the object is b->object through b->hook. */
    const lh_slot *object_slot;
    uint64_t growth_iterations, growth_start_live; /* heap-growth only */
    unsigned family;                  /* the report's family (LH_FAMILY_*); 0: the hook's */
    /* The stack, when it is not the caller's (a stall's sampled stack, a window's creation):
     * `given_stack` set, `pcs[0..pc_count)` innermost first. */
    bool given_stack;
    const uintptr_t *pcs;
    size_t pc_count;
    /* timer-outlives-target: where the timer was created (a second stack in the report). */
    const uintptr_t *created_pcs;
    size_t created_pc_count;
    /* The report is about another thread (a stall written by the watchdog or at exit): its record
     * names the thread; no history. NULL: the calling thread. */
    const lh_thread_rec *thread;
    const lh_report_stall *stall;     /* stall only */
    const lh_report_window *window;   /* slow-window only */
    const lh_report_timer *timer;     /* timer kinds only */
};

/* Captures the stack, throttles, writes the report. Called with the thread's guard held. */
void lh_breach_report(lh_tls *t, const lh_breach *b) LH_HIDDEN;
/* A report file was written (0) or not (-errno): counted for the summary; the first failure is
 * said on stderr. A thread of the program's (breaching, leaving). */
void lh_breach_file_written(int result) LH_HIDDEN;
/* The same, from the writer thread, whose descriptor table (lh_writer.c) has no stderr: a failure
 * is kept to be said by lh_breach_say_later_failure (the next report, the leaving thread). */
void lh_breach_file_written_later(int result) LH_HIDDEN;
void lh_breach_say_later_failure(void) LH_HIDDEN;
/* A crossing that joined a loop already reported (counted for the summary). */
void lh_breach_joined(void) LH_HIDDEN;
/* The report's object's table slot: given (alloc-storm), looked up, or none (a named object). */
const lh_slot *lh_breach_object_slot(const lh_breach *b) LH_HIDDEN;
/* Start-up (notices a ThreadSanitizer runtime), the process turns out to be a GUI program (maps
 * the shared scratch area), the child of a fork (counters and throttles from zero). */
void lh_breach_init(void) LH_HIDDEN;
/* In a ThreadSanitizer-built host (our code not instrumented), tell TSan that a try-flag of ours
 * orders the uses of a shared buffer: after taking it (acquire) and before giving it back
 * (release). No-ops in any other process. */
void lh_tsan_acquired(void *flag) LH_HIDDEN;
void lh_tsan_releasing(void *flag) LH_HIDDEN;
void lh_breach_prepare(void) LH_HIDDEN;
void lh_breach_after_fork(void) LH_HIDDEN;
/* The summary's `reports` and `fingerprints` sections; whether anything was breached. */
void lh_breach_summary(lh_json *j) LH_HIDDEN;
bool lh_breach_any(void) LH_HIDDEN;

/* A text a toolkit gave when an object was counted (a type name), read again at exit: its module
 * may have been dlclosed since. Copied into `buf` (at most `cap` - 1 bytes) without faulting;
 * "(unloaded)" when it is no longer mapped. */
const char *lh_saved_text(const char *text, char *buf, size_t cap) LH_HIDDEN;

/* The summary (lh_summary.c): kept current while the process runs, written for good when it
 * leaves. Its `state`: */
typedef enum lh_summary_state {
    LH_SUMMARY_RUNNING,  /* "running": a refresh */
    LH_SUMMARY_EXITED,   /* "exited": at exit (ELF destructor) */
    LH_SUMMARY__EXIT,    /* "_exit": in an interposed _exit or _Exit */
    LH_SUMMARY_EXEC,     /* "exec": before an interposed exec forwards */
    LH_SUMMARY_DETACHED, /* "detached": a `loophunter attach` session ended, the process runs on */
} lh_summary_state;
/* At exit (ELF destructor). */
void lh_summary_write(void) LH_HIDDEN;
/* The constructor: refreshes are due from now on (LOOPHUNTER_SUMMARY_INTERVAL_MS), and a child of
 * `loophunter run` writes its first version now. */
void lh_summary_start(void) LH_HIDDEN;
void lh_summary_after_fork(void) LH_HIDDEN;
/* The process leaves through _exit or exec (`state`): the version written before it goes. For an
 * exec, returns a token for lh_summary_stayed (the exec failed and the process runs on). */
bool lh_summary_leaving(lh_summary_state state) LH_HIDDEN;
void lh_summary_stayed(bool token) LH_HIDDEN;
/* The process enters a seccomp sandbox (its spool is open): refreshes stop and the file kept
 * current so far is removed; returns a token for lh_summary_spooled, called once the sandbox state
 * is published. */
bool lh_summary_to_spool(void) LH_HIDDEN;
void lh_summary_spooled(bool token) LH_HIDDEN;
/* A refresh, when one is due: call at an event-loop iteration boundary only (see lh_summary.c). */
void lh_summary_refresh(uint64_t now) LH_HIDDEN;
extern _Atomic uint64_t lh_summary_due_ns LH_HIDDEN;
/* The boundary's check: one relaxed load against the time the boundary read anyway. */
static inline void lh_summary_tick(uint64_t now) {
    /* relaxed: a stale value only moves the refresh by one iteration. */
    if (LH_UNLIKELY(now >= lh_load_relaxed(&lh_summary_due_ns))) lh_summary_refresh(now);
}

#endif
