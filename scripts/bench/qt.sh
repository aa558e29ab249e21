#!/usr/bin/env bash
# Qt under LoopHunter: what it costs a layout-heavy Qt Widgets and a Qt Quick program (Qt 5 and Qt 6),
# side by side in one run. scripts/bench/qt_bench.cpp is built for each Qt:
#   widgets: 12 x 20 labels and line edits in nested layouts, resized STEPS times;
#   quick:   240 Text items in a RowLayout of ColumnLayouts, the window resized and rendered STEPS times.
# Time: the program's CPU time (user + system), plain and under the preload (every family on),
# ROUNDS interleaved rounds, median and range; the counted Qt layout calls (the summary's
# layout_calls) give the time added per counted call. Instructions: the same programs with CG_STEPS
# steps under valgrind --tool=callgrind, plain and under the preload (the QML engine interpreted in
# both: QV4_FORCE_INTERPRETER=1), whole program, LoopHunter's own share of it, and the added
# instructions per counted call.
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
# own_of FILE: the instructions executed in LoopHunter's objects (libloophunter.so, libunwind)
own_of() {
  callgrind_annotate --threshold=100 "$1" 2>/dev/null |
    awk '/\[[^]]*(libloophunter\.so|libunwind[^]]*)\]$/ { gsub(",", "", $1); s += $1 } END { printf "%.0f\n", s }'
}

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
    # The added time per counted call from the median ratio (the CPU times of one machine drift
    # between rounds: the per-round ratio is the steadier figure).
    ns=$(awk -v p="$p" -v r="$mid" -v c="$calls" 'BEGIN { printf "%+.1f ns", p * r / 100 * 1e9 / c }')
    printf "| qt%s %s | %.2f | %.2f | **%+.1f %%** (%+.1f … %+.1f) | %s | %s | %s |\n" "$v" "$mode" "$p" "$l" "$mid" "$lo" "$hi" \
      "$calls" "$ns" "$(reports_of "$work/dir")"
  done
done
echo
echo "## Qt: instructions (callgrind, $cg_steps and $((cg_steps * 2)) steps)"
echo
echo "Whole program at $((cg_steps * 2)) steps; the added instructions per counted call are marginal:"
echo "the difference between the two step counts, so that LoopHunter's start-up (its tables, libunwind,"
echo "finding Qt) is not spread over the calls."
echo
echo "LoopHunter's own: the instructions executed in libloophunter.so and libunwind (their functions'"
echo "self cost, callgrind_annotate), as a share of the plain run: what its code adds, without the"
echo "change of the heap's layout that any preload brings (glibc's realloc copies more or less)."
echo
echo "| program | plain instructions | LoopHunter instructions | overhead | LoopHunter's own | counted layout calls | added per counted call (marginal) |"
echo "|---|---|---|---|---|---|---|"
# callgrind_run OUT STEPS PROGRAM MODE [preload]: instructions (the summary line), and the counted calls
callgrind_run() {
  local out=$1 n=$2 prog=$3 mode=$4 pre=${5:-}
  rm -rf "$work/dir"; mkdir -m 700 "$work/dir"
  # The preload in valgrind's environment: valgrind hands LD_PRELOAD on to the program it runs.
  env ${pre:+LD_PRELOAD="$pre"} LOOPHUNTER_DIR="$work/dir" LOOPHUNTER_STALL_MS=100000 LOOPHUNTER_WINDOW_MS=100000 \
    QV4_FORCE_INTERPRETER=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$prog" "$mode" "$n" >/dev/null 2>&1
}
for v in 5 6; do
  for mode in widgets quick; do
    prog=$work/qt${v}_bench
    callgrind_run "$work/cg.p1" "$cg_steps" "$prog" "$mode"
    callgrind_run "$work/cg.l1" "$cg_steps" "$prog" "$mode" "$preload"; c1=$(calls_of "$work/dir")
    callgrind_run "$work/cg.p2" $((cg_steps * 2)) "$prog" "$mode"
    callgrind_run "$work/cg.l2" $((cg_steps * 2)) "$prog" "$mode" "$preload"; c2=$(calls_of "$work/dir")
    awk -v p1="$(ir_of "$work/cg.p1")" -v l1="$(ir_of "$work/cg.l1")" -v p2="$(ir_of "$work/cg.p2")" -v l2="$(ir_of "$work/cg.l2")" \
        -v c1="$c1" -v c2="$c2" -v own="$(own_of "$work/cg.l2")" -v name="qt$v $mode" \
      'BEGIN { printf "| %s | %.0f | %.0f | **%+.2f %%** | %.0f (%+.2f %%) | %d | %+.0f instructions |\n", name, p2, l2,
               (l2 - p2) / p2 * 100, own, own / p2 * 100, c2, ((l2 - p2) - (l1 - p1)) / (c2 - c1) }'
  done
done
