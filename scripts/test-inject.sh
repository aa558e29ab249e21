#!/usr/bin/env bash
# Checks the ptrace injector of `loophunter attach` (Sources/LoopHunterCLISupport/lh_inject.c, issue
# 20) against real programs: builds Tests/Programs/inject with the system C compiler and injects
# into them. scripts/test.sh runs it after swift test. Needs ptrace rights over its own children (root, or Yama
# ptrace_scope 0: the targets are not children of the driver).
#
# Usage: scripts/test-inject.sh        (CC and OUT may be set; OUT defaults to a new /tmp directory)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cc=${CC:-cc}
out=${OUT:-$(mktemp -d /tmp/loophunter-test-inject.XXXXXX)}
mkdir -p "$out"
flags=(-O2 -g -Wall -Wextra -std=gnu11)
src=Tests/Programs/inject

"$cc" "${flags[@]}" -pthread "$src/target.c" -o "$out/target"
"$cc" "${flags[@]}" -pthread "$src/spin.c" -o "$out/spin"
"$cc" "${flags[@]}" "$src/regs_target.c" -o "$out/regs-target"
"$cc" "${flags[@]}" -shared -fPIC "$src/probe.c" -o "$out/libprobe.so"
"$cc" "${flags[@]}" -ISources/LoopHunterCLISupport/include "$src/driver.c" \
  Sources/LoopHunterCLISupport/lh_inject.c -o "$out/inject-driver"
"$cc" "${flags[@]}" -static "$src/static_target.c" -o "$out/static-target"
lib=$out/libprobe.so
echo "built into $out"

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# inject PID FUNCTION ARGUMENT TIMEOUT_MS [LIBRARY]: sets code tid result ms msg.
inject() {
  local text
  text=$("$out/inject-driver" "$1" "${5:-$lib}" "$2" "$3" "$4" || true)
  read -r code tid result ms <<<"$(head -1 <<<"$text")"
  tid=${tid#tid=} result=${result#result=} ms=${ms#ms=}
  msg=$(tail -n +2 <<<"$text")
}
expect() { # CODE [what]
  if [ "$code" = "$1" ]; then ok "$2: $code (${ms} ms)"; else fail "$2: expected $1, got $code: $msg"; fi
}
contains() { # TEXT what
  if grep -qF -- "$1" <<<"$msg"; then ok "$2"; else fail "$2: message lacks \"$1\": $msg"; fi
}
counts() { echo "$(ls "/proc/$1/task" | wc -l) threads, $(ls "/proc/$1/fd" | wc -l) fds"; }
tracer() { awk '/^TracerPid:/ {print $2}' "/proc/$1/status"; }
stats() { # numbers on stdin -> "min .. median .. max"
  sort -g | awk '{v[NR]=$1} END {printf "min %.2f median %.2f max %.2f ms (n=%d)", v[1], v[int((NR+1)/2)], v[NR], NR}'
}

# ---- 1. The event-loop target: 50 calls, failures, timeout and busy, 30 kills of the injector ----
seconds=20
"$out/target" $seconds >"$out/reference.out" &
reference=$!
"$out/target" $seconds >"$out/injected.out" &
target=$!
sleep 0.5
before=$(counts $target)
times=() main_thread=0 good=0
for i in $(seq 1 50); do
  rm -f "$out/hello-$i"
  inject $target probe_hello "$out/hello-$i" 3000
  content=$(cat "$out/hello-$i" 2>/dev/null || true)
  if [ "$code" = OK ] && [ "$result" = 42 ] && [ "$content" = "$out/hello-$i tid=$tid" ]; then
    good=$((good + 1))
  else
    fail "call $i: $code result=$result file=\"$content\": $msg"
  fi
  [ "$tid" = "$target" ] && main_thread=$((main_thread + 1))
  times+=("$ms")
done
[ $good = 50 ] && ok "50 calls in a row: OK, 42, file written by the reported thread; $main_thread on the main thread; $(printf '%s\n' "${times[@]}" | stats)"
after=$(counts $target)
[ "$before" = "$after" ] && ok "after 50 calls: $after (as before)" || fail "before: $before, after 50 calls: $after"
[ "$(tracer $target)" = 0 ] || fail "the target is still traced after the calls"

inject $target probe_hello x 3000 /nonexistent/libnope.so
expect LOAD_FAILED "a library that does not exist"
contains "cannot open shared object file: No such file or directory" "LOAD_FAILED carries dlerror's text"
inject $target probe_missing x 3000
expect NO_FUNCTION "a function the library lacks"
contains "undefined symbol: probe_missing" "NO_FUNCTION carries dlerror's text"
inject $target probe_hello x 3000 relative/libprobe.so
expect BAD_ARGUMENT "a relative library path"

inject $target probe_sleep 1500 300
expect TIMEOUT "a call of 1.5 s with a 300 ms timeout"
inject $target probe_hello "$out/after-timeout" 300
expect BUSY "a call while the previous one still runs"
contains "still running" "BUSY says the previous call is still running"
inject $target probe_hello "$out/after-timeout" 4000
if [ "$code" = OK ] && [ "$result" = 42 ]; then ok "the next call waits for it, then runs (${ms} ms)"; else fail "after the timeout: $code $msg"; fi

killed=0 finished=0
for i in $(seq 1 30); do
  "$out/inject-driver" $target "$lib" probe_sleep 20 3000 >/dev/null &
  driver=$!
  sleep "$(printf '0.%03d' $((RANDOM % 51)))"
  kill -9 $driver 2>/dev/null || true
  status=0
  { wait $driver; } 2>/dev/null || status=$?
  if [ $status = 137 ]; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
done
ok "30 injectors killed with SIGKILL 0-50 ms after start: $killed died mid-way, $finished had finished"
inject $target probe_hello "$out/after-kills" 5000
if [ "$code" = OK ] && [ "$result" = 42 ] && [ -s "$out/after-kills" ]; then ok "a call after the kills: OK, 42 (${ms} ms)"; else fail "after the kills: $code $msg"; fi
after=$(counts $target)
[ "$before" = "$after" ] && ok "after everything: $after (as before)" || fail "before: $before, after everything: $after"
[ "$(tracer $target)" = 0 ] || fail "the target is still traced after the kills"

status=0; wait $target || status=$?
rstatus=0; wait $reference || rstatus=$?
if [ $status = 0 ] && [ $rstatus = 0 ] && cmp -s "$out/reference.out" "$out/injected.out"; then
  ok "the injected target's output and exit status equal a run never injected: $(tail -1 "$out/injected.out")"
else
  fail "injected (exit $status) and reference (exit $rstatus) differ: $(diff "$out/reference.out" "$out/injected.out" | head -5)"
fi

# ---- 2. A busy main thread: the call runs in the thread blocked in epoll_wait, which goes on ----
"$out/target" 8 --busy-main >"$out/busy-reference.out" &
reference=$!
"$out/target" 8 --busy-main >"$out/busy-injected.out" &
target=$!
sleep 0.5
# Injectors killed while they trace the busy main thread (PTRACE_SYSCALL) for up to 1 s.
for i in $(seq 1 5); do
  "$out/inject-driver" $target "$lib" probe_hello "$out/busy-killed" 3000 >/dev/null &
  driver=$!
  sleep "$(printf '0.%03d' $((RANDOM % 500)))"
  kill -9 $driver 2>/dev/null || true
  { wait $driver; } 2>/dev/null || true
done
[ "$(tracer $target)" = 0 ] && ok "5 injectors killed while tracing the busy main thread: target not traced" || fail "busy-main target still traced"
inject $target probe_hello "$out/busy-hello" 3000
if [ "$code" = OK ] && [ "$result" = 42 ] && [ "$tid" != "$target" ]; then
  ok "busy main thread: OK in thread $tid (not main $target), ${ms} ms (main traced first for up to half the time)"
else
  fail "busy main thread: $code tid=$tid: $msg"
fi
status=0; wait $target || status=$?
rstatus=0; wait $reference || rstatus=$?
if [ $status = 0 ] && [ $rstatus = 0 ] && cmp -s "$out/busy-reference.out" "$out/busy-injected.out"; then
  ok "busy-main target unchanged (its epoll_wait never returned): $(tail -1 "$out/busy-injected.out")"
else
  fail "busy-main target: exit $status/$rstatus: $(diff "$out/busy-reference.out" "$out/busy-injected.out" | head -5)"
fi

# ---- 3. Registers: a raw `syscall` poll with every register set; the call clobbers them. Blocked
# in the poll (interrupt stop), then only entering polls of timeout 0 (syscall-entry stop) ----
for mode in blocked --spin; do
  "$out/regs-target" 4 $mode >"$out/regs.out" 2>"$out/regs.err" &
  target=$!
  sleep 0.3
  good=0 times=()
  for i in $(seq 1 20); do
    inject $target probe_clobber x 3000
    [ "$code" = OK ] && [ "$result" = 42 ] && [ "$tid" = "$target" ] && good=$((good + 1))
    times+=("$ms")
  done
  [ $good = 20 ] && ok "registers ($mode): 20 calls clobbering errno and the vector registers: OK; $(printf '%s\n' "${times[@]}" | stats)" \
    || fail "registers ($mode): $good/20 calls OK; last: $code $msg"
  status=0; wait $target || status=$?
  if [ $status = 0 ] && grep -q "mismatched=0" "$out/regs.out"; then
    ok "registers ($mode): general, vector and mask registers, red zone, errno intact: $(cat "$out/regs.out") ($(cat "$out/regs.err"))"
  else
    fail "registers ($mode) disturbed: exit $status, $(cat "$out/regs.out")"
  fi
done
"$out/target" 6 --spin-poll >"$out/spin-poll-reference.out" &
reference=$!
"$out/target" 6 --spin-poll >"$out/spin-poll-injected.out" &
target=$!
sleep 0.3
good=0 times=()
for i in $(seq 1 20); do
  rm -f "$out/spin-poll-$i"
  inject $target probe_hello "$out/spin-poll-$i" 3000
  [ "$code" = OK ] && [ "$result" = 42 ] && [ "$tid" = "$target" ] && [ -s "$out/spin-poll-$i" ] && good=$((good + 1))
  times+=("$ms")
done
[ $good = 20 ] && ok "main thread caught entering poll(timeout 0): 20 calls OK; $(printf '%s\n' "${times[@]}" | stats)" \
  || fail "spin-poll: $good/20 calls OK; last: $code $msg"
status=0; wait $target || status=$?
rstatus=0; wait $reference || rstatus=$?
if [ $status = 0 ] && [ $rstatus = 0 ] && cmp -s "$out/spin-poll-reference.out" "$out/spin-poll-injected.out"; then
  ok "spin-poll target unchanged: $(tail -1 "$out/spin-poll-injected.out")"
else
  fail "spin-poll target: exit $status/$rstatus: $(diff "$out/spin-poll-reference.out" "$out/spin-poll-injected.out" | head -5)"
fi

# ---- 4. Threads that never wait: NO_SAFE_POINT in time, target unharmed ----
"$out/spin" 3 >"$out/spin.out" &
target=$!
sleep 0.3
inject $target probe_hello x 1000
expect NO_SAFE_POINT "threads that never wait"
contains "running" "NO_SAFE_POINT names the threads' states"
awk -v ms="$ms" 'BEGIN {exit !(ms < 1300)}' && ok "gave up after $ms ms (timeout 1000)" || fail "gave up after $ms ms"
status=0; wait $target || status=$?
if [ $status = 0 ] && grep -q "same=1 bad=0" "$out/spin.out"; then ok "spin target unharmed: $(cat "$out/spin.out")"; else fail "spin target: exit $status, $(cat "$out/spin.out")"; fi

# ---- 5. No such process; a static program; a stopped program ----
pid=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
inject $pid probe_hello x 1000
expect NO_PROCESS "pid $pid (above pid_max)"
"$out/static-target" 2 >"$out/static.out" &
target=$!
sleep 0.2
inject $target probe_hello x 1000
expect NOT_SUPPORTED "a static program"
contains "statically linked" "NOT_SUPPORTED says why"
status=0; wait $target || status=$?
[ $status = 0 ] && grep -q "static: done" "$out/static.out" && ok "static target unharmed" || fail "static target: exit $status"
"$out/target" 3 >"$out/stopped.out" &
target=$!
sleep 0.3
kill -STOP $target
inject $target probe_hello x 1000
expect NO_SAFE_POINT "a stopped program"
contains "kill -CONT $target" "says to continue it"
kill -CONT $target
status=0; wait $target || status=$?
[ $status = 0 ] && grep -q "^final: ticks=3 " "$out/stopped.out" && ok "stopped target went on after SIGCONT" || fail "stopped target: exit $status"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  chmod 755 "$out"
  "$out/target" 2 >"$out/other-user.out" &
  target=$!
  sleep 0.3
  text=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$out/inject-driver" $target "$lib" probe_hello x 1000 || true)
  read -r code _ <<<"$(head -1 <<<"$text")"
  msg=$(tail -n +2 <<<"$text") ms=-
  expect NOT_PERMITTED "a root program injected by user nobody"
  contains "Run loophunter as the same user" "NOT_PERMITTED says what to do"
  wait $target
fi

if [ $failures = 0 ]; then echo "test-inject: all checks passed ($out)"; else echo "test-inject: $failures check(s) failed ($out)" >&2; exit 1; fi
