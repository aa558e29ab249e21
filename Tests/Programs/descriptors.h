/*
 * descriptors.h — for the test programs that check LoopHunter takes none of their file
 * descriptors (lh_burst.c, reliability/lh_rel.c): how many the process has open, as the program
 * itself sees them in /proc/self/fd (the listing's own descriptor excepted).
 *
 * A count is only comparable within one process: a program may inherit descriptors its launcher
 * leaked (a test runner spawning from many threads at once), so compare a count with one taken
 * earlier in the same run. Inherited descriptors never have close-on-exec set (exec would have
 * closed them); descriptors the preload opens always do, so close_on_exec_descriptors() at the
 * start of main tells what the preload holds from its start-up, whatever the launcher leaked.
 */
#ifndef LH_TEST_DESCRIPTORS_H
#define LH_TEST_DESCRIPTORS_H

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>

/* How many descriptors are open; with `close_on_exec_only`, only those with FD_CLOEXEC set. */
static inline int count_descriptors(int close_on_exec_only) {
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d)) continue;
        if (!close_on_exec_only || (fcntl(atoi(e->d_name), F_GETFD) & FD_CLOEXEC)) n++;
    }
    closedir(d);
    return n;
}

static inline int open_descriptors(void) { return count_descriptors(0); }
static inline int close_on_exec_descriptors(void) { return count_descriptors(1); }

#endif
