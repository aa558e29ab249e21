/* late_gtk.c — GTK 3 that arrives late: a program linked only against libc (and libdl) that
 * dlopen()s libgtk-3.so.0 with RTLD_NOW | RTLD_LOCAL after main has started, and reaches every
 * GTK / GLib / GObject / Pango function through dlsym() on that handle or on handles of
 * libgobject-2.0.so.0, libglib-2.0.so.0 and libpango-1.0.so.0 (already loaded as GTK's
 * dependencies; opened with RTLD_NOLOAD | RTLD_LOCAL), except g_idle_add, looked up in the global
 * scope first as a program linked with GLib would bind it. No GTK symbol is in the global scope.
 *
 *   cc -O2 -g -Wall late_gtk.c -ldl -o lh-late-gtk
 *   xvfb-run -a ./lh-late-gtk            the loop
 *   xvfb-run -a ./lh-late-gtk healthy    no loop
 *
 * Widgets: window "main-window" (GtkWindow) > box "toolbar" (GtkBox) > label "status" (GtkLabel).
 *
 * Loop (default): a "size-allocate" handler on the label (g_signal_connect_data) schedules an idle
 * (g_idle_add) that sets the label's text from its allocated width: the short text when it was
 * given room for the long one, the long text when it was narrow. The label has halign=START, so its
 * allocated width is the natural width of its current text: wide -> short -> narrow -> long -> ...
 * Its size changes in every frame until the program exits (the same bug as gtk3-idle-loop).
 *
 * healthy: the label's text is set from a 100 ms timer, its width changing on every tick (a
 * blinking "REC " marker); the "size-allocate" handler only records the width. No loop.
 *
 * Exits by itself after LH_RUN_SECONDS (default 3) with status 0 and prints one line on stdout:
 * "lh-late-gtk: done".
 * LH_STATS=1: at exit, one line on stderr: frames (the window's frame clock "after-paint"), status
 * allocations, allocations whose width differs from the previous one, texts set (idle or timer).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few GLib / GTK types this program needs, spelled out (no GTK headers). */
typedef int gboolean;
typedef unsigned int guint;
typedef void *gpointer;
typedef gboolean (*GSourceFunc)(gpointer data);
typedef struct {
  int x, y, width, height;
} GtkAllocation;
enum { GTK_WINDOW_TOPLEVEL = 0, GTK_ORIENTATION_HORIZONTAL = 0, GTK_ALIGN_START = 1 };
#define G_SOURCE_REMOVE 0
#define G_SOURCE_CONTINUE 1

#define SHORT_TEXT "3 files"
#define LONG_TEXT "Synchronising 3 files with the server..."
#define NAME "lh-late-gtk"

/* Every function reached through dlsym. */
static struct {
  void (*gtk_init)(int *argc, char ***argv);
  void *(*gtk_window_new)(int type);
  void (*gtk_window_set_title)(void *window, const char *title);
  void (*gtk_window_set_default_size)(void *window, int width, int height);
  void *(*gtk_box_new)(int orientation, int spacing);
  void (*gtk_box_pack_start)(void *box, void *child, gboolean expand, gboolean fill, guint pad);
  void *(*gtk_label_new)(const char *text);
  void (*gtk_label_set_text)(void *label, const char *text);
  const char *(*gtk_label_get_text)(void *label);
  void (*gtk_label_set_xalign)(void *label, float xalign);
  void (*gtk_container_add)(void *container, void *child);
  void (*gtk_widget_set_name)(void *widget, const char *name);
  void (*gtk_widget_set_halign)(void *widget, int align);
  void (*gtk_widget_show_all)(void *widget);
  void (*gtk_widget_destroy)(void *widget);
  void *(*gtk_widget_create_pango_layout)(void *widget, const char *text);
  void *(*gtk_widget_get_frame_clock)(void *widget);
  void (*gtk_main)(void);
  void (*gtk_main_quit)(void);
  gboolean (*gtk_events_pending)(void);
  gboolean (*gtk_main_iteration_do)(gboolean blocking);
  unsigned long (*g_signal_connect_data)(void *instance, const char *signal, void (*handler)(void),
                                         void *data, void (*destroy)(void *, void *), int flags);
  void (*g_object_unref)(void *object);
  guint (*g_idle_add)(GSourceFunc func, gpointer data);
  guint (*g_timeout_add)(guint ms, GSourceFunc func, gpointer data);
  gboolean (*g_source_remove)(guint id);
  void (*pango_layout_get_pixel_size)(void *layout, int *width, int *height);
} f;

static void *gtk, *gobject, *glib, *pango;

static void die(const char *what, const char *detail) {
  fprintf(stderr, NAME ": %s: %s\n", what, detail ? detail : "(null)");
  exit(1);
}

static void *sym(void *handle, const char *name) {
  dlerror();
  void *p = dlsym(handle, name);
  if (p == NULL) die("dlsym", dlerror());
  return p;
}

#define GTK_SYM(n) (*(void **)&f.n = sym(gtk, #n))
#define GOBJECT_SYM(n) (*(void **)&f.n = sym(gobject, #n))
#define GLIB_SYM(n) (*(void **)&f.n = sym(glib, #n))
#define PANGO_SYM(n) (*(void **)&f.n = sym(pango, #n))

static void load_gtk(void) {
  gtk = dlopen("libgtk-3.so.0", RTLD_NOW | RTLD_LOCAL);
  if (gtk == NULL) die("dlopen libgtk-3.so.0", dlerror());
  gobject = dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
  if (gobject == NULL) die("dlopen libgobject-2.0.so.0 (RTLD_NOLOAD)", dlerror());
  glib = dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
  if (glib == NULL) die("dlopen libglib-2.0.so.0 (RTLD_NOLOAD)", dlerror());
  pango = dlopen("libpango-1.0.so.0", RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
  if (pango == NULL) die("dlopen libpango-1.0.so.0 (RTLD_NOLOAD)", dlerror());

  GTK_SYM(gtk_init);
  GTK_SYM(gtk_window_new);
  GTK_SYM(gtk_window_set_title);
  GTK_SYM(gtk_window_set_default_size);
  GTK_SYM(gtk_box_new);
  GTK_SYM(gtk_box_pack_start);
  GTK_SYM(gtk_label_new);
  GTK_SYM(gtk_label_set_text);
  GTK_SYM(gtk_label_get_text);
  GTK_SYM(gtk_label_set_xalign);
  GTK_SYM(gtk_container_add);
  GTK_SYM(gtk_widget_set_name);
  GTK_SYM(gtk_widget_set_halign);
  GTK_SYM(gtk_widget_show_all);
  GTK_SYM(gtk_widget_destroy);
  GTK_SYM(gtk_widget_create_pango_layout);
  GTK_SYM(gtk_widget_get_frame_clock);
  GTK_SYM(gtk_main);
  GTK_SYM(gtk_main_quit);
  GTK_SYM(gtk_events_pending);
  GTK_SYM(gtk_main_iteration_do);
  GOBJECT_SYM(g_signal_connect_data);
  GOBJECT_SYM(g_object_unref);
  /* g_idle_add as a program linked with GLib binds it through its PLT: the global scope first (an
   * interposer there, such as LoopHunter, which follows a source's cause from layout through it),
   * else GLib's own. A source added through dlsym on GLib's RTLD_LOCAL handle is invisible to an
   * interposer (docs/causes.md). */
  *(void **)&f.g_idle_add = dlsym(RTLD_DEFAULT, "g_idle_add");
  if (f.g_idle_add == NULL) GLIB_SYM(g_idle_add);
  GLIB_SYM(g_timeout_add);
  GLIB_SYM(g_source_remove);
  PANGO_SYM(pango_layout_get_pixel_size);
}

static void *status;
static int threshold;            /* pixel width between the two texts' widths */
static const char *pending_text; /* the text the idle will set */
static guint idle_id, tick_id;
static unsigned ticks;
static unsigned long frames, allocs, width_changes, texts_set;
static int last_width = -1;

static void count_alloc(int width) {
  allocs++;
  if (last_width >= 0 && width != last_width) width_changes++;
  last_width = width;
}

static void on_after_paint(void *clock, void *data) {
  (void)clock;
  (void)data;
  frames++;
}

static int text_width(void *label, const char *text) {
  void *layout = f.gtk_widget_create_pango_layout(label, text);
  int w = 0, h = 0;
  f.pango_layout_get_pixel_size(layout, &w, &h);
  f.g_object_unref(layout);
  return w;
}

static gboolean apply_text(gpointer label) {
  idle_id = 0;
  texts_set++;
  f.gtk_label_set_text(label, pending_text); /* queues a resize for the next frame */
  return G_SOURCE_REMOVE;
}

/* Loop: "size-allocate" feeds the allocated width back into the text, through an idle. */
static void on_size_allocate_loop(void *label, GtkAllocation *allocation, void *data) {
  (void)data;
  count_alloc(allocation->width);
  const char *want = allocation->width >= threshold ? SHORT_TEXT : LONG_TEXT;
  if (strcmp(f.gtk_label_get_text(label), want) == 0) return;
  pending_text = want;
  if (!idle_id) idle_id = f.g_idle_add(apply_text, label);
}

/* Healthy: "size-allocate" only looks. */
static void on_size_allocate_healthy(void *label, GtkAllocation *allocation, void *data) {
  (void)label;
  (void)data;
  count_alloc(allocation->width);
}

static gboolean tick(gpointer label) {
  char text[32];
  ticks++;
  /* elapsed time with a blinking "REC" marker: every tick changes the label's width */
  snprintf(text, sizeof text, "%s%u:%02u.%u", ticks % 2 ? "REC " : "", ticks / 600,
           ticks / 10 % 60, ticks % 10);
  texts_set++;
  f.gtk_label_set_text(label, text);
  return G_SOURCE_CONTINUE;
}

static gboolean stop(gpointer data) {
  (void)data;
  f.gtk_main_quit();
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  int healthy = argc > 1 && strcmp(argv[1], "healthy") == 0;
  if (argc > 2 || (argc == 2 && !healthy)) {
    fprintf(stderr, "usage: %s [healthy]\n", argv[0]);
    return 2;
  }
  const char *stats_env = getenv("LH_STATS");
  int stats = stats_env != NULL && *stats_env != '\0' && strcmp(stats_env, "0") != 0;
  double seconds = 3.0;
  const char *env = getenv("LH_RUN_SECONDS");
  if (env != NULL && *env != '\0') {
    char *end;
    double s = strtod(env, &end);
    if (*end == '\0' && s > 0) seconds = s;
  }

  load_gtk(); /* GTK arrives here, after main has started */
  f.gtk_init(&argc, &argv);

  void *window = f.gtk_window_new(GTK_WINDOW_TOPLEVEL);
  f.gtk_widget_set_name(window, "main-window");
  f.gtk_window_set_title(window, NAME);
  f.gtk_window_set_default_size(window, 420, 60);
  void *toolbar = f.gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  f.gtk_widget_set_name(toolbar, "toolbar");
  status = f.gtk_label_new(healthy ? "0:00.0" : LONG_TEXT);
  f.gtk_widget_set_name(status, "status");
  f.gtk_widget_set_halign(status, GTK_ALIGN_START);
  f.gtk_label_set_xalign(status, 0.0f);
  threshold = (text_width(status, SHORT_TEXT) + text_width(status, LONG_TEXT)) / 2;
  f.g_signal_connect_data(status, "size-allocate",
                          healthy ? (void (*)(void))on_size_allocate_healthy
                                  : (void (*)(void))on_size_allocate_loop,
                          NULL, NULL, 0);

  f.gtk_box_pack_start(toolbar, status, 0, 0, 0);
  f.gtk_container_add(window, toolbar);
  f.gtk_widget_show_all(window);
  if (stats)
    f.g_signal_connect_data(f.gtk_widget_get_frame_clock(window), "after-paint",
                            (void (*)(void))on_after_paint, NULL, NULL, 0);

  if (healthy) tick_id = f.g_timeout_add(100, tick, status);
  f.g_timeout_add((guint)(seconds * 1000 + 0.5), stop, NULL);
  f.gtk_main();

  if (idle_id) f.g_source_remove(idle_id);
  if (tick_id) f.g_source_remove(tick_id);
  f.gtk_widget_destroy(window);
  while (f.gtk_events_pending()) f.gtk_main_iteration_do(0);
  if (stats)
    fprintf(stderr, NAME ": %s frames=%lu status_allocations=%lu width_changes=%lu texts_set=%lu\n",
            healthy ? "healthy" : "loop", frames, allocs, width_changes, texts_set);
  printf(NAME ": done\n");
  fflush(stdout);
  /* GTK stays loaded: unloading it is not supported. */
  return 0;
}
