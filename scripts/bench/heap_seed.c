/*
 * heap_seed.c — a bench-only preload that moves where the program's heap blocks fall: its
 * constructor takes one block of LH_HEAP_SEED x 48 bytes from the allocator (0 or unset: none) and
 * keeps it. Whole-program instruction counts of a program that reallocates a lot (Qt 6 Quick) move
 * by several percent with nothing but the heap's layout (glibc's realloc grows a block in place or
 * copies it, depending on its neighbour); scripts/bench/qt.sh runs plain and LoopHunter under the
 * same seeds and reports the difference of the means with its standard error, and the part outside
 * glibc's realloc. Not part of LoopHunter.
 */
#include <stdlib.h>

static void *seed_block;

__attribute__((constructor)) static void seed_heap(void) {
    const char *seed = getenv("LH_HEAP_SEED");
    long n = seed != NULL ? strtol(seed, NULL, 10) : 0;
    if (n > 0 && n < 4096) seed_block = malloc((size_t)n * 48);
}
