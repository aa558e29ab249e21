/*
 * lh_got.c — the second way to install the hook table: rewriting the entries of the global offset
 * tables (GOT) of the modules already loaded, for `loophunter attach`. Under LD_PRELOAD the loader
 * binds every module's calls to our exported wrappers by itself; a process we are loaded into later
 * has bound them already (or binds them lazily to the host's definition), so each module's
 * JUMP_SLOT (calls through the PLT) and GLOB_DAT (function addresses taken) entries that name a row
 * of lh_hooks.def are pointed at our wrapper, and given back when the session ends.
 *
 * Contracts.
 *  - Runs on the host's thread that runs the attach (outside any malloc, lock or signal handler of
 *    the host: the injector only calls at an event-loop wait), or at an iteration boundary of a loop
 *    thread (new modules), with the thread's guard held. It walks the modules inside
 *    dl_iterate_phdr (the loader's own lock: no module is unloaded or relocated under us).
 *  - An entry is redirected only when it holds what the loader would have put there: the original
 *    our wrapper forwards to (lh_hook_original), or, for a lazy PLT entry not yet bound, an address
 *    inside its own module (the PLT stub). Anything else (an older symbol version, a module bound
 *    in another namespace or with RTLD_DEEPBIND, another tool's redirection) is left alone. So a
 *    call that reaches our wrapper is one the host would have made to the same original.
 *  - Each entry is one aligned pointer store (atomic on x86-64): a thread calling through it at the
 *    same moment calls the old or the new target, both correct. Entries in the read-only part of a
 *    module (PT_GNU_RELRO, all of them with -z now) are made writable for the store and read-only
 *    again at once (mprotect of that page only) -- but only once the loader has protected that
 *    part itself: dl_iterate_phdr lists a module from the start of its dlopen, while another thread
 *    may still be relocating it, writing entries into pages it has not protected yet; making such a
 *    page read-only under the loader crashed it (reliability row 33). Whether the page is still
 *    writable is asked with process_vm_writev of the entry's own value (it fails with EFAULT on a
 *    read-only page instead of faulting; the same bytes, so no caller can see a torn pointer); a
 *    module still being relocated is left for a later pass (lh_got_pending). In a sandbox (a
 *    filter may kill for that call) the question is not asked.
 *  - Giving back: an entry that still holds our wrapper gets back what it held (a lazy stub binds
 *    again on its next call); one changed since (the loader bound it, the program rewrote it) is
 *    left. Entries of a module unloaded meanwhile are not touched (they are looked up among the
 *    loaded modules). The library itself is never unloaded (the injector opens it with
 *    RTLD_NODELETE), so a call already inside a wrapper finishes safely.
 *  - No allocation: the patch list is one mapping made on first use and kept.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "lh_elf.h"
#include "lh_got.h"
#include "lh_hooks.h"
#include "lh_runtime.h"
#include "lh_symbols.h"

#define LH_GOT_PATCHES 32768 /* entries redirected at one time, over all modules */
#define NAME_SLOTS 512       /* open-addressing index of the rows' names (> 2 x LH_HOOK_COUNT) */

typedef struct got_patch {
    void **entry;
    void *before;         /* what it held */
    void *wrapper;        /* what we put there */
    bool relro;           /* in the module's read-only-after-relocation part */
} got_patch;

static lh_lazy_map patches_map = {.what = "attach: GOT entries redirected"};
static got_patch *patches;
static size_t patch_count; /* under the `busy` flag */
static _Atomic int busy;   /* try-flag: one patcher or restorer at a time (acquire/release) */
static _Atomic int pending; /* a module was left for a later pass (relaxed: a hint, rechecked) */

/* ---- the rows by name -------------------------------------------------------------------------- */

static uint16_t name_index[NAME_SLOTS]; /* hook id + 1; 0: empty */
static void *wrappers[LH_HOOK_COUNT];   /* our exported definition of each symbol row */
static bool index_built;

static uint32_t name_hash(const char *s) {
    uint32_t h = 5381;
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0'; c++) h = h * 33 + *c;
    return h;
}

static void build_index(void) {
    if (index_built) return;
    for (unsigned id = 0; id < LH_HOOK_COUNT; id++) {
        if (lh_hooks[id].real == NULL) continue; /* a vtable group or an entry seen from inside */
        lh_symbol_hit hit;
        if (!lh_symbol_own(lh_hooks[id].name, (const void *)build_index, &hit)) continue;
        wrappers[id] = hit.address;
        for (uint32_t i = name_hash(lh_hooks[id].name) % NAME_SLOTS;; i = (i + 1) % NAME_SLOTS)
            if (name_index[i] == 0) {
                name_index[i] = (uint16_t)(id + 1);
                break;
            }
    }
    index_built = true;
}

static unsigned hook_named(const char *name) {
    for (uint32_t i = name_hash(name) % NAME_SLOTS; name_index[i] != 0; i = (i + 1) % NAME_SLOTS)
        if (strcmp(lh_hooks[name_index[i] - 1].name, name) == 0) return name_index[i] - 1u;
    return LH_HOOK_COUNT;
}

/* ---- one module (its entries: runtime/lh_elf.c) ----------------------------------------------------- */

static bool skipped_module(const struct dl_phdr_info *info) {
    const char *name = info->dlpi_name != NULL ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base != NULL ? base + 1 : name;
    /* The loader (its own calls are bound at start-up, before any program code) and the vDSO. */
    return strncmp(base, "ld-linux", 8) == 0 || strncmp(base, "linux-vdso", 10) == 0 || strncmp(base, "linux-gate", 10) == 0;
}

static void patch_entry(const lh_elf_module *m, const lh_elf_entry *e, void *arg) {
    bool *any = arg;
    unsigned id = hook_named(e->name);
    if (id == LH_HOOK_COUNT || wrappers[id] == NULL) return;
    void *now = __atomic_load_n(e->entry, __ATOMIC_RELAXED);
    if (now == wrappers[id]) return; /* done in an earlier pass */
    void *original = lh_hook_original(id);
    if (original == NULL || (now != original && !lh_elf_unbound(m, e, now)) || patch_count == LH_GOT_PATCHES) {
        lh_add_relaxed(&lh_proc.got_left, 1); /* stat */
        return;
    }
    if (e->relro && lh_elf_relro_still_writable(e->entry)) {
        lh_store_relaxed(&pending, 1); /* being relocated: a later pass */
        return;
    }
    /* The record first: a restorer that sees the entry finds it. */
    patches[patch_count] = (got_patch){e->entry, now, wrappers[id], e->relro};
    if (!lh_elf_store_entry(e->entry, wrappers[id], e->relro)) {
        lh_add_relaxed(&lh_proc.got_unwritable, 1); /* stat */
        return;
    }
    patch_count++;
    lh_add_relaxed(&lh_proc.got_redirected, 1); /* stat */
    *any = true;
}

static bool is_self(const struct dl_phdr_info *info) { return lh_module_contains(info, (uintptr_t)is_self); }

static int patch_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    (void)arg;
    if (is_self(info) || skipped_module(info)) return 0;
    lh_elf_module m;
    if (!lh_elf_module_read(info, &m)) return 0;
    bool any = false;
    lh_elf_each_entry(&m, patch_entry, &any);
    if (any) lh_add_relaxed(&lh_proc.got_modules, 1); /* stat */
    return 0;
}

static int restore_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    (void)arg;
    lh_elf_module m;
    if (!lh_elf_module_read(info, &m) && m.hi == 0) return 0;
    for (size_t i = 0; i < patch_count; i++) {
        got_patch *p = &patches[i];
        uintptr_t a = (uintptr_t)p->entry;
        if (p->entry == NULL || a < m.lo || a >= m.hi) continue;
        if (__atomic_load_n(p->entry, __ATOMIC_RELAXED) == p->wrapper) lh_elf_store_entry(p->entry, p->before, p->relro);
        p->entry = NULL;
    }
    return 0;
}

/* ---- the layer's API (lh_got.h) ------------------------------------------------------------------ */

static bool take(void) {
    int expected = 0;
    /* acquire: the previous holder's patch list. */
    return lh_cas_acquire(&busy, &expected, 1);
}
static void give(void) { lh_store_release(&busy, 0); /* release: our patch list to the next holder */ }

bool lh_got_pending(void) { return lh_load_relaxed(&pending) != 0; }

bool lh_got_redirect(void) {
    if (!take()) return false;
    lh_store_relaxed(&pending, 0);
    if (patches == NULL) patches = lh_lazy_map_get(&patches_map, sizeof(got_patch) * LH_GOT_PATCHES);
    if (patches != NULL) {
        build_index();
        lh_modules_iterate(patch_cb, NULL);
    }
    give();
    return patches != NULL;
}

void lh_got_restore(void) {
    /* Waits for a rescan in progress (an iteration boundary on another thread): a short loop. */
    while (!take()) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    if (patches != NULL) lh_modules_iterate(restore_cb, NULL);
    patch_count = 0;
    lh_store_relaxed(&pending, 0);
    give();
}
