#!/usr/bin/gjs
// js_healthy.js [3|4] — a busy but correct GTK UI written in GJS: no layout feedback loop.
//
// What keeps it busy: JsClockLabel (a Gtk.Label subclass registered with GObject.registerClass,
// GType name "JsClockLabel", whose vfunc_size_allocate only chains up with super) shows a 10 Hz
// recording clock whose text width changes on every tick (a blinking "REC " marker), a spinning
// Gtk.Spinner, a Gtk.ProgressBar at 10 Hz (pulsed during the first second, then filled in steps),
// and a Gtk.Revealer (slide-down, 250 ms) revealed at 0.5 s and hidden again at 1.5 s. Every
// change comes from a timer or an animation, never from layout.
//
// Widgets: window "main-window" > box "content" (vertical) >
//   [box "toolbar" > [spinner "spinner", JsClockLabel "clock", progress bar "progress"],
//    revealer "details" > label "details-text"].
// GTK version: first argument 3 or 4, else env LH_GTK=3|4, else 3.
//   xvfb-run -a /usr/bin/gjs js_healthy.js 4
// Exits by itself after LH_RUN_SECONDS (default 3) with status 0 and prints one line on stdout:
// "js-gtk3-healthy: done" or "js-gtk4-healthy: done".
// LH_STATS=1: at exit, one line on stderr: frames (the window's frame clock "after-paint"), clock
// allocations, allocations whose width differs from the previous one, timer ticks.
const System = imports.system;
const GTK = ARGV[0] || imports.gi.GLib.getenv('LH_GTK') || '3';
if (GTK !== '3' && GTK !== '4') {
    printerr('usage: js_healthy.js [3|4]');
    System.exit(2);
}
imports.gi.versions.Gtk = `${GTK}.0`;
const {GLib, GObject, Gtk} = imports.gi;

const NAME = `js-gtk${GTK}-healthy`;
const RUN_SECONDS = parseFloat(GLib.getenv('LH_RUN_SECONDS') || '3') || 3;
const TICK_MS = 100;
const STATS = !['', '0'].includes(GLib.getenv('LH_STATS') || '');
const stats = {frames: 0, allocs: 0, widthChanges: 0, lastWidth: -1};

const JsClockLabel = GObject.registerClass({
    GTypeName: 'JsClockLabel',
}, class JsClockLabel extends Gtk.Label {
    vfunc_size_allocate(...args) {
        // GTK 3: (allocation); GTK 4: (width, height, baseline). Only chains up (and counts).
        super.vfunc_size_allocate(...args);
        const width = GTK === '3' ? args[0].width : args[0];
        stats.allocs++;
        if (stats.lastWidth >= 0 && width !== stats.lastWidth)
            stats.widthChanges++;
        stats.lastWidth = width;
    }
});

function pad2(n) {
    return n < 10 ? `0${n}` : `${n}`;
}

function main() {
    if (GTK === '3') {
        Gtk.init(null);
    } else {
        GLib.set_prgname(NAME);
        Gtk.init();
    }
    // Widget names go in the "name" construct property: in GJS on GTK 3, widget.set_name() is
    // Gtk.Buildable.set_name (the interface method shadows Gtk.Widget.set_name), which does not
    // set the widget's name.
    const window = new Gtk.Window({
        name: 'main-window', title: NAME, default_width: 420, default_height: 120,
    });
    const content = new Gtk.Box({
        name: 'content', orientation: Gtk.Orientation.VERTICAL, spacing: 6,
    });
    const toolbar = new Gtk.Box({
        name: 'toolbar', orientation: Gtk.Orientation.HORIZONTAL, spacing: 6,
    });
    const spinner = new Gtk.Spinner({name: 'spinner'});
    const clock = new JsClockLabel({name: 'clock', label: '0:00.0', halign: Gtk.Align.START});
    const progress = new Gtk.ProgressBar({name: 'progress', hexpand: true, valign: Gtk.Align.CENTER});
    progress.set_pulse_step(0.1);
    const revealer = new Gtk.Revealer({
        name: 'details',
        transition_type: Gtk.RevealerTransitionType.SLIDE_DOWN,
        transition_duration: 250,
    });
    const details = new Gtk.Label({name: 'details-text', label: '3 files synchronised, 0 conflicts'});

    if (GTK === '3') {
        toolbar.pack_start(spinner, false, false, 0);
        toolbar.pack_start(clock, false, false, 0);
        toolbar.pack_start(progress, true, true, 0);
        revealer.add(details);
        content.pack_start(toolbar, false, false, 0);
        content.pack_start(revealer, false, false, 0);
        window.add(content);
        spinner.start();
        window.show_all();
    } else {
        toolbar.append(spinner);
        toolbar.append(clock);
        toolbar.append(progress);
        revealer.set_child(details);
        content.append(toolbar);
        content.append(revealer);
        window.set_child(content);
        spinner.start();
        window.present();
    }

    let ticks = 0;
    const tickId = GLib.timeout_add(GLib.PRIORITY_DEFAULT, TICK_MS, () => {
        ticks++;
        const t = ticks;
        // elapsed time with a blinking "REC" marker: every tick changes the label's width
        clock.set_text(`${t % 2 ? 'REC ' : ''}${Math.floor(t / 600)}:${pad2(Math.floor(t / 10) % 60)}.${t % 10}`);
        // first second: pulse (activity mode); afterwards: fill in steps
        if (t <= 10)
            progress.pulse();
        else
            progress.set_fraction((t % 20) / 20.0);
        return GLib.SOURCE_CONTINUE;
    });
    const toggle = () => {
        revealer.set_reveal_child(!revealer.get_reveal_child());
        return GLib.SOURCE_REMOVE;
    };
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 500, toggle);
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 1500, toggle);

    if (STATS)
        window.get_frame_clock().connect('after-paint', () => stats.frames++);

    const loop = new GLib.MainLoop(null, false);
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.round(RUN_SECONDS * 1000), () => {
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
    GLib.source_remove(tickId);
    spinner.stop();
    window.destroy();
    const ctx = GLib.MainContext.default();
    while (ctx.pending())
        ctx.iteration(false);
    if (STATS) {
        printerr(`${NAME}: frames=${stats.frames} clock_allocations=${stats.allocs} ` +
            `width_changes=${stats.widthChanges} ticks=${ticks}`);
    }
    print(`${NAME}: done`);
}

main();
