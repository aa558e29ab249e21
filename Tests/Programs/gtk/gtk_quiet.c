/* gtk_quiet.c — healthy programs shaped like the real applications on which LoopHunter's detectors
 * once raised false alarms (built for GTK 3 and GTK 4: gtk3-quiet, gtk4-quiet). Each mode runs
 * about 3 s, exits 0 and prints "<mode>: done"; none of them has a bug, except `spin-idle` and
 * `worker-stall`, the bugs the same detectors must still catch next to them.
 *
 *   late-popup     a window made at start-up and first shown 2.5 s later from inside GTK (a GTK 3
 *                  menu popped up, as mousepad's and geany's menus are when the user first opens
 *                  them; and a window shown through its "visible" property, in GTK 3 and 4): its
 *                  time to first frame is from that show, not from start-up (slow-window)
 *   async-tasks    250 GTasks completed in one iteration: GLib runs each callback from a one-shot
 *                  idle of its own, all sharing one function (as GIO's async calls in gtk4-demo),
 *                  and 250 one-shot g_idle_add sources sharing a callback: each fires once
 *                  (timer-storm)
 *   spin-idle      THE BUG: an idle (quiet_poll_idle) returning TRUE 300 times in a row, keeping
 *                  the loop from ever sleeping (timer-storm)
 *   alloc-burst    one 96 MiB burst of allocations in one iteration at 1 s, no layout running (a
 *                  renderer compiling its shaders, icons loaded once), while a 10 Hz clock label
 *                  keeps frames going (alloc-storm)
 *   idle-pool      a thread-pool worker iterates a private GLib context once, then sleeps on a
 *                  condition variable for 2.5 s, waiting for more work (stall)
 *   own-loop       a thread with a loop of its own (as Firefox's) that iterates GLib's context
 *                  without blocking, then waits 700 ms in its own poll(), four times (stall)
 *   worker-stall   THE BUG: a worker thread runs a GMainLoop of its own whose timeout callback
 *                  (quiet_worker_blocks) sleeps 1 s inside the loop (stall, with a short
 *                  LOOPHUNTER_STALL_MS)
 *
 *   gtk3-quiet MODE | gtk4-quiet MODE
 */
#include <gtk/gtk.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GTK_MAJOR_VERSION == 3
#define GTK_WINDOW_TOPLEVEL_ARG GTK_WINDOW_TOPLEVEL
#else
#define GTK_WINDOW_TOPLEVEL_ARG
#endif

static const char *mode;

static gboolean quit_cb(gpointer data) {
    (void)data;
#if GTK_MAJOR_VERSION == 3
    gtk_main_quit();
#else
    *(gboolean *)data = TRUE;
#endif
    return G_SOURCE_REMOVE;
}

/* ---- late-popup ---------------------------------------------------------------------------- */

static GtkWidget *late_window, *main_window;
#if GTK_MAJOR_VERSION == 3
static GtkWidget *menu;
#endif

/* Both shows happen inside libgtk: through the "visible" property and the menu's popup. */
static gboolean late_popup_show(gpointer data) {
    (void)data;
    g_object_set(late_window, "visible", TRUE, NULL);
#if GTK_MAJOR_VERSION == 3
    gtk_menu_popup_at_widget(GTK_MENU(menu), main_window, GDK_GRAVITY_SOUTH_WEST, GDK_GRAVITY_NORTH_WEST, NULL);
#endif
    return G_SOURCE_REMOVE;
}

static gboolean late_popup_hide(gpointer data) {
    (void)data;
#if GTK_MAJOR_VERSION == 3
    gtk_menu_popdown(GTK_MENU(menu));
#endif
    return G_SOURCE_REMOVE;
}

static void late_popup(void) {
    late_window = gtk_window_new(GTK_WINDOW_TOPLEVEL_ARG);
    gtk_window_set_title(GTK_WINDOW(late_window), "Late");
    gtk_window_set_default_size(GTK_WINDOW(late_window), 200, 100);
#if GTK_MAJOR_VERSION == 3
    menu = gtk_menu_new();
    const char *items[] = {"Open", "Save", "Quit"};
    for (size_t i = 0; i < G_N_ELEMENTS(items); i++)
        gtk_menu_shell_append(GTK_MENU_SHELL(menu), gtk_menu_item_new_with_label(items[i]));
    gtk_widget_show_all(menu); /* the items: the menu's own window stays hidden until it pops up */
#endif
    g_timeout_add(2500, late_popup_show, NULL);
    g_timeout_add(3000, late_popup_hide, NULL);
}

/* ---- async-tasks --------------------------------------------------------------------------- */

static int completed, idles_fired;

static void quiet_task_done(GObject *source, GAsyncResult *result, gpointer data) {
    (void)source, (void)data;
    if (g_task_propagate_boolean(G_TASK(result), NULL)) completed++;
}

static gboolean quiet_row_update(gpointer data) {
    (void)data;
    idles_fired++;
    return G_SOURCE_REMOVE;
}

static gboolean async_start(gpointer data) {
    (void)data;
    for (int i = 0; i < 250; i++) {
        GTask *task = g_task_new(NULL, NULL, quiet_task_done, NULL);
        g_task_return_boolean(task, TRUE); /* completed from an idle of its own, next iteration */
        g_object_unref(task);
    }
    for (int i = 0; i < 250; i++) g_idle_add(quiet_row_update, NULL);
    return G_SOURCE_REMOVE;
}

/* ---- spin-idle ----------------------------------------------------------------------------- */

static int spins;

/* THE BUG: polling for a condition from an idle instead of waiting for it. */
__attribute__((noinline)) gboolean quiet_poll_idle(gpointer data) {
    (void)data;
    return ++spins < 300 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean spin_start(gpointer data) {
    (void)data;
    g_idle_add(quiet_poll_idle, NULL);
    return G_SOURCE_REMOVE;
}

/* ---- alloc-burst --------------------------------------------------------------------------- */

static volatile size_t burst_sum;
static GtkWidget *clock_label;
static int clock_ticks;

/* A 10 Hz clock, so that frames go on around the burst (it falls in a frame past the first). */
static gboolean clock_tick(gpointer data) {
    (void)data;
    char text[32];
    snprintf(text, sizeof text, "tick %d", ++clock_ticks);
    gtk_label_set_text(GTK_LABEL(clock_label), text);
    return G_SOURCE_CONTINUE;
}

static gboolean alloc_burst(gpointer data) {
    (void)data;
    enum { BLOCKS = 96 * 16 };
    void **blocks = malloc(BLOCKS * sizeof *blocks);
    for (int i = 0; i < BLOCKS; i++) {
        blocks[i] = malloc(64 * 1024);
        memset(blocks[i], i & 0xff, 64 * 1024);
    }
    for (int i = 0; i < BLOCKS; i++) {
        burst_sum += ((unsigned char *)blocks[i])[i % 4096];
        free(blocks[i]);
    }
    free(blocks);
    return G_SOURCE_REMOVE;
}

/* ---- idle-pool ----------------------------------------------------------------------------- */

static gboolean pool_tick(gpointer data) {
    (void)data;
    return G_SOURCE_REMOVE;
}

static GMutex pool_mutex;
static GCond pool_cond;

/* A task that needs a private context for a moment (as GIO's synchronous calls do), then waits
 * for more work on a condition variable (as a pool's idle worker does), 2.5 s. */
static void pool_task(gpointer item, gpointer data) {
    (void)item, (void)data;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    GSource *source = g_idle_source_new();
    g_source_set_callback(source, pool_tick, NULL, NULL);
    g_source_attach(source, context);
    g_source_unref(source);
    g_main_context_iteration(context, FALSE);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    g_mutex_lock(&pool_mutex);
    gint64 until = g_get_monotonic_time() + 2500 * G_TIME_SPAN_MILLISECOND;
    while (g_cond_wait_until(&pool_cond, &pool_mutex, until)) {
    }
    g_mutex_unlock(&pool_mutex);
}

static GThreadPool *pool;

static void idle_pool(void) {
    pool = g_thread_pool_new(pool_task, NULL, 1, FALSE, NULL);
    g_thread_pool_push(pool, GINT_TO_POINTER(1), NULL);
}

/* ---- own-loop ------------------------------------------------------------------------------ */

static gpointer own_loop(gpointer data) {
    (void)data;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    for (int i = 0; i < 4; i++) {
        while (g_main_context_iteration(context, FALSE)) {
        }
        poll(NULL, 0, 700); /* the loop's own wait, in its own code */
    }
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    return NULL;
}

/* ---- worker-stall -------------------------------------------------------------------------- */

static GMainLoop *worker_loop;

/* THE BUG: a callback of the worker's loop that blocks the loop for a second. */
__attribute__((noinline)) gboolean quiet_worker_blocks(gpointer data) {
    (void)data;
    g_usleep(1000 * 1000);
    g_main_loop_quit(worker_loop);
    return G_SOURCE_REMOVE;
}

static gpointer worker(gpointer data) {
    (void)data;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    worker_loop = g_main_loop_new(context, FALSE);
    GSource *source = g_timeout_source_new(300);
    g_source_set_callback(source, quiet_worker_blocks, NULL, NULL);
    g_source_attach(source, context);
    g_source_unref(source);
    g_main_loop_run(worker_loop);
    g_main_loop_unref(worker_loop);
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    return NULL;
}

/* -------------------------------------------------------------------------------------------- */

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s late-popup|async-tasks|spin-idle|alloc-burst|idle-pool|own-loop|worker-stall\n", argv[0]);
        return 2;
    }
    mode = argv[1];
#if GTK_MAJOR_VERSION == 3
    gtk_init(&argc, &argv);
#else
    gtk_init();
#endif
    main_window = gtk_window_new(GTK_WINDOW_TOPLEVEL_ARG);
    gtk_window_set_title(GTK_WINDOW(main_window), "Quiet");
    gtk_window_set_default_size(GTK_WINDOW(main_window), 320, 200);
    GtkWidget *label = gtk_label_new("quiet");
#if GTK_MAJOR_VERSION == 3
    gtk_container_add(GTK_CONTAINER(main_window), label);
    gtk_widget_show_all(main_window);
#else
    gtk_window_set_child(GTK_WINDOW(main_window), label);
    gtk_window_present(GTK_WINDOW(main_window));
#endif

    GThread *thread = NULL;
    if (strcmp(mode, "late-popup") == 0) {
        late_popup();
    } else if (strcmp(mode, "async-tasks") == 0) {
        g_timeout_add(500, async_start, NULL);
    } else if (strcmp(mode, "spin-idle") == 0) {
        g_timeout_add(500, spin_start, NULL);
    } else if (strcmp(mode, "alloc-burst") == 0) {
        clock_label = label;
        g_timeout_add(100, clock_tick, NULL);
        g_timeout_add(1000, alloc_burst, NULL);
    } else if (strcmp(mode, "idle-pool") == 0) {
        idle_pool();
    } else if (strcmp(mode, "own-loop") == 0) {
        thread = g_thread_new("own-loop", own_loop, NULL);
    } else if (strcmp(mode, "worker-stall") == 0) {
        thread = g_thread_new("worker", worker, NULL);
    } else {
        fprintf(stderr, "%s: unknown mode %s\n", argv[0], mode);
        return 2;
    }

#if GTK_MAJOR_VERSION == 3
    g_timeout_add(3500, quit_cb, NULL);
    gtk_main();
#else
    gboolean done = FALSE;
    g_timeout_add(3500, quit_cb, &done);
    while (!done) g_main_context_iteration(NULL, TRUE);
#endif
    if (thread != NULL) g_thread_join(thread);
    if (strcmp(mode, "async-tasks") == 0) printf("async-tasks: %d tasks, %d idles\n", completed, idles_fired);
    if (strcmp(mode, "spin-idle") == 0) printf("spin-idle: %d polls\n", spins);
    printf("%s: done\n", mode);
    return 0;
}
