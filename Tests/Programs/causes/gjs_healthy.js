#!/usr/bin/gjs
// LOOPHUNTER-TRUTH: healthy
// gjs_healthy.js — busy but healthy GJS program, GTK 3 or GTK 4 (CAUSE_GTK=3|4).
//
// A GtkRevealer ("details") toggled every 600 ms (500 ms slide transitions), a spinner, a label
// set to the text it already shows by a 50 ms timer, and a stopwatch label rewritten from a tick
// callback every frame (varying width). Relayout in nearly every frame, driven by timers, the
// frame clock and GTK's transitions, none by a layout's result. Healthy.
imports.searchPath.unshift(imports.gi.GLib.path_get_dirname(imports.system.programInvocationName));
const C = imports.causes_common;
const {Gtk, GLib} = C;

C.init('healthy');
const window = C.windowNew('main-window', 'gjs healthy', 360, 220);
const box = C.boxNew(Gtk.Orientation.VERTICAL, 6);
const stopwatch = new Gtk.Label({label: '0.000 s'});
stopwatch.set_name('stopwatch');
stopwatch.set_halign(Gtk.Align.START);
C.boxAppend(box, stopwatch);
const status = new Gtk.Label({label: 'All changes saved'});
status.set_name('status');
C.boxAppend(box, status);
const spinner = new Gtk.Spinner();
spinner.set_name('spinner');
spinner.start();
C.boxAppend(box, spinner);
const revealer = new Gtk.Revealer();
revealer.set_name('details');
revealer.set_transition_type(Gtk.RevealerTransitionType.SLIDE_DOWN);
revealer.set_transition_duration(500);
C.setChild(revealer,
    new Gtk.Label({label: 'Saved to ~/Downloads\nSource: example.org\nChecksum OK'}));
C.boxAppend(box, revealer);
C.setChild(window, box);

GLib.timeout_add(GLib.PRIORITY_DEFAULT, 600, () => {
    revealer.set_reveal_child(!revealer.get_reveal_child());
    return GLib.SOURCE_CONTINUE;
});
GLib.timeout_add(GLib.PRIORITY_DEFAULT, 50, () => {
    status.set_text('All changes saved');
    return GLib.SOURCE_CONTINUE;
});
stopwatch.add_tick_callback((widget, clock) => {
    const t = C.elapsed();
    const minutes = Math.floor(t / 60);
    stopwatch.set_text(`${minutes} min ${(t % 60).toFixed(3)} s (frame ${clock.get_frame_counter()})`);
    return GLib.SOURCE_CONTINUE;
});
C.run();
