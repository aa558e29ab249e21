/*
 * lh_table.c — claiming slots in the (object, hook) table. See lh_table.h for the design.
 *
 * Runs inside layout hooks in any thread: lock-free (CAS on the key), no allocation after the
 * mmap in lh_table_init, at most LH_TABLE_MAX_PROBE slots looked at per call.
 */
#include "lh_table.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Bytes rounded up to whole pages (each array of the table starts on a page of its own). */
static size_t whole_pages(size_t bytes) { return (bytes + 4095) & ~(size_t)4095; }

int lh_table_init(lh_table *t, uint64_t capacity) {
    size_t bytes = whole_pages((size_t)capacity * sizeof(lh_slot));
    size_t size_bytes = whole_pages((size_t)capacity * LH_SIZE_RING * sizeof(uint64_t));
    size_t alloc_bytes = whole_pages((size_t)capacity * sizeof(lh_slot_alloc));
    /* One mapping for the three arrays (one system call at start-up). Anonymous private memory is
     * zero-filled and only pages that are touched become resident. */
    char *mem = mmap(NULL, bytes + size_bytes + alloc_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return -errno;
    void *sizes = mem + bytes, *allocs = mem + bytes + size_bytes;
    t->slots = (lh_slot *)(void *)mem;
    t->sizes = sizes;
    t->ring_offset = (char *)sizes - mem;
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
    lh_store_relaxed(&t->destroyed, 0);
    /* (after fork: single-threaded, nobody writes them) */
    memset(&t->gone_laid_out, 0, sizeof t->gone_laid_out);
    memset(&t->gone_allocators, 0, sizeof t->gone_allocators);
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

/* ---- destroyed objects that mattered (see lh_table.h for the memory order) ------------------------ */

static void gone_keep(lh_gone_list *list, uint64_t rank, uint64_t key, const char *type, uint64_t calls,
                      uint64_t bytes, uint64_t alloc_calls) {
    if (rank == 0 || rank <= lh_load_relaxed(&list->floor)) return;
    for (int attempt = 0; attempt < LH_GONE_TRIES; attempt++) {
        size_t least = 0;
        uint64_t least_rank = UINT64_MAX, next_rank = UINT64_MAX;
        for (size_t i = 0; i < LH_GONE_KEPT; i++) {
            uint64_t r = lh_load_relaxed(&list->entries[i].rank);
            if (r < least_rank) {
                next_rank = least_rank;
                least_rank = r;
                least = i;
            } else if (r < next_rank) {
                next_rank = r;
            }
        }
        if (rank <= least_rank) {
            lh_max_relaxed(&list->floor, least_rank); /* the list is full of higher ranks */
            return;
        }
        lh_gone *e = &list->entries[least];
        uint32_t seq = lh_load_relaxed(&e->seq);
        /* acquire: the previous writer's fields are behind us before we overwrite them. */
        if ((seq & 1u) != 0 || !lh_cas_acquire(&e->seq, &seq, seq + 1)) continue;
        if (lh_load_relaxed(&e->rank) != least_rank) { /* replaced meanwhile: look again */
            lh_store_release(&e->seq, seq + 2);
            continue;
        }
        /* release fence: a reader that sees any field below also sees seq odd. */
        atomic_thread_fence(memory_order_release);
        lh_store_relaxed(&e->rank, rank);
        lh_store_relaxed(&e->key, key);
        lh_store_relaxed(&e->type, type);
        lh_store_relaxed(&e->calls, calls);
        lh_store_relaxed(&e->alloc_bytes, bytes);
        lh_store_relaxed(&e->alloc_calls, alloc_calls);
        /* release: publishes the fields with the even seq. */
        lh_store_release(&e->seq, seq + 2);
        uint64_t least_now = rank < next_rank ? rank : next_rank;
        if (least_now != 0 && least_now != UINT64_MAX) lh_max_relaxed(&list->floor, least_now);
        return;
    }
}

bool lh_gone_read(const lh_gone_list *list, size_t i, lh_gone_copy *out) {
    const lh_gone *e = &list->entries[i];
    /* acquire: pairs with the writer's release store of the even seq. */
    uint32_t before = lh_load_acquire(&e->seq);
    if ((before & 1u) != 0) return false;
    out->rank = lh_load_relaxed(&e->rank);
    out->key = lh_load_relaxed(&e->key);
    out->type = lh_load_relaxed(&e->type);
    out->calls = lh_load_relaxed(&e->calls);
    out->alloc_bytes = lh_load_relaxed(&e->alloc_bytes);
    out->alloc_calls = lh_load_relaxed(&e->alloc_calls);
    /* acquire fence: the loads above happen before seq is read again (pairs with the writer's
     * release fence). */
    atomic_thread_fence(memory_order_acquire);
    return lh_load_relaxed(&e->seq) == before && out->rank != 0;
}

lh_slot *lh_table_find(lh_table *t, const void *object, unsigned hook) {
    if (t->slots == NULL) return NULL;
    uint64_t key = lh_table_key(object, hook);
    uint64_t i = lh_table_hash(key) & t->mask;
    uint64_t probes = t->capacity < LH_TABLE_MAX_PROBE ? t->capacity : LH_TABLE_MAX_PROBE;
    for (uint64_t n = 0; n < probes; n++, i = (i + 1) & t->mask) {
        /* acquire: pairs with the claiming CAS. */
        uint64_t k = lh_load_acquire(&t->slots[i].key);
        if (k == key) return &t->slots[i];
        if (k == 0) return NULL;
    }
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
        /* What mattered of it stays among the destroyed objects kept for the summary. */
        uint64_t total = lh_load_relaxed(&s->total);
        if (total != 0) {
            const char *type = lh_load_relaxed(&s->type);
            uint64_t bytes = lh_load_relaxed(&t->allocs[i].bytes), calls = lh_load_relaxed(&t->allocs[i].calls);
            lh_add_relaxed(&t->destroyed, 1); /* statistic */
            gone_keep(&t->gone_laid_out, total, key, type, total, bytes, calls);
            gone_keep(&t->gone_allocators, bytes, key, type, total, bytes, calls);
        }
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
