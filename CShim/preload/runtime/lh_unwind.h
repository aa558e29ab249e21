/*
 * lh_unwind.h — the one way LoopHunter walks the calling thread's stack: lh_unwind(pcs, max), the
 * return addresses from the caller's own frame outwards, as unw_backtrace gives them.
 *
 * Contracts: async-signal-safe, no allocation through the host's malloc, no lock the host can hold
 * (libunwind's local unwinder, primed at start-up). Inline, so that it adds no frame of its own.
 *
 * unw_backtrace keeps a per-thread trace cache whose pthread-key destructor takes a mutex when the
 * thread exits; under ThreadSanitizer that destructor runs after the sanitizer has torn the
 * thread's state down and crashes the host (google/sanitizers#943). So in a process with the TSan
 * runtime (a TSan-built host, or our own TSan build from scripts/sanitize.sh) the walk is made with
 * unw_step, which uses no trace cache; everywhere else with unw_backtrace, the fast path measured in
 * BENCHMARKS.md. lh_unwind_by_steps is set once at start-up, before any capture.
 */
#ifndef LH_UNWIND_H
#define LH_UNWIND_H

#ifndef UNW_LOCAL_ONLY
#define UNW_LOCAL_ONLY /* this process only: the _UL* functions, which need no remote set-up */
#endif
#include <libunwind.h>
#include <stdbool.h>

extern bool lh_unwind_by_steps __attribute__((visibility("hidden"))); /* lh_capture.c */

static inline __attribute__((always_inline)) int lh_unwind(void **pcs, int max) {
#if !defined(__SANITIZE_THREAD__)
    if (__builtin_expect(!lh_unwind_by_steps, 1)) return unw_backtrace(pcs, max);
#endif
    unw_context_t context;
    unw_cursor_t cursor;
    if (max <= 0 || unw_getcontext(&context) != 0 || unw_init_local(&cursor, &context) != 0) return 0;
    int n = 0;
    do {
        unw_word_t ip;
        if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
        pcs[n++] = (void *)ip;
    } while (n < max && unw_step(&cursor) > 0);
    return n;
}

#endif
