#!/usr/bin/env bash
# Builds the preload core, toykit and toykit-demo with AddressSanitizer + UndefinedBehaviorSanitizer,
# then separately with ThreadSanitizer (through scripts/build-native.sh's CFLAGS_EXTRA and OUT),
# and once more as a TSan-built host with the ordinary preload (tsan-host), and runs the toykit
# scenarios and the thread stress programs under each. Exits non-zero on any
# sanitizer finding (or a program failing). Reliability rows 21, 3, 13, 24; docs/reliability.md.
#   ASan host rule: the sanitizer runtime comes first, LD_PRELOAD=libasan.so:libloophunter.so.
# Usage: scripts/sanitize.sh [asan|tsan|tsan-host|all]   (default all)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
what=${1:-all}
cc=${CC:-gcc}
scenarios=(healthy loop capped-loop oscillate alloc-storm leak threads fork)
findings=0
runs=0

run_one() { # label env... -- program args...
  local label=$1; shift
  local log; log=$(mktemp /tmp/lh-sanitize.XXXXXX)
  local dir; dir=$(mktemp -d /tmp/lh-sanitize-dir.XXXXXX)
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  runs=$((runs + 1))
  env "${envs[@]}" LOOPHUNTER_DIR="$dir/r" timeout 300 "$@" >/dev/null 2>"$log"
  local status=$?
  if [ $status -ne 0 ] || grep -qE 'ERROR: (Address|Leak|Thread)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$log"; then
    echo "sanitize: $label: FINDING (status $status)" >&2
    grep -m 40 -E -A12 'ERROR:|WARNING: ThreadSanitizer|runtime error:' "$log" >&2 || tail -20 "$log" >&2
    findings=$((findings + 1))
  else
    echo "sanitize: $label: clean"
  fi
  rm -rf "$log" "$dir"
}

sanitizer() { # name flags runtime options-variable options [host]
  # host: the programs are built with the sanitizer but the preload is the ordinary one (what a
  # user with a sanitized program loads); otherwise the preload is instrumented too.
  local name=$1 flags=$2 runtime=$3 optvar=$4 opts=$5 mode=${6:-}
  local out=.build/sanitize/$name
  echo "== $name: building into $out"
  OUT=$out CC=$cc CFLAGS_EXTRA="$flags -fno-sanitize-recover=undefined" scripts/build-native.sh all >/dev/null || { echo "sanitize: $name build failed" >&2; findings=$((findings + 1)); return; }
  OUT=$out CC=$cc scripts/build-reliability-programs.sh >/dev/null 2>&1 || { echo "sanitize: $name: reliability programs failed to build" >&2; findings=$((findings + 1)); return; }
  if [ "$mode" = host ]; then
    OUT=$out CC=$cc scripts/build-native.sh preload >/dev/null || { echo "sanitize: $name: the preload failed to build" >&2; findings=$((findings + 1)); return; }
  fi
  # The compiler's own runtime (the one its instrumentation expects), first in LD_PRELOAD.
  local rt; rt=$(realpath "$("$cc" -print-file-name="$runtime")")
  [ -f "$rt" ] || { echo "sanitize: $name: the compiler has no $runtime (install libasan8/libtsan2)" >&2; findings=$((findings + 1)); return; }
  local pre="$rt:$root/$out/libloophunter.so"
  local common=("LD_PRELOAD=$pre" "$optvar=$opts" "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
  for s in "${scenarios[@]}"; do
    run_one "$name toykit-demo $s" "${common[@]}" -- "$out/toykit-demo" "$s"
  done
  local rel=$out/test-programs/reliability
  run_one "$name lh-rel threads-capture 8" "${common[@]}" -- "$rel/lh-rel" threads-capture 8
  run_one "$name lh-rel rounds 10 32" "${common[@]}" -- "$rel/lh-rel" rounds 10 32
  run_one "$name lh-rel signals 3 10000" "${common[@]}" -- "$rel/lh-rel" signals 3 10000
  run_one "$name lh-rel fork-storm 10 4" "${common[@]}" -- "$rel/lh-rel" fork-storm 10 4
  run_one "$name lh-rel dlopen-storm 5" "${common[@]}" -- "$rel/lh-rel" dlopen-storm 5 "$root/$rel/librel-ctor.so"
  run_one "$name lh-alloc-probe stress 4 200000" "${common[@]}" -- "$out/test-programs/lh-alloc-probe" stress 4 200000
}

case "$what" in
  asan|all) sanitizer asan "-fsanitize=address,undefined" libasan.so ASAN_OPTIONS "detect_leaks=0:halt_on_error=1:abort_on_error=0:exitcode=66" ;;
esac
case "$what" in
  tsan|all) sanitizer tsan "-fsanitize=thread" libtsan.so TSAN_OPTIONS "halt_on_error=1:exitcode=66:report_signal_unsafe=0:suppressions=$root/scripts/tsan.supp" ;;
esac
# A ThreadSanitizer-built host with the ordinary preload: TSan sees our code only through the libc
# calls it intercepts (see lh_unwind.h and lh_breach.c's annotations).
case "$what" in
  tsan-host|all) sanitizer tsan-host "-fsanitize=thread" libtsan.so TSAN_OPTIONS "halt_on_error=1:exitcode=66:report_signal_unsafe=0:suppressions=$root/scripts/tsan.supp" host ;;
esac
echo "sanitize: $runs runs, $findings with findings"
[ "$findings" -eq 0 ]
