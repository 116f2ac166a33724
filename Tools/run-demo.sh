#!/usr/bin/env bash
# Builds axserver and axquery (debug) and runs axserver on its built-in demo app. Installs missing Debian packages first.
# With a desktop session (an accessibility bus), the demo appears to Orca like any app.
# Without one, a private session bus + AT-SPI bus + registry are started (Tools/a11y-stack.sh) so pyatspi and
# Orca in that environment see it; the environment to use is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
export PATH=/opt/swift/usr/bin:$PATH
# The debug build Tools/test.sh makes too (it adds the test targets to the same .build/debug), so running one
# after the other rebuilds nothing; it builds axquery as well, to talk to the demo from another shell.
swift build
BINDIR="$(swift build --show-bin-path)"
BIN="$BINDIR/axserver"
echo "axserver and axquery are in $BINDIR; in another shell: export PATH=\"$BINDIR:\$PATH\"; axquery tree" >&2
if [ -n "${AT_SPI_BUS_ADDRESS:-}" ] || [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  exec "$BIN" --demo "$@"
fi
eval "$(Tools/a11y-stack.sh start)"
trap 'Tools/a11y-stack.sh stop "$A11Y_STACK_DIR"' EXIT
echo "private accessibility stack: DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS=$AT_SPI_BUS_ADDRESS" >&2
"$BIN" --demo "$@"
