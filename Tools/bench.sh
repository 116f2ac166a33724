#!/usr/bin/env bash
# Every benchmark in one run (figures, never timed tests). Release builds.
#   1. core + query + JSON-RPC:  axbench (10k-view build, one-property patch, memory per view, query.one,
#      tree.get, pipelined requests over the Unix socket, update -> event latency)
#   2. selectors vs lxml XPath on the same 10,000-node tree (counts cross-checked)
#   3. AT-SPI walk vs the GTK4 reference app at ~8,600 nodes, RSS, round trip vs the bus floor
#   4. keys: Tab through input.key → focus: event vs GTK4's X Tab, input.key round trip vs ping (Tools/bench_keys.py)
# Usage: Tools/bench.sh [--quick] [--skip-atspi]
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
export PATH=/opt/swift/usr/bin:$PATH
QUICK=""; SKIP_ATSPI=""
for a in "$@"; do
  case "$a" in --quick) QUICK="--quick" ;; --skip-atspi) SKIP_ATSPI=1 ;; esac
done
echo "### 1. core, query, JSON-RPC (axbench)"
swift build -c release --product axbench >/dev/null
"$(swift build -c release --show-bin-path)/axbench" $QUICK
echo
echo "### 2. selectors vs lxml XPath"
AXQUERY_BENCH_ITERATIONS=${AXQUERY_BENCH_ITERATIONS:-50} swift test -c release --filter 'BenchmarkTests' 2>&1 \
  | sed -n '/^query /,/^parse+compile/p'
echo
if [ -z "$SKIP_ATSPI" ]; then
  echo "### 3. AT-SPI walk vs GTK4"
  Tools/bench_atspi.sh
  echo
  echo "### 4. key latency: input.key vs GTK4's X key"
  swift build -c release --product axserver >/dev/null
  AXSERVER_BIN="$(swift build -c release --show-bin-path)" /usr/bin/python3 Tools/bench_keys.py
fi
