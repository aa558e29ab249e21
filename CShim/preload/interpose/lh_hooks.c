/*
 * lh_hooks.c — the hook table as data, the originals, and the wrapper bodies of every row with a
 * common shape (lh_hooks.def says which shapes there are); plus the public C API (loophunter.h).
 *
 * Every wrapper may run before our constructor (LoopHunter initialises lazily), in any thread,
 * inside a signal handler. It forwards arguments and result untouched and gives errno back as the
 * original left it: the host sees exactly what the original would have done. LoopHunter's work in
 * a wrapper runs inside LH_GUARDED (its own calls are plain forwards, errno is kept), and only
 * while one of the row's families is switched on. Originals are found in the loaded modules' own
 * symbol tables (lh_symbols.h), never by calling through our own symbol.
 *
 * (A wrapper of a function returning void forwards with `return real(...)`: GNU C, as the whole
 * preload is; it lets one body serve both kinds of rows.)
 */
#define _GNU_SOURCE
#include <errno.h>

#include "loophunter.h"
#include "lh_alloc.h"
#include "lh_breach.h"
#include "lh_glib.h"
#include "lh_gtk.h"
#include "lh_qt.h"
#include "lh_layout.h"
#include "lh_runtime.h"
#include "lh_symbols.h"
#include "lh_timer.h"
#include "lh_toykit.h"

/* ---- the originals and the table ------------------------------------------------------------- */

#define LH_WAIT_HOOK(name, ret, params, ...) ret(*lh_real_##name) params;
#define LH_COUNT_HOOK(name, toolkit, params, ...) void(*lh_real_##name) params;
#define LH_NOTE_HOOK(name, family, ret, params, ...) ret(*lh_real_##name) params;
#define LH_READ_HOOK(name, family, ret, params, ...) ret(*lh_real_##name) params;
#define LH_AFTER_HOOK(name, family, ret, params, ...) ret(*lh_real_##name) params;
#define LH_AROUND_HOOK(name, family, ret, params, ...) ret(*lh_real_##name) params;
#define LH_AROUND_VOID_HOOK(name, family, params, ...) void(*lh_real_##name) params;
#define LH_CUSTOM_HOOK(name, family, ret, params, file) ret(*lh_real_##name) params;
#define LH_ALLOC_HOOK(name, ret, params) ret(*lh_real_##name) params;
#define LH_VFUNC_HOOK(name, ...)
#define LH_ENTRY_HOOK(name, ...)
#include "lh_hooks.def"

#define LH_ROW(name, family, toolkit, streak) [LH_HOOK_##name] = {#name, family, toolkit, (void **)&lh_real_##name, streak},
const lh_hook_info lh_hooks[LH_HOOK_COUNT] = {
#define LH_WAIT_HOOK(name, ...) LH_ROW(name, LH_FAMILY_LOOP, NULL, false)
#define LH_COUNT_HOOK(name, toolkit, ...) LH_ROW(name, LH_FAMILY_LAYOUT, &lh_toolkit_##toolkit, true)
#define LH_NOTE_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_READ_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_AFTER_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_AROUND_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_AROUND_VOID_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_CUSTOM_HOOK(name, family, ...) LH_ROW(name, family, NULL, false)
#define LH_ALLOC_HOOK(name, ...) LH_ROW(name, LH_FAMILY_ALLOC, NULL, false)
#define LH_VFUNC_HOOK(name, toolkit, streak) [LH_HOOK_##name] = {#name, LH_FAMILY_LAYOUT, &lh_toolkit_##toolkit, NULL, streak},
#define LH_ENTRY_HOOK(name, family) [LH_HOOK_##name] = {#name, family, NULL, NULL, false},
#include "lh_hooks.def"
};
#undef LH_ROW

/* Looks up the original of hook `id` (first call only): the definition the host would reach
 * without LoopHunter, in a module loaded at start-up or later, globally or with RTLD_LOCAL
 * (lh_symbols.h). A race resolves the same value twice. relaxed: the pointer value is all that is
 * published. The malloc family is resolved as one set. */
LH_NOINLINE __attribute__((cold)) void *lh_hook_resolve(unsigned id) {
    if (lh_hooks[id].real == NULL) return NULL;
    if (lh_hooks[id].family == LH_FAMILY_ALLOC) {
        lh_alloc_resolve();
        return __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED);
    }
    int saved = errno;
    lh_symbol_hit hit;
    void *fn = lh_symbol_find(lh_hooks[id].name, (const void *)lh_hook_resolve, &hit) ? hit.address : NULL;
    errno = saved;
    if (fn != NULL) __atomic_store_n(lh_hooks[id].real, fn, __ATOMIC_RELAXED);
    return fn;
}

/* Looks up the rows `want` picks, up to LH_SYMBOL_EACH_MAX names per walk of the modules (a walk
 * per name cost ~2,500 instructions at start-up; one per hook, 113 walks in a GTK 3 program, 3.3 M
 * instructions), and calls `each` per row with what lh_symbol_find_each found. */
typedef void lh_hook_found(unsigned id, const lh_symbol_hit *find, const lh_symbol_hit *first, void *ctx);
static void find_rows(bool (*want)(unsigned id, unsigned family), unsigned family, const void *self, lh_hook_found *each,
                      void *ctx) {
    for (unsigned next = 0; next < LH_HOOK_COUNT;) {
        const char *names[LH_SYMBOL_EACH_MAX];
        unsigned ids[LH_SYMBOL_EACH_MAX];
        size_t n = 0;
        for (; next < LH_HOOK_COUNT && n < LH_SYMBOL_EACH_MAX; next++) {
            if (!want(next, family)) continue;
            ids[n] = next;
            names[n++] = lh_hooks[next].name;
        }
        if (n == 0) continue;
        lh_symbol_hit finds[LH_SYMBOL_EACH_MAX], firsts[LH_SYMBOL_EACH_MAX];
        lh_symbol_find_each(names, n, self, finds, firsts);
        for (size_t i = 0; i < n; i++) each(ids[i], &finds[i], &firsts[i], ctx);
    }
}

static bool in_family(unsigned id, unsigned family) { return lh_hooks[id].family == family; }

/* A symbol row of another family than `family` whose original is not known yet. */
static bool unresolved_outside(unsigned id, unsigned family) {
    return lh_hooks[id].real != NULL && lh_hooks[id].family != family &&
           __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED) == NULL;
}

static void keep_original(unsigned id, const lh_symbol_hit *find, const lh_symbol_hit *first, void *ctx) {
    (void)first, (void)ctx;
    /* relaxed: as lh_hook_resolve (a race stores the same value twice). */
    if (find->address != NULL) __atomic_store_n(lh_hooks[id].real, find->address, __ATOMIC_RELAXED);
}

void lh_hooks_resolve(void) {
    int saved = errno;
    lh_hook_original(LH_HOOK_malloc); /* the malloc family, as one set (lh_alloc_resolve) */
    find_rows(unresolved_outside, LH_FAMILY_ALLOC, (const void *)lh_hook_resolve, keep_original, NULL);
    errno = saved;
}

void lh_hooks_find_family(unsigned family, const void *self, lh_hook_found *each, void *ctx) {
    find_rows(in_family, family, self, each, ctx);
}

void lh_hooks_forget_unloaded(bool (*unloaded)(const void *address, void *ctx), void *ctx) {
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) {
        if (lh_hooks[id].real == NULL || lh_hooks[id].family == LH_FAMILY_ALLOC) continue;
        void *fn = __atomic_load_n(lh_hooks[id].real, __ATOMIC_RELAXED);
        /* relaxed: a caller racing with the host's own dlclose of the module called into it anyway. */
        if (fn != NULL && unloaded(fn, ctx)) __atomic_store_n(lh_hooks[id].real, NULL, __ATOMIC_RELAXED);
    }
}

/* ---- the generated wrappers ------------------------------------------------------------------- */

#define LH_UNPAREN(...) __VA_ARGS__

/* Whether a wrapper of `family` does its work on this thread now: not inside LoopHunter's own
 * work, LoopHunter initialised and on, one of the families switched on. */
static inline bool works(const lh_tls *t, unsigned family) { return t->guard == 0 && lh_active(family); }

/* A loop wait: the wait noted before, a new iteration begun after (when the caller is a loop). */
#define LH_WAIT_HOOK(name, ret, params, args, wait)                                                 \
    LH_EXPORT ret name params {                                                                     \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
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

/* A layout entry point: count (inline, lh_layout.h), then call the original. A counted object owns
 * the allocations made while its layout runs (our frame stays on the stack; the owner is only read
 * when the alloc family counts); when nothing was counted the original is a tail call. */
#define LH_COUNT_HOOK(name, toolkit, params, args, object)                                          \
    LH_EXPORT void name params {                                                                    \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        if (LH_UNLIKELY(real == NULL)) return; /* no original anywhere: nothing to count either */  \
        lh_slot *slot = lh_layout_call(LH_HOOK_##name, (object));                                   \
        if (slot == NULL) {                                                                         \
            real args;                                                                              \
            return;                                                                                 \
        }                                                                                           \
        lh_tls *t = &lh_tls_data;                                                                   \
        lh_slot *outer = t->layout_owner;                                                           \
        t->layout_owner = slot;                                                                     \
        real args;                                                                                  \
        t->layout_owner = outer;                                                                    \
    }

/* The note, then the forward: `noted` is the note's call as the row kind makes it. */
#define LH_NOTE_THEN_FORWARD(name, family, ret, params, args, noted, missing)                       \
    LH_EXPORT ret name params {                                                                     \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        lh_tls *t = &lh_tls_data;                                                                   \
        if (works(t, family)) {                                                                     \
            LH_GUARDED(t);                                                                          \
            lh_count_hook_call(LH_HOOK_##name);                                                     \
            noted;                                                                                  \
        }                                                                                           \
        if (LH_UNLIKELY(real == NULL)) return missing;                                              \
        return real args;                                                                           \
    }
/* note(hook, args...), then the forward. */
#define LH_NOTE_HOOK(name, family, ret, params, args, note, missing)                                \
    LH_NOTE_THEN_FORWARD(name, family, ret, params, args, note(LH_HOOK_##name, LH_UNPAREN args), missing)
/* note(hook, caller, args...), then the forward. */
#define LH_READ_HOOK(name, family, ret, params, args, note, missing)                                \
    LH_NOTE_THEN_FORWARD(name, family, ret, params, args,                                           \
                         note(LH_HOOK_##name, __builtin_return_address(0), LH_UNPAREN args), missing)

/* The forward, then note(hook, result, args...). */
#define LH_AFTER_HOOK(name, family, ret, params, args, note, missing)                               \
    LH_EXPORT ret name params {                                                                     \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        if (LH_UNLIKELY(real == NULL)) return missing;                                              \
        ret result = real args;                                                                     \
        lh_tls *t = &lh_tls_data;                                                                   \
        if (works(t, family)) {                                                                     \
            LH_GUARDED(t);                                                                          \
            lh_count_hook_call(LH_HOOK_##name);                                                     \
            note(LH_HOOK_##name, result, LH_UNPAREN args);                                          \
        }                                                                                           \
        return result;                                                                              \
    }

/* token = before(hook, args...), the forward, after(hook, token, result, args...); the void
 * variant's after gets no result. The two halves, shared: */
#define LH_AROUND_BEGIN(name, family, args, before)                                                 \
    lh_tls *t = &lh_tls_data;                                                                       \
    bool on = works(t, family);                                                                     \
    uintptr_t token = 0;                                                                            \
    if (on) {                                                                                       \
        LH_GUARDED(t);                                                                              \
        lh_count_hook_call(LH_HOOK_##name);                                                         \
        token = before(LH_HOOK_##name, LH_UNPAREN args);                                            \
    }
#define LH_AROUND_END(call_after)                                                                   \
    if (on && t->guard == 0) {                                                                      \
        LH_GUARDED(t);                                                                              \
        call_after;                                                                                 \
    }

#define LH_AROUND_HOOK(name, family, ret, params, args, before, after, missing)                     \
    LH_EXPORT ret name params {                                                                     \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        if (LH_UNLIKELY(real == NULL)) return missing;                                              \
        LH_AROUND_BEGIN(name, family, args, before)                                                 \
        ret result = real args;                                                                     \
        LH_AROUND_END(after(LH_HOOK_##name, token, result, LH_UNPAREN args))                        \
        return result;                                                                              \
    }

#define LH_AROUND_VOID_HOOK(name, family, params, args, before, after)                              \
    LH_EXPORT void name params {                                                                    \
        __typeof__(lh_real_##name) real = LH_ORIGINAL(name);                                        \
        if (LH_UNLIKELY(real == NULL)) return;                                                      \
        LH_AROUND_BEGIN(name, family, args, before)                                                 \
        real args;                                                                                  \
        LH_AROUND_END(after(LH_HOOK_##name, token, LH_UNPAREN args))                                \
    }

#define LH_CUSTOM_HOOK(name, family, ret, params, file) /* its body is in `file` */
#define LH_ALLOC_HOOK(name, ...)                         /* detectors/lh_alloc.c */
#define LH_VFUNC_HOOK(name, ...)                         /* not a symbol */
#define LH_ENTRY_HOOK(name, ...)                         /* not interposed */
#include "lh_hooks.def"

/* ---- public API (loophunter.h) ----------------------------------------------------------------- */

LH_EXPORT void loophunter_iteration_mark(void) {
    lh_tls *t = &lh_tls_data;
    if (!works(t, LH_FAMILY_LOOP | LH_FAMILY_LAYOUT)) return;
    LH_GUARDED(t);
    uint64_t now = lh_thread_new_iteration(t, true); /* a program that marks iterations runs a GUI loop */
    lh_summary_tick(now); /* an iteration boundary (lh_summary.c) */
}

LH_EXPORT const char *loophunter_version(void) { return LH_VERSION_STRING; }
