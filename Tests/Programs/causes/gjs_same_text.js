#!/usr/bin/gjs
// LOOPHUNTER-TRUTH: loop widget=GtkLabel,GjsSameTextLabel name=status cause=deferred function=refreshStatusIdle
// gjs_same_text.js — same_text.c in JavaScript (GJS), GTK 3 or GTK 4 (CAUSE_GTK=3|4).
//
// A path label elided by hand to its width is refreshed after every layout from an idle added in
// its allocation (GTK 3 "size-allocate"; GTK 4 a Gtk.Label subclass overriding
// vfunc_size_allocate). The text is identical every time; GTK 3 queues a resize anyway, and in
// GTK 4 (which ignores identical text) the refresh also re-applies the bold attributes, which
// always queues a resize. One relayout per frame, forever, no size change.
// Re-requesting function: refreshStatusIdle (a JavaScript function).
imports.searchPath.unshift(imports.gi.GLib.path_get_dirname(imports.system.programInvocationName));
const C = imports.causes_common;
const {Gtk, GLib, Pango} = C;
const GObject = imports.gi.GObject;

const FULL_PATH = '/home/ada/Projects/loophunter/Tests/Programs/causes/gjs_same_text.js';

let status, source = 0, lastWidth = 0;

function elideMiddle(label, text, width) {
    let out = text;
    let keep = text.length;
    while (keep > 8 && C.textWidth(label, out) > width) {
        keep--;
        const head = Math.floor(keep / 3);
        out = `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`;
    }
    return out;
}

function refreshStatusIdle() {
    source = 0;
    const text = elideMiddle(status, FULL_PATH, lastWidth);
    status.set_text(text); // GTK 3: queues a resize even when equal
    if (C.GTK === 4) {
        const attrs = new Pango.AttrList();
        const bold = Pango.attr_weight_new(Pango.Weight.BOLD);
        const encoder = new TextEncoder();
        bold.start_index = encoder.encode(text.slice(0, text.lastIndexOf('/') + 1)).length;
        bold.end_index = encoder.encode(text).length;
        attrs.insert(bold);
        status.set_attributes(attrs); // GTK 4: always queues a resize
    }
    return GLib.SOURCE_REMOVE;
}

function statusAllocated(width) {
    lastWidth = width;
    if (!source)
        source = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, refreshStatusIdle);
}

C.init('same-text');
const window = C.windowNew('main-window', 'gjs same-text', 360, 60);
const box = C.boxNew(Gtk.Orientation.HORIZONTAL, 6);
C.boxAppend(box, new Gtk.Label({label: 'Folder:'}));
if (C.GTK === 3) {
    status = new Gtk.Label({label: FULL_PATH});
    status.connect('size-allocate', (w, a) => statusAllocated(a.width));
} else {
    const GjsSameTextLabel = GObject.registerClass({GTypeName: 'GjsSameTextLabel'},
        class GjsSameTextLabel extends Gtk.Label {
            vfunc_size_allocate(width, height, baseline) {
                super.vfunc_size_allocate(width, height, baseline);
                statusAllocated(width);
            }
        });
    status = new GjsSameTextLabel({label: FULL_PATH});
}
status.set_name('status');
status.set_xalign(0.0);
status.set_size_request(260, -1);
status.set_ellipsize(Pango.EllipsizeMode.END);
C.boxAppend(box, status);
C.setChild(window, box);
C.run();
