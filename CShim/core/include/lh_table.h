/*
 * lh_table.h — the lock-free (object, hook) table that layout counts live in.
 *
 * Runs on every counted layout call, in any thread, possibly inside a signal handler: no locks, no
 * allocation after lh_table_init (which maps the whole table with mmap at start-up), bounded work
 * per call (at most LH_TABLE_MAX_PROBE slots are looked at).
 *
 * - Open addressing with linear probing; a slot is claimed by compare-and-swap of its key from 0,
 *   so concurrent inserts of the same or different keys never lose one. Keys are never removed.
 * - Each slot's count word is `epoch << 24 | count`, tagged with the event-loop iteration (epoch)
 *   it belongs to. Epochs are unique across threads, so a count resets for free the first time a
 *   slot is touched in a new iteration: no sweep, no per-iteration work.
 * - When the table is full (or the probe window is), the call is counted as dropped and the caller
 *   goes on: the table never blocks and never grows.
 * - Counting uses a relaxed load and a relaxed store (no locked instruction): exact for an object
 *   that one thread at a time lays out (every GUI toolkit's rule: objects belong to one thread);
 *   for an object laid out by two threads at the same instant a count may be lost, never corrupted.
 */
#ifndef LH_TABLE_H
#define LH_TABLE_H

#include "lh_base.h"

#define LH_COUNT_BITS 24
#define LH_COUNT_MAX ((UINT32_C(1) << LH_COUNT_BITS) - 1)
#define LH_EPOCH_MASK ((UINT64_C(1) << (64 - LH_COUNT_BITS)) - 1)
#define LH_TABLE_MAX_PROBE 128
#define LH_GEOMETRY_NONE UINT64_MAX

/* One (object, hook) entry: 64 bytes, one cache line. */
typedef struct lh_slot {
    _Atomic uint64_t key;   /* 0: empty; else object address (56 bits) | (hook + 1) << 56 */
    _Atomic uint64_t count; /* (epoch & LH_EPOCH_MASK) << 24 | calls in that epoch (saturating) */
    /* Streak-detector state, written by the thread that lays the object out (relaxed: a value
     * seen from another thread may be stale, which can only delay or hasten a streak). */
    _Atomic uint64_t last_layout_iter; /* the thread's layout-iteration number last laid out in */
    _Atomic uint64_t geometry;         /* width << 32 | height at the start of that iteration */
    _Atomic uint32_t streak;           /* hot layout iterations in a row, ending before the last */
    _Atomic uint32_t linked;           /* last_layout_iter was back-to-back with the one before */
    _Atomic uint32_t reported_streak;  /* streak value already reported (no repeat per streak) */
    uint32_t pad_;
    _Atomic(const char *) type;        /* the object's type name, from its adapter (static text) */
    _Atomic uint64_t total;            /* calls over the whole run, for the summary (lh_owner_add) */
} lh_slot;
_Static_assert(sizeof(lh_slot) == 64, "a slot is one cache line");

#define LH_SIZE_RING 8 /* sizes remembered per slot: the run-up shown in a report */
_Static_assert(LH_SIZE_RING * sizeof(uint64_t) == sizeof(lh_slot), "a size ring is as long as a slot");

/* Per slot: what was allocated while the object's layout (through this hook) was running on its
 * thread, over the whole run. Written by that thread only (relaxed load + store). */
typedef struct lh_slot_alloc {
    _Atomic uint64_t bytes;
    _Atomic uint64_t calls;
} lh_slot_alloc;

/* ---- destroyed objects that mattered ----------------------------------------------------------
 * When an object is forgotten (its toolkit says it was destroyed: lh_table_forget), its figures
 * would vanish with its slot's counts. The LH_GONE_KEPT destroyed objects laid out most, and the
 * LH_GONE_KEPT whose layouts allocated most, are kept for the summary, each list ranked by its
 * figure: a newcomer replaces the entry of least rank when it ranks higher.
 *
 * Memory order. Each entry is a seqlock whose writers never wait: a writer takes it by a
 * compare-and-swap of `seq` from even to odd (acquire), then a release fence, writes the fields
 * (relaxed), and publishes with a release store of seq + 2. A writer that finds an entry taken
 * looks again (at most LH_GONE_TRIES times) and otherwise drops its object: a figure may be lost
 * when two threads destroy objects at the same instant, never torn. A reader (the summary) loads
 * seq (acquire), the fields (relaxed), then an acquire fence and seq again: the copy is whole when
 * both are the same even value. `floor`, the least rank of a full list, only rises (relaxed max): a
 * stale value only makes a writer look at the entries for nothing. */
#define LH_GONE_KEPT 32
#define LH_GONE_TRIES 4

typedef struct lh_gone {
    _Atomic uint32_t seq;
    uint32_t pad_;
    _Atomic uint64_t rank;          /* 0: empty */
    _Atomic uint64_t key;           /* the slot's key: object address | (hook + 1) << 56 */
    _Atomic(const char *) type;     /* the object's type name (static text of its toolkit) */
    _Atomic uint64_t calls;         /* its layouts through that hook, over its life */
    _Atomic uint64_t alloc_bytes;   /* what its layouts allocated */
    _Atomic uint64_t alloc_calls;
    uint64_t pad2_;
} lh_gone;
_Static_assert(sizeof(lh_gone) == 64, "an entry is one cache line");

typedef struct lh_gone_list {
    _Atomic uint64_t floor;
    lh_gone entries[LH_GONE_KEPT];
} lh_gone_list;

/* A copy of one entry, as the summary reads it. */
typedef struct lh_gone_copy {
    uint64_t rank, key, calls, alloc_bytes, alloc_calls;
    const char *type;
} lh_gone_copy;

/* Entry `i` of `list`, whole; false when it is empty or was being written. */
bool lh_gone_read(const lh_gone_list *list, size_t i, lh_gone_copy *out) LH_HIDDEN;

typedef struct lh_table {
    lh_slot *slots;
    lh_slot_alloc *allocs;        /* per slot, same index (mapped lazily: untouched pages cost nothing) */
    /* Per slot, LH_SIZE_RING entries (layout_iter + 1) << 32 | width << 16 | height, indexed by
     * layout_iter % LH_SIZE_RING, written by the thread laying the object out (relaxed). */
    _Atomic uint64_t *sizes;
    /* sizes - slots in bytes: slot i's size ring is at its slot's address plus this (a slot and a
     * ring are 64 bytes each), so the per-frame path finds the ring without the slot's index. */
    ptrdiff_t ring_offset;
    uint64_t mask;                /* capacity - 1 (capacity is a power of two) */
    uint64_t capacity;
    _Atomic uint64_t used;        /* slots claimed: objects tracked (relaxed counter) */
    _Atomic uint64_t dropped;     /* calls not counted because the table was full (relaxed) */
    /* Objects forgotten with counts (destroyed after being laid out), and the ones kept of them. */
    _Atomic uint64_t destroyed;   /* relaxed counter */
    lh_gone_list gone_laid_out;   /* ranked by layouts */
    lh_gone_list gone_allocators; /* ranked by bytes allocated in their layouts */
} lh_table;

/* Maps `capacity` slots (a power of two) with mmap. Returns 0, or -errno. */
int lh_table_init(lh_table *t, uint64_t capacity) LH_HIDDEN;
/* Forgets every entry (after fork: the child starts with an empty table). */
void lh_table_clear(lh_table *t) LH_HIDDEN;

static inline uint64_t lh_table_key(const void *object, unsigned hook) {
    return ((uint64_t)(uintptr_t)object & ((UINT64_C(1) << 56) - 1)) | ((uint64_t)(hook + 1) << 56);
}
/* A key's object and hook, back (a slot's key, read relaxed by its reader). */
static inline const void *lh_table_key_object(uint64_t key) {
    return (const void *)(uintptr_t)(key & ((UINT64_C(1) << 56) - 1));
}
static inline unsigned lh_table_key_hook(uint64_t key) { return (unsigned)(key >> 56) - 1; }

static inline uint64_t lh_table_hash(uint64_t key) {
    /* Fibonacci hashing with xor-shifts: pointers differ mostly in middle bits. */
    key ^= key >> 33;
    key *= UINT64_C(0x9E3779B97F4A7C15);
    key ^= key >> 29;
    return key;
}

/* Probing beyond the home slot, claiming a new slot: see lh_table.c. */
lh_slot *lh_table_slot_probe(lh_table *t, uint64_t key) LH_HIDDEN;

/* The slot of (object, hook) when it is a known key in its home slot (the common case: one hash
 * and one load); else NULL, and lh_table_slot_probe finds or claims it. */
static inline lh_slot *lh_table_slot_home(lh_table *t, const void *object, unsigned hook) {
    uint64_t key = lh_table_key(object, hook);
    if (LH_UNLIKELY(t->slots == NULL)) return NULL;
    lh_slot *home = &t->slots[lh_table_hash(key) & t->mask];
    /* acquire: pairs with the claiming CAS (see lh_table_slot_probe). */
    return LH_LIKELY(atomic_load_explicit(&home->key, memory_order_acquire) == key) ? home : NULL;
}

/* The slot of (object, hook), claimed if new; NULL when the table is full (counted as dropped). */
static inline lh_slot *lh_table_slot(lh_table *t, const void *object, unsigned hook) {
    lh_slot *home = lh_table_slot_home(t, object, hook);
    return LH_LIKELY(home != NULL) ? home : lh_table_slot_probe(t, lh_table_key(object, hook));
}

/* Counts one call in `epoch` (never 0). Returns the calls counted in this epoch including this one.
 * When this is the slot's first call in `epoch`, *rolled_from receives the previous count word
 * (0 if the slot was new), so the caller can judge the iteration that just ended for the object;
 * otherwise *rolled_from is left alone and false is returned through *rolled. */
static inline uint32_t lh_slot_count(lh_slot *s, uint64_t epoch, bool *rolled, uint64_t *rolled_from) {
    uint64_t tag = (epoch & LH_EPOCH_MASK) << LH_COUNT_BITS;
    /* relaxed: the count publishes nothing else; see the file comment for the race it allows. */
    uint64_t w = atomic_load_explicit(&s->count, memory_order_relaxed);
    lh_owner_add(&s->total, 1);
    if ((w & ~(uint64_t)LH_COUNT_MAX) == tag) {
        uint32_t c = (uint32_t)(w & LH_COUNT_MAX);
        if (c < LH_COUNT_MAX) {
            c++;
            atomic_store_explicit(&s->count, tag | c, memory_order_relaxed);
        }
        *rolled = false;
        return c;
    }
    atomic_store_explicit(&s->count, tag | 1u, memory_order_relaxed);
    *rolled = true;
    *rolled_from = w;
    return 1;
}

/* The allocation totals of slot `s`. */
static inline lh_slot_alloc *lh_table_alloc_of(lh_table *t, const lh_slot *s) {
    return &t->allocs[s - t->slots];
}

/* Statistics (relaxed reads). */
static inline uint64_t lh_table_used(lh_table *t) { return atomic_load_explicit(&t->used, memory_order_relaxed); }
static inline uint64_t lh_table_dropped(lh_table *t) { return atomic_load_explicit(&t->dropped, memory_order_relaxed); }

/* Remembers the size `size` (width << 32 | height) of the object of slot `s` in layout iteration
 * `layout_iter` of its thread (inline: the per-frame path of every view), and what it was in an
 * earlier one (LH_GEOMETRY_NONE: not known). */
static inline void lh_table_note_size(lh_table *t, const lh_slot *s, uint64_t layout_iter, uint64_t size) {
    if (size == LH_GEOMETRY_NONE) return; /* (t->sizes is mapped: `s` is one of t's slots) */
    if (LH_UNLIKELY((size & UINT64_C(0xffff0000ffff0000)) != 0)) { /* a side over 65535: saturate */
        uint64_t w = size >> 32, h = size & 0xffffffffu;
        size = (w > 0xffff ? 0xffff : w) << 32 | (h > 0xffff ? 0xffff : h);
    }
    /* (layout_iter + 1) << 32 | width << 16 | height */
    uint64_t entry = ((layout_iter + 1) << 32) | ((size | size >> 16) & 0xffffffffu);
    /* relaxed: owner-written, read by the same thread's breach path. */
    _Atomic uint64_t *ring = (_Atomic uint64_t *)(void *)((char *)(uintptr_t)s + t->ring_offset);
    atomic_store_explicit(&ring[layout_iter % LH_SIZE_RING], entry, memory_order_relaxed);
}
uint64_t lh_table_size_at(lh_table *t, const lh_slot *s, uint64_t layout_iter) LH_HIDDEN;

/* Forgets (object, hook) if present: its counts and detector state start again from zero, so an
 * object created later at the same address is a new object; its figures may be kept among the
 * destroyed objects that mattered (gone_laid_out, gone_allocators). Returns whether it was present. */
bool lh_table_forget(lh_table *t, const void *object, unsigned hook) LH_HIDDEN;
/* The slot of (object, hook) if the table has it (nothing is claimed); NULL otherwise. */
lh_slot *lh_table_find(lh_table *t, const void *object, unsigned hook) LH_HIDDEN;

static inline uint32_t lh_count_of(uint64_t word) { return (uint32_t)(word & LH_COUNT_MAX); }
static inline uint64_t lh_epoch_of(uint64_t word) { return word >> LH_COUNT_BITS; }

#endif
