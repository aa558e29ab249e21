/*
 * lh_config.h — LoopHunter's configuration: every LOOPHUNTER_* environment variable, declared once.
 *
 * Parsing runs at start-up (possibly before main, possibly inside the first hook called): it reads
 * the environment array it is given, never allocates, and reports each bad value as one line
 * through the caller's `emit` callback naming the variable, the bad value and the value used
 * instead. A bad value never stops anything: the documented default is used.
 */
#ifndef LH_CONFIG_H
#define LH_CONFIG_H

#include "lh_base.h"

/* Whole-number variables: field, LOOPHUNTER_ suffix, default, minimum, maximum, meaning. */
#define LH_CONFIG_NUMBERS(X)                                                                        \
    X(threshold, "THRESHOLD", 100, 2, 16000000,                                                    \
      "layouts of one object in one event-loop iteration above which a layout-storm is reported")  \
    X(streak, "STREAK", 60, 2, 1000000,                                                            \
      "back-to-back hot iterations (relaid out more than once, or resized) that make a "           \
      "layout-streak")                                                                             \
    X(streak_gap_ms, "STREAK_GAP_MS", 25, 1, 60000,                                                \
      "two layout iterations are back-to-back when the loop asked to sleep at most this long "     \
      "between them, or they started at most this far apart")                                     \
    X(loop_frames, "LOOP_FRAMES", 30, 0, 1000000,                                                  \
      "back-to-back frames of its window's frame clock in which a widget is relaid out by "        \
      "layout-caused requests (made in layout, deferred from layout, or following the layout's "    \
      "result) that make a layout-loop; 0: layout-loop off, loops judged by layout-streak")        \
    X(table_slots, "TABLE_SLOTS", 16384, 64, 16777216,                                             \
      "capacity of the (object, hook) table, rounded up to a power of two; calls beyond it are "   \
      "counted as dropped")                                                                        \
    X(max_frames, "MAX_FRAMES", 64, 1, 256, "stack frames captured per report")                   \
    X(max_reports, "MAX_REPORTS", 100, 0, 1000000, "breach reports written per process at most") \
    X(throttle_secs, "THROTTLE_SECS", 0, 0, 31536000,                                             \
      "one report per fingerprint per this many seconds; 0: one per fingerprint per process")     \
    X(history, "HISTORY", 32, 1, 256, "event-loop iterations of history kept in each report")     \
    X(alloc_bytes, "ALLOC_BYTES", 67108864, 1024, UINT64_C(1099511627776),                         \
      "bytes allocated by one thread in one event-loop iteration above which an alloc-storm is "   \
      "reported")                                                                                  \
    X(alloc_calls, "ALLOC_CALLS", 1000000, 16, 4000000000,                                          \
      "allocation calls of one thread in one event-loop iteration above which an alloc-storm is "  \
      "reported")                                                                                  \
    X(alloc_repeat, "ALLOC_REPEAT", 3, 1, 1000,                                                    \
      "iterations over an alloc-storm limit, each at most two iterations after the last, before an " \
      "alloc-storm is reported (a one-off burst, such as start-up, is not one; 1: every crossing)") \
    X(growth_bytes, "GROWTH_BYTES", 67108864, 1024, UINT64_C(1099511627776),                       \
      "net growth of the process's live heap over a growth run above which a heap-growth is "      \
      "reported")                                                                                  \
    X(growth_iterations, "GROWTH_ITERATIONS", 60, 2, 1000000,                                      \
      "iterations in a row in which the live heap grew (a growth run) before a heap-growth can be "\
      "reported")                                                                                  \
    X(stall_ms, "STALL_MS", 2000, 10, 3600000,                                                     \
      "an event-loop iteration running longer than this many ms is a stall (reported with the "    \
      "stack where the thread was stuck)")                                                         \
    X(window_ms, "WINDOW_MS", 2000, 1, 3600000,                                                    \
      "a toplevel window taking longer than this many ms from being shown (or mapped) to its "     \
      "first painted frame is a slow-window")                                                      \
    X(timer_live, "TIMER_LIVE", 500, 2, 100000000,                                                 \
      "timer sources added (created minus destroyed) over a growth run above which a timer-storm " \
      "is reported")                                                                               \
    X(timer_iterations, "TIMER_ITERATIONS", 60, 2, 1000000,                                        \
      "iterations in a row in which the live timer sources grew before a timer-storm can be "      \
      "reported")                                                                                  \
    X(timer_fires, "TIMER_FIRES", 200, 2, 100000000,                                               \
      "fires in a row of one repeating timer source, its event loop never sleeping between them, " \
      "above which a timer-storm is reported")                                                     \
    X(summary_interval_ms, "SUMMARY_INTERVAL_MS", 0, 0, 3600000,                                \
      "the summary file is rewritten at most this often while the process runs (from an event-loop " \
      "iteration boundary), so a process that dies, calls _exit or execs leaves what it saw; 0: "  \
      "written only when the process leaves")                                                      \
    X(launcher_pid, "LAUNCHER_PID", 0, 0, 4194304,                                                 \
      "set by `loophunter run` to its own pid: a process whose parent it is always writes a "      \
      "summary, even one that ran no event loop (0: none)")

/* On/off variables: field, suffix, default, meaning. */
#define LH_CONFIG_FLAGS(X)                                                                          \
    X(disable, "DISABLE", false, "kill switch: every hook becomes a plain forward, nothing is written") \
    X(verbose, "VERBOSE", false, "one stderr line per report written")                           \
    X(report_thread, "REPORT_THREAD", true,                                                         \
      "report files are written by a thread of LoopHunter's once the process wrote its first one "  \
      "(the breaching thread does not wait on the file system); off: each by its breaching thread")

/* Text variables: field, suffix, capacity, default, meaning. An empty default is computed at load
 * time (the report directory: /tmp/loophunter-<uid>). */
#define LH_CONFIG_STRINGS(X)                                                                        \
    X(dir, "DIR", 3072, "", "report directory (created 0700; must be owned by you, not group/world writable)") \
    X(loop_libs, "LOOP_LIBS", 512, "libglib-2.0.so,libtoykit.so,libQt5Core.so,libQt6Core.so",                                 \
      "comma-separated library names whose poll() calls mark event-loop iterations")              \
    X(hooks, "HOOKS", 128, "layout,alloc,loop,log,stall,window,timer",                             \
      "comma-separated hook families to enable (layout, alloc, loop, log, stall, window, timer)")

#define LH_CONFIG_MAX_LOOP_LIBS 8
#define LH_CONFIG_MAX_MESSAGES 16
#define LH_CONFIG_MESSAGE_LEN 240

/* Hook families (LOOPHUNTER_HOOKS): LH_FAMILY_* in lh_shared.h, one table with Swift. */

typedef struct lh_config {
#define LH_FIELD_NUMBER(field, name, def, lo, hi, help) uint64_t field;
#define LH_FIELD_FLAG(field, name, def, help) bool field;
#define LH_FIELD_STRING(field, name, cap, def, help) char field[cap];
    LH_CONFIG_NUMBERS(LH_FIELD_NUMBER)
    LH_CONFIG_FLAGS(LH_FIELD_FLAG)
    LH_CONFIG_STRINGS(LH_FIELD_STRING)
#undef LH_FIELD_NUMBER
#undef LH_FIELD_FLAG
#undef LH_FIELD_STRING
    /* Derived from the strings above. */
    unsigned families;                          /* LH_FAMILY_* bits */
    size_t loop_lib_count;
    char loop_lib[LH_CONFIG_MAX_LOOP_LIBS][64]; /* split LOOP_LIBS */
} lh_config;

/* Receives each message line (no trailing newline), e.g.
 * `loophunter: LOOPHUNTER_THRESHOLD="abc" is not a whole number; using 100 (allowed 2..16000000)` */
typedef void (*lh_config_emit)(void *ctx, const char *line);

/* Fills `cfg` with defaults, then applies the LOOPHUNTER_* entries of `envp` (NULL-terminated
 * "NAME=value" strings). `uid` names the default directory. Returns the number of messages. */
int lh_config_load(lh_config *cfg, char *const *envp, unsigned uid, lh_config_emit emit, void *ctx) LH_HIDDEN;

/* Whether envp switches LoopHunter off (LOOPHUNTER_DISABLE on, as lh_config_load reads it): one
 * pass over envp, nothing else parsed, nothing said (the preload's constructor asks this first, so
 * a disabled process pays for no more than this). */
bool lh_config_disabled(char *const *envp) LH_HIDDEN;

/* Metadata for the summary and the docs: walks every variable and its value in force. */
typedef void (*lh_config_visit_fn)(void *ctx, const char *name, const char *value_text,
                                   uint64_t number, int kind /* 0 number, 1 flag, 2 text */);
void lh_config_visit(const lh_config *cfg, lh_config_visit_fn fn, void *ctx) LH_HIDDEN;

/* A whole-number variable's name (with its LOOPHUNTER_ prefix), default, range and meaning. */
typedef struct lh_config_number_info {
    const char *name;
    uint64_t default_value, min, max;
    const char *help;
} lh_config_number_info;
size_t lh_config_number_count(void) LH_HIDDEN;
/* The index-th whole-number variable, in lh_config.h's order; NULL past the end. */
const lh_config_number_info *lh_config_number_at(size_t index) LH_HIDDEN;

#endif
