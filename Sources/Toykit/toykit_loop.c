/*
 * toykit_loop.c — toykit's event loop: sources (timers, idles, scripted input), one poll(2) per
 * iteration, and the two layout policies (TK_LAYOUT_UNCAPPED and TK_LAYOUT_CAPPED with its 16 ms
 * frame clock).
 *
 * An iteration is: poll() returns -> dispatch the scripted input that is ready -> the timers that
 * are due -> the idles added before this iteration -> layout according to the policy -> compute the
 * next timeout -> poll(). The single poll() call is made from this library, which is how LoopHunter
 * tells iterations apart (a poll() whose caller lies inside libtoykit.so). Times use CLOCK_MONOTONIC.
 *
 * Scripted input: a pipe whose write end a feeder thread owns; it sleeps until each event is due,
 * writes "event\n" and closes the pipe at the end. The loop polls the read end.
 *
 * All state is per loop (several loops may run on several threads at once); the only lock is the
 * mutex a feeder thread shares with its loop to be told to stop.
 */
#include "toykit_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_MS 1000000LL

typedef enum { TK_SOURCE_TIMER, TK_SOURCE_IDLE } TkSourceKind;

typedef struct TkSource {
    unsigned id;
    TkSourceKind kind;
    bool removed;                 /* freed after the dispatch that removed it */
    int interval_ms;              /* timers */
    int64_t due_ns;               /* timers: next expiry */
    unsigned long added_iteration;/* idles: the iteration (stats.iterations) they were added in */
    TkSourceFunc func;
    void *data;
} TkSource;

/* One scripted input source and its feeder thread. */
typedef struct TkScript {
    int read_fd;                  /* the loop's end; -1 after EOF */
    TkInputFunc on_input;
    void *data;
    char *line;                   /* bytes of a line not complete yet */
    size_t line_len, line_cap;
    /* Shared with the feeder thread. events/count/write_fd/start_ns are set before it starts and
     * then only read by it; `stop` is guarded by `mutex`. */
    const TkScriptEvent *events;
    size_t count;
    int write_fd;                 /* the feeder's end; it closes it */
    int64_t start_ns;
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    bool stop;
} TkScript;

struct TkLoop {
    TkLayoutPolicy policy;
    TkView **roots;
    size_t root_count, root_cap;
    TkSource **sources;
    size_t source_count, source_cap;
    unsigned next_source_id;
    TkScript **scripts;
    size_t script_count, script_cap;
    bool quit_requested;
    bool layout_pending;          /* some root has dirt (set by the views, recomputed after layout) */
    bool had_frame;               /* capped: a frame has run, last_frame_ns is its start */
    int64_t last_frame_ns;
    TkLoopStats stats;
};

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *grow(void *array, size_t *cap, size_t elem_size) {
    *cap = *cap ? *cap * 2 : 8;
    void *p = realloc(array, *cap * elem_size);
    if (!p) abort();
    return p;
}

/* ---- Loop lifetime ------------------------------------------------------------------------- */

TkLoop *tk_loop_new(TkLayoutPolicy policy) {
    TkLoop *loop = calloc(1, sizeof *loop);
    if (!loop) abort();
    loop->policy = policy;
    loop->next_source_id = 1;
    return loop;
}

static void script_stop_and_free(TkScript *script) {
    pthread_mutex_lock(&script->mutex);
    script->stop = true;
    pthread_cond_signal(&script->cond);
    pthread_mutex_unlock(&script->mutex);
    /* Closing the read end first also unblocks a feeder stuck in write() (EPIPE; its SIGPIPE is
     * blocked in that thread). */
    if (script->read_fd >= 0) close(script->read_fd);
    pthread_join(script->thread, NULL);
    pthread_cond_destroy(&script->cond);
    pthread_mutex_destroy(&script->mutex);
    free(script->line);
    free(script);
}

/* Frees the loop, its sources and scripts (joining the feeder threads). The roots are not freed:
 * they are only detached from the loop. */
void tk_loop_free(TkLoop *loop) {
    if (!loop) return;
    for (size_t i = 0; i < loop->root_count; i++) loop->roots[i]->loop = NULL;
    free(loop->roots);
    for (size_t i = 0; i < loop->source_count; i++) free(loop->sources[i]);
    free(loop->sources);
    for (size_t i = 0; i < loop->script_count; i++) script_stop_and_free(loop->scripts[i]);
    free(loop->scripts);
    free(loop);
}

TkLayoutPolicy tk_loop_policy(const TkLoop *loop) { return loop->policy; }
TkLoopStats tk_loop_stats(const TkLoop *loop) { return loop->stats; }
void tk_loop_quit(TkLoop *loop) { loop->quit_requested = true; }

/* ---- Roots and the views' notifications ---------------------------------------------------- */

void tk_loop_add_root(TkLoop *loop, TkView *root) {
    if (!loop || !root || root->parent || root->loop == loop) return;
    if (root->loop) tk__loop_forget_root(root->loop, root);
    if (loop->root_count == loop->root_cap)
        loop->roots = grow(loop->roots, &loop->root_cap, sizeof loop->roots[0]);
    loop->roots[loop->root_count++] = root;
    root->loop = loop;
    if (tk__view_has_dirt(root)) loop->layout_pending = true;
}

TK_HIDDEN void tk__loop_forget_root(TkLoop *loop, TkView *root) {
    for (size_t i = 0; i < loop->root_count; i++) {
        if (loop->roots[i] == root) {
            memmove(&loop->roots[i], &loop->roots[i + 1], (loop->root_count - i - 1) * sizeof loop->roots[0]);
            loop->root_count--;
            break;
        }
    }
    root->loop = NULL;
}

TK_HIDDEN void tk__loop_note_layout_pending(TkLoop *loop) { loop->layout_pending = true; }
TK_HIDDEN void tk__loop_count_layout(TkLoop *loop) { loop->stats.layouts++; }

/* ---- Timers and idles ---------------------------------------------------------------------- */

static unsigned add_source(TkLoop *loop, TkSourceKind kind, int interval_ms, TkSourceFunc func, void *data) {
    if (!loop || !func) return 0;
    TkSource *source = calloc(1, sizeof *source);
    if (!source) abort();
    source->id = loop->next_source_id++;
    if (loop->next_source_id == 0) loop->next_source_id = 1; /* 0 is never an id */
    source->kind = kind;
    source->interval_ms = interval_ms < 0 ? 0 : interval_ms;
    source->due_ns = now_ns() + (int64_t)source->interval_ms * NS_PER_MS;
    source->added_iteration = loop->stats.iterations;
    source->func = func;
    source->data = data;
    if (loop->source_count == loop->source_cap)
        loop->sources = grow(loop->sources, &loop->source_cap, sizeof loop->sources[0]);
    loop->sources[loop->source_count++] = source;
    return source->id;
}

unsigned tk_loop_add_timer(TkLoop *loop, int interval_ms, TkSourceFunc func, void *data) {
    return add_source(loop, TK_SOURCE_TIMER, interval_ms, func, data);
}

unsigned tk_loop_add_idle(TkLoop *loop, TkSourceFunc func, void *data) {
    return add_source(loop, TK_SOURCE_IDLE, 0, func, data);
}

/* Marks the source removed; it is freed after the current (or next) dispatch. */
void tk_loop_remove_source(TkLoop *loop, unsigned id) {
    if (!loop || id == 0) return;
    for (size_t i = 0; i < loop->source_count; i++) {
        if (loop->sources[i]->id == id) {
            loop->sources[i]->removed = true;
            return;
        }
    }
}

static void free_removed_sources(TkLoop *loop) {
    size_t kept = 0;
    for (size_t i = 0; i < loop->source_count; i++) {
        if (loop->sources[i]->removed) free(loop->sources[i]);
        else loop->sources[kept++] = loop->sources[i];
    }
    loop->source_count = kept;
}

/* Every timer and idle callback runs through here: an exported entry point (called through the
 * PLT, like GLib's g_source dispatch), so that tools can time callbacks and follow sources. */
bool tk_source_dispatch(TkLoop *loop, unsigned id, TkSourceFunc func, void *data) {
    (void)loop;
    (void)id;
    return func(data);
}

void tk_loop_frame_done(TkLoop *loop, unsigned long frame) {
    (void)loop;
    (void)frame;
}

/* Runs the timers that are due at `now` (each at most once per iteration). Sources added by the
 * callbacks are appended past `count` and wait for a later iteration. */
static void dispatch_timers(TkLoop *loop, int64_t now) {
    size_t count = loop->source_count;
    for (size_t i = 0; i < count; i++) {
        TkSource *s = loop->sources[i];
        if (s->removed || s->kind != TK_SOURCE_TIMER || s->due_ns > now) continue;
        bool keep = tk_source_dispatch(loop, s->id, s->func, s->data);
        s = loop->sources[i]; /* the array may have moved */
        if (!keep) {
            s->removed = true;
        } else {
            int64_t interval = (int64_t)s->interval_ms * NS_PER_MS;
            s->due_ns += interval;                         /* keep the cadence ... */
            if (s->due_ns <= now) s->due_ns = now + interval; /* ... but skip ticks missed */
        }
    }
}

/* Runs the idles added before this iteration. */
static void dispatch_idles(TkLoop *loop) {
    size_t count = loop->source_count;
    for (size_t i = 0; i < count; i++) {
        TkSource *s = loop->sources[i];
        if (s->removed || s->kind != TK_SOURCE_IDLE || s->added_iteration >= loop->stats.iterations) continue;
        bool keep = tk_source_dispatch(loop, s->id, s->func, s->data);
        if (!keep) loop->sources[i]->removed = true;
    }
}

/* ---- Scripted input ------------------------------------------------------------------------ */

static bool write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static void *script_feeder(void *arg) {
    /* First of all: no signal is ever handled on this thread (it was also created with all of
     * them blocked, so none could arrive before this line). */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);

    TkScript *script = arg;
    for (size_t i = 0; i < script->count; i++) {
        const TkScriptEvent *ev = &script->events[i];
        int64_t due = script->start_ns + (int64_t)(ev->at_ms < 0 ? 0 : ev->at_ms) * NS_PER_MS;
        struct timespec deadline = {.tv_sec = due / 1000000000LL, .tv_nsec = due % 1000000000LL};
        bool stop;
        pthread_mutex_lock(&script->mutex);
        while (!script->stop && now_ns() < due)
            pthread_cond_timedwait(&script->cond, &script->mutex, &deadline);
        stop = script->stop;
        pthread_mutex_unlock(&script->mutex);
        if (stop) break;
        const char *text = ev->event ? ev->event : "";
        if (!write_all(script->write_fd, text, strlen(text)) || !write_all(script->write_fd, "\n", 1)) break;
    }
    close(script->write_fd);
    return NULL;
}

int tk_loop_add_script(TkLoop *loop, const TkScriptEvent *events, size_t count, TkInputFunc on_input,
                       void *data) {
    if (!loop || (count > 0 && !events)) {
        errno = EINVAL;
        return -1;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK); /* the loop never blocks but in poll */

    TkScript *script = calloc(1, sizeof *script);
    if (!script) abort();
    script->read_fd = fds[0];
    script->write_fd = fds[1];
    script->on_input = on_input;
    script->data = data;
    script->events = events;
    script->count = count;
    script->start_ns = now_ns();
    pthread_mutex_init(&script->mutex, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&script->cond, &attr);
    pthread_condattr_destroy(&attr);

    /* Create the feeder with every signal blocked (it inherits this thread's mask). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&script->thread, NULL, script_feeder, script);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0) {
        close(fds[0]);
        close(fds[1]);
        pthread_cond_destroy(&script->cond);
        pthread_mutex_destroy(&script->mutex);
        free(script);
        errno = err;
        return -1;
    }
    pthread_setname_np(script->thread, "tk-script");

    if (loop->script_count == loop->script_cap)
        loop->scripts = grow(loop->scripts, &loop->script_cap, sizeof loop->scripts[0]);
    loop->scripts[loop->script_count++] = script;
    return 0;
}

static void deliver_line(TkLoop *loop, TkScript *script, const char *line) {
    loop->stats.input_events++;
    if (script->on_input) script->on_input(line, script->data);
}

/* Reads what the pipe holds, delivers every complete line, and closes the source at EOF. */
static void dispatch_script(TkLoop *loop, TkScript *script) {
    char buf[4096];
    for (;;) {
        ssize_t n = read(script->read_fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            n = 0; /* a broken pipe ends the script like EOF */
        }
        if (n == 0) {
            if (script->line_len > 0) { /* a last line without its newline */
                script->line[script->line_len] = '\0';
                script->line_len = 0;
                deliver_line(loop, script, script->line);
            }
            close(script->read_fd);
            script->read_fd = -1;
            return;
        }
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                if (script->line_len == script->line_cap) script->line = grow(script->line, &script->line_cap, 1);
                script->line[script->line_len] = '\0';
                script->line_len = 0;
                deliver_line(loop, script, script->line);
            } else {
                /* keep room for the terminating NUL */
                if (script->line_len + 1 >= script->line_cap) script->line = grow(script->line, &script->line_cap, 1);
                script->line[script->line_len++] = buf[i];
            }
        }
    }
}

/* ---- Layout policies ----------------------------------------------------------------------- */

static bool roots_have_dirt(const TkLoop *loop) {
    for (size_t i = 0; i < loop->root_count; i++)
        if (tk__view_has_dirt(loop->roots[i])) return true;
    return false;
}

/* One pass over every root. */
static void layout_pass(TkLoop *loop) {
    loop->stats.layout_passes++;
    for (size_t i = 0; i < loop->root_count; i++) tk__layout_pass_root(loop->roots[i]);
}

/* UNCAPPED: lay out until clean, within this iteration; give up after TK_UNCAPPED_PASS_LIMIT
 * passes (clearing the dirt: the UI keeps a stale layout). */
static void layout_uncapped(TkLoop *loop) {
    loop->stats.frames++;
    for (unsigned passes = 0; roots_have_dirt(loop); passes++) {
        if (passes == TK_UNCAPPED_PASS_LIMIT) {
            for (size_t i = 0; i < loop->root_count; i++) tk__view_clear_dirt(loop->roots[i]);
            loop->stats.abandoned++;
            break;
        }
        layout_pass(loop);
    }
}

/* CAPPED: the frame clock. A frame runs at most every TK_FRAME_INTERVAL_MS (counted from the
 * previous frame's start) and makes at most TK_CAPPED_PASSES passes; dirt left over waits for the
 * next frame. */
static int64_t next_frame_ns(const TkLoop *loop) {
    return loop->had_frame ? loop->last_frame_ns + TK_FRAME_INTERVAL_MS * NS_PER_MS : 0;
}

static void layout_capped(TkLoop *loop, int64_t now) {
    if (now < next_frame_ns(loop)) return;
    loop->had_frame = true;
    loop->last_frame_ns = now;
    loop->stats.frames++;
    for (int i = 0; i < TK_CAPPED_PASSES && roots_have_dirt(loop); i++) layout_pass(loop);
}

static void run_layout(TkLoop *loop, int64_t now) {
    if (!loop->layout_pending) return;
    if (roots_have_dirt(loop)) {
        unsigned long frames = loop->stats.frames;
        if (loop->policy == TK_LAYOUT_CAPPED) layout_capped(loop, now);
        else layout_uncapped(loop);
        if (loop->stats.frames != frames) tk_loop_frame_done(loop, loop->stats.frames);
    }
    loop->layout_pending = roots_have_dirt(loop);
}

/* ---- The loop ------------------------------------------------------------------------------ */

/* The poll() timeout: 0 while idles wait; otherwise until the earliest timer, the next frame
 * (capped, layout pending) or the run's deadline; -1 when nothing is due (only input can come). */
static int compute_timeout(const TkLoop *loop, int64_t now, int64_t deadline) {
    int64_t wait = -1;
#define TK_WAIT_UNTIL(t) do { int64_t d_ = (t) - now; if (d_ < 0) d_ = 0; if (wait < 0 || d_ < wait) wait = d_; } while (0)
    for (size_t i = 0; i < loop->source_count; i++) {
        const TkSource *s = loop->sources[i];
        if (s->removed) continue;
        if (s->kind == TK_SOURCE_IDLE) return 0;
        TK_WAIT_UNTIL(s->due_ns);
    }
    if (loop->layout_pending) {
        /* Uncapped: only dirt made outside an iteration (e.g. before tk_loop_run) gets here, as
         * every uncapped layout ends clean; it is laid out at once. */
        if (loop->policy == TK_LAYOUT_CAPPED) TK_WAIT_UNTIL(next_frame_ns(loop));
        else wait = 0;
    }
    if (deadline > 0) TK_WAIT_UNTIL(deadline);
#undef TK_WAIT_UNTIL
    if (wait < 0) return -1;
    int64_t ms = (wait + NS_PER_MS - 1) / NS_PER_MS; /* round up: never wake before it is due */
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

unsigned long tk_loop_run(TkLoop *loop, int max_ms) {
    if (!loop) return 0;
    int64_t deadline = max_ms > 0 ? now_ns() + (int64_t)max_ms * NS_PER_MS : 0;
    unsigned long iterations = 0;
    struct pollfd *fds = NULL;
    TkScript **polled = NULL; /* polled[i] is the script of fds[i] */
    size_t fd_cap = 0;
    loop->quit_requested = false;

    for (;;) {
        /* The pollfds: every script still open. */
        if (fd_cap < loop->script_count) {
            fd_cap = loop->script_count;
            fds = realloc(fds, fd_cap * sizeof fds[0]);
            polled = realloc(polled, fd_cap * sizeof polled[0]);
            if (!fds || !polled) abort();
        }
        nfds_t nfds = 0;
        for (size_t i = 0; i < loop->script_count; i++) {
            if (loop->scripts[i]->read_fd < 0) continue;
            fds[nfds] = (struct pollfd){.fd = loop->scripts[i]->read_fd, .events = POLLIN};
            polled[nfds++] = loop->scripts[i];
        }

        int ready = poll(fds, nfds, compute_timeout(loop, now_ns(), deadline)); /* THE poll */
        loop->stats.iterations++;
        iterations++;

        if (ready > 0) {
            for (nfds_t i = 0; i < nfds; i++)
                if (fds[i].revents && polled[i]->read_fd >= 0) dispatch_script(loop, polled[i]);
        }
        dispatch_timers(loop, now_ns());
        dispatch_idles(loop);
        free_removed_sources(loop);
        run_layout(loop, now_ns());

        if (loop->quit_requested) break;
        if (deadline > 0 && now_ns() >= deadline) break;
    }
    free(fds);
    free(polled);
    return iterations;
}
