// causes_common.js — what the GJS programs of the cause corpus share (legacy imports).
//
// GTK 3 or GTK 4, chosen by CAUSE_GTK (3, the default, or 4) before Gtk is imported. Mirrors
// causes.h and causes_common.py:
//   init('ping-pong')            the program's name becomes "gjs-gtk3-ping-pong" / "gjs-gtk4-..."
//   windowNew(name, title, w, h), boxNew, boxAppend, setChild, textWidth
//   run()                        shows the windows, runs CAUSE_SECONDS (default 6), quits, prints
//                                "<prog>: done", returns 0
//   elapsed()                    seconds since run() started
// CAUSE_SELFCHECK=1 prints, per toplevel, the same "selfcheck: ..." line as the C programs
// (user_cpu from /proc/self/stat).
/* exported GTK, Gtk, GLib, Pango, init, elapsed, note, windowNew, boxNew, boxAppend, setChild,
   textWidth, run */
var GTK = GLib_getenv('CAUSE_GTK') === '4' ? 4 : 3;
imports.gi.versions.Gtk = `${GTK}.0`;
imports.gi.versions.Gdk = `${GTK}.0`;
var Gtk = imports.gi.Gtk;
var GLib = imports.gi.GLib;
var Pango = imports.gi.Pango;

function GLib_getenv(name) {
    return imports.gi.GLib.getenv(name);
}

let prog = 'gjs';
let seconds = 6.0;
let selfcheck = 0;
const windows = [];
let start = null;
let done = false;

function init(name) {
    prog = `gjs-gtk${GTK}-${name}`;
    GLib.set_prgname(prog);
    const v = parseFloat(GLib.getenv('CAUSE_SECONDS') || '6');
    if (v > 0 && v <= 120)
        seconds = v;
    selfcheck = parseInt(GLib.getenv('CAUSE_SELFCHECK') || '0') || 0;
    if (GTK === 3)
        Gtk.init(null);
    else
        Gtk.init();
}

function elapsed() {
    return start === null ? 0.0 : (GLib.get_monotonic_time() - start) / 1e6;
}

function note(text) {
    if (selfcheck >= 2)
        printerr(`note: t=${elapsed().toFixed(3)} ${text}`);
}

function windowNew(name, title, width, height) {
    const window = GTK === 4 ? new Gtk.Window() : new Gtk.Window({type: Gtk.WindowType.TOPLEVEL});
    window.set_name(name);
    window.set_title(title);
    window.set_default_size(width, height);
    const w = {window, name, clock: null, ids: [], frames: 0, framesWithLayout: 0, layouts: 0,
        frameLayouts: 0, perSecond: new Array(120).fill(0)};
    window.connect_after('realize', () => {
        if (w.clock)
            return;
        w.clock = window.get_frame_clock();
        w.ids.push(w.clock.connect('layout', () => {
            w.frameLayouts++;
            w.layouts++;
        }));
        w.ids.push(w.clock.connect_after('after-paint', () => {
            w.frames++;
            if (w.frameLayouts) {
                w.framesWithLayout++;
                const t = elapsed();
                if (start !== null && t >= 0 && t < 120)
                    w.perSecond[Math.floor(t)]++;
            }
            if (selfcheck >= 2)
                printerr(`selfcheck: window=${w.name} frame ${w.frames} ` +
                    `layouts=${w.frameLayouts} t=${elapsed().toFixed(3)}`);
            w.frameLayouts = 0;
        }));
    });
    windows.push(w);
    return window;
}

function boxNew(orientation, spacing) {
    return new Gtk.Box({orientation, spacing});
}

function boxAppend(box, child) {
    if (GTK === 3)
        box.pack_start(child, false, false, 0);
    else
        box.append(child);
}

function setChild(parent, child) {
    if (GTK === 3)
        parent.add(child);
    else
        parent.set_child(child);
}

function textWidth(label, text) {
    return label.create_pango_layout(text).get_pixel_size()[0];
}

function userCpu() {
    const [ok, bytes] = GLib.file_get_contents('/proc/self/stat');
    if (!ok)
        return 0;
    const stat = new TextDecoder().decode(bytes);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return parseInt(fields[11]) / 100; // utime, in clock ticks (USER_HZ = 100)
}

function run() {
    start = GLib.get_monotonic_time();
    for (const w of windows) {
        if (GTK === 3)
            w.window.show_all();
        else
            w.window.present();
    }
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.round(seconds * 1000), () => {
        done = true;
        GLib.MainContext.default().wakeup();
        return GLib.SOURCE_REMOVE;
    });
    const ctx = GLib.MainContext.default();
    while (!done)
        ctx.iteration(true);
    if (selfcheck) {
        const s = elapsed();
        for (const w of windows) {
            print(`selfcheck: window=${w.name} frames=${w.frames} ` +
                `frames_with_layout=${w.framesWithLayout} ` +
                `layouts=${w.layouts} seconds=${s.toFixed(2)} ` +
                `per_second=${w.perSecond.slice(0, Math.min(Math.floor(s), 120)).join(',')} ` +
                `user_cpu=${userCpu().toFixed(2)}`);
        }
    }
    for (const w of windows) {
        if (w.clock)
            w.ids.forEach(id => w.clock.disconnect(id));
        w.window.destroy();
    }
    print(`${prog}: done`);
    return 0;
}
