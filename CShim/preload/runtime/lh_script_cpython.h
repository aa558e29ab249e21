/*
 * lh_script_cpython.h — where CPython keeps what lh_script.c reads: a thread's interpreter frames,
 * their code objects and the code objects' names, by CPython version (major.minor; the layout of
 * these structures does not change within a minor version). x86_64 and other LP64 targets.
 *
 * Ground truth: Tests/Programs/script/cpython_layout_check.c compiles these rows against the
 * installed CPython's own internal headers (Py_BUILD_CORE) and fails when an offset differs; the
 * test suite builds it. A version with no row here is not read (its requests keep their native
 * stack only).
 */
#ifndef LH_SCRIPT_CPYTHON_H
#define LH_SCRIPT_CPYTHON_H

#include <stddef.h>
#include <stdint.h>

typedef struct lh_cpython_layout {
    uint32_t version;            /* (major << 8) | minor, as Py_Version >> 16 */
    uint16_t ob_type;            /* PyObject.ob_type */
    uint16_t tstate_cframe;      /* PyThreadState.cframe (a _PyCFrame *) */
    uint16_t cframe_current;     /* _PyCFrame.current_frame (a _PyInterpreterFrame *) */
    uint16_t frame_code;         /* _PyInterpreterFrame.f_code */
    uint16_t frame_previous;     /* _PyInterpreterFrame.previous */
    uint16_t frame_prev_instr;   /* _PyInterpreterFrame.prev_instr (the instruction running) */
    uint16_t frame_owner;        /* _PyInterpreterFrame.owner (char) */
    uint16_t code_filename;      /* PyCodeObject.co_filename */
    uint16_t code_qualname;      /* PyCodeObject.co_qualname */
    uint16_t code_firsttraceable;/* PyCodeObject._co_firsttraceable (int) */
    uint16_t code_code;          /* PyCodeObject.co_code_adaptive: the first instruction */
    uint16_t str_length;         /* PyASCIIObject.length */
    uint16_t str_state;          /* PyASCIIObject.state (bit field word) */
    uint16_t str_ascii_data;     /* sizeof(PyASCIIObject): a compact ASCII string's characters */
    uint16_t str_utf8_length;    /* PyCompactUnicodeObject.utf8_length */
    uint16_t str_utf8;           /* PyCompactUnicodeObject.utf8 (char *, NULL until asked for) */
    uint8_t owner_generator;     /* FRAME_OWNED_BY_GENERATOR (frames of a generator are complete) */
    uint8_t state_compact_bit, state_ascii_bit; /* bit numbers in the state word */
} lh_cpython_layout;

static const lh_cpython_layout lh_cpython_layouts[] = {
    /* 3.11 */
    {.version = 0x030B, .ob_type = 8, .tstate_cframe = 56, .cframe_current = 8, .frame_code = 32,
     .frame_previous = 48, .frame_prev_instr = 56, .frame_owner = 69, .code_filename = 112,
     .code_qualname = 128, .code_firsttraceable = 168, .code_code = 184, .str_length = 16, .str_state = 32,
     .str_ascii_data = 48, .str_utf8_length = 48, .str_utf8 = 56, .owner_generator = 1,
     .state_compact_bit = 5, .state_ascii_bit = 6},
};

#endif
