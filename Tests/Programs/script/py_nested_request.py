#!/usr/bin/python3
# py_nested_request.py — a Python layout loop whose request is made three Python calls deep, the
# innermost in a generator: ScriptStackTests checks that the report's script stack names
# StatusView._updates (the generator that calls set_text / set_attributes) at the very line, then
# StatusView.refresh, then refresh_idle.
#
# A label's allocation (GTK 3 "size-allocate"; GTK 4 a Gtk.Label subclass overriding
# do_size_allocate) adds an idle; the idle asks a StatusView to refresh, which advances a generator
# that re-sets the label's identical text (GTK 3 queues a resize anyway) and on GTK 4 re-applies its
# attributes (always queues a resize). One relayout per frame, forever. CAUSE_GTK=3|4,
# CAUSE_SECONDS as the cause corpus's programs.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "causes"))
import causes_common as c  # noqa: E402
from causes_common import GLib, Gtk, Pango  # noqa: E402


class StatusView:
    def __init__(self, label):
        self.label = label
        self.source = 0
        self.updates = self._updates()

    def _updates(self):
        while True:
            self.label.set_text("Saved")  # LINE-OF-REQUEST (GTK 3)
            if c.GTK == 4:
                self.label.set_attributes(Pango.AttrList())  # LINE-OF-REQUEST (GTK 4)
            yield

    def refresh(self):
        next(self.updates)

    def allocated(self):
        if not self.source:
            self.source = GLib.idle_add(refresh_idle, self)


def refresh_idle(view):
    view.source = 0
    view.refresh()
    return GLib.SOURCE_REMOVE


if c.GTK == 4:
    class NestedLabel(Gtk.Label):
        __gtype_name__ = "NestedLabel"
        view = None

        def do_size_allocate(self, width, height, baseline):
            Gtk.Label.do_size_allocate(self, width, height, baseline)
            self.view.allocated()


def main():
    c.init("nested-request")
    window = c.window_new("main-window", "py nested request", 300, 60)
    label = Gtk.Label(label="Saved") if c.GTK == 3 else NestedLabel(label="Saved")
    label.set_name("status")
    view = StatusView(label)
    if c.GTK == 3:
        label.connect("size-allocate", lambda w, a: view.allocated())
    else:
        label.view = view
    c.set_child(window, label)
    return c.run()


if __name__ == "__main__":
    sys.exit(main())
