// LOOPHUNTER-TRUTH: healthy
/* css_anim.c — CSS animations that change sizes.
 *
 * A "record" button breathes: a CSS @keyframes animation (infinite, alternate, 1.2 s) moves its
 * min-width between 80 and 200 px and its padding, and a "badge" label's margin animates the same
 * way. GTK's style machinery (the CSS node's tick callback) queues a resize in every frame of the
 * animation, forever: relayout every frame, driven by the animation's clock. Healthy.
 */
#include "causes.h"

static const char *css =
    "@keyframes breathe { from { min-width: 80px; padding: 2px; } "
    "                     to   { min-width: 200px; padding: 12px; } }\n"
    "@keyframes nudge { from { margin-left: 0px; } to { margin-left: 40px; } }\n"
    "#record { animation: breathe 1.2s ease-in-out infinite alternate; }\n"
    "#badge { animation: nudge 0.8s linear infinite alternate; }\n";

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "css-anim");
  GtkWidget *window = cause_window_new("main-window", "css-anim", 420, 100);
  GtkCssProvider *provider = gtk_css_provider_new();
#if GTK_MAJOR_VERSION == 3
  gtk_css_provider_load_from_data(provider, css, -1, NULL);
  gtk_style_context_add_provider_for_screen(gdk_screen_get_default(), GTK_STYLE_PROVIDER(provider),
                                            GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
#else
  gtk_css_provider_load_from_data(provider, css, -1);
  gtk_style_context_add_provider_for_display(gdk_display_get_default(),
                                             GTK_STYLE_PROVIDER(provider),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
#endif
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *record = gtk_button_new_with_label("Record");
  gtk_widget_set_name(record, "record");
  GtkWidget *badge = gtk_label_new("REC");
  gtk_widget_set_name(badge, "badge");
  cause_box_append(box, record);
  cause_box_append(box, badge);
  cause_set_child(window, box);
  return cause_run();
}
