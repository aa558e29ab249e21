/*
 * signal_relay.c — see signal_relay.h. The handler only calls kill(2) and touches lock-free
 * atomics: async-signal-safe.
 */
#define _GNU_SOURCE
#include "signal_relay.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

static const int relayed[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};
#define RELAYED_COUNT (sizeof relayed / sizeof relayed[0])

static _Atomic pid_t child;              /* relaxed: a pid, nothing else published through it */
static _Atomic unsigned pending;         /* bit per signal number < 32 that arrived before the child */
static _Atomic int forwarded;

static void handler(int signo, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    bool from_process = info != NULL && (info->si_code == SI_USER || info->si_code == SI_QUEUE);
    pid_t pid = atomic_load_explicit(&child, memory_order_relaxed);
    if (from_process && (pid == 0 || info->si_pid != pid)) {
        if (pid > 0) {
            kill(pid, signo);
            atomic_fetch_add_explicit(&forwarded, 1, memory_order_relaxed);
        } else if (signo < 32) {
            atomic_fetch_or_explicit(&pending, 1u << signo, memory_order_relaxed);
        }
    }
    errno = saved;
}

static bool installed[RELAYED_COUNT];

int lh_relay_install(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigset_t relay_set;
    sigemptyset(&relay_set);
    for (size_t i = 0; i < RELAYED_COUNT; i++) {
        struct sigaction old;
        installed[i] = false;
        /* A signal our parent ignores (nohup: SIGHUP) stays ignored, for us and for the program:
         * the program inherits SIG_IGN across exec, as it would without loophunter. */
        if (sigaction(relayed[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        if (sigaction(relayed[i], &sa, NULL) != 0) return -1;
        installed[i] = true;
        sigaddset(&relay_set, relayed[i]);
    }
    /* A blocked mask survives exec: a parent that blocked these (a test harness's worker thread)
     * would keep us from relaying them and the program from ever receiving them. Unblock them in
     * this thread, which spawns the program, so it inherits them unblocked too. */
    return pthread_sigmask(SIG_UNBLOCK, &relay_set, NULL) == 0 ? 0 : -1;
}

void lh_relay_set_child(pid_t pid) {
    atomic_store_explicit(&child, pid, memory_order_relaxed);
    unsigned early = atomic_exchange_explicit(&pending, 0, memory_order_relaxed);
    for (int signo = 1; signo < 32 && pid > 0; signo++)
        if (early & (1u << signo)) {
            kill(pid, signo);
            atomic_fetch_add_explicit(&forwarded, 1, memory_order_relaxed);
        }
}

void lh_relay_uninstall(void) {
    atomic_store_explicit(&child, 0, memory_order_relaxed);
    for (size_t i = 0; i < RELAYED_COUNT; i++)
        if (installed[i]) signal(relayed[i], SIG_DFL);
}

int lh_relay_forwarded(void) { return atomic_load_explicit(&forwarded, memory_order_relaxed); }
