/*
 * lh_rel.c — the host program of the reliability suite (Tests/LoopHunterEndToEndTests/Reliability/,
 * docs/reliability.md). Each mode reproduces one reliability row (docs/reliability.md): it does what the row
 * says real programs do, prints what it did (so a test can compare LoopHunter's counts with the
 * truth, and the output with and without the preload), and exits 0 when the host was unharmed.
 * It uses toykit's exported layout entry point like an application and the preload's public API
 * through a weak reference (it runs without the preload too).
 *
 *   threads-capture N       N threads, each with its own view type, each 5 marked iterations of
 *                           101 layouts (a breach, a stack capture, per iteration)        row 3
 *   signals SECS HZ         4 allocating/laying-out threads; a thread sends SIGUSR1 at HZ for SECS;
 *                           the handler mallocs and lays out (101 times: a capture inside the
 *                           handler)                                                     rows 4, 13
 *   dlopen-storm SECS LIB   one thread dlopen/dlclose LIB (its constructor mallocs) in a loop;
 *                           8 threads breach (capture) in a loop                         row 5
 *   dlopen-preload PRELOAD TLSLIB...  dlopen TLS-heavy libraries then the preload          row 6
 *   thread-reuse            thread A lays out 50x and exits; B (often A's TCB) lays out 3x row 7
 *   fork-storm C T          C children, each T allocating threads and a fork: the grandchild
 *                           mallocs 10,000 times and prints "done"; every child breaches   row 9
 *   fork-walk N             N times: fork a child that lays out and execs /bin/true while
 *                           another thread walks the modules (the loader's list lock)    row 9
 *   fork-half-locked        a thread walking the modules stops, inside its walk, where glibc's
 *                           unlock has cleared the lock's owner but not yet its word; a child
 *                           forked then lays out and execs /bin/true                     row 9
 *   spawn SELF              vfork + malloc/getenv/execve; posix_spawn of SELF storm       rows 10, 11
 *   storm [ARGS...]         one breach (a report), ignoring extra arguments               rows 11, 31
 *   setxid                  a thread blocking every signal while main calls setuid()     row 12
 *   preload-visible         prints whether the preload's API is resolvable              row 12
 *   app-signals             counts the app's threads and LoopHunter's that take SIGUSR1;
 *                           the app's own SIGUSR1 handler runs                         row 14
 *   exit-order              atexit first, a destructor that mallocs, a thread allocating
 *                           during exit(); exits 7                                       row 15
 *   jit LIB                 breaches inside a library without unwind tables and inside a
 *                           PROT_EXEC stub without any                                   row 16
 *   small-stacks            a PTHREAD_STACK_MIN thread recursing then breaching; a SIGSTKSZ
 *                           alternate-stack handler breaching                            row 17
 *   dlclose LIB             a library breaches, then is dlclosed                         row 18
 *   seccomp                 after start-up: a filter killing the process on open/mkdir/
 *                           getrandom/clone; then 1000 healthy iterations               row 22
 *   fds N                   RLIMIT_NOFILE 64; N breaches of distinct types; fds before/after,
 *                           then all fds used up and one more breach                    row 23
 *   rounds R T              R rounds x T threads; half of each thread's blocks freed by
 *                           another thread                                              row 24
 *   symlink                 one breach; plants symlinks (to ./canary) at the next report names
 *                           and their temporary names; a second breach                  row 26
 *   many N                  N breaches of N distinct types (the writer of the kill -9 test)
 *   killer N MS PRELOAD DIR PROG ARGS...  starts PROG under PRELOAD N times, kills each with
 *                           SIGKILL after a random 0..MS ms                              row 27
 *   attach-busy SECS T LIB [STOP]  a toykit loop on the main thread (its poll(): `loophunter
 *                           attach`'s safe point), a 5 ms timer allocating and laying out, while T threads allocate (every malloc entry point, contents
 *                           checked) and lay out toykit views (frames checked) flat out, one
 *                           thread breaches, one forks children that allocate, lay out and
 *                           _exit or exec /bin/true, one dlopens/dlcloses LIB; until SECS
 *                           have passed or the file STOP exists                          row 33
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <limits.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../descriptors.h"
#include "toykit.h"

#pragma weak loophunter_iteration_mark
void loophunter_iteration_mark(void);

extern char **environ;

static void mark(void) {
    if (loophunter_iteration_mark) loophunter_iteration_mark();
}

static const TkViewClass rel_class = {"RelView", NULL};

/* One marked iteration in which `v` is laid out 101 times (a breach at the default threshold). */
static void storm_once(TkView *v) {
    mark();
    for (int i = 0; i < 101; i++) tk_view_layout(v);
    mark();
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- row 3 ---------------------------------------------------------------------------------- */

typedef struct Capturer {
    int index;
    unsigned long layouts;
    TkViewClass cls;
    char type[32];
} Capturer;

static void *capturer(void *arg) {
    Capturer *c = arg;
    char name[16];
    snprintf(name, sizeof name, "rel-%d", c->index);
    pthread_setname_np(pthread_self(), name);
    snprintf(c->type, sizeof c->type, "CaptureType%d", c->index);
    c->cls.type_name = c->type;
    TkView *v = tk_view_new(&c->cls, "captured");
    for (int i = 0; i < 5; i++) {
        storm_once(v);
        c->layouts += 101;
        void *volatile p = malloc(64 + (size_t)i); /* the capture path must not show up in these */
        free(p);
    }
    return NULL;
}

static int threads_capture(int n) {
    if (n > 64) n = 64;
    pthread_t t[64];
    static Capturer c[64]; /* type names must outlive the threads: the summary names them at exit */
    memset(c, 0, sizeof c);
    for (int i = 0; i < n; i++) {
        c[i].index = i;
        pthread_create(&t[i], NULL, capturer, &c[i]);
    }
    for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < n; i++) printf("rel-%d layouts=%lu\n", i, c[i].layouts);
    return 0;
}

/* ---- rows 4 and 13 --------------------------------------------------------------------------- */

static atomic_bool stop_flag;
static atomic_ulong handled;
static __thread volatile sig_atomic_t in_app_malloc; /* glibc's malloc is not reentrant */
static __thread TkView *signal_view;

static void on_usr1(int sig) {
    (void)sig;
    int saved = errno;
    atomic_fetch_add_explicit(&handled, 1, memory_order_relaxed);
    if (!in_app_malloc) {
        void *p = malloc(32);
        free(p);
    }
    /* A layout count from inside the handler; the first handler run crosses the threshold. */
    if (signal_view) {
        static __thread int first = 1;
        int n = first ? 101 : 1;
        first = 0;
        for (int i = 0; i < n; i++) tk_view_layout(signal_view);
    }
    errno = saved;
}

static void *sig_worker(void *arg) {
    (void)arg;
    pthread_setname_np(pthread_self(), "rel-sig");
    TkView *v = tk_view_new(&rel_class, "signalled");
    signal_view = v;
    unsigned long n = 0;
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        mark();
        for (int i = 0; i < 100; i++) {
            in_app_malloc = 1;
            void *p = malloc(16 + (size_t)(i * 8));
            in_app_malloc = 0;
            tk_view_layout(v);
            in_app_malloc = 1;
            free(p);
            in_app_malloc = 0;
            n++;
        }
    }
    return (void *)n;
}

static int signals(int secs, int hz) {
    struct sigaction sa = {0};
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    pthread_t w[4];
    for (int i = 0; i < 4; i++) pthread_create(&w[i], NULL, sig_worker, NULL);
    /* The sender blocks SIGUSR1 so every signal lands on a worker (the kernel picks one). */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    double start = now_s(), end = start + secs;
    unsigned long sent = 0;
    pid_t pid = getpid();
    for (double t = start; t < end; t = now_s()) {
        unsigned long due = (unsigned long)((t - start) * hz); /* paced to HZ on average */
        while (sent < due) {
            kill(pid, SIGUSR1);
            sent++;
        }
        nanosleep(&(struct timespec){0, 50 * 1000}, NULL);
    }
    atomic_store(&stop_flag, true);
    unsigned long ops = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(w[i], &r);
        ops += (unsigned long)r;
    }
    printf("signals: sent=%s handled=%s ops=%s\n", sent > 0 ? "yes" : "no",
           atomic_load(&handled) > 0 ? "yes" : "no", ops > 0 ? "yes" : "no");
    fprintf(stderr, "signals: sent %lu handled %lu ops %lu\n", sent, atomic_load(&handled), ops);
    return 0;
}

/* ---- row 5 ----------------------------------------------------------------------------------- */

static const char *dl_lib;

static void *dl_looper(void *arg) {
    (void)arg;
    unsigned long n = 0;
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        void *h = dlopen(dl_lib, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            exit(1);
        }
        dlclose(h);
        n++;
    }
    return (void *)n;
}

static void *dl_breacher(void *arg) {
    Capturer *c = arg;
    snprintf(c->type, sizeof c->type, "DlType%d", c->index);
    c->cls.type_name = c->type;
    TkView *v = tk_view_new(&c->cls, "dl");
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        storm_once(v);
        c->layouts++;
    }
    return NULL;
}

static int dlopen_storm(int secs, const char *lib) {
    dl_lib = lib;
    pthread_t looper, t[8];
    static Capturer c[8]; /* type names must outlive the threads: the summary names them at exit */
    memset(c, 0, sizeof c);
    pthread_create(&looper, NULL, dl_looper, NULL);
    for (int i = 0; i < 8; i++) {
        c[i].index = i;
        pthread_create(&t[i], NULL, dl_breacher, &c[i]);
    }
    sleep((unsigned)secs);
    atomic_store(&stop_flag, true);
    void *r;
    pthread_join(looper, &r);
    unsigned long storms = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        storms += c[i].layouts;
    }
    printf("dlopen-storm: done\n");
    fprintf(stderr, "dlopen-storm: %lu dlopen/dlclose, %lu breaching iterations\n", (unsigned long)r, storms);
    return 0;
}

/* ---- row 6 ----------------------------------------------------------------------------------- */

static int dlopen_preload(int argc, char **argv) {
    for (int i = 3; i < argc; i++) {
        if (!dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL)) printf("tls library: %s\n", dlerror());
    }
    void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (h) {
        printf("dlopen-preload: loaded\n");
    } else {
        const char *e = dlerror();
        printf("dlopen-preload: refused (%s)\n", e && strstr(e, "static TLS") ? "static TLS" : e);
    }
    void *p = malloc(100);
    free(p);
    TkView *v = tk_view_new(&rel_class, "late");
    storm_once(v);
    printf("dlopen-preload: done\n");
    return 0;
}

/* ---- row 7 ----------------------------------------------------------------------------------- */

static void *reuse_thread(void *arg) {
    int n = (int)(intptr_t)arg;
    pthread_setname_np(pthread_self(), n == 50 ? "rel-a" : "rel-b");
    TkView *v = tk_view_new(&rel_class, n == 50 ? "a" : "b");
    mark();
    for (int i = 0; i < n; i++) {
        tk_view_layout(v);
        if (i % 10 == 0) mark();
    }
    mark();
    return NULL;
}

static int thread_reuse(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, reuse_thread, (void *)(intptr_t)50);
    pthread_join(a, NULL);
    pthread_create(&b, NULL, reuse_thread, (void *)(intptr_t)3);
    pthread_join(b, NULL);
    printf("thread-reuse: a=50 b=3\n");
    return 0;
}

/* ---- row 9 ----------------------------------------------------------------------------------- */

static void *allocating(void *arg) {
    (void)arg;
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        void *p[16];
        for (int i = 0; i < 16; i++) p[i] = malloc((size_t)(16 + i * 24));
        for (int i = 0; i < 16; i++) free(p[i]);
    }
    return NULL;
}

static int fork_child(int threads) {
    pthread_t t[64];
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, allocating, NULL);
    TkView *v = tk_view_new(&rel_class, "forked");
    storm_once(v);
    pid_t g = fork();
    if (g == 0) {
        for (int i = 0; i < 10000; i++) {
            void *p = malloc((size_t)(i % 512) + 1);
            free(p);
        }
        printf("done\n");
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    if (g < 0 || waitpid(g, &st, 0) != g || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return 1;
    atomic_store(&stop_flag, true);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return 0;
}

static int fork_storm(int children, int threads) {
    fflush(stdout);
    pid_t pids[256];
    if (children > 256) children = 256;
    for (int i = 0; i < children; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            int rc = fork_child(threads);
            fflush(stdout);
            exit(rc);
        }
    }
    int bad = 0;
    for (int i = 0; i < children; i++) {
        int st = 0;
        if (pids[i] < 0 || waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st) != 0) bad++;
    }
    printf("fork-storm: children=%d failed=%d\n", children, bad);
    return bad ? 1 : 0;
}

/* ---- row 9: a child forked while another thread walks the modules ---------------------------- */

static atomic_bool walking_stop;
static atomic_ulong walks;

static int slow_walk_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)info;
    (void)size;
    (void)arg;
    for (volatile int i = 0; i < 2000; i++) {
    }
    return 0;
}

static void *walker(void *arg) {
    (void)arg;
    while (!atomic_load(&walking_stop)) {
        dl_iterate_phdr(slow_walk_cb, NULL); /* the loader's list lock, held most of the time */
        atomic_fetch_add(&walks, 1);
    }
    return NULL;
}

/* N times: a thread walks the modules (holding the loader's list lock most of the time, as
 * dlopen/dlclose and unwinders do) while the main thread lays out and forks a child that lays out
 * and execs /bin/true; each child must be gone within 10 s. glibc leaves that lock held in a child
 * forked while another thread held it. */
/* Waits up to 10 s for child `pid` to be gone; kills it when it is not. Counts it in *hung, or in
 * *failed when it did not exit with status 0. */
static void wait_child(pid_t pid, int *hung, int *failed) {
    int st = 0;
    pid_t got = 0;
    for (int ms = 0; ms < 10000 && (got = waitpid(pid, &st, WNOHANG)) == 0; ms++) usleep(1000);
    if (got == 0) {
        (*hung)++;
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    } else if (got != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        (*failed)++;
    }
}

/* Forks a child that lays a view out 3 times and execs /bin/true (stdout flushed first). */
static pid_t fork_laying_out_child(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        TkView *c = tk_view_new(&rel_class, "child");
        for (int k = 0; k < 3; k++) tk_view_layout(c);
        char *args[] = {"/bin/true", NULL};
        execve(args[0], args, environ);
        _exit(127);
    }
    return pid;
}

static int fork_walk(int n) {
    pthread_t t;
    pthread_create(&t, NULL, walker, NULL);
    TkView *v = tk_view_new(&rel_class, "forker");
    int hung = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        mark();
        for (int k = 0; k < 3; k++) tk_view_layout(v);
        pid_t pid = fork_laying_out_child();
        wait_child(pid, &hung, &failed);
    }
    atomic_store(&walking_stop, true);
    pthread_join(t, NULL);
    printf("fork-walk: children=%d hung=%d failed=%d\n", n, hung, failed);
    fprintf(stderr, "fork-walk: %lu walks\n", atomic_load(&walks));
    return hung || failed ? 1 : 0;
}

/* The state a fork can catch the loader's list lock in while another thread gives it back: glibc
 * clears a recursive mutex's owner first and its word after. Made here for as long as needed (a
 * real walk passes through it in nanoseconds, longer when preempted there): the walking thread,
 * inside its walk (the lock held), finds the lock in the loader's _rtld_global (the one recursive
 * mutex it owns), clears the owner as glibc's unlock does, and waits for the fork before putting
 * the owner back. The child must lay out, exec and be gone within 10 s, as in fork-walk. */
static _Atomic int half_state; /* 0 walking, 1 owner cleared (or -1: lock not found), 2 forked */

static int half_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)info;
    (void)size;
    (void)arg;
    char *rtld = dlsym(RTLD_DEFAULT, "_rtld_global");
    Dl_info where;
    const ElfW(Sym) *sym = NULL;
    pthread_mutex_t *lock = NULL;
    pid_t me = (pid_t)syscall(SYS_gettid);
    if (rtld != NULL && dladdr1(rtld, &where, (void **)&sym, RTLD_DL_SYMENT) != 0 && sym != NULL) {
        for (size_t off = 0; off + sizeof(pthread_mutex_t) <= sym->st_size && lock == NULL; off += 8) {
            pthread_mutex_t *m = (pthread_mutex_t *)(void *)(rtld + off);
            if (m->__data.__owner == me && m->__data.__lock != 0 && m->__data.__count >= 1 &&
                (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP)
                lock = m;
        }
    }
    if (lock == NULL) {
        atomic_store(&half_state, -1);
        return 1;
    }
    lock->__data.__owner = 0;
    atomic_store(&half_state, 1);
    while (atomic_load(&half_state) != 2) usleep(100);
    lock->__data.__owner = me;
    return 1;
}

static void *half_walker(void *arg) {
    (void)arg;
    dl_iterate_phdr(half_cb, NULL);
    return NULL;
}

static void *idle_thread(void *arg) {
    (void)arg;
    return NULL;
}

static int fork_half_locked(void) {
    TkView *v = tk_view_new(&rel_class, "forker");
    mark();
    for (int k = 0; k < 3; k++) tk_view_layout(v);
    /* A first fork of the threaded process, with the lock free (under the preload, its fork
     * preparation looks for the lock then, by walking the modules itself). */
    pthread_t t;
    pthread_create(&t, NULL, idle_thread, NULL);
    pid_t first = fork();
    if (first == 0) _exit(0);
    waitpid(first, NULL, 0);
    pthread_join(t, NULL);
    pthread_create(&t, NULL, half_walker, NULL);
    while (atomic_load(&half_state) == 0) usleep(100);
    if (atomic_load(&half_state) < 0) {
        pthread_join(t, NULL);
        printf("fork-half-locked: the loader's list lock was not found\n");
        return 1;
    }
    pid_t pid = fork_laying_out_child();
    atomic_store(&half_state, 2);
    pthread_join(t, NULL);
    int hung = 0, failed = 0;
    wait_child(pid, &hung, &failed);
    printf("fork-half-locked: hung=%d failed=%d\n", hung, failed);
    return hung || failed ? 1 : 0;
}

/* ---- rows 10, 11 ----------------------------------------------------------------------------- */

static int spawn(const char *self) {
    TkView *v = tk_view_new(&rel_class, "parent");
    mark();
    for (int i = 0; i < 40; i++) tk_view_layout(v);
    /* vfork: the child runs in our memory, calls getenv and malloc (not allowed by POSIX, done by
     * real programs) and execs. */
    pid_t pid = vfork();
    if (pid == 0) {
        const char *path = getenv("PATH");
        void *p = malloc(100);
        (void)p;
        (void)path;
        char *args[] = {"/bin/true", NULL};
        execve(args[0], args, environ);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("vfork child: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    for (int i = 0; i < 40; i++) tk_view_layout(v);
    /* posix_spawn of ourselves: the child inherits LD_PRELOAD (it is followed). */
    char *args[] = {(char *)self, "storm", NULL};
    pid_t child;
    int rc = posix_spawn(&child, self, NULL, NULL, args, environ);
    if (rc == 0) waitpid(child, &st, 0);
    printf("posix_spawn child: %d\n", rc ? -rc : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    for (int i = 0; i < 20; i++) tk_view_layout(v);
    mark();
    printf("spawn: parent layouts=100\n");
    return 0;
}

static int storm(void) {
    TkView *v = tk_view_new(&rel_class, "storm");
    storm_once(v);
    printf("storm: done\n");
    return 0;
}

/* ---- row 12 ---------------------------------------------------------------------------------- */

static void *blocker(void *arg) {
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    while (!atomic_load(&stop_flag)) {
        void *p = malloc(64);
        free(p);
        usleep(1000);
    }
    return NULL;
}

static int setxid(void) {
    pthread_t t;
    pthread_create(&t, NULL, blocker, NULL);
    usleep(20000);
    int rc = 0;
    for (int i = 0; i < 100 && rc == 0; i++) rc = setuid(geteuid()); /* SIGSETXID to every thread */
    atomic_store(&stop_flag, true);
    pthread_join(t, NULL);
    printf("setxid: rc=%d\n", rc);
    return rc == 0 ? 0 : 1;
}

static int preload_visible(void) {
    printf("preload: %s\n", dlsym(RTLD_DEFAULT, "loophunter_version") ? "loaded" : "absent");
    return 0;
}

/* ---- row 14 ---------------------------------------------------------------------------------- */

static volatile sig_atomic_t app_got;
static void on_app_usr1(int sig) { (void)sig; app_got = 1; }

/* Whether thread `tid` of this process is one of LoopHunter's (named loophunter-*), and whether
 * it leaves SIGUSR1 unblocked (its SigBlk mask in /proc). */
static void thread_facts(const char *tid, bool *ours, bool *takes_usr1) {
    char path[64], text[4096];
    *ours = *takes_usr1 = false;
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", tid);
    FILE *f = fopen(path, "r");
    if (f == NULL) return;
    *ours = fgets(text, sizeof text, f) != NULL && strncmp(text, "loophunter-", 11) == 0;
    fclose(f);
    snprintf(path, sizeof path, "/proc/self/task/%s/status", tid);
    f = fopen(path, "r");
    if (f == NULL) return;
    while (fgets(text, sizeof text, f) != NULL) {
        unsigned long long mask;
        if (sscanf(text, "SigBlk: %llx", &mask) == 1) *takes_usr1 = (mask & (1ull << (SIGUSR1 - 1))) == 0;
    }
    fclose(f);
}

static int app_signals(void) {
    signal(SIGUSR1, on_app_usr1);
    /* Two breaches: the first report is written by its thread, and LoopHunter's report writer
     * thread starts at the next iteration (it writes the second): a helper exists by now. */
    static const TkViewClass second = {"RelSecondView", NULL};
    storm_once(tk_view_new(&rel_class, "sig"));
    storm_once(tk_view_new(&second, "sig2"));
    int threads = 0, helpers_taking = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        bool ours, takes;
        thread_facts(e->d_name, &ours, &takes);
        if (!ours) threads++;
        else if (takes) helpers_taking++;
    }
    if (d) closedir(d);
    kill(getpid(), SIGUSR1);
    for (int i = 0; i < 1000 && !app_got; i++) usleep(1000);
    printf("app-signals: threads=%d handler=%s helpers_taking_signals=%d\n", threads, app_got ? "ran" : "did not run",
           helpers_taking);
    return app_got ? 0 : 1;
}

/* ---- row 15 ---------------------------------------------------------------------------------- */

static void at_exit_first(void) {
    void *p = malloc(77);
    free(p);
    printf("atexit ran\n");
}

__attribute__((constructor(101))) static void early(void) {
    const char *m = getenv("LH_REL_MODE");
    if (m && strcmp(m, "exit-order") == 0) atexit(at_exit_first);
}

static void *leaked_block;
__attribute__((destructor)) static void late(void) {
    const char *m = getenv("LH_REL_MODE");
    if (m && strcmp(m, "exit-order") == 0) {
        leaked_block = malloc(1234);
        free(leaked_block);
        leaked_block = malloc(99); /* still live at exit */
    }
}

static int exit_order(void) {
    pthread_t t;
    pthread_create(&t, NULL, allocating, NULL); /* still allocating while exit() runs */
    TkView *v = tk_view_new(&rel_class, "exiting");
    storm_once(v);
    usleep(2000);
    printf("exit-order: exiting 7\n");
    exit(7);
}

/* ---- row 16 ---------------------------------------------------------------------------------- */

static int jit(const char *lib) {
    /* Counted before anything else: see the end. */
    int descriptors_at_start = open_descriptors();
    int close_on_exec_at_start = close_on_exec_descriptors();
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
        printf("jit: %s\n", dlerror());
        return 1;
    }
    void (*nounwind_storm)(void *) = (void (*)(void *))dlsym(h, "rel_nounwind_storm");
    TkViewClass cls = {"NoUnwindView", NULL};
    TkView *v = tk_view_new(&cls, "nounwind");
    mark();
    nounwind_storm(v); /* 101 layouts from code without unwind tables */
    mark();
    /* A PROT_EXEC stub (no unwind information anywhere): sub rsp,8; mov rdi,v; mov rax,fn;
     * call rax; add rsp,8; ret. */
    TkViewClass jcls = {"JitView", NULL};
    TkView *jv = tk_view_new(&jcls, "jit");
    unsigned char code[] = {0x48, 0x83, 0xEC, 0x08, 0x48, 0xBF, 0, 0, 0, 0, 0, 0, 0, 0,
                            0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xD0, 0x48, 0x83, 0xC4, 0x08, 0xC3};
    uint64_t vp = (uint64_t)(uintptr_t)jv, fp = (uint64_t)(uintptr_t)&tk_view_layout;
    memcpy(code + 6, &vp, 8);
    memcpy(code + 16, &fp, 8);
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(page, code, sizeof code);
    mprotect(page, 4096, PROT_READ | PROT_EXEC);
    void (*stub)(void) = (void (*)(void))page;
    mark();
    for (int i = 0; i < 101; i++) stub();
    mark();
    /* malloc from the stub's caller with a tiny alloc limit set by the test: an alloc-storm */
    void (*nounwind_alloc)(int) = (void (*)(int))dlsym(h, "rel_nounwind_alloc");
    mark();
    nounwind_alloc(200);
    mark();
    /* The unwinder checked memory on every frame without unwind information: through a pipe of
     * its own, libunwind's way, that would be two descriptors more at the end than at the start.
     * The preload's start-up holds none either (any it held would have close-on-exec set). Both
     * counts are relative to this process, so descriptors the launcher leaked into it (a test
     * runner spawning from several threads) change neither. */
    printf("jit: %d descriptors more at the end than at the start, %d close-on-exec at the start\n",
           open_descriptors() - descriptors_at_start, close_on_exec_at_start);
    printf("jit: done\n");
    return 0;
}

/* ---- row 17 ---------------------------------------------------------------------------------- */

static TkView *small_view;

static int recurse(int depth) {
    volatile char pad[128];
    pad[0] = (char)depth;
    if (depth == 0) {
        storm_once(small_view);
        return pad[0];
    }
    return recurse(depth - 1) + pad[0];
}

static void *small_thread(void *arg) {
    (void)arg;
    recurse(40); /* ~6 KiB of a 16 KiB stack */
    return NULL;
}


static int small_stacks(void) {
    static const TkViewClass sc = {"SmallStackView", NULL};
    small_view = tk_view_new(&sc, "small");
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
    pthread_t t;
    int rc = pthread_create(&t, &attr, small_thread, NULL);
    if (rc == 0) pthread_join(t, NULL);
    printf("small stack thread: %s\n", rc == 0 ? "ran" : "not created");
    return 0;
}

static TkView *alt_view2;
static void on_alt2(int sig) {
    (void)sig;
    mark();
    for (int i = 0; i < 101; i++) tk_view_layout(alt_view2);
    mark();
}

static int alt_stack(void) {
    static const TkViewClass ac = {"AltStackView", NULL};
    alt_view2 = tk_view_new(&ac, "alt");
    size_t size = SIGSTKSZ;
    stack_t ss = {.ss_sp = malloc(size), .ss_size = size, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {0};
    sa.sa_handler = on_alt2;
    sa.sa_flags = SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    printf("alt stack handler: ran (%zu bytes)\n", size >= 8192 ? (size_t)8192 : size);
    return 0;
}

/* ---- row 18 ---------------------------------------------------------------------------------- */

static int dlclose_mode(const char *lib) {
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
        printf("dlclose: %s\n", dlerror());
        return 1;
    }
    void (*fn)(void *) = (void (*)(void *))dlsym(h, "rel_module_storm");
    TkViewClass cls = {"ModuleView", NULL};
    TkView *v = tk_view_new(&cls, "module");
    mark();
    fn(v);
    mark();
    dlclose(h);
    /* something else may now be mapped where the module was */
    void *other = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    (void)other;
    storm();
    printf("dlclose: done\n");
    return 0;
}

/* ---- row 22 ---------------------------------------------------------------------------------- */

static int seccomp_mode(void) {
    TkView *v = tk_view_new(&rel_class, "seccomp");
    mark();
    tk_view_layout(v);
    mark();
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdir, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdirat, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getrandom, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
        printf("seccomp: unavailable\n");
        return 0;
    }
    for (int i = 0; i < 1000; i++) {
        mark();
        void *p = malloc((size_t)(i % 300) + 1);
        tk_view_layout(v);
        free(p);
        poll(NULL, 0, 0);
    }
    printf("seccomp: 1000 iterations\n");
    fflush(stdout);
    _exit(0); /* the summary opens a file: not on the hot path, not under this filter */
}

/* ---- row 23 ---------------------------------------------------------------------------------- */

static int count_fds(void) {
    int n = 0;
    for (int fd = 0; fd < 1024; fd++)
        if (fcntl(fd, F_GETFD) != -1) n++;
    return n;
}

static int fds(int n) {
    struct rlimit rl = {64, 64};
    setrlimit(RLIMIT_NOFILE, &rl);
    int before = count_fds();
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "FdType%d", k);
        classes[k].type_name = names[k];
        storm_once(tk_view_new(&classes[k], "fd"));
    }
    /* The report writer thread (the preload's, LOOPHUNTER_REPORT_THREAD) may be writing the last
     * reports: a descriptor of its own is open meanwhile. No leak: the count comes back. */
    int after = count_fds();
    for (int i = 0; i < 5000 && after != before; i++) {
        usleep(1000);
        after = count_fds();
    }
    /* Every descriptor taken: the next report cannot be written; the host goes on. */
    int held[128], h = 0;
    while (h < 128) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd < 0) break;
        held[h++] = fd;
    }
    static const TkViewClass last = {"NoFdLeftView", NULL};
    storm_once(tk_view_new(&last, "nofd"));
    for (int i = 0; i < h; i++) close(held[i]);
    printf("fds: before=%d after=%d breaches=%d exhausted=%s\n", before, after, n, h < 128 ? "yes" : "no");
    return 0;
}

/* ---- row 24 ---------------------------------------------------------------------------------- */

#define ROUND_BLOCKS 2000
static void **handoff[64];

typedef struct Rounder {
    int index, threads;
    pthread_barrier_t *barrier;
    unsigned long allocs, frees;
} Rounder;

static void *rounder(void *arg) {
    Rounder *r = arg;
    void **mine = handoff[r->index];
    for (int i = 0; i < ROUND_BLOCKS; i++) {
        mine[i] = malloc((size_t)(8 + (i * 37 + r->index) % 2000));
        r->allocs++;
    }
    for (int i = 1; i < ROUND_BLOCKS; i += 2) { /* our odd blocks ourselves */
        free(mine[i]);
        r->frees++;
    }
    pthread_barrier_wait(r->barrier);
    void **theirs = handoff[(r->index + 1) % r->threads]; /* the next thread's even blocks */
    for (int i = 0; i < ROUND_BLOCKS; i += 2) {
        free(theirs[i]);
        r->frees++;
    }
    return NULL;
}

static int rounds(int nrounds, int threads) {
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) handoff[i] = calloc(ROUND_BLOCKS, sizeof(void *));
    unsigned long allocs = 0, frees = 0;
    for (int round = 0; round < nrounds; round++) {
        pthread_barrier_t b;
        pthread_barrier_init(&b, NULL, (unsigned)threads);
        pthread_t t[64];
        Rounder r[64];
        for (int i = 0; i < threads; i++) {
            r[i] = (Rounder){i, threads, &b, 0, 0};
            pthread_create(&t[i], NULL, rounder, &r[i]);
        }
        for (int i = 0; i < threads; i++) {
            pthread_join(t[i], NULL);
            allocs += r[i].allocs;
            frees += r[i].frees;
        }
        pthread_barrier_destroy(&b);
        mark();
    }
    printf("rounds: %d x %d threads allocs=%lu frees=%lu\n", nrounds, threads, allocs, frees);
    return allocs == frees ? 0 : 1;
}

/* ---- row 26 ---------------------------------------------------------------------------------- */

static int symlink_mode(void) {
    const char *dir = getenv("LOOPHUNTER_DIR");
    if (!dir) return 2;
    static const TkViewClass first = {"FirstView", NULL}, second = {"SecondView", NULL};
    storm_once(tk_view_new(&first, "first"));
    /* Our first report's name gives the tag: report-<pid>-<tag>-000001-layout-storm.json */
    char prefix[64];
    snprintf(prefix, sizeof prefix, "report-%d-", (int)getpid());
    DIR *d = opendir(dir);
    struct dirent *e;
    char tag[64] = "";
    while (d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            const char *t = e->d_name + strlen(prefix);
            size_t len = strcspn(t, "-");
            if (len < sizeof tag) memcpy(tag, t, len), tag[len] = 0;
        }
    }
    if (d) closedir(d);
    if (!tag[0]) {
        printf("symlink: no first report\n");
        return 1;
    }
    char canary[4096], path[4096];
    snprintf(canary, sizeof canary, "%s/../canary-%d", dir, (int)getpid());
    const char *kinds[] = {"layout-storm", "layout-streak", "alloc-storm", "heap-growth"};
    for (int seq = 2; seq <= 4; seq++) {
        for (int k = 0; k < 4; k++) {
            snprintf(path, sizeof path, "%s/report-%d-%s-%06d-%s.json", dir, (int)getpid(), tag, seq, kinds[k]);
            symlink(canary, path);
            snprintf(path, sizeof path, "%s/.report-%d-%s-%06d-%s.json.tmp", dir, (int)getpid(), tag, seq, kinds[k]);
            symlink(canary, path);
        }
    }
    storm_once(tk_view_new(&second, "second"));
    printf("symlink: planted\n");
    return 0;
}

/* ---- row 27 ---------------------------------------------------------------------------------- */

static int many(int n) {
    TkViewClass *classes = calloc((size_t)n, sizeof *classes);
    char (*names)[32] = calloc((size_t)n, sizeof *names);
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "ManyType%d", k);
        classes[k].type_name = names[k];
        storm_once(tk_view_new(&classes[k], "many"));
    }
    printf("many: %d\n", n);
    return 0;
}

static int killer(int n, int ms, const char *preload, const char *dir, char **argv) {
    srand((unsigned)getpid());
    int killed = 0, finished = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            setenv("LD_PRELOAD", preload, 1);
            setenv("LOOPHUNTER_DIR", dir, 1);
            setenv("LOOPHUNTER_MAX_REPORTS", "1000000", 1);
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            execv(argv[0], argv);
            _exit(127);
        }
        long us = ms > 0 ? rand() % (ms * 1000) : 0;
        nanosleep(&(struct timespec){us / 1000000, (us % 1000000) * 1000}, NULL);
        int st = 0;
        if (kill(pid, SIGKILL) == 0) {
            waitpid(pid, &st, 0);
            if (WIFSIGNALED(st)) killed++;
            else finished++;
        }
    }
    printf("killer: runs=%d\n", n);
    fprintf(stderr, "killer: %d killed mid-run, %d finished first\n", killed, finished);
    return 0;
}

/* ---- row 33 ---------------------------------------------------------------------------------- */

/* `loophunter attach` while every thread is busy: the injected dlopen and loophunter_attach run on
 * the main thread at its poll() while the others hold malloc's arena locks, the loader's lock
 * (dlopen/dlclose) and fork's locks over and over. Every count printed on stdout is a verdict
 * (yes/no, 0 failures), the same in every run; the figures go to stderr. */

typedef struct Busy {
    int index;
    unsigned long allocs, frees, layouts, bad_blocks, bad_frames;
} Busy;

static void fill(unsigned char *p, size_t n, unsigned char seed) {
    for (size_t i = 0; i + 1 < n; i += 61) p[i] = (unsigned char)(seed + i);
    if (n) p[n - 1] = seed;
}

static bool intact(const unsigned char *p, size_t n, unsigned char seed) {
    for (size_t i = 0; i + 1 < n; i += 61)
        if (p[i] != (unsigned char)(seed + i)) return false;
    return n == 0 || p[n - 1] == seed;
}

/* A window > box > 3 labels; each label's text changes, then the window is laid out: every label
 * must end at its preferred width (the box's rule). false: a wrong frame. */
typedef struct BusyTree {
    TkView *window, *labels[3];
} BusyTree;

static BusyTree busy_tree(const char *name) {
    BusyTree t;
    t.window = tk_view_new(&tk_window_class, name);
    TkView *box = tk_view_new(&tk_box_class, "row");
    tk_view_add_child(t.window, box);
    for (int i = 0; i < 3; i++) {
        t.labels[i] = tk_view_new(&tk_label_class, "cell");
        tk_view_add_child(box, t.labels[i]);
    }
    tk_view_set_frame(t.window, (TkRect){0, 0, 640, 480});
    return t;
}

static bool busy_layout(BusyTree *t, unsigned long n) {
    static const char *texts[] = {"a", "bb", "loophunter", "attach", "", "xxxxxxxxxxxxxxxx"};
    for (int i = 0; i < 3; i++) tk_label_set_text(t->labels[i], texts[(n + (unsigned long)i) % 6]);
    tk_view_set_needs_layout(t->window);
    tk_view_layout(t->window);
    for (int i = 0; i < 3; i++) {
        TkRect r;
        tk_view_get_frame(t->labels[i], &r);
        if (r.width != tk_label_preferred_width(t->labels[i])) return false;
    }
    return true;
}

/* One allocation round: malloc, calloc (must be zeroed), realloc (must keep the contents),
 * posix_memalign (must be aligned), aligned_alloc, each filled, checked and freed. */
static void busy_allocs(Busy *b, unsigned long n) {
    enum { K = 12 };
    void *p[K];
    size_t size[K];
    for (int i = 0; i < K; i++) {
        size[i] = (size_t)(1 + (n * 131 + (unsigned long)i * 977) % (i == K - 1 ? 300000 : 4000));
        switch (i % 4) {
        case 0: p[i] = malloc(size[i]); break;
        case 1: {
            p[i] = calloc(1, size[i]);
            const unsigned char *c = p[i];
            for (size_t k = 0; c && k < size[i]; k += 97)
                if (c[k]) b->bad_blocks++;
            break;
        }
        case 2: {
            size_t align = (size_t)64 << (n % 6);
            if (posix_memalign(&p[i], align, size[i]) != 0) p[i] = NULL;
            else if ((uintptr_t)p[i] % align) b->bad_blocks++;
            break;
        }
        default: p[i] = aligned_alloc(32, (size[i] + 31) & ~(size_t)31); break;
        }
        if (!p[i]) {
            b->bad_blocks++;
            continue;
        }
        b->allocs++;
        fill(p[i], size[i], (unsigned char)(n + (unsigned long)i));
    }
    for (int i = 0; i < K; i += 3) { /* grow or shrink a third of them */
        if (!p[i]) continue;
        size_t keep = size[i], to = i % 2 ? size[i] / 2 + 1 : size[i] * 3 + 17;
        void *q = realloc(p[i], to);
        if (!q) {
            b->bad_blocks++;
            continue;
        }
        size_t checked = keep < to ? keep : to;
        /* only the prefix that survived: check the sampled bytes below `checked` */
        const unsigned char *c = q;
        for (size_t k = 0; k + 1 < checked; k += 61)
            if (c[k] != (unsigned char)((unsigned char)(n + (unsigned long)i) + k)) b->bad_blocks++;
        p[i] = q;
        size[i] = to;
        fill(p[i], size[i], (unsigned char)(n + (unsigned long)i));
    }
    for (int i = K - 1; i >= 0; i--) {
        if (!p[i]) continue;
        if (!intact(p[i], size[i], (unsigned char)(n + (unsigned long)i))) b->bad_blocks++;
        free(p[i]);
        b->frees++;
    }
}

static void *busy_worker(void *arg) {
    Busy *b = arg;
    char name[16];
    snprintf(name, sizeof name, "rel-busy-%d", b->index);
    pthread_setname_np(pthread_self(), name);
    BusyTree t = busy_tree(name);
    for (unsigned long n = 0; !atomic_load_explicit(&stop_flag, memory_order_relaxed); n++) {
        poll(NULL, 0, 0); /* an iteration boundary of this thread's own (LoopHunter's view) */
        busy_allocs(b, n);
        if (!busy_layout(&t, n)) b->bad_frames++;
        b->layouts++;
    }
    return NULL;
}

/* Breaches now and then: 101 layouts of one view between two polls (a stack capture per breach). */
static void *busy_breacher(void *arg) {
    Busy *b = arg;
    pthread_setname_np(pthread_self(), "rel-breach");
    static const TkViewClass cls = {"BusyStormView", NULL};
    TkView *v = tk_view_new(&cls, "busy-storm");
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        poll(NULL, 0, 0);
        for (int i = 0; i < 101; i++) tk_view_layout(v);
        b->layouts += 101;
        poll(NULL, 0, 20);
    }
    return NULL;
}

/* A forked child: allocates and lays out (the parent's other threads are gone, their locks were
 * held or not at the fork), then leaves one of two ways. Exit status 0 only if all was right. */
static int busy_child(unsigned long n) {
    Busy b = {0};
    for (unsigned long k = 0; k < 20; k++) busy_allocs(&b, n + k);
    BusyTree t = busy_tree("child");
    bool ok = b.bad_blocks == 0 && b.allocs == b.frees;
    for (unsigned long k = 0; k < 10; k++) ok = busy_layout(&t, n + k) && ok;
    if (!ok) _exit(3);
    /* Not exit(): after a fork in a threaded program only async-signal-safe calls are allowed, and
     * glibc's exit() waits for the atexit lock, which dlclose (__cxa_finalize) in the parent's
     * dlopen thread may have held at the fork: the child would hang, with LoopHunter or without. */
    if (n % 2 == 0) {
        char *args[] = {"/bin/true", NULL};
        execve(args[0], args, environ);
        _exit(4);
    }
    _exit(0);
}

static void *busy_forker(void *arg) {
    Busy *b = arg; /* allocs: children forked; bad_blocks: children that failed */
    pthread_setname_np(pthread_self(), "rel-fork");
    for (unsigned long n = 0; !atomic_load_explicit(&stop_flag, memory_order_relaxed); n++) {
        pid_t pid = fork();
        if (pid == 0) busy_child(n);
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            b->bad_blocks++;
            fprintf(stderr, "attach-busy: child %lu: %s %d\n", n, pid < 0 ? "fork failed" : WIFSIGNALED(st) ? "signal" : "status",
                    pid < 0 ? errno : WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        }
        b->allocs++;
    }
    return NULL;
}

static void *busy_dlopener(void *arg) {
    Busy *b = arg; /* allocs: dlopen+dlclose pairs; bad_blocks: failures */
    pthread_setname_np(pthread_self(), "rel-dl");
    while (!atomic_load_explicit(&stop_flag, memory_order_relaxed)) {
        void *h = dlopen(dl_lib, RTLD_NOW | RTLD_LOCAL);
        int (*marker)(void) = h ? (int (*)(void))dlsym(h, "rel_ctor_marker") : NULL;
        const char *why = !h ? "dlopen" : !marker ? "dlsym" : !marker() ? "marker" : dlclose(h) != 0 ? "dlclose" : NULL;
        if (why != NULL && b->bad_blocks++ < 5) {
            const char *e = strcmp(why, "marker") != 0 ? dlerror() : NULL;
            fprintf(stderr, "attach-busy: %s failed: %s\n", why, e != NULL ? e : "returned 0");
        }
        b->allocs++;
    }
    return NULL;
}

static struct {
    double end;
    const char *stop;
    BusyTree tree;
    TkLoop *loop;
    Busy b;
    unsigned long ticks;
} busy_main;

static bool busy_tick(void *data) {
    (void)data;
    busy_allocs(&busy_main.b, busy_main.ticks);
    if (!busy_layout(&busy_main.tree, busy_main.ticks)) busy_main.b.bad_frames++;
    busy_main.ticks++;
    if (now_s() >= busy_main.end || (busy_main.stop != NULL && access(busy_main.stop, F_OK) == 0)) tk_loop_quit(busy_main.loop);
    return true;
}

static int attach_busy(int secs, int threads, const char *lib, const char *stop) {
    if (threads > 32) threads = 32;
    if (threads < 1) threads = 1;
    dl_lib = lib;
    static Busy w[32], breacher, forker, dlopener;
    pthread_t t[32], tb, tf, td;
    for (int i = 0; i < threads; i++) {
        w[i].index = i;
        pthread_create(&t[i], NULL, busy_worker, &w[i]);
    }
    pthread_create(&tb, NULL, busy_breacher, &breacher);
    pthread_create(&tf, NULL, busy_forker, &forker);
    pthread_create(&td, NULL, busy_dlopener, &dlopener);
    /* The event loop: toykit's (a poll() LoopHunter knows as an event loop's wait), woken by a
     * 5 ms timer whose callback allocates and lays out, and ends the loop at the deadline or when
     * STOP exists. */
    busy_main.end = now_s() + secs;
    busy_main.stop = stop;
    busy_main.tree = busy_tree("main");
    busy_main.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    tk_loop_add_timer(busy_main.loop, 5, busy_tick, NULL);
    unsigned long n = tk_loop_run(busy_main.loop, 0);
    Busy main_loop = busy_main.b;
    atomic_store(&stop_flag, true);
    Busy total = main_loop;
    for (int i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        total.allocs += w[i].allocs;
        total.frees += w[i].frees;
        total.layouts += w[i].layouts;
        total.bad_blocks += w[i].bad_blocks;
        total.bad_frames += w[i].bad_frames;
    }
    pthread_join(tb, NULL);
    pthread_join(tf, NULL);
    pthread_join(td, NULL);
    tk_loop_free(busy_main.loop);
    bool ok = total.allocs == total.frees && total.bad_blocks == 0 && total.bad_frames == 0 && total.layouts > 0
              && forker.bad_blocks == 0 && forker.allocs > 0 && dlopener.bad_blocks == 0 && dlopener.allocs > 0
              && breacher.layouts > 0 && n > 0;
    printf("attach-busy: threads=%d allocs=frees:%s blocks_bad=%lu frames_bad=%lu forks_failed=%lu dlopen_failed=%lu\n",
           threads, total.allocs == total.frees ? "yes" : "no", total.bad_blocks, total.bad_frames, forker.bad_blocks,
           dlopener.bad_blocks);
    printf("attach-busy: %s\n", ok ? "done" : "FAILED");
    fprintf(stderr, "attach-busy: %lu iterations, %lu allocations, %lu layouts, %lu forks, %lu dlopens, %lu storm layouts\n",
            n, total.allocs, total.layouts, forker.allocs, dlopener.allocs, breacher.layouts);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "threads-capture") && argc == 3) return threads_capture(atoi(argv[2]));
    if (!strcmp(m, "signals") && argc == 4) return signals(atoi(argv[2]), atoi(argv[3]));
    if (!strcmp(m, "dlopen-storm") && argc == 4) return dlopen_storm(atoi(argv[2]), argv[3]);
    if (!strcmp(m, "dlopen-preload") && argc >= 3) return dlopen_preload(argc, argv);
    if (!strcmp(m, "thread-reuse")) return thread_reuse();
    if (!strcmp(m, "fork-storm") && argc == 4) return fork_storm(atoi(argv[2]), atoi(argv[3]));
    if (!strcmp(m, "fork-walk") && argc == 3) return fork_walk(atoi(argv[2]));
    if (!strcmp(m, "fork-half-locked")) return fork_half_locked();
    if (!strcmp(m, "spawn")) return spawn(argv[0]);
    if (!strcmp(m, "storm")) return storm();
    if (!strcmp(m, "setxid")) return setxid();
    if (!strcmp(m, "preload-visible")) return preload_visible();
    if (!strcmp(m, "app-signals")) return app_signals();
    if (!strcmp(m, "exit-order")) return exit_order();
    if (!strcmp(m, "jit") && argc == 3) return jit(argv[2]);
    if (!strcmp(m, "small-stacks")) return small_stacks();
    if (!strcmp(m, "alt-stack")) return alt_stack();
    if (!strcmp(m, "dlclose") && argc == 3) return dlclose_mode(argv[2]);
    if (!strcmp(m, "seccomp")) return seccomp_mode();
    if (!strcmp(m, "fds") && argc == 3) return fds(atoi(argv[2]));
    if (!strcmp(m, "rounds") && argc == 4) return rounds(atoi(argv[2]), atoi(argv[3]));
    if (!strcmp(m, "symlink")) return symlink_mode();
    if (!strcmp(m, "many") && argc == 3) return many(atoi(argv[2]));
    if (!strcmp(m, "attach-busy") && (argc == 5 || argc == 6))
        return attach_busy(atoi(argv[2]), atoi(argv[3]), argv[4], argc == 6 ? argv[5] : NULL);
    if (!strcmp(m, "killer") && argc >= 7) return killer(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5], argv + 6);
    fprintf(stderr, "lh_rel: unknown mode (see the comment at the top of lh_rel.c)\n");
    return 2;
}
