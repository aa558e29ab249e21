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
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_cause.h"
#include "lh_detectors.h"
#include "lh_io.h"
#include "lh_symbols.h"

extern char **environ;

lh_process lh_proc;
/* The watched-block filter (lh_runtime.h): zero-filled data, a page touched only where a watched
 * address hashes. Relaxed counters (a hint; see lh_watch_block). */
_Atomic uint16_t lh_watched_blocks[LH_WATCH_SLOTS];
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

static void after_fork_child(void) {
    /* Runs in the child of fork(), single-threaded: reset what belongs to the parent. */
    uint64_t epoch = lh_load_relaxed(&lh_proc.epoch_next);
    read_identity();
    lh_table_clear(&lh_proc.table);
    lh_thread_after_fork();
    lh_breach_after_fork();
    lh_summary_after_fork();
    LH_EVERY_DETECTOR(after_fork);
    lh_store_relaxed(&lh_proc.records_exhausted, 0);
    lh_store_relaxed(&lh_proc.recycled_threads, 0);
    lh_store_relaxed(&lh_proc.recycled_iterations, 0);
    lh_store_relaxed(&lh_proc.recycled_layout_calls, 0);
    lh_store_relaxed(&lh_proc.epoch_next, epoch); /* stays unique */
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

bool lh_init_slow(void) {
    int expected = LH_STATE_UNINIT;
    /* acquire on failure: a thread that lost sees the winner's published state. */
    if (!lh_cas_acquire_both(&lh_state, &expected, LH_STATE_INITIALIZING))
        return expected == LH_STATE_READY;
    LH_GUARDED(&lh_tls_data);
    int next = LH_STATE_OFF;

    lh_config_load(&lh_proc.cfg, environ, (unsigned)geteuid(), keep_message, NULL);
    lh_proc.cfg.families |= LH_FAMILY_PROCESS; /* not selectable: on whenever LoopHunter is */
    if (lh_proc.cfg.disable) goto out;
    read_identity();
    lh_memory_init();
    ssize_t n = readlink("/proc/self/exe", lh_proc.exe, sizeof lh_proc.exe - 1);
    lh_proc.exe[n > 0 ? n : 0] = '\0';

    int err = lh_table_init(&lh_proc.table, lh_proc.cfg.table_slots);
    if (err == 0) {
        lh_table *tb = &lh_proc.table;
        lh_note_mapping("table: slots", tb->slots, tb->capacity * sizeof(lh_slot));
        lh_note_mapping("table: sizes", (const void *)tb->sizes, tb->capacity * LH_SIZE_RING * sizeof(uint64_t));
        lh_note_mapping("table: allocation figures", tb->allocs, tb->capacity * sizeof(lh_slot_alloc));
    }
    if (err == 0) err = lh_thread_init();
    if (err != 0) {
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
    if (lh_load_relaxed(&lh_proc.loop_range_count) > 0) lh_prepare_for_breaches();
    pthread_atfork(NULL, NULL, after_fork_child);
    next = LH_STATE_READY;
out:
    /* release: publishes everything initialised above to lh_active's acquire load. */
    lh_store_release(&lh_state, next);
    LH_EVERY_DETECTOR(started, next == LH_STATE_READY); /* the malloc hooks count from now on */
    return next == LH_STATE_READY;
}

__attribute__((constructor)) static void lh_constructor(void) {
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
