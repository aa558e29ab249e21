#!/usr/bin/env bash
# README command 1: builds everything, then runs toykit's feedback-loop scenario (`loop`: a label
# whose layout resizes its parent inside the layout pass) under the preload, and shows the report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh build
echo "== building (native parts, then the Swift package)"
scripts/build-native.sh
swift build -c release 2>&1 | tail -n 1

dir=$(mktemp -d /tmp/loophunter-demo.XXXXXX)
echo
echo "== toykit-demo loop, under LD_PRELOAD=.build/release/libloophunter.so, reports in $dir"
LD_PRELOAD="$root/.build/release/libloophunter.so" LOOPHUNTER_DIR="$dir" LOOPHUNTER_VERBOSE=1 \
  ./.build/release/toykit-demo loop
echo
echo "== what LoopHunter wrote"
ls -l "$dir"
report=$(ls "$dir"/report-*.json 2>/dev/null | head -n 1 || true)
if [ -z "$report" ]; then
  echo "demo: no report was written (this is a bug: the loop scenario always loops)" >&2
  exit 1
fi
echo
echo "== the report ($report)"
cat "$report"
