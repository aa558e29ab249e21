/*
 * lh_attach.c — `loophunter attach`: a session of LoopHunter in a process that is already running.
 * The command's injector loads this library with dlopen(RTLD_LOCAL | RTLD_NODELETE) on a thread of
 * the process that is at its event loop's wait, and calls loophunter_attach there; at the end of the
 * session it calls loophunter_detach the same way. The constructor left the library DETACHED
 * (runtime/lh_state.c: loaded after libc means loaded late), so nothing ran before this.
 *
 * A session: the configuration is read from the control file the command wrote (LOOPHUNTER_*
 * lines, as the environment gives them under `loophunter run`, the time the session ends by itself,
 * and the command's pid: once that process is gone, killed, the session ends within a second of the
 * next iteration boundary, and a new attach ends such a session instead of being refused);
 * LoopHunter starts as at a preloaded start-up; the toolkits catch up with what already
 * exists (GTK classes initialised and frame clocks made before us); the modules' GOT entries are
 * pointed at our wrappers (lh_got.c), again whenever modules are loaded. The end gives the entries
 * and the toolkits' class slots back, writes the summary ("detached") and stops LoopHunter's threads:
 * the process runs on as before, with this library mapped and idle (never unloaded: a call may
 * still be inside one of its wrappers). A later session starts afresh.
 *
 * Contracts: both entry points run on a host thread at its loop's wait (not inside malloc, a lock
 * of the loader or of the toolkit's context, or a signal handler), with the guard held for the
 * whole call and errno given back. If the command dies, the session ends itself at its deadline,
 * from the next iteration boundary of a loop thread. The control file is read with raw system
 * calls into static memory (no allocation of ours). The command's pid is looked at with kill(pid, 0)
 * at most once a second, and never in a process under a seccomp sandbox (the command passes no pid
 * for one; lh_sandboxed for one entered later): a filter may kill for a system call it does not
 * expect.
 */
#include <signal.h>
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lh_shared.h"
#include "lh_got.h"
#include "lh_hooks.h"
#include "lh_io.h"
#include "lh_modules.h"
#include "lh_runtime.h"
#include "lh_symbols.h"

#define CONTROL_BYTES 16384
#define CONTROL_LINES 128
#define OWNER_CHECK_NS 1000000000ull

static char control_text[CONTROL_BYTES];
static char *control_env[CONTROL_LINES + 1];
static _Atomic int ending;               /* one end per session: the command's or the deadline's */
static _Atomic uint64_t modules_seen;    /* lh_modules_generation() at the last redirect (relaxed) */
static _Atomic uint64_t owner_checked_ns; /* the last look at the command's pid (relaxed: a rate limit) */

static uint64_t number_after(const char *text) {
    uint64_t v = 0;
    for (const char *c = text; *c >= '0' && *c <= '9'; c++) v = v * 10 + (uint64_t)(*c - '0');
    return v;
}

/* Reads the control file: LOOPHUNTER_* lines become the configuration's environment; the line
 * `deadline_ns=N` (CLOCK_MONOTONIC) is when the session ends by itself, `owner_pid=N` the command's
 * process (0 or absent: not looked at). false: unreadable. */
static bool read_control(const char *path, uint64_t *deadline, int *owner) {
    *deadline = 0;
    *owner = 0;
    if (path == NULL) return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return false;
    size_t used = 0;
    for (;;) {
        ssize_t n = read(fd, control_text + used, CONTROL_BYTES - 1 - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += (size_t)n;
        if (used == CONTROL_BYTES - 1) break;
    }
    close(fd);
    control_text[used] = '\0';
    size_t lines = 0;
    for (char *line = control_text; line != NULL && *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL) *end = '\0';
        if (strncmp(line, "LOOPHUNTER_", 11) == 0 && strchr(line, '=') != NULL && lines < CONTROL_LINES) {
            control_env[lines++] = line;
        } else if (strncmp(line, "deadline_ns=", 12) == 0) {
            *deadline = number_after(line + 12);
        } else if (strncmp(line, "owner_pid=", 10) == 0) {
            uint64_t pid = number_after(line + 10);
            *owner = pid < 0x40000000u ? (int)pid : 0;
        }
        line = end != NULL ? end + 1 : NULL;
    }
    control_env[lines] = NULL;
    return true;
}

static void end_session(int why);

/* Whether the command that began the session is gone (looked at at most once a second). */
static bool owner_gone(uint64_t now) {
    int owner = lh_proc.attach_owner_pid;
    if (owner <= 0 || lh_sandboxed()) return false;
    uint64_t last = lh_load_relaxed(&owner_checked_ns);
    if (now - last < OWNER_CHECK_NS || !lh_cas_relaxed(&owner_checked_ns, &last, now)) return false;
    return kill(owner, 0) != 0 && errno == ESRCH;
}

/* At every iteration boundary of a loop thread while attached: the first one is noted; modules
 * loaded since the last look get their entries redirected; a session past its deadline, or whose
 * command is gone, ends. Guard held, errno given back by the caller (lh_loop_return). */
static void at_iteration(uint64_t now) {
    uint64_t none = 0, began = lh_proc.attach_began_ns;
    if (lh_load_relaxed(&lh_proc.attach_first_iteration_ns) == 0)
        lh_cas_relaxed(&lh_proc.attach_first_iteration_ns, &none, now > began ? now - began : 1);
    uint64_t deadline = lh_proc.attach_deadline_ns;
    if (deadline != 0 && now >= deadline) {
        end_session(LH_ATTACH_END_DEADLINE);
        return;
    }
    if (owner_gone(now)) {
        end_session(LH_ATTACH_END_OWNER);
        return;
    }
    uint64_t generation = lh_modules_generation();
    if ((generation != lh_load_relaxed(&modules_seen) || lh_got_pending()) && lh_got_redirect())
        lh_store_relaxed(&modules_seen, generation);
}

/* Ends the session once (the first caller does it all; another returns at once). */
static void end_session(int why) {
    int expected = 0;
    /* relaxed: a once-flag per session; what it guards is ordered by lh_state's release below. */
    if (!lh_cas_relaxed(&ending, &expected, 1)) return;
    lh_tls *t = &lh_tls_data;
    LH_GUARDED(t);
    lh_proc.attach_ended_by = why;
    lh_store_relaxed(&lh_proc.attach_iteration, NULL);
    /* The entries first: from now on no new call enters a wrapper through them. */
    lh_got_restore();
    for (size_t i = 0; lh_toolkits[i] != NULL; i++)
        if (lh_toolkits[i]->detached != NULL) lh_toolkits[i]->detached();
    lh_session_end();
}

LH_EXPORT int loophunter_attach(const char *control) {
    lh_tls *t = &lh_tls_data;
    LH_GUARDED(t);
    int state = lh_load_acquire(&lh_state);
    if (state == LH_STATE_READY && lh_proc.attached && lh_proc.attach_owner_pid > 0 && !lh_sandboxed()
        && kill(lh_proc.attach_owner_pid, 0) != 0 && errno == ESRCH) {
        /* The session of a command that was killed: this command takes over. */
        end_session(LH_ATTACH_END_REPLACED);
        state = lh_load_acquire(&lh_state); /* DETACHED, unless another thread is still ending it */
    }
    if (state == LH_STATE_READY || state == LH_STATE_INITIALIZING)
        return lh_proc.attached ? LOOPHUNTER_ATTACH_RUNNING : LOOPHUNTER_ATTACH_PRELOADED;
    if (state == LH_STATE_UNINIT || state == LH_STATE_OFF) return LOOPHUNTER_ATTACH_PRELOADED;
    uint64_t deadline;
    int owner;
    if (!read_control(control, &deadline, &owner)) return LOOPHUNTER_ATTACH_NO_CONTROL;
    lh_store_relaxed(&ending, 0);
    lh_store_relaxed(&lh_proc.got_modules, 0);
    lh_store_relaxed(&lh_proc.got_redirected, 0);
    lh_store_relaxed(&lh_proc.got_left, 0);
    lh_store_relaxed(&lh_proc.got_unwritable, 0);
    lh_proc.attach_deadline_ns = deadline;
    lh_proc.attach_owner_pid = owner;
    lh_proc.attach_ended_by = LH_ATTACH_END_NONE;
    lh_store_relaxed(&lh_proc.attach_first_iteration_ns, 0);
    lh_store_relaxed(&owner_checked_ns, 0);
    int begun = lh_session_begin(control_env);
    if (begun == -1) return LOOPHUNTER_ATTACH_RUNNING;
    if (begun != 0) return LOOPHUNTER_ATTACH_OFF;
    /* The toolkits catch up with what exists, then the calls come to us. */
    for (size_t i = 0; lh_toolkits[i] != NULL; i++)
        if (lh_toolkits[i]->attached != NULL) lh_toolkits[i]->attached();
    lh_store_relaxed(&modules_seen, lh_modules_generation());
    if (!lh_got_redirect()) {
        lh_say("loophunter: could not map ", "the list of redirected entries", "; nothing is watched");
        end_session(LH_ATTACH_END_FAILED);
        return LOOPHUNTER_ATTACH_OFF;
    }
    lh_proc.attach_began_ns = lh_now_ns();
    /* release: a loop thread that sees the callback sees attach_began_ns and the owner. */
    lh_store_release(&lh_proc.attach_iteration, at_iteration);
    return LOOPHUNTER_ATTACH_OK;
}

LH_EXPORT int loophunter_detach(const char *control) {
    (void)control;
    if (lh_load_acquire(&lh_state) != LH_STATE_READY || !lh_proc.attached) return LOOPHUNTER_ATTACH_NOT_ATTACHED;
    end_session(LH_ATTACH_END_COMMAND);
    return LOOPHUNTER_ATTACH_OK;
}
