/*
 * probe.c -> libprobe.so: the library scripts/test-inject.sh injects.
 *   probe_hello(path): writes "<path> tid=<thread id>\n" to the file `path` (open/write/close), returns 42.
 *   probe_sleep(ms):   sleeps that many milliseconds (a call that outlives a short timeout), returns 7.
 *   probe_clobber(_):  clobbers errno and the vector registers (regs_target.c checks they come back), returns 42.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

__attribute__((visibility("default"))) int probe_hello(const char *arg) {
    char line[4200];
    int n = snprintf(line, sizeof line, "%s tid=%d\n", arg, gettid());
    int fd = open(arg, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    ssize_t w = write(fd, line, (size_t)n);
    close(fd);
    return w == n ? 42 : -2;
}

__attribute__((visibility("default"))) int probe_sleep(const char *arg) {
    long ms = atol(arg);
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
    return 7;
}

/* probe_clobber: changes errno and every vector and mask register it can (the caller-saved state
 * an injected function may legally change), then returns 42. */
__attribute__((visibility("default"))) int probe_clobber(const char *arg) {
    (void)arg;
    errno = 1234;
    __builtin_cpu_init();
#define IRP16 ".irp i,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
    if (__builtin_cpu_supports("avx512f"))
        __asm__ volatile(IRP16 ",16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
                         "vpternlogd $0xff, %%zmm\\i, %%zmm\\i, %%zmm\\i\n.endr\n"
                         ".irp i,0,1,2,3,4,5,6,7\nkxnorq %%k\\i, %%k\\i, %%k\\i\n.endr\n"
                         "vzeroupper\n" ::: "memory");
    else if (__builtin_cpu_supports("avx"))
        __asm__ volatile(IRP16 "\nvpcmpeqd %%ymm\\i, %%ymm\\i, %%ymm\\i\n.endr\nvzeroupper\n" ::: "memory");
    else
        __asm__ volatile(IRP16 "\npcmpeqd %%xmm\\i, %%xmm\\i\n.endr\n" ::: "memory");
    return 42;
}
