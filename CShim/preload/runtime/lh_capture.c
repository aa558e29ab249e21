/*
 * lh_capture.c — stack capture for the detectors and the report writer: the walk itself
 * (lh_unwind.h), loading libunwind and its set-up, and stacks kept for later (where a window or a
 * timer was made).
 *
 * Async-signal-safe once primed: libunwind's local unwinder allocates nothing after its first walk
 * (made by lh_prime_unwinder when LoopHunter prepares to report, not inside a hook). Guard held by
 * every caller. lh_unwinder_load runs once (lh_prepare_for_breaches' once-flag), with the guard
 * held, never in a signal handler or inside the host's malloc: dlopen takes the loader's lock and
 * allocates (through the real malloc: the guard is held).
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "lh_io.h"
#include "lh_runtime.h"
#include "lh_unwind.h"

#define LH_SELF_FRAMES 16 /* room for LoopHunter's own frames on top of the stack */

bool lh_unwind_by_steps; /* see lh_unwind.h: set by lh_unwinder_init, before LoopHunter is ready */
lh_unwind_api lh_unw;
bool lh_unwind_loaded;

#define LH_NAME_OF(symbol) LH_NAME_OF_(symbol)
#define LH_NAME_OF_(symbol) #symbol
/* libunwind's run-time name (the libunwind8 package): its ABI is that of the headers built against. */
#define LH_LIBUNWIND "libunwind.so.8"

bool lh_unwinder_load(void) {
    if (__atomic_load_n(&lh_unwind_loaded, __ATOMIC_ACQUIRE)) return true;
    /* RTLD_LOCAL: libunwind's weak `backtrace` stays out of the host's symbol lookups. NODELETE: the
     * pointers below stay valid for the life of the process. */
    void *handle = dlopen(LH_LIBUNWIND, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    lh_unwind_api api = {0};
    if (handle != NULL) {
        /* The macros of libunwind.h name the local-only functions (_ULx86_64_step...). */
        *(void **)&api.backtrace = dlsym(handle, "unw_backtrace");
        *(void **)&api.getcontext = dlsym(handle, LH_NAME_OF(unw_tdep_getcontext));
        *(void **)&api.init_local = dlsym(handle, LH_NAME_OF(unw_init_local));
        *(void **)&api.get_reg = dlsym(handle, LH_NAME_OF(unw_get_reg));
        *(void **)&api.step = dlsym(handle, LH_NAME_OF(unw_step));
    }
    if (api.backtrace == NULL || api.getcontext == NULL || api.init_local == NULL || api.get_reg == NULL ||
        api.step == NULL) {
        /* dlerror's text was made by the failing call (no allocation here); say it and what to do. */
        const char *why = dlerror();
        char mem[512];
        lh_buf line;
        lh_buf_init(&line, mem, sizeof mem);
        lh_buf_put(&line, "loophunter: could not load " LH_LIBUNWIND " (");
        lh_buf_put_clipped(&line, why != NULL ? why : "a function is missing from it", 300);
        lh_buf_put(&line, "): reports are written without stacks; install the libunwind8 package");
        lh_diag(line.data);
        return false;
    }
    lh_unw = api;
    /* release: lh_unw is filled before a walk (acquire in lh_unwind) can see the flag. */
    __atomic_store_n(&lh_unwind_loaded, true, __ATOMIC_RELEASE);
    return true;
}

void lh_unwinder_init(void) {
    /* The TSan runtime is in the process (a TSan-built host): walk without unw_backtrace's cache.
     * Written once during start-up; lh_init_slow's release store of the ready state publishes it
     * to every capture (they all run after an acquire of that state). */
    if (lh_host_has_tsan()) lh_unwind_by_steps = true;
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
