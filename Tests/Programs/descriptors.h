/*
 * descriptors.h — for the test programs that check LoopHunter takes none of their file
 * descriptors (lh_burst.c, reliability/lh_rel.c): how many the process has open, as the program
 * itself sees them in /proc/self/fd (the listing's own descriptor excepted).
 */
#ifndef LH_TEST_DESCRIPTORS_H
#define LH_TEST_DESCRIPTORS_H

#include <dirent.h>
#include <stdlib.h>

static inline int open_descriptors(void) {
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d)) n++;
    closedir(d);
    return n;
}

#endif
