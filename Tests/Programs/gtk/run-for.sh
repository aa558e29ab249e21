#!/usr/bin/env bash
# run-for.sh SECONDS PROGRAM [ARGS...] — runs a GUI program (inside xvfb-run) for SECONDS, then
# closes its windows with WM_DELETE_WINDOW (lh-x-close, next to this script's build output) and
# waits for it to exit by itself; exits with the program's status. If it has not exited 10 s
# after the close, it is sent SIGTERM, then SIGKILL, and the status says so (a failure).
#
# LH_TARGET_PRELOAD, when set, is the LD_PRELOAD of the program only (not of Xvfb or this script).
set -u
seconds=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
close=${LH_X_CLOSE:-$here/lh-x-close}
if [ -n "${LH_TARGET_PRELOAD:-}" ]; then
  LD_PRELOAD="$LH_TARGET_PRELOAD" "$@" &
else
  "$@" &
fi
pid=$!
sleep "$seconds"
"$close" "$pid" || echo "run-for: no window of $pid to close" >&2
for _ in $(seq 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
  echo "run-for: $1 did not exit 10 s after its windows were closed" >&2
  kill -TERM "$pid"; sleep 2; kill -KILL "$pid" 2>/dev/null
fi
wait "$pid"
