/*
 * lh_script.h — the interpreted stack of the running thread: the Python (CPython 3.11),
 * JavaScript (GJS's SpiderMonkey) or QML (Qt's V4 engine, through Qt's glue) functions that are
 * running when a layout request is made (lh_script.c). A native stack of a PyGObject or GJS program shows the interpreter's frames only;
 * these name the script's own functions, files and lines.
 *
 * Contracts: called with the guard held, on the thread that makes the request, never inside the
 * host's malloc or a signal handler (only from the layout-request path, rarely: where a request's
 * stack is kept). Python: read-only, every read of the interpreter's structures through
 * lh_read_memory (never faults), no call into Python but PyCode_Addr2Line on a code object whose
 * type was checked (a pure read of its line table). JavaScript: SpiderMonkey's own
 * JS::FormatStackDump, on the engine's thread only, never during a garbage collection; its text is
 * allocated by the engine and given back with JS_free (the one allocation LoopHunter lets a host
 * library make for it, on a path that is never inside malloc). Nothing else: no lock, no stdio.
 */
#ifndef LH_SCRIPT_H
#define LH_SCRIPT_H

#include "lh_runtime.h"

#define LH_SCRIPT_FRAMES 8 /* innermost first */
#define LH_SCRIPT_TEXT 444 /* the frames' names and files, NUL-separated */

typedef enum lh_script_language {
    LH_SCRIPT_NONE = 0,
    LH_SCRIPT_PYTHON = 1,
    LH_SCRIPT_JAVASCRIPT = 2,
    LH_SCRIPT_QML = 3,
} lh_script_language;

/* An interpreted stack as kept (512 bytes: kept beside a request's native stack). */
typedef struct lh_script_stack {
    uint8_t language;         /* lh_script_language */
    uint8_t count;            /* frames */
    uint16_t used;            /* bytes of text used */
    struct {
        uint16_t function, file; /* offsets into text */
        uint32_t line;           /* 0: unknown */
    } frames[LH_SCRIPT_FRAMES];
    char text[LH_SCRIPT_TEXT];
} lh_script_stack;
_Static_assert(sizeof(lh_script_stack) == 512, "lh_script_stack is 512 bytes");

/* The JSON name of a language ("python", "javascript"). */
const char *lh_script_language_name(unsigned language) LH_HIDDEN;

/* Fills `out` with the running thread's interpreted stack (out->count 0: none: no interpreter in
 * the process, or none of its code running on this thread). Guard held. */
void lh_script_capture(lh_script_stack *out) LH_HIDDEN;

/* Appends a frame (innermost first); false when the stack is full. */
bool lh_script_add_frame(lh_script_stack *out, const char *function, size_t function_len, const char *file,
                         size_t file_len, uint32_t line) LH_HIDDEN;
/* QML (Qt Quick): its stack is the QML engine's, which only Qt's glue can find (the engine of the
 * object being requested): it registers how to capture it, and is asked after Python and
 * JavaScript. */
void lh_script_set_qml(void (*capture)(lh_script_stack *out)) LH_HIDDEN;

/* The summary's "scripts" counters (captures, frames found, interpreters found). */
void lh_script_summary(lh_json *j) LH_HIDDEN;

#endif
