#!/usr/bin/env bash
# drive.sh — one real application, inside the X server and session bus run.sh made for it:
# starts it under the preload, waits for its window, drives it with xdotool for SECONDS (typing,
# resizing, menus, a dialog and the About box opened and closed, scrolling, a context menu, tabs),
# then closes it as a window manager's close button would and waits for it to exit.
#
#   drive.sh APP SECONDS PRELOAD DIR CLOSER
#
# APP is a name of apps.sh; PRELOAD the library (empty: none); DIR the app's own directory (run.sh
# made DIR/home, DIR/lh, DIR/run); CLOSER lh-x-close. Writes DIR/exit (the app's exit status, or
# "killed" when it did not exit 15 s after its windows were closed, or "no-window"), DIR/stdout,
# DIR/stderr and DIR/drive.log (what was done, with times).
set -u
app=$1 seconds=$2 preload=$3 dir=$4 closer=$5
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=apps.sh
. "$here/apps.sh"
app_spec "$app" "$dir" || { echo "drive: unknown app $app" >&2; exit 2; }

log() { printf '%6.1f %s\n' "$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN{print n-s}')" "$*" >>"$dir/drive.log"; }
start=$(date +%s.%N)
elapsed() { awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN{printf "%d", n-s}'; }

# The app alone gets the preload and its own home, report directory and runtime directory
# (MESA_SHADER_CACHE_DIR, Mesa's shader cache, comes from run.sh), and its own APP_ENV (the Qt
# apps' platform).
env HOME="$dir/home" XDG_CONFIG_HOME="$dir/home/.config" XDG_DATA_HOME="$dir/home/.local/share" \
    XDG_CACHE_HOME="$dir/home/.cache" XDG_STATE_HOME="$dir/home/.local/state" XDG_RUNTIME_DIR="$dir/run" \
    GTK_A11Y=none NO_AT_BRIDGE=1 GDK_BACKEND=x11 LOOPHUNTER_DIR="$dir/lh" \
    ${APP_ENV[@]+"${APP_ENV[@]}"} \
    ${preload:+LD_PRELOAD="$preload"} \
    "${APP_CMD[@]}" >"$dir/stdout" 2>"$dir/stderr" </dev/null &
pid=$!
log "started pid $pid: ${APP_ENV[*]:+${APP_ENV[*]} }${APP_CMD[*]}"

# The app's visible windows (search by _NET_WM_PID; GTK and Qt set it on every toplevel).
windows() { xdotool search --onlyvisible --pid "$pid" 2>/dev/null; }
alive() { kill -0 "$pid" 2>/dev/null; }

main=
for _ in $(seq 300); do # up to 30 s to show a window
  alive || break
  main=$(windows | head -n 1)
  [ -n "$main" ] && break
  sleep 0.1
done
if [ -z "$main" ]; then
  log "no window"
  # run.sh runs an app again when its stderr says "cannot open display" (GTK's words); Qt says
  # "could not connect to display".
  if grep -q "could not connect to display" "$dir/stderr" 2>/dev/null; then
    echo "drive: cannot open display (Qt could not connect to it)" >>"$dir/stderr"
  fi
  if alive; then kill -TERM "$pid"; sleep 2; kill -KILL "$pid" 2>/dev/null; fi
  wait "$pid"
  echo "no-window $?" >"$dir/exit"
  exit 0
fi
log "window $main"
start=$(date +%s.%N) # the SECONDS of driving start with the window

# REALAPPS_SHOTS=1: a screenshot of the screen at each step's key moment (DIR/shot-N-NAME.png;
# needs ImageMagick's import).
shots=0
shot() {
  [ -n "${REALAPPS_SHOTS:-}" ] && command -v import >/dev/null 2>&1 || return 0
  shots=$((shots + 1))
  import -window root "$dir/shot-$shots-$1.png" 2>/dev/null
}
focus() { xdotool windowfocus "$main" 2>/dev/null; sleep 0.2; }
key() { focus; xdotool key --delay 80 "$@" 2>/dev/null; }
# A left click at X,Y in the main window (a negative X or Y counts from its right or bottom edge).
click_at() {
  local geo x=${1%,*} y=${1#*,}
  geo=$(xdotool getwindowgeometry --shell "$main" 2>/dev/null) || return
  local X=0 Y=0 WIDTH=0 HEIGHT=0
  eval "$geo"
  [ "$x" -lt 0 ] && x=$((WIDTH + x))
  [ "$y" -lt 0 ] && y=$((HEIGHT + y))
  focus
  xdotool mousemove $((X + x)) $((Y + y)) click 1 2>/dev/null
}
# The keys of an APP_ variable, pressed in turn, and two other words: "click:X,Y" (click_at) and
# "wait" (a second's pause, for a menu or page that animates in). Keys with neither go to xdotool
# in one call, as before.
act() {
  local keys=() t
  for t in "$@"; do
    case "$t" in
      click:* | wait)
        if [ ${#keys[@]} -gt 0 ]; then key "${keys[@]}"; keys=(); fi
        if [ "$t" = wait ]; then sleep 1; else click_at "${t#click:}"; sleep 0.3; fi ;;
      *) keys+=("$t") ;;
    esac
  done
  if [ ${#keys[@]} -gt 0 ]; then key "${keys[@]}"; fi
}
center() {
  local geo
  geo=$(xdotool getwindowgeometry --shell "$main" 2>/dev/null) || return
  local X=0 Y=0 WIDTH=0 HEIGHT=0
  eval "$geo"
  xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) 2>/dev/null
}
# Every visible window of the app but the main one is closed: Escape first (as a person would),
# then WM_DELETE_WINDOW to what is left.
close_extra() {
  sleep 1
  log "windows: $(windows | wc -l) visible"
  shot "$1"
  xdotool key Escape 2>/dev/null
  # Up to 4 s for the Escape to close them (a loaded machine is slow): a dialog closed twice
  # (Escape, then WM_DELETE_WINDOW while it is being destroyed) crashes some applications.
  local w extra
  for _ in $(seq 40); do
    extra=
    for w in $(windows); do [ "$w" = "$main" ] || extra="$extra $w"; done
    [ -z "$extra" ] && break
    sleep 0.1
  done
  for w in $extra; do
    log "closing window $w"
    "$closer" --window "$w"
  done
  sleep 1
}

typed=0
step_type() {
  [ -n "$APP_TEXT" ] || return 0
  log "type"
  focus
  if [ -n "$APP_CLICK" ]; then center; xdotool click 1 2>/dev/null; sleep 0.3; fi
  if [ -n "$APP_BEFORE_TEXT" ]; then act $APP_BEFORE_TEXT; fi
  xdotool type --delay 40 "$APP_TEXT" 2>/dev/null
  typed=$((typed + ${#APP_TEXT}))
  if [ -n "$APP_AFTER_TEXT" ]; then act $APP_AFTER_TEXT; fi
}
step_resize() {
  log "resize"
  xdotool windowsize "$main" 1000 760 2>/dev/null; sleep 1
  xdotool windowsize "$main" 640 480 2>/dev/null; sleep 1
  xdotool windowsize "$main" 900 700 2>/dev/null; sleep 1
}
step_menu() {
  log "menu ($APP_MENU)"
  act $APP_MENU; sleep 1; shot menu; key Escape Escape; sleep 0.5
}
step_context_menu() {
  log "context menu"
  focus; center; xdotool click 3 2>/dev/null; sleep 1; xdotool key Escape 2>/dev/null; sleep 0.5
}
step_dialog() {
  [ -n "$APP_DIALOG" ] || return 0
  log "dialog ($APP_DIALOG)"
  act $APP_DIALOG
  close_extra dialog
}
step_about() {
  [ -n "$APP_ABOUT" ] || return 0
  log "about ($APP_ABOUT)"
  act $APP_ABOUT
  close_extra about
}
step_scroll() {
  log "scroll"
  focus; center
  xdotool click --repeat 10 --delay 60 5 2>/dev/null
  xdotool click --repeat 10 --delay 60 4 2>/dev/null
  sleep 0.5
}
step_tabs() {
  [ -n "$APP_TABS" ] || return 0
  log "tabs ($APP_TABS)"
  act $APP_TABS; sleep 1; shot tabs
}
# The steps in turn, round after round, until SECONDS have passed (checked before each step).
steps=(step_type step_resize step_menu step_context_menu step_dialog step_about step_scroll step_tabs)
done_steps=0
while alive && [ "$(elapsed)" -lt "$seconds" ]; do
  "${steps[$((done_steps % ${#steps[@]}))]}"
  done_steps=$((done_steps + 1))
done
log "driven: $done_steps steps"

if alive && [ "$typed" -gt 0 ] && [ -n "$APP_UNDO" ]; then
  # Back to the unmodified document, so closing asks nothing.
  log "undo"
  focus
  if [ -n "$APP_CLICK" ]; then center; xdotool click 1 2>/dev/null; sleep 0.3; fi
  undo=()
  for _ in $(seq "$APP_UNDO_TIMES"); do undo+=("$APP_UNDO"); done
  key "${undo[@]}"
  shot undone
  sleep 0.5
fi
if alive; then
  log "close"
  "$closer" "$pid" || log "no window to close"
fi
for _ in $(seq 150); do
  alive || break
  sleep 0.1
done
if alive; then
  log "still running 15 s after the close: SIGTERM"
  shot hang
  # Where it hangs, for whoever reads DIR/hang.txt (gdb, when installed).
  if command -v gdb >/dev/null 2>&1; then
    timeout 60 gdb -q -batch -p "$pid" -ex "thread apply all bt 30" >"$dir/hang.txt" 2>&1
  fi
  kill -TERM "$pid"; sleep 3; kill -KILL "$pid" 2>/dev/null
  wait "$pid"
  echo "killed $?" >"$dir/exit"
else
  wait "$pid"
  echo "$?" >"$dir/exit"
fi
log "exit $(cat "$dir/exit")"
