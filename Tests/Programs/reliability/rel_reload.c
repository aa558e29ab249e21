/*
 * rel_reload.c — lh-rel-reload ROUNDS [LIBTOYKIT]: a toolkit loaded as a plug-in, used, unloaded
 * and loaded again (a host that opens its UI module on demand, a test runner, a plug-in reload).
 * It links only libc (and libdl), never libtoykit: each round
 *   1. dlopens libtoykit.so (argv[2], else $LH_TOYKIT, else /work/main/.build/release/libtoykit.so)
 *      with RTLD_NOW|RTLD_LOCAL and takes every toykit function it uses with dlsym;
 *   2. builds a TK_LAYOUT_UNCAPPED loop with a TkWindow whose child, a "ReloadView" named
 *      'reload-<round>', re-marks itself from its own layout until it was laid out 150 times: 150
 *      layouts in one iteration (one layout-storm report per round under LoopHunter), then a few
 *      quiet iterations (a 2 ms timer that quits at its third tick); the loop runs from a call
 *      site of its own per round (16 of them, then they repeat), so that each round's breach has
 *      its own fingerprint and is reported (one report per fingerprint per process);
 *      LH_RELOAD_ONE_SITE=1: one call site for all rounds (one report, the rest suppressed: the
 *      fingerprint must not change with the address libtoykit is loaded at);
 *   3. frees the loop and the views and dlcloses libtoykit; checks with dlopen(RTLD_NOLOAD) and
 *      dladdr that it is really gone;
 *   4. before the next round, dlopens another library (libz, libm, ...; kept open) and reserves
 *      one page where libtoykit was mapped, so that the next round's libtoykit lies elsewhere.
 * LoopHunter must find the new copy's layout entry point and its poll() call site each round (the
 * caller of poll() identifies iterations), name the view in each report, and never call into the
 * unmapped copy.
 *
 * stdout: "reload <round>: layouts=<n>" per round (n: the ReloadView's layouts, 150) and
 * "reload: done"; where libtoykit was mapped, whether it was unloaded and whether it moved go to
 * stderr. Exit status 0; 1 when libtoykit cannot be loaded or a symbol is missing, 2 for bad
 * arguments.
 *
 * Run as: LD_PRELOAD=libloophunter.so LOOPHUNTER_DIR=DIR lh-rel-reload 3 [path/to/libtoykit.so]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "toykit.h" /* types and prototypes only: nothing of libtoykit is linked */

#define STORM_LAYOUTS 150

/* The toykit functions a round uses, looked up in the round's copy of the library. */
typedef struct Toykit {
    void *handle;
    __typeof__(tk_view_new) *view_new;
    __typeof__(tk_view_free) *view_free;
    __typeof__(tk_view_add_child) *view_add_child;
    __typeof__(tk_view_set_frame) *view_set_frame;
    __typeof__(tk_view_set_needs_layout) *view_set_needs_layout;
    __typeof__(tk_view_user_data) *view_user_data;
    __typeof__(tk_view_set_user_data) *view_set_user_data;
    __typeof__(tk_loop_new) *loop_new;
    __typeof__(tk_loop_free) *loop_free;
    __typeof__(tk_loop_add_root) *loop_add_root;
    __typeof__(tk_loop_add_timer) *loop_add_timer;
    __typeof__(tk_loop_run) *loop_run;
    __typeof__(tk_loop_quit) *loop_quit;
    __typeof__(tk_loop_stats) *loop_stats;
    const TkViewClass *window_class;
} Toykit;

static Toykit tk; /* the current round's; layout and timer callbacks use it */

static void *need(const char *name) {
    dlerror();
    void *p = dlsym(tk.handle, name);
    if (!p) {
        const char *err = dlerror();
        fprintf(stderr, "reload: dlsym %s: %s\n", name, err ? err : "not found");
        exit(1);
    }
    return p;
}

static void load(const char *path) {
    tk.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!tk.handle) {
        fprintf(stderr, "reload: dlopen %s: %s\n", path, dlerror());
        exit(1);
    }
    tk.view_new = need("tk_view_new");
    tk.view_free = need("tk_view_free");
    tk.view_add_child = need("tk_view_add_child");
    tk.view_set_frame = need("tk_view_set_frame");
    tk.view_set_needs_layout = need("tk_view_set_needs_layout");
    tk.view_user_data = need("tk_view_user_data");
    tk.view_set_user_data = need("tk_view_set_user_data");
    tk.loop_new = need("tk_loop_new");
    tk.loop_free = need("tk_loop_free");
    tk.loop_add_root = need("tk_loop_add_root");
    tk.loop_add_timer = need("tk_loop_add_timer");
    tk.loop_run = need("tk_loop_run");
    tk.loop_quit = need("tk_loop_quit");
    tk.loop_stats = need("tk_loop_stats");
    tk.window_class = need("tk_window_class");
}

/* ---- one round ------------------------------------------------------------------------------ */

typedef struct Round {
    TkLoop *loop;
    int layouts;
    int ticks;
} Round;

/* The ReloadView re-marks itself until it was laid out STORM_LAYOUTS times: the uncapped pass lays
 * it out again and again within one iteration. */
__attribute__((noinline)) static void reload_layout(TkView *view) {
    Round *r = tk.view_user_data(view);
    if (++r->layouts < STORM_LAYOUTS) tk.view_set_needs_layout(view);
    __asm__ volatile("" ::: "memory"); /* no tail call: this frame stays on the stack */
}

static const TkViewClass reload_class = {"ReloadView", reload_layout};

static bool reload_tick(void *data) {
    Round *r = data;
    if (++r->ticks < 3) return true;
    tk.loop_quit(r->loop);
    return false;
}

/* A fingerprint (kind, hook, type, module names and offsets of the top 8 frames) is reported once
 * per process (LOOPHUNTER_THROTTLE_SECS=0), and every copy of libtoykit has the same offsets: each
 * round runs its loop from its own call site (run_via_<k>), so that each round's breach is
 * reported. LH_RELOAD_ONE_SITE=1 runs every round from the same site instead: then a single report
 * is expected (the same fingerprint at every address), the other rounds counted as suppressed. */
typedef void (*Runner)(TkLoop *loop);
#define RUNNER(k)                                                                                  \
    __attribute__((noinline)) static void run_via_##k(TkLoop *loop) {                              \
        tk.loop_run(loop, 5000 + (k));                                                             \
        __asm__ volatile("" ::: "memory");                                                         \
    }
RUNNER(0) RUNNER(1) RUNNER(2) RUNNER(3) RUNNER(4) RUNNER(5) RUNNER(6) RUNNER(7)
RUNNER(8) RUNNER(9) RUNNER(10) RUNNER(11) RUNNER(12) RUNNER(13) RUNNER(14) RUNNER(15)
#undef RUNNER
static const Runner runners[] = {run_via_0,  run_via_1,  run_via_2,  run_via_3, run_via_4,  run_via_5,
                                 run_via_6,  run_via_7,  run_via_8,  run_via_9, run_via_10, run_via_11,
                                 run_via_12, run_via_13, run_via_14, run_via_15};
#define RUNNERS ((int)(sizeof runners / sizeof runners[0]))
static bool one_site;

__attribute__((noinline)) static int run_round(int round) {
    Round r = {0};
    char name[32];
    snprintf(name, sizeof name, "reload-%d", round);
    r.loop = tk.loop_new(TK_LAYOUT_UNCAPPED);
    TkView *window = tk.view_new(tk.window_class, "reload-window");
    TkView *view = tk.view_new(&reload_class, name);
    tk.view_set_user_data(view, &r);
    tk.view_set_frame(window, (TkRect){0, 0, 200, 100});
    tk.view_add_child(window, view);
    tk.loop_add_root(r.loop, window); /* new views are dirty: laid out in the first iteration */
    tk.loop_add_timer(r.loop, 2, reload_tick, &r);
    runners[one_site ? 0 : (round - 1) % RUNNERS](r.loop);
    TkLoopStats stats = tk.loop_stats(r.loop);
    fprintf(stderr, "reload %d: toykit layouts=%lu iterations=%lu passes=%lu\n", round, stats.layouts,
            stats.iterations, stats.layout_passes);
    tk.loop_free(r.loop);
    tk.view_free(window);
    return r.layouts;
}

/* ---- where libtoykit lies ------------------------------------------------------------------- */

static uintptr_t base_of(void *symbol, char *path, size_t path_size) {
    Dl_info info;
    if (!dladdr(symbol, &info) || !info.dli_fbase) return 0;
    if (path) snprintf(path, path_size, "%s", info.dli_fname ? info.dli_fname : "?");
    return (uintptr_t)info.dli_fbase;
}

/* Other libraries to load between rounds (the first not loaded yet is taken). */
static const char *const others[] = {"libz.so.1", "libm.so.6", "libresolv.so.2", "libutil.so.1",
                                     "libanl.so.1", "liblzma.so.5", "libbz2.so.1.0", "libcrypt.so.1"};

static void load_another(int round) {
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        void *h = dlopen(others[i], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (h) { /* already there: it would not take new room */
            dlclose(h);
            continue;
        }
        h = dlopen(others[i], RTLD_NOW | RTLD_LOCAL);
        if (h) { /* kept open on purpose */
            fprintf(stderr, "reload %d: loaded %s (kept)\n", round, others[i]);
            return;
        }
    }
    fprintf(stderr, "reload %d: no other library to load\n", round);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    int rounds = argc >= 2 ? atoi(argv[1]) : 0;
    if (argc < 2 || argc > 3 || rounds < 1) {
        fprintf(stderr, "usage: lh-rel-reload ROUNDS [LIBTOYKIT] (see the comment at the top of rel_reload.c)\n");
        return 2;
    }
    const char *path = argc == 3 ? argv[2] : getenv("LH_TOYKIT");
    if (!path || !*path) path = "/work/main/.build/release/libtoykit.so";

    const char *site = getenv("LH_RELOAD_ONE_SITE");
    one_site = site && strcmp(site, "1") == 0;

    uintptr_t previous = 0;
    for (int round = 1; round <= rounds; round++) {
        load(path);
        char where[4096];
        uintptr_t base = base_of((void *)tk.loop_run, where, sizeof where);
        fprintf(stderr, "reload %d: %s at %#lx%s\n", round, where, (unsigned long)base,
                round == 1 ? "" : base == previous ? " (same address as before)" : " (moved)");

        int layouts = run_round(round);
        printf("reload %d: layouts=%d\n", round, layouts);

        void *old_symbol = (void *)tk.loop_run;
        if (dlclose(tk.handle) != 0) fprintf(stderr, "reload %d: dlclose: %s\n", round, dlerror());
        memset(&tk, 0, sizeof tk);
        /* Really unloaded? RTLD_NOLOAD finds it only if something still holds it. */
        void *still = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        Dl_info info;
        bool mapped = dladdr(old_symbol, &info) && info.dli_fname && strstr(info.dli_fname, "toykit");
        fprintf(stderr, "reload %d: after dlclose: %s\n", round,
                still ? "STILL LOADED (someone holds a reference)"
                      : mapped ? "not loadable by name but still mapped" : "unloaded");
        if (still) dlclose(still);
        previous = base;

        if (round < rounds) {
            load_another(round);
            /* One page where libtoykit's first segment was (a hint, not MAP_FIXED): the next copy
             * cannot start at the same address. Kept. */
            if (!still) {
                void *page = mmap((void *)base, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
                if (page != (void *)base) {
                    fprintf(stderr, "reload %d: could not reserve %#lx\n", round, (unsigned long)base);
                    if (page != MAP_FAILED) munmap(page, (size_t)sysconf(_SC_PAGESIZE));
                }
            }
        }
    }
    printf("reload: done\n");
    return 0;
}
