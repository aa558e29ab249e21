#!/bin/bash
# attach-driver.sh — drives `loophunter attach` against a running program, for AttachTests.swift.
#
#   attach-driver.sh MODE OUT ROUNDS SECONDS DELAY_S -- PROGRAM ARGS...
#
# Starts PROGRAM in the background (stdout > OUT/target.out, stderr > OUT/target.err), waits
# DELAY_S, notes its thread and fd counts, then per round:
#   MODE watch: `loophunter attach --for SECONDS --dir OUT/round-N PID` (its stdout and stderr in
#               OUT/round-N.out / .err), then the counts again;
#   MODE kill:  starts the same in the background and kill -9s it after a random 0-400 ms.
# Then waits for PROGRAM and prints its exit status. Every fact is one line on stdout:
#   before threads=T fds=F | round N status=S threads=T fds=F lh_threads=K | target status=S
# (lh_threads: threads named loophunter-* in the program). LOOPHUNTER_CLI: the loophunter binary.
set -u
mode=$1 out=$2 rounds=$3 seconds=$4 delay=$5
shift 6
mkdir -p "$out"
"$@" >"$out/target.out" 2>"$out/target.err" </dev/null &
pid=$!
sleep "$delay"
counts() {
  local t f l
  t=$(ls "/proc/$pid/task" 2>/dev/null | wc -l)
  f=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
  l=$(cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -c '^loophunter' || true)
  echo "threads=$t fds=$f lh_threads=$l"
}
echo "before $(counts)"
for ((i = 1; i <= rounds; i++)); do
  if [ "$mode" = kill ]; then
    "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$i" "$pid" >"$out/round-$i.out" 2>"$out/round-$i.err" &
    cli=$!
    sleep "0.$(printf '%03d' $((RANDOM % 400)))"
    kill -9 "$cli" 2>/dev/null
    wait "$cli" 2>/dev/null
    echo "round $i status=$? $(counts)"
  else
    "$LOOPHUNTER_CLI" attach --for "$seconds" --dir "$out/round-$i" "$pid" >"$out/round-$i.out" 2>"$out/round-$i.err"
    echo "round $i status=$? $(counts)"
  fi
done
wait "$pid"
echo "target status=$?"
