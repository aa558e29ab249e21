#!/usr/bin/env bash
# README command 2: the whole test suite (what .ci/run runs). Installs what is missing, builds the
# native parts and the Swift package, runs every test; exits non-zero when any test fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh test
echo "== building native parts"
scripts/build-native.sh
scripts/build-gtk-programs.sh
scripts/build-reliability-programs.sh
scripts/build-cause-programs.sh
scripts/build-qt-programs.sh
echo "== validators (SARIF, JUnit consumers from PyPI)"
scripts/setup-validators.sh
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
echo "== the attach injector against its own targets (scripts/test-inject.sh, ~1 min)"
scripts/test-inject.sh || { echo "test: injector checks failed (see above)" >&2; exit 1; }
echo "== sanitizers: the preload core under ASan+UBSan and TSan (scripts/sanitize.sh, ~2 min)"
scripts/sanitize.sh all || { echo "test: sanitizer findings (see above)" >&2; exit 1; }
echo "== install: the command, its man page and completions into a scratch prefix"
prefix=$(mktemp -d /tmp/loophunter-install.XXXXXX)
scripts/install.sh --configuration debug "$prefix" >/dev/null
for f in bin/loophunter lib/libloophunter.so share/man/man1/loophunter.1 share/man/man1/loophunter.run.1 \
         share/bash-completion/completions/loophunter share/zsh/site-functions/_loophunter \
         share/fish/vendor_completions.d/loophunter.fish; do
  [ -s "$prefix/$f" ] || { echo "test: install did not produce $f" >&2; exit 1; }
done
grep -q '^\.Dt LOOPHUNTER 1' "$prefix/share/man/man1/loophunter.1" || { echo "test: the man page has no .Dt header" >&2; exit 1; }
"$prefix/bin/loophunter" doctor >/dev/null || { echo "test: the installed loophunter's doctor failed" >&2; exit 1; }
rm -rf "$prefix"
echo "test: all tests passed"
