/*
 * static_target.c — built with cc -static: a poll loop for SECONDS with no libc.so.6 mapped, so an
 * injector must refuse it (NOT_SUPPORTED) and leave it running.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int ms = (argc > 1 ? atoi(argv[1]) : 3) * 1000;
    for (int waited = 0; waited < ms; waited += 50) poll(NULL, 0, 50);
    printf("static: done\n");
    return 0;
}
