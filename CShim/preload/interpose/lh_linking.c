/*
 * lh_linking.c — keeping LoopHunter in step with the modules of the process (family process:
 * always on while LoopHunter is):
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

#include "lh_detectors.h"
#include "lh_modules.h"
#include "lh_runtime.h"
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

/* Row g_module_symbol: a lookup that found the original of one of our hooks answers with our
 * wrapper instead. */
void lh_linking_symbol_found(unsigned hook, int found, void *module, const char *name, void **symbol) {
    (void)hook;
    (void)module;
    if (!found || symbol == NULL || *symbol == NULL || name == NULL) return;
    unsigned id = hook_named(name);
    if (id != LH_HOOK_COUNT && lh_hooks[id].real != NULL && lh_hooks[id].family != LH_FAMILY_ALLOC &&
        *symbol == lh_hook_original(id)) {
        void *wrapper = own_wrapper(name);
        if (wrapper != NULL) *symbol = wrapper;
    }
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

static bool gone(const void *address) { return unloaded_by_snapshot(address, NULL); }

/* Type names remembered in the table for the summary that pointed into the unloaded module; the
 * detectors forget what they kept of it themselves. */
static void forget_type_names(void) {
    lh_table *tb = &lh_proc.table;
    for (uint64_t i = 0; tb->slots != NULL && i < tb->capacity; i++) {
        lh_slot *s = &tb->slots[i];
        /* relaxed: read at exit by the summary writer (the same thread or after it). */
        const char *type = lh_load_relaxed(&s->type);
        if (type != NULL && gone(type)) lh_store_relaxed(&s->type, unloaded_text);
    }
    /* And those of the destroyed objects kept (a relaxed store of the pointer alone: a reader gets
     * the old or the new one, both readable by lh_saved_text). */
    lh_gone_list *lists[] = {&tb->gone_laid_out, &tb->gone_allocators};
    for (size_t l = 0; l < LH_ARRAY_COUNT(lists); l++)
        for (size_t i = 0; i < LH_GONE_KEPT; i++) {
            const char *type = lh_load_relaxed(&lists[l]->entries[i].type);
            if (type != NULL && gone(type)) lh_store_relaxed(&lists[l]->entries[i].type, unloaded_text);
        }
    LH_EACH_DETECTOR(module_unloaded, gone);
}

/* Row dlclose (hand-written: what it does after the forward depends on whether the snapshot was
 * taken, and it runs whatever LoopHunter's state, since the kill switch forwards through the same
 * originals). */
LH_EXPORT int dlclose(void *handle) {
    __typeof__(lh_real_dlclose) real = LH_ORIGINAL(dlclose);
    if (real == NULL) return -1; /* (no libc: cannot happen) */
    lh_tls *t = &lh_tls_data;
    bool nested = t->guard != 0; /* inside LoopHunter's own work (it never unloads anything itself) */
    bool snapshot;
    {
        LH_GUARDED(t);
        int expected = 0;
        /* acquire: the previous user's snapshots are done with. */
        snapshot = lh_cas_acquire(&snapshot_busy, &expected, 1);
        if (snapshot) before_count = lh_modules_segments(segments_before, LH_SEGMENTS);
    }
    int result = real(handle);
    LH_GUARDED(t);
    if (snapshot) after_count = lh_modules_segments(segments_after, LH_SEGMENTS);
    if (result == 0) lh_hooks_forget_unloaded(snapshot ? unloaded_by_snapshot : unloaded_by_loader, NULL);
    /* acquire: pairs with the release that publishes the initialised lh_proc. */
    if (result == 0 && !nested && lh_load_acquire(&lh_state) == LH_STATE_READY) {
        lh_count_hook_call(LH_HOOK_dlclose);
        for (size_t i = 0; lh_toolkits[i] != NULL; i++)
            if (lh_toolkits[i]->forget_unloaded != NULL) lh_toolkits[i]->forget_unloaded();
        if (snapshot) forget_type_names();
        lh_loop_scan_libraries();
    }
    /* release: our reads of the snapshots are done. */
    if (snapshot) lh_store_release(&snapshot_busy, 0);
    return result;
}
