#!/usr/bin/env bash
# Resident memory LoopHunter adds to a GTK program, and what sets it. Each layout-heavy GTK program
# runs FRAMES frames plain and under the preload (every family on); the peak resident set (VmHWM,
# from /usr/bin/time's %M) of each is compared over ROUNDS interleaved rounds (median). The
# preload's own summary then says which of its mappings the difference is made of (`memory.parts`:
# mapped and resident bytes of each table, asked of the kernel with mincore at exit).
#
# Usage: scripts/bench/memory.sh [ROUNDS [FRAMES]]     (needs xvfb-run; builds what it runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
frames=${2:-60}
scripts/build-native.sh >/dev/null
scripts/build-gtk-programs.sh >/dev/null
rel=$PWD/.build/release
gtk=$rel/test-programs/gtk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 GSK_RENDERER=cairo LH_RUN_FRAMES=$frames
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# peak_kib OUT CMD...: the command's peak RSS in KiB, appended to OUT
peak_kib() {
  local out=$1; shift
  /usr/bin/time -f %M -o "$work/time" "$@" >/dev/null 2>&1
  tail -n1 "$work/time" >>"$out"
}
echo "| program | frames | plain peak RSS | LoopHunter peak RSS | added | LoopHunter's own, resident (summary) |"
echo "|---|---|---|---|---|---|"
for prog in gtk3-layout-bench gtk4-layout-bench; do
  : >"$work/plain"; : >"$work/lh"
  for ((r = 0; r < rounds; r++)); do
    peak_kib "$work/plain" xvfb-run -a "$gtk/$prog"
    rm -rf "$work/dir"; mkdir "$work/dir"
    peak_kib "$work/lh" xvfb-run -a env LD_PRELOAD="$rel/libloophunter.so" LOOPHUNTER_DIR="$work/dir" "$gtk/$prog"
  done
  p=$(median <"$work/plain"); l=$(median <"$work/lh")
  own=$(python3 -c 'import json,glob,sys; print(json.load(open(glob.glob(sys.argv[1] + "/summary-*.json")[0]))["memory"]["resident_bytes"] // 1024)' "$work/dir")
  printf "| %s | %d | %d KiB | %d KiB | **%+d KiB** | %d KiB |\n" "$prog" "$frames" "$p" "$l" "$((l - p))" "$own"
  cp "$work/dir"/summary-*.json "$work/summary-$prog.json"
done
echo
echo "What sets it (the last round's summary, gtk3-layout-bench): LoopHunter's mappings, mapped and resident."
echo
echo "| mapping | mapped KiB | resident KiB |"
echo "|---|---:|---:|"
python3 - "$work/summary-gtk3-layout-bench.json" <<'PY'
import json, sys
memory = json.load(open(sys.argv[1]))["memory"]
for part in sorted(memory["parts"], key=lambda p: -p["resident_bytes"]):
    print(f"| {part['what']} | {part['mapped_bytes'] // 1024} | {part['resident_bytes'] // 1024} |")
print(f"| **total** | {memory['mapped_bytes'] // 1024} | **{memory['resident_bytes'] // 1024}** |")
PY
