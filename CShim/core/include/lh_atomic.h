/*
 * lh_atomic.h — the atomic operations LoopHunter uses, each named by its memory order, so that a
 * reader sees the ordering at every use without looking up an argument. Every site that uses one
 * stronger than relaxed says beside it what it pairs with.
 *
 * May run anywhere (hooks, signal handlers): these are C11 atomics on lock-free types only.
 */
#ifndef LH_ATOMIC_H
#define LH_ATOMIC_H

#include <stdatomic.h>
#include <stdint.h>

#define lh_load_relaxed(p) atomic_load_explicit((p), memory_order_relaxed)
#define lh_load_acquire(p) atomic_load_explicit((p), memory_order_acquire)
#define lh_store_relaxed(p, v) atomic_store_explicit((p), (v), memory_order_relaxed)
#define lh_store_release(p, v) atomic_store_explicit((p), (v), memory_order_release)
#define lh_add_relaxed(p, v) atomic_fetch_add_explicit((p), (v), memory_order_relaxed)
#define lh_sub_relaxed(p, v) atomic_fetch_sub_explicit((p), (v), memory_order_relaxed)
#define lh_add_release(p, v) atomic_fetch_add_explicit((p), (v), memory_order_release)
#define lh_exchange_relaxed(p, v) atomic_exchange_explicit((p), (v), memory_order_relaxed)
/* Compare-and-swap: on success with the order named, on failure relaxed (unless named). */
#define lh_cas_relaxed(p, expected, v)                                                              \
    atomic_compare_exchange_strong_explicit((p), (expected), (v), memory_order_relaxed, memory_order_relaxed)
#define lh_cas_acquire(p, expected, v)                                                              \
    atomic_compare_exchange_strong_explicit((p), (expected), (v), memory_order_acquire, memory_order_relaxed)
#define lh_cas_acquire_both(p, expected, v) /* failure acquires too: see the winner's state */     \
    atomic_compare_exchange_strong_explicit((p), (expected), (v), memory_order_acquire, memory_order_acquire)
#define lh_cas_acq_rel(p, expected, v)                                                              \
    atomic_compare_exchange_strong_explicit((p), (expected), (v), memory_order_acq_rel, memory_order_relaxed)
#define lh_cas_acq_rel_both(p, expected, v)                                                         \
    atomic_compare_exchange_strong_explicit((p), (expected), (v), memory_order_acq_rel, memory_order_acquire)

/* Raises *p to at least v (a statistic: relaxed). */
static inline void lh_max_relaxed(_Atomic uint64_t *p, uint64_t v) {
    uint64_t cur = atomic_load_explicit(p, memory_order_relaxed);
    while (v > cur && !atomic_compare_exchange_weak_explicit(p, &cur, v, memory_order_relaxed, memory_order_relaxed)) {
    }
}

/* Adds to a counter only one thread writes (others read it with relaxed loads): a load and a
 * store, no locked instruction. On x86-64 that is one unlocked `add` to memory, whose load and
 * store are each single-copy atomic for an aligned 8-byte word, as a relaxed load and a relaxed
 * store are (the compiler cannot fuse the two atomics itself). ThreadSanitizer builds use the C11
 * form so that the sanitizer sees the accesses. */
static inline void lh_owner_add(_Atomic uint64_t *c, uint64_t v) {
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
    __asm__("addq %1, %0" : "+m"(*(uint64_t *)c) : "er"(v));
#else
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v, memory_order_relaxed);
#endif
}

#endif
