// LOOPHUNTER-TRUTH: loop widget=GtkFlowBox name=cards cause=deferred function=cards_pack_idle
/* flowbox.c — a homogeneous GtkFlowBox of wrapping labels, packed to the start from its own width.
 *
 * A GtkFlowBox always spreads the room left on a line between its children. To pack its cards
 * (homogeneous, each a wrapping label 200 px wide) to the start the way a file manager lays out
 * icons, the app computes after each allocation how many cards fit in the flow box's allocated
 * width and gives the leftover to the flow box's end margin (in an idle added from the flow box's
 * allocation: GTK 3 "size-allocate", GTK 4 the app's CauseBin around it). But the margin it sets
 * takes that width away from the flow box, so the next allocation leaves nothing over, the margin
 * goes back to 0, the flow box is wide again, the margin comes back... The flow box's width
 * alternates every frame, forever. (The fix is to compute the columns from the viewport's width,
 * never from the flow box's own allocation.) Re-requesting function: cards_pack_idle.
 */
#include "causes.h"

#define CARD_W 200
#define SPACING 6

static const char *card_texts[] = {
    "Holiday photos 2023, the lake and the mountains",
    "Tax return",
    "Recipes collected from friends over the years, with notes",
    "Invoices",
    "Band practice recordings, unedited",
    "Thesis drafts",
    "Old phone backup",
};

static GtkWidget *cards;
static guint pack_source;
static int pack_margin;

/* The bug: the leftover is computed from the width the margin itself changes. */
__attribute__((noinline)) gboolean cards_pack_idle(gpointer data) {
  (void)data;
  pack_source = 0;
  gtk_widget_set_margin_end(cards, pack_margin);
  return G_SOURCE_REMOVE;
}

static void cards_allocated(int width) {
  int columns = (width + SPACING) / (CARD_W + SPACING);
  if (columns < 1) columns = 1;
  int used = columns * CARD_W + (columns - 1) * SPACING;
  int margin = width - used;
  if (margin < 0) margin = 0;
  cause_note("cards allocated %d wide: %d columns, end margin %d", width, columns, margin);
  if (margin == gtk_widget_get_margin_end(cards)) return;
  pack_margin = margin;
  if (!pack_source) pack_source = g_idle_add(cards_pack_idle, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_cards_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  cards_allocated(a->width);
}
#else
static void on_cards_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)width, (void)height, (void)d;
  cards_allocated(gtk_widget_get_width(cards)); /* the flow box's own width, margins excluded */
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "flowbox");
  GtkWidget *window = cause_window_new("main-window", "flowbox", 700, 300);
  cards = gtk_flow_box_new();
  gtk_widget_set_name(cards, "cards");
  gtk_flow_box_set_homogeneous(GTK_FLOW_BOX(cards), TRUE);
  gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(cards), SPACING);
  gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(cards), SPACING);
  gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(cards), 12);
  gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(cards), GTK_SELECTION_NONE);
  gtk_widget_set_valign(cards, GTK_ALIGN_START);
  for (size_t i = 0; i < G_N_ELEMENTS(card_texts); i++) {
    GtkWidget *label = gtk_label_new(card_texts[i]);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 1);
    gtk_widget_set_size_request(label, CARD_W, -1);
#if GTK_MAJOR_VERSION == 3
    gtk_label_set_line_wrap(GTK_LABEL(label), TRUE);
#else
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
#endif
    gtk_flow_box_insert(GTK_FLOW_BOX(cards), label, -1);
  }
#if GTK_MAJOR_VERSION == 3
  g_signal_connect(cards, "size-allocate", G_CALLBACK(on_cards_size_allocate), NULL);
  cause_set_child(window, cards);
#else
  cause_set_child(window, cause_bin_new(cards, on_cards_bin_allocated, NULL));
#endif
  return cause_run();
}
