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
    size_t size_bytes = (size_t)capacity * LH_SIZE_RING * sizeof(uint64_t);
    void *sizes = mmap(NULL, size_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
    size_t alloc_bytes = (size_t)capacity * sizeof(lh_slot_alloc);
    void *allocs = sizes == MAP_FAILED ? MAP_FAILED
                                       : mmap(NULL, alloc_bytes, PROT_READ | PROT_WRITE,
                                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (sizes == MAP_FAILED || allocs == MAP_FAILED) {
        int e = errno;
        munmap(mem, bytes);
        if (sizes != MAP_FAILED) munmap(sizes, size_bytes);
        return -e;
    }
    t->slots = mem;
    t->sizes = sizes;
    t->allocs = allocs;
    t->capacity = capacity;
    t->mask = capacity - 1;
    lh_store_relaxed(&t->used, 0);
    lh_store_relaxed(&t->dropped, 0);
    return 0;
}

void lh_table_clear(lh_table *t) {
    if (t->slots == NULL) return;
    /* MADV_DONTNEED on private anonymous memory: the next touch sees zero pages. */
    madvise(t->slots, (size_t)t->capacity * sizeof(lh_slot), MADV_DONTNEED);
    madvise((void *)t->sizes, (size_t)t->capacity * LH_SIZE_RING * sizeof(uint64_t), MADV_DONTNEED);
    madvise(t->allocs, (size_t)t->capacity * sizeof(lh_slot_alloc), MADV_DONTNEED);
    lh_store_relaxed(&t->used, 0);
    lh_store_relaxed(&t->dropped, 0);
}

lh_slot *lh_table_slot_probe(lh_table *t, uint64_t key) {
    if (LH_UNLIKELY(t->slots == NULL)) return NULL;
    uint64_t i = lh_table_hash(key) & t->mask;
    uint64_t probes = t->capacity < LH_TABLE_MAX_PROBE ? t->capacity : LH_TABLE_MAX_PROBE;
    for (uint64_t n = 0; n < probes; n++, i = (i + 1) & t->mask) {
        lh_slot *s = &t->slots[i];
        /* acquire: pairs with the release of the CAS below, so a slot seen claimed is also seen
         * with its zeroed state (it is zero from mmap; the order matters only after a clear). */
        uint64_t k = lh_load_acquire(&s->key);
        if (k == key) return s;
        if (k != 0) continue;
        uint64_t expected = 0;
        /* acq_rel: claim the empty slot, or learn who did (then `expected` holds their key). */
        if (lh_cas_acq_rel_both(&s->key, &expected, key)) {
            lh_add_relaxed(&t->used, 1); /* statistic only */
            return s;
        }
        if (expected == key) return s; /* another thread inserted the same key first */
    }
    lh_add_relaxed(&t->dropped, 1); /* statistic only */
    return NULL;
}

bool lh_table_forget(lh_table *t, const void *object, unsigned hook) {
    if (t->slots == NULL) return false;
    uint64_t key = lh_table_key(object, hook);
    uint64_t i = lh_table_hash(key) & t->mask;
    uint64_t probes = t->capacity < LH_TABLE_MAX_PROBE ? t->capacity : LH_TABLE_MAX_PROBE;
    for (uint64_t n = 0; n < probes; n++, i = (i + 1) & t->mask) {
        lh_slot *s = &t->slots[i];
        /* acquire: see the slot's state as its claimer published it. */
        uint64_t k = lh_load_acquire(&s->key);
        if (k == 0) return false;
        if (k != key) continue;
        /* The key stays (the slot is the object's home for the next one at this address); its
         * counts and detector state go back to a new slot's. relaxed: like the counting itself,
         * owned by the thread that lays the object out (and finalizes it). */
        lh_store_relaxed(&s->count, 0);
        lh_store_relaxed(&s->last_layout_iter, 0);
        lh_store_relaxed(&s->geometry, 0);
        lh_store_relaxed(&s->streak, 0);
        lh_store_relaxed(&s->linked, 0);
        lh_store_relaxed(&s->reported_streak, 0);
        lh_store_relaxed(&s->total, 0);
        lh_store_relaxed(&s->type, NULL);
        for (size_t r = 0; r < LH_SIZE_RING; r++)
            lh_store_relaxed(&t->sizes[i * LH_SIZE_RING + r], 0);
        lh_store_relaxed(&t->allocs[i].bytes, 0);
        lh_store_relaxed(&t->allocs[i].calls, 0);
        return true;
    }
    return false;
}

uint64_t lh_table_size_at(lh_table *t, const lh_slot *s, uint64_t layout_iter) {
    if (t->sizes == NULL || layout_iter == 0) return LH_GEOMETRY_NONE;
    size_t i = (size_t)(s - t->slots);
    uint64_t entry = lh_load_relaxed(&t->sizes[i * LH_SIZE_RING + layout_iter % LH_SIZE_RING]);
    if ((entry >> 32) != ((layout_iter + 1) & 0xffffffffu)) return LH_GEOMETRY_NONE;
    return ((entry >> 16) & 0xffff) << 32 | (entry & 0xffff);
}
