#!/usr/bin/env bash
# Installs what LoopHunter's build and tests need from Debian's packages, only when missing.
# Non-interactive (CI has no standard input): apt-get -y with DEBIAN_FRONTEND=noninteractive,
# through sudo when not root. Prints what it installs; does nothing when all is present.
#
# Usage: scripts/setup.sh [build|test|realapps]   (test also installs what the test suite runs;
#        realapps also the Debian applications scripts/realapps/run.sh drives, and its tools)
set -euo pipefail
purpose=${1:-build}

build_packages=(gcc libc6-dev libunwind-dev binutils zlib1g-dev)
# zlib1g-dev: gzip of `ship` (CompressNIO links zlib).
# llvm: llvm-symbolizer (the Swift toolchain ships one too); GTK 3/4 and Xvfb: the real-toolkit
# tests; python3-venv: the SARIF/JUnit validators from PyPI; util-linux: setpriv (a test drops root); openssl: the TLS
# collector of the ship tests makes its certificate.
# libasan8/libtsan2/libubsan1: the sanitizer runtimes of scripts/sanitize.sh.
# Hosts LoopHunter must not harm: replacement allocators (libjemalloc2, libtcmalloc-minimal4,
# libmimalloc2.0), GTK programs written in Python and JavaScript (python3-gi, gjs and the GTK
# typelibs), other preloads (libfaketime, gtk3-nocsd). python3-dev: CPython's internal headers, the
# ground truth of the preload's reading of Python stacks (Tests/Programs/script). Qt 5 and Qt 6
# (Widgets, Quick and the QML modules the Qt corpus imports; Debian's QML packages do not depend on
# each other): the Qt corpus (Tests/Programs/qt, scripts/build-qt-programs.sh) and its tests.
test_packages=(llvm pkg-config libgtk-3-dev libgtk-4-dev xvfb xauth gtk-3-examples gtk-4-examples
               python3 python3-venv util-linux openssl libasan8 libtsan2 libubsan1
               libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 python3-gi gjs gir1.2-gtk-3.0 gir1.2-gtk-4.0
               libfaketime gtk3-nocsd tk-dev python3-dev valgrind
               g++ qtbase5-dev qtdeclarative5-dev qt6-base-dev qt6-declarative-dev
               qml-module-qtquick2 qml-module-qtquick-window2 qml-module-qtquick-layouts
               qml-module-qtquick-controls2 qml-module-qtquick-templates2
               qml6-module-qtqml qml6-module-qtqml-models qml6-module-qtqml-workerscript qml6-module-qtquick
               qml6-module-qtquick-window qml6-module-qtquick-layouts qml6-module-qtquick-controls
               qml6-module-qtquick-templates)

# scripts/realapps/run.sh: GTK 3 and GTK 4 applications (two of them in GJS), Qt 5 and Qt 6 ones
# (Widgets, Quick, PyQt) driven with xdotool under Xvfb, each with a session bus of its own
# (dbus-run-session).
realapps_packages=(xdotool dbus-daemon gnome-calculator gnome-text-editor gnome-font-viewer gnome-system-monitor
                   gedit mousepad geany evince gnome-characters gnome-weather
                   featherpad kcalc qpdfview qterminal focuswriter designer-qt6 libqt6svg6
                   qtquickcontrols2-5-examples qml-module-qt-labs-settings qml-qt6
                   python3-pyqt5 pyqt5-examples python3-pyqt6)

missing=()
want=("${build_packages[@]}")
[ "$purpose" = test ] || [ "$purpose" = realapps ] && want+=("${test_packages[@]}")
[ "$purpose" = realapps ] && want+=("${realapps_packages[@]}")
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.0 or later) is not on PATH; install it from https://www.swift.org/install/linux/ and retry" >&2
  exit 1
fi

[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo=(sudo -n); else
    echo "setup: need root to install ${missing[*]} (run as root, or install them yourself)" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may never have fetched the package lists.
"${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" </dev/null >/dev/null 2>&1 || {
  "${sudo[@]}" apt-get update </dev/null >/dev/null
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
}
