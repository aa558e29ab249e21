/*
 * lh_alloc.c — the malloc family: per-thread, per-iteration allocation accounting, charged to the
 * object whose layout is running; the alloc-storm detector; each report's memory side; and the
 * live heap at each epoch's start, published for the heap-growth detector (lh_growth.c).
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
 *    free(NULL), which does nothing in every allocator, is not forwarded.
 *  - Hot path (glibc): initial-exec TLS only (reads of the guard, the thread's counters and the
 *    allocation owner; a subtraction from the room before the storm gate), one load of the
 *    forward's address, the forward, a read of the block's size word, and adds to counters only
 *    this thread writes. No shared atomic read-modify-write, no system call, no lock, errno
 *    untouched. With another allocator, sizes come from its own malloc_usable_size (a call per
 *    block, on the slow path).
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

#include "lh_alloc.h"
#include "lh_breach.h"

#include "lh_symbols.h"

#define LH_ALLOC_POOL 1024          /* threads with counters of their own at one time */
#define LH_USABLE_CHECKS 64

/* The hot path's one global check: LoopHunter is ready and the family is on, and how sizes are
 * read (set at the end of start-up with release; read with acquire, a plain load on x86-64). */
static _Atomic int lh_alloc_on;

/* The thread's allocation state (initial-exec TLS), owner-only. The hot path's two fields are in
 * lh_tls (lh_runtime.h), beside the guard: alloc_fast, `own` once the hooks may count into it with
 * sizes read from the chunk header (the family is on, the header reads were checked), else NULL;
 * and alloc_room, the bytes it may allocate before the storm limits are looked at. */
typedef struct alloc_tls {
    lh_alloc_counts *own;         /* this thread's own counters; NULL: none */
    uint8_t mode;                 /* 0: none claimed yet; 1: own counters; 2: the shared counters */
    bool armed;                   /* the alloc-storm limits apply (a thread with iterations) */
    bool out;                     /* the thread left its loop in this epoch and is not back yet */
    bool out_armed;               /* `armed` when it left */
    uint64_t out_calls, out_bytes; /* its counts when it left */
    uint32_t storm_run;           /* epochs over a limit in a row (at most one quiet between) */
    uint64_t storm_last;          /* the epoch number of the last one */
    uint64_t limit_calls, limit_bytes;            /* counts that make a storm */
    uint64_t base_calls, base_bytes, base_freed;  /* at the epoch's start */
} alloc_tls;
static __thread alloc_tls at __attribute__((tls_model("initial-exec")));

/* Each thread record's counts when its thread ended (for the summary). */
static struct {
    _Atomic uint64_t calls, bytes, frees, freed_bytes;
    _Atomic int valid;
} at_exit[LH_THREAD_RECORDS];

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

/* The fast paths' form: the size word, which they test for the mmapped flag (a chunk glibc mapped
 * on its own, 128 KiB or more: they leave it to the slow path), and the usable size of a chunk
 * without it. Five instructions where header_usable takes seven. */
static inline size_t header_word(const void *block) { return ((const size_t *)block)[-1]; }
static inline bool word_mapped(size_t word) { return (word & 2) != 0; }
static inline size_t word_usable(size_t word) { return (word & ~(size_t)7) - sizeof(size_t); }

/* The usable size off the fast path: the allocator's own answer; with glibc, compared with the
 * header's (the first LH_USABLE_CHECKS agreements switch the hooks to header reads). */
static LH_NOINLINE size_t usable_slow(int on, void *block) {
    size_t (*size_of)(void *) = __atomic_load_n(&lh_real_malloc_usable_size, __ATOMIC_RELAXED);
    if (size_of == NULL) return 0; /* an allocator without the function: byte counts stay 0 */
    size_t own = size_of(block);
    if (on == LH_ALLOC_FOREIGN) return own;
    if (!lh_load_relaxed(&usable_libc_only)) {
        if (header_usable(block) != own) {
            lh_store_relaxed(&usable_libc_only, true);
        } else if (lh_add_relaxed(&usable_matches, 1) + 1 >= LH_USABLE_CHECKS) {
            int expected = LH_ALLOC_CHECKING;
            /* relaxed: only the value changes; everything else was published at start-up. */
            lh_cas_relaxed(&lh_alloc_on, &expected, LH_ALLOC_FAST);
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

/* A name's fallback when no module defines it (impossible with glibc; kept for odd hosts): glibc's
 * own allocator, __libc_<name>. Looked up by name when needed, not linked: each name the library
 * imports is a symbol lookup the loader makes in every process at start-up (~600 instructions). */
static void *libc_own(const char *name) {
    lh_symbol_hit hit;
    return lh_symbol_first(name, (const void *)libc_own, &hit) ? hit.address : NULL;
}

static int fallback_posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || alignment == 0 ||
        ((alignment / sizeof(void *)) & (alignment / sizeof(void *) - 1)) != 0)
        return EINVAL;
    void *(*memalign_fn)(size_t, size_t) = (void *(*)(size_t, size_t))libc_own("__libc_memalign");
    void *block = memalign_fn != NULL ? memalign_fn(alignment, size) : NULL;
    if (block == NULL) return ENOMEM;
    *out = block;
    return 0;
}
static void *fallback_reallocarray(void *block, size_t count, size_t size) {
    size_t bytes;
    void *(*realloc_fn)(void *, size_t) = (void *(*)(void *, size_t))libc_own("__libc_realloc");
    if (__builtin_mul_overflow(count, size, &bytes) || realloc_fn == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc_fn(block, bytes);
}

static void *fallback_of(unsigned hook) {
    switch (hook) {
    case LH_HOOK_malloc: return libc_own("__libc_malloc");
    case LH_HOOK_calloc: return libc_own("__libc_calloc");
    case LH_HOOK_realloc: return libc_own("__libc_realloc");
    case LH_HOOK_reallocarray: return (void *)fallback_reallocarray;
    case LH_HOOK_free: return libc_own("__libc_free");
    case LH_HOOK_posix_memalign: return (void *)fallback_posix_memalign;
    case LH_HOOK_aligned_alloc: case LH_HOOK_memalign: return libc_own("__libc_memalign");
    case LH_HOOK_valloc: return libc_own("__libc_valloc");
    case LH_HOOK_pvalloc: return libc_own("__libc_pvalloc");
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

/* The forwards of the four wrappers every program calls most: the allocator's functions once the
 * set is resolved, until then functions of ours that resolve it (defined with the wrappers), so
 * that those wrappers need no test of their own. lh_real_<name> (NULL until resolved) stays what
 * the rest of the library reads. relaxed: the pointer's value is all a wrapper needs; what counting
 * depends on is published through lh_alloc_on. */
static void *unresolved_malloc(size_t size);
static void unresolved_free(void *block);
static void *realloc_early(void *block, size_t size);
static void *unresolved_calloc(size_t count, size_t size);
static struct {
    void *(*malloc)(size_t);
    void (*free)(void *);
    void *(*realloc)(void *, size_t);
    void *(*calloc)(size_t, size_t);
} forward = {unresolved_malloc, unresolved_free, realloc_early, unresolved_calloc};
#define FORWARD(name) __atomic_load_n(&forward.name, __ATOMIC_RELAXED)

/* One row of the family: its original (or the fallback), and for malloc what the summary says. */
static void resolve_one(unsigned id, const lh_symbol_hit *find, const lh_symbol_hit *first, void *ctx) {
    (void)ctx;
    void *fn = find->address != NULL ? find->address : fallback_of(id);
    if (id == LH_HOOK_malloc) {
        next_malloc = *find;
        first_malloc = *first;
    }
    /* relaxed: each racing resolver stores the same value; `resolved` publishes the set. */
    __atomic_store_n(lh_hooks[id].real, fn, __ATOMIC_RELAXED);
    if (fn == NULL) return; /* neither the allocator nor glibc defines it (never with glibc) */
    switch (id) {
    case LH_HOOK_malloc: __atomic_store_n(&forward.malloc, (void *(*)(size_t))fn, __ATOMIC_RELAXED); break;
    case LH_HOOK_free: __atomic_store_n(&forward.free, (void (*)(void *))fn, __ATOMIC_RELAXED); break;
    case LH_HOOK_realloc: __atomic_store_n(&forward.realloc, (void *(*)(void *, size_t))fn, __ATOMIC_RELAXED); break;
    case LH_HOOK_calloc: __atomic_store_n(&forward.calloc, (void *(*)(size_t, size_t))fn, __ATOMIC_RELAXED); break;
    default: break;
    }
}

void lh_alloc_resolve(void) {
    /* acquire: pairs with the release below; the pointers are all set. */
    if (lh_load_acquire(&resolved)) return;
    int saved = errno;
    resolving = true;
    lh_hooks_find_family(LH_FAMILY_ALLOC, (const void *)lh_alloc_resolve, resolve_one, NULL);
    /* By module, not by comparing with __libc_malloc: an allocator may define that name too
     * (mimalloc does), and then our own reference to it binds there. */
    next_is_glibc = next_malloc.module != NULL && is_libc(next_malloc.module);
    resolving = false;
    /* release: the pointers above before any thread skips resolving. */
    lh_store_release(&resolved, 1);
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

/* free() finds a pool block through the watched-block filter (lh_runtime.h): each block the pool
 * hands out is watched for good (lh_watch_block in early_alloc), so free() pays no test of its own
 * for the pool, which no host has been seen to use. A bench build without the filter
 * (LH_BENCH_NO_FREE_WATCH) tests the pool directly: one load while it is unused. relaxed: a thread
 * holding a pool block got it after the CAS that claimed it (or the host passed the pointer without
 * synchronising, a race of its own), so it sees early_used > 0. */
static inline bool maybe_from_pool(const void *block) {
    return LH_UNLIKELY(lh_load_relaxed(&early_used) != 0) && from_pool(block);
}

/* A zeroed block of `size` bytes aligned to `align` (a power of two, at most 64) from the pool;
 * its size is kept in the 16 bytes before it. NULL (ENOMEM) when the pool is used up. */
static LH_NOINLINE __attribute__((cold)) void *early_alloc(size_t size, size_t align) {
    if (align < 16) align = 16;
    if (align > 64 || size > sizeof early_pool) {
        errno = ENOMEM;
        return NULL;
    }
    size_t used = lh_load_relaxed(&early_used), start, end;
    do {
        start = (used + 16 + align - 1) & ~(align - 1);
        end = start + ((size + 15) & ~(size_t)15);
        if (end > sizeof early_pool) {
            errno = ENOMEM;
            return NULL;
        }
    } while (!atomic_compare_exchange_weak_explicit(&early_used, &used, end, memory_order_relaxed,
                                                    memory_order_relaxed));
    lh_add_relaxed(&early_blocks, 1); /* stat */
    ((size_t *)(early_pool + start))[-1] = size;
    lh_watch_block(early_pool + start); /* free() then looks closer (free_watched) */
    return early_pool + start;
}

static size_t early_size(const void *block) { return ((const size_t *)block)[-1]; }

/* ---- the thread's counters ------------------------------------------------------------------ */

static void shared_add(_Atomic uint64_t *c, uint64_t v) {
    lh_add_relaxed(c, v); /* a statistic: relaxed */
}

static void zero_counts(lh_alloc_counts *c) {
    /* relaxed: the claimer publishes the block with the release store of its state. */
    lh_store_relaxed(&c->calls, 0);
    lh_store_relaxed(&c->bytes, 0);
    lh_store_relaxed(&c->frees, 0);
    lh_store_relaxed(&c->freed_bytes, 0);
}

static uint64_t counts_calls(const lh_alloc_counts *c) { return lh_load_relaxed(&c->calls); }

/* The thread's counts into its record's at_exit entry (the summary reads them after it ends). */
static void record_exit(size_t index) {
    const lh_alloc_counts *c = at.own;
    if (c == NULL) return;
    __typeof__(&at_exit[0]) r = &at_exit[index];
    /* relaxed: owner-only fields, read by the summary writer after the record's release. */
    lh_store_relaxed(&r->calls, counts_calls(c));
    lh_store_relaxed(&r->bytes, lh_load_relaxed(&c->bytes));
    lh_store_relaxed(&r->frees, lh_load_relaxed(&c->frees));
    lh_store_relaxed(&r->freed_bytes, lh_load_relaxed(&c->freed_bytes));
    lh_store_relaxed(&r->valid, 1);
}

/* A thread ends (pthread key destructor): its counts go into the exited totals (and its record,
 * for the summary), its counters back to the pool; what it frees from now on is counted shared. */
static void counts_exit(void *arg) {
    lh_alloc_counts *c = arg;
    lh_tls *t = &lh_tls_data;
    shared_add(&exited.calls, lh_load_relaxed(&c->calls));
    shared_add(&exited.bytes, lh_load_relaxed(&c->bytes));
    shared_add(&exited.frees, lh_load_relaxed(&c->frees));
    shared_add(&exited.freed_bytes, lh_load_relaxed(&c->freed_bytes));
    if (t->rec != NULL) record_exit(lh_record_index(t->rec));
    if (at.own == c) {
        at.own = t->alloc_fast = NULL;
        at.mode = 2;
        at.armed = false;
    }
    /* release: our reads of the block happen before a new owner zeroes it. */
    lh_store_release(&c->state, LH_ALLOC_FREE);
}

static lh_alloc_counts *take_from_pool(void) {
    size_t high = lh_load_acquire(&pool_high);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; i < high; i++) {
        uint32_t expected = LH_ALLOC_FREE;
        /* acquire: the previous owner's release (counts_exit) before we reuse the block. */
        if (lh_cas_acquire(&pool[i].state, &expected, LH_ALLOC_LIVE))
            return &pool[i];
    }
    /* relaxed: a unique index is all the counter gives; the block is published by its state. */
    size_t i = lh_add_relaxed(&pool_high, 1);
    if (i >= LH_ALLOC_POOL) return NULL;
    lh_store_relaxed(&pool[i].state, LH_ALLOC_LIVE);
    return &pool[i];
}

static void set_gate(uint64_t calls, uint64_t bytes);

/* The thread's first counted allocation or free: counters of its own, or the shared ones. */
static LH_NOINLINE __attribute__((cold)) void claim_counts(lh_tls *t) {
    LH_GUARDED(t);
    lh_alloc_counts *c = pool != NULL ? take_from_pool() : NULL;
    if (c != NULL) {
        zero_counts(c);
        lh_store_relaxed(&c->tid, lh_gettid());
        /* release: zeroed counters before others read the block as live. */
        lh_store_release(&c->state, LH_ALLOC_LIVE);
        /* For key indexes below 32 glibc stores the value in the thread descriptor (no malloc);
         * otherwise its calloc comes back here under the guard and is forwarded. */
        if (exit_key_ok) pthread_setspecific(exit_key, c);
        at.own = c;
        at.mode = 1;
        set_gate(0, 0);
    } else {
        lh_add_relaxed(&pool_exhausted, 1); /* stat */
        at.own = NULL;
        at.mode = 2;
        at.armed = false;
    }
}

/* ---- detectors ------------------------------------------------------------------------------ */

static uint64_t live_bytes_now(void) {
    int64_t live = 0;
    size_t high = lh_load_acquire(&pool_high);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        const lh_alloc_counts *c = &pool[i];
        if (lh_load_acquire(&c->state) != LH_ALLOC_LIVE) continue;
        live += (int64_t)(lh_load_relaxed(&c->bytes) -
                          lh_load_relaxed(&c->freed_bytes));
    }
    const lh_alloc_counts *totals[] = {&shared, &exited};
    for (size_t i = 0; i < LH_ARRAY_COUNT(totals); i++)
        live += (int64_t)(lh_load_relaxed(&totals[i]->bytes) -
                          lh_load_relaxed(&totals[i]->freed_bytes));
    /* Frees of blocks allocated before LoopHunter started can make the sum negative. */
    return live > 0 ? (uint64_t)live : 0;
}

static const void *slot_object(const lh_slot *s) {
    uint64_t key = lh_load_relaxed(&s->key);
    return (const void *)(uintptr_t)(key & ((UINT64_C(1) << 56) - 1));
}

/* A limit was crossed in this epoch. It is a storm when the thread keeps crossing it: in
 * LOOPHUNTER_ALLOC_REPEAT epochs, each at most two after the last (an allocation storm inside a
 * loop repeats; a one-off burst, such as a renderer compiling its shaders at start-up, does not). */
static LH_NOINLINE __attribute__((cold)) void alloc_storm(lh_tls *t, unsigned hook) {
    at.armed = false; /* once per epoch */
    uint64_t n = t->epoch_number;
    at.storm_run = at.storm_run > 0 && n - at.storm_last <= 2 ? at.storm_run + 1 : 1;
    at.storm_last = n;
    if (at.storm_run < lh_proc.cfg.alloc_repeat) return;
    LH_GUARDED(t);
    lh_alloc_counts *c = at.own;
    uint64_t calls = counts_calls(c) - at.base_calls;
    uint64_t bytes = lh_load_relaxed(&c->bytes) - at.base_bytes;
    bool by_bytes = bytes > lh_proc.cfg.alloc_bytes;
    const lh_slot *owner = t->layout_owner;
    lh_breach b = {
        .kind = LH_KIND_ALLOC_STORM,
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
}

/* ---- counting ------------------------------------------------------------------------------- */

/* The storm gate. The fast path makes one test for both alloc-storm limits: each block's bytes are
 * taken from alloc_room (lh_tls), the bytes the thread may still allocate before the gate, the
 * smallest byte count at which either limit can have been crossed: the bytes limit itself, or the
 * calls limit reached by blocks of the least usable size (every block adds at least LH_MIN_USABLE
 * bytes). A block that does not fit passes the gate, which is not a storm yet: gate_passed checks
 * both limits exactly and sets the room again. UINT64_MAX: not armed. With blocks of a few hundred
 * bytes the gate is passed some ten times per limit's worth of calls, O(log) per epoch. */
#define LH_MIN_USABLE 16 /* glibc: MALLOC_ALIGNMENT; the least usable size is 24 on x86-64 */

static void set_gate(uint64_t calls, uint64_t bytes) {
    uint64_t room = UINT64_MAX;
    if (at.armed) {
        /* The calls limit is crossed no sooner than (limit - calls) blocks, so bytes + that many
         * times LH_MIN_USABLE from now (saturating). */
        uint64_t by_calls = bytes, least;
        if (calls < at.limit_calls &&
            (__builtin_mul_overflow(at.limit_calls - calls, (uint64_t)LH_MIN_USABLE, &least) ||
             __builtin_add_overflow(bytes, least, &by_calls)))
            by_calls = UINT64_MAX;
        uint64_t gate = by_calls < at.limit_bytes ? by_calls : at.limit_bytes;
        /* From the thread's byte count as it is now (an epoch's base may be older). */
        uint64_t now = at.own != NULL ? lh_load_relaxed(&at.own->bytes) : bytes;
        room = gate > now ? gate - now : 0;
    }
    lh_tls_data.alloc_room = room;
}

/* Returns `block` (the fast path's tail call keeps nothing across it). */
static LH_NOINLINE __attribute__((cold)) void *gate_passed(lh_tls *t, unsigned hook, void *block) {
    const lh_alloc_counts *c = at.own;
    uint64_t calls = counts_calls(c), bytes = lh_load_relaxed(&c->bytes);
    if (at.armed && (bytes > at.limit_bytes || calls > at.limit_calls))
        alloc_storm(t, hook); /* disarms: one report per epoch */
    set_gate(calls, bytes);
    return block;
}

/* Whether any layout was charged a block yet: until then a report's top allocators are known to be
 * none, without a scan of the table. Set once, never cleared (relaxed: a flag). */
static _Atomic int layouts_charged;

/* A block allocated while a layout runs: charged to its object too. */
static inline void charge_owner(lh_slot *owner, size_t n) {
    lh_slot_alloc *a = lh_table_alloc_of(&lh_proc.table, owner);
    lh_store_relaxed(&layouts_charged, 1); /* a store, no test: the malloc path keeps its registers */
    lh_owner_add(&a->bytes, n);
    lh_owner_add(&a->calls, 1);
}

/* Takes `n` bytes from the thread's room before the gate (thread-local: owner-only); true when they
 * did not fit (the subtraction borrowed): the gate is passed. On x86-64 one subtraction from memory
 * and a branch on its borrow (compilers load, subtract, store and compare: four instructions);
 * ThreadSanitizer builds use the C form. */
static inline __attribute__((always_inline)) bool room_taken(uint64_t *room, uint64_t n) {
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
    bool borrowed;
    __asm__("subq %2, %0" : "+m"(*room), "=@ccb"(borrowed) : "er"(n));
    return LH_UNLIKELY(borrowed);
#else
    uint64_t left;
    bool passed = __builtin_sub_overflow(*room, n, &left);
    *room = left;
    return LH_UNLIKELY(passed);
#endif
}

/* One block of `n` usable bytes, on a thread with counters of its own. Returns whether the storm
 * gate was passed (the caller then calls gate_passed). */
static inline bool count_alloc_own(lh_tls *t, lh_alloc_counts *c, size_t n) {
    lh_owner_add(&c->bytes, n); /* only this thread writes its counters */
    lh_owner_add(&c->calls, 1);
    lh_slot *owner = t->layout_owner;
    if (LH_UNLIKELY(owner != NULL)) charge_owner(owner, n);
    return room_taken(&t->alloc_room, n);
}

/* The thread's counters become the fast path's once the header sizes are trusted. */
static void update_fast(int on) {
    lh_tls_data.alloc_fast = on == LH_ALLOC_FAST ? at.own : NULL;
}

/* Any case but the fast one: sizes from glibc while checking, the thread's first count (claiming
 * counters), or a thread counting into the shared counters. */
static LH_NOINLINE void count_alloc_slow(lh_tls *t, int on, unsigned hook, void *block) {
    size_t n = usable(on, block);
    if (at.mode == 0) claim_counts(t);
    update_fast(lh_load_relaxed(&lh_alloc_on)); /* usable() may have moved it on */
    if (at.own != NULL) {
        if (count_alloc_own(t, at.own, n)) gate_passed(t, hook, block);
        return;
    }
    shared_add(&shared.calls, 1);
    shared_add(&shared.bytes, n);
    if (t->layout_owner != NULL) charge_owner(t->layout_owner, n);
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
    if (at.mode == 0) claim_counts(t);
    update_fast(lh_load_relaxed(&lh_alloc_on));
    if (at.own != NULL) {
        lh_owner_add(&at.own->frees, 1);
        lh_owner_add(&at.own->freed_bytes, n);
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
    /* acquire: pairs with the release in started() (a plain load on x86-64). */
    int on = lh_load_acquire(&lh_alloc_on);
    return LH_LIKELY(t->guard == 0) ? on : LH_ALLOC_OFF;
}

/* The fast path applies: counters of our own with trusted header sizes, and not our own work.
 * (alloc_fast is only ever set after the release in started() was seen by this thread.) */
static inline lh_alloc_counts *fast_counts(const lh_tls *t) {
    lh_alloc_counts *c = t->alloc_fast;
    return LH_LIKELY(t->guard == 0) ? c : NULL;
}

/* ---- the wrappers (rows LH_ALLOC_HOOK of lh_hooks.def) ------------------------------------------ */

/* The fast path of each wrapper: the forward (no test: an unresolved forward is a stub), then the
 * thread's fast-path test, a read of the block's size word, two counter adds, one owner test and
 * one subtraction from the room before the storm gate. Everything
 * else returns uncounted after one more test when not counting (LoopHunter not ready, the family
 * off, our own work), or goes on to counted_other(), which counts (the first counted call of a
 * thread, sizes still being checked, an mmapped chunk, a NULL result). Deciding after the forward
 * costs nothing: nothing the test reads changes meanwhile (the allocator calls no hook), and the
 * wrappers then keep no register across the forward. */

static LH_NOINLINE void *counted_other(lh_tls *t, void *block, unsigned hook) {
    int on = counting(t);
    if (block != NULL && on != LH_ALLOC_OFF) count_alloc(t, on, hook, block);
    return block;
}

/* Counts a block (not NULL) into the thread's own counters `c` on the fast path, and returns it. */
static inline __attribute__((always_inline)) void *counted_own(lh_tls *t, lh_alloc_counts *c, void *block, unsigned hook) {
    size_t word = header_word(block);
    if (LH_UNLIKELY(word_mapped(word))) return counted_other(t, block, hook);
    if (count_alloc_own(t, c, word_usable(word))) return gate_passed(t, hook, block);
    return block;
}

/* Counts a block the allocator returned, and returns it (inlined into each wrapper, after its call). */
static inline __attribute__((always_inline)) void *counted(void *block, unsigned hook) {
    lh_tls *t = &lh_tls_data;
    lh_alloc_counts *c = fast_counts(t);
    if (LH_UNLIKELY(c == NULL || block == NULL)) {
        if (counting(t) == LH_ALLOC_OFF) return block; /* not counting: no call */
        return counted_other(t, block, hook);
    }
    return counted_own(t, c, block, hook);
}

/* The body of malloc, calloc, memalign, valloc, pvalloc and aligned_alloc. */
#define LH_FORWARD_AND_COUNT(hook, call) return counted(call, hook)

/* The next allocator's function `name` (NULL until the set is resolved). relaxed: the pointer's
 * value is all a wrapper needs; what counting depends on is published through lh_alloc_on. */
#define NEXT(name) __atomic_load_n(&lh_real_##name, __ATOMIC_RELAXED)

/* Each wrapper called before the set is resolved resolves it, then runs again for real; unless
 * this thread is the one resolving: then the start-up pool serves it (early_alloc). malloc, free,
 * realloc and calloc do so through their forward's stub (unresolved_<name>, realloc_early), which
 * returns what the allocator (or the pool) returned to the wrapper, which counts it when counting
 * is on. */
static LH_NOINLINE __attribute__((cold)) void *unresolved_malloc(size_t size) {
    if (resolving) return early_alloc(size, 16);
    lh_alloc_resolve();
    return NEXT(malloc)(size);
}

LH_EXPORT void *malloc(size_t size) {
    LH_FORWARD_AND_COUNT(LH_HOOK_malloc, FORWARD(malloc)(size));
}

static LH_NOINLINE void free_slow(void *block) {
    lh_tls *t = &lh_tls_data;
    int on = counting(t);
    count_free(t, usable(on, block));
    NEXT(free)(block);
}

/* free() of a block (not NULL) proper: counted, then the allocator's. */
static inline __attribute__((always_inline)) void free_body(void (*real)(void *), void *block) {
    lh_tls *t = &lh_tls_data;
    lh_alloc_counts *c = fast_counts(t);
    size_t word;
    if (LH_LIKELY(c != NULL) && LH_LIKELY(!word_mapped(word = header_word(block)))) {
        lh_owner_add(&c->frees, 1);
        lh_owner_add(&c->freed_bytes, word_usable(word));
        real(block);
    } else if (counting(t) == LH_ALLOC_OFF) {
        real(block);
    } else {
        free_slow(block);
    }
}

#ifndef LH_BENCH_NO_FREE_WATCH
/* A block the watched-block filter points at: one the start-up pool handed out (never reused:
 * nothing more to do), or one a detector may watch (the timer detector: a live timer's data): tell
 * them, then free it. */
static LH_NOINLINE void free_watched(void (*real)(void *), void *block) {
    if (from_pool(block)) return;
    LH_EACH_DETECTOR(block_freed, block);
    free_body(real, block);
}
#endif

/* Before the set is resolved nothing is counted (counting starts after it), so free_body calls
 * this with the block. */
static LH_NOINLINE __attribute__((cold)) void unresolved_free(void *block) {
    if (from_pool(block)) return; /* pool blocks are never reused */
    lh_alloc_resolve();
    NEXT(free)(block);
}

LH_EXPORT void free(void *block) {
    /* free(NULL), about a third of a GTK program's frees, does nothing in every allocator: it is
     * not forwarded, and there is nothing to count or watch. */
    if (block == NULL) return;
    void (*real)(void *) = FORWARD(free);
#ifndef LH_BENCH_NO_FREE_WATCH /* scripts/bench/health.sh measures the preload without it */
    /* A block nobody watches and not from the pool is the common case: one load while nothing is
     * watched, one hash and one load more when something is (lh_runtime.h); the other path is a
     * tail call, so this one needs no stack frame. */
    if (LH_UNLIKELY(lh_block_maybe_watched(block))) {
        free_watched(real, block);
        return;
    }
#else
    if (LH_UNLIKELY(maybe_from_pool(block))) return;
#endif
    free_body(real, block);
}

static LH_NOINLINE __attribute__((cold)) void *unresolved_calloc(size_t count, size_t size) {
    if (!resolving) {
        lh_alloc_resolve();
        return NEXT(calloc)(count, size);
    }
    size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return early_alloc(bytes, 16); /* static memory: already zeroed */
}

LH_EXPORT void *calloc(size_t count, size_t size) {
    /* the allocator checks the overflow */
    LH_FORWARD_AND_COUNT(LH_HOOK_calloc, FORWARD(calloc)(count, size));
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

/* A pool block grows (or shrinks) into a block of the allocator; the pool keeps its bytes. Also
 * realloc's stub while the set is not resolved. */
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

/* A failed realloc on the fast path (NULL, size not 0: the block is untouched): its free, counted
 * before the call, is given back. */
static LH_NOINLINE __attribute__((cold)) void *realloc_failed(void *block) {
    if (block != NULL) {
        lh_alloc_counts *c = lh_tls_data.alloc_fast; /* as before the call: nothing changes it */
        lh_owner_add(&c->frees, (uint64_t)-1); /* unsigned: adds minus one */
        lh_owner_add(&c->freed_bytes, (uint64_t)0 - word_usable(header_word(block)));
    }
    return NULL;
}

/* Off the fast path: counted when counting (realloc_counted), else the forward alone. */
static LH_NOINLINE void *realloc_other(void *(*real)(void *, size_t), void *block, size_t size) {
    lh_tls *t = &lh_tls_data;
    int on = counting(t);
    if (on == LH_ALLOC_OFF) return real(block, size);
    return realloc_counted(t, on, LH_HOOK_realloc, block, size);
}

/* The fast path inline (counters of our own, sizes from glibc's header, not realloc(p, 0)): the old
 * block is counted freed before the call, so that nothing but the block is kept across it (for a
 * failure, which gives the count back); the new block is counted as malloc's are. */
LH_EXPORT void *realloc(void *block, size_t size) {
    void *(*real)(void *, size_t) = FORWARD(realloc);
    if (LH_UNLIKELY(from_pool(block))) return realloc_early(block, size);
    lh_alloc_counts *c = fast_counts(&lh_tls_data);
    if (LH_UNLIKELY(c == NULL || size == 0)) return realloc_other(real, block, size);
    if (block != NULL) {
        size_t word = header_word(block);
        if (LH_UNLIKELY(word_mapped(word))) return realloc_other(real, block, size);
        lh_owner_add(&c->frees, 1);
        lh_owner_add(&c->freed_bytes, word_usable(word));
    }
    void *moved = real(block, size);
    if (LH_UNLIKELY(moved == NULL)) return realloc_failed(block);
    /* The thread's state as before the call: the allocator calls no hook, so nothing changes it. */
    return counted_own(&lh_tls_data, lh_tls_data.alloc_fast, moved, LH_HOOK_realloc);
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
        if (lh_load_acquire(&resolved)) return 0; /* the allocator has none */
        lh_alloc_resolve();
        return malloc_usable_size(block);
    }
    return real(block);
}

/* ---- set-up, epochs, reports, summary ----------------------------------------------------------- */

static int init(void) {
    if (pool != NULL) return 0; /* a later attach session: mapped by the first */
    size_t bytes = LH_ALLOC_POOL * sizeof(lh_alloc_counts);
    void *mem = lh_map("allocation counters", bytes);
    if (mem == NULL) return -errno;
    pool = mem;
    exit_key_ok = pthread_key_create(&exit_key, counts_exit) == 0;
    return 0;
}

/* The end of start-up (every process, whatever the families): counting starts when LoopHunter is
 * ready with the family on and the pool mapped. Only then is the allocator in use needed now (to
 * know how sizes are read); otherwise the first call of a wrapper finds it (a process that never
 * allocates, or runs with LoopHunter off, never pays the lookup). */
static void started(bool ready) {
    bool counting = ready && pool != NULL && lh_family_on(LH_FAMILY_ALLOC);
    if (counting) lh_alloc_resolve();
    /* glibc: sizes from its header once checked; another allocator: its malloc_usable_size.
     * release: pairs with the hooks' acquire load of lh_alloc_on, so a hook that sees it on sees
     * the initialised lh_proc (configuration, table), the pool and the resolved set. */
    int on = !counting ? LH_ALLOC_OFF : next_is_glibc ? LH_ALLOC_CHECKING : LH_ALLOC_FOREIGN;
    lh_store_release(&lh_alloc_on, on);
}

static void after_fork(void) {
    if (lh_proc.new_session) {
        /* A later `loophunter attach` session: the threads live on, each still holding its
         * counters, its thread-local pointer to them and its per-iteration bases. Those stay as
         * they are, so a thread's figures in this session's summary include what it counted in
         * earlier sessions. (Freeing them, as in a fork child, made the threads count into blocks
         * others reused: the figures faded away over sessions, reliability row 33.) */
        zero_counts(&shared);
        zero_counts(&exited);
        lh_store_relaxed(&pool_exhausted, 0);
        memset(at_exit, 0, sizeof at_exit);
        return;
    }
    /* The child of fork() is single-threaded: the other threads' counters are gone with them. */
    size_t high = lh_load_relaxed(&pool_high);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        if (&pool[i] == at.own) continue;
        zero_counts(&pool[i]);
        lh_store_relaxed(&pool[i].state, LH_ALLOC_FREE);
    }
    if (at.own != NULL) {
        zero_counts(at.own);
        lh_store_relaxed(&at.own->tid, lh_gettid());
    }
    zero_counts(&shared);
    zero_counts(&exited);
    lh_store_relaxed(&pool_exhausted, 0);
    memset(at_exit, 0, sizeof at_exit);
    at.base_calls = at.base_bytes = at.base_freed = 0;
    at.limit_calls = lh_proc.cfg.alloc_calls;
    at.limit_bytes = lh_proc.cfg.alloc_bytes;
    set_gate(0, 0);
}

static void thread_start(lh_tls *t, size_t index) {
    (void)t;
    lh_store_relaxed(&at_exit[index].valid, 0);
}

static void thread_exit(lh_tls *t, size_t index) {
    (void)t;
    record_exit(index);
}

/* The thread's counters now (its own, or zero when it has none). */
static void thread_counts(uint64_t *calls, uint64_t *bytes, uint64_t *frees, uint64_t *freed_bytes) {
    const lh_alloc_counts *c = at.own;
    *calls = c != NULL ? counts_calls(c) : 0;
    *bytes = c != NULL ? lh_load_relaxed(&c->bytes) : 0;
    *frees = c != NULL ? lh_load_relaxed(&c->frees) : 0;
    *freed_bytes = c != NULL ? lh_load_relaxed(&c->freed_bytes) : 0;
}

/* The counters of live thread `tid` (calls, bytes, frees, freed bytes); false when it has none. */
static bool counts_of_thread(int tid, uint64_t out[4]) {
    size_t high = lh_load_acquire(&pool_high);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    for (size_t i = 0; pool != NULL && i < high; i++) {
        const lh_alloc_counts *c = &pool[i];
        /* acquire: the claimer's zeroed counters before the LIVE state. */
        if (lh_load_acquire(&c->state) != LH_ALLOC_LIVE || lh_load_relaxed(&c->tid) != tid) continue;
        out[0] = counts_calls(c);
        out[1] = lh_load_relaxed(&c->bytes);
        out[2] = lh_load_relaxed(&c->frees);
        out[3] = lh_load_relaxed(&c->freed_bytes);
        return true;
    }
    return false;
}

/* The running epoch's allocations so far. */
static void epoch_so_far(const lh_tls *t, lh_hist *h) {
    (void)t;
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF) return;
    uint64_t calls, bytes, frees, freed;
    thread_counts(&calls, &bytes, &frees, &freed);
    h->alloc_calls = calls - at.base_calls;
    h->alloc_bytes = bytes - at.base_bytes;
    h->freed_bytes = freed - at.base_freed;
}

/* An epoch of the thread ends: its allocations into its history entry, the per-epoch counts and
 * limits start again from here (nothing is counted until the next begins: the guard is held), and
 * on a thread with a record the live heap is published for the heap-growth detector. */
static void epoch_end(lh_tls *t, lh_hist *h) {
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF) return;
    uint64_t calls, bytes, frees, freed;
    thread_counts(&calls, &bytes, &frees, &freed);
    if (h != NULL) {
        h->alloc_calls = calls - at.base_calls;
        h->alloc_bytes = bytes - at.base_bytes;
        h->freed_bytes = freed - at.base_freed;
    }
    at.base_calls = calls;
    at.base_bytes = bytes;
    at.base_freed = freed;
    at.limit_bytes = bytes + lh_proc.cfg.alloc_bytes;
    at.limit_calls = calls + lh_proc.cfg.alloc_calls;
    if (t->rec != NULL) lh_store_relaxed(&lh_proc.heap_live_bytes, live_bytes_now());
}

/* A new epoch began: whether its allocations are judged. Not in a thread's first iteration, nor
 * in its first frame: start-up loads, parses and compiles (GTK 4's GL renderer allocates ~64 MiB
 * in its first frame under Mesa's llvmpipe). A thread that had left its loop is back in it. */
static void epoch_begin(lh_tls *t) {
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF) return;
    at.out = false;
    at.armed = t->rec != NULL && at.mode != 2 && t->past_first_epoch;
    set_gate(at.base_calls, at.base_bytes);
}

/* The thread left its event loop (the outermost g_main_context_iteration or g_main_loop_run made
 * from outside GLib returned: lh_loop.c): what it allocates until its loop's wait returns again
 * is no iteration's, and is not judged. A program that shows a window, then loads its data from
 * main() and calls processEvents() between the steps (FocusWriter decodes its background images
 * so: 124-138 MB allocated and freed between three pairs of iterations) is not looping. A program
 * whose main() calls g_main_context_iteration() in a loop of its own leaves and comes back at
 * every iteration: its epochs (frames, on GTK 4) are judged on what they allocate inside it. */
static void loop_left(lh_tls *t, uint64_t now) {
    (void)t, (void)now;
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF || at.out) return;
    uint64_t frees, freed;
    thread_counts(&at.out_calls, &at.out_bytes, &frees, &freed);
    at.out = true;
    at.out_armed = at.armed;
    at.armed = false;
    set_gate(0, 0); /* disarmed: the gate is closed */
}

/* The thread's loop woke up. Back from outside it with no new epoch begun (a frame spans several
 * iterations): the epoch's limits move on by what was allocated outside, and it is armed again as
 * it was when the thread left. */
static void loop_busy(lh_tls *t, unsigned hook, uint64_t now) {
    (void)t, (void)hook, (void)now;
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF || !at.out) return;
    uint64_t calls, bytes, frees, freed;
    thread_counts(&calls, &bytes, &frees, &freed);
    at.limit_calls += calls - at.out_calls;
    at.limit_bytes += bytes - at.out_bytes;
    at.out = false;
    at.armed = at.out_armed && at.mode != 2;
    set_gate(calls, bytes);
}

/* The LH_ALLOC_TOP slots whose layouts allocated the most bytes (whole run), most first. The scan
 * reads the per-slot allocation figures (16 bytes a slot, not the slots' 64), and only a slot that
 * has some; none when no layout was ever charged (a report's breach path stays short). */
static size_t top_allocators(lh_report_allocator *top) {
    lh_table *tb = &lh_proc.table;
    size_t n = 0;
    if (lh_load_relaxed(&layouts_charged) == 0 || tb->allocs == NULL) return 0;
    for (uint64_t i = 0; tb->slots != NULL && i < tb->capacity; i++) {
        const lh_slot_alloc *a = &tb->allocs[i];
        uint64_t bytes = lh_load_relaxed(&a->bytes);
        if (bytes == 0 || (n == LH_ALLOC_TOP && bytes <= top[n - 1].bytes)) continue;
        const lh_slot *s = &tb->slots[i];
        uint64_t key = lh_load_relaxed(&s->key);
        if (key == 0) continue;
        size_t k = n < LH_ALLOC_TOP ? n++ : n - 1;
        while (k > 0 && top[k - 1].bytes < bytes) {
            top[k] = top[k - 1];
            k--;
        }
        lh_report_allocator *e = &top[k];
        unsigned hook = (unsigned)(key >> 56) - 1;
        e->address = (uintptr_t)slot_object(s);
        e->hook = hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL;
        lh_toolkit_copy_text(e->type, lh_load_relaxed(&s->type));
        e->name[0] = '\0'; /* the object may be gone: nothing of it is read */
        e->bytes = bytes;
        e->calls = lh_load_relaxed(&a->calls);
        e->layouts = lh_load_relaxed(&s->total);
    }
    return n;
}

/* The memory side of every report written on this thread (not one about another thread). */
static void report(lh_tls *t, const lh_breach *b, lh_report_data *r, void *scratch) {
    if (lh_load_relaxed(&lh_alloc_on) == LH_ALLOC_OFF || b->thread != NULL) return;
    struct memory {
        lh_report_alloc alloc;
        lh_report_allocator top[LH_ALLOC_TOP];
    } *m = scratch;
    _Static_assert(sizeof(struct memory) <= LH_REPORT_SCRATCH, "the report's memory side fits its scratch");
    lh_report_alloc *out = &m->alloc;
    memset(out, 0, sizeof *out);
    lh_hist now = {0};
    epoch_so_far(t, &now);
    out->iteration_calls = now.alloc_calls;
    out->iteration_bytes = now.alloc_bytes;
    out->iteration_freed_bytes = now.freed_bytes;
    out->live_bytes = live_bytes_now();
    const lh_slot *slot = lh_breach_object_slot(b);
    if (slot != NULL) {
        const lh_slot_alloc *a = lh_table_alloc_of(&lh_proc.table, slot);
        out->has_object = true;
        out->object_bytes = lh_load_relaxed(&a->bytes);
        out->object_calls = lh_load_relaxed(&a->calls);
        out->object_layouts = lh_load_relaxed(&slot->total);
    }
    out->growth_iterations = b->growth_iterations;
    out->growth_start_live_bytes = b->growth_start_live;
    out->top = m->top;
    out->top_count = top_allocators(m->top);
    r->alloc = out;
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
 * own exported malloc). `seen`: allocations were counted. The first definition ahead of us is no
 * such allocator when it is the one we forward to: under `loophunter attach` every module comes
 * before LoopHunter, libc's malloc first, and the GOT entries lead its calls to us. */
static void allocator_json(lh_json *j, bool seen) {
    lh_alloc_resolve(); /* with the family off, start-up left it to the first call (started) */
    const lh_symbol_hit *in_use = first_malloc.address != NULL && first_malloc.before_self
                                          && first_malloc.address != next_malloc.address
                                      ? &first_malloc
                                      : &next_malloc;
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

/* The destroyed objects whose layouts allocated most (lh_table.h: at most LH_GONE_KEPT), most
 * first, chosen by selection (no copy of the list on the stack). */
static void destroyed_allocators_json(lh_json *j) {
    const lh_gone_list *list = &lh_proc.table.gone_allocators;
    uint64_t last_rank = UINT64_MAX;
    size_t last_index = LH_GONE_KEPT;
    for (size_t emitted = 0; emitted < LH_GONE_KEPT; emitted++) {
        lh_gone_copy best = {0}, g;
        size_t best_index = LH_GONE_KEPT;
        for (size_t i = 0; i < LH_GONE_KEPT; i++) {
            if (!lh_gone_read(list, i, &g)) continue;
            if (!(g.rank < last_rank || (g.rank == last_rank && i > last_index))) continue;
            if (best_index == LH_GONE_KEPT || g.rank > best.rank) {
                best = g;
                best_index = i;
            }
        }
        if (best_index == LH_GONE_KEPT) return;
        last_rank = best.rank;
        last_index = best_index;
        unsigned hook = (unsigned)(best.key >> 56) - 1;
        lh_json_begin_object(j, NULL);
        lh_json_hex(j, "address", best.key & ((UINT64_C(1) << 56) - 1));
        char type[64];
        lh_json_string(j, "type", lh_saved_text(best.type, type, sizeof type));
        lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
        lh_json_u64(j, "bytes", best.alloc_bytes);
        lh_json_u64(j, "calls", best.alloc_calls);
        lh_json_u64(j, "layouts", best.calls);
        lh_json_bool(j, "destroyed", true);
        lh_json_end_object(j);
    }
}

static void summary(lh_json *j) {
    if (pool == NULL) {
        lh_json_null(j, "alloc");
        return;
    }
    uint64_t calls = 0, bytes = 0, frees = 0, freed = 0, threads = 0;
    size_t high = lh_load_acquire(&pool_high);
    if (high > LH_ALLOC_POOL) high = LH_ALLOC_POOL;
    const lh_alloc_counts *totals[] = {&shared, &exited};
    for (size_t i = 0; i < high + LH_ARRAY_COUNT(totals); i++) {
        const lh_alloc_counts *c = i < high ? &pool[i] : totals[i - high];
        if (i < high && lh_load_acquire(&c->state) != LH_ALLOC_LIVE) continue;
        if (i < high) threads++;
        calls += counts_calls(c);
        bytes += lh_load_relaxed(&c->bytes);
        frees += lh_load_relaxed(&c->frees);
        freed += lh_load_relaxed(&c->freed_bytes);
    }
    int on = lh_load_relaxed(&lh_alloc_on);
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
                                     : lh_load_relaxed(&usable_libc_only)
                                         ? "glibc malloc_usable_size (the chunk header disagreed)"
                                         : "glibc malloc_usable_size");
    lh_json_u64(j, "startup_pool_blocks", lh_load_relaxed(&early_blocks));
    lh_json_u64(j, "calls", calls);
    lh_json_u64(j, "bytes", bytes);
    lh_json_u64(j, "frees", frees);
    lh_json_u64(j, "freed_bytes", freed);
    lh_json_u64(j, "live_bytes", live_bytes_now());
    lh_json_u64(j, "threads_counting", threads);
    lh_json_u64(j, "threads_without_counters", lh_load_relaxed(&pool_exhausted));
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
        lh_json_bool(j, "destroyed", false);
        lh_json_end_object(j);
    }
    destroyed_allocators_json(j);
    lh_json_end_array(j);
    lh_json_end_object(j);
}

/* Its fields in a summary thread entry: the thread's counts (live, or when it ended). */
static void thread_summary(lh_json *j, size_t index, bool live) {
    uint64_t counts[4];
    bool known;
    if (!live || lh_load_relaxed(&at_exit[index].valid) != 0) {
        known = lh_load_relaxed(&at_exit[index].valid) != 0;
        counts[0] = lh_load_relaxed(&at_exit[index].calls);
        counts[1] = lh_load_relaxed(&at_exit[index].bytes);
        counts[2] = lh_load_relaxed(&at_exit[index].frees);
        counts[3] = lh_load_relaxed(&at_exit[index].freed_bytes);
    } else {
        known = counts_of_thread(lh_load_relaxed(&lh_proc.records[index].tid), counts);
    }
    if (!known) {
        lh_json_null(j, "alloc");
        return;
    }
    lh_json_begin_object(j, "alloc");
    lh_json_u64(j, "calls", counts[0]);
    lh_json_u64(j, "bytes", counts[1]);
    lh_json_u64(j, "frees", counts[2]);
    lh_json_u64(j, "freed_bytes", counts[3]);
    lh_json_end_object(j);
}

const lh_detector lh_detector_alloc = {
    .name = "alloc",
    .init = init,
    .started = started,
    .after_fork = after_fork,
    .thread_start = thread_start,
    .thread_exit = thread_exit,
    .epoch_end = epoch_end,
    .epoch_begin = epoch_begin,
    .epoch_so_far = epoch_so_far,
    .loop_busy = loop_busy,
    .loop_left = loop_left,
    .summary = summary,
    .thread_summary = thread_summary,
    .report = report,
};
