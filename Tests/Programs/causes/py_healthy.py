#!/usr/bin/python3
# LOOPHUNTER-TRUTH: healthy
# py_healthy.py — busy but healthy Python (PyGObject) program, GTK 3 or GTK 4 (CAUSE_GTK=3|4).
#
# A throughput readout ("rate", halign=START) rewritten by a 16 ms GLib timeout with a text of
# varying width, a GtkPaned ("splitter") whose position a tick callback animates from the frame
# time, and a label set to the text it already shows every 100 ms. Relayout in nearly every frame,
# all of it driven by the clock or a timer, none by a layout's result. Healthy.
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import causes_common as c  # noqa: E402
from causes_common import GLib, Gtk  # noqa: E402


class State:
    rate = status = None
    ticks = 0


s = State()


def rate_timeout():
    s.ticks += 1
    t = c.elapsed()
    rate = 2e6 * (1.2 + math.sin(t * 3.1) * math.cos(t * 0.7)) * (1 + (s.ticks % 7) * 0.13)
    s.rate.set_text("%.2f MB/s" % (rate / 1e6) if rate > 1e6 else "%.0f kB/s" % (rate / 1e3))
    return GLib.SOURCE_CONTINUE


def status_timeout():
    s.status.set_text("All changes saved")
    return GLib.SOURCE_CONTINUE


def slide_tick(paned, clock):
    t = clock.get_frame_time() / 1e6
    paned.set_position(160 + int(100 * math.sin(t * 2 * math.pi / 2.0)))
    return GLib.SOURCE_CONTINUE


def main():
    c.init("healthy")
    window = c.window_new("main-window", "py healthy", 480, 240)
    box = c.box_new(Gtk.Orientation.VERTICAL, 6)
    s.rate = Gtk.Label(label="0 kB/s")
    s.rate.set_name("rate")
    s.rate.set_halign(Gtk.Align.START)
    c.box_append(box, s.rate)
    s.status = Gtk.Label(label="All changes saved")
    s.status.set_name("status")
    c.box_append(box, s.status)
    paned = Gtk.Paned(orientation=Gtk.Orientation.HORIZONTAL)
    paned.set_name("splitter")
    paned.set_vexpand(True)
    side, main_pane = Gtk.Label(label="Folders\nInbox\nSent"), Gtk.Label(label="Select a message")
    if c.GTK == 3:
        paned.pack1(side, False, False)
        paned.pack2(main_pane, True, False)
        box.pack_start(paned, True, True, 0)
    else:
        paned.set_start_child(side)
        paned.set_end_child(main_pane)
        paned.set_shrink_start_child(False)
        box.append(paned)
    c.set_child(window, box)
    GLib.timeout_add(16, rate_timeout)
    GLib.timeout_add(100, status_timeout)
    paned.add_tick_callback(slide_tick)
    return c.run()


if __name__ == "__main__":
    sys.exit(main())
