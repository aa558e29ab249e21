#!/usr/bin/env bash
# Builds the GTK test programs (Tests/Programs/gtk/*.c) with the system C compiler:
#   gtk3-frame-loop gtk4-frame-loop   frame-capped layout feedback loops (4 layouts every frame)
#   gtk3-idle-loop  gtk4-idle-loop    main-loop loops (1 layout per frame, size changes every frame)
#   gtk3-healthy    gtk4-healthy      busy but correct UIs (clock, spinner, progress bar, revealer)
# Each runs ~3 s under `xvfb-run -a`, exits 0 and prints one line ("<name>: done") on stdout.
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
echo "build-gtk-programs: built $(ls "$src"/gtk[34]_*.c | wc -l) programs into $out"
