/*
 * spawn_bench.c — start-up cost: spawns a program N times in each of several environments,
 * interleaved (A B C A B C ...) so that machine noise hits every environment alike, and prints the
 * median wall time of a spawn-to-exit per environment.
 *
 *   spawn_bench N PROGRAM -- ENV1 -- ENV2 ...     each ENVk is "NAME=value ..." or "-" (none)
 * Output: one line per environment: "median_us=<x> env=<k>".
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: spawn_bench N PROGRAM -- ENV1 [-- ENV2 ...]\n");
        return 2;
    }
    int n = atoi(argv[1]);
    char *program = argv[2];
    /* Environments: this process's environment plus each group's assignments. */
    char **envs[16];
    int count = 0;
    for (int i = 3; i < argc && count < 16; i++) {
        if (strcmp(argv[i], "--") != 0) continue;
        size_t base = 0;
        while (environ[base] != NULL) base++;
        char **env = calloc(base + 16, sizeof *env);
        size_t k = 0;
        for (; k < base; k++) env[k] = environ[k];
        for (int j = i + 1; j < argc && strcmp(argv[j], "--") != 0; j++)
            if (strcmp(argv[j], "-") != 0) env[k++] = argv[j];
        envs[count++] = env;
    }
    double *times = calloc((size_t)(n * count), sizeof *times);
    char *child_argv[] = {program, NULL};
    for (int round = 0; round < n; round++) {
        for (int e = 0; e < count; e++) {
            pid_t pid;
            double t0 = now_us();
            if (posix_spawn(&pid, program, NULL, NULL, child_argv, envs[e]) != 0) return 1;
            int status;
            waitpid(pid, &status, 0);
            times[e * n + round] = now_us() - t0;
        }
    }
    for (int e = 0; e < count; e++) {
        qsort(times + e * n, (size_t)n, sizeof *times, compare);
        printf("median_us=%.1f env=%d\n", times[e * n + n / 2], e);
    }
    return 0;
}
