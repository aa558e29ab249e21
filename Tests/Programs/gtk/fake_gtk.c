/* fake_gtk.c — pretends to be a GTK whose class layout LoopHunter does not know, to test that GTK
 * counting then stays off with one stderr line and the program runs on unchanged. It links only
 * GObject and exports (-rdynamic) the functions LoopHunter looks up: gtk_get_*_version,
 * gtk_widget_get_type (a GObject type named "GtkWidget"), gtk_widget_get_name/parent/allocation,
 * gdk_frame_clock_get_type, gtk_layout_manager_get_type, gtk_box_layout_get_type.
 *
 *   lh-fake-gtk major5   a GTK 5.0.0
 *   lh-fake-gtk layout   a GTK 4.99.0 whose GtkWidgetClass is 512 bytes, not GTK 4's 408
 */
#include <glib-object.h>
#include <stdio.h>
#include <string.h>

static int major = 4;

unsigned gtk_get_major_version(void) { return (unsigned)major; }
unsigned gtk_get_minor_version(void) { return major == 4 ? 99 : 0; }
unsigned gtk_get_micro_version(void) { return 0; }

typedef struct { GObjectClass parent; char rest[512 - sizeof(GObjectClass)]; } FakeWidgetClass;
typedef struct { GObject parent; } FakeWidget;
static void fake_widget_class_init(FakeWidgetClass *klass) { (void)klass; }
static void fake_widget_init(FakeWidget *self) { (void)self; }
G_DEFINE_TYPE(FakeWidget, fake_widget, G_TYPE_OBJECT)

GType gtk_widget_get_type(void) {
  static GType type;
  if (type == 0) {
    GTypeInfo info = {sizeof(FakeWidgetClass), NULL, NULL, NULL, NULL, NULL, sizeof(FakeWidget), 0, NULL, NULL};
    type = g_type_register_static(G_TYPE_OBJECT, "GtkWidget", &info, 0);
  }
  return type;
}
GType gtk_layout_manager_get_type(void) { return fake_widget_get_type(); }
GType gtk_box_layout_get_type(void) { return fake_widget_get_type(); }
GType gdk_frame_clock_get_type(void) { return fake_widget_get_type(); }
const char *gtk_widget_get_name(void *widget) { (void)widget; return "fake"; }
void *gtk_widget_get_parent(void *widget) { (void)widget; return NULL; }
void gtk_widget_get_allocation(void *widget, int *rect) { (void)widget; memset(rect, 0, 4 * sizeof(int)); }

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "major5") != 0 && strcmp(argv[1], "layout") != 0)) {
    fprintf(stderr, "usage: lh-fake-gtk major5|layout\n");
    return 2;
  }
  major = strcmp(argv[1], "major5") == 0 ? 5 : 4;
  for (int i = 0; i < 3; i++) g_object_unref(g_object_new(gtk_widget_get_type(), NULL));
  printf("fake-gtk: created 3 widgets\n");
  return 0;
}
