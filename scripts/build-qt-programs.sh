#!/usr/bin/env bash
# Builds the Qt corpus (Tests/Programs/qt/: small real Qt programs that loop or relayout a lot) with
# g++ via pkg-config, each source for Qt 5 and Qt 6:
#   Tests/Programs/qt/NAME_WITH_UNDERSCORES.cpp  ->  qt5-NAME-WITH-DASHES, qt6-NAME-WITH-DASHES
#   Tests/Programs/qt/qt5_NAME.cpp / qt6_NAME.cpp ->  qt5-NAME / qt6-NAME only
# A source names the Qt modules it needs in its first 10 lines (`// QT-MODULES: Widgets Quick`);
# a source with Q_OBJECT is run through that Qt's moc first (it ends with `#include "NAME.moc"`).
# Every program runs CAUSE_SECONDS seconds (default 6) and exits 0; its first lines carry its
# LOOPHUNTER-TRUTH (see Tests/Programs/qt/README.md). Nothing here depends on LoopHunter.
#
# Usage: scripts/build-qt-programs.sh [OUTDIR]   (default: .build/release/qt-programs)
#   CXX may be set; JOBS (default: the number of cores) parallel compilers. Installs nothing:
#   without Qt's development files it exits 1 with one line naming the Debian packages to install.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-.build/release/qt-programs}
cxx=${CXX:-g++}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
src=Tests/Programs/qt
start=$(date +%s%N)

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "build-qt-programs: pkg-config not found; install it with: apt-get install pkg-config" >&2
  exit 1
fi
missing=()
pkg-config --exists Qt5Widgets || missing+=(qtbase5-dev)
pkg-config --exists Qt5Quick Qt5Qml || missing+=(qtdeclarative5-dev)
pkg-config --exists Qt6Widgets || missing+=(qt6-base-dev)
pkg-config --exists Qt6Quick Qt6Qml || missing+=(qt6-declarative-dev)
moc5=$(pkg-config --variable=host_bins Qt5Core 2>/dev/null || true)/moc
moc6=$(pkg-config --variable=libexecdir Qt6Core 2>/dev/null || true)/moc
[ -x "$moc5" ] || moc5=/usr/lib/qt5/bin/moc
[ -x "$moc6" ] || moc6=/usr/lib/qt6/libexec/moc
[ -x "$moc5" ] || missing+=(qtbase5-dev-tools)
[ -x "$moc6" ] || missing+=(qt6-base-dev-tools)
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-qt-programs: Qt development files missing; install them with: apt-get install ${missing[*]}" >&2
  exit 1
fi
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "build-qt-programs: C++ compiler '$cxx' not found; install it with: apt-get install g++" >&2
  exit 1
fi

mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/qt-programs.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One line per program: VERSION SOURCE NAME MODULES...
list=$work/list
: >"$list"
for file in "$src"/*.cpp; do
  base=$(basename "$file" .cpp)
  [ "$base" = qtcauses ] && continue # the shared code, built per combo below
  modules=$(head -n 10 "$file" | sed -n 's,^// QT-MODULES:[[:space:]]*,,p' | head -n 1)
  [ -n "$modules" ] || modules=Widgets
  case "$base" in
    qt5_*) name=${base#qt5_}; echo "5 $file qt5-${name//_/-} $modules" >>"$list" ;;
    qt6_*) name=${base#qt6_}; echo "6 $file qt6-${name//_/-} $modules" >>"$list" ;;
    *) echo "5 $file qt5-${base//_/-} $modules" >>"$list"
       echo "6 $file qt6-${base//_/-} $modules" >>"$list" ;;
  esac
done

# -rdynamic: the app's functions (the truth's function=) are named in stacks without debug info.
# Per Qt version and module set ("combo"): a precompiled qtcauses.h and qtcauses.o (the shared
# run/quit and self-check code), then every program: moc if needed, compile, link with qtcauses.o.
export CXX_="$cxx" MOC5="$moc5" MOC6="$moc6" WORK="$work" OUT="$out" SRCDIR="$src"
qt_flags() { # cflags|libs VERSION MODULES... -> those pkg-config flags, one word per line
  local kind=$1 v=$2 m
  shift 2
  local pkgs=("Qt${v}Core" "Qt${v}Gui")
  for m in "$@"; do
    case "$m" in
      Widgets) pkgs+=("Qt${v}Widgets") ;;
      Quick) pkgs+=("Qt${v}Quick" "Qt${v}Qml") ;;
      *) pkgs+=("Qt${v}$m") ;;
    esac
  done
  pkg-config "--$kind" "${pkgs[@]}" | tr ' ' '\n' | grep -v '^$' || true
}
build_combo() { # VERSION MODULES...
  set -euo pipefail
  local v=$1
  local dir=$WORK/combo-$(echo "$@" | tr ' ' '-')
  mkdir -p "$dir"
  local qt
  mapfile -t qt < <(qt_flags cflags "$@")
  cp "$SRCDIR/qtcauses.h" "$dir/qtcauses.h"
  "$CXX_" $COMMON "${qt[@]}" -x c++-header "$dir/qtcauses.h" -o "$dir/qtcauses.h.gch"
  "$CXX_" $COMMON "${qt[@]}" -include "$dir/qtcauses.h" -Winvalid-pch -I"$SRCDIR" -c \
    "$SRCDIR/qtcauses.cpp" -o "$dir/qtcauses.o"
  touch "$dir/combo-ok"
}
build_one() { # VERSION SOURCE NAME MODULES...
  set -euo pipefail
  local v=$1 file=$2 name=$3
  shift 3
  local combo=$WORK/combo-$v-$(echo "$@" | tr ' ' '-')
  local qt libs
  mapfile -t qt < <(qt_flags cflags "$v" "$@")
  mapfile -t libs < <(qt_flags libs "$v" "$@")
  local dir=$WORK/$name
  mkdir -p "$dir"
  if grep -q 'Q_OBJECT' "$file"; then
    local moc=$MOC5
    [ "$v" = 6 ] && moc=$MOC6
    "$moc" "$file" -o "$dir/$(basename "$file" .cpp).moc"
  fi
  "$CXX_" $COMMON -rdynamic -Wl,--build-id -include "$combo/qtcauses.h" -Winvalid-pch \
    -I"$SRCDIR" -I"$dir" "$file" "$combo/qtcauses.o" -o "$OUT/$name.tmp" "${qt[@]}" "${libs[@]}" -lm
  mv -f "$OUT/$name.tmp" "$OUT/$name"
  echo "$name" >"$dir/ok"
}
# -fno-optimize-sibling-calls: a truth function that ends in a tail call to a Qt setter keeps its own
# frame, so the request's stack names it (the tests check the function against it).
export COMMON="-std=c++17 -O2 -g -fPIC -fno-omit-frame-pointer -fno-optimize-sibling-calls -Wall -Wextra"
export -f qt_flags build_combo build_one
cut -d' ' -f1,4- "$list" | sort -u >"$work/combos"
if ! xargs -P "$jobs" -L 1 bash -c 'build_combo "$@"' _ <"$work/combos"; then
  echo "build-qt-programs: building the shared code (qtcauses.cpp) failed (see above)" >&2
  exit 1
fi
status=0
xargs -P "$jobs" -L 1 bash -c 'build_one "$@"' _ <"$list" || status=$?
built=$(find "$work" -name ok | wc -l)
total=$(wc -l <"$list")
end=$(date +%s%N)
if [ "$status" -ne 0 ] || [ "$built" -ne "$total" ]; then
  echo "build-qt-programs: built $built of $total programs into $out; some failed (see above)" >&2
  exit 1
fi
printf 'build-qt-programs: built %d programs into %s in %d s (%s jobs)\n' "$built" "$out" $(((end - start + 500000000) / 1000000000)) "$jobs"
