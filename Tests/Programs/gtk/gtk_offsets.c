/* gtk_offsets.c — built twice, as gtk3-offsets and gtk4-offsets: prints the class layout of the
 * installed GTK headers (name=value lines), for the test that checks the preload's constants
 * (CShim/preload/toolkits/lh_gtk.c) against them. */
#include <gtk/gtk.h>
#include <stddef.h>
#include <stdio.h>

int main(void) {
  printf("major=%d\n", GTK_MAJOR_VERSION);
  printf("GObjectClass.finalize=%zu\n", offsetof(GObjectClass, finalize));
  printf("GtkWidgetClass=%zu\n", sizeof(GtkWidgetClass));
  printf("size_allocate=%zu\n", offsetof(GtkWidgetClass, size_allocate));
#if GTK_MAJOR_VERSION >= 4
  printf("measure=%zu\n", offsetof(GtkWidgetClass, measure));
  printf("GtkLayoutManagerClass=%zu\n", sizeof(GtkLayoutManagerClass));
  printf("layout_manager.measure=%zu\n", offsetof(GtkLayoutManagerClass, measure));
  printf("layout_manager.allocate=%zu\n", offsetof(GtkLayoutManagerClass, allocate));
#else
  printf("get_preferred_height=%zu\n", offsetof(GtkWidgetClass, get_preferred_height));
  printf("get_preferred_width_for_height=%zu\n", offsetof(GtkWidgetClass, get_preferred_width_for_height));
  printf("get_preferred_width=%zu\n", offsetof(GtkWidgetClass, get_preferred_width));
  printf("get_preferred_height_for_width=%zu\n", offsetof(GtkWidgetClass, get_preferred_height_for_width));
  printf("get_preferred_height_and_baseline_for_width=%zu\n",
         offsetof(GtkWidgetClass, get_preferred_height_and_baseline_for_width));
#endif
  return 0;
}
