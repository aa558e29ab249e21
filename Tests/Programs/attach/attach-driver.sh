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
# Then waits for PROGRAM and prints its exit status. Every fact is one line on stdout:
#   before threads=T pool=P fds=F | round N status=S threads=T pool=P fds=F lh_threads=K |
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
echo "before $(counts)"
window=$((seconds * 1000 + 600))
for ((i = 1; i <= rounds; i++)); do
  if [ "$mode" = kill ]; then
    "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$i" "$pid" >"$out/round-$i.out" 2>"$out/round-$i.err" &
    cli=$!
    ms=$((RANDOM % window))
    sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
    kill -9 "$cli" 2>/dev/null
    wait "$cli" 2>/dev/null
    echo "round $i status=$? after_ms=$ms $(counts)"
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
wait "$pid"
echo "target status=$?"
