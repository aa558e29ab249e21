/*
 * lh_symbols.c — function lookups in the loaded modules' dynamic symbol tables (see lh_symbols.h).
 *
 * May run before main, inside the host's malloc, in any thread: nothing here allocates or takes a
 * lock other than the loader's recursive one (dl_iterate_phdr). Each module is searched through its
 * GNU hash table (with its Bloom filter, so a module that lacks the name costs a few loads) or, in
 * modules that have only one, its SysV hash table.
 */
#define _GNU_SOURCE
#include "lh_symbols.h"
#include "lh_modules.h"

#include <elf.h>
#include <link.h>
#include <string.h>

/* ---- one module ------------------------------------------------------------------------------ */

typedef struct module_tables {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const uint32_t *gnu_hash;
    const uint32_t *sysv_hash;
    const uint16_t *versym;
    size_t strsz;
} module_tables;

/* A dynamic-section address: the loader relocates these entries in place on x86-64 (absolute),
 * but not in the vDSO or on targets whose dynamic section is read-only (relative to the base). */
static uintptr_t dyn_address(uintptr_t base, ElfW(Addr) value) {
    return value < base ? base + value : value;
}

static bool tables_of(const struct dl_phdr_info *info, module_tables *t) {
    memset(t, 0, sizeof *t);
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    if (dyn == NULL) return false;
    uintptr_t base = info->dlpi_addr;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: t->symtab = (const ElfW(Sym) *)dyn_address(base, dyn->d_un.d_ptr); break;
        case DT_STRTAB: t->strtab = (const char *)dyn_address(base, dyn->d_un.d_ptr); break;
        case DT_GNU_HASH: t->gnu_hash = (const uint32_t *)dyn_address(base, dyn->d_un.d_ptr); break;
        case DT_HASH: t->sysv_hash = (const uint32_t *)dyn_address(base, dyn->d_un.d_ptr); break;
        case DT_VERSYM: t->versym = (const uint16_t *)dyn_address(base, dyn->d_un.d_ptr); break;
        case DT_STRSZ: t->strsz = dyn->d_un.d_val; break;
        default: break;
        }
    }
    return t->symtab != NULL && t->strtab != NULL && (t->gnu_hash != NULL || t->sysv_hash != NULL);
}

static uint32_t gnu_hash(const char *s) {
    uint32_t h = 5381;
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0'; c++) h = h * 33 + *c;
    return h;
}

static uint32_t sysv_hash(const char *s) {
    uint32_t h = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c != '\0'; c++) {
        h = (h << 4) + *c;
        uint32_t g = h & 0xf0000000u;
        if (g != 0) h ^= g >> 24;
        h &= ~g;
    }
    return h;
}

/* 0: not a usable definition; 1: a non-default (hidden) version; 2: the default (or unversioned).
 * `data`: a variable is wanted, else a function. */
static int candidate(const module_tables *t, uint32_t index, const char *name, bool data) {
    const ElfW(Sym) *sym = &t->symtab[index];
    if (sym->st_shndx == SHN_UNDEF || sym->st_value == 0) return 0;
    unsigned type = ELF64_ST_TYPE(sym->st_info), bind = ELF64_ST_BIND(sym->st_info);
    if (data ? type != STT_OBJECT : type != STT_FUNC && type != STT_GNU_IFUNC) return 0;
    if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) return 0;
    if (strcmp(t->strtab + sym->st_name, name) != 0) return 0;
    if (t->versym == NULL) return 2;
    uint16_t v = t->versym[index];
    if ((v & 0x7fff) == 0) return 0; /* VER_NDX_LOCAL: not visible outside its module */
    return (v & 0x8000) != 0 ? 1 : 2;
}

/* The symbol index of `name`'s default definition in the module (or a hidden version when it has
 * no default one); 0 when it has none. */
static uint32_t lookup_hashed(const module_tables *t, const char *name, uint32_t h, bool data) {
    uint32_t hidden = 0;
    if (t->gnu_hash != NULL) {
        uint32_t nbuckets = t->gnu_hash[0], symoffset = t->gnu_hash[1];
        uint32_t bloom_size = t->gnu_hash[2], bloom_shift = t->gnu_hash[3];
        if (nbuckets == 0 || bloom_size == 0) return 0;
        const ElfW(Addr) *bloom = (const ElfW(Addr) *)(t->gnu_hash + 4);
        const uint32_t *buckets = (const uint32_t *)(bloom + bloom_size);
        const uint32_t *chain = buckets + nbuckets;
        const unsigned bits = sizeof(ElfW(Addr)) * 8;
        ElfW(Addr) word = bloom[(h / bits) % bloom_size];
        ElfW(Addr) mask = ((ElfW(Addr))1 << (h % bits)) | ((ElfW(Addr))1 << ((h >> bloom_shift) % bits));
        if ((word & mask) != mask) return 0;
        uint32_t index = buckets[h % nbuckets];
        if (index < symoffset) return 0;
        for (;; index++) {
            uint32_t ch = chain[index - symoffset];
            if ((ch | 1) == (h | 1)) {
                int c = candidate(t, index, name, data);
                if (c == 2) return index;
                if (c == 1 && hidden == 0) hidden = index;
            }
            if (ch & 1) break;
        }
        return hidden;
    }
    uint32_t nbucket = t->sysv_hash[0];
    if (nbucket == 0) return 0;
    const uint32_t *bucket = t->sysv_hash + 2, *chain = bucket + nbucket;
    uint32_t nchain = t->sysv_hash[1];
    for (uint32_t index = bucket[sysv_hash(name) % nbucket], guard = 0; index != 0 && guard < nchain;
         index = chain[index], guard++) {
        int c = candidate(t, index, name, data);
        if (c == 2) return index;
        if (c == 1 && hidden == 0) hidden = index;
    }
    return hidden;
}

static uint32_t lookup(const module_tables *t, const char *name, bool data) {
    return lookup_hashed(t, name, gnu_hash(name), data);
}

static void *address_of(const struct dl_phdr_info *info, const module_tables *t, uint32_t index) {
    const ElfW(Sym) *sym = &t->symtab[index];
    void *address = (void *)(info->dlpi_addr + sym->st_value);
#if defined(__x86_64__)
    /* An IFUNC's value is its resolver; x86-64 resolvers take no argument (as the loader calls them). */
    if (ELF64_ST_TYPE(sym->st_info) == STT_GNU_IFUNC) address = ((void *(*)(void))address)();
#else
    if (ELF64_ST_TYPE(sym->st_info) == STT_GNU_IFUNC) address = NULL;
#endif
    return address;
}

/* ---- the walk -------------------------------------------------------------------------------- */

typedef struct find_ctx {
    const char *name;
    uintptr_t self;     /* an address in the module to skip; 0: none */
    bool stop_at_first; /* the first definition other than self's, wherever it is */
    bool data;          /* a variable, not a function */
    bool past_self;
    lh_symbol_hit before, after;
} find_ctx;

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    find_ctx *c = arg;
    if (c->self != 0 && lh_module_contains(info, c->self)) {
        c->past_self = true;
        return 0;
    }
    lh_symbol_hit *slot = c->past_self || c->self == 0 ? &c->after : &c->before;
    if (slot->address != NULL) return 0; /* the first in load order is kept */
    module_tables t;
    if (!tables_of(info, &t)) return 0;
    uint32_t index = lookup(&t, c->name, c->data);
    if (index == 0) return 0;
    void *address = address_of(info, &t, index);
    if (address == NULL) return 0;
    slot->address = address;
    slot->module_base = info->dlpi_addr;
    slot->module = info->dlpi_name != NULL ? info->dlpi_name : "";
    slot->before_self = slot == &c->before;
    /* Stop when the answer cannot change: a definition after self, or the first of all. */
    return slot == &c->after || c->stop_at_first;
}

bool lh_symbol_find(const char *name, const void *self, lh_symbol_hit *out) {
    find_ctx c = {.name = name, .self = (uintptr_t)self};
    lh_modules_iterate(find_cb, &c);
    *out = c.after.address != NULL ? c.after : c.before;
    return out->address != NULL;
}

bool lh_symbol_first(const char *name, const void *self, lh_symbol_hit *out) {
    find_ctx c = {.name = name, .self = (uintptr_t)self, .stop_at_first = true};
    lh_modules_iterate(find_cb, &c);
    *out = c.before.address != NULL ? c.before : c.after;
    return out->address != NULL;
}

bool lh_symbol_first_data(const char *name, const void *self, lh_symbol_hit *out) {
    find_ctx c = {.name = name, .self = (uintptr_t)self, .stop_at_first = true, .data = true};
    lh_modules_iterate(find_cb, &c);
    *out = c.before.address != NULL ? c.before : c.after;
    return out->address != NULL;
}

/* ---- the symbols that contain addresses -------------------------------------------------------- */

/* The addresses asked, sorted (a symbol finds the ones its extent may hold by binary search). */
typedef struct sorted_at {
    uintptr_t at[LH_SYMBOL_AT_MAX];
    size_t slot[LH_SYMBOL_AT_MAX]; /* the caller's index of each */
    size_t n;
} sorted_at;

/* The match rule of glibc's dladdr (elf/dl-addr.c), so that a report names the frame as before: a
 * symbol that is defined (or a canonical PLT address), not absolute nor thread-local, whose extent
 * holds the address (or that is the address exactly, when it has no size), nearer than the one
 * kept; the first in hash-table order among equals. */
static void consider(const module_tables *t, uintptr_t base, uint32_t index, const sorted_at *s, const ElfW(Sym) **match) {
    const ElfW(Sym) *sym = &t->symtab[index];
    uintptr_t start = base + sym->st_value;
    bool sized = sym->st_shndx != SHN_UNDEF && sym->st_size != 0;
    uintptr_t end = sized ? start + sym->st_size : start + 1;
    /* The first address at or after start: most symbols hold none of the few asked. */
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->at[mid] < start) lo = mid + 1;
        else hi = mid;
    }
    if (lo == s->n || s->at[lo] >= end) return;
    if ((sym->st_shndx == SHN_UNDEF && sym->st_value == 0) || sym->st_shndx == SHN_ABS ||
        ELF64_ST_TYPE(sym->st_info) == STT_TLS || (t->strsz != 0 && sym->st_name >= t->strsz))
        return;
    for (size_t i = lo; i < s->n && s->at[i] < end; i++) {
        const ElfW(Sym) **m = &match[s->slot[i]];
        if (*m == NULL || (*m)->st_value < sym->st_value) *m = sym;
    }
}

void lh_symbol_containing(const struct dl_phdr_info *info, const uintptr_t *at, size_t n, lh_symbol_at *out) {
    const ElfW(Sym) *match[LH_SYMBOL_AT_MAX] = {0};
    if (n > LH_SYMBOL_AT_MAX) n = LH_SYMBOL_AT_MAX;
    for (size_t i = 0; i < n; i++) out[i] = (lh_symbol_at){0};
    module_tables t;
    if (n == 0 || !tables_of(info, &t)) return;
    sorted_at s = {.n = n};
    for (size_t i = 0; i < n; i++) { /* insertion sort: n is small */
        size_t k = i;
        for (; k > 0 && s.at[k - 1] > at[i]; k--) s.at[k] = s.at[k - 1], s.slot[k] = s.slot[k - 1];
        s.at[k] = at[i];
        s.slot[k] = i;
    }
    uintptr_t base = info->dlpi_addr;
    if (t.gnu_hash != NULL) {
        /* Every symbol the GNU hash table holds: each bucket's chain, to its end bit. */
        uint32_t nbuckets = t.gnu_hash[0], symoffset = t.gnu_hash[1], bloom_size = t.gnu_hash[2];
        const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)(t.gnu_hash + 4) + bloom_size);
        const uint32_t *chain = buckets + nbuckets;
        for (uint32_t b = 0; b < nbuckets; b++) {
            uint32_t index = buckets[b];
            if (index < symoffset) continue;
            for (;; index++) {
                consider(&t, base, index, &s, match);
                if (chain[index - symoffset] & 1) break;
            }
        }
    } else {
        uint32_t nchain = t.sysv_hash[1]; /* the number of symbols */
        for (uint32_t index = 0; index < nchain; index++) consider(&t, base, index, &s, match);
    }
    for (size_t i = 0; i < n; i++) {
        /* dladdr's nearest symbol is the frame's only when its extent holds the address. */
        const ElfW(Sym) *sym = match[i];
        if (sym == NULL || sym->st_size == 0 || at[i] >= base + sym->st_value + sym->st_size) continue;
        out[i].name = t.strtab + sym->st_name;
        out[i].start = base + sym->st_value;
    }
}

/* ---- several names in one walk ------------------------------------------------------------- */

typedef struct each_ctx {
    const char *const *names;
    size_t n;
    uintptr_t self;
    bool past_self;
    uint32_t hashes[LH_SYMBOL_EACH_MAX];
    lh_symbol_hit *before, *after; /* the first definition before / after self's module */
} each_ctx;

static int each_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    each_ctx *c = arg;
    if (c->self != 0 && lh_module_contains(info, c->self)) {
        c->past_self = true;
        return 0;
    }
    lh_symbol_hit *slots = c->past_self || c->self == 0 ? c->after : c->before;
    module_tables t;
    bool have_tables = false, missing = false;
    for (size_t i = 0; i < c->n; i++) {
        if (slots[i].address != NULL) continue; /* the first in load order is kept */
        if (!have_tables && !(have_tables = tables_of(info, &t))) return 0;
        uint32_t index = lookup_hashed(&t, c->names[i], c->hashes[i], false);
        void *address = index != 0 ? address_of(info, &t, index) : NULL;
        if (address == NULL) {
            missing = true;
            continue;
        }
        slots[i].address = address;
        slots[i].module_base = info->dlpi_addr;
        slots[i].module = info->dlpi_name != NULL ? info->dlpi_name : "";
        slots[i].before_self = slots == c->before;
    }
    /* Stop when no answer can change: every name has its definition after self. */
    return slots == c->after && !missing;
}

void lh_symbol_find_each(const char *const *names, size_t n, const void *self, lh_symbol_hit *finds,
                         lh_symbol_hit *firsts) {
    if (n > LH_SYMBOL_EACH_MAX) n = LH_SYMBOL_EACH_MAX;
    each_ctx c = {.names = names, .n = n, .self = (uintptr_t)self, .before = firsts, .after = finds};
    for (size_t i = 0; i < n; i++) {
        c.hashes[i] = gnu_hash(names[i]);
        finds[i] = (lh_symbol_hit){0};
        firsts[i] = (lh_symbol_hit){0};
    }
    lh_modules_iterate(each_cb, &c);
    /* finds: after self, else before; firsts: before self, else after. */
    for (size_t i = 0; i < n; i++) {
        if (finds[i].address == NULL) finds[i] = firsts[i];
        else if (firsts[i].address == NULL) firsts[i] = finds[i];
    }
}

typedef struct loaded_ctx {
    uintptr_t address;
    bool found;
} loaded_ctx;

static int loaded_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    loaded_ctx *c = arg;
    c->found = lh_module_contains(info, c->address);
    return c->found;
}

typedef struct own_ctx {
    const char *name;
    uintptr_t self;
    lh_symbol_hit hit;
} own_ctx;

static int own_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    own_ctx *c = arg;
    if (!lh_module_contains(info, c->self)) return 0;
    module_tables t;
    uint32_t index = tables_of(info, &t) ? lookup(&t, c->name, false) : 0;
    if (index != 0) {
        c->hit.address = address_of(info, &t, index);
        c->hit.module_base = info->dlpi_addr;
        c->hit.module = info->dlpi_name != NULL ? info->dlpi_name : "";
    }
    return 1;
}

bool lh_symbol_own(const char *name, const void *self, lh_symbol_hit *out) {
    own_ctx c = {.name = name, .self = (uintptr_t)self};
    lh_modules_iterate(own_cb, &c);
    *out = c.hit;
    return out->address != NULL;
}

bool lh_symbol_is_loaded(const void *address) {
    loaded_ctx c = {(uintptr_t)address, false};
    lh_modules_iterate(loaded_cb, &c);
    return c.found;
}

static int generation_cb(struct dl_phdr_info *info, size_t size, void *arg) {
    /* dlpi_adds/dlpi_subs exist from glibc 2.4 on; `size` says whether this loader has them. */
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        *(uint64_t *)arg = (uint64_t)info->dlpi_adds * 0x100000001u + (uint64_t)info->dlpi_subs;
    return 1;
}

uint64_t lh_modules_generation(void) {
    uint64_t g = 0;
    lh_modules_iterate(generation_cb, &g);
    return g;
}
