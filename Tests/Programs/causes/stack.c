// LOOPHUNTER-TRUTH: healthy
/* stack.c — GtkStack transitions.
 *
 * A three-page wizard ("pages", not homogeneous, interpolate-size on) advances every 700 ms with a
 * 400 ms slide transition, so its size animates from one page's to the next's: a relayout in every
 * frame of each transition (GTK's own tick callback on the stack), driven by the transition's
 * clock. Healthy.
 */
#include "causes.h"

static GtkWidget *stack;
static int page;

static gboolean next_page_timeout(gpointer data) {
  (void)data;
  static const char *pages[] = {"welcome", "account", "done"};
  page = (page + 1) % 3;
  gtk_stack_set_visible_child_name(GTK_STACK(stack), pages[page]);
  return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "stack");
  GtkWidget *window = cause_window_new("main-window", "stack", 420, 260);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 6);
  stack = gtk_stack_new();
  gtk_widget_set_name(stack, "pages");
  gtk_stack_set_hhomogeneous(GTK_STACK(stack), FALSE);
  gtk_stack_set_vhomogeneous(GTK_STACK(stack), FALSE);
  gtk_stack_set_interpolate_size(GTK_STACK(stack), TRUE);
  gtk_stack_set_transition_type(GTK_STACK(stack), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT);
  gtk_stack_set_transition_duration(GTK_STACK(stack), 400);
  gtk_stack_add_named(GTK_STACK(stack), gtk_label_new("Welcome!"), "welcome");
  gtk_stack_add_named(GTK_STACK(stack),
                      gtk_label_new("Account\n\nName: Ada Lovelace\nE-mail: ada@example.org\n"
                                    "Server: imap.example.org\nPort: 993"),
                      "account");
  gtk_stack_add_named(GTK_STACK(stack), gtk_label_new("All done. Your account is ready to use."),
                      "done");
  gtk_widget_set_halign(stack, GTK_ALIGN_START);
  gtk_widget_set_valign(stack, GTK_ALIGN_START);
  cause_box_append(box, stack);
  cause_set_child(window, box);
  g_timeout_add(700, next_page_timeout, NULL);
  return cause_run();
}
