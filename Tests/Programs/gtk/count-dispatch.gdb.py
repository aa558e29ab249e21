# count-dispatch.gdb.py — counts, with gdb breakpoints, how often GTK itself dispatches the layout
# vfuncs for each counted widget of a LoopHunter GTK test program, and prints those counts beside
# the program's own ground truth (its lh_counted[] table) for comparison. Independent of LoopHunter
# and of the program's counters: the breakpoints sit on GTK's dispatch sites, not in the program.
#
#   xvfb-run -a gdb -q -batch -x Tests/Programs/gtk/count-dispatch.gdb.py --args PROGRAM
#
# Dispatch sites are instruction offsets inside exported GTK functions of the exact builds measured
# (Debian 12: libgtk-3-0 3.24.38-2~deb12u3, libgtk-4-1 4.8.3+ds-2+deb12u1); the script checks
# each site's instruction before trusting it and stops if the build differs.
#   GTK 4: gtk_widget_allocate   → call *0xc8(%rax)  (GtkWidgetClass.size_allocate, widget in rdi)
#                                → call gtk_layout_manager_allocate (widget in rsi)
#          gtk_widget_measure    → 2× call *0xe8(%rax) (GtkWidgetClass.measure, widget in rdi)
#                                → 3× call gtk_layout_manager_measure (widget in rsi)
#            (the static query-size function is inlined into gtk_widget_measure)
#   GTK 3: gtk_widget_size_allocate_with_baseline → call *0xd8(%rax) (vfunc, widget in rdi)
#                                → call g_signal_emit (the "size-allocate" path, instance in rdi)
#          the static gtk_widget_query_size_for_orientation (it follows
#          gtk_widget_get_preferred_height) → call *0x140/0x148/0x138/0x130/0x300×2 (rdi)
# A count is one dispatch by GTK's size machinery. The program counts outer calls of its subclass's
# vfuncs; the two agree unless a widget calls its own class's vfunc directly (none here does).
import gdb

SITES = {
    4: [  # (function, offset, expected instruction text, kind, register)
        ("gtk_widget_allocate", 0x3109bf - 0x310100, "call   *0xc8(%rax)", "alloc", "rdi"),
        ("gtk_widget_allocate", 0x310896 - 0x310100, "gtk_layout_manager_allocate", "alloc", "rsi"),
        ("gtk_widget_measure", 0x260a2a - 0x25f480, "call   *0xe8(%rax)", "measure", "rdi"),
        ("gtk_widget_measure", 0x260b7a - 0x25f480, "call   *0xe8(%rax)", "measure", "rdi"),
        ("gtk_widget_measure", 0x260144 - 0x25f480, "gtk_layout_manager_measure", "measure", "rsi"),
        ("gtk_widget_measure", 0x26019e - 0x25f480, "gtk_layout_manager_measure", "measure", "rsi"),
        ("gtk_widget_measure", 0x260a74 - 0x25f480, "gtk_layout_manager_measure", "measure", "rsi"),
    ],
    3: [
        ("gtk_widget_size_allocate_with_baseline", 0x374e99 - 0x374b90, "call   *0xd8(%rax)", "alloc", "rdi"),
        ("gtk_widget_size_allocate_with_baseline", 0x375112 - 0x374b90, "g_signal_emit", "alloc", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b2e9f - 0x2b2c70, "call   *0x140(%rax)", "measure", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b2f71 - 0x2b2c70, "call   *0x148(%rax)", "measure", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b31b2 - 0x2b2c70, "call   *0x138(%rax)", "measure", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b3290 - 0x2b2c70, "call   *0x130(%rax)", "measure", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b334d - 0x2b2c70, "call   *0x300(%rax)", "measure", "rdi"),
        ("gtk_widget_get_preferred_height", 0x2b33ad - 0x2b2c70, "call   *0x300(%rax)", "measure", "rdi"),
    ],
}

counts = {}
hits = {}


class Site(gdb.Breakpoint):
    def __init__(self, addr, kind, reg):
        super().__init__("*%#x" % addr, internal=True)
        self.kind, self.reg, self.addr = kind, reg, addr

    def stop(self):
        w = int(gdb.parse_and_eval("$" + self.reg))
        counts[(self.kind, w)] = counts.get((self.kind, w), 0) + 1
        hits[self.addr] = hits.get(self.addr, 0) + 1
        return False


class Finish(gdb.Breakpoint):
    def stop(self):
        n = int(gdb.parse_and_eval("lh_ncounted"))
        bad = 0
        print("count-dispatch: %-12s %-14s %21s %21s" % ("widget", "type", "size_allocate gdb/own", "measure gdb/own"))
        for i in range(n):
            c = gdb.parse_and_eval("lh_counted[%d]" % i)
            w = int(c["widget"])
            ga, gm = counts.get(("alloc", w), 0), counts.get(("measure", w), 0)
            oa, om = int(c["allocs"]), int(c["measures"])
            bad += (ga != oa) + (gm != om)
            print("count-dispatch: %-12s %-14s %10d/%-10d %10d/%-10d%s" % (
                c["name"].string(), c["type_name"].string(), ga, oa, gm, om,
                "" if (ga, gm) == (oa, om) else "  MISMATCH"))
        print("count-dispatch: %d mismatching counts; site hits (all widgets): %s" % (
            bad, ", ".join("%#x=%d" % (a, h) for a, h in sorted(hits.items()))))
        return False


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set print thread-events off")
gdb.execute("break main")
gdb.execute("run")
major = int(gdb.parse_and_eval("(int)gtk_get_major_version()"))
for fn, off, expect, kind, reg in SITES[major]:
    base = int(gdb.parse_and_eval("(long)&%s" % fn))
    insn = gdb.execute("x/i %#x" % (base + off), to_string=True)
    if expect not in insn:
        raise gdb.GdbError("count-dispatch: %s+%#x is not '%s' in this GTK build: %s" % (fn, off, expect, insn.strip()))
    Site(base + off, kind, reg)
Finish("lh_truth_finish")
gdb.execute("delete 1")
gdb.execute("continue")
