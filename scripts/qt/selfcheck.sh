#!/usr/bin/env bash
# Ground truth for the Qt corpus (Tests/Programs/qt), independent of LoopHunter: runs every built
# program plainly (no preload) with CAUSE_SELFCHECK=1 under the offscreen platform and/or under
# Xvfb (xvfb-run -a, QT_QPA_PLATFORM=xcb), and prints a Markdown table of what the programs counted
# with Qt's own means (qtcauses.h): per window the event-loop iterations, the frames (Widgets:
# UpdateRequest repaint passes; Quick: QQuickWindow::afterAnimating) and the frames with layout;
# per program the object the truth names (a loop) or the most laid-out object (healthy), with its
# frames with layout, longest run of consecutive frames with layout, frames with layout per second,
# frames with layout not preceded by an outside drive (undriven) and the largest gap between two
# of its layouts; the user CPU seconds; the number of other stderr lines (Qt's warnings); the
# exit status; and a check:
#   loop     exit 0, the "done" line, re-requests counted, and a truth-named object laid out in
#            >= 5 frames in every whole second from 2 s on (>= 10 on average) with >= 95 % of its
#            frames with layout undriven
#   healthy  exit 0, the "done" line, no re-requests, and every object's undriven frames with
#            layout <= 3 (showing the window), or never more than two in a row (relayouts up to
#            two steps after a drive: QAbstractScrollArea lays a scrollbar that came or went, then
#            its viewport, out through queued calls)
# Programs whose source has no "// LOOPHUNTER-TRUTH: loop|healthy" line in its first 5 lines are
# not of the corpus and are skipped. Exits 0 (a measurement), 1 on a usage error.
#
# Usage: scripts/qt/selfcheck.sh [--seconds N] [--platform both|offscreen|xcb] [--only REGEX]
#                                [--quick-backend software|default] [--programs DIR] [--raw FILE]
#   --quick-backend default leaves QT_QUICK_BACKEND unset (Qt 5 Quick then needs OpenGL, which the
#   offscreen platform does not have: those runs abort); --raw keeps the selfcheck lines.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=6
platforms="offscreen xcb"
only=
backend=software
programs=$root/.build/release/qt-programs
src=$root/Tests/Programs/qt
raw=
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --platform)
      case "${2:-}" in
        both) platforms="offscreen xcb" ;;
        offscreen|xcb) platforms=$2 ;;
        *) echo "selfcheck: --platform takes both, offscreen or xcb" >&2; exit 1 ;;
      esac
      shift 2 ;;
    --only) only=${2:?--only needs a regular expression}; shift 2 ;;
    --quick-backend) backend=${2:?--quick-backend needs software or default}; shift 2 ;;
    --programs) programs=${2:?--programs needs a directory}; shift 2 ;;
    --raw) raw=${2:?--raw needs a file}; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "selfcheck: unknown option '$1' (see --help)" >&2; exit 1 ;;
  esac
done
if ! ls "$programs"/qt[56]-* >/dev/null 2>&1; then
  echo "selfcheck: no programs in '$programs'; build them with scripts/build-qt-programs.sh" >&2
  exit 1
fi
case " $platforms " in *" xcb "*)
  if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "selfcheck: the xcb runs need xvfb-run; install it with: apt-get install xvfb xauth" >&2
    exit 1
  fi ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/qt-selfcheck.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/xdg"
limit=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 3 + 30 }')
env_=(env XDG_RUNTIME_DIR="$work/xdg" CAUSE_SECONDS="$seconds" CAUSE_SELFCHECK=1)
[ "$backend" = software ] && env_+=(QT_QUICK_BACKEND=software)

# program -> source: qt5-NAME-WITH-DASHES <- NAME_WITH_UNDERSCORES.cpp or qt5_NAME.cpp
source_of() {
  local name=$1 v=${1:2:1} base=${1#qt?-}
  base=${base//-/_}
  if [ -f "$src/$base.cpp" ]; then echo "$src/$base.cpp"; else echo "$src/qt${v}_$base.cpp"; fi
}

: >"$work/results.tsv"
list=$(cd "$programs" && ls qt[56]-* | grep -v '\.tmp$' | sort -t- -k2 | grep -E -- "${only:-.}" || true)
# only the corpus: programs whose source states a LOOPHUNTER-TRUTH in its first 5 lines
corpus=
for name in $list; do
  head -n 5 "$(source_of "$name")" 2>/dev/null | grep -Eq '^// LOOPHUNTER-TRUTH: (loop|healthy)' && corpus="$corpus $name"
done
list=$corpus
total=$(( $(echo "$list" | grep -c .) * $(echo $platforms | wc -w) ))
n=0
for name in $list; do
  file=$(source_of "$name")
  for platform in $platforms; do
    n=$((n + 1))
    echo "selfcheck: [$n/$total] $name ($platform)" >&2
    if [ "$platform" = offscreen ]; then
      out=$(timeout -k 5 "$limit" "${env_[@]}" QT_QPA_PLATFORM=offscreen "$programs/$name" 2>"$work/err" </dev/null)
      status=$?
    else
      out=$(timeout -k 5 "$limit" xvfb-run -a "${env_[@]}" QT_QPA_PLATFORM=xcb "$programs/$name" 2>"$work/err" </dev/null)
      status=$?
    fi
    done_line=no
    [ "$out" = "$name: done" ] && done_line=yes
    [ -n "$raw" ] && { echo "# $name $platform status=$status"; grep '^selfcheck:' "$work/err"; } >>"$raw"
    lines=$(grep '^selfcheck:' "$work/err" | tr '\n' '|')
    warnings=$(grep -v '^selfcheck:' "$work/err" | grep -c . || true)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$file" "$platform" "$status" "$done_line" \
      "$warnings" "$lines" >>"$work/results.tsv"
  done
done

python3 - "$work/results.tsv" "$seconds" "$backend" <<'PY'
import re, sys

path, seconds, backend = sys.argv[1], float(sys.argv[2]), sys.argv[3]

def truth_of(src):
    try:
        with open(src, encoding="utf-8") as f:
            for _, line in zip(range(5), f):
                m = re.match(r"//\s*LOOPHUNTER-TRUTH:\s*(.*)", line)
                if m:
                    return m.group(1).strip()
    except OSError:
        pass
    return "?"

def fields(line):
    return dict(re.findall(r"(\w+)=(\S+)", line))

def per(s):
    return [int(x) for x in s.split(",") if x] if s and s != "-" else []

print("CAUSE_SECONDS=%g; QT_QUICK_BACKEND=%s; counted by each program with Qt's own means "
      "(CAUSE_SELFCHECK=1, Tests/Programs/qt/qtcauses.h)." % (seconds, "software" if backend == "software" else "(unset)"))
print()
head = ("| program | truth | platform | windows: frames with layout / frames (iterations) | object | "
        "its frames with layout | longest run | per second | undriven | max gap ms | "
        "re-requests | user CPU s | other stderr lines | exit | check |")
print(head)
print("|" + "---|" * (head.count("|") - 1))
fails = 0
for line in open(path, encoding="utf-8"):
    name, src, platform, status, done, warnings, out = line.rstrip("\n").split("\t")
    truth = truth_of(src)
    kind = truth.split()[0] if truth != "?" else "?"
    tf = fields(truth)
    names = tf.get("name", "").split(",") if kind == "loop" else []
    windows, objects = [], []
    for x in out.split("|"):
        if not x.startswith("selfcheck:"):
            continue
        f = fields(x)
        (windows if "window" in f and "object" not in f else objects).append(f)
    wcol = "; ".join("%s: %s / %s (%s)" % (w.get("window"), w.get("frames_with_layout"), w.get("frames"),
                                           w.get("iterations")) for w in windows) or "(no output)"
    rereq = max([int(w.get("rerequests", 0)) for w in windows] or [0])
    cpu = windows[0].get("user_cpu", "-") if windows else "-"
    problems = []
    if status != "0":
        problems.append("exit %s" % status)
    if done != "yes":
        problems.append("no done line")
    if kind == "loop":
        cands = [o for o in objects if o.get("object") in names]
        def score(o):
            p = per(o.get("per_second"))
            return (sum(p[2:]), int(o.get("frames_with_layout", 0)))
        obj = max(cands, key=score) if cands else None
        if rereq == 0:
            problems.append("no re-requests")
        if obj is None:
            problems.append("truth object not watched")
        else:
            p = per(obj.get("per_second"))[2:]
            fwl = int(obj.get("frames_with_layout", 0))
            und = int(obj.get("undriven_frames", 0))
            if not p or min(p) < 5 or sum(p) / len(p) < 10:
                problems.append("not laid out every second")
            if fwl and und < 0.95 * fwl:
                problems.append("driven")
    else:
        obj = max(objects, key=lambda o: int(o.get("frames_with_layout", 0))) if objects else None
        if rereq:
            problems.append("re-requests")
        bad = [o.get("object") for o in objects
               if int(o.get("undriven_frames", 0)) > 3 and int(o.get("longest_undriven_run", 3)) > 2]
        if bad:
            problems.append("undriven: " + ",".join(bad))
    check = "ok" if not problems else "**" + "; ".join(problems) + "**"
    if problems:
        fails += 1
    if obj:
        p = per(obj.get("per_second"))
        ocols = ["%s (%s)" % (obj.get("object"), obj.get("class")),
                 "%s / %s" % (obj.get("frames_with_layout"), obj.get("frames")),
                 obj.get("longest_frame_run", "-"), ",".join(map(str, p)) or "-",
                 obj.get("undriven_frames", "-"), obj.get("max_gap_ms", "-")]
    else:
        ocols = ["-"] * 6
    short = truth if kind != "loop" else "loop %s %s %s" % (tf.get("name"), tf.get("cause"), tf.get("function"))
    print("| " + " | ".join([name, short, platform, wcol] + ocols + [str(rereq), cpu, warnings, status, check]) + " |")
print()
print("%d run(s) with a failed check." % fails)
PY
exit 0
