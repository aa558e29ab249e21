#!/usr/bin/env bash
# LoopHunter beside peer tools on the same work, in one run, interleaved rounds (median):
#   a. malloc+free pairs (malloc_bench, 1 and 2 threads): plain, LoopHunter, heaptrack
#   b. the layout call of lh_bench (`lh_bench layout repeat|frame N`): plain, LoopHunter, uftrace, ltrace
#   c. a GTK 3 program (gtk3-layout-bench, LH_RUN_FRAMES frames): CPU time plain, under LoopHunter,
#      under perf uprobes on GTK's layout-vfunc dispatch sites, and under uftrace on GTK's layout
#      entry points; with the layout calls each of them recorded
# A peer's figure is printed only when its own output proves it traced the program
# (scripts/bench/peer_proof.sh): heaptrack_print names malloc_bench as the debuggee and counts its
# allocations; uftrace's info names the exe and its report counts the traced function; ltrace's
# output has one line per call; perf stat counts its probes. Otherwise the cell says
# "not traced (why)". LoopHunter's own count (its summary's threads' layout_calls) is checked alike.
# Ratios are time ratios: the tool's figure divided by plain's and by LoopHunter's.
# Prints markdown tables.
#
# Usage: scripts/bench/peers.sh [ROUNDS [PAIRS [FRAMES]]]
#   ROUNDS  interleaved rounds per figure (default 3)
#   PAIRS   malloc+free pairs per thread, plain and LoopHunter (default 2000000; heaptrack PAIRS/10)
#   FRAMES  frames of gtk3-layout-bench (default 60)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rounds=${1:-3} pairs=${2:-2000000} frames=${3:-60}
for n in "$rounds" "$pairs" "$frames"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "peers.sh: ROUNDS, PAIRS and FRAMES are positive integers (got '$n')" >&2; exit 2; }
done
# shellcheck source=scripts/bench/peer_proof.sh
. scripts/bench/peer_proof.sh

scripts/build-native.sh >/dev/null
scripts/build-gtk-programs.sh >/dev/null 2>&1 || true
rel=$(readlink -f .build/release)
preload=$rel/libloophunter.so
gtk=$rel/test-programs/gtk
bench=$rel/bench
mkdir -p "$bench"
cc -O2 -g -ISources/Toykit/include scripts/bench/lh_bench.c -L"$rel" -ltoykit -Wl,-rpath,"$rel" -o "$bench/lh_bench"
cc -O2 scripts/bench/malloc_bench.c -lpthread -o "$bench/malloc_bench"

work=$(mktemp -d /tmp/loophunter-peers.XXXXXX)
probe_group=lhpeers_$$ # perf probes are the kernel's, not this process's: deleted on exit
xvfb=
cleanup() {
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  perf probe -q -d "$probe_group:*" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
ratio() { echo "$1 / $2" | bc -l | xargs printf "%.1fx"; }
# spread FORMAT FILE: the median of the rounds in FILE and their range, e.g. "2.02 (1.95–2.30)"
spread() { printf "$1 ($1–$1)" "$(median <"$2")" "$(sort -g "$2" | head -n1)" "$(sort -g "$2" | tail -n1)"; }
have() { command -v "$1" >/dev/null 2>&1; }
pin=; [ "$(nproc)" -ge 2 ] && have taskset && pin="taskset -c 1"

# A row: TOOL COMMAND FIGURE_FILE WHY_FILE PROOF_FILE PLAIN LOOPHUNTER FORMAT
# prints the median figure and its ratios, or "not traced (why)" when any round's proof failed.
row() {
  local label=$1 command=$2 figures=$3 why=$4 proofs=$5 plain=$6 lh=$7 format=$8 v
  if [ -s "$why" ]; then
    printf "| %s | \`%s\` | not traced (%s) | | | |\n" "$label" "$command" "$(head -n1 "$why")"
    return
  fi
  v=$(median <"$figures")
  printf "| %s | \`%s\` | %s | %s | %s | %s |\n" "$label" "$command" "$(spread "$format" "$figures")" \
    "$(ratio "$v" "$plain")" "$(ratio "$v" "$lh")" "$(sort -u "$proofs" | awk '{s = s (NR > 1 ? "; " : "") $0} END {print s}')"
}

# ---------------------------------------------------------------------------------------------
echo "## a. malloc+free pairs: heaptrack"
echo
ht_pairs=$((pairs / 10))
echo "\`malloc_bench THREADS PAIRS\` times PAIRS malloc+free pairs per thread (the slowest thread's ns per"
echo "pair); $pairs pairs plain and under LoopHunter, $ht_pairs under heaptrack (it is far slower); median of"
echo "$rounds interleaved rounds; 1 thread pinned to CPU 1 with \`$pin\` outside the tool (so heaptrack's"
echo "own heaptrack_interpret process shares that CPU), 2 threads unpinned. heaptrack's proof: \`heaptrack_print\`"
echo "on its data file names malloc_bench as the debuggee and counts >= THREADS x PAIRS allocation calls."
echo
echo "| threads, tool | command | ns/pair, median (range) | ÷ plain | ÷ LoopHunter | proof: allocation calls recorded |"
echo "|---|---|---|---|---|---|"
for threads in 1 2; do
  p=; [ "$threads" = 1 ] && p=$pin
  : >"$work/m.plain"; : >"$work/m.lh"; : >"$work/m.ht"; : >"$work/m.ht.why"; : >"$work/m.ht.proof"
  for r in $(seq "$rounds"); do
    $p "$bench/malloc_bench" "$threads" "$pairs" | field ns_per_pair >>"$work/m.plain"
    LD_PRELOAD=$preload LOOPHUNTER_DIR=$work/m $p "$bench/malloc_bench" "$threads" "$pairs" | field ns_per_pair >>"$work/m.lh"
    if ! have heaptrack; then echo "not installed" >>"$work/m.ht.why"; continue; fi
    rm -f "$work"/ht.*
    { $p heaptrack -o "$work/ht" "$bench/malloc_bench" "$threads" "$ht_pairs" 2>/dev/null || true; } | field ns_per_pair >>"$work/m.ht"
    if n=$(heaptrack_proof "$(ls "$work"/ht.* 2>/dev/null | head -n1)" "$bench/malloc_bench" $((threads * ht_pairs))); then
      echo "$n" >>"$work/m.ht.proof"
    else
      echo "$n" >>"$work/m.ht.why"
    fi
  done
  pl=$(median <"$work/m.plain"); lh=$(median <"$work/m.lh")
  printf "| %d, plain | \`%s\` | %s | 1.0x | %s | — |\n" "$threads" "${p:+$p }malloc_bench $threads $pairs" \
    "$(spread %.2f "$work/m.plain")" "$(ratio "$pl" "$lh")"
  printf "| %d, LoopHunter | \`%s\` | %s | %s | 1.0x | — |\n" "$threads" \
    "LD_PRELOAD=libloophunter.so ${p:+$p }malloc_bench $threads $pairs" "$(spread %.2f "$work/m.lh")" "$(ratio "$lh" "$pl")"
  row "$threads, heaptrack" "${p:+$p }heaptrack -o F malloc_bench $threads $ht_pairs" \
    "$work/m.ht" "$work/m.ht.why" "$work/m.ht.proof" "$pl" "$lh" "%.2f"
done
if have heaptrack && [ -n "$pin" ]; then
  # The command run.sh used until this check existed: taskset inside heaptrack.
  rm -f "$work"/ht.*
  v=$({ heaptrack -o "$work/ht" $pin "$bench/malloc_bench" 1 "$ht_pairs" 2>/dev/null || true; } | field ns_per_pair)
  n=$(heaptrack_proof "$(ls "$work"/ht.* 2>/dev/null | head -n1)" "$bench/malloc_bench" "$ht_pairs") || true
  echo
  echo "Control: \`heaptrack -o F $pin malloc_bench 1 $ht_pairs\` (taskset inside heaptrack, as run.sh once"
  echo "ran it) printed ns_per_pair=$v; its proof: $n."
fi

# ---------------------------------------------------------------------------------------------
echo
echo "## b. The layout call: uftrace and ltrace"
echo
calls=2000000 uf_calls=300000 lt_calls=6000
echo "\`lh_bench layout PATTERN N\` calls libtoykit's \`tk_view_layout()\` through the PLT N times after a"
echo "warm-up of 3 iterations (120 calls for *repeat*, 3000 for *frame*) and prints its ns per call; N = $calls"
echo "plain and under LoopHunter, $uf_calls under uftrace, $lt_calls under ltrace; median of $rounds interleaved rounds."
echo "Proofs, every round: LoopHunter's summary, \`uftrace report\` on the recorded data (and \`uftrace info\`'s exe"
echo "image) and ltrace's \`-o\` file must each hold exactly N + warm-up tk_view_layout calls of lh_bench."
echo
echo "| pattern, tool | command | ns/call, median (range) | ÷ plain | ÷ LoopHunter | proof: tk_view_layout calls recorded |"
echo "|---|---|---|---|---|---|"
# prove TOOL PROOF...: runs a proof of peer_proof.sh, files its count or why under TOOL
prove() {
  local tool=$1 n
  shift
  if n=$("$@"); then echo "$n" >>"$work/l.$tool.proof"; else echo "$n" >>"$work/l.$tool.why"; fi
}
for pattern in repeat frame; do
  warm=120; [ $pattern = frame ] && warm=3000
  for t in plain lh uf lt; do : >"$work/l.$t"; : >"$work/l.$t.why"; : >"$work/l.$t.proof"; done
  for r in $(seq "$rounds"); do
    "$bench/lh_bench" layout $pattern $calls | field ns_per_call >>"$work/l.plain"
    rm -rf "$work/lhb"
    out=$(LD_PRELOAD=$preload LOOPHUNTER_DIR=$work/lhb "$bench/lh_bench" layout $pattern $calls)
    field ns_per_call <<<"$out" >>"$work/l.lh"
    prove lh lh_summary_layout_calls "$work/lhb" "$bench/lh_bench" $(($(field calls <<<"$out") + warm))
    if have uftrace; then
      rm -rf "$work/uf.data"
      out=$(uftrace record -d "$work/uf.data" --force "$bench/lh_bench" layout $pattern $uf_calls 2>/dev/null || true)
      field ns_per_call <<<"$out" >>"$work/l.uf"
      prove uf uftrace_proof "$work/uf.data" "$bench/lh_bench" '^tk_view_layout$' $(($(field calls <<<"$out") + warm))
    else
      echo "not installed" >>"$work/l.uf.why"
    fi
    if have ltrace; then
      out=$(ltrace -e tk_view_layout -o "$work/lt.out" "$bench/lh_bench" layout $pattern $lt_calls 2>/dev/null || true)
      field ns_per_call <<<"$out" >>"$work/l.lt"
      prove lt ltrace_proof "$work/lt.out" "$bench/lh_bench" tk_view_layout $(($(field calls <<<"$out") + warm))
    else
      echo "not installed" >>"$work/l.lt.why"
    fi
  done
  pl=$(median <"$work/l.plain"); lh=$(median <"$work/l.lh")
  printf "| %s, plain | \`%s\` | %s | 1.0x | %s | — |\n" $pattern "lh_bench layout $pattern $calls" \
    "$(spread %.2f "$work/l.plain")" "$(ratio "$pl" "$lh")"
  row "$pattern, LoopHunter" "LD_PRELOAD=libloophunter.so lh_bench layout $pattern $calls" \
    "$work/l.lh" "$work/l.lh.why" "$work/l.lh.proof" "$pl" "$lh" "%.2f"
  row "$pattern, uftrace" "uftrace record -d D --force lh_bench layout $pattern $uf_calls" \
    "$work/l.uf" "$work/l.uf.why" "$work/l.uf.proof" "$pl" "$lh" "%.0f"
  row "$pattern, ltrace" "ltrace -e tk_view_layout -o F lh_bench layout $pattern $lt_calls" \
    "$work/l.lt" "$work/l.lt.why" "$work/l.lt.proof" "$pl" "$lh" "%.0f"
done

# ---------------------------------------------------------------------------------------------
echo
echo "## c. A GTK 3 program: perf uprobes and uftrace"
echo
prog=$gtk/gtk3-layout-bench
if ! [ -x "$prog" ] || ! have Xvfb; then
  echo "gtk3-layout-bench or Xvfb missing: section skipped (scripts/build-gtk-programs.sh; apt-get install xvfb)."
  exit 0
fi
# GTK 3's layout-vfunc dispatch sites (the same ones Tests/Programs/gtk/count-dispatch.gdb.py
# breaks on, Debian 12's libgtk-3-0 3.24.38): FUNCTION+OFFSET, the instruction expected there,
# and what it dispatches. Each is checked with objdump before a uprobe is put on it.
sites="gtk_widget_size_allocate_with_baseline 0x309 call___*0xd8(%rax) alloc
gtk_widget_size_allocate_with_baseline 0x582 <g_signal_emit@plt> alloc
gtk_widget_get_preferred_height 0x22f call___*0x140(%rax) measure
gtk_widget_get_preferred_height 0x301 call___*0x148(%rax) measure
gtk_widget_get_preferred_height 0x542 call___*0x138(%rax) measure
gtk_widget_get_preferred_height 0x620 call___*0x130(%rax) measure
gtk_widget_get_preferred_height 0x6dd call___*0x300(%rax) measure
gtk_widget_get_preferred_height 0x73d call___*0x300(%rax) measure"
libgtk=$(readlink -f "$(ldd "$prog" | awk '/libgtk-3\.so/ {print $3}')")
perf_why=
if ! have perf; then
  perf_why="perf not installed"
else
  i=0
  while read -r fn off expect kind; do
    i=$((i + 1))
    base=$(nm -D --defined-only "$libgtk" | awk -v f="$fn" '$3 == f {print $1}')
    [ -n "$base" ] || { perf_why="$fn not in $libgtk"; break; }
    addr=$(printf "0x%x" $((0x$base + off)))
    insn=$(objdump -d --no-show-raw-insn --start-address="$addr" --stop-address=$((addr + 8)) "$libgtk" |
      grep -m1 "^ *${addr#0x}:" || true)
    [[ "$insn" == *"${expect//___/   }"* ]] || { perf_why="this GTK build differs: $fn+$off is not '${expect//___/ }'"; break; }
    err=$(perf probe -q -x "$libgtk" -a "$probe_group:${kind}$i=$addr" 2>&1) ||
      { perf_why="perf probe: $(echo "$err" | grep -v '^ *$' | tail -n1)"; break; }
  done <<<"$sites"
fi

echo "\`gtk3-layout-bench\` (~1,000 widgets laid out every frame) runs exactly $frames frames (LH_RUN_FRAMES) on"
echo "one Xvfb pinned to CPU 0, the program pinned to CPU 1 with \`$pin\` outside the tool, env GTK_A11Y=none"
echo "NO_AT_BRIDGE=1 GDK_BACKEND=x11 GSK_RENDERER=cairo; CPU time (user + system, scripts/bench/cpu_time.py,"
echo "the tool's own processes included) median of $rounds interleaved rounds. Layout calls recorded, every round:"
echo "LoopHunter's summary (its threads' layout_calls: size_allocate + get_preferred_* vfunc calls);"
echo "perf: uprobes on the 8 call instructions in libgtk-3 that dispatch those vfuncs (checked with objdump),"
echo "counted by \`perf stat\` for this program only; uftrace: calls of GTK's exported layout entry points"
echo "(gtk_widget_size_allocate_with_baseline, gtk_widget_get_preferred_*), which include measures GTK answers"
echo "from its size cache without calling the vfunc, so its count is larger."
echo
Xvfb -displayfd 3 -nolisten tcp -screen 0 1280x1024x24 3>"$work/display" >/dev/null 2>&1 &
xvfb=$!
for _ in $(seq 50); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -n "$pin" ] && taskset -pc 0 $xvfb >/dev/null
export DISPLAY=:$(cat "$work/display") GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 GSK_RENDERER=cairo LH_RUN_FRAMES=$frames

for t in plain lh perf uf; do : >"$work/g.$t"; : >"$work/g.$t.why"; : >"$work/g.$t.proof"; done
[ -n "$perf_why" ] && echo "$perf_why" >"$work/g.perf.why"
have uftrace || echo "not installed" >"$work/g.uf.why"
uf_re='^gtk_widget_(size_allocate_with_baseline|get_preferred_.*)$'
for r in $(seq "$rounds"); do
  scripts/bench/cpu_time.py "$work/t" $pin "$prog"
  cat "$work/t" >>"$work/g.plain"

  rm -rf "$work/lhg"
  scripts/bench/cpu_time.py "$work/t" $pin env LD_PRELOAD=$preload LOOPHUNTER_DIR=$work/lhg "$prog"
  cat "$work/t" >>"$work/g.lh"
  if n=$(lh_summary_layout_calls "$work/lhg" "$prog"); then
    split=$(python3 -c 'import glob, json, sys
h = {x["name"]: x["calls"] for x in json.load(open(glob.glob(sys.argv[1] + "/summary-*.json")[0]))["hooks"]}
print(h.get("gtk_allocate", 0), h.get("gtk_measure", 0))' "$work/lhg")
    echo "${split% *} + ${split#* } = $n" >>"$work/g.lh.proof"
  else
    echo "$n" >>"$work/g.lh.why"
  fi

  if [ -z "$perf_why" ]; then
    scripts/bench/cpu_time.py "$work/t" $pin perf stat -x, -o "$work/perf.csv" -e "$probe_group:*" -- "$prog" ||
      echo "perf stat exited $?" >>"$work/g.perf.why"
    cat "$work/t" >>"$work/g.perf"
    if grep -q '<not' "$work/perf.csv" || ! grep -q "$probe_group:" "$work/perf.csv"; then
      echo "perf stat counted no probe: $(grep -m1 '<not' "$work/perf.csv" || echo none)" >>"$work/g.perf.why"
    else
      a=$(awk -F, '$3 ~ /:alloc/ {s += $1} END {print s + 0}' "$work/perf.csv")
      m=$(awk -F, '$3 ~ /:measure/ {s += $1} END {print s + 0}' "$work/perf.csv")
      if [ $((a + m)) -gt 0 ]; then echo "$a + $m = $((a + m))" >>"$work/g.perf.proof"
      else echo "its probes fired 0 times" >>"$work/g.perf.why"; fi
    fi
  fi

  if have uftrace; then
    rm -rf "$work/ufg.data"
    scripts/bench/cpu_time.py "$work/t" $pin uftrace record -d "$work/ufg.data" --no-libcall --force \
      -P 'gtk_widget_size_allocate_with_baseline@libgtk-3' -P 'gtk_widget_get_preferred_.*@libgtk-3' "$prog" ||
      echo "uftrace record exited $?" >>"$work/g.uf.why"
    cat "$work/t" >>"$work/g.uf"
    if n=$(uftrace_proof "$work/ufg.data" "$prog" "$uf_re"); then
      a=$(uftrace report -d "$work/ufg.data" | awk '$NF == "gtk_widget_size_allocate_with_baseline" {print $(NF - 1)}')
      echo "${a:-0} + $((n - ${a:-0})) = $n" >>"$work/g.uf.proof"
    else
      echo "$n" >>"$work/g.uf.why"
    fi
  fi
done
pl=$(median <"$work/g.plain"); lh=$(median <"$work/g.lh")
echo "| tool | command | CPU s, median (range) | ÷ plain | ÷ LoopHunter | proof: layout calls recorded, allocate + measure (each round) |"
echo "|---|---|---|---|---|---|"
printf "| plain | \`%s\` | %s | 1.0x | %s | — |\n" "${pin:+$pin }gtk3-layout-bench" "$(spread %.2f "$work/g.plain")" \
  "$(ratio "$pl" "$lh")"
row "LoopHunter (vfunc calls)" "${pin:+$pin }env LD_PRELOAD=libloophunter.so LOOPHUNTER_DIR=D gtk3-layout-bench" \
  "$work/g.lh" "$work/g.lh.why" "$work/g.lh.proof" "$pl" "$lh" "%.2f"
row "perf uprobes (vfunc dispatches)" "${pin:+$pin }perf stat -x, -e '$probe_group:*' -- gtk3-layout-bench" \
  "$work/g.perf" "$work/g.perf.why" "$work/g.perf.proof" "$pl" "$lh" "%.2f"
row "uftrace (entry points)" "${pin:+$pin }uftrace record --no-libcall --force -P 'gtk_widget_size_allocate_with_baseline@libgtk-3' -P 'gtk_widget_get_preferred_.*@libgtk-3' gtk3-layout-bench" \
  "$work/g.uf" "$work/g.uf.why" "$work/g.uf.proof" "$pl" "$lh" "%.2f"
echo
if [ -s "$work/g.perf.proof" ] && [ -s "$work/g.lh.proof" ]; then
  if cmp -s "$work/g.lh.proof" "$work/g.perf.proof"; then
    echo "Same work: in each of the $rounds rounds perf's uprobes counted exactly the layout calls LoopHunter counted."
  else
    echo "perf's uprobes and LoopHunter counted different layout calls (round by round:"
    echo "LoopHunter $(paste -sd';' "$work/g.lh.proof"); perf $(paste -sd';' "$work/g.perf.proof"))."
  fi
fi
