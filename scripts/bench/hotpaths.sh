#!/usr/bin/env bash
# Callgrind instructions per call of the preload's hot paths, side by side: plain (no preload),
# this checkout's preload, and optionally a baseline preload (another commit's build). Each figure
# is the difference of two run lengths (200k and 400k calls) divided by 200k, so start-up cancels
# out. Instruction counts do not drift from run to run the way times do on this machine.
#
#   repeat      tk_view_layout, one view laid out 40 times per iteration (the counting path)
#   frame       tk_view_layout, 1000 views once each per iteration (every call rolls its slot)
#   mallocfree  one malloc+free pair (1 thread)
#   gtk3vfunc / gtk4vfunc  one wrapped GTK measure/allocate vfunc call (gtk*-vfunc-bench, Xvfb)
#
# Usage: scripts/bench/hotpaths.sh [BASELINE_PRELOAD]     (needs valgrind; builds what it runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
scripts/build-native.sh >/dev/null
scripts/build-gtk-programs.sh >/dev/null
rel=$root/.build/release
bench=$rel/bench
mkdir -p "$bench"
cc -O2 -g -I"$root/Sources/Toykit/include" scripts/bench/lh_bench.c -L"$rel" -ltoykit -Wl,-rpath,"$rel" -o "$bench/lh_bench"
cc -O2 scripts/bench/malloc_bench.c -lpthread -o "$bench/malloc_bench"
command -v valgrind >/dev/null || { echo "hotpaths.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
export GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT

# refs PRELOAD CMD... : instructions of one run ("" = no preload); GTK programs run inside
# xvfb-run with only the program under valgrind and the preload. A fork child that does not exec
# (GLib's D-Bus autolaunch when dbus-launch is missing) stays silent: its count would print too.
refs() {
  local pre=$1; shift
  local display=()
  case "$1" in *vfunc-bench) display=(xvfb-run -a) ;; esac
  "${display[@]}" env ${pre:+LD_PRELOAD=$pre} LOOPHUNTER_DIR="$reports" \
    valgrind --tool=callgrind --child-silent-after-fork=yes --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
# per PRELOAD CMD-with-N... : instructions per call, one decimal
per() {
  local pre=$1; shift
  local a b
  a=$(refs "$pre" "${@/N/200000}")
  b=$(refs "$pre" "${@/N/400000}")
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 200000 }'
}
preloads=("" "$rel/libloophunter.so")
header="| path | plain | this checkout |"
rule="|---|---|---|"
if [ $# -ge 1 ]; then
  [ -f "$1" ] || { echo "hotpaths.sh: baseline preload $1 not found" >&2; exit 2; }
  preloads+=("$(readlink -f "$1")")
  header="| path | plain | this checkout | baseline | change |"
  rule="|---|---|---|---|---|"
fi
echo "$header"
echo "$rule"
row() {
  local name=$1; shift
  local values=() pre
  for pre in "${preloads[@]}"; do values+=("$(per "$pre" "$@")"); done
  if [ ${#values[@]} -eq 3 ]; then
    change=$(awk -v n="${values[1]}" -v b="${values[2]}" 'BEGIN { printf "%+.1f %%", 100 * (n - b) / b }')
    echo "| $name | ${values[0]} | ${values[1]} | ${values[2]} | $change |"
  else
    echo "| $name | ${values[0]} | ${values[1]} |"
  fi
}
row repeat "$bench/lh_bench" layout repeat N
row frame "$bench/lh_bench" layout frame N
row mallocfree "$bench/malloc_bench" 1 N
row gtk3vfunc "$rel/test-programs/gtk/gtk3-vfunc-bench" N
row gtk4vfunc "$rel/test-programs/gtk/gtk4-vfunc-bench" N
