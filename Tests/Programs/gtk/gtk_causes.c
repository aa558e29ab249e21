/* gtk_causes.c — layout loops of each cause kind, and healthy programs that relayout every frame
 * for other reasons; GTK 3 and GTK 4 (built as gtk3-causes and gtk4-causes, with -rdynamic so that
 * the preload names the program's functions in its reports).
 *
 * Usage: gtkN-causes MODE; runs LH_RUN_MS (default 3000) ms, exits 0 and prints "gtkN-causes MODE: done".
 *
 * Loops (each relays its widget out in every frame, forever):
 *   in-layout   an application "layout" handler of the window's frame clock (relabel_in_layout) gives
 *               label "status" the short text when its allocation is wide, the long one when it is
 *               narrow: a request made in the frame clock's layout phase (at the end the handler is
 *               disconnected by function and data, and the count printed);
 *   ping-pong   labels "left" and "right": each one's allocation (LhLabel's size_allocate, then the
 *               program's hook) adds an idle (ping_pong_idle) that flips the OTHER label's text: a
 *               request deferred from layout through an idle, back and forth;
 *   tick-flip   a tick callback added at start-up (flip_by_width) reads label "status"'s width and
 *               picks the text that makes it the other width: a request following the layout's
 *               result; the width goes A, B, A, B...
 * Healthy (relayout every frame, or often, but no loop):
 *   paned-anim  a tick callback (animate_paned) moves a GtkPaned's divider along a sine;
 *   revealer    a GtkRevealer (slide-down, 250 ms) toggled every 500 ms by a timeout;
 *   same-text   a 16 ms timeout (set_same_text) sets label "status" to the text it already has;
 *   tick-resize a tick callback (resize_every_frame) calls gtk_widget_queue_resize on "status" every
 *               frame;
 *   tick-scaled a tick callback (scale_by_width) reads the width of "track" and of "bar" and sets bar's
 *               width request to a share of the track's width that moves with time (a triangle wave,
 *               2 s period): it reads the widget it resizes, but the size follows the clock.
 */
#include <math.h>

#include "lh_gtk_truth.h"

#define SHORT_TEXT "3 files"
#define LONG_TEXT "Synchronising 3 files with the server..."
#define RUN_MS 3000
/* Keeps the compiler from turning a function's last call into a jump, which would take the
 * function's frame off the stack (a report names the function that re-requested layout). */
#define NO_TAIL_CALL() __asm__ volatile("" ::: "memory")

static const char *mode;
static char prog[32];
static gboolean done;
static int threshold;
static GtkWidget *window, *box, *status, *left, *right, *paned, *revealer, *track, *bar;
static gint64 start_us;

#if GTK_MAJOR_VERSION >= 4
#define width_of(w) gtk_widget_get_width(w)
static void box_add(GtkWidget *b, GtkWidget *child) { gtk_box_append(GTK_BOX(b), child); }
static void window_set(GtkWidget *w, GtkWidget *child) { gtk_window_set_child(GTK_WINDOW(w), child); }
#else
#define width_of(w) gtk_widget_get_allocated_width(w)
static void box_add(GtkWidget *b, GtkWidget *child) {
  gboolean expand = gtk_widget_get_hexpand(child);
  gtk_box_pack_start(GTK_BOX(b), child, expand, TRUE, 0);
}
static void window_set(GtkWidget *w, GtkWidget *child) { gtk_container_add(GTK_CONTAINER(w), child); }
#endif

static double seconds(void) { return (g_get_monotonic_time() - start_us) / 1e6; }

static int text_width(GtkWidget *label, const char *text) {
  PangoLayout *layout = gtk_widget_create_pango_layout(label, text);
  int w, h;
  pango_layout_get_pixel_size(layout, &w, &h);
  g_object_unref(layout);
  return w;
}

static GtkWidget *label_new(const char *name, const char *text) {
  GtkWidget *l = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), name, "label", text,
                              "halign", GTK_ALIGN_START, "xalign", 0.0f, NULL);
  if (threshold == 0) threshold = (text_width(l, SHORT_TEXT) + text_width(l, LONG_TEXT)) / 2;
  return l;
}

/* The text that gives `label` the other width. */
static const char *other_text(GtkWidget *label, int width) {
  (void)label;
  return width >= threshold ? SHORT_TEXT : LONG_TEXT;
}

/* ---- in-layout ---- */

__attribute__((noinline)) void relabel_in_layout(GdkFrameClock *clock, gpointer data) {
  (void)clock;
  GtkWidget *label = data;
  gtk_label_set_text(GTK_LABEL(label), other_text(label, width_of(label)));
  NO_TAIL_CALL();
}

static GdkFrameClock *layout_clock;

static void connect_layout_handler(GtkWidget *w, gpointer data) {
  (void)data;
  layout_clock = gtk_widget_get_frame_clock(w);
  g_signal_connect_after(layout_clock, "layout", G_CALLBACK(relabel_in_layout), status);
}

/* ---- ping-pong ---- */

static guint pending[2];

__attribute__((noinline)) gboolean ping_pong_idle(gpointer data) {
  GtkWidget *label = data;
  pending[label == left ? 0 : 1] = 0;
  const char *text = gtk_label_get_text(GTK_LABEL(label));
  gtk_label_set_text(GTK_LABEL(label), strcmp(text, SHORT_TEXT) == 0 ? LONG_TEXT : SHORT_TEXT);
  return G_SOURCE_REMOVE;
}

/* Inside a label's size_allocate: the other label is to change. */
__attribute__((noinline)) void label_allocated(GtkWidget *label, int width, int height, gpointer data) {
  (void)width, (void)height, (void)data;
  GtkWidget *other = label == left ? right : left;
  guint *id = &pending[other == left ? 0 : 1];
  if (*id == 0) *id = g_idle_add(ping_pong_idle, other);
  NO_TAIL_CALL();
}

/* ---- tick-flip ---- */

__attribute__((noinline)) gboolean flip_by_width(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  int width = width_of(widget);
  if (width > 1) gtk_label_set_text(GTK_LABEL(widget), other_text(widget, width));
  return G_SOURCE_CONTINUE;
}

/* ---- healthy ---- */

__attribute__((noinline)) gboolean animate_paned(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  gtk_paned_set_position(GTK_PANED(widget), 150 + (int)(100 * sin(seconds() * G_PI)));
  return G_SOURCE_CONTINUE;
}

__attribute__((noinline)) gboolean toggle_revealer(gpointer data) {
  (void)data;
  gtk_revealer_set_reveal_child(GTK_REVEALER(revealer), !gtk_revealer_get_reveal_child(GTK_REVEALER(revealer)));
  return G_SOURCE_CONTINUE;
}

__attribute__((noinline)) gboolean set_same_text(gpointer data) {
  (void)data;
  gtk_label_set_text(GTK_LABEL(status), "Ready");
  return G_SOURCE_CONTINUE;
}

__attribute__((noinline)) gboolean resize_every_frame(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  gtk_widget_queue_resize(widget);
  return G_SOURCE_CONTINUE;
}

__attribute__((noinline)) gboolean scale_by_width(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  int track_width = width_of(track), bar_width = width_of(widget);
  double phase = fmod(seconds(), 2.0), share = phase < 1.0 ? phase : 2.0 - phase; /* triangle, 0..1 */
  int want = (int)(track_width * (0.2 + 0.6 * share));
  if (track_width > 1 && want != bar_width) gtk_widget_set_size_request(widget, want, 20);
  return G_SOURCE_CONTINUE;
}

/* ---- the program ---- */

static guint disconnected = G_MAXUINT;

static gboolean stop(gpointer data) {
  (void)data;
  done = TRUE;
  /* The handler is found by the program's own function and data (whatever LoopHunter did to it). */
  if (layout_clock != NULL)
    disconnected = g_signal_handlers_disconnect_by_func(layout_clock, G_CALLBACK(relabel_in_layout), status);
#if GTK_MAJOR_VERSION >= 4
  g_main_context_wakeup(NULL);
#else
  gtk_main_quit();
#endif
  return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "";
  g_snprintf(prog, sizeof prog, "gtk%d-causes", GTK_MAJOR_VERSION);
  g_set_prgname(prog);
#if GTK_MAJOR_VERSION >= 4
  gtk_init();
  window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window", "title", prog,
                        "default-width", 480, "default-height", 120, NULL);
#else
  gtk_init(&argc, &argv);
  window = lh_truth_new(lh_truth_subclass(GTK_TYPE_WINDOW, "LhWindow"), "main-window", "title", prog,
                        "default-width", 480, "default-height", 120, NULL);
#endif
  box = lh_truth_new(lh_truth_subclass(GTK_TYPE_BOX, "LhBox"), "toolbar", "orientation",
                     GTK_ORIENTATION_HORIZONTAL, "spacing", 6, NULL);
  window_set(window, box);

  if (strcmp(mode, "in-layout") == 0) {
    status = label_new("status", LONG_TEXT);
    box_add(box, status);
    g_signal_connect(window, "realize", G_CALLBACK(connect_layout_handler), NULL);
  } else if (strcmp(mode, "ping-pong") == 0) {
    left = label_new("left", SHORT_TEXT);
    right = label_new("right", LONG_TEXT);
    box_add(box, left);
    box_add(box, right);
    lh_truth_set_alloc_hook(left, label_allocated, NULL);
    lh_truth_set_alloc_hook(right, label_allocated, NULL);
  } else if (strcmp(mode, "tick-flip") == 0) {
    status = label_new("status", LONG_TEXT);
    box_add(box, status);
    gtk_widget_add_tick_callback(status, flip_by_width, NULL, NULL);
  } else if (strcmp(mode, "paned-anim") == 0) {
#if GTK_MAJOR_VERSION >= 4
    paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL);
    gtk_paned_set_start_child(GTK_PANED(paned), label_new("left", "Left pane"));
    gtk_paned_set_end_child(GTK_PANED(paned), label_new("right", "Right pane"));
#else
    paned = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL);
    gtk_paned_pack1(GTK_PANED(paned), label_new("left", "Left pane"), TRUE, FALSE);
    gtk_paned_pack2(GTK_PANED(paned), label_new("right", "Right pane"), TRUE, FALSE);
#endif
    gtk_widget_set_hexpand(paned, TRUE);
    box_add(box, paned);
    gtk_widget_add_tick_callback(paned, animate_paned, NULL, NULL);
  } else if (strcmp(mode, "revealer") == 0) {
    revealer = gtk_revealer_new();
    gtk_revealer_set_transition_type(GTK_REVEALER(revealer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
    gtk_revealer_set_transition_duration(GTK_REVEALER(revealer), 250);
#if GTK_MAJOR_VERSION >= 4
    gtk_revealer_set_child(GTK_REVEALER(revealer), label_new("details", LONG_TEXT));
#else
    gtk_container_add(GTK_CONTAINER(revealer), label_new("details", LONG_TEXT));
#endif
    box_add(box, revealer);
    g_timeout_add(500, toggle_revealer, NULL);
  } else if (strcmp(mode, "same-text") == 0) {
    status = label_new("status", "Ready");
    box_add(box, status);
    g_timeout_add(16, set_same_text, NULL);
  } else if (strcmp(mode, "tick-resize") == 0) {
    status = label_new("status", "Ready");
    box_add(box, status);
    gtk_widget_add_tick_callback(status, resize_every_frame, NULL, NULL);
  } else if (strcmp(mode, "tick-scaled") == 0) {
    track = lh_truth_new(lh_truth_subclass(GTK_TYPE_BOX, "LhBox"), "track", "orientation",
                         GTK_ORIENTATION_HORIZONTAL, NULL);
    gtk_widget_set_hexpand(track, TRUE);
    bar = lh_truth_new(lh_truth_subclass(GTK_TYPE_LABEL, "LhLabel"), "bar", "label", "", NULL);
    gtk_widget_set_halign(bar, GTK_ALIGN_START);
    box_add(track, bar);
    box_add(box, track);
    gtk_widget_set_hexpand(box, TRUE);
    gtk_widget_add_tick_callback(bar, scale_by_width, NULL, NULL);
  } else {
    fprintf(stderr, "%s: unknown mode '%s'\n", prog, mode);
    return 2;
  }

#if GTK_MAJOR_VERSION >= 4
  gtk_window_present(GTK_WINDOW(window));
#else
  gtk_widget_show_all(window);
#endif
  lh_truth_watch_frames(window);
  start_us = g_get_monotonic_time();
  lh_truth_stop_after(RUN_MS, stop, NULL);
#if GTK_MAJOR_VERSION >= 4
  while (!done) g_main_context_iteration(NULL, TRUE);
#else
  gtk_main();
#endif
  int rc = lh_truth_finish();
  if (disconnected != G_MAXUINT) printf("%s %s: layout handlers disconnected: %u\n", prog, mode, disconnected);
  printf("%s %s: done\n", prog, mode);
  return rc;
}
