#!/usr/bin/env bash
# Runs every program of the cause corpus (Tests/Programs/causes, issue 18) under Xvfb twice, once
# plainly and once with a LoopHunter preload and a fresh LOOPHUNTER_DIR, and prints a Markdown
# table: the program's truth (its LOOPHUNTER-TRUTH line), the reports written by kind, whether a
# layout report names the looping widget (by name or type), whether any report's stack holds the
# truth function, when the first layout report came, and whether the exit status and stdout are
# the same as in the plain run. Then the totals: loops found / missed, false reports on healthy
# programs. A measurement tool: it exits 0 whatever it finds (1 only when it cannot run at all).
#
# Usage: scripts/causes/run-corpus.sh [--preload PATH] [--seconds N] [--dbus] [--only REGEX]
#                                     [--programs DIR] [--keep DIR]
#   --preload PATH   the preload (default .build/release/libloophunter.so)
#   --seconds N      CAUSE_SECONDS of every program (default 6)
#   --dbus           run every program (both runs) inside dbus-run-session
#   --only REGEX     only the programs whose name matches (an awk regular expression), e.g. 'ping-pong|same-text'
#   --programs DIR   the C programs (default .build/release/cause-programs; scripts/build-cause-programs.sh)
#   --keep DIR       keep the report directories and outputs there (default: a temporary directory,
#                    removed at the end)
# C programs run as built (gtk3-NAME, gtk4-NAME); Python programs (py_*.py) with /usr/bin/python3
# and GJS programs (gjs_*.js) with gjs, each twice, CAUSE_GTK=3 and CAUSE_GTK=4 (named
# py-gtk3-NAME, gjs-gtk4-NAME...). Every run: xvfb-run -a, GTK_A11Y=none NO_AT_BRIDGE=1
# GDK_BACKEND=x11; LD_PRELOAD is set on the program only (not on Xvfb or dbus-run-session).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
preload=$root/.build/release/libloophunter.so
seconds=6
dbus=0
only=
programs=$root/.build/release/cause-programs
keep=
src=$root/Tests/Programs/causes

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --preload) preload=${2:?--preload needs a path}; shift 2 ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --dbus) dbus=1; shift ;;
    --only) only=${2:?--only needs a regular expression}; shift 2 ;;
    --programs) programs=${2:?--programs needs a directory}; shift 2 ;;
    --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run-corpus: unknown option '$1' (see --help)" >&2; exit 1 ;;
  esac
done
case "$preload" in /*) ;; *) preload=$PWD/$preload ;; esac
if ! [ -f "$preload" ]; then
  echo "run-corpus: the preload '$preload' does not exist; build it with scripts/build-native.sh or pass --preload PATH" >&2
  exit 1
fi
if ! [ -d "$programs" ]; then
  echo "run-corpus: no programs in '$programs'; build them with scripts/build-cause-programs.sh or pass --programs DIR" >&2
  exit 1
fi
for tool in xvfb-run python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run-corpus: $tool not found; install it (apt-get install xvfb python3)" >&2; exit 1; }
done
if [ "$dbus" = 1 ] && ! command -v dbus-run-session >/dev/null 2>&1; then
  echo "run-corpus: --dbus needs dbus-run-session; install it with: apt-get install dbus" >&2
  exit 1
fi
if ! [[ "$seconds" =~ ^[0-9]+([.][0-9]+)?$ ]]; then
  echo "run-corpus: --seconds '$seconds' is not a number of seconds" >&2
  exit 1
fi

if [ -n "$keep" ]; then
  work=$keep
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/lh-causes.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi

list=$work/programs.tsv
# shellcheck source=scripts/causes/corpus-list.sh
. "$root/scripts/causes/corpus-list.sh"
corpus_list "$list" "$programs" "$src" "$only"
total=$(wc -l <"$list")
if [ "$total" = 0 ]; then
  echo "run-corpus: no program to run" >&2
  exit 1
fi

runs=$work/runs.tsv
: >"$runs"
limit=$(python3 -c "print(int(float('$seconds')) + 60)")
n=0
while IFS=$'\t' read -r name file cmd; do
  n=$((n + 1))
  echo "run-corpus: [$n/$total] $name" >&2
  dir=$work/$name
  rm -rf "$dir"
  mkdir -p "$dir/reports"
  wrap=(xvfb-run -a)
  [ "$dbus" = 1 ] && wrap+=(dbus-run-session --)
  read -r -a words <<<"$cmd"
  common=(env GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 CAUSE_SECONDS="$seconds")
  timeout -k 5 "$limit" "${wrap[@]}" "${common[@]}" "${words[@]}" \
    >"$dir/plain.out" 2>"$dir/plain.err" </dev/null
  plain_rc=$?
  start_ns=$(date +%s%N)
  timeout -k 5 "$limit" "${wrap[@]}" "${common[@]}" LD_PRELOAD="$preload" \
    LOOPHUNTER_DIR="$dir/reports" "${words[@]}" >"$dir/preload.out" 2>"$dir/preload.err" </dev/null
  preload_rc=$?
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$file" "$dir" "$plain_rc" "$preload_rc" "$start_ns" >>"$runs"
done <"$list"

python3 "$root/scripts/causes/corpus-table.py" "$runs" "$seconds" "$dbus" "$preload"
exit 0
