/*
 * driver.c — calls lh_inject_call once (lh_inject.c is compiled into it) and prints the result.
 *
 *   inject-driver PID LIBRARY FUNCTION ARGUMENT [TIMEOUT_MS]   (default 3000 ms)
 *
 * Prints "<CODE> tid=<tid> result=<function result> ms=<elapsed>" then the message on a second
 * line; the exit status is the code (0 for OK).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lh_inject.h"

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: inject-driver PID LIBRARY FUNCTION ARGUMENT [TIMEOUT_MS]\n");
        return 100;
    }
    int timeout = argc > 5 ? atoi(argv[5]) : 3000;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    lh_inject_result r;
    int code = lh_inject_call(atoi(argv[1]), argv[2], argv[3], argv[4], timeout, &r);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    printf("%s tid=%d result=%ld ms=%.2f\n%s\n", lh_inject_code_name(code), r.tid, r.function_result, ms,
           r.message);
    return code;
}
