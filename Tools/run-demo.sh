#!/usr/bin/env bash
# Builds axserver and runs it on its built-in demo app. Installs missing Debian packages first.
# With a desktop session (an accessibility bus), the demo appears to Orca like any app.
# Without one, a private session bus + AT-SPI bus + registry are started (Tools/a11y-stack.sh) so pyatspi and
# Orca in that environment see it; the environment to use is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
export PATH=/opt/swift/usr/bin:$PATH
swift build -c release --product axserver
BIN="$(swift build -c release --show-bin-path)/axserver"
if [ -n "${AT_SPI_BUS_ADDRESS:-}" ] || [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  exec "$BIN" --demo "$@"
fi
eval "$(Tools/a11y-stack.sh start)"
trap 'Tools/a11y-stack.sh stop "$A11Y_STACK_DIR"' EXIT
echo "private accessibility stack: DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS=$AT_SPI_BUS_ADDRESS" >&2
"$BIN" --demo "$@"
