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
