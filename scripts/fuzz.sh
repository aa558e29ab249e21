#!/usr/bin/env bash
# The long fuzz run of the env parser (Reliability row 25): libFuzzer with ASan+UBSan for
# SECONDS (default 600) over Tests/Fuzz/corpus/config, new inputs kept in .build/fuzz/config.
# The test suite runs the same harness for a few seconds (ReliabilityFuzzTests).
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
secs=${1:-600}
out=.build/fuzz
mkdir -p "$out/config"
scripts/build-fuzzers.sh "$out"
exec "$out/fuzz-config" -max_total_time="$secs" -max_len=4096 -timeout=10 "$out/config" Tests/Fuzz/corpus/config
