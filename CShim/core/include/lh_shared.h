/*
 * lh_shared.h — what the preload (C) and the loophunter command (Swift) must agree on, written
 * once: the schema version of the files, the report kinds, the hook families. (The configuration
 * variables, their defaults and ranges are the other shared table: lh_config.h.) Swift reads these
 * through the LoopHunterCore module (lh_shared.c turns the tables into arrays), and a test fails
 * when its own knowledge (ReportKind, HookFamily) disagrees with them.
 */
#ifndef LH_SHARED_H
#define LH_SHARED_H

#include <stddef.h>

/* Report and summary files: docs/report-schema.md. A new field is a new minor version. */
#define LH_SCHEMA_MAJOR 1
#define LH_SCHEMA_MINOR 10
#define LH_SCHEMA_VERSION "1.10"
#define LH_VERSION_STRING "0.1.0" /* the preload's own version, in every summary */

/* Report kinds: X(id, name). Ids are LH_KIND_<id>; names are the files' `kind`. */
#define LH_REPORT_KINDS(X)                                                                          \
    X(LAYOUT_STORM, "layout-storm")                                                                 \
    X(LAYOUT_STREAK, "layout-streak")                                                               \
    X(TOOLKIT_WARNING, "toolkit-warning")                                                           \
    X(ALLOC_STORM, "alloc-storm")                                                                   \
    X(HEAP_GROWTH, "heap-growth")                                                                   \
    X(STALL, "stall")                                                                               \
    X(SLOW_WINDOW, "slow-window")                                                                   \
    X(TIMER_STORM, "timer-storm")                                                                   \
    X(TIMER_OUTLIVES_TARGET, "timer-outlives-target")                                             \
    X(LAYOUT_LOOP, "layout-loop")

typedef enum lh_kind {
#define LH_KIND_ID(id, name) LH_KIND_##id,
    LH_REPORT_KINDS(LH_KIND_ID)
#undef LH_KIND_ID
    LH_KIND_COUNT
} lh_kind;

/* Hook families: X(id, name, selectable). Bit i of a family set is family i. Selectable ones are
 * named in LOOPHUNTER_HOOKS (and `loophunter run --hooks`); `process` is on whenever LoopHunter is. */
#define LH_HOOK_FAMILIES(X)                                                                         \
    X(LAYOUT, "layout", 1)                                                                          \
    X(LOOP, "loop", 1)                                                                              \
    X(LOG, "log", 1)                                                                                \
    X(ALLOC, "alloc", 1)                                                                            \
    X(STALL, "stall", 1)                                                                            \
    X(WINDOW, "window", 1)                                                                          \
    X(TIMER, "timer", 1)                                                                            \
    X(PROCESS, "process", 0)

enum lh_family_bit {
#define LH_FAMILY_BIT(id, name, selectable) LH_FAMILY_BIT_##id,
    LH_HOOK_FAMILIES(LH_FAMILY_BIT)
#undef LH_FAMILY_BIT
    LH_FAMILY_COUNT
};
enum {
#define LH_FAMILY_MASK(id, name, selectable) LH_FAMILY_##id = 1u << LH_FAMILY_BIT_##id,
    LH_HOOK_FAMILIES(LH_FAMILY_MASK)
#undef LH_FAMILY_MASK
};

/* GUI toolkits the summary names when their library is loaded (`toolkits`), and `loophunter
 * doctor` lists: X(library, name, supported). `library`: the start of the library's file name;
 * `supported`: LoopHunter counts the toolkit's layouts (it has an adapter and hooks for it). A
 * toolkit built on another (wxWidgets on GTK) is named beside it. */
#define LH_KNOWN_TOOLKITS(X)                                                                        \
    X("libgtk-3.so", "GTK 3", 1)                                                                    \
    X("libgtk-4.so", "GTK 4", 1)                                                                    \
    X("libtoykit.so", "toykit", 1)                                                                  \
    X("libgtk-x11-2.0.so", "GTK 2", 0)                                                              \
    X("libQt5Gui.so", "Qt 5", 1)                                                                    \
    X("libQt6Gui.so", "Qt 6", 1)                                                                    \
    X("libtk8.", "Tk", 0)                                                                           \
    X("libtk.so", "Tk", 0)                                                                          \
    X("libfltk.so", "FLTK", 0)                                                                      \
    X("libSDL2-2.0.so", "SDL2", 0)                                                                  \
    X("libelementary.so", "EFL (Elementary)", 0)                                                    \
    X("libwx_gtk", "wxWidgets", 0)                                                                  \
    X("libwx_baseu", "wxWidgets", 0)                                                                \
    X("libawt_xawt.so", "Java AWT", 0)

/* What the preload's loophunter_attach / loophunter_detach return to `loophunter attach` (its
 * injector reads the int the call returned): interpose/lh_attach.c. */
enum lh_attach_result {
    LOOPHUNTER_ATTACH_OK = 0,            /* attached (detached) */
    LOOPHUNTER_ATTACH_PRELOADED = 1,     /* the process runs under the preload already (loophunter run) */
    LOOPHUNTER_ATTACH_RUNNING = 2,       /* a session is attached already */
    LOOPHUNTER_ATTACH_NO_CONTROL = 3,    /* the control file could not be read by the process */
    LOOPHUNTER_ATTACH_OFF = 4,           /* LoopHunter could not start (LOOPHUNTER_DISABLE, no memory) */
    LOOPHUNTER_ATTACH_NOT_ATTACHED = 5,  /* detach: no session is attached (it ended by itself) */
};

/* The tables as data (lh_shared.c), for Swift and for C code that needs a name. */
extern const char *const lh_kind_names[LH_KIND_COUNT];
extern const char *const lh_family_names[LH_FAMILY_COUNT];
extern const unsigned char lh_family_selectable[LH_FAMILY_COUNT];
/* The name of a single-bit family set ("layout"...), "other" for anything else. */
const char *lh_family_name(unsigned family);
/* The same tables entry by entry, for Swift (which sees a C array as a tuple): the `index`-th
 * kind name or family name, NULL past the end; whether family `index` is selectable. */
const char *lh_kind_name_at(size_t index);
const char *lh_family_name_at(size_t index);
int lh_family_selectable_at(size_t index);
/* The `index`-th row of LH_KNOWN_TOOLKITS: its name and library (NULL past the end), whether supported. */
const char *lh_toolkit_name_at(size_t index);
const char *lh_toolkit_library_at(size_t index);
int lh_toolkit_supported_at(size_t index);

#endif
