#!/usr/bin/env bash
# Installs the Debian 12 packages Lockstep needs to build, test and run. Installs only what is
# missing, so running it again is quick and changes nothing. With --list it only prints the
# packages, one a line (scripts/check-deps.sh reads them).
set -euo pipefail

packages=(
    cmake g++ make ccache pkg-config
    # Qt Charts needs Qt OpenGL, which Debian makes a recommendation only.
    qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev libgl-dev
    libtbb-dev nlohmann-json3-dev
    # Translations: Qt Linguist's lupdate and lrelease, and Qt's own words in German and Spanish.
    qt6-l10n-tools qt6-translations-l10n
    # The class quiz: Qt's HTTP server and WebSockets, QR codes of its address, ICU's spoof
    # checker for students' names that look alike.
    qt6-httpserver-dev qt6-websockets-dev libqrencode-dev libicu-dev
    # Runs with one process per worker (lockstep-cli --transport mpi), and two hosts on one
    # computer for them (scripts/two-hosts.sh: network namespaces, a veth pair, tc; util-linux's
    # unshare).
    libopenmpi-dev openmpi-bin iproute2 util-linux
    # Widget tests under a virtual display, the random-input check, the fuzz targets.
    xvfb xauth xdotool clang
    # What a screen reader sees (tests/accessibility/atspi_tree.py): AT-SPI over a session bus.
    python3-pyatspi at-spi2-core dbus
    # The class quiz's student page in a real browser (tests/class/browser_test.py).
    chromium chromium-driver python3-selenium
    # PyTorch: the reference data-parallel training is checked against (tests/cli/torch_ddp_test.py)
    # and measured beside (tests/bench).
    python3-torch
    # The Debian package (CPack: dpkg-shlibdeps, file) and its checks: the desktop entry, the
    # AppStream metainfo, lintian.
    dpkg-dev file desktop-file-utils appstream lintian
)
if [ "${1:-}" = --list ]; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
