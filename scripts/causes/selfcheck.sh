#!/usr/bin/env bash
# Ground truth for the cause corpus (Tests/Programs/causes, issue 18), independent of LoopHunter:
# runs every program under Xvfb with CAUSE_SELFCHECK=1 (no preload) and prints a Markdown table of
# what GTK's own frame clock counted (causes.h / causes_common.py / causes_common.js): frames,
# frames whose layout phase ran, layout passes per such frame, frames with layout per second after
# the first second, the per-second series, and the process's user CPU seconds. With --gdb, also
# runs each C program under gdb (scripts/causes/gdb-truth.py: breakpoints on GTK's allocation entry
# point, gtk_widget_size_allocate_with_baseline / gtk_widget_allocate) and adds the frames in
# which GTK allocated anything, out of the frames.
# A loop program shows layout in (nearly) every frame while it loops; a healthy one only as its
# animation or timer drives it. Exits 0 (a measurement).
#
# Usage: scripts/causes/selfcheck.sh [--seconds N] [--gdb] [--only REGEX] [--programs DIR]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=6
gdb=0
only=
programs=$root/.build/release/cause-programs
src=$root/Tests/Programs/causes
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --gdb) gdb=1; shift ;;
    --only) only=${2:?--only needs a regular expression}; shift 2 ;;
    --programs) programs=${2:?--programs needs a directory}; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "selfcheck: unknown option '$1' (see --help)" >&2; exit 1 ;;
  esac
done
if ! [ -d "$programs" ]; then
  echo "selfcheck: no programs in '$programs'; build them with scripts/build-cause-programs.sh" >&2
  exit 1
fi
if [ "$gdb" = 1 ] && ! command -v gdb >/dev/null 2>&1; then
  echo "selfcheck: --gdb needs gdb; install it with: apt-get install gdb" >&2
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/lh-selfcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
# shellcheck source=scripts/causes/corpus-list.sh
. "$root/scripts/causes/corpus-list.sh"
corpus_list "$work/programs.tsv" "$programs" "$src" "$only"
total=$(wc -l <"$work/programs.tsv")
limit=$(python3 -c "print(int(float('$seconds')) * 3 + 60)")
env_=(env GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 CAUSE_SECONDS="$seconds")
n=0
: >"$work/results.tsv"
while IFS=$'\t' read -r name file cmd; do
  n=$((n + 1))
  echo "selfcheck: [$n/$total] $name" >&2
  read -r -a words <<<"$cmd"
  out=$(timeout -k 5 "$limit" xvfb-run -a "${env_[@]}" CAUSE_SELFCHECK=1 "${words[@]}" 2>/dev/null </dev/null | grep '^selfcheck:' | tr '\n' '|')
  g=-
  if [ "$gdb" = 1 ] && [ "${words[0]}" != env ]; then
    g=$(timeout -k 5 "$limit" xvfb-run -a "${env_[@]}" gdb -q -batch -nx -x "$root/scripts/causes/gdb-truth.py" \
      --args "${words[@]}" 2>/dev/null </dev/null | grep '^gdb-truth:' | tr '\n' '|')
    [ -n "$g" ] || g=-
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$file" "$out" "$g" >>"$work/results.tsv"
done <"$work/programs.tsv"

python3 - "$work/results.tsv" "$seconds" "$gdb" <<'PY'
import re, sys

path, seconds, gdb = sys.argv[1], sys.argv[2], sys.argv[3] == "1"

def truth_of(src, name):
    variant = "gtk4" if "gtk4" in name else "gtk3"
    plain = special = None
    for _, line in zip(range(5), open(src, encoding="utf-8")):
        m = re.search(r"LOOPHUNTER-TRUTH(?:\[(gtk[34])\])?:\s*(\S+)", line)
        if m and m.group(1) is None:
            plain = m.group(2)
        elif m and m.group(1) == variant:
            special = m.group(2)
    return special or plain or "?"

def fields(line):
    return dict(re.findall(r"(\w+)=(\S+)", line))

print("CAUSE_SECONDS=%s; frames counted by GTK's frame clock (CAUSE_SELFCHECK=1)%s." %
      (seconds, "; gdb: frames in which gtk_widget_size_allocate_with_baseline (GTK 3) / gtk_widget_allocate (GTK 4) ran, under gdb" if gdb else ""))
print()
head = "| program | truth | window | frames | frames with layout | layouts per such frame | frames with layout/s after 1 s | per second | user CPU s |"
if gdb:
    head += " gdb: frames with allocation / frames | gdb: max allocations in a frame |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
for line in open(path, encoding="utf-8"):
    name, src, out, g = line.rstrip("\n").split("\t")
    truth = truth_of(src, name)
    windows = [fields(x) for x in out.split("|") if x.strip()]
    if not windows:
        windows = [{}]
    gdbw = {}
    for x in g.split("|"):
        if x.strip() and x != "-":
            f = fields(x)
            gdbw[int(f.get("window", 0))] = f
    for i, w in enumerate(windows):
        frames = int(w.get("frames", 0))
        fwl = int(w.get("frames_with_layout", 0))
        layouts = int(w.get("layouts", 0))
        per = [int(x) for x in w.get("per_second", "").split(",") if x]
        steady = sum(per[1:]) / len(per[1:]) if len(per) > 1 else float("nan")
        row = [name if i == 0 else "", truth if i == 0 else "", w.get("window", "(no output)"), str(frames),
               str(fwl), "%.1f" % (layouts / fwl) if fwl else "-", "%.1f" % steady,
               w.get("per_second", "-"), w.get("user_cpu", "-")]
        if gdb:
            gf = gdbw.get(i)
            row += (["%s / %s" % (gf.get("frames_with_alloc", "-"), gf.get("frames", "-")),
                     gf.get("max_allocs_per_frame", "-")] if gf else ["-", "-"])
        print("| " + " | ".join(row) + " |")
PY
exit 0
