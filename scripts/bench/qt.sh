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
# Instructions are counted under SEEDS heap layouts (heap_seed.c), plain and LoopHunter alike.
#
# Usage: scripts/bench/qt.sh [ROUNDS [STEPS [CG_STEPS [SEEDS]]]]   (default 7 300 40 11; ROUNDS 0: no
# time rounds; needs valgrind and Qt)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-7}
steps=${2:-300}
cg_steps=${3:-40}
seeds=${4:-11}
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

if ((rounds > 0)); then
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
fi
echo "## Qt: instructions (callgrind, $cg_steps and $((cg_steps * 2)) steps, $seeds heap seeds)"
echo
echo "Whole program at $((cg_steps * 2)) steps. The same program's count moves by several percent with"
echo "nothing but the heap's layout (glibc's realloc grows a block in place or copies it: its copies"
echo "vary run to run, plain and LoopHunter alike), so plain and LoopHunter both run under $seeds heap"
echo "seeds (heap_seed.c: one block of SEED x 48 bytes taken at start-up), side by side seed by seed."
echo "*Overhead*: the difference of the means over the seeds, with its standard error and the range of"
echo "the per-seed ratios. *Outside glibc's realloc*: the same with glibc's realloc (inclusive, its"
echo "copies) left out of both: the part that does not depend on the heap's layout. *LoopHunter's own*:"
echo "the instructions executed in libloophunter.so and libunwind (their functions' self cost, mean)."
echo "All as a share of the plain mean. The added instructions per counted call are marginal (seed 0):"
echo "the difference between the two step counts, so that LoopHunter's start-up (its tables, libunwind,"
echo "finding Qt) is not spread over the calls; they carry the heap's swing."
echo
echo "| program | plain instructions (mean) | LoopHunter instructions (mean) | overhead (± SE; per-seed range) | outside glibc's realloc | LoopHunter's own | counted layout calls | added per counted call (marginal) |"
echo "|---|---|---|---|---|---|---|---|"
# callgrind_run OUT DIR STEPS SEED PROGRAM MODE [preload]: instructions (the summary line) in OUT,
# the reports and summary in DIR
callgrind_run() {
  local out=$1 dir=$2 n=$3 seed=$4 prog=$5 mode=$6 pre=${7:-}
  rm -rf "$dir"; mkdir -m 700 "$dir"
  # The preloads in valgrind's environment: valgrind hands LD_PRELOAD on to the program it runs.
  env LD_PRELOAD="${pre:+$pre }$work/heap_seed.so" LH_HEAP_SEED="$seed" LOOPHUNTER_DIR="$dir" \
    LOOPHUNTER_STALL_MS=100000 LOOPHUNTER_WINDOW_MS=100000 \
    QV4_FORCE_INTERPRETER=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$prog" "$mode" "$n" >/dev/null 2>&1
}
# realloc_of FILE: glibc's realloc, inclusive (its copies included)
realloc_of() {
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk '/malloc\.c:realloc \[[^]]*libc\.so/ { gsub(",", "", $1); print $1; found = 1; exit } END { if (!found) print 0 }'
}
cc -O2 -shared -fPIC scripts/bench/heap_seed.c -o "$work/heap_seed.so"
for v in 5 6; do
  for mode in widgets quick; do
    prog=$work/qt${v}_bench
    # plain and LoopHunter side by side (two cores), seed by seed, then seed 0 at half the steps.
    # One line per seed: plain total, LoopHunter total, their glibc realloc, LoopHunter's own.
    : >"$work/seeds"
    for ((s = 0; s < seeds; s++)); do
      callgrind_run "$work/cg.p.$s" "$work/dir.p" $((cg_steps * 2)) "$s" "$prog" "$mode" &
      callgrind_run "$work/cg.l.$s" "$work/dir.l.$s" $((cg_steps * 2)) "$s" "$prog" "$mode" "$preload" &
      wait
      echo "$(ir_of "$work/cg.p.$s") $(ir_of "$work/cg.l.$s") $(realloc_of "$work/cg.p.$s") $(realloc_of "$work/cg.l.$s") $(own_of "$work/cg.l.$s")" >>"$work/seeds"
    done
    callgrind_run "$work/cg.p1" "$work/dir.p" "$cg_steps" 0 "$prog" "$mode" &
    callgrind_run "$work/cg.l1" "$work/dir.l1" "$cg_steps" 0 "$prog" "$mode" "$preload" &
    wait
    c1=$(calls_of "$work/dir.l1"); c2=$(calls_of "$work/dir.l.0")
    python3 - "$work/seeds" "qt$v $mode" "$(ir_of "$work/cg.p1")" "$(ir_of "$work/cg.l1")" "$c1" "$c2" <<'PY'
import statistics as st, sys
rows = [[float(x) for x in line.split()] for line in open(sys.argv[1]) if line.strip()]
name, p1, l1, c1, c2 = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
mean = lambda xs: sum(xs) / len(xs)
sd = lambda xs: st.stdev(xs) if len(xs) > 1 else 0.0
p = [r[0] for r in rows]; l = [r[1] for r in rows]
pn = [r[0] - r[2] for r in rows]; ln = [r[1] - r[3] for r in rows]
base = mean(p)
se = (sd(p) ** 2 / len(p) + sd(l) ** 2 / len(l)) ** 0.5
ratios = [(b - a) / a * 100 for a, b in zip(p, l)]
own = mean([r[4] for r in rows])
marginal = ((rows[0][1] - rows[0][0]) - (l1 - p1)) / (c2 - c1)
print(f"| {name} | {base:.0f} | {mean(l):.0f} | **{(mean(l) - base) / base * 100:+.2f} %** (± {se / base * 100:.2f}; "
      f"{min(ratios):+.2f} … {max(ratios):+.2f}) | {(mean(ln) - mean(pn)) / base * 100:+.2f} % | {own:.0f} ({own / base * 100:+.2f} %) "
      f"| {c2} | {marginal:+.0f} instructions |")
PY
  done
done
