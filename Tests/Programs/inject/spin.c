/*
 * spin.c — a program whose threads never wait: main and one more thread compute the same
 * xorshift sequence over and over for SECONDS (reading the time through the vDSO: no system
 * call), check every round gives the same value, then print it. An injector finds no safe point.
 *
 *   spin SECONDS
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t round_value(void) {
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 200000; i++) x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
}

static void *work(void *arg) {
    uint64_t first = round_value();
    double end = now() + seconds;
    long bad = 0;
    while (now() < end)
        if (round_value() != first) bad++;
    *(long *)arg = bad;
    return (void *)(uintptr_t)first;
}

int main(int argc, char **argv) {
    seconds = argc > 1 ? atof(argv[1]) : 3;
    pthread_t t;
    long bad_thread = 0, bad_main = 0;
    pthread_create(&t, NULL, work, &bad_thread);
    uint64_t v = (uint64_t)(uintptr_t)work(&bad_main);
    void *tv;
    pthread_join(t, &tv);
    printf("spin: value=%016llx same=%d bad=%ld\n", (unsigned long long)v, (uint64_t)(uintptr_t)tv == v,
           bad_main + bad_thread);
    return 0;
}
