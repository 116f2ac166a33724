#!/usr/bin/env bash
# Makes (once) the checkout's test venv and prints its python: .build/test-venv, from /usr/bin/python3 with
# --system-site-packages (Debian's pyatspi, gi, dogtail, pytest stay visible), plus the PyPI packages listed in
# Tools/requirements-test.txt. Re-installs only when that file changed. Each clone has its own venv (nothing in /tmp).
#   PY="$(Tools/test-venv.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="$PWD/.build/test-venv"
REQ="$PWD/Tools/requirements-test.txt"
STAMP="$VENV/.requirements.sha256"
want="$(sha256sum "$REQ" | cut -d' ' -f1)"
# Lanes that start at once (python, toolkits, orca in Tools/test.sh) wait here for the one that makes the venv: a
# venv half made by another lane has no pip yet (CI run 10b: "No module named pip" in two lanes).
mkdir -p "$PWD/.build"
exec 9> "$PWD/.build/test-venv.lock"
flock 9
if [ ! -x "$VENV/bin/python" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ]; then
  echo "test-venv: installing $(grep -cv '^\s*#' "$REQ") PyPI packages into $VENV" >&2
  [ -x "$VENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ" >&2
  echo "$want" > "$STAMP"
fi
echo "$VENV/bin/python"
