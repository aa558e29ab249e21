/*
 * lh_poller.c — a program with no toolkit and no event-loop library that waits in poll() and
 * select() now and then, like curl or ssh started by the program under test. Under the preload it
 * must run unchanged and leave nothing in the report directory. `lh-poller N` does N rounds (20
 * by default) of a 1 ms poll, a 1 ms select and a small allocation: `loophunter attach` tests use
 * a long run as a process with no event loop LoopHunter knows.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>

static void *volatile kept; /* so that the compiler keeps the malloc/free pair */

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    for (int i = 0; i < rounds; i++) {
        poll(NULL, 0, 1);
        struct timeval tv = {0, 1000};
        select(0, NULL, NULL, NULL, &tv);
        kept = malloc(64 + (size_t)(i % 7) * 16);
        free(kept);
    }
    printf("poller: done\n");
    return 0;
}
