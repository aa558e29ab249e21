#!/usr/bin/env python3
"""cpu_time.py OUT COMMAND...: runs COMMAND (its output discarded) and writes the CPU time it used
(user + system seconds, its waited-for children included) to the file OUT. Exits with COMMAND's
status. The benchmarks use it to compare CPU time with and without the preload."""
import os
import subprocess
import sys

if len(sys.argv) < 3:
    sys.exit("usage: cpu_time.py OUT COMMAND...")
with open(os.devnull, "wb") as null:
    child = subprocess.Popen(sys.argv[2:], stdout=null, stderr=null)
    _, status, usage = os.wait4(child.pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(f"{usage.ru_utime + usage.ru_stime:.4f}\n")
sys.exit(os.waitstatus_to_exitcode(status))
