/*
 * lh_process.c — keeping LoopHunter in step with the modules of the process (family "process":
 * always on while LoopHunter is, never counted):
 *   - dlclose: originals (and toolkit functions) that pointed into a module now unloaded are looked
 *     up again at their next use, so a toolkit reloaded at another address is reached, never freed
 *     code (with the kill switch too: the wrappers forward through the same originals); type names
 *     that pointed into it are replaced, so the summary never reads memory mapped there since;
 *   - g_module_symbol: GObject introspection (PyGObject, GJS) and GModule plugins look functions up
 *     by name in a library's own handle, which finds the library's definition, not ours; when the
 *     answer is the original of one of our hooks, it becomes our wrapper, so `GLib.timeout_add` or
 *     `window.show()` from Python or JavaScript is seen as the same call from C is.
 *
 * Both run on the host's thread, outside any malloc or signal handler of ours; the work after the
 * forward holds the guard and keeps errno. Arguments and results are forwarded untouched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "lh_modules.h"
#include "lh_preload.h"
#include "lh_symbols.h"

/* The hook row named `name`, or LH_HOOK_COUNT. */
static unsigned hook_named(const char *name) {
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++)
        if (strcmp(lh_hooks[id].name, name) == 0) return id;
    return LH_HOOK_COUNT;
}

/* Our own exported wrapper of `name` (looked up in LoopHunter's own symbol table). */
static void *own_wrapper(const char *name) {
    lh_symbol_hit hit;
    /* The first definition in load order other than none: ours, since we are preloaded and the
     * name is exported by us; checked to be ours. */
    if (!lh_symbol_first(name, NULL, &hit) || !lh_is_own_code((uintptr_t)hit.address)) return NULL;
    return hit.address;
}

typedef int (*module_symbol_fn)(void *module, const char *name, void **symbol);

LH_EXPORT int g_module_symbol(void *module, const char *name, void **symbol) {
    module_symbol_fn real = (module_symbol_fn)lh_hook_original(LH_HOOK_g_module_symbol);
    if (real == NULL) {
        if (symbol != NULL) *symbol = NULL;
        return 0;
    }
    int found = real(module, name, symbol);
    lh_tls *t = &lh_tls_data;
    if (!found || symbol == NULL || *symbol == NULL || name == NULL || t->guard != 0 || !lh_active(LH_FAMILY_PROCESS))
        return found;
    int saved = errno;
    t->guard++;
    lh_count_hook_call(LH_HOOK_g_module_symbol);
    unsigned id = hook_named(name);
    if (id != LH_HOOK_COUNT && lh_hooks[id].real != NULL && lh_hooks[id].family != LH_FAMILY_ALLOC &&
        *symbol == lh_hook_original(id)) {
        void *wrapper = own_wrapper(name);
        if (wrapper != NULL) *symbol = wrapper;
    }
    t->guard--;
    errno = saved;
    return found;
}

/* The loaded segments before and after a dlclose: what was unloaded is in the first and not in
 * the second. Static (no allocation); one dlclose at a time uses them (try-flag), a racing one
 * asks the loader address by address instead. */
#define LH_SEGMENTS 1024
static lh_range segments_before[LH_SEGMENTS], segments_after[LH_SEGMENTS];
static size_t before_count, after_count;
static _Atomic int snapshot_busy;

static bool unloaded_by_snapshot(const void *address, void *ctx) {
    (void)ctx;
    uintptr_t a = (uintptr_t)address;
    return lh_ranges_contain(segments_before, before_count, a) && !lh_ranges_contain(segments_after, after_count, a);
}

static bool unloaded_by_loader(const void *address, void *ctx) {
    (void)ctx;
    return !lh_symbol_is_loaded(address);
}

static const char unloaded_text[] = "(unloaded)";

/* Type names remembered for the summary that pointed into the unloaded module. */
static void forget_type_names(void) {
    lh_table *tb = &lh_proc.table;
    for (uint64_t i = 0; tb->slots != NULL && i < tb->capacity; i++) {
        lh_slot *s = &tb->slots[i];
        /* relaxed: read at exit by the summary writer (the same thread or after it). */
        const char *type = atomic_load_explicit(&s->type, memory_order_relaxed);
        if (type != NULL && unloaded_by_snapshot(type, NULL))
            atomic_store_explicit(&s->type, unloaded_text, memory_order_relaxed);
    }
    size_t high = atomic_load_explicit(&lh_proc.records_high, memory_order_acquire);
    for (size_t i = 0; lh_proc.records != NULL && i < high; i++) {
        lh_thread_rec *r = &lh_proc.records[i];
        const char *type = atomic_load_explicit(&r->max_type, memory_order_relaxed);
        if (type != NULL && unloaded_by_snapshot(type, NULL))
            atomic_store_explicit(&r->max_type, unloaded_text, memory_order_relaxed);
    }
}

typedef int (*dlclose_fn)(void *handle);

LH_EXPORT int dlclose(void *handle) {
    dlclose_fn real = (dlclose_fn)lh_hook_original(LH_HOOK_dlclose);
    if (real == NULL) return -1; /* (no libc: cannot happen) */
    lh_tls *t = &lh_tls_data;
    int saved = errno;
    int expected = 0;
    /* acquire: the previous user's snapshots are done with. */
    bool snapshot = atomic_compare_exchange_strong_explicit(&snapshot_busy, &expected, 1, memory_order_acquire,
                                                            memory_order_relaxed);
    if (snapshot) before_count = lh_modules_segments(segments_before, LH_SEGMENTS);
    errno = saved;
    int result = real(handle);
    saved = errno;
    t->guard++;
    if (snapshot) after_count = lh_modules_segments(segments_after, LH_SEGMENTS);
    /* Whatever LoopHunter's state (the kill switch forwards through these originals too). */
    if (result == 0) lh_hooks_forget_unloaded(snapshot ? unloaded_by_snapshot : unloaded_by_loader, NULL);
    if (result == 0 && t->guard == 1 && atomic_load_explicit(&lh_state, memory_order_acquire) == LH_STATE_READY) {
        lh_count_hook_call(LH_HOOK_dlclose);
        for (size_t i = 0; lh_toolkits[i] != NULL; i++)
            if (lh_toolkits[i]->forget_unloaded != NULL) lh_toolkits[i]->forget_unloaded();
        if (snapshot) forget_type_names();
        lh_loop_scan_libraries();
    }
    t->guard--;
    /* release: our reads of the snapshots are done. */
    if (snapshot) atomic_store_explicit(&snapshot_busy, 0, memory_order_release);
    errno = saved;
    return result;
}
