/* rel_nounwind.c — code without unwind tables (built with -fno-asynchronous-unwind-tables
 * -fno-unwind-tables, row 16): layouts and allocations from here must give a truncated stack,
 * never a crash. */
#include <stdlib.h>
void tk_view_layout(void *view);
__attribute__((noinline)) void rel_nounwind_storm(void *view) {
    for (int i = 0; i < 101; i++) tk_view_layout(view);
}
__attribute__((noinline)) void rel_nounwind_alloc(int n) {
    for (int i = 0; i < n; i++) {
        void *volatile p = malloc(32);
        free(p);
    }
}
