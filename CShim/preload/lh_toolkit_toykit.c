/*
 * lh_toolkit_toykit.c — the adapter for toykit (Sources/Toykit), the project's own host toolkit.
 *
 * Called from layout hooks on the host's thread while the object is being laid out. toykit's
 * accessors are looked up on first use (lh_host_function: wherever libtoykit.so was loaded; never
 * linked), and are plain getters: no allocation, no locks, no I/O.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "lh_preload.h"
#include "lh_symbols.h"

typedef struct tk_rect {
    int x, y, width, height; /* TkRect in toykit.h */
} tk_rect;

typedef struct toykit_api {
    const char *(*type_name)(const void *view);
    const char *(*name)(const void *view);
    const void *(*parent)(const void *view);
    void (*get_frame)(const void *view, tk_rect *out);
} toykit_api;

static toykit_api api;
static _Atomic int api_state; /* 0 unresolved, 2 being resolved, 1 resolved, -1 toykit absent */

static LH_NOINLINE __attribute__((cold)) bool resolve_slow(void) {
    int st = 0;
    /* acquire on failure: if another thread finished meanwhile, see its pointers. Only the thread
     * that moves 0 -> 2 resolves; the others treat the toolkit as not yet available. */
    if (!atomic_compare_exchange_strong_explicit(&api_state, &st, 2, memory_order_acquire,
                                                 memory_order_acquire))
        return st == 1;
    int saved = errno; /* our callers rely on getters leaving it alone */
    toykit_api a = {
        .type_name = (const char *(*)(const void *))lh_host_function("tk_view_type_name"),
        .name = (const char *(*)(const void *))lh_host_function("tk_view_name"),
        .parent = (const void *(*)(const void *))lh_host_function("tk_view_parent"),
        .get_frame = (void (*)(const void *, tk_rect *))lh_host_function("tk_view_get_frame"),
    };
    bool ok = a.type_name != NULL && a.name != NULL && a.parent != NULL && a.get_frame != NULL;
    if (ok) api = a;
    /* release: publishes `api` to the acquire loads above. */
    atomic_store_explicit(&api_state, ok ? 1 : -1, memory_order_release);
    errno = saved;
    return ok;
}

/* Whether the getters are there (inline: size_of runs on every view's first layout of a frame). */
static inline bool resolve(void) {
    /* acquire: pairs with resolve_slow's release, so the pointers are seen filled in. */
    int st = atomic_load_explicit(&api_state, memory_order_acquire);
    if (LH_LIKELY(st == 1)) return true;
    return st == 0 ? resolve_slow() : false;
}

static uint64_t size_of(const void *view) {
    if (!resolve()) return LH_GEOMETRY_NONE;
    tk_rect r;
    api.get_frame(view, &r);
    return (uint64_t)(uint32_t)r.width << 32 | (uint32_t)r.height;
}

static const char *type_name(const void *view) { return resolve() ? api.type_name(view) : NULL; }

static const char *name_of(const void *view) { return resolve() ? api.name(view) : NULL; }

static const void *parent_of(const void *view) { return resolve() ? api.parent(view) : NULL; }

static bool geometry(const void *view, int rect[4]) {
    if (!resolve()) return false;
    tk_rect r;
    api.get_frame(view, &r);
    rect[0] = r.x, rect[1] = r.y, rect[2] = r.width, rect[3] = r.height;
    return true;
}

/* libtoykit.so was dlclosed: look its getters up again when it is back (maybe elsewhere). */
static void forget_unloaded(void) {
    /* acquire: see the pointers of a completed resolution. */
    if (atomic_load_explicit(&api_state, memory_order_acquire) != 1) return;
    if (lh_symbol_is_loaded((const void *)api.type_name)) return;
    /* release: a later resolution starts from scratch. */
    atomic_store_explicit(&api_state, 0, memory_order_release);
}

const lh_toolkit lh_toolkit_toykit = {
    .name = "toykit",
    .size_of = size_of,
    .type_name = type_name,
    .name_of = name_of,
    .parent_of = parent_of,
    .geometry = geometry,
    .forget_unloaded = forget_unloaded,
};
