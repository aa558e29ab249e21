/* vfunc_bench.c — built twice, as gtk3-vfunc-bench and gtk4-vfunc-bench: the cost of one layout
 * vfunc call, plain or through LoopHunter's wrapper. A widget subclass with a trivial measure
 * (GTK 3: get_preferred_width) is called through its class N times; run with and without the
 * preload (LOOPHUNTER_THRESHOLD high: no breach) and compare. Prints "ns_per_call=<x>". */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { GtkWidget parent; } BenchWidget;
typedef struct { GtkWidgetClass parent; } BenchWidgetClass;
G_DEFINE_TYPE(BenchWidget, bench_widget, GTK_TYPE_WIDGET)

#if GTK_MAJOR_VERSION >= 4
static void bench_measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat, int *mb, int *nb) {
  (void)w, (void)o, (void)for_size;
  *min = *nat = 10;
  *mb = *nb = -1;
}
#else
static void bench_measure(GtkWidget *w, int *min, int *nat) {
  (void)w;
  *min = *nat = 10;
}
#endif

static void bench_widget_class_init(BenchWidgetClass *klass) {
#if GTK_MAJOR_VERSION >= 4
  GTK_WIDGET_CLASS(klass)->measure = bench_measure;
#else
  GTK_WIDGET_CLASS(klass)->get_preferred_width = bench_measure;
#endif
}
static void bench_widget_init(BenchWidget *self) { (void)self; }

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 10000000;
#if GTK_MAJOR_VERSION >= 4
  gtk_init();
#else
  gtk_init(NULL, NULL);
#endif
  GtkWidget *w = g_object_ref_sink(g_object_new(bench_widget_get_type(), NULL));
  GtkWidgetClass *k = GTK_WIDGET_GET_CLASS(w);
  int min = 0, nat = 0, mb = 0, nb = 0;
  gint64 t0 = g_get_monotonic_time();
  for (long i = 0; i < calls; i++) {
#if GTK_MAJOR_VERSION >= 4
    k->measure(w, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, &mb, &nb);
#else
    k->get_preferred_width(w, &min, &nat);
    (void)mb, (void)nb;
#endif
  }
  gint64 t1 = g_get_monotonic_time();
  printf("ns_per_call=%.3f calls=%ld\n", (double)(t1 - t0) * 1000.0 / (double)calls, calls);
  return min == 10 ? 0 : 1;
}
