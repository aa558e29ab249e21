/*
 * lh_toolkit_toykit.c — the adapter for toykit (Sources/Toykit), the project's own host toolkit.
 *
 * Called from layout hooks on the host's thread while the object is being laid out. toykit's
 * accessors are resolved with dlsym(RTLD_DEFAULT) on first use (never linked), and are plain
 * getters: no allocation, no locks, no I/O. The caller holds the thread's guard, so anything dlsym
 * does is not counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "lh_preload.h"

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

void lh_toolkit_copy_text(char *dst, const char *s) {
    size_t n = s != NULL ? strnlen(s, LH_OBJECT_TEXT - 1) : 0;
    if (n > 0) memcpy(dst, s, n);
    dst[n] = '\0';
}

static bool resolve(void) {
    /* acquire: pairs with the release below, so the pointers are seen filled in. */
    int st = atomic_load_explicit(&api_state, memory_order_acquire);
    if (LH_LIKELY(st != 0)) return st == 1;
    /* acquire on failure: if another thread finished meanwhile, see its pointers. Only the thread
     * that moves 0 -> 2 resolves; the others treat the toolkit as not yet available. */
    if (!atomic_compare_exchange_strong_explicit(&api_state, &st, 2, memory_order_acquire,
                                                 memory_order_acquire))
        return st == 1;
    int saved = errno; /* dlsym may set it; our callers rely on getters leaving it alone */
    toykit_api a = {
        .type_name = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "tk_view_type_name"),
        .name = (const char *(*)(const void *))dlsym(RTLD_DEFAULT, "tk_view_name"),
        .parent = (const void *(*)(const void *))dlsym(RTLD_DEFAULT, "tk_view_parent"),
        .get_frame = (void (*)(const void *, tk_rect *))dlsym(RTLD_DEFAULT, "tk_view_get_frame"),
    };
    bool ok = a.type_name != NULL && a.name != NULL && a.parent != NULL && a.get_frame != NULL;
    if (ok) api = a;
    /* release: publishes `api` to the acquire loads above. */
    atomic_store_explicit(&api_state, ok ? 1 : -1, memory_order_release);
    errno = saved;
    return ok;
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

unsigned lh_toolkit_depth(const lh_toolkit *tk, const void *object) {
    unsigned depth = 0;
    if (tk == NULL || tk->parent_of == NULL) return 0;
    for (const void *p = tk->parent_of(object); p != NULL && depth < 64; p = tk->parent_of(p)) depth++;
    return depth;
}

static void describe(const void *view, lh_object_desc *out) {
    lh_toolkit_copy_text(out->node.type, "TkView");
    if (!resolve()) return;
    lh_toolkit_copy_text(out->node.type, api.type_name(view));
    lh_toolkit_copy_text(out->node.name, api.name(view));
    tk_rect r;
    api.get_frame(view, &r);
    out->has_geometry = true;
    out->x = r.x;
    out->y = r.y;
    out->width = r.width;
    out->height = r.height;

    /* Ancestors, nearest first, then reversed to root-first; a cycle or a very deep tree is cut at
     * 64 levels and only the nearest LH_OBJECT_MAX_ANCESTORS are kept. */
    const void *chain[64];
    size_t depth = 0;
    for (const void *p = api.parent(view); p != NULL && depth < LH_ARRAY_COUNT(chain); p = api.parent(p))
        chain[depth++] = p;
    size_t keep = depth < LH_OBJECT_MAX_ANCESTORS ? depth : LH_OBJECT_MAX_ANCESTORS;
    out->ancestors_truncated = keep < depth || depth == LH_ARRAY_COUNT(chain);
    out->ancestor_count = keep;
    for (size_t i = 0; i < keep; i++) {
        const void *a = chain[keep - 1 - i];
        lh_toolkit_copy_text(out->ancestors[i].type, api.type_name(a));
        lh_toolkit_copy_text(out->ancestors[i].name, api.name(a));
    }
}

const lh_toolkit lh_toolkit_toykit = {
    .name = "toykit",
    .size_of = size_of,
    .type_name = type_name,
    .name_of = name_of,
    .parent_of = parent_of,
    .describe = describe,
};
