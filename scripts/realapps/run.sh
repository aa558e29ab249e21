#!/usr/bin/env bash
# run.sh — real GTK applications under LoopHunter: each one in an X server of its own (xvfb-run)
# with a session bus of its own (dbus-run-session), a fresh HOME and report directory, driven with
# xdotool (drive.sh) for SECONDS, then closed; a table of what LoopHunter reported for each.
#
# Usage: scripts/realapps/run.sh [--preload PATH] [--seconds N] [--out DIR] [--details] [--cold] [APP...]
#   --preload PATH  the preload (default: .build/release/libloophunter.so); "none": run without it
#   --seconds N     how long each app is driven once its window is up (default 30)
#   --out DIR       where each app's directory goes (default: a new directory under /tmp, kept)
#   --details       after the table, one line per report: the app, its kind and what it says
#   --cold          a new, empty Mesa shader cache per app (a first launch ever: GTK 4 then compiles
#                   its shaders on the software renderer); by default the cache is kept across
#                   apps and runs (~/.cache/loophunter-realapps/mesa), as on a machine in use
#   APP...          names from apps.sh (default: all of REALAPPS_DEFAULT that are installed)
# Exit status: 0 when every app ran (whatever was reported), 1 when one could not be run, 64 on
# a bad command line. Needs xvfb-run, dbus-run-session, xdotool and the apps (scripts/setup.sh
# realapps installs them); lh-x-close comes from scripts/build-gtk-programs.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=apps.sh
. "$here/apps.sh"

preload=$root/.build/release/libloophunter.so
seconds=30
out=
details=0
cold=0
apps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --preload) preload=${2:?--preload needs a path}; shift 2 ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --details) details=1; shift ;;
    --cold) cold=1; shift ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 64 ;;
    *) apps+=("$1"); shift ;;
  esac
done
case "$seconds" in '' | *[!0-9]*) echo "run.sh: --seconds takes a whole number of seconds, not '$seconds'" >&2; exit 64 ;; esac
[ "$preload" = none ] && preload=
if [ -n "$preload" ]; then
  [ -f "$preload" ] || { echo "run.sh: no preload at $preload (build it with scripts/build-native.sh, or pass --preload)" >&2; exit 64; }
  preload=$(realpath "$preload")
fi
for tool in xvfb-run dbus-run-session xdotool; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool not found; install it with scripts/setup.sh realapps" >&2; exit 64; }
done
closer=$root/.build/release/test-programs/gtk/lh-x-close
[ -x "$closer" ] || { echo "run.sh: $closer not found; build it with scripts/build-gtk-programs.sh" >&2; exit 64; }

explicit=${#apps[@]}
if [ "$explicit" -eq 0 ]; then apps=("${REALAPPS_DEFAULT[@]}"); fi
[ -n "$out" ] || out=$(mktemp -d /tmp/realapps.XXXXXX)
mkdir -p "$out"
out=$(realpath "$out")
echo "run.sh: ${#apps[@]} apps, $seconds s each, preload ${preload:-none}, results in $out" >&2

# Mesa keeps compiled shaders in a cache of the user's (found through the password database, not
# $HOME); each app's fresh HOME must not make every run a first launch ever.
shader_cache=${XDG_CACHE_HOME:-$HOME/.cache}/loophunter-realapps/mesa
mkdir -p "$shader_cache"

status=0
ran=()
for app in "${apps[@]}"; do
  dir=$out/$app
  if ! app_spec "$app" "" 2>/dev/null; then
    if [ "$explicit" -gt 0 ]; then echo "run.sh: $app is not known or not installed (apps.sh)" >&2; status=1; fi
    continue
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "run.sh: $app ..." >&2
  # The outer timeout only guards against a hung X server or bus: drive.sh ends the app itself.
  # The display number is searched from a random start (-a -n): other xvfb-run users of the
  # machine start at 99, and two servers racing for one number leave the app without a display
  # (then it is tried again).
  for attempt in 1 2 3; do
    rm -rf "$dir/lh" "$dir/home" "$dir/run" "$dir/exit" "$dir/mesa"
    mkdir -p "$dir/home" "$dir/lh" "$dir/run"
    chmod 700 "$dir/run"
    cache=$shader_cache
    if [ "$cold" = 1 ]; then cache=$dir/mesa; mkdir -p "$cache"; fi
    MESA_SHADER_CACHE_DIR=$cache timeout -k 10 $((seconds + 120)) xvfb-run -a -n $((200 + RANDOM % 600)) -s "-screen 0 1280x1024x24" \
      dbus-run-session -- "$here/drive.sh" "$app" "$seconds" "$preload" "$dir" "$closer" \
      >"$dir/session.log" 2>&1 || true
    grep -q "cannot open display" "$dir/stderr" 2>/dev/null || break
    echo "run.sh: $app could not open its display (attempt $attempt)" >&2
  done
  [ -f "$dir/exit" ] || { echo "timeout" >"$dir/exit"; status=1; }
  ran+=("$app")
done

/usr/bin/python3 - "$out" "$details" "${ran[@]}" <<'EOF'
import glob, json, os, sys
out, details, apps = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
rows, lines = [], []
for app in apps:
    d = os.path.join(out, app)
    kinds = {}
    for path in sorted(glob.glob(os.path.join(d, "lh", "report-*.json"))):
        r = load(path)
        if r is None:
            kinds["(unreadable)"] = kinds.get("(unreadable)", 0) + 1
            continue
        kind = r.get("kind", "?")
        kinds[kind] = kinds.get(kind, 0) + 1
        obj = r.get("object") or {}
        what = obj.get("type") or "?"
        if obj.get("name"):
            what += f" '{obj['name']}'"
        count = r.get("count")
        unit = r.get("count_unit") or ""
        extra = ""
        if kind == "toolkit-warning":
            extra = " — " + ((r.get("warning") or {}).get("message") or "")[:100]
        lines.append(f"{app}: {kind} {what}: {count} {unit}{extra}")
    summaries = [s for s in (load(p) for p in glob.glob(os.path.join(d, "lh", "summary-*.json"))) if s]
    layouts = sum(s.get("layout_calls") or 0 for s in summaries)
    iterations = sum(s.get("iterations") or 0 for s in summaries)
    try:
        exit_status = open(os.path.join(d, "exit")).read().strip()
    except OSError:
        exit_status = "?"
    reports = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "0"
    rows.append((app, reports, f"{layouts:,}", f"{iterations:,}", str(len(summaries)), exit_status))
head = ("app", "reports by kind", "layouts", "iterations", "summaries", "exit")
print("| " + " | ".join(head) + " |")
print("|" + "|".join("---" for _ in head) + "|")
for r in rows:
    print("| " + " | ".join(r) + " |")
if details and lines:
    print()
    for l in lines:
        print("- " + l)
EOF
exit $status
