#!/usr/bin/env bash
# Runs the Python client's tests (Tests/PythonClient) against the real axserver; ends with pytest's summary line.
#   Tools/test_python_client.sh [pytest args...]
# AXSERVER_BIN: the folder holding the built axserver (default: $(swift build --show-bin-path), else .build/debug).
# Installs missing Debian packages (Tools/install-deps.sh) and the test venv's PyPI packages (Tools/test-venv.sh);
# runs Tests/PythonClient with the venv's python (Tests/Clients, the PyPI clients, is its own phase in Tools/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
if [ -z "${AXSERVER_BIN:-}" ]; then
  if command -v swift >/dev/null 2>&1 || [ -x /opt/swift/usr/bin/swift ]; then
    AXSERVER_BIN="$(PATH=/opt/swift/usr/bin:$PATH swift build --show-bin-path)"
  else
    AXSERVER_BIN="$PWD/.build/debug"
  fi
fi
if [ ! -x "$AXSERVER_BIN/axserver" ]; then
  echo "test_python_client: no axserver in $AXSERVER_BIN (build first: swift build, or set AXSERVER_BIN)" >&2
  exit 1
fi
export AXSERVER_BIN
export PYTHONPATH="$PWD/Sources/PythonClient${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
export AXSERVER_A11Y_STACK="$PWD/Tools/a11y-stack.sh"
# Every wait in the tests has its own timeout; this bound only guards against the unforeseen.
PY="$(Tools/test-venv.sh)"
exec timeout --kill-after=10 900 "$PY" -m pytest -q -p no:cacheprovider "${AX_PYTEST_DIR:-Tests/PythonClient}" "$@"
