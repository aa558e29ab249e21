/*
 * lh_io.c — clocks, stderr diagnostics, the report directory, atomic report files.
 *
 * Runs at start-up, on the breach path and at exit; may run inside a signal handler or the host's
 * malloc: only async-signal-safe system calls, no stdio, no allocation, errno preserved where the
 * host could observe it.
 */
#define _GNU_SOURCE
#include "lh_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* RENAME_NOREPLACE, renameat2 (declarations only; no stdio is used) */
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t lh_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t lh_wall_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lh_diag(const char *line) {
    int saved = errno;
    char mem[512];
    lh_buf b;
    lh_buf_init(&b, mem, sizeof mem);
    lh_buf_put(&b, line);
    lh_buf_putc(&b, '\n');
    if (b.overflow) mem[sizeof mem - 2] = '\n';
    const char *p = mem;
    size_t left = b.overflow ? sizeof mem - 1 : b.len;
    while (left > 0) {
        ssize_t n = write(2, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        p += n;
        left -= (size_t)n;
    }
    errno = saved;
}

/* Civil date from days since 1970-01-01 (Howard Hinnant's algorithm). */
/* strerrordesc_np: the untranslated description from a static table. strerror() may translate
 * through gettext, which can allocate. */
static const char *lh_error_text(int e) {
    const char *d = strerrordesc_np(e);
    return d != NULL ? d : "unknown error";
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static void put2(lh_buf *b, unsigned v) {
    lh_buf_putc(b, (char)('0' + v / 10 % 10));
    lh_buf_putc(b, (char)('0' + v % 10));
}

void lh_format_time(lh_buf *b, uint64_t wall_ns) {
    uint64_t secs = wall_ns / 1000000000u;
    unsigned micros = (unsigned)(wall_ns % 1000000000u / 1000u);
    int64_t y;
    unsigned mo, d, sod = (unsigned)(secs % 86400);
    civil_from_days((int64_t)(secs / 86400), &y, &mo, &d);
    lh_buf_i64(b, y);
    lh_buf_putc(b, '-');
    put2(b, mo);
    lh_buf_putc(b, '-');
    put2(b, d);
    lh_buf_putc(b, 'T');
    put2(b, sod / 3600);
    lh_buf_putc(b, ':');
    put2(b, sod / 60 % 60);
    lh_buf_putc(b, ':');
    put2(b, sod % 60);
    lh_buf_putc(b, '.');
    char frac[6];
    for (int i = 5; i >= 0; i--, micros /= 10) frac[i] = (char)('0' + micros % 10);
    lh_buf_putn(b, frac, sizeof frac);
    lh_buf_putc(b, 'Z');
}

/* mkdir -p with mode 0700 for every directory created. `path` is modified temporarily. */
static int make_parents(char *path) {
    for (char *p = path + 1; *p != '\0'; p++) {
        if (*p != '/') continue;
        *p = '\0';
        int r = mkdir(path, 0700);
        int e = errno;
        *p = '/';
        if (r != 0 && e != EEXIST) return -e;
    }
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return -errno;
    return 0;
}

int lh_dir_prepare(const char *dir, lh_buf *why) {
    int saved = errno;
    int result = -1;
    char path[3072];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        lh_buf_put(why, "is empty or too long");
        goto out;
    }
    memcpy(path, dir, n + 1);
    while (n > 1 && path[n - 1] == '/') path[--n] = '\0';

    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOTDIR) {
            lh_buf_put(why, "could not be created: part of the path is a file, not a directory");
            goto out;
        }
        if (errno != ENOENT) {
            lh_buf_put(why, "cannot be examined: ");
            lh_buf_put(why, lh_error_text(errno));
            goto out;
        }
        int r = make_parents(path);
        if (r != 0) {
            lh_buf_put(why, "could not be created: ");
            lh_buf_put(why, lh_error_text(-r));
            goto out;
        }
        if (stat(path, &st) != 0) {
            lh_buf_put(why, "could not be created: ");
            lh_buf_put(why, lh_error_text(errno));
            goto out;
        }
    }
    if (!S_ISDIR(st.st_mode)) {
        lh_buf_put(why, "is not a directory");
        goto out;
    }
    if (st.st_uid != geteuid()) {
        lh_buf_put(why, "is owned by uid ");
        lh_buf_u64(why, st.st_uid);
        lh_buf_put(why, ", not by you (uid ");
        lh_buf_u64(why, geteuid());
        lh_buf_put(why, "); use a directory of your own");
        goto out;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        lh_buf_put(why, "is writable by other users (mode 0");
        lh_buf_putc(why, (char)('0' + ((st.st_mode >> 6) & 7)));
        lh_buf_putc(why, (char)('0' + ((st.st_mode >> 3) & 7)));
        lh_buf_putc(why, (char)('0' + (st.st_mode & 7)));
        lh_buf_put(why, "); run chmod 700 on it or choose another directory");
        goto out;
    }
    if (access(path, W_OK | X_OK) != 0) {
        lh_buf_put(why, "is not writable: ");
        lh_buf_put(why, lh_error_text(errno));
        goto out;
    }
    result = 0;
out:
    errno = saved;
    return result;
}

static int write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -errno;
        if (n == 0) return -EIO;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Both writers: `replace` renames over an existing file; `tag` (0: none) is put in the name of
 * the temporary. */
static int write_file(const char *dir, const char *name, bool replace, unsigned tag, const char *data,
                      size_t len, char *scratch, size_t scratch_size) {
    int saved = errno;
    lh_buf tmp, final;
    size_t half = scratch_size / 2;
    lh_buf_init(&tmp, scratch, half);
    lh_buf_init(&final, scratch + half, scratch_size - half);
    lh_buf_put(&tmp, dir);
    lh_buf_put(&tmp, "/.");
    lh_buf_put(&tmp, name);
    if (tag != 0) {
        lh_buf_putc(&tmp, '.');
        lh_buf_u64(&tmp, tag);
    }
    lh_buf_put(&tmp, ".tmp");
    lh_buf_put(&final, dir);
    lh_buf_putc(&final, '/');
    lh_buf_put(&final, name);
    int result = -ENAMETOOLONG;
    if (tmp.overflow || final.overflow) goto out;

    int fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        result = -errno;
        goto out;
    }
    result = write_all(fd, data, len);
    if (close(fd) != 0 && result == 0 && errno != EINTR) result = -errno;
    if (result == 0 && replace) {
        /* rename(2) replaces atomically: a reader sees the old file or the new one, whole. */
        if (rename(tmp.data, final.data) == 0) goto out;
        result = -errno;
    } else if (result == 0) {
        /* Never replace an existing file: a planted or older file of the same name stays. */
        if (renameat2(AT_FDCWD, tmp.data, AT_FDCWD, final.data, RENAME_NOREPLACE) == 0) goto out;
        if (errno == EINVAL || errno == ENOSYS) {
            /* File systems without RENAME_NOREPLACE: link(2) also refuses to replace. */
            result = link(tmp.data, final.data) == 0 ? 0 : -errno;
        } else {
            result = -errno;
        }
    }
    unlink(tmp.data);
out:
    errno = saved;
    return result;
}

int lh_write_file_atomic(const char *dir, const char *name, const char *data, size_t len,
                         char *scratch, size_t scratch_size) {
    return write_file(dir, name, false, 0, data, len, scratch, scratch_size);
}

int lh_replace_file_atomic(const char *dir, const char *name, unsigned tag, const char *data, size_t len,
                           char *scratch, size_t scratch_size) {
    return write_file(dir, name, true, tag, data, len, scratch, scratch_size);
}
