/*
 * lh_alloc_probe.c — a host program for the allocation-accounting tests
 * (Tests/LoopHunterEndToEndTests/AllocTests.swift). It knows exactly what it allocates and prints it, so a
 * test can compare LoopHunter's counts with the truth. It marks its iterations through the
 * preload's public API (a weak reference: it runs without the preload too).
 *
 *   lh_alloc_probe exact K N      a thread "alloc-probe" runs K marked iterations; in each it
 *                                 mallocs N blocks of known, varied sizes and frees every other
 *                                 one; at the end it frees the rest. Prints the thread's own
 *                                 totals: calls, usable bytes, frees, freed usable bytes.
 *   lh_alloc_probe every-entry    one thread uses every entry point of the malloc family once per
 *                                 iteration for 10 iterations, freeing across them (a block from
 *                                 calloc given to realloc, memalign's to free, a realloc that
 *                                 fails, realloc(NULL, n), ...). Prints the
 *                                 same totals.
 *   lh_alloc_probe stress T M     T threads (up to 32) x M operations of malloc/realloc/calloc/
 *                                 free, a quarter of the blocks freed by another thread through a
 *                                 shared ring. Prints the operations' totals (allocations, frees).
 *                                 The main thread marks one iteration (so a summary is written).
 *   lh_alloc_probe semantics      edge cases whose results must not change under the preload:
 *                                 alignments, invalid alignments, calloc/reallocarray overflow,
 *                                 realloc(p, 0), free(NULL), errno across calls. Prints them.
 *
 * The totals count what the program asked for: an allocation is a call that returned a block
 * (realloc included), a free is a block given back (realloc's old block included), sizes are
 * malloc_usable_size().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

static void mark(void) {
    if (loophunter_iteration_mark) loophunter_iteration_mark();
}

typedef struct Totals {
    unsigned long calls, bytes, frees, freed;
} Totals;

static void note_alloc(Totals *t, void *p) {
    if (p == NULL) abort();
    t->calls++;
    t->bytes += malloc_usable_size(p);
}

/* malloc_usable_size must be read before the block is given back. */
static void give_back(Totals *t, void *p) {
    t->frees++;
    t->freed += malloc_usable_size(p);
    free(p);
}

static void print_totals(const char *what, const Totals *t) {
    printf("%s calls=%lu bytes=%lu frees=%lu freed_bytes=%lu\n", what, t->calls, t->bytes, t->frees, t->freed);
}

/* ---- exact ---------------------------------------------------------------------------------- */

typedef struct Exact {
    int iterations, per_iteration;
    Totals totals;
} Exact;

static void *exact_thread(void *arg) {
    Exact *e = arg;
    pthread_setname_np(pthread_self(), "alloc-probe");
    void **kept = calloc((size_t)e->per_iteration * (size_t)e->iterations, sizeof *kept);
    Totals untracked = {0};
    note_alloc(&untracked, kept); /* the program's own bookkeeping: counted apart */
    size_t nkept = 0;
    for (int i = 0; i < e->iterations; i++) {
        mark();
        for (int j = 0; j < e->per_iteration; j++) {
            size_t size = 1 + (size_t)((i * 7919 + j * 104729) % 6000);
            void *p = malloc(size);
            note_alloc(&e->totals, p);
            if (j % 2 == 0) {
                give_back(&e->totals, p);
            } else {
                kept[nkept++] = p;
            }
        }
    }
    mark();
    for (size_t k = 0; k < nkept; k++) give_back(&e->totals, kept[k]);
    give_back(&untracked, kept);
    e->totals.calls += untracked.calls; /* the thread's totals: everything it did */
    e->totals.bytes += untracked.bytes;
    e->totals.frees += untracked.frees;
    e->totals.freed += untracked.freed;
    return NULL;
}

static int run_exact(int iterations, int per_iteration) {
    Exact e = {iterations, per_iteration, {0}};
    pthread_t t;
    if (pthread_create(&t, NULL, exact_thread, &e) != 0) return 1;
    pthread_join(t, NULL);
    print_totals("alloc-probe", &e.totals);
    return 0;
}

/* ---- every entry point ---------------------------------------------------------------------- */

static void *every_thread(void *arg) {
    Totals *t = arg;
    pthread_setname_np(pthread_self(), "alloc-probe");
    for (int i = 0; i < 10; i++) {
        mark();
        void *a = malloc(100 + (size_t)i);
        note_alloc(t, a);
        void *b = calloc(10, 30);
        note_alloc(t, b);
        /* realloc: the old block given back, a new one received */
        t->frees++;
        t->freed += malloc_usable_size(b);
        b = realloc(b, 5000);
        note_alloc(t, b);
        /* a realloc that fails leaves its block as it was: nothing given back, nothing received */
        volatile size_t too_big = (size_t)PTRDIFF_MAX + 1; /* volatile: the compiler would warn */
        errno = 0;
        if (realloc(b, too_big) != NULL || errno != ENOMEM) abort();
        /* realloc(NULL, n) is malloc(n): a block received, none given back */
        void *h = realloc(NULL, 70 + (size_t)i);
        note_alloc(t, h);
        t->frees++;
        t->freed += malloc_usable_size(b);
        b = reallocarray(b, 30, 100);
        note_alloc(t, b);
        void *c = NULL;
        if (posix_memalign(&c, 64, 200) != 0) abort();
        note_alloc(t, c);
        void *d = aligned_alloc(256, 512);
        note_alloc(t, d);
        void *e = memalign(4096, 100);
        note_alloc(t, e);
        void *f = valloc(10);
        note_alloc(t, f);
        void *g = pvalloc(10);
        note_alloc(t, g);
        void *big = malloc(300 * 1024); /* above glibc's mmap threshold: an mmapped chunk */
        note_alloc(t, big);
        /* realloc(p, 0): glibc frees p and returns NULL */
        t->frees++;
        t->freed += malloc_usable_size(a);
        if (realloc(a, 0) != NULL) abort();
        give_back(t, e);
        give_back(t, b);
        give_back(t, c);
        give_back(t, d);
        give_back(t, f);
        give_back(t, g);
        give_back(t, big);
        give_back(t, h);
        free(NULL);
    }
    mark();
    return NULL;
}

static int run_every_entry(void) {
    Totals totals = {0};
    pthread_t t;
    if (pthread_create(&t, NULL, every_thread, &totals) != 0) return 1;
    pthread_join(t, NULL);
    print_totals("alloc-probe", &totals);
    return 0;
}

/* ---- stress --------------------------------------------------------------------------------- */

#define RING 4096

typedef struct Stress {
    long ops;
    _Atomic(void *) ring[RING];
    atomic_ulong allocs, frees;
} Stress;

static Stress stress;
static _Atomic(void *) stress_sink; /* written by every stress thread: atomic (relaxed) */

static void *stress_thread(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    unsigned long allocs = 0, frees = 0;
    void *mine = NULL;
    for (long i = 0; i < stress.ops; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = seed >> 8;
        size_t size = 1 + r % 2048;
        switch (r % 4) {
        case 0: /* a block for another thread to free */ {
            void *p = malloc(size);
            allocs++;
            void *old = atomic_exchange(&stress.ring[r % RING], p);
            if (old != NULL) {
                free(old);
                frees++;
            }
            break;
        }
        case 1: /* realloc our own block (a free + an allocation when it had one) */
            if (mine != NULL) frees++;
            mine = realloc(mine, size);
            allocs++;
            break;
        case 2:
            free(mine);
            if (mine != NULL) frees++;
            mine = NULL;
            break;
        default: {
            void *p = calloc(1, size);
            allocs++;
            atomic_store_explicit(&stress_sink, p, memory_order_relaxed); /* used: the pair is not elided */
            free(p);
            frees++;
        }
        }
    }
    if (mine != NULL) {
        free(mine);
        frees++;
    }
    atomic_fetch_add(&stress.allocs, allocs);
    atomic_fetch_add(&stress.frees, frees);
    return NULL;
}

static int run_stress(int threads, long ops) {
    if (threads < 1 || threads > 32) return 2;
    mark(); /* a GUI-like main thread: the process writes a summary */
    stress.ops = ops;
    pthread_t t[32];
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, stress_thread, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    unsigned long frees = atomic_load(&stress.frees);
    for (int i = 0; i < RING; i++) {
        void *p = atomic_exchange(&stress.ring[i], NULL);
        if (p != NULL) {
            free(p);
            frees++;
        }
    }
    printf("stress allocs=%lu frees=%lu\n", atomic_load(&stress.allocs), frees);
    return 0;
}

/* ---- semantics ------------------------------------------------------------------------------ */

static void aligned(const char *what, void *p, size_t alignment) {
    printf("%s %s\n", what, p == NULL ? "NULL" : ((uintptr_t)p % alignment == 0 ? "aligned" : "MISALIGNED"));
}

static int run_semantics(void) {
    long page = sysconf(_SC_PAGESIZE);
    for (size_t a = 16; a <= 65536; a *= 4) {
        char what[64];
        void *p = NULL;
        int rc = posix_memalign(&p, a, 100);
        snprintf(what, sizeof what, "posix_memalign(%zu) rc=%d", a, rc);
        aligned(what, p, a);
        free(p);
        snprintf(what, sizeof what, "aligned_alloc(%zu)", a);
        p = aligned_alloc(a, 3 * a);
        aligned(what, p, a);
        free(p);
        snprintf(what, sizeof what, "memalign(%zu)", a);
        p = memalign(a, 10);
        aligned(what, p, a);
        free(p);
    }
    void *p = (void *)0x1;
    printf("posix_memalign(3) rc=%d untouched=%d\n", posix_memalign(&p, 3, 10), p == (void *)0x1);
    printf("posix_memalign(24) rc=%d untouched=%d\n", posix_memalign(&p, 24, 10), p == (void *)0x1);
    p = valloc(1);
    aligned("valloc", p, (size_t)page);
    free(p);
    p = pvalloc(1);
    aligned("pvalloc", p, (size_t)page);
    printf("pvalloc usable>=page %d\n", p != NULL && malloc_usable_size(p) >= (size_t)page);
    free(p);
    /* volatile: the compiler must not see (and warn about) the overflowing sizes. */
    volatile size_t half = SIZE_MAX / 2, huge = SIZE_MAX - 4096;
    errno = 0;
    p = calloc(half, 3);
    printf("calloc overflow %s errno=%s\n", p == NULL ? "NULL" : "BLOCK", errno == ENOMEM ? "ENOMEM" : "other");
    void *volatile kept_block = malloc(10);
    errno = 0;
    p = reallocarray(kept_block, half, 3);
    printf("reallocarray overflow %s errno=%s\n", p == NULL ? "NULL" : "BLOCK", errno == ENOMEM ? "ENOMEM" : "other");
    free(kept_block); /* a failed reallocarray leaves the block allocated */
    void *q;
    q = calloc(4, 4);
    int zeroed = 1;
    for (int i = 0; i < 16; i++) zeroed &= ((unsigned char *)q)[i] == 0;
    printf("calloc zeroed %d usable>=16 %d\n", zeroed, malloc_usable_size(q) >= 16);
    printf("realloc(p, 0) %s\n", realloc(q, 0) == NULL ? "NULL" : "BLOCK");
    q = realloc(NULL, 40);
    printf("realloc(NULL, 40) %s usable>=40 %d\n", q == NULL ? "NULL" : "BLOCK", malloc_usable_size(q) >= 40);
    memset(q, 7, 40);
    q = realloc(q, 100000);
    int kept = 1;
    for (int i = 0; i < 40; i++) kept &= ((unsigned char *)q)[i] == 7;
    printf("realloc grow keeps contents %d\n", kept);
    free(q);
    free(NULL);
    errno = 12345;
    q = malloc(64);
    printf("errno after a successful malloc %d\n", errno);
    errno = 54321;
    free(q);
    printf("errno after free %d\n", errno);
    errno = 0;
    q = malloc(huge);
    printf("huge malloc %s errno=%s\n", q == NULL ? "NULL" : "BLOCK", errno == ENOMEM ? "ENOMEM" : "other");
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 4 && strcmp(argv[1], "exact") == 0) return run_exact(atoi(argv[2]), atoi(argv[3]));
    if (argc >= 2 && strcmp(argv[1], "every-entry") == 0) return run_every_entry();
    if (argc >= 4 && strcmp(argv[1], "stress") == 0) return run_stress(atoi(argv[2]), atol(argv[3]));
    if (argc >= 2 && strcmp(argv[1], "semantics") == 0) return run_semantics();
    fprintf(stderr, "usage: lh_alloc_probe exact K N | every-entry | stress THREADS OPS | semantics\n");
    return 2;
}
