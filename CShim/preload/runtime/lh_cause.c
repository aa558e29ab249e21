/*
 * lh_cause.c — the cause records that carry "this callback comes from layout" across asynchronous
 * hops (lh_cause.h), and the thread's cause context.
 *
 * The pool is mapped at start-up (MAP_NORESERVE: untouched records cost nothing). A record's state
 * is one atomic word, generation << 32 | references: claiming a free record (references 0) makes it
 * generation + 1 with one reference; retaining and releasing change the references with
 * compare-and-swap while the generation matches; taking over an old record when the pool is full
 * bumps its generation, so every reference to its old life reads as gone. Fields are written by
 * the claimer before the reference is handed out; a reader copies them and checks the generation
 * again (a sequence lock), so a copy from a record recycled meanwhile is thrown away.
 *
 * Runs in hooks on any thread, guard held by the callers that capture stacks; no allocation, no
 * lock (nobody waits: a lost race retries or gives up), no stdio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "lh_cause.h"
#include "lh_unwind.h"

#define LH_CAUSE_RECORDS 4096

const char *const lh_cause_kind_names[LH_CAUSE_KINDS] = {"outside", "in-layout", "deferred", "result", "geometry-change"};

__thread lh_cause_tls lh_cause_tls_data __attribute__((tls_model("initial-exec")));

typedef struct cause_rec {
    _Atomic uint64_t state;   /* generation << 32 | references */
    lh_cause_kind kind;
    unsigned hook;
    uint32_t depth;
    bool from_geometry;       /* the chain began in a geometry change (kind, or the parent's) */
    uint32_t pc_count;
    lh_cause_ref parent;
    uintptr_t callback;
    uint64_t born_ns;         /* for taking over the oldest when the pool is full */
    uintptr_t pcs[LH_CAUSE_PCS];
} cause_rec;

static cause_rec *recs;                 /* mmap'd pool of LH_CAUSE_RECORDS */
static _Atomic uint32_t next_claim;     /* where the next claim starts looking (relaxed hint) */
/* Statistics (relaxed counters). */
static _Atomic uint64_t born, released, taken_over, gone_reads;
static _Atomic uint64_t live;

int lh_cause_init(void) {
    if (recs != NULL) return 0; /* a later attach session: kept (records of the last one are stale by epoch) */
    void *mem = lh_map("cause records", sizeof(cause_rec) * LH_CAUSE_RECORDS);
    if (mem == NULL) return -errno;
    recs = mem;
    return 0;
}

bool lh_cause_ready(void) { return lh_active(LH_FAMILY_LAYOUT) && recs != NULL; }

/* The sizes each thread record's thread read lately (zero pages until used; owner-only). An entry
 * counts for the epoch and serial it was made in: epochs are unique in the process, so an entry
 * left by a record's previous thread never matches. */
static struct cause_reads {
    uint32_t next;
    struct cause_read {
        const void *widget;
        const void *parent;   /* what lays it out, when noted (NULL: not noted) */
        uint64_t epoch;
        uint32_t serial;
        uint64_t layouts;     /* the widget's layouts counted when it was read (its slot's total) */
    } r[LH_CAUSE_READS];
} reads[LH_THREAD_RECORDS] LH_LARGE_TABLE(cause_reads);

void lh_cause_note_read(const lh_tls *t, const void *widget, const void *parent, uint64_t layouts) {
    if (t->rec == NULL) return;
    struct cause_reads *rs = &reads[lh_record_index(t->rec)];
    struct cause_read *r = &rs->r[rs->next++ % LH_CAUSE_READS];
    r->widget = widget;
    r->parent = parent;
    r->epoch = t->epoch;
    r->serial = lh_cause_tls_data.serial;
    r->layouts = layouts;
}

const void *lh_cause_child_read(const lh_tls *t, const void *widget) {
    if (t->rec == NULL || widget == NULL) return NULL;
    const struct cause_reads *rs = &reads[lh_record_index(t->rec)];
    uint32_t serial = lh_cause_tls_data.serial;
    for (size_t i = 0; i < LH_CAUSE_READS; i++) {
        const struct cause_read *r = &rs->r[i];
        if (r->parent == widget && r->serial == serial && r->epoch == t->epoch) return r->widget;
    }
    return NULL;
}

bool lh_cause_was_read(const lh_tls *t, const void *widget, uint64_t layouts) {
    if (t->rec == NULL) return false;
    const struct cause_reads *rs = &reads[lh_record_index(t->rec)];
    uint32_t serial = lh_cause_tls_data.serial;
    for (size_t i = 0; i < LH_CAUSE_READS; i++) {
        const struct cause_read *r = &rs->r[i];
        if (r->widget == widget && r->serial == serial && r->epoch == t->epoch && r->layouts == layouts) return true;
    }
    return false;
}

static inline uint32_t gen_of(uint64_t w) { return (uint32_t)(w >> 32); }
static inline uint32_t refs_of(uint64_t w) { return (uint32_t)w; }
static inline cause_rec *rec_of(lh_cause_ref ref) {
    uint32_t i = (uint32_t)ref;
    return i >= 1 && i <= LH_CAUSE_RECORDS && recs != NULL ? &recs[i - 1] : NULL;
}
static inline lh_cause_ref ref_for(size_t index, uint32_t gen) { return (uint64_t)gen << 32 | (uint64_t)(index + 1); }

bool lh_cause_retain(lh_cause_ref ref) {
    cause_rec *r = rec_of(ref);
    if (r == NULL) return false;
    uint64_t w = lh_load_relaxed(&r->state);
    while (gen_of(w) == (uint32_t)(ref >> 32) && refs_of(w) != 0) {
        /* relaxed: a reference count; the fields it guards were published with the reference. */
        if (lh_cas_relaxed(&r->state, &w, w + 1)) return true;
    }
    return false;
}

void lh_cause_release(lh_cause_ref ref) {
    for (int hops = 0; ref != 0 && hops <= LH_CAUSE_CHAIN; hops++) {
        cause_rec *r = rec_of(ref);
        if (r == NULL) return;
        lh_cause_ref parent = r->parent; /* read before our reference goes: the record is ours until then */
        uint64_t w = lh_load_relaxed(&r->state);
        bool last = false;
        for (;;) {
            if (gen_of(w) != (uint32_t)(ref >> 32) || refs_of(w) == 0) return; /* taken over meanwhile */
            /* release: our reads of the fields happen before a new claimer's writes. */
            if (atomic_compare_exchange_weak_explicit(&r->state, &w, w - 1, memory_order_release,
                                                      memory_order_relaxed)) {
                last = refs_of(w) == 1;
                break;
            }
        }
        if (!last) return;
        lh_add_relaxed(&released, 1); /* stat */
        lh_sub_relaxed(&live, 1);
        ref = parent; /* the record kept its parent: let it go too */
    }
}

/* A free record, claimed with one reference (index in *out_index, generation returned; 0: none). */
static uint32_t claim(size_t *out_index) {
    uint32_t start = lh_add_relaxed(&next_claim, 1);
    for (uint32_t n = 0; n < LH_CAUSE_RECORDS; n++) {
        size_t i = (start + n) % LH_CAUSE_RECORDS;
        uint64_t w = lh_load_relaxed(&recs[i].state);
        if (refs_of(w) != 0) continue;
        uint64_t next = (uint64_t)(gen_of(w) + 1) << 32 | 1u;
        /* acquire: the previous user's last reads happen before our writes (it released). */
        if (lh_cas_acquire(&recs[i].state, &w, next)) {
            *out_index = i;
            return gen_of(next);
        }
    }
    /* Full: take the oldest over (its references now read as gone; its parent reference is not
     * given back: that record ages out the same way). */
    size_t oldest = 0;
    uint64_t oldest_ns = UINT64_MAX;
    for (size_t i = 0; i < LH_CAUSE_RECORDS; i++) {
        if (recs[i].born_ns < oldest_ns) oldest_ns = recs[i].born_ns, oldest = i;
    }
    uint64_t w = lh_load_relaxed(&recs[oldest].state);
    uint64_t next = (uint64_t)(gen_of(w) + 1) << 32 | 1u;
    if (!lh_cas_acquire(&recs[oldest].state, &w, next)) return 0; /* lost a race: no record this time */
    lh_add_relaxed(&taken_over, 1); /* stat */
    lh_sub_relaxed(&live, 1);
    *out_index = oldest;
    return gen_of(next);
}

lh_cause_origin lh_cause_origin_now(const lh_tls *t) {
    lh_cause_origin o = {lh_cause_context(t), 0, 1, false};
    if (o.kind == LH_CAUSE_GEOMETRY_CHANGE) o.from_geometry = true;
    if (o.kind != LH_CAUSE_DEFERRED || recs == NULL) return o;
    lh_cause_ref running = lh_cause_tls_data.dispatch;
    cause_rec *p = rec_of(running);
    uint32_t pdepth = p != NULL ? p->depth : LH_CAUSE_CHAIN; /* (a racing take-over: checked by retain) */
    o.depth = pdepth + 1;
    if (pdepth < LH_CAUSE_CHAIN && lh_cause_retain(running)) o.parent = running;
    o.from_geometry = lh_cause_from_geometry_change(running);
    return o;
}

void lh_cause_origin_drop(lh_cause_origin *o) {
    if (o->parent != 0) lh_cause_release(o->parent);
    o->parent = 0;
}

/* A record of `o` (its parent reference passed on to it), with the caller's stack when `pcs` is
 * NULL, else with those `pc_count` frames. */
static lh_cause_ref born_of(lh_cause_origin *o, unsigned hook, uintptr_t callback, const uintptr_t *pcs,
                            uint32_t pc_count) {
    if (o->kind == LH_CAUSE_OUTSIDE || recs == NULL) return 0;
    size_t i;
    uint32_t gen = claim(&i);
    if (gen == 0) {
        lh_cause_origin_drop(o);
        return 0;
    }
    cause_rec *r = &recs[i];
    r->kind = o->kind;
    r->hook = hook;
    r->depth = o->depth;
    r->from_geometry = o->from_geometry;
    r->parent = o->parent;
    o->parent = 0; /* the record's now */
    r->callback = callback;
    r->born_ns = lh_now_ns();
    if (pcs == NULL) {
        r->pc_count = lh_cause_capture_stack(r->pcs, LH_CAUSE_PCS);
    } else {
        r->pc_count = pc_count < LH_CAUSE_PCS ? pc_count : LH_CAUSE_PCS;
        memcpy(r->pcs, pcs, r->pc_count * sizeof *pcs);
    }
    lh_add_relaxed(&born, 1); /* stat */
    lh_add_relaxed(&live, 1);
    /* The reference is handed out only from here on (plain return to our caller, same thread). */
    return ref_for(i, gen);
}

lh_cause_ref lh_cause_born(lh_tls *t, unsigned hook, uintptr_t callback) {
    if (recs == NULL || lh_cause_context(t) == LH_CAUSE_OUTSIDE) return 0;
    lh_cause_origin o = lh_cause_origin_now(t);
    return born_of(&o, hook, callback, NULL, 0);
}

lh_cause_ref lh_cause_born_later(lh_cause_origin *o, unsigned hook, uintptr_t callback, const uintptr_t *pcs,
                                 uint32_t pc_count) {
    static const uintptr_t none[1];
    return born_of(o, hook, callback, pcs != NULL ? pcs : none, pcs != NULL ? pc_count : 0);
}

/* Return addresses this close after a callback's entry are taken to be inside it. */
#define CALLBACK_SPAN 4096

uint32_t lh_cause_capture_stack(uintptr_t *out, uint32_t max) {
    void *raw[32 + 16];
    int n = lh_unwind(raw, (int)(max < 32 ? max : 32) + 16);
    uintptr_t running = lh_cause_tls_data.running;
    uint32_t count = 0;
    bool substituted = false;
    for (int i = 0; i < n && count < max; i++) {
        uintptr_t pc = (uintptr_t)raw[i];
        if (!lh_is_own_code(pc)) {
            out[count++] = pc;
        } else if (count > 0 && !substituted && running != 0) {
            /* Our own frame below the host's: the trampoline that called the running callback. Its
             * place is the callback's, unless the frame above is in the callback already (a return
             * address shortly after its entry: it made a call of its own, not a tail call). */
            substituted = true;
            uintptr_t above = out[count - 1];
            if (!(above > running && above - running < CALLBACK_SPAN)) out[count++] = running + 1;
        }
    }
    return count;
}

bool lh_cause_read(lh_cause_ref ref, lh_cause_info *out) {
    cause_rec *r = rec_of(ref);
    if (r == NULL) return false;
    /* acquire: pairs with the claimer's CAS; the fields written after it were written before the
     * reference reached us (same thread, or published with the source that carries it). */
    uint64_t w = lh_load_acquire(&r->state);
    if (gen_of(w) != (uint32_t)(ref >> 32) || refs_of(w) == 0) goto gone;
    out->kind = r->kind;
    out->parent = r->parent;
    out->hook = r->hook;
    out->depth = r->depth;
    out->from_geometry = r->from_geometry;
    out->callback = r->callback;
    out->pc_count = r->pc_count <= LH_CAUSE_PCS ? r->pc_count : LH_CAUSE_PCS;
    memcpy(out->pcs, r->pcs, sizeof out->pcs);
    /* acquire fence, then the generation again: a record recycled while we copied is thrown away. */
    atomic_thread_fence(memory_order_acquire);
    if (gen_of(lh_load_relaxed(&r->state)) == (uint32_t)(ref >> 32)) return true;
gone:
    lh_add_relaxed(&gone_reads, 1); /* stat */
    return false;
}

/* A record's depth and origin, copied under its generation (false: it is gone). acquire, then the
 * generation again after the reads: as lh_cause_read. */
static bool chain_of(lh_cause_ref ref, uint32_t *depth, bool *from_geometry) {
    cause_rec *r = rec_of(ref);
    if (r == NULL) return false;
    uint64_t w = lh_load_acquire(&r->state);
    if (gen_of(w) != (uint32_t)(ref >> 32) || refs_of(w) == 0) return false;
    *depth = r->depth;
    *from_geometry = r->from_geometry;
    atomic_thread_fence(memory_order_acquire);
    return gen_of(lh_load_relaxed(&r->state)) == (uint32_t)(ref >> 32);
}

uint32_t lh_cause_depth(lh_cause_ref ref) {
    uint32_t depth;
    bool from_geometry;
    return chain_of(ref, &depth, &from_geometry) ? depth : UINT32_MAX;
}

bool lh_cause_from_geometry_change(lh_cause_ref ref) {
    uint32_t depth;
    bool from_geometry;
    return chain_of(ref, &depth, &from_geometry) && from_geometry;
}

void lh_cause_summary(lh_json *j) {
    lh_json_u64(j, "records_born", lh_load_relaxed(&born));
    lh_json_u64(j, "records_released", lh_load_relaxed(&released));
    lh_json_u64(j, "records_live", lh_load_relaxed(&live));
    lh_json_u64(j, "records_taken_over", lh_load_relaxed(&taken_over));
    lh_json_u64(j, "records_gone_when_read", lh_load_relaxed(&gone_reads));
}
