// LOOPHUNTER-TRUTH: loop widget=GtkLabel name=ping,pong cause=deferred function=ping_idle,pong_idle
/* ping_pong.c — two sibling labels that change each other's text through idles, forever.
 *
 * A header with two status labels, "ping" (a connection summary) and "pong" (a transfer summary).
 * Each picks its wording from the other's width so that the pair "balances": when ping came out
 * wide, pong switches to its compact text; when pong came out wide, ping switches to its long
 * text. The reaction runs in an idle added from the label's allocation handler (GTK 3: the
 * "size-allocate" signal; GTK 4: the app's CauseBin around each label), because GTK ignores a
 * resize queued inside size-allocate. The four states cycle: (long, long) -> pong compact ->
 * ping compact -> pong long -> ping long -> ..., one step per frame, a text and a size change in
 * every frame. Re-requesting functions: ping_idle (sets pong's text), pong_idle (sets ping's).
 */
#include "causes.h"

#define PING_LONG "Connected to mail.example.org over TLS 1.3"
#define PING_SHORT "Online"
#define PONG_LONG "Receiving 1,204 messages in 3 folders"
#define PONG_SHORT "Syncing"

static GtkWidget *ping, *pong;
static int ping_threshold, pong_threshold;
static const char *pong_pending, *ping_pending;
static guint ping_source, pong_source;

/* ping was laid out: schedule pong's wording. */
__attribute__((noinline)) gboolean ping_idle(gpointer data) {
  (void)data;
  ping_source = 0;
  gtk_label_set_text(GTK_LABEL(pong), pong_pending);
  return G_SOURCE_REMOVE;
}

/* pong was laid out: schedule ping's wording. */
__attribute__((noinline)) gboolean pong_idle(gpointer data) {
  (void)data;
  pong_source = 0;
  gtk_label_set_text(GTK_LABEL(ping), ping_pending);
  return G_SOURCE_REMOVE;
}

static void ping_allocated(int width) {
  const char *want = width >= ping_threshold ? PONG_SHORT : PONG_LONG;
  if (strcmp(gtk_label_get_text(GTK_LABEL(pong)), want) == 0) return;
  pong_pending = want;
  if (!ping_source) ping_source = g_idle_add(ping_idle, NULL);
}

static void pong_allocated(int width) {
  const char *want = width >= pong_threshold ? PING_LONG : PING_SHORT;
  if (strcmp(gtk_label_get_text(GTK_LABEL(ping)), want) == 0) return;
  ping_pending = want;
  if (!pong_source) pong_source = g_idle_add(pong_idle, NULL);
}

#if GTK_MAJOR_VERSION == 3
static void on_ping_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  ping_allocated(a->width);
}
static void on_pong_size_allocate(GtkWidget *w, GtkAllocation *a, gpointer d) {
  (void)w, (void)d;
  pong_allocated(a->width);
}
#else
static void on_ping_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)height, (void)d;
  ping_allocated(width);
}
static void on_pong_bin_allocated(GtkWidget *bin, int width, int height, gpointer d) {
  (void)bin, (void)height, (void)d;
  pong_allocated(width);
}
#endif

int main(int argc, char **argv) {
  cause_init(&argc, &argv, "ping-pong");
  GtkWidget *window = cause_window_new("main-window", "ping-pong", 420, 80);
  GtkWidget *box = cause_box_new(GTK_ORIENTATION_VERTICAL, 4);
  ping = gtk_label_new(PING_LONG);
  pong = gtk_label_new(PONG_LONG);
  gtk_widget_set_name(ping, "ping");
  gtk_widget_set_name(pong, "pong");
  ping_threshold = (cause_text_width(ping, PING_LONG) + cause_text_width(ping, PING_SHORT)) / 2;
  pong_threshold = (cause_text_width(pong, PONG_LONG) + cause_text_width(pong, PONG_SHORT)) / 2;
#if GTK_MAJOR_VERSION == 3
  gtk_widget_set_halign(ping, GTK_ALIGN_START);
  gtk_widget_set_halign(pong, GTK_ALIGN_START);
  g_signal_connect(ping, "size-allocate", G_CALLBACK(on_ping_size_allocate), NULL);
  g_signal_connect(pong, "size-allocate", G_CALLBACK(on_pong_size_allocate), NULL);
  cause_box_append(box, ping);
  cause_box_append(box, pong);
#else
  GtkWidget *ping_bin = cause_bin_new(ping, on_ping_bin_allocated, NULL);
  GtkWidget *pong_bin = cause_bin_new(pong, on_pong_bin_allocated, NULL);
  gtk_widget_set_halign(ping_bin, GTK_ALIGN_START);
  gtk_widget_set_halign(pong_bin, GTK_ALIGN_START);
  cause_box_append(box, ping_bin);
  cause_box_append(box, pong_bin);
#endif
  cause_set_child(window, box);
  return cause_run();
}
