/*
 * lh_unwind.h — the one way LoopHunter walks the calling thread's stack: lh_unwind(pcs, max), the
 * return addresses from the caller's own frame outwards, as unw_backtrace gives them.
 *
 * Contracts: async-signal-safe, no allocation through the host's malloc, no lock the host can hold
 * (libunwind's local unwinder, primed before the first capture). Inline, so that it adds no frame of
 * its own.
 *
 * libunwind is not a NEEDED library of the preload: lh_unwinder_load (lh_capture.c) opens it with
 * dlopen when LoopHunter first prepares to report (a GUI process at start-up, any other process
 * when one of its threads first lays out or runs a known event loop). A process that never does,
 * /bin/true or a compiler under `loophunter run`, never maps it: it costs ~130 µs of start-up.
 * Until it is loaded (or when it cannot be), lh_unwind returns 0 frames. Opened RTLD_LOCAL, its
 * weak `backtrace` never replaces glibc's for the host.
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

/* libunwind's entry points, filled by lh_unwinder_load before it publishes lh_unwind_loaded. */
typedef struct lh_unwind_api {
    int (*backtrace)(void **, int);
    int (*getcontext)(unw_context_t *);
    int (*init_local)(unw_cursor_t *, unw_context_t *);
    int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
    int (*step)(unw_cursor_t *);
} lh_unwind_api;

extern lh_unwind_api lh_unw __attribute__((visibility("hidden")));           /* lh_capture.c */
/* Set (release) once lh_unw is filled; read with acquire by every walk. Never cleared: libunwind
 * is opened RTLD_NODELETE. */
extern bool lh_unwind_loaded __attribute__((visibility("hidden")));
extern bool lh_unwind_by_steps __attribute__((visibility("hidden")));       /* lh_capture.c */

static inline __attribute__((always_inline)) int lh_unwind(void **pcs, int max) {
    if (__builtin_expect(!__atomic_load_n(&lh_unwind_loaded, __ATOMIC_ACQUIRE), 0) || max <= 0) return 0;
#if !defined(__SANITIZE_THREAD__)
    if (__builtin_expect(!lh_unwind_by_steps, 1)) return lh_unw.backtrace(pcs, max);
#endif
    unw_context_t context;
    unw_cursor_t cursor;
    if (lh_unw.getcontext(&context) != 0 || lh_unw.init_local(&cursor, &context) != 0) return 0;
    int n = 0;
    do {
        unw_word_t ip;
        if (lh_unw.get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
        pcs[n++] = (void *)ip;
    } while (n < max && lh_unw.step(&cursor) > 0);
    return n;
}

#endif
