/*
 * lh_capture.c — stack capture for the detectors and the report writer: the walk itself
 * (lh_unwind.h), loading libunwind and its set-up, and stacks kept for later (where a window or a
 * timer was made).
 *
 * Async-signal-safe once primed: libunwind's local unwinder allocates nothing after its first walk
 * (made by lh_prime_unwinder when LoopHunter prepares to report, not inside a hook). Guard held by
 * every caller. lh_unwinder_load runs once (lh_prepare_for_breaches' once-flag), with the guard
 * held, never in a signal handler or inside the host's malloc: dlopen takes the loader's lock and
 * allocates (through the real malloc: the guard is held).
 *
 * libunwind's memory validation opens no descriptor. On a frame without unwind information
 * libunwind checks each address it reads by writing one byte from it to a pipe of its own (opened
 * at its first walk, reopened whenever a read from it fails). Those two descriptors would be
 * LoopHunter's in the host: they outlived a `loophunter attach` session, and had one been closed
 * while libunwind still held its numbers, libunwind would later read from, write to and close
 * whatever the host had opened under them. So libunwind's own imports of pipe2, pipe, read, close
 * and syscall are pointed (its GOT entries, once, when it is loaded) at the functions below: its
 * "pipe" is two numbers no descriptor can have, a read from it finds it empty, as a non-blocking
 * pipe would be, and a write of a byte to it is the same question asked of the kernel without a
 * descriptor (lh_read_memory: process_vm_readv, or the sandbox's own pipe inside a seccomp
 * sandbox). Every other call goes where libunwind's call went before. Async-signal-safe, as the
 * walk is. Its dl_iterate_phdr is LoopHunter's lh_modules_iterate (core/lh_modules.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lh_elf.h"
#include "lh_io.h"
#include "lh_runtime.h"
#include "lh_symbols.h"
#include "lh_unwind.h"

#define LH_SELF_FRAMES 16 /* room for LoopHunter's own frames on top of the stack */

bool lh_unwind_by_steps; /* see lh_unwind.h: set by lh_unwinder_init, before LoopHunter is ready */
lh_unwind_api lh_unw;
bool lh_unwind_loaded;

#define LH_NAME_OF(symbol) LH_NAME_OF_(symbol)
#define LH_NAME_OF_(symbol) #symbol
/* libunwind's run-time name (the libunwind8 package): its ABI is that of the headers built against. */
#define LH_LIBUNWIND "libunwind.so.8"

/* ---- libunwind's validation pipe, without descriptors ------------------------------------------ */

/* Numbers no descriptor can have (and not -1, libunwind's "none"). */
enum { PIPE_READ_END = -4096, PIPE_WRITE_END = -4095 };

/* Where libunwind's calls went before (its entries' values, or the definition it would have bound
 * to when an entry was still a lazy stub). Written once before the first walk. */
static struct {
    int (*pipe2)(int[2], int);
    int (*pipe)(int[2]);
    ssize_t (*read)(int, void *, size_t);
    int (*close)(int);
    long (*syscall)(long, ...);
} unw_next;

static int unw_pipe2(int fds[2], int flags) {
    (void)flags;
    fds[0] = PIPE_READ_END;
    fds[1] = PIPE_WRITE_END;
    return 0;
}

static int unw_pipe(int fds[2]) { return unw_pipe2(fds, 0); }

static ssize_t unw_read(int fd, void *buf, size_t n) {
    if (fd == PIPE_READ_END) {
        errno = EAGAIN; /* an empty non-blocking pipe: libunwind keeps it */
        return -1;
    }
    return unw_next.read(fd, buf, n);
}

static int unw_close(int fd) {
    if (fd == PIPE_READ_END || fd == PIPE_WRITE_END) return 0;
    return unw_next.close(fd);
}

/* syscall(number, up to six arguments), as glibc's own reads them. */
static long unw_syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
    /* The descriptor is an int: libunwind passes it as one (the register's upper half is not set). */
    if (number == SYS_write && (int)a1 == PIPE_WRITE_END) {
        char byte;
        if (a3 > 0 && lh_read_memory(&byte, (const void *)a2, 1)) return 1;
        errno = EFAULT; /* what write(2) says of an unreadable buffer */
        return -1;
    }
    return unw_next.syscall(number, a1, a2, a3, a4, a5, a6);
}

typedef struct unw_import {
    const char *name;
    void *ours;
    void **next;
} unw_import;

static const unw_import unw_imports[] = {
    {"pipe2", (void *)unw_pipe2, (void **)&unw_next.pipe2},
    {"pipe", (void *)unw_pipe, (void **)&unw_next.pipe},
    {"read", (void *)unw_read, (void **)&unw_next.read},
    {"close", (void *)unw_close, (void **)&unw_next.close},
    {"syscall", (void *)unw_syscall, (void **)&unw_next.syscall},
    /* Its walk of the modules (to find a frame's unwind tables) is LoopHunter's: readable in a
     * child of fork that inherited the loader's lock held (lh_modules_freeze). */
    {"dl_iterate_phdr", (void *)lh_modules_iterate, NULL},
};

static void redirect_unw_entry(const lh_elf_module *m, const lh_elf_entry *e, void *ctx) {
    unsigned *redirected = ctx;
    for (size_t i = 0; i < LH_ARRAY_COUNT(unw_imports); i++) {
        const unw_import *im = &unw_imports[i];
        if (strcmp(e->name, im->name) != 0) continue;
        void *now = __atomic_load_n(e->entry, __ATOMIC_RELAXED);
        if (now == im->ours) return;
        if (lh_elf_unbound(m, e, now)) {
            /* A lazy stub would bind the entry over ours on its first call: forward to the
             * definition it would have bound to. */
            lh_symbol_hit hit;
            now = lh_symbol_find(im->name, (const void *)redirect_unw_entry, &hit) ? hit.address : NULL;
        }
        if (now == NULL) return;
        if (im->next != NULL) *im->next = now;
        if (lh_elf_store_entry(e->entry, im->ours, e->relro)) ++*redirected;
        return;
    }
}

static int redirect_unw_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    void **at = arg;
    if (!lh_module_contains(info, (uintptr_t)at[0])) return 0;
    lh_elf_module m;
    if (lh_elf_module_read(info, &m)) lh_elf_each_entry(&m, redirect_unw_entry, at[1]);
    return 1;
}

/* Points libunwind's imports (the module holding `inside`) at the functions above. Returns how
 * many entries were redirected. */
static unsigned redirect_unw_imports(void *inside) {
    unsigned redirected = 0;
    void *at[2] = {inside, &redirected};
    lh_modules_iterate(redirect_unw_cb, at);
    return redirected;
}

/* ---- loading libunwind ------------------------------------------------------------------------------ */

bool lh_unwinder_load(void) {
    if (__atomic_load_n(&lh_unwind_loaded, __ATOMIC_ACQUIRE)) return true;
    /* RTLD_LOCAL: libunwind's weak `backtrace` stays out of the host's symbol lookups. NODELETE: the
     * pointers below stay valid for the life of the process. */
    void *handle = dlopen(LH_LIBUNWIND, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    lh_unwind_api api = {0};
    if (handle != NULL) {
        /* The macros of libunwind.h name the local-only functions (_ULx86_64_step...). */
        *(void **)&api.backtrace = dlsym(handle, "unw_backtrace");
        *(void **)&api.getcontext = dlsym(handle, LH_NAME_OF(unw_tdep_getcontext));
        *(void **)&api.init_local = dlsym(handle, LH_NAME_OF(unw_init_local));
        *(void **)&api.get_reg = dlsym(handle, LH_NAME_OF(unw_get_reg));
        *(void **)&api.step = dlsym(handle, LH_NAME_OF(unw_step));
    }
    if (api.backtrace == NULL || api.getcontext == NULL || api.init_local == NULL || api.get_reg == NULL ||
        api.step == NULL) {
        /* dlerror's text was made by the failing call (no allocation here); say it and what to do. */
        const char *why = dlerror();
        char mem[512];
        lh_buf line;
        lh_buf_init(&line, mem, sizeof mem);
        lh_buf_put(&line, "loophunter: could not load " LH_LIBUNWIND " (");
        lh_buf_put_clipped(&line, why != NULL ? why : "a function is missing from it", 300);
        lh_buf_put(&line, "): reports are written without stacks; install the libunwind8 package");
        lh_diag(line.data);
        return false;
    }
    redirect_unw_imports(*(void **)&api.backtrace);
    lh_unw = api;
    /* release: lh_unw is filled before a walk (acquire in lh_unwind) can see the flag. */
    __atomic_store_n(&lh_unwind_loaded, true, __ATOMIC_RELEASE);
    return true;
}

void lh_unwinder_init(void) {
    /* The TSan runtime is in the process (a TSan-built host): walk without unw_backtrace's cache.
     * Written once during start-up; lh_init_slow's release store of the ready state publishes it
     * to every capture (they all run after an acquire of that state). */
    if (lh_host_has_tsan()) lh_unwind_by_steps = true;
}

void lh_prime_unwinder(void) {
    void *pcs[8];
    lh_unwind(pcs, 8);
}

uint32_t lh_capture_stack(uintptr_t *out, uint32_t max) {
    void *raw[32 + LH_SELF_FRAMES];
    int n = lh_unwind(raw, (int)(max < 32 ? max : 32) + LH_SELF_FRAMES);
    uint32_t count = 0;
    for (int i = 0; i < n && count < max; i++)
        if (!lh_is_own_code((uintptr_t)raw[i])) out[count++] = (uintptr_t)raw[i];
    return count;
}
