/*
 * lh_summary.c — the per-process summary file: what was counted, what was reported, suppressed or
 * lost, the configuration used. The runtime's own sections are written here; each detector writes
 * its sections and its fields of each thread's entry (its summary and thread_summary callbacks),
 * each toolkit adapter its own, and the toolkits found in the process are named.
 *
 * When it is written. The same file (summary-<pid>-<tag>.json, replaced atomically: a reader sees
 * one whole version) is
 *   - first written as soon as the process is worth a summary: at start-up for a child of
 *     `loophunter run` (LOOPHUNTER_LAUNCHER_PID), else at the first event-loop iteration boundary
 *     after it ran a loop, laid out or breached; then rewritten at most every
 *     LOOPHUNTER_SUMMARY_INTERVAL_MS from an iteration boundary, "state": "running";
 *   - written for good when the process leaves: at exit (the ELF destructor, "exited"), in an
 *     interposed _exit/_Exit ("_exit"), and before an interposed exec forwards ("exec"; after an
 *     exec that failed the process runs on and the next refresh says "running" again).
 * A process killed (SIGKILL, a crash) keeps its last "running" version. Inside a seccomp sandbox
 * the summary is spooled at exit and _exit only (no refresh: every record would stay in the spool);
 * the version kept current until then is removed as the sandbox is entered (lh_summary_to_spool),
 * so the spool's is the process's only summary.
 *
 * Contracts. A refresh runs on a loop thread at an iteration boundary (the wait of an event-loop
 * library returned, or the program marked an iteration): never in a signal handler, never while
 * the loop library holds its own lock (it polls without it), never on a layout or malloc path: the
 * boundary checks one relaxed load against the clock it already read (lh_summary_tick). One thread
 * per interval wins a compare-and-swap of the due time; it then takes `busy` (a try-flag: a
 * refresh that finds it taken skips its turn). The leaving writers (exit, _exit, exec) take `busy`
 * too, waiting at most LEAVE_WAIT_MS for a refresh in flight (the holder never waits for anything
 * itself); past that, or when the holder is their own thread (a signal handler that interrupted
 * our refresh), they write from a buffer of their own under another temporary name. A final
 * version keeps `busy` held: nothing replaces it afterwards. The text is built in an mmap'd
 * buffer mapped once and kept (under `busy`). Other threads' counters are read with relaxed loads
 * (a number may be one call stale). fd 2 may already be closed: nothing here writes to it.
 *
 * Only the process itself writes its summary: a vfork child (which shares our memory) or anything
 * else whose pid (the raw system call) is not lh_proc.pid writes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_io.h"
#include "lh_json.h"
#include "lh_writer.h"

#define SUMMARY_BYTES (1024 * 1024)
#define SUMMARY_SCRATCH 8192 /* at the end of the buffer: the file names */
#define LEAVE_WAIT_MS 100

static void config_entry(void *ctx, const char *name, const char *text, uint64_t number, int kind) {
    lh_json *j = ctx;
    if (kind == 0) {
        lh_json_u64(j, name, number);
    } else if (kind == 1) {
        lh_json_bool(j, name, number != 0);
    } else {
        lh_json_string(j, name, text);
    }
}


/* A live thread's current name, from /proc (the owner cannot be asked). */
static void live_thread_name(int tid, char name[16]) {
    if (lh_sandboxed()) return; /* no /proc inside a sandbox: the name it had at its record's claim */
    char path[64];
    lh_buf b;
    lh_buf_init(&b, path, sizeof path);
    lh_buf_put(&b, "/proc/self/task/");
    lh_buf_u64(&b, (uint64_t)tid);
    lh_buf_put(&b, "/comm");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    char buf[16];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0')) n--;
    memcpy(name, buf, (size_t)n);
    name[n] = '\0';
}

static uint64_t record_layout_calls(const lh_thread_rec *r) {
    uint64_t sum = 0;
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++)
        if (lh_hook_counts_layouts(h)) sum += lh_load_relaxed(&r->hook_calls[h]);
    return sum;
}

static void threads_json(lh_json *j, uint64_t *iterations, uint64_t *layout_calls) {
    lh_json_begin_array(j, "threads");
    size_t high = lh_load_relaxed(&lh_proc.records_high);
    for (size_t i = 0; i < high; i++) {
        const lh_thread_rec *r = &lh_proc.records[i];
        /* acquire: a DONE record's final counters are visible (release in thread_exit). */
        uint32_t state = lh_load_acquire(&r->state);
        if (state == LH_REC_FREE) continue;
        char name[16];
        memcpy(name, r->name, sizeof name);
        name[15] = '\0';
        int tid = (int)lh_load_relaxed(&r->tid);
        if (state == LH_REC_LIVE) live_thread_name(tid, name);
        *iterations += lh_load_relaxed(&r->iterations);
        *layout_calls += record_layout_calls(r);

        lh_json_begin_object(j, NULL);
        lh_json_i64(j, "tid", tid);
        lh_json_string(j, "name", name);
        lh_json_string(j, "state", state == LH_REC_LIVE ? "running" : "exited");
        lh_json_u64(j, "iterations", lh_load_relaxed(&r->iterations));
        lh_json_u64(j, "frames", lh_load_relaxed(&r->frames));
        LH_EVERY_DETECTOR(thread_summary, j, i, state == LH_REC_LIVE);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

static void hooks_json(lh_json *j) {
    lh_json_begin_array(j, "hooks");
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++) {
        uint64_t calls = 0;
        size_t high = lh_load_relaxed(&lh_proc.records_high);
        for (size_t i = 0; i < high; i++)
            if (lh_load_acquire(&lh_proc.records[i].state) != LH_REC_FREE)
                calls += lh_load_relaxed(&lh_proc.records[i].hook_calls[h]);
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "name", lh_hooks[h].name);
        lh_json_string(j, "family", lh_hook_family_name(h));
        lh_json_string(j, "toolkit", lh_hooks[h].toolkit != NULL ? lh_hooks[h].toolkit->name : NULL);
        lh_json_bool(j, "enabled", (lh_proc.cfg.families & lh_hooks[h].family) != 0);
        /* resolved: the original was looked up (the host called it, or the process looked like a
         * GUI program at start-up) and found. Not looked up at exit: the summary reads, it does not resolve. */
        lh_json_bool(j, "resolved", lh_hooks[h].real == NULL || __atomic_load_n(lh_hooks[h].real, __ATOMIC_RELAXED) != NULL);
        if (lh_hooks[h].family == LH_FAMILY_ALLOC) {
            lh_json_null(j, "calls"); /* counted as a family: the summary's `alloc` */
        } else {
            lh_json_u64(j, "calls", calls);
        }
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

static const char *const state_names[] = {
    [LH_SUMMARY_RUNNING] = "running",
    [LH_SUMMARY_EXITED] = "exited",
    [LH_SUMMARY__EXIT] = "_exit",
    [LH_SUMMARY_EXEC] = "exec",
    [LH_SUMMARY_DETACHED] = "detached",
};

static void compose(lh_json *j, lh_summary_state state) {
    uint64_t now_wall = lh_wall_ns();
    char started[40], ended[40], id[48];
    lh_buf b;
    lh_buf_init(&b, started, sizeof started);
    lh_format_time(&b, lh_proc.start_wall_ns);
    lh_buf_init(&b, ended, sizeof ended);
    lh_format_time(&b, now_wall);
    lh_buf_init(&b, id, sizeof id);
    lh_buf_hex(&b, lh_proc.run_tag, 16);
    lh_buf_putc(&b, '-');
    lh_buf_u64(&b, (uint64_t)lh_proc.pid);

    lh_json_begin_object(j, NULL);
    lh_json_string(j, "schema", "loophunter/summary");
    lh_json_string(j, "version", LH_SCHEMA_VERSION);
    lh_json_string(j, "id", id);
    lh_json_string(j, "loophunter_version", LH_VERSION_STRING);
    lh_json_begin_object(j, "process");
    lh_json_i64(j, "pid", lh_proc.pid);
    lh_json_i64(j, "ppid", lh_proc.ppid);
    lh_json_string(j, "executable", lh_proc.exe);
    lh_json_end_object(j);
    lh_json_string(j, "state", state_names[state]);
    lh_json_string(j, "started", started);
    lh_json_string(j, "updated", ended);
    lh_json_string(j, "ended", ended); /* (schema 1.4 readers: the time of this version) */
    lh_json_u64(j, "duration_ms", (lh_now_ns() - lh_proc.start_ns) / 1000000);

    lh_memory_json(j);

    lh_json_begin_object(j, "config");
    lh_config_visit(&lh_proc.cfg, config_entry, j);
    lh_json_end_object(j);
    lh_json_begin_array(j, "config_messages");
    for (size_t i = 0; i < lh_proc.message_count; i++) lh_json_string(j, NULL, lh_proc.messages[i]);
    lh_json_end_array(j);

    lh_json_begin_object(j, "iteration_source");
    lh_json_begin_array(j, "loop_libraries");
    for (size_t i = 0; i < lh_proc.cfg.loop_lib_count; i++) lh_json_string(j, NULL, lh_proc.cfg.loop_lib[i]);
    lh_json_end_array(j);
    size_t ranges = lh_load_acquire(&lh_proc.loop_range_count);
    lh_json_u64(j, "loop_code_ranges", ranges);
    lh_json_bool(j, "every_wait_is_an_iteration", ranges == 0);
    lh_json_end_object(j);

    hooks_json(j);
    uint64_t iterations = 0, layout_calls = 0;
    threads_json(j, &iterations, &layout_calls);
    lh_json_begin_object(j, "recycled_threads");
    lh_json_u64(j, "threads", lh_load_relaxed(&lh_proc.recycled_threads));
    lh_json_u64(j, "iterations", lh_load_relaxed(&lh_proc.recycled_iterations));
    lh_json_u64(j, "layout_calls", lh_load_relaxed(&lh_proc.recycled_layout_calls));
    lh_json_end_object(j);
    lh_json_u64(j, "threads_without_record", lh_load_relaxed(&lh_proc.records_exhausted));
    lh_json_u64(j, "iterations", iterations + lh_load_relaxed(&lh_proc.recycled_iterations));
    lh_json_u64(j, "layout_calls", layout_calls + lh_load_relaxed(&lh_proc.recycled_layout_calls));

    lh_json_begin_object(j, "table");
    lh_json_u64(j, "slots", lh_proc.table.capacity);
    lh_json_u64(j, "objects", lh_load_relaxed(&lh_proc.table.used));
    lh_json_u64(j, "dropped_calls", lh_load_relaxed(&lh_proc.table.dropped));
    lh_json_end_object(j);

    /* `loophunter attach` (schema 1.9): what the session's GOT patching did; null under the preload. */
    if (lh_proc.attached || state == LH_SUMMARY_DETACHED) {
        lh_json_begin_object(j, "attach");
        lh_json_u64(j, "modules", lh_load_relaxed(&lh_proc.got_modules));
        lh_json_u64(j, "entries_redirected", lh_load_relaxed(&lh_proc.got_redirected));
        lh_json_u64(j, "entries_left", lh_load_relaxed(&lh_proc.got_left));
        lh_json_u64(j, "entries_unwritable", lh_load_relaxed(&lh_proc.got_unwritable));
        uint64_t first = lh_load_relaxed(&lh_proc.attach_first_iteration_ns);
        if (first != 0) lh_json_u64(j, "first_iteration_ns", first);
        else lh_json_null(j, "first_iteration_ns");
        static const char *const ended_by[] = {
            [LH_ATTACH_END_NONE] = NULL, [LH_ATTACH_END_COMMAND] = "command", [LH_ATTACH_END_DEADLINE] = "deadline",
            [LH_ATTACH_END_OWNER] = "command gone", [LH_ATTACH_END_REPLACED] = "replaced", [LH_ATTACH_END_FAILED] = "failed",
        };
        int why = lh_proc.attach_ended_by;
        if (why > 0 && why <= LH_ATTACH_END_FAILED) lh_json_string(j, "ended_by", ended_by[why]);
        else lh_json_null(j, "ended_by");
        lh_json_end_object(j);
    } else {
        lh_json_null(j, "attach");
    }
    lh_breach_summary(j);
    lh_toolkit_found_json(j);
    for (size_t i = 0; lh_toolkits[i] != NULL; i++)
        if (lh_toolkits[i]->summary != NULL) lh_toolkits[i]->summary(j);
    LH_EVERY_DETECTOR(summary, j);
    lh_sandbox_summary(j);
    lh_json_end_object(j);
}

/* ---- when ------------------------------------------------------------------------------------- */

_Atomic uint64_t lh_summary_due_ns = UINT64_MAX; /* relaxed: the next refresh's time; MAX: none */
static _Atomic int busy;        /* try-flag: the tid of the writer (acquire/release around a write) */
static _Atomic int final_done;  /* a final version was written (under busy) */
static _Atomic int file_made;   /* the file exists (ours): later versions replace it */
static char *buffer;            /* mapped once, used under busy */

/* The process's own pid, from the kernel (never a cached value: a vfork child shares ours), without
 * going through syscall(), which is one of our hooks. */
static int raw_getpid(void) {
#if defined(__x86_64__)
    long pid;
    __asm__ volatile("syscall" : "=a"(pid) : "0"((long)SYS_getpid) : "rcx", "r11", "memory");
    return (int)pid;
#else
    return (int)syscall(SYS_getpid);
#endif
}

/* A child of `loophunter run` (LOOPHUNTER_LAUNCHER_PID), or a process `loophunter attach` watches:
 * always worth a summary, so the command can tell "loaded, saw no event loop" from "never loaded". */
static bool launched(void) {
    return lh_proc.attached || (lh_proc.cfg.launcher_pid != 0 && (uint64_t)lh_proc.ppid == lh_proc.cfg.launcher_pid);
}

/* A process that never ran an event-loop iteration, laid anything out or breached (a shell, a
 * compiler started by the program under test) gets no summary unless `loophunter run` started it:
 * nothing to say, and thousands of empty summaries would bury the one that matters. */
static bool worth_a_summary(void) {
    return lh_load_relaxed(&lh_proc.records_high) > 0 || lh_breach_any() || launched();
}

static void reset_due(uint64_t now) {
    uint64_t interval = lh_proc.cfg.summary_interval_ms;
    lh_store_relaxed(&lh_summary_due_ns, interval == 0 || lh_sandboxed() ? UINT64_MAX : now);
}

void lh_summary_after_fork(void) {
    /* The child is single-threaded: a parent's writer in flight is not ours; the buffer (a private
     * mapping) is the child's own copy. */
    lh_store_relaxed(&busy, 0);
    lh_store_relaxed(&final_done, 0);
    lh_store_relaxed(&file_made, 0);
    reset_due(0);
}

/* The file name, summary-<pid>-<tag>.json. */
static void file_name(char *name, size_t cap) {
    lh_buf nb;
    lh_buf_init(&nb, name, cap);
    lh_buf_put(&nb, "summary-");
    lh_buf_u64(&nb, (uint64_t)lh_proc.pid);
    lh_buf_putc(&nb, '-');
    lh_buf_hex(&nb, lh_proc.run_tag >> 32, 8);
    lh_buf_put(&nb, ".json");
}

/* Composes and writes one version into `mem` (SUMMARY_BYTES). `tag`: the temporary's tag. */
static void write_version(char *mem, lh_summary_state state, unsigned tag) {
    /* After room for a spool frame's header (inside a sandbox the summary is spooled). */
    size_t text_size = SUMMARY_BYTES - SUMMARY_SCRATCH;
    lh_buf out;
    lh_buf_init(&out, mem + LH_SPOOL_HEADER, text_size - LH_SPOOL_HEADER - 1);
    lh_json j;
    lh_json_init(&j, &out);
    compose(&j, state);
    if (out.overflow) return;
    if (lh_sandboxed()) {
        if (state == LH_SUMMARY_EXITED || state == LH_SUMMARY__EXIT) lh_spool_append(mem, out.len);
        return;
    }
    char name[96];
    file_name(name, sizeof name);
    char *scratch = mem + text_size;
    /* relaxed: under busy (or, for a leaving writer without it, a race that at worst fails one
     * exclusive create, retried as a replace). */
    int made = lh_load_relaxed(&file_made);
    int r = made ? lh_replace_file_atomic(lh_proc.cfg.dir, name, tag, out.data, out.len, scratch, SUMMARY_SCRATCH)
                 : lh_write_file_atomic(lh_proc.cfg.dir, name, out.data, out.len, scratch, SUMMARY_SCRATCH);
    if (r == -EEXIST && !made && lh_load_relaxed(&file_made))
        r = lh_replace_file_atomic(lh_proc.cfg.dir, name, tag, out.data, out.len, scratch, SUMMARY_SCRATCH);
    if (r == 0) lh_store_relaxed(&file_made, 1);
    else if (r == -EEXIST && !made) lh_store_relaxed(&lh_summary_due_ns, UINT64_MAX); /* a planted file: it stays */
}

/* Gives `busy` back. release: our buffer use and flags happen before the next writer's. */
static void give_busy(void) {
    lh_tsan_releasing(&busy);
    lh_store_release(&busy, 0);
}

static char *shared_buffer(void) {
    if (buffer == NULL) {
        void *mem = lh_map("summary buffer", SUMMARY_BYTES);
        if (mem != NULL) buffer = mem;
    }
    return buffer;
}

static bool may_write(void) {
    return lh_proc.dir_ok && worth_a_summary() && raw_getpid() == lh_proc.pid;
}

void lh_summary_refresh(uint64_t now) {
    uint64_t due = lh_load_relaxed(&lh_summary_due_ns);
    if (now < due) return;
    /* relaxed: one thread per interval wins; the write itself is under busy. */
    if (!lh_cas_relaxed(&lh_summary_due_ns, &due, now + lh_proc.cfg.summary_interval_ms * 1000000u)) return;
    if (lh_sandboxed() || !may_write()) return;
    int tid = lh_gettid(), expected = 0;
    /* acquire: the previous writer's buffer and flags are seen (and a sandbox entered meanwhile:
     * lh_summary_spooled released busy after publishing it). */
    if (!lh_cas_acquire(&busy, &expected, tid)) return;
    lh_tsan_acquired(&busy);
    LH_GUARDED(&lh_tls_data);
    if (!lh_load_relaxed(&final_done) && !lh_sandboxed()) {
        char *mem = shared_buffer();
        if (mem != NULL) write_version(mem, LH_SUMMARY_RUNNING, (unsigned)tid);
    }
    /* release: our buffer use and flags before the next writer. */
    give_busy();
}

void lh_summary_start(void) {
    reset_due(0);
    if (launched()) lh_summary_refresh(lh_now_ns());
}

/* Takes busy for a leaving writer: true when taken; false when the holder is this thread or did
 * not finish within LEAVE_WAIT_MS (then the caller writes from a buffer of its own). */
static bool take_for_leaving(int tid) {
    for (int waited = 0;; waited++) {
        int expected = 0;
        /* acquire: as in lh_summary_refresh. */
        if (lh_cas_acquire(&busy, &expected, tid)) {
            lh_tsan_acquired(&busy);
            return true;
        }
        if (expected == tid || waited >= LEAVE_WAIT_MS) return false;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
}

bool lh_summary_leaving(lh_summary_state state) {
    if (!may_write()) return false;
    int tid = lh_gettid();
    bool held = take_for_leaving(tid);
    /* acquire: pairs with the release that set it (a writer that held busy). */
    if (lh_load_acquire(&final_done)) {
        if (held && state == LH_SUMMARY_EXEC) give_busy();
        return false;
    }
    LH_GUARDED(&lh_tls_data);
    /* What is still going on (stalls on other threads, windows never painted) is reported. */
    LH_EACH_DETECTOR(flush, &lh_tls_data);
    /* Every report queued for the writer thread is on disk before the summary counts them. */
    lh_writer_drain();
    char *own = NULL;
    char *mem = held ? shared_buffer() : NULL;
    if (mem == NULL) {
        void *m = mmap(NULL, SUMMARY_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) mem = own = m;
    }
    /* An exec inside a sandbox is not spooled (the spool keeps one summary per process). */
    if (mem != NULL) write_version(mem, state, (unsigned)tid + (held ? 0u : 1u << 30));
    if (own != NULL) munmap(own, SUMMARY_BYTES);
    if (state == LH_SUMMARY_EXEC) {
        /* Busy stays ours until the exec returns (it failed: lh_summary_stayed). */
        return held;
    }
    /* release: a later leaving writer (another thread's _exit racing ours) sees it. Busy stays
     * held: no refresh replaces the final version. */
    lh_store_release(&final_done, 1);
    return true;
}

bool lh_summary_to_spool(void) {
    bool held = take_for_leaving(lh_gettid());
    lh_store_relaxed(&lh_summary_due_ns, UINT64_MAX); /* no refresh from now on */
    if (lh_load_relaxed(&file_made) && raw_getpid() == lh_proc.pid) {
        /* The version kept current so far goes: the spool's summary at exit is the process's one
         * (a file of the same name would keep an unpacked spool from writing it). */
        char name[96], path[sizeof lh_proc.cfg.dir + 100];
        file_name(name, sizeof name);
        lh_buf p;
        lh_buf_init(&p, path, sizeof path);
        lh_buf_put(&p, lh_proc.cfg.dir);
        lh_buf_putc(&p, '/');
        lh_buf_put(&p, name);
        if (!p.overflow) unlink(path);
        lh_store_relaxed(&file_made, 0);
    }
    return held;
}

void lh_summary_spooled(bool held) {
    /* release: after the sandbox state was published (see lh_summary_refresh). */
    if (held) give_busy();
}

void lh_summary_stayed(bool held) {
    if (!held) return;
    lh_writer_reopen(); /* the exec failed: the writer thread takes reports again */
    /* The exec failed: the process runs on; the next refresh writes "running" again, soon. */
    lh_store_relaxed(&lh_summary_due_ns, lh_proc.cfg.summary_interval_ms == 0 || lh_sandboxed() ? UINT64_MAX : 0);
    /* release: as in lh_summary_refresh. */
    give_busy();
}

void lh_summary_write(void) { lh_summary_leaving(LH_SUMMARY_EXITED); }
