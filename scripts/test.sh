#!/usr/bin/env bash
# README command 2: the whole test suite (what .ci/run runs). Installs what is missing, builds the
# native parts and the Swift package, runs every test; exits non-zero when any test fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh test
echo "== building native parts"
scripts/build-native.sh
echo "== swift test"
# The tests launch real programs under the preload and assert on the files it wrote.
set +e
swift test 2>&1 | tee .build/test.log
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  echo "test: FAILED (full log: .build/test.log)" >&2
  exit "$status"
fi
echo "test: all tests passed"
