/*
 * lh_hooks.c — the interposing wrappers, generated from lh_hooks.def, and the public C API.
 *
 * Every wrapper may run before our constructor (it initialises lazily), in any thread, inside a
 * signal handler. It forwards arguments and results untouched and preserves errno: the host sees
 * exactly what the original would have done. Originals are looked up in the loaded modules' own
 * symbol tables (lh_symbols.h), never by calling through our own symbol.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "loophunter.h"
#include "lh_preload.h"
#include "lh_symbols.h"

/* ---- originals ------------------------------------------------------------------------------ */

#define LH_LOOP_HOOK(name, ret, params, args, wait) static ret(*real_##name) params;
#define LH_LAYOUT_HOOK(name, toolkit, params, args, object) static void(*real_##name) params;
#define LH_CUSTOM_HOOK(name, family, file) static void *real_##name;
#define LH_ALLOC_HOOK(name, ret, params) ret(*lh_real_##name) params;
#define LH_VFUNC_HOOK(name, toolkit, streak)
#include "lh_hooks.def"
#undef LH_LOOP_HOOK
#undef LH_LAYOUT_HOOK
#undef LH_CUSTOM_HOOK
#undef LH_ALLOC_HOOK
#undef LH_VFUNC_HOOK

const lh_hook_info lh_hooks[LH_HOOK_COUNT] = {
#define LH_LOOP_HOOK(name, ret, params, args, wait)                                                 \
    [LH_HOOK_##name] = {#name, LH_FAMILY_LOOP, NULL, (void **)&real_##name, false},
#define LH_LAYOUT_HOOK(name, toolkit, params, args, object)                                         \
    [LH_HOOK_##name] = {#name, LH_FAMILY_LAYOUT, &lh_toolkit_##toolkit, (void **)&real_##name, true},
#define LH_CUSTOM_HOOK(name, family, file)                                                          \
    [LH_HOOK_##name] = {#name, LH_FAMILY_##family, NULL, &real_##name, false},
#define LH_ALLOC_HOOK(name, ret, params)                                                            \
    [LH_HOOK_##name] = {#name, LH_FAMILY_ALLOC, NULL, (void **)&lh_real_##name, false},
#define LH_VFUNC_HOOK(name, toolkit, streak)                                                        \
    [LH_HOOK_##name] = {#name, LH_FAMILY_LAYOUT, &lh_toolkit_##toolkit, NULL, streak},
#include "lh_hooks.def"
#undef LH_LOOP_HOOK
#undef LH_LAYOUT_HOOK
#undef LH_CUSTOM_HOOK
#undef LH_ALLOC_HOOK
#undef LH_VFUNC_HOOK
};

/* Looks up the original of hook `id` (first call only): the definition the host would reach
 * without LoopHunter, in a module loaded at start-up or later, globally or with RTLD_LOCAL
 * (lh_symbols.h). A race resolves the same value twice. relaxed: the pointer value is all that is
 * published (the code it points to is already mapped). The malloc family is resolved as one set. */
static LH_NOINLINE __attribute__((cold)) void *resolve_slow(unsigned id) {
    if (lh_hooks[id].real == NULL) return NULL; /* a vtable group, not a symbol */
    if (lh_hooks[id].family == LH_FAMILY_ALLOC) {
        lh_alloc_resolve();
        return __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED);
    }
    int saved = errno;
    lh_symbol_hit hit;
    void *fn = lh_symbol_find(lh_hooks[id].name, (const void *)resolve_slow, &hit) ? hit.address : NULL;
    errno = saved;
    if (fn != NULL) __atomic_store_n(lh_hooks[id].real, fn, __ATOMIC_RELAXED);
    return fn;
}

/* The original of hook `id`: one relaxed load once resolved. */
static inline void *resolve(unsigned id) {
    if (lh_hooks[id].real == NULL) return NULL; /* a vtable group, not a symbol */
    void *fn = __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED);
    return LH_LIKELY(fn != NULL) ? fn : resolve_slow(id);
}

void lh_hooks_resolve(void) {
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) resolve(id);
}

void *lh_host_function(const char *name) {
    lh_symbol_hit hit;
    return lh_symbol_first(name, (const void *)lh_host_function, &hit) ? hit.address : NULL;
}

void *lh_host_data(const char *name) {
    lh_symbol_hit hit;
    return lh_symbol_first_data(name, (const void *)lh_host_function, &hit) ? hit.address : NULL;
}

void lh_hooks_forget_unloaded(bool (*unloaded)(const void *address, void *ctx), void *ctx) {
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) {
        if (lh_hooks[id].real == NULL || lh_hooks[id].family == LH_FAMILY_ALLOC) continue;
        void *fn = __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED);
        /* relaxed: a caller racing with the host's own dlclose of the module called into it anyway. */
        if (fn != NULL && unloaded(fn, ctx)) __atomic_store_n(lh_hooks[id].real, NULL, __ATOMIC_RELAXED);
    }
}

void *lh_hook_original(unsigned id) { return resolve(id); }

/* ---- wrappers ------------------------------------------------------------------------------- */

/* A loop wait: note the wait before, start a new iteration after (when the caller is a loop). */
#define LH_LOOP_HOOK(name, ret, params, args, wait)                                                 \
    LH_EXPORT ret name params {                                                                     \
        ret(*real) params = (ret(*) params)resolve(LH_HOOK_##name);                                 \
        if (LH_UNLIKELY(real == NULL)) {                                                            \
            errno = ENOSYS;                                                                         \
            return -1;                                                                              \
        }                                                                                           \
        const void *caller = __builtin_return_address(0);                                          \
        int saved = errno;                                                                          \
        lh_loop_enter(LH_HOOK_##name, caller, (wait));                                              \
        errno = saved;                                                                              \
        ret result = real args;                                                                     \
        saved = errno;                                                                              \
        lh_loop_return(LH_HOOK_##name, caller);                                                     \
        errno = saved;                                                                              \
        return result;                                                                              \
    }

/* A layout entry point: count, then call the original. A counted object is the allocation owner
 * while the original runs (our frame stays on the stack; the owner is only read when the alloc
 * family counts); when nothing was counted the original is a tail call (no frame of ours remains). */
#define LH_LAYOUT_HOOK(name, toolkit, params, args, object)                                         \
    LH_EXPORT void name params {                                                                    \
        void(*real) params = (void(*) params)resolve(LH_HOOK_##name);                               \
        lh_slot *slot = lh_layout_call(LH_HOOK_##name, (object));                                   \
        if (LH_UNLIKELY(real == NULL)) return;                                                      \
        if (slot == NULL) {                                                                         \
            real args;                                                                              \
            return;                                                                                 \
        }                                                                                           \
        lh_tls *t = &lh_tls_data;                                                                   \
        lh_slot *outer = t->alloc_owner;                                                            \
        t->alloc_owner = slot;                                                                      \
        real args;                                                                                  \
        t->alloc_owner = outer;                                                                     \
    }

#define LH_CUSTOM_HOOK(name, family, file) /* the wrapper is in `file` */
#define LH_ALLOC_HOOK(name, ...)           /* the wrapper is in lh_alloc.c */
#define LH_VFUNC_HOOK(name, toolkit, streak)
#include "lh_hooks.def"
#undef LH_LOOP_HOOK
#undef LH_LAYOUT_HOOK
#undef LH_CUSTOM_HOOK
#undef LH_ALLOC_HOOK
#undef LH_VFUNC_HOOK

/* ---- public API (loophunter.h) -------------------------------------------------------------- */

LH_EXPORT void loophunter_iteration_mark(void) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_LOOP | LH_FAMILY_LAYOUT)) return;
    int saved = errno;
    t->guard++;
    lh_thread_new_iteration(t, true); /* a program that marks iterations runs a GUI loop */
    t->guard--;
    errno = saved;
}

LH_EXPORT const char *loophunter_version(void) { return LH_VERSION_STRING; }
