#!/usr/bin/env bash
# Builds the libFuzzer harness of the env parser (Tests/Fuzz/fuzz_config.c + CShim/core/lh_config.c)
# with -fsanitize=fuzzer,address,undefined into DIR/fuzz-config (default
# .build/release/test-programs/reliability). Needs a clang with libFuzzer: the Swift toolchain's
# clang has it; otherwise Debian's clang is installed (scripts/setup.sh's way).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${1:-.build/release/test-programs/reliability}
mkdir -p "$out"
has_fuzzer() {
  command -v "$1" >/dev/null 2>&1 || return 1
  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){return 0;}' |
    "$1" -x c -fsanitize=fuzzer - -o /dev/null >/dev/null 2>&1
}
clang=""
for c in ${FUZZ_CC:-} clang clang-16 clang-15 clang-14; do
  if has_fuzzer "$c"; then clang=$c; break; fi
done
if [ -z "$clang" ]; then
  echo "build-fuzzers: no clang with libFuzzer; installing Debian's clang" >&2
  sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo -n)
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends clang </dev/null >/dev/null 2>&1 || true
  for c in clang clang-14; do if has_fuzzer "$c"; then clang=$c; break; fi; done
fi
[ -n "$clang" ] || { echo "build-fuzzers: no clang with -fsanitize=fuzzer available" >&2; exit 1; }
"$clang" -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -DLH_FUZZ -ICShim/core/include -ICShim/include Tests/Fuzz/fuzz_config.c CShim/core/lh_config.c CShim/core/lh_buf.c CShim/core/lh_shared.c -fuse-ld=bfd \
  -o "$out/fuzz-config"
