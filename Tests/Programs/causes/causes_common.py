# causes_common.py — what the Python (PyGObject) programs of the cause corpus share.
#
# GTK 3 or GTK 4, chosen by CAUSE_GTK (3, the default, or 4) before gi loads Gtk. Mirrors causes.h:
#   init("ping-pong")            the program's name becomes "py-gtk3-ping-pong" or
#                                "py-gtk4-ping-pong"
#   window_new(name, title, w, h), box_new, box_append, set_child   one spelling for both GTKs
#   run()                        shows the windows, runs CAUSE_SECONDS (default 6), quits, prints
#                                "<prog>: done", returns 0
#   elapsed()                    seconds since run() started
# CAUSE_SELFCHECK=1 prints, per toplevel, the same "selfcheck: window=... frames=...
# frames_with_layout=... layouts=... seconds=... per_second=... user_cpu=..." line as the C
# programs, counted from the window's GdkFrameClock ("layout" and "after-paint").
import os
import resource
import sys
import time

import gi

GTK = 4 if os.environ.get("CAUSE_GTK", "3") == "4" else 3
gi.require_version("Gtk", "%d.0" % GTK)
gi.require_version("Gdk", "%d.0" % GTK)
from gi.repository import GLib, Gtk, Pango  # noqa: E402

_prog = "py"
_seconds = 6.0
_selfcheck = 0
_windows = []
_start = None
_done = False


def init(name):
    global _prog, _seconds, _selfcheck
    _prog = "py-gtk%d-%s" % (GTK, name)
    GLib.set_prgname(_prog)
    try:
        v = float(os.environ.get("CAUSE_SECONDS", "6"))
        if 0 < v <= 120:
            _seconds = v
    except ValueError:
        pass
    _selfcheck = int(os.environ.get("CAUSE_SELFCHECK", "0") or 0)
    if GTK == 3:
        Gtk.init(sys.argv)
    else:
        Gtk.init()


def elapsed():
    return 0.0 if _start is None else time.monotonic() - _start


def note(text):
    if _selfcheck >= 2:
        sys.stderr.write("note: t=%.3f %s\n" % (elapsed(), text))


class _Watch:
    def __init__(self, window, name):
        self.window, self.name, self.clock = window, name, None
        self.frames = self.frames_with_layout = self.layouts = self.frame_layouts = 0
        self.per_second = [0] * 120
        window.connect_after("realize", self.on_realize)

    def on_realize(self, window):
        if self.clock is None:
            self.clock = window.get_frame_clock()
            self.clock.connect("layout", self.on_layout)
            self.clock.connect_after("after-paint", self.on_after_paint)

    def on_layout(self, clock):
        self.frame_layouts += 1
        self.layouts += 1

    def on_after_paint(self, clock):
        self.frames += 1
        if self.frame_layouts:
            self.frames_with_layout += 1
            t = elapsed()
            if _start is not None and 0 <= t < 120:
                self.per_second[int(t)] += 1
        if _selfcheck >= 2:
            sys.stderr.write("selfcheck: window=%s frame %d layouts=%d t=%.3f\n"
                             % (self.name, self.frames, self.frame_layouts, elapsed()))
        self.frame_layouts = 0


def window_new(name, title, width, height):
    window = Gtk.Window() if GTK == 4 else Gtk.Window(type=Gtk.WindowType.TOPLEVEL)
    window.set_name(name)
    window.set_title(title)
    window.set_default_size(width, height)
    _windows.append(_Watch(window, name))
    return window


def box_new(orientation, spacing):
    return Gtk.Box(orientation=orientation, spacing=spacing)


def box_append(box, child):
    if GTK == 3:
        box.pack_start(child, False, False, 0)
    else:
        box.append(child)


def set_child(parent, child):
    if GTK == 3:
        parent.add(child)
    else:
        parent.set_child(child)


def text_width(label, text):
    layout = label.create_pango_layout(text)
    return layout.get_pixel_size()[0]


def _stop():
    global _done
    _done = True
    GLib.MainContext.default().wakeup()
    return GLib.SOURCE_REMOVE


def run():
    global _start
    _start = time.monotonic()
    for w in _windows:
        if GTK == 3:
            w.window.show_all()
        else:
            w.window.present()
    GLib.timeout_add(int(_seconds * 1000), _stop)
    ctx = GLib.MainContext.default()
    while not _done:
        ctx.iteration(True)
    if _selfcheck:
        user = resource.getrusage(resource.RUSAGE_SELF).ru_utime
        seconds = elapsed()
        for w in _windows:
            print("selfcheck: window=%s frames=%d frames_with_layout=%d layouts=%d seconds=%.2f "
                  "per_second=%s user_cpu=%.2f"
                  % (w.name, w.frames, w.frames_with_layout, w.layouts, seconds,
                     ",".join(str(n) for n in w.per_second[:min(int(seconds), 120)]), user))
    for w in _windows:
        if w.clock is not None:
            w.clock.disconnect_by_func(w.on_layout)
            w.clock.disconnect_by_func(w.on_after_paint)
        w.window.destroy()
    print("%s: done" % _prog)
    sys.stdout.flush()
    return 0
