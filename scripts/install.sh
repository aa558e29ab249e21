#!/usr/bin/env bash
# Installs LoopHunter into a prefix: the `loophunter` command, the preload, its man page and its
# shell completions (both generated from the command's argument parser, so they never drift).
#
# Usage: scripts/install.sh [--configuration release|debug] [PREFIX]
#   PREFIX defaults to /usr/local (use a user prefix like ~/.local); the configuration to release.
#   The test suite installs its debug build (already built by `swift test`) to check the install
#   layout without building the whole package again in release.
#   PREFIX/bin/loophunter
#   PREFIX/lib/libloophunter.so             (found by `loophunter run` as ../lib next to the command)
#   PREFIX/share/man/man1/loophunter*.1     (man loophunter, man loophunter-run, ...)
#   PREFIX/share/bash-completion/completions/loophunter
#   PREFIX/share/zsh/site-functions/_loophunter
#   PREFIX/share/fish/vendor_completions.d/loophunter.fish
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
configuration=release
if [ "${1:-}" = "--configuration" ]; then
  configuration=${2:-}
  shift 2 || true
fi
case "$configuration" in
  release|debug) ;;
  *) echo "install: --configuration must be release or debug, not '$configuration'" >&2; exit 2 ;;
esac
prefix=${1:-/usr/local}

scripts/setup.sh build
scripts/build-native.sh
swift build -c "$configuration" --product loophunter 2>&1 | tail -n 1
bin=$(swift build -c "$configuration" --show-bin-path)
native=$(swift build -c release --show-bin-path)   # build-native.sh writes the preload there

# The man page: swift-argument-parser's generate-manual plugin, one page per command (it builds
# the package's executables in the same configuration and asks each for its help).
swift package generate-manual --configuration "$configuration" --multi-page --date 2026-11-21 >/dev/null
manuals=$(find .build/plugins/GenerateManual/outputs -name 'loophunter*.1' 2>/dev/null)
[ -n "$manuals" ] || { echo "install: the man page was not generated" >&2; exit 1; }

install -d "$prefix/bin" "$prefix/lib" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
  "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "$bin/loophunter" "$prefix/bin/loophunter"
install -m 0755 "$native/libloophunter.so" "$prefix/lib/libloophunter.so"
for page in $manuals; do install -m 0644 "$page" "$prefix/share/man/man1/"; done
"$prefix/bin/loophunter" --generate-completion-script bash >"$prefix/share/bash-completion/completions/loophunter"
"$prefix/bin/loophunter" --generate-completion-script zsh >"$prefix/share/zsh/site-functions/_loophunter"
"$prefix/bin/loophunter" --generate-completion-script fish >"$prefix/share/fish/vendor_completions.d/loophunter.fish"
echo "installed loophunter into $prefix (run: $prefix/bin/loophunter doctor)"
