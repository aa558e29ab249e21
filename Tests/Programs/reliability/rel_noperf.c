/*
 * rel_noperf.c — lh-rel-noperf PROGRAM [ARG...]: runs PROGRAM where perf_event_open(2) fails with
 * EPERM, as in a container under Docker's default seccomp profile (and wherever
 * kernel.perf_event_paranoid forbids it): LoopHunter's watches of inline size reads
 * (runtime/lh_watch.c) are then unavailable, and the program must run as without them.
 *
 * The filter (prctl(PR_SET_NO_NEW_PRIVS), then a seccomp-BPF program: the architecture checked,
 * perf_event_open answered with EPERM, every other call allowed) is installed in this process,
 * which then executes PROGRAM with LD_PRELOAD set to $LH_NOPERF_PRELOAD (when set): LoopHunter is
 * loaded into PROGRAM only, never into this launcher (whose prctl it would take for a sandbox).
 *
 * Exit status: PROGRAM's; 77 when the kernel refuses the filter ("noperf: unavailable: <reason>"
 * on stderr); 127 when PROGRAM cannot be executed; 2 without PROGRAM.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: lh-rel-noperf PROGRAM [ARG...]\n");
        return 2;
    }
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        fprintf(stderr, "noperf: unavailable: %s\n", strerror(errno));
        return 77;
    }
    const char *preload = getenv("LH_NOPERF_PRELOAD");
    if (preload != NULL && setenv("LD_PRELOAD", preload, 1) != 0) return 127;
    execvp(argv[1], argv + 1);
    fprintf(stderr, "noperf: cannot execute %s: %s\n", argv[1], strerror(errno));
    return 127;
}
