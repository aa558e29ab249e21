#!/usr/bin/env bash
# Builds the GTK test programs (Tests/Programs/gtk/*.c) with the system C compiler:
#   gtk3-frame-loop gtk4-frame-loop   frame-capped layout feedback loops (4 layouts every frame)
#   gtk3-idle-loop  gtk4-idle-loop    main-loop loops (1 layout per frame, size changes every frame)
#   gtk3-healthy    gtk4-healthy      busy but correct UIs (clock, spinner, progress bar, revealer)
#   gtk3-reuse      gtk4-reuse        labels destroyed and re-created (usually at the same address)
#   gtk3-health     gtk4-health       event-loop health bugs: slow-window, blocked-handler, dangling-timeout
#   gtk3-quiet      gtk4-quiet        healthy shapes of real applications that once raised false alarms
#   gtk3-offsets    gtk4-offsets      the class layout of the installed headers (for a test)
#   gtk3-causes     gtk4-causes       MODE: a layout loop of each cause kind (in-layout, ping-pong,
#                                     tick-flip) or a healthy program that relayouts a lot (paned-anim,
#                                     revealer, same-text, tick-resize, tick-scaled)
#   gtk3-vfunc-bench gtk4-vfunc-bench the cost of a wrapped layout vfunc (scripts/bench)
#   gtk3-layout-bench gtk4-layout-bench ~1,000 widgets laid out every frame (scripts/bench)
#   gtk3-request-bench gtk4-request-bench the cost of one layout request (outside, and result-caused)
#   lh-fake-gtk                       a GTK of unknown layout (GObject only)
#   lh-x-close, run-for.sh            close a program's windows as a window manager would
#   lh-late-gtk                       GTK 3 dlopened RTLD_LOCAL after start-up (Tests/Programs/late)
#   gtk3-layout-warning               GTK 3 warns during a widget's layout, naming no widget
#   lh-gapp                           a single-instance GApplication (GIO only): the second one hands off
#   gtk3-windows                      hidden windows, popups, a dialog GTK shows itself; 270 windows shown
#   tk-hello                          a Tk program: a toolkit LoopHunter names but does not support
# Each GTK program runs ~3 s under `xvfb-run -a`, exits 0 and prints one line ("<name>: done").
# LH_GROUND_TRUTH=/path makes it write its own layout counts; see Tests/Programs/gtk/lh_gtk_truth.h.
#
# Usage: scripts/build-gtk-programs.sh [OUTDIR]   (default: .build/release/test-programs/gtk)
#   CC may be set. Installs nothing: without GTK's development files it exits 1 with one line naming
#   the Debian package to install.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-.build/release/test-programs/gtk}
cc=${CC:-cc}
src=Tests/Programs/gtk

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "build-gtk-programs: pkg-config not found; install it with: apt-get install pkg-config" >&2
  exit 1
fi
missing=()
pkg-config --exists gtk+-3.0 || missing+=(libgtk-3-dev)
pkg-config --exists gtk4 || missing+=(libgtk-4-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-gtk-programs: pkg-config cannot find GTK development files; install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi

mkdir -p "$out"
read -r -a gtk3 <<<"$(pkg-config --cflags --libs gtk+-3.0)"
read -r -a gtk4 <<<"$(pkg-config --cflags --libs gtk4)"
flags=(-O2 -g -Wall -Wextra -Wno-missing-field-initializers -fno-omit-frame-pointer -Wl,--build-id)

for file in "$src"/gtk[34]_*.c; do
  base=$(basename "$file" .c)
  name=${base//_/-}
  case "$base" in
    gtk3_*) libs=("${gtk3[@]}") ;;
    gtk4_*) libs=("${gtk4[@]}") ;;
  esac
  "$cc" "${flags[@]}" "$file" "${libs[@]}" -o "$out/$name.tmp"
  mv -f "$out/$name.tmp" "$out/$name"
done
# Sources built for both GTK versions (gtk3-NAME and gtk4-NAME).
for base in gtk_health:health gtk_quiet:quiet widget_reuse:reuse gtk_offsets:offsets vfunc_bench:vfunc-bench layout_bench:layout-bench request_bench:request-bench; do
  file=$src/${base%%:*}.c
  name=${base##*:}
  "$cc" "${flags[@]}" "$file" "${gtk3[@]}" -o "$out/gtk3-$name.tmp" && mv -f "$out/gtk3-$name.tmp" "$out/gtk3-$name"
  "$cc" "${flags[@]}" "$file" "${gtk4[@]}" -o "$out/gtk4-$name.tmp" && mv -f "$out/gtk4-$name.tmp" "$out/gtk4-$name"
done
# Layout loops of each cause kind and healthy programs that relayout every frame (gtk3-causes MODE,
# gtk4-causes MODE; Tests/Programs/gtk/gtk_causes.c), exporting their functions (-rdynamic) so that
# reports name them without a symbolizer.
"$cc" "${flags[@]}" -rdynamic "$src/gtk_causes.c" "${gtk3[@]}" -lm -o "$out/gtk3-causes.tmp" && mv -f "$out/gtk3-causes.tmp" "$out/gtk3-causes"
"$cc" "${flags[@]}" -rdynamic "$src/gtk_causes.c" "${gtk4[@]}" -lm -o "$out/gtk4-causes.tmp" && mv -f "$out/gtk4-causes.tmp" "$out/gtk4-causes"
# A GTK LoopHunter does not know (GObject only; its symbols exported for dlsym), the window closer
# of the stock-demo tests (Xlib), and the script that runs a program for a while then closes it.
read -r -a gobject <<<"$(pkg-config --cflags --libs gobject-2.0)"
read -r -a x11 <<<"$(pkg-config --cflags --libs x11)"
"$cc" "${flags[@]}" -rdynamic "$src/fake_gtk.c" "${gobject[@]}" -o "$out/lh-fake-gtk"
"$cc" "${flags[@]}" "$src/x_close.c" "${x11[@]}" -o "$out/lh-x-close"
# A single-instance GApplication (GIO only, no display), for run's hand-off verdict.
read -r -a gio <<<"$(pkg-config --cflags --libs gio-2.0)"
"$cc" "${flags[@]}" "$src/gapp_handoff.c" "${gio[@]}" -o "$out/lh-gapp.tmp" && mv -f "$out/lh-gapp.tmp" "$out/lh-gapp"
# GTK loaded late: a C program linked to libc only that dlopens libgtk-3 RTLD_LOCAL after main.
"$cc" "${flags[@]}" Tests/Programs/late/late_gtk.c -ldl -o "$out/lh-late-gtk"
# A toolkit LoopHunter does not support, for the summary's naming of toolkits: Tk (tk-dev).
if pkg-config --exists tk; then
  read -r -a tk <<<"$(pkg-config --cflags --libs tk)"
  "$cc" "${flags[@]}" Tests/Programs/tk/tk_hello.c "${tk[@]}" -o "$out/tk-hello"
else
  echo "build-gtk-programs: pkg-config cannot find Tk; tk-hello is not built (apt-get install tk-dev)" >&2
fi
install -m 0755 "$src/run-for.sh" "$out/run-for.sh"
echo "build-gtk-programs: built $(ls "$out" | wc -l) programs into $out"
