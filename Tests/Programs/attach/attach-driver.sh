#!/bin/bash
# attach-driver.sh — drives `loophunter attach` against a running program, for AttachTests.swift.
#
#   attach-driver.sh MODE OUT ROUNDS SECONDS DELAY_S -- PROGRAM ARGS...
#
# Starts PROGRAM in the background (stdout > OUT/target.out, stderr > OUT/target.err), waits
# DELAY_S, notes its thread and fd counts, then per round:
#   MODE watch: `loophunter attach --for SECONDS --dir OUT/round-N PID` (its stdout and stderr in
#               OUT/round-N.out / .err), then the counts again;
#   MODE kill:  starts the same in the background and kill -9s it after a random 0 to
#               SECONDS*1000+600 ms (before, during or after the injection, in the watch, in the
#               detach); then, once every round is done, waits 2.5 s (a killed command's session
#               ends within about a second), notes the counts ("settled") and makes one normal
#               watch round into OUT/final.
#   MODE stress: watch rounds, but every KILL_EVERY-th round (env, default 5) is a kill round as
#               above, followed by 1.5 s for the killed command's session to end; the counts of
#               a round take each figure's minimum over 5 looks 20 ms apart (a busy program opens
#               files for a moment: a descriptor left open shows in every look). After the rounds,
#               2.5 s, "settled", then `touch OUT/stop` (the program is expected to end when that
#               file appears, e.g. `lh-rel attach-busy SECS T LIB OUT/stop`).
# Then waits for PROGRAM and prints its exit status. Every fact is one line on stdout:
#   before [pid=N (stress)] threads=T pool=P fds=F | round N [kill=0/1 (stress)] status=S threads=T pool=P fds=F lh_threads=K |
#   settled ... | final status=S ... | target status=S
# threads: the program's threads but GLib's thread-pool workers (named pool-*, they start and end
# on their own: an idle one exits after 15 s), counted apart as pool; lh_threads: threads named
# loophunter-* in the program. LOOPHUNTER_CLI: the loophunter binary.
set -u
mode=$1 out=$2 rounds=$3 seconds=$4 delay=$5
shift 6
mkdir -p "$out"
"$@" >"$out/target.out" 2>"$out/target.err" </dev/null &
pid=$!
sleep "$delay"
counts() {
  local names t p f l
  names=$(cat /proc/"$pid"/task/*/comm 2>/dev/null)
  t=$(grep -vc '^pool-' <<<"$names")
  p=$(grep -c '^pool-' <<<"$names")
  f=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
  l=$(grep -c '^loophunter' <<<"$names")
  [ -n "$names" ] || t=0
  echo "threads=$t pool=$p fds=$f lh_threads=$l"
}
# The program's descriptors, one per line (what each one is), into FILE: kept beside a round whose
# count differs from the count before, to tell what was left open.
describe_fds() { ls -l "/proc/$pid/fd" 2>/dev/null | sed 's/^.* \([0-9]* -> .*\)$/\1/' >"$1"; }
# stress: each figure's minimum over 10 looks 50 ms apart (the program's own threads open and close
# descriptors all the time: dlopen opens its library; on 2 busy cores a thread can wait 100 ms
# between its open and its close; a descriptor left by LoopHunter is there in every look).
steady_counts() {
  local look k v
  declare -A low=()
  for look in 1 2 3 4 5 6 7 8 9 10; do
    for kv in $(counts); do
      k=${kv%%=*} v=${kv#*=}
      if [ -z "${low[$k]:-}" ] || [ "$v" -lt "${low[$k]}" ]; then low[$k]=$v; fi
    done
    sleep 0.05
  done
  echo "threads=${low[threads]} pool=${low[pool]} fds=${low[fds]} lh_threads=${low[lh_threads]}"
}
if [ "$mode" = stress ]; then
  before=$(steady_counts)
  echo "before pid=$pid $before"
  describe_fds "$out/before.fds"
else
  echo "before $(counts)"
fi
window=$((seconds * 1000 + 600))
# kill_round N: round N's command, kill -9'd after a random `ms` in the window; its status in `st`.
kill_round() {
  "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$1" "$pid" >"$out/round-$1.out" 2>"$out/round-$1.err" &
  local cli=$!
  ms=$((RANDOM % window))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
  kill -9 "$cli" 2>/dev/null
  wait "$cli" 2>/dev/null
  st=$?
}
for ((i = 1; i <= rounds; i++)); do
  if [ "$mode" = stress ]; then
    if ((i % ${KILL_EVERY:-5} == 0)); then
      kill_round "$i"
      sleep 1.5
      now=$(steady_counts)
      echo "round $i kill=1 status=$st after_ms=$ms $now"
    else
      "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$i" "$pid" >"$out/round-$i.out" 2>"$out/round-$i.err"
      st=$?
      now=$(steady_counts)
      echo "round $i kill=0 status=$st $now"
    fi
    [ "${now##*fds=}" = "${before##*fds=}" ] || describe_fds "$out/round-$i.fds"
  elif [ "$mode" = kill ]; then
    kill_round "$i"
    echo "round $i status=$st after_ms=$ms $(counts)"
  else
    "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$i" "$pid" >"$out/round-$i.out" 2>"$out/round-$i.err"
    echo "round $i status=$? $(counts)"
  fi
done
if [ "$mode" = kill ]; then
  sleep 2.5
  echo "settled $(counts)"
  "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/final" "$pid" >"$out/final.out" 2>"$out/final.err"
  echo "final status=$? $(counts)"
fi
if [ "$mode" = stress ]; then
  sleep 2.5
  echo "settled $(steady_counts)"
  touch "$out/stop"
fi
wait "$pid"
echo "target status=$?"
