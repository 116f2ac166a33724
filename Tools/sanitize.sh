#!/usr/bin/env bash
# Runs the unit tests (swift test: every XCTest target, including the in-process conformance suite) under one
# sanitizer: `Tools/sanitize.sh address` (AddressSanitizer: use-after-free, overflows; LeakSanitizer is on with it
# on Linux) or `Tools/sanitize.sh thread` (ThreadSanitizer: data races).
#
# Not part of CI or Tools/test.sh: a cold sanitized build takes many minutes and the tests run several times
# slower. Each sanitizer builds into its own scratch directory (.build-asan, .build-tsan), so the ordinary
# .build stays untouched and a second run is incremental. The D-Bus and AT-SPI test targets start their own private
# dbus-daemon, as they do unsanitized.
#
# Options after the sanitizer are passed to `swift test` (e.g. `--filter ProviderRecoveryTests`, or
# `--skip 'Quickly|AreFast'` to leave out the timing assertions, which the sanitizers' slowdown can fail).
#
# Known reports that are not bugs in this project (see /work/notes/h3.md for the first full runs):
# * thread: "Swift access race" on state only touched inside `Synchronization.Mutex.withLock`. On Linux the Mutex
#   hands a contended lock over through a priority-inheritance futex in the kernel, which ThreadSanitizer cannot
#   see, so it misses the happens-before edge (a 15-line program with one Mutex reproduces it).
# * address (LeakSanitizer): 32-byte "leaks" from `swift_weakAssign`/`formWeakReference` (the side table of a weak
#   reference is stored shifted in the object's refcount word, which LSan does not read as a pointer), and
#   FoundationEssentials' `String(contentsOfFile:)` buffers.
# The log is written to .build-<asan|tsan>/sanitize.log as well as the terminal; the exit status is swift test's.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizer="${1:-}"
case "$sanitizer" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *)
        echo "usage: Tools/sanitize.sh address|thread [swift test options]" >&2
        exit 2
        ;;
esac
shift

export PATH=/opt/swift/usr/bin:$PATH
# Report every finding with a stack and keep going where the runtime allows it, so one run lists them all.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=0:detect_stack_use_after_return=0}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}"

mkdir -p "$scratch"
log="$scratch/sanitize.log"
echo "== build with --sanitize=$sanitizer into $scratch" >&2
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch" 2>&1 | tee "$log"
echo "== swift test under --sanitize=$sanitizer (log: $log)" >&2
set +e
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
set -e
findings=$(grep -c -E "^(==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer)" "$log" || true)
echo "== $sanitizer sanitizer: swift test exit status $status, $findings sanitizer report(s) in $log" >&2
exit "$status"
