/*
 * lh_capture.c — stack capture for the detectors and the report writer: the walk itself
 * (lh_unwind.h), its set-up at start-up, and stacks kept for later (where a window or a timer was
 * made).
 *
 * Async-signal-safe once primed: libunwind's local unwinder allocates nothing after its first walk
 * (made at start-up by lh_prime_unwinder, not inside a hook). Guard held by every caller.
 */
#define _GNU_SOURCE
#include "lh_runtime.h"
#include "lh_unwind.h"

#define LH_SELF_FRAMES 16 /* room for LoopHunter's own frames on top of the stack */

bool lh_unwind_by_steps; /* see lh_unwind.h: set by lh_unwinder_init, before LoopHunter is ready */

void lh_unwinder_init(void) {
    /* The TSan runtime is in the process (a TSan-built host): walk without unw_backtrace's cache.
     * Written once during start-up; lh_init_slow's release store of the ready state publishes it
     * to every capture (they all run after an acquire of that state). */
    if (lh_host_function("__tsan_init") != NULL) lh_unwind_by_steps = true;
}

void lh_prime_unwinder(void) {
    void *pcs[8];
    lh_unwind(pcs, 8);
}

uint32_t lh_capture_stack(uintptr_t *out, uint32_t max) {
    void *raw[32 + LH_SELF_FRAMES];
    int n = lh_unwind(raw, (int)(max < 32 ? max : 32) + LH_SELF_FRAMES);
    uint32_t count = 0;
    for (int i = 0; i < n && count < max; i++)
        if (!lh_is_own_code((uintptr_t)raw[i])) out[count++] = (uintptr_t)raw[i];
    return count;
}
