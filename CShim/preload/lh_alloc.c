/*
 * lh_alloc.c — the malloc family: per-thread, per-iteration allocation accounting, charged to the
 * object whose layout is running, and the alloc-storm and heap-growth detectors.
 *
 * Contracts. These wrappers run wherever the host allocates: before main, in any thread, inside
 * signal handlers, inside the loader, inside our own breach path.
 *  - Forwarding goes to the allocator the host would have used without LoopHunter: for each name,
 *    the next definition in load order (lh_symbols.h), which is glibc's, or that of an allocator
 *    preloaded after us (`loophunter run` puts the user's LD_PRELOAD after ours) or linked by the
 *    program (jemalloc, tcmalloc, mimalloc, libc_malloc_debug). A block always goes back to the
 *    allocator that made it, and every function we do not wrap (malloc_trim, mallocx, sdallocx,
 *    C++ operator new/delete...) meets blocks of its own allocator. The set is resolved once, at the
 *    first call, without dlsym (which allocates) and without allocating; a call made while this
 *    thread resolves (none is known: the lookup allocates nothing) is served from a static pool,
 *    whose blocks free() ignores and realloc() moves out.
 *  - The forward keeps the allocator's exact semantics: arguments, results and errno are its own.
 *  - Hot path (glibc): initial-exec TLS reads only (the guard, the thread's counters, the allocation
 *    owner, the storm gate), one load of the forward's address, the forward, a read of the block's
 *    size word, and adds to counters only this thread writes. No shared atomic read-modify-write,
 *    no system call, no lock, errno untouched. With another allocator, sizes come from its own
 *    malloc_usable_size (a call per block, on the slow path).
 *  - Before LoopHunter is initialised (and while it is being initialised) a call only forwards:
 *    these hooks never initialise anything.
 *  - LoopHunter's own work (the thread's guard > 0) is forwarded uncounted, so unwinding, report
 *    writing and GLib calls we make never show in the counts.
 *  - Slow paths (a thread's first counted allocation, a breach, an epoch boundary) hold the guard
 *    and preserve errno.
 *
 * Sizes are usable sizes (what malloc_usable_size reports), for allocations and frees alike, so
 * that allocated minus freed is the live heap. With glibc they are read from its chunk header,
 * after the first 64 reads were checked against glibc's own malloc_usable_size; any mismatch (a
 * debugging allocator, another layout) makes every later read call the allocator's function.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lh_preload.h"

#include "lh_symbols.h"

/* glibc's own allocator: what a name falls back to if no module defines it (never seen). */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);
extern void __libc_free(void *block);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

#define LH_ALLOC_POOL 1024          /* threads with counters of their own at one time */
#define LH_GROWTH_NOISE 4096        /* an epoch whose live heap moved less than this is neutral */
#define LH_USABLE_CHECKS 64

_Atomic int lh_alloc_on;            /* the hot path's only global read; see lh_alloc_start */

static lh_alloc_counts *pool;       /* mapped at start-up */
static _Atomic size_t pool_high;    /* counters [0, pool_high) were ever claimed */
static lh_alloc_counts shared;      /* threads without counters of their own: atomic adds */
static lh_alloc_counts exited;      /* counts of threads that exited: atomic adds */
static _Atomic uint64_t pool_exhausted;
static pthread_key_t exit_key;
static bool exit_key_ok;

/* ---- usable sizes --------------------------------------------------------------------------- */

/* lh_alloc_on: off; counting with sizes from glibc's malloc_usable_size while the header reads are
 * being checked (or for good when one disagreed); counting with sizes read from glibc's header; or
 * counting with sizes from another allocator's malloc_usable_size. */
enum { LH_ALLOC_OFF = 0, LH_ALLOC_CHECKING = 1, LH_ALLOC_FAST = 2, LH_ALLOC_FOREIGN = 3 };
static _Atomic int usable_matches;  /* header reads that agreed with glibc (relaxed counter) */
static _Atomic bool usable_libc_only; /* a header read disagreed: glibc's function from now on */

/* glibc's chunk header: the word before the block is the chunk size | flags (2: mmapped); the
 * usable size is the chunk less its 8-byte size field, or less 16 bytes for an mmapped chunk. */
static inline size_t header_usable(const void *block) {
    size_t word = ((const size_t *)block)[-1];
    size_t usable = (word & ~(size_t)7) - sizeof(size_t);
    if (LH_UNLIKELY(word & 2)) usable -= sizeof(size_t); /* mmapped: prev_size is not usable */
    return usable;
}

/* The usable size off the fast path: the allocator's own answer; with glibc, compared with the
 * header's (the first LH_USABLE_CHECKS agreements switch the hooks to header reads). */
static LH_NOINLINE size_t usable_slow(int on, void *block) {
    size_t (*size_of)(void *) = __atomic_load_n(&lh_real_malloc_usable_size, __ATOMIC_RELAXED);
    if (size_of == NULL) return 0; /* an allocator without the function: byte counts stay 0 */
    size_t own = size_of(block);
    if (on == LH_ALLOC_FOREIGN) return own;
    if (!atomic_load_explicit(&usable_libc_only, memory_order_relaxed)) {
        if (header_usable(block) != own) {
            atomic_store_explicit(&usable_libc_only, true, memory_order_relaxed);
        } else if (atomic_fetch_add_explicit(&usable_matches, 1, memory_order_relaxed) + 1 >= LH_USABLE_CHECKS) {
            int expected = LH_ALLOC_CHECKING;
            /* relaxed: only the value changes; everything else was published at start-up. */
            atomic_compare_exchange_strong_explicit(&lh_alloc_on, &expected, LH_ALLOC_FAST,
                                                    memory_order_relaxed, memory_order_relaxed);
        }
    }
    return own;
}

static inline size_t usable(int on, void *block) {
    return LH_LIKELY(on == LH_ALLOC_FAST) ? header_usable(block) : usable_slow(on, block);
}

/* ---- the allocator in use ------------------------------------------------------------------- */

/* What the process's malloc calls reach, for the summary: the allocator we forward to, or one that
 * takes the calls before they reach us (preloaded ahead of LoopHunter, or defined by the program). */
static lh_symbol_hit next_malloc, first_malloc;
static bool next_is_glibc;
static _Atomic int resolved; /* 0: not yet; 1: lh_real_* all set (release/acquire) */

/* A name's fallback when no module defines it (impossible with glibc; kept for odd hosts). */
static int fallback_posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || alignment == 0 ||
        ((alignment / sizeof(void *)) & (alignment / sizeof(void *) - 1)) != 0)
        return EINVAL;
    void *block = __libc_memalign(alignment, size);
    if (block == NULL) return ENOMEM;
    *out = block;
    return 0;
}
static void *fallback_reallocarray(void *block, size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(block, bytes);
}

static void *fallback_of(unsigned hook) {
    switch (hook) {
    case LH_HOOK_malloc: return (void *)__libc_malloc;
    case LH_HOOK_calloc: return (void *)__libc_calloc;
    case LH_HOOK_realloc: return (void *)__libc_realloc;
    case LH_HOOK_reallocarray: return (void *)fallback_reallocarray;
    case LH_HOOK_free: return (void *)__libc_free;
    case LH_HOOK_posix_memalign: return (void *)fallback_posix_memalign;
    case LH_HOOK_aligned_alloc: case LH_HOOK_memalign: return (void *)__libc_memalign;
    case LH_HOOK_valloc: return (void *)__libc_valloc;
    case LH_HOOK_pvalloc: return (void *)__libc_pvalloc;
    case LH_HOOK_malloc_usable_size: return NULL; /* sizes then count as 0 (usable_slow) */
    default: return NULL;
    }
}

/* Whether `path` names glibc's libc.so.6 (the file name starts "libc.so."). */
static bool is_libc(const char *path) {
    const char *slash = strrchr(path, '/');
    const char *name = slash != NULL ? slash + 1 : path;
    return strncmp(name, "libc.so.", 8) == 0;
}

/* The thread that is resolving (a nested call on it is served from the pool). */
static __thread bool resolving __attribute__((tls_model("initial-exec")));

void lh_alloc_resolve(void) {
    /* acquire: pairs with the release below; the pointers are all set. */
    if (atomic_load_explicit(&resolved, memory_order_acquire)) return;
    int saved = errno;
    resolving = true;
    const void *self = (const void *)lh_alloc_resolve;
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) {
        if (lh_hooks[id].family != LH_FAMILY_ALLOC) continue;
        lh_symbol_hit hit;
        void *fn = lh_symbol_find(lh_hooks[id].name, self, &hit) ? hit.address : fallback_of(id);
        if (id == LH_HOOK_malloc) next_malloc = hit;
        /* relaxed: each racing resolver stores the same value; `resolved` publishes the set. */
        __atomic_store_n(lh_hooks[id].real, fn, __ATOMIC_RELAXED);
    }
    lh_symbol_first("malloc", self, &first_malloc);
    /* By module, not by comparing with __libc_malloc: an allocator may define that name too
     * (mimalloc does), and then our own reference to it binds there. */
    next_is_glibc = next_malloc.module != NULL && is_libc(next_malloc.module);
    resolving = false;
    /* release: the pointers above before any thread skips resolving. */
    atomic_store_explicit(&resolved, 1, memory_order_release);
    errno = saved;
}

/* ---- the start-up pool: blocks handed out while this thread resolves ------------------------- */

#define LH_EARLY_POOL (16 * 1024)
static char early_pool[LH_EARLY_POOL] __attribute__((aligned(64)));
static _Atomic size_t early_used;   /* bump pointer (relaxed CAS: only the space is claimed) */
static _Atomic uint64_t early_blocks;

static inline bool from_pool(const void *block) {
    return (uintptr_t)block - (uintptr_t)early_pool < sizeof early_pool;
}

/* A zeroed block of `size` bytes aligned to `align` (a power of two, at most 64) from the pool;
 * its size is kept in the 16 bytes before it. NULL (ENOMEM) when the pool is used up. */
static LH_NOINLINE __attribute__((cold)) void *early_alloc(size_t size, size_t align) {
    if (align < 16) align = 16;
    if (align > 64 || size > sizeof early_pool) {
        errno = ENOMEM;
        return NULL;
    }
    size_t used = atomic_load_explicit(&early_used, memory_order_relaxed), start, end;
    do {
        start = (used + 16 + align - 1) & ~(align - 1);
        end = start + ((size + 15) & ~(size_t)15);
        if (end > sizeof early_pool) {
            errno = ENOMEM;
            return NULL;
        }
    } while (!atomic_compare_exchange_weak_explicit(&early_used, &used, end, memory_order_relaxed,
                                                    memory_order_relaxed));
    atomic_fetch_add_explicit(&early_blocks, 1, memory_order_relaxed); /* stat */
    ((size_t *)(early_pool + start))[-1] = size;
    return early_pool + start;
}

static size_t early_size(const void *block) { return ((const size_t *)block)[-1]; }

/* ---- the thread's counters ------------------------------------------------------------------ */

static void shared_add(_Atomic uint64_t *c, uint64_t v) {
    atomic_fetch_add_explicit(c, v, memory_order_relaxed); /* a statistic: relaxed */
}

static void zero_counts(lh_alloc_counts *c) {
    /* relaxed: the claimer publishes the block with the release store of its state. */
    atomic_store_explicit(&c->calls, 0, memory_order_relaxed);
    atomic_store_explicit(&c->bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&c->frees, 0, memory_order_relaxed);
    atomic_store_explicit(&c->freed_bytes, 0, memory_order_relaxed);
}

static uint64_t counts_calls(const lh_alloc_counts *c) { return atomic_load_explicit(&c->calls, memory_order_relaxed); }

void lh_alloc_record_exit(const lh_tls *t, lh_thread_rec *r) {
    const lh_alloc_counts *c = t->alloc;
    if (c == NULL) return;
    /* relaxed: owner-only fields, read by the summary writer after the record's release. */
    atomic_store_explicit(&r->alloc_at_exit.calls, counts_calls(c), memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.bytes, atomic_load_explicit(&c->bytes, memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.frees, atomic_load_explicit(&c->frees, memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.freed_bytes, atomic_load_explicit(&c->freed_bytes, memory_order_relaxed), memory_order_relaxed);
    atomic_store_explicit(&r->alloc_at_exit.valid, 1, memory_order_relaxed);
}

/* A thread ends (pthread key destructor): its counts go into the exited totals (and its record,
 * for the summary), its counters back to the pool; what it frees from now on is counted shared. */
static void counts_exit(void *arg) {
    lh_alloc_counts *c = arg;
    lh_tls *t = &lh_tls_data;
    shared_add(&exited.calls, atomic_load_explicit(&c->calls, memory_order_relaxed));
    shared_add(&exited.bytes, atomic_load_explicit(&c->bytes, memory_order_relaxed));
    shared_add(&exited.frees, atomic_load_explicit(&c->frees, memory_order_relaxed));
    shared_add(&exited.freed_bytes, atomic_load_explicit(&c->freed_bytes, memory_order_relaxed));
    if (t->rec != NULL) lh_alloc_record_exit(t, t->rec);
    if (t->alloc == c) {
        t->alloc = t->alloc_fast = NULL;
        t->alloc_mode = 2;
        t->alloc_armed = false;
    }
    /* release: our reads of the block happen before a new owner zeroes it. */
    atomic_store_explicit(&c->state, LH_ALLOC_FREE, memory_order_release);
}

static lh_alloc_counts *take_from_pool(void) {
    size_t high = atomic_load_explicit(&pool_high, memory_order_acquire);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; i < high; i++) {
        uint32_t expected = LH_ALLOC_FREE;
        /* acquire: the previous owner's release (counts_exit) before we reuse the block. */
        if (atomic_compare_exchange_strong_explicit(&pool[i].state, &expected, LH_ALLOC_LIVE,
                                                    memory_order_acquire, memory_order_relaxed))
            return &pool[i];
    }
    /* relaxed: a unique index is all the counter gives; the block is published by its state. */
    size_t i = atomic_fetch_add_explicit(&pool_high, 1, memory_order_relaxed);
    if (i >= LH_ALLOC_POOL) return NULL;
    atomic_store_explicit(&pool[i].state, LH_ALLOC_LIVE, memory_order_relaxed);
    return &pool[i];
}

static void set_gate(lh_tls *t, uint64_t calls, uint64_t bytes);

/* The thread's first counted allocation or free: counters of its own, or the shared ones. */
static LH_NOINLINE __attribute__((cold)) void claim_counts(lh_tls *t) {
    int saved = errno;
    t->guard++;
    lh_alloc_counts *c = pool != NULL ? take_from_pool() : NULL;
    if (c != NULL) {
        zero_counts(c);
        atomic_store_explicit(&c->tid, lh_gettid(), memory_order_relaxed);
        /* release: zeroed counters before others read the block as live. */
        atomic_store_explicit(&c->state, LH_ALLOC_LIVE, memory_order_release);
        /* For key indexes below 32 glibc stores the value in the thread descriptor (no malloc);
         * otherwise its calloc comes back here under the guard and is forwarded. */
        if (exit_key_ok) pthread_setspecific(exit_key, c);
        t->alloc = c;
        t->alloc_mode = 1;
        set_gate(t, 0, 0);
    } else {
        atomic_fetch_add_explicit(&pool_exhausted, 1, memory_order_relaxed); /* stat */
        t->alloc = NULL;
        t->alloc_mode = 2;
        t->alloc_armed = false;
    }
    t->guard--;
    errno = saved;
}

/* ---- detectors ------------------------------------------------------------------------------ */

static uint64_t live_bytes_now(void) {
    int64_t live = 0;
    size_t high = atomic_load_explicit(&pool_high, memory_order_acquire);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        const lh_alloc_counts *c = &pool[i];
        if (atomic_load_explicit(&c->state, memory_order_acquire) != LH_ALLOC_LIVE) continue;
        live += (int64_t)(atomic_load_explicit(&c->bytes, memory_order_relaxed) -
                          atomic_load_explicit(&c->freed_bytes, memory_order_relaxed));
    }
    const lh_alloc_counts *totals[] = {&shared, &exited};
    for (size_t i = 0; i < LH_ARRAY_COUNT(totals); i++)
        live += (int64_t)(atomic_load_explicit(&totals[i]->bytes, memory_order_relaxed) -
                          atomic_load_explicit(&totals[i]->freed_bytes, memory_order_relaxed));
    /* Frees of blocks allocated before LoopHunter started can make the sum negative. */
    return live > 0 ? (uint64_t)live : 0;
}

static const void *slot_object(const lh_slot *s) {
    uint64_t key = atomic_load_explicit(&s->key, memory_order_relaxed);
    return (const void *)(uintptr_t)(key & ((UINT64_C(1) << 56) - 1));
}

/* A limit was crossed in this epoch. It is a storm when the thread keeps crossing it: in
 * LOOPHUNTER_ALLOC_REPEAT epochs, each at most two after the last (an allocation storm inside a
 * loop repeats; a one-off burst, such as a renderer compiling its shaders at start-up, does not). */
static LH_NOINLINE __attribute__((cold)) void alloc_storm(lh_tls *t, unsigned hook) {
    t->alloc_armed = false; /* once per epoch */
    uint64_t n = t->epoch_number;
    t->alloc_storm_run = t->alloc_storm_run > 0 && n - t->alloc_storm_last <= 2 ? t->alloc_storm_run + 1 : 1;
    t->alloc_storm_last = n;
    if (t->alloc_storm_run < lh_proc.cfg.alloc_repeat) return;
    int saved = errno;
    t->guard++;
    lh_alloc_counts *c = t->alloc;
    uint64_t calls = counts_calls(c) - t->alloc_base_calls;
    uint64_t bytes = atomic_load_explicit(&c->bytes, memory_order_relaxed) - t->alloc_base_bytes;
    bool by_bytes = bytes > lh_proc.cfg.alloc_bytes;
    const lh_slot *owner = t->alloc_owner;
    lh_breach b = {
        .kind = "alloc-storm",
        .hook = hook,
        .object = owner != NULL ? slot_object(owner) : NULL,
        .object_slot = owner,
        .named_type = owner != NULL ? NULL : "(no layout running)",
        .count = by_bytes ? bytes : calls,
        .threshold = by_bytes ? lh_proc.cfg.alloc_bytes : lh_proc.cfg.alloc_calls,
        .count_unit = by_bytes ? "bytes allocated in one iteration" : "allocations in one iteration",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
    };
    lh_breach_report(t, &b);
    t->guard--;
    errno = saved;
}

/* After each epoch of a thread with a record: the process's live heap grew (by more than the
 * noise) in LOOPHUNTER_GROWTH_ITERATIONS epochs in a row (epochs within the noise neither count
 * nor break the run, one that shrank breaks it), by LOOPHUNTER_GROWTH_BYTES in all. */
static void growth_step(lh_tls *t, lh_thread_rec *r) {
    uint64_t live = live_bytes_now();
    if (!r->growth_has_last) {
        r->growth_has_last = true;
        r->growth_last_live = live;
        return;
    }
    int64_t delta = (int64_t)(live - r->growth_last_live);
    r->growth_last_live = live;
    if (delta > LH_GROWTH_NOISE) {
        if (r->growth_run == 0) r->growth_start_live = live - (uint64_t)delta;
        r->growth_run++;
    } else if (delta < -LH_GROWTH_NOISE) {
        r->growth_run = 0;
        r->growth_reported = false;
    }
    if (r->growth_run < lh_proc.cfg.growth_iterations || r->growth_reported || live <= r->growth_start_live ||
        live - r->growth_start_live < lh_proc.cfg.growth_bytes)
        return;
    r->growth_reported = true; /* once per run */
    lh_breach b = {
        .kind = "heap-growth",
        .hook = LH_HOOK_malloc, /* the malloc family */
        .named_type = "(process heap)",
        .count = live - r->growth_start_live,
        .threshold = lh_proc.cfg.growth_bytes,
        .count_unit = "bytes of heap growth",
        .size_before = LH_GEOMETRY_NONE,
        .size_after = LH_GEOMETRY_NONE,
        .growth_iterations = r->growth_run,
        .growth_start_live = r->growth_start_live,
    };
    lh_breach_report(t, &b);
}

/* ---- counting ------------------------------------------------------------------------------- */

/* The storm gate. The fast path makes one comparison for both alloc-storm limits: the thread's
 * byte count against t->alloc_gate, the smallest byte count at which either limit can have been
 * crossed: the bytes limit itself, or the calls limit reached by blocks of the least usable size
 * (every block adds at least LH_MIN_USABLE bytes). Passing the gate is not a storm yet: gate_passed
 * checks both limits exactly and moves the gate on. UINT64_MAX: not armed. With blocks of a few
 * hundred bytes the gate is passed some ten times per limit's worth of calls, O(log) per epoch. */
#define LH_MIN_USABLE 16 /* glibc: MALLOC_ALIGNMENT; the least usable size is 24 on x86-64 */

static void set_gate(lh_tls *t, uint64_t calls, uint64_t bytes) {
    uint64_t gate = UINT64_MAX;
    if (t->alloc_armed) {
        /* The calls limit is crossed no sooner than (limit - calls) blocks, so bytes + that many
         * times LH_MIN_USABLE from now (saturating). */
        uint64_t by_calls = bytes, room;
        if (calls < t->alloc_limit_calls &&
            (__builtin_mul_overflow(t->alloc_limit_calls - calls, (uint64_t)LH_MIN_USABLE, &room) ||
             __builtin_add_overflow(bytes, room, &by_calls)))
            by_calls = UINT64_MAX;
        gate = by_calls < t->alloc_limit_bytes ? by_calls : t->alloc_limit_bytes;
    }
    t->alloc_gate = gate;
}

/* Returns `block` (the fast path's tail call keeps nothing across it). */
static LH_NOINLINE __attribute__((cold)) void *gate_passed(lh_tls *t, unsigned hook, void *block) {
    const lh_alloc_counts *c = t->alloc;
    uint64_t calls = counts_calls(c), bytes = atomic_load_explicit(&c->bytes, memory_order_relaxed);
    if (t->alloc_armed && (bytes > t->alloc_limit_bytes || calls > t->alloc_limit_calls))
        alloc_storm(t, hook); /* disarms: one report per epoch */
    set_gate(t, calls, bytes);
    return block;
}

/* A block allocated while a layout runs: charged to its object too. */
static inline void charge_owner(lh_slot *owner, size_t n) {
    lh_slot_alloc *a = lh_table_alloc_of(&lh_proc.table, owner);
    lh_owner_add(&a->bytes, n);
    lh_owner_add(&a->calls, 1);
}

/* One block of `n` usable bytes, on a thread with counters of its own. Returns whether the storm
 * gate was passed (the caller then calls gate_passed). */
static inline bool count_alloc_own(lh_tls *t, lh_alloc_counts *c, size_t n) {
    /* The new total stays in a register for the gate (the counter is an atomic: it would be loaded
     * again). Relaxed load + store: only this thread writes its counters. */
    uint64_t bytes = atomic_load_explicit(&c->bytes, memory_order_relaxed) + n;
    atomic_store_explicit(&c->bytes, bytes, memory_order_relaxed);
    lh_owner_add(&c->calls, 1);
    lh_slot *owner = t->alloc_owner;
    if (LH_UNLIKELY(owner != NULL)) charge_owner(owner, n);
    return LH_UNLIKELY(bytes > t->alloc_gate);
}

/* The thread's counters become the fast path's once the header sizes are trusted. */
static void update_fast(lh_tls *t, int on) {
    t->alloc_fast = on == LH_ALLOC_FAST ? t->alloc : NULL;
}

/* Any case but the fast one: sizes from glibc while checking, the thread's first count (claiming
 * counters), or a thread counting into the shared counters. */
static LH_NOINLINE void count_alloc_slow(lh_tls *t, int on, unsigned hook, void *block) {
    size_t n = usable(on, block);
    if (t->alloc_mode == 0) claim_counts(t);
    update_fast(t, atomic_load_explicit(&lh_alloc_on, memory_order_relaxed)); /* usable() may have moved it on */
    if (t->alloc != NULL) {
        if (count_alloc_own(t, t->alloc, n)) gate_passed(t, hook, block);
        return;
    }
    shared_add(&shared.calls, 1);
    shared_add(&shared.bytes, n);
    if (t->alloc_owner != NULL) charge_owner(t->alloc_owner, n);
}

static inline void count_alloc(lh_tls *t, int on, unsigned hook, void *block) {
    lh_alloc_counts *c = t->alloc_fast; /* non-NULL: counters of our own, and `on` is FAST */
    if (LH_LIKELY(c != NULL)) {
        if (count_alloc_own(t, c, header_usable(block))) gate_passed(t, hook, block);
    } else {
        count_alloc_slow(t, on, hook, block);
    }
}

static LH_NOINLINE void count_free_slow(lh_tls *t, size_t n) {
    if (t->alloc_mode == 0) claim_counts(t);
    update_fast(t, atomic_load_explicit(&lh_alloc_on, memory_order_relaxed));
    if (t->alloc != NULL) {
        lh_owner_add(&t->alloc->frees, 1);
        lh_owner_add(&t->alloc->freed_bytes, n);
    } else {
        shared_add(&shared.frees, 1);
        shared_add(&shared.freed_bytes, n);
    }
}

static inline void count_free(lh_tls *t, size_t n) {
    lh_alloc_counts *c = t->alloc_fast;
    if (LH_LIKELY(c != NULL)) {
        lh_owner_add(&c->frees, 1);
        lh_owner_add(&c->freed_bytes, n);
    } else {
        count_free_slow(t, n);
    }
}

/* Whether to count: LoopHunter is ready with the alloc family on (the state, 0 when not), and this
 * is not our own work (then 0 too). */
static inline int counting(const lh_tls *t) {
    /* acquire: pairs with lh_alloc_start's release (a plain load on x86-64). */
    int on = atomic_load_explicit(&lh_alloc_on, memory_order_acquire);
    return LH_LIKELY(t->guard == 0) ? on : LH_ALLOC_OFF;
}

/* The fast path applies: counters of our own with trusted header sizes, and not our own work.
 * (t->alloc_fast is only ever set after lh_alloc_start's release was seen by this thread.) */
static inline lh_alloc_counts *fast_counts(const lh_tls *t) {
    lh_alloc_counts *c = t->alloc_fast;
    return LH_LIKELY(t->guard == 0) ? c : NULL;
}

/* ---- the wrappers (rows LH_ALLOC_HOOK of lh_hooks.def) ------------------------------------------ */

/* The fast path of each wrapper: the forward, a read of the block's size word, two counter adds,
 * one owner test and one gate comparison. Everything else (LoopHunter not ready, the family off,
 * our own work, the first counted call of a thread, sizes still being checked) is a tail call to
 * the slow path, which forwards without counting when it should not count. */

/* Counts a block glibc returned on the fast path, and returns it. A function of its own, tail-called
 * by the wrappers after the forward: they then need no stack frame and keep no register across
 * the forward (the thread's counters are read again; nothing changes them meanwhile: glibc's
 * malloc calls no hook). */
static LH_NOINLINE void *counted(void *block, unsigned hook) {
    if (LH_UNLIKELY(block == NULL)) return NULL;
    lh_tls *t = &lh_tls_data;
    if (count_alloc_own(t, t->alloc_fast, header_usable(block))) return gate_passed(t, hook, block);
    return block;
}

/* The same off the fast path (the wrapper has decided to count). */
static LH_NOINLINE void *counted_slow(void *block, unsigned hook) {
    lh_tls *t = &lh_tls_data;
    if (block != NULL) count_alloc(t, counting(t), hook, block);
    return block;
}

/* The body of malloc, calloc, memalign, valloc, pvalloc and aligned_alloc: the fast path; else
 * the forward alone when not counting (a tail call); else the forward and the slow count. */
#define LH_FORWARD_AND_COUNT(hook, call)                                                            \
    do {                                                                                            \
        lh_tls *t_ = &lh_tls_data;                                                                  \
        if (LH_LIKELY(fast_counts(t_) != NULL)) return counted(call, hook);                         \
        if (counting(t_) == LH_ALLOC_OFF) return call;                                              \
        return counted_slow(call, hook);                                                            \
    } while (0)

/* The next allocator's function `name` (NULL until the set is resolved). relaxed: the pointer's
 * value is all a wrapper needs; what counting depends on is published through lh_alloc_on. */
#define NEXT(name) __atomic_load_n(&lh_real_##name, __ATOMIC_RELAXED)

/* Each wrapper called before the set is resolved resolves it, then runs again for real; unless
 * this thread is the one resolving: then the start-up pool serves it (early_alloc). */
LH_EXPORT void *malloc(size_t size) {
    void *(*real)(size_t) = NEXT(malloc);
    if (LH_UNLIKELY(real == NULL)) {
        if (resolving) return early_alloc(size, 16);
        lh_alloc_resolve();
        return malloc(size);
    }
    LH_FORWARD_AND_COUNT(LH_HOOK_malloc, real(size));
}

static LH_NOINLINE void free_slow(void *block) {
    lh_tls *t = &lh_tls_data;
    int on = counting(t);
    count_free(t, usable(on, block));
    NEXT(free)(block);
}

/* free() proper: counted, then the allocator's. */
static inline __attribute__((always_inline)) void free_body(void (*real)(void *), void *block) {
    lh_tls *t = &lh_tls_data;
    lh_alloc_counts *c = fast_counts(t);
    if (LH_LIKELY(c != NULL && block != NULL)) {
        lh_owner_add(&c->frees, 1);
        lh_owner_add(&c->freed_bytes, header_usable(block));
        real(block);
    } else if (block == NULL || counting(t) == LH_ALLOC_OFF) {
        real(block);
    } else {
        free_slow(block);
    }
}

#ifndef LH_BENCH_NO_TIMER_CHECK /* scripts/bench/health.sh measures the preload without it */
/* A timer with user data is live: is this block one's data (timer-outlives-target)? */
static LH_NOINLINE void free_checking_timers(void (*real)(void *), void *block) {
    if (block != NULL) lh_timer_on_free(block);
    free_body(real, block);
}
#endif

static LH_NOINLINE __attribute__((cold)) void free_early(void *block) {
    if (block == NULL || from_pool(block)) return; /* pool blocks are never reused */
    lh_alloc_resolve();
    free(block);
}

LH_EXPORT void free(void *block) {
    void (*real)(void *) = NEXT(free);
    /* A pool block (one unsigned comparison), or the set not resolved yet (a NULL pointer). */
    if (LH_UNLIKELY(from_pool(block) || real == NULL)) {
        free_early(block);
        return;
    }
#ifndef LH_BENCH_NO_TIMER_CHECK /* scripts/bench/health.sh measures the preload without it */
    /* relaxed: a hint; 0 (no live timer has user data) is the common case: one load, and the
     * other path is a tail call, so this one needs no stack frame. */
    if (LH_UNLIKELY(atomic_load_explicit(&lh_timer_watched, memory_order_relaxed) != 0)) {
        free_checking_timers(real, block);
        return;
    }
#endif
    free_body(real, block);
}

LH_EXPORT void *calloc(size_t count, size_t size) {
    void *(*real)(size_t, size_t) = NEXT(calloc);
    if (LH_UNLIKELY(real == NULL)) {
        if (!resolving) {
            lh_alloc_resolve();
            return calloc(count, size);
        }
        size_t bytes;
        if (__builtin_mul_overflow(count, size, &bytes)) {
            errno = ENOMEM;
            return NULL;
        }
        return early_alloc(bytes, 16); /* static memory: already zeroed */
    }
    LH_FORWARD_AND_COUNT(LH_HOOK_calloc, real(count, size)); /* the allocator checks the overflow */
}

/* realloc counts the old block as freed and the new one as allocated (in place or not). */
static void *realloc_counted(lh_tls *t, int on, unsigned hook, void *block, size_t size) {
    size_t old = block != NULL ? usable(on, block) : 0;
    void *moved = NEXT(realloc)(block, size);
    if (moved != NULL) {
        if (block != NULL) count_free(t, old);
        count_alloc(t, on, hook, moved);
    } else if (block != NULL && size == 0) {
        count_free(t, old); /* glibc: realloc(p, 0) frees p and returns NULL */
    }
    return moved;
}

/* A pool block grows (or shrinks) into a block of the allocator; the pool keeps its bytes. */
static LH_NOINLINE __attribute__((cold)) void *realloc_early(void *block, size_t size) {
    if (block != NULL && !from_pool(block)) {
        lh_alloc_resolve();
        return realloc(block, size);
    }
    if (size == 0 && block != NULL) return NULL; /* as glibc: realloc(p, 0) frees p */
    void *moved = malloc(size);
    if (moved != NULL && block != NULL) {
        size_t old = early_size(block);
        memcpy(moved, block, old < size ? old : size);
    }
    return moved;
}

LH_EXPORT void *realloc(void *block, size_t size) {
    if (LH_UNLIKELY(from_pool(block) || NEXT(realloc) == NULL)) return realloc_early(block, size);
    lh_tls *t = &lh_tls_data;
    int on = counting(t);
    if (on == LH_ALLOC_OFF) return NEXT(realloc)(block, size);
    return realloc_counted(t, on, LH_HOOK_realloc, block, size);
}

/* As glibc's own reallocarray: the overflow check, then realloc through the process's realloc
 * (ours, which forwards to the allocator's and counts). */
LH_EXPORT void *reallocarray(void *block, size_t count, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) { /* ENOMEM, the block untouched */
        errno = ENOMEM;
        return NULL;
    }
    return realloc(block, bytes);
}

LH_EXPORT int posix_memalign(void **out, size_t alignment, size_t size) {
    int (*real)(void **, size_t, size_t) = NEXT(posix_memalign);
    if (LH_UNLIKELY(real == NULL)) {
        if (!resolving) {
            lh_alloc_resolve();
            return posix_memalign(out, alignment, size);
        }
        void *block = early_alloc(size, alignment);
        if (block == NULL) return ENOMEM;
        *out = block;
        return 0;
    }
    lh_tls *t = &lh_tls_data;
    int on = counting(t);
    int result = real(out, alignment, size); /* EINVAL and *out untouched: the allocator's checks */
    if (result == 0 && on != LH_ALLOC_OFF) count_alloc(t, on, LH_HOOK_posix_memalign, *out);
    return result;
}

/* The aligned allocations: memalign, aligned_alloc (the allocator's own checks of the alignment),
 * valloc and pvalloc (page-aligned). */
#define LH_ALIGNED_WRAPPER(name, hook, params, args, size, align)                                   \
    LH_EXPORT void *name params {                                                                   \
        void *(*real) params = NEXT(name);                                                          \
        if (LH_UNLIKELY(real == NULL)) {                                                            \
            if (resolving) return early_alloc(size, align);                                          \
            lh_alloc_resolve();                                                                     \
            return name args;                                                                       \
        }                                                                                           \
        LH_FORWARD_AND_COUNT(hook, real args);                                                      \
    }
LH_ALIGNED_WRAPPER(memalign, LH_HOOK_memalign, (size_t alignment, size_t size), (alignment, size), size, alignment)
LH_ALIGNED_WRAPPER(aligned_alloc, LH_HOOK_aligned_alloc, (size_t alignment, size_t size), (alignment, size), size, alignment)
LH_ALIGNED_WRAPPER(valloc, LH_HOOK_valloc, (size_t size), (size), size, 64)
LH_ALIGNED_WRAPPER(pvalloc, LH_HOOK_pvalloc, (size_t size), (size), size, 64)

/* Not counted: the allocator's answer, or the size of a pool block. */
LH_EXPORT size_t malloc_usable_size(void *block) {
    if (LH_UNLIKELY(from_pool(block))) return early_size(block);
    size_t (*real)(void *) = NEXT(malloc_usable_size);
    if (LH_UNLIKELY(real == NULL)) {
        if (atomic_load_explicit(&resolved, memory_order_acquire)) return 0; /* the allocator has none */
        lh_alloc_resolve();
        return malloc_usable_size(block);
    }
    return real(block);
}

/* ---- set-up, epochs, reports, summary ----------------------------------------------------------- */

int lh_alloc_init(void) {
    lh_alloc_resolve(); /* the allocator in use is known from start-up on (summary) */
    if ((lh_proc.cfg.families & LH_FAMILY_ALLOC) == 0) return 0;
    size_t bytes = LH_ALLOC_POOL * sizeof(lh_alloc_counts);
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mem == MAP_FAILED) return -errno;
    pool = mem;
    exit_key_ok = pthread_key_create(&exit_key, counts_exit) == 0;
    return 0;
}

void lh_alloc_start(bool ready) {
    lh_alloc_resolve();
    /* glibc: sizes from its header once checked; another allocator: its malloc_usable_size.
     * release: pairs with the hooks' acquire load of lh_alloc_on, so a hook that sees it on sees
     * the initialised lh_proc (configuration, table), the pool and the resolved set. */
    int on = !ready || pool == NULL ? LH_ALLOC_OFF : next_is_glibc ? LH_ALLOC_CHECKING : LH_ALLOC_FOREIGN;
    atomic_store_explicit(&lh_alloc_on, on, memory_order_release);
}

void lh_alloc_reset_after_fork(void) {
    /* The child of fork() is single-threaded: the other threads' counters are gone with them. */
    lh_tls *t = &lh_tls_data;
    size_t high = atomic_load_explicit(&pool_high, memory_order_relaxed);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        if (&pool[i] == t->alloc) continue;
        zero_counts(&pool[i]);
        atomic_store_explicit(&pool[i].state, LH_ALLOC_FREE, memory_order_relaxed);
    }
    if (t->alloc != NULL) {
        zero_counts(t->alloc);
        atomic_store_explicit(&t->alloc->tid, lh_gettid(), memory_order_relaxed);
    }
    zero_counts(&shared);
    zero_counts(&exited);
    atomic_store_explicit(&pool_exhausted, 0, memory_order_relaxed);
    t->alloc_base_calls = t->alloc_base_bytes = t->alloc_base_freed = 0;
    t->alloc_limit_calls = lh_proc.cfg.alloc_calls;
    t->alloc_limit_bytes = lh_proc.cfg.alloc_bytes;
    set_gate(t, 0, 0);
}

void lh_alloc_thread_counts(const lh_tls *t, uint64_t *calls, uint64_t *bytes, uint64_t *frees,
                            uint64_t *freed_bytes) {
    const lh_alloc_counts *c = t->alloc;
    *calls = c != NULL ? counts_calls(c) : 0;
    *bytes = c != NULL ? atomic_load_explicit(&c->bytes, memory_order_relaxed) : 0;
    *frees = c != NULL ? atomic_load_explicit(&c->frees, memory_order_relaxed) : 0;
    *freed_bytes = c != NULL ? atomic_load_explicit(&c->freed_bytes, memory_order_relaxed) : 0;
}

bool lh_alloc_counts_of_thread(int tid, uint64_t out[4]) {
    size_t high = atomic_load_explicit(&pool_high, memory_order_acquire);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        const lh_alloc_counts *c = &pool[i];
        if (atomic_load_explicit(&c->state, memory_order_acquire) != LH_ALLOC_LIVE ||
            atomic_load_explicit(&c->tid, memory_order_relaxed) != tid)
            continue;
        out[0] = counts_calls(c);
        out[1] = atomic_load_explicit(&c->bytes, memory_order_relaxed);
        out[2] = atomic_load_explicit(&c->frees, memory_order_relaxed);
        out[3] = atomic_load_explicit(&c->freed_bytes, memory_order_relaxed);
        return true;
    }
    return false;
}

void lh_alloc_epoch_so_far(const lh_tls *t, lh_hist *h) {
    uint64_t calls, bytes, frees, freed;
    lh_alloc_thread_counts(t, &calls, &bytes, &frees, &freed);
    h->alloc_calls = calls - t->alloc_base_calls;
    h->alloc_bytes = bytes - t->alloc_base_bytes;
    h->freed_bytes = freed - t->alloc_base_freed;
}

void lh_alloc_epoch_end(lh_tls *t, lh_thread_rec *r, lh_hist *h) {
    if (atomic_load_explicit(&lh_alloc_on, memory_order_relaxed) == 0) {
        if (h != NULL) h->alloc_calls = h->alloc_bytes = h->freed_bytes = 0;
        return;
    }
    if (h != NULL) lh_alloc_epoch_so_far(t, h);
    uint64_t calls, bytes, frees, freed;
    lh_alloc_thread_counts(t, &calls, &bytes, &frees, &freed);
    t->alloc_base_calls = calls;
    t->alloc_base_bytes = bytes;
    t->alloc_base_freed = freed;
    t->alloc_limit_bytes = bytes + lh_proc.cfg.alloc_bytes;
    t->alloc_limit_calls = calls + lh_proc.cfg.alloc_calls;
    /* Not in a thread's first iteration, nor in its first frame: start-up loads, parses and
     * compiles (GTK 4's GL renderer allocates ~64 MiB in its first frame under Mesa's llvmpipe). */
    t->alloc_armed = r != NULL && t->alloc_mode != 2 && t->past_first_epoch;
    set_gate(t, calls, bytes);
    if (r != NULL) growth_step(t, r);
}

/* The LH_ALLOC_TOP slots whose layouts allocated the most bytes (whole run), most first. */
static size_t top_allocators(lh_report_allocator *top) {
    lh_table *tb = &lh_proc.table;
    size_t n = 0;
    for (uint64_t i = 0; tb->slots != NULL && i < tb->capacity; i++) {
        const lh_slot *s = &tb->slots[i];
        uint64_t key = atomic_load_explicit(&s->key, memory_order_relaxed);
        if (key == 0) continue;
        const lh_slot_alloc *a = lh_table_alloc_of(tb, s);
        uint64_t bytes = atomic_load_explicit(&a->bytes, memory_order_relaxed);
        if (bytes == 0 || (n == LH_ALLOC_TOP && bytes <= top[n - 1].bytes)) continue;
        size_t k = n < LH_ALLOC_TOP ? n++ : n - 1;
        while (k > 0 && top[k - 1].bytes < bytes) {
            top[k] = top[k - 1];
            k--;
        }
        lh_report_allocator *e = &top[k];
        unsigned hook = (unsigned)(key >> 56) - 1;
        e->address = (uintptr_t)slot_object(s);
        e->hook = hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL;
        lh_toolkit_copy_text(e->type, atomic_load_explicit(&s->type, memory_order_relaxed));
        e->name[0] = '\0'; /* the object may be gone: nothing of it is read */
        e->bytes = bytes;
        e->calls = atomic_load_explicit(&a->calls, memory_order_relaxed);
        e->layouts = atomic_load_explicit(&s->total, memory_order_relaxed);
    }
    return n;
}

bool lh_alloc_describe(const lh_tls *t, const lh_slot *slot, lh_report_alloc *out, lh_report_allocator *top) {
    if (atomic_load_explicit(&lh_alloc_on, memory_order_relaxed) == 0) return false;
    memset(out, 0, sizeof *out);
    lh_hist now = {0};
    lh_alloc_epoch_so_far(t, &now);
    out->iteration_calls = now.alloc_calls;
    out->iteration_bytes = now.alloc_bytes;
    out->iteration_freed_bytes = now.freed_bytes;
    out->live_bytes = live_bytes_now();
    if (slot != NULL) {
        const lh_slot_alloc *a = lh_table_alloc_of(&lh_proc.table, slot);
        out->has_object = true;
        out->object_bytes = atomic_load_explicit(&a->bytes, memory_order_relaxed);
        out->object_calls = atomic_load_explicit(&a->calls, memory_order_relaxed);
        out->object_layouts = atomic_load_explicit(&slot->total, memory_order_relaxed);
    }
    out->top = top;
    out->top_count = top_allocators(top);
    return true;
}

/* The allocator's name, from its module's file name. */
static const char *allocator_name(const char *module) {
    static const struct {
        const char *part, *name;
    } known[] = {
        {"libc_malloc_debug", "glibc (malloc debugging)"},
        {"libjemalloc", "jemalloc"},
        {"libtcmalloc", "tcmalloc"},
        {"libmimalloc", "mimalloc"},
        {"libasan", "AddressSanitizer"},
        {"libtsan", "ThreadSanitizer"},
        {"liblsan", "LeakSanitizer"},
        {"libhwasan", "HWAddressSanitizer"},
        {"libc.so", "glibc"},
    };
    if (module == NULL || module[0] == '\0') return "the program itself";
    for (size_t i = 0; i < LH_ARRAY_COUNT(known); i++)
        if (strstr(module, known[i].part) != NULL) return known[i].name;
    const char *slash = strrchr(module, '/');
    return slash != NULL ? slash + 1 : module;
}

/* Which allocator serves the process and whether its calls reach LoopHunter: the one we forward
 * to (next in line), or one that takes them first (preloaded ahead of LoopHunter, or the program's
 * own exported malloc). `seen`: allocations were counted. */
static void allocator_json(lh_json *j, bool seen) {
    const lh_symbol_hit *in_use = first_malloc.address != NULL && first_malloc.before_self ? &first_malloc : &next_malloc;
    bool ahead = in_use == &first_malloc;
    const char *name = allocator_name(in_use->module);
    lh_json_begin_object(j, "allocator");
    lh_json_string(j, "name", name);
    lh_json_string(j, "module", in_use->module != NULL && in_use->module[0] != '\0' ? in_use->module : lh_proc.exe);
    lh_json_bool(j, "ahead_of_loophunter", ahead);
    const char *note = NULL;
    if (ahead && (in_use->module == NULL || in_use->module[0] == '\0')) {
        note = "the program defines malloc itself (a statically linked allocator): its allocations do not reach LoopHunter "
               "and are not counted";
    } else if (ahead) {
        note = "loaded ahead of libloophunter.so, so its malloc takes every call and allocations are not counted; put "
               "libloophunter.so first in LD_PRELOAD (loophunter run does)";
    } else if (!next_is_glibc) {
        note = "allocations are forwarded to it and counted; its C++ operator new/delete (if it has its own) do not pass "
               "through malloc and are not counted";
    } else if (!seen) {
        note = "no allocation reached LoopHunter";
    }
    lh_json_string(j, "note", note);
    lh_json_end_object(j);
}

void lh_alloc_summary(lh_json *j) {
    if (pool == NULL) {
        lh_json_null(j, "alloc");
        return;
    }
    uint64_t calls = 0, bytes = 0, frees = 0, freed = 0, threads = 0;
    size_t high = atomic_load_explicit(&pool_high, memory_order_acquire);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    const lh_alloc_counts *totals[] = {&shared, &exited};
    for (size_t i = 0; i < high + LH_ARRAY_COUNT(totals); i++) {
        const lh_alloc_counts *c = i < high ? &pool[i] : totals[i - high];
        if (i < high && atomic_load_explicit(&c->state, memory_order_acquire) != LH_ALLOC_LIVE) continue;
        if (i < high) threads++;
        calls += counts_calls(c);
        bytes += atomic_load_explicit(&c->bytes, memory_order_relaxed);
        frees += atomic_load_explicit(&c->frees, memory_order_relaxed);
        freed += atomic_load_explicit(&c->freed_bytes, memory_order_relaxed);
    }
    int on = atomic_load_explicit(&lh_alloc_on, memory_order_relaxed);
    lh_json_begin_object(j, "alloc");
    allocator_json(j, calls + frees > 0);
    /* Whether the process's allocations reach our wrappers at all: an allocator preloaded before
     * us (libc_malloc_debug, jemalloc) or linked into the executable takes them all. Decided by
     * what was seen: symbol lookups cannot tell (versioned definitions bind differently). */
    lh_json_bool(j, "malloc_is_ours", calls + frees > 0);
    lh_json_string(j, "usable_size", on == LH_ALLOC_FAST ? "chunk header (checked against glibc)"
                                     : on == LH_ALLOC_FOREIGN
                                         ? (lh_real_malloc_usable_size != NULL ? "the allocator's malloc_usable_size"
                                                                               : "none (the allocator has no malloc_usable_size: bytes are 0)")
                                     : atomic_load_explicit(&usable_libc_only, memory_order_relaxed)
                                         ? "glibc malloc_usable_size (the chunk header disagreed)"
                                         : "glibc malloc_usable_size");
    lh_json_u64(j, "startup_pool_blocks", atomic_load_explicit(&early_blocks, memory_order_relaxed));
    lh_json_u64(j, "calls", calls);
    lh_json_u64(j, "bytes", bytes);
    lh_json_u64(j, "frees", frees);
    lh_json_u64(j, "freed_bytes", freed);
    lh_json_u64(j, "live_bytes", live_bytes_now());
    lh_json_u64(j, "threads_counting", threads);
    lh_json_u64(j, "threads_without_counters", atomic_load_explicit(&pool_exhausted, memory_order_relaxed));
    lh_report_allocator top[LH_ALLOC_TOP];
    size_t n = top_allocators(top);
    lh_json_begin_array(j, "top_allocators");
    for (size_t i = 0; i < n; i++) {
        lh_json_begin_object(j, NULL);
        lh_json_hex(j, "address", top[i].address);
        lh_json_string(j, "type", top[i].type);
        lh_json_string(j, "hook", top[i].hook);
        lh_json_u64(j, "bytes", top[i].bytes);
        lh_json_u64(j, "calls", top[i].calls);
        lh_json_u64(j, "layouts", top[i].layouts);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_end_object(j);
}
