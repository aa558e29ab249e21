/*
 * lh_hooks.h — the hook table's ids, rows and originals (from lh_hooks.def). Every layer includes
 * it: a hook id is how counts, reports and the summary name an entry point.
 *
 * The originals are typed pointers, `lh_real_<name>`, resolved lazily where the host would find
 * its definition (lh_symbols.h): LH_ORIGINAL(name) gives one ready to call (NULL when no loaded
 * module defines it). Safe in any thread and in signal handlers once resolved; resolving allocates
 * nothing.
 */
#ifndef LH_HOOKS_H
#define LH_HOOKS_H

#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/timerfd.h>
#include <time.h>

#include "lh_base.h"
#include "lh_glib.h"
#include "lh_qt_types.h"
#include "lh_toolkit.h"
#include "lh_symbols.h"

/* Every row kind, as the id list needs it. */
enum lh_hook_id {
#define LH_WAIT_HOOK(name, ...) LH_HOOK_##name,
#define LH_COUNT_HOOK(name, ...) LH_HOOK_##name,
#define LH_NOTE_HOOK(name, ...) LH_HOOK_##name,
#define LH_READ_HOOK(name, ...) LH_HOOK_##name,
#define LH_AFTER_HOOK(name, ...) LH_HOOK_##name,
#define LH_AROUND_HOOK(name, ...) LH_HOOK_##name,
#define LH_AROUND_VOID_HOOK(name, ...) LH_HOOK_##name,
#define LH_CUSTOM_HOOK(name, ...) LH_HOOK_##name,
#define LH_ALLOC_HOOK(name, ...) LH_HOOK_##name,
#define LH_VFUNC_HOOK(name, ...) LH_HOOK_##name,
#define LH_ENTRY_HOOK(name, ...) LH_HOOK_##name,
#include "lh_hooks.def"
    LH_HOOK_COUNT
};

/* The originals, typed: `ret (*lh_real_<name>) params` for every symbol row. */
#define LH_WAIT_HOOK(name, ret, params, ...) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_COUNT_HOOK(name, toolkit, params, ...) extern void(*lh_real_##name) params LH_HIDDEN;
#define LH_NOTE_HOOK(name, family, ret, params, ...) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_READ_HOOK(name, family, ret, params, ...) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_AFTER_HOOK(name, family, ret, params, ...) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_AROUND_HOOK(name, family, ret, params, ...) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_AROUND_VOID_HOOK(name, family, params, ...) extern void(*lh_real_##name) params LH_HIDDEN;
#define LH_CUSTOM_HOOK(name, family, ret, params, file) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_ALLOC_HOOK(name, ret, params) extern ret(*lh_real_##name) params LH_HIDDEN;
#define LH_VFUNC_HOOK(name, ...)
#define LH_ENTRY_HOOK(name, ...)
#include "lh_hooks.def"

typedef struct lh_hook_info {
    const char *name;
    unsigned family;              /* LH_FAMILY_* mask: the wrapper works when one is on */
    const lh_toolkit *toolkit;    /* layout-counting rows: the adapter that describes the object */
    void **real;                  /* the original's pointer; NULL: a vtable group, not a symbol */
    bool streak;                  /* the layout-streak detector applies to this hook's counts */
} lh_hook_info;

extern const lh_hook_info lh_hooks[LH_HOOK_COUNT] LH_HIDDEN;

/* The original of hook `id`, looked up on first use; NULL when no loaded module defines it. The
 * malloc family is resolved as one set (detectors/lh_alloc.c). Once resolved: one relaxed load
 * (the pointer value is all that is published; the code it points to is mapped already). */
void *lh_hook_resolve(unsigned id) LH_HIDDEN;
static inline void *lh_hook_original(unsigned id) {
    void **real = lh_hooks[id].real;
    if (real == NULL) return NULL; /* a vtable group, not a symbol */
    void *fn = __atomic_load_n(real, __ATOMIC_RELAXED);
    return LH_LIKELY(fn != NULL) ? fn : lh_hook_resolve(id);
}
/* The same, typed: LH_ORIGINAL(poll) is an `int (*)(struct pollfd *, nfds_t, int)`. */
#define LH_ORIGINAL(name) ((__typeof__(lh_real_##name))lh_hook_original(LH_HOOK_##name))
/* Resolves every original not yet resolved (a GUI process at start-up). */
void lh_hooks_resolve(void) LH_HIDDEN;
/* Looks up every hook row of `family` in the modules, a batch of names per walk
 * (lh_symbol_find_each), and calls `each` per row with the definition the host reaches past `self`
 * (`find`: what the row forwards to) and the first definition in load order (`first`). No
 * allocation; the caller holds the guard. */
void lh_hooks_find_family(unsigned family, const void *self,
                          void (*each)(unsigned id, const lh_symbol_hit *find, const lh_symbol_hit *first, void *ctx),
                          void *ctx) LH_HIDDEN;
/* After a dlclose: originals for which `unloaded` says their module is gone are looked up again on
 * next use. (The malloc family is never unloaded: it is the process's allocator.) */
void lh_hooks_forget_unloaded(bool (*unloaded)(const void *address, void *ctx), void *ctx) LH_HIDDEN;

/* Hook `h` counts layouts (a toolkit's layout entry point or vtable group), as opposed to the
 * helpers of the layout family that only prepare counting (g_object_new*: class patching). */
static inline bool lh_hook_counts_layouts(unsigned h) {
    return (lh_hooks[h].family & LH_FAMILY_LAYOUT) != 0 && lh_hooks[h].toolkit != NULL;
}

/* The family name of a hook for reports and the summary: the lowest family of its mask, the
 * layout family last (the timer and window rows that also serve layout causes keep their own). */
static inline const char *lh_hook_family_name(unsigned h) {
    unsigned f = lh_hooks[h].family;
    if ((f & ~(unsigned)LH_FAMILY_LAYOUT) != 0) f &= ~(unsigned)LH_FAMILY_LAYOUT;
    return lh_family_name(f & -f);
}

/* The notes of the process family's generated rows (interpose/lh_linking.c). */
void lh_linking_symbol_found(unsigned hook, int found, void *module, const char *name, void **symbol) LH_HIDDEN;

#endif
