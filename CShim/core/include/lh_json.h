/*
 * lh_json.h — a streaming JSON writer over lh_buf (no allocation; safe in hooks).
 *
 * Output is always valid JSON text as long as the buffer did not overflow (check buf->overflow):
 * strings are escaped and invalid UTF-8 is replaced by U+FFFD, so any decoder accepts them.
 * Keys are given with each value inside objects and are NULL inside arrays. Output is indented by
 * two spaces per level so a person can read a report with `cat`.
 */
#ifndef LH_JSON_H
#define LH_JSON_H

#include "lh_buf.h"

#define LH_JSON_MAX_DEPTH 32

typedef struct lh_json {
    lh_buf *buf;
    int depth;
    bool has_items[LH_JSON_MAX_DEPTH]; /* per open container: a first element was written */
} lh_json;

void lh_json_init(lh_json *j, lh_buf *buf) LH_HIDDEN;
void lh_json_begin_object(lh_json *j, const char *key) LH_HIDDEN;
void lh_json_end_object(lh_json *j) LH_HIDDEN;
void lh_json_begin_array(lh_json *j, const char *key) LH_HIDDEN;
void lh_json_end_array(lh_json *j) LH_HIDDEN;
/* NULL value writes null. */
void lh_json_string(lh_json *j, const char *key, const char *value) LH_HIDDEN;
void lh_json_stringn(lh_json *j, const char *key, const char *value, size_t n) LH_HIDDEN;
void lh_json_u64(lh_json *j, const char *key, uint64_t value) LH_HIDDEN;
void lh_json_i64(lh_json *j, const char *key, int64_t value) LH_HIDDEN;
void lh_json_bool(lh_json *j, const char *key, bool value) LH_HIDDEN;
void lh_json_null(lh_json *j, const char *key) LH_HIDDEN;
/* "0x..." as a string (JSON numbers lose precision above 2^53 in many decoders). */
void lh_json_hex(lh_json *j, const char *key, uint64_t value) LH_HIDDEN;
/* Writes `s` escaped, without quotes, into a plain buffer (also used for file names and lines). */
void lh_json_escape_into(lh_buf *b, const char *s, size_t n) LH_HIDDEN;

#endif
