/*
 * lh_host.c — the host's own functions and variables, for calling the toolkit (GLib, GTK, toykit)
 * without linking it: found in whichever module defines them first, loaded at start-up or later,
 * globally or with RTLD_LOCAL; never LoopHunter's own definitions. lh_symbols.h walks the loaded
 * modules' symbol tables: no dlsym, no allocation, no lock of ours.
 */
#include "lh_runtime.h"
#include "lh_symbols.h"

void *lh_host_function(const char *name) {
    lh_symbol_hit hit;
    return lh_symbol_first(name, (const void *)lh_host_function, &hit) ? hit.address : NULL;
}

void *lh_host_data(const char *name) {
    lh_symbol_hit hit;
    return lh_symbol_first_data(name, (const void *)lh_host_function, &hit) ? hit.address : NULL;
}

/* The TSan runtime is linked into a TSan-built program and cannot arrive later, so one lookup
 * answers for the process (the unwinder and the breach path both ask at start-up). Written during
 * start-up only (one thread); relaxed: 0 not looked up yet, 1 no, 2 yes. */
bool lh_host_has_tsan(void) {
    static _Atomic int known;
    int k = lh_load_relaxed(&known);
    if (k == 0) {
        k = lh_host_function("__tsan_init") != NULL ? 2 : 1;
        lh_store_relaxed(&known, k);
    }
    return k == 2;
}
