/*
 * lh_report.c — composes a breach report as JSON (docs/report-schema.md).
 *
 * Runs on the breach path inside a hook, maybe in a signal handler: writes only into the buffer it
 * is given (via lh_json), reads only the data it is given. No allocation, no stdio, no locks.
 */
#include "lh_report.h"

#include <string.h>

#include "lh_io.h"
#include "lh_json.h"
#include "lh_table.h"

static void name_text(lh_buf *b, const lh_view_name *n) {
    lh_buf_put(b, n->type[0] != '\0' ? n->type : "?");
    if (n->name[0] != '\0') {
        lh_buf_put(b, " '");
        lh_buf_put(b, n->name);
        lh_buf_putc(b, '\'');
    }
}

void lh_report_path_text(lh_buf *out, const lh_object_desc *o) {
    if (o->ancestors_truncated) lh_buf_put(out, "... > ");
    for (size_t i = 0; i < o->ancestor_count; i++) {
        name_text(out, &o->ancestors[i]);
        lh_buf_put(out, " > ");
    }
    name_text(out, &o->node);
}

static void size_object(lh_json *j, const char *key, uint64_t size) {
    if (size == LH_GEOMETRY_NONE) {
        lh_json_null(j, key);
        return;
    }
    lh_json_begin_object(j, key);
    lh_json_u64(j, "width", size >> 32);
    lh_json_u64(j, "height", size & 0xffffffffu);
    lh_json_end_object(j);
}

static void object_json(lh_json *j, const lh_object_desc *o) {
    char path_mem[1024];
    lh_buf path;
    lh_buf_init(&path, path_mem, sizeof path_mem);
    lh_report_path_text(&path, o);

    lh_json_begin_object(j, "object");
    lh_json_hex(j, "address", o->address);
    lh_json_string(j, "type", o->node.type);
    lh_json_string(j, "name", o->node.name[0] != '\0' ? o->node.name : NULL);
    lh_json_string(j, "path", path.data);
    lh_json_begin_array(j, "ancestors");
    for (size_t i = 0; i < o->ancestor_count; i++) {
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "type", o->ancestors[i].type);
        lh_json_string(j, "name", o->ancestors[i].name[0] != '\0' ? o->ancestors[i].name : NULL);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_bool(j, "ancestors_truncated", o->ancestors_truncated);
    if (o->has_geometry) {
        lh_json_begin_object(j, "geometry");
        lh_json_i64(j, "x", o->x);
        lh_json_i64(j, "y", o->y);
        lh_json_i64(j, "width", o->width);
        lh_json_i64(j, "height", o->height);
        lh_json_end_object(j);
    } else {
        lh_json_null(j, "geometry");
    }
    lh_json_end_object(j);
}

static void frame_json_in(lh_json *j, const lh_module *modules, const char *key, const lh_frame *f) {
    const lh_module *m = f->module >= 0 ? &modules[f->module] : NULL;
    lh_json_begin_object(j, key);
    lh_json_hex(j, "pc", f->pc);
    lh_json_string(j, "module", m != NULL ? m->path : NULL);
    lh_json_string(j, "build_id", m != NULL && m->build_id[0] != '\0' ? m->build_id : NULL);
    if (m != NULL) {
        lh_json_hex(j, "offset", f->offset);
    } else {
        lh_json_null(j, "offset");
    }
    lh_json_string(j, "symbol", f->symbol);
    if (f->symbol != NULL) {
        lh_json_u64(j, "symbol_offset", f->symbol_offset);
    } else {
        lh_json_null(j, "symbol_offset");
    }
    lh_json_end_object(j);
}

static void frame_json(lh_json *j, const lh_report_data *r, const char *key, const lh_frame *f) {
    frame_json_in(j, r->modules, key, f);
}

/* frames[first .. first + count) as the array `key`. */
static void frames_json(lh_json *j, const lh_report_data *r, const char *key, size_t first, size_t count) {
    lh_json_begin_array(j, key);
    for (size_t i = 0; i < count; i++) frame_json(j, r, NULL, &r->frames[first + i]);
    lh_json_end_array(j);
}

/* A callback address resolved as frame `index` (or null when there is none). */
static void callback_json(lh_json *j, const lh_report_data *r, const char *key, size_t index) {
    if (index < r->callback_count) {
        frame_json(j, r, key, &r->frames[r->callback_first + index]);
    } else {
        lh_json_null(j, key);
    }
}

static void stall_json(lh_json *j, const lh_report_stall *s) {
    lh_json_begin_object(j, "stall");
    lh_json_u64(j, "duration_ms", s->duration_ms);
    lh_json_bool(j, "ongoing", s->ongoing);
    if (s->has_sample) {
        lh_json_u64(j, "sampled_after_ms", s->sampled_after_ms);
    } else {
        lh_json_null(j, "sampled_after_ms");
    }
    lh_json_string(j, "method", s->method);
    lh_json_string(j, "syscall", s->syscall);
    lh_json_u64(j, "samples", s->samples);
    lh_json_end_object(j);
}

static void window_json(lh_json *j, const lh_report_data *r, const lh_report_window *w) {
    lh_json_begin_object(j, "window");
    lh_json_string(j, "title", w->title);
    lh_json_string(j, "since", w->since);
    lh_json_u64(j, "created_us", w->created_us);
    if (w->painted) {
        lh_json_u64(j, "first_frame_us", w->first_frame_us);
    } else {
        lh_json_null(j, "first_frame_us");
    }
    lh_json_u64(j, "time_to_first_frame_ms", w->ttff_ms);
    lh_json_bool(j, "painted", w->painted);
    lh_json_begin_array(j, "slowest");
    for (size_t i = 0; i < w->step_count; i++) {
        const lh_report_step *s = &w->steps[i];
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "signal", s->signal);
        lh_json_string(j, "object_type", s->object_type);
        if (s->callback != 0) {
            callback_json(j, r, "callback", i);
        } else {
            lh_json_null(j, "callback");
        }
        lh_json_u64(j, "duration_us", s->longest_us);
        lh_json_u64(j, "count", s->count);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_end_object(j);
}

static void timer_json(lh_json *j, const lh_report_data *r, const lh_report_timer *t) {
    lh_json_begin_object(j, "timer");
    lh_json_string(j, "source", t->source);
    callback_json(j, r, "callback", 0);
    lh_json_hex(j, "data", t->data);
    if (t->interval_ms >= 0) {
        lh_json_i64(j, "interval_ms", t->interval_ms);
    } else {
        lh_json_null(j, "interval_ms");
    }
    lh_json_u64(j, "created_us", t->created_us);
    lh_json_u64(j, "fires", t->fires);
    lh_json_u64(j, "live_sources", t->live_sources);
    if (t->storm_reason == NULL) {
        lh_json_null(j, "storm");
    } else {
        lh_json_begin_object(j, "storm");
        lh_json_string(j, "reason", t->storm_reason);
        if (strcmp(t->storm_reason, "growth") == 0) {
            lh_json_u64(j, "iterations", t->storm_iterations);
            lh_json_u64(j, "start_live", t->storm_start_live);
        } else {
            lh_json_u64(j, "fires_in_a_row", t->storm_fires);
        }
        lh_json_end_object(j);
    }
    lh_json_bool(j, "freed_during_dispatch", t->freed_during_dispatch);
    lh_json_end_object(j);
}

static void cause_frames_json(lh_json *j, const lh_report_cause *c, const char *key, size_t first, size_t count) {
    lh_json_begin_array(j, key);
    for (size_t i = 0; i < count; i++) frame_json_in(j, c->modules, NULL, &c->frames[first + i]);
    lh_json_end_array(j);
}

static void cause_json(lh_json *j, const lh_report_cause *c) {
    lh_json_begin_object(j, "cause");
    lh_json_string(j, "kind", c->kind);
    lh_json_string(j, "entry", c->entry);
    lh_json_begin_object(j, "widget");
    lh_json_hex(j, "address", c->widget_address);
    lh_json_string(j, "type", c->widget_type);
    lh_json_string(j, "name", c->widget_name);
    lh_json_string(j, "path", c->widget_path);
    lh_json_end_object(j);
    cause_frames_json(j, c, "request_stack", c->request_first, c->request_count);
    if (c->script_language != NULL && c->script_count > 0) {
        lh_json_begin_object(j, "request_script");
        lh_json_string(j, "language", c->script_language);
        lh_json_begin_array(j, "frames");
        for (size_t i = 0; i < c->script_count; i++) {
            lh_json_begin_object(j, NULL);
            lh_json_string(j, "function", c->script[i].function);
            lh_json_string(j, "file", c->script[i].file);
            if (c->script[i].line > 0) {
                lh_json_u64(j, "line", c->script[i].line);
            } else {
                lh_json_null(j, "line");
            }
            lh_json_end_object(j);
        }
        lh_json_end_array(j);
        lh_json_end_object(j);
    }
    lh_json_begin_array(j, "added_by");
    for (size_t i = 0; i < c->link_count; i++) {
        const lh_report_cause_link *l = &c->links[i];
        lh_json_begin_object(j, NULL);
        lh_json_string(j, "kind", l->kind);
        lh_json_string(j, "added_with", l->added_with);
        if (l->has_callback) {
            frame_json_in(j, c->modules, "callback", &c->frames[l->callback]);
        } else {
            lh_json_null(j, "callback");
        }
        cause_frames_json(j, c, "stack", l->stack_first, l->stack_count);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_bool(j, "chain_truncated", c->chain_truncated);
    if (c->began_in != NULL) lh_json_string(j, "began_in", c->began_in);
    lh_json_end_object(j);
}

static void history_json(lh_json *j, const lh_report_data *r) {
    lh_json_string(j, "history_unit", r->history_unit != NULL ? r->history_unit : "iteration");
    lh_json_begin_array(j, "history");
    for (size_t i = 0; i < r->history_count; i++) {
        const lh_hist *h = &r->history[i];
        lh_json_begin_object(j, NULL);
        lh_json_u64(j, "iteration", h->iteration);
        size_object(j, "object_size", r->object_sizes != NULL ? r->object_sizes[i] : LH_GEOMETRY_NONE);
        lh_json_u64(j, "start_us", h->start_us);
        lh_json_u64(j, "busy_us", h->busy_us);
        lh_json_u64(j, "layout_calls", h->layout_calls);
        if (h->wait_ms == -2) {
            lh_json_null(j, "wait_ms");
        } else {
            lh_json_i64(j, "wait_ms", h->wait_ms);
        }
        if (r->alloc != NULL) {
            lh_json_u64(j, "alloc_calls", h->alloc_calls);
            lh_json_u64(j, "alloc_bytes", h->alloc_bytes);
            lh_json_u64(j, "freed_bytes", h->freed_bytes);
        } else {
            lh_json_null(j, "alloc_calls");
            lh_json_null(j, "alloc_bytes");
            lh_json_null(j, "freed_bytes");
        }
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
}

static void alloc_json(lh_json *j, const lh_report_alloc *a) {
    if (a == NULL) {
        lh_json_null(j, "alloc");
        return;
    }
    lh_json_begin_object(j, "alloc");
    lh_json_u64(j, "iteration_calls", a->iteration_calls);
    lh_json_u64(j, "iteration_bytes", a->iteration_bytes);
    lh_json_u64(j, "iteration_freed_bytes", a->iteration_freed_bytes);
    lh_json_u64(j, "live_bytes", a->live_bytes);
    if (a->has_object) {
        lh_json_begin_object(j, "object");
        lh_json_u64(j, "bytes", a->object_bytes);
        lh_json_u64(j, "calls", a->object_calls);
        lh_json_u64(j, "layouts", a->object_layouts);
        lh_json_end_object(j);
    } else {
        lh_json_null(j, "object");
    }
    if (a->growth_iterations != 0) {
        lh_json_begin_object(j, "growth");
        lh_json_u64(j, "iterations", a->growth_iterations);
        lh_json_u64(j, "start_live_bytes", a->growth_start_live_bytes);
        lh_json_end_object(j);
    } else {
        lh_json_null(j, "growth");
    }
    lh_json_begin_array(j, "top_allocators");
    for (size_t i = 0; i < a->top_count; i++) {
        const lh_report_allocator *t = &a->top[i];
        lh_json_begin_object(j, NULL);
        lh_json_hex(j, "address", t->address);
        lh_json_string(j, "type", t->type);
        lh_json_string(j, "name", t->name[0] != '\0' ? t->name : NULL);
        lh_json_string(j, "hook", t->hook);
        lh_json_u64(j, "bytes", t->bytes);
        lh_json_u64(j, "calls", t->calls);
        lh_json_u64(j, "layouts", t->layouts);
        lh_json_end_object(j);
    }
    lh_json_end_array(j);
    lh_json_end_object(j);
}

bool lh_report_compose(lh_buf *out, const lh_report_data *r) {
    lh_json j;
    lh_json_init(&j, out);
    char time_mem[40];
    lh_buf time_text;
    lh_buf_init(&time_text, time_mem, sizeof time_mem);
    lh_format_time(&time_text, r->wall_ns);
    char fp_mem[20];
    lh_buf fp;
    lh_buf_init(&fp, fp_mem, sizeof fp_mem);
    lh_buf_hex(&fp, r->fingerprint, 16);

    lh_json_begin_object(&j, NULL);
    lh_json_string(&j, "schema", "loophunter/report");
    lh_json_string(&j, "version", LH_SCHEMA_VERSION);
    lh_json_string(&j, "kind", r->kind < LH_KIND_COUNT ? lh_kind_names[r->kind] : NULL);
    lh_json_string(&j, "id", r->id);
    lh_json_string(&j, "time", time_text.data);
    lh_json_u64(&j, "time_ns", r->wall_ns);
    lh_json_string(&j, "fingerprint", fp.data);

    lh_json_begin_object(&j, "process");
    lh_json_i64(&j, "pid", r->pid);
    lh_json_i64(&j, "ppid", r->ppid);
    lh_json_string(&j, "executable", r->executable);
    lh_json_end_object(&j);

    lh_json_begin_object(&j, "thread");
    lh_json_i64(&j, "tid", r->tid);
    lh_json_string(&j, "name", r->thread_name);
    lh_json_u64(&j, "iteration", r->iteration);
    lh_json_u64(&j, "layout_iteration", r->layout_iteration);
    if (r->frame != 0) {
        lh_json_u64(&j, "frame", r->frame);
    } else {
        lh_json_null(&j, "frame");
    }
    lh_json_end_object(&j);

    lh_json_begin_object(&j, "hook");
    lh_json_string(&j, "name", r->hook);
    lh_json_string(&j, "family", r->family);
    lh_json_string(&j, "toolkit", r->toolkit);
    lh_json_end_object(&j);

    object_json(&j, r->object);

    lh_json_u64(&j, "count", r->count);
    lh_json_u64(&j, "threshold", r->threshold);
    lh_json_string(&j, "count_unit", r->count_unit);
    if (r->kind == LH_KIND_LAYOUT_STREAK) {
        lh_json_begin_object(&j, "streak");
        lh_json_u64(&j, "last_iteration_layouts", r->last_iteration_layouts);
        size_object(&j, "size_before", r->size_before);
        size_object(&j, "size_after", r->size_after);
        lh_json_u64(&j, "gap_ms", r->streak_gap_ms);
        lh_json_end_object(&j);
    }

    if (r->warning != NULL) {
        lh_json_begin_object(&j, "warning");
        lh_json_string(&j, "domain", r->warning->domain);
        lh_json_string(&j, "level", r->warning->level);
        lh_json_string(&j, "message", r->warning->message);
        lh_json_string(&j, "format", r->warning->format);
        lh_json_string(&j, "object_source", r->warning->object_source);
        lh_json_end_object(&j);
    }

    if (r->stall != NULL) stall_json(&j, r->stall);
    if (r->window != NULL) window_json(&j, r, r->window);
    if (r->timer != NULL) timer_json(&j, r, r->timer);
    if (r->cause != NULL) cause_json(&j, r->cause);
    alloc_json(&j, r->alloc);

    lh_json_begin_array(&j, "loop_members");
    for (size_t i = 0; i < r->member_count; i++) {
        const lh_report_member *m = &r->members[i];
        lh_json_begin_object(&j, NULL);
        lh_json_hex(&j, "address", m->address);
        lh_json_string(&j, "type", m->type);
        lh_json_string(&j, "name", m->name[0] != '\0' ? m->name : NULL);
        lh_json_string(&j, "hook", m->hook);
        lh_json_u64(&j, "count", m->count);
        lh_json_end_object(&j);
    }
    lh_json_end_array(&j);

    history_json(&j, r);
    frames_json(&j, r, "frames", 0, r->frame_count);
    lh_json_bool(&j, "frames_truncated", r->frames_truncated);
    if (r->created_count != 0 || (r->timer != NULL && r->kind == LH_KIND_TIMER_OUTLIVES_TARGET))
        frames_json(&j, r, "created_frames", r->created_first, r->created_count);
    lh_json_end_object(&j);
    return !out->overflow;
}

/* FNV-1a, 64 bit. */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s) {
    h = fnv(h, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
    return fnv(h, "\0", 1);
}

uint64_t lh_report_fingerprint(lh_kind kind, const char *hook, const char *type, const char *extra,
                               const lh_frame *frames, size_t frame_count, const lh_module *modules,
                               size_t depth) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    h = fnv_str(h, kind < LH_KIND_COUNT ? lh_kind_names[kind] : "");
    h = fnv_str(h, hook);
    h = fnv_str(h, type);
    if (extra != NULL) h = fnv_str(h, extra);
    for (size_t i = 0; i < frame_count && i < depth; i++) {
        const lh_frame *f = &frames[i];
        if (f->module >= 0 && modules[f->module].path != NULL) {
            const char *path = modules[f->module].path;
            const char *slash = strrchr(path, '/');
            h = fnv_str(h, slash != NULL ? slash + 1 : path);
            uint64_t off = f->offset;
            h = fnv(h, &off, sizeof off);
        } else {
            uint64_t pc = f->pc;
            h = fnv(h, &pc, sizeof pc);
        }
    }
    return h;
}
