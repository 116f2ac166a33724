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
#   Tools/test.sh unit integration     only the phases named: format unit conformance integration python orca toolkits clients fuzz
#   AX_TEST_PATTERN='test_keys*.py' Tools/test.sh integration    one integration file
#   Tools/test.sh quick                the developer loop (about 2 min warm): format, the unit tests of the modules a
#                                      change reaches (Tools/quick_select.py), the Python tests that start no Orca
#   AX_TEST_SERIAL=1 Tools/test.sh     one phase after the other (as before wave 4; slower)
#   AX_INTEGRATION_SHARDS=N            the integration suite in N lanes (default 2; 1 = one lane)
# The phases that do not depend on each other run in lanes at once after the build (every test stack is private:
# its own buses, registry, Xvfb display and sockets, so lanes never share state):
#   lane 1: unit, conformance, fuzz (CPU-bound)   lanes 2..N+1: integration, shard 1..N
#   a lane: python (no Orca), clients, orca (the Python client's tests with a real Orca)
#   a lane: toolkits (Kivy, pygame_gui, Dear PyGui, ImGui apps)
# (orca ran after the toolkits until a cold run on two cores showed that lane ending 94 s after the last other one)
# The unit test targets are built only when the unit phase runs.
# Each phase writes its own log; a lane prints a phase's log when that phase ends, so the output stays in blocks.
# format runs beside the build. The build always runs (incremental). The fuzz phase does a cold sanitizer build of
# its own the first time (about 3 minutes on two cores); later runs reuse it.
set -uo pipefail
cd "$(dirname "$0")/.."
ALL_PHASES=(format unit conformance integration python orca toolkits clients fuzz)
WANTED=("$@")
QUICK=0
if [ "${1:-}" = quick ]; then
  [ $# -eq 1 ] || { echo "test.sh: quick runs alone" >&2; exit 2; }
  QUICK=1
  WANTED=(format)
fi
SHARDS="${AX_INTEGRATION_SHARDS:-2}"
case "$SHARDS" in ''|*[!0-9]*|0) echo "test.sh: AX_INTEGRATION_SHARDS=$SHARDS: write a whole number >= 1" >&2; exit 2 ;; esac
for wanted in "${WANTED[@]}"; do
  case " ${ALL_PHASES[*]} " in *" $wanted "*) ;; *) echo "test.sh: unknown phase '$wanted' (phases: ${ALL_PHASES[*]})" >&2; exit 2 ;; esac
done
# pytest_counts LOG: "PASSED FAILED" from the last pytest summary line of LOG (errors count as failed).
pytest_counts() {
  /usr/bin/python3 - "$1" <<'PYEOF'
import re, sys
lines = [l for l in open(sys.argv[1], errors="replace") if re.search(r"\d+ (passed|failed|errors?)\b.* in [0-9.]+s", l)]
last = lines[-1] if lines else ""
count = lambda word: sum(int(n) for n in re.findall(r"(\d+) " + word, last))
print(count("passed"), count("failed") + count("errors?"))
PYEOF
}
# rerun_orca_failures LOG: a pytest phase's failed tests that start a real Orca (the `orca` marker), at most three,
# run once more (Specs/decisions.md D-TEST-FLAKE-1); prints how many passed then (0 when nothing was rerun) and writes
# their names to LOG.rerun-passed. More than three failures are not timing: nothing is rerun.
rerun_orca_failures() {
  local log="$1" nodes
  mapfile -t nodes < <(sed -nE 's/^(FAILED|ERROR) ([^ ]+::[^ ]+).*/\2/p' "$log" | sort -u)
  if [ ${#nodes[@]} -eq 0 ] || [ ${#nodes[@]} -gt 3 ]; then echo 0; return; fi
  echo "== rerun once (tests with a real Orca, D-TEST-FLAKE-1): ${nodes[*]}" >&2
  AXSERVER_BIN="$BIN" AX_PYTEST_DIR="${nodes[0]}" Tools/test_python_client.sh "${nodes[@]:1}" -m orca -rA \
    > "$log.rerun" 2>&1
  cat "$log.rerun" >&2
  sed -nE 's/^PASSED ([^ ]+).*/\1/p' "$log.rerun" > "$log.rerun-passed"
  grep -c . "$log.rerun-passed" || true
}
# pytest_phase NAME LOG STATUS: records a pytest phase from its log, after one rerun of its failed Orca tests.
pytest_phase() {
  local name="$1" log="$2" status="$3" passed failed recovered
  read -r passed failed < <(pytest_counts "$log")
  passed=${passed:-0}
  failed=${failed:-0}
  if [ "$status" -ne 0 ] && [ "$failed" -gt 0 ]; then
    recovered="$(rerun_orca_failures "$log")"
    if [ "${recovered:-0}" -gt 0 ]; then
      passed=$((passed + recovered))
      failed=$((failed - recovered))
      echo "== $name: passed on a rerun (failed once): $(tr '\n' ' ' < "$log.rerun-passed")" >&2
      cp "$log.rerun-passed" "$LOGDIR/${name// /_}.flaky"
      [ "$failed" -gt 0 ] || status=0
    fi
  fi
  record "$name" "$passed" "$failed" "$status"
}
# want PHASE: true when PHASE runs (every phase when none was named).
want() { [ ${#WANTED[@]} -eq 0 ] || case " ${WANTED[*]} " in *" $1 "*) true ;; *) false ;; esac; }
Tools/install-deps.sh || exit 1
export PATH=/opt/swift/usr/bin:$PATH
LOGDIR="$(mktemp -d /tmp/axtest-XXXXXX)"
STARTED=$(date +%s)

# record NAME PASSED FAILED STATUS: writes one phase's counts to $LOGDIR/NAME.result (a non-zero status with no
# failure counted counts 1) and prints its line.
record() {
  local name="$1" passed="${2:-0}" failed="${3:-0}" status="$4"
  if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  echo "$passed $failed" > "$LOGDIR/${name// /_}.result"
  echo "== $name: $passed passed, $failed failed ($(( $(date +%s) - STARTED )) s since start)" >&2
}

phase_format() {
  swift format lint --strict --recursive --parallel Sources Tests Package.swift > "$LOGDIR/format.log" 2>&1
  local status=$? findings
  findings=$(grep -c ': error: \|: warning: ' "$LOGDIR/format.log")
  head -n 20 "$LOGDIR/format.log" >&2
  [ "$findings" -eq 0 ] || echo "fix with: swift format -i -r Sources Tests Package.swift (then review the diff)" >&2
  record "format" "$((findings == 0 ? 1 : 0))" "$findings" "$status"
}

phase_unit() {
  swift test --skip-build --parallel --num-workers 2 --disable-swift-testing --xunit-output "$LOGDIR/unit.xml" \
    > "$LOGDIR/unit.log" 2>&1
  local status=$? passed failed
  grep -E "^\[[0-9]+/[0-9]+\]|error:" "$LOGDIR/unit.log" | tail -n 40 >&2
  read -r passed failed < <(unit_counts "$LOGDIR/unit.xml")
  record "unit" "$passed" "$failed" "$status"
}

# unit_counts XUNIT: "PASSED FAILED" from swift test's xunit file (unreadable: "0 1").
unit_counts() {
  /usr/bin/python3 - "$1" <<'PYEOF'
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
PYEOF
}

phase_conformance() {
  "$BIN/axserver" conformance Specs/conformance > "$LOGDIR/conformance.log" 2>&1
  local status=$? passed failed
  tail -n 3 "$LOGDIR/conformance.log" >&2
  read -r passed failed < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$LOGDIR/conformance.log" | tail -n 1)
  record "conformance" "${passed:-0}" "${failed:-0}" "$status"
  # The rule coverage (R, X, A, B, C families; every rule cited or decided) and its table in the README.
  /usr/bin/python3 Tools/conformance_coverage.py > "$LOGDIR/coverage.log" 2>&1
  status=$?
  cat "$LOGDIR/coverage.log" >&2
  record "conformance coverage" "$((status == 0 ? 1 : 0))" "$(grep -c '^PROBLEM' "$LOGDIR/coverage.log")" "$status"
}

# phase_integration [K N]: the integration suite, or its shard K of N (Tests/Integration/run.py shares out test classes by their recorded seconds).
phase_integration() {
  local shard="${1:-1}" shards="${2:-1}" name="integration" log="$LOGDIR/integration.log"
  if [ "$shards" -gt 1 ]; then name="integration $shard of $shards"; log="$LOGDIR/integration-$shard.log"; fi
  AXSERVER_BIN="$BIN" AX_TEST_OUTPUT_DIR="$LOGDIR/integration-output" AX_TEST_SHARD="$shard/$shards" \
    /usr/bin/python3 Tests/Integration/run.py > "$log" 2>&1
  local status=$? passed failed
  cat "$log" >&2
  sed -nE 's/^passed on a rerun \(failed once; D-TEST-FLAKE-1\): //p' "$log" > "$LOGDIR/${name// /_}.flaky"
  [ -s "$LOGDIR/${name// /_}.flaky" ] || rm -f "$LOGDIR/${name// /_}.flaky"
  read -r passed failed < <(sed -nE 's/^integration: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$log" | tail -n 1)
  record "$name" "${passed:-0}" "${failed:-0}" "$status"
}

# The toolkit adapters' tests (Kivy, pygame_gui, Dear PyGui, Dear ImGui: apps of real toolkits under Xvfb) are
# their own phase and lane, so the Python client's phase does not wait on four toolkits' start-ups.
TOOLKIT_TESTS=(kivy pgui dpg imgui)
toolkit_files() {
  local prefix
  for prefix in "${TOOLKIT_TESTS[@]}"; do
    compgen -G "Tests/PythonClient/test_${prefix}_*.py" || true
  done
}

# not_toolkits: pytest arguments leaving out the toolkit adapters' test files.
not_toolkits() {
  local prefix
  for prefix in "${TOOLKIT_TESTS[@]}"; do printf '%s\n' --ignore-glob "*/test_${prefix}_*.py"; done
}

# The Python client's tests that start a real Orca (the `orca` marker; Orca 43 and 48) are the orca phase, after the
# no-Orca half and the PyPI clients in their lane, beside the toolkits' lane.
phase_orca() {
  local ignore status
  mapfile -t ignore < <(not_toolkits)
  AXSERVER_BIN="$BIN" Tools/test_python_client.sh "${ignore[@]}" -m orca > "$LOGDIR/orca.log" 2>&1
  status=$?
  cat "$LOGDIR/orca.log" >&2
  pytest_phase "python client, Orca" "$LOGDIR/orca.log" "$status"
}

# The Python client's tests that start no Orca, in two pytest-xdist workers (`-n 2`): each worker starts its own
# servers, so the phase is also the proof that the tests are isolated (Specs/python-client.md §Parallel runs). It used
# to run in one worker and then run a subset again with `-n 2` (about 50 CPU-seconds spent twice).
phase_python() {
  local ignore
  mapfile -t ignore < <(not_toolkits)
  AXSERVER_BIN="$BIN" Tools/test_python_client.sh -n 2 "${ignore[@]}" -m "not orca" > "$LOGDIR/python.log" 2>&1
  local status=$? passed failed
  cat "$LOGDIR/python.log" >&2
  read -r passed failed < <(pytest_counts "$LOGDIR/python.log")
  record "python client, no Orca (-n 2)" "${passed:-0}" "${failed:-0}" "$status"
}

phase_toolkits() {
  local files status
  mapfile -t files < <(toolkit_files)
  [ ${#files[@]} -gt 0 ] || return 0
  AXSERVER_BIN="$BIN" AX_PYTEST_DIR="${files[0]}" Tools/test_python_client.sh "${files[@]:1}" \
    > "$LOGDIR/toolkits.log" 2>&1
  status=$?
  cat "$LOGDIR/toolkits.log" >&2
  pytest_phase "toolkits" "$LOGDIR/toolkits.log" "$status"
}

phase_clients() {
  [ -d Tests/Clients ] || return 0
  AXSERVER_BIN="$BIN" AX_PYTEST_DIR=Tests/Clients Tools/test_python_client.sh > "$LOGDIR/clients.log" 2>&1
  local status=$? passed failed
  cat "$LOGDIR/clients.log" >&2
  read -r passed failed < <(pytest_counts "$LOGDIR/clients.log")
  record "clients" "${passed:-0}" "${failed:-0}" "$status"
}

phase_fuzz() {
  [ -x Tools/fuzz.sh ] || return 0
  Tools/fuzz.sh --seconds 7 --unoptimized > "$LOGDIR/fuzz.log" 2>&1
  local status=$? targets crashes
  tail -n 30 "$LOGDIR/fuzz.log" >&2
  read -r targets crashes < <(sed -nE 's/^fuzz: ([0-9]+) targets, [0-9]+ inputs, ([0-9]+) crash.*/\1 \2/p' "$LOGDIR/fuzz.log" | tail -n 1)
  targets=${targets:-0}
  crashes=${crashes:-0}
  record "fuzz" "$((targets - (crashes < targets ? crashes : targets)))" "$crashes" "$status"
}

# phase_quick: the developer loop. The unit tests of the test targets that depend on a changed module (changed:
# what differs from the merge base with main, or from HEAD on main, committed or not, untracked files included;
# Tools/quick_select.py) and the Python client's tests that start no Orca (`-m 'not orca'`, two workers).
phase_quick() {
  local base changed targets filter status passed failed
  base="$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)"
  changed="$( { git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)"
  # shellcheck disable=SC2086  # the changed paths are one per line, without spaces (the layout has none)
  targets="$(swift package describe --type json 2>/dev/null | /usr/bin/python3 Tools/quick_select.py $changed)"
  echo "== quick: changed: $(echo "$changed" | grep -c .) files; unit test targets: ${targets:-none}" >&2
  if [ -n "$targets" ]; then
    filter="^($(echo "$targets" | tr ' ' '|'))\\."
    swift test --skip-build --parallel --num-workers 2 --disable-swift-testing --filter "$filter" \
      --xunit-output "$LOGDIR/unit.xml" > "$LOGDIR/unit.log" 2>&1
    status=$?
    read -r passed failed < <(unit_counts "$LOGDIR/unit.xml")
    record "unit (changed modules)" "$passed" "$failed" "$status"
  fi
  AXSERVER_BIN="$BIN" Tools/test_python_client.sh -n 2 -m "not orca" > "$LOGDIR/python.log" 2>&1
  status=$?
  tail -n 5 "$LOGDIR/python.log" >&2
  read -r passed failed < <(pytest_counts "$LOGDIR/python.log")
  record "python client, no Orca" "${passed:-0}" "${failed:-0}" "$status"
}

# lane PHASE...: runs the wanted phases named, one after the other, each announced on stderr.
lane() {
  local name
  for name in "$@"; do
    want "$name" || continue
    echo "== $name: started ($(( $(date +%s) - STARTED )) s since start)" >&2
    "phase_$name"
  done
}

format_pid=""
if want format; then
  echo "== format (swift format lint --strict, configuration in .swift-format), beside the build" >&2
  phase_format &
  format_pid=$!
fi
# The test targets are built only for a run that has unit tests (or quick); the other phases use the products.
if want unit || [ "$QUICK" = 1 ]; then
  echo "== build (debug, with tests)" >&2
  swift build --build-tests > "$LOGDIR/build.log" 2>&1
else
  echo "== build (debug, products only: no unit phase in this run)" >&2
  swift build > "$LOGDIR/build.log" 2>&1
fi
build_status=$?
grep -E "error:|warning:|Compiling|Build complete" "$LOGDIR/build.log" | tail -n 40 >&2
[ -z "$format_pid" ] || wait "$format_pid"
[ "$build_status" -eq 0 ] || { echo "total: 0 passed, 1 failed (the build failed; log: $LOGDIR/build.log)"; exit 1; }
BIN="$(swift build --show-bin-path)"

if [ "$QUICK" = 1 ]; then
  phase_quick
elif [ "${AX_TEST_SERIAL:-0}" = 1 ]; then
  lane unit conformance integration python orca toolkits clients fuzz
else
  lane unit conformance fuzz &
  lanes=($!)
  # The integration suite in shards (test classes shared out by their recorded seconds, Tests/Integration/durations.json),
  # one lane each: most of its time is spent waiting on real processes (Orca, Xvfb, the buses), not on the CPU.
  if want integration; then
    for shard in $(seq 1 "$SHARDS"); do
      { echo "== integration $shard of $SHARDS: started ($(( $(date +%s) - STARTED )) s since start)" >&2
        phase_integration "$shard" "$SHARDS"; } &
      lanes+=($!)
    done
  fi
  lane python clients orca &
  lanes+=($!)
  lane toolkits &
  lanes+=($!)
  wait "${lanes[@]}"
fi

TOTAL_PASSED=0
TOTAL_FAILED=0
FAILED_PHASES=()
for result in "$LOGDIR"/*.result; do
  [ -e "$result" ] || continue
  read -r passed failed < "$result"
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  name="$(basename "$result" .result)"
  [ "$failed" -eq 0 ] || FAILED_PHASES+=("${name//_/ }")
  echo "   ${name//_/ }: $passed passed, $failed failed" >&2
done
for flaky in "$LOGDIR"/*.flaky; do
  [ ! -e "$flaky" ] || echo "   passed on a rerun (failed once, D-TEST-FLAKE-1): $(tr '\n' ' ' < "$flaky")" >&2
done
if [ ${#FAILED_PHASES[@]} -gt 0 ]; then
  echo "failed phases: ${FAILED_PHASES[*]} (logs in $LOGDIR)" >&2
fi
echo "wall time: $(( $(date +%s) - STARTED )) s" >&2
echo "total: $TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]
