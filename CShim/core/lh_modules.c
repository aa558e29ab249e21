/*
 * lh_modules.c — address → module resolution for breach reports and loop-library detection.
 *
 * Runs at start-up and on the breach path only. dl_iterate_phdr takes the loader's recursive lock;
 * we hold none of our own, so this cannot deadlock against dlopen/dlclose. A frame's symbol is read
 * from its module's own tables inside that walk (lh_symbol_containing), not asked of dladdr1, which
 * would scan every symbol of the module again for each frame and take the lock once more. Nothing
 * here allocates: results go into caller-provided arrays and a string pool. Every walk of the
 * modules LoopHunter makes goes through lh_modules_iterate, which reads the list without the lock
 * in a child of fork that inherited it held (lh_modules_freeze).
 */
#define _GNU_SOURCE
#include "lh_modules.h"
#include "lh_atomic.h"
#include "lh_symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

/* ---- walking the modules ---------------------------------------------------------------------- */

/* Set once, in a child of fork only (single-threaded then); relaxed: read by the same thread, or by
 * threads the child creates afterwards (pthread_create orders it before them). */
static _Atomic int frozen;

void lh_modules_freeze(void) { lh_store_relaxed(&frozen, 1); }
bool lh_modules_frozen(void) { return lh_load_relaxed(&frozen) != 0; }

/* The loader's list of modules, read without its lock: each module's link_map (load bias, name,
 * dynamic section) and its program headers from the ELF header at the start of its mapping, which
 * _dl_find_object gives without a lock (glibc 2.35). Sound only while nothing can change the list:
 * in a frozen child, whose loader lock is held by a thread that is not there, so that any
 * dlopen or dlclose would block before touching it. */
extern int _dl_find_object(void *, struct dl_find_object *) __attribute__((weak));

static int iterate_frozen(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg) {
    /* The list's head (the main program) from our own module's place in it (no reference to the
     * loader's _r_debug: the preload needs libc only). */
    struct dl_find_object self;
    if (_dl_find_object == NULL || _dl_find_object((void *)iterate_frozen, &self) != 0 || self.dlfo_link_map == NULL) return 0;
    struct link_map *head = self.dlfo_link_map;
    while (head->l_prev != NULL) head = head->l_prev;
    int ret = 0;
    for (struct link_map *l = head; l != NULL && ret == 0; l = l->l_next) {
        struct dl_find_object found;
        if (l->l_ld == NULL || _dl_find_object((void *)l->l_ld, &found) != 0) continue;
        const ElfW(Ehdr) *eh = found.dlfo_map_start;
        if (eh == NULL || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) continue;
        struct dl_phdr_info info = {
            .dlpi_addr = l->l_addr,
            .dlpi_name = l->l_name,
            .dlpi_phdr = (const ElfW(Phdr) *)((const char *)eh + eh->e_phoff),
            .dlpi_phnum = eh->e_phnum,
        };
        ret = cb(&info, sizeof info, arg);
    }
    return ret;
}

int lh_modules_iterate(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg) {
    if (LH_UNLIKELY(lh_modules_frozen())) return iterate_frozen(cb, arg);
    return dl_iterate_phdr(cb, arg);
}

/* ---- names and ranges ---------------------------------------------------------------------- */

static const char *file_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

typedef struct ranges_ctx {
    const char (*names)[64];
    size_t name_count;
    lh_range *out;
    size_t max, found;
} ranges_ctx;

static void add_exec_segments(struct dl_phdr_info *info, lh_range *out, size_t max, size_t *found) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || *found >= max) continue;
        out[*found].lo = info->dlpi_addr + ph->p_vaddr;
        out[*found].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        (*found)++;
    }
}

bool lh_module_path_of(const void *address, const char **path) {
    *path = NULL;
    if (_dl_find_object == NULL) return true;
    struct dl_find_object found;
    if (_dl_find_object((void *)address, &found) != 0) return false;
    if (found.dlfo_link_map != NULL) *path = found.dlfo_link_map->l_name != NULL ? found.dlfo_link_map->l_name : "";
    return true;
}

bool lh_module_named(const char *path, const char *name) {
    size_t n = strlen(name);
    if (n == 0) return false;
    if (name[0] == '/') return strstr(path, name) != NULL;
    return strncmp(file_name(path), name, n) == 0;
}

static int ranges_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    ranges_ctx *c = arg;
    const char *path = info->dlpi_name != NULL ? info->dlpi_name : "";
    if (c->name_count == 0) add_exec_segments(info, c->out, c->max, &c->found);
    for (size_t i = 0; i < c->name_count; i++) {
        if (lh_module_named(path, c->names[i])) {
            add_exec_segments(info, c->out, c->max, &c->found);
            break;
        }
    }
    return 0;
}

size_t lh_modules_ranges_named(const char names[][64], size_t name_count, lh_range *out, size_t max) {
    ranges_ctx c = {names, name_count, out, max, 0};
    lh_modules_iterate(ranges_cb, &c);
    return c.found;
}

typedef struct each_ctx {
    void (*fn)(const char *path, void *ctx);
    void *ctx;
} each_ctx;

static int each_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    each_ctx *c = arg;
    c->fn(info->dlpi_name != NULL ? info->dlpi_name : "", c->ctx);
    return 0;
}

void lh_modules_each(void (*fn)(const char *path, void *ctx), void *ctx) {
    each_ctx c = {fn, ctx};
    lh_modules_iterate(each_cb, &c);
}

typedef struct segments_ctx {
    lh_range *out;
    size_t max, found;
} segments_ctx;

static int segments_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    segments_ctx *c = arg;
    for (int i = 0; i < info->dlpi_phnum && c->found < c->max; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        c->out[c->found].lo = info->dlpi_addr + ph->p_vaddr;
        c->out[c->found].hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
        c->found++;
    }
    return c->found == c->max;
}

size_t lh_modules_segments(lh_range *out, size_t max) {
    segments_ctx c = {out, max, 0};
    lh_modules_iterate(segments_cb, &c);
    return c.found;
}

typedef struct range_of_ctx {
    uintptr_t address;
    lh_range *out;
    bool found;
} range_of_ctx;

bool lh_module_contains(const struct dl_phdr_info *info, uintptr_t a) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz) return true;
    }
    return false;
}

static int range_of_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    range_of_ctx *c = arg;
    if (!lh_module_contains(info, c->address)) return 0;
    size_t found = 0;
    add_exec_segments(info, c->out, 1, &found);
    c->found = found == 1;
    return 1;
}

bool lh_modules_range_of(const void *address, lh_range *out) {
    range_of_ctx c = {(uintptr_t)address, out, false};
    lh_modules_iterate(range_of_cb, &c);
    return c.found;
}

/* ---- frame resolution ---------------------------------------------------------------------- */

typedef struct pool {
    char *mem;
    size_t size, used;
} pool;

static const char *pool_copy(pool *p, const char *s) {
    size_t n = strlen(s) + 1;
    if (p->used + n > p->size) return NULL;
    char *dst = p->mem + p->used;
    memcpy(dst, s, n);
    p->used += n;
    return dst;
}

/* The GNU build-id note of a loaded module, as hex, or "". */
static void read_build_id(struct dl_phdr_info *info, char *hex) {
    static const char digits[] = "0123456789abcdef";
    hex[0] = '\0';
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            size_t name_size = (nh->n_namesz + 3u) & ~3u;
            size_t desc_size = (nh->n_descsz + 3u) & ~3u;
            const unsigned char *name = p + sizeof *nh;
            const unsigned char *desc = name + name_size;
            if (desc + desc_size > end) break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                size_t n = nh->n_descsz < LH_BUILD_ID_MAX ? nh->n_descsz : LH_BUILD_ID_MAX;
                for (size_t k = 0; k < n; k++) {
                    hex[2 * k] = digits[desc[k] >> 4];
                    hex[2 * k + 1] = digits[desc[k] & 0xf];
                }
                hex[2 * n] = '\0';
                return;
            }
            p = desc + desc_size;
        }
    }
}

typedef struct resolve_ctx {
    const uintptr_t *pcs;
    size_t count;
    lh_frame *frames;
    lh_module *modules;
    size_t max_modules, module_count;
    pool *pool;
    const char *exe_path;
} resolve_ctx;

/* The exported symbols holding the frames of this module (pc - 1: the call instruction), asked in
 * one pass over its symbols per LH_SYMBOL_AT_MAX frames. */
static void resolve_symbols(const struct dl_phdr_info *info, resolve_ctx *c, int index) {
    size_t ids[LH_SYMBOL_AT_MAX];
    uintptr_t at[LH_SYMBOL_AT_MAX];
    lh_symbol_at found[LH_SYMBOL_AT_MAX];
    for (size_t f = 0; f < c->count;) {
        size_t n = 0;
        for (; f < c->count && n < LH_SYMBOL_AT_MAX; f++) {
            if (c->frames[f].module != index) continue;
            ids[n] = f;
            at[n++] = c->pcs[f] - 1;
        }
        lh_symbol_containing(info, at, n, found);
        for (size_t i = 0; i < n; i++) {
            if (found[i].name == NULL) continue;
            lh_frame *fr = &c->frames[ids[i]];
            fr->symbol = pool_copy(c->pool, found[i].name);
            fr->symbol_offset = fr->pc - found[i].start;
        }
    }
}

static int resolve_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    resolve_ctx *c = arg;
    int index = -1;
    for (size_t f = 0; f < c->count; f++) {
        if (c->frames[f].module >= 0 || !lh_module_contains(info, c->pcs[f])) continue;
        if (index < 0) {
            if (c->module_count >= c->max_modules) return 1;
            index = (int)c->module_count++;
            lh_module *m = &c->modules[index];
            const char *name = info->dlpi_name;
            if (name == NULL || name[0] == '\0') name = c->exe_path != NULL ? c->exe_path : "";
            m->base = info->dlpi_addr;
            m->path = pool_copy(c->pool, name);
            read_build_id(info, m->build_id);
        }
        c->frames[f].module = index;
        c->frames[f].offset = c->pcs[f] - info->dlpi_addr;
    }
    if (index >= 0) resolve_symbols(info, c, index);
    return 0;
}

size_t lh_modules_resolve(const uintptr_t *pcs, size_t count, lh_frame *frames, lh_module *modules,
                          size_t max_modules, char *pool_mem, size_t pool_size, const char *exe_path) {
    pool p = {pool_mem, pool_size, 0};
    for (size_t f = 0; f < count; f++) {
        frames[f].pc = pcs[f];
        frames[f].offset = 0;
        frames[f].module = -1;
        frames[f].symbol = NULL;
        frames[f].symbol_offset = 0;
    }
    resolve_ctx c = {pcs, count, frames, modules, max_modules, 0, &p, exe_path};
    lh_modules_iterate(resolve_cb, &c);
    return c.module_count;
}
