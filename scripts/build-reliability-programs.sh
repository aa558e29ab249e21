#!/usr/bin/env bash
# Builds the host programs of the reliability suite (Tests/Programs/reliability, see
# docs/reliability.md) into .build/release/test-programs/reliability/. Run after
# scripts/build-native.sh (it links libtoykit.so from the same directory).
#   lh-rel                  the multi-mode host program (one mode per docs/reliability.md row)
#   lh-rel-asan             the same, built with AddressSanitizer (row 21)
#   librel-ctor.so          dlopen'ed in a loop; its constructor mallocs (row 5)
#   librel-now.so           the same linked with -z now, ~260 entries in its read-only GOT (row 33)
#   librel-first.so         a preload whose constructor mallocs and polls (row 2)
#   librel-nounwind.so      code without unwind tables (row 16)
#   librel-module.so        a module that breaches and is dlclosed (row 18)
#   librel-tls-N.so         TLS-heavy (initial-exec) libraries (row 6)
#   rel-static              a statically linked program (row 19)
#   lh-rel-sandbox          puts itself in a seccomp sandbox like a browser's content process (row 22)
#   lh-rel-noperf           runs a program where perf_event_open fails, as in a container (row 22)
#   librel-poll.so          a second LD_PRELOAD interposer of poll() (row 32)
#   lh-rel-reload           dlopens toykit RTLD_LOCAL, breaches, dlcloses, reloads it (rows 1, 18)
#   fuzz-config             libFuzzer harness of the env parser (row 25), when clang has libFuzzer
# CC, OUT as in build-native.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cc=${CC:-cc}
if [ -z "${OUT:-}" ]; then
  OUT=$(swift build -c release --show-bin-path 2>/dev/null || echo .build/release)
fi
rel=$OUT/test-programs/reliability
mkdir -p "$rel"
src=Tests/Programs/reliability
common=(-std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -Werror=implicit-function-declaration
        -Wno-missing-field-initializers -fno-omit-frame-pointer)
libdir=$(cd "$OUT" && pwd)

# Built aside and renamed into place: a program running from the old file (a test's target that
# dlopens librel-now.so in a loop while another test process rebuilds) keeps its inode.
stage=$(mktemp -d "$rel/.stage.XXXXXX")
"$cc" "${common[@]}" -ISources/Toykit/include "$src/lh_rel.c" -L"$OUT" -ltoykit -lpthread -ldl \
  -Wl,-rpath,"$libdir" -Wl,--build-id -o "$stage/lh-rel"
"$cc" "${common[@]}" -fsanitize=address -ISources/Toykit/include "$src/lh_rel.c" -L"$OUT" -ltoykit \
  -lpthread -ldl -Wl,-rpath,"$libdir" -o "$stage/lh-rel-asan"
"$cc" "${common[@]}" -fPIC -shared "$src/rel_ctor.c" -o "$stage/librel-ctor.so"
"$cc" "${common[@]}" -fno-builtin -w -fPIC -shared -Wl,-z,now -Wl,-z,relro "$src/rel_now.c" -o "$stage/librel-now.so"
"$cc" "${common[@]}" -fPIC -shared "$src/rel_first.c" -o "$stage/librel-first.so"
"$cc" "${common[@]}" -fPIC -shared -fno-asynchronous-unwind-tables -fno-unwind-tables \
  -fomit-frame-pointer "$src/rel_nounwind.c" -L"$OUT" -ltoykit -Wl,-rpath,"$libdir" -Wl,--build-id \
  -o "$stage/librel-nounwind.so"
"$cc" "${common[@]}" -fPIC -shared "$src/rel_module.c" -L"$OUT" -ltoykit -Wl,-rpath,"$libdir" \
  -Wl,--build-id -o "$stage/librel-module.so"
for n in 1 2 3 4; do
  "$cc" "${common[@]}" -fPIC -shared -DREL_TLS_BYTES=512 "$src/rel_tls.c" -o "$stage/librel-tls-$n.so"
done
"$cc" "${common[@]}" -static "$src/rel_static.c" -o "$stage/rel-static"
"$cc" "${common[@]}" -ISources/Toykit/include "$src/rel_sandbox.c" -L"$OUT" -ltoykit -Wl,-rpath,"$libdir" \
  -Wl,--build-id -o "$stage/lh-rel-sandbox"
"$cc" "${common[@]}" "$src/rel_noperf.c" -o "$stage/lh-rel-noperf"
"$cc" "${common[@]}" -fPIC -shared "$src/rel_pollhook.c" -ldl -o "$stage/librel-poll.so"
"$cc" "${common[@]}" -ISources/Toykit/include "$src/rel_reload.c" -ldl -Wl,--build-id -o "$stage/lh-rel-reload"
for f in "$stage"/*; do mv -f "$f" "$rel/"; done
rmdir "$stage"

# libFuzzer harness of the env parser (CShim/core/lh_config.c), from a clang with libFuzzer.
if ! scripts/build-fuzzers.sh "$rel" > "$rel/fuzz-build.log" 2>&1; then
  echo "build-reliability: no fuzzer built (see $rel/fuzz-build.log)" >&2
fi
