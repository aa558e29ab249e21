/*
 * lh_loader_lock.c — whether a child of fork inherited the loader's module-list lock held.
 *
 * dl_iterate_phdr holds the loader's "write" lock (glibc's dl_load_write_lock, a recursive mutex
 * inside the loader's private _rtld_global) while its callbacks run, and dlopen and dlclose hold it
 * while they change the list. glibc resets its other loader lock in a child of fork, not this one
 * (2.36): a child forked while another thread of the parent held it has it held by a thread that
 * does not exist, and every dl_iterate_phdr there waits forever. The host's own code may never walk
 * the modules between its fork and its exec; LoopHunter does (the summary at exec, stack captures,
 * symbol lookups), so such a child hung in its execve under the preload. Now the child's fork
 * handler asks here first, and when the lock is held, LoopHunter's walks read the list without it
 * (lh_modules_freeze, core/lh_modules.c): nothing can change the list then.
 *
 * Where the lock is: found once, in the parent's fork preparation (the first fork made while the
 * process has more than one thread), by looking inside a dl_iterate_phdr callback for the one
 * recursive mutex of _rtld_global that this thread owns, and checking that it is free again once
 * the walk is over. Nothing is written to the loader's memory. When it cannot be found (another
 * C library, another layout), a child of a threaded parent is taken as frozen: its walks read the
 * list without the lock, which is sound unless the child itself goes on to load or unload modules
 * from several threads at once.
 *
 * Contracts: the preparation runs in the forking thread before fork (guard held, outside any hook
 * of ours); the child's question is one load. No allocation, no lock of ours.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/single_threaded.h>
#include <unistd.h>

#include "lh_runtime.h"

static pthread_mutex_t *write_lock; /* written by the preparing thread before the fork; NULL: unknown */
static bool looked;                 /* the same */
static bool threaded_at_fork;       /* the parent had more than one thread at the last fork */

typedef struct scan {
    const char *base;
    size_t size;
    pid_t tid;
    size_t found;
    size_t at[2];
} scan;

static bool owned_by(const pthread_mutex_t *m, pid_t tid) {
    return m->__data.__owner == tid && m->__data.__lock != 0 && m->__data.__count >= 1 &&
           (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP;
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)info;
    (void)size;
    scan *s = arg;
    for (size_t off = 0; off + sizeof(pthread_mutex_t) <= s->size; off += 8)
        if (owned_by((const pthread_mutex_t *)(const void *)(s->base + off), s->tid) && s->found++ < 2)
            s->at[s->found - 1] = off;
    return 1; /* one module is enough: the lock is held for the whole walk */
}

static void find_lock(void) {
    looked = true;
    char *rtld = lh_host_data("_rtld_global");
    Dl_info where;
    const ElfW(Sym) *sym = NULL;
    if (rtld == NULL || dladdr1(rtld, &where, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL) return;
    scan s = {.base = rtld, .size = sym->st_size, .tid = gettid()};
    dl_iterate_phdr(scan_cb, &s); /* the real walk, with the lock: this is the parent */
    if (s.found != 1) return;
    pthread_mutex_t *m = (pthread_mutex_t *)(void *)(rtld + s.at[0]);
    if (m->__data.__owner == s.tid) return; /* not given back: not the walk's lock */
    write_lock = m;
}

void lh_loader_lock_before_fork(void) {
    threaded_at_fork = !__libc_single_threaded;
    if (threaded_at_fork && !looked) {
        LH_GUARDED(&lh_tls_data);
        find_lock();
    }
}

bool lh_loader_lock_held_in_child(void) {
    if (!threaded_at_fork) return false;
    if (write_lock == NULL) return true; /* unknown: the safe side */
    /* The only thread now is this one, under a new id: any owner is gone. Relaxed: no other
     * thread exists to race with. The lock word too: glibc takes a recursive mutex by setting the
     * word first and the owner after it, and gives it back by clearing the owner first and the word
     * after it; a fork between the two (a walking thread preempted there, on a loaded machine) left
     * a child with no owner and the word set, whose next walk waited forever (row 9, 1 child of 40
     * once in a CI run). */
    return __atomic_load_n(&write_lock->__data.__owner, __ATOMIC_RELAXED) != 0 ||
           __atomic_load_n(&write_lock->__data.__lock, __ATOMIC_RELAXED) != 0;
}
