/*
 * rel_pollhook.c — librel-poll.so: a second LD_PRELOAD interposer of poll(2), as other tools and
 * shims (profilers, sandboxes' brokers, accessibility bridges) install next to LoopHunter. Its
 * poll() counts the calls (atomically: any thread) and forwards to the next definition,
 * dlsym(RTLD_NEXT, "poll"), with the arguments, result and errno untouched. At exit a destructor
 * writes one line to stderr with write(2): "pollhook: calls>0" or "pollhook: calls=0".
 * LoopHunter must still see the event loop's waits (its iterations) whichever of the two comes
 * first in LD_PRELOAD, and the host's calls must still reach this library.
 *
 * Run as: LD_PRELOAD="libloophunter.so librel-poll.so" PROG   (or the other order)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <unistd.h>

typedef int (*poll_fn)(struct pollfd *, nfds_t, int);

static atomic_ulong calls;
static _Atomic(poll_fn) next_poll;

int poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
    poll_fn next = atomic_load_explicit(&next_poll, memory_order_acquire);
    if (!next) {
        next = (poll_fn)dlsym(RTLD_NEXT, "poll");
        if (!next) {
            errno = ENOSYS;
            return -1;
        }
        atomic_store_explicit(&next_poll, next, memory_order_release);
    }
    return next(fds, nfds, timeout);
}

__attribute__((destructor)) static void rel_pollhook_fini(void) {
    static const char some[] = "pollhook: calls>0\n", none[] = "pollhook: calls=0\n";
    int saved = errno;
    bool any = atomic_load_explicit(&calls, memory_order_relaxed) > 0;
    ssize_t w = write(2, any ? some : none, (any ? sizeof some : sizeof none) - 1);
    (void)w; /* nothing to do about a failed write at exit */
    errno = saved;
}
