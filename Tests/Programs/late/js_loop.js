#!/usr/bin/gjs
// js_loop.js [3|4] — a main-loop layout feedback loop in a GTK widget subclass defined in GJS.
//
// JsLoopLabel (a Gtk.Label subclass registered with GObject.registerClass, GType name
// "JsLoopLabel") overrides the size_allocate vfunc (vfunc_size_allocate), chains up with super,
// then schedules an idle (GLib.idle_add) that sets its text from its own allocated width: the
// short text when it was given room for the long one, the long text when it was narrow. The label
// sits in a horizontal box with halign=START, so its allocated width is the natural width of its
// current text: wide -> short -> narrow -> long -> wide ... its size changes in every frame.
//
// Widgets: window "main-window" > box "toolbar" > [button, JsLoopLabel "status"].
// GTK version: first argument 3 or 4, else env LH_GTK=3|4, else 3.
//   xvfb-run -a /usr/bin/gjs js_loop.js 4
// Exits by itself after LH_RUN_SECONDS (default 3) with status 0 and prints one line on stdout:
// "js-gtk3-loop: done" or "js-gtk4-loop: done".
// LH_STATS=1: at exit, one line on stderr: frames (the window's frame clock "after-paint"), status
// allocations, allocations whose width differs from the previous one, texts set by the idle.
const System = imports.system;
const GTK = ARGV[0] || imports.gi.GLib.getenv('LH_GTK') || '3';
if (GTK !== '3' && GTK !== '4') {
    printerr('usage: js_loop.js [3|4]');
    System.exit(2);
}
imports.gi.versions.Gtk = `${GTK}.0`;
const {GLib, GObject, Gtk} = imports.gi;

const NAME = `js-gtk${GTK}-loop`;
const SHORT_TEXT = '3 files';
const LONG_TEXT = 'Synchronising 3 files with the server...';
const RUN_SECONDS = parseFloat(GLib.getenv('LH_RUN_SECONDS') || '3') || 3;
const STATS = !['', '0'].includes(GLib.getenv('LH_STATS') || '');
const stats = {frames: 0, allocs: 0, widthChanges: 0, textsSet: 0};

function textWidth(widget, text) {
    return widget.create_pango_layout(text).get_pixel_size()[0];
}

const JsLoopLabel = GObject.registerClass({
    GTypeName: 'JsLoopLabel',
}, class JsLoopLabel extends Gtk.Label {
    _init(params) {
        super._init(params);
        this._threshold = Math.floor((textWidth(this, SHORT_TEXT) + textWidth(this, LONG_TEXT)) / 2);
        this._pending = null;
        this._idleId = 0;
        this._lastWidth = -1;
    }

    vfunc_size_allocate(...args) {
        // GTK 3: (allocation); GTK 4: (width, height, baseline)
        super.vfunc_size_allocate(...args);
        this._allocated(GTK === '3' ? args[0].width : args[0]);
    }

    _allocated(width) {
        stats.allocs++;
        if (this._lastWidth >= 0 && width !== this._lastWidth)
            stats.widthChanges++;
        this._lastWidth = width;
        // The bug: layout output (the allocated width) feeds back into layout input (the text).
        const want = width >= this._threshold ? SHORT_TEXT : LONG_TEXT;
        if (this.get_text() === want)
            return;
        this._pending = want;
        if (!this._idleId) {
            this._idleId = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, () => {
                this._idleId = 0;
                stats.textsSet++;
                this.set_text(this._pending); // queues a resize for the next frame
                return GLib.SOURCE_REMOVE;
            });
        }
    }

    cancel() {
        if (this._idleId) {
            GLib.source_remove(this._idleId);
            this._idleId = 0;
        }
    }
});

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
        name: 'main-window', title: NAME, default_width: 420, default_height: 60,
    });
    const toolbar = new Gtk.Box({
        name: 'toolbar', orientation: Gtk.Orientation.HORIZONTAL, spacing: 6,
    });
    const status = new JsLoopLabel({
        name: 'status', label: LONG_TEXT, halign: Gtk.Align.START, xalign: 0.0,
    });
    const button = new Gtk.Button({label: 'Sync'});
    if (GTK === '3') {
        toolbar.pack_start(button, false, false, 0);
        toolbar.pack_start(status, false, false, 0);
        window.add(toolbar);
        window.show_all();
    } else {
        toolbar.append(button);
        toolbar.append(status);
        window.set_child(toolbar);
        window.present();
    }

    if (STATS)
        window.get_frame_clock().connect('after-paint', () => stats.frames++);

    const loop = new GLib.MainLoop(null, false);
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, Math.round(RUN_SECONDS * 1000), () => {
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
    status.cancel();
    window.destroy();
    const ctx = GLib.MainContext.default();
    while (ctx.pending())
        ctx.iteration(false);
    if (STATS) {
        printerr(`${NAME}: frames=${stats.frames} status_allocations=${stats.allocs} ` +
            `width_changes=${stats.widthChanges} texts_set=${stats.textsSet}`);
    }
    print(`${NAME}: done`);
}

main();
