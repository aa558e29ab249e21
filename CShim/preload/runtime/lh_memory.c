/*
 * lh_memory.c — LoopHunter's own memory: every mapping it makes, named, and how much of each is
 * resident, for the summary's `memory` section (what the preload adds to a program's RSS, and
 * which of its tables sets it).
 *
 * lh_map and lh_note_mapping run at start-up or on a first use, in any thread, possibly inside a
 * hook: no allocation, no lock (a slot is claimed with one atomic add), errno left as mmap left it.
 * lh_memory_init runs once at start-up (dl_iterate_phdr: the loader's lock, never inside a hook).
 * lh_memory_json runs in the summary writer: it only asks the kernel which pages are resident
 * (mincore, made as a raw system call so that it never reaches our own mincore hook) into a stack
 * buffer, and not at all inside a seccomp sandbox, whose filter may kill the process for it.
 */
#define _GNU_SOURCE
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lh_json.h"
#include "lh_runtime.h"

#define LH_MAPPINGS 24

typedef struct mapping {
    _Atomic(const char *) what; /* static text; NULL until the slot is filled */
    const void *mem;
    size_t bytes;
} mapping;

static mapping mappings[LH_MAPPINGS];
/* Slots claimed (relaxed: a counter; each slot's `what`, written last with release, publishes it). */
static _Atomic size_t claimed;

void lh_note_mapping(const char *what, const void *mem, size_t bytes) {
    if (mem == NULL || mem == MAP_FAILED) return;
    size_t i = lh_add_relaxed(&claimed, 1);
    if (i >= LH_MAPPINGS) return; /* more kinds than the summary lists: left out of it */
    mappings[i].mem = mem;
    mappings[i].bytes = bytes;
    /* release: mem and bytes are written before a reader (acquire) sees the name. */
    lh_store_release(&mappings[i].what, what);
}

/* The tables lh_map hands out are carved from one reservation of LH_ARENA bytes of address space
 * (MAP_NORESERVE: no memory until a page is touched), made at the first lh_map: one system call
 * at start-up instead of one per table (issue 21). Pieces are page-aligned and handed out by an
 * atomic bump; one that does not fit (or when the reservation failed, or is being made by another
 * thread at that instant) gets a mapping of its own. Nothing lh_map returns is ever unmapped (a
 * piece's pages may be given back with madvise). */
#define LH_ARENA ((size_t)16 << 20)
enum { ARENA_NONE = 0, ARENA_RESERVING = 1, ARENA_READY = 2, ARENA_FAILED = 3 };
static _Atomic int arena_state; /* ARENA_*: CAS from NONE by the reserving thread; release of READY */
static char *arena;             /* written by the reserving thread before READY is published */
static _Atomic size_t arena_used;

static void *carve(size_t bytes) {
    /* acquire: pairs with the release of READY (the reservation's address). */
    int state = lh_load_acquire(&arena_state);
    if (state == ARENA_NONE) {
        int expected = ARENA_NONE;
        /* relaxed: a once-flag; READY publishes the address. */
        if (!lh_cas_relaxed(&arena_state, &expected, ARENA_RESERVING)) return NULL;
        void *mem = mmap(NULL, LH_ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) {
            lh_store_relaxed(&arena_state, ARENA_FAILED);
            return NULL;
        }
        arena = mem;
        lh_store_release(&arena_state, ARENA_READY);
        state = ARENA_READY;
    }
    if (state != ARENA_READY) return NULL;
    size_t want = (bytes + 4095) & ~(size_t)4095;
    /* relaxed: the bump only has to hand each byte out once; the memory is zero from the kernel. */
    size_t at = lh_load_relaxed(&arena_used);
    do {
        if (want > LH_ARENA - at) return NULL;
    } while (!lh_cas_relaxed(&arena_used, &at, at + want));
    return arena + at;
}

void *lh_map(const char *what, size_t bytes) {
    void *mem = carve(bytes);
    if (mem == NULL) {
        mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) return NULL;
    }
    lh_note_mapping(what, mem, bytes);
    return mem;
}

/* Resident bytes of [mem, mem + bytes), asked page by page of mincore in chunks. */
static uint64_t resident(const void *mem, size_t bytes) {
    const size_t page = 4096;
    uintptr_t start = (uintptr_t)mem & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)mem + bytes + page - 1) & ~(uintptr_t)(page - 1);
    unsigned char vec[1024];
    uint64_t pages = 0;
    for (uintptr_t at = start; at < end;) {
        size_t n = (end - at) / page < sizeof vec ? (end - at) / page : sizeof vec;
        if (syscall(SYS_mincore, (void *)at, n * page, vec) != 0) return pages * page;
        for (size_t k = 0; k < n; k++) pages += vec[k] & 1;
        at += n * page;
    }
    return pages * page;
}

/* The preload's own writable segments (its data and bss: static tables such as the detectors'
 * per-thread state), noted once at start-up; its code is shared with every process that maps the
 * file and is not counted. */
static int self_cb(struct dl_phdr_info *info, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    uintptr_t self = (uintptr_t)lh_note_mapping;
    bool ours = false;
    for (int i = 0; i < info->dlpi_phnum && !ours; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        ours = p->p_type == PT_LOAD && (p->p_flags & PF_X) != 0 && self >= lo && self < lo + p->p_memsz;
    }
    if (!ours) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD && (p->p_flags & PF_W) != 0)
            lh_note_mapping("preload data and bss", (const void *)(info->dlpi_addr + p->p_vaddr), p->p_memsz);
    }
    return 1;
}

void lh_memory_init(void) { lh_modules_iterate(self_cb, NULL); }

void lh_memory_json(lh_json *j) {
    lh_json_begin_object(j, "memory");
    /* Inside a seccomp sandbox a system call its filter does not allow may kill the process: no
     * mincore there (resident sizes are then null). */
    bool ask = !lh_sandboxed();
    uint64_t mapped = 0, total = 0;
    lh_json_begin_array(j, "parts");
    size_t n = lh_load_relaxed(&claimed);
    for (size_t i = 0; i < n && i < LH_MAPPINGS; i++) {
        /* acquire: pairs with the release in lh_note_mapping (NULL: still being noted). */
        const char *what = lh_load_acquire(&mappings[i].what);
        if (what == NULL) continue;
        uint64_t rss = ask ? resident(mappings[i].mem, mappings[i].bytes) : 0;
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "what", what);
        lh_json_u64(j, "mapped_bytes", mappings[i].bytes);
        if (ask)
            lh_json_u64(j, "resident_bytes", rss);
        else
            lh_json_null(j, "resident_bytes");
        lh_json_end_object(j);
        mapped += mappings[i].bytes;
        total += rss;
    }
    lh_json_end_array(j);
    lh_json_u64(j, "mapped_bytes", mapped);
    if (ask)
        lh_json_u64(j, "resident_bytes", total);
    else
        lh_json_null(j, "resident_bytes");
    lh_json_u64(j, "mappings_not_listed", n > LH_MAPPINGS ? n - LH_MAPPINGS : 0);
    lh_json_end_object(j);
}
