#!/usr/bin/python3
"""py_healthy.py 3|4 — a busy but correct GTK UI written in Python: no layout feedback loop.

What keeps it busy: PyClockLabel (a Gtk.Label subclass registered by PyGObject, GType name
"PyClockLabel", whose do_size_allocate only chains up) shows a 10 Hz recording clock whose text
width changes on every tick (a blinking "REC " marker), a spinning Gtk.Spinner, a Gtk.ProgressBar
at 10 Hz (pulsed during the first second, then filled in steps), and a Gtk.Revealer (slide-down,
250 ms) revealed at 0.5 s and hidden again at 1.5 s. Every change comes from a timer or an
animation, never from layout.

Widgets: window "main-window" > box "content" (vertical) >
  [box "toolbar" > [spinner "spinner", PyClockLabel "clock", progress bar "progress"],
   revealer "details" > label "details-text"].
Run with /usr/bin/python3, e.g.  xvfb-run -a /usr/bin/python3 py_healthy.py 4
Exits by itself after LH_RUN_SECONDS (default 3) with status 0 and prints one line on stdout:
"py-gtk3-healthy: done" or "py-gtk4-healthy: done".
LH_STATS=1: at exit, one line on stderr: frames (the window's frame clock "after-paint"), clock
allocations, allocations whose width differs from the previous one, timer ticks.
"""
import os
import sys

if len(sys.argv) != 2 or sys.argv[1] not in ("3", "4"):
    sys.stderr.write("usage: py_healthy.py 3|4\n")
    sys.exit(2)
GTK = int(sys.argv[1])

import gi  # noqa: E402

gi.require_version("Gtk", "%d.0" % GTK)
from gi.repository import GLib, Gtk  # noqa: E402

NAME = "py-gtk%d-healthy" % GTK
RUN_SECONDS = float(os.environ.get("LH_RUN_SECONDS") or 3)
TICK_MS = 100
STATS = os.environ.get("LH_STATS", "") not in ("", "0")
stats = {"frames": 0, "allocs": 0, "width_changes": 0, "last_width": None}


def count_alloc(width):
    stats["allocs"] += 1
    if stats["last_width"] is not None and width != stats["last_width"]:
        stats["width_changes"] += 1
    stats["last_width"] = width


class PyClockLabel(Gtk.Label):
    """A label with a Python size_allocate override that only chains up (and counts)."""
    __gtype_name__ = "PyClockLabel"

    if GTK == 3:
        def do_size_allocate(self, allocation):
            Gtk.Label.do_size_allocate(self, allocation)
            count_alloc(allocation.width)
    else:
        def do_size_allocate(self, width, height, baseline):
            Gtk.Label.do_size_allocate(self, width, height, baseline)
            count_alloc(width)


def main():
    if GTK == 3:
        Gtk.init(sys.argv[:1])
    else:
        GLib.set_prgname(NAME)
        Gtk.init()
    window = Gtk.Window(title=NAME, default_width=420, default_height=120)
    window.set_name("main-window")
    content = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    content.set_name("content")
    toolbar = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    toolbar.set_name("toolbar")
    spinner = Gtk.Spinner()
    spinner.set_name("spinner")
    clock = PyClockLabel(label="0:00.0", halign=Gtk.Align.START)
    clock.set_name("clock")
    progress = Gtk.ProgressBar(hexpand=True, valign=Gtk.Align.CENTER)
    progress.set_name("progress")
    progress.set_pulse_step(0.1)
    revealer = Gtk.Revealer(transition_type=Gtk.RevealerTransitionType.SLIDE_DOWN,
                            transition_duration=250)
    revealer.set_name("details")
    details = Gtk.Label(label="3 files synchronised, 0 conflicts")
    details.set_name("details-text")

    if GTK == 3:
        toolbar.pack_start(spinner, False, False, 0)
        toolbar.pack_start(clock, False, False, 0)
        toolbar.pack_start(progress, True, True, 0)
        revealer.add(details)
        content.pack_start(toolbar, False, False, 0)
        content.pack_start(revealer, False, False, 0)
        window.add(content)
        spinner.start()
        window.show_all()
    else:
        toolbar.append(spinner)
        toolbar.append(clock)
        toolbar.append(progress)
        revealer.set_child(details)
        content.append(toolbar)
        content.append(revealer)
        window.set_child(content)
        spinner.start()
        window.present()

    ticks = [0]

    def tick():
        ticks[0] += 1
        t = ticks[0]
        # elapsed time with a blinking "REC" marker: every tick changes the label's width
        clock.set_text("%s%d:%02d.%d" % ("REC " if t % 2 else "", t // 600, t // 10 % 60, t % 10))
        # first second: pulse (activity mode); afterwards: fill in steps
        if t <= 10:
            progress.pulse()
        else:
            progress.set_fraction((t % 20) / 20.0)
        return GLib.SOURCE_CONTINUE

    def toggle_revealer():
        revealer.set_reveal_child(not revealer.get_reveal_child())
        return GLib.SOURCE_REMOVE

    if STATS:
        def after_paint(clock):
            stats["frames"] += 1
        window.get_frame_clock().connect("after-paint", after_paint)

    loop = GLib.MainLoop()

    def stop():
        loop.quit()
        return GLib.SOURCE_REMOVE

    tick_id = GLib.timeout_add(TICK_MS, tick)
    GLib.timeout_add(500, toggle_revealer)
    GLib.timeout_add(1500, toggle_revealer)
    GLib.timeout_add(int(RUN_SECONDS * 1000), stop)
    loop.run()
    GLib.source_remove(tick_id)
    spinner.stop()
    window.destroy()
    ctx = GLib.MainContext.default()
    while ctx.pending():
        ctx.iteration(False)
    if STATS:
        sys.stderr.write("%s: frames=%d clock_allocations=%d width_changes=%d ticks=%d\n" % (
            NAME, stats["frames"], stats["allocs"], stats["width_changes"], ticks[0]))
    print("%s: done" % NAME, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
