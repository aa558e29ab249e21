#!/usr/bin/env bash
# Builds the C programs of the cause corpus (Tests/Programs/causes/, issue 18) with the system C
# compiler, each source for GTK 3 and GTK 4:
#   Tests/Programs/causes/NAME_WITH_UNDERSCORES.c  ->  gtk3-NAME-WITH-DASHES, gtk4-NAME-WITH-DASHES
#   Tests/Programs/causes/gtk4_NAME.c              ->  gtk4-NAME only (a GTK 4 mechanism)
#   Tests/Programs/causes/gtk3_NAME.c              ->  gtk3-NAME only
# The Python (py_*.py) and GJS (gjs_*.js) programs of the corpus run from their sources.
# Each program runs CAUSE_SECONDS seconds (default 6) under `xvfb-run -a` and exits 0; its first
# lines carry its LOOPHUNTER-TRUTH (see Tests/Programs/causes/README.md).
#
# Usage: scripts/build-cause-programs.sh [OUTDIR]   (default: .build/release/cause-programs)
#   CC may be set. Installs nothing: without GTK's development files it exits 1 with one line naming
#   the Debian package to install.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-.build/release/cause-programs}
cc=${CC:-cc}
src=Tests/Programs/causes

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "build-cause-programs: pkg-config not found; install it with: apt-get install pkg-config" >&2
  exit 1
fi
missing=()
pkg-config --exists gtk+-3.0 || missing+=(libgtk-3-dev)
pkg-config --exists gtk4 || missing+=(libgtk-4-dev)
pkg-config --exists x11 || missing+=(libx11-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-cause-programs: pkg-config cannot find GTK development files; install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi

mkdir -p "$out"
read -r -a gtk3 <<<"$(pkg-config --cflags --libs gtk+-3.0 x11)"
read -r -a gtk4 <<<"$(pkg-config --cflags --libs gtk4 x11)"
# -rdynamic: the app's functions (the truth's function=) are named in stacks without debug info.
flags=(-O2 -g -Wall -Wextra -Wno-missing-field-initializers -fno-omit-frame-pointer -rdynamic
       -Wl,--build-id)

built=0
build() { # build VERSION SOURCE NAME
  local libs
  if [ "$1" = 3 ]; then libs=("${gtk3[@]}"); else libs=("${gtk4[@]}"); fi
  "$cc" "${flags[@]}" "$2" "${libs[@]}" -lm -o "$out/$3.tmp"
  mv -f "$out/$3.tmp" "$out/$3"
  built=$((built + 1))
}
for file in "$src"/*.c; do
  base=$(basename "$file" .c)
  case "$base" in
    gtk3_*) name=${base#gtk3_}; build 3 "$file" "gtk3-${name//_/-}" ;;
    gtk4_*) name=${base#gtk4_}; build 4 "$file" "gtk4-${name//_/-}" ;;
    *) build 3 "$file" "gtk3-${base//_/-}"; build 4 "$file" "gtk4-${base//_/-}" ;;
  esac
done
echo "build-cause-programs: built $built programs into $out"
