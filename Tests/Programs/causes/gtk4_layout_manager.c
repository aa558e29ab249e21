// LOOPHUNTER-TRUTH: loop widget=GtkLabel,CauseBadgeRow name=badge-label,badge cause=deferred function=badge_layout_apply_idle
/* gtk4_layout_manager.c — a custom GtkLayoutManager changing its child's request in allocate.
 *
 * A badge row (CauseBadgeRow: an icon and a label, halign=START) is laid out by the app's own
 * layout manager (CauseBadgeLayout). Its allocate is "responsive": when the row was given at least
 * BREAKPOINT px it switches the label to its compact width request, otherwise to its full one. The
 * row's width is the icon plus the label's request, so a compact label makes a narrow row, which
 * asks for the full label, which makes a wide row, which asks for the compact one...
 *
 * Made inside allocate, the request is swallowed: GTK 4.8 clears the alloc-needed flags of the
 * widgets under allocation when their allocate returns, so a gtk_widget_set_size_request() (or a
 * gtk_layout_manager_layout_changed()) there leaves the label stale and schedules nothing
 * (CAUSE_LM_DIRECT=1 makes the program do that: with CAUSE_SELFCHECK=1 it shows one frame with
 * layout, then none). So the layout manager does what real
 * code ends up doing: it applies the new request from an idle added in allocate, and that loops:
 * one relayout per frame, the row's width alternating, forever.
 * Re-requesting function: badge_layout_apply_idle (added by cause_badge_layout_allocate).
 */
#include "causes.h"

#define ICON 24
#define GAP 6
#define FULL 220
#define COMPACT 90
#define BREAKPOINT (ICON + GAP + (FULL + COMPACT) / 2)

/* ---- the layout manager ---- */
G_DECLARE_FINAL_TYPE(CauseBadgeLayout, cause_badge_layout, CAUSE, BADGE_LAYOUT, GtkLayoutManager)
struct _CauseBadgeLayout {
  GtkLayoutManager parent_instance;
  guint apply_source;
  int pending_width;
  GtkWidget *label; /* not owned */
};
G_DEFINE_TYPE(CauseBadgeLayout, cause_badge_layout, GTK_TYPE_LAYOUT_MANAGER)

/* Applies the label width chosen in allocate. */
__attribute__((noinline)) gboolean badge_layout_apply_idle(gpointer data) {
  CauseBadgeLayout *self = data;
  self->apply_source = 0;
  gtk_widget_set_size_request(self->label, self->pending_width, -1);
  return G_SOURCE_REMOVE;
}

static void cause_badge_layout_measure(GtkLayoutManager *manager, GtkWidget *widget,
                                       GtkOrientation orientation, int for_size, int *minimum,
                                       int *natural, int *minimum_baseline, int *natural_baseline) {
  (void)manager, (void)for_size, (void)minimum_baseline, (void)natural_baseline;
  GtkWidget *icon = gtk_widget_get_first_child(widget);
  GtkWidget *label = gtk_widget_get_next_sibling(icon);
  int imin, inat, lmin, lnat;
  gtk_widget_measure(icon, orientation, -1, &imin, &inat, NULL, NULL);
  gtk_widget_measure(label, orientation, -1, &lmin, &lnat, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL) {
    *minimum = imin + GAP + lmin;
    *natural = *minimum; /* the label's width request decides, not its text */
  } else {
    *minimum = MAX(imin, lmin);
    *natural = MAX(inat, lnat);
  }
}

/* Lays out icon and label, then picks the label's width for the width it was given. */
__attribute__((noinline)) void cause_badge_layout_allocate(GtkLayoutManager *manager,
                                                           GtkWidget *widget, int width,
                                                           int height, int baseline) {
  CauseBadgeLayout *self = CAUSE_BADGE_LAYOUT(manager);
  GtkWidget *icon = gtk_widget_get_first_child(widget);
  GtkWidget *label = gtk_widget_get_next_sibling(icon);
  int icon_w;
  gtk_widget_measure(icon, GTK_ORIENTATION_HORIZONTAL, -1, &icon_w, NULL, NULL, NULL);
  gtk_widget_allocate(icon, icon_w, height, baseline, NULL);
  GskTransform *at = gsk_transform_translate(NULL, &GRAPHENE_POINT_INIT(icon_w + GAP, 0));
  gtk_widget_allocate(label, MAX(0, width - icon_w - GAP), height, baseline, at);
  int want = width >= BREAKPOINT ? COMPACT : FULL;
  cause_note("badge allocated %d wide, label asks for %d", width, want);
  int current;
  gtk_widget_get_size_request(label, &current, NULL);
  if (want == current) return;
  if (getenv("CAUSE_LM_DIRECT")) { /* the experiment: request inside allocate (swallowed) */
    gtk_widget_set_size_request(label, want, -1);
    return;
  }
  self->label = label;
  self->pending_width = want;
  if (!self->apply_source) self->apply_source = g_idle_add(badge_layout_apply_idle, self);
}

static void cause_badge_layout_dispose(GObject *object) {
  CauseBadgeLayout *self = CAUSE_BADGE_LAYOUT(object);
  if (self->apply_source) g_source_remove(self->apply_source);
  self->apply_source = 0;
  G_OBJECT_CLASS(cause_badge_layout_parent_class)->dispose(object);
}

static void cause_badge_layout_class_init(CauseBadgeLayoutClass *klass) {
  GTK_LAYOUT_MANAGER_CLASS(klass)->measure = cause_badge_layout_measure;
  GTK_LAYOUT_MANAGER_CLASS(klass)->allocate = cause_badge_layout_allocate;
  G_OBJECT_CLASS(klass)->dispose = cause_badge_layout_dispose;
}

static void cause_badge_layout_init(CauseBadgeLayout *self) {
  (void)self;
}

/* ---- the widget ---- */
G_DECLARE_FINAL_TYPE(CauseBadgeRow, cause_badge_row, CAUSE, BADGE_ROW, GtkWidget)
struct _CauseBadgeRow {
  GtkWidget parent_instance;
};
G_DEFINE_TYPE(CauseBadgeRow, cause_badge_row, GTK_TYPE_WIDGET)

static void cause_badge_row_dispose(GObject *object) {
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child(GTK_WIDGET(object)))) gtk_widget_unparent(child);
  G_OBJECT_CLASS(cause_badge_row_parent_class)->dispose(object);
}

static void cause_badge_row_class_init(CauseBadgeRowClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = cause_badge_row_dispose;
  gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), cause_badge_layout_get_type());
}

static void cause_badge_row_init(CauseBadgeRow *self) {
  GtkWidget *icon = gtk_image_new_from_icon_name("mail-unread-symbolic");
  gtk_widget_set_size_request(icon, ICON, ICON);
  gtk_widget_set_parent(icon, GTK_WIDGET(self));
  GtkWidget *label = gtk_label_new("3 unread messages from the mailing list");
  gtk_widget_set_name(label, "badge-label");
  gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign(GTK_LABEL(label), 0.0f);
  gtk_widget_set_size_request(label, FULL, -1);
  gtk_widget_set_parent(label, GTK_WIDGET(self));
}

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "layout-manager");
  GtkWidget *window = cause_window_new("main-window", "layout-manager", 400, 60);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *badge = g_object_new(cause_badge_row_get_type(), NULL);
  gtk_widget_set_name(badge, "badge");
  gtk_widget_set_halign(badge, GTK_ALIGN_START);
  cause_box_append(box, badge);
  cause_set_child(window, box);
  return cause_run();
}
