#!/usr/bin/env python3
"""corpus-table.py — the table of scripts/causes/run-corpus.sh, from its runs file.

Usage: corpus-table.py RUNS.tsv SECONDS DBUS(0|1) PRELOAD
RUNS.tsv: one run a line, NAME<TAB>SOURCE<TAB>DIR<TAB>PLAIN_RC<TAB>PRELOAD_RC<TAB>START_NS, where
DIR holds plain.out, preload.out and reports/ (the LOOPHUNTER_DIR of the preloaded run).

Reads the raw report files (schema loophunter/report; any minor version) and the summary, and
the truth line of each program's source, and prints a Markdown table and the totals. A loop is
"found" when a layout report (kind layout-*) names the looping widget, by its name or its type,
as the reported object or one of its loop members; "ancestor" means only a reported object's path
runs through the looping widget (named), which is not counted as found. "Truth function on a
stack" looks at every stack of every report (any "symbol" field anywhere in the report, so that
stacks added by later schema versions count too).
"""
import glob
import json
import os
import re
import sys
from datetime import datetime


def truth_of(path, name):
    """The LOOPHUNTER-TRUTH line of a source (first 5 lines); a 'LOOPHUNTER-TRUTH[gtk4]:' line
    applies to that GTK only and wins over the plain one."""
    variant = "gtk4" if "gtk4" in name else "gtk3"
    plain = special = None
    with open(path, encoding="utf-8") as f:
        for _, line in zip(range(5), f):
            m = re.search(r"LOOPHUNTER-TRUTH(?:\[(gtk[34])\])?:\s*(.*)$", line)
            if not m:
                continue
            if m.group(1) is None:
                plain = m.group(2).strip()
            elif m.group(1) == variant:
                special = m.group(2).strip()
    text = special or plain
    if text is None:
        return {"kind": "?", "text": "(no truth line)"}
    words = text.split()
    t = {"kind": words[0], "text": text}
    for w in words[1:]:
        k, _, v = w.partition("=")
        t[k] = [x for x in v.split(",") if x]
    return t


def symbols(obj, out):
    if isinstance(obj, dict):
        s = obj.get("symbol")
        if isinstance(s, str):
            out.add(s)
        for v in obj.values():
            symbols(v, out)
    elif isinstance(obj, list):
        for v in obj:
            symbols(v, out)
    return out


def iso_ns(s):
    try:
        return int(datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp() * 1e9)
    except (ValueError, AttributeError):
        return None


def label(o):
    """Type 'name', or Type in 'nearest named ancestor' for a widget without a name."""
    if o.get("name"):
        return "%s '%s'" % (o.get("type"), o["name"])
    named = re.findall(r"'([^']*)'", o.get("path") or "")
    return "%s in '%s'" % (o.get("type"), named[-1]) if named else str(o.get("type"))


def path_names(o):
    return set(re.findall(r"'([^']*)'", o.get("path") or ""))


def main():
    runs_path, seconds, dbus, preload = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
    rows, loops, healthy = [], [], []
    for line in open(runs_path, encoding="utf-8"):
        name, src, d, plain_rc, pre_rc, start_ns = line.rstrip("\n").split("\t")
        truth = truth_of(src, name)
        reports, started = [], None
        for f in sorted(glob.glob(os.path.join(d, "reports", "*.json"))):
            try:
                doc = json.load(open(f, encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if doc.get("schema") == "loophunter/report":
                reports.append(doc)
            elif doc.get("schema") == "loophunter/summary":
                started = iso_ns(doc.get("started", "")) or started
        kinds = {}
        for r in reports:
            kinds[r.get("kind", "?")] = kinds.get(r.get("kind", "?"), 0) + 1
        names = set(truth.get("name", []))
        types = set(truth.get("widget", []))
        functions = set(truth.get("function", []))
        rank = {"no": 0, "ancestor": 1, "type": 2, "name": 3}
        named, first, reported = "no", None, []
        for r in reports:
            if not str(r.get("kind", "")).startswith("layout"):
                continue
            t = r.get("time_ns")
            if isinstance(t, (int, float)) and (first is None or t < first):
                first = t
            obj = r.get("object") or {}
            if label(obj) not in reported:
                reported.append(label(obj))
            objs = [obj] + list(r.get("loop_members") or [])
            if any(o.get("name") in names for o in objs):
                hit = "name"
            elif any(o.get("type") in types for o in objs):
                hit = "type"
            elif path_names(obj) & names:
                hit = "ancestor"
            else:
                hit = "no"
            if rank[hit] > rank[named]:
                named = hit
        on_stack = "yes" if any(symbols(r, set()) & functions for r in reports) else "no"
        base = started or int(start_ns)
        first_s = "%.1f s" % ((first - base) / 1e9) if first and base else "-"
        with open(os.path.join(d, "plain.out"), "rb") as a, open(os.path.join(d, "preload.out"), "rb") as b:
            same_out = a.read() == b.read()
        exit_s = "%s/%s" % (plain_rc, pre_rc) + ("" if plain_rc == pre_rc else " **differs**")
        kcell = ", ".join("%s×%d" % (k, v) for k, v in sorted(kinds.items())) or "none"
        rcell = "; ".join(reported[:2]) + (" …" if len(reported) > 2 else "") if reported else "-"
        if truth["kind"] == "loop":
            found = named in ("name", "type")
            result = "found" if found else ("missed (near)" if named == "ancestor" else "missed")
            loops.append((name, found, on_stack == "yes", named))
            tcell = "loop %s `%s` %s `%s`" % ("/".join(truth.get("widget", [])), "/".join(truth.get("name", [])),
                                             "/".join(truth.get("cause", [])), "/".join(truth.get("function", [])))
            rows.append((name, tcell, kcell, rcell, named, on_stack, first_s, exit_s,
                         "same" if same_out else "**differs**", result))
        else:
            result = "clean" if not reports else "**%d false**" % len(reports)
            healthy.append((name, len(reports)))
            rows.append((name, truth["kind"], kcell, rcell, "-", "-", "-", exit_s,
                         "same" if same_out else "**differs**", result))

    print("Preload: `%s`; CAUSE_SECONDS=%s; %s." % (os.path.basename(preload), seconds,
          "every run inside dbus-run-session" if dbus else "no session bus"))
    print()
    print("| program | truth | reports by kind | widgets in layout reports | names looping widget | truth function on a stack | first layout report | exit plain/preload | stdout | result |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    found = sum(1 for _, f, _, _ in loops if f)
    near = [n for n, f, _, how in loops if not f and how == "ancestor"]
    fn = sum(1 for _, _, s, _ in loops if s)
    print("Loops: %d found, %d missed of %d (found: a layout report names the looping widget, by name or type)%s; "
          "truth function on a report's stack: %d of %d."
          % (found, len(loops) - found, len(loops),
             (" — of the missed, %d reported a widget inside the looping one (%s)" % (len(near), ", ".join(near))) if near else "",
             fn, len(loops)))
    if loops and found < len(loops):
        print("Missed: " + ", ".join(n for n, f, _, _ in loops if not f) + ".")
    false_programs = [(n, c) for n, c in healthy if c]
    print("Healthy: %d of %d with false reports, %d false reports in all%s."
          % (len(false_programs), len(healthy), sum(c for _, c in healthy),
             (" (" + ", ".join("%s: %d" % x for x in false_programs) + ")") if false_programs else ""))
    changed = [r[0] for r in rows if "differs" in r[7] or "differs" in r[8]]
    print("Exit status and stdout unchanged under the preload: %s."
          % ("all" if not changed else "not for " + ", ".join(changed)))


main()
