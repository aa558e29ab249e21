#!/usr/bin/python3
# LOOPHUNTER-TRUTH: loop widget=GtkLabel,PyPingLabel name=ping,pong cause=deferred function=ping_idle,pong_idle
# py_ping_pong.py — ping_pong.c in Python (PyGObject), GTK 3 or GTK 4 (CAUSE_GTK=3|4).
#
# Two sibling labels change each other's text through idles, forever: when "ping" came out wide,
# ping_idle gives "pong" its compact text; when "pong" came out wide, pong_idle gives "ping" its
# long text; the four states cycle, one per frame. The idles are added from each label's
# allocation: GTK 3 the "size-allocate" signal; GTK 4 a Gtk.Label subclass (PyPingLabel)
# overriding do_size_allocate. Re-requesting functions: ping_idle, pong_idle (Python functions:
# a native stack shows the interpreter's frames, not these names).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import causes_common as c  # noqa: E402
from causes_common import GLib, Gtk  # noqa: E402

PING_LONG = "Connected to mail.example.org over TLS 1.3"
PING_SHORT = "Online"
PONG_LONG = "Receiving 1,204 messages in 3 folders"
PONG_SHORT = "Syncing"


class State:
    ping = pong = None
    ping_threshold = pong_threshold = 0
    ping_source = pong_source = 0
    pong_pending = ping_pending = None


s = State()


def ping_idle():
    s.ping_source = 0
    s.pong.set_text(s.pong_pending)
    return GLib.SOURCE_REMOVE


def pong_idle():
    s.pong_source = 0
    s.ping.set_text(s.ping_pending)
    return GLib.SOURCE_REMOVE


def ping_allocated(width):
    want = PONG_SHORT if width >= s.ping_threshold else PONG_LONG
    if s.pong.get_text() == want:
        return
    s.pong_pending = want
    if not s.ping_source:
        s.ping_source = GLib.idle_add(ping_idle)


def pong_allocated(width):
    want = PING_LONG if width >= s.pong_threshold else PING_SHORT
    if s.ping.get_text() == want:
        return
    s.ping_pending = want
    if not s.pong_source:
        s.pong_source = GLib.idle_add(pong_idle)


if c.GTK == 4:
    class PyPingLabel(Gtk.Label):
        __gtype_name__ = "PyPingLabel"

        def __init__(self, text, on_allocated):
            super().__init__(label=text)
            self.on_allocated = on_allocated

        def do_size_allocate(self, width, height, baseline):
            Gtk.Label.do_size_allocate(self, width, height, baseline)
            self.on_allocated(width)


def main():
    c.init("ping-pong")
    window = c.window_new("main-window", "py ping-pong", 420, 80)
    box = c.box_new(Gtk.Orientation.VERTICAL, 4)
    if c.GTK == 3:
        s.ping, s.pong = Gtk.Label(label=PING_LONG), Gtk.Label(label=PONG_LONG)
        s.ping.connect("size-allocate", lambda w, a: ping_allocated(a.width))
        s.pong.connect("size-allocate", lambda w, a: pong_allocated(a.width))
    else:
        s.ping = PyPingLabel(PING_LONG, ping_allocated)
        s.pong = PyPingLabel(PONG_LONG, pong_allocated)
    s.ping.set_name("ping")
    s.pong.set_name("pong")
    s.ping.set_halign(Gtk.Align.START)
    s.pong.set_halign(Gtk.Align.START)
    s.ping_threshold = (c.text_width(s.ping, PING_LONG) + c.text_width(s.ping, PING_SHORT)) // 2
    s.pong_threshold = (c.text_width(s.pong, PONG_LONG) + c.text_width(s.pong, PONG_SHORT)) // 2
    c.box_append(box, s.ping)
    c.box_append(box, s.pong)
    c.set_child(window, box)
    return c.run()


if __name__ == "__main__":
    sys.exit(main())
