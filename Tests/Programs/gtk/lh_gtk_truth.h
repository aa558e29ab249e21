/* lh_gtk_truth.h — ground truth for LoopHunter's GTK test programs, independent of LoopHunter.
 *
 * Included by exactly one .c file per program (everything here is static); works for GTK 3 and
 * GTK 4 (picked by GTK_MAJOR_VERSION). May not: write to stdout, depend on timing for what it
 * writes to LH_GROUND_TRUTH (counts are what they are; only the LH_DEBUG_FRAMES summary on stderr
 * is about frames), or patch any class it did not register itself.
 *
 * How it counts (the honest way, no interposition): a named widget is an instance of a small
 * subclass registered here at run time (lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel")) whose layout
 * vfuncs increment a counter and chain up to the parent class. G_DEFINE_TYPE is not usable for most
 * GTK 4 widgets (GtkLabel, GtkSpinner, ... have no public instance struct), so the subclass is
 * registered with g_type_register_static() and the parent's class/instance sizes from
 * g_type_query(); that is exactly what G_DEFINE_TYPE expands to.
 *   - GTK 3: size_allocate, and measure = the five get_preferred_* vfuncs (get_preferred_width,
 *     get_preferred_height, get_preferred_width_for_height, get_preferred_height_for_width,
 *     get_preferred_height_and_baseline_for_width); a NULL slot of the parent stays NULL.
 *   - GTK 4: size_allocate and measure; and because GTK 4.8's gtk_widget_allocate()/measure
 *     dispatch to the widget's GtkLayoutManager *instead of* the widget vfuncs when it has one
 *     (GtkBox, GtkProgressBar, ...), the subclass also gets a counting subclass of its parent's
 *     layout-manager type (gtk_widget_class_set_layout_manager_type), whose allocate/measure count
 *     against the widget they are given.
 * A count is one *outer* call per widget and group: GTK 3's default get_preferred_* of one widget
 * call each other through the class (e.g. ..._height_and_baseline_for_width → ..._height_for_width),
 * and those nested calls on the same widget are not counted again (the same rule LoopHunter uses).
 *
 * Output:
 *   LH_GROUND_TRUTH=/path   at lh_truth_finish(): one line per counted widget, in creation order:
 *                           "<widget-name> <GType name> size_allocate=<n> measure=<n> address=<p>"
 *   LH_DEBUG_FRAMES=1       at lh_truth_finish(), on stderr: per widget, allocations per frame
 *                           (frame = one GdkFrameClock "after-paint"), size changes per frame.
 *   LH_DEBUG_FRAMES=2       as 1, plus one stderr line per frame.
 *   LH_RUN_MS=<ms>          run this long instead of the program's default.
 *   LH_RUN_FRAMES=<n>       run exactly n frames instead (the benchmarks: the same work in every
 *                           run, however fast the program is under the preload or without it).
 */
#ifndef LH_GTK_TRUTH_H
#define LH_GTK_TRUTH_H

#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LH_MAX_COUNTED 64
#define LH_HIST 6 /* allocations per frame: 0,1,2,3,4,5+ */

typedef void (*LhAllocHook)(GtkWidget *widget, int width, int height, gpointer data);

typedef struct {
  GtkWidget *widget; /* not owned */
  char name[64];
  char type_name[64];
  unsigned long allocs, measures;          /* outer calls, whole run */
  int alloc_depth, measure_depth;          /* nesting guard (GTK is single-threaded here) */
  LhAllocHook hook;                        /* the program's own code, run after chaining up */
  gpointer hook_data;
  /* per-frame bookkeeping (LH_DEBUG_FRAMES) */
  unsigned frame_allocs, frame_measures;
  int w, h, have_size;                     /* last allocated size */
  int frame_w, frame_h, have_frame_size;   /* size at the end of the last frame that allocated */
  int prev_frame_changed;                  /* the previous frame changed its size */
  unsigned long hist[LH_HIST], max_per_frame, frames_measured, measures_max_per_frame;
  unsigned long size_change_frames, consecutive_changes, run, max_run, unchanged_alloc_frames;
  unsigned long alloc_size_changes;        /* allocations whose size differs from the previous one */
} LhCounted;

static LhCounted lh_counted[LH_MAX_COUNTED];
static int lh_ncounted;
static GQuark lh_quark;
static unsigned long lh_frames;
static int lh_debug_frames = -1;
static gint64 lh_first_frame_us, lh_last_frame_us;

static unsigned long lh_stop_frames;   /* LH_RUN_FRAMES: stop after this many frames */
static GSourceFunc lh_stop_func;
static gpointer lh_stop_data;

/* Ends the program's run: after LH_RUN_FRAMES frames when set (counted by lh_truth_watch_frames,
 * which the program must call), else after LH_RUN_MS milliseconds, else after `default_ms`. */
G_GNUC_UNUSED static void lh_truth_stop_after(int default_ms, GSourceFunc stop, gpointer data) {
  const char *frames = getenv("LH_RUN_FRAMES");
  if (frames != NULL && atol(frames) > 0) {
    lh_stop_frames = (unsigned long)atol(frames);
    lh_stop_func = stop;
    lh_stop_data = data;
    return;
  }
  const char *ms = getenv("LH_RUN_MS");
  g_timeout_add(ms != NULL && atoi(ms) > 0 ? (guint)atoi(ms) : (guint)default_ms, stop, data);
}

static LhCounted *lh_counted_of(gpointer widget) {
  return lh_quark ? g_object_get_qdata(G_OBJECT(widget), lh_quark) : NULL;
}

static void lh_note_alloc(LhCounted *c, int width, int height) {
  if (c->have_size && (width != c->w || height != c->h)) c->alloc_size_changes++;
  c->allocs++;
  c->frame_allocs++;
  c->w = width;
  c->h = height;
  c->have_size = 1;
}

static void lh_alloc_enter(gpointer widget, int width, int height) {
  LhCounted *c = lh_counted_of(widget);
  if (c && c->alloc_depth++ == 0) lh_note_alloc(c, width, height);
}
static void lh_alloc_leave(gpointer widget, int width, int height) {
  LhCounted *c = lh_counted_of(widget);
  if (!c) return;
  if (--c->alloc_depth == 0 && c->hook) c->hook(GTK_WIDGET(widget), width, height, c->hook_data);
}
static void lh_measure_enter(gpointer widget) {
  LhCounted *c = lh_counted_of(widget);
  if (c && c->measure_depth++ == 0) {
    c->measures++;
    c->frame_measures++;
  }
}
static void lh_measure_leave(gpointer widget) {
  LhCounted *c = lh_counted_of(widget);
  if (c) c->measure_depth--;
}

/* The class that a counted subclass chains up to: the parent of the first counted type at or
 * above the instance's type (instances may be of a program-defined subclass of a counted type). */
static gpointer lh_parent_class_of(gpointer instance) {
  GType t = G_TYPE_FROM_INSTANCE(instance);
  while (t && g_type_get_qdata(t, lh_quark) == NULL) t = g_type_parent(t);
  return g_type_class_peek(g_type_parent(t));
}

#if GTK_MAJOR_VERSION >= 4

static void lh_size_allocate(GtkWidget *w, int width, int height, int baseline) {
  GtkWidgetClass *pk = lh_parent_class_of(w);
  lh_alloc_enter(w, width, height);
  if (pk->size_allocate) pk->size_allocate(w, width, height, baseline);
  lh_alloc_leave(w, width, height);
}
static void lh_measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat,
                       int *min_bl, int *nat_bl) {
  GtkWidgetClass *pk = lh_parent_class_of(w);
  lh_measure_enter(w);
  pk->measure(w, o, for_size, min, nat, min_bl, nat_bl);
  lh_measure_leave(w);
}

/* Layout-manager side: the managers are instances of exactly the Lh* type registered below. */
static void lh_lm_measure(GtkLayoutManager *m, GtkWidget *w, GtkOrientation o, int for_size,
                          int *min, int *nat, int *min_bl, int *nat_bl) {
  GtkLayoutManagerClass *pk = g_type_class_peek(g_type_parent(G_TYPE_FROM_INSTANCE(m)));
  lh_measure_enter(w);
  pk->measure(m, w, o, for_size, min, nat, min_bl, nat_bl);
  lh_measure_leave(w);
}
static void lh_lm_allocate(GtkLayoutManager *m, GtkWidget *w, int width, int height, int baseline) {
  GtkLayoutManagerClass *pk = g_type_class_peek(g_type_parent(G_TYPE_FROM_INSTANCE(m)));
  lh_alloc_enter(w, width, height);
  pk->allocate(m, w, width, height, baseline);
  lh_alloc_leave(w, width, height);
}
static void lh_lm_class_init(gpointer klass, gpointer data) {
  GtkLayoutManagerClass *lk = klass;
  (void)data;
  if (lk->measure) lk->measure = lh_lm_measure;
  if (lk->allocate) lk->allocate = lh_lm_allocate;
}
static GType lh_layout_subclass(GType parent) {
  char name[128];
  snprintf(name, sizeof name, "Lh%s", g_type_name(parent));
  GType t = g_type_from_name(name);
  if (t) return t;
  g_type_class_unref(g_type_class_ref(parent));
  GTypeQuery q;
  g_type_query(parent, &q);
  GTypeInfo info = {.class_size = q.class_size, .class_init = lh_lm_class_init,
                    .instance_size = q.instance_size};
  return g_type_register_static(parent, name, &info, 0);
}

static void lh_widget_class_init(gpointer klass, gpointer data) {
  GtkWidgetClass *wk = klass;
  (void)data;
  if (wk->size_allocate) wk->size_allocate = lh_size_allocate;
  if (wk->measure) wk->measure = lh_measure;
  GType lm = gtk_widget_class_get_layout_manager_type(wk);
  if (lm) gtk_widget_class_set_layout_manager_type(wk, lh_layout_subclass(lm));
}

#else /* GTK 3 */

static void lh_size_allocate(GtkWidget *w, GtkAllocation *a) {
  GtkWidgetClass *pk = lh_parent_class_of(w);
  int width = a->width, height = a->height;
  lh_alloc_enter(w, width, height);
  pk->size_allocate(w, a);
  lh_alloc_leave(w, width, height);
}
#define LH_GTK3_MEASURE(slot, params, args)                                                        \
  static void lh_##slot params {                                                                   \
    GtkWidgetClass *pk = lh_parent_class_of(w);                                                 \
    lh_measure_enter(w);                                                                           \
    pk->slot args;                                                                                 \
    lh_measure_leave(w);                                                                           \
  }
LH_GTK3_MEASURE(get_preferred_width, (GtkWidget * w, gint *min, gint *nat), (w, min, nat))
LH_GTK3_MEASURE(get_preferred_height, (GtkWidget * w, gint *min, gint *nat), (w, min, nat))
LH_GTK3_MEASURE(get_preferred_width_for_height, (GtkWidget * w, gint h, gint *min, gint *nat),
                (w, h, min, nat))
LH_GTK3_MEASURE(get_preferred_height_for_width, (GtkWidget * w, gint wd, gint *min, gint *nat),
                (w, wd, min, nat))
LH_GTK3_MEASURE(get_preferred_height_and_baseline_for_width,
                (GtkWidget * w, gint wd, gint *min, gint *nat, gint *min_bl, gint *nat_bl),
                (w, wd, min, nat, min_bl, nat_bl))

static void lh_widget_class_init(gpointer klass, gpointer data) {
  GtkWidgetClass *wk = klass;
  (void)data;
#define LH_SET(slot) if (wk->slot) wk->slot = lh_##slot
  LH_SET(size_allocate);
  LH_SET(get_preferred_width);
  LH_SET(get_preferred_height);
  LH_SET(get_preferred_width_for_height);
  LH_SET(get_preferred_height_for_width);
  LH_SET(get_preferred_height_and_baseline_for_width);
#undef LH_SET
}

#endif

/* Registers (once) "type_name", a counting subclass of parent. */
static GType lh_truth_subclass(GType parent, const char *type_name) {
  if (!lh_quark) lh_quark = g_quark_from_static_string("lh-truth-counted");
  GType t = g_type_from_name(type_name);
  if (t) return t;
  g_type_class_unref(g_type_class_ref(parent));
  GTypeQuery q;
  g_type_query(parent, &q);
  GTypeInfo info = {.class_size = q.class_size, .class_init = lh_widget_class_init,
                    .instance_size = q.instance_size};
  t = g_type_register_static(parent, type_name, &info, 0);
  g_type_set_qdata(t, lh_quark, GINT_TO_POINTER(1));
  return t;
}

/* Creates a counted widget of a type from lh_truth_subclass(), named name (gtk_widget_set_name).
 * Properties as for g_object_new, NULL-terminated. */
static GtkWidget *lh_truth_new(GType type, const char *name, const char *first_property, ...) {
  if (lh_ncounted == LH_MAX_COUNTED) {
    fprintf(stderr, "lh-truth: more than %d counted widgets\n", LH_MAX_COUNTED);
    exit(2);
  }
  va_list ap;
  va_start(ap, first_property);
  GtkWidget *w = GTK_WIDGET(g_object_new_valist(type, first_property, ap));
  va_end(ap);
  LhCounted *c = &lh_counted[lh_ncounted++];
  c->widget = w;
  g_strlcpy(c->name, name, sizeof c->name);
  g_strlcpy(c->type_name, G_OBJECT_TYPE_NAME(w), sizeof c->type_name);
  gtk_widget_set_name(w, name);
  g_object_set_qdata(G_OBJECT(w), lh_quark, c);
#if GTK_MAJOR_VERSION >= 4
  GtkLayoutManager *lm = gtk_widget_get_layout_manager(w);
  if (lm && g_type_get_qdata(G_TYPE_FROM_INSTANCE(w), lh_quark) &&
      strncmp(G_OBJECT_TYPE_NAME(lm), "Lh", 2) != 0)
    fprintf(stderr, "lh-truth: %s's layout manager %s is not counted\n", name,
            G_OBJECT_TYPE_NAME(lm));
#endif
  return w;
}

/* The program's own code to run inside the widget's size_allocate (after chaining up). */
G_GNUC_UNUSED static void lh_truth_set_alloc_hook(GtkWidget *w, LhAllocHook hook, gpointer data) {
  LhCounted *c = lh_counted_of(w);
  g_return_if_fail(c != NULL);
  c->hook = hook;
  c->hook_data = data;
}

static void lh_truth_after_paint(GdkFrameClock *clock, gpointer data) {
  (void)clock;
  (void)data;
  gint64 now = g_get_monotonic_time();
  if (lh_frames++ == 0) lh_first_frame_us = now;
  lh_last_frame_us = now;
  /* At G_PRIORITY_HIGH the stop runs before the next frame: a default-priority idle waits behind
   * a program that keeps asking for frames, so a slower run (under valgrind) would run more of them
   * and the benchmarks would compare unequal work. */
  if (lh_stop_func != NULL && lh_frames == lh_stop_frames)
    g_idle_add_full(G_PRIORITY_HIGH, lh_stop_func, lh_stop_data, NULL);
  for (int i = 0; i < lh_ncounted; i++) {
    LhCounted *c = &lh_counted[i];
    unsigned n = c->frame_allocs;
    c->hist[n < LH_HIST - 1 ? n : LH_HIST - 1]++;
    if (n > c->max_per_frame) c->max_per_frame = n;
    if (c->frame_measures) c->frames_measured++;
    if (c->frame_measures > c->measures_max_per_frame) c->measures_max_per_frame = c->frame_measures;
    int changed = 0;
    if (n > 0) {
      changed = c->have_frame_size && (c->w != c->frame_w || c->h != c->frame_h);
      if (c->have_frame_size && !changed) c->unchanged_alloc_frames++;
      c->frame_w = c->w;
      c->frame_h = c->h;
      c->have_frame_size = 1;
    }
    if (changed) {
      c->size_change_frames++;
      if (c->prev_frame_changed) c->consecutive_changes++;
      c->run = c->prev_frame_changed ? c->run + 1 : 1;
      if (c->run > c->max_run) c->max_run = c->run;
    }
    c->prev_frame_changed = changed;
    if (lh_debug_frames >= 2)
      fprintf(stderr, "lh-frame %lu %s allocs=%u measures=%u size=%dx%d%s\n", lh_frames, c->name,
              n, c->frame_measures, c->w, c->h, changed ? " changed" : "");
    c->frame_allocs = 0;
    c->frame_measures = 0;
  }
}

/* Starts per-frame bookkeeping on the toplevel's frame clock (call after it is shown). */
G_GNUC_UNUSED static void lh_truth_watch_frames(GtkWidget *toplevel) {
  if (lh_debug_frames < 0) {
    const char *e = getenv("LH_DEBUG_FRAMES");
    lh_debug_frames = e ? atoi(e) : 0;
  }
  GdkFrameClock *clock = gtk_widget_get_frame_clock(toplevel);
  if (!clock) {
    fprintf(stderr, "lh-truth: the toplevel has no frame clock (not realized?)\n");
    return;
  }
  g_signal_connect(clock, "after-paint", G_CALLBACK(lh_truth_after_paint), NULL);
}

/* Writes LH_GROUND_TRUTH (and the LH_DEBUG_FRAMES summary). Returns 0, or 1 if the file could not
 * be written. */
static int lh_truth_finish(void) {
  int rc = 0;
  const char *path = getenv("LH_GROUND_TRUTH");
  if (path && *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
      perror(path);
      rc = 1;
    } else {
      for (int i = 0; i < lh_ncounted; i++)
        fprintf(f, "%s %s size_allocate=%lu measure=%lu address=%p\n", lh_counted[i].name,
                lh_counted[i].type_name, lh_counted[i].allocs, lh_counted[i].measures,
                (void *)lh_counted[i].widget);
      if (fclose(f) != 0) {
        perror(path);
        rc = 1;
      }
    }
  }
  if (lh_debug_frames > 0) {
    double secs = lh_frames > 1 ? (lh_last_frame_us - lh_first_frame_us) / 1e6 : 0;
    fprintf(stderr, "lh-frames: frames=%lu over %.2fs (%.1f/s)\n", lh_frames, secs,
            secs > 0 ? (lh_frames - 1) / secs : 0);
    for (int i = 0; i < lh_ncounted; i++) {
      LhCounted *c = &lh_counted[i];
      fprintf(stderr,
              "lh-frames: %-12s %-14s allocs=%lu measures=%lu | allocs/frame 0:%lu 1:%lu 2:%lu 3:%lu "
              "4:%lu 5+:%lu max=%lu | size changed between allocations %lu times; frame to frame "
              "in %lu frames (same size in %lu), in consecutive frames %lu times, longest run %lu "
              "| measured in %lu frames, max %lu/frame\n",
              c->name, c->type_name, c->allocs, c->measures, c->hist[0], c->hist[1], c->hist[2],
              c->hist[3], c->hist[4], c->hist[5], c->max_per_frame, c->alloc_size_changes,
              c->size_change_frames,
              c->unchanged_alloc_frames, c->consecutive_changes, c->max_run, c->frames_measured,
              c->measures_max_per_frame);
    }
  }
  return rc;
}

#endif
