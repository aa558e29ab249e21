#!/usr/bin/env python3
"""Makes a large report directory for the `loophunter report` benchmark from a few real reports.

    make_report_corpus.py SOURCE_DIR OUT_DIR COUNT

Every report of SOURCE_DIR (real preload output, so its frames symbolize against modules on this
machine) is copied COUNT / len(sources) times with a new id, pid, time and file name: the copies
group with their source, so OUT_DIR holds COUNT reports in len(sources) groups.
"""
import json
import os
import sys


def main():
    source, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    reports = []
    for name in sorted(os.listdir(source)):
        if name.startswith("report-"):
            with open(os.path.join(source, name)) as f:
                reports.append(json.load(f))
    if not reports:
        sys.exit(f"make_report_corpus: no report-*.json in {source}")
    os.makedirs(out, mode=0o700, exist_ok=True)
    for i in range(count):
        r = dict(reports[i % len(reports)])
        pid = 100000 + i
        r["id"] = f"{i:016x}-{pid}-1"
        r["time_ns"] = r["time_ns"] + i * 1_000_000
        r["process"] = dict(r["process"], pid=pid)
        r["thread"] = dict(r["thread"], tid=pid)
        with open(os.path.join(out, f"report-{pid}-{i:08x}-000001-{r['kind']}.json"), "w") as f:
            json.dump(r, f, indent=2)


if __name__ == "__main__":
    main()
