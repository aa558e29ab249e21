/*
 * lh_toolkit.h — toolkit adapters: how LoopHunter reads an object's size and names without linking
 * the toolkit. An adapter resolves the toolkit's accessors with dlsym at run time, only when the
 * host has them, and calls only plain getters (no allocation, no locks, no I/O in the toolkit).
 *
 * Called from layout hooks on the host's thread while the object is being laid out (so it is
 * alive): size_of once per object per iteration, type_name when an object sets a new per-thread
 * maximum, describe only on the breach path.
 */
#ifndef LH_TOOLKIT_H
#define LH_TOOLKIT_H

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
    /* After a dlclose: forget the toolkit's functions if its library is gone (NULL: it cannot be
     * unloaded). Guard held. */
    void (*forget_unloaded)(void);
} lh_toolkit;

/* Every adapter, NULL-terminated. */
extern const lh_toolkit *const lh_toolkits[] LH_HIDDEN;

/* Type, name, ancestors (root first) and geometry of `object`, through the adapter's getters,
 * copied into `out` (breach path). */
void lh_toolkit_describe(const lh_toolkit *tk, const void *object, lh_object_desc *out) LH_HIDDEN;

extern const lh_toolkit lh_toolkit_toykit LH_HIDDEN;
extern const lh_toolkit lh_toolkit_gtk LH_HIDDEN;

/* Ancestors above `object` (0 for a root), counting at most 64. */
unsigned lh_toolkit_depth(const lh_toolkit *tk, const void *object) LH_HIDDEN;

/* Copies at most LH_OBJECT_TEXT - 1 bytes of `s` (NULL → ""). */
void lh_toolkit_copy_text(char *dst, const char *s) LH_HIDDEN;

#endif
