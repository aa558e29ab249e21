/* rel_static.c — a statically linked program (row 19): LD_PRELOAD cannot reach it. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    void *p = malloc(100);
    printf("static: %s\n", p ? "ran" : "no memory");
    free(p);
    return 0;
}
