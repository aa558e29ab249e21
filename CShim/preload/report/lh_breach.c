/*
 * lh_breach.c — the breach path: capture the stack, throttle, describe the object, let each
 * detector add its part (its `report` callback), write the report; and the report counters of the
 * summary.
 *
 * Runs inside a hook with the thread's guard held (so nothing we call is counted), on the host's
 * thread, possibly on a small stack or in a signal handler. No malloc: a scratch area mapped when
 * the process turns out to be a GUI program holds the stack, frames, module names, the detectors'
 * parts and the JSON text (a second breach racing on another thread maps its own). No lock anything
 * waits on: the scratch area is taken with a try-flag, throttle entries and the report cap with
 * compare-and-swap. libunwind does not allocate once primed (lh_prime_unwinder); dl_iterate_phdr
 * takes the loader's recursive lock, which is safe because we hold none of our own.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lh_breach.h"
#include "lh_io.h"
#include "lh_unwind.h"
#include "lh_writer.h"

#define LH_FRAMES_CAP 256    /* LOOPHUNTER_MAX_FRAMES at most */
#define LH_SELF_FRAMES 16    /* room for LoopHunter's own frames on top of the stack */
#define LH_MODULES_CAP 64
#define LH_CREATED_CAP 32    /* frames of a second stack (where a timer was created) */
#define LH_CALLBACKS_CAP 16  /* callback addresses named in a report (window steps, a timer) */
#define LH_ALL_PCS (LH_FRAMES_CAP + LH_CREATED_CAP + LH_CALLBACKS_CAP)
#define LH_FINGERPRINT_DEPTH 8
#define LH_THROTTLE_SLOTS 256

/* One fingerprint's throttle: its reports and the repeats suppressed. */
typedef struct lh_throttle {
    _Atomic uint64_t fingerprint; /* 0: free */
    _Atomic uint64_t raw;         /* the in-process fingerprint (return addresses) of its breaches */
    _Atomic uint64_t last_report_ns;
    _Atomic uint64_t reports;
    _Atomic uint64_t suppressed;
    lh_kind kind;                 /* written by the claiming thread, then `named` */
    char type[64];                /* object type of the first report (the claiming thread's) */
    _Atomic int named;            /* release/acquire: kind and type are written (a summary reads them) */
} lh_throttle;

static lh_throttle throttle[LH_THROTTLE_SLOTS];

/* The summary's counters (relaxed: statistics). */
static struct {
    _Atomic uint64_t seq, breaches, admitted, written, suppressed, joined, capped, failed, skipped_no_dir;
    _Atomic uint64_t capture_ns_total, capture_count, captures_skipped_stack, throttle_full;
    _Atomic int write_failure_said;
    _Atomic int unsaid_failure; /* -errno the writer thread met, for a thread with stderr to say */
} stats;

typedef struct lh_scratch {
    void *raw[LH_FRAMES_CAP + LH_SELF_FRAMES];
    uintptr_t pcs[LH_ALL_PCS];
    lh_frame frames[LH_ALL_PCS];
    lh_module modules[LH_MODULES_CAP];
    char pool[48 * 1024];
    lh_hist history[LH_HISTORY_MAX];
    uint64_t object_sizes[LH_HISTORY_MAX];
    lh_object_desc object;
    /* Each detector's part of the report (its `report` callback's memory). */
    _Alignas(16) unsigned char detector_parts[LH_DETECTOR_COUNT][LH_REPORT_SCRATCH];
    char id[64];
    char file_name[160];
    char thread_name[16];
    char paths[8192];
    char json[320 * 1024];
} lh_scratch;

static lh_scratch *shared_scratch; /* mapped at start-up */
static _Atomic int scratch_busy;   /* try-flag: a racing breach maps its own area */

static size_t scratch_bytes(void) { return (sizeof(lh_scratch) + 4095) & ~(size_t)4095; }

/* In a ThreadSanitizer host our code is not instrumented, so TSan cannot see the flag below order
 * the threads' uses of the shared area (it sees them through the libc calls it intercepts: read,
 * memcpy) and would report races that are not there. Its annotations tell it (set at start-up). */
static void (*tsan_acquire)(void *addr);
static void (*tsan_release)(void *addr);

void lh_tsan_acquired(void *flag) {
    if (tsan_acquire != NULL) tsan_acquire(flag);
}

void lh_tsan_releasing(void *flag) {
    if (tsan_release != NULL) tsan_release(flag);
}

static lh_scratch *scratch_take(bool *mapped) {
    int expected = 0;
    *mapped = false;
    /* acquire: the previous user's writes to the area happen before ours. */
    if (shared_scratch != NULL &&
        lh_cas_acquire(&scratch_busy, &expected, 1)) {
        lh_tsan_acquired(&scratch_busy);
        return shared_scratch;
    }
    void *mem = mmap(NULL, scratch_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return NULL;
    *mapped = true;
    return mem;
}

static void scratch_give(lh_scratch *s, bool mapped) {
    if (mapped) {
        munmap(s, scratch_bytes());
    } else {
        lh_tsan_releasing(&scratch_busy);
        /* release: our writes to the area happen before the next user's. */
        lh_store_release(&scratch_busy, 0);
    }
}

void lh_breach_init(void) {
    /* The TSan runtime is in the process (a TSan-built host): annotate the shared area. Written
     * once during start-up, published with the ready state (see lh_unwinder_init). */
    if (lh_host_has_tsan()) {
        *(void **)&tsan_acquire = lh_host_function("__tsan_acquire");
        *(void **)&tsan_release = lh_host_function("__tsan_release");
    }
}

void lh_breach_prepare(void) {
    if (shared_scratch != NULL) return;
    void *mem = lh_map("report scratch", scratch_bytes());
    if (mem != NULL) shared_scratch = mem;
}

void lh_breach_after_fork(void) {
    /* The child is single-threaded: the parent's reports and throttles are the parent's. */
    lh_store_relaxed(&scratch_busy, 0);
    memset(throttle, 0, sizeof throttle);
    memset(&stats, 0, sizeof stats);
    lh_writer_after_fork();
}

void lh_breach_joined(void) { lh_add_relaxed(&stats.joined, 1); /* stat */ }

bool lh_breach_any(void) { return lh_load_relaxed(&stats.breaches) > 0; }

/* ---- throttling ----------------------------------------------------------------------------- */

/* Frames in a breach's fingerprint. An alloc-storm in an object's layout is one finding whichever
 * way the layout was reached: its fingerprint is the allocating function and its caller. */
static size_t fingerprint_depth(const lh_breach *b) {
    return b->object_slot != NULL && b->kind == LH_KIND_ALLOC_STORM ? 2 : LH_FINGERPRINT_DEPTH;
}

/* The in-process fingerprint of a breach: kind, hook, type text, the fingerprint text and the top
 * return addresses as they are (stable within a process, unlike across runs). Lets a repeat of a
 * throttled breach be suppressed right after the stack capture, before any module resolution
 * (a GTK loop logs a warning every frame: the full breach path each time would cost ~100 us). */
static uint64_t raw_fingerprint(const lh_breach *b, const char *type, const uintptr_t *pcs, size_t n) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const char *texts[] = {lh_kind_names[b->kind], lh_hooks[b->hook].name, type, b->fingerprint_text};
    for (size_t t = 0; t < LH_ARRAY_COUNT(texts); t++)
        for (const char *c = texts[t]; c != NULL && *c != '\0'; c++) h = (h ^ (unsigned char)*c) * UINT64_C(0x100000001b3);
    for (size_t i = 0; i < n && i < LH_FINGERPRINT_DEPTH; i++) h = (h ^ pcs[i]) * UINT64_C(0x100000001b3);
    return h != 0 ? h : 1;
}

/* A repeat of a breach already reported (or suppressed) in this window: counted as suppressed
 * without resolving anything. False when it must go the full way (new, or its window is over). */
static bool suppressed_early(uint64_t raw, uint64_t now) {
    uint64_t window = lh_proc.cfg.throttle_secs * 1000000000u;
    for (size_t i = 0; i < LH_THROTTLE_SLOTS; i++) {
        lh_throttle *e = &throttle[i];
        if (lh_load_relaxed(&e->raw) != raw) continue;
        uint64_t last = lh_load_relaxed(&e->last_report_ns);
        if (last == 0 || (window != 0 && now - last >= window)) return false;
        lh_add_relaxed(&e->suppressed, 1); /* stat */
        return true;
    }
    return false;
}

/* One report per fingerprint per LOOPHUNTER_THROTTLE_SECS (0: per process). Returns true when this
 * breach may be written; otherwise it is counted as suppressed. */
static bool throttle_admit(uint64_t fp, uint64_t raw, lh_kind kind, const char *type, uint64_t now) {
    if (fp == 0) fp = 1; /* 0 marks a free entry */
    lh_throttle *e = NULL;
    for (size_t n = 0; n < LH_THROTTLE_SLOTS && e == NULL; n++) {
        lh_throttle *c = &throttle[(fp + n) % LH_THROTTLE_SLOTS];
        /* acquire: pairs with the claimer's CAS (the entry is its fingerprint's). */
        uint64_t f = lh_load_acquire(&c->fingerprint);
        if (f == fp) {
            e = c;
        } else if (f == 0) {
            uint64_t expected = 0;
            /* acq_rel: claim the entry for fp, or learn which fingerprint took it. */
            if (lh_cas_acq_rel_both(&c->fingerprint, &expected, fp)) {
                c->kind = kind;
                lh_toolkit_copy_text(c->type, type);
                /* release: kind and type before a summary that sees `named`. */
                lh_store_release(&c->named, 1);
                e = c;
            } else if (expected == fp) {
                e = c;
            }
        }
    }
    if (e != NULL) lh_store_relaxed(&e->raw, raw); /* for suppressed_early */
    if (e == NULL) {
        /* Every entry is in use: no per-fingerprint throttle possible; the global cap still holds. */
        lh_add_relaxed(&stats.throttle_full, 1); /* stat */
        return true;
    }
    uint64_t window = lh_proc.cfg.throttle_secs * 1000000000u;
    uint64_t last = lh_load_relaxed(&e->last_report_ns);
    bool due = last == 0 || (window != 0 && now - last >= window);
    /* relaxed CAS: exactly one racing breach wins the window; nothing else is published. */
    if (due && lh_cas_relaxed(&e->last_report_ns, &last, now)) {
        lh_add_relaxed(&e->reports, 1);
        return true;
    }
    lh_add_relaxed(&e->suppressed, 1);
    return false;
}

/* LOOPHUNTER_MAX_REPORTS per process, attempts included (a full disk is not hammered). */
static bool cap_admit(void) {
    uint64_t n = lh_load_relaxed(&stats.admitted);
    do {
        if (n >= lh_proc.cfg.max_reports) return false;
        /* relaxed: a counter; the CAS only keeps it from passing the cap. */
    } while (!atomic_compare_exchange_weak_explicit(&stats.admitted, &n, n + 1, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}

/* ---- the report ----------------------------------------------------------------------------- */

#define LH_UNWIND_STACK_ROOM (24 * 1024) /* unw_backtrace (and lazy binding inside libunwind) */

/* The low end of the calling thread's stack, from /proc/self/maps (read into `buf`, no malloc):
 * the mapping that holds `sp`. 1 (unlimited) for the main thread's growing [stack] or when it
 * cannot be told. Cached per thread: a thread's stack does not move. */
static uintptr_t stack_low_end(char *buf, size_t size, uintptr_t sp) {
    if (lh_sandboxed()) {
        /* No /proc inside a sandbox: a thread pthread made knows its stack (the main thread's
         * grows, as below). pthread_getattr_np asks sched_getaffinity and reallocs (forwarded). */
        if (lh_gettid() == getpid()) return 1;
        pthread_attr_t attr;
        void *lo = NULL;
        size_t stack_size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return 1;
        bool known = pthread_attr_getstack(&attr, &lo, &stack_size) == 0 && lo != NULL &&
                     sp >= (uintptr_t)lo && sp < (uintptr_t)lo + stack_size;
        pthread_attr_destroy(&attr);
        return known ? (uintptr_t)lo : 1;
    }
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    size_t len = 0;
    ssize_t n;
    while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0) len += (size_t)n;
    close(fd);
    buf[len] = '\0';
    for (char *line = buf; *line != '\0';) {
        char *end = strchr(line, '\n');
        uintptr_t lo = 0, hi = 0;
        char *c = line;
        for (; (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'); c++) lo = lo * 16 + (uintptr_t)(*c <= '9' ? *c - '0' : *c - 'a' + 10);
        if (*c == '-') c++;
        for (; (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'); c++) hi = hi * 16 + (uintptr_t)(*c <= '9' ? *c - '0' : *c - 'a' + 10);
        if (sp >= lo && sp < hi) {
            bool grows = end != NULL ? memmem(line, (size_t)(end - line), "[stack]", 7) != NULL : strstr(line, "[stack]") != NULL;
            return grows ? 1 : lo;
        }
        if (end == NULL) break;
        line = end + 1;
    }
    return 1;
}

/* Whether unwinding fits on this thread's stack (a PTHREAD_STACK_MIN thread deep in recursion
 * may have a few KiB left: then the report is written without its stack). */
static bool room_to_unwind(lh_tls *t, lh_scratch *s) {
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (t->stack_lo == 0) t->stack_lo = stack_low_end(s->json, sizeof s->json, sp);
    return t->stack_lo == 1 || sp - t->stack_lo > LH_UNWIND_STACK_ROOM;
}

/* The stack without LoopHunter's own frames: those on top (the breach path) and those in the
 * middle (a layout wrapper that stays on the stack while the layout it wraps runs). */
static size_t capture(lh_tls *t, lh_scratch *s, const lh_breach *b, bool *truncated) {
    if (b->given_stack) {
        size_t n = b->pc_count < lh_proc.cfg.max_frames ? b->pc_count : lh_proc.cfg.max_frames;
        for (size_t i = 0; i < n; i++) s->pcs[i] = b->pcs[i];
        *truncated = b->pc_count > n;
        return n;
    }
    if (!room_to_unwind(t, s)) {
        lh_add_relaxed(&stats.captures_skipped_stack, 1); /* stat */
        *truncated = true;
        return 0;
    }
    int want = (int)lh_proc.cfg.max_frames + LH_SELF_FRAMES;
    int n = lh_unwind(s->raw, want);
    if (n < 0) n = 0;
    size_t count = 0;
    for (int i = 0; i < n; i++) {
        uintptr_t pc = (uintptr_t)s->raw[i];
        if (lh_is_own_code(pc)) continue;
        if (count == lh_proc.cfg.max_frames) {
            *truncated = true;
            return count;
        }
        s->pcs[count++] = pc;
    }
    *truncated = n == want || n == 0; /* no frame at all: the stack is lost, say so */
    return count;
}

static void verbose_line(const lh_breach *b, const lh_scratch *s) {
    char mem[512];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, "loophunter: ");
    lh_buf_put(&line, lh_kind_names[b->kind]);
    lh_buf_put(&line, ": ");
    lh_report_path_text(&line, &s->object);
    lh_buf_put(&line, ": ");
    lh_buf_u64(&line, b->count);
    lh_buf_putc(&line, ' ');
    lh_buf_put(&line, b->count_unit);
    lh_buf_put(&line, "; report ");
    lh_buf_put(&line, lh_proc.cfg.dir);
    lh_buf_putc(&line, '/');
    lh_buf_put(&line, s->file_name);
    lh_diag(line.data);
}

static void failure_line(int error) {
    int expected = 0;
    if (!lh_cas_relaxed(&stats.write_failure_said, &expected, 1))
        return;
    char mem[LH_CONFIG_MESSAGE_LEN + 128];
    lh_buf line;
    lh_buf_init(&line, mem, sizeof mem);
    lh_buf_put(&line, "loophunter: could not write a report in ");
    lh_buf_put_clipped(&line, lh_proc.cfg.dir, 120);
    lh_buf_put(&line, ": ");
    const char *why = strerrordesc_np(-error);
    lh_buf_put(&line, why != NULL ? why : "unknown error");
    lh_buf_put(&line, "; the program runs on, further failures are counted in the summary");
    lh_diag(line.data);
}

static void name_file(lh_scratch *s, lh_kind kind, uint64_t seq) {
    lh_buf b;
    lh_buf_init(&b, s->id, sizeof s->id);
    lh_buf_hex(&b, lh_proc.run_tag, 16);
    lh_buf_putc(&b, '-');
    lh_buf_u64(&b, (uint64_t)lh_proc.pid);
    lh_buf_putc(&b, '-');
    lh_buf_u64(&b, seq);
    lh_buf_init(&b, s->file_name, sizeof s->file_name);
    lh_buf_put(&b, "report-");
    lh_buf_u64(&b, (uint64_t)lh_proc.pid);
    lh_buf_putc(&b, '-');
    lh_buf_hex(&b, lh_proc.run_tag >> 32, 8);
    lh_buf_putc(&b, '-');
    lh_buf_hex(&b, seq, 6);
    lh_buf_putc(&b, '-');
    lh_buf_put(&b, lh_kind_names[kind]);
    lh_buf_put(&b, ".json");
}

const lh_slot *lh_breach_object_slot(const lh_breach *b) {
    if (b->object_slot != NULL) return b->object_slot;
    return b->named_type == NULL ? lh_table_slot(&lh_proc.table, b->object, b->hook) : NULL;
}

/* The adapter that describes the report's object: its slot's hook's toolkit, or the hook's. */
static const lh_toolkit *object_toolkit(const lh_breach *b) {
    if (b->object_slot != NULL) {
        uint64_t key = lh_load_relaxed(&b->object_slot->key);
        unsigned hook = (unsigned)(key >> 56) - 1;
        return hook < LH_HOOK_COUNT ? lh_hooks[hook].toolkit : NULL;
    }
    return lh_hooks[b->hook].toolkit;
}

/* The object's remembered size in each iteration of the history (its table slot's size ring). */
static void object_sizes(const lh_breach *b, lh_scratch *s, size_t count) {
    const lh_slot *slot = lh_breach_object_slot(b);
    for (size_t i = 0; i < count; i++)
        s->object_sizes[i] = slot != NULL ? lh_table_size_at(&lh_proc.table, slot, s->history[i].layout_iter)
                                          : LH_GEOMETRY_NONE;
}

/* Where the report's second stack and its callbacks sit in the scratch frames. */
typedef struct lh_extra {
    size_t created_first, created_count, callback_first, callback_count;
} lh_extra;

/* Appends the second stack (a timer's creation) and the callbacks (window steps, a timer's) to
 * the pcs to resolve. A callback is a function's address, not a return address: it is resolved
 * as address + 1 (the rule "symbolize at offset - 1" then names the function) and put back after
 * (fix_callback_frames). Returns the total number of pcs. */
static size_t add_extra_pcs(lh_scratch *s, const lh_breach *b, size_t n, lh_extra *e) {
    e->created_first = n;
    e->created_count = 0;
    for (size_t i = 0; i < b->created_pc_count && e->created_count < LH_CREATED_CAP; i++)
        s->pcs[n + e->created_count++] = b->created_pcs[i];
    n += e->created_count;
    e->callback_first = n;
    e->callback_count = 0;
    if (b->timer != NULL) {
        s->pcs[n + e->callback_count++] = b->timer->callback + 1;
    } else if (b->window != NULL) {
        for (size_t i = 0; i < b->window->step_count && e->callback_count < LH_CALLBACKS_CAP; i++)
            s->pcs[n + e->callback_count++] = b->window->steps[i].callback + 1;
    }
    return n + e->callback_count;
}

static void fix_callback_frames(lh_scratch *s, const lh_extra *e) {
    for (size_t i = 0; i < e->callback_count; i++) {
        lh_frame *f = &s->frames[e->callback_first + i];
        f->pc -= 1;
        if (f->module >= 0) f->offset -= 1;
        if (f->symbol != NULL) f->symbol_offset -= 1;
    }
}

static void write_report(lh_tls *t, const lh_breach *b, lh_scratch *s, size_t frame_count,
                         bool truncated, size_t module_count, uint64_t fp, const lh_extra *extra) {
    const lh_hook_info *hook = &lh_hooks[b->hook];
    /* relaxed: only uniqueness of the sequence number matters. */
    uint64_t seq = lh_add_relaxed(&stats.seq, 1) + 1;
    name_file(s, b->kind, seq);
    memset(s->thread_name, 0, sizeof s->thread_name);
    if (b->thread != NULL) {
        memcpy(s->thread_name, b->thread->name, sizeof s->thread_name - 1);
    } else if (lh_sandboxed()) { /* no prctl: the name the thread had when it got its record */
        if (t->rec != NULL) memcpy(s->thread_name, t->rec->name, sizeof s->thread_name - 1);
    } else {
        prctl(PR_GET_NAME, s->thread_name, 0, 0, 0);
    }

    lh_report_data r = {
        .kind = b->kind,
        .id = s->id,
        .wall_ns = lh_wall_ns(),
        .pid = lh_proc.pid,
        .ppid = lh_sandboxed() ? lh_proc.ppid : (int)getppid(), /* no getppid in a sandbox */
        .executable = lh_proc.exe,
        .tid = b->thread != NULL ? lh_load_relaxed(&b->thread->tid) : lh_gettid(),
        .thread_name = s->thread_name,
        .iteration = b->thread != NULL ? lh_load_relaxed(&b->thread->iterations)
                                        : t->iteration,
        .hook = hook->name,
        .family = b->family != 0 ? lh_family_name(b->family) : lh_hook_family_name(b->hook),
        .toolkit = hook->toolkit != NULL ? hook->toolkit->name : NULL,
        .object = &s->object,
        .count = b->count,
        .threshold = b->threshold,
        .count_unit = b->count_unit,
        .last_iteration_layouts = b->last_iteration_layouts,
        .size_before = b->size_before,
        .size_after = b->size_after,
        .streak_gap_ms = lh_proc.cfg.streak_gap_ms,
        .history = s->history,
        .history_count = b->thread != NULL ? 0 : lh_thread_history(t, s->history, lh_proc.cfg.history),
        .history_unit = b->thread == NULL && t->frame_driven ? "frame" : "iteration",
        .object_sizes = s->object_sizes,
        .frame = b->thread == NULL && t->frame_driven ? t->frame : 0,
        .stall = b->stall,
        .window = b->window,
        .timer = b->timer,
        .created_first = extra->created_first,
        .created_count = extra->created_count,
        .callback_first = extra->callback_first,
        .callback_count = extra->callback_count,
        .warning = b->warning,
        .frames = s->frames,
        .frame_count = frame_count,
        .frames_truncated = truncated,
        .modules = s->modules,
        .module_count = module_count,
        .fingerprint = fp,
        .members = b->members,
        .member_count = b->member_count,
    };
    object_sizes(b, s, r.history_count);
    /* Each detector's part (the layout iteration, the memory side...). */
    for (size_t i = 0; i < LH_DETECTOR_COUNT; i++) {
        const lh_detector *d = lh_detector_rows[i].detector;
        if (d->report != NULL && lh_family_on(lh_detector_rows[i].family)) d->report(t, b, &r, s->detector_parts[i]);
    }
    /* Composed after room for a spool frame's header (used inside a sandbox, lh_sandbox.c). */
    lh_buf json;
    lh_buf_init(&json, s->json + LH_SPOOL_HEADER, sizeof s->json - LH_SPOOL_HEADER - 1);
    if (!lh_report_compose(&json, &r)) {
        lh_breach_file_written(-EOVERFLOW);
        return;
    }
    /* Handed to the writer thread (lh_writer.c) when it runs; else written here, and the writer is
     * started at the next iteration boundary. Inside a sandbox, appended to the spool. */
    int result = 0;
    if (lh_sandboxed()) {
        result = lh_spool_append(s->json, json.len);
        lh_breach_file_written(result);
    } else if (!lh_writer_submit(s->file_name, json.data, json.len)) {
        result = lh_write_file_atomic(lh_proc.cfg.dir, s->file_name, json.data, json.len, s->paths, sizeof s->paths);
        lh_breach_file_written(result);
        lh_writer_wanted();
    }
    /* A queued report's line is said now: the file follows within microseconds (a failure to write
     * it is said by the next report's thread or the leaving thread). */
    lh_breach_say_later_failure();
    if (result == 0 && lh_proc.cfg.verbose) verbose_line(b, s);
}

/* Counts a report file written (0) or not (-errno) for the summary; true when it was not. */
static bool counted_failed(int result) {
    if (result == 0) {
        lh_add_relaxed(&stats.written, 1); /* stat */
        return false;
    }
    lh_add_relaxed(&stats.failed, 1); /* stat */
    return true;
}

void lh_breach_file_written(int result) {
    if (counted_failed(result)) failure_line(result);
}

void lh_breach_file_written_later(int result) {
    int expected = 0;
    /* relaxed: the first failure's error, a once-value said by another thread. */
    if (counted_failed(result)) lh_cas_relaxed(&stats.unsaid_failure, &expected, result);
}

void lh_breach_say_later_failure(void) {
    /* relaxed: a once-value (failure_line says only the first failure anyway). */
    if (LH_LIKELY(lh_load_relaxed(&stats.unsaid_failure) == 0)) return;
    int error = lh_exchange_relaxed(&stats.unsaid_failure, 0);
    if (error != 0) failure_line(error);
}

void lh_breach_report(lh_tls *t, const lh_breach *b) {
    int saved = errno;
    uint64_t started = lh_now_ns();
    lh_add_relaxed(&stats.breaches, 1); /* stat */
    if (!lh_proc.dir_ok) {
        lh_add_relaxed(&stats.skipped_no_dir, 1);
        errno = saved;
        return;
    }
    bool mapped;
    lh_scratch *s = scratch_take(&mapped);
    if (s == NULL) {
        lh_add_relaxed(&stats.failed, 1);
        errno = saved;
        return;
    }
    bool truncated;
    size_t frame_count = capture(t, s, b, &truncated);
    const lh_toolkit *tk = object_toolkit(b);
    const char *type = b->named_type != NULL ? b->named_type
                       : tk != NULL && tk->type_name != NULL ? tk->type_name(b->object) : NULL;
    uint64_t raw = raw_fingerprint(b, type, s->pcs, frame_count < fingerprint_depth(b) ? frame_count : fingerprint_depth(b));
    if (suppressed_early(raw, started)) {
        lh_add_relaxed(&stats.suppressed, 1); /* stat */
        scratch_give(s, mapped);
        errno = saved;
        return;
    }
    lh_extra extra;
    size_t total = add_extra_pcs(s, b, frame_count, &extra);
    size_t module_count = lh_modules_resolve(s->pcs, total, s->frames, s->modules,
                                             LH_MODULES_CAP, s->pool, sizeof s->pool, lh_proc.exe);
    fix_callback_frames(s, &extra);

    memset(&s->object, 0, sizeof s->object);
    s->object.address = (uintptr_t)b->object;
    if (b->named_type != NULL) {
        lh_toolkit_copy_text(s->object.node.type, b->named_type);
        if (b->named_name != NULL) lh_toolkit_copy_text(s->object.node.name, b->named_name);
    } else if (tk != NULL) {
        lh_toolkit_describe(tk, b->object, &s->object);
    }

    uint64_t fp = lh_report_fingerprint(b->kind, lh_hooks[b->hook].name, s->object.node.type,
                                        b->fingerprint_text, s->frames, frame_count, s->modules,
                                        fingerprint_depth(b));
    if (!throttle_admit(fp, raw, b->kind, s->object.node.type, started)) {
        lh_add_relaxed(&stats.suppressed, 1);
    } else if (!cap_admit()) {
        lh_add_relaxed(&stats.capped, 1);
    } else {
        write_report(t, b, s, frame_count, truncated, module_count, fp, &extra);
    }
    scratch_give(s, mapped);
    /* relaxed: statistics of the breach path's cost, shown in the summary. */
    lh_add_relaxed(&stats.capture_ns_total, lh_now_ns() - started);
    lh_add_relaxed(&stats.capture_count, 1);
    errno = saved;
}

/* ---- the summary's sections ------------------------------------------------------------------ */

void lh_breach_summary(lh_json *j) {
    lh_json_begin_object(j, "reports");
    lh_json_u64(j, "breaches", lh_load_relaxed(&stats.breaches));
    lh_json_u64(j, "written", lh_load_relaxed(&stats.written));
    lh_json_u64(j, "suppressed", lh_load_relaxed(&stats.suppressed));
    lh_json_u64(j, "joined_loop", lh_load_relaxed(&stats.joined));
    lh_json_u64(j, "capped", lh_load_relaxed(&stats.capped));
    lh_json_u64(j, "failed", lh_load_relaxed(&stats.failed));
    lh_json_u64(j, "not_written_no_directory", lh_load_relaxed(&stats.skipped_no_dir));
    lh_json_u64(j, "throttle_table_full", lh_load_relaxed(&stats.throttle_full));
    lh_json_u64(j, "stack_skipped_small_stack", lh_load_relaxed(&stats.captures_skipped_stack));
    uint64_t captures = lh_load_relaxed(&stats.capture_count);
    lh_json_u64(j, "breach_path_mean_us", captures != 0 ? lh_load_relaxed(&stats.capture_ns_total) / captures / 1000 : 0);
    lh_writer_summary(j);
    lh_json_end_object(j);
    lh_json_begin_array(j, "fingerprints");
    for (size_t i = 0; i < LH_THROTTLE_SLOTS; i++) {
        lh_throttle *e = &throttle[i];
        uint64_t fp = lh_load_relaxed(&e->fingerprint);
        /* acquire: kind and type are written (an entry being claimed right now is left out). */
        if (fp == 0 || !lh_load_acquire(&e->named)) continue;
        char hex[20];
        lh_buf b;
        lh_buf_init(&b, hex, sizeof hex);
        lh_buf_hex(&b, fp, 16);
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "fingerprint", hex);
        lh_json_string(j, "kind", lh_kind_names[e->kind]);
        lh_json_string(j, "type", e->type);
        lh_json_u64(j, "reports", lh_load_relaxed(&e->reports));
        lh_json_u64(j, "suppressed", lh_load_relaxed(&e->suppressed));
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

const char *lh_saved_text(const char *text, char *buf, size_t cap) {
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
