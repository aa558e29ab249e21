/*
 * lh_toolkit.c — what every toolkit adapter shares: describing an object for a report through the
 * adapter's getters, and measuring its depth in the view tree; and naming the toolkits a process
 * has loaded, supported or not (for the summary).
 *
 * Called on the host's thread while the object is being laid out (so it and its ancestors are
 * alive), with the thread's guard held; the toolkits' names by the summary writer. Copies into the
 * caller's buffers; no allocation.
 */
#include <string.h>

#include "lh_modules.h"
#include "lh_toolkit.h"

const lh_toolkit *const lh_toolkits[] = {&lh_toolkit_toykit, &lh_toolkit_gtk, &lh_toolkit_qt, NULL};

void lh_toolkit_copy_text(char *dst, const char *s) {
    size_t n = s != NULL ? strnlen(s, LH_OBJECT_TEXT - 1) : 0;
    if (n > 0) memcpy(dst, s, n);
    dst[n] = '\0';
}

unsigned lh_toolkit_depth(const lh_toolkit *tk, const void *object) {
    unsigned depth = 0;
    if (tk == NULL || tk->parent_of == NULL) return 0;
    for (const void *p = tk->parent_of(object); p != NULL && depth < 64; p = tk->parent_of(p)) depth++;
    return depth;
}

void lh_toolkit_describe(const lh_toolkit *tk, const void *object, lh_object_desc *out) {
    lh_toolkit_copy_text(out->node.type, tk->type_name != NULL ? tk->type_name(object) : NULL);
    lh_toolkit_copy_text(out->node.name, tk->name_of != NULL ? tk->name_of(object) : NULL);
    int rect[4];
    if (tk->geometry != NULL && tk->geometry(object, rect)) {
        out->has_geometry = true;
        out->x = rect[0], out->y = rect[1], out->width = rect[2], out->height = rect[3];
    }
    if (tk->parent_of == NULL) return;
    /* Ancestors, nearest first, then reversed to root-first; a cycle or a very deep tree is cut at
     * 64 levels and only the nearest LH_OBJECT_MAX_ANCESTORS are kept. */
    const void *chain[64];
    size_t depth = 0;
    for (const void *p = tk->parent_of(object); p != NULL && depth < LH_ARRAY_COUNT(chain); p = tk->parent_of(p))
        chain[depth++] = p;
    size_t keep = depth < LH_OBJECT_MAX_ANCESTORS ? depth : LH_OBJECT_MAX_ANCESTORS;
    out->ancestors_truncated = keep < depth || depth == LH_ARRAY_COUNT(chain);
    out->ancestor_count = keep;
    for (size_t i = 0; i < keep; i++) {
        const void *a = chain[keep - 1 - i];
        lh_toolkit_copy_text(out->ancestors[i].type, tk->type_name != NULL ? tk->type_name(a) : NULL);
        lh_toolkit_copy_text(out->ancestors[i].name, tk->name_of != NULL ? tk->name_of(a) : NULL);
    }
}

/* ---- the toolkits a process has loaded ------------------------------------------------------- */

/* Known GUI toolkits, by the file name of their main library: the shared table (lh_shared.h). */
static const struct known_toolkit {
    const char *prefix, *name;
    bool supported;
} known_toolkits[] = {
#define LH_TOOLKIT_ROW(library, name, supported) {library, name, supported},
    LH_KNOWN_TOOLKITS(LH_TOOLKIT_ROW)
#undef LH_TOOLKIT_ROW
};

#define FOUND_MAX 8

typedef struct found_ctx {
    lh_json *j;
    const char *named[FOUND_MAX]; /* names listed already (one entry per toolkit) */
    size_t count;
} found_ctx;

static void found_module(const char *path, void *arg) {
    found_ctx *c = arg;
    const char *slash = strrchr(path, '/');
    const char *file = slash != NULL ? slash + 1 : path;
    for (size_t k = 0; k < LH_ARRAY_COUNT(known_toolkits); k++) {
        const struct known_toolkit *t = &known_toolkits[k];
        if (strncmp(file, t->prefix, strlen(t->prefix)) != 0) continue;
        for (size_t i = 0; i < c->count; i++)
            if (strcmp(c->named[i], t->name) == 0) return;
        if (c->count == FOUND_MAX) return;
        c->named[c->count++] = t->name;
        lh_json_begin_object(c->j, NULL);
        lh_json_string(c->j, "name", t->name);
        lh_json_string(c->j, "library", path);
        lh_json_bool(c->j, "supported", t->supported);
        lh_json_end_object(c->j);
        return;
    }
}

void lh_toolkit_found_json(lh_json *j) {
    found_ctx c = {.j = j};
    lh_json_begin_array(j, "toolkits");
    lh_modules_each(found_module, &c);
    lh_json_end_array(j);
}
