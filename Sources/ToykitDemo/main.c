/*
 * main.c — toykit-demo, the host program LoopHunter is tested on: `toykit-demo SCENARIO` runs one
 * scenario (each in its own scenario_*.c), `--list` prints their names, `--help` the usage.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "demo.h"

typedef struct Scenario {
    const char *name;
    const char *summary;
    int (*run)(void);
} Scenario;

static const Scenario scenarios[] = {
    {"healthy", "a busy but correct UI (capped): clock, spinner, progress bar, revealer, text entry", scenario_healthy},
    {"loop", "a layout feedback loop within one iteration (uncapped): Toolbar <-> StatusLabel", scenario_loop},
    {"capped-loop", "the same loop under the capped policy: 4 passes every frame for 150 frames", scenario_capped_loop},
    {"oscillate", "two panes resizing each other across iterations (uncapped), 150 iterations", scenario_oscillate},
    {"alloc-storm", "a list view rebuilding its 72 MiB row cache on every layout, 30 frames (capped)", scenario_alloc_storm},
    {"leak", "a list view leaking a 1 MiB row cache per layout, 90 frames (capped)", scenario_leak},
    {"threads", "two loops on two threads: 'ui-main' healthy, 'ui-worker' with the layout loop", scenario_threads},
    {"fork", "a healthy parent forks a child that runs the layout loop and exit(0)s", scenario_fork},
    {"stall", "the UI thread computes 2.5 s, then sleeps 2.5 s, in two timer callbacks (~6 s)", scenario_stall},
    {"slow-window", "a window whose first frame waits 2.7 s behind three start-up callbacks", scenario_slow_window},
    {"timer-storm", "10 tooltip timers leaked per refresh, then 300 zero-delay timers of one callback", scenario_timer_storm},
    {"timer-dangling", "a progress timer that keeps firing after its Download was freed", scenario_timer_dangling},
    {"attach-target", "runs TOYKIT_RUN_MS (20000) ms; the toolbar loop from TOYKIT_LOOP_AFTER_MS on (never by default)",
     scenario_attach_target},
};
#define SCENARIO_COUNT (sizeof scenarios / sizeof scenarios[0])

int64_t demo_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void usage(FILE *out) {
    fprintf(out, "usage: toykit-demo SCENARIO\n"
                 "       toykit-demo --list | --help\n"
                 "\n"
                 "scenarios:\n");
    for (size_t i = 0; i < SCENARIO_COUNT; i++) fprintf(out, "  %-12s %s\n", scenarios[i].name, scenarios[i].summary);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        usage(stderr);
        return 2;
    }
    const char *arg = argv[1];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(arg, "--list") == 0) {
        for (size_t i = 0; i < SCENARIO_COUNT; i++) puts(scenarios[i].name);
        return 0;
    }
    for (size_t i = 0; i < SCENARIO_COUNT; i++) {
        if (strcmp(arg, scenarios[i].name) == 0) {
            int status = scenarios[i].run();
            /* Flush now, not at exit: a leak checker's exit hook (LeakSanitizer on leak)
             * may end the process before stdio's own flush. */
            fflush(stdout);
            return status;
        }
    }
    fprintf(stderr, "toykit-demo: unknown scenario '%s'\n", arg);
    usage(stderr);
    return 2;
}
