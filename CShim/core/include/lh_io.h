/*
 * lh_io.h — the few system interactions of LoopHunter: clocks, diagnostics, the report directory
 * and atomic file writes.
 *
 * Everything here is async-signal-safe system calls only (open, write, rename, mkdir, fstat,
 * clock_gettime): no stdio, no allocation, errno preserved by lh_diag.
 */
#ifndef LH_IO_H
#define LH_IO_H

#include "lh_buf.h"

/* Writes "<line>\n" to fd 2 with raw write(2); preserves errno; ignores failure (fd 2 may be
 * closed, e.g. by an atexit handler of the host). */
void lh_diag(const char *line) LH_HIDDEN;

/* "2026-11-21T05:37:00.123456Z" for a CLOCK_REALTIME value in ns. */
void lh_format_time(lh_buf *b, uint64_t wall_ns) LH_HIDDEN;

/* Makes `dir` usable for reports: creates it (and missing parents) with mode 0700, then checks
 * that it is a directory owned by the effective user and not writable by group or others.
 * Returns 0, or -1 with a reason ("is owned by uid 0, not 1000") in `why`. */
int lh_dir_prepare(const char *dir, lh_buf *why) LH_HIDDEN;

/* Writes `data` to `dir`/`name` atomically: a temporary file `dir`/.`name`.tmp created with
 * O_EXCL|O_NOFOLLOW and mode 0600, fully written, then renamed into place without replacing an
 * existing file. A reader never sees a partial file under `name`. `scratch` (>= strlen(dir) + 2 *
 * strlen(name) + 16 bytes) holds the two paths. Returns 0 or -errno (the temporary is removed). */
int lh_write_file_atomic(const char *dir, const char *name, const char *data, size_t len,
                         char *scratch, size_t scratch_size) LH_HIDDEN;
/* The same, except that an existing `name` is replaced (rename(2): a reader sees the old file or
 * the new one, whole): for a file this process wrote first with lh_write_file_atomic and keeps
 * current (its summary). The temporary is `dir`/.`name`.`tag`.tmp (`tag` > 0, e.g. the writing
 * thread's id), so two writers with different tags never share one. `scratch` as above + 24. */
int lh_replace_file_atomic(const char *dir, const char *name, unsigned tag, const char *data, size_t len,
                           char *scratch, size_t scratch_size) LH_HIDDEN;

#endif
