#!/usr/bin/env bash
# Installs the Debian packages AXServer needs, only if something is missing (apt-get update first).
#   build:        libdbus-1-dev pkg-config libglib2.0-dev (GIO/GSettings: the accessibility settings, D-SET-1)
#   settings:     gsettings-desktop-schemas libglib2.0-bin (the GNOME keys and the gsettings tool the tests use)
#   a11y stack:   dbus dbus-x11 at-spi2-core
#   clients:      python3-pyatspi gir1.2-atspi-2.0 python3-gi (pyatspi through /usr/bin/python3)
#   Orca tests:   orca xvfb xdotool (speech-dispatcher comes with orca; it is never started: SPEECHD_CMD=/bin/false)
#   benchmarks:   gir1.2-gtk-4.0 (the GTK4 reference app), python3-lxml (selector benchmark)
#   Python tests: python3-pytest
#   dogtail test: python3-dogtail (Debian's dogtail 0.9.11; Tests/Integration/test_dogtail.py)
#   test venv:    python3-venv (Tools/test-venv.sh: PyPI test clients — mcp, selenium, Appium)
#   Tk adapter:   python3-tk idle-python3.11 (axclient.tk, its tests and the IDLE showcase), python3.11-examples
#                 (turtledemo: Tests/PythonClient/test_tk_turtledemo.py)
#   pictures:     librsvg2-bin (rsvg-convert: tree.render PNG, axquery render --format png)
#   ImGui adapter: libgl1 libgl1-mesa-dri (Mesa's llvmpipe OpenGL under Xvfb for imgui_bundle's GLFW backend)
# Then the second screen-reader stack (Orca 48 + at-spi2-core 2.56 from bookworm-backports, unpacked into
# .build/orca48, nothing installed system-wide): Tools/install-orca48.sh (a no-op when present).
set -euo pipefail
install_orca48() { "$(dirname "$0")/install-orca48.sh"; }
PKGS=(libdbus-1-dev pkg-config libglib2.0-dev gsettings-desktop-schemas libglib2.0-bin dbus dbus-x11 at-spi2-core python3-pyatspi gir1.2-atspi-2.0 python3-gi
      orca xvfb xdotool gir1.2-gtk-4.0 python3-lxml python3-jsonschema python3-pytest librsvg2-bin python3-dogtail
      python3-venv python3-tk idle-python3.11 python3.11-examples)
PKGS+=(libgl1 libgl1-mesa-dri)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present" >&2
  install_orca48
  exit 0
fi
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
install_orca48
