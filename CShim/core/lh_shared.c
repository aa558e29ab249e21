/*
 * lh_shared.c — the shared tables of lh_shared.h as arrays (read by Swift, and by C code that
 * names a kind or a family). Constant data only: safe anywhere.
 */
#include "lh_shared.h"

const char *const lh_kind_names[LH_KIND_COUNT] = {
#define LH_KIND_NAME(id, name) [LH_KIND_##id] = name,
    LH_REPORT_KINDS(LH_KIND_NAME)
#undef LH_KIND_NAME
};

const char *const lh_family_names[LH_FAMILY_COUNT] = {
#define LH_FAMILY_NAME(id, name, selectable) [LH_FAMILY_BIT_##id] = name,
    LH_HOOK_FAMILIES(LH_FAMILY_NAME)
#undef LH_FAMILY_NAME
};

const unsigned char lh_family_selectable[LH_FAMILY_COUNT] = {
#define LH_FAMILY_SELECTABLE(id, name, selectable) [LH_FAMILY_BIT_##id] = selectable,
    LH_HOOK_FAMILIES(LH_FAMILY_SELECTABLE)
#undef LH_FAMILY_SELECTABLE
};

const char *lh_family_name(unsigned family) {
    for (unsigned i = 0; i < LH_FAMILY_COUNT; i++)
        if (family == 1u << i) return lh_family_names[i];
    return "other";
}

const char *lh_kind_name_at(size_t index) { return index < LH_KIND_COUNT ? lh_kind_names[index] : NULL; }

const char *lh_family_name_at(size_t index) { return index < LH_FAMILY_COUNT ? lh_family_names[index] : NULL; }

int lh_family_selectable_at(size_t index) { return index < LH_FAMILY_COUNT && lh_family_selectable[index]; }

static const struct {
    const char *library, *name;
    int supported;
} known_toolkits[] = {
#define LH_TOOLKIT_ROW(library, name, supported) {library, name, supported},
    LH_KNOWN_TOOLKITS(LH_TOOLKIT_ROW)
#undef LH_TOOLKIT_ROW
};
#define KNOWN_TOOLKIT_COUNT (sizeof known_toolkits / sizeof known_toolkits[0])

const char *lh_toolkit_name_at(size_t index) { return index < KNOWN_TOOLKIT_COUNT ? known_toolkits[index].name : NULL; }

const char *lh_toolkit_library_at(size_t index) {
    return index < KNOWN_TOOLKIT_COUNT ? known_toolkits[index].library : NULL;
}

int lh_toolkit_supported_at(size_t index) { return index < KNOWN_TOOLKIT_COUNT && known_toolkits[index].supported; }
