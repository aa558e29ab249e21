// LOOPHUNTER-TRUTH: healthy
/* queue_resize_tick.c — gtk_widget_queue_resize() from a tick callback every frame (an animation).
 *
 * A "recording" indicator (CausePulse, the app's own widget) whose preferred size is a function
 * of time: 60 + 30·sin(2π·t / 1.5 s) px square. Its tick callback calls gtk_widget_queue_resize()
 * on it every frame so GTK measures it again: a relayout every frame with a new size, forever,
 * following the clock (the request never depends on a layout's result). Healthy.
 */
#include "causes.h"
#include <math.h>

G_DECLARE_FINAL_TYPE(CausePulse, cause_pulse, CAUSE, PULSE, GtkDrawingArea)
struct _CausePulse {
  GtkDrawingArea parent_instance;
};
G_DEFINE_TYPE(CausePulse, cause_pulse, GTK_TYPE_DRAWING_AREA)

static int pulse_size(void) {
  return 60 + (int)(30 * sin(g_get_monotonic_time() / 1e6 * 2 * G_PI / 1.5));
}

#if GTK_MAJOR_VERSION == 3
static void cause_pulse_get_preferred_width(GtkWidget *w, int *minimum, int *natural) {
  (void)w;
  *minimum = *natural = pulse_size();
}
static void cause_pulse_get_preferred_height(GtkWidget *w, int *minimum, int *natural) {
  (void)w;
  *minimum = *natural = pulse_size();
}
#else
static void cause_pulse_measure(GtkWidget *w, GtkOrientation o, int for_size, int *minimum,
                                int *natural, int *minimum_baseline, int *natural_baseline) {
  (void)w, (void)o, (void)for_size, (void)minimum_baseline, (void)natural_baseline;
  *minimum = *natural = pulse_size();
}
#endif

static void cause_pulse_class_init(CausePulseClass *klass) {
#if GTK_MAJOR_VERSION == 3
  GTK_WIDGET_CLASS(klass)->get_preferred_width = cause_pulse_get_preferred_width;
  GTK_WIDGET_CLASS(klass)->get_preferred_height = cause_pulse_get_preferred_height;
#else
  GTK_WIDGET_CLASS(klass)->measure = cause_pulse_measure;
#endif
}

static void cause_pulse_init(CausePulse *self) {
  (void)self;
}

static gboolean pulse_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data) {
  (void)clock, (void)data;
  gtk_widget_queue_resize(widget);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "queue-resize-tick");
  GtkWidget *window = cause_window_new("main-window", "queue-resize-tick", 240, 140);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *pulse = g_object_new(cause_pulse_get_type(), NULL);
  gtk_widget_set_name(pulse, "pulse");
  gtk_widget_set_valign(pulse, GTK_ALIGN_CENTER);
  cause_box_append(box, pulse);
  cause_box_append(box, gtk_label_new("Recording"));
  cause_set_child(window, box);
  gtk_widget_add_tick_callback(pulse, pulse_tick, NULL, NULL);
  return cause_run();
}
