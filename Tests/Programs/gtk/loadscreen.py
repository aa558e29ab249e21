# loadscreen.py — a program that shows its window, then loads its data outside its event loop,
# letting the window repaint between the steps: one g_main_context_iteration(may_block=FALSE) per
# step, as Qt's processEvents() (FocusWriter decodes its background images so). Each step allocates
# and frees 100 MiB. Then a second of the ordinary loop. Prints "loadscreen: done". Healthy: no
# memory alarm. Usage: python3 loadscreen.py [STEPS] (default 5); GTK 3 through PyGObject.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

window = Gtk.Window(title="loading")
window.add(Gtk.Label(label="Loading..."))
window.show_all()
context = GLib.MainContext.default()
for step in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
    context.iteration(False)
    data = bytearray(100 << 20)
    del data
GLib.timeout_add(1000, Gtk.main_quit)
Gtk.main()
print("loadscreen: done")
