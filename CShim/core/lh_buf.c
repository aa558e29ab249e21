/*
 * lh_buf.c — bounded text builder. Runs in hooks and signal handlers: no allocation, no libc
 * formatting (snprintf may allocate for some conversions and is not async-signal-safe).
 */
#include "lh_buf.h"

#include <string.h>

void lh_buf_init(lh_buf *b, char *mem, size_t cap) {
    b->data = mem;
    b->cap = cap;
    b->len = 0;
    b->overflow = cap == 0;
    if (cap > 0) mem[0] = '\0';
}

void lh_buf_putn(lh_buf *b, const char *s, size_t n) {
    if (b->cap == 0) return;
    size_t room = b->cap - 1 - b->len;
    if (n > room) {
        n = room;
        b->overflow = true;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void lh_buf_put(lh_buf *b, const char *s) { lh_buf_putn(b, s, strlen(s)); }

void lh_buf_putc(lh_buf *b, char c) {
    if (LH_LIKELY(b->len + 1 < b->cap)) { /* room for it and the NUL: no memcpy call */
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    lh_buf_putn(b, &c, 1);
}

void lh_buf_u64(lh_buf *b, uint64_t v) {
    char tmp[20];
    int i = (int)sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    lh_buf_putn(b, tmp + i, sizeof tmp - (size_t)i);
}

void lh_buf_i64(lh_buf *b, int64_t v) {
    if (v < 0) {
        lh_buf_putc(b, '-');
        lh_buf_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        lh_buf_u64(b, (uint64_t)v);
    }
}

void lh_buf_hex(lh_buf *b, uint64_t v, int min_digits) {
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int i = (int)sizeof tmp;
    do {
        tmp[--i] = digits[v & 0xf];
        v >>= 4;
    } while (v != 0 || (int)sizeof tmp - i < min_digits);
    lh_buf_putn(b, tmp + i, sizeof tmp - (size_t)i);
}

void lh_buf_put_clipped(lh_buf *b, const char *s, size_t max) {
    size_t n = 0;
    for (; s[n] != '\0' && n < max; n++) {
        unsigned char c = (unsigned char)s[n];
        lh_buf_putc(b, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
    }
    if (s[n] != '\0') lh_buf_put(b, "...");
}
