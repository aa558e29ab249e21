/*
 * lh_summary.c — the per-process summary file, written once at exit (and by each forked child at
 * its own exit): what was counted, what was reported, suppressed or lost, the configuration used.
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

#include "lh_gtk.h"
#include "lh_io.h"
#include "lh_json.h"
#include "lh_preload.h"

#define SUMMARY_BYTES (1024 * 1024)

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed) /* statistics: relaxed reads */

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


/* A type name given by a toolkit when the object was counted, read again at exit: its module may
 * have been dlclosed since. Copied with lh_read_memory (which fails instead of faulting),
 * at most `cap` - 1 bytes; "(unloaded)" when it is no longer mapped. */
static const char *saved_text(const char *text, char *buf, size_t cap) {
    if (text == NULL) return NULL;
    size_t len = 0;
    while (len < cap - 1) {
        uintptr_t at = (uintptr_t)text + len;
        size_t chunk = 4096 - (at & 4095); /* never across a page: each read is all or nothing */
        if (chunk > cap - 1 - len) chunk = cap - 1 - len;
        if (!lh_read_memory(buf + len, (const void *)at, chunk)) break;
        void *nul = memchr(buf + len, '\0', chunk);
        if (nul != NULL) return buf;
        len += chunk;
    }
    if (len == 0) return "(unloaded)";
    buf[len] = '\0';
    return buf;
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
        if (lh_hook_counts_layouts(h)) sum += LOAD(r->hook_calls[h]);
    return sum;
}

/* A thread's allocation counts: its live counters, or what it had when it ended. */
static bool alloc_of_record(const lh_thread_rec *r, uint32_t state, int tid, uint64_t out[4]) {
    if (state == LH_REC_DONE || LOAD(r->alloc_at_exit.valid) != 0) {
        if (LOAD(r->alloc_at_exit.valid) == 0) return false;
        out[0] = LOAD(r->alloc_at_exit.calls);
        out[1] = LOAD(r->alloc_at_exit.bytes);
        out[2] = LOAD(r->alloc_at_exit.frees);
        out[3] = LOAD(r->alloc_at_exit.freed_bytes);
        return true;
    }
    return lh_alloc_counts_of_thread(tid, out);
}

static void threads_json(lh_json *j, uint64_t *iterations, uint64_t *layout_calls,
                         const lh_thread_rec **max_rec) {
    lh_json_begin_array(j, "threads");
    size_t high = atomic_load_explicit(&lh_proc.records_high, memory_order_relaxed);
    for (size_t i = 0; i < high; i++) {
        const lh_thread_rec *r = &lh_proc.records[i];
        /* acquire: a DONE record's final counters are visible (release in thread_exit). */
        uint32_t state = atomic_load_explicit(&r->state, memory_order_acquire);
        if (state == LH_REC_FREE) continue;
        char name[16];
        memcpy(name, r->name, sizeof name);
        name[15] = '\0';
        int tid = (int)LOAD(r->tid);
        if (state == LH_REC_LIVE) live_thread_name(tid, name);
        uint64_t calls = record_layout_calls(r);
        *iterations += LOAD(r->iterations);
        *layout_calls += calls;
        if (*max_rec == NULL || LOAD(r->max_count) > LOAD((*max_rec)->max_count)) *max_rec = r;

        lh_json_begin_object(j, NULL);
        lh_json_i64(j, "tid", tid);
        lh_json_string(j, "name", name);
        lh_json_string(j, "state", state == LH_REC_LIVE ? "running" : "exited");
        lh_json_u64(j, "iterations", LOAD(r->iterations));
        lh_json_u64(j, "frames", LOAD(r->frames));
        lh_json_u64(j, "layout_iterations", LOAD(r->layout_iterations));
        lh_json_u64(j, "layout_calls", calls);
        lh_json_u64(j, "max_count", LOAD(r->max_count));
        uint64_t alloc[4];
        if (alloc_of_record(r, state, tid, alloc)) {
            lh_json_begin_object(j, "alloc");
            lh_json_u64(j, "calls", alloc[0]);
            lh_json_u64(j, "bytes", alloc[1]);
            lh_json_u64(j, "frees", alloc[2]);
            lh_json_u64(j, "freed_bytes", alloc[3]);
            lh_json_end_object(j);
        } else {
            lh_json_null(j, "alloc");
        }
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

static void max_json(lh_json *j, const lh_thread_rec *r) {
    if (r == NULL || LOAD(r->max_count) == 0) {
        lh_json_null(j, "max");
        return;
    }
    uint32_t hook = LOAD(r->max_hook);
    lh_json_begin_object(j, "max");
    lh_json_u64(j, "count", LOAD(r->max_count));
    lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
    lh_json_i64(j, "tid", (int)LOAD(r->tid));
    lh_json_u64(j, "iteration", LOAD(r->max_iteration));
    lh_json_begin_object(j, "object");
    lh_json_hex(j, "address", LOAD(r->max_object));
    char type[LH_OBJECT_TEXT];
    lh_json_string(j, "type", saved_text(LOAD(r->max_type), type, sizeof type));
    lh_json_end_object(j);
    lh_json_end_object(j);
}

static void hooks_json(lh_json *j) {
    lh_json_begin_array(j, "hooks");
    for (unsigned h = 0; h < LH_HOOK_COUNT; h++) {
        uint64_t calls = 0;
        size_t high = atomic_load_explicit(&lh_proc.records_high, memory_order_relaxed);
        for (size_t i = 0; i < high; i++)
            if (atomic_load_explicit(&lh_proc.records[i].state, memory_order_acquire) != LH_REC_FREE)
                calls += LOAD(lh_proc.records[i].hook_calls[h]);
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "name", lh_hooks[h].name);
        lh_json_string(j, "family", lh_family_name(lh_hooks[h].family));
        lh_json_string(j, "toolkit", lh_hooks[h].toolkit != NULL ? lh_hooks[h].toolkit->name : NULL);
        lh_json_bool(j, "enabled", (lh_proc.cfg.families & lh_hooks[h].family) != 0);
        /* resolved: the original was looked up (the host called it, or the process looked like a
         * GUI program at start-up) and found. Not looked up at exit: dlsym would cost a malloc. */
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

#define TOP_OBJECTS 64

/* The objects laid out most over the run (per hook), from the table: address, type, calls. The
 * table is read once, at exit. */
static void objects_json(lh_json *j) {
    const lh_slot *top[TOP_OBJECTS];
    size_t n = 0;
    for (uint64_t i = 0; i < lh_proc.table.capacity && lh_proc.table.slots != NULL; i++) {
        const lh_slot *s = &lh_proc.table.slots[i];
        if (atomic_load_explicit(&s->key, memory_order_acquire) == 0) continue;
        uint64_t total = LOAD(s->total);
        if (total == 0) continue;
        if (n < TOP_OBJECTS) {
            top[n++] = s;
        } else if (total > LOAD(top[n - 1]->total)) {
            top[n - 1] = s;
        } else {
            continue;
        }
        for (size_t k = n - 1; k > 0 && LOAD(top[k]->total) > LOAD(top[k - 1]->total); k--) {
            const lh_slot *tmp = top[k];
            top[k] = top[k - 1];
            top[k - 1] = tmp;
        }
    }
    lh_json_begin_array(j, "top_objects");
    for (size_t k = 0; k < n; k++) {
        uint64_t key = LOAD(top[k]->key);
        unsigned hook = (unsigned)(key >> 56) - 1;
        lh_json_begin_object(j, NULL);
        lh_json_hex(j, "address", key & ((UINT64_C(1) << 56) - 1));
        char type[LH_OBJECT_TEXT];
        lh_json_string(j, "type", saved_text(LOAD(top[k]->type), type, sizeof type));
        lh_json_string(j, "hook", hook < LH_HOOK_COUNT ? lh_hooks[hook].name : NULL);
        lh_json_u64(j, "calls", LOAD(top[k]->total));
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

static void fingerprints_json(lh_json *j) {
    lh_json_begin_array(j, "fingerprints");
    for (size_t i = 0; i < LH_THROTTLE_SLOTS; i++) {
        lh_throttle *e = &lh_proc.throttle[i];
        /* acquire: kind and type were written by the claimer before its reports. */
        uint64_t fp = atomic_load_explicit(&e->fingerprint, memory_order_acquire);
        if (fp == 0) continue;
        char hex[20];
        lh_buf b;
        lh_buf_init(&b, hex, sizeof hex);
        lh_buf_hex(&b, fp, 16);
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "fingerprint", hex);
        lh_json_string(j, "kind", e->kind);
        lh_json_string(j, "type", e->type);
        lh_json_u64(j, "reports", LOAD(e->reports));
        lh_json_u64(j, "suppressed", LOAD(e->suppressed));
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
    lh_json_string(j, "version", "1.4");
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
    size_t ranges = atomic_load_explicit(&lh_proc.loop_range_count, memory_order_acquire);
    lh_json_u64(j, "loop_code_ranges", ranges);
    lh_json_bool(j, "every_wait_is_an_iteration", ranges == 0);
    lh_json_end_object(j);

    hooks_json(j);
    uint64_t iterations = 0, layout_calls = 0;
    const lh_thread_rec *max_rec = NULL;
    threads_json(j, &iterations, &layout_calls, &max_rec);
    lh_json_begin_object(j, "recycled_threads");
    lh_json_u64(j, "threads", LOAD(lh_proc.recycled_threads));
    lh_json_u64(j, "iterations", LOAD(lh_proc.recycled_iterations));
    lh_json_u64(j, "layout_calls", LOAD(lh_proc.recycled_layout_calls));
    lh_json_end_object(j);
    lh_json_u64(j, "threads_without_record", LOAD(lh_proc.records_exhausted));
    lh_json_u64(j, "iterations", iterations + LOAD(lh_proc.recycled_iterations));
    lh_json_u64(j, "layout_calls", layout_calls + LOAD(lh_proc.recycled_layout_calls));
    max_json(j, max_rec);

    objects_json(j);

    lh_json_begin_object(j, "table");
    lh_json_u64(j, "slots", lh_proc.table.capacity);
    lh_json_u64(j, "objects", LOAD(lh_proc.table.used));
    lh_json_u64(j, "dropped_calls", LOAD(lh_proc.table.dropped));
    lh_json_end_object(j);

    lh_json_begin_object(j, "reports");
    lh_json_u64(j, "breaches", LOAD(lh_proc.breaches));
    lh_json_u64(j, "written", LOAD(lh_proc.reports_written));
    lh_json_u64(j, "suppressed", LOAD(lh_proc.reports_suppressed));
    lh_json_u64(j, "joined_loop", LOAD(lh_proc.reports_joined));
    lh_json_u64(j, "capped", LOAD(lh_proc.reports_capped));
    lh_json_u64(j, "failed", LOAD(lh_proc.reports_failed));
    lh_json_u64(j, "not_written_no_directory", LOAD(lh_proc.reports_skipped_no_dir));
    lh_json_u64(j, "throttle_table_full", LOAD(lh_proc.throttle_full));
    lh_json_u64(j, "stack_skipped_small_stack", LOAD(lh_proc.captures_skipped_stack));
    uint64_t captures = LOAD(lh_proc.capture_count);
    lh_json_u64(j, "breach_path_mean_us", captures != 0 ? LOAD(lh_proc.capture_ns_total) / captures / 1000 : 0);
    lh_json_end_object(j);
    fingerprints_json(j);
    lh_gtk_summary(j);
    lh_alloc_summary(j);
    lh_stall_summary(j);
    lh_window_summary(j);
    lh_timer_summary(j);
    lh_sandbox_summary(j);
    lh_json_end_object(j);
}

/* A process that never ran an event-loop iteration, laid anything out or breached (a shell, a
 * compiler started by the program under test) gets no summary: nothing to say, and thousands of
 * empty summaries would bury the one that matters. */
static bool worth_a_summary(void) {
    return atomic_load_explicit(&lh_proc.records_high, memory_order_relaxed) > 0 ||
           atomic_load_explicit(&lh_proc.breaches, memory_order_relaxed) > 0;
}

void lh_summary_write(void) {
    if (!worth_a_summary()) return;
    int expected = 0;
    /* relaxed: once-flag; the summary is written by whichever exit path gets here first. */
    if (!atomic_compare_exchange_strong_explicit(&lh_proc.summary_written, &expected, 1,
                                                 memory_order_relaxed, memory_order_relaxed))
        return;
    if (!lh_proc.dir_ok) return;
    lh_tls_data.guard++;
    lh_stall_flush(&lh_tls_data); /* stalls still going on other threads: reported as ongoing */
    lh_window_flush(&lh_tls_data); /* windows shown and never painted */
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
    lh_tls_data.guard--;
}
