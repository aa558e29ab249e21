/*
 * lh_inject.c — `loophunter attach`'s injector (lh_inject.h): one function of a library called
 * inside a running process, on one of its threads, at its event loop's wait.
 *
 * How. The main thread of the process (tid == pid: the one that runs a GUI toolkit's loop) is
 * seized with ptrace; every other thread runs on untouched. If it is blocked in an event-loop wait
 * (poll, ppoll, select, pselect6, epoll_wait, epoll_pwait, epoll_pwait2), the interrupt finds it
 * there; otherwise it is followed from system call to system call until it enters one. There it holds
 * no malloc or loader lock, and GLib and Qt have released their context locks. A trampoline written
 * beforehand into unused bytes after a module's executable segment (the rest of its last page, never
 * executed by the program) saves every register and the SSE state, calls dlopen(library,
 * RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE), dlsym(handle, function) and function(argument), stores the
 * results in unused bytes after a module's writable segment, restores everything and jumps back to
 * the `syscall` instruction, so the thread makes the same wait again with the same arguments.
 *
 * Kill safety. The one change to the thread is a single PTRACE_SETREGS (rip = trampoline, the wait's
 * number in rax, no restart); everything written before it is unused memory. If loophunter dies
 * before that, the kernel detaches the thread and it goes on as it was; after it, the thread runs the
 * whole trampoline by itself. The call's own results are read with process_vm_readv.
 *
 * Cannot: a main thread that never waits (stuck in a computation: NO_SAFE_POINT after the timeout),
 * a main thread stopped by SIGSTOP, 32-bit or static processes, a thread running on a sigaltstack
 * inside a signal handler's wait (not met in practice). A wait restarted this way waits its whole
 * timeout again (the kernel's restart block is not reused: dlopen makes system calls of its own).
 */
#define _GNU_SOURCE
#include "lh_inject.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DATA_BYTES 64
#define MAX_MODULES 512

static int fail(lh_inject_result *out, int code, const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(out->message, sizeof out->message, format, ap);
    va_end(ap);
    out->code = code;
    return code;
}

static uint64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool is_wait(long nr) {
    return nr == SYS_poll || nr == SYS_ppoll || nr == SYS_select || nr == SYS_pselect6 || nr == SYS_epoll_wait ||
           nr == SYS_epoll_pwait || nr == 441 /* epoll_pwait2 */;
}

/* ---- the target's modules, from /proc/PID/maps and the files ------------------------------------ */

typedef struct module {
    char path[512];
    uintptr_t start; /* the mapping of file offset 0 */
} module;

/* Reads the ELF file of a module: the ELF header and program headers. */
static bool read_phdrs(int pid, const char *path, Elf64_Ehdr *eh, Elf64_Phdr *ph, size_t max) {
    char full[600];
    if (snprintf(full, sizeof full, "/proc/%d/root%s", pid, path) >= (int)sizeof full) full[0] = '\0';
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0) fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = pread(fd, eh, sizeof *eh, 0) == (ssize_t)sizeof *eh && memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
              eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_machine == EM_X86_64 && eh->e_phnum <= max &&
              pread(fd, ph, sizeof *ph * eh->e_phnum, (off_t)eh->e_phoff) == (ssize_t)(sizeof *ph * eh->e_phnum);
    close(fd);
    return ok;
}

/* The load bias of a module: its first mapping's start less its first PT_LOAD's page. */
static uintptr_t bias_of(const module *m, const Elf64_Ehdr *eh, const Elf64_Phdr *ph) {
    if (eh->e_type == ET_EXEC) return 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD) return m->start - (ph[i].p_vaddr & ~(uint64_t)4095);
    return m->start;
}

/* dlopen, dlsym, dlerror in libc.so.6's dynamic symbol table (default versions). */
static bool libc_functions(int pid, const module *libc, uintptr_t out[3]) {
    char full[600];
    snprintf(full, sizeof full, "/proc/%d/root%s", pid, libc->path);
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0) fd = open(libc->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    bool ok = false;
    if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr)) {
        uint8_t *file = malloc((size_t)st.st_size);
        if (file != NULL && pread(fd, file, (size_t)st.st_size, 0) == st.st_size) {
            const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
            const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
            const Elf64_Sym *syms = NULL;
            const char *strs = NULL;
            const uint16_t *versym = NULL;
            size_t count = 0;
            for (int i = 0; i < eh->e_shnum; i++) {
                if (sh[i].sh_type == SHT_DYNSYM) {
                    syms = (const Elf64_Sym *)(file + sh[i].sh_offset);
                    count = sh[i].sh_size / sizeof(Elf64_Sym);
                    strs = (const char *)(file + sh[sh[i].sh_link].sh_offset);
                } else if (sh[i].sh_type == SHT_GNU_versym) {
                    versym = (const uint16_t *)(file + sh[i].sh_offset);
                }
            }
            Elf64_Phdr ph[64];
            Elf64_Ehdr copy = *eh;
            memcpy(ph, file + eh->e_phoff, sizeof(Elf64_Phdr) * (eh->e_phnum < 64 ? eh->e_phnum : 64));
            uintptr_t bias = bias_of(libc, &copy, ph);
            static const char *const names[3] = {"dlopen", "dlsym", "dlerror"};
            memset(out, 0, sizeof(uintptr_t) * 3);
            for (size_t s = 0; syms != NULL && s < count; s++) {
                if (syms[s].st_shndx == SHN_UNDEF || ELF64_ST_TYPE(syms[s].st_info) != STT_FUNC) continue;
                if (versym != NULL && (versym[s] & 0x8000) != 0) continue; /* not the default version */
                for (int n = 0; n < 3; n++)
                    if (strcmp(strs + syms[s].st_name, names[n]) == 0) out[n] = bias + syms[s].st_value;
            }
            ok = out[0] != 0 && out[1] != 0 && out[2] != 0;
        }
        free(file);
    }
    close(fd);
    return ok;
}

/* Unused bytes at the end of a segment's last page: [end, page end) of the first module whose
 * segment with `flag` (PF_X or PF_W) leaves at least `need`. */
static uintptr_t slack(int pid, const module *mods, size_t n, unsigned flag, size_t need) {
    for (size_t i = 0; i < n; i++) {
        Elf64_Ehdr eh;
        Elf64_Phdr ph[64];
        if (!read_phdrs(pid, mods[i].path, &eh, ph, 64)) continue;
        uintptr_t bias = bias_of(&mods[i], &eh, ph);
        for (int p = 0; p < eh.e_phnum; p++) {
            if (ph[p].p_type != PT_LOAD || (ph[p].p_flags & flag) == 0) continue;
            if (flag == PF_X && (ph[p].p_flags & PF_W) != 0) continue;
            uintptr_t end = bias + ph[p].p_vaddr + ph[p].p_memsz;
            uintptr_t page_end = (end + 4095) & ~(uintptr_t)4095;
            if (page_end - end >= need) return (end + 15) & ~(uintptr_t)15;
        }
    }
    return 0;
}

static size_t read_modules(int pid, module *mods, size_t max, const module **libc) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE *f = fopen(path, "re");
    if (f == NULL) return 0;
    char line[1024];
    size_t n = 0;
    *libc = NULL;
    while (n < max && fgets(line, sizeof line, f) != NULL) {
        unsigned long start, offset;
        char *slash = strchr(line, '/');
        if (slash == NULL || sscanf(line, "%lx-%*[0-9a-f] %*s %lx", &start, &offset) != 2 || offset != 0) continue;
        slash[strcspn(slash, "\n")] = '\0';
        if (strstr(slash, " (deleted)") != NULL) continue;
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++) seen = strcmp(mods[i].path, slash) == 0;
        if (seen) continue;
        snprintf(mods[n].path, sizeof mods[n].path, "%s", slash);
        mods[n].start = start;
        const char *base = strrchr(slash, '/') + 1;
        if (strcmp(base, "libc.so.6") == 0) *libc = &mods[n];
        n++;
    }
    fclose(f);
    return n;
}

/* ---- the trampoline ----------------------------------------------------------------------------- */

typedef struct tramp {
    uint8_t bytes[512];
    size_t len;
} tramp;

static void emit(tramp *c, const void *bytes, size_t n) {
    memcpy(c->bytes + c->len, bytes, n);
    c->len += n;
}
#define EMIT(c, ...) emit(c, (const uint8_t[]){__VA_ARGS__}, sizeof((const uint8_t[]){__VA_ARGS__}))
static void emit64(tramp *c, uint64_t v) { emit(c, &v, 8); }

/* The trampoline at `at` for the call; strings follow the code. Returns its length. */
static size_t build(tramp *c, uintptr_t at, const uintptr_t libc[3], uintptr_t data, uintptr_t resume, const char *library,
                    const char *function, const char *argument) {
    size_t lib_len = strlen(library) + 1, fn_len = strlen(function) + 1;
    (void)argument; /* copied after the code by the caller; its address is computed here */
    c->len = 0;
    EMIT(c, 0x48, 0x81, 0xec, 0x80, 0x00, 0x00, 0x00);                 /* sub rsp, 128 (red zone) */
    EMIT(c, 0x9c);                                                     /* pushfq */
    EMIT(c, 0x50, 0x53, 0x51, 0x52, 0x56, 0x57, 0x55);                 /* push rax rbx rcx rdx rsi rdi rbp */
    EMIT(c, 0x41, 0x50, 0x41, 0x51, 0x41, 0x52, 0x41, 0x53, 0x41, 0x54, 0x41, 0x55, 0x41, 0x56, 0x41, 0x57); /* r8-r15 */
    EMIT(c, 0x48, 0x89, 0xe3);                                         /* mov rbx, rsp */
    EMIT(c, 0x48, 0x81, 0xec, 0x00, 0x02, 0x00, 0x00);                 /* sub rsp, 512 */
    EMIT(c, 0x48, 0x83, 0xe4, 0xf0);                                   /* and rsp, -16 */
    EMIT(c, 0x0f, 0xae, 0x04, 0x24);                                   /* fxsave [rsp] */
    EMIT(c, 0x49, 0xbc); emit64(c, data);                              /* mov r12, data */
    size_t strings_fix = c->len + 2;
    EMIT(c, 0x48, 0xbf); emit64(c, 0);                                 /* mov rdi, library (fixed below) */
    EMIT(c, 0xbe, 0x02, 0x10, 0x00, 0x00);                             /* mov esi, RTLD_NOW|RTLD_NODELETE */
    EMIT(c, 0x48, 0xb8); emit64(c, libc[0]);                           /* mov rax, dlopen */
    EMIT(c, 0xff, 0xd0);                                               /* call rax */
    EMIT(c, 0x49, 0x89, 0x04, 0x24);                                   /* mov [r12], rax */
    EMIT(c, 0x48, 0x85, 0xc0);                                         /* test rax, rax */
    EMIT(c, 0x75, 0x00); size_t jnz = c->len - 1;                      /* jnz have */
    EMIT(c, 0x48, 0xb8); emit64(c, libc[2]);                           /* mov rax, dlerror */
    EMIT(c, 0xff, 0xd0);                                               /* call rax */
    EMIT(c, 0x49, 0x89, 0x44, 0x24, 0x08);                             /* mov [r12+8], rax */
    EMIT(c, 0xeb, 0x00); size_t jmp_done1 = c->len - 1;                /* jmp done */
    c->bytes[jnz] = (uint8_t)(c->len - (jnz + 1));
    EMIT(c, 0x48, 0x89, 0xc7);                                         /* mov rdi, rax */
    size_t fn_fix = c->len + 2;
    EMIT(c, 0x48, 0xbe); emit64(c, 0);                                 /* mov rsi, function */
    EMIT(c, 0x48, 0xb8); emit64(c, libc[1]);                           /* mov rax, dlsym */
    EMIT(c, 0xff, 0xd0);                                               /* call rax */
    EMIT(c, 0x49, 0x89, 0x44, 0x24, 0x10);                             /* mov [r12+16], rax */
    EMIT(c, 0x48, 0x85, 0xc0);                                         /* test rax, rax */
    EMIT(c, 0x74, 0x00); size_t jz_done = c->len - 1;                  /* jz done */
    size_t arg_fix = c->len + 2;
    EMIT(c, 0x48, 0xbf); emit64(c, 0);                                 /* mov rdi, argument */
    EMIT(c, 0xff, 0xd0);                                               /* call rax */
    EMIT(c, 0x49, 0x89, 0x44, 0x24, 0x18);                             /* mov [r12+24], rax */
    c->bytes[jmp_done1] = (uint8_t)(c->len - (jmp_done1 + 1));
    c->bytes[jz_done] = (uint8_t)(c->len - (jz_done + 1));
    EMIT(c, 0x49, 0xc7, 0x44, 0x24, 0x20, 0x01, 0x00, 0x00, 0x00);     /* mov qword [r12+32], 1 */
    EMIT(c, 0x0f, 0xae, 0x0c, 0x24);                                   /* fxrstor [rsp] */
    EMIT(c, 0x48, 0x89, 0xdc);                                         /* mov rsp, rbx */
    EMIT(c, 0x41, 0x5f, 0x41, 0x5e, 0x41, 0x5d, 0x41, 0x5c, 0x41, 0x5b, 0x41, 0x5a, 0x41, 0x59, 0x41, 0x58); /* r15-r8 */
    EMIT(c, 0x5d, 0x5f, 0x5e, 0x5a, 0x59, 0x5b, 0x58);                 /* pop rbp rdi rsi rdx rcx rbx rax */
    EMIT(c, 0x9d);                                                     /* popfq */
    EMIT(c, 0x48, 0x81, 0xc4, 0x80, 0x00, 0x00, 0x00);                 /* add rsp, 128 */
    EMIT(c, 0xff, 0x25, 0x00, 0x00, 0x00, 0x00); emit64(c, resume);    /* jmp [rip]: back to the syscall */
    uintptr_t lib_at = at + c->len, fn_at = lib_at + lib_len, arg_at = fn_at + fn_len;
    memcpy(c->bytes + strings_fix, &lib_at, 8);
    memcpy(c->bytes + fn_fix, &fn_at, 8);
    memcpy(c->bytes + arg_fix, &arg_at, 8);
    return c->len;
}

/* ---- ptrace ------------------------------------------------------------------------------------- */

/* Waits for a stop of `tid` until `deadline` (ms); 1 stopped/exited (status set), 0 timed out. */
static int wait_until(int tid, int *status, uint64_t deadline) {
    for (;;) {
        int r = waitpid(tid, status, __WALL | WNOHANG);
        if (r == tid) return 1;
        if (r < 0 && errno != EINTR) return -1;
        if (now_ms() >= deadline) return 0;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

static void let_go(int tid) {
    if (ptrace(PTRACE_DETACH, tid, 0, 0) == 0) return;
    /* Running (not stopped): interrupt, then detach at the stop. */
    int status;
    ptrace(PTRACE_INTERRUPT, tid, 0, 0);
    if (wait_until(tid, &status, now_ms() + 1000) == 1 && WIFSTOPPED(status)) ptrace(PTRACE_DETACH, tid, 0, 0);
}

static bool read_target(int pid, uintptr_t at, void *buf, size_t n) {
    struct iovec local = {buf, n}, remote = {(void *)at, n};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)n;
}

int lh_inject_call(int pid, const char *library, const char *function, const char *argument, int timeout_ms,
                   lh_inject_result *out) {
    memset(out, 0, sizeof *out);
    if (library == NULL || function == NULL || argument == NULL || library[0] != '/' || strlen(library) > 1023 ||
        strlen(function) > 255 || strlen(argument) > 2047)
        return fail(out, LH_INJECT_BAD_ARGUMENT, "the library must be an absolute path and the strings short");
    uint64_t deadline = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 1);
    char path[96];
    snprintf(path, sizeof path, "/proc/%d", pid);
    if (access(path, F_OK) != 0) return fail(out, LH_INJECT_NO_PROCESS, "no process has pid %d", pid);

    /* One injection per process at a time. */
    snprintf(path, sizeof path, "/tmp/loophunter-inject-%d.lock", pid);
    int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        if (lock >= 0) close(lock);
        return fail(out, LH_INJECT_BUSY, "another loophunter is injecting into pid %d now; try again when it is done", pid);
    }

    static module mods[MAX_MODULES];
    const module *libc;
    size_t n = read_modules(pid, mods, MAX_MODULES, &libc);
    int code = LH_INJECT_OK;
    uintptr_t fns[3];
    size_t need = 400 + strlen(library) + strlen(function) + strlen(argument) + 3;
    uintptr_t cave = 0, data = 0;
    if (n == 0) {
        code = fail(out, LH_INJECT_NO_PROCESS, "cannot read the modules of pid %d (/proc/%d/maps): it has exited, or is not yours", pid, pid);
    } else if (libc == NULL) {
        code = fail(out, LH_INJECT_NOT_SUPPORTED, "pid %d has no glibc libc.so.6 mapped (statically linked, or another C library)", pid);
    } else if (!libc_functions(pid, libc, fns)) {
        code = fail(out, LH_INJECT_NOT_SUPPORTED, "%s of pid %d has no dlopen/dlsym/dlerror of its own (glibc older than 2.34?)", libc->path, pid);
    } else if ((cave = slack(pid, mods, n, PF_X, need + 16)) == 0 || (data = slack(pid, mods, n, PF_W, DATA_BYTES + 16)) == 0) {
        code = fail(out, LH_INJECT_NOT_SUPPORTED, "no module of pid %d leaves room for the %zu-byte call (page tails too small)", pid, need);
    }
    if (code != LH_INJECT_OK) {
        close(lock);
        return code;
    }

    int tid = pid;
    if (ptrace(PTRACE_SEIZE, tid, 0, PTRACE_O_TRACESYSGOOD) != 0) {
        int e = errno;
        close(lock);
        if (e == ESRCH) return fail(out, LH_INJECT_NO_PROCESS, "pid %d exited", pid);
        char scope[16] = "";
        FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
        if (f != NULL) {
            if (fgets(scope, sizeof scope, f) == NULL) scope[0] = '\0';
            fclose(f);
        }
        scope[strcspn(scope, "\n")] = '\0';
        return fail(out, e == EPERM ? LH_INJECT_NOT_PERMITTED : LH_INJECT_SYSTEM_ERROR,
                    "ptrace refused to trace pid %d (%s)%s%s%s; run as the process's user or root, or allow it with "
                    "`sudo sysctl kernel.yama.ptrace_scope=0` (another tracer, such as a debugger, may also hold it)",
                    pid, strerror(e), scope[0] != '\0' ? ", Yama ptrace_scope is " : "", scope, "");
    }
    int status;
    ptrace(PTRACE_INTERRUPT, tid, 0, 0);
    struct user_regs_struct regs;
    for (;;) {
        int w = wait_until(tid, &status, deadline);
        if (w <= 0) {
            let_go(tid);
            close(lock);
            return fail(out, LH_INJECT_NO_SAFE_POINT, "the main thread of pid %d did not reach its event loop's wait "
                        "within %d ms (busy in a long computation?); try again, or watch it from its start with loophunter run", pid, timeout_ms);
        }
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            close(lock);
            return fail(out, LH_INJECT_EXITED, "pid %d ended during the attach", pid);
        }
        int sig = WSTOPSIG(status), event = status >> 16;
        if (ptrace(PTRACE_GETREGS, tid, 0, &regs) != 0) {
            let_go(tid);
            close(lock);
            return fail(out, LH_INJECT_EXITED, "pid %d ended during the attach", pid);
        }
        int deliver = 0;
        if (sig == (SIGTRAP | 0x80)) {
            bool entering = (long)regs.rax == -ENOSYS;
            if (entering && is_wait((long)regs.orig_rax)) break;
        } else if (event == PTRACE_EVENT_STOP) {
            if (sig != SIGTRAP) {
                let_go(tid);
                close(lock);
                return fail(out, LH_INJECT_NO_SAFE_POINT, "pid %d is stopped (by %s); continue it with kill -CONT %d, then attach",
                            pid, strsignal(sig), pid);
            }
            long r = (long)regs.rax;
            if (is_wait((long)regs.orig_rax) && (r == -512 || r == -513 || r == -514 || r == -516)) break;
        } else {
            deliver = sig; /* a signal for the program: delivered as it would have been */
        }
        if (ptrace(PTRACE_SYSCALL, tid, 0, deliver) != 0) {
            close(lock);
            return fail(out, LH_INJECT_EXITED, "pid %d ended during the attach", pid);
        }
    }
    /* The 2 bytes before rip are the `syscall` instruction to go back to. */
    uint8_t insn[2];
    char mem_path[64];
    snprintf(mem_path, sizeof mem_path, "/proc/%d/mem", pid);
    int mem = open(mem_path, O_RDWR | O_CLOEXEC);
    if (mem < 0 || pread(mem, insn, 2, (off_t)(regs.rip - 2)) != 2 || insn[0] != 0x0f || insn[1] != 0x05) {
        if (mem >= 0) close(mem);
        let_go(tid);
        close(lock);
        return fail(out, LH_INJECT_SYSTEM_ERROR, "pid %d waits through an instruction this injector does not know; nothing was changed", pid);
    }
    tramp c;
    size_t len = build(&c, cave, fns, data, regs.rip - 2, library, function, argument);
    uint8_t blob[sizeof c.bytes + 3400];
    memcpy(blob, c.bytes, len);
    size_t lib_len = strlen(library) + 1, fn_len = strlen(function) + 1, arg_len = strlen(argument) + 1;
    memcpy(blob + len, library, lib_len);
    memcpy(blob + len + lib_len, function, fn_len);
    memcpy(blob + len + lib_len + fn_len, argument, arg_len);
    size_t total = len + lib_len + fn_len + arg_len;
    uint8_t zeros[DATA_BYTES] = {0};
    if (pwrite(mem, blob, total, (off_t)cave) != (ssize_t)total || pwrite(mem, zeros, sizeof zeros, (off_t)data) != (ssize_t)sizeof zeros) {
        close(mem);
        let_go(tid);
        close(lock);
        return fail(out, LH_INJECT_SYSTEM_ERROR, "cannot write into pid %d (/proc/%d/mem: %s); nothing was changed", pid, pid, strerror(errno));
    }
    close(mem);
    long nr = (long)regs.orig_rax;
    regs.rax = (unsigned long long)nr;
    regs.orig_rax = (unsigned long long)-1;
    regs.rip = cave;
    if (ptrace(PTRACE_SETREGS, tid, 0, &regs) != 0) {
        let_go(tid);
        close(lock);
        return fail(out, LH_INJECT_EXITED, "pid %d ended during the attach", pid);
    }
    ptrace(PTRACE_DETACH, tid, 0, 0);
    out->tid = tid;
    /* The call runs by itself now; its results, when it is done. */
    uint64_t results[5] = {0};
    for (;;) {
        if (!read_target(pid, data, results, sizeof results)) {
            close(lock);
            return fail(out, LH_INJECT_EXITED, "pid %d ended during the call", pid);
        }
        if (results[4] == 1) break;
        if (now_ms() >= deadline) {
            close(lock);
            return fail(out, LH_INJECT_TIMEOUT, "the call into pid %d did not finish within %d ms; it may still finish", pid, timeout_ms);
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    close(lock);
    if (results[0] == 0) {
        char why[512] = "no reason given";
        if (results[1] != 0 && read_target(pid, results[1], why, sizeof why - 1)) why[sizeof why - 1] = '\0';
        else if (results[1] != 0) {
            for (size_t k = 1; k < sizeof why; k++) /* shorter than the buffer, near a page end */
                if (!read_target(pid, results[1] + k - 1, why + k - 1, 1) || why[k - 1] == '\0') break;
            why[sizeof why - 1] = '\0';
        }
        return fail(out, LH_INJECT_LOAD_FAILED, "pid %d could not load %s: %s", pid, library, why);
    }
    if (results[2] == 0) return fail(out, LH_INJECT_NO_FUNCTION, "%s has no function %s", library, function);
    out->function_result = (long)(int)results[3];
    out->code = LH_INJECT_OK;
    return LH_INJECT_OK;
}

const char *lh_inject_code_name(int code) {
    static const char *const names[] = {"OK", "NO_PROCESS", "NOT_PERMITTED", "NOT_SUPPORTED", "NO_SAFE_POINT", "EXITED",
                                        "LOAD_FAILED", "NO_FUNCTION", "TIMEOUT", "BUSY", "BAD_ARGUMENT", "SYSTEM_ERROR"};
    return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "UNKNOWN";
}
