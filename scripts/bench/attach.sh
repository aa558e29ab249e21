#!/usr/bin/env bash
# `loophunter attach` (issue 20), measured side by side in one run on this machine:
#   1. From the command to the first counted iteration, on a fresh process per round of each of
#      toykit's attach-target (`toykit-demo attach-target`), gtk3-spinner-progress and
#      gtk4-spinner-progress (cause programs; one Xvfb server for the run, GDK_BACKEND=x11):
#        command      wall time from starting `loophunter attach --for 1` to its "attached" line
#        in the call  the command's own figure on that line: injection + dlopen of the preload +
#                     loophunter_attach (printed to 1 ms)
#        load         the injector alone on another fresh process of the same program, calling
#                     libloophunter.so's loophunter_version (a thread caught at its wait, dlopen of
#                     the library, the call; no session); re-inject: the same call again, the
#                     library already loaded (the injection's own cost)
#        first iter   the summary's attach.first_iteration_ns: hooks in -> first iteration boundary
#      The programs' rounds are interleaved. GTK programs get 1.5 s to start, toykit 0.3 s.
#   2. Per call, interleaved rounds: tk_view_layout() through the PLT (`lh_bench layout repeat|frame`)
#      and a malloc+free pair (`malloc_bench 1`), pinned to CPU 1: plain, under LD_PRELOAD, and
#      attached (LH_BENCH_WAIT_FILE: the bench polls with 10 ms timeouts until the command has said
#      "attached", then measures). Each LoopHunter run's summary must count the calls (layout_calls;
#      alloc.calls), else the figure is "not counted".
#   3. Instructions per call. Callgrind (hotpaths.sh's method: two run lengths, the difference),
#      plain and preloaded only: valgrind runs the program on its own CPU model, and the injector's
#      code run in its thread crashes valgrind (the script shows what `loophunter attach` and
#      valgrind say). So also gdb, in all three modes: a breakpoint on the bench's PLT entry, then
#      `stepi` until the call has returned (scheduler-locking step), over 80 calls after a warm-up;
#      and gdb shows that the attached bench's GOT entries point at the same exported wrappers the
#      loader binds under LD_PRELOAD (LD_DEBUG=bindings).
# Prints markdown tables: median [min..max] of the rounds.
#
# Usage: scripts/bench/attach.sh [--rounds N]   (default 10; needs ptrace rights over its own
#        children, Xvfb, valgrind and gdb; builds what it runs)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rounds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds)
      rounds=${2:-}
      [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "attach.sh: --rounds takes a positive number, e.g. --rounds 5" >&2; exit 2; }
      shift ;;
    *) echo "attach.sh: unknown option $1 (use --rounds N)" >&2; exit 2 ;;
  esac
  shift
done
for tool in Xvfb valgrind gdb taskset; do
  command -v $tool >/dev/null || { echo "attach.sh: needs $tool (scripts/setup.sh build installs it)" >&2; exit 2; }
done

scripts/build-native.sh >/dev/null
[ -x .build/release/cause-programs/gtk4-spinner-progress ] || scripts/build-cause-programs.sh >/dev/null
swift build -c release --product loophunter 2>&1 | grep -E "error" && exit 1
rel=$(readlink -f .build/release)
cli=$rel/loophunter
preload=$rel/libloophunter.so
bench=$rel/bench
mkdir -p "$bench"
cc -O2 -g -ISources/Toykit/include scripts/bench/lh_bench.c -L"$rel" -ltoykit -Wl,-rpath,"$rel" -o "$bench/lh_bench"
cc -O2 -g scripts/bench/malloc_bench.c -lpthread -o "$bench/malloc_bench"
cc -O2 -ISources/LoopHunterCLISupport/include Tests/Programs/inject/driver.c \
  Sources/LoopHunterCLISupport/lh_inject.c -o "$bench/inject-driver"
work=$(mktemp -d /tmp/loophunter-attach-bench.XXXXXX)
xvfb=
targets=()
cleanup() {
  local p
  for p in "${targets[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
# spread FILE [FORMAT]: "median [min..max]" of the numbers in FILE, or "-" without any
spread() {
  local fmt=${2:-%.1f}
  [ -s "$1" ] || { echo "-"; return; }
  local m
  m=$(median <"$1")
  sort -g "$1" | awk -v m="$m" -v f="$fmt" 'NR == 1 {lo = $1} {hi = $1} END {printf f " [" f ".." f "]", m, lo, hi}'
}

# One Xvfb for every GTK process (its display number written to fd 5 once it listens).
Xvfb -displayfd 5 -screen 0 1280x1024x24 -nolisten tcp 5>"$work/display" 2>/dev/null &
xvfb=$!
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
[ -s "$work/display" ] || { echo "attach.sh: Xvfb did not start" >&2; exit 1; }
display=:$(head -n1 "$work/display")

# start PROGRAM: starts a fresh process of it in the background and sets $target to its pid.
start() {
  case "$1" in
    toykit) TOYKIT_RUN_MS=120000 "$rel/toykit-demo" attach-target >/dev/null 2>&1 </dev/null & ;;
    gtk*) CAUSE_SECONDS=120 DISPLAY=$display GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 \
            "$rel/cause-programs/$1-spinner-progress" >/dev/null 2>&1 </dev/null & ;;
  esac
  target=$!
  targets+=("$target")
  case "$1" in toykit) sleep 0.3 ;; *) sleep 1.5 ;; esac
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
# summary DIR JQ: a value of the session's summary
summary() { jq -r "$2" "$(ls "$1"/summary-*.json | head -n1)"; }

echo "### From the command to the first counted iteration"
echo
programs=(toykit gtk3 gtk4)
for r in $(seq "$rounds"); do
  for p in "${programs[@]}"; do
    # The injector alone: inject + dlopen + a call of loophunter_version, then again (loaded).
    start "$p"
    line=$("$bench/inject-driver" "$target" "$preload" loophunter_version "" 10000 | head -n1)
    [[ "$line" == OK* ]] && echo "$line" | field ms >>"$work/$p.load"
    line=$("$bench/inject-driver" "$target" "$preload" loophunter_version "" 10000 | head -n1)
    [[ "$line" == OK* ]] && echo "$line" | field ms >>"$work/$p.inject"
    stop "$target"
    # The command: wall time to its "attached" line (each stderr line stamped as it arrives).
    start "$p"
    d=$work/$p.$r
    t0=$EPOCHREALTIME
    { "$cli" attach --for 1 --dir "$d" "$target" 2>&1 >"$d.out" || true; } |
      while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done >"$d.err"
    stop "$target"
    t1=$(awk '/attached to/ {print $1; exit}' "$d.err")
    if [ -z "$t1" ]; then
      echo "attach.sh: $p round $r did not attach: $(cut -d' ' -f2- "$d.err" | head -n3)" >&2
      continue
    fi
    awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f\n", (b - a) * 1000}' >>"$work/$p.command"
    sed -n 's/.*attached to .* in \([0-9.]*\) s;.*/\1/p' "$d.err" | awk '{printf "%.1f\n", $1 * 1000}' >>"$work/$p.incall"
    first=$(summary "$d" '.attach.first_iteration_ns // empty')
    [ -n "$first" ] && awk -v n="$first" 'BEGIN {printf "%.2f\n", n / 1e6}' >>"$work/$p.first"
    summary "$d" '.attach.entries_redirected' >>"$work/$p.entries"
    summary "$d" '.attach.ended_by // "null"' >>"$work/$p.ended"
  done
done
echo "\`scripts/bench/attach.sh --rounds $rounds\`: a fresh process per round and program, rounds interleaved;"
echo "median [min..max] in ms. *command*: from starting \`loophunter attach --for 1 PID\` to its \"attached\" line;"
echo "*in the call*: the figure on that line (injection + dlopen + loophunter_attach; printed to 1 ms);"
echo "*load*: the injector alone calling libloophunter.so's loophunter_version on another fresh process"
echo "(catch a waiting thread, dlopen, call); *re-inject*: the same call again, the library loaded;"
echo "*first iteration*: the summary's attach.first_iteration_ns (hooks in to the first iteration boundary)."
echo
echo "| program | command | in the call | load | re-inject | first iteration | entries redirected | ended_by |"
echo "|---|---|---|---|---|---|---|---|"
for p in "${programs[@]}"; do
  name=$p; case $p in toykit) name="toykit-demo attach-target" ;; *) name="$p-spinner-progress" ;; esac
  echo "| $name | $(spread "$work/$p.command") | $(spread "$work/$p.incall") | $(spread "$work/$p.load" %.2f)" \
    "| $(spread "$work/$p.inject" %.2f) | $(spread "$work/$p.first" %.2f) | $(spread "$work/$p.entries" %.0f)" \
    "| $(sort "$work/$p.ended" 2>/dev/null | uniq -c | awk '{print $2 " x" $1}' | paste -sd ' ') |"
done

# ---- 2. per call: plain, preloaded, attached ----------------------------------------------------
calls=10000000 pairs=20000000
pin="taskset -c 1"
# run MODE NAME CMD...: one run of a bench; prints its output line, or "not counted" (and why, on
# stderr) when a LoopHunter run's summary does not hold the calls.
run() {
  local mode=$1 name=$2; shift 2
  local d=$work/$name.$mode.$RANDOM out
  mkdir -p "$d"
  case $mode in
    plain) out=$(LH_BENCH_WAIT_FILE=$work/always $pin "$@") ;;
    preload) # taskset outside the preload (one summary: the bench's); LOOPHUNTER_LAUNCHER_PID (the
      # pid env execs from): a summary even without an event loop
      LH_BENCH_WAIT_FILE=$work/always $pin env LD_PRELOAD="$preload" LOOPHUNTER_DIR="$d" \
        LOOPHUNTER_LAUNCHER_PID=$BASHPID "$@" >"$d/bench.out"
      out=$(cat "$d/bench.out") ;;
    attach)
      LH_BENCH_WAIT_FILE=$d/go $pin "$@" >"$d/bench.out" 2>&1 &
      local b=$! a
      targets+=("$b")
      sleep 0.1
      "$cli" attach --for 120 --dir "$d/reports" "$b" >"$d/attach.out" 2>"$d/attach.err" &
      a=$!
      while ! grep -qs "attached to" "$d/attach.err" && kill -0 "$a" 2>/dev/null; do sleep 0.02; done
      touch "$d/go"
      wait "$b" || true
      wait "$a" || true
      out=$(cat "$d/bench.out")
      d=$d/reports ;;
  esac
  if [ "$mode" != plain ]; then
    local counted
    case $name in
      malloc) counted=$(summary "$d" '.alloc.calls') ;;
      *) counted=$(summary "$d" '.layout_calls') ;;
    esac
    local want=${out##*calls=}; [ "$name" = malloc ] && want=$pairs
    if [ "${counted:-0}" -lt "${want%% *}" ]; then
      echo "attach.sh: $mode $name: the summary counts $counted of ${want%% *} calls" >&2
      echo "not counted"; return
    fi
  fi
  echo "$out"
}
touch "$work/always"
echo
echo "### Per call: GOT-patched (attached) vs preloaded"
echo
for r in $(seq "$rounds"); do
  for mode in plain preload attach; do
    run $mode repeat "$bench/lh_bench" layout repeat $calls | field ns_per_call >>"$work/c.repeat.$mode"
    run $mode frame "$bench/lh_bench" layout frame $calls | field ns_per_call >>"$work/c.frame.$mode"
    run $mode malloc "$bench/malloc_bench" 1 $pairs | field ns_per_pair >>"$work/c.malloc.$mode"
  done
done

# ---- 3. instructions per call ------------------------------------------------------------------
refs() { # refs PRELOAD CMD...: instructions of one run under callgrind
  local pre=$1; shift
  env ${pre:+LD_PRELOAD=$pre} LOOPHUNTER_DIR="$work/cg" \
    valgrind --tool=callgrind --child-silent-after-fork=yes --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,
}
per() { # per PRELOAD CMD-with-N...: instructions per call
  local pre=$1 a b; shift
  a=$(refs "$pre" "${@/N/200000}")
  b=$(refs "$pre" "${@/N/400000}")
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 200000 }'
}
declare -A ir
for name in repeat frame malloc; do
  case $name in malloc) cmd=("$bench/malloc_bench" 1 N) ;; *) cmd=("$bench/lh_bench" layout $name N) ;; esac
  ir[$name.plain]=$(per "" "${cmd[@]}")
  ir[$name.preload]=$(per "$preload" "${cmd[@]}")
done

# gdb: instructions from the PLT entry to the return, per call (count.py, below), in each mode.
cat >"$work/count.py" <<'PY'
# gdb -p PID -batch -x count.py: instructions per call made through the PLT entries LH_SYMS
# (comma-separated), from the entry to the return, over LH_CALLS calls after LH_SKIP of each; the
# bench (waiting for LH_BENCH_WAIT_FILE) is released by creating LH_GO.
import gdb, os
syms = os.environ["LH_SYMS"].split(",")
skip, calls = int(os.environ["LH_SKIP"]), int(os.environ["LH_CALLS"])
gdb.execute("set pagination off")
bps = [gdb.Breakpoint("*%d" % int(gdb.parse_and_eval("(long)&'%s@plt'" % s)), internal=True) for s in syms]
for b in bps: b.ignore_count = skip
open(os.environ["LH_GO"], "w").close()
gdb.execute("continue", to_string=True)
for b in bps: b.ignore_count = 0
gdb.execute("set scheduler-locking step")
total = 0
for i in range(calls):
    if i > 0: gdb.execute("continue", to_string=True)
    sp = int(gdb.parse_and_eval("$sp"))
    n = 0
    while int(gdb.parse_and_eval("$sp")) <= sp:
        gdb.execute("stepi", to_string=True)
        n += 1
    total += n
for b in bps: b.delete()
print("instructions_per_call=%.1f" % (total / calls))
gdb.execute("detach")
PY
# steps MODE SYMS SKIP CMD...: gdb's instructions per call of one run of CMD (waiting for its file)
steps() {
  local mode=$1 syms=$2 skip=$3 d=$work/steps.$RANDOM b a=; shift 3
  mkdir -p "$d"
  case $mode in
    plain) LH_BENCH_WAIT_FILE=$d/go "$@" >/dev/null & b=$! ;;
    preload) LH_BENCH_WAIT_FILE=$d/go env LD_PRELOAD="$preload" LOOPHUNTER_DIR="$d" $cg_time_limits "$@" >/dev/null & b=$! ;;
    attach) LH_BENCH_WAIT_FILE=$d/go "$@" >/dev/null & b=$! ;;
  esac
  targets+=("$b")
  sleep 0.2
  if [ "$mode" = attach ]; then
    "$cli" attach --for 120 --stall-ms 100000 --window-ms 100000 --dir "$d/reports" "$b" >/dev/null 2>"$d/attach.err" &
    a=$!
    while ! grep -qs "attached to" "$d/attach.err" && kill -0 "$a" 2>/dev/null; do sleep 0.02; done
  fi
  LH_SYMS=$syms LH_SKIP=$skip LH_CALLS=80 LH_GO=$d/go gdb -p "$b" -batch -nx -x "$work/count.py" 2>/dev/null |
    field instructions_per_call
  wait "$b" 2>/dev/null || true
  [ -z "$a" ] || wait "$a" 2>/dev/null || true
}
# Stalls and slow windows off while gdb holds the thread (as hotpaths.sh does under valgrind).
cg_time_limits="LOOPHUNTER_STALL_MS=100000 LOOPHUNTER_WINDOW_MS=100000"
declare -A st
for mode in plain preload attach; do
  st[repeat.$mode]=$(steps $mode tk_view_layout 200 "$bench/lh_bench" layout repeat 100000)
  st[frame.$mode]=$(steps $mode tk_view_layout 3100 "$bench/lh_bench" layout frame 100000)
  pair=$(steps $mode malloc,free 200 "$bench/malloc_bench" 1 100000)
  st[malloc.$mode]=$(awk -v n="$pair" 'BEGIN { if (n != "") printf "%.1f", 2 * n }')
done

echo "Interleaved rounds ($rounds), pinned to CPU 1 (\`taskset -c 1\`), median [min..max] ns per call."
echo "\`lh_bench layout repeat|frame $calls\` (tk_view_layout through the PLT, as in section 1 of run.sh),"
echo "\`malloc_bench 1 $pairs\` (one malloc+free pair). *attached*: the bench waits in a poll() loop"
echo "(LH_BENCH_WAIT_FILE) until \`loophunter attach --for 120 PID\` has said \"attached\", then measures; the"
echo "command ends with the program. Every preloaded and attached run's summary counts all its calls."
echo "Instructions per call: *Ir*, callgrind (200k vs 400k calls: the loop's own instructions"
echo "included), plain and preloaded; *steps*, gdb \`stepi\` from the bench's PLT entry to the return"
echo "(mean of 80 calls after a warm-up; a pair is a malloc and a free), plain / preloaded / attached."
echo
echo "| call | plain ns | preloaded ns | attached ns | attached - preloaded | plain Ir | preloaded Ir | steps plain / preloaded / attached |"
echo "|---|---|---|---|---|---|---|---|"
for name in repeat frame malloc; do
  label=$name; case $name in repeat | frame) label="tk_view_layout ($name)" ;; malloc) label="malloc+free pair" ;; esac
  pm=$(median <"$work/c.$name.preload" 2>/dev/null || true) am=$(median <"$work/c.$name.attach" 2>/dev/null || true)
  diff=$(awk -v p="$pm" -v a="$am" 'BEGIN { if (p == "" || a == "") print "-"; else printf "%+.2f ns (%+.1f %%)", a - p, 100 * (a - p) / p }')
  echo "| $label | $(spread "$work/c.$name.plain" %.2f) | $(spread "$work/c.$name.preload" %.2f) |" \
    "$(spread "$work/c.$name.attach" %.2f) | $diff | ${ir[$name.plain]} | ${ir[$name.preload]} |" \
    "${st[$name.plain]} / ${st[$name.preload]} / ${st[$name.attach]} |"
done

# ---- the attached wrappers are the preload's: gdb reads the GOT entries of an attached bench -----
echo
d=$work/gdb
mkdir -p "$d"
gotcheck() { # gotcheck PID SYMBOL...: "SYMBOL -> function in module" per GOT entry
  local pid=$1 s args=(); shift
  for s in "$@"; do args+=(-ex "info symbol *(void **)&'$s@got.plt'"); done
  gdb -p "$pid" -batch -nx "${args[@]}" 2>/dev/null | sed -n 's/^\([a-z_]*\) in section \.text of \(.*\)$/\1 in \2/p' |
    sed "s|$rel/||" | paste -sd ';' | sed 's/;/; /g'
}
LH_BENCH_WAIT_FILE=$d/go "$bench/lh_bench" layout repeat 1000 >/dev/null &
b1=$!
LH_BENCH_WAIT_FILE=$d/go "$bench/malloc_bench" 1 1000 >/dev/null &
b2=$!
targets+=("$b1" "$b2")
sleep 0.2
"$cli" attach --for 60 --dir "$d/r1" "$b1" >/dev/null 2>"$d/a1.err" &
a1=$!
"$cli" attach --for 60 --dir "$d/r2" "$b2" >/dev/null 2>"$d/a2.err" &
a2=$!
while ! { grep -q "attached to" "$d/a1.err" && grep -q "attached to" "$d/a2.err"; } &&
  kill -0 "$a1" 2>/dev/null && kill -0 "$a2" 2>/dev/null; do sleep 0.05; done
echo "GOT entries of the attached benches (gdb): lh_bench: $(gotcheck "$b1" tk_view_layout);" \
  "malloc_bench: $(gotcheck "$b2" malloc free)."
# bindings CMD... SYMBOLS-REGEX: what the loader binds the program's references to under LD_PRELOAD
bindings() {
  local re=${*: -1} name
  set -- "${@:1:$#-1}"
  name=$(basename "$1")
  LD_PRELOAD=$preload LOOPHUNTER_DISABLE=1 LD_DEBUG=bindings "$@" 2>&1 >/dev/null |
    sed -n "s#.*binding file [^ ]*/$name \[0\] to \([^ ]*\) \[0\]: normal symbol .\($re\)'.*#\2 in \1#p" |
    sed "s|$rel/||" | sort -u | paste -sd ';' | sed 's/;/; /g'
}
echo "Under LD_PRELOAD the loader binds the same symbols: lh_bench: $(bindings "$bench/lh_bench" layout repeat 40 tk_view_layout);" \
  "malloc_bench: $(bindings "$bench/malloc_bench" 1 10 'malloc\|free')."
touch "$d/go"
wait "$a1" "$a2" 2>/dev/null || true

# ---- callgrind and ptrace: `loophunter attach` on a program under valgrind ----------------------
rm -f "$d/go2"
LH_BENCH_WAIT_FILE=$d/go2 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench/lh_bench" layout repeat 1000 \
  >/dev/null 2>"$d/vg.err" &
v=$!
targets+=("$v")
sleep 3
vg=$("$cli" attach --for 1 --dir "$d/vg" "$v" 2>&1 >/dev/null | grep -E "attached to|cannot" | head -n1 || true)
touch "$d/go2"
wait "$v" 2>/dev/null || true
echo "Under callgrind: \`loophunter attach\` said \"${vg#loophunter: }\"; valgrind:" \
  "$(grep -m1 -o 'VALGRIND INTERNAL ERROR.*' "$d/vg.err" || echo "no internal error")."
