#!/usr/bin/env bash
# Builds LoopHunter's native (C) parts with the system C compiler into .build/release/:
#   libloophunter.so   the LD_PRELOAD library (CShim/core + CShim/preload), NEEDED: libc (libunwind is
#                      opened with dlopen when first needed: CShim/preload/runtime/lh_unwind.h)
#   libtoykit.so       the GUI-style host toolkit (Sources/Toykit)
#   toykit-demo        the host program with its scenarios (Sources/ToykitDemo), linked to libtoykit.so
#   test-programs/     host programs of the end-to-end tests (Tests/Programs)
#
# Why not SwiftPM: SwiftPM links a C `.dynamic` library through the Swift driver, which adds
# libstdc++ (and, without -static-stdlib, libswiftCore) to NEEDED; and it links an executable
# target's in-package library targets statically, which would erase the shared-library boundary
# toykit needs (layout calls must cross libtoykit.so's PLT, as they do in real toolkits).
#
# Usage: scripts/build-native.sh [all|preload|toykit]   (default: all)
#   CC, CFLAGS_EXTRA, OUT (default .build/release) may be set; OUT lets sanitizer builds go elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
what=${1:-all}
cc=${CC:-cc}
# .build/release is SwiftPM's: a symlink it (re)creates to .build/<triple>/release, replacing a
# directory of that name. Write into the directory it points to, so `swift build -c release`
# before or after this script keeps our products.
if [ -z "${OUT:-}" ]; then
  if command -v swift >/dev/null 2>&1 && bin=$(swift build -c release --show-bin-path 2>/dev/null); then
    OUT=$bin
    mkdir -p "$OUT"
    [ -L .build/release ] || { rm -rf .build/release; ln -s "$(realpath --relative-to=.build "$OUT")" .build/release; }
  else
    OUT=.build/release
  fi
fi
out=$OUT
mkdir -p "$out"

common=(-std=gnu11 -O2 -g -fPIC -Wall -Wextra -Werror=implicit-function-declaration
        -Wno-missing-field-initializers -fno-omit-frame-pointer ${CFLAGS_EXTRA:-})

if ! [ -f /usr/include/x86_64-linux-gnu/libunwind.h ] && ! [ -f /usr/include/libunwind.h ]; then
  echo "build-native: libunwind.h not found; install it with: sudo apt-get install libunwind-dev" >&2
  exit 1
fi

# The preload's layers (CShim/preload/README.md): one folder each, each an include path.
preload_layers=(interpose runtime detectors toolkits report)
preload_includes=() preload_sources=()
for layer in "${preload_layers[@]}"; do
  preload_includes+=("-ICShim/preload/$layer")
  preload_sources+=(CShim/preload/"$layer"/*.c)
done

build_preload() {
  # The export list comes from the hook table (one row per interposed name).
  "$cc" -E -P -x c -ICShim/preload/interpose CShim/preload/interpose/exports.map.in -o "$out/loophunter-exports.map"
  # -fvisibility=hidden + the version script: the .so exports only the hook table's names and the
  # documented loophunter_* API. Initial-exec TLS: the hooks run inside malloc and signal handlers.
  # No frame pointer in the preload: the malloc wrappers are a few instructions each (our frames
  # are removed from every stack we report; libunwind uses the DWARF CFI, not frame pointers).
  "$cc" "${common[@]}" -fomit-frame-pointer -shared -fvisibility=hidden -ftls-model=initial-exec \
    -fno-stack-protector -fno-plt -DLH_PRELOAD_BUILD \
    -ICShim/include -ICShim/core/include "${preload_includes[@]}" \
    CShim/core/*.c "${preload_sources[@]}" \
    -Wl,--version-script="$out/loophunter-exports.map" -Wl,--as-needed -Wl,-z,relro -Wl,-z,now \
    -Wl,--build-id -Wl,-soname,libloophunter.so \
    -ldl -lpthread -o "$out/libloophunter.so.tmp"
  mv -f "$out/libloophunter.so.tmp" "$out/libloophunter.so"
}

build_toykit() {
  "$cc" "${common[@]}" -shared -D_GNU_SOURCE -ISources/Toykit/include \
    Sources/Toykit/*.c -Wl,--build-id -Wl,-soname,libtoykit.so -lpthread \
    -o "$out/libtoykit.so.tmp"
  mv -f "$out/libtoykit.so.tmp" "$out/libtoykit.so"
  "$cc" "${common[@]}" -D_GNU_SOURCE -ISources/Toykit/include \
    Sources/ToykitDemo/*.c -L"$out" -ltoykit -lpthread -Wl,--build-id -Wl,-rpath,'$ORIGIN' \
    -o "$out/toykit-demo.tmp"
  mv -f "$out/toykit-demo.tmp" "$out/toykit-demo"
}

build_test_programs() {
  # Host programs of the end-to-end tests (Tests/Programs): built like any application.
  mkdir -p "$out/test-programs"
  "$cc" "${common[@]}" -ISources/Toykit/include Tests/Programs/lh_probe.c \
    -L"$out" -ltoykit -Wl,-rpath,"$(cd "$out" && pwd)" -o "$out/test-programs/lh-probe"
  "$cc" "${common[@]}" -ISources/Toykit/include Tests/Programs/lh_leave.c \
    -L"$out" -ltoykit -Wl,-rpath,"$(cd "$out" && pwd)" -o "$out/test-programs/lh-leave"
  "$cc" "${common[@]}" -ISources/Toykit/include Tests/Programs/lh_burst.c \
    -L"$out" -ltoykit -Wl,-rpath,"$(cd "$out" && pwd)" -o "$out/test-programs/lh-burst"
  "$cc" "${common[@]}" Tests/Programs/lh_poller.c -o "$out/test-programs/lh-poller"
  "$cc" "${common[@]}" Tests/Programs/lh_alloc_probe.c -lpthread -o "$out/test-programs/lh-alloc-probe"
  # The same probe linked to each replacement allocator present (the tests name a missing one).
  for lib in libjemalloc.so.2 libtcmalloc_minimal.so.4 libmimalloc.so.2; do
    path=/usr/lib/x86_64-linux-gnu/$lib
    [ -e "$path" ] || continue
    name=${lib%%.so*}; name=${name#lib}; name=${name%_minimal}
    "$cc" "${common[@]}" Tests/Programs/lh_alloc_probe.c "$path" -lpthread -o "$out/test-programs/lh-alloc-probe-$name"
  done
}

case "$what" in
  all) build_toykit; build_preload; build_test_programs ;;
  preload) build_preload ;;
  toykit) build_toykit ;;
  *) echo "build-native: unknown part '$what' (use all, preload or toykit)" >&2; exit 2 ;;
esac
