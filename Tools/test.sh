#!/usr/bin/env bash
# Runs every test: unit tests and the conformance suite (swift test), the conformance suite again through the
# axserver CLI, the integration suite with real parts (dbus-daemon, at-spi bus launcher and registry, pyatspi, Orca
# under Xvfb, separate provider and client processes over the socket, the axquery CLI), the Python client's tests,
# and short fuzz runs. Installs missing Debian packages first. The first phase checks the formatting (swift format).
#
# Each phase prints its progress and its own count; the last line sums every phase: "total: N passed, M failed".
# A phase that fails does not stop the others (only a failed build does); the exit code is non-zero when any did.
#
#   Tools/test.sh                      every phase (what CI runs)
#   Tools/test.sh unit integration     only the phases named: format unit conformance integration python clients fuzz
#   AX_TEST_PATTERN='test_keys*.py' Tools/test.sh integration    one integration file
# The build always runs (incremental). The fuzz phase does a cold sanitizer build of its own the first time (about
# 3 minutes on two cores); later runs reuse it.
set -uo pipefail
cd "$(dirname "$0")/.."
ALL_PHASES=(format unit conformance integration python clients fuzz)
WANTED=("$@")
for wanted in "${WANTED[@]}"; do
  case " ${ALL_PHASES[*]} " in *" $wanted "*) ;; *) echo "test.sh: unknown phase '$wanted' (phases: ${ALL_PHASES[*]})" >&2; exit 2 ;; esac
done
# pytest_counts LOG: "PASSED FAILED" from the last pytest summary line of LOG (errors count as failed).
pytest_counts() {
  /usr/bin/python3 - "$1" <<'EOF'
import re, sys
lines = [l for l in open(sys.argv[1], errors="replace") if re.search(r"\d+ (passed|failed|errors?)\b.* in [0-9.]+s", l)]
last = lines[-1] if lines else ""
count = lambda word: sum(int(n) for n in re.findall(r"(\d+) " + word, last))
print(count("passed"), count("failed") + count("errors?"))
EOF
}
# want PHASE: true when PHASE runs (every phase when none was named).
want() { [ ${#WANTED[@]} -eq 0 ] || case " ${WANTED[*]} " in *" $1 "*) true ;; *) false ;; esac; }
Tools/install-deps.sh || exit 1
export PATH=/opt/swift/usr/bin:$PATH
LOGDIR="$(mktemp -d /tmp/axtest-XXXXXX)"
TOTAL_PASSED=0
TOTAL_FAILED=0
FAILED_PHASES=()

# phase NAME PASSED FAILED STATUS: records one phase's counts (a non-zero status with no failure counted counts 1).
phase() {
  local name="$1" passed="$2" failed="$3" status="$4"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  [ "$failed" -eq 0 ] || FAILED_PHASES+=("$name")
  echo "== $name: $passed passed, $failed failed" >&2
}

if want format; then
echo "== format (swift format lint --strict, configuration in .swift-format)" >&2
swift format lint --strict --recursive --parallel Sources Tests Package.swift > "$LOGDIR/format.log" 2>&1
status=$?
findings=$(grep -c ': error: \|: warning: ' "$LOGDIR/format.log")
head -n 20 "$LOGDIR/format.log" >&2
[ "$findings" -eq 0 ] || echo "fix with: swift format -i -r Sources Tests Package.swift (then review the diff)" >&2
phase "format" "$((findings == 0 ? 1 : 0))" "$findings" "$status"
fi

echo "== build (debug, with tests)" >&2
swift build --build-tests || { echo "total: 0 passed, 1 failed (the build failed)"; exit 1; }
BIN="$(swift build --show-bin-path)"

if want unit; then
echo "== unit tests and conformance (swift test; XCTest, in parallel)" >&2
swift test --skip-build --parallel --num-workers 2 --disable-swift-testing --xunit-output "$LOGDIR/unit.xml" 2>&1 \
  | tee "$LOGDIR/unit.log" | grep -E "^\[[0-9]+/[0-9]+\]|error:" >&2
status=${PIPESTATUS[0]}
read -r passed failed < <(/usr/bin/python3 - "$LOGDIR/unit.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print(0, 1); sys.exit()
suites = [root] if root.tag == "testsuite" else root.iter("testsuite")
tests = failures = 0
for s in suites:
    tests += int(s.get("tests", 0)); failures += int(s.get("failures", 0)) + int(s.get("errors", 0))
print(tests - failures, failures)
EOF
)
phase "unit" "$passed" "$failed" "$status"
fi

if want conformance; then
echo "== conformance through the CLI" >&2
"$BIN/axserver" conformance Specs/conformance > "$LOGDIR/conformance.log" 2>&1
status=$?
tail -n 3 "$LOGDIR/conformance.log" >&2
read -r passed failed < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$LOGDIR/conformance.log" | tail -n 1)
phase "conformance" "${passed:-0}" "${failed:-0}" "$status"
# The rule coverage (R, X, A, B, C families; every rule cited or decided) and its table in the README.
/usr/bin/python3 Tools/conformance_coverage.py > "$LOGDIR/coverage.log" 2>&1
status=$?
cat "$LOGDIR/coverage.log" >&2
phase "conformance coverage" "$((status == 0 ? 1 : 0))" "$(grep -c '^PROBLEM' "$LOGDIR/coverage.log")" "$status"
fi

if want integration; then
echo "== integration (real D-Bus, AT-SPI, pyatspi, Orca, sockets, axquery)" >&2
AXSERVER_BIN="$BIN" AX_TEST_OUTPUT_DIR="$LOGDIR/integration-output" /usr/bin/python3 Tests/Integration/run.py 2>&1 \
  | tee "$LOGDIR/integration.log" >&2
status=${PIPESTATUS[0]}
read -r passed failed < <(sed -nE 's/^integration: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$LOGDIR/integration.log" | tail -n 1)
phase "integration" "${passed:-0}" "${failed:-0}" "$status"
fi

if want python; then
echo "== Python client (pytest against the real server)" >&2
AXSERVER_BIN="$BIN" Tools/test_python_client.sh 2>&1 | tee "$LOGDIR/python.log" >&2
status=${PIPESTATUS[0]}
read -r passed failed < <(pytest_counts "$LOGDIR/python.log")
phase "python client" "${passed:-0}" "${failed:-0}" "$status"
echo "== Python client in parallel (pytest-xdist -n 2, one server per worker; a subset)" >&2
AXSERVER_BIN="$BIN" Tools/test_python_client.sh -n 2 \
  -k "test_expect or test_locators or test_actions or test_plugin or test_screen_reader" 2>&1 \
  | tee "$LOGDIR/python-parallel.log" >&2
status=${PIPESTATUS[0]}
read -r passed failed < <(pytest_counts "$LOGDIR/python-parallel.log")
phase "python client -n 2" "${passed:-0}" "${failed:-0}" "$status"
fi

if want clients && [ -d Tests/Clients ]; then
  echo "== clients from PyPI (MCP SDK, Selenium, Appium against the real server; venv: Tools/test-venv.sh)" >&2
  AXSERVER_BIN="$BIN" AX_PYTEST_DIR=Tests/Clients Tools/test_python_client.sh 2>&1 | tee "$LOGDIR/clients.log" >&2
  status=${PIPESTATUS[0]}
  read -r passed failed < <(pytest_counts "$LOGDIR/clients.log")
  phase "clients" "${passed:-0}" "${failed:-0}" "$status"
fi

if want fuzz && [ -x Tools/fuzz.sh ]; then
  echo "== fuzz (libFuzzer + AddressSanitizer, 7 s per target; the first run builds the sanitized fuzzer, ~3 min cold;" \
    "long run: Tools/fuzz.sh --seconds 600)" >&2
  Tools/fuzz.sh --seconds 7 2>&1 | tee "$LOGDIR/fuzz.log" >&2
  status=${PIPESTATUS[0]}
  read -r targets crashes < <(sed -nE 's/^fuzz: ([0-9]+) targets, [0-9]+ inputs, ([0-9]+) crash.*/\1 \2/p' "$LOGDIR/fuzz.log" | tail -n 1)
  targets=${targets:-0}
  crashes=${crashes:-0}
  phase "fuzz" "$((targets - (crashes < targets ? crashes : targets)))" "$crashes" "$status"
fi

if [ ${#FAILED_PHASES[@]} -gt 0 ]; then
  echo "failed phases: ${FAILED_PHASES[*]} (logs in $LOGDIR)" >&2
fi
echo "total: $TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
