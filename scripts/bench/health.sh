#!/usr/bin/env bash
# Benchmark: what event-loop health costs a program, side by side in one run.
#   1. free(): LoopHunter checks one counter (detectors watching frees: live timers with user data) on every free(). The
#      preload as shipped vs the same preload built without that check (LH_BENCH_NO_FREE_WATCH),
#      in ns per malloc+free pair (median of ROUNDS interleaved rounds, pinned to one CPU) and in
#      instructions per pair (callgrind: the deterministic measure).
#   2. The stall watchdog on an idle GTK 3 program for SECONDS: the CPU time of the watchdog thread
#      itself (its schedstat, in ns), its wakeups, and the whole process's CPU time with the stall
#      family on vs off.
# Prints Markdown (scripts/bench/run.sh includes it as a section).
#
# Usage: scripts/bench/health.sh [ROUNDS] [PAIRS] [SECONDS]   (defaults 5 20000000 30)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rounds=${1:-5} pairs=${2:-20000000} seconds=${3:-30}
scripts/build-native.sh >/dev/null
scripts/build-gtk-programs.sh >/dev/null
rel=$(readlink -f .build/release)
work=$(mktemp -d /tmp/loophunter-health-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
OUT=$work/nocheck CFLAGS_EXTRA=-DLH_BENCH_NO_FREE_WATCH scripts/build-native.sh >/dev/null
cc -O2 scripts/bench/malloc_bench.c -lpthread -o "$work/malloc_bench"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
pin=; command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"

echo "*free() and the timer check*: \`malloc_bench 1 $pairs\` (malloc+free pairs of 16-512 bytes), plain, under the"
echo "preload built without the check, and under the preload as shipped (no timer live: the check is one"
echo "load); median of $rounds interleaved rounds, pinned to CPU 1. Instructions per pair from callgrind."
echo
echo "| | plain | without the check | with the check | the check costs |"
echo "|---|---:|---:|---:|---:|"
: >"$work/plain"; : >"$work/without"; : >"$work/with"
for _ in $(seq "$rounds"); do
  $pin "$work/malloc_bench" 1 "$pairs" | field ns_per_pair >>"$work/plain"
  LD_PRELOAD=$work/nocheck/libloophunter.so LOOPHUNTER_DIR=$work/d $pin "$work/malloc_bench" 1 "$pairs" | field ns_per_pair >>"$work/without"
  LD_PRELOAD=$rel/libloophunter.so LOOPHUNTER_DIR=$work/d $pin "$work/malloc_bench" 1 "$pairs" | field ns_per_pair >>"$work/with"
done
p=$(median <"$work/plain"); wo=$(median <"$work/without"); wi=$(median <"$work/with")
ir() { # instructions per pair: two run lengths, so start-up cancels out
  local a b
  a=$(env "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/malloc_bench" 1 200000 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
  b=$(env "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/malloc_bench" 1 400000 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
  echo $(( (b - a) / 200000 ))
}
if command -v valgrind >/dev/null 2>&1; then
  ip=$(ir X=1); iwo=$(ir LD_PRELOAD=$work/nocheck/libloophunter.so LOOPHUNTER_DIR=$work/d)
  iwi=$(ir LD_PRELOAD=$rel/libloophunter.so LOOPHUNTER_DIR=$work/d)
else
  ip=0 iwo=0 iwi=0
fi
printf "| ns per pair | %.2f | %.2f | %.2f | **%+.2f ns** |\n" "$p" "$wo" "$wi" "$(echo "$wi - $wo" | bc -l)"
printf "| instructions per pair | %d | %d | %d | **%+d** |\n" "$ip" "$iwo" "$iwi" $((iwi - iwo))
echo

echo "*The stall watchdog, idle GTK 3 program, ${seconds} s*: \`gtk3-health idle $seconds\` under Xvfb (a window shown,"
echo "nothing to do: the loop sleeps in poll()). The watchdog thread's own CPU time is its schedstat run time,"
echo "read one second before the program ends; process CPU time is user + system (cpu_time.py)."
echo
gtk=$rel/test-programs/gtk/gtk3-health
run_idle() { # run_idle HOOKS OUTFILE: process CPU seconds into OUTFILE; prints the watchdog's ns and wakeups
  local hooks=$1 cpu=$2 dir=$work/idle-$1
  rm -rf "$dir"
  GTK_A11Y=none NO_AT_BRIDGE=1 python3 scripts/bench/cpu_time.py "$cpu" xvfb-run -a env LD_PRELOAD="$rel/libloophunter.so" \
    LOOPHUNTER_DIR="$dir" LOOPHUNTER_HOOKS="$hooks" "$gtk" idle "$seconds" &
  local waiter=$! pid= ns=0
  sleep $((seconds - 1))
  pid=$(pgrep -f "^$gtk idle $seconds" | head -n1 || true)
  if [ -n "$pid" ]; then
    for task in /proc/"$pid"/task/*; do
      [ "$(cat "$task/comm" 2>/dev/null)" = loophunter-wd ] && ns=$(awk '{print $1}' "$task/schedstat")
    done
  fi
  wait "$waiter" || true
  local wakeups
  wakeups=$(python3 -c "import json,glob,sys; f=glob.glob('$dir/summary-*.json'); print(json.load(open(f[0]))['stalls']['watchdog']['wakeups'] if f and json.load(open(f[0])).get('stalls') else 0)")
  echo "$ns $wakeups"
}
read -r ns wakeups < <(run_idle all "$work/cpu.on")
read -r _ _ < <(run_idle layout,alloc,loop,log,window,timer "$work/cpu.off")
on=$(cat "$work/cpu.on"); off=$(cat "$work/cpu.off")
echo "| | watchdog thread CPU | wakeups | process CPU, stall on | process CPU, stall off |"
echo "|---|---:|---:|---:|---:|"
printf "| %d s idle | **%.3f ms** (%.4f %% of one core) | %d | %.3f s | %.3f s |\n" "$seconds" "$(echo "$ns / 1000000" | bc -l)" \
  "$(echo "$ns / ($seconds * 10000000)" | bc -l)" "$wakeups" "$on" "$off"
