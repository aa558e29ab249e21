/*
 * lh_toolkit.h — toolkit adapters: what LoopHunter knows of a toolkit's objects without linking
 * the toolkit. An adapter looks the toolkit's accessors up at run time (lh_host_function), only
 * when the host has them, and calls only plain getters (no allocation, no locks, no I/O in the
 * toolkit). The toolkits layer also holds each toolkit's glue: the hooks that tell the detectors
 * what the toolkit is doing (lh_toolkit_toykit.c, lh_gtk.c, lh_glib.c).
 *
 * Getters are called on the host's thread while the object is alive (being laid out, or a window
 * not yet finalized), with the thread's guard held: size_of once per object per epoch, type_name
 * when an object sets a new per-thread maximum, the rest on the breach path.
 */
#ifndef LH_TOOLKIT_H
#define LH_TOOLKIT_H

#include "lh_json.h"
#include "lh_report.h"

typedef struct lh_toolkit {
    const char *name;
    /* width << 32 | height, or LH_GEOMETRY_NONE when unknown. */
    uint64_t (*size_of)(const void *object);
    /* A string that lives as long as the toolkit (class or interned type name), or NULL. */
    const char *(*type_name)(const void *object);
    /* The object's name right now (copy it), or NULL. */
    const char *(*name_of)(const void *object);
    /* The object's parent in the view tree, or NULL. */
    const void *(*parent_of)(const void *object);
    /* Position and size (x, y, width, height); false when unknown. */
    bool (*geometry)(const void *object, int rect[4]);
    /* Windows: a toplevel's title right now (copy it), and the clock whose frames paint it. */
    const char *(*title_of)(const void *window);
    const void *(*frame_clock_of)(const void *window);
    /* Windows paint a frame only when something changed (Qt Quick): no idle frame separates the
     * requests of a slow timer, so a request caused by a size read counts only when the allocation
     * alternates (lh_relayout.c; unchanged frames are no evidence of a loop there). */
    bool frames_on_demand;
    /* Where the toolkit keeps the object's size, when programs read it inline (Qt's
     * QWidget::width(): no call to see): the address of 8 aligned bytes every such read touches,
     * checked against a getter; NULL: unknown, or the object's reads are seen as calls
     * (runtime/lh_watch.h). */
    const void *(*size_field)(const void *object);
    /* File-name prefixes of the toolkit's libraries (NULL-terminated): their reads are its own. */
    const char *const *libraries;
    /* After a dlclose: forget the toolkit's functions if its library is gone, and what it learnt
     * of code addresses (NULL: nothing to forget). Guard held, any thread. */
    void (*forget_unloaded)(void);
    /* `loophunter attach` (guard held, on a host thread at its loop's wait): a session begins in a
     * process where the toolkit may have made classes and objects already (catch up with them), and
     * it ends (give back what was patched; NULL: nothing to do). */
    void (*attached)(void);
    void (*detached)(void);
    /* Its section of the summary (NULL: none). */
    void (*summary)(lh_json *j);
} lh_toolkit;

/* Every adapter, NULL-terminated. */
extern const lh_toolkit *const lh_toolkits[] LH_HIDDEN;

extern const lh_toolkit lh_toolkit_toykit LH_HIDDEN;
extern const lh_toolkit lh_toolkit_gtk LH_HIDDEN;
extern const lh_toolkit lh_toolkit_qt LH_HIDDEN;

/* Type, name, ancestors (root first) and geometry of `object`, through the adapter's getters,
 * copied into `out` (breach path). */
void lh_toolkit_describe(const lh_toolkit *tk, const void *object, lh_object_desc *out) LH_HIDDEN;
/* Ancestors above `object` (0 for a root), counting at most 64. */
unsigned lh_toolkit_depth(const lh_toolkit *tk, const void *object) LH_HIDDEN;
/* Copies at most LH_OBJECT_TEXT - 1 bytes of `s` (NULL → ""). */
void lh_toolkit_copy_text(char *dst, const char *s) LH_HIDDEN;

/* The summary's `toolkits`: every GUI toolkit whose library is loaded now (found by file name in the
 * loader's module list), supported or not: [{"name": "GTK 3", "library": path, "supported": true}].
 * Called by the summary writer only (it takes the loader's lock, as dl_iterate_phdr does). */
void lh_toolkit_found_json(lh_json *j) LH_HIDDEN;

/* toykit's callback type, as the hook table names it: bool (*)(void *), returned in al and read
 * as an int by the ABI. */
typedef int (*lh_tk_source_fn)(void *data);

#endif
