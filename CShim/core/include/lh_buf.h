/*
 * lh_buf.h — a bounded text builder over caller-provided memory (no allocation).
 *
 * May run anywhere (hooks, signal handlers): it only writes into the memory it was given. When the
 * memory is full, further appends are dropped and `overflow` is set; the text stays NUL-terminated.
 */
#ifndef LH_BUF_H
#define LH_BUF_H

#include "lh_base.h"

typedef struct lh_buf {
    char *data;
    size_t cap;      /* bytes available, including the terminating NUL */
    size_t len;      /* bytes written, excluding the NUL */
    bool overflow;   /* an append did not fit */
} lh_buf;

void lh_buf_init(lh_buf *b, char *mem, size_t cap) LH_HIDDEN;
void lh_buf_putn(lh_buf *b, const char *s, size_t n) LH_HIDDEN;
void lh_buf_put(lh_buf *b, const char *s) LH_HIDDEN;
void lh_buf_putc(lh_buf *b, char c) LH_HIDDEN;
void lh_buf_u64(lh_buf *b, uint64_t v) LH_HIDDEN;
void lh_buf_i64(lh_buf *b, int64_t v) LH_HIDDEN;
/* Lower-case hex without prefix, at least `min_digits` digits. */
void lh_buf_hex(lh_buf *b, uint64_t v, int min_digits) LH_HIDDEN;
/* At most `max` bytes of `s`, control characters shown as '?', "..." appended when cut. For
 * echoing untrusted input (environment values) in a one-line message. */
void lh_buf_put_clipped(lh_buf *b, const char *s, size_t max) LH_HIDDEN;

#endif
