/*
 * scenario_healthy.c — `healthy` (CAPPED, ~2.1 s): a busy but correct UI that must never look like
 * a layout loop. Every view is laid out at most once per frame.
 *
 * TkWindow 'main' 320x240
 *   TkBox 'toolbar'              a row: clock, spinner, progress
 *     TkLabel 'clock'            10 Hz timer; its text (and so its width) changes every tick
 *     Spinner 'spinner'          60 Hz animation timer: set_needs_layout, size unchanged
 *     ProgressBar 'progress'     30 Hz: value changes, size unchanged
 *   Revealer 'details'           after the scripted "click reveal": height 0 → 120 over 250 ms
 *   TkLabel 'entry'              a text field: one character per scripted "key X" ("hello")
 *
 * Custom classes and their layout functions: Spinner (healthy_spinner_layout), ProgressBar
 * (healthy_progress_layout), Revealer (healthy_revealer_layout).
 *
 * It ends after exactly 20 clock ticks: the clock timer's 21st firing quits (once the script has
 * been delivered and the reveal has finished, which under normal timing is long done), so the last
 * tick's frame has run and the final tree is settled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define HEALTHY_CLOCK_TICKS 20
#define HEALTHY_REVEAL_HEIGHT 120
#define HEALTHY_REVEAL_MS 250

typedef struct Healthy {
    TkLoop *loop;
    TkView *main, *toolbar, *clock, *spinner, *progress, *details, *entry;
    int clock_ticks;
    int spinner_angle, spinner_drawn_angle;
    int progress_value, progress_fill;     /* value 0..100, fill width in px */
    bool revealing, revealed;
    int64_t reveal_start_ns;
    int details_visible_height;
    char entry_text[32];
    unsigned long input_events;
    bool finished;
} Healthy;

static const TkScriptEvent healthy_script[] = {
    {300, "click reveal"}, {600, "key h"}, {700, "key e"}, {800, "key l"}, {900, "key l"}, {1000, "key o"},
};
#define HEALTHY_SCRIPT_COUNT (sizeof healthy_script / sizeof healthy_script[0])

/* ---- Custom classes ---- */

__attribute__((noinline)) void healthy_spinner_layout(TkView *spinner);
__attribute__((noinline)) void healthy_progress_layout(TkView *progress);
__attribute__((noinline)) void healthy_revealer_layout(TkView *details);

static const TkViewClass healthy_spinner_class = {"Spinner", healthy_spinner_layout};
static const TkViewClass healthy_progress_class = {"ProgressBar", healthy_progress_layout};
static const TkViewClass healthy_revealer_class = {"Revealer", healthy_revealer_layout};

/* A spinner positions its arc for the current angle: no size change, nothing else dirtied. */
__attribute__((noinline)) void healthy_spinner_layout(TkView *spinner) {
    Healthy *h = tk_view_user_data(spinner);
    h->spinner_drawn_angle = h->spinner_angle;
    DEMO_NO_TAIL_CALL();
}

/* The progress bar computes its fill from the value: its own size is constant. */
__attribute__((noinline)) void healthy_progress_layout(TkView *progress) {
    Healthy *h = tk_view_user_data(progress);
    TkRect frame;
    tk_view_get_frame(progress, &frame);
    h->progress_fill = frame.width * h->progress_value / 100;
    DEMO_NO_TAIL_CALL();
}

/* The revealer clips its content to its (animated) height. */
__attribute__((noinline)) void healthy_revealer_layout(TkView *details) {
    Healthy *h = tk_view_user_data(details);
    TkRect frame;
    tk_view_get_frame(details, &frame);
    h->details_visible_height = frame.height;
    DEMO_NO_TAIL_CALL();
}

/* ---- Timers and input ---- */

static bool healthy_clock_tick(void *data) {
    Healthy *h = data;
    if (h->clock_ticks < HEALTHY_CLOCK_TICKS) {
        char text[32];
        demo_clock_text(++h->clock_ticks, text, sizeof text);
        tk_label_set_text(h->clock, text); /* new width: the toolbar lays the row out again */
        return true;
    }
    /* The 21st firing: the last tick's frame has run. Wait for the script and the reveal only if
     * the machine was too slow for them to be over already. */
    if (h->input_events < HEALTHY_SCRIPT_COUNT || !h->revealed) return true;
    h->finished = true;
    tk_loop_quit(h->loop);
    return false;
}

static bool healthy_spinner_tick(void *data) {
    Healthy *h = data;
    h->spinner_angle = (h->spinner_angle + 30) % 360;
    tk_view_set_needs_layout(h->spinner);
    return true;
}

static bool healthy_progress_tick(void *data) {
    Healthy *h = data;
    h->progress_value = (h->progress_value + 1) % 101;
    tk_view_set_needs_layout(h->progress);
    return true;
}

static bool healthy_reveal_step(void *data) {
    Healthy *h = data;
    int64_t elapsed_ms = (demo_now_ns() - h->reveal_start_ns) / 1000000;
    int height = elapsed_ms >= HEALTHY_REVEAL_MS ? HEALTHY_REVEAL_HEIGHT
                                                 : (int)(HEALTHY_REVEAL_HEIGHT * elapsed_ms / HEALTHY_REVEAL_MS);
    TkRect frame;
    tk_view_get_frame(h->details, &frame);
    if (frame.height != height) {
        frame.height = height;
        tk_view_set_frame(h->details, frame);   /* dirties the revealer */
        tk_view_set_needs_layout(h->main);      /* the window restacks what is below it */
    }
    if (height < HEALTHY_REVEAL_HEIGHT) return true;
    h->revealing = false;
    h->revealed = true;
    return false;
}

static void healthy_on_input(const char *event, void *data) {
    Healthy *h = data;
    h->input_events++;
    if (strcmp(event, "click reveal") == 0) {
        if (!h->revealing && !h->revealed) {
            h->revealing = true;
            h->reveal_start_ns = demo_now_ns();
            tk_loop_add_timer(h->loop, 16, healthy_reveal_step, h);
        }
    } else if (strncmp(event, "key ", 4) == 0 && event[4] && !event[5]) {
        size_t len = strlen(h->entry_text);
        if (len + 1 < sizeof h->entry_text) {
            h->entry_text[len] = event[4];
            h->entry_text[len + 1] = '\0';
            tk_label_set_text(h->entry, h->entry_text);
        }
    }
}

/* ---- Scenario ---- */

static TkView *healthy_view(Healthy *h, const TkViewClass *cls, const char *name, TkRect frame) {
    TkView *view = tk_view_new(cls, name);
    tk_view_set_user_data(view, h);
    tk_view_set_frame(view, frame);
    return view;
}

int scenario_healthy(void) {
    Healthy h = {0};
    h.loop = tk_loop_new(TK_LAYOUT_CAPPED);
    h.main = healthy_view(&h, &tk_window_class, "main", (TkRect){0, 0, 320, 240});
    h.toolbar = healthy_view(&h, &tk_box_class, "toolbar", (TkRect){0, 0, 320, 24});
    h.clock = healthy_view(&h, &tk_label_class, "clock", (TkRect){0, 0, 0, 0});
    h.spinner = healthy_view(&h, &healthy_spinner_class, "spinner", (TkRect){0, 0, 16, 16});
    h.progress = healthy_view(&h, &healthy_progress_class, "progress", (TkRect){0, 0, 100, 8});
    h.details = healthy_view(&h, &healthy_revealer_class, "details", (TkRect){0, 0, 0, 0});
    h.entry = healthy_view(&h, &tk_label_class, "entry", (TkRect){0, 0, 0, 20});
    tk_label_set_text(h.clock, "12:00:00");
    tk_view_add_child(h.main, h.toolbar);
    tk_view_add_child(h.toolbar, h.clock);
    tk_view_add_child(h.toolbar, h.spinner);
    tk_view_add_child(h.toolbar, h.progress);
    tk_view_add_child(h.main, h.details);
    tk_view_add_child(h.main, h.entry);
    tk_loop_add_root(h.loop, h.main);

    tk_loop_add_timer(h.loop, 100, healthy_clock_tick, &h);
    tk_loop_add_timer(h.loop, 16, healthy_spinner_tick, &h);
    tk_loop_add_timer(h.loop, 33, healthy_progress_tick, &h);
    if (tk_loop_add_script(h.loop, healthy_script, HEALTHY_SCRIPT_COUNT, healthy_on_input, &h) != 0) {
        perror("toykit-demo: healthy: tk_loop_add_script");
        return 1;
    }
    tk_loop_run(h.loop, DEMO_MAX_RUN_MS);

    TkRect details;
    tk_view_get_frame(h.details, &details);
    printf("healthy: clock ticks=%d text='%s'\n", h.clock_ticks, tk_label_text(h.clock));
    printf("healthy: input events=%lu entry text='%s'\n", tk_loop_stats(h.loop).input_events, tk_label_text(h.entry));
    printf("healthy: revealer height=%d\n", details.height);
    tk_view_dump(h.main);
    int status = h.finished ? 0 : 1;
    tk_loop_free(h.loop);
    tk_view_free(h.main);
    printf("scenario healthy: done\n");
    return status;
}
