/*
 * cpython_layout_check.c — ground truth for CShim/preload/runtime/lh_script_cpython.h: compiled
 * against the installed CPython's own internal headers (Py_BUILD_CORE), it prints each offset of the
 * preload's row for this CPython version that differs from the real structures and exits 1, and
 * exits 2 when there is no row for it. Run by ScriptStackTests (`python3-config --includes`).
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <stdio.h>
#include <string.h>

#include "lh_script_cpython.h"

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
static int failures;
static const lh_cpython_layout *row;
#define ROW (*row)
#define CHECK(field, value)                                                                         \
    do {                                                                                            \
        if ((size_t)(value) != (size_t)ROW.field) {                                                 \
            printf("%s: preload %zu, CPython %zu\n", #field, (size_t)ROW.field, (size_t)(value));     \
            failures++;                                                                             \
        }                                                                                           \
    } while (0)

int main(void) {
    for (size_t i = 0; i < sizeof lh_cpython_layouts / sizeof lh_cpython_layouts[0]; i++)
        if (lh_cpython_layouts[i].version == ((PY_MAJOR_VERSION << 8) | PY_MINOR_VERSION)) row = &lh_cpython_layouts[i];
    if (row == NULL) {
        printf("no row for CPython %d.%d\n", PY_MAJOR_VERSION, PY_MINOR_VERSION);
        return 2;
    }
    CHECK(ob_type, offsetof(PyObject, ob_type));
    CHECK(tstate_cframe, offsetof(PyThreadState, cframe));
    CHECK(cframe_current, offsetof(_PyCFrame, current_frame));
    CHECK(frame_code, offsetof(_PyInterpreterFrame, f_code));
    CHECK(frame_previous, offsetof(_PyInterpreterFrame, previous));
    CHECK(frame_prev_instr, offsetof(_PyInterpreterFrame, prev_instr));
    CHECK(frame_owner, offsetof(_PyInterpreterFrame, owner));
    CHECK(code_filename, offsetof(PyCodeObject, co_filename));
    CHECK(code_qualname, offsetof(PyCodeObject, co_qualname));
    CHECK(code_firsttraceable, offsetof(PyCodeObject, _co_firsttraceable));
    CHECK(code_code, offsetof(PyCodeObject, co_code_adaptive));
    CHECK(str_length, offsetof(PyASCIIObject, length));
    CHECK(str_state, offsetof(PyASCIIObject, state));
    CHECK(str_ascii_data, sizeof(PyASCIIObject));
    CHECK(str_utf8_length, offsetof(PyCompactUnicodeObject, utf8_length));
    CHECK(str_utf8, offsetof(PyCompactUnicodeObject, utf8));
    CHECK(owner_generator, FRAME_OWNED_BY_GENERATOR);
    /* The state word's bits: set one field at a time and see which bit moves. */
    PyASCIIObject probe;
    memset(&probe, 0, sizeof probe);
    probe.state.compact = 1;
    unsigned int word;
    memcpy(&word, &probe.state, sizeof word);
    CHECK(state_compact_bit, __builtin_ctz(word));
    memset(&probe, 0, sizeof probe);
    probe.state.ascii = 1;
    memcpy(&word, &probe.state, sizeof word);
    CHECK(state_ascii_bit, __builtin_ctz(word));
    if (failures == 0) printf("CPython %d.%d: the preload's layout matches\n", PY_MAJOR_VERSION, PY_MINOR_VERSION);
    return failures == 0 ? 0 : 1;
}
#else
int main(void) {
    printf("no row for CPython %d.%d\n", PY_MAJOR_VERSION, PY_MINOR_VERSION);
    return 2;
}
#endif
