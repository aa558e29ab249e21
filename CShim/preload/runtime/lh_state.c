/*
 * lh_state.c — the process's LoopHunter state: lazy initialisation, the constructor and destructor,
 * and what a forked child resets. Start-up, fork and exit reach the detectors through their table
 * and the report layer through its lifetime functions (lh_breach.h).
 *
 * Initialisation may run before main, from our constructor or from whichever hook is called first
 * (another preload's constructor may call poll() before ours runs), in any thread. It reads the
 * environment, maps its memory with mmap, resolves originals (lh_symbols.h), and writes at most one
 * stderr line per problem. Exactly one thread initialises (compare-and-swap); a thread that finds
 * initialisation in progress forwards its call uncounted rather than wait.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_unwind.h"
#include "lh_cause.h"
#include "lh_detectors.h"
#include "lh_io.h"
#include "lh_symbols.h"
#include "lh_writer.h"

extern char **environ;

lh_process lh_proc;
/* The watched-block filter (lh_runtime.h): zero-filled data, a page touched only where a watched
 * address hashes. Relaxed counters (a hint; see lh_watch_block). */
_Atomic uint16_t lh_watched_blocks[LH_WATCH_SLOTS] LH_LARGE_TABLE(watched_blocks);
_Atomic uint64_t lh_watched_total;
_Atomic int lh_state;

static void keep_message(void *ctx, const char *line) {
    (void)ctx;
    lh_diag(line);
    if (lh_proc.message_count < LH_MAX_CONFIG_MESSAGES) {
        size_t n = strnlen(line, LH_CONFIG_MESSAGE_LEN - 1);
        memcpy(lh_proc.messages[lh_proc.message_count], line, n);
        lh_proc.messages[lh_proc.message_count][n] = '\0';
        lh_proc.message_count++;
    }
}

void lh_say(const char *a, const char *b, const char *c) {
    char mem[LH_CONFIG_MESSAGE_LEN + 256];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, a);
    lh_buf_put_clipped(&line, b, 200);
    lh_buf_put(&line, c);
    keep_message(NULL, line.data);
}

static uint64_t random_tag(void) {
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v && v != 0) return v;
    /* No entropy yet (early boot): mix time, pid and an address. Uniqueness per run is all we need. */
    v = lh_wall_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&v;
    v ^= v >> 31;
    v *= UINT64_C(0x9E3779B97F4A7C15);
    return v != 0 ? v : 1;
}

static void read_identity(void) {
    int parent = lh_proc.pid;
    lh_proc.pid = (int)getpid();
    if (lh_sandboxed()) {
        /* A child forked inside a sandbox (no getppid, no getrandom): its parent is the process we
         * were, and its tag is ours mixed with its pid. */
        lh_proc.ppid = parent;
        uint64_t v = lh_proc.run_tag ^ ((uint64_t)lh_proc.pid << 32) ^ lh_now_ns();
        v *= UINT64_C(0x9E3779B97F4A7C15);
        lh_proc.run_tag = v != 0 ? v : 1;
    } else {
        lh_proc.ppid = (int)getppid();
        lh_proc.run_tag = random_tag();
    }
    lh_proc.start_ns = lh_now_ns();
    lh_proc.start_wall_ns = lh_wall_ns();
}

/* A relative LOOPHUNTER_DIR is taken relative to the working directory at start-up (the program
 * may chdir later). */
static bool make_dir_absolute(void) {
    lh_config *cfg = &lh_proc.cfg;
    if (cfg->dir[0] == '/') return true;
    char cwd[2048], joined[sizeof cfg->dir];
    if (getcwd(cwd, sizeof cwd) == NULL) {
        lh_say("loophunter: LOOPHUNTER_DIR=\"", cfg->dir,
            "\" is relative and the working directory is unknown; reports will not be written");
        return false;
    }
    lh_buf b;
    lh_buf_init(&b, joined, sizeof joined);
    lh_buf_put(&b, cwd);
    lh_buf_putc(&b, '/');
    lh_buf_put(&b, cfg->dir);
    if (b.overflow || b.len >= sizeof cfg->dir - 128) {
        lh_say("loophunter: LOOPHUNTER_DIR=\"", cfg->dir, "\" is too long once made absolute; reports will not be written");
        return false;
    }
    memcpy(cfg->dir, joined, b.len + 1);
    return true;
}

static void prepare_dir(void) {
    lh_proc.dir_ok = false;
    if (!make_dir_absolute()) return;
    lh_buf why;
    lh_buf_init(&why, lh_proc.dir_problem, sizeof lh_proc.dir_problem);
    if (lh_dir_prepare(lh_proc.cfg.dir, &why) == 0) {
        lh_proc.dir_ok = true;
        return;
    }
    char mem[LH_CONFIG_MESSAGE_LEN + 256];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, "loophunter: report directory \"");
    lh_buf_put_clipped(&line, lh_proc.cfg.dir, 120);
    lh_buf_put(&line, "\" ");
    lh_buf_put(&line, lh_proc.dir_problem);
    lh_buf_put(&line, "; reports will not be written (set LOOPHUNTER_DIR to a private directory)");
    keep_message(NULL, line.data);
}

/* What was counted so far is forgotten: in the child of fork (`threads`: only the forking one is
 * left) and at a later attach session (the threads live on). */
static void forget_counts(void (*threads)(void)) {
    uint64_t epoch = lh_load_relaxed(&lh_proc.epoch_next);
    lh_table_clear(&lh_proc.table);
    threads();
    lh_breach_after_fork();
    lh_summary_after_fork();
    LH_EVERY_DETECTOR(after_fork);
    lh_store_relaxed(&lh_proc.records_exhausted, 0);
    lh_store_relaxed(&lh_proc.recycled_threads, 0);
    lh_store_relaxed(&lh_proc.recycled_iterations, 0);
    lh_store_relaxed(&lh_proc.recycled_layout_calls, 0);
    lh_store_relaxed(&lh_proc.epoch_next, epoch); /* stays unique */
}

static void after_fork_child(void) {
    /* Runs in the child of fork(), single-threaded: reset what belongs to the parent. First of
     * all, whether the modules can still be walked the loader's way (lh_loader_lock.c). */
    if (lh_loader_lock_held_in_child()) lh_modules_freeze();
    read_identity();
    forget_counts(lh_thread_after_fork);
    if (lh_proc.attached) {
        /* A child of a process `loophunter attach` watches is not in the session (the command
         * watches one pid and can neither detach nor read this one): LoopHunter is idle here, as
         * between sessions. It must be: the parent's other threads may have held the loader's
         * write lock at the fork (a dlopen, a dlclose, a dl_iterate_phdr: our own at every
         * iteration boundary while attached), which glibc does not reset in the child, and the
         * session's work (the summary at exec or exit, module rescans, stack captures) walks the
         * modules under that lock: the child hung in its execve (reliability row 33). The GOT
         * entries it inherited still lead to our wrappers, which forward when not ready. */
        lh_proc.attached = false;
        lh_store_relaxed(&lh_proc.attach_iteration, NULL);
        /* release: pairs with lh_active's acquire (nothing new is published; single-threaded). */
        lh_store_release(&lh_state, LH_STATE_DETACHED);
        LH_EVERY_DETECTOR(detached); /* the watchdog's: nothing to stop (after_fork said so) */
    }
}

void lh_prepare_for_breaches(void) {
    static _Atomic int done;
    int expected = 0;
    /* relaxed: a once-flag; what it guards publishes itself (originals are atomic pointers, the
     * scratch area is taken with its own flag). */
    if (!lh_cas_relaxed(&done, &expected, 1)) return;
    LH_GUARDED(&lh_tls_data); /* dlopen allocates and may call hooks: they forward */
    lh_hooks_resolve();
    if (lh_unwinder_load()) lh_prime_unwinder();
    lh_breach_prepare();
}

/* Maps what LoopHunter keeps for the life of the process: once, at the first start-up (a later
 * attach session reuses it). false when something could not be mapped. */
static bool map_process_memory(void) {
    static bool mapped;
    if (mapped) return true;
    lh_memory_init();
    int err = lh_table_init(&lh_proc.table, lh_proc.cfg.table_slots);
    if (err == 0) {
        lh_table *tb = &lh_proc.table;
        lh_note_mapping("table: slots", tb->slots, tb->capacity * sizeof(lh_slot));
        lh_note_mapping("table: sizes", (const void *)tb->sizes, tb->capacity * LH_SIZE_RING * sizeof(uint64_t));
        lh_note_mapping("table: allocation figures", tb->allocs, tb->capacity * sizeof(lh_slot_alloc));
    }
    if (err == 0) err = lh_thread_init();
    if (err != 0) return false;
    pthread_atfork(lh_loader_lock_before_fork, NULL, after_fork_child);
    mapped = true;
    return true;
}

/* A later attach session of this process: what the last one counted is forgotten, as in a child
 * of fork, except that the threads live on (lh_thread_new_session). */
static void forget_last_session(void) {
    lh_proc.new_session = true;
    forget_counts(lh_thread_new_session);
    lh_proc.new_session = false;
    lh_proc.message_count = 0;
}

/* Start-up from state `from` (UNINIT: the preload's first hook or constructor; DETACHED: an attach
 * session) with the configuration in `env`. */
static bool start(char **env, int from) {
    int expected = from;
    /* acquire on failure: a thread that lost sees the winner's published state. */
    if (!lh_cas_acquire_both(&lh_state, &expected, LH_STATE_INITIALIZING))
        return expected == LH_STATE_READY;
    LH_GUARDED(&lh_tls_data);
    int next = from == LH_STATE_DETACHED ? LH_STATE_DETACHED : LH_STATE_OFF;
    bool again = lh_proc.records != NULL; /* a session after an earlier one */
    if (again) forget_last_session();

    lh_config_load(&lh_proc.cfg, env, (unsigned)geteuid(), keep_message, NULL);
    lh_proc.cfg.families |= LH_FAMILY_PROCESS; /* not selectable: on whenever LoopHunter is */
    if (lh_proc.cfg.disable) goto out;
    read_identity();
    ssize_t n = readlink("/proc/self/exe", lh_proc.exe, sizeof lh_proc.exe - 1);
    lh_proc.exe[n > 0 ? n : 0] = '\0';
    if (!map_process_memory()) {
        lh_say("loophunter: could not map ", "its tables", "; LoopHunter is off for this process");
        goto out;
    }
    if ((lh_proc.cfg.families & LH_FAMILY_LAYOUT) != 0 && lh_cause_init() != 0)
        lh_say("loophunter: could not map ", "the cause records", "; layout requests are not followed to their causes");
    prepare_dir();
    lh_store_relaxed(&lh_proc.loop_scan_generation, lh_modules_generation());
    lh_loop_scan_libraries();
    lh_loop_find_interposers();
    lh_modules_range_of((const void *)lh_init_slow, &lh_proc.self_range);
    lh_unwinder_init();
    lh_breach_init();
    lh_detectors_init();
    /* A process with an event-loop library is a GUI program: do the costly set-up now (libunwind's
     * first capture takes 0.3-1 ms). Any other process does it when a thread first lays out or
     * runs a known loop (lh_thread_record), if ever: /bin/true or curl never pays it. */
    lh_proc.attached = from == LH_STATE_DETACHED;
    if (lh_load_relaxed(&lh_proc.loop_range_count) > 0) lh_prepare_for_breaches();
    next = LH_STATE_READY;
out:
    /* release: publishes everything initialised above to lh_active's acquire load. */
    lh_store_release(&lh_state, next);
    LH_EVERY_DETECTOR(started, next == LH_STATE_READY); /* the malloc hooks count from now on */
    if (next == LH_STATE_READY && again) LH_EVERY_DETECTOR(attached);
    return next == LH_STATE_READY;
}

bool lh_init_slow(void) { return start(environ, LH_STATE_UNINIT); }

int lh_session_begin(char **env) {
    if (lh_load_acquire(&lh_state) != LH_STATE_DETACHED) return -1;
    if (!start(env, LH_STATE_DETACHED)) return lh_load_acquire(&lh_state) == LH_STATE_DETACHED ? -2 : -1;
    lh_summary_start();
    return 0;
}

void lh_session_end(void) {
    LH_GUARDED(&lh_tls_data);
    /* The summary first (it needs the ready state), then nothing counts any more: the hooks still
     * reached (a call already inside a wrapper, a vtable slot not yet given back) forward. */
    lh_summary_leaving(LH_SUMMARY_DETACHED);
    lh_proc.attached = false;
    /* release: pairs with lh_active's acquire; a thread that still sees READY counts into memory
     * that stays mapped. */
    lh_store_release(&lh_state, LH_STATE_DETACHED);
    LH_EVERY_DETECTOR(detached);
    lh_writer_stop(); /* no thread of ours is left */
}

/* Whether libc comes before this library in the loader's list: a preloaded library (and one a
 * program links) comes before the libraries it needs, one loaded with dlopen later comes after. */
static int late_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    int *verdict = arg;
    if (lh_module_contains(info, (uintptr_t)lh_loaded_late)) {
        *verdict = 0;
        return 1;
    }
    const char *name = info->dlpi_name != NULL ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    if (strcmp(base != NULL ? base + 1 : name, "libc.so.6") == 0) {
        *verdict = 1;
        return 1;
    }
    return 0;
}

bool lh_loaded_late(void) {
    int verdict = 0;
    lh_modules_iterate(late_cb, &verdict);
    return verdict == 1;
}

__attribute__((constructor)) static void lh_constructor(void) {
    if (lh_load_acquire(&lh_state) == LH_STATE_UNINIT && lh_loaded_late()) {
        /* Loaded by `loophunter attach`: nothing starts until a session does (loophunter_attach). */
        int expected = LH_STATE_UNINIT;
        /* relaxed: nothing is published with it. */
        lh_cas_relaxed(&lh_state, &expected, LH_STATE_DETACHED);
        return;
    }
    if (lh_load_acquire(&lh_state) == LH_STATE_UNINIT && lh_config_disabled(environ)) {
        /* LOOPHUNTER_DISABLE: off before anything else is read, mapped or looked up (every hook
         * forwards; the malloc family finds its originals at its first call). relaxed: nothing is
         * published with it; a hook that initialised us first already decided. */
        int expected = LH_STATE_UNINIT;
        lh_cas_relaxed(&lh_state, &expected, LH_STATE_OFF);
        return;
    }
    if (lh_load_acquire(&lh_state) == LH_STATE_UNINIT) lh_init_slow();
    /* The summary is kept current from now on (not inside a hook that initialised us: that may be
     * a signal handler). */
    if (lh_load_acquire(&lh_state) == LH_STATE_READY) lh_summary_start();
}

/* ELF destructors run after the host's exit handlers (we were initialised first). fd 2 may be
 * closed by then, so nothing here relies on stderr. */
__attribute__((destructor)) static void lh_destructor(void) {
    if (lh_load_acquire(&lh_state) == LH_STATE_READY) lh_summary_write();
}

void *lh_lazy_map_now(lh_lazy_map *m, size_t bytes) {
    int st = 0;
    if (!lh_cas_relaxed(&m->state, &st, 1)) return lh_lazy_map_peek(m); /* another thread maps (or mapped) it */
    void *mem = lh_map(m->what, bytes);
    if (mem == NULL) {
        lh_store_relaxed(&m->state, 3);
        return NULL;
    }
    m->mem = mem;
    lh_store_release(&m->state, 2); /* release: publishes `mem` (pairs with lh_lazy_map_peek) */
    return mem;
}
