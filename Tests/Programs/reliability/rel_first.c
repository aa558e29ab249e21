/* rel_first.c — a preload loaded before (or after) libloophunter.so (row 2): its constructor
 * mallocs, callocs and calls poll() before LoopHunter's constructor may have run. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
static void *kept;
__attribute__((constructor)) static void rel_first_init(void) {
    kept = calloc(3, 100);
    void *p = malloc(1000);
    if (p) memset(p, 1, 1000);
    p = realloc(p, 5000);
    free(p);
    poll(NULL, 0, 0);
}
__attribute__((destructor)) static void rel_first_fini(void) { free(kept); }
