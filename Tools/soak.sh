#!/bin/sh
# Load and soak test of axserver's JSON-RPC socket: see Tools/soak.py --help.
# Examples (release build first: swift build -c release):
#   Tools/soak.sh                                   # 100 clients x 60 s on a 2,000-control tree
#   Tools/soak.sh --seconds 600 --pending-waits 20  # 10-minute soak
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec /usr/bin/python3 "$here/soak.py" "$@"
