/*
 * lh_vfunc_pools.h — the pools of pre-built wrappers for patched class slots (GObject class
 * structures in lh_gtk.c, C++ vtables in lh_qt.c).
 *
 * C cannot make closures at run time, so each wrapper is a real function with its own index into
 * the pool's table of originals: one wrapper per ORIGINAL function (not per class). A subclass's
 * chain-up, `parent_class->size_allocate(widget, ...)`, then lands in the parent's wrapper and
 * calls the parent's original. Wrappers run inside the toolkit's layout on the host's thread; they
 * call the including file's enter/leave (no allocation, no lock) and forward every argument
 * untouched.
 */
#ifndef LH_VFUNC_POOLS_H
#define LH_VFUNC_POOLS_H

#include "lh_json.h"

/* LH_REPn(M): M(0x000) M(0x001) ... for n indices (hex literals pasted from digits). */
#define LH_REP16(M, p)                                                                              \
    M(p##0) M(p##1) M(p##2) M(p##3) M(p##4) M(p##5) M(p##6) M(p##7) M(p##8) M(p##9) M(p##a) M(p##b) \
        M(p##c) M(p##d) M(p##e) M(p##f)
#define LH_REP256(M)                                                                                \
    LH_REP16(M, 0x00) LH_REP16(M, 0x01) LH_REP16(M, 0x02) LH_REP16(M, 0x03) LH_REP16(M, 0x04)       \
    LH_REP16(M, 0x05) LH_REP16(M, 0x06) LH_REP16(M, 0x07) LH_REP16(M, 0x08) LH_REP16(M, 0x09)       \
    LH_REP16(M, 0x0a) LH_REP16(M, 0x0b) LH_REP16(M, 0x0c) LH_REP16(M, 0x0d) LH_REP16(M, 0x0e)       \
    LH_REP16(M, 0x0f)
#define LH_REP512(M)                                                                                \
    LH_REP256(M) LH_REP16(M, 0x10) LH_REP16(M, 0x11) LH_REP16(M, 0x12) LH_REP16(M, 0x13)            \
    LH_REP16(M, 0x14) LH_REP16(M, 0x15) LH_REP16(M, 0x16) LH_REP16(M, 0x17) LH_REP16(M, 0x18)       \
    LH_REP16(M, 0x19) LH_REP16(M, 0x1a) LH_REP16(M, 0x1b) LH_REP16(M, 0x1c) LH_REP16(M, 0x1d)       \
    LH_REP16(M, 0x1e) LH_REP16(M, 0x1f)

#define LH_POOL_SMALL 256 /* distinct layout implementations of one signature */
#define LH_POOL_LARGE 512 /* distinct finalize implementations of widget classes */

/* The original a wrapper forwards to. relaxed: written before the wrapper's address is stored in
 * any class slot, on the thread that patches (GTK's); see lh_gtk.c. */
#define LH_ORIG(pool, i) __atomic_load_n(&pool##_orig[i], __ATOMIC_RELAXED)

/* Declares the originals of a pool, its wrappers and the table of their addresses.
 * `pool##_WRAPPER(i)` defines one wrapper for index i; `n` is LH_POOL_SMALL or LH_POOL_LARGE.
 *
 * The table holds each wrapper's offset from the table itself (32 bits, in .rodata), not its
 * address: a table of 2,560 addresses took 2,560 relative relocations that the loader applied in
 * every process at start-up (half of the preload's load cost in /bin/true, and seven pages of
 * .data.rel.ro copied on write), GTK or not. C cannot write the difference of two addresses as a
 * constant, so the table is assembler (`.long wrapper - table`, resolved when the library is
 * linked); the wrappers are `used` (only the assembler refers to them) and a misspelt name fails
 * the link. LH_POOL_WRAPPER(pool, i) is wrapper i's address. */
#define LH_USED __attribute__((used))
#define LH_POOL_OFFSET(pool, i) ".long " #pool "_" #i " - " #pool "_offsets\n"
#define LH_DEFINE_POOL(pool, rep, n)                                                                \
    static void *pool##_orig[n];                                                                    \
    rep(pool##_WRAPPER)                                                                             \
    __asm__(".pushsection .rodata\n.balign 4\n.type " #pool "_offsets, @object\n"                 \
            #pool "_offsets:\n" rep(pool##_OFFSET) ".size " #pool "_offsets, . - " #pool "_offsets\n" \
            ".popsection\n");                                                                       \
    extern const int32_t pool##_offsets[n] __attribute__((visibility("hidden")));
#define LH_POOL_WRAPPER(offsets, i) ((void *)((const char *)(offsets) + (offsets)[i]))

/* A pool as its includer keeps it: the originals, the wrappers' table, how many are claimed. */
typedef struct lh_vfunc_pool {
    const char *name;
    void **orig;
    const int32_t *wrappers; /* offsets from the table (LH_POOL_WRAPPER) */
    unsigned capacity;
    unsigned used; /* under the includer's patching flag */
} lh_vfunc_pool;

/* The wrapper of `fn` in the pool, claiming a new one the first time; NULL when the pool is full.
 * Under the includer's patching flag (one patcher at a time). */
static inline void *lh_vfunc_pool_wrapper(lh_vfunc_pool *pl, void *fn) {
    for (unsigned i = 0; i < pl->used; i++)
        if (pl->orig[i] == fn) return LH_POOL_WRAPPER(pl->wrappers, i);
    if (pl->used == pl->capacity) return NULL;
    unsigned i = pl->used++;
    /* release: the original is in place before the wrapper can be reached through a slot. */
    __atomic_store_n(&pl->orig[i], fn, __ATOMIC_RELEASE);
    return LH_POOL_WRAPPER(pl->wrappers, i);
}

/* The summary's "wrapper_pools" array: each pool with a wrapper claimed (`slots`, `wrappers`,
 * `capacity`). At the summary: `used` is read without the patching flag (a count that only grows). */
static inline void lh_vfunc_pools_summary(lh_json *j, const lh_vfunc_pool *pools, int n) {
    lh_json_begin_array(j, "wrapper_pools");
    for (int p = 0; p < n; p++) {
        if (pools[p].used == 0) continue;
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "slots", pools[p].name);
        lh_json_u64(j, "wrappers", pools[p].used);
        lh_json_u64(j, "capacity", pools[p].capacity);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}
#endif
