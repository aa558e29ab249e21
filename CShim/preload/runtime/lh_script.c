/*
 * lh_script.c — the interpreted stack of the running thread (lh_script.h): Python functions of a
 * PyGObject program, JavaScript functions of a GJS program, for the layout requests they make.
 *
 * Finding the interpreters: their functions are looked up in the host's modules (lh_host_function:
 * the executable, libpython loaded globally or with RTLD_LOCAL by a plug-in host, libgjs and
 * libmozjs), again whenever a module was loaded since the last look (lh_modules_generation), by
 * one thread at a time (a CAS flag; a thread that finds it taken captures without looking). What
 * was found is published once with a release store and never changes.
 *
 * Python (CPython 3.11, lh_script_cpython.h): the thread's PyThreadState is the one
 * PyGILState_GetThisThreadState gives (PyGObject releases the GIL around a C call, so the running
 * thread state is not ours to ask for; our own frames stay put while we run). From it: the current
 * interpreter frame, then each previous one, innermost first. Each read goes through
 * lh_read_memory, so a wrong guess never faults; a frame's code object must have PyCode_Type as its
 * type and its names PyUnicode_Type, or the walk stops. Frames not yet started (incomplete, as
 * CPython calls them) are left out, as Python's own tracebacks leave them out.
 *
 * JavaScript (GJS on SpiderMonkey; checked with mozjs 102 of Debian 12: its C++ functions are looked
 * up by their mangled names, and an engine whose names differ is simply not read): the running
 * GjsContext's JSContext, only on the thread that owns its runtime and only while the heap is idle
 * (no garbage collection running);
 * JS::FormatStackDump(cx, no arguments, no locals, no `this`) reads the frames without running any
 * script code and gives lines `N name() ["file":line:column]`, parsed here.
 *
 * Contracts (lh_script.h): guard held, the request path only; no lock, no stdio; statistics in
 * relaxed counters.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>

#include "lh_script.h"
#include "lh_script_cpython.h"
#include "lh_symbols.h"

/* ---- the interpreters found ---------------------------------------------------------------------- */

typedef struct python_api {
    void *(*this_thread_state)(void);
    int (*addr2line)(void *code, int byte_offset);
    const void *code_type, *unicode_type;
    const lh_cpython_layout *layout;
} python_api;

typedef struct js_api {
    void *(*current)(void);                  /* gjs_context_get_current */
    void *(*native)(void *gjs_context);      /* gjs_context_get_native_context */
    void *(*runtime_of)(void *cx);           /* JS_GetRuntime */
    bool (*can_access)(const void *runtime); /* js::CurrentThreadCanAccessRuntime */
    int (*heap_state)(void);                 /* JS::RuntimeHeapState: 0 idle */
    void (*format)(char **out, void *cx, bool args, bool locals, bool this_props); /* JS::FormatStackDump */
    void (*js_free)(void *cx, void *p);      /* JS_free */
} js_api;

static python_api python;
static js_api js;
/* Published once filled (release; readers acquire), never changed after. */
static _Atomic(const python_api *) python_found;
static _Atomic(const js_api *) js_found;
static _Atomic uint64_t looked_at;  /* the modules' generation + 1 at the last look (0: never) */
static _Atomic int looking;         /* a thread is looking (CAS 0 -> 1) */

/* Statistics (relaxed counters). */
static _Atomic uint64_t captures, captures_with_frames, frames_found, python_unreadable, js_busy_heap;

static void look_for_python(void) {
    const unsigned long *version = lh_host_data("Py_Version"); /* 3.11 on */
    if (version == NULL) return;
    uint32_t minor_version = (uint32_t)(*version >> 16);
    for (size_t i = 0; i < sizeof lh_cpython_layouts / sizeof lh_cpython_layouts[0]; i++)
        if (lh_cpython_layouts[i].version == minor_version) python.layout = &lh_cpython_layouts[i];
    python.this_thread_state = (void *(*)(void))lh_host_function("PyGILState_GetThisThreadState");
    python.addr2line = (int (*)(void *, int))lh_host_function("PyCode_Addr2Line");
    python.code_type = lh_host_data("PyCode_Type");
    python.unicode_type = lh_host_data("PyUnicode_Type");
    if (python.layout != NULL && python.this_thread_state != NULL && python.addr2line != NULL &&
        python.code_type != NULL && python.unicode_type != NULL)
        lh_store_release(&python_found, &python); /* pairs with the acquire in lh_script_capture */
}

static void look_for_javascript(void) {
    js.current = (void *(*)(void))lh_host_function("gjs_context_get_current");
    js.native = (void *(*)(void *))lh_host_function("gjs_context_get_native_context");
    js.runtime_of = (void *(*)(void *))lh_host_function("_Z13JS_GetRuntimeP9JSContext");
    js.can_access = (bool (*)(const void *))lh_host_function("_ZN2js29CurrentThreadCanAccessRuntimeEPK9JSRuntime");
    js.heap_state = (int (*)(void))lh_host_function("_ZN2JS16RuntimeHeapStateEv");
    /* JS::UniqueChars is returned through a hidden pointer (it has a destructor): the first argument. */
    js.format = (void (*)(char **, void *, bool, bool, bool))lh_host_function("_ZN2JS15FormatStackDumpEP9JSContextbbb");
    js.js_free = (void (*)(void *, void *))lh_host_function("_Z7JS_freeP9JSContextPv");
    if (js.current != NULL && js.native != NULL && js.runtime_of != NULL && js.can_access != NULL &&
        js.heap_state != NULL && js.format != NULL && js.js_free != NULL)
        lh_store_release(&js_found, &js); /* pairs with the acquire in lh_script_capture */
}

static void look_up(void) {
    if (lh_load_relaxed(&python_found) != NULL && lh_load_relaxed(&js_found) != NULL) return; /* nothing left to find */
    uint64_t generation = lh_modules_generation() + 1;
    if (lh_load_relaxed(&looked_at) == generation) return;
    int idle = 0;
    if (!lh_cas_acquire(&looking, &idle, 1)) return; /* acquire: pairs with the release below */
    if (lh_load_relaxed(&python_found) == NULL) look_for_python();
    if (lh_load_relaxed(&js_found) == NULL) look_for_javascript();
    lh_store_relaxed(&looked_at, generation);
    lh_store_release(&looking, 0); /* release: the next looker sees what this one filled in */
}

/* ---- the stack as kept --------------------------------------------------------------------------- */

/* Appends `n` bytes of `s` (NUL added) to the stack's text; the offset, or UINT16_MAX when full. */
static uint16_t add_text(lh_script_stack *out, const char *s, size_t n) {
    if (out->used + n + 1 > LH_SCRIPT_TEXT) {
        if (out->used + 2 > LH_SCRIPT_TEXT) return UINT16_MAX;
        n = LH_SCRIPT_TEXT - out->used - 1; /* clipped */
    }
    uint16_t at = out->used;
    memcpy(out->text + at, s, n);
    out->text[at + n] = '\0';
    out->used = (uint16_t)(at + n + 1);
    return at;
}

bool lh_script_add_frame(lh_script_stack *out, const char *function, size_t function_len, const char *file,
                         size_t file_len, uint32_t line) {
    if (out->count >= LH_SCRIPT_FRAMES) return false;
    uint16_t f = add_text(out, function, function_len);
    uint16_t s = add_text(out, file, file_len);
    if (f == UINT16_MAX || s == UINT16_MAX) return false;
    out->frames[out->count].function = f;
    out->frames[out->count].file = s;
    out->frames[out->count].line = line;
    out->count++;
    return true;
}

/* ---- Python ------------------------------------------------------------------------------------- */

static bool read_ptr(const void *at, const void **out) { return lh_read_memory(out, at, sizeof *out); }

/* A str object's text (ASCII as is, other compact strings through their UTF-8 form when Python
 * made one; "?" otherwise) into buf; its length, or -1 when `obj` is not a str. */
static long python_text(const python_api *py, const char *obj, char *buf, size_t cap) {
    const lh_cpython_layout *L = py->layout;
    const void *type;
    if (obj == NULL || !read_ptr(obj + L->ob_type, &type) || type != py->unicode_type) return -1;
    uint64_t length;
    uint32_t state;
    if (!lh_read_memory(&length, obj + L->str_length, sizeof length) ||
        !lh_read_memory(&state, obj + L->str_state, sizeof state))
        return -1;
    bool compact = state >> L->state_compact_bit & 1, ascii = state >> L->state_ascii_bit & 1;
    const char *data = NULL;
    if (compact && ascii) {
        data = obj + L->str_ascii_data;
    } else if (compact) {
        const void *utf8 = NULL;
        if (read_ptr(obj + L->str_utf8, &utf8) && utf8 != NULL &&
            lh_read_memory(&length, obj + L->str_utf8_length, sizeof length))
            data = utf8;
    }
    if (data == NULL) {
        buf[0] = '?';
        return 1;
    }
    size_t n = length < cap ? (size_t)length : cap;
    return lh_read_memory(buf, data, n) ? (long)n : -1;
}

static void python_capture(const python_api *py, lh_script_stack *out) {
    const lh_cpython_layout *L = py->layout;
    const char *tstate = py->this_thread_state(); /* a thread-specific key's value: no lock */
    const void *cframe = NULL, *frame = NULL;
    if (tstate == NULL || !read_ptr(tstate + L->tstate_cframe, &cframe) || cframe == NULL ||
        !read_ptr((const char *)cframe + L->cframe_current, &frame))
        return;
    char name[160], file[256];
    for (int walked = 0; frame != NULL && walked < 256 && out->count < LH_SCRIPT_FRAMES; walked++) {
        const char *f = frame;
        const void *code = NULL, *prev_instr = NULL, *previous = NULL, *type = NULL, *qualname = NULL,
                   *filename = NULL;
        char owner = 0;
        int firsttraceable = 0;
        if (!read_ptr(f + L->frame_code, &code) || !read_ptr(f + L->frame_prev_instr, &prev_instr) ||
            !read_ptr(f + L->frame_previous, &previous) || !lh_read_memory(&owner, f + L->frame_owner, 1) ||
            code == NULL || !read_ptr((const char *)code + L->ob_type, &type) || type != py->code_type ||
            !read_ptr((const char *)code + L->code_qualname, &qualname) ||
            !read_ptr((const char *)code + L->code_filename, &filename) ||
            !lh_read_memory(&firsttraceable, (const char *)code + L->code_firsttraceable, sizeof firsttraceable)) {
            lh_add_relaxed(&python_unreadable, 1); /* stat */
            return;
        }
        frame = previous;
        const char *first = (const char *)code + L->code_code;
        /* Not started yet (still setting up its locals): not part of the stack Python shows. */
        if (owner != (char)L->owner_generator && (const char *)prev_instr < first + 2 * (long)firsttraceable)
            continue;
        long name_len = python_text(py, qualname, name, sizeof name);
        long file_len = python_text(py, filename, file, sizeof file);
        if (name_len < 0 || file_len < 0) {
            lh_add_relaxed(&python_unreadable, 1); /* stat */
            return;
        }
        /* The code object is alive (the frame holds it) and of type code: its line table is a
         * read-only bytes object; PyCode_Addr2Line only reads it. */
        int line = py->addr2line((void *)code, (int)((const char *)prev_instr - first));
        if (!lh_script_add_frame(out, name, (size_t)name_len, file, (size_t)file_len, line > 0 ? (uint32_t)line : 0)) return;
    }
}

/* ---- JavaScript --------------------------------------------------------------------------------- */

/* One line of JS::FormatStackDump: `0 pingIdle() ["file.js":25:9]` (a frame with no function:
 * `<TOP LEVEL>`). */
static void js_line(lh_script_stack *out, const char *s, const char *end) {
    while (s < end && *s >= '0' && *s <= '9') s++;
    while (s < end && *s == ' ') s++;
    const char *name = s;
    while (s < end && *s != '(') s++;
    size_t name_len = (size_t)(s - name);
    const char *open = memmem(s, (size_t)(end - s), " [\"", 3);
    if (open == NULL || name_len == 0) return;
    const char *file = open + 3, *close = memmem(file, (size_t)(end - file), "\":", 2);
    if (close == NULL) return;
    uint32_t line = 0;
    for (const char *d = close + 2; d < end && *d >= '0' && *d <= '9'; d++) line = line * 10 + (uint32_t)(*d - '0');
    lh_script_add_frame(out, name, name_len, file, (size_t)(close - file), line);
}

static void js_capture(const js_api *api, lh_script_stack *out) {
    void *gjs_context = api->current();
    void *cx = gjs_context != NULL ? api->native(gjs_context) : NULL;
    if (cx == NULL || !api->can_access(api->runtime_of(cx))) return; /* not the engine's thread */
    if ((api->heap_state() & 0xff) != 0) { /* collecting: a finalizer runs; frames not to be walked */
        lh_add_relaxed(&js_busy_heap, 1); /* stat */
        return;
    }
    char *text = NULL;
    api->format(&text, cx, false, false, false);
    if (text == NULL) return;
    for (const char *s = text; *s != '\0' && out->count < LH_SCRIPT_FRAMES;) {
        const char *end = strchr(s, '\n');
        if (end == NULL) end = s + strlen(s);
        js_line(out, s, end);
        s = *end == '\n' ? end + 1 : end;
    }
    api->js_free(cx, text);
}

/* ---- the capture -------------------------------------------------------------------------------- */

const char *lh_script_language_name(unsigned language) {
    switch (language) {
    case LH_SCRIPT_PYTHON: return "python";
    case LH_SCRIPT_JAVASCRIPT: return "javascript";
    case LH_SCRIPT_QML: return "qml";
    default: return NULL;
    }
}

/* QML's stack: asked of the toolkit's glue that knows the engine (toolkits/lh_qt.c), registered
 * when Qt is found. */
static void (*_Atomic qml_capture)(lh_script_stack *out);

void lh_script_set_qml(void (*capture)(lh_script_stack *out)) {
    lh_store_release(&qml_capture, capture); /* release: the glue is ready before it is called */
}

void lh_script_capture(lh_script_stack *out) {
    out->language = LH_SCRIPT_NONE;
    out->count = 0;
    out->used = 0;
    lh_add_relaxed(&captures, 1); /* stat */
    look_up();
    /* acquire: pairs with the release in look_for_*: the API's fields are filled. */
    const python_api *py = lh_load_acquire(&python_found);
    if (py != NULL) {
        python_capture(py, out);
        if (out->count > 0) out->language = LH_SCRIPT_PYTHON;
    }
    const js_api *api = lh_load_acquire(&js_found);
    if (out->count == 0 && api != NULL) {
        out->used = 0;
        js_capture(api, out);
        if (out->count > 0) out->language = LH_SCRIPT_JAVASCRIPT;
    }
    /* acquire: pairs with lh_script_set_qml's release. */
    void (*qml)(lh_script_stack *) = lh_load_acquire(&qml_capture);
    if (out->count == 0 && qml != NULL) {
        out->used = 0;
        qml(out);
        if (out->count > 0) out->language = LH_SCRIPT_QML;
    }
    if (out->count > 0) {
        lh_add_relaxed(&captures_with_frames, 1); /* stat */
        lh_add_relaxed(&frames_found, out->count); /* stat */
    }
}

void lh_script_summary(lh_json *j) {
    lh_json_bool(j, "python", lh_load_relaxed(&python_found) != NULL);
    lh_json_bool(j, "javascript", lh_load_relaxed(&js_found) != NULL);
    lh_json_u64(j, "captures", lh_load_relaxed(&captures));
    lh_json_u64(j, "captures_with_frames", lh_load_relaxed(&captures_with_frames));
    lh_json_u64(j, "frames", lh_load_relaxed(&frames_found));
    lh_json_u64(j, "python_unreadable", lh_load_relaxed(&python_unreadable));
    lh_json_u64(j, "javascript_heap_busy", lh_load_relaxed(&js_busy_heap));
}
