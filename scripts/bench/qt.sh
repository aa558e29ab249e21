#!/usr/bin/env bash
# Qt under LoopHunter: what it costs a layout-heavy Qt Widgets and a Qt Quick program (Qt 5 and Qt 6),
# side by side in one run. scripts/bench/qt_bench.cpp is built for each Qt:
#   widgets: 12 x 20 labels and line edits in nested layouts, resized STEPS times;
#   quick:   240 Text items in a RowLayout of ColumnLayouts, the window resized and rendered STEPS times.
# Time: the program's CPU time (user + system), plain and under the preload (every family on),
# ROUNDS interleaved rounds, median and range; the counted Qt layout calls (the summary's
# layout_calls) give the time added per counted call. Instructions: the same programs with CG_STEPS
# steps under valgrind --tool=callgrind, plain and under the preload (the QML engine interpreted in
# both: QV4_FORCE_INTERPRETER=1), whole program; the added instructions per counted call.
#
# Usage: scripts/bench/qt.sh [ROUNDS [STEPS [CG_STEPS]]]   (default 7 300 40; needs valgrind and Qt)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-7}
steps=${2:-300}
cg_steps=${3:-40}
scripts/build-native.sh preload >/dev/null
preload=$PWD/.build/release/libloophunter.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for v in 5 6; do
  # shellcheck disable=SC2046
  g++ -std=c++17 -O2 -g -fPIC scripts/bench/qt_bench.cpp -o "$work/qt${v}_bench" \
    $(pkg-config --cflags --libs "Qt${v}Widgets" "Qt${v}Quick" "Qt${v}Qml")
done
export QT_QPA_PLATFORM=offscreen QT_QUICK_BACKEND=software
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# cpu OUT CMD...: the command's CPU seconds (user + system), appended to OUT
cpu() {
  local out=$1; shift
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>&1
  awk '{ print $1 + $2 }' "$work/time" >>"$out"
}
calls_of() { python3 -c 'import json,glob,sys; print(json.load(open(glob.glob(sys.argv[1] + "/summary-*.json")[0]))["layout_calls"])' "$1"; }
reports_of() { ls "$1" | grep -c '^report-' || true; }
ir_of() { awk '/^summary:/ { print $2 }' "$1"; }

echo "## Qt: time (CPU, $rounds interleaved rounds, $steps steps)"
echo
echo "| program | plain CPU s | LoopHunter CPU s | overhead (median, range) | counted layout calls | added per counted call | reports |"
echo "|---|---|---|---|---|---|---|"
for v in 5 6; do
  for mode in widgets quick; do
    : >"$work/plain"; : >"$work/lh"; : >"$work/ratio"
    for ((r = 0; r < rounds; r++)); do
      cpu "$work/plain" "$work/qt${v}_bench" "$mode" "$steps"
      rm -rf "$work/dir"; mkdir -m 700 "$work/dir"
      cpu "$work/lh" env LD_PRELOAD="$preload" LOOPHUNTER_DIR="$work/dir" "$work/qt${v}_bench" "$mode" "$steps"
      paste "$work/plain" "$work/lh" | tail -n1 | awk '{ printf "%.4f\n", ($2 - $1) / $1 * 100 }' >>"$work/ratio"
    done
    p=$(median <"$work/plain"); l=$(median <"$work/lh")
    lo=$(sort -n "$work/ratio" | head -n1); hi=$(sort -n "$work/ratio" | tail -n1); mid=$(median <"$work/ratio")
    calls=$(calls_of "$work/dir")
    ns=$(awk -v p="$p" -v l="$l" -v c="$calls" 'BEGIN { printf "%+.1f ns", (l - p) * 1e9 / c }')
    printf "| qt%s %s | %.2f | %.2f | **%+.1f %%** (%+.1f … %+.1f) | %s | %s | %s |\n" "$v" "$mode" "$p" "$l" "$mid" "$lo" "$hi" \
      "$calls" "$ns" "$(reports_of "$work/dir")"
  done
done
echo
echo "## Qt: instructions (callgrind, $cg_steps steps)"
echo
echo "| program | plain instructions | LoopHunter instructions | overhead | counted layout calls | added per counted call |"
echo "|---|---|---|---|---|---|"
for v in 5 6; do
  for mode in widgets quick; do
    export QV4_FORCE_INTERPRETER=1
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.plain" "$work/qt${v}_bench" "$mode" "$cg_steps" >/dev/null 2>&1
    rm -rf "$work/dir"; mkdir -m 700 "$work/dir"
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.lh" env LD_PRELOAD="$preload" LOOPHUNTER_DIR="$work/dir" \
      LOOPHUNTER_STALL_MS=100000 LOOPHUNTER_WINDOW_MS=100000 "$work/qt${v}_bench" "$mode" "$cg_steps" >/dev/null 2>&1
    unset QV4_FORCE_INTERPRETER
    p=$(ir_of "$work/cg.plain"); l=$(ir_of "$work/cg.lh"); calls=$(calls_of "$work/dir")
    awk -v p="$p" -v l="$l" -v c="$calls" -v name="qt$v $mode" \
      'BEGIN { printf "| %s | %d | %d | **%+.2f %%** | %d | %+.0f instructions |\n", name, p, l, (l - p) / p * 100, c, (l - p) / c }'
  done
done
