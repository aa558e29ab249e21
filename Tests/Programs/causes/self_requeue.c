// LOOPHUNTER-TRUTH: loop widget=CauseChart name=chart cause=deferred function=chart_relayout_idle
/* self_requeue.c — a widget that re-queues its own resize from an idle added in its allocation.
 *
 * A chart widget (CauseChart, a GtkDrawingArea subclass of the app's) recomputes its axis ticks
 * for the size it was given. Its size_allocate chains up, then adds an idle "to re-measure once
 * the ticks are known", and that idle calls gtk_widget_queue_resize() on the chart: the classic
 * "re-compute after layout" idle. The chart's request does not depend on the ticks, so its size
 * never changes; but the queued resize lays the window out again in the next frame, which calls
 * size_allocate again, which adds the idle again: one relayout per frame, forever, no size change.
 * Re-requesting function: chart_relayout_idle.
 */
#include "causes.h"

#define CAUSE_TYPE_CHART (cause_chart_get_type())
G_DECLARE_FINAL_TYPE(CauseChart, cause_chart, CAUSE, CHART, GtkDrawingArea)
struct _CauseChart {
  GtkDrawingArea parent_instance;
  guint relayout_source;
  int ticks;
};
G_DEFINE_TYPE(CauseChart, cause_chart, GTK_TYPE_DRAWING_AREA)

/* The bug: "the ticks changed, measure again", whether or not they did. */
__attribute__((noinline)) gboolean chart_relayout_idle(gpointer data) {
  CauseChart *chart = data;
  chart->relayout_source = 0;
  gtk_widget_queue_resize(GTK_WIDGET(chart));
  return G_SOURCE_REMOVE;
}

static void chart_after_allocate(CauseChart *chart, int width) {
  chart->ticks = width / 50; /* the axis: one tick per 50 px */
  if (!chart->relayout_source) chart->relayout_source = g_idle_add(chart_relayout_idle, chart);
}

#if GTK_MAJOR_VERSION == 3
static void cause_chart_size_allocate(GtkWidget *widget, GtkAllocation *allocation) {
  GTK_WIDGET_CLASS(cause_chart_parent_class)->size_allocate(widget, allocation);
  chart_after_allocate(CAUSE_CHART(widget), allocation->width);
}
#else
static void cause_chart_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
  GTK_WIDGET_CLASS(cause_chart_parent_class)->size_allocate(widget, width, height, baseline);
  chart_after_allocate(CAUSE_CHART(widget), width);
}
#endif

static void cause_chart_dispose(GObject *object) {
  CauseChart *chart = CAUSE_CHART(object);
  if (chart->relayout_source) g_source_remove(chart->relayout_source);
  chart->relayout_source = 0;
  G_OBJECT_CLASS(cause_chart_parent_class)->dispose(object);
}

static void cause_chart_class_init(CauseChartClass *klass) {
  GTK_WIDGET_CLASS(klass)->size_allocate = cause_chart_size_allocate;
  G_OBJECT_CLASS(klass)->dispose = cause_chart_dispose;
}

static void cause_chart_init(CauseChart *chart) {
  gtk_widget_set_size_request(GTK_WIDGET(chart), 300, 120);
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "self-requeue");
  GtkWidget *window = cause_window_new("main-window", "self-requeue", 340, 160);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  cause_box_append(box, gtk_label_new("Requests per minute"));
  GtkWidget *chart = g_object_new(CAUSE_TYPE_CHART, NULL);
  gtk_widget_set_name(chart, "chart");
  cause_box_append(box, chart);
  cause_set_child(window, box);
  return cause_run();
}
