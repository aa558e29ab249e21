/*
 * lh_modules.h — which loaded module an address belongs to: path, build-id, module offset, and the
 * in-process symbol when the dynamic symbol table proves it (size-checked).
 *
 * Runs at start-up and on the breach path (never on a counting path). Uses dl_iterate_phdr, which
 * takes the dynamic loader's recursive lock: callers must hold no lock of their own
 * (LoopHunter has none), so a dlopen in another thread can only make us wait, never deadlock.
 * Writes only into caller-provided memory.
 */
#ifndef LH_MODULES_H
#define LH_MODULES_H

#include "lh_base.h"

typedef struct lh_range {
    uintptr_t lo, hi; /* [lo, hi) */
} lh_range;

#define LH_BUILD_ID_MAX 32 /* bytes; GNU build-ids are 20 (sha1) or 16 (md5/uuid) */

typedef struct lh_module {
    uintptr_t base;                     /* load bias: module offset = address - base */
    const char *path;                   /* in the caller's pool */
    char build_id[LH_BUILD_ID_MAX * 2 + 1]; /* lower-case hex, "" when the module has none */
} lh_module;

typedef struct lh_frame {
    uintptr_t pc;            /* return address (the first frame: the call site of the hook) */
    uintptr_t offset;        /* pc - module base; symbolize at offset - 1 (inside the call) */
    int module;              /* index into the modules array, -1 when no module contains pc */
    const char *symbol;      /* exported symbol that provably contains pc - 1, else NULL */
    uintptr_t symbol_offset; /* pc - symbol start */
} lh_frame;

struct dl_phdr_info;
/* dl_iterate_phdr for every walk of the modules LoopHunter makes (and libunwind's, whose import is
 * pointed here): the loader's own, except in a frozen process, where the list is read without the
 * loader's lock. */
int lh_modules_iterate(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg) LH_HIDDEN;
/* A child of fork whose parent left the loader's module-list lock held (by a thread the child does
 * not have): every later walk reads the list without it, which nothing can change any more (a
 * dlopen or dlclose in this process would wait for that lock forever, LoopHunter or not). Called
 * by the child's fork handler only. */
void lh_modules_freeze(void) LH_HIDDEN;
bool lh_modules_frozen(void) LH_HIDDEN;

/* Whether `address` lies in one of the module's loaded segments (PT_LOAD), for dl_iterate_phdr
 * callbacks. */
bool lh_module_contains(const struct dl_phdr_info *info, uintptr_t address) LH_HIDDEN;

/* Whether `address` lies in a loaded module, and the module's path in *path, through glibc 2.35's
 * lock-free _dl_find_object: no lock, no allocation, any thread. Without that function (an older
 * glibc): true with *path NULL (not known). */
bool lh_module_path_of(const void *address, const char **path) LH_HIDDEN;

/* Whether a module at `path` is named by `name`: its file name starts with `name` ("libQt6"), or,
 * for a `name` that begins with '/', its path contains it ("/qt6/plugins/"). */
bool lh_module_named(const char *path, const char *name) LH_HIDDEN;

/* Executable ranges of the loaded modules named by one of `names` (lh_module_named: e.g.
 * "libglib-2.0.so"), or of every module when `name_count` is 0; writes at most `max` ranges.
 * Returns how many were found. */
size_t lh_modules_ranges_named(const char names[][64], size_t name_count, lh_range *out,
                               size_t max) LH_HIDDEN;

/* Every loaded segment (PT_LOAD, code and data) of every module, at most `max`; returns the count
 * (a snapshot, to tell which modules a dlclose unloaded). */
size_t lh_modules_segments(lh_range *out, size_t max) LH_HIDDEN;

/* Whether `address` lies in one of `ranges[0..n)`. */
static inline bool lh_ranges_contain(const lh_range *ranges, size_t n, uintptr_t address) {
    for (size_t i = 0; i < n; i++)
        if (address >= ranges[i].lo && address < ranges[i].hi) return true;
    return false;
}

/* Calls `fn` with the path of every loaded module, in load order (the main program's is ""). */
void lh_modules_each(void (*fn)(const char *path, void *ctx), void *ctx) LH_HIDDEN;

/* The executable range of the module containing `address` (e.g. LoopHunter itself). */
bool lh_modules_range_of(const void *address, lh_range *out) LH_HIDDEN;

/* Resolves `count` return addresses. `exe_path` names the main program (its dl_iterate_phdr name
 * is empty). Module paths and symbol names are copied into `pool`. Returns the module count. */
size_t lh_modules_resolve(const uintptr_t *pcs, size_t count, lh_frame *frames, lh_module *modules,
                          size_t max_modules, char *pool, size_t pool_size,
                          const char *exe_path) LH_HIDDEN;

#endif
