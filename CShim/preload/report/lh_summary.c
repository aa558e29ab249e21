/*
 * lh_summary.c — the per-process summary file, written once at exit (and by each forked child at
 * its own exit): what was counted, what was reported, suppressed or lost, the configuration used.
 * The runtime's own sections are written here; each detector writes its sections and its fields
 * of each thread's entry (its summary and thread_summary callbacks), each toolkit adapter its own.
 *
 * Runs from the ELF destructor, after the host's exit handlers, possibly while other threads are
 * still counting (their counters are read with relaxed loads: a number may be one call stale).
 * fd 2 may already be closed: nothing here writes to it. The text is built in an mmap'd buffer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_io.h"
#include "lh_json.h"

#define SUMMARY_BYTES (1024 * 1024)


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

static void compose(lh_json *j) {
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
    lh_json_string(j, "started", started);
    lh_json_string(j, "ended", ended);
    lh_json_u64(j, "duration_ms", (lh_now_ns() - lh_proc.start_ns) / 1000000);

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

    lh_breach_summary(j);
    for (size_t i = 0; lh_toolkits[i] != NULL; i++)
        if (lh_toolkits[i]->summary != NULL) lh_toolkits[i]->summary(j);
    LH_EVERY_DETECTOR(summary, j);
    lh_sandbox_summary(j);
    lh_json_end_object(j);
}

/* A process that never ran an event-loop iteration, laid anything out or breached (a shell, a
 * compiler started by the program under test) gets no summary: nothing to say, and thousands of
 * empty summaries would bury the one that matters. */
static bool worth_a_summary(void) { return lh_load_relaxed(&lh_proc.records_high) > 0 || lh_breach_any(); }

static _Atomic int summary_written; /* once-flag */

void lh_summary_after_fork(void) { lh_store_relaxed(&summary_written, 0); }

void lh_summary_write(void) {
    if (!worth_a_summary()) return;
    int expected = 0;
    /* relaxed: once-flag; the summary is written by whichever exit path gets here first. */
    if (!lh_cas_relaxed(&summary_written, &expected, 1)) return;
    if (!lh_proc.dir_ok) return;
    LH_GUARDED(&lh_tls_data);
    /* What is still going on (stalls on other threads, windows never painted) is reported. */
    LH_EACH_DETECTOR(flush, &lh_tls_data);
    char *mem = mmap(NULL, SUMMARY_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem != MAP_FAILED) {
        /* After room for a spool frame's header (inside a sandbox the summary is spooled). */
        size_t text_size = SUMMARY_BYTES - 8192;
        lh_buf out;
        lh_buf_init(&out, mem + LH_SPOOL_HEADER, text_size - LH_SPOOL_HEADER - 1);
        lh_json j;
        lh_json_init(&j, &out);
        compose(&j);
        char name[96];
        lh_buf nb;
        lh_buf_init(&nb, name, sizeof name);
        lh_buf_put(&nb, "summary-");
        lh_buf_u64(&nb, (uint64_t)lh_proc.pid);
        lh_buf_putc(&nb, '-');
        lh_buf_hex(&nb, lh_proc.run_tag >> 32, 8);
        lh_buf_put(&nb, ".json");
        if (!out.overflow && lh_sandboxed())
            lh_spool_append(mem, out.len);
        else if (!out.overflow)
            lh_write_file_atomic(lh_proc.cfg.dir, name, out.data, out.len, mem + text_size, 8192);
        munmap(mem, SUMMARY_BYTES);
    }
}
