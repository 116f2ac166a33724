#!/usr/bin/env bash
# bench_issue35.sh - issue 35's figures beside their anchors in one run (release builds), the machine's load
# printed before each part. Figures, never a pass/fail test.
#
#   Tools/bench_issue35.sh [--quick]
#
#   1. serialisation: `tree.get` JSON and XML at 10k and 100k beside orjson (bench_serialise.py)
#   2. memory after a 100k reply (bench_reply_memory.py)
#   3. the clients' tree against Playwright's aria_snapshot() at 1k and 10k: Python and Swift (bench_playwright.py)
#   4. the MCP snapshot's bytes against Playwright MCP's (bench_mcp.py)
#   5. WebDriver: XPath after an insertion and Get Page Source at 10k (bench_webdriver.py)
#   6. the AT-SPI walk against GTK 4 at 8,609 nodes, outside and inside libatspi's loop (bench_atspi.sh)
#
# Pythons: $BENCH_PYTHON (default: the test venv, which has playwright) and $ORJSON_PYTHON for part 1 (a Python
# with orjson from PyPI; default $BENCH_PYTHON). --quick: fewer runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
PY=${BENCH_PYTHON:-.build/test-venv/bin/python}
ORJSON_PY=${ORJSON_PYTHON:-$PY}
RUNS=15; WD_RUNS=50; ATSPI_RUNS=3
if [ "${1:-}" = --quick ]; then RUNS=5; WD_RUNS=20; fi  # the walk needs 3 runs (medians)
swift build -c release --product axserver >/dev/null
swift build -c release --product axbench >/dev/null
swift build -c release --product axdriver >/dev/null
swift build -c release --product axquery >/dev/null
BIN=$(swift build -c release --show-bin-path)
load() { echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"; }

echo "### 1. serialisation vs orjson"; load
"$ORJSON_PY" Tools/bench_serialise.py --axbench "$BIN/axbench" --sizes 10000,100000
echo; echo "### 2. memory after a 100k reply"; load
"$PY" Tools/bench_reply_memory.py --axserver "$BIN/axserver" --leaves 100000 --rounds 3
echo; echo "### 3. client tree vs aria_snapshot()"; load
"$PY" Tools/bench_playwright.py --axserver "$BIN/axserver" --sizes 1000,10000 --runs "$RUNS" \
    --swift-axbench "swift=$BIN/axbench"
echo; echo "### 4. MCP snapshot bytes vs Playwright MCP"; load
"$PY" Tools/bench_mcp.py --bin "$BIN" --sizes 1000,10000 --runs "$RUNS"
echo; echo "### 5. WebDriver at 10k"; load
"$PY" Tools/bench_webdriver.py --bin "$BIN" --leaves 10000 --runs "$WD_RUNS"
echo; echo "### 6. AT-SPI walk vs GTK 4"; load
Tools/bench_atspi.sh --bin "$BIN" --like-gtk 5000 --runs "$ATSPI_RUNS" --modes "pyatspi pyatspi-loop"
load
