#!/usr/bin/python3
"""py_loop.py 3|4 — a main-loop layout feedback loop in a GTK widget subclass defined in Python.

PyLoopLabel (a Gtk.Label subclass registered by PyGObject, GType name "PyLoopLabel") overrides
the size_allocate vfunc (do_size_allocate), chains up to Gtk.Label's, then schedules an idle
(GLib.idle_add) that sets its text from its own allocated width: the short text when it was given
room for the long one, the long text when it was narrow. The label sits in a horizontal box with
halign=START, so its allocated width is the natural width of its current text: wide -> short ->
narrow -> long -> wide ... its size changes in every frame until the program exits.

Widgets: window "main-window" > box "toolbar" > [button, PyLoopLabel "status"].
Run with /usr/bin/python3 (the system python that has PyGObject), e.g.
    xvfb-run -a /usr/bin/python3 py_loop.py 3
Exits by itself after LH_RUN_SECONDS (default 3) with status 0 and prints one line on stdout:
"py-gtk3-loop: done" or "py-gtk4-loop: done".
LH_STATS=1: at exit, one line on stderr: frames (the window's frame clock "after-paint"), status
allocations, allocations whose width differs from the previous one, texts set by the idle.
"""
import os
import sys

if len(sys.argv) != 2 or sys.argv[1] not in ("3", "4"):
    sys.stderr.write("usage: py_loop.py 3|4\n")
    sys.exit(2)
GTK = int(sys.argv[1])

import gi  # noqa: E402

gi.require_version("Gtk", "%d.0" % GTK)
from gi.repository import GLib, GObject, Gtk  # noqa: E402

NAME = "py-gtk%d-loop" % GTK
SHORT_TEXT = "3 files"
LONG_TEXT = "Synchronising 3 files with the server..."
RUN_SECONDS = float(os.environ.get("LH_RUN_SECONDS") or 3)
STATS = os.environ.get("LH_STATS", "") not in ("", "0")
stats = {"frames": 0, "allocs": 0, "width_changes": 0, "texts_set": 0}


def text_width(widget, text):
    return widget.create_pango_layout(text).get_pixel_size()[0]


class PyLoopLabel(Gtk.Label):
    __gtype_name__ = "PyLoopLabel"

    def __init__(self, **kw):
        super().__init__(**kw)
        self.threshold = (text_width(self, SHORT_TEXT) + text_width(self, LONG_TEXT)) // 2
        self.pending = None
        self.idle_id = 0
        self.last_width = None

    if GTK == 3:
        def do_size_allocate(self, allocation):
            Gtk.Label.do_size_allocate(self, allocation)
            self.allocated(allocation.width)
    else:
        def do_size_allocate(self, width, height, baseline):
            Gtk.Label.do_size_allocate(self, width, height, baseline)
            self.allocated(width)

    def allocated(self, width):
        stats["allocs"] += 1
        if self.last_width is not None and width != self.last_width:
            stats["width_changes"] += 1
        self.last_width = width
        # The bug: layout output (the allocated width) feeds back into layout input (the text).
        want = SHORT_TEXT if width >= self.threshold else LONG_TEXT
        if self.get_text() == want:
            return
        self.pending = want
        if not self.idle_id:
            self.idle_id = GLib.idle_add(self.apply_text)

    def apply_text(self):
        self.idle_id = 0
        stats["texts_set"] += 1
        self.set_text(self.pending)  # queues a resize for the next frame
        return GLib.SOURCE_REMOVE

    def cancel(self):
        if self.idle_id:
            GLib.source_remove(self.idle_id)
            self.idle_id = 0


def main():
    if GTK == 3:
        Gtk.init(sys.argv[:1])
    else:
        GLib.set_prgname(NAME)
        Gtk.init()
    window = Gtk.Window(title=NAME, default_width=420, default_height=60)
    window.set_name("main-window")
    toolbar = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    toolbar.set_name("toolbar")
    status = PyLoopLabel(label=LONG_TEXT, halign=Gtk.Align.START, xalign=0.0)
    status.set_name("status")
    button = Gtk.Button(label="Sync")
    if GTK == 3:
        toolbar.pack_start(button, False, False, 0)
        toolbar.pack_start(status, False, False, 0)
        window.add(toolbar)
        window.show_all()
    else:
        toolbar.append(button)
        toolbar.append(status)
        window.set_child(toolbar)
        window.present()

    if STATS:
        def after_paint(clock):
            stats["frames"] += 1
        window.get_frame_clock().connect("after-paint", after_paint)

    loop = GLib.MainLoop()

    def stop():
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.timeout_add(int(RUN_SECONDS * 1000), stop)
    loop.run()
    status.cancel()
    window.destroy()
    ctx = GLib.MainContext.default()
    while ctx.pending():
        ctx.iteration(False)
    if STATS:
        sys.stderr.write("%s: frames=%d status_allocations=%d width_changes=%d texts_set=%d\n" % (
            NAME, stats["frames"], stats["allocs"], stats["width_changes"], stats["texts_set"]))
    print("%s: done" % NAME, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
