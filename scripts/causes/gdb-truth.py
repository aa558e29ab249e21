# gdb-truth.py — ground truth for the cause corpus from GTK's own allocation function, under gdb.
#
# Counts, per frame of each watched toplevel, the calls of GTK's allocation entry point
# (GTK 3: gtk_widget_size_allocate_with_baseline, which gtk_widget_size_allocate calls; GTK 4:
# gtk_widget_allocate), with gdb breakpoints that GTK's -Bsymbolic internal calls cannot bypass.
# A frame ends at the program's cause_frame_marker(window_index) (causes.h, called from every
# watched window's "after-paint"); the allocations since the previous marker are that window's (a
# frame clock runs its layout and paint phases in one dispatch, so frames of two windows do not
# interleave). Independent of LoopHunter and of the program's own CAUSE_SELFCHECK counting.
#
#   CAUSE_SECONDS=4 xvfb-run -a gdb -q -batch -x scripts/causes/gdb-truth.py --args PROGRAM
#
# Prints one line per watched window, in the order the program created them:
#   gdb-truth: window=I frames=F frames_with_alloc=N allocs=A max_allocs_per_frame=M per_second=a,b,...
# (per_second: frames with at least one allocation in each second of the program's clock, from the
# first frame on; gdb slows the program, so compare rates, not absolute counts).
import time

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set breakpoint pending on")
gdb.execute("set print thread-events off")
gdb.execute("set print inferior-events off")
gdb.execute("handle SIGPIPE nostop noprint pass")

state = {"cur": 0, "t0": None}
windows = {}


class Alloc(gdb.Breakpoint):
    def stop(self):
        state["cur"] += 1
        return False


class Frame(gdb.Breakpoint):
    def stop(self):
        now = time.monotonic()
        if state["t0"] is None:
            state["t0"] = now
        index = int(gdb.parse_and_eval("$rdi")) & 0xFFFFFFFF
        w = windows.setdefault(index, {"frames": 0, "with": 0, "allocs": 0, "max": 0, "per": {}})
        w["frames"] += 1
        w["allocs"] += state["cur"]
        if state["cur"]:
            w["with"] += 1
            sec = int(now - state["t0"])
            w["per"][sec] = w["per"].get(sec, 0) + 1
        w["max"] = max(w["max"], state["cur"])
        state["cur"] = 0
        return False


gdb.execute("break main")
gdb.execute("run")
gdb.execute("delete")
Frame("cause_frame_marker", internal=True)
found = 0
for name in ("gtk_widget_size_allocate_with_baseline", "gtk_widget_allocate"):
    try:
        gdb.parse_and_eval(name)
    except gdb.error:
        continue
    Alloc(name, internal=True)
    found += 1
if not found:
    raise SystemExit("gdb-truth: no GTK allocation function in this program")
gdb.execute("continue")
for index in sorted(windows):
    w = windows[index]
    secs = max(w["per"].keys(), default=-1) + 1
    print("gdb-truth: window=%d frames=%d frames_with_alloc=%d allocs=%d max_allocs_per_frame=%d "
          "per_second=%s" % (index, w["frames"], w["with"], w["allocs"], w["max"],
                             ",".join(str(w["per"].get(s, 0)) for s in range(secs))))
