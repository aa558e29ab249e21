#!/usr/bin/env bash
# README command 1: builds everything, then runs toykit's feedback-loop scenario (`loop`: a label
# whose layout resizes its parent inside the layout pass) under LoopHunter and shows the findings:
# symbolized, grouped, in the terminal, plus an HTML page next to the reports.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh build
echo "== building (native parts, then the Swift package)"
scripts/build-native.sh
swift build -c release --product loophunter 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)

dir=$(mktemp -d /tmp/loophunter-demo.XXXXXX)
echo
echo "== loophunter run -- toykit-demo loop   (reports in $dir)"
status=0
"$bin/loophunter" run --dir "$dir" -- "$bin/toykit-demo" loop || status=$?
if [ "$status" -ne 0 ] || ! ls "$dir"/report-*.json >/dev/null 2>&1; then
  echo "demo: no report was written (status $status); the loop scenario always loops, so this is a bug" >&2
  exit 1
fi
"$bin/loophunter" report "$dir" --format html -o "$dir/loophunter.html"
echo
echo "== what LoopHunter wrote"
ls -l "$dir"
echo
echo "The same findings as a page with the run-up plotted: $dir/loophunter.html"
echo "Other formats: $bin/loophunter report $dir --format markdown|json|sarif|junit"
