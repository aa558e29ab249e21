/*
 * lh_alloc.h — the allocation detector (lh_alloc.c): the malloc family's wrappers (rows
 * LH_ALLOC_HOOK), per-thread and per-iteration accounting charged to the object whose layout runs,
 * the alloc-storm detector, and each report's memory side. It publishes the live heap at every
 * epoch's end (lh_proc.heap_live_bytes), which the heap-growth detector reads.
 */
#ifndef LH_ALLOC_H
#define LH_ALLOC_H

#include "lh_runtime.h"

/* A thread's allocation counters, in mapped memory so that other threads (the summary, the live
 * heap) can read them. Written by the owning thread only: relaxed load + store, no locked
 * instruction. The shared block (threads without one of their own) uses atomic adds. */
typedef struct lh_alloc_counts {
    _Atomic uint32_t state;       /* LH_ALLOC_FREE / LH_ALLOC_LIVE */
    _Atomic int32_t tid;
    _Atomic uint64_t calls;       /* allocations that returned a block (realloc included) */
    _Atomic uint64_t bytes;       /* their usable bytes (malloc_usable_size) */
    _Atomic uint64_t frees;       /* blocks freed (realloc's old block included) */
    _Atomic uint64_t freed_bytes; /* their usable bytes */
    uint64_t pad_[3];             /* one cache line per thread: no false sharing between threads */
} lh_alloc_counts;
_Static_assert(sizeof(lh_alloc_counts) == 64, "one cache line per thread's counters");
enum { LH_ALLOC_FREE = 0, LH_ALLOC_LIVE = 1 };

/* Resolves the malloc family (every LH_ALLOC_HOOK row's lh_real_<name>) as one set: the allocator
 * the host would have used without LoopHunter. Idempotent; allocates nothing. */
void lh_alloc_resolve(void) LH_HIDDEN;

#define LH_ALLOC_TOP 8

#endif
