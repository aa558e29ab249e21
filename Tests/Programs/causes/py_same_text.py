#!/usr/bin/python3
# LOOPHUNTER-TRUTH: loop widget=GtkLabel,PySameTextLabel name=status cause=deferred function=refresh_status_idle
# py_same_text.py — same_text.c in Python (PyGObject), GTK 3 or GTK 4 (CAUSE_GTK=3|4).
#
# A path label elided by hand to its width is refreshed after every layout from an idle added in
# its allocation (GTK 3 "size-allocate"; GTK 4 a Gtk.Label subclass overriding do_size_allocate).
# The width never changes, so the text is identical every time; GTK 3 queues a resize anyway, and
# in GTK 4 (which ignores identical text) the refresh also re-applies the bold attributes, which
# always queues a resize. One relayout per frame, forever, no size change.
# Re-requesting function: refresh_status_idle (a Python function).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import causes_common as c  # noqa: E402
from causes_common import GLib, Gtk, Pango  # noqa: E402

FULL_PATH = "/home/ada/Projects/loophunter/Tests/Programs/causes/py_same_text.py"


class State:
    status = None
    source = 0
    width = 0


s = State()


def elide_middle(label, text, width):
    out = text
    keep = len(text)
    while keep > 8 and c.text_width(label, out) > width:
        keep -= 1
        head = keep // 3
        out = text[:head] + "…" + text[len(text) - (keep - head):]
    return out


def refresh_status_idle():
    s.source = 0
    text = elide_middle(s.status, FULL_PATH, s.width)
    s.status.set_text(text)  # GTK 3: queues a resize even when equal
    if c.GTK == 4:
        attrs = Pango.AttrList()
        bold = Pango.attr_weight_new(Pango.Weight.BOLD)
        start = len(text[: text.rfind("/") + 1].encode())
        bold.start_index, bold.end_index = start, len(text.encode())
        attrs.insert(bold)
        s.status.set_attributes(attrs)  # GTK 4: always queues a resize
    return GLib.SOURCE_REMOVE


def status_allocated(width):
    s.width = width
    if not s.source:
        s.source = GLib.idle_add(refresh_status_idle)


if c.GTK == 4:
    class PySameTextLabel(Gtk.Label):
        __gtype_name__ = "PySameTextLabel"

        def do_size_allocate(self, width, height, baseline):
            Gtk.Label.do_size_allocate(self, width, height, baseline)
            status_allocated(width)


def main():
    c.init("same-text")
    window = c.window_new("main-window", "py same-text", 360, 60)
    box = c.box_new(Gtk.Orientation.HORIZONTAL, 6)
    c.box_append(box, Gtk.Label(label="Folder:"))
    s.status = Gtk.Label(label=FULL_PATH) if c.GTK == 3 else PySameTextLabel(label=FULL_PATH)
    s.status.set_name("status")
    s.status.set_xalign(0.0)
    s.status.set_size_request(260, -1)
    s.status.set_ellipsize(Pango.EllipsizeMode.END)
    if c.GTK == 3:
        s.status.connect("size-allocate", lambda w, a: status_allocated(a.width))
    c.box_append(box, s.status)
    c.set_child(window, box)
    return c.run()


if __name__ == "__main__":
    sys.exit(main())
