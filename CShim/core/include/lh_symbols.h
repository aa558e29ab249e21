/*
 * lh_symbols.h — finding the definition of a function the way the dynamic loader would, without
 * dlsym: the loaded modules' own dynamic symbol tables, walked in load order.
 *
 * Why not dlsym(RTLD_NEXT): it searches the global scope only, so it misses a library loaded with
 * dlopen(RTLD_LOCAL) (Python loads libglib/libgobject that way for PyGObject; a plugin host loads
 * its toolkit that way), although that library's own calls bind to our interposed definitions. It
 * also allocates (dlerror's buffer) when a name is missing, which is not allowed inside malloc.
 *
 * Contracts: may run before main, inside the host's malloc (resolving the malloc family) or in a
 * signal handler once primed; allocates nothing; takes only the loader's recursive lock (through
 * dl_iterate_phdr), which is safe because LoopHunter holds no lock of its own; reads only memory of
 * loaded modules (their dynamic sections, hash tables, symbol and string tables).
 */
#ifndef LH_SYMBOLS_H
#define LH_SYMBOLS_H

#include "lh_base.h"

/* A definition found: its address, and the module that holds it. */
typedef struct lh_symbol_hit {
    void *address;        /* the function (an IFUNC already resolved); NULL when none was found */
    uintptr_t module_base; /* load bias of its module */
    const char *module;   /* the module's path as the loader knows it ("" for the main program) */
    bool before_self;     /* the module comes before `self`'s in load order (it takes the calls first) */
} lh_symbol_hit;

/* The definition of function `name` the host reaches: the first one in a module loaded after the
 * module containing `self` (what dlsym(RTLD_NEXT) would give from there, but also in modules
 * loaded with RTLD_LOCAL); when no later module defines it, the first one in a module before it.
 * `self`'s own module is never a candidate (NULL: no module is skipped; the first in load order).
 * The default version of a versioned name is preferred, as an unversioned lookup does. Returns
 * whether a definition was found. */
bool lh_symbol_find(const char *name, const void *self, lh_symbol_hit *out) LH_HIDDEN;

/* The first definition of `name` in load order other than `self`'s module, wherever it is (used to
 * tell which allocator takes the process's malloc calls: one ahead of `self`, or the next one). */
bool lh_symbol_first(const char *name, const void *self, lh_symbol_hit *out) LH_HIDDEN;

/* As lh_symbol_first, for a data object (a variable such as GLib's g_idle_funcs). */
bool lh_symbol_first_data(const char *name, const void *self, lh_symbol_hit *out) LH_HIDDEN;

/* lh_symbol_find and lh_symbol_first of several function names (at most LH_SYMBOL_EACH_MAX) in
 * one walk of the modules, each module's tables read once and each name hashed once: finds[i] is
 * lh_symbol_find(names[i], self), firsts[i] lh_symbol_first(names[i], self). Start-up resolves
 * its sets of originals this way (a walk per name cost ~2,400 instructions each). */
#define LH_SYMBOL_EACH_MAX 12
void lh_symbol_find_each(const char *const *names, size_t n, const void *self, lh_symbol_hit *finds,
                         lh_symbol_hit *firsts) LH_HIDDEN;

/* The exported symbol of module `info` whose extent holds each of `at[0..n)` (n at most
 * LH_SYMBOL_AT_MAX), chosen as dladdr chooses it, in one pass over the module's symbols (dladdr
 * reads them all for each address: ~55,000 instructions a frame in libgtk-3). out[i].name is NULL
 * when no symbol provably holds at[i]; names point into the module's string table. Runs inside a
 * dl_iterate_phdr callback (the module stays loaded); no allocation. */
#define LH_SYMBOL_AT_MAX 32
typedef struct lh_symbol_at {
    const char *name;
    uintptr_t start;
} lh_symbol_at;
struct dl_phdr_info;
void lh_symbol_containing(const struct dl_phdr_info *info, const uintptr_t *at, size_t n, lh_symbol_at *out) LH_HIDDEN;

/* Whether `address` lies in a loaded module now (after a dlclose a cached pointer may not). */
bool lh_symbol_is_loaded(const void *address) LH_HIDDEN;
/* The definition of function `name` in the module that contains `self` only (`loophunter attach`:
 * our own exported wrapper, which a lookup by name from our own code would not give when this
 * library was loaded with RTLD_LOCAL after the host's). */
bool lh_symbol_own(const char *name, const void *self, lh_symbol_hit *out) LH_HIDDEN;

/* A number that changes whenever a module is loaded or unloaded (the loader's counters); one
 * dl_iterate_phdr call that stops at the first module. */
uint64_t lh_modules_generation(void) LH_HIDDEN;

#endif
