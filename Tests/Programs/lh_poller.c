/*
 * lh_poller.c — a program with no toolkit and no event-loop library that waits in poll() and
 * select() now and then, like curl or ssh started by the program under test. Under the preload it
 * must run unchanged and leave nothing in the report directory.
 */
#include <poll.h>
#include <stdio.h>
#include <sys/select.h>

int main(void) {
    for (int i = 0; i < 20; i++) {
        poll(NULL, 0, 1);
        struct timeval tv = {0, 1000};
        select(0, NULL, NULL, NULL, &tv);
    }
    printf("poller: done\n");
    return 0;
}
