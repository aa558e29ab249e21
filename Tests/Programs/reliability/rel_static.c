/* rel_static.c — a statically linked program (row 19): LD_PRELOAD cannot reach it, and
 * `loophunter attach` refuses it. `rel-static MS` waits MS milliseconds in poll() first (the
 * attach refusal test needs it running). */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int ms = argc > 1 ? atoi(argv[1]) : 0;
    for (int waited = 0; waited < ms; waited += 10) poll(NULL, 0, 10);
    void *p = malloc(100);
    printf("static: %s\n", p ? "ran" : "no memory");
    free(p);
    return 0;
}
