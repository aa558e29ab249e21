/*
 * lh_sandbox.c — processes that put themselves in a seccomp sandbox (a browser's content process,
 * a service under libseccomp): LoopHunter stays within what the sandbox allows, and what the
 * process finds still reaches the report directory.
 *
 * A filter is installed through prctl(PR_SET_SECCOMP) or the seccomp system call made with
 * syscall() (Firefox, libseccomp, systemd): both are interposed (family "process"). Just before the
 * filter takes effect, LoopHunter opens what it needs afterwards, while it still may:
 *   - a spool file in the report directory (`spool-<pid>-<tag>.lhspool`, 0600, O_EXCL|O_NOFOLLOW,
 *     appended to), to which each report and the summary are appended as one framed record by a
 *     single write(2) (see lh_spool_append; the reader checks every frame's length and hash, so a
 *     frame cut short by a full disk is never read as a report);
 *   - a pipe, through which memory that may be gone (a type name of an unloaded module) is copied
 *     with write(2) and read(2) instead of process_vm_readv.
 * From then on (lh_sandboxed()), LoopHunter makes no system call beyond what such sandboxes allow
 * their own threads (read, write, mmap, munmap, clock_gettime, gettid, getpid, tgkill, futex,
 * rt_sigaction, sched_getaffinity): no open, rename, prctl, getppid, /proc, getrandom or
 * process_vm_readv. The preparation runs once, on whichever thread installs the first filter
 * (Firefox installs it per thread from a signal handler: everything here is async-signal-safe).
 * libunwind validates some addresses with mincore(2) while it walks a stack (libunwind 1.6, on
 * frames without unwind information); LoopHunter's own walks (the guard held) inside a sandbox get
 * that answer from the pipe instead (mincore is interposed for this, and forwarded otherwise).
 * A sandbox installed by other means (a raw system call) is not seen; LoopHunter's writes then fail
 * and are counted as failed in the summary, the process runs on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lh_io.h"
#include "lh_breach.h"
#include "lh_writer.h"
#include "lh_runtime.h"

enum { SANDBOX_NONE = 0, SANDBOX_PREPARING = 1, SANDBOX_ON = 2 };

_Atomic int lh_sandbox_state; /* SANDBOX_*: CAS from NONE by the preparing thread; release of ON */
static int spool_fd = -1;      /* written by the preparing thread before ON is published */
static int probe_pipe[2] = {-1, -1};
static const char *entered_by; /* static text: how the filter was installed */
static uint64_t entered_ns;
static char spool_name[96];
static _Atomic uint64_t spooled, spool_failed; /* relaxed counters */

static void prepare(const char *how) {
    int expected = SANDBOX_NONE;
    /* relaxed: the preparing thread alone writes the fields; ON is published with release. */
    if (!lh_cas_relaxed(&lh_sandbox_state, &expected, SANDBOX_PREPARING))
        return;
    int saved = errno;
    /* Reports queued for the writer thread are written now, while open and rename still may be
     * called; from now on each report is appended to the spool by its breaching thread. */
    lh_writer_drain();
    entered_by = how;
    entered_ns = lh_now_ns();
    if (lh_proc.dir_ok) {
        lh_buf name;
        lh_buf_init(&name, spool_name, sizeof spool_name);
        lh_buf_put(&name, "spool-");
        lh_buf_u64(&name, (uint64_t)lh_proc.pid);
        lh_buf_putc(&name, '-');
        lh_buf_hex(&name, lh_proc.run_tag >> 32, 8);
        lh_buf_put(&name, ".lhspool");
        char path[sizeof lh_proc.cfg.dir + sizeof spool_name + 2];
        lh_buf p;
        lh_buf_init(&p, path, sizeof path);
        lh_buf_put(&p, lh_proc.cfg.dir);
        lh_buf_putc(&p, '/');
        lh_buf_put(&p, spool_name);
        if (!p.overflow)
            spool_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND, 0600);
    }
    /* With a spool, the summary goes there at exit: the file kept current until now is removed. */
    bool summary_token = spool_fd >= 0 && lh_summary_to_spool();
    if (pipe2(probe_pipe, O_CLOEXEC | O_NONBLOCK) != 0) probe_pipe[0] = probe_pipe[1] = -1;
    /* release: the descriptors above before any thread sees the sandbox on. */
    lh_store_release(&lh_sandbox_state, SANDBOX_ON);
    lh_summary_spooled(summary_token);
    errno = saved;
}

/* Called before the host's call that installs a filter (when LoopHunter is on). */
static void before_filter(const char *how) {
    lh_tls *t = &lh_tls_data;
    if (t->guard != 0 || !lh_active(LH_FAMILY_PROCESS)) return;
    LH_GUARDED(t);
    prepare(how);
}

/* prctl(option, arg2..arg5): glibc reads four more arguments whatever the option, as we do. */
LH_EXPORT int prctl(int option, ...) {
    va_list ap;
    va_start(ap, option);
    unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
    unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
    va_end(ap);
    __typeof__(lh_real_prctl) real = LH_ORIGINAL(prctl);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    if (option == PR_SET_SECCOMP && (a2 == SECCOMP_MODE_FILTER || a2 == SECCOMP_MODE_STRICT))
        before_filter("prctl(PR_SET_SECCOMP)");
    return real(option, a2, a3, a4, a5);
}

/* syscall(number, up to six arguments): forwarded with six, as glibc's own reads them. */
LH_EXPORT long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
    __typeof__(lh_real_syscall) real = LH_ORIGINAL(syscall);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
#ifdef SYS_seccomp
    if (LH_UNLIKELY(number == SYS_seccomp) && (a1 == SECCOMP_SET_MODE_FILTER || a1 == SECCOMP_SET_MODE_STRICT))
        before_filter("seccomp(SECCOMP_SET_MODE_FILTER)");
#endif
    return real(number, a1, a2, a3, a4, a5, a6);
}

/* mincore for LoopHunter's own stack walks inside a sandbox: each page mapped or not, through the
 * pipe (libunwind only asks whether the call succeeds). Everyone else gets the real one. */
LH_EXPORT int mincore(void *address, size_t length, unsigned char *vector) {
    __typeof__(lh_real_mincore) real = LH_ORIGINAL(mincore);
    if (LH_LIKELY(lh_tls_data.guard == 0 || !lh_sandboxed())) {
        if (real != NULL) return real(address, length, vector);
        errno = ENOSYS;
        return -1;
    }
    const uintptr_t page = 4096;
    if ((uintptr_t)address % page != 0) {
        errno = EINVAL;
        return -1;
    }
    for (uintptr_t at = (uintptr_t)address, i = 0; at < (uintptr_t)address + length; at += page, i++) {
        char byte;
        if (!lh_read_memory(&byte, (const void *)at, 1)) {
            errno = ENOMEM; /* as mincore: a page in the range is not mapped */
            return -1;
        }
        vector[i] = 1;
    }
    return 0;
}

/* ---- writing and reading inside the sandbox ------------------------------------------------------ */

/* fnv-1a 64 of the payload: the frame's check (written in the header, verified by the reader). */
static uint64_t fnv1a(const char *p, size_t n) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * UINT64_C(0x100000001b3);
    return h;
}

int lh_spool_append(char *frame, size_t payload_len) {
    if (spool_fd < 0) {
        lh_add_relaxed(&spool_failed, 1); /* stat */
        return -EBADF;
    }
    /* "LHSPOOL1 <length, 16 hex> <fnv-1a 64, 16 hex>" padded with spaces to LH_SPOOL_HEADER - 1,
     * then a newline; the payload; a newline. One write(2): frames never interleave (O_APPEND). */
    char *payload = frame + LH_SPOOL_HEADER;
    lh_buf h;
    lh_buf_init(&h, frame, LH_SPOOL_HEADER);
    lh_buf_put(&h, "LHSPOOL1 ");
    lh_buf_hex(&h, payload_len, 16);
    lh_buf_putc(&h, ' ');
    lh_buf_hex(&h, fnv1a(payload, payload_len), 16);
    memset(frame + h.len, ' ', LH_SPOOL_HEADER - 1 - h.len);
    frame[LH_SPOOL_HEADER - 1] = '\n';
    payload[payload_len] = '\n';
    size_t total = LH_SPOOL_HEADER + payload_len + 1;
    ssize_t n;
    do {
        n = write(spool_fd, frame, total);
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)total) {
        lh_add_relaxed(&spool_failed, 1); /* stat */
        return n < 0 ? -errno : -EIO;
    }
    lh_add_relaxed(&spooled, 1); /* stat */
    return 0;
}

bool lh_read_memory(void *out, const void *address, size_t len) {
    if (!lh_sandboxed()) {
        struct iovec local = {out, len}, remote = {(void *)address, len};
        return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len;
    }
    /* write(2) from an unmapped address fails with EFAULT instead of faulting. */
    if (probe_pipe[1] < 0 || len > 4096) return false;
    ssize_t n = write(probe_pipe[1], address, len);
    if (n <= 0) return false;
    char *dst = out;
    ssize_t got = read(probe_pipe[0], dst, (size_t)n);
    return n == (ssize_t)len && got == n;
}

void lh_sandbox_summary(lh_json *j) {
    if (lh_load_acquire(&lh_sandbox_state) != SANDBOX_ON) {
        lh_json_null(j, "sandbox");
        return;
    }
    lh_json_begin_object(j, "sandbox");
    lh_json_string(j, "entered_by", entered_by);
    lh_json_u64(j, "entered_ms", entered_ns > lh_proc.start_ns ? (entered_ns - lh_proc.start_ns) / 1000000 : 0);
    lh_json_string(j, "spool", spool_fd >= 0 ? spool_name : NULL);
    lh_json_u64(j, "records_spooled", lh_load_relaxed(&spooled));
    lh_json_u64(j, "records_lost", lh_load_relaxed(&spool_failed));
    lh_json_end_object(j);
}
