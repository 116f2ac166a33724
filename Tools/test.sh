#!/usr/bin/env bash
# Runs every test: unit tests and the conformance suite (swift test), the conformance suite again through the
# axserver CLI, and the integration suite with real parts (dbus-daemon, at-spi bus launcher and registry,
# pyatspi, Orca under Xvfb, separate provider and client processes over the socket, the axquery CLI), after a
# bounded fuzzing run of every fuzz target (Tools/fuzz.sh).
# Installs missing Debian packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
export PATH=/opt/swift/usr/bin:$PATH
echo "== build (debug, with tests)" >&2
swift build --build-tests
BIN="$(swift build --show-bin-path)"
echo "== unit tests and conformance (swift test)" >&2
swift test --skip-build --parallel --num-workers 2
echo "== conformance through the CLI" >&2
"$BIN/axserver" conformance Specs/conformance
echo "== fuzz (libFuzzer + AddressSanitizer, 7 s per target; long run: Tools/fuzz.sh --seconds 600)" >&2
Tools/fuzz.sh --seconds 7
echo "== integration (real D-Bus, AT-SPI, pyatspi, Orca, sockets, axquery)" >&2
AXSERVER_BIN="$BIN" /usr/bin/python3 Tests/Integration/run.py
