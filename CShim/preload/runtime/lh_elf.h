/*
 * lh_elf.h — a loaded module's GOT entries, by the name of the symbol each one is bound to, and one
 * pointer store into such an entry (lh_elf.c). Two users: `loophunter attach` points the entries
 * that name a hook row at our wrappers (interpose/lh_got.c), and the stack capture points
 * libunwind's own imports of its memory-validation pipe at LoopHunter's (runtime/lh_capture.c).
 *
 * Contracts: called inside a dl_iterate_phdr callback (the loader's lock: the module is neither
 * unloaded nor relocated under us) with the thread's guard held, never inside the host's malloc or
 * a signal handler. Reads the module's dynamic section and relocation tables, allocates nothing.
 */
#ifndef LH_ELF_H
#define LH_ELF_H

#include <elf.h>
#include <link.h>

#include "lh_base.h"

typedef struct lh_elf_module {
    uintptr_t base, lo, hi;           /* load bias; the extent of its PT_LOAD segments */
    uintptr_t relro_lo, relro_hi;     /* page-rounded PT_GNU_RELRO; empty when none */
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Rela) *rela, *jmprel;
    size_t rela_count, jmprel_count;
} lh_elf_module;

/* Reads the module's tables; false when it has no dynamic section or relocations of a kind this
 * does not read (REL instead of RELA). m->lo/hi are set even then. */
bool lh_elf_module_read(const struct dl_phdr_info *info, lh_elf_module *m) LH_HIDDEN;

/* One JUMP_SLOT (a call through the PLT) or GLOB_DAT (a function's address taken) entry bound to
 * the symbol `name`. */
typedef struct lh_elf_entry {
    void **entry;
    const char *name;
    bool jump_slot;
    bool relro;   /* in the module's read-only-after-relocation part */
} lh_elf_entry;

/* Calls `fn` for each such entry of the module (the PLT's first, then the others). */
void lh_elf_each_entry(const lh_elf_module *m, void (*fn)(const lh_elf_module *m, const lh_elf_entry *e, void *ctx),
                       void *ctx) LH_HIDDEN;

/* Whether an entry still holds the lazy stub of its module's PLT (not bound yet). */
static inline bool lh_elf_unbound(const lh_elf_module *m, const lh_elf_entry *e, void *now) {
    return e->jump_slot && (uintptr_t)now >= m->lo && (uintptr_t)now < m->hi;
}

/* Whether the loader may still be writing the read-only-after-relocation page of `entry` (it is
 * still writable: another thread is relocating the module). false inside a sandbox (not asked). */
bool lh_elf_relro_still_writable(void **entry) LH_HIDDEN;

/* One aligned pointer store into an entry (atomic on x86-64: a thread calling through it calls the
 * old or the new target), through a one-page writable window when the page is read-only. */
bool lh_elf_store_entry(void **entry, void *value, bool relro) LH_HIDDEN;

#endif
