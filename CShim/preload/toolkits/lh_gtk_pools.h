/*
 * lh_gtk_pools.h — the pools of pre-built vfunc wrappers (included by lh_gtk.c only).
 *
 * C cannot make closures at run time, so each wrapper is a real function with its own index into
 * the pool's table of originals: one wrapper per ORIGINAL function (not per class). A subclass's
 * chain-up, `parent_class->size_allocate(widget, ...)`, then lands in the parent's wrapper and
 * calls the parent's original. Wrappers run inside GTK's layout on the host's thread; they call
 * vfunc_enter/leave in lh_gtk.c (no allocation, no lock) and forward every argument untouched.
 */
#ifndef LH_GTK_POOLS_H
#define LH_GTK_POOLS_H

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
 * `wrapper(i)` defines one wrapper for index i; `n` is LH_POOL_SMALL or LH_POOL_LARGE. */
#define LH_DEFINE_POOL(pool, rep, n)                                                                \
    static void *pool##_orig[n];                                                                    \
    rep(pool##_WRAPPER)                                                                             \
    static void *const pool##_wrappers[n] = {rep(pool##_ADDRESS)};
#endif
