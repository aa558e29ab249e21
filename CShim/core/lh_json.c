/*
 * lh_json.c — streaming JSON writer. Runs inside hooks while a breach report is composed: writes
 * only into the lh_buf it was given; no allocation, no stdio, no locks.
 */
#include "lh_json.h"

#include <string.h>

void lh_json_init(lh_json *j, lh_buf *buf) {
    j->buf = buf;
    j->depth = 0;
    j->has_items[0] = false;
}

/* A newline and two spaces per level, in one append. */
static void newline_indent(lh_json *j) {
    static const char spaces[] = "\n                                                                ";
    _Static_assert(sizeof spaces - 2 >= 2 * (LH_JSON_MAX_DEPTH - 1), "room for the deepest indentation");
    lh_buf_putn(j->buf, spaces, 1 + 2 * (size_t)j->depth);
}

/* Separator, indentation and key before a value. */
static void begin_value(lh_json *j, const char *key) {
    if (j->depth > 0) {
        if (j->has_items[j->depth]) lh_buf_putc(j->buf, ',');
        j->has_items[j->depth] = true;
        newline_indent(j);
    }
    if (key != NULL) {
        lh_buf_putc(j->buf, '"');
        lh_json_escape_into(j->buf, key, strlen(key));
        lh_buf_put(j->buf, "\": ");
    }
}

static void open_container(lh_json *j, const char *key, char c) {
    begin_value(j, key);
    lh_buf_putc(j->buf, c);
    if (j->depth + 1 < LH_JSON_MAX_DEPTH) {
        j->depth++;
        j->has_items[j->depth] = false;
    } else {
        j->buf->overflow = true; /* deeper than any report we write: flag as unusable */
    }
}

static void close_container(lh_json *j, char c) {
    bool had_items = j->has_items[j->depth];
    if (j->depth > 0) j->depth--;
    if (had_items) newline_indent(j);
    lh_buf_putc(j->buf, c);
    if (j->depth == 0) lh_buf_putc(j->buf, '\n');
}

void lh_json_begin_object(lh_json *j, const char *key) { open_container(j, key, '{'); }
void lh_json_end_object(lh_json *j) { close_container(j, '}'); }
void lh_json_begin_array(lh_json *j, const char *key) { open_container(j, key, '['); }
void lh_json_end_array(lh_json *j) { close_container(j, ']'); }

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes are not valid UTF-8
 * (overlong forms, surrogates and code points above U+10FFFF are invalid). */
static size_t utf8_sequence(const unsigned char *s, size_t avail) {
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff) return 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return 0;
    return n;
}

void lh_json_escape_into(lh_buf *b, const char *str, size_t n) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        /* A run of printable ASCII that needs no escape (keys, names, paths: nearly all of a
         * report's text) is appended at once. */
        size_t run = i;
        while (run < n && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' && s[run] != '\\') run++;
        if (run > i) {
            lh_buf_putn(b, str + i, run - i);
            i = run;
            continue;
        }
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            lh_buf_putc(b, '\\');
            lh_buf_putc(b, (char)c);
            i++;
        } else if (c == '\n') {
            lh_buf_put(b, "\\n");
            i++;
        } else if (c == '\t') {
            lh_buf_put(b, "\\t");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
            lh_buf_putn(b, esc, sizeof esc);
            i++;
        } else {
            size_t len = utf8_sequence(s + i, n - i);
            if (len == 0) {
                lh_buf_put(b, "\\ufffd");
                i++;
            } else {
                lh_buf_putn(b, (const char *)s + i, len);
                i += len;
            }
        }
    }
}

void lh_json_stringn(lh_json *j, const char *key, const char *value, size_t n) {
    begin_value(j, key);
    if (value == NULL) {
        lh_buf_put(j->buf, "null");
        return;
    }
    lh_buf_putc(j->buf, '"');
    lh_json_escape_into(j->buf, value, n);
    lh_buf_putc(j->buf, '"');
}

void lh_json_string(lh_json *j, const char *key, const char *value) {
    lh_json_stringn(j, key, value, value != NULL ? strlen(value) : 0);
}

void lh_json_u64(lh_json *j, const char *key, uint64_t value) {
    begin_value(j, key);
    lh_buf_u64(j->buf, value);
}

void lh_json_i64(lh_json *j, const char *key, int64_t value) {
    begin_value(j, key);
    lh_buf_i64(j->buf, value);
}

void lh_json_bool(lh_json *j, const char *key, bool value) {
    begin_value(j, key);
    lh_buf_put(j->buf, value ? "true" : "false");
}

void lh_json_null(lh_json *j, const char *key) {
    begin_value(j, key);
    lh_buf_put(j->buf, "null");
}

void lh_json_hex(lh_json *j, const char *key, uint64_t value) {
    begin_value(j, key);
    lh_buf_put(j->buf, "\"0x");
    lh_buf_hex(j->buf, value, 1);
    lh_buf_putc(j->buf, '"');
}
