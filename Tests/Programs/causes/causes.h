/* causes.h — what every C program of the cause corpus (issue 18) shares; GTK 3 and GTK 4.
 *
 * Included by exactly one .c file per program (everything here is static), which is built twice by
 * scripts/build-cause-programs.sh (gtk3-NAME and gtk4-NAME). Nothing here changes what the program
 * lays out: the window helpers are the calls the program would make anyway, and the self-check only
 * listens to the frame clock.
 *
 *   cause_init(&argc, &argv, "ping-pong")  gtk_init; the program's name becomes "gtk3-ping-pong" or
 *                                          "gtk4-ping-pong" (g_set_prgname, the "done" line)
 *   cause_window_new(name, title, w, h)    a toplevel with that widget name; shown by cause_run and
 *                                          watched by the self-check (each toplevel has a frame
 *                                          clock of its own)
 *   cause_box_new, cause_box_append, cause_set_child, cause_scrolled_new
 *                                          one spelling for both GTKs
 *   cause_run()                            shows the windows, runs the main loop CAUSE_SECONDS
 *                                          (env, default 6; a decimal number) and quits by itself; prints
 *                                          "<prog>: done" on stdout and returns 0 (main's status)
 *   cause_elapsed()                        seconds since cause_run started
 *   cause_text_width(label, text)          the pixel width of text in the label's font
 *   CauseBin (GTK 4 only)                  a one-child widget of the app's own, whose size_allocate
 *                                          allocates the child and then calls an app function: what
 *                                          a GTK 3 program does with the "size-allocate" signal
 *                                          (GTK 4 has no such signal)
 *
 * CAUSE_SELFCHECK=1: at exit, one line per toplevel on stdout, counted from the frame clock itself
 * (independent of LoopHunter):
 *   selfcheck: window=NAME frames=F frames_with_layout=N layouts=L seconds=S per_second=a,b,c,...
 *              user_cpu=U
 * frames = "after-paint" emissions; a frame "with layout" is one in which the clock emitted
 * "layout" (its layout phase ran because something requested layout: GDK runs the phase only when
 * requested, up to 4 times a frame); layouts = "layout" emissions; per_second = frames with layout
 * in each whole second since cause_run started; user_cpu = the process's user CPU seconds
 * (getrusage). With CAUSE_SELFCHECK=2 also one stderr line per frame ("frame N layouts=K t=...")
 * and the program's own notes (cause_note: what it set, and why).
 */
#ifndef CAUSES_H
#define CAUSES_H

#include <gtk/gtk.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define CAUSE_MAX_WINDOWS 4
#define CAUSE_MAX_SECONDS 1800

typedef struct {
  GtkWidget *window;
  char name[64];
  GdkFrameClock *clock;
  unsigned long frames, frames_with_layout, layouts;
  unsigned frame_layouts; /* "layout" emissions in the frame under way */
  unsigned per_second[CAUSE_MAX_SECONDS];
} CauseWatch;

static char cause_prog[128];
static double cause_run_seconds = 6.0;
static int cause_selfcheck;
static CauseWatch cause_windows[CAUSE_MAX_WINDOWS];
static int cause_nwindows;
static gint64 cause_start_us;
static gboolean cause_done;

/* A frame marker for debuggers (scripts/causes/gdb-truth.py breaks here): called once per frame of
 * every watched window, whether or not the self-check is on. */
__attribute__((noinline)) void cause_frame_marker(int window_index) {
  __asm__ volatile("" ::"r"(window_index) : "memory");
}

G_GNUC_UNUSED static double cause_elapsed(void) {
  return cause_start_us ? (g_get_monotonic_time() - cause_start_us) / 1e6 : 0.0;
}

/* A line on stderr about the program's own state, with CAUSE_SELFCHECK=2 only. */
G_GNUC_UNUSED G_GNUC_PRINTF(1, 2) static void cause_note(const char *format, ...) {
  if (cause_selfcheck < 2) return;
  va_list ap;
  va_start(ap, format);
  fprintf(stderr, "note: t=%.3f ", cause_elapsed());
  vfprintf(stderr, format, ap);
  fputc('\n', stderr);
  va_end(ap);
}

G_GNUC_UNUSED static void cause_init(int *argc, char ***argv, const char *name) {
  snprintf(cause_prog, sizeof cause_prog, "gtk%d-%s", GTK_MAJOR_VERSION, name);
  g_set_prgname(cause_prog);
  const char *s = getenv("CAUSE_SECONDS");
  if (s && *s) {
    double v = atof(s);
    if (v > 0 && v <= CAUSE_MAX_SECONDS) cause_run_seconds = v;
  }
  const char *c = getenv("CAUSE_SELFCHECK");
  cause_selfcheck = c ? atoi(c) : 0;
#if GTK_MAJOR_VERSION == 3
  gtk_init(argc, argv);
#else
  (void)argc;
  (void)argv;
  gtk_init();
#endif
}

G_GNUC_UNUSED static void cause_on_layout(GdkFrameClock *clock, gpointer data) {
  (void)clock;
  CauseWatch *w = data;
  w->frame_layouts++;
  w->layouts++;
}

G_GNUC_UNUSED static void cause_on_after_paint(GdkFrameClock *clock, gpointer data) {
  (void)clock;
  CauseWatch *w = data;
  cause_frame_marker((int)(w - cause_windows));
  w->frames++;
  if (w->frame_layouts) {
    w->frames_with_layout++;
    double t = cause_elapsed();
    if (cause_start_us && t >= 0 && t < CAUSE_MAX_SECONDS) w->per_second[(int)t]++;
  }
  if (cause_selfcheck >= 2)
    fprintf(stderr, "selfcheck: window=%s frame %lu layouts=%u t=%.3f\n", w->name, w->frames,
            w->frame_layouts, cause_elapsed());
  w->frame_layouts = 0;
}

G_GNUC_UNUSED static void cause_on_realize(GtkWidget *window, gpointer data) {
  (void)window;
  CauseWatch *w = data;
  if (w->clock) return;
  w->clock = gtk_widget_get_frame_clock(w->window);
  if (!w->clock) return;
  g_object_ref(w->clock);
  g_signal_connect(w->clock, "layout", G_CALLBACK(cause_on_layout), w);
  g_signal_connect_after(w->clock, "after-paint", G_CALLBACK(cause_on_after_paint), w);
}

G_GNUC_UNUSED static GtkWidget *cause_window_new(const char *name, const char *title, int width,
                                                 int height) {
#if GTK_MAJOR_VERSION == 3
  GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
#else
  GtkWidget *window = gtk_window_new();
#endif
  gtk_widget_set_name(window, name);
  gtk_window_set_title(GTK_WINDOW(window), title);
  gtk_window_set_default_size(GTK_WINDOW(window), width, height);
  if (cause_nwindows < CAUSE_MAX_WINDOWS) {
    CauseWatch *w = &cause_windows[cause_nwindows++];
    w->window = window;
    g_strlcpy(w->name, name, sizeof w->name);
    g_signal_connect_after(window, "realize", G_CALLBACK(cause_on_realize), w);
  }
  return window;
}

/* The width in pixels `text` takes in `label`'s font (for a threshold between two texts). */
G_GNUC_UNUSED static int cause_text_width(GtkWidget *label, const char *text) {
  PangoLayout *layout = gtk_widget_create_pango_layout(label, text);
  int w, h;
  pango_layout_get_pixel_size(layout, &w, &h);
  g_object_unref(layout);
  return w;
}

G_GNUC_UNUSED static GtkWidget *cause_box_new(GtkOrientation orientation, int spacing) {
  return gtk_box_new(orientation, spacing);
}

G_GNUC_UNUSED static void cause_box_append(GtkWidget *box, GtkWidget *child) {
#if GTK_MAJOR_VERSION == 3
  gtk_box_pack_start(GTK_BOX(box), child, FALSE, FALSE, 0);
#else
  gtk_box_append(GTK_BOX(box), child);
#endif
}

/* The one child of a window, scrolled window, revealer, frame, viewport, flow-box child... */
G_GNUC_UNUSED static void cause_set_child(GtkWidget *parent, GtkWidget *child) {
#if GTK_MAJOR_VERSION == 3
  gtk_container_add(GTK_CONTAINER(parent), child);
#else
  if (GTK_IS_WINDOW(parent))
    gtk_window_set_child(GTK_WINDOW(parent), child);
  else if (GTK_IS_SCROLLED_WINDOW(parent))
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(parent), child);
  else if (GTK_IS_REVEALER(parent))
    gtk_revealer_set_child(GTK_REVEALER(parent), child);
  else if (GTK_IS_FRAME(parent))
    gtk_frame_set_child(GTK_FRAME(parent), child);
  else if (GTK_IS_VIEWPORT(parent))
    gtk_viewport_set_child(GTK_VIEWPORT(parent), child);
  else if (GTK_IS_BOX(parent))
    gtk_box_append(GTK_BOX(parent), child);
  else
    g_error("cause_set_child: no child setter for %s", G_OBJECT_TYPE_NAME(parent));
#endif
}

/* A scrolled window with classic (non-overlay) scrollbars, as on a desktop with
 * "gtk-overlay-scrolling" off or a mouse attached. */
G_GNUC_UNUSED static GtkWidget *cause_scrolled_new(GtkPolicyType hpolicy, GtkPolicyType vpolicy) {
#if GTK_MAJOR_VERSION == 3
  GtkWidget *sw = gtk_scrolled_window_new(NULL, NULL);
  gtk_scrolled_window_set_shadow_type(GTK_SCROLLED_WINDOW(sw), GTK_SHADOW_NONE);
#else
  GtkWidget *sw = gtk_scrolled_window_new();
#endif
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(sw), hpolicy, vpolicy);
  gtk_scrolled_window_set_overlay_scrolling(GTK_SCROLLED_WINDOW(sw), FALSE);
  return sw;
}

#if GTK_MAJOR_VERSION == 4
/* CauseBin: the app's own one-child container (GTK 4). */
typedef void (*CauseAllocatedFunc)(GtkWidget *bin, int width, int height, gpointer data);
G_DECLARE_FINAL_TYPE(CauseBin, cause_bin, CAUSE, BIN, GtkWidget)
struct _CauseBin {
  GtkWidget parent_instance;
  GtkWidget *child;
  CauseAllocatedFunc allocated;
  gpointer allocated_data;
};
G_DEFINE_TYPE(CauseBin, cause_bin, GTK_TYPE_WIDGET)

G_GNUC_UNUSED static void cause_bin_measure(GtkWidget *widget, GtkOrientation orientation,
                                            int for_size, int *minimum, int *natural,
                                            int *minimum_baseline, int *natural_baseline) {
  CauseBin *self = CAUSE_BIN(widget);
  if (self->child && gtk_widget_should_layout(self->child))
    gtk_widget_measure(self->child, orientation, for_size, minimum, natural, minimum_baseline,
                       natural_baseline);
}

G_GNUC_UNUSED static GtkSizeRequestMode cause_bin_get_request_mode(GtkWidget *widget) {
  CauseBin *self = CAUSE_BIN(widget);
  return self->child ? gtk_widget_get_request_mode(self->child) : GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

G_GNUC_UNUSED static void cause_bin_size_allocate(GtkWidget *widget, int width, int height,
                                                  int baseline) {
  CauseBin *self = CAUSE_BIN(widget);
  if (self->child && gtk_widget_should_layout(self->child))
    gtk_widget_allocate(self->child, width, height, baseline, NULL);
  if (self->allocated) self->allocated(widget, width, height, self->allocated_data);
}

G_GNUC_UNUSED static void cause_bin_dispose(GObject *object) {
  CauseBin *self = CAUSE_BIN(object);
  g_clear_pointer(&self->child, gtk_widget_unparent);
  G_OBJECT_CLASS(cause_bin_parent_class)->dispose(object);
}

G_GNUC_UNUSED static void cause_bin_class_init(CauseBinClass *klass) {
  GTK_WIDGET_CLASS(klass)->measure = cause_bin_measure;
  GTK_WIDGET_CLASS(klass)->size_allocate = cause_bin_size_allocate;
  GTK_WIDGET_CLASS(klass)->get_request_mode = cause_bin_get_request_mode;
  G_OBJECT_CLASS(klass)->dispose = cause_bin_dispose;
}

G_GNUC_UNUSED static void cause_bin_init(CauseBin *self) {
  (void)self;
}

G_GNUC_UNUSED static GtkWidget *cause_bin_new(GtkWidget *child, CauseAllocatedFunc allocated,
                                              gpointer data) {
  CauseBin *self = g_object_new(cause_bin_get_type(), NULL);
  self->child = child;
  gtk_widget_set_parent(child, GTK_WIDGET(self));
  self->allocated = allocated;
  self->allocated_data = data;
  return GTK_WIDGET(self);
}
#endif

G_GNUC_UNUSED static gboolean cause_stop(gpointer data) {
  (void)data;
  cause_done = TRUE;
  g_main_context_wakeup(NULL);
  return G_SOURCE_REMOVE;
}

G_GNUC_UNUSED static void cause_print_selfcheck(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
  double seconds = cause_elapsed();
  for (int i = 0; i < cause_nwindows; i++) {
    CauseWatch *w = &cause_windows[i];
    printf("selfcheck: window=%s frames=%lu frames_with_layout=%lu layouts=%lu seconds=%.2f "
           "per_second=",
           w->name, w->frames, w->frames_with_layout, w->layouts, seconds);
    int whole = (int)seconds;
    if (whole > CAUSE_MAX_SECONDS) whole = CAUSE_MAX_SECONDS;
    for (int s = 0; s < whole; s++) printf("%s%u", s ? "," : "", w->per_second[s]);
    printf(" user_cpu=%.2f\n", user);
  }
}

/* Shows the windows, runs CAUSE_SECONDS, quits. Returns main's exit status (0). */
static int cause_run(void) {
  cause_start_us = g_get_monotonic_time();
  for (int i = 0; i < cause_nwindows; i++) {
#if GTK_MAJOR_VERSION == 3
    gtk_widget_show_all(cause_windows[i].window);
#else
    gtk_window_present(GTK_WINDOW(cause_windows[i].window));
#endif
  }
  g_timeout_add((guint)(cause_run_seconds * 1000), cause_stop, NULL);
  while (!cause_done) g_main_context_iteration(NULL, TRUE);
  if (cause_selfcheck) cause_print_selfcheck();
  for (int i = 0; i < cause_nwindows; i++) {
    if (cause_windows[i].clock) {
      g_signal_handlers_disconnect_by_data(cause_windows[i].clock, &cause_windows[i]);
      g_object_unref(cause_windows[i].clock);
      cause_windows[i].clock = NULL;
    }
#if GTK_MAJOR_VERSION == 3
    gtk_widget_destroy(cause_windows[i].window);
#else
    gtk_window_destroy(GTK_WINDOW(cause_windows[i].window));
#endif
  }
  printf("%s: done\n", cause_prog);
  fflush(stdout);
  return 0;
}

#endif
