# count-requests.gdb.py — ground truth for LoopHunter's layout-request counts, independent of how it
# sees them: gdb breakpoints on GTK's request entry points themselves (gtk_widget_queue_resize,
# gtk_widget_queue_resize_no_redraw (GTK 3), gtk_widget_queue_allocate), which every request passes
# through, GTK's internal callers included (a breakpoint is on the function's code, not its PLT).
# Run the program under the preload in the same gdb session, then compare these counts with the
# summary's `causes.entries` of that run:
#
#   xvfb-run -a gdb -q -batch -x Tests/Programs/gtk/count-requests.gdb.py \
#       --args env LD_PRELOAD=$PWD/.build/release/libloophunter.so LOOPHUNTER_DIR=/tmp/lh PROGRAM ARGS
#
# (`env` execs the program: gdb follows the exec.) Prints one line per entry point at exit:
#   requests: gtk_widget_queue_resize=N gtk_widget_queue_resize_no_redraw=N gtk_widget_queue_allocate=N
# Only calls whose widget argument is not NULL are counted (GTK's g_return_if_fail rejects NULL
# before anything else, and so does LoopHunter's view of the call).
import gdb

ENTRIES = ["gtk_widget_queue_resize", "gtk_widget_queue_resize_no_redraw", "gtk_widget_queue_allocate"]
counts = {name: 0 for name in ENTRIES}


class Counter(gdb.Breakpoint):
    def __init__(self, name):
        super().__init__(name, internal=True)
        self.silent = True
        self.entry = name

    def stop(self):
        if int(gdb.parse_and_eval("$rdi")) != 0:
            counts[self.entry] += 1
        return False


def report(event):
    print("requests: " + " ".join("%s=%d" % (n, counts[n]) for n in ENTRIES), flush=True)


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set breakpoint pending on")
gdb.execute("set follow-exec-mode same")
gdb.execute("handle SIGPIPE nostop noprint pass")
gdb.execute("set print thread-events off")
gdb.execute("set print inferior-events off")
for name in ENTRIES:
    Counter(name)
gdb.events.exited.connect(report)
gdb.execute("run")
