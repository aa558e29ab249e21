/*
 * lh_elf.c — a loaded module's GOT entries by symbol name, and a store into one (lh_elf.h).
 *
 * Contracts: inside a dl_iterate_phdr callback (the loader's lock), guard held; no allocation; reads
 * only the module's own dynamic section, symbol, string and relocation tables. A store into the
 * read-only part of a module (PT_GNU_RELRO: all its entries with -z now) makes that one page
 * writable for the store and read-only again at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "lh_elf.h"
#include "lh_runtime.h"

static uintptr_t dyn_address(uintptr_t base, ElfW(Addr) value) { return value < base ? base + value : value; }

bool lh_elf_module_read(const struct dl_phdr_info *info, lh_elf_module *m) {
    memset(m, 0, sizeof *m);
    m->base = info->dlpi_addr;
    m->lo = UINTPTR_MAX;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = m->base + ph->p_vaddr;
        if (ph->p_type == PT_LOAD) {
            if (lo < m->lo) m->lo = lo;
            if (lo + ph->p_memsz > m->hi) m->hi = lo + ph->p_memsz;
        } else if (ph->p_type == PT_DYNAMIC) {
            dyn = (const ElfW(Dyn) *)lo;
        } else if (ph->p_type == PT_GNU_RELRO) {
            m->relro_lo = lo & ~(uintptr_t)4095;
            m->relro_hi = (lo + ph->p_memsz) & ~(uintptr_t)4095; /* the loader protects whole pages only */
        }
    }
    if (dyn == NULL) return false;
    size_t rela_size = 0, jmprel_size = 0, rela_ent = sizeof(ElfW(Rela));
    bool jmprel_is_rela = true;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: m->symtab = (const ElfW(Sym) *)dyn_address(m->base, dyn->d_un.d_ptr); break;
        case DT_STRTAB: m->strtab = (const char *)dyn_address(m->base, dyn->d_un.d_ptr); break;
        case DT_RELA: m->rela = (const ElfW(Rela) *)dyn_address(m->base, dyn->d_un.d_ptr); break;
        case DT_RELASZ: rela_size = dyn->d_un.d_val; break;
        case DT_RELAENT: rela_ent = dyn->d_un.d_val; break;
        case DT_JMPREL: m->jmprel = (const ElfW(Rela) *)dyn_address(m->base, dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_size = dyn->d_un.d_val; break;
        case DT_PLTREL: jmprel_is_rela = dyn->d_un.d_val == DT_RELA; break;
        default: break;
        }
    }
    if (m->symtab == NULL || m->strtab == NULL || rela_ent != sizeof(ElfW(Rela)) || !jmprel_is_rela) return false;
    m->rela_count = m->rela != NULL ? rela_size / sizeof(ElfW(Rela)) : 0;
    m->jmprel_count = m->jmprel != NULL ? jmprel_size / sizeof(ElfW(Rela)) : 0;
    return true;
}

static void each_in(const lh_elf_module *m, const ElfW(Rela) *rel, size_t count,
                    void (*fn)(const lh_elf_module *, const lh_elf_entry *, void *), void *ctx) {
    for (size_t i = 0; i < count; i++) {
        unsigned type = ELF64_R_TYPE(rel[i].r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
        uint32_t sym = ELF64_R_SYM(rel[i].r_info);
        if (sym == 0) continue;
        uintptr_t at = m->base + rel[i].r_offset;
        lh_elf_entry e = {
            .entry = (void **)at,
            .name = m->strtab + m->symtab[sym].st_name,
            .jump_slot = type == R_X86_64_JUMP_SLOT,
            .relro = at >= m->relro_lo && at < m->relro_hi,
        };
        fn(m, &e, ctx);
    }
}

void lh_elf_each_entry(const lh_elf_module *m, void (*fn)(const lh_elf_module *, const lh_elf_entry *, void *), void *ctx) {
    each_in(m, m->jmprel, m->jmprel_count, fn, ctx);
    each_in(m, m->rela, m->rela_count, fn, ctx);
}

bool lh_elf_relro_still_writable(void **entry) {
    if (lh_sandboxed()) return false;
    /* The entry's own value written back where it is, through the kernel: it fails with EFAULT on
     * a read-only page instead of faulting, and writes the same bytes (no caller sees a torn
     * pointer). */
    void *now = __atomic_load_n(entry, __ATOMIC_RELAXED);
    struct iovec local = {&now, sizeof now}, remote = {entry, sizeof now};
    int saved = errno;
    bool writable = process_vm_writev(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)sizeof now;
    errno = saved;
    return writable;
}

bool lh_elf_store_entry(void **entry, void *value, bool relro) {
    void *page = (void *)((uintptr_t)entry & ~(uintptr_t)4095);
    if (relro && mprotect(page, 4096, PROT_READ | PROT_WRITE) != 0) return false;
    __atomic_store_n(entry, value, __ATOMIC_RELAXED); /* one aligned store: see lh_elf.h */
    if (relro) mprotect(page, 4096, PROT_READ);
    return true;
}
