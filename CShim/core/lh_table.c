/*
 * lh_table.c — claiming slots in the (object, hook) table. See lh_table.h for the design.
 *
 * Runs inside layout hooks in any thread: lock-free (CAS on the key), no allocation after the
 * mmap in lh_table_init, at most LH_TABLE_MAX_PROBE slots looked at per call.
 */
#include "lh_table.h"

#include <errno.h>
#include <sys/mman.h>

int lh_table_init(lh_table *t, uint64_t capacity) {
    size_t bytes = (size_t)capacity * sizeof(lh_slot);
    /* Anonymous private memory is zero-filled and only pages that are touched become resident. */
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (mem == MAP_FAILED) return -errno;
    t->slots = mem;
    t->capacity = capacity;
    t->mask = capacity - 1;
    atomic_store_explicit(&t->used, 0, memory_order_relaxed);
    atomic_store_explicit(&t->dropped, 0, memory_order_relaxed);
    return 0;
}

void lh_table_clear(lh_table *t) {
    if (t->slots == NULL) return;
    /* MADV_DONTNEED on private anonymous memory: the next touch sees zero pages. */
    madvise(t->slots, (size_t)t->capacity * sizeof(lh_slot), MADV_DONTNEED);
    atomic_store_explicit(&t->used, 0, memory_order_relaxed);
    atomic_store_explicit(&t->dropped, 0, memory_order_relaxed);
}

lh_slot *lh_table_slot_probe(lh_table *t, uint64_t key) {
    if (LH_UNLIKELY(t->slots == NULL)) return NULL;
    uint64_t i = lh_table_hash(key) & t->mask;
    uint64_t probes = t->capacity < LH_TABLE_MAX_PROBE ? t->capacity : LH_TABLE_MAX_PROBE;
    for (uint64_t n = 0; n < probes; n++, i = (i + 1) & t->mask) {
        lh_slot *s = &t->slots[i];
        /* acquire: pairs with the release of the CAS below, so a slot seen claimed is also seen
         * with its zeroed state (it is zero from mmap; the order matters only after a clear). */
        uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);
        if (k == key) return s;
        if (k != 0) continue;
        uint64_t expected = 0;
        /* acq_rel: claim the empty slot, or learn who did (then `expected` holds their key). */
        if (atomic_compare_exchange_strong_explicit(&s->key, &expected, key, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            atomic_fetch_add_explicit(&t->used, 1, memory_order_relaxed); /* statistic only */
            return s;
        }
        if (expected == key) return s; /* another thread inserted the same key first */
    }
    atomic_fetch_add_explicit(&t->dropped, 1, memory_order_relaxed); /* statistic only */
    return NULL;
}
